"""``deathangel bench``: how fast the engine plays on this machine (one process, CPU time).

A thin command over :mod:`deathangel.analysis.bench`: every figure (random-bot games per
second for 1–6 players, clones at a round start and mid-round, determinizations, search
rollouts) as the median of repeats with their spread; ``--json`` for tools; ``--compare
FILE`` against a saved ``--json`` run, flagging what became slower; ``--profile GROUP`` for
where one group's time goes; ``--strategy SPEC`` for how long a bot thinks per decision.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from deathangel.analysis.bench import BenchReport, Budget, Change, Figure


def _figure_line(figure: Figure, goal: float | None) -> str:
    spread = f"{figure.low:.0f}–{figure.high:.0f}"
    line = (
        f"  {figure.spec.label:<18} {figure.median:10.1f} {figure.spec.unit:<20}"
        f" ({spread} over {len(figure.samples)} repeats)"
    )
    if goal is not None:
        line += f"  goal {goal:.0f}: " + ("met" if figure.median >= goal else "not met")
    if figure.problems:
        line += f"  {figure.problems} CHECK(S) FAILED"
    return line


def _change_line(change: Change) -> str:
    flag = "  SLOWER" if change.slower else ""
    return (
        f"  {change.name:<28} {change.before:10.1f} -> {change.now:10.1f} {change.unit:<20}"
        f" {change.ratio:6.2f}x{flag}"
    )


def bench_cli(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the figures as one JSON object.")
    ] = False,
    work: Annotated[
        int | None,
        typer.Option(
            "--work",
            help="A fixed amount of work per repeat instead of a time budget: games, "
            "games cloned through, determinizations or rollouts.",
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option("--seconds", help="CPU seconds per repeat of each group; default 0.4."),
    ] = None,
    repeats: Annotated[
        int, typer.Option("--repeats", "-r", help="Repeats of each group (the median is shown).")
    ] = 5,
    only: Annotated[
        list[str] | None,
        typer.Option("--only", help="Measure only this group (repeatable): games_1p..."),
    ] = None,
    compare: Annotated[
        Path | None,
        typer.Option(
            "--compare",
            help="A saved --json run: show each figure beside it and fail when one is "
            "slower by more than --threshold.",
        ),
    ] = None,
    threshold: Annotated[
        float, typer.Option("--threshold", help="With --compare: the slowdown flagged.")
    ] = 0.10,
    profile: Annotated[
        str | None,
        typer.Option(
            "--profile",
            help="Instead, profile one group (games_1p, determinize, search...): the top 15 "
            "functions by own time, with shares, and by cumulative time.",
        ),
    ] = None,
    strategy: Annotated[
        str | None,
        typer.Option(
            "--strategy",
            help="Instead, time each decision of this strategy (spec) over whole games "
            "(--games, default 3): median, 90th percentile, max.",
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games to play, with --strategy.")
    ] = 3,
    players: Annotated[
        int, typer.Option("--players", "-p", help="Seats, with --strategy (1–6).")
    ] = 1,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="First game's seed, with --strategy.")
    ] = 0,
) -> None:
    """Measure every speed figure: random-bot games per second (1–6 players), Game.clone()
    and determinize() per second, search rollouts per second, and the learning
    environment's steps per second (with the rl extra).

    Each group of figures runs --repeats times (default 5) for --seconds of CPU time each
    (default 0.4; about 30 s in all), with fixed seeds; a figure is the median of its
    repeats, with their lowest and highest. CPU time, not the wall clock: figures taken
    while other programs share the cores stay comparable.
    """
    from deathangel.analysis.bench import GROUPS, Budget, saved_figures

    if work is not None and work < 1:
        raise DeathAngelError(f"--work must be at least 1, not {work}")
    if seconds is not None and not seconds > 0:
        raise DeathAngelError(f"--seconds must be positive, not {seconds}")
    if repeats < 1:
        raise DeathAngelError(f"--repeats must be at least 1, not {repeats}")
    if not 0 < threshold < 1:
        raise DeathAngelError(f"--threshold must be between 0 and 1, not {threshold}")
    for name in [*(only or []), *([profile] if profile else [])]:
        if name not in GROUPS:
            raise DeathAngelError(f"no figure group {name!r}; groups are {', '.join(GROUPS)}")
    if strategy is not None:
        _decision_times(strategy, players, games, seed, as_json)
        return
    budget = Budget(work, seconds)
    if profile is not None:
        _profile(profile, budget, as_json)
        return
    saved = None
    if compare is not None:
        try:
            text = compare.read_text(encoding="utf-8")
        except OSError as exc:
            raise DeathAngelError(f"{compare}: cannot read it: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise DeathAngelError(f"{compare}: not a saved bench run (not text)") from None
        try:
            saved = saved_figures(json.loads(text))
        except (json.JSONDecodeError, ValueError) as exc:
            raise DeathAngelError(f"{compare}: {exc}") from None
    report = _run(budget, repeats, only, as_json)
    if as_json:
        data = report.to_dict()
        if saved is not None:
            data["compared_with"] = str(compare)
        typer.echo(json.dumps(data, sort_keys=True))
    slower = _compared(report, saved, threshold, compare, quiet=as_json)
    problems = [f"{f.spec.name}: {f.problems}" for f in report.figures if f.problems]
    if problems:
        raise DeathAngelError("bench found engine problems (failed checks): " + ", ".join(problems))
    if slower:
        raise DeathAngelError(f"slower than {compare}: " + ", ".join(slower))


def _run(budget: Budget, repeats: int, only: list[str] | None, quiet: bool) -> BenchReport:
    from deathangel.analysis.bench import (
        DEFAULT_SECONDS,
        GOALS,
        GROUPS,
        machine_info,
        python_label,
        run_bench,
    )

    if quiet:
        return run_bench(groups=only, repeats=repeats, budget=budget)
    info = machine_info()
    per = (
        f"{budget.units} unit(s) of work"
        if budget.units is not None and budget.seconds is None
        else f"{budget.seconds or DEFAULT_SECONDS} CPU s"
    )
    typer.echo(
        f"deathangel bench: {python_label()} on {info['machine']} ({info['platform']}), "
        f"{info['cpu_count']} CPU(s), {info['compiled']} compiled module(s); one process, "
        f"CPU time, fixed seeds; {repeats} repeat(s) of {per} per group"
    )
    titles: list[str] = []

    def show(figure: Figure) -> None:
        title = GROUPS[figure.group].title
        if not titles or titles[-1] != title:
            titles.append(title)
            typer.echo(title + ":")
        typer.echo(_figure_line(figure, GOALS.get(figure.spec.name)))

    def skip(group: str, why: str) -> None:
        typer.echo(f"{GROUPS[group].title}: skipped, {why}")

    return run_bench(groups=only, repeats=repeats, budget=budget, on_figure=show, on_skip=skip)


def _compared(
    report: BenchReport,
    saved: dict[str, float] | None,
    threshold: float,
    path: Path | None,
    *,
    quiet: bool,
) -> list[str]:
    """Print the comparison (unless ``quiet``); the names of the figures flagged slower."""
    if saved is None:
        return []
    from deathangel.analysis.bench import compare

    changes = compare(report, saved, threshold)
    if not quiet:
        typer.echo(f"against {path} (flagged: more than {threshold:.0%} slower):")
        for change in changes:
            typer.echo(_change_line(change))
        if not changes:
            typer.echo("  no figure in common")
    return [f"{c.name} {c.ratio - 1:+.0%}" for c in changes if c.slower]


def _profile(group: str, budget: Budget, as_json: bool) -> None:
    from deathangel.analysis.profiling import format_profile, profile

    result = profile(group, budget if budget.units or budget.seconds else None)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), sort_keys=True))
        return
    for line in format_profile(result):
        typer.echo(line)


def _decision_times(strategy: str, players: int, games: int, seed: int, as_json: bool) -> None:
    """``bench --strategy``: how long the strategy thinks per decision."""
    if not 1 <= players <= 6:
        raise DeathAngelError(f"--players must be 1-6, not {players}")
    if games < 1:
        raise DeathAngelError(f"--games must be at least 1, not {games}")
    from deathangel.analysis.bench import machine_info, python_label
    from deathangel.analysis.thinking import bench_decisions

    times = bench_decisions(strategy, players=players, games=games, seed=seed)
    data = times.to_dict()
    if as_json:
        typer.echo(json.dumps(data | machine_info(), sort_keys=True))
        return
    info = machine_info()
    typer.echo(
        f"deathangel bench: {python_label()} on {info['machine']}, {info['cpu_count']} CPU(s); "
        "one process"
    )
    typer.echo(
        f"decisions of {strategy!r}: {games} game(s) of {players} player(s), seeds "
        f"{seed}..{seed + games - 1}, {data['wins']} won"
    )
    typer.echo(
        f"  {data['decisions']} decisions: median {data['median_ms']:.1f} ms, "
        f"90th percentile {data['p90_ms']:.1f} ms, max {data['max_ms']:.1f} ms, "
        f"mean {data['mean_ms']:.1f} ms"
    )
