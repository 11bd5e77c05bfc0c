"""The player protocol: anything that answers a decision, given only what its seat may know.

A player has one required method, ``choose(observation, decision) -> Option``, returning one
of ``decision.options``. It receives an :class:`~deathangel.engine.observation.Observation`,
a snapshot value of what its seat may know, never the game. Optional, and looked up by name
so that any object with ``choose`` is a player:

- ``observes`` (class attribute, default true): a player that never reads the observation
  (the random bot) sets it false and is handed ``None``, which spares building a snapshot at
  every decision;
- ``uses_forward_model`` (default false): a player that calls
  :func:`deathangel.engine.forward.determinize` sets it true; the game then records what a
  forward model needs (a small cost every player would otherwise pay);
- ``start_game(seats, observation)`` and ``end_game(outcome, observation)``: hooks called
  once before the first and after the last decision, with the seats this player controls
  (one or several) and the first seat's view;
- ``replays_on_resume`` (default true): a resumed game asks such a player again at every
  past decision of its seats, so that a player whose choices depend on its own past (a
  random stream) picks up where it was. A player whose every choice depends only on its seed
  and the observation sets it false;
- ``check_table(table)``: a player that can play only some card pools (a trained policy knows
  the cards it was trained with) raises a one-line :class:`~deathangel.errors.DeathAngelError`
  for any other. The commands call it once with the games' card table before the first game
  (:func:`check_table`), so a tournament is refused whole rather than failing game by game.

Strategies are offered by name through the ``deathangel_strategies`` hook
(:mod:`deathangel.plugins.strategies`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable

    from deathangel.engine.decisions import Decision, Option
    from deathangel.engine.observation import Observation, PileCounts
    from deathangel.engine.state import CardTable, GameState


class Player(Protocol):
    """What a seat's controller must do."""

    def choose(self, observation: Observation | None, decision: Decision) -> Option:
        """Return one of ``decision.options``. ``observation`` is ``None`` only for a player
        that declares ``observes = False``."""
        ...


def observes(player: object) -> bool:
    """Whether ``player`` reads its observation (see the module docstring)."""
    return bool(getattr(player, "observes", True))


def uses_forward_model(player: object) -> bool:
    """Whether ``player`` determinizes observations (see the module docstring)."""
    return bool(getattr(player, "uses_forward_model", False))


def replays_on_resume(player: object) -> bool:
    """Whether a resumed game should ask ``player`` again at its past decisions."""
    return bool(getattr(player, "replays_on_resume", True))


def start_game(
    player: object, seats: tuple[int, ...], observation: Callable[[], Observation]
) -> None:
    """Call the player's optional ``start_game`` hook with ``observation()``: built only for
    a player that has the hook (a snapshot costs about a tenth of a random game)."""
    hook: Any = getattr(player, "start_game", None)
    if hook is not None:
        hook(seats, observation())


def end_game(player: object, outcome: str, observation: Callable[[], Observation]) -> None:
    """Call the player's optional ``end_game`` hook with ``observation()`` (built only then)."""
    hook: Any = getattr(player, "end_game", None)
    if hook is not None:
        hook(outcome, observation())


def check_table(player: object, table: CardTable) -> None:
    """Call the player's optional ``check_table`` hook with the card table its games use."""
    hook: Any = getattr(player, "check_table", None)
    if hook is not None:
        hook(table)


class View(Protocol):
    """What a bot's policy reads: the seat deciding and the table it may see. An
    :class:`~deathangel.engine.observation.Observation` fits, and so does a search's own view
    of a game it imagined (the rules and greedy policies read either)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def state(self) -> GameState: ...
    @property
    def table(self) -> CardTable: ...
    @property
    def counts(self) -> PileCounts: ...
