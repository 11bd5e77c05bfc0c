"""The rules policy's caches across decisions follow the card table they were made for.

They used to be keyed by ``id(table)``: once a table was freed, a new table built at the same
address (CPython reuses freed addresses at once) was handed the old table's spawn weights and
Event move chances. Runs that build tables from different databases in turn (a designer's
``balance`` run, a tuner) would then score options with another card pool's figures.
"""

from __future__ import annotations

import gc
import random
from types import SimpleNamespace

import attrs

from deathangel.cards import load_base
from deathangel.cards.model import CardDatabase
from deathangel.engine.decisions import CHOOSE_ACTION, Decision, Option
from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.engine.observation import Observation, pile_counts
from deathangel.engine.state import CardTable
from deathangel.players.rules import features
from deathangel.players.rules.features import Situation
from deathangel.players.rules.player import RuleSet
from deathangel.players.search.mcts import _GameView

POOL = [0, 1, 2]
TABLES = 40


def by_hand(table: CardTable) -> tuple[dict[str, float], dict[tuple[str, str], float]]:
    """Mean genestealers per terrain colour (a major or a minor box counts 1 without a setup
    card's sizes), and the chance of each move box, over the pool's Event cards."""
    weights: dict[str, float] = {}
    moves: dict[tuple[str, str], float] = {}
    for e in POOL:
        event = table.events[e]
        for box in event.spawns:
            weights[box.color] = weights.get(box.color, 0.0) + 1 / len(POOL)
        if event.move is not None:
            key = (event.move.kind, event.move.icon)
            moves[key] = moves.get(key, 0.0) + 1 / len(POOL)
    return weights, moves


def read_caches(db: CardDatabase) -> None:
    """Build ``TABLES`` tables of ``db`` at once, check what the policy reads for each, free
    them all (so the next database's tables are built at their addresses)."""
    tables = [CardTable(db) for _ in range(TABLES)]
    for table in tables:
        me = SimpleNamespace(
            table=table,
            st=SimpleNamespace(setup_location=None),
            scouted=None,
            _pool=(POOL, frozenset(POOL)),
        )
        weights, moves = by_hand(table)
        got = Situation._weights(me, POOL, frozenset(POOL))  # type: ignore[arg-type]
        assert got.keys() == weights.keys()
        assert all(abs(got[c] - weights[c]) < 1e-12 for c in weights)
        chances = Situation.move_chances.func(me)
        assert chances.keys() == moves.keys()
        assert all(abs(chances[m] - moves[m]) < 1e-12 for m in moves)
    del tables, me
    gc.collect()


def test_cached_figures_follow_the_table_not_its_address() -> None:
    base = load_base()
    reordered = attrs.evolve(base, events=tuple(reversed(base.events)))
    # The two pools differ, so a figure cached for the other database would be caught.
    assert by_hand(CardTable(base)) != by_hand(CardTable(reordered))
    for db in (base, reordered, base, reordered):
        read_caches(db)


# -- caches kept from one decision to the next ---------------------------------------------------
# Two caches of the rules policy outlive a decision: the subjects of options that are about
# the same thing in every situation (made once per card table) and the Event pools (keyed by
# the discard pile, whether the deck holds cards and the Event being resolved). Each is exact
# only if its key holds everything the value reads: scores with the caches warm from whole
# games must equal scores worked out with empty caches, decision by decision.


def cold_scores(ruleset: RuleSet, obs: Observation, decision: Decision) -> list[float]:
    """``ruleset``'s scores with the cross-decision caches empty (put back afterwards)."""
    kept = features._POOLS, features._FIXED_SUBJECTS
    features._POOLS, features._FIXED_SUBJECTS = {}, {}
    try:
        return ruleset.scores(obs, decision)
    finally:
        features._POOLS, features._FIXED_SUBJECTS = kept


def test_caches_across_decisions_change_no_score() -> None:
    ruleset = RuleSet.load("default")
    db = default_database()
    compared = 0
    for players, seed in ((1, 3), (1, 4), (2, 5), (4, 6)):
        game = Game(GameConfig(players, seed=seed), db=db, checkpoints=False)
        rng = random.Random(seed)
        decision = game.decision
        while decision is not None:
            obs = game.observation(decision.seat)
            if len(decision.options) > 1:
                assert ruleset.scores(obs, decision) == cold_scores(ruleset, obs, decision)
                compared += 1
            game.push(ruleset.choose(obs, decision, rng))
            decision = game.decision
    assert compared > 300  # enough decisions, of every phase, for a stale entry to show


def test_a_marine_option_follows_his_row() -> None:
    """A marine's row is never cached with his option: after a swap, the same option names
    the other row."""
    db = default_database()
    game = Game(GameConfig(1, seed=8), db=db)
    obs = game.observation(1)
    assert obs.decision is not None
    option = Option("marine", (obs.state.formation[0].marine.name,))
    before = Situation(obs, obs.decision).subject(option)
    swapped = obs.state.copy()
    swapped.formation[0], swapped.formation[1] = swapped.formation[1], swapped.formation[0]
    view = SimpleNamespace(seat=1, state=swapped, table=obs.table, counts=obs.counts)
    after = Situation(view, obs.decision).subject(option)  # type: ignore[arg-type]
    assert (before.m, after.m) == (0, 1)


# -- values one Choose Actions phase shares --------------------------------------------------------
# In a search's rollouts the teams of one Choose Actions phase share its PHASE_VALUES (the
# search's view offers a memo): the SHARED ones with every seat's later teams, the SEAT ones
# with the same seat's. Exact only if none of them reads the decision, the prompt or the cards
# already chosen, and no shared one reads the seat: every value kept from earlier teams'
# decisions must equal the value worked out afresh for the next team's, and so must every
# score.


def _fresh(game: Game, seat: int, decision: Decision) -> Situation:
    view = SimpleNamespace(
        seat=seat, state=game.state, table=game.table, counts=pile_counts(game.state)
    )
    return Situation(view, decision)  # type: ignore[arg-type]


def _every_phase_value(situation: Situation, decision: Decision) -> None:
    """Work out every listed value (not just those the default rules read), so each is kept
    and compared; the card values of every card offered, and the terrain rows of Doors."""
    for name in features.PHASE_VALUES:
        if not name.startswith("_"):
            getattr(situation, name)
    for option in decision.options:
        situation.card_values(option.text("card"))
    situation.terrain_rows("Door")


def test_a_choose_actions_phase_shares_only_values_every_team_would_compute() -> None:
    ruleset = RuleSet.load("default")
    db = default_database()
    compared = teams_after_the_first = other_seats = 0
    games = [(1, s) for s in range(20, 26)] + [(2, 26), (2, 27), (3, 28), (6, 29)]
    games += [(4, 31), (5, 32), (6, 33)]
    for players, seed in games:
        game = Game(GameConfig(players, seed=seed), db=db, checkpoints=False, forward=False)
        view = _GameView(game.state, game.table)
        rng = random.Random(seed)
        while (decision := game.decision) is not None:
            view.seat = decision.seat
            if decision.kind == CHOOSE_ACTION:
                at = game.state.round
                shared = view.memo.get((at, features._EVERY_SEAT), {})
                own = view.memo.get((at, decision.seat), {})
                assert not shared.keys() & own.keys()
                kept = shared | own
                fresh = _fresh(game, decision.seat, decision)
                teams_after_the_first += bool(kept)
                other_seats += bool(shared) and not own
                for name, value in kept.items():
                    if name == "_cards":
                        for card, values in value.items():
                            assert fresh.card_values(card) == values, card
                    elif name == "_terrain_rows":
                        for terrain, rows in value.items():
                            assert fresh.terrain_rows(terrain) == rows, terrain
                    else:
                        assert getattr(fresh, name) == value, name
                    compared += 1
                assert ruleset.scores(view, decision) == ruleset.scores(fresh.view, decision)
                shared = Situation(view, decision)
                _every_phase_value(shared, decision)
                shared.keep_phase_values()
            game.push(ruleset.choose(view, decision, rng))
    # Enough later teams (a seat's second and third, in every round; at 2-6 players another
    # seat's first, which finds only the shared values) for a wrong entry to show.
    assert teams_after_the_first > 120
    assert other_seats > 60
    assert compared > 120 * len(features.PHASE_VALUES)


def test_an_observation_shares_nothing() -> None:
    """A player's observation offers no memo: each of its situations computes afresh."""
    db = default_database()
    game = Game(GameConfig(1, seed=16), db=db)
    obs = game.observation(1)
    assert obs.decision is not None and obs.decision.kind == CHOOSE_ACTION
    situation = Situation(obs, obs.decision)
    assert len(situation.death) == len(obs.state.formation) + 1  # computed, then kept?
    situation.keep_phase_values()
    assert "death" not in Situation(obs, obs.decision).__dict__


def test_an_action_card_asked_after_the_phase_is_worked_out_afresh() -> None:
    """A plugin's card may ask a team for an action card later in the round, after the
    formation changed: only the Choose Actions phase's own questions share values."""
    db = default_database()
    game = Game(GameConfig(1, seed=30), db=db, checkpoints=False, forward=False)
    decision = game.decision
    assert decision is not None and decision.kind == CHOOSE_ACTION
    view = _GameView(game.state, game.table)
    view.seat = decision.seat
    first = Situation(view, decision)
    _every_phase_value(first, decision)
    first.keep_phase_values()
    assert "facing" in view.memo[game.state.round, features._EVERY_SEAT]
    game.state.phase = "resolve_actions"
    marine = game.state.formation[0].marine
    marine.facing = 1 - marine.facing
    later = Situation(view, decision)
    assert later.facing[0] != first.facing[0]


def test_what_one_seat_saw_on_top_of_the_event_deck_is_not_shared() -> None:
    """Forward Scouting shows one seat the top Event card: the spawns it expects from that
    card are its own, and another seat's team in the same phase expects the deck's."""
    db = default_database()
    game = Game(GameConfig(2, seed=34), db=db, checkpoints=False, forward=False)
    st = game.state
    view = _GameView(st, game.table)
    decision = game.decision
    assert decision is not None and decision.kind == CHOOSE_ACTION and decision.seat == 1
    # The top card seen by seat 1: one whose spawns differ from the deck's average.
    st.scouted = (1, st.event_deck[-1])
    view.seat = 1
    first = Situation(view, decision)
    _every_phase_value(first, decision)
    first.keep_phase_values()
    rng = random.Random(34)
    ruleset = RuleSet.load("default")
    while decision.seat == 1:
        game.push(ruleset.choose(view, decision, rng))
        decision = game.decision
        assert decision is not None and decision.kind == CHOOSE_ACTION
    view.seat = 2
    second = Situation(view, decision)
    fresh = _fresh(game, 2, decision)
    assert first.scouted and not fresh.scouted
    for name in ("spawn_weight", "side_spawns", "next_spawns", "front_spawn", "behind_spawn"):
        assert getattr(second, name) == getattr(fresh, name), name
    assert first.spawn_weight != fresh.spawn_weight  # the test could tell them apart
