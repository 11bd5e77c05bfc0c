"""Strategies by name: every player factory offered through the ``deathangel_strategies`` hook.

A seat is given a strategy by name anywhere a player is asked for (``--seat 2=bot:random``,
``simulate --strategy``); the names come from the base game and installed plugins alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deathangel.errors import DeathAngelError, PluginError

StrategyFactory = Callable[..., Any]
"""Called as ``factory(seed=int)``; returns a player (an object with ``choose``)."""


def strategy_factories(pm: Any = None) -> dict[str, StrategyFactory]:
    """Every strategy offered through the ``deathangel_strategies`` hook, by name.

    ``pm`` is a plugin manager (default: the base game plus installed plugins).

    :raises PluginError: when two plugins offer the same name.
    """
    if pm is None:
        from deathangel.plugins.manager import plugin_manager

        pm = plugin_manager()
    found: dict[str, StrategyFactory] = {}
    # pluggy calls the most recently registered plugin first; registration order is wanted.
    for offered in reversed(pm.hook.deathangel_strategies()):
        for name, factory in offered.items():
            if name in found and found[name] is not factory:
                raise PluginError(f"strategy {name!r} is offered by more than one plugin")
            found[name] = factory
    return found


def strategy_factory(name: str, pm: Any = None) -> StrategyFactory:
    """The factory registered under ``name``.

    :raises DeathAngelError: for an unknown name, listing the known ones.
    """
    factories = strategy_factories(pm)
    try:
        return factories[name]
    except KeyError:
        known = ", ".join(sorted(factories)) or "(none)"
        raise DeathAngelError(f"unknown strategy {name!r}; known strategies: {known}") from None
