"""Golden games: a fixed set of complete games plays out exactly as it did when the digest was
pinned, so a speed-up that changes any outcome, decision, roll or log line fails here.

The digest covers, for random bots at every player count, the rules bot and a small search,
each game's decisions, its final state (hidden piles included), outcome, who died and why,
the genestealers slain, and for some the whole log; and the views and forward-model deals of
a few positions. It was pinned from the engine before issue 19's changes (see
docs/performance.md); a rules fix that changes outcomes must say so and pin a new one.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from deathangel.analysis.simulate import bots, play_out, spec_bots
from deathangel.engine.forward import determinize
from deathangel.engine.game import Game, GameConfig
from deathangel.players.base import uses_forward_model
from deathangel.plugins.strategies import parse_spec, strategies, strategy_factory

KEY = "00" * 16
"""The bots' key (the benchmark's): fixed, so the bots play the same games."""

GOLDEN = "0bf59939dd15b2551f1f224d1bb90dcaab41ccb2b3f07b9b89809359e47c44a7"


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()


def _game(game: Game) -> list[Any]:
    e = game.engine
    return [
        [o.code() for o in game.history],
        game.state.to_dict(game.table),
        game.outcome,
        e.deaths,
        e.genestealers_slain,
        game.log,
    ]


def _played(config: GameConfig, players: list[Any], *, log: bool = False) -> list[Any]:
    forward = any(uses_forward_model(p) for p in players)
    game = Game(config, log=log, checkpoints=False, forward=forward)
    play_out(game, players)
    return _game(game)


def golden_games() -> list[Any]:
    """Every game and view of the golden set, as data."""
    out: list[Any] = []
    random_bot = strategy_factory("random")
    for players in range(1, 7):
        for seed in range(8):
            config = GameConfig(players, seed=seed)
            out.append(_played(config, bots(random_bot, players, seed, KEY), log=seed == 0))
    found = strategies()
    for spec, seats, seeds in (
        ("rules", (1, 2, 4), range(3)),
        # horizon=1 and value=progress: the engine was pinned with mcts's old defaults; the
        # default moved to horizon 2, and solo to the self-play value
        ("mcts:iterations=6,horizon=1,value=progress", (1,), [5]),
    ):
        for players in seats:
            for seed in seeds:
                made = spec_bots([parse_spec(spec)] * players, seed, found, KEY)
                out.append(_played(GameConfig(players, seed=seed), made))
    # Views and deals along a game that keeps everything (a library user's game).
    game = Game(GameConfig(3, seed=9))
    seats = bots(random_bot, 3, 9, KEY)
    rng = random.Random(9)
    step = 0
    while (decision := game.decision) is not None:
        if step % 6 == 0:
            seen = game.observation(decision.seat)
            dealt = determinize(seen, rng)
            out.append([seen.to_dict(), dealt.state.to_dict(dealt.table)])
        game.push(seats[decision.seat - 1].choose(None, decision))
        step += 1
    out.append(_game(game))
    return out


def test_the_golden_games_play_out_as_pinned() -> None:
    assert _digest(golden_games()) == GOLDEN
