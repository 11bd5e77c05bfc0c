"""``deathangel strategies``: the strategies a seat can be given, from the base game and the
installed plugins (those not named with ``--with`` marked with what a game needs to seat
them)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from deathangel.plugins.strategies import Strategy

strategies_app = typer.Typer(
    name="strategies",
    help="List the strategies (bots) a seat can be given, with their parameters.",
    no_args_is_help=True,
)


def strategy_rows(with_: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Every strategy as data: name, plugin, summary, parameters (name, kind, default, help)
    and ``needs`` (the ``--with NAME`` option a game must name to seat it, or ``None``).

    The base game's come first, then those of the plugins named in ``with_``, then those of
    every other installed plugin that loads (a plugin is off unless named, so its strategies
    need ``--with``); a plugin that does not load is left out here (``plugins list`` says
    why)."""
    from deathangel.plugins.manager import installed_plugins, plugin_manager
    from deathangel.plugins.strategies import strategies

    named = list(with_)
    found = strategies(plugin_manager(named))
    rows = [_row(s, None) for s in found.values()]
    for name in sorted(installed_plugins()):
        if name in named:
            continue
        try:
            theirs = strategies(plugin_manager([name]))
        except DeathAngelError:
            continue
        rows += [_row(s, f"--with {name}") for s in theirs.values() if s.name not in found]
    return rows


def _row(strategy: Strategy, needs: str | None) -> dict[str, Any]:
    return {
        "name": strategy.name,
        "plugin": strategy.plugin,
        "summary": strategy.summary,
        "parameters": [
            {"name": p.name, "kind": p.kind, "default": _plain(p.default), "help": p.help}
            for p in strategy.parameters
        ],
        "needs": needs,
    }


def _plain(value: Any) -> Any:
    if isinstance(value, Path) and value == Path():
        return None  # a file the spec must name (policy:model=FILE): there is no default
    return value if isinstance(value, int | float | str | bool) or value is None else str(value)


@strategies_app.command("list")
def list_cli(
    as_json: Annotated[bool, typer.Option("--json", help="Print them as JSON.")] = False,
    with_: Annotated[
        list[str] | None,
        typer.Option("--with", help="Include the strategies of the installed plugin NAME."),
    ] = None,
) -> None:
    """List every strategy: name, one line, parameters (give them as NAME:key=value,...).

    Installed plugins' strategies are listed too, with the --with NAME a game needs for them.
    """
    rows = strategy_rows(with_ or ())
    if as_json:
        typer.echo(json.dumps(rows, indent=1))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("strategy", "from", "what it does", "parameters (NAME:key=value,...)")
    for row in rows:
        params = "\n".join(
            f"{p['name']} ({p['kind']}, "
            + ("no default" if p["default"] is None else f"default {p['default']!r}")
            + ")"
            + (f": {p['help']}" if p["help"] else "")
            for p in row["parameters"]
        )
        origin = row["plugin"] + (f"\n(needs {row['needs']})" if row["needs"] else "")
        table.add_row(row["name"], origin, row["summary"], params or "-")
    Console().print(table)
