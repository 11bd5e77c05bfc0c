"""``deathangel balance``: what an expansion or a house rule does to the win rate, on paired
seeds, at each player count.

``deathangel balance --with NAME [--variant V]`` plays the base game and the game with them
(two tournaments of one strategy, same seeds, same bot key) into ``--out`` (``base.db`` and
``with.db``), then compares them; ``deathangel balance BASE.db OTHER.db`` compares two
tournaments already played. A thin command over :mod:`deathangel.tournament.balance`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deathangel.cli.expansions import VariantOption, WithOption
from deathangel.cli.options import BotKeyOption, MarkdownOption, ReportJsonOption
from deathangel.cli.output import EXIT_INTERRUPTED, print_report, write_files
from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from rich.console import Console

    from deathangel.tournament.balance import Balance
    from deathangel.tournament.runner import Progress


def print_table(balance: Balance, console: Console) -> None:
    from rich.table import Table

    from deathangel.tournament.balance import HEADERS, cells, headline

    console.print(headline(balance), soft_wrap=True)
    table = Table()
    for h in HEADERS:
        table.add_column(h, justify="left" if h in ("players", "", "95% interval") else "right")
    for line in balance.lines:
        if line.players == 0:
            table.add_section()
        style = {"higher": "green", "lower": "red"}.get(line.flag or "")
        table.add_row(*cells(line), style=style)
    console.print(table)
    console.print(f"bot key: {balance.bot_key} (the same games again: --bot-key)", style="dim")


def balance_cli(
    databases: Annotated[
        list[Path] | None,
        typer.Argument(
            metavar="BASE.db OTHER.db",
            help="Compare two tournaments already played (same seed and bot key) instead.",
        ),
    ] = None,
    with_: WithOption = None,
    variant: VariantOption = None,
    base_with: Annotated[
        list[str] | None,
        typer.Option(
            "--base-with",
            help="Expansions the base games are played with too (to study a variant of one).",
        ),
    ] = None,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            "-s",
            help="The strategy at every seat (default: rules, the strongest fast bot).",
        ),
    ] = "rules",
    players: Annotated[
        list[str] | None,
        typer.Option("--players", "-p", help="Player counts: 2, 1-6 or 1,3,5 (default 1-6)."),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games per player count, on each side.")
    ] = 500,
    seed: Annotated[int, typer.Option("--seed", help="Game k has seed SEED + k.")] = 0,
    bot_key: BotKeyOption = None,
    out: Annotated[
        Path, typer.Option("--out", help="Folder for base.db and with.db (made if missing).")
    ] = Path("balance"),
    resume: Annotated[
        bool, typer.Option("--resume", help="Go on with the run already in --out.")
    ] = False,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", "-w", help="Worker processes (default: every core; 0: this process)."
        ),
    ] = None,
    entry: Annotated[
        str | None,
        typer.Option("--entry", "-e", help="With two databases: the entry to compare."),
    ] = None,
    markdown: MarkdownOption = False,
    as_json: ReportJsonOption = False,
    plots: Annotated[
        Path | None,
        typer.Option(
            "--plots",
            metavar="DIR",
            help="Write balance.png into DIR. Needs deathangel\\[plots].",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress.")] = False,
) -> None:
    """Does an expansion or variant make the game easier or harder, and by how much?

    Plays the base game and the game with --with/--variant on the same seeds with the same
    bots, then compares them at each player count: win rates, the paired difference with
    Newcombe's interval and McNemar's p, locations reached.

    Then: deathangel cards report OUT/with.db
    """
    from deathangel.cli.options import parse_players
    from deathangel.cli.output import output_folder
    from deathangel.cli.pace import progress_reporter
    from deathangel.tournament.balance import (
        BASE_DB,
        OTHER_DB,
        balance_configs,
        compare_files,
        run_balance,
        stored_bot_key,
        to_json,
    )
    from deathangel.tournament.balance import (
        markdown as to_markdown,
    )

    if markdown and as_json:
        raise DeathAngelError("choose one of --markdown and --json")
    if plots is not None:
        from deathangel.tournament.plots import pyplot

        pyplot()  # a missing extra is named before any game is played
        output_folder("--plots", plots)
    if databases:
        if len(databases) != 2:
            raise DeathAngelError("give two results databases (BASE.db OTHER.db), or none")
        if with_ or variant or base_with:
            raise DeathAngelError(
                "two databases are compared as they are: --with, --variant and --base-with "
                "make a new run instead"
            )
        balance = compare_files(databases[0], databases[1], entry=entry)
    else:
        from deathangel.players.seeds import new_bot_key

        key = bot_key or (stored_bot_key(out) if resume else None) or new_bot_key()
        base, other = balance_configs(
            with_=with_ or [],
            variants=variant or [],
            base_with=base_with or [],
            strategy=strategy,
            players=parse_players(players) if players else (1, 2, 3, 4, 5, 6),
            games=games,
            seed=seed,
            bot_key=key,
        )

        with progress_reporter(quiet) as bar:

            def progress(name: str) -> Progress | None:
                if not quiet:
                    typer.echo(f"playing {out / name}", err=True)
                return bar  # type: ignore[no-any-return]

            try:
                run_balance(base, other, out, resume=resume, workers=workers, progress=progress)
            except KeyboardInterrupt:
                typer.echo(
                    f"interrupted; the games so far are kept in {out}: the same command with "
                    "--resume goes on",
                    err=True,
                )
                raise typer.Exit(EXIT_INTERRUPTED) from None
        balance = compare_files(out / BASE_DB, out / OTHER_DB)
    written: list[Path] = []
    if plots is not None:
        from deathangel.tournament.plots import write_balance_plot

        written += write_files("--plots", plots, lambda: write_balance_plot(balance, plots))
    print_report(
        as_json=as_json,
        markdown=markdown,
        json_text=lambda: to_json(balance),
        markdown_text=lambda: to_markdown(balance),
        tables=lambda console: print_table(balance, console),
        width=200,
        written=written,
    )
