"""The ``deathangel`` command: one Typer app, one module per command group."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="deathangel",
    help="Space Hulk: Death Angel — play, simulate and study the co-op card game.",
    no_args_is_help=True,
    add_completion=False,
)


def main() -> None:
    """Console-script entry point."""
    app()
