"""docs/examples/final_play.py: strategies playing the final location on from where stored games
reached it.

The known answers are the stored games themselves: played on from its arrival by the file's
own strategy with the file's bot key, every game ends as it was stored (a rules bot's and a
search's alike), and a game that never reached the final location has no arrival.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest
from pty_kit import as_a_shell_starts_it
from support import TEST_BOT_KEY

from deathangel.analysis.positions import GamePositions, PositionsConfig, PositionStore, play_into

SEED = 350000
OTHER_KEY = "0123456789abcdef0123456789abcdef"


def _script() -> ModuleType:
    from example_kit import load_example

    return load_example("final_play")


def _file(tmp_path: Path, strategy: str, games: int) -> Path:
    path = tmp_path / "positions.db"
    with PositionStore.open(path, PositionsConfig(strategy, (1,), SEED, games, TEST_BOT_KEY)) as s:
        play_into(s)
    return path


def _stored(path: Path) -> tuple[PositionsConfig, list[GamePositions]]:
    with PositionStore.open(path) as store:
        return store.config, store.games()


def test_the_arrival_is_the_first_round_start_at_the_final_location(tmp_path: Path) -> None:
    script = _script()
    config, games = _stored(_file(tmp_path, "rules", 20))
    arrived = 0
    for game in games:
        replay = script.arrival(game, config.seed)
        if not any(row["final"] for row in game.rows):
            assert replay is None
            continue
        arrived += 1
        st = replay.state
        assert st.location is not None and not st.location_deck
        assert st.phase == "choose_actions"
        # The stored game's own decisions up to there, and the round before was not at the
        # final location: the first round start there.
        codes = [tuple(o.code()) for o in replay.history]
        assert codes == list(game.decisions[: len(codes)])
        finals = [row["final"] for row in game.rows]
        assert len(game.rows) - sum(finals) == st.round - 1
    assert 5 <= arrived < len(games)  # some arrived, some did not: both branches ran


@pytest.mark.parametrize("strategy", ["rules", "mcts:iterations=8,horizon=1"])
def test_the_files_own_strategy_and_key_play_on_as_stored(tmp_path: Path, strategy: str) -> None:
    script = _script()
    config, games = _stored(_file(tmp_path, strategy, 12 if strategy == "rules" else 3))
    outcomes = [script.play_on(g, config.seed, strategy, TEST_BOT_KEY) for g in games]
    played = [(g.index, g.won) for g, out in zip(games, outcomes, strict=True) if out is not None]
    assert played, "no game reached the final location: choose other seeds"
    assert [(out[0], out[2]) for out in outcomes if out is not None] == played


def test_a_run_is_kept_goes_on_and_pairs_the_entries(tmp_path: Path) -> None:
    script = _script()
    path = _file(tmp_path, "rules", 16)
    _, games = _stored(path)
    results = tmp_path / "results.db"
    entries = ["as played", "random"]
    table = script.run(path, results, entries, workers=1)
    arrived = {g.index: g.won for g in games if any(row["final"] for row in g.rows)}
    # The file's own strategy is not played again: its stored outcomes stand.
    assert table["as played"] == arrived
    assert set(table["random"]) == set(arrived)
    # A random bot at the final location almost never wins: what a rules bot won there, it
    # mostly loses.
    assert sum(table["random"].values()) < max(1, sum(arrived.values()))
    with sqlite3.connect(results) as conn:
        rows = conn.execute("SELECT COUNT(*) FROM results WHERE entry = 'random'").fetchone()[0]
    assert rows == len(arrived)  # the games that never arrived are not played again
    # Run again: nothing is played, the same table comes back.
    assert script.run(path, results, entries, workers=1) == table
    # Another bot key on the same results would mix two runs: refused.
    with pytest.raises(SystemExit, match="bot key"):
        script.run(path, results, entries, bot_key=OTHER_KEY)


def test_the_report_counts_the_pairs() -> None:
    script = _script()
    a = {0: True, 1: True, 2: False, 3: False, 4: False, 5: True}
    b = {0: True, 1: False, 2: True, 3: True, 4: True, 5: True, 9: True}  # 9: not in A
    lines = script.report({"a": a, "b": b}, ["a", "b"])
    assert "| `a` | 6 | 3 | 50.0% |" in lines[2]
    assert "| `b` | 7 | 6 | 85.7% |" in lines[3]
    # Six shared games: only A won game 1, only B won games 2, 3 and 4; McNemar's exact p
    # for 1 against 3 is 2 * (1 + 3) / 16 = 0.625; B - A = 5/6 - 3/6.
    pair = lines[-1]
    assert pair.startswith("| `a` | `b` | 6 | 1 | 3 | +33.3 |")
    assert pair.endswith("| 0.625 |")


def test_each_game_played_on_keeps_its_decisions_and_time(tmp_path: Path) -> None:
    script = _script()
    path = _file(tmp_path, "rules", 8)
    results = tmp_path / "results.db"
    table = script.run(path, results, ["random"], workers=1)
    with sqlite3.connect(results) as conn:
        rows = conn.execute("SELECT won, decisions, seconds FROM results").fetchall()
    played = [r for r in rows if r[0] is not None]
    assert len(played) == len(table["random"]) > 0
    assert all(d > 0 and s >= 0 for _, d, s in played)
    cost = script.cpu_per_decision(results)
    assert set(cost) == {"random"}
    total = sum(s for _, _, s in played) / sum(d for _, d, _ in played)
    assert cost["random"] == pytest.approx(total)


def test_ctrl_c_keeps_what_finished_and_the_same_command_goes_on(tmp_path: Path) -> None:
    path = _file(tmp_path, "rules", 40)
    results = tmp_path / "results.db"
    script = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "final_play.py")
    command = [sys.executable, script, str(path), str(results), "-e", "mcts:iterations=8,horizon=1"]
    # Started as a shell starts a program: a test run launched in the background ignores
    # SIGINT, its children inherit that, and Python then raises no KeyboardInterrupt.
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_a_shell_starts_it,
    )
    deadline = time.monotonic() + 120
    stored = 0
    while stored < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        try:
            with sqlite3.connect(results) as conn:
                stored = conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        except sqlite3.OperationalError:
            stored = 0  # the table is being made
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert err.splitlines()[-1] == (
        f"Interrupted: {results} keeps what finished; the same command goes on."
    )
    with sqlite3.connect(results) as conn:
        kept = conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    _, games = _stored(path)
    arrivals = sum(any(row["final"] for row in g.rows) for g in games)
    assert 2 <= kept < arrivals
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(results) as conn:
        assert conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == arrivals


def test_at_a_named_location_the_game_starts_at_its_first_round_there(tmp_path: Path) -> None:
    script = _script()
    path = _file(tmp_path, "rules", 20)
    config, games = _stored(path)
    # The location most of these games met, of those some did not meet.
    names = {k[3:] for g in games for row in g.rows for k in row if k.startswith("at ")}
    met = {name: sum(script.arrived(g, name) for g in games) for name in names}
    at = max((n, name) for name, n in met.items() if n < len(games))[1]
    assert met[at] > 0
    for game in games:
        replay = script.arrival(game, config.seed, at)
        assert (replay is not None) == script.arrived(game, at)
        if replay is None:
            continue
        st = replay.state
        assert replay.table.locations[st.location].name == at
        assert st.phase == "choose_actions"
        before = [row for row in game.rows if row.get(f"at {at}")]
        assert st.round == game.rows.index(before[0]) + 1  # its first round start there
        out = script.play_on(game, config.seed, "rules", TEST_BOT_KEY, at)
        assert out is not None and out[2] == game.won  # the own strategy, as stored
    with pytest.raises(SystemExit, match="no location is named 'Nowhere'"):
        script.run(path, tmp_path / "r.db", ["random"], at="Nowhere")
    results = tmp_path / "final.db"
    script.run(path, results, ["random"], games=2)
    with pytest.raises(SystemExit, match="played on from the final location, not " + at):
        script.run(path, results, ["random"], games=2, at=at)


def test_two_worker_processes_give_what_one_gives(tmp_path: Path) -> None:
    script = _script()
    path = _file(tmp_path, "rules", 16)
    one = script.run(path, tmp_path / "one.db", ["random", "rules"], workers=1, bot_key=OTHER_KEY)
    command = [
        sys.executable,
        str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "final_play.py"),
        *(str(path), str(tmp_path / "two.db"), "-e", "random", "-e", "rules"),
        *("--workers", "2", "--bot-key", OTHER_KEY),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(tmp_path / "two.db") as conn:
        rows = conn.execute("SELECT entry, game, won FROM results").fetchall()
    two: dict[str, dict[int, bool]] = {}
    for entry, game, won in rows:
        two.setdefault(entry, {})[game] = bool(won)
    assert two == one and set(one) == {"random", "rules"}


def test_a_file_that_is_not_a_positions_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_text("not a database", encoding="utf-8")
    script = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "final_play.py")
    for path in (bad, tmp_path / "missing.db"):
        command = [sys.executable, script, str(path), str(tmp_path / "r.db"), "-e", "random"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert done.returncode == 1
        assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"error: {path}: ")
