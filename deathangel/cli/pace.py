"""How fast a run goes and how long it has left, in the words of a progress line.

A search bot's game takes seconds to minutes, so a rate printed as ``0.0 games/s`` told a
researcher running an mcts tournament nothing (the logs of this project's own figures said
so for hours): below one game a second the pace is given the other way round, as seconds a
game, with enough digits to compare two runs.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deathangel.tournament.runner import Progress


def rate_text(per_second: float) -> str:
    """``1,234 games/s``, ``12.5 games/s``, ``2.50 games/s``, or ``28.4 s a game`` below one
    game a second; ``no games yet`` for a rate of 0."""
    if per_second <= 0:
        return "no games yet"
    if per_second >= 100:
        return f"{per_second:,.0f} games/s"
    if per_second >= 10:
        return f"{per_second:.1f} games/s"
    if per_second >= 1:
        return f"{per_second:.2f} games/s"
    return f"{1 / per_second:.1f} s a game"


def duration_text(seconds: float) -> str:
    """``1h05m`` or ``4m09s``: what is left of a run, to the minute once it is hours."""
    minutes, sec = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{sec:02d}s"


class _Plain:
    """A progress line every ten seconds on stderr, for logs (stderr is not a terminal)."""

    def __init__(self) -> None:
        self._last = 0.0

    def __enter__(self) -> Progress:
        return self.update

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, done: int, total: int, rate: float) -> None:
        now = time.monotonic()
        if now - self._last < 10 and done < total:
            return
        self._last = now
        speed = f", {rate_text(rate)}, {duration_text((total - done) / rate)} left" if rate else ""
        print(f"{done}/{total} games{speed}", file=sys.stderr, flush=True)


class _Silent:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


class _Bar:
    """The rich progress bar: games done, this run's pace, time left."""

    def __enter__(self) -> Progress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress

        self._bar = RichProgress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[pace]}"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self._bar.__enter__()
        self._task: Any = None
        return self.update

    def update(self, done: int, total: int, rate: float) -> None:
        if self._task is None:
            pace = rate_text(rate)
            self._task = self._bar.add_task("games", total=total, completed=done, pace=pace)
        else:
            self._bar.update(self._task, completed=done, pace=rate_text(rate))

    def __exit__(self, *exc: object) -> None:
        self._bar.__exit__(None, None, None)


def progress_reporter(quiet: bool) -> Any:
    """A context giving ``update(done, total, rate)``: nothing when ``quiet``, a rich bar on a
    terminal, else a line every ten seconds (for logs)."""
    if quiet:
        return _Silent()
    return _Bar() if sys.stderr.isatty() else _Plain()
