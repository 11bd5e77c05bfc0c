"""Event-card abilities (RULES §8 step 1), one function per effect name of the catalogue.

Each takes ``(engine, params)``, runs before the card's spawn boxes, and asks its decisions of
the current player. Instinct cards follow RULES §8: the choice must be a valid target if one
exists, and where the card implies a maximum the chooser must pick a target that achieves the
most it can (:func:`deathangel.effects.common.best`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deathangel.engine import Engine, Flow

EventEffect = Callable[["Engine", Mapping[str, Any]], "Flow"]

EVENT_EFFECTS: dict[str, EventEffect] = {}
