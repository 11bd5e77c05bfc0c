"""``deathangel scenario``: check scenario files (format in docs/scenarios.md)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

scenario_app = typer.Typer(
    name="scenario",
    help="Check scenario files: mid-game situations written by hand.",
    no_args_is_help=True,
)


@scenario_app.command("check")
def check_cli(
    path: Annotated[str, typer.Argument(help="A scenario file (TOML).")],
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print one JSON object: the scenario, its title, the state."),
    ] = False,
) -> None:
    """Load a scenario, build its state, and show it; a broken file exits with its error."""
    from deathangel.engine.game import card_table, default_database
    from deathangel.engine.observation import public_view
    from deathangel.scenario import describe_state, load_scenario, scenario_state

    db = default_database()
    sc = load_scenario(path, db=db)
    state = scenario_state(sc, db)
    if as_json:
        data = {
            "scenario": path,
            "ok": True,
            "title": sc.title,
            "state": public_view(state, card_table(db)),
            "description": describe_state(state, card_table(db)),
        }
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    typer.echo(f"{path}: ok" + (f" — {sc.title}" if sc.title else ""))
    for line in describe_state(state, card_table(db)):
        typer.echo(line)
