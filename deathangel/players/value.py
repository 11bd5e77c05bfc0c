"""How good a position looks: the value a search backs up from a rollout it cut short.

A win or loss alone cannot rank options at a search's budget: most games are lost whatever
one decision does (measured: random play wins 0.03% of solo games), so almost every rollout
says 0. This value grades the marines' progress instead — how far through the locations
they are (RULES §10: a blip pile running dry moves them on), how many marines still stand,
and how much danger is engaged with them — weighted as a fit says they predict how far a
game goes, and keeps a win worth far more than any position short of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import frozen

if TYPE_CHECKING:
    from deathangel.engine.state import CardTable, GameState


@frozen
class ValueWeights:
    """How the parts of :func:`position_value` add up.

    The defaults are a least-squares fit of how far greedy solo games went in the end (their
    final :func:`progress`, 1 for a win) on these features at each round start: 140,133
    round starts of 20,000 games (seeds 5000-24999), R² 0.38 (progress alone: 0.15).
    """

    base: float = 0.18
    progress: float = 0.86
    """Per unit of :func:`progress`."""
    standing: float = 0.07
    """Per marine standing, counted as in a solo game (six at the start)."""
    danger: float = 0.097
    """Per marine the swarms would slay if they attacked now (:func:`danger`): subtracted."""
    win: float = 1.0
    """A won game is worth 1 + this, any other position at most 1: a win counts for far
    more than progress (the value is then scaled back to 0-1)."""


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
    """Expected marines slain if every swarm attacked now without rerolls: a swarm slays
    when the face (0–5) minus its Brood Lords is at most its size (RULES §7)."""
    total = 0.0
    lords = table.deck_size
    for pos in state.formation:
        for swarm in pos.swarms:
            if swarm:
                n = len(swarm) + sum(1 for c in swarm if c >= lords)
                total += min(6, n + 1) / 6
    return total


def position_value(
    state: GameState, table: CardTable, weights: ValueWeights = DEFAULT_WEIGHTS
) -> float:
    """The value of ``state`` for the marines, in [0, 1]: 1 for a win; a lost game is worth
    the progress it made (what the fit predicts, for a game that has ended)."""
    top = 1.0 + weights.win
    if state.outcome == "victory":
        return 1.0
    p = progress(state, table)
    if state.outcome == "defeat" or not state.formation:
        return p / top
    standing = len(state.formation)
    solo = 6.0 * standing / max(1, standing + len(state.slain))
    v = (
        weights.base
        + weights.progress * p
        + weights.standing * solo
        - weights.danger * danger(state, table)
    )
    return max(0.0, min(1.0, v)) / top
