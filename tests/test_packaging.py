"""A plain (non-editable) install of the wheel can play: the card data ships inside it.

The wheel is built and installed into a new virtual environment with no network: its runtime
dependencies come from this environment's site-packages on ``PYTHONPATH`` (which, unlike a
site directory, does not run the editable install's path hook), so only the wheel provides
``deathangel``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from plugin_kit import site_packages

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    (found,) = out.glob("deathangel-*.whl")
    return found


def test_wheel_contains_every_card_file(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    expected = sorted(p.name for p in (ROOT / "cards" / "base").glob("*.toml"))
    assert expected, "no card files in cards/base"
    shipped = sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("deathangel/_cards/base/"))
    assert shipped == expected
    assert "deathangel/py.typed" in names
    # The rules strategy's shipped rule sets are package data too.
    assert "deathangel/players/rules/rulesets/default.toml" in names


def dependencies(folder: Path) -> Path:
    """This environment's site-packages as links in ``folder``, less other deathangel plugins:
    an editable plugin's code is reached through a path hook that ``PYTHONPATH`` does not run,
    so its entry point would name a module that is not there. The suite must give the same
    result whatever plugins are installed."""
    folder.mkdir()
    for item in Path(sysconfig.get_paths()["purelib"]).iterdir():
        points = item / "entry_points.txt"
        if (
            item.name.endswith(".dist-info")
            and not item.name.startswith("deathangel-")
            and points.is_file()
            and "[deathangel]" in points.read_text(encoding="utf-8")
        ):
            continue
        (folder / item.name).symlink_to(item)
    return folder


@pytest.mark.long
def test_installed_wheel_validates_cards_and_simulates(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    env = dict(os.environ)
    env["PYTHONPATH"] = str(dependencies(tmp_path / "deps"))
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    site = site_packages(python)
    run = tmp_path / "elsewhere"
    run.mkdir()

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(venv / "bin" / "deathangel"), *args],
            cwd=run,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    where = subprocess.run(
        [str(python), "-c", "import deathangel; print(deathangel.__file__)"],
        cwd=run,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(site), f"deathangel imported from {where!r}, not the wheel"
    counts = cli("cards", "validate", "--json")
    assert counts.returncode == 0, counts.stderr
    assert json.loads(counts.stdout)["genestealers"] == 36
    sim = cli("simulate", "--players", "1", "--games", "3", "--seed", "1", "--json")
    assert sim.returncode == 0, sim.stderr
    summary = json.loads(sim.stdout)
    assert summary["wins"] + summary["losses"] == 3
    # The rules strategy finds its default rule set inside the installed package.
    rules = cli("simulate", "-p", "1", "-n", "2", "--strategy", "rules", "--json")
    assert rules.returncode == 0, rules.stderr
    assert json.loads(rules.stdout)["games"] == 2
