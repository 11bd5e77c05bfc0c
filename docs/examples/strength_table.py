"""The 1–6 player strength table of docs/strategies.md, from tournament databases.

    python docs/examples/strength_table.py cheap.db solo.db multi.db [--times times.json]

Each database is read through ``deathangel report --json`` (so the figures are the report's:
Wilson intervals, Newcombe's paired interval, McNemar's exact p). A strategy's row comes
from the database that played it most at that player count; its paired difference over
``rules`` from a database where both played the same seeds. ``--times`` adds time per
decision (median, 90th percentile) from a JSON object ``{"STRATEGY/PLAYERS": [median_s, p90_s]}``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

ORDER = ("random", "rules", "mcts", "mcts-strong")


def report(db: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "deathangel", "report", db, "--json"],
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dbs", nargs="+")
    parser.add_argument("--times")
    args = parser.parse_args()
    times: dict[str, list[float]] = {}
    if args.times:
        with open(args.times, encoding="utf-8") as f:
            times = json.load(f)
    rows: dict[tuple[int, str], dict[str, Any]] = {}
    pairs: dict[tuple[int, str], dict[str, Any]] = {}
    for db in args.dbs:
        data = report(db)
        for e in data["entries"]:
            key = (e["players"], e["entry"])
            if e["games"] > rows.get(key, {}).get("games", -1):
                rows[key] = {**e, "db": db}
        for p in data["pairs"]:
            if p["a"] == "rules" and p["pairs"] > pairs.get((p["players"], p["b"]), {}).get(
                "pairs", -1
            ):
                pairs[(p["players"], p["b"])] = p
    print(
        "| players | strategy | games | win rate | 95% interval | mean locations "
        "| time per decision: median, 90th pct | over `rules` (paired) | 95% interval "
        "| McNemar p |"
    )
    print("| --- | --- | ---: | ---: | --- | ---: | --- | ---: | --- | ---: |")
    for players in range(1, 7):
        for name in ORDER:
            e = rows.get((players, name))
            if e is None:
                continue
            t = times.get(f"{name}/{players}")
            timing = f"{ms(t[0])}, {ms(t[1])}" if t else "–"
            p = pairs.get((players, name))
            if p is None or p["difference"] is None:
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
