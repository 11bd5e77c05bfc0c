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
    from rich.console import Console, Group

    console = Console()
    with console.capture() as printed:
        console.print(Group(*_blocks(rows)))
    # A grid pads every cell to its column's width: the lines' trailing blanks go.
    typer.echo("\n".join(line.rstrip() for line in printed.get().splitlines()))


def _blocks(rows: list[dict[str, Any]]) -> list[Any]:
    """One block per strategy: its name and what it does, where it comes from, then its
    parameters as rows of name, kind and default, and help.

    Why blocks and not one table: a table with the parameters in its fourth column wrapped
    every help into a column a fifth of the screen wide (an 80-column terminal printed 246
    lines, most of them blank cells beside the parameters); here the help takes what the
    name and the default leave."""
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    blocks: list[Any] = []
    for row in rows:
        params = row["parameters"]
        origin = f"from {row['plugin']}" + (f", needs {row['needs']}" if row["needs"] else "")
        origin += f"; parameters as {row['name']}:key=value,..." if params else ""
        blocks += [
            Text.assemble((row["name"], "bold"), " — ", row["summary"]),
            Padding(Text(origin, style="dim"), (0, 0, 0, 2), expand=False),
        ]
        if params:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(no_wrap=True)
            grid.add_column(no_wrap=True)
            grid.add_column()
            for p in params:
                default = "no default" if p["default"] is None else f"default {p['default']!r}"
                # Text, not str: a plugin's help is printed as written, never read as markup.
                grid.add_row(
                    Text(p["name"]), Text(f"{p['kind']}, {default}"), Text(p["help"] or "")
                )
            blocks.append(Padding(grid, (0, 0, 0, 2), expand=False))
        blocks.append("")
    return blocks[:-1]
