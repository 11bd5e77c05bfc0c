"""Acceptance: the plugins under plugins/ install with pip into a fresh environment, show in
``deathangel plugins list``, and play complete games with ``play --with`` and
``simulate --with``; a deliberately broken one installed beside them is one line naming it,
and ``deathangel play`` still starts."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from plugin_kit import ROOT, fresh_venv, pip_install

BROKEN_PYPROJECT = """\
[build-system]
requires = ["hatchling>=1.25"]
build-backend = "hatchling.build"

[project]
name = "deathangel-broken"
version = "0.0.1"

[project.entry-points.deathangel]
broken = "deathangel_broken"

[tool.hatch.build.targets.wheel]
packages = ["deathangel_broken"]
"""


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("install")
    python = fresh_venv(folder / "venv")
    broken = folder / "deathangel-broken"
    (broken / "deathangel_broken").mkdir(parents=True)
    (broken / "pyproject.toml").write_text(BROKEN_PYPROJECT, encoding="utf-8")
    (broken / "deathangel_broken" / "__init__.py").write_text(
        "from deathangel.plugins import hookimpl\n"
        "import deathangel_no_such_module  # the deliberate break\n",
        encoding="utf-8",
    )
    pip_install(
        python,
        str(ROOT / "plugins" / "deathangel-variants"),
        str(ROOT / "plugins" / "deathangel-broodwake"),
        str(broken),
    )
    return python


def deathangel(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    return subprocess.run(
        [str(python), "-m", "deathangel", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_plugins_list_shows_both_and_what_they_add(python: Path, tmp_path: Path) -> None:
    result = deathangel(python, "plugins", "list", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "variants (deathangel-variants 1.0.0) — House rules: loads" in out
    assert "broodwake (deathangel-broodwake 1.0.0) — Broodwake: loads" in out
    assert "broken (deathangel-broken 0.0.1): DOES NOT LOAD" in out
    assert "No module named 'deathangel_no_such_module'" in out
    listed = {
        p["name"]: p
        for p in json.loads(deathangel(python, "plugins", "list", "--json", cwd=tmp_path).stdout)
    }
    brood = listed["broodwake"]
    assert brood["teams"] == ["white"] and brood["enemies"] == ["Tunnel Burrower"]
    assert brood["cards"] == {"teams": 1, "terrain": 1, "locations": 1, "events": 3, "enemies": 3}
    assert brood["strategies"] == ["hoarder"] and brood["variants"] == ["no_burrowers"]
    assert brood["decks"] == {"locations": "replace: Black Holds"}
    assert "defence=easier|harder" in listed["variants"]["variants"]
    # Every installed plugin's strategy is listed; one not named says what a game needs.
    for named, needs in (([], "--with broodwake"), (["--with", "broodwake"], None)):
        rows = json.loads(
            deathangel(python, "strategies", "list", "--json", *named, cwd=tmp_path).stdout
        )
        by_name = {row["name"]: row for row in rows}
        assert [r["name"] for r in rows][:3] == ["random", "rules", "mcts"]
        assert (by_name["hoarder"]["plugin"], by_name["hoarder"]["needs"]) == ("broodwake", needs)
    # Seating it without naming the plugin is refused with that hint, in one line.
    refused = deathangel(python, "simulate", "--strategy", "hoarder", "-n", "1", cwd=tmp_path)
    assert refused.returncode != 0
    assert refused.stderr.strip().endswith(
        "(the installed plugin 'broodwake' offers it: add --with broodwake)"
    )


@pytest.mark.parametrize(
    "options",
    [
        ["--with", "broodwake", "--seat", "1=bot:hoarder"],
        [
            "--with",
            "broodwake",
            "--players",
            "3",
            "--seat",
            "1=bot:random",
            "--seat",
            "2=bot:random",
            "--seat",
            "3=bot:hoarder",
        ],
        [
            "--with",
            "variants",
            "--variant",
            "defence=easier",
            "--variant",
            "choose_teams",
            "--variant",
            "no_instinct",
            "--players",
            "2",
            "--seat",
            "1=bot:random",
            "--seat",
            "2=bot:random",
        ],
        [
            "--with",
            "variants",
            "--with",
            "broodwake",
            "--variant",
            "starting_support=1",
            "--variant",
            "no_burrowers",
            "--seat",
            "1=bot:random",
        ],
    ],
)
def test_play_with_plays_a_complete_game(python: Path, tmp_path: Path, options: list[str]) -> None:
    save = tmp_path / "game.json"
    result = deathangel(python, "play", "--seed", "11", "--save", str(save), *options, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Game over:" in result.stdout
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["pending"] is None  # a finished game
    names = [name for name, _ in data["config"]["plugins"]]
    assert names == [o for i, o in enumerate(options) if i and options[i - 1] == "--with"]
    # The replay rebuilds the game with the plugins and variants its save names.
    replayed = deathangel(python, "replay", str(save), "--speed", "0", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    over = next(line for line in result.stdout.splitlines() if line.startswith("Game over:"))
    assert over in replayed.stdout


@pytest.mark.parametrize(
    ("options", "recorded"),
    [
        (["--with", "broodwake"], {"plugins": {"broodwake": "1.0.0"}}),
        (
            [
                "--with",
                "variants",
                "--variant",
                "defence=harder",
                "--variant",
                "final_location=Launch Control Room",
            ],
            {
                "plugins": {"variants": "1.0.0"},
                "variants": {"defence": "harder", "final_location": "Launch Control Room"},
            },
        ),
    ],
)
def test_simulate_with_plays_complete_games(
    python: Path, tmp_path: Path, options: list[str], recorded: dict[str, object]
) -> None:
    result = deathangel(
        python, "simulate", "--players", "2", "--games", "6", "--json", *options, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["wins"] + summary["losses"] == 6
    for key, value in recorded.items():
        assert summary[key] == value


def test_a_broken_plugin_is_one_line_and_play_still_starts(python: Path, tmp_path: Path) -> None:
    broken = deathangel(python, "play", "--with", "broken", cwd=tmp_path)
    assert broken.returncode == 1
    assert broken.stderr.count("\n") == 1
    assert broken.stderr.startswith(
        "error: plugin 'broken' (deathangel-broken 0.0.1): cannot be imported: "
    )
    assert "ModuleNotFoundError: No module named 'deathangel_no_such_module'" in broken.stderr
    started = deathangel(python, "play", "--seat", "1=bot:random", "--seed", "4", cwd=tmp_path)
    assert started.returncode == 0, started.stderr
    assert "Game over:" in started.stdout


BURROWER_SCENARIO = """\
title = "A Tunnel Burrower in front"
plugins = ["broodwake"]
players = 1
seed = 2
phase = "genestealer_attack"

[[formation]]
marine = "Brother Aurelian"
facing = "left"
left = ["Tunnel Burrower"]

[[formation]]
marine = "Sergeant Cassius"
facing = "right"
"""


def test_scenario_check_and_odds_with_a_plugins_cards(python: Path, tmp_path: Path) -> None:
    """A scenario file names its plugin; a Burrower alone attacks as a swarm of two (its
    weight), so Aurelian survives only a 3, 4 or 5 (RULES §7): 1/2. With the easier defence
    variant a 2 survives too: 2/3."""
    path = tmp_path / "burrower.toml"
    path.write_text(BURROWER_SCENARIO, encoding="utf-8")
    checked = deathangel(python, "scenario", "check", str(path), cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "played with base game + broodwake (1.0.0)" in checked.stdout
    assert "Tunnel Burrower-1" in checked.stdout
    odds = json.loads(deathangel(python, "odds", str(path), "--json", cwd=tmp_path).stdout)
    aurelian = next(m for m in odds["marines"] if m["marine"] == "Brother Aurelian")
    assert aurelian["survives"] == "1/2"
    easier = deathangel(
        python,
        "odds",
        str(path),
        "--json",
        "--with",
        "variants",
        "--variant",
        "defence=easier",
        cwd=tmp_path,
    )
    assert easier.returncode == 0, easier.stderr
    aurelian = next(
        m for m in json.loads(easier.stdout)["marines"] if m["marine"] == "Brother Aurelian"
    )
    assert aurelian["survives"] == "2/3"


def test_a_tournament_with_plugins_and_variants(python: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    played = deathangel(
        python,
        "tournament",
        "-e",
        "random",
        "-e",
        "hoarder",
        "--with",
        "broodwake",
        "--with",
        "variants",
        "--variant",
        "defence=easier",
        "-p",
        "1",
        "-n",
        "3",
        "--db",
        str(db),
        "-q",
        cwd=tmp_path,
    )
    assert played.returncode == 0, played.stderr
    report = json.loads(deathangel(python, "report", str(db), "--json", cwd=tmp_path).stdout)
    config = report["config"]
    assert config["with"] == [["broodwake", "1.0.0"], ["variants", "1.0.0"]]
    assert config["variants"] == [["defence", "easier"]]
    # hoarder is broodwake's strategy: offered because the tournament names the plugin.
    assert [e["name"] for e in config["entries"]] == ["random", "hoarder"]
    wrong = deathangel(
        python,
        "tournament",
        "-e",
        "random",
        "--with",
        "broodwake",
        "--variant",
        "defence=easier",
        "-n",
        "1",
        "--db",
        str(tmp_path / "u.db"),
        cwd=tmp_path,
    )
    assert wrong.returncode == 1
    assert wrong.stderr.strip() == (
        "error: tournament: unknown variant 'defence'; variants offered: no_burrowers"
    )
