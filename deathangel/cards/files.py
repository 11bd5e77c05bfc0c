"""What a card file may hold: its top-level keys and :class:`CardFile`, the cards of one file.

File layout (see the header of each file under ``cards/base``): a file is a TOML document
whose top-level keys are any of

- ``[[team]]`` with ``[[team.marine]]`` and ``[[team.action]]`` - combat teams;
- ``[[brood_lord]]``, ``[[terrain]]``, ``[[setup_location]]``, ``[[location]]``, ``[[event]]``;
- ``[[enemy]]`` - an expansion's new enemy types, shuffled into the Genestealer deck;
- ``[genestealers]`` with an ``icons`` table (counts from several files add up, so an
  expansion can add genestealer cards);
- ``support_tokens`` - the size of the support-token supply, set by at most one file.

Keys inside a card are the attrs field names of :mod:`deathangel.cards.model`; the only renames
are the singular ``marine``/``action`` of ``[[team.*]]`` headers, because each such header
introduces one card. An effect is an inline table, ``{ name = "...", <param> = ... }``.
Which file holds which key is convention only: a plugin may put all its cards in one file.

These facts are kept in a module of their own because reading
(:mod:`deathangel.cards.load`), converting and writing back (:mod:`deathangel.cards.convert`) and
checking (:mod:`deathangel.cards.check`) all need them; here each can import them without
importing the others.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from attrs import field, frozen

from deathangel.cards.model import (
    BroodLord,
    CombatTeam,
    Enemy,
    Event,
    GenestealerDeck,
    Location,
    SetupLocation,
    Terrain,
)


@frozen
class _Section:
    """One top-level array of cards: its TOML key, model class and how to name a card of it."""

    key: str
    attr: str
    cls: type[Any]
    noun: str
    name_field: str = "name"


SECTIONS: Final[tuple[_Section, ...]] = (
    _Section("team", "teams", CombatTeam, "team", name_field="color"),
    _Section("brood_lord", "brood_lords", BroodLord, "brood lord"),
    _Section("terrain", "terrain", Terrain, "terrain"),
    _Section("setup_location", "setup_locations", SetupLocation, "setup location"),
    _Section("location", "locations", Location, "location"),
    _Section("event", "events", Event, "event"),
    _Section("enemy", "enemies", Enemy, "enemy"),
)
"""Card arrays a file may hold, in the order they are checked and dumped."""

_DECK_SECTION: Final = _Section("genestealers", "genestealers", GenestealerDeck, "genestealer deck")
"""The ``[genestealers]`` table: not an array of cards, but reported the same way."""

GENESTEALERS_KEY: Final = "genestealers"
SUPPORT_TOKENS_KEY: Final = "support_tokens"
TOP_LEVEL_KEYS: Final[tuple[str, ...]] = (
    SUPPORT_TOKENS_KEY,
    GENESTEALERS_KEY,
    *(s.key for s in SECTIONS),
)

_RENAMES: Final[Mapping[type[Any], Mapping[str, str]]] = {
    CombatTeam: {"marines": "marine", "actions": "action"},
}
"""Attribute -> TOML key, where they differ (``[[team.marine]]`` reads better than ``marines``)."""

_NESTED_CARDS: Final[Mapping[str, Mapping[str, str]]] = {
    "team": {"marine": "marine", "action": "action"},
}
"""Keys inside a card that hold cards of their own, so errors can name the inner card."""


@frozen
class CardFile:
    """The cards of one TOML file, checked on their own but not yet merged.

    A file alone cannot be fully validated (a location names terrain from another file), so
    this is the unit of reading and of writing back; :func:`build_database` merges files and
    checks what needs the whole set. ``None`` / empty means the file does not set that key.
    """

    path: Path = field(eq=False)
    """Where it was read from; not part of equality, so a copy elsewhere compares equal."""
    teams: tuple[CombatTeam, ...] = ()
    brood_lords: tuple[BroodLord, ...] = ()
    terrain: tuple[Terrain, ...] = ()
    setup_locations: tuple[SetupLocation, ...] = ()
    locations: tuple[Location, ...] = ()
    events: tuple[Event, ...] = ()
    enemies: tuple[Enemy, ...] = ()
    genestealers: GenestealerDeck | None = None
    support_tokens: int | None = None
