"""Plugin discovery: the base game first, then every installed ``deathangel`` entry point."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable

import pluggy

import deathangel.plugins.base as base_plugin
import deathangel.plugins.hookspecs as hookspecs
from deathangel.errors import PluginError


def plugin_manager(
    *, entry_points: bool = True, extra: Iterable[object] = ()
) -> pluggy.PluginManager:
    """A manager holding the base game, installed plugins (unless ``entry_points`` is false)
    and ``extra`` plugin objects (tests and scripts pass modules here).

    A plugin that fails to import is reported by name, never as a bare traceback.
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(base_plugin, name="base")
    if entry_points:
        for ep in importlib.metadata.entry_points(group=hookspecs.PROJECT):
            if pm.get_plugin(ep.name) is not None or pm.is_blocked(ep.name):
                continue
            try:
                plugin = ep.load()
            except Exception as exc:  # any import failure is the plugin's, name it
                raise PluginError(f"plugin {ep.name!r} ({ep.value}) failed to load: {exc}") from exc
            _register(pm, plugin, ep.name)
    for i, plugin in enumerate(extra):
        _register(pm, plugin, getattr(plugin, "__name__", f"extra-{i}"))
    try:
        # A hook implementation whose name matches no spec is a typo in a plugin.
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"plugin {exc.plugin!r}: {exc}") from exc
    return pm


def _register(pm: pluggy.PluginManager, plugin: object, name: str) -> None:
    try:
        pm.register(plugin, name=name)
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"plugin {name!r} is invalid: {exc}") from exc
