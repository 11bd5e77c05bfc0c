"""RULES §7's verdict in one place (:mod:`deathangel.engine.defence`), against answers worked
out by hand: slain when the face minus the Brood Lords is at most the swarm's size (plus a
variant's margin), an enemy card counting its weight; the chance of that on one roll of the
six-faced die (faces 0–5), less the faces an ability makes miss."""

from __future__ import annotations

import pytest
from support import table

from deathangel.engine.defence import kill_chance, slays, swarm_strength
from deathangel.engine.game import card_table
from deathangel.plugins.ruleset import load_ruleset

T = table()


def cards(*labels: str, tables=T) -> list[int]:  # type: ignore[no-untyped-def]
    return [tables.gs_by_label[label] for label in labels]


@pytest.mark.parametrize(
    ("size", "lords", "margin", "miss", "expected"),
    [
        # Two cards slay on 0, 1, 2: 3 faces of 6.
        (2, 0, 0, (), 3 / 6),
        # Second Wind (a 0 misses, RULES §14.13): 1 and 2 are left.
        (2, 0, 0, (0,), 2 / 6),
        # A card and a Brood Lord slay up to 1 + 1 = 2, but Block makes 1 and 2 miss: only 0.
        (1, 1, 0, (1, 2), 1 / 6),
        # Four cards and two Brood Lords slay on anything up to 6, that is every face; a miss
        # on 5 leaves 0-4.
        (4, 2, 0, (5,), 5 / 6),
        # Five cards: every face slays; 0 and 5 made to miss leave 1-4.
        (5, 0, 0, (0, 5), 4 / 6),
        # A miss face above the slaying ones changes nothing: three cards slay on 0-3.
        (3, 0, 0, (4, 5), 4 / 6),
        # Easier defence (margin −1): three cards slay on 0-2; Second Wind leaves 1 and 2.
        (3, 0, -1, (0,), 2 / 6),
        # Harder defence (+1): one card slays on 0-2.
        (1, 0, 1, (), 3 / 6),
        # A margin of −2 under one card: nothing slays (the top face is −1).
        (1, 0, -2, (), 0.0),
        # An empty swarm never attacks, whatever the margin.
        (0, 0, 5, (), 0.0),
    ],
)
def test_kill_chance_by_hand(
    size: int, lords: int, margin: int, miss: tuple[int, ...], expected: float
) -> None:
    assert kill_chance(size, lords, margin, frozenset(miss)) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("face", "size", "lords", "margin", "slain"),
    [
        (3, 3, 0, 0, True),  # equal to the size: slain (RULES §7)
        (4, 3, 0, 0, False),
        (4, 3, 1, 0, True),  # 4 − 1 Brood Lord = 3
        (5, 2, 2, 0, False),  # 5 − 2 = 3 > 2 (Brood Lord penalties add up, FAQ)
        (3, 3, 0, -1, False),  # easier: equal survives
        (4, 3, 0, 1, True),  # harder: one above slays
    ],
)
def test_the_verdict(face: int, size: int, lords: int, margin: int, slain: bool) -> None:
    assert slays(face, size, lords, margin) is slain


def test_a_swarm_counts_its_cards_and_its_brood_lords() -> None:
    assert swarm_strength(T, cards("claw-1", "tail-2", "Brood Lord A")) == (3, 1)
    assert swarm_strength(T, cards("Brood Lord A", "Brood Lord B")) == (2, 2)
    assert swarm_strength(T, []) == (0, 0)


def test_an_enemy_card_counts_its_weight_and_is_no_brood_lord() -> None:
    from plugin_kit import shipped_module

    rules = load_ruleset(extra=[shipped_module("broodwake")])
    tables = card_table(rules.db)
    # A Tunnel Burrower weighs 2 (broodwake's enemies.toml): with a claw, 3; no Brood Lord.
    swarm = cards("Tunnel Burrower-1", "claw-1", tables=tables)
    assert swarm_strength(tables, swarm) == (3, 0)
    swarm = cards("Tunnel Burrower-1", "Brood Lord A", tables=tables)
    assert swarm_strength(tables, swarm) == (3, 1)
