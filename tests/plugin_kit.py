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


ROOT = Path(__file__).resolve().parents[1]
SHIPPED: dict[str, tuple[str, str]] = {
    "variants": ("deathangel-variants", "deathangel_variants"),
    "broodwake": ("deathangel-broodwake", "deathangel_broodwake"),
}
"""The plugins that ship under ``plugins/``: name -> (folder, module)."""

EVERY_VARIANT = (
    "defence=easier",
    "starting_support=1",
    "final_location=Genestealer Lair",
    "remove=Dark Catacombs,Flanking Manoeuvre",
    "choose_teams",
    "no_instinct",
)
"""Every variant of deathangel-variants at once, for tests that play whole games."""


def shipped_module(name: str) -> types.ModuleType:
    """A shipped plugin's module, imported from its folder (installed or not): the main
    suite must not depend on what is installed."""
    import importlib
    import sys

    folder, module = SHIPPED[name]
    path = str(ROOT / "plugins" / folder)
    sys.path.insert(0, path)
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(path)


def shipped_ruleset(name: str) -> Any:
    """The ruleset of a shipped plugin: the base game with it, and for the variants plugin
    every variant it offers."""
    from deathangel.plugins.ruleset import load_ruleset

    variants = EVERY_VARIANT if name == "variants" else ()
    return load_ruleset(extra=[shipped_module(name)], variants=variants)


def fresh_venv(folder: Path) -> Path:
    """A new virtual environment that sees this environment's packages (deathangel itself,
    its dependencies and build tools) and installs into its own: the python to run.

    No pip inside it (this environment's pip installs into it with ``--python``) and no
    network: a plugin is installed with :func:`pip_install`.
    """
    import subprocess
    import sys
    import sysconfig

    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120
    )
    python = folder / "bin" / "python"
    site = site_packages(python)
    # A site directory of ours, after the venv's own: its .pth files (the editable install
    # of deathangel) are processed, which PYTHONPATH would not do.
    ours = sysconfig.get_paths()["purelib"]
    (Path(site) / "deathangel-dev.pth").write_text(
        f"import site; site.addsitedir({ours!r})\n", encoding="utf-8"
    )
    return python


def site_packages(python: Path) -> str:
    """Where the environment of ``python`` installs pure-Python packages."""
    import subprocess

    return subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def pip_install(python: Path, *args: str) -> None:
    """``pip install --no-deps --no-build-isolation ARGS`` into the venv of ``python``,
    with this environment's pip and build backend, no network."""
    import subprocess
    import sys

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def reader_shell(folder: Path) -> tuple[Path, dict[str, str]]:
    """A fresh environment as a reader of our docs has it: ``pip install ...`` installs into
    a new virtual environment (offline, from the paths given) and ``deathangel`` runs there.

    Returns the working folder to run the doc's commands in and the environment to run them
    with (the shims first on ``PATH``, no ``PYTHONPATH``), so a page is followed word for word.
    """
    import os
    import sys

    python = fresh_venv(folder / "venv")
    tools = folder / "tools"
    tools.mkdir()
    shims = {
        "pip": f'if [ "$1" = install ]; then shift; set -- install --quiet --no-deps '
        f'--no-build-isolation --no-index "$@"; fi\n'
        f'exec "{sys.executable}" -m pip --python "{python}" "$@"\n',
        "deathangel": f'exec "{python}" -m deathangel "$@"\n',
    }
    for name, body in shims.items():
        (tools / name).write_text("#!/bin/sh\n" + body, encoding="utf-8")
        (tools / name).chmod(0o755)
    work = folder / "work"
    work.mkdir()
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}", "COLUMNS": "200"}
    env.pop("PYTHONPATH", None)
    return work, env


def run_as_reader(line: str, work: Path, env: dict[str, str], timeout: float) -> Any:
    """One command line of a doc, run by ``sh`` in :func:`reader_shell`'s folder; the
    completed process (``check=False``: the caller says what a failure means)."""
    import subprocess

    return subprocess.run(
        ["sh", "-c", line],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )
