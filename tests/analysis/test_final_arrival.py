"""docs/examples/final_arrival.py: the marines a strategy brings to the final location.

The facts are written by hand in the form the tournament stores them
(``deathangel/tournament/facts.py``), so the counts below are known without the script.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import ModuleType
from typing import Any

from example_kit import load_example

REACHED = [["Void Lock - 1 player", 0], ["Black Holds", 3], ["Genetorium", 6], ["Lair", 9]]


def _script() -> ModuleType:
    return load_example("final_arrival")


def _facts(
    deaths: list[list[Any]], rescues: list[list[int]], reached: Any = REACHED
) -> dict[str, Any]:
    return {"reached": reached, "deaths": deaths, "rescues": rescues, "marines": 6}


def test_the_marines_standing_count_deaths_and_rescues_before_the_final_location() -> None:
    script = _script()
    deaths = [
        ["Brother Leon", "red", 0, "slain by genestealers from behind", 2],
        ["Brother Leon", "red", 2, "slain by genestealers in front", 7],  # fell again
        ["Brother Zael", "purple", 3, "slain by genestealers in front", 10],  # at the final
    ]
    rescues = [[4, 1]]  # Leon brought back at Black Holds
    assert script.standing_on_arrival(_facts(deaths, rescues)) == 6 - 2 + 1
    # A game that never reached the final location is left out.
    assert script.standing_on_arrival(_facts([], [], REACHED[:3])) is None


def test_the_table_splits_games_by_marines_on_arrival(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE games (id INTEGER, players INTEGER, entry TEXT, outcome TEXT)")
    conn.execute("CREATE TABLE facts (game_id INTEGER, data TEXT)")
    one_down = [["Brother Leon", "red", 1, "slain by genestealers in front", 4]]
    games = [
        (1, "mcts", "victory", _facts([], [])),
        (2, "mcts", "defeat", _facts([], [])),
        (3, "mcts", "victory", _facts(one_down, [])),
        (4, "rules", "defeat", _facts([], [], REACHED[:2])),
    ]
    for gid, entry, outcome, facts in games:
        conn.execute("INSERT INTO games VALUES (?, 1, ?, ?)", (gid, entry, outcome))
        conn.execute("INSERT INTO facts VALUES (?, ?)", (gid, json.dumps(facts)))
    conn.commit()
    conn.close()
    assert _script().table(str(db), []) == {"mcts": {5: (1, 1), 6: (2, 1)}}


def test_the_games_that_arrived_split_by_final_location(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE games (id INTEGER, players INTEGER, entry TEXT, outcome TEXT)")
    conn.execute("CREATE TABLE facts (game_id INTEGER, data TEXT)")
    toxin = [*REACHED[:3], ["Toxin Pumping Station", 8]]
    games = [
        (1, 1, "mcts", "victory", _facts([], [])),
        (2, 1, "mcts", "defeat", _facts([], [])),
        (3, 1, "mcts", "defeat", _facts([], [], toxin)),
        (4, 1, "mcts", "defeat", _facts([], [], REACHED[:2])),  # never arrived
        (5, 2, "mcts", "victory", _facts([], [])),  # not solo
    ]
    for gid, players, entry, outcome, facts in games:
        conn.execute("INSERT INTO games VALUES (?, ?, ?, ?)", (gid, players, entry, outcome))
        conn.execute("INSERT INTO facts VALUES (?, ?)", (gid, json.dumps(facts)))
    conn.commit()
    conn.close()
    assert _script().by_final(str(db), []) == {
        "mcts": {"Lair": (2, 1), "Toxin Pumping Station": (1, 0)}
    }


def test_the_marines_slain_by_where_and_what(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE games (id INTEGER, players INTEGER, entry TEXT, outcome TEXT)")
    conn.execute("CREATE TABLE facts (game_id INTEGER, data TEXT)")
    deck = ["Black Holds", "Genetorium", "Lair"]
    front, teleport = "slain by genestealers in front", "lost in the teleport"
    games = [
        (1, 1, [["Leon", "red", 1, front, 3], ["Zael", "purple", 3, front, 9]]),
        (2, 1, [["Leon", "red", 1, teleport, 4], ["Goriel", "grey", 1, front, 5]]),
        (3, 2, [["Leon", "red", 1, front, 3]]),  # not solo: left out
    ]
    for gid, players, slain in games:
        facts = {**_facts(slain, []), "deck": deck}
        conn.execute("INSERT INTO games VALUES (?, ?, 'mcts', 'defeat')", (gid, players))
        conn.execute("INSERT INTO facts VALUES (?, ?)", (gid, json.dumps(facts)))
    conn.commit()
    conn.close()
    counts = _script().deaths(str(db), [])
    assert dict(counts["mcts"]) == {
        ("location 1", front): 2,
        ("location 1", teleport): 1,
        ("final", front): 1,
    }
