"""An expansion's manifest: which hook API it is written for, and how its cards join the decks.

Merging card files simply adds every card by default. An expansion that means something else
says so here, deck by deck, rather than in code: its cards may join a deck (``add``), take the
place of named cards already there (``replace``), or be the whole deck (``own``: the cards
that came before — the base game's and earlier plugins' — leave it). "Deck" is used loosely,
for every pile of cards a game draws on: the combat teams dealt to players, the Event deck,
the location decks, the Genestealer deck (``genestealers``: icon counts; ``enemies``: enemy
types), and the terrain, setup location and Brood Lord cards.

A manifest is a TOML file read by :func:`read_manifest` (or a :class:`Manifest` built in
Python); a plugin hands it over through the ``deathangel_manifest`` hook::

    api = 1
    title = "Hive Breach"
    summary = "A new combat team, two events and a tougher kind of enemy."

    [decks]
    events = "add"
    locations = { mode = "replace", replace = ["Generatorium"] }
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, Literal, get_args

from attrs import field, frozen

from deathangel.cards.convert import _describe, _hint, _one_of, _show_path
from deathangel.cards.files import CardFile
from deathangel.errors import CardDataError

JoinMode = Literal["add", "replace", "own"]
"""How a plugin's cards of one kind join what came before them."""

JOIN_MODES: Final[tuple[JoinMode, ...]] = get_args(JoinMode)

DECKS: Final[Mapping[str, str]] = {
    "teams": "combat teams (by colour)",
    "events": "Event cards (by name, every copy)",
    "locations": "locations (by name)",
    "setup_locations": "setup locations (by name)",
    "terrain": "terrain cards (by name)",
    "brood_lords": "Brood Lords (by name)",
    "genestealers": "genestealer cards of the Genestealer deck (by icon)",
    "enemies": "enemy types of the Genestealer deck (by name)",
}
"""The decks a manifest may name, with what a ``replace`` entry names in each."""


@frozen
class Join:
    """How one deck takes a plugin's cards."""

    mode: JoinMode = "add"
    """``add`` (the default), ``replace`` or ``own``."""
    replace: tuple[str, ...] = ()
    """With ``replace``: the cards, already in the deck, that leave it."""


@frozen
class Manifest:
    """What a plugin declares about itself, checked before any of its hooks is used."""

    api: int
    """The hook API version the plugin is written for
    (:data:`deathangel.plugins.hookspecs.API_VERSION`)."""
    title: str = ""
    """A name for people, e.g. ``"Hive Breach"``."""
    summary: str = ""
    """One line saying what the expansion adds."""
    decks: Mapping[str, Join] = field(factory=dict)
    """How the plugin's cards join each deck (see :data:`DECKS`); a deck not named is ``add``."""


@frozen
class CardSource:
    """The card files of one plugin, with the joins of its manifest: the unit of merging."""

    name: str
    """The plugin's name, for messages."""
    files: tuple[CardFile, ...]
    joins: Mapping[str, Join] = field(factory=dict)


_TOP_KEYS: Final = ("api", "title", "summary", "decks")


def manifest_from_data(data: Mapping[str, Any], where: str) -> Manifest:
    """A :class:`Manifest` from TOML data; ``where`` starts every error message.

    :raises CardDataError: for an unknown key or deck, a bad join mode or a missing ``api``.
    """

    def fail(message: str) -> CardDataError:
        return CardDataError(f"{where}: {message}")

    for key in data:
        if key not in _TOP_KEYS:
            raise fail(
                f"unknown key {key!r}{_hint(key, _TOP_KEYS)}; a manifest holds {_one_of(_TOP_KEYS)}"
            )
    api = data.get("api")
    if not isinstance(api, int) or isinstance(api, bool):
        raise fail(f"'api' must be the hook API version (a whole number), got {_describe(api)}")
    for key in ("title", "summary"):
        if not isinstance(data.get(key, ""), str):
            raise fail(f"{key!r} must be a string, got {_describe(data[key])}")
    raw = data.get("decks", {})
    if not isinstance(raw, Mapping):
        raise fail(f"'decks' must be a table, got {_describe(raw)}")
    decks: dict[str, Join] = {}
    for deck, value in raw.items():
        if deck not in DECKS:
            raise fail(f"decks: unknown deck {deck!r}{_hint(deck, DECKS)}; decks: {_one_of(DECKS)}")
        decks[deck] = _join(value, f"decks.{deck}", fail)
    return Manifest(
        api=api, title=data.get("title", ""), summary=data.get("summary", ""), decks=decks
    )


def _join(value: object, key: str, fail: Any) -> Join:
    if isinstance(value, str):
        value = {"mode": value}
    if not isinstance(value, Mapping):
        raise fail(
            f"{key}: expected a mode ({_one_of(JOIN_MODES)}) or a table, got {_describe(value)}"
        )
    unknown = [k for k in value if k not in ("mode", "replace")]
    if unknown:
        raise fail(f"{key}: unknown key {unknown[0]!r}; a join holds 'mode' and 'replace'")
    mode = value.get("mode", "add")
    if mode not in JOIN_MODES:
        hint = _hint(mode, JOIN_MODES) if isinstance(mode, str) else ""
        raise fail(f"{key}: mode must be one of {_one_of(JOIN_MODES)}, got {_describe(mode)}{hint}")
    names = value.get("replace", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise fail(f"{key}: 'replace' must be an array of card names")
    if mode == "replace" and not names:
        raise fail(f"{key}: mode 'replace' needs the names of the cards it replaces")
    if mode != "replace" and names:
        raise fail(f"{key}: 'replace' names cards only with mode 'replace', not {mode!r}")
    return Join(mode=mode, replace=tuple(names))


def read_manifest(path: Path) -> Manifest:
    """Read a manifest TOML file.

    :raises CardDataError: naming the file and the key at fault.
    """
    where = _show_path(Path(path))
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise CardDataError(f"{where}: cannot read the manifest: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CardDataError(f"{where}: invalid TOML: {exc}") from None
    return manifest_from_data(data, where)


def check_manifest(manifest: object, where: str) -> Manifest:
    """``manifest`` if it is a well-formed :class:`Manifest` (a plugin may build one by hand).

    :raises CardDataError: for anything else, or an unknown deck or join.
    """
    if not isinstance(manifest, Manifest):
        raise CardDataError(
            f"{where}: the manifest must be a deathangel.cards.manifest.Manifest, "
            f"not {type(manifest).__name__}"
        )
    for deck, join in manifest.decks.items():
        if deck not in DECKS:
            raise CardDataError(
                f"{where}: decks: unknown deck {deck!r}{_hint(deck, DECKS)}; decks: "
                f"{_one_of(DECKS)}"
            )
        if not isinstance(join, Join) or join.mode not in JOIN_MODES:
            raise CardDataError(
                f"{where}: decks.{deck}: not a Join with mode {_one_of(JOIN_MODES)}"
            )
        if (join.mode == "replace") != bool(join.replace):
            raise CardDataError(
                f"{where}: decks.{deck}: 'replace' names cards exactly when the mode is 'replace'"
            )
    return manifest
