"""Every hook a deathangel plugin may implement, grouped by when it is called.

A plugin is a module (or object) with functions named like these specs, marked with
:data:`hookimpl`, and installed under the ``deathangel`` entry-point group. Installed plugins
are found without being imported; one is imported and used only in a game that names it
(``--with NAME``). The base game is itself such a plugin (:mod:`deathangel.plugins.base`),
registered exactly like an expansion and always on.

The hooks are versioned as a whole: :data:`API_VERSION` says which set this deathangel
speaks, and every plugin declares in its manifest the version it is written for. A plugin
written for another version is refused by name before any of its hooks is called, rather
than failing later in a way nobody can explain.

Lifecycle, in the order the hooks are called:

1. **declaring** — ``deathangel_manifest`` (required): the API version and how the plugin's
   cards join the decks;
2. **loading** — ``deathangel_card_dirs``, ``deathangel_effects``,
   ``deathangel_effect_implementations``, ``deathangel_variants``: gathered once, when a
   game's ruleset is built, and checked together;
3. **players** — ``deathangel_strategies``: when a seat is given a strategy by name.

Nothing here is called while a game runs: the engine dispatches only the effects of cards in
play, from tables built once, and reads rule switches from plain attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import pluggy

if TYPE_CHECKING:
    from deathangel.cards.catalogue import EffectSpec
    from deathangel.cards.manifest import Manifest
    from deathangel.plugins.variants import VariantSpec

PROJECT = "deathangel"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

API_VERSION: Final = 1
"""The version of this set of hooks. It changes when a hook is removed or its meaning,
arguments or return rule change (adding a hook does not); a plugin's manifest must name it."""


# -- 1. declaring --------------------------------------------------------------------------------


@hookspec
def deathangel_manifest() -> Manifest:
    """Say which hook API the plugin is written for and how its cards join the decks.

    Required of every plugin: the manager calls it first and refuses a plugin whose
    ``api`` is not :data:`API_VERSION`. Build the value in Python
    (:class:`deathangel.cards.manifest.Manifest`) or read it from a TOML file with
    :func:`deathangel.cards.manifest.read_manifest`.

    :return: the plugin's manifest.
    """
    raise NotImplementedError


# -- 2. loading: cards, their behaviours, rule variants ---------------------------------------


@hookspec
def deathangel_card_dirs() -> Sequence[Path]:
    """Name the directories of TOML card files this plugin contributes.

    Every ``*.toml`` file in each directory is read (``deathangel cards validate PATH`` checks
    them alone) and merged into one card database after the base game's and earlier plugins'
    cards, as the manifest's deck joins say. A name that two plugins define is an error
    naming both files.

    :return: directories (absolute paths); an empty sequence for a plugin without cards.
    """
    raise NotImplementedError


@hookspec
def deathangel_effects() -> Sequence[EffectSpec]:
    """Declare effect names (with parameter kinds and timing) that card files may use.

    The timing is checked when the entry is made: it must be one of
    :data:`deathangel.cards.catalogue.TIMINGS`, and an action card may only use a timing of
    its own kind (:data:`deathangel.cards.catalogue.TIMING_KINDS`).

    :return: catalogue entries; a name already declared by another plugin is an error.
    """
    raise NotImplementedError


@hookspec
def deathangel_effect_implementations() -> Mapping[str, Callable[..., Any]]:
    """Give the Python behaviour of effect names this plugin declared (a truly new mechanic).

    The engine calls each at the timing its catalogue entry declares, with the positional
    arguments of :data:`deathangel.engine.effects.dispatch.CALLS` (checked when the ruleset
    is built):

    - ``support_after``, ``move_activate_before``, ``move_activate_after``, ``attack_after``,
      ``end_of_event``: ``(engine, team, card, params)``, a flow;
    - ``move_step``: ``(engine, team, card, params, swapped)``, the swap options the team may
      make now (``None`` keeps the rules' own);
    - ``activation``: ``(engine, team, card, params, marine, terrain)``, a flow run after a
      team marine activates a terrain card;
    - ``attack``: ``(engine, team, card, params, marine, roll)``, how many genestealers the
      attack roll slays (``None`` keeps the rules' count);
    - ``defence``: ``(engine, team, card, params, marine, side, roll, verdict)``, a flow that
      returns the verdict (``"slain"``, ``"miss"`` or ``"counter"``), for every defence roll
      of the round once the card has resolved;
    - ``event``: ``(engine, params)``; ``on_entering`` / ``control_panel``:
      ``(engine, params, activating_marine_or_None)``; ``terrain``: ``(engine, marine,
      terrain_name)``; ``enemy_slain``: ``(engine, card_id, slayer_or_None, params)``: flows;
    - ``victory``: ``(engine, params) -> bool``.

    A flow is a generator that may ``yield from engine.ask(...)`` to ask a decision, or
    ``no_questions()`` when it asks nothing.

    :return: a mapping from effect name to implementation; a name already implemented, or
        not declared, is an error naming the plugin.
    """
    raise NotImplementedError


@hookspec
def deathangel_variants() -> Sequence[VariantSpec]:
    """Offer rule variants: switches a game may turn on (``--variant NAME[=VALUE]``).

    Each :class:`deathangel.plugins.variants.VariantSpec` says what value it takes and what
    it does with it: rule switches to set (:class:`deathangel.engine.switches.Switches`) and
    cards to take out of the game.

    :return: variant specs; names must be unique across the plugins of a game.
    """
    raise NotImplementedError


# -- 3. players: strategies a seat can be given ------------------------------------------------


@hookspec
def deathangel_strategies() -> dict[str, Callable[..., Any]]:
    """Offer strategies by name, e.g. ``{"random": RandomPlayer}``.

    Each value is called as ``factory(seed=int)`` and must return an object with a
    ``choose(observation, decision)`` method returning one of ``decision.options``.

    :return: a mapping from strategy name to factory; names must be unique across plugins.
    """
    raise NotImplementedError
