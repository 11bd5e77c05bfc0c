"""Plugins: the hook specifications, the plugin manager (installed plugins found, only the
named ones loaded), the base game registered as a plugin, rulesets (cards, abilities and rule
variants gathered from the plugins a game names) and strategies by name."""

from deathangel.plugins.hookspecs import API_VERSION, hookimpl
from deathangel.plugins.manager import PluginInfo, installed_plugins, plugin_manager
from deathangel.plugins.ruleset import Ruleset, load_ruleset, ruleset_for
from deathangel.plugins.strategies import strategy_factories, strategy_factory
from deathangel.plugins.variants import Changes, VariantSpec

__all__ = [
    "API_VERSION",
    "Changes",
    "PluginInfo",
    "Ruleset",
    "VariantSpec",
    "hookimpl",
    "installed_plugins",
    "load_ruleset",
    "plugin_manager",
    "ruleset_for",
    "strategy_factories",
    "strategy_factory",
]
