"""docs/examples/card_policy.py: the search's card choices learned as a rule file.

Known answers: in games the default rules played, the rules' score read for each card picks
the card played at every decision without a tie; a term naming a card is 1 exactly at that
card's options; the solver finds the weights of choices drawn from a known logit; and the
written rule file, loaded as any rule file is, picks at every decision what the model picks.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from support import TEST_BOT_KEY

from deathangel.analysis.positions import PositionsConfig, PositionStore, play_into
from deathangel.engine.decisions import Option
from deathangel.engine.game import Game, GameConfig
from deathangel.players.rules.player import RuleSet

SEED = 350100


def _script() -> ModuleType:
    from example_kit import load_example

    return load_example("card_policy")


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, Path, Path]:
    """Three solo games of the default rules, stored and extracted."""
    script = _script()
    folder = tmp_path_factory.mktemp("card_policy")
    games = folder / "rules-games.db"
    with PositionStore.open(games, PositionsConfig("rules", (1,), SEED, 3, TEST_BOT_KEY)) as s:
        play_into(s)
    script.extract(argparse.Namespace(data=str(folder / "data"), games=[str(games)]))
    return script, games, folder / "data" / "rules-games.npz"


def _card_decisions(games: Path) -> list[tuple[Game, list[Option], int]]:
    """Every Choose Actions decision with a choice of the stored games, replayed: the game
    (a clone at the decision), the cards offered, the index of the one played."""
    with PositionStore.open(games) as store:
        seed, played = store.config.seed, store.games()
    out = []
    for stored in played:
        game = Game(GameConfig(stored.seats, seed=seed + stored.index))
        for code in stored.decisions or ():
            decision = game.decision
            assert decision is not None
            option = Option.from_code(code)
            if decision.kind == "choose_action" and len(decision.options) > 1:
                options = list(decision.options)
                out.append((game.clone(), options, options.index(option)))
            game.apply(option)
    return out


def test_the_rules_score_picks_the_card_the_rules_played(
    extracted: tuple[ModuleType, Path, Path],
) -> None:
    script, games, data_path = extracted
    data = script.Data(data_path)
    replayed = _card_decisions(games)
    assert len(data.chosen) == len(replayed) > 20
    assert list(data.chosen) == [played for _, _, played in replayed]
    default = RuleSet.load("default")
    untied = 0
    for row, (game, _, played) in enumerate(replayed):
        decision = game.decision
        assert decision is not None
        expected = default.scores(game.observation(decision.seat), decision)
        n = len(expected)
        assert list(data.x[row, :n, 0]) == expected
        if expected.count(max(expected)) == 1:
            untied += 1
            assert int(np.argmax(expected)) == played
    assert untied > 20


def test_a_term_naming_a_card_is_one_exactly_at_its_options(
    extracted: tuple[ModuleType, Path, Path],
) -> None:
    script, games, data_path = extracted
    data = script.Data(data_path)
    for name in ("Block", "Dead Aim", "Overwatch"):
        column = 1 + data.terms.index(f"(card == {name!r})")
        for row, (_, options, _) in enumerate(_card_decisions(games)):
            cards = [option.args[0] for option in options]
            assert list(data.x[row, : len(cards), column]) == [float(c == name) for c in cards]


def test_the_solver_finds_the_weights_of_a_known_logit() -> None:
    script = _script()
    rng = np.random.default_rng(5)
    n, k = 6000, 3
    x = rng.normal(size=(n, k, 3))
    mask = np.ones((n, k), dtype=bool)
    mask[: n // 2, 2] = False  # half the decisions offer two cards
    truth = np.array([1.5, -0.8, 0.4])
    u = np.where(mask, x @ truth, -np.inf)
    p = np.exp(u - u.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    chosen = np.array([rng.choice(k, p=row) for row in p])
    theta = script.fit_one(x, mask, chosen, 0.0)
    assert theta == pytest.approx(truth, abs=0.12)
    # A penalty shrinks the terms, never the rules' own scale.
    shrunk = script.fit_one(x, mask, chosen, 10.0)
    assert np.all(np.abs(shrunk[1:]) < np.abs(theta[1:]) / 3)
    assert shrunk[0] > 1.0


def test_the_written_file_picks_what_the_model_picks(
    extracted: tuple[ModuleType, Path, Path], tmp_path: Path
) -> None:
    script, games, data_path = extracted
    data = script.Data(data_path)
    theta = np.zeros(data.x.shape[2])
    theta[0] = 2.0
    theta[1 + data.terms.index("(card == 'Block')")] = 0.9
    theta[1 + data.terms.index("(card_kind == 'support') * (round == 1)")] = 0.5
    theta[1 + data.terms.index("card_kills")] = -0.7
    model = script.picks(theta, data.x, data.mask)
    path = tmp_path / "learned.toml"
    script.write(path, data.terms, theta, 0.001)
    learned = RuleSet.load(path)
    differ = 0
    for row, (game, _, _) in enumerate(_card_decisions(games)):
        decision = game.decision
        assert decision is not None
        scores = learned.scores(game.observation(decision.seat), decision)
        assert scores.count(max(scores)) == 1
        assert int(np.argmax(scores)) == model[row]
        differ += int(model[row] != np.argmax(data.x[row, : len(scores), 0]))
    assert differ > 0  # the weights above change some choices: the test can tell


def test_a_missing_or_corrupt_input_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    from example_kit import EXAMPLES

    (tmp_path / "bad.npz").write_text("not arrays", encoding="utf-8")
    for args, named in (
        (["extract", str(tmp_path / "data"), "--games", str(tmp_path / "nope.db")], "nope.db"),
        (["fit", str(tmp_path / "bad.npz"), "--holdout", str(tmp_path / "bad.npz")], "pickle"),
    ):
        result = subprocess.run(
            [sys.executable, str(EXAMPLES / "card_policy.py"), *args],
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 1
        assert result.stderr.count("\n") == 1 and named in result.stderr, result.stderr
        assert result.stderr.startswith(f"card_policy.py {args[0]}: ")
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").iterdir())
