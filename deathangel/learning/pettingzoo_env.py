"""The PettingZoo environment ``deathangel_v0``: one agent per seat.

``deathangel.learning.aec_env(players=3)`` (the same as :func:`env`) is the checked
environment: :class:`raw_env` in PettingZoo's out-of-bounds and order-enforcing wrappers, as
the classic games are. Agents are ``seat_0`` … ``seat_{n-1}`` for the engine's seats 1 … n.

- **Turns** follow the engine: the agent selected is the seat of the pending decision. The
  hidden simultaneous choice of action cards (RULES §5) is asked seat by seat, as the engine
  asks it, and each seat's observation leaves out the others' face-down cards until the
  reveal: a seat never sees another's choice before it has made its own.
- **Observations**: ``{"observation": vector, "action_mask": int8}`` for any agent at any
  time, from that seat's own view (:mod:`.encoding`); the mask is all zeros except for the
  agent whose decision is pending.
- **Rewards** are shared (the game is co-operative): every agent gets +1 when the marines
  win, and with ``reward="progress"`` the same travel bonus. Every agent terminates when the
  game ends, even one whose marines all died earlier (its seat can still win).
- **Illegal actions** raise :class:`~deathangel.learning.actions.IllegalActionError` and
  change nothing. The classic games' ``TerminateIllegalWrapper`` is left out on purpose: it
  ends the game with -1 for one agent, which breaks the shared reward.

Why no parallel API: only one seat ever has a decision pending (even the action-card choice
is asked one seat at a time, each blind to the others), so a parallel step would be one real
action and every other agent passing; ``metadata["is_parallelizable"]`` says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

try:
    import gymnasium
    import numpy as np
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from deathangel.learning.extra import missing_extra

    raise missing_extra(exc) from None

from deathangel.engine.state import MAX_PLAYERS, MIN_PLAYERS
from deathangel.errors import DeathAngelError
from deathangel.learning.core import REWARDS, Core, View, progress_reward
from deathangel.learning.gym_env import GAME_SEEDS, describe
from deathangel.plugins.ruleset import VariantsArg

if TYPE_CHECKING:
    from deathangel.engine.game import Game
    from deathangel.engine.ruleset import Ruleset

AgentObs = dict[str, Any]


def agent_name(seat: int) -> str:
    """The agent of an engine seat (1-based): ``seat_0`` for seat 1."""
    return f"seat_{seat - 1}"


class raw_env(AECEnv[str, AgentObs, Any]):  # type: ignore[misc]
    """Death Angel with one agent per seat; see the module docstring."""

    metadata = {  # noqa: RUF012 - PettingZoo's API
        "name": "deathangel_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 1,
        *,
        reward: str = "win",
        plugins: Iterable[str] = (),
        variants: VariantsArg = (),
        ruleset: Ruleset | None = None,
        game_seeds: tuple[int, int] = GAME_SEEDS,
        render_mode: str | None = None,
    ) -> None:
        """
        :param players: seats (and agents), 1–6.
        :param reward: ``"win"`` or ``"progress"``.
        :param plugins: expansions to play with (installed plugins, as ``--with``).
        :param variants: house rules (as ``--variant``).
        :param ruleset: a ruleset to play with instead of ``plugins``/``variants``.
        :param game_seeds: the half-open range game seeds are drawn from.
        :param render_mode: ``None`` or ``"ansi"``.
        """
        super().__init__()
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise DeathAngelError(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, not {players!r}")
        if reward not in REWARDS:
            raise DeathAngelError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise DeathAngelError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.core = core = Core(plugins=plugins, variants=variants, ruleset=ruleset)
        self.players = players
        self.reward_kind = reward
        self.game_seeds = game_seeds
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(1, players + 1)]
        self.agents: list[str] = []
        obs_space = gymnasium.spaces.Dict(
            {
                "observation": core.encoder.flat_space(),
                "action_mask": gymnasium.spaces.Box(0, 1, (core.size,), dtype=np.int8),
            }
        )
        act_space = gymnasium.spaces.Discrete(core.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.game: Game | None = None
        self.game_seed: int | None = None
        self._views: dict[str, View] = {}
        self._np_random: np.random.Generator | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def np_random(self) -> np.random.Generator:
        """The environment's generator: the game seed is drawn from it."""
        if self._np_random is None:
            self._np_random, _ = seeding.np_random()
        return self._np_random

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = (options or {}).get("game_seed")
        if game_seed is None:
            game_seed = int(self.np_random.integers(*self.game_seeds))
        self.game = self.core.new_game(self.players, game_seed, forward=False, checkpoints=False)
        self.game_seed = game_seed
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._views = {}
        decision = self.game.decision
        # A game always starts with a question (RULES §5: every team chooses an action card).
        assert decision is not None
        self.agent_selection = agent_name(decision.seat)
        self._travels = 0

    def observe(self, agent: str) -> AgentObs:
        view = self._view(agent)
        return {"observation": view.vector.copy(), "action_mask": view.mask.copy()}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and game.decision is not None
        option = self.core.option(self._view(agent).legal, action)
        self._cumulative_rewards[agent] = 0.0
        game.push(option)
        self._views = {}
        decision = game.decision
        self._clear_rewards()
        # What every seat may know of the travels: the location deck's public size.
        seat = decision.seat if decision is not None else int(agent.split("_")[1]) + 1
        travels = self._view(agent_name(seat)).travels
        reward = 0.0
        if self.reward_kind == "progress":
            reward += progress_reward(self._travels, travels, self._view(agent_name(seat)).deck)
        self._travels = travels
        if decision is None:
            reward += 1.0 if game.outcome == "victory" else 0.0
            for a in self.agents:
                self.terminations[a] = True
        for a in self.agents:
            self.rewards[a] = reward
        self._accumulate_rewards()
        self.agent_selection = agent_name(seat) if decision is not None else self.agents[0]

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        return describe(self._view(self.agent_selection))

    def close(self) -> None:
        self.game = None
        self._views = {}

    def _view(self, agent: str) -> View:
        view = self._views.get(agent)
        if view is None:
            if self.game is None:
                raise DeathAngelError("call reset() first")
            seat = int(agent.split("_")[1]) + 1
            view = self._views[agent] = self.core.view(self.game, seat)
        return view


def env(**kwargs: Any) -> AECEnv[str, AgentObs, Any]:
    """:class:`raw_env` in PettingZoo's out-of-bounds and order-enforcing wrappers (as the
    classic games; see the module docstring for why illegal actions raise instead of ending
    the game)."""
    wrapped: AECEnv[str, AgentObs, Any] = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


def aec_env(players: int = 1, **kwargs: Any) -> AECEnv[str, AgentObs, Any]:
    """The AEC environment for ``players`` seats (:func:`env`)."""
    return env(players=players, **kwargs)
