"""Worker processes for long runs (tournaments, stored positions): started fresh, with
Ctrl-C left to the parent, and gone when the parent is.

``spawn``, not ``fork``: no state of the parent (open databases, plugin managers, threads)
leaks into a worker. Each worker ignores Ctrl-C, which the parent handles by stopping them
all, and watches its parent: a worker whose parent was killed (``kill -9``) exits instead of
playing on for nobody or waiting forever for work.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import signal
import threading
import time


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
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()
    for process in workers:
        process.join(timeout=5)
