"""The base game, registered through the same hooks an expansion uses."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from deathangel.cards.catalogue import BASE_EFFECTS, EffectSpec
from deathangel.cards.load import base_card_dir
from deathangel.cards.manifest import Manifest
from deathangel.plugins.hookspecs import API_VERSION, hookimpl


@hookimpl
def deathangel_manifest() -> Manifest:
    return Manifest(api=API_VERSION, title="Space Hulk: Death Angel", summary="The base game.")


@hookimpl
def deathangel_card_dirs() -> Sequence[Path]:
    return [base_card_dir()]


@hookimpl
def deathangel_effects() -> Sequence[EffectSpec]:
    return BASE_EFFECTS


@hookimpl
def deathangel_strategies() -> dict[str, Callable[..., Any]]:
    from deathangel.players import RandomPlayer, RulesPlayer
    from deathangel.players.search.mcts import mcts, mcts_strong

    return {"random": RandomPlayer, "rules": RulesPlayer, "mcts": mcts, "mcts-strong": mcts_strong}
