"""``deathangel tournament [CONFIG.toml]``: play entries against the same seeds, store every
game in SQLite, resume after any stop.

A thin command over :func:`deathangel.tournament.runner.run_tournament`. The tournament comes
from a TOML file (see :mod:`deathangel.tournament.tournament`), from flags for a quick run, or
from both (a flag replaces the file's value). A progress bar on a terminal, a line every ten
seconds otherwise (a log), nothing with ``--quiet``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from attrs import evolve

from deathangel.cli.expansions import VariantOption, WithOption
from deathangel.cli.options import (
    AlphaOption,
    BetaOption,
    BotKeyOption,
    DaskOption,
    IsolateOption,
    WorkersOption,
    parse_players,
)
from deathangel.cli.output import EXIT_INTERRUPTED
from deathangel.cli.pace import progress_reporter, rate_text

if TYPE_CHECKING:
    from deathangel.tournament.runner import RunSummary
    from deathangel.tournament.tournament import TournamentConfig


def tournament_data(
    config_file: Path | None,
    *,
    entries: list[str] | None,
    players: list[str] | None,
    teams: list[str] | None,
    games: int | None,
    seed: int | None,
    sprt: tuple[float, float] | None,
    alpha: float,
    beta: float,
    plugins: list[str] | None,
    with_: list[str] | None = None,
    variants: list[str] | None = None,
    bot_key: str | None = None,
    facts: bool | None = None,
) -> tuple[dict[str, Any], Path | None]:
    """The file's tables with the flags laid over them, and the folder specs are read from."""
    from deathangel.tournament.tournament import read_config_file

    data: dict[str, Any] = {}
    base = None
    if config_file is not None:
        data = read_config_file(config_file)
        base = config_file.parent
    if entries:
        data["entry"] = [
            {"name": text.strip(), "seats": [s.strip() for s in text.split("|")]}
            if "|" in text
            else {"name": text.strip(), "strategy": text.strip()}
            for text in entries
        ]
    if players:
        data["players"] = parse_players(players)
    if teams:
        data["teams"] = teams
    if games is not None:
        data["games"] = games
    if seed is not None:
        data["seed"] = seed
    if sprt is not None:
        data["sprt"] = {"p0": sprt[0], "p1": sprt[1], "alpha": alpha, "beta": beta}
    if plugins:
        data["plugins"] = [*data.get("plugins", []), *plugins]
    if with_:
        data["with"] = list(dict.fromkeys([*data.get("with", []), *with_]))
    if variants:
        data["variants"] = list(dict.fromkeys([*data.get("variants", []), *variants]))
    if bot_key is not None:
        data["bot_key"] = bot_key
    if facts is not None:
        data["facts"] = facts
    return data, base


def tournament_cli(
    config_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="CONFIG.toml",
            help="A tournament file (docs/tournaments.md); flags replace its values.",
        ),
    ] = None,
    entry: Annotated[
        list[str] | None,
        typer.Option(
            "--entry",
            "-e",
            help="An entry: a strategy spec at every seat, or specs per seat joined by '|' "
            "('rules|random'). Repeat for each entry.",
        ),
    ] = None,
    players: Annotated[
        list[str] | None,
        typer.Option("--players", "-p", help="Player counts: 2, 1-6 or 1,3,5 (default 1)."),
    ] = None,
    teams: Annotated[
        list[str] | None,
        typer.Option(
            "--teams",
            help="'random' (default) or fixed teams 'red+blue/green+yellow' (seats split by "
            "'/'); repeatable.",
        ),
    ] = None,
    games: Annotated[
        int | None, typer.Option("--games", "-n", help="Games per cell and entry (default 100).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="Game k of every cell has seed SEED + k.")
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option("--db", help="Results database (default: CONFIG with .db, or tournament.db)."),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option("--resume", help="Go on with the tournament already in --db (or start it)."),
    ] = False,
    workers: WorkersOption = None,
    dask: DaskOption = None,
    batch: Annotated[
        int | None,
        typer.Option(
            "--batch",
            help="Game indices per task sent to a worker (default: about half a second of "
            "games a task, from their pace so far; 20 with --sprt).",
        ),
    ] = None,
    sprt: Annotated[
        tuple[float, float] | None,
        typer.Option(
            "--sprt",
            metavar="P0 P1",
            help="Sequential test of two entries: stop once the share of discordant pairs "
            "the second entry wins is decided to be P0 or P1 (--games is the hard cap).",
        ),
    ] = None,
    alpha: AlphaOption = 0.05,
    beta: BetaOption = 0.05,
    plugin: Annotated[
        list[str] | None,
        typer.Option(
            "--plugin", help="A module to register as a plugin (e.g. strategies not installed)."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
    with_: WithOption = None,
    variant: VariantOption = None,
    isolate: IsolateOption = False,
    bot_key: BotKeyOption = None,
    facts: Annotated[
        bool | None,
        typer.Option(
            "--facts/--no-facts",
            help="Store each game's facts (cards chosen, Events, locations, deaths...) for "
            "'deathangel cards report' (default: stored).",
        ),
    ] = None,
) -> None:
    """Play a tournament: every entry on the same seeds in every cell, each game stored.

    Stop it any time (Ctrl-C, even kill -9); --resume goes on without losing a game.

    Then: deathangel report RESULTS.db
    """
    from deathangel.tournament.runner import run_tournament
    from deathangel.tournament.tournament import build_config

    data, base = tournament_data(
        config_file,
        entries=entry,
        players=players,
        teams=teams,
        games=games,
        seed=seed,
        sprt=sprt,
        alpha=alpha,
        beta=beta,
        plugins=plugin,
        with_=with_,
        variants=variant,
        bot_key=bot_key,
        facts=facts,
    )
    where = str(config_file) if config_file is not None else "tournament"
    config = evolve(build_config(data, base=base, where=where), isolate=isolate)
    if db is None:
        db = config_file.with_suffix(".db") if config_file is not None else Path("tournament.db")
    show = progress_reporter(quiet)
    with show as progress:
        summary = run_tournament(
            config,
            db,
            resume=resume,
            workers=workers,
            dask=dask,
            batch=batch,
            progress=progress,
        )
    if not quiet:
        for line in summary_lines(summary, config, db):
            typer.echo(line)
    if summary.status == "interrupted":
        if quiet:
            typer.echo(f"interrupted; go on with --resume (--db {db})", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)


def summary_lines(summary: RunSummary, config: TournamentConfig, db: Path) -> list[str]:
    """What the command prints when the run stops."""
    if summary.status == "nothing to do":
        lines = [f"{db}: all {summary.done} games are stored; nothing to do."]
    else:
        rate = rate_text(summary.per_second)
        lines = [
            f"{summary.played} game(s) played in {summary.seconds:.1f} s ({rate} on "
            f"{summary.workers} worker(s), {summary.backend}); "
            f"{summary.done}/{summary.total} stored in {db}."
        ]
    if summary.replayed:
        lines.append(
            f"A worker process died: {summary.replayed} batch(es) it held were played again."
        )
    if summary.failures:
        lines.append(
            f"{summary.failures} game(s) raised an error: 'deathangel report {db}' lists the "
            "errors, with a seed of each (tracebacks in the database's failures table)."
        )
    if summary.sprt is not None:
        lines.append(sprt_line(summary, config))
    if summary.status == "interrupted":
        lines.append(f"Interrupted: go on with the same command and --resume (--db {db}).")
    elif summary.status != "nothing to do" or summary.done:
        lines.append(f"Report: deathangel report {db}")
    return lines


def sprt_line(summary: RunSummary, config: TournamentConfig) -> str:
    from deathangel.tournament.report import describe_sprt

    assert summary.sprt is not None and config.sprt is not None
    a, b = (e.name for e in config.entries)
    return describe_sprt(config.sprt, summary.sprt, a, b, config.games * len(config.cells))
