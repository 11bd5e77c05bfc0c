"""``deathangel cards report RESULTS.db``: what each team, action card, Event, location and
terrain card did in a tournament's games, from the facts stored with them.

A thin command over :mod:`deathangel.tournament.cardreport` (and
:mod:`deathangel.tournament.plots` for ``--plots``, which needs the ``plots`` extra).
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deathangel.cli.options import MarkdownOption, ReportJsonOption
from deathangel.cli.output import output_folder, print_report, write_files
from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from rich.console import Console

    from deathangel.tournament.cardreport import CardReport


class CardKind(StrEnum):
    """The kinds of card ``--kind`` can choose."""

    team = "team"
    action = "action"
    event = "event"
    location = "location"
    terrain = "terrain"


def print_tables(report: CardReport, console: Console, kinds: list[str]) -> None:
    """The report as rich tables."""
    from rich.table import Table

    from deathangel.tournament.cardreport import (
        CAUTION,
        DEATH_HEADERS,
        PLACE_HEADERS,
        SURVIVAL_ROUNDS,
        card_cells,
        card_headers,
        death_rows,
        headline,
        place_cells,
        survival_headers,
        survival_rows,
    )

    def table(title: str, headers: tuple[str, ...], rows: list[list[str]]) -> None:
        shown = Table(title=title, title_justify="left")
        for h in headers:
            text = h in ("card", "team", "event", "location", "terrain", "cause", "")
            shown.add_column(h, justify="left" if text or "interval" in h else "right")
        for row in rows:
            shown.add_row(*row, style=_style(row[-1]) if headers[-1] == "" else None)
        console.print(shown)

    console.print(headline(report), soft_wrap=True)
    titles = {
        "team": "Teams",
        "action": "Action cards",
        "event": "Events",
        "location": "Locations dealt into the location deck",
        "terrain": "Terrain (activatable)",
    }
    for kind in kinds:
        lines = [line for line in report.lines if line.kind == kind]
        if lines:
            table(titles[kind], card_headers(kind), [card_cells(line) for line in lines])
    if "location" in kinds and report.places:
        table("Locations reached", PLACE_HEADERS, [place_cells(p) for p in report.places])
    if report.deaths:
        table(
            "Deaths by location and cause (the ten most common)",
            DEATH_HEADERS,
            death_rows(report, 10),
        )
    headers = survival_headers(report)[: SURVIVAL_ROUNDS + 1]
    rows = [row[: SURVIVAL_ROUNDS + 1] for row in survival_rows(report)]
    table("Marines standing at the start of each round (share)", headers, rows)
    console.print(CAUTION, style="bold", soft_wrap=True)
    if report.unlisted:
        console.print(report.unlisted, style="dim", soft_wrap=True)


def _style(flag: str) -> str | None:
    return {"higher": "green", "lower": "red"}.get(flag)


def cards_report_cli(
    db: Annotated[Path, typer.Argument(help="A results database (deathangel tournament).")],
    entry: Annotated[
        str | None,
        typer.Option("--entry", "-e", help="The entry to read (needed when there are several)."),
    ] = None,
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players", "-p", help="Player counts to read: 2, 1-6 or 1,3,5 (default all)."
        ),
    ] = None,
    kind: Annotated[
        list[CardKind] | None,
        typer.Option("--kind", "-k", help="Kinds of card to show (repeatable; default all)."),
    ] = None,
    markdown: MarkdownOption = False,
    as_json: ReportJsonOption = False,
    csv_dir: Annotated[
        Path | None,
        typer.Option(
            "--csv",
            metavar="DIR",
            help="Write cards.csv, locations.csv, deaths.csv and survival.csv into DIR.",
        ),
    ] = None,
    plots: Annotated[
        Path | None,
        typer.Option(
            "--plots",
            metavar="DIR",
            help="Write forest.png (each card's effect on the win rate) and survival.png "
            "into DIR. Needs deathangel\\[plots].",
        ),
    ] = None,
) -> None:
    """What each card did in a tournament's games: associations, not causes.

    For every team, action card, Event, location and terrain card: how often it appears or
    is chosen, and the win rate when it does and when it does not (95% intervals); deaths by
    location and cause; marines standing by round and location.
    """
    import sqlite3

    from deathangel.cli.options import parse_players
    from deathangel.tournament.cardreport import (
        KINDS,
        read_card_report,
        to_json,
        write_csv,
    )
    from deathangel.tournament.cardreport import (
        markdown as to_markdown,
    )
    from deathangel.tournament.results import Results, ResultsError

    if markdown and as_json:
        raise DeathAngelError("choose one of --markdown and --json")
    if plots is not None:
        from deathangel.tournament.plots import pyplot, write_card_plots

        pyplot()  # a missing extra is named before anything is read or made
    kinds = [k for k in KINDS if not kind or k in kind]
    counts = parse_players(players) if players else None
    with Results.open(db) as results:
        results.check_health()
        for option, folder in (("--csv", csv_dir), ("--plots", plots)):
            if folder is not None:
                output_folder(option, folder)
        try:
            report = read_card_report(results, entry=entry, players=counts)
        except sqlite3.DatabaseError as exc:
            raise ResultsError(f"{db}: cannot be read: {exc}") from None
    written: list[Path] = []
    if csv_dir is not None:
        written += write_files("--csv", csv_dir, lambda: write_csv(report, csv_dir))
    if plots is not None:
        written += write_files("--plots", plots, lambda: write_card_plots(report, plots))
    print_report(
        as_json=as_json,
        markdown=markdown,
        json_text=lambda: to_json(report),
        markdown_text=lambda: to_markdown(report, kinds),
        tables=lambda console: print_tables(report, console, kinds),
        width=180,
        written=written,
    )
