"""The options several commands share: ``--bot-key`` and ``--isolate`` (where bots are
seated), ``--workers`` and ``--dask`` (where games are played on a tournament's backends),
``--json`` and ``--markdown`` of the commands that print a report, ``--alpha`` and ``--beta``
of the commands that run an SPRT; and the one reading of ``--players`` counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer

from deathangel.errors import DeathAngelError

BotKeyOption = Annotated[
    str | None,
    typer.Option(
        "--bot-key",
        help="The run's secret that seeds its bots (32 hex digits, as a run prints it): "
        "the same bots again. Default: a fresh one.",
    ),
]
IsolateOption = Annotated[
    bool,
    typer.Option(
        "--isolate",
        help="Run each bot in a process of its own that receives only its seat's view and "
        "the decision, as data (for bots you do not trust).",
    ),
]
WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers", "-w", help="Worker processes (default: every core; 0: this process)."
    ),
]
DaskOption = Annotated[
    str | None,
    typer.Option(
        "--dask",
        metavar="ADDRESS",
        help="Play on a Dask cluster (scheduler address, or 'local' for a LocalCluster "
        "of --workers processes). Needs deathangel\\[cluster].",
    ),
]
ReportJsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
MarkdownOption = Annotated[
    bool, typer.Option("--markdown", help="Print Markdown tables (for docs).")
]
AlphaOption = Annotated[
    float, typer.Option("--alpha", help="SPRT: chance of deciding P1 when P0 holds.")
]
BetaOption = Annotated[
    float, typer.Option("--beta", help="SPRT: chance of deciding P0 when P1 holds.")
]


def parse_players(values: str | Sequence[str]) -> list[int]:
    """Player counts as every command writes them: a count (``2``), a range from low to high
    (``1-6``) or a list (``1,3,5``), each option repeatable; every count from 1 to 6.

    :raises DeathAngelError: naming the value, for anything else (``3-1``, ``0``, ``x``).
    """
    counts: list[int] = []
    for value in [values] if isinstance(values, str) else values:
        for part in value.split(","):
            low, dash, high = part.strip().partition("-")
            try:
                first, last = int(low), int(high) if dash else int(low)
            except ValueError:
                raise DeathAngelError(
                    f"--players {value!r}: write a count (2), a range (1-6) or a list (1,3,5)"
                ) from None
            if first > last:
                raise DeathAngelError(
                    f"--players {value!r}: a range goes from low to high ({last}-{first})"
                )
            if not dash and not 1 <= first <= 6:
                raise DeathAngelError(f"--players must be between 1 and 6, not {first}")
            if first < 1 or last > 6:
                raise DeathAngelError(f"--players {value!r}: counts must be between 1 and 6")
            counts += range(first, last + 1)
    return counts
