"""The layout of the encoding: its fields, their columns and the top value of each number.

What the numbers of an encoded observation mean, and where each sits in the flat vector:
nine named fields (:data:`FIELDS`, alphabetical, so that Gymnasium's ``Dict`` space, which
sorts its keys, flattens to exactly the flat vector), each a table of rows (a position, a
card, a team...) by named column groups. ``docs/learning.md`` describes every column; a test
checks it does. How the numbers are filled in, fast, is :mod:`deathangel.learning.encoding`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from deathangel.learning.extra import missing_extra

    raise missing_extra(exc) from None

from attrs import frozen

from deathangel.cards.model import ICONS, TERRAIN_COLOURS, Location, SetupLocation
from deathangel.engine import decisions as d
from deathangel.engine.state import PHASES, CardTable
from deathangel.learning.actions import Pool, action_table

ENCODING_VERSION = 1
"""The layout of the encoding; bumped whenever a field or column changes."""

SEATS = 6
"""Seats a game may have (RULES §3): seat one-hots have this many places."""

CAP = 999
"""The most a count with no bound in the rules is written as (the round, how often an Event
was resolved, Lead by Example's uses): Box spaces need a finite top."""

DECISION_KINDS: tuple[str, ...] = (
    d.CHOOSE_ACTION,
    d.PLACE_SUPPORT,
    d.MOVE,
    d.FACING,
    d.ACTIVATE,
    d.ATTACK,
    d.REROLL,
    d.SLAY,
    d.SPAWN_ORDER,
    d.BLIP_SPLIT,
    d.DOOR_SLAY,
    d.TARGET_MARINE,
    d.TARGET_SWARM,
    d.TARGET_PILE,
    d.TARGET_TEAM,
    d.TARGET_TERRAIN,
    d.CHOOSE,
    d.CHOOSE_TEAM,
)
"""Decision kinds in encoding order; a kind not listed (a plugin's own) sets ``other``."""

PHASE_NAMES: tuple[str, ...] = ("setup", *PHASES)

FIELDS: tuple[str, ...] = (
    "cards",
    "decision",
    "events",
    "formation",
    "genestealers",
    "marines",
    "table",
    "teams",
    "terrain",
)
"""The fields of the encoding, in flat order (alphabetical, as ``gymnasium.spaces.Dict``
orders its keys)."""


class _Columns:
    """Named column groups of one field row: offsets, widths and each column's top value."""

    def __init__(self) -> None:
        self.groups: dict[str, tuple[int, int]] = {}
        self.highs: list[float] = []

    def add(self, name: str, width: int, high: float) -> int:
        start = len(self.highs)
        self.groups[name] = (start, width)
        self.highs.extend([float(high)] * width)
        return start

    @property
    def width(self) -> int:
        return len(self.highs)


@frozen
class Field:
    """One field of the encoding: where it sits in the flat vector and its columns."""

    name: str
    offset: int
    shape: tuple[int, ...]
    columns: Mapping[str, tuple[int, int]]
    """Column group -> (first column, width), within one row of the field."""
    high: tuple[float, ...]
    """The top value of each column of one row."""

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n


class Layout:
    """The fields of the encoding for one card pool (its marines, cards, teams, kinds...)."""

    def __init__(self, table: CardTable) -> None:
        self.table = table
        db = table.db
        self.pool = pool = Pool.of(table)
        self.actions = action_table(table)
        marines, teams, cards = pool.marines, pool.teams, pool.cards
        terrain, kinds = pool.terrain, pool.kinds
        self.marine_index = {name: i for i, name in enumerate(marines)}
        self.team_index = {name: i for i, name in enumerate(teams)}
        self.card_index = {name: i for i, name in enumerate(cards)}
        self.terrain_index = {name: i for i, name in enumerate(terrain)}
        self.kind_index = {name: i for i, name in enumerate(kinds)}
        # Events: one place per distinct card (copies of one card are alike).
        event_of: list[int] = []
        for i, event in enumerate(db.events):
            event_of.extend([i] * event.copies)
        self.event_of = tuple(event_of)
        """The distinct Event (its place) of each Event card id."""
        places: list[SetupLocation | Location] = [*db.setup_locations, *db.locations]
        self.places = tuple(places)
        """Every location, setup locations first: the places of the ``location`` one-hot."""
        n_gs = len(table.gs_labels)
        weights = table.gs_weight or (1,) * n_gs
        strongest = sum(weights)
        supply = db.support_tokens
        rows = pool.rows
        deck = table.deck_size
        longest_deck = max((len(s.location_deck) for s in db.setup_locations), default=0)
        n_events = len(table.events)
        most_range = max((m.range for t in db.teams for m in t.marines), default=0)

        fields: list[Field] = []
        offset = 0

        def field(name: str, rows_: int, cols: _Columns) -> Field:
            nonlocal offset
            shape = (rows_, cols.width) if rows_ else (cols.width,)
            f = Field(name, offset, shape, dict(cols.groups), tuple(cols.highs))
            offset += f.size
            fields.append(f)
            return f

        # -- cards: one row per action card of the pool -----------------------------------
        c = _Columns()
        for name in ("in_game", "mine", "chosen", "revealed", "resolved", "last_resolved"):
            c.add(name, 1, 1)
        c.add("initiative", 1, max((a.initiative for t in db.teams for a in t.actions), default=1))
        field("cards", len(cards), c)
        # -- decision: the pending question -----------------------------------------------
        c = _Columns()
        c.add("pending", 1, 1)
        c.add("kind", len(DECISION_KINDS) + 1, 1)
        c.add("mine", 1, 1)
        c.add("seat", SEATS, 1)
        c.add("options", 1, self.actions.size)
        c.add("attack_roll", 1, 1)
        c.add("defence_roll", 1, 1)
        c.add("face", 6, 1)
        c.add("swarm", 1, strongest)
        c.add("marine", len(marines), 1)
        field("decision", 0, c)
        # -- events: one row per distinct Event card --------------------------------------
        c = _Columns()
        c.add("discarded", 1, n_events)
        c.add("resolved", 1, CAP)
        c.add("current", 1, 1)
        c.add("scouted", 1, 1)
        field("events", len(db.events), c)
        # -- formation: one row per position, top first -----------------------------------
        c = _Columns()
        c.add("present", 1, 1)
        c.add("marine", len(marines), 1)
        c.add("team", len(teams), 1)
        c.add("mine", 1, 1)
        c.add("range", 1, most_range)
        c.add("facing_right", 1, 1)
        c.add("tokens", 1, supply)
        c.add("second_wind", 1, 1)
        c.add("second_wind_next", 1, 1)
        for side in ("left", "right"):
            c.add(f"{side}_cards", 1, n_gs)
            c.add(f"{side}_strength", 1, strongest)
            c.add(f"{side}_kind", len(kinds), n_gs)
            c.add(f"{side}_icon", len(ICONS), n_gs)
            c.add(f"{side}_attacked", 1, n_gs)
            c.add(f"{side}_moved", 1, n_gs)
            c.add(f"{side}_protected", 1, n_gs)
            c.add(f"{side}_wounds", 1, CAP)
            c.add(f"{side}_terrain", len(terrain), len(db.terrain))
            c.add(f"{side}_colour", len(TERRAIN_COLOURS), len(db.terrain))
            c.add(f"{side}_terrain_tokens", 1, supply)
            c.add(f"{side}_can_activate", 1, len(db.terrain))
        field("formation", rows, c)
        # -- genestealers: one row per kind -----------------------------------------------
        c = _Columns()
        c.add("discarded", 1, n_gs)
        c.add("in_formation", 1, n_gs)
        c.add("lords_slain", 1, n_gs)
        field("genestealers", len(kinds), c)
        # -- marines: one row per marine of the pool --------------------------------------
        c = _Columns()
        for name in ("in_game", "mine", "slain"):
            c.add(name, 1, 1)
        c.add("position", 1, rows)
        field("marines", len(marines), c)
        # -- table: everything else on the table ------------------------------------------
        c = _Columns()
        c.add("seat", SEATS, 1)
        c.add("players", SEATS, 1)
        c.add("current_seat", SEATS, 1)
        c.add("i_am_current", 1, 1)
        c.add("round", 1, CAP)
        c.add("phase", len(PHASE_NAMES), 1)
        c.add("location", len(places), 1)
        c.add("final_location", 1, 1)
        c.add("locations_left", 1, longest_deck)
        c.add("location_tokens", 1, supply)
        c.add("genestealer_deck", 1, deck)
        c.add("blips_left", 1, deck)
        c.add("blips_right", 1, deck)
        c.add("event_deck", 1, n_events)
        c.add("genestealer_discard", 1, deck)
        c.add("event_discard", 1, n_events)
        c.add("supply", 1, supply)
        for name in ("evasion", "evasion_next", "enter_formation", "enter_formation_next"):
            c.add(name, 1, 1)
        c.add("artefact_mine", 1, 1)
        c.add("artefact_other", 1, 1)
        c.add("victory", 1, 1)
        c.add("defeat", 1, 1)
        field("table", 0, c)
        # -- teams: one row per team of the pool ------------------------------------------
        c = _Columns()
        for name in ("in_game", "mine", "eliminated", "gun_jam", "gun_jam_next"):
            c.add(name, 1, 1)
        c.add("lead_used", 1, CAP)
        c.add("seat", SEATS, 1)
        field("teams", len(teams), c)
        # -- terrain: one row per terrain card of the pool --------------------------------
        c = _Columns()
        c.add("activated", 1, 1)
        c.add("limited", 1, 1)
        c.add("limit_left", 1, CAP)
        c.add("in_formation", 1, len(db.terrain))
        field("terrain", len(terrain), c)

        assert tuple(f.name for f in fields) == FIELDS
        self.fields: tuple[Field, ...] = tuple(fields)
        self.field = {f.name: f for f in fields}
        self.size = offset
        high = np.concatenate(
            [np.tile(np.array(f.high, dtype=np.float32), f.size // len(f.high)) for f in fields]
        )
        self.high: NDArray[np.float32] = high
        """The top value of every number of the flat vector (the spaces' ``high``)."""
        self._slices = [
            (f.name, slice(f.offset, f.offset + f.size), f.shape if len(f.shape) > 1 else None)
            for f in fields
        ]

    def at(self, f: Field, group: str, row: int = 0, k: int = 0) -> int:
        """The flat index of place ``k`` of column group ``group`` in row ``row`` of ``f``."""
        start, width = f.columns[group]
        assert 0 <= k < width
        return f.offset + row * f.shape[-1] + start + k

    # -- spaces ---------------------------------------------------------------------------------

    def dict_space(self) -> Any:
        """The Gymnasium ``Dict`` space of :meth:`as_dict` observations."""
        from gymnasium import spaces

        return spaces.Dict(
            {
                f.name: spaces.Box(
                    low=0.0,
                    high=self.high[f.offset : f.offset + f.size].reshape(f.shape),
                    dtype=np.float32,
                )
                for f in self.fields
            }
        )

    def flat_space(self) -> Any:
        """The Gymnasium ``Box`` space of flat observations."""
        from gymnasium import spaces

        return spaces.Box(low=0.0, high=self.high.copy(), dtype=np.float32)

    def as_dict(self, flat: NDArray[np.float32]) -> dict[str, NDArray[np.float32]]:
        """The named fields of a flat vector, as views of it (no copy)."""
        # Slices and shapes made once: measured about half the cost of working them out.
        return {
            name: flat[where] if shape is None else flat[where].reshape(shape)
            for name, where, shape in self._slices
        }
