"""The 1–6 player strength table of docs/strategies.md, from tournament databases.

    python docs/examples/strength_table.py cheap.db solo.db multi.db

Each database is read through ``deathangel report --json`` (so the figures are the report's:
Wilson intervals, Newcombe's paired interval, McNemar's exact p). A strategy's row comes
from the database that played it most at that player count, together with any other that
played it on seeds none of those holds (a run extended on the seeds after it: the games are
added up and the intervals computed afresh); its paired difference over ``rules`` likewise,
from databases where both played the same seeds. Time per decision (median, 90th
percentile by nearest rank, as ``deathangel report`` gives it) is over the row's games, each
game's wall time over its decisions, read from the same databases.
``--against NEW.db=OLD.db`` reads ``NEW.db`` with ``deathangel report --against OLD.db``: a
challenger played alone on the seeds of an earlier run gets its paired difference over that
run's ``rules``. Strategies beyond the usual four come after them, in name order.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

from deathangel.analysis.thinking import nearest_rank
from deathangel.tournament.results import Results
from deathangel.tournament.stats import PairTable, mcnemar_exact, paired_difference, wilson_interval

ORDER = ("random", "rules", "mcts", "mcts-strong")


def report(db: str, against: str | None = None) -> dict[str, Any]:
    more = ["--against", against] if against else []
    out = subprocess.run(
        [sys.executable, "-m", "deathangel", "report", db, "--json", *more],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data: dict[str, Any] = json.loads(out)
    return data


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ms(seconds: float) -> str:
    return f"{1000 * seconds:.2f} ms" if seconds < 0.01 else f"{1000 * seconds:.0f} ms"


def disjoint(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The run with the most games, and every other whose seed range (as its tournament was
    set, whether finished or not) meets none of those taken."""
    taken: list[dict[str, Any]] = []
    for run in sorted(found, key=lambda r: -r["played"]):
        lo, hi = run["seed"], run["seed"] + run["n"]
        if all(hi <= t["seed"] or t["seed"] + t["n"] <= lo for t in taken):
            taken.append(run)
    return taken


def game_times(db: str) -> dict[tuple[int, str], list[float]]:
    """Each game's seconds per decision, per (players, entry), read from ``db`` (through
    the project's reader: it writes nothing and leaves nothing beside the file)."""
    out: dict[tuple[int, str], list[float]] = {}
    with Results.open(db) as results:
        for players, entry, t in results.rows(
            "SELECT players, entry, seconds * 1.0 / decisions FROM games WHERE decisions > 0"
        ):
            out.setdefault((players, entry), []).append(t)
    return out


def merged_times(runs: list[dict[str, Any]]) -> tuple[float, float] | None:
    """Median and 90th percentile of the runs' games' seconds per decision together."""
    ordered = sorted(t for r in runs for t in r.get("times", ()))
    return (nearest_rank(ordered, 0.5), nearest_rank(ordered, 0.9)) if ordered else None


def merged_entry(runs: list[dict[str, Any]]) -> dict[str, Any]:
    games = sum(r["games"] for r in runs)
    wins = sum(r["wins"] for r in runs)
    low, high = wilson_interval(wins, games)
    return {
        "games": games,
        "win_rate": wins / games,
        "win_rate_low": low,
        "win_rate_high": high,
        "mean_locations": sum(r["mean_locations"] * r["games"] for r in runs) / games,
        "times": merged_times(runs),
    }


def merged_pair(runs: list[dict[str, Any]]) -> dict[str, Any]:
    table = PairTable(
        both=sum(r["both_won"] for r in runs),
        only_a=sum(r["only_a_won"] for r in runs),
        only_b=sum(r["only_b_won"] for r in runs),
        neither=sum(r["neither_won"] for r in runs),
    )
    diff = paired_difference(table)
    return {
        "pairs": table.pairs,
        "difference": diff.difference,
        "difference_low": diff.low,
        "difference_high": diff.high,
        "mcnemar_p": mcnemar_exact(table.only_a, table.only_b),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dbs", nargs="+")
    parser.add_argument("--against", action="append", default=[], metavar="NEW.db=OLD.db")
    args = parser.parse_args()
    against = dict(pair.split("=", 1) for pair in args.against)
    found_rows: dict[tuple[int, str], list[dict[str, Any]]] = {}
    found_pairs: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for db in args.dbs:
        data = report(db, against.get(db))
        times = game_times(db)
        seed, n = data["config"]["seed"], data["config"]["games"]
        # A run set up but not yet played (no games, no pairs) adds nothing and would
        # leave nothing to take a rate of.
        for e in data["entries"]:
            if not e["games"]:
                continue
            run = {**e, "seed": seed, "n": n, "played": e["games"]}
            run["times"] = times.get((e["players"], e["entry"]), [])
            found_rows.setdefault((e["players"], e["entry"]), []).append(run)
        for p in data["pairs"]:
            if p["a"] == "rules" and p["pairs"]:
                run = {**p, "seed": seed, "n": n, "played": p["pairs"]}
                found_pairs.setdefault((p["players"], p["b"]), []).append(run)
    rows = {key: merged_entry(disjoint(runs)) for key, runs in found_rows.items()}
    pairs = {key: merged_pair(disjoint(runs)) for key, runs in found_pairs.items()}
    print(
        "| players | strategy | games | win rate | 95% interval | mean locations "
        "| time per decision: median, 90th pct | over `rules` (paired) | 95% interval "
        "| McNemar p |"
    )
    print("| --- | --- | ---: | ---: | --- | ---: | --- | ---: | --- | ---: |")
    names = [*ORDER, *sorted({name for _, name in rows} - set(ORDER))]
    for players in range(1, 7):
        for name in names:
            e = rows.get((players, name))
            if e is None:
                continue
            t = e["times"]
            timing = f"{ms(t[0])}, {ms(t[1])}" if t else "–"
            p = pairs.get((players, name))
            if p is None:
                diff = "| – | – | – |"
            else:
                diff = (
                    f"| {100 * p['difference']:+.1f} ({p['pairs']} pairs) "
                    f"| {100 * p['difference_low']:+.1f} – {100 * p['difference_high']:+.1f} "
                    f"| {p['mcnemar_p']:.2g} |"
                )
            print(
                f"| {players} | `{name}` | {e['games']:,} | {pct(e['win_rate'])} "
                f"| {pct(e['win_rate_low'])} – {pct(e['win_rate_high'])} "
                f"| {e['mean_locations']:.2f} | {timing} {diff}"
            )


if __name__ == "__main__":
    main()
