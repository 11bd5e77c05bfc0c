"""Expansions: the example plugin in plugins/ adds cards and a new mechanic through the hooks,
and a game with it plays through like the base game; broken plugins are named in errors."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest
from plugin_kit import plugin_module
from support import build_state, drive, make_engine

from deathangel.cards.catalogue import EffectSpec
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.invariants import check_invariants
from deathangel.errors import PluginError
from deathangel.players import RandomPlayer
from deathangel.plugins.manager import plugin_manager
from deathangel.plugins.ruleset import load_ruleset

EXAMPLE = Path(__file__).resolve().parents[2] / "plugins" / "deathangel-example"


@pytest.fixture(scope="module")
def example() -> types.ModuleType:
    sys.path.insert(0, str(EXAMPLE))
    try:
        import deathangel_example
    finally:
        sys.path.remove(str(EXAMPLE))
    return deathangel_example


def test_example_plugin_adds_its_cards(example: types.ModuleType) -> None:
    rules = load_ruleset(extra=[example])
    assert rules.plugins == (("deathangel_example", "unversioned"),)
    counts = rules.db.counts()
    assert counts["events"] == 30 + 2
    names = [e.name for e in rules.db.events]
    assert "Vent Purge" in names and "Medicae Drop" in names


@pytest.mark.parametrize("players", range(1, 7))
def test_games_with_the_example_plugin_play_through(
    example: types.ModuleType, players: int
) -> None:
    rules = load_ruleset(extra=[example])
    for seed in range(3):
        game = Game(GameConfig(players=players, seed=seed), ruleset=rules)
        bot = RandomPlayer(seed)
        steps = 0
        while game.decision is not None:
            check_invariants(game)
            game.apply(bot.choose(game.observation(game.decision.seat), game.decision))
            steps += 1
            assert steps < 20_000
        check_invariants(game)
        assert game.outcome in ("victory", "defeat")


def test_medicae_drop_gives_tokens_top_to_bottom_while_the_supply_lasts(
    example: types.ModuleType,
) -> None:
    rules = load_ruleset(extra=[example])
    state = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R"), ("Sergeant Gideon", "R", 11)]
    )
    assert state.supply == 1
    engine = make_engine(state, abilities=rules.abilities)
    assert drive(example.medicae_drop(engine, {"amount": 1})) == []
    # Leon and Valencio both have fewer than 1; the one token left goes to the top marine.
    assert [p.marine.tokens for p in state.formation] == [1, 0, 11]
    assert state.supply == 0
    assert state.tokens_in_play() == 12


def test_an_implementation_of_an_undeclared_effect_is_refused() -> None:
    rogue = plugin_module(
        "rogue_plugin",
        deathangel_effect_implementations=lambda: {
            "no_such_effect": lambda engine, params: iter(())
        },
    )
    with pytest.raises(PluginError, match=r"rogue_plugin.*no_such_effect"):
        load_ruleset(extra=[rogue])


def test_a_misspelt_hook_is_named() -> None:
    # The spec is deathangel_card_dirs.
    typo = plugin_module("typo_plugin", deathangel_card_dir=lambda: [])
    with pytest.raises(PluginError, match=r"typo_plugin.*deathangel_card_dir"):
        plugin_manager(extra=[typo])


def test_a_broken_plugin_card_file_names_file_card_and_field(tmp_path: Path) -> None:
    (tmp_path / "events.toml").write_text(
        "[[event]]\n"
        'name = "Bad Omen"\n'
        "instinct = false\n"
        'spawns = [{ size = "minor", color = "blue" }]\n'
        'text = "x"\n'
        'effect = { name = "flip_all" }\n',
        encoding="utf-8",
    )
    broken = plugin_module("broken_plugin", deathangel_card_dirs=lambda: [tmp_path])
    with pytest.raises(PluginError) as caught:
        load_ruleset(extra=[broken])
    message = str(caught.value)
    assert "broken_plugin" in message
    assert "events.toml" in message and "Bad Omen" in message and "color" in message


def test_a_card_whose_effect_has_no_implementation_is_refused(tmp_path: Path) -> None:
    (tmp_path / "events.toml").write_text(
        "[[event]]\n"
        'name = "Silent Omen"\n'
        "instinct = false\n"
        'spawns = [{ size = "minor", color = "red" }]\n'
        'text = "Something that was never written."\n'
        'effect = { name = "omen_unwritten" }\n',
        encoding="utf-8",
    )
    half = plugin_module(
        "half_plugin",
        deathangel_card_dirs=lambda: [tmp_path],
        deathangel_effects=lambda: [
            EffectSpec("omen_unwritten", "event", {}, "declared, never implemented")
        ],
    )
    with pytest.raises(
        PluginError, match=r"half_plugin.*Silent Omen.*omen_unwritten.*no implementation"
    ):
        load_ruleset(extra=[half])
