"""The Gymnasium environment: the checker, masks, seeding, illegal actions, other seats' bots,
vector environments and the one line without the ``rl`` extra."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from plugin_kit import shipped_ruleset

import deathangel.learning
from deathangel.engine.game import Game, GameConfig
from deathangel.errors import DeathAngelError
from deathangel.learning.actions import IllegalActionError
from deathangel.learning.gym_env import DeathAngelEnv

ID = deathangel.learning.GYM_ID


def masked_random(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("players", [1, 4])
@pytest.mark.parametrize("plugin", [None, "broodwake"])
def test_gymnasium_checker_passes(players: int, plugin: str | None) -> None:
    """check_env steps unmasked samples (one drawn before ``reset(seed=123)``), so it runs
    with ``illegal="random"``: the mode for tools that do not read masks."""
    ruleset = shipped_ruleset(plugin) if plugin else None
    env = gymnasium.make(ID, players=players, ruleset=ruleset, illegal="random")
    check_env(env.unwrapped)
    flat = gymnasium.make(ID, players=players, flat=True, seats=(1,), illegal="random")
    check_env(flat.unwrapped)


def test_the_id_is_registered_and_also_loads_by_module_path() -> None:
    assert gymnasium.spec(ID).entry_point == "deathangel.learning.gym_env:DeathAngelEnv"
    env = gymnasium.make("deathangel.learning:deathangel/DeathAngel-v0", players=2)
    assert isinstance(env.unwrapped, DeathAngelEnv)


def test_masks_are_in_info_and_action_masks_and_say_what_is_legal() -> None:
    env = DeathAngelEnv(players=2)
    _, info = env.reset(seed=3)
    assert info["action_mask"].dtype == np.int8
    assert np.array_equal(info["action_mask"], env.action_masks())
    legal = env.legal
    assert legal is not None
    assert sorted(np.flatnonzero(env.action_masks()).tolist()) == sorted(legal.by_index)
    assert len(legal.by_index) == len(set(legal.decision.options))


def trajectory(env: DeathAngelEnv, seed: int, steps: int) -> list[Any]:
    """What an agent that always takes the lowest legal action sees for ``steps`` steps."""
    obs, info = env.reset(seed=seed)
    seen: list[Any] = [env.game_seed, obs.copy(), info["action_mask"].copy()]
    for _ in range(steps):
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, terminated, _, info = env.step(action)
        seen += [action, obs.copy(), reward, info["action_mask"].copy()]
        if terminated:
            break
    return seen


def same(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_the_same_seed_and_actions_give_the_same_trajectory() -> None:
    """Other seats' bots draw from their own streams, seeded from the environment's."""
    env = DeathAngelEnv(players=3, seats=(2,), others="random", flat=True)
    first = trajectory(env, seed=11, steps=60)
    again = trajectory(DeathAngelEnv(players=3, seats=(2,), others="random", flat=True), 11, 60)
    assert same(first, again)
    assert not same(first, trajectory(env, seed=12, steps=60))


def test_a_game_seed_option_plays_that_game() -> None:
    """``options={"game_seed": s}`` deals the game ``deathangel simulate --seed s`` plays."""
    env = DeathAngelEnv(players=1, flat=True)
    _, info = env.reset(seed=0, options={"game_seed": 42})
    assert env.game_seed == 42 and info["game_seed"] == 42
    assert env.game is not None
    dealt = Game(GameConfig(1, seed=42)).state
    assert env.game.state.to_dict(env.game.table) == dealt.to_dict(env.game.table)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = DeathAngelEnv(players=2)
    env.reset(seed=5)
    assert env.game is not None
    before = env.game.to_save()
    mask = env.action_masks()
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"action {illegal} \(.*\) is not legal"):
        env.step(illegal)
    for nonsense in ("attack", illegal + 0.5, True, np.True_):
        with pytest.raises(IllegalActionError, match=rf"^action {nonsense!r} is not an action"):
            env.step(nonsense)
    assert env.game.to_save() == before
    assert np.array_equal(env.action_masks(), mask)
    env.step(int(np.flatnonzero(mask)[0]))  # and play goes on
    assert len(env.game.history) == len(before["decisions"]) + 1


def test_other_seats_are_played_by_a_strategy() -> None:
    env = DeathAngelEnv(players=3, seats=(1,), others="rules", flat=True)
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    terminated = False
    while not terminated:
        assert info["seat"] == 1
        assert env.game is not None and env.game.decision is not None
        assert env.game.decision.seat == 1
        _, _, terminated, _, info = env.step(masked_random(info["action_mask"], rng))
    assert env.game is not None and env.game.outcome in ("victory", "defeat")
    with pytest.raises(DeathAngelError, match="reset"):
        env.step(0)


def test_a_masked_random_agent_plays_whole_games() -> None:
    """A few of the 10,000 episodes docs/examples/masked_random.py plays."""
    rng = np.random.default_rng(1)
    for players in (1, 2, 5):
        env = gymnasium.make(ID, players=players, reward="progress")
        for episode in range(3):
            _, info = env.reset(seed=episode)
            total = 0.0
            terminated = truncated = False
            steps = 0
            while not (terminated or truncated):
                _, reward, terminated, truncated, info = env.step(
                    masked_random(info["action_mask"], rng)
                )
                total += float(reward)
                steps += 1
            assert steps > 20 and not truncated
            game = env.unwrapped.game  # type: ignore[attr-defined]
            won = game.outcome == "victory"
            travels = info["locations_reached"] - 1
            # Progress: half a point spread over the location deck, plus 1 for a win.
            deck = len(game.state.setup_location.location_deck)
            assert total == pytest.approx(0.5 * travels / deck + (1.0 if won else 0.0))
            assert not info["action_mask"].any()  # nothing left to answer


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_environments_step_with_masks(mode: str) -> None:
    envs = gymnasium.make_vec(ID, num_envs=2, vectorization_mode=mode, players=1, flat=True)
    try:
        obs, infos = envs.reset(seed=7)
        assert obs.shape == (2, envs.single_observation_space.shape[0])
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(150):
            masks = infos["action_mask"]
            actions = [masked_random(m, rng) if m.any() else 0 for m in masks]
            obs, _, terminated, _, infos = envs.step(np.array(actions))
            ended += int(terminated.sum())
        assert ended >= 1  # solo games end within about 50 decisions
    finally:
        envs.close()


def test_bad_arguments_are_one_line_errors() -> None:
    with pytest.raises(DeathAngelError, match="players must be 1-6"):
        DeathAngelEnv(players=7)
    with pytest.raises(DeathAngelError, match="seats must be some of 1-2"):
        DeathAngelEnv(players=2, seats=(3,))
    with pytest.raises(DeathAngelError, match="reward must be one of win, progress"):
        DeathAngelEnv(reward="score")
    with pytest.raises(DeathAngelError, match="unknown strategy 'genius'"):
        DeathAngelEnv(players=2, seats=(1,), others="genius")


def test_render_shows_the_formation() -> None:
    env = DeathAngelEnv(players=1, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and "round 1" in text and "seat 1 to answer" in text


def test_without_the_extra_the_environments_name_it_in_one_line() -> None:
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import deathangel.learning\n"
        "try:\n"
        "    from deathangel.learning.gym_env import DeathAngelEnv\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout == (
        "MissingExtraError the learning environments need the 'rl' extra (gymnasium is not "
        "installed): pip install 'deathangel[rl]'\n"
    )
