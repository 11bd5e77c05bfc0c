"""Rule variants: house rules a plugin offers and a game chooses (``--variant NAME[=VALUE]``).

A variant is data plus a small function: :class:`VariantSpec` says what value it takes (none,
a whole number, one of some words, or card names) and turns that value into
:class:`Changes` — rule switches to set (:class:`deathangel.engine.switches.Switches`, read by
the engine at fixed points) and cards to take out of the game. It never runs while a game is
played: the switches are plain values read once, when the ruleset is built.

Chosen variants are recorded as ``(name, value)`` pairs, sorted by name, in the game's
config, so a save or replay is played with the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import attrs
from attrs import field, frozen

from deathangel.engine.switches import SWITCH_NAMES, Switches
from deathangel.errors import DeathAngelError

VariantKind = Literal["flag", "int", "choice", "name", "names"]
"""What value a variant takes: ``flag`` none; ``int`` a whole number; ``choice`` one of its
``choices``; ``name`` one card name; ``names`` card names separated by commas."""


class VariantError(DeathAngelError, ValueError):
    """A variant that does not exist in the game's plugins, or a bad value for one."""


@frozen
class Changes:
    """What a variant does to the game."""

    switches: Mapping[str, Any] = field(factory=dict)
    """Rule switches to set, by name (see :class:`~deathangel.engine.switches.Switches`)."""
    remove: tuple[str, ...] = ()
    """Names of cards to take out of the game (a team by colour; an Event, every copy)."""


@frozen
class VariantSpec:
    """A house rule a plugin offers."""

    name: str
    """What ``--variant`` calls it, e.g. ``"defence"``."""
    summary: str
    """One line for ``deathangel plugins list``."""
    apply: Callable[[Any], Changes]
    """Turns the chosen value (``None`` for a flag, an ``int``, a ``str`` choice, or a tuple
    of card names) into the changes it makes."""
    kind: VariantKind = "flag"
    choices: tuple[str, ...] = ()
    """The words a ``choice`` variant takes."""
    low: int = 0
    """The smallest value an ``int`` variant takes."""
    high: int = 99
    """The largest value an ``int`` variant takes."""

    def usage(self) -> str:
        """How to write it: ``defence=easier|harder``, ``no_instinct``, ``remove=NAME,...``."""
        if self.kind == "flag":
            return self.name
        if self.kind == "int":
            return f"{self.name}={self.low}..{self.high}"
        if self.kind == "choice":
            return f"{self.name}={'|'.join(self.choices)}"
        if self.kind == "name":
            return f"{self.name}=NAME"
        return f"{self.name}=NAME,NAME,..."

    def value(self, text: str | None) -> Any:
        """The value of ``text`` (what followed ``=``, ``None`` if nothing did), checked: ``None``
        for a flag, an ``int``, a ``str`` (a choice or a name) or a tuple of names.

        :raises VariantError: quoting the variant, the text and what it takes.
        """
        where = f"variant {self.name!r}"
        if self.kind == "flag":
            if text not in (None, ""):
                raise VariantError(f"{where} takes no value (write --variant {self.name})")
            return None
        if text is None or text == "":
            raise VariantError(f"{where} needs a value: --variant {self.usage()}")
        if self.kind == "int":
            if not re.fullmatch(r"-?[0-9]+", text.strip()):
                raise VariantError(f"{where} takes a whole number, not {text!r}")
            number = int(text)
            if not self.low <= number <= self.high:
                raise VariantError(f"{where} takes {self.low} to {self.high}, not {number}")
            return number
        if self.kind == "choice":
            if text not in self.choices:
                raise VariantError(f"{where} takes one of {', '.join(self.choices)}, not {text!r}")
            return text
        if self.kind == "name":
            return text.strip()
        names = tuple(n.strip() for n in text.split(",") if n.strip())
        if not names:
            raise VariantError(f"{where} needs card names: --variant {self.usage()}")
        return names


def parse_variant(text: str) -> tuple[str, str]:
    """``"defence=easier"`` -> ``("defence", "easier")``; ``"no_instinct"`` -> ``(.., "")``.

    :raises VariantError: for text that is not ``NAME`` or ``NAME=VALUE``.
    """
    name, _, value = text.partition("=")
    name = name.strip()
    if not re.fullmatch(r"[\w.-]+", name):
        raise VariantError(f"--variant takes NAME or NAME=VALUE, not {text!r}")
    return name, value.strip()


@frozen
class ChosenVariants:
    """Variants resolved against their specs: what the game records and what it changes."""

    choices: tuple[tuple[str, str], ...]
    """``(name, value)`` as recorded, sorted by name."""
    switches: Switches
    remove: tuple[str, ...]


def resolve_variants(
    chosen: Iterable[tuple[str, str]], specs: Mapping[str, tuple[str, VariantSpec]]
) -> ChosenVariants:
    """Check each chosen ``(name, value)`` against the variants the game's plugins offer
    (``specs``: name -> (plugin, spec)) and combine their changes.

    :raises VariantError: for an unknown variant (naming those offered), one chosen twice, a
        bad value, two variants setting one switch differently, or a plugin's variant that
        sets a switch the engine does not have.
    """
    seen: dict[str, str] = {}
    settings: dict[str, tuple[Any, str]] = {}
    remove: list[str] = []
    for name, text in chosen:
        if name in seen:
            raise VariantError(f"variant {name!r} is chosen twice")
        if name not in specs:
            offered = ", ".join(sorted(specs)) or "none (add --with PLUGIN for its variants)"
            raise VariantError(f"unknown variant {name!r}; variants offered: {offered}")
        plugin, spec = specs[name]
        value = spec.value(text or None)
        changes = spec.apply(value)
        if not isinstance(changes, Changes):
            raise VariantError(
                f"plugin {plugin!r}: variant {name!r} returned {type(changes).__name__}, "
                "not Changes"
            )
        for switch, setting in changes.switches.items():
            if switch not in SWITCH_NAMES:
                raise VariantError(
                    f"plugin {plugin!r}: variant {name!r} sets unknown switch {switch!r}; "
                    f"switches: {', '.join(SWITCH_NAMES)}"
                )
            if switch in settings and settings[switch][0] != setting:
                raise VariantError(
                    f"variants {settings[switch][1]!r} and {name!r} both set {switch!r}, "
                    "differently"
                )
            settings[switch] = (setting, name)
        remove += [n for n in changes.remove if n not in remove]
        seen[name] = "" if value is None else text
    try:
        switches = attrs.evolve(Switches(), **{k: v for k, (v, _) in settings.items()})
    except ValueError as exc:
        raise VariantError(str(exc)) from None
    return ChosenVariants(tuple(sorted(seen.items())), switches, tuple(remove))


def variant_specs(
    offered: Sequence[tuple[str, Sequence[VariantSpec]]],
) -> dict[str, tuple[str, VariantSpec]]:
    """Variants by name from each plugin's offer (``(plugin, specs)``).

    :raises VariantError: when two plugins offer one name, or an offer is not a VariantSpec.
    """
    found: dict[str, tuple[str, VariantSpec]] = {}
    for plugin, specs in offered:
        for spec in specs:
            if not isinstance(spec, VariantSpec):
                raise VariantError(
                    f"plugin {plugin!r}: deathangel_variants gave {type(spec).__name__}, "
                    "not a VariantSpec"
                )
            if spec.name in found:
                raise VariantError(
                    f"variant {spec.name!r} is offered by plugins {found[spec.name][0]!r} "
                    f"and {plugin!r}"
                )
            found[spec.name] = (plugin, spec)
    return found
