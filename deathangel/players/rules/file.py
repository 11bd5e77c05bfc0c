"""Reading a rule file: TOML in, checked entries out, each knowing the line it came from.

The file format is documented in ``docs/strategies.md``. In short::

    format = 1                  # optional: the format version
    extends = "default"         # optional: start from another rule file
    append = ["attack"]         # optional: kinds whose rules add to the extended file's
    fallback = "random"         # optional: "random" or "first" (how ties are broken)

    [let]                       # optional: named expressions every rule may use
    danger = "death + behind_spawn / 4"

    [[place_support]]           # one table per rule, under its decision kind
    why = "the marine most likely to die"
    if = "front > 0"
    score = "token_gain * 100"

``tomllib`` reports syntax errors with a line and column but keeps no positions for the values
it returns, so :class:`Locator` scans the text once for table headers and keys: a semantic error
(an unknown kind, a misspelt name in an expression) can then name its line too, and the column
inside an expression when the expression sits on that line.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from attrs import frozen

from deathangel.engine.decisions import KIND_HELP
from deathangel.errors import RuleFileError

KINDS: tuple[str, ...] = tuple(KIND_HELP)
"""The decision kinds a rule file may hold rules for."""

RULE_KEYS = ("if", "score", "why")
TOP_KEYS = ("format", "extends", "append", "fallback", "let")
FALLBACKS = ("random", "first")
FORMAT = 1

SHIPPED_DIR = Path(__file__).resolve().parent / "rulesets"
"""Rule files that ship with the game; ``extends = "NAME"`` and the strategy parameter
``rules=NAME`` name them without ``.toml``."""


def shipped(name: str) -> Path | None:
    """The shipped rule file called ``name`` (no folder, no suffix), if there is one."""
    if not re.fullmatch(r"[\w-]+", name):
        return None
    path = SHIPPED_DIR / f"{name}.toml"
    return path if path.is_file() else None


def shipped_names() -> list[str]:
    return sorted(p.stem for p in SHIPPED_DIR.glob("*.toml"))


def resolve(value: str | Path, base: Path | None = None) -> Path:
    """The file a rule-file reference names: a shipped name when no such file exists,
    else a path (relative to ``base``, the folder of the file that names it)."""
    path = Path(value)
    if base is not None and not path.is_absolute():
        path = base / path
    if not path.exists():
        found = shipped(str(value))
        if found is not None:
            return found
    return path


# -- where things are in the text --------------------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*=""")


class Locator:
    """Lines of the headers and keys of a TOML text, by table path (see the module
    docstring). Array-of-tables entries are counted from 0 in the order they appear."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.keys: dict[tuple[Any, ...], int] = {}
        counts: dict[str, int] = {}
        table: tuple[Any, ...] = ()
        multiline: str | None = None
        for number, line in enumerate(self.lines, start=1):
            if multiline is not None:
                if line.count(multiline) % 2 == 1:
                    multiline = None
                continue
            header = _HEADER.match(line)
            if header:
                name = header.group(2).strip().strip("\"'")
                if header.group(1) == "[[":
                    index = counts.get(name, 0)
                    counts[name] = index + 1
                    table = (name, index)
                    self.keys.setdefault((name,), number)
                else:
                    table = (name,)
                self.keys.setdefault(table, number)
                continue
            key = _KEY.match(line)
            if key:
                self.keys.setdefault((*table, key.group(1).strip("\"'")), number)
                for delim in ('"""', "'''"):
                    if line.count(delim) % 2 == 1:
                        multiline = delim

    def line(self, *path: Any) -> int | None:
        """The line of the deepest part of ``path`` found (a key, else its table)."""
        path = tuple(path)
        while path:
            if path in self.keys:
                return self.keys[path]
            path = path[:-1]
        return None


@frozen
class Where:
    """Where an entry of a rule file is: the file, the line, and what it is."""

    file: Path
    line: int | None
    what: str
    """``[[attack]] rule 2, 'if'`` or ``[let] danger`` ..."""
    text: str = ""
    """The text of that line (to find a column inside an expression)."""

    def fail(
        self, message: str, source: str | None = None, column: int | None = None
    ) -> RuleFileError:
        """A :class:`RuleFileError` naming this place; ``source`` and ``column`` locate a
        column inside an expression when the expression is written on this line."""
        at = f"{self.file}"
        if self.line is not None:
            at += f":{self.line}"
            if source is not None and column is not None and source:
                start = self.text.find(source)
                if start >= 0:
                    at += f":{start + column + 1}"
        what = f"{self.what}: " if self.what else ""
        return RuleFileError(f"{at}: {what}{message}")


def close_matches(name: str, known: list[str] | tuple[str, ...]) -> str:
    matches = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    return ("; did you mean " + " or ".join(repr(m) for m in matches) + "?") if matches else ""


# -- the file ------------------------------------------------------------------------------------


@frozen
class RawRule:
    """One rule as written: expression sources, not yet compiled."""

    condition: str | None
    score: str
    why: str
    where_if: Where
    where_score: Where


@frozen
class RuleFile:
    """A rule file read and checked for shape, merged with what it extends."""

    path: Path
    fallback: str
    lets: tuple[tuple[str, str, Where], ...]
    """(name, expression, where) in definition order; a later file's value replaces an
    earlier one in place."""
    rules: Mapping[str, tuple[RawRule, ...]]
    """Decision kind → its rules, in file order."""


def read_rule_file(path: Path, _seen: tuple[Path, ...] = ()) -> RuleFile:
    """Read and check the shape of a rule file (expressions are checked when compiled).

    :raises RuleFileError: naming the file, the line and what was expected.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RuleFileError(f"{path}: cannot read the rule file: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RuleFileError(f"{path}: a rule file must be UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        m = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        if m:
            message = message[: m.start()]
            raise RuleFileError(
                f"{path}:{m.group(1)}:{m.group(2)}: not valid TOML: {message}"
            ) from None
        m = re.search(r"\s*\(at end of document\)$", message)
        if m:
            end = len(text.splitlines()) or 1
            message = message[: m.start()] + " before the end of the file"
            raise RuleFileError(f"{path}:{end}: not valid TOML: {message}") from None
        raise RuleFileError(f"{path}: not valid TOML: {message}") from None
    loc = Locator(text)

    def where(what: str, *keys: Any) -> Where:
        line = loc.line(*keys)
        return Where(path, line, what, loc.lines[line - 1] if line else "")

    for key in data:
        if key not in TOP_KEYS and key not in KINDS:
            hint = close_matches(key, [*KINDS, *TOP_KEYS])
            raise where("", key).fail(
                f"unknown key {key!r}{hint or ''}"
                + (
                    ""
                    if hint
                    else f"; a rule file holds {', '.join(TOP_KEYS)} and rules for "
                    f"the decision kinds {', '.join(KINDS)}"
                )
            )
    version = data.get("format", FORMAT)
    if version != FORMAT or isinstance(version, bool):
        raise where("format", "format").fail(f"this is format {FORMAT}; found {version!r}")

    base: RuleFile | None = None
    if "extends" in data:
        ref = data["extends"]
        if not isinstance(ref, str) or not ref:
            raise where("extends", "extends").fail(
                f"expected the name or path of a rule file (a string), not {ref!r}"
            )
        target = resolve(ref, path.parent)
        if not target.is_file():
            names = ", ".join(shipped_names())
            raise where("extends", "extends").fail(
                f"no rule file {ref!r} (looked for {target}); shipped rule sets: {names}"
            )
        chain = (*_seen, path.resolve())
        if target.resolve() in chain:
            raise where("extends", "extends").fail(
                f"{ref!r} leads back here: rule files may not extend each other in a circle"
            )
        base = read_rule_file(target, chain)

    fallback = data.get("fallback", base.fallback if base else "random")
    if fallback not in FALLBACKS:
        raise where("fallback", "fallback").fail(
            f"expected one of {', '.join(repr(f) for f in FALLBACKS)}, not {fallback!r}"
        )

    lets: list[tuple[str, str, Where]] = list(base.lets) if base else []
    raw_lets = data.get("let", {})
    if not isinstance(raw_lets, dict):
        raise where("let", "let").fail('expected a table: write [let] and name = "expression"')
    for name, source in raw_lets.items():
        w = where(f"[let] {name}", "let", name)
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise w.fail("a name is letters, digits and _, not starting with a digit")
        if isinstance(source, int | float) and not isinstance(source, bool):
            source = repr(source)
        if not isinstance(source, str):
            raise w.fail(f"expected an expression (a string) or a number, not {source!r}")
        for i, (old, _, _) in enumerate(lets):
            if old == name:
                lets[i] = (name, source, w)
                break
        else:
            lets.append((name, source, w))

    append = data.get("append", [])
    if not isinstance(append, list) or not all(isinstance(k, str) for k in append):
        raise where("append", "append").fail(
            f"expected a list of decision kinds such as ['choose_action'], not {append!r}"
        )
    for kind in append:
        if kind not in KINDS:
            raise where("append", "append").fail(
                f"unknown decision kind {kind!r}{close_matches(kind, KINDS)}"
            )
    if append and base is None:
        raise where("append", "append").fail(
            "'append' adds to the rules of the file this one extends: give 'extends' too"
        )

    rules: dict[str, tuple[RawRule, ...]] = dict(base.rules) if base else {}
    for kind in KINDS:
        if kind not in data:
            continue
        entries = data[kind]
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise where(kind, kind).fail(
                f"expected a list of rules: write [[{kind}]] above each rule"
            )
        read: list[RawRule] = []
        for i, entry in enumerate(entries):
            label = f"[[{kind}]] rule {i + 1}"
            for key in entry:
                if key not in RULE_KEYS:
                    raise where(label, kind, i, key).fail(
                        f"unknown key {key!r}{close_matches(key, RULE_KEYS)}; a rule holds "
                        "'if' (a condition), 'score' (a number or expression) and 'why'"
                    )
            condition = entry.get("if")
            if condition is not None and not isinstance(condition, str):
                raise where(label + ", 'if'", kind, i, "if").fail(
                    f"expected a condition written as a string, not {condition!r}"
                )
            if "score" not in entry:
                raise where(label, kind, i).fail(
                    "a rule needs a 'score' (the number it adds to the options it matches)"
                )
            score = entry["score"]
            if isinstance(score, int | float) and not isinstance(score, bool):
                score = repr(score)
            if not isinstance(score, str):
                raise where(label + ", 'score'", kind, i, "score").fail(
                    f"expected a number or an expression (a string), not {score!r}"
                )
            why = entry.get("why", "")
            if not isinstance(why, str):
                raise where(label + ", 'why'", kind, i, "why").fail(f"expected a text, not {why!r}")
            read.append(
                RawRule(
                    condition,
                    score,
                    why,
                    where(label + ", 'if'", kind, i, "if"),
                    where(label + ", 'score'", kind, i, "score"),
                )
            )
        # A listed kind's rules replace the extended file's, unless the kind is appended to.
        rules[kind] = (*rules.get(kind, ()), *read) if kind in append else tuple(read)
    return RuleFile(path, str(fallback), tuple(lets), rules)
