"""Play the final location again, from where stored games reached it, with other strategies.

    python docs/examples/final_play.py POSITIONS.db RESULTS.db -e STRATEGY [-e STRATEGY ...]
        [--games N] [--workers 2] [--bot-key HEX] [--at LOCATION]

A change that only plays the final location differently (or one location: ``--at``) is
measured badly by whole games: about nine tenths of their cost, and much of their noise, comes
before it (docs/strength.md, "The final location alone"). This script starts each strategy
at the same place: for each game of a positions file (``deathangel value play``, format 2,
which keeps every decision) that reached the final location, the game is played again from
its seed and decisions up to the first round start there, and each ``-e`` strategy plays it
on to the end from that very state. The engine's dice come from the game's own seed and the
bots' from ``--bot-key`` (by default the file's), so two strategies see the same deal and the
same dice until their choices differ: the comparison is paired, arrival by arrival.

With the file's own strategy and bot key a game plays out exactly as it was stored (its bots
choose from what they see, whatever came before): that entry need not be played at all, and
the stored outcome stands for it (``as played``). Each result is kept in ``RESULTS.db``
(SQLite) as it comes, so a run stopped (Ctrl-C, a lost machine) goes on where it was.

``--at LOCATION`` starts each game at its first round start at that location instead (a
setting that plays only there, a Teleportarium's panel say, measured on the games that met
it; before it, the two strategies play alike).

Printed: per entry, the arrivals won (95% Wilson interval); per two entries, the pairs only one
of them won, the paired difference (Newcombe's interval) and McNemar's exact p; and the CPU
time a decision took each entry played on (this process's clock, so other programs' load
does not count).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import sqlite3
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from deathangel.analysis.positions import GamePositions, PositionStore
from deathangel.analysis.simulate import play_out, spec_bots, wilson_interval
from deathangel.engine.decisions import Option
from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.errors import DeathAngelError
from deathangel.plugins.strategies import parse_spec, strategies
from deathangel.tournament.stats import PairTable, mcnemar_exact, paired_difference

AS_PLAYED = "as played"


def arrival(game: GamePositions, seed: int, at: str | None = None) -> Game | None:
    """``game`` played again from its seed and stored decisions up to the first decision
    asked at a round start at the location named ``at`` (``None``: the final location);
    ``None`` if the game never got there."""
    if game.decisions is None:
        raise SystemExit("error: the positions file keeps no decisions (format 1): play it again")
    replay = Game(GameConfig(game.seats, seed=seed + game.index), checkpoints=False, forward=True)
    names = [loc.name for loc in replay.table.locations]
    for code in game.decisions:
        st = replay.state
        here = st.location is not None and st.phase == "choose_actions"
        if here and (not st.location_deck if at is None else names[st.location or 0] == at):
            return replay
        replay.apply(Option.from_code(code))
    return None


def arrived(game: GamePositions, at: str | None = None) -> bool:
    """Whether ``game`` reached the location (``None``: the final one), by its stored round
    starts' features."""
    key = "final" if at is None else f"at {at}"
    return any(row.get(key) for row in game.rows)


Outcome = tuple[int, str, bool, int, float]
"""A game played on: its index, the entry, whether it was won, the decisions from the arrival
on and the CPU seconds they took (this process's)."""


def play_on(
    game: GamePositions, seed: int, entry: str, key: str, at: str | None = None
) -> Outcome | None:
    """How ``entry`` does from ``game``'s arrival at the location (``None``: the final one;
    the outcome ``None``: the game never arrived)."""
    replay = arrival(game, seed, at)
    if replay is None:
        return None
    bots = spec_bots([parse_spec(entry)] * game.seats, seed + game.index, strategies(), key)
    started = time.process_time()
    result = play_out(replay, bots)
    cpu = time.process_time() - started
    return game.index, entry, result.outcome == "victory", result.decisions, cpu


def _played(
    tasks: list[tuple[GamePositions, str]], seed: int, key: str, workers: int, at: str | None
) -> Iterator[tuple[GamePositions, str, Outcome | None]]:
    """Each task's outcome as it finishes: in this process with one worker, else on a pool
    (whose workers import this script as the ``__main__`` it was run as)."""
    if workers <= 1:
        for g, e in tasks:
            yield g, e, play_on(g, seed, e, key, at)
        return
    with cf.ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(play_on, g, seed, e, key, at): (g, e) for g, e in tasks}
        for future in cf.as_completed(futures):
            g, e = futures[future]
            yield g, e, future.result()


def _results(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE IF NOT EXISTS results (game INTEGER NOT NULL, entry TEXT NOT NULL, "
        "won INTEGER, decisions INTEGER, seconds REAL, PRIMARY KEY (game, entry))"
    )
    conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    return conn


def run(
    positions: Path,
    results: Path,
    entries: Sequence[str],
    games: int | None = None,
    workers: int = 1,
    bot_key: str | None = None,
    at: str | None = None,
) -> dict[str, dict[int, bool]]:
    """Play every entry on from every arrival (at the location named ``at``; ``None``: the
    final one) not yet in ``results``; entry → game → won."""
    if at is not None and at not in {loc.name for loc in default_database().locations}:
        raise SystemExit(f"error: no location is named {at!r}")
    store = PositionStore.open(positions)
    config = store.config
    stored = store.games(games)
    store.close()
    key = bot_key or config.bot_key
    conn = _results(results)
    with conn:
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('source', ?)", (str(positions),))
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('bot_key', ?)", (key,))
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('at', ?)", (at or "",))
    kept = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    if kept["bot_key"] != key:
        raise SystemExit(f"error: {results} was played with bot key {kept['bot_key']}, not {key}")
    if kept["at"] != (at or ""):
        where = kept["at"] or "the final location"
        raise SystemExit(f"error: {results} was played on from {where}, not {at or 'the final'}")
    done = {(g, e) for g, e in conn.execute("SELECT game, entry FROM results")}
    own = key == config.bot_key
    # Only the games that got there: the others need not be played again.
    tasks = [
        (g, e)
        for g in stored
        if arrived(g, at)
        for e in entries
        if (g.index, e) not in done and not (own and e in (AS_PLAYED, config.strategy))
    ]
    started = shown = time.perf_counter()
    for n, (g, e, out) in enumerate(_played(tasks, config.seed, key, workers, at), 1):
        with conn:
            conn.execute(
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?)",
                (g.index, e, *((None, None, None) if out is None else (int(out[2]), *out[3:]))),
            )
        now = time.perf_counter()
        if now - shown >= 1 or n == len(tasks):
            shown = now
            print(f"\r{n}/{len(tasks)} played on, {now - started:.0f} s", end="", file=sys.stderr)
    if tasks:
        print(file=sys.stderr)
    table: dict[str, dict[int, bool]] = {}
    for g, e, won in conn.execute("SELECT game, entry, won FROM results"):
        if won is not None and e in entries:
            table.setdefault(e, {})[g] = bool(won)
    conn.close()
    if own:
        # The file's strategy with its key plays each arrival on as it was played.
        played = {g.index: g.won for g in stored if arrived(g, at)}
        for e in entries:
            if e in (AS_PLAYED, config.strategy):
                table[e] = played
    return table


def report(table: dict[str, dict[int, bool]], entries: Sequence[str]) -> list[str]:
    """The printed lines: each entry's wins, then every pair of entries on their shared games."""
    lines = [
        "| entry | arrivals | won | win rate | 95% interval |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for e in entries:
        rows = table.get(e, {})
        n, won = len(rows), sum(rows.values())
        if n:
            low, high = wilson_interval(won, n)
            lines.append(
                f"| `{e}` | {n} | {won} | {100 * won / n:.1f}% | "
                f"{100 * low:.1f}% – {100 * high:.1f}% |"
            )
    lines += [
        "",
        "| A | B | pairs | only A won | only B won | B − A | 95% interval | McNemar p |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: |",
    ]
    for i, a in enumerate(entries):
        for b in entries[i + 1 :]:
            shared = sorted(set(table.get(a, {})) & set(table.get(b, {})))
            if not shared:
                continue
            pairs = PairTable.count((table[a][g], table[b][g]) for g in shared)
            diff = paired_difference(pairs)
            p = mcnemar_exact(pairs.only_a, pairs.only_b)
            lines.append(
                f"| `{a}` | `{b}` | {pairs.pairs} | {pairs.only_a} | {pairs.only_b} | "
                f"{100 * diff.difference:+.1f} | {100 * diff.low:+.1f} – {100 * diff.high:+.1f} "
                f"| {p:.3g} |"
            )
    return lines


def cpu_per_decision(results: Path) -> dict[str, float]:
    """Entry → the CPU seconds a decision took, over all its games played on (not those taken
    as played: their time is the stored game's)."""
    conn = sqlite3.connect(results)
    rows = conn.execute(
        "SELECT entry, SUM(seconds), SUM(decisions) FROM results WHERE won IS NOT NULL "
        "GROUP BY entry"
    ).fetchall()
    conn.close()
    return {e: seconds / decisions for e, seconds, decisions in rows if decisions}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions", type=Path)
    parser.add_argument("results", type=Path)
    parser.add_argument("-e", "--entry", action="append", required=True, dest="entries")
    parser.add_argument("--games", type=int, default=None, help="the file's first N games only")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--bot-key", default=None)
    parser.add_argument(
        "--at", default=None, metavar="LOCATION", help="play on from this location, not the final"
    )
    args = parser.parse_args(argv)
    try:
        table = run(
            args.positions,
            args.results,
            args.entries,
            args.games,
            args.workers,
            args.bot_key,
            args.at,
        )
    except DeathAngelError as exc:
        # A file that is not a positions file, or a corrupt one: one line, not a traceback.
        raise SystemExit(f"error: {exc}") from None
    except KeyboardInterrupt:
        # Each result was stored as it came: nothing finished is lost.
        print(
            f"\nInterrupted: {args.results} keeps what finished; the same command goes on.",
            file=sys.stderr,
        )
        raise SystemExit(130) from None
    print("\n".join(report(table, args.entries)))
    print()
    where = "from the final location" if args.at is None else f"from {args.at} on"
    for entry, seconds in cpu_per_decision(args.results).items():
        if entry in args.entries:
            print(f"`{entry}`: {1000 * seconds:.0f} ms of CPU a decision {where}")


if __name__ == "__main__":
    main()
