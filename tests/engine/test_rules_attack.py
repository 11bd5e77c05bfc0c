"""RULES §6.3 (Attack), §6.4 (support rerolls), §7 (Genestealer Attack), §14.2-3, §14.18.

Every test scripts the exact die faces; the scripted die fails on an extra roll, so "rolled
exactly once per swarm" is checked by ``engine.die.remaining == []`` plus no failure.
"""

from __future__ import annotations

import pytest
from support import build_state, drive, make_engine, marines, swarm_labels

from deathangel.engine.abilities import Abilities
from deathangel.engine.decisions import Option

ATTACK_DONE = Option("done")


def base_engine(state, dice=()):
    """An engine with the base rules only: no card ability in play, whatever the default."""
    return make_engine(state, dice, abilities=Abilities())


def attack(name: str, side: str, position: int) -> Option:
    return Option("attack", (name, side, position))


def discard_labels(engine) -> list[str]:
    return sorted(engine.table.gs_labels[c] for c in engine.state.gs_discard)


# -- §6.3 legal targets: range and facing ---------------------------------------------------


def test_range_zero_attacks_only_own_position_and_facing_picks_the_side() -> None:
    rows = [
        ("Brother Claudio", "L"),
        ("Sergeant Gideon", "L"),  # range 0, position 2, faces left
        ("Brother Goriel", "R"),
        ("Brother Noctis", "R"),  # range 2, position 4, faces right
    ]
    st = build_state(
        rows,
        swarms={
            (1, "left"): ["claw-1"],
            (2, "left"): ["claw-2"],
            (2, "right"): ["tongue-1"],
            (3, "left"): ["claw-3"],
        },
    )
    engine = base_engine(st)
    seen = drive(engine.attack_action("green", "Dead Aim"), [["done"]])
    assert len(seen) == 1
    assert seen[0].kind == "attack"
    assert set(seen[0].options) == {
        attack("Sergeant Gideon", "left", 2),
        attack("Brother Noctis", "right", 2),
        ATTACK_DONE,
    }


def test_range_two_reaches_two_rows_on_the_faced_side_only() -> None:
    rows = [
        ("Brother Claudio", "L"),
        ("Brother Goriel", "L"),
        ("Brother Leon", "L"),
        ("Brother Noctis", "L"),  # range 2, position 4, faces left
        ("Brother Valencio", "R"),
        ("Sergeant Gideon", "R"),  # range 0, position 6, faces right: nothing there
    ]
    st = build_state(
        rows,
        swarms={
            (1, "left"): ["claw-1"],  # 3 rows away: out of range
            (2, "left"): ["claw-2"],
            (4, "left"): ["claw-3"],
            (6, "left"): ["claw-4"],
            (3, "right"): ["tongue-1"],  # behind Noctis
            (4, "right"): ["tongue-2"],
            (5, "right"): ["tongue-3"],
        },
    )
    engine = base_engine(st)
    seen = drive(engine.attack_action("green", "Dead Aim"), [["done"]])
    assert set(seen[0].options) == {
        attack("Brother Noctis", "left", 2),
        attack("Brother Noctis", "left", 4),
        attack("Brother Noctis", "left", 6),
        ATTACK_DONE,
    }


def test_range_three_leon() -> None:
    rows = [
        ("Brother Leon", "R"),  # range 3, position 1
        ("Brother Valencio", "L"),  # range 2, position 2, faces left: nothing on the left
        ("Sergeant Gideon", "R"),
        ("Brother Noctis", "R"),
        ("Brother Claudio", "R"),
    ]
    st = build_state(
        rows,
        swarms={(4, "right"): ["claw-1"], (5, "right"): ["claw-2"], (5, "left"): ["claw-3"]},
    )
    engine = base_engine(st)
    seen = drive(engine.attack_action("red", "Full Auto"), [["done"]])
    assert set(seen[0].options) == {attack("Brother Leon", "right", 4), ATTACK_DONE}


def test_no_legal_target_no_decision_no_roll() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R")]
    # Behind Noctis, and out of Gideon's range 0 (not his position).
    st = build_state(rows, swarms={(2, "left"): ["claw-1", "claw-2"]})
    engine = base_engine(st)
    assert drive(engine.attack_action("green", "Dead Aim"), []) == []
    assert st.genestealers_in_formation() == 2


# -- §6.3 the roll ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "slays"), [(0, False), (1, True), (2, True), (3, True), (4, False), (5, False)]
)
def test_skull_slays_one_other_faces_miss(face: int, slays: bool) -> None:
    rows = [("Brother Noctis", "L"), ("Sergeant Gideon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2", "claw-3"]})
    engine = base_engine(st, dice=[face])
    seen = drive(engine.attack_action("green", "Dead Aim"), [attack("Brother Noctis", "left", 1)])
    # Same icons: no slay prompt; Gideon has no target: no second attack decision.
    assert [d.kind for d in seen] == ["attack"]
    assert len(st.formation[0].swarms[0]) == (2 if slays else 3)
    assert len(st.gs_discard) == (1 if slays else 0)
    assert engine.die.remaining == []


def test_attacks_are_optional() -> None:
    rows = [("Brother Noctis", "L"), ("Sergeant Gideon", "L")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"], (2, "left"): ["claw-2"]})
    engine = base_engine(st, dice=[])  # any roll would fail the test
    seen = drive(engine.attack_action("green", "Dead Aim"), [["done"]])
    assert len(seen) == 1
    assert st.genestealers_in_formation() == 2


def test_each_marine_attacks_at_most_once() -> None:
    rows = [("Brother Noctis", "L"), ("Sergeant Gideon", "L")]
    st = build_state(
        rows, swarms={(1, "left"): ["claw-1", "claw-2"], (2, "left"): ["claw-3", "claw-4"]}
    )
    engine = base_engine(st, dice=[4, 1])
    seen = drive(
        engine.attack_action("green", "Dead Aim"),
        [attack("Brother Noctis", "left", 2), attack("Sergeant Gideon", "left", 2)],
    )
    assert set(seen[0].options) == {
        attack("Brother Noctis", "left", 1),
        attack("Brother Noctis", "left", 2),
        attack("Sergeant Gideon", "left", 2),
        ATTACK_DONE,
    }
    # Noctis has attacked (and missed on 4): only Gideon is offered.
    assert set(seen[1].options) == {attack("Sergeant Gideon", "left", 2), ATTACK_DONE}
    assert len(seen) == 2  # both attacked: nothing more is asked
    assert swarm_labels(st, 1, "left") == ["claw-1", "claw-2"]
    assert len(st.formation[1].swarms[0]) == 1


def test_attack_order_is_the_players_choice() -> None:
    rows = [("Brother Noctis", "L"), ("Sergeant Gideon", "L")]
    st = build_state(rows, swarms={(2, "left"): ["claw-1"]})
    engine = base_engine(st, dice=[2])
    # Gideon first: his skull slays the only genestealer, so Noctis has no target left.
    seen = drive(engine.attack_action("green", "Dead Aim"), [attack("Sergeant Gideon", "left", 2)])
    assert len(seen) == 1
    assert st.genestealers_in_formation() == 0


# -- §6.4 support rerolls on attacks --------------------------------------------------------


def test_attack_reroll_spends_a_token_and_replaces_the_roll() -> None:
    rows = [("Brother Noctis", "L", 2), ("Sergeant Gideon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"]})
    assert st.supply == 10
    engine = base_engine(st, dice=[0, 4, 2])
    seen = drive(
        engine.attack_action("green", "Dead Aim"),
        [attack("Brother Noctis", "left", 1), ["reroll"], ["reroll"]],
    )
    # 0: reroll, 4: reroll, 2 (skull) with no token left: no third prompt.
    assert [d.kind for d in seen] == ["attack", "reroll", "reroll"]
    assert all(d.seat == 1 for d in seen)
    assert set(seen[1].options) == {Option("reroll"), Option("keep")}
    assert st.formation[0].marine.tokens == 0
    assert st.supply == 12
    assert len(st.formation[0].swarms[0]) == 1


def test_attack_reroll_replaces_a_skull_with_a_miss() -> None:
    rows = [("Brother Noctis", "L", 1), ("Sergeant Gideon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"]})
    engine = base_engine(st, dice=[1, 0])
    drive(
        engine.attack_action("green", "Dead Aim"),
        [attack("Brother Noctis", "left", 1), ["reroll"]],
    )
    assert swarm_labels(st, 1, "left") == ["claw-1"]  # the 0 counts, not the skull
    assert st.formation[0].marine.tokens == 0
    assert st.supply == 12


def test_attack_keep_uses_no_token() -> None:
    rows = [("Brother Noctis", "L", 3), ("Sergeant Gideon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"]})
    engine = base_engine(st, dice=[3])
    drive(
        engine.attack_action("green", "Dead Aim"),
        [attack("Brother Noctis", "left", 1), ["keep"]],
    )
    assert st.genestealers_in_formation() == 0
    assert st.formation[0].marine.tokens == 3
    assert st.supply == 9


def test_tokens_on_a_teammate_do_not_allow_a_reroll() -> None:
    rows = [("Brother Noctis", "L"), ("Sergeant Gideon", "R", 2)]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"]})
    engine = base_engine(st, dice=[5])
    seen = drive(engine.attack_action("green", "Dead Aim"), [attack("Brother Noctis", "left", 1)])
    assert [d.kind for d in seen] == ["attack"]
    assert st.formation[1].marine.tokens == 2


# -- §6.3 slay choices, §14.2 Brood Lords, §14.3 no needless prompts --------------------------


def _slay_setup(swarm: list[str], dice: list[int] | None = None):
    rows = [("Brother Noctis", "L"), ("Sergeant Gideon", "R")]
    st = build_state(rows, swarms={(1, "left"): swarm})
    return st, base_engine(st, dice=dice or [2])


def test_slay_choice_offered_when_icons_differ() -> None:
    st, engine = _slay_setup(["claw-1", "tongue-1", "claw-2"])
    seen = drive(
        engine.attack_action("green", "Dead Aim"),
        [attack("Brother Noctis", "left", 1), ["slay", "tongue-1"]],
    )
    assert seen[1].kind == "slay"
    assert seen[1].seat == 1
    assert {o.args[0] for o in seen[1].options} in ({"claw-1", "tongue-1"}, {"claw-2", "tongue-1"})
    assert len(seen[1].options) == 2
    assert swarm_labels(st, 1, "left") == ["claw-1", "claw-2"]
    assert discard_labels(engine) == ["tongue-1"]


def test_no_slay_prompt_when_all_alike() -> None:
    st, engine = _slay_setup(["head-1", "head-2", "head-3"])
    seen = drive(engine.attack_action("green", "Dead Aim"), [attack("Brother Noctis", "left", 1)])
    assert len(seen) == 1
    assert len(st.formation[0].swarms[0]) == 2


def test_brood_lord_not_slain_while_a_normal_genestealer_remains() -> None:
    st, engine = _slay_setup(["Brood Lord A", "claw-1"])
    seen = drive(engine.attack_action("green", "Dead Aim"), [attack("Brother Noctis", "left", 1)])
    assert len(seen) == 1  # the only candidate is claw-1: nothing to ask
    assert swarm_labels(st, 1, "left") == ["Brood Lord A"]
    assert discard_labels(engine) == ["claw-1"]


def test_brood_lord_not_among_slay_options() -> None:
    st, engine = _slay_setup(["Brood Lord B", "claw-1", "tongue-1"])
    seen = drive(
        engine.attack_action("green", "Dead Aim"),
        [attack("Brother Noctis", "left", 1), ["slay", "claw-1"]],
    )
    assert set(seen[1].options) == {Option("slay", ("claw-1",)), Option("slay", ("tongue-1",))}
    assert swarm_labels(st, 1, "left") == ["Brood Lord B", "tongue-1"]


def test_lone_brood_lord_can_be_slain_and_leaves_play() -> None:
    st, engine = _slay_setup(["Brood Lord A"])
    drive(engine.attack_action("green", "Dead Aim"), [attack("Brother Noctis", "left", 1)])
    assert st.genestealers_in_formation() == 0
    assert st.gs_discard == []  # Brood Lords never go to the Genestealer discard


def test_two_brood_lords_differ_so_the_player_chooses() -> None:
    st, engine = _slay_setup(["Brood Lord A", "Brood Lord B"])
    seen = drive(
        engine.attack_action("green", "Dead Aim"),
        [attack("Brother Noctis", "left", 1), ["slay", "Brood Lord B"]],
    )
    assert set(seen[1].options) == {
        Option("slay", ("Brood Lord A",)),
        Option("slay", ("Brood Lord B",)),
    }
    assert swarm_labels(st, 1, "left") == ["Brood Lord A"]


# -- §7 Genestealer Attack ------------------------------------------------------------------


def test_swarms_attack_top_position_first() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "L"), ("Brother Leon", "R")]
    st = build_state(rows, swarms={(1, "right"): ["claw-1"], (2, "left"): ["claw-2", "claw-3"]})
    # Top first: Gideon (swarm 1) rolls 2 -> misses; Noctis (swarm 2) rolls 3 -> misses.
    # The other order would give Noctis the 2 (2 <= 2: slain).
    engine = base_engine(st, dice=[2, 3])
    drive(engine.genestealer_attack(), [])
    assert marines(st) == ["Sergeant Gideon", "Brother Noctis", "Brother Leon"]
    assert engine.die.remaining == []


def test_left_swarm_attacks_before_right_swarm() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"], (1, "right"): ["tongue-1", "tongue-2"]})
    # Left (1 card) gets the 2 -> misses; right (2 cards) gets the 5 -> misses.
    # Right first would be 2 <= 2: Gideon slain.
    engine = base_engine(st, dice=[2, 5])
    drive(engine.genestealer_attack(), [])
    assert marines(st) == ["Sergeant Gideon", "Brother Noctis"]
    assert engine.die.remaining == []


def test_left_before_right_the_first_attack_kills() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"], (1, "right"): ["tongue-1"]})
    # Left (2 cards) rolls 2: Gideon slain. Gap at the top: Noctis moves up onto position 1
    # and the right swarm, which has not attacked, attacks him: 5 > 1, misses.
    engine = base_engine(st, dice=[2, 5])
    drive(engine.genestealer_attack(), [])
    assert st.slain == ["Sergeant Gideon"]
    assert marines(st) == ["Brother Noctis", "Brother Leon"]
    assert swarm_labels(st, 1, "left") == ["claw-1", "claw-2"]
    assert swarm_labels(st, 1, "right") == ["tongue-1"]
    assert engine.die.remaining == []


@pytest.mark.parametrize(
    ("swarm", "face", "slain"),
    [
        (["claw-1"], 0, True),
        (["claw-1"], 1, True),
        (["claw-1"], 2, False),
        (["claw-1", "claw-2"], 2, True),
        (["claw-1", "claw-2"], 3, False),
        (["claw-1", "claw-2", "claw-3"], 3, True),
        (["claw-1", "claw-2", "claw-3"], 4, False),
        (["claw-1", "claw-2", "claw-3", "claw-4"], 4, True),
        (["claw-1", "claw-2", "claw-3", "claw-4"], 5, False),
        # One Brood Lord: size counts him, value is face - 1.
        (["claw-1", "Brood Lord A"], 3, True),  # 3 - 1 = 2 <= 2
        (["claw-1", "Brood Lord A"], 4, False),  # 4 - 1 = 3 > 2
        (["Brood Lord A"], 2, True),  # 2 - 1 = 1 <= 1
        (["Brood Lord A"], 3, False),  # 3 - 1 = 2 > 1
        # Two Brood Lords: -2, cumulative.
        (["Brood Lord A", "Brood Lord B"], 4, True),  # 4 - 2 = 2 <= 2
        (["Brood Lord A", "Brood Lord B"], 5, False),  # 5 - 2 = 3 > 2
        (["claw-1", "Brood Lord A", "Brood Lord B"], 5, True),  # 5 - 2 = 3 <= 3
    ],
)
def test_defence_slain_iff_value_at_most_swarm_size(
    swarm: list[str], face: int, slain: bool
) -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R")]
    st = build_state(rows, swarms={(1, "left"): swarm})
    engine = base_engine(st, dice=[face])
    drive(engine.genestealer_attack(), [])
    assert engine.die.remaining == []
    if slain:
        assert st.slain == ["Sergeant Gideon"]
        # Gap at the top: Noctis moves up and the swarm is now engaged with him.
        assert marines(st) == ["Brother Noctis"]
    else:
        assert st.slain == []
        assert marines(st) == ["Sergeant Gideon", "Brother Noctis"]
    assert swarm_labels(st, 1, "left") == sorted(swarm)


def test_hopeless_attack_is_still_rolled() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R")]
    st = build_state(
        rows, swarms={(1, "right"): ["claw-1", "claw-2", "claw-3", "claw-4", "claw-5"]}
    )
    engine = base_engine(st, dice=[5])
    drive(engine.genestealer_attack(), [])
    assert engine.die.remaining == []
    assert st.slain == ["Sergeant Gideon"]


def test_hopeless_attack_without_a_die_face_fails_to_run() -> None:
    """The roll is never skipped: with no face scripted the die must be asked for one."""
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R")]
    st = build_state(
        rows, swarms={(1, "right"): ["claw-1", "claw-2", "claw-3", "claw-4", "claw-5"]}
    )
    engine = base_engine(st, dice=[])
    with pytest.raises(AssertionError, match="ran out"):
        drive(engine.genestealer_attack(), [])


def test_defence_reroll_offered_when_facing_the_swarm() -> None:
    rows = [("Sergeant Gideon", "L", 2), ("Brother Noctis", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"]})
    engine = base_engine(st, dice=[1, 4])
    seen = drive(engine.genestealer_attack(), [["reroll"], ["keep"]])
    assert [(d.kind, d.seat) for d in seen] == [("reroll", 1), ("reroll", 1)]
    assert st.slain == []  # the 4 replaced the 1: 4 > 1
    assert st.formation[0].marine.tokens == 1
    assert st.supply == 11
    assert st.tokens_in_play() == 12


def test_defence_reroll_can_turn_a_miss_into_death() -> None:
    rows = [("Sergeant Gideon", "L", 1), ("Brother Noctis", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"]})
    engine = base_engine(st, dice=[3, 0])
    drive(engine.genestealer_attack(), [["reroll"]])
    assert st.slain == ["Sergeant Gideon"]
    assert st.supply == 12


def test_no_defence_reroll_against_a_swarm_behind() -> None:
    rows = [("Sergeant Gideon", "L", 2), ("Brother Noctis", "R")]
    st = build_state(rows, swarms={(1, "right"): ["claw-1"]})
    engine = base_engine(st, dice=[1])
    seen = drive(engine.genestealer_attack(), [])
    assert seen == []
    assert st.slain == ["Sergeant Gideon"]
    assert st.supply == 12  # his two tokens returned to the supply


def test_shift_happens_before_the_next_swarm_attacks() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"], (1, "right"): ["tongue-1"]})
    # Left swarm rolls 1: Gideon slain. Gap at the top: Noctis moves up onto position 1,
    # engaged now with both swarms. The right swarm (not yet attacked) rolls 1 against
    # Noctis: slain too. Leon moves up; both swarms have attacked: no third roll.
    engine = base_engine(st, dice=[1, 1])
    drive(engine.genestealer_attack(), [])
    assert st.slain == ["Sergeant Gideon", "Brother Noctis"]
    assert marines(st) == ["Brother Leon"]
    assert swarm_labels(st, 1, "left") == ["claw-1"]
    assert swarm_labels(st, 1, "right") == ["tongue-1"]
    assert engine.die.remaining == []


def test_attacked_swarm_shifted_onto_unattacked_one_stays_apart() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1", "claw-2"], (2, "left"): ["tongue-1"]})
    # Swarm of 2 rolls 2: Gideon slain. Noctis moves up onto position 1, where the two claws
    # join his own left swarm (tongue-1). Only tongue-1 has still to attack, alone: it rolls
    # 2 > 1 and misses (had it counted 3 cards, 2 <= 3 would slay). The claws never roll again.
    engine = base_engine(st, dice=[2, 2])
    drive(engine.genestealer_attack(), [])
    assert st.slain == ["Sergeant Gideon"]
    assert marines(st) == ["Brother Noctis"]
    # Merged once the phase is over.
    assert swarm_labels(st, 1, "left") == ["claw-1", "claw-2", "tongue-1"]
    assert st.attacked == set()
    assert engine.die.remaining == []


def test_attacked_swarms_carried_down_do_not_attack_again() -> None:
    rows = [
        ("Sergeant Gideon", "L"),
        ("Brother Noctis", "R"),
        ("Brother Leon", "R"),
        ("Brother Valencio", "R"),
    ]
    st = build_state(
        rows,
        swarms={
            (1, "left"): ["claw-1"],
            (2, "right"): ["tongue-1", "tongue-2"],
            (3, "right"): ["tail-1"],
        },
    )
    # Gideon rolls 4 (misses). Noctis rolls 2 <= 2: slain. Gap at position 2 of 4: the smaller
    # segment above (Gideon) moves down onto position 2 with claw-1, beside the tongues; all
    # three have attacked. Leon (position 3) then rolls 5 against tail-1: misses. No more.
    engine = base_engine(st, dice=[4, 2, 5])
    drive(engine.genestealer_attack(), [])
    assert st.slain == ["Brother Noctis"]
    assert marines(st) == ["Sergeant Gideon", "Brother Leon", "Brother Valencio"]
    assert swarm_labels(st, 1, "left") == ["claw-1"]
    assert swarm_labels(st, 1, "right") == ["tongue-1", "tongue-2"]
    assert swarm_labels(st, 2, "right") == ["tail-1"]
    assert engine.die.remaining == []
    assert st.attacked == set()


def test_every_swarm_attacks_once_per_phase() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(
        rows,
        swarms={
            (1, "left"): ["claw-1"],
            (1, "right"): ["claw-2"],
            (2, "right"): ["tongue-1"],
            (3, "left"): ["tail-1", "tail-2"],
        },
    )
    engine = base_engine(st, dice=[4, 5, 3, 4])
    drive(engine.genestealer_attack(), [])
    assert st.slain == []
    assert engine.die.remaining == []
    # A second phase rolls again for each swarm: attacked flags were cleared.
    engine2 = base_engine(st, dice=[4, 5, 3, 4])
    drive(engine2.genestealer_attack(), [])
    assert engine2.die.remaining == []


def test_reroll_is_asked_of_the_defenders_controller() -> None:
    rows = [("Sergeant Gideon", "R"), ("Brother Leon", "L", 1), ("Brother Noctis", "R")]
    st = build_state(rows, seats=[["green"], ["red"]], swarms={(2, "left"): ["claw-1", "claw-2"]})
    engine = base_engine(st, dice=[2, 3])
    seen = drive(engine.genestealer_attack(), [["reroll"]])
    assert [(d.kind, d.seat) for d in seen] == [("reroll", 2)]
    assert st.slain == []  # 3 > 2 after the reroll
    assert st.supply == 12
