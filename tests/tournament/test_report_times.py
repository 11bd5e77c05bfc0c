"""The report's time per decision: each game's seconds over its decisions, the median and
the 90th percentile by nearest rank (the value at rank ceil(q n) of the n in order), per
cell and entry. The stored times are replaced by hand-set ones so the answers are known."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from support import TEST_BOT_KEY

from deathangel.tournament.report import duration, entry_cells, read_report
from deathangel.tournament.results import Results
from deathangel.tournament.runner import run_tournament
from deathangel.tournament.tournament import Cell, build_config


def test_median_and_p90_by_nearest_rank(tmp_path: Path) -> None:
    path = tmp_path / "times.db"
    data = {
        "games": 10,
        "seed": 0,
        "players": [1, 2],
        "entry": [{"strategy": "random"}, {"strategy": "rules"}],
        "bot_key": TEST_BOT_KEY,
    }
    run_tournament(build_config(data), path, workers=0)
    with sqlite3.connect(path) as conn:
        # random, 1 player: game k takes (k + 1) seconds over 10 decisions -> 0.1 ... 1.0 s.
        for k in range(10):
            conn.execute(
                "UPDATE games SET seconds = ?, decisions = 10 "
                "WHERE entry = 'random' AND players = 1 AND game = ?",
                (k + 1, k),
            )
        # rules, 1 player: 0.7, 0.1, 0.5, 0.3, 0.2, 0.6, 0.4 s a decision, and three games
        # with no decision at all (left out).
        for k, (seconds, decisions) in enumerate(
            [(1.4, 2), (0.1, 1), (2.0, 4), (0.9, 3), (0.4, 2), (3.0, 5), (0.8, 2)] + [(5.0, 0)] * 3
        ):
            conn.execute(
                "UPDATE games SET seconds = ?, decisions = ? "
                "WHERE entry = 'rules' AND players = 1 AND game = ?",
                (seconds, decisions, k),
            )
        # rules, 2 players: every game but one without decisions: one value, both quantiles.
        conn.execute("UPDATE games SET decisions = 0 WHERE entry = 'rules' AND players = 2")
        conn.execute(
            "UPDATE games SET seconds = 3, decisions = 6 "
            "WHERE entry = 'rules' AND players = 2 AND game = 4"
        )
    with Results.open(path) as results:
        report = read_report(results)
    times = {(e.cell, e.entry): e.decision_time for e in report.entries}
    # 10 values: median rank ceil(5) = 5 -> 0.5; p90 rank ceil(9) = 9 -> 0.9.
    assert times[Cell(1), "random"] == (0.5, 0.9)
    # 7 values 0.1..0.7: median rank ceil(3.5) = 4 -> 0.4; p90 rank ceil(6.3) = 7 -> 0.7.
    low, high = times[Cell(1), "rules"]  # type: ignore[misc]
    assert (round(low, 9), round(high, 9)) == (0.4, 0.7)
    assert times[Cell(2), "rules"] == (0.5, 0.5)
    line = next(e for e in report.entries if (e.cell, e.entry) == (Cell(1), "rules"))
    assert entry_cells(line)[-1] == "400 ms, 700 ms"
    d = report.to_dict()["entries"]
    row = next(e for e in d if e["players"] == 1 and e["entry"] == "random")
    assert (row["decision_seconds_median"], row["decision_seconds_p90"]) == (0.5, 0.9)


def test_duration_reads_as_people_write_it() -> None:
    assert duration(0.000083) == "83 µs"
    assert duration(0.2059) == "206 ms"
    assert duration(0.0125) == "12.5 ms"
    assert duration(1.5) == "1.50 s"
