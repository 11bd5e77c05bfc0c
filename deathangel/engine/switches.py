"""Rule switches: the points where a rule variant (a house rule) changes the engine.

A variant is declared by a plugin and chosen per game (``--variant defence=easier``); what it
does is set some of these switches (:mod:`deathangel.plugins.variants`). The engine reads them
once, when a game is built, into plain attributes of the card tables, and applies each at one
fixed point of the rules — never a plugin call per die roll. Their defaults are the rules as
printed, so a game with no variant is the base game exactly.
"""

from __future__ import annotations

from typing import Any

import attrs
from attrs import field, frozen


def _whole(low: int, high: int) -> Any:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(
                f"switch {attribute.name!r} takes a whole number {low} to {high}, not {value!r}"
            )

    return check


def _flag(instance: Any, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"switch {attribute.name!r} takes true or false, not {value!r}")


def _name(instance: Any, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"switch {attribute.name!r} takes a card name, not {value!r}")


@frozen
class Switches:
    """Every rule a variant can change, with the printed rule as the default."""

    defence_margin: int = field(default=0, validator=_whole(-5, 5))
    """A swarm's attack slays the marine when the roll's value is at most the swarm's size
    plus this (RULES §7: 0). Easier defence is -1 (a roll equal to the size survives)."""
    start_tokens: int = field(default=0, validator=_whole(0, 99))
    """Support tokens each marine starts with, from the supply (RULES §3, optional handicap);
    added to a game's own ``handicap``."""
    final_location: str | None = field(default=None, validator=_name)
    """The final location, chosen before the game instead of drawn at random (RULES §3
    step 3: the last card of the location deck); ``None`` draws it."""
    choose_teams: bool = field(default=False, validator=_flag)
    """Seats choose their combat teams in turn at setup (RULES §3 step 4: "a chosen or
    random set") instead of being dealt them from the seed."""
    instinct: bool = field(default=True, validator=_flag)
    """Whether Instinct Event cards are decided by the current player alone before the card
    is shown (RULES §8). Off: every Event card is shown first and decided openly."""

    def changed(self) -> dict[str, Any]:
        """The switches set to something other than the printed rules, by name."""
        return {
            a.name: getattr(self, a.name)
            for a in attrs.fields(Switches)
            if getattr(self, a.name) != a.default
        }


SWITCH_NAMES: tuple[str, ...] = tuple(a.name for a in attrs.fields(Switches))
"""The switches a variant may set."""
