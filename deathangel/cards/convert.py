"""Between TOML data and card objects: one strict cattrs converter, the field paths of its
errors, the wording of every loader message, and writing cards back as TOML.

cattrs' defaults suit trusted data, not a file a modder typed by hand: they would quietly
coerce ``"2"`` to ``2``, accept any iterable where an array belongs (``location_deck = "1A"``
becoming ``("1", "A")``) and ignore unknown keys. The converter here refuses all three and
reads an effect as an inline table. When structuring fails, cattrs raises a tree of
exceptions; :func:`_problems` flattens it into ``(field path, problem)`` pairs in TOML key
names, which is what lets a message name the card and the field to fix.

The message helpers live here as well because every layer of loading (reading a file, each
card's own checks, the cross-card checks of :mod:`deathangel.cards.check`) words its errors the
same way - ``file: card: field 'x': problem``, in TOML terms rather than Python ones.

Writing back (:func:`to_toml_data`, :func:`dumps`, :func:`dump_file`) uses the same converter,
so one set of key names and hooks serves both directions and a dumped file reads back as the
cards it came from.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, NoReturn, TypeAlias, get_args, get_origin

import attrs
from cattrs import Converter
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from deathangel.cards.files import (
    _RENAMES,
    GENESTEALERS_KEY,
    SECTIONS,
    SUPPORT_TOKENS_KEY,
    CardFile,
)
from deathangel.cards.model import CardDatabase, Effect, GenestealerDeck
from deathangel.errors import CardDataError

PathPart: TypeAlias = str | int
"""One step of a field path: a key, or an array index."""
FieldPath: TypeAlias = tuple[PathPart, ...]
Problem: TypeAlias = tuple[FieldPath, str]
"""A field path (relative to a card) and what is wrong there."""

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
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, Mapping):
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
        enemies=cards.enemies,
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
