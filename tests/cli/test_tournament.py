"""``deathangel tournament``, ``report`` and ``replay --db`` run for real: the CLI in a
subprocess, worker processes, SQLite on disk, ``kill -9`` and Ctrl-C half-way.

An interrupted run resumed must store exactly the rows of an uninterrupted one: every column
but ``id`` (the order batches finished in) and ``seconds`` is compared, and each game's facts.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from support import TEST_BOT_KEY
from tourney_rows import count, stored

from deathangel.tournament.runner import run_tournament
from deathangel.tournament.tournament import build_config

TESTS = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}


CONFIG = """\
games = {games}
seed = 5
players = {players}
plugins = ["tourney_bots"]
bot_key = "5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e"

[[entry]]
strategy = "random"

[[entry]]
name = "first"
strategy = "first"
"""


def cli(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=ENV,
        timeout=timeout,
    )


def start(*args: str, cwd: Path) -> subprocess.Popen[str]:
    """The CLI in its own process group, so the test can stop it and anything it left."""
    return subprocess.Popen(
        [sys.executable, "-m", "deathangel", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=ENV,
        start_new_session=True,
    )


def write_config(folder: Path, games: int, players: str) -> Path:
    path = folder / "t.toml"
    path.write_text(CONFIG.format(games=games, players=players), encoding="utf-8")
    return path


def reference(folder: Path, games: int, players: list[int]) -> list[tuple[Any, ...]]:
    """The rows of an uninterrupted run of the same tournament (in this process)."""
    data = {
        "games": games,
        "seed": 5,
        "players": players,
        "plugins": ["tourney_bots"],
        "entry": [{"strategy": "random"}, {"name": "first", "strategy": "first"}],
        "bot_key": TEST_BOT_KEY,  # the key the tournament file names
    }
    db = folder / "reference.db"
    run_tournament(build_config(data), db, workers=0)
    return stored(db, facts=True)


def stop_when_half_stored(proc: subprocess.Popen[str], db: Path, total: int, sig: int) -> int:
    """Send ``sig`` once a third to two thirds of the games are stored; the count then."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        n = count(db)
        if n >= total // 3:
            os.kill(proc.pid, sig)
            return n
        if proc.poll() is not None:
            break
        time.sleep(0.02)
    proc.kill()
    out, err = proc.communicate()
    pytest.fail(f"the run ended or stalled before a third was stored: {out} {err}")


def kill_group(proc: subprocess.Popen[str]) -> None:
    """Whatever the killed run left behind (its workers exit by themselves within a second;
    this only makes sure of it)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


# -- a whole tournament --------------------------------------------------------------------------


def test_a_small_tournament_end_to_end(tmp_path: Path) -> None:
    config = write_config(tmp_path, games=12, players="[1, 2]")
    result = cli("tournament", str(config), "--workers", "2", "--batch", "5", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    db = tmp_path / "t.db"  # the config's name with .db
    assert "48 game(s) played" in result.stdout
    assert "48/48 stored in " in result.stdout
    assert "Report: deathangel report " in result.stdout
    rows = stored(db)
    assert len(rows) == 2 * 2 * 12
    assert {(r[0], r[2], r[3]) for r in rows} == {
        (p, e, k) for p in (1, 2) for e in ("random", "first") for k in range(12)
    }
    for players, cell_teams, _, k, seed, teams, outcome, *_ in rows:
        assert (cell_teams, seed) == ("random", 5 + k)
        assert outcome in ("victory", "defeat")
        assert teams.count("/") == players - 1
    # Both entries got the same deal in every game.
    deal = {(r[0], r[3], r[5]) for r in rows}
    assert len(deal) == 2 * 12
    assert stored(db, facts=True) == reference(tmp_path, 12, [1, 2])
    conn = sqlite3.connect(db)
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    runs = conn.execute("SELECT backend, workers, games, status FROM runs").fetchall()
    conn.close()
    assert meta["format"] == "deathangel-tournament"
    assert json.loads(meta["config"])["games"] == 12
    assert runs == [("processes", 2, 48, "finished")]

    # Again without --resume: refused. With it: nothing to do, nothing added.
    again = cli("tournament", str(config), cwd=tmp_path)
    assert again.returncode == 1
    assert again.stderr.strip().count("\n") == 0
    assert "already holds a tournament; add --resume" in again.stderr
    done = cli("tournament", str(config), "--resume", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "all 48 games are stored; nothing to do" in done.stdout
    assert len(stored(db)) == 48
    # A different tournament in the same database: one line, exit 1.
    other = cli("tournament", str(config), "--resume", "--seed", "20", cwd=tmp_path)
    assert other.returncode == 1
    assert other.stderr == (
        f"error: {db} holds a different tournament (seed differ); use the same config to "
        "resume, or another --db\n"
    )


def test_a_quick_run_by_flags_and_bad_flags(tmp_path: Path) -> None:
    result = cli(
        "tournament", "-e", "random", "-e", "first|random", "--plugin", "tourney_bots",
        "-p", "2", "-n", "3", "-w", "0", "--quiet", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    rows = stored(tmp_path / "tournament.db")
    assert sorted({r[2] for r in rows}) == ["first|random", "random"]
    assert len(rows) == 6
    bad = cli("tournament", "-e", "random", "-p", "7", "--db", "x.db", cwd=tmp_path)
    assert (bad.returncode, bad.stderr) == (
        1,
        "error: --players must be between 1 and 6, not 7\n",
    )
    assert not (tmp_path / "x.db").exists()
    backwards = cli("tournament", "-e", "random", "-p", "3-1", "--db", "x.db", cwd=tmp_path)
    assert (backwards.returncode, backwards.stderr) == (
        1,
        "error: --players '3-1': a range goes from low to high (1-3)\n",
    )
    assert not (tmp_path / "x.db").exists()


# -- stopped half-way, resumed -------------------------------------------------------------------


HALF_WAY = (30, [1, 2, 3, 4, 5, 6])
"""Games and player counts of the tournament stopped half-way: 360 games."""


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Any, ...]]:
    return reference(tmp_path_factory.mktemp("uninterrupted"), *HALF_WAY)


@pytest.mark.long
@pytest.mark.parametrize("how", ["kill -9", "ctrl-c"])
def test_a_run_stopped_half_way_resumes_to_exactly_the_uninterrupted_rows(
    tmp_path: Path, how: str, uninterrupted: list[tuple[Any, ...]]
) -> None:
    games, players = HALF_WAY
    total = games * len(players) * 2
    config = write_config(tmp_path, games=games, players=str(players))
    # The same choices as the reference's `first`, but each game pauses 10 ms: about 1 s of
    # games, so that on a loaded machine the stop still lands mid-run (without it, the run
    # was once over before this test's poll saw a third of it stored).
    text = config.read_text(encoding="utf-8")
    paced = text.replace('strategy = "first"', 'strategy = "first:pause=0.01"')
    config.write_text(paced, encoding="utf-8")
    db = tmp_path / "t.db"
    proc = start("tournament", str(config), "--workers", "2", "--batch", "3", cwd=tmp_path)
    try:
        sig = signal.SIGKILL if how == "kill -9" else signal.SIGINT
        at_stop = stop_when_half_stored(proc, db, total, sig)
        out, _ = proc.communicate(timeout=60)
    finally:
        kill_group(proc)
    if how == "kill -9":
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == 130
        assert "Interrupted: go on with the same command and --resume" in out
    stopped = count(db)
    assert at_stop <= stopped < total
    if how == "kill -9":
        # Nothing holds the run lock any more: the report knows the run is not playing.
        report = cli("report", str(db), cwd=tmp_path)
        assert report.returncode == 0, report.stderr
        assert report.stdout.rstrip().endswith("; killed (no end recorded))")
    resumed = cli("tournament", str(config), "--resume", "--workers", "2", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{total - stopped} game(s) played" in resumed.stdout
    # Every column and each game's facts (tourney_rows.stored): the facts are written with
    # their game, so a stop loses or keeps both.
    assert stored(db, facts=True) == uninterrupted
    assert all(row[-1] is not None for row in uninterrupted)
    conn = sqlite3.connect(db)
    statuses = [s for (s,) in conn.execute("SELECT status FROM runs ORDER BY id")]
    conn.close()
    # A killed run never wrote its end (the next run, holding the lock, marked it killed); a
    # stopped one did.
    assert statuses == ["killed" if how == "kill -9" else "interrupted", "finished"]


def test_a_second_run_on_a_database_being_played_is_refused_before_any_game(
    tmp_path: Path,
) -> None:
    """Two runs on one database would play the same games; the second then died on the
    games table's unique key with a traceback, its games thrown away. Now it is refused in one
    line before it plays, the first run goes on untouched, and the report calls the first
    "running" while it plays and "interrupted" once it is stopped."""
    config = write_config(tmp_path, games=200, players="[1]")
    text = config.read_text(encoding="utf-8")
    # About a minute of play in all (0.3 s as each "first" game begins), so the first run is
    # still playing while the second is refused and the report is read on a loaded machine
    # (at 0.02 s it had finished its 400 games by then, once, under a full test run); it is
    # stopped long before.
    config.write_text(text.replace('strategy = "first"', 'strategy = "first:pause=0.3"'))
    db = tmp_path / "t.db"
    proc = start("tournament", str(config), "--workers", "1", "--batch", "1", cwd=tmp_path)
    try:
        deadline = time.monotonic() + 120
        while count(db) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, proc.communicate()
        second = cli("tournament", str(config), "--resume", "--workers", "1", cwd=tmp_path)
        assert second.returncode == 1, second.stderr
        assert re.fullmatch(
            rf"error: {re.escape(str(db))}: another run is playing this tournament now "
            r"\(started \S+, \d+ games stored by it so far\); wait for it to end, or stop it "
            r"\(Ctrl-C, or kill\), then go on with --resume\n",
            second.stderr,
        )
        assert "game(s) played" not in second.stdout
        report = cli("report", str(db), cwd=tmp_path)
        assert report.returncode == 0, report.stderr
        runs = [line for line in report.stdout.splitlines() if line.startswith("run ")]
        assert len(runs) == 1 and runs[0].endswith("; running)"), report.stdout
        os.kill(proc.pid, signal.SIGINT)
        proc.communicate(timeout=60)
    finally:
        kill_group(proc)
    assert proc.returncode == 130
    conn = sqlite3.connect(db)
    statuses = [s for (s,) in conn.execute("SELECT status FROM runs ORDER BY id")]
    conn.close()
    assert statuses == ["interrupted"]  # the refused run never started one
    report = cli("report", str(db), cwd=tmp_path)
    assert report.stdout.rstrip().endswith("; interrupted)")


@pytest.mark.long
def test_a_full_disk_stops_the_run_in_one_line_and_keeps_every_stored_game(
    tmp_path: Path,
) -> None:
    """The database cannot grow (here the process may write files of at most 256 KiB, as a
    full disk or a quota would stop it): the run stops with one line naming the database,
    not a traceback, keeps every game it stored, and --resume goes on once there is room."""

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (256 * 1024, 256 * 1024))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails, not the process

    args = [sys.executable, "-m", "deathangel", "tournament", "-e", "random", "-p", "1"]
    args += ["-n", "3000", "--db", "t.db", "-q", "--workers", "1"]
    full = subprocess.run(
        args, capture_output=True, text=True, cwd=tmp_path, env=ENV, timeout=300,
        preexec_fn=small_files,
    )  # fmt: skip
    assert (full.returncode, full.stderr.count("\n")) == (1, 1), full.stderr
    assert full.stderr.startswith("error: t.db: cannot write to the results database: ")
    assert full.stderr.endswith("go on with --resume once that is put right\n")
    stored_then = count(tmp_path / "t.db")
    assert 0 < stored_then < 3000
    resumed = cli(*args[3:], "--resume", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert count(tmp_path / "t.db") == 3000
    conn = sqlite3.connect(tmp_path / "t.db")
    statuses = [s for (s,) in conn.execute("SELECT status FROM runs ORDER BY id")]
    conn.close()
    assert statuses == ["failed", "finished"]


def test_more_games_go_on_from_the_stored_ones_and_fewer_are_refused(tmp_path: Path) -> None:
    """A researcher whose interval is too wide asks for more games of the same tournament:
    the games stored stay, and the new ones are exactly those of a run made that long from
    the start (the next seeds, the same bots)."""
    flags = ["-e", "random", "-e", "first", "--plugin", "tourney_bots", "-p", "1,2", "-w", "0"]
    first = cli("tournament", *flags, "-n", "3", "--db", "t.db", "-q", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    more = cli("tournament", *flags, "-n", "6", "--db", "t.db", "--resume", cwd=tmp_path)
    assert more.returncode == 0, more.stderr
    assert "12 game(s) played" in more.stdout  # 3 more of 2 cells and 2 entries
    # The same bot key, so the same rows (every column but the id and the time).
    key = ["--bot-key", TEST_BOT_KEY]
    for db, n in (("k6.db", "6"), ("k.db", "3")):
        run = cli("tournament", *flags, *key, "-n", n, "--db", db, "-q", cwd=tmp_path)
        assert run.returncode == 0, run.stderr
    grown = cli(
        "tournament", *flags, *key, "-n", "6", "--db", "k.db", "--resume", "-q", cwd=tmp_path
    )
    assert grown.returncode == 0, grown.stderr
    assert stored(tmp_path / "k.db", facts=True) == stored(tmp_path / "k6.db", facts=True)
    report = cli("report", "k.db", "--json", cwd=tmp_path)
    assert json.loads(report.stdout)["config"]["games"] == 6
    fewer = cli("tournament", *flags, *key, "-n", "4", "--db", "k.db", "--resume", cwd=tmp_path)
    assert (fewer.returncode, fewer.stderr) == (
        1,
        "error: k.db holds 6 games a cell and entry: --resume can go on to 6 or more, not 4\n",
    )
    assert stored(tmp_path / "k.db", facts=True) == stored(tmp_path / "k6.db", facts=True)


def test_a_worker_that_dies_is_replaced_and_its_games_played_again(tmp_path: Path) -> None:
    marker = tmp_path / "crash.marker"
    marker.touch()
    config = tmp_path / "t.toml"
    config.write_text(
        CONFIG.format(games=10, players="[1, 2]").replace(
            'strategy = "first"', f'strategy = "crash_once:marker={marker}"'
        ),
        encoding="utf-8",
    )
    result = cli("tournament", str(config), "--workers", "2", "--batch", "2", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not marker.exists()  # a worker did die
    assert "A worker process died" in result.stdout
    rows = stored(tmp_path / "t.db")
    assert len(rows) == 40
    # crash_once plays as random does once the marker is gone, with its own bot seeds.
    random_rows = [r for r in rows if r[2] == "random"]
    first_rows = [r[3:] for r in rows if r[2] == "first"]
    assert first_rows == [r[3:] for r in random_rows]


# -- the report ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    data = {
        "games": 30,
        "seed": 0,
        "players": [1, 6],
        "plugins": ["tourney_bots"],
        "entry": [{"strategy": "random"}, {"name": "first", "strategy": "first"}],
    }
    run_tournament(build_config(data), folder / "r.db", workers=0)
    return folder / "r.db"


def test_report_prints_the_tables(results: Path) -> None:
    out = cli("report", str(results), cwd=results.parent)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "2 entries × 2 cell(s) × 30 games" in text
    assert "Win rates (95% Wilson interval)" in text
    assert "Paired comparisons on the same seeds" in text
    assert "run " in text and "games/s" in text


def test_report_markdown_and_json_agree_with_the_database(results: Path) -> None:
    conn = sqlite3.connect(results)
    wins = dict(
        ((p, e), (n, w))
        for p, e, n, w in conn.execute(
            "SELECT players, entry, COUNT(*), SUM(outcome = 'victory') FROM games GROUP BY 1, 2"
        )
    )
    conn.close()
    md = cli("report", str(results), "--markdown", cwd=results.parent)
    assert md.returncode == 0, md.stderr
    for (players, entry), (n, w) in wins.items():
        assert f"| {players}p | {entry} | {n} | {w} | " in md.stdout
    assert "| cell | A | B | pairs |" in md.stdout
    js = cli("report", str(results), "--json", cwd=results.parent)
    assert js.returncode == 0, js.stderr
    data = json.loads(js.stdout)
    assert data["games"] == 120
    assert {(e["players"], e["entry"]): (e["games"], e["wins"]) for e in data["entries"]} == wins
    pair = data["pairs"][0]
    assert (pair["a"], pair["b"], pair["pairs"]) == ("random", "first", 30)
    assert sum(pair[k] for k in ("both_won", "only_a_won", "only_b_won", "neither_won")) == 30


def test_report_writes_csv_and_plots(results: Path, tmp_path: Path) -> None:
    out = cli(
        "report", str(results), "--csv", str(tmp_path / "csv"), "--plots", str(tmp_path / "png"),
        cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    games = (tmp_path / "csv" / "games.csv").read_text(encoding="utf-8").splitlines()
    assert games[0].startswith("id,players,cell_teams,entry,game,seed,teams,outcome")
    assert len(games) == 1 + 120
    assert (tmp_path / "csv" / "entries.csv").read_text(encoding="utf-8").count("\n") == 1 + 4
    for name in ("win_rates.png", "locations.png", "causes.png"):
        png = (tmp_path / "png" / name).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"wrote {tmp_path / 'png' / name}" in out.stdout


@pytest.mark.parametrize(
    ("module", "args", "extra"),
    [
        ("matplotlib", ["report", "{db}", "--plots", "png"], "deathangel[plots]"),
        ("distributed", ["tournament", "-e", "random", "--dask", "local"], "deathangel[cluster]"),
        (
            "numpy",
            ["tournament", "--with", "policy", "-e", "policy:model=agent.npz"],
            "error: trained policies (the strategy policy) need the 'rl' extra (numpy is not "
            "installed): pip install 'deathangel[rl]'",
        ),
    ],
)
def test_a_missing_extra_is_named_in_one_line(
    results: Path, tmp_path: Path, module: str, args: list[str], extra: str
) -> None:
    # The module made unimportable, as in an install without the extra.
    code = (
        f"import sys; sys.modules[{module!r}] = None; sys.argv = ['deathangel', *sys.argv[1:]]; "
        "from deathangel.cli.app import main; main()"
    )
    argv = [a.replace("{db}", str(results)) for a in args]
    out = subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=ENV,
        timeout=120,
    )
    assert out.returncode == 1
    assert out.stderr.count("\n") == 1
    assert extra in out.stderr
    assert not (tmp_path / "tournament.db").exists()  # refused before anything was made


# -- replay of a stored game ---------------------------------------------------------------------


def test_replay_of_a_stored_game_shows_it_to_its_end(results: Path) -> None:
    conn = sqlite3.connect(results)
    game_id, rounds, decisions, outcome = conn.execute(
        "SELECT id, rounds, decisions, outcome FROM games WHERE players = 1 AND entry = 'first' "
        "ORDER BY game LIMIT 1"
    ).fetchone()
    conn.close()
    out = cli("replay", "--db", str(results), str(game_id), "--speed", "0", cwd=results.parent)
    assert out.returncode == 0, out.stderr
    assert f"Replay of game {game_id} of {results} (entry 'first', 1p, game 0)" in out.stdout
    assert f"1 player(s), seed 0, {decisions} decision(s)" in out.stdout
    assert "Seat 1: bot:first" in out.stdout
    assert f"Game over: {outcome} after {rounds} round(s)." in out.stdout
    missing = cli("replay", "--db", str(results), "100000", cwd=results.parent)
    assert missing.returncode == 1
    assert "has no game 100000 (ids run 1–120)" in missing.stderr


def _copy(source: Path, target: Path, journal: str) -> Path:
    """A whole copy of ``source`` in the journal mode ``journal``."""
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)
        dst.execute(f"PRAGMA journal_mode = {journal}")
    return target


def test_reading_a_database_leaves_its_file_as_it_was(results: Path, tmp_path: Path) -> None:
    """A report, a card report and a replay only read: a kept copy in the one-file journal
    (as docs/data's are committed) keeps every byte, and nothing is left beside any
    database, so reading a committed file never shows as a change in git."""
    kept = _copy(results, tmp_path / "kept.db", "DELETE")
    wal = _copy(results, tmp_path / "wal.db", "WAL")
    files = {"kept.db", "wal.db"}
    assert {p.name for p in tmp_path.iterdir()} == files

    def digests() -> dict[str, str]:
        return {db.name: hashlib.sha256(db.read_bytes()).hexdigest() for db in (kept, wal)}

    before = digests()
    for db, other in ((kept, wal), (wal, kept)):
        for args in (
            ["report", str(db)],
            ["report", str(db), "--json"],
            ["report", str(other), "--against", str(db)],
            ["cards", "report", str(db), "--entry", "first"],
            ["replay", "--db", str(db), "1", "--speed", "0"],
        ):
            out = cli(*args, cwd=tmp_path)
            assert out.returncode == 0, (args, out.stderr)
            assert {p.name for p in tmp_path.iterdir()} == files, args
    assert digests() == before
