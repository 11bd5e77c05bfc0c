"""Styles, glyphs and words shared by the board, the option explanations and card panels:
one place decides how a team, a terrain colour or an icon looks in the terminal."""

from __future__ import annotations

import io
import os
import re
import sys
from collections import Counter
from collections.abc import Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, TextIO, cast

from rich.console import Console
from rich.text import Text

from deathangel.engine.lasting import (
    EnterFormation,
    Evasion,
    GunJam,
    LeadUsed,
    SecondWind,
    SpawnLimit,
)

if TYPE_CHECKING:
    from deathangel.engine.state import CardTable


# -- styles and glyphs -------------------------------------------------------------------------

TEAM_STYLES: dict[str, str] = {
    "green": "green",
    "yellow": "yellow",
    "red": "red",
    "blue": "blue",
    "grey": "grey50",
    "purple": "magenta",
}
"""Rich style of each team colour (a plugin's unknown colour falls back to bold)."""

TERRAIN_STYLES: dict[str, str] = {
    "green": "green",
    "yellow": "yellow",
    "orange": "dark_orange",
    "red": "red",
}
"""Rich style of each terrain (spawn) colour."""

ICON_CODES: dict[str, str] = {"claw": "Cl", "tongue": "To", "tail": "Ta", "head": "He"}
"""Short forms of the genestealer icons on the board (an unknown icon shows its first two
letters)."""

ARROW = {"left": "←", "right": "→"}
TOKEN = "●"
ACTIVATABLE = "⚙"
SHIELD = "⛨"
LORD = "★"
RESOLVED = "✓"
NEXT = "▶"

PHASE_NAMES: dict[str, str] = {
    "setup": "Setup",
    "setup_event": "Setup (first Event)",
    "round_start": "Round start",
    "choose_actions": "Choose Actions",
    "resolve_actions": "Resolve Actions",
    "genestealer_attack": "Genestealer Attack",
    "event": "Event",
}

KIND_NAMES: dict[str, str] = {
    "support": "Support",
    "move_activate": "Move + Activate",
    "attack": "Attack",
}

_BASE_ACTION: dict[str, str] = {
    "support": "1 support token from the supply onto any marine",
    "move_activate": "each marine may swap with a neighbour, turn, and activate terrain",
    "attack": "each marine may attack once, in front and within range",
}

_EFFECT_NAMES: dict[str, str] = {
    GunJam.NAME: "Gun Jam",
    Evasion.NAME: "Evasion",
    SecondWind.NAME: "Second Wind",
    EnterFormation.NAME: "Enter Formation",
    LeadUsed.NAME: "Lead by Example used",
    SpawnLimit.NAME: "Core Cogitator",
}
"""The card each lasting effect comes from, by effect name."""

# -- small text helpers ----------------------------------------------------------------------


def _team_style(team: str) -> str:
    return TEAM_STYLES.get(team, "bold")


def _terrain_style(table: CardTable, name: str) -> str:
    card = table.terrain.get(name)
    return TERRAIN_STYLES.get(card.color, "") if card is not None else ""


def _icon_code(icon: str) -> str:
    return ICON_CODES.get(icon, icon[:2].capitalize())


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


WHOLE_TEXT: ContextVar[bool] = ContextVar("whole_text", default=False)
"""Set while explaining options in full (``?``): :func:`_short` then keeps every word."""


def _short(text: str, limit: int = 90) -> str:
    """The first sentence of ``text``, cut at a word boundary to ``limit`` characters (the
    whole text while :data:`WHOLE_TEXT` is set)."""
    text = " ".join(text.split())
    if text.startswith("Activate: "):
        text = text[len("Activate: ") :]
    if WHOLE_TEXT.get():
        return text
    match = re.search(r"(?<=[.!?])\s", text)
    first = text[: match.start()] if match else text
    if len(first) <= limit:
        return first.rstrip(".")
    cut = first[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def _pct(p: float) -> str:
    return f"{round(p * 100)}%"


def _tokens_text(n: int) -> str:
    if n <= 0:
        return ""
    return TOKEN * n if n <= 4 else f"{TOKEN}{n}"


def _swarm_text(
    table: CardTable,
    labels: Sequence[str],
    protected: set[str],
    gap: str = "",
    *,
    compact: bool = False,
) -> Text:
    """``"3: Cl To×2"``: the count, then each icon with its multiplicity; Brood Lords by name
    (``★Lord A``); a Power Field as ``⛨``. ``compact``: ``"3: Cl To2"``, for a narrow board.
    ``gap="right"``: a space between it and the terrain on its left (on the left, the terrain
    cell carries that space: a right-justified cell loses trailing spaces)."""
    if not labels:
        return Text("")
    if gap == "right":
        return Text(" ") + _swarm_text(table, labels, protected, compact=compact)
    text = Text(f"{len(labels)}:", style="bold")
    icons: Counter[str] = Counter()
    enemies: Counter[str] = Counter()
    for label in labels:
        index = table.gs_by_label.get(label)
        if index is not None and table.is_brood_lord(index):
            text.append(f" {LORD}{label.replace('Brood ', '')}", style="bold magenta")
        elif index is not None and table.enemy_of[index] is not None:
            # An expansion's enemy type is told apart by name, not by its icons.
            enemies[label.rsplit("-", 1)[0]] += 1
        elif index is not None:
            for icon in sorted(table.gs_icons[index]):
                icons[icon] += 1
        else:
            text.append(f" {label}")
    order = [i for i in ICON_CODES if i in icons] + sorted(i for i in icons if i not in ICON_CODES)
    times = "" if compact else "×"
    for icon in order:
        n = icons[icon]
        text.append(" " + _icon_code(icon) + (f"{times}{n}" if n > 1 else ""))
    for name, n in enemies.items():
        text.append(f" {name}" + (f"{times}{n}" if n > 1 else ""), style="bold red")
    if any(label in protected for label in labels):
        text.append(f" {SHIELD}", style="bold cyan")
    return text


def _short_name(name: str) -> str:
    """A card name shortened for a narrow board: the first word whole, the others as
    initials (``"Ventilation D."``); the full name is one ``cards NAME`` away."""
    words = name.split()
    if len(words) < 2:
        return name
    return " ".join([words[0], *(w[0] + "." for w in words[1:])])


def _fit(text: str, width: int) -> str:
    """``text`` on one line of ``width``: whole, or cut after a whole word with ``…``."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[: max(1, width - 1)].rsplit(" ", 1)[0].rstrip(",;:.")
    return cut + "…"


# -- the console -------------------------------------------------------------------------------


class _PlainLines(io.TextIOBase):
    """A stream that drops the spaces a layout pads lines with, for output to a file or a
    pipe: a transcript of plain lines, as wide as their words."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(_TRAILING.sub("\n", text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return False


_TRAILING = re.compile(r"[ \t]+\n")

MONOCHROME_TERMS = frozenset({"vt52", "vt100", "vt220", "ansi-mono", "linux-m"})
"""Terminals that show no colour (rich reads only ``NO_COLOR`` and ``TERM=dumb``)."""


def monochrome(term: str) -> bool:
    """Whether the terminal named ``term`` shows no colour."""
    term = term.strip().lower()
    return term in MONOCHROME_TERMS or term.endswith(("-mono", "-m"))


def terminal_console(stream: TextIO | None = None) -> Console:
    """The console of ``play`` and ``replay``: colours where the terminal has them (else
    words, see :func:`deathangel.tui.board.colour_words`); to a file or a pipe, plain lines
    of the width rich finds (a terminal on another stream, ``COLUMNS``, or 80)."""
    out = stream if stream is not None else sys.stdout
    if out.isatty():
        mono = monochrome(os.environ.get("TERM", ""))
        return Console(file=out, highlight=False, emoji=False, no_color=True if mono else None)
    plain = cast(TextIO, _PlainLines(out))  # a text stream, as Console wants
    return Console(file=plain, highlight=False, emoji=False)
