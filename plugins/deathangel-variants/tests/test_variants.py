"""deathangel-variants: each house rule, with known answers from RULES.md."""

from __future__ import annotations

import json

import deathangel_variants
import pytest

from deathangel.engine.game import Game, GameConfig
from deathangel.engine.randomness import ScriptedDie
from deathangel.engine.state import LEFT
from deathangel.errors import DeathAngelError
from deathangel.players import RandomPlayer
from deathangel.plugins import load_ruleset
from deathangel.plugins.variants import VariantError


def rules(*variants: str):  # type: ignore[no-untyped-def]
    return load_ruleset(extra=[deathangel_variants], variants=variants)


def test_it_offers_the_six_house_rules() -> None:
    offered = [v.usage() for v in deathangel_variants.VARIANTS]
    assert offered == [
        "starting_support=1..4",
        "defence=easier|harder",
        "final_location=NAME",
        "remove=NAME,NAME,...",
        "choose_teams",
        "no_instinct",
    ]


@pytest.mark.parametrize(
    ("variant", "face", "slain"),
    [
        (None, 3, True),  # RULES §7: a 3 against a swarm of 3 slays
        ("defence=easier", 3, False),  # a roll equal to the size survives
        ("defence=easier", 2, True),
        ("defence=harder", 4, True),  # a roll one above the size slays too
        ("defence=harder", 5, False),
    ],
)
def test_defence(variant: str | None, face: int, slain: bool) -> None:
    ruleset = rules(*([variant] if variant else []))
    game = Game(GameConfig(1, seed=0), ruleset=ruleset)
    engine = game.engine
    st = engine.state
    pos = st.formation[0]
    pos.marine.facing = LEFT
    pos.marine.tokens = 0
    swarm = [c for c in st.gs_deck[-3:]]
    del st.gs_deck[-3:]
    pos.swarms[LEFT] = swarm
    engine.die = ScriptedDie([face])
    name = pos.marine.name
    flow = engine.swarm_attacks(0, LEFT, list(swarm))
    with pytest.raises(StopIteration):
        next(flow)
    assert (name in st.slain) == slain


def test_starting_support() -> None:
    game = Game(GameConfig(1, seed=1), ruleset=rules("starting_support=2"))
    assert [p.marine.tokens for p in game.state.formation] == [2] * 6
    assert game.state.supply == 12 - 12
    with pytest.raises(DeathAngelError, match="exceeds the supply"):
        from deathangel.analysis.simulate import simulate

        simulate(6, 1, 0, ruleset=rules("starting_support=2"))  # 12 marines x 2 > 12


def test_final_location() -> None:
    ruleset = rules("final_location=Toxin Pumping Station")
    for seed in range(5):
        game = Game(GameConfig(3, seed=seed), ruleset=ruleset)
        assert game.table.locations[game.state.location_deck[0]].name == "Toxin Pumping Station"
    with pytest.raises(VariantError, match="'Void Lock' is not a final location"):
        rules("final_location=Void Lock")


def test_remove() -> None:
    ruleset = rules("remove=Out of Thin Air,purple,Black Holds")
    assert "Out of Thin Air" not in {e.name for e in ruleset.db.events}
    assert ruleset.db.counts()["events"] == 30 - 2  # two different cards of that name
    assert "purple" not in {t.color for t in ruleset.db.teams}
    assert "Black Holds" not in {loc.name for loc in ruleset.db.locations}


def test_choose_teams() -> None:
    game = Game(GameConfig(4, seed=2), ruleset=rules("choose_teams"))
    for seat, colour in zip((1, 2, 3, 4), ("grey", "blue", "purple", "red"), strict=True):
        assert game.decision is not None and game.decision.kind == "choose_team"
        assert game.decision.seat == seat
        game.apply(("team", colour))
    assert game.state.seats == [("grey",), ("blue",), ("purple",), ("red",)]


def test_no_instinct_games_record_it_and_replay() -> None:
    ruleset = rules("no_instinct", "defence=harder")
    game = Game(GameConfig(2, seed=4), ruleset=ruleset)
    assert game.config.variants == (("defence", "harder"), ("no_instinct", ""))
    bot = RandomPlayer(4)
    while game.decision is not None:
        assert not game.state.event_hidden  # never hidden: Instinct cards are shown
        game.push(bot.choose(None, game.decision))
    saved = json.loads(json.dumps(game.to_save()))
    assert saved["config"]["variants"] == [["defence", "harder"], ["no_instinct", ""]]
    again = Game.from_save(saved, ruleset=ruleset)
    assert again.outcome == game.outcome


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("defence=hard", "takes one of easier, harder, not 'hard'"),
        ("starting_support=9", "takes 1 to 4, not 9"),
        ("starting_support", "needs a value"),
        ("no_instinct=yes", "takes no value"),
        ("remove=Nothing Here", "cannot remove 'Nothing Here'"),
    ],
)
def test_bad_values_are_one_line(text: str, message: str) -> None:
    with pytest.raises(DeathAngelError, match=message):
        rules(text)
