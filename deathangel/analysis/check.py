"""``deathangel check``: play many games with a plugin and check the rules' invariants after
every decision, so a plugin's author learns that a card breaks the game before a player does.

Game ``i`` (from 0) of a check has ``players[i mod P]`` seats, every seat played by
``strategies[(i div P) mod S]``, and the seed ``seed + i``; each seat's bot is seeded with
``bot_seed(key, seed + i, seat)`` under the check's bot key. So every player count meets every
strategy, and any one game is played again alone by a check of one game with that player
count, strategy and seed and the same key: :attr:`Fault.command` is that command, the whole
of what it takes to see the fault again.

A fault is anything a game must never do: break an invariant of
:mod:`deathangel.engine.invariants` (checked at the first decision and after each one),
raise (a card's effect, a bot given an option it cannot read), offer an option a bot then
finds illegal, or not end within :data:`~deathangel.analysis.simulate.MAX_DECISIONS`
decisions.
"""

from __future__ import annotations

import shlex
import time
import traceback
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from attrs import frozen

from deathangel.analysis.simulate import MAX_DECISIONS, games_table, spec_bots
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.invariants import InvariantError, Progress, check_invariants
from deathangel.errors import DeathAngelError
from deathangel.players.base import (
    check_table,
    end_game,
    observes,
    start_game,
    uses_forward_model,
)
from deathangel.plugins.strategies import Strategy, parse_spec

if TYPE_CHECKING:
    from deathangel.engine.ruleset import Ruleset

DEFAULT_STRATEGIES = ("random", "rules")
"""The shipped bots fast enough for thousands of games: random tries everything a rule
allows, the rules bot plays the way a player would (the search bot is a hundred times slower
and reaches no position the two miss)."""


@frozen
class Fault:
    """A game that broke the rules, and how to play it again."""

    game: int
    """Its index in the check."""
    players: int
    strategy: str
    seed: int
    decisions: int
    """Decisions made when it was found."""
    problem: str
    """What went wrong, in one line."""
    detail: str
    """The traceback, for an exception (else the problem again)."""
    command: str
    """The command that plays this game alone and finds the fault again."""


@frozen
class CheckResult:
    games: int
    decisions: int
    faults: tuple[Fault, ...]
    seconds: float
    bot_key: str
    interrupted: bool = False
    """Stopped by Ctrl-C (or SIGTERM, where the caller makes it one) before its games were
    all played: what the games played so far found, the game cut off left out."""

    @property
    def ok(self) -> bool:
        return not self.faults


class CheckInterrupted(KeyboardInterrupt):
    """A check stopped by Ctrl-C, with what the games played before it found.

    Still a :class:`KeyboardInterrupt`: a script that calls :func:`check_games` stops as it
    would at Ctrl-C anywhere else; the command catches it to print ``result``."""

    def __init__(self, result: CheckResult) -> None:
        super().__init__()
        self.result = result


def replay_command(
    ruleset: Ruleset | None, players: int, strategy: str, seed: int, key: str
) -> str:
    """The ``deathangel check`` command that plays one game of a check again."""
    words = ["deathangel", "check"]
    if ruleset is not None:
        for name, _ in ruleset.plugins:
            words += ["--with", name]
        for name, value in ruleset.variants:
            words += ["--variant", f"{name}={value}" if value else name]
    words += ["--players", str(players), "--strategy", strategy, "--seed", str(seed)]
    words += ["--games", "1", "--bot-key", key]
    return shlex.join(words)


def check_games(
    ruleset: Ruleset | None,
    found: dict[str, Strategy],
    *,
    games: int,
    players: Sequence[int],
    strategies: Sequence[str] = DEFAULT_STRATEGIES,
    seed: int = 0,
    bot_key: str,
    max_faults: int = 10,
    progress: Callable[[int, int, int], None] | None = None,
) -> CheckResult:
    """Play ``games`` games as the module docstring says, checking every decision.

    ``progress(done, total, faults)`` is called after each game. The check stops early once
    ``max_faults`` faults are found.

    :raises CheckInterrupted: at Ctrl-C (a :class:`KeyboardInterrupt`), with what the games
        played so far found: a designer who stops a long check still learns it.
    :raises DeathAngelError: for no player count, an unknown strategy or a bad count.
    """
    if games < 1:
        raise DeathAngelError(f"--games must be at least 1, not {games}")
    if not players or any(not 1 <= p <= 6 for p in players):
        raise DeathAngelError("player counts must be between 1 and 6")
    if not strategies:
        raise DeathAngelError("name at least one strategy")
    specs = [parse_spec(text) for text in strategies]
    table = games_table(ruleset)
    for spec in specs:
        # An unknown strategy or parameter, or one that cannot play these cards (its
        # check_table hook), before any game.
        check_table(spec.make(0, found=found), table)
    started = time.perf_counter()
    faults: list[Fault] = []
    decisions = 0
    played = 0
    for i in range(games):
        count = players[i % len(players)]
        spec = specs[(i // len(players)) % len(specs)]
        game_seed = seed + i
        try:
            made, fault = _check_one(ruleset, found, count, spec.text, game_seed, bot_key)
        except KeyboardInterrupt as exc:
            seconds = time.perf_counter() - started
            result = CheckResult(played, decisions, tuple(faults), seconds, bot_key, True)
            raise CheckInterrupted(result) from exc
        decisions += made
        played += 1
        if fault is not None:
            faults.append(
                Fault(
                    i,
                    count,
                    spec.text,
                    game_seed,
                    made,
                    fault[0],
                    fault[1],
                    replay_command(ruleset, count, spec.text, game_seed, bot_key),
                )
            )
        if progress is not None:
            progress(played, games, len(faults))
        if len(faults) >= max_faults:
            break
    return CheckResult(played, decisions, tuple(faults), time.perf_counter() - started, bot_key)


def _check_one(
    ruleset: Ruleset | None,
    found: dict[str, Strategy],
    players: int,
    strategy: str,
    seed: int,
    key: str,
) -> tuple[int, tuple[str, str] | None]:
    """Play one game, checking after every decision: the decisions made, and the fault
    (one line, detail) if there was one."""
    made = 0
    game: Game | None = None
    try:
        bots = spec_bots([parse_spec(strategy)] * players, seed, found, key)
        game = Game(
            GameConfig(players, seed),
            ruleset=ruleset,
            checkpoints=False,
            forward=any(uses_forward_model(b) for b in bots),
        )
        looks = [observes(b) for b in bots]
        for seat, bot in enumerate(bots, start=1):
            start_game(bot, (seat,), partial(game.observation, seat))
        progress: Progress = check_invariants(game)
        decision = game.decision
        while decision is not None:
            seat = decision.seat
            option = bots[seat - 1].choose(
                game.observation(seat) if looks[seat - 1] else None, decision
            )
            game.apply(option)  # checked: an illegal option is the fault, not a bot's luck
            made += 1
            progress = check_invariants(game, progress)
            if made >= MAX_DECISIONS:
                return made, (f"the game did not end after {made} decisions", "")
            decision = game.decision
        outcome = game.outcome
        assert outcome is not None
        for seat, bot in enumerate(bots, start=1):
            end_game(bot, outcome, partial(game.observation, seat))
    except InvariantError as exc:
        return made, (f"invariant broken: {exc}", str(exc))
    except Exception as exc:  # any exception in a game is a fault to report, not to raise
        where = ""
        if game is not None and not isinstance(exc, DeathAngelError):
            # The engine's and plugins' own errors say where; a bare exception does not.
            where = f" (round {game.state.round}, phase {game.state.phase})"
        line = " ".join(f"{type(exc).__name__}: {exc}".split())
        return made, (f"{line}{where}", traceback.format_exc())
    return made, None
