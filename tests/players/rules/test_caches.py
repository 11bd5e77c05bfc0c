"""The rules policy's caches across decisions follow the card table they were made for.

They used to be keyed by ``id(table)``: once a table was freed, a new table built at the same
address (CPython reuses freed addresses at once) was handed the old table's spawn weights and
Event move chances. Runs that build tables from different databases in turn (a designer's
``balance`` run, a tuner) would then score options with another card pool's figures.
"""

from __future__ import annotations

import gc
from types import SimpleNamespace

import attrs

from deathangel.cards import load_base
from deathangel.cards.model import CardDatabase
from deathangel.engine.state import CardTable
from deathangel.players.rules.features import Situation

POOL = [0, 1, 2]
TABLES = 40


def by_hand(table: CardTable) -> tuple[dict[str, float], dict[tuple[str, str], float]]:
    """Mean genestealers per terrain colour (a major or a minor box counts 1 without a setup
    card's sizes), and the chance of each move box, over the pool's Event cards."""
    weights: dict[str, float] = {}
    moves: dict[tuple[str, str], float] = {}
    for e in POOL:
        event = table.events[e]
        for box in event.spawns:
            weights[box.color] = weights.get(box.color, 0.0) + 1 / len(POOL)
        if event.move is not None:
            key = (event.move.kind, event.move.icon)
            moves[key] = moves.get(key, 0.0) + 1 / len(POOL)
    return weights, moves


def read_caches(db: CardDatabase) -> None:
    """Build ``TABLES`` tables of ``db`` at once, check what the policy reads for each, free
    them all (so the next database's tables are built at their addresses)."""
    tables = [CardTable(db) for _ in range(TABLES)]
    for table in tables:
        me = SimpleNamespace(
            table=table,
            st=SimpleNamespace(setup_location=None),
            scouted=None,
            _pool=(POOL, frozenset(POOL)),
        )
        weights, moves = by_hand(table)
        got = Situation._weights(me, POOL, frozenset(POOL))  # type: ignore[arg-type]
        assert got.keys() == weights.keys()
        assert all(abs(got[c] - weights[c]) < 1e-12 for c in weights)
        chances = Situation.move_chances.func(me)
        assert chances.keys() == moves.keys()
        assert all(abs(chances[m] - moves[m]) < 1e-12 for m in moves)
    del tables, me
    gc.collect()


def test_cached_figures_follow_the_table_not_its_address() -> None:
    base = load_base()
    reordered = attrs.evolve(base, events=tuple(reversed(base.events)))
    # The two pools differ, so a figure cached for the other database would be caught.
    assert by_hand(CardTable(base)) != by_hand(CardTable(reordered))
    for db in (base, reordered, base, reordered):
        read_caches(db)
