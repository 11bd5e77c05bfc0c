"""The log explains every roll in words: phase headers, what a die was compared with, hit or
miss, slain or missed, and why an ability did nothing.

The round is scripted (hand-built position, exact die faces, exact answers); every expected
line is written from the rules by hand (RULES §6.3: a skull slays one; §7: a defence is slain
when the value is at most the swarm's size).
"""

from __future__ import annotations

from support import build_state, table

from deathangel.engine.decisions import CHOOSE_ACTION, Option
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.randomness import ScriptedDie

EIGHT = ["claw-3", "claw-4", "claw-5", "tongue-2", "tongue-3", "tail-1", "tail-2", "head-1"]


def scripted_round() -> list[str]:
    """One Resolve Actions, Genestealer Attack and Event, then the log up to round 2's choice."""
    st = build_state(
        [
            ("Sergeant Lorenzo", "L"),  # blue, range 2
            ("Brother Deino", "R"),  # blue, range 2
            ("Brother Goriel", "R"),  # yellow: eight genestealers behind him
            ("Brother Claudio", "L"),  # yellow
            ("Brother Noctis", "R"),  # green, range 2: nothing on his right
            ("Sergeant Gideon", "R"),  # green, range 0
        ],
        swarms={(1, "left"): ["claw-1", "claw-2"], (2, "right"): ["tongue-1"], (3, "left"): EIGHT},
        phase="resolve_actions",
    )
    st.revealed = [
        (9, "yellow", "Reorganize"),
        (13, "blue", "Lead by Example"),
        (16, "green", "Dead Aim"),
    ]
    st.round = 1
    st.resolved = {"yellow"}  # the round starts part-way: yellow's card has resolved
    t = table()
    psychic = next(i for i, e in enumerate(t.events) if e.name == "Psychic Assault")
    st.event_deck = [e for e in st.event_deck if e != psychic] + [psychic]  # on top
    die = ScriptedDie([2, 4, 5, 0, 5, 4])
    game = Game(GameConfig(1), db=t.db, state=st, die=die, log=True)
    answers = [
        Option("attack", ("Sergeant Lorenzo", "left", 1)),  # rolls 2: a skull
        Option("done"),  # Lead by Example: no token
        Option("attack", ("Brother Deino", "right", 2)),  # rolls 4: no skull
        Option("marine", ("Brother Claudio",)),  # Psychic Assault's target; rolls 4
    ]
    for answer in answers:
        assert game.decision is not None and game.decision.kind != CHOOSE_ACTION
        game.apply(answer)
    assert game.decision is not None and game.decision.kind == CHOOSE_ACTION
    assert die.remaining == []
    return game.log


def test_the_log_names_each_phase_and_says_what_every_roll_did() -> None:
    log = scripted_round()
    expected = [
        "— Resolve Actions —",
        "Lead by Example (blue) resolves",
        "Sergeant Lorenzo attacks the left swarm at position 1: rolled 2 (skull): hit, 1 slain",
        "Brother Deino attacks the right swarm at position 2: rolled 4: miss (no skull)",
        "Dead Aim (green) resolves",
        "Dead Aim: no marine of the green team has a swarm in range",
        "— Genestealer Attack —",
        "1 genestealer on the left attacks Sergeant Lorenzo: rolled 5 vs swarm of 1: missed",
        "1 genestealer on the right attacks Brother Deino: rolled 0 vs swarm of 1: slain",
        "Brother Deino is slain (slain by genestealers in front)",
        "8 genestealers on the left attack Brother Goriel: rolled 5 vs swarm of 8: slain",
        "Brother Goriel is slain (slain by genestealers from behind)",
        "— Event: Psychic Assault —",
        "Psychic Assault: does Brother Claudio survive?: rolled 4: he survives",
        "— round 2 —",
        "— Choose Actions —",
    ]
    found = [line for line in log if line in expected]
    assert found == expected, "\n".join(log)


def test_a_skull_is_a_word_and_never_stands_next_to_a_defence() -> None:
    log = scripted_round()
    assert not any("☠" in line for line in log)
    # Faces 1-3 show a skull (RULES §1), but a defence compares the value with the swarm:
    # "skull" beside "slain" would read as the cause.
    assert not any("skull" in line and " vs swarm of " in line for line in log)
