"""Tuning a strategy's parameters: an Optuna study whose trials are games on paired seeds.

A *search space* file (TOML) names the strategy, the parameters to tune with their ranges (a
strategy's own parameters, and for the ``rules`` strategy the ``[let]`` weights of its rule
file), the player counts, what to maximise (the win rate, or the mean locations reached),
and two seed ranges: one the trials are scored on, and one held out for the confirmation::

    strategy = "mcts"                  # the strategy to tune
    fixed = { iterations = 150 }       # parameters held at a value
    players = [1]                      # player counts every trial plays
    objective = "wins"                 # or "locations"
    seeds = [200000, 299999]           # tuning seeds: every trial plays game k on seed start+k
    confirm = [900000, 900999]         # held-out seeds: the winner against the incumbent
    incumbent = "mcts"                 # what the winner must beat (default: strategy + fixed)
    sampler = "tpe"                    # or "cmaes"

    [parameters]
    horizon = { int = [1, 3] }
    margin = { float = [0.0, 0.02] }
    rollout = { choice = ["default", "greedy"] }

    [let]                              # the rules strategy's rule-file weights
    w_token = { float = [0.0, 3.0] }

Why it is run this way:

- **Common random numbers.** Every trial plays game ``k`` on the same seed (and its bots get
  the same seeds, under the study's bot key), so two trials differ by their parameters, not by
  their luck: their difference is measured on pairs, far more precisely than either value.
- **Racing.** A trial plays its games in rungs that double (successive halving's shape); after
  each rung it is compared, pair by pair on the games both played, with the best finished
  trial, and stopped (``pruned``) once it is clearly worse (the paired mean difference plus
  ``RACE_Z`` standard errors below 0). Promising trials play every game; poor ones stop early.
- **Stored, resumable.** The study lives in SQLite (Optuna's storage): stopped anywhere, even by
  ``kill -9``, it resumes with every finished trial kept; a trial that was cut off is played
  again from its parameters. A different search space is refused.
- **Held-out confirmation.** The winner is played against the incumbent in a tournament on the
  confirmation seeds (never used by any trial), with the tournament's paired statistics
  (Newcombe's interval, McNemar's exact test), or as a sequential test (the tournament's SPRT
  on the discordant pairs) that stops as soon as the answer is clear: an mcts confirmation
  costs CPU-hours, and a clear winner or loser needs far fewer pairs than a fixed count sized
  for a close call. Only a confirmed winner is worth shipping.

The games run on the tournament's backends (worker processes or Dask), a task per rung.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import math
import secrets
import sqlite3
import tempfile
import tomllib
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from attrs import frozen

from deathangel.analysis.workers import StopSignals
from deathangel.errors import DeathAngelError, MissingExtraError
from deathangel.players.seeds import new_bot_key
from deathangel.tournament.batch import Task
from deathangel.tournament.runner import Backend, run_tournament
from deathangel.tournament.stats import SprtDesign
from deathangel.tournament.tournament import TournamentConfig, build_config

if TYPE_CHECKING:
    from deathangel.tournament.report import Report

OBJECTIVES = ("wins", "locations")
SAMPLERS = ("tpe", "cmaes")
RACE_Z = 2.0
"""Standard errors a trial's paired deficit against the best must clear to be stopped."""
FIRST_RUNG = 16
"""Games of a trial's first rung (at least): fewer tell two settings apart too rarely."""
STUDY = "deathangel-tune"

Progress = Callable[[int, int, str], None]
"""``progress(trials done, trials wanted, what is happening)``."""


class TuneError(DeathAngelError, ValueError):
    """A search space that cannot be tuned, or a study that cannot go on."""


# -- the search space ----------------------------------------------------------------------------


@frozen
class Dimension:
    """One parameter to tune."""

    name: str
    kind: str
    """``int``, ``float`` or ``choice``."""
    low: float = 0.0
    high: float = 0.0
    choices: tuple[Any, ...] = ()
    log: bool = False
    let: bool = False
    """A ``[let]`` weight of the rule file rather than a parameter of the strategy."""

    def distribution(self) -> Any:
        distributions = _optuna().distributions
        if self.kind == "int":
            return distributions.IntDistribution(int(self.low), int(self.high), log=self.log)
        if self.kind == "float":
            return distributions.FloatDistribution(self.low, self.high, log=self.log)
        return distributions.CategoricalDistribution(self.choices)


@frozen
class SearchSpace:
    """A search space file, read and checked."""

    path: Path
    strategy: str
    fixed: tuple[tuple[str, Any], ...]
    players: tuple[int, ...]
    objective: str
    seeds: tuple[int, int]
    confirm: tuple[int, int]
    incumbent: str
    sampler: str
    expansions: tuple[str, ...]
    variants: tuple[str, ...]
    dimensions: tuple[Dimension, ...]

    @property
    def digest(self) -> str:
        """What makes two studies the same study (the file's content)."""
        return hashlib.sha256(self.path.read_bytes()).hexdigest()

    def distributions(self) -> dict[str, Any]:
        return {d.name: d.distribution() for d in self.dimensions}


_KEYS = {
    "strategy",
    "fixed",
    "players",
    "objective",
    "seeds",
    "confirm",
    "incumbent",
    "sampler",
    "with",
    "variants",
    "parameters",
    "let",
}


def read_space(path: str | Path) -> SearchSpace:
    """Read and check a search space file.

    :raises TuneError: in one line naming the file and the key, for anything wrong.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TuneError(f"{path}: cannot read the search space: {exc.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise TuneError(f"{path}: not a TOML file: {exc}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise TuneError(
            f"{path}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(_KEYS))}"
        )
    strategy = data.get("strategy")
    if not isinstance(strategy, str) or not strategy:
        raise TuneError(f"{path}: 'strategy' must name the strategy to tune")
    fixed = data.get("fixed", {})
    if not isinstance(fixed, dict):
        raise TuneError(f"{path}: 'fixed' must be a table of parameter values")
    players = data.get("players", [1])
    players = [players] if isinstance(players, int) else players
    if (
        not isinstance(players, list)
        or not players
        or not all(isinstance(p, int) and 1 <= p <= 6 for p in players)
    ):
        raise TuneError(f"{path}: 'players' must be player counts from 1 to 6")
    objective = data.get("objective", "wins")
    if objective not in OBJECTIVES:
        raise TuneError(f"{path}: 'objective' is one of {', '.join(OBJECTIVES)}, not {objective!r}")
    sampler = data.get("sampler", "tpe")
    if sampler not in SAMPLERS:
        raise TuneError(f"{path}: 'sampler' is one of {', '.join(SAMPLERS)}, not {sampler!r}")
    seeds = _range(data.get("seeds"), path, "seeds")
    confirm = _range(data.get("confirm"), path, "confirm")
    if seeds[0] <= confirm[1] and confirm[0] <= seeds[1]:
        raise TuneError(
            f"{path}: the confirmation seeds {confirm[0]}-{confirm[1]} overlap the tuning seeds "
            f"{seeds[0]}-{seeds[1]}: a winner must be confirmed on seeds no trial played"
        )
    dims = [_dimension(n, v, path, False) for n, v in _table(data, "parameters", path).items()]
    dims += [_dimension(n, v, path, True) for n, v in _table(data, "let", path).items()]
    if not dims:
        raise TuneError(f"{path}: nothing to tune: add a [parameters] or [let] table")
    if any(d.let for d in dims) and strategy != "rules":
        raise TuneError(f"{path}: [let] weights belong to the 'rules' strategy, not {strategy!r}")
    clash = sorted({d.name for d in dims if not d.let} & set(fixed))
    if clash:
        raise TuneError(f"{path}: {', '.join(clash)} is both fixed and tuned")
    # A file a fixed parameter names (a rule file) is relative to the space file, wherever
    # the command runs.
    fixed = {k: _beside(path, v) for k, v in fixed.items()}
    _check_lets(path, [d.name for d in dims if d.let], fixed.get("rules", "default"))
    incumbent = (
        _incumbent_beside(path, str(data["incumbent"]))
        if data.get("incumbent")
        else _spec_text(strategy, fixed)
    )
    return SearchSpace(
        path=path,
        strategy=strategy,
        fixed=tuple(sorted(fixed.items())),
        players=tuple(players),
        objective=objective,
        seeds=seeds,
        confirm=confirm,
        incumbent=str(incumbent),
        sampler=sampler,
        expansions=tuple(str(w) for w in data.get("with", [])),
        variants=tuple(str(v) for v in data.get("variants", [])),
        dimensions=tuple(dims),
    )


def _check_lets(path: Path, names: list[str], rules: Any) -> None:
    """Refuse a ``[let]`` weight the rule file being tuned does not have: a trial would define
    a name no rule reads, and the study would tune nothing (its trials differing by noise)."""
    if not names:
        return
    from deathangel.players.rules.file import close_matches, read_rule_file, resolve

    try:
        rule_file = read_rule_file(resolve(str(rules)))
    except DeathAngelError as exc:
        raise TuneError(f"{path}: the rule file to tune: {exc}") from None
    known = [name for name, _, _ in rule_file.lets]
    for name in names:
        if name not in known:
            raise TuneError(
                f"{path}: [let] {name}: the rule file {rules} has no weight of that name, so no "
                f"rule would read it{close_matches(name, known)}"
            )


def _beside(path: Path, value: Any) -> Any:
    """``value`` as the absolute path of a file beside ``path``, if it names one."""
    if isinstance(value, str) and value.endswith(".toml"):
        named = path.parent / value
        if named.is_file():
            return str(named.resolve())
    return value


def _incumbent_beside(path: Path, spec: str) -> str:
    """The incumbent's spec with the files it names (a strategy file, or a file parameter
    such as ``rules:rules=mine.toml``) made absolute beside ``path``, as the fixed parameters
    are: the space means the same wherever the command runs."""
    name, colon, rest = spec.strip().partition(":")
    if not colon:
        return str(_beside(path, name))
    values = [item.partition("=") for item in rest.split(",")]
    return name + ":" + ",".join(f"{k}={_beside(path, v)}" if eq else k for k, eq, v in values)


def _range(value: Any, path: Path, key: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and v >= 0 for v in value)
        or value[0] > value[1]
    ):
        raise TuneError(f"{path}: {key!r} must be [FIRST, LAST], two seeds (FIRST <= LAST)")
    return int(value[0]), int(value[1])


def _table(data: Mapping[str, Any], key: str, path: Path) -> dict[str, Any]:
    table = data.get(key, {})
    if not isinstance(table, dict):
        raise TuneError(f"{path}: [{key}] must be a table")
    return table


def _dimension(name: str, value: Any, path: Path, let: bool) -> Dimension:
    where = f"{path}: [{'let' if let else 'parameters'}] {name}"
    if not isinstance(value, dict) or len({"int", "float", "choice"} & set(value)) != 1:
        raise TuneError(
            f"{where}: write {{ int = [LOW, HIGH] }}, {{ float = [LOW, HIGH] }} "
            "or { choice = [...] }"
        )
    log = bool(value.get("log", False))
    if "choice" in value:
        choices = value["choice"]
        if not isinstance(choices, list) or not choices:
            raise TuneError(f"{where}: 'choice' must list the values to try")
        return Dimension(name, "choice", choices=tuple(choices), let=let)
    kind = "int" if "int" in value else "float"
    bounds = value[kind]
    if (
        not isinstance(bounds, list)
        or len(bounds) != 2
        or not all(isinstance(b, int | float) and not isinstance(b, bool) for b in bounds)
        or not all(math.isfinite(b) for b in bounds)  # TOML has nan and inf
        or bounds[0] >= bounds[1]
        or (kind == "int" and not all(isinstance(b, int) for b in bounds))
        or (log and bounds[0] <= 0)
    ):
        raise TuneError(
            f"{where}: {kind} = [LOW, HIGH], two finite numbers with LOW < HIGH "
            "(and LOW > 0 with log)"
        )
    return Dimension(name, kind, float(bounds[0]), float(bounds[1]), log=log, let=let)


# -- a trial's strategy --------------------------------------------------------------------------


def _spec_text(name: str, values: Mapping[str, Any]) -> str:
    return name + (":" + ",".join(f"{k}={_text(v)}" for k, v in values.items()) if values else "")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return repr(value)
    return str(value)


def trial_spec(space: SearchSpace, params: Mapping[str, Any], folder: Path, name: str) -> str:
    """The strategy spec of one point of the space; ``[let]`` weights go into a rule file
    ``folder/NAME.rules.toml`` that extends the rule file the strategy would use."""
    values = dict(space.fixed)
    values.update({d.name: params[d.name] for d in space.dimensions if not d.let})
    lets = {d.name: params[d.name] for d in space.dimensions if d.let}
    if lets:
        base = values.get("rules", "default")
        rule_file = folder / f"{name}.rules.toml"
        folder.mkdir(parents=True, exist_ok=True)
        base_text = str(base)  # a shipped set's name, or a file made absolute by read_space
        lines = [
            "# Written by deathangel tune: the base rule file with tuned weights.",
            f"extends = {json.dumps(base_text)}",
            "",
            "[let]",
            *(f"{k} = {_toml_value(v)}" for k, v in lets.items()),
        ]
        rule_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        values["rules"] = str(rule_file.resolve())
    return _spec_text(space.strategy, values)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(str(value))


# -- playing a trial's games ---------------------------------------------------------------------


Outcomes = dict[str, float]
"""Each game's score (1/0 for a win, or the locations reached), by ``players:k``."""


def _config(space: SearchSpace, spec: str, games: int, seed: int, key: str) -> TournamentConfig:
    data: dict[str, Any] = {
        "games": games,
        "seed": seed,
        "players": list(space.players),
        "with": list(space.expansions),
        "variants": list(space.variants),
        "entry": [{"name": "trial", "strategy": spec}],
        "bot_key": key,
    }
    return build_config(data, base=space.path.parent, where=str(space.path))


def play_games(
    backend: Backend,
    config: TournamentConfig,
    games: range,
    objective: str,
    batch: int = 8,
    stop: StopSignals | None = None,
) -> Outcomes:
    """Play ``games`` (indices k) of every cell of ``config``'s one entry on ``backend``.

    ``stop`` (installed by the caller) may cut in while the games are awaited, where
    nothing is being written; nowhere else.

    :raises TuneError: when a game fails (the strategy raised): a trial cannot be scored.
    :raises KeyboardInterrupt: at a stop.
    """
    handles = []
    for cell in config.cells:
        for start in range(games.start, games.stop, batch):
            ks = tuple(range(start, min(start + batch, games.stop)))
            handles.append(backend.submit(config, Task(cell, (0,), ks)))
    outcomes: Outcomes = {}
    pending = list(handles)
    while pending:
        with stop.at_once() if stop is not None else nullcontext():
            finished, lost = backend.wait(pending)
        if lost:
            raise TuneError("a worker process died while playing a trial's games")
        for handle, result in finished:
            pending.remove(handle)
            if result.failures:
                raise TuneError(f"a trial's game failed: {result.failures[0].error}")
            for row in result.rows:
                score = (
                    float(row.outcome == "victory")
                    if objective == "wins"
                    else row.locations_reached
                )
                outcomes[f"{row.cell.players}:{row.game}"] = float(score)
    return outcomes


def rungs(games: int) -> list[int]:
    """How many games a trial has played at each comparison: doubling up to ``games``."""
    first = min(games, max(FIRST_RUNG, games // 8))
    sizes = [first]
    while sizes[-1] < games:
        sizes.append(min(games, sizes[-1] * 2))
    return sizes


def clearly_worse(trial: Outcomes, best: Outcomes) -> bool:
    """Whether ``trial`` is below ``best`` by more than ``RACE_Z`` standard errors of the paired
    difference, over the games both played."""
    diffs = [trial[k] - best[k] for k in trial if k in best]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean + RACE_Z * math.sqrt(var / n) < 0


def interval(outcomes: Outcomes, objective: str) -> tuple[float, float, float]:
    """The mean with its 95% interval: Wilson's for a win rate, the normal one for locations."""
    from deathangel.analysis.simulate import wilson_interval

    values = list(outcomes.values())
    n = len(values)
    mean = sum(values) / n
    if objective == "wins":
        lo, hi = wilson_interval(round(sum(values)), n)
        return mean, lo, hi
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, n - 1))
    return mean, mean - 1.96 * sd / math.sqrt(n), mean + 1.96 * sd / math.sqrt(n)


# -- the study -----------------------------------------------------------------------------------


def _optuna() -> Any:
    try:
        return importlib.import_module("optuna")
    except ImportError:
        raise MissingExtraError(
            "deathangel tune needs Optuna: pip install 'deathangel[tune]'"
        ) from None


@frozen
class TrialLine:
    number: int
    state: str
    """``complete``, ``pruned`` or ``failed``."""
    params: tuple[tuple[str, Any], ...]
    games: int
    value: float
    low: float
    high: float


@frozen
class StudySummary:
    trials: tuple[TrialLine, ...]
    best: TrialLine | None
    best_spec: str | None
    bot_key: str
    objective: str


P = ParamSpec("P")
R = TypeVar("R")


def on_study_file(
    func: Callable[Concatenate[SearchSpace, str | Path, P], R],
) -> Callable[Concatenate[SearchSpace, str | Path, P], R]:
    """SQLite's failures on the study's file (second argument) as one :class:`TuneError`
    naming it: a file that is not a study, or a full disk (Optuna passes them on wrapped in
    SQLAlchemy's errors, as a traceback of some forty frames)."""

    @functools.wraps(func)
    def wrapper(
        space: SearchSpace, study_path: str | Path, /, *args: P.args, **kwargs: P.kwargs
    ) -> R:
        try:
            return func(space, study_path, *args, **kwargs)
        except Exception as exc:
            problem = _sqlite_problem(exc)
            if problem is None:
                raise
            if "not a database" in problem:
                raise TuneError(
                    f"{study_path}: is not a study (the SQLite file deathangel tune keeps); "
                    "name another --study"
                ) from None
            raise TuneError(
                f"{study_path}: cannot use the study: {problem}; every trial stored before is "
                "kept: run the same command again once that is put right"
            ) from None

    return wrapper


def _sqlite_problem(exc: BaseException) -> str | None:
    """The SQLite error behind ``exc``, if one is (as raised, as a cause, or kept by
    SQLAlchemy as ``orig``)."""
    seen: BaseException | None = exc
    while seen is not None:
        orig = getattr(seen, "orig", None)
        for candidate in (seen, orig):
            if isinstance(candidate, sqlite3.Error):
                return str(candidate)
        seen = seen.__cause__ or seen.__context__
    return None


def open_study(
    space: SearchSpace, path: Path, seed: int | None = None, bot_key: str | None = None
) -> Any:
    """The study stored in ``path`` (created if new, its bots seeded under ``bot_key`` or a
    fresh secret), checked to be of this search space."""
    optuna = _optuna()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    samplers = optuna.samplers
    sampler_seed = seed if seed is not None else secrets.randbits(32)
    if space.sampler == "cmaes":
        if importlib.util.find_spec("cmaes") is None:
            raise MissingExtraError(
                "sampler 'cmaes' needs the cmaes package: pip install 'deathangel[tune]'"
            )
        sampler = samplers.CmaEsSampler(seed=sampler_seed, warn_independent_sampling=False)
    else:
        sampler = samplers.TPESampler(seed=sampler_seed)
    study = optuna.create_study(
        study_name=STUDY,
        storage=f"sqlite:///{path}",
        direction="maximize",
        sampler=sampler,
        load_if_exists=True,
    )
    attrs = study.user_attrs
    if not attrs:
        study.set_user_attr("space", space.digest)
        study.set_user_attr("space_file", str(space.path))
        study.set_user_attr("bot_key", bot_key if bot_key is not None else new_bot_key())
        study.set_user_attr("objective", space.objective)
    elif attrs.get("space") != space.digest:
        raise TuneError(
            f"{path} holds a study of another search space ({attrs.get('space_file')}); "
            "use the same file to resume, or another --study"
        )
    return study


@on_study_file
def run_study(
    space: SearchSpace,
    study_path: str | Path,
    *,
    trials: int,
    games: int,
    backend: Backend,
    progress: Progress | None = None,
    sampler_seed: int | None = None,
    bot_key: str | None = None,
    stop: StopSignals | None = None,
) -> StudySummary:
    """Run the study until ``trials`` trials are finished (complete or pruned), each playing
    up to ``games`` games per player count on the tuning seeds. A new study seeds its bots
    under ``bot_key`` (default: a fresh secret, kept in the study); ``sampler_seed`` seeds
    the sampler of this run. ``stop`` (Ctrl-C, SIGTERM; installed by the caller) raises
    :class:`KeyboardInterrupt` while games are awaited, never inside a write to the study:
    a trial cut off is left running, and the next run plays its point again."""
    optuna = _optuna()
    TrialState = optuna.trial.TrialState
    study_path = Path(study_path)
    if games < 1 or trials < 1:
        raise TuneError("--games and --trials must be at least 1")
    if games > space.seeds[1] - space.seeds[0] + 1:
        raise TuneError(
            f"--games {games} is more than the {space.seeds[1] - space.seeds[0] + 1} tuning seeds"
        )
    check_points(space)
    study = open_study(space, study_path, sampler_seed, bot_key)
    key = study.user_attrs["bot_key"]
    folder = study_path.with_suffix(".trials")
    # A trial cut off by a stop (even kill -9) was never told: fail it, and play its point again.
    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(t.number, state=TrialState.FAIL)
        study.enqueue_trial(t.params, skip_if_exists=False)
    distributions = space.distributions()

    def done() -> list[Any]:
        return list(
            study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED))
        )

    while len(done()) < trials:
        if progress is not None:
            progress(len(done()), trials, "choosing the next point")
        trial = study.ask(distributions)
        name = f"trial-{trial.number}"
        spec = trial_spec(space, trial.params, folder, name)
        config = _config(space, spec, games, space.seeds[0], key)
        best = _best_outcomes(study, TrialState)
        outcomes: Outcomes = {}
        pruned = False
        for size in rungs(games):
            if progress is not None:
                progress(len(done()), trials, f"{name}: {size} games a player count")
            outcomes.update(
                play_games(
                    backend,
                    config,
                    range(len(outcomes) // len(space.players), size),
                    space.objective,
                    stop=stop,
                )
            )
            mean, _, _ = interval(outcomes, space.objective)
            trial.report(mean, size)
            if size < games and best is not None and clearly_worse(outcomes, best):
                pruned = True
                break
        mean, lo, hi = interval(outcomes, space.objective)
        trial.set_user_attr("spec", spec)
        trial.set_user_attr("outcomes", outcomes)
        trial.set_user_attr("interval", [lo, hi])
        if pruned:
            study.tell(trial, state=TrialState.PRUNED)
        else:
            study.tell(trial, mean)
        if progress is not None:
            verdict = "pruned" if pruned else "complete"
            progress(
                len(done()),
                trials,
                f"{name} {verdict}: {mean:.4f} [{lo:.4f}, {hi:.4f}] over {len(outcomes)} games",
            )
    return summarise(study, space.objective)


@on_study_file
def finished_trials(space: SearchSpace, study_path: str | Path) -> int:
    """How many trials the study in ``study_path`` has finished (complete or pruned); 0 if
    there is no study there yet (none is made)."""
    if not Path(study_path).is_file():
        return 0
    TrialState = _optuna().trial.TrialState
    study = open_study(space, Path(study_path))
    return len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)))


def check_points(space: SearchSpace) -> None:
    """Make the strategy at the space's lowest and highest points and the incumbent once,
    before a study file exists: an unknown parameter or a value its strategy refuses is said
    in one line then, rather than after the study is made (whose file a corrected space could
    not resume) or, for the incumbent, after every trial has been played.

    :raises TuneError: naming the space file.
    """
    ends = [
        {d.name: (d.choices[k] if d.kind == "choice" else _end(d, k)) for d in space.dimensions}
        for k in (0, -1)
    ]
    with tempfile.TemporaryDirectory() as folder:
        specs = [trial_spec(space, point, Path(folder), f"end{k}") for k, point in enumerate(ends)]
        for spec in [*specs, space.incumbent]:
            try:
                _config(space, spec, 1, space.seeds[0], "0" * 32)
            except DeathAngelError as exc:
                raise TuneError(f"{space.path}: {exc}") from None


def _end(dimension: Dimension, k: int) -> int | float:
    value = dimension.low if k == 0 else dimension.high
    return int(value) if dimension.kind == "int" else value


def _best_outcomes(study: Any, TrialState: Any) -> Outcomes | None:
    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    if not complete:
        return None
    best = max(complete, key=lambda t: t.value)
    return dict(best.user_attrs.get("outcomes", {}))


def summarise(study: Any, objective: str) -> StudySummary:
    optuna = _optuna()
    TrialState = optuna.trial.TrialState
    names = {
        TrialState.COMPLETE: "complete",
        TrialState.PRUNED: "pruned",
        TrialState.FAIL: "failed",
    }
    lines = []
    for t in study.get_trials(deepcopy=False):
        if t.state not in names:
            continue
        outcomes = t.user_attrs.get("outcomes", {})
        lo, hi = t.user_attrs.get("interval", [math.nan, math.nan])
        value = (
            t.value
            if t.value is not None
            else (sum(outcomes.values()) / len(outcomes) if outcomes else math.nan)
        )
        lines.append(
            TrialLine(
                t.number,
                names[t.state],
                tuple(sorted(t.params.items())),
                len(outcomes),
                value,
                lo,
                hi,
            )
        )
    complete = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))]
    best_trial = max(complete, key=lambda t: t.value) if complete else None
    best = next(
        (line for line in lines if best_trial is not None and line.number == best_trial.number),
        None,
    )
    return StudySummary(
        tuple(lines),
        best,
        None if best_trial is None else str(best_trial.user_attrs["spec"]),
        str(study.user_attrs["bot_key"]),
        objective,
    )


# -- choosing, confirming and writing the winner -------------------------------------------------


@frozen
class Finalist:
    """A trial played again on fresh tuning seeds (none of its own games)."""

    trial: TrialLine
    spec: str
    value: float
    low: float
    high: float
    games: int


@on_study_file
def reevaluate(
    space: SearchSpace,
    study_path: str | Path,
    *,
    finalists: int,
    games: int,
    trial_games: int,
    backend: Backend,
    stop: StopSignals | None = None,
) -> list[Finalist]:
    """The best ``finalists`` complete trials, each played again on the same ``games`` fresh
    tuning seeds (after the ``trial_games`` every trial played), best first.

    The best of many noisy trials is, on average, luckier than it is good (the winner's
    curse); its score on games it was not chosen on is an honest one.
    """
    optuna = _optuna()
    study = open_study(space, Path(study_path))
    complete = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    top = sorted(complete, key=lambda t: -t.value)[:finalists]
    first = space.seeds[0] + trial_games
    if first + games - 1 > space.seeds[1]:
        raise TuneError(
            f"re-evaluating on {games} fresh seeds needs seeds up to {first + games - 1}, "
            f"past the tuning range's end {space.seeds[1]}"
        )
    summary = summarise(study, space.objective)
    lines = {line.number: line for line in summary.trials}
    key = study.user_attrs["bot_key"]
    out = []
    for t in top:
        spec = str(t.user_attrs["spec"])
        config = _config(space, spec, games, first, key)
        outcomes = play_games(backend, config, range(games), space.objective, stop=stop)
        mean, lo, hi = interval(outcomes, space.objective)
        out.append(Finalist(lines[t.number], spec, mean, lo, hi, len(outcomes)))
    return sorted(out, key=lambda f: -f.value)


def write_strategy_file(path: Path, spec: str, note: str = "") -> Path:
    """Write ``spec`` as a strategy file (``strategy`` and ``[parameters]``) any seat can load
    (``--seat 2=bot:FILE.toml``), ``note`` as its opening comment; a tuned rule file is copied
    beside it."""
    from deathangel.plugins.strategies import parse_spec

    parsed = parse_spec(spec)
    values = dict(parsed.values)
    if "rules" in values and Path(str(values["rules"])).is_file():
        source = Path(str(values["rules"]))
        rules_copy = path.with_name(path.stem + ".rules.toml")
        rules_copy.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        values["rules"] = rules_copy.name
    lines = [
        *(f"# {line}" for line in note.splitlines()),
        f"strategy = {json.dumps(parsed.name)}",
        "",
        "[parameters]",
        *(f"{k} = {_toml_value(_typed(v))}" for k, v in sorted(values.items())),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _typed(value: Any) -> Any:
    """A spec's text value as the number it spells, where it spells one."""
    if not isinstance(value, str):
        return value
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    if value in ("true", "false"):
        return value == "true"
    return value


def confirm(
    space: SearchSpace,
    strategy_file: Path,
    db: Path,
    *,
    games: int,
    sprt: SprtDesign | None = None,
    backend: Backend | None = None,
    workers: int | None = None,
    bot_key: str | None = None,
) -> Report:
    """Play the winner (``strategy_file``) against the incumbent on the held-out seeds, as a
    tournament stored in ``db``; returns its report (paired statistics per player count).

    With ``sprt`` the tournament is a sequential test (the tuned strategy is its second entry,
    so ``p1 > p0`` means "the tuned one is better") that stops once decided, ``games`` being
    its cap; :func:`judge` reads the verdict from it. ``bot_key``: the bots' seeds' key (default:
    a fresh one, stored in ``db``), given to repeat a confirmation exactly."""
    from deathangel.tournament.report import read_report
    from deathangel.tournament.results import Results

    games = min(games, space.confirm[1] - space.confirm[0] + 1)
    data = {
        "games": games,
        "seed": space.confirm[0],
        "players": list(space.players),
        "with": list(space.expansions),
        "variants": list(space.variants),
        "entry": [
            {"name": "incumbent", "strategy": space.incumbent},
            {"name": "tuned", "strategy": str(strategy_file.resolve())},
        ],
    }
    if sprt is not None:
        if sprt.p1 <= sprt.p0:
            raise TuneError(
                f"a confirmation's SPRT tests that the tuned strategy is better: p1 must be "
                f"above p0 (got p0={sprt.p0:g}, p1={sprt.p1:g})"
            )
        data["sprt"] = {"p0": sprt.p0, "p1": sprt.p1, "alpha": sprt.alpha, "beta": sprt.beta}
    if bot_key is not None:
        data["bot_key"] = bot_key
    config = build_config(data, base=space.path.parent, where=str(space.path))
    summary = run_tournament(config, db, resume=True, workers=workers, backend=backend)
    if summary.status == "interrupted":
        # Stopped (Ctrl-C, SIGTERM): the games so far are no verdict. They are kept, and the
        # same confirmation goes on from them.
        raise KeyboardInterrupt
    with Results.open(db) as results:
        return read_report(results)


@frozen
class Confirmation:
    """What a held-out confirmation says: a line per player count and, after a sequential
    test, a line for the test; ``confirmed`` only when the tuned strategy is shown better."""

    confirmed: bool
    lines: tuple[str, ...]


def judge(report: Report) -> Confirmation:
    """The verdict of a confirmation tournament (entries ``incumbent`` then ``tuned``).

    Without an SPRT: confirmed when, at every player count, the paired difference's 95%
    interval lies above 0. With one, its decision alone counts (McNemar's p over pairs chosen
    by a sequential stop is not a fixed-sample test): confirmed when it decided for ``p1``;
    undecided at its cap is not confirmed — the incumbent stays."""
    from deathangel.tournament.report import describe_sprt, p_text, signed_percent

    lines: list[str] = []
    every_cell = bool(report.pairs)
    sequential = report.sprt is not None and report.config.sprt is not None
    for pair in report.pairs:
        d = pair.difference
        if d is None:
            every_cell = False
            continue
        shown = d.low > 0
        every_cell = every_cell and shown
        figures = (
            f"  {pair.cell.label:<4} tuned - incumbent {signed_percent(d.difference)} "
            f"[{signed_percent(d.low)}, {signed_percent(d.high)}], McNemar p {p_text(pair.p_value)}"
        )
        if sequential:
            lines.append(figures)
            continue
        verdict = (
            "confirmed: the tuned strategy is better"
            if shown
            else "not confirmed: keep the incumbent"
            if d.high < 0 or pair.p_value >= 0.05
            else "not confirmed"
        )
        lines.append(f"{figures}: {verdict}")
    if not sequential:
        return Confirmation(every_cell, tuple(lines))
    assert report.sprt is not None and report.config.sprt is not None
    decided = report.sprt.decision
    cap = report.config.games * len(report.config.cells)
    lines.append("  " + describe_sprt(report.config.sprt, report.sprt, "incumbent", "tuned", cap))
    lines.append(
        "  confirmed: the tuned strategy is better"
        if decided == "H1"
        else "  not confirmed: keep the incumbent"
    )
    return Confirmation(decided == "H1", tuple(lines))


__all__ = [
    "Confirmation",
    "Dimension",
    "SearchSpace",
    "StudySummary",
    "TrialLine",
    "TuneError",
    "clearly_worse",
    "confirm",
    "interval",
    "judge",
    "open_study",
    "play_games",
    "read_space",
    "reevaluate",
    "run_study",
    "rungs",
    "trial_spec",
    "write_strategy_file",
]
