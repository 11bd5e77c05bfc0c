"""``deathangel simulate``: play many bot games and report how often the marines win.

A thin command over :func:`deathangel.analysis.simulate.simulate`: it parses options, shows a
progress bar on stderr when stderr is a terminal, and prints the summary as text or as one JSON
object (sorted keys, no timings, so two runs with the same options and the same ``--bot-key``
print the same bytes).
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from deathangel.analysis.workers import StopSignals
from deathangel.cli.expansions import VariantOption, WithOption, ruleset_of
from deathangel.cli.options import BotKeyOption, IsolateOption
from deathangel.cli.output import EXIT_INTERRUPTED
from deathangel.engine.state import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNTS
from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from deathangel.analysis.simulate import SimulationSummary
    from deathangel.engine.ruleset import Ruleset
    from deathangel.plugins.isolation import MakeBot


def format_summary(summary: SimulationSummary) -> list[str]:
    """The summary as the text lines the command prints."""
    lo, hi = summary.win_rate_ci95
    played = [f"{n} {v}" for n, v in summary.plugins]
    played += [f"{n}={v}" if v else n for n, v in summary.variants]
    return [
        f"{summary.games} game(s), {summary.players} player(s), strategy {summary.strategy!r}, "
        f"seeds {summary.seed}..{summary.seed + summary.games - 1}",
        *([f"played with:             {', '.join(played)}"] if played else []),
        f"wins:                    {summary.wins}",
        f"losses:                  {summary.losses}",
        f"win rate:                {summary.win_rate:.2%} "
        f"(95% Wilson interval {lo:.2%} – {hi:.2%})",
        f"mean rounds:             {summary.mean_rounds:.2f}",
        f"mean locations reached:  {summary.mean_locations:.2f} (the setup location counts as 1)",
        *([f"causes of defeat:        {_causes(summary)}"] if summary.causes else []),
        f"bot key:                 {summary.bot_key} (the same bots again: --bot-key "
        f"{summary.bot_key})",
    ]


def _causes(summary: SimulationSummary, top: int = 4) -> str:
    shown = [f"{cause} {n / summary.losses:.1%}" for cause, n in summary.causes[:top]]
    return "; ".join(shown)


def _run(
    players: int,
    games: int,
    seed: int,
    strategy: str | list[str],
    show_progress: bool,
    ruleset: Ruleset | None = None,
    bot_key: str | None = None,
    isolate: bool = False,
) -> SimulationSummary:
    # Imported here so that other commands do not pay for the engine at start-up.
    from deathangel.analysis.simulate import simulate
    from deathangel.plugins.isolation import isolated_bots

    with isolated_bots(isolate, ruleset) as make:
        if not show_progress:
            return simulate(
                players, games, seed, strategy, ruleset=ruleset, bot_key=bot_key, make=make
            )
        return _with_bar(players, games, seed, strategy, ruleset, bot_key, make)


def _with_bar(
    players: int,
    games: int,
    seed: int,
    strategy: str | list[str],
    ruleset: Ruleset | None,
    bot_key: str | None,
    make: MakeBot | None,
) -> SimulationSummary:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from deathangel.analysis.simulate import simulate

    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=games)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done)

        return simulate(
            players, games, seed, strategy, advance, ruleset=ruleset, bot_key=bot_key, make=make
        )


def simulate_cli(
    players: Annotated[int, typer.Option("--players", "-p", help="Seats, 1–6.")] = 1,
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play (at least 1).")] = 100,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Seed of the first game; game i uses seed + i.")
    ] = 0,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            help="Strategy spec (NAME, NAME:key=value,... or FILE.toml) at every seat; repeat "
            "it once per seat to give each seat its own. 'deathangel strategies list' shows them.",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the summary as one JSON object.")
    ] = False,
    with_: WithOption = None,
    variant: VariantOption = None,
    bot_key: BotKeyOption = None,
    isolate: IsolateOption = False,
) -> None:
    """Play complete bot games and report how often the marines win.

    Prints wins, losses, the win rate (95% Wilson interval), mean rounds, mean locations.

    Game i has seed SEED + i; its bots are seeded by a keyed hash of that seed and their seat
    under the run's bot key (printed; --bot-key plays the same bots again). Stopped part way
    (Ctrl-C, SIGTERM), it prints the figures of the games played, and exits with status 130.
    """
    if players not in PLAYER_COUNTS:
        raise DeathAngelError(
            f"--players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, not {players}"
        )
    if games < 1:
        raise DeathAngelError(f"--games must be at least 1, not {games}")
    specs = strategy or ["random"]
    if len(specs) not in (1, players):
        raise DeathAngelError(
            f"give --strategy once (every seat) or {players} times (one per seat), "
            f"not {len(specs)} times"
        )
    show_progress = not as_json and sys.stderr.isatty()
    ruleset = ruleset_of(with_, variant)
    strategies = specs[0] if len(specs) == 1 else specs
    from deathangel.analysis.simulate import SimulationInterrupted

    # SIGTERM, and Ctrl-C to a background job, stop it as Ctrl-C does: with the games played.
    # A simulation writes nothing: it may stop anywhere.
    try:
        with StopSignals() as stop, stop.at_once():
            summary = _run(
                players, games, seed, strategies, show_progress, ruleset, bot_key, isolate
            )
        stopped = False
    except SimulationInterrupted as exc:
        summary, stopped = exc.summary, True
    if as_json:
        typer.echo(json.dumps(summary.to_dict(), sort_keys=True))
    else:
        for line in format_summary(summary):
            typer.echo(line)
    if stopped:
        typer.echo(
            f"interrupted after {summary.games} of {games} games: the figures are of those",
            err=True,
        )
        raise typer.Exit(EXIT_INTERRUPTED)
