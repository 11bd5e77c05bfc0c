"""A ruleset: everything a game is played with besides its players and seed.

The cards (the base game's, with any expansions' merged in), every card's ability built once,
the rule switches of the variants chosen, and — so that a save can say what it needs — the
expansions (with their versions) and variants that made it. :func:`deathangel.plugins.load_ruleset`
builds one from installed plugins; a :class:`~deathangel.engine.game.Game` given one records
its plugins and variants in its :class:`~deathangel.engine.game.GameConfig`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from attrs import field, frozen

from deathangel.engine.switches import Switches

if TYPE_CHECKING:
    from deathangel.cards.model import CardDatabase
    from deathangel.engine.abilities import Abilities

PluginVersions = tuple[tuple[str, str], ...]
"""``(name, version)`` of each expansion a game is played with, in the order they load."""
VariantChoices = tuple[tuple[str, str], ...]
"""``(variant, value)`` of each rule variant a game is played with, as written."""


@frozen
class Ruleset:
    """Cards, abilities and rule switches, checked together; share one across many games."""

    db: CardDatabase
    """Every card of the base game and the expansions, after the variants' removals."""
    abilities: Abilities[Any]
    """Every card's ability, built once."""
    switches: Switches = field(factory=Switches)
    """The rule switches the chosen variants set."""
    plugins: PluginVersions = ()
    """The expansions besides the base game, with their versions."""
    variants: VariantChoices = ()
    """The rule variants chosen, as ``(name, value)``."""
    plugin_manager: Any = field(default=None, eq=False, repr=False)
    """The plugin manager that built it, if any: where the strategies its plugins offer are
    found (typed loosely: the engine knows nothing of plugins)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Ruleset:
        # Immutable and meant to be shared: a deep copy (Gymnasium copies the keyword
        # arguments of every environment it makes) is the ruleset itself, not a copy of
        # the plugins' modules behind it, which cannot be copied.
        return self

    def describe(self) -> str:
        """``base game`` or ``base game + hive (1.0); variants defence=easier``: for people."""
        text = "base game" + "".join(f" + {n} ({v})" for n, v in self.plugins)
        if self.variants:
            text += "; variants " + ", ".join(f"{n}={v}" if v else n for n, v in self.variants)
        return text
