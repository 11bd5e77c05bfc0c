"""``deathangel report RESULTS.db``: the statistics of a tournament, as tables, Markdown, JSON,
CSV files and plots.

A thin command over :mod:`deathangel.tournament.report` (and :mod:`deathangel.tournament.plots`
for ``--plots``, which needs the ``plots`` extra).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deathangel.cli.options import MarkdownOption, ReportJsonOption
from deathangel.cli.output import output_folder, print_report, write_files
from deathangel.cli.pace import rate_text
from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from rich.console import Console

    from deathangel.tournament.report import Report
    from deathangel.tournament.results import Results


def print_tables(report: Report, console: Console) -> None:
    """The report as rich tables."""
    from rich.table import Table

    from deathangel.tournament.report import (
        ENTRY_HEADERS,
        PAIR_HEADERS,
        describe_sprt,
        entry_cells,
        error_text,
        headline,
        pair_cells,
    )

    console.print(headline(report), soft_wrap=True)
    table = Table(title="Win rates (95% Wilson interval)", title_justify="left")
    for h in ENTRY_HEADERS:
        table.add_column(h, justify="left" if h in ("cell", "entry", "95% interval") else "right")
    previous = None
    for line in report.entries:
        if previous is not None and line.cell != previous:
            table.add_section()
        previous = line.cell
        table.add_row(*entry_cells(line))
    console.print(table)
    if report.pairs:
        pairs = Table(
            title="Paired comparisons on the same seeds (B − A; Newcombe interval; McNemar "
            "exact p)",
            title_justify="left",
        )
        for h in PAIR_HEADERS:
            pairs.add_column(
                h, justify="left" if h in ("cell", "A", "B", "95% interval") else "right"
            )
        for pair in report.pairs:
            pairs.add_row(*pair_cells(pair))
        console.print(pairs)
    if report.sprt is not None and report.config.sprt is not None:
        a, b = (e.name for e in report.config.entries)
        cap = report.config.games * len(report.config.cells)
        console.print(describe_sprt(report.config.sprt, report.sprt, a, b, cap))
    if report.against:
        console.print(report.against, soft_wrap=True)
    for text in error_text(report):
        console.print(text, soft_wrap=True, markup=False, highlight=False)
    for run in report.runs:
        rate = run["games"] / run["seconds"] if run["seconds"] else 0.0
        status = run_status(run["status"])
        console.print(
            f"run {run['started']}: {run['games']} games in {run['seconds']:.1f} s "
            f"({rate_text(rate)}, {run['workers']} worker(s), {run['backend']}; {status})",
            style="dim",
            soft_wrap=True,
        )


def run_status(status: str) -> str:
    """A run's status as the report says it (:func:`~deathangel.tournament.report.live_statuses`
    worked out which runs marked ``running`` were killed)."""
    return "killed (no end recorded)" if status == "killed" else status


def with_pairs_against(report: Report, results: Results, against: Path) -> Report:
    """``report`` with the pairs of ``--against``'s entries (A) and this database's (B)."""
    from attrs import evolve

    from deathangel.tournament.report import pairs_against
    from deathangel.tournament.results import Results

    if against.exists() and results.path.exists() and against.samefile(results.path):
        raise DeathAngelError(
            f"--against {against}: is the database being reported; pair it with another"
        )
    with Results.open(against) as other:
        other.check_health()
        lines, words = pairs_against(results, other)
    return evolve(report, pairs=report.pairs + lines, against=words)


def report_cli(
    db: Annotated[Path, typer.Argument(help="A results database (deathangel tournament).")],
    markdown: MarkdownOption = False,
    as_json: ReportJsonOption = False,
    csv_dir: Annotated[
        Path | None,
        typer.Option(
            "--csv",
            metavar="DIR",
            help="Write entries.csv, pairs.csv and games.csv (every game) into DIR.",
        ),
    ] = None,
    plots: Annotated[
        Path | None,
        typer.Option(
            "--plots",
            metavar="DIR",
            help="Write PNG plots into DIR (win rates, locations reached, causes of defeat). "
            "Needs deathangel\\[plots].",
        ),
    ] = None,
    against: Annotated[
        Path | None,
        typer.Option(
            "--against",
            metavar="OTHER.db",
            help="Also pair every entry of OTHER.db with every entry of DB on the games both "
            "played (the same player count, teams and game seed): a challenger played later "
            "on a finished run's seeds, compared without playing that run again.",
        ),
    ] = None,
) -> None:
    """Win rates with 95% Wilson intervals per cell and entry, paired differences with
    McNemar's exact test for every two entries, the SPRT's verdict; plots and exports."""
    import sqlite3

    from deathangel.tournament.report import markdown as to_markdown
    from deathangel.tournament.report import read_report, to_json, write_csv
    from deathangel.tournament.results import Results, ResultsError

    if markdown and as_json:
        raise DeathAngelError("choose one of --markdown and --json")
    if plots is not None:
        from deathangel.tournament.plots import pyplot, write_plots

        pyplot()  # a missing extra is named before anything is read or made
    with Results.open(db) as results:
        # A report is read from every row: a file SQLite finds damaged could give wrong
        # figures without an error. The quick check costs about one more scan (measured:
        # 0.9 s on a 1,000,000-game file whose report takes 4 s).
        results.check_health()
        for option, folder in (("--csv", csv_dir), ("--plots", plots)):
            if folder is not None:
                output_folder(option, folder)
        try:
            report = read_report(results)
            if against is not None:
                report = with_pairs_against(report, results, against)
            written = write_csv(report, results, csv_dir) if csv_dir is not None else []
        except sqlite3.DatabaseError as exc:  # e.g. locked by another program's transaction
            raise ResultsError(f"{db}: cannot be read: {exc}") from None
        except OSError as exc:
            raise DeathAngelError(f"--csv {csv_dir}: cannot write: {exc.strerror or exc}") from None
    if plots is not None:
        written += write_files("--plots", plots, lambda: write_plots(report, plots))
    print_report(
        as_json=as_json,
        markdown=markdown,
        json_text=lambda: to_json(report),
        markdown_text=lambda: to_markdown(report),
        tables=lambda console: print_tables(report, console),
        width=150,
        written=written,
    )
