"""The options every game-making command shares: ``--with NAME`` and ``--variant NAME[=V]``.

Installed plugins are off unless named, so the base game alone stays the default and a
command's results never depend on what else is installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from deathangel.engine.ruleset import Ruleset
    from deathangel.scenario.file import Scenario

WithOption = Annotated[
    list[str] | None,
    typer.Option(
        "--with",
        help="Play with the installed plugin NAME (repeatable, in order); "
        "'deathangel plugins list' shows them.",
    ),
]
VariantOption = Annotated[
    list[str] | None,
    typer.Option(
        "--variant",
        help="A rule variant NAME or NAME=VALUE offered by a plugin named with --with "
        "(repeatable), e.g. --with variants --variant defence=easier.",
    ),
]


def ruleset_of(with_: Sequence[str] | None, variants: Sequence[str] | None) -> Ruleset | None:
    """The ruleset the options name, or ``None`` for the base game alone."""
    if not with_ and not variants:
        return None
    from deathangel.plugins.ruleset import load_ruleset

    return load_ruleset(list(with_ or ()), variants=list(variants or ()))


def scenario_ruleset(
    scenario: Scenario, with_: Sequence[str] | None, variants: Sequence[str] | None
) -> Ruleset:
    """The ruleset of a scenario: the plugins and variants its file names, then those of the
    options (each named once)."""
    from deathangel.plugins.ruleset import load_ruleset

    names = list(dict.fromkeys([*scenario.plugins, *(with_ or ())]))
    chosen = list(dict.fromkeys([*scenario.variants, *(variants or ())]))
    return load_ruleset(names, variants=chosen)
