"""Plugins made in a test: a module or class with the hooks a test needs and the manifest
every plugin must declare, so a test writes only what it is about."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from deathangel.cards.manifest import Manifest
from deathangel.plugins.hookspecs import API_VERSION, hookimpl


class Declared:
    """Base of a plugin written as a class: it declares a manifest for this hook API."""

    @hookimpl
    def deathangel_manifest(self) -> Manifest:
        return Manifest(api=API_VERSION)


def plugin_module(name: str, **hooks: Callable[..., Any]) -> types.ModuleType:
    """A module named ``name`` implementing ``hooks`` (``deathangel_card_dirs=...``) and,
    unless given, a manifest for this hook API."""
    module = types.ModuleType(name)
    hooks.setdefault("deathangel_manifest", lambda: Manifest(api=API_VERSION))
    for hook, impl in hooks.items():
        setattr(module, hook, hookimpl(impl))
    return module
