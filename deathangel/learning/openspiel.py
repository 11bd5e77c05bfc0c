"""The OpenSpiel game ``python_deathangel``, registered when this module is imported.

``pyspiel.load_game("python_deathangel", {"players": 3})`` after
``import deathangel.learning.openspiel``. Parameters: ``players`` (1–6), ``seed`` (where the
deals of successive initial states come from), ``plugins`` and ``variants`` (comma-separated,
as ``--with`` and ``--variant``).

The game type, stated as it is:

- **sequential**, one decision at a time: even the secret choice of action cards is asked
  seat by seat, each blind to the others' (RULES §5);
- **imperfect information**: a player sees what its seat may know (its
  :class:`~deathangel.engine.observation.Observation`), never deck orders, blip contents or
  another seat's face-down card;
- **sampled stochastic**: cards and dice are drawn inside ``apply_action`` from the game's
  own random streams (seeded per initial state), not offered as chance nodes. The engine
  shuffles and rolls in the middle of resolving one answer (a Heroic Charge rolls, slays,
  reshuffles a deck...), with no point at which it could hand control back to a chance
  player, so explicit chance would need a second engine. A clone carries the same streams,
  so it replays the same future: a search over clones of the *real* state would see the
  future dice and the hidden cards. :meth:`DeathAngelState.resample_from_infostate` gives an
  honest one instead: a game dealt at random consistent with what a seat knows
  (:func:`deathangel.engine.forward.determinize`), with fresh dice;
- **identical rewards**: the game is co-operative, every player gets 1 when the marines win
  and 0 otherwise, at the end only (terminal rewards).

Tensors and strings come from the same honest encoding the Gymnasium and PettingZoo
environments use (:mod:`.encoding`). The information state is that snapshot plus the
decisions the seat saw made (another seat's face-down card hidden until the reveal); it is
not perfect recall in OpenSpiel's strict sense — past die faces are summed up in the state,
not listed — so algorithms that need perfect recall (tabular CFR) would merge some
information sets.

Serialisation: OpenSpiel serialises Python game states by pickling them, and this project
never exchanges pickles; :meth:`DeathAngelState.to_json` and :meth:`DeathAngelGame.state_from_json`
save and restore a state as its config and decisions (the form of a save file), JSON.
"""

from __future__ import annotations

import json
import random
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from deathangel.learning.extra import missing_extra

    raise missing_extra(exc) from None

from deathangel.engine.decisions import CHOOSE_ACTION, Option
from deathangel.engine.forward import determinize
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.observation import Observation, observe
from deathangel.engine.ruleset import Ruleset
from deathangel.engine.state import MAX_PLAYERS, MIN_PLAYERS
from deathangel.errors import DeathAngelError, SaveFileError
from deathangel.learning.actions import LegalActions
from deathangel.learning.core import Core

GAME_NAME = "python_deathangel"

MAX_GAME_LENGTH = 5000
"""An upper bound on decisions per game for OpenSpiel's bookkeeping. The rules set no bound;
the longest of 6,000 random games at 1–6 players took 292 decisions (docs/learning.md)."""

DEFAULTS: dict[str, Any] = {"players": 1, "seed": 0, "plugins": "", "variants": ""}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Space Hulk: Death Angel (deathangel)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.IDENTICAL,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)

Seen = tuple[int, str, int, Option]
"""A decision as the table saw it made: (seat, kind, round, option)."""


def _names(text: str) -> list[str]:
    return [part.strip() for part in str(text).split(",") if part.strip()]


class DeathAngelGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """Death Angel for 1–6 players (the ``players`` parameter)."""

    def __init__(self, params: dict[str, Any] | None = None, *, ruleset: Ruleset | None = None):
        """``ruleset`` plays with a ruleset made in Python (a plugin not installed), instead of
        the ``plugins`` and ``variants`` parameters."""
        values = {**DEFAULTS, **(params or {})}
        players = int(values["players"])
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise DeathAngelError(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, not {players!r}")
        self.core = Core(
            plugins=_names(values["plugins"]),
            variants=_names(values["variants"]),
            ruleset=ruleset,
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=self.core.size,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, values)
        self.players = players
        self._deals = np.random.default_rng(int(values["seed"]))

    def new_initial_state(self, game_seed: int | None = None) -> DeathAngelState:
        """A new game: its seed drawn from the game's generator (the ``seed`` parameter)
        when the state is first used, or ``game_seed`` (the game ``deathangel simulate
        --seed`` plays)."""
        return DeathAngelState(self, game_seed)

    def next_game_seed(self) -> int:
        return int(self._deals.integers(2**63))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> DeathAngelObserver:
        return DeathAngelObserver(self, iig_obs_type, params)

    def state_from_json(self, text: str) -> DeathAngelState:
        """A state from :meth:`DeathAngelState.to_json`: its config replayed with its
        decisions (each checked legal).

        :raises SaveFileError: for text that is not such a state, or a decision the rules
            do not allow.
        """
        try:
            data = json.loads(text)
            config = GameConfig.from_dict(data["config"])
            codes = data["decisions"]
        except (ValueError, KeyError, TypeError) as exc:
            raise SaveFileError(f"not a python_deathangel state: {exc}") from None
        if config.players != self.players:
            raise SaveFileError(
                f"the state has {config.players} player(s), the game {self.players}"
            )
        state = DeathAngelState(self, config.seed)
        for i, code in enumerate(codes):
            try:
                state.apply_option(Option.from_code(code))
            except (ValueError, DeathAngelError) as exc:
                raise SaveFileError(f"decision {i + 1}: {exc}") from None
        return state


class _Box:
    """The game behind a state, with what cloning it needs. OpenSpiel clones a Python state
    by deep-copying its attributes: the box's deep copy is a clone of its game (a cheap
    replay from the round start, or for a resampled game a new deal from the same seed with
    the same decisions), never a copy of a running generator."""

    __slots__ = ("game", "pushed", "recipe", "seen")

    def __init__(
        self,
        game: Game,
        seen: list[Seen],
        recipe: tuple[Observation, int] | None = None,
        pushed: list[Option] | None = None,
    ) -> None:
        self.game = game
        self.seen = seen
        self.recipe = recipe
        """For a resampled game: the observation and seed it was dealt from."""
        self.pushed = pushed if pushed is not None else []
        """For a resampled game: the options applied since it was dealt."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        if self.recipe is None:
            return _Box(self.game.clone(), self.seen[:])
        observation, seed = self.recipe
        game = determinize(observation, random.Random(seed), forward=True)
        for option in self.pushed:
            game.push(option)
        return _Box(game, self.seen[:], self.recipe, self.pushed[:])

    def __reduce__(self) -> Any:
        raise DeathAngelError(
            "python_deathangel states are not pickled: use state.to_json() and "
            "game.state_from_json(text) (config and decisions, JSON)"
        )


class DeathAngelState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """A game of Death Angel in progress."""

    def __init__(self, game: DeathAngelGame, game_seed: int | None = None) -> None:
        super().__init__(game)
        # The game is made on first use: OpenSpiel makes a new initial state for every
        # clone and overwrites it at once, and that must cost nothing (nor draw a seed).
        self._box: _Box | None = None
        self._seed = game_seed
        self._legal: tuple[int, LegalActions] | None = None

    # -- the game behind the state ----------------------------------------------------------

    @property
    def box(self) -> _Box:
        box = self._box
        if box is None:
            spiel_game: DeathAngelGame = self.get_game()
            seed = self._seed if self._seed is not None else spiel_game.next_game_seed()
            # Forward-model records, so that resample_from_infostate can deal a game from a
            # seat's observation; round checkpoints, so that clones replay little.
            game = spiel_game.core.new_game(
                spiel_game.players, seed, forward=True, checkpoints=True
            )
            box = self._box = _Box(game, [])
        return box

    @property
    def game(self) -> Game:
        """The deathangel game (hidden parts included: for the environment, not players)."""
        return self.box.game

    def _core(self) -> Core:
        spiel_game: DeathAngelGame = self.get_game()
        return spiel_game.core

    def legal(self) -> LegalActions | None:
        """The pending decision's legal actions (index <-> option)."""
        game = self.game
        decision = game.decision
        if decision is None:
            return None
        cached = self._legal
        if cached is not None and cached[0] == len(game.history) and cached[1].decision is decision:
            return cached[1]
        legal = self._core().actions.legal(decision, game.state.wounds)
        self._legal = (len(game.history), legal)
        return legal

    # -- the OpenSpiel state protocol -------------------------------------------------------

    def current_player(self) -> int:
        decision = self.game.decision
        if decision is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return decision.seat - 1

    def _legal_actions(self, player: int) -> list[int]:
        legal = self.legal()
        if legal is None or legal.decision.seat != player + 1:
            return []
        return sorted(legal.by_index)

    def _apply_action(self, action: int) -> None:
        self.apply_option(self._core().option(self.legal(), action))

    def apply_option(self, option: Option) -> None:
        """Answer the pending decision with ``option`` (checked)."""
        box = self.box
        game = box.game
        decision = game.decision
        if decision is None or option not in decision.options:
            game.apply(option)  # raises the engine's IllegalChoiceError, with the legal ones
            return
        box.seen.append((decision.seat, decision.kind, game.state.round, option))
        game.push(option)
        if box.recipe is not None:
            box.pushed.append(option)

    def _action_to_string(self, player: int, action: int) -> str:
        legal = self.legal()
        option = legal.option(action) if legal is not None else None
        if option is not None:
            return str(option)
        return self._core().actions.describe(action)

    def is_terminal(self) -> bool:
        return self.game.decision is None

    def returns(self) -> list[float]:
        game = self.game
        won = game.decision is None and game.outcome == "victory"
        return [1.0 if won else 0.0] * game.config.players

    def __str__(self) -> str:
        box = self.box
        if box.recipe is not None:
            codes = [o.code() for o in box.pushed]
            return f"a resampled deal (seed {box.recipe[1]}), then {json.dumps(codes)}"
        return self.to_json()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> DeathAngelState:
        """A state consistent with everything ``player_id`` knows: the hidden cards and the
        other seats' face-down choices dealt at random, the future dice fresh; the same draw
        of ``probability_sampler`` gives the same state."""
        seed = int(float(probability_sampler()) * 2**53)
        observation = self.game.observation(player_id + 1)
        game = determinize(observation, random.Random(seed), forward=True)
        state = DeathAngelState(self.get_game())
        state._box = _Box(game, self.box.seen[:], (observation, seed))
        return state

    # -- as data ----------------------------------------------------------------------------

    def to_json(self) -> str:
        """The state as its config and decisions (JSON): :meth:`DeathAngelGame.state_from_json`
        rebuilds it. A resampled state is imagined, not a game: it refuses."""
        box = self.box
        if box.recipe is not None:
            raise DeathAngelError("a resampled state is an imagined deal; it has no save")
        game = box.game
        return json.dumps(
            {"config": game.config.to_dict(), "decisions": [o.code() for o in game.history]},
            separators=(",", ":"),
        )

    def seen_by(self, player: int) -> list[list[Any]]:
        """The decisions ``player`` saw made, in order: ``[seat, kind, option code]``, another
        seat's face-down action card as ``None`` until the reveal (RULES §5)."""
        game = self.game
        hidden = game.state.choices_hidden()
        now = game.state.round
        seat = player + 1
        return [
            [
                who,
                kind,
                None
                if hidden and kind == CHOOSE_ACTION and who != seat and round_ == now
                else option.code(),
            ]
            for who, kind, round_, option in self.box.seen
        ]


class DeathAngelObserver:
    """Observations and information states for OpenSpiel: the encoding of a seat's
    observation (tensor) and the observation as JSON (string), plus, for the information
    state, the decisions the seat saw made."""

    def __init__(self, game: DeathAngelGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"python_deathangel observers take no parameters, not {params!r}")
        self.encoder = game.core.encoder
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        private = getattr(iig_obs_type, "private_info", pyspiel.PrivateInfoType.SINGLE_PLAYER)
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_deathangel has no observer of every player's private view")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = self.encoder.as_dict(self.tensor)

    def _observation(self, state: DeathAngelState, player: int) -> Observation:
        game = state.game
        if self.public_only:
            return observe(game.state, game.table, None, game.decision)  # a spectator's view
        return game.observation(player + 1)

    def set_from(self, state: DeathAngelState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(self._observation(state, player))

    def string_from(self, state: DeathAngelState, player: int) -> str:
        view = self._observation(state, player).to_dict()
        if self.perfect_recall:
            view = {"view": view, "seen": state.seen_by(-1 if self.public_only else player)}
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


pyspiel.register_game(GAME_TYPE, DeathAngelGame)
