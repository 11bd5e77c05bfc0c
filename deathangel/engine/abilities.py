"""Where card abilities attach to the engine: one method per timing window.

The engine calls these at fixed points of the round (RULES §6–§10). This base class gives the
rules with no card ability beyond the base actions, plus the terrain activations; the
abilities of action cards, events and locations plug in by overriding these windows, looked up
from tables built once per game (never a plugin call per die roll).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from deathangel.engine.decisions import Decision, Flow, Option, no_questions, option
from deathangel.engine.randomness import Roll
from deathangel.engine.state import SIDES, CardTable, GameState
from deathangel.readonly import ReadOnlyDict, Sealed

if TYPE_CHECKING:
    from deathangel.cards.model import Event, Location

SLAIN = "slain"
MISS = "miss"
COUNTER = "counter"
"""Verdicts of a defence roll: the marine dies, the attack misses, or it misses and the
marine strikes back (one attacker slain, the rest attack again)."""


class RulesEngine(Protocol):
    """What the base windows and terrain activations use of the engine.

    A protocol rather than the engine class itself, because the engine is built on these
    windows: naming it here would make the two modules import each other.
    """

    state: GameState
    table: CardTable
    abilities: Abilities[Any]

    def note(self, line: str) -> None: ...
    def roll_plain(self, reason: str, result: Callable[[Roll], str] | None = None) -> Roll: ...
    def kill_marine(self, name: str, why: str) -> None: ...
    def is_protected(self, swarm: Sequence[int]) -> bool: ...
    def discard_genestealers(self, cards: Sequence[int], *, slain: bool = True) -> None: ...
    def check_end(self, engaged_with_fallen: int = 0) -> None: ...


E = TypeVar("E", bound=RulesEngine)
"""The engine type a set of abilities is written against (card abilities use the full
:class:`~deathangel.engine.rounds.Engine`)."""

TerrainEffect = Callable[[Any, str, str], Flow]
"""A terrain activation: (engine, activating marine, terrain name) → decisions it asks."""


class Abilities(Sealed, Generic[E]):
    """The base rules' behaviour at every timing window.

    Shared with every player (an observation carries its game's abilities, for a forward
    model), so a game freezes it (:meth:`freeze`) before its first decision.
    """

    def __init__(self) -> None:
        self.terrain_effects: dict[str, TerrainEffect] = {
            DOOR_EFFECT: door_token,
            "seal_chimney": seal_chimney,
            "promethium_blast": promethium_blast,
        }

    def freeze(self) -> None:
        """Make every table read-only and refuse new attributes: called once built, before
        anything is shared (idempotent)."""
        if getattr(self, "_sealed", False):
            return
        for name, value in vars(self).items():
            if type(value) is dict:
                object.__setattr__(self, name, ReadOnlyDict(value))
        self.seal()

    # -- Choose Actions -------------------------------------------------------------------------

    def barred_actions(self, engine: E, team: str) -> frozenset[str]:
        """Action cards a team may not choose this round beyond last round's card."""
        return frozenset()

    # -- Resolve Actions ------------------------------------------------------------------------

    def after_support(self, engine: E, team: str, card: str) -> Flow:
        """After a Support card's token is placed."""
        return no_questions()

    def before_move_activate(self, engine: E, team: str, card: str) -> Flow:
        """Before a Move + Activate card's move step."""
        return no_questions()

    def swap_options(self, engine: E, team: str, card: str, swapped: set[str]) -> list[Option]:
        """Swaps the team may make now: each marine one own swap, with a neighbour (§6.2)."""
        formation = engine.state.formation
        options = []
        last = len(formation) - 1
        for row, pos in enumerate(formation):
            marine = pos.marine
            if marine.team != team or marine.name in swapped:
                continue
            if row > 0:
                options.append(option("swap", marine.name, formation[row - 1].marine.name))
            if row < last:
                options.append(option("swap", marine.name, formation[row + 1].marine.name))
        return options

    def can_activate(self, engine: E, terrain: str) -> bool:
        """Whether the terrain card has an activation the engine can perform."""
        card = engine.table.terrain[terrain]
        return (
            card.activatable
            and card.effect is not None
            and card.effect.name in self.terrain_effects
        )

    def activate_terrain(self, engine: E, team: str, card: str, marine: str, terrain: str) -> Flow:
        """Perform a terrain card's activation for ``marine``."""
        effect = engine.table.terrain[terrain].effect
        assert effect is not None
        return self.terrain_effects[effect.name](engine, marine, terrain)

    def after_move_activate(self, engine: E, team: str, card: str) -> Flow:
        """After a Move + Activate card's three steps."""
        return no_questions()

    def attackers_limit(self, engine: E, team: str) -> int | None:
        """How many of the team's marines may attack with its Attack card (``None``: all)."""
        return None

    def attacks_allowed(self, engine: E, card: str | None, marine: str) -> int:
        """How many attacks ``marine`` may make with ``card``."""
        return 1

    def special_attack_options(self, engine: E, card: str | None, marine: str) -> list[Option]:
        """Options other than a normal attack that use up one of the marine's attacks."""
        return []

    def special_attack(self, engine: E, card: str | None, option: Option) -> Flow:
        """Carry out an option from :meth:`special_attack_options`."""
        return no_questions()

    def attack_kills(self, engine: E, card: str | None, marine: str, roll: Roll) -> int:
        """How many genestealers an attack roll slays: one on a skull (§6.3)."""
        return 1 if roll.skull else 0

    def attack_chains(self, engine: E, card: str | None, marine: str, roll: Roll) -> bool:
        """Whether the marine may attack again at once after this roll."""
        return False

    def after_attack(self, engine: E, team: str, card: str) -> Flow:
        """After an Attack card's attacks."""
        return no_questions()

    def genestealer_slain(self, engine: E, card: int, by: str | None) -> Flow:
        """Told of every genestealer slain, and by which marine if one slew it."""
        return no_questions()

    # -- Genestealer Attack ---------------------------------------------------------------------

    def defence(
        self, engine: E, marine: str, side: int, roll: Roll, verdict: str
    ) -> Generator[Decision, Option, str]:
        """The verdict of a defence roll after defence abilities (:data:`SLAIN`, :data:`MISS`
        or :data:`COUNTER`); the base rules keep the verdict of the dice."""
        return no_questions(verdict)

    # -- Event ----------------------------------------------------------------------------------

    def event_ability(self, engine: E, event: Event) -> Flow:
        """An Event card's ability, before its spawn boxes."""
        return no_questions()

    def spawn_limit(self, engine: E, terrain: str, count: int) -> int:
        """How many may spawn at this terrain card now (Core Cogitator lowers it)."""
        return count

    def end_of_event(self, engine: E) -> Flow:
        """After the move box and merging, before the Event phase's travel check."""
        return no_questions()

    def end_round(self, engine: E) -> None:
        """Round cleanup: effects that last 'this round' expire."""

    # -- Travel and game end --------------------------------------------------------------------

    def on_entering(self, engine: E, location: Location) -> Flow:
        """A location's on-entering ability (travel step 4)."""
        return no_questions()

    def extra_victory(self, engine: E, location: Location) -> bool:
        """A final location's own victory condition, besides clearing it."""
        return False


# -- terrain activations (RULES §6.2 step 3) ----------------------------------------------------


def _faces(faces: Sequence[int]) -> str:
    """``[0]`` -> ``"a 0"``, ``[0, 1]`` -> ``"a 0 or 1"``: die faces a rule reads."""
    return "a " + " or ".join(str(f) for f in faces)


def _terrain_at(engine: RulesEngine, name: str) -> tuple[int, int, int] | None:
    """(row, side, index in that side's list) of the named terrain card in the formation."""
    for row, pos in enumerate(engine.state.formation):
        for side in (0, 1):
            for i, t in enumerate(pos.terrain[side]):
                if t.name == name:
                    return row, side, i
    return None


DOOR_EFFECT = "door_token"
"""The effect that makes a terrain card a Door: activating it puts a support token on it, and
its tokens slay genestealers before travel (RULES §10 step 1). Both halves belong to the card,
so a terrain card of any name with this effect is a Door."""


def is_door(table: CardTable, terrain: str) -> bool:
    """Whether the terrain card of that name is a Door (see :data:`DOOR_EFFECT`)."""
    effect = table.terrain[terrain].effect
    return effect is not None and effect.name == DOOR_EFFECT


def door_token(engine: RulesEngine, marine: str, terrain: str) -> Flow:
    """Door: one support token from the supply onto the Door (none if the supply is empty)."""
    st = engine.state
    where = _terrain_at(engine, terrain)
    if where is not None and st.supply > 0:
        row, side, i = where
        st.formation[row].terrain[side][i].tokens += 1
        st.supply -= 1
        engine.note(f"a support token is placed on the {terrain}")
    return no_questions()


def seal_chimney(engine: RulesEngine, marine: str, terrain: str) -> Flow:
    """Spore Chimney: roll (not an attack: no reroll); on a skull the card is discarded."""
    roll = engine.roll_plain(
        f"{marine} tries to seal the {terrain}",
        lambda r: "a skull: sealed" if r.skull else "no skull: it stays open",
    )
    where = _terrain_at(engine, terrain)
    if roll.skull and where is not None:
        row, side, i = where
        del engine.state.formation[row].terrain[side][i]
        engine.note(f"the {terrain} is discarded")
    return no_questions()


def promethium_blast(engine: RulesEngine, marine: str, terrain: str) -> Flow:
    """Promethium Tank: discard it, slay every genestealer at its row (both sides), then roll;
    on a death face the activating marine is slain."""
    st = engine.state
    where = _terrain_at(engine, terrain)
    if where is None:
        return
    row, side, i = where
    pos = st.formation[row]
    tokens = pos.terrain[side][i].tokens
    st.supply += tokens
    del pos.terrain[side][i]
    for s in (0, 1):
        victims = pos.swarms[s]
        if victims and not engine.is_protected(victims):
            pos.swarms[s] = []
            engine.note(f"the {terrain} burns {len(victims)} genestealer(s) {SIDES[s]}")
            engine.discard_genestealers(victims)
            for card in victims:
                yield from engine.abilities.genestealer_slain(engine, card, None)
            engine.check_end()
    effect = engine.table.terrain[terrain].effect
    faces = effect.params.get("faces", [0]) if effect is not None else [0]
    roll = engine.roll_plain(
        f"{marine} survives the {terrain} blast?",
        lambda r: f"{_faces(faces)} kills: " + ("he is slain" if r.face in faces else "he lives"),
    )
    if roll.face in faces:
        engine.kill_marine(marine, f"caught in the {terrain} blast")
