"""Rule switches, each applied at its one point of the rules (what the variants plugin sets):
the defence margin (RULES §7), starting support (§3 handicap), a named final location (§3
step 3), teams chosen at setup (§3 step 4), and Instinct cards decided openly (§8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import build_state, drive, make_engine

from deathangel.cards.load import load_base
from deathangel.engine.game import Game, GameConfig, card_abilities, card_table
from deathangel.engine.invariants import check_invariants
from deathangel.engine.ruleset import Ruleset
from deathangel.engine.switches import Switches
from deathangel.players import RandomPlayer
from deathangel.scenario import scenario_game


def ruleset(**switches: object) -> Ruleset:
    db = load_base()
    return Ruleset(db=db, abilities=card_abilities(db), switches=Switches(**switches))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("margin", "face", "slain"),
    [
        (0, 3, True),  # §7 as printed: a roll equal to the size slays
        (-1, 3, False),  # easier: equal survives
        (-1, 2, True),
        (1, 4, True),  # harder: one above slays too
        (1, 5, False),
    ],
)
def test_defence_margin_moves_the_line_between_slain_and_miss(
    margin: int, face: int, slain: bool
) -> None:
    tables = card_table(load_base(), Switches(defence_margin=margin))
    state = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["claw-1", "claw-2", "claw-3"]},
        phase="genestealer_attack",
        tables=tables,
    )
    engine = make_engine(state, dice=[face], tables=tables)
    drive(engine.genestealer_attack())
    assert ("Brother Leon" not in [p.marine.name for p in state.formation]) == slain


def test_starting_support_adds_to_the_handicap() -> None:
    game = Game(GameConfig(1, seed=3, handicap=1), ruleset=ruleset(start_tokens=1))
    assert [p.marine.tokens for p in game.state.formation] == [2] * 6
    assert game.state.supply == 0
    check_invariants(game)
    with pytest.raises(ValueError, match="exceeds the supply of 12"):
        Game(GameConfig(1, seed=3, handicap=1), ruleset=ruleset(start_tokens=2))


def test_a_named_final_location_is_the_last_card_of_the_location_deck() -> None:
    rules = ruleset(final_location="Launch Control Room")
    finals = set()
    for seed in range(12):
        game = Game(GameConfig(2, seed=seed), ruleset=rules)
        bottom = game.table.locations[game.state.location_deck[0]].name
        finals.add(bottom)
    assert finals == {"Launch Control Room"}
    drawn = set()
    for seed in range(12):
        game = Game(GameConfig(2, seed=seed))
        drawn.add(game.table.locations[game.state.location_deck[0]].name)
    # Drawn at random when not named (RULES §3 step 3): each final location turns up.
    assert drawn == {"Genestealer Lair", "Launch Control Room", "Toxin Pumping Station"}


def test_teams_chosen_in_seat_order_then_dealt() -> None:
    game = Game(GameConfig(2, seed=8), ruleset=ruleset(choose_teams=True))
    picks = ["purple", "green", "red", "grey"]
    seats_asked = []
    for colour in picks:
        decision = game.decision
        assert decision is not None and decision.kind == "choose_team"
        seats_asked.append(decision.seat)
        offered = [o.text("team") for o in decision.options]
        assert colour in offered and not set(offered) & set(picks[: len(seats_asked) - 1])
        check_invariants(game)
        game.apply(("team", colour))
    assert seats_asked == [1, 2, 1, 2]
    assert game.state.seats == [("purple", "red"), ("green", "grey")]
    assert len(game.state.formation) == 8
    assert game.decision is not None and game.decision.kind == "choose_action"
    check_invariants(game)
    # The same seed and the same picks give the same game.
    again = Game(GameConfig(2, seed=8), ruleset=ruleset(choose_teams=True))
    for colour in picks:
        again.apply(("team", colour))
    assert again.state.to_dict(again.table) == game.state.to_dict(game.table)


def test_teams_given_in_the_config_are_not_chosen_again() -> None:
    teams = (("red", "blue"), ("green", "grey"))
    game = Game(GameConfig(2, seed=1, teams=teams), ruleset=ruleset(choose_teams=True))
    assert game.decision is not None and game.decision.kind == "choose_action"


def test_games_with_every_switch_keep_invariants() -> None:
    rules = ruleset(
        defence_margin=-1,
        start_tokens=1,
        final_location="Genestealer Lair",
        choose_teams=True,
        instinct=False,
    )
    for players in (1, 3, 6):
        game = Game(GameConfig(players, seed=players), ruleset=rules)
        bot = RandomPlayer(players)
        progress = check_invariants(game)
        while game.decision is not None:
            game.push(bot.choose(game.observation(game.decision.seat), game.decision))
            progress = check_invariants(game, progress)


QUICK_INSTINCTS = """
players = 2
seats = [["red", "blue"], ["green", "yellow"]]
seed = 5
round = 3
phase = "event"
current_seat = 1
event_deck_top = ["Quick Instincts"]

[[formation]]
marine = "Brother Leon"
facing = "left"

[[formation]]
marine = "Brother Noctis"
facing = "left"
left = ["claw", "claw", "claw"]

[[formation]]
marine = "Brother Deino"
facing = "right"

[[formation]]
marine = "Brother Claudio"
facing = "right"
"""


@pytest.mark.parametrize(("instinct", "other_sees"), [(True, False), (False, True)])
def test_without_instinct_every_seat_sees_the_card_before_the_choice(
    tmp_path: Path, instinct: bool, other_sees: bool
) -> None:
    path = tmp_path / "instinct.toml"
    path.write_text(QUICK_INSTINCTS, encoding="utf-8")
    game = scenario_game(path, ruleset=ruleset(instinct=instinct))
    assert game.decision is not None and game.decision.seat == 1
    assert game.observation(1).event == "Quick Instincts"
    assert (game.observation(2).event == "Quick Instincts") == other_sees
