"""The action table: fixed, pinned, and never two distinct options of one decision on one
index, over random games at every player count, with and without the shipped plugins."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from plugin_kit import SHIPPED, shipped_ruleset

from deathangel.engine.decisions import OPTION_ARGS, SLAY, Decision, Option
from deathangel.engine.game import Game, GameConfig, card_table, default_database
from deathangel.engine.state import CardTable
from deathangel.learning.actions import (
    ACTION_TABLE_VERSION,
    VERBS,
    ActionTable,
    ActionTableError,
    action_table,
    max_rows,
)

BASE_DIGEST = "576437ab2a1b6601dcc42c90f5e812b8b04805528a105af57af230ef25e3af61"
"""The base game's table, version 1. A change here is a format change: bump
ACTION_TABLE_VERSION and say so in docs/learning.md."""


def base_table() -> ActionTable:
    return action_table(default_database())


def test_the_base_table_is_pinned() -> None:
    table = base_table()
    assert ACTION_TABLE_VERSION == 1
    assert table.digest() == BASE_DIGEST
    assert table.size == 1144


def test_the_same_pool_gives_the_same_table_in_another_process() -> None:
    code = (
        "from deathangel.engine.game import default_database;"
        "from deathangel.learning.actions import ActionTable;"
        "from deathangel.engine.state import CardTable;"
        "print(ActionTable(CardTable(default_database())).digest())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
    )
    assert out.stdout.strip() == BASE_DIGEST


def test_the_table_lists_every_verb_of_the_engine() -> None:
    assert sorted(VERBS) == sorted(OPTION_ARGS)
    verbs = {entry[0] for entry in base_table().entries}
    assert verbs == set(VERBS)


def test_slots_range_over_the_pool() -> None:
    table = base_table()
    pool = table.pool
    assert len(pool.marines) == 12 and len(pool.cards) == 18 and len(pool.teams) == 6
    assert pool.rows == 12  # six players of one team, or three of two (RULES §3)
    assert pool.kinds == ("Brood Lord A", "Brood Lord B", "claw", "head", "tail", "tongue")
    attacks = [e for e in table.entries if e[0] == "attack"]
    assert len(attacks) == 12 * 2 * 12
    assert table.describe(table.index(Option("done"))) == "done"


def test_index_and_option_round_trip_for_a_decision() -> None:
    table = base_table()
    options = (Option("card", ("Block",)), Option("card", ("Lead by Example",)))
    legal = table.legal(Decision(1, "choose_action", options))
    assert len(set(legal.indices)) == 2
    for index, option in zip(legal.indices, options, strict=True):
        assert legal.option(index) == option
        assert table.describe(index) == f"card {option.args[0]}"
    assert legal.option(table.index(Option("done"))) is None


def test_yes_and_no_ignore_their_words() -> None:
    table = base_table()
    yes = table.index(Option("yes", ("roll",)))
    assert yes == table.index(Option("yes", ("look",))) == table.index(Option("yes"))
    assert yes != table.index(Option("no", ("roll the die",)))


def test_cards_of_one_kind_share_an_index_and_kinds_do_not() -> None:
    table = base_table()
    claw = table.index(Option("slay_at", (2, "left", "claw-1")))
    assert claw == table.index(Option("slay_at", (2, "left", "claw-7")))
    assert claw != table.index(Option("slay_at", (2, "left", "head-1")))
    assert claw != table.index(Option("slay_at", (3, "left", "claw-1")))


def test_an_option_outside_the_pool_is_refused_by_name() -> None:
    table = base_table()
    with pytest.raises(ActionTableError, match="Brother Nobody"):
        table.index(Option("marine", ("Brother Nobody",)))
    with pytest.raises(ActionTableError, match="fly"):
        table.index(Option("fly", ()))


def test_wounded_enemies_get_their_own_index() -> None:
    """Broodwake's Tunnel Burrower takes two hits: an unwounded and a wounded one in one
    swarm are different choices (CardTable.distinct keeps both)."""
    rules = shipped_ruleset("broodwake")
    cards = card_table(rules.db, rules.switches)
    table = action_table(cards)
    first, second = (cards.gs_by_label[f"Tunnel Burrower-{k}"] for k in (1, 2))
    options = (Option("slay", ("Tunnel Burrower-1",)), Option("slay", ("Tunnel Burrower-2",)))
    legal = table.legal(Decision(1, SLAY, options), {first: 1})
    assert len(set(legal.indices)) == 2
    assert table.describe(legal.indices[0]) == "slay Tunnel Burrower+1"
    assert legal.option(legal.indices[1]) == options[1]
    del second
    with pytest.raises(ActionTableError, match="share action"):
        table.legal(Decision(1, SLAY, options))  # the same kind, unwounded: one choice


def play_checking_indices(game: Game, table: ActionTable, rng: random.Random) -> int:
    """Play ``game`` with random choices, checking every decision's indices; decisions seen."""
    seen = 0
    decision = game.decision
    while decision is not None:
        legal = table.legal(decision, game.state.wounds)
        assert len(legal.by_index) == len(set(decision.options)), decision
        for index, option in zip(legal.indices, decision.options, strict=True):
            assert legal.option(index) == option
        seen += 1
        game.push(decision.options[int(rng.random() * len(decision.options))])
        decision = game.decision
    return seen


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_distinct_options_get_distinct_indices_in_random_games(players: int) -> None:
    table = base_table()
    rng = random.Random(players)
    seen = sum(
        play_checking_indices(
            Game(GameConfig(players, seed=seed), checkpoints=False, forward=False), table, rng
        )
        for seed in range(12)
    )
    assert seen > 12 * 30


@pytest.mark.parametrize("plugin", sorted(SHIPPED))
def test_a_plugin_extends_the_table_and_keeps_indices_distinct(plugin: str) -> None:
    rules = shipped_ruleset(plugin)
    cards = card_table(rules.db, rules.switches)
    table = action_table(cards)
    base = base_table()
    if plugin == "broodwake":
        assert table.size > base.size
        assert "Brother Aurelian" in table.pool.marines and "white" in table.pool.teams
        assert "Tunnel Burrower+1" in table.pool.genestealer_values()
    assert table.digest() == ActionTable(CardTable(rules.db)).digest()  # deterministic
    assert table.digest() != base.digest() or plugin == "variants"
    rng = random.Random(7)
    for players in range(1, 7):
        for seed in range(3):
            game = Game(GameConfig(players, seed=seed), ruleset=rules, checkpoints=False)
            play_checking_indices(game, table, rng)


def test_max_rows_reads_the_setup_locations() -> None:
    assert max_rows(default_database()) == 12
