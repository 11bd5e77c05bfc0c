"""A game in progress: the public state protocol that players, bots, replays and tests use.

One screen of API: :attr:`Game.decision` (who decides, what, the legal options),
:meth:`Game.apply` (checked; refuses an illegal option and changes nothing),
:attr:`Game.outcome`, :meth:`Game.observation`, :meth:`Game.clone`, and
:meth:`Game.to_save` / :meth:`Game.from_save`. A game is its config (players, teams, seed) plus
the list of decisions made: replaying that list rebuilds it bit for bit.

What a game keeps besides its engine, and why:

- its *restart points* (:class:`RestartPoint`): a copy of the state wherever the engine can
  start again from the state alone (each phase start, between two action cards, between two
  swarms' attacks), with where every record stood. A clone copies the last one and replays
  the few decisions since; a seat's observation carries its public part for a forward model.
  A run that needs neither (a tournament of bots that do not search) turns them off.
- how it started (:class:`_Start`): enough to deal it again from its config, for a clone of a
  game that keeps no restart points.

Setting up (config, card tables, the deal) is :mod:`deathangel.engine.setup`; save files'
checks are :mod:`deathangel.engine.saves`.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Generator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from attrs import evolve

from deathangel.cards.model import CardDatabase
from deathangel.engine.abilities import Abilities
from deathangel.engine.config import SAVE_FORMAT as SAVE_FORMAT
from deathangel.engine.config import SAVE_VERSION as SAVE_VERSION
from deathangel.engine.config import GameConfig as GameConfig
from deathangel.engine.decisions import CHOOSE_ACTION, KIND_HELP, Decision, Option
from deathangel.engine.observation import (
    ForwardData,
    Observation,
    observe,
    pile_counts,
    public_copy,
)
from deathangel.engine.randomness import Die, StreamPositions, Streams
from deathangel.engine.rounds import Engine
from deathangel.engine.ruleset import Ruleset
from deathangel.engine.saves import read_save_file as read_save_file
from deathangel.engine.saves import save_config as save_config
from deathangel.engine.saves import saved_state, shown, write_atomically
from deathangel.engine.setup import PRINTED, new_state, played_with
from deathangel.engine.setup import card_abilities as card_abilities
from deathangel.engine.setup import card_table as card_table
from deathangel.engine.setup import default_database as default_database
from deathangel.engine.state import CardTable, GameState
from deathangel.errors import DeathAngelError, IllegalChoiceError, SaveFileError
from deathangel.version import __version__

# The names above imported "as" themselves (config, setup, saves) lived here before those
# modules were split out; code that imports them from here keeps working.


class RestartPoint:
    """A point where the engine can start again from the state alone, as a game records it:
    the whole state there (hidden parts too; never changed once taken) and where every
    record stood. Shared by a game and its clones."""

    __slots__ = ("deaths", "faces", "history", "log", "revealed", "slain", "state", "streams")

    def __init__(self, game: Game) -> None:
        e = game.engine
        self.state = e.state.copy()
        # The die's stream is left out: a clone replays the faces rolled since (they are
        # recorded), then rolls on from a copy of the die as it is when cloned. Reading its
        # position here, at every point, measured a fifth of a point's cost.
        self.streams: StreamPositions = e.streams.snapshot(skip="dice")
        self.history = len(game.history)
        faces = e.faces
        self.faces = 0 if faces is None else len(faces)
        self.revealed = 0 if e.revealed is None else len(e.revealed)
        self.log = 0 if e.log is None else len(e.log)
        self.slain = e.genestealers_slain
        self.deaths = len(e.deaths)


class _Start(NamedTuple):
    """How a game started, to deal it again: a prepared state's copy (``None``: dealt from
    the config and seed) and a given die's copy (``None``: the seeded die)."""

    state: GameState | None
    die: Die | None


class _FacesThen(Die):
    """Faces rolled before, then another die: a clone replaying from a restart point."""

    __slots__ = ("_faces", "_next", "then")

    def __init__(self, faces: Sequence[int], then: Die) -> None:
        self._faces = faces
        self._next = 0
        self.then = then

    def roll(self) -> int:
        if self._next < len(self._faces):
            face = self._faces[self._next]
            self._next += 1
            return face
        return self.then.roll()

    def copy_with(self, streams: Streams) -> Die:  # pragma: no cover - replaced after replay
        raise DeathAngelError("a clone's replaying die is never copied")


class Game:
    """One game: the engine driven to its next decision."""

    def __init__(
        self,
        config: GameConfig,
        *,
        ruleset: Ruleset | None = None,
        db: CardDatabase | None = None,
        die: Die | None = None,
        abilities: Abilities[Any] | None = None,
        log: bool = False,
        state: GameState | None = None,
        checkpoints: bool = True,
        forward: bool = True,
    ) -> None:
        """Start a game: ``ruleset`` gives the cards, abilities and rule switches (with
        expansions and variants; :func:`deathangel.plugins.load_ruleset` builds one), and its
        plugins and variants are recorded in :attr:`config`. Without one, ``db`` defaults to
        the base game and ``abilities`` to every card's ability (pass :class:`Abilities` for
        the bare rules). ``die`` defaults to the seeded die; ``state`` starts from a prepared
        position (a scenario) instead of setup.

        :raises DeathAngelError: when ``config`` names plugins or variants that ``ruleset``
            does not have (or no ruleset is given).

        ``checkpoints`` keeps a copy of the state at every restart point so :meth:`clone`
        replays only the decisions since the last one. A run that never clones its games (a
        tournament: bots see observations) turns it off, and a clone then replays from the
        start.

        ``forward`` records, besides the restart points, the die faces and the cards revealed
        since, so that observations carry what a forward model needs
        (:class:`~deathangel.engine.observation.ForwardData`). A run whose players never
        search (random bots) turns it off.
        """
        switches = PRINTED
        if ruleset is not None:
            config = played_with(config, ruleset)
            db = ruleset.db if db is None else db
            abilities = ruleset.abilities if abilities is None else abilities
            switches = ruleset.switches
        elif config.plugins or config.variants:
            raise DeathAngelError(
                f"this game is played with {config.expansions()}: build it with their ruleset"
            )
        if config.handicap:
            if config.handicap < 0:
                raise ValueError(f"a handicap of {config.handicap} token(s) is below 0")
            # The handicap and a starting-support variant are one rule (RULES §3): tokens
            # each marine starts with, read from the table like every switch.
            switches = evolve(switches, start_tokens=switches.start_tokens + config.handicap)
        db = db if db is not None else default_database()
        table = card_table(db, switches)
        streams = Streams(config.seed)
        # How it started, to deal it again for a clone: a prepared state and a given die are
        # copied now (the engine changes them); a dealt one is dealt again from the seed.
        start = _Start(
            None if state is None else state.copy(),
            None if die is None else die.copy_with(streams),
        )
        if state is None:
            state = new_state(config, table, streams)
        abilities = abilities if abilities is not None else card_abilities(db)
        abilities.freeze()  # shared with every player's observation: read-only from now on
        engine = Engine(
            state,
            table,
            streams,
            die if die is not None else streams.die(),
            abilities,
            [] if log else None,
        )
        self._assemble(config, ruleset, engine, start, checkpoints, forward)
        self._run()

    def _assemble(
        self,
        config: GameConfig,
        ruleset: Ruleset | None,
        engine: Engine,
        start: _Start | None,
        checkpoints: bool,
        forward: bool,
        history: list[Option] | None = None,
        asked: list[tuple[int, str]] | None = None,
    ) -> None:
        """Every field of a game, set in one place for its three makers (:meth:`__init__`,
        :meth:`around`, :meth:`clone`); the engine's generator is started by :meth:`_run`."""
        self.config = config
        self.ruleset = ruleset
        """The ruleset the game was built with (``None``: the base game or ``db``)."""
        self.db: CardDatabase = engine.table.db
        self.table: CardTable = engine.table
        self.engine = engine
        self.history: list[Option] = [] if history is None else history
        """Every option applied, in order: with the config, the whole game."""
        self._start = start
        """How the game started (``None``: a forward model's game, never cloned)."""
        self._points = checkpoints or forward
        """Whether restart points are taken."""
        self._point: RestartPoint | None = None
        """The last restart point."""
        self._phase_point: RestartPoint | None = None
        """The last phase start: a clone with the log on starts there (a phase restarted
        part-way would log its header again)."""
        self._dormant = False
        """Taking no restart point of its own (:meth:`defer_points`): a clone, from its
        replay on, goes on from its original's last one, and takes its own from the first
        time it is cloned or observed. A clone played on and let go (a search's rollout)
        never copies its state at a point: a sixth of OpenSpiel's MCTS search went to them."""
        if self._points and engine.faces is None:
            engine.faces = []  # a clone replays the faces rolled since its restart point
        self._asked: list[tuple[int, str]] | None = None
        """Who was asked what at each decision (a forward model's record), or ``None``."""
        if forward:
            if engine.revealed is None:
                engine.revealed = []
            self._asked = [] if asked is None else asked
        self._decision: Decision | None = None

    def _run(self) -> None:
        """Start the engine's generator and advance it to the first decision."""
        take: Callable[[], None] | None = None
        inner: Callable[[], None] | None = None
        if self._points:
            # The engine keeps these callbacks (its generator's frame and its restart_point);
            # they reach the game through a weak reference, so a game, its engine and its
            # generator make no reference cycle: a game dropped (a clone used once) is freed
            # at once instead of waiting for the cycle collector (measured: a solo game's
            # clone at a Choose Actions decision 22.7 µs -> 18.2 µs, its release included;
            # the bench's mid-round clones 1.53x as many a second; docs/performance.md).
            ref = weakref.ref(self)

            def take() -> None:
                game = ref()
                if game is not None:
                    game._take_point()

            def inner() -> None:
                game = ref()
                if game is not None:
                    game._take_inner_point()

        self._gen: Generator[Decision, Option, None] = self.engine.run(None, take, inner)
        try:
            self._decision = next(self._gen)
        except StopIteration:
            self._decision = None

    @classmethod
    def around(cls, config: GameConfig, engine: Engine, *, forward: bool = False) -> Game:
        """A game driven by a prepared engine from its state's phase: for forward models,
        which build the engine themselves. It cannot be cloned, and records forward-model
        data only if ``forward``."""
        game = cls.__new__(cls)
        game._assemble(config, None, engine, None, False, forward)
        game._run()
        return game

    def _take_point(self) -> None:
        """Remember the state at a phase start (the engine can restart there)."""
        if not self._dormant:
            self._point = self._phase_point = RestartPoint(self)

    def _take_inner_point(self) -> None:
        """Remember the state between two action cards or two swarms' attacks."""
        if not self._dormant:
            self._point = RestartPoint(self)

    def defer_points(self) -> None:
        """Take no restart point until this game is cloned or observed: it goes on from its
        last one (a clone, and a determinized game that records forward data, are made so).
        A game played on and let go — a search's rollout — then never copies its state at a
        point, and one that is kept pays for its points only once it is asked for a copy or
        a view (the first of those replays from the last point it has)."""
        self._dormant = True

    # -- the protocol -------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The full state, hidden parts included: for the engine's tools, not for bots."""
        return self.engine.state

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or ``None`` once the game is over."""
        return self._decision

    @property
    def log(self) -> list[str]:
        """What happened so far (empty unless the game was made with ``log=True``)."""
        return self.engine.log if self.engine.log is not None else []

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._decision is None

    @property
    def outcome(self) -> str | None:
        """``"victory"``, ``"defeat"``, or ``None`` while the game goes on."""
        return self.engine.state.outcome

    def apply(self, option: Option | Sequence[Any]) -> None:
        """Answer the pending decision; an illegal option raises and changes nothing."""
        decision = self._decision
        if not isinstance(option, Option):
            try:
                option = Option.from_code(option)
            except ValueError as exc:
                raise IllegalChoiceError(str(exc)) from None
        if decision is None:
            raise IllegalChoiceError(f"the game is over; {option!r} cannot be applied")
        if option not in decision.options:
            legal = ", ".join(repr(o) for o in decision.options)
            raise IllegalChoiceError(
                f"{option!r} is not legal for {decision.kind} (seat {decision.seat}, round "
                f"{self.state.round}, phase {self.state.phase}); legal: {legal}"
            )
        self.push(option)

    def push(self, option: Option) -> None:
        """Apply without checking legality: the fast path for bots that pick from
        ``decision.options``. An option from anywhere else must go through :meth:`apply`."""
        decision = self._decision
        if decision is None:
            raise IllegalChoiceError(f"the game is over; {option!r} cannot be applied")
        self.history.append(option)
        if self._asked is not None:
            self._asked.append((decision.seat, decision.kind))
        try:
            self._decision = self._gen.send(option)
        except StopIteration:
            self._decision = None

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now, as a snapshot value with no path back to this game
        (never deck orders, blip contents or others' face-down choices)."""
        self._dormant = False  # observed: its own points from now on keep forward data short
        return observe(
            self.engine.state,
            self.table,
            seat,
            self._decision,
            rules=self.engine.abilities,
            forward=self._forward_data(seat),
        )

    def _forward_data(self, seat: int) -> ForwardData | None:
        point = self._point
        asked = self._asked
        if point is None or asked is None:
            return None
        e = self.engine
        assert e.faces is not None and e.revealed is not None
        start = point.history
        decisions: list[Option | None] = []
        hide = self.engine.state.choices_hidden()
        for (asker, kind), option in zip(asked[start:], self.history[start:], strict=True):
            # Another seat's face-down action card is unknown until the reveal (RULES §5).
            hidden = hide and kind == CHOOSE_ACTION and asker != seat
            decisions.append(None if hidden else option)
        there = point.state
        scouted = there.scouted
        return ForwardData(
            # The seat's own copy of the public state there: the point is the game's, and
            # every seat's view starts from it (one a bot changed would reach the game).
            checkpoint=public_copy(there, None),
            counts=pile_counts(there),
            decisions=tuple(decisions),
            faces=tuple(e.faces[point.faces :]),
            revealed=tuple(
                card if by in (0, seat) else None for by, card in e.revealed[point.revealed :]
            ),
            scouted_top=scouted[1] if scouted is not None and scouted[0] == seat else None,
        )

    def clone(self) -> Game:
        """An independent copy at the same decision: the last restart point (or the game's
        start, for a game that keeps none) with the decisions since replayed. The copy keeps
        restart points whatever the original does, from the first time it is itself cloned or
        observed (until then it goes on from this game's last one)."""
        start = self._start
        if start is None:
            raise DeathAngelError("this game keeps no checkpoint to clone from (a forward model's)")
        self._dormant = False  # cloned: its own points from now on keep later clones short
        e = self.engine
        point = self._phase_point if e.log is not None else self._point
        new = Game.__new__(Game)
        forward = self._asked is not None
        if point is None:
            # From the start, dealt again from the seed: exactly what the original did.
            streams = Streams(self.config.seed)
            if start.state is None:
                state = new_state(self.config, self.table, streams)
            else:
                state = start.state.copy()
            engine = Engine(
                state,
                self.table,
                streams,
                streams.die() if start.die is None else start.die.copy_with(streams),
                e.abilities,
                None if e.log is None else [],
            )
            new._assemble(self.config, self.ruleset, engine, start, True, forward)
            new._run()
            for option in self.history:
                new.push(option)
            return new
        # The faces rolled since the point, then a copy of the die as it is now: the seeded
        # die forks by its count of draws (:meth:`Die.fork`), its stream never read, and
        # the fork's generator is the clone's ``dice`` stream; any other die is copied with a
        # copy of the streams, ``dice`` included.
        die = e.die
        if type(die) is Die:
            then = die.fork()
            streams = Streams.restore(self.config.seed, point.streams, then)
        else:
            positions = dict(point.streams)
            positions["dice"] = e.streams.position("dice")
            streams = Streams.restore(self.config.seed, positions)
            then = die.copy_with(streams)
        assert e.faces is not None
        since = e.faces[point.faces :]
        engine = Engine(
            point.state.copy(),
            self.table,
            streams,
            _FacesThen(since, then) if since else then,
            e.abilities,
            None if e.log is None else e.log[: point.log],
        )
        engine.faces = e.faces[: point.faces]
        if e.revealed is not None:
            engine.revealed = e.revealed[: point.revealed]
        engine.genestealers_slain = point.slain
        engine.deaths = e.deaths[: point.deaths]
        n = point.history
        new._assemble(
            self.config,
            self.ruleset,
            engine,
            start,
            True,
            forward,
            self.history[:n],
            None if self._asked is None else self._asked[:n],
        )
        # Restart points are never changed once taken, so the clone shares its original's
        # rather than copying the state again while it replays, and goes on from them
        # afterwards until it is itself cloned or observed.
        new.defer_points()
        new._run()
        for option in self.history[n:]:
            new.push(option)
        new._point = self._point
        new._phase_point = self._phase_point
        engine.die = then
        return new

    # -- saving -------------------------------------------------------------------------------

    def to_save(self) -> dict[str, Any]:
        """A JSON-ready save: config and decisions, plus the state and pending decision they
        lead to, which loading checks."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "engine": __version__,
            "config": self.config.to_dict(),
            "decisions": [o.code() for o in self.history],
            "state": self.state.to_dict(self.table),
            "pending": self._pending_dict(),
        }

    def _pending_dict(self) -> dict[str, Any] | None:
        """The pending decision as data: part of what a save must lead back to."""
        d = self._decision
        if d is None:
            return None
        return {"seat": d.seat, "kind": d.kind, "options": [o.code() for o in d.options]}

    def save(self, path: str | Path, *, extra: Mapping[str, Any] | None = None) -> None:
        """Write the save atomically: a crash mid-write never destroys an older save.

        ``extra`` adds top-level keys a front end keeps beside the game (e.g. which seats are
        bots); loading ignores keys it does not know.
        """
        data = self.to_save()
        if extra:
            data.update(extra)
        write_atomically(path, json.dumps(data, indent=1) + "\n")

    @classmethod
    def from_save(
        cls,
        data: Any,
        *,
        ruleset: Ruleset | None = None,
        db: CardDatabase | None = None,
        log: bool = False,
    ) -> Game:
        """Rebuild a game from :meth:`to_save` data by replaying its decisions.

        A save of a game with plugins or variants needs the ruleset they make
        (:func:`deathangel.plugins.ruleset_for` checks the installed versions first).

        Refuses (``SaveFileError``) anything that is not a deathangel save, a newer format,
        a ruleset other than the save's, a decision the rules do not allow, or a replay that
        does not reach the saved state.
        """
        config = save_config(data)
        decisions = data.get("decisions")
        if not isinstance(decisions, list):
            raise SaveFileError(
                f"'decisions' must be a list of decisions, not {shown(decisions)}"
                if "decisions" in data
                else "the save has no 'decisions' (the list of decisions made)"
            )
        if ruleset is None and (config.plugins or config.variants):
            raise SaveFileError(
                f"this save was played with {config.expansions()}: resume it with them"
            )
        if ruleset is not None and (config.plugins, config.variants) != (
            ruleset.plugins,
            ruleset.variants,
        ):
            have = GameConfig(1, plugins=ruleset.plugins, variants=ruleset.variants)
            raise SaveFileError(
                f"this save was played with {config.expansions()}, not {have.expansions()}"
            )
        try:
            game = cls(config, ruleset=ruleset, db=db, log=log)
        except (TypeError, ValueError) as exc:
            raise SaveFileError(f"'config' does not make a game: {exc}") from None
        for i, code in enumerate(decisions):
            try:
                option = Option.from_code(code)
            except ValueError:
                raise SaveFileError(
                    f'decision {i + 1} must be a list such as ["card", "Block"], not {shown(code)}'
                ) from None
            pending = game.decision
            if pending is None or option not in pending.options:
                raise SaveFileError(
                    f"decision {i + 1} of the save cannot be replayed: "
                    + _illegal(game, option, pending)
                )
            game.push(option)
        if ("state" in data and saved_state(data["state"]) != game.state.to_dict(game.table)) or (
            "pending" in data and data["pending"] != game._pending_dict()
        ):
            raise SaveFileError(
                "replaying the save does not reach the state it recorded "
                "(edited file, or saved by an incompatible engine or card set)"
            )
        return game

    @classmethod
    def load(
        cls,
        path: str | Path,
        *,
        ruleset: Ruleset | None = None,
        db: CardDatabase | None = None,
        log: bool = False,
    ) -> Game:
        """Read a save file; never runs code from it and never changes it."""
        data = read_save_file(path)
        try:
            return cls.from_save(data, ruleset=ruleset, db=db, log=log)
        except SaveFileError as exc:
            raise SaveFileError(f"{path}: {exc}") from None


def new_game(
    players: int = 1,
    *,
    seed: int = 0,
    teams: Sequence[Sequence[str]] | None = None,
    handicap: int = 0,
    log: bool = False,
    ruleset: Ruleset | None = None,
) -> Game:
    """A game at its first decision: the shortest way to start one from Python (the base
    game, or ``ruleset``'s cards and variants).

    ``teams`` gives each seat's team colours (dealt at random from the seed when omitted).

    :raises ValueError: for a player count outside 1–6 or a wrong choice of teams.
    """
    config = GameConfig(
        players=players,
        seed=seed,
        teams=None if teams is None else tuple(tuple(t) for t in teams),
        handicap=handicap,
    )
    return Game(config, log=log, ruleset=ruleset)


def _illegal(game: Game, option: Option, pending: Decision | None) -> str:
    """Why an option cannot be applied, in words."""
    if pending is None:
        return f"the game was already over before '{option}'"
    legal = [str(o) for o in pending.options]
    listed = "; ".join(legal[:6]) + ("; ..." if len(legal) > 6 else "")
    what = pending.prompt or KIND_HELP.get(pending.kind, pending.kind)
    return (
        f"'{option}' is not a legal answer in round {game.state.round} "
        f"(seat {pending.seat}: {what}); legal: {listed}"
    )
