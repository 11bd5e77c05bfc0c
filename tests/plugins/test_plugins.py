"""Expansions: the example plugin in plugins/ adds cards and a new mechanic through the hooks,
and a game with it plays through like the base game; broken plugins are named in errors."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest
from invariants import check_invariants
from support import build_state, drive, make_engine

from deathangel.cards.catalogue import EffectSpec
from deathangel.engine.game import Game, GameConfig
from deathangel.errors import CardDataError, PluginError
from deathangel.players import RandomPlayer
from deathangel.plugins.hookspecs import hookimpl
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
    rules = load_ruleset(plugin_manager(entry_points=False, extra=[example]))
    assert rules.plugins == ("base", "deathangel_example")
    counts = rules.db.counts()
    assert counts["events"] == 30 + 2
    names = [e.name for e in rules.db.events]
    assert "Vent Purge" in names and "Medicae Drop" in names


@pytest.mark.parametrize("players", range(1, 7))
def test_games_with_the_example_plugin_play_through(
    example: types.ModuleType, players: int
) -> None:
    rules = load_ruleset(plugin_manager(entry_points=False, extra=[example]))
    for seed in range(3):
        game = Game(GameConfig(players=players, seed=seed), db=rules.db, abilities=rules.abilities)
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
    rules = load_ruleset(plugin_manager(entry_points=False, extra=[example]))
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
    rogue = types.ModuleType("rogue_plugin")

    def deathangel_effect_implementations() -> dict[str, object]:
        return {"no_such_effect": lambda engine, params: iter(())}

    rogue.deathangel_effect_implementations = hookimpl(deathangel_effect_implementations)  # type: ignore[attr-defined]
    with pytest.raises(PluginError, match="no_such_effect"):
        load_ruleset(plugin_manager(entry_points=False, extra=[rogue]))


def test_a_misspelt_hook_is_named() -> None:
    typo = types.ModuleType("typo_plugin")

    def deathangel_card_dir() -> list[Path]:  # the spec is deathangel_card_dirs
        return []

    typo.deathangel_card_dir = hookimpl(deathangel_card_dir)  # type: ignore[attr-defined]
    with pytest.raises(PluginError, match="typo_plugin"):
        plugin_manager(entry_points=False, extra=[typo])


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
    broken = types.ModuleType("broken_plugin")

    def deathangel_card_dirs() -> list[Path]:
        return [tmp_path]

    broken.deathangel_card_dirs = hookimpl(deathangel_card_dirs)  # type: ignore[attr-defined]
    with pytest.raises(CardDataError) as caught:
        load_ruleset(plugin_manager(entry_points=False, extra=[broken]))
    message = str(caught.value)
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
    half = types.ModuleType("half_plugin")

    def deathangel_card_dirs() -> list[Path]:
        return [tmp_path]

    def deathangel_effects() -> list[EffectSpec]:
        return [EffectSpec("omen_unwritten", "event", {}, "declared, never implemented")]

    half.deathangel_card_dirs = hookimpl(deathangel_card_dirs)  # type: ignore[attr-defined]
    half.deathangel_effects = hookimpl(deathangel_effects)  # type: ignore[attr-defined]
    with pytest.raises(CardDataError, match=r"Silent Omen.*omen_unwritten.*no implementation"):
        load_ruleset(plugin_manager(entry_points=False, extra=[half]))
