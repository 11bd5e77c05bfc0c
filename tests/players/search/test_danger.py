"""What the bots think a swarm's attack will do is the game's own verdict (RULES §7, read from
:mod:`deathangel.engine.defence`): a rule variant, an expansion's heavier enemies and a Power
Field change the search's danger, the rule set's kill chances and MCTS's trivial rerolls
exactly as they change the game. Expected values are worked out by hand."""

from __future__ import annotations

import pytest
from plugin_kit import shipped_module
from support import build_state

import deathangel.engine.decisions as d
from deathangel.engine.decisions import KEEP_OPTION, REROLL_OPTION, Decision
from deathangel.engine.game import card_table
from deathangel.engine.lasting import SecondWind
from deathangel.engine.observation import observe
from deathangel.engine.state import LEFT, CardTable, GameState
from deathangel.players.rules.features import Situation
from deathangel.players.search.mcts import MctsPlayer
from deathangel.players.search.value import danger
from deathangel.plugins.ruleset import load_ruleset


def variant_table(*variants: str) -> CardTable:
    rules = load_ruleset(extra=[shipped_module("variants")], variants=list(variants))
    return card_table(rules.db, rules.switches)


PRINTED = variant_table()
EASIER = variant_table("defence=easier")
HARDER = variant_table("defence=harder")


def leon_facing(swarm: list[str], tables: CardTable) -> GameState:
    """Solo: Brother Leon faces ``swarm`` on his left at position 1; no tokens anywhere."""
    return build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(1, "left"): swarm},
        phase="genestealer_attack",
        tables=tables,
    )


def defence_decision(face: int, count: int) -> Decision:
    """The reroll question of a defence roll against Leon, worded as the engine words it."""
    asked = d.reroll_prompt(d.defence_reason("Brother Leon", LEFT, count), face)
    return Decision(1, d.REROLL, (REROLL_OPTION, KEEP_OPTION), asked)


@pytest.mark.parametrize(
    ("tables", "chance"),
    [
        (PRINTED, 3 / 6),  # two cards slay on 0-2 (RULES §7)
        (EASIER, 2 / 6),  # a roll equal to the size survives: 0-1
        (HARDER, 4 / 6),  # one above the size slays too: 0-3
    ],
)
def test_a_defence_variant_changes_what_every_bot_thinks(tables: CardTable, chance: float) -> None:
    state = leon_facing(["claw-1", "claw-2"], tables)
    observation = observe(state, tables, 1)
    # The search's value: one swarm, so the expected marines slain is its chance.
    assert danger(state, tables) == pytest.approx(chance)
    # The rule set's values: the chance of the swarm in front of Leon, his chance of dying (no
    # token to reroll with), and `chance(2)` as a rule file reads it.
    situation = Situation(observation, defence_decision(2, 2))
    assert situation.side_chance[LEFT][0] == pytest.approx(chance)
    assert situation.death[0] == pytest.approx(chance)
    assert situation.f_chance(2) == pytest.approx(chance)


@pytest.mark.parametrize(
    ("tables", "face", "loses"),
    [
        (PRINTED, 2, True),  # 2 ≤ 2: slain
        (EASIER, 2, False),  # 2 > 2 − 1: a miss
        (PRINTED, 3, False),
        (HARDER, 3, True),  # 3 ≤ 2 + 1
    ],
)
def test_a_defence_variant_decides_which_rerolls_matter(
    tables: CardTable, face: int, loses: bool
) -> None:
    state = leon_facing(["claw-1", "claw-2"], tables)
    decision = defence_decision(face, 2)
    observation = observe(state, tables, 1, decision)
    assert Situation(observation, decision).roll_loses is loses
    # MCTS searches only a roll that loses: keeping a miss needs no search.
    assert MctsPlayer._trivial(observation, decision) is not loses


def test_a_power_field_swarm_is_no_danger() -> None:
    state = leon_facing(["claw-1", "claw-2"], PRINTED)
    state.protected = {PRINTED.gs_by_label["claw-1"]}
    # It does not attack this round (RULES §7): nothing to fear from it.
    assert danger(state, PRINTED) == 0.0
    assert Situation(observe(state, PRINTED, 1), defence_decision(2, 2)).death[0] == 0.0


@pytest.mark.parametrize("first", ["sizes", "threat_sizes", "attack_sizes", "death"])
def test_a_power_field_swarm_counts_nothing_whichever_value_is_read_first(first: str) -> None:
    """The plain swarm sizes stand in for the threat and attack sizes only when no swarm is
    under a Power Field (a shortcut kept with the sizes): whatever is read first, the
    protected swarm is 2 cards but attacks and can be attacked as 0."""
    state = leon_facing(["claw-1", "claw-2"], PRINTED)
    state.protected = {PRINTED.gs_by_label["claw-1"]}
    seen = Situation(observe(state, PRINTED, 1), defence_decision(2, 2))
    getattr(seen, first)
    assert seen.sizes[LEFT][0] == 2
    assert seen.threat_sizes[LEFT][0] == 0
    assert seen.attack_sizes[LEFT][0] == 0
    assert seen.death[0] == 0.0


def test_a_heavier_enemy_counts_its_weight_for_every_bot() -> None:
    rules = load_ruleset(extra=[shipped_module("broodwake")])
    tables = card_table(rules.db)
    # A Tunnel Burrower weighs 2: with a claw the swarm attacks as 3 and slays on 0-3.
    state = leon_facing(["Tunnel Burrower-1", "claw-1"], tables)
    assert danger(state, tables) == pytest.approx(4 / 6)
    situation = Situation(observe(state, tables, 1), defence_decision(3, 2))
    assert situation.side_chance[LEFT][0] == pytest.approx(4 / 6)
    # The prompt counts two cards; the verdict weighs them: a 3 slays.
    assert situation.roll_loses is True


def test_a_brood_lord_is_found_by_the_card_table() -> None:
    state = leon_facing(["claw-1", "Brood Lord A"], PRINTED)
    # Two cards, one a Brood Lord: slain while face − 1 ≤ 2, on 0-3.
    assert danger(state, PRINTED) == pytest.approx(4 / 6)
    situation = Situation(observe(state, PRINTED, 1), defence_decision(3, 2))
    assert situation.side_chance[LEFT][0] == pytest.approx(4 / 6)


def test_faces_an_ability_makes_miss_leave_the_kill_chance() -> None:
    state = leon_facing(["claw-1", "claw-2"], PRINTED)
    state.effects = [SecondWind("Brother Leon")]
    # Two cards slay on 0-2, but under Second Wind a 0 misses (RULES §14.13): 1 and 2 left.
    situation = Situation(observe(state, PRINTED, 1), defence_decision(0, 2))
    assert situation.side_chance[LEFT][0] == pytest.approx(2 / 6)
    assert situation.death[0] == pytest.approx(2 / 6)
    assert situation.roll_loses is False  # the 0 he rolled misses
