"""How many marines a strategy brings to the final location, and how often that wins.

    python docs/examples/final_arrival.py [--players N] [--seeds FIRST-LAST] RESULTS.db [ENTRY ...]

Reads a tournament's stored facts (``deathangel tournament`` stores them unless
``--no-facts``): for each entry, the games of N players (default 1: solo; only the seeds
FIRST to LAST with ``--seeds``, to compare databases on the deals they share) that reached
the final location, split by the marines standing as they arrived (the marines less those
slain before, plus those rescued before), with how many of those games were won; then the
same games split by which final location it was (the three ask different things: two Brood
Lords slain, blip piles and formation cleared, or a launch rolled); and where the marines of
all those games fell (which location, of what). Standard library only: it reads the database
and its JSON, nothing is run.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

K = TypeVar("K", int, str)


def standing_on_arrival(facts: dict[str, Any]) -> int | None:
    """Marines standing as the last location was reached (``None``: the game ended before
    the final location)."""
    reached = facts["reached"]
    # ``reached`` starts with the set-up location, then one entry a location of the deck
    # (three solo; facts stored without the deck were solo games).
    final = len(facts.get("deck", ())) or 3
    if len(reached) <= final:
        return None
    # A death is [marine, team, where, cause, round] and a rescue [round, where], ``where``
    # indexing ``reached``: those at an earlier location came before the arrival.
    slain = sum(1 for d in facts["deaths"] if d[2] < final)
    rescued = sum(1 for r in facts["rescues"] if r[1] < final)
    return int(facts["marines"]) - slain + rescued


Seeds = tuple[int, int] | None
"""The first and last seed of the games to read (``None``: every game)."""


def _games(
    db: str, entries: list[str], players: int = 1, seeds: Seeds = None
) -> list[tuple[str, bool, dict[str, Any]]]:
    """(entry, won, facts) of every game of ``players`` of the entries (all entries when
    none named), of the seeds ``seeds`` only if given."""
    query = (
        "SELECT g.entry, g.outcome, f.data FROM games g JOIN facts f ON f.game_id = g.id "
        "WHERE g.players = ?"
    )
    # Only read, but not through SQLite's read-only mode: a read-only connection to a WAL
    # database leaves its -wal and -shm files behind (it may not remove them). ``rw`` makes
    # no file where there was none.
    conn = sqlite3.connect(Path(db).resolve().as_uri() + "?mode=rw", uri=True)
    if seeds is None:
        rows = conn.execute(query, (players,)).fetchall()
    else:
        rows = conn.execute(query + " AND g.seed BETWEEN ? AND ?", (players, *seeds)).fetchall()
    conn.close()
    return [
        (entry, outcome == "victory", json.loads(data))
        for entry, outcome, data in rows
        if not entries or entry in entries
    ]


def _split(
    db: str,
    entries: list[str],
    key: Callable[[dict[str, Any], int], K],
    players: int,
    seeds: Seeds,
) -> dict[str, dict[K, tuple[int, int]]]:
    """Entry → ``key(facts, standing on arrival)`` → (games, games won), over the games that
    reached the final location."""
    games: dict[str, Counter[K]] = {}
    wins: dict[str, Counter[K]] = {}
    for entry, won, facts in _games(db, entries, players, seeds):
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


def table(
    db: str, entries: list[str], players: int = 1, seeds: Seeds = None
) -> dict[str, dict[int, tuple[int, int]]]:
    """Entry → marines standing on arrival → (games, games won)."""
    return _split(db, entries, lambda facts, standing: standing, players, seeds)


def by_final(
    db: str, entries: list[str], players: int = 1, seeds: Seeds = None
) -> dict[str, dict[str, tuple[int, int]]]:
    """Entry → final location reached → (games, games won)."""
    return _split(db, entries, lambda facts, standing: str(facts["reached"][-1][0]), players, seeds)


def deaths(
    db: str, entries: list[str], players: int = 1, seeds: Seeds = None
) -> dict[str, Counter[tuple[str, str]]]:
    """Entry → (where, cause) → marines slain, over all its games (arrived or not):
    where is ``"location N"`` (1: the first after the set-up location, 0: the set-up
    location itself) or ``"final"``; the cause as the tournament's facts word it."""
    out: dict[str, Counter[tuple[str, str]]] = {}
    for entry, _, facts in _games(db, entries, players, seeds):
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


def _seed_range(text: str) -> tuple[int, int]:
    first, _, last = text.partition("-")
    try:
        return int(first), int(last or first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not FIRST-LAST: {text!r}") from None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", help="a tournament's results database")
    parser.add_argument("entries", nargs="*", help="entries to show (default: all)")
    parser.add_argument("--players", type=int, default=1, help="player count (default 1)")
    parser.add_argument("--seeds", type=_seed_range, help="only seeds FIRST-LAST")
    args = parser.parse_args(argv)
    db, entries, players, seeds = args.db, args.entries, args.players, args.seeds
    try:
        arrival = table(db, entries, players, seeds)
        finals = by_final(db, entries, players, seeds)
        slain = deaths(db, entries, players, seeds)
    except sqlite3.Error as exc:  # a missing, corrupt or factless file: one line, no trace
        raise SystemExit(f"final_arrival.py: cannot read {db}: {exc}") from None
    _rates("standing on arrival", arrival, "---:")
    print()
    _rates("final location", finals)
    print()
    print("| entry | where | cause | marines slain |")
    print("| --- | --- | --- | ---: |")
    for entry, counts in slain.items():
        for (where, cause), n in sorted(counts.items()):
            print(f"| `{entry}` | {where} | {cause} | {n} |")


if __name__ == "__main__":
    main()
