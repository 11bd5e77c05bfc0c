"""The results database of a tournament: SQLite, one row per game, written in transactions.

Tables:

- ``meta`` (key, value): ``format``, ``version``, the ``engine`` version that played the
  games, the tournament's ``config`` as canonical JSON (``--resume`` compares it) and its
  ``bot_key``, the secret that seeds its bots (:mod:`deathangel.players.seeds`; kept here so a
  resumed or replayed game gets the same bots).
- ``games``: one row per finished game — the cell (``players``, ``cell_teams``), the ``entry``,
  the game index ``game`` (k) and its ``seed``, the ``teams`` each seat played, ``outcome``
  (``victory`` or ``defeat``), ``rounds``, ``locations_reached``, ``marines_left``,
  ``genestealers_slain``, ``cause`` (of a defeat), ``decisions`` and ``seconds``.
  ``(players, cell_teams, entry, game)`` is unique: a game is never stored twice.
- ``facts``: each game's facts (``game_id`` of its row in ``games``, ``data`` as JSON; see
  :mod:`deathangel.tournament.facts`), written in the same transaction as the game, unless
  the tournament leaves them out. ``meta`` says which: ``facts`` is the facts' version
  (``1``) or ``off``.
- ``failures``: a game that raised, with its seed, the error and its traceback.
- ``runs``: each time the tournament ran — backend, workers, games played, wall seconds.

Format versions: 2 added the ``facts`` table. A version-1 database (made before it) still
opens, with no facts, for reports and to go on with; an unknown version is refused in one
line naming it.

Only the parent process writes, one transaction per finished batch, so the file holds whole
batches and nothing else whatever stops the run (Ctrl-C, ``kill -9``, a crashed worker):
SQLite rolls an unfinished transaction back on the next open.

One run at a time: a run holds an operating-system lock on ``DB.lock`` beside the database
(:func:`run_lock`) from before it opens the database until it has written its end. A second
run is refused in one line before it plays a game, and the kernel lets go of the lock when
its process ends however it ends, so a run killed by ``kill -9`` or a closed session never
blocks the next one, and :func:`run_alive` tells a report whether a run is playing now.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from attrs import evolve

from deathangel import filelocks
from deathangel.errors import DeathAngelError
from deathangel.players.seeds import check_bot_key, new_bot_key
from deathangel.tournament.batch import TaskResult
from deathangel.tournament.facts import FACTS_VERSION
from deathangel.tournament.stats import SprtCounter, SprtResult
from deathangel.tournament.tournament import Cell, TournamentConfig
from deathangel.version import __version__

FORMAT = "deathangel-tournament"
VERSION = 2
"""The format version new databases are made with."""
READABLE = (1, 2)
"""The format versions this deathangel opens (1: no ``facts`` table)."""

NOT_PLAYED, WON, LOST, FAILED = 0, 1, 2, 3
"""A game's state in :meth:`Results.states`."""

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    players INTEGER NOT NULL,
    cell_teams TEXT NOT NULL,
    entry TEXT NOT NULL,
    game INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    teams TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('victory', 'defeat')),
    rounds INTEGER NOT NULL,
    locations_reached INTEGER NOT NULL,
    marines_left INTEGER NOT NULL,
    genestealers_slain INTEGER NOT NULL,
    cause TEXT,
    decisions INTEGER NOT NULL,
    seconds REAL NOT NULL,
    UNIQUE (players, cell_teams, entry, game)
);
CREATE TABLE failures (
    id INTEGER PRIMARY KEY,
    players INTEGER NOT NULL,
    cell_teams TEXT NOT NULL,
    entry TEXT NOT NULL,
    game INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    error TEXT NOT NULL,
    traceback TEXT NOT NULL,
    UNIQUE (players, cell_teams, entry, game)
);
CREATE TABLE facts (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    data TEXT NOT NULL
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    backend TEXT NOT NULL,
    workers INTEGER NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'running'
);
"""

GAME_COLUMNS = (
    "players",
    "cell_teams",
    "entry",
    "game",
    "seed",
    "teams",
    "outcome",
    "rounds",
    "locations_reached",
    "marines_left",
    "genestealers_slain",
    "cause",
    "decisions",
    "seconds",
)


TABLES = ("meta", "games", "failures", "runs", "facts")
"""Every table a results database has (the schema above)."""

_TABLES_OF = {1: TABLES[:4], 2: TABLES}
"""The tables each format version has."""

_NOT_A_DATABASE = 26
"""SQLite's result code SQLITE_NOTADB: the file is not an SQLite database at all."""


class ResultsError(DeathAngelError, ValueError):
    """A results database that is missing, foreign, damaged, or holds a different tournament."""


class OtherTournamentError(ResultsError):
    """The database holds another tournament than the one asked to resume: a command that
    names the database its own way (``tune``'s confirmation) says which option to change."""

    def __init__(self, message: str, differ: tuple[str, ...]) -> None:
        super().__init__(message)
        self.differ = differ


class DatabaseInUseError(ResultsError):
    """Another run is playing the tournament of this database now."""


LOCK_WAIT = 2.0
"""Seconds a run waits for the lock: a report takes it for an instant to see whether a run
is alive, and a run starting in that instant must not be refused for it."""


@contextmanager
def run_lock(db: str | Path) -> Iterator[None]:
    """Hold the database's run lock (:mod:`deathangel.filelocks`: ``DB.lock``, empty; it
    stays) while the block runs.

    :raises DatabaseInUseError: when another run holds it (after :data:`LOCK_WAIT` seconds).
    :raises ResultsError: when the database's folder does not exist.

    Where the lock cannot be taken at all (a file system without locks, a lock file this user
    may not open), the run goes on without it: the games table's unique key still keeps any
    game from being stored twice.
    """
    db = Path(db)
    _check_folder(db)
    try:
        lock = filelocks.take(db, wait=LOCK_WAIT)
    except filelocks.Timeout:
        raise DatabaseInUseError(
            f"{db}: another run is playing this tournament now{_playing(db)}; wait for it to "
            "end, or stop it (Ctrl-C, or kill), then go on with --resume"
        ) from None
    try:
        yield
    finally:
        if lock is not None:
            lock.release()


def _playing(db: Path) -> str:
    """When the run playing ``db`` started and what it has stored, read without writing:
    ``" (started ..., N games stored by it)"``, or nothing when that cannot be read."""
    try:
        conn = sqlite3.connect(f"{db.absolute().as_uri()}?mode=ro", uri=True, timeout=1)
        try:
            row = conn.execute(
                "SELECT started, games FROM runs WHERE status = 'running' ORDER BY id DESC LIMIT 1"
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return ""
    return "" if row is None else f" (started {row[0]}, {row[1]} games stored by it so far)"


def run_alive(db: str | Path) -> bool | None:
    """Whether a run holds ``db``'s run lock now; ``None`` when that cannot be told (no lock
    file: only deathangels older than the lock ran it; or no lock can be taken here)."""
    return filelocks.held_elsewhere(db)


def _check_folder(path: Path) -> None:
    if not path.parent.is_dir():
        raise ResultsError(f"{path}: the folder {path.parent} does not exist")


def integrity_problem(conn: sqlite3.Connection) -> str | None:
    """SQLite's own check of the file, ``PRAGMA quick_check`` (every page and record; not the
    slower ``integrity_check``'s comparison of each index with its table, which measured 2.1 s
    against 0.9 s on a 1,000,000-game file): ``None`` when it passes, else its first complaint
    in one line."""
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    if rows == [("ok",)]:
        return None
    lines = [
        line.strip()
        for row in rows
        for line in str(row[0]).splitlines()
        if line.strip() and not line.startswith("***")
    ]
    return lines[0] if lines else "failed"


class Results:
    """An open results database."""

    def __init__(
        self,
        path: Path,
        conn: sqlite3.Connection,
        config: TournamentConfig,
        meta: dict[str, str],
        *,
        writing: bool = False,
    ) -> None:
        self.path = path
        self.conn = conn
        self.config = config
        self.meta = meta
        self._writing = writing
        """Whether this connection has been set up to write (:func:`_setup`)."""

    # -- opening ----------------------------------------------------------------------------

    @classmethod
    def create(cls, path: str | Path, config: TournamentConfig) -> Results:
        """A new database for ``config``; the schema and config go in one transaction, so
        a file that exists holds a whole, empty tournament or was never made."""
        path = Path(path)
        if path.exists():
            raise ResultsError(f"{path} already exists")
        _check_folder(path)
        conn = _connect(path)
        if not config.bot_key:
            config = evolve(config, bot_key=new_bot_key())
        meta = {
            "format": FORMAT,
            "version": str(VERSION),
            "engine": __version__,
            "config": config.to_json(),
            "bot_key": config.bot_key,
            "facts": str(FACTS_VERSION) if config.facts else "off",
        }
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", list(meta.items()))
            conn.execute("COMMIT")
        except BaseException as exc:
            conn.close()
            path.unlink(missing_ok=True)
            if isinstance(exc, sqlite3.Error):  # a full disk, a read-only folder
                raise ResultsError(f"{path}: cannot make the results database: {exc}") from None
            raise
        return cls(path, conn, config, meta, writing=True)

    @classmethod
    def open(cls, path: str | Path) -> Results:
        """An existing database, checked to be a tournament's.

        :raises ResultsError: for a missing file, or one that is not a results database.
        """
        path = Path(path)
        if path.is_dir():
            raise ResultsError(f"{path}: is a folder, not a results database")
        if not path.is_file():
            raise ResultsError(f"{path}: no such results database")
        conn = sqlite3.connect(path, isolation_level=None, timeout=30)
        try:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.DatabaseError as exc:
            # Another kind of file, or an SQLite file without a meta table: not ours. Else
            # SQLite could not read its own file: say so rather than blame the format.
            foreign = getattr(exc, "sqlite_errorcode", None) == _NOT_A_DATABASE
            problem = None if foreign or "no such table" in str(exc) else integrity_problem(conn)
            hint = "" if foreign or problem is not None else _empty_hint(conn)
            conn.close()
            if problem is not None:
                raise ResultsError(_unhealthy(path, problem)) from None
            raise ResultsError(f"{path} is not a deathangel results database{hint}") from None
        if meta.get("format") != FORMAT:
            conn.close()
            raise ResultsError(f"{path} is not a deathangel results database")
        version = meta.get("version")
        if version not in [str(v) for v in READABLE]:
            conn.close()
            raise ResultsError(
                f"{path}: results format version {version} is not supported "
                f"(this deathangel reads versions {', '.join(map(str, READABLE))})"
            )
        facts = meta.get("facts", "off")
        if facts not in ("off", str(FACTS_VERSION)):
            conn.close()
            raise ResultsError(
                f"{path}: its games' facts are of version {facts}; this deathangel reads "
                f"version {FACTS_VERSION}"
            )
        try:
            config = TournamentConfig.from_dict(json.loads(meta["config"]))
        except (KeyError, TypeError, ValueError) as exc:
            conn.close()
            raise ResultsError(
                f"{path}: the stored tournament config is malformed: {exc}"
            ) from None
        have = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
        missing = [table for table in _TABLES_OF[int(version)] if table not in have]
        if missing:
            conn.close()
            raise ResultsError(
                f"{path}: a results database without its {missing[0]!r} table (damaged, or "
                "changed by hand); a tournament makes every table when it starts"
            )
        if "bot_key" not in meta:
            conn.close()
            raise ResultsError(
                f"{path} was made by deathangel {meta.get('engine', '(unknown)')}, before bots "
                "were seeded by a key: read it with that version"
            )
        try:
            config = evolve(config, bot_key=check_bot_key(meta["bot_key"]), facts=facts != "off")
        except ValueError as exc:
            conn.close()
            raise ResultsError(f"{path}: the stored bot key is malformed: {exc}") from None
        return cls(path, conn, config, meta)

    def check_health(self) -> None:
        """Refuse a file SQLite itself finds damaged (:func:`integrity_problem`): a report
        from it could be wrong without any error.

        :raises ResultsError: ``"<path>: not a healthy SQLite database (integrity check:
            ...)"``.
        """
        problem = integrity_problem(self.conn)
        if problem is not None:
            raise ResultsError(_unhealthy(self.path, problem))

    def check_same(self, config: TournamentConfig) -> None:
        """Refuse to go on with a different tournament or engine in one line. The same
        tournament with more games passes (:meth:`extend_to` makes it so); fewer is refused."""
        engine = self.meta_value("engine")
        if engine != __version__:
            raise ResultsError(
                f"{self.path} was played by deathangel {engine}, this is {__version__}; "
                "start a new results database"
            )
        if config.bot_key and config.bot_key != self.config.bot_key:
            raise ResultsError(
                f"{self.path} seeds its bots with another bot_key than the config names; "
                "use the same config to resume, or another --db"
            )
        if not self.config.defaults:
            # Made before the strategies' defaults were recorded: resumed as it was then.
            config = evolve(config, defaults=())
        if config.to_json() == self.config.to_json():
            return
        stored_games = self.config.games
        if evolve(config, games=stored_games).to_json() == self.config.to_json():
            if config.games > stored_games:
                return  # more games of the same tournament: see extend_to
            raise OtherTournamentError(
                f"{self.path} holds {stored_games} games a cell and entry: --resume can go on "
                f"to {stored_games} or more, not {config.games}",
                ("games",),
            )
        stored, now = dict(self.config.defaults), dict(config.defaults)
        for name in sorted(stored.keys() & now.keys()):
            if stored[name] != now[name]:
                was, new = json.loads(stored[name]), json.loads(now[name])
                changed = sorted(k for k in was.keys() | new.keys() if was.get(k) != new.get(k))
                key = changed[0]
                raise OtherTournamentError(
                    f"{self.path} was played when {name}'s {key} defaulted to "
                    f"{was.get(key)!r}, now {new.get(key)!r}: resume it with the version that "
                    "started it, or use another --db",
                    ("defaults",),
                )
        mine, theirs = self.config.to_dict(), config.to_dict()
        differ = [key for key in mine if mine[key] != theirs.get(key)]
        raise OtherTournamentError(
            f"{self.path} holds a different tournament ({', '.join(differ)} differ); "
            "use the same config to resume, or another --db",
            tuple(differ),
        )

    def extend_to(self, games: int) -> None:
        """Make the tournament ``games`` games a cell and entry, more than it holds: the same
        games and the next seeds (game ``k`` has seed ``seed + k``), so every game stored
        keeps its pair and the new ones pair as the old did. A researcher whose interval is
        too wide plays on rather than starting again."""
        if games < self.config.games:
            raise ResultsError(f"{self.path}: a tournament never loses games ({games})")
        config = evolve(self.config, games=games)
        self.set_meta("config", config.to_json())
        self.config = config

    def meta_value(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._transaction():
            self.conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Results:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what is done -----------------------------------------------------------------------

    def states(self) -> dict[tuple[Cell, str], bytearray]:
        """For each cell and entry, each game's state (``NOT_PLAYED``, ``WON``, ``LOST``,
        ``FAILED``) by its index: a byte per game, so a million games fit in a megabyte."""
        games = self.config.games
        states = {
            (cell, entry.name): bytearray(games)
            for cell in self.config.cells
            for entry in self.config.entries
        }
        query = (
            "SELECT players, cell_teams, entry, game, outcome = 'victory' FROM games "
            "UNION ALL SELECT players, cell_teams, entry, game, NULL FROM failures"
        )
        for players, cell_teams, entry, game, won in self.conn.execute(query):
            flags = states.get((Cell(players, cell_teams), entry))
            if flags is not None and 0 <= game < games:
                flags[game] = FAILED if won is None else WON if won else LOST
        return states

    def count(self) -> tuple[int, int]:
        """Games stored, failures stored."""
        games = self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        failures = self.conn.execute("SELECT COUNT(*) FROM failures").fetchone()[0]
        return int(games), int(failures)

    # -- writing ----------------------------------------------------------------------------

    def start_run(self, backend: str, workers: int) -> int:
        """Record a run's start. Called under :func:`run_lock`: no other run is alive, so a
        run still marked ``running`` was killed before it could write its end, and is
        marked ``killed``."""
        with self._transaction():
            self.conn.execute("UPDATE runs SET status = 'killed' WHERE status = 'running'")
            cur = self.conn.execute(
                "INSERT INTO runs (started, backend, workers) VALUES (?, ?, ?)",
                (datetime.now(UTC).isoformat(timespec="seconds"), backend, workers),
            )
        return int(cur.lastrowid or 0)

    def write(self, result: TaskResult, run: int, seconds: float) -> None:
        """Store a finished batch and the run's progress in one transaction."""
        insert = (
            f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) "
            f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})"
        )
        values = [
            (
                r.cell.players,
                r.cell.teams,
                r.entry,
                r.game,
                r.seed,
                r.teams,
                r.outcome,
                r.rounds,
                r.locations_reached,
                r.marines_left,
                r.genestealers_slain,
                r.cause,
                r.decisions,
                r.seconds,
            )
            for r in result.rows
        ]
        with self._transaction():
            if self.config.facts:
                # Row by row, for each game's id; the facts in the same transaction, so a
                # game is never stored without them (nor they without it). REPLACE: a game
                # deleted by hand leaves its facts, whose id SQLite may give a new game.
                for row, game in zip(result.rows, values, strict=True):
                    cur = self.conn.execute(insert, game)
                    if row.facts is not None:
                        self.conn.execute(
                            "INSERT OR REPLACE INTO facts (game_id, data) VALUES (?, ?)",
                            (cur.lastrowid, row.facts),
                        )
            else:
                self.conn.executemany(insert, values)
            self.conn.executemany(
                "INSERT INTO failures (players, cell_teams, entry, game, seed, error, traceback) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (f.cell.players, f.cell.teams, f.entry, f.game, f.seed, f.error, f.traceback)
                    for f in result.failures
                ],
            )
            self.conn.execute(
                "UPDATE runs SET games = games + ?, failures = failures + ?, seconds = ? "
                "WHERE id = ?",
                (len(result.rows), len(result.failures), seconds, run),
            )

    def finish_run(self, run: int, status: str, seconds: float) -> None:
        with self._transaction():
            self.conn.execute(
                "UPDATE runs SET status = ?, seconds = ? WHERE id = ?", (status, seconds, run)
            )

    def _transaction(self) -> _Transaction:
        if not self._writing:
            # Opened to read, the file was left in the journal it was found in: a report
            # never changes a byte of it (a kept copy in docs/data is committed in the
            # one-file journal). The first write puts it in WAL, as a run writes it.
            _setup(self.conn)
            self._writing = True
        return _Transaction(self.conn, self.path)

    # -- reading ----------------------------------------------------------------------------

    def game(self, game_id: int) -> dict[str, Any]:
        """The row of ``games`` with this id.

        :raises ResultsError: when there is none.
        """
        cur = self.conn.execute(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE id = ?", (game_id,)
        )
        row = cur.fetchone()
        if row is None:
            total = self.conn.execute("SELECT MIN(id), MAX(id) FROM games").fetchone()
            known = "it holds no games" if total[0] is None else f"ids run {total[0]}–{total[1]}"
            raise ResultsError(f"{self.path} has no game {game_id} ({known})")
        return dict(zip(GAME_COLUMNS, row, strict=True))

    def rows(self, query: str, params: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
        return iter(self.conn.execute(query, params))


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` on any exception.

    SQLite's own failures (a full disk, a file grown past its limit, a write the file system
    refused) leave as one :class:`ResultsError` naming the database: the transaction is
    rolled back, so every game stored before stays, and ``--resume`` goes on once the cause
    is put right.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    def __enter__(self) -> None:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        if kind is None:
            try:
                self.conn.execute("COMMIT")
                return
            except sqlite3.Error as exc:
                error = exc
        if self.conn.in_transaction:
            with suppress(sqlite3.Error):  # the error at hand is the one to tell
                self.conn.execute("ROLLBACK")
        if isinstance(error, sqlite3.Error):
            raise self._failed(error) from None

    def _failed(self, exc: sqlite3.Error) -> ResultsError:
        return ResultsError(
            f"{self.path}: cannot write to the results database: {exc}; every game stored "
            "before is kept: go on with --resume once that is put right"
        )


def _empty_hint(conn: sqlite3.Connection) -> str:
    """What to add for an SQLite file with no tables at all: most often a copy of a database
    a run was writing, made without its ``-wal`` file, where SQLite keeps the newest pages
    (early in a run, the tables themselves) until it moves them into the file."""
    try:
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError:
        return ""
    if tables:
        return ""
    return (
        " (an SQLite file with no tables: a copy of a database a run was writing, made without"
        " its -wal file? Read the live database itself, or copy it with:"
        ' sqlite3 RUN.db ".backup COPY.db")'
    )


def _unhealthy(path: Path, problem: str) -> str:
    return f"{path}: not a healthy SQLite database (integrity check: {problem})"


def _connect(path: Path) -> sqlite3.Connection:
    # Transactions are explicit (BEGIN IMMEDIATE / COMMIT), not the module's implicit ones.
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    _setup(conn)
    return conn


def _setup(conn: sqlite3.Connection) -> None:
    # WAL: a report may read while a run writes. NORMAL: a commit survives a killed process
    # (not a power cut), and commits stay cheap at many batches per second.
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")


class SprtTracker:
    """The SPRT over the pairs stored so far, read in its fixed order — game index, then
    cell — up to the first pair not yet stored; a pair with a failed game is skipped."""

    def __init__(self, config: TournamentConfig, states: dict[tuple[Cell, str], bytearray]) -> None:
        assert config.sprt is not None and len(config.entries) == 2
        self.cells = list(config.cells)
        self.games = config.games
        a, b = (e.name for e in config.entries)
        self.columns = [(states[c, a], states[c, b]) for c in self.cells]
        self.counter = SprtCounter(config.sprt)
        self.k = 0
        self.cell = 0

    def advance(self) -> SprtResult:
        """Read the pairs newly complete; where the test stands (``decision`` stays ``None``
        until it decides, also when it reached the cap undecided)."""
        counter = self.counter
        while counter.decision is None and self.k < self.games:
            a, b = self.columns[self.cell]
            sa, sb = a[self.k], b[self.k]
            if sa == NOT_PLAYED or sb == NOT_PLAYED:
                break
            if sa != FAILED and sb != FAILED:
                counter.add(sa == WON, sb == WON)
            self.cell += 1
            if self.cell == len(self.cells):
                self.cell = 0
                self.k += 1
        return counter.result()
