"""Honest observations (DESIGN "Honest information", issue 10): what a player receives is a
snapshot value with no path back to the live game, its state, its random streams or its
deck lists; hidden piles are empty (their sizes are counts); an Instinct Event becomes
public once the current player has chosen (RULES §14.21)."""

from __future__ import annotations

import gc
import random
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from plugin_kit import SHIPPED, shipped_ruleset

from deathangel.engine.decisions import REROLL
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.observation import Observation
from deathangel.players import RandomPlayer
from deathangel.readonly import ReadOnlyDict
from deathangel.scenario import scenario_game

_STOP = (type, types.ModuleType, types.BuiltinFunctionType, types.CodeType, types.FrameType)


def reachable(*roots: object) -> Iterator[object]:
    """Every object reachable from ``roots`` through references, as the garbage collector
    sees them — except through classes, modules and a function's globals, which lead to
    the whole program rather than to anything a player was handed."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, _STOP):
            continue
        if isinstance(obj, types.FunctionType):
            # A closure or a default argument could hold anything: follow those, not globals.
            stack.extend(c.cell_contents for c in obj.__closure__ or () if _filled(c))
            stack.extend(obj.__defaults__ or ())
            stack.extend((obj.__kwdefaults__ or {}).values())
            continue
        stack.extend(gc.get_referents(obj))


def _filled(cell: types.CellType) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def live_objects(game: Game) -> dict[int, str]:
    """The live game's objects a player must never reach, by id, with a name for messages."""
    e = game.engine
    st = game.state
    named: dict[int, str] = {
        id(game): "the Game",
        id(e): "the Engine",
        id(st): "the live GameState",
        id(e.streams): "the random streams",
        id(e.die): "the die",
        id(game.history): "the game's history list",
        id(st.gs_deck): "the Genestealer deck list",
        id(st.gs_discard): "the Genestealer discard list",
        id(st.blips): "the blip piles",
        id(st.blips[0]): "the left blip pile",
        id(st.blips[1]): "the right blip pile",
        id(st.event_deck): "the Event deck list",
        id(st.event_discard): "the Event discard list",
        id(st.location_deck): "the location deck list",
        id(st.formation): "the live formation",
    }
    # The wound marks are shared, and may be: a read-only mapping the engine replaces whole.
    assert isinstance(st.wounds, ReadOnlyDict), "the live wound marks must be read-only"
    for name in ("genestealers", "events", "locations", "blips", "dice", "setup"):
        named[id(e.streams[name])] = f"the {name!r} random stream"
    for pos in st.formation:
        named[id(pos)] = f"the live row of {pos.marine.name}"
        named[id(pos.marine)] = f"the live marine {pos.marine.name}"
        named[id(pos.swarms[0])] = "a live swarm list"
        named[id(pos.swarms[1])] = "a live swarm list"
    return named


def assert_honest(game: Game, handed: tuple[object, ...]) -> None:
    live = live_objects(game)
    for obj in reachable(*handed):
        assert id(obj) not in live, f"a player can reach {live[id(obj)]}"


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_nothing_a_player_receives_leads_back_to_the_game(players: int) -> None:
    rng = random.Random(players)
    for seed in range(4):
        game = Game(GameConfig(players, seed=seed))  # with forward-model data: the most given
        bot = RandomPlayer(seed)
        steps = 0
        while game.decision is not None:
            decision = game.decision
            if steps % 7 == 0:
                seat = rng.randint(1, players)
                assert_honest(game, (game.observation(seat), decision))
                assert_honest(game, (game.observation(decision.seat), decision))
            game.push(bot.choose(None, decision))
            steps += 1


def test_the_walk_finds_a_reference_back_to_the_game() -> None:
    """The check itself can fail: a snapshot that smuggles the game in is caught."""
    game = Game(GameConfig(2, seed=3))
    obs = game.observation(1)

    class Smuggler:
        def __init__(self, payload: object) -> None:
            self.payload = payload

    with pytest.raises(AssertionError, match="the Game"):
        assert_honest(game, (obs, Smuggler(game)))
    stream = game.engine.streams["events"]
    with pytest.raises(AssertionError, match="the 'events' random stream"):
        assert_honest(game, (obs, lambda: stream))
    with pytest.raises(AssertionError, match="blip pile"):
        assert_honest(game, ([obs, {"x": game.state.blips[0]}],))


@pytest.mark.parametrize("players", [1, 3, 6])
def test_hidden_piles_are_counts_and_other_seats_cards_are_absent(players: int) -> None:
    game = Game(GameConfig(players, seed=11))
    bot = RandomPlayer(11)
    while game.decision is not None:
        st = game.state
        for seat in range(1, players + 1):
            obs = game.observation(seat)
            pub = obs.state
            assert pub.gs_deck == [] and pub.blips == [[], []]
            assert pub.event_deck == [] and pub.location_deck == []
            assert tuple(obs.counts) == (
                len(st.gs_deck),
                len(st.blips[0]),
                len(st.blips[1]),
                len(st.event_deck),
                len(st.location_deck),
            )
            if st.choices_hidden():
                mine = set(st.seats[seat - 1])
                assert set(pub.chosen) <= mine
        game.push(bot.choose(None, game.decision))


def test_a_changed_observation_leaves_the_game_alone() -> None:
    game = Game(GameConfig(1, seed=2))
    before = game.state.to_dict(game.table)
    obs = game.observation(1)
    obs.state.formation.clear()
    obs.state.supply = 0
    assert game.state.to_dict(game.table) == before


# -- Instinct cards: public once the current player has chosen (RULES §8, §14.21) ---------------

QUICK_INSTINCTS = """
players = 4
seed = 5
round = 3
phase = "event"
current_seat = 1
event_deck_top = ["Quick Instincts"]

[[formation]]
marine = "Brother Leon"        # red: seat 1
facing = "left"

[[formation]]
marine = "Brother Noctis"      # green: seat 2
facing = "left"
tokens = 1
left = ["claw", "claw", "claw"]

[[formation]]
marine = "Brother Claudio"     # yellow: seat 3
facing = "right"

[[formation]]
marine = "Brother Deino"       # blue: seat 4
facing = "right"
"""


def _scenario_game(tmp_path: Path, text: str) -> Game:
    path = tmp_path / "scenario.toml"
    seats = 'seats = [["red"], ["green"], ["yellow"], ["blue"]]\n'
    path.write_text(text.replace("players = 4\n", "players = 4\n" + seats), encoding="utf-8")
    return scenario_game(path)


def test_instinct_card_is_hidden_from_other_seats_until_the_choice(tmp_path: Path) -> None:
    game = _scenario_game(tmp_path, QUICK_INSTINCTS)
    decision = game.decision
    assert decision is not None and decision.seat == 1  # the current player chooses alone
    assert game.observation(1).event == "Quick Instincts"
    for seat in (2, 3, 4):
        assert game.observation(seat).event is None
        assert "Quick Instincts" not in str(game.observation(seat).to_dict())


def test_a_seat_answering_a_reroll_the_instinct_caused_sees_the_card(tmp_path: Path) -> None:
    """Quick Instincts: seat 1 has Noctis (seat 2) attack; Noctis misses and seat 2 decides
    whether to spend his token. Seat 2 must see the Event that made him attack."""
    game = _scenario_game(tmp_path, QUICK_INSTINCTS)
    game.engine.die = _faces(0)  # a miss: the reroll question follows
    attack = next(o for o in game.decision.options if o.args[0] == "Brother Noctis")  # type: ignore[union-attr]
    game.apply(attack)
    decision = game.decision
    assert decision is not None and decision.kind == REROLL and decision.seat == 2
    for seat in (1, 2, 3, 4):
        assert game.observation(seat).event == "Quick Instincts"


def _faces(*faces: int) -> Any:
    from deathangel.engine.randomness import ScriptedDie

    return ScriptedDie(faces)


def test_observations_are_values_of_their_own_type() -> None:
    game = Game(GameConfig(2, seed=1))
    obs = game.observation(2)
    assert isinstance(obs, Observation)
    assert obs.seat == 2
    assert obs.teams == game.state.seats[1]


@pytest.mark.parametrize("plugin", sorted(SHIPPED))
@pytest.mark.parametrize("players", [1, 4])
def test_nothing_a_player_receives_leads_back_with_a_shipped_plugin(
    plugin: str, players: int
) -> None:
    """The same walk with each shipped plugin: its enemy cards, wound marks, new windows and
    rule switches (teams chosen at setup, Instinct cards shown) hand out nothing live."""
    rules = shipped_ruleset(plugin)
    rng = random.Random(players)
    wounded = 0
    seed = 0
    # Two games, and for Broodwake as many more as it takes to walk a view with a wound mark.
    while seed < 2 or (plugin == "broodwake" and not wounded and seed < 40):
        game = Game(GameConfig(players, seed=seed), ruleset=rules)
        bot = RandomPlayer(seed)
        steps = 0
        while game.decision is not None:
            decision = game.decision
            if steps % 5 == 0 or game.state.wounds:
                wounded += bool(game.state.wounds)
                seat = rng.randint(1, players)
                assert_honest(game, (game.observation(seat), decision))
            game.push(bot.choose(None, decision))
            steps += 1
        seed += 1
    assert wounded or plugin != "broodwake", "no view with a wound mark was walked"
