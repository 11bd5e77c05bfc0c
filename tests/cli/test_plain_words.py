"""Errors in plain words (one line naming the file, the field or the line and what was
expected; never an internal repr) and ``--json`` wherever a program may read the output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deathangel.cards.load import base_card_dir
from deathangel.engine.game import Game, GameConfig
from deathangel.errors import SaveFileError
from deathangel.players import RandomPlayer
from deathangel.tui.play import load_game

BASE = base_card_dir()
REPO = Path(__file__).resolve().parents[2]
INTERNAL = ("Traceback", "KeyError", "TypeError", "ValueError", "Option(", "<", "{'", "[Errno")


def run(*args: str | Path, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *map(str, args)], cwd=cwd, input=stdin,
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "COLUMNS": "120"},
    )  # fmt: skip


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert not any(word in result.stderr for word in INTERNAL), result.stderr
    return result.stderr.strip()


def save_data(decisions: int = 3) -> dict[str, Any]:
    game = Game(GameConfig(1, seed=5))
    bot = RandomPlayer(1)
    for _ in range(decisions):
        assert game.decision is not None
        game.apply(bot.choose(None, game.decision))
    return game.to_save()


BROKEN: dict[str, tuple[Any, str]] = {
    "no-config": ({"config": None}, "bad.json: the save has no 'config'"),
    "config-not-object": ({"config": [1, 5]}, "bad.json: 'config' must be an object, not [1, 5]"),
    "players-a-word": (
        {"config": {"players": "two", "seed": 5, "teams": None, "handicap": 0}},
        'bad.json: config.players must be a whole number, not "two"',
    ),
    "no-seed": (
        {"config": {"players": 1, "teams": None}},
        "bad.json: 'config' has no 'seed' (a whole number)",
    ),
    "negative-handicap": (
        {"config": {"players": 1, "seed": 5, "teams": None, "handicap": -2}},
        "bad.json: config.handicap must be 0 or more, not -2",
    ),
    "decisions-not-list": (
        {"decisions": "all of them"},
        "bad.json: 'decisions' must be a list of decisions, not \"all of them\"",
    ),
    "decision-not-list": (
        {"decisions": [5]},
        'bad.json: decision 1 must be a list such as ["card", "Block"], not 5',
    ),
    "illegal-decision": (
        {"decisions": [["card", "Teleport Everyone"]]},
        "bad.json: decision 1 of the save cannot be replayed: 'play Teleport Everyone' is not a "
        "legal answer in round 1",
    ),
}


@pytest.mark.parametrize("case", list(BROKEN), ids=list(BROKEN))
def test_a_broken_save_is_refused_naming_the_field(tmp_path: Path, case: str) -> None:
    """In process (what ``play --resume`` and ``replay`` call); the command line's one-line
    form is checked once below."""
    change, message = BROKEN[case]
    data = save_data()
    for key, value in change.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveFileError) as caught:
        load_game(tmp_path / "bad.json")
    error = str(caught.value)
    assert error.startswith(f"{tmp_path / message}"), error
    assert "\n" not in error and not any(word in error for word in INTERNAL), error


def test_a_broken_save_is_one_line_at_the_command_line(tmp_path: Path) -> None:
    data = save_data()
    data["config"]["players"] = "two"
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    error = one_line_error(run("play", "--resume", "bad.json", cwd=tmp_path))
    assert error == 'error: bad.json: config.players must be a whole number, not "two"'


@pytest.mark.parametrize("command", [("play", "--resume"), ("replay",)])
def test_a_missing_save_is_named_once_with_the_reason_in_words(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    error = one_line_error(run(*command, "missing.json", cwd=tmp_path))
    assert error == "error: missing.json: cannot read save file: No such file or directory"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("replay", "x.json", "--speed", "nan"), "--speed must be 0 or more seconds, not nan"),
        (("replay", "x.json", "--speed", "inf"), "--speed must be 0 or more seconds, not inf"),
        (
            ("value", "fit", "--learning-rate", "nan", "--out", "m.json"),
            "--learning-rate must be above 0 (finite), not nan",
        ),
    ],
)
def test_a_number_that_is_not_one_is_refused_in_words(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    """NaN passes every "less than" test: each number is checked for what it must be."""
    assert one_line_error(run(*args, cwd=tmp_path)) == f"error: {message}"
    assert list(tmp_path.iterdir()) == []


def test_value_fit_with_no_passes_is_refused_before_any_game(tmp_path: Path) -> None:
    """No pass over the positions would write the random starting weights as a fit."""
    error = one_line_error(run("value", "fit", "--epochs", "0", "--out", "m.json", cwd=tmp_path))
    assert error == "error: --epochs must be at least 1, not 0"
    assert list(tmp_path.iterdir()) == []


def test_value_fit_leaving_out_nothing_is_said_before_the_held_out_games(tmp_path: Path) -> None:
    args = (
        "value",
        "fit",
        "-n",
        "2",
        "--holdout",
        "400",
        "--exclude",
        "marin *",
        "--out",
        "m.json",
    )
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    last = result.stderr.splitlines()[-1]
    assert last == "error: cannot leave out 'marin *': no feature of the games matches"
    assert "held-out" not in result.stderr  # the 400 games never began
    assert list(tmp_path.iterdir()) == []


def test_a_negative_handicap_is_refused_in_words(tmp_path: Path) -> None:
    error = one_line_error(run("play", "--handicap", "-1", cwd=tmp_path))
    assert error == "error: --handicap must be 0 or more support tokens, not -1"


def test_a_bad_line_of_an_input_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "answers.txt").write_text("1\nxyz\n7\n", encoding="utf-8")
    result = run("play", "--seed", "3", "--input", "answers.txt", cwd=tmp_path)
    assert result.returncode == 2
    assert "answers.txt, line 2: 'xyz' is not an option or a command" in result.stdout
    assert "answers.txt, line 3: There is no option 7" in result.stdout


# -- --json ----------------------------------------------------------------------------------------


def test_cards_list_and_show_as_json(tmp_path: Path) -> None:
    listed = run("cards", "list", "--kind", "terrain", "--dir", BASE, "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert {row["name"] for row in rows} == {
        "Corridor", "Artefact", "Control Panel", "Door", "Promethium Tank", "Dark Corner",
        "Spore Chimney", "Ventilation Duct",
    }  # fmt: skip
    assert {row["kind"] for row in rows} == {"terrain"}
    shown = run("cards", "show", "dead aim", "--dir", BASE, "--json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    (card,) = json.loads(shown.stdout)
    facts = {f["field"]: f["value"] for f in card["facts"]}
    assert (card["kind"], card["name"], facts["initiative"], facts["team"]) == (
        "action", "Dead Aim", "16", "green",
    )  # fmt: skip


def test_scenario_check_as_json(tmp_path: Path) -> None:
    result = run("scenario", "check", REPO / "docs" / "examples" / "dead_aim.toml", "--json",
                 cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["ok"] is True and data["title"] == "Dead Aim into a swarm of three"
    assert data["state"]["formation"][0]["marine"] == "Sergeant Gideon"


def test_replay_as_json_is_a_list_of_events(tmp_path: Path) -> None:
    data = save_data(decisions=12)
    (tmp_path / "g.json").write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", "g.json", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    events = json.loads(result.stdout)
    assert [e["type"] for e in events] == ["start"] + ["decision"] * 12 + ["end"]
    assert [e["code"] for e in events[1:-1]] == data["decisions"]
    game = Game(GameConfig(1, seed=5), log=True)
    for code in data["decisions"]:
        game.apply(code)
    assert [line for e in events[:-1] for line in e["log"]] == game.log
    assert events[-1]["outcome"] is None


def test_cards_validate_json_prints_its_error_as_json(tmp_path: Path) -> None:
    bad = tmp_path / "cards"
    bad.mkdir()
    (bad / "terrain.toml").write_text('[[terrain]]\nname = "Door\n', encoding="utf-8")
    result = run("cards", "validate", "--dir", bad, "--json", cwd=tmp_path)
    assert result.returncode == 1
    error = json.loads(result.stdout)["error"]
    assert error.startswith("cards/terrain.toml: line 2, column "), error


def test_cards_validate_an_empty_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    error = one_line_error(run("cards", "validate", "--dir", "empty", cwd=tmp_path))
    assert error == "error: empty: no card files found (no *.toml file in it)"
    result = run("cards", "validate", "--dir", "empty", "--json", cwd=tmp_path)
    assert result.returncode == 1
    assert json.loads(result.stdout) == {
        "error": "empty: no card files found (no *.toml file in it)"
    }
