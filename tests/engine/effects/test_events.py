"""Event-card abilities (RULES §8 step 1, §13, §14): every one of the 24 distinct Event cards.

Each test builds the exact situation the card talks about, runs the ability (directly from
``EVENT_EFFECTS`` with the card database's parameters, or through a whole Event phase with the
card on top of the deck), answers its decisions and checks the resulting state. Expected values
are worked out by hand from docs/rules.md and the card text, never read back from the engine.
Instinct cards are also checked for the options they offer: only valid targets, only those
that achieve the most the card allows (§8), and no question when no choice matters (§14.3).
"""

from __future__ import annotations

import json
from collections.abc import Generator, Sequence
from typing import Any

import attrs
import pytest
from support import build_state, drive, make_engine, marines, swarm_labels, table

from deathangel.engine.abilities import MISS, SLAIN
from deathangel.engine.decisions import Decision, Option
from deathangel.engine.effects.dispatch import CardAbilities
from deathangel.engine.effects.events import EVENT_EFFECTS
from deathangel.engine.game import card_table
from deathangel.engine.lasting import ENTER_FORMATION, EVASION, GunJam, SecondWind
from deathangel.engine.observation import observe, public_view
from deathangel.engine.randomness import Roll
from deathangel.engine.rounds import Engine
from deathangel.engine.state import LEFT, RIGHT, GameState

T = table()
DB = T.db
PARAMS = {e.effect.name: e.effect.params for e in DB.events}
"""Each effect's parameters as the card database gives them."""

FINAL = "Toxin Pumping Station"  # a final location whose only victory is clearing it


# -- helpers ---------------------------------------------------------------------------------


def ids(*labels: str) -> list[int]:
    return [T.gs_by_label[label] for label in labels]


def pile(state: GameState, side: int) -> list[str]:
    """A blip pile's labels, top card first."""
    return [T.gs_labels[c] for c in reversed(state.blips[side])]


def labels(cards: Sequence[int]) -> list[str]:
    return [T.gs_labels[c] for c in cards]


def all_swarms(state: GameState) -> dict[tuple[int, str], list[str]]:
    """Every non-empty swarm as {(position, side): sorted labels}."""
    out = {}
    for pos in range(1, len(state.formation) + 1):
        for side in ("left", "right"):
            found = swarm_labels(state, pos, side)
            if found:
                out[(pos, side)] = found
    return out


def tokens(state: GameState) -> list[int]:
    return [p.marine.tokens for p in state.formation]


def facings(state: GameState) -> list[int]:
    return [p.marine.facing for p in state.formation]


def marine(name: str) -> Option:
    return Option("marine", (name,))


def target(position: int, side: str) -> Option:
    return Option("target", (position, side))


def check_invariants(state: GameState) -> None:
    """RULES §12: 12 support tokens in play, every card in exactly one place, Brood Lords
    never in a deck or a blip pile."""
    assert state.tokens_in_play() == 12
    in_swarms = [c for p in state.formation for side in p.swarms for c in side]
    stacks = state.gs_deck + state.gs_discard + state.blips[LEFT] + state.blips[RIGHT]
    assert not any(T.is_brood_lord(c) for c in stacks)
    deck_cards = sorted(c for c in stacks + in_swarms if not T.is_brood_lord(c))
    assert deck_cards == list(range(T.deck_size))
    lords = [c for c in in_swarms if T.is_brood_lord(c)] + state.lords_slain
    assert len(lords) == len(set(lords))


def abilities() -> CardAbilities:
    return CardAbilities(DB, strict=False)


def effect(
    name: str, state: GameState, dice: Sequence[int] = (), answers: Sequence[Any] = ()
) -> tuple[Engine, list[Decision]]:
    """Run one event effect with the card database's parameters; check §12 afterwards."""
    engine = make_engine(state, dice, abilities=abilities())
    seen = drive(EVENT_EFFECTS[name](engine, PARAMS[name]), answers)
    check_invariants(state)
    return engine, seen


def event_id(name: str, icon: str | None = None) -> int:
    """The first physical copy of the named Event (with that move-box icon, if given)."""
    for i, event in enumerate(T.events):
        if event.name == name and (icon is None or (event.move and event.move.icon == icon)):
            return i
    raise KeyError(name)


def event_phase(
    state: GameState,
    name: str,
    icon: str | None = None,
    dice: Sequence[int] = (),
    answers: Sequence[Any] = (),
) -> tuple[Engine, list[Decision]]:
    """A whole Event phase with that card on top of the deck, card abilities in play."""
    eid = event_id(name, icon)
    state.event_deck.remove(eid)
    state.event_deck.append(eid)
    engine = make_engine(state, dice, abilities=abilities())
    seen = drive(engine.event_phase(), answers)
    assert state.event_discard[-1] == eid
    check_invariants(state)
    return engine, seen


def result(flow: Generator[Decision, Option, Any]) -> Any:
    """The return value of a flow that asks nothing."""
    try:
        next(flow)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("the flow asked a question")


# -- the registry ------------------------------------------------------------------------------


def test_every_event_effect_of_the_database_has_an_implementation() -> None:
    named = {e.effect.name for e in DB.events}
    assert len(named) == 22  # 24 distinct cards; both Out of Thin Air and The Swarm share one
    assert set(EVENT_EFFECTS) == named


# -- Surrounded ------------------------------------------------------------------------------

FOUR = [
    ("Sergeant Gideon", "L"),
    ("Brother Noctis", "R"),
    ("Brother Claudio", "L"),
    ("Brother Goriel", "R"),
]


def test_surrounded_every_genestealer_moves_to_the_chosen_row_on_its_own_side() -> None:
    st = build_state(
        FOUR,
        swarms={
            (1, "left"): ["claw-1"],
            (2, "right"): ["tail-1", "tail-2"],
            (3, "left"): ["head-1"],
            (4, "right"): ["Brood Lord A"],
        },
        seats=[["green"], ["yellow"]],
    )
    st.current_seat = 2
    _, seen = effect("surround", st, answers=[marine("Brother Claudio")])
    # Instinct: the current player chooses, among every marine (any is a valid target).
    assert [(d.seat, d.kind) for d in seen] == [(2, "target_marine")]
    assert seen[0].options == tuple(marine(n) for n, _ in FOUR)
    assert all_swarms(st) == {
        (3, "left"): ["claw-1", "head-1"],
        (3, "right"): ["Brood Lord A", "tail-1", "tail-2"],
    }
    assert marines(st) == [n for n, _ in FOUR]  # marines never move


def test_surrounded_a_power_field_protects_the_whole_merged_swarm() -> None:
    st = build_state(FOUR, swarms={(1, "right"): ["tail-1"], (4, "right"): ["tail-2"]})
    st.protected = set(ids("tail-2"))
    engine, _ = effect("surround", st, answers=[marine("Sergeant Gideon")])
    assert all_swarms(st) == {(1, "right"): ["tail-1", "tail-2"]}
    assert engine.is_protected(st.formation[0].swarms[RIGHT])


def test_surrounded_with_no_genestealer_asks_nothing() -> None:
    st = build_state(FOUR)
    _, seen = effect("surround", st)
    assert seen == []
    assert all_swarms(st) == {}


# -- Flanking Manoeuvre -----------------------------------------------------------------------

THREE_RED_BLUE = [("Brother Leon", "L"), ("Brother Valencio", "L"), ("Sergeant Lorenzo", "R")]


def test_flanking_manoeuvre_every_swarm_in_front_goes_behind_its_marine() -> None:
    st = build_state(
        THREE_RED_BLUE,
        swarms={
            (1, "left"): ["claw-1"],  # in front of Leon: goes behind, joins tail-1
            (1, "right"): ["tail-1"],  # behind Leon: stays
            (2, "right"): ["head-1"],  # behind Valencio: stays
            (3, "right"): ["tongue-1", "Brood Lord B"],  # in front of Lorenzo: goes left
        },
    )
    # The card has no move box and its spawn boxes find no terrain: only the ability acts.
    _, seen = event_phase(st, "Flanking Manoeuvre")
    assert seen == []
    assert all_swarms(st) == {
        (1, "right"): ["claw-1", "tail-1"],
        (2, "right"): ["head-1"],
        (3, "left"): ["Brood Lord B", "tongue-1"],
    }


# -- Out of Thin Air (two cards: move box head or claw) -------------------------------------

TWO = [("Brother Leon", "L"), ("Brother Valencio", "R")]
"""Leon faces left (behind him: right); Valencio faces right (behind him: left)."""


def test_out_of_thin_air_must_pick_a_marine_whose_rear_pile_spawns_the_most() -> None:
    st = build_state(TWO, blips=(["claw-1", "claw-2", "claw-3"], ["tail-1"]))
    # Behind Leon the right pile holds 1; behind Valencio the left pile holds 3: only
    # Valencio achieves the full 2, so he is the only option and nothing is asked.
    _, seen = effect("spawn_behind_marine", st)
    assert seen == []
    assert all_swarms(st) == {(2, "left"): ["claw-1", "claw-2"]}
    assert pile(st, LEFT) == ["claw-3"]
    assert pile(st, RIGHT) == ["tail-1"]


def test_out_of_thin_air_spawns_from_the_pile_on_the_side_behind_him() -> None:
    st = build_state(TWO, blips=(["claw-1", "claw-2"], ["tail-1", "tail-2", "tail-3"]))
    _, seen = effect("spawn_behind_marine", st, answers=[marine("Brother Leon")])
    assert seen[0].kind == "target_marine"
    assert seen[0].options == (marine("Brother Leon"), marine("Brother Valencio"))
    assert all_swarms(st) == {(1, "right"): ["tail-1", "tail-2"]}
    assert pile(st, RIGHT) == ["tail-3"]
    assert pile(st, LEFT) == ["claw-1", "claw-2"]


def test_out_of_thin_air_when_no_pile_can_give_two_the_best_is_still_chosen() -> None:
    st = build_state(TWO, blips=(["claw-1"], ["tail-1"]))
    _, seen = effect("spawn_behind_marine", st, answers=[marine("Brother Valencio")])
    assert seen[0].options == (marine("Brother Leon"), marine("Brother Valencio"))
    assert all_swarms(st) == {(2, "left"): ["claw-1"]}
    assert pile(st, LEFT) == []


def test_out_of_thin_air_with_both_piles_empty_asks_nothing() -> None:
    st = build_state(TWO)
    _, seen = effect("spawn_behind_marine", st)
    assert seen == []
    assert all_swarms(st) == {}


@pytest.mark.parametrize("icon", ["head", "claw"])
def test_out_of_thin_air_spawns_before_its_move_box_and_behind_stays_behind(icon: str) -> None:
    st = build_state(
        [("Brother Leon", "L")],
        swarms={(1, "left"): ["head-2", "claw-2"]},
        blips=(["tongue-1"], ["head-1", "claw-1", "tail-1"]),
    )
    _, seen = event_phase(st, "Out of Thin Air", icon)
    assert seen == []
    # head-1 and claw-1 spawn behind Leon (right). The flank box ({icon}) then moves the swarm
    # in front of him (it holds that icon) behind him; the spawned ones are already behind.
    assert all_swarms(st) == {(1, "right"): ["claw-1", "claw-2", "head-1", "head-2"]}
    assert pile(st, RIGHT) == ["tail-1"]
    assert pile(st, LEFT) == ["tongue-1"]


# -- The Swarm (two cards: move box tail or tongue) -------------------------------------------


def test_the_swarm_adds_two_from_the_deck_to_each_pile_left_first() -> None:
    st = build_state(TWO, blips=(["tail-1"], []))
    # The deck's top cards (build_state keeps id order) are claw-1, claw-2, claw-3, claw-4.
    _, seen = effect("reinforce_blips", st)
    assert seen == []
    assert pile(st, LEFT) == ["claw-2", "claw-1", "tail-1"]
    assert pile(st, RIGHT) == ["claw-4", "claw-3"]
    assert len(st.gs_deck) == 36 - 5


def test_the_swarm_short_deck_shares_equally_and_the_current_player_places_the_odd_card() -> None:
    st = build_state(TWO, seats=[["red"]])
    three = ids("head-9", "head-8", "head-7")  # head-7 on top
    rest = [c for c in st.gs_deck if c not in three]
    st.gs_deck = three
    st.blips = [rest[:16], rest[16:]]
    left, right = pile(st, LEFT), pile(st, RIGHT)
    # 3 cards for 2 + 2: one each, the odd one where the current player says (§12).
    _, seen = effect("reinforce_blips", st, answers=[Option("pile", ("right",))])
    assert [(d.seat, d.kind) for d in seen] == [(1, "blip_split")]
    assert pile(st, LEFT) == ["head-7", *left]
    assert pile(st, RIGHT) == ["head-9", "head-8", *right]
    assert st.gs_deck == []


@pytest.mark.parametrize("icon", ["tail", "tongue"])
def test_the_swarm_in_an_event_phase(icon: str) -> None:
    st = build_state(TWO)
    _, seen = event_phase(st, "The Swarm", icon)
    assert seen == []
    assert pile(st, LEFT) == ["claw-2", "claw-1"]
    assert pile(st, RIGHT) == ["claw-4", "claw-3"]


# -- Psychic Assault -----------------------------------------------------------------------------


@pytest.mark.parametrize("face", [0, 1, 2, 3, 4, 5])
def test_psychic_assault_slays_the_chosen_marine_on_a_0_or_1(face: int) -> None:
    st = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R", 2), ("Sergeant Lorenzo", "R")],
        swarms={(2, "left"): ["claw-1"]},
    )
    _, seen = effect("roll_or_die", st, dice=[face], answers=[marine("Brother Valencio")])
    # One question (the target); the roll is not a defence: no reroll offered despite tokens.
    assert [d.kind for d in seen] == ["target_marine"]
    assert len(seen[0].options) == 3
    if face in (0, 1):
        assert marines(st) == ["Brother Leon", "Sergeant Lorenzo"]
        assert st.slain == ["Brother Valencio"]
        assert st.supply == 12
        # Equal segments: the bottom one moved up onto the gap, where claw-1 was (§9).
        assert all_swarms(st) == {(2, "left"): ["claw-1"]}
    else:
        assert marines(st) == ["Brother Leon", "Brother Valencio", "Sergeant Lorenzo"]
        assert tokens(st) == [0, 2, 0]
        assert st.slain == []


def test_psychic_assault_on_the_last_marine_loses_the_game() -> None:
    st = build_state([("Brother Leon", "L", 1)])
    _, seen = effect("roll_or_die", st, dice=[1])
    assert seen == []
    assert st.outcome == "defeat"
    assert st.supply == 12


# -- They're Everywhere! --------------------------------------------------------------------------


def test_theyre_everywhere_top_to_bottom_each_from_the_pile_he_faces_then_the_move_box() -> None:
    st = build_state(
        [
            ("Brother Leon", "L"),  # unengaged, faces left: takes claw-1
            ("Brother Valencio", "L"),  # engaged: nothing
            ("Sergeant Lorenzo", "R"),  # unengaged, faces right: takes tail-1
            ("Brother Deino", "L"),  # unengaged, faces left: the left pile is empty by now
            ("Sergeant Gideon", "R"),  # engaged with a Power-Field swarm: still engaged
        ],
        swarms={(2, "right"): ["tail-9"], (5, "left"): ["head-9"]},
        blips=(["claw-1"], ["tail-1", "tail-2"]),
    )
    st.protected = set(ids("head-9"))
    _, seen = event_phase(st, "They're Everywhere!")
    assert seen == []
    # Then the flank box (tail): tail-1 is in front of Lorenzo and flanks behind him; tail-9
    # is already behind Valencio and stays.
    assert all_swarms(st) == {
        (1, "left"): ["claw-1"],
        (2, "right"): ["tail-9"],
        (3, "left"): ["tail-1"],
        (5, "left"): ["head-9"],
    }
    assert pile(st, LEFT) == []
    assert pile(st, RIGHT) == ["tail-2"]


def test_theyre_everywhere_a_short_right_pile_serves_the_upper_marines_first() -> None:
    """Two players (minor spawn 1, RULES §3). Three unengaged marines face right and the right
    pile holds two cards: top to bottom (§14.10), Gideon takes tongue-1, Claudio tail-1, and
    Goriel nothing; he never draws from the left pile. Noctis is engaged from behind: nothing.
    Then the boxes: minor orange, the Dark Corner (left of Goriel) takes claw-1 from the left
    pile; minor red, the Ventilation Duct (right of Noctis) finds the right pile empty. Then
    the flank move (tail): tail-1, in front of Claudio, flanks behind him."""
    st = build_state(
        [
            ("Sergeant Gideon", "R"),
            ("Brother Noctis", "L"),
            ("Brother Claudio", "R"),
            ("Brother Goriel", "R"),
        ],
        swarms={(2, "right"): ["claw-9"]},
        terrain={(4, "left"): ["Dark Corner"], (2, "right"): ["Ventilation Duct"]},
        blips=(["claw-1", "claw-2"], ["tongue-1", "tail-1"]),
        players=2,
        seats=[["green"], ["yellow"]],
    )
    _, seen = event_phase(st, "They're Everywhere!")
    assert seen == []
    assert all_swarms(st) == {
        (1, "right"): ["tongue-1"],
        (2, "right"): ["claw-9"],
        (3, "left"): ["tail-1"],
        (4, "left"): ["claw-1"],
    }
    assert pile(st, LEFT) == ["claw-2"]
    assert pile(st, RIGHT) == []


def test_theyre_everywhere_a_spawn_never_engages_another_marine() -> None:
    # Deciding "unengaged" up front or marine by marine agrees: each spawn lands at its own row.
    st = build_state(TWO, blips=(["claw-1", "claw-2"], ["tail-1", "tail-2"]))
    _, seen = effect("spawn_before_unengaged", st)
    assert seen == []
    assert all_swarms(st) == {(1, "left"): ["claw-1"], (2, "right"): ["tail-1"]}


# -- Evasion ----------------------------------------------------------------------------------


def test_evasion_binds_the_next_round_only() -> None:
    st = build_state(TWO)
    engine, seen = event_phase(st, "Evasion")
    assert seen == []
    assert st.next_effects == [EVASION]
    assert st.effects == []
    ab = engine.abilities
    assert ab.attackers_limit(engine, "red") is None  # not this round
    engine.end_round()
    assert ab.attackers_limit(engine, "red") == 1  # next round: one marine per Attack card


# -- Outnumbered ------------------------------------------------------------------------------


def test_outnumbered_every_engaged_marine_returns_all_his_tokens() -> None:
    st = build_state(
        [
            ("Brother Leon", "L", 2),  # engaged in front
            ("Brother Valencio", "R", 3),  # not engaged: keeps his
            ("Sergeant Lorenzo", "R", 1),  # engaged behind, under a Power Field: still engaged
            ("Sergeant Gideon", "L"),  # engaged, no token
        ],
        swarms={(1, "left"): ["claw-1"], (3, "left"): ["tail-1"], (4, "right"): ["head-1"]},
    )
    st.protected = set(ids("tail-1"))
    _, seen = effect("engaged_lose_support", st)
    assert seen == []
    assert tokens(st) == [0, 3, 0, 0]
    assert st.supply == 9


# -- Chaos of Battle ------------------------------------------------------------------------------


def test_chaos_of_battle_flips_every_marine_and_nothing_else() -> None:
    st = build_state(TWO, swarms={(1, "left"): ["tail-1"]}, terrain={(2, "right"): ["Door"]})
    _, seen = event_phase(st, "Chaos of Battle")
    assert seen == []
    assert facings(st) == [RIGHT, LEFT]
    # tail-1 has no head icon: the adjacent box leaves it; swarms belong to positions.
    assert all_swarms(st) == {(1, "left"): ["tail-1"]}
    assert [t.name for t in st.formation[1].terrain[RIGHT]] == ["Door"]


# -- Stalking from the Shadows ------------------------------------------------------------------

THREE = [("Brother Leon", "L"), ("Brother Valencio", "R"), ("Sergeant Lorenzo", "R")]


def with_tokens(rows: list[tuple[str, str]], counts: Sequence[int]) -> list[tuple[str, str, int]]:
    return [(name, side, n) for (name, side), n in zip(rows, counts, strict=True)]


def test_stalking_only_a_marine_with_tokens_may_be_chosen_and_he_loses_all() -> None:
    st = build_state(with_tokens(THREE, [0, 2, 3]))
    _, seen = effect("lose_all_support", st, answers=[marine("Sergeant Lorenzo")])
    assert seen[0].options == (marine("Brother Valencio"), marine("Sergeant Lorenzo"))
    assert tokens(st) == [0, 2, 0]
    assert st.supply == 10


def test_stalking_a_single_holder_is_not_asked() -> None:
    st = build_state(with_tokens(THREE, [0, 0, 4]))
    _, seen = effect("lose_all_support", st)
    assert seen == []
    assert tokens(st) == [0, 0, 0]
    assert st.supply == 12


def test_stalking_with_no_token_on_any_marine_does_nothing() -> None:
    st = build_state(THREE)
    _, seen = effect("lose_all_support", st)
    assert seen == []
    assert st.supply == 12


# -- Resupply -----------------------------------------------------------------------------------


def test_resupply_every_other_marines_tokens_move_onto_the_chosen_one() -> None:
    st = build_state(with_tokens([*THREE, ("Brother Deino", "L")], [1, 2, 0, 3]))
    _, seen = effect("gather_support", st, answers=[marine("Sergeant Lorenzo")])
    assert len(seen[0].options) == 4
    assert tokens(st) == [0, 0, 6, 0]
    assert st.supply == 6  # tokens changed hands, none went back


def test_resupply_with_no_token_on_any_marine_asks_nothing() -> None:
    st = build_state(THREE)
    _, seen = effect("gather_support", st)
    assert seen == []
    assert tokens(st) == [0, 0, 0]


# -- Gun Jam -----------------------------------------------------------------------------------

TEAMS3 = [("Sergeant Gideon", "L"), ("Brother Claudio", "L"), ("Brother Leon", "R")]


def test_gun_jam_a_team_that_revealed_no_attack_card_may_not_choose_it_next_round() -> None:
    st = build_state(TEAMS3, seats=[["green", "yellow"], ["red"]])
    st.revealed = [(4, "red", "Overwatch"), (9, "yellow", "Reorganize"), (16, "green", "Dead Aim")]
    st.current_seat = 2
    engine, seen = effect("gun_jam", st, answers=[Option("team", ("red",))])
    # Green revealed an Attack card: not a valid target.
    assert [(d.seat, d.kind) for d in seen] == [(2, "target_team")]
    assert seen[0].options == (Option("team", ("yellow",)), Option("team", ("red",)))
    assert st.next_effects == [GunJam("red")]
    assert st.effects == []
    # Next round red may choose neither Full Auto (jammed) nor Overwatch (resolved last).
    st.last_resolved = {"red": "Overwatch"}
    engine.end_round()
    assert engine.action_options("red") == [Option("card", ("Onward, Brothers!",))]


def test_gun_jam_an_eliminated_team_is_no_target() -> None:
    st = build_state(
        [("Sergeant Gideon", "L"), ("Brother Leon", "R")], seats=[["green", "yellow"], ["red"]]
    )
    st.eliminated = {"yellow"}
    st.revealed = [(4, "red", "Overwatch"), (16, "green", "Dead Aim")]
    _, seen = effect("gun_jam", st)
    assert seen == []  # red is the only valid team
    assert st.next_effects == [GunJam("red")]


def test_gun_jam_when_every_team_revealed_its_attack_card_nothing_happens() -> None:
    st = build_state([("Sergeant Gideon", "L"), ("Brother Leon", "R")])
    st.revealed = [(16, "green", "Dead Aim"), (17, "red", "Full Auto")]
    _, seen = effect("gun_jam", st)
    assert seen == []
    assert st.next_effects == []


# -- For My Battle Brothers! ---------------------------------------------------------------------


def test_battle_brothers_a_marine_with_a_token_and_a_foe_beside_him_is_the_only_choice() -> None:
    st = build_state(
        with_tokens(THREE, [1, 2, 0]),
        swarms={(1, "left"): ["claw-1", "tail-1"], (3, "right"): ["head-1"]},
    )
    # Valencio has tokens but nothing to slay; Lorenzo has a foe but no token: Leon only.
    _, seen = effect("trade_support_for_kill", st, answers=[Option("slay", ("tail-1",))])
    assert [d.kind for d in seen] == ["slay"]  # the chooser picks which genestealer
    assert tokens(st) == [0, 2, 0]
    assert all_swarms(st) == {(1, "left"): ["claw-1"], (3, "right"): ["head-1"]}
    assert labels(st.gs_discard) == ["tail-1"]
    assert st.supply == 10


def test_battle_brothers_with_no_token_anywhere_any_marine_with_a_foe() -> None:
    st = build_state(THREE, swarms={(1, "left"): ["claw-1"], (3, "right"): ["head-1", "head-2"]})
    _, seen = effect("trade_support_for_kill", st, answers=[marine("Sergeant Lorenzo")])
    assert [d.kind for d in seen] == ["target_marine"]
    assert seen[0].options == (marine("Brother Leon"), marine("Sergeant Lorenzo"))
    # head-1 and head-2 are alike: which one is not asked (§14.3).
    assert all_swarms(st) == {(1, "left"): ["claw-1"], (3, "right"): ["head-2"]}
    assert st.supply == 12


def test_battle_brothers_cannot_slay_under_a_power_field() -> None:
    st = build_state(
        with_tokens(THREE, [1, 1, 0]),
        swarms={(1, "left"): ["claw-1"], (3, "right"): ["head-1"]},
    )
    st.protected = set(ids("claw-1"))
    # Leon's foe is protected, Valencio has none: both holders achieve the same (a token);
    # Lorenzo has no token, so he is no valid target while a holder exists.
    _, seen = effect("trade_support_for_kill", st, answers=[marine("Brother Leon")])
    assert seen[0].options == (marine("Brother Leon"), marine("Brother Valencio"))
    assert tokens(st) == [0, 1, 0]
    assert all_swarms(st) == {(1, "left"): ["claw-1"], (3, "right"): ["head-1"]}
    assert st.supply == 11


def test_battle_brothers_with_no_token_and_no_foe_asks_nothing() -> None:
    st = build_state(THREE)
    _, seen = effect("trade_support_for_kill", st)
    assert seen == []


# -- Rewarded Faith ------------------------------------------------------------------------------


def test_rewarded_faith_tokens_buy_as_many_slays_of_the_choosers_choice() -> None:
    st = build_state(
        with_tokens(TWO, [3, 5]),
        swarms={
            (1, "left"): ["claw-1", "claw-2"],
            (1, "right"): ["tail-1"],
            (2, "left"): ["head-1"],
        },
    )
    # Leon may buy up to min(3 tokens, 3 foes) = 3, Valencio only 1: Leon must be chosen.
    answers = [Option("count", (2,)), target(1, "left"), target(1, "right")]
    _, seen = effect("spend_support_to_slay", st, answers=answers)
    assert [d.kind for d in seen] == ["choose", "target_swarm", "target_swarm"]
    assert seen[0].options == tuple(Option("count", (n,)) for n in range(4))
    assert tokens(st) == [1, 5]
    assert all_swarms(st) == {(1, "left"): ["claw-2"], (2, "left"): ["head-1"]}
    assert labels(st.gs_discard) == ["claw-1", "tail-1"]
    assert st.supply == 6


def test_rewarded_faith_power_field_foes_do_not_count_and_cannot_be_slain() -> None:
    st = build_state(
        with_tokens(TWO, [2, 1]),
        swarms={
            (1, "left"): ["claw-1", "claw-2", "claw-3"],
            (1, "right"): ["tail-1"],
            (2, "left"): ["head-1"],
        },
    )
    st.protected = set(ids("claw-1", "claw-2", "claw-3"))
    # Leon: min(2, 1 unprotected) = 1; Valencio: min(1, 1) = 1. Both are the best.
    answers = [marine("Brother Leon"), Option("count", (1,))]
    _, seen = effect("spend_support_to_slay", st, answers=answers)
    assert seen[0].options == (marine("Brother Leon"), marine("Brother Valencio"))
    assert seen[1].options == (Option("count", (0,)), Option("count", (1,)))
    assert all_swarms(st) == {(1, "left"): ["claw-1", "claw-2", "claw-3"], (2, "left"): ["head-1"]}
    assert tokens(st) == [1, 1]
    assert st.supply == 10


def test_rewarded_faith_he_may_spend_none() -> None:
    st = build_state(with_tokens(TWO, [2, 0]), swarms={(1, "left"): ["claw-1"]})
    _, seen = effect("spend_support_to_slay", st, answers=[Option("count", (0,))])
    assert seen[0].options == (Option("count", (0,)), Option("count", (1,)))
    assert tokens(st) == [2, 0]
    assert all_swarms(st) == {(1, "left"): ["claw-1"]}


def test_rewarded_faith_slays_the_brood_lord_last() -> None:
    st = build_state(with_tokens(TWO, [2, 0]), swarms={(1, "left"): ["Brood Lord A", "claw-1"]})
    _, seen = effect("spend_support_to_slay", st, answers=[Option("count", (2,))])
    assert len(seen) == 1  # one swarm, and never a choice between a Brood Lord and claw-1
    assert all_swarms(st) == {}
    assert labels(st.gs_discard) == ["claw-1"]
    assert labels(st.lords_slain) == ["Brood Lord A"]
    assert st.supply == 12


def test_rewarded_faith_asks_nothing_when_no_marine_could_slay() -> None:
    # Leon has a foe but no token; Valencio has tokens but no foe.
    st = build_state(with_tokens(TWO, [0, 2]), swarms={(1, "left"): ["claw-1"]})
    _, seen = effect("spend_support_to_slay", st)
    assert seen == []
    assert tokens(st) == [0, 2]


# -- Full Scan -----------------------------------------------------------------------------------


def test_full_scan_only_a_pile_with_cards_is_a_valid_target() -> None:
    st = build_state(TWO, blips=(["claw-1", "claw-2"], []))
    _, seen = effect("discard_blip_top", st)
    assert seen == []
    assert pile(st, LEFT) == ["claw-2"]
    assert labels(st.gs_discard) == ["claw-1"]


def test_full_scan_the_chooser_picks_the_pile() -> None:
    st = build_state(TWO, blips=(["claw-1"], ["tail-1", "tail-2"]))
    _, seen = effect("discard_blip_top", st, answers=[Option("pile", ("right",))])
    assert [(d.seat, d.kind) for d in seen] == [(1, "target_pile")]
    assert seen[0].options == (Option("pile", ("left",)), Option("pile", ("right",)))
    assert pile(st, LEFT) == ["claw-1"]
    assert pile(st, RIGHT) == ["tail-2"]
    assert labels(st.gs_discard) == ["tail-1"]


def test_full_scan_with_both_piles_empty_does_nothing() -> None:
    st = build_state(TWO)
    _, seen = effect("discard_blip_top", st)
    assert seen == []
    assert st.gs_discard == []


def test_full_scan_emptying_the_last_pile_at_the_final_location_wins() -> None:
    st = build_state(TWO, blips=(["claw-1"], []), location=FINAL)
    effect("discard_blip_top", st)
    assert st.outcome == "victory"


# -- Cleansing Flames ------------------------------------------------------------------------------


def test_cleansing_flames_must_pick_a_marine_with_the_most_foes_up_to_two() -> None:
    st = build_state(
        THREE,
        swarms={
            (1, "left"): ["claw-1", "claw-2", "claw-3"],  # 3, counts as 2
            (2, "left"): ["head-1"],
            (2, "right"): ["tail-1"],  # 2
            (3, "right"): ["tongue-1"],  # 1: not the most
        },
    )
    answers = [marine("Brother Valencio"), target(2, "right")]
    _, seen = effect("roll_to_slay_engaged", st, dice=[2], answers=answers)
    assert seen[0].options == (marine("Brother Leon"), marine("Brother Valencio"))
    # Skull: two slain; the chooser picks the swarm while both hold some.
    assert [d.kind for d in seen] == ["target_marine", "target_swarm"]
    assert all_swarms(st) == {
        (1, "left"): ["claw-1", "claw-2", "claw-3"],
        (3, "right"): ["tongue-1"],
    }
    assert labels(st.gs_discard) == ["tail-1", "head-1"]


@pytest.mark.parametrize("face", [0, 4, 5])
def test_cleansing_flames_without_a_skull_slays_nothing(face: int) -> None:
    st = build_state(with_tokens(TWO, [2, 0]), swarms={(1, "left"): ["claw-1", "claw-2"]})
    _, seen = effect("roll_to_slay_engaged", st, dice=[face])
    assert seen == []  # one best marine; the roll is not an attack: no reroll for his tokens
    assert all_swarms(st) == {(1, "left"): ["claw-1", "claw-2"]}
    assert tokens(st) == [2, 0]


def test_cleansing_flames_power_field_swarm_neither_counts_nor_burns() -> None:
    st = build_state(
        TWO, swarms={(1, "left"): ["claw-1", "claw-2", "claw-3"], (2, "left"): ["head-1"]}
    )
    st.protected = set(ids("claw-1", "claw-2", "claw-3"))
    _, seen = effect("roll_to_slay_engaged", st, dice=[3])
    assert seen == []  # Valencio is the only marine with a foe that may be slain
    assert all_swarms(st) == {(1, "left"): ["claw-1", "claw-2", "claw-3"]}


def test_cleansing_flames_spares_the_brood_lord_while_others_burn() -> None:
    st = build_state(TWO, swarms={(1, "left"): ["Brood Lord B", "tongue-1", "tongue-2"]})
    _, seen = effect("roll_to_slay_engaged", st, dice=[1])
    assert seen == []
    assert all_swarms(st) == {(1, "left"): ["Brood Lord B"]}
    assert st.lords_slain == []


def test_cleansing_flames_with_nothing_to_burn_neither_asks_nor_rolls() -> None:
    st = build_state(THREE)
    _, seen = effect("roll_to_slay_engaged", st, dice=[])  # any roll would fail
    assert seen == []


# -- Second Wind -----------------------------------------------------------------------------


def test_second_wind_a_0_in_defence_misses_next_round_for_the_chosen_marine() -> None:
    st = build_state(TWO)
    engine, seen = effect(
        "zero_defence_misses_next_round", st, answers=[marine("Brother Valencio")]
    )
    assert seen[0].options == (marine("Brother Leon"), marine("Brother Valencio"))
    assert st.next_effects == [SecondWind("Brother Valencio")]
    ab = engine.abilities

    def verdict(name: str, face: int) -> str:
        return str(result(ab.defence(engine, name, LEFT, Roll((face,), "test"), SLAIN)))

    assert verdict("Brother Valencio", 0) == SLAIN  # not this round
    engine.end_round()
    assert verdict("Brother Valencio", 0) == MISS
    assert verdict("Brother Valencio", 1) == SLAIN
    assert verdict("Brother Leon", 0) == SLAIN


# -- Quick Instincts -------------------------------------------------------------------------

QUICK = [("Brother Leon", "L"), ("Brother Claudio", "R"), ("Brother Goriel", "R")]
"""Leon (range 3) faces left; Claudio (range 0) and Goriel (range 2) face right."""


def test_quick_instincts_only_marines_with_a_legal_target_and_any_team() -> None:
    st = build_state(
        QUICK,
        swarms={(3, "left"): ["claw-1", "claw-2"], (1, "right"): ["tail-1"]},
        seats=[["red"], ["yellow"]],
    )
    st.current_seat = 2
    answer = Option("attack", ("Brother Leon", "left", 3))
    _, seen = effect("quick_attack", st, dice=[2], answers=[answer])
    # Claudio (range 0) has nothing in front at his own row: not offered. Leon is seat 1's.
    assert [(d.seat, d.kind) for d in seen] == [(2, "attack")]
    assert seen[0].options == (answer, Option("attack", ("Brother Goriel", "right", 1)))
    assert all_swarms(st) == {(3, "left"): ["claw-2"], (1, "right"): ["tail-1"]}


def test_quick_instincts_is_a_normal_attack_his_controller_may_reroll() -> None:
    st = build_state(
        [("Brother Leon", "L", 1), ("Brother Claudio", "R")],
        swarms={(2, "left"): ["claw-1"], (1, "right"): ["tail-1"]},
        seats=[["red"], ["yellow"]],
    )
    st.current_seat = 2
    # Only Leon has a target (tail-1 is behind him; Claudio has nothing at his row in front).
    _, seen = effect("quick_attack", st, dice=[4, 1], answers=[Option("reroll")])
    assert [(d.seat, d.kind) for d in seen] == [(1, "reroll")]
    assert all_swarms(st) == {(1, "right"): ["tail-1"]}
    assert tokens(st) == [0, 0]
    assert st.supply == 12


def test_quick_instincts_a_power_field_swarm_is_no_target() -> None:
    st = build_state(QUICK, swarms={(3, "left"): ["claw-1"], (1, "right"): ["tail-1"]})
    st.protected = set(ids("tail-1"))
    _, seen = effect("quick_attack", st, dice=[0])
    assert seen == []  # only Leon's attack is left
    assert all_swarms(st) == {(3, "left"): ["claw-1"], (1, "right"): ["tail-1"]}


def test_quick_instincts_with_no_target_asks_and_rolls_nothing() -> None:
    # Both have range 0 and a swarm behind them only.
    st = build_state(
        [("Sergeant Gideon", "L"), ("Brother Claudio", "R")],
        swarms={(1, "right"): ["tail-1"], (2, "left"): ["claw-1"]},
    )
    _, seen = effect("quick_attack", st, dice=[])
    assert seen == []


# -- Instinct secrecy (§8 step 1, ruling 21) ----------------------------------------------------


def quick_instincts_for_three(dice: Sequence[int]) -> tuple[GameState, Engine]:
    """Three players, seat 2 current: Quick Instincts on top of the Event deck. Leon (seat 1,
    one token) and Calistarius (seat 3, range 2) both face a swarm on the left."""
    st = build_state(
        [("Brother Leon", "L", 1), ("Brother Claudio", "R"), ("Lexicanium Calistarius", "L")],
        swarms={(1, "left"): ["claw-1"], (3, "left"): ["tail-1"]},
        players=3,
        seats=[["red"], ["yellow"], ["grey"]],
    )
    st.current_seat = 2
    eid = event_id("Quick Instincts")
    st.event_deck.remove(eid)
    st.event_deck.append(eid)
    return st, make_engine(st, dice, abilities=abilities())


def event_seen(state: GameState, decision: Decision | None) -> dict[int | None, str | None]:
    """The Event card each seat's observation shows (``None``: the spectator view)."""
    seen: dict[int | None, str | None] = {
        seat: observe(state, T, seat, decision).event for seat in (1, 2, 3)
    }
    for seat in (1, 2, 3):
        assert observe(state, T, seat, decision).to_dict()["event"] == seen[seat]
    seen[None] = public_view(state, T)["event"]
    return seen


def test_an_instinct_event_is_the_current_players_alone_until_he_chooses() -> None:
    """With several players the current player chooses before showing the card (§8): while
    seat 2 chooses who attacks, seats 1 and 3 and the spectator see no card; seat 2 does."""
    st, engine = quick_instincts_for_three([4])
    flow = engine.event_phase()
    choice = next(flow)
    assert (choice.seat, choice.kind) == (2, "attack")
    # Leon (range 3) and Calistarius (range 2) reach both left swarms; Claudio faces right.
    assert set(choice.options) == {
        Option("attack", ("Brother Leon", "left", 1)),
        Option("attack", ("Brother Leon", "left", 3)),
        Option("attack", ("Lexicanium Calistarius", "left", 1)),
        Option("attack", ("Lexicanium Calistarius", "left", 3)),
    }
    assert event_seen(st, choice) == {1: None, 2: "Quick Instincts", 3: None, None: None}
    assert "Quick Instincts" not in json.dumps(observe(st, T, 1, choice).to_dict())
    assert "Quick Instincts" not in json.dumps(observe(st, T, 3, choice).to_dict())
    # Calistarius attacks tail-1 and misses (4), no token to reroll: the phase ends, and the
    # card lies face up on the discard pile for everyone.
    with pytest.raises(StopIteration):
        flow.send(Option("attack", ("Lexicanium Calistarius", "left", 3)))
    assert st.event is None
    for seat in (1, 2, 3):
        assert observe(st, T, seat, None).to_dict()["event_discard"] == ["Quick Instincts"]


def test_an_instinct_event_is_public_once_chosen_even_to_the_seat_it_asks_next() -> None:
    """Ruling 21: seat 2 picks Leon; Leon's controller (seat 1) then decides on a reroll of
    the 4 the attack rolled, and sees the card that caused it, as everyone does. He rerolls
    his one token: a 1, a skull, slays claw-1."""
    st, engine = quick_instincts_for_three([4, 1])
    flow = engine.event_phase()
    choice = next(flow)
    assert event_seen(st, choice) == {1: None, 2: "Quick Instincts", 3: None, None: None}
    reroll = flow.send(Option("attack", ("Brother Leon", "left", 1)))
    assert (reroll.seat, reroll.kind) == (1, "reroll")
    assert event_seen(st, reroll) == {seat: "Quick Instincts" for seat in (1, 2, 3, None)}
    with pytest.raises(StopIteration):
        flow.send(Option("reroll"))
    assert all_swarms(st) == {(3, "left"): ["tail-1"]}
    assert tokens(st) == [0, 0, 0]


# -- Secret Route --------------------------------------------------------------------------


def test_secret_route_puts_two_tokens_on_the_door() -> None:
    st = build_state(TWO, terrain={(2, "left"): ["Door"]})
    _, seen = event_phase(st, "Secret Route")
    assert seen == []
    assert st.formation[1].terrain[LEFT][0].tokens == 2
    assert st.supply == 10


def test_secret_route_is_limited_by_the_supply() -> None:
    st = build_state(with_tokens(TWO, [11, 0]), terrain={(1, "right"): ["Door"]})
    effect("door_tokens", st)
    assert st.formation[0].terrain[RIGHT][0].tokens == 1
    assert st.supply == 0


def test_secret_route_without_a_door_does_nothing() -> None:
    st = build_state(TWO, terrain={(1, "right"): ["Corridor"]})
    effect("door_tokens", st)
    assert st.supply == 12
    assert st.formation[0].terrain[RIGHT][0].tokens == 0


def test_secret_route_finds_a_door_by_its_effect_not_its_name() -> None:
    renamed = tuple(
        attrs.evolve(t, name="Blast Door") if t.name == "Door" else t for t in DB.terrain
    )
    tables = card_table(attrs.evolve(DB, terrain=renamed))
    st = build_state(TWO, terrain={(2, "left"): ["Corridor", "Blast Door"]}, tables=tables)
    engine = make_engine(st, tables=tables)
    drive(EVENT_EFFECTS["door_tokens"](engine, PARAMS["door_tokens"]))
    # Secret Route's two tokens (its card: count = 2) go on the Door, none on the Corridor.
    assert [t.tokens for t in st.formation[1].terrain[LEFT]] == [0, 2]
    assert st.supply == 10


# -- Enter Formation -------------------------------------------------------------------------


def test_enter_formation_next_round_a_move_activate_card_may_first_place_a_token() -> None:
    st = build_state(TWO)
    engine, seen = event_phase(st, "Enter Formation")
    assert seen == []
    assert st.next_effects == [ENTER_FORMATION]
    engine.end_round()
    answers = [marine("Brother Valencio")]
    seen = drive(engine.abilities.before_move_activate(engine, "red", "Onward, Brothers!"), answers)
    assert [d.kind for d in seen] == ["place_support"]
    assert tokens(st) == [0, 1]
    assert st.supply == 11


# -- Temporary Sanctuary --------------------------------------------------------------------------


def test_temporary_sanctuary_shuffles_a_swarm_into_the_smallest_pile_brood_lord_stays() -> None:
    st = build_state(
        THREE,
        swarms={
            (1, "left"): ["head-1"],
            (2, "right"): ["claw-1", "tail-1", "Brood Lord A"],
            (3, "left"): ["Brood Lord B"],  # Brood Lords only: nothing could go back
        },
        blips=(["head-2", "head-3", "head-4"], ["tongue-1"]),
    )
    _, seen = effect("swarm_to_blips", st, answers=[target(2, "right")])
    assert [d.kind for d in seen] == ["target_swarm"]  # the right pile is smaller: not asked
    assert seen[0].options == (target(1, "left"), target(2, "right"))
    assert all_swarms(st) == {
        (1, "left"): ["head-1"],
        (2, "right"): ["Brood Lord A"],
        (3, "left"): ["Brood Lord B"],
    }
    assert sorted(pile(st, RIGHT)) == ["claw-1", "tail-1", "tongue-1"]
    assert pile(st, LEFT) == ["head-2", "head-3", "head-4"]


def test_temporary_sanctuary_tie_the_chooser_picks_the_pile() -> None:
    st = build_state(TWO, swarms={(1, "left"): ["head-1"]}, blips=(["head-2"], ["tongue-1"]))
    _, seen = effect("swarm_to_blips", st, answers=[Option("pile", ("left",))])
    assert [d.kind for d in seen] == ["target_pile"]  # the one valid swarm is not asked
    assert sorted(pile(st, LEFT)) == ["head-1", "head-2"]
    assert pile(st, RIGHT) == ["tongue-1"]
    assert all_swarms(st) == {}


def test_temporary_sanctuary_works_on_a_power_field_swarm() -> None:
    st = build_state(
        TWO, swarms={(1, "left"): ["head-1", "Brood Lord A"]}, blips=([], ["tongue-1"])
    )
    st.protected = set(ids("head-1", "Brood Lord A"))
    effect("swarm_to_blips", st)
    assert pile(st, LEFT) == ["head-1"]
    assert all_swarms(st) == {(1, "left"): ["Brood Lord A"]}
    assert st.protected == set(ids("Brood Lord A"))


def test_temporary_sanctuary_with_only_brood_lords_asks_nothing() -> None:
    st = build_state(TWO, swarms={(1, "left"): ["Brood Lord A"]}, blips=(["head-2"], []))
    _, seen = effect("swarm_to_blips", st)
    assert seen == []
    assert all_swarms(st) == {(1, "left"): ["Brood Lord A"]}
    assert pile(st, LEFT) == ["head-2"]


# -- Rescue Space Marine -------------------------------------------------------------------


def test_rescue_a_slain_marine_of_a_surviving_team_returns_at_a_new_bottom_row() -> None:
    st = build_state(
        [("Sergeant Gideon", "L", 1), ("Brother Claudio", "L"), ("Brother Goriel", "L")],
        swarms={(2, "left"): ["claw-1"], (3, "right"): ["tail-1"]},
        terrain={(3, "left"): ["Door"]},
        seats=[["green", "yellow", "red"]],
    )
    st.slain = ["Brother Leon", "Brother Valencio", "Brother Noctis"]
    st.eliminated = {"red"}
    _, seen = effect("rescue_marine", st)
    assert seen == []  # Noctis is the only one whose team still fights
    assert marines(st) == [
        "Sergeant Gideon",
        "Brother Claudio",
        "Brother Goriel",
        "Brother Noctis",
    ]
    noctis = st.formation[3]
    assert (noctis.marine.team, noctis.marine.range) == ("green", 2)
    assert (noctis.marine.facing, noctis.marine.tokens) == (RIGHT, 0)
    assert noctis.swarms == [[], []] and noctis.terrain == [[], []]
    # Nothing else moved: an insertion, not a shift.
    assert all_swarms(st) == {(2, "left"): ["claw-1"], (3, "right"): ["tail-1"]}
    assert [t.name for t in st.formation[2].terrain[LEFT]] == ["Door"]
    assert st.slain == ["Brother Leon", "Brother Valencio"]
    assert st.supply == 11


def test_rescue_the_chooser_picks_among_rescuable_marines() -> None:
    st = build_state([("Sergeant Gideon", "L"), ("Brother Claudio", "R")])
    st.slain = ["Brother Goriel", "Brother Noctis"]
    _, seen = effect("rescue_marine", st, answers=[marine("Brother Goriel")])
    assert seen[0].options == (marine("Brother Goriel"), marine("Brother Noctis"))
    assert marines(st) == ["Sergeant Gideon", "Brother Claudio", "Brother Goriel"]
    assert st.slain == ["Brother Noctis"]


def test_rescue_with_no_rescuable_marine_does_nothing() -> None:
    st = build_state([("Sergeant Gideon", "L"), ("Brother Noctis", "R")])
    st.slain = ["Brother Leon", "Brother Valencio"]
    st.eliminated = {"red"}
    _, seen = effect("rescue_marine", st)
    assert seen == []
    assert marines(st) == ["Sergeant Gideon", "Brother Noctis"]
    assert st.slain == ["Brother Leon", "Brother Valencio"]


# -- every card through a whole Event phase ------------------------------------------------------

DISTINCT = sorted({(e.name, e.move.icon if e.move else None) for e in DB.events})


def test_there_are_24_distinct_event_cards() -> None:
    assert len(DISTINCT) == 24


@pytest.mark.parametrize(("name", "icon"), DISTINCT)
def test_every_card_keeps_the_card_and_token_invariants(name: str, icon: str | None) -> None:
    """A busy position, the first option always: whatever a card does, §12 holds after."""
    st = build_state(
        [
            ("Sergeant Gideon", "L", 2),
            ("Brother Claudio", "L", 1),
            ("Brother Leon", "R"),
            ("Brother Noctis", "R", 1),
        ],
        swarms={
            (1, "left"): ["claw-1", "Brood Lord A"],
            (2, "right"): ["tail-1"],
            (4, "right"): ["head-1", "head-2"],
        },
        terrain={(1, "left"): ["Ventilation Duct"], (3, "right"): ["Door", "Dark Corner"]},
        blips=(["tongue-1", "tongue-2", "tongue-3"], ["tongue-4", "tongue-5"]),
    )
    st.slain = ["Brother Goriel"]
    eid = event_id(name, icon)
    st.event_deck.remove(eid)
    st.event_deck.append(eid)
    engine = make_engine(st, [2] * 8, abilities=abilities())
    flow = engine.event_phase()
    try:
        decision = next(flow)
        while True:
            decision = flow.send(decision.options[0])
    except StopIteration:
        pass
    check_invariants(st)
    assert st.event_discard == [eid]
