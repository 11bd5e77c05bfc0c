"""A small, fast greedy policy: one look at the formation per decision, no search.

It exists to be a search bot's rollout policy (and a baseline): it answers every kind of
decision from the public table alone — swarm sizes, ranges, facings, support tokens — with a
rule of thumb per kind, in microseconds. It reads a :class:`View` (``seat``, ``state``,
``table``, ``counts``), which an :class:`~deathangel.engine.observation.Observation` is, and
which a search can build over a determinized game's own state without copying it; it reads
only what is face up there (the formation and the pile sizes), never a hidden pile.
"""

from __future__ import annotations

import random
from math import floor
from typing import TYPE_CHECKING, Protocol

import deathangel.engine.decisions as d
from deathangel.engine.formation import targets_in_range
from deathangel.engine.randomness import SKULL_FACES

if TYPE_CHECKING:
    from deathangel.engine.decisions import Decision, Option
    from deathangel.engine.observation import Observation
    from deathangel.engine.state import CardTable, GameState
    from deathangel.players.base import View


class RolloutPolicy(Protocol):
    """A policy a search plays its rollouts with: cheap, and free to use ``rng``."""

    def choose(self, view: View, decision: Decision, rng: random.Random) -> Option: ...


# How much each kind of action card is worth when nothing is engaged, by card: the
# move + activate cards that thin the blip piles bring the next travel closer (RULES §10).
_QUIET_VALUE = {
    "Stealth Tactics": 1.2,
    "Intimidation": 0.2,
    "Forward Scouting": 0.3,
    "Strategize": 0.4,
    "Power Field": 0.4,
}


class GreedyPolicy:
    """Rules of thumb per decision kind; ties broken by ``rng``."""

    def choose(self, view: View, decision: Decision, rng: random.Random) -> Option:
        kind = decision.kind
        options = decision.options
        st = view.state
        if kind == d.CHOOSE_ACTION:
            return _best(options, lambda o: _card_value(st, view.table, str(o.args[0])), rng)
        if kind == d.ATTACK:
            return _best(options, lambda o: _attack_value(st, o), rng)
        if kind == d.REROLL:
            return _reroll(st, decision)
        if kind == d.PLACE_SUPPORT:
            return _best(
                options, lambda o: _support_value(st, str(o.args[0])) if o.args else -9.0, rng
            )
        if kind == d.FACING:
            return _best(options, lambda o: _flip_value(st, o), rng)
        if kind in (d.TARGET_SWARM, d.DOOR_SLAY):
            # Events that bring genestealers in ask where they go: the smallest swarm.
            sign = -1.0 if decision.prompt.startswith("Black Holds") else 1.0
            return _best(options, lambda o: sign * _swarm_value(st, o), rng)
        if kind == d.TARGET_MARINE:
            return _best(options, lambda o: _marine_value(st, decision.prompt, o), rng)
        if kind == d.TARGET_PILE:
            # Discarding from the smaller pile brings travel closer (RULES §10).
            counts = view.counts
            return _best(
                options,
                lambda o: (
                    -99.0
                    if o.verb == "done"
                    else -float(counts.blips_left if o.args[0] == "left" else counts.blips_right)
                ),
                rng,
            )
        if kind == d.ACTIVATE:
            return _best(options, lambda o: 0.0 if o.verb == "done" else 1.0, rng)
        if kind in (d.MOVE, d.CHOOSE):
            return _best(options, lambda o: _move_or_choose_value(o), rng)
        return options[floor(rng.random() * len(options))]


def _best(options: tuple[Option, ...], value: _Value, rng: random.Random) -> Option:
    """The option of highest value, ties broken at random."""
    best: list[Option] = []
    top = -1e9
    for o in options:
        v = value(o)
        if v > top + 1e-9:
            top, best = v, [o]
        elif v > top - 1e-9:
            best.append(o)
    return best[0] if len(best) == 1 else best[floor(rng.random() * len(best))]


class _Value(Protocol):
    def __call__(self, option: Option, /) -> float: ...


def _threat(st: GameState, row: int) -> tuple[int, int]:
    """Genestealers in front of and behind the marine at ``row``."""
    pos = st.formation[row]
    side = pos.marine.facing
    return len(pos.swarms[side]), len(pos.swarms[1 - side])


def _card_value(st: GameState, table: CardTable, card: str) -> float:
    """A guess at what the action card is worth this round for its team."""
    team, action = table.actions[card]
    rows = [i for i, p in enumerate(st.formation) if p.marine.team == team]
    engaged = 0
    targets = 0
    behind = 0
    for row in rows:
        front, back = _threat(st, row)
        engaged += front
        behind += back
        targets += 1 if targets_in_range(st, row) else 0
    quiet = _QUIET_VALUE.get(card, 0.1)
    if action.kind == "attack":
        return 1.0 * targets + 0.1 * engaged
    if action.kind == "support":
        return quiet + 0.35 * (engaged + behind) / max(1, len(rows))
    return quiet + 0.4 * behind


def _attack_value(st: GameState, option: Option) -> float:
    """Attack the biggest swarm, the one at the marine's own row first."""
    if option.verb == "done":
        return 0.0
    if option.verb != "attack":
        return 0.5  # a card's special attack (Heroic Charge): below a normal attack
    name, side, row = option.args
    target = st.formation[int(row) - 1]
    size = len(target.swarms[0 if side == "left" else 1])
    own = target.marine.name == name
    return 1.0 + size + (3.0 if own else 0.0)


def _reroll(st: GameState, decision: Decision) -> Option:
    """Defending: reroll a roll that kills him. Attacking: reroll a miss while he has
    tokens to spare for his defence."""
    question = d.read_reroll_prompt(decision.prompt)
    reroll, keep = decision.options
    if question is None:
        return keep
    face = question.face
    if question.what == "defence":
        return reroll if face <= question.count else keep
    name = question.marine
    tokens = next((p.marine.tokens for p in st.formation if p.marine.name == name), 0)
    return reroll if face not in SKULL_FACES and tokens >= 2 else keep


def _support_value(st: GameState, name: str) -> float:
    """A token helps most on a marine facing a big swarm (rerolls need facing, §6.4)."""
    for row, pos in enumerate(st.formation):
        if pos.marine.name == name:
            front, back = _threat(st, row)
            return front + 0.3 * back - 0.5 * pos.marine.tokens
    return 0.0


def _flip_value(st: GameState, option: Option) -> float:
    """Turn a marine toward the bigger swarm behind him."""
    if option.verb != "flip":
        return 0.0
    for row, pos in enumerate(st.formation):
        if pos.marine.name == option.args[0]:
            front, back = _threat(st, row)
            return back - front - 0.5
    return -1.0


def _swarm_value(st: GameState, option: Option) -> float:
    """The biggest swarm (a card taken from a swarm: the swarm it is in)."""
    if option.verb not in ("target", "take", "slay_at"):
        return 0.0
    row, side = option.args[0], option.args[1]
    return 1.0 + len(st.formation[int(row) - 1].swarms[0 if side == "left" else 1])


def _marine_value(st: GameState, prompt: str, option: Option) -> float:
    """Tokens come from the marine who has most; a marine who loses his tokens has fewest;
    anything else lands on the marine facing the most."""
    if option.verb != "marine":
        return -1.0
    for row, pos in enumerate(st.formation):
        if pos.marine.name == option.args[0]:
            tokens = pos.marine.tokens
            if prompt.startswith("Stealth Tactics"):
                return float(tokens)
            if prompt.startswith("Stalking"):
                return -float(tokens)
            return float(_threat(st, row)[0])
    return 0.0


def _move_or_choose_value(option: Option) -> float:
    """Keep the formation; take a card's offer."""
    if option.verb in ("done", "no"):
        return 0.5 if option.verb == "done" else 0.0
    return 1.0 if option.verb == "yes" else 0.0


def greedy_choice(observation: Observation, decision: Decision, rng: random.Random) -> Option:
    """The greedy policy's answer from an observation (the same reading as a view)."""
    return GreedyPolicy().choose(observation, decision, rng)
