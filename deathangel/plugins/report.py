"""What each installed plugin adds, and whether it loads: ``deathangel plugins list``.

Listing imports every installed plugin (it is the one place that should), each on its own
with the base game, so a broken plugin is reported by name beside the others rather than
stopping the list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import evolve, field, frozen

from deathangel.cards.catalogue import EffectSpec
from deathangel.cards.files import SECTIONS
from deathangel.errors import DeathAngelError
from deathangel.plugins.manager import PluginInfo, installed_plugins, plugin_manager
from deathangel.plugins.ruleset import card_sources, load_ruleset
from deathangel.plugins.variants import VariantSpec


@frozen
class PluginReport:
    """One installed plugin: what it says about itself and what it adds."""

    info: PluginInfo
    title: str = ""
    summary: str = ""
    api: int | None = None
    cards: dict[str, int] = field(factory=dict)
    """Cards of each kind its files hold (events with copies), kinds it has none of left out."""
    teams: tuple[str, ...] = ()
    enemies: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()
    strategies: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    """How each variant is written (``defence=easier|harder``)."""
    decks: dict[str, str] = field(factory=dict)
    """How its cards join each deck its manifest names (``replace: A, B``)."""
    error: str | None = None
    """Why it does not load with the base game, or ``None`` when it does."""

    @property
    def loads(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.info.name,
            "distribution": self.info.distribution,
            "version": self.info.version,
            "title": self.title,
            "summary": self.summary,
            "api": self.api,
            "cards": self.cards,
            "teams": list(self.teams),
            "enemies": list(self.enemies),
            "effects": list(self.effects),
            "strategies": list(self.strategies),
            "variants": list(self.variants),
            "decks": self.decks,
            "loads": self.loads,
            "error": self.error,
        }


def describe_plugins(names: Sequence[str] | None = None) -> list[PluginReport]:
    """A report for each installed plugin (or those in ``names``), in name order."""
    installed = installed_plugins()
    chosen = installed if names is None else {n: installed[n] for n in names if n in installed}
    return [describe_plugin(info, installed) for info in chosen.values()]


def describe_plugin(info: PluginInfo, installed: dict[str, PluginInfo]) -> PluginReport:
    """What one plugin adds, read through its own hooks, and whether a ruleset of the base
    game with it builds (its cards checked, its effects implemented, nothing clashing)."""
    try:
        pm = plugin_manager([info.name], installed=installed)
        plugin = pm.get_plugin(info.name)
        manifest = pm.manifests[info.name]
        source = next(s for s in card_sources(pm) if s.name == info.name)
        effects: Sequence[EffectSpec] = pm.call(info.name, plugin, "deathangel_effects", ())
        strategies: dict[str, Any] = pm.call(info.name, plugin, "deathangel_strategies", {})
        variants: Sequence[VariantSpec] = pm.call(info.name, plugin, "deathangel_variants", ())
    except DeathAngelError as exc:
        return PluginReport(info, error=str(exc))
    cards: dict[str, int] = {}
    for section in SECTIONS:
        items = [card for cf in source.files for card in getattr(cf, section.attr)]
        if section.attr == "events":
            count = sum(e.copies for e in items)
        elif section.attr == "enemies":
            count = sum(e.count for e in items)
        else:
            count = len(items)
        if count:
            cards[section.attr] = count
    icons = sum(sum(cf.genestealers.icons.values()) for cf in source.files if cf.genestealers)
    if icons:
        cards["genestealers"] = icons
    report = PluginReport(
        info,
        title=manifest.title,
        summary=manifest.summary,
        api=manifest.api,
        cards=cards,
        teams=tuple(t.color for cf in source.files for t in cf.teams),
        enemies=tuple(e.name for cf in source.files for e in cf.enemies),
        effects=tuple(spec.name for spec in effects if isinstance(spec, EffectSpec)),
        strategies=tuple(strategies),
        variants=tuple(v.usage() for v in variants if isinstance(v, VariantSpec)),
        decks={
            deck: join.mode + (f": {', '.join(join.replace)}" if join.replace else "")
            for deck, join in manifest.decks.items()
        },
    )
    try:
        load_ruleset(pm=pm)
    except DeathAngelError as exc:
        return evolve(report, error=str(exc))
    return report
