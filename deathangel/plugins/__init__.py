"""Plugins: the hook specifications, the plugin manager, the base game registered as a plugin,
rulesets (cards and abilities gathered from plugins) and strategies by name."""

from deathangel.plugins.hookspecs import hookimpl
from deathangel.plugins.manager import plugin_manager
from deathangel.plugins.ruleset import Ruleset, load_ruleset
from deathangel.plugins.strategies import strategy_factories, strategy_factory

__all__ = [
    "Ruleset",
    "hookimpl",
    "load_ruleset",
    "plugin_manager",
    "strategy_factories",
    "strategy_factory",
]
