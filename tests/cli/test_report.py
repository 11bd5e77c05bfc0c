"""``deathangel report`` on bad input, run for real (the CLI in a subprocess, SQLite on disk):
each is one line naming what is wrong and exit 1, never a traceback; a reader that goes away
(``report | head``) ends it quietly with the status of a Unix tool killed by SIGPIPE."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from deathangel.tournament.runner import run_tournament
from deathangel.tournament.tournament import build_config

SIGPIPE_STATUS = 141
"""128 + 13: what a shell reports for ``cat`` or ``grep`` killed by SIGPIPE."""


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    data = {
        "games": 3,
        "seed": 0,
        "players": [1],
        "entry": [{"strategy": "random"}, {"name": "again", "strategy": "random"}],
    }
    run_tournament(build_config(data), folder / "r.db", workers=0)
    return folder / "r.db"


def report(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", "report", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=120,
        check=False,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_csv_into_an_existing_file(results: Path, tmp_path: Path) -> None:
    (tmp_path / "out.csv").write_text("mine\n", encoding="utf-8")
    line = one_line(report(str(results), "--csv", "out.csv", cwd=tmp_path))
    assert line == "error: --csv out.csv: is a file, not a folder to write into"
    assert (tmp_path / "out.csv").read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("taken", "error: --plots taken: is a file, not a folder to write into"),
        # A file where a folder on the way should be: the folder cannot be made.
        ("taken/png", "error: --plots taken/png: cannot make the folder: Not a directory"),
    ],
)
def test_plots_into_a_folder_that_cannot_be_made(
    results: Path, tmp_path: Path, target: str, expected: str
) -> None:
    (tmp_path / "taken").write_text("", encoding="utf-8")
    assert one_line(report(str(results), "--plots", target, cwd=tmp_path)) == expected


def test_a_database_without_its_failures_table(results: Path, tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    shutil.copy(results, db)
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE failures")
    conn.close()
    line = one_line(report(str(db), cwd=tmp_path))
    assert line.startswith(f"error: {db}: a results database without its 'failures' table")


@pytest.mark.parametrize(
    "damaged",
    [
        # The games: reading them fails, and the failure is explained by the check.
        "games",
        # The meta table's index, which a report never reads: only the check sees it.
        "sqlite_autoindex_meta_1",
        # The meta table itself: the file does not even open as a results database.
        "meta",
    ],
)
def test_a_database_sqlite_finds_damaged_is_named_as_such(
    results: Path, tmp_path: Path, damaged: str
) -> None:
    db = tmp_path / "r.db"
    shutil.copy(results, db)
    conn = sqlite3.connect(db)
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (damaged,)).fetchone()[
        0
    ]
    conn.close()
    # Scribble over that B-tree's page past its header: its cells now point outside the page.
    data = bytearray(db.read_bytes())
    start = (root - 1) * page
    for i in range(start + 8, start + page, 7):
        data[i] = 0xFF
    db.write_bytes(bytes(data))
    line = one_line(report(str(db), cwd=tmp_path))
    assert line.startswith(f"error: {db}: not a healthy SQLite database (integrity check: ")


@pytest.mark.parametrize("form", [[], ["--json"]])
def test_a_reader_that_goes_away_ends_it_quietly(
    results: Path, tmp_path: Path, form: list[str]
) -> None:
    # The reader is gone before the first line is written (`| head -0`, or a `head` that
    # exits at once): every write meets a closed pipe.
    proc = subprocess.Popen(
        [sys.executable, "-m", "deathangel", "report", str(results), *form],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    errors = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=120) == SIGPIPE_STATUS
    assert errors == b""


def test_the_report_still_reads_a_healthy_database(results: Path, tmp_path: Path) -> None:
    out = report(str(results), "--csv", "csv", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "2 entries × 1 cell(s) × 3 games" in out.stdout
    assert (tmp_path / "csv" / "games.csv").read_text(encoding="utf-8").count("\n") == 1 + 6


def test_a_run_that_never_recorded_its_end_is_not_called_running(
    results: Path, tmp_path: Path
) -> None:
    """A run killed with kill -9 writes no end: its row says ``running`` for ever. The report
    calls such a run killed when a later run followed it, and the last one "running, or
    killed" (it may be writing now)."""
    db = tmp_path / "killed.db"
    shutil.copy(results, db)
    with sqlite3.connect(db) as conn:
        (started,) = conn.execute("SELECT started FROM runs").fetchone()
        conn.execute("UPDATE runs SET status = 'running'")
        conn.execute(
            "INSERT INTO runs (started, backend, workers, games, seconds, status) "
            "VALUES (?, 'processes', 2, 0, 0.0, 'running')",
            (started,),
        )
    conn.close()
    out = report(str(db), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    runs = [line for line in out.stdout.splitlines() if line.startswith("run ")]
    assert [line.rsplit("; ", 1)[1] for line in runs] == [
        "killed (no end recorded))",
        "running, or killed)",
    ]
