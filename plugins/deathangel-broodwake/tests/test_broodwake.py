"""Broodwake: every card does what its text says, with known dice (RULES.md for the rest).

Each situation is a scenario file (the format of docs/scenarios.md, with Broodwake's cards),
and one piece of the engine is run on it with a scripted die and scripted answers.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

import deathangel_broodwake
import pytest

from deathangel.engine.core import GameOver
from deathangel.engine.decisions import DONE, Decision, Option
from deathangel.engine.game import Game, GameConfig, card_table
from deathangel.engine.randomness import ScriptedDie, Streams
from deathangel.engine.rounds import Engine
from deathangel.engine.state import LEFT, RIGHT, GameState
from deathangel.players import RandomPlayer
from deathangel.plugins import load_ruleset
from deathangel.scenario import load_scenario, scenario_state

RULES = load_ruleset(extra=[deathangel_broodwake])
TABLE = card_table(RULES.db)

WHITE = """
players = 1
seats = [["white", "green", "red"]]
phase = "{phase}"
revealed = [{revealed}]

[[formation]]
marine = "Brother Aurelian"
facing = "left"
tokens = {tokens}
left = [{left}]
left_terrain = [{terrain}]

[[formation]]
marine = "Sergeant Cassius"
facing = "right"
right = [{right}]
"""


def state_of(tmp_path: Path, **fill: str | int) -> GameState:
    values: dict[str, Any] = {
        "phase": "resolve_actions",
        "revealed": "",
        "tokens": 0,
        "left": "",
        "terrain": "",
        "right": "",
    }
    values.update(fill)
    path = tmp_path / "scenario.toml"
    path.write_text(WHITE.format(**values), encoding="utf-8")
    return scenario_state(load_scenario(path, db=RULES.db), RULES.db)


def engine_on(state: GameState, dice: Sequence[int] = ()) -> Engine:
    return Engine(state, TABLE, Streams(0), ScriptedDie(dice), RULES.abilities, log=[])


def drive(flow: Generator[Decision, Option, Any], answers: Sequence[Any] = ()) -> list[Decision]:
    """Run ``flow`` answering its decisions in order; every answer must be used and legal."""
    seen: list[Decision] = []
    pending = [a if isinstance(a, Option) else Option.from_code(a) for a in answers]
    try:
        decision = next(flow)
        while True:
            seen.append(decision)
            answer = pending.pop(0)
            assert answer in decision.options, (answer, decision.options)
            decision = flow.send(answer)
    except (StopIteration, GameOver):
        pass
    assert not pending, f"answers left unused: {pending}"
    return seen


def label(state: GameState, row: int, side: int) -> list[str]:
    return [TABLE.gs_labels[c] for c in state.formation[row].swarms[side]]


# -- the cards are in the game --------------------------------------------------------------------


def test_broodwake_adds_its_cards_and_replaces_the_black_holds() -> None:
    db = RULES.db
    assert "white" in [t.color for t in db.teams]
    assert {"Ground Shudders", "Seismic Shock"} <= {e.name for e in db.events}
    assert db.counts()["events"] == 30 + 1 + 2
    deck_2 = [loc.name for loc in db.locations if loc.deck == "2"]
    assert deck_2 == ["Dark Catacombs", "Teleportarium", "Collapsed Transit Tube"]
    assert TABLE.deck_size == 36 + 3


# -- the white team -------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "slain"), [(0, False), (1, False), (2, True)])
def test_iron_halo_makes_cassius_low_defence_rolls_miss(
    tmp_path: Path, face: int, slain: bool
) -> None:
    state = state_of(
        tmp_path, phase="genestealer_attack", revealed='"Iron Halo"', right='"claw", "claw"'
    )
    state.resolved = {"white"}
    drive(engine_on(state, [face]).genestealer_attack())
    assert ("Sergeant Cassius" in state.slain) == slain


@pytest.mark.parametrize(("face", "left"), [(1, []), (4, ["claw-1"])])
def test_breaching_charge_rolls_after_an_activation(
    tmp_path: Path, face: int, left: list[str]
) -> None:
    state = state_of(tmp_path, left='"claw"', terrain='"Door"')
    engine = engine_on(state, [face])
    drive(
        engine.move_activate_action("white", "Breaching Charge"),
        [DONE, DONE, ("activate", "Brother Aurelian", "Door")],
    )
    assert state.formation[0].terrain[LEFT][0].tokens == 1  # the Door's own activation
    assert label(state, 0, LEFT) == left  # a skull (1) slays the claw, a 4 does not
    assert any("blows the breach" in line for line in engine.log or [])


def test_breaching_charge_does_not_roll_with_nothing_engaged(tmp_path: Path) -> None:
    state = state_of(tmp_path, terrain='"Door"')
    drive(
        engine_on(state, []).move_activate_action("white", "Breaching Charge"),
        [DONE, DONE, ("activate", "Brother Aurelian", "Door")],
    )  # the empty scripted die would fail on a roll


def test_last_rites_gives_a_token_to_each_unengaged_marine(tmp_path: Path) -> None:
    state = state_of(tmp_path, right='"claw"')
    supply = state.supply
    # Aurelian (facing left, nothing there) cannot attack; Cassius attacks and misses.
    drive(
        engine_on(state, [0]).attack_action("white", "Last Rites"),
        [("attack", "Sergeant Cassius", "right", 2)],
    )
    tokens = {p.marine.name: p.marine.tokens for p in state.formation}
    assert tokens == {"Brother Aurelian": 1, "Sergeant Cassius": 0}
    assert state.supply == supply - 1


# -- events, location, terrain -------------------------------------------------------------------


def test_seismic_shock_costs_marines_beside_a_burrower_a_token(tmp_path: Path) -> None:
    state = state_of(tmp_path, tokens=2, left='"Tunnel Burrower"', phase="event")
    state.formation[1].marine.tokens = 1  # Cassius: no Burrower beside him
    state.supply -= 1
    effects = RULES.abilities.event_effects  # type: ignore[attr-defined]
    drive(effects["broodwake_seismic_shock"](engine_on(state), {}))
    assert [p.marine.tokens for p in state.formation] == [1, 1]


@pytest.mark.parametrize(("face", "kept"), [(0, False), (3, True)])
def test_rubble_choke_gives_a_token_then_may_give_way(
    tmp_path: Path, face: int, kept: bool
) -> None:
    state = state_of(tmp_path, terrain='"Rubble Choke"')
    drive(
        engine_on(state, [face]).move_activate_action("white", "Breaching Charge"),
        [DONE, DONE, ("activate", "Brother Aurelian", "Rubble Choke")],
    )
    assert state.formation[0].marine.tokens == 1
    assert bool(state.formation[0].terrain[LEFT]) == kept


# -- the Tunnel Burrower ---------------------------------------------------------------------------


def test_a_burrower_takes_two_hits_then_splashes_acid(tmp_path: Path) -> None:
    state = state_of(tmp_path, tokens=2, left='"Tunnel Burrower"')
    engine = engine_on(state, [1, 2, 0])  # hit, hit (slain), acid roll 0
    drive(engine.attack("Brother Aurelian", 0), [("keep",)])  # no support reroll
    assert label(state, 0, LEFT) == ["Tunnel Burrower-1"] and state.wounds
    drive(engine.attack("Brother Aurelian", 0), [("keep",)])
    assert label(state, 0, LEFT) == [] and not state.wounds
    assert state.formation[0].marine.tokens == 0  # the acid took both tokens


@pytest.mark.parametrize(("face", "slain"), [(3, True), (4, False)])
def test_a_burrower_counts_as_two_when_its_swarm_attacks(
    tmp_path: Path, face: int, slain: bool
) -> None:
    """A claw and a Burrower: a swarm of 1 + 2 = 3 (RULES §7: slain at 3 or less)."""
    state = state_of(tmp_path, phase="genestealer_attack", right='"claw", "Tunnel Burrower"')
    drive(engine_on(state, [face]).genestealer_attack())
    assert ("Sergeant Cassius" in state.slain) == slain
    if not slain:
        assert label(state, 1, RIGHT) == ["claw-1", "Tunnel Burrower-1"]


# -- the variant and the strategy ----------------------------------------------------------------


def test_no_burrowers_takes_them_out() -> None:
    rules = load_ruleset(extra=[deathangel_broodwake], variants=["no_burrowers"])
    assert rules.db.enemies == ()
    assert card_table(rules.db).deck_size == 36


def test_the_hoarder_never_spends_support_on_a_reroll() -> None:
    from deathangel.engine.decisions import KEEP_OPTION, REROLL_OPTION

    bot = deathangel_broodwake.Hoarder(seed=1)
    decision = Decision(1, "reroll", (REROLL_OPTION, KEEP_OPTION))
    assert {bot.choose(None, decision) for _ in range(20)} == {KEEP_OPTION}


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_complete_games_end(players: int) -> None:
    for seed in range(3):
        game = Game(GameConfig(players, seed=seed), ruleset=RULES)
        bot = RandomPlayer(seed)
        while game.decision is not None:
            assert len(game.history) < 20_000
            game.push(bot.choose(None, game.decision))
        assert game.outcome in ("victory", "defeat")
