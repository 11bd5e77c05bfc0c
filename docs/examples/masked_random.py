"""A masked random agent: plays many Gymnasium episodes of Death Angel, every action drawn
uniformly from ``info["action_mask"]``, and says how they went.

    python docs/examples/masked_random.py --episodes 10000
    python docs/examples/masked_random.py --episodes 600 --players 3 --with broodwake

By default the player count cycles through 1–6 (episode ``k`` plays ``k % 6 + 1`` seats), so
every count gets its share. Any error stops the run with the episode and seed at fault. The
environment is made through ``gymnasium.make`` (with Gymnasium's order and passive checks),
one per player count, each reset with seed ``--seed + k``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import gymnasium
import numpy as np

import deathangel.learning

ID = deathangel.learning.GYM_ID


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--players", type=int, help="one player count (default: cycle 1-6)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--with", dest="plugins", action="append", default=[])
    args = parser.parse_args()

    counts = [args.players] if args.players else [1, 2, 3, 4, 5, 6]
    envs = {p: gymnasium.make(ID, players=p, plugins=args.plugins) for p in counts}
    rng = np.random.default_rng(args.seed)
    wins: Counter[int] = Counter()
    games: Counter[int] = Counter()
    locations: Counter[int] = Counter()
    steps = 0
    start = time.perf_counter()
    for k in range(args.episodes):
        players = counts[k % len(counts)]
        env = envs[players]
        _, info = env.reset(seed=args.seed + k)
        terminated = truncated = False
        reward = 0.0
        while not (terminated or truncated):
            legal = np.flatnonzero(info["action_mask"])
            if len(legal) == 0:
                raise SystemExit(f"episode {k} (seed {args.seed + k}): no legal action")
            action = int(legal[rng.integers(len(legal))])
            _, r, terminated, truncated, info = env.step(action)
            reward += float(r)
            steps += 1
        games[players] += 1
        wins[players] += reward > 0
        locations[players] += info["locations_reached"]
    seconds = time.perf_counter() - start
    print(
        f"{args.episodes} episodes, {steps} steps in {seconds:.1f} s "
        f"({steps / seconds:.0f} steps/s), no error"
    )
    for players in counts:
        n = games[players]
        print(
            f"  {players} player(s): {n} episodes, {wins[players]} won, "
            f"mean locations reached {locations[players] / n:.2f}"
        )


if __name__ == "__main__":
    main()
