"""The player protocol: anything that answers a decision, given only what its seat may know.

A player has one method, ``choose(observation, decision) -> Option``, returning one of
``decision.options``. Strategies are registered by plugins (hook ``deathangel_strategies``).
"""

from __future__ import annotations

from typing import Any, Protocol

from deathangel.engine.decisions import Decision, Option


class Player(Protocol):
    """What a seat's controller must do."""

    def choose(self, observation: Any, decision: Decision) -> Option:
        """Return one of ``decision.options``."""
        ...
