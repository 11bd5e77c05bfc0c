"""Running a tournament: plan the games not yet stored, play them in batches on worker
processes or a Dask cluster, store each finished batch, stop cleanly.

What a run plays is read from the results database, never remembered: the games missing from
it, in order of game index (all cells and entries side by side). So a run stopped anywhere —
Ctrl-C, ``kill -9`` of this process, a worker that dies — goes on with ``--resume`` from exactly
the games it lacks, and a finished tournament has nothing left to play.

Backends: ``workers=0`` plays in this process (for debugging and profiling); ``workers=N``
starts N worker processes; ``dask=ADDRESS`` sends the batches to a Dask scheduler
(``dask="local"`` starts a ``distributed.LocalCluster`` of ``workers`` processes first).
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from attrs import evolve, frozen

from deathangel.analysis.workers import (
    DaskCluster,
    StopSignals,
    check_dask,
    new_pool,
    stop_pool,
)
from deathangel.errors import DeathAngelError
from deathangel.tournament.batch import Task, TaskResult, play_task
from deathangel.tournament.results import (
    FAILED,
    LOST,
    NOT_PLAYED,
    WON,
    Results,
    ResultsError,
    SprtTracker,
    run_lock,
)
from deathangel.tournament.stats import SprtResult
from deathangel.tournament.tournament import Cell, TournamentConfig

Progress = Callable[[int, int, float], None]
"""Called as ``progress(done, total, games_per_second)``: games stored (with failures) out of
all the tournament's games, and this run's speed so far."""

MAX_POOL_BREAKS = 3
"""Worker processes that die this many times in one run stop it: something kills them
(memory, a bot that exits) and playing on would only repeat it."""


class WorkerCrashError(DeathAngelError, RuntimeError):
    """Worker processes keep dying; what finished is stored and ``--resume`` goes on."""


@frozen
class RunSummary:
    """How one run of a tournament went."""

    status: str
    """``finished``, ``interrupted``, ``decided`` (the SPRT stopped it) or ``nothing to do``
    (the runs table also records ``failed``: the run stopped on an error)."""
    played: int
    """Games stored by this run (failures included)."""
    failures: int
    done: int
    """Games stored in all, by every run."""
    total: int
    seconds: float
    """Wall time of this run, starting workers included."""
    backend: str
    workers: int
    sprt: SprtResult | None = None
    replayed: int = 0
    """Batches played again because their worker died."""

    @property
    def per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


# -- planning ------------------------------------------------------------------------------------

SPRT_BATCH = 20
"""Game indices per task of a run with an SPRT when ``--batch`` is not given: a fixed size,
because the batches in flight when the test decides are still played and stored, so a size
that followed the clock would make the games stored differ from run to run."""


class PacedBatch:
    """Game indices per task, sized from the pace of the games stored so far: about
    :attr:`SECONDS` of play a task, between 1 and :attr:`MOST` indices.

    Games of seconds or minutes (a search's) go one index a task, so every worker has work
    and a ``kill -9`` or a Ctrl-C loses little: twelve five-second search games on two
    workers took half the time they took in the former fixed tasks of 20 indices, which put
    them all on one worker. Games of a millisecond go hundreds a task, so a task's own cost
    (a message each way, one SQLite transaction: a few milliseconds) stays small beside
    them. Before any game is stored it is 1. Which games are played, and how each comes out,
    does not depend on it (docs/performance.md, "Batches from the games' pace").
    """

    SECONDS = 0.5
    MOST = 500

    def __init__(self, entries: int) -> None:
        self.entries = max(1, entries)
        self.games = 0
        self.seconds = 0.0

    def observe(self, result: TaskResult) -> None:
        """Count a finished task's games and their play time."""
        self.games += len(result.rows)
        self.seconds += sum(row.seconds for row in result.rows)

    def __call__(self) -> int:
        if not self.games:
            return 1
        per_index = max(self.seconds / self.games, 1e-6) * self.entries
        return max(1, min(self.MOST, round(self.SECONDS / per_index)))


def plan(
    config: TournamentConfig,
    states: dict[tuple[Cell, str], bytearray],
    batch: int | Callable[[], int],
) -> Iterator[Task]:
    """The games not stored yet as tasks of at most ``batch`` game indices each (a number, or
    read before each block of indices, as :class:`PacedBatch` gives it), in order of game
    index so every cell and entry advances together (an SPRT reads pairs in that order).
    Within a block of indices, a cell's games that lack the same entries share a task."""
    names = [e.name for e in config.entries]
    size = batch if callable(batch) else (lambda: batch)
    start = 0
    while start < config.games:
        stop = min(start + max(1, size()), config.games)
        for cell in config.cells:
            groups: dict[tuple[int, ...], list[int]] = {}
            for k in range(start, stop):
                missing = tuple(
                    i for i, name in enumerate(names) if states[cell, name][k] == NOT_PLAYED
                )
                if missing:
                    groups.setdefault(missing, []).append(k)
            for missing, games in groups.items():
                yield Task(cell, missing, tuple(games))
        start = stop


# -- backends ------------------------------------------------------------------------------------


class Backend(Protocol):
    name: str
    workers: int

    def submit(self, config: TournamentConfig, task: Task) -> Any: ...

    def wait(self, handles: Sequence[Any]) -> tuple[list[tuple[Any, TaskResult]], list[Any]]:
        """Block until at least one handle is done; the finished results and the handles
        whose worker died (their tasks are to be played again)."""
        ...

    def close(self) -> None: ...


class InProcess:
    """Play each batch here, when asked for it: one core, no pickling, for debugging."""

    name = "in-process"
    workers = 1

    def __init__(self) -> None:
        self._tasks: dict[int, tuple[TournamentConfig, Task]] = {}
        self._next = 0

    def submit(self, config: TournamentConfig, task: Task) -> Any:
        self._next += 1
        self._tasks[self._next] = (config, task)
        return self._next

    def wait(self, handles: Sequence[Any]) -> tuple[list[tuple[Any, TaskResult]], list[Any]]:
        handle = handles[0]
        config, task = self._tasks.pop(handle)
        return [(handle, play_task(config, task))], []

    def close(self) -> None:
        self._tasks.clear()


class Processes:
    """Batches on ``workers`` local worker processes (started fresh, ``spawn``: no state of
    this process leaks into them)."""

    name = "processes"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.breaks = 0
        self._pool = self._new_pool()

    def _new_pool(self) -> cf.ProcessPoolExecutor:
        return new_pool(self.workers)

    def submit(self, config: TournamentConfig, task: Task) -> Any:
        return self._pool.submit(play_task, config, task)

    def wait(self, handles: Sequence[Any]) -> tuple[list[tuple[Any, TaskResult]], list[Any]]:
        done, _ = cf.wait(handles, return_when=cf.FIRST_COMPLETED)
        finished: list[tuple[Any, TaskResult]] = []
        lost: list[Any] = []
        for future in done:
            try:
                finished.append((future, future.result()))
            except cf.process.BrokenProcessPool:
                lost.append(future)
        if lost:
            # A dead worker breaks the whole pool: every unfinished batch is lost with it.
            lost = [h for h in handles if h not in {f for f, _ in finished}]
            self.breaks += 1
            if self.breaks >= MAX_POOL_BREAKS:
                raise WorkerCrashError(
                    f"worker processes died {self.breaks} times in this run (out of memory? "
                    "a strategy that exits?); the games finished are stored and --resume goes on"
                )
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
        return finished, lost

    def close(self) -> None:
        stop_pool(self._pool)


class Dask:
    """Batches on a Dask cluster: ``address`` of a scheduler, or ``local`` for a
    ``distributed.LocalCluster`` of ``workers`` single-threaded processes started here."""

    def __init__(self, address: str, workers: int, *, processes: bool = True) -> None:
        self._cluster = DaskCluster(address, workers, processes=processes)
        self.client = self._cluster.client
        self.name = self._cluster.name
        self.workers = self._cluster.workers
        self._distributed = self._cluster.distributed
        self._killed: type[BaseException] = self._distributed.KilledWorker

    def submit(self, config: TournamentConfig, task: Task) -> Any:
        # pure=False: the same task submitted again after a lost worker is a new run of it.
        return self.client.submit(play_task, config, task, pure=False)

    def wait(self, handles: Sequence[Any]) -> tuple[list[tuple[Any, TaskResult]], list[Any]]:
        done = self._distributed.wait(list(handles), return_when="FIRST_COMPLETED").done
        finished: list[tuple[Any, TaskResult]] = []
        for future in done:
            try:
                finished.append((future, future.result()))
            except self._killed:
                # The scheduler has already retried the batch on other workers.
                raise WorkerCrashError(
                    "a batch killed the Dask workers that ran it, each time the scheduler "
                    "retried it (out of memory? a strategy that exits?); the games finished "
                    "are stored and --resume goes on"
                ) from None
        return finished, []

    def close(self) -> None:
        self._cluster.close()


def check_backend(workers: int | None, dask: str | None) -> None:
    """Refuse now, before a results database is made, options no backend can honour."""
    if workers is not None and workers < 0:
        raise DeathAngelError(f"--workers must be 0 or more, not {workers}")
    check_dask(dask)


def make_backend(workers: int | None, dask: str | None) -> Backend:
    """The backend the options ask for; ``workers=None`` means every local core."""
    check_backend(workers, dask)
    n = workers if workers is not None else len(os.sched_getaffinity(0))
    if dask is not None:
        return Dask(dask, max(1, n))
    if n == 0:
        return InProcess()
    return Processes(n)


# -- the run -------------------------------------------------------------------------------------


def open_results(path: str | Path, config: TournamentConfig, *, resume: bool) -> Results:
    """The results database to play ``config`` into: a new one, or with ``resume`` the one
    that holds this same tournament (a missing one is started)."""
    path = Path(path)
    if path.is_dir():
        raise DeathAngelError(f"{path}: is a folder; name a database file for --db")
    if path.exists():
        results = Results.open(path)  # a file that is not a results database says so
        if not resume:
            results.close()
            raise DeathAngelError(
                f"{path} already holds a tournament; add --resume to go on with it, "
                "or choose another --db"
            )
        try:
            results.check_same(config)
            if config.games > results.config.games and not _sprt_decided(results):
                results.extend_to(config.games)  # asked for more of the same games
        except DeathAngelError:
            results.close()
            raise
        return results
    return Results.create(path, config)


def _sprt_decided(results: Results) -> bool:
    """Whether the tournament's SPRT has already decided: it plays no more games, so asking
    for more leaves its cap as it was (the report's count of games stays true)."""
    stored = results.meta_value("sprt")
    return stored is not None and json.loads(stored).get("decision") is not None


def run_tournament(
    config: TournamentConfig,
    db: str | Path,
    *,
    resume: bool = False,
    workers: int | None = None,
    dask: str | None = None,
    batch: int | None = None,
    progress: Progress | None = None,
    backend: Backend | None = None,
) -> RunSummary:
    """Play every game of ``config`` not yet in the results database ``db``.

    ``batch`` game indices make one task (times the entries that lack them); by default
    their number follows the games' pace (:class:`PacedBatch`), or is :data:`SPRT_BATCH`
    with an SPRT. ``backend`` overrides ``workers`` and ``dask`` (tests pass a Dask cluster
    of their own).

    Ctrl-C (or SIGTERM) stops the workers and returns with status ``interrupted``; every
    batch stored stays stored.

    :raises DeathAngelError: for a database holding another tournament, a bad option, or
        workers that keep dying (see :class:`WorkerCrashError`).
    """
    if batch is not None and batch < 1:
        raise DeathAngelError(f"--batch must be at least 1, not {batch}")
    if backend is None:
        check_backend(workers, dask)
    started = time.perf_counter()
    with run_lock(db), open_results(db, config, resume=resume) as results:
        # The bots are seeded by the database's key (drawn when it was made), and games'
        # facts are recorded as the database was made to hold them.
        config = evolve(config, bot_key=results.config.bot_key, facts=results.config.facts)
        states = results.states()
        total = config.total_games
        done = sum(len(flags) - flags.count(NOT_PLAYED) for flags in states.values())
        tracker = SprtTracker(config, states) if config.sprt is not None else None
        sprt = tracker.advance() if tracker is not None else None
        paced: PacedBatch | None = None
        if batch is None and config.sprt is None:
            paced = PacedBatch(len(config.entries))
        tasks = plan(config, states, paced or batch or SPRT_BATCH)
        first = next(tasks, None)
        if first is None or (sprt is not None and sprt.decision is not None):
            return RunSummary("nothing to do", 0, 0, done, total, 0.0, "none", 0, sprt)
        backend = backend if backend is not None else make_backend(workers, dask)
        if progress is not None:
            progress(done, total, 0.0)
        run = results.start_run(backend.name, backend.workers)
        played = failed = replayed = 0
        status = "finished"
        queue: deque[Task] = deque([first])
        inflight: dict[Any, Task] = {}
        limit = 2 * backend.workers + 1
        with StopSignals() as stop:
            try:
                stopping = False
                while True:
                    stop.check()
                    while not stopping and len(inflight) < limit:
                        task = queue.popleft() if queue else next(tasks, None)
                        if task is None:
                            break
                        inflight[backend.submit(config, task)] = task
                    if not inflight:
                        break
                    with stop.at_once():
                        finished, lost = backend.wait(list(inflight))
                    for handle in lost:
                        queue.append(inflight.pop(handle))
                        replayed += 1
                    for handle, result in finished:
                        inflight.pop(handle)
                        seconds = time.perf_counter() - started
                        results.write(result, run, seconds)
                        if paced is not None:
                            paced.observe(result)
                        played += len(result.rows) + len(result.failures)
                        failed += len(result.failures)
                        done += len(result.rows) + len(result.failures)
                        _mark(states, result)
                        if progress is not None:
                            progress(done, total, played / seconds if seconds > 0 else 0.0)
                    if tracker is not None and not stopping:
                        sprt = tracker.advance()
                        if sprt.decision is not None:
                            # Decided: play nothing new; the batches under way are still stored.
                            stopping = True
                            status = "decided"
            except KeyboardInterrupt:
                status = "interrupted"
            except BaseException:
                status = "failed"
                raise
            finally:
                # Still under this run's handlers: a second Ctrl-C here only asks again for the
                # stop under way, and cannot cut the run's last write in two.
                backend.close()
                seconds = time.perf_counter() - started
                try:
                    results.finish_run(run, status, seconds)
                except ResultsError:
                    # A full disk fails the last write too: the error being raised tells it.
                    if status != "failed":
                        raise
        if sprt is not None:
            results.set_meta("sprt", _json(sprt.to_dict()))
        return RunSummary(
            status,
            played,
            failed,
            done,
            total,
            seconds,
            backend.name,
            backend.workers,
            sprt,
            replayed,
        )


def _mark(states: dict[tuple[Cell, str], bytearray], result: TaskResult) -> None:
    for row in result.rows:
        states[row.cell, row.entry][row.game] = WON if row.outcome == "victory" else LOST
    for failure in result.failures:
        states[failure.cell, failure.entry][failure.game] = FAILED


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True)
