"""What types alone cannot catch: each card's own numbers and choices, then everything that
spans cards once all files are merged.

The converter (:mod:`deathangel.cards.convert`) lets through a range of 7, a team with two Move
cards or a location naming terrain no file defines. The checks here come in two stages,
because they need different inputs:

- a card's own checks (:data:`_CARD_CHECKS`, run by :func:`~deathangel.cards.load.read_file`
  on each card as it is read) need nothing else, so they run while the raw TOML is at hand
  and an error can still name the inner card (``action 'Block' (team 'green')``); they yield
  ``(field path, problem)`` pairs, so the reader reports the first and counts the rest;
- :func:`build_database` merges files, in order, and checks what needs the whole set: unique
  names and initiatives, references between cards, and effect names, timings and parameters
  against the effect catalogue. A reference may point into another file, even another
  plugin's, so these wait until every file is read; they fail on the first problem, naming
  both files when two cards clash.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

from attrs import frozen

from deathangel.cards.catalogue import (
    ENEMY_TIMINGS,
    TIMING_KINDS,
    EffectCatalogue,
    Timing,
)
from deathangel.cards.convert import (
    FieldPath,
    Problem,
    _describe,
    _fail,
    _hint,
    _one_of,
    _show_path,
)
from deathangel.cards.files import SUPPORT_TOKENS_KEY, CardFile
from deathangel.cards.manifest import CardSource
from deathangel.cards.model import (
    ACTION_KINDS,
    ICONS,
    SUPPORT_TOKENS,
    TERRAIN_COLOURS,
    BroodLord,
    CardDatabase,
    CombatTeam,
    Effect,
    Enemy,
    Event,
    GenestealerDeck,
    Location,
    SetupLocation,
    Terrain,
    TerrainPlacement,
)
from deathangel.errors import CardDataError

_K = TypeVar("_K", str, int)

MIN_RANGE: Final = 0
MAX_RANGE: Final = 3
"""Lowest and highest range a marine card may print."""


# -- one card's own checks -------------------------------------------------------------------------


def _at_least(value: int, low: int, path: FieldPath, what: str) -> Iterator[Problem]:
    if value < low:
        yield path, f"{what} must be at least {low}, got {value}"


def _check_deck(deck: GenestealerDeck) -> Iterator[Problem]:
    for icon, count in deck.icons.items():
        if icon not in ICONS:
            yield (
                ("icons", icon),
                f"unknown icon {icon!r}{_hint(icon, ICONS)} "
                + (f"(expected one of {_one_of(ICONS)})"),
            )
        yield from _at_least(count, 0, ("icons", icon), "a card count")


def _check_team(team: CombatTeam) -> Iterator[Problem]:
    if not team.marines:
        yield ("marine",), "a team needs at least one marine ([[team.marine]])"
    for i, marine in enumerate(team.marines):
        if not MIN_RANGE <= marine.range <= MAX_RANGE:
            yield (
                ("marine", i, "range"),
                f"range must be {MIN_RANGE} to {MAX_RANGE}, got {marine.range}",
            )
    for i, action in enumerate(team.actions):
        yield from _at_least(action.initiative, 1, ("action", i, "initiative"), "initiative")
    kinds = sorted((a.kind for a in team.actions), key=ACTION_KINDS.index)
    if kinds != list(ACTION_KINDS):
        found = ", ".join(kinds) or "none"
        yield (
            ("action",),
            f"a team needs exactly {len(ACTION_KINDS)} action cards, one of each kind "
            f"({_one_of(ACTION_KINDS)}); found {len(kinds)}: {found}",
        )


def _check_brood_lord(lord: BroodLord) -> Iterator[Problem]:
    if not lord.icons:
        yield ("icons",), "a Brood Lord needs at least one icon"
    for i, icon in enumerate(lord.icons):
        yield from _check_icon(icon, ("icons", i))


def _check_icon(icon: str, path: FieldPath) -> Iterator[Problem]:
    if icon not in ICONS:
        yield path, f"unknown icon {icon!r}{_hint(icon, ICONS)} (expected one of {_one_of(ICONS)})"


def _check_colour(colour: str, path: FieldPath) -> Iterator[Problem]:
    if colour not in TERRAIN_COLOURS:
        yield (
            path,
            f"unknown terrain colour {colour!r}{_hint(colour, TERRAIN_COLOURS)} "
            f"(expected one of {_one_of(TERRAIN_COLOURS)})",
        )


def _check_terrain(card: Terrain) -> Iterator[Problem]:
    yield from _check_colour(card.color, ("color",))
    if card.activatable and card.effect is None:
        yield ("effect",), "an activatable terrain card needs an effect"
    if not card.activatable and card.effect is not None:
        yield ("effect",), "a terrain card that is not activatable cannot have an effect"


def _check_placements(placements: Sequence[TerrainPlacement]) -> Iterator[Problem]:
    for i, placement in enumerate(placements):
        yield from _at_least(placement.position, 1, ("terrain", i, "position"), "position")


def _check_setup_location(loc: SetupLocation) -> Iterator[Problem]:
    if not loc.players:
        yield ("players",), "needs at least one player count"
    for i, players in enumerate(loc.players):
        yield from _at_least(players, 1, ("players", i), "a player count")
    if len(set(loc.players)) != len(loc.players):
        yield ("players",), "a player count is listed twice"
    if set(loc.teams_per_player) != set(loc.players):
        yield (
            ("teams_per_player",),
            f"keys must be exactly the player counts {sorted(loc.players)}, "
            f"got {sorted(loc.teams_per_player)}",
        )
    for players, teams in loc.teams_per_player.items():
        yield from _at_least(teams, 1, ("teams_per_player", str(players)), "teams per player")
    for name in ("major_spawn", "minor_spawn", "blips_left", "blips_right"):
        yield from _at_least(getattr(loc, name), 0, (name,), name.replace("_", " "))
    if not loc.location_deck:
        yield ("location_deck",), "needs at least one location deck"
    yield from _check_placements(loc.terrain)


def _check_location(loc: Location) -> Iterator[Problem]:
    yield from _at_least(loc.blips_left, 0, ("blips_left",), "blips left")
    yield from _at_least(loc.blips_right, 0, ("blips_right",), "blips right")
    if loc.ability is not None and loc.effect is None:
        yield ("effect",), f"a location with ability {loc.ability!r} needs an effect"
    if loc.ability is None and loc.effect is not None:
        yield (
            ("ability",),
            f"an effect needs an ability saying when it works (one of on_entering, "
            f"control_panel); got none for effect {loc.effect.name!r}",
        )
    if loc.victory is not None and not loc.final:
        yield ("victory",), "only a final location (final = true) can have a victory condition"
    yield from _check_placements(loc.terrain)


def _check_event(event: Event) -> Iterator[Problem]:
    yield from _at_least(event.copies, 1, ("copies",), "copies")
    for i, spawn in enumerate(event.spawns):
        yield from _check_colour(spawn.color, ("spawns", i, "color"))
    if event.move is not None:
        yield from _check_icon(event.move.icon, ("move", "icon"))


def _check_enemy(enemy: Enemy) -> Iterator[Problem]:
    if enemy.name in ICONS:
        yield ("name",), f"an enemy cannot be named like an icon ({_one_of(ICONS)})"
    if not enemy.icons:
        yield ("icons",), "an enemy needs at least one icon"
    for i, icon in enumerate(enemy.icons):
        yield from _check_icon(icon, ("icons", i))
    yield from _at_least(enemy.count, 1, ("count",), "count")
    yield from _at_least(enemy.toughness, 1, ("toughness",), "toughness")
    yield from _at_least(enemy.weight, 0, ("weight",), "weight")


_CARD_CHECKS: Final[Mapping[str, Callable[[Any], Iterator[Problem]]]] = {
    "team": _check_team,
    "brood_lord": _check_brood_lord,
    "terrain": _check_terrain,
    "setup_location": _check_setup_location,
    "location": _check_location,
    "event": _check_event,
    "enemy": _check_enemy,
}


# -- merging and cross-card checks -------------------------------------------------------------


@frozen
class _Origin:
    file: Path
    label: str


def _unique(seen: dict[_K, _Origin], key: _K, origin: _Origin, path: FieldPath, what: str) -> None:
    first = seen.get(key)
    if first is not None:
        _fail(
            origin.file,
            origin.label,
            path,
            f"duplicate {what} {key!r}: already used by {first.label} in {_show_path(first.file)}",
        )
    seen[key] = origin


def _check_effect(
    effect: Effect,
    catalogue: EffectCatalogue,
    allowed: frozenset[Timing],
    where: str,
    origin: _Origin,
    path: FieldPath,
    names: Mapping[str, frozenset[str]],
) -> None:
    spec = catalogue.get(effect.name)
    if spec is None:
        _fail(
            origin.file,
            origin.label,
            (*path, "name"),
            f"unknown effect {effect.name!r}{_hint(effect.name, catalogue.names())}",
        )
    if spec.timing not in allowed:
        _fail(
            origin.file,
            origin.label,
            (*path, "name"),
            f"effect {effect.name!r} works at {spec.timing!r}, which {where} cannot use "
            f"(allowed: {_one_of(sorted(allowed))})",
        )
    # Unknown names first: a misspelt parameter (``upto``) is also a missing one (``up_to``),
    # and only the unknown name can say "did you mean".
    for key in effect.params:
        if key not in spec.params:
            expected = _one_of(spec.params) or "none"
            _fail(
                origin.file,
                origin.label,
                (*path, key),
                f"effect {effect.name!r} has no parameter {key!r}{_hint(key, spec.params)} "
                f"(its parameters: {expected})",
            )
    missing = [p for p in spec.params if p not in effect.params]
    if missing:
        _fail(
            origin.file,
            origin.label,
            (*path, missing[0]),
            f"effect {effect.name!r} requires parameter {missing[0]!r} ({spec.params[missing[0]]})",
        )
    for key, value in effect.params.items():
        problem = _param_problem(spec.params[key], value, names)
        if problem:
            _fail(origin.file, origin.label, (*path, key), problem)


def _param_problem(kind: str, value: object, names: Mapping[str, frozenset[str]]) -> str | None:
    """What is wrong with a parameter value of that kind, or ``None``."""

    def is_int(v: object) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    if kind == "int":
        return None if is_int(value) else f"expected an integer, got {_describe(value)}"
    if kind == "bool":
        return (
            None if isinstance(value, bool) else f"expected true or false, got {_describe(value)}"
        )
    if kind == "int_list":
        if isinstance(value, list | tuple) and all(is_int(v) for v in value):
            return None
        return f"expected an array of integers, got {_describe(value)}"
    if not isinstance(value, str):
        return f"expected a string ({kind}), got {_describe(value)}"
    choices: Sequence[str]
    if kind == "str":
        return None
    if kind in ("marine", "terrain"):
        choices = sorted(names[kind])
        if value in names[kind]:
            return None
        return f"no {kind} named {value!r}{_hint(value, choices)}"
    if kind == "colour":
        choices = TERRAIN_COLOURS
    elif kind == "icon":
        choices = ICONS
    elif kind == "side":
        choices = ("left", "right")
    else:  # a kind a newer catalogue declares and this loader does not know
        return f"parameter kind {kind!r} is not supported by this loader"
    if value in choices:
        return None
    return f"expected one of {_one_of(choices)}, got {_describe(value)}{_hint(value, choices)}"


def build_database(
    files: Sequence[CardFile],
    *,
    catalogue: EffectCatalogue,
    sources: Sequence[CardSource] = (),
    remove: Collection[str] = (),
) -> CardDatabase:
    """Merge files, in order, into one database and check everything that spans cards.

    ``files`` simply add their cards (genestealer counts add up; ``support_tokens`` may be
    set once, default :data:`~deathangel.cards.model.SUPPORT_TOKENS`). Each of ``sources``
    (a plugin's files, merged after ``files``) first applies its manifest's joins to the cards
    before it: ``replace`` takes the named cards out, ``own`` empties that deck. ``remove``
    then takes named cards out of the merged whole (a rule variant's removals): an Event name
    removes every copy, a team is named by colour. The checks run on what is left, so a card
    that still refers to a removed one is reported.

    :raises CardDataError: naming the file (or plugin), card and field of the first problem.
    """
    merged = _Merged()
    for cf in files:
        merged.add(cf)
    for source in sources:
        merged.join(source)
        for cf in source.files:
            merged.add(cf)
    if remove:
        merged.remove(remove)
    names = _check_names(merged)
    _check_references(merged)
    _check_effects(merged, catalogue, names)
    return merged.database()


_DECK_ATTRS: Final[Mapping[str, str]] = {
    "teams": "teams",
    "events": "events",
    "locations": "locations",
    "setup_locations": "setups",
    "terrain": "terrain",
    "brood_lords": "lords",
    "enemies": "enemies",
}
"""Manifest deck name -> the :class:`_Merged` list holding that deck's cards."""


def _key(card: Any) -> str:
    """What a manifest or a removal names a card by: a team's colour, any other card's name."""
    return str(card.color if isinstance(card, CombatTeam) else card.name)


class _Merged:
    """The cards of every file so far, in order, each with the file and label it came from."""

    def __init__(self) -> None:
        self.teams: list[tuple[CombatTeam, _Origin]] = []
        self.lords: list[tuple[BroodLord, _Origin]] = []
        self.terrain: list[tuple[Terrain, _Origin]] = []
        self.setups: list[tuple[SetupLocation, _Origin]] = []
        self.locations: list[tuple[Location, _Origin]] = []
        self.events: list[tuple[Event, _Origin]] = []
        self.enemies: list[tuple[Enemy, _Origin]] = []
        self.icons: dict[str, int] = {}
        self.support_tokens: tuple[int, Path] | None = None

    def add(self, cf: CardFile) -> None:
        """Append a file's cards; its genestealers add to the counts so far."""

        def named(noun: str, name: str) -> _Origin:
            return _Origin(cf.path, f"{noun} {name!r}")

        self.teams += [(t, named("team", t.color)) for t in cf.teams]
        self.lords += [(b, named("brood lord", b.name)) for b in cf.brood_lords]
        self.terrain += [(t, named("terrain", t.name)) for t in cf.terrain]
        self.setups += [(s, named("setup location", s.name)) for s in cf.setup_locations]
        self.locations += [(loc, named("location", loc.name)) for loc in cf.locations]
        self.events += [(e, named("event", e.name)) for e in cf.events]
        self.enemies += [(e, named("enemy", e.name)) for e in cf.enemies]
        if cf.genestealers is not None:
            for icon, count in cf.genestealers.icons.items():
                self.icons[icon] = self.icons.get(icon, 0) + count
        if cf.support_tokens is not None:
            if self.support_tokens is not None:
                first, where = self.support_tokens
                _fail(
                    cf.path,
                    None,
                    (SUPPORT_TOKENS_KEY,),
                    f"already set to {first} in {_show_path(where)}; set it in one file only",
                )
            self.support_tokens = (cf.support_tokens, cf.path)

    def join(self, source: CardSource) -> None:
        """Apply a plugin's manifest to the cards merged before it (its own come after)."""
        for deck, join in source.joins.items():
            if join.mode == "add":
                continue
            where = f"plugin {source.name!r}: manifest: decks.{deck}"
            if deck == "genestealers":
                if join.mode == "own":
                    self.icons = {}
                    continue
                for icon in join.replace:
                    if icon not in self.icons:
                        raise CardDataError(
                            f"{where}: replaces {icon!r}, but no genestealer card with that "
                            f"icon came before{_hint(icon, self.icons)}"
                        )
                    del self.icons[icon]
                continue
            cards: list[tuple[Any, _Origin]] = getattr(self, _DECK_ATTRS[deck])
            if join.mode == "own":
                cards.clear()
                continue
            present = {_key(card) for card, _ in cards}
            for name in join.replace:
                if name not in present:
                    raise CardDataError(
                        f"{where}: replaces {name!r}, but no card of that name came before "
                        f"(the base game or an earlier plugin){_hint(name, present)}"
                    )
            cards[:] = [(card, o) for card, o in cards if _key(card) not in join.replace]

    def remove(self, names: Collection[str]) -> None:
        """Take every card called one of ``names`` out, whatever its kind."""
        found: set[str] = set()
        for attr in _DECK_ATTRS.values():
            cards: list[tuple[Any, _Origin]] = getattr(self, attr)
            kept = [(card, o) for card, o in cards if _key(card) not in names]
            found.update(_key(card) for card, _ in cards if _key(card) in names)
            cards[:] = kept
        missing = [n for n in names if n not in found]
        if missing:
            every = {_key(c) for attr in _DECK_ATTRS.values() for c, _ in getattr(self, attr)}
            raise CardDataError(
                f"cannot remove {missing[0]!r}: no card has that name{_hint(missing[0], every)}"
            )

    def database(self) -> CardDatabase:
        return CardDatabase(
            teams=tuple(t for t, _ in self.teams),
            genestealers=GenestealerDeck(icons=self.icons),
            brood_lords=tuple(b for b, _ in self.lords),
            terrain=tuple(t for t, _ in self.terrain),
            setup_locations=tuple(s for s, _ in self.setups),
            locations=tuple(loc for loc, _ in self.locations),
            events=tuple(e for e, _ in self.events),
            support_tokens=SUPPORT_TOKENS
            if self.support_tokens is None
            else self.support_tokens[0],
            enemies=tuple(e for e, _ in self.enemies),
        )


def _check_names(merged: _Merged) -> Mapping[str, frozenset[str]]:
    """Every name unique in its kind (locations and setup locations share one namespace).

    Returns the names an effect parameter may refer to, by parameter kind (``marine``,
    ``terrain``).
    """
    marine_names = _check_team_names(merged.teams)
    lord_names: dict[str, _Origin] = {}
    for lord, origin in merged.lords:
        _unique(lord_names, lord.name, origin, ("name",), "Brood Lord name")
    # Enemy cards and Brood Lords share the genestealer labels a player chooses among.
    for enemy, origin in merged.enemies:
        _unique(lord_names, enemy.name, origin, ("name",), "enemy or Brood Lord name")
    terrain_names: dict[str, _Origin] = {}
    for card, origin in merged.terrain:
        _unique(terrain_names, card.name, origin, ("name",), "terrain name")
    location_names: dict[str, _Origin] = {}
    player_counts: dict[int, _Origin] = {}
    for setup, origin in merged.setups:
        _unique(location_names, setup.name, origin, ("name",), "location name")
        for i, players in enumerate(setup.players):
            _unique(player_counts, players, origin, ("players", i), "player count")
    for loc, origin in merged.locations:
        _unique(location_names, loc.name, origin, ("name",), "location name")
    return {"marine": frozenset(marine_names), "terrain": frozenset(terrain_names)}


def _check_team_names(teams: Sequence[tuple[CombatTeam, _Origin]]) -> dict[str, _Origin]:
    """Team colours, marine names, action card names and initiatives each unique; returns
    the marines by name."""
    team_names: dict[str, _Origin] = {}
    marine_names: dict[str, _Origin] = {}
    action_names: dict[str, _Origin] = {}
    initiatives: dict[int, _Origin] = {}
    for team, origin in teams:
        _unique(team_names, team.color, origin, ("color",), "team colour")
        for m in team.marines:
            inner = _Origin(origin.file, f"marine {m.name!r} ({origin.label})")
            _unique(marine_names, m.name, inner, ("name",), "marine name")
        for a in team.actions:
            inner = _Origin(origin.file, f"action {a.name!r} ({origin.label})")
            _unique(action_names, a.name, inner, ("name",), "action card name")
            _unique(initiatives, a.initiative, inner, ("initiative",), "initiative")
    return marine_names


def _check_references(merged: _Merged) -> None:
    """Terrain placed by locations exists, setup decks have locations, spawn colours have
    terrain to spawn at."""
    terrain_names = frozenset(card.name for card, _ in merged.terrain)
    decks = {loc.deck for loc, _ in merged.locations}
    for setup, origin in merged.setups:
        _check_refs(setup.terrain, terrain_names, origin)
        for i, deck in enumerate(setup.location_deck):
            if deck not in decks:
                _fail(
                    origin.file,
                    origin.label,
                    ("location_deck", i),
                    f"no location belongs to deck {deck!r}{_hint(deck, decks)} "
                    f"(decks: {_one_of(sorted(decks)) or 'none'})",
                )
    for loc, origin in merged.locations:
        _check_refs(loc.terrain, terrain_names, origin)
    _check_spawn_colours(merged)


def _check_spawn_colours(merged: _Merged) -> None:
    """Every Event's spawn box names a colour some terrain card has."""
    colours_in_play = {card.color for card, _ in merged.terrain}
    for event, origin in merged.events:
        for i, spawn in enumerate(event.spawns):
            if spawn.color not in colours_in_play:
                _fail(
                    origin.file,
                    origin.label,
                    ("spawns", i, "color"),
                    f"no terrain card has colour {spawn.color!r}, so nothing could spawn "
                    f"(terrain colours: {_one_of(sorted(colours_in_play)) or 'none'})",
                )


def _check_effects(
    merged: _Merged, catalogue: EffectCatalogue, names: Mapping[str, frozenset[str]]
) -> None:
    """Every effect a card names is in the catalogue, works at a timing that kind of card
    has, and has the right parameters."""
    for effect, allowed, where, origin, path in _named_effects(merged):
        _check_effect(effect, catalogue, allowed, where, origin, path, names)


_NamedEffect = tuple[Effect, frozenset[Timing], str, _Origin, FieldPath]
"""An effect a card names: the timings its kind of card allows, the card, the field."""


def _named_effects(merged: _Merged) -> Iterator[_NamedEffect]:
    for team, origin in merged.teams:
        for a in team.actions:
            if a.effect is not None:
                inner = _Origin(origin.file, f"action {a.name!r} ({origin.label})")
                # A window belongs to one base action: an Attack card's effect cannot work
                # after a support token is placed (it would never run).
                allowed: frozenset[Timing] = frozenset(
                    t for t, kinds in TIMING_KINDS.items() if a.kind in kinds
                )
                where = f"{_KIND_NOUN[a.kind]} card"
                yield a.effect, allowed, where, inner, ("effect",)
    for card, origin in merged.terrain:
        if card.effect is not None:
            yield card.effect, frozenset({"terrain"}), "a terrain card", origin, ("effect",)
    for loc, origin in merged.locations:
        if loc.effect is not None and loc.ability is not None:
            where = f"a location with ability {loc.ability!r}"
            yield loc.effect, frozenset({loc.ability}), where, origin, ("effect",)
        if loc.victory is not None:
            yield loc.victory, frozenset({"victory"}), "a victory condition", origin, ("victory",)
    for event, origin in merged.events:
        yield event.effect, frozenset({"event"}), "an event card", origin, ("effect",)
    for enemy, origin in merged.enemies:
        if enemy.rule is not None:
            yield enemy.rule, ENEMY_TIMINGS, "an enemy's rule", origin, ("rule",)


_KIND_NOUN: Final[Mapping[str, str]] = {
    "support": "a Support",
    "move_activate": "a Move + Activate",
    "attack": "an Attack",
}


def _check_refs(
    placements: Sequence[TerrainPlacement], terrain: frozenset[str], origin: _Origin
) -> None:
    for i, placement in enumerate(placements):
        if placement.terrain not in terrain:
            _fail(
                origin.file,
                origin.label,
                ("terrain", i, "terrain"),
                f"no terrain card named {placement.terrain!r}{_hint(placement.terrain, terrain)}",
            )
