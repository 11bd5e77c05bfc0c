"""The learning environment's figures in ``deathangel bench``: counted as played, and one
line naming the extra when it is missing. Speed is printed, never asserted."""

from __future__ import annotations

import json
import subprocess
import sys

from deathangel.learning.bench import PLAYERS, bench_env, env_figures, env_lines


def test_bench_env_counts_the_steps_of_whole_episodes() -> None:
    rate = bench_env(2, episodes=3, seed=4)
    assert (rate.players, rate.episodes) == (2, 3)
    assert rate.steps > 3 * 20  # a game of two seats takes dozens of decisions
    assert 0 < rate.encode_seconds < rate.seconds
    assert 0 < rate.encode_share < 1 and rate.per_s > 0
    parts = rate.encode_seconds + rate.engine_seconds + rate.observe_seconds
    assert rate.engine_seconds > 0 and rate.observe_seconds > 0 and parts < rate.seconds


def test_env_figures_and_their_lines() -> None:
    figures = env_figures(episodes=1)
    for players in PLAYERS:
        assert figures[f"env_episodes_{players}p"] == 1
        assert figures[f"env_steps_{players}p"] > 0
    lines = env_lines(figures)
    assert lines[0] == "Gymnasium environment, a masked random agent playing every seat:"
    assert lines[1].startswith("  1 player :") and "episodes; of the time: engine " in lines[1]
    assert lines[-1].startswith("  target (at least 20000 solo steps/s on one core): ")


def test_without_the_extra_bench_says_so_in_one_line() -> None:
    code = (
        "import sys, json; sys.modules['gymnasium'] = None\n"
        "from deathangel.learning.bench import env_figures, env_lines\n"
        "figures = env_figures(episodes=1)\n"
        "print(json.dumps(figures)); print(*env_lines(figures))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    data, line = out.stdout.splitlines()
    hint = "pip install 'deathangel[rl]'"
    assert json.loads(data) == {
        "env_skipped": "the learning environments need the 'rl' extra (gymnasium is not "
        f"installed): {hint}"
    }
    assert line.startswith("learning environment: skipped, ") and line.endswith(hint)
