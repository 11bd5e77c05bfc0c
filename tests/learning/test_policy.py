"""A trained agent at a seat: the policy file's arithmetic by hand, its refusals in one line,
its honesty (arrays in, an index out, nothing shared with the game), and the strategy
``policy`` in a real tournament beside the bots."""

from __future__ import annotations

import json
import math
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from deathangel.analysis.simulate import play_game
from deathangel.engine.game import Game, GameConfig
from deathangel.errors import IllegalChoiceError
from deathangel.learning.encoding import ENCODING_VERSION, encoder
from deathangel.learning.policy import (
    FORMAT,
    FORMAT_VERSION,
    PolicyFileError,
    PolicyPlayer,
    load_policy,
)

BASE = encoder(Game(GameConfig(1, seed=0)).table)
"""The base game's encoder: its action table's digest and the encoding's size."""


def meta(**changes: Any) -> dict[str, Any]:
    base = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "action_table_digest": BASE.actions.digest(),
        "encoding_version": ENCODING_VERSION,
        "layers": 2,
        "activation": "relu",
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}


def write(path: Path, arrays: dict[str, Any], info: dict[str, Any]) -> Path:
    np.savez(path, meta=np.array(json.dumps(info)), **arrays)
    return path


def small(tmp_path: Path, activation: str = "relu", clip: float | None = 1.5) -> Path:
    """Two inputs, two hidden units, three actions, every number chosen to be worked by hand
    (see the test below)."""
    arrays = {
        "weight0": np.array([[1.0, 0.0], [0.0, 1.0]]),
        "bias0": np.array([0.0, 0.0]),
        "weight1": np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]),
        "bias1": np.array([0.0, 0.0, 1.8]),
        "obs_mean": np.array([0.0, 1.0]),
        "obs_var": np.array([4.0, 1.0]),
    }
    info = meta(activation=activation, obs_clip=clip, obs_epsilon=0.0)
    return write(tmp_path / "small.npz", arrays, info)


def test_the_network_by_hand(tmp_path: Path) -> None:
    """x = (1, 3) normalised: ((1 - 0) / sqrt 4, (3 - 1) / sqrt 1) = (0.5, 2), clipped at 1.5
    to (0.5, 1.5); relu keeps both; the logits are (0.5, 1.5, 1.8)."""
    policy = load_policy(small(tmp_path))
    x = np.array([1.0, 3.0], dtype=np.float32)
    assert policy(x, np.array([1, 1, 1])) == 2  # 1.8 is the highest
    assert policy(x, np.array([1, 1, 0])) == 1  # 1.5 of what is legal
    assert policy(x, np.array([1, 0, 0])) == 0  # the one legal action, whatever its logit
    # Unclipped, the second hidden unit is 2.0 and beats 1.8: the clip is applied.
    unclipped = load_policy(small(tmp_path, clip=None))
    assert unclipped(x, np.array([1, 1, 1])) == 1
    # tanh: (tanh 0.5, tanh 1.5) = (0.462, 0.905); the logits (0.462, 0.905, 1.8).
    assert load_policy(small(tmp_path, "tanh"))(x, np.array([1, 1, 0])) == 1
    # x = (-2, 1): normalised (-1, 0); relu (0, 0); logits (0, 0, 1.8); a tie of 0 and 0
    # goes to the lower index.
    assert policy(np.array([-2.0, 1.0]), np.array([1, 1, 0])) == 0


def lowest_first(tmp_path: Path, name: str = "low.npz", **changes: Any) -> Path:
    """A full-size one-layer policy whose logits are -index: the lowest legal index wins."""
    n = BASE.actions.size
    arrays = {"weight0": np.zeros((n, BASE.size)), "bias0": -np.arange(n, dtype=np.float64)}
    return write(tmp_path / name, arrays, meta(layers=1, **changes))


def test_a_seat_plays_what_the_file_rates_highest(tmp_path: Path) -> None:
    """At every decision of a real game, the lowest-first file picks the option with the
    lowest index in the action table among the legal ones."""
    player = PolicyPlayer(load_policy(lowest_first(tmp_path)))
    seen = []

    class Checked:
        def choose(self, observation: Any, decision: Any) -> Any:
            option = player.choose(observation, decision)
            legal = BASE.actions.legal(decision, observation.state.wounds)
            assert option == legal.option(min(legal.indices))
            seen.append(decision.kind)
            return option

    result = play_game(GameConfig(2, seed=5), [Checked(), Checked()])
    assert result.decisions == len(seen) > 20


def test_the_policy_gets_new_arrays_it_may_change(tmp_path: Path) -> None:
    """Honest information: the policy receives two arrays made for it alone, at every
    decision new ones. A policy that scribbles over them after choosing plays the same game
    as one that does not."""
    chosen = load_policy(lowest_first(tmp_path))
    received: list[Any] = []

    def scribbler(vector: Any, mask: Any) -> int:
        assert isinstance(vector, np.ndarray) and isinstance(mask, np.ndarray)
        action = chosen(vector, mask)
        received.extend((vector, mask))
        vector[:] = 99.0
        mask[:] = 1
        return action

    def played(policy: Any) -> list[str]:
        game = Game(GameConfig(1, seed=11))
        player = PolicyPlayer(policy)
        moves = []
        while (decision := game.decision) is not None:
            option = player.choose(game.observation(decision.seat), decision)
            moves.append(str(option))
            game.push(option)
        return moves

    assert played(scribbler) == played(chosen)
    assert len(received) > 40
    for i, one in enumerate(received):
        assert not any(np.shares_memory(one, other) for other in received[i + 1 :])


def test_an_illegal_index_names_itself(tmp_path: Path) -> None:
    game = Game(GameConfig(1, seed=3))
    decision = game.decision
    assert decision is not None
    player = PolicyPlayer(lambda vector, mask: int(np.flatnonzero(mask == 0)[0]), name="mine")
    with pytest.raises(IllegalChoiceError, match=r"^mine: chose action \d+ \(.+\), not legal"):
        player.choose(game.observation(decision.seat), decision)
    # Not whole numbers: named as they are, never as the index int() would make of them.
    for action, shown in ((0.5, "0.5"), (True, "True"), (np.True_, "np.True_"), ("0", "'0'")):
        odd = PolicyPlayer(lambda vector, mask, a=action: a, name="mine")
        with pytest.raises(IllegalChoiceError) as caught:
            odd.choose(game.observation(decision.seat), decision)
        assert str(caught.value).startswith(f"mine: chose action {shown}, not legal for ")
    # A whole number numpy hands over is an index like any other.
    legal = sorted(BASE.actions.legal(decision).indices)
    numpy_float = PolicyPlayer(lambda vector, mask: np.float64(legal[0]))
    assert numpy_float.choose(game.observation(1), decision) == BASE.actions.legal(decision).option(
        legal[0]
    )


def test_another_card_pool_is_refused_at_the_first_decision(tmp_path: Path) -> None:
    path = lowest_first(tmp_path, action_table_digest="0" * 64)
    game = Game(GameConfig(1, seed=3))
    decision = game.decision
    assert decision is not None
    with pytest.raises(PolicyFileError) as caught:
        PolicyPlayer(load_policy(path)).choose(game.observation(1), decision)
    assert str(caught.value) == (
        f"{path}: trained on another action table (digest 000000000000..., this game's cards "
        f"give {BASE.actions.digest()[:12]}...): play it with the cards and plugins it was "
        "trained with"
    )


def _file(tmp_path: Path, case: str) -> tuple[Path, str]:
    """A broken policy file and the line that refuses it."""
    path = tmp_path / f"{case}.npz"
    good = {"weight0": np.ones((3, 2)), "bias0": np.zeros(3)}
    one = meta(layers=1)
    if case == "garbage":
        path.write_bytes(b"not a zip at all")
        return path, "not a policy file (.npz of numpy arrays)"
    if case == "pickle":
        np.savez(path, meta=np.array([{"a": 1}], dtype=object))
        return path, "not a policy file (.npz of numpy arrays): Object arrays cannot be loaded"
    if case == "missing":
        write(path, {}, meta(layers=1))
        return path, "array 'weight0' is missing"
    if case == "chain":
        write(path, {**good, "weight1": np.ones((2, 4)), "bias1": np.zeros(2)}, meta())
        return path, "weight1 takes 4 inputs, but layer 0 gives 3"
    if case == "bias":
        write(path, {"weight0": np.ones((3, 2)), "bias0": np.zeros(2)}, one)
        return path, "bias0 has 2 numbers for weight0's 3 outputs"
    if case == "nan":
        write(path, {"weight0": np.full((3, 2), math.nan), "bias0": np.zeros(3)}, one)
        return path, "array 'weight0' holds a NaN or an infinity"
    if case == "format":
        write(path, good, meta(layers=1, format="something-else"))
        return path, "not a policy file: 'meta' has no format 'deathangel-policy'"
    if case == "version":
        write(path, good, meta(layers=1, version=2))
        return path, "policy file version 2; this deathangel reads version 1"
    if case == "encoding":
        write(path, good, meta(layers=1, encoding_version=-1))
        return path, (
            f"trained on encoding version -1; this deathangel encodes version {ENCODING_VERSION}"
        )
    if case == "activation":
        write(path, good, meta(layers=1, activation="sigmoid"))
        return path, "'meta' activation 'sigmoid' is not one of tanh, relu"
    if case == "extra":
        write(path, {**good, "weight7": np.ones((1, 1))}, one)
        return path, "unknown array(s) weight7"
    if case == "statistics":
        write(path, {**good, "obs_mean": np.zeros(5), "obs_var": np.ones(5)}, one)
        return path, "obs_mean and obs_var must have 2 numbers (the first layer's inputs)"
    raise AssertionError(case)


CASES = [
    "garbage",
    "pickle",
    "missing",
    "chain",
    "bias",
    "nan",
    "format",
    "version",
    "encoding",
    "activation",
    "extra",
    "statistics",
]


@pytest.mark.parametrize("case", CASES)
def test_a_broken_file_is_one_line_naming_it(tmp_path: Path, case: str) -> None:
    path, words = _file(tmp_path, case)
    with pytest.raises(PolicyFileError) as caught:
        load_policy(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {words}")
    assert "\n" not in message


def deathangel(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _games(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT entry, game, seed, outcome, rounds, decisions, locations_reached FROM games "
            "ORDER BY entry, game"
        ).fetchall()


@pytest.mark.long
def test_a_tournament_seats_the_policy_beside_a_bot(tmp_path: Path) -> None:
    """The strategy ``policy`` from the command line: refused without ``--with policy`` in
    one line saying so; with it, its games are stored and reported; a corrupt file is
    refused before any game is played."""
    lowest_first(tmp_path)
    entries = ["-e", "random", "-e", "policy:model=low.npz", "-p", "1", "-n", "3"]
    entries += ["--bot-key", "0123456789abcdef0123456789abcdef", "--workers", "0"]
    without = deathangel("tournament", *entries, "--db", "a.db", cwd=tmp_path)
    assert without.returncode == 1
    assert without.stderr.endswith("(the installed plugin 'policy' offers it: add --with policy)\n")
    run = deathangel("tournament", "--with", "policy", *entries, "--db", "t.db", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "6/6 stored in t.db" in run.stdout
    assert "raised an error" not in run.stdout
    report = deathangel("report", "t.db", "--json", cwd=tmp_path)
    rows = json.loads(report.stdout)["entries"]
    assert {(row["entry"], row["games"]) for row in rows} == {
        ("random", 3),
        ("policy:model=low.npz", 3),
    }
    # In a process of its own, handed its seat's view as data, it plays the same games.
    alone = ["tournament", "--with", "policy", *entries, "--isolate", "--db", "i.db"]
    assert deathangel(*alone, cwd=tmp_path).returncode == 0
    assert _games(tmp_path / "i.db") == _games(tmp_path / "t.db")
    # Trained on other cards: refused before any game, in one line.
    lowest_first(tmp_path, "other.npz", action_table_digest="0" * 64)
    other = ["-e", "policy:model=other.npz", "-p", "1", "-n", "3", "--db", "o.db"]
    refused = deathangel("tournament", "--with", "policy", *other, cwd=tmp_path)
    assert refused.returncode == 1
    assert re.fullmatch(
        r"error: strategy 'policy:model=other\.npz': \S*other\.npz: trained on another "
        r"action table \(digest "
        rf"000000000000\.\.\., this game's cards give {BASE.actions.digest()[:12]}\.\.\.\): "
        r"play it with the cards and plugins it was trained with\n",
        refused.stderr,
    )
    assert not (tmp_path / "o.db").exists()
    (tmp_path / "bad.npz").write_bytes(b"nonsense")
    bad = ["-e", "policy:model=bad.npz", "-p", "1", "-n", "3", "--db", "b.db"]
    broken = deathangel("tournament", "--with", "policy", *bad, cwd=tmp_path)
    assert broken.returncode == 1
    assert broken.stderr.startswith("error: strategy 'policy:model=bad.npz': bad.npz: not a ")
    assert len(broken.stderr.splitlines()) == 1
    assert not (tmp_path / "b.db").exists()


def test_the_strategy_list_says_how_to_seat_a_policy(tmp_path: Path) -> None:
    """``strategies list`` names the plugin a game needs for ``policy`` and shows that its
    file has no default (not the '.' an empty path would print)."""
    listed = deathangel("strategies", "list", "--json", cwd=tmp_path)
    row = next(r for r in json.loads(listed.stdout) if r["name"] == "policy")
    assert (row["plugin"], row["needs"]) == ("policy", "--with policy")
    assert [(p["name"], p["kind"], p["default"]) for p in row["parameters"]] == [
        ("model", "path", None)
    ]
    wide = subprocess.run(
        [sys.executable, "-m", "deathangel", "strategies", "list"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "400"},
    )
    assert re.search(
        r"^policy — .*\n  from policy, needs --with policy; parameters as policy:key=value,\.\.\.\n"
        r"  model +path, no default +the policy file \(\.npz\) to play",
        wide.stdout,
        re.M,
    ), wide.stdout
    assert "default '.'" not in wide.stdout


def test_an_environment_seats_a_policy_file_at_the_other_seats(tmp_path: Path) -> None:
    """``others="policy:model=FILE"`` with the plugin named: the agent's partner is the file,
    which plays (by its lowest-first rule) exactly the game a PolicyPlayer at that seat plays."""
    import gymnasium

    import deathangel.learning  # noqa: F401  (registers the id)

    path = lowest_first(tmp_path)
    env = gymnasium.make(
        "deathangel/DeathAngel-v0",
        players=2,
        seats=[1],
        others=f"policy:model={path}",
        plugins=["policy"],
    )
    _, info = env.reset(seed=0, options={"game_seed": 21})
    terminated = False
    while not terminated:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, _, info = env.step(int(legal[-1]))
    played = env.unwrapped.game
    assert played is not None
    # The same game again, seat 2 by a PolicyPlayer, seat 1 by the agent's rule.
    player = PolicyPlayer(load_policy(path))
    game = Game(GameConfig(2, seed=21))
    while (decision := game.decision) is not None:
        observation = game.observation(decision.seat)
        if decision.seat == 2:
            option = player.choose(observation, decision)
        else:
            legal_now = BASE.actions.legal(decision, observation.state.wounds)
            option = legal_now.option(max(legal_now.indices))
        game.push(option)
    assert game.outcome is not None
    # The same decisions, one by one (the configs differ only by the plugin named).
    assert game.to_save()["decisions"] == played.to_save()["decisions"]


def test_every_command_refuses_other_cards_before_the_first_game(tmp_path: Path) -> None:
    """A policy file trained on other cards is refused when the seats are made, by the
    player protocol's ``check_table`` hook: ``simulate`` and ``check`` call no progress (no
    game is played), an environment refuses to be made, ``play`` saves nothing. (Without the
    hook each would fail, or record a fault, game by game at the first decision.)"""
    from deathangel.analysis.check import check_games
    from deathangel.analysis.simulate import simulate
    from deathangel.learning.gym_env import DeathAngelEnv
    from deathangel.plugins.ruleset import load_ruleset
    from deathangel.plugins.strategies import strategies
    from deathangel.tui.play import make_bots

    path = lowest_first(tmp_path, "other.npz", action_table_digest="0" * 64)
    spec = f"policy:model={path}"
    ruleset = load_ruleset(["policy"])
    found = strategies(ruleset.plugin_manager)
    key = "0123456789abcdef0123456789abcdef"
    words = f"{path}: trained on another action table"
    played: list[Any] = []
    with pytest.raises(PolicyFileError, match=re.escape(words)):
        simulate(1, 3, 0, spec, lambda *a: played.append(a), ruleset=ruleset, bot_key=key)
    with pytest.raises(PolicyFileError, match=re.escape(words)):
        check_games(
            ruleset,
            found,
            games=2,
            players=[1],
            strategies=[spec],
            bot_key=key,
            progress=lambda *a: played.append(a),
        )
    assert played == []
    with pytest.raises(PolicyFileError, match=re.escape(words)):
        DeathAngelEnv(players=2, seats=[1], others=spec, plugins=["policy"])
    game = Game(GameConfig(2, seed=4), ruleset=ruleset)
    with pytest.raises(PolicyFileError, match=re.escape(words)):
        make_bots(game, {1: "human", 2: f"bot:{spec}"}, key=key, pm=ruleset.plugin_manager)
    # The same file trained on these cards is taken by every one of them.
    good = lowest_first(tmp_path)
    assert simulate(1, 1, 0, f"policy:model={good}", ruleset=ruleset, bot_key=key).games == 1
    assert set(make_bots(game, {2: f"bot:policy:model={good}"}, key=key, pm=ruleset.plugin_manager))
    # From the command line: one line, nothing saved.
    run = deathangel(
        "play",
        "--with",
        "policy",
        "-p",
        "2",
        "--seat",
        f"2=bot:{spec}",
        "--save",
        "g.json",
        cwd=tmp_path,
    )
    assert run.returncode == 1
    assert run.stderr == (
        f"error: {words} (digest 000000000000..., this game's cards give "
        f"{BASE.actions.digest()[:12]}...): play it with the cards and plugins it was trained "
        "with\n"
    )
    assert not (tmp_path / "g.json").exists()
