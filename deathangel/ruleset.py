"""A ruleset: the cards and abilities a game is played with — the base game plus plugins.

Simulations of the base game use :func:`deathangel.cardload.load_base` (installed plugins
never change their results). A game *with* expansions uses :func:`load_ruleset`, which gathers
every installed plugin's card files, effect declarations and effect implementations through
the hooks of :mod:`deathangel.hookspecs`, checks them together, and builds the abilities once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pluggy
from attrs import frozen

from deathangel.abilities import Abilities
from deathangel.cardload import load_database, plugin_card_dirs, plugin_catalogue
from deathangel.cardmodel import CardDatabase
from deathangel.effects.dispatch import CardAbilities
from deathangel.errors import PluginError
from deathangel.plugins import plugin_manager


@frozen
class Ruleset:
    """Cards and their abilities, checked together; share one across many games."""

    db: CardDatabase
    """Every card of the base game and the plugins."""
    abilities: Abilities
    """Every card's ability, built once."""
    plugins: tuple[str, ...]
    """Names of the plugins that contributed, base game first."""


def load_ruleset(
    pm: pluggy.PluginManager | None = None, *, extra: Iterable[object] = ()
) -> Ruleset:
    """The base game with every installed plugin (and ``extra`` plugin objects).

    :raises CardDataError: for a bad card file (naming file, card and field).
    :raises PluginError: for a plugin that fails to load or implements an unknown or taken name.
    """
    if pm is None:
        pm = plugin_manager(extra=extra)
    catalogue = plugin_catalogue(pm)
    db = load_database(plugin_card_dirs(pm), catalogue=catalogue)
    implementations: dict[str, Callable[..., Any]] = {}
    registered = pm.list_name_plugin()  # registration order: base game first
    for name, plugin in registered:
        hook = getattr(plugin, "deathangel_effect_implementations", None)
        if hook is None:
            continue
        for effect, impl in hook().items():
            if effect in implementations:
                raise PluginError(f"plugin {name!r}: effect {effect!r} is implemented twice")
            implementations[effect] = impl
    abilities = CardAbilities.with_implementations(db, catalogue, implementations)
    return Ruleset(db=db, abilities=abilities, plugins=tuple(name for name, _ in registered))
