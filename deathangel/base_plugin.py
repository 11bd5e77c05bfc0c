"""The base game, registered through the same hooks an expansion uses."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from deathangel.effectspec import BASE_EFFECTS, EffectSpec
from deathangel.hookspecs import hookimpl


def base_card_dir() -> Path:
    """Where the base-game card files are: inside the wheel, or in the source checkout."""
    packaged = Path(__file__).parent / "_cards" / "base"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "cards" / "base"


@hookimpl
def deathangel_card_dirs() -> Sequence[Path]:
    return [base_card_dir()]


@hookimpl
def deathangel_effects() -> Sequence[EffectSpec]:
    return BASE_EFFECTS


@hookimpl
def deathangel_strategies() -> dict[str, Callable[..., Any]]:
    from deathangel.players import RandomPlayer

    return {"random": RandomPlayer}
