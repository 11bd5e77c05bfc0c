"""``--players`` is read one way by every command that takes several counts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from deathangel.cli.options import parse_players
from deathangel.errors import DeathAngelError


@pytest.mark.parametrize(
    ("values", "counts"),
    [
        ("1", [1]),
        ("1-6", [1, 2, 3, 4, 5, 6]),
        ("1,3,5", [1, 3, 5]),
        (" 2 - 4 ,6", [2, 3, 4, 6]),
        (["2", "4-5"], [2, 4, 5]),
    ],
)
def test_counts_ranges_and_lists(values: str | list[str], counts: list[int]) -> None:
    assert parse_players(values) == counts


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("3-1", "--players '3-1': a range goes from low to high (1-3)"),
        ("0", "--players must be between 1 and 6, not 0"),
        ("1-7", "--players '1-7': counts must be between 1 and 6"),
        ("two", "--players 'two': write a count (2), a range (1-6) or a list (1,3,5)"),
        ("1,", "--players '1,': write a count (2), a range (1-6) or a list (1,3,5)"),
    ],
)
def test_anything_else_is_refused_naming_it(value: str, message: str) -> None:
    with pytest.raises(DeathAngelError) as info:
        parse_players(value)
    assert str(info.value) == message


def test_value_fit_refuses_a_backwards_range_before_playing() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "deathangel", "value", "fit", "-p", "3-1", "-o", "m.json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (run.returncode, run.stderr) == (
        1,
        "error: --players '3-1': a range goes from low to high (1-3)\n",
    )
