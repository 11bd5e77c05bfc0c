"""Keep a strength run's results in the repository: a copy of its database without the facts.

    python docs/examples/keep_run.py RUN.db docs/data/strength/RUN.db

A search tournament of the strength table costs hours of CPU, and its database lived only on
the machine that played it: several of the table's rows lost theirs with a machine. The
copy this makes keeps everything the table and ``deathangel report`` read — every game's row,
the runs, the tournament's config and bot key — and leaves out the per-game facts (the
card-by-card record ``deathangel cards report`` reads), which are most of the file: 1.47 MB
for the 2-player ``mcts`` row's 800 games, 143 kB without them.

It is taken with SQLite's online backup, so a run still playing may be kept as it stands
(the games stored so far); the copy is a results database like any other: ``deathangel
report`` reads it, and the run's own command with ``--resume`` goes on from it (the games it
plays then store their facts as usual).

A copy that git would ignore is made all the same, with a warning that names the ignore rule:
two runs were once kept under a folder that an ignore rule left out of every commit, and
went with their machine.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from deathangel.tournament.results import FORMAT


def keep(source: Path, target: Path) -> tuple[int, int]:
    """Copy ``source`` to ``target`` without its facts; the games kept and the bytes written."""
    if target.exists():
        raise SystemExit(f"{target}: exists already; remove it first")
    if not source.is_file():
        raise SystemExit(f"{source}: no such file")
    try:
        # Only read, but not through SQLite's read-only mode: a read-only connection to a
        # WAL database leaves its -wal and -shm files behind (it may not remove them).
        with closing(sqlite3.connect(source)) as src:
            row = src.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is None or row[0] != FORMAT:
                raise sqlite3.DatabaseError("no tournament in it")
            with closing(sqlite3.connect(target)) as dst:
                src.backup(dst)
                dst.execute("DELETE FROM facts")
                dst.commit()
                dst.execute("PRAGMA journal_mode = DELETE")  # one file, nothing beside it
                dst.execute("VACUUM")
                games = int(dst.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        target.unlink(missing_ok=True)  # no half-made copy left behind
        raise SystemExit(f"{source}: not a tournament's results database ({exc})") from None
    return games, target.stat().st_size


def ignored_by(target: Path) -> str | None:
    """The git ignore rule that would leave ``target`` out of a commit (``FILE:LINE:PATTERN``),
    or ``None``: not ignored, or not in a git work tree (or no git to ask)."""
    git = shutil.which("git")
    if git is None:
        return None
    found = subprocess.run(
        [git, "check-ignore", "--verbose", "--", target.name],
        cwd=target.resolve().parent,
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode != 0:  # 1: no rule matches; 128: not in a work tree
        return None
    rule = found.stdout.split("\t", 1)[0].strip()
    # --verbose names a '!' rule too, one that lets the file in.
    return rule if rule and not rule.split(":", 2)[-1].startswith("!") else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a tournament's results database")
    parser.add_argument("target", type=Path, help="where the copy goes (must not exist)")
    args = parser.parse_args()
    games, size = keep(args.source, args.target)
    print(f"{args.target}: {games} games, {size:,} bytes")
    rule = ignored_by(args.target)
    if rule is not None:
        print(
            f"warning: {args.target}: git ignores it ({rule}), so a commit leaves it out;"
            " add a '!' rule for its folder to .gitignore",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
