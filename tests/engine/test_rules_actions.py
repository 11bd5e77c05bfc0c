"""RULES §5 (Choose Actions), §6 resolution order, §6.1 (Support), §6.2 (Move + Activate).

Hand-built positions, scripted dice and scripted answers; every expected state is worked out
from the rules text, not read back from the engine.
"""

from __future__ import annotations

import pytest
from support import build_state, drive, make_engine, marines, swarm_labels

from deathangel.engine.abilities import Abilities
from deathangel.engine.decisions import Option
from deathangel.engine.state import LEFT, RIGHT

GREEN = {"Block", "Run and Gun", "Dead Aim"}
YELLOW = {"Defensive Stance", "Reorganize", "Heroic Charge"}
RED = {"Overwatch", "Onward, Brothers!", "Full Auto"}

SIX = [
    ("Sergeant Gideon", "L"),
    ("Brother Claudio", "L"),
    ("Brother Leon", "L"),
    ("Brother Noctis", "R"),
    ("Brother Goriel", "R"),
    ("Brother Valencio", "R"),
]


def base_engine(state, dice=()):
    """An engine with the base rules only: no card ability in play, whatever the default."""
    return make_engine(state, dice, abilities=Abilities())


def card_options(decision) -> set[str]:
    assert all(o.verb == "card" for o in decision.options)
    return {str(o.args[0]) for o in decision.options}


def terrain_names(state, position: int, side: int) -> list[str]:
    return [t.name for t in state.formation[position - 1].terrain[side]]


# -- §5 Choose Actions ---------------------------------------------------------------------


def test_every_active_team_picks_one_card_in_seat_order() -> None:
    st = build_state(SIX, seats=[["green", "yellow"], ["red"]])
    engine = base_engine(st)
    seen = drive(
        engine.choose_actions(),
        [["card", "Dead Aim"], ["card", "Reorganize"], ["card", "Overwatch"]],
    )
    assert [d.kind for d in seen] == ["choose_action"] * 3
    assert [d.seat for d in seen] == [1, 1, 2]
    assert [card_options(d) for d in seen] == [GREEN, YELLOW, RED]
    assert st.chosen == {"green": "Dead Aim", "yellow": "Reorganize", "red": "Overwatch"}


def test_card_resolved_last_round_is_not_offered() -> None:
    st = build_state(SIX, seats=[["green"], ["yellow"], ["red"]])
    st.last_resolved = {"green": "Block", "yellow": "Heroic Charge"}
    engine = base_engine(st)
    seen = drive(
        engine.choose_actions(),
        [["card", "Dead Aim"], ["card", "Reorganize"], ["card", "Overwatch"]],
    )
    assert card_options(seen[0]) == {"Run and Gun", "Dead Aim"}
    assert card_options(seen[1]) == {"Defensive Stance", "Reorganize"}
    assert card_options(seen[2]) == RED


def test_choosing_the_barred_card_is_illegal() -> None:
    st = build_state(SIX, seats=[["green"], ["yellow"], ["red"]])
    st.last_resolved = {"green": "Block"}
    engine = base_engine(st)
    with pytest.raises(AssertionError, match="not legal"):
        drive(engine.choose_actions(), [["card", "Block"]])


def test_eliminated_team_is_not_asked() -> None:
    st = build_state(SIX, seats=[["green"], ["yellow"], ["red"]])
    engine = base_engine(st)
    engine.kill_marine("Brother Claudio", "test")
    engine.kill_marine("Brother Goriel", "test")
    assert st.eliminated == {"yellow"}
    seen = drive(engine.choose_actions(), [["card", "Block"], ["card", "Full Auto"]])
    assert [d.seat for d in seen] == [1, 3]
    assert [card_options(d) for d in seen] == [GREEN, RED]
    assert st.chosen == {"green": "Block", "red": "Full Auto"}
    assert [team for _, team, _ in st.revealed] == ["green", "red"]


def test_team_with_one_living_marine_still_picks() -> None:
    st = build_state(SIX, seats=[["green"], ["yellow"], ["red"]])
    engine = base_engine(st)
    engine.kill_marine("Brother Claudio", "test")
    seen = drive(
        engine.choose_actions(),
        [["card", "Block"], ["card", "Reorganize"], ["card", "Full Auto"]],
    )
    assert [d.seat for d in seen] == [1, 2, 3]


def test_reveal_in_ascending_initiative_and_current_player() -> None:
    st = build_state(SIX, seats=[["green"], ["yellow"], ["red"]])
    engine = base_engine(st)
    # Dead Aim 16 (seat 1), Defensive Stance 2 (seat 2), Onward, Brothers! 7 (seat 3).
    drive(
        engine.choose_actions(),
        [["card", "Dead Aim"], ["card", "Defensive Stance"], ["card", "Onward, Brothers!"]],
    )
    assert st.revealed == [
        (2, "yellow", "Defensive Stance"),
        (7, "red", "Onward, Brothers!"),
        (16, "green", "Dead Aim"),
    ]
    assert st.current_seat == 2


def test_current_player_is_seat_of_lowest_initiative_with_two_teams_a_seat() -> None:
    st = build_state(SIX, seats=[["yellow"], ["green", "red"]])
    st.current_seat = 1
    engine = base_engine(st)
    # Seat 1: Heroic Charge 18; seat 2: Run and Gun 12 and Overwatch 4.
    drive(
        engine.choose_actions(),
        [["card", "Heroic Charge"], ["card", "Run and Gun"], ["card", "Overwatch"]],
    )
    assert [card for _, _, card in st.revealed] == ["Overwatch", "Run and Gun", "Heroic Charge"]
    assert st.current_seat == 2


def test_cards_resolve_in_initiative_order_then_barred_next_round() -> None:
    st = build_state(SIX, seats=[["green"], ["yellow"], ["red"]])
    engine = base_engine(st)
    drive(
        engine.choose_actions(),
        [["card", "Dead Aim"], ["card", "Defensive Stance"], ["card", "Onward, Brothers!"]],
    )
    # Defensive Stance (2, support) asks seat 2 for the token; Onward, Brothers! (7) asks
    # seat 3 to move and to face; Dead Aim (16) has no target (no swarm): nothing to ask.
    seen = drive(
        engine.resolve_actions(),
        [["marine", "Brother Leon"], ["done"], ["done"]],
    )
    assert [(d.seat, d.kind) for d in seen] == [(2, "place_support"), (3, "move"), (3, "facing")]
    assert st.resolved == {"green", "yellow", "red"}
    assert st.last_resolved == {
        "green": "Dead Aim",
        "yellow": "Defensive Stance",
        "red": "Onward, Brothers!",
    }
    engine.end_round()
    seen = drive(
        engine.choose_actions(),
        [["card", "Block"], ["card", "Reorganize"], ["card", "Full Auto"]],
    )
    assert [card_options(d) for d in seen] == [
        {"Block", "Run and Gun"},
        {"Reorganize", "Heroic Charge"},
        {"Overwatch", "Full Auto"},
    ]


# -- §6.1 Support --------------------------------------------------------------------------


class Recorder(Abilities):
    """Base abilities that note when a Support card's ability window runs."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str, int]] = []

    def after_support(self, engine, team, card):
        self.calls.append((team, card, engine.state.supply))
        return super().after_support(engine, team, card)


def test_support_token_onto_any_marine_of_any_team() -> None:
    st = build_state(SIX, seats=[["green"], ["yellow"], ["red"]])
    rec = Recorder()
    engine = make_engine(st, abilities=rec)
    seen = drive(engine.support_action("green", "Block"), [["marine", "Brother Valencio"]])
    assert len(seen) == 1
    assert seen[0].kind == "place_support"
    assert seen[0].seat == 1
    assert {o.args[0] for o in seen[0].options} == {name for name, _ in SIX}
    assert [p.marine.tokens for p in st.formation] == [0, 0, 0, 0, 0, 1]
    assert st.supply == 11
    assert st.tokens_in_play() == 12
    # The ability runs after the token is placed.
    assert rec.calls == [("green", "Block", 11)]


def test_support_with_empty_supply_places_nothing_but_ability_runs() -> None:
    rows = [("Sergeant Gideon", "L", 7), ("Brother Noctis", "R", 5), ("Brother Leon", "R")]
    st = build_state(rows)
    assert st.supply == 0
    rec = Recorder()
    engine = make_engine(st, abilities=rec)
    seen = drive(engine.support_action("green", "Block"), [])
    assert seen == []
    assert [p.marine.tokens for p in st.formation] == [7, 5, 0]
    assert st.supply == 0
    assert rec.calls == [("green", "Block", 0)]


def test_supply_limit_never_exceeded() -> None:
    rows = [("Sergeant Gideon", "L", 10), ("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(rows)
    assert st.supply == 2
    engine = base_engine(st)
    drive(engine.support_action("green", "Block"), [["marine", "Brother Leon"]])
    drive(engine.support_action("green", "Block"), [["marine", "Brother Leon"]])
    assert st.supply == 0
    drive(engine.support_action("green", "Block"), [])  # nothing to place: no decision
    assert [p.marine.tokens for p in st.formation] == [10, 0, 2]
    assert st.supply == 0
    assert st.tokens_in_play() == 12
    # Slaying a marine returns his tokens: back to 10 in the supply, never above 12.
    engine.kill_marine("Sergeant Gideon", "test")
    assert st.supply == 10
    assert st.tokens_in_play() == 12


# -- §6.2 Move + Activate: the move step ---------------------------------------------------


def test_move_swaps_keep_facing_and_leave_swarms_and_terrain() -> None:
    rows = [
        ("Brother Claudio", "L"),
        ("Sergeant Gideon", "L"),
        ("Brother Noctis", "R"),
        ("Brother Leon", "R"),
    ]
    st = build_state(
        rows,
        swarms={(2, "left"): ["claw-1"], (3, "right"): ["tongue-1"]},
        terrain={(2, "left"): ["Corridor"], (3, "right"): ["Dark Corner"]},
    )
    engine = base_engine(st)
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [
            ["swap", "Sergeant Gideon", "Brother Claudio"],
            ["swap", "Brother Noctis", "Brother Claudio"],
            ["done"],  # facing
        ],
    )
    assert set(seen[0].options) == {
        Option("swap", ("Sergeant Gideon", "Brother Claudio")),
        Option("swap", ("Sergeant Gideon", "Brother Noctis")),
        Option("swap", ("Brother Noctis", "Sergeant Gideon")),
        Option("swap", ("Brother Noctis", "Brother Leon")),
        Option("done"),
    }
    # After Gideon's own swap (Gideon, Claudio, Noctis, Leon) only Noctis may still swap.
    assert set(seen[1].options) == {
        Option("swap", ("Brother Noctis", "Brother Claudio")),
        Option("swap", ("Brother Noctis", "Brother Leon")),
        Option("done"),
    }
    # Both own swaps used: no third move decision, straight to facing.
    assert [d.kind for d in seen] == ["move", "move", "facing"]
    assert marines(st) == ["Sergeant Gideon", "Brother Noctis", "Brother Claudio", "Brother Leon"]
    assert [p.marine.facing for p in st.formation] == [LEFT, RIGHT, LEFT, RIGHT]
    # Swarms and terrain stayed at their positions.
    assert swarm_labels(st, 2, "left") == ["claw-1"]
    assert swarm_labels(st, 3, "right") == ["tongue-1"]
    assert terrain_names(st, 2, LEFT) == ["Corridor"]
    assert terrain_names(st, 3, RIGHT) == ["Dark Corner"]
    assert st.genestealers_in_formation() == 2


def test_marine_moved_twice_own_swap_and_teammates() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(rows)
    engine = base_engine(st)
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [
            ["swap", "Sergeant Gideon", "Brother Noctis"],  # Gideon's own swap: row 2
            ["swap", "Brother Noctis", "Sergeant Gideon"],  # Noctis's swap moves him back
            ["done"],
        ],
    )
    # After his own swap Gideon may not swap again on his own.
    assert set(seen[1].options) == {
        Option("swap", ("Brother Noctis", "Sergeant Gideon")),
        Option("done"),
    }
    assert marines(st) == ["Sergeant Gideon", "Brother Noctis", "Brother Leon"]
    assert [p.marine.facing for p in st.formation] == [LEFT, RIGHT, RIGHT]


def test_move_is_optional_and_swap_with_other_team() -> None:
    rows = [("Brother Leon", "L"), ("Sergeant Gideon", "L"), ("Brother Noctis", "R")]
    st = build_state(rows)
    engine = base_engine(st)
    drive(
        engine.move_activate_action("green", "Run and Gun"),
        [["swap", "Sergeant Gideon", "Brother Leon"], ["done"], ["done"]],
    )
    assert marines(st) == ["Sergeant Gideon", "Brother Leon", "Brother Noctis"]
    assert [p.marine.facing for p in st.formation] == [LEFT, LEFT, RIGHT]


def test_facing_flips_once_per_marine() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(rows)
    engine = base_engine(st)
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [["done"], ["flip", "Sergeant Gideon"], ["flip", "Brother Noctis"]],
    )
    assert set(seen[1].options) == {
        Option("flip", ("Sergeant Gideon",)),
        Option("flip", ("Brother Noctis",)),
        Option("done"),
    }
    assert set(seen[2].options) == {Option("flip", ("Brother Noctis",)), Option("done")}
    # Both flipped: no further facing decision.
    assert len(seen) == 3
    assert [p.marine.facing for p in st.formation] == [RIGHT, LEFT, RIGHT]


# -- §6.2 Move + Activate: activation -----------------------------------------------------


def test_only_terrain_in_front_can_be_activated() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(
        rows,
        terrain={
            (1, "left"): ["Door"],  # in front of Gideon
            (1, "right"): ["Promethium Tank"],  # behind Gideon
            (2, "left"): ["Spore Chimney"],  # behind Noctis
            (3, "right"): ["Control Panel"],  # in front of Leon (not of this team)
        },
    )
    engine = base_engine(st)
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [["done"], ["done"], ["activate", "Sergeant Gideon", "Door"]],
    )
    assert seen[2].kind == "activate"
    assert set(seen[2].options) == {
        Option("activate", ("Sergeant Gideon", "Door")),
        Option("done"),
    }
    assert [t.tokens for t in st.formation[0].terrain[LEFT]] == [1]
    assert st.supply == 11
    assert st.tokens_in_play() == 12
    assert st.activated == {"Door"}


def test_non_activatable_terrain_is_never_offered() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R")]
    st = build_state(
        rows,
        terrain={(1, "left"): ["Corridor", "Dark Corner"], (2, "right"): ["Ventilation Duct"]},
    )
    engine = base_engine(st)
    seen = drive(engine.move_activate_action("green", "Run and Gun"), [["done"], ["done"]])
    assert [d.kind for d in seen] == ["move", "facing"]


def test_flip_then_activate_what_is_now_in_front() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R")]
    st = build_state(rows, terrain={(1, "right"): ["Door"]})
    engine = base_engine(st)
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [["done"], ["flip", "Sergeant Gideon"], ["done"], ["activate", "Sergeant Gideon", "Door"]],
    )
    assert [d.kind for d in seen] == ["move", "facing", "facing", "activate"]
    assert st.formation[0].terrain[RIGHT][0].tokens == 1


def test_each_marine_activates_at_most_one_terrain() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(rows, terrain={(1, "left"): ["Door", "Spore Chimney"]})
    engine = base_engine(st)
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [["done"], ["done"], ["activate", "Sergeant Gideon", "Door"]],
    )
    assert set(seen[2].options) == {
        Option("activate", ("Sergeant Gideon", "Door")),
        Option("activate", ("Sergeant Gideon", "Spore Chimney")),
        Option("done"),
    }
    # Gideon has activated: the Chimney is not offered again, and no die was rolled.
    assert len(seen) == 3
    assert terrain_names(st, 1, LEFT) == ["Door", "Spore Chimney"]
    assert st.activated == {"Door"}


def test_two_teammates_activate_two_terrain_cards() -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R"), ("Brother Leon", "R")]
    st = build_state(rows, terrain={(1, "left"): ["Door"], (2, "right"): ["Spore Chimney"]})
    engine = base_engine(st, dice=[4])
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [
            ["done"],
            ["done"],
            ["activate", "Brother Noctis", "Spore Chimney"],
            ["activate", "Sergeant Gideon", "Door"],
        ],
    )
    assert set(seen[3].options) == {
        Option("activate", ("Sergeant Gideon", "Door")),
        Option("done"),
    }
    assert st.activated == {"Door", "Spore Chimney"}
    assert terrain_names(st, 2, RIGHT) == ["Spore Chimney"]  # 4 is no skull: it stays
    assert st.formation[0].terrain[LEFT][0].tokens == 1


def test_terrain_activated_once_per_round_by_anyone() -> None:
    rows = [
        ("Sergeant Gideon", "L"),
        ("Brother Claudio", "L"),
        ("Brother Noctis", "R"),
        ("Brother Goriel", "R"),
    ]
    st = build_state(rows, terrain={(1, "left"): ["Door"]}, seats=[["green"], ["yellow"]])
    engine = base_engine(st)
    drive(
        engine.move_activate_action("green", "Run and Gun"),
        [["done"], ["done"], ["activate", "Sergeant Gideon", "Door"]],
    )
    # Yellow brings Claudio (facing left) to position 1, in front of the same Door.
    seen = drive(
        engine.move_activate_action("yellow", "Reorganize"),
        [["swap", "Brother Claudio", "Sergeant Gideon"], ["done"], ["done"]],
    )
    assert marines(st)[0] == "Brother Claudio"
    assert [d.kind for d in seen] == ["move", "move", "facing"]  # no activate decision
    assert st.formation[0].terrain[LEFT][0].tokens == 1
    # Next round the Door may be activated again.
    engine.end_round()
    seen = drive(
        engine.move_activate_action("yellow", "Reorganize"),
        [["done"], ["done"], ["activate", "Brother Claudio", "Door"]],
    )
    assert st.formation[0].terrain[LEFT][0].tokens == 2
    assert st.supply == 10


def test_door_with_empty_supply_gets_no_token() -> None:
    rows = [("Sergeant Gideon", "L", 12), ("Brother Noctis", "R")]
    st = build_state(rows, terrain={(1, "left"): ["Door"]})
    assert st.supply == 0
    engine = base_engine(st)
    drive(
        engine.move_activate_action("green", "Run and Gun"),
        [["done"], ["done"], ["activate", "Sergeant Gideon", "Door"]],
    )
    assert st.formation[0].terrain[LEFT][0].tokens == 0
    assert st.supply == 0
    assert st.tokens_in_play() == 12


@pytest.mark.parametrize(
    ("face", "discarded"), [(0, False), (1, True), (2, True), (3, True), (4, False), (5, False)]
)
def test_spore_chimney_skull_discards_it(face: int, discarded: bool) -> None:
    # Gideon holds a token, but the roll is no attack or defence: never a reroll prompt.
    rows = [("Sergeant Gideon", "L", 1), ("Brother Noctis", "R")]
    st = build_state(rows, terrain={(1, "left"): ["Spore Chimney", "Corridor"]})
    engine = base_engine(st, dice=[face])
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [["done"], ["done"], ["activate", "Sergeant Gideon", "Spore Chimney"]],
    )
    assert [d.kind for d in seen] == ["move", "facing", "activate"]
    expected = ["Corridor"] if discarded else ["Spore Chimney", "Corridor"]
    assert terrain_names(st, 1, LEFT) == expected
    assert st.formation[0].marine.tokens == 1
    assert engine.die.remaining == []


def _promethium_state(tokens: int = 0):
    rows = [("Sergeant Gideon", "L"), ("Brother Noctis", "R", tokens), ("Brother Leon", "R")]
    return build_state(
        rows,
        swarms={
            (1, "left"): ["tail-1"],
            (2, "left"): ["claw-1", "claw-2"],
            (2, "right"): ["tongue-1", "Brood Lord A"],
            (3, "right"): ["head-1"],
        },
        terrain={(2, "right"): ["Promethium Tank", "Corridor"], (2, "left"): ["Dark Corner"]},
    )


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5])
def test_promethium_tank_burns_its_row_marine_survives(face: int) -> None:
    st = _promethium_state()
    engine = base_engine(st, dice=[face])
    drive(
        engine.move_activate_action("green", "Run and Gun"),
        [["done"], ["done"], ["activate", "Brother Noctis", "Promethium Tank"]],
    )
    assert marines(st) == ["Sergeant Gideon", "Brother Noctis", "Brother Leon"]
    assert swarm_labels(st, 2, "left") == []
    assert swarm_labels(st, 2, "right") == []
    assert swarm_labels(st, 1, "left") == ["tail-1"]
    assert swarm_labels(st, 3, "right") == ["head-1"]
    assert terrain_names(st, 2, RIGHT) == ["Corridor"]  # the Tank is discarded
    assert terrain_names(st, 2, LEFT) == ["Dark Corner"]
    labels = engine.table.gs_labels
    # Slain normal genestealers go to the discard; the Brood Lord leaves play.
    assert sorted(labels[c] for c in st.gs_discard) == ["claw-1", "claw-2", "tongue-1"]
    assert engine.die.remaining == []


def test_promethium_tank_roll_zero_slays_the_activating_marine() -> None:
    st = _promethium_state(tokens=1)
    engine = base_engine(st, dice=[0])
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [["done"], ["done"], ["activate", "Brother Noctis", "Promethium Tank"]],
    )
    # No reroll prompt (terrain rolls are never rerolled), Noctis falls.
    assert [d.kind for d in seen] == ["move", "facing", "activate"]
    assert st.slain == ["Brother Noctis"]
    # Gap at position 2 of 3: equal segments, the bottom one (Leon) moves up onto position 2.
    assert marines(st) == ["Sergeant Gideon", "Brother Leon"]
    assert swarm_labels(st, 1, "left") == ["tail-1"]
    assert swarm_labels(st, 2, "right") == ["head-1"]
    assert swarm_labels(st, 2, "left") == []
    assert terrain_names(st, 2, RIGHT) == ["Corridor"]
    assert terrain_names(st, 2, LEFT) == ["Dark Corner"]
    assert st.supply == 12  # his token went back
    assert st.tokens_in_play() == 12
