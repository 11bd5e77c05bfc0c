"""The learning examples in docs/examples run as docs/learning.md shows them (with tiny
budgets): OpenSpiel's MCTS plays the same games every time, the instruction-count script runs
every mode, and the training script says in one line what it needs when that is missing."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from plugin_kit import ROOT

EXAMPLES = ROOT / "docs" / "examples"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=ROOT
    )


def test_openspiel_mcts_plays_the_same_games_each_time() -> None:
    command = (str(EXAMPLES / "openspiel_mcts.py"), "--games", "2", "--simulations", "3")
    first, second = run(*command), run(*command)
    assert first.returncode == 0, first.stderr
    line = (
        r" *(mcts|random): \d/2 won, mean locations reached \d\.\d\d "
        r"\(\d+ s; games 700000\.\.700001\)"
    )
    lines = first.stdout.splitlines()
    assert [re.fullmatch(line, x) is not None for x in lines] == [True, True]
    # The seconds aside, the same command prints the same figures (its sampler is seeded).
    same = [re.sub(r"\(\d+ s;", "(s;", x) for x in (first.stdout, second.stdout)]
    assert same[0] == same[1]


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
