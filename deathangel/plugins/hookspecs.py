"""Every hook a deathangel plugin may implement, grouped by when it is called.

A plugin is a module (or object) with functions named like these specs, marked with
:data:`hookimpl`, and installed under the ``deathangel`` entry-point group. The base game is
itself such a plugin (:mod:`deathangel.plugins.base`), registered exactly like an expansion.
Hooks run once, when a game's tables are built; nothing here is called per die roll.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from deathangel.cards.catalogue import EffectSpec

PROJECT = "deathangel"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# -- loading: cards and their behaviours ------------------------------------------------------


@hookspec
def deathangel_card_dirs() -> Sequence[Path]:
    """Name the directories of TOML card files this plugin contributes.

    Every ``*.toml`` file in each directory is loaded and merged into one card database;
    a name that two files define is an error naming both files.

    :return: directories (absolute paths); an empty sequence for a plugin without cards.
    """
    raise NotImplementedError


@hookspec
def deathangel_effects() -> Sequence[EffectSpec]:
    """Declare effect names (with parameter kinds and timing) that card files may use.

    :return: catalogue entries; a name already declared by another plugin is an error.
    """
    raise NotImplementedError


@hookspec
def deathangel_effect_implementations() -> Mapping[str, Callable[..., Any]]:
    """Give the Python behaviour of effect names this plugin declared (a truly new mechanic).

    The engine calls each at the timing its catalogue entry declares, with these arguments:
    ``event``: ``(engine, params)``; ``on_entering`` / ``control_panel``:
    ``(engine, params, activating_marine_or_None)``; ``terrain``: ``(engine, marine,
    terrain_name)``; ``support_after`` / ``move_activate_after`` / ``end_of_event``:
    ``(engine, team, card, params)``. Each returns a flow: a generator that may ``yield from
    engine.ask(...)`` to ask a decision, or ``no_questions()`` when it asks nothing.
    ``victory``: ``(engine, params) -> bool``.

    :return: a mapping from effect name to implementation; a name already implemented is an
        error naming the plugin.
    """
    raise NotImplementedError


# -- players: strategies a seat can be given ---------------------------------------------------


@hookspec
def deathangel_strategies() -> dict[str, Callable[..., Any]]:
    """Offer strategies by name, e.g. ``{"random": RandomPlayer}``.

    Each value is called as ``factory(seed=int)`` and must return an object with a
    ``choose(observation, decision)`` method returning one of ``decision.options``.

    :return: a mapping from strategy name to factory; names must be unique across plugins.
    """
    raise NotImplementedError
