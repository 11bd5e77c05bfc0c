"""deathangel: a simulator of the co-op card game Space Hulk: Death Angel.

The few names most users need are re-exported here, loaded on first use so that
``import deathangel`` (and the command line's start-up) stays cheap; everything else lives
in subpackages whose names say what they hold (see ``docs/architecture.md``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from deathangel.version import __version__

if TYPE_CHECKING:
    from deathangel.engine import Decision, Game, GameConfig, Observation, Option, new_game
    from deathangel.players import Player, RandomPlayer
    from deathangel.plugins import load_ruleset
    from deathangel.scenario import Scenario, load_scenario

_EXPORTS = {
    "Decision": "deathangel.engine",
    "Game": "deathangel.engine",
    "GameConfig": "deathangel.engine",
    "Observation": "deathangel.engine",
    "Option": "deathangel.engine",
    "new_game": "deathangel.engine",
    "Player": "deathangel.players",
    "RandomPlayer": "deathangel.players",
    "load_ruleset": "deathangel.plugins",
    "Scenario": "deathangel.scenario",
    "load_scenario": "deathangel.scenario",
}

__all__ = [
    "Decision",
    "Game",
    "GameConfig",
    "Observation",
    "Option",
    "Player",
    "RandomPlayer",
    "Scenario",
    "__version__",
    "load_ruleset",
    "load_scenario",
    "new_game",
]


def __getattr__(name: str) -> Any:
    """Import a re-exported name's subpackage the first time the name is asked for."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'deathangel' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
