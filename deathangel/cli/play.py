"""``deathangel play``: play a game at this terminal, people and bots at any seats.

A thin command over :func:`deathangel.tui.play.play`: it parses ``--team SEAT=COLOUR[,COLOUR]``
and ``--seat SEAT=human|bot:STRATEGY``, chooses where answers come from (the terminal, or
``--input FILE`` / a stdin that is not a terminal, line by line) and turns the session's end
into the exit code: 0 when the game ended or a person quit, 2 when the answers ran out first.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from deathangel.cli.expansions import VariantOption, WithOption, ruleset_of
from deathangel.cli.options import BotKeyOption, IsolateOption
from deathangel.cli.output import EXIT_INTERRUPTED
from deathangel.errors import DeathAngelError


def parse_seat_value(text: str, option: str) -> tuple[int, str]:
    """``"2=bot:random"`` -> ``(2, "bot:random")``."""
    seat, sep, value = text.partition("=")
    if not sep or not seat.strip().isdigit() or not value.strip():
        raise DeathAngelError(f"{option} takes SEAT=VALUE (e.g. {option} 2=...), not {text!r}")
    return int(seat), value.strip()


def parse_teams(values: list[str]) -> dict[int, tuple[str, ...]]:
    """``["1=green,blue", "2=red"]`` -> ``{1: ("green", "blue"), 2: ("red",)}``."""
    teams: dict[int, tuple[str, ...]] = {}
    for text in values:
        seat, value = parse_seat_value(text, "--team")
        if seat in teams:
            raise DeathAngelError(f"--team gives seat {seat} twice")
        teams[seat] = tuple(c.strip().lower() for c in value.split(",") if c.strip())
    return teams


def parse_seats(values: list[str]) -> dict[int, str]:
    """``["2=bot:random"]`` -> ``{2: "bot:random"}`` (checked by the session)."""
    from deathangel.tui.play import parse_controller

    seats: dict[int, str] = {}
    for text in values:
        seat, value = parse_seat_value(text, "--seat")
        if seat in seats:
            raise DeathAngelError(f"--seat gives seat {seat} twice")
        seats[seat] = parse_controller(value)
    return seats


def play_cli(
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Seats, 1–6 (default 1).")
    ] = None,
    team: Annotated[
        list[str] | None,
        typer.Option(
            "--team",
            help="SEAT=COLOUR[,COLOUR]: the teams a seat plays (repeatable); "
            "seats not named get teams at random.",
        ),
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat",
            help="SEAT=human or SEAT=bot:STRATEGY (e.g. bot:random, bot:rules, "
            "bot:mcts:iterations=200; 'deathangel strategies list' shows them); repeatable; "
            "every seat is human by default.",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", "-s", help="Fixes every shuffle and roll (default: fresh)."),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            help="Save to FILE after every decision (default: a new file in the saves folder, "
            "shown at the start). A FILE holding something else is refused without --force.",
        ),
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            help="Continue the game saved in FILE (and save back there); with no FILE, "
            "choose among the most recent unfinished games.",
            metavar="[FILE]",
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Let --save write over a file that holds something else."),
    ] = False,
    input_file: Annotated[
        Path | None,
        typer.Option("--input", help="Read the answers from FILE, one per line (for scripts)."),
    ] = None,
    handicap: Annotated[
        int | None,
        typer.Option("--handicap", help="Support tokens each marine starts with (house rule)."),
    ] = None,
    with_: WithOption = None,
    variant: VariantOption = None,
    isolate: IsolateOption = False,
    bot_key: BotKeyOption = None,
    hints: Annotated[
        bool,
        typer.Option(
            "--hints",
            help="Show the search's estimate of every option at each of your decisions "
            "(type hint at any prompt for one).",
        ),
    ] = False,
) -> None:
    """Play Space Hulk: Death Angel at this terminal.

    With no options: a solo game for one person, teams dealt at random.

    Every decision is a numbered menu; type ? at any prompt for help.

    People at one terminal take turns (hot seat); bots play the seats given as SEAT=bot:STRATEGY.

    Every game is saved as it goes; Ctrl-C, Ctrl-D and quit print how to continue it.

    Exit code 0 when the game ends (won or lost) or you quit; 2 when the answers run out.
    """
    from deathangel.tui.play import answers_for, play
    from deathangel.tui.style import terminal_console

    console = terminal_console()
    answers = answers_for(console, input_file, sys.stdin)
    if resume is not None and (with_ or variant):
        # A save names its own plugins and variants; resuming rebuilds exactly those.
        raise DeathAngelError(
            "--with and --variant cannot change a resumed game (it keeps its own)"
        )
    try:
        result = play(
            console=console,
            answers=answers,
            players=players,
            teams=parse_teams(team or []),
            seats=parse_seats(seat or []),
            seed=seed,
            handicap=handicap,
            save=save,
            resume=resume,
            force=force,
            ruleset=ruleset_of(with_, variant),
            isolate=isolate,
            bot_key=bot_key,
            hints=hints,
        )
    except KeyboardInterrupt:  # before the game began (choosing a save): nothing to keep
        typer.echo("\nStopped before the game began.")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if result.message is not None:
        typer.echo(f"error: {result.message}", err=True)
    raise typer.Exit(result.exit_code)
