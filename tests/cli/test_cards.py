"""``deathangel cards``: the real command in a subprocess (exit codes, stdout/stderr as a user
sees them), plus the plain functions behind it called directly."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import reference_counts

from deathangel.cards.load import base_card_dir
from deathangel.cli.cards import list_cards, show_card, validate_cards
from deathangel.errors import DeathAngelError

BASE = base_card_dir()
KEYS = ["marines", "actions", "genestealers", "brood_lords", "events", "locations", "terrain"]


@pytest.fixture(scope="module")
def expected_counts() -> dict[str, int]:
    """Counts per kind, from the reference card list rather than the TOML under test."""
    return reference_counts()


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
        check=False,
    )


def broken_copy(tmp_path: Path) -> Path:
    cards = tmp_path / "cards"
    shutil.copytree(BASE, cards)
    events = cards / "events.toml"
    text = events.read_text(encoding="utf-8")
    start = text.index('name = "Full Scan"')
    old = '{ size = "major", color = "yellow" }'
    at = text.index(old, start)
    text = text[:at] + '{ size = "major", color = "blue" }' + text[at + len(old) :]
    events.write_text(text, encoding="utf-8")
    return cards


# -- subprocess ------------------------------------------------------------------------------


def test_validate_json(expected_counts: dict[str, int]) -> None:
    # The base game named: installed plugins add their own cards to the default.
    result = run("cards", "validate", "--dir", str(BASE), "--json")
    assert result.returncode == 0, result.stderr
    counts = json.loads(result.stdout)
    assert list(counts) == KEYS
    assert counts == expected_counts


def test_validate_text(expected_counts: dict[str, int]) -> None:
    result = run("cards", "validate", "--dir", str(BASE))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for key, count in expected_counts.items():
        assert any(line.split() == [key, str(count)] for line in lines), (key, result.stdout)


def test_validate_given_dir(expected_counts: dict[str, int]) -> None:
    result = run("cards", "validate", "--dir", str(BASE), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == expected_counts


def test_validate_broken_dir_fails_naming_the_file(tmp_path: Path) -> None:
    cards = broken_copy(tmp_path)
    result = run("cards", "validate", "--dir", str(cards), cwd=tmp_path)
    assert result.returncode != 0
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: cards/events.toml: event 'Full Scan': "), lines[0]
    assert "field 'spawns[1].color'" in lines[0]
    assert "unknown terrain colour 'blue'" in lines[0]
    # With --json, the same message as JSON on standard output.
    result = run("cards", "validate", "--dir", str(cards), "--json", cwd=tmp_path)
    assert result.returncode == 1
    assert json.loads(result.stdout) == {"error": lines[0].removeprefix("error: ")}


def test_validate_broken_toml_fails_with_line(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(BASE, cards)
    (cards / "terrain.toml").write_text('[[terrain]]\nname = "Door\n', encoding="utf-8")
    result = run("cards", "validate", "--dir", str(cards))
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {cards / 'terrain.toml'}: line 2, column "), (
        result.stderr
    )


def test_validate_a_file_without_cards_says_so(tmp_path: Path) -> None:
    empty = tmp_path / "expansion.toml"
    empty.write_text("# cards to come\n", encoding="utf-8")
    result = run("cards", "validate", str(empty))
    assert result.returncode == 1
    assert result.stderr == (
        f"error: {empty}: no cards in it (a card is a [[team]], [[event]], [[location]]... table)\n"
    )
    as_json = run("cards", "validate", str(empty), "--json")
    assert as_json.returncode == 1 and "no cards in it" in json.loads(as_json.stdout)["error"]


def test_validate_missing_dir_fails(tmp_path: Path) -> None:
    result = run("cards", "validate", "--dir", str(tmp_path / "nowhere"))
    assert result.returncode != 0
    assert "nowhere" in result.stderr and "Traceback" not in result.stderr


def test_show_card() -> None:
    result = run("cards", "show", "dead aim")
    assert result.returncode == 0, result.stderr
    assert "Dead Aim" in result.stdout
    assert "16" in result.stdout and "attack_face_slays" in result.stdout


def test_show_a_narrow_card_keeps_its_title_on_one_line() -> None:
    result = run("cards", "show", "Brother Leon")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].strip() == "marine 'Brother Leon'", result.stdout


def test_show_unknown_card_suggests() -> None:
    result = run("cards", "show", "Blok")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: no card named 'Blok'"), result.stderr
    assert "'Block'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_list_kind() -> None:
    result = run("cards", "list", "--kind", "terrain")
    assert result.returncode == 0, result.stderr
    for name in ("Corridor", "Artefact", "Control Panel", "Door", "Promethium Tank"):
        assert name in result.stdout
    assert "Sergeant Gideon" not in result.stdout


def test_list_rejects_unknown_kind() -> None:
    result = run("cards", "list", "--kind", "spaceship")
    assert result.returncode != 0


# -- plain functions -------------------------------------------------------------------------


def test_validate_cards_function(expected_counts: dict[str, int]) -> None:
    assert validate_cards(dirs=[BASE]) == expected_counts


def test_list_cards_function() -> None:
    actions = list_cards(kind="action", dirs=[BASE])
    assert len(actions) == 18
    assert [r.name for r in actions[:3]] == ["Block", "Defensive Stance", "Counter Attack"]
    assert actions[0].facts == "initiative 1, support, team green"
    every = list_cards(dirs=[BASE])
    assert {r.kind for r in every} == {
        "team",
        "marine",
        "action",
        "genestealer",
        "brood_lord",
        "terrain",
        "setup_location",
        "location",
        "event",
    }


def test_show_card_function() -> None:
    twins = show_card(name="Out of Thin Air", dirs=[BASE])
    assert [c.kind for c in twins] == ["event", "event"]
    moves = [dict(c.lines)["move"] for c in twins]
    assert moves == ["flank head", "flank claw"]
    lair = dict(show_card(name="genestealer lair", dirs=[BASE])[0].lines)
    assert lair["victory"] == "brood_lords_slain()"
    with pytest.raises(DeathAngelError, match="did you mean 'Door'"):
        show_card(name="Dor", dirs=[BASE])


def test_validate_cards_function_reports_broken_dir(tmp_path: Path) -> None:
    with pytest.raises(DeathAngelError, match=r"events\.toml: event 'Full Scan'"):
        validate_cards(dirs=[broken_copy(tmp_path)])
