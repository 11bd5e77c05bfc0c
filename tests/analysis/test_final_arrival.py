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

import pytest
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


SIX = [
    ["Void Lock - 3 or 6 players", 0],
    ["A", 2],
    ["B", 4],
    ["C", 5],
    ["Toxin Pumping Station", 6],
]
"""A 6-player game's path: the set-up location and a deck of four."""


def _six(deaths: list[list[Any]], reached: Any = SIX) -> dict[str, Any]:
    deck = ["A", "B", "C", "Toxin Pumping Station"]
    return {"reached": reached, "deaths": deaths, "rescues": [], "marines": 12, "deck": deck}


def test_a_larger_game_arrives_only_at_the_last_location_of_its_deck(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TABLE games (id INTEGER, players INTEGER, seed INTEGER, entry TEXT, outcome TEXT)"
    )
    conn.execute("CREATE TABLE facts (game_id INTEGER, data TEXT)")
    down = [["Leon", "red", 2, "slain by genestealers in front", 5]]
    at_final = [["Zael", "purple", 4, "slain by genestealers in front", 9]]
    games = [
        (1, 6, 100, "victory", _six(down)),  # arrived with 11
        (2, 6, 101, "defeat", _six(at_final)),  # arrived with 12 (slain at the final)
        (3, 6, 102, "defeat", _six([], SIX[:4])),  # four reached of five: not arrived
        (4, 6, 103, "victory", _six([])),  # arrived with 12, but outside --seeds below
        (5, 1, 100, "victory", _facts([], [])),  # solo: not asked for
    ]
    for gid, players, seed, outcome, facts in games:
        conn.execute("INSERT INTO games VALUES (?, ?, ?, 'mcts', ?)", (gid, players, seed, outcome))
        conn.execute("INSERT INTO facts VALUES (?, ?)", (gid, json.dumps(facts)))
    conn.commit()
    conn.close()
    script = _script()
    assert script.table(str(db), [], 6) == {"mcts": {11: (1, 1), 12: (2, 1)}}
    assert script.table(str(db), [], 6, (100, 102)) == {"mcts": {11: (1, 1), 12: (1, 0)}}
    assert script.table(str(db), [], 1) == {"mcts": {6: (1, 1)}}
    assert script.by_final(str(db), [], 6, (100, 102)) == {
        "mcts": {"Toxin Pumping Station": (2, 1)}
    }


def test_a_seed_range_that_is_not_one_is_refused() -> None:
    script = _script()
    with pytest.raises(SystemExit) as exc:
        script.main(["--seeds", "7000000-x", "results.db"])
    assert exc.value.code != 0


def test_a_file_that_is_not_a_results_database_is_refused_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    plain = tmp_path / "plain.db"
    sqlite3.connect(plain).close()  # an SQLite file without the tournament's tables
    for db in (missing, plain):
        with pytest.raises(SystemExit) as exc:
            _script().main([str(db)])
        message = str(exc.value.code)
        assert message.startswith(f"final_arrival.py: cannot read {db}: ")
        assert "\n" not in message
    assert not missing.exists()  # opened read-only: nothing made where nothing was
