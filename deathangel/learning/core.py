"""What the three environments share: a ruleset, its action table and encoder, and one seat's
view of a game as arrays.

:class:`Core` is built once per environment (the tables behind it once per card pool). For a
game and a seat, :meth:`Core.view` asks the game for that seat's
:class:`~deathangel.engine.observation.Observation` — the honest snapshot, never the game — and
turns it into the encoded vector, the legal actions and their mask. Everything learning reads
about a game goes through that one call, so the honesty of all three environments rests on
the engine's observation and on the encoder reading nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test
    from deathangel.learning.extra import missing_extra

    raise missing_extra(exc) from None

from deathangel.engine.game import Game, GameConfig, card_table
from deathangel.learning.actions import ActionTable, IllegalActionError, LegalActions, whole_index
from deathangel.learning.encoding import Encoder, encoder
from deathangel.plugins.ruleset import VariantsArg, load_ruleset

if TYPE_CHECKING:
    from deathangel.engine.decisions import Decision, Option
    from deathangel.engine.observation import Observation
    from deathangel.engine.ruleset import Ruleset

REWARDS = ("win", "progress")
"""``win``: +1 when the marines win, else 0. ``progress``: the same, plus
:data:`PROGRESS_SHARE` spread over the travels to each new location."""

PROGRESS_SHARE = 0.5
"""With ``reward="progress"``, what all the travels of a game are worth together: reaching
the final location adds this much, spread evenly over the location deck's cards, so a win
still outweighs every travel bonus."""


class View:
    """One seat's view of a game at one moment, as arrays. (A plain class with slots: one is
    made every step, and a frozen attrs class measured several times slower to build.)"""

    __slots__ = ("deck", "legal", "mask", "observation", "travels", "vector")

    def __init__(
        self,
        vector: NDArray[np.float32],
        mask: NDArray[np.int8],
        legal: LegalActions | None,
        observation: Observation,
        travels: int,
        deck: int,
    ) -> None:
        self.vector = vector
        """The encoded observation (a new array, owned by the caller)."""
        self.mask = mask
        """1 for each legal action of the seat's pending decision; all 0 when the seat has
        none to answer (another seat decides, or the game is over)."""
        self.legal = legal
        """The legal actions, when this seat is the one to decide."""
        self.observation = observation
        self.travels = travels
        """Travels made so far, read from the observation (the location deck's public
        size)."""
        self.deck = deck
        """Cards the location deck started with."""


class Core:
    """A ruleset with its action table and encoder."""

    def __init__(
        self,
        *,
        plugins: Iterable[str] = (),
        variants: VariantsArg = (),
        ruleset: Ruleset | None = None,
    ) -> None:
        self.ruleset = ruleset if ruleset is not None else load_ruleset(plugins, variants=variants)
        self.table = card_table(self.ruleset.db, self.ruleset.switches)
        self.encoder: Encoder = encoder(self.table)
        self.actions: ActionTable = self.encoder.actions
        self.size = self.actions.size

    def new_game(self, players: int, seed: int, *, forward: bool, checkpoints: bool) -> Game:
        """A game of ``players`` seats with this ruleset, at its first decision."""
        return Game(
            GameConfig(players, seed=seed),
            ruleset=self.ruleset,
            checkpoints=checkpoints,
            forward=forward,
        )

    def view(self, game: Game, seat: int) -> View:
        """What ``seat`` may know of ``game`` now, encoded, with its legal actions."""
        obs = game.observation(seat)
        decision = obs.decision
        mask = np.zeros(self.size, dtype=np.int8)
        legal = None
        if decision is not None and decision.seat == seat:
            legal = self.actions.legal(decision, obs.state.wounds)
            mask[legal.indices] = 1
        st = obs.state
        setup = st.setup_location
        deck = len(setup.location_deck) if setup is not None else 0
        travels = deck - obs.counts.location_deck if st.phase != "setup" else 0
        return View(self.encoder.encode(obs), mask, legal, obs, travels, deck)

    def option(self, legal: LegalActions | None, action: Any) -> Option:
        """The option a chosen action index stands for now.

        :raises IllegalActionError: quoting the index, what it means in the table, the
            decision and the legal indices, for anything else; nothing has changed.
        """
        index = whole_index(action)
        if index is None:
            raise IllegalActionError(
                f"action {action!r} is not an action index (a whole number 0-{self.size - 1})"
            )
        option = legal.option(index) if legal is not None else None
        if option is None:
            raise IllegalActionError(self._illegal(legal, action))
        return option

    def _illegal(self, legal: LegalActions | None, action: Any) -> str:
        if legal is None:
            return f"action {action!r} given, but there is no decision to answer"
        decision: Decision = legal.decision
        shown = ", ".join(f"{i} ({o})" for i, o in sorted(legal.by_index.items())[:8])
        more = ", ..." if len(legal.by_index) > 8 else ""
        return (
            f"action {action!r} ({self.actions.describe(int(action))}) is not legal for "
            f"{decision.kind} (seat {decision.seat}); legal: {shown}{more}"
        )


def progress_reward(before: int, after: int, deck: int) -> float:
    """The shaping ``reward="progress"`` adds for travels made between two views."""
    if after <= before or deck <= 0:
        return 0.0
    return PROGRESS_SHARE * (after - before) / deck
