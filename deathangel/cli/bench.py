"""``deathangel bench``: how fast the engine plays on this machine (one process, one core).

A thin command over :mod:`deathangel.analysis.bench`: random-bot games per second for 1–6 players,
Game.clone() per second at round starts and mid-round, whether every game ended, and whether
the target of 200 solo games per second is met; the learning environment's steps per second
(:mod:`deathangel.learning.bench`). ``--profile`` adds what limits the speed.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from deathangel.analysis.bench import CloneRate, DeterminizeRate, GamesRate


def _games_line(rate: GamesRate) -> str:
    ended = "all ended" if rate.ended == rate.games else f"ONLY {rate.ended} ENDED"
    return (
        f"  {rate.players} player{'s' if rate.players > 1 else ' '}: {rate.per_s:8.1f} games/s"
        f"  ({rate.games} games in {rate.seconds:.2f} s, {ended}, {rate.wins} won)"
    )


def _clone_lines(start: CloneRate, mid: CloneRate, mismatches: int) -> list[str]:
    check = (
        "every clone stood at its original's decision"
        if mismatches == 0
        else f"{mismatches} CLONE(S) DID NOT MATCH THEIR ORIGINAL"
    )
    return [
        "Game.clone() during random-bot games of 1–6 players:",
        f"  at round start: {start.per_s:9.1f} clones/s  ({start.clones} clones)",
        f"  mid-round:      {mid.per_s:9.1f} clones/s  ({mid.clones} clones)",
        f"  check: {check}",
    ]


def _determinize_lines(rate: DeterminizeRate) -> list[str]:
    from deathangel.analysis.bench import TARGET_DETERMINIZATIONS_PER_S

    check = (
        "every determinized game showed the seat what it had observed"
        if rate.mismatches == 0
        else f"{rate.mismatches} DETERMINIZED GAME(S) DID NOT MATCH THEIR OBSERVATION"
    )
    verdict = "met" if rate.target_met else "NOT met"
    return [
        "determinize(observation) for the deciding seat, random-bot games of 1–6 players:",
        f"  {rate.per_s:9.1f} determinizations/s  ({rate.determinizations} over "
        f"{rate.positions} positions)",
        f"  check: {check}",
        f"  target (at least {TARGET_DETERMINIZATIONS_PER_S:.0f}/s on one core): {verdict}",
    ]


def bench_cli(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the figures as one JSON object.")
    ] = False,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            help="Play exactly this many games per measurement instead of a time budget.",
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option(
            "--seconds",
            help="Time budget per player count (clones get twice it); default 1.5.",
        ),
    ] = None,
    profile: Annotated[
        bool,
        typer.Option(
            "--profile", help="Also profile solo games: top 15 functions by cumulative time."
        ),
    ] = False,
    strategy: Annotated[
        str | None,
        typer.Option(
            "--strategy",
            help="Instead, time each decision of this strategy (spec) over whole games "
            "(--games, default 3): median, 90th percentile, max.",
        ),
    ] = None,
    players: Annotated[
        int, typer.Option("--players", "-p", help="Seats, with --strategy (1–6).")
    ] = 1,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="First game's seed, with --strategy.")
    ] = 0,
) -> None:
    """Measure random-bot games per second (1–6 players), Game.clone() and determinize()
    per second, and the Gymnasium environment's steps per second.

    One process, fixed seeds, about 17 s by default; says whether 200 solo games/s, 10,000
    determinizations/s and 20,000 solo environment steps/s are met. With --strategy, time
    that strategy's decisions instead.
    """
    if games is not None and games < 1:
        raise DeathAngelError(f"--games must be at least 1, not {games}")
    if seconds is not None and not seconds > 0:
        raise DeathAngelError(f"--seconds must be positive, not {seconds}")
    if strategy is not None:
        _decision_times(strategy, players, 3 if games is None else games, seed, as_json)
        return
    # Imported here so that other commands do not pay for cProfile and the engine at start-up.
    from deathangel.analysis.bench import (
        DEFAULT_SECONDS,
        TARGET_SOLO_GAMES_PER_S,
        format_profile,
        machine_info,
        profile_solo,
        python_label,
        run_bench,
    )

    if as_json:
        report = run_bench(games=games, seconds=seconds)
        data = report.to_dict()
        if profile:
            data["profile"] = profile_solo(games=games, seconds=seconds).to_dict()
        typer.echo(json.dumps(data, sort_keys=True))
        _fail_unless_clean(report.all_ended, report.clone_mismatches, report.determinize.mismatches)
        return

    info = machine_info()
    typer.echo(
        f"deathangel bench: {python_label()} on {info['machine']} ({info['platform']}), "
        f"{info['cpu_count']} CPU(s); one process, one core, fixed seeds"
    )
    budget = (
        f"{games} game(s) per measurement"
        if games is not None
        else f"{seconds if seconds is not None else DEFAULT_SECONDS} s per player count"
    )
    typer.echo(f"random-bot games per second ({budget}):")

    def show_games(rate: GamesRate) -> None:
        typer.echo(_games_line(rate))

    def show_clones(start: CloneRate, mid: CloneRate, mismatches: int) -> None:
        for line in _clone_lines(start, mid, mismatches):
            typer.echo(line)

    def show_determinize(rate: DeterminizeRate) -> None:
        for line in _determinize_lines(rate):
            typer.echo(line)

    def show_env(figures: dict[str, Any]) -> None:
        from deathangel.learning.bench import env_lines

        for line in env_lines(figures):
            typer.echo(line)

    report = run_bench(
        games=games,
        seconds=seconds,
        on_games=show_games,
        on_clones=show_clones,
        on_determinize=show_determinize,
        on_env=show_env,
    )
    solo = report.solo.per_s
    verdict = "met" if report.target_met else "NOT met"
    typer.echo(
        f"target (at least {TARGET_SOLO_GAMES_PER_S:.0f} solo games/s on one core): {verdict} "
        f"({solo:.1f} games/s)"
    )
    if profile:
        typer.echo("")
        for line in format_profile(profile_solo(games=games, seconds=seconds)):
            typer.echo(line)
    else:
        typer.echo("run with --profile to see what limits the speed")
    _fail_unless_clean(report.all_ended, report.clone_mismatches, report.determinize.mismatches)


def _decision_times(strategy: str, players: int, games: int, seed: int, as_json: bool) -> None:
    """``bench --strategy``: how long the strategy thinks per decision."""
    if not 1 <= players <= 6:
        raise DeathAngelError(f"--players must be 1-6, not {players}")
    from deathangel.analysis.bench import bench_decisions, machine_info, python_label

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


def _fail_unless_clean(all_ended: bool, mismatches: int, determinize_mismatches: int) -> None:
    problems = []
    if not all_ended:
        problems.append("some games did not end")
    if mismatches:
        problems.append(f"{mismatches} clone(s) did not match their original")
    if determinize_mismatches:
        problems.append(f"{determinize_mismatches} determinization(s) did not match")
    if problems:
        raise DeathAngelError("bench found engine problems: " + "; ".join(problems))
