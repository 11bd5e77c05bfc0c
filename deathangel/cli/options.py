"""The options several commands share: ``--bot-key`` and ``--isolate`` (where bots are
seated), ``--workers`` and ``--dask`` (where games are played on a tournament's backends),
``--json`` and ``--markdown`` of the commands that print a report, ``--alpha`` and ``--beta``
of the commands that run an SPRT."""

from __future__ import annotations

from typing import Annotated

import typer

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
