"""How fast the Gymnasium environment steps: the figures ``deathangel bench`` reports.

A masked random agent (uniform over the legal actions) plays whole episodes of
:class:`~deathangel.learning.gym_env.DeathAngelEnv` as registered (``Dict`` observations,
masks in ``info``), one process, one core, fixed seeds. A step is everything an agent waits
for: the engine answering, the other seats' bots (none here: the agent plays every seat), the
seat's observation, its encoding and the mask. Three parts are timed on their own as well, to
say what limits the speed: the engine (``Game.push``), the seat's observation
(``Game.observation``, built by the engine) and the encoder.
"""

from __future__ import annotations

import random
import time
from math import floor
from typing import Any

from attrs import frozen

from deathangel.learning.extra import MissingExtraError

TARGET_ENV_STEPS_PER_S = 20_000.0
"""The goal: solo environment steps per second on one core (issue 18)."""

PLAYERS = (1, 4)
"""The player counts benchmarked: solo, and four seats (one agent playing all of them)."""


@frozen
class EnvRate:
    """Environment steps timed at one player count."""

    players: int
    steps: int
    episodes: int
    seconds: float
    encode_seconds: float
    """Of ``seconds``, the time inside the encoder."""
    engine_seconds: float = 0.0
    """Of ``seconds``, the time inside the engine answering the agent (``Game.push``)."""
    observe_seconds: float = 0.0
    """Of ``seconds``, the time the engine took to build the seat's observations."""

    @property
    def per_s(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    def share(self, part: float) -> float:
        return part / self.seconds if self.seconds > 0 else 0.0

    @property
    def encode_share(self) -> float:
        return self.share(self.encode_seconds)


class _Clock:
    """Time added up inside wrapped calls."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def timed(self, call: Any) -> Any:
        def run(*args: Any) -> Any:
            start = time.perf_counter()
            result = call(*args)
            self.seconds += time.perf_counter() - start
            return result

        return run


class _TimedEncoder:
    """The environment's encoder, with the time spent in :meth:`encode` added up."""

    def __init__(self, encoder: Any, clock: _Clock) -> None:
        self._encoder = encoder
        self.encode = clock.timed(encoder.encode)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._encoder, name)


class _TimedCore:
    """The environment's core, making games whose ``push`` and ``observation`` are timed."""

    def __init__(self, core: Any, engine: _Clock, observe: _Clock) -> None:
        self._core = core
        self._engine = engine
        self._observe = observe

    def __getattr__(self, name: str) -> Any:
        return getattr(self._core, name)

    def new_game(self, *args: Any, **kwargs: Any) -> Any:
        game = self._core.new_game(*args, **kwargs)
        # Instance attributes shadow the methods: only this environment's games are timed.
        game.push = self._engine.timed(game.push)
        game.observation = self._observe.timed(game.observation)
        return game


def bench_env(
    players: int, *, episodes: int | None = None, seconds: float | None = None, seed: int = 0
) -> EnvRate:
    """Play whole episodes with a masked random agent: ``episodes`` of them, or for
    ``seconds`` (default 1.5 s), whichever is given; at least one."""
    from deathangel.learning.gym_env import DeathAngelEnv

    if episodes is None and seconds is None:
        seconds = 1.5
    env = DeathAngelEnv(players=players)
    rng = random.Random(seed)
    env.reset(seed=seed)  # a warm-up episode outside the timing: tables, first calls
    _play_episode(env, rng)
    encode, engine, observe = _Clock(), _Clock(), _Clock()
    env.core.encoder = _TimedEncoder(env.core.encoder, encode)  # type: ignore[assignment]
    env.core = _TimedCore(env.core, engine, observe)  # type: ignore[assignment]
    steps = done = 0
    clock = time.perf_counter
    start = clock()
    while True:
        env.reset(seed=seed + 1 + done)
        steps += _play_episode(env, rng)
        done += 1
        if episodes is not None and done >= episodes:
            break
        if seconds is not None and clock() - start >= seconds:
            break
    return EnvRate(
        players, steps, done, clock() - start, encode.seconds, engine.seconds, observe.seconds
    )


def _play_episode(env: Any, rng: random.Random) -> int:
    steps = 0
    while True:
        legal = env.legal
        if legal is None:
            return steps
        indices = legal.indices
        env.step(indices[floor(rng.random() * len(indices))])
        steps += 1


def env_figures(
    *, episodes: int | None = None, seconds: float | None = None, seed: int = 0
) -> dict[str, Any]:
    """The JSON figures of ``deathangel bench``: ``env_steps_per_s_1p``, ``_4p``, the share
    of time spent encoding, and whether the solo goal is met; without the ``rl`` extra, only
    ``env_skipped`` saying which extra to install."""
    try:
        rates = [bench_env(p, episodes=episodes, seconds=seconds, seed=seed) for p in PLAYERS]
    except MissingExtraError as exc:
        return {"env_skipped": str(exc)}
    out: dict[str, Any] = {}
    for rate in rates:
        out[f"env_steps_per_s_{rate.players}p"] = round(rate.per_s, 1)
        out[f"env_steps_{rate.players}p"] = rate.steps
        out[f"env_episodes_{rate.players}p"] = rate.episodes
        out[f"env_encode_share_{rate.players}p"] = round(rate.encode_share, 3)
        out[f"env_engine_share_{rate.players}p"] = round(rate.share(rate.engine_seconds), 3)
        out[f"env_observation_share_{rate.players}p"] = round(rate.share(rate.observe_seconds), 3)
    out["target_env_steps_per_s"] = TARGET_ENV_STEPS_PER_S
    out["target_env_met"] = rates[0].per_s >= TARGET_ENV_STEPS_PER_S
    return out


def env_lines(figures: dict[str, Any]) -> list[str]:
    """:func:`env_figures` as the lines ``deathangel bench`` prints."""
    if "env_skipped" in figures:
        return [f"learning environment: skipped, {figures['env_skipped']}"]
    lines = ["Gymnasium environment, a masked random agent playing every seat:"]
    for players in PLAYERS:
        label = f"{players} player{'s' if players > 1 else ' '}"
        lines.append(
            f"  {label}: {figures[f'env_steps_per_s_{players}p']:9.1f} steps/s  "
            f"({figures[f'env_episodes_{players}p']} episodes; of the time: engine "
            f"{100 * figures[f'env_engine_share_{players}p']:.0f}%, observation "
            f"{100 * figures[f'env_observation_share_{players}p']:.0f}%, encoding "
            f"{100 * figures[f'env_encode_share_{players}p']:.0f}%)"
        )
    verdict = "met" if figures["target_env_met"] else "NOT met"
    lines.append(
        f"  target (at least {TARGET_ENV_STEPS_PER_S:.0f} solo steps/s on one core): {verdict}"
    )
    return lines
