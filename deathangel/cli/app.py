"""The ``deathangel`` command: one Typer app, one module per command group."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Sequence
from typing import Annotated

import typer

from deathangel.cli.balance import balance_cli
from deathangel.cli.bench import bench_cli
from deathangel.cli.cardreport import cards_report_cli
from deathangel.cli.cards import cards_app
from deathangel.cli.check import check_cli
from deathangel.cli.odds import odds_cli
from deathangel.cli.output import pipe_friendly, plain_where_unencodable
from deathangel.cli.play import play_cli
from deathangel.cli.plugins import plugins_app
from deathangel.cli.replay import replay_cli
from deathangel.cli.report import report_cli
from deathangel.cli.scenario import scenario_app
from deathangel.cli.simulate import simulate_cli
from deathangel.cli.strategies import strategies_app
from deathangel.cli.tournament import tournament_cli
from deathangel.cli.tune import tune_cli
from deathangel.cli.value import value_app
from deathangel.errors import DeathAngelError, PluginEffectError
from deathangel.version import __version__


def _version(value: bool) -> None:
    if value:
        typer.echo(f"deathangel {__version__}")
        raise typer.Exit()


app = typer.Typer(
    name="deathangel",
    help="Space Hulk: Death Angel — play, simulate and study the co-op card game.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", is_eager=True, callback=_version
        ),
    ] = False,
) -> None:
    """Space Hulk: Death Angel — play, simulate and study the co-op card game."""


# Output piped into `head` ends every command as it ends any Unix tool (cli/output.py).
cards_app.command("report")(pipe_friendly(cards_report_cli))
app.add_typer(cards_app, name="cards")
app.add_typer(scenario_app, name="scenario")
app.add_typer(strategies_app, name="strategies")
app.add_typer(plugins_app, name="plugins")
app.add_typer(value_app, name="value")
app.command("odds")(pipe_friendly(odds_cli))
app.command("simulate")(pipe_friendly(simulate_cli))
app.command("bench")(pipe_friendly(bench_cli))
app.command("play")(pipe_friendly(play_cli))
app.command("replay")(pipe_friendly(replay_cli))
app.command("tournament")(pipe_friendly(tournament_cli))
app.command("report")(pipe_friendly(report_cli))
app.command("tune")(pipe_friendly(tune_cli))
app.command("balance")(pipe_friendly(balance_cli))
app.command("check")(pipe_friendly(check_cli))


def reflowed(text: str) -> str:
    """A help text with each paragraph on one line: the docstrings are wrapped for the
    source, and rich keeps those breaks as well as wrapping at the terminal's width, so on an
    80-column terminal a paragraph came out in ragged half-lines. A paragraph that starts
    with click's ``\\b`` keeps its lines; what follows ``\\f`` is not shown."""
    shown, cut, rest = inspect.cleandoc(text).partition("\f")
    paragraphs = [
        p if p.startswith("\b") else " ".join(line.strip() for line in p.splitlines())
        for p in shown.split("\n\n")
    ]
    return "\n\n".join(paragraphs) + cut + rest


def _reflow_commands(group: typer.Typer) -> None:
    """Every command's help (and every command group's) given as :func:`reflowed` text."""
    for command in group.registered_commands:
        doc = command.help if command.help is not None else inspect.getdoc(command.callback)
        if doc:
            command.help = reflowed(doc)
    for sub in group.registered_groups:
        instance = sub.typer_instance
        if instance is None:
            continue
        if isinstance(instance.info.help, str):
            instance.info.help = reflowed(instance.info.help)
        _reflow_commands(instance)


_reflow_commands(app)


def main() -> None:
    """Console-script entry point.

    A :class:`DeathAngelError` is a deliberate, explained failure (bad card file, illegal
    choice...): the user gets its one-line message and exit code 1, not a traceback.
    """
    plain_where_unencodable()
    try:
        app(args=optional_value(sys.argv[1:], "play", "--resume"), prog_name="deathangel")
    except PluginEffectError as exc:
        print(f"error: {exc}{_traceback_kept(exc)}", file=sys.stderr)
        raise SystemExit(1) from None
    except DeathAngelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(1) from None


def _traceback_kept(exc: PluginEffectError) -> str:
    """Keep the plugin's traceback in a log file for its author; the words that say where
    (the player's line stays one line)."""
    import traceback

    from deathangel.tui.saves import keep_traceback

    text = f"deathangel {__version__}\n{exc}\n\n" + "".join(traceback.format_exception(exc))
    try:
        path = keep_traceback(text, f"plugin-{exc.plugin.split()[0].strip(chr(39))}")
    except OSError as err:
        return f"; its traceback could not be kept: {err.strerror or err}"
    return f"; traceback for the plugin's author in {path}"


def optional_value(args: Sequence[str], command: str, option: str) -> list[str]:
    """``args`` with an empty value given to ``command``'s ``option`` where it has none (it
    is last, or an option follows it): ``play --resume`` alone means "choose a game", which
    the option parser cannot say by itself. Other commands' options of that name (a flag of
    ``tournament``) are left alone."""
    words = [a for a in args if not a.startswith("-")]
    if not words or words[0] != command:
        return list(args)
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg == option and (i + 1 == len(args) or args[i + 1].startswith("-")):
            out.append("")
    return out
