"""Figures for docs/strategies.md: win rate, locations, time per decision, and wins by team.

Plays exactly the games ``deathangel simulate`` plays (game ``i`` has seed ``seed + i``, each
seat's bot the seed ``bot_seed(key, seed + i, seat)`` under the run's bot key, ``--bot-key`` or a
fresh one it prints), so its win rate matches that command's with the same key, and
adds what the command does not print: the bots' own thinking time per decision, and the win
rate of the games each combat team (or, solo, each triple of teams) took part in.

    python docs/examples/strategy_figures.py --players 1 --games 2000 --seed 1 --strategy rules
    python docs/examples/strategy_figures.py -p 1 -n 2000 -s 1 --strategy rules --by-team
    python docs/examples/strategy_figures.py -p 1 -n 500 -s 1 --rollout default
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import Any

from deathangel.analysis.simulate import play_game, spec_bots, wilson_interval
from deathangel.engine.decisions import Decision, Option
from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.engine.game import card_table as make_table
from deathangel.engine.observation import pile_counts
from deathangel.engine.randomness import Streams
from deathangel.engine.setup import new_state
from deathangel.players.rules.player import RuleSet
from deathangel.players.seeds import check_bot_key, new_bot_key
from deathangel.plugins.strategies import parse_spec, strategies


class Timed:
    """A bot whose ``choose`` is timed (process time: other programs on the machine do not
    count); every other attribute is the bot's own."""

    def __init__(self, bot: Any, clock: list[float], count: list[int]) -> None:
        self._bot = bot
        self._clock = clock
        self._count = count

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bot, name)

    def choose(self, observation: Any, decision: Decision) -> Option:
        start = time.process_time()
        option: Option = self._bot.choose(observation, decision)
        self._clock[0] += time.process_time() - start
        self._count[0] += 1
        return option


def teams_of(players: int, seed: int) -> list[tuple[str, ...]]:
    """The teams each seat plays in the game of ``seed`` (dealt at setup from the seed)."""
    return list(new_state(GameConfig(players, seed=seed), TABLE, Streams(seed)).seats)


TABLE = make_table(default_database())


class RawView:
    """What a search hands a rollout policy: the game's own state, no observation copy."""

    def __init__(self, game: Game, seat: int) -> None:
        self.seat = seat
        self.state = game.state
        self.table = game.table
        self.counts = pile_counts(game.state)


def rollout_timing(players: int, games: int, seed: int, rules: str) -> None:
    """Play games as a search's rollouts would: ``RuleSet.choose`` on the game's own state,
    the game's fast path, nothing recorded; time the rule set alone."""
    ruleset = RuleSet.load(rules)
    rng = random.Random(seed)
    spent = 0.0
    decisions = wins = 0
    for i in range(games):
        game = Game(GameConfig(players, seed=seed + i), checkpoints=False, forward=False)
        while game.decision is not None:
            decision = game.decision
            view = RawView(game, decision.seat)
            start = time.process_time()
            option = ruleset.choose(view, decision, rng)
            spent += time.process_time() - start
            decisions += 1
            game.push(option)
        wins += game.outcome == "victory"
    print(
        f"rule set {rules!r} on raw views, {players} player(s), {games} games: "
        f"{spent / max(1, decisions) * 1e6:.0f} µs per decision, {wins} wins"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-p", "--players", type=int, default=1)
    parser.add_argument("-n", "--games", type=int, default=100)
    parser.add_argument("-s", "--seed", type=int, default=1)
    parser.add_argument("--strategy", default="rules")
    parser.add_argument("--by-team", action="store_true")
    parser.add_argument("--bot-key", default=None, help="the run's bot key (default: fresh)")
    parser.add_argument(
        "--rollout", metavar="RULES", help="time RuleSet.choose on raw views, as in a search"
    )
    args = parser.parse_args()
    if args.rollout:
        rollout_timing(args.players, args.games, args.seed, args.rollout)
        return
    spec = parse_spec(args.strategy)
    found = strategies()
    specs = [spec] * args.players
    bot_key = new_bot_key() if args.bot_key is None else check_bot_key(args.bot_key)
    print(f"bot key {bot_key}")
    clock, count = [0.0], [0]
    wins = locations = 0
    by_team: Counter[str] = Counter()
    won_by_team: Counter[str] = Counter()
    for i in range(args.games):
        seed = args.seed + i
        seat_bots = [Timed(b, clock, count) for b in spec_bots(specs, seed, found, bot_key)]
        result = play_game(GameConfig(args.players, seed=seed), seat_bots)
        wins += result.won
        locations += result.locations_reached
        if args.by_team:
            seats = teams_of(args.players, seed)
            keys = [" + ".join(sorted(seats[0]))] if args.players == 1 else []
            keys += sorted(t for seat in seats for t in seat)
            for key in keys:
                by_team[key] += 1
                won_by_team[key] += result.won
    lo, hi = wilson_interval(wins, args.games)
    print(
        f"strategy {args.strategy!r}, {args.players} player(s), {args.games} games, "
        f"seeds {args.seed}..{args.seed + args.games - 1}"
    )
    print(f"win rate {wins / args.games:.2%} (95% Wilson {lo:.2%} – {hi:.2%}), {wins} wins")
    print(f"mean locations reached {locations / args.games:.2f}")
    print(
        f"bot time per decision {clock[0] / max(1, count[0]) * 1e6:.0f} µs "
        f"({count[0] / args.games:.0f} decisions per game)"
    )
    if args.by_team:
        print("games with | games | wins | win rate (95% Wilson)")
        for key, n in sorted(by_team.items(), key=lambda kv: -won_by_team[kv[0]] / kv[1]):
            w = won_by_team[key]
            a, b = wilson_interval(w, n)
            print(f"{key} | {n} | {w} | {w / n:.1%} ({a:.1%} – {b:.1%})")


if __name__ == "__main__":
    main()
