"""Location abilities (on entering, or through a Control Panel), final-location victory
conditions, and the terrain activations beyond the base rules (Artefact, Control Panel).

A location effect takes ``(engine, params, marine)``: ``marine`` is the one who activated the
Control Panel, or ``None`` on entering. A victory effect takes ``(engine, params)`` and says
whether the condition is met.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from deathangel.abilities import TerrainEffect, _terrain_at

if TYPE_CHECKING:
    from deathangel.engine import Engine, Flow

LocationEffect = Callable[["Engine", Mapping[str, Any], "str | None"], "Flow"]
VictoryEffect = Callable[["Engine", Mapping[str, Any]], bool]


def add_door_token(engine: Engine, terrain: str) -> bool:
    """One token from the supply onto the named Door; nothing if the supply is empty."""
    st = engine.state
    where = _terrain_at(engine, terrain)
    if where is None or st.supply <= 0:
        return False
    row, side, i = where
    st.formation[row].terrain[side][i].tokens += 1
    st.supply -= 1
    engine.note(f"a support token is placed on the {terrain}")
    return True


LOCATION_EFFECTS: dict[str, LocationEffect] = {}
VICTORY_EFFECTS: dict[str, VictoryEffect] = {}
TERRAIN_EFFECTS: dict[str, TerrainEffect] = {}
