"""docs/examples/imitate.py: what its ``collect`` records of a teacher, its shards, and its
refusal to mix data. (``fit`` needs torch, which no extra installs; it checks the file it
writes against the network itself.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
from example_kit import EXAMPLES, load_example

from deathangel.analysis.simulate import play_game
from deathangel.engine.decisions import Decision, Option
from deathangel.engine.game import Game, GameConfig
from deathangel.learning.encoding import encoder

ENC = encoder(Game(GameConfig(1, seed=0)).table)
KEY = "0123456789abcdef0123456789abcdef"


class Last:
    """A teacher that takes the last option, and remembers every decision it saw."""

    def __init__(self) -> None:
        self.seen: list[tuple[Decision, Option]] = []

    def choose(self, observation: Any, decision: Decision) -> Option:
        self.seen.append((decision, decision.options[-1]))
        return decision.options[-1]


def test_the_recorder_keeps_the_teachers_choices_where_there_was_a_choice() -> None:
    script = load_example("imitate")
    teacher = Last()
    recorder = script.Recorder(teacher, ENC)
    result = play_game(GameConfig(1, seed=11), [recorder])
    chosen = [(d, o) for d, o in teacher.seen if len(d.options) > 1]
    assert result.decisions == len(teacher.seen) >= len(chosen) > 20
    assert len(recorder.actions) == len(recorder.legal) == len(recorder.vectors) == len(chosen)
    for (decision, option), action, legal in zip(
        chosen, recorder.actions, recorder.legal, strict=True
    ):
        # The recorded index means the teacher's option in the action table, and the mask
        # holds exactly the decision's options.
        assert ENC.actions.describe(action) == ENC.actions.describe(legal[-1])
        assert len(legal) == len(decision.options)
        assert decision.options.index(option) == len(decision.options) - 1
    assert all(v.shape == (ENC.size,) and v.dtype == np.float32 for v in recorder.vectors)
    # A decision with one option is not a choice: nothing is recorded.
    game = Game(GameConfig(1, seed=11))
    decision = game.decision
    assert decision is not None
    only = decision._replace(options=decision.options[:1])
    assert recorder.choose(game.observation(1), only) == only.options[0]
    assert len(recorder.actions) == len(chosen)
    # The teacher's own attributes show through (a search's uses_forward_model).
    teacher.uses_forward_model = True  # type: ignore[attr-defined]
    assert recorder.uses_forward_model is True


def imitate(command: str, data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / "imitate.py"), command, str(data), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def collect(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return imitate("collect", data, *args)


def extract(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return imitate("extract", data, *args)


def test_collect_writes_shards_resumes_and_refuses_to_mix(tmp_path: Path) -> None:
    data = tmp_path / "d"
    args = ["--games", "5", "--shard", "2", "--workers", "1", "--bot-key", KEY]
    first = collect(data, *args)
    assert first.returncode == 0, first.stderr
    assert "0 of 3 shards of 2 games already" in first.stdout
    names = sorted(p.name for p in data.iterdir())
    assert names == ["data.json", "shard-00000.npz", "shard-00001.npz", "shard-00002.npz"]
    about = json.loads((data / "data.json").read_text())
    assert about["bot_key"] == KEY and about["teacher"] == "rules"
    assert about["action_table_digest"] == ENC.actions.digest()
    games = 0
    for name in names[1:]:
        with np.load(data / name, allow_pickle=False) as shard:
            masks = np.unpackbits(shard["masks"], axis=1, count=ENC.actions.size).astype(bool)
            actions = shard["actions"]
            assert len(actions) > 20
            assert masks[np.arange(len(actions)), actions].all()  # every action legal
            assert (masks.sum(axis=1) > 1).all()  # only decisions with a choice
            assert shard["vectors"].shape == (len(actions), ENC.size)
            games += len(shard["won"])
    assert games == 5
    # A shard lost (a run killed while writing it) is played again, the same.
    before = dict(np.load(data / "shard-00001.npz"))
    (data / "shard-00001.npz").unlink()
    again = collect(data, "--games", "5", "--shard", "2", "--workers", "1")
    assert again.returncode == 0, again.stderr
    assert "2 of 3 shards of 2 games already" in again.stdout
    after = dict(np.load(data / "shard-00001.npz"))
    assert sorted(before) == sorted(after)
    assert all(np.array_equal(before[k], after[k]) for k in before)
    # The whole data merges with each game numbered once, shard after shard.
    merged = load_example("imitate").load(data)
    assert merged["played"] == 5
    assert sorted(set(merged["games"].tolist())) == [0, 1, 2, 3, 4]
    assert merged["masks"].shape == (len(merged["actions"]), ENC.actions.size)
    # Other settings in the same folder are refused, in one line, and nothing is written.
    for other in (["--teacher", "random"], ["--seed", "3"], ["--bot-key", "f" * 32]):
        refused = collect(data, "--games", "5", "--shard", "2", *other)
        assert refused.returncode == 1
        assert refused.stderr.startswith(f"{data / 'data.json'}: ")
        assert len(refused.stderr.splitlines()) == 1
    assert sorted(p.name for p in data.iterdir()) == names


class First:
    def choose(self, observation: Any, decision: Decision) -> Option:
        return decision.options[0]


def test_with_a_student_the_student_plays_and_the_teacher_labels() -> None:
    """DAgger: the game is the student's (the same as the student alone plays it), and what
    is recorded at each of its decisions is what the teacher would have done there."""
    script = load_example("imitate")
    teacher = Last()
    recorder = script.Recorder(teacher, ENC, student=First())
    played = play_game(GameConfig(1, seed=12), [recorder])
    alone = play_game(GameConfig(1, seed=12), [First()])
    assert (played.outcome, played.rounds, played.decisions) == (
        alone.outcome,
        alone.rounds,
        alone.decisions,
    )
    chosen = [d for d, _ in teacher.seen if len(d.options) > 1]
    assert len(recorder.actions) == len(chosen) > 20
    for decision, action, legal in zip(chosen, recorder.actions, recorder.legal, strict=True):
        assert action == legal[-1] != legal[0]  # the teacher's, not the student's
        assert len(legal) == len(decision.options)


def test_extract_records_stored_games_as_collect_records_them(tmp_path: Path) -> None:
    """Games stored by ``value play`` (or in its archive), played again from their decisions,
    give exactly the shards that playing them with the same teacher and bot key records;
    only whole shards are written, and another file's games are refused in the same folder."""
    from deathangel.analysis.positions import (
        PositionsConfig,
        PositionStore,
        play_into,
        write_archive,
    )

    script = load_example("imitate")
    seed = 340000
    positions = tmp_path / "p.db"
    with PositionStore.open(positions, PositionsConfig("rules", (1,), seed, 5, KEY)) as store:
        play_into(store)
        write_archive(store, tmp_path / "games.json.gz")
    expected = tmp_path / "expected"
    expected.mkdir()
    for k in range(2):
        script.play_shard(str(expected), k, [seed + 2 * k, seed + 2 * k + 1], "rules", 1, KEY)
    for source in (positions, tmp_path / "games.json.gz"):
        data = tmp_path / source.name.replace(".", "-")
        result = extract(data, "--games", str(source), "--shard", "2")
        assert result.returncode == 0, result.stderr
        assert "2 in" in result.stdout and "(1 game(s) wait for a full shard)" in result.stdout
        assert sorted(p.name for p in data.iterdir()) == [
            "data.json",
            "shard-00000.npz",
            "shard-00001.npz",
        ]
        for k in range(2):
            got = dict(np.load(data / f"shard-{k:05d}.npz"))
            want = dict(np.load(expected / f"shard-{k:05d}.npz"))
            assert sorted(got) == sorted(want)
            assert all(np.array_equal(got[name], want[name]) for name in want), k
        about = json.loads((data / "data.json").read_text())
        assert (about["teacher"], about["bot_key"], about["players"]) == ("rules", KEY, 1)
    other = tmp_path / "other.db"
    with PositionStore.open(other, PositionsConfig("rules", (1,), seed + 9, 2, KEY)) as store:
        play_into(store)
    refused = extract(tmp_path / "p-db", "--games", str(other), "--shard", "2")
    assert refused.returncode == 1 and len(refused.stderr.splitlines()) == 1
    assert refused.stderr.startswith(f"{tmp_path / 'p-db' / 'data.json'}: this data came from")
