"""``deathangel tune``: tune a strategy's parameters with an Optuna study on paired seeds.

A thin command over :mod:`deathangel.tournament.tune`: read the search space, run (or resume)
the study stored in SQLite with a progress bar, print every trial with its interval, write the
winner as a strategy file, and confirm it against the incumbent on held-out seeds.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from deathangel.analysis.workers import StopSignals
from deathangel.cli.options import AlphaOption, BetaOption, DaskOption, WorkersOption
from deathangel.cli.output import EXIT_INTERRUPTED
from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from deathangel.tournament.stats import SprtDesign
    from deathangel.tournament.tune import SearchSpace, StudySummary


def tune_cli(
    space_file: Annotated[
        Path, typer.Argument(help="The search space (TOML): strategy, ranges, seed ranges.")
    ],
    study: Annotated[
        Path | None,
        typer.Option("--study", help="The study's SQLite file (default: SPACE with .study.db)."),
    ] = None,
    trials: Annotated[int, typer.Option("--trials", "-t", help="Trials to finish in all.")] = 30,
    games: Annotated[
        int, typer.Option("--games", "-n", help="Most games a trial plays per player count.")
    ] = 200,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="The winner's strategy file (default: SPACE.tuned.toml)."),
    ] = None,
    finalists: Annotated[
        int,
        typer.Option(
            "--finalists",
            help="Best trials played again on fresh tuning seeds to choose the winner; 0: none.",
        ),
    ] = 3,
    confirm_games: Annotated[
        int,
        typer.Option(
            "--confirm-games", help="Held-out games of the winner against the incumbent; 0: none."
        ),
    ] = 300,
    confirm_sprt: Annotated[
        tuple[float, float] | None,
        typer.Option(
            "--confirm-sprt",
            metavar="P0 P1",
            help="Confirm by a sequential test (SPRT) on the discordant pairs: the share the "
            "tuned strategy wins is P0 (no better) or P1 (better); stops once decided, "
            "--confirm-games is its cap.",
        ),
    ] = None,
    confirm_db: Annotated[
        Path | None,
        typer.Option(
            "--confirm-db",
            help="The confirmation's results database (default: OUT with .confirm.db).",
        ),
    ] = None,
    alpha: AlphaOption = 0.05,
    beta: BetaOption = 0.05,
    workers: WorkersOption = None,
    dask: DaskOption = None,
    seed: Annotated[
        int | None, typer.Option("--sampler-seed", help="Seed of the sampler (default: fresh).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Tune a strategy's parameters: an Optuna study whose trials play paired seeds.

    Resumes the study in --study (even after kill -9), then writes the best trial as a
    strategy file and plays it against the incumbent on the held-out seeds. Stop it any time
    (Ctrl-C, SIGTERM, even kill -9); the same command goes on.
    """
    from deathangel.tournament.runner import make_backend
    from deathangel.tournament.stats import SprtDesign
    from deathangel.tournament.tune import (
        read_space,
        reevaluate,
        run_study,
        write_strategy_file,
    )

    space = read_space(space_file)
    # Checked before the study runs: a bad test design must not cost hours of trials first.
    sprt = None if confirm_sprt is None else SprtDesign(*confirm_sprt, alpha=alpha, beta=beta)
    if sprt is not None and sprt.p1 <= sprt.p0:
        raise DeathAngelError(
            f"--confirm-sprt tests that the tuned strategy is better: P1 must be above P0 "
            f"(got {sprt.p0:g} {sprt.p1:g})"
        )
    study_path = study if study is not None else space_file.with_suffix(".study.db")
    out_path = out if out is not None else space_file.with_suffix(".tuned.toml")
    backend = make_backend(workers, dask)
    # Ctrl-C and SIGTERM (a batch system's "time is up") stop the study while it awaits
    # games, never inside a write to the study file (a connection cut there could hold its
    # lock while the line below reads the study), also when it runs as a background job;
    # what is stored stays, and the same command goes on.
    stage = "study"
    with StopSignals() as stop:
        try:
            with _bar(quiet) as progress:
                summary = run_study(
                    space,
                    study_path,
                    trials=trials,
                    games=games,
                    backend=backend,
                    progress=progress,
                    sampler_seed=seed,
                    stop=stop,
                )
            if not quiet:
                for line in trial_lines(summary, space):
                    typer.echo(line)
            if summary.best_spec is None:
                raise DeathAngelError("no trial finished all its games: nothing to write")
            spec = summary.best_spec
            if finalists > 0:
                stage = "re-evaluation"
                ranked = reevaluate(
                    space, study_path, finalists=finalists, games=games, trial_games=games,
                    backend=backend, stop=stop,
                )  # fmt: skip
                spec = ranked[0].spec
                if not quiet:
                    typer.echo(
                        f"the best {len(ranked)} trial(s) again on {games} fresh tuning seeds "
                        f"({space.seeds[0] + games}..{space.seeds[0] + 2 * games - 1}):"
                    )
                    for f in ranked:
                        typer.echo(
                            f"  #{f.trial.number:<3} {f.value:.4f} [{f.low:.4f}, {f.high:.4f}] "
                            f"(on its own games {f.trial.value:.4f})"
                        )
                    typer.echo(f"winner: trial {ranked[0].trial.number}")
            note = (
                f"Tuned by deathangel tune from {space.path.name} ({len(summary.trials)} trials, "
                f"{space.objective} on seeds from {space.seeds[0]}).\n{spec}"
            )
            write_strategy_file(out_path, spec, note)
            if not quiet:
                typer.echo(f"winner written to {out_path} (load it with --seat N=bot:{out_path})")
            if confirm_games > 0:
                db = confirm_db if confirm_db is not None else out_path.with_suffix(".confirm.db")
                stage = f"held-out confirmation (its games so far are kept in {db})"
                stop.check()  # a stop since the study's end; the tournament then takes them over
                _confirm(space, out_path, db, confirm_games, sprt, backend, quiet)
        except KeyboardInterrupt:
            backend.close()
            if stage == "study":
                from deathangel.tournament.tune import finished_trials

                stage = f"study: {finished_trials(space, study_path)} of {trials} trials finished"
                stage += f" in {study_path}"
            typer.echo(f"Interrupted in the {stage}; the same command goes on.", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        finally:
            backend.close()


def trial_lines(summary: StudySummary, space: SearchSpace) -> list[str]:
    """Each finished trial with its interval, best first; then the winner."""
    what = "win rate" if space.objective == "wins" else "mean locations"
    lines = [f"{len(summary.trials)} trial(s); {what} on tuning seeds {space.seeds[0]}..:"]
    ranked = sorted(summary.trials, key=lambda t: (t.state != "complete", -t.value))
    for t in ranked:
        params = ", ".join(f"{k}={_short(v)}" for k, v in t.params)
        # A trial cut off before its first rung finished (kill -9, a crash) has no figures.
        figures = f"{t.value:.4f} [{t.low:.4f}, {t.high:.4f}]" if t.games else "no games finished"
        lines.append(f"  #{t.number:<3} {t.state:<8} {t.games:>5} games  {figures}  {params}")
    if summary.best is not None:
        lines.append(f"best: trial {summary.best.number} ({summary.best_spec})")
    return lines


def _short(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _confirm(
    space: SearchSpace,
    tuned: Path,
    db: Path,
    games: int,
    sprt: SprtDesign | None,
    backend: Any,
    quiet: bool,
) -> None:
    from deathangel.tournament.results import OtherTournamentError
    from deathangel.tournament.tune import confirm, judge

    try:
        report = confirm(space, tuned, db, games=games, sprt=sprt, backend=backend)
    except OtherTournamentError as exc:
        # Its games are kept: another confirmation (another --confirm-games, an SPRT, another
        # winner) goes to a database of its own.
        raise DeathAngelError(
            f"{db} holds another confirmation ({', '.join(exc.differ)} differ); give the same "
            "options to resume it, or --confirm-db NEW.db for this one"
        ) from None
    if quiet:
        return
    typer.echo(
        f"held-out confirmation on seeds {space.confirm[0]}.. ({db}; deathangel report {db}):"
    )
    for entry in report.entries:
        lo, hi = entry.interval
        typer.echo(
            f"  {entry.cell.label:<4} {entry.entry:<10} {entry.wins}/{entry.games} won "
            f"({entry.win_rate:.1%}, {lo:.1%}-{hi:.1%}), mean locations {entry.mean_locations:.2f}"
        )
    for line in judge(report).lines:
        typer.echo(line)


class _bar:
    """A rich progress bar on standard error when it is a terminal; else a plain line each time
    the study moves on (a study that runs for hours into a log file shows where it is)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self._progress: Any = None

    def __enter__(self) -> Any:
        if self.quiet:
            return None
        if not sys.stderr.isatty():
            return _plain_lines()
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self._progress = Progress(
            TextColumn("tuning"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.description}"),
            console=Console(stderr=True),
            transient=True,
        )
        self._progress.__enter__()
        task = self._progress.add_task("", total=None)

        def update(done: int, total: int, what: str) -> None:
            self._progress.update(task, completed=done, total=total, description=what)

        return update

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(None, None, None)


def _plain_lines() -> Any:
    """A progress callback that prints ``HH:MM:SS trials DONE/WANTED: WHAT`` on standard error
    whenever it changes (a rung begins, a trial ends, the sampler chooses), flushed at once."""
    last: list[tuple[int, str]] = []

    def update(done: int, total: int, what: str) -> None:
        if last and last[0] == (done, what):
            return
        last[:] = [(done, what)]
        stamp = time.strftime("%H:%M:%S")
        print(f"{stamp} trials {done}/{total}: {what}", file=sys.stderr, flush=True)

    return update
