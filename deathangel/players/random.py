"""The random player: uniform over the legal options, the baseline every strategy must beat."""

from __future__ import annotations

import random
from typing import Any

from deathangel.engine.decisions import Decision, Option


class RandomPlayer:
    """Picks a legal option uniformly at random, from its own seeded stream.

    Its stream is separate from the game's, so the game's cards and dice stay the same
    whatever the bot draws (common random numbers across strategies).
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"random-player:{seed}")

    def choose(self, observation: Any, decision: Decision) -> Option:
        options = decision.options
        return options[int(self.rng.random() * len(options))]
