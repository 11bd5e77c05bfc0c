"""Nothing is ever lost: autosaves in the data folder, resuming without a file name, saves that
never write over something else, and hints that work where the player is.

Each test runs the real command in a subprocess with its own data folder (``conftest.py``).
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from support import TEST_BOT_KEY

from deathangel.engine.game import Game, GameConfig
from deathangel.players import RandomPlayer
from deathangel.tui.play import save_game

REPO = Path(__file__).resolve().parents[2]


def answers(seed: int, players: int = 1) -> tuple[list[str], Game]:
    """The menu numbers a seeded random person answers in game ``seed``, and that game."""
    game = Game(GameConfig(players, seed=seed))
    person = RandomPlayer(7)
    lines = []
    while (decision := game.decision) is not None:
        option = person.choose(None, decision)
        lines.append(str(decision.options.index(option) + 1))
        game.apply(option)
    return lines, game


def deathangel(
    *args: str | Path,
    cwd: Path,
    stdin: str = "",
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *map(str, args)],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=None if env is None else {**os.environ, **env},
    )


def shell(command: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """A command typed into a shell exactly as the program printed it."""
    return subprocess.run(
        command, shell=True, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip


def lines_in(*lines: str) -> str:
    return "".join(f"{line}\n" for line in lines)


def data(path: Path) -> dict[str, object]:
    loaded = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def hint(out: str, what: str) -> str:
    """The command printed after ``what`` (e.g. ``"continue it with: "``)."""
    found = re.search(re.escape(what) + r"(.+)$", out, re.MULTILINE)
    assert found is not None, out
    return found.group(1)


# -- autosave ------------------------------------------------------------------------------------


def test_a_game_with_no_save_option_is_saved_in_the_data_folder_and_resumes(
    tmp_path: Path, own_data_dir: Path
) -> None:
    lines, game = answers(seed=2)
    run = deathangel("play", "--seed", "2", cwd=tmp_path, stdin=lines_in(*lines[:6]))
    assert run.returncode == 2, run.stderr  # the answers ran out: like Ctrl-D
    expected = own_data_dir / "saves" / f"{datetime.date.today().isoformat()}-seed2.json"
    assert f"Saved after every decision to {expected}" in run.stdout  # announced at the start
    assert expected.exists()
    assert len(data(expected)["decisions"]) == 6  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []  # nothing dropped where the player stands
    again = shell(hint(run.stdout, "continue it with: "), tmp_path, lines_in(*lines[6:]))
    assert again.returncode == 0, again.stderr
    assert data(expected)["state"] == game.to_save()["state"]
    assert data(expected)["pending"] is None


def test_a_second_game_of_the_same_seed_gets_its_own_file(
    tmp_path: Path, own_data_dir: Path
) -> None:
    lines, _ = answers(seed=4)
    first = deathangel("play", "--seed", "4", cwd=tmp_path, stdin=lines_in(*lines[:3]))
    second = deathangel("play", "--seed", "4", cwd=tmp_path, stdin=lines_in(*lines[:1]))
    assert (first.returncode, second.returncode) == (2, 2)
    day = datetime.date.today().isoformat()
    folder = own_data_dir / "saves"
    assert sorted(p.name for p in folder.iterdir()) == [f"{day}-seed4-2.json", f"{day}-seed4.json"]
    assert len(data(folder / f"{day}-seed4.json")["decisions"]) == 3  # type: ignore[arg-type]
    assert len(data(folder / f"{day}-seed4-2.json")["decisions"]) == 1  # type: ignore[arg-type]


def test_resume_with_no_file_offers_the_most_recent_unfinished_games(
    tmp_path: Path, own_data_dir: Path
) -> None:
    folder = own_data_dir / "saves"
    folder.mkdir()
    for seed, n in ((5, 2), (6, 3), (7, 4), (8, None)):  # seed 8 is played to its end
        game = Game(GameConfig(1, seed=seed))
        bot = RandomPlayer(seed)
        while game.decision is not None and (n is None or len(game.history) < n):
            game.apply(bot.choose(None, game.decision))
        save_game(game, {1: "human"}, folder / f"2020-01-0{seed}-seed{seed}.json", TEST_BOT_KEY)
    (folder / "notes.json").write_text("[1, 2]", encoding="utf-8")  # not a save: ignored
    for age, seed in enumerate((7, 5, 6, 8)):  # newest first: 7, 5, 6 (and 8, finished)
        stamp = 1_700_000_000 - 60 * age
        os.utime(folder / f"2020-01-0{seed}-seed{seed}.json", (stamp, stamp))
    run = deathangel("play", "--resume", cwd=tmp_path, stdin="2\nquit\n")
    assert run.returncode == 0, run.stderr
    offered = re.findall(r"^  (\d)\) .*seed (\d+) .*$", run.stdout, re.MULTILINE)
    assert offered == [("1", "7"), ("2", "5"), ("3", "6")]  # the finished game is not offered
    assert re.search(r"Resuming .*seed5\.json: seed 5, round \d+, 2 decision\(s\) made", run.stdout)
    # Enter alone takes the most recent one: seed 5, saved again just now.
    run = deathangel("play", "--resume", "--seat", "1=human", cwd=tmp_path, stdin="\nquit\n")
    assert run.returncode == 0, run.stderr
    offered = re.findall(r"^  (\d)\) .*seed (\d+) .*$", run.stdout, re.MULTILINE)
    assert offered == [("1", "5"), ("2", "7"), ("3", "6")]
    assert "Resuming" in run.stdout and ": seed 5, round" in run.stdout


def test_resume_with_no_file_and_no_unfinished_game_says_so(tmp_path: Path) -> None:
    run = deathangel("play", "--resume", cwd=tmp_path)
    assert run.returncode == 1
    assert run.stderr.startswith("error: no unfinished game in ")
    assert run.stderr.count("\n") == 1
    assert shell(hint(run.stderr, "start one with: "), tmp_path, "quit\n").returncode == 0


# -- never write over something else -------------------------------------------------------------


def test_save_refuses_to_overwrite_a_file_that_is_not_a_save_of_this_game(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    notes.write_text("my shopping list\n", encoding="utf-8")
    other = deathangel("play", "--seed", "9", "--save", "other.json", cwd=tmp_path, stdin="1\n")
    other_save = (tmp_path / "other.json").read_bytes()
    for target, what in (("notes.json", "is not a deathangel save"), ("other.json", "seed 9")):
        run = deathangel("play", "--seed", "3", "--save", target, cwd=tmp_path, stdin="1\n")
        assert run.returncode == 1
        assert run.stderr.startswith(f"error: {target}: ") and what in run.stderr, run.stderr
        assert "--force" in run.stderr
        assert run.stderr.count("\n") == 1
        assert run.stdout == ""
    assert notes.read_text(encoding="utf-8") == "my shopping list\n"
    assert (tmp_path / "other.json").read_bytes() == other_save
    assert other.returncode == 2
    forced = deathangel(
        "play", "--seed", "3", "--save", "notes.json", "--force", cwd=tmp_path, stdin="1\n"
    )
    assert forced.returncode == 2, forced.stderr
    assert data(notes)["config"] == {"players": 1, "seed": 3, "teams": None, "handicap": 0}


def test_save_to_a_save_of_the_same_game_carries_it_on(tmp_path: Path) -> None:
    lines, _ = answers(seed=3)
    deathangel("play", "--seed", "3", "--save", "a.json", cwd=tmp_path, stdin=lines_in(*lines[:4]))
    shutil.copy(tmp_path / "a.json", tmp_path / "b.json")
    run = deathangel(
        "play", "--resume", "a.json", "--save", "b.json", cwd=tmp_path,
        stdin=lines_in(*lines[4:6]),
    )  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert len(data(tmp_path / "b.json")["decisions"]) == 6  # type: ignore[arg-type]
    assert len(data(tmp_path / "a.json")["decisions"]) == 4  # type: ignore[arg-type]
    # A save of the same game that went further is another game's future: kept.
    run = deathangel("play", "--seed", "3", "--save", "b.json", cwd=tmp_path, stdin="1\n")
    assert run.returncode == 1
    assert "holds another game" in run.stderr


def test_the_save_command_refuses_a_foreign_file_unless_forced(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("keep me\n", encoding="utf-8")
    lines, _ = answers(seed=3)
    run = deathangel(
        "play", "--seed", "3", cwd=tmp_path,
        stdin=lines_in(lines[0], "save notes.txt", "save mine.json", lines[1]),
    )  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert "Not saved: notes.txt: exists and is not a deathangel save" in run.stdout
    assert "save FILE --force" in run.stdout
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "keep me\n"
    assert len(data(tmp_path / "mine.json")["decisions"]) == 2  # type: ignore[arg-type]
    run = deathangel(
        "play", "--seed", "3", cwd=tmp_path, stdin=lines_in(lines[0], "save notes.txt --force")
    )
    assert "Saved to notes.txt" in run.stdout
    assert len(data(tmp_path / "notes.txt")["decisions"]) == 1  # type: ignore[arg-type]


def test_a_failed_save_leaves_the_old_one_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game(GameConfig(1, seed=1))
    path = tmp_path / "g.json"
    game.save(path)
    before = path.read_bytes()
    game.apply(game.decision.options[0])  # type: ignore[union-attr]

    def broken(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        game.save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no half-written file left


# -- commands that work where the player is ------------------------------------------------------


def bin_dir() -> Path:
    return Path(sys.executable).parent


@pytest.mark.parametrize("on_path", [True, False], ids=["on-path", "not-on-path"])
def test_printed_commands_work_as_printed(tmp_path: Path, on_path: bool) -> None:
    lines, game = answers(seed=2)
    without = os.pathsep.join(
        p for p in os.environ.get("PATH", "").split(os.pathsep) if Path(p) != bin_dir()
    )
    path = f"{bin_dir()}{os.pathsep}{without}" if on_path else without
    found = shutil.which("deathangel", path=path)
    assert on_path == (found is not None and Path(found).samefile(bin_dir() / "deathangel"))
    run = deathangel(
        "play", "--seed", "2", "--save", "q.json", cwd=tmp_path, stdin=lines_in(*lines[:3], "quit"),
        env={"PATH": path},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    resume = hint(run.stdout, "continue it with: ")
    if on_path:
        assert resume == "deathangel play --resume q.json"
    else:
        assert resume.endswith(" play --resume q.json") and not resume.startswith("deathangel ")
    again = subprocess.run(
        resume, shell=True, cwd=tmp_path, input=lines_in(*lines[3:]), capture_output=True,
        text=True, timeout=60, check=False, env={**os.environ, "PATH": path},
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    watch = hint(again.stdout, "watch it with: ")
    shown = subprocess.run(
        f"{watch} --speed 0", shell=True, cwd=tmp_path, capture_output=True, text=True,
        timeout=60, check=False, env={**os.environ, "PATH": path},
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert f"Game over: {game.outcome}" in shown.stdout


def test_the_console_script_names_itself_by_full_path_when_not_on_path(tmp_path: Path) -> None:
    script = bin_dir() / "deathangel"
    lines, _ = answers(seed=2)
    run = subprocess.run(
        [str(script), "play", "--seed", "2", "--save", "q.json"], cwd=tmp_path,
        input=lines_in(lines[0], "quit"), capture_output=True, text=True, timeout=60,
        check=False, env={**os.environ, "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert hint(run.stdout, "continue it with: ") == f"{script} play --resume q.json"


def test_version(tmp_path: Path) -> None:
    run = deathangel("--version", cwd=tmp_path)
    assert run.returncode == 0
    assert run.stdout == f"deathangel {importlib.metadata.version('deathangel')}\n"


def test_make_play_passes_args_to_the_command() -> None:
    if shutil.which("make") is None:  # pragma: no cover - make is part of the dev setup
        pytest.fail("make is needed to check the Makefile")
    run = subprocess.run(
        ["make", "-s", "-n", "-o", ".venv/.installed", "play", "ARGS=-p 2 --seed 7"],
        cwd=REPO, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == ".venv/bin/deathangel play -p 2 --seed 7"
