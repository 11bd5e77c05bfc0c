"""When a swarm's attack slays its marine (RULES §7), written once.

The printed rule: the marine is slain when the face rolled, minus 1 per Brood Lord in the
swarm, is at most the number of cards in the swarm. Two things a game may change feed into
it: an expansion's enemy card may count for more (or less) than one card (its ``weight``), and
a rule variant may shift the line (the ``defence_margin`` switch). The Genestealer Attack
phase applies the verdict through these functions, and so does every bot that judges danger
(the search's position value, the rule set's kill chances, MCTS's trivial rerolls): an
expansion or a variant then changes what the bots think exactly as it changes the game,
instead of each keeping its own copy of the rule that drifts from it.

Plain functions on small numbers: the attack phase calls them at every defence roll and the
bots at every decision, on swarms they imagine as well as real ones.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from deathangel.engine.randomness import DIE_FACES, FACE_COUNT

if TYPE_CHECKING:
    from deathangel.engine.state import CardTable

_NONE: frozenset[int] = frozenset()

_FACES_UP_TO = tuple(sum(1 for f in DIE_FACES if f <= top) for top in range(-1, 64))
"""How many die faces are at most ``top``, at index ``top + 1`` (from -1 up): the common
case of :func:`kill_chance`, a table lookup instead of a loop over the faces."""

SLAY_CHANCE = tuple(n / FACE_COUNT for n in _FACES_UP_TO)
""":func:`kill_chance` with no miss faces, at index ``highest_slaying_face + 1`` clamped to
``0..64``: the same divisions done once, for the bots that judge every swarm at every decision
(the rule set's kill chances read it inline, without a call per swarm)."""


def swarm_strength(table: CardTable, cards: Sequence[int]) -> tuple[int, int]:
    """``(size, lords)`` of a swarm as its attack counts them: every card, an enemy card by
    its weight; and the Brood Lords among them, each taking 1 off the roll."""
    is_lord = table.is_brood_lord
    lords = sum(1 for c in cards if is_lord(c))
    size = len(cards) if table.gs_weight is None else table.swarm_size(cards)
    return size, lords


def highest_slaying_face(size: int, lords: int, margin: int) -> int:
    """The highest face with which a swarm of ``size`` holding ``lords`` Brood Lords slays:
    slain when face − lords ≤ size + margin, that is face ≤ size + lords + margin."""
    return size + lords + margin


def slays(face: int, size: int, lords: int, margin: int) -> bool:
    """The verdict on a defence roll showing ``face`` (before any ability acts on it)."""
    return face <= highest_slaying_face(size, lords, margin)


def kill_chance(size: int, lords: int, margin: int, miss: Collection[int] = _NONE) -> float:
    """Chance that one roll of a swarm's attack slays: the faces that slay, less those an
    ability makes miss (``miss``: Block, Counter Attack, Second Wind), over all faces. An empty
    swarm never attacks."""
    if size <= 0:
        return 0.0
    top = highest_slaying_face(size, lords, margin)
    if not miss:
        return SLAY_CHANCE[max(-1, min(top, 63)) + 1]
    return sum(1 for f in DIE_FACES if f <= top and f not in miss) / FACE_COUNT
