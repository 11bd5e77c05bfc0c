"""``deathangel check``: games with a plugin, the invariants checked after every decision.

The base game passes; the planted ``faulty`` plugin (tests/designer_plugins.py: a support
card that makes a token from nothing) is found, and the command printed with the fault plays
that game again and finds the same fault. The command runs for real, in a subprocess with the
plugin installed on ``PYTHONPATH``."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from designer_plugins import designer_site, stopper_site
from designer_plugins import run_with_site as deathangel
from support import TEST_BOT_KEY

from deathangel.analysis.check import CheckInterrupted, check_games, replay_command
from deathangel.errors import DeathAngelError
from deathangel.plugins.ruleset import load_ruleset
from deathangel.plugins.strategies import Strategy, strategies


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return designer_site(tmp_path_factory.mktemp("site"))


def test_the_base_game_passes_every_player_count_and_bot() -> None:
    result = check_games(
        None, strategies(), games=12, players=[1, 2, 3, 4, 5, 6], bot_key=TEST_BOT_KEY
    )
    assert result.ok, result.faults
    assert result.games == 12
    assert result.decisions > 12 * 10


def test_a_planted_fault_is_found_and_its_command_finds_it_again(
    site: Path, tmp_path: Path
) -> None:
    found = deathangel(
        "check", "--with", "faulty", "-n", "40", "--bot-key", TEST_BOT_KEY, "--max-faults", "3",
        site=site, cwd=tmp_path,
    )  # fmt: skip
    assert found.returncode == 1, found.stderr
    lines = found.stdout.splitlines()
    faults = [line for line in lines if line.startswith("FAULT in game ")]
    replays = [line for line in lines if line.startswith("  replay: ")]
    assert len(faults) == len(replays) == 3
    for line in faults:
        assert "invariant broken: " in line
        assert "support tokens: supply " in line and ", not 12" in line
    assert lines[-1].startswith("3 game(s) checked") or "3 fault(s)" in lines[-1]
    # The first fault's command, word for word (deathangel is this environment's).
    command = shlex.split(replays[0][len("  replay: ") :])
    assert command[:4] == ["deathangel", "check", "--with", "faulty"]
    assert command[-2:] == ["--bot-key", TEST_BOT_KEY]
    again = deathangel(*command[1:], site=site, cwd=tmp_path)
    assert again.returncode == 1, again.stderr
    first = faults[0]
    problem = first[first.index("): ") + 3 :]
    assert f"): {problem}" in again.stdout.splitlines()[0]
    assert "1 game(s) checked" in again.stdout


def test_without_the_fault_the_same_games_pass(site: Path, tmp_path: Path) -> None:
    """The check can fail only for the planted card: the same games with the overpowered
    plugin (whose cards keep every invariant) pass."""
    result = deathangel(
        "check", "--with", "overpowered", "-n", "12", "--bot-key", TEST_BOT_KEY,
        site=site, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "12 game(s) checked (1, 2, 3, 4, 5, 6 player(s); random, rules)" in result.stdout
    assert "no fault" in result.stdout


def test_a_bot_that_raises_is_a_fault_in_one_line() -> None:
    found = strategies()
    crash = Strategy("crash", "Raises.", (), _Crashing, "tests")
    result = check_games(
        None, {**found, "crash": crash}, games=1, players=[2], strategies=["crash"],
        bot_key=TEST_BOT_KEY,
    )  # fmt: skip
    assert not result.ok
    (fault,) = result.faults
    assert fault.problem == "RuntimeError: a bot that breaks (round 1, phase choose_actions)"
    assert "Traceback" in fault.detail and "a bot that breaks" in fault.detail
    assert fault.command.endswith(f"--strategy crash --seed 0 --games 1 --bot-key {TEST_BOT_KEY}")


class _Crashing:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, observation: object, decision: object) -> object:
        raise RuntimeError("a bot that breaks")


def test_a_stopped_check_says_what_the_games_played_so_far_found(tmp_path: Path) -> None:
    """SIGTERM in the third game of a long check: before, the process died with no word
    (Ctrl-C likewise, status 130 and nothing said). Now it counts the two games it finished
    and says it was stopped, with the status of a stopped run."""
    site = stopper_site(tmp_path / "site")
    result = deathangel(
        "check", "--with", "stopper", "-n", "1000", "-p", "1", "--strategy", "stopper",
        "--bot-key", TEST_BOT_KEY,
        site=site, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 130, result.stderr
    (line,) = result.stdout.splitlines()
    assert line.startswith("2 game(s) checked (1 player(s); stopper), ")
    assert "the invariants checked after each: no fault, stopped after 2 of 1000 games " in line
    assert "(interrupted)" in line


def test_a_check_interrupted_keeps_the_faults_found_so_far() -> None:
    """Ctrl-C (a KeyboardInterrupt) inside a game ends the check, carrying what the games
    before it found: the faults, the games counted, ``interrupted`` set."""
    found = strategies()
    calls = [0]

    class Breaks(_Crashing):
        def choose(self, observation: object, decision: object) -> object:
            calls[0] += 1
            if calls[0] == 3:
                raise KeyboardInterrupt
            raise RuntimeError("a bot that breaks")

    crash = Strategy("breaks", "Raises.", (), Breaks, "tests")
    with pytest.raises(CheckInterrupted) as stopped:
        check_games(
            None, {**found, "breaks": crash}, games=10, players=[1], strategies=["breaks"],
            bot_key=TEST_BOT_KEY,
        )  # fmt: skip
    # Still a KeyboardInterrupt: a script calling check_games stops as at any Ctrl-C.
    assert isinstance(stopped.value, KeyboardInterrupt)
    result = stopped.value.result
    assert result.interrupted
    assert result.games == 2
    assert [f.game for f in result.faults] == [0, 1]


def test_the_replay_command_names_everything_that_makes_the_game() -> None:
    rules = load_ruleset()
    assert replay_command(rules, 3, "rules:rules=my file.toml", 17, TEST_BOT_KEY) == (
        "deathangel check --players 3 --strategy 'rules:rules=my file.toml' --seed 17 "
        f"--games 1 --bot-key {TEST_BOT_KEY}"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "error: --players must be between 1 and 6, not 7\n"),
        (["--bot-key", "xyz"], "error: --bot-key: "),
        (["--strategy", "nobody"], "error: unknown strategy 'nobody'"),
        (["--games", "0"], "error: --games must be at least 1, not 0\n"),
        (["--with", "nosuchplugin"], "error: "),
    ],
)
def test_bad_input_is_one_line(site: Path, tmp_path: Path, args: list[str], message: str) -> None:
    result = deathangel("check", *args, site=site, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1


def test_check_games_refuses_nonsense() -> None:
    with pytest.raises(DeathAngelError, match="at least one strategy"):
        check_games(None, strategies(), games=1, players=[1], strategies=[], bot_key=TEST_BOT_KEY)
