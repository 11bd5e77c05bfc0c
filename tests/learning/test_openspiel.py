"""The OpenSpiel game: loaded by name, its GameType as stated, OpenSpiel's own random
simulation test, clones, honest resampling, JSON states, and identical rewards."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest

import deathangel.learning.openspiel as spiel
from deathangel.errors import DeathAngelError, SaveFileError


def test_the_game_loads_by_name_with_its_type_stated() -> None:
    game = pyspiel.load_game("python_deathangel", {"players": 3})
    kind = game.get_type()
    assert kind.short_name == "python_deathangel"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.IDENTICAL
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (1, 6)
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 1144
    size = game.observation_tensor_shape()[0]
    assert game.information_state_tensor_shape() == [size]


@pytest.mark.parametrize("players", [1, 3])
def test_openspiel_random_simulation_test_passes(players: int) -> None:
    game = pyspiel.load_game("python_deathangel", {"players": players, "seed": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def play(state: spiel.DeathAngelState, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_clone_plays_on_exactly_as_its_original() -> None:
    game = pyspiel.load_game("python_deathangel", {"players": 2})
    state = game.new_initial_state()
    play(state, random.Random(1), 30)
    twin = state.clone()
    assert str(twin) == str(state)
    play(state, random.Random(2), 10_000)
    play(twin, random.Random(2), 10_000)
    assert str(twin) == str(state) and twin.returns() == state.returns()
    assert len(set(state.returns())) == 1  # identical rewards


def test_resampling_keeps_what_the_player_knows_and_changes_the_rest() -> None:
    game = pyspiel.load_game("python_deathangel", {"players": 3})
    state = game.new_initial_state(game_seed=8)
    play(state, random.Random(3), 40)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    deals = [state.resample_from_infostate(player, sampler) for _ in range(4)]
    hidden = {json.dumps(d.game.state.to_dict(d.game.table)["genestealer_deck"]) for d in deals}
    assert len(hidden) > 1  # the deck is dealt anew
    for deal in deals:
        assert deal.information_state_string(player) == state.information_state_string(player)
        assert deal.observation_tensor(player) == state.observation_tensor(player)
        assert deal.legal_actions() == state.legal_actions()
        copy = deal.clone()  # a resampled deal clones too (replayed from its seed)
        play(deal, random.Random(4), 5)
        play(copy, random.Random(4), 5)
        assert str(copy) == str(deal)


def test_states_are_saved_as_json_not_pickled() -> None:
    game = pyspiel.load_game("python_deathangel", {"players": 2})
    state = game.new_initial_state(game_seed=5)
    play(state, random.Random(6), 25)
    text = state.to_json()
    data = json.loads(text)
    assert data["config"]["seed"] == 5 and len(data["decisions"]) == 25
    again = game.state_from_json(text)
    assert str(again) == str(state)
    assert again.observation_tensor(0) == state.observation_tensor(0)
    with pytest.raises(DeathAngelError, match="to_json"):
        state.serialize()
    data["decisions"][3] = ["card", "Nothing"]
    with pytest.raises(SaveFileError, match="decision 4"):
        game.state_from_json(json.dumps(data))


def test_the_information_state_hides_another_seat_face_down_card() -> None:
    game = pyspiel.load_game("python_deathangel", {"players": 2})
    state = game.new_initial_state(game_seed=2)
    assert state.current_player() == 0
    state.apply_action(state.legal_actions()[0])
    mine = json.loads(state.information_state_string(0))["seen"]
    theirs = json.loads(state.information_state_string(1))["seen"]
    assert mine[0][2][0] == "card" and theirs[0][2] is None
    tensor = np.array(state.information_state_tensor(1))
    other = game.new_initial_state(game_seed=2)
    other.apply_action(other.legal_actions()[1])
    assert np.array_equal(tensor, np.array(other.information_state_tensor(1)))
    assert state.information_state_tensor(0) != other.information_state_tensor(0)
