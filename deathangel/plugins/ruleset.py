"""A ruleset from plugins: the base game plus the expansions and variants a game names.

:func:`load_ruleset` is the one way a game gets expansions: ``load_ruleset(with_=("hive",),
variants=[("defence", "easier")])`` imports the named plugins only, gathers their card files
(merged as their manifests say), effect declarations and implementations and variants
through the hooks of :mod:`deathangel.plugins.hookspecs`, checks them together, and builds
the abilities and rule switches once. Every problem is one line naming the plugin (and the
file, card and field for a card). With nothing named it is the base game, shared with
:func:`deathangel.cards.load.load_base`, so base-game results never depend on what happens to
be installed.

:func:`ruleset_for` rebuilds the ruleset a saved game's config records, refusing a plugin
that is missing or at another version.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from deathangel.cards.catalogue import EffectCatalogue, EffectSpec
from deathangel.cards.load import load_base, load_database, read_source
from deathangel.cards.manifest import CardSource
from deathangel.cards.model import CardDatabase
from deathangel.engine.effects.dispatch import CardAbilities
from deathangel.engine.game import GameConfig, card_abilities
from deathangel.engine.ruleset import Ruleset
from deathangel.errors import CardDataError, DeathAngelError, PluginError
from deathangel.plugins.manager import BASE, PluginManager, installed_plugins, plugin_manager
from deathangel.plugins.variants import (
    ChosenVariants,
    VariantError,
    VariantSpec,
    parse_variant,
    resolve_variants,
    variant_specs,
)

__all__ = ["Ruleset", "load_ruleset", "ruleset_for"]

VariantsArg = Iterable[str] | Iterable[tuple[str, str]] | Mapping[str, str]
"""Variants as ``--variant`` texts (``"defence=easier"``), ``(name, value)`` pairs, or a
mapping from name to value."""


def plugin_card_dirs(pm: PluginManager | None = None) -> list[Path]:
    """Card directories of the base game and the manager's plugins, base game first."""
    pm = pm if pm is not None else plugin_manager()
    dirs: list[Path] = []
    for name, plugin in pm.plugins():
        found: Sequence[Path] = pm.call(name, plugin, "deathangel_card_dirs", ())
        dirs += [Path(d) for d in found]
    return dirs


def plugin_catalogue(pm: PluginManager | None = None) -> EffectCatalogue:
    """The effect catalogue of the base game and the manager's plugins.

    :raises PluginError: naming both plugins when two declare one name.
    """
    pm = pm if pm is not None else plugin_manager()
    catalogue = EffectCatalogue(())
    owner: dict[str, str] = {}
    for name, plugin in pm.plugins():
        specs: Sequence[EffectSpec] = pm.call(name, plugin, "deathangel_effects", ())
        for spec in specs:
            if not isinstance(spec, EffectSpec):
                raise PluginError(
                    f"plugin {pm.label(name)}: deathangel_effects gave "
                    f"{type(spec).__name__}, not an EffectSpec"
                )
            if spec.name in owner:
                raise PluginError(
                    f"plugin {pm.label(name)}: effect {spec.name!r} is already declared by "
                    f"plugin {owner[spec.name]!r}"
                )
            owner[spec.name] = name
            catalogue.add(spec)
    return catalogue


def plugin_variants(pm: PluginManager) -> dict[str, tuple[str, VariantSpec]]:
    """The variants the manager's plugins offer, by name, with the plugin offering each."""
    offered = [
        (name, pm.call(name, plugin, "deathangel_variants", ())) for name, plugin in pm.plugins()
    ]
    try:
        return variant_specs(offered)
    except VariantError as exc:
        raise PluginError(str(exc)) from None


def card_sources(pm: PluginManager) -> list[CardSource]:
    """Each plugin's card files, read one by one, with its manifest's deck joins.

    :raises PluginError: naming the plugin, then the file, card and field of a bad card.
    """
    sources = []
    for name, plugin in pm.plugins():
        found: Sequence[Path] = pm.call(name, plugin, "deathangel_card_dirs", ())
        dirs = [Path(d) for d in found]
        manifest = pm.manifests.get(name)
        try:
            sources.append(read_source(name, dirs, manifest.decks if manifest else None))
        except CardDataError as exc:
            raise PluginError(f"plugin {pm.label(name)}: {exc}") from None
    return sources


def _variant_pairs(variants: VariantsArg) -> list[tuple[str, str]]:
    if isinstance(variants, Mapping):
        return [(str(k), "" if v is None else str(v)) for k, v in variants.items()]
    pairs: list[tuple[str, str]] = []
    for item in variants:
        pairs.append(parse_variant(item) if isinstance(item, str) else (item[0], item[1]))
    return pairs


def load_ruleset(
    with_: Iterable[str] = (),
    *,
    variants: VariantsArg = (),
    extra: Iterable[object] = (),
    pm: PluginManager | None = None,
) -> Ruleset:
    """The base game with the plugins named in ``with_`` (in that order), ``extra`` plugin
    objects and the rule ``variants`` chosen.

    Built once per process for each choice of plugins and variants (a ruleset is immutable);
    with nothing named it is the base game's own database and abilities.

    :raises PluginError: for a plugin that is not installed, fails to load, or offers
        something invalid (naming it, and the file, card and field of a bad card).
    :raises VariantError: for an unknown variant or a bad value.
    """
    names = tuple(with_)
    pairs = tuple(_variant_pairs(variants))
    extras = tuple(extra)
    if pm is None and not extras:
        return _cached_ruleset(names, pairs)
    return _build(pm if pm is not None else plugin_manager(names, extra=extras), pairs)


@functools.lru_cache(maxsize=16)
def _cached_ruleset(names: tuple[str, ...], pairs: tuple[tuple[str, str], ...]) -> Ruleset:
    if not names and not pairs:
        db = load_base()
        return Ruleset(db=db, abilities=card_abilities(db))
    return _build(plugin_manager(names), pairs)


def _build(pm: PluginManager, pairs: Sequence[tuple[str, str]]) -> Ruleset:
    catalogue = plugin_catalogue(pm)
    chosen: ChosenVariants = resolve_variants(pairs, plugin_variants(pm))
    sources = card_sources(pm)
    try:
        db = load_database([], catalogue=catalogue, sources=sources, remove=chosen.remove)
    except CardDataError as exc:
        # A card that does not fit with another plugin's, or a variant's removal.
        raise PluginError(f"{plugins_text(pm)}: {exc}") from None
    _check_final_location(db, chosen)
    implementations, owners = plugin_implementations(pm)
    labels = {effect: pm.label(name) for effect, name in owners.items()}
    try:
        abilities = CardAbilities.with_implementations(db, catalogue, implementations, labels)
    except CardDataError as exc:
        raise PluginError(f"{plugins_text(pm)}: {exc}") from None
    return Ruleset(
        db=db,
        abilities=abilities,
        switches=chosen.switches,
        plugins=tuple((name, pm.infos[name].version) for name, _ in pm.plugins() if name != BASE),
        variants=chosen.choices,
        plugin_manager=pm,
    )


def plugin_implementations(
    pm: PluginManager,
) -> tuple[dict[str, Callable[..., Any]], dict[str, str]]:
    """Every effect implementation the manager's plugins give, and which plugin gives each.

    :raises PluginError: when two plugins implement one effect.
    """
    implementations: dict[str, Callable[..., Any]] = {}
    owners: dict[str, str] = {}
    for name, plugin in pm.plugins():
        impls: Mapping[str, Callable[..., Any]] = pm.call(
            name, plugin, "deathangel_effect_implementations", {}
        )
        for effect, impl in impls.items():
            if effect in implementations:
                raise PluginError(
                    f"plugin {pm.label(name)}: effect {effect!r} is already implemented by "
                    f"plugin {owners[effect]!r}"
                )
            implementations[effect] = impl
            owners[effect] = name
    return implementations, owners


def plugins_text(pm: PluginManager) -> str:
    """Who to blame for a problem between cards: the one plugin, or every plugin named (the
    file in the message says which)."""
    names = [pm.label(name) for name, _ in pm.plugins() if name != BASE]
    if len(names) == 1:
        return f"plugin {names[0]}"
    return "with plugins " + ", ".join(names) if names else "base game"


def _check_final_location(db: CardDatabase, chosen: ChosenVariants) -> None:
    """A named final location must be a final location of the last deck every setup
    location's recipe ends with (RULES §3 step 3)."""
    final = chosen.switches.final_location
    if final is None:
        return
    decks = {setup.location_deck[-1] for setup in db.setup_locations}
    finals = [loc.name for loc in db.locations if loc.final and loc.deck in decks]
    if final not in finals:
        raise VariantError(
            f"{final!r} is not a final location; final locations: {', '.join(finals)}"
        )


def ruleset_for(config: GameConfig) -> Ruleset:
    """The ruleset a game's config records (its plugins, at their versions, and variants).

    :raises PluginError: one line, when a plugin is not installed or is at another version
        than the config records (a different card set would replay a different game).
    """
    if not config.plugins and not config.variants:
        return load_ruleset()
    installed = installed_plugins()
    for name, version in config.plugins:
        info = installed.get(name)
        if info is None:
            raise PluginError(
                f"the game was played with plugin {name!r} {version}, which is not installed"
            )
        if info.version != version:
            raise PluginError(
                f"the game was played with plugin {name!r} {version}; {info.version} is installed"
            )
    try:
        return load_ruleset([name for name, _ in config.plugins], variants=config.variants)
    except DeathAngelError as exc:
        raise PluginError(f"cannot rebuild the game's rules: {exc}") from None
