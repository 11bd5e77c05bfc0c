"""The MCTS bot: reproducible choices, legal play at every table size, a search that overrules
its rollout policy only when an option is clearly better, and the progress value it backs up.

Budgets are tiny here (a few rollouts) to keep the suite fast; strength is measured with
``deathangel simulate`` (docs/strategies.md), never in a test.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from fractions import Fraction

import pytest
from support import build_state, table

import deathangel.engine.decisions as d
from deathangel.analysis.simulate import play_game
from deathangel.engine.decisions import DONE, KEEP_OPTION, REROLL_OPTION, Decision, Option
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.randomness import ScriptedDie
from deathangel.engine.state import GameState
from deathangel.players.base import View
from deathangel.players.search.greedy import GreedyPolicy
from deathangel.players.search.mcts import MctsPlayer, _Edge, _Node, mcts, preset
from deathangel.players.search.model import ValueModel
from deathangel.players.search.value import ValueWeights, danger, position_value, progress
from deathangel.plugins.strategies import StrategySpecError, parse_spec, strategies

LOCATIONS = ("Dark Catacombs", "Hibernation Cluster", "Genestealer Lair")
"""A solo location deck, top first (decks 2, 3, 4: RULES §3)."""

BLIPS = (
    ("claw-9", "tail-9", "head-9", "tongue-9", "claw-8", "tail-8"),
    ("head-8", "tongue-8", "claw-7", "tail-7", "head-7", "tongue-7"),
)
"""Full solo blip piles (6 and 6)."""


class DoneFirst:
    """A rollout policy that never acts: ``done`` (or ``no``) when it may, else the first
    option. Against it, any action that helps shows up clearly in the search."""

    def choose(self, view: View, decision: Decision, rng: random.Random) -> Option:
        for option in decision.options:
            if option.verb in ("done", "no", "keep"):
                return option
        return decision.options[0]


def attack_position() -> Game:
    """Solo, round 1, the green team resolving Dead Aim: Gideon (range 0) and Noctis
    (range 2) face a swarm of three at position 1 on the left; the first attack is asked."""
    state = build_state(
        [("Sergeant Gideon", "L"), ("Brother Noctis", "L")],
        swarms={(1, "left"): ["claw-1", "claw-2", "claw-3"]},
        blips=BLIPS,
        location_deck=LOCATIONS,
        phase="resolve_actions",
    )
    state.round = 1
    state.chosen = {"green": "Dead Aim"}
    state.revealed = [(16, "green", "Dead Aim")]
    game = Game(GameConfig(1, seed=5, teams=(("green",),)), state=state, forward=True)
    decision = game.decision
    assert decision is not None and decision.kind == d.ATTACK
    assert DONE in decision.options
    return game


def greedy_until(game: Game, stop: int) -> None:
    """Play ``game`` with the greedy policy until ``stop`` rounds have begun."""
    policy = GreedyPolicy()
    rng = random.Random(0)
    while (decision := game.decision) is not None and not (
        game.state.round >= stop and decision.kind == d.CHOOSE_ACTION
    ):
        game.push(policy.choose(game.observation(decision.seat), decision, rng))
    assert game.decision is not None, "the game ended before the wanted round"


# -- reproducible ---------------------------------------------------------------------------


def test_the_same_seed_and_observation_give_the_same_search() -> None:
    game = Game(GameConfig(1, seed=11), checkpoints=False)
    greedy_until(game, 2)
    decision = game.decision
    assert decision is not None
    observation = game.observation(decision.seat)
    first = MctsPlayer(seed=3, iterations=24)
    second = MctsPlayer(seed=3, iterations=24)
    choice = first.choose(observation, decision)
    assert second.choose(observation, decision) == choice
    # Not just the same answer: the same rollouts, value for value.
    assert second.last_values == first.last_values
    assert len(first.last_values) == len(decision.options)
    # A player carries nothing from one decision to the next that changes a choice.
    again = dict(first.last_values)
    assert first.choose(observation, decision) == choice
    assert first.last_values == again


def test_another_seed_searches_other_deals() -> None:
    game = Game(GameConfig(1, seed=11), checkpoints=False)
    greedy_until(game, 2)
    decision = game.decision
    assert decision is not None
    observation = game.observation(decision.seat)
    one = MctsPlayer(seed=3, iterations=24)
    other = MctsPlayer(seed=4, iterations=24)
    one.choose(observation, decision)
    other.choose(observation, decision)
    assert one.last_values != other.last_values


# -- legal play -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_plays_complete_games_without_an_illegal_choice(players: int) -> None:
    seats = [MctsPlayer(seed=seat, iterations=3) for seat in range(1, players + 1)]
    result = play_game(GameConfig(players, seed=40 + players), seats)  # raises on illegal
    assert result.outcome in ("victory", "defeat")
    assert sum(p.stats.searched for p in seats) > 0
    assert all(p.stats.searched <= p.stats.decisions for p in seats)


# -- the search -----------------------------------------------------------------------------


def test_overrules_a_policy_that_does_not_attack() -> None:
    game = attack_position()
    decision = game.decision
    assert decision is not None
    player = MctsPlayer(seed=1, iterations=120, horizon=2, policy=DoneFirst())
    choice = player.choose(game.observation(1), decision)
    # Attacking a swarm of three that will attack Gideon (RULES §6.3, §7) beats waiting.
    assert choice.verb == "attack"
    assert player.stats.overruled == 1
    assert player.last_values[choice] > player.last_values[DONE]


def test_keeps_the_policy_choice_when_the_gap_is_not_clear() -> None:
    game = attack_position()
    decision = game.decision
    assert decision is not None
    # No value gain can reach a margin of 1: the search may never overrule.
    player = MctsPlayer(seed=1, iterations=120, horizon=2, margin=1.0, policy=DoneFirst())
    assert player.choose(game.observation(1), decision) == DONE
    assert player.stats.overruled == 0
    assert player.stats.searched == 1


def test_a_time_cap_stops_after_one_sweep() -> None:
    game = attack_position()
    decision = game.decision
    assert decision is not None
    player = MctsPlayer(seed=1, iterations=10**6, seconds=1e-9)
    player.choose(game.observation(1), decision)
    assert player.stats.iterations == len(decision.options)


# -- the tree's statistics, by hand ----------------------------------------------------------

FLAT = ValueWeights(base=0.0, progress=0.0, standing=0.0, danger=0.0, tokens=0.0)
"""A value of exactly 1/(1 + e⁰) = 0.5 for every position short of the end: every rollout's
worth is known in advance, so every backed-up total is too."""


def test_root_edges_back_up_one_rollout_per_option_per_sweep() -> None:
    game = Game(GameConfig(1, seed=11))
    decision = game.decision
    assert decision is not None and decision.kind == d.CHOOSE_ACTION
    first, second, third = decision.options  # Block, Run and Gun, Dead Aim
    player = MctsPlayer(seed=1, iterations=12, weights=FLAT, policy=DoneFirst())
    assert player.choose(game.observation(1), decision) == first  # nothing beats 0.5
    # Sequential halving of 12 rollouts over 3 options: ceil(log2 3) = 2 rounds of 6. Round
    # 1: 6 // 3 = 2 sweeps, each option once per sweep. Every mean is 0.5, so the stable sort
    # keeps the first ceil(3/2) = 2 (the policy's own among them). Round 2: 6 // 2 = 3 sweeps.
    assert player.last_visits == {first: 2 + 3, second: 2 + 3, third: 2}
    assert player.last_values == {first: 0.5, second: 0.5, third: 0.5}
    assert player.stats.iterations == 12


def test_every_edge_below_the_root_backs_up_each_rollout_that_passed() -> None:
    game = Game(GameConfig(1, seed=11))
    decision = game.decision
    assert decision is not None
    player = MctsPlayer(seed=1, depth=2, weights=FLAT, policy=DoneFirst())
    root = _Edge()
    observation = game.observation(1)
    for seed in (7, 8, 9):
        value = player._iterate(observation, root, (decision.options[0],), seed, limit=1)
        assert value == 0.5
    assert (root.visits, root.total) == (3, 1.5)
    # The next decision of the seat is the yellow team's card (solo: three teams, RULES §5),
    # three cards legal in every deal. Untried options go first, so three iterations try
    # each once, each bringing back 0.5.
    assert root.child is not None
    edges = root.child.edges
    assert {kind for kind, _ in edges} == {d.CHOOSE_ACTION}
    assert len(edges) == 3
    assert [(e.visits, e.total, e.available) for e in edges.values()] == [(1, 0.5, 3)] * 3


def tree_node(reroll: tuple[int, float, int], keep: tuple[int, float, int]) -> _Node:
    """A node whose reroll and keep edges have these (visits, total, available)."""
    node = _Node()
    for option, (visits, total, available) in ((REROLL_OPTION, reroll), (KEEP_OPTION, keep)):
        edge = node.edges[d.REROLL, option] = _Edge()
        edge.visits, edge.total, edge.available = visits, total, available
    return node


@pytest.mark.parametrize(
    ("exploration", "keep_available", "expected"),
    [
        # Reroll: mean 5.4/9 = 0.6; keep: mean 0.4 after one visit. Both become available once
        # more as they are offered (10 times). UCB1 = mean + c·sqrt(ln available / visits):
        # reroll 0.6 + 0.5·sqrt(ln 10 / 9) = 0.853, keep 0.4 + 0.5·sqrt(ln 10 / 1) = 1.159.
        (0.5, 9, KEEP_OPTION),
        # No exploration: the better mean.
        (0.0, 9, REROLL_OPTION),
        # Keep offered only once before (available 2 now): 0.4 + 0.5·sqrt(ln 2) = 0.816, less
        # than reroll's 0.853 — the bonus grows with how often an option *could* have been
        # chosen, not with the node's visits.
        (0.5, 1, REROLL_OPTION),
    ],
)
def test_ucb1_below_the_root_by_hand(
    exploration: float, keep_available: int, expected: Option
) -> None:
    node = tree_node(reroll=(9, 5.4, 9), keep=(1, 0.4, keep_available))
    player = MctsPlayer(exploration=exploration)
    decision = Decision(1, d.REROLL, (REROLL_OPTION, KEEP_OPTION))
    # Every option is tried, so the view (read only to order untried options) is not needed.
    option, edge, fresh = player._select(node, decision, None, random.Random(0))  # type: ignore[arg-type]
    assert (option, fresh) == (expected, False)
    assert edge is node.edges[d.REROLL, expected]
    available = [e.available for e in node.edges.values()]
    assert available == [10, keep_available + 1]


def defence(face: int, size: int = 2, lords: tuple[str, ...] = ()) -> Game:
    """Solo, the Genestealer Attack phase: a swarm at position 1 on the left attacks Brother
    Leon, who faces it with one support token; the die shows ``face`` and the reroll is
    asked."""
    state = build_state(
        [("Brother Leon", "L", 1), ("Brother Valencio", "R")],
        swarms={(1, "left"): [f"claw-{i}" for i in range(1, size + 1)] + list(lords)},
        blips=BLIPS,
        location_deck=LOCATIONS,
        phase="genestealer_attack",
    )
    state.round = 1
    config = GameConfig(1, seed=5, teams=(("red",),))
    game = Game(config, state=state, die=ScriptedDie([face]), forward=True)
    decision = game.decision
    assert decision is not None and decision.kind == d.REROLL
    return game


def test_a_defence_roll_that_misses_is_kept_without_a_search() -> None:
    game = defence(face=3, size=2)  # 3 > 2: the attack misses (RULES §7)
    decision = game.decision
    assert decision is not None
    player = MctsPlayer(seed=1, iterations=50)
    assert player.choose(game.observation(1), decision) == KEEP_OPTION
    assert (player.stats.decisions, player.stats.searched, player.stats.iterations) == (1, 0, 0)


def test_a_brood_lord_makes_the_same_face_a_kill_worth_searching() -> None:
    # 3 minus one Brood Lord is 2, at most the swarm's size of 3: Leon is slain (RULES §7).
    game = defence(face=3, size=2, lords=("Brood Lord A",))
    decision = game.decision
    assert decision is not None
    player = MctsPlayer(seed=1, iterations=50)
    player.choose(game.observation(1), decision)
    assert (player.stats.searched, player.stats.iterations) == (1, 50)
    # Rerolling is his only chance to live: the search values it above the kill.
    assert player.last_values[REROLL_OPTION] > player.last_values[KEEP_OPTION]


# -- parameters -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:iterations=0", "iterations must be at least 1"),
        ("mcts:horizon=-1", "horizon must be"),
        ("mcts:policy=oracle", "policy: oracle: no such rule file"),
        ("mcts:iterations=many", "takes an int"),
        ("mcts:exploration=nan", "exploration must be a finite number, not nan"),
        ("mcts:exploration=-0.5", "exploration must be 0 or more, not -0.5"),
        ("mcts:margin=inf", "margin must be a finite number, not inf"),
        ("mcts:confidence=nan", "confidence must be a finite number, not nan"),
        ("mcts:seconds=nan", r"seconds must be 0 \(no cap\) or more, not nan"),
        ("mcts:standing=nan", r"standing must be 0 or more \(finite\), not nan"),
        ("mcts:standing=inf", r"standing must be 0 or more \(finite\), not inf"),
    ],
)
def test_bad_parameters_are_refused_with_a_message(spec: str, message: str) -> None:
    with pytest.raises(StrategySpecError, match=message):
        parse_spec(spec).make(1)


def test_the_factory_passes_its_parameters() -> None:
    player = mcts(seed=9, iterations=7, seconds=0.5, horizon=3, depth=2, margin=0.1)
    assert (player.seed, player.iterations, player.seconds, player.horizon, player.depth) == (
        9,
        7,
        0.5,
        3,
        2,
    )
    assert player.margin == 0.1


def test_the_default_rolls_out_two_rounds() -> None:
    # The default the held-out comparison chose (docs/strategies.md): horizon 2, 150 rollouts.
    player = parse_spec("mcts").make(1)
    assert (player.iterations, player.horizon) == (150, 2)


@pytest.mark.parametrize(("players", "named"), [(1, "self-play"), (2, "progress")])
def test_the_default_value_is_the_one_chosen_for_the_number_of_seats(
    players: int, named: str
) -> None:
    """The fast default's value: the self-play model solo (its held-out test), the hand-made
    progress value at 2 players. The same values of a position, and the same search, value
    for value, as the value named."""
    game = Game(GameConfig(players, seed=11), checkpoints=False)
    greedy_until(game, 2)
    decision = game.decision
    assert decision is not None
    default = parse_spec("mcts:iterations=24").make(3)
    explicit = parse_spec(f"mcts:iterations=24,value={named}").make(3)
    state, cards = game.state, game.table
    assert default.value(state, cards) == explicit.value(state, cards)
    if named == "progress":
        assert default.value(state, cards) == position_value(state, cards)
    else:
        assert default.value(state, cards) == ValueModel.load(named).value(state, cards)
    observation = game.observation(decision.seat)
    assert default.choose(observation, decision) == explicit.choose(observation, decision)
    assert default.last_values == explicit.last_values


def test_the_strong_preset_is_listed_with_its_own_defaults_and_takes_overrides() -> None:
    listed = strategies()["mcts-strong"]
    defaults = {p.name: p.default for p in listed.parameters}
    assert (defaults["iterations"], defaults["horizon"], defaults["value"]) == (400, 2, "learned")
    assert "margin" in defaults and "seed" not in defaults  # every mcts parameter, as mcts has
    player = parse_spec("mcts-strong:iterations=9,margin=0.25").make(4)
    assert (player.seed, player.iterations, player.horizon, player.margin) == (4, 9, 2, 0.25)
    assert isinstance(player.value.__self__, ValueModel)  # the shipped learned model


def test_a_preset_naming_a_parameter_mcts_lacks_is_refused() -> None:
    with pytest.raises(ValueError, match="preset 'x': mcts has no parameter 'horizons'"):
        preset("x", "a typo", {"horizons": 3})


def test_a_deeper_tree_plays_legally() -> None:
    player = MctsPlayer(seed=2, iterations=6, depth=3)
    result = play_game(GameConfig(1, seed=3), [player])
    assert result.outcome in ("victory", "defeat")


def test_simulate_command_plays_mcts() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "deathangel",
            "simulate",
            "--players",
            "1",
            "--games",
            "1",
            "--seed",
            "3",
            "--strategy",
            "mcts:iterations=2",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "mcts:iterations=2" in run.stdout


# -- the value ------------------------------------------------------------------------------


def solo(blips: tuple[tuple[str, ...], tuple[str, ...]], **kwargs: object) -> GameState:
    return build_state([("Brother Leon", "L"), ("Brother Valencio", "R")], blips=blips, **kwargs)  # type: ignore[arg-type]


def test_progress_counts_travels_and_the_emptier_pile() -> None:
    t = table()
    full = solo(BLIPS, location_deck=LOCATIONS)
    assert progress(full, t) == 0.0
    # Half the left pile gone at the setup location (6 and 6): half of the first of four legs.
    half = solo((BLIPS[0][:3], BLIPS[1]), location_deck=LOCATIONS)
    assert progress(half, t) == pytest.approx(0.5 / 4)
    # One travel made; at Dark Catacombs (6 and 6 on arrival) 4 left and 6 right: a third of
    # the second leg of four.
    arrived = solo((BLIPS[0][:4], BLIPS[1]), location="Dark Catacombs", location_deck=LOCATIONS[1:])
    assert progress(arrived, t) == pytest.approx((1 + 1 / 3) / 4)


def test_progress_at_the_final_location_counts_what_is_left_to_clear() -> None:
    t = table()
    # Genestealer Lair: 6 left and 5 right on arrival; 3 and 2 left, one engaged.
    state = solo(
        (BLIPS[0][:3], BLIPS[1][:2]),
        location="Genestealer Lair",
        swarms={(1, "left"): ["claw-1"]},
    )
    assert progress(state, t) == pytest.approx((3 + (1 - Fraction(6, 12))) / 4)


def test_a_final_location_counts_its_own_victory() -> None:
    t = table()
    # Genestealer Lair, piles full (6 and 5), nothing engaged: clearing has not begun, but
    # one of the two Brood Lords is slain — half its victory (both slain wins).
    lair = solo((BLIPS[0], BLIPS[1][:5]), location="Genestealer Lair")
    assert progress(lair, t) == 3 / 4
    lair.lords_slain = [t.gs_by_label["Brood Lord A"]]
    assert progress(lair, t) == pytest.approx((3 + 1 / 2) / 4)
    # Launch Control Room (6 and 6): two of the five tokens that make the launch certain.
    room = solo(BLIPS, location="Launch Control Room")
    room.location_tokens = 2
    assert progress(room, t) == pytest.approx((3 + 2 / 5) / 4)


def test_danger_is_the_chance_each_swarm_slays() -> None:
    t = table()
    state = solo(
        BLIPS,
        location_deck=LOCATIONS,
        swarms={(1, "left"): ["claw-1", "claw-2"], (2, "right"): ["tail-1", "Brood Lord A"]},
    )
    # Two cards slay on 0-2 (3 of 6 faces); a card and a Brood Lord on 0-3 (4 of 6).
    assert danger(state, t) == pytest.approx(3 / 6 + 4 / 6)


def test_the_value_is_the_logistic_chance_of_a_win() -> None:
    t = table()
    state = build_state(
        [("Brother Leon", "L", 1), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["claw-1", "claw-2"]},
        blips=(BLIPS[0][:3], BLIPS[1]),
        location_deck=LOCATIONS,
    )
    state.slain = ["Brother Noctis"]
    weights = ValueWeights(base=-1.0, progress=2.0, standing=0.5, danger=1.0, tokens=0.25)
    # Progress 1/8 (half the left pile gone, RULES §10); two of three marines standing count
    # as four of six; danger 1/2 (two genestealers slay on 0-2); one token counts as two.
    logit = -1.0 + 2.0 / 8 + 0.5 * 4 - 1.0 / 2 + 0.25 * 2
    assert position_value(state, t, weights) == pytest.approx(1 / (1 + math.exp(-logit)))
    state.outcome = "victory"
    assert position_value(state, t, weights) == 1.0
    state.outcome = "defeat"
    assert position_value(state, t, weights) == 0.0


# -- the horizon at the final location --------------------------------------------------------


def lair_attack_position() -> Game:
    """The attack position of :func:`attack_position`, but at the Genestealer Lair with no
    location left to travel to: the final location."""
    state = build_state(
        [("Sergeant Gideon", "L"), ("Brother Noctis", "L")],
        swarms={(1, "left"): ["claw-1", "claw-2", "claw-3"]},
        blips=(BLIPS[0][:3], BLIPS[1][:2]),
        location="Genestealer Lair",
        phase="resolve_actions",
    )
    state.round = 6
    state.chosen = {"green": "Dead Aim"}
    state.revealed = [(16, "green", "Dead Aim")]
    game = Game(GameConfig(1, seed=5, teams=(("green",),)), state=state, forward=True)
    assert game.decision is not None and game.decision.kind == d.ATTACK
    return game


def _valued_outcomes(game: Game, **kwargs: int) -> list[str | None]:
    """The outcome of every position the search's rollouts stopped at."""
    seen: list[str | None] = []

    def value(state: GameState, t: object) -> float:
        seen.append(state.outcome)
        return 0.5

    decision = game.decision
    assert decision is not None
    player = MctsPlayer(seed=3, iterations=12, policy=GreedyPolicy(), value=value, **kwargs)
    player.analyse(game.observation(decision.seat), decision)
    assert len(seen) == 12
    return seen


def test_at_the_final_location_final_horizon_0_rolls_out_to_the_end() -> None:
    game = lair_attack_position()
    assert not game.observation(1).counts.location_deck  # the final location
    # Two rounds from round 6 cut some rollouts short of the end...
    assert None in _valued_outcomes(game, horizon=2)
    # ...to the end, every rollout is a win or a defeat.
    ends = _valued_outcomes(game, horizon=2, final_horizon=0)
    assert None not in ends and set(ends) <= {"victory", "defeat"}


def test_final_horizon_leaves_a_search_before_the_final_location_alone() -> None:
    game = attack_position()
    assert game.observation(1).counts.location_deck == 3
    assert _valued_outcomes(game, horizon=1, final_horizon=0) == _valued_outcomes(game, horizon=1)


def test_final_horizon_is_passed_and_checked() -> None:
    assert parse_spec("mcts:final_horizon=0").make(1).final_horizon == 0
    assert parse_spec("mcts:horizon=3").make(1).final_horizon == 3  # -1: as horizon
    with pytest.raises(StrategySpecError, match="final_horizon must be"):
        parse_spec("mcts:final_horizon=-2").make(1)


def test_standing_weighs_the_marines_in_the_progress_value() -> None:
    t = table()
    state = solo(BLIPS, location_deck=LOCATIONS)  # two marines standing, nothing engaged
    shipped = parse_spec("mcts:value=progress").make(1)
    assert shipped.weights == ValueWeights()  # the default changes nothing
    keen = parse_spec("mcts:standing=1.5,value=progress").make(1)
    assert keen.weights.standing == 1.5
    # Solo-scaled: two of two marines count as six, so the log-odds rise by 6 x (1.5 - 0.654).
    logit = math.log(keen.value(state, t) / (1 - keen.value(state, t)))
    base = math.log(shipped.value(state, t) / (1 - shipped.value(state, t)))
    assert logit - base == pytest.approx(6 * (1.5 - 0.654))
    # Where a model values (the default's solo value), ``standing`` changes nothing.
    auto, auto_keen = parse_spec("mcts").make(1), parse_spec("mcts:standing=1.5").make(1)
    assert auto_keen.value(state, t) == auto.value(state, t) != shipped.value(state, t)
    with pytest.raises(StrategySpecError, match="standing must be 0 or more"):
        parse_spec("mcts:standing=-1").make(1)


# -- extend: more rollouts for a close call ------------------------------------------------


class Scripted(MctsPlayer):
    """A search whose rollouts are worth known values: the policy's own option always 0.5,
    its rival the values of ``rival`` in turn and then ``then`` for ever, any other 0. So
    every paired difference, its mean and its standard error can be worked out by hand."""

    def __init__(self, rival: list[float], then: float, **kwargs: object) -> None:
        super().__init__(seed=1, iterations=12, policy=DoneFirst(), **kwargs)  # type: ignore[arg-type]
        self.script = list(rival)
        self.then = then
        self.own: Option | None = None
        self.rival: Option | None = None

    def _iterate(self, observation, edge, plan, seed, limit):  # type: ignore[no-untyped-def]
        option = plan[0]  # a plan of one card: this search is not joint
        if option == self.own:
            value = 0.5
        elif option == self.rival:
            value = self.script.pop(0) if self.script else self.then
        else:
            value = 0.0
        edge.visits += 1
        edge.total += value
        return value


def scripted_choice(
    then: float, extend: int, margin: float = 0.002
) -> tuple[Option, Option, Scripted]:
    """Round 1's action choice searched by :class:`Scripted`: returns the choice, the rival
    and the player. Its 12 rollouts over three options (see
    ``test_root_edges_back_up_one_rollout_per_option_per_sweep``) give the rival five sweeps,
    0.9, 0.3, 0.9, 0.3, 0.9: paired gains over the policy's 0.5 of +0.4, -0.2, +0.4, -0.2,
    +0.4, mean 0.16, standard error 0.147 — over the margin (0.002) and one standard error, so
    the plain search overrules; not two standard errors from the margin, so a close call."""
    game = Game(GameConfig(1, seed=11))
    decision = game.decision
    assert decision is not None and decision.kind == d.CHOOSE_ACTION
    player = Scripted([0.9, 0.3, 0.9, 0.3, 0.9], then, extend=extend, margin=margin)
    player.own, player.rival = decision.options[0], decision.options[1]
    return player.choose(game.observation(1), decision), player.rival, player


def test_without_extend_a_close_call_is_overruled_on_one_standard_error() -> None:
    choice, rival, player = scripted_choice(then=0.35, extend=0)
    assert choice == rival
    assert player.stats.iterations == 12
    assert player.stats.extended == 0


@pytest.mark.parametrize("margin", [0.002, 0.0])
def test_extend_plays_a_close_call_on_until_the_policy_is_back_on_top(margin: float) -> None:
    # Each further sweep: the policy 0.5, the rival 0.35. The rival's mean after k more is
    # (3.3 + 0.35 k) / (5 + k): 0.505 at k = 5, 0.4909 at k = 6, below the policy's 0.5. Its
    # paired gain is never two standard errors from the margin before (k = 5: mean 0.005,
    # error 0.086), so six sweeps of two rollouts, and the policy's choice stays. (With a
    # margin of 0 the policy against itself is never "two errors from the margin": only
    # seeing it back on top stops the extra sweeps.)
    choice, rival, player = scripted_choice(then=0.35, extend=100, margin=margin)
    assert choice == player.own != rival
    assert player.stats.iterations == 12 + 6 * 2
    assert player.stats.extended == 1
    assert player.last_visits[rival] == 5 + 6


def test_extend_stops_once_the_gain_is_two_standard_errors_clear() -> None:
    # Each further sweep a gain of +0.4: after one, mean 0.2, error 0.1265 (0.198 from the
    # margin, under 2 x 0.1265); after two, mean 0.2286, error 0.1107 (0.2266 > 0.2213).
    choice, rival, player = scripted_choice(then=0.9, extend=100)
    assert choice == rival
    assert player.stats.iterations == 12 + 2 * 2


def test_extend_is_a_cap_and_then_the_usual_test_decides() -> None:
    # Two further sweeps (the cap of 4 rollouts) of a gain of -0.15: mean 0.0714, error
    # 0.1164 — over the margin but under one standard error, so the policy's choice stays.
    choice, _, player = scripted_choice(then=0.35, extend=4)
    assert choice == player.own
    assert player.stats.iterations == 12 + 4


def test_extend_is_passed_and_checked() -> None:
    assert parse_spec("mcts:extend=300").make(1).extend == 300
    assert parse_spec("mcts").make(1).extend == 0
    with pytest.raises(StrategySpecError, match="extend must be"):
        parse_spec("mcts:extend=-1").make(1)


def test_analyse_keeps_a_given_option_unless_another_clearly_beats_it() -> None:
    """``analyse(..., own)`` asks whether the search would overrule another strategy's
    choice: with a margin no value can clear (values are chances, 0 to 1), every option
    given is the answer, whatever the search's own policy prefers."""
    game = Game(GameConfig(1, seed=21))
    decision = game.decision
    assert decision is not None and len(decision.options) > 1
    obs = game.observation(decision.seat)
    answers = [
        MctsPlayer(seed=4, iterations=8, margin=1.0).analyse(obs, decision, option)
        for option in decision.options
    ]
    assert answers == list(decision.options)
    with pytest.raises(ValueError, match="not one of the decision's options"):
        MctsPlayer(seed=4, iterations=8).analyse(obs, decision, Option("card", ("Nothing",)))


# -- joint: a seat's cards for its next teams searched as plans -------------------------------


def solo_round_one() -> tuple[Game, list[tuple[Option, ...]], list[str]]:
    """Solo, seed 11, round 1's Choose Actions: the real game's legal cards for each of the
    three teams in turn (read after every choice of the teams before, which must not change
    them: a team's cards are its own) and the teams in the order they are asked."""
    game = Game(GameConfig(1, seed=11))
    first = game.decision
    assert first is not None and first.kind == d.CHOOSE_ACTION
    cards: list[tuple[Option, ...]] = [first.options]
    teams: list[str] = []
    for step in range(3):
        for option in cards[step]:
            after = game.clone()
            after.push(option)
            if step < 2:
                nxt = after.decision
                assert nxt is not None and nxt.kind == d.CHOOSE_ACTION and nxt.seat == 1
                if option == cards[step][0]:
                    cards.append(nxt.options)
                assert nxt.options == cards[step + 1]
        chosen = set(game.state.chosen)
        game.push(cards[step][0])
        teams += set(game.state.chosen) - chosen
    return Game(GameConfig(1, seed=11)), cards, teams


def test_joint_plans_are_every_combination_of_the_teams_cards() -> None:
    game, cards, _ = solo_round_one()
    decision = game.decision
    assert decision is not None
    observation = game.observation(1)
    own = decision.options[0]
    for joint, expected in ((3, 27), (2, 9)):
        player = MctsPlayer(seed=1, joint=joint, policy=DoneFirst())
        plans, mine = player._plans(observation, decision, own, random.Random(5))
        combos = [(a,) for a in cards[0]]
        for later in cards[1:joint]:
            combos = [(*c, b) for c in combos for b in later]
        assert len(plans) == expected and sorted(plans) == sorted(combos)
        # The policy's plan: its own choice for each team in turn (here always the first).
        assert mine == tuple(c[0] for c in cards[:joint])


class CardsValue:
    """Rollouts of one round valued by the cards the teams resolved in it: the policy's
    own first card 0.5; the second card of the first team 0.9 with the second card of the
    second team, else 0.3; anything else 0.4. One team at a time, the first team's second
    card is valued with the second team's card as the policy plays it (its first: 0.3), so
    the policy's own stays; as plans, the pair is valued together (0.9) and wins."""

    def __init__(self, cards: list[tuple[Option, ...]], teams: list[str]) -> None:
        self.first, self.second = teams[0], teams[1]
        self.own = cards[0][0].args[0]
        self.pair = (cards[0][1].args[0], cards[1][1].args[0])

    def __call__(self, state: GameState, table: object) -> float:
        played = state.last_resolved
        first, second = played.get(self.first), played.get(self.second)
        if first == self.own:
            return 0.5
        if first == self.pair[0]:
            return 0.9 if second == self.pair[1] else 0.3
        return 0.4


def test_joint_plans_value_the_teams_cards_together() -> None:
    game, cards, teams = solo_round_one()
    decision = game.decision
    assert decision is not None
    value = CardsValue(cards, teams)
    one = MctsPlayer(seed=1, iterations=60, horizon=1, policy=DoneFirst(), value=value)
    assert one.choose(game.observation(1), decision) == cards[0][0]
    assert one.last_values[cards[0][1]] == pytest.approx(0.3)
    joint = MctsPlayer(seed=1, iterations=60, horizon=1, policy=DoneFirst(), value=value, joint=2)
    assert joint.choose(game.observation(1), decision) == cards[0][1]
    # An option is accounted by its best plan.
    assert joint.last_values[cards[0][1]] == pytest.approx(0.9)
    assert joint.last_values[cards[0][0]] == pytest.approx(0.5)
    assert joint.stats.overruled == 1


def test_joint_is_refused_below_one_and_passed_by_the_factory() -> None:
    with pytest.raises(ValueError, match="joint must be 1"):
        MctsPlayer(joint=0)
    assert mcts(1, joint=3).joint == 3
    assert mcts(1).joint == 1
