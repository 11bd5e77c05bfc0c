"""How good a position looks: the value a search backs up from a rollout it cut short.

A win or loss alone cannot rank options at a search's budget: most games are lost whatever
one decision does (measured: random play wins 0.03% of solo games), so almost every rollout
says 0. This value grades the marines' progress instead — how far through the locations
they are (RULES §10: a blip pile running dry moves them on), how many marines still stand,
how much danger is engaged with them, and the support tokens they hold — turned into a chance
of winning by a logistic model fitted on played games. A win is worth 1, far more than any
position short of it (most are worth a few per cent), and a defeat 0.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from attrs import frozen

from deathangel.engine.defence import kill_chance, swarm_strength

if TYPE_CHECKING:
    from deathangel.engine.state import CardTable, GameState


@frozen
class ValueWeights:
    """The logistic model of :func:`position_value`: the log-odds of a win are
    ``base + progress·p + standing·marines − danger·d + tokens·t``.

    The defaults are a logistic fit of whether solo games of the ``rules`` strategy were won,
    on these features at each round start: 42,992 round starts of 5,000 games (seeds
    30000-34999, 323 won), McFadden's pseudo-R² 0.12 (progress alone: 0.02). Each marine
    standing about doubles the odds; each marine the swarms in place would slay divides them
    by about 2.7.
    """

    base: float = -6.337
    progress: float = 5.033
    """Per unit of :func:`progress`."""
    standing: float = 0.654
    """Per marine standing, counted as in a solo game (six at the start)."""
    danger: float = 0.979
    """Per marine the swarms would slay if they attacked now (:func:`danger`): subtracted."""
    tokens: float = 0.122
    """Per support token on a marine, counted as in a solo game."""


DEFAULT_WEIGHTS = ValueWeights()


def progress(state: GameState, table: CardTable) -> float:
    """How far the marines are, 0–1: travels made plus how empty the current location's
    blip piles are, over the travels to make plus clearing the final location."""
    setup = state.setup_location
    if setup is None:
        return 0.0
    travels_total = len(setup.location_deck)
    travels = travels_total - len(state.location_deck)
    if state.location is None:
        full = (setup.blips_left, setup.blips_right)
    else:
        loc = table.locations[state.location]
        full = (loc.blips_left, loc.blips_right)
    left, right = len(state.blips[0]), len(state.blips[1])
    if state.location_deck:
        # The first pile to run dry moves the marines on (RULES §10).
        done = 1.0 - min(left / max(1, full[0]), right / max(1, full[1]))
    else:
        # The final location is cleared when both piles and the formation are empty (§11).
        engaged = state.genestealers_in_formation()
        done = 1.0 - (left + right + engaged) / max(1, full[0] + full[1] + engaged)
        done = max(done, _other_victory(state, table))
    return (travels + max(0.0, min(1.0, done))) / (travels_total + 1)


LAUNCH_TOKENS = 5
"""Tokens on the Launch Control Room that make a launch roll certain (a face at most the
tokens wins, faces 0-5)."""


def _other_victory(state: GameState, table: CardTable) -> float:
    """How near a final location's own victory is, 0–1: the Brood Lords slain of those the
    Genestealer Lair needs, or the tokens on the Launch Control Room of the five that make
    its roll certain."""
    if state.location is None:
        return 0.0
    loc = table.locations[state.location]
    if loc.victory is not None and loc.victory.name == "brood_lords_slain":
        return len(state.lords_slain) / max(1, len(table.db.brood_lords))
    if loc.effect is not None and loc.effect.name == "launch_control":
        return min(1.0, state.location_tokens / LAUNCH_TOKENS)
    return 0.0


def danger(state: GameState, table: CardTable) -> float:
    """Expected marines slain if every swarm attacked now without rerolls, by the game's own
    verdict (:mod:`deathangel.engine.defence`: Brood Lords, enemy weights and a variant's
    defence margin included); a swarm under a Power Field does not attack (RULES §7)."""
    margin = table.switches.defence_margin
    protected = state.protected
    total = 0.0
    for pos in state.formation:
        for swarm in pos.swarms:
            if swarm and not (protected and any(c in protected for c in swarm)):
                size, lords = swarm_strength(table, swarm)
                total += kill_chance(size, lords, margin)
    return total


def position_value(
    state: GameState, table: CardTable, weights: ValueWeights = DEFAULT_WEIGHTS
) -> float:
    """The chance the marines win from ``state``, as the fitted model estimates it: 1 for a
    won game, 0 for a lost one."""
    if state.outcome == "victory":
        return 1.0
    if state.outcome == "defeat" or not state.formation:
        return 0.0
    standing = len(state.formation)
    solo = 6.0 / max(1, standing + len(state.slain))
    tokens = sum(pos.marine.tokens for pos in state.formation)
    logit = (
        weights.base
        + weights.progress * progress(state, table)
        + weights.standing * solo * standing
        - weights.danger * danger(state, table)
        + weights.tokens * solo * tokens
    )
    return 1.0 / (1.0 + math.exp(-logit))
