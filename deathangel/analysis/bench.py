"""How fast the engine plays: every speed figure of the project, measured the same way.

A *figure* is a rate (random-bot games per second, clones per second, search iterations per
second...). Figures come in *groups* measured together (the clones at a round start and
mid-round come from one run over the same games); :data:`GROUPS` lists them, and a new one
(an environment's steps per second) is a :class:`Group` added with :func:`add_group`.

Each group runs ``repeats`` times, each time the same fixed-seed work from its start, for a
budget of work units or of CPU seconds; a figure is the median of its repeats' rates, shown
with their spread (lowest and highest). Time is the process's CPU time
(:func:`time.process_time`), not the wall clock: a core shared with other programs slows
the wall clock, not the work done, so figures taken on a busy machine stay comparable (the
spread shows what noise is left: caches and memory bandwidth are still shared).

Every measurement checks what it measures, outside its timing: games end, clones stand at
their original's decision, determinized games show the seat what it observed. A problem is
counted and reported, never hidden in a figure.

:func:`compare` puts a run beside a saved one (``--json`` output) and flags every figure
that has become slower than the threshold, so a slowdown shows at a glance.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from attrs import field, frozen

from deathangel.analysis.simulate import bots, play_game
from deathangel.engine.forward import determinize
from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.engine.observation import Observation
from deathangel.engine.state import PLAYER_COUNTS
from deathangel.players.seeds import bot_seed
from deathangel.plugins.strategies import strategy_factory

BENCH_BOT_KEY = "00" * 16
"""The bot key of every benchmark game: a fixed one, so a benchmark plays the same games each
run (its bots are the project's own, with nothing to hide from)."""

DEFAULT_SECONDS = 0.4
"""CPU seconds of each repeat of each group when no work is given."""

DEFAULT_REPEATS = 5
"""Repeats of each group: the median of five is not moved by one slow or lucky repeat."""

SLOWER = 0.10
"""A figure more than this much below the saved run's is flagged by :func:`compare`."""

SEARCH_ITERATIONS = 60
"""Rollouts per searched decision in the search group (the bot's default is 150: fewer
keep a repeat short, and the rate per iteration barely depends on it)."""

GOALS: dict[str, float] = {
    "games_per_s_1p": 3000.0,
    "determinizations_per_s": 50_000.0,
    "clones_per_s_mid_round": 40_000.0,
    "env_steps_per_s_1p": 20_000.0,
}
"""Issue 19's goals on one core (figures measured on the machine the issue was written on),
and issue 18's for the learning environment."""


class Skipped(Exception):
    """A group that cannot run here (an optional extra is missing): the message says why."""


@frozen
class Sample:
    """What one repeat of a group did for one figure."""

    units: int
    """Work done: games, clones, determinizations, iterations..."""
    seconds: float
    """CPU seconds spent on that work alone."""
    problems: int = 0
    """Checks that failed (a game that did not end, a clone unlike its original...)."""

    @property
    def rate(self) -> float:
        return self.units / self.seconds if self.seconds > 0 else 0.0


@frozen
class Budget:
    """How much each repeat does: ``units`` of work, or ``seconds`` of CPU time, whichever
    ends first (at least one unit always runs)."""

    units: int | None = None
    seconds: float | None = None

    def __attrs_post_init__(self) -> None:
        if self.units is not None and self.units < 1:
            raise ValueError(f"the work must be at least 1, not {self.units}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be positive, not {self.seconds}")

    def more(self, done: int, spent: float) -> bool:
        """Whether to do one more unit after ``done`` units in ``spent`` CPU seconds."""
        if done == 0:
            return True
        if self.units is not None and done >= self.units:
            return False
        if self.seconds is not None:
            return spent < self.seconds
        return self.units is not None or spent < DEFAULT_SECONDS


@frozen
class FigureSpec:
    """One figure a group measures."""

    name: str
    """Its key in ``--json`` and in saved runs, e.g. ``games_per_s_1p``."""
    unit: str
    label: str
    """How the text report names it, e.g. ``1 player``."""


@frozen
class Group:
    """Figures measured by one run of work: ``measure(budget)`` returns a sample per figure."""

    name: str
    title: str
    """The text report's heading."""
    figures: tuple[FigureSpec, ...]
    measure: Callable[[Budget], Mapping[str, Sample]] = field(eq=False)


@frozen
class Figure:
    """A figure's repeats: their rates, median and spread."""

    spec: FigureSpec
    group: str
    samples: tuple[Sample, ...]

    @property
    def rates(self) -> tuple[float, ...]:
        return tuple(s.rate for s in self.samples)

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    @property
    def low(self) -> float:
        return min(self.rates)

    @property
    def high(self) -> float:
        return max(self.rates)

    @property
    def problems(self) -> int:
        return sum(s.problems for s in self.samples)

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "unit": self.spec.unit,
            "label": self.spec.label,
            "median": round(self.median, 1),
            "low": round(self.low, 1),
            "high": round(self.high, 1),
            "rates": [round(r, 1) for r in self.rates],
            "units": sum(s.units for s in self.samples),
            "problems": self.problems,
        }


# -- the groups ----------------------------------------------------------------------------------


def _cpu() -> float:
    return time.process_time()


def measure_games(players: int) -> Callable[[Budget], Mapping[str, Sample]]:
    """Random-bot games of ``players`` seats, seeds 0, 1, 2..., played as a tournament plays
    them (no restart points, no forward-model records); a game that does not end is a
    problem."""
    factory = strategy_factory("random")
    db = default_database()

    def measure(budget: Budget) -> Mapping[str, Sample]:
        n = problems = 0
        spent = 0.0
        while budget.more(n, spent):
            config = GameConfig(players, seed=n)
            start = _cpu()
            result = play_game(config, bots(factory, players, n, BENCH_BOT_KEY), db=db)
            spent += _cpu() - start
            problems += result.outcome not in ("victory", "defeat")
            n += 1
        return {f"games_per_s_{players}p": Sample(n, spent, problems)}

    return measure


def measure_clones(budget: Budget) -> Mapping[str, Sample]:
    """:meth:`Game.clone` at every decision of random-bot games of 1–6 players in turn (seeds
    0, 1, 2...; a game made as a library user makes one), apart at the first decision of a
    round and mid-round. A clone not standing at its original's decision is a problem."""
    factory = strategy_factory("random")
    db = default_database()
    start_t = mid_t = 0.0
    start_n = mid_n = problems = n = 0
    while budget.more(n, start_t + mid_t):
        players = PLAYER_COUNTS[n % len(PLAYER_COUNTS)]
        game = Game(GameConfig(players, seed=n), db=db)
        seats = bots(factory, players, n, BENCH_BOT_KEY)
        last_round = -1
        decision = game.decision
        while decision is not None:
            at_start = game.state.round != last_round
            last_round = game.state.round
            t0 = _cpu()
            copy = game.clone()
            dt = _cpu() - t0
            problems += copy.decision != decision or len(copy.history) != len(game.history)
            # Letting it go is part of its cost, timed with it rather than charged to whatever
            # runs when it is freed (the next clone, or a pass of the cycle collector).
            t0 = _cpu()
            del copy
            dt += _cpu() - t0
            if at_start:
                start_n += 1
                start_t += dt
            else:
                mid_n += 1
                mid_t += dt
            game.push(seats[decision.seat - 1].choose(None, decision))
            decision = game.decision
        n += 1
    return {
        "clones_per_s_round_start": Sample(start_n, start_t, problems),
        "clones_per_s_mid_round": Sample(mid_n, mid_t, 0),
    }


def observation_pool(step: int = 3, games: int = 2) -> list[Observation]:
    """Observations of the deciding seat, every ``step``-th decision of ``games`` random-bot
    games per player count (fixed seeds): the positions a searching bot meets, early and
    late, with 1–6 players."""
    factory = strategy_factory("random")
    db = default_database()
    pool = []
    for players in PLAYER_COUNTS:
        for k in range(games):
            seed = 10 * players + k
            game = Game(GameConfig(players, seed=seed), db=db, checkpoints=False)
            seats = bots(factory, players, seed, BENCH_BOT_KEY)
            decision = game.decision
            i = 0
            while decision is not None:
                if i % step == 0:
                    pool.append(game.observation(decision.seat))
                game.push(seats[decision.seat - 1].choose(None, decision))
                decision = game.decision
                i += 1
    return pool


def measure_determinize(budget: Budget) -> Mapping[str, Sample]:
    """:func:`~deathangel.engine.forward.determinize` over :func:`observation_pool`, cycled.
    Each position is first checked once, outside the timing: the determinized game must show
    the seat exactly what it observed (a mismatch is a problem)."""
    pool = observation_pool()
    rng = random.Random(0)
    problems = 0
    for obs in pool:
        assert obs.seat is not None
        view = determinize(obs, rng, forward=True).observation(obs.seat)
        problems += view.fingerprint() != obs.fingerprint()
    n = 0
    spent = 0.0
    while budget.more(n, spent):
        obs = pool[n % len(pool)]
        start = _cpu()
        determinize(obs, rng)
        spent += _cpu() - start
        n += 1
    return {"determinizations_per_s": Sample(n, spent, problems)}


def measure_search(
    counts: Sequence[int] = (1, 2), figure: str = "search_iterations_per_s"
) -> Callable[[Budget], Mapping[str, Sample]]:
    """The ``mcts`` strategy as a seat gets it (``SEARCH_ITERATIONS`` rollouts, its default
    rules policy) choosing at every fifth decision of random-bot games of ``counts`` players,
    in turn: rollouts per CPU second of its thinking. A choice that is not one of the options
    is a problem. Solo and 2-player positions make the figure the issue's goal was set on;
    4–6 player ones, where a seat has one team and a rollout asks twice the rules
    decisions, are a figure of their own."""

    def measure(budget: Budget) -> Mapping[str, Sample]:
        from deathangel.players.search.mcts import mcts

        pool = [o for o in observation_pool(step=5, games=1) if len(o.state.seats) in counts]
        n = problems = iterations = 0
        spent = 0.0
        while budget.more(iterations, spent):
            obs = pool[n % len(pool)]
            decision = obs.decision
            assert decision is not None and obs.seat is not None
            player = mcts(bot_seed(BENCH_BOT_KEY, n, obs.seat), SEARCH_ITERATIONS)
            start = _cpu()
            choice = player.choose(obs, decision)
            spent += _cpu() - start
            problems += choice not in decision.options
            iterations += player.stats.iterations
            n += 1
        return {figure: Sample(iterations, spent, problems)}

    return measure


GROUPS: dict[str, Group] = {}
"""Every group of figures, by name, in the order they run."""


def add_group(group: Group) -> None:
    """Make ``group`` part of every run (a tool that adds its own figures, e.g. an
    environment's steps per second, calls this before :func:`run_bench`)."""
    GROUPS[group.name] = group


def _games_group(players: int) -> Group:
    label = f"{players} player" + ("s" if players > 1 else "")
    return Group(
        f"games_{players}p",
        "random-bot games per CPU second",
        (FigureSpec(f"games_per_s_{players}p", "games/s", label),),
        measure_games(players),
    )


for _players in PLAYER_COUNTS:
    add_group(_games_group(_players))
add_group(
    Group(
        "clones",
        "Game.clone() during random-bot games of 1–6 players",
        (
            FigureSpec("clones_per_s_round_start", "clones/s", "at a round start"),
            FigureSpec("clones_per_s_mid_round", "clones/s", "mid-round"),
        ),
        measure_clones,
    )
)
add_group(
    Group(
        "determinize",
        "determinize(observation), positions of random-bot games of 1–6 players",
        (FigureSpec("determinizations_per_s", "determinizations/s", "determinize"),),
        measure_determinize,
    )
)
add_group(
    Group(
        "search",
        f"mcts search ({SEARCH_ITERATIONS} rollouts a decision), solo and 2-player positions",
        (FigureSpec("search_iterations_per_s", "iterations/s", "rollouts"),),
        measure_search(),
    )
)
add_group(
    Group(
        "search_46p",
        f"mcts search ({SEARCH_ITERATIONS} rollouts a decision), 4- to 6-player positions",
        (FigureSpec("search_iterations_per_s_46p", "iterations/s", "rollouts"),),
        measure_search((4, 5, 6), "search_iterations_per_s_46p"),
    )
)


def measure_env(players: int) -> Callable[[Budget], Mapping[str, Sample]]:
    """The Gymnasium environment's steps with a masked random agent playing every seat
    (:func:`deathangel.learning.bench.bench_env`: whole episodes, seeds from 0; its own
    clock, the wall's); a group skipped without the ``rl`` extra."""

    def measure(budget: Budget) -> Mapping[str, Sample]:
        from deathangel.learning.bench import bench_env
        from deathangel.learning.extra import MissingExtraError

        try:
            rate = bench_env(players, episodes=budget.units, seconds=budget.seconds)
        except MissingExtraError as exc:
            raise Skipped(str(exc)) from None
        return {f"env_steps_per_s_{players}p": Sample(rate.steps, rate.seconds)}

    return measure


for _players in (1, 4):
    add_group(
        Group(
            f"env_{_players}p",
            "Gymnasium environment, a masked random agent playing every seat",
            (
                FigureSpec(
                    f"env_steps_per_s_{_players}p",
                    "steps/s",
                    f"{_players} player" + ("s" if _players > 1 else ""),
                ),
            ),
            measure_env(_players),
        )
    )


# -- a run ---------------------------------------------------------------------------------------


@frozen
class BenchReport:
    """Everything one bench run measured."""

    figures: tuple[Figure, ...]
    repeats: int
    budget: Budget
    skipped: tuple[tuple[str, str], ...] = ()
    """Groups that could not run here, each with why (``(group, reason)``)."""

    def figure(self, name: str) -> Figure:
        return next(f for f in self.figures if f.spec.name == name)

    @property
    def problems(self) -> int:
        return sum(f.problems for f in self.figures)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the figures by name, the settings, the machine (``--json``)."""
        return {
            "figures": {f.spec.name: f.to_dict() for f in self.figures},
            "repeats": self.repeats,
            "work_per_repeat": self.budget.units,
            "seconds_per_repeat": self.budget.seconds,
            "goals": dict(GOALS),
            "skipped": dict(self.skipped),
            "machine": machine_info(),
        }


def run_bench(
    *,
    groups: Iterable[str] | None = None,
    repeats: int = DEFAULT_REPEATS,
    budget: Budget | None = None,
    on_figure: Callable[[Figure], None] | None = None,
    on_skip: Callable[[str, str], None] | None = None,
) -> BenchReport:
    """Run each group (all of :data:`GROUPS` by default) ``repeats`` times with ``budget``
    per repeat (default :data:`DEFAULT_SECONDS` of CPU time); ``on_figure`` is called as
    each figure is done (live output), ``on_skip`` with a group that cannot run here and why.

    :raises ValueError: for an unknown group or fewer than one repeat.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, not {repeats}")
    names = list(GROUPS) if groups is None else list(groups)
    for name in names:
        if name not in GROUPS:
            raise ValueError(f"no figure group {name!r}; groups are {', '.join(GROUPS)}")
    budget = budget if budget is not None else Budget(seconds=DEFAULT_SECONDS)
    figures: list[Figure] = []
    skipped: list[tuple[str, str]] = []
    for name in names:
        group = GROUPS[name]
        try:
            group.measure(Budget(units=1))  # warm-up outside the figures: tables, first calls
        except Skipped as why:
            skipped.append((name, str(why)))
            if on_skip is not None:
                on_skip(name, str(why))
            continue
        runs = [group.measure(budget) for _ in range(repeats)]
        for spec in group.figures:
            figure = Figure(spec, group.name, tuple(r[spec.name] for r in runs))
            figures.append(figure)
            if on_figure is not None:
                on_figure(figure)
    return BenchReport(tuple(figures), repeats, budget, tuple(skipped))


def machine_info() -> dict[str, Any]:
    """What the figures depend on: the Python and the machine."""
    return {
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "compiled": compiled_modules(),
    }


def compiled_modules() -> int:
    """How many of deathangel's modules run compiled (an opt-in build); 0 in pure Python."""
    import sys

    return sum(
        1
        for name, module in list(sys.modules.items())
        if name.startswith("deathangel") and str(getattr(module, "__file__", "")).endswith(".so")
    )


def python_label() -> str:
    """E.g. ``CPython 3.11.7``."""
    return f"{platform.python_implementation()} {platform.python_version()}"


# -- against a saved run -------------------------------------------------------------------------


@frozen
class Change:
    """One figure of this run beside the same figure of a saved run."""

    name: str
    unit: str
    before: float
    now: float
    slower: bool
    """Below the saved median by more than the threshold."""

    @property
    def ratio(self) -> float:
        return self.now / self.before if self.before > 0 else float("inf")


def saved_figures(data: Any) -> dict[str, float]:
    """The median of every figure of a saved run (``bench --json`` output).

    :raises ValueError: for data that is not such a run.
    """
    figures = data.get("figures") if isinstance(data, dict) else None
    if not isinstance(figures, dict) or not figures:
        raise ValueError("not a saved bench run (no 'figures'); save one with bench --json")
    out: dict[str, float] = {}
    for name, entry in figures.items():
        median = entry.get("median") if isinstance(entry, dict) else None
        if not isinstance(median, int | float) or isinstance(median, bool) or median < 0:
            raise ValueError(f"figure {name!r} of the saved run has no median rate")
        out[str(name)] = float(median)
    return out


def compare(
    report: BenchReport, saved: Mapping[str, float], threshold: float = SLOWER
) -> list[Change]:
    """Every figure of ``report`` that ``saved`` has too, with whether it is slower than
    the saved median by more than ``threshold`` (0.10: ten per cent)."""
    changes = []
    for figure in report.figures:
        before = saved.get(figure.spec.name)
        if before is None:
            continue
        now = figure.median
        changes.append(
            Change(figure.spec.name, figure.spec.unit, before, now, now < before * (1 - threshold))
        )
    return changes
