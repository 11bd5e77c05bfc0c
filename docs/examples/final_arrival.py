"""How many marines a strategy brings to the final location, and how often that wins.

    python docs/examples/final_arrival.py RESULTS.db [ENTRY ...]

Reads a tournament's stored facts (``deathangel tournament`` stores them unless
``--no-facts``): for each entry, the solo games that reached the final location, split by the
marines standing as they arrived (the marines less those slain before, plus those rescued
before), with how many of those games were won; then the same games split by which final
location it was (the three ask different things: two Brood Lords slain, blip piles and
formation cleared, or a launch rolled); and where the marines of all its solo games fell
(which location, of what). Standard library only: it reads the database and its
JSON, nothing is run.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

K = TypeVar("K", int, str)


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


def _solo_games(db: str, entries: list[str]) -> list[tuple[str, bool, dict[str, Any]]]:
    """(entry, won, facts) of every solo game of the entries (all entries when none named)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = conn.execute(
        "SELECT g.entry, g.outcome, f.data FROM games g JOIN facts f ON f.game_id = g.id "
        "WHERE g.players = 1"
    ).fetchall()
    conn.close()
    return [
        (entry, outcome == "victory", json.loads(data))
        for entry, outcome, data in rows
        if not entries or entry in entries
    ]


def _split(
    db: str, entries: list[str], key: Callable[[dict[str, Any], int], K]
) -> dict[str, dict[K, tuple[int, int]]]:
    """Entry → ``key(facts, standing on arrival)`` → (games, games won), over the games that
    reached the final location."""
    games: dict[str, Counter[K]] = {}
    wins: dict[str, Counter[K]] = {}
    for entry, won, facts in _solo_games(db, entries):
        standing = standing_on_arrival(facts)
        if standing is None:
            continue
        k = key(facts, standing)
        games.setdefault(entry, Counter())[k] += 1
        wins.setdefault(entry, Counter())[k] += won
    return {
        entry: {k: (n, wins[entry][k]) for k, n in sorted(counts.items())}
        for entry, counts in games.items()
    }


def table(db: str, entries: list[str]) -> dict[str, dict[int, tuple[int, int]]]:
    """Entry → marines standing on arrival → (games, games won)."""
    return _split(db, entries, lambda facts, standing: standing)


def by_final(db: str, entries: list[str]) -> dict[str, dict[str, tuple[int, int]]]:
    """Entry → final location reached → (games, games won)."""
    return _split(db, entries, lambda facts, standing: str(facts["reached"][-1][0]))


def deaths(db: str, entries: list[str]) -> dict[str, Counter[tuple[str, str]]]:
    """Entry → (where, cause) → marines slain, over all its solo games (arrived or not):
    where is ``"location N"`` (1: the first after the set-up location, 0: the set-up
    location itself) or ``"final"``; the cause as the tournament's facts word it."""
    out: dict[str, Counter[tuple[str, str]]] = {}
    for entry, _, facts in _solo_games(db, entries):
        final = len(facts["deck"])  # ``reached`` index of the final location
        counts = out.setdefault(entry, Counter())
        for death in facts["deaths"]:
            where = "final" if death[2] == final else f"location {death[2]}"
            counts[where, str(death[3])] += 1
    return out


def _rates(what: str, split: dict[str, dict[K, tuple[int, int]]], align: str = "---") -> None:
    print(f"| entry | {what} | games | won | win rate |")
    print(f"| --- | {align} | ---: | ---: | ---: |")
    for entry, rows in split.items():
        for k, (n, won) in rows.items():
            print(f"| `{entry}` | {k} | {n} | {won} | {100 * won / n:.0f}% |")


def main() -> None:
    db, *entries = sys.argv[1:]
    _rates("standing on arrival", table(db, entries), "---:")
    print()
    _rates("final location", by_final(db, entries))
    print()
    print("| entry | where | cause | marines slain |")
    print("| --- | --- | --- | ---: |")
    for entry, counts in deaths(db, entries).items():
        for (where, cause), n in sorted(counts.items()):
            print(f"| `{entry}` | {where} | {cause} | {n} |")


if __name__ == "__main__":
    main()
