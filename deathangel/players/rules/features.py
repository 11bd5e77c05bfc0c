"""What rule expressions may read: the named values of a decision and of each of its options.

A :class:`Situation` is built once per decision from a *view* — anything with ``.seat``,
``.state`` (a :class:`~deathangel.engine.state.GameState`), ``.table`` and ``.counts`` (a
:class:`~deathangel.engine.observation.PileCounts`): an
:class:`~deathangel.engine.observation.Observation`, or a cheap view over a search's own game.
It never reads a hidden pile's contents, only :attr:`counts`, and of the face-down action
cards only its own seat's: the same code is honest on an observation and cheap in a search.

Values are computed on first use and kept for the decision (``cached_property``): a rule set
that never asks about spawn colours never pays for them. Per-row values are lists with one
extra neutral entry at the end, so an option that names no marine (``done``) reads row ``-1``
and gets 0 or an empty text without a test in the hot path.

:data:`deathangel.players.rules.vocab.VOCABULARY` names each of these values for rule files.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from deathangel.engine.abilities import is_door
from deathangel.engine.decisions import CHOOSE_ACTION, Decision, Option, read_reroll_prompt
from deathangel.engine.defence import SLAY_CHANCE, kill_chance, slays, swarm_strength
from deathangel.engine.lasting import EVASION, SecondWind
from deathangel.engine.state import LEFT, RIGHT, SIDES

if TYPE_CHECKING:
    from deathangel.engine.observation import PileCounts
    from deathangel.engine.state import CardTable
    from deathangel.players.base import View

_EMPTY: frozenset[str] = frozenset()
_NO_FACES: frozenset[int] = frozenset()

T = TypeVar("T")


class lazy(Generic[T]):
    """A value computed on first use and then kept in the instance.

    Like ``functools.cached_property`` without its lock, which Python 3.11 takes on every
    first use: measured at a third of a decision's time with a dozen values per decision.
    A non-data descriptor, so once stored the instance attribute is read directly.
    """

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    @overload
    def __get__(self, obj: None, owner: type) -> lazy[T]: ...
    @overload
    def __get__(self, obj: object, owner: type) -> T: ...
    def __get__(self, obj: object | None, owner: type) -> T | lazy[T]:
        if obj is None:
            return self
        value = self.func(obj)
        obj.__dict__[self.name] = value
        return value


_SIDE_INDEX = {"left": LEFT, "right": RIGHT}

# Python 3.11 runs a comprehension as a function of its own: over a formation's few rows, the
# hottest values below are plain loops (measured: a row lookup built by a loop took 0.8 of a
# dict comprehension's time), each saying so where it is one for that reason.


# -- dice ----------------------------------------------------------------------------------------
# One attack's chance to slay is the engine's own verdict (deathangel.engine.defence), so a
# rule variant or an expansion's enemies change what the rules think as they change the game.


def survive_front(p: float, tokens: int, stance: bool) -> float:
    """Chance of surviving a swarm in front that kills with chance ``p``, spending tokens on
    rerolls while the roll loses (RULES §6.4); with Defensive Stance any reroll misses unless
    it shows a 0."""
    if tokens <= 0 or p <= 0:
        return 1 - p
    if stance:
        return 1 - p * (1 / 6) ** tokens
    return 1 - p ** (tokens + 1)


# -- options ---------------------------------------------------------------------------------


class Subject:
    """What one option is about, resolved against the situation: rows are 0-based, ``-1``
    when the option names none (see the module docstring).

    The defaults are class attributes and an option sets only what it names: an option is
    resolved for every rule pass, and setting a dozen attributes measured a tenth of a
    decision."""

    m = -1
    """Row of the marine the option is about (who acts, or who receives)."""
    other = -1
    """Row of the other marine of a swap."""
    t = -1
    """Row of the swarm, terrain or place the option targets."""
    ts = -1
    """Side (0 left, 1 right) of that target."""
    name = ""
    team = ""
    card = ""
    terrain = ""
    pile = ""
    gs = ""
    text = ""
    number = 0

    def __init__(self, verb: str) -> None:
        self.verb = verb


_new_subject = object.__new__

_SITUATED = frozenset(
    ("marine", "flip", "charge", "attack", "swap", "activate", "reroll", "keep", "yes", "no")
)
"""Verbs whose subject depends on the situation: the row of a marine the option names, his
facing, the roll or the question asked. Every other verb's subject is the option's own
arguments (and the card table's facts): see :meth:`Situation.subject`."""

_ROLLED = re.compile(r"rolled (\d+)$")
_SCOUTED_PROMPT = re.compile(r"the top Event card is (.+)$")


class Situation:
    """One decision seen by one seat, with every value rules may read (computed lazily)."""

    __slots__ = (
        "__dict__",
        "_fixed",
        "decision",
        "kind",
        "margin",
        "n",
        "phase_memo",
        "phase_shared",
        "prompt",
        "seat",
        "st",
        "table",
        "view",
    )

    def __init__(self, view: View, decision: Decision) -> None:
        st = view.state
        self.st = st
        self.table = view.table
        self.view = view
        self.seat = view.seat
        self.decision = decision
        self.kind = decision.kind
        self.prompt = decision.prompt
        self.n = len(st.formation)
        self.margin = self.table.switches.defence_margin
        """The defence margin of the game's rules (0 as printed; a variant shifts it)."""
        fixed = _FIXED_SUBJECTS.get(self.table)
        if fixed is None:
            if len(_FIXED_SUBJECTS) > 64:
                _FIXED_SUBJECTS.clear()
            fixed = _FIXED_SUBJECTS[self.table] = {}
        self._fixed = fixed
        self.phase_memo: dict[str, Any] | None = None
        """Where this decision's :data:`SEAT_PHASE_VALUES` are kept for the seat's next team
        (``None``: not a Choose Actions decision over a view that offers a memo)."""
        self.phase_shared: dict[str, Any] | None = None
        """Where its :data:`SHARED_PHASE_VALUES` are kept for every seat's next team."""
        # Only the Choose Actions phase's own questions: a card of a plugin that asked a team
        # for an action card at another time could have changed the formation since.
        if decision.kind == CHOOSE_ACTION and st.phase == "choose_actions":
            memo: dict[tuple[int, int | None], dict[str, Any]] | None = getattr(view, "memo", None)
            if memo is not None:
                shared = memo.get((st.round, _EVERY_SEAT))
                if shared is None:
                    shared = memo[st.round, _EVERY_SEAT] = {}
                else:
                    self.__dict__.update(shared)
                kept = memo.get((st.round, self.seat))
                if kept is None:
                    kept = memo[st.round, self.seat] = {}
                else:
                    self.__dict__.update(kept)
                self.phase_memo = kept
                self.phase_shared = shared

    def keep_phase_values(self) -> None:
        """Keep this situation's :data:`PHASE_VALUES` for the next team's Choose Actions
        decision: the seat's own for its next team, the others for every seat's (see
        :data:`PHASE_VALUES`); nothing without a :attr:`phase_memo` (the rules' hot path
        tests that first, sparing the call)."""
        kept = self.phase_memo
        shared = self.phase_shared
        if kept is not None and shared is not None:
            for name, value in self.__dict__.items():
                if name in SHARED_PHASE_VALUES:
                    shared[name] = value
                elif name in SEAT_PHASE_VALUES:
                    kept[name] = value

    @lazy
    def row_of(self) -> dict[str, int]:
        """Each marine's row, by name. On first use, not at once: many decisions never ask
        (a target, a genestealer, a card...). A plain loop: measured at 0.8 of a dict
        comprehension's time (no function of its own) and 0.4 of ``dict(zip(map(...)))``."""
        rows: dict[str, int] = {}
        for i, p in enumerate(self.st.formation):
            rows[p.marine.name] = i
        return rows

    @lazy
    def counts(self) -> PileCounts:
        """The hidden piles' sizes: read only by the rules that ask (a search's view works
        them out from its game's state at each read)."""
        return self.view.counts

    # -- options -------------------------------------------------------------------------------

    def subject(self, option: Option) -> Subject:
        verb = option.verb
        if verb not in _SITUATED:
            # Most options (`done`, a card, a target, a genestealer...) are about the same
            # thing in every situation: made once per card table and shared (never changed
            # once made), rather than once per option per decision (measured: three fifths
            # of a rollout's options, and this function 8% of its rules time).
            found = self._fixed.get(option)
            if found is not None:
                return found
        a = option.args
        # Made without calling __init__ (one frame less per option: the engine's own trick
        # for its copies), the verb set here as __init__ would.
        o = _new_subject(Subject)
        o.verb = verb
        row_of = self.row_of
        if verb in ("marine", "flip", "charge"):
            o.name = str(a[0])
            o.m = row_of.get(o.name, -1)
        elif verb == "attack":
            o.name = str(a[0])
            o.m = row_of.get(o.name, -1)
            o.t = int(a[2]) - 1
            o.ts = _SIDE_INDEX[str(a[1])]
        elif verb == "swap":
            o.name = str(a[0])
            o.m = row_of.get(o.name, -1)
            o.other = row_of.get(str(a[1]), -1)
        elif verb == "activate":
            o.name = str(a[0])
            o.m = row_of.get(o.name, -1)
            o.terrain = str(a[1])
            if o.m >= 0:
                o.t = o.m
                o.ts = self.st.formation[o.m].marine.facing
        elif verb == "card":
            o.card = str(a[0])
            o.team = self.table.actions[o.card][0]
        elif verb in ("target", "place"):
            o.t = int(a[0]) - 1
            o.ts = _SIDE_INDEX[str(a[1])]
        elif verb in ("slay_at", "take"):
            o.t = int(a[0]) - 1
            o.ts = _SIDE_INDEX[str(a[1])]
            o.gs = str(a[2])
        elif verb == "slay":
            o.gs = str(a[0])
        elif verb == "terrain":
            o.terrain = str(a[0])
            o.t = int(a[1]) - 1
            o.ts = _SIDE_INDEX[str(a[2])]
        elif verb == "pile":
            o.pile = str(a[0])
        elif verb == "team":
            o.team = str(a[0])
        elif verb == "count":
            o.number = int(a[0])
        elif verb in ("reroll", "keep"):
            o.name = self.roll_info[0]
            o.m = row_of.get(o.name, -1)
        if verb in ("yes", "no"):
            if a:
                o.text = str(a[0])
            o.name = self.prompt_marine
            o.m = row_of.get(o.name, -1)
        if not o.team and o.name:
            if o.m >= 0:
                o.team = self.st.formation[o.m].marine.team
            elif o.name in self.table.marines:
                o.team = self.table.marines[o.name][0]
        if verb not in _SITUATED:
            fixed = self._fixed
            if len(fixed) > 50_000:  # options of unbounded arguments: start again
                fixed.clear()
            fixed[option] = o
        return o

    # -- the decision --------------------------------------------------------------------------

    @lazy
    def resolving(self) -> str:
        """The action card resolving now ("" outside Resolve Actions)."""
        st = self.st
        if st.phase != "resolve_actions":
            return ""
        for _, team, card in st.revealed:
            if team not in st.resolved and team not in st.eliminated:
                return card
        return ""

    @lazy
    def resolving_kind(self) -> str:
        card = self.resolving
        return self.table.actions[card][1].kind if card else ""

    @lazy
    def source(self) -> str:
        """The card whose rule or ability asks: named at the head of the prompt, else the
        Event being resolved, else the action card resolving."""
        head = self.prompt.split(":", 1)[0].split(" (", 1)[0].strip()
        if head and head in _card_names(self.table):
            return head
        return self.event or self.resolving

    @lazy
    def event(self) -> str:
        return self.table.events[self.event_id].name if self.event_id is not None else ""

    @lazy
    def event_id(self) -> int | None:
        """The Event card being resolved, if this seat may see it: an Instinct card is the
        current player's alone until he has chosen (RULES §8), which an observation already
        hides and a search's own state does not."""
        st = self.st
        if st.event is None or (st.event_hidden and self.seat != st.current_seat):
            return None
        return st.event

    @lazy
    def scouted(self) -> str:
        """The top Event card as this seat saw it: from the state once it has looked, or
        from Forward Scouting's own question (which names the card)."""
        sc = self.st.scouted
        if sc is not None and sc[0] == self.seat:
            return self.table.events[sc[1]].name
        m = _SCOUTED_PROMPT.search(self.prompt)
        return m.group(1) if m else ""

    @lazy
    def prompt_marine(self) -> str:
        """The marine a yes/no question is about, named in its prompt (Apothecarion,
        Teleportarium, the Artefact)."""
        prompt = self.prompt
        for name in self.row_of:
            if name in prompt:
                return name
        return ""

    @lazy
    def location(self) -> str:
        # GameState.location_name written out (a call less; half the decisions read it).
        loc = self.st.location
        if loc is not None:
            return self.table.locations[loc].name or ""
        setup = self.st.setup_location
        return (setup.name if setup is not None else None) or ""

    @lazy
    def final(self) -> bool:
        loc = self.st.location
        return loc is not None and self.table.locations[loc].final

    @lazy
    def control_panel(self) -> bool:
        """Whether the current location has a Control Panel ability (the terrain works)."""
        loc = self.st.location
        return loc is not None and self.table.locations[loc].ability == "control_panel"

    @lazy
    def my_teams(self) -> frozenset[str]:
        seat = self.seat
        if seat is None or not 1 <= seat <= len(self.st.seats):
            return _EMPTY
        return frozenset(self.st.seats[seat - 1])

    @lazy
    def chosen_kinds(self) -> dict[str, int]:
        """How many of this seat's teams chose each kind of card this round (own cards
        only: another seat's face-down card is not this seat's to know, RULES §5)."""
        out = {"support": 0, "move_activate": 0, "attack": 0}
        mine = self.my_teams
        actions = self.table.actions
        for team, card in self.st.chosen.items():
            if team in mine:
                out[actions[card][1].kind] += 1
        return out

    @lazy
    def artefact(self) -> bool:
        return self.seat is not None and self.st.artefact == self.seat

    @lazy
    def door_tokens(self) -> int:
        table = self.table
        return sum(
            t.tokens
            for p in self.st.formation
            for side in p.terrain
            for t in side
            if t.tokens and is_door(table, t.name)
        )

    # -- the roll being decided (reroll) --------------------------------------------------------

    @lazy
    def roll_info(self) -> tuple[str, str, int, int, int]:
        """(marine, "attack"/"defence"/"", face, side, attackers) read from a reroll prompt."""
        question = read_reroll_prompt(self.prompt)
        if question is None:
            rolled = _ROLLED.search(self.prompt)
            return "", "", int(rolled.group(1)) if rolled else 0, -1, 0
        return question.marine, question.what, question.face, question.side, question.count

    @lazy
    def roll_kills(self) -> int:
        """Genestealers the attack roll being decided would slay (0 for a defence)."""
        marine, what, face, _, _ = self.roll_info
        if what != "attack":
            return 0
        card = self.resolving
        effect = self.table.actions[card][1].effect if card else None
        skull = 1 <= face <= 3
        if effect is not None:
            params = effect.params
            if effect.name == "attack_slays_face_value" and params.get("marine") == marine:
                return face
            if effect.name == "attack_face_slays" and face in params.get("faces", ()):
                return int(params.get("up_to", 1))
        return 1 if skull else 0

    @lazy
    def roll_loses(self) -> bool:
        """Whether the roll being decided fails: a defence that slays the marine (after the
        defence abilities in force), or an attack that slays nothing."""
        marine, what, face, side, size = self.roll_info
        if what == "attack":
            return self.roll_kills == 0
        if what != "defence":
            return False
        row = self.row_of.get(marine, -1)
        if row < 0:
            return False
        strength, lords = swarm_strength(self.table, self.st.formation[row].swarms[side])
        if self.table.gs_weight is not None:
            size = strength  # the prompt counts cards; the verdict weighs them
        # Defensive Stance turns a rerolled loss into a miss unless it shows a 0, but the
        # prompt does not say whether this roll is a reroll: a loss is counted as a loss.
        return slays(face, size, lords, self.margin) and face not in self.miss_faces[row]

    # -- the formation, row by row ---------------------------------------------------------------

    @lazy
    def names(self) -> list[str]:
        # A loop, not a comprehension (see the note at the top).
        out: list[str] = []
        for p in self.st.formation:
            out.append(p.marine.name)
        out.append("")
        return out

    @lazy
    def teams(self) -> list[str]:
        # A loop, not a comprehension (see the note at the top).
        out: list[str] = []
        for p in self.st.formation:
            out.append(p.marine.team)
        out.append("")
        return out

    @lazy
    def mine(self) -> list[bool]:
        mine = self.my_teams
        return [p.marine.team in mine for p in self.st.formation] + [False]

    @lazy
    def ranges(self) -> list[int]:
        return [p.marine.range for p in self.st.formation] + [0]

    @lazy
    def tokens(self) -> list[int]:
        # A loop, not a comprehension (see the note at the top).
        out: list[int] = []
        for p in self.st.formation:
            out.append(p.marine.tokens)
        out.append(0)
        return out

    @lazy
    def facing(self) -> list[str]:
        return [SIDES[p.marine.facing] for p in self.st.formation] + [""]

    @lazy
    def sizes(self) -> tuple[list[int], list[int]]:
        """Swarm sizes by side then row (with the neutral entry); kept as the threat and
        attack sizes too when they are the same lists (see :attr:`attack_sizes`)."""
        # A loop, not two comprehensions (see the note at the top).
        left: list[int] = []
        right: list[int] = []
        for p in self.st.formation:
            a, b = p.swarms
            left.append(len(a))
            right.append(len(b))
        left.append(0)
        right.append(0)
        out = left, right
        if not self.st.protected:
            kept = self.__dict__
            kept["threat_sizes"] = out
            if self.table.gs_weight is None:
                kept["attack_sizes"] = out
        return out

    @lazy
    def lords(self) -> tuple[list[int], list[int]]:
        """Brood Lords by side then row (checked once for the whole formation first, since
        most of the game has none)."""
        f = self.st.formation
        # Brood Lords sit after the deck cards in the id space (CardTable.is_brood_lord): a
        # swarm holds one when its highest id is past the deck, one max() per swarm instead
        # of a generator step per card (measured: 5% of a search decision's rules time).
        deck = self.table.deck_size
        for p in f:
            left, right = p.swarms
            if (left and max(left) >= deck) or (right and max(right) >= deck):
                break
        else:
            zeros = [0] * (self.n + 1)
            return zeros, zeros
        return (
            [sum(1 for c in p.swarms[LEFT] if c >= deck) for p in f] + [0],
            [sum(1 for c in p.swarms[RIGHT] if c >= deck) for p in f] + [0],
        )

    @lazy
    def threat_sizes(self) -> tuple[list[int], list[int]]:
        """Swarm sizes that can attack or be attacked: a Power Field's swarm counts 0."""
        protected = self.st.protected
        if not protected:
            return self.sizes
        f = self.st.formation
        return (
            [0 if any(c in protected for c in p.swarms[LEFT]) else len(p.swarms[LEFT]) for p in f]
            + [0],
            [0 if any(c in protected for c in p.swarms[RIGHT]) else len(p.swarms[RIGHT]) for p in f]
            + [0],
        )

    @lazy
    def attack_sizes(self) -> tuple[list[int], list[int]]:
        """Swarm sizes as their attacks count them (RULES §7), by side then row: an enemy card
        by its weight, a Power Field's swarm 0. The same lists as :attr:`threat_sizes` when
        every card weighs one (the base game)."""
        table = self.table
        if table.gs_weight is None:
            # With no Power Field, the swarms' plain sizes (`sizes` keeps them as this value
            # too): one lazy value's call rather than three.
            return self.threat_sizes if self.st.protected else self.sizes
        protected = self.st.protected
        out: tuple[list[int], list[int]] = ([], [])
        for side in (LEFT, RIGHT):
            for p in self.st.formation:
                swarm = p.swarms[side]
                blocked = bool(protected) and any(c in protected for c in swarm)
                out[side].append(0 if blocked else table.swarm_size(swarm))
            out[side].append(0)
        return out

    @lazy
    def front(self) -> list[int]:
        sizes = self.sizes
        return [sizes[p.marine.facing][r] for r, p in enumerate(self.st.formation)] + [0]

    @lazy
    def behind(self) -> list[int]:
        sizes = self.sizes
        return [sizes[1 - p.marine.facing][r] for r, p in enumerate(self.st.formation)] + [0]

    @lazy
    def front_lords(self) -> list[int]:
        lords = self.lords
        return [lords[p.marine.facing][r] for r, p in enumerate(self.st.formation)] + [0]

    @lazy
    def behind_lords(self) -> list[int]:
        lords = self.lords
        return [lords[1 - p.marine.facing][r] for r, p in enumerate(self.st.formation)] + [0]

    @lazy
    def engaged(self) -> list[int]:
        return [a + b for a, b in zip(self.front, self.behind, strict=True)]

    def _reach(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """(in_range, behind_in_range, targets, max_target) by row, in one pass: attackable
        swarms on each side within each marine's range; all four kept at once, as
        :meth:`_danger` keeps its values."""
        sizes = self.threat_sizes
        n = self.n
        in_range: list[int] = []
        behind: list[int] = []
        targets: list[int] = []
        biggest: list[int] = []
        for r, p in enumerate(self.st.formation):
            m = p.marine
            lo, hi = max(0, r - m.range), min(n, r + m.range + 1)
            front = sizes[m.facing][lo:hi]
            in_range.append(sum(front))
            behind.append(sum(sizes[1 - m.facing][lo:hi]))
            targets.append(len(front) - front.count(0))
            biggest.append(max(front))
        in_range.append(0)
        behind.append(0)
        targets.append(0)
        biggest.append(0)
        kept = self.__dict__
        kept["in_range"] = in_range
        kept["behind_in_range"] = behind
        kept["targets"] = targets
        kept["max_target"] = biggest
        return in_range, behind, targets, biggest

    @lazy
    def in_range(self) -> list[int]:
        return self._reach()[0]

    @lazy
    def behind_in_range(self) -> list[int]:
        return self._reach()[1]

    @lazy
    def targets(self) -> list[int]:
        return self._reach()[2]

    @lazy
    def max_target(self) -> list[int]:
        return self._reach()[3]

    def _terrain_at(self, row: int, side: int) -> list[str]:
        return [t.name for t in self.st.formation[row].terrain[side]]

    # Most rows hold no terrain: the shared empty set for them rather than a new one.

    @lazy
    def front_terrain(self) -> list[frozenset[str]]:
        return [
            frozenset([t.name for t in side]) if (side := p.terrain[p.marine.facing]) else _EMPTY
            for p in self.st.formation
        ] + [_EMPTY]

    @lazy
    def behind_terrain(self) -> list[frozenset[str]]:
        return [
            frozenset([t.name for t in side])
            if (side := p.terrain[1 - p.marine.facing])
            else _EMPTY
            for p in self.st.formation
        ] + [_EMPTY]

    def _colors(self, names: frozenset[str]) -> frozenset[str]:
        terrain = self.table.terrain
        return frozenset(terrain[n].color for n in names)

    @lazy
    def front_colors(self) -> list[frozenset[str]]:
        return [self._colors(t) for t in self.front_terrain]

    @lazy
    def behind_colors(self) -> list[frozenset[str]]:
        return [self._colors(t) for t in self.behind_terrain]

    # -- spawns ----------------------------------------------------------------------------------

    @lazy
    def spawn_weight(self) -> dict[str, float]:
        """Expected genestealers one terrain card of each colour spawns in the next Event
        phase, from the Event cards that may come next: the one this seat saw on top
        (Forward Scouting), else the deck's make-up — every copy not in the discard pile nor
        being resolved (both public), or the discard pile when the deck is empty (§12)."""
        if self.scouted:
            events = self.table.events
            pool = [next(i for i, e in enumerate(events) if e.name == self.scouted)]
            return self._weights(pool, frozenset(pool))
        return self._weights(*self._pool)

    @lazy
    def mean_spawn_weight(self) -> dict[str, float]:
        """:attr:`spawn_weight` without what this seat may have seen on top of the deck."""
        return self._weights(*self._pool)

    @lazy
    def move_chances(self) -> dict[tuple[str, str], float]:
        """(move kind, icon) → chance the next Event card's move box is that one, over the
        cards it may be (:attr:`event_pool`, or the card this seat saw on top)."""
        events = self.table.events
        if self.scouted:
            pool = [next(i for i, e in enumerate(events) if e.name == self.scouted)]
            members = frozenset(pool)
        else:
            pool, members = self._pool
        # The same pools recur all game long, as for _weights: one sum per pool, not per
        # decision (measured: 5% of a search decision's rules time before).
        cache_key = (self.table, members)
        out = _MOVES.get(cache_key)
        if out is not None:
            return out
        out = {}
        for e in pool:
            move = events[e].move
            if move is not None:
                key = (move.kind, move.icon)
                out[key] = out.get(key, 0.0) + 1 / len(pool)
        if len(_MOVES) > 4096:
            _MOVES.clear()
        _MOVES[cache_key] = out
        return out

    def swarm_flank(self, o: Subject) -> float:
        """Chance the next Event flanks the targeted swarm (one of its cards has the icon)."""
        t, ts = o.t, o.ts
        if t < 0 or ts < 0 or t >= self.n:
            return 0.0
        icons: set[str] = set()
        for card in self.st.formation[t].swarms[ts]:
            icons |= self.table.gs_icons[card]
        chances = self.move_chances
        return sum(chances.get(("flank", icon), 0.0) for icon in icons)

    def move_chance(self, gs: str, kind: str) -> float:
        """Chance the next Event moves a genestealer with this label's icons that way."""
        card = self.table.gs_by_label.get(gs)
        if card is None:
            return 0.0
        chances = self.move_chances
        return sum(chances.get((kind, icon), 0.0) for icon in self.table.gs_icons[card])

    @lazy
    def event_pool(self) -> list[int]:
        """The Event cards the next one is drawn from, as far as anyone at the table knows."""
        return self._pool[0]

    @lazy
    def _pool(self) -> tuple[list[int], frozenset[int]]:
        """:attr:`event_pool`, and as a set (the key of the caches of what it gives).

        Cached across decisions by what decides it: whether the deck holds cards, the discard
        pile and the Event being resolved (the same few pools all game long: measured, this
        value and the sets made from it were a twentieth of a search decision's rules time)."""
        st = self.st
        table = self.table
        in_deck = self.counts.event_deck > 0
        key = (table, in_deck, tuple(st.event_discard), self.event_id if in_deck else None)
        found = _POOLS.get(key)
        if found is not None:
            return found
        if in_deck:
            gone = set(st.event_discard)
            if self.event_id is not None:
                gone.add(self.event_id)
            pool = [e for e in range(len(table.events)) if e not in gone]
        else:
            pool = list(st.event_discard)
        if len(_POOLS) > 4096:
            _POOLS.clear()
        found = _POOLS[key] = (pool, frozenset(pool))
        return found

    def _weights(self, pool: list[int], members: frozenset[int]) -> dict[str, float]:
        """Mean genestealers per terrain card of each colour over the Event cards of
        ``pool`` (``members``: the same, as a set). Cached across decisions: the same pools
        recur all game long (measured at a fifth of a decision's time before)."""
        setup = self.st.setup_location
        major, minor = (setup.major_spawn, setup.minor_spawn) if setup else (1, 1)
        key = (self.table, major, minor, members)
        found = _WEIGHTS.get(key)
        if found is not None:
            return found
        out: dict[str, float] = {}
        events = self.table.events
        for e in pool:
            for box in events[e].spawns:
                out[box.color] = out.get(box.color, 0.0) + (major if box.size == "major" else minor)
        found = {c: v / len(pool) for c, v in out.items()} if pool else {}
        if len(_WEIGHTS) > 4096:
            _WEIGHTS.clear()
        _WEIGHTS[key] = found
        return found

    def spawn_at(self, names: frozenset[str]) -> float:
        weight = self.spawn_weight
        terrain = self.table.terrain
        return sum(weight.get(terrain[n].color, 0.0) for n in names)

    @lazy
    def side_spawns(self) -> tuple[float, float, float]:
        """Genestealers expected to spawn on the left and on the right at the next Event
        (each side draws from its own blip pile), and 0 for an option naming no pile."""
        weight = self.spawn_weight
        terrain = self.table.terrain
        out = [0.0, 0.0, 0.0]
        for p in self.st.formation:
            for side in (LEFT, RIGHT):
                for t in p.terrain[side]:
                    out[side] += weight.get(terrain[t.name].color, 0.0)
        return out[0], out[1], 0.0

    @lazy
    def next_spawns(self) -> float:
        """Genestealers expected to spawn in the whole formation at the next Event."""
        return self._formation_spawns(self.spawn_weight)

    @lazy
    def mean_spawns(self) -> float:
        """The same, for an Event card drawn unseen."""
        return self._formation_spawns(self.mean_spawn_weight)

    def _formation_spawns(self, weight: dict[str, float]) -> float:
        terrain = self.table.terrain
        return sum(
            weight.get(terrain[t.name].color, 0.0)
            for p in self.st.formation
            for side in p.terrain
            for t in side
        )

    # A row without terrain spawns nothing: spawn_at's own empty sum (the int 0) without
    # the call (measured: 44,000 calls in 20 search decisions, most of them on empty rows).

    @lazy
    def front_spawn(self) -> list[float]:
        spawn_at = self.spawn_at
        return [spawn_at(t) if t else 0 for t in self.front_terrain]

    @lazy
    def behind_spawn(self) -> list[float]:
        spawn_at = self.spawn_at
        return [spawn_at(t) if t else 0 for t in self.behind_terrain]

    # -- danger ------------------------------------------------------------------------------------

    @lazy
    def miss_faces(self) -> list[frozenset[int]]:
        """Defence faces that miss whatever the swarm, per row: Block and Counter Attack on
        their marine (cards revealed this round), Second Wind (RULES §14.20)."""
        return self._defences()[0]

    @lazy
    def stance(self) -> frozenset[str]:
        """Teams whose Defensive Stance is in force this round."""
        return self._defences()[1]

    def _defences(self) -> tuple[list[frozenset[int]], frozenset[str]]:
        """:attr:`miss_faces` and :attr:`stance` from one pass over the revealed cards, both
        kept at once (nearly every decision that reads one reads the other: measured, one
        lazy value's call and one loop fewer, 1.5% of a rollout decision's rules time)."""
        st = self.st
        out = [_NO_FACES] * (self.n + 1)
        special: dict[str, set[int]] = {}
        # A list, not a generator (measured: the stance 2% of a rollout decision's rules
        # time), and the shared empty set when no card has it (most rounds).
        stance: list[str] | None = None
        if st.phase != "choose_actions":
            actions = self.table.actions
            for _, team, card in st.revealed:
                effect = actions[card][1].effect
                if effect is None:
                    continue
                if effect.name == "defence_face_misses":
                    special.setdefault(str(effect.params["marine"]), set()).update(
                        effect.params["faces"]
                    )
                elif effect.name == "defensive_reroll":
                    stance = [team] if stance is None else [*stance, team]
        for entry in st.effects:
            if isinstance(entry, SecondWind):
                special.setdefault(entry.marine, set()).add(0)
        if special:
            for name, faces in special.items():
                row = self.row_of.get(name)
                if row is not None:
                    out[row] = frozenset(faces)
        teams = _EMPTY if stance is None else frozenset(stance)
        kept = self.__dict__
        kept["miss_faces"] = out
        kept["stance"] = teams
        return out, teams

    def death_at(self, source: int, row: int, facing: int, tokens: int, cut: int = -1) -> float:
        """Chance that the marine now at ``source``, standing at ``row`` facing ``facing``
        with ``tokens``, is slain by the swarms there in the coming Genestealer Attack
        (``cut``: the side losing one genestealer, for what a kill is worth)."""
        sizes = self.attack_sizes
        lords = self.lords
        miss = self.miss_faces[source]
        fsize = sizes[facing][row]
        bsize = sizes[1 - facing][row]
        flords = lords[facing][row]
        blords = lords[1 - facing][row]
        if cut == facing and fsize:
            if fsize > flords:
                fsize -= 1
            else:
                fsize -= 1
                flords -= 1
        elif cut == 1 - facing and bsize:
            if bsize > blords:
                bsize -= 1
            else:
                bsize -= 1
                blords -= 1
        pf = kill_chance(fsize, flords, self.margin, miss)
        pb = kill_chance(bsize, blords, self.margin, miss)
        stance = self.teams[source] in self.stance
        return 1 - survive_front(pf, tokens, stance) * (1 - pb)

    @lazy
    def side_chance(self) -> tuple[list[float], list[float]]:
        """Kill chance of one attack by the swarm on each side of each row, against the
        marine standing there (his miss faces), by side then row."""
        table = self.table
        if table.gs_weight is not None or self.st.protected:
            return self._side_chance(self.attack_sizes, self.lords)
        # Every card counts one and no swarm is under a Power Field (most of every game):
        # sizes and Brood Lords read from the swarms here, in one pass, rather than through
        # `attack_sizes` and `lords` (four lazy values, each a pass and a descriptor call).
        # The same numbers: a swarm's size is its length and its Brood Lords are its cards
        # past the deck, counted only when its highest card is one (as `lords` counts them).
        miss = self.miss_faces
        margin = self.margin
        deck = table.deck_size
        slay = SLAY_CHANCE
        n = self.n
        left_out = [0.0] * (n + 1)
        right_out = [0.0] * (n + 1)
        for r, p in enumerate(self.st.formation):
            left, right = p.swarms
            for cards, out in ((left, left_out), (right, right_out)):
                if not cards:
                    continue
                lords = sum(1 for c in cards if c >= deck) if max(cards) >= deck else 0
                if miss[r]:
                    out[r] = kill_chance(len(cards), lords, margin, miss[r])
                else:
                    top = len(cards) + lords + margin + 1
                    out[r] = slay[top if 0 <= top <= 64 else (0 if top < 0 else 64)]
        return left_out, right_out

    def _side_chance(
        self, sizes: tuple[list[int], list[int]], lords: tuple[list[int], list[int]]
    ) -> tuple[list[float], list[float]]:
        """:attr:`side_chance` from the swarms' attack sizes and Brood Lords by side then row
        (the general case: enemy weights, Power Fields)."""
        miss = self.miss_faces
        margin = self.margin
        n = self.n
        slay = SLAY_CHANCE
        out: tuple[list[float], list[float]] = ([0.0] * (n + 1), [0.0] * (n + 1))
        # Only the rows with a swarm are filled in (an empty swarm never attacks), and
        # kill_chance's own table is read inline, without a call per swarm (measured
        # together: this value's cost halved).
        for side in (LEFT, RIGHT):
            chances = out[side]
            side_sizes = sizes[side]
            side_lords = lords[side]
            for r in range(n):
                size = side_sizes[r]
                if not size:
                    continue
                if miss[r]:
                    chances[r] = kill_chance(size, side_lords[r], margin, miss[r])
                else:
                    top = size + side_lords[r] + margin + 1
                    chances[r] = slay[top if 0 <= top <= 64 else (0 if top < 0 else 64)]
        return out

    def _danger(self) -> tuple[list[float], list[float], list[float]]:
        """(death, token_gain, flip_gain) by row, from :attr:`side_chance`; all three kept
        at once (the first read of any of them computes them, the others are then plain
        attributes: one lazy value's call, not two, for each)."""
        chance = self.side_chance
        stance = self.stance
        n = self.n
        # Rows out of every swarm's reach keep their 0.0 (most rows, most of the time).
        death = [0.0] * (n + 1)
        token = [0.0] * (n + 1)
        flip = [0.0] * (n + 1)
        for r, p in enumerate(self.st.formation):
            m = p.marine
            pf = chance[m.facing][r]
            pb = chance[1 - m.facing][r]
            if not pf and not pb:
                continue
            t = m.tokens
            if stance and m.team in stance:
                d = 1 - survive_front(pf, t, True) * (1 - pb)
                token[r] = d - (1 - survive_front(pf, t + 1, True) * (1 - pb))
                flip[r] = d - (1 - survive_front(pb, t, True) * (1 - pf))
            else:
                # Rerolls while the roll loses: a loss needs every roll to lose (§6.4).
                lf = pf ** (t + 1)
                d = 1 - (1 - lf) * (1 - pb)
                token[r] = (lf - lf * pf) * (1 - pb)
                flip[r] = d - (1 - (1 - pb ** (t + 1)) * (1 - pf))
            death[r] = d
        kept = self.__dict__
        kept["death"] = death
        kept["token_gain"] = token
        kept["flip_gain"] = flip
        return death, token, flip

    @lazy
    def death(self) -> list[float]:
        return self._danger()[0]

    @lazy
    def token_gain(self) -> list[float]:
        return self._danger()[1]

    @lazy
    def flip_gain(self) -> list[float]:
        return self._danger()[2]

    @lazy
    def best_token_gain(self) -> float:
        return max(self.token_gain)

    @lazy
    def max_threat(self) -> float:
        """The most one swarm's attack is expected to slay this round: what a Power Field
        on the worst swarm saves."""
        best = 0.0
        for row in range(self.n):
            for side in (LEFT, RIGHT):
                if self.attack_sizes[side][row]:
                    best = max(best, self._without(row, side))
        return best

    def _without(self, row: int, side: int) -> float:
        """How much the marine at ``row`` gains if the swarm on ``side`` did not attack."""
        m = self.st.formation[row].marine
        chance = self.side_chance
        other = chance[1 - side][row]
        stance = m.team in self.stance
        if side == m.facing:
            after = 1 - (1 - other)
        else:
            after = 1 - survive_front(chance[m.facing][row], m.tokens, stance)
        return self.death[row] - after

    def _row_death(self, row: int, sizes: tuple[list[int], list[int]]) -> float:
        m = self.st.formation[row].marine
        miss = self.miss_faces[row]
        lords = self.lords
        margin = self.margin
        pf = kill_chance(sizes[m.facing][row], lords[m.facing][row], margin, miss)
        pb = kill_chance(sizes[1 - m.facing][row], lords[1 - m.facing][row], margin, miss)
        return 1 - survive_front(pf, m.tokens, m.team in self.stance) * (1 - pb)

    def _row_death_of(self, row: int, left: int, right: int) -> float:
        """:meth:`_row_death` with the row's attack sizes given, left then right."""
        m = self.st.formation[row].marine
        miss = self.miss_faces[row]
        lords = self.lords
        margin = self.margin
        if m.facing == LEFT:
            front, back = left, right
        else:
            front, back = right, left
        pf = kill_chance(front, lords[m.facing][row], margin, miss)
        pb = kill_chance(back, lords[1 - m.facing][row], margin, miss)
        return 1 - survive_front(pf, m.tokens, m.team in self.stance) * (1 - pb)

    def _best_swarm_move(self) -> float:
        """What Strategize's best move saves: one swarm moved one row up or down and/or to
        the other side (Brood Lords counted as plain cards here)."""
        base = self.attack_sizes
        death = self.death
        row_death = self._row_death_of
        best = 0.0
        n = self.n
        # Each move changes the sizes of at most two rows: those rows' deaths are worked out
        # from their new sizes alone, rather than from two copied size lists per move (the
        # same figures, added in the same order; measured: this value, a fifth of a
        # Strategize decision's time, in a third of the instructions).
        for row in range(n):
            for side in (LEFT, RIGHT):
                size = base[side][row]
                if not size:
                    continue
                for drow in (row - 1, row, row + 1):
                    if not 0 <= drow < n:
                        continue
                    for dside in (LEFT, RIGHT):
                        if drow == row and dside == side:
                            continue
                        before = 0.0
                        after = 0.0
                        # A set, iterated as the code before it did (its order decides the
                        # order of the additions, hence the last bit of the sums).
                        for r in {row, drow}:
                            before += death[r]
                            left, right = base[0][r], base[1][r]
                            if r == row:
                                if side == LEFT:
                                    left = 0
                                else:
                                    right = 0
                            if r == drow:
                                if dside == LEFT:
                                    left += size
                                else:
                                    right += size
                            after += row_death(r, left, right)
                        best = max(best, before - after)
        return best

    def card_values(self, card: str) -> tuple[float, float, float]:
        """(kills, saves, blips) an action card is worth now, read from its effect in the
        card catalogue: genestealers its attacks or ability are expected to remove, marines
        its defensive ability is expected to save in the coming Genestealer Attack, and
        blip cards it discards. A rough, honest estimate from the swarms now in place."""
        cache: dict[str, tuple[float, float, float]] = self.__dict__.setdefault("_cards", {})
        found = cache.get(card)
        if found is not None:
            return found
        team, action = self.table.actions[card]
        effect = action.effect
        name = effect.name if effect is not None else ""
        params = effect.params if effect is not None else {}
        rows = [r for r in range(self.n) if self.teams[r] == team]
        kills = saves = blips = 0.0
        if action.kind == "attack":
            per = [self._attack_kills(r, name, params) for r in rows]
            kills = max(per, default=0.0) if EVASION in self.st.effects else sum(per)
        if name == "defence_face_misses":
            row = self.row_of.get(str(params["marine"]))
            if row is not None:
                faces = frozenset(params["faces"]) | self.miss_faces[row]
                m = self.st.formation[row].marine
                sizes, lords, margin = self.attack_sizes, self.lords, self.margin
                pf = kill_chance(sizes[m.facing][row], lords[m.facing][row], margin, faces)
                pb = kill_chance(sizes[1 - m.facing][row], lords[1 - m.facing][row], margin, faces)
                after = 1 - survive_front(pf, m.tokens, m.team in self.stance) * (1 - pb)
                saves = self.death[row] - after
                if params.get("counter"):
                    kills = 0.5 * (sizes[0][row] > 0) + 0.5 * (sizes[1][row] > 0)
        elif name == "defensive_reroll":
            chance = self.side_chance
            for r in rows:
                m = self.st.formation[r].marine
                pf, pb = chance[m.facing][r], chance[1 - m.facing][r]
                tokens = max(1, m.tokens)
                saves += self.death[r] - (1 - survive_front(pf, tokens, True) * (1 - pb))
        elif name == "power_field":
            saves = self.max_threat
        elif name == "move_swarm":
            saves = self._best_swarm_move()
        elif name in ("overwatch", "spend_support_to_attack"):
            kills = 0.5 * sum(1 for r in rows if self.tokens[r] and self.targets[r])
        elif name == "intimidate":
            engaged = sum(self.engaged[r] for r in rows)
            kills = sum(min(f, engaged) for f in range(6)) / 6
        elif name == "discard_blips":
            blips = float((self.counts.blips_left > 0) + (self.counts.blips_right > 0))
            if blips > 1 and not any(self.tokens[r] for r in range(self.n) if self.mine[r]):
                blips = 1.0
        cache[card] = (kills, saves, blips)
        return kills, saves, blips

    def _attack_kills(self, row: int, name: str, params: Any) -> float:
        """Genestealers one marine is expected to slay with this attack card's ability."""
        marine = self.names[row]
        if name == "heroic_charge" and params.get("marine") == marine:
            charge = float(min(int(params["up_to"]), self.f_near(marine, params["reach"])))
            if charge:
                return max(charge, 0.5 if self.targets[row] else 0.0)
        if not self.targets[row]:
            return 0.0
        biggest = self.max_target[row]
        if name == "attack_face_slays":
            many = min(int(params["up_to"]), biggest)
            faces = params["faces"]
            return sum(many if f in faces else int(1 <= f <= 3) for f in range(6)) / 6
        if name == "attack_slays_face_value" and params.get("marine") == marine:
            return sum(min(f, biggest) for f in range(6)) / 6
        if name == "multiple_attacks" and params.get("marine") == marine:
            return min(0.5 * int(params["attacks"]), float(self.in_range[row]))
        if name == "skull_chains_attack" and params.get("marine") == marine:
            return min(1.0, float(self.in_range[row]))
        return 0.5

    @lazy
    def moved_swarm(self) -> tuple[int, int]:
        """(row, side) of the swarm a "move it where?" question (Strategize) is about: the
        one place next to the offered ones that is not offered, else (-1, -1)."""
        places = {
            (int(o.args[0]) - 1, _SIDE_INDEX[str(o.args[1])])
            for o in self.decision.options
            if o.verb == "place"
        }
        if not places or len(places) == 2 * self.n:
            return -1, -1
        rows = sorted({r for r, _ in places})
        missing = [(r, s) for r in rows for s in (LEFT, RIGHT) if (r, s) not in places]
        if len(missing) == 1 and self.sizes[missing[0][1]][missing[0][0]]:
            return missing[0]
        return -1, -1

    def move_gain(self, o: Subject) -> float:
        """For a place Strategize offers: how much moving the swarm there lowers the summed
        `death` of the marines at both rows."""
        row, side = self.moved_swarm
        if row < 0 or o.t < 0:
            return 0.0
        base = self.attack_sizes
        sizes = ([*base[0]], [*base[1]])
        size = self.table.swarm_size(self.st.formation[row].swarms[side])
        sizes[side][row] = 0
        sizes[o.ts][o.t] += size
        rows = {row, o.t}
        return sum(self.death[r] for r in rows) - sum(self._row_death(r, sizes) for r in rows)

    def swap_gain(self, o: Subject) -> float:
        """How much a swap lowers the two marines' summed chance of dying this round."""
        a, b = o.m, o.other
        if a < 0 or b < 0:
            return 0.0
        f = self.st.formation
        ma, mb = f[a].marine, f[b].marine
        before = self.death[a] + self.death[b]
        after = self.death_at(a, b, ma.facing, ma.tokens) + self.death_at(
            b, a, mb.facing, mb.tokens
        )
        return before - after

    def kill_gain(self, o: Subject) -> float:
        """How much slaying one genestealer of the targeted swarm lowers the chance that
        the marine at its row dies this round."""
        t, ts = o.t, o.ts
        if t < 0 or ts < 0 or t >= self.n:
            return 0.0
        sizes = self.attack_sizes
        if not sizes[ts][t]:
            return 0.0
        # death_at(t, t, facing, tokens, ts) written out: the swarm cut is never empty, and
        # the kill chances read from their table where no ability makes a face miss (the
        # same numbers; measured: a tenth of a rollout's rules time was this value's).
        m = self.st.formation[t].marine
        lords = self.lords
        facing = m.facing
        fsize = sizes[facing][t]
        bsize = sizes[1 - facing][t]
        flords = lords[facing][t]
        blords = lords[1 - facing][t]
        if ts == facing:
            if fsize <= flords:
                flords -= 1
            fsize -= 1
        else:
            if bsize <= blords:
                blords -= 1
            bsize -= 1
        miss = self.miss_faces[t]
        margin = self.margin
        if miss:
            pf = kill_chance(fsize, flords, margin, miss)
            pb = kill_chance(bsize, blords, margin, miss)
        else:
            slay = SLAY_CHANCE
            pf = slay[max(-1, min(fsize + flords + margin, 63)) + 1] if fsize > 0 else 0.0
            pb = slay[max(-1, min(bsize + blords + margin, 63)) + 1] if bsize > 0 else 0.0
        stance = m.team in self.stance
        return self.death[t] - (1 - survive_front(pf, m.tokens, stance) * (1 - pb))

    def target_threat(self, o: Subject) -> float:
        """Chance that the targeted swarm slays the marine at its row (his tokens count
        when it is in front of him)."""
        t, ts = o.t, o.ts
        if t < 0 or ts < 0 or t >= self.n:
            return 0.0
        m = self.st.formation[t].marine
        sizes, lords = self.attack_sizes, self.lords
        p = kill_chance(sizes[ts][t], lords[ts][t], self.margin, self.miss_faces[t])
        if ts == m.facing:
            return 1 - survive_front(p, m.tokens, m.team in self.stance)
        return p

    @lazy
    def total_death(self) -> float:
        return sum(self.death)

    # -- teams -------------------------------------------------------------------------------------

    def _team_sum(self, values: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for team, v in zip(self.teams, values, strict=True):
            out[team] = out.get(team, 0) + v
        return out

    @lazy
    def team_front(self) -> dict[str, int]:
        return self._team_sum(self.front)

    @lazy
    def team_behind(self) -> dict[str, int]:
        return self._team_sum(self.behind)

    @lazy
    def team_in_range(self) -> dict[str, int]:
        return self._team_sum(self.in_range)

    @lazy
    def team_targets(self) -> dict[str, int]:
        return self._team_sum([int(t > 0) for t in self.targets])

    @lazy
    def team_tokens(self) -> dict[str, int]:
        return self._team_sum(self.tokens)

    @lazy
    def team_marines(self) -> dict[str, int]:
        return self._team_sum([1] * self.n + [0])

    @lazy
    def team_death(self) -> dict[str, float]:
        return self._team_sum(self.death)

    @lazy
    def team_flip_gain(self) -> dict[str, float]:
        return self._team_sum([max(0.0, g) for g in self.flip_gain])

    @lazy
    def team_turn_gain(self) -> dict[str, int]:
        return self._team_sum([max(0, b - f) for f, b in zip(self.front, self.behind, strict=True)])

    @lazy
    def team_turn_targets(self) -> dict[str, int]:
        return self._team_sum(
            [max(0, b - f) for f, b in zip(self.in_range, self.behind_in_range, strict=True)]
        )

    @lazy
    def activatable(self) -> list[int]:
        """Terrain cards in front of each marine that he could activate now."""
        terrain = self.table.terrain
        activated = self.st.activated
        panel = self.control_panel
        out = []
        for names in self.front_terrain[:-1]:
            count = 0
            for name in names:
                card = terrain[name]
                if not card.activatable or name in activated:
                    continue
                if (
                    card.effect is not None
                    and card.effect.name == "use_control_panel"
                    and not panel
                ):
                    continue
                count += 1
            out.append(count)
        return [*out, 0]

    @lazy
    def team_activatable(self) -> dict[str, int]:
        return self._team_sum(self.activatable)

    @lazy
    def team_doors(self) -> dict[str, int]:
        table = self.table
        return self._team_sum(
            [int(any(is_door(table, name) for name in t)) for t in self.front_terrain]
        )

    # -- functions ---------------------------------------------------------------------------------

    def f_chance(self, size: int) -> float:
        """The chance a swarm of ``size`` cards, no Brood Lord among them, slays a marine
        with one roll, under the game's rules (a variant's defence margin included)."""
        return kill_chance(size, 0, self.margin)

    def f_swarm(self, position: float, side: str) -> int:
        row = int(position) - 1
        s = _SIDE_INDEX.get(side)
        if s is None or not 0 <= row < self.n:
            return 0
        return self.sizes[s][row]

    def f_terrain(self, position: float, side: str) -> frozenset[str]:
        row = int(position) - 1
        s = _SIDE_INDEX.get(side)
        if s is None or not 0 <= row < self.n:
            return _EMPTY
        return frozenset(self._terrain_at(row, s))

    def f_colors(self, position: float, side: str) -> frozenset[str]:
        return self._colors(self.f_terrain(position, side))

    def f_row(self, name: str) -> int:
        return self.row_of.get(name, -1)

    def f_near(self, name: str, reach: float) -> int:
        """Attackable genestealers within ``reach`` rows of the marine, either side."""
        row = self.row_of.get(name)
        if row is None:
            return 0
        sizes = self.threat_sizes
        lo, hi = max(0, row - int(reach)), min(self.n, row + int(reach) + 1)
        return sum(sizes[0][lo:hi]) + sum(sizes[1][lo:hi])

    def terrain_rows(self, name: str) -> list[int]:
        """Rows with a terrain card of that name (either side)."""
        cache: dict[str, list[int]] = self.__dict__.setdefault("_terrain_rows", {})
        rows = cache.get(name)
        if rows is None:
            rows = cache[name] = [
                r
                for r, p in enumerate(self.st.formation)
                if any(t.name == name for side in p.terrain for t in side)
            ]
        return rows

    def f_distance_from(self, position: float, name: str) -> int:
        row = int(position) - 1
        rows = self.terrain_rows(name)
        if row < 0 or not rows:
            return 99
        return min(abs(row - r) for r in rows)

    def f_team_distance(self, team: str, name: str) -> int:
        rows = self.terrain_rows(name)
        if not rows:
            return 99
        return min(
            (abs(m - r) for m in range(self.n) if self.teams[m] == team for r in rows), default=99
        )

    def f_last(self, team: str) -> str:
        return self.st.last_resolved.get(team, "")


# fmt: off
SHARED_PHASE_VALUES: frozenset[str] = frozenset({
    # the formation and what is beside it
    "row_of", "names", "teams", "ranges", "tokens", "facing", "sizes", "lords",
    "threat_sizes", "attack_sizes", "front", "behind", "front_lords", "behind_lords",
    "engaged", "in_range", "behind_in_range", "targets", "max_target", "front_terrain",
    "behind_terrain", "front_colors", "behind_colors", "activatable", "_terrain_rows",
    # chances and dangers worked out from it
    "miss_faces", "stance", "side_chance", "death", "token_gain", "flip_gain",
    "best_token_gain", "max_threat", "total_death",
    # team sums (over every team, whoever's it is)
    "team_front", "team_behind", "team_in_range", "team_targets", "team_tokens",
    "team_marines", "team_death", "team_flip_gain", "team_turn_gain", "team_turn_targets",
    "team_activatable", "team_doors",
    # the piles (a memo's view counts them from its own game, the same for every seat)
    # and the location
    "counts", "location", "final", "control_panel", "door_tokens",
})
SEAT_PHASE_VALUES: frozenset[str] = frozenset({
    # what the seat may know of the next Event: the card it saw on top (Forward Scouting)
    # and an Instinct Event hidden from all but the current player (``event_id``)
    "event_pool", "_pool", "spawn_weight", "mean_spawn_weight", "side_spawns",
    "next_spawns", "mean_spawns", "front_spawn", "behind_spawn",
    # the seat's own teams, marines and cards (the card values read them)
    "my_teams", "mine", "artefact", "_cards",
})
# fmt: on
PHASE_VALUES: frozenset[str] = SHARED_PHASE_VALUES | SEAT_PHASE_VALUES
"""Values one Choose Actions phase's decisions share, in a search's rollouts.

Between two teams' Choose Actions questions the engine changes nothing but ``chosen``
(``engine/phases/choose.py``: abilities are only asked which cards are barred), so a value
that reads the formation, the piles, the location, the lasting effects and the seat — not
the decision's options, prompt or ``chosen`` — is the same for every team of the seat in
that phase, and one that does not read the seat either (:data:`SHARED_PHASE_VALUES`) is the
same for every team of every seat; those that read what the seat alone may know or holds
are :data:`SEAT_PHASE_VALUES`. A view that offers a ``memo`` dict (the search's view of its
own game, made per rollout, whose state only its engine changes) gets them computed once
per phase (and seat); an observation has none, and its situations compute everything.
Measured: within a seat, 4.8% fewer instructions for six searched solo decisions (150
rollouts each), the same choices: the later teams no longer work out the formation's
dangers, reach and spawns (each card's own values, ``_cards``, stay their team's: another
team's cards are other cards). Shared by every seat: at 4–6 players, where a seat has one
team and so nothing was shared before, see docs/performance.md. A value not listed here is
computed afresh by every decision (``chosen_kinds``, ``source``, ``scouted``,
``moved_swarm``...); the spawn values read ``scouted``, whose reading of the prompt (Forward
Scouting's question) never matches a Choose Actions prompt, so they are the seat's alike;
``tests/players/rules/test_caches.py`` checks every listed one against a fresh computation."""

_EVERY_SEAT = 0
"""The memo's key for :data:`SHARED_PHASE_VALUES` beside the seats' own (seats count from 1)."""


# Caches across decisions, keyed by the table *object* (hashed and compared by identity): an
# entry holds its table, so a table's address cannot be reused by another while its entries
# live (keying by ``id(table)`` could hand a new table a freed one's figures), and each cache
# is emptied past a bound, which frees the tables it held.
_CARD_NAMES: dict[CardTable, frozenset[str]] = {}
_WEIGHTS: dict[tuple[CardTable, int, int, frozenset[int]], dict[str, float]] = {}
_MOVES: dict[tuple[CardTable, frozenset[int]], dict[tuple[str, str], float]] = {}
_FIXED_SUBJECTS: dict[CardTable, dict[Option, Subject]] = {}
_POOLS: dict[tuple[Any, ...], tuple[list[int], frozenset[int]]] = {}


def _card_names(table: CardTable) -> frozenset[str]:
    """Every card name a prompt may start with (built once per table)."""
    names = _CARD_NAMES.get(table)
    if names is None:
        db = table.db
        names = frozenset(
            [a.name for t in db.teams for a in t.actions]
            + [e.name for e in db.events]
            + [loc.name for loc in db.locations]
            + [loc.name for loc in db.setup_locations]
            + [t.name for t in db.terrain]
        )
        if len(_CARD_NAMES) > 64:
            _CARD_NAMES.clear()
        _CARD_NAMES[table] = names
    return names
