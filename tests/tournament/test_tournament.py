"""Tournaments as a library: the config, paired seeds, the results database, failures,
resuming, the SPRT's place in a run, replaying a stored game, and the Dask backend.

Games are checked against games played by hand here: the same ``GameConfig`` and bot seeds
through :func:`play_game`, which has its own tests against the game log. The strategies of
``tests/tourney_bots.py`` come in as a plugin module (``plugins = ["tourney_bots"]``).
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve
from support import TEST_BOT_KEY
from tourney_bots import FirstOption
from tourney_rows import stored

from deathangel.analysis.simulate import play_game
from deathangel.engine.game import GameConfig
from deathangel.errors import DeathAngelError
from deathangel.players import RandomPlayer
from deathangel.players.search.model import resolve_model
from deathangel.players.seeds import bot_seed
from deathangel.plugins.strategies import strategy_factory
from deathangel.tournament.batch import GameRow, Task, TaskResult
from deathangel.tournament.replays import replay_stored_game
from deathangel.tournament.report import error_text, read_report
from deathangel.tournament.results import NOT_PLAYED, WON, Results, ResultsError
from deathangel.tournament.runner import (
    SPRT_BATCH,
    Dask,
    InProcess,
    PacedBatch,
    WorkerCrashError,
    plan,
    run_tournament,
)
from deathangel.tournament.tournament import (
    Cell,
    TournamentConfig,
    TournamentConfigError,
    build_config,
    read_config_file,
    teams_text,
)


def config(**data: Any) -> TournamentConfig:
    data.setdefault("plugins", ["tourney_bots"])
    data.setdefault("bot_key", TEST_BOT_KEY)
    return build_config(data)


def by_hand(players: int, seed: int, seats: Sequence[Any], teams: Any = None) -> tuple[Any, ...]:
    """The row a tournament must store for this game, from play_game."""
    result = play_game(GameConfig(players, seed=seed, teams=teams), list(seats))
    return (
        result.outcome,
        result.rounds,
        result.locations_reached,
        result.marines_left,
        result.genestealers_slain,
        result.cause,
        result.decisions,
    )


# -- paired seeds --------------------------------------------------------------------------------


def test_every_entry_plays_game_k_with_seed_plus_k_and_the_same_deal(tmp_path: Path) -> None:
    cfg = config(
        games=6,
        seed=40,
        players=[1, 3],
        entry=[{"strategy": "random"}, {"strategy": "first"}, {"seats": ["first", "random"]}],
    )
    summary = run_tournament(cfg, tmp_path / "r.db", workers=0)
    assert (summary.status, summary.played, summary.done) == ("finished", 36, 36)
    rows = stored(tmp_path / "r.db")
    assert len(rows) == 2 * 3 * 6
    deals: dict[tuple[int, int], set[str]] = {}
    for players, cell_teams, entry, k, seed, teams, *result in rows:
        assert cell_teams == "random"
        assert seed == 40 + k
        deals.setdefault((players, k), set()).add(teams)
        if entry == "random":
            seats: list[Any] = [
                RandomPlayer(seed=bot_seed(TEST_BOT_KEY, seed, s)) for s in range(1, players + 1)
            ]
        elif entry == "first":
            seats = [FirstOption()] * players
        else:  # "first | random": the two specs repeated over the seats
            assert entry == "first | random"
            seats = [
                FirstOption() if s % 2 == 1 else RandomPlayer(seed=bot_seed(TEST_BOT_KEY, seed, s))
                for s in range(1, players + 1)
            ]
        assert tuple(result) == by_hand(players, seed, seats), (entry, players, k)
    # Game k of a cell deals the same teams to every entry (common random numbers).
    assert all(len(teams) == 1 for teams in deals.values())
    assert len({teams for (p, _), ts in deals.items() if p == 3 for teams in ts}) > 1


def test_fixed_teams_make_a_cell_of_their_own(tmp_path: Path) -> None:
    cfg = config(
        games=3,
        players=[1, 2],
        teams=["random", "red+blue/green+yellow"],
        entry=[{"strategy": "random"}],
    )
    assert cfg.cells == (Cell(1), Cell(2), Cell(2, "red+blue/green+yellow"))
    run_tournament(cfg, tmp_path / "r.db", workers=0)
    fixed = [r for r in stored(tmp_path / "r.db") if r[1] != "random"]
    assert len(fixed) == 3
    for _, _, _, _, seed, teams, *result in fixed:
        assert teams == "red+blue/green+yellow"
        seats = [RandomPlayer(seed=bot_seed(TEST_BOT_KEY, seed, s)) for s in (1, 2)]
        assert tuple(result) == by_hand(2, seed, seats, (("red", "blue"), ("green", "yellow")))


def test_a_salt_seeds_the_bots_apart(tmp_path: Path) -> None:
    cfg = config(
        games=4,
        seed=7,
        players=2,
        entry=[{"strategy": "random"}, {"name": "random again", "strategy": "random", "salt": 3}],
    )
    run_tournament(cfg, tmp_path / "r.db", workers=0)
    for _, _, entry, _, seed, _, *result in stored(tmp_path / "r.db"):
        salt = 3 if entry == "random again" else 0
        seats = [RandomPlayer(seed=bot_seed(TEST_BOT_KEY, seed, s, salt)) for s in (1, 2)]
        assert tuple(result) == by_hand(2, seed, seats)


# -- the results database ------------------------------------------------------------------------


def test_a_game_that_raises_is_recorded_with_its_seed_and_traceback(tmp_path: Path) -> None:
    cfg = config(games=7, players=1, entry=[{"strategy": "flaky:fail_every=3"}])
    # The flaky bot gives up when its own seed is a multiple of 3: which games, the test works
    # out from the tournament's bot key (a bot cannot: it never sees the key).
    failing = [k for k in range(7) if bot_seed(TEST_BOT_KEY, k, 1) % 3 == 0]
    assert 0 < len(failing) < 7
    summary = run_tournament(cfg, tmp_path / "r.db", workers=0)
    assert (summary.status, summary.played, summary.failures) == ("finished", 7, len(failing))
    conn = sqlite3.connect(tmp_path / "r.db")
    failures = conn.execute("SELECT game, seed, error, traceback FROM failures ORDER BY game")
    rows = failures.fetchall()
    assert [(g, s) for g, s, *_ in rows] == [(k, k) for k in failing]
    for _, seed, error, trace in rows:
        assert error == (
            f"RuntimeError: flaky bot gives up (its seed {bot_seed(TEST_BOT_KEY, seed, 1)})"
        )
        assert "Traceback (most recent call last)" in trace and "tourney_bots.py" in trace
    games = [g for (g,) in conn.execute("SELECT game FROM games ORDER BY game")]
    assert games == [k for k in range(7) if k not in failing]
    conn.close()
    # The report names each error (here each game's differs: the bot's seed is in it), with
    # the game seed that raised it.
    with Results.open(tmp_path / "r.db") as results:
        lines = read_report(results).errors
    expected = sorted(
        (f"RuntimeError: flaky bot gives up (its seed {bot_seed(TEST_BOT_KEY, k, 1)})", k)
        for k in failing
    )
    assert [(e.entry, e.cell.players, e.games, e.error, e.seed) for e in lines] == [
        ("flaky:fail_every=3", 1, 1, error, seed) for error, seed in expected
    ]
    # A failed game counts as done: resuming plays nothing again.
    again = run_tournament(cfg, tmp_path / "r.db", resume=True, workers=0)
    assert again.status == "nothing to do"


def test_the_report_shows_one_error_of_many_games_as_one_line(tmp_path: Path) -> None:
    """The same error in every game of an entry: one line with its count and lowest seed,
    its first line only; the other entry's games are not in it."""
    cfg = config(
        games=4,
        seed=30,
        players=1,
        entry=[{"strategy": "flaky:fail_every=1,plain=true"}, {"strategy": "random"}],
    )
    run_tournament(cfg, tmp_path / "r.db", workers=0)
    with Results.open(tmp_path / "r.db") as results:
        report = read_report(results)
    assert error_text(report) == [
        "Games that raised an error (4; tracebacks in the database's failures table):",
        "  flaky:fail_every=1,plain=true (1p): 4 game(s), first seed 30: "
        "RuntimeError: flaky bot gives up",
    ]


def test_resume_plays_only_what_is_missing_and_refuses_another_tournament(
    tmp_path: Path,
) -> None:
    db = tmp_path / "r.db"
    small = config(games=4, players=[1, 2], entry=[{"strategy": "random"}, {"strategy": "first"}])
    run_tournament(small, db, workers=0)
    # Take some games out, as a run stopped half-way would have left them.
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("DELETE FROM games WHERE game >= 2 AND entry = 'first'")
        conn.execute("DELETE FROM games WHERE game = 3 AND players = 2")
    conn.close()
    assert len(stored(db)) == 16 - 4 - 1
    with pytest.raises(DeathAngelError, match="already holds a tournament; add --resume"):
        run_tournament(small, db, workers=0)
    summary = run_tournament(small, db, resume=True, workers=0)
    assert (summary.played, summary.done) == (5, 16)
    fresh = tmp_path / "fresh.db"
    run_tournament(small, fresh, workers=0)
    assert stored(db, facts=True) == stored(fresh, facts=True)
    other = config(
        games=4, seed=9, players=[1, 2], entry=[{"strategy": "random"}, {"strategy": "first"}]
    )
    with pytest.raises(ResultsError, match=r"holds a different tournament \(seed differ\)"):
        run_tournament(other, db, resume=True, workers=0)
    # The same tournament with fewer games than it holds: refused; with more: it goes on.
    fewer = config(games=3, players=[1, 2], entry=[{"strategy": "random"}, {"strategy": "first"}])
    with pytest.raises(ResultsError, match="holds 4 games a cell and entry: --resume can go on"):
        run_tournament(fewer, db, resume=True, workers=0)
    more = config(games=6, players=[1, 2], entry=[{"strategy": "random"}, {"strategy": "first"}])
    assert run_tournament(more, db, resume=True, workers=0).played == 8
    run_tournament(more, tmp_path / "six.db", workers=0)
    assert stored(db, facts=True) == stored(tmp_path / "six.db", facts=True)


def test_a_copy_made_without_its_wal_file_is_refused_with_how_to_copy(tmp_path: Path) -> None:
    """While a run writes, SQLite keeps the newest pages (early on, the tables themselves) in
    the ``-wal`` file beside the database: a copy of the database file alone is an SQLite
    file with no tables, and the refusal says how to copy a live database."""
    live = tmp_path / "live.db"
    results = Results.create(live, config(games=1, entry=[{"strategy": "random"}]))
    try:
        assert (tmp_path / "live.db-wal").stat().st_size > 0  # the run's pages, not yet moved
        copy = tmp_path / "copy.db"
        copy.write_bytes(live.read_bytes())
        with pytest.raises(ResultsError) as refused:
            Results.open(copy)
        assert str(refused.value) == (
            f"{copy} is not a deathangel results database (an SQLite file with no tables: a"
            " copy of a database a run was writing, made without its -wal file? Read the live"
            ' database itself, or copy it with: sqlite3 RUN.db ".backup COPY.db")'
        )
        backup = tmp_path / "backup.db"
        with closing(sqlite3.connect(live)) as src, closing(sqlite3.connect(backup)) as dst:
            src.backup(dst)
        Results.open(backup).close()  # the way the message gives reads as the original
    finally:
        results.close()
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(ResultsError) as refused:
        Results.open(other)
    assert str(refused.value) == f"{other} is not a deathangel results database"


def test_a_file_that_is_not_a_results_database_is_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("not a database\n", encoding="utf-8")
    with pytest.raises(ResultsError, match="is not a deathangel results database"):
        Results.open(text)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(ResultsError, match="is not a deathangel results database"):
        Results.open(other)
    with pytest.raises(ResultsError, match="no such results database"):
        Results.open(tmp_path / "missing.db")
    with pytest.raises(ResultsError, match="is a folder, not a results database"):
        Results.open(tmp_path)
    cfg = config(games=1, entry=[{"strategy": "random"}])
    with pytest.raises(ResultsError, match=r"the folder .*nowhere does not exist"):
        run_tournament(cfg, tmp_path / "nowhere" / "r.db", workers=0)
    # Given as --db, with or without --resume: named for what it is, and left as it was.
    for resume in (False, True):
        with pytest.raises(ResultsError, match=r"notes\.db is not a deathangel results database"):
            run_tournament(cfg, text, resume=resume, workers=0)
        with pytest.raises(DeathAngelError, match="is a folder; name a database file for --db"):
            run_tournament(cfg, tmp_path, resume=resume, workers=0)
    assert text.read_text(encoding="utf-8") == "not a database\n"


def test_the_plan_covers_exactly_the_missing_games_in_index_order() -> None:
    cfg = config(games=5, players=[1, 2], entry=[{"strategy": "random"}, {"strategy": "first"}])
    states = {(c, e.name): bytearray(5) for c in cfg.cells for e in cfg.entries}
    states[Cell(1), "random"][0:3] = bytes([WON, WON, WON])
    states[Cell(2), "first"][4] = WON
    tasks = list(plan(cfg, states, batch=2))
    assert tasks == [
        Task(Cell(1), (1,), (0, 1)),
        Task(Cell(2), (0, 1), (0, 1)),
        Task(Cell(1), (1,), (2,)),
        Task(Cell(1), (0, 1), (3,)),
        Task(Cell(2), (0, 1), (2, 3)),
        Task(Cell(1), (0, 1), (4,)),
        Task(Cell(2), (0,), (4,)),
    ]
    planned = {(t.cell, cfg.entries[i].name, k) for t in tasks for i in t.entries for k in t.games}
    missing = {(c, e, k) for (c, e), s in states.items() for k in range(5) if s[k] == NOT_PLAYED}
    assert planned == missing


def test_a_plan_whose_batch_changes_still_covers_each_missing_game_once_in_order() -> None:
    cfg = config(games=30, players=[1, 3], entry=[{"strategy": "random"}, {"strategy": "first"}])
    states = {(c, e.name): bytearray(30) for c in cfg.cells for e in cfg.entries}
    states[Cell(3), "first"][5:12] = bytes([WON] * 7)
    sizes = iter([1, 4, 2, 9, 1, 50])
    asked: list[int] = []

    def size() -> int:
        asked.append(next(sizes))
        return asked[-1]

    tasks = list(plan(cfg, states, size))
    # Blocks of 1, 4, 2, 9, 1 and the 13 left: each block's indices, every cell's task(s).
    assert asked == [1, 4, 2, 9, 1, 50]
    blocks = [range(0, 1), range(1, 5), range(5, 7), range(7, 16), range(16, 17), range(17, 30)]
    # Every block's first index opens a task (cell 3 lacks only "random" at 7-11, so its
    # block 7-15 is two of its tasks), and no task reaches past its block.
    assert {0, 1, 5, 7, 16, 17} <= {t.games[0] for t in tasks}
    for task in tasks:
        block = next(b for b in blocks if task.games[0] in b)
        assert set(task.games) <= set(block)
    planned = [(t.cell, cfg.entries[i].name, k) for t in tasks for i in t.entries for k in t.games]
    missing = {(c, e, k) for (c, e), s in states.items() for k in range(30) if s[k] == NOT_PLAYED}
    assert len(planned) == len(set(planned)) and set(planned) == missing
    assert [t.games[0] for t in tasks] == sorted(t.games[0] for t in tasks)


def _finished(seconds: Sequence[float]) -> TaskResult:
    rows = tuple(
        GameRow(Cell(1), "e", k, k, "red", "defeat", 3, 2, 0, 1, None, 40, s, None)
        for k, s in enumerate(seconds)
    )
    return TaskResult(Task(Cell(1), (0,), tuple(range(len(rows)))), rows, ())


def test_a_paced_batch_holds_about_half_a_second_of_games() -> None:
    """One index a task until a game is stored; then SECONDS of play a task (a game each of
    ``entries``), never fewer than one index nor more than MOST."""
    paced = PacedBatch(entries=2)
    assert paced() == 1
    paced.observe(_finished([0.001] * 10))  # random games: a millisecond each
    assert paced() == 250  # 0.5 s / (2 entries x 1 ms)
    paced.observe(_finished([0.003] * 10))  # now a mean of 2 ms
    assert paced() == 125
    fast = PacedBatch(entries=1)
    fast.observe(_finished([0.0001] * 4))
    assert fast() == PacedBatch.MOST
    slow = PacedBatch(entries=1)
    slow.observe(_finished([45.0]))  # a search's game
    assert slow() == 1


class _Counting(InProcess):
    """The in-process backend, keeping each task's number of game indices."""

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    def submit(self, config: TournamentConfig, task: Task) -> Any:
        self.sizes.append(len(task.games))
        return super().submit(config, task)


def test_by_default_a_run_sizes_its_tasks_from_the_pace_and_an_sprt_run_does_not(
    tmp_path: Path,
) -> None:
    cfg = config(games=600, players=1, entry=[{"strategy": "random"}])
    paced = _Counting()
    summary = run_tournament(cfg, tmp_path / "paced.db", backend=paced)
    assert summary.status == "finished" and summary.done == 600
    assert paced.sizes[0] == 1, "nothing is known of the games' pace before the first"
    assert max(paced.sizes) >= 50, "random games of about a millisecond go many a task"
    assert sum(paced.sizes) == 600
    # The same games, stored the same, as in tasks of a fixed size.
    fixed = _Counting()
    run_tournament(cfg, tmp_path / "fixed.db", backend=fixed, batch=7)
    assert set(fixed.sizes) == {7, 600 % 7}
    assert stored(tmp_path / "paced.db") == stored(tmp_path / "fixed.db")
    # With an SPRT, the batches in flight when it decides are stored too: a fixed size.
    sprt = config(
        games=100,
        players=1,
        entry=[{"strategy": "random"}, {"strategy": "first"}],
        sprt={"p0": 0.5, "p1": 0.8},
    )
    counted = _Counting()
    run_tournament(sprt, tmp_path / "sprt.db", backend=counted)
    assert set(counted.sizes) == {SPRT_BATCH}


def test_workers_that_keep_dying_stop_the_run_with_what_it_stored(tmp_path: Path) -> None:
    marker = tmp_path / "crash.marker"
    marker.touch()
    cfg = config(games=2, players=1, entry=[{"strategy": f"crash_once:marker={marker},keep=1"}])
    with pytest.raises(WorkerCrashError, match="worker processes died 3 times in this run"):
        run_tournament(cfg, tmp_path / "r.db", workers=1, batch=1)
    conn = sqlite3.connect(tmp_path / "r.db")
    assert conn.execute("SELECT status FROM runs").fetchall() == [("failed",)]
    conn.close()


def test_a_stop_that_lands_inside_a_write_lets_it_finish_and_stops_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C arriving between a transaction's BEGIN and its block (the race a loaded machine
    hit in the CLI's stop test): the batch is stored whole, the run ends ``interrupted``, and
    resuming finishes it. Raised there, it left the transaction open and the run failed."""
    import os
    import signal

    import deathangel.tournament.results as results_module

    armed: list[bool] = []
    begin = results_module._Transaction.__enter__

    def begin_then_ctrl_c(self: Any) -> None:
        begin(self)
        if armed:
            armed.clear()
            os.kill(os.getpid(), signal.SIGINT)  # its handler runs here, before the block

    write = Results.write

    def armed_write(self: Results, *args: Any) -> None:
        armed.append(True)
        write(self, *args)

    monkeypatch.setattr(results_module._Transaction, "__enter__", begin_then_ctrl_c)
    monkeypatch.setattr(Results, "write", armed_write)
    cfg = config(games=6, players=1, entry=[{"strategy": "random"}])
    db = tmp_path / "r.db"
    summary = run_tournament(cfg, db, workers=0, batch=2)
    assert summary.status == "interrupted"
    assert summary.done == 2  # the batch the stop landed in, whole
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT status FROM runs").fetchall() == [("interrupted",)]
    assert conn.execute("SELECT count(*) FROM games").fetchone() == (2,)
    conn.close()
    monkeypatch.undo()
    again = run_tournament(cfg, db, resume=True, workers=0, batch=2)
    assert (again.status, again.played, again.done) == ("finished", 4, 6)


# -- the SPRT in a run ---------------------------------------------------------------------------


def test_an_sprt_without_discordant_pairs_plays_to_its_cap_undecided(tmp_path: Path) -> None:
    # Neither bot wins a solo game in these seeds: no pair is discordant, nothing is decided.
    cfg = config(
        games=6,
        players=1,
        entry=[{"strategy": "random"}, {"strategy": "first"}],
        sprt={"p0": 0.5, "p1": 0.65},
    )
    summary = run_tournament(cfg, tmp_path / "r.db", workers=0)
    assert summary.status == "finished"
    assert summary.sprt is not None
    assert (summary.sprt.decision, summary.sprt.pairs, summary.sprt.discordant) == (None, 6, 0)
    with Results.open(tmp_path / "r.db") as results:
        report = read_report(results)
    assert report.sprt == summary.sprt


def test_an_sprt_stops_at_the_pair_that_decides_it(tmp_path: Path) -> None:
    """Random against rules, solo, p0 = 0.5 against p1 = 0.8 with alpha = beta = 0.05: each
    solo game the rules bot wins and random loses adds ln(0.8/0.5) = 0.470 to the ratio, so
    with no pair going the other way the 7th such pair passes ln(0.95/0.05) = 2.944 (6 make
    2.820). The games are played here by hand to find that pair."""
    rules = strategy_factory("rules")
    wins = 0
    k = -1
    while wins < 7:
        k += 1
        a = by_hand(1, k, [RandomPlayer(seed=bot_seed(TEST_BOT_KEY, k, 1))])[0] == "victory"
        b = by_hand(1, k, [rules(seed=bot_seed(TEST_BOT_KEY, k, 1))])[0] == "victory"
        assert not (a and not b), "a pair random won would move the ratio the other way"
        wins += b and not a
    deciding = k + 1  # pairs read, the deciding one included
    cfg = config(
        games=400,
        players=1,
        entry=[{"strategy": "random"}, {"strategy": "rules"}],
        sprt={"p0": 0.5, "p1": 0.8},
    )
    summary = run_tournament(cfg, tmp_path / "r.db", workers=0, batch=5)
    assert summary.sprt is not None
    assert (summary.sprt.decision, summary.sprt.pairs, summary.sprt.b_wins) == ("H1", deciding, 7)
    assert summary.sprt.llr == pytest.approx(7 * math.log(0.8 / 0.5))
    with Results.open(tmp_path / "r.db") as results:
        played = results.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert played < 2 * 400, "the run stopped once decided, well before its cap"
    # Decided, it plays no more when asked for more games, and its cap stays as it was.
    more = config(
        games=800,
        players=1,
        entry=[{"strategy": "random"}, {"strategy": "rules"}],
        sprt={"p0": 0.5, "p1": 0.8},
    )
    again = run_tournament(more, tmp_path / "r.db", resume=True, workers=0, batch=5)
    assert (again.status, again.played) == ("nothing to do", 0)
    with Results.open(tmp_path / "r.db") as results:
        assert results.config.games == 400
        assert results.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == played


def test_an_sprt_needs_exactly_two_entries() -> None:
    with pytest.raises(TournamentConfigError, match="compares exactly two entries, not 1"):
        config(entry=[{"strategy": "random"}], sprt={"p0": 0.5, "p1": 0.6})


# -- replaying a stored game ---------------------------------------------------------------------


def test_a_stored_game_replays_to_its_row_and_a_changed_row_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    cfg = config(games=3, players=[2], entry=[{"strategy": "random"}, {"strategy": "first"}])
    run_tournament(cfg, db, workers=0)
    conn = sqlite3.connect(db)
    game_id, decisions, rounds, teams = conn.execute(
        "SELECT id, decisions, rounds, teams FROM games WHERE entry = 'first' AND game = 2"
    ).fetchone()
    game, row = replay_stored_game(db, game_id)
    assert (row.entry, row.game, row.cell) == ("first", 2, Cell(2))
    assert row.controllers == {1: "bot:first", 2: "bot:first"}
    assert len(game.history) == decisions
    assert game.state.round == rounds
    assert teams_text(game.state.seats) == teams
    assert game.log  # played with its log, for the viewer
    with conn:
        conn.execute("UPDATE games SET rounds = rounds + 1 WHERE id = ?", (game_id,))
    conn.close()
    with pytest.raises(DeathAngelError, match=rf"rounds {rounds + 1} stored, {rounds} now"):
        replay_stored_game(db, game_id)
    with pytest.raises(ResultsError, match="has no game 999"):
        replay_stored_game(db, 999)


# -- the config ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"entry": []}, "no entry"),
        ({"entry": [{"strategy": "nosuch"}]}, "unknown strategy 'nosuch'"),
        ({"entry": [{"strategy": "random:depth=3"}]}, "has no parameter 'depth'"),
        ({"entry": [{"strategy": "random", "seats": ["random"]}]}, "either strategy or seats"),
        (
            {"entry": [{"strategy": "random"}, {"name": "random", "strategy": "first"}]},
            "two entries are called 'random'",
        ),
        ({"players": [0], "entry": [{"strategy": "random"}]}, "between 1 and 6, not 0"),
        ({"players": [2, 2], "entry": [{"strategy": "random"}]}, "player count 2 is given twice"),
        ({"games": 0, "entry": [{"strategy": "random"}]}, "games must be at least 1"),
        ({"games": "many", "entry": [{"strategy": "random"}]}, "whole number, not 'many'"),
        (
            {"players": [1], "teams": ["red+blue"], "entry": [{"strategy": "random"}]},
            "seat 1 has 2 teams; in a 1-player game each seat plays 3",
        ),
        (
            {"players": [1], "teams": ["red+blue/green"], "entry": [{"strategy": "random"}]},
            "seat 2 player\\(s\\), which the tournament does not play",
        ),
        (
            {"players": [1], "teams": ["red+pink+blue"], "entry": [{"strategy": "random"}]},
            "unknown team 'pink'",
        ),
        (
            {"players": [1, 2], "teams": ["red+blue+green"], "entry": [{"strategy": "random"}]},
            "no choice of teams fits 2 player",
        ),
        ({"players": [1], "teams": ["red++blue"], "entry": [{"strategy": "random"}]}, "'random'"),
        (
            {"plugins": ["no_such_module_x"], "entry": [{"strategy": "random"}]},
            "cannot be imported",
        ),
    ],
)
def test_a_tournament_that_cannot_be_played_is_refused_in_one_line(
    data: dict[str, Any], message: str
) -> None:
    with pytest.raises(DeathAngelError, match=message) as info:
        build_config({"plugins": ["tourney_bots"], **data})
    assert "\n" not in str(info.value)


def test_a_file_a_parameter_names_is_pinned_and_an_edit_refuses_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.txt").write_text("one", encoding="utf-8")
    entries = [{"strategy": "crash_once:marker=m.txt"}]
    first = config(entry=entries)
    # The relative name becomes the file's full path, and the file's digest is kept.
    assert first.entries[0].seats[0].values == {"marker": str(tmp_path / "m.txt")}
    # sha256("one")
    digest = "7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed"
    assert first.files == ((str(tmp_path / "m.txt"), digest),)
    Results.create(tmp_path / "r.db", first).close()
    (tmp_path / "m.txt").write_text("two", encoding="utf-8")
    with (
        Results.open(tmp_path / "r.db") as results,
        pytest.raises(ResultsError, match=r"holds a different tournament \(files differ\)"),
    ):
        results.check_same(config(entry=entries))


def test_a_value_model_a_search_names_is_pinned_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mcts:value=FILE`` takes a shipped model's name or a file's (a text parameter, not
    a path one): a file it names is part of the tournament all the same."""
    monkeypatch.chdir(tmp_path)
    model = tmp_path / "v.json"
    shipped = json.loads(resolve_model("learned").read_text(encoding="utf-8"))
    model.write_text(json.dumps(shipped), encoding="utf-8")
    entries = [{"strategy": "mcts:value=v.json"}, {"strategy": "mcts:value=learned"}]
    first = config(entry=entries)
    digest = hashlib.sha256(model.read_bytes()).hexdigest()
    assert first.files == (("v.json", digest),)  # a shipped name is no file here
    Results.create(tmp_path / "r.db", first).close()
    model.write_text(json.dumps({**shipped, "about": "fitted again"}), encoding="utf-8")
    with (
        Results.open(tmp_path / "r.db") as results,
        pytest.raises(ResultsError, match=r"holds a different tournament \(files differ\)"),
    ):
        results.check_same(config(entry=entries))


def test_a_changed_default_refuses_resume_naming_the_parameter(tmp_path: Path) -> None:
    """The strategies' defaults are recorded: a database played when ``mcts``'s value
    defaulted to ``progress`` is not resumed by a version where it is ``auto`` (two bots
    under one name). A database made before defaults were recorded resumes as before."""
    first = config(entry=[{"strategy": "mcts"}, {"strategy": "random"}])
    recorded = dict(first.defaults)
    assert set(recorded) == {"mcts"}  # random has no parameters
    assert json.loads(recorded["mcts"])["value"] == "auto"
    assert json.loads(recorded["mcts"])["iterations"] == 150
    older = {**json.loads(recorded["mcts"]), "value": "progress"}
    then = evolve(first, defaults=(("mcts", json.dumps(older, sort_keys=True)),))
    Results.create(tmp_path / "then.db", then).close()
    with (
        Results.open(tmp_path / "then.db") as results,
        pytest.raises(ResultsError) as caught,
    ):
        results.check_same(first)
    assert str(caught.value) == (
        f"{tmp_path / 'then.db'} was played when mcts's value defaulted to 'progress', now "
        "'auto': resume it with the version that started it, or use another --db"
    )
    Results.create(tmp_path / "before.db", evolve(first, defaults=())).close()
    with Results.open(tmp_path / "before.db") as results:
        results.check_same(first)  # nothing recorded, nothing to compare
    Results.create(tmp_path / "now.db", first).close()
    with Results.open(tmp_path / "now.db") as results:
        results.check_same(first)
        assert results.config.defaults == first.defaults  # stored and read back


def test_the_stored_config_reads_back_equal() -> None:
    cfg = config(
        games=9,
        seed=3,
        players=[1, 2],
        teams=["random", "red+blue/green+yellow"],
        entry=[{"strategy": "random"}, {"name": "mixed", "seats": ["first", "random"], "salt": 2}],
        sprt={"p0": 0.5, "p1": 0.6, "alpha": 0.01},
    )
    again = TournamentConfig.from_dict(cfg.to_dict())
    assert again.to_json() == cfg.to_json()
    assert again.entries[1].salt == 2
    assert again.sprt is not None and again.sprt.alpha == 0.01


# -- Dask ----------------------------------------------------------------------------------------


def test_a_dask_cluster_stores_the_same_games_as_this_process(tmp_path: Path) -> None:
    import distributed  # the cluster extra, part of dev

    cfg = config(games=4, players=[1, 2], entry=[{"strategy": "random"}, {"strategy": "first"}])
    run_tournament(cfg, tmp_path / "here.db", workers=0)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        summary = run_tournament(cfg, tmp_path / "dask.db", dask=cluster.scheduler_address, batch=1)
    assert summary.backend == f"dask {cluster.scheduler_address}"
    assert (summary.status, summary.played, summary.workers) == ("finished", 16, 2)
    assert stored(tmp_path / "dask.db", facts=True) == stored(tmp_path / "here.db", facts=True)


def test_dask_local_starts_its_own_cluster(tmp_path: Path) -> None:
    cfg = config(games=3, players=[1], entry=[{"strategy": "random"}, {"strategy": "first"}])
    run_tournament(cfg, tmp_path / "here.db", workers=0)
    # --dask local, with thread workers to keep the test quick (the command starts processes).
    backend = Dask("local", 2, processes=False)
    assert (backend.name, backend.workers) == ("dask local", 2)
    summary = run_tournament(cfg, tmp_path / "dask.db", backend=backend)
    assert (summary.status, summary.played, summary.backend) == ("finished", 6, "dask local")
    assert stored(tmp_path / "dask.db", facts=True) == stored(tmp_path / "here.db", facts=True)


def test_the_docs_tournament_file_is_the_one_shown_and_builds() -> None:
    """docs/tournaments.md shows its example file in full; the file must be that text and a
    tournament the runner accepts: 3 entries on player counts 1–6, 1,000 games a cell."""
    root = Path(__file__).resolve().parents[2]
    path = root / "docs/tournaments/three-entries.toml"
    page = (root / "docs/tournaments.md").read_text(encoding="utf-8")
    shown = page.split("```toml\n", 1)[1].split("```", 1)[0]
    assert shown == path.read_text(encoding="utf-8")
    cfg = build_config(read_config_file(path), base=path.parent)
    assert [e.name for e in cfg.entries] == ["random", "rules", "rules|random"]
    assert [c.players for c in cfg.cells] == [1, 2, 3, 4, 5, 6]
    assert (cfg.games, cfg.seed) == (1000, 0)
