"""``deathangel report NEW.db --against OLD.db``: entries of two databases paired on the games
both played, checked against the same entries played together in one tournament (whose
pairs are the report's own, from one SQL join), and refused, in one line, when the two
databases did not play the same games."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import TEST_BOT_KEY

from deathangel.tournament.report import pairs_against, read_report
from deathangel.tournament.results import Results, ResultsError
from deathangel.tournament.runner import run_tournament
from deathangel.tournament.tournament import Cell, build_config

OTHER_KEY = "a7" * 16


def play(path: Path, entries: list[str], seed: int, games: int, key: str = TEST_BOT_KEY) -> Path:
    data: dict[str, Any] = {
        "games": games,
        "seed": seed,
        "players": [1, 2],
        "entry": [{"strategy": e} for e in entries],
        "bot_key": key,
    }
    run_tournament(build_config(data), path, workers=0)
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``random`` on seeds 0-29, ``rules`` later on seeds 10-39, and both together on the
    seeds they share (10-29): what a paired tournament of the two would have stored."""
    folder = tmp_path_factory.mktemp("against")
    return {
        "old": play(folder / "old.db", ["random"], 0, 30),
        "new": play(folder / "new.db", ["rules"], 10, 30),
        "joint": play(folder / "joint.db", ["random", "rules"], 10, 20),
        "other_key": play(folder / "key.db", ["random"], 0, 30, key=OTHER_KEY),
    }


def test_pairs_across_databases_are_those_of_one_tournament(runs: dict[str, Path]) -> None:
    with Results.open(runs["joint"]) as joint:
        expected = {(p.cell, p.a, p.b): p for p in read_report(joint).pairs}
    with Results.open(runs["new"]) as new, Results.open(runs["old"]) as old:
        lines, words = pairs_against(new, old)
    assert [(p.cell, p.a, p.b, p.a_database) for p in lines] == [
        (Cell(1), "random", "rules", "old.db"),
        (Cell(2), "random", "rules", "old.db"),
    ]
    for line in lines:
        same = expected[line.cell, line.a, line.b]
        assert line.table == same.table
        assert line.table.pairs == 20  # seeds 10-29 only: the seeds both databases played
        assert line.difference == same.difference
        assert line.p_value == same.p_value
    # The rules bot must have won somewhere, or the comparison above proves little.
    assert sum(p.table.only_b + p.table.both for p in lines) > 0
    assert "the same bot key" in words


def test_another_bot_key_pairs_the_deals_and_says_so(runs: dict[str, Path]) -> None:
    with Results.open(runs["new"]) as new, Results.open(runs["other_key"]) as old:
        lines, words = pairs_against(new, old)
    assert [p.table.pairs for p in lines] == [20, 20]
    assert "another bot key" in words


def test_a_seed_that_dealt_other_teams_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    tampered = tmp_path / "tampered.db"
    tampered.write_bytes(runs["old"].read_bytes())
    with sqlite3.connect(tampered) as conn:
        conn.execute("UPDATE games SET teams = 'blue/red' WHERE seed = 12 AND players = 2")
    with (
        Results.open(runs["new"]) as new,
        Results.open(tampered) as old,
        pytest.raises(ResultsError, match="game seed 12 at 2 player"),
    ):
        pairs_against(new, old)


def test_the_cli_pairs_and_refuses_in_one_line(runs: dict[str, Path], tmp_path: Path) -> None:
    def report(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "deathangel", "report", *args],
            capture_output=True,
            text=True,
            env={**os.environ, "NO_COLOR": "1"},
            timeout=120,
            check=False,
        )

    ok = report(str(runs["new"]), "--against", str(runs["old"]), "--markdown")
    assert ok.returncode == 0, ok.stderr
    assert "| 1p | random (old.db) | rules | 20 |" in ok.stdout
    assert "Entries marked (old.db) were played in" in ok.stdout
    missing = report(str(runs["new"]), "--against", str(tmp_path / "none.db"))
    assert missing.returncode == 1
    assert "Traceback" not in missing.stderr
    assert missing.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'none.db'}: no such results database"
    ]
    # The same file under another name pairs every game with itself: refused.
    itself = report(str(runs["new"]), "--against", str(runs["new"].parent / "." / "new.db"))
    assert itself.returncode == 1
    assert itself.stderr == (
        f"error: --against {runs['new'].parent / '.' / 'new.db'}: is the database being "
        "reported; pair it with another\n"
    )


def test_other_variants_are_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    """The config as stored says the games were played under a rule variant the other
    database's were not (edited here: a test of the check, not of a variant)."""
    varied = tmp_path / "varied.db"
    varied.write_bytes(runs["old"].read_bytes())
    with sqlite3.connect(varied) as conn:
        (text,) = conn.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
        data = json.loads(text)
        data["variants"] = [["hardened", "1"]]
        conn.execute("UPDATE meta SET value = ? WHERE key = 'config'", (json.dumps(data),))
    with (
        Results.open(runs["new"]) as new,
        Results.open(varied) as old,
        pytest.raises(ResultsError, match=r"variants hardened 1, .* with none: not the same"),
    ):
        pairs_against(new, old)
