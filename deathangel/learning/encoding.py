"""The observation encoding: fixed-shape numpy arrays built from one seat's ``Observation`` only.

:class:`Encoder` turns an :class:`~deathangel.engine.observation.Observation` — the honest
snapshot the engine cuts out for a seat, never the game — into one flat ``float32`` vector,
laid out as named fields (:data:`FIELDS`, alphabetical, so that Gymnasium's ``Dict`` space,
which sorts its keys, flattens to exactly this vector). Every number is a small whole number:
a count, a flag or one place of a one-hot; ``docs/learning.md`` lists each field column by
column.

Speed (the environments' goal is 20,000 steps a second on one core, encoding included): the
encoder never writes numpy element by element (about 100 ns a write). It gathers, in plain
Python lists, the flat indices to count up by one and the few indices that take a larger
value, then builds the vector with one ``np.bincount`` and one fancy assignment; every index
it can is worked out once per card pool (one tuple per formation row, side and card) when the
encoder is built.

The layout is versioned by :data:`ENCODING_VERSION`: a change of fields or columns bumps it.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from deathangel.learning.extra import missing_extra

    raise missing_extra(exc) from None

from attrs import frozen

from deathangel.cards.model import ICONS, TERRAIN_COLOURS, Location, SetupLocation
from deathangel.engine import decisions as d
from deathangel.engine.decisions import read_reroll_prompt
from deathangel.engine.lasting import (
    EnterFormation,
    Evasion,
    GunJam,
    LeadUsed,
    SecondWind,
    SpawnLimit,
)
from deathangel.engine.state import PHASES, CardTable
from deathangel.learning.actions import Pool, action_table

if TYPE_CHECKING:
    from deathangel.engine.observation import Observation

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


class Encoder:
    """Encodes observations of games played with one card pool; built once per pool
    (:func:`encoder`)."""

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
        places: list[SetupLocation | Location] = [*db.setup_locations, *db.locations]
        self.location_place = {loc.name: i for i, loc in enumerate(places)}
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
        f_cards = field("cards", len(cards), c)
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
        f_decision = field("decision", 0, c)
        # -- events: one row per distinct Event card --------------------------------------
        c = _Columns()
        c.add("discarded", 1, n_events)
        c.add("resolved", 1, CAP)
        c.add("current", 1, 1)
        c.add("scouted", 1, 1)
        f_events = field("events", len(db.events), c)
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
        f_formation = field("formation", rows, c)
        # -- genestealers: one row per kind -----------------------------------------------
        c = _Columns()
        c.add("discarded", 1, n_gs)
        c.add("in_formation", 1, n_gs)
        c.add("lords_slain", 1, n_gs)
        f_gs = field("genestealers", len(kinds), c)
        # -- marines: one row per marine of the pool --------------------------------------
        c = _Columns()
        for name in ("in_game", "mine", "slain"):
            c.add(name, 1, 1)
        c.add("position", 1, rows)
        f_marines = field("marines", len(marines), c)
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
        f_table = field("table", 0, c)
        # -- teams: one row per team of the pool ------------------------------------------
        c = _Columns()
        for name in ("in_game", "mine", "eliminated", "gun_jam", "gun_jam_next"):
            c.add(name, 1, 1)
        c.add("lead_used", 1, CAP)
        c.add("seat", SEATS, 1)
        f_teams = field("teams", len(teams), c)
        # -- terrain: one row per terrain card of the pool --------------------------------
        c = _Columns()
        c.add("activated", 1, 1)
        c.add("limited", 1, 1)
        c.add("limit_left", 1, CAP)
        c.add("in_formation", 1, len(db.terrain))
        f_terrain = field("terrain", len(terrain), c)

        assert tuple(f.name for f in fields) == FIELDS
        self.fields: tuple[Field, ...] = tuple(fields)
        self.size = offset
        high = np.concatenate(
            [np.tile(np.array(f.high, dtype=np.float32), f.size // len(f.high)) for f in fields]
        )
        self.high: NDArray[np.float32] = high

        # -- what each fact adds, worked out once per pool --------------------------------
        # Every fact is a run of flat indices, each counted once, stored as the bytes of
        # native int64s: encoding appends such runs to one bytearray (a C copy) and counts
        # them with one np.bincount. A number N at index i is the run of i, N times.
        # Measured: converting Python ints to numpy was most of the cost of a list of indices.
        def at(f: Field, group: str, row: int = 0, k: int = 0) -> int:
            start, width = f.columns[group]
            assert 0 <= k < width
            return f.offset + row * f.shape[-1] + start + k

        self.at = at
        idx = [i.to_bytes(8, sys.byteorder, signed=True) for i in range(self.size)]
        self._idx = idx

        def run(*indices: int) -> bytes:
            return b"".join(idx[i] for i in indices)

        # Formation rows: the marine's own facts (who he is, his team and range, and his row
        # in the marines field) in one run per row and marine.
        team_of = {m.name: t.color for t in db.teams for m in t.marines}
        range_of = {m.name: m.range for t in db.teams for m in t.marines}
        self._marine_at_row = [
            {
                name: run(
                    at(f_formation, "present", r),
                    at(f_formation, "marine", r, self.marine_index[name]),
                    at(f_formation, "team", r, self.team_index[team_of[name]]),
                    *[at(f_formation, "range", r)] * range_of[name],
                    *[at(f_marines, "position", self.marine_index[name])] * (r + 1),
                )
                for name in marines
            }
            for r in range(rows)
        ]
        self._row = [
            (
                idx[at(f_formation, "mine", r)],
                idx[at(f_formation, "facing_right", r)],
                idx[at(f_formation, "tokens", r)],
                idx[at(f_formation, "second_wind", r)],
                idx[at(f_formation, "second_wind_next", r)],
            )
            for r in range(rows)
        ]
        self._side = [
            [
                tuple(
                    idx[at(f_formation, f"{side}_{name}", r)]
                    for name in (
                        "attacked",
                        "moved",
                        "protected",
                        "wounds",
                        "terrain_tokens",
                        "can_activate",
                    )
                )
                for side in ("left", "right")
            ]
            for r in range(rows)
        ]
        # Per row, side and genestealer id: what one card of that swarm counts up.
        kind_of = [self.kind_index[k] for k in table.gs_kinds]
        icon_of = [[ICONS.index(i) for i in ICONS if i in icons] for icons in table.gs_icons]
        self._swarm = [
            [
                [
                    run(
                        at(f_formation, f"{side}_cards", r),
                        *[at(f_formation, f"{side}_strength", r)] * weights[card],
                        at(f_formation, f"{side}_kind", r, kind_of[card]),
                        *(at(f_formation, f"{side}_icon", r, i) for i in icon_of[card]),
                        at(f_gs, "in_formation", kind_of[card]),
                    )
                    for card in range(n_gs)
                ]
                for side in ("left", "right")
            ]
            for r in range(rows)
        ]
        colour_of = {t.name: TERRAIN_COLOURS.index(t.color) for t in db.terrain}
        self._activatable = {t.name: t.activatable for t in db.terrain}
        self._terrain = [
            [
                {
                    name: run(
                        at(f_formation, f"{side}_terrain", r, self.terrain_index[name]),
                        at(f_formation, f"{side}_colour", r, colour_of[name]),
                        at(f_terrain, "in_formation", self.terrain_index[name]),
                    )
                    for name in terrain
                }
                for side in ("left", "right")
            ]
            for r in range(rows)
        ]
        # Seats, teams, marines and cards.
        self._team_in_game = {
            t.color: (
                run(
                    at(f_teams, "in_game", self.team_index[t.color]),
                    *(at(f_marines, "in_game", self.marine_index[m.name]) for m in t.marines),
                    *(at(f_cards, "in_game", self.card_index[a.name]) for a in t.actions),
                ),
                run(
                    at(f_teams, "mine", self.team_index[t.color]),
                    *(at(f_marines, "mine", self.marine_index[m.name]) for m in t.marines),
                    *(at(f_cards, "mine", self.card_index[a.name]) for a in t.actions),
                ),
                [idx[at(f_teams, "seat", self.team_index[t.color], s)] for s in range(SEATS)],
            )
            for t in db.teams
        }
        self._eliminated = {n: idx[at(f_teams, "eliminated", i)] for i, n in enumerate(teams)}
        self._gun_jam = {n: idx[at(f_teams, "gun_jam", i)] for i, n in enumerate(teams)}
        self._gun_jam_next = {n: idx[at(f_teams, "gun_jam_next", i)] for i, n in enumerate(teams)}
        self._lead_used = {n: idx[at(f_teams, "lead_used", i)] for i, n in enumerate(teams)}
        self._slain = {n: idx[at(f_marines, "slain", i)] for i, n in enumerate(marines)}
        self._chosen = {n: idx[at(f_cards, "chosen", k)] for k, n in enumerate(cards)}
        self._revealed = {n: idx[at(f_cards, "revealed", k)] for k, n in enumerate(cards)}
        self._resolved = {n: idx[at(f_cards, "resolved", k)] for k, n in enumerate(cards)}
        self._last = {n: idx[at(f_cards, "last_resolved", k)] for k, n in enumerate(cards)}
        # What never changes: each card's initiative.
        self._constant = b"".join(
            idx[at(f_cards, "initiative", self.card_index[name])] * action.initiative
            for name, (_, action) in table.actions.items()
        )
        self._seated: dict[tuple[tuple[tuple[str, ...], ...], int | None], bytes] = {}
        # Events (by copy id), genestealers (by card id), terrain (by name).
        self._event_discarded = [
            idx[at(f_events, "discarded", event_of[e])] for e in range(n_events)
        ]
        self._event_resolved = [idx[at(f_events, "resolved", event_of[e])] for e in range(n_events)]
        self._event_current = [idx[at(f_events, "current", event_of[e])] for e in range(n_events)]
        self._event_scouted = [idx[at(f_events, "scouted", event_of[e])] for e in range(n_events)]
        self._gs_discard = [idx[at(f_gs, "discarded", kind_of[c])] for c in range(n_gs)]
        self._lord_slain = [idx[at(f_gs, "lords_slain", kind_of[c])] for c in range(n_gs)]
        self._terrain_row = {
            name: (
                idx[at(f_terrain, "activated", i)],
                idx[at(f_terrain, "limited", i)],
                idx[at(f_terrain, "limit_left", i)],
            )
            for i, name in enumerate(terrain)
        }
        # The table and the decision.
        self._seat = [idx[at(f_table, "seat", 0, s)] for s in range(SEATS)]
        self._players = [idx[at(f_table, "players", 0, s)] for s in range(SEATS)]
        self._current = [idx[at(f_table, "current_seat", 0, s)] for s in range(SEATS)]
        self._phase = {p: idx[at(f_table, "phase", 0, i)] for i, p in enumerate(PHASE_NAMES)}
        self._location = {
            loc.name: run(
                at(f_table, "location", 0, i),
                *([at(f_table, "final_location")] if getattr(loc, "final", False) else []),
            )
            for i, loc in enumerate(places)
        }
        self._t = {
            name: idx[at(f_table, name)]
            for name in f_table.columns
            if name not in ("seat", "players", "current_seat", "phase", "location")
        }
        self._kind = {k: idx[at(f_decision, "kind", 0, i)] for i, k in enumerate(DECISION_KINDS)}
        self._kind_other = idx[at(f_decision, "kind", 0, len(DECISION_KINDS))]
        self._d_seat = [idx[at(f_decision, "seat", 0, s)] for s in range(SEATS)]
        self._face = [idx[at(f_decision, "face", 0, k)] for k in range(6)]
        self._d_marine = {n: idx[at(f_decision, "marine", 0, i)] for i, n in enumerate(marines)}
        self._d = {
            name: idx[at(f_decision, name)]
            for name in ("pending", "mine", "options", "attack_roll", "defence_roll", "swarm")
        }
        self._slices = [
            (f.name, slice(f.offset, f.offset + f.size), f.shape if len(f.shape) > 1 else None)
            for f in fields
        ]

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

    # -- encoding -------------------------------------------------------------------------------

    def encode(self, obs: Observation) -> NDArray[np.float32]:
        """A new flat vector for ``obs``: everything its seat may know, nothing else."""
        if obs.table.db is not self.table.db:
            raise ValueError("this observation's game is played with another card pool")
        buf = bytearray(self._constant)
        self._formation(obs, buf)
        self._table(obs, buf)
        self._people(obs, buf)
        self._decision(obs, buf)
        return np.bincount(np.frombuffer(buf, dtype=np.int64), minlength=self.size).astype(
            np.float32
        )

    def _formation(self, obs: Observation, buf: bytearray) -> None:
        """Each position: the marine, his swarms and terrain on both sides."""
        st = obs.state
        seat = obs.seat
        mine = st.seats[seat - 1] if seat is not None and 0 < seat <= len(st.seats) else ()
        marine_at_row = self._marine_at_row
        swarm = self._swarm
        terrain_at = self._terrain
        activatable = self._activatable
        activated = st.activated
        attacked, moved, protected, wounds = st.attacked, st.moved, st.protected, st.wounds
        marked = bool(attacked or moved or protected or wounds)
        wind_now = {e.marine for e in st.effects if isinstance(e, SecondWind)}
        wind_next = {e.marine for e in st.next_effects if isinstance(e, SecondWind)}
        for r, pos in enumerate(st.formation):
            own, facing, tokens, wind, wind2 = self._row[r]
            marine = pos.marine
            buf += marine_at_row[r][marine.name]
            if marine.team in mine:
                buf += own
            if marine.facing:
                buf += facing
            if marine.tokens:
                buf += tokens * marine.tokens
            if wind_now and marine.name in wind_now:
                buf += wind
            if wind_next and marine.name in wind_next:
                buf += wind2
            left, right = pos.swarms
            if left or right:
                hits = swarm[r]
                if left:
                    buf += b"".join(map(hits[0].__getitem__, left))
                if right:
                    buf += b"".join(map(hits[1].__getitem__, right))
                if marked:
                    for s, cards in ((0, left), (1, right)):
                        was_attacked, was_moved, is_protected, hurt_at, _, _ = self._side[r][s]
                        for card in cards:
                            if card in attacked:
                                buf += was_attacked
                            if card in moved:
                                buf += was_moved
                            if card in protected:
                                buf += is_protected
                            hurt = wounds.get(card, 0)
                            if hurt:
                                buf += hurt_at * min(hurt, CAP)
            for s in (0, 1):
                terrains = pos.terrain[s]
                if terrains:
                    placed = terrain_at[r][s]
                    side_at = self._side[r][s]
                    for t in terrains:
                        buf += placed[t.name]
                        if t.tokens:
                            buf += side_at[4] * t.tokens
                        if activatable[t.name] and t.name not in activated:
                            buf += side_at[5]

    def _table(self, obs: Observation, buf: bytearray) -> None:
        """The table: seats, round and phase, location, pile sizes, discards, lasting
        effects, Events, the genestealers' discard and the terrain cards."""
        st = obs.state
        seat = obs.seat
        t = self._t
        players = len(st.seats)
        if seat is not None and 0 < seat <= SEATS:
            buf += self._seat[seat - 1]
            if st.current_seat == seat:
                buf += t["i_am_current"]
        if 0 < players <= SEATS:
            buf += self._players[players - 1]
        if 0 < st.current_seat <= SEATS:
            buf += self._current[st.current_seat - 1]
        phase = self._phase.get(st.phase)
        if phase is not None:
            buf += phase
        place = self._location.get(st.location_name(self.table) or "")
        if place is not None:
            buf += place
        counts = obs.counts
        buf += t["round"] * min(st.round, CAP)
        buf += t["locations_left"] * counts.location_deck
        buf += t["location_tokens"] * st.location_tokens
        buf += t["genestealer_deck"] * counts.genestealer_deck
        buf += t["blips_left"] * counts.blips_left
        buf += t["blips_right"] * counts.blips_right
        buf += t["event_deck"] * counts.event_deck
        buf += t["genestealer_discard"] * len(st.gs_discard)
        buf += t["event_discard"] * len(st.event_discard)
        buf += t["supply"] * st.supply
        if st.artefact is not None:
            buf += t["artefact_mine"] if st.artefact == seat else t["artefact_other"]
        if st.outcome == "victory":
            buf += t["victory"]
        elif st.outcome == "defeat":
            buf += t["defeat"]
        # Lasting effects (RULES §14.13); Second Wind is a column of the marine's row.
        for effects, now in ((st.effects, True), (st.next_effects, False)):
            for e in effects:
                if isinstance(e, GunJam):
                    buf += self._gun_jam[e.team] if now else self._gun_jam_next[e.team]
                elif isinstance(e, Evasion):
                    buf += t["evasion" if now else "evasion_next"]
                elif isinstance(e, EnterFormation):
                    buf += t["enter_formation" if now else "enter_formation_next"]
                elif isinstance(e, LeadUsed) and now:
                    buf += self._lead_used[e.team]  # one per use (capped by the space)
                elif isinstance(e, SpawnLimit) and now and e.terrain in self._terrain_row:
                    _, limited, left = self._terrain_row[e.terrain]
                    buf += limited
                    buf += left * min(e.left, CAP)
        # Lists that grow all game long are mapped and joined in C.
        buf += b"".join(map(self._event_discarded.__getitem__, st.event_discard))
        buf += b"".join(map(self._event_resolved.__getitem__, st.events_resolved))
        if st.event is not None:
            buf += self._event_current[st.event]
        if st.scouted is not None:
            buf += self._event_scouted[st.scouted[1]]
        buf += b"".join(map(self._gs_discard.__getitem__, st.gs_discard))
        if st.lords_slain:
            buf += b"".join(map(self._lord_slain.__getitem__, st.lords_slain))
        for name in st.activated:
            row = self._terrain_row.get(name)
            if row is not None:
                buf += row[0]

    def _people(self, obs: Observation, buf: bytearray) -> None:
        """Seats, teams, marines and action cards."""
        st = obs.state
        # Who plays which teams is fixed once the teams are chosen: worked out once per
        # seating and seat.
        key = (tuple(st.seats), obs.seat)
        seated = self._seated.get(key)
        if seated is None:
            if len(self._seated) > 4096:
                self._seated.clear()
            seated = self._seated[key] = self._seating(st.seats, obs.seat)
        buf += seated
        if st.eliminated:
            buf += b"".join(map(self._eliminated.__getitem__, st.eliminated))
        if st.slain:
            buf += b"".join(map(self._slain.__getitem__, st.slain))
        # ``chosen`` holds only the face-down cards this seat may know (its own, before the
        # reveal): the observation took the others out (RULES §5).
        if st.chosen:
            buf += b"".join(map(self._chosen.__getitem__, st.chosen.values()))
        revealed, resolved = self._revealed, self._resolved
        done = st.resolved
        for _, team, card in st.revealed:
            buf += revealed[card]
            if team in done:
                buf += resolved[card]
        if st.last_resolved:
            buf += b"".join(map(self._last.__getitem__, st.last_resolved.values()))

    def _seating(self, seats: list[tuple[str, ...]], seat: int | None) -> bytes:
        parts = []
        for s, teams in enumerate(seats, start=1):
            for team in teams:
                in_game, mine, seat_at = self._team_in_game[team]
                parts.append(in_game)
                if s <= SEATS:
                    parts.append(seat_at[s - 1])
                if s == seat:
                    parts.append(mine)
        return b"".join(parts)

    def _decision(self, obs: Observation, buf: bytearray) -> None:
        """The pending decision: its kind, who answers, how many options, and for a reroll
        the roll being answered."""
        decision = obs.decision
        if decision is None:
            return
        dd = self._d
        buf += dd["pending"]
        buf += self._kind.get(decision.kind, self._kind_other)
        if decision.seat == obs.seat:
            buf += dd["mine"]
        if 0 < decision.seat <= SEATS:
            buf += self._d_seat[decision.seat - 1]
        buf += dd["options"] * min(len(decision.options), self.actions.size)
        if decision.kind == d.REROLL:
            roll = read_reroll_prompt(decision.prompt)
            if roll is not None:
                buf += dd["attack_roll"] if roll.what == "attack" else dd["defence_roll"]
                if 0 <= roll.face < 6:
                    buf += self._face[roll.face]
                buf += dd["swarm"] * roll.count
                marine = self._d_marine.get(roll.marine)
                if marine is not None:
                    buf += marine


_ENCODERS: dict[int, tuple[Any, Encoder]] = {}


def encoder(table: CardTable) -> Encoder:
    """The encoder of a game's card pool (its :class:`CardTable`), built once per database."""
    db = table.db
    entry = _ENCODERS.get(id(db))
    if entry is None or entry[0] is not db:
        entry = _ENCODERS[id(db)] = (db, Encoder(table))
    return entry[1]
