"""How fast the engine plays: random-bot games per second and state clones per second.

Everything runs in this one process, on one core, with fixed seeds, so two runs on the same
machine do the same work. Each measurement either plays a fixed number of games (``games``)
or runs for a time budget (``seconds``), whichever the caller gives (both: whichever ends
first). Games are played exactly as :func:`deathangel.analysis.simulate.simulate` plays
them, through
:func:`~deathangel.analysis.simulate.play_game`, so the figures are those of a simulation run.

Clones are measured while random bots play games of 1–6 players in turn: at the first
decision of each round (the round-start case, where :meth:`Game.clone` replays nothing) and at
every other decision (mid-round, where it replays the round's decisions so far). Each clone
is checked, outside the timing, to stand at the same decision as its original.

:func:`profile_solo` runs solo games under :mod:`cProfile` to show what limits the speed.
"""

from __future__ import annotations

import cProfile
import math
import os
import platform
import pstats
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attrs import field, frozen

from deathangel.analysis.simulate import bots, play_game, spec_bots
from deathangel.engine.forward import determinize
from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.engine.state import PLAYER_COUNTS
from deathangel.learning.bench import env_figures
from deathangel.plugins.strategies import (
    StrategyFactory,
    parse_spec,
    strategies,
    strategy_factory,
)

BENCH_BOT_KEY = "00" * 16
"""The bot key of every benchmark game: a fixed one, so a benchmark plays the same games each
run (its bots are the project's own, with nothing to hide from)."""

TARGET_SOLO_GAMES_PER_S = 200.0
"""The goal: at least this many solo random-bot games per second on one core."""

DEFAULT_SECONDS = 1.5
"""Time budget of each measurement when neither ``games`` nor ``seconds`` is given: six
player counts plus the clone run (twice the budget) make about 12 s."""

TARGET_DETERMINIZATIONS_PER_S = 10_000.0
"""The goal for the forward model: determinizations per second on one core (issue 10)."""


@frozen
class GamesRate:
    """Random-bot games of one player count."""

    players: int
    games: int
    ended: int
    """Games that reached an outcome (victory or defeat); should equal ``games``."""
    wins: int
    seconds: float

    @property
    def per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


@frozen
class CloneRate:
    """Clones timed in one situation."""

    clones: int
    seconds: float
    """Time spent inside :meth:`Game.clone` only."""

    @property
    def per_s(self) -> float:
        return self.clones / self.seconds if self.seconds > 0 else 0.0


@frozen
class DeterminizeRate:
    """Determinizations timed over observations taken from random-bot games of 1–6 players."""

    determinizations: int
    seconds: float
    positions: int
    """Distinct observations in the pool the timing cycles through."""
    mismatches: int
    """Determinized games whose view for the seat differed from the observation (checked on
    every position once, outside the timing): a forward-model bug."""

    @property
    def per_s(self) -> float:
        return self.determinizations / self.seconds if self.seconds > 0 else 0.0

    @property
    def target_met(self) -> bool:
        return self.per_s >= TARGET_DETERMINIZATIONS_PER_S


@frozen
class BenchReport:
    """Everything one bench run measured."""

    games: tuple[GamesRate, ...]
    round_start: CloneRate
    mid_round: CloneRate
    determinize: DeterminizeRate
    clone_games: int
    clone_mismatches: int
    """Clones that did not stand at the same decision as their original (an engine bug)."""
    games_limit: int | None
    seconds_budget: float | None
    env: dict[str, Any] = field(factory=dict)
    """The learning environment's figures (:func:`deathangel.learning.bench.env_figures`)."""

    @property
    def solo(self) -> GamesRate:
        return next(g for g in self.games if g.players == 1)

    @property
    def target_met(self) -> bool:
        return self.solo.per_s >= TARGET_SOLO_GAMES_PER_S

    @property
    def all_ended(self) -> bool:
        return all(g.ended == g.games for g in self.games)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, flat; figures are rounded to 0.1."""
        out: dict[str, Any] = {}
        for g in self.games:
            out[f"games_per_s_{g.players}p"] = round(g.per_s, 1)
            out[f"games_{g.players}p"] = g.games
            out[f"games_ended_{g.players}p"] = g.ended
        out.update(
            games=sum(g.games for g in self.games),
            games_ended=sum(g.ended for g in self.games),
            clones_per_s=round(self.round_start.per_s, 1),
            clones_mid_round_per_s=round(self.mid_round.per_s, 1),
            clones_round_start=self.round_start.clones,
            clones_mid_round=self.mid_round.clones,
            clone_games=self.clone_games,
            clone_mismatches=self.clone_mismatches,
            determinizations_per_s=round(self.determinize.per_s, 1),
            determinizations=self.determinize.determinizations,
            determinize_positions=self.determinize.positions,
            determinize_mismatches=self.determinize.mismatches,
            target_determinizations_per_s=TARGET_DETERMINIZATIONS_PER_S,
            target_determinizations_met=self.determinize.target_met,
            target_solo_games_per_s=TARGET_SOLO_GAMES_PER_S,
            target_met=self.target_met,
            games_limit=self.games_limit,
            seconds_budget=self.seconds_budget,
        )
        out.update(self.env)
        out.update(machine_info())
        return out


def machine_info() -> dict[str, Any]:
    """What the figures depend on: the Python and the machine."""
    return {
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
    }


class _Budget:
    """Stops after ``games`` games or ``seconds`` seconds, whichever comes first (at least
    one game always runs)."""

    def __init__(self, games: int | None, seconds: float | None) -> None:
        if games is None and seconds is None:
            seconds = DEFAULT_SECONDS
        if games is not None and games < 1:
            raise ValueError(f"games must be at least 1, not {games}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive, not {seconds}")
        self.games = games
        self.seconds = seconds
        self.start = time.perf_counter()

    def more(self, done: int) -> bool:
        if done == 0:
            return True
        if self.games is not None and done >= self.games:
            return False
        return self.seconds is None or time.perf_counter() - self.start < self.seconds


def _random_factory() -> StrategyFactory:
    return strategy_factory("random")


def bench_games(
    players: int,
    *,
    games: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    factory: StrategyFactory | None = None,
) -> GamesRate:
    """Play random-bot games of ``players`` seats with seeds ``seed, seed + 1, ...``."""
    if factory is None:
        factory = _random_factory()
    db = default_database()
    # Warm up outside the timing: card tables, first-call costs.
    play_game(GameConfig(players, seed=seed), bots(factory, players, seed, BENCH_BOT_KEY), db=db)
    budget = _Budget(games, seconds)
    n = ended = wins = 0
    start = time.perf_counter()
    while budget.more(n):
        game_seed = seed + n
        result = play_game(
            GameConfig(players, seed=game_seed),
            bots(factory, players, game_seed, BENCH_BOT_KEY),
            db=db,
        )
        n += 1
        ended += result.outcome in ("victory", "defeat")
        wins += result.outcome == "victory"
    return GamesRate(players, n, ended, wins, time.perf_counter() - start)


def bench_clones(
    *,
    games: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    factory: StrategyFactory | None = None,
) -> tuple[CloneRate, CloneRate, int, int]:
    """Time :meth:`Game.clone` at round starts and mid-round while random bots play games of
    1–6 players in turn.

    :return: (round-start rate, mid-round rate, games played, clones that did not stand at
        the same decision as their original).
    """
    if factory is None:
        factory = _random_factory()
    db = default_database()
    clock = time.perf_counter
    budget = _Budget(games, seconds)
    start_t = mid_t = 0.0
    start_n = mid_n = mismatches = n = 0
    while budget.more(n):
        players = PLAYER_COUNTS[n % len(PLAYER_COUNTS)]
        game_seed = seed + n
        game = Game(GameConfig(players, seed=game_seed), db=db)
        players_ = bots(factory, players, game_seed, BENCH_BOT_KEY)
        last_round = -1
        decision = game.decision
        while decision is not None:
            at_start = game.state.round != last_round
            last_round = game.state.round
            t0 = clock()
            copy = game.clone()
            dt = clock() - t0
            if at_start:
                start_n += 1
                start_t += dt
            else:
                mid_n += 1
                mid_t += dt
            if copy.decision != decision or len(copy.history) != len(game.history):
                mismatches += 1
            seat = decision.seat
            game.push(players_[seat - 1].choose(game.observation(seat), decision))
            decision = game.decision
        n += 1
    return (
        CloneRate(start_n, start_t),
        CloneRate(mid_n, mid_t),
        n,
        mismatches,
    )


def bench_determinize(
    *, games: int | None = None, seconds: float | None = None, seed: int = 0
) -> DeterminizeRate:
    """Time :func:`~deathangel.engine.forward.determinize` on observations of the deciding
    seat, every third decision of two random-bot games per player count (fixed seeds): the
    positions a searching bot meets, early and late, with 1–6 players.

    Every position is first checked once, outside the timing: the determinized game must
    show the seat exactly what the observation shows. Then the pool is cycled for the time
    budget (or ``games`` passes over it).
    """
    factory = _random_factory()
    db = default_database()
    pool = []
    for players in PLAYER_COUNTS:
        for k in range(2):
            game_seed = seed + 10 * players + k
            game = Game(GameConfig(players, seed=game_seed), db=db, checkpoints=False)
            players_ = bots(factory, players, game_seed, BENCH_BOT_KEY)
            step = 0
            decision = game.decision
            while decision is not None:
                if step % 3 == 0:
                    pool.append(game.observation(decision.seat))
                game.push(players_[decision.seat - 1].choose(None, decision))
                decision = game.decision
                step += 1
    rng = random.Random(seed)
    mismatches = 0
    for obs in pool:
        assert obs.seat is not None
        if determinize(obs, rng, forward=True).observation(obs.seat).fingerprint() != (
            obs.fingerprint()
        ):
            mismatches += 1
    passes = games
    budget = None if passes is not None else (seconds if seconds is not None else DEFAULT_SECONDS)
    n = 0
    clock = time.perf_counter
    start = clock()
    while True:
        for obs in pool:
            determinize(obs, rng)
        n += len(pool)
        if passes is not None:
            passes -= 1
            if passes <= 0:
                break
        elif budget is not None and clock() - start >= budget:
            break
    return DeterminizeRate(n, clock() - start, len(pool), mismatches)


def run_bench(
    *,
    games: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    on_games: Callable[[GamesRate], None] | None = None,
    on_clones: Callable[[CloneRate, CloneRate, int], None] | None = None,
    on_determinize: Callable[[DeterminizeRate], None] | None = None,
    on_env: Callable[[dict[str, Any]], None] | None = None,
) -> BenchReport:
    """Measure games/s for each player count 1–6, then clones/s (with twice the budget).

    ``on_games`` and ``on_clones`` are called as each measurement finishes (for live output).
    """
    factory = _random_factory()
    rates = []
    for players in PLAYER_COUNTS:
        rate = bench_games(players, games=games, seconds=seconds, seed=seed, factory=factory)
        rates.append(rate)
        if on_games is not None:
            on_games(rate)
    clone_seconds = None if seconds is None else 2 * seconds
    if games is None and seconds is None:
        clone_seconds = 2 * DEFAULT_SECONDS
    start, mid, clone_games, mismatches = bench_clones(
        games=games, seconds=clone_seconds, seed=seed, factory=factory
    )
    if on_clones is not None:
        on_clones(start, mid, mismatches)
    determinized = bench_determinize(games=games, seconds=seconds, seed=seed)
    if on_determinize is not None:
        on_determinize(determinized)
    env = env_figures(episodes=games, seconds=seconds, seed=seed)
    if on_env is not None:
        on_env(env)
    return BenchReport(
        games=tuple(rates),
        round_start=start,
        mid_round=mid,
        determinize=determinized,
        clone_games=clone_games,
        clone_mismatches=mismatches,
        games_limit=games,
        seconds_budget=seconds if games is not None or seconds is not None else DEFAULT_SECONDS,
        env=env,
    )


# -- how long a strategy thinks ----------------------------------------------------------------


@frozen
class DecisionTimes:
    """How long one strategy took to answer each decision it was asked, over whole games."""

    strategy: str
    players: int
    games: int
    seed: int
    times: tuple[float, ...]
    """Seconds per decision, sorted."""
    wins: int

    def quantile(self, q: float) -> float:
        """The ``q`` quantile (nearest rank) of the decision times; 0 with none."""
        if not self.times:
            return 0.0
        rank = max(0, min(len(self.times) - 1, math.ceil(q * len(self.times)) - 1))
        return self.times[rank]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; times in milliseconds, rounded to 0.01."""
        n = len(self.times)
        return {
            "strategy": self.strategy,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "wins": self.wins,
            "decisions": n,
            "median_ms": round(1000 * self.quantile(0.5), 2),
            "p90_ms": round(1000 * self.quantile(0.9), 2),
            "max_ms": round(1000 * self.quantile(1.0), 2),
            "mean_ms": round(1000 * sum(self.times) / n, 2) if n else 0.0,
        }


class _Timed:
    """A player whose every answer is timed; everything else is the player's own."""

    def __init__(self, player: Any, times: list[float]) -> None:
        self._player = player
        self._times = times

    def __getattr__(self, name: str) -> Any:
        return getattr(self._player, name)

    def choose(self, observation: Any, decision: Any) -> Any:
        # Process time, not wall time: other programs sharing the machine's cores do not
        # count, so the figure is the time on one core of its own.
        start = time.process_time()
        option = self._player.choose(observation, decision)
        self._times.append(time.process_time() - start)
        return option


def bench_decisions(
    strategy: str, *, players: int = 1, games: int = 3, seed: int = 0
) -> DecisionTimes:
    """Play ``games`` games with ``strategy`` (a spec) at every seat, as ``simulate`` would
    (game ``i`` has seed ``seed + i``), timing each answer in process time: the player's
    thinking only, not the observation the game builds for it."""
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    spec = parse_spec(strategy)
    found = strategies()
    db = default_database()
    times: list[float] = []
    wins = 0
    for i in range(games):
        game_seed = seed + i
        seats = [
            _Timed(p, times) for p in spec_bots([spec] * players, game_seed, found, BENCH_BOT_KEY)
        ]
        result = play_game(GameConfig(players, seed=game_seed), seats, db=db)
        wins += result.won
    return DecisionTimes(strategy, players, games, seed, tuple(sorted(times)), wins)


# -- what limits speed ---------------------------------------------------------------------------


@frozen
class ProfileRow:
    """One function of a profile."""

    function: str
    """``file:line(name)``, the file relative to the package or the standard library."""
    calls: int
    own_s: float
    """Time in the function itself."""
    cumulative_s: float
    """Time in the function and everything it called."""


def _where(filename: str, line: int, name: str) -> str:
    if filename == "~":  # a built-in; drop the object address that makes runs differ
        return re.sub(r" at 0x[0-9a-f]+", "", name)
    path = Path(filename)
    parts = path.parts
    for anchor in ("deathangel", "site-packages"):
        if anchor in parts:
            i = len(parts) - 1 - parts[::-1].index(anchor)
            rest = parts[i:] if anchor == "deathangel" else parts[i + 1 :]
            return f"{'/'.join(rest)}:{line}({name})"
    return f"{path.name}:{line}({name})"


@frozen
class Profile:
    """A profile of solo random-bot games."""

    games: int
    seconds: float
    total_s: float
    """Profiled time: the sum of every function's own time."""
    by_cumulative: tuple[ProfileRow, ...]
    by_own: tuple[ProfileRow, ...]

    def to_dict(self) -> dict[str, Any]:
        def rows(rs: tuple[ProfileRow, ...]) -> list[dict[str, Any]]:
            return [
                {
                    "function": r.function,
                    "calls": r.calls,
                    "own_s": round(r.own_s, 4),
                    "cumulative_s": round(r.cumulative_s, 4),
                }
                for r in rs
            ]

        return {
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "total_s": round(self.total_s, 4),
            "by_cumulative": rows(self.by_cumulative),
            "by_own": rows(self.by_own),
        }


def profile_solo(
    *, games: int | None = None, seconds: float | None = None, seed: int = 0, top: int = 15
) -> Profile:
    """Play solo random-bot games under :mod:`cProfile`; the ``top`` functions by cumulative
    time and by own time. (Profiling slows Python code about twofold, unevenly: read the
    shares, not the absolute times.)"""
    factory = _random_factory()
    db = default_database()
    play_game(GameConfig(1, seed=seed), bots(factory, 1, seed, BENCH_BOT_KEY), db=db)
    budget = _Budget(games, seconds)
    profiler = cProfile.Profile()
    n = 0
    start = time.perf_counter()
    while budget.more(n):
        game_seed = seed + n
        config = GameConfig(1, seed=game_seed)
        profiler.enable()
        play_game(config, bots(factory, 1, game_seed, BENCH_BOT_KEY), db=db)
        profiler.disable()
        n += 1
    elapsed = time.perf_counter() - start
    stats = pstats.Stats(profiler)
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = stats.stats  # type: ignore[attr-defined]
    rows = [
        ProfileRow(_where(*key), nc, tt, ct)
        for key, (_cc, nc, tt, ct, _callers) in raw.items()
        if key[2] != "<method 'disable' of '_lsprof.Profiler' objects>"
    ]
    by_cum = sorted(rows, key=lambda r: (-r.cumulative_s, r.function))[:top]
    by_own = sorted(rows, key=lambda r: (-r.own_s, r.function))[:top]
    total = sum(r.own_s for r in rows)
    return Profile(n, elapsed, total, tuple(by_cum), tuple(by_own))


def format_profile(profile: Profile, *, own: int = 10) -> list[str]:
    """The profile as text lines: the cumulative table, then the first ``own`` by own time."""
    total = profile.total_s or 1.0
    lines = [
        f"profile of {profile.games} solo random-bot games "
        f"({profile.seconds:.2f} s with profiling on)",
        f"top {len(profile.by_cumulative)} functions by cumulative time:",
        f"  {'calls':>9}  {'own s':>7}  {'cum s':>7}  function",
    ]
    for r in profile.by_cumulative:
        lines.append(f"  {r.calls:>9}  {r.own_s:>7.3f}  {r.cumulative_s:>7.3f}  {r.function}")
    lines.append(f"top {min(own, len(profile.by_own))} functions by own time:")
    for r in profile.by_own[:own]:
        lines.append(
            f"  {r.calls:>9}  {r.own_s:>7.3f}  {100 * r.own_s / total:>5.1f}%  {r.function}"
        )
    return lines


def python_label() -> str:
    """E.g. ``CPython 3.11.7``."""
    return f"{platform.python_implementation()} {platform.python_version()}"
