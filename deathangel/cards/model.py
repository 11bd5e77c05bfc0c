"""The typed model of a card database: what a card *is*, never what it does.

Card files (TOML, under ``cards/``) are loaded into these frozen attrs classes by
:mod:`deathangel.cards.load`. Behaviour is not here: a card names an :class:`Effect`
with parameters, and the engine looks the name up in the effect catalogue
(:mod:`deathangel.engine.effects`). Keeping facts and behaviour apart lets a plugin add a card
by writing data, and lets the loader reject a typo before a game starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from attrs import field, frozen

from deathangel.readonly import ReadOnlyDict, frozen_data

ActionKind = Literal["support", "move_activate", "attack"]
Side = Literal["left", "right"]
CountFrom = Literal["top", "bottom"]
SpawnSize = Literal["major", "minor"]
MoveKind = Literal["adjacent", "flank"]
LocationAbility = Literal["on_entering", "control_panel"]

ICONS: tuple[str, ...] = ("claw", "tongue", "tail", "head")
"""Genestealer movement icons; a move box names one of them."""

TERRAIN_COLOURS: tuple[str, ...] = ("green", "yellow", "orange", "red")
"""Spawn colours, least frequent first (RULES §1)."""

ACTION_KINDS: tuple[ActionKind, ...] = ("support", "move_activate", "attack")


SUPPORT_TOKENS = 12
"""The base game's support-token supply (RULES §1); one card file may set another size."""


@frozen
class Effect:
    """A named behaviour with its parameters, as a card file states it.

    The name must be in the effect catalogue; the parameters must match that entry's
    declared parameters exactly (checked at load, so a bad card never reaches a game).
    """

    name: str
    """Catalogue name of the behaviour, e.g. ``"attack_face_slays"``."""
    params: Mapping[str, Any] = field(factory=ReadOnlyDict, converter=frozen_data)
    """Parameters for the behaviour, e.g. ``{"faces": [4], "up_to": 3}``."""


@frozen
class Marine:
    """One Space Marine card."""

    name: str
    """Unique name, e.g. ``"Sergeant Gideon"``; the engine's key for the marine."""
    range: int
    """Attack range 0–3: the rows above/below his own he may attack (RULES §2)."""


@frozen
class ActionCard:
    """One of a combat team's three action cards."""

    name: str
    """Unique card name, e.g. ``"Block"``."""
    initiative: int
    """Resolution order 1–18, unique across the database (lowest resolves first)."""
    kind: ActionKind
    """Support, Move + Activate or Attack: which base action the card performs."""
    text: str
    """The ability in our own words, shown to players."""
    effect: Effect | None = None
    """The ability's behaviour; ``None`` for a card with no ability beyond its base action."""


@frozen
class CombatTeam:
    """Two marines and their three action cards, identified by colour."""

    color: str
    """Team colour, unique, e.g. ``"green"``."""
    marines: tuple[Marine, ...]
    """The team's marines (two in the base game)."""
    actions: tuple[ActionCard, ...]
    """Exactly one action card of each kind."""


@frozen
class BroodLord:
    """A Brood Lord: a genestealer with two icons that never sits in a deck or blip pile."""

    name: str
    """Unique name, e.g. ``"Brood Lord A"``."""
    icons: tuple[str, ...]
    """Movement icons (two in the base game); each is one of :data:`ICONS`."""


@frozen
class Enemy:
    """A new kind of enemy card (an expansion's): ``count`` copies join the Genestealer deck.

    Enemy cards are dealt into blip piles, spawn, move and are discarded exactly like
    genestealers (they *are* genestealer cards to every rule that does not name them). What
    sets them apart is data: how many hits slay one, how much it weighs in its swarm's
    attack, and optionally a rule of its own (an effect with an enemy timing).
    """

    name: str
    """Unique name, e.g. ``"Tunnel Burrower"``; its cards are labelled ``NAME-1``, ``NAME-2``..."""
    icons: tuple[str, ...]
    """Movement icons (one or more of :data:`ICONS`): a move box naming one moves its swarm."""
    count: int
    """How many copies are shuffled into the Genestealer deck."""
    text: str = ""
    """What sets it apart, in our own words, shown to players."""
    toughness: int = 1
    """Hits needed to slay one: each slay aimed at it is one hit; a card with hits left keeps
    a wound mark until it is slain or leaves the formation (RULES §14.2 still applies)."""
    weight: int = 1
    """How many genestealers it counts as for its swarm's attack (RULES §7: the marine is
    slain when the roll is at most the swarm's size)."""
    rule: Effect | None = None
    """A rule of its own: an effect with an enemy timing (``enemy_slain``)."""


@frozen
class GenestealerDeck:
    """How many genestealer cards of each icon make up the deck."""

    icons: Mapping[str, int] = field(converter=frozen_data)
    """Count per icon, e.g. ``{"claw": 9, ...}``."""


@frozen
class Terrain:
    """A terrain card: where genestealers spawn, and sometimes something to activate."""

    name: str
    """Unique name, e.g. ``"Door"``."""
    color: str
    """Spawn colour, one of :data:`TERRAIN_COLOURS`."""
    activatable: bool
    """Whether a marine facing it may activate it during Move + Activate."""
    text: str = ""
    """The activation in our own words (empty when not activatable)."""
    effect: Effect | None = None
    """The activation's behaviour; required exactly when ``activatable``."""


@frozen
class TerrainPlacement:
    """Where a location puts one terrain card (RULES §10 step 2)."""

    side: Side
    """Left or right of the formation."""
    terrain: str
    """Name of a terrain card in the database."""
    position: int
    """1-based row, counted from ``count_from``; past the end means the last row that way."""
    count_from: CountFrom
    """``"top"`` counts down from position 1, ``"bottom"`` counts up from the last position."""


@frozen
class SpawnBox:
    """One of an event's two spawn boxes."""

    size: SpawnSize
    """Major or minor: how many spawn, by the setup location's numbers."""
    color: str
    """Terrain colour that spawns, one of :data:`TERRAIN_COLOURS`."""


@frozen
class MoveBox:
    """An event's genestealer movement box."""

    kind: MoveKind
    """``"adjacent"`` (one step counter-clockwise) or ``"flank"`` (behind the marine)."""
    icon: str
    """Every swarm holding a card with this icon moves (RULES §8 step 3)."""


@frozen
class Event:
    """An event card; ``copies`` identical cards are in the deck."""

    name: str
    """Card name; not unique (two different 'Out of Thin Air' cards exist)."""
    instinct: bool
    """Whether the current player decides alone, before showing the card (RULES §8)."""
    spawns: tuple[SpawnBox, ...]
    """The spawn boxes, resolved left to right."""
    text: str
    """The ability in our own words."""
    effect: Effect
    """The ability's behaviour."""
    move: MoveBox | None = None
    """The move box, if the card has one."""
    copies: int = 1
    """How many copies of this exact card are in the Event deck."""


@frozen
class SetupLocation:
    """A 'Void Lock' setup location: fixes spawn sizes and the location deck recipe."""

    name: str
    """Unique location name."""
    players: tuple[int, ...]
    """Player counts that use this setup location."""
    teams_per_player: Mapping[int, int] = field(converter=frozen_data)
    """Combat teams each player controls, by player count."""
    major_spawn: int
    """Genestealers a major spawn box brings, for the whole game."""
    minor_spawn: int
    """Genestealers a minor spawn box brings, for the whole game."""
    blips_left: int
    """Cards dealt to the left blip pile at setup."""
    blips_right: int
    """Cards dealt to the right blip pile at setup."""
    location_deck: tuple[str, ...]
    """Deck names, top first: one random location of each forms the location deck."""
    terrain: tuple[TerrainPlacement, ...]
    """Terrain placed at setup."""


@frozen
class Location:
    """A location the marines travel to."""

    name: str
    """Unique location name."""
    deck: str
    """Which location deck it belongs to, e.g. ``"1A"`` or ``"4"``."""
    blips_left: int
    """Left blip pile size on arrival."""
    blips_right: int
    """Right blip pile size on arrival."""
    terrain: tuple[TerrainPlacement, ...]
    """The four terrain cards placed on arrival."""
    text: str = ""
    """The ability (and, for a final location, the victory condition) in our own words."""
    ability: LocationAbility | None = None
    """When the ability works: on entering, or through a Control Panel terrain."""
    effect: Effect | None = None
    """The ability's behaviour; present exactly when ``ability`` is."""
    final: bool = False
    """Whether this is a final location (deck 4), where the game can be won."""
    victory: Effect | None = None
    """An extra victory condition of a final location, besides clearing it."""


@frozen
class CardDatabase:
    """Every card of a game: the base game, possibly with expansions merged in."""

    teams: tuple[CombatTeam, ...]
    """All combat teams."""
    genestealers: GenestealerDeck
    """The Genestealer deck's composition."""
    brood_lords: tuple[BroodLord, ...]
    """Brood Lords, kept out of the deck."""
    terrain: tuple[Terrain, ...]
    """All terrain cards."""
    setup_locations: tuple[SetupLocation, ...]
    """The 'Void Lock' setup locations."""
    locations: tuple[Location, ...]
    """All non-setup locations."""
    events: tuple[Event, ...]
    """Distinct event cards (each with its ``copies``)."""
    support_tokens: int = SUPPORT_TOKENS
    """Size of the common support-token supply (RULES §1)."""
    enemies: tuple[Enemy, ...] = ()
    """Expansions' enemy types, each shuffled into the Genestealer deck ``count`` times."""

    def team(self, color: str) -> CombatTeam:
        """The team of that colour; ``KeyError`` naming it if absent."""
        for team in self.teams:
            if team.color == color:
                return team
        raise KeyError(f"no combat team {color!r}")

    def terrain_card(self, name: str) -> Terrain:
        """The terrain card of that name; ``KeyError`` naming it if absent."""
        for card in self.terrain:
            if card.name == name:
                return card
        raise KeyError(f"no terrain {name!r}")

    def setup_location_for(self, players: int) -> SetupLocation:
        """The setup location used with that many players (RULES §3)."""
        for loc in self.setup_locations:
            if players in loc.players:
                return loc
        raise KeyError(f"no setup location for {players} players")

    def counts(self) -> dict[str, int]:
        """Cards of each kind, copies included: the figures ``cards validate`` prints."""
        return {
            "marines": sum(len(t.marines) for t in self.teams),
            "actions": sum(len(t.actions) for t in self.teams),
            "genestealers": sum(self.genestealers.icons.values()),
            **({"enemies": sum(e.count for e in self.enemies)} if self.enemies else {}),
            "brood_lords": len(self.brood_lords),
            "events": sum(e.copies for e in self.events),
            "locations": len(self.setup_locations) + len(self.locations),
            "terrain": len(self.terrain),
        }
