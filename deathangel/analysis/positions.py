"""Round starts of played games, stored game by game as they are played (``deathangel value
play``), so a value model can be fitted on the games of a slow strategy.

A value fitted on the `rules` bot's games learns what a position is worth when `rules` plays
on; the search plays on far better, so its own games (self-play) are the positions a search's
value should learn from. A search's game costs seconds to minutes where a `rules` game costs a
millisecond: a thousand of them is hours on a few cores. So the games are played on worker
processes and each is written to an SQLite file the moment it ends, in one transaction: a
stop at any moment (Ctrl-C, kill -9) loses at most the games being played, and the same
command goes on where it stopped. The file is data (SQLite with JSON values), never pickle.

Game ``i`` has seed ``seed + i`` and, with several player counts, ``players[i % len]`` seats;
its bots are seeded from the file's bot key, so a game is the same whether it was played
first, last, in one process or on a worker, and the file's positions are exactly those
:func:`~deathangel.analysis.valuefit.play_positions` gives for the same arguments.

Each game's decisions are stored beside its positions (format 2): the engine replays a game
from its seed and decisions in milliseconds, exactly, so :func:`replayed` reads the positions
again with today's :func:`~deathangel.players.search.model.features` — a feature added later
is there for games played before it, without playing a search's games again. (A format-1
file, made before, has the features as they were then.)
"""

from __future__ import annotations

import concurrent.futures as cf
import gzip
import json
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from attrs import frozen

from deathangel.analysis.simulate import play_out, spec_bots
from deathangel.analysis.workers import DaskCluster, StopSignals, new_pool, stop_pool
from deathangel.engine.decisions import Option
from deathangel.engine.game import Game, GameConfig
from deathangel.errors import DeathAngelError, IllegalChoiceError
from deathangel.players.base import uses_forward_model
from deathangel.players.search.model import features
from deathangel.players.search.value import position_value
from deathangel.plugins.strategies import Strategy, parse_spec, strategies

FORMAT = 2
"""The format version new positions files are made with (``meta.format``): 2 stores each
game's decisions."""
READABLE = (1, 2)
"""The format versions this version opens (1: no decisions; it is extended as it is)."""

Progress = Callable[[int, int], None]


class PositionsError(DeathAngelError, ValueError):
    """A positions file that cannot be used: the message names it and what is wrong."""


@frozen
class GamePositions:
    """One played game's round starts: their features, the hand-made value of each (for
    comparison), and whether the marines won."""

    index: int
    seats: int
    won: bool
    rows: tuple[dict[str, float], ...]
    baseline: tuple[float, ...]
    decisions: tuple[tuple[str | int, ...], ...] | None = None
    """Every decision of the game as its option's code, in order (``None``: not stored, a
    format-1 file): with the seed, enough to play the game again."""


@frozen
class PositionsConfig:
    """What fixes a positions file's games: who plays, how many seats, which seeds, which
    bots. ``games`` may grow when a run is extended; the rest must stay the same."""

    strategy: str
    players: tuple[int, ...]
    seed: int
    games: int
    bot_key: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "players": list(self.players),
            "seed": self.seed,
            "games": self.games,
            "bot_key": self.bot_key,
        }


def play_game_positions(
    index: int,
    seed: int,
    players: Sequence[int],
    strategy: str,
    bot_key: str,
    found: dict[str, Strategy] | None = None,
) -> GamePositions:
    """Play game ``index`` (seed ``seed + index``) with ``strategy`` at every seat and keep
    every round start (the first decision of each round's Choose Actions). ``found``: the
    strategies on offer, when the caller has them (looking them up costs more than a fast
    bot's game)."""
    seats = players[index % len(players)]
    spec = parse_spec(strategy)
    bots = spec_bots([spec] * seats, seed + index, found or strategies(), bot_key)
    forward = any(uses_forward_model(b) for b in bots)
    game = Game(GameConfig(seats, seed=seed + index), checkpoints=False, forward=forward)
    starts = _RoundStarts()
    result = play_out(game, bots, watch=starts.keep)
    won = result.outcome == "victory"
    decisions = tuple(tuple(o.code()) for o in game.history)
    return GamePositions(index, seats, won, tuple(starts.rows), tuple(starts.baseline), decisions)


class _RoundStarts:
    """The round starts of one game as it is played (or played again): shown each decision
    before it is answered, it keeps the first decision of each round's Choose Actions."""

    def __init__(self) -> None:
        self.rows: list[dict[str, float]] = []
        self.baseline: list[float] = []
        self.last_round = -1

    def keep(self, game: Game) -> None:
        st = game.state
        if st.round != self.last_round and st.phase == "choose_actions":
            self.last_round = st.round
            self.rows.append(features(st, game.table))
            self.baseline.append(position_value(st, game.table))


def replayed(game: GamePositions, seed: int) -> GamePositions:
    """``game`` played again from its seed (``seed + game.index``) and stored decisions, its
    positions read with today's features; as stored where no decisions were (format 1).

    :raises PositionsError: when the decisions do not play out to the stored game (an
        illegal one, or not the same end): a file made by another engine, or corrupt.
    """
    if game.decisions is None:
        return game
    replay = Game(GameConfig(game.seats, seed=seed + game.index), checkpoints=False)
    starts = _RoundStarts()
    try:
        for code in game.decisions:
            starts.keep(replay)
            replay.apply(Option.from_code(code))
    except (IllegalChoiceError, ValueError) as exc:
        raise PositionsError(f"game {game.index}'s decisions do not replay: {exc}") from None
    if replay.decision is not None or (replay.outcome == "victory") != game.won:
        raise PositionsError(f"game {game.index}'s decisions do not replay to its end")
    return GamePositions(
        game.index,
        game.seats,
        game.won,
        tuple(starts.rows),
        tuple(starts.baseline),
        game.decisions,
    )


def _play_task(args: tuple[int, int, tuple[int, ...], str, str]) -> GamePositions:
    """A worker's job: one game (module level, so a spawned process can find it)."""
    return play_game_positions(*args)


class PositionStore:
    """An open positions file. Use :meth:`open`; close it (or use ``with``)."""

    def __init__(
        self, path: Path, conn: sqlite3.Connection, config: PositionsConfig, version: int = FORMAT
    ) -> None:
        self.path = path
        self.conn = conn
        self.config = config
        self.format = version
        """The file's format: a format-1 file stores no decisions, and goes on without."""

    @classmethod
    def open(cls, path: str | Path, config: PositionsConfig | None = None) -> PositionStore:
        """Open ``path``, creating it for ``config`` if it does not exist. With ``config``,
        an existing file must have been made for the same strategy, seats, seed and bot key
        (``games`` may be larger: the run is extended).

        :raises PositionsError: naming the file, and the field that differs.
        """
        path = Path(path)
        if path.is_dir():
            raise PositionsError(f"{path}: is a folder, not a positions file")
        if not path.exists():
            if config is None:
                raise PositionsError(f"{path}: no such positions file")
            conn = _connect(path)
            with conn:
                conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                conn.execute(
                    "CREATE TABLE games (game INTEGER PRIMARY KEY, seats INTEGER NOT NULL, "
                    "won INTEGER NOT NULL, positions TEXT NOT NULL, decisions TEXT NOT NULL)"
                )
                conn.executemany(
                    "INSERT INTO meta VALUES (?, ?)",
                    [("format", str(FORMAT)), ("config", json.dumps(config.to_dict()))],
                )
            return cls(path, conn, config)
        stored, version = _read_config(path)
        if config is not None:
            mine, theirs = config.to_dict(), stored.to_dict()
            differ = [k for k in mine if k != "games" and mine[k] != theirs[k]]
            if differ:
                field = differ[0]
                raise PositionsError(
                    f"{path}: made with {field} {theirs[field]!r}, not {mine[field]!r} "
                    "(use another file, or the same settings to go on)"
                )
            if config.games > stored.games:
                stored = config
        conn = _connect(path)
        if stored is config:
            with conn:
                conn.execute(
                    "UPDATE meta SET value = ? WHERE key = 'config'",
                    (json.dumps(config.to_dict()),),
                )
        return cls(path, conn, stored, version)

    def __enter__(self) -> PositionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    def done(self) -> set[int]:
        """Indices of the games stored."""
        return {row[0] for row in self.conn.execute("SELECT game FROM games")}

    def add(self, game: GamePositions) -> None:
        """Store one game, in one transaction (all of it or none). A game already stored is
        left as it is: game ``i`` is the same game whoever plays it, so a second run on the
        same file (a resume started before the first had stopped) only repeats work, and
        must not stop with a duplicate key when the two finish the same game."""
        data = [{"features": r, "value": v} for r, v in zip(game.rows, game.baseline, strict=True)]
        row: tuple[Any, ...] = (game.index, game.seats, int(game.won), json.dumps(data))
        if self.format >= 2:
            row += (json.dumps([list(c) for c in game.decisions or ()]),)
        try:
            with self.conn:
                self.conn.execute(
                    f"INSERT OR IGNORE INTO games VALUES ({', '.join('?' * len(row))})", row
                )
        except sqlite3.Error as exc:  # a full disk: the transaction is rolled back
            raise PositionsError(
                f"{self.path}: cannot store game {game.index}: {exc}; every game stored "
                "before is kept: run the same command again once that is put right"
            ) from None

    def games(self, limit: int | None = None) -> list[GamePositions]:
        """The stored games in order of index (those below ``limit`` only, if given)."""
        top = self.config.games if limit is None else limit
        out = []
        moves = "decisions" if self.format >= 2 else "NULL"
        for index, seats, won, text, played in self.conn.execute(
            f"SELECT game, seats, won, positions, {moves} FROM games WHERE game < ? ORDER BY game",
            (top,),
        ):
            try:
                data = json.loads(text)
                rows = tuple({str(k): float(v) for k, v in p["features"].items()} for p in data)
                baseline = tuple(float(p["value"]) for p in data)
                decisions = None if played is None else _codes(json.loads(played))
            except (ValueError, TypeError, KeyError, AttributeError):
                raise PositionsError(f"{self.path}: game {index}'s positions are corrupt") from None
            out.append(GamePositions(index, seats, bool(won), rows, baseline, decisions))
        return out


ARCHIVE = "deathangel-played-games"
"""The ``format`` of an archive of a positions file's games (:func:`write_archive`)."""
ARCHIVE_VERSION = 1


def write_archive(store: PositionStore, out: Path) -> int:
    """Write ``store``'s games to ``out`` as an archive: its settings and, per game, the seats,
    the outcome and the decisions, as JSON (gzipped when the name ends in ``.gz``). The
    positions are left out: :func:`restore` reads them again from the decisions, so the
    archive is a fiftieth of the file (a search's thousand solo games: a few hundred
    kilobytes), small enough to keep beside the figures it made when a machine and its
    working files do not last. Returns the games written.

    :raises PositionsError: for a format-1 file (it holds no decisions to archive).
    """
    if store.format < 2:
        raise PositionsError(f"{store.path}: a format-1 file holds no decisions to archive")
    played = store.games()
    data = {
        "format": ARCHIVE,
        "version": ARCHIVE_VERSION,
        "config": store.config.to_dict(),
        "games": [
            {
                "game": g.index,
                "seats": g.seats,
                "won": g.won,
                "decisions": [list(c) for c in g.decisions or ()],
            }
            for g in played
        ],
    }
    text = json.dumps(data, separators=(",", ":")).encode()
    tmp = out.with_name(out.name + ".part")
    tmp.write_bytes(gzip.compress(text, 9, mtime=0) if out.name.endswith(".gz") else text)
    tmp.replace(out)  # all of it or nothing under the name asked for
    return len(played)


def read_archive(path: Path) -> tuple[PositionsConfig, list[GamePositions]]:
    """An archive's settings and games (no positions yet: :func:`replayed` reads them).

    :raises PositionsError: naming the file and what is wrong with it.
    """
    try:
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        data = json.loads(raw)
    except FileNotFoundError:
        raise PositionsError(f"{path}: no such archive") from None
    except (OSError, EOFError, ValueError) as exc:
        raise PositionsError(f"{path}: not an archive of played games ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != ARCHIVE:
        raise PositionsError(f"{path}: not an archive of played games")
    if data.get("version") != ARCHIVE_VERSION:
        raise PositionsError(
            f"{path}: archive version {data.get('version')!r}, this version reads {ARCHIVE_VERSION}"
        )
    try:
        c = data["config"]
        config = PositionsConfig(
            str(c["strategy"]),
            tuple(int(p) for p in c["players"]),
            int(c["seed"]),
            int(c["games"]),
            str(c["bot_key"]),
        )
        games = [
            GamePositions(
                int(g["game"]), int(g["seats"]), bool(g["won"]), (), (), _codes(g["decisions"])
            )
            for g in data["games"]
        ]
    except (KeyError, ValueError, TypeError) as exc:
        raise PositionsError(f"{path}: a corrupt archive ({exc!r})") from None
    return config, games


def read_played(path: Path) -> tuple[PositionsConfig, list[GamePositions]]:
    """The settings and the games, in order of index, of a positions file (``.db``) or of
    its archive (any other name): for scripts that play stored games again from their
    decisions, whichever of the two they are handed.

    :raises PositionsError: for a bad archive.
    """
    if path.suffix == ".db":
        with PositionStore.open(path) as store:
            return store.config, store.games()
    config, games = read_archive(path)
    return config, sorted(games, key=lambda g: g.index)


def restore(
    archive: Path, db: Path, progress: Progress | None = None
) -> tuple[PositionsConfig, int]:
    """Put an archive's games into the positions file ``db`` (made with the archive's
    settings if it does not exist, else checked against them), each game played again from
    its decisions and stored as :meth:`PositionStore.add` stores a game just played: games
    the file holds already are skipped, so restoring twice, or into a file a run goes on
    filling, stores each game once. Returns the settings and the games stored now.

    :raises PositionsError: for a bad archive, other settings, or a game whose decisions do
        not play out to its stored end (named).
    """
    config, games = read_archive(archive)
    with PositionStore.open(db, config) as store:
        have = store.done()
        todo = [g for g in games if g.index not in have]
        for k, g in enumerate(todo, start=1):
            try:
                store.add(replayed(g, config.seed))
            except PositionsError as exc:
                raise PositionsError(f"{archive}: {exc}") from None
            if progress is not None:
                progress(k, len(todo))
    return config, len(todo)


def _codes(data: Any) -> tuple[tuple[str | int, ...], ...]:
    """Stored decisions as option codes (``TypeError`` for anything else: corrupt)."""
    if not isinstance(data, list) or not all(isinstance(c, list) for c in data):
        raise TypeError("decisions must be a list of lists")
    return tuple(tuple(c) for c in data)


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30)
    # As the tournament's results: WAL so a reader never blocks the run; NORMAL so a commit
    # survives a killed process (not a power cut) and costs no flush to disk per game.
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def _read_config(path: Path) -> tuple[PositionsConfig, int]:
    """The config a positions file was made with and its format, or one line saying why it
    is not one."""
    try:
        with closing(sqlite3.connect(path, timeout=30)) as conn:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            readable = [str(f) for f in READABLE]
            version = int(meta["format"]) if meta.get("format") in readable else 0
            columns = "game, seats, won, positions" + (", decisions" if version >= 2 else "")
            conn.execute(f"SELECT {columns} FROM games LIMIT 1").fetchall()
    except sqlite3.DatabaseError as exc:
        raise PositionsError(f"{path}: not a positions file ({exc})") from None
    if not version:
        raise PositionsError(
            f"{path}: positions format {meta.get('format')!r}, this version reads "
            + " and ".join(readable)
        )
    try:
        raw = json.loads(meta["config"])
        config = PositionsConfig(
            str(raw["strategy"]),
            tuple(int(p) for p in raw["players"]),
            int(raw["seed"]),
            int(raw["games"]),
            str(raw["bot_key"]),
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise PositionsError(f"{path}: its config is corrupt ({exc!r})") from None
    return config, version


def play_into(
    store: PositionStore,
    workers: int = 0,
    progress: Progress | None = None,
    games: int | None = None,
    *,
    dask: str | DaskCluster | None = None,
) -> int:
    """Play the games below index ``games`` (by default the store's) not yet stored, each
    written as it ends; ``workers`` > 1 plays them on that many processes, ``dask`` on a
    Dask cluster (a scheduler's address, ``local`` for a cluster of ``workers`` processes
    started here, or a cluster already connected). Returns how many were played now.

    :raises KeyboardInterrupt: at Ctrl-C or SIGTERM (in the main thread), once the games
        finished are stored: the same call goes on from them."""
    c = store.config
    total = c.games if games is None else games
    todo = sorted(set(range(total)) - store.done())
    done = total - len(todo)
    if progress is not None:
        progress(done, total)
    tasks = [(i, c.seed, c.players, c.strategy, c.bot_key) for i in todo]
    # Ctrl-C and SIGTERM cut in at once only while a game is played here, never inside a
    # write (analysis/workers.py); worker processes leave them to this one and exit with it.
    with StopSignals() as stop:
        processes: cf.ProcessPoolExecutor | None = None
        cluster: DaskCluster | None = None
        pool: cf.Executor | None = None
        try:
            if workers <= 1 and dask is None:
                for task in tasks:
                    with stop.at_once():
                        played = _play_task(task)
                    store.add(played)
                    done += 1
                    if progress is not None:
                        progress(done, total)
                return len(tasks)
            if dask is None:
                processes = pool = new_pool(workers)
            else:
                cluster = (
                    dask if isinstance(dask, DaskCluster) else DaskCluster(dask, max(1, workers))
                )
                # pure=False: a game sent again after a lost worker is played again, not looked up.
                pool = cluster.client.get_executor(pure=False)
            pending = {pool.submit(_play_task, task) for task in tasks}
            while pending:
                # Never raised inside the wait: with all the games sent at once it spends long
                # stretches taking each future's lock, and a KeyboardInterrupt there left some
                # held, the pool's manager thread blocked on them, and the process hung at exit
                # (once in three runs of its test). A stop waits for the next half second instead.
                stop.check()
                finished, pending = cf.wait(pending, timeout=0.5, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    try:
                        game = _result(future, cluster)
                    except cf.process.BrokenProcessPool:
                        # SIGTERM to the whole process group (as a batch system sends it) stops
                        # the workers too: a stop, not a crash.
                        if stop.requested:
                            raise KeyboardInterrupt from None
                        raise
                    store.add(game)
                    done += 1
                    if progress is not None:
                        progress(done, total)
            return len(tasks)
        finally:
            if processes is not None:
                stop_pool(processes)
            elif cluster is not None:
                if pool is not None:
                    pool.shutdown(wait=False)  # Dask's executor cancels what is left
                if cluster is not dask:
                    cluster.close()


def _result(future: cf.Future[GamePositions], cluster: DaskCluster | None) -> GamePositions:
    """A finished game's positions; a game that killed every Dask worker it was tried on
    is one line (the games stored so far stay, and the same command goes on)."""
    if cluster is None:
        return future.result()
    try:
        return future.result()
    except cluster.distributed.KilledWorker:
        raise PositionsError(
            "a game killed the Dask workers that played it, each time the scheduler retried "
            "it (out of memory? a strategy that exits?); the games finished are stored and "
            "the same command goes on"
        ) from None
