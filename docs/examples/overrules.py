"""Where a search would choose otherwise than a strategy, and what it thinks that is worth.

    python docs/examples/overrules.py [--strategy rules] [--search mcts-strong] [--players 1]
        [--games 2] [--seed 641000] [--bot-key HEX] [--kind KIND ...] [--pairs N]

Plays ``--games`` games of ``--strategy`` (any strategy spec or file) from ``--seed`` on; at
every decision with a choice it also asks ``--search`` (a spec of ``mcts`` or ``mcts-strong``)
to analyse the deciding seat's observation — what the seat may know, nothing more, as a hint
does — and keeps: the decision's kind, the strategy's choice, the search's, and the search's
value of each (its estimate of the marines' chance to win, the mean over its rollouts). The
game goes on with the strategy's choice, so the positions are the strategy's own.

Printed per decision kind: decisions, how many the search would overrule, and the value the
search expects an overrule to gain (mean and largest, in points of win chance). A rule
writer reads it as a map: a kind whose overrules gain much is where the rules lose most; one
overruled often for almost nothing is a tie the search breaks on its rollouts' noise. The
search's values are estimates (of rollouts cut short and valued), not the truth: a place to
look, not a verdict.

``--kind`` asks the search only at decisions of that kind (repeat it for more; the games are
the same, the run far shorter), and ``--pairs N`` prints a second table: the N most frequent
overrules as "the strategy's choice -> the search's", with the gain the search expects from
each. That is where a rule writer sees *which* card or target the rules misjudge.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any

from deathangel.engine.decisions import KIND_HELP
from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.players.search.mcts import MctsPlayer
from deathangel.players.seeds import bot_seed
from deathangel.plugins.strategies import parse_spec

KEY = "3b6f0c9e8a7d41f2b5c6d7e8f9a0b1c2"
"""The bot key of the table in docs/strength.md, 'Where a search would overrule the rules'
(any 32 hex digits will do: it seeds the bots' own dice)."""


def look(
    strategy: str,
    search: str,
    players: int,
    games: int,
    seed: int,
    key: str = KEY,
    kinds: Collection[str] = (),
) -> list[dict[str, Any]]:
    """One row per decision with a choice (of one of ``kinds``, when given): its kind, the
    round, both choices, the search's values."""
    db = default_database()
    strategy_spec, search_spec = parse_spec(strategy), parse_spec(search)
    rows: list[dict[str, Any]] = []
    for game_seed in range(seed, seed + games):
        seats = [strategy_spec.make(bot_seed(key, game_seed, s)) for s in range(1, players + 1)]
        game = Game(GameConfig(players, seed=game_seed), db=db)
        while (decision := game.decision) is not None:
            observation = game.observation(decision.seat)
            own = seats[decision.seat - 1].choose(observation, decision)
            if len(decision.options) > 1 and (not kinds or decision.kind in kinds):
                # A fresh searcher each time, seeded by the game and the decision's place in
                # it: the same command gives the same table.
                searcher = search_spec.make(bot_seed(key, game_seed, 100 + len(game.history)))
                if not isinstance(searcher, MctsPlayer):
                    raise SystemExit(f"--search {search!r}: not a search (mcts, mcts-strong...)")
                # The strategy's choice is the one kept unless the search clearly beats it.
                choice = searcher.analyse(observation, decision, own)
                values = searcher.last_values
                rows.append(
                    {
                        "kind": decision.kind,
                        "round": game.state.round,
                        "own": own,
                        "search": choice,
                        "gain": values.get(choice, 0.0) - values.get(own, 0.0),
                    }
                )
            game.push(own)
    return rows


def summary(rows: Sequence[dict[str, Any]]) -> list[tuple[str, int, int, float, float]]:
    """(kind, decisions, overruled, mean gain of an overrule, largest gain), most asked
    kinds first; gains in points of win chance."""
    kinds: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        kinds.setdefault(row["kind"], []).append(row)
    out = []
    for kind, group in kinds.items():
        gains = [100 * r["gain"] for r in group if r["search"] != r["own"]]
        mean = sum(gains) / len(gains) if gains else 0.0
        out.append((kind, len(group), len(gains), mean, max(gains, default=0.0)))
    return sorted(out, key=lambda t: (-t[1], t[0]))


def pairs(rows: Sequence[dict[str, Any]], top: int) -> list[tuple[str, str, int, float]]:
    """The ``top`` most frequent overrules: (the strategy's choice, the search's, how often,
    mean gain in points), most frequent first (ties in the order first met)."""
    counts: Counter[tuple[str, str]] = Counter()
    gains: dict[tuple[str, str], float] = {}
    for row in rows:
        if row["search"] != row["own"]:
            key = (str(row["own"]), str(row["search"]))
            counts[key] += 1
            gains[key] = gains.get(key, 0.0) + 100 * row["gain"]
    return [(own, other, n, gains[own, other] / n) for (own, other), n in counts.most_common(top)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strategy", default="rules")
    parser.add_argument("--search", default="mcts-strong")
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=641000)
    parser.add_argument("--bot-key", default=KEY)
    parser.add_argument(
        "--kind", action="append", default=[], choices=sorted(KIND_HELP), help="only this kind"
    )
    parser.add_argument("--pairs", type=int, default=0, help="also the N commonest overrules")
    args = parser.parse_args(argv)
    rows = look(
        args.strategy, args.search, args.players, args.games, args.seed, args.bot_key, args.kind
    )
    print("| kind | decisions | overruled | mean gain (points) | largest gain |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind, n, overruled, mean, largest in summary(rows):
        print(f"| `{kind}` | {n} | {overruled} | {mean:+.2f} | {largest:+.2f} |")
    if args.pairs:
        print()
        print("| the strategy's choice | the search's | times | mean gain (points) |")
        print("| --- | --- | ---: | ---: |")
        for own, other, n, mean in pairs(rows, args.pairs):
            print(f"| {own} | {other} | {n} | {mean:+.2f} |")


if __name__ == "__main__":
    main()
