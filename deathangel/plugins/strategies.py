"""Strategies by name: every player factory offered through the ``deathangel_strategies`` hook,
with its parameters, and the one way a seat's strategy is written.

A seat is given a strategy wherever a player is asked for (``--seat 2=bot:mcts``,
``simulate --strategy``, tournaments) by a *strategy spec*:

- ``NAME`` — the strategy with its defaults;
- ``NAME:key=value,key=value`` — with parameters (``mcts:iterations=400,seconds=1``);
- ``FILE.toml`` — a file holding ``strategy = "NAME"`` and a ``[parameters]`` table.

A factory is called as ``factory(seed=int, **parameters)``. Its parameters are read from its
signature (keyword parameters other than ``seed``, with a default and an ``int``, ``float``,
``bool``, ``str`` or ``Path`` annotation), their help from ``:param name:`` lines of its
docstring, and its one-line summary from the docstring's first line.
"""

from __future__ import annotations

import inspect
import re
import tomllib
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from attrs import frozen

from deathangel.errors import DeathAngelError, PluginError

StrategyFactory = Callable[..., Any]
"""Called as ``factory(seed=int, **parameters)``; returns a player (an object with
``choose``)."""

_KINDS: dict[Any, str] = {int: "int", float: "float", bool: "bool", str: "str", Path: "path"}


class StrategySpecError(DeathAngelError, ValueError):
    """A strategy spec names no strategy, or a parameter it does not take, or a bad value."""


@frozen
class StrategyParameter:
    """One parameter a strategy takes."""

    name: str
    kind: str
    """``int``, ``float``, ``bool``, ``str`` or ``path``."""
    default: Any
    help: str = ""

    def convert(self, value: Any, where: str, base: Path | None = None) -> Any:
        """``value`` (text from a spec, or a TOML value) as this parameter's kind; a relative
        path is taken relative to ``base`` (the folder of the file that names it)."""
        kind = self.kind
        try:
            if isinstance(value, str):
                if kind == "int":
                    return int(value)
                if kind == "float":
                    return float(value)
                if kind == "bool":
                    low = value.lower()
                    if low not in ("true", "false", "yes", "no", "1", "0"):
                        raise ValueError(value)
                    return low in ("true", "yes", "1")
                if kind == "path":
                    return base / value if base is not None else Path(value)
                return value
            if kind == "float" and isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
            if kind == "int" and isinstance(value, int) and not isinstance(value, bool):
                return value
            if kind == "bool" and isinstance(value, bool):
                return value
        except ValueError:
            pass
        raise StrategySpecError(
            f"{where}: parameter {self.name!r} takes {_article(kind)} {kind}, not {value!r}"
        )


@frozen
class Strategy:
    """A strategy as offered by a plugin."""

    name: str
    summary: str
    parameters: tuple[StrategyParameter, ...]
    factory: StrategyFactory
    plugin: str
    """The plugin that offers it (``base`` for the built-in ones)."""

    def parameter(self, name: str, where: str) -> StrategyParameter:
        for p in self.parameters:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.parameters) or "none"
        raise StrategySpecError(
            f"{where}: strategy {self.name!r} has no parameter {name!r}; its parameters: {known}"
        )

    def make(
        self, seed: int, values: Mapping[str, Any], where: str, base: Path | None = None
    ) -> Any:
        """A player of this strategy, with ``values`` (by parameter name) checked."""
        kwargs = {
            name: self.parameter(name, where).convert(value, where, base)
            for name, value in values.items()
        }
        try:
            return self.factory(seed=seed, **kwargs)
        except (ValueError, TypeError) as exc:
            raise StrategySpecError(f"{where}: {exc}") from None


def _article(kind: str) -> str:
    return "an" if kind[0] in "aeiou" else "a"


_PARAM = re.compile(r"(\s*):param (\w+):\s*(.*)")


def param_helps(doc: str) -> dict[str, str]:
    """Each ``:param name:`` line's text, with the lines indented under it joined on: a help
    that wraps onto a second line is listed whole, never cut at the wrap."""
    helps: dict[str, str] = {}
    name: str | None = None
    indent = 0
    for line in doc.splitlines():
        found = _PARAM.fullmatch(line)
        if found is not None:
            name, indent = found[2], len(found[1])
            helps[name] = found[3].strip()
        elif name is not None and line.strip() and len(line) - len(line.lstrip()) > indent:
            helps[name] = f"{helps[name]} {line.strip()}".strip()
        else:
            name = None  # a blank line, or a line back at the margin, ends the help
    return helps


def describe(name: str, factory: StrategyFactory, plugin: str) -> Strategy:
    """A :class:`Strategy` read from a factory's signature and docstring."""
    doc = inspect.getdoc(factory) or ""
    summary = doc.strip().splitlines()[0] if doc.strip() else ""
    helps = param_helps(doc)
    try:
        hints = typing.get_type_hints(factory.__init__ if inspect.isclass(factory) else factory)
    except Exception:  # a plugin's annotations that do not resolve: kinds from defaults
        hints = {}
    params = []
    for p in inspect.signature(factory).parameters.values():
        if p.name == "seed" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.default is p.empty:
            raise PluginError(
                f"plugin {plugin!r}: strategy {name!r}: parameter {p.name!r} needs a default"
            )
        kind = _KINDS.get(hints.get(p.name, type(p.default)), "str")
        params.append(StrategyParameter(p.name, kind, p.default, helps.get(p.name, "")))
    return Strategy(name, summary, tuple(params), factory, plugin)


def strategies(pm: Any = None) -> dict[str, Strategy]:
    """Every strategy offered through the ``deathangel_strategies`` hook, by name, in the
    order the plugins were registered (the base game first).

    :raises PluginError: when two plugins offer the same name.
    """
    if pm is None:
        from deathangel.plugins.manager import plugin_manager

        pm = plugin_manager()
    found: dict[str, Strategy] = {}
    for plugin_name, plugin in pm.list_name_plugin():
        hook = getattr(plugin, "deathangel_strategies", None)
        if hook is None:
            continue
        for name, factory in hook().items():
            if name in found and found[name].factory is not factory:
                raise PluginError(
                    f"strategy {name!r} is offered by plugins {found[name].plugin!r} and "
                    f"{plugin_name!r}"
                )
            found[name] = describe(name, factory, plugin_name)
    return found


def strategy_factories(pm: Any = None) -> dict[str, StrategyFactory]:
    """Every strategy's factory, by name."""
    return {name: s.factory for name, s in strategies(pm).items()}


def strategy_factory(name: str, pm: Any = None) -> StrategyFactory:
    """The factory registered under ``name``.

    :raises DeathAngelError: for an unknown name, listing the known ones.
    """
    return _lookup(strategies(pm), name, "strategy").factory


def _lookup(found: Mapping[str, Strategy], name: str, where: str) -> Strategy:
    try:
        return found[name]
    except KeyError:
        known = ", ".join(found) or "(none)"
        prefix = "" if where in (f"strategy {name!r}", "strategy") else f"{where}: "
        owner = _installed_owner(name)
        hint = f" (the installed plugin {owner!r} offers it: add --with {owner})" if owner else ""
        raise StrategySpecError(
            f"{prefix}unknown strategy {name!r}; known strategies: {known}{hint}"
        ) from None


def _installed_owner(name: str) -> str | None:
    """The installed plugin, not named for this game, that offers strategy ``name``: only to
    say so in the error (a plugin is off unless named, issue 12)."""
    from deathangel.plugins.manager import installed_plugins, plugin_manager

    for plugin in sorted(installed_plugins()):
        try:
            if name in strategies(plugin_manager([plugin])):
                return plugin
        except DeathAngelError:
            continue
    return None


@frozen
class StrategySpec:
    """A parsed strategy spec: which strategy, with which parameter values."""

    name: str
    values: Mapping[str, Any]
    text: str
    """The spec as written (errors quote it)."""
    base: Path | None = None
    """The folder of the spec's file, for relative paths among its parameters."""

    def make(
        self, seed: int, pm: Any = None, *, found: Mapping[str, Strategy] | None = None
    ) -> Any:
        """A player for this spec, seeded with ``seed``.

        :raises StrategySpecError: for an unknown strategy or parameter, or a bad value,
            naming the spec and listing what exists.
        """
        where = f"strategy {self.text!r}"
        strategy = _lookup(found if found is not None else strategies(pm), self.name, where)
        return strategy.make(seed, self.values, where, self.base)

    def check(self, pm: Any = None) -> None:
        """Raise :class:`StrategySpecError` now for a spec :meth:`make` would refuse."""
        where = f"strategy {self.text!r}"
        strategy = _lookup(strategies(pm), self.name, where)
        for key, value in self.values.items():
            strategy.parameter(key, where).convert(value, where, self.base)


def parse_spec(text: str) -> StrategySpec:
    """Read a strategy spec (see the module docstring).

    :raises StrategySpecError: for a malformed spec or an unreadable file.
    """
    spec = text.strip()
    # A parameter may itself name a TOML file (rules:rules=mine.toml): only a spec without
    # a NAME: prefix, or one that is an existing file, is a strategy file.
    if spec.endswith(".toml") and (not re.match(r"[\w.-]+:", spec) or Path(spec).is_file()):
        return _read_spec_file(Path(spec))
    name, _, rest = spec.partition(":")
    name = name.strip()
    if not re.fullmatch(r"[\w.-]+", name):
        raise StrategySpecError(f"strategy {text!r}: write NAME, NAME:key=value,... or FILE.toml")
    values: dict[str, Any] = {}
    if rest.strip():
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise StrategySpecError(f"strategy {text!r}: {item.strip()!r} is not key=value")
            values[key.strip()] = value.strip()
    return StrategySpec(name, values, text)


def _read_spec_file(path: Path) -> StrategySpec:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise StrategySpecError(f"{path}: cannot read strategy file: {exc.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise StrategySpecError(f"{path}: not a TOML file: {exc}") from None
    unknown = set(data) - {"strategy", "parameters"}
    if unknown:
        raise StrategySpecError(
            f"{path}: unknown key(s) {', '.join(sorted(unknown))}; a strategy file holds "
            "'strategy' and a [parameters] table"
        )
    name = data.get("strategy")
    if not isinstance(name, str):
        raise StrategySpecError(f"{path}: 'strategy' must name a strategy (a string)")
    params = data.get("parameters", {})
    if not isinstance(params, dict):
        raise StrategySpecError(f"{path}: 'parameters' must be a table")
    return StrategySpec(name, params, str(path), path.parent)
