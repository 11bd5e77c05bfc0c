"""How long a strategy thinks: each decision it answers over whole games, timed.

``deathangel bench --strategy SPEC`` plays games as ``simulate`` would (game ``i`` has seed
``seed + i``, the bots seeded under the benchmark's fixed key) and times every ``choose`` in
process time: the player's thinking only, not the observation the game builds for it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from attrs import frozen

from deathangel.analysis.bench import BENCH_BOT_KEY
from deathangel.analysis.simulate import play_game, spec_bots
from deathangel.engine.game import GameConfig, default_database
from deathangel.plugins.strategies import parse_spec, strategies


def nearest_rank(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of values in order by nearest rank (the value at rank ceil(q n) of
    n, a value that occurred: no interpolation between two decisions); 0 with none."""
    if not ordered:
        return 0.0
    rank = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[rank]


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
        return nearest_rank(self.times, q)

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
