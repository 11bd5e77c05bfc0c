"""OpenSpiel's MCTS bot (random rollouts) plays ``python_deathangel``, honestly.

    python docs/examples/openspiel_mcts.py --games 20 --simulations 50

OpenSpiel's ``MCTSBot`` searches by cloning the state it is given. A clone of the real state
carries the real deck orders and the dice to come, so at each decision this script first
deals an imagined game from what the deciding seat knows
(``state.resample_from_infostate``: the hidden cards at random, fresh dice) and lets the bot
search that one (one deal per decision: "determinized" MCTS). The action it picks is legal in
the real game, which stands at the same decision. The same games are then played by a
uniformly random player, for comparison.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import deathangel.learning.openspiel as spiel


def locations_reached(state: spiel.DeathAngelState) -> int:
    """1 (the setup location) + the travels made: what the table sees of the location deck."""
    st = state.game.state
    setup = st.setup_location
    if setup is None or st.phase == "setup":
        return 1
    return 1 + len(setup.location_deck) - len(st.location_deck)


def play(game: spiel.DeathAngelGame, seed: int, bot: mcts.MCTSBot | None) -> tuple[bool, int]:
    state = game.new_initial_state(game_seed=seed)
    # Seeded, so the same command plays the same games (unseeded, OpenSpiel seeds it afresh).
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    rng = random.Random(seed)
    while not state.is_terminal():
        if bot is None:
            action = rng.choice(state.legal_actions())
        else:
            world = state.resample_from_infostate(state.current_player(), sampler)
            action = bot.step(world)
        state.apply_action(action)
    return state.returns()[0] > 0, locations_reached(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=700_000, help="first game seed")
    parser.add_argument("--simulations", type=int, default=50, help="MCTS simulations a move")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts a leaf")
    args = parser.parse_args()

    game = pyspiel.load_game("python_deathangel", {"players": args.players})
    evaluator = mcts.RandomRolloutEvaluator(
        n_rollouts=args.rollouts, random_state=np.random.RandomState(args.seed)
    )
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=args.simulations,
        evaluator=evaluator,
        random_state=np.random.RandomState(args.seed),
    )
    seeds = range(args.seed, args.seed + args.games)
    for name, player in (("mcts", bot), ("random", None)):
        start = time.perf_counter()
        results = [play(game, s, player) for s in seeds]
        wins = sum(won for won, _ in results)
        mean = sum(n for _, n in results) / len(results)
        print(
            f"{name:>6}: {wins}/{len(results)} won, mean locations reached {mean:.2f} "
            f"({time.perf_counter() - start:.0f} s; games {seeds.start}..{seeds.stop - 1})",
            flush=True,
        )


if __name__ == "__main__":
    main()
