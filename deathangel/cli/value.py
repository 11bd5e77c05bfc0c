"""``deathangel value``: fit a value model on played games, and check one on games it never saw.

A thin command over :mod:`deathangel.analysis.valuefit`: play the games (a progress bar on a
terminal), fit, and print how well each value predicts who wins — the base rate, the
hand-made progress value and the model — by log-loss, Brier score and calibration.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from deathangel.cli.options import BotKeyOption, DaskOption, WorkersOption, parse_players
from deathangel.cli.output import EXIT_INTERRUPTED
from deathangel.cli.pace import progress_reporter
from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from deathangel.analysis.positions import GamePositions
    from deathangel.analysis.valuefit import Positions, Scores

value_app = typer.Typer(
    help="Fit and check value models: the chance the marines win from a position.",
    no_args_is_help=True,
)

Games = Annotated[int, typer.Option("--games", "-n", help="Games to play for the fit.")]
JudgeGames = Annotated[int, typer.Option("--games", "-n", help="Games to play to judge it on.")]
Players = Annotated[
    str, typer.Option("--players", "-p", help="Seats: 1, or 1-6 or 1,3 to cycle counts.")
]
StrategyName = Annotated[str, typer.Option("--strategy", help="Who plays the games.")]


@value_app.command("fit")
def fit_cli(
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the model (JSON).")],
    games: Games = 20000,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Seed of the first training game.")
    ] = 300000,
    holdout: Annotated[int, typer.Option("--holdout", help="Games to judge the fit on.")] = 5000,
    holdout_seed: Annotated[
        int, typer.Option("--holdout-seed", help="Seed of the first held-out game.")
    ] = 400000,
    players: Players = "1",
    strategy: StrategyName = "rules",
    hidden: Annotated[
        str, typer.Option("--hidden", help="Hidden layer widths, e.g. 16 or 32,16; 0: logistic.")
    ] = "16",
    epochs: Annotated[int, typer.Option("--epochs", help="Passes over the positions.")] = 60,
    start: Annotated[
        str | None,
        typer.Option(
            "--start",
            help="Begin from this model (a file or a shipped name: its features and layers; "
            "--hidden is then its own) and keep it where the games cannot improve on it.",
        ),
    ] = None,
    learning_rate: Annotated[
        float, typer.Option("--learning-rate", help="Adam's step size (smaller to fine-tune).")
    ] = 0.01,
    positions: Annotated[
        Path | None,
        typer.Option(
            "--positions",
            help="Fit on the games stored by 'value play' instead of playing "
            "(--games, --seed, --players, --strategy then come from the file).",
        ),
    ] = None,
    holdout_positions: Annotated[
        Path | None,
        typer.Option("--holdout-positions", help="Judge on games stored by 'value play'."),
    ] = None,
    exclude: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude",
            metavar="PATTERN",
            help="Leave out the features whose names match, e.g. 'marine *' (repeatable): "
            "to measure what they add.",
        ),
    ] = None,
    folds: Annotated[
        int,
        typer.Option(
            "--folds",
            help="1: choose the best epoch on a tenth of the games; K: choose how many epochs "
            "by K-fold cross-validation, then fit all the games (for a few hundred games).",
        ),
    ] = 1,
    td_lambda: Annotated[
        float,
        typer.Option(
            "--td-lambda",
            help="1: fit each round start to its game's outcome; below 1: to a blend of the "
            "outcome and the --start model's values of the game's later round starts (less "
            "noise from few games; 0: the next one's value alone).",
        ),
    ] = 1.0,
) -> None:
    """Play games, fit a value model to their round starts, and judge it on other games."""
    from deathangel.analysis.valuefit import check_exclude, fit, lambda_targets, play_positions
    from deathangel.players.search.model import ValueModel

    _check_out(out)
    widths = _widths(hidden)
    if not 0 < learning_rate < math.inf:  # NaN too: it would fit a model of NaN weights
        raise DeathAngelError(f"--learning-rate must be above 0 (finite), not {learning_rate}")
    if folds < 1:
        raise DeathAngelError(f"--folds must be 1 or more, not {folds}")
    if epochs < 1:  # none would write the untrained start (random weights) as a fitted model
        raise DeathAngelError(f"--epochs must be at least 1, not {epochs}")
    if not 0.0 <= td_lambda <= 1.0:  # NaN too
        raise DeathAngelError(f"--td-lambda must be from 0 to 1, not {td_lambda}")
    if td_lambda < 1.0 and start is None:
        raise DeathAngelError(
            "--td-lambda below 1 blends in a model's values of later positions: give it --start"
        )
    begun = ValueModel.load(start) if start is not None else None
    counts = parse_players(players)
    if positions is not None:
        read_train, (seed, games, strategy, players) = _stored(positions)
    if holdout_positions is not None:
        read_test, (holdout_seed, holdout, _, _) = _stored(holdout_positions)
    if not (holdout_seed >= seed + games or holdout_seed + holdout <= seed):
        raise DeathAngelError("the held-out games' seeds overlap the training games' seeds")
    if positions is None:
        train = _play(play_positions, games, seed, counts, strategy, "training games")
    else:
        train = read_train()
    # A pattern that leaves nothing out is said now, not after the held-out games.
    check_exclude(train, exclude or (), begun)
    if holdout_positions is None:
        test = _play(play_positions, holdout, holdout_seed, counts, strategy, "held-out games")
    else:
        test = read_test()
    about = (
        f"fitted on the round starts of {games} games of {strategy!r} for {players} player(s) "
        f"(seeds {seed}..{seed + games - 1}), "
        + (
            f"starting from {start}"
            if begun is not None
            else f"hidden layers {list(widths) or 'none'}"
        )
        + (f", leaving out {', '.join(exclude)}" if exclude else "")
        + (f", to λ-returns of λ {td_lambda:g}" if td_lambda < 1.0 else "")
    )
    targets = None
    if td_lambda < 1.0:
        assert begun is not None
        targets = lambda_targets(train, begun.chance, td_lambda)
    model = fit(
        train,
        hidden=widths,
        epochs=epochs,
        learning_rate=learning_rate,
        about=about,
        start=begun,
        exclude=exclude or (),
        folds=folds,
        targets=targets,
    )
    try:
        model.save(out)
    except OSError as exc:
        raise DeathAngelError(f"{out}: cannot write the model: {exc.strerror or exc}") from None
    if folds > 1:
        typer.echo(f"model: {model.about}")  # what the folds chose, with their losses
    for line in comparison(test, model.chance, holdout_seed, holdout):
        typer.echo(line)
    typer.echo(f"model written to {out} (use it with --strategy mcts:value={out})")


@value_app.command("check")
def check_cli(
    model: Annotated[str, typer.Argument(help="A value model: a JSON file or a shipped name.")],
    games: JudgeGames = 2000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game.")] = 500000,
    players: Players = "1",
    strategy: StrategyName = "rules",
    positions: Annotated[
        Path | None,
        typer.Option("--positions", help="Judge on games stored by 'value play' instead."),
    ] = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            help="Another model (a file or a shipped name): the two's log-loss difference on "
            "the same round starts, with a 95% interval over the games.",
        ),
    ] = None,
) -> None:
    """Judge a value model on games: how well it predicts who wins, beside the hand-made one."""
    from deathangel.analysis.valuefit import paired_log_loss, play_positions
    from deathangel.players.search.model import ValueModel

    loaded = ValueModel.load(model)
    other = ValueModel.load(against) if against is not None else None
    if positions is not None:
        read, (seed, games, _, _) = _stored(positions)
        test = read()
    else:
        test = _play(play_positions, games, seed, parse_players(players), strategy, "games")
    for line in comparison(test, loaded.chance, seed, games):
        typer.echo(line)
    if other is not None:
        mine = [loaded.chance(r) for r in test.rows]
        theirs = [other.chance(r) for r in test.rows]
        paired = paired_log_loss(mine, theirs, test)
        typer.echo(
            f"  {model} less {against}: log-loss {paired.difference:+.4f} a round start "
            f"(95% interval {paired.low:+.4f} to {paired.high:+.4f}, {paired.games} games)"
        )


@value_app.command("play")
def play_cli(
    db: Annotated[Path, typer.Option("--db", help="The positions file (SQLite) to fill.")],
    games: Annotated[int, typer.Option("--games", "-n", help="Games in all.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game.")] = 340000,
    players: Players = "1",
    strategy: StrategyName = "mcts",
    workers: WorkersOption = None,
    dask: DaskOption = None,
    bot_key: BotKeyOption = None,
) -> None:
    """Play games and store their round starts, game by game, for 'value fit --positions'.

    Stop it any time (Ctrl-C, even kill -9); the same command goes on, a larger -n extends.
    """
    from deathangel.analysis.positions import PositionsConfig, PositionStore, play_into
    from deathangel.analysis.workers import DaskCluster, check_dask
    from deathangel.players.seeds import check_bot_key, new_bot_key
    from deathangel.plugins.strategies import parse_spec

    if games < 1:
        raise DeathAngelError(f"--games must be at least 1, not {games}")
    if workers is not None and workers < 0:
        raise DeathAngelError(f"--workers must be 0 or more, not {workers}")
    parse_spec(strategy)
    check_dask(dask)
    cores = len(os.sched_getaffinity(0)) if workers is None else workers
    counts = tuple(parse_players(players))
    if bot_key is not None:
        key = check_bot_key(bot_key)
    elif db.exists():
        with PositionStore.open(db) as old:
            key = old.config.bot_key  # going on: the file's own bots
    else:
        key = new_bot_key()
    config = PositionsConfig(strategy, counts, seed, games, key)
    # The cluster first: an unreachable scheduler is one line before any file is made.
    cluster = DaskCluster(dask, max(1, cores)) if dask is not None else None
    where = cluster.name if cluster is not None else f"{max(1, cores)} process(es)"
    try:
        with PositionStore.open(db, config) as store, progress_reporter(False) as show:
            progress = _paced(show)
            try:
                played = play_into(store, cores, progress, games, dask=cluster)
            except KeyboardInterrupt:
                stored = len([i for i in store.done() if i < games])
                typer.echo(
                    f"Interrupted: {stored} of {games} stored in {db}; the same command goes on.",
                    err=True,
                )
                raise typer.Exit(EXIT_INTERRUPTED) from None
            stored = len([i for i in store.done() if i < games])
    finally:
        if cluster is not None:
            cluster.close()
    typer.echo(
        f"{played} game(s) played now ({where}), {stored} of {games} stored in {db} "
        f"(bot key {key}). "
        f"Fit with: deathangel value fit --positions {db}"
    )


@value_app.command("export")
def export_cli(
    db: Annotated[Path, typer.Argument(help="A positions file (deathangel value play).")],
    out: Annotated[
        Path,
        typer.Argument(help="The archive to write (JSON; gzipped if the name ends in .gz)."),
    ],
) -> None:
    """Write a positions file's games as a small archive: its settings and each game's
    decisions, from which 'value import' stores the same positions again."""
    from deathangel.analysis.positions import PositionStore, write_archive

    _check_out(out, "the archive")
    with PositionStore.open(db) as store:
        try:
            written = write_archive(store, out)
        except OSError as exc:
            raise DeathAngelError(
                f"{out}: cannot write the archive: {exc.strerror or exc}"
            ) from None
    typer.echo(f"{written} game(s) of {db} written to {out} ({out.stat().st_size:,} bytes)")


@value_app.command("import")
def import_cli(
    archive: Annotated[Path, typer.Argument(help="An archive written by 'value export'.")],
    db: Annotated[Path, typer.Option("--db", help="The positions file to store them in.")],
) -> None:
    """Store an archive's games in a positions file (made if it does not exist), each played
    again from its decisions; games the file holds already are kept as they are."""
    from deathangel.analysis.positions import restore

    with progress_reporter(False) as show:
        config, added = restore(archive, db, _paced(show))
    typer.echo(
        f"{added} game(s) stored in {db} from {archive} (strategy {config.strategy!r}, seeds "
        f"from {config.seed}, bot key {config.bot_key}); go on with: deathangel value play "
        f"--db {db} --strategy '{config.strategy}' -p {','.join(map(str, config.players))} "
        f"-s {config.seed} -n {config.games}"
    )


def _stored(path: Path) -> tuple[Callable[[], Positions], tuple[int, int, str, str]]:
    """A positions file's games, to read (``read()``: as positions), with (seed, games,
    strategy, players) at once: the settings are checked before the games are read."""
    from deathangel.analysis.positions import PositionStore
    from deathangel.analysis.valuefit import positions_of

    with PositionStore.open(path) as store:
        c = store.config
        played = store.games()
    if not played:
        raise DeathAngelError(f"{path}: no games stored yet (deathangel value play --db {path})")
    # The games from the first seed to the last one stored (a stopped run on workers may have
    # left a gap: said, and the stored ones used).
    span = played[-1].index + 1
    if len(played) < span:
        typer.echo(f"{path}: {len(played)} of the first {span} games stored; using those", err=True)
    players = ",".join(str(p) for p in c.players)

    def read() -> Positions:
        return positions_of(_read_again(path, played, c.seed), c.seed)

    return read, (c.seed, span, c.strategy, players)


def _read_again(path: Path, played: list[GamePositions], seed: int) -> list[GamePositions]:
    """Stored games played again from their decisions, to read them with this version's
    features (the engine alone: some milliseconds a game, a minute for twenty thousand); a
    format-1 file's as they are."""
    from deathangel.analysis.positions import replayed

    if played[0].decisions is None:
        return played
    typer.echo(f"reading {len(played)} games of {path} (played again)", err=True)
    again: list[GamePositions] = []
    with progress_reporter(False) as show:
        progress = _paced(show)
        try:
            for g in played:
                again.append(replayed(g, seed))
                progress(len(again), len(played))
        except DeathAngelError as exc:
            raise DeathAngelError(f"{path}: {exc}") from None
    return again


def comparison(test: Positions, chance: Any, seed: int, games: int) -> list[str]:
    """The three values' scores on ``test``, and the model's calibration."""
    from deathangel.analysis.valuefit import score

    rate = sum(test.won) / len(test.won)
    rows = [
        ("base rate", score([rate] * len(test.won), test.won)),
        ("hand-made progress value", score(test.baseline, test.won)),
        ("model", score([chance(r) for r in test.rows], test.won)),
    ]
    lines = [
        f"{len(test.rows)} round starts of {games} games (seeds {seed}..{seed + games - 1}), "
        f"{rate:.1%} of them in games won:"
    ]
    lines += [f"  {name:<26} log-loss {s.log_loss:.4f}  Brier {s.brier:.4f}" for name, s in rows]
    lines.append("  model calibration (by tenth of predicted chance): predicted / won")
    lines += [f"    {p:6.1%} / {w:6.1%}  ({n} positions)" for p, w, n in _calibration(rows[-1][1])]
    return lines


def _calibration(s: Scores) -> list[tuple[float, float, int]]:
    return list(s.calibration)


def _check_out(out: Path, what: str = "--out") -> None:
    """Refuse, before a fit's minutes of work, a ``--out`` the model could not be written to."""
    if out.is_dir():
        raise DeathAngelError(f"{out}: is a folder; name a file for {what}")
    if not out.parent.is_dir():
        raise DeathAngelError(f"{out}: the folder {out.parent} does not exist")


def _widths(text: str) -> tuple[int, ...]:
    try:
        widths = tuple(int(w) for w in text.split(",") if w.strip())
    except ValueError:
        raise DeathAngelError(f"--hidden takes widths such as 16 or 32,16, not {text!r}") from None
    if widths == (0,):
        return ()
    if any(w < 1 for w in widths):
        raise DeathAngelError(f"--hidden widths must be at least 1, not {text!r}")
    return widths


def _play(
    play: Any, games: int, seed: int, players: list[int], strategy: str, what: str
) -> Positions:
    if games < 1:
        raise DeathAngelError(f"--games must be at least 1, not {games}")
    typer.echo(f"playing {games} {what}", err=True)
    with progress_reporter(False) as show:
        return play(  # type: ignore[no-any-return]
            games, seed, players=players, strategy=strategy, progress=_paced(show)
        )


def _paced(show: Callable[[int, int, float], None]) -> Callable[[int, int], None]:
    """``show(done, total, rate)`` fed from ``progress(done, total)``: the rate is this run's
    own pace, the games it played over the time since its first report (a resumed run's
    earlier games are not counted as played fast)."""
    started = time.monotonic()
    first: list[int] = []

    def progress(done: int, total: int) -> None:
        if not first:
            first.append(done)
        played = done - first[0]
        show(done, total, played / max(1e-9, time.monotonic() - started) if played else 0.0)

    return progress
