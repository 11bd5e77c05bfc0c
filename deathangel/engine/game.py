"""A game in progress: the public state protocol that players, bots, replays and tests use.

One screen of API: :attr:`Game.decision` (who decides, what, the legal options),
:meth:`Game.apply` (checked; refuses an illegal option and changes nothing),
:attr:`Game.outcome`, :meth:`Game.observation`, :meth:`Game.clone`, and
:meth:`Game.to_save` / :meth:`Game.from_save`. A game is its config (players, teams, seed) plus
the list of decisions made: replaying that list rebuilds it bit for bit.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Generator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from attrs import evolve, field, frozen

from deathangel.cards.model import CardDatabase
from deathangel.engine.abilities import Abilities
from deathangel.engine.core import check_start_tokens, deal_marines
from deathangel.engine.decisions import CHOOSE_ACTION, KIND_HELP, Decision, Option
from deathangel.engine.lasting import from_code
from deathangel.engine.observation import (
    ForwardData,
    Observation,
    PileCounts,
    observe,
    pile_counts,
    public_copy,
)
from deathangel.engine.randomness import Die, Streams
from deathangel.engine.rounds import Engine
from deathangel.engine.ruleset import PluginVersions, Ruleset, VariantChoices
from deathangel.engine.state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_COUNTS,
    CardTable,
    GameState,
)
from deathangel.engine.switches import Switches
from deathangel.errors import DeathAngelError, IllegalChoiceError, SaveFileError
from deathangel.version import __version__

SAVE_FORMAT = "deathangel-save"
SAVE_VERSION = 1


def _teams_converter(value: Any) -> tuple[tuple[str, ...], ...] | None:
    if value is None:
        return None
    return tuple(tuple(seat) for seat in value)


def _pairs_converter(value: Any) -> tuple[tuple[str, str], ...]:
    """``[["hive", "1.0"]]`` (JSON) or a mapping ``{"hive": "1.0"}`` -> a tuple of pairs."""
    if isinstance(value, Mapping):
        value = value.items()
    return tuple((str(name), str(text)) for name, text in value)


@frozen
class GameConfig:
    """What fixes a game before the first decision."""

    players: int
    """Number of seats, 1–6 (RULES §3)."""
    seed: int = 0
    """Fixes every shuffle and roll."""
    teams: tuple[tuple[str, ...], ...] | None = field(default=None, converter=_teams_converter)
    """Team colours for each seat; ``None`` deals teams at random from the seed."""
    handicap: int = 0
    """Support tokens each marine starts with, taken from the supply (house rule, §3)."""
    plugins: PluginVersions = field(default=(), converter=_pairs_converter)
    """Expansions the game is played with, as ``(name, version)``: a save names what it
    needs, so resuming without them (or with other versions) is refused, never a silent
    change of cards."""
    variants: VariantChoices = field(default=(), converter=_pairs_converter)
    """Rule variants the game is played with, as ``(name, value)``."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "players": self.players,
            "seed": self.seed,
            "teams": None if self.teams is None else [list(t) for t in self.teams],
            "handicap": self.handicap,
        }
        # Written only when set: a base game's save keeps the form older engines read.
        if self.plugins:
            data["plugins"] = [list(p) for p in self.plugins]
        if self.variants:
            data["variants"] = [list(v) for v in self.variants]
        return data

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> GameConfig:
        """The config :meth:`to_dict` wrote; ``KeyError``/``TypeError``/``ValueError`` when
        malformed."""
        for key in ("plugins", "variants"):
            pairs = raw.get(key, [])
            if not isinstance(pairs, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                for p in pairs
            ):
                raise ValueError(f"{key} must be a list of [name, text] pairs")
        return cls(
            players=int(raw["players"]),
            seed=int(raw["seed"]),
            teams=raw.get("teams"),
            handicap=int(raw.get("handicap", 0)),
            plugins=raw.get("plugins", []),
            variants=raw.get("variants", []),
        )

    def expansions(self) -> str:
        """What the config is played with beyond the base game, for messages."""
        parts = [f"plugin {n!r} {v}" for n, v in self.plugins]
        parts += [f"variant {n}={v}" if v else f"variant {n}" for n, v in self.variants]
        return ", ".join(parts) or "the base game alone"


_TABLES: dict[tuple[int, Switches], CardTable] = {}


def card_table(db: CardDatabase, switches: Switches | None = None) -> CardTable:
    """The lookup tables of a database with rule switches (default: the printed rules),
    built once per database object and switches."""
    switches = switches if switches is not None else _PRINTED
    key = (id(db), switches)
    table = _TABLES.get(key)
    if table is None or table.db is not db:
        table = _TABLES[key] = CardTable(db, switches)
    return table


_PRINTED = Switches()


_ABILITIES: dict[int, tuple[CardDatabase, Abilities[Any]]] = {}


def card_abilities(db: CardDatabase) -> Abilities[Any]:
    """Every card's ability for ``db``, built (and checked) once per database object."""
    entry = _ABILITIES.get(id(db))
    if entry is None or entry[0] is not db:
        from deathangel.engine.effects.dispatch import CardAbilities

        entry = _ABILITIES[id(db)] = (db, CardAbilities(db))
    return entry[1]


def default_database() -> CardDatabase:
    """The base game plus installed plugins' cards (loaded once)."""
    from deathangel.cards.load import load_base

    return load_base()


def new_state(config: GameConfig, table: CardTable, streams: Streams) -> GameState:
    """A state ready for setup: seats and teams chosen, marines dealt, supply set (§3.4–6).

    With the ``choose_teams`` switch and no teams in the config, the seats are left empty:
    they choose at setup (:meth:`~deathangel.engine.rounds.Engine.setup`). Each marine starts
    with the table's ``start_tokens`` (the handicap and any starting-support variant).

    Raises ``ValueError`` quoting a bad player count, an unknown or repeated team, a wrong
    number of teams for a seat, or more starting tokens than the supply holds.
    """
    db = table.db
    if config.players not in PLAYER_COUNTS:
        raise ValueError(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, not {config.players!r}")
    setup = db.setup_location_for(config.players)
    per_seat = setup.teams_per_player[config.players]
    colours = [t.color for t in db.teams]
    tokens = table.switches.start_tokens
    if config.teams is None:
        if len(colours) < per_seat * config.players:
            raise ValueError(
                f"{config.players} players need {per_seat * config.players} teams; "
                f"the cards have {len(colours)}"
            )
        if table.switches.choose_teams:
            seats: list[tuple[str, ...]] = [() for _ in range(config.players)]
            sizes = sorted((len(t.marines) for t in db.teams), reverse=True)
            check_start_tokens(db, tokens, sum(sizes[: per_seat * config.players]))
        else:
            picked = streams["setup"].sample(colours, per_seat * config.players)
            seats = [
                tuple(picked[i * per_seat : (i + 1) * per_seat]) for i in range(config.players)
            ]
    else:
        seats = list(config.teams)
        if len(seats) != config.players:
            raise ValueError(f"{config.players} players need {config.players} seats of teams")
        seen: set[str] = set()
        for i, seat in enumerate(seats, start=1):
            if len(seat) != per_seat:
                raise ValueError(
                    f"seat {i} has {len(seat)} team(s); with {config.players} players each "
                    f"seat plays {per_seat}"
                )
            for colour in seat:
                if colour not in colours:
                    raise ValueError(f"unknown team {colour!r}; teams are {', '.join(colours)}")
                if colour in seen:
                    raise ValueError(f"team {colour!r} is chosen twice")
                seen.add(colour)
    st = GameState()
    st.setup_location = setup
    st.seats = seats
    st.supply = db.support_tokens
    st.current_seat = 1
    if all(seats):
        deal_marines(st, db, streams, tokens)
    return st


def played_with(config: GameConfig, ruleset: Ruleset) -> GameConfig:
    """``config`` recording the ruleset's plugins and variants (a config that names none is
    stamped with them).

    :raises DeathAngelError: when the config names other plugins or variants.
    """
    if not config.plugins and not config.variants:
        if not ruleset.plugins and not ruleset.variants:
            return config
        return evolve(config, plugins=ruleset.plugins, variants=ruleset.variants)
    if (config.plugins, config.variants) != (ruleset.plugins, ruleset.variants):
        have = GameConfig(1, plugins=ruleset.plugins, variants=ruleset.variants).expansions()
        raise DeathAngelError(
            f"this game is played with {config.expansions()}, but the ruleset has {have}"
        )
    return config


class _Checkpoint(NamedTuple):
    """A round start (or the game's start), as :meth:`Game.clone` needs it."""

    state: GameState
    streams: dict[str, Any]
    die: Die
    history: int
    log: int
    faces: int
    revealed: int


class _ForwardPoint(NamedTuple):
    """A phase start, as a forward model needs it: the public state and where the records
    (decisions, die faces, reveals) stood."""

    public: GameState
    counts: PileCounts
    scouted: tuple[int, int] | None
    history: int
    faces: int
    revealed: int


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

        ``checkpoints`` copies the state at every round start so :meth:`clone` replays at most
        one round. A run that never clones its games (a tournament: bots see observations)
        turns it off — measured about 20% faster — and a clone then replays from the start.

        ``forward`` records, at each phase start, the public state and, since then, the die
        faces and cards revealed, so that observations carry what a forward model needs
        (:class:`~deathangel.engine.observation.ForwardData`). A run whose players never
        search (random bots) turns it off.
        """
        switches = _PRINTED
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
        self.config = config
        self.ruleset = ruleset
        """The ruleset the game was built with (``None``: the base game or ``db``)."""
        self.db = db if db is not None else default_database()
        self.table = card_table(self.db, switches)
        streams = Streams(config.seed)
        if state is None:
            state = new_state(config, self.table, streams)
        abilities = abilities if abilities is not None else card_abilities(self.db)
        abilities.freeze()  # shared with every player's observation: read-only from now on
        self.engine = Engine(
            state,
            self.table,
            streams,
            die if die is not None else Die(streams["dice"]),
            abilities,
            [] if log else None,
        )
        self.history: list[Option] = []
        """Every option applied, in order: with the config, the whole game."""
        self._checkpoint: _Checkpoint | None = None
        self._replaying = False
        self._take_checkpoint()  # the start, always: clones and scenarios can go back to it
        self._forward: _ForwardPoint | None = None
        self._asked: list[tuple[int, str]] | None = None
        if forward:
            self._start_recording()
        self._gen: Generator[Decision, Option, None] = self.engine.run(
            self._take_checkpoint if checkpoints else None,
            self._take_forward_point if forward else None,
        )
        self._decision: Decision | None = None
        self._start()

    @classmethod
    def around(cls, config: GameConfig, engine: Engine, *, forward: bool = False) -> Game:
        """A game driven by a prepared engine from its state's phase: for forward models,
        which build the engine themselves. It takes no checkpoints (it cannot be cloned), and
        records forward-model data only if ``forward``."""
        game = cls.__new__(cls)
        game.config = config
        game.ruleset = None
        game.db = engine.table.db
        game.table = engine.table
        game.engine = engine
        game.history = []
        game._checkpoint = None
        game._replaying = False
        game._forward = None
        game._asked = None
        if forward:
            game._start_recording()
        game._gen = engine.run(None, game._take_forward_point if forward else None)
        game._decision = None
        game._start()
        return game

    def _start_recording(self, asked: list[tuple[int, str]] | None = None) -> None:
        e = self.engine
        e.revealed = [] if e.revealed is None else e.revealed
        e.faces = [] if e.faces is None else e.faces
        self._asked = asked if asked is not None else []

    def _take_forward_point(self) -> None:
        """Remember the public state at a phase start: where a forward model restarts."""
        if self._replaying:
            return  # a clone catching up: it takes its original's point when done
        e = self.engine
        st = e.state
        assert e.revealed is not None and e.faces is not None
        self._forward = _ForwardPoint(
            public_copy(st, None),
            pile_counts(st),
            st.scouted,
            len(self.history),
            len(e.faces),
            len(e.revealed),
        )

    def _start(self) -> None:
        try:
            self._decision = next(self._gen)
        except StopIteration:
            self._decision = None

    def _take_checkpoint(self) -> None:
        """Remember the state at a restart point (setup or round start) for cheap clones."""
        point = self._checkpoint
        if self._replaying and point is not None and len(self.history) == point.history:
            return  # a clone at the point it was restored from: it shares that checkpoint
        e = self.engine
        # Stream positions, not Random objects: a round-start checkpoint is taken every
        # round of every game, a clone far less often (measured: halves a solo game's time).
        self._checkpoint = _Checkpoint(
            e.state.copy(),
            e.streams.snapshot(),
            e.die.copy_with(e.streams),
            len(self.history),
            0 if e.log is None else len(e.log),
            0 if e.faces is None else len(e.faces),
            0 if e.revealed is None else len(e.revealed),
        )

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
        return observe(
            self.engine.state,
            self.table,
            seat,
            self._decision,
            rules=self.engine.abilities,
            forward=self._forward_data(seat),
        )

    def _forward_data(self, seat: int) -> ForwardData | None:
        point = self._forward
        if point is None:
            return None
        e = self.engine
        assert self._asked is not None and e.faces is not None and e.revealed is not None
        start = point.history
        decisions: list[Option | None] = []
        hide = self.engine.state.choices_hidden()
        for (asker, kind), option in zip(self._asked[start:], self.history[start:], strict=True):
            # Another seat's face-down action card is unknown until the reveal (RULES §5).
            hidden = hide and kind == CHOOSE_ACTION and asker != seat
            decisions.append(None if hidden else option)
        scouted = point.scouted
        return ForwardData(
            # The seat's own copy: the record is the game's, and every seat's view starts
            # from it (one a bot changed would reach the game and every other seat).
            checkpoint=point.public.copy(),
            counts=point.counts,
            decisions=tuple(decisions),
            faces=tuple(e.faces[point.faces :]),
            revealed=tuple(
                card if by in (0, seat) else None for by, card in e.revealed[point.revealed :]
            ),
            scouted_top=scouted[1] if scouted is not None and scouted[0] == seat else None,
        )

    def clone(self) -> Game:
        """An independent copy at the same decision: the last checkpoint (the round start,
        or the game's start without round checkpoints) with the decisions since replayed.
        The copy takes round checkpoints whatever the original does."""
        if self._checkpoint is None:
            raise DeathAngelError("this game keeps no checkpoint to clone from (a forward model's)")
        state, snapshot, die, n_history, n_log, n_faces, n_revealed = self._checkpoint
        new = Game.__new__(Game)
        new.config = self.config
        new.ruleset = self.ruleset
        new.db = self.db
        new.table = self.table
        streams = Streams.restore(self.config.seed, snapshot)
        log = None if self.engine.log is None else self.engine.log[:n_log]
        new.engine = Engine(
            state.copy(), self.table, streams, die.copy_with(streams), self.engine.abilities, log
        )
        new.history = self.history[:n_history]
        # Checkpoints and forward points are never mutated once taken, so the clone shares
        # its original's instead of copying the state again while it replays (measured: a
        # third of a clone's time).
        new._checkpoint = self._checkpoint
        new._replaying = True
        new._forward = None
        new._asked = None
        if self._asked is not None:
            # The clone replays from its checkpoint: its records start as they were then.
            assert self.engine.faces is not None and self.engine.revealed is not None
            new.engine.faces = self.engine.faces[:n_faces]
            new.engine.revealed = self.engine.revealed[:n_revealed]
            new._start_recording(self._asked[:n_history])
        new._gen = new.engine.run(
            new._take_checkpoint, new._take_forward_point if self._asked is not None else None
        )
        new._decision = None
        new._start()
        for option in self.history[n_history:]:
            new.push(option)
        new._replaying = False
        new._forward = self._forward
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
        path = Path(path)
        text = json.dumps(data, indent=1) + "\n"
        # A temporary file of its own beside the target, flushed to disk, then renamed over
        # it: the rename is atomic, so a reader (or a crash, or a closed terminal) sees the
        # old save or the new one, never half of one.
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

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
                f"'decisions' must be a list of decisions, not {_shown(decisions)}"
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
                    f'decision {i + 1} must be a list such as ["card", "Block"], not {_shown(code)}'
                ) from None
            pending = game.decision
            if pending is None or option not in pending.options:
                raise SaveFileError(
                    f"decision {i + 1} of the save cannot be replayed: "
                    + _illegal(game, option, pending)
                )
            game.push(option)
        if ("state" in data and _saved_state(data["state"]) != game.state.to_dict(game.table)) or (
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


def save_config(data: Any) -> GameConfig:
    """The config a save recorded (its plugins and variants say what resuming needs).

    :raises SaveFileError: for anything that is not a deathangel save of a known format, or
        a malformed config.
    """
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError("not a deathangel save file")
    if data.get("version") != SAVE_VERSION:
        raise SaveFileError(
            f"save format version {data.get('version')!r} is not supported "
            f"(this engine reads version {SAVE_VERSION})"
        )
    return _saved_config(data.get("config"))


def _saved_state(state: Any) -> Any:
    """The state a save recorded, its lasting effects read through their one codec: saves
    written before effects were typed hold their numbers as strings (``"2"``)."""
    if not isinstance(state, dict):
        return state
    state = dict(state)
    for key in ("effects", "next_effects"):
        codes = state.get(key)
        # A code that does not read is left as saved: the comparison with the replay refuses it.
        if isinstance(codes, list):
            with contextlib.suppress(ValueError):
                state[key] = [from_code(code).code() for code in codes]
    return state


def _shown(value: Any) -> str:
    """A value from a save as the file writes it (JSON), cut short: never a Python repr."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _saved_config(raw: Any) -> GameConfig:
    """The config of a save, every field checked: one message per problem, naming it."""
    if not isinstance(raw, dict):
        if raw is None:
            raise SaveFileError("the save has no 'config' (players, seed, teams, handicap)")
        raise SaveFileError(f"'config' must be an object, not {_shown(raw)}")

    def whole(key: str, default: int | None = None) -> int:
        if key not in raw and default is not None:
            return default
        if key not in raw:
            raise SaveFileError(f"'config' has no '{key}' (a whole number)")
        value = raw[key]
        if not isinstance(value, int) or isinstance(value, bool):
            raise SaveFileError(f"config.{key} must be a whole number, not {_shown(value)}")
        return value

    players, seed, handicap = whole("players"), whole("seed"), whole("handicap", 0)
    if handicap < 0:
        raise SaveFileError(f"config.handicap must be 0 or more, not {handicap}")
    teams = raw.get("teams")
    if teams is not None and not (
        isinstance(teams, list)
        and all(isinstance(t, list) and all(isinstance(c, str) for c in t) for t in teams)
    ):
        raise SaveFileError(
            f"config.teams must be null or a list of team colours per seat, not {_shown(teams)}"
        )
    pairs = {}
    for key, what in (("plugins", "[name, version]"), ("variants", "[name, value]")):
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
            for p in value
        ):
            raise SaveFileError(f"config.{key} must be a list of {what} pairs, not {_shown(value)}")
        pairs[key] = value
    try:
        return GameConfig(
            players=players,
            seed=seed,
            teams=teams,
            handicap=handicap,
            plugins=pairs["plugins"],
            variants=pairs["variants"],
        )
    except (TypeError, ValueError) as exc:
        raise SaveFileError(f"'config' does not make a game: {exc}") from None


def _illegal(game: Game, option: Option, pending: Decision | None) -> str:
    """Why an option cannot be applied, in words."""
    if pending is None:
        return f"the game was already over before '{option}'"
    legal = [str(o) for o in pending.options]
    shown = "; ".join(legal[:6]) + ("; ..." if len(legal) > 6 else "")
    what = pending.prompt or KIND_HELP.get(pending.kind, pending.kind)
    return (
        f"'{option}' is not a legal answer in round {game.state.round} "
        f"(seat {pending.seat}: {what}); legal: {shown}"
    )


def read_save_file(path: str | Path) -> dict[str, Any]:
    """The JSON object of a save file: read only, never executed, never changed.

    :raises SaveFileError: ``"<path>: ..."`` for an unreadable file or one that is not a JSON
        object.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SaveFileError(f"{path}: cannot read save file: {exc}") from None
    if not isinstance(data, dict):
        raise SaveFileError(f"{path}: not a deathangel save file")
    return data
