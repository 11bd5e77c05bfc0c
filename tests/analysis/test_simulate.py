"""Simulation: one game played to its end, many games summed up, and the ``simulate`` command.

The library tests replay games by hand (same config, same bot seeds, the checked ``apply``
path and the game log) and compare with what :func:`play_game` and :func:`simulate` report.
The command tests run the real CLI in a subprocess.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from designer_plugins import run_with_site as deathangel
from designer_plugins import stopper_site
from plugin_kit import Declared
from support import TEST_BOT_KEY

from deathangel.analysis.simulate import (
    Z95,
    GameResult,
    SimulationInterrupted,
    SimulationSummary,
    bots,
    play_game,
    simulate,
    wilson_interval,
)
from deathangel.engine.decisions import Decision, Option
from deathangel.engine.game import Game, GameConfig
from deathangel.errors import DeathAngelError, IllegalChoiceError, PluginError
from deathangel.players import RandomPlayer
from deathangel.players.seeds import bot_seed
from deathangel.plugins.hookspecs import hookimpl
from deathangel.plugins.manager import plugin_manager
from deathangel.plugins.strategies import strategy_factories, strategy_factory

# -- helpers -------------------------------------------------------------------------------------


def play_by_hand(players: int, seed: int) -> tuple[Game, list[str]]:
    """The game of ``seed`` with random bots, played through the checked path, with a log."""
    game = Game(GameConfig(players, seed=seed), log=True)
    seat_bots = {
        s: RandomPlayer(seed=bot_seed(TEST_BOT_KEY, seed, s)) for s in range(1, players + 1)
    }
    while game.decision is not None:
        decision = game.decision
        game.apply(seat_bots[decision.seat].choose(game.observation(decision.seat), decision))
    return game, game.log


class Cheater:
    """A bot that answers every decision with an option no rule offers."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, observation: Any, decision: Decision) -> Option:
        return Option("teleport", ("everyone",))


class CheaterPlugin(Declared):
    @hookimpl
    def deathangel_strategies(self) -> dict[str, Callable[..., Any]]:
        return {"cheater": Cheater}


class ClashingPlugin(Declared):
    @hookimpl
    def deathangel_strategies(self) -> dict[str, Callable[..., Any]]:
        return {"random": Cheater}


# -- one game ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(1, 0), (1, 17), (2, 3), (4, 8), (6, 5)])
def test_game_result_matches_the_game_played_by_hand(players: int, seed: int) -> None:
    game, log = play_by_hand(players, seed)
    result = play_game(
        GameConfig(players, seed=seed), bots(RandomPlayer, players, seed, TEST_BOT_KEY)
    )
    travels = sum(1 for line in log if line.startswith("the marines travel to "))
    rounds = sum(1 for line in log if line.startswith("— round "))
    # Read from the log as a person would: "claw-3 is slain", "the Promethium Tank burns 2
    # genestealer(s) left", "Brother Leon is slain (slain by genestealers from behind)".
    labels = set(game.table.gs_labels)
    slain = sum(1 for line in log if line.removesuffix(" is slain") in labels)
    slain += sum(int(m.group(1)) for line in log if (m := re.search(r"burns (\d+) genest", line)))
    deaths = [m.group(1) for line in log if (m := re.fullmatch(r".+ is slain \((.+)\)", line))]
    assert attrs.evolve(result, seconds=0.0) == GameResult(
        seed=seed,
        players=players,
        outcome=game.outcome or "unfinished",
        rounds=rounds,
        locations_reached=1 + travels,
        decisions=len(game.history),
        marines_left=len(game.state.formation),
        genestealers_slain=slain,
        cause=deaths[-1] if game.outcome == "defeat" else None,
    )
    assert result.seconds > 0
    assert result.rounds == game.state.round
    assert result.outcome in ("victory", "defeat")
    assert result.won == (result.outcome == "victory")
    setup = game.state.setup_location
    assert setup is not None
    assert 1 <= result.locations_reached <= 1 + len(setup.location_deck)


def test_play_game_refuses_an_illegal_choice_naming_the_strategy() -> None:
    with pytest.raises(IllegalChoiceError, match=r"strategy 'cheater' \(seat 1\) chose"):
        play_game(GameConfig(1, seed=1), [Cheater()], names=["cheater"])
    # Without names the player's class names it.
    with pytest.raises(IllegalChoiceError, match="'Cheater'"):
        play_game(GameConfig(1, seed=1), [Cheater()])


def test_play_game_needs_one_strategy_per_seat() -> None:
    with pytest.raises(DeathAngelError, match="2 player"):
        play_game(GameConfig(2, seed=1), [RandomPlayer()])


def test_a_game_that_does_not_end_is_stopped_and_named() -> None:
    with pytest.raises(DeathAngelError, match="did not end after 5 decisions"):
        play_game(GameConfig(1, seed=1), [RandomPlayer()], max_decisions=5)


# -- many games ----------------------------------------------------------------------------------


def test_simulate_is_deterministic() -> None:
    first = simulate(3, 12, 40, bot_key=TEST_BOT_KEY)
    again = simulate(3, 12, 40, bot_key=TEST_BOT_KEY)
    assert first == again
    assert first.to_dict() == again.to_dict()
    assert first.wins + first.losses == first.games == 12


def test_simulate_sums_the_games_it_plays_and_each_game_replays_alone() -> None:
    players, games, seed = 2, 8, 100
    summary = simulate(players, games, seed, bot_key=TEST_BOT_KEY)
    results = [
        play_game(
            GameConfig(players, seed=seed + i),
            bots(RandomPlayer, players, seed + i, TEST_BOT_KEY),
        )
        for i in range(games)
    ]
    wins = sum(r.outcome == "victory" for r in results)
    causes: dict[str, int] = {}
    for r in results:
        if r.cause is not None:
            causes[r.cause] = causes.get(r.cause, 0) + 1
    assert sum(causes.values()) == games - wins
    assert summary == SimulationSummary(
        players=players,
        games=games,
        seed=seed,
        strategy="random",
        wins=wins,
        losses=games - wins,
        mean_rounds=sum(r.rounds for r in results) / games,
        mean_locations=sum(r.locations_reached for r in results) / games,
        mean_decisions=sum(r.decisions for r in results) / games,
        causes=tuple(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))),
        bot_key=TEST_BOT_KEY,
    )
    # The last game of the run is the first game of a run that starts at its seed.
    alone = simulate(players, 1, seed + games - 1, bot_key=TEST_BOT_KEY)
    assert alone.mean_rounds == results[-1].rounds
    assert alone.mean_locations == results[-1].locations_reached


def test_simulate_reports_progress_after_each_game() -> None:
    calls: list[tuple[int, int]] = []
    simulate(1, 4, 0, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


@pytest.mark.parametrize(
    ("players", "games", "message"),
    [(0, 5, "players must be between 1 and 6"), (7, 5, "players"), (1, 0, "games must")],
)
def test_simulate_refuses_bad_arguments(players: int, games: int, message: str) -> None:
    with pytest.raises(DeathAngelError, match=message):
        simulate(players, games, 0)


def test_unknown_strategy_lists_the_known_ones() -> None:
    with pytest.raises(DeathAngelError, match=r"unknown strategy 'nope'; known strategies: random"):
        simulate(1, 1, 0, strategy="nope")


def test_strategies_come_from_the_plugin_hook() -> None:
    pm = plugin_manager(extra=[CheaterPlugin()])
    assert set(strategy_factories(pm)) == {"random", "rules", "mcts", "mcts-strong", "cheater"}
    assert strategy_factory("random", pm) is RandomPlayer
    with pytest.raises(IllegalChoiceError, match="strategy 'cheater'"):
        simulate(1, 3, 0, strategy="cheater", pm=pm)


def test_two_plugins_may_not_offer_the_same_strategy_name() -> None:
    pm = plugin_manager(extra=[ClashingPlugin()])
    with pytest.raises(PluginError, match="'random'"):
        strategy_factories(pm)


class InterruptedIn(RandomPlayer):
    """Random, but Ctrl-C (a KeyboardInterrupt) comes during game number ``at`` (from 1) of
    the run it plays in."""

    at = 3
    games = 0

    def start_game(self, seats: tuple[int, ...], observation: object) -> None:
        InterruptedIn.games += 1
        self.stop = InterruptedIn.games == InterruptedIn.at

    def choose(self, observation: Any, decision: Decision) -> Option:
        if self.stop:
            raise KeyboardInterrupt
        return super().choose(observation, decision)


class InterruptingPlugin(Declared):
    @hookimpl
    def deathangel_strategies(self) -> dict[str, Callable[..., Any]]:
        return {"interrupted": InterruptedIn}


@pytest.mark.parametrize("at", [1, 3])
def test_an_interrupted_simulation_carries_the_games_played(at: int) -> None:
    """Ctrl-C in game 3: the games before it are summed exactly as a run of those two games
    alone (the strategy plays as ``random`` does, its bots seeded alike); still a
    KeyboardInterrupt to a script. In game 1: nothing to sum, the plain KeyboardInterrupt."""
    InterruptedIn.at, InterruptedIn.games = at, 0
    pm = plugin_manager(extra=[InterruptingPlugin()])
    with pytest.raises(KeyboardInterrupt) as stopped:
        simulate(1, 50, 7, "interrupted", pm=pm, bot_key=TEST_BOT_KEY)
    if at == 1:
        assert type(stopped.value) is KeyboardInterrupt
        return
    assert isinstance(stopped.value, SimulationInterrupted)
    assert stopped.value.wanted == 50
    two = simulate(1, 2, 7, "random", bot_key=TEST_BOT_KEY)
    assert stopped.value.summary == attrs.evolve(two, strategy="interrupted")


def test_a_stopped_simulation_prints_the_games_played(tmp_path: Path) -> None:
    """SIGTERM in the third game (as a batch system sends it; Ctrl-C alike): the command prints
    the summary of the two games played, the very figures of a run of those two games, says
    it was stopped, and exits with the status of a stopped run. Before, it died with no word."""
    site = stopper_site(tmp_path / "site")
    key = ("--bot-key", TEST_BOT_KEY)
    stopped = deathangel(
        "simulate", "--with", "stopper", "--strategy", "stopper", "-n", "1000", *key,
        site=site, cwd=tmp_path,
    )  # fmt: skip
    assert stopped.returncode == 130, stopped.stderr
    assert stopped.stderr.strip().splitlines()[-1] == (
        "interrupted after 2 of 1000 games: the figures are of those"
    )
    lines = stopped.stdout.splitlines()
    assert lines[0] == "2 game(s), 1 player(s), strategy 'stopper', seeds 0..1"
    assert lines[1].startswith("played with:             stopper 1.0")
    two = deathangel("simulate", "-n", "2", *key, site=site, cwd=tmp_path)
    assert two.returncode == 0, two.stderr
    assert lines[2:] == two.stdout.splitlines()[1:]


def test_bot_seeds_differ_for_every_game_and_seat() -> None:
    seeds = {bot_seed(TEST_BOT_KEY, g, s) for g in range(-20, 50) for s in range(1, 7)}
    assert len(seeds) == 70 * 6


# -- the Wilson interval -------------------------------------------------------------------------


def wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    z = 1.959964
    p = k / n
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = (z / (1 + z**2 / n)) * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    return max(0.0, centre - half), min(1.0, centre + half)


def test_wilson_interval_of_no_wins_in_ten() -> None:
    # z²/n = 0.38415; centre = half = (z²/20) / (1 + z²/10) = 0.19207 / 1.38415.
    lo, hi = wilson_interval(0, 10)
    assert Z95 == 1.959964
    assert lo == 0.0
    assert hi == pytest.approx(2 * (1.959964**2 / 20) / (1 + 1.959964**2 / 10), abs=1e-12)
    assert hi == pytest.approx(0.27753, abs=1e-5)
    assert (lo, hi) == pytest.approx(wilson_by_hand(0, 10), abs=1e-12)


@pytest.mark.parametrize(("k", "n"), [(1, 10), (5, 10), (7, 20), (10, 10), (3, 1000)])
def test_wilson_interval_follows_the_formula(k: int, n: int) -> None:
    assert wilson_interval(k, n) == pytest.approx(wilson_by_hand(k, n), abs=1e-12)
    lo, hi = wilson_interval(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_interval_is_symmetric_between_wins_and_losses() -> None:
    lo, hi = wilson_interval(3, 17)
    lo2, hi2 = wilson_interval(14, 17)
    assert (lo, hi) == pytest.approx((1 - hi2, 1 - lo2), abs=1e-12)


def test_wilson_interval_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson_interval(0, 0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_summary_reports_its_interval() -> None:
    summary = simulate(1, 10, 0)
    data = summary.to_dict()
    assert data["win_rate"] == summary.wins / 10
    assert data["win_rate_ci95"] == list(wilson_by_hand(summary.wins, 10))


# -- the command ---------------------------------------------------------------------------------


def cli(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "deathangel", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_simulate_command_json_is_complete_and_byte_identical(players: int) -> None:
    args = (
        "simulate", "--players", str(players), "--games", "20", "--seed", "1", "--json",
        "--bot-key", TEST_BOT_KEY,
    )  # fmt: skip
    first, second = cli(*args), cli(*args)  # both at once
    code, out, err = finish(first)
    code2, out2, err2 = finish(second)
    assert code == 0, err
    assert code2 == 0, err2
    assert out == out2
    assert err == ""
    assert out.count("\n") == 1
    data = json.loads(out)
    expected_keys = {
        "players",
        "games",
        "seed",
        "strategy",
        "wins",
        "losses",
        "win_rate",
        "win_rate_ci95",
        "mean_rounds",
        "mean_locations",
    }
    assert expected_keys <= set(data)
    assert list(data) == sorted(data)
    assert (data["players"], data["games"], data["seed"]) == (players, 20, 1)
    assert data["strategy"] == "random"
    assert data["wins"] + data["losses"] == 20
    lo, hi = data["win_rate_ci95"]
    assert 0 <= lo <= data["win_rate"] <= hi <= 1
    assert data["mean_rounds"] >= 1
    assert data["mean_locations"] >= 1
    # The command reports what the library computes.
    assert data == simulate(players, 20, 1, bot_key=TEST_BOT_KEY).to_dict()


def test_simulate_command_prints_a_readable_summary() -> None:
    code, out, err = finish(
        cli("simulate", "--players", "2", "--games", "5", "--seed", "3", "--bot-key", TEST_BOT_KEY)
    )
    assert code == 0, err
    summary = simulate(2, 5, 3, bot_key=TEST_BOT_KEY)
    assert f"wins:                    {summary.wins}" in out
    assert f"losses:                  {summary.losses}" in out
    assert "95% Wilson interval" in out
    assert f"mean rounds:             {summary.mean_rounds:.2f}" in out
    assert f"mean locations reached:  {summary.mean_locations:.2f}" in out
    assert err == ""  # no progress bar when stderr is not a terminal


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "7"), "error: --players must be between 1 and 6, not 7"),
        (("--players", "0"), "error: --players must be between 1 and 6, not 0"),
        (("--games", "0"), "error: --games must be at least 1, not 0"),
        (
            ("--strategy", "nope"),
            "error: unknown strategy 'nope'; known strategies: random, rules, mcts, mcts-strong",
        ),
    ],
)
def test_simulate_command_refuses_bad_options_in_one_line(
    args: tuple[str, ...], message: str
) -> None:
    code, out, err = finish(cli("simulate", *args))
    assert code != 0
    assert out == ""
    assert err.strip() == message
    assert "Traceback" not in err


def test_progress_bar_path_gives_the_same_summary() -> None:
    from deathangel.cli.simulate import _run

    assert _run(1, 3, 2, "random", True, bot_key=TEST_BOT_KEY) == simulate(
        1, 3, 2, bot_key=TEST_BOT_KEY
    )
