"""How fast a run goes and how long it has left, in the words of a progress line.

A search bot's game takes seconds to minutes, so a rate printed as ``0.0 games/s`` told a
researcher running an mcts tournament nothing (the logs of this project's own figures said
so for hours): below one game a second the pace is given the other way round, as seconds a
game, with enough digits to compare two runs.
"""

from __future__ import annotations


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
