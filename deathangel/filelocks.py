"""One process at a time on a file: an operating-system lock on ``FILE.lock`` beside it.

A tournament holds its results database's lock while it runs, a game its save's while it is
played: two processes writing one file would each write over the other's work. The kernel lets
go of the lock when its process ends, however it ends (``kill -9``, a closed terminal), so a lock
left by a killed process never blocks the next one. The locking itself is ``filelock``'s
(``fcntl`` on Unix, ``msvcrt`` on Windows).
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

__all__ = ["Timeout", "beside", "held_elsewhere", "take"]

_OPTIONS: dict[str, Any] = {
    name: value
    for name, value in (("fallback_to_soft", False), ("preserve_lock_file", True))
    if name in inspect.signature(FileLock.__init__).parameters
}
"""No soft fallback: a lock that is only a file's existence would outlive a killed process and
block every later one. The lock file kept at release: a process waiting on a deleted file
and one that made it anew could each hold a lock of their own. Older filelock releases (3.x,
which environments with ``virtualenv`` or ``pre-commit`` keep, as those cap filelock below
4) have neither option, and do both already on Unix."""


def beside(path: str | Path) -> Path:
    """The lock file of ``path``: ``path`` with ``.lock`` added, in the same folder."""
    path = Path(path)
    return path.with_name(path.name + ".lock")


def take(path: str | Path, *, wait: float) -> FileLock | None:
    """Take the lock of ``path``, waiting up to ``wait`` seconds for another process to let go;
    the held lock (``release()`` it), or ``None`` where no lock can be taken at all: a file
    system without locks, a lock file this user may not open, or a folder that does not
    exist (not made here; writing the file itself says what is wrong).

    :raises Timeout: when another process still holds it after ``wait`` seconds.
    """
    lock_file = beside(path)
    if not lock_file.parent.is_dir():
        return None
    lock = FileLock(lock_file, timeout=wait, **_OPTIONS)
    try:
        lock.acquire()
    except Timeout:
        raise
    except (NotImplementedError, OSError):
        return None
    return lock


def held_elsewhere(path: str | Path) -> bool | None:
    """Whether another process holds the lock of ``path`` now; ``None`` when that cannot be
    told (no lock file, or none can be taken). Takes the lock for an instant if it is free;
    never makes a lock file."""
    if not beside(path).is_file():
        return None
    try:
        lock = take(path, wait=0)
    except Timeout:
        return True
    if lock is None:
        return None
    lock.release()
    return False
