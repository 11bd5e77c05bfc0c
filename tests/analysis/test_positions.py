"""Stored positions (``deathangel value play``): a file holds exactly the round starts that
playing the same games in one process gives, however it was filled (in order, on workers,
extended, stopped by kill -9 and gone on with), refuses other settings and corrupt data in
one line, and ``value fit`` / ``value check`` read it."""

from __future__ import annotations

import gzip
import json
import math
import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from support import TEST_BOT_KEY

from deathangel.analysis.positions import (
    GamePositions,
    PositionsConfig,
    PositionsError,
    PositionStore,
    play_into,
    read_archive,
    read_played,
    replayed,
    restore,
    write_archive,
)
from deathangel.analysis.valuefit import Positions, play_positions, positions_of
from deathangel.players.search.model import ValueModel

SEED = 340000
SLOW = "mcts:iterations=8,horizon=1"
"""A search cheap enough for a test, slow enough (seconds a game) to be stopped mid-run."""


def stored(path: Path) -> Positions:
    with PositionStore.open(path) as store:
        return positions_of(store.games(), store.config.seed)


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", "value", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def wait_for_games(path: Path, at_least: int, seconds: float = 240) -> int:
    """Games a running command has stored in ``path``, once there are ``at_least`` (or the
    time is up)."""
    deadline = time.monotonic() + seconds
    count = 0
    while time.monotonic() < deadline and count < at_least:
        time.sleep(0.5)
        if path.exists():
            try:
                with sqlite3.connect(path) as conn:
                    count = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            except sqlite3.OperationalError:
                count = 0  # the tables are being made
    return count


def test_a_file_holds_what_playing_in_one_process_gives(tmp_path: Path) -> None:
    expected = play_positions(6, SEED, players=[1, 2], strategy="rules", bot_key=TEST_BOT_KEY)
    config = PositionsConfig("rules", (1, 2), SEED, 6, TEST_BOT_KEY)
    # In this process, three games first and then the file extended to six.
    first = tmp_path / "first.db"
    with PositionStore.open(first, PositionsConfig("rules", (1, 2), SEED, 3, TEST_BOT_KEY)) as s:
        assert play_into(s) == 3
    with PositionStore.open(first, config) as s:
        assert s.done() == {0, 1, 2}
        assert play_into(s) == 3
        assert play_into(s) == 0  # nothing left to play
    # On two worker processes, in whatever order they finish.
    workers = tmp_path / "workers.db"
    with PositionStore.open(workers, config) as s:
        assert play_into(s, workers=2) == 6
    for path in (first, workers):
        got = stored(path)
        assert got == expected
    assert len(expected.rows) > 12 and set(expected.game) == set(range(SEED, SEED + 6))
    # The seats cycle 1, 2, 1, ... by game index.
    with PositionStore.open(workers) as s:
        assert [g.seats for g in s.games()] == [1, 2, 1, 2, 1, 2]


def test_a_dask_cluster_fills_the_file_as_one_process_does(tmp_path: Path) -> None:
    """A real ``distributed.LocalCluster`` (its workers threads here, to keep the test quick:
    the command's ``--dask local`` starts processes): once through the library, once through
    the command given the scheduler's address; both files hold what one process plays."""
    import distributed  # the cluster extra, part of dev

    from deathangel.analysis.workers import DaskCluster

    expected = play_positions(5, SEED, players=[1, 3], strategy="rules", bot_key=TEST_BOT_KEY)
    config = PositionsConfig("rules", (1, 3), SEED, 5, TEST_BOT_KEY)
    cluster = DaskCluster("local", 2, processes=False)
    try:
        assert (cluster.name, cluster.workers) == ("dask local", 2)
        with (
            PositionStore.open(tmp_path / "lib.db", config) as s,
            distributed.get_task_stream(cluster.client) as sent,
        ):
            assert play_into(s, dask=cluster) == 5
        assert len(sent.data) == 5  # every game was played on the cluster
    finally:
        cluster.close()
    assert stored(tmp_path / "lib.db") == expected
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=None
    ) as local:
        path = tmp_path / "cli.db"
        with distributed.Client(local) as watch, distributed.get_task_stream(watch) as sent:
            result = cli(
                *("play", "--db", str(path), "-n", "5", "-s", str(SEED), "-p", "1,3"),
                *("--strategy", "rules", "--bot-key", TEST_BOT_KEY),
                *("--dask", local.scheduler_address),
            )
    assert result.returncode == 0, result.stderr
    assert len(sent.data) == 5  # the command's games were played on the cluster
    assert f"5 game(s) played now (dask {local.scheduler_address}), 5 of 5 stored" in result.stdout
    assert stored(path) == expected
    # A scheduler that cannot be reached is one line, before any file is made.
    nowhere = tmp_path / "nowhere.db"
    result = cli("play", "--db", str(nowhere), "--strategy", "rules", "--dask", "inproc://x/1/2")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "cannot reach the Dask scheduler 'inproc://x/1/2'" in result.stderr
    assert not nowhere.exists()


def test_dask_without_its_extra_is_one_line_naming_it(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['distributed'] = None; "
        "sys.argv = ['deathangel', *sys.argv[1:]]; from deathangel.cli.app import main; main()"
    )
    path = tmp_path / "p.db"
    result = subprocess.run(
        [sys.executable, "-c", code, "value", "play", "--db", str(path), "--dask", "local"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "pip install 'deathangel[cluster]'" in result.stderr
    assert not path.exists()


def test_other_settings_are_refused_naming_the_field(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    with PositionStore.open(path, PositionsConfig("rules", (1,), SEED, 1, TEST_BOT_KEY)) as s:
        play_into(s)
    for change, field in (
        (PositionsConfig("random", (1,), SEED, 1, TEST_BOT_KEY), "strategy"),
        (PositionsConfig("rules", (2,), SEED, 1, TEST_BOT_KEY), "players"),
        (PositionsConfig("rules", (1,), SEED + 1, 1, TEST_BOT_KEY), "seed"),
        (PositionsConfig("rules", (1,), SEED, 1, "a7" * 16), "bot_key"),
    ):
        with pytest.raises(PositionsError) as caught:
            PositionStore.open(path, change)
        text = str(caught.value)
        assert text.startswith(f"{path}: made with {field} ") and "\n" not in text
    # The file is untouched: its one game is still there, its settings unchanged.
    with PositionStore.open(path) as s:
        assert s.done() == {0} and s.config.strategy == "rules" and s.config.seed == SEED


def test_corrupt_files_are_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(PositionsError, match=r"junk\.db: not a positions file"):
        PositionStore.open(junk)
    # A folder, to read or to fill: named for what it is, nothing made in it.
    for config in (None, PositionsConfig("rules", (1,), SEED, 2, TEST_BOT_KEY)):
        with pytest.raises(PositionsError, match="is a folder, not a positions file"):
            PositionStore.open(tmp_path, config)
    assert sorted(f.name for f in tmp_path.iterdir()) == ["junk.db"]
    path = tmp_path / "p.db"
    with PositionStore.open(path, PositionsConfig("rules", (1,), SEED, 2, TEST_BOT_KEY)) as s:
        play_into(s)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET positions = '[{\"features\": 3}]' WHERE game = 1")
    with PositionStore.open(path) as s, pytest.raises(PositionsError) as caught:
        s.games()
    assert str(caught.value) == f"{path}: game 1's positions are corrupt"
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '7' WHERE key = 'format'")
    with pytest.raises(PositionsError, match="positions format '7', this version reads 1 and 2"):
        PositionStore.open(path)
    result = cli("check", "learned", "--positions", str(junk))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "not a positions file" in result.stderr


def _strip_marines(path: Path) -> None:
    """Take the marines' names out of every stored position, as a file made before that
    feature was added would have them."""
    with sqlite3.connect(path) as conn:
        for game, text in conn.execute("SELECT game, positions FROM games").fetchall():
            data = json.loads(text)
            for p in data:
                p["features"] = {
                    k: v for k, v in p["features"].items() if not k.startswith("marine ")
                }
            conn.execute("UPDATE games SET positions = ? WHERE game = ?", (json.dumps(data), game))


def test_stored_decisions_play_the_games_again_with_todays_features(tmp_path: Path) -> None:
    """Each game's decisions are stored: played again from them, the games give back the
    positions they were stored with (a search's game too, which was played with forward-model
    records) — and a file whose positions lack a feature added since gets it back."""
    path = tmp_path / "p.db"
    config = PositionsConfig("rules", (1, 2), SEED, 4, TEST_BOT_KEY)
    with PositionStore.open(path, config) as s:
        play_into(s)
        games = s.games()
    assert all(g.decisions for g in games)
    assert [replayed(g, SEED) for g in games] == games
    searched = tmp_path / "mcts.db"
    with PositionStore.open(searched, PositionsConfig(SLOW, (1,), SEED, 1, TEST_BOT_KEY)) as s:
        play_into(s)
        [game] = s.games()
    assert replayed(game, SEED) == game
    _strip_marines(path)
    with PositionStore.open(path) as s:
        stripped = s.games()
    assert not any(k.startswith("marine ") for g in stripped for r in g.rows for k in r)
    assert [replayed(g, SEED) for g in stripped] == games
    # ... which is what ``value fit --positions`` reads: a fit from a start that lacks the
    # marines' names takes them as new features.
    held = tmp_path / "held.db"
    with PositionStore.open(held, PositionsConfig("rules", (1,), SEED + 100, 2, TEST_BOT_KEY)) as s:
        play_into(s)
    out = tmp_path / "m.json"
    result = cli(
        *("fit", "--out", str(out), "--positions", str(path), "--start", "learned"),
        *("--holdout-positions", str(held), "--epochs", "1"),
    )
    assert result.returncode == 0, result.stderr
    names = json.loads(out.read_text(encoding="utf-8"))["features"]
    assert any(n.startswith("marine ") for n in names)


def test_decisions_that_do_not_replay_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    with PositionStore.open(path, PositionsConfig("rules", (1,), SEED, 2, TEST_BOT_KEY)) as s:
        play_into(s)
        first = s.games()[1]
    assert first.decisions is not None
    cut = [list(c) for c in first.decisions[:-1]]  # the game's last decision lost
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET decisions = ? WHERE game = 1", (json.dumps(cut),))
    with PositionStore.open(path) as s, pytest.raises(PositionsError) as caught:
        replayed(s.games()[1], SEED)
    assert str(caught.value) == "game 1's decisions do not replay to its end"
    wrong = [["card", "No Such Card"], *cut]  # an illegal first choice
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET decisions = ? WHERE game = 1", (json.dumps(wrong),))
    result = cli("check", "learned", "--positions", str(path))
    # The lines before it say the games are being read (played again); the error is one line.
    assert result.returncode == 1 and "Traceback" not in result.stderr
    last = result.stderr.splitlines()[-1]
    assert last.startswith(f"error: {path}: game 1's decisions do not replay: ")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET decisions = '{\"no\": 1}' WHERE game = 1")
    with PositionStore.open(path) as s, pytest.raises(PositionsError, match="game 1's posi"):
        s.games()


def test_a_format_1_file_is_read_and_extended_without_decisions(tmp_path: Path) -> None:
    """A file made before decisions were stored: its games read as stored, and a run that
    extends it stores its new games the same way (one file, one format)."""
    path = tmp_path / "old.db"
    with PositionStore.open(path, PositionsConfig("rules", (1,), SEED, 2, TEST_BOT_KEY)) as s:
        play_into(s)
        new = s.games()
    _strip_marines(path)
    with sqlite3.connect(path) as conn:  # the format-1 layout: no decisions column
        conn.execute(
            "CREATE TABLE old (game INTEGER PRIMARY KEY, seats INTEGER NOT NULL, "
            "won INTEGER NOT NULL, positions TEXT NOT NULL)"
        )
        conn.execute("INSERT INTO old SELECT game, seats, won, positions FROM games")
        conn.execute("DROP TABLE games")
        conn.execute("ALTER TABLE old RENAME TO games")
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'format'")
    with PositionStore.open(path, PositionsConfig("rules", (1,), SEED, 3, TEST_BOT_KEY)) as s:
        assert s.format == 1
        assert play_into(s) == 1
        games = s.games()
    assert [g.decisions for g in games] == [None, None, None]
    assert [replayed(g, SEED) for g in games] == games  # nothing to play again: as stored
    assert [g.rows for g in games[:2]] != [g.rows for g in new]  # the features of then

    def marines(g: GamePositions) -> bool:
        return any(k.startswith("marine ") for r in g.rows for k in r)

    assert [marines(g) for g in games] == [False, False, True]  # the new game: today's
    with PositionStore.open(path) as s, pytest.raises(PositionsError) as caught:
        write_archive(s, tmp_path / "a.json")
    assert str(caught.value) == f"{path}: a format-1 file holds no decisions to archive"


def test_two_runs_on_one_file_store_each_game_once(tmp_path: Path) -> None:
    """A resume started before the first run stopped: both may finish the same game. The
    second store of it is the same game and is left out, rather than stopping the run with a
    duplicate key (as it did, losing neither run's stored games but both runs)."""
    path = tmp_path / "p.db"
    config = PositionsConfig("rules", (1,), SEED, 3, TEST_BOT_KEY)
    with PositionStore.open(path, config) as first, PositionStore.open(path, config) as second:
        assert play_into(first) == 3
        assert play_into(second, games=3) == 0  # nothing left: it reads what is stored
        again = first.games()[1]
        second.add(again)  # as a run that had begun game 1 before the other stored it
        assert second.games() == first.games()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 3


@pytest.mark.long
def test_kill_9_loses_no_stored_game_and_the_same_command_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "slow.db"
    args = ["play", "--db", str(path), "-n", "400", "-s", str(SEED), "--strategy", SLOW]
    args += ["--bot-key", TEST_BOT_KEY]
    proc = subprocess.Popen(
        [sys.executable, "-m", "deathangel", "value", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_for_games(path, 2) >= 2, "the first games were never stored"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    with sqlite3.connect(path) as conn:
        count = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert 2 <= count < 400
    # Go on with the same settings, asking for one game more than were stored.
    args[args.index("400")] = str(count + 1)
    result = cli(*args)
    assert result.returncode == 0, result.stderr
    assert "1 game(s) played now (" in result.stdout  # (where: this machine's processes)
    assert f"), {count + 1} of {count + 1} stored" in result.stdout
    expected = play_positions(count + 1, SEED, strategy=SLOW, bot_key=TEST_BOT_KEY)
    assert stored(path) == expected


def test_a_full_disk_stops_in_one_line_and_keeps_every_stored_game(tmp_path: Path) -> None:
    """The file cannot grow past 128 KiB (a limit on the process's files, as a full disk or a
    quota would stop it): one line naming the file and the game, every game stored before
    kept, and the same command goes on once there is room."""

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (128 * 1024, 128 * 1024))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails, not the process

    path = tmp_path / "p.db"
    args = ["play", "--db", str(path), "-n", "60", "-s", str(SEED), "--strategy", "rules"]
    args += ["--bot-key", TEST_BOT_KEY, "-w", "0"]
    full = subprocess.run(
        [sys.executable, "-m", "deathangel", "value", *args],
        capture_output=True, text=True, timeout=300, preexec_fn=small_files,
    )  # fmt: skip
    assert full.returncode == 1, full.stderr
    assert "Traceback" not in full.stderr
    assert re.fullmatch(  # the last line (those before it are the progress)
        rf"error: {re.escape(str(path))}: cannot store game \d+: .+; every game stored before "
        r"is kept: run the same command again once that is put right",
        full.stderr.splitlines()[-1],
    )
    with sqlite3.connect(path) as conn:
        kept = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert 0 < kept < 60
    again = cli(*args)
    assert again.returncode == 0, again.stderr
    assert "), 60 of 60 stored" in again.stdout


@pytest.mark.long
def test_value_fit_and_check_read_stored_positions(tmp_path: Path) -> None:
    train, held = tmp_path / "train.db", tmp_path / "held.db"
    for path, seed, games in ((train, SEED, 40), (held, SEED + 1000, 20)):
        result = cli(
            *("play", "--db", str(path), "-n", str(games), "-s", str(seed)),
            *("--strategy", "rules", "--bot-key", TEST_BOT_KEY, "-w", "0"),
        )
        assert result.returncode == 0, result.stderr
    model = tmp_path / "m.json"
    args = ["fit", "--out", str(model), "--positions", str(train), "--hidden", "0"]
    overlapping = cli(*args, "--holdout-positions", str(train))
    assert overlapping.returncode == 1
    assert "overlap" in overlapping.stderr and overlapping.stderr.count("\n") == 1
    result = cli(*args, "--holdout-positions", str(held), "--epochs", "5")
    assert result.returncode == 0, result.stderr
    assert f"of 20 games (seeds {SEED + 1000}..{SEED + 1019})" in result.stdout
    about = json.loads(model.read_text(encoding="utf-8"))["about"]
    assert f"40 games of 'rules' for 1 player(s) (seeds {SEED}..{SEED + 39})" in about
    check = cli("check", str(model), "--positions", str(held))
    assert check.returncode == 0, check.stderr
    assert f"of 20 games (seeds {SEED + 1000}..{SEED + 1019})" in check.stdout
    # Fine-tuning the shipped model on them: its features first, then those the positions
    # have and it lacks (the marines standing, added since it was fitted); its start said in
    # the model's "about".
    tuned = tmp_path / "tuned.json"
    start = ["fit", "--out", str(tuned), "--positions", str(train), "--start", "learned"]
    result = cli(*start, "--holdout-positions", str(held), "--epochs", "3")
    assert result.returncode == 0, result.stderr
    written = json.loads(tuned.read_text(encoding="utf-8"))
    shipped = list(ValueModel.load("learned").names)
    assert written["features"][: len(shipped)] == shipped
    added = written["features"][len(shipped) :]
    assert added and all(name.startswith("marine ") for name in added)
    assert written["about"].endswith("starting from learned")
    # ... and without the marines' names: none read, and said in the "about".
    plain = tmp_path / "plain.json"
    without = ["fit", "--out", str(plain), "--positions", str(train), "--start", "learned"]
    result = cli(
        *without, "--holdout-positions", str(held), "--epochs", "1", "--exclude", "marine *"
    )
    assert result.returncode == 0, result.stderr
    written = json.loads(plain.read_text(encoding="utf-8"))
    assert written["features"] == shipped
    assert written["about"].endswith("starting from learned, leaving out marine *")
    # Epochs chosen by cross-validation: said in the "about"; no folds at all is one line.
    folded = tmp_path / "folded.json"
    result = cli(
        *args[:2], str(folded), *args[3:], "--holdout-positions", str(held), "--folds", "4"
    )
    assert result.returncode == 0, result.stderr
    about = json.loads(folded.read_text(encoding="utf-8"))["about"]
    chose = re.search(
        r"hidden layers none, (\d+) pass(es)? of 60 by 4-fold cross-validation "
        r"\(pooled log-loss \d\.\d{4}\)$",
        about,
    )
    assert chose is not None, about
    # A fit from random weights never keeps them: at least one pass, and no start to report.
    assert int(chose[1]) >= 1
    assert f"model: {about}\n" in result.stdout
    none = cli(*args, "--holdout-positions", str(held), "--folds", "0")
    assert none.returncode == 1 and none.stderr == "error: --folds must be 1 or more, not 0\n"
    many = cli(*args, "--holdout-positions", str(held), "--folds", "41")  # 40 games
    last = many.stderr.splitlines()[-1]  # after the reading's progress lines
    assert many.returncode == 1 and last == "error: 41 folds need at least 41 games, not 40"
    missing = cli(*start[:-1], str(tmp_path / "none.json"), "--holdout-positions", str(held))
    assert missing.returncode == 1 and missing.stderr.count("\n") == 1
    assert "none.json: cannot read the value model" in missing.stderr
    # Set for 30 games, 20 played: judged on the 20 stored, and said so.
    PositionStore.open(held, PositionsConfig("rules", (1,), SEED + 1000, 30, TEST_BOT_KEY)).close()
    check = cli("check", str(model), "--positions", str(held), "--against", "learned")
    assert check.returncode == 0, check.stderr
    assert f"of 20 games (seeds {SEED + 1000}..{SEED + 1019})" in check.stdout
    # --against: the two models' log-loss difference on the same round starts.
    test = stored(held)
    mine, learned = ValueModel.load(model), ValueModel.load("learned")

    def loss(p: float, won: bool) -> float:
        return -math.log(p if won else 1 - p)

    gap = sum(
        loss(mine.chance(r), w) - loss(learned.chance(r), w)
        for r, w in zip(test.rows, test.won, strict=True)
    ) / len(test.rows)
    line = check.stdout.splitlines()[-1]
    paired = re.fullmatch(
        rf"  {re.escape(str(model))} less learned: log-loss ([-+]\d\.\d{{4}}) a round start "
        r"\(95% interval ([-+]\d\.\d{4}) to ([-+]\d\.\d{4}), 20 games\)",
        line,
    )
    assert paired is not None, line
    assert float(paired[1]) == pytest.approx(gap, abs=5e-5)
    assert float(paired[2]) < float(paired[1]) < float(paired[3])


def test_each_game_is_stored_as_it_ends(tmp_path: Path) -> None:
    """A stop (here an interrupt raised from the progress report of the second game) keeps
    exactly the games finished before it."""
    path = tmp_path / "p.db"

    def stop_after_two(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    config = PositionsConfig("rules", (1,), SEED, 5, TEST_BOT_KEY)
    with PositionStore.open(path, config) as s, pytest.raises(KeyboardInterrupt):
        play_into(s, progress=stop_after_two)
    with PositionStore.open(path) as s:
        assert s.done() == {0, 1}


def ignore_ctrl_c() -> None:
    """As a shell starts a background job (``cmd &``): SIGINT ignored from the start."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize(
    ("stop", "workers", "start", "group"),
    [
        (signal.SIGINT, 2, None, False),
        (signal.SIGTERM, 2, None, False),
        (signal.SIGTERM, 2, None, True),
        (signal.SIGTERM, 0, None, False),
        (signal.SIGINT, 0, ignore_ctrl_c, False),
    ],
    ids=[
        "ctrl-c, 2 workers",
        "sigterm, 2 workers",
        "sigterm to the process group, 2 workers",
        "sigterm, in process",
        "background job",
    ],
)
def test_a_stop_keeps_the_games_and_says_how_to_go_on(
    tmp_path: Path,
    stop: signal.Signals,
    workers: int,
    start: Callable[[], None] | None,
    group: bool,
) -> None:
    """Ctrl-C, a batch system's SIGTERM, or ``kill -INT`` on a background job (which a
    shell starts with SIGINT ignored): each stops the run with the line that says how to go
    on, and the status of a stopped run. Before, SIGTERM killed it with no word and a warning
    of leaked semaphores, and a background job could not be stopped short of SIGKILL. A
    batch system signals the whole process group: the workers die of it at once, and that is
    a stop too, not a broken pool's traceback."""
    path = tmp_path / "p.db"
    games = 3000  # far more than a stop leaves time for
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "deathangel", "value", "play", "--db", str(path)),
            *("-n", str(games), "-s", str(SEED), "--strategy", "rules", "-w", str(workers)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=start,
        start_new_session=group,
    )
    try:
        wait_for_games(path, 1)
        if group:
            os.killpg(proc.pid, stop)
        else:
            proc.send_signal(stop)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "leaked" not in err, err
    last = err.strip().splitlines()[-1]
    with PositionStore.open(path) as s:
        stored_now = len(s.done())
    assert 1 <= stored_now < games
    assert (
        last == f"Interrupted: {stored_now} of {games} stored in {path}; the same command goes on."
    )


def test_an_archive_stores_the_same_games_again(tmp_path: Path) -> None:
    """``value export`` writes a file's settings and decisions, no positions; ``value import``
    makes a file holding exactly the same games from it, gzipped or not, and skips the games a
    file holds already (importing twice, or into a file a run began, stores each game once)."""
    path = tmp_path / "p.db"
    config = PositionsConfig("rules", (1, 2), SEED, 4, TEST_BOT_KEY)
    with PositionStore.open(path, config) as s:
        play_into(s)
        games = s.games()
    archive = tmp_path / "a.json.gz"
    result = cli("export", str(path), str(archive))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"4 game(s) of {path} written to {archive} (")
    again = tmp_path / "again.db"
    result = cli("import", str(archive), "--db", str(again))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"4 game(s) stored in {again} from {archive} ")
    assert cli("import", str(archive), "--db", str(again)).stdout.startswith("0 game(s)")
    with PositionStore.open(again) as s:
        assert (s.config, s.games()) == (config, games)
    # Not gzipped when the name does not say so; either way, JSON with no positions in it.
    with PositionStore.open(path) as s:
        assert write_archive(s, tmp_path / "a.json") == 4
    for name in ("a.json.gz", "a.json"):
        raw = (tmp_path / name).read_bytes()
        text = gzip.decompress(raw) if name.endswith(".gz") else raw
        data = json.loads(text)
        assert data["config"] == config.to_dict()
        assert [g["decisions"] for g in data["games"]] == [
            [list(c) for c in g.decisions or ()] for g in games
        ]
        assert b"features" not in text and b"positions" not in text
    begun = tmp_path / "begun.db"
    with PositionStore.open(begun, PositionsConfig("rules", (1, 2), SEED, 2, TEST_BOT_KEY)) as s:
        play_into(s)
    assert restore(tmp_path / "a.json", begun) == (config, 2)
    with PositionStore.open(begun) as s:
        assert s.games() == games


def test_read_played_gives_a_file_and_its_archive_as_the_same_games(tmp_path: Path) -> None:
    """A positions file and its archive, even one whose games are listed out of order, read as
    the same settings and the same games (index, seats, outcome, decisions) in index order."""
    path = tmp_path / "p.db"
    config = PositionsConfig("rules", (1, 2), SEED, 4, TEST_BOT_KEY)
    with PositionStore.open(path, config) as s:
        play_into(s)
        assert write_archive(s, tmp_path / "a.json") == 4
    data = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    data["games"].reverse()
    (tmp_path / "shuffled.json").write_text(json.dumps(data), encoding="utf-8")

    def facts(games: list[GamePositions]) -> list[tuple[object, ...]]:
        return [(g.index, g.seats, g.won, g.decisions) for g in games]

    stored_config, stored = read_played(path)
    assert stored_config == config
    assert [g.index for g in stored] == [0, 1, 2, 3]
    for name in ("a.json", "shuffled.json"):
        archived_config, archived = read_played(tmp_path / name)
        assert archived_config == config
        assert facts(archived) == facts(stored)


def test_bad_archives_and_other_settings_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    config = PositionsConfig("rules", (1,), SEED, 2, TEST_BOT_KEY)
    with PositionStore.open(path, config) as s:
        play_into(s)
        assert write_archive(s, tmp_path / "a.json") == 2
    good = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    bad = tmp_path / "bad.json"

    def refused(data: object) -> str:
        bad.write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(PositionsError) as caught:
            read_archive(bad)
        return str(caught.value)

    assert refused({"format": "something else"}) == f"{bad}: not an archive of played games"
    assert refused({**good, "version": 9}) == f"{bad}: archive version 9, this version reads 1"
    assert refused({**good, "config": {"strategy": "rules"}}).startswith(
        f"{bad}: a corrupt archive (KeyError('players')"
    )
    broken = {**good, "games": [{**good["games"][0], "decisions": "not a list"}]}
    assert refused(broken).startswith(f"{bad}: a corrupt archive (TypeError(")
    bad.write_bytes(gzip.compress(b"{not json"))
    with pytest.raises(PositionsError, match="not an archive of played games"):
        read_archive(bad)
    # A game that does not play out to its stored end is named; the games before it stay.
    cut = json.loads(json.dumps(good))
    cut["games"][1]["decisions"] = cut["games"][1]["decisions"][:-1]
    bad.write_text(json.dumps(cut), encoding="utf-8")
    result = cli("import", str(bad), "--db", str(tmp_path / "cut.db"))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == (
        f"error: {bad}: game 1's decisions do not replay to its end"
    )
    with PositionStore.open(tmp_path / "cut.db") as s:
        assert [g.index for g in s.games()] == [0]
    # Another file's settings are refused before anything is stored; so is a missing archive.
    other = tmp_path / "other.db"
    with PositionStore.open(other, PositionsConfig("rules", (1,), SEED + 5, 1, TEST_BOT_KEY)):
        pass
    result = cli("import", str(tmp_path / "a.json"), "--db", str(other))
    assert (result.returncode, result.stderr) == (
        1,
        f"error: {other}: made with seed {SEED + 5}, not {SEED} (use another file, or the same "
        "settings to go on)\n",
    )
    with PositionStore.open(other) as s:
        assert s.games() == []
    result = cli("import", str(tmp_path / "none.json"), "--db", str(other))
    assert result.stderr == f"error: {tmp_path / 'none.json'}: no such archive\n"
    result = cli("export", str(path), str(tmp_path))
    assert result.stderr == f"error: {tmp_path}: is a folder; name a file for the archive\n"
