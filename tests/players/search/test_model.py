"""The learned value: a model is data (JSON) checked in full when loaded, evaluated by hand
arithmetic, fed only what the table shows, and fitted so it separates what it should."""

from __future__ import annotations

import json
import math
import pickle
import random
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from attrs import evolve

from deathangel.analysis.valuefit import Positions, fit, lambda_targets, paired_log_loss, score
from deathangel.engine.game import Game, GameConfig
from deathangel.errors import DeathAngelError
from deathangel.players import RandomPlayer
from deathangel.players.search.model import Layer, ValueModel, ValueModelError, features

TINY = {
    "format": "deathangel-value-model",
    "version": 1,
    "about": "by hand",
    "features": ["standing", "danger"],
    "centre": [0.5, 1.0],
    "scale": [0.25, 2.0],
    "layers": [
        {"weights": [[1.0, -1.0], [0.5, 0.0]], "bias": [0.0, 0.1]},
        {"weights": [[2.0, -1.0]], "bias": [-1.0]},
    ],
}


def test_a_tiny_network_by_hand() -> None:
    """standing 0.75 and danger 3: inputs (0.75-0.5)/0.25 = 1 and (3-1)/2 = 1; hidden tanh(1-1)
    = 0 and tanh(0.5+0.1) = tanh(0.6) = 0.537050; output 2·0 − 0.537050 − 1 = −1.537050;
    logistic: 1/(1+e^1.537050) = 0.176965."""
    model = ValueModel.from_dict(TINY)
    assert model.chance({"standing": 0.75, "danger": 3.0}) == pytest.approx(0.176965, abs=1e-6)
    # A feature a position lacks counts as 0: standing (0-0.5)/0.25 = -2, danger 0 → -0.5.
    # hidden tanh(-2+0.5) = tanh(-1.5) = -0.905148, tanh(-1+0.1) = tanh(-0.9) = -0.716298;
    # output 2·(-0.905148) + 0.716298 − 1 = −2.093999 → 1/(1+e^2.093999) = 0.109681.
    assert model.chance({}) == pytest.approx(0.109681, abs=1e-6)


def test_a_model_round_trips_through_its_file(tmp_path: Path) -> None:
    model = ValueModel.from_dict(TINY)
    model.save(tmp_path / "m.json")
    assert ValueModel.load(tmp_path / "m.json") == model


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "not a JSON file"),
        (pickle.dumps(TINY), "not a JSON file"),  # never unpickled: opening runs no code
        (json.dumps({**TINY, "format": "other"}).encode(), "not a deathangel value model"),
        (json.dumps({**TINY, "version": 9}).encode(), "version 9 is not supported"),
        (json.dumps({**TINY, "centre": [0.5]}).encode(), "'centre' must be a list of 2"),
        (json.dumps({**TINY, "scale": [0.0, 1.0]}).encode(), "every 'scale' must be above 0"),
        (
            json.dumps(TINY).replace("-1.0]]", "NaN]]").encode(),
            "layer 2 weights row 1[1] must be a finite number",
        ),
        (
            json.dumps({**TINY, "layers": TINY["layers"][:1]}).encode(),
            "the last layer must have one unit, not 2",
        ),
    ],
)
def test_a_corrupt_model_is_refused_in_one_line(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ValueModelError) as info:
        ValueModel.load(path)
    text = str(info.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text


def test_a_misspelt_model_name_is_told_the_shipped_names(tmp_path: Path) -> None:
    with pytest.raises(ValueModelError) as info:
        ValueModel.load("learnd")
    assert str(info.value) == (
        "learnd: no such value model: neither a shipped one (learned, self-play) nor a file"
    )
    with pytest.raises(ValueModelError) as info:
        ValueModel.load(tmp_path / "gone.json")  # a path: only the file is looked for
    assert (
        str(info.value)
        == f"{tmp_path / 'gone.json'}: cannot read the value model: No such file or directory"
    )


def test_a_bad_model_for_the_search_is_one_line_at_the_command(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    result = subprocess.run(
        [
            *(sys.executable, "-m", "deathangel", "simulate", "-n", "1"),
            *("--strategy", f"mcts:value={tmp_path / 'bad.json'}"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "not a deathangel value model" in result.stderr


def test_features_see_only_what_the_table_shows() -> None:
    """Deal the hidden cards again (the same piles' sizes): the features do not change; a
    public change (a marine's token) does."""
    for seed in range(6):
        game = Game(GameConfig(1 + seed % 3, seed=seed))
        bot = RandomPlayer(seed)
        for _ in range(40):
            if game.decision is None:
                break
            game.apply(bot.choose(None, game.decision))
        st = game.state
        before = features(st, game.table)
        rng = random.Random(seed)
        cards = st.gs_deck + st.blips[0] + st.blips[1]
        rng.shuffle(cards)
        n, left = len(st.gs_deck), len(st.blips[0])
        st.gs_deck, st.blips = cards[:n], [cards[n : n + left], cards[n + left :]]
        rng.shuffle(st.event_deck)
        assert features(st, game.table) == before
        if st.formation:
            st.formation[0].marine.tokens += 1
            assert features(st, game.table)["tokens"] > before["tokens"]


def test_features_name_the_marines_standing_and_no_others() -> None:
    """A solo game's start: its three teams' six marines, each named once with 1, and no
    marine of the three teams left out; a marine taken from the formation (as one slain
    is) is no longer named, and the others still are."""
    game = Game(GameConfig(1, seed=4))
    st = game.state
    names = {p.marine.name for p in st.formation}
    assert len(names) == 6
    named = {
        k[len("marine ") :]: v
        for k, v in features(st, game.table).items()
        if k.startswith("marine ")
    }
    assert named == dict.fromkeys(names, 1.0)
    gone = st.formation.pop(2).marine.name
    after = {k for k in features(st, game.table) if k.startswith("marine ")}
    assert after == {f"marine {n}" for n in names - {gone}}


def test_a_fit_learns_what_separates_wins() -> None:
    """Synthetic positions: games are won when 'standing' is high. The fitted model ranks a
    high 'standing' far above a low one, and beats the base rate on log-loss."""
    rng = random.Random(3)
    rows, won, game = [], [], []
    for g in range(400):
        s = rng.random()
        rows.append({"standing": s, "noise": rng.random()})
        won.append(rng.random() < (0.9 if s > 0.6 else 0.05))
        game.append(g)
    positions = Positions(tuple(rows), tuple(won), tuple(game), tuple([0.3] * 400))
    model = fit(positions, hidden=(), epochs=40)
    assert model.chance({"standing": 0.9, "noise": 0.5}) > 0.6
    assert model.chance({"standing": 0.1, "noise": 0.5}) < 0.2
    rate = sum(won) / len(won)
    chances = [model.chance(r) for r in rows]
    assert score(chances, won).log_loss < score([rate] * 400, won).log_loss - 0.1
    assert all(isinstance(layer, Layer) for layer in model.layers)
    assert not any(math.isnan(c) for c in chances)


def _logistic(bias: float, weight: float) -> ValueModel:
    """``standing`` and ``noise``, both centred on 0.5 and scaled by 0.25; no hidden layer."""
    return ValueModel(
        ("noise", "standing"), (0.5, 0.5), (0.25, 0.25), (Layer(((0.0, weight),), (bias,)),)
    )


def _sloped(games: int, seed: int) -> Positions:
    """Games won with chance ``1 / (1 + exp(-(standing - 0.5) / 0.25))``: the truth is the
    logistic model of weight 1 and bias 0."""
    rng = random.Random(seed)
    rows, won = [], []
    for _ in range(games):
        s = rng.random()
        rows.append({"standing": s, "noise": rng.random()})
        won.append(rng.random() < 1 / (1 + math.exp(-(s - 0.5) / 0.25)))
    return Positions(tuple(rows), tuple(won), tuple(range(games)), tuple([0.5] * games))


def test_a_fit_from_a_start_corrects_it_and_keeps_its_shape() -> None:
    """A start that says 88% everywhere (bias 2, no slope) on games that follow the slope:
    fitted from it, the model keeps the start's features and scaling, and on other games of
    the same kind scores far better than the start and close to the truth."""
    wrong = _logistic(2.0, 0.0)
    model = fit(_sloped(2000, 1), start=wrong, epochs=40, learning_rate=0.05)
    assert model.names == wrong.names and model.centre == wrong.centre
    assert len(model.layers) == 1
    test = _sloped(2000, 2)
    loss = {
        name: score([m.chance(r) for r in test.rows], test.won).log_loss
        for name, m in (("start", wrong), ("fit", model), ("truth", _logistic(0.0, 1.0)))
    }
    assert loss["fit"] < loss["start"] - 0.3
    assert loss["fit"] < loss["truth"] + 0.01


def test_a_start_the_games_cannot_improve_comes_back_unchanged() -> None:
    """Every position twice, once won and once lost, in the same game: no model beats 50%
    everywhere on any of them, and the start says exactly that. Training's mini-batches move
    the weights, so only a fit that lets the start itself compete returns it unchanged."""
    rng = random.Random(5)
    rows, won, game = [], [], []
    for g in range(500):
        row = {"standing": rng.random(), "noise": rng.random()}
        rows += [row, row]
        won += [True, False]
        game += [g, g]
    positions = Positions(tuple(rows), tuple(won), tuple(game), tuple([0.5] * 1000))
    even = _logistic(0.0, 0.0)
    assert fit(positions, start=even, epochs=5) == even
    assert fit(positions, hidden=(), epochs=5) != even  # the same fit from random weights


def _flagged(games: int, seed: int) -> Positions:
    """``_sloped``'s games with a new feature ``flag`` (0 or 1) worth 2 in log-odds: the
    truth is ``(standing - 0.5) / 0.25 + 2 * flag - 1``."""
    rng = random.Random(seed)
    rows, won = [], []
    for _ in range(games):
        s, flag = rng.random(), float(rng.random() < 0.5)
        rows.append({"standing": s, "noise": rng.random(), "flag": flag})
        won.append(rng.random() < 1 / (1 + math.exp(-((s - 0.5) / 0.25 + 2 * flag - 1))))
    return Positions(tuple(rows), tuple(won), tuple(range(games)), tuple([0.5] * games))


def test_a_feature_the_start_lacks_joins_it_and_is_learned() -> None:
    """Positions with a feature added since the start was fitted (``flag``, worth 2 in
    log-odds): the fit keeps the start's features, scaling and order, adds ``flag`` after
    them, and learns it: on other games it beats the start and comes close to the truth."""
    start = _logistic(0.0, 1.0)
    model = fit(_flagged(3000, 1), start=start, epochs=40, learning_rate=0.05)
    assert model.names == ("noise", "standing", "flag")
    assert model.centre[:2] == start.centre and model.scale[:2] == start.scale
    test = _flagged(3000, 2)
    loss_start = score([start.chance(r) for r in test.rows], test.won).log_loss
    loss_fit = score([model.chance(r) for r in test.rows], test.won).log_loss
    truth = [
        1 / (1 + math.exp(-((r["standing"] - 0.5) / 0.25 + 2 * r["flag"] - 1))) for r in test.rows
    ]
    loss_truth = score(truth, test.won).log_loss
    assert loss_fit < loss_start - 0.06  # 0.613 against 0.522: most of what there is to gain
    assert loss_fit < loss_truth + 0.01
    high = model.chance({"standing": 0.5, "noise": 0.5, "flag": 1.0})
    low = model.chance({"standing": 0.5, "noise": 0.5, "flag": 0.0})
    assert high > 0.6 and low < 0.4  # the truth: 73% and 27%


def test_a_new_feature_the_games_cannot_use_leaves_the_start_as_it_was() -> None:
    """Every position won once and lost once: the start (50% everywhere) comes back with
    the new feature weighted 0, so it values every position exactly as before."""
    rng = random.Random(7)
    rows, won, game = [], [], []
    for g in range(300):
        row = {"standing": rng.random(), "noise": rng.random(), "flag": float(g % 2)}
        rows += [row, row]
        won += [True, False]
        game += [g, g]
    even = _logistic(0.0, 0.0)
    model = fit(Positions(tuple(rows), tuple(won), tuple(game), (0.5,) * 600), start=even)
    assert model.names == ("noise", "standing", "flag")
    assert model.layers[0].weights == ((0.0, 0.0, 0.0),)
    assert all(model.chance(r) == even.chance(r) for r in rows)


def test_features_left_out_are_not_read_and_a_starts_own_cannot_be() -> None:
    """``exclude`` leaves out what matches (here the feature that decides the games, so the
    fit is no better than the start); a pattern matching a feature the start reads is one
    line naming it."""
    start = _logistic(0.0, 1.0)
    train, test = _flagged(3000, 1), _flagged(3000, 2)
    model = fit(train, start=start, epochs=20, learning_rate=0.05, exclude=("fl*",))
    assert model.names == start.names
    loss_start = score([start.chance(r) for r in test.rows], test.won).log_loss
    loss_fit = score([model.chance(r) for r in test.rows], test.won).log_loss
    assert loss_fit > loss_start - 0.02
    assert fit(train, hidden=(), epochs=2, exclude=("flag", "noise")).names == ("standing",)
    with pytest.raises(DeathAngelError, match=r"cannot leave out 'stand\*'.*reads standing$"):
        fit(train, start=start, exclude=("stand*",))
    with pytest.raises(DeathAngelError, match=r"cannot leave out 'flags': no feature of the"):
        fit(train, start=start, exclude=("flags",))  # a typo would otherwise leave out nothing


@pytest.mark.parametrize(
    ("name", "fitted_on"),
    [("learned", ("24,000 games", "310000..333999")), ("self-play", ("303 solo games", "340000"))],
)
def test_the_shipped_models_load_by_name_and_rank_a_lost_cause_below_a_fresh_start(
    name: str, fitted_on: tuple[str, str]
) -> None:
    """``value=learned`` and ``value=self-play`` are JSON files shipped in the package; each
    must read a position the way the game reads: all marines standing at the start beats
    the same game with four of the six marines gone."""
    from deathangel.players.search.model import shipped_models

    assert name in shipped_models()
    model = ValueModel.load(name)
    assert all(words in model.about for words in fitted_on)
    game = Game(GameConfig(1, seed=5))
    fresh = model.value(game.state, game.table)
    assert 0.0 < fresh < 1.0
    game.state.slain += [p.marine.name for p in game.state.formation[:4]]
    del game.state.formation[:4]  # the slain leave the formation, named in ``slain``
    assert model.value(game.state, game.table) < fresh


def test_a_model_made_in_code_with_a_short_row_is_refused() -> None:
    """The network's sums stop at the shorter of a row and its inputs, so a row of the wrong
    width would value every position quietly wrong: it is refused when the model is made."""
    with pytest.raises(ValueModelError, match="layer 1: a weights row is not 2 wide"):
        ValueModel(("a", "b"), (0.0, 0.0), (1.0, 1.0), (Layer(((1.0,),), (0.0,)),))
    with pytest.raises(ValueModelError, match="layer 2: a weights row is not 2 wide"):
        ValueModel(
            ("a",),
            (0.0,),
            (1.0,),
            (Layer(((1.0,), (2.0,)), (0.0, 0.0)), Layer(((1.0, 2.0, 3.0),), (0.0,))),
        )
    with pytest.raises(ValueModelError, match="2 features but 1 centres"):
        ValueModel(("a", "b"), (0.0,), (1.0, 1.0), (Layer(((1.0, 1.0),), (0.0,)),))


def _even_pairs(games: int, seed: int) -> Positions:
    """Every position twice in its game, once won and once lost: 50% is the truth."""
    rng = random.Random(seed)
    rows, won, game = [], [], []
    for g in range(games):
        row = {"standing": rng.random(), "noise": rng.random()}
        rows += [row, row]
        won += [True, False]
        game += [g, g]
    return Positions(tuple(rows), tuple(won), tuple(game), tuple([0.5] * (2 * games)))


def test_cross_validation_keeps_a_start_the_games_cannot_improve() -> None:
    """Every fold's fit only moves away from 50%, so the epochs chosen are none: the start
    comes back to the last bit."""
    even = _logistic(0.0, 0.0)
    model = fit(_even_pairs(200, 5), start=even, epochs=5, folds=5)
    assert evolve(model, about="") == even
    # Every position is half won and half lost, so any loss is ln 2 = 0.6931 at the start.
    assert model.about == (
        "0 passes of 5 by 5-fold cross-validation (pooled log-loss 0.6931; the start's 0.6931)"
    )


def test_cross_validation_fits_a_start_the_games_can_correct() -> None:
    """The start of 88% everywhere on games that follow the slope: the folds choose to
    train, and the fit on all the games scores close to the truth on other games."""
    wrong = _logistic(2.0, 0.0)
    model = fit(_sloped(2000, 1), start=wrong, epochs=40, learning_rate=0.05, folds=4)
    passes = re.fullmatch(r"(\d+) passes of 40 by 4-fold cross-validation .*", model.about)
    assert passes is not None and int(passes[1]) > 0, model.about
    test = _sloped(2000, 2)
    fitted = score([model.chance(r) for r in test.rows], test.won).log_loss
    start = score([wrong.chance(r) for r in test.rows], test.won).log_loss
    truth = score([_logistic(0.0, 1.0).chance(r) for r in test.rows], test.won).log_loss
    assert fitted < start - 0.3
    assert fitted < truth + 0.01


def test_more_folds_than_games_is_one_line() -> None:
    with pytest.raises(DeathAngelError, match="5 folds need at least 5 games, not 3"):
        fit(_even_pairs(3, 1), start=_logistic(0.0, 0.0), folds=5)


def test_a_fit_whose_model_could_not_be_written_is_refused_before_it_plays(
    tmp_path: Path,
) -> None:
    """``--out`` is checked first: a folder, or a file in a folder that does not exist, is
    one line before any game is played (not a traceback after the fit, the work lost)."""
    cases = {
        tmp_path: f"error: {tmp_path}: is a folder; name a file for --out\n",
        tmp_path / "nowhere" / "m.json": (
            f"error: {tmp_path / 'nowhere' / 'm.json'}: the folder {tmp_path / 'nowhere'} "
            "does not exist\n"
        ),
    }
    for out, message in cases.items():
        result = subprocess.run(
            [*(sys.executable, "-m", "deathangel", "value", "fit"), "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 1
        assert result.stderr == message
    assert [p.name for p in tmp_path.iterdir()] == []


def test_lambda_returns_by_hand() -> None:
    """Two games, the teacher's values written on the rows: game 1 (won) 0.4 then 0.8 at its
    second and third round starts, game 2 (lost) 0.6 at its second. By the recursion
    G[t] = (1 − λ)·v[t+1] + λ·G[t+1], the last round start the outcome:
    λ = 0.5: game 1 0.65, 0.9, 1; game 2 0.3, 0."""
    rows = ({"v": 0.1}, {"v": 0.4}, {"v": 0.8}, {"v": 0.3}, {"v": 0.6})
    positions = Positions(rows, (True,) * 3 + (False,) * 2, (7, 7, 7, 9, 9), (0.5,) * 5)

    def teacher(row: Mapping[str, float]) -> float:
        return row["v"]

    half = lambda_targets(positions, teacher, 0.5)
    assert half == pytest.approx((0.65, 0.9, 1.0, 0.3, 0.0), abs=1e-12)
    assert lambda_targets(positions, teacher, 1.0) == (1.0, 1.0, 1.0, 0.0, 0.0)
    assert lambda_targets(positions, teacher, 0.0) == pytest.approx((0.4, 0.8, 1.0, 0.6, 0.0))
    for bad in (-0.1, 1.5, math.nan):
        with pytest.raises(DeathAngelError, match="λ of the targets must be from 0 to 1"):
            lambda_targets(positions, teacher, bad)


def test_a_fit_to_targets_is_still_judged_on_the_outcomes() -> None:
    """Targets of 50% everywhere, on games that follow the slope, starting from half the
    true slope: every pass towards the targets flattens it further and makes the outcomes'
    loss worse, so a fit judged on the outcomes gives the start back unchanged, with one
    held-apart tenth or with folds (judged on the targets, it would move towards 50%).
    Fitted to the truth's own chances instead of the coin tosses, 300 games teach the slope
    better than their outcomes do."""
    truth = _logistic(0.0, 1.0)
    half = _logistic(0.0, 0.5)
    many = _sloped(2000, 4)
    flat = [0.5] * 2000
    assert fit(many, start=half, epochs=5, targets=flat) == half
    assert evolve(fit(many, start=half, epochs=5, targets=flat, folds=3), about="") == half
    games = _sloped(300, 4)
    wrong = _logistic(2.0, 0.0)
    test = _sloped(4000, 5)

    def loss(model: ValueModel) -> float:
        return score([model.chance(r) for r in test.rows], test.won).log_loss

    chances = [truth.chance(r) for r in games.rows]
    soft = fit(games, start=wrong, epochs=150, learning_rate=0.05, targets=chances, folds=3)
    hard = fit(games, start=wrong, epochs=150, learning_rate=0.05, folds=3)
    assert loss(soft) < loss(hard)
    assert loss(soft) < loss(truth) + 0.005
    with pytest.raises(DeathAngelError, match="299 targets for 300 positions"):
        fit(games, start=truth, targets=flat[:299])


def test_td_lambda_is_checked_before_any_game(tmp_path: Path) -> None:
    """--td-lambda out of range, or below 1 with no model to take later values from: one
    line, exit 1, nothing played and nothing written."""
    out = tmp_path / "m.json"
    cases = {
        ("--td-lambda", "1.5"): "error: --td-lambda must be from 0 to 1, not 1.5\n",
        ("--td-lambda", "0.5"): (
            "error: --td-lambda below 1 blends in a model's values of later positions: "
            "give it --start\n"
        ),
    }
    for args, message in cases.items():
        result = subprocess.run(
            [sys.executable, "-m", "deathangel", "value", "fit", "--out", str(out), *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (result.returncode, result.stderr) == (1, message)
    assert not out.exists()


def test_a_paired_log_loss_counts_each_game_once() -> None:
    """Game 0 (won) at 0.5 and 0.8, game 1 (lost) at 0.5, against 0.5 everywhere: game 0's
    summed difference is d = ln(0.5) − ln(0.8) = ln(5/8), game 1's 0; the mean over the three
    round starts d/3; the games' residuals d − 2·d/3 = d/3 (a game of two positions counts
    the mean twice) and −d/3, so the cluster spread is √(2·(d/3)²·2/1) = 2|d|/3 and the
    error 2|d|/9 (residuals about the mean taken once per game instead, 2d/3 and −d/3,
    would give an error of √10·|d|/9)."""
    positions = Positions(({}, {}, {}), (True, True, False), (0, 0, 1), (0.5, 0.5, 0.5))
    paired = paired_log_loss([0.5, 0.8, 0.5], [0.5, 0.5, 0.5], positions)
    d = math.log(5 / 8)
    assert paired.difference == pytest.approx(d / 3, abs=1e-12)
    assert paired.low == pytest.approx(d / 3 - 1.96 * 2 * abs(d) / 9, abs=1e-12)
    assert paired.high == pytest.approx(d / 3 + 1.96 * 2 * abs(d) / 9, abs=1e-12)
    assert paired.games == 2
    one = Positions(({}, {}), (True, True), (0, 0), (0.5, 0.5))
    with pytest.raises(DeathAngelError, match="two games or more"):
        paired_log_loss([0.5, 0.8], [0.5, 0.5], one)
