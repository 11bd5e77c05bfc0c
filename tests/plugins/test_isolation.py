"""Bots in processes of their own (``--isolate``): the same results as in process, nothing
but data crossing, and a bot that misbehaves costs its game, never the run.

The strategies come from ``tests/tourney_bots.py`` as a plugin module; the children find it
because they inherit this process's import path.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve
from support import TEST_BOT_KEY
from tourney_rows import stored

from deathangel.analysis.simulate import simulate
from deathangel.engine.game import Game, GameConfig
from deathangel.plugins.isolation import IsolatedBots, IsolationContext, IsolationError
from deathangel.plugins.strategies import parse_spec
from deathangel.tournament.runner import run_tournament
from deathangel.tournament.tournament import build_config

TESTS = Path(__file__).resolve().parents[1]


def tournament(tmp_path: Path, name: str, isolate: bool, **data: Any) -> list[tuple[Any, ...]]:
    data.setdefault("plugins", ["tourney_bots"])
    data.setdefault("bot_key", TEST_BOT_KEY)
    config = build_config(data)
    run_tournament(evolve(config, isolate=isolate), tmp_path / f"{name}.db", workers=0)
    return [row[:-1] for row in stored(tmp_path / f"{name}.db")]  # all but the seconds


def test_isolated_bots_give_exactly_the_in_process_results(tmp_path: Path) -> None:
    data = {
        "games": 3,
        "seed": 21,
        "players": [1, 3],
        "entry": [
            {"strategy": "rules"},
            {"strategy": "random"},
            {"name": "mixed", "seats": ["rules", "chatty"]},
        ],
    }
    in_process = tournament(tmp_path, "in", False, **data)
    isolated = tournament(tmp_path, "out", True, **data)
    assert len(in_process) == 18
    assert isolated == in_process


def test_a_searching_bot_isolated_plays_the_same_game(tmp_path: Path) -> None:
    """The forward-model record crosses as data too: the search deals the same games."""
    data = {"games": 1, "seed": 4, "players": 1, "entry": [{"strategy": "mcts:iterations=8"}]}
    assert tournament(tmp_path, "out", True, **data) == tournament(tmp_path, "in", False, **data)


def test_an_isolated_bot_cannot_find_the_game_in_its_memory(tmp_path: Path) -> None:
    report = tmp_path / "snoop.txt"
    data = {"games": 2, "players": 1, "entry": [{"strategy": f"snoop:report={report}"}]}
    tournament(tmp_path, "in", False, **data)
    assert report.read_text(encoding="utf-8").split() == ["found", "found"]  # the limit
    report.unlink()
    tournament(tmp_path, "out", True, **data)
    assert report.read_text(encoding="utf-8").split() == ["none", "none"]


def test_a_failing_isolated_bot_costs_its_game_only(tmp_path: Path) -> None:
    data = {"games": 6, "players": 1, "entry": [{"strategy": "flaky:fail_every=3"}]}
    db = tmp_path / "r.db"
    config = build_config({**data, "plugins": ["tourney_bots"], "bot_key": TEST_BOT_KEY})
    summary = run_tournament(evolve(config, isolate=True), db, workers=0)
    conn = sqlite3.connect(db)
    errors = [e for (e,) in conn.execute("SELECT error FROM failures")]
    conn.close()
    assert summary.failures == len(errors) > 0
    assert all(
        e.startswith("IsolationError: isolated strategy 'flaky:fail_every=3' (seat 1): ")
        and "RuntimeError: flaky bot gives up" in e
        for e in errors
    ), errors


def test_a_bot_process_that_dies_is_reported_and_replaced(tmp_path: Path) -> None:
    marker = tmp_path / "crash.marker"
    marker.touch()
    spec = parse_spec(f"crash_once:marker={marker}")
    with IsolatedBots(IsolationContext(modules=("tourney_bots",))) as make:
        bot = make(spec, 1, 7)
        game = Game(GameConfig(1, seed=3))
        decision = game.decision
        assert decision is not None
        with pytest.raises(IsolationError, match=r"its process ended \(exit status 3\)"):
            bot.choose(None, decision)
        again = make(spec, 1, 7)  # a new process: the marker is gone, it plays
        assert again.choose(None, decision) in decision.options


def test_simulate_isolate_prints_the_same_summary() -> None:
    def run(*extra: str) -> dict[str, Any]:
        out = subprocess.run(
            [
                *(sys.executable, "-m", "deathangel", "simulate", "-p", "2", "-n", "4"),
                *("--strategy", "rules", "--bot-key", TEST_BOT_KEY, "--json", *extra),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
            env={**os.environ, "PYTHONPATH": str(TESTS)},
        ).stdout
        return dict(json.loads(out))

    assert run("--isolate") == run()
    assert run() == simulate(2, 4, 0, "rules", bot_key=TEST_BOT_KEY).to_dict()


def test_play_isolate_plays_the_same_bot_game(tmp_path: Path) -> None:
    def play(save: str, *extra: str) -> list[Any]:
        subprocess.run(
            [
                *(sys.executable, "-m", "deathangel", "play", "-p", "2", "--seed", "5"),
                *("--seat", "1=bot:rules", "--seat", "2=bot:random", "--save", save),
                *("--bot-key", TEST_BOT_KEY, *extra),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
            cwd=tmp_path,
        )
        data = json.loads((tmp_path / save).read_text(encoding="utf-8"))
        assert data["bot_key"] == TEST_BOT_KEY
        return list(data["decisions"])

    assert play("out.json", "--isolate") == play("in.json")
