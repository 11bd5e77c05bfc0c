"""The state of one game: plain mutable data, cheap to copy, with no rules in it.

Cards in play are small ints indexing the tables of :class:`CardTable` (built once per card
database), because search bots copy states thousands of times a second: a copy here is a few
list copies, not a deep copy of objects. The rules that change a state live in
:mod:`deathangel.engine.rounds` and :mod:`deathangel.engine.formation`.

Conventions: side 0 is left, 1 is right; a marine's ``facing`` is the side he faces. Rows are
0-based here (``formation[0]`` is position 1, the top). Deck lists keep their top card last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from deathangel.cards.model import (
    SUPPORT_TOKENS,
    CardDatabase,
    Enemy,
    Event,
    Location,
    SetupLocation,
)
from deathangel.engine.switches import Switches
from deathangel.readonly import ReadOnlyDict, Sealed

if TYPE_CHECKING:
    from deathangel.engine.lasting import LastingEffect

LEFT = 0
RIGHT = 1
SIDES = ("left", "right")

NO_WOUNDS: Mapping[int, int] = ReadOnlyDict()
"""The wounds of a state whose enemy cards have none: one shared, read-only empty mapping."""

PLAYER_COUNTS = range(1, 7)
"""How many seats a game may have: 1–6 (RULES §3)."""
MIN_PLAYERS = PLAYER_COUNTS[0]
MAX_PLAYERS = PLAYER_COUNTS[-1]

PHASES = ("choose_actions", "resolve_actions", "genestealer_attack", "event")
"""The four phases of a round, in order (RULES §4)."""

GenestealerId = int
"""Index into :attr:`CardTable.gs_labels`; deck cards first, then Brood Lords."""
EventId = int
"""Index into :attr:`CardTable.events` (one entry per physical copy)."""
LocationId = int
"""Index into :attr:`CardTable.locations`."""


class CardTable(Sealed):
    """Lookup tables built once from a card database, shared by every state of a game, with
    the rule switches the game was built with (:class:`~deathangel.engine.switches.Switches`):
    together, the fixed facts every rule reads.

    Shared with every player too (each observation names its game's table), so it is read-only
    once built: tuples, read-only mappings, and no attribute may be set
    (:mod:`deathangel.readonly`).
    """

    def __init__(self, db: CardDatabase, switches: Switches | None = None) -> None:
        self.db = db
        self.switches = switches if switches is not None else Switches()
        labels: list[str] = []
        icons: list[frozenset[str]] = []
        kinds: list[str] = []
        enemies: list[Enemy | None] = []
        for icon, count in db.genestealers.icons.items():
            for k in range(1, count + 1):
                labels.append(f"{icon}-{k}")
                icons.append(frozenset((icon,)))
                kinds.append(icon)
                enemies.append(None)
        for enemy in db.enemies:
            for k in range(1, enemy.count + 1):
                labels.append(f"{enemy.name}-{k}")
                icons.append(frozenset(enemy.icons))
                kinds.append(enemy.name)
                enemies.append(enemy)
        self.deck_size = len(labels)
        """Genestealer ids below this are deck cards (enemy cards included); the rest are
        Brood Lords."""
        for lord in db.brood_lords:
            labels.append(lord.name)
            icons.append(frozenset(lord.icons))
            kinds.append(lord.name)
            enemies.append(None)
        self.gs_labels: tuple[str, ...] = tuple(labels)
        self.gs_icons: tuple[frozenset[str], ...] = tuple(icons)
        self.gs_kinds: tuple[str, ...] = tuple(kinds)
        """What makes two cards alike to every rule: a genestealer's icon, an enemy type's or
        a Brood Lord's name."""
        self.gs_by_label = ReadOnlyDict({label: i for i, label in enumerate(labels)})
        self.enemy_of: tuple[Enemy | None, ...] = tuple(enemies)
        """The enemy type of each card (``None`` for genestealers and Brood Lords)."""
        # ``None`` when every card takes one hit and weighs one (the base game): the hot path
        # then tests one attribute instead of indexing a table per card.
        self.gs_toughness: tuple[int, ...] | None = (
            tuple(1 if e is None else e.toughness for e in enemies)
            if any(e.toughness != 1 for e in db.enemies)
            else None
        )
        """Hits needed to slay each card, or ``None`` when every card needs one."""
        self.gs_weight: tuple[int, ...] | None = (
            tuple(1 if e is None else e.weight for e in enemies)
            if any(e.weight != 1 for e in db.enemies)
            else None
        )
        """How many each card counts for in its swarm's attack, or ``None`` when one each."""
        self.events: tuple[Event, ...] = tuple(e for e in db.events for _ in range(e.copies))
        self.locations: tuple[Location, ...] = db.locations
        self.location_by_name = ReadOnlyDict({loc.name: i for i, loc in enumerate(db.locations)})
        decks: dict[str, list[LocationId]] = {}
        for i, loc in enumerate(db.locations):
            decks.setdefault(loc.deck, []).append(i)
        self.locations_in_deck: ReadOnlyDict[str, tuple[LocationId, ...]] = ReadOnlyDict(
            {deck: tuple(ids) for deck, ids in decks.items()}
        )
        """Location ids of each location deck (``"1A"``, ``"2"``...)."""
        self.terrain = ReadOnlyDict({t.name: t for t in db.terrain})
        self.marines = ReadOnlyDict(
            {m.name: (team.color, m) for team in db.teams for m in team.marines}
        )
        self.actions = ReadOnlyDict(
            {a.name: (team.color, a) for team in db.teams for a in team.actions}
        )
        self.seal()

    def is_brood_lord(self, card: GenestealerId) -> bool:
        """Brood Lords sit after the deck cards in the id space."""
        return card >= self.deck_size

    def distinct(
        self, cards: Iterable[GenestealerId], wounds: Mapping[GenestealerId, int] | None = None
    ) -> list[GenestealerId]:
        """One card per kind, first seen first: cards of the same kind (and with as many
        wounds) are alike to every rule, so a player is only asked to choose between these
        (RULES §14.3)."""
        kinds = self.gs_kinds
        seen: dict[object, GenestealerId] = {}
        if wounds:
            for card in cards:
                seen.setdefault((kinds[card], wounds.get(card, 0)), card)
        else:
            for card in cards:
                seen.setdefault(kinds[card], card)
        return list(seen.values())

    def swarm_size(self, cards: Iterable[GenestealerId]) -> int:
        """What a swarm counts as when it attacks (RULES §7): its cards, each enemy card by
        its weight."""
        weight = self.gs_weight
        if weight is None:
            return sum(1 for _ in cards)
        return sum(weight[c] for c in cards)


_new_marine = object.__new__
_new_position = object.__new__


class MarineState:
    """A marine in the formation."""

    __slots__ = ("facing", "name", "range", "team", "tokens")

    def __init__(self, name: str, team: str, range_: int, facing: int, tokens: int = 0) -> None:
        self.name = name
        self.team = team
        self.range = range_
        self.facing = facing
        self.tokens = tokens

    def copy(self) -> MarineState:
        # Slots set directly, not through __init__: copies are the forward model's hot path
        # (measured about a third faster than calling the constructor).
        new = _new_marine(MarineState)
        new.name = self.name
        new.team = self.team
        new.range = self.range
        new.facing = self.facing
        new.tokens = self.tokens
        return new

    def __repr__(self) -> str:
        return f"MarineState({self.name!r}, facing={SIDES[self.facing]}, tokens={self.tokens})"


class TerrainState:
    """A terrain card beside the formation, with the support tokens on it (Door)."""

    __slots__ = ("name", "tokens")

    def __init__(self, name: str, tokens: int = 0) -> None:
        self.name = name
        self.tokens = tokens

    def copy(self) -> TerrainState:
        return TerrainState(self.name, self.tokens)

    def __repr__(self) -> str:
        return f"TerrainState({self.name!r}, tokens={self.tokens})"


class Position:
    """One row of the formation: a marine and what is on either side of him.

    Swarms and terrain belong to the row, not the marine: a swap exchanges marines only.
    ``swarms[side]`` is one list of genestealer ids: genestealers at one row and side are one
    swarm (RULES §14.17); the attack phase tells groups apart with :attr:`GameState.attacked`.
    """

    __slots__ = ("marine", "swarms", "terrain")

    def __init__(
        self,
        marine: MarineState,
        swarms: list[list[GenestealerId]] | None = None,
        terrain: list[list[TerrainState]] | None = None,
    ) -> None:
        self.marine = marine
        self.swarms = swarms if swarms is not None else [[], []]
        self.terrain = terrain if terrain is not None else [[], []]

    def to_dict(self, table: CardTable, row: int) -> dict[str, Any]:
        """This row as public data (everything beside the formation is face up)."""
        gs = table.gs_labels
        marine = self.marine
        return {
            "position": row + 1,
            "marine": marine.name,
            "team": marine.team,
            "range": marine.range,
            "facing": SIDES[marine.facing],
            "tokens": marine.tokens,
            "swarms": {SIDES[s]: [gs[c] for c in self.swarms[s]] for s in (0, 1)},
            "terrain": {SIDES[s]: [[t.name, t.tokens] for t in self.terrain[s]] for s in (0, 1)},
        }

    def copy(self) -> Position:
        new = _new_position(Position)
        new.marine = self.marine.copy()
        left, right = self.swarms
        new.swarms = [left[:], right[:]]
        tl, tr = self.terrain
        # Most rows hold no terrain: skip the comprehensions' cost for them.
        new.terrain = [
            [TerrainState(t.name, t.tokens) for t in tl] if tl else [],
            [TerrainState(t.name, t.tokens) for t in tr] if tr else [],
        ]
        return new

    def __repr__(self) -> str:
        return f"Position({self.marine!r}, swarms={self.swarms}, terrain={self.terrain})"


class GameState:
    """Everything that changes during a game. Hidden information is here too; what a seat may
    see is cut out by :mod:`deathangel.engine.observation`."""

    __slots__ = (
        "activated",
        "artefact",
        "attacked",
        "blips",
        "chosen",
        "current_seat",
        "effects",
        "eliminated",
        "event",
        "event_deck",
        "event_discard",
        "event_hidden",
        "events_resolved",
        "formation",
        "gs_deck",
        "gs_discard",
        "last_resolved",
        "location",
        "location_deck",
        "location_tokens",
        "lords_slain",
        "moved",
        "next_effects",
        "outcome",
        "phase",
        "protected",
        "resolved",
        "revealed",
        "round",
        "scouted",
        "seats",
        "setup_location",
        "slain",
        "supply",
        "team_seat",
        "wounds",
    )

    def __init__(self) -> None:
        self.formation: list[Position] = []
        self.gs_deck: list[GenestealerId] = []
        self.gs_discard: list[GenestealerId] = []
        self.blips: list[list[GenestealerId]] = [[], []]
        self.event_deck: list[EventId] = []
        self.event_discard: list[EventId] = []
        self.event: EventId | None = None
        """The Event card being resolved, if any."""
        self.location_deck: list[LocationId] = []
        self.location: LocationId | None = None
        """The current location; ``None`` while at the setup location."""
        self.setup_location: SetupLocation | None = None
        self.location_tokens = 0
        """Support tokens on the current location card."""
        self.supply = SUPPORT_TOKENS
        self.round = 0
        self.phase = "setup"
        self.seats: list[tuple[str, ...]] = []
        """Teams of each seat; seat numbers are 1-based, so seat ``s`` is ``seats[s - 1]``."""
        self.team_seat: dict[str, int] = {}
        self.current_seat = 1
        self.chosen: dict[str, str] = {}
        """Team → action card chosen face down this round (hidden until the reveal)."""
        self.revealed: list[tuple[int, str, str]] = []
        """(initiative, team, card) revealed this round, in ascending initiative."""
        self.resolved: set[str] = set()
        """Teams whose revealed card has resolved this round."""
        self.last_resolved: dict[str, str] = {}
        """Team → card it resolved last round (may not be chosen again, RULES §5)."""
        self.eliminated: set[str] = set()
        self.slain: list[str] = []
        """Names of slain marines, in order of death."""
        self.attacked: set[GenestealerId] = set()
        """Genestealers that attacked this Genestealer Attack phase."""
        self.moved: set[GenestealerId] = set()
        """Genestealers that moved or flanked this Event phase."""
        self.protected: set[GenestealerId] = set()
        """Genestealers under a Power Field this round."""
        self.activated: set[str] = set()
        """Terrain cards activated this round (each at most once, RULES §6.2)."""
        self.effects: list[LastingEffect] = []
        """Effects in force this round that no revealed card carries (Second Wind, a spawn
        limit...); cleared at round end. Immutable values: copies share them."""
        self.next_effects: list[LastingEffect] = []
        """Effects that come into force next round (Gun Jam, Evasion, Second Wind...)."""
        self.artefact: int | None = None
        """Seat holding the Artefact in hand, if any (RULES §14.8)."""
        self.lords_slain: list[GenestealerId] = []
        """Brood Lords slain, in order (Genestealer Lair's victory)."""
        self.scouted: tuple[int, EventId] | None = None
        """(seat, event) when a seat has looked at the top Event card and it is still there."""
        self.events_resolved: list[EventId] = []
        """Every Event card resolved so far, the setup Event first: the public history a
        player remembers even after the discard pile has been shuffled back."""
        self.event_hidden = False
        """Whether the Event card being resolved is still seen only by the current player
        (an Instinct card in a game with several players, RULES §8)."""
        self.outcome: str | None = None
        """``"victory"`` or ``"defeat"`` once the game has ended."""
        self.wounds: Mapping[GenestealerId, int] = NO_WOUNDS
        """Hits taken by enemy cards in the formation that need more than one to be slain.
        Read-only, replaced rather than changed, so copies (a player's too) share it: the
        base game never has one."""

    def copy(self) -> GameState:
        """An independent copy; mutating it never changes this state."""
        new = GameState.__new__(GameState)
        new.formation = [p.copy() for p in self.formation]
        new.gs_deck = self.gs_deck[:]
        new.gs_discard = self.gs_discard[:]
        new.blips = [self.blips[0][:], self.blips[1][:]]
        new.event_deck = self.event_deck[:]
        new.event_discard = self.event_discard[:]
        new.event = self.event
        new.location_deck = self.location_deck[:]
        new.location = self.location
        new.setup_location = self.setup_location
        new.location_tokens = self.location_tokens
        new.supply = self.supply
        new.round = self.round
        new.phase = self.phase
        new.seats = self.seats[:]
        new.team_seat = dict(self.team_seat)
        new.current_seat = self.current_seat
        new.chosen = dict(self.chosen)
        new.revealed = self.revealed[:]
        new.resolved = set(self.resolved)
        new.last_resolved = dict(self.last_resolved)
        new.eliminated = set(self.eliminated)
        new.slain = self.slain[:]
        new.attacked = set(self.attacked)
        new.moved = set(self.moved)
        new.protected = set(self.protected)
        new.activated = set(self.activated)
        new.effects = self.effects[:]
        new.next_effects = self.next_effects[:]
        new.artefact = self.artefact
        new.lords_slain = self.lords_slain[:]
        new.scouted = self.scouted
        new.event_hidden = self.event_hidden
        new.events_resolved = self.events_resolved[:]
        new.outcome = self.outcome
        new.wounds = self.wounds
        return new

    # -- questions the rules ask often -------------------------------------------------------

    def marine_row(self, name: str) -> int:
        """0-based row of the living marine of that name; ``ValueError`` if he is not there."""
        for i, pos in enumerate(self.formation):
            if pos.marine.name == name:
                return i
        raise ValueError(f"marine {name!r} is not in the formation")

    def choices_hidden(self) -> bool:
        """Whether this round's action cards are still face down (Choose Actions, before the
        reveal). ``revealed`` still lists last round's cards then; a team never repeats its
        card (RULES §5), so the lists match only once this round's are revealed."""
        return (
            self.phase == "choose_actions"
            and {team: card for _, team, card in self.revealed} != self.chosen
        )

    def tokens_in_play(self) -> int:
        """Support tokens everywhere, supply included: always the database's total (§12)."""
        total = self.supply + self.location_tokens
        for pos in self.formation:
            total += pos.marine.tokens
            for side in pos.terrain:
                for terrain in side:
                    total += terrain.tokens
        return total

    def genestealers_in_formation(self) -> int:
        """How many genestealer cards (Brood Lords included) are in swarms."""
        return sum(len(p.swarms[0]) + len(p.swarms[1]) for p in self.formation)

    def location_name(self, table: CardTable) -> str | None:
        """The current location's name; the setup location's before the first travel."""
        if self.location is not None:
            return table.locations[self.location].name
        return self.setup_location.name if self.setup_location is not None else None

    def to_dict(self, table: CardTable) -> dict[str, Any]:
        """A JSON-ready picture of the whole state, hidden parts included, with card names.

        Used to fingerprint saves (a save stores it and loading checks the replay reaches it)
        and to show a state to people; deck orders are listed top first.
        """
        gs = table.gs_labels
        return {
            "round": self.round,
            "phase": self.phase,
            "outcome": self.outcome,
            "current_seat": self.current_seat,
            "location": self.location_name(table),
            "location_tokens": self.location_tokens,
            "location_deck": [table.locations[i].name for i in reversed(self.location_deck)],
            "supply": self.supply,
            "formation": [p.to_dict(table, i) for i, p in enumerate(self.formation)],
            "blips": {SIDES[s]: [gs[c] for c in reversed(self.blips[s])] for s in (0, 1)},
            "genestealer_deck": [gs[c] for c in reversed(self.gs_deck)],
            "genestealer_discard": [gs[c] for c in self.gs_discard],
            "event_deck": [table.events[e].name for e in reversed(self.event_deck)],
            "event_discard": [table.events[e].name for e in self.event_discard],
            "seats": [list(teams) for teams in self.seats],
            "revealed": [[team, card] for _, team, card in self.revealed],
            "last_resolved": dict(sorted(self.last_resolved.items())),
            "eliminated": sorted(self.eliminated),
            "slain": list(self.slain),
            "effects": [e.code() for e in self.effects],
            "next_effects": [e.code() for e in self.next_effects],
            "protected": sorted(gs[c] for c in self.protected),
            "artefact": self.artefact,
            "lords_slain": [gs[c] for c in self.lords_slain],
            # Written only when there is one: a base game's save keeps its old form.
            **(
                {"wounds": {gs[c]: n for c, n in sorted(self.wounds.items())}}
                if self.wounds
                else {}
            ),
        }
