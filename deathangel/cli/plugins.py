"""``deathangel plugins``: the installed plugins, what each adds and whether it loads."""

from __future__ import annotations

import json
from typing import Annotated

import typer

plugins_app = typer.Typer(
    name="plugins",
    help="Installed plugins (expansions): what each adds; play with one using --with NAME.",
    no_args_is_help=True,
)


@plugins_app.command("list")
def list_cli(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per plugin, in a list.")
    ] = False,
) -> None:
    """List every installed plugin: version, what it adds, and whether it loads.

    A plugin that does not load is listed with the reason; the others still work.
    """
    from deathangel.plugins.report import describe_plugins

    reports = describe_plugins()
    if as_json:
        typer.echo(json.dumps([r.to_dict() for r in reports], sort_keys=True))
        return
    if not reports:
        typer.echo("no plugins installed (the base game is always on)")
        return
    for r in reports:
        dist = f" ({r.info.distribution} {r.info.version})" if r.info.distribution else ""
        status = "loads" if r.loads else "DOES NOT LOAD"
        title = f" — {r.title}" if r.title else ""
        typer.echo(f"{r.info.name}{dist}{title}: {status}")
        if r.summary:
            typer.echo(f"  {r.summary}")
        if r.error is not None:
            typer.echo(f"  error: {r.error}")
            continue
        if r.cards:
            typer.echo("  cards:      " + ", ".join(f"{n} {k}" for k, n in r.cards.items()))
        for label, items in (
            ("teams", r.teams),
            ("enemies", r.enemies),
            ("effects", r.effects),
            ("strategies", r.strategies),
            ("variants", r.variants),
        ):
            if items:
                typer.echo(f"  {label + ':':<11} " + ", ".join(items))
        if r.decks:
            typer.echo("  decks:      " + "; ".join(f"{k} {v}" for k, v in r.decks.items()))
