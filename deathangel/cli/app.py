"""The ``deathangel`` command: one Typer app, one module per command group."""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperGroup

from deathangel.cli.output import pipe_friendly, plain_where_unencodable
from deathangel.errors import DeathAngelError, PluginEffectError
from deathangel.version import __version__

COMMANDS: Mapping[str, tuple[str, str]] = {
    "odds": ("deathangel.cli.odds", "odds_cli"),
    "simulate": ("deathangel.cli.simulate", "simulate_cli"),
    "bench": ("deathangel.cli.bench", "bench_cli"),
    "play": ("deathangel.cli.play", "play_cli"),
    "replay": ("deathangel.cli.replay", "replay_cli"),
    "tournament": ("deathangel.cli.tournament", "tournament_cli"),
    "report": ("deathangel.cli.report", "report_cli"),
    "tune": ("deathangel.cli.tune", "tune_cli"),
    "balance": ("deathangel.cli.balance", "balance_cli"),
    "check": ("deathangel.cli.check", "check_cli"),
    "cards": ("deathangel.cli.cards", "cards_app"),
    "scenario": ("deathangel.cli.scenario", "scenario_app"),
    "strategies": ("deathangel.cli.strategies", "strategies_app"),
    "plugins": ("deathangel.cli.plugins", "plugins_app"),
    "value": ("deathangel.cli.value", "value_app"),
}
"""Each command (or command group) by name, in the order ``--help`` lists them: the module
that holds it and its name there (a ``*_cli`` function, or a Typer app of subcommands).

A command's module is imported when that command is run, not before: a run of ``deathangel
simulate`` used to import every command's module and build all 27 commands' options
(about a tenth of a second, a third of a short command's start-up; docs/performance.md)."""


@functools.cache
def command(name: str) -> Any:
    """The click command (or group) ``name`` runs, built from its module on first use; a
    KeyError for a name that is no command."""
    module, attribute = COMMANDS[name]
    found = getattr(importlib.import_module(module), attribute)
    built: Any
    if isinstance(found, typer.Typer):
        if isinstance(found.info.help, str):
            found.info.help = reflowed(found.info.help)
        _reflow_commands(found)
        built = typer.main.get_group(found)
    else:
        single = typer.Typer(add_completion=False)
        # Output piped into `head` ends every command as it ends any Unix tool
        # (cli/output.py).
        single.command(name)(pipe_friendly(found))
        _reflow_commands(single)
        built = typer.main.get_command(single)
    built.name = name
    return built


class _Commands(MutableMapping[str, Any]):
    """The root group's commands as click asks for them: every name known at once (for
    ``--help``, suggestions of a mistyped name), each command built only when looked up."""

    def __getitem__(self, name: str) -> Any:
        return command(name)

    def __iter__(self) -> Iterator[str]:
        return iter(COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS)

    def __setitem__(self, name: str, value: Any) -> None:
        raise TypeError(f"commands are registered in COMMANDS, not added ({name!r})")

    def __delitem__(self, name: str) -> None:
        raise TypeError(f"commands are registered in COMMANDS, not removed ({name!r})")


class _LazyGroup(TyperGroup):
    """The ``deathangel`` group, whose commands come from :data:`COMMANDS` on demand."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = _Commands()


def _version(value: bool) -> None:
    if value:
        typer.echo(f"deathangel {__version__}")
        raise typer.Exit()


app = typer.Typer(
    name="deathangel",
    help="Space Hulk: Death Angel — play, simulate and study the co-op card game.",
    no_args_is_help=True,
    add_completion=False,
    cls=_LazyGroup,
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
