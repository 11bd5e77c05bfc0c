"""The ``deathangel`` command: one Typer app, one module per command group."""

from __future__ import annotations

import sys

import typer

from deathangel.cli.bench import bench_cli
from deathangel.cli.cards import cards_app
from deathangel.cli.odds import odds_cli
from deathangel.cli.play import play_cli
from deathangel.cli.plugins import plugins_app
from deathangel.cli.replay import replay_cli
from deathangel.cli.report import report_cli
from deathangel.cli.scenario import scenario_app
from deathangel.cli.simulate import simulate_cli
from deathangel.cli.strategies import strategies_app
from deathangel.cli.tournament import tournament_cli
from deathangel.errors import DeathAngelError

app = typer.Typer(
    name="deathangel",
    help="Space Hulk: Death Angel — play, simulate and study the co-op card game.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(cards_app, name="cards")
app.add_typer(scenario_app, name="scenario")
app.add_typer(strategies_app, name="strategies")
app.add_typer(plugins_app, name="plugins")
app.command("odds")(odds_cli)
app.command("simulate")(simulate_cli)
app.command("bench")(bench_cli)
app.command("play")(play_cli)
app.command("replay")(replay_cli)
app.command("tournament")(tournament_cli)
app.command("report")(report_cli)


def main() -> None:
    """Console-script entry point.

    A :class:`DeathAngelError` is a deliberate, explained failure (bad card file, illegal
    choice...): the user gets its one-line message and exit code 1, not a traceback.
    """
    try:
        app(prog_name="deathangel")
    except DeathAngelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
