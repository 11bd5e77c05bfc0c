"""New enemy types (an expansion's ``[[enemy]]`` cards): dealt into the Genestealer deck with
their count, slain after as many hits as their toughness (a wound mark kept in the state until
then), weighing their weight in their swarm's attack (RULES §7), moving by their icons (§8.3),
and carrying a rule of their own when slain.

The expansion is a test plugin: two Hive Brutes (claw and head, toughness 2, weight 3) whose
rule writes down who slew one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from plugin_kit import plugin_module
from support import build_state, drive, make_engine

from deathangel.cards.catalogue import EffectSpec
from deathangel.engine.decisions import Flow, no_questions
from deathangel.engine.formation import move_swarms
from deathangel.engine.game import Game, GameConfig, card_table
from deathangel.engine.invariants import check_invariants
from deathangel.engine.ruleset import Ruleset
from deathangel.engine.state import LEFT, CardTable
from deathangel.players import RandomPlayer
from deathangel.plugins.ruleset import load_ruleset

BRUTES = """
[[enemy]]
name = "Hive Brute"
icons = ["claw", "head"]
count = 2
toughness = 2
weight = 3
text = "Two hits to slay; counts as three when its swarm attacks."
rule = { name = "brute_roars", note = "roar" }
"""

SLAIN: list[tuple[str, str | None, str]] = []


def brute_roars(engine: Any, card: int, by: str | None, params: Mapping[str, Any]) -> Flow:
    SLAIN.append((engine.table.gs_labels[card], by, params["note"]))
    return no_questions()


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    folder: Path = tmp_path_factory.mktemp("brutes")
    (folder / "enemies.toml").write_text(BRUTES, encoding="utf-8")
    plugin = plugin_module(
        "brutes",
        deathangel_card_dirs=lambda: [folder],
        deathangel_effects=lambda: [
            EffectSpec("brute_roars", "enemy_slain", {"note": "str"}, "writes it down")
        ],
        deathangel_effect_implementations=lambda: {"brute_roars": brute_roars},
    )
    return load_ruleset(extra=[plugin])


@pytest.fixture(scope="module")
def tables(rules: Ruleset) -> CardTable:
    return card_table(rules.db)


@pytest.fixture(autouse=True)
def clean() -> None:
    SLAIN.clear()


def test_enemy_cards_join_the_genestealer_deck_with_their_count(tables: CardTable) -> None:
    assert tables.deck_size == 36 + 2
    brutes = [tables.gs_by_label["Hive Brute-1"], tables.gs_by_label["Hive Brute-2"]]
    assert all(not tables.is_brood_lord(c) for c in brutes)
    assert tables.gs_icons[brutes[0]] == frozenset({"claw", "head"})
    assert tables.gs_toughness is not None and tables.gs_toughness[brutes[0]] == 2
    assert tables.gs_toughness[tables.gs_by_label["claw-1"]] == 1


def test_a_new_game_deals_them_like_genestealers(rules: Ruleset) -> None:
    game = Game(GameConfig(1, seed=4), ruleset=rules)
    st = game.state
    hidden = st.gs_deck + st.blips[0] + st.blips[1]
    in_play = hidden + [c for p in st.formation for s in p.swarms for c in s] + st.gs_discard
    assert sorted(in_play) == list(range(38))
    check_invariants(game)


def test_a_brute_takes_two_hits_and_keeps_a_wound_between(
    rules: Ruleset, tables: CardTable
) -> None:
    state = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["Hive Brute-1"]},
        tables=tables,
    )
    brute = tables.gs_by_label["Hive Brute-1"]
    engine = make_engine(state, dice=[1, 2], abilities=rules.abilities, tables=tables)
    drive(engine.attack("Brother Leon", 0))
    assert state.formation[0].swarms[LEFT] == [brute]
    assert state.wounds == {brute: 1}
    assert SLAIN == []
    assert state.to_dict(tables)["wounds"] == {"Hive Brute-1": 1}
    drive(engine.attack("Brother Leon", 0))
    assert state.formation[0].swarms[LEFT] == []
    assert state.gs_discard == [brute]
    assert state.wounds == {}
    assert SLAIN == [("Hive Brute-1", "Brother Leon", "roar")]


def test_a_wounded_brute_is_told_apart_from_a_fresh_one(rules: Ruleset, tables: CardTable) -> None:
    state = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["Hive Brute-1", "Hive Brute-2", "claw-1"]},
        tables=tables,
    )
    b1, b2 = tables.gs_by_label["Hive Brute-1"], tables.gs_by_label["Hive Brute-2"]
    state.wounds = {b2: 1}
    engine = make_engine(state, dice=[3], abilities=rules.abilities, tables=tables)
    asked = drive(engine.attack("Brother Leon", 0), [("slay", "Hive Brute-2")])
    assert [o.args for o in asked[0].options] == [("Hive Brute-1",), ("Hive Brute-2",), ("claw-1",)]
    assert b2 not in state.formation[0].swarms[LEFT] and b1 in state.formation[0].swarms[LEFT]
    # Two fresh Brutes alike: no question, the first is hit.
    fresh = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["Hive Brute-1", "Hive Brute-2"]},
        tables=tables,
    )
    drive(
        make_engine(fresh, dice=[1], abilities=rules.abilities, tables=tables).attack(
            "Brother Leon", 0
        )
    )
    assert fresh.wounds == {b1: 1}


@pytest.mark.parametrize(("face", "survives"), [(4, False), (5, True)])
def test_a_brute_weighs_three_in_its_swarms_attack(
    rules: Ruleset, tables: CardTable, face: int, survives: bool
) -> None:
    """A claw and a Brute attack as a swarm of 1 + 3 = 4: a 4 slays (§7), a 5 misses."""
    state = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["claw-1", "Hive Brute-1"]},
        tables=tables,
        phase="genestealer_attack",
    )
    engine = make_engine(state, dice=[face], abilities=rules.abilities, tables=tables)
    drive(engine.genestealer_attack())
    assert ("Brother Leon" in [p.marine.name for p in state.formation]) == survives


def test_a_brute_moves_with_either_of_its_icons(tables: CardTable) -> None:
    state = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["Hive Brute-1"]},
        tables=tables,
    )
    assert move_swarms(state, tables, "head", "flank") == 1
    assert state.formation[0].swarms == [[], [tables.gs_by_label["Hive Brute-1"]]]


def test_a_wound_heals_when_the_card_leaves_the_formation(
    rules: Ruleset, tables: CardTable
) -> None:
    state = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["Hive Brute-1"]},
        tables=tables,
    )
    brute = tables.gs_by_label["Hive Brute-1"]
    state.wounds = {brute: 1}
    engine = make_engine(state, abilities=rules.abilities, tables=tables)
    state.formation[0].swarms[LEFT] = []
    engine.discard_genestealers([brute], slain=False)
    assert state.wounds == {}
    assert SLAIN == []  # discarded, not slain: no rule


def test_copies_share_wounds_until_one_changes(rules: Ruleset, tables: CardTable) -> None:
    state = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["Hive Brute-1"]},
        tables=tables,
    )
    copy = state.copy()
    drive(
        make_engine(state, dice=[1], abilities=rules.abilities, tables=tables).attack(
            "Brother Leon", 0
        )
    )
    assert state.wounds and copy.wounds == {}


def test_base_game_states_have_no_wounds_key() -> None:
    game = Game(GameConfig(1, seed=2))
    assert "wounds" not in game.state.to_dict(game.table)
    assert "wounds" not in game.to_save()["state"]


def test_games_with_brutes_keep_invariants_and_saves_replay(rules: Ruleset) -> None:
    wounded_saves = 0
    for seed in range(6):
        game = Game(GameConfig(2, seed=seed), ruleset=rules)
        bot = RandomPlayer(seed)
        progress = check_invariants(game)
        while game.decision is not None:
            game.push(bot.choose(game.observation(game.decision.seat), game.decision))
            progress = check_invariants(game, progress)
            if game.state.wounds and wounded_saves < 3:
                wounded_saves += 1
                saved = json.loads(json.dumps(game.to_save()))
                assert saved["state"]["wounds"]
                again = Game.from_save(saved, ruleset=rules)
                assert again.state.to_dict(again.table) == game.state.to_dict(game.table)
    assert wounded_saves, "no game wounded a Brute: the test saw nothing"


def test_a_scenario_names_enemy_cards_by_type(rules: Ruleset, tmp_path: Path) -> None:
    from deathangel.scenario import scenario_game

    path = tmp_path / "brutes.toml"
    path.write_text(
        'phase = "genestealer_attack"\n'
        "[[formation]]\n"
        'marine = "Brother Leon"\nfacing = "left"\nleft = ["Hive Brute", "Hive Brute"]\n'
        "[[formation]]\n"
        'marine = "Brother Valencio"\nfacing = "right"\n',
        encoding="utf-8",
    )
    game = scenario_game(path, ruleset=rules)
    labels = [game.table.gs_labels[c] for c in game.state.formation[0].swarms[LEFT]]
    assert labels == ["Hive Brute-1", "Hive Brute-2"]
