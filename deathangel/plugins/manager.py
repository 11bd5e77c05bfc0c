"""Plugin discovery and loading: installed plugins are found, but only the ones a game names
are imported.

:func:`installed_plugins` lists every ``deathangel`` entry point (name, target, distribution
and version) without importing anything, so a broken or slow plugin costs nothing until it
is asked for. :func:`plugin_manager` builds a pluggy manager with the base game and the
plugins named (``--with NAME``), checking each before its hooks are used: it must import,
declare a manifest for this hook API (:data:`~deathangel.plugins.hookspecs.API_VERSION`),
and implement only hooks that exist, with the arguments they take. Every failure is one
line naming the plugin, its distribution, the file and the cause.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import pluggy
from attrs import frozen

import deathangel.plugins.base as base_plugin
import deathangel.plugins.hookspecs as hookspecs
from deathangel.cards.manifest import Manifest, check_manifest
from deathangel.errors import DeathAngelError, PluginError

BASE = "base"
"""The base game's plugin name: always loaded, first."""

T = TypeVar("T")


@frozen
class PluginInfo:
    """An installed plugin as its entry point describes it (nothing imported)."""

    name: str
    """The entry point's name: what ``--with`` takes."""
    target: str
    """What it loads, ``module`` or ``module:object``."""
    distribution: str | None = None
    """The package that installed it."""
    version: str = "unversioned"
    """That package's version: a save records it."""

    def label(self) -> str:
        """``'hive' (deathangel-hive 1.0)``: how messages name the plugin."""
        if self.distribution is None:
            return repr(self.name)
        return f"{self.name!r} ({self.distribution} {self.version})"


def installed_plugins() -> dict[str, PluginInfo]:
    """Every plugin installed under the ``deathangel`` entry-point group, by name, in name
    order; nothing is imported. The base game's own entry point is left out (it is always
    on). When two distributions install one name, the first found is kept."""
    # Imported here, not above: most commands never list the installed plugins, and the
    # import is about a twentieth of a command's start (deathangel simulate -n 1).
    import importlib.metadata

    found: dict[str, PluginInfo] = {}
    for ep in importlib.metadata.entry_points(group=hookspecs.PROJECT):
        if ep.name == BASE or ep.name in found:
            continue
        dist = getattr(ep, "dist", None)
        found[ep.name] = PluginInfo(
            name=ep.name,
            target=ep.value,
            distribution=None if dist is None else dist.metadata["Name"],
            version="unversioned" if dist is None else dist.version,
        )
    return dict(sorted(found.items()))


class PluginManager(pluggy.PluginManager):
    """A pluggy manager that knows each plugin's entry point and manifest."""

    def __init__(self) -> None:
        super().__init__(hookspecs.PROJECT)
        self.add_hookspecs(hookspecs)
        self.infos: dict[str, PluginInfo] = {}
        """Each registered plugin's description, by name."""
        self.manifests: dict[str, Manifest] = {}
        """Each registered plugin's manifest, by name."""

    def plugins(self) -> list[tuple[str, Any]]:
        """``(name, plugin)`` in registration order: the base game first, then as named."""
        return [(name, plugin) for name, plugin in self.list_name_plugin() if plugin is not None]

    def call(self, name: str, plugin: Any, hook: str, default: T) -> T:
        """Call one plugin's hook alone (``default`` if it has none).

        :raises PluginError: naming the plugin, the hook, the file and the cause when the
            hook raises.
        """
        impl: Callable[[], T] | None = getattr(plugin, hook, None)
        if impl is None:
            return default
        try:
            return impl()
        except DeathAngelError as exc:
            raise PluginError(f"plugin {self.label(name)}: {hook}: {exc}") from exc
        except Exception as exc:  # the plugin's own bug: name it, never a bare traceback
            raise PluginError(f"plugin {self.label(name)}: {hook} failed: {cause(exc)}") from exc

    def label(self, name: str) -> str:
        info = self.infos.get(name)
        return info.label() if info is not None else repr(name)


def cause(exc: BaseException) -> str:
    """``file:line: Type: message`` of an exception: where in the plugin it went wrong."""
    import traceback  # only when a plugin has failed: not worth every start-up

    where = ""
    if isinstance(exc, SyntaxError) and exc.filename:
        where = f"{exc.filename}:{exc.lineno}: "
    else:
        frames = [
            f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<")
        ]
        if frames:
            where = f"{frames[-1].filename}:{frames[-1].lineno}: "
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{where}{type(exc).__name__}" + (f": {text}" if text else "")


def plugin_manager(
    with_: Iterable[str] = (),
    *,
    extra: Iterable[object] = (),
    installed: dict[str, PluginInfo] | None = None,
) -> PluginManager:
    """A manager holding the base game, the installed plugins named in ``with_`` (in that
    order) and ``extra`` plugin objects (tests and scripts pass modules here; their name is
    the module's ``__name__``, their version its ``__version__``).

    :raises PluginError: for a name no installed plugin has (listing those installed), a
        plugin that fails to import, has no manifest or one for another hook API, or
        implements a hook that does not exist or with arguments it does not take.
    """
    pm = PluginManager()
    _add(pm, base_plugin, PluginInfo(BASE, base_plugin.__name__))
    names = list(with_)
    if names:
        known = installed if installed is not None else installed_plugins()
        for name in names:
            if name == BASE:
                continue  # always on
            if name not in known:
                have = ", ".join(known) or "none"
                raise PluginError(f"no plugin named {name!r} is installed; installed: {have}")
            if pm.has_plugin(name):
                raise PluginError(f"plugin {name!r} is named twice")
            info = known[name]
            _add(pm, _import(info), info)
    for i, plugin in enumerate(extra):
        name = getattr(plugin, "__name__", f"extra-{i}")
        version = str(getattr(plugin, "__version__", "unversioned"))
        _add(pm, plugin, PluginInfo(name, name, None, version))
    return pm


def _import(info: PluginInfo) -> object:
    import importlib.metadata  # see installed_plugins

    ep = importlib.metadata.EntryPoint(info.name, info.target, hookspecs.PROJECT)
    try:
        return ep.load()
    except Exception as exc:  # any import failure is the plugin's: name it
        raise PluginError(f"plugin {info.label()}: cannot be imported: {cause(exc)}") from exc


def _add(pm: PluginManager, plugin: object, info: PluginInfo) -> None:
    """Check a plugin's manifest, then register it with its hooks validated."""
    pm.infos[info.name] = info
    if not hasattr(plugin, "deathangel_manifest"):
        raise PluginError(
            f"plugin {info.label()}: declares no manifest; a plugin implements "
            f"deathangel_manifest() for hook API {hookspecs.API_VERSION}"
        )
    manifest: object = pm.call(info.name, plugin, "deathangel_manifest", None)
    try:
        manifest = check_manifest(manifest, "deathangel_manifest")
    except DeathAngelError as exc:
        raise PluginError(f"plugin {info.label()}: {exc}") from None
    assert isinstance(manifest, Manifest)
    if manifest.api != hookspecs.API_VERSION:
        raise PluginError(f"plugin {info.label()}: {_api_mismatch(manifest.api)}")
    pm.manifests[info.name] = manifest
    try:
        pm.register(plugin, name=info.name)
        # A hook implementation whose name matches no spec is a typo in a plugin.
        pm.check_pending()
    except (pluggy.PluginValidationError, ValueError) as exc:
        pm.infos.pop(info.name, None)
        raise PluginError(f"plugin {info.label()}: {_first_line(exc)}") from None


def _api_mismatch(api: int) -> str:
    """Why a plugin's hook API is refused, and what its user can do: the remedy differs by
    which side is behind (the plugin for an older API, deathangel for a newer one)."""
    ours = hookspecs.API_VERSION
    if api < ours:
        return (
            f"written for hook API {api}, older than this deathangel's API {ours}: the "
            f"plugin needs a release for API {ours}, or use a deathangel that speaks API {api}"
        )
    return (
        f"written for hook API {api}, newer than this deathangel's API {ours}: upgrade "
        f"deathangel (pip install --upgrade deathangel)"
    )


def _first_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())
