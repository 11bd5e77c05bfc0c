"""Decisions and options: the one protocol between the engine and whoever plays.

The engine runs until it needs a choice, then exposes a :class:`Decision` (who decides, what
kind, the legal options). A player — a person at a prompt, a bot, a scripted list, a replay —
answers with one :class:`Option`. Options are small immutable values: ``str`` reads well in a
menu, ``repr`` rebuilds the value, and :meth:`Option.code` is the JSON form saves store.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Generator, Sequence
from typing import Any, NamedTuple, TypeVar, overload

from attrs import frozen

from deathangel.engine.state import SIDES

# Decision kinds, one per kind of question the rules ask.
CHOOSE_ACTION = "choose_action"
PLACE_SUPPORT = "place_support"
MOVE = "move"
FACING = "facing"
ACTIVATE = "activate"
ATTACK = "attack"
REROLL = "reroll"
SLAY = "slay"
SPAWN_ORDER = "spawn_order"
BLIP_SPLIT = "blip_split"
DOOR_SLAY = "door_slay"
TARGET_MARINE = "target_marine"
TARGET_SWARM = "target_swarm"
TARGET_PILE = "target_pile"
TARGET_TEAM = "target_team"
TARGET_TERRAIN = "target_terrain"
CHOOSE = "choose"
CHOOSE_TEAM = "choose_team"

KIND_HELP: dict[str, str] = {
    CHOOSE_ACTION: "Choose this team's action card for the round (face down).",
    PLACE_SUPPORT: "Put the support token on a marine.",
    MOVE: "Swap a marine of the team with a neighbour, or finish moving.",
    FACING: "Flip a marine of the team to face the other way, or finish.",
    ACTIVATE: "Activate a terrain card in front of a marine of the team, or finish.",
    ATTACK: "Attack a swarm in front of a marine of the team, within range, or finish.",
    REROLL: "Spend one support token on this marine to roll again, or keep the roll.",
    SLAY: "Choose which genestealer is slain.",
    SPAWN_ORDER: "The blip pile runs short: choose which terrain draws next.",
    BLIP_SPLIT: "The Genestealer deck runs short: choose the pile that takes the odd card.",
    DOOR_SLAY: "Spend a Door token to slay a genestealer before travelling, or stop.",
    TARGET_MARINE: "Choose the marine a card's ability applies to.",
    TARGET_SWARM: "Choose the swarm a card's ability applies to.",
    TARGET_PILE: "Choose a blip pile.",
    TARGET_TEAM: "Choose a combat team.",
    TARGET_TERRAIN: "Choose a terrain card, or a place for one.",
    CHOOSE: "Choose how to use an ability (or not to).",
    CHOOSE_TEAM: "Choose a combat team to play this game (teams are chosen, not dealt).",
}


OPTION_ARGS: dict[str, tuple[str, ...]] = {
    "card": ("card",),
    "marine": ("marine",),
    "swap": ("marine", "other"),
    "flip": ("marine",),
    "activate": ("marine", "terrain"),
    "attack": ("marine", "side", "position"),
    "charge": ("marine",),
    "reroll": (),
    "keep": (),
    "slay": ("genestealer",),
    "slay_at": ("position", "side", "genestealer"),
    "take": ("position", "side", "genestealer"),
    "terrain": ("terrain", "position", "side"),
    "pile": ("side",),
    "target": ("position", "side"),
    "place": ("position", "side"),
    "team": ("team",),
    "count": ("count",),
    "top": (),
    "bottom": (),
    "yes": ("meaning",),
    "no": ("meaning",),
    "done": (),
}
"""The arguments of each option verb, in the order :meth:`Option.code` stores them.

Names are card, marine, team and genestealer names (``genestealer`` is a label such as
``claw-3``); ``side`` is ``"left"`` or ``"right"``; ``position`` is a 1-based row; ``count`` a
number. ``meaning`` (``yes``/``no``) says in words what the answer does, and may be left out.
"""

_ARG_INDEX: dict[str, dict[str, int]] = {
    verb: {name: i for i, name in enumerate(names)} for verb, names in OPTION_ARGS.items()
}

_DESCRIPTIONS: dict[str, str] = {
    "card": "play {card}",
    "marine": "{marine}",
    "swap": "swap {marine} with {other}",
    "flip": "flip {marine}",
    "activate": "{marine} activates the {terrain}",
    "attack": "{marine} attacks the {side} swarm at position {position}",
    "charge": "{marine} makes a Heroic Charge instead of attacking",
    "reroll": "spend a support token and reroll",
    "keep": "keep this roll",
    "slay": "slay {genestealer}",
    "slay_at": "slay {genestealer} ({side} of position {position})",
    "take": "take {genestealer} ({side} of position {position})",
    "terrain": "the {terrain} at position {position} ({side}) draws next",
    "pile": "the {side} blip pile",
    "target": "the {side} swarm at position {position}",
    "place": "position {position}, {side} side",
    "team": "the {team} combat team",
    "count": "{count}",
    "top": "leave it on top",
    "bottom": "put it at the bottom",
    "yes": "yes: {meaning}",
    "no": "no: {meaning}",
    "done": "done",
}
"""How :class:`Option` reads in a menu, by verb (the arguments by name)."""


def attack_reason(marine: str, side: int, row: int) -> str:
    """Why an attack roll is made (RULES §6.3): the log's words and its reroll question's."""
    return f"{marine} attacks the {SIDES[side]} swarm at position {row + 1}"


def defence_reason(marine: str, side: int, count: int) -> str:
    """Why a defence roll is made (RULES §7): the log's words and its reroll question's."""
    if count == 1:
        return f"1 genestealer on the {SIDES[side]} attacks {marine}"
    return f"{count} genestealers on the {SIDES[side]} attack {marine}"


def reroll_prompt(reason: str, face: int) -> str:
    """The question a reroll decision asks: why the die was rolled and what it shows."""
    return f"{reason}: rolled {face}"


_ROLL_PROMPT = re.compile(
    r"^(?:(?P<attacker>.+) attacks the (?P<target>left|right) swarm at position \d+"
    r"|(?P<count>\d+) genestealers? on the (?P<side>left|right) attacks? (?P<marine>.+))"
    r": rolled (?P<face>\d+)$"
)


@frozen
class RollQuestion:
    """A reroll decision's question read back: which roll, by or on whom, showing what.
    Bots read this instead of parsing the words themselves, so the wording has one source."""

    what: str
    """``"attack"`` (a marine attacks a swarm) or ``"defence"`` (a swarm attacks him)."""
    marine: str
    side: int
    """The swarm's side, 0 left or 1 right."""
    count: int
    """Genestealer cards in the attacking swarm (0 for an attack)."""
    face: int
    """The face the die shows."""


@functools.lru_cache(maxsize=4096)
def read_reroll_prompt(prompt: str) -> RollQuestion | None:
    """The attack or defence roll a reroll question is about (``None`` for other rolls).

    Kept per prompt (a question is immutable): a search's rollouts ask the same few hundred
    questions tens of thousands of times, and the regular expression measured 2% of a
    search."""
    m = _ROLL_PROMPT.match(prompt)
    if m is None:
        return None
    face = int(m["face"])
    if m["attacker"] is not None:
        return RollQuestion("attack", m["attacker"], SIDES.index(m["target"]), 0, face)
    return RollQuestion("defence", m["marine"], SIDES.index(m["side"]), int(m["count"]), face)


class Option(NamedTuple):
    """One legal answer to a decision: a verb and its arguments (names, rows, sides).

    Read an argument by its name in :data:`OPTION_ARGS`: ``option.text("marine")``,
    ``option.number("count")``, and for the common pair ``option.row()`` (0-based) and
    ``option.side()`` (:data:`~deathangel.engine.state.LEFT` or ``RIGHT``).

    A named tuple, so immutable, and made and compared in C: the engine builds and a game
    checks options at every decision (as an attrs class, its ``__init__`` and ``__eq__``
    were Python calls: 5% of a solo random game).
    """

    verb: str
    """What to do: one of :data:`OPTION_ARGS` (``card``, ``marine``, ``attack``, ``done``...)."""
    args: tuple[str | int, ...] = ()
    """Arguments in the order :data:`OPTION_ARGS` names them."""

    def code(self) -> list[str | int]:
        """The JSON form: ``[verb, *args]``."""
        return [self.verb, *self.args]

    @classmethod
    def from_code(cls, code: Sequence[Any]) -> Option:
        """Rebuild an option from :meth:`code`; ``ValueError`` quoting a malformed one."""
        if isinstance(code, Option):
            return code  # already one (an option is a tuple too, but not a code)
        if (
            not isinstance(code, list | tuple)
            or not code
            or not isinstance(code[0], str)
            or not all(isinstance(a, str | int) and not isinstance(a, bool) for a in code[1:])
        ):
            raise ValueError(f"not an option code: {code!r}")
        return cls(code[0], tuple(code[1:]))

    # Each accessor looks its argument up inline: the engine reads one per decision, and a
    # shared helper call measured ~2% of a solo game under cProfile.

    def text(self, name: str) -> str:
        """The argument called ``name`` as text; ``KeyError`` when the option has none."""
        try:
            return str(self.args[_ARG_INDEX[self.verb][name]])
        except (KeyError, IndexError):
            raise self._missing(name) from None

    def number(self, name: str) -> int:
        """The argument called ``name`` as a number; ``KeyError`` when the option has none."""
        try:
            return int(self.args[_ARG_INDEX[self.verb][name]])
        except (KeyError, IndexError):
            raise self._missing(name) from None

    def row(self) -> int:
        """The 0-based row of the ``position`` argument (positions are 1-based)."""
        try:
            return int(self.args[_ARG_INDEX[self.verb]["position"]]) - 1
        except (KeyError, IndexError):
            raise self._missing("position") from None

    def side(self) -> int:
        """The ``side`` argument as :data:`~deathangel.engine.state.LEFT` or ``RIGHT``."""
        try:
            return SIDES.index(str(self.args[_ARG_INDEX[self.verb]["side"]]))
        except (KeyError, IndexError):
            raise self._missing("side") from None

    def _missing(self, name: str) -> KeyError:
        return KeyError(f"{self!r} has no argument {name!r}")

    def __repr__(self) -> str:
        if not self.args:
            return f"Option({self.verb!r})"
        return f"Option({self.verb!r}, {self.args!r})"

    def __str__(self) -> str:
        names = OPTION_ARGS.get(self.verb)
        template = _DESCRIPTIONS.get(self.verb)
        if names is None or template is None or len(self.args) < len(names):
            # An unknown verb, or fewer arguments than usual (``yes`` alone): say it plainly.
            return " ".join([self.verb, *map(str, self.args)])
        return template.format_map(dict(zip(names, self.args, strict=False)))


DONE = Option("done")
REROLL_OPTION = Option("reroll")
KEEP_OPTION = Option("keep")

_MADE: dict[tuple[str, tuple[str | int, ...]], Option] = {}
_MADE_LIMIT = 50_000
"""More distinct options than a game with any cards can offer: past it the table starts
again rather than grow (options of unbounded arguments should not come here anyway)."""


def option(verb: str, *args: str | int) -> Option:
    """``Option(verb, args)``, made once per process and shared: an option is immutable,
    and the engine offers the same few hundred (each marine, card, swap and target) at every
    decision of every game. Looking one up measured about half the instructions of making it
    (a tuple to build, then a dictionary look-up)."""
    key = (verb, args)
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= _MADE_LIMIT:
            _MADE.clear()
        made = _MADE[key] = Option(verb, args)
    return made


class Decision(NamedTuple):
    """A pending choice: the seat that decides, the kind of question and the legal options.

    A named tuple, like :class:`Option`: one is made at every question the engine asks
    (measured 0.6x the instructions of the attrs class it was).
    """

    seat: int
    """1-based seat of the player who decides."""
    kind: str
    """One of the kind constants of this module."""
    options: tuple[Option, ...]
    """The legal options, never empty."""
    prompt: str = ""
    """Context for a person: what is being decided and why."""

    def __str__(self) -> str:
        return f"seat {self.seat}, {self.kind}: {self.prompt}"


Flow = Generator[Decision, Option, None]
"""A piece of the rules that may ask for decisions: the engine drives it with ``yield from``."""

T = TypeVar("T")


@overload
def no_questions() -> Flow: ...
@overload
def no_questions(result: T) -> Generator[Decision, Option, T]: ...
def no_questions(result: object = None) -> Generator[Decision, Option, object]:
    """A flow that asks nothing and returns ``result``: the one way a rule or ability that
    needs no decision answers where a flow is expected."""
    return result
    yield  # unreachable; its presence makes this function a generator
