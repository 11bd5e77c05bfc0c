"""The observation encoding: fixed-shape numpy arrays built from one seat's ``Observation`` only.

:class:`Encoder` turns an :class:`~deathangel.engine.observation.Observation` — the honest
snapshot the engine cuts out for a seat, never the game — into one flat ``float32`` vector
laid out as :mod:`deathangel.learning.layout` says (named fields, each column documented in
``docs/learning.md``). It reads the observation and nothing else.

Speed (the environments' goal is 20,000 steps a second on one core, encoding included): the
encoder never writes numpy element by element (about 100 ns a write), nor converts Python
ints to numpy one by one (what made most of the cost of a first version that kept a list of
indices). Every fact it may write — a marine at a row, a card in a swarm, a count — is a run
of flat indices worked out once per card pool and kept as the bytes of native int64s;
encoding appends runs to one ``bytearray`` (a number N at index i is the run of i, N times)
and counts them with one ``np.bincount``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from deathangel.learning.extra import missing_extra

    raise missing_extra(exc) from None


from deathangel.cards.model import ICONS, TERRAIN_COLOURS
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
from deathangel.engine.state import CardTable
from deathangel.learning.layout import (
    CAP,
    DECISION_KINDS,
    ENCODING_VERSION,
    FIELDS,
    PHASE_NAMES,
    SEATS,
    Field,
    Layout,
)

if TYPE_CHECKING:
    from deathangel.engine.observation import Observation

__all__ = ["ENCODING_VERSION", "FIELDS", "Encoder", "Field", "encoder"]

_ONE = np.float32(1)


class Encoder(Layout):
    """Encodes observations of games played with one card pool; built once per pool
    (:func:`encoder`)."""

    def __init__(self, table: CardTable) -> None:
        super().__init__(table)
        db = table.db
        pool = self.pool
        marines, teams, cards, terrain = pool.marines, pool.teams, pool.cards, pool.terrain
        rows = pool.rows
        f_cards, f_decision, f_events, f_formation, f_gs, f_marines, f_table, f_teams, f_terrain = (
            self.fields
        )
        n_gs = len(table.gs_labels)
        weights = table.gs_weight or (1,) * n_gs
        event_of = self.event_of
        n_events = len(table.events)
        places = self.places

        # -- what each fact adds, worked out once per pool (see the module docstring) -------
        at = self.at
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
        constant = np.zeros(self.size, dtype=np.float32)
        for name, (_, action) in table.actions.items():
            constant[at(f_cards, "initiative", self.card_index[name])] = action.initiative
        self._constant = constant
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

    # -- encoding -------------------------------------------------------------------------------

    def encode(self, obs: Observation) -> NDArray[np.float32]:
        """A new flat vector for ``obs``: everything its seat may know, nothing else."""
        if obs.table.db is not self.table.db:
            raise ValueError("this observation's game is played with another card pool")
        buf = bytearray()
        self._formation(obs, buf)
        self._table(obs, buf)
        self._people(obs, buf)
        self._decision(obs, buf)
        # A copy of what never changes, counted up in place (measured with callgrind: about
        # half the instructions of np.bincount with minlength and a cast to float32).
        out = self._constant.copy()
        np.add.at(out, np.frombuffer(buf, dtype=np.int64), _ONE)
        return out

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
