"""The learning examples in docs/examples run as docs/learning.md shows them (with tiny
budgets): OpenSpiel's MCTS prints its figures and plays the same games every time, the
instruction-count script runs every mode, and the training script says in one line what it
needs when that is missing."""

from __future__ import annotations

import re
import runpy
import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from plugin_kit import ROOT

EXAMPLES = ROOT / "docs" / "examples"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=ROOT
    )


def test_openspiel_mcts_prints_its_figures_as_documented() -> None:
    result = run(str(EXAMPLES / "openspiel_mcts.py"), "--games", "2", "--simulations", "3")
    assert result.returncode == 0, result.stderr
    line = (
        r" *(mcts|random): \d/2 won, mean locations reached \d\.\d\d "
        r"\(\d+ s; games 700000\.\.700001\)"
    )
    lines = result.stdout.splitlines()
    assert [re.fullmatch(line, x) is not None for x in lines] == [True, True]


def test_openspiel_mcts_plays_the_same_game_each_time() -> None:
    """Its deals are drawn from a sampler seeded by the game seed, so the same command plays
    the same games: the same bot plays one game twice, action for action. (Its printed
    figures are too coarse to show this: an unseeded sampler often prints the same ones.)"""
    example = runpy.run_path(str(EXAMPLES / "openspiel_mcts.py"), run_name="example")
    mcts = example["mcts"]
    game = pyspiel.load_game("python_deathangel", {"players": 2})
    made = game.new_initial_state
    states = []

    def keep(**kwargs: object) -> object:
        states.append(made(**kwargs))
        return states[-1]

    game.new_initial_state = keep
    histories = []
    for _ in range(2):
        states.clear()
        bot = mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=8,
            evaluator=mcts.RandomRolloutEvaluator(
                n_rollouts=1, random_state=np.random.RandomState(1)
            ),
            random_state=np.random.RandomState(1),
        )
        example["play"](game, 700000, bot)
        histories.append(states[0].history())  # the real game; the others are its deals
    assert histories[0] == histories[1] and len(histories[0]) > 20


@pytest.mark.parametrize(
    "mode", ["none", "engine", "observe", "encode", "legal", "env", "env-flat"]
)
def test_env_step_instructions_runs_every_mode(mode: str) -> None:
    result = run(str(EXAMPLES / "env_step_instructions.py"), mode, "2")
    assert result.returncode == 0, result.stderr
    found = re.fullmatch(r"mode (\S+): 2 games, (\d+) decisions\n", result.stdout)
    assert found is not None and found[1] == mode
    assert (int(found[2]) == 0) == (mode == "none")


# Runs the training script with torch and sb3-contrib hidden from imports, so the test reads
# the same whatever this environment has installed.
_WITHOUT_TRAINING = """
import runpy, sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "sb3_contrib", "stable_baselines3"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Hide())
sys.argv = [sys.argv[1], "--help"]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def test_the_training_example_says_what_to_install_in_one_line() -> None:
    result = run("-c", _WITHOUT_TRAINING, str(EXAMPLES / "train_maskable_ppo.py"))
    assert result.returncode == 1
    assert result.stderr == (
        "this example needs torch and sb3-contrib (torch is missing): pip install a CPU build "
        "of torch, then pip install -r docs/examples/requirements-train.txt\n"
    )
