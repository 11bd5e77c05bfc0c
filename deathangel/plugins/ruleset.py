"""A ruleset: the cards and abilities a game is played with — the base game plus plugins.

Simulations of the base game use :func:`deathangel.cards.load.load_base` (installed plugins
never change their results). A game *with* expansions uses :func:`load_ruleset`, which gathers
every installed plugin's card files, effect declarations and effect implementations through
the hooks of :mod:`deathangel.plugins.hookspecs`, checks them together, and builds the
abilities once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pluggy
from attrs import frozen

from deathangel.cards.catalogue import EffectCatalogue, EffectSpec
from deathangel.cards.load import load_database
from deathangel.cards.model import CardDatabase
from deathangel.engine.abilities import Abilities
from deathangel.engine.effects.dispatch import CardAbilities
from deathangel.errors import PluginError
from deathangel.plugins.manager import plugin_manager


def plugin_card_dirs(pm: pluggy.PluginManager | None = None) -> list[Path]:
    """Card directories of the base game and every plugin, base game first."""
    if pm is None:
        from deathangel.plugins.manager import plugin_manager

        pm = plugin_manager()
    # pluggy calls the most recently registered plugin first; registration order is wanted.
    results: list[Sequence[Path]] = list(reversed(pm.hook.deathangel_card_dirs()))
    return [Path(d) for group in results for d in group]


def plugin_catalogue(pm: pluggy.PluginManager | None = None) -> EffectCatalogue:
    """The effect catalogue of the base game and every plugin."""
    if pm is None:
        from deathangel.plugins.manager import plugin_manager

        pm = plugin_manager()
    results: list[Sequence[EffectSpec]] = list(reversed(pm.hook.deathangel_effects()))
    try:
        return EffectCatalogue(spec for group in results for spec in group)
    except ValueError as exc:
        raise PluginError(str(exc)) from exc


@frozen
class Ruleset:
    """Cards and their abilities, checked together; share one across many games."""

    db: CardDatabase
    """Every card of the base game and the plugins."""
    abilities: Abilities[Any]
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
