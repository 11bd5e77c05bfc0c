"""The action table: one fixed index for every option the engine can offer over a card pool.

A learning agent picks from a fixed ``Discrete(n)`` space; the engine offers a short list of
:class:`~deathangel.engine.decisions.Option` values per decision. The table joins the two: it
lists every option form of every verb of :data:`~deathangel.engine.decisions.OPTION_ARGS`, each
argument slot ranging over what the pool holds (marines, action cards, terrain, teams,
genestealer kinds, sides, formation positions, counts), so each option of any decision has an
index, and a decision's legal options are a boolean mask over the table.

Why the index is verb × argument slots and not decision kind × verb × slots: the decision
kind is in the observation (``decision`` field of :mod:`deathangel.learning.encoding`), so the
policy already knows what the question is; sharing one index between, say, "put the support
token on Brother Leon" and "Brother Leon is the target" keeps the space about 1,100 actions
instead of several thousand, and a plugin's ability that asks a new kind of question with
the engine's verbs needs no new table entry. The test over random games at 1–6 players (and
with the shipped plugins) checks what matters: the distinct options of any one decision
always get distinct indices.

How arguments map to slots:

- names (marine, other, card, team, terrain) range over the pool's names, sorted;
- ``genestealer`` is a label such as ``claw-3``; cards of one kind (and with as many wounds)
  are alike to every rule (:meth:`CardTable.distinct`), so the slot is the card's *kind*
  (``claw``, ``Brood Lord A``, an expansion's enemy type) with its wound count, never the copy;
- ``yes``/``no`` carry a free-text ``meaning`` for people: it is not a slot (a decision never
  offers two ``yes``), so each is one index;
- ``position`` ranges over 1..the most rows a formation of the pool can have, ``count`` over
  0..the supply's size (the most support tokens anything can spend).

Same pool, same table, in every process and version: the table depends only on the sorted
names of the pool and on :data:`VERBS`; :meth:`ActionTable.digest` hashes it, and a test pins
the base game's digest. Any change to the table's layout must bump
:data:`ACTION_TABLE_VERSION` (and the pinned digest), so a trained policy can refuse a table
it was not trained on.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from attrs import frozen

from deathangel.engine.decisions import OPTION_ARGS, Decision, Option
from deathangel.engine.state import SIDES, CardTable
from deathangel.errors import DeathAngelError, IllegalChoiceError

if TYPE_CHECKING:
    from deathangel.cards.model import CardDatabase

ACTION_TABLE_VERSION = 1
"""The layout of the action table. Bump it whenever the table an unchanged pool gives changes
(a verb added or reordered, a slot's domain changed): see ``docs/learning.md``."""

VERBS: tuple[str, ...] = (
    "card",
    "marine",
    "swap",
    "flip",
    "activate",
    "attack",
    "charge",
    "reroll",
    "keep",
    "slay",
    "slay_at",
    "take",
    "terrain",
    "pile",
    "target",
    "place",
    "team",
    "count",
    "top",
    "bottom",
    "yes",
    "no",
    "done",
)
"""The verbs in table order: written out, not read from ``OPTION_ARGS``, so that reordering
the engine's dict can never move an index silently (a test checks both list the same verbs)."""

FREE_TEXT = frozenset({"meaning"})
"""Argument slots that are words for people, not part of what an option does."""

Entry = tuple[str | int, ...]
"""One table entry: the verb, then one value per slot (a genestealer slot holds its kind, and
``"kind+N"`` for a card with N wounds)."""


class ActionTableError(DeathAngelError, ValueError):
    """An option the table has no index for, or two options of one decision sharing one."""


class IllegalActionError(IllegalChoiceError):
    """An action index that is not among the pending decision's legal actions; nothing
    changed (the index form of the engine's :class:`IllegalChoiceError`)."""


def max_rows(db: CardDatabase) -> int:
    """The most positions a formation of this pool can have: every marine of the teams in
    play at the largest player count (Rescue Space Marine only brings back a slain one)."""
    sizes = sorted((len(t.marines) for t in db.teams), reverse=True)
    most = 0
    for setup in db.setup_locations:
        for players in setup.players:
            teams = setup.teams_per_player.get(players, 0) * players
            most = max(most, sum(sizes[:teams]))
    return most


@frozen
class Pool:
    """What the table's slots range over, read once from a card pool."""

    marines: tuple[str, ...]
    teams: tuple[str, ...]
    cards: tuple[str, ...]
    """Action card names."""
    terrain: tuple[str, ...]
    kinds: tuple[str, ...]
    """Genestealer kinds: icons, enemy types and Brood Lords (what makes cards alike)."""
    toughness: tuple[int, ...]
    """Hits that slay a card of each kind (a kind with toughness t has wound counts 0..t-1)."""
    rows: int
    supply: int

    @classmethod
    def of(cls, table: CardTable) -> Pool:
        db = table.db
        kinds = sorted(set(table.gs_kinds))
        tough: dict[str, int] = {}
        for card, kind in enumerate(table.gs_kinds):
            hits = 1 if table.gs_toughness is None else table.gs_toughness[card]
            tough[kind] = max(tough.get(kind, 1), hits)
        return cls(
            marines=tuple(sorted(table.marines)),
            teams=tuple(sorted(t.color for t in db.teams)),
            cards=tuple(sorted(table.actions)),
            terrain=tuple(sorted(table.terrain)),
            kinds=tuple(kinds),
            toughness=tuple(tough[k] for k in kinds),
            rows=max_rows(db),
            supply=db.support_tokens,
        )

    def genestealer_values(self) -> tuple[str, ...]:
        """The genestealer slot's values: each kind, then its wounded states."""
        return tuple(
            kind if wounds == 0 else f"{kind}+{wounds}"
            for kind, tough in zip(self.kinds, self.toughness, strict=True)
            for wounds in range(tough)
        )

    def domain(self, slot: str) -> tuple[str | int, ...]:
        """The values one argument slot ranges over, in table order."""
        if slot in ("marine", "other"):
            return self.marines
        if slot == "card":
            return self.cards
        if slot == "team":
            return self.teams
        if slot == "terrain":
            return self.terrain
        if slot == "side":
            return SIDES
        if slot == "position":
            return tuple(range(1, self.rows + 1))
        if slot == "count":
            return tuple(range(self.supply + 1))
        if slot == "genestealer":
            return self.genestealer_values()
        raise ActionTableError(f"the action table has no domain for argument slot {slot!r}")


class LegalActions:
    """The legal options of one decision as table indices, in the decision's order."""

    __slots__ = ("by_index", "decision", "indices")

    def __init__(self, decision: Decision, indices: list[int]) -> None:
        self.decision = decision
        self.indices = indices
        """One index per option of ``decision.options``, in order (identical options, which a
        decision may repeat, share theirs)."""
        self.by_index = dict(zip(indices, decision.options, strict=True))
        """index -> the option it stands for in this decision."""

    def option(self, index: int) -> Option | None:
        """The option ``index`` stands for now, or ``None`` when it is not legal."""
        return self.by_index.get(index)


class ActionTable:
    """Every option form of a pool, indexed; built once per card pool (:func:`action_table`)."""

    def __init__(self, table: CardTable) -> None:
        self.pool = pool = Pool.of(table)
        entries: list[Entry] = []
        fast: dict[tuple[str, tuple[str | int, ...]], int] = {}
        plain: dict[str, int] = {}
        gs_slot: dict[str, int] = {}
        labels_of: dict[str, list[str]] = {}
        for label, kind in zip(table.gs_labels, table.gs_kinds, strict=True):
            labels_of.setdefault(kind, []).append(label)
        for verb in VERBS:
            slots = [s for s in OPTION_ARGS[verb] if s not in FREE_TEXT]
            if len(slots) < len(OPTION_ARGS[verb]):
                plain[verb] = len(entries)
            if "genestealer" in slots:
                gs_slot[verb] = slots.index("genestealer")
            for combo in itertools.product(*(pool.domain(s) for s in slots)):
                index = len(entries)
                entries.append((verb, *combo))
                if verb in plain:
                    continue
                if verb not in gs_slot:
                    fast[(verb, combo)] = index
                    continue
                at = gs_slot[verb]
                value = combo[at]
                if not isinstance(value, str) or value not in labels_of:
                    continue  # a wounded state: reached from the unwounded one by offset
                for label in labels_of[value]:
                    fast[(verb, (*combo[:at], label, *combo[at + 1 :]))] = index
        self.entries: tuple[Entry, ...] = tuple(entries)
        self.size = len(entries)
        self._fast = fast
        self._plain = plain
        self._gs_slot = gs_slot
        self._gs_by_label = table.gs_by_label
        # Genestealer is the last slot of every verb that has one, so a wound count is a
        # plain offset from the unwounded entry.
        assert all(at == len(OPTION_ARGS[v]) - 1 for v, at in gs_slot.items())

    def __len__(self) -> int:
        return self.size

    def digest(self) -> str:
        """SHA-256 of the layout version and every entry, in order: equal digests, same
        table."""
        h = hashlib.sha256(f"deathangel-action-table {ACTION_TABLE_VERSION}\n".encode())
        for entry in self.entries:
            h.update(json.dumps(list(entry), ensure_ascii=False).encode())
            h.update(b"\n")
        return h.hexdigest()

    def describe(self, index: int) -> str:
        """An entry in words, e.g. ``attack Brother Leon left 3``."""
        if not 0 <= index < self.size:
            return f"no action {index} (the table has {self.size})"
        return " ".join(str(v) for v in self.entries[index])

    def index(self, option: Option, wounds: Mapping[int, int] | None = None) -> int:
        """The table index of ``option``; ``wounds`` (the state's wound marks, public) places
        a wounded enemy card.

        :raises ActionTableError: for an option the pool's table has no entry for.
        """
        index = self._fast.get((option.verb, option.args))
        if index is None:
            index = self._plain.get(option.verb)
            if index is None:
                raise ActionTableError(
                    f"{option!r} has no entry in the action table (verb or argument not in "
                    "the card pool)"
                )
            return index
        if wounds and option.verb in self._gs_slot:
            card = self._gs_by_label[str(option.args[self._gs_slot[option.verb]])]
            index += wounds.get(card, 0)
        return index

    def legal(self, decision: Decision, wounds: Mapping[int, int] | None = None) -> LegalActions:
        """The decision's options as indices (``option -> index`` and back for this decision).

        :raises ActionTableError: when an option has no index, or two distinct options
            share one (the table would lose a choice).
        """
        fast = self._fast
        if wounds:
            indices = [self.index(o, wounds) for o in decision.options]
        else:
            indices = []
            for option in decision.options:
                # The common case inline: one dict look-up per option (measured: the mask's
                # cost is mostly this loop).
                index = fast.get((option.verb, option.args))
                indices.append(index if index is not None else self.index(option))
        legal = LegalActions(decision, indices)
        if len(legal.by_index) < len(indices):
            self._report_clash(decision, indices)
        return legal

    def _report_clash(self, decision: Decision, indices: Sequence[int]) -> None:
        seen: dict[int, Option] = {}
        for index, option in zip(indices, decision.options, strict=True):
            other = seen.setdefault(index, option)
            if other != option:
                raise ActionTableError(
                    f"options {other!r} and {option!r} of one decision ({decision.kind}, seat "
                    f"{decision.seat}) share action {index} ({self.describe(index)})"
                )


_TABLES: dict[int, tuple[CardDatabase, ActionTable]] = {}
"""Action tables by the ``id`` of their database (compared by value, too slow to hash); an
entry holds its database, so that ``id`` cannot be reused while the entry lives."""
_KEPT = 16
"""Databases whose action tables are kept."""


def whole_index(action: object) -> int | None:
    """``action`` as an action index if it is a whole number (``6``, ``6.0``, numpy's
    integers and floats), else ``None``: ``6.5`` and ``True`` are no index at all, and naming
    what ``int()`` makes of them would mislead."""
    if type(action).__name__ in ("bool", "bool_"):  # Python's, and numpy's (1.x and 2.x)
        return None
    try:
        index = int(action)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return None
    return index if index == action else None


def action_table(table: CardTable | CardDatabase) -> ActionTable:
    """The action table of a card pool (a game's :class:`CardTable` or its database), built
    once per database object."""
    db = table.db if isinstance(table, CardTable) else table
    entry = _TABLES.get(id(db))
    if entry is None or entry[0] is not db:
        cards = table if isinstance(table, CardTable) else CardTable(db)
        if len(_TABLES) >= _KEPT:
            # Forget the oldest: a long run that builds databases in turn keeps only a few.
            del _TABLES[next(iter(_TABLES))]
        entry = _TABLES[id(db)] = (db, ActionTable(cards))
    return entry[1]
