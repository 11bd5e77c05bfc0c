"""Information-set Monte Carlo tree search over determinizations (ISMCTS).

The bot never sees the game: each iteration deals what its seat cannot see at random
(:func:`~deathangel.engine.forward.determinize`), plays one root option in that game, walks
down a shallow tree of its own later decisions, rolls out with a fast rollout policy for a
few rounds, and backs up :func:`~deathangel.players.search.value.position_value`.

Why it is shaped this way (measured on solo games):

- Most of this game is hidden chance: a win/loss value alone cannot rank options at a
  budget of a few hundred rollouts, so rollouts are valued by progress (locations, marines
  standing, danger, tokens), a win worth far more than any of it.
- Root options are compared on the *same* deals and dice streams (one seed per sweep over
  the options): common random numbers, so the difference between two options is measured
  far more precisely than either value. The budget is spent by sequential halving: the
  better half of the options gets the next share, the policy's own choice always stays.
- The bot keeps the rollout policy's choice unless the best option beats it, over the
  paired sweeps, by at least ``margin`` and by ``confidence`` standard errors: a search that
  cannot see the dice should not overrule a sound rule of thumb on noise.
- Below the root, nodes are keyed by (decision kind, option) — an option legal in one deal
  may not be in another — and chosen by UCB1 with availability counts (how often an option
  was legal when its node was visited), the policy's choice expanded first.
- Every decision's random stream comes from the bot's seed and the situation (round, phase,
  kind, options, decisions seen this phase), so the same seed and the same observation give
  the same choice: a resumed game need not replay the bot's past (``replays_on_resume``).
"""

from __future__ import annotations

import inspect
import math
import random
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from attrs import define, evolve, field

import deathangel.engine.decisions as d
from deathangel.engine.defence import slays, swarm_strength
from deathangel.engine.forward import determinize
from deathangel.engine.observation import PileCounts, pile_counts
from deathangel.players.search.greedy import GreedyPolicy, RolloutPolicy
from deathangel.players.search.value import DEFAULT_WEIGHTS, ValueWeights, position_value

PositionValue = Callable[["GameState", "CardTable"], float]
"""What a position is worth to the marines, 0–1 (the chance they win from it)."""

if TYPE_CHECKING:
    from deathangel.engine.decisions import Decision, Option
    from deathangel.engine.game import Game
    from deathangel.engine.observation import Observation
    from deathangel.engine.state import CardTable, GameState

Plan = tuple["Option", ...]
"""What a root edge tries: one option, or a joint search's cards for the seat's next teams."""


ITERATIONS = 150
"""Rollouts per searched decision by default: a median decision near 0.1 s on one core."""
HORIZON = 2
"""Rounds a rollout plays by default, the current one included. Two, not one: on 150 held-out
solo seeds a two-round horizon won 60 games to the one-round horizon's 41 (paired: 38 deals
won only by it, 19 only by the other, McNemar p 0.016), at ~0.14 s a decision; see
docs/strategies.md."""
DEPTH = 1
"""Own decisions per iteration chosen in the tree by default (1: the root only)."""
EXPLORATION = 0.5
"""UCB1's exploration constant below the root."""
MARGIN = 0.002
"""The least value gain over the policy's choice that may overrule it."""
CONFIDENCE = 1.0
"""Standard errors of the paired gain an overruling option must also clear."""


SETTLED = 2.0
"""Standard errors of the paired gain that decide a close call (``extend``): a rival is
settled once its gain is this far above the margin or this far below."""


class _GameView:
    """A rollout policy's view of a determinized game: its own state, read in place (a
    determinized game is the bot's own imagination, so nothing leaks to copy from)."""

    __slots__ = ("memo", "seat", "state", "table")

    def __init__(self, state: GameState, table: CardTable) -> None:
        self.seat: int | None = None
        self.state = state
        self.table = table
        self.memo: dict[tuple[int, int | None], dict[str, Any]] = {}
        """The rules' values shared by one Choose Actions phase's decisions of a seat
        (:data:`~deathangel.players.rules.features.PHASE_VALUES`): this view lives for one
        rollout, whose state only its engine changes."""

    @property
    def counts(self) -> PileCounts:
        return pile_counts(self.state)


class _Edge:
    """One option at a node: how often it was tried, legal, and what it brought."""

    __slots__ = ("available", "child", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.child: _Node | None = None

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class _Node:
    """A decision of the searching seat, as reached by a sequence of its own choices."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[tuple[str, Any], _Edge] = {}
        """By (decision kind, option); at the root, by (kind, plan)."""


@define
class SearchStats:
    """What the bot's searches cost and did, for measurements (not part of its choices)."""

    decisions: int = 0
    """Decisions asked."""
    searched: int = 0
    """Decisions searched (the others were forced or trivial)."""
    iterations: int = 0
    """Rollouts played, over every search."""
    overruled: int = 0
    """Searches whose choice differed from the rollout policy's."""
    extended: int = 0
    """Searches that spent rollouts beyond the budget on a close call (``extend``)."""
    seconds: list[float] = field(factory=list)
    """Process time of each searched decision (the time on one core, whatever else the
    machine runs)."""
    kinds: dict[str, list[int]] = field(factory=dict)
    """Decision kind → [searched, overruled]."""


class MctsPlayer:
    """Information-set MCTS over determinizations, with a rollout policy and a progress value.

    The parameters are those of :func:`mcts` (the strategy's factory), with the policies as
    objects (greedy by default) and the ``weights`` of the value.
    """

    uses_forward_model = True
    replays_on_resume = False  # each choice depends only on the seed and the observation

    def __init__(
        self,
        seed: int = 0,
        iterations: int = ITERATIONS,
        seconds: float = 0.0,
        horizon: int = HORIZON,
        depth: int = DEPTH,
        exploration: float = EXPLORATION,
        margin: float = MARGIN,
        confidence: float = CONFIDENCE,
        *,
        policy: RolloutPolicy | None = None,
        rollout: RolloutPolicy | None = None,
        weights: ValueWeights = DEFAULT_WEIGHTS,
        value: PositionValue | None = None,
        final_horizon: int = -1,
        extend: int = 0,
        joint: int = 1,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if not seconds >= 0:  # NaN too
            raise ValueError(f"seconds must be 0 (no cap) or more, not {seconds}")
        for name, number in (
            ("exploration", exploration),
            ("margin", margin),
            ("confidence", confidence),
        ):
            # NaN compares false with everything: a NaN margin would never let the search
            # overrule its policy, and nobody would be told.
            if not math.isfinite(number):
                raise ValueError(f"{name} must be a finite number, not {number}")
        if exploration < 0:
            raise ValueError(f"exploration must be 0 or more, not {exploration}")
        if horizon < 0:
            raise ValueError(f"horizon must be 0 (to the end) or a number of rounds, not {horizon}")
        if depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        if final_horizon < -1:
            raise ValueError(
                f"final_horizon must be -1 (as horizon), 0 (to the end) or a number of rounds,"
                f" not {final_horizon}"
            )
        if extend < 0:
            raise ValueError(f"extend must be 0 (none) or a number of rollouts, not {extend}")
        if joint < 1:
            raise ValueError(f"joint must be 1 (one card at a time) or more, not {joint}")
        self.seed = seed
        self.iterations = iterations
        self.extend = extend
        """Rollouts a close call may add after the budget (:meth:`_settle`); 0: none."""
        self.joint = joint
        """How many of the seat's Choose Actions decisions in a row (this team's card and its
        next teams') a search compares as one plan (:meth:`_plans`); 1: this card alone."""
        self.seconds = seconds
        self.horizon = horizon
        self.final_horizon = horizon if final_horizon == -1 else final_horizon
        """The horizon of a search that starts at the final location, where the game ends
        within a few rounds and its own victory condition decides it."""
        self.depth = depth
        self.exploration = exploration
        self.margin = margin
        self.confidence = confidence
        self.policy: RolloutPolicy = policy if policy is not None else GreedyPolicy()
        """The bot's own choice, kept unless the search clearly beats it; first tried at a
        new tree node."""
        self.rollout: RolloutPolicy = rollout if rollout is not None else self.policy
        """What plays the rollouts (and other seats' decisions in the tree's game)."""
        self.weights = weights
        self.value: PositionValue = (
            value if value is not None else partial(_progress_value, weights=weights)
        )
        """What a rollout cut short is worth: the hand-made progress value (with ``weights``)
        or a learned model's :meth:`~deathangel.players.search.model.ValueModel.value`."""
        self.stats = SearchStats()
        self.last_values: dict[Option, float] = {}
        """The last search's mean value of each root option it tried, as its root edge backed
        it up (for reports and tests: how the choice was made)."""
        self.last_visits: dict[Option, int] = {}
        self.last_errors: dict[Option, float] = {}
        """The standard error of each of :attr:`last_values` (over its sweeps): how sure the
        search is of it."""
        """The last search's rollouts of each root option it tried: sequential halving gives
        the better options more."""

    # -- the player protocol ------------------------------------------------------------------

    def choose(self, observation: Observation | None, decision: Decision) -> Option:
        if observation is None:
            raise ValueError("the MCTS bot needs its observation")
        self.stats.decisions += 1
        rng = random.Random(self._situation(observation, decision))
        own = self.policy.choose(observation, decision, rng)
        if self._trivial(observation, decision):
            return own
        started = time.perf_counter()
        cpu = time.process_time()
        choice = self._search(observation, decision, own, rng, started)
        stats = self.stats
        stats.searched += 1
        stats.seconds.append(time.process_time() - cpu)
        tally = stats.kinds.setdefault(decision.kind, [0, 0])
        tally[0] += 1
        if choice != own:
            stats.overruled += 1
            tally[1] += 1
        return choice

    def analyse(
        self, observation: Observation, decision: Decision, own: Option | None = None
    ) -> Option:
        """Search ``decision`` whatever it is (even one :meth:`choose` would answer without a
        search) and return the choice; :attr:`last_values`, :attr:`last_visits` and
        :attr:`last_errors` then hold its account of every option (for hints). ``own`` is
        the option kept unless another clearly beats it (by default the policy's choice):
        another strategy's choice, to ask whether the search would overrule that."""
        rng = random.Random(self._situation(observation, decision))
        policy_choice = self.policy.choose(observation, decision, rng)
        if own is None:
            own = policy_choice
        elif own not in decision.options:
            raise ValueError(f"{own!r} is not one of the decision's options")
        return self._search(observation, decision, own, rng, time.perf_counter())

    def _situation(self, observation: Observation, decision: Decision) -> str:
        """The seed of this decision's random stream: the bot's seed and where the game
        stands, in a form that is the same in every process (no ``hash``)."""
        st = observation.state
        fw = observation.forward
        seen = 0 if fw is None else len(fw.decisions)
        options = ";".join(",".join(map(str, o.code())) for o in decision.options)
        return (
            f"mcts:{self.seed}:{st.round}:{st.phase}:{decision.seat}:{decision.kind}:"
            f"{seen}:{options}"
        )

    @staticmethod
    def _trivial(observation: Observation, decision: Decision) -> bool:
        """Decisions with an answer no search could improve: keeping a defence roll that
        already misses (RULES §7: a reroll can only turn a miss into a kill)."""
        if decision.kind != d.REROLL:
            return False
        question = d.read_reroll_prompt(decision.prompt)
        if question is None or question.what != "defence":
            return False
        table = observation.table
        for pos in observation.state.formation:
            if pos.marine.name == question.marine:
                size, lords = swarm_strength(table, pos.swarms[question.side])
                return not slays(question.face, size, lords, table.switches.defence_margin)
        return False

    # -- the search ---------------------------------------------------------------------------

    def _search(
        self,
        observation: Observation,
        decision: Decision,
        own: Option,
        rng: random.Random,
        started: float,
    ) -> Option:
        """Sequential halving over the root options on paired sweeps; see the module
        docstring for why."""
        options = list(decision.options)
        if self.joint > 1 and decision.kind == d.CHOOSE_ACTION:
            plans, own_plan = self._plans(observation, decision, own, rng)
        else:
            plans, own_plan = [(o,) for o in options], (own,)
        root = _Node()
        values: dict[Plan, dict[int, float]] = {p: {} for p in plans}
        limit = self._limit(observation)
        deadline = started + self.seconds if self.seconds > 0 else math.inf
        rounds = max(1, math.ceil(math.log2(len(plans))))
        survivors = plans
        sweep = 0
        out_of_time = False
        for r in range(rounds):
            share = self.iterations // rounds + (self.iterations % rounds if r == 0 else 0)
            for _ in range(max(1, share // len(survivors))):
                seed = rng.getrandbits(64)
                for plan in survivors:
                    edge = root.edges.setdefault((decision.kind, plan), _Edge())
                    values[plan][sweep] = self._iterate(observation, edge, plan, seed, limit)
                    self.stats.iterations += 1
                sweep += 1
                if time.perf_counter() > deadline:
                    out_of_time = True
                    break
            if out_of_time or len(survivors) <= 2:
                break
            ranked = sorted(survivors, key=lambda p: -_mean(values[p]))
            keep = ranked[: math.ceil(len(ranked) / 2)]
            if own_plan not in keep:
                keep.append(own_plan)
            survivors = keep
        best = max(survivors, key=lambda p: _mean(values[p]))
        if self.extend and best != own_plan and not out_of_time:
            best = self._settle(
                observation,
                decision.kind,
                root,
                values,
                survivors,
                own_plan,
                best,
                rng,
                deadline,
                limit,
                sweep,
            )
        # The root edges' statistics are the search's own account of each option (the same
        # sums as ``values``: one rollout per plan per sweep, backed up in sweep order); an
        # option searched as the first card of several plans is accounted by its best plan.
        tried: dict[Option, tuple[Plan, _Edge]] = {}
        for plan in plans:
            if values[plan]:
                e = root.edges[decision.kind, plan]
                held = tried.get(plan[0])
                if held is None or e.mean > held[1].mean:
                    tried[plan[0]] = (plan, e)
        self.last_values = {o: e.mean for o, (_, e) in tried.items()}
        self.last_visits = {o: e.visits for o, (_, e) in tried.items()}
        self.last_errors = {o: _standard_error(values[p]) for o, (p, _) in tried.items()}
        if best[0] == own or not self._clearly_better(values[best], values[own_plan]):
            return own
        return best[0]

    def _plans(
        self, observation: Observation, decision: Decision, own: Option, rng: random.Random
    ) -> tuple[list[Plan], Plan]:
        """The plans a joint search compares, and the policy's own plan among them.

        A plan is a card for this team and for each of the seat's next teams to choose in
        this Choose Actions phase (at most :attr:`joint` cards): every combination of their
        legal cards. Searched one team at a time, this team's card is valued as if the
        policy chose the next teams' cards, which the search will in fact choose; compared
        as plans on the same deals, the cards are valued together. Which cards a team may
        play is public (its last card, the abilities in play), so one imagined deal gives
        every plan; the policy's plan is its choice for each team in turn in that deal.
        """
        seat = observation.seat
        deal = rng.getrandbits(64)

        def imagined(plan: Plan) -> Game:
            # A determinized game cannot be cloned (it keeps no checkpoint): the same deal
            # again, and the plan's cards played in it.
            game = determinize(observation, random.Random(deal))
            for option in plan:
                game.push(option)
            return game

        def own_turn(dec: Decision | None) -> bool:
            return dec is not None and dec.seat == seat and dec.kind == d.CHOOSE_ACTION

        plans: list[Plan] = []
        stack: list[Plan] = [(o,) for o in reversed(decision.options)]
        while stack:
            plan = stack.pop()
            dec = imagined(plan).decision if len(plan) < self.joint else None
            if not own_turn(dec):
                plans.append(plan)
                continue
            assert dec is not None
            stack += [(*plan, option) for option in reversed(dec.options)]
        prng = random.Random(rng.getrandbits(64))
        mine: Plan = (own,)
        g = imagined(mine)
        while len(mine) < self.joint and own_turn(g.decision):
            dec = g.decision
            assert dec is not None
            view = _GameView(g.state, g.table)
            view.seat = seat
            choice = self.policy.choose(view, dec, prng)
            g.push(choice)
            mine = (*mine, choice)
        return plans, mine

    def _settle(
        self,
        observation: Observation,
        kind: str,
        root: _Node,
        values: dict[Plan, dict[int, float]],
        survivors: list[Plan],
        own: Plan,
        best: Plan,
        rng: random.Random,
        deadline: float,
        limit: int,
        sweep: int,
    ) -> Plan:
        """A close call, given more rollouts: while the best survivor is not the policy's
        choice and its paired gain over it is not :data:`SETTLED` standard errors from the
        margin either way, play both on ``extend`` more rollouts at most (new sweeps, the
        same deals for both); then the usual test (``margin``, ``confidence``) decides.

        Why: most searches end with the policy's choice on top or far behind, and their
        answer would not change with more rollouts; the few where a rival is near the
        margin are where a decision turns on noise. Spending the extra there, and only
        there, keeps the median decision's time while the contested ones get a surer
        answer. ``limit`` and ``sweep`` go on from the search: its rollouts' last round and
        the index of its next sweep. Returns the best survivor at the end (perhaps ``own``).
        """
        spent = 0
        while spent < self.extend and time.perf_counter() <= deadline:
            if self._decided(values[best], values[own]):
                break
            seed = rng.getrandbits(64)
            for plan in (own, best):
                edge = root.edges.setdefault((kind, plan), _Edge())
                values[plan][sweep] = self._iterate(observation, edge, plan, seed, limit)
                self.stats.iterations += 1
            spent += 2
            sweep += 1
            best = max(survivors, key=lambda o: _mean(values[o]))
            if best == own:
                break
        if spent:
            self.stats.extended += 1
        return best

    def _limit(self, observation: Observation) -> int:
        """The last round a rollout plays: it stops as the round ``horizon`` rounds after
        this one begins (``final_horizon`` at the final location). The seat sees how many
        locations are left, not which: its counts, not the deck."""
        state = observation.state
        final = state.location is not None and not observation.counts.location_deck
        horizon = self.final_horizon if final else self.horizon
        return state.round + horizon - 1 if horizon else 1 << 30

    def _decided(self, best: dict[int, float], own: dict[int, float]) -> bool:
        """Whether ``best``'s paired gain over ``own`` is clearly on one side of the margin:
        :data:`SETTLED` standard errors above it, or as many below."""
        n, mean, error = _paired(best, own)
        return n >= 2 and abs(mean - self.margin) > SETTLED * error

    def _clearly_better(self, best: dict[int, float], own: dict[int, float]) -> bool:
        """Whether ``best`` beats ``own`` over their common sweeps by the margin and by
        ``confidence`` standard errors of the paired difference."""
        n, mean, error = _paired(best, own)
        return n >= 2 and mean > self.margin and mean > self.confidence * error

    def _iterate(
        self,
        observation: Observation,
        edge: _Edge,
        plan: Plan,
        seed: int,
        limit: int,
    ) -> float:
        """One deal, one root plan (an option, or the cards of a joint plan), down the
        tree, a rollout to the horizon; backs up and returns the value."""
        game = determinize(observation, random.Random(seed))
        prng = random.Random(seed ^ 0x5DEECE66D)
        seat = observation.seat
        policy = self.rollout
        view = _GameView(game.state, game.table)
        path = [edge]
        game.push(plan[0])
        for later in plan[1:]:
            # A plan's later cards are legal in every deal (a team's cards are public);
            # checked all the same, and the rollout policy goes on where one is not.
            dec = game.decision
            if dec is None or dec.seat != seat or later not in dec.options:
                break
            game.push(later)
        node: _Node | None = None
        if self.depth > 1:
            node = edge.child = edge.child if edge.child is not None else _Node()
        depth = 1
        state = game.state
        while (dec := game.decision) is not None and state.round <= limit:
            view.seat = dec.seat
            if node is not None and dec.seat == seat:
                choice, chosen, fresh = self._select(node, dec, view, prng)
                path.append(chosen)
                depth += 1
                if fresh or depth >= self.depth:
                    node = None
                else:
                    node = chosen.child = chosen.child if chosen.child is not None else _Node()
                game.push(choice)
            else:
                game.push(policy.choose(view, dec, prng))
        value = self.value(state, game.table)
        _back_up(path, value)
        return value

    def _select(
        self, node: _Node, decision: Decision, view: _GameView, rng: random.Random
    ) -> tuple[Option, _Edge, bool]:
        """An option at a tree node: an untried one first (the policy's own, if untried),
        else UCB1 over the options legal here. Returns the option, its edge, and whether
        it was tried for the first time."""
        edges = node.edges
        kind = decision.kind
        legal: list[tuple[Option, _Edge]] = []
        untried: list[tuple[Option, _Edge]] = []
        for option in decision.options:
            e = edges.get((kind, option))
            if e is None:
                e = edges[kind, option] = _Edge()
            e.available += 1
            legal.append((option, e))
            if not e.visits:
                untried.append((option, e))
        if untried:
            own = self.policy.choose(view, decision, rng)
            for option, e in untried:
                if option == own:
                    return option, e, True
            option, e = untried[math.floor(rng.random() * len(untried))]
            return option, e, True
        c = self.exploration
        best = max(
            legal,
            key=lambda oe: oe[1].mean + c * math.sqrt(math.log(oe[1].available) / oe[1].visits),
        )
        return best[0], best[1], False


def policy_named(name: str) -> RolloutPolicy:
    """A policy by name: ``greedy``, or a rule set (a shipped one's name or a rule file).

    :raises ValueError: for a rule file that does not exist or does not read.
    """
    if name == "greedy":
        return GreedyPolicy()
    from deathangel.errors import RuleFileError
    from deathangel.players.rules.player import RuleSet

    try:
        return RuleSet.load(name)
    except RuleFileError as exc:
        raise ValueError(f"policy: {exc}") from None


def mcts(
    seed: int = 0,
    iterations: int = ITERATIONS,
    seconds: float = 0.0,
    horizon: int = HORIZON,
    depth: int = DEPTH,
    exploration: float = EXPLORATION,
    margin: float = MARGIN,
    confidence: float = CONFIDENCE,
    policy: str = "default",
    rollout: str = "",
    value: str = "auto",
    final_horizon: int = -1,
    standing: float = DEFAULT_WEIGHTS.standing,
    extend: int = 0,
    joint: int = 1,
) -> MctsPlayer:
    """Information-set Monte Carlo tree search over random deals of what the seat cannot see.

    Its choices depend only on its seed and what its seat sees, unless ``seconds`` caps the
    time (then on the machine's speed too). Each ``:param:`` line is the help
    ``deathangel strategies list`` shows.

    :param iterations: rollouts per searched decision (the budget)
    :param seconds: wall-clock cap per decision, 0 for none (breaks reproducibility)
    :param horizon: rounds a rollout plays (this one included) before it is valued; 0: to the end
    :param depth: own decisions per iteration chosen in the tree; 1: the root only
    :param exploration: UCB1 exploration constant below the root
    :param margin: least value gain (0-1) over the policy's choice to overrule it
    :param confidence: standard errors of the paired gain it must also clear
    :param policy: own choices kept unless beaten: greedy, or a rule set (name or file)
    :param rollout: policy that plays the rollouts, if not the same (greedy or a rule set)
    :param value: what a rollout cut short is worth: progress (hand-made), a value model
        (a shipped one's name, or a JSON file from 'deathangel value fit'), or auto: the
        one held-out tests chose for the number of seats (self-play solo, else progress)
    :param final_horizon: horizon of a search at the final location; 0: to the end; -1: as
        horizon
    :param standing: the progress value's log-odds per marine standing (higher: keep marines
        at the price of progress); not used where a value model values
    :param extend: rollouts a close call may add after the budget (the policy's choice and
        its best rival, until the paired test decides); 0: none
    :param joint: action cards searched together: this team's and the seat's next teams' in
        the same phase (every combination, on the same deals); 1: one team at a time
    """
    if not 0 <= standing < math.inf:  # NaN too
        raise ValueError(f"standing must be 0 or more (finite), not {standing}")
    own = policy_named(policy)
    weights = evolve(DEFAULT_WEIGHTS, standing=standing)
    return MctsPlayer(
        seed,
        iterations,
        seconds,
        horizon,
        depth,
        exploration,
        margin,
        confidence,
        policy=own,
        rollout=policy_named(rollout) if rollout else own,
        weights=weights,
        value=auto_value(weights) if value == "auto" else value_named(value),
        final_horizon=final_horizon,
        extend=extend,
        joint=joint,
    )


def value_named(name: str) -> PositionValue | None:
    """A position value by name: ``progress`` (``None``: the hand-made one), or a value
    model (a shipped model's name or a JSON file).

    :raises ValueError: for a model file that does not read, in one line.
    """
    if name == "progress":
        return None
    from deathangel.players.search.model import ValueModel, ValueModelError

    try:
        return ValueModel.load(name).value
    except ValueModelError as exc:
        raise ValueError(f"value: {exc}") from None


AUTO_VALUES: dict[int, str] = {1: "self-play"}
"""What ``value=auto`` (the fast default's value) searches with, by number of seats: the
shipped model a held-out test chose over the hand-made progress value at that count
(docs/strategies.md, "A learned value"); every other count searches with ``progress``."""


def auto_value(weights: ValueWeights) -> PositionValue:
    """The value :data:`AUTO_VALUES` names for the game's number of seats, else the progress
    value with ``weights``: each position is valued exactly as by the value named for its
    count (a game's seats never change, so a search uses one value throughout)."""
    progress = partial(_progress_value, weights=weights)
    chosen: dict[int, PositionValue] = {}
    for seats, name in AUTO_VALUES.items():
        named = value_named(name)
        if named is not None:
            chosen[seats] = named

    def value(state: GameState, table: CardTable) -> float:
        return chosen.get(len(state.seats), progress)(state, table)

    return value


STRONG_ITERATIONS = 400
STRONG_HORIZON = 2
STRONG_VALUE = "learned"
STRONG: dict[str, Any] = {
    "iterations": STRONG_ITERATIONS,
    "horizon": STRONG_HORIZON,
    "value": STRONG_VALUE,
}
"""The strong preset (``mcts-strong``): for play and hints, where a person waits about half
a second a decision; the shipped learned value model values the positions rollouts stop at."""


def preset(name: str, summary: str, defaults: dict[str, Any]) -> Callable[..., MctsPlayer]:
    """:func:`mcts` under a name of its own with other defaults (a *preset*), so a seat can
    be given ``mcts-strong`` and ``deathangel strategies list`` shows what it sets; any
    parameter can still be given (``mcts-strong:iterations=800``)."""
    signature = inspect.signature(mcts)
    unknown = set(defaults) - set(signature.parameters)
    if unknown:
        raise ValueError(f"preset {name!r}: mcts has no parameter {sorted(unknown)[0]!r}")

    def factory(seed: int = 0, **kwargs: Any) -> MctsPlayer:
        return mcts(seed, **{**defaults, **kwargs})

    params = [
        p.replace(default=defaults[p.name]) if p.name in defaults else p
        for p in signature.parameters.values()
    ]
    factory.__name__ = factory.__qualname__ = name.replace("-", "_")
    factory.__doc__ = summary + "\n\n" + (inspect.getdoc(mcts) or "").split("\n\n", 1)[1]
    factory.__annotations__ = dict(mcts.__annotations__)
    setattr(factory, "__signature__", signature.replace(parameters=params))  # noqa: B010
    return factory


mcts_strong = preset(
    "mcts-strong",
    "The mcts search at a budget for play: 400 rollouts of two rounds valued by the shipped "
    "learned model (about 0.5 s a decision).",
    STRONG,
)


def _progress_value(state: GameState, table: CardTable, *, weights: ValueWeights) -> float:
    return position_value(state, table, weights)


def _back_up(path: list[_Edge], value: float) -> None:
    """Count one more rollout worth ``value`` on every edge an iteration took, root first:
    each edge's mean is then the mean value of the rollouts that passed through it, which is
    what UCB1 below the root and the root's report read."""
    for e in path:
        e.visits += 1
        e.total += value


def _mean_and_error(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its standard error (infinite under two values)."""
    n = len(xs)
    mean = sum(xs) / n if n else 0.0
    if n < 2:
        return mean, math.inf
    return mean, math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


def _standard_error(values: dict[int, float]) -> float:
    return _mean_and_error(list(values.values()))[1]


def _paired(best: dict[int, float], own: dict[int, float]) -> tuple[int, float, float]:
    """The common sweeps of two options, the mean of their paired differences and its
    standard error (infinite under two sweeps)."""
    diffs = [best[k] - own[k] for k in best if k in own]
    mean, error = _mean_and_error(diffs)
    return len(diffs), mean, error


def _mean(values: dict[int, float]) -> float:
    return sum(values.values()) / len(values) if values else -1.0
