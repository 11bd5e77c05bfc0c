"""The forward model: ``determinize(observation, rng)`` builds a complete game consistent with
what the seat knows, at the same decision, with the hidden parts dealt at random — never a
copy of the real game (DESIGN "Honest information", issue 10)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from deathangel.engine.forward import ForwardModelError, determinize
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.observation import Observation
from deathangel.players import RandomPlayer


def positions(players: int, seeds: range, every: int) -> list[tuple[Game, Observation]]:
    """Observations of the deciding seat at every ``every``-th decision of random games,
    each with a clone of its game (the real game, kept for comparison)."""
    out = []
    for seed in seeds:
        game = Game(GameConfig(players, seed=seed))
        bot = RandomPlayer(seed)
        step = 0
        while game.decision is not None:
            if step % every == 0:
                out.append((game.clone(), game.observation(game.decision.seat)))
            game.push(bot.choose(None, game.decision))
            step += 1
    return out


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_the_seat_sees_the_same_in_the_determinized_game(players: int) -> None:
    rng = random.Random(players)
    for _real, obs in positions(players, range(6), 3):
        assert obs.seat is not None
        imagined = determinize(obs, rng, forward=True)
        again = imagined.observation(obs.seat)
        assert again.fingerprint() == obs.fingerprint()


def test_the_same_rng_state_gives_the_same_game() -> None:
    _real, obs = positions(2, range(1), 5)[3]
    one = determinize(obs, random.Random(7))
    two = determinize(obs, random.Random(7))
    assert one.state.to_dict(one.table) == two.state.to_dict(two.table)
    other = determinize(obs, random.Random(8))
    assert other.state.to_dict(other.table) != one.state.to_dict(one.table)


def test_hidden_cards_land_in_every_consistent_place() -> None:
    """Over many deals every unseen genestealer reaches every hidden pile, in proportion to
    the piles' sizes, and every unseen Event reaches the top of the Event deck."""
    real, obs = positions(1, range(1), 4)[2]
    counts = obs.counts
    sizes = (counts.genestealer_deck, counts.blips_left, counts.blips_right)
    assert all(sizes), "the position should have cards in all three hidden piles"
    unseen_gs = set(real.state.gs_deck) | set(real.state.blips[0]) | set(real.state.blips[1])
    unseen_events = set(real.state.event_deck)
    where: Counter[tuple[int, int]] = Counter()
    tops: Counter[int] = Counter()
    rng = random.Random(1)
    samples = 3000
    for _ in range(samples):
        st = determinize(obs, rng).state
        for zone, pile in enumerate((st.gs_deck, st.blips[0], st.blips[1])):
            for card in pile:
                where[card, zone] += 1
        tops[st.event_deck[-1]] += 1
    total = sum(sizes)
    for card in unseen_gs:
        for zone, size in enumerate(sizes):
            # Binomial(samples, size/total): a generous 5-sigma band.
            p = size / total
            mean, sd = samples * p, math.sqrt(samples * p * (1 - p))
            assert abs(where[card, zone] - mean) < 5 * sd, (card, zone, where[card, zone], mean)
    assert {card for card, _zone in where} == unseen_gs
    assert set(tops) == unseen_events


def test_the_real_next_event_is_predicted_no_better_than_chance() -> None:
    """Before each Event phase, a determinization's top Event card matches the real one as
    often as a uniform guess among the unseen copies would — no more (a leak of the real
    deck would match nearly always)."""
    hits = 0
    expected = 0.0
    variance = 0.0
    rng = random.Random(3)
    for players in (1, 2, 4):
        for seed in range(60):
            game = Game(GameConfig(players, seed=seed))
            bot = RandomPlayer(seed)
            sampled = 0
            while game.decision is not None:
                st = game.state
                if st.phase == "genestealer_attack" and st.round > sampled and st.event_deck:
                    sampled = st.round  # once a round, at the first decision of the phase
                    obs = game.observation(game.decision.seat)
                    assert obs.forward is not None
                    if obs.forward.scouted_top is None:
                        imagined = determinize(obs, rng)
                        # The same physical card: chance is 1 in the cards the seat has not
                        # seen.
                        hits += imagined.state.event_deck[-1] == st.event_deck[-1]
                        p = 1 / len(st.event_deck)
                        expected += p
                        variance += p * (1 - p)
                game.push(bot.choose(None, game.decision))
    assert expected > 10
    assert hits <= expected + 4 * math.sqrt(variance)


def test_an_observation_without_forward_data_is_refused() -> None:
    game = Game(GameConfig(1, seed=1), forward=False)
    with pytest.raises(ForwardModelError, match="forward=True"):
        determinize(game.observation(1), random.Random(0))


def test_the_determinized_game_plays_on_to_the_end() -> None:
    rng = random.Random(5)
    for _real, obs in positions(3, range(2), 11):
        imagined = determinize(obs, rng)
        bot = RandomPlayer(1)
        while imagined.decision is not None:
            imagined.push(bot.choose(None, imagined.decision))
        assert imagined.outcome in ("victory", "defeat")


def _forward_views(game: Game) -> list[dict[str, object]]:
    """Every seat's forward data, as plain values."""
    views = []
    for seat in range(1, game.config.players + 1):
        data = game.observation(seat).forward
        assert data is not None
        views.append(data.fingerprint(game.table))
    return views


@pytest.mark.parametrize("players", [1, 3, 6])
def test_a_clone_carries_the_same_forward_data_as_its_original(players: int) -> None:
    """A clone shares its original's restart points instead of copying them while it
    replays: what it hands a forward model must still equal the original's, at every
    decision, for every seat, and after both move on (the clone then records its own)."""
    for seed in range(3):
        game = Game(GameConfig(players, seed=seed))
        bot = RandomPlayer(seed)
        step = 0
        while game.decision is not None:
            clone = game.clone().clone() if step % 2 else game.clone()
            assert _forward_views(clone) == _forward_views(game)
            option = bot.choose(None, game.decision)
            game.push(option)
            clone.push(option)
            if game.decision is not None:
                assert _forward_views(clone) == _forward_views(game)
            step += 1
