"""RULES §8 (Event phase) and the Event-deck half of §12, tested with known answers.

Each test builds the exact situation a rule talks about, runs the spawn boxes, the move box or
a whole Event phase, and checks the resulting cards position by position. Expected values are
worked out from docs/rules.md by hand, never read back from the engine.

Event abilities are a later issue: the Event-phase tests run with :class:`BoxesOnly`, whose
event ability does nothing, so they exercise only the spawn boxes, the move box, merging,
the discard and the reshuffle — and keep doing so once abilities are implemented.
"""

from __future__ import annotations

import pytest
from support import build_state, drive, make_engine, swarm_labels, table

from deathangel.cards.model import SpawnBox
from deathangel.engine.abilities import Abilities
from deathangel.engine.decisions import Option
from deathangel.engine.formation import move_swarms
from deathangel.engine.state import LEFT, RIGHT

T = table()

THREE = [("Sergeant Gideon", "L"), ("Brother Noctis", "L"), ("Brother Claudio", "R")]
"""Three marines: positions 1 and 2 face left, position 3 faces right."""


class BoxesOnly(Abilities):
    """The base rules with every Event ability switched off (not under test here)."""

    def event_ability(self, engine, event):  # type: ignore[no-untyped-def]
        return iter(())


def ids(*labels: str) -> list[int]:
    return [T.gs_by_label[label] for label in labels]


def event_id(name: str, icon: str | None = None) -> int:
    """The first physical copy of the named Event (with that move-box icon, if given)."""
    for i, event in enumerate(T.events):
        if event.name == name and (icon is None or (event.move and event.move.icon == icon)):
            return i
    raise KeyError(name)


def on_top(state, eid: int) -> None:  # type: ignore[no-untyped-def]
    """Put Event ``eid`` on top of the Event deck (top = last element)."""
    state.event_deck.remove(eid)
    state.event_deck.append(eid)


def pile(state, side: int) -> list[str]:  # type: ignore[no-untyped-def]
    """A blip pile's labels, top card first."""
    return [T.gs_labels[c] for c in reversed(state.blips[side])]


def all_swarms(state) -> dict[tuple[int, str], list[str]]:  # type: ignore[no-untyped-def]
    """Every non-empty swarm as {(position, side): sorted labels}."""
    out = {}
    for pos in range(1, len(state.formation) + 1):
        for side in ("left", "right"):
            labels = swarm_labels(state, pos, side)
            if labels:
                out[(pos, side)] = labels
    return out


def spawn(state, size: str, color: str, answers=()) -> list:  # type: ignore[no-untyped-def]
    engine = make_engine(state)
    return drive(engine.spawn_box(SpawnBox(size, color)), answers)


SIX = ["claw-1", "claw-2", "claw-3", "claw-4", "claw-5", "claw-6"]

# -- §8.2 spawn sizes come from the setup location ------------------------------------------

# players -> (major, minor), straight from the table of RULES §3.
SIZES = {1: (2, 1), 2: (3, 1), 3: (5, 3), 4: (3, 1), 5: (4, 2), 6: (5, 3)}


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("size", ["major", "minor"])
def test_spawn_size_is_the_setup_locations_number(players: int, size: str) -> None:
    n = SIZES[players][0 if size == "major" else 1]
    st = build_state(
        THREE, players=players, terrain={(2, "left"): ["Ventilation Duct"]}, blips=(SIX, [])
    )
    assert spawn(st, size, "red") == []
    # Drawn one by one from the top of the left pile.
    assert swarm_labels(st, 2, "left") == sorted(SIX[:n])
    assert pile(st, LEFT) == SIX[n:]
    assert all_swarms(st) == {(2, "left"): sorted(SIX[:n])}


def test_only_terrain_of_the_boxs_colour_spawns() -> None:
    st = build_state(
        THREE,
        terrain={
            (1, "left"): ["Ventilation Duct"],  # red
            (2, "left"): ["Dark Corner"],  # orange
            (3, "left"): ["Door"],  # yellow
            (2, "right"): ["Corridor"],  # green
        },
        blips=(["claw-1", "claw-2", "claw-3"], ["tail-1", "tail-2"]),
    )
    spawn(st, "minor", "orange")
    assert all_swarms(st) == {(2, "left"): ["claw-1"]}
    assert pile(st, LEFT) == ["claw-2", "claw-3"]
    assert pile(st, RIGHT) == ["tail-1", "tail-2"]


def test_each_terrain_draws_from_the_pile_on_its_own_side() -> None:
    st = build_state(
        THREE,
        terrain={(1, "left"): ["Ventilation Duct"], (2, "right"): ["Spore Chimney"]},
        blips=(["claw-1", "claw-2", "claw-3"], ["tail-1", "tail-2", "tail-3"]),
    )
    assert spawn(st, "major", "red") == []
    assert all_swarms(st) == {(1, "left"): ["claw-1", "claw-2"], (2, "right"): ["tail-1", "tail-2"]}
    assert pile(st, LEFT) == ["claw-3"]
    assert pile(st, RIGHT) == ["tail-3"]


def test_an_empty_pile_spawns_nothing_and_a_short_one_what_it_has() -> None:
    st = build_state(
        THREE,
        terrain={(1, "left"): ["Ventilation Duct"], (2, "right"): ["Spore Chimney"]},
        blips=([], ["tail-1"]),
    )
    claw_1 = T.gs_by_label["claw-1"]
    st.gs_deck.remove(claw_1)
    st.gs_discard = [claw_1]
    deck, discard = st.gs_deck[:], st.gs_discard[:]
    assert spawn(st, "major", "red") == []
    assert all_swarms(st) == {(2, "right"): ["tail-1"]}
    assert st.blips == [[], []]
    # Nothing is taken from the Genestealer deck or discard to make up the shortfall (§12).
    assert st.gs_deck == deck
    assert st.gs_discard == discard


def test_spawning_onto_an_existing_swarm_joins_it() -> None:
    st = build_state(
        THREE,
        terrain={(3, "right"): ["Corridor"]},
        swarms={(3, "right"): ["head-1"]},
        blips=([], ["tail-1", "tail-2"]),
    )
    spawn(st, "minor", "green")
    assert all_swarms(st) == {(3, "right"): ["head-1", "tail-1"]}
    assert len(st.formation[2].swarms[RIGHT]) == 2


# -- §8.2 shortage: the current player orders same-colour terrain on one side (FAQ) ----------

VENT_1 = Option("terrain", ("Ventilation Duct", 1, "left"))
CHIMNEY_3 = Option("terrain", ("Spore Chimney", 3, "left"))


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (CHIMNEY_3, {(3, "left"): ["claw-1", "claw-2"], (1, "left"): ["claw-3"]}),
        (VENT_1, {(1, "left"): ["claw-1", "claw-2"], (3, "left"): ["claw-3"]}),
    ],
)
def test_shortage_current_player_chooses_which_terrain_draws_first(
    answer: Option, expected: dict[tuple[int, str], list[str]]
) -> None:
    st = build_state(
        THREE,
        terrain={(1, "left"): ["Ventilation Duct"], (3, "left"): ["Spore Chimney"]},
        blips=(["claw-1", "claw-2", "claw-3"], ["tail-1"]),
    )
    seen = spawn(st, "major", "red", [answer])
    assert len(seen) == 1
    assert seen[0].kind == "spawn_order"
    assert seen[0].seat == 1
    assert set(seen[0].options) == {VENT_1, CHIMNEY_3}
    # The first chosen gets a full spawn (2), the next gets what is left (1).
    assert all_swarms(st) == expected
    assert st.blips[LEFT] == []
    assert pile(st, RIGHT) == ["tail-1"]


def test_shortage_decision_belongs_to_the_current_player() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Claudio", "L"), ("Brother Noctis", "R")]
    st = build_state(
        rows,
        players=2,  # major 3
        seats=[["green"], ["yellow"]],
        terrain={(1, "left"): ["Ventilation Duct"], (3, "left"): ["Spore Chimney"]},
        blips=(["claw-1", "claw-2", "claw-3", "claw-4"], []),
    )
    st.current_seat = 2
    seen = spawn(st, "major", "red", [CHIMNEY_3])
    assert [d.seat for d in seen] == [2]
    assert all_swarms(st) == {
        (3, "left"): ["claw-1", "claw-2", "claw-3"],
        (1, "left"): ["claw-4"],
    }


def test_shortage_of_one_card_goes_only_to_the_chosen_terrain() -> None:
    st = build_state(
        THREE,
        terrain={(1, "left"): ["Ventilation Duct"], (3, "left"): ["Spore Chimney"]},
        blips=(["claw-1"], []),
    )
    seen = spawn(st, "major", "red", [CHIMNEY_3])
    assert [d.kind for d in seen] == ["spawn_order"]
    assert all_swarms(st) == {(3, "left"): ["claw-1"]}


def test_no_shortage_no_decision() -> None:
    st = build_state(
        THREE,
        terrain={(1, "left"): ["Ventilation Duct"], (3, "left"): ["Spore Chimney"]},
        blips=(["claw-1", "claw-2", "claw-3", "claw-4", "claw-5"], []),
    )
    assert spawn(st, "major", "red") == []
    top, bottom = swarm_labels(st, 1, "left"), swarm_labels(st, 3, "left")
    assert len(top) == 2 and len(bottom) == 2
    assert sorted(top + bottom) == ["claw-1", "claw-2", "claw-3", "claw-4"]
    assert pile(st, LEFT) == ["claw-5"]


def test_exactly_enough_cards_is_no_shortage() -> None:
    # Solo major = 2, two red terrain on the left: 2 × 2 = 4 cards are exactly enough, so
    # every terrain gets its full spawn whatever the order and nobody is asked (§8.2, §14.3).
    st = build_state(
        THREE,
        terrain={(1, "left"): ["Ventilation Duct"], (3, "left"): ["Spore Chimney"]},
        blips=(["claw-1", "claw-2", "claw-3", "claw-4"], ["tail-1"]),
    )
    assert spawn(st, "major", "red") == []
    assert len(st.formation[0].swarms[LEFT]) == 2
    assert len(st.formation[2].swarms[LEFT]) == 2
    assert st.blips[LEFT] == []
    assert pile(st, RIGHT) == ["tail-1"]


def test_two_same_colour_terrain_at_one_row_after_a_shift_both_spawn() -> None:
    st = build_state(
        THREE,
        terrain={(1, "left"): ["Ventilation Duct"], (2, "left"): ["Spore Chimney"]},
        blips=(["claw-1", "claw-2", "claw-3", "claw-4", "claw-5"], []),
    )
    engine = make_engine(st)
    # The top marine falls: the segment below moves up and both red cards share position 1.
    engine.kill_marine("Sergeant Gideon", "test")
    assert sorted(t.name for t in st.formation[0].terrain[LEFT]) == [
        "Spore Chimney",
        "Ventilation Duct",
    ]
    assert drive(engine.spawn_box(SpawnBox("major", "red"))) == []
    assert all_swarms(st) == {(1, "left"): ["claw-1", "claw-2", "claw-3", "claw-4"]}
    assert pile(st, LEFT) == ["claw-5"]


def test_two_same_colour_terrain_at_one_row_short_pile_asks_nothing() -> None:
    st = build_state(
        [("Brother Noctis", "L"), ("Brother Claudio", "R")],
        terrain={(1, "left"): ["Ventilation Duct", "Spore Chimney"]},
        blips=(["claw-1", "claw-2", "claw-3"], []),
    )
    # The order cannot matter: every card lands in the same swarm.
    assert spawn(st, "major", "red") == []
    assert all_swarms(st) == {(1, "left"): ["claw-1", "claw-2", "claw-3"]}


# -- §8 the Event phase: boxes in order, then the move box, then the discard -----------------


def test_first_spawn_box_completes_before_the_second() -> None:
    # Stalking from the Shadows: major red, then minor green; move box adjacent head.
    eid = event_id("Stalking from the Shadows")
    st = build_state(
        THREE,
        terrain={(1, "left"): ["Ventilation Duct"], (2, "left"): ["Corridor"]},
        blips=(["claw-1", "claw-2"], []),
    )
    on_top(st, eid)
    engine = make_engine(st, abilities=BoxesOnly())
    assert drive(engine.event_phase()) == []
    assert all_swarms(st) == {(1, "left"): ["claw-1", "claw-2"]}
    assert st.blips[LEFT] == []


def test_shortage_in_the_first_box_is_settled_before_the_second_box() -> None:
    # Full Scan: major red, then major yellow; move box adjacent tongue.
    eid = event_id("Full Scan")
    st = build_state(
        THREE,
        terrain={
            (1, "left"): ["Ventilation Duct"],
            (2, "left"): ["Door"],
            (3, "left"): ["Spore Chimney"],
        },
        blips=(["claw-1", "claw-2", "claw-3"], ["tail-1"]),
    )
    on_top(st, eid)
    seen = drive(make_engine(st, abilities=BoxesOnly()).event_phase(), [CHIMNEY_3])
    assert [d.kind for d in seen] == ["spawn_order"]
    # Red takes all three left cards; the yellow Door then finds the left pile empty.
    assert all_swarms(st) == {(3, "left"): ["claw-1", "claw-2"], (1, "left"): ["claw-3"]}
    assert pile(st, RIGHT) == ["tail-1"]


def test_second_box_spawns_when_the_first_leaves_cards() -> None:
    # Rewarded Faith: major green, then minor red; move box adjacent tail.
    eid = event_id("Rewarded Faith")
    st = build_state(
        THREE,
        terrain={(1, "left"): ["Corridor"], (3, "right"): ["Ventilation Duct"]},
        blips=(["claw-1", "claw-2", "claw-3"], ["head-1", "head-2"]),
    )
    on_top(st, eid)
    engine = make_engine(st, abilities=BoxesOnly())
    drive(engine.event_phase())
    assert all_swarms(st) == {(1, "left"): ["claw-1", "claw-2"], (3, "right"): ["head-1"]}
    assert pile(st, LEFT) == ["claw-3"]
    assert pile(st, RIGHT) == ["head-2"]


def test_cards_spawned_this_phase_move_and_carry_their_swarm() -> None:
    # Stalking from the Shadows: major red (2 with one player), move box adjacent head.
    eid = event_id("Stalking from the Shadows")
    st = build_state(
        THREE,
        terrain={(1, "left"): ["Ventilation Duct"]},
        swarms={(1, "left"): ["claw-5"], (2, "left"): ["tail-1"], (3, "right"): ["head-9"]},
        blips=(["head-1", "claw-1", "claw-2"], []),
    )
    on_top(st, eid)
    engine = make_engine(st, abilities=BoxesOnly())
    drive(engine.event_phase())
    # Position 1 left is now claw-5 + head-1 + claw-1: it holds a head, so all of it moves
    # down onto tail-1 (which has no head and stays); the merged swarm does not move again.
    # head-9 on the right of position 3 moves up.
    assert all_swarms(st) == {
        (2, "left"): ["claw-1", "claw-5", "head-1", "tail-1"],
        (2, "right"): ["head-9"],
    }
    assert len(st.formation[1].swarms[LEFT]) == 4
    assert pile(st, LEFT) == ["claw-2"]


def test_spawned_cards_flank_in_the_same_phase() -> None:
    # Out of Thin Air (claw copy): minor orange, minor red; move box flank claw.
    eid = event_id("Out of Thin Air", "claw")
    st = build_state(
        THREE,
        terrain={(3, "right"): ["Dark Corner"], (1, "left"): ["Spore Chimney"]},
        blips=(["tail-1"], ["claw-1"]),
    )
    on_top(st, eid)
    engine = make_engine(st, abilities=BoxesOnly())
    drive(engine.event_phase())
    # claw-1 spawns in front of Claudio (faces right) and flanks behind him; tail-1 stays.
    assert all_swarms(st) == {(3, "left"): ["claw-1"], (1, "left"): ["tail-1"]}


def test_event_phase_bottom_left_swarm_flanks_and_does_not_then_move_up() -> None:
    # Secret Route: major orange, major green (no terrain here); move box adjacent claw.
    eid = event_id("Secret Route")
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "L"), ("Brother Claudio", "L")]
    st = build_state(rows, swarms={(3, "left"): ["claw-1"]})
    on_top(st, eid)
    engine = make_engine(st, abilities=BoxesOnly())
    drive(engine.event_phase())
    assert all_swarms(st) == {(3, "right"): ["claw-1"]}


def test_moved_flags_start_fresh_each_event_phase() -> None:
    eid = event_id("Secret Route")
    st = build_state(THREE, swarms={(1, "left"): ["claw-1"]})
    st.moved = set(ids("claw-1"))  # left over from an earlier phase
    on_top(st, eid)
    drive(make_engine(st, abilities=BoxesOnly()).event_phase())
    assert all_swarms(st) == {(2, "left"): ["claw-1"]}


def test_event_card_goes_to_the_discard() -> None:
    eid = event_id("Gun Jam")
    st = build_state(THREE)
    st.event_discard = [event_id("Full Scan")]
    on_top(st, eid)
    before = len(st.event_deck)
    drive(make_engine(st, abilities=BoxesOnly()).event_phase())
    assert st.event_discard == [event_id("Full Scan"), eid]
    assert eid not in st.event_deck
    assert len(st.event_deck) == before - 1
    assert st.event is None


def test_empty_event_deck_reshuffles_the_discard_into_a_new_deck() -> None:
    st = build_state(THREE)
    old = [event_id("Gun Jam"), event_id("Full Scan"), event_id("Resupply")]
    st.event_deck = []
    st.event_discard = old[:]
    drive(make_engine(st, abilities=BoxesOnly()).event_phase())
    # The three discarded cards became the deck; one was drawn, resolved and discarded.
    assert len(st.event_deck) == 2
    assert len(st.event_discard) == 1
    assert sorted(st.event_deck + st.event_discard) == sorted(old)
    assert st.event is None


def test_event_deck_with_cards_left_is_not_reshuffled() -> None:
    st = build_state(THREE)
    last = event_id("Gun Jam")
    old = [event_id("Full Scan"), event_id("Resupply")]
    st.event_deck = [last]
    st.event_discard = old[:]
    drive(make_engine(st, abilities=BoxesOnly()).event_phase())
    assert st.event_deck == []
    assert st.event_discard == [*old, last]


# -- §8.3 move box: adjacent --------------------------------------------------------------


def move(state, icon: str, kind: str) -> int:  # type: ignore[no-untyped-def]
    return move_swarms(state, T, icon, kind)


def test_adjacent_left_moves_down_right_moves_up_without_chaining() -> None:
    st = build_state(
        THREE,
        swarms={
            (1, "left"): ["claw-1"],
            (2, "left"): ["claw-2"],
            (2, "right"): ["claw-3"],
            (3, "right"): ["claw-4"],
        },
    )
    assert move(st, "claw", "adjacent") == 4
    # Counter-clockwise, each card exactly one step: stacked swarms do not chain.
    assert all_swarms(st) == {
        (2, "left"): ["claw-1"],
        (3, "left"): ["claw-2"],
        (1, "right"): ["claw-3"],
        (2, "right"): ["claw-4"],
    }


def test_adjacent_swarm_landing_on_a_non_moving_swarm_merges_and_stops() -> None:
    st = build_state(THREE, swarms={(1, "left"): ["claw-1"], (2, "left"): ["tail-1"]})
    move(st, "claw", "adjacent")
    assert all_swarms(st) == {(2, "left"): ["claw-1", "tail-1"]}
    assert len(st.formation[1].swarms[LEFT]) == 2


def test_adjacent_left_swarm_at_bottom_in_front_flanks_and_moves_once() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "L"), ("Brother Claudio", "L")]
    st = build_state(rows, swarms={(3, "left"): ["claw-1"], (3, "right"): ["claw-2"]})
    move(st, "claw", "adjacent")
    # claw-1 would leave the bottom: it flanks behind Claudio and stays there (no move up);
    # claw-2 (right side) moves up as usual.
    assert all_swarms(st) == {(3, "right"): ["claw-1"], (2, "right"): ["claw-2"]}


def test_adjacent_left_swarm_at_bottom_already_behind_stays() -> None:
    st = build_state(THREE, swarms={(3, "left"): ["claw-1"]})  # Claudio faces right
    assert move(st, "claw", "adjacent") == 0
    assert all_swarms(st) == {(3, "left"): ["claw-1"]}


def test_adjacent_right_swarm_at_top_in_front_flanks_and_moves_once() -> None:
    rows = [("Sergeant Gideon", "R"), ("Brother Noctis", "L"), ("Brother Claudio", "R")]
    st = build_state(rows, swarms={(1, "right"): ["tail-1"], (1, "left"): ["tail-2"]})
    move(st, "tail", "adjacent")
    # tail-1 flanks to the left of position 1 and must not then move down with tail-2.
    assert all_swarms(st) == {(1, "left"): ["tail-1"], (2, "left"): ["tail-2"]}


def test_adjacent_right_swarm_at_top_already_behind_stays() -> None:
    st = build_state(THREE, swarms={(1, "right"): ["tail-1"]})  # Gideon faces left
    assert move(st, "tail", "adjacent") == 0
    assert all_swarms(st) == {(1, "right"): ["tail-1"]}


def test_adjacent_on_a_single_marine_flanks_both_ways() -> None:
    st = build_state([("Brother Leon", "L")], swarms={(1, "left"): ["head-1"]})
    move(st, "head", "adjacent")
    assert all_swarms(st) == {(1, "right"): ["head-1"]}


# -- §8.3 move box: flank -----------------------------------------------------------------


def test_flank_moves_in_front_swarms_behind_and_leaves_behind_ones() -> None:
    st = build_state(
        THREE,
        swarms={
            (1, "left"): ["tongue-1"],  # in front of Gideon (faces left)
            (2, "right"): ["tongue-2"],  # behind Noctis (faces left)
            (3, "right"): ["tongue-3"],  # in front of Claudio (faces right)
            (3, "left"): ["tongue-4"],  # behind Claudio
        },
    )
    assert move(st, "tongue", "flank") == 2
    assert all_swarms(st) == {
        (1, "right"): ["tongue-1"],
        (2, "right"): ["tongue-2"],
        (3, "left"): ["tongue-3", "tongue-4"],
    }


def test_flank_merged_swarm_does_not_flank_back() -> None:
    st = build_state(THREE, swarms={(1, "left"): ["claw-1"], (1, "right"): ["claw-2"]})
    move(st, "claw", "flank")
    assert all_swarms(st) == {(1, "right"): ["claw-1", "claw-2"]}


# -- §8.3 which swarms move: the icon, as a whole, Brood Lords' two icons -------------------


def test_only_swarms_with_the_icon_move_and_they_move_whole() -> None:
    st = build_state(
        THREE,
        swarms={
            (1, "left"): ["claw-1", "tail-1", "head-1"],
            (2, "right"): ["tail-2"],
            (3, "right"): ["head-2", "tongue-1"],
        },
    )
    assert move(st, "claw", "adjacent") == 3
    assert all_swarms(st) == {
        (2, "left"): ["claw-1", "head-1", "tail-1"],
        (2, "right"): ["tail-2"],
        (3, "right"): ["head-2", "tongue-1"],
    }


@pytest.mark.parametrize(
    ("lord", "icon", "moves"),
    [
        ("Brood Lord A", "head", True),
        ("Brood Lord A", "tail", True),
        ("Brood Lord A", "claw", False),
        ("Brood Lord A", "tongue", False),
        ("Brood Lord B", "claw", True),
        ("Brood Lord B", "tongue", True),
        ("Brood Lord B", "head", False),
        ("Brood Lord B", "tail", False),
    ],
)
def test_brood_lord_has_two_icons(lord: str, icon: str, moves: bool) -> None:
    st = build_state(THREE, swarms={(1, "left"): [lord]})
    move(st, icon, "adjacent")
    assert all_swarms(st) == {(2 if moves else 1, "left"): [lord]}


def test_brood_lord_carries_its_swarm() -> None:
    st = build_state(THREE, swarms={(2, "right"): ["claw-1", "Brood Lord A"]})
    move(st, "tail", "adjacent")
    assert all_swarms(st) == {(1, "right"): ["Brood Lord A", "claw-1"]}


def test_a_card_that_already_moved_this_phase_does_not_move_again() -> None:
    st = build_state(THREE, swarms={(1, "left"): ["claw-1"], (2, "right"): ["claw-2", "claw-3"]})
    st.moved = set(ids("claw-1", "claw-2"))  # moved earlier this Event phase
    move(st, "claw", "adjacent")
    # Flags are per card, and survive merging: only claw-3 has yet to move.
    assert all_swarms(st) == {
        (1, "left"): ["claw-1"],
        (2, "right"): ["claw-2"],
        (1, "right"): ["claw-3"],
    }
