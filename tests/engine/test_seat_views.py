"""What one seat sees depends only on what that seat may know (DESIGN "Honest information").

Each property builds two games that differ only in something a seat cannot see, and checks
that the seat's whole view — its observation as exact data, the pending decision's words
included, and the forward-model record a search bot rebuilds the game from — is the same in
both:

- the order of the hidden piles (the Genestealer deck, which cards are in the blip piles, the
  Event deck, the locations still to come);
- another seat's face-down action card, before the reveal (RULES §5);
- another seat's private look at the top Event card (Forward Scouting).

Each also checks that the two games *do* differ (for the seat that knows, or for an
all-seeing eye), so a pair that happened to be equal cannot pass by accident. The views are
compared as :func:`deathangel.engine.viewdata.observation_data` writes them: every id, every
field.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from deathangel.engine.decisions import CHOOSE, CHOOSE_ACTION, Decision, Option
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.state import CardTable, GameState
from deathangel.engine.viewdata import observation_data

EXAMPLES = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.integers(1, 6)
SCOUTING = "Forward Scouting"


def view(game: Game, seat: int) -> dict[str, object]:
    """Everything ``seat`` is given at this decision, as data."""
    return observation_data(game.observation(seat))


def eager_chooser(rng: random.Random) -> Callable[[Decision], Option]:
    """Random answers, but Forward Scouting is chosen whenever a team may and its look is
    always taken: private looks at the Event deck happen in most games."""

    def choose(decision: Decision) -> Option:
        for option in decision.options:
            if decision.kind == CHOOSE_ACTION and option.args == (SCOUTING,):
                return option
            if decision.kind == CHOOSE and option.verb == "yes" and option.args == ("look",):
                return option
        return decision.options[int(rng.random() * len(decision.options))]

    return choose


def played(config: GameConfig, bot_seed: int, steps: int) -> Game:
    """A game with forward-model records, ``steps`` decisions in (or over)."""
    game = Game(config)
    choose = eager_chooser(random.Random(bot_seed))
    for _ in range(steps):
        if game.decision is None:
            break
        game.apply(choose(game.decision))
    return game


def replayed(
    config: GameConfig,
    options: list[Option],
    edits: dict[int, Callable[[Game], None]] | None = None,
) -> Game:
    """The game of ``config`` with ``options`` applied, ``edits[i]`` run on it just before
    option ``i`` (a change the rules never make: the other game of a pair)."""
    game = Game(config)
    for i, option in enumerate(options):
        if edits and i in edits:
            edits[i](game)
        game.apply(option)
    return game


def locations_left(state: GameState, table: CardTable, rng: random.Random) -> list[int]:
    """Other cards for the locations still to come: one of each remaining deck (RULES §3)."""
    setup = state.setup_location
    left = len(state.location_deck)
    if setup is None or not left:
        return list(state.location_deck)
    decks = setup.location_deck[len(setup.location_deck) - left :]
    chosen = [
        rng.choice([i for i in table.locations_in_deck[deck] if i != state.location])
        for deck in decks
    ]
    return chosen[::-1]  # top card last


def shuffle_hidden(game: Game, seat: int, rng: random.Random) -> None:
    """Deal the game's hidden cards again, differently, keeping every pile's size and
    whatever ``seat`` knows (the top Event card it scouted)."""
    st_ = game.state
    cards = st_.gs_deck + st_.blips[0] + st_.blips[1]
    rng.shuffle(cards)
    n, left = len(st_.gs_deck), len(st_.blips[0])
    st_.gs_deck, st_.blips = cards[:n], [cards[n : n + left], cards[n + left :]]
    events = st_.event_deck[:]
    known = st_.scouted is not None and st_.scouted[0] == seat and events
    top = events.pop() if known else None
    rng.shuffle(events)
    st_.event_deck = [*events, top] if top is not None else events
    st_.location_deck = locations_left(st_, game.table, rng)


# -- the order of the hidden piles ---------------------------------------------------------------


@EXAMPLES
@given(players=PLAYERS, seed=SEEDS, bot=SEEDS, steps=st.integers(0, 200), data=st.data())
def test_a_seat_sees_nothing_of_the_hidden_piles_order(
    players: int, seed: int, bot: int, steps: int, data: st.DataObject
) -> None:
    game = played(GameConfig(players, seed=seed), bot, steps)
    assume(game.decision is not None)
    for seat in range(1, players + 1):
        other = game.clone()
        shuffle_hidden(other, seat, random.Random(data.draw(SEEDS)))
        assert view(other, seat) == view(game, seat)


def test_reshuffled_hidden_piles_do_change_the_game() -> None:
    """The pairs above differ for an all-seeing eye (else the property would be empty)."""
    game = played(GameConfig(2, seed=3), 4, 30)
    other = game.clone()
    shuffle_hidden(other, 1, random.Random(1))
    assert other.state.gs_deck != game.state.gs_deck
    assert sorted(other.state.gs_deck + other.state.blips[0] + other.state.blips[1]) == sorted(
        game.state.gs_deck + game.state.blips[0] + game.state.blips[1]
    )
    assert view(other, 1) == view(game, 1)


# -- another seat's face-down action card --------------------------------------------------------


@EXAMPLES
@given(players=st.integers(2, 6), seed=SEEDS, bot=SEEDS, data=st.data())
def test_a_seat_never_sees_another_seats_face_down_card(
    players: int, seed: int, bot: int, data: st.DataObject
) -> None:
    config = GameConfig(players, seed=seed)
    # Play into some round's Choose Actions, after at least one team has chosen face down.
    game = Game(config)
    choose = eager_chooser(random.Random(bot))
    stop = data.draw(st.integers(1, 4))
    chosen: list[int] = []  # the history indices of this round's face-down choices so far
    while (decision := game.decision) is not None:
        hidden = decision.kind == CHOOSE_ACTION and game.state.choices_hidden()
        if not hidden:
            chosen = []
        elif chosen and game.state.round >= stop:
            break
        else:
            chosen.append(len(game.history))
        game.apply(choose(decision))
    assume(game.decision is not None and chosen)
    index = data.draw(st.sampled_from(chosen))
    chooser = Game(config)
    for option in game.history[:index]:
        chooser.apply(option)
    asked = chooser.decision
    assert asked is not None and asked.kind == CHOOSE_ACTION
    others = [o for o in asked.options if o != game.history[index]]
    assume(others)
    history = list(game.history)
    history[index] = data.draw(st.sampled_from(others))
    other = replayed(config, history)
    for seat in range(1, players + 1):
        if seat == asked.seat:
            # The seat that chose knows its card: its view does differ.
            assert view(other, seat) != view(game, seat)
        else:
            assert view(other, seat) == view(game, seat)


# -- another seat's private look -----------------------------------------------------------------


def scouting_games(players: int, seed: int, bot: int) -> tuple[GameConfig, Game, int] | None:
    """A game paused at the scout's top-or-bottom question, the index of the decision that
    took the look, or ``None`` if nobody scouted."""
    config = GameConfig(players, seed=seed)
    game = Game(config)
    choose = eager_chooser(random.Random(bot))
    look = -1
    while (decision := game.decision) is not None:
        if decision.kind == CHOOSE and {o.verb for o in decision.options} == {"top", "bottom"}:
            return config, game, look
        option = choose(decision)
        if option.args == ("look",):
            look = len(game.history)
        game.apply(option)
    return None


@EXAMPLES
@given(players=st.integers(2, 6), seed=SEEDS, bot=SEEDS, data=st.data())
def test_a_seat_never_sees_another_seats_look_at_the_event_deck(
    players: int, seed: int, bot: int, data: st.DataObject
) -> None:
    found = scouting_games(players, seed, bot)
    assume(found is not None)
    assert found is not None
    config, game, look = found
    deck = game.state.event_deck
    assume(len(deck) >= 2)
    swap = data.draw(st.integers(0, len(deck) - 2))

    def other_top(g: Game) -> None:  # before the look: another hidden card on top
        pile = g.state.event_deck
        pile[-1], pile[swap] = pile[swap], pile[-1]

    other = replayed(config, list(game.history), {look: other_top})
    scout = game.decision
    assert scout is not None and other.decision is not None
    assert other.state.event_deck[-1] != game.state.event_deck[-1]
    assert view(other, scout.seat) != view(game, scout.seat)  # the scout saw another card
    # The same answers in both games (the scout's choice included) until the Event deck's top
    # card is drawn for all to see: every other seat's view stays the same throughout.
    choose = eager_chooser(random.Random(data.draw(SEEDS)))
    size = len(game.state.event_deck)
    while game.decision is not None and len(game.state.event_deck) == size:
        for seat in range(1, players + 1):
            if seat != scout.seat:
                assert view(other, seat) == view(game, seat)
        option = choose(game.decision)
        game.apply(option)
        other.apply(option)


def test_the_scouting_property_finds_looks_to_test() -> None:
    """Forward Scouting is played often enough by the eager chooser for the property above
    to test something: among a few games, several reach the scout's question."""
    found = [scouting_games(3, seed, seed) for seed in range(12)]
    assert sum(f is not None for f in found) >= 3


@pytest.mark.parametrize("players", [2, 4])
def test_the_scouts_own_view_names_the_card_and_no_other_view_does(players: int) -> None:
    for seed in range(40):
        found = scouting_games(players, seed, seed)
        if found is not None:
            break
    assert found is not None
    _, game, _ = found
    scout = game.decision
    assert scout is not None
    name = game.table.events[game.state.event_deck[-1]].name
    for seat in range(1, players + 1):
        text = repr(view(game, seat))
        assert (name in text) == (seat == scout.seat), seat
