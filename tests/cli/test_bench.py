"""The ``bench`` command and library: the figures are there and every game ended.

Speed is only printed, never asserted: these tests use ``--games`` to keep the work tiny.
"""

from __future__ import annotations

import json
import subprocess
import sys

from deathangel.analysis.bench import (
    BENCH_BOT_KEY,
    DEFAULT_SECONDS,
    DecisionTimes,
    bench_clones,
    bench_decisions,
    bench_games,
    format_profile,
    profile_solo,
    run_bench,
)
from deathangel.analysis.simulate import simulate

SEATS = [1, 2, 3, 4, 5, 6]
"""Every player count of the rules (RULES §3)."""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", "bench", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_bench_json_prints_every_figure() -> None:
    result = run("--json", "--games", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 1
    data = json.loads(result.stdout)
    for players in SEATS:
        assert data[f"games_per_s_{players}p"] > 0
        assert data[f"games_{players}p"] == 2
        assert data[f"games_ended_{players}p"] == 2
    assert data["games"] == data["games_ended"] == 12
    assert data["clones_per_s"] > 0
    assert data["clones_mid_round_per_s"] > 0
    assert data["clones_round_start"] > 0
    assert data["clones_mid_round"] > 0
    assert data["clone_mismatches"] == 0
    assert data["target_solo_games_per_s"] == 200
    assert isinstance(data["target_met"], bool)
    for players in (1, 4):  # the learning environment (deathangel.learning.bench)
        assert data[f"env_steps_per_s_{players}p"] > 0
        assert data[f"env_episodes_{players}p"] == 2
        for part in ("encode", "engine", "observation"):
            assert 0 < data[f"env_{part}_share_{players}p"] < 1
    assert data["target_env_steps_per_s"] == 20000
    assert isinstance(data["target_env_met"], bool)
    for key in ("python", "python_implementation", "machine", "platform", "cpu_count"):
        assert key in data
    assert data["python"] == ".".join(map(str, sys.version_info[:3]))
    assert "profile" not in data
    assert list(data) == sorted(data)


def test_bench_json_profile_lists_the_top_functions() -> None:
    result = run("--json", "--games", "1", "--profile")
    assert result.returncode == 0, result.stderr
    profile = json.loads(result.stdout)["profile"]
    assert profile["games"] == 1
    rows = profile["by_cumulative"]
    assert len(rows) == 15
    cumulative = [r["cumulative_s"] for r in rows]
    assert cumulative == sorted(cumulative, reverse=True)
    assert any("play_game" in r["function"] for r in rows)


def test_bench_text_reports_rates_target_and_profile() -> None:
    result = run("--games", "1", "--profile")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for players in SEATS:
        assert f"  {players} player" in out
    assert "all ended" in out
    assert "at round start:" in out
    assert "mid-round:" in out
    assert "every clone stood at its original's decision" in out
    assert "target (at least 200 solo games/s on one core): " in out
    assert "Gymnasium environment, a masked random agent playing every seat:" in out
    assert "target (at least 20000 solo steps/s on one core): " in out
    assert "top 15 functions by cumulative time:" in out
    assert result.stderr == ""


def test_bench_refuses_bad_options_in_one_line() -> None:
    for args, message in [
        (("--games", "0"), "error: --games must be at least 1, not 0"),
        (("--seconds", "0"), "error: --seconds must be positive, not 0.0"),
    ]:
        result = run(*args)
        assert result.returncode != 0
        assert result.stderr.strip() == message
        assert "Traceback" not in result.stderr


def test_bench_help_states_the_default_budget() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert f"default {DEFAULT_SECONDS}" in result.stdout


# -- the library ---------------------------------------------------------------------------------


def test_bench_games_counts_what_it_plays() -> None:
    rate = bench_games(3, games=4)
    assert (rate.players, rate.games, rate.ended) == (3, 4, 4)
    assert 0 <= rate.wins <= 4
    assert rate.seconds > 0
    assert rate.per_s > 0


def test_bench_clones_times_both_cases_and_every_clone_matches() -> None:
    start, mid, games, mismatches = bench_clones(games=6)
    assert games == 6
    assert start.clones >= 6  # at least one round per game
    assert mid.clones > 0
    assert mismatches == 0


def test_run_bench_reports_each_measurement_as_it_finishes() -> None:
    seen: list[int] = []
    clones: list[int] = []
    report = run_bench(
        games=1,
        on_games=lambda rate: seen.append(rate.players),
        on_clones=lambda start, mid, bad: clones.append(bad),
    )
    assert seen == SEATS
    assert clones == [0]
    assert report.all_ended
    assert report.solo.players == 1
    assert report.to_dict()["games_limit"] == 1


def test_a_time_budget_plays_at_least_one_game() -> None:
    rate = bench_games(1, seconds=1e-9)
    assert rate.games >= 1


def test_profile_text_has_both_tables() -> None:
    profile = profile_solo(games=2, top=5)
    lines = format_profile(profile, own=3)
    assert lines[1] == "top 5 functions by cumulative time:"
    assert "top 3 functions by own time:" in lines
    assert all(" at 0x" not in line for line in lines)


# -- a strategy's thinking time ------------------------------------------------------------------


def test_bench_decisions_times_every_decision_simulate_counts() -> None:
    times = bench_decisions("random", players=2, games=3, seed=7)
    summary = simulate(2, 3, 7, "random", bot_key=BENCH_BOT_KEY)
    assert len(times.times) == round(summary.mean_decisions * 3)
    assert times.wins == summary.wins
    assert list(times.times) == sorted(times.times)


def test_decision_time_quantiles_are_nearest_ranks() -> None:
    times = DecisionTimes("x", 1, 1, 0, tuple(float(t) for t in range(1, 11)), 0)
    assert (times.quantile(0.5), times.quantile(0.9), times.quantile(1.0)) == (5.0, 9.0, 10.0)
    data = times.to_dict()
    assert (data["median_ms"], data["p90_ms"], data["decisions"]) == (5000.0, 9000.0, 10)
    assert DecisionTimes("x", 1, 1, 0, (), 0).quantile(0.5) == 0.0


def test_bench_strategy_prints_decision_times() -> None:
    result = run("--strategy", "mcts:iterations=2", "--games", "1", "--seed", "3", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["strategy"] == "mcts:iterations=2"
    assert data["decisions"] > 0
    assert 0 < data["median_ms"] <= data["p90_ms"] <= data["max_ms"]
    text = run("--strategy", "random", "--games", "2", "-p", "3")
    assert text.returncode == 0, text.stderr
    assert "decisions of 'random': 2 game(s) of 3 player(s), seeds 0..1" in text.stdout
    assert "median" in text.stdout and "90th percentile" in text.stdout


def test_bench_strategy_refuses_an_unknown_strategy_in_one_line() -> None:
    result = run("--strategy", "oracle")
    assert result.returncode != 0
    assert "unknown strategy 'oracle'" in result.stderr
    assert "Traceback" not in result.stderr
