"""The strength table's script adds up a run extended on later seeds, and nothing else.

docs/examples/strength_table.py builds the 1–6 player table of docs/strategies.md from
tournament databases; a row may come from two runs (the first 60 seeds, then the 340 after
them). Adding an overlapping run would count games twice, so only runs whose seed ranges
do not meet are added up. Expected figures are worked out by hand below.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from types import ModuleType

import pytest
from example_kit import load_example
from plugin_kit import ROOT
from tourney_rows import stored


def _script() -> ModuleType:
    return load_example("strength_table")


def _run(seed: int, n: int, played: int, **more: float) -> dict[str, float]:
    return {"seed": seed, "n": n, "played": played, **more}


def test_runs_on_disjoint_seeds_are_taken_and_an_overlapping_one_is_not() -> None:
    table = _script()
    first = _run(7000000, 60, 60, tag=1)
    rest = _run(7000060, 340, 340, tag=2)
    whole = _run(7000000, 400, 120, tag=3)  # set for 400 games, stopped at 120: overlaps both
    taken = table.disjoint([first, whole, rest])
    assert sorted(r["tag"] for r in taken) == [1, 2]
    # The largest first: had the whole run played more than the rest, it alone is taken.
    whole["played"] = 341
    assert [r["tag"] for r in table.disjoint([first, whole, rest])] == [3]


def test_added_up_rows_have_their_own_interval() -> None:
    table = _script()
    runs = [
        {"games": 60, "wins": 31, "mean_locations": 3.5},
        {"games": 340, "wins": 170, "mean_locations": 4.0},
    ]
    row = table.merged_entry(runs)
    assert row["games"] == 400
    assert row["win_rate"] == pytest.approx(201 / 400)
    # Wilson's 95% interval of 201 in 400, worked out from its formula.
    assert row["win_rate_low"] == pytest.approx(0.45371, abs=1e-5)
    assert row["win_rate_high"] == pytest.approx(0.55124, abs=1e-5)
    assert row["mean_locations"] == pytest.approx((60 * 3.5 + 340 * 4.0) / 400)


def test_added_up_pairs_are_tested_afresh() -> None:
    table = _script()
    runs = [
        {"both_won": 2, "only_a_won": 1, "only_b_won": 5, "neither_won": 12},
        {"both_won": 3, "only_a_won": 2, "only_b_won": 4, "neither_won": 11},
    ]
    pair = table.merged_pair(runs)
    assert pair["pairs"] == 40
    assert pair["difference"] == pytest.approx((14 - 8) / 40)
    # McNemar exact: 3 of 12 discordant pairs to A, two-sided: 2 (1 + 12 + 66 + 220) / 4096.
    assert pair["mcnemar_p"] == pytest.approx(2 * 299 / 4096)
    assert pair["difference_low"] < pair["difference"] < pair["difference_high"]


def test_added_up_rows_take_their_times_from_all_their_games() -> None:
    table = _script()
    # 4 and 6 games' seconds per decision: together 0.1 ... 1.0, in no order.
    runs = [
        {"games": 4, "wins": 1, "mean_locations": 3.0, "times": [0.9, 0.2, 0.5, 0.1]},
        {"games": 6, "wins": 2, "mean_locations": 3.0, "times": [0.4, 1.0, 0.3, 0.8, 0.6, 0.7]},
    ]
    # Nearest rank of 10 values: the median is the 5th (0.5), the 90th percentile the 9th.
    assert table.merged_entry(runs)["times"] == (0.5, 0.9)
    # The first run alone: 4 values, ranks ceil(2) = 2 and ceil(3.6) = 4.
    assert table.merged_entry(runs[:1])["times"] == (0.2, 0.9)
    assert table.merged_times([{"times": []}]) is None


# -- the runs kept in the repository ----------------------------------------------------------

KEPT = ROOT / "docs" / "data" / "strength"


def _rows(*dbs: Path) -> list[str]:
    """The table's rows the script prints from ``dbs``."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "docs/examples/strength_table.py"), *map(str, dbs)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    return [line for line in out.splitlines() if line.startswith("| ") and "`" in line]


def test_the_page_shows_the_search_rows_of_every_kept_run() -> None:
    """Each search row of the table that a kept database holds is on the page as the script
    prints it from that database: the figures are checked against their games, not copied
    by hand. (Its `rules` rows are not: the page's come from the 2,000-game runs.)"""
    kept = sorted(KEPT.glob("*.db"))
    assert len(kept) >= 2
    page = (ROOT / "docs" / "strategies.md").read_text(encoding="utf-8")
    beside = sorted(KEPT.iterdir())
    # One run of the script for all of them: each holds another player count.
    rows = [row for row in _rows(*kept) if "| `rules` |" not in row]
    # It only reads: no -wal or -shm file is left beside the committed files.
    assert sorted(KEPT.iterdir()) == beside
    assert len(rows) >= len(kept)
    missing = [row for row in rows if row not in page]
    assert not missing, f"the page lacks {missing}"


def test_a_kept_copy_goes_on_to_exactly_the_rows_of_the_whole_run(tmp_path: Path) -> None:
    """keep_run.py's copy leaves out the facts and nothing the run needs: cut back to its
    first games, the run's own command with --resume plays the rest, and every stored game
    is the one the uninterrupted run stored."""
    args = ["tournament", "-e", "random", "-e", "rules", "-p", "1", "-n", "12", "-s", "662398",
            "--bot-key", "0e" * 16, "--workers", "0", "-q"]  # fmt: skip
    whole = tmp_path / "whole.db"
    assert _cli(*args, "--db", str(whole)).returncode == 0
    kept = tmp_path / "kept.db"
    games, _ = load_example("keep_run").keep(whole, kept)
    assert games == 24
    with closing(sqlite3.connect(kept)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM facts").fetchone()[0] == 0
        conn.execute("DELETE FROM games WHERE game >= 8")
        conn.commit()
    resumed = _cli(*args, "--db", str(kept), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert stored(kept) == stored(whole)
    with closing(sqlite3.connect(kept)) as conn:
        # The 8 games played again stored their facts; the 16 kept have none.
        assert conn.execute("SELECT COUNT(*) FROM facts").fetchone()[0] == 8
    # A copy is never written over.
    with pytest.raises(SystemExit, match="exists already"):
        load_example("keep_run").keep(whole, kept)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"not sqlite at all, just text\n" * 10, "not a tournament's results database"),
    ],
    ids=["missing", "not-a-database"],
)
def test_a_source_that_is_no_results_database_is_one_line_and_leaves_no_copy(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    source = tmp_path / "run.db"
    if content is not None:
        source.write_bytes(content)
    target = tmp_path / "kept.db"
    with pytest.raises(SystemExit, match=message) as exc:
        load_example("keep_run").keep(source, target)
    assert "\n" not in str(exc.value)
    assert not target.exists()
    if content is not None:
        assert source.read_bytes() == content  # the file given is left as it was


@pytest.mark.parametrize(
    ("fmt", "tables"),
    [
        # Another program's file with the same tables: refused by its format alone.
        ("something-else", ("facts (game_id INTEGER, data TEXT)", "games (id INTEGER)")),
        # Says it is a tournament but lacks its tables: refused once the copy is under way,
        # and the copy begun is removed.
        ("deathangel-tournament", ()),
    ],
    ids=["another-format", "tables-missing"],
)
def test_a_database_of_something_else_is_refused_and_leaves_no_copy(
    tmp_path: Path, fmt: str, tables: tuple[str, ...]
) -> None:
    source = tmp_path / "other.db"
    with closing(sqlite3.connect(source)) as conn:
        conn.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        conn.execute("INSERT INTO meta VALUES ('format', ?)", (fmt,))
        for table in tables:
            conn.execute(f"CREATE TABLE {table}")
        conn.commit()
    target = tmp_path / "kept.db"
    with pytest.raises(SystemExit, match="not a tournament's results database"):
        load_example("keep_run").keep(source, target)
    assert not target.exists()


def _named_in_docs() -> set[str]:
    """Every results database under docs/data/ that a page of the docs names (not the
    placeholders of a command to copy, such as ``RUN.db``)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    found: set[str] = set()
    for page in pages:
        found.update(re.findall(r"docs/data/[\w./-]+?\.db\b", page.read_text(encoding="utf-8")))
    return {name for name in found if not Path(name).stem.isupper()}


def test_every_run_the_docs_say_is_kept_is_in_the_repository() -> None:
    """A page that says a run is kept in docs/data/ names a file a fresh clone holds: it is
    there, it is a results database, and git does not ignore it (one kept run was once left
    out of every commit by an ignore rule, and its machine went with it)."""
    named = _named_in_docs()
    assert "docs/data/strength/strong6-400.db" in named  # the scan finds what is there
    missing = sorted(name for name in named if not (ROOT / name).is_file())
    assert not missing, f"named in the docs but not in the tree: {missing}"
    for name in sorted(named):
        # immutable: a committed file, read without the -wal/-shm files a read-only
        # connection to a WAL database would otherwise leave in the source tree.
        with closing(sqlite3.connect(f"file:{ROOT / name}?immutable=1", uri=True)) as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        assert {"games", "runs"} <= tables, f"{name} is no results database"
    # keep_run.py's own question (None where there is no git work tree to ask). Git never
    # calls a committed file ignored: this catches a kept run before its commit.
    ignored_by = load_example("keep_run").ignored_by
    ignored = {name: rule for name in sorted(named) if (rule := ignored_by(ROOT / name))}
    assert not ignored, f"kept runs that git ignores: {ignored}"


def test_keeping_a_run_where_git_ignores_it_warns_with_the_rule(tmp_path: Path) -> None:
    """The copy is made either way; where git would leave it out of a commit, one warning
    line names the rule that does, and where a '!' rule lets it in, nothing is said."""
    git = shutil.which("git")
    assert git is not None, "this test needs git, as a clone of the project has"
    subprocess.run([git, "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("*.db\n!kept/*.db\n", encoding="utf-8")
    # A committed file (in WAL mode): keep_run.py only reads it and leaves nothing beside it.
    source = ROOT / "docs" / "data" / "held" / "depth2-test.db"
    beside = sorted(source.parent.iterdir())
    said: dict[str, str] = {}
    for folder in ("ignored", "kept"):
        (tmp_path / folder).mkdir()
        target = tmp_path / folder / "run.db"
        run = subprocess.run(
            [sys.executable, str(ROOT / "docs/examples/keep_run.py"), str(source), str(target)],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        assert target.is_file() and "800 games" in run.stdout
        said[folder] = run.stderr
    assert said["ignored"].count("\n") == 1
    assert "run.db: git ignores it (" in said["ignored"] and ":1:*.db)" in said["ignored"]
    assert said["kept"] == ""
    assert sorted(source.parent.iterdir()) == beside
