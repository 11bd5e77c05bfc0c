"""``deathangel replay FILE`` and ``deathangel replay --db RESULTS.db GAME``: watch a saved
game, or any game of a tournament, again, every decision and every die roll.

A thin command over :func:`deathangel.tui.replay.replay` and
:func:`~deathangel.tui.replay.replay_tournament_game`: without ``--speed`` it steps with Enter
(``q`` stops); with ``--speed SECONDS`` it plays on by itself. A corrupt or foreign save file
is refused in one line (exit 1) and left untouched.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Annotated

import typer

from deathangel.cli.output import EXIT_INTERRUPTED
from deathangel.errors import DeathAngelError


def replay_cli(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE|GAME",
            help="A save file (deathangel play --save FILE); with --db, a game's id in the "
            "results database.",
        ),
    ],
    speed: Annotated[
        float | None,
        typer.Option(
            "--speed", help="Seconds between decisions, playing on by itself (0: no pause)."
        ),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            help="A tournament's results database: replay its game GAME (the id column of "
            "its games table), played again from its seed and entry.",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print the game as a JSON list of events (start, decisions, end)."
        ),
    ] = False,
) -> None:
    """Watch a saved game, or a tournament's game, again: the board after each decision and
    every die roll.

    Without --speed, press Enter for the next decision (q quits).
    """
    if as_json:
        import json

        from deathangel.tui.replay import replay_events

        if db is not None:
            raise DeathAngelError("--json replays a save file; it does not take --db")
        typer.echo(json.dumps(replay_events(Path(file)), ensure_ascii=False))
        return
    from deathangel.tui.play import ScriptedAnswers, TerminalAnswers
    from deathangel.tui.replay import replay, replay_tournament_game
    from deathangel.tui.style import terminal_console

    if speed is not None and not 0 <= speed < math.inf:  # NaN too
        raise DeathAngelError(f"--speed must be 0 or more seconds, not {speed}")
    console = terminal_console()
    steps = TerminalAnswers(console) if sys.stdin.isatty() else ScriptedAnswers(sys.stdin, console)
    try:
        if db is None:
            replay(Path(file), console=console, speed=speed, steps=steps)
        else:
            try:
                game_id = int(file)
            except ValueError:
                raise DeathAngelError(
                    f"with --db, give the game's id (a number), not {file!r}"
                ) from None
            replay_tournament_game(db, game_id, console=console, speed=speed, steps=steps)
    except KeyboardInterrupt:
        typer.echo("\nReplay stopped.")
        raise typer.Exit(EXIT_INTERRUPTED) from None
