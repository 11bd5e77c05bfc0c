"""Broodwake: a homebrew deathangel expansion that uses every extension point.

- cards as data (``cards/*.toml``): the white combat team, two events, a location with a new
  terrain card, and a new enemy type, the Tunnel Burrower;
- a manifest (``manifest.toml``): hook API 1; the new location replaces the Black Holds;
- Python effects for the new mechanics (:mod:`deathangel_broodwake.effects`), each declared
  with its timing;
- a rule variant (``--variant no_burrowers``) and a strategy (``bot:hoarder``).

Play with ``deathangel play --with broodwake``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from deathangel.cards.catalogue import EffectSpec
from deathangel.cards.manifest import Manifest, read_manifest
from deathangel.engine.decisions import REROLL, Decision, Option
from deathangel.plugins import Changes, VariantSpec, hookimpl
from deathangel_broodwake import effects

__version__ = "1.0.0"

HERE = Path(__file__).resolve().parent


@hookimpl
def deathangel_manifest() -> Manifest:
    return read_manifest(HERE / "manifest.toml")


@hookimpl
def deathangel_card_dirs() -> Sequence[Path]:
    return [HERE / "cards"]


@hookimpl
def deathangel_effects() -> Sequence[EffectSpec]:
    return [
        EffectSpec(
            "broodwake_breaching_charge",
            "activation",
            {},
            "After a team marine activates a terrain card, roll: a skull slays 1 engaged with him.",
        ),
        EffectSpec(
            "broodwake_last_rites",
            "attack_after",
            {},
            "After the attacks, each team marine engaged with no swarm takes 1 token.",
        ),
        EffectSpec(
            "broodwake_seismic_shock",
            "event",
            {},
            "Each marine engaged with a Tunnel Burrower puts 1 token back in the supply.",
        ),
        EffectSpec(
            "broodwake_shore_up",
            "terrain",
            {},
            "The marine takes 1 token; then a roll of 0 discards this terrain card.",
        ),
        EffectSpec(
            "broodwake_acid_blood",
            "enemy_slain",
            {},
            "The marine who slew it rolls; on a 0 he loses all his support tokens.",
        ),
    ]


@hookimpl
def deathangel_effect_implementations() -> Mapping[str, Callable[..., Any]]:
    return {
        "broodwake_breaching_charge": effects.breaching_charge,
        "broodwake_last_rites": effects.last_rites,
        "broodwake_seismic_shock": effects.seismic_shock,
        "broodwake_shore_up": effects.shore_up,
        "broodwake_acid_blood": effects.acid_blood,
    }


def _no_burrowers(_: Any) -> Changes:
    return Changes(remove=(effects.BURROWER,))


@hookimpl
def deathangel_variants() -> Sequence[VariantSpec]:
    return [
        VariantSpec(
            "no_burrowers",
            "Broodwake without its Tunnel Burrowers: the Genestealer deck as printed.",
            _no_burrowers,
        )
    ]


class Hoarder:
    """Random, except that it never spends a support token on a reroll.

    :param seed: seeds its own random stream (never the game's).
    """

    observes = False  # it never looks at the table

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"broodwake-hoarder:{seed}")

    def choose(self, observation: object, decision: Decision) -> Option:
        options = decision.options
        if decision.kind == REROLL:
            keep = [o for o in options if o.verb == "keep"]
            if keep:
                return keep[0]
        return options[int(self.rng.random() * len(options))]


@hookimpl
def deathangel_strategies() -> dict[str, Callable[..., Any]]:
    return {"hoarder": Hoarder}
