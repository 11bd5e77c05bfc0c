"""Where the time goes: a benchmark group's work under :mod:`cProfile`.

Any group of :data:`deathangel.analysis.bench.GROUPS` can be profiled (``deathangel bench
--profile games_1p``: random solo games; ``determinize``; ``search``; ``clones``...): the
functions that spend the most time themselves, each with its share of the profiled time,
and those with the most time including what they call. Profiling slows Python code about
twofold, and unevenly (each call pays the profiler's cost): read the shares, not the
seconds, and prefer a sampling profiler (py-spy, pyinstrument) for small functions.
"""

from __future__ import annotations

import cProfile
import pstats
import re
import time
from pathlib import Path
from typing import Any

from attrs import frozen

from deathangel.analysis.bench import GROUPS, Budget


@frozen
class ProfileRow:
    """One function of a profile."""

    function: str
    """``file:line(name)``, the file relative to the package or the standard library."""
    calls: int
    own_s: float
    """Time in the function itself."""
    cumulative_s: float
    """Time in the function and everything it called."""


@frozen
class Profile:
    """A profile of one group's work."""

    group: str
    seconds: float
    """Wall time of the profiled run, profiler included."""
    total_s: float
    """Profiled time: the sum of every function's own time."""
    by_own: tuple[ProfileRow, ...]
    by_cumulative: tuple[ProfileRow, ...]

    def share(self, row: ProfileRow) -> float:
        """The row's own time as a part of the whole (0-1)."""
        return row.own_s / self.total_s if self.total_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        def rows(rs: tuple[ProfileRow, ...]) -> list[dict[str, Any]]:
            return [
                {
                    "function": r.function,
                    "calls": r.calls,
                    "own_s": round(r.own_s, 4),
                    "cumulative_s": round(r.cumulative_s, 4),
                    "share": round(self.share(r), 4),
                }
                for r in rs
            ]

        return {
            "group": self.group,
            "seconds": round(self.seconds, 3),
            "total_s": round(self.total_s, 4),
            "by_own": rows(self.by_own),
            "by_cumulative": rows(self.by_cumulative),
        }


def where(filename: str, line: int, name: str) -> str:
    """A profile entry's place, the same in every run and on every machine."""
    if filename == "~":  # a built-in; drop the object address that makes runs differ
        return re.sub(r" at 0x[0-9a-f]+", "", name)
    path = Path(filename)
    parts = path.parts
    for anchor in ("deathangel", "site-packages"):
        if anchor in parts:
            i = len(parts) - 1 - parts[::-1].index(anchor)
            rest = parts[i:] if anchor == "deathangel" else parts[i + 1 :]
            return f"{'/'.join(rest)}:{line}({name})"
    return f"{path.name}:{line}({name})"


def profile(group: str, budget: Budget | None = None, *, top: int = 15) -> Profile:
    """Run one repeat of ``group`` under :mod:`cProfile` (after a warm-up outside it): the
    ``top`` functions by own time and by cumulative time.

    :raises ValueError: for an unknown group.
    """
    if group not in GROUPS:
        raise ValueError(f"no figure group {group!r}; groups are {', '.join(GROUPS)}")
    measure = GROUPS[group].measure
    budget = budget if budget is not None else Budget(seconds=1.0)
    measure(Budget(units=1))
    # CPU time, not cProfile's default wall clock: on a shared machine the wall clock charges
    # another program's time slices to whatever function was running when this one was
    # preempted (measured: the group's own time.process_time calls, system calls where
    # preemption lands, showed as 20-30% of a profile with two other programs on two
    # cores). The CPU clock costs more per call, so the profiled run is slower.
    profiler = cProfile.Profile(time.process_time)
    start = time.perf_counter()
    profiler.enable()
    measure(budget)
    profiler.disable()
    elapsed = time.perf_counter() - start
    stats = pstats.Stats(profiler)
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = stats.stats  # type: ignore[attr-defined]
    rows = [
        ProfileRow(where(*key), nc, tt, ct)
        for key, (_cc, nc, tt, ct, _callers) in raw.items()
        if key[2] != "<method 'disable' of '_lsprof.Profiler' objects>"
    ]
    by_own = sorted(rows, key=lambda r: (-r.own_s, r.function))[:top]
    by_cum = sorted(rows, key=lambda r: (-r.cumulative_s, r.function))[:top]
    return Profile(group, elapsed, sum(r.own_s for r in rows), tuple(by_own), tuple(by_cum))


def format_profile(p: Profile) -> list[str]:
    """The profile as text: by own time with shares, then by cumulative time."""
    lines = [
        f"profile of the {p.group!r} group ({p.seconds:.2f} s with profiling on)",
        f"top {len(p.by_own)} functions by own time:",
        f"  {'share':>6}  {'calls':>9}  {'own s':>7}  function",
    ]
    for r in p.by_own:
        lines.append(f"  {100 * p.share(r):5.1f}%  {r.calls:>9}  {r.own_s:>7.3f}  {r.function}")
    lines.append(f"top {len(p.by_cumulative)} functions by cumulative time:")
    lines.append(f"  {'calls':>9}  {'cum s':>7}  function")
    for r in p.by_cumulative:
        lines.append(f"  {r.calls:>9}  {r.cumulative_s:>7.3f}  {r.function}")
    return lines
