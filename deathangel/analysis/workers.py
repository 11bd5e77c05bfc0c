"""Worker processes for long runs (tournaments, stored positions): started fresh, with
Ctrl-C left to the parent, and gone when the parent is; or a Dask cluster's workers.

``spawn``, not ``fork``: no state of the parent (open databases, plugin managers, threads)
leaks into a worker. Each worker ignores Ctrl-C, which the parent handles by stopping them
all, and watches its parent: a worker whose parent was killed (``kill -9``) exits instead of
playing on for nobody or waiting forever for work.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any

from deathangel.errors import DeathAngelError, MissingExtraError

if TYPE_CHECKING:
    import concurrent.futures as cf

# The process pool's modules (concurrent.futures, multiprocessing) and logging are imported
# where a pool or a cluster is made: the commands that only need StopSignals (simulate,
# check, tune) start without them: 0.97x the instructions of `deathangel simulate -n 1`.


def worker_start(parent: int) -> None:
    """In each worker process: Ctrl-C is the parent's to handle (it stops the workers), and
    a worker whose parent is gone exits."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def new_pool(workers: int) -> cf.ProcessPoolExecutor:
    """A pool of ``workers`` fresh processes that start with :func:`worker_start`."""
    import concurrent.futures as cf
    import multiprocessing

    return cf.ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=worker_start,
        initargs=(os.getpid(),),
    )


def stop_pool(pool: cf.ProcessPoolExecutor) -> None:
    """Stop the pool's own worker processes (and no other child of this process) without
    waiting for the work they are doing: a stopped run does not wait for it."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()
    for process in workers:
        process.join(timeout=5)
    # The pool's manager thread notices its workers gone and closes its pipes; left running,
    # it raced the interpreter's exit and now and then printed "OSError: [Errno 9] Bad file
    # descriptor" after a stopped run's last line (seen once in a fresh clone's suite).
    if manager is not None:
        manager.join(timeout=5)


class StopSignals:
    """Ctrl-C and SIGTERM stop a long run, but only where nothing is half done.

    Used as ``with StopSignals() as stop:`` around the run. Entering (:meth:`install`; in the
    main thread, elsewhere it does nothing) makes both signals stop the run: also when the
    shell started it with SIGINT ignored (a background job, which ``kill -INT`` could not stop
    before), and a batch system's SIGTERM (a job's time is up) no longer kills it before it
    says how to go on. Leaving (:meth:`restore`) puts the handlers back, after whatever the
    run does on its way out: a second Ctrl-C there only asks again for the stop under way.

    Inside :meth:`at_once` (the run waiting for its workers, or playing a game whose result
    nothing holds yet: nearly all of its time) a stop raises :class:`KeyboardInterrupt` at
    once; anywhere else it is remembered and raised at the next :meth:`check`, once what is
    in hand is stored. Raised anywhere, it once landed between a transaction's ``BEGIN`` and
    its ``with`` block: the transaction stayed open, and the run, instead of stopping, failed
    with a traceback when it wrote its end (seen about once in twenty stops of the CLI test on
    a loaded machine); inside the process pool's ``submit`` it can leave the pool's manager
    thread unwoken, and the process hangs at exit.
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.waiting = False
        self.requested = False
        self._previous: dict[int, Any] = {}

    def install(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                self._previous[sig] = signal.getsignal(sig)
                signal.signal(sig, self.handle)
        return self

    def restore(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous.clear()

    def __enter__(self) -> StopSignals:
        return self.install()

    def __exit__(self, *exc: object) -> None:
        self.restore()

    def handle(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True
        if self.waiting:
            raise KeyboardInterrupt

    def check(self) -> None:
        if self.requested:
            raise KeyboardInterrupt

    @contextmanager
    def at_once(self) -> Iterator[None]:
        """A stretch where a stop may cut in at once (a stop that came just before it is not
        lost: it is raised on entering)."""
        self.waiting = True
        try:
            self.check()
            yield
        finally:
            self.waiting = False


class DaskCluster:
    """A connection to a Dask cluster for long runs: the scheduler at ``address``, or
    ``local`` for a ``distributed.LocalCluster`` of ``workers`` single-threaded processes
    started here (and stopped by :meth:`close`).

    The games a cluster plays are the same as a local pool's: the work sent is a plain
    function of plain values (a game's index, seeds, strategy and bot key), so where it runs
    decides nothing. Dask's ``distributed`` comes with the ``cluster`` extra.
    """

    def __init__(self, address: str, workers: int, *, processes: bool = True) -> None:
        try:
            # Untyped: held as Any.
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise MissingExtraError(DASK_HINT) from None
        self.distributed = distributed
        self._cluster: Any = None
        if address == "local":
            import logging

            self._cluster = distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=processes,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            self.client: Any = distributed.Client(self._cluster)
            self.name = "dask local"
        else:
            try:
                self.client = distributed.Client(address, timeout=30)
            except (OSError, ValueError) as exc:  # unreachable; a malformed address
                raise DeathAngelError(
                    f"cannot reach the Dask scheduler {address!r}: {exc}"
                ) from None
            self.name = f"dask {address}"
        self.workers = max(1, sum(self.client.nthreads().values()))
        """The threads the cluster's workers run, all told: how much work to keep sent."""

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


DASK_HINT = "--dask needs Dask's distributed package: pip install 'deathangel[cluster]'"


def check_dask(dask: str | None) -> None:
    """Refuse ``--dask`` now, before any file is made, if the extra is not installed."""
    if dask is not None and importlib.util.find_spec("distributed") is None:
        raise MissingExtraError(DASK_HINT)
