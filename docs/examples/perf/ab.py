"""An older engine against this one, as whole processes run in turn: paired CPU-time ratios.

    git worktree add --detach /tmp/before b398759
    python docs/examples/perf/ab.py /tmp/before                 # every kind of work.py
    python docs/examples/perf/ab.py /tmp/before mcts1 40 --pairs 9

Each pair runs ``work.py KIND N`` once with the older checkout on ``PYTHONPATH`` and once with
this one (in alternating order, so a machine that slows down part-way charges both sides), and
takes the ratio new / old of the two processes' CPU time (user + system, from the operating
system's accounting of the finished child). The median ratio over the pairs, with the lowest and
highest, is what holds on a machine that other programs share: both sides of a pair ran under
the same load, and CPU time is not charged for the time slices other programs took.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[3]
WORK = Path(__file__).resolve().with_name("work.py")
KINDS = [
    ("games", 800),
    ("games4", 500),
    ("games6", 300),
    ("clone", 6000),
    ("determinize", 20000),
    ("mcts1", 40),  # one-round rollouts: the default of engines before issue 20
]


def cpu_seconds(path: Path, kind: str, n: int) -> float:
    """CPU seconds of one ``work.py`` process with ``path`` first on ``PYTHONPATH``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(path)}
    subprocess.run(
        [sys.executable, str(WORK), kind, str(n)], env=env, check=True, stdout=subprocess.DEVNULL
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="a checkout of the older engine")
    parser.add_argument("kind", nargs="?", help="one kind of work.py (default: all)")
    parser.add_argument("n", nargs="?", type=int, help="its amount of work")
    parser.add_argument("--pairs", type=int, default=7)
    args = parser.parse_intermixed_args()
    kinds = [(args.kind, args.n or dict(KINDS)[args.kind])] if args.kind else KINDS
    for kind, n in kinds:
        ratios = []
        # One unmeasured run of each side first: it writes the bytecode caches a fresh checkout
        # lacks, which would otherwise be charged to the first pair.
        cpu_seconds(args.before, kind, 1)
        cpu_seconds(HERE, kind, 1)
        for k in range(args.pairs):
            if k % 2 == 0:
                old = cpu_seconds(args.before, kind, n)
                new = cpu_seconds(HERE, kind, n)
            else:
                new = cpu_seconds(HERE, kind, n)
                old = cpu_seconds(args.before, kind, n)
            ratios.append(new / old)
        print(
            f"{kind} {n}: new / old CPU median {statistics.median(ratios):.3f} "
            f"({min(ratios):.2f}-{max(ratios):.2f}) over {len(ratios)} pairs"
        )


if __name__ == "__main__":
    main()
