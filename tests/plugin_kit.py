"""Plugins made in a test: a module or class with the hooks a test needs and the manifest
every plugin must declare, so a test writes only what it is about."""

from __future__ import annotations

import textwrap
import types
from collections.abc import Callable, Mapping
from pathlib import Path
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


def fake_site(
    folder: Path,
    distribution: str,
    version: str,
    modules: Mapping[str, str],
    entry_points: Mapping[str, str],
    files: Mapping[str, str] | None = None,
) -> Path:
    """A folder that holds an installed distribution as pip would leave it: its modules,
    data files and a ``.dist-info`` with the ``deathangel`` entry points. Put it on
    ``sys.path`` (or ``PYTHONPATH``) and :mod:`importlib.metadata` finds the plugins.

    ``modules``: module name -> source; ``entry_points``: plugin name -> target;
    ``files``: relative path -> text (card files).
    """
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in modules.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    for rel, text in (files or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    info = folder / f"{distribution.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n", encoding="utf-8"
    )
    lines = ["[deathangel]", *(f"{name} = {target}" for name, target in entry_points.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder
