"""Geometry of the formation: shifting, swapping, terrain placement and swarm movement.

These are the rules about *where* things go (RULES §8.3, §9, §10.2), kept apart from the phase
engine so each can be tested with a hand-built state and no dice. Rows are 0-based.
"""

from __future__ import annotations

from collections.abc import Iterable

from deathangel.cards.model import TerrainPlacement
from deathangel.engine.state import (
    LEFT,
    RIGHT,
    CardTable,
    GameState,
    MarineState,
    Position,
    TerrainState,
)


def placement_row(placement: TerrainPlacement, rows: int) -> int:
    """The 0-based row a terrain placement names in a formation of ``rows`` rows.

    "From top" counts down from the first row, "from bottom" counts up from the last; a number
    past the end clamps to the last row reached in that direction (RULES §10 step 2).
    """
    if placement.count_from == "top":
        return min(placement.position, rows) - 1
    return max(rows - placement.position, 0)


def place_terrain(state: GameState, placements: Iterable[TerrainPlacement]) -> None:
    """Discard every terrain card in the formation, then place the given ones."""
    rows = len(state.formation)
    for pos in state.formation:
        pos.terrain[LEFT].clear()
        pos.terrain[RIGHT].clear()
    if rows == 0:
        return
    for placement in placements:
        side = LEFT if placement.side == "left" else RIGHT
        state.formation[placement_row(placement, rows)].terrain[side].append(
            TerrainState(placement.terrain)
        )


def remove_row(state: GameState, row: int) -> tuple[MarineState, Position | None]:
    """Take out the marine at ``row`` and close the gap (RULES §9).

    The smaller segment (the bottom one when equal) moves one row toward the gap, carrying its
    terrain and swarms; what was beside the gap joins the row that moves onto it. Returns the
    removed marine and, when the last marine goes, his row (whose swarms and terrain are left
    with nowhere to go); otherwise ``None``.
    """
    formation = state.formation
    gap = formation[row]
    above = row
    below = len(formation) - row - 1
    del formation[row]
    if not formation:
        return gap.marine, gap
    # The neighbour whose segment moves lands on the gap's row and joins what is there.
    mover = formation[row - 1] if (below == 0 or (above < below and above > 0)) else formation[row]
    for side in (LEFT, RIGHT):
        mover.swarms[side].extend(gap.swarms[side])
        mover.terrain[side].extend(gap.terrain[side])
    return gap.marine, None


def swap_marines(state: GameState, row_a: int, row_b: int) -> None:
    """Exchange two marines; facing goes with the marine, swarms and terrain stay (§6.2)."""
    f = state.formation
    f[row_a].marine, f[row_b].marine = f[row_b].marine, f[row_a].marine


def swarm_destination(state: GameState, row: int, side: int, kind: str) -> tuple[int, int]:
    """Where a swarm at (row, side) goes for a move box of ``kind`` (RULES §8 step 3).

    Adjacent: left swarms go one row down, right swarms one row up (counter-clockwise); a
    swarm that would leave the formation flanks instead. Flank: behind the engaged marine; a
    swarm already behind him stays.
    """
    if kind == "adjacent":
        target = row + 1 if side == LEFT else row - 1
        if 0 <= target < len(state.formation):
            return target, side
    facing = state.formation[row].marine.facing
    if side == facing:
        return row, 1 - side
    return row, side


def move_swarms(state: GameState, table: CardTable, icon: str, kind: str) -> int:
    """Resolve a move box: every swarm holding a not-yet-moved card with ``icon`` moves.

    Each card moves at most once per Event phase (``state.moved``), so destinations are worked
    out from the formation as it stands, then every moving group is lifted and set down at
    once: a group that has moved never moves again by landing on a swarm still to move. Cards
    already moved stay where they are. Returns the number of cards moved.
    """
    icons = table.gs_icons
    moved = state.moved
    plans: list[tuple[int, int, list[int], int, int]] = []
    for row, pos in enumerate(state.formation):
        for side in (LEFT, RIGHT):
            swarm = pos.swarms[side]
            if not swarm:
                continue
            movers = [c for c in swarm if c not in moved]
            if not any(icon in icons[c] for c in movers):
                continue
            dest = swarm_destination(state, row, side, kind)
            if dest != (row, side):
                plans.append((row, side, movers, dest[0], dest[1]))
    for row, side, _movers, _, _ in plans:
        swarm = state.formation[row].swarms[side]
        swarm[:] = [c for c in swarm if c in moved]
    count = 0
    for _, _, movers, drow, dside in plans:
        state.formation[drow].swarms[dside].extend(movers)
        moved.update(movers)
        count += len(movers)
    return count


def targets_in_range(state: GameState, row: int) -> list[int]:
    """Rows whose swarm on the marine's facing side he may attack (range and facing, §2)."""
    pos = state.formation[row]
    marine = pos.marine
    side = marine.facing
    lo = max(0, row - marine.range)
    hi = min(len(state.formation) - 1, row + marine.range)
    return [r for r in range(lo, hi + 1) if state.formation[r].swarms[side]]
