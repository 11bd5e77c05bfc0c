"""The PettingZoo environment: PettingZoo's own API and seed tests, one agent per seat, shared
rewards, and a seat never seeing another's face-down card before the reveal."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from plugin_kit import shipped_ruleset

from deathangel.engine.decisions import CHOOSE_ACTION
from deathangel.learning import aec_env
from deathangel.learning.actions import IllegalActionError
from deathangel.learning.encoding import FIELDS
from deathangel.learning.pettingzoo_env import raw_env

# PettingZoo's checker warns about dict observations for every environment that is not one
# of its own classic games (it lists theirs by name); ours are the classic games' form.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning"),
]


@pytest.mark.parametrize("players", [1, 3, 6])
def test_pettingzoo_api_test_passes(players: int) -> None:
    api_test(aec_env(players=players), num_cycles=200)


def test_pettingzoo_api_test_passes_with_a_plugin() -> None:
    api_test(aec_env(players=2, ruleset=shipped_ruleset("broodwake")), num_cycles=200)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(partial(aec_env, players=3), num_cycles=100)


def test_agents_are_the_seats_and_turns_follow_the_engine() -> None:
    env = raw_env(players=4)
    env.reset(seed=2)
    assert env.possible_agents == ["seat_0", "seat_1", "seat_2", "seat_3"]
    for _ in range(40):
        game = env.game
        assert game is not None and game.decision is not None
        assert env.agent_selection == f"seat_{game.decision.seat - 1}"
        obs = env.observe(env.agent_selection)
        for other in env.agents:
            if other != env.agent_selection:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def chosen_column(env: raw_env, agent: str) -> Any:
    """The ``chosen`` column of the ``cards`` field in ``agent``'s observation."""
    enc = env.core.encoder
    field = enc.fields[FIELDS.index("cards")]
    vector = env.observe(agent)["observation"]
    cards = vector[field.offset : field.offset + field.size].reshape(field.shape)
    return cards[:, field.columns["chosen"][0]]


def test_a_seat_never_sees_another_face_down_card_before_the_reveal() -> None:
    env = raw_env(players=3)
    env.reset(seed=4)
    game = env.game
    assert game is not None and game.decision is not None
    assert game.decision.kind == CHOOSE_ACTION and env.agent_selection == "seat_0"
    first = env.observe("seat_0")
    env.step(int(np.flatnonzero(first["action_mask"])[0]))
    # Seat 1 has chosen for its first team: it knows; seats 2 and 3 do not.
    assert chosen_column(env, "seat_0").sum() == 1
    assert chosen_column(env, "seat_1").sum() == 0
    assert chosen_column(env, "seat_2").sum() == 0
    while game.state.choices_hidden():
        agent = env.agent_selection
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    # Revealed: every seat sees every card played this round.
    revealed = {f"seat_{s}": chosen_column(env, f"seat_{s}").sum() for s in range(3)}
    assert revealed == dict.fromkeys(revealed, 6)


def test_rewards_are_shared_and_everyone_terminates() -> None:
    env = aec_env(players=2, reward="progress")
    env.reset(seed=9)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    assert not env.agents
    assert totals["seat_0"] == totals["seat_1"] > 0  # the travel bonus, shared


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = raw_env(players=2)
    env.reset(seed=1)
    assert env.game is not None
    before = env.game.to_save()
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError, match="is not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.game.to_save() == before
