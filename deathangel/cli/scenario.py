"""``deathangel scenario``: check scenario files (format in docs/scenarios.md)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from deathangel.cli.expansions import VariantOption, WithOption, scenario_ruleset

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
    with_: WithOption = None,
    variant: VariantOption = None,
) -> None:
    """Load a scenario, build its state, and show it; a broken file exits with its error.

    Its cards come from the base game and the plugins the file names (plugins = [...]) or
    --with names.
    """
    from deathangel.engine.game import card_table
    from deathangel.engine.observation import public_view
    from deathangel.scenario import describe_state, load_scenario, scenario_state
    from deathangel.scenario.file import read_scenario_file

    rules = scenario_ruleset(read_scenario_file(path), with_, variant)
    db = rules.db
    sc = load_scenario(path, db=db)
    state = scenario_state(sc, db)
    table = card_table(db, rules.switches)
    if as_json:
        data = {
            "scenario": path,
            "ok": True,
            "title": sc.title,
            "plugins": [list(p) for p in rules.plugins],
            "variants": [list(v) for v in rules.variants],
            "state": public_view(state, table),
            "description": describe_state(state, table),
        }
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    typer.echo(f"{path}: ok" + (f" — {sc.title}" if sc.title else ""))
    if rules.plugins or rules.variants:
        typer.echo(f"played with {rules.describe()}")
    for line in describe_state(state, table):
        typer.echo(line)
