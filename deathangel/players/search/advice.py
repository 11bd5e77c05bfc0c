"""Advice for a person: what the search thinks of each option of a decision (``hint``).

The strong search (the ``mcts-strong`` preset's settings) is asked about the decision from
the seat's own observation — the same honest view a bot gets, nothing more — and every
option it tried comes back with its estimate of the marines' chance to win after it and how
sure that estimate is (the standard error over the search's paired deals), with the option
it would pick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import frozen

from deathangel.players.search.mcts import (
    STRONG_HORIZON,
    STRONG_ITERATIONS,
    STRONG_VALUE,
    MctsPlayer,
    policy_named,
    value_named,
)

if TYPE_CHECKING:
    from deathangel.engine.decisions import Decision, Option
    from deathangel.engine.observation import Observation

HINT_ITERATIONS = STRONG_ITERATIONS
"""Rollouts a hint spends by default: the strong preset's (about half a second on one core)."""
HINT_SECONDS = 2.0
"""The most a hint may think: a person waits for it."""


@frozen
class OptionAdvice:
    option: Option
    chance: float
    """The search's estimate of the marines' chance to win after this option."""
    error: float
    """Its standard error (how sure the search is)."""
    rollouts: int


@frozen
class Advice:
    pick: Option
    """What the search would choose (the rules' choice unless clearly beaten)."""
    options: tuple[OptionAdvice, ...]
    """Every option the search tried, best first."""


def advise(
    observation: Observation,
    decision: Decision,
    *,
    seed: int = 0,
    iterations: int = HINT_ITERATIONS,
    seconds: float = HINT_SECONDS,
    horizon: int = STRONG_HORIZON,
    value: str = STRONG_VALUE,
) -> Advice:
    """The search's advice on ``decision``, from ``observation`` only. ``seconds`` caps the
    time (0: none, and then the same observation and seed give the same advice). With the
    learned value model (the default) the estimates are chances to win, fitted on played
    games; with ``value="progress"`` they are the hand-made score of progress."""
    policy = policy_named("default")
    bot = MctsPlayer(
        seed,
        iterations,
        seconds,
        horizon,
        policy=policy,
        rollout=policy,
        value=value_named(value),
    )
    pick = bot.analyse(observation, decision)
    options = sorted(
        (
            OptionAdvice(o, bot.last_values[o], bot.last_errors[o], bot.last_visits[o])
            for o in bot.last_values
        ),
        key=lambda a: -a.chance,
    )
    return Advice(pick, tuple(options))
