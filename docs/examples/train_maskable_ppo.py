"""Train a MaskablePPO agent (sb3-contrib) on solo Death Angel for a set number of minutes on
CPU, then evaluate it on game seeds training never saw, against the random policy and the
``rules`` bot.

    pip install torch==2.13.0            # a CPU build: install it before sb3-contrib
    pip install -r docs/examples/requirements-train.txt
    nice -n 10 python docs/examples/train_maskable_ppo.py --minutes 25 --eval-games 1000 \
        --out ppo-figures.json

Training plays ``deathangel/DeathAngel-v0`` with flat observations, ``reward="progress"``
(+1 for a win and half a point spread over the travels) and game seeds drawn from
``TRAIN_SEEDS``; evaluation plays games ``EVAL_SEED`` .. ``EVAL_SEED + n - 1`` (the games
``deathangel simulate --players 1 --seed EVAL_SEED`` plays), which that range never holds.
Every policy plays the same games: the trained one through the environment (its most likely
legal action, observations normalised with the statistics frozen at the end of training),
``random`` and ``rules`` through the engine exactly as ``simulate`` plays them.

Printed: win rate with its 95% Wilson interval and mean locations reached with a 95%
interval, for each policy, and the paired difference in locations reached. ``--out FILE``
writes the figures as JSON; ``--save FILE.npz`` the policy file (numpy arrays, never a
pickle: the policy's layers, its observation statistics, the action table's digest and the
encoding's version), which ``deathangel tournament --with policy -e policy:model=FILE.npz``
seats beside the bots.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize
except ImportError as exc:  # one line saying what to install, not a traceback
    raise SystemExit(
        f"this example needs torch and sb3-contrib ({exc.name} is missing): pip install a CPU "
        "build of torch, then pip install -r docs/examples/requirements-train.txt"
    ) from None

from deathangel.analysis.simulate import play_game, spec_bots, wilson_interval
from deathangel.engine.game import GameConfig
from deathangel.learning.encoding import ENCODING_VERSION
from deathangel.learning.gym_env import DeathAngelEnv
from deathangel.learning.policy import FORMAT, FORMAT_VERSION, load_policy
from deathangel.players.seeds import check_bot_key, new_bot_key
from deathangel.plugins.strategies import parse_spec, strategies

TRAIN_SEEDS = (10**9, 2**62)
"""The game seeds training draws from (half-open)."""
EVAL_SEED = 800_000
"""The first held-out game seed; evaluation plays EVAL_SEED .. EVAL_SEED + n - 1."""


class Budget(BaseCallback):
    """Stops training after a number of minutes; counts the episodes played."""

    def __init__(self, minutes: float) -> None:
        super().__init__()
        self.seconds = 60 * minutes
        self.start = time.perf_counter()
        self.episodes = self.wins = self.locations = 0
        self.last_report = self.start

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done:
                self.episodes += 1
                self.locations += info["locations_reached"]
                self.wins += info.get("outcome") == "victory"
        now = time.perf_counter()
        if now - self.last_report > 60 and self.episodes:
            self.last_report = now
            print(
                f"  {(now - self.start) / 60:5.1f} min, {self.num_timesteps} steps, "
                f"{self.episodes} episodes, mean locations {self.locations / self.episodes:.2f}",
                flush=True,
            )
            self.episodes = self.wins = self.locations = 0
        return now - self.start < self.seconds


class Outcome(DeathAngelEnv):
    """The environment, with the game's outcome in the last step's info (for the log)."""

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = super().step(action)
        if terminated and self.game is not None:
            info["outcome"] = self.game.outcome
        return obs, reward, terminated, truncated, info


def train(minutes: float, envs: int, seed: int) -> tuple[MaskablePPO, VecNormalize, int]:
    def make(rank: int) -> Any:
        return lambda: Outcome(players=1, flat=True, reward="progress", game_seeds=TRAIN_SEEDS)

    venv = VecNormalize(
        DummyVecEnv([make(i) for i in range(envs)]), norm_obs=True, norm_reward=False
    )
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=128,
        batch_size=512,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": {"pi": [256, 256], "vf": [256, 256]}},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    budget = Budget(minutes)
    model.learn(total_timesteps=10**12, callback=budget)
    venv.training = False  # freeze the normalisation for evaluation
    return model, venv, model.num_timesteps


def play_ppo(model: MaskablePPO, venv: VecNormalize, seeds: range) -> list[tuple[bool, int]]:
    env = DeathAngelEnv(players=1, flat=True)
    results = []
    for game_seed in seeds:
        obs, info = env.reset(seed=0, options={"game_seed": game_seed})
        terminated = False
        while not terminated:
            action, _ = model.predict(
                venv.normalize_obs(obs), action_masks=env.action_masks(), deterministic=True
            )
            obs, _, terminated, _, info = env.step(int(action))
        assert env.game is not None
        results.append((env.game.outcome == "victory", info["locations_reached"]))
    return results


def play_bot(spec_text: str, seeds: range, key: str) -> list[tuple[bool, int]]:
    spec = parse_spec(spec_text)
    found = strategies()
    results = []
    for game_seed in seeds:
        bots = spec_bots([spec], game_seed, found, key)
        result = play_game(GameConfig(1, seed=game_seed), bots)
        results.append((result.won, result.locations_reached))
    return results


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and a 95% normal interval (the games are many and independent)."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = 1.959964 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def summary(name: str, results: list[tuple[bool, int]]) -> dict[str, Any]:
    wins = sum(won for won, _ in results)
    lo, hi = wilson_interval(wins, len(results))
    loc, loc_lo, loc_hi = mean_ci([float(n) for _, n in results])
    return {
        "policy": name,
        "games": len(results),
        "wins": wins,
        "win_rate": wins / len(results),
        "win_rate_ci95": [lo, hi],
        "mean_locations": loc,
        "mean_locations_ci95": [loc_lo, loc_hi],
    }


def save_npz(path: str, model: MaskablePPO, venv: VecNormalize) -> None:
    """Write the policy file ``policy:model=FILE.npz`` plays (docs/learning.md, "A trained
    agent at a seat"): the policy network's layers, the frozen observation statistics and
    what the policy was trained on; then check that the file picks the actions the model does."""
    layers = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    layers.append(model.policy.action_net)
    activations = {torch.nn.Tanh: "tanh", torch.nn.ReLU: "relu"}
    arrays: dict[str, Any] = {}
    for i, layer in enumerate(layers):
        arrays[f"weight{i}"] = layer.weight.detach().cpu().numpy()
        arrays[f"bias{i}"] = layer.bias.detach().cpu().numpy()
    arrays["obs_mean"] = venv.obs_rms.mean
    arrays["obs_var"] = venv.obs_rms.var
    env = DeathAngelEnv(players=1)
    meta = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "action_table_digest": env.core.actions.digest(),
        "encoding_version": ENCODING_VERSION,
        "layers": len(layers),
        "activation": activations[model.policy.activation_fn],
        "obs_clip": float(venv.clip_obs),
        "obs_epsilon": float(venv.epsilon),
        "trained_with": "sb3-contrib MaskablePPO, docs/examples/train_maskable_ppo.py",
    }
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)
    check_saved(path, model, venv)


def check_saved(path: str, model: MaskablePPO, venv: VecNormalize, games: int = 5) -> None:
    """Play ``games`` games with the model, asking the saved file at every decision too:
    they must pick the same action (the file is what a tournament seat will play)."""
    saved = load_policy(path)
    env = DeathAngelEnv(players=1, flat=True)
    decisions = 0
    for game_seed in range(EVAL_SEED, EVAL_SEED + games):
        obs, _ = env.reset(seed=0, options={"game_seed": game_seed})
        terminated = False
        while not terminated:
            mask = env.action_masks()
            action, _ = model.predict(
                venv.normalize_obs(obs), action_masks=mask, deterministic=True
            )
            if saved(obs, mask) != int(action):
                raise SystemExit(f"{path}: the saved policy picks another action than the model")
            decisions += 1
            obs, _, terminated, _, _ = env.step(int(action))
    print(
        f"saved {path}: the same action as the model at all {decisions} decisions of {games} games"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=25.0, help="training time (wall)")
    parser.add_argument("--envs", type=int, default=16, help="environments stepped together")
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="training seed (PPO and envs)")
    parser.add_argument("--out", help="write the figures as JSON here")
    parser.add_argument("--save", help="write the policy file (.npz) here")
    parser.add_argument(
        "--bot-key", help="seeds the random and rules bots, as simulate's (default: a new one)"
    )
    args = parser.parse_args()
    key = check_bot_key(args.bot_key) if args.bot_key else new_bot_key()
    torch.set_num_threads(1)  # one core: the machine is shared

    print(f"training MaskablePPO for {args.minutes} minutes on CPU ({args.envs} envs)")
    started = time.perf_counter()
    cpu = time.process_time()
    model, venv, steps = train(args.minutes, args.envs, args.seed)
    trained = time.perf_counter() - started
    cpu = time.process_time() - cpu
    print(f"trained: {steps} steps in {trained / 60:.1f} min ({cpu / 60:.1f} min of CPU)")
    if args.save:
        save_npz(args.save, model, venv)

    seeds = range(EVAL_SEED, EVAL_SEED + args.eval_games)
    print(f"evaluating on games {seeds.start}..{seeds.stop - 1} (never trained on), bot key {key}")
    played = {
        "maskable_ppo": play_ppo(model, venv, seeds),
        "random": play_bot("random", seeds, key),
        "rules": play_bot("rules", seeds, key),
    }
    rows = [summary(name, results) for name, results in played.items()]
    for row in rows:
        lo, hi = row["win_rate_ci95"]
        llo, lhi = row["mean_locations_ci95"]
        print(
            f"  {row['policy']:>12}: win rate {100 * row['win_rate']:5.2f}% "
            f"({100 * lo:.2f}% - {100 * hi:.2f}%), mean locations {row['mean_locations']:.2f} "
            f"({llo:.2f} - {lhi:.2f})"
        )
    diffs = {}
    ours = [float(n) for _, n in played["maskable_ppo"]]
    for other in ("random", "rules"):
        theirs = [float(n) for _, n in played[other]]
        d, dlo, dhi = mean_ci([a - b for a, b in zip(ours, theirs, strict=True)])
        diffs[other] = {"mean": d, "ci95": [dlo, dhi]}
        print(f"  locations, PPO - {other}: {d:+.2f} ({dlo:+.2f} - {dhi:+.2f}), same games")
    figures = {
        "minutes": args.minutes,
        "train_steps": steps,
        "train_seconds": trained,
        "train_cpu_seconds": cpu,
        "train_seeds": list(TRAIN_SEEDS),
        "eval_seeds": [seeds.start, seeds.stop - 1],
        "bot_key": key,
        "policies": rows,
        "location_differences": diffs,
    }
    if args.out:
        with open(args.out, "w", encoding="utf-8") as file:
            json.dump(figures, file, indent=1)


if __name__ == "__main__":
    main()
