"""Where a copy of a game replays: decisions since the last restart point, by decision kind.

    python docs/examples/perf/replays.py            # the bench's pool, then rules games
    python docs/examples/perf/replays.py --games 30

A clone or a determinization starts the engine again at the last point where it can restart
from the state (a phase's start, between two action cards, between two swarms' attacks) and
replays the decisions answered since. This counts them at the decisions a copy is taken at:
the observations of ``deathangel bench``'s determinize group (random-bot games of 1-6
players, the same pool the bench times), and every decision of ``rules`` games at 1 and 4
players (the kind a search meets). Each observation's forward data holds exactly the
decisions since its restart point, so the count needs nothing but the public API.

Read with docs/performance.md, "What a copyable engine would buy": which phases would have to
keep their place in the state for most of the replaying to go.
"""

from __future__ import annotations

import argparse
import collections
from collections.abc import Iterable

from deathangel.analysis.bench import observation_pool
from deathangel.analysis.simulate import bots
from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.engine.observation import Observation
from deathangel.plugins.strategies import strategy_factory

KEY = "0d" * 16
FIRST_SEED = 662368
"""Development seeds (docs/strategies.md, "Seed ranges")."""


def table(title: str, seen: Iterable[tuple[str, int]]) -> None:
    """Decisions and replayed decisions by kind, most replayed first."""
    asked: collections.Counter[str] = collections.Counter()
    replayed: collections.Counter[str] = collections.Counter()
    at_point: collections.Counter[str] = collections.Counter()
    for kind, n in seen:
        asked[kind] += 1
        replayed[kind] += n
        at_point[kind] += n == 0
    total = sum(replayed.values())
    decisions = sum(asked.values())
    print(
        f"\n{title}: {decisions} decisions, {total} replayed ({total / decisions:.2f} a copy; "
        f"{sum(at_point.values()) / decisions:.0%} at a restart point, replaying nothing)"
    )
    print("| kind | decisions | replayed a copy | at a restart point | share of the replaying |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind, n in replayed.most_common():
        print(
            f"| `{kind}` | {asked[kind]} | {n / asked[kind]:.2f} | "
            f"{at_point[kind] / asked[kind]:.0%} | {n / max(1, total):.0%} |"
        )


def forward_count(observation: Observation) -> int:
    assert observation.forward is not None
    return len(observation.forward.decisions)


def pool_seen() -> list[tuple[str, int]]:
    seen = []
    for observation in observation_pool():
        assert observation.decision is not None
        seen.append((observation.decision.kind, forward_count(observation)))
    return seen


def rules_seen(players: int, games: int) -> list[tuple[str, int]]:
    factory = strategy_factory("rules")
    db = default_database()
    seen = []
    for seed in range(FIRST_SEED, FIRST_SEED + games):
        game = Game(GameConfig(players, seed=seed), db=db, forward=True)
        seats = bots(factory, players, seed, KEY)
        decision = game.decision
        while decision is not None:
            observation = game.observation(decision.seat)
            seen.append((decision.kind, forward_count(observation)))
            game.push(seats[decision.seat - 1].choose(observation, decision))
            decision = game.decision
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="rules games a player count")
    args = parser.parse_args()
    table("the bench's determinize pool (random bots, 1-6 players)", pool_seen())
    for players in (1, 4):
        table(f"rules games, {players} player(s)", rules_seen(players, args.games))


if __name__ == "__main__":
    main()
