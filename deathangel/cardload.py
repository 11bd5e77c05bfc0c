"""Turn TOML card files into a :class:`~deathangel.cardmodel.CardDatabase`, and back.

Card data is the one input modders write by hand, so every mistake must surface at load time
as one line naming the file, the card and the field; a typo that reaches a game would show up
hundreds of rounds later as a baffling simulation result. Loading therefore runs in three
layers, each catching what the one before cannot:

1. TOML syntax (:mod:`tomllib` gives the line and column);
2. shape and types, through one strict cattrs converter (unknown keys, missing keys, a string
   where a number belongs - cattrs' defaults would quietly coerce ``"2"`` to ``2``, so the
   primitive hooks here refuse to);
3. meaning, once every file is merged: unique names and initiatives, references between
   cards, effect names and parameters against the effect catalogue.

File layout (see the header of each file under ``cards/base``): a file is a TOML document
whose top-level keys are any of

- ``[[team]]`` with ``[[team.marine]]`` and ``[[team.action]]`` - combat teams;
- ``[[brood_lord]]``, ``[[terrain]]``, ``[[setup_location]]``, ``[[location]]``, ``[[event]]``;
- ``[genestealers]`` with an ``icons`` table (counts from several files add up, so an
  expansion can add genestealer cards);
- ``support_tokens`` - the size of the support-token supply, set by at most one file.

Keys inside a card are the attrs field names of :mod:`deathangel.cardmodel`; the only renames
are the singular ``marine``/``action`` of ``[[team.*]]`` headers, because each such header
introduces one card. An effect is an inline table, ``{ name = "...", <param> = ... }``.
Which file holds which key is convention only: a plugin may put all its cards in one file.
"""

from __future__ import annotations

import difflib
import functools
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    Literal,
    NoReturn,
    TypeAlias,
    TypeVar,
    get_args,
    get_origin,
)

import attrs
from attrs import field, frozen
from cattrs import Converter
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from deathangel.cardmodel import (
    ACTION_KINDS,
    ICONS,
    TERRAIN_COLOURS,
    BroodLord,
    CardDatabase,
    CombatTeam,
    Effect,
    Event,
    GenestealerDeck,
    Location,
    SetupLocation,
    Terrain,
    TerrainPlacement,
)
from deathangel.effectspec import BASE_EFFECTS, EffectCatalogue, EffectSpec, Timing
from deathangel.errors import CardDataError, PluginError

if TYPE_CHECKING:
    import pluggy

__all__ = [
    "CardFile",
    "build_database",
    "card_files",
    "dump_file",
    "dumps",
    "load_base",
    "load_database",
    "plugin_card_dirs",
    "plugin_catalogue",
    "read_file",
    "to_toml_data",
]

PathPart: TypeAlias = str | int
"""One step of a field path: a key, or an array index."""
FieldPath: TypeAlias = tuple[PathPart, ...]
Problem: TypeAlias = tuple[FieldPath, str]
"""A field path (relative to a card) and what is wrong there."""
_K = TypeVar("_K", str, int)

MIN_RANGE: Final = 0
MAX_RANGE: Final = 3

# -- file layout -------------------------------------------------------------------------------


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
)
"""Card arrays a file may hold, in the order they are checked and dumped."""

_DECK_SECTION: Final = _Section("genestealers", "genestealers", GenestealerDeck, "genestealer deck")
"""The ``[genestealers]`` table: not an array of cards, but reported the same way."""

_SECTION_BY_KEY: Final = {s.key: s for s in SECTIONS}
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

_ACTION_TIMINGS: Final[frozenset[Timing]] = frozenset(
    {
        "support_after",
        "move_activate_before",
        "move_step",
        "activation",
        "move_activate_after",
        "attack",
        "defence",
        "end_of_event",
        "attack_after",
    }
)


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
    genestealers: GenestealerDeck | None = None
    support_tokens: int | None = None


# -- messages -------------------------------------------------------------------------------


def _show_path(path: Path) -> str:
    """The path as a user would type it: relative to the current directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def _format_field(path: FieldPath) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def _message(file: Path, label: str | None, path: FieldPath, problem: str) -> str:
    parts = [_show_path(file)]
    if label:
        parts.append(label)
    if path:
        parts.append(f"field '{_format_field(path)}'")
    parts.append(problem)
    return ": ".join(parts)


def _fail(file: Path, label: str | None, path: FieldPath, problem: str) -> NoReturn:
    raise CardDataError(_message(file, label, path, problem))


def _hint(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` when something close exists: most typos are one letter off."""
    close = difflib.get_close_matches(word, list(choices), n=3, cutoff=0.6)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"


def _describe(value: object) -> str:
    """A TOML-flavoured description of a value, since modders think in TOML, not Python."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the float {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _one_of(choices: Iterable[str]) -> str:
    return ", ".join(choices)


# -- the converter -------------------------------------------------------------------------------


class _Invalid(Exception):
    """A hook's complaint about one value; ``at`` is the path below that value, if deeper."""

    def __init__(self, message: str, at: FieldPath = ()) -> None:
        super().__init__(message)
        self.message = message
        self.at = at


def _structure_int(value: object, _: type) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _Invalid(f"expected an integer, got {_describe(value)}")


def _structure_str(value: object, _: type) -> str:
    if isinstance(value, str):
        return value
    raise _Invalid(f"expected a string, got {_describe(value)}")


def _structure_bool(value: object, _: type) -> bool:
    if isinstance(value, bool):
        return value
    raise _Invalid(f"expected true or false, got {_describe(value)}")


def _is_literal(t: Any) -> bool:
    return get_origin(t) is Literal


def _structure_literal(value: object, t: Any) -> Any:
    choices = get_args(t)
    if value in choices and type(value) is str:
        return value
    names = [str(c) for c in choices]
    hint = _hint(value, names) if isinstance(value, str) else ""
    raise _Invalid(f"expected one of {_one_of(names)}, got {_describe(value)}{hint}")


def _is_tuple(t: Any) -> bool:
    args = get_args(t)
    return get_origin(t) is tuple and len(args) == 2 and args[1] is Ellipsis


def _is_mapping(t: Any) -> bool:
    return get_origin(t) in (Mapping, dict)


def _collect(errors: list[Exception], exc: Exception, note: str, index: PathPart, t: Any) -> None:
    exc.__notes__ = [*getattr(exc, "__notes__", []), IterableValidationNote(note, index, t)]
    errors.append(exc)


def _tuple_hook(conv: Converter, t: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
    """Structure ``tuple[X, ...]`` from a TOML array only: cattrs would accept any iterable,
    turning ``location_deck = "1A"`` into ``("1", "A")``."""
    elem = get_args(t)[0]
    handler = conv.get_structure_hook(elem)

    def structure(value: Any, _: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise _Invalid(f"expected an array, got {_describe(value)}")
        out: list[Any] = []
        errors: list[Exception] = []
        for i, item in enumerate(value):
            try:
                out.append(handler(item, elem))
            except Exception as exc:
                _collect(errors, exc, f"Structuring {t} @ index {i}", i, elem)
        if errors:
            raise IterableValidationError(f"While structuring {t!r}", errors, t)
        return tuple(out)

    return structure


def _mapping_hook(conv: Converter, t: Any) -> Callable[[Any, Any], dict[Any, Any]]:
    """Structure a TOML table; ``int`` keys come from digit strings, since TOML keys are
    always strings (``teams_per_player = { "2" = 2 }``)."""
    key_type, value_type = get_args(t)
    handler = conv.get_structure_hook(value_type)

    def structure(value: Any, _: Any) -> dict[Any, Any]:
        if not isinstance(value, dict):
            raise _Invalid(f"expected a table, got {_describe(value)}")
        out: dict[Any, Any] = {}
        errors: list[Exception] = []
        for key, item in value.items():
            try:
                if key_type is int:
                    if not re.fullmatch(r"[0-9]+", key):
                        raise _Invalid(f"key {key!r} is not a whole number")
                    out[int(key)] = handler(item, value_type)
                else:
                    out[key] = handler(item, value_type)
            except Exception as exc:
                _collect(errors, exc, f"Structuring {t} @ key {key!r}", key, value_type)
        if errors:
            raise IterableValidationError(f"While structuring {t!r}", errors, t)
        return out

    return structure


def _unstructure_mapping(value: Mapping[Any, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in value.items()}


def _structure_effect(value: object, _: type) -> Effect:
    if not isinstance(value, dict):
        raise _Invalid(
            f'expected an inline table like {{ name = "...", ... }}, got {_describe(value)}'
        )
    if "name" not in value:
        raise _Invalid("required field is missing", at=("name",))
    name = value["name"]
    if not isinstance(name, str):
        raise _Invalid(f"expected a string, got {_describe(name)}", at=("name",))
    return Effect(name=name, params={k: v for k, v in value.items() if k != "name"})


def _unstructure_effect(effect: Effect) -> dict[str, Any]:
    return {"name": effect.name, **effect.params}


def _class_hook(conv: Converter, cl: type[Any]) -> Callable[[Any, Any], Any]:
    """cattrs' generated function, behind a check that the value is a table at all (otherwise
    every field would fail with an unhelpful 'not subscriptable')."""
    renames: dict[str, Any] = {a: override(rename=k) for a, k in _RENAMES.get(cl, {}).items()}
    inner = make_dict_structure_fn(cl, conv, **renames)

    def structure(value: Any, t: Any) -> Any:
        if not isinstance(value, dict):
            raise _Invalid(f"expected a table, got {_describe(value)}")
        return inner(value, t)

    return structure


def _class_unhook(conv: Converter, cl: type[Any]) -> Callable[[Any], Any]:
    renames: dict[str, Any] = {a: override(rename=k) for a, k in _RENAMES.get(cl, {}).items()}
    return make_dict_unstructure_fn(cl, conv, _cattrs_omit_if_default=True, **renames)


def _make_converter() -> Converter:
    conv = Converter(forbid_extra_keys=True, omit_if_default=True)
    conv.register_structure_hook(int, _structure_int)
    conv.register_structure_hook(str, _structure_str)
    conv.register_structure_hook(bool, _structure_bool)
    conv.register_structure_hook_func(_is_literal, _structure_literal)
    conv.register_structure_hook_factory(_is_tuple, lambda t: _tuple_hook(conv, t))
    conv.register_structure_hook_factory(_is_mapping, lambda t: _mapping_hook(conv, t))
    conv.register_structure_hook_factory(attrs.has, lambda t: _class_hook(conv, t))
    conv.register_structure_hook(Effect, _structure_effect)
    conv.register_unstructure_hook_factory(attrs.has, lambda t: _class_unhook(conv, t))
    conv.register_unstructure_hook_func(_is_mapping, _unstructure_mapping)
    conv.register_unstructure_hook(Effect, _unstructure_effect)
    return conv


@functools.cache
def _converter() -> Converter:
    """The one converter, built on first use: its generated hooks are then reused by every
    load, which is what keeps repeated loading cheap."""
    return _make_converter()


def _key_name(cl: type[Any], attr: str) -> str:
    return _RENAMES.get(cl, {}).get(attr, attr)


def _allowed_keys(cl: type[Any]) -> list[str]:
    return [_key_name(cl, a.name) for a in attrs.fields(cl)]


def _note(exc: BaseException, kind: type[Any]) -> Any:
    for note in getattr(exc, "__notes__", ()):
        if isinstance(note, kind):
            return note
    return None


def _problems(exc: BaseException, path: FieldPath = ()) -> Iterator[Problem]:
    """Flatten cattrs' exception tree into (field path, problem) pairs, in TOML key names."""
    if isinstance(exc, ClassValidationError):
        for sub in exc.exceptions:
            note = _note(sub, AttributeValidationNote)
            sub_path = path if note is None else (*path, _key_name(exc.cl, note.name))
            yield from _problems(sub, sub_path)
    elif isinstance(exc, IterableValidationError):
        for sub in exc.exceptions:
            note = _note(sub, IterableValidationNote)
            yield from _problems(sub, path if note is None else (*path, note.index))
    elif isinstance(exc, ForbiddenExtraKeysError):
        allowed = _allowed_keys(exc.cl)
        for key in sorted(exc.extra_fields):
            yield (*path, key), f"unknown field{_hint(key, allowed)}"
    elif isinstance(exc, _Invalid):
        yield (*path, *exc.at), exc.message
    elif isinstance(exc, KeyError):
        yield path, "required field is missing"
    else:
        yield path, f"{type(exc).__name__}: {exc}"


# -- reading one file ---------------------------------------------------------------------------


def _card_label(section: _Section, raw: object, index: int) -> str:
    if isinstance(raw, dict):
        name = raw.get(section.name_field)
        if isinstance(name, str):
            return f"{section.noun} {name!r}"
    return f"{section.key}[{index}]"


def _inner_names(section: _Section, raw: object) -> Mapping[str, Sequence[object]]:
    """Names of the cards nested in a card (a team's marines and actions), from raw TOML."""
    nested = _NESTED_CARDS.get(section.key, {})
    if not nested or not isinstance(raw, dict):
        return {}
    out: dict[str, list[object]] = {}
    for key in nested:
        items = raw.get(key)
        if isinstance(items, list):
            out[key] = [item.get("name") if isinstance(item, dict) else None for item in items]
    return out


def _locate(
    section: _Section, label: str, inner: Mapping[str, Sequence[object]], path: FieldPath
) -> tuple[str, FieldPath]:
    """Blame the innermost named card: ``action 'Block' (team 'green')`` with field
    ``initiative`` tells a modder more than ``team 'green'`` with ``action[0].initiative``."""
    nested = _NESTED_CARDS.get(section.key, {})
    if len(path) >= 2 and isinstance(path[0], str) and path[0] in nested:
        key, index = path[0], path[1]
        names = inner.get(key, ())
        if isinstance(index, int) and 0 <= index < len(names):
            name = names[index]
            if isinstance(name, str):
                return f"{nested[key]} {name!r} ({label})", path[2:]
    return label, path


def _card_error(
    file: Path,
    section: _Section,
    label: str,
    inner: Mapping[str, Sequence[object]],
    problems: list[Problem],
) -> CardDataError:
    """One error for a card, from its first problem; the others are only counted, because a
    one-line message is what the CLI and a modder's editor can show."""
    if not problems:  # pragma: no cover - every failure path yields at least one problem
        problems = [((), "invalid card")]
    # An unknown key usually is a misspelt known one: its "did you mean" hint is the most
    # useful line, better than the "required field is missing" the same typo also causes.
    problems = sorted(problems, key=lambda p: not p[1].startswith("unknown field"))
    where, path = _locate(section, label, inner, problems[0][0])
    more = len(problems) - 1
    suffix = f" (and {more} more problem{'s' if more > 1 else ''} in this card)" if more else ""
    return CardDataError(_message(file, where, path, problems[0][1] + suffix))


def _parse_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        _fail(path, None, (), f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    except OSError as exc:
        _fail(path, None, (), f"cannot read: {exc.strerror or exc}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        error = exc
    # tomllib (3.11) puts the position only in the message; lift it to the front.
    msg = str(error)
    where: str | None = None
    m = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", msg, flags=re.DOTALL)
    if m:
        msg, where = m.group(1), f"line {m.group(2)}, column {m.group(3)}"
    m = re.fullmatch(r"(.*) \(at end of document\)", msg, flags=re.DOTALL)
    if m:
        last_line = text.count("\n") + 1
        msg, where = m.group(1), f"line {last_line} (end of file)"
    _fail(path, where, (), f"invalid TOML: {msg}")


def read_file(path: Path) -> CardFile:
    """Parse and type-check one card file, including each card's own numbers and choices.

    Checks that need other cards (names, references, effects) wait for
    :func:`build_database`, because the other cards may live in another file.
    """
    doc = _parse_toml(path)
    conv = _converter()
    unknown = [k for k in doc if k not in TOP_LEVEL_KEYS]
    if unknown:
        key = unknown[0]
        _fail(
            path,
            None,
            (),
            f"unknown top-level key {key!r}{_hint(key, TOP_LEVEL_KEYS)}; "
            f"expected any of {_one_of(TOP_LEVEL_KEYS)}",
        )
    values: dict[str, Any] = {}
    if SUPPORT_TOKENS_KEY in doc:
        tokens = doc[SUPPORT_TOKENS_KEY]
        if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 0:
            _fail(
                path,
                None,
                (SUPPORT_TOKENS_KEY,),
                f"expected a whole number of at least 0, got {_describe(tokens)}",
            )
        values["support_tokens"] = tokens
    if GENESTEALERS_KEY in doc:
        raw = doc[GENESTEALERS_KEY]
        label = "genestealer deck"
        try:
            deck = conv.structure(raw, GenestealerDeck)
        except Exception as exc:
            raise _card_error(path, _DECK_SECTION, label, {}, list(_problems(exc))) from None
        problems = list(_check_deck(deck))
        if problems:
            raise _card_error(path, _DECK_SECTION, label, {}, problems)
        values["genestealers"] = deck
    for section in SECTIONS:
        if section.key not in doc:
            continue
        items = doc[section.key]
        if not isinstance(items, list):
            _fail(
                path,
                None,
                (section.key,),
                f"expected an array of tables ([[{section.key}]]), got {_describe(items)}",
            )
        cards: list[Any] = []
        for index, raw in enumerate(items):
            label = _card_label(section, raw, index)
            inner = _inner_names(section, raw)
            try:
                card = conv.structure(raw, section.cls)
            except Exception as exc:
                raise _card_error(path, section, label, inner, list(_problems(exc))) from None
            problems = list(_CARD_CHECKS[section.key](card))
            if problems:
                raise _card_error(path, section, label, inner, problems)
            cards.append(card)
        values[section.attr] = tuple(cards)
    return CardFile(path=path, **values)


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


_CARD_CHECKS: Final[Mapping[str, Callable[[Any], Iterator[Problem]]]] = {
    "team": _check_team,
    "brood_lord": _check_brood_lord,
    "terrain": _check_terrain,
    "setup_location": _check_setup_location,
    "location": _check_location,
    "event": _check_event,
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
    allowed: frozenset[str],
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
    missing = [p for p in spec.params if p not in effect.params]
    if missing:
        _fail(
            origin.file,
            origin.label,
            (*path, missing[0]),
            f"effect {effect.name!r} requires parameter {missing[0]!r} ({spec.params[missing[0]]})",
        )
    for key, value in effect.params.items():
        kind = spec.params.get(key)
        if kind is None:
            expected = _one_of(spec.params) or "none"
            _fail(
                origin.file,
                origin.label,
                (*path, key),
                f"effect {effect.name!r} has no parameter {key!r}{_hint(key, spec.params)} "
                f"(its parameters: {expected})",
            )
        problem = _param_problem(kind, value, names)
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
        if isinstance(value, list) and all(is_int(v) for v in value):
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


def build_database(files: Sequence[CardFile], *, catalogue: EffectCatalogue) -> CardDatabase:
    """Merge files, in order, into one database and check everything that spans cards.

    Merging simply concatenates each kind (a plugin adds cards, it does not replace them);
    genestealer counts add up; ``support_tokens`` may be set once (default 12).
    """
    teams: list[tuple[CombatTeam, _Origin]] = []
    lords: list[tuple[BroodLord, _Origin]] = []
    terrain: list[tuple[Terrain, _Origin]] = []
    setups: list[tuple[SetupLocation, _Origin]] = []
    locations: list[tuple[Location, _Origin]] = []
    events: list[tuple[Event, _Origin]] = []
    icons: dict[str, int] = {}
    support_tokens: tuple[int, Path] | None = None

    def named(noun: str, name: str, file: Path) -> _Origin:
        return _Origin(file, f"{noun} {name!r}")

    for cf in files:
        teams += [(t, named("team", t.color, cf.path)) for t in cf.teams]
        lords += [(b, named("brood lord", b.name, cf.path)) for b in cf.brood_lords]
        terrain += [(t, named("terrain", t.name, cf.path)) for t in cf.terrain]
        setups += [(s, named("setup location", s.name, cf.path)) for s in cf.setup_locations]
        locations += [(loc, named("location", loc.name, cf.path)) for loc in cf.locations]
        events += [(e, named("event", e.name, cf.path)) for e in cf.events]
        if cf.genestealers is not None:
            for icon, count in cf.genestealers.icons.items():
                icons[icon] = icons.get(icon, 0) + count
        if cf.support_tokens is not None:
            if support_tokens is not None:
                _fail(
                    cf.path,
                    None,
                    (SUPPORT_TOKENS_KEY,),
                    f"already set to {support_tokens[0]} in {_show_path(support_tokens[1])}; "
                    "set it in one file only",
                )
            support_tokens = (cf.support_tokens, cf.path)

    # -- names: unique per kind (locations and setup locations share one namespace)
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
    lord_names: dict[str, _Origin] = {}
    for lord, origin in lords:
        _unique(lord_names, lord.name, origin, ("name",), "Brood Lord name")
    terrain_names: dict[str, _Origin] = {}
    for card, origin in terrain:
        _unique(terrain_names, card.name, origin, ("name",), "terrain name")
    location_names: dict[str, _Origin] = {}
    player_counts: dict[int, _Origin] = {}
    for setup, origin in setups:
        _unique(location_names, setup.name, origin, ("name",), "location name")
        for i, players in enumerate(setup.players):
            _unique(player_counts, players, origin, ("players", i), "player count")
    for loc, origin in locations:
        _unique(location_names, loc.name, origin, ("name",), "location name")

    # -- references
    names = {"marine": frozenset(marine_names), "terrain": frozenset(terrain_names)}
    colours_in_play = {card.color for card, _ in terrain}
    decks = {loc.deck for loc, _ in locations}
    for setup, origin in setups:
        _check_refs(setup.terrain, names["terrain"], origin)
        for i, deck in enumerate(setup.location_deck):
            if deck not in decks:
                _fail(
                    origin.file,
                    origin.label,
                    ("location_deck", i),
                    f"no location belongs to deck {deck!r}{_hint(deck, decks)} "
                    f"(decks: {_one_of(sorted(decks)) or 'none'})",
                )
    for loc, origin in locations:
        _check_refs(loc.terrain, names["terrain"], origin)
    for event, origin in events:
        for i, spawn in enumerate(event.spawns):
            if spawn.color not in colours_in_play:
                _fail(
                    origin.file,
                    origin.label,
                    ("spawns", i, "color"),
                    f"no terrain card has colour {spawn.color!r}, so nothing could spawn "
                    f"(terrain colours: {_one_of(sorted(colours_in_play)) or 'none'})",
                )

    # -- effects
    for team, origin in teams:
        for a in team.actions:
            if a.effect is not None:
                inner = _Origin(origin.file, f"action {a.name!r} ({origin.label})")
                _check_effect(
                    a.effect,
                    catalogue,
                    _ACTION_TIMINGS,
                    "an action card",
                    inner,
                    ("effect",),
                    names,
                )
    for card, origin in terrain:
        if card.effect is not None:
            _check_effect(
                card.effect,
                catalogue,
                frozenset({"terrain"}),
                "a terrain card",
                origin,
                ("effect",),
                names,
            )
    for loc, origin in locations:
        if loc.effect is not None and loc.ability is not None:
            _check_effect(
                loc.effect,
                catalogue,
                frozenset({loc.ability}),
                f"a location with ability {loc.ability!r}",
                origin,
                ("effect",),
                names,
            )
        if loc.victory is not None:
            _check_effect(
                loc.victory,
                catalogue,
                frozenset({"victory"}),
                "a victory condition",
                origin,
                ("victory",),
                names,
            )
    for event, origin in events:
        _check_effect(
            event.effect,
            catalogue,
            frozenset({"event"}),
            "an event card",
            origin,
            ("effect",),
            names,
        )

    return CardDatabase(
        teams=tuple(t for t, _ in teams),
        genestealers=GenestealerDeck(icons=icons),
        brood_lords=tuple(b for b, _ in lords),
        terrain=tuple(t for t, _ in terrain),
        setup_locations=tuple(s for s, _ in setups),
        locations=tuple(loc for loc, _ in locations),
        events=tuple(e for e, _ in events),
        support_tokens=12 if support_tokens is None else support_tokens[0],
    )


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


# -- finding files and plugins -------------------------------------------------------------------


def card_files(dirs: Iterable[Path]) -> list[Path]:
    """Every ``*.toml`` file of each directory, sorted within a directory so that merge
    order (and so card order in the database) never depends on the file system."""
    out: list[Path] = []
    seen: set[Path] = set()
    for d in dirs:
        d = Path(d)
        key = d.resolve()
        if key in seen:
            continue
        seen.add(key)
        if not d.is_dir():
            raise CardDataError(f"{_show_path(d)}: card directory does not exist")
        out += sorted(d.glob("*.toml"))
    return out


def plugin_card_dirs(pm: pluggy.PluginManager | None = None) -> list[Path]:
    """Card directories of the base game and every plugin, base game first."""
    if pm is None:
        from deathangel.plugins import plugin_manager

        pm = plugin_manager()
    # pluggy calls the most recently registered plugin first; registration order is wanted.
    results: list[Sequence[Path]] = list(reversed(pm.hook.deathangel_card_dirs()))
    return [Path(d) for group in results for d in group]


def plugin_catalogue(pm: pluggy.PluginManager | None = None) -> EffectCatalogue:
    """The effect catalogue of the base game and every plugin."""
    if pm is None:
        from deathangel.plugins import plugin_manager

        pm = plugin_manager()
    results: list[Sequence[EffectSpec]] = list(reversed(pm.hook.deathangel_effects()))
    try:
        return EffectCatalogue(spec for group in results for spec in group)
    except ValueError as exc:
        raise PluginError(str(exc)) from exc


def load_database(
    dirs: Sequence[Path] | None = None, *, catalogue: EffectCatalogue | None = None
) -> CardDatabase:
    """Load and check every card file of ``dirs`` (default: the base game and all plugins)
    against ``catalogue`` (default: the base effects plus all plugins').

    :raises CardDataError: on the first problem, naming file, card and field.
    """
    if dirs is None or catalogue is None:
        from deathangel.plugins import plugin_manager

        pm = plugin_manager()
        if dirs is None:
            dirs = plugin_card_dirs(pm)
        if catalogue is None:
            catalogue = plugin_catalogue(pm)
    return build_database([read_file(p) for p in card_files(dirs)], catalogue=catalogue)


@functools.lru_cache(maxsize=1)
def load_base() -> CardDatabase:
    """The base game alone, loaded once per process.

    Games are created thousands of times in a simulation run; re-reading the TOML each time
    would dominate. Installed plugins are deliberately ignored, so base-game results do not
    depend on what happens to be installed. The database is immutable, so sharing it is safe.
    """
    from deathangel.base_plugin import base_card_dir

    return load_database([base_card_dir()], catalogue=EffectCatalogue(BASE_EFFECTS))


# -- writing back --------------------------------------------------------------------------------


def _as_card_file(cards: CardFile | CardDatabase) -> CardFile:
    if isinstance(cards, CardFile):
        return cards
    return CardFile(
        path=Path(),
        teams=cards.teams,
        brood_lords=cards.brood_lords,
        terrain=cards.terrain,
        setup_locations=cards.setup_locations,
        locations=cards.locations,
        events=cards.events,
        genestealers=cards.genestealers if cards.genestealers.icons else None,
        support_tokens=cards.support_tokens,
    )


def to_toml_data(cards: CardFile | CardDatabase) -> dict[str, Any]:
    """The TOML document (as plain data) that :func:`read_file` turns back into ``cards``."""
    cf = _as_card_file(cards)
    conv = _converter()
    doc: dict[str, Any] = {}
    if cf.support_tokens is not None:
        doc[SUPPORT_TOKENS_KEY] = cf.support_tokens
    if cf.genestealers is not None:
        doc[GENESTEALERS_KEY] = conv.unstructure(cf.genestealers, GenestealerDeck)
    for section in SECTIONS:
        items = getattr(cf, section.attr)
        if items:
            doc[section.key] = [conv.unstructure(c, section.cls) for c in items]
    return doc


def dumps(cards: CardFile | CardDatabase, *, header: str = "") -> str:
    """TOML text for one file's cards or a whole database; ``header`` becomes a leading
    comment. Needs the ``tomli-w`` package (a dev extra: writing cards is a tool, not
    something a game needs)."""
    import tomli_w

    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    prefix = "\n".join(lines) + "\n\n" if lines else ""
    return prefix + tomli_w.dumps(to_toml_data(cards))


def dump_file(path: Path, cards: CardFile | CardDatabase, *, header: str = "") -> None:
    """Write :func:`dumps` to ``path`` (UTF-8), so that ``read_file(path)`` gives the cards back."""
    Path(path).write_text(dumps(cards, header=header), encoding="utf-8")
