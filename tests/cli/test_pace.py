"""The pace of a run in its progress lines: a slow bot's tournament must not read
``0.0 games/s`` (what this project's own mcts logs said for hours)."""

from __future__ import annotations

import pytest

from deathangel.cli.pace import duration_text, rate_text


@pytest.mark.parametrize(
    ("per_second", "text"),
    [
        (1750.4, "1,750 games/s"),
        (100.0, "100 games/s"),
        (12.34, "12.3 games/s"),
        (2.5, "2.50 games/s"),
        (1.0, "1.00 games/s"),
        (0.5, "2.0 s a game"),
        (1 / 32.43, "32.4 s a game"),  # an mcts game of this project's figures table
        (0.0, "no games yet"),
    ],
)
def test_the_pace_reads_right_fast_or_slow(per_second: float, text: str) -> None:
    assert rate_text(per_second) == text


def test_time_left_is_minutes_and_seconds_then_hours_and_minutes() -> None:
    assert duration_text(249) == "4m09s"
    assert duration_text(3600 + 5 * 60 + 59) == "1h05m"
    assert duration_text(0) == "0m00s"
