"""``deathangel strategies``: the strategies a seat can be given, from the base game and the
plugins named with ``--with``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any

import typer

strategies_app = typer.Typer(
    name="strategies",
    help="List the strategies (bots) a seat can be given, with their parameters.",
    no_args_is_help=True,
)


def strategy_rows(with_: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Every strategy as data: name, plugin, summary, parameters (name, kind, default, help);
    the base game's and those of the plugins named in ``with_``."""
    from deathangel.plugins.manager import plugin_manager
    from deathangel.plugins.strategies import strategies

    return [
        {
            "name": s.name,
            "plugin": s.plugin,
            "summary": s.summary,
            "parameters": [
                {"name": p.name, "kind": p.kind, "default": _plain(p.default), "help": p.help}
                for p in s.parameters
            ],
        }
        for s in strategies(plugin_manager(list(with_))).values()
    ]


def _plain(value: Any) -> Any:
    return value if isinstance(value, int | float | str | bool) or value is None else str(value)


@strategies_app.command("list")
def list_cli(
    as_json: Annotated[bool, typer.Option("--json", help="Print them as JSON.")] = False,
    with_: Annotated[
        list[str] | None,
        typer.Option("--with", help="Include the strategies of the installed plugin NAME."),
    ] = None,
) -> None:
    """List every strategy: name, one line, parameters (give them as NAME:key=value,...)."""
    rows = strategy_rows(with_ or ())
    if as_json:
        typer.echo(json.dumps(rows, indent=1))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("strategy", "from", "what it does", "parameters (NAME:key=value,...)")
    for row in rows:
        params = "\n".join(
            f"{p['name']} ({p['kind']}, default {p['default']!r})"
            + (f": {p['help']}" if p["help"] else "")
            for p in row["parameters"]
        )
        table.add_row(row["name"], row["plugin"], row["summary"], params or "-")
    Console().print(table)
