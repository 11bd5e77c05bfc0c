"""``deathangel check --with NAME``: play many games with a plugin, every player count and
the shipped bots, the rules' invariants checked after every decision; each fault printed with
the command that plays its game again, and a non-zero exit when there is one.

A thin command over :func:`deathangel.analysis.check.check_games`.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Annotated

import typer

from deathangel.analysis.workers import StopSignals
from deathangel.cli.expansions import VariantOption, WithOption, ruleset_of
from deathangel.cli.options import BotKeyOption
from deathangel.cli.output import EXIT_INTERRUPTED

if TYPE_CHECKING:
    from deathangel.analysis.check import CheckResult, Fault

EXIT_FAULT = 1


def fault_lines(fault: Fault) -> list[str]:
    """A fault as the command prints it: what, where, and how to see it again."""
    return [
        f"FAULT in game {fault.game} ({fault.players} player(s), strategy {fault.strategy}, "
        f"seed {fault.seed}, after {fault.decisions} decision(s)): {fault.problem}",
        f"  replay: {fault.command}",
    ]


def summary_line(result: CheckResult, games: int, players: list[int], strategies: list[str]) -> str:
    counts = ", ".join(map(str, players))
    verdict = "no fault" if result.ok else f"{len(result.faults)} fault(s)"
    if result.games < games:
        why = "interrupted" if result.interrupted else "--max-faults"
        verdict += f", stopped after {result.games} of {games} games ({why})"
    return (
        f"{result.games} game(s) checked ({counts} player(s); {', '.join(strategies)}), "
        f"{result.decisions} decisions, the invariants checked after each: {verdict} "
        f"({result.seconds:.1f} s; bot key {result.bot_key})."
    )


def check_cli(
    with_: WithOption = None,
    variant: VariantOption = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play.")] = 1000,
    players: Annotated[
        list[str] | None,
        typer.Option("--players", "-p", help="Player counts, taken in turn: 2, 1-6 or 1,3,5."),
    ] = None,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            "-s",
            help="A strategy at every seat, taken in turn (repeatable; default: random and rules).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Game i has seed SEED + i.")] = 0,
    bot_key: BotKeyOption = None,
    max_faults: Annotated[
        int, typer.Option("--max-faults", help="Stop after this many faults.")
    ] = 10,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only faults.")] = False,
) -> None:
    """Prove a plugin never breaks a game: play games with it at every player count with the
    shipped bots, the rules' invariants checked after every decision.

    Each fault is printed with the command that plays its game again; the exit status is 1
    when there is one. Stopped (Ctrl-C, SIGTERM), it says what the games played so far found,
    with status 130 when they found nothing.
    """
    from deathangel.analysis.check import DEFAULT_STRATEGIES, CheckInterrupted, check_games
    from deathangel.cli.options import parse_players
    from deathangel.errors import DeathAngelError
    from deathangel.players.seeds import check_bot_key, new_bot_key
    from deathangel.plugins.strategies import strategies as all_strategies

    try:
        key = new_bot_key() if bot_key is None else check_bot_key(bot_key)
    except ValueError as exc:
        raise DeathAngelError(f"--bot-key: {exc}") from None
    counts = parse_players(players) if players else [1, 2, 3, 4, 5, 6]
    chosen = list(strategy) if strategy else list(DEFAULT_STRATEGIES)
    ruleset = ruleset_of(with_, variant)
    found = all_strategies(None if ruleset is None else ruleset.plugin_manager)
    last = [time.monotonic()]

    def progress(done: int, total: int, faults: int) -> None:
        # A line every ten seconds on stderr, for a long check (a log or a terminal alike).
        now = time.monotonic()
        if quiet or done == total or now - last[0] < 10:
            return
        last[0] = now
        print(f"{done}/{total} games checked, {faults} fault(s)", file=sys.stderr, flush=True)

    # SIGTERM, and Ctrl-C to a background job, stop it as Ctrl-C does: with what it found.
    # A check writes nothing: it may stop anywhere.
    try:
        with StopSignals() as stop, stop.at_once():
            result = check_games(
                ruleset,
                found,
                games=games,
                players=counts,
                strategies=chosen,
                seed=seed,
                bot_key=key,
                max_faults=max_faults,
                progress=progress,
            )
    except CheckInterrupted as stopped:
        result = stopped.result
    for fault in result.faults:
        for line in fault_lines(fault):
            typer.echo(line)
    if not quiet or result.faults or result.interrupted:
        typer.echo(summary_line(result, games, counts, chosen))
    if result.faults:
        raise typer.Exit(EXIT_FAULT)
    if result.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)
