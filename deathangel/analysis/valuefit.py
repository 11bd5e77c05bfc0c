"""Fitting a value model: positions from many played games, their outcomes, and a small
network fitted to them with numpy (``deathangel value fit``).

Every round start of every game is a position (RULES §4: where a search's rollout is cut
short and valued); its label is whether the marines went on to win. The games are played by a
strategy (the ``rules`` bot by default: fast, and the policy the search's rollouts play), on a
training seed range; the fit is judged on games from another range that it never saw, by
log-loss, Brier score and calibration, beside the hand-made logistic value of
:func:`~deathangel.players.search.value.position_value` and the base rate.

The fit: inputs centred and scaled, then either a logistic regression (no hidden layer) or a
network with ``tanh`` hidden layers, trained by Adam on the log-loss with an L2 penalty, the
best epoch chosen on a tenth of the training games held apart. numpy comes with the ``tune``
extra; playing the games needs nothing more than the engine.
"""

from __future__ import annotations

import fnmatch
import importlib
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from attrs import frozen

from deathangel.analysis.positions import GamePositions, play_game_positions
from deathangel.errors import DeathAngelError
from deathangel.players.search.model import Layer, ValueModel
from deathangel.players.seeds import new_bot_key
from deathangel.plugins.strategies import parse_spec, strategies

Progress = Callable[[int, int], None]


def _numpy() -> Any:
    try:
        return importlib.import_module("numpy")
    except ImportError:
        raise DeathAngelError(
            "fitting a value model needs numpy: pip install 'deathangel[tune]'"
        ) from None


@frozen
class Positions:
    """Round starts of played games: features, whether the game was won, which game."""

    rows: tuple[dict[str, float], ...]
    won: tuple[bool, ...]
    game: tuple[int, ...]
    baseline: tuple[float, ...]
    """The hand-made value of each position (:func:`position_value`), for comparison."""


def play_positions(
    games: int,
    seed: int,
    *,
    players: int | Sequence[int] = 1,
    strategy: str = "rules",
    bot_key: str | None = None,
    progress: Progress | None = None,
) -> Positions:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, ...) and keep every round start;
    with several player counts, game ``i`` has ``players[i % len(players)]`` seats."""
    counts = (players,) if isinstance(players, int) else tuple(players)
    parse_spec(strategy)  # a misspelt strategy is one line before any game
    key = bot_key if bot_key is not None else new_bot_key()
    found = strategies()
    played = []
    for i in range(games):
        played.append(play_game_positions(i, seed, counts, strategy, key, found))
        if progress is not None:
            progress(i + 1, games)
    return positions_of(played, seed)


def positions_of(games: Sequence[GamePositions], seed: int) -> Positions:
    """Games' round starts as one set of positions (game ``i`` has seed ``seed + i``)."""
    rows: list[dict[str, float]] = []
    won: list[bool] = []
    game_ids: list[int] = []
    baseline: list[float] = []
    for g in games:
        rows += g.rows
        baseline += g.baseline
        won += [g.won] * len(g.rows)
        game_ids += [seed + g.index] * len(g.rows)
    return Positions(tuple(rows), tuple(won), tuple(game_ids), tuple(baseline))


def lambda_targets(
    train: Positions, teacher: Callable[[Mapping[str, float]], float], td_lambda: float
) -> tuple[float, ...]:
    """Each position's λ-return: what the fit learns instead of the bare outcome.

    A position's outcome is one coin toss of the whole rest of the game, so a few hundred
    games of a search teach its value through a great deal of noise. The λ-return blends it
    with what ``teacher`` (a model fitted before) says of the game's later round starts:
    ``G[t] = (1 − λ)·teacher(position t+1) + λ·G[t+1]``, the last round start of a game taking
    the outcome itself (1 won, 0 lost). λ = 1 gives the outcome (a plain fit); λ = 0 only the
    teacher's value of the next round start (one-step temporal differences); between, the
    nearer the end of the game, the more the outcome counts. The teacher's own errors are the
    price: the fit is still judged on outcomes alone.
    """
    if not 0.0 <= td_lambda <= 1.0:  # NaN too
        raise DeathAngelError(f"the λ of the targets must be from 0 to 1, not {td_lambda}")
    out = [0.0] * len(train.rows)
    n = len(out)
    for i in range(n - 1, -1, -1):
        last = i == n - 1 or train.game[i + 1] != train.game[i]
        if last:
            out[i] = 1.0 if train.won[i] else 0.0
        else:
            out[i] = (1.0 - td_lambda) * teacher(train.rows[i + 1]) + td_lambda * out[i + 1]
    return tuple(out)


@frozen
class Scores:
    """How well chances predicted outcomes."""

    positions: int
    log_loss: float
    brier: float
    calibration: tuple[tuple[float, float, int], ...]
    """Per decile of predicted chance: (mean predicted, share won, positions)."""


def point_loss(chance: float, won: bool) -> float:
    """One position's log-loss (a chance of 0 or 1 that was wrong costs ln 10⁹, not ∞)."""
    return -math.log(max(1e-9, chance if won else 1 - chance))


def score(chances: Sequence[float], won: Sequence[bool]) -> Scores:
    n = len(chances)
    loss = sum(point_loss(p, w) for p, w in zip(chances, won, strict=True)) / n
    brier = sum((p - w) ** 2 for p, w in zip(chances, won, strict=True)) / n
    order = sorted(range(n), key=lambda i: chances[i])
    bins = []
    for b in range(10):
        idx = order[b * n // 10 : (b + 1) * n // 10]
        if idx:
            bins.append(
                (
                    sum(chances[i] for i in idx) / len(idx),
                    sum(won[i] for i in idx) / len(idx),
                    len(idx),
                )
            )
    return Scores(n, loss, brier, tuple(bins))


@frozen
class PairedLoss:
    """One value's log-loss less another's on the same positions, with a 95% interval."""

    difference: float
    """Mean over the round starts (negative: the first predicts better)."""
    low: float
    high: float
    games: int


def paired_log_loss(first: Sequence[float], second: Sequence[float], test: Positions) -> PairedLoss:
    """The first value's log-loss less the second's on ``test``'s round starts, with a 95%
    interval that counts each game once: a game's round starts share its one outcome, so
    they are not independent, and the spread is taken over the games' summed differences
    (a cluster-robust standard error), not over the positions."""
    by_game: dict[int, float] = {}
    counts: dict[int, int] = {}
    for p, q, w, g in zip(first, second, test.won, test.game, strict=True):
        by_game[g] = by_game.get(g, 0.0) + point_loss(p, w) - point_loss(q, w)
        counts[g] = counts.get(g, 0) + 1
    n = len(test.won)
    mean = sum(by_game.values()) / n
    k = len(by_game)
    if k < 2:
        raise DeathAngelError("a paired comparison needs the round starts of two games or more")
    spread = sum((d - counts[g] * mean) ** 2 for g, d in by_game.items()) * k / (k - 1)
    error = math.sqrt(spread) / n
    return PairedLoss(mean, mean - 1.96 * error, mean + 1.96 * error, k)


def check_exclude(
    train: Positions, exclude: Sequence[str], start: ValueModel | None = None
) -> set[str]:
    """The features of ``train``'s positions that ``start`` lacks, once every pattern of
    ``exclude`` is known to leave one of them out (and none of the start's own).

    :raises DeathAngelError: for a pattern that matches a feature of the start, or none of
        the games': a command checks this before it plays the held-out games.
    """
    known = list(start.names) if start is not None else []
    for pattern in exclude:
        if clash := [k for k in known if fnmatch.fnmatchcase(k, pattern)]:
            raise DeathAngelError(
                f"cannot leave out {pattern!r}: the starting model reads {', '.join(clash)}"
            )
    seen = {k for row in train.rows for k in row} - set(known)
    for pattern in exclude:
        if not any(fnmatch.fnmatchcase(k, pattern) for k in seen):
            raise DeathAngelError(f"cannot leave out {pattern!r}: no feature of the games matches")
    return seen


def fit(
    train: Positions,
    *,
    hidden: Sequence[int] = (16,),
    epochs: int = 200,
    l2: float = 1e-4,
    learning_rate: float = 0.01,
    seed: int = 0,
    about: str = "",
    start: ValueModel | None = None,
    exclude: Sequence[str] = (),
    folds: int = 1,
    targets: Sequence[float] | None = None,
) -> ValueModel:
    """Fit a model to ``train``'s positions (``hidden=()``: a logistic regression).

    With ``start``, the fit begins from that model instead of from random weights: its
    features, their scaling and its layers (``hidden`` is then the start's), and the start
    itself competes as "epoch 0" for the best score on the held-apart games. That is for a
    few thousand positions of a search's own games (each costs a search's game, tens of
    seconds) beside a model fitted on a hundred thousand of a cheap bot's: the few correct
    what the many taught, and where they cannot tell, the start comes back unchanged.

    Features the positions have and the start lacks (a feature added since it was fitted)
    join it as new inputs, scaled by the positions and weighted 0: the start's value of
    every position is unchanged until the games teach those weights.

    ``exclude``: shell patterns (``"marine *"``) of features to leave out, to measure what
    they add; a start's own features cannot be left out.

    ``folds``: 1 chooses the epoch on a tenth of the games held apart and keeps the best
    epoch's weights; ``k`` > 1 chooses the number of epochs by ``k``-fold cross-validation
    (every game judges once) and then fits every game for that many: for a few hundred
    games, where one tenth is too few to choose by; the number chosen and the folds' pooled
    log-loss (the start's beside it) are added to ``about``.

    ``targets``: what to fit each position to (:func:`lambda_targets`), instead of whether
    its game was won; the epochs are still chosen, and the folds judged, on the outcomes.
    """
    np = _numpy()
    known = list(start.names) if start is not None else []
    seen = check_exclude(train, exclude, start)
    extra = sorted(k for k in seen if not any(fnmatch.fnmatchcase(k, p) for p in exclude))
    names = known + extra
    x = np.array([[row.get(k, 0.0) for k in names] for row in train.rows], dtype=float)
    y = np.array(train.won, dtype=float)
    fitted = y if targets is None else np.array(targets, dtype=float)
    if len(fitted) != len(y):
        raise DeathAngelError(f"{len(fitted)} targets for {len(y)} positions")
    centre = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    if start is not None:
        centre[: len(known)] = start.centre
        scale[: len(known)] = start.scale
    xs = (x - centre) / scale
    games = np.array(train.game)
    rng = np.random.default_rng(seed)
    ids = np.unique(games)
    if folds <= 1:
        # A tenth of the games (never of a game's positions) chooses the best epoch.
        held = set(rng.choice(ids, size=max(1, len(ids) // 10), replace=False).tolist())
        val = np.array([g in held for g in games])
        initial = _initial(np, rng, names, hidden, start, len(extra))
        _, best = _train(
            np,
            initial,
            xs[~val],
            fitted[~val],
            xs[val],
            y[val],
            epochs,
            rng,
            learning_rate,
            l2,
            keep_best=True,
            start_competes=start is not None,
        )
    else:
        # Each fold of the games judges a fit on the others, epoch by epoch: the epoch that
        # does best summed over all folds (0: the start unchanged) is then fitted on every
        # game. A tenth of a few hundred games is too few to choose by: which tenth it was
        # moved the judged log-loss of a second self-play round from 0.482 to 0.524.
        if folds > len(ids):
            raise DeathAngelError(f"{folds} folds need at least {folds} games, not {len(ids)}")
        initial = _initial(np, rng, names, hidden, start, len(extra))
        shuffled = rng.permutation(ids)
        total = np.zeros(epochs + 1)
        for f in range(folds):
            held = set(shuffled[f::folds].tolist())
            val = np.array([g in held for g in games])
            losses, _ = _train(
                np, initial, xs[~val], fitted[~val], xs[val], y[val], epochs, rng, learning_rate, l2
            )
            total += np.array(losses) * int(val.sum())
        if start is None:
            total[0] = math.inf  # random weights are never the answer
        # The fewest epochs within a billionth of the least loss: a pass that changes the
        # weights by rounding alone must not count as a gain.
        chosen = int(np.argmax(total <= total.min() * (1 + 1e-9)))
        _, best = _train(np, initial, xs, fitted, None, None, chosen, rng, learning_rate, l2)
        # What the folds chose, kept in the model file: a reader of a fitted model (or of
        # the command's output) can see whether the games moved the start at all.
        pooled = total / len(y)
        about += (
            f"{', ' if about else ''}{chosen} pass{'' if chosen == 1 else 'es'} of {epochs} "
            f"by {folds}-fold cross-validation (pooled log-loss {pooled[chosen]:.4f}"
            + (f"; the start's {pooled[0]:.4f}" if start is not None else "")
            + ")"
        )
    layers = tuple(
        Layer(tuple(tuple(float(v) for v in row) for row in w), tuple(float(v) for v in b))
        for w, b in best
    )
    return ValueModel(
        tuple(names),
        tuple(float(v) for v in centre),
        tuple(float(v) for v in scale),
        layers,
        about,
    )


Params = list[list[Any]]


def _initial(
    np: Any, rng: Any, names: list[str], hidden: Sequence[int], start: ValueModel | None, extra: int
) -> Params:
    """The weights a fit begins from: the start's (new inputs weighted 0), or random."""
    params: Params = []
    if start is None:
        sizes = [len(names), *hidden, 1]
        for a, b in itertools.pairwise(sizes):
            params.append([rng.normal(0, 1 / math.sqrt(a), size=(b, a)), np.zeros(b)])
        return params
    for given in start.layers:
        params.append([np.array(given.weights, dtype=float), np.array(given.bias)])
    first_layer = params[0][0]
    params[0][0] = np.hstack([first_layer, np.zeros((first_layer.shape[0], extra))])
    return params


def _train(
    np: Any,
    initial: Params,
    xt: Any,
    yt: Any,
    xv: Any,
    yv: Any,
    epochs: int,
    rng: Any,
    learning_rate: float,
    l2: float,
    *,
    keep_best: bool = False,
    start_competes: bool = False,
) -> tuple[list[float], Params]:
    """``epochs`` passes of Adam over ``xt, yt`` from a copy of ``initial``: the loss on
    ``xv, yv`` before the first pass and after each (none without them), and the weights
    after the last pass, or with ``keep_best`` those of the pass with the least loss (the
    initial ones only when ``start_competes``)."""
    params = [[w.copy() for w in layer] for layer in initial]
    judged = xv is not None
    losses = [_loss(np, params, xv, yv)] if judged else []
    # A fresh fit's random weights never win; a start's own weights may.
    best_loss = losses[0] if judged and start_competes else math.inf
    best = [[w.copy() for w in layer] for layer in params] if keep_best else params
    moments = [[np.zeros_like(w), np.zeros_like(w)] for layer in params for w in layer]
    batch = 512
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(xt))
        for at in range(0, len(xt), batch):
            rows = order[at : at + batch]
            grads = _gradients(np, params, xt[rows], yt[rows], l2)
            step += 1
            k = 0
            for layer, glayer in zip(params, grads, strict=True):
                for j in range(2):
                    m, v = moments[k]
                    m[:] = 0.9 * m + 0.1 * glayer[j]
                    v[:] = 0.999 * v + 0.001 * glayer[j] ** 2
                    mh = m / (1 - 0.9**step)
                    vh = v / (1 - 0.999**step)
                    layer[j] -= learning_rate * mh / (np.sqrt(vh) + 1e-8)
                    k += 1
        if judged:
            loss = _loss(np, params, xv, yv)
            losses.append(loss)
            if keep_best and loss < best_loss:
                best_loss, best = loss, [[w.copy() for w in layer] for layer in params]
    return losses, best


def _forward(np: Any, params: list[list[Any]], x: Any) -> tuple[list[Any], Any]:
    acts = [x]
    for i, (w, b) in enumerate(params):
        z = acts[-1] @ w.T + b
        acts.append(z if i == len(params) - 1 else np.tanh(z))
    p = 1 / (1 + np.exp(-np.clip(acts[-1][:, 0], -40, 40)))
    return acts, p


def _loss(np: Any, params: list[list[Any]], x: Any, y: Any) -> float:
    _, p = _forward(np, params, x)
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _gradients(np: Any, params: list[list[Any]], x: Any, y: Any, l2: float) -> list[list[Any]]:
    acts, p = _forward(np, params, x)
    delta = ((p - y) / len(y))[:, None]
    grads: list[list[Any]] = []
    for i in range(len(params) - 1, -1, -1):
        w, _ = params[i]
        grads.append([delta.T @ acts[i] + l2 * w, delta.sum(axis=0)])
        if i:
            delta = (delta @ w) * (1 - acts[i] ** 2)
    return grads[::-1]
