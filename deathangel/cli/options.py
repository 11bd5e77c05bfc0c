"""The options the commands that seat bots share: ``--bot-key`` and ``--isolate``."""

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
