"""docs/examples/overrules.py: where a search would choose otherwise than a strategy.

Known answers: a search that may never overrule (a margin above any value) overrules
nothing; one row per decision with a choice of the strategy's own games, counted here by
playing the same games again without the search.
"""

from __future__ import annotations

from example_kit import load_example
from pytest import approx

from deathangel.engine.game import Game, GameConfig
from deathangel.players.seeds import bot_seed
from deathangel.plugins.strategies import parse_spec


def _choices_with_options(strategy: str, players: int, seed: int, key: str) -> list[str]:
    """The kinds of the decisions with a choice in the strategy's game, in order."""
    spec = parse_spec(strategy)
    seats = [spec.make(bot_seed(key, seed, s)) for s in range(1, players + 1)]
    game = Game(GameConfig(players, seed=seed))
    kinds = []
    while (decision := game.decision) is not None:
        own = seats[decision.seat - 1].choose(game.observation(decision.seat), decision)
        if len(decision.options) > 1:
            kinds.append(decision.kind)
        game.push(own)
    return kinds


def test_one_row_per_decision_of_the_strategys_own_game() -> None:
    script = load_example("overrules")
    rows = script.look("rules", "mcts:iterations=4", 1, 1, 641000)
    assert [r["kind"] for r in rows] == _choices_with_options("rules", 1, 641000, script.KEY)
    table = script.summary(rows)
    assert sum(n for _, n, _, _, _ in table) == len(rows)
    assert all(0 <= overruled <= n for _, n, overruled, _, _ in table)


def test_a_search_that_may_not_overrule_overrules_nothing() -> None:
    script = load_example("overrules")
    rows = script.look("rules", "mcts:iterations=4,margin=1", 1, 1, 641001)
    assert rows and all(r["search"] == r["own"] for r in rows)
    assert all(overruled == 0 for _, _, overruled, _, _ in script.summary(rows))


def test_asking_at_one_kind_gives_that_kinds_rows_of_the_full_run() -> None:
    script = load_example("overrules")
    full = script.look("rules", "mcts:iterations=4", 1, 1, 641000)
    only = script.look("rules", "mcts:iterations=4", 1, 1, 641000, kinds={"choose_action"})
    expected = [r for r in full if r["kind"] == "choose_action"]
    assert len(expected) == _choices_with_options("rules", 1, 641000, script.KEY).count(
        "choose_action"
    )
    assert only == expected
    assert [r["round"] for r in only] == sorted(r["round"] for r in only)


def test_pairs_counts_each_overrule_and_averages_its_gain() -> None:
    script = load_example("overrules")
    rows = [
        {"kind": "choose_action", "own": "play A", "search": "play B", "gain": 0.02},
        {"kind": "choose_action", "own": "play A", "search": "play B", "gain": 0.04},
        {"kind": "choose_action", "own": "play C", "search": "play C", "gain": 0.0},
        {"kind": "choose_action", "own": "play C", "search": "play A", "gain": 0.01},
    ]
    assert script.pairs(rows, 5) == [
        ("play A", "play B", 2, approx(3.0)),
        ("play C", "play A", 1, approx(1.0)),
    ]
    assert script.pairs(rows, 1) == [("play A", "play B", 2, approx(3.0))]
