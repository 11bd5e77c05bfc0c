"""The 18 action cards' abilities (RULES §6, §6.4, §7, §13, §14), plus the next-round
effects that bind action cards (Gun Jam, Evasion, Enter Formation, Second Wind).

Every test builds the exact situation by hand, scripts every die face (the scripted die
fails on an extra roll) and every answer (``drive`` fails on an unanswered decision or an
unused answer), and checks the whole resulting state. Expected values come from the rules
text and the card texts in cards/base/teams.toml, worked out by hand.
"""

from __future__ import annotations

from functools import cache

import pytest
from support import build_state, drive, make_engine, marines, swarm_labels, table

from deathangel.cards.load import load_base
from deathangel.engine.decisions import DONE, Option, no_questions
from deathangel.engine.effects.dispatch import CardAbilities
from deathangel.engine.lasting import ENTER_FORMATION, EVASION, GunJam, SecondWind
from deathangel.engine.state import LEFT, RIGHT

# -- helpers ----------------------------------------------------------------------------------


@cache
def abilities() -> CardAbilities:
    # Not strict: event and location effects are still being written by others.
    return CardAbilities(load_base(), strict=False)


def engine_for(state, dice=()):
    return make_engine(state, dice, abilities=abilities())


def reveal(state, *cards: str, resolved: bool = False) -> None:
    """Put these action cards in play this round (and mark their teams resolved)."""
    actions = table().actions
    state.revealed = sorted((actions[c][1].initiative, actions[c][0], c) for c in cards)
    state.resolved = {actions[c][0] for c in cards} if resolved else set()


def attack(name: str, side: str, position: int) -> Option:
    return Option("attack", (name, side, position))


def marine_opt(name: str) -> Option:
    return Option("marine", (name,))


def target(position: int, side: str) -> Option:
    return Option("target", (position, side))


def place(position: int, side: str) -> Option:
    return Option("place", (position, side))


def take(position: int, side: str, label: str) -> Option:
    return Option("take", (position, side, label))


def slay_at(position: int, side: str, label: str) -> Option:
    return Option("slay_at", (position, side, label))


def pile(side: str) -> Option:
    return Option("pile", (side,))


REROLL = Option("reroll")
KEEP = Option("keep")
YES_ROLL = Option("yes", ("roll",))
YES_LOOK = Option("yes", ("look",))
NO = Option("no")


def labels(cards) -> list[str]:
    gs = table().gs_labels
    return sorted(gs[c] for c in cards)


def tokens(state) -> dict[str, int]:
    return {p.marine.name: p.marine.tokens for p in state.formation}


def facing(state) -> list[str]:
    return ["L" if p.marine.facing == LEFT else "R" for p in state.formation]


def assert_twelve(state) -> None:
    assert state.tokens_in_play() == 12


def all_swarms(state) -> dict[tuple[int, str], list[str]]:
    """Every non-empty swarm as {(position, side): sorted labels}."""
    out = {}
    for i in range(len(state.formation)):
        for side in ("left", "right"):
            got = swarm_labels(state, i + 1, side)
            if got:
                out[(i + 1, side)] = got
    return out


def drive_by_kind(flow, answers: dict[str, list[Option]]) -> list:
    """Like ``drive``, but each decision takes the next answer queued for its kind; every
    queue must be used up, and an unexpected kind fails."""
    queues = {kind: list(options) for kind, options in answers.items()}
    seen = []
    try:
        decision = next(flow)
        while True:
            seen.append(decision)
            queue = queues.get(decision.kind)
            assert queue, f"unanswered decision: {decision} {decision.options}"
            answer = queue.pop(0)
            assert answer in decision.options, f"{answer!r} not legal for {decision}"
            decision = flow.send(answer)
    except StopIteration:
        pass
    assert all(not q for q in queues.values()), f"answers left unused: {queues}"
    return seen


def no_move_no_flip() -> list[Option]:
    """Answers that decline the move step and the facing step of a Move + Activate card."""
    return [DONE, DONE]


# -- Block (green support, 1) -----------------------------------------------------------------


@pytest.mark.parametrize("face", [1, 2, 3])
def test_block_skull_defence_misses_even_from_behind(face: int) -> None:
    rows = [("Brother Noctis", "L"), ("Sergeant Gideon", "R"), ("Brother Leon", "R")]
    # Three genestealers behind Gideon (he faces right): 1-3 would slay him.
    st = build_state(rows, swarms={(2, "left"): ["claw-1", "claw-2", "claw-3"]})
    reveal(st, "Block", resolved=True)
    engine = engine_for(st, dice=[face])
    assert drive(engine.genestealer_attack()) == []
    assert marines(st) == ["Brother Noctis", "Sergeant Gideon", "Brother Leon"]
    assert all_swarms(st) == {(2, "left"): ["claw-1", "claw-2", "claw-3"]}  # nothing slain
    assert st.gs_discard == []
    assert engine.die.remaining == []
    assert_twelve(st)


@pytest.mark.parametrize(("face", "size"), [(0, 1), (4, 4), (5, 5)])
def test_block_non_skull_faces_are_unaffected(face: int, size: int) -> None:
    rows = [("Brother Noctis", "L"), ("Sergeant Gideon", "L", 0), ("Brother Leon", "R")]
    cards = [f"claw-{k}" for k in range(1, size + 1)]
    st = build_state(rows, swarms={(2, "left"): cards})
    reveal(st, "Block", resolved=True)
    engine = engine_for(st, dice=[face])
    drive(engine.genestealer_attack())
    # face <= size: slain. Equal segments around the gap: the bottom one (Leon) moves up.
    assert marines(st) == ["Brother Noctis", "Brother Leon"]
    assert st.slain == ["Sergeant Gideon"]
    assert all_swarms(st) == {(2, "left"): sorted(cards)}
    assert_twelve(st)


def test_block_after_a_reroll_and_only_for_gideon() -> None:
    rows = [("Sergeant Gideon", "L", 1), ("Brother Noctis", "L"), ("Brother Leon", "R")]
    st = build_state(
        rows,
        swarms={
            (1, "left"): ["claw-1", "claw-2", "claw-3", "claw-4", "claw-5"],
            (2, "left"): ["tongue-1", "tongue-2", "tongue-3"],
        },
    )
    reveal(st, "Block", resolved=True)
    # Gideon: 5 (5 <= 5: slain) -> reroll -> 3 (skull): Block, miss.
    # Noctis (his teammate, no Block): 2 <= 3: slain.
    engine = engine_for(st, dice=[5, 3, 2])
    seen = drive(engine.genestealer_attack(), [REROLL])
    assert [d.kind for d in seen] == ["reroll"]
    assert marines(st) == ["Sergeant Gideon", "Brother Leon"]
    assert st.slain == ["Brother Noctis"]
    assert tokens(st) == {"Sergeant Gideon": 0, "Brother Leon": 0}
    assert st.supply == 12
    assert st.gs_discard == []
    assert_twelve(st)


def test_block_not_resolved_yet_gives_no_protection() -> None:
    rows = [("Sergeant Gideon", "R"), ("Brother Leon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"]})
    reveal(st, "Block", resolved=False)
    engine = engine_for(st, dice=[2])
    drive(engine.genestealer_attack())
    assert st.slain == ["Sergeant Gideon"]
    assert_twelve(st)


# -- Defensive Stance (yellow support, 2) -----------------------------------------------------


def _stance(tokens_on_goriel: int, goriel_faces: str = "L", marine: str = "Brother Goriel"):
    rows = [
        ("Brother Noctis", "R"),
        (marine, goriel_faces, tokens_on_goriel),
        ("Brother Claudio", "R"),
    ]
    st = build_state(rows, swarms={(2, "left"): ["claw-1", "claw-2", "claw-3"]})
    reveal(st, "Defensive Stance", resolved=True)
    return st


def test_defensive_stance_reroll_turns_a_kill_into_a_miss() -> None:
    st = _stance(1)
    # 5 misses anyway; he rerolls (his choice): 2 <= 3 would slay, but he rerolled: miss.
    engine = engine_for(st, dice=[5, 2])
    seen = drive(engine.genestealer_attack(), [REROLL])
    assert [d.kind for d in seen] == ["reroll"]
    assert marines(st) == ["Brother Noctis", "Brother Goriel", "Brother Claudio"]
    assert tokens(st)["Brother Goriel"] == 0
    assert st.supply == 12
    assert all_swarms(st) == {(2, "left"): ["claw-1", "claw-2", "claw-3"]}
    assert_twelve(st)


def test_defensive_stance_two_rerolls_last_one_counts() -> None:
    st = _stance(2)
    engine = engine_for(st, dice=[4, 5, 1])
    seen = drive(engine.genestealer_attack(), [REROLL, REROLL])
    assert [d.kind for d in seen] == ["reroll", "reroll"]
    assert st.slain == []
    assert tokens(st)["Brother Goriel"] == 0
    assert_twelve(st)


def test_defensive_stance_reroll_to_zero_still_slays() -> None:
    st = _stance(1)
    engine = engine_for(st, dice=[4, 0])
    drive(engine.genestealer_attack(), [REROLL])
    assert st.slain == ["Brother Goriel"]
    assert marines(st) == ["Brother Noctis", "Brother Claudio"]
    assert_twelve(st)


def test_defensive_stance_without_reroll_is_a_normal_defence() -> None:
    st = _stance(1)
    engine = engine_for(st, dice=[2])
    seen = drive(engine.genestealer_attack(), [KEEP])
    assert [d.kind for d in seen] == ["reroll"]
    assert st.slain == ["Brother Goriel"]
    assert st.supply == 12  # his unspent token went home with him
    assert_twelve(st)


def test_defensive_stance_needs_facing_to_reroll() -> None:
    # Goriel faces right: the swarm is behind him, no reroll can be made, so normal rules.
    st = _stance(1, goriel_faces="R")
    engine = engine_for(st, dice=[2])
    assert drive(engine.genestealer_attack()) == []
    assert st.slain == ["Brother Goriel"]
    assert_twelve(st)


def test_defensive_stance_only_for_its_own_team() -> None:
    st = _stance(1, marine="Brother Leon")  # red: not covered by the yellow card
    engine = engine_for(st, dice=[5, 2])
    drive(engine.genestealer_attack(), [REROLL])
    assert st.slain == ["Brother Leon"]
    assert_twelve(st)


# -- Counter Attack (blue support, 3) ---------------------------------------------------------


def _counter(swarm: list[str], lorenzo_faces: str = "R", lorenzo_tokens: int = 0):
    rows = [("Brother Noctis", "R"), ("Sergeant Lorenzo", lorenzo_faces, lorenzo_tokens)]
    rows.append(("Brother Deino", "R"))
    st = build_state(rows, swarms={(2, "left"): swarm})
    reveal(st, "Counter Attack", resolved=True)
    return st


def test_counter_attack_chains_from_behind_until_the_swarm_is_gone() -> None:
    st = _counter(["claw-1", "claw-2", "claw-3"])  # behind Lorenzo (FAQ: still works)
    engine = engine_for(st, dice=[2, 3, 1])
    assert drive(engine.genestealer_attack()) == []
    assert st.slain == []
    assert all_swarms(st) == {}
    assert labels(st.gs_discard) == ["claw-1", "claw-2", "claw-3"]
    assert engine.die.remaining == []
    assert_twelve(st)


def test_counter_attack_chain_stops_on_a_miss() -> None:
    st = _counter(["claw-1", "claw-2", "claw-3"])
    # 1: one slain, the 2 left attack again; 4 > 2: miss, the chain stops.
    engine = engine_for(st, dice=[1, 4])
    drive(engine.genestealer_attack())
    assert st.slain == []
    assert len(st.formation[1].swarms[LEFT]) == 2
    assert len(st.gs_discard) == 1
    assert_twelve(st)


def test_counter_attack_then_a_zero_slays_lorenzo() -> None:
    st = _counter(["claw-1", "claw-2", "claw-3"])
    engine = engine_for(st, dice=[3, 0])
    drive(engine.genestealer_attack())
    assert st.slain == ["Sergeant Lorenzo"]
    # Equal segments: Deino moves up onto Lorenzo's row and is engaged with the 2 left.
    assert marines(st) == ["Brother Noctis", "Brother Deino"]
    assert len(st.formation[1].swarms[LEFT]) == 2
    assert len(st.gs_discard) == 1
    assert_twelve(st)


def test_counter_attack_reroll_brood_lord_slain_last_and_choice_of_victim() -> None:
    st = _counter(["Brood Lord A", "claw-1", "tongue-1"], lorenzo_faces="L", lorenzo_tokens=1)
    # 4 - 1 (Brood Lord) = 3 <= 3: slain -> reroll -> 2 (skull): counter; the victim is a
    # normal genestealer (his choice); the 2 left attack again: 5 - 1 = 4 > 2: miss.
    engine = engine_for(st, dice=[4, 2, 5])
    seen = drive(engine.genestealer_attack(), [REROLL, Option("slay", ("tongue-1",))])
    assert [d.kind for d in seen] == ["reroll", "slay"]
    assert set(seen[1].options) == {Option("slay", ("claw-1",)), Option("slay", ("tongue-1",))}
    assert st.slain == []
    assert all_swarms(st) == {(2, "left"): ["Brood Lord A", "claw-1"]}
    assert labels(st.gs_discard) == ["tongue-1"]
    assert tokens(st)["Sergeant Lorenzo"] == 0
    assert_twelve(st)


def test_counter_attack_slays_a_lone_brood_lord_on_a_skull() -> None:
    st = _counter(["Brood Lord A", "claw-1"])
    engine = engine_for(st, dice=[1, 2])
    drive(engine.genestealer_attack())
    assert st.slain == []
    assert all_swarms(st) == {}
    assert labels(st.gs_discard) == ["claw-1"]
    assert labels(st.lords_slain) == ["Brood Lord A"]
    assert_twelve(st)


def test_counter_attack_is_lorenzos_only() -> None:
    rows = [("Brother Deino", "R"), ("Sergeant Lorenzo", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"]})
    reveal(st, "Counter Attack", resolved=True)
    engine = engine_for(st, dice=[2])
    drive(engine.genestealer_attack())
    assert st.slain == ["Brother Deino"]
    assert_twelve(st)


def test_counter_attack_each_swarm_separately() -> None:
    rows = [("Sergeant Lorenzo", "R"), ("Brother Deino", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"], (1, "right"): ["tongue-1", "tongue-2"]})
    reveal(st, "Counter Attack", resolved=True)
    # Left first: 1 -> counter, nothing left. Right: 2 -> counter, 1 left; 5 > 1 miss.
    engine = engine_for(st, dice=[1, 2, 5])
    drive(engine.genestealer_attack())
    assert st.slain == []
    assert len(st.formation[0].swarms[RIGHT]) == 1
    assert st.formation[0].swarms[LEFT] == []
    assert len(st.gs_discard) == 2
    assert_twelve(st)


def test_counter_attack_slays_only_from_the_attacking_group_after_a_shift() -> None:
    rows = [("Brother Noctis", "R"), ("Sergeant Lorenzo", "R"), ("Brother Deino", "R")]
    st = build_state(
        rows,
        swarms={(1, "left"): ["claw-1", "claw-2"], (2, "left"): ["tongue-1", "tongue-2"]},
    )
    reveal(st, "Counter Attack", resolved=True)
    # The claws slay Noctis (1 <= 2); the gap is at the top, so the rest moves up and the
    # claws (already attacked) sit beside the tongues, apart until the phase ends (§7).
    # The tongues attack Lorenzo: 2 -> counter: a tongue is slain, never a claw (no
    # choice to make between tongues); the last tongue attacks: 5 > 1, miss.
    engine = engine_for(st, dice=[1, 2, 5])
    assert drive(engine.genestealer_attack()) == []
    assert marines(st) == ["Sergeant Lorenzo", "Brother Deino"]
    assert all_swarms(st) == {(1, "left"): ["claw-1", "claw-2", "tongue-2"]}
    assert labels(st.gs_discard) == ["tongue-1"]
    assert engine.die.remaining == []
    assert_twelve(st)


# -- Overwatch (red support, 4) ---------------------------------------------------------------


def _overwatch_state():
    rows = [
        ("Brother Leon", "R", 2),  # range 3
        ("Brother Valencio", "L", 1),  # range 2
        ("Brother Noctis", "R", 1),  # green: not his card
    ]
    return build_state(rows, swarms={(3, "right"): ["claw-1", "claw-2"], (2, "left"): ["tongue-1"]})


def test_overwatch_each_marine_pays_one_token_for_one_normal_attack() -> None:
    st = _overwatch_state()
    reveal(st, "Overwatch", resolved=True)
    # Leon pays 1, rolls 0, spends his last token to reroll: 2, slays 1. Valencio pays his
    # only token: no reroll possible; 5 misses.
    engine = engine_for(st, dice=[0, 2, 5])
    seen = drive(
        engine.abilities.end_of_event(engine),
        [
            attack("Brother Leon", "right", 3),
            REROLL,
            attack("Brother Valencio", "left", 2),
        ],
    )
    assert [d.kind for d in seen] == ["attack", "reroll", "attack"]
    assert set(seen[0].options) == {
        attack("Brother Leon", "right", 3),
        attack("Brother Valencio", "left", 2),
        DONE,
    }
    assert set(seen[2].options) == {attack("Brother Valencio", "left", 2), DONE}
    assert tokens(st) == {"Brother Leon": 0, "Brother Valencio": 0, "Brother Noctis": 1}
    assert st.supply == 11
    assert all_swarms(st) == {(2, "left"): ["tongue-1"], (3, "right"): ["claw-2"]}
    assert_twelve(st)


def test_overwatch_is_optional_and_costs_nothing_when_declined() -> None:
    st = _overwatch_state()
    reveal(st, "Overwatch", resolved=True)
    engine = engine_for(st)
    drive(engine.abilities.end_of_event(engine), [DONE])
    assert tokens(st) == {"Brother Leon": 2, "Brother Valencio": 1, "Brother Noctis": 1}
    assert_twelve(st)


def test_overwatch_needs_a_token() -> None:
    rows = [("Brother Leon", "R"), ("Brother Valencio", "L", 1)]
    st = build_state(rows, swarms={(1, "right"): ["claw-1"], (2, "left"): ["tongue-1"]})
    reveal(st, "Overwatch", resolved=True)
    engine = engine_for(st, dice=[1])
    # Only Valencio can pay: a single option plus done.
    seen = drive(engine.abilities.end_of_event(engine), [attack("Brother Valencio", "left", 2)])
    assert set(seen[0].options) == {attack("Brother Valencio", "left", 2), DONE}
    assert all_swarms(st) == {(1, "right"): ["claw-1"]}
    assert_twelve(st)


def test_overwatch_one_attack_per_marine_even_with_tokens_left() -> None:
    rows = [("Brother Leon", "R", 3), ("Brother Valencio", "L")]
    st = build_state(rows, swarms={(1, "right"): ["claw-1", "claw-2"]})
    reveal(st, "Overwatch", resolved=True)
    engine = engine_for(st, dice=[5])
    seen = drive(engine.abilities.end_of_event(engine), [attack("Brother Leon", "right", 1), KEEP])
    assert [d.kind for d in seen] == ["attack", "reroll"]
    assert tokens(st) == {"Brother Leon": 2, "Brother Valencio": 0}
    assert st.supply == 10
    assert_twelve(st)


def _no_event_ability(engine, params):
    return no_questions()


def test_overwatch_after_the_move_box_and_before_the_travel_check() -> None:
    rows = [("Brother Leon", "R", 1), ("Brother Valencio", "L"), ("Brother Noctis", "R")]
    st = build_state(
        rows,
        swarms={(2, "left"): ["head-1"], (3, "left"): ["claw-1"]},
        terrain={(3, "left"): ["Door"]},
        blips=([], ["tongue-9"]),  # an empty blip pile: travel at the end of the phase
        location_deck=["Maintenance Tunnels"],
        phase="event",
    )
    st.formation[2].terrain[LEFT][0].tokens = 1
    st.supply = 10
    reveal(st, "Overwatch", resolved=True)
    evasion = next(i for i, e in enumerate(table().events) if e.name == "Evasion")
    st.event_deck = [evasion]
    ab = CardAbilities(
        load_base(), strict=False, extra_events={"single_attacker_next_round": _no_event_ability}
    )
    engine = make_engine(st, [2], abilities=ab)
    # Evasion: its yellow spawn at the Door draws from the empty left pile: nothing; its
    # move box flanks head-1 behind Valencio, to position 2 right, where Leon (range 3,
    # facing right) can reach it: Overwatch comes after the move box. Then the travel
    # check (the Door's question) and the next round's first choice.
    flow = engine.run()
    answers = [attack("Brother Leon", "right", 2), DONE]
    seen = [next(flow)]
    while seen[-1].kind != "choose_action":
        seen.append(flow.send(answers.pop(0)))
    assert answers == []
    assert [d.kind for d in seen] == ["attack", "door_slay", "choose_action"]
    assert set(seen[0].options) == {attack("Brother Leon", "right", 2), DONE}
    # head-1 slain by Leon; tongue-9 discarded from its blip pile by the travel (§10.3).
    assert labels(st.gs_discard) == ["head-1", "tongue-9"]
    assert all_swarms(st) == {(3, "left"): ["claw-1"]}
    assert st.location == table().location_by_name["Maintenance Tunnels"]
    assert tokens(st)["Brother Leon"] == 0
    assert_twelve(st)


def test_other_resolved_cards_do_nothing_at_the_end_of_the_event() -> None:
    st = _overwatch_state()
    reveal(st, "Run and Gun", "Full Auto", resolved=True)
    engine = engine_for(st)
    assert drive(engine.abilities.end_of_event(engine)) == []
    assert_twelve(st)


# -- Strategize (purple support, 5) -----------------------------------------------------------


def _four_purple():
    return [
        ("Brother Zael", "L"),
        ("Brother Omnio", "L"),
        ("Brother Leon", "R"),
        ("Brother Valencio", "R"),
    ]


def test_strategize_moves_a_swarm_down_and_across_and_it_merges() -> None:
    st = build_state(
        _four_purple(),
        swarms={(2, "left"): ["claw-1", "claw-2"], (3, "right"): ["tongue-1"]},
    )
    reveal(st, "Strategize")
    engine = engine_for(st)
    seen = drive(
        engine.support_action("purple", "Strategize"),
        [marine_opt("Brother Zael"), target(2, "left"), place(3, "right")],
    )
    assert [d.kind for d in seen] == ["place_support", "target_swarm", "target_swarm"]
    assert set(seen[1].options) == {target(2, "left"), target(3, "right"), DONE}
    assert set(seen[2].options) == {
        place(1, "left"),
        place(1, "right"),
        place(2, "right"),
        place(3, "left"),
        place(3, "right"),
    }
    assert all_swarms(st) == {(3, "right"): ["claw-1", "claw-2", "tongue-1"]}
    assert tokens(st)["Brother Zael"] == 1
    assert_twelve(st)


def test_strategize_at_the_top_row_and_across_only() -> None:
    st = build_state(_four_purple(), swarms={(1, "right"): ["claw-1"]})
    reveal(st, "Strategize")
    engine = engine_for(st)
    seen = drive(
        engine.support_action("purple", "Strategize"),
        [marine_opt("Brother Leon"), target(1, "right"), place(1, "left")],
    )
    assert set(seen[1].options) == {target(1, "right"), DONE}
    assert set(seen[2].options) == {place(1, "left"), place(2, "left"), place(2, "right")}
    assert all_swarms(st) == {(1, "left"): ["claw-1"]}
    assert_twelve(st)


def test_strategize_is_optional() -> None:
    st = build_state(_four_purple(), swarms={(4, "left"): ["claw-1"]})
    reveal(st, "Strategize")
    engine = engine_for(st)
    drive(engine.support_action("purple", "Strategize"), [marine_opt("Brother Omnio"), DONE])
    assert all_swarms(st) == {(4, "left"): ["claw-1"]}
    assert_twelve(st)


# -- Power Field (grey support, 6) ------------------------------------------------------------


def _field_rows():
    return [
        ("Lexicanium Calistarius", "L"),
        ("Brother Scipio", "R"),
        ("Brother Noctis", "L"),
        ("Brother Claudio", "L"),
    ]


def test_power_field_swarm_does_not_attack_and_cannot_be_attacked_this_round() -> None:
    st = build_state(
        _field_rows(),
        swarms={
            (1, "left"): ["claw-1", "claw-2", "claw-3"],
            (2, "right"): ["tongue-1"],
            (3, "left"): ["tail-1"],
        },
    )
    reveal(st, "Power Field")
    engine = engine_for(st, dice=[5, 4])
    seen = drive(
        engine.support_action("grey", "Power Field"),
        [marine_opt("Brother Claudio"), target(1, "left")],
    )
    assert set(seen[1].options) == {
        target(1, "left"),
        target(2, "right"),
        target(3, "left"),
        DONE,
    }
    assert labels(st.protected) == ["claw-1", "claw-2", "claw-3"]
    st.resolved = {"grey"}
    # Genestealer Attack: the protected swarm (it would roll first) does not attack;
    # tongue-1 rolls 5 against Scipio, tail-1 rolls 4 against Noctis: both miss.
    drive(engine.genestealer_attack())
    assert engine.die.remaining == []
    assert st.slain == []
    # Noctis (range 2, faces left, position 3) may attack position 3 but not the field.
    seen = drive(engine.attack_action("green", "Dead Aim"), [DONE])
    assert set(seen[0].options) == {attack("Brother Noctis", "left", 3), DONE}
    assert labels(st.protected) == ["claw-1", "claw-2", "claw-3"]
    # Round over: the protection ends and the swarm attacks again next round.
    engine.end_round()
    assert st.protected == set()
    assert (
        attack("Brother Noctis", "left", 1)
        in drive(engine.attack_action("green", "Dead Aim"), [DONE])[0].options
    )
    assert_twelve(st)


def test_power_field_nothing_can_slay_it_heroic_charge_and_door() -> None:
    rows = [("Brother Goriel", "R"), ("Brother Claudio", "L"), ("Brother Scipio", "R")]
    st = build_state(
        rows,
        swarms={(1, "left"): ["claw-1"], (2, "right"): ["tongue-1"]},
        terrain={(3, "left"): ["Door"]},
    )
    st.formation[2].terrain[LEFT][0].tokens = 1
    st.supply = 11
    reveal(st, "Heroic Charge")
    st.protected = {table().gs_by_label["claw-1"]}
    engine = engine_for(st, dice=[3])
    # Claudio's charge reaches position 1 and 2: only tongue-1 may be slain.
    seen = drive(
        engine.attack_action("yellow", "Heroic Charge"),
        [Option("charge", ("Brother Claudio",)), slay_at(2, "right", "tongue-1")],
    )
    assert set(seen[0].options) == {
        attack("Brother Goriel", "right", 2),
        Option("charge", ("Brother Claudio",)),
        DONE,
    }
    assert all_swarms(st) == {(1, "left"): ["claw-1"]}
    # The Door before travel: the only swarm left is protected: nothing is offered.
    assert drive(engine.door_slays()) == []
    assert all_swarms(st) == {(1, "left"): ["claw-1"]}
    assert_twelve(st)


def test_power_field_spreads_to_a_swarm_that_merges_in_a_shift() -> None:
    rows = [("Brother Noctis", "R"), ("Sergeant Gideon", "R"), ("Brother Scipio", "R")]
    st = build_state(
        rows,
        swarms={
            (2, "left"): ["claw-1", "claw-2"],  # slays Gideon
            (2, "right"): ["tongue-1", "tongue-2", "tongue-3"],  # not yet attacked
            (3, "right"): ["tail-1"],  # protected
        },
    )
    reveal(st, "Power Field", resolved=True)
    st.protected = {table().gs_by_label["tail-1"]}
    # Gideon falls to the left swarm (1 <= 2). Equal segments: Scipio's row moves up, the
    # three tongues join tail-1's protected swarm, which never attacks: no second roll.
    engine = engine_for(st, dice=[1])
    drive(engine.genestealer_attack())
    assert st.slain == ["Sergeant Gideon"]
    assert marines(st) == ["Brother Noctis", "Brother Scipio"]
    assert all_swarms(st) == {
        (2, "left"): ["claw-1", "claw-2"],
        (2, "right"): ["tail-1", "tongue-1", "tongue-2", "tongue-3"],
    }
    assert engine.is_protected(st.formation[1].swarms[RIGHT])
    assert engine.die.remaining == []
    assert_twelve(st)


def test_power_field_merged_genestealers_stay_protected_when_the_first_leave() -> None:
    """FAQ: a Power-Field swarm that merges protects the whole merged swarm that round.
    Intimidation sending the originally protected card away does not unprotect the rest."""
    rows = [
        ("Lexicanium Calistarius", "R"),  # range 2
        ("Brother Noctis", "L"),
        ("Brother Deino", "L"),
    ]
    st = build_state(
        rows,
        swarms={(2, "right"): ["tongue-1"], (3, "right"): ["claw-1"]},
        blips=(["head-5"], ["head-6", "head-7"]),
    )
    reveal(st, "Power Field", "Intimidation")
    st.resolved = {"grey"}
    st.protected = {table().gs_by_label["claw-1"]}
    engine = engine_for(st, dice=[1])
    engine.kill_marine("Brother Noctis", "test")  # Deino's row moves up: merge
    assert all_swarms(st) == {(2, "right"): ["claw-1", "tongue-1"]}
    # Intimidation (roll 1) sends claw-1 back into the smaller (left) pile.
    drive(
        engine.move_activate_action("blue", "Intimidation"),
        [*no_move_no_flip(), YES_ROLL, take(2, "right", "claw-1")],
    )
    assert all_swarms(st) == {(2, "right"): ["tongue-1"]}
    assert labels(st.blips[LEFT]) == ["claw-1", "head-5"]
    # tongue-1 joined the protected swarm this round: still protected.
    assert engine.attack_targets(0) == []
    assert_twelve(st)


def test_power_field_covers_a_brood_lord_that_joined_it_after_sanctuary_takes_the_rest() -> None:
    """FAQ (RULES §13, §14.17): the whole merged swarm is protected that round, here a Brood
    Lord that joined in the Genestealer Attack phase, in a 2-player game, through a shift that
    moves the top segment down (§9).

    Valencio (position 2) falls to the three tongues on his left (a 1 <= 3), which attack
    before his right swarm (§7). Above the gap: 1 marine, below: 2, so Leon's row moves down:
    his protected claw-1 (right) meets Valencio's Brood Lord A, which has not attacked; the
    merged swarm is protected and does not attack. In the Event phase Temporary Sanctuary
    sends claw-1 (not the Brood Lord, §1) into the smaller right pile: the Brood Lord, alone
    now, is still protected, so Calistarius (range 2, facing right) may not attack it."""
    rows = [
        ("Brother Leon", "L"),
        ("Brother Valencio", "R"),
        ("Lexicanium Calistarius", "R"),
        ("Brother Scipio", "L"),
    ]
    st = build_state(
        rows,
        swarms={
            (1, "right"): ["claw-1"],
            (2, "left"): ["tongue-1", "tongue-2", "tongue-3"],
            (2, "right"): ["Brood Lord A"],
        },
        blips=(["head-2", "head-3"], ["tail-5"]),
        players=2,
        seats=[["red"], ["grey"]],
    )
    reveal(st, "Power Field", resolved=True)
    st.protected = {table().gs_by_label["claw-1"]}
    st.current_seat = 2
    engine = engine_for(st, dice=[1])
    assert drive(engine.genestealer_attack()) == []
    assert st.slain == ["Brother Valencio"]
    assert marines(st) == ["Brother Leon", "Lexicanium Calistarius", "Brother Scipio"]
    assert all_swarms(st) == {
        (1, "left"): ["tongue-1", "tongue-2", "tongue-3"],
        (1, "right"): ["Brood Lord A", "claw-1"],
    }
    assert labels(st.protected) == ["Brood Lord A", "claw-1"]
    assert engine.die.remaining == []  # the merged swarm never rolled
    # Temporary Sanctuary on top of the Event deck (its boxes find no terrain; its claw move
    # finds no claw left in the formation).
    sanctuary = next(i for i, e in enumerate(table().events) if e.name == "Temporary Sanctuary")
    st.event_deck.remove(sanctuary)
    st.event_deck.append(sanctuary)
    seen = drive(engine.event_phase(), [target(1, "right")])
    assert [(d.seat, d.kind) for d in seen] == [(2, "target_swarm")]
    assert all_swarms(st) == {
        (1, "left"): ["tongue-1", "tongue-2", "tongue-3"],
        (1, "right"): ["Brood Lord A"],
    }
    assert labels(st.blips[RIGHT]) == ["claw-1", "tail-5"]
    assert labels(st.protected) == ["Brood Lord A"]
    assert engine.attack_targets(1) == []
    assert_twelve(st)


# -- Onward, Brothers! (red move + activate, 7) -----------------------------------------------


def _door_state(leon_tokens: int = 0):
    rows = [("Brother Leon", "L", leon_tokens), ("Brother Valencio", "R"), ("Brother Noctis", "R")]
    return build_state(rows, terrain={(1, "left"): ["Door"]})


def test_onward_brothers_extra_token_on_the_door() -> None:
    st = _door_state()
    reveal(st, "Onward, Brothers!")
    engine = engine_for(st)
    seen = drive(
        engine.move_activate_action("red", "Onward, Brothers!"),
        [
            *no_move_no_flip(),
            Option("activate", ("Brother Leon", "Door")),
            Option("yes", ("an extra token on the Door",)),
        ],
    )
    assert [d.kind for d in seen] == ["move", "facing", "activate", "choose"]
    assert st.formation[0].terrain[LEFT][0].tokens == 2
    assert st.supply == 10
    assert st.activated == {"Door"}
    assert_twelve(st)


def test_onward_brothers_extra_token_is_optional() -> None:
    st = _door_state()
    reveal(st, "Onward, Brothers!")
    engine = engine_for(st)
    drive(
        engine.move_activate_action("red", "Onward, Brothers!"),
        [*no_move_no_flip(), Option("activate", ("Brother Leon", "Door")), NO],
    )
    assert st.formation[0].terrain[LEFT][0].tokens == 1
    assert st.supply == 11
    assert_twelve(st)


def test_onward_brothers_no_extra_token_when_the_supply_runs_out() -> None:
    st = _door_state(leon_tokens=11)
    reveal(st, "Onward, Brothers!")
    engine = engine_for(st)
    seen = drive(
        engine.move_activate_action("red", "Onward, Brothers!"),
        [*no_move_no_flip(), Option("activate", ("Brother Leon", "Door"))],
    )
    assert [d.kind for d in seen] == ["move", "facing", "activate"]
    assert st.formation[0].terrain[LEFT][0].tokens == 1
    assert st.supply == 0
    assert_twelve(st)


def test_door_without_onward_brothers_gets_one_token_only() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(rows, terrain={(1, "left"): ["Door"]})
    reveal(st, "Run and Gun")
    engine = engine_for(st)
    drive(
        engine.move_activate_action("green", "Run and Gun"),
        [*no_move_no_flip(), Option("activate", ("Sergeant Gideon", "Door"))],
    )
    assert st.formation[0].terrain[LEFT][0].tokens == 1
    assert st.supply == 11
    assert_twelve(st)


# -- Stealth Tactics (grey move + activate, 8) ------------------------------------------------


def _stealth_state(deino_tokens: int):
    rows = [
        ("Lexicanium Calistarius", "L"),
        ("Brother Scipio", "R"),
        ("Brother Deino", "R", deino_tokens),
        ("Brother Noctis", "L", 2),
    ]
    return build_state(
        rows,
        seats=[["grey", "blue"], ["green"]],
        blips=(["claw-1", "claw-2"], ["tongue-1", "tongue-2"]),
    )


def test_stealth_tactics_discards_both_tops_paying_with_any_marine_he_controls() -> None:
    st = _stealth_state(deino_tokens=1)
    reveal(st, "Stealth Tactics")
    engine = engine_for(st)
    seen = drive(
        engine.move_activate_action("grey", "Stealth Tactics"),
        [*no_move_no_flip(), pile("right"), marine_opt("Brother Deino")],
    )
    assert [d.kind for d in seen] == ["move", "facing", "target_pile", "target_marine"]
    assert all(d.seat == 1 for d in seen)
    assert set(seen[2].options) == {pile("left"), pile("right"), DONE}
    # §14.4: Deino (blue, same player) may pay; Noctis (seat 2) may not.
    assert set(seen[3].options) == {marine_opt("Brother Deino"), DONE}
    assert labels(st.blips[LEFT]) == ["claw-2"]
    assert labels(st.blips[RIGHT]) == ["tongue-2"]
    assert st.gs_discard == [table().gs_by_label["tongue-1"], table().gs_by_label["claw-1"]]
    assert tokens(st)["Brother Deino"] == 0
    assert tokens(st)["Brother Noctis"] == 2
    assert st.supply == 10
    assert_twelve(st)


def test_stealth_tactics_second_discard_needs_a_token_of_his_own() -> None:
    st = _stealth_state(deino_tokens=0)
    reveal(st, "Stealth Tactics")
    engine = engine_for(st)
    seen = drive(
        engine.move_activate_action("grey", "Stealth Tactics"),
        [*no_move_no_flip(), pile("left")],
    )
    assert len(seen) == 3
    assert labels(st.blips[LEFT]) == ["claw-2"]
    assert labels(st.blips[RIGHT]) == ["tongue-1", "tongue-2"]
    assert tokens(st)["Brother Noctis"] == 2
    assert_twelve(st)


def test_stealth_tactics_decline_the_paid_discard() -> None:
    st = _stealth_state(deino_tokens=1)
    reveal(st, "Stealth Tactics")
    engine = engine_for(st)
    drive(
        engine.move_activate_action("grey", "Stealth Tactics"),
        [*no_move_no_flip(), pile("left"), DONE],
    )
    assert labels(st.blips[LEFT]) == ["claw-2"]
    assert labels(st.blips[RIGHT]) == ["tongue-1", "tongue-2"]
    assert tokens(st)["Brother Deino"] == 1
    assert_twelve(st)


# -- Reorganize (yellow move + activate, 9) ---------------------------------------------------


def test_reorganize_swaps_with_any_marine_never_a_shift() -> None:
    rows = [
        ("Brother Claudio", "L"),
        ("Sergeant Gideon", "L"),
        ("Brother Leon", "L"),
        ("Brother Noctis", "R"),
        ("Brother Valencio", "R"),
        ("Brother Goriel", "R"),
    ]
    st = build_state(
        rows,
        swarms={(1, "left"): ["claw-1"], (6, "right"): ["tongue-1"]},
        terrain={(1, "left"): ["Corridor"], (4, "right"): ["Dark Corner"]},
    )
    reveal(st, "Reorganize")
    engine = engine_for(st)
    others = ["Sergeant Gideon", "Brother Leon", "Brother Noctis", "Brother Valencio"]
    seen = drive(
        engine.move_activate_action("yellow", "Reorganize"),
        [
            Option("swap", ("Brother Claudio", "Brother Goriel")),
            # Goriel (now at 1) swaps with Leon (at 3): not adjacent, allowed (§14.15).
            Option("swap", ("Brother Goriel", "Brother Leon")),
            DONE,
        ],
    )
    assert [d.kind for d in seen] == ["move", "move", "facing"]
    assert set(seen[0].options) == {
        Option("swap", ("Brother Claudio", o)) for o in [*others, "Brother Goriel"]
    } | {Option("swap", ("Brother Goriel", o)) for o in [*others, "Brother Claudio"]} | {DONE}
    # Claudio made his own swap: only Goriel may still swap.
    assert set(seen[1].options) == {
        Option("swap", ("Brother Goriel", o)) for o in [*others, "Brother Claudio"]
    } | {DONE}
    assert marines(st) == [
        "Brother Leon",
        "Sergeant Gideon",
        "Brother Goriel",
        "Brother Noctis",
        "Brother Valencio",
        "Brother Claudio",
    ]
    assert facing(st) == ["L", "L", "R", "R", "R", "L"]  # facing goes with the marine
    # Swarms and terrain stay with the positions; nobody else moved.
    assert all_swarms(st) == {(1, "left"): ["claw-1"], (6, "right"): ["tongue-1"]}
    assert [t.name for t in st.formation[0].terrain[LEFT]] == ["Corridor"]
    assert [t.name for t in st.formation[3].terrain[RIGHT]] == ["Dark Corner"]
    assert_twelve(st)


def test_other_move_cards_swap_only_with_a_neighbour() -> None:
    rows = [("Brother Claudio", "L"), ("Sergeant Gideon", "L"), ("Brother Goriel", "R")]
    st = build_state(rows)
    reveal(st, "Run and Gun")
    engine = engine_for(st)
    seen = drive(engine.move_activate_action("green", "Run and Gun"), [DONE, DONE])
    assert set(seen[0].options) == {
        Option("swap", ("Sergeant Gideon", "Brother Claudio")),
        Option("swap", ("Sergeant Gideon", "Brother Goriel")),
        DONE,
    }
    assert_twelve(st)


# -- Forward Scouting (purple move + activate, 10) --------------------------------------------


def _scout_state():
    return build_state([("Brother Zael", "L"), ("Brother Omnio", "R")])


def test_forward_scouting_look_and_leave_on_top() -> None:
    st = _scout_state()
    reveal(st, "Forward Scouting")
    deck = st.event_deck[:]
    top = deck[-1]
    engine = engine_for(st)
    seen = drive(
        engine.move_activate_action("purple", "Forward Scouting"),
        [*no_move_no_flip(), YES_LOOK, Option("top")],
    )
    assert [d.kind for d in seen] == ["move", "facing", "choose", "choose"]
    assert set(seen[3].options) == {Option("top"), Option("bottom")}
    assert table().events[top].name in seen[3].prompt
    assert st.event_deck == deck
    assert st.scouted == (1, top)
    assert_twelve(st)


def test_forward_scouting_put_it_at_the_bottom() -> None:
    st = _scout_state()
    reveal(st, "Forward Scouting")
    deck = st.event_deck[:]
    engine = engine_for(st)
    drive(
        engine.move_activate_action("purple", "Forward Scouting"),
        [*no_move_no_flip(), YES_LOOK, Option("bottom")],
    )
    assert st.event_deck == [deck[-1], *deck[:-1]]
    assert st.scouted is None
    assert_twelve(st)


def test_forward_scouting_may_not_look() -> None:
    st = _scout_state()
    reveal(st, "Forward Scouting")
    deck = st.event_deck[:]
    engine = engine_for(st)
    drive(engine.move_activate_action("purple", "Forward Scouting"), [*no_move_no_flip(), NO])
    assert st.event_deck == deck
    assert st.scouted is None
    assert_twelve(st)


# -- Intimidation (blue move + activate, 11) --------------------------------------------------


def _intimidation_state(left_pile, right_pile):
    rows = [
        ("Brother Noctis", "R"),
        ("Brother Deino", "L"),
        ("Brother Leon", "R"),
        ("Sergeant Lorenzo", "L"),
    ]
    return build_state(
        rows,
        swarms={
            (1, "left"): ["claw-9"],  # engaged with Noctis, not with blue
            (2, "left"): ["claw-1", "claw-2", "tongue-1"],
            (2, "right"): ["Brood Lord A", "head-1"],
            (4, "right"): ["tail-1"],
        },
        blips=(left_pile, right_pile),
    )


def test_intimidation_up_to_the_face_into_the_smallest_pile() -> None:
    st = _intimidation_state(["claw-5", "claw-6"], ["tongue-5", "tongue-6", "tongue-7"])
    reveal(st, "Intimidation")
    engine = engine_for(st, dice=[3])
    before = engine.streams["blips"].getstate()
    seen = drive(
        engine.move_activate_action("blue", "Intimidation"),
        [
            *no_move_no_flip(),
            YES_ROLL,
            take(2, "right", "head-1"),
            take(2, "left", "claw-1"),
            DONE,  # fewer than the face value is allowed (§14.5)
        ],
    )
    assert [d.kind for d in seen] == [
        "move",
        "facing",
        "choose",
        "target_swarm",
        "target_swarm",
        "target_swarm",
    ]
    assert set(seen[2].options) == {YES_ROLL, NO}
    # Brood Lords never go; claw-9 is not engaged with blue.
    assert set(seen[3].options) == {
        take(2, "left", "claw-1"),
        take(2, "left", "tongue-1"),
        take(2, "right", "head-1"),
        take(4, "right", "tail-1"),
        DONE,
    }
    assert set(seen[5].options) == {
        take(2, "left", "claw-2"),
        take(2, "left", "tongue-1"),
        take(4, "right", "tail-1"),
        DONE,
    }
    assert all_swarms(st) == {
        (1, "left"): ["claw-9"],
        (2, "left"): ["claw-2", "tongue-1"],
        (2, "right"): ["Brood Lord A"],
        (4, "right"): ["tail-1"],
    }
    # Left had 2 cards, right 3: left is the smallest, no question asked.
    assert labels(st.blips[LEFT]) == ["claw-1", "claw-5", "claw-6", "head-1"]
    assert labels(st.blips[RIGHT]) == ["tongue-5", "tongue-6", "tongue-7"]
    assert engine.streams["blips"].getstate() != before  # the pile was shuffled (§14.16)
    assert st.gs_discard == []
    assert_twelve(st)


def test_intimidation_face_value_is_the_maximum() -> None:
    st = _intimidation_state(["claw-5"], ["tongue-5", "tongue-6"])
    reveal(st, "Intimidation")
    engine = engine_for(st, dice=[2])
    seen = drive(
        engine.move_activate_action("blue", "Intimidation"),
        [*no_move_no_flip(), YES_ROLL, take(4, "right", "tail-1"), take(2, "left", "claw-1")],
    )
    assert len(seen) == 5  # two picks, then it stops by itself
    assert labels(st.blips[LEFT]) == ["claw-1", "claw-5", "tail-1"]
    assert all_swarms(st)[(2, "left")] == ["claw-2", "tongue-1"]
    assert (4, "right") not in all_swarms(st)
    assert_twelve(st)


def test_intimidation_right_pile_smaller() -> None:
    st = _intimidation_state(["claw-5", "claw-6"], ["tongue-5"])
    reveal(st, "Intimidation")
    engine = engine_for(st, dice=[1])
    seen = drive(
        engine.move_activate_action("blue", "Intimidation"),
        [*no_move_no_flip(), YES_ROLL, take(2, "left", "tongue-1")],
    )
    assert seen[-1].kind == "target_swarm"
    assert labels(st.blips[LEFT]) == ["claw-5", "claw-6"]
    assert labels(st.blips[RIGHT]) == ["tongue-1", "tongue-5"]
    assert_twelve(st)


def test_intimidation_tie_the_player_chooses_the_pile() -> None:
    st = _intimidation_state(["claw-5"], ["tongue-5"])
    reveal(st, "Intimidation")
    engine = engine_for(st, dice=[1])
    # The rules do not say whether the tie is settled before or after the picks (the
    # sizes do not change meanwhile): answer each question by its kind.
    seen = drive_by_kind(
        engine.move_activate_action("blue", "Intimidation"),
        {
            "move": [DONE],
            "facing": [DONE],
            "choose": [YES_ROLL],
            "target_swarm": [take(2, "left", "tongue-1")],
            "target_pile": [pile("right")],
        },
    )
    asked = [d for d in seen if d.kind == "target_pile"]
    assert len(asked) == 1
    assert set(asked[0].options) == {pile("left"), pile("right")}
    assert labels(st.blips[LEFT]) == ["claw-5"]
    assert labels(st.blips[RIGHT]) == ["tongue-1", "tongue-5"]
    assert_twelve(st)


def test_intimidation_roll_of_zero_sends_nothing() -> None:
    st = _intimidation_state(["claw-5"], ["tongue-5"])
    reveal(st, "Intimidation")
    engine = engine_for(st, dice=[0])
    swarms = all_swarms(st)
    seen = drive(engine.move_activate_action("blue", "Intimidation"), [DONE, DONE, YES_ROLL])
    assert len(seen) == 3
    assert all_swarms(st) == swarms
    assert labels(st.blips[LEFT]) == ["claw-5"]
    assert_twelve(st)


def test_intimidation_roll_is_optional_and_never_rerolled() -> None:
    st = _intimidation_state(["claw-5"], ["tongue-5", "tongue-6"])
    st.formation[1].marine.tokens = 3  # Deino's tokens cannot reroll it
    st.supply = 9
    reveal(st, "Intimidation")
    engine = engine_for(st, dice=[])
    drive(engine.move_activate_action("blue", "Intimidation"), [DONE, DONE, NO])
    engine = engine_for(st, dice=[1])
    seen = drive(
        engine.move_activate_action("blue", "Intimidation"),
        [DONE, DONE, YES_ROLL, DONE],
    )
    assert "reroll" not in [d.kind for d in seen]
    assert tokens(st)["Brother Deino"] == 3
    assert_twelve(st)


def test_intimidation_lone_brood_lords_offer_nothing() -> None:
    rows = [("Brother Deino", "L"), ("Sergeant Lorenzo", "R")]
    st = build_state(rows, swarms={(1, "left"): ["Brood Lord A", "Brood Lord B"]})
    reveal(st, "Intimidation")
    engine = engine_for(st, dice=[])
    seen = drive(engine.move_activate_action("blue", "Intimidation"), [DONE, DONE])
    assert len(seen) == 2  # no candidate: not even the roll is offered
    assert all_swarms(st) == {(1, "left"): ["Brood Lord A", "Brood Lord B"]}
    assert_twelve(st)


# -- Run and Gun (green move + activate, 12) --------------------------------------------------


def test_run_and_gun_each_marine_pays_one_token_for_one_normal_attack() -> None:
    rows = [("Sergeant Gideon", "L", 1), ("Brother Noctis", "R", 2), ("Brother Leon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"], (3, "right"): ["tongue-1", "tongue-2"]})
    reveal(st, "Run and Gun")
    # Noctis pays 1, rolls 4 (Dead Aim is not in play: a miss), spends his other token to
    # reroll: 1, one tongue slain. Gideon pays his token: 3, claw-1 slain, no reroll offer.
    engine = engine_for(st, dice=[4, 1, 3])
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [
            *no_move_no_flip(),
            attack("Brother Noctis", "right", 3),
            REROLL,
            attack("Sergeant Gideon", "left", 1),
        ],
    )
    assert [d.kind for d in seen] == ["move", "facing", "attack", "reroll", "attack"]
    assert set(seen[2].options) == {
        attack("Sergeant Gideon", "left", 1),
        attack("Brother Noctis", "right", 3),
        DONE,
    }
    assert set(seen[4].options) == {attack("Sergeant Gideon", "left", 1), DONE}
    assert len(st.formation[2].swarms[RIGHT]) == 1
    assert st.formation[0].swarms[LEFT] == []
    assert tokens(st) == {"Sergeant Gideon": 0, "Brother Noctis": 0, "Brother Leon": 0}
    assert st.supply == 12
    assert_twelve(st)


def test_run_and_gun_attacks_come_after_the_move_and_facing() -> None:
    rows = [("Sergeant Gideon", "R", 1), ("Brother Leon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"]})
    reveal(st, "Run and Gun")
    engine = engine_for(st, dice=[2])
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [DONE, Option("flip", ("Sergeant Gideon",)), attack("Sergeant Gideon", "left", 1)],
    )
    assert [d.kind for d in seen] == ["move", "facing", "attack"]
    assert st.genestealers_in_formation() == 0
    assert tokens(st)["Sergeant Gideon"] == 0
    assert_twelve(st)


# -- Lead by Example (blue attack, 13) --------------------------------------------------------


def _lead_state():
    rows = [("Sergeant Lorenzo", "L"), ("Brother Deino", "L"), ("Brother Leon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"], (2, "left"): ["tongue-1"]})
    reveal(st, "Lead by Example")
    return st


def test_lead_by_example_once_per_round() -> None:
    st = _lead_state()
    engine = engine_for(st, dice=[1, 2])
    seen = drive(
        engine.attack_action("blue", "Lead by Example"),
        [attack("Sergeant Lorenzo", "left", 1), marine_opt("Brother Leon"), DONE],
    )
    # Lorenzo slays claw-1 -> token on any marine (Leon, of another team). Then only Deino
    # could attack: he is offered, and the player stops.
    assert [d.kind for d in seen] == ["attack", "place_support", "attack"]
    assert set(seen[1].options) == {
        marine_opt("Sergeant Lorenzo"),
        marine_opt("Brother Deino"),
        marine_opt("Brother Leon"),
        DONE,
    }
    assert tokens(st) == {"Sergeant Lorenzo": 0, "Brother Deino": 0, "Brother Leon": 1}
    # Second slay the same round: no second token.
    seen = drive(
        engine.attack_action("blue", "Lead by Example"), [attack("Brother Deino", "left", 2)]
    )
    assert [d.kind for d in seen] == ["attack"]
    assert st.genestealers_in_formation() == 0
    assert st.supply == 11
    assert_twelve(st)


def test_lead_by_example_declined_can_be_used_on_a_later_slay() -> None:
    st = _lead_state()
    engine = engine_for(st, dice=[3, 1])
    seen = drive(
        engine.attack_action("blue", "Lead by Example"),
        [
            attack("Sergeant Lorenzo", "left", 1),
            DONE,
            attack("Brother Deino", "left", 2),
            marine_opt("Sergeant Lorenzo"),
        ],
    )
    assert [d.kind for d in seen] == ["attack", "place_support", "attack", "place_support"]
    assert tokens(st)["Sergeant Lorenzo"] == 1
    assert st.supply == 11
    assert_twelve(st)


def test_lead_by_example_resets_next_round() -> None:
    rows = [("Sergeant Lorenzo", "L"), ("Brother Deino", "L"), ("Brother Leon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"], (2, "left"): ["tongue-1"]})
    reveal(st, "Lead by Example")
    engine = engine_for(st, dice=[1, 1])
    drive(
        engine.attack_action("blue", "Lead by Example"),
        [attack("Sergeant Lorenzo", "left", 1), marine_opt("Brother Deino"), DONE],
    )
    engine.end_round()
    reveal(st, "Lead by Example")
    drive(
        engine.attack_action("blue", "Lead by Example"),
        [attack("Sergeant Lorenzo", "left", 1), marine_opt("Brother Deino"), DONE],
    )
    assert tokens(st)["Brother Deino"] == 2
    assert st.supply == 10
    assert_twelve(st)


def test_lead_by_example_miss_gives_nothing_and_empty_supply_asks_nothing() -> None:
    rows = [("Sergeant Lorenzo", "L", 12), ("Brother Deino", "L")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"]})
    reveal(st, "Lead by Example")
    # Lorenzo: 5 (kept) misses: nothing to place. Deino: 2 slays one, but the supply is
    # empty (Lorenzo holds all 12): nothing is asked.
    engine = engine_for(st, dice=[5, 2])
    seen = drive(
        engine.attack_action("blue", "Lead by Example"),
        [attack("Sergeant Lorenzo", "left", 1), KEEP, attack("Brother Deino", "left", 1)],
    )
    assert [d.kind for d in seen] == ["attack", "reroll", "attack"]
    assert len(st.formation[0].swarms[LEFT]) == 1
    assert tokens(st) == {"Sergeant Lorenzo": 12, "Brother Deino": 0}
    assert_twelve(st)


# -- Flamer Attack (purple attack, 14) --------------------------------------------------------


@pytest.mark.parametrize("face", [0, 1, 2, 3, 4, 5])
def test_flamer_attack_slays_the_face_value(face: int) -> None:
    rows = [("Brother Zael", "L"), ("Brother Omnio", "R")]
    cards = [f"claw-{k}" for k in range(1, 6)]
    st = build_state(rows, swarms={(1, "left"): cards})
    reveal(st, "Flamer Attack")
    engine = engine_for(st, dice=[face])
    drive(engine.attack_action("purple", "Flamer Attack"), [attack("Brother Zael", "left", 1)])
    assert len(st.formation[0].swarms[LEFT]) == 5 - face
    assert len(st.gs_discard) == face
    assert_twelve(st)


def test_flamer_attack_reroll_allowed_and_only_for_zael() -> None:
    rows = [("Brother Zael", "L", 1), ("Brother Omnio", "L")]
    st = build_state(
        rows,
        swarms={
            (1, "left"): [f"claw-{k}" for k in range(1, 6)],
            (2, "left"): [f"tongue-{k}" for k in range(1, 6)],
        },
    )
    reveal(st, "Flamer Attack")
    # Zael: 1 -> reroll -> 4: four slain. Omnio: 4 is not a skull: a miss.
    engine = engine_for(st, dice=[1, 4, 4])
    seen = drive(
        engine.attack_action("purple", "Flamer Attack"),
        [attack("Brother Zael", "left", 1), REROLL, attack("Brother Omnio", "left", 2)],
    )
    assert [d.kind for d in seen] == ["attack", "reroll", "attack"]
    assert len(st.formation[0].swarms[LEFT]) == 1
    assert len(st.formation[1].swarms[LEFT]) == 5
    assert tokens(st)["Brother Zael"] == 0
    assert_twelve(st)


def test_flamer_attack_more_than_the_swarm_and_mixed_icons() -> None:
    rows = [("Brother Zael", "R"), ("Brother Omnio", "L")]
    st = build_state(rows, swarms={(1, "right"): ["claw-1", "tongue-1", "Brood Lord B"]})
    reveal(st, "Flamer Attack")
    engine = engine_for(st, dice=[5])
    seen = drive(
        engine.attack_action("purple", "Flamer Attack"),
        [attack("Brother Zael", "right", 1), Option("slay", ("claw-1",))],
    )
    # Normal ones first (§14.2): a choice between claw and tongue, then the Brood Lord.
    assert [d.kind for d in seen] == ["attack", "slay"]
    assert st.genestealers_in_formation() == 0
    assert labels(st.lords_slain) == ["Brood Lord B"]
    assert_twelve(st)


# -- Psionic Attack (grey attack, 15) ---------------------------------------------------------


def test_psionic_attack_skulls_chain_at_any_swarm() -> None:
    rows = [
        ("Brother Noctis", "R"),
        ("Lexicanium Calistarius", "L"),
        ("Brother Leon", "R"),
        ("Brother Scipio", "L"),
        ("Brother Valencio", "R"),
    ]
    st = build_state(
        rows,
        swarms={
            (1, "left"): ["claw-1"],
            (3, "left"): ["tongue-1", "tongue-2"],
            (4, "left"): ["tail-1"],
        },
    )
    reveal(st, "Psionic Attack")
    cal, scipio = "Lexicanium Calistarius", "Brother Scipio"
    engine = engine_for(st, dice=[2, 3, 1, 5, 2])
    seen = drive(
        engine.attack_action("grey", "Psionic Attack"),
        [
            attack(cal, "left", 1),  # 2: claw-1 slain, again
            attack(cal, "left", 3),  # 3: a tongue slain, again
            attack(cal, "left", 4),  # 1: tail-1 slain, again
            attack(cal, "left", 3),  # 5: miss, the chain ends
            attack(scipio, "left", 3),  # 2: the last tongue; Scipio does not chain
        ],
    )
    assert [d.kind for d in seen] == ["attack"] * 5
    assert set(seen[0].options) == {
        attack(cal, "left", 1),
        attack(cal, "left", 3),
        attack(cal, "left", 4),
        attack(scipio, "left", 3),
        attack(scipio, "left", 4),
        DONE,
    }
    # The chained attacks offer Calistarius's targets only.
    assert set(seen[1].options) == {attack(cal, "left", 3), attack(cal, "left", 4), DONE}
    assert set(seen[3].options) == {attack(cal, "left", 3), DONE}
    assert set(seen[4].options) == {attack(scipio, "left", 3), DONE}
    assert st.genestealers_in_formation() == 0
    assert engine.die.remaining == []
    assert_twelve(st)


def test_psionic_attack_chain_is_optional_and_ends_without_targets() -> None:
    rows = [("Lexicanium Calistarius", "L"), ("Brother Scipio", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"], (2, "left"): ["head-1"]})
    reveal(st, "Psionic Attack")
    cal = "Lexicanium Calistarius"
    engine = engine_for(st, dice=[1, 3, 2])
    seen = drive(
        engine.attack_action("grey", "Psionic Attack"),
        [attack(cal, "left", 2), attack(cal, "left", 1), attack(cal, "left", 1)],
    )
    # 1: head-1; 3: a claw; 2: the last claw; no target left, nothing more asked.
    assert len(seen) == 3
    assert st.genestealers_in_formation() == 0
    st2 = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"]})
    reveal(st2, "Psionic Attack")
    engine = engine_for(st2, dice=[1])
    drive(engine.attack_action("grey", "Psionic Attack"), [attack(cal, "left", 1), DONE])
    assert len(st2.formation[0].swarms[LEFT]) == 1
    assert_twelve(st)
    assert_twelve(st2)


def test_psionic_attack_only_calistarius_chains() -> None:
    rows = [("Lexicanium Calistarius", "L"), ("Brother Scipio", "L")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"]})
    reveal(st, "Psionic Attack")
    cal, scipio = "Lexicanium Calistarius", "Brother Scipio"
    engine = engine_for(st, dice=[1])
    seen = drive(engine.attack_action("grey", "Psionic Attack"), [attack(scipio, "left", 1), DONE])
    # Scipio's skull slays one; no "attack again": the next question is the card's own.
    assert set(seen[1].options) == {attack(cal, "left", 1), DONE}
    assert len(st.formation[0].swarms[LEFT]) == 1
    assert_twelve(st)


# -- Dead Aim (green attack, 16) --------------------------------------------------------------


def test_dead_aim_four_slays_three_skull_still_one() -> None:
    rows = [("Brother Noctis", "L"), ("Sergeant Gideon", "L"), ("Brother Leon", "R")]
    st = build_state(
        rows,
        swarms={
            (1, "left"): ["claw-1", "tongue-1", "tail-1", "head-1"],
            (2, "left"): ["claw-2", "claw-3"],
        },
    )
    reveal(st, "Dead Aim")
    engine = engine_for(st, dice=[4, 2])
    seen = drive(
        engine.attack_action("green", "Dead Aim"),
        [
            attack("Brother Noctis", "left", 1),
            Option("slay", ("tongue-1",)),
            Option("slay", ("head-1",)),
            Option("slay", ("claw-1",)),
            attack("Sergeant Gideon", "left", 2),
        ],
    )
    assert [d.kind for d in seen] == ["attack", "slay", "slay", "slay", "attack"]
    assert len(seen[1].options) == 4
    assert len(seen[3].options) == 2
    assert all_swarms(st)[(1, "left")] == ["tail-1"]
    assert len(st.formation[1].swarms[LEFT]) == 1
    assert labels(st.gs_discard) == ["claw-1", "claw-2", "head-1", "tongue-1"]
    assert_twelve(st)


@pytest.mark.parametrize(("face", "left"), [(4, 0), (5, 2), (0, 2), (3, 1)])
def test_dead_aim_other_faces_and_a_small_swarm(face: int, left: int) -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"]})
    reveal(st, "Dead Aim")
    engine = engine_for(st, dice=[face])
    drive(engine.attack_action("green", "Dead Aim"), [attack("Sergeant Gideon", "left", 1)])
    assert len(st.formation[0].swarms[LEFT]) == left
    assert_twelve(st)


# -- Full Auto (red attack, 17) ---------------------------------------------------------------


def _full_auto_state():
    rows = [
        ("Brother Leon", "R"),
        ("Brother Valencio", "R"),
        ("Brother Noctis", "L"),
        ("Brother Claudio", "L"),
    ]
    return build_state(
        rows, swarms={(2, "right"): ["claw-1"], (4, "right"): ["tongue-1", "tongue-2"]}
    )


def test_full_auto_leon_attacks_three_times_each_its_own_target() -> None:
    st = _full_auto_state()
    reveal(st, "Full Auto")
    engine = engine_for(st, dice=[1, 2, 5, 3])
    seen = drive(
        engine.attack_action("red", "Full Auto"),
        [
            attack("Brother Leon", "right", 2),
            attack("Brother Leon", "right", 4),
            attack("Brother Leon", "right", 4),
            attack("Brother Valencio", "right", 4),
        ],
    )
    assert set(seen[0].options) == {
        attack("Brother Leon", "right", 2),
        attack("Brother Leon", "right", 4),
        attack("Brother Valencio", "right", 2),
        attack("Brother Valencio", "right", 4),
        DONE,
    }
    assert set(seen[2].options) == {
        attack("Brother Leon", "right", 4),
        attack("Brother Valencio", "right", 4),
        DONE,
    }
    # Leon has used his three attacks: only Valencio remains.
    assert set(seen[3].options) == {attack("Brother Valencio", "right", 4), DONE}
    assert len(seen) == 4
    assert st.genestealers_in_formation() == 0
    assert_twelve(st)


def test_evasion_one_marine_attacks_but_with_all_his_attacks() -> None:
    st = _full_auto_state()
    reveal(st, "Full Auto")
    st.effects = [EVASION]
    engine = engine_for(st, dice=[4, 4, 1])
    seen = drive(
        engine.attack_action("red", "Full Auto"),
        [
            attack("Brother Leon", "right", 4),
            attack("Brother Leon", "right", 4),
            attack("Brother Leon", "right", 2),
        ],
    )
    assert set(seen[1].options) == {
        attack("Brother Leon", "right", 2),
        attack("Brother Leon", "right", 4),
        DONE,
    }
    assert len(seen) == 3  # Valencio is never offered
    assert all_swarms(st) == {(4, "right"): ["tongue-1", "tongue-2"]}
    assert_twelve(st)


def test_evasion_valencio_first_then_leon_is_barred() -> None:
    st = _full_auto_state()
    reveal(st, "Full Auto")
    st.effects = [EVASION]
    engine = engine_for(st, dice=[5])
    seen = drive(engine.attack_action("red", "Full Auto"), [attack("Brother Valencio", "right", 2)])
    assert len(seen) == 1
    assert all_swarms(st) == {(2, "right"): ["claw-1"], (4, "right"): ["tongue-1", "tongue-2"]}
    assert_twelve(st)


def test_evasion_on_an_ordinary_attack_card() -> None:
    rows = [("Brother Noctis", "L"), ("Sergeant Gideon", "L")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"], (2, "left"): ["claw-2"]})
    reveal(st, "Dead Aim")
    st.effects = [EVASION]
    engine = engine_for(st, dice=[2])
    seen = drive(engine.attack_action("green", "Dead Aim"), [attack("Sergeant Gideon", "left", 2)])
    assert len(seen) == 1
    assert all_swarms(st) == {(1, "left"): ["claw-1"]}
    assert_twelve(st)


# -- Heroic Charge (yellow attack, 18) --------------------------------------------------------


def _charge_state(claudio_tokens: int = 2):
    rows = [
        ("Brother Noctis", "R"),
        ("Brother Claudio", "L", claudio_tokens),
        ("Brother Goriel", "R"),
        ("Brother Leon", "R"),
    ]
    return build_state(
        rows,
        swarms={
            (1, "right"): ["claw-1"],
            (2, "left"): ["Brood Lord A", "tongue-1"],
            (2, "right"): ["tail-1"],
            (3, "left"): ["head-1"],
            (4, "left"): ["claw-2"],  # two rows away: out of reach
        },
    )


CHARGE = Option("charge", ("Brother Claudio",))


def test_heroic_charge_slays_three_either_side_then_a_zero_kills_him() -> None:
    st = _charge_state()
    reveal(st, "Heroic Charge")
    engine = engine_for(st, dice=[0])
    seen = drive(
        engine.attack_action("yellow", "Heroic Charge"),
        [
            CHARGE,
            slay_at(2, "left", "tongue-1"),
            slay_at(2, "left", "Brood Lord A"),
            slay_at(1, "right", "claw-1"),  # behind him, a row up: facing is ignored
            DONE,  # Goriel does not attack
        ],
    )
    assert set(seen[0].options) == {
        attack("Brother Claudio", "left", 2),
        CHARGE,
        attack("Brother Goriel", "right", 1),
        attack("Brother Goriel", "right", 2),
        DONE,
    }
    assert set(seen[1].options) == {
        slay_at(1, "right", "claw-1"),
        slay_at(2, "left", "tongue-1"),  # not the Brood Lord while tongue-1 is there
        slay_at(2, "right", "tail-1"),
        slay_at(3, "left", "head-1"),
        DONE,
    }
    assert slay_at(2, "left", "Brood Lord A") in seen[2].options
    assert [d.kind for d in seen] == ["attack", "slay", "slay", "slay", "attack"]  # no reroll
    assert st.slain == ["Brother Claudio"]
    assert labels(st.lords_slain) == ["Brood Lord A"]
    assert labels(st.gs_discard) == ["claw-1", "tongue-1"]
    # Above the gap 1 marine, below 2: Noctis moves down onto position... the top segment
    # (smaller) closes the gap, taking tail-1 (right of the gap) with it.
    assert marines(st) == ["Brother Noctis", "Brother Goriel", "Brother Leon"]
    assert all_swarms(st) == {
        (1, "right"): ["tail-1"],
        (2, "left"): ["head-1"],
        (3, "left"): ["claw-2"],
    }
    assert st.supply == 12  # his two tokens went home
    assert_twelve(st)


def test_heroic_charge_fewer_slays_and_he_survives_a_non_zero() -> None:
    st = _charge_state()
    reveal(st, "Heroic Charge")
    engine = engine_for(st, dice=[3])
    seen = drive(
        engine.attack_action("yellow", "Heroic Charge"),
        [CHARGE, slay_at(3, "left", "head-1"), DONE, DONE],
    )
    assert [d.kind for d in seen] == ["attack", "slay", "slay", "attack"]
    assert st.slain == []
    assert tokens(st)["Brother Claudio"] == 2
    assert labels(st.gs_discard) == ["head-1"]
    # His charge was his attack: he is not offered a normal attack afterwards.
    assert all(o.args[:1] != ("Brother Claudio",) for o in seen[3].options)
    assert DONE in seen[3].options
    assert_twelve(st)


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5])
def test_heroic_charge_only_claudio_and_he_survives_any_non_zero(face: int) -> None:
    rows = [("Brother Goriel", "L"), ("Brother Claudio", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"]})
    reveal(st, "Heroic Charge")
    engine = engine_for(st, dice=[face])
    seen = drive(
        engine.attack_action("yellow", "Heroic Charge"),
        [CHARGE, slay_at(1, "left", "claw-1")],
    )
    assert set(seen[0].options) == {attack("Brother Goriel", "left", 1), CHARGE, DONE}
    assert st.genestealers_in_formation() == 0
    assert st.slain == []
    assert_twelve(st)


# -- Gun Jam, Enter Formation, Second Wind (next-round effects on action cards) ---------------


SIX = [
    ("Sergeant Gideon", "L"),
    ("Brother Claudio", "L"),
    ("Brother Leon", "L"),
    ("Brother Noctis", "R"),
    ("Brother Goriel", "R"),
    ("Brother Valencio", "R"),
]


def test_gun_jam_bars_that_teams_attack_card() -> None:
    st = build_state(SIX, seats=[["green"], ["red"], ["yellow"]])
    st.effects = [GunJam("green")]
    engine = engine_for(st)
    seen = drive(
        engine.choose_actions(),
        [
            Option("card", ("Block",)),
            Option("card", ("Full Auto",)),
            Option("card", ("Reorganize",)),
        ],
    )
    assert {o.args[0] for o in seen[0].options} == {"Block", "Run and Gun"}
    assert {o.args[0] for o in seen[1].options} == {"Overwatch", "Onward, Brothers!", "Full Auto"}
    assert st.chosen["green"] == "Block"
    assert_twelve(st)


def test_gun_jam_with_last_rounds_card_leaves_one_choice_not_asked() -> None:
    st = build_state(SIX, seats=[["green"], ["red"], ["yellow"]])
    st.effects = [GunJam("green")]
    st.last_resolved = {"green": "Block"}
    engine = engine_for(st)
    seen = drive(
        engine.choose_actions(), [Option("card", ("Full Auto",)), Option("card", ("Reorganize",))]
    )
    assert [d.seat for d in seen] == [2, 3]
    assert st.chosen == {"green": "Run and Gun", "red": "Full Auto", "yellow": "Reorganize"}
    assert_twelve(st)


def test_next_round_effects_bind_the_next_round_only() -> None:
    """§14.13: Gun Jam, Evasion, Second Wind and Enter Formation bind the next round."""
    st = build_state(SIX, seats=[["green"], ["red"], ["yellow"]])
    st.next_effects = [GunJam("green"), EVASION, ENTER_FORMATION]
    engine = engine_for(st)
    assert engine.abilities.barred_actions(engine, "green") == frozenset()
    assert engine.abilities.attackers_limit(engine, "red") is None
    engine.end_round()
    assert engine.abilities.barred_actions(engine, "green") == frozenset({"Dead Aim"})
    assert engine.abilities.barred_actions(engine, "red") == frozenset()
    assert engine.abilities.attackers_limit(engine, "red") == 1
    engine.end_round()
    assert st.effects == []
    assert engine.abilities.barred_actions(engine, "green") == frozenset()
    assert engine.abilities.attackers_limit(engine, "red") is None
    assert_twelve(st)


def test_enter_formation_token_before_each_move_activate_card() -> None:
    st = build_state(SIX, seats=[["green"], ["red"], ["yellow"]])
    st.effects = [ENTER_FORMATION]
    reveal(st, "Onward, Brothers!", "Reorganize", "Block")
    engine = engine_for(st)
    seen = drive(
        engine.move_activate_action("red", "Onward, Brothers!"),
        [marine_opt("Sergeant Gideon"), DONE, DONE],
    )
    assert [(d.seat, d.kind) for d in seen] == [
        (2, "place_support"),
        (2, "move"),
        (2, "facing"),
    ]
    assert set(seen[0].options) == {marine_opt(n) for n, _ in SIX} | {DONE}
    seen = drive(
        engine.move_activate_action("yellow", "Reorganize"),
        [marine_opt("Brother Leon"), DONE, DONE],
    )
    assert seen[0].seat == 3
    # A Support card gets only its own token: no Enter Formation question.
    seen = drive(engine.support_action("green", "Block"), [marine_opt("Brother Leon")])
    assert len(seen) == 1
    assert tokens(st)["Sergeant Gideon"] == 1
    assert tokens(st)["Brother Leon"] == 2
    assert st.supply == 9
    assert_twelve(st)


def test_enter_formation_is_optional_and_needs_the_supply() -> None:
    rows = [("Brother Leon", "L", 12), ("Brother Valencio", "R")]
    st = build_state(rows)
    st.effects = [ENTER_FORMATION]
    reveal(st, "Onward, Brothers!")
    engine = engine_for(st)
    seen = drive(engine.move_activate_action("red", "Onward, Brothers!"), [DONE, DONE])
    assert [d.kind for d in seen] == ["move", "facing"]
    st.formation[0].marine.tokens = 0
    st.supply = 12
    seen = drive(engine.move_activate_action("red", "Onward, Brothers!"), [DONE, DONE, DONE])
    assert [d.kind for d in seen] == ["place_support", "move", "facing"]
    assert st.supply == 12
    assert_twelve(st)


def test_second_wind_zero_in_defence_misses() -> None:
    rows = [("Brother Noctis", "R"), ("Sergeant Gideon", "L"), ("Brother Leon", "R")]
    st = build_state(
        rows,
        swarms={(1, "left"): ["claw-1", "claw-2"], (2, "left"): ["tongue-1", "tongue-2"]},
    )
    st.effects = [SecondWind("Brother Noctis")]
    # Noctis (behind him): 0 -> miss. Gideon has no Second Wind: 0 <= 2, slain.
    engine = engine_for(st, dice=[0, 0])
    drive(engine.genestealer_attack())
    assert st.slain == ["Sergeant Gideon"]
    assert marines(st) == ["Brother Noctis", "Brother Leon"]
    assert_twelve(st)


def test_second_wind_reads_the_face_not_the_value() -> None:
    rows = [("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["Brood Lord A", "claw-1"]})
    st.effects = [SecondWind("Brother Noctis")]
    # Face 1 (value 0 with the Brood Lord) is not "a 0": 0 <= 2, slain.
    engine = engine_for(st, dice=[1])
    drive(engine.genestealer_attack())
    assert st.slain == ["Brother Noctis"]
    assert_twelve(st)


# -- a whole Resolve Actions phase ------------------------------------------------------------


def test_resolve_actions_strategize_then_power_field_then_dead_aim() -> None:
    rows = [
        ("Brother Zael", "L"),
        ("Lexicanium Calistarius", "R"),
        ("Brother Noctis", "L"),
        ("Brother Omnio", "R"),
        ("Brother Scipio", "L"),
        ("Sergeant Gideon", "L"),
    ]
    st = build_state(
        rows,
        swarms={(3, "left"): ["claw-1", "claw-2"], (4, "right"): ["tongue-1"]},
        seats=[["purple"], ["grey"], ["green"]],
    )
    reveal(st, "Dead Aim", "Power Field", "Strategize")
    engine = engine_for(st, dice=[4])
    seen = drive(
        engine.resolve_actions(),
        [
            # Strategize (5): token, then the tongue moves up and across onto position 3 left.
            marine_opt("Brother Zael"),
            target(4, "right"),
            place(3, "left"),
            # Power Field (6): token, then protect position 3 left (the merged swarm).
            marine_opt("Brother Noctis"),
            target(3, "left"),
            # Dead Aim (16): the protected swarm is no target; nothing else to attack.
        ],
    )
    assert [d.seat for d in seen] == [1, 1, 1, 2, 2]
    assert all_swarms(st) == {(3, "left"): ["claw-1", "claw-2", "tongue-1"]}
    assert labels(st.protected) == ["claw-1", "claw-2", "tongue-1"]
    assert st.resolved == {"purple", "grey", "green"}
    assert engine.die.remaining == [4]  # Dead Aim never rolled
    assert tokens(st)["Brother Zael"] == 1
    assert tokens(st)["Brother Noctis"] == 1
    assert_twelve(st)
