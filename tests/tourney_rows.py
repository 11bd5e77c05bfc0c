"""The rows a tournament stored, for comparing runs: every column of ``games`` but ``id`` (the
order batches finished) and ``seconds`` (wall time), in the table's own order."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

COLUMNS = (
    "players, cell_teams, entry, game, seed, teams, outcome, rounds, locations_reached, "
    "marines_left, genestealers_slain, cause, decisions"
)


def stored(db: Path) -> list[tuple[Any, ...]]:
    """Every stored game of ``db`` as a tuple of :data:`COLUMNS`."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            f"SELECT {COLUMNS} FROM games ORDER BY players, cell_teams, entry, game"
        ).fetchall()
    finally:
        conn.close()
