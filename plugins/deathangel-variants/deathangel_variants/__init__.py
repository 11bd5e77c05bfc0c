"""House rules for deathangel, each a switch a game may turn on.

Play with ``--with variants --variant NAME[=VALUE]`` (repeatable). The variants only set rule
switches the engine reads at fixed points (:class:`deathangel.engine.switches.Switches`) or
take cards out of the game; no code runs while a game is played.

- ``starting_support=N`` — every marine starts with N support tokens from the supply;
- ``defence=easier`` — a marine survives a roll equal to the swarm's size;
  ``defence=harder`` — he is also slain on a roll one above it;
- ``final_location=NAME`` — the players choose the final location instead of drawing it;
- ``remove=NAME,NAME`` — those cards are out of the game (a team by its colour);
- ``choose_teams`` — each seat picks its combat teams in turn at setup;
- ``no_instinct`` — Instinct Event cards are shown and decided openly, like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deathangel.cards.manifest import Manifest
from deathangel.plugins import Changes, VariantSpec, hookimpl

__version__ = "1.0.0"

DEFENCE_MARGIN = {"easier": -1, "harder": 1}
"""The defence variants as shifts of RULES §7's "slain when the roll is at most the size"."""


@hookimpl
def deathangel_manifest() -> Manifest:
    return Manifest(
        api=1,
        title="House rules",
        summary="Starting support, easier or harder defence, chosen final location and "
        "teams, removed cards, no Instinct.",
    )


def _starting_support(tokens: Any) -> Changes:
    return Changes(switches={"start_tokens": tokens})


def _defence(which: Any) -> Changes:
    return Changes(switches={"defence_margin": DEFENCE_MARGIN[which]})


def _final_location(name: Any) -> Changes:
    return Changes(switches={"final_location": name})


def _remove(names: Any) -> Changes:
    return Changes(remove=tuple(names))


def _choose_teams(_: Any) -> Changes:
    return Changes(switches={"choose_teams": True})


def _no_instinct(_: Any) -> Changes:
    return Changes(switches={"instinct": False})


VARIANTS: tuple[VariantSpec, ...] = (
    VariantSpec(
        "starting_support",
        "Every marine starts with N support tokens from the supply.",
        _starting_support,
        kind="int",
        low=1,
        high=4,
    ),
    VariantSpec(
        "defence",
        "easier: a roll equal to the swarm's size survives; harder: one above it is slain too.",
        _defence,
        kind="choice",
        choices=tuple(DEFENCE_MARGIN),
    ),
    VariantSpec(
        "final_location",
        "The players choose the final location instead of drawing it.",
        _final_location,
        kind="name",
    ),
    VariantSpec(
        "remove",
        "These cards are out of the game (a combat team by its colour).",
        _remove,
        kind="names",
    ),
    VariantSpec(
        "choose_teams",
        "Each seat chooses its combat teams in turn at setup instead of being dealt them.",
        _choose_teams,
    ),
    VariantSpec(
        "no_instinct",
        "Instinct Event cards are shown first and decided openly, like any other.",
        _no_instinct,
    ),
)


@hookimpl
def deathangel_variants() -> Sequence[VariantSpec]:
    return VARIANTS
