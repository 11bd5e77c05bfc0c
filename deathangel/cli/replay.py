"""``deathangel replay FILE``: watch a saved game again, every decision and every die roll.

A thin command over :func:`deathangel.tui.replay.replay`: without ``--speed`` it steps with
Enter (``q`` stops); with ``--speed SECONDS`` it plays on by itself. A corrupt or foreign save
file is refused in one line (exit 1) and left untouched.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from deathangel.errors import DeathAngelError


def replay_cli(
    file: Annotated[Path, typer.Argument(help="A save file (deathangel play --save FILE).")],
    speed: Annotated[
        float | None,
        typer.Option(
            "--speed", help="Seconds between decisions, playing on by itself (0: no pause)."
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print the game as a JSON list of events (start, decisions, end)."
        ),
    ] = False,
) -> None:
    """Watch a saved game again: the board after each decision and every die roll.

    Without --speed, press Enter for the next decision (q quits).
    """
    if as_json:
        import json

        from deathangel.tui.replay import replay_events

        typer.echo(json.dumps(replay_events(file), ensure_ascii=False))
        return
    from deathangel.tui.play import ScriptedAnswers, TerminalAnswers
    from deathangel.tui.replay import replay
    from deathangel.tui.style import terminal_console

    if speed is not None and speed < 0:
        raise DeathAngelError(f"--speed must be 0 or more seconds, not {speed}")
    console = terminal_console()
    steps = TerminalAnswers(console) if sys.stdin.isatty() else ScriptedAnswers(sys.stdin, console)
    try:
        replay(file, console=console, speed=speed, steps=steps)
    except KeyboardInterrupt:
        typer.echo("\nReplay stopped.")
        raise typer.Exit(130) from None
