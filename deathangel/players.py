"""Players: anything that answers a decision, given only what its seat may know.

A player has one method, ``choose(observation, decision) -> Option``, returning one of
``decision.options``. Strategies are registered by plugins (hook ``deathangel_strategies``);
the base game offers :class:`RandomPlayer`.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from deathangel.decisions import Decision, Option


class Player(Protocol):
    """What a seat's controller must do."""

    def choose(self, observation: Any, decision: Decision) -> Option:
        """Return one of ``decision.options``."""
        ...


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
