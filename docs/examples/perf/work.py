"""Fixed work for timing whole processes, an older engine against this one.

    python work.py KIND N      KIND: games, games4, games6, clone, noclone, clonecopy,
                               determinize, dealonly, mcts, mcts1, mcts46 (or mcts23...), rules,
                               invariants, noinvariants

(``noclone`` plays the games ``clone`` clones in, without the clones: the difference of the
two is the clones' own work. ``clonecopy`` copies, at each of those decisions, only the state
a clone starts from, and ``dealonly`` does only a determinization's state copy and deal:
what the two would still cost if the engine could start again from any decision with no
replay.)

Run it twice with only ``PYTHONPATH`` changed (a worktree of the older commit, then this
one), e.g. with ``ab.py`` beside it. The bench's positions and bot key come from this
checkout's ``deathangel/analysis/bench.py``, loaded by its path, so both engines do exactly
the same work even when the older one has an older bench.
"""

import hashlib
import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

from deathangel.analysis.simulate import bots, play_game
from deathangel.engine.forward import determinize
from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.plugins.strategies import strategy_factory

_BENCH = Path(__file__).resolve().parents[3] / "deathangel" / "analysis" / "bench.py"
_spec = importlib.util.spec_from_file_location("todays_bench", _BENCH)
assert _spec is not None and _spec.loader is not None
b = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(b)

kind, n = sys.argv[1], int(sys.argv[2])
KEY = b.BENCH_BOT_KEY
if kind.startswith("games"):
    players = int(kind[5:] or 1)
    factory = strategy_factory("random")
    db = default_database()
    outs = []
    for seed in range(n):
        r = play_game(GameConfig(players, seed=seed), bots(factory, players, seed, KEY), db=db)
        outs.append(r.outcome)
    print(kind, outs.count("victory"), len(outs))
elif kind == "rules":
    factory = strategy_factory("rules")
    db = default_database()
    outs = []
    for seed in range(n):
        r = play_game(GameConfig(1, seed=seed), bots(factory, 1, seed, KEY), db=db)
        outs.append(r.outcome)
    print(kind, outs.count("victory"), len(outs))
elif kind in ("clone", "noclone", "clonecopy"):
    factory = strategy_factory("random")
    db = default_database()
    k = 0
    seed = 0
    while k < n:
        players = 1 + seed % 6
        game = Game(GameConfig(players, seed=seed), db=db)
        seats = bots(factory, players, seed, KEY)
        while game.decision is not None and k < n:
            if kind == "clone":
                game.clone()
            elif kind == "clonecopy":
                point = game._point  # what a clone copies, then replays from
                assert point is not None
                point.state.copy()
            k += 1
            game.push(seats[game.decision.seat - 1].choose(None, game.decision))
        seed += 1
    print(kind, k)
elif kind == "determinize":
    pool = b.observation_pool()
    rng = random.Random(0)
    for i in range(n):
        determinize(pool[i % len(pool)], rng)
    print("determinize", n, len(pool))
elif kind == "dealonly":
    from deathangel.engine.forward import deal_hidden, locations_to_come, out_of_view

    pool = b.observation_pool()
    # What determinize works out once per observation and keeps (its ``prepared``).
    facts = []
    for o in pool:
        cp, counts = o.forward.checkpoint, o.forward.counts
        facts.append(
            (out_of_view(cp, o.table, counts), locations_to_come(cp, o.table, counts.location_deck))
        )
    rng = random.Random(0)
    for i in range(n):
        o = pool[i % len(pool)]
        fw = o.forward
        state = fw.checkpoint.copy()
        unseen, places = facts[i % len(pool)]
        deal_hidden(state, o.table, fw.counts, rng, fw.scouted_top, unseen, places)
    print("dealonly", n, len(pool))
elif kind in ("mcts", "mcts1") or (kind[:4] == "mcts" and kind[4:].isdigit() and len(kind) == 6):
    # ``mcts1``: rollouts of one round, the default before issue 20 made it two, so an engine
    # from before then is timed at the same work. ``mcts46``: the default's rollouts on the
    # positions of 4- to 6-player games (where each seat has one team); ``mcts23`` of 2 and 3.
    from deathangel.players.search.mcts import mcts
    from deathangel.players.seeds import bot_seed

    low, high = (int(kind[4]), int(kind[5])) if len(kind) == 6 else (1, 2)
    counts = range(low, high + 1)
    pool = [o for o in b.observation_pool(step=5, games=1) if len(o.state.seats) in counts]
    picks = []
    # The hand-made progress value, which every engine this is run against searched with by
    # default (the solo default became the self-play model later; older ``mcts`` have no
    # ``value`` to name): the same work whatever the engine.
    extra: dict[str, Any] = {"value": "progress"}
    try:
        mcts(0, 1, **extra)
    except TypeError:
        extra = {}
    for i in range(n):
        obs = pool[i % len(pool)]
        seed = bot_seed(KEY, i, obs.seat)
        # Two rounds named, not left to the default, so an engine whose default was one
        # round (before issue 20) does the same work.
        p = mcts(seed, 60, horizon=1 if kind == "mcts1" else 2, **extra)
        picks.append(p.choose(obs, obs.decision))
    print(kind, n, hashlib.sha256(repr(picks).encode()).hexdigest()[:16])
elif kind in ("invariants", "noinvariants"):
    # The positions: a clone at about one decision in twenty of 40 random games of 1-6
    # players; ``invariants`` then checks each of them N times, ``noinvariants`` does not.
    from deathangel.engine.invariants import check_invariants
    from deathangel.players import RandomPlayer

    pick = random.Random(1)
    positions = []
    for seed in range(40):
        game = Game(GameConfig(players=1 + seed % 6, seed=seed))
        bot = RandomPlayer(seed)
        while game.decision is not None:
            decision = game.decision
            game.push(bot.choose(game.observation(decision.seat), decision))
            if pick.random() < 0.05:
                positions.append(game.clone())
    for _ in range(n if kind == "invariants" else 0):
        for game in positions:
            check_invariants(game)
    print(kind, len(positions), n)
