"""RULES §10 (travel) and the Genestealer-deck / blip-pile half of §12, with known answers.

Travel is driven through :meth:`Engine.end_of_phase` (the check that closes every phase) or
:meth:`Engine.travel`. Locations used for blip counts are control-panel locations, which have
no on-entering ability, so what arrives in the blip piles is exactly the fill of step 3.
"""

from __future__ import annotations

import attrs
import pytest
from support import build_state, drive, make_engine, swarm_labels, table

from deathangel.cards.load import load_base
from deathangel.cards.model import SpawnBox
from deathangel.engine.decisions import Option
from deathangel.engine.game import card_table
from deathangel.engine.state import LEFT, RIGHT, CardTable

T = table()

THREE = [("Sergeant Gideon", "L"), ("Brother Noctis", "L"), ("Brother Claudio", "R")]

CLAWS = [f"claw-{i}" for i in range(1, 10)]
TONGUES = [f"tongue-{i}" for i in range(1, 10)]


def ids(*labels: str) -> list[int]:
    return [T.gs_by_label[label] for label in labels]


def labels(cards) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(T.gs_labels[c] for c in cards)


def loc(name: str) -> int:
    return T.location_by_name[name]


def terrain_map(state) -> dict[tuple[int, str], list[str]]:  # type: ignore[no-untyped-def]
    """Every terrain card in the formation as {(position, side): sorted names}."""
    out = {}
    for row, pos in enumerate(state.formation, start=1):
        for side, name in ((LEFT, "left"), (RIGHT, "right")):
            if pos.terrain[side]:
                out[(row, name)] = sorted(t.name for t in pos.terrain[side])
    return out


def deck_top(state, labels_top_first: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Make the Genestealer deck exactly these cards, the first one on top."""
    state.gs_deck = ids(*labels_top_first)[::-1]


# -- when travel happens (§4 travel check, §10, §11) -----------------------------------------


@pytest.mark.parametrize("empty", [LEFT, RIGHT])
def test_travel_when_either_blip_pile_is_empty(empty: int) -> None:
    piles = (["head-1"], ["head-2"])
    st = build_state(THREE, blips=piles, location_deck=["Cryo Control", "Genetorium"])
    st.blips[empty] = []
    assert drive(make_engine(st).end_of_phase()) == []
    assert st.location == loc("Cryo Control")
    assert st.location_deck == [loc("Genetorium")]
    assert len(st.blips[LEFT]) == 7 and len(st.blips[RIGHT]) == 7  # Cryo Control: 7 / 7


def test_no_travel_while_both_piles_have_cards() -> None:
    st = build_state(
        THREE,
        blips=(["head-1"], ["head-2"]),
        terrain={(1, "left"): ["Door"]},
        location="Apothecarion",
        location_deck=["Cryo Control"],
    )
    assert drive(make_engine(st).end_of_phase()) == []
    assert st.location == loc("Apothecarion")
    assert st.location_deck == [loc("Cryo Control")]
    assert terrain_map(st) == {(1, "left"): ["Door"]}
    assert labels(st.blips[LEFT]) == ["head-1"] and labels(st.blips[RIGHT]) == ["head-2"]


def test_never_travel_from_the_final_location() -> None:
    st = build_state(
        THREE,
        swarms={(2, "left"): ["claw-1"]},
        terrain={(1, "left"): ["Corridor"]},
        blips=([], ["head-2"]),
        location="Toxin Pumping Station",
    )
    deck, discard = st.gs_deck[:], st.gs_discard[:]
    assert drive(make_engine(st).end_of_phase()) == []
    assert st.location == loc("Toxin Pumping Station")
    assert st.location_deck == []
    # The empty pile stays empty: no fill without travel, no rebuild from the discard (§12).
    assert st.blips[LEFT] == []
    assert labels(st.blips[RIGHT]) == ["head-2"]
    assert st.gs_deck == deck and st.gs_discard == discard
    assert terrain_map(st) == {(1, "left"): ["Corridor"]}
    assert st.outcome is None


# -- step 1: Door tokens, then every terrain token home ------------------------------------


def door_state(tokens: int, **kw):  # type: ignore[no-untyped-def]
    st = build_state(
        THREE,
        terrain={(1, "left"): ["Door"]},
        blips=([], ["head-1"]),
        location_deck=["Cryo Control"],
        **kw,
    )
    st.formation[0].terrain[LEFT][0].tokens = tokens
    st.supply -= tokens
    return st


def test_door_slays_one_genestealer_anywhere_per_token() -> None:
    st = door_state(2, swarms={(2, "right"): ["claw-1"], (3, "left"): ["tail-1", "tail-2"]})
    seen = drive(
        make_engine(st).end_of_phase(),
        [Option("target", (3, "left")), Option("target", (2, "right"))],
    )
    assert [d.kind for d in seen] == ["door_slay", "door_slay"]
    assert set(seen[0].options) == {
        Option("target", (2, "right")),
        Option("target", (3, "left")),
        Option("done"),
    }
    # Second decision: the tails' swarm still has a card, so both targets remain offered.
    assert set(seen[1].options) == set(seen[0].options)
    assert swarm_labels(st, 2, "right") == []
    assert len(swarm_labels(st, 3, "left")) == 1
    # Slain genestealers are in the discard along with the old blip pile.
    assert "claw-1" in labels(st.gs_discard)
    assert len([c for c in labels(st.gs_discard) if c.startswith("tail")]) == 1
    assert st.supply == 12
    assert st.tokens_in_play() == 12
    assert st.location == loc("Cryo Control")


def test_door_player_may_stop_and_tokens_still_return() -> None:
    st = door_state(3, swarms={(1, "left"): ["claw-1", "claw-2"]})
    seen = drive(make_engine(st).travel(), [Option("target", (1, "left")), Option("done")])
    assert [d.kind for d in seen] == ["door_slay", "door_slay"]
    assert len(swarm_labels(st, 1, "left")) == 1
    assert st.supply == 12
    assert st.tokens_in_play() == 12


def test_door_slay_lets_the_player_choose_the_card() -> None:
    st = door_state(1, swarms={(3, "left"): ["claw-1", "head-1"]})
    seen = drive(
        make_engine(st).travel(), [Option("target", (3, "left")), Option("slay", ("head-1",))]
    )
    assert [d.kind for d in seen] == ["door_slay", "slay"]
    assert swarm_labels(st, 3, "left") == ["claw-1"]
    assert "head-1" in labels(st.gs_discard)


def test_door_decision_belongs_to_the_current_player() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Claudio", "L"), ("Brother Noctis", "R")]
    st = build_state(
        rows,
        players=2,
        seats=[["green"], ["yellow"]],
        terrain={(1, "left"): ["Door"]},
        swarms={(2, "left"): ["claw-1"]},
        blips=([], ["head-1"]),
        location_deck=["Cryo Control"],
    )
    st.formation[0].terrain[LEFT][0].tokens = 1
    st.supply -= 1
    st.current_seat = 2
    seen = drive(make_engine(st).travel(), [Option("target", (2, "left"))])
    assert [d.seat for d in seen] == [2]
    assert swarm_labels(st, 2, "left") == []


def test_door_cannot_slay_in_a_power_field_swarm_even_after_a_merge() -> None:
    st = door_state(1, swarms={(1, "left"): ["claw-1", "claw-2"], (2, "left"): ["tail-1"]})
    st.protected = set(ids("claw-1"))  # claw-2 merged into the protected swarm
    seen = drive(make_engine(st).travel(), [Option("target", (2, "left"))])
    assert set(seen[0].options) == {Option("target", (2, "left")), Option("done")}
    assert swarm_labels(st, 1, "left") == ["claw-1", "claw-2"]
    assert swarm_labels(st, 2, "left") == []


def test_door_with_only_protected_genestealers_asks_nothing() -> None:
    st = door_state(1, swarms={(1, "left"): ["claw-1", "claw-2"]})
    st.protected = set(ids("claw-2"))
    assert drive(make_engine(st).travel()) == []
    assert swarm_labels(st, 1, "left") == ["claw-1", "claw-2"]
    assert st.supply == 12


def door_named(name: str, effect: str = "door_token") -> CardTable:
    """The base cards with the Door renamed (and its effect replaced, if asked): what makes a
    Door is its card's effect, never its name."""
    db = load_base()
    terrain = tuple(
        attrs.evolve(t, name=name, effect=attrs.evolve(t.effect, name=effect))
        if t.name == "Door" and t.effect is not None
        else t
        for t in db.terrain
    )
    return card_table(attrs.evolve(db, terrain=terrain))


@pytest.mark.parametrize(
    ("name", "effect", "asked"),
    [
        ("Blast Door", "door_token", True),  # a Door by its effect, whatever its name
        ("Door", "take_artefact", False),  # the name alone makes no Door
    ],
)
def test_what_slays_on_travel_is_the_doors_effect_not_its_name(
    name: str, effect: str, asked: bool
) -> None:
    tables = door_named(name, effect)
    st = build_state(
        THREE,
        terrain={(1, "left"): [name]},
        swarms={(2, "left"): ["claw-1"]},
        blips=([], ["head-1"]),
        location_deck=["Cryo Control"],
        tables=tables,
    )
    st.formation[0].terrain[LEFT][0].tokens = 1
    st.supply -= 1
    engine = make_engine(st, tables=tables)
    seen = drive(engine.door_slays(), [Option("target", (2, "left"))] if asked else [])
    assert [d.kind for d in seen] == (["door_slay"] if asked else [])
    assert swarm_labels(st, 2, "left") == ([] if asked else ["claw-1"])


def test_tokens_on_the_location_card_are_not_lost_on_travel() -> None:
    st = build_state(THREE, location="Genetorium", location_deck=["Cryo Control"])
    st.location_tokens = 2
    st.supply -= 2
    drive(make_engine(st).travel())
    assert st.location_tokens == 0
    assert st.supply == 12
    assert st.tokens_in_play() == 12


def test_door_tokens_with_no_genestealer_just_return() -> None:
    st = door_state(2)
    assert drive(make_engine(st).travel()) == []
    assert st.supply == 12
    assert st.tokens_in_play() == 12


def test_no_door_tokens_no_door_decision() -> None:
    st = door_state(0, swarms={(1, "left"): ["claw-1"]})
    assert drive(make_engine(st).travel()) == []
    assert swarm_labels(st, 1, "left") == ["claw-1"]


# -- step 2: the new location's terrain -----------------------------------------------------


def test_main_corridor_on_three_marines_clamps_past_the_end() -> None:
    st = build_state(
        THREE,
        terrain={
            (1, "left"): ["Door"],
            (2, "right"): ["Spore Chimney"],
            (3, "left"): ["Artefact"],
        },
        blips=([], ["head-1"]),
        location_deck=["Main Corridor"],
    )
    drive(make_engine(st).end_of_phase())
    assert st.location == loc("Main Corridor")
    # Ventilation Duct left 2 from top -> 2; Door left 5 from top -> past the end -> 3;
    # Corridor right 7 from bottom -> past the top -> 1; Dark Corner right 3 from bottom -> 1.
    assert terrain_map(st) == {
        (1, "right"): ["Corridor", "Dark Corner"],
        (2, "left"): ["Ventilation Duct"],
        (3, "left"): ["Door"],
    }
    assert all(t.tokens == 0 for p in st.formation for s in p.terrain for t in s)


def test_cryo_control_on_six_marines_counts_from_both_ends() -> None:
    rows = [
        ("Sergeant Gideon", "L"),
        ("Brother Noctis", "L"),
        ("Brother Claudio", "L"),
        ("Brother Goriel", "R"),
        ("Brother Leon", "R"),
        ("Brother Valencio", "R"),
    ]
    st = build_state(rows, terrain={(6, "right"): ["Corridor"]}, location_deck=["Cryo Control"])
    drive(make_engine(st).travel())
    # Control Panel left 1 top -> 1; Ventilation Duct left 4 top -> 4;
    # Dark Corner right 5 bottom -> 6 - 5 + 1 = 2; Corridor right 2 bottom -> 5.
    assert terrain_map(st) == {
        (1, "left"): ["Control Panel"],
        (4, "left"): ["Ventilation Duct"],
        (2, "right"): ["Dark Corner"],
        (5, "right"): ["Corridor"],
    }


def test_cryo_control_on_three_marines() -> None:
    st = build_state(THREE, location_deck=["Cryo Control"])
    drive(make_engine(st).travel())
    # Ventilation Duct left 4 top -> 3; Dark Corner right 5 bottom -> 1; Corridor right 2
    # bottom -> 2.
    assert terrain_map(st) == {
        (1, "left"): ["Control Panel"],
        (3, "left"): ["Ventilation Duct"],
        (1, "right"): ["Dark Corner"],
        (2, "right"): ["Corridor"],
    }


# -- step 3: blip piles discarded, then filled left first ----------------------------------


def test_old_blips_go_to_the_discard_and_piles_fill_left_first() -> None:
    st = build_state(THREE, blips=([], ["tail-1", "tail-2"]), location_deck=["Cryo Control"])
    drive(make_engine(st).end_of_phase())
    # Deck (in id order, claw-1 on top): left takes the first 7, right the next 7.
    assert labels(st.blips[LEFT]) == sorted(CLAWS[:7])
    assert labels(st.blips[RIGHT]) == sorted(CLAWS[7:] + TONGUES[:5])
    assert labels(st.gs_discard) == ["tail-1", "tail-2"]
    assert len(st.gs_deck) == 36 - 2 - 14


def test_fill_uses_the_new_locations_numbers() -> None:
    # Core Cogitator: 7 left, 5 right.
    st = build_state(THREE, blips=(["head-1"], []), location_deck=["Core Cogitator"])
    drive(make_engine(st).travel())
    assert len(st.blips[LEFT]) == 7 and len(st.blips[RIGHT]) == 5
    assert labels(st.gs_discard) == ["head-1"]


def test_engaged_genestealers_stay_through_travel() -> None:
    st = build_state(
        THREE,
        swarms={(1, "left"): ["claw-1"], (3, "right"): ["head-1", "tail-9"]},
        blips=([], ["head-2"]),
        location_deck=["Cryo Control"],
    )
    drive(make_engine(st).end_of_phase())
    assert swarm_labels(st, 1, "left") == ["claw-1"]
    assert swarm_labels(st, 3, "right") == ["head-1", "tail-9"]
    assert st.genestealers_in_formation() == 3


def test_spawn_sizes_stay_the_setup_locations_after_travel() -> None:
    st = build_state(THREE, location_deck=["Cryo Control"])  # 1 player: major 2
    engine = make_engine(st)
    drive(engine.travel())
    left_pile = labels(st.blips[LEFT])
    drive(engine.spawn_box(SpawnBox("major", "red")))
    # Cryo Control's Ventilation Duct sits left of position 3 on three marines.
    spawned = swarm_labels(st, 3, "left")
    assert len(spawned) == 2
    assert set(spawned) <= set(left_pile)
    assert len(st.blips[LEFT]) == 5


# -- §12: Genestealer deck reshuffle, short fills ----------------------------------------


def test_empty_genestealer_deck_reshuffles_its_discard_when_drawn() -> None:
    st = build_state(THREE)
    st.gs_deck = []
    st.gs_discard = ids("claw-1", "claw-2", "claw-3")
    card = make_engine(st).draw_genestealer()
    assert T.gs_labels[card] in {"claw-1", "claw-2", "claw-3"}
    assert st.gs_discard == []
    assert labels([*st.gs_deck, card]) == ["claw-1", "claw-2", "claw-3"]


def test_fill_draws_through_a_reshuffle() -> None:
    st = build_state(THREE, blips=(["tail-1"], []), location_deck=["Cryo Control"])
    deck_top(st, ["claw-1", "claw-2", "claw-3", "claw-4", "claw-5", "claw-6", "claw-7", "claw-8"])
    st.gs_discard = ids(*TONGUES)
    drive(make_engine(st).travel())
    # Left: the 7 top cards. Right: claw-8, then the deck runs dry and the discard (the nine
    # tongues plus the old blip tail-1) is shuffled into a new deck for the other 6.
    assert labels(st.blips[LEFT]) == sorted(CLAWS[:7])
    right = labels(st.blips[RIGHT])
    assert len(right) == 7 and "claw-8" in right
    assert set(right) - {"claw-8"} <= set([*TONGUES, "tail-1"])
    assert st.gs_discard == []
    assert len(st.gs_deck) == 10 - 6


@pytest.mark.parametrize(
    ("pile", "left", "right"),
    [
        ("left", ["claw-1", "claw-2", "claw-3"], ["tongue-1", "tongue-2"]),
        ("right", ["claw-1", "claw-2"], ["claw-3", "tongue-1", "tongue-2"]),
    ],
)
def test_short_fill_splits_equally_and_current_player_places_the_odd_card(
    pile: str, left: list[str], right: list[str]
) -> None:
    st = build_state(THREE, blips=(["tongue-1", "tongue-2"], []), location_deck=["Cryo Control"])
    deck_top(st, ["claw-1", "claw-2", "claw-3"])
    st.gs_discard = []
    # 3 in the deck + 2 discarded from the old pile = 5 for two piles of 7.
    seen = drive(make_engine(st).travel(), [Option("pile", (pile,))])
    assert [d.kind for d in seen] == ["blip_split"]
    assert seen[0].seat == 1
    assert set(seen[0].options) == {Option("pile", ("left",)), Option("pile", ("right",))}
    assert labels(st.blips[LEFT]) == sorted(left)
    assert labels(st.blips[RIGHT]) == sorted(right)
    assert st.gs_deck == [] and st.gs_discard == []


def test_short_fill_odd_card_decided_by_current_player() -> None:
    st = build_state(
        [("Sergeant Gideon", "L"), ("Brother Claudio", "R")],
        players=2,
        seats=[["green"], ["yellow"]],
        location_deck=["Cryo Control"],
    )
    deck_top(st, ["claw-1", "claw-2", "claw-3"])
    st.current_seat = 2
    seen = drive(make_engine(st).travel(), [Option("pile", ("left",))])
    assert [(d.kind, d.seat) for d in seen] == [("blip_split", 2)]
    # 3 cards for two piles: 1 each, the odd one left as chosen; the left pile fills first.
    assert labels(st.blips[LEFT]) == ["claw-1", "claw-2"]
    assert labels(st.blips[RIGHT]) == ["claw-3"]


def test_short_fill_even_split_asks_nothing() -> None:
    st = build_state(THREE, location_deck=["Cryo Control"])
    deck_top(st, ["claw-1", "claw-2", "claw-3", "claw-4"])
    assert drive(make_engine(st).travel()) == []
    assert labels(st.blips[LEFT]) == ["claw-1", "claw-2"]
    assert labels(st.blips[RIGHT]) == ["claw-3", "claw-4"]


def test_short_fill_with_one_pile_satisfiable_gives_the_rest_to_the_other() -> None:
    # Core Cogitator wants 7 left / 5 right; 11 cards: right gets its 5, left the other 6.
    st = build_state(THREE, location_deck=["Core Cogitator"])
    deck_top(st, [*CLAWS, "tongue-1", "tongue-2"])
    assert drive(make_engine(st).travel()) == []
    assert len(st.blips[LEFT]) == 6 and len(st.blips[RIGHT]) == 5
    assert st.gs_deck == []


def test_no_cards_at_all_leaves_both_piles_empty() -> None:
    st = build_state(THREE, location_deck=["Cryo Control"])
    st.gs_deck = []
    assert drive(make_engine(st).travel()) == []
    assert st.blips == [[], []]
