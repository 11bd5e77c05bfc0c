"""An example deathangel expansion: cards as data, one new mechanic as Python.

Everything reaches deathangel through the hooks of :mod:`deathangel.plugins.hookspecs`; the package
is found through its ``deathangel`` entry point (see pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from deathangel.cards.catalogue import EffectSpec
from deathangel.cards.manifest import Manifest
from deathangel.engine.decisions import Flow
from deathangel.engine.effects.common import place_token
from deathangel.engine.rounds import Engine
from deathangel.plugins.hookspecs import hookimpl

CARDS = Path(__file__).parent / "cards"


@hookimpl
def deathangel_manifest() -> Manifest:
    # Written for hook API 1; its two events join the base game's Event deck.
    return Manifest(api=1, title="Example", summary="Two events, one of them a new mechanic.")


@hookimpl
def deathangel_card_dirs() -> Sequence[Path]:
    return [CARDS]


@hookimpl
def deathangel_effects() -> Sequence[EffectSpec]:
    return [
        EffectSpec(
            name="example_medicae_drop",
            timing="event",
            params={"amount": "int"},
            summary="Each marine with fewer than AMOUNT tokens gains 1, top to bottom.",
        )
    ]


def medicae_drop(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Top to bottom, so a short supply favours the marines nearest the location card."""
    for pos in list(engine.state.formation):
        if pos.marine.tokens < int(params["amount"]) and not place_token(engine, pos.marine.name):
            break
    return
    yield  # a generator like every effect; this one asks nothing


@hookimpl
def deathangel_effect_implementations() -> Mapping[str, Callable[..., Any]]:
    return {"example_medicae_drop": medicae_drop}
