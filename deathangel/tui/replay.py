"""Watching a game again, decision by decision, with every die roll and its reason.

:func:`replay` reads a save file (any save: finished, quit, or cut short), checks it as
``--resume`` would, then rebuilds the game from its config and applies the saved decisions one
at a time. After each it shows who decided what, the new log lines (every roll with its
reason) and the board as a spectator sees it. Between steps it waits for Enter (``q`` stops)
or, with a speed, plays on by itself. :func:`replay_tournament_game` shows a game of a
tournament's results database the same way, after playing it again from its seed and entry.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from deathangel.engine.decisions import Option
from deathangel.engine.game import Game
from deathangel.errors import SaveFileError
from deathangel.tui.board import render_board
from deathangel.tui.play import Answers, load_game


def replay(
    path: str | Path,
    *,
    console: Console,
    speed: float | None = None,
    steps: Answers | None = None,
) -> int:
    """Show the game saved in ``path`` step by step; returns the number of decisions shown.

    ``speed``: seconds between steps (0: no pause). Without it, ``steps`` is asked before
    each step: an empty answer goes on, ``q`` stops, no more answers plays on to the end.

    :raises SaveFileError: ``"<path>: ..."`` for a corrupt, foreign or incompatible save
        (the file is only read).
    """
    saved, controllers, _ = load_game(path)
    return show_replay(
        saved, controllers, f"Replay of {path}", console=console, speed=speed, steps=steps
    )


def replay_tournament_game(
    db: str | Path,
    game_id: int,
    *,
    console: Console,
    speed: float | None = None,
    steps: Answers | None = None,
) -> int:
    """Show game ``game_id`` (its row id) of the results database ``db``, played again from
    its seed, its cell and its entry's bots; returns the number of decisions shown.

    :raises DeathAngelError: for a missing database or game, or a game that does not come
        out as stored (played by other strategy code).
    """
    from deathangel.tournament.replays import replay_stored_game

    played, row = replay_stored_game(db, game_id)
    title = (
        f"Replay of game {game_id} of {db} (entry {row.entry!r}, {row.cell.label}, game {row.game})"
    )
    return show_replay(played, row.controllers, title, console=console, speed=speed, steps=steps)


def show_replay(
    saved: Game,
    controllers: dict[int, str],
    title: str,
    *,
    console: Console,
    speed: float | None = None,
    steps: Answers | None = None,
) -> int:
    """Show the decisions of ``saved`` (a game played or loaded to where the replay ends)
    one at a time on a fresh game of the same config."""
    game = Game(saved.config, ruleset=saved.ruleset, db=saved.db, log=True)
    history: list[Option] = list(saved.history)
    total = len(history)
    shown = 0

    def say(text: str, style: str = "") -> None:
        console.print(Text(text, style=style), soft_wrap=True)

    def new_lines() -> None:
        nonlocal shown
        for line in game.log[shown:]:
            say(f"  {line}", "bold" if line.startswith("—") else "dim")
        shown = len(game.log)

    config = saved.config
    say(f"{title}: {config.players} player(s), seed {config.seed}, {total} decision(s).", "bold")
    for seat in range(1, config.players + 1):
        say(
            f"  Seat {seat}: {controllers[seat]:<12} teams " + ", ".join(game.state.seats[seat - 1])
        )
    new_lines()
    console.print(render_board(game, None))
    pausing = speed is None and steps is not None
    for step, option in enumerate(history, start=1):
        if pausing:
            assert steps is not None
            answer = steps.ask(f"[{step}/{total}] Enter: next, q: quit> ")
            if answer is None:
                pausing = False
            elif answer.strip().lower() in ("q", "quit"):
                say("Replay stopped.")
                return step - 1
        elif speed:
            time.sleep(speed)
        decision = game.decision
        if decision is None:  # pragma: no cover - load_game replayed these same decisions
            raise SaveFileError(f"{title}: the game ends before decision {step}")
        say(
            f"Decision {step}/{total} · round {game.state.round} · seat {decision.seat} "
            f"({controllers[decision.seat]}) · {decision.prompt or decision.kind}: {option}",
            "bold cyan",
        )
        game.apply(option)
        new_lines()
        console.print(render_board(game, None))
    if game.outcome is not None:
        say(
            f"Game over: {game.outcome} after {game.state.round} round(s).",
            "bold green" if game.outcome == "victory" else "bold red",
        )
    else:
        say(f"Saved before the end (round {game.state.round}).", "bold")
    return total


def replay_events(path: str | Path) -> list[dict[str, Any]]:
    """The game saved in ``path`` as a list of events, for programs (``replay --json``):
    ``start`` (config, seats, the setup's log lines), one ``decision`` per decision made
    (round, seat and controller, what was asked, the answer in words and as a code, and the
    log lines it led to: every roll with its reason) and ``end`` (the outcome, or ``null``
    for a game saved before its end).

    :raises SaveFileError: as :func:`replay` does.
    """
    saved, controllers, _ = load_game(path)
    game = Game(saved.config, db=saved.db, log=True)
    events: list[dict[str, Any]] = [
        {
            "type": "start",
            "config": saved.config.to_dict(),
            "seats": {str(s): c for s, c in sorted(controllers.items())},
            "teams": [list(t) for t in game.state.seats],
            "log": list(game.log),
        }
    ]
    for step, option in enumerate(saved.history, start=1):
        decision = game.decision
        if decision is None:  # pragma: no cover - load_game replayed these same decisions
            raise SaveFileError(f"{path}: the game ends before decision {step}")
        shown = len(game.log)
        round_ = game.state.round
        game.apply(option)
        events.append(
            {
                "type": "decision",
                "step": step,
                "round": round_,
                "seat": decision.seat,
                "controller": controllers[decision.seat],
                "kind": decision.kind,
                "prompt": decision.prompt,
                "choice": str(option),
                "code": option.code(),
                "log": game.log[shown:],
            }
        )
    events.append({"type": "end", "outcome": game.outcome, "round": game.state.round})
    return events
