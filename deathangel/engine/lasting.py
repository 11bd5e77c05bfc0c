"""Lasting effects: what stays in force after the card that caused it has done its work.

An Event card may bind the next round (Gun Jam, Second Wind, Evasion, Enter Formation: RULES
§14.13), a Control Panel may limit spawns for this round's Event (Core Cogitator), and Lead by
Example counts its uses in a round. None of these is carried by a card still in play, so the
state keeps them in :attr:`GameState.effects` (this round) and :attr:`GameState.next_effects`.

Each is a small frozen value: a state copy shares them (copying the list is enough), ``==``
compares kind and arguments, and ``repr`` rebuilds the value. Their JSON form, ``[name, *args]``
(``["limit_spawn", "Door", 2]``), is made by :meth:`code` and read by :func:`from_code`, the
one place that turns them to and from data (saves, observations, the board).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from attrs import fields, frozen


@frozen
class GunJam:
    """Gun Jam: the team may not choose its Attack card this round (RULES §14.13)."""

    NAME: ClassVar[str] = "gun_jam"
    team: str

    def code(self) -> list[str | int]:
        return [self.NAME, self.team]


@frozen
class SecondWind:
    """Second Wind: a 0 on this marine's defence roll misses this round (RULES §14.13)."""

    NAME: ClassVar[str] = "second_wind"
    marine: str

    def code(self) -> list[str | int]:
        return [self.NAME, self.marine]


@frozen
class Evasion:
    """Evasion: an Attack card lets only one marine of its team attack this round."""

    NAME: ClassVar[str] = "evasion"

    def code(self) -> list[str | int]:
        return [self.NAME]


@frozen
class EnterFormation:
    """Enter Formation: a support token may be placed before each Move + Activate card."""

    NAME: ClassVar[str] = "enter_formation"

    def code(self) -> list[str | int]:
        return [self.NAME]


@frozen
class LeadUsed:
    """One use of Lead by Example by the team this round (the card allows a number of them)."""

    NAME: ClassVar[str] = "lead_used"
    team: str

    def code(self) -> list[str | int]:
        return [self.NAME, self.team]


@frozen
class SpawnLimit:
    """Core Cogitator: at most ``left`` more genestealers may spawn at the terrain card this
    Event phase."""

    NAME: ClassVar[str] = "limit_spawn"
    terrain: str
    left: int

    def code(self) -> list[str | int]:
        return [self.NAME, self.terrain, self.left]


LastingEffect = GunJam | SecondWind | Evasion | EnterFormation | LeadUsed | SpawnLimit
"""Any effect a state may hold in ``effects`` or ``next_effects``."""

EVASION = Evasion()
ENTER_FORMATION = EnterFormation()
"""The effects without arguments: one value each is enough."""

KINDS: tuple[type[LastingEffect], ...] = (
    GunJam,
    SecondWind,
    Evasion,
    EnterFormation,
    LeadUsed,
    SpawnLimit,
)
_BY_NAME: dict[str, type[LastingEffect]] = {kind.NAME: kind for kind in KINDS}
_INT_FIELDS: dict[str, frozenset[str]] = {
    # Annotations are strings here (``from __future__ import annotations``).
    kind.NAME: frozenset(f.name for f in fields(kind) if f.type in (int, "int"))
    for kind in KINDS
}
"""The fields of each kind that hold numbers, by effect name."""


def from_code(code: Sequence[Any]) -> LastingEffect:
    """Rebuild an effect from its JSON form ``[name, *args]``.

    A number may also be given as a string of digits, as saves written before effects were
    typed hold them (``["limit_spawn", "Door", "2"]``).

    :raises ValueError: quoting a code with an unknown name or arguments of the wrong number
        or type.
    """
    if not isinstance(code, list | tuple) or not code or not isinstance(code[0], str):
        raise ValueError(f"not an effect code: {code!r}")
    kind = _BY_NAME.get(code[0])
    if kind is None:
        raise ValueError(f"unknown effect {code[0]!r} in {code!r}")
    names = [f.name for f in fields(kind)]
    args = list(code[1:])
    if len(args) != len(names):
        raise ValueError(f"effect {code[0]!r} takes {len(names)} argument(s), not {code!r}")
    numbers = _INT_FIELDS[kind.NAME]
    values: list[Any] = []
    for name, arg in zip(names, args, strict=True):
        if name in numbers:
            if isinstance(arg, str) and arg.isdigit():
                arg = int(arg)
            if not isinstance(arg, int) or isinstance(arg, bool):
                raise ValueError(f"effect {code[0]!r}: {name} must be a number, in {code!r}")
        elif not isinstance(arg, str):
            raise ValueError(f"effect {code[0]!r}: {name} must be text, in {code!r}")
        values.append(arg)
    return kind(*values)
