"""How many marines a strategy brings to the final location, and how often that wins.

    python docs/examples/final_arrival.py RESULTS.db [ENTRY ...]

Reads a tournament's stored facts (``deathangel tournament`` stores them unless
``--no-facts``): for each entry, the solo games that reached the final location, split by the
marines standing as they arrived (the marines less those slain before, plus those rescued
before), with how many of those games were won. Standard library only: it reads the database
and its JSON, nothing is run.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections import Counter
from typing import Any


def standing_on_arrival(facts: dict[str, Any]) -> int | None:
    """Marines standing as the last location was reached (``None``: the game ended before
    the final location, or it was not solo)."""
    reached = facts["reached"]
    if len(reached) < 4 or facts["marines"] != 6:
        return None
    final = len(reached) - 1
    # A death is [marine, team, where, cause, round] and a rescue [round, where], ``where``
    # indexing ``reached``: those at an earlier location came before the arrival.
    slain = sum(1 for d in facts["deaths"] if d[2] < final)
    rescued = sum(1 for r in facts["rescues"] if r[1] < final)
    return int(facts["marines"]) - slain + rescued


def table(db: str, entries: list[str]) -> dict[str, dict[int, tuple[int, int]]]:
    """Entry → marines standing on arrival → (games, games won)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = conn.execute(
        "SELECT g.entry, g.outcome, f.data FROM games g JOIN facts f ON f.game_id = g.id "
        "WHERE g.players = 1"
    ).fetchall()
    games: dict[str, Counter[int]] = {}
    wins: dict[str, Counter[int]] = {}
    for entry, outcome, data in rows:
        if entries and entry not in entries:
            continue
        standing = standing_on_arrival(json.loads(data))
        if standing is None:
            continue
        games.setdefault(entry, Counter())[standing] += 1
        wins.setdefault(entry, Counter())[standing] += outcome == "victory"
    return {
        entry: {k: (n, wins[entry][k]) for k, n in sorted(counts.items())}
        for entry, counts in games.items()
    }


def main() -> None:
    db, *entries = sys.argv[1:]
    print("| entry | standing on arrival | games | won | win rate |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for entry, rows in table(db, entries).items():
        for standing, (n, won) in rows.items():
            print(f"| `{entry}` | {standing} | {n} | {won} | {100 * won / n:.0f}% |")


if __name__ == "__main__":
    main()
