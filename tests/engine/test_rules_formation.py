"""RULES §9 (slain marines and shifting) and §2 (current player passing).

The shift expectations are written row by row by hand: (marine, facing, left swarm, right
swarm, left terrain, right terrain), positions top first.
"""

from __future__ import annotations

import pytest
from support import build_state, drive, make_engine, marines, table

from deathangel.engine.abilities import Abilities
from deathangel.engine.core import GameOver
from deathangel.engine.decisions import Option
from deathangel.engine.formation import remove_row
from deathangel.engine.state import LEFT, RIGHT, SIDES

Row = tuple[str, str, list[str], list[str], list[str], list[str]]

FIVE = [
    ("Sergeant Gideon", "L"),
    ("Brother Noctis", "R"),
    ("Brother Claudio", "L"),
    ("Brother Goriel", "R"),
    ("Brother Leon", "L"),
]
FIVE_SWARMS = {
    (1, "left"): ["claw-1"],
    (2, "right"): ["tongue-1"],
    (3, "left"): ["tail-1"],
    (4, "right"): ["head-1"],
    (5, "left"): ["claw-2"],
}
FIVE_TERRAIN = {
    (1, "left"): ["Door"],
    (2, "right"): ["Corridor"],
    (3, "left"): ["Dark Corner"],
    (4, "right"): ["Ventilation Duct"],
    (5, "left"): ["Spore Chimney"],
}
R1: Row = ("Sergeant Gideon", "L", ["claw-1"], [], ["Door"], [])
R2: Row = ("Brother Noctis", "R", [], ["tongue-1"], [], ["Corridor"])
R3: Row = ("Brother Claudio", "L", ["tail-1"], [], ["Dark Corner"], [])
R4: Row = ("Brother Goriel", "R", [], ["head-1"], [], ["Ventilation Duct"])
R5: Row = ("Brother Leon", "L", ["claw-2"], [], ["Spore Chimney"], [])


def base_engine(state, dice=()):
    """An engine with the base rules only: no card ability in play, whatever the default."""
    return make_engine(state, dice, abilities=Abilities())


def five():
    return build_state(FIVE, swarms=FIVE_SWARMS, terrain=FIVE_TERRAIN)


def picture(state) -> list[Row]:
    labels = table().gs_labels
    out = []
    for pos in state.formation:
        out.append(
            (
                pos.marine.name,
                "L" if pos.marine.facing == LEFT else "R",
                sorted(labels[c] for c in pos.swarms[LEFT]),
                sorted(labels[c] for c in pos.swarms[RIGHT]),
                sorted(t.name for t in pos.terrain[LEFT]),
                sorted(t.name for t in pos.terrain[RIGHT]),
            )
        )
    return out


# Marine at position k of 5 dies -> the formation afterwards, worked out by hand.
SHIFTS = {
    # Position 2: 1 above, 3 below -> Gideon moves down onto position 2 with his swarm and
    # Door, joining Noctis's former right swarm and Corridor.
    2: [("Sergeant Gideon", "L", ["claw-1"], ["tongue-1"], ["Door"], ["Corridor"]), R3, R4, R5],
    # Position 4: 3 above, 1 below -> Leon moves up onto position 4.
    4: [
        R1,
        R2,
        R3,
        ("Brother Leon", "L", ["claw-2"], ["head-1"], ["Spore Chimney"], ["Ventilation Duct"]),
    ],
    # Position 3: 2 above, 2 below -> equal: the bottom segment moves up, Goriel onto 3.
    3: [
        R1,
        R2,
        ("Brother Goriel", "R", ["tail-1"], ["head-1"], ["Dark Corner"], ["Ventilation Duct"]),
        R5,
    ],
    # Position 1 (gap at the top): everything below moves up, Noctis onto position 1.
    1: [("Brother Noctis", "R", ["claw-1"], ["tongue-1"], ["Door"], ["Corridor"]), R3, R4, R5],
    # Position 5 (gap at the bottom): everything above moves down, Goriel onto position 5.
    5: [
        R1,
        R2,
        R3,
        ("Brother Goriel", "R", ["claw-2"], ["head-1"], ["Spore Chimney"], ["Ventilation Duct"]),
    ],
}


def test_picture_of_the_five_row_formation() -> None:
    assert picture(five()) == [R1, R2, R3, R4, R5]


@pytest.mark.parametrize("position", [1, 2, 3, 4, 5])
def test_remove_row_shift(position: int) -> None:
    st = five()
    removed, leftover = remove_row(st, position - 1)
    assert removed.name == FIVE[position - 1][0]
    assert leftover is None
    assert picture(st) == SHIFTS[position]


@pytest.mark.parametrize("position", [1, 2, 3, 4, 5])
def test_kill_marine_shift(position: int) -> None:
    st = five()
    engine = base_engine(st)
    name = FIVE[position - 1][0]
    engine.kill_marine(name, "test")
    assert st.slain == [name]
    assert picture(st) == SHIFTS[position]
    assert st.genestealers_in_formation() == 5
    assert st.gs_discard == []


SIX_ROWS = [
    ("Sergeant Gideon", "L"),
    ("Brother Noctis", "L"),
    ("Brother Claudio", "L"),
    ("Brother Goriel", "R"),
    ("Brother Leon", "R"),
    ("Brother Valencio", "R"),
]


def test_six_rows_two_above_three_below_top_segment_moves() -> None:
    st = build_state(
        SIX_ROWS,
        swarms={(2, "left"): ["claw-1"], (3, "left"): ["claw-2"], (4, "left"): ["claw-3"]},
        terrain={(3, "right"): ["Corridor"], (4, "right"): ["Dark Corner"]},
    )
    base_engine(st).kill_marine("Brother Claudio", "test")
    assert picture(st) == [
        ("Sergeant Gideon", "L", [], [], [], []),
        ("Brother Noctis", "L", ["claw-1", "claw-2"], [], [], ["Corridor"]),
        ("Brother Goriel", "R", ["claw-3"], [], [], ["Dark Corner"]),
        ("Brother Leon", "R", [], [], [], []),
        ("Brother Valencio", "R", [], [], [], []),
    ]


def test_six_rows_three_above_two_below_bottom_segment_moves() -> None:
    st = build_state(
        SIX_ROWS,
        swarms={(3, "right"): ["tail-1"], (4, "right"): ["tail-2"], (5, "right"): ["tail-3"]},
        terrain={(4, "left"): ["Door"]},
    )
    base_engine(st).kill_marine("Brother Goriel", "test")
    assert picture(st) == [
        ("Sergeant Gideon", "L", [], [], [], []),
        ("Brother Noctis", "L", [], [], [], []),
        ("Brother Claudio", "L", [], ["tail-1"], [], []),
        ("Brother Leon", "R", [], ["tail-2", "tail-3"], ["Door"], []),
        ("Brother Valencio", "R", [], [], [], []),
    ]


@pytest.mark.parametrize(("dies", "survivor"), [(0, 1), (1, 0)])
def test_two_rows_the_survivor_takes_the_gap(dies: int, survivor: int) -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R")]
    st = build_state(
        rows,
        swarms={(1, "left"): ["claw-1"], (2, "right"): ["tongue-1"]},
        terrain={(1, "right"): ["Door"], (2, "left"): ["Corridor"]},
    )
    base_engine(st).kill_marine(rows[dies][0], "test")
    name, facing = rows[survivor]
    assert picture(st) == [(name, facing, ["claw-1"], ["tongue-1"], ["Corridor"], ["Door"])]


def test_two_terrain_cards_and_two_swarms_share_a_row_after_a_shift() -> None:
    rows = [
        ("Sergeant Gideon", "L"),
        ("Brother Noctis", "R"),
        ("Brother Claudio", "L"),
        ("Brother Goriel", "R"),
    ]
    st = build_state(
        rows,
        swarms={(1, "left"): ["claw-1"], (2, "left"): ["tongue-1", "tongue-2"]},
        terrain={(1, "left"): ["Door"], (2, "left"): ["Dark Corner"], (2, "right"): ["Corridor"]},
    )
    # Position 2 of 4: 1 above, 2 below -> Gideon moves down onto position 2.
    base_engine(st).kill_marine("Brother Noctis", "test")
    assert picture(st) == [
        (
            "Sergeant Gideon",
            "L",
            ["claw-1", "tongue-1", "tongue-2"],
            [],
            ["Dark Corner", "Door"],
            ["Corridor"],
        ),
        ("Brother Claudio", "L", [], [], [], []),
        ("Brother Goriel", "R", [], [], [], []),
    ]


def test_tokens_on_terrain_shift_with_it() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(rows, terrain={(1, "left"): ["Door"]})
    st.formation[0].terrain[LEFT][0].tokens = 2
    st.supply = 10
    base_engine(st).kill_marine("Sergeant Gideon", "test")
    assert [(t.name, t.tokens) for t in st.formation[0].terrain[LEFT]] == [("Door", 2)]
    assert st.supply == 10
    assert st.tokens_in_play() == 12


def test_slain_marines_tokens_return_to_supply() -> None:
    rows = [("Sergeant Gideon", "L", 3), ("Brother Noctis", "R", 2), ("Brother Leon", "R", 1)]
    st = build_state(rows)
    assert st.supply == 6
    engine = base_engine(st)
    engine.kill_marine("Brother Noctis", "test")
    assert st.supply == 8
    assert [p.marine.tokens for p in st.formation] == [3, 1]
    assert st.tokens_in_play() == 12
    engine.kill_marine("Sergeant Gideon", "test")
    assert st.supply == 11
    assert st.tokens_in_play() == 12


def test_team_eliminated_only_when_both_marines_dead() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Leon", "R"), ("Brother Noctis", "R")]
    st = build_state(rows)
    engine = base_engine(st)
    engine.kill_marine("Sergeant Gideon", "test")
    assert st.eliminated == set()
    engine.kill_marine("Brother Noctis", "test")
    assert st.eliminated == {"green"}
    assert marines(st) == ["Brother Leon"]


def test_last_marine_slain_is_defeat() -> None:
    st = build_state([("Sergeant Gideon", "L", 2)], swarms={(1, "left"): ["claw-1"]})
    engine = base_engine(st)
    with pytest.raises(GameOver):
        engine.kill_marine("Sergeant Gideon", "test")
    assert st.formation == []
    assert st.outcome == "defeat"
    assert st.supply == 12


# -- an eliminated team's revealed card does not resolve -------------------------------------


SEATED = [
    ("Brother Claudio", "L"),
    ("Sergeant Gideon", "L"),
    ("Brother Leon", "R"),
    ("Brother Goriel", "R"),
]


def _round_with_green_last_marine():
    """Green (Gideon alone; Noctis fell earlier) and yellow and red have revealed."""
    st = build_state(
        SEATED, seats=[["yellow"], ["green"], ["red"]], swarms={(3, "right"): ["claw-1"]}
    )
    engine = base_engine(st)
    drive(
        engine.choose_actions(),
        # Defensive Stance 2 (seat 1), Run and Gun 12 (seat 2), Full Auto 17 (seat 3).
        [["card", "Defensive Stance"], ["card", "Run and Gun"], ["card", "Full Auto"]],
    )
    assert [card for _, _, card in st.revealed] == ["Defensive Stance", "Run and Gun", "Full Auto"]
    return st, engine


def test_eliminated_team_card_does_not_resolve() -> None:
    st, engine = _round_with_green_last_marine()
    # Run and Gun has not resolved yet when green's last marine falls.
    flow = engine.resolve_actions()
    first = next(flow)
    assert (first.kind, first.seat) == ("place_support", 1)
    engine.kill_marine("Sergeant Gideon", "test")
    assert st.eliminated == {"green"}
    # Green's Move + Activate would ask seat 2 to move; instead red's attack comes next.
    second = flow.send(Option("marine", ("Brother Claudio",)))
    assert (second.kind, second.seat) == ("attack", 3)
    with pytest.raises(StopIteration):
        flow.send(Option("done"))
    assert st.resolved == {"yellow", "red"}
    assert "green" not in st.last_resolved


def test_card_of_team_that_has_a_marine_left_resolves() -> None:
    st, engine = _round_with_green_last_marine()
    seen = drive(
        engine.resolve_actions(),
        [["marine", "Brother Claudio"], ["done"], ["done"], ["done"]],
    )
    assert [(d.kind, d.seat) for d in seen] == [
        ("place_support", 1),
        ("move", 2),
        ("facing", 2),
        ("attack", 3),
    ]
    assert st.resolved == {"yellow", "green", "red"}


# -- §2 current player passing --------------------------------------------------------------


def _three_seats(first_cards):
    rows = [
        ("Sergeant Gideon", "L"),
        ("Brother Claudio", "L"),
        ("Brother Goriel", "L"),
        ("Brother Leon", "R"),
        ("Brother Valencio", "R"),
    ]
    st = build_state(rows, seats=[["green"], ["yellow"], ["red"]])
    engine = base_engine(st)
    drive(engine.choose_actions(), [["card", c] for c in first_cards])
    return st, engine


def test_current_player_passes_to_lowest_remaining_revealed_card() -> None:
    # Block 1 (seat 1), Heroic Charge 18 (seat 2), Overwatch 4 (seat 3).
    st, engine = _three_seats(["Block", "Heroic Charge", "Overwatch"])
    assert st.current_seat == 1
    engine.kill_marine("Sergeant Gideon", "test")  # seat 1's last marine
    assert st.current_seat == 3
    engine.kill_marine("Brother Leon", "test")
    assert st.current_seat == 3  # seat 3 still has Valencio
    engine.kill_marine("Brother Valencio", "test")
    assert st.current_seat == 2


def test_current_player_unchanged_when_another_seat_loses_its_last_marine() -> None:
    # Overwatch 4 (seat 3) is the lowest card: seat 3 is current.
    st, engine = _three_seats(["Dead Aim", "Reorganize", "Overwatch"])
    assert st.current_seat == 3
    engine.kill_marine("Sergeant Gideon", "test")
    assert st.current_seat == 3
    engine.kill_marine("Brother Claudio", "test")
    engine.kill_marine("Brother Goriel", "test")
    assert st.current_seat == 3
    assert st.eliminated == {"green", "yellow"}


def test_current_player_with_two_teams_keeps_the_turn_while_one_lives() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Claudio", "L"), ("Brother Leon", "R")]
    st = build_state(rows, seats=[["green", "red"], ["yellow"]])
    engine = base_engine(st)
    drive(
        engine.choose_actions(),
        [["card", "Block"], ["card", "Full Auto"], ["card", "Defensive Stance"]],
    )
    assert st.current_seat == 1  # Block 1
    engine.kill_marine("Sergeant Gideon", "test")
    assert st.eliminated == {"green"}
    assert st.current_seat == 1  # seat 1 still has Leon
    engine.kill_marine("Brother Leon", "test")
    assert st.current_seat == 2


def test_shift_keeps_each_marines_facing() -> None:
    st = five()
    base_engine(st).kill_marine("Brother Claudio", "test")
    assert [SIDES[p.marine.facing] for p in st.formation] == ["left", "right", "right", "left"]
    assert [p.marine.facing for p in st.formation] == [LEFT, RIGHT, RIGHT, LEFT]
