"""The Gymnasium environment ``deathangel/DeathAngel-v0``: one agent plays Death Angel.

``gymnasium.make("deathangel/DeathAngel-v0", players=2)`` (after ``import deathangel.learning``,
or with the id ``"deathangel.learning:deathangel/DeathAngel-v0"``, which imports it). The agent
plays every seat by default; with ``seats=(1,)`` it plays only those, and every other seat is
played by a strategy (``others="rules"``, any spec ``deathangel strategies list`` shows).

- **Actions**: ``Discrete(n)`` over the pool's action table (:mod:`deathangel.learning.actions`).
  The legal ones are ``info["action_mask"]`` and :meth:`DeathAngelEnv.action_masks` (int8,
  the convention sb3-contrib's MaskablePPO reads). An illegal action raises
  :class:`~deathangel.learning.actions.IllegalActionError` and changes nothing.
- **Observations**: what the deciding seat may know, encoded (:mod:`.encoding`): a ``Dict`` of
  named fields, or with ``flat=True`` one ``Box`` vector (the same numbers, concatenated).
  When the agent plays several seats, each observation is the view of the seat deciding:
  a seat choosing its action card never sees another's face-down choice (RULES §5).
- **Reward**: +1 when the marines win, 0 otherwise; ``reward="progress"`` adds
  :data:`~deathangel.learning.core.PROGRESS_SHARE` spread over the travels (see ``core``).
- **Seeding**: ``reset(seed=...)`` seeds ``self.np_random`` (Gymnasium's rule); the game's
  seed and the other seats' bots' seeds are drawn from it, so the same seed and the same
  actions give the same trajectory. ``reset(options={"game_seed": s})`` plays game ``s``
  (the game ``deathangel simulate --seed s`` plays), for evaluation on fixed seeds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any, SupportsFloat

try:
    import gymnasium
    import numpy as np
    from numpy.typing import NDArray
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from deathangel.learning.extra import missing_extra

    raise missing_extra(exc) from None

from deathangel.engine.state import MAX_PLAYERS, MIN_PLAYERS
from deathangel.errors import DeathAngelError, IllegalChoiceError
from deathangel.learning.actions import IllegalActionError
from deathangel.learning.core import REWARDS, Core, View, progress_reward
from deathangel.players.base import (
    check_table,
    end_game,
    observes,
    start_game,
    uses_forward_model,
)
from deathangel.plugins.ruleset import VariantsArg
from deathangel.plugins.strategies import StrategySpec, parse_spec, strategies

if TYPE_CHECKING:
    from deathangel.engine.game import Game
    from deathangel.engine.ruleset import Ruleset
    from deathangel.learning.actions import LegalActions

ENV_ID = "deathangel/DeathAngel-v0"
"""The Gymnasium id (namespace ``deathangel``, version 0)."""

ILLEGAL = ("raise", "random")
"""What an illegal action may do (the ``illegal`` parameter)."""

GAME_SEEDS = (0, 2**63)
"""The game seeds ``reset`` draws from by default: any (half-open range)."""

Obs = dict[str, NDArray[np.float32]] | NDArray[np.float32]


def seat_bots(
    spec: StrategySpec, seats: Iterable[int], rng: np.random.Generator, found: Any
) -> dict[int, Any]:
    """A player of strategy ``spec`` for each seat, seeded from the environment's generator.

    The one place the environments seed a bot. Each seed is 16 fresh bytes of ``rng`` put
    through BLAKE2b: no bot can compute the game's seed, the environment's seed or another
    bot's from its own, so none can rebuild the game it plays (DESIGN: honest information).
    """
    bots = {}
    for seat in seats:
        seed = int.from_bytes(hashlib.blake2b(rng.bytes(16), digest_size=8).digest(), "big")
        bots[seat] = spec.make(seed, found=found)
    return bots


class DeathAngelEnv(gymnasium.Env[Obs, np.int64]):
    """Death Angel for one agent; see the module docstring."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's API

    def __init__(
        self,
        players: int = 1,
        *,
        seats: Collection[int] | None = None,
        others: str = "random",
        reward: str = "win",
        flat: bool = False,
        plugins: Iterable[str] = (),
        variants: VariantsArg = (),
        ruleset: Ruleset | None = None,
        game_seeds: tuple[int, int] = GAME_SEEDS,
        illegal: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        """
        :param players: seats at the table, 1–6.
        :param seats: the seats (1-based) the agent plays; default all of them.
        :param others: the strategy spec for every other seat.
        :param reward: ``"win"`` or ``"progress"`` (see :mod:`deathangel.learning.core`).
        :param flat: observations as one ``Box`` vector instead of a ``Dict``.
        :param plugins: expansions to play with (installed plugins, as ``--with``).
        :param variants: house rules (``"defence=easier"``, as ``--variant``).
        :param ruleset: a ruleset to play with instead of ``plugins``/``variants``.
        :param game_seeds: the half-open range game seeds are drawn from.
        :param illegal: what an illegal action does: ``"raise"``
            (:class:`~deathangel.learning.actions.IllegalActionError`, nothing changes), or
            ``"random"``, for tools that step unmasked samples of the action space
            (Gymnasium's ``check_env``, RLlib's pre-checks): a legal action drawn from
            ``np_random`` is played instead.
        :param render_mode: ``None`` or ``"ansi"``.
        :raises DeathAngelError: for a bad argument, one line naming it.
        """
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise DeathAngelError(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, not {players!r}")
        agent = frozenset(range(1, players + 1) if seats is None else seats)
        if not agent or not agent <= set(range(1, players + 1)):
            raise DeathAngelError(
                f"seats must be some of 1-{players} (the agent's seats), not {sorted(agent)}"
            )
        if reward not in REWARDS:
            raise DeathAngelError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if illegal not in ILLEGAL:
            raise DeathAngelError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise DeathAngelError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        low, high = game_seeds
        if not 0 <= low < high <= 2**63:
            raise DeathAngelError(f"game_seeds must be a range within 0..2**63, not {game_seeds}")
        self.core = Core(plugins=plugins, variants=variants, ruleset=ruleset)
        self.players = players
        self.agent_seats = agent
        self.other_seats = tuple(s for s in range(1, players + 1) if s not in agent)
        self.others = parse_spec(others)
        pm = self.core.ruleset.plugin_manager
        self._strategies = strategies(pm)
        if self.other_seats:
            # An unknown strategy or parameter, or one that cannot play these cards (its
            # check_table hook), is refused now rather than at the first reset.
            check_table(self.others.make(0, found=self._strategies), self.core.table)
        self.reward_kind = reward
        self.illegal = illegal
        self.flat = flat
        self.game_seeds = game_seeds
        self.render_mode = render_mode
        self.action_space = gymnasium.spaces.Discrete(self.core.size)
        enc = self.core.encoder
        self.observation_space = enc.flat_space() if flat else enc.dict_space()
        self.game: Game | None = None
        self.game_seed: int | None = None
        self._bots: dict[int, Any] = {}
        self._view: View | None = None

    # -- the Gymnasium API ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = (options or {}).get("game_seed")
        if game_seed is None:
            game_seed = int(rng.integers(*self.game_seeds))
        elif not isinstance(game_seed, int) or isinstance(game_seed, bool) or game_seed < 0:
            raise DeathAngelError(f"options['game_seed'] must be a whole number, not {game_seed!r}")
        self._bots = seat_bots(self.others, self.other_seats, rng, self._strategies)
        forward = any(uses_forward_model(b) for b in self._bots.values())
        game = self.core.new_game(self.players, game_seed, forward=forward, checkpoints=False)
        self.game, self.game_seed = game, game_seed
        for seat, bot in self._bots.items():
            start_game(bot, (seat,), partial(game.observation, seat))
        self._play_others()
        view = self._look()
        return self._obs(view), self._info(view)

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        game, view = self.game, self._view
        if game is None or view is None:
            raise DeathAngelError("call reset() before step()")
        if game.decision is None:
            raise DeathAngelError("the game is over: call reset() to start another")
        try:
            option = self.core.option(view.legal, action)
        except IllegalActionError:
            legal = view.legal
            if self.illegal != "random" or legal is None:
                raise
            option = legal.decision.options[int(self.np_random.integers(len(legal.indices)))]
        game.push(option)
        self._play_others()
        new = self._look()
        terminated = game.decision is None
        reward = 1.0 if terminated and game.outcome == "victory" else 0.0
        if self.reward_kind == "progress":
            reward += progress_reward(view.travels, new.travels, new.deck)
        return self._obs(new), reward, terminated, False, self._info(new)

    def action_masks(self) -> NDArray[np.int8]:
        """The legal actions now, 1 each (sb3-contrib's MaskablePPO calls this)."""
        if self._view is None:
            raise DeathAngelError("call reset() before action_masks()")
        return self._view.mask.copy()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._view is None:
            return None
        return describe(self._view)

    # -- inside -----------------------------------------------------------------------------------

    @property
    def legal(self) -> LegalActions | None:
        """The pending decision's legal actions (index <-> option), if the agent decides."""
        return None if self._view is None else self._view.legal

    def _play_others(self) -> None:
        """Let the other seats' bots answer until the agent decides or the game ends."""
        game = self.game
        assert game is not None
        decision = game.decision
        agent = self.agent_seats
        while decision is not None and decision.seat not in agent:
            bot = self._bots[decision.seat]
            seat = decision.seat
            option = bot.choose(game.observation(seat) if observes(bot) else None, decision)
            if option not in decision.options:
                raise IllegalChoiceError(
                    f"strategy {self.others.text!r} (seat {seat}) chose {option!r}, which is not "
                    f"legal for {decision.kind}"
                )
            game.push(option)
            decision = game.decision
        if decision is None:
            outcome = game.outcome or "defeat"
            for seat, bot in self._bots.items():
                end_game(bot, outcome, partial(game.observation, seat))

    def _look(self) -> View:
        game = self.game
        assert game is not None
        decision = game.decision
        previous = self._view
        if decision is not None:
            seat = decision.seat
        elif previous is not None and previous.legal is not None:
            seat = previous.legal.decision.seat
        else:
            seat = min(self.agent_seats)
        self._view = view = self.core.view(game, seat)
        return view

    def _obs(self, view: View) -> Obs:
        return view.vector if self.flat else self.core.encoder.as_dict(view.vector)

    def _info(self, view: View) -> dict[str, Any]:
        return {
            "action_mask": view.mask,
            "seat": view.observation.seat,
            "game_seed": self.game_seed,
            "locations_reached": 1 + view.travels,
        }


def describe(view: View) -> str:
    """A few lines of text for ``render_mode="ansi"``: the deciding seat's view."""
    obs = view.observation
    st = obs.state
    table = obs.table
    lines = [
        f"round {st.round}, {st.phase}, {st.location_name(table)}; seat {obs.seat}; "
        f"blips {obs.counts.blips_left}/{obs.counts.blips_right}, supply {st.supply}"
    ]
    labels = table.gs_labels
    for row, pos in enumerate(st.formation, start=1):
        m = pos.marine
        left = " ".join(labels[c] for c in pos.swarms[0]) or "-"
        right = " ".join(labels[c] for c in pos.swarms[1]) or "-"
        arrow = ">" if m.facing else "<"
        lines.append(f"{row:2} {left:>24} | {arrow} {m.name} ({m.tokens}) {arrow} | {right}")
    decision = obs.decision
    if decision is not None:
        lines.append(f"seat {decision.seat} to answer: {decision.kind} {decision.prompt}".rstrip())
    elif st.outcome is not None:
        lines.append(f"the game is over: {st.outcome}")
    return "\n".join(lines) + "\n"
