"""Turn TOML card files into a :class:`~deathangel.cards.model.CardDatabase`, and back.

Card data is the one input modders write by hand, so every mistake must surface at load time
as one line naming the file, the card and the field; a typo that reaches a game would show up
hundreds of rounds later as a baffling simulation result. Loading therefore runs in three
layers, each catching what the one before cannot:

1. TOML syntax (:mod:`tomllib` gives the line and column);
2. shape and types, through one strict cattrs converter (unknown keys, missing keys, a string
   where a number belongs - cattrs' defaults would quietly coerce ``"2"`` to ``2``, so the
   primitive hooks refuse to) - :mod:`deathangel.cards.convert`;
3. meaning: each card's own numbers and choices as it is read, then, once every file is
   merged, unique names and initiatives, references between cards, effect names and
   parameters against the effect catalogue - :mod:`deathangel.cards.check`.

This module reads one file through those layers (:func:`read_file`), finds the card
directories and effects of the base game and of plugins, and loads them into one database.
What a file may hold is described in :mod:`deathangel.cards.files`. The package
(:mod:`deathangel.cards`) re-exports the names most callers need.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from deathangel.cards.catalogue import BASE_EFFECTS, EffectCatalogue
from deathangel.cards.check import _CARD_CHECKS, _check_deck, build_database
from deathangel.cards.convert import (
    FieldPath,
    Problem,
    _converter,
    _describe,
    _fail,
    _hint,
    _message,
    _one_of,
    _problems,
    _show_path,
)
from deathangel.cards.files import (
    _DECK_SECTION,
    _NESTED_CARDS,
    GENESTEALERS_KEY,
    SECTIONS,
    SUPPORT_TOKENS_KEY,
    TOP_LEVEL_KEYS,
    CardFile,
    _Section,
)
from deathangel.cards.manifest import CardSource, Join
from deathangel.cards.model import CardDatabase, GenestealerDeck
from deathangel.errors import CardDataError

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


def base_card_dir() -> Path:
    """Where the base-game card files are: inside the wheel, or in the source checkout."""
    packaged = Path(__file__).resolve().parent.parent / "_cards" / "base"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.parent / "cards" / "base"


def load_database(
    dirs: Sequence[Path],
    *,
    catalogue: EffectCatalogue | None = None,
    sources: Sequence[CardSource] = (),
    remove: Collection[str] = (),
) -> CardDatabase:
    """Load and check every card file of ``dirs`` against ``catalogue`` (default: the base
    game's effects), then merge each of ``sources`` (plugins' cards, read by
    :func:`read_source`) as its manifest says, and take out the cards named in ``remove``.
    Plugins' cards and effects are gathered by :func:`deathangel.plugins.ruleset.load_ruleset`.

    :raises CardDataError: on the first problem, naming file, card and field.
    """
    if catalogue is None:
        catalogue = EffectCatalogue(BASE_EFFECTS)
    return build_database(
        [read_file(p) for p in card_files(dirs)],
        catalogue=catalogue,
        sources=sources,
        remove=remove,
    )


def read_source(
    name: str, dirs: Sequence[Path], joins: Mapping[str, Join] | None = None
) -> CardSource:
    """Read one plugin's card directories (each file on its own, as :func:`read_file`)."""
    return CardSource(name, tuple(read_file(p) for p in card_files(dirs)), dict(joins or {}))


@functools.lru_cache(maxsize=1)
def load_base() -> CardDatabase:
    """The base game alone, loaded once per process.

    Games are created thousands of times in a simulation run; re-reading the TOML each time
    would dominate. Installed plugins are deliberately ignored, so base-game results do not
    depend on what happens to be installed. The database is immutable, so sharing it is safe.
    """
    return load_database([base_card_dir()], catalogue=EffectCatalogue(BASE_EFFECTS))
