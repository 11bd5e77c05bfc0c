"""Exact odds by enumerating every die face, with the real engine doing the rules.

Two questions about a situation (usually a scenario file, :mod:`deathangel.scenario`):

- :func:`phase_odds`: the Genestealer Attack phase (RULES §7) played from the state — for each
  marine the probability that he survives the phase, and the distribution of genestealers
  slain during it (Counter Attack slays), under the choices that maximise the expected number
  of surviving marines;
- :func:`attack_odds`: one marine's attack at one swarm under his team's revealed Attack card —
  the distribution of genestealers slain, under the choices that maximise its expectation.

How: the engine's own flow (:meth:`Engine.genestealer_attack`, :meth:`Engine.attack`) runs on a
copy of the state with a die that replays a fixed list of faces and stops when it needs one
more. The search then branches over the six faces (each 1/6) and over the options of every
decision (taking the best, expectimax), replaying each branch. Nothing about the rules is
written here: a new card ability changes the odds without touching this module.

Checkpoints keep it small. At the start of every swarm's attack (and of every attack of an
attack question) the flow is cut: the state there is saved, with a function that restarts the
engine's flow from it, and branches are replayed only from the last checkpoint. The rest of the
flow from a checkpoint depends only on the state and on which swarm or attack comes next, so
equal states reached by different rolls are solved once. At a reroll decision the rest depends
on the state, the face just rolled and how many rerolls this roll has had — the engine's
abilities read a roll's last face and its reroll count, never earlier faces — so reroll chains
are shared too. The enumeration stays exponential in the number of swarms and tokens; a limit
on the positions replayed stops it with an :class:`OddsError`.

Probabilities are whole numbers over powers of 6 while searching, and
:class:`fractions.Fraction` in the answers; ``to_dict`` gives them as strings (``"17/24"``)
with decimals beside them.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Generator, Mapping, MutableSequence, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import frozen

import deathangel.engine.decisions as d
from deathangel.engine.core import EngineFlow, GameOver
from deathangel.engine.decisions import Decision, Flow, Option
from deathangel.engine.randomness import DIE_FACES, FACE_COUNT, Die, Streams
from deathangel.engine.rounds import Engine
from deathangel.engine.state import SIDES, CardTable, GameState, Position
from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from deathangel.cards.model import CardDatabase
    from deathangel.engine.abilities import Abilities
    from deathangel.engine.switches import Switches

T = TypeVar("T")

DEFAULT_LIMIT = 2_000_000
"""Most positions (replays of the flow) one question may enumerate before giving up."""

PHASE_POLICY = (
    "Every reroll decision, and every other choice in the phase (which genestealer a Counter "
    "Attack slays, spending the Artefact...), takes the option with the highest expected "
    "number of marines alive at the end of the phase (expectimax over all six faces, each "
    "1/6); ties go to more genestealers slain expected, then to more support tokens left on "
    "living marines, then to the option offered first."
)
ATTACK_POLICY = (
    "Every reroll decision, and every other choice during the attack (Psionic Attack's next "
    "target, Lead by Example's token...), takes the option with the highest expected number "
    "of genestealers slain (expectimax over all six faces, each 1/6); ties go to more marines "
    "alive, then to more support tokens left on living marines, then to the option offered "
    "first."
)

_CHECKPOINT = "odds_checkpoint"
_PASS = Option("pass")


class OddsError(DeathAngelError, ValueError):
    """An odds question that cannot be answered: an illegal attack, or too much to enumerate."""


# -- the replaying die and engine ------------------------------------------------------------


class _NeedFace(EngineFlow):
    """The die was asked for a face beyond the replayed ones."""


class _Replay:
    """The path being replayed: die faces and option indexes, in the order the flow meets
    them; also how many rerolls the current roll has had."""

    __slots__ = ("after_reroll", "chain", "path", "pos")

    def __init__(self, path: list[int]) -> None:
        self.path = path
        self.pos = 0
        self.chain = 0
        self.after_reroll = False

    def take(self) -> int | None:
        if self.pos >= len(self.path):
            return None
        step = self.path[self.pos]
        self.pos += 1
        return step


class _ReplayDie(Die):
    """Shows the faces of the path; raises :class:`_NeedFace` past its end."""

    __slots__ = ("replay",)

    def __init__(self, replay: _Replay) -> None:
        self.replay = replay

    def roll(self) -> int:
        replay = self.replay
        replay.chain = replay.chain + 1 if replay.after_reroll else 0
        replay.after_reroll = False
        face = replay.take()
        if face is None:
            raise _NeedFace
        return face

    def copy_with(self, streams: Streams) -> Die:
        return self


Resume = Callable[["_OddsEngine"], Flow]
"""Builds the rest of a flow on a fresh engine (whose state is a copy of the saved one)."""


@frozen
class _Segment:
    """A point where the flow can start again: a saved state, and how to go on from it."""

    state: GameState
    resume: Resume
    key: str
    """Where the flow stands, besides the state (e.g. which swarm attacks next)."""


class _OddsEngine(Engine):
    """The engine plus checkpoints: at the start of each swarm's attack (and each top-level
    attack of an attack question) it saves the point as a :class:`_Segment` and yields a
    pseudo-decision, so the search can solve the rest once per distinct state. It also counts
    the genestealers slain and how deep attacks are nested (Psionic Attack's chains)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slain_count = 0
        self.depth = 0
        self.segment: _Segment | None = None
        """The point saved at the last checkpoint."""
        self.then: tuple[int, Resume] | None = None
        """In an attack question: the number of the attack about to be made, and what
        follows it (the remaining attacks)."""

    def swarm_attacks(self, row: int, side: int, group: list[int]) -> Flow:
        cards = list(group)

        def resume(engine: _OddsEngine) -> Flow:
            # This swarm attacks (the base method: no checkpoint again), then the engine's
            # own loop goes on with the swarms that have not attacked.
            yield from Engine.swarm_attacks(engine, row, side, list(cards))
            yield from engine.genestealer_attack(resume=True)

        key = repr(("swarm", row, side, sorted(cards)))
        # The search stops this engine at the checkpoint, so its state is not copied.
        self.segment = _Segment(self.state, resume, key)
        yield Decision(0, _CHECKPOINT, (_PASS,), key)
        yield from super().swarm_attacks(row, side, group)

    def attack(self, name: str, target_row: int, card: str | None = None) -> Flow:
        if self.depth == 0 and self.then is not None:
            number, rest = self.then

            def resume(engine: _OddsEngine) -> Flow:
                engine.depth = 1  # chained attacks inside it are not checkpoints
                yield from Engine.attack(engine, name, target_row, card)
                engine.depth = 0
                yield from rest(engine)

            key = repr(("attack", name, target_row, card, number))
            self.segment = _Segment(self.state, resume, key)
            yield Decision(0, _CHECKPOINT, (_PASS,), key)
        self.depth += 1
        try:
            yield from super().attack(name, target_row, card)
        finally:
            self.depth -= 1

    def slay_one(
        self,
        pos: Position,
        side: int,
        seat: int,
        *,
        by: str | None = None,
        among: Any = None,
    ) -> Generator[Decision, Option, int | None]:
        card = yield from super().slay_one(pos, side, seat, by=by, among=among)
        if card is not None and card not in pos.swarms[side]:  # slain, not only wounded
            self.slain_count += 1
        return card


class _NoStreams(Streams):
    """Random streams that refuse to be used: a shuffle or random pick in the middle of an
    enumeration would make its branches differ by chance, so it is reported instead."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(0, {})

    def __getitem__(self, name: str) -> random.Random:
        raise OddsError(f"the rules drew from the {name!r} random stream: exact odds cannot follow")

    def shuffle(self, name: str, cards: MutableSequence[Any]) -> None:
        self[name]

    def choice(self, name: str, options: Sequence[T]) -> T:
        self[name]
        raise AssertionError  # pragma: no cover - the line above raises

    def copy(self) -> Streams:
        return self


_NO_STREAMS = _NoStreams()


def _canon(value: Any) -> Any:
    """A value in a form whose ``repr`` is the same for equal game data: sets and dicts
    sorted, a card (the setup location) by its name; lists and rows as they are."""
    if isinstance(value, set | frozenset):
        try:
            return sorted(value)
        except TypeError:
            return sorted(value, key=repr)
    if isinstance(value, dict):
        return sorted(value.items(), key=repr)
    name = getattr(value, "name", None)
    if isinstance(name, str):
        return name
    return value


def _fingerprint(state: GameState) -> bytes:
    """A digest of every field of the state (all of ``GameState.__slots__``)."""
    parts = [(slot, _canon(getattr(state, slot))) for slot in GameState.__slots__]
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).digest()


# -- the search ---------------------------------------------------------------------------------


@frozen
class _Summary:
    """What a subtree leads to under the chosen policy.

    Every probability in the tree is a whole number over a power of 6, so the numbers are
    kept as integer numerators over ``6 ** exp`` (exact, and much cheaper than fractions).
    """

    exp: int
    alive: Mapping[str, int]
    """Chance that each marine is alive at the end (absent: never)."""
    count: Mapping[int, int]
    """Chance of each number of marines alive at the end."""
    slain: Mapping[int, int]
    """Chance of each number of genestealers slain from the subtree's start."""
    tokens: int
    """Expected support tokens on living marines at the end."""

    def scores(self) -> tuple[int, int, int]:
        """(expected marines alive, expected slain, expected tokens), over ``6 ** exp``."""
        return (
            sum(self.alive.values()),
            sum(k * p for k, p in self.slain.items()),
            self.tokens,
        )

    def fraction(self, numerator: int) -> Fraction:
        return Fraction(numerator, FACE_COUNT**self.exp)

    def fractions(self, dist: Mapping[Any, int]) -> dict[Any, Fraction]:
        return {k: self.fraction(p) for k, p in dist.items()}

    def shifted(self, slain: int) -> _Summary:
        """The same, with ``slain`` more genestealers slain before the subtree."""
        if not slain:
            return self
        moved = {k + slain: p for k, p in self.slain.items()}
        return _Summary(self.exp, self.alive, self.count, moved, self.tokens)


def _average(children: list[_Summary]) -> _Summary:
    """The chance node of one die roll: each child (face) weighs 1/6."""
    exp = max(c.exp for c in children)
    alive: dict[str, int] = {}
    count: dict[int, int] = {}
    slain: dict[int, int] = {}
    tokens = 0
    for child in children:
        scale = FACE_COUNT ** (exp - child.exp)
        for name, p in child.alive.items():
            alive[name] = alive.get(name, 0) + p * scale
        for n, p in child.count.items():
            count[n] = count.get(n, 0) + p * scale
        for k, p in child.slain.items():
            slain[k] = slain.get(k, 0) + p * scale
        tokens += child.tokens * scale
    return _Summary(exp + 1, alive, count, slain, tokens)


def _best(children: list[_Summary], order: tuple[int, int, int]) -> _Summary:
    """The decision node: the child with the best scores, compared in ``order`` (indexes of
    :meth:`_Summary.scores`), ties to the first."""
    exp = max(c.exp for c in children)
    best = children[0]
    best_key: tuple[int, ...] | None = None
    for child in children:
        scale = FACE_COUNT ** (exp - child.exp)
        scores = child.scores()
        key = tuple(scores[i] * scale for i in order)
        if best_key is None or key > best_key:
            best, best_key = child, key
    return best


class _Search:
    """Expectimax over a flow, one segment (checkpoint to checkpoint) at a time."""

    def __init__(
        self,
        table: CardTable,
        abilities: Abilities[Any],
        objective: tuple[int, int, int],
        limit: int,
        where: str,
        memo: bool,
    ) -> None:
        self.table = table
        self.abilities = abilities
        self.objective = objective
        self.limit = limit
        self.where = where
        self.use_memo = memo
        self.positions = 0
        self.memo: dict[tuple[Any, ...], _Summary] = {}

    def solve(self, segment: _Segment) -> _Summary:
        """The rest of the flow from a saved point (memoised by its state)."""
        key = None
        if self.use_memo:
            key = ("segment", segment.key, _fingerprint(segment.state))
            if key in self.memo:
                return self.memo[key]
        result = self.explore(segment, [])
        if key is not None:
            self.memo[key] = result
        return result

    def explore(self, segment: _Segment, path: list[int]) -> _Summary:
        """Replay ``path`` from the segment's start, then branch at what comes next."""
        self.positions += 1
        if self.positions > self.limit:
            raise OddsError(
                f"{self.where}: more than {self.limit:,} positions to enumerate; "
                "simplify the situation (fewer swarms or support tokens) or raise --limit"
            )
        replay = _Replay(path)
        engine = _OddsEngine(
            segment.state.copy(), self.table, _NO_STREAMS, _ReplayDie(replay), self.abilities
        )
        flow = segment.resume(engine)
        try:
            decision = next(flow)
            while decision.kind != _CHECKPOINT:
                step = replay.take()
                if step is None:
                    break
                option = decision.options[step]
                if decision.kind == d.REROLL:
                    replay.after_reroll = option.verb == "reroll"
                decision = flow.send(option)
        except (StopIteration, GameOver):
            return self.leaf(engine)
        except _NeedFace:
            need_face = True
        else:
            need_face = False
        if need_face:
            # Branch outside the handler: a live exception would keep this replay's frames.
            return _average([self.explore(segment, [*path, f]) for f in DIE_FACES])
        if decision.kind == _CHECKPOINT:
            assert engine.segment is not None
            return self.solve(engine.segment).shifted(engine.slain_count)
        key: tuple[Any, ...] | None = None
        if self.use_memo and decision.kind == d.REROLL:
            # The rest depends on the state, where the flow stands (the segment, the prompt
            # naming the roll and its face, the attack depth) and the reroll count so far.
            key = (
                "reroll",
                segment.key,
                _fingerprint(engine.state),
                decision.prompt,
                replay.chain,
                engine.slain_count,
                engine.depth,
            )
            if key in self.memo:
                return self.memo[key]
        children = [self.explore(segment, [*path, i]) for i in range(len(decision.options))]
        best = _best(children, self.objective)
        if key is not None:
            self.memo[key] = best
        return best

    def leaf(self, engine: _OddsEngine) -> _Summary:
        st = engine.state
        alive = {p.marine.name: 1 for p in st.formation}
        tokens = sum(p.marine.tokens for p in st.formation)
        return _Summary(0, alive, {len(alive): 1}, {engine.slain_count: 1}, tokens)


PHASE_ORDER = (0, 1, 2)
"""The phase maximises expected marines alive, then genestealers slain, then tokens."""
ATTACK_ORDER = (1, 0, 2)
"""An attack maximises expected genestealers slain, then marines alive, then tokens."""


# -- answers ------------------------------------------------------------------------------------


def _fraction_dict(dist: Mapping[int, Fraction]) -> dict[str, str]:
    return {str(k): str(v) for k, v in sorted(dist.items())}


def _decimal_dict(dist: Mapping[int, Fraction]) -> dict[str, float]:
    return {str(k): float(v) for k, v in sorted(dist.items())}


def _mean(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))


@frozen
class MarineOdds:
    """One marine's chance to survive the phase."""

    position: int
    """1-based position at the start of the phase."""
    marine: str
    team: str
    survives: Fraction


@frozen
class SkippedCard:
    """A revealed action card that has not resolved: the phase odds do not play it."""

    team: str
    card: str
    kind: str
    """``support``, ``move_activate`` or ``attack``."""

    def note(self) -> str:
        """What was skipped and how to ask about it, in words."""
        head = f"{self.card} ({self.team}) is revealed but has not resolved: these odds skip it"
        if self.kind == "attack":
            return f"{head}; ask for its attacks with --attack MARINE --target SIDE:POSITION"
        return f"{head} (its ability is not played before the Genestealer Attack)"


def unresolved_cards(state: GameState, table: CardTable) -> tuple[SkippedCard, ...]:
    """Revealed action cards still to resolve this round (a scenario in Resolve Actions)."""
    if state.phase not in ("choose_actions", "resolve_actions"):
        return ()
    return tuple(
        SkippedCard(team, card, table.actions[card][1].kind)
        for _, team, card in state.revealed
        if team not in state.resolved and team not in state.eliminated and card in table.actions
    )


@frozen
class PhaseOdds:
    """Exact odds of one Genestealer Attack phase."""

    marines: tuple[MarineOdds, ...]
    survivors: Mapping[int, Fraction]
    """Probability of each number of marines alive at the end of the phase."""
    slain: Mapping[int, Fraction]
    """Probability of each number of genestealers slain during the phase."""
    positions: int
    """How many positions the enumeration replayed (a measure of the work)."""
    policy: str = PHASE_POLICY
    skipped: tuple[SkippedCard, ...] = ()
    """Revealed action cards that had not resolved: the phase starts without them."""

    @property
    def expected_survivors(self) -> Fraction:
        return _mean(self.survivors)

    @property
    def expected_slain(self) -> Fraction:
        return _mean(self.slain)

    @property
    def all_survive(self) -> Fraction:
        return self.survivors.get(len(self.marines), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: fractions as strings (``"3/4"``) with ``*_decimal`` floats beside."""
        return {
            "mode": "genestealer_attack",
            "policy": self.policy,
            "marines": [
                {
                    "position": m.position,
                    "marine": m.marine,
                    "team": m.team,
                    "survives": str(m.survives),
                    "survives_decimal": float(m.survives),
                }
                for m in self.marines
            ],
            "expected_survivors": str(self.expected_survivors),
            "expected_survivors_decimal": float(self.expected_survivors),
            "all_survive": str(self.all_survive),
            "all_survive_decimal": float(self.all_survive),
            "survivors": _fraction_dict(self.survivors),
            "survivors_decimal": _decimal_dict(self.survivors),
            "slain": _fraction_dict(self.slain),
            "slain_decimal": _decimal_dict(self.slain),
            "expected_slain": str(self.expected_slain),
            "expected_slain_decimal": float(self.expected_slain),
            "skipped": [
                {"team": c.team, "card": c.card, "kind": c.kind, "note": c.note()}
                for c in self.skipped
            ],
        }


@frozen
class AttackOdds:
    """Exact odds of one marine's attack (all the attacks his card gives him) at one swarm."""

    marine: str
    target: str
    """``SIDE:POSITION`` of the target swarm."""
    card: str | None
    """The Attack card it is made under, or ``None`` for a normal attack."""
    attacks: int
    """Attacks the card lets him make (Full Auto: 3), each while the target has genestealers."""
    tokens: int
    """Support tokens on him before the attack."""
    slain: Mapping[int, Fraction]
    positions: int
    policy: str = ATTACK_POLICY

    @property
    def expected_slain(self) -> Fraction:
        return _mean(self.slain)

    @property
    def at_least_one(self) -> Fraction:
        return sum((p for k, p in self.slain.items() if k > 0), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: fractions as strings (``"3/4"``) with ``*_decimal`` floats beside."""
        return {
            "mode": "attack",
            "policy": self.policy,
            "marine": self.marine,
            "target": self.target,
            "card": self.card,
            "attacks": self.attacks,
            "tokens": self.tokens,
            "slain": _fraction_dict(self.slain),
            "slain_decimal": _decimal_dict(self.slain),
            "expected_slain": str(self.expected_slain),
            "expected_slain_decimal": float(self.expected_slain),
            "at_least_one": str(self.at_least_one),
            "at_least_one_decimal": float(self.at_least_one),
        }


def _abilities(db: CardDatabase, abilities: Abilities[Any] | None) -> Abilities[Any]:
    if abilities is not None:
        return abilities
    from deathangel.engine.game import card_abilities

    return card_abilities(db)


def phase_odds(
    state: GameState,
    db: CardDatabase,
    *,
    abilities: Abilities[Any] | None = None,
    switches: Switches | None = None,
    limit: int = DEFAULT_LIMIT,
    where: str = "odds",
    memo: bool = True,
) -> PhaseOdds:
    """The Genestealer Attack phase played from ``state`` as it stands (the phase's attacks
    only: the travel check that closes the phase is not part of it). Revealed action cards
    that have not resolved are not played; the answer lists them (:attr:`PhaseOdds.skipped`).

    ``where`` starts error messages (the scenario's path); ``memo=False`` turns the memos
    off: a checking aid (tests/analysis/test_odds_memo.py compares both), since the answers
    must not change, only the work, which grows exponentially. ``abilities`` and ``switches``
    are a ruleset's (expansions, variants); the base game's by default.

    :raises OddsError: when more than ``limit`` positions would be enumerated.
    """
    from deathangel.engine.game import card_table

    table = card_table(db, switches)
    root = state.copy()
    root.phase = "genestealer_attack"
    search = _Search(table, _abilities(db, abilities), PHASE_ORDER, limit, where, memo)
    result = search.solve(_Segment(root, lambda engine: engine.genestealer_attack(), "phase"))
    marines = tuple(
        MarineOdds(
            i, p.marine.name, p.marine.team, result.fraction(result.alive.get(p.marine.name, 0))
        )
        for i, p in enumerate(state.formation, start=1)
    )
    return PhaseOdds(
        marines,
        result.fractions(result.count),
        result.fractions(result.slain),
        search.positions,
        skipped=unresolved_cards(state, table),
    )


def attack_odds(
    state: GameState,
    db: CardDatabase,
    marine: str,
    target: str,
    *,
    card: str | None = None,
    abilities: Abilities[Any] | None = None,
    switches: Switches | None = None,
    limit: int = DEFAULT_LIMIT,
    where: str = "odds",
    memo: bool = True,
) -> AttackOdds:
    """``marine`` attacks the swarm at ``target`` (``"SIDE:POSITION"``) under ``card``.

    ``card`` defaults to the Attack card his team revealed this round (``state.revealed``);
    without one it is a normal attack. When the card gives him several attacks (Full Auto),
    the first is at this swarm and each further one at the swarm the player would best
    choose among those he may attack then (RULES §13); Psionic Attack's extra attacks may go
    to any legal swarm and are counted too. ``memo=False`` turns the memos off, a checking
    aid as for :func:`phase_odds`.

    :raises OddsError: for an unknown marine or a swarm he may not attack now (facing, range,
        an empty or Power-Field swarm), or when more than ``limit`` positions would be
        enumerated.
    """
    from deathangel.engine.game import card_table
    from deathangel.scenario.build import parse_swarm_ref

    table = card_table(db, switches)
    rows = [p.marine.name for p in state.formation]
    if marine not in rows:
        raise OddsError(
            f"{where}: --attack: {marine!r} is not in the formation ({', '.join(rows)})"
        )
    row = rows.index(marine)
    try:
        side, target_row = parse_swarm_ref(target, len(state.formation))
    except ValueError as exc:
        raise OddsError(f"{where}: --target: {exc}") from None
    pos = state.formation[row]
    if card is None:
        for _, team, name in state.revealed:
            if team == pos.marine.team and table.actions[name][1].kind == "attack":
                card = name
    elif card not in table.actions or table.actions[card][1].kind != "attack":
        raise OddsError(f"{where}: {card!r} is not an Attack card")
    elif table.actions[card][0] != pos.marine.team:
        raise OddsError(f"{where}: {card!r} is not a card of {marine}'s team")
    ab = _abilities(db, abilities)
    probe = Engine(state.copy(), table, _NO_STREAMS, _ReplayDie(_Replay([])), ab)
    if side != pos.marine.facing:
        raise OddsError(
            f"{where}: --target: {marine} faces {SIDES[pos.marine.facing]}; he cannot attack "
            f"the {SIDES[side]} swarm at position {target_row + 1}"
        )
    if target_row not in probe.attack_targets(row):
        raise OddsError(
            f"{where}: --target: {marine} cannot attack {target} (his range is "
            f"{pos.marine.range}; or the swarm is empty or under a Power Field)"
        )
    attacks = ab.attacks_allowed(probe, card, marine)

    seat = state.team_seat[pos.marine.team]

    def attacks_from(first: int) -> Resume:
        def flow(engine: _OddsEngine) -> Flow:
            for number in range(first, attacks):
                if not engine.is_alive(marine):
                    return
                targets = engine.attack_targets(engine.state.marine_row(marine))
                if number == 0:
                    if target_row not in targets:
                        return
                    chosen = target_row
                elif not targets:
                    return
                else:
                    # Each further attack picks its own swarm, as in play (RULES §13): the
                    # search follows the player's best choice.
                    facing = SIDES[engine.marine(marine).facing]
                    options = [Option("attack", (marine, facing, t + 1)) for t in targets]
                    choice = yield from engine.ask(seat, d.ATTACK, options, f"{card}: attack")
                    chosen = choice.row()
                engine.then = (number, attacks_from(number + 1))
                yield from engine.attack(marine, chosen, card)

        return flow

    search = _Search(table, ab, ATTACK_ORDER, limit, where, memo)
    result = search.solve(_Segment(state.copy(), attacks_from(0), "attacks"))
    slain = result.fractions(result.slain)
    return AttackOdds(marine, target, card, attacks, pos.marine.tokens, slain, search.positions)


# -- text ---------------------------------------------------------------------------------------


def _cell(p: Fraction) -> str:
    return f"{p!s:>9}  {float(p):.4f}"


def format_phase(odds: PhaseOdds) -> list[str]:
    """The phase odds as a table for people."""
    lines = ["Genestealer Attack phase, exact odds", f"policy: {odds.policy}", ""]
    for card in odds.skipped:
        lines += [f"note: {card.note()}", ""]
    width = max(len(m.marine) for m in odds.marines)
    lines.append(f"{'pos':>3}  {'marine':<{width}}  {'survives':>9}  decimal")
    for m in odds.marines:
        lines.append(f"{m.position:>3}  {m.marine:<{width}}  {_cell(m.survives)}")
    lines.append("")
    lines.append(f"expected survivors: {_cell(odds.expected_survivors).strip()}")
    lines.append(f"all survive:        {_cell(odds.all_survive).strip()}")
    lines.append(f"expected slain:     {_cell(odds.expected_slain).strip()}")
    lines.append("")
    lines.append(f"{'slain':>5}  {'probability':>9}")
    for k, p in sorted(odds.slain.items()):
        lines.append(f"{k:>5}  {_cell(p)}")
    lines.append("")
    lines.append(f"({odds.positions:,} positions enumerated)")
    return lines


def format_attack(odds: AttackOdds) -> list[str]:
    """The attack odds as a table for people."""
    card = odds.card or "a normal attack"
    many = f", up to {odds.attacks} attacks" if odds.attacks > 1 else ""
    lines = [
        f"{odds.marine} attacks {odds.target} ({card}{many}; {odds.tokens} support token(s)), "
        "exact odds",
        f"policy: {odds.policy}",
        "",
        f"{'slain':>5}  {'probability':>9}",
    ]
    for k, p in sorted(odds.slain.items()):
        lines.append(f"{k:>5}  {_cell(p)}")
    lines.append("")
    lines.append(f"expected slain:   {_cell(odds.expected_slain).strip()}")
    lines.append(f"at least one:     {_cell(odds.at_least_one).strip()}")
    lines.append("")
    lines.append(f"({odds.positions:,} positions enumerated)")
    return lines
