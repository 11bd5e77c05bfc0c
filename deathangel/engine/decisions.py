"""Decisions and options: the one protocol between the engine and whoever plays.

The engine runs until it needs a choice, then exposes a :class:`Decision` (who decides, what
kind, the legal options). A player — a person at a prompt, a bot, a scripted list, a replay —
answers with one :class:`Option`. Options are small immutable values: ``str`` reads well in a
menu, ``repr`` rebuilds the value, and :meth:`Option.code` is the JSON form saves store.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, TypeVar, overload

from attrs import frozen

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
}


@frozen(repr=False)
class Option:
    """One legal answer to a decision: a verb and its arguments (names, rows, sides)."""

    verb: str
    """What to do: ``card``, ``marine``, ``swap``, ``flip``, ``activate``, ``attack``,
    ``reroll``, ``keep``, ``slay``, ``terrain``, ``pile``, ``done``."""
    args: tuple[str | int, ...] = ()
    """Arguments: names are card or marine names; rows are 1-based positions."""

    def code(self) -> list[str | int]:
        """The JSON form: ``[verb, *args]``."""
        return [self.verb, *self.args]

    @classmethod
    def from_code(cls, code: Sequence[Any]) -> Option:
        """Rebuild an option from :meth:`code`; ``ValueError`` quoting a malformed one."""
        if (
            not isinstance(code, list | tuple)
            or not code
            or not isinstance(code[0], str)
            or not all(isinstance(a, str | int) and not isinstance(a, bool) for a in code[1:])
        ):
            raise ValueError(f"not an option code: {code!r}")
        return cls(code[0], tuple(code[1:]))

    def __repr__(self) -> str:
        if not self.args:
            return f"Option({self.verb!r})"
        return f"Option({self.verb!r}, {self.args!r})"

    def __str__(self) -> str:
        try:
            return self._describe()
        except IndexError:  # a verb with fewer arguments than usual: say it plainly
            return " ".join([self.verb, *map(str, self.args)])

    def _describe(self) -> str:
        a = self.args
        match self.verb:
            case "card":
                return f"play {a[0]}"
            case "marine":
                return f"{a[0]}"
            case "swap":
                return f"swap {a[0]} with {a[1]}"
            case "flip":
                return f"flip {a[0]}"
            case "activate":
                return f"{a[0]} activates the {a[1]}"
            case "attack":
                return f"{a[0]} attacks the {a[1]} swarm at position {a[2]}"
            case "reroll":
                return "spend a support token and reroll"
            case "keep":
                return "keep this roll"
            case "slay":
                return f"slay {a[0]}"
            case "terrain":
                return f"the {a[0]} at position {a[1]} ({a[2]}) draws next"
            case "pile":
                return f"the {a[0]} blip pile"
            case "target":
                return f"the {a[1]} swarm at position {a[0]}"
            case "team":
                return f"the {a[0]} combat team"
            case "place":
                return f"position {a[0]}, {a[1]} side"
            case "count":
                return f"{a[0]}"
            case "slay_at":
                return f"slay {a[2]} ({a[1]} of position {a[0]})"
            case "take":
                return f"take {a[2]} ({a[1]} of position {a[0]})"
            case "charge":
                return f"{a[0]} makes a Heroic Charge instead of attacking"
            case "top":
                return "leave it on top"
            case "bottom":
                return "put it at the bottom"
            case "yes":
                return "yes" if not a else f"yes: {a[0]}"
            case "no":
                return "no" if not a else f"no: {a[0]}"
            case "done":
                return "done"
        return " ".join([self.verb, *map(str, a)])


DONE = Option("done")
REROLL_OPTION = Option("reroll")
KEEP_OPTION = Option("keep")


@frozen
class Decision:
    """A pending choice: the seat that decides, the kind of question and the legal options."""

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
