"""Instructions per environment step, part by part: a speed figure the machine's load cannot
move. Run each mode under callgrind and subtract the mode ``none`` (imports and tables):

    for mode in none engine observe encode legal env env-flat; do
      valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python docs/examples/env_step_instructions.py $mode 100 2>&1 | grep -E "^mode|Collected"
    done

Each mode plays solo games 0..GAMES-1 with uniformly random choices and adds one part to
the one before: ``engine`` (the engine alone), ``observe`` (+ the seat's observation),
``encode`` (+ its encoding), ``legal`` (+ the legal actions and the mask); ``env`` and
``env-flat`` step the Gymnasium environment itself (Dict or flat observations) on the same
game seeds. Instructions per decision = (collected − collected by ``none``) / decisions.
"""

from __future__ import annotations

import random
import sys

import numpy as np

from deathangel.engine.game import Game, GameConfig
from deathangel.learning.gym_env import DeathAngelEnv

MODES = ("none", "engine", "observe", "encode", "legal", "env", "env-flat")


def main() -> None:
    mode, games = sys.argv[1], int(sys.argv[2])
    if mode not in MODES:
        raise SystemExit(f"mode must be one of {', '.join(MODES)}")
    env = DeathAngelEnv(players=1, flat=mode == "env-flat")  # every mode builds the tables
    core = env.core
    decisions = 0
    if mode.startswith("env"):
        rng = random.Random(0)
        for seed in range(games):
            env.reset(seed=seed, options={"game_seed": seed})
            while env.legal is not None:
                indices = env.legal.indices
                env.step(indices[int(rng.random() * len(indices))])
                decisions += 1
    elif mode != "none":
        for seed in range(games):
            game = Game(GameConfig(1, seed=seed), checkpoints=False, forward=False)
            rng = random.Random(seed)
            decision = game.decision
            while decision is not None:
                if mode != "engine":
                    obs = game.observation(decision.seat)
                    if mode in ("encode", "legal"):
                        core.encoder.encode(obs)
                    if mode == "legal":
                        legal = core.actions.legal(decision, obs.state.wounds)
                        mask = np.zeros(core.size, dtype=np.int8)
                        mask[legal.indices] = 1
                options = decision.options
                game.push(options[int(rng.random() * len(options))])
                decision = game.decision
                decisions += 1
    print(f"mode {mode}: {games} games, {decisions} decisions")


if __name__ == "__main__":
    main()
