"""Lasting effects as typed values: their JSON form, reading it back (old saves included), and
what states and observations show of them."""

from __future__ import annotations

from typing import Any

import pytest
from support import TEST_BOT_KEY

from deathangel.engine.game import Game, GameConfig
from deathangel.engine.lasting import (
    ENTER_FORMATION,
    EVASION,
    GunJam,
    LastingEffect,
    LeadUsed,
    SecondWind,
    SpawnLimit,
    from_code,
)
from deathangel.engine.state import GameState
from deathangel.errors import SaveFileError
from deathangel.players import RandomPlayer
from deathangel.players.seeds import bot_seed

CODES: list[tuple[LastingEffect, list[Any]]] = [
    (GunJam("red"), ["gun_jam", "red"]),
    (SecondWind("Brother Leon"), ["second_wind", "Brother Leon"]),
    (EVASION, ["evasion"]),
    (ENTER_FORMATION, ["enter_formation"]),
    (LeadUsed("blue"), ["lead_used", "blue"]),
    (SpawnLimit("Door", 2), ["limit_spawn", "Door", 2]),
]


@pytest.mark.parametrize(("effect", "code"), CODES)
def test_each_effect_has_the_json_form_of_saves(effect: LastingEffect, code: list[Any]) -> None:
    assert effect.code() == code
    assert from_code(code) == effect
    assert from_code(tuple(code)) == effect


def test_values_compare_by_kind_and_arguments_and_repr_rebuilds_them() -> None:
    assert GunJam("red") == GunJam("red") and GunJam("red") != GunJam("blue")
    assert GunJam("red") != LeadUsed("red"), "same argument, other kind"
    assert SpawnLimit("Door", 2) != SpawnLimit("Door", 1)
    assert repr(SpawnLimit("Door", 2)) == "SpawnLimit(terrain='Door', left=2)"
    assert eval(repr(GunJam("red"))) == GunJam("red")


def test_numbers_saved_as_text_read_as_numbers() -> None:
    """Saves written before effects were typed hold ``["limit_spawn", "Door", "2"]``."""
    effect = from_code(["limit_spawn", "Door", "2"])
    assert effect == SpawnLimit("Door", 2)
    assert effect.code() == ["limit_spawn", "Door", 2]


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ([], "not an effect code"),
        ("gun_jam", "not an effect code"),
        ([3, "red"], "not an effect code"),
        (["jammed", "red"], "unknown effect 'jammed'"),
        (["gun_jam"], "takes 1 argument(s)"),
        (["evasion", "red"], "takes 0 argument(s)"),
        (["limit_spawn", "Door", "two"], "left must be a number"),
        (["limit_spawn", "Door", True], "left must be a number"),
        (["gun_jam", 3], "team must be text"),
    ],
)
def test_malformed_codes_are_refused_quoting_them(code: Any, words: str) -> None:
    with pytest.raises(ValueError) as info:
        from_code(code)
    assert words in str(info.value)
    assert repr(code) in str(info.value)


def test_a_state_copy_shares_the_values_but_not_the_lists() -> None:
    st = GameState()
    st.effects = [SpawnLimit("Door", 2)]
    st.next_effects = [GunJam("red")]
    new = st.copy()
    assert new.effects == st.effects and new.effects is not st.effects
    new.effects[0] = SpawnLimit("Door", 1)
    new.next_effects.append(EVASION)
    assert st.effects == [SpawnLimit("Door", 2)] and st.next_effects == [GunJam("red")]


def _game_with_a_spawn_limit() -> Game:
    """A two-player game of random bots at a decision while Core Cogitator's limit is in
    force (seed 52 with the test bot key reaches one, found by playing)."""
    game = Game(GameConfig(players=2, seed=52))
    bots = [RandomPlayer(seed=bot_seed(TEST_BOT_KEY, 52, seat)) for seat in (1, 2)]
    while not any(isinstance(e, SpawnLimit) for e in game.state.effects):
        decision = game.decision
        assert decision is not None, "the game ended before a spawn limit was in force"
        game.apply(bots[decision.seat - 1].choose(game.observation(decision.seat), decision))
    return game


def test_states_and_observations_show_numbers_as_numbers() -> None:
    game = _game_with_a_spawn_limit()
    (limit,) = [e for e in game.state.effects if isinstance(e, SpawnLimit)]
    code = ["limit_spawn", limit.terrain, limit.left]
    assert code in game.state.to_dict(game.table)["effects"]
    assert code in game.observation(1).to_dict()["effects"]


def test_an_old_save_with_numbers_as_text_still_loads() -> None:
    game = _game_with_a_spawn_limit()
    data = game.to_save()
    old = [[str(a) if isinstance(a, int) else a for a in c] for c in data["state"]["effects"]]
    assert old != data["state"]["effects"], "the save should hold a number to write as text"
    data["state"]["effects"] = old
    loaded = Game.from_save(data)
    assert loaded.state.effects == game.state.effects

    # A number that is wrong, written either way, is still refused.
    for wrong in ("9", 9):
        data["state"]["effects"] = [
            [c[0], c[1], wrong] if c[0] == "limit_spawn" else c for c in old
        ]
        with pytest.raises(SaveFileError, match="does not reach the state"):
            Game.from_save(data)
