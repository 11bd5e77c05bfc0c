"""The rows a tournament stored, for comparing runs: every column of ``games`` but ``id`` (the
order batches finished) and ``seconds`` (wall time), in the table's own order; with
``facts=True``, each game's facts last (``None`` when it has none), so facts are compared
exactly as the rows are. And how many a run being played has stored so far."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

COLUMNS = (
    "players, cell_teams, entry, game, seed, teams, outcome, rounds, locations_reached, "
    "marines_left, genestealers_slain, cause, decisions"
)


def stored(db: Path, *, facts: bool = False) -> list[tuple[Any, ...]]:
    """Every stored game of ``db`` as a tuple of :data:`COLUMNS` (and its facts)."""
    conn = sqlite3.connect(db)
    try:
        columns = ", ".join(f"g.{c.strip()}" for c in COLUMNS.split(","))
        join = ""
        if facts:
            columns += ", f.data"
            join = "LEFT JOIN facts f ON f.game_id = g.id"
        return conn.execute(
            f"SELECT {columns} FROM games g {join} "
            "ORDER BY g.players, g.cell_teams, g.entry, g.game"
        ).fetchall()
    finally:
        conn.close()


def count(db: Path) -> int:
    """How many games ``db`` holds now: 0 before the file, or its tables, exist (a run being
    played creates the file, then commits its schema)."""
    if not db.exists():
        return 0
    conn = sqlite3.connect(db, timeout=5)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:  # created, schema not committed yet
        return 0
    finally:
        conn.close()
