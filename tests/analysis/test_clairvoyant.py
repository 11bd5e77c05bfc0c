"""docs/examples/clairvoyant.py: the search dealt the live game's truth, for research only.

Known answers: the honest arm is the search as a tournament plays it (the same game, decision
for decision); a ``decks`` deal holds the live game's hidden cards where they are and rolls
the search's own dice; an ``all`` deal rolls the live game's dice too; and the cheat never
outlives the game it was bound for.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from types import ModuleType

from support import TEST_BOT_KEY

import deathangel.players.search.mcts as search
from deathangel.analysis.simulate import play_game, spec_bots
from deathangel.engine.forward import determinize
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.randomness import Die
from deathangel.players.random import RandomPlayer
from deathangel.plugins.strategies import parse_spec, strategies

SEED = 662500
SPEC = "mcts:iterations=4"


def _script() -> ModuleType:
    from example_kit import load_example

    return load_example("clairvoyant")


def _midgame(seed: int = SEED) -> Game:
    """A solo game a few decisions in, as the script keeps it (restart points, forward data)."""
    game = Game(GameConfig(1, seed=seed), checkpoints=True, forward=True)
    bot = RandomPlayer(seed=1)
    for _ in range(12):
        assert game.decision is not None
        game.push(bot.choose(None, game.decision))
    return game


def _hidden(game: Game) -> tuple[object, ...]:
    st = game.state
    return (st.gs_deck, st.blips, st.event_deck, st.location_deck)


def test_the_honest_arm_is_the_tournaments_game() -> None:
    script = _script()
    index, sees, won, locations, decisions, _ = script.play(
        0, "nothing", SPEC, 1, SEED, TEST_BOT_KEY
    )
    bots = spec_bots([parse_spec(SPEC)], SEED, strategies(), TEST_BOT_KEY)
    expected = play_game(GameConfig(1, seed=SEED), bots)
    assert (index, sees) == (0, "nothing")
    assert (won, locations, decisions) == (
        expected.outcome == "victory",
        expected.locations_reached,
        expected.decisions,
    )


def test_a_decks_deal_holds_the_live_cards_and_rolls_the_searchs_dice() -> None:
    script = _script()
    live = _midgame()
    honest = determinize(live.observation(1), random.Random(3))
    dealt = script.dealer("decks", live)(live.observation(1), random.Random(3))
    assert _hidden(dealt) == _hidden(live)
    assert _hidden(honest) != _hidden(live)  # the seat could not have known them
    assert dealt.decision == live.decision
    assert dealt.engine.die is not live.engine.die
    own = Die(random.Random(3))
    assert [dealt.engine.die.roll() for _ in range(12)] == [own.roll() for _ in range(12)]


def test_an_all_deal_rolls_the_live_games_dice() -> None:
    script = _script()
    live = _midgame()
    before = live.clone()
    dealt = script.dealer("all", live)(live.observation(1), random.Random(3))
    assert _hidden(dealt) == _hidden(live)
    rolls = [dealt.engine.die.roll() for _ in range(12)]
    after = live.clone()  # the deal's rolls did not move the live game's dice
    assert rolls == [before.engine.die.roll() for _ in range(12)]
    assert rolls == [after.engine.die.roll() for _ in range(12)]
    assert len(set(rolls)) > 1


def test_each_half_of_decks_sees_its_own_cards_only() -> None:
    script = _script()
    live = _midgame()
    st = live.state
    events = script.dealer("events", live)(live.observation(1), random.Random(3)).state
    assert events.event_deck == st.event_deck
    assert (len(events.gs_deck), len(events.blips[0]), len(events.blips[1])) == (
        len(st.gs_deck),
        len(st.blips[0]),
        len(st.blips[1]),
    )
    ours = sorted([*events.gs_deck, *events.blips[0], *events.blips[1]])
    assert ours == sorted([*st.gs_deck, *st.blips[0], *st.blips[1]])
    assert (events.gs_deck, events.blips) != (st.gs_deck, st.blips)
    cards = script.dealer("genestealers", live)(live.observation(1), random.Random(3)).state
    assert (cards.gs_deck, cards.blips) == (st.gs_deck, st.blips)
    assert sorted(cards.event_deck) == sorted(st.event_deck)
    assert cards.event_deck != st.event_deck


def test_a_scouted_top_event_stays_on_top() -> None:
    script = _script()
    live = _midgame()
    deck = live.state.event_deck
    tops: dict[int, set[int]] = {1: set(), 2: set()}
    for seat in (1, 2):
        for k in range(20):
            state = live.clone().state
            state.scouted = (1, deck[-1])  # seat 1 looked at the top card
            script.redeal_events(state, random.Random(k), seat)
            assert sorted(state.event_deck) == sorted(deck)
            tops[seat].add(state.event_deck[-1])
    assert tops[1] == {deck[-1]}
    assert len(tops[2]) > 1  # another seat's look is not this seat's knowledge


def test_the_cheat_ends_with_its_game_and_results_are_kept(tmp_path: Path) -> None:
    script = _script()
    db = tmp_path / "cv.db"
    table = script.run(db, ["all"], SPEC, 1, 1, SEED, TEST_BOT_KEY, 1)
    assert search.determinize is determinize
    assert set(table) == {"all"} and set(table["all"]) == {0}
    rows = sqlite3.connect(db).execute("SELECT game, sees FROM results").fetchall()
    assert rows == [(0, "all")]
    # The same command finds the game stored and plays nothing again.
    assert script.run(db, ["all"], SPEC, 1, 1, SEED, TEST_BOT_KEY, 1) == table
