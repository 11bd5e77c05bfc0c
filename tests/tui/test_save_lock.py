"""One game at a time on a save file: a second ``deathangel play`` of a save that a game is
playing (resumed in another terminal, or named by ``save FILE``) is refused, so neither
writes its moves over the other's after every decision."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from pty_kit import PROMPT, quit_game, spawn
from support import TEST_BOT_KEY

from deathangel.engine.game import Game, GameConfig
from deathangel.tui.play import save_game
from deathangel.tui.saves import SaveLock

IN_USE = (
    "this game is being played in another deathangel play; go on there, or quit it there "
    "first (it stays saved)"
)


def play(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def decisions(path: Path) -> list[object]:
    saved = json.loads(path.read_text(encoding="utf-8"))["decisions"]
    assert isinstance(saved, list)
    return saved


def test_a_save_open_in_one_terminal_cannot_be_resumed_in_another(tmp_path: Path) -> None:
    first = spawn("--seed", "3", "--save", "s.json", cwd=tmp_path)
    try:
        first.expect(PROMPT)
        first.sendline("2")
        first.expect(PROMPT)  # one decision made and saved
        assert len(decisions(tmp_path / "s.json")) == 1
        before = (tmp_path / "s.json").stat().st_ino  # a save is written as a new file
        second = play("--resume", "s.json", cwd=tmp_path, stdin="1\n1\n1\n")
        assert (second.returncode, second.stderr) == (1, f"error: s.json: {IN_USE}\n")
        # Not written at all, not even with the same moves: the first game could have saved
        # a move between the second's reading and its writing.
        assert (tmp_path / "s.json").stat().st_ino == before
        first.sendline("1")
        first.expect(PROMPT)
        quit_game(first)
    finally:
        first.close()
    assert first.exitstatus == 0
    assert len(decisions(tmp_path / "s.json")) == 2
    assert not (tmp_path / "s.json.lock").exists()  # let go, and no file left behind
    # Once the first game has let go, the save resumes (and ends here for want of input).
    again = play("--resume", "s.json", cwd=tmp_path)
    assert again.returncode == 2, again.stderr
    assert "Resuming s.json" in again.stdout


def test_save_file_refuses_a_file_another_game_is_playing(tmp_path: Path) -> None:
    other = SaveLock()
    other.take(tmp_path / "other.json")  # as another deathangel play holds it
    try:
        out = play("--seed", "11", "--save", "g.json", cwd=tmp_path, stdin="save other.json\n")
    finally:
        other.release()
    assert out.returncode == 2, out.stderr  # the input ends before the game does
    assert f"Not saved: other.json: {IN_USE}" in " ".join(out.stdout.split())
    assert not (tmp_path / "other.json").exists()
    assert (tmp_path / "g.json").exists()  # still saving where it did


def test_the_resume_menu_marks_a_game_open_elsewhere_and_refuses_it(
    tmp_path: Path, own_data_dir: Path
) -> None:
    folder = own_data_dir / "saves"
    folder.mkdir()
    for seed in (5, 6):
        game = Game(GameConfig(1, seed=seed))
        game.apply(game.decision.options[0])  # type: ignore[union-attr]
        save_game(game, {1: "human"}, folder / f"seed{seed}.json", TEST_BOT_KEY)
    held = SaveLock()
    held.take(folder / "seed6.json")  # as a game in another terminal holds it
    try:
        out = play("--resume", cwd=tmp_path)  # the menu, then the input ends
        menu = re.findall(r"^  (\d)\) .* (seed\d\.json)(.*)$", out.stdout, re.MULTILINE)
        marks = {name: mark for _, name, mark in menu}
        assert marks == {"seed5.json": "", "seed6.json": " · open in another terminal"}
        number = next(n for n, name, _ in menu if name == "seed6.json")
        chosen = play("--resume", cwd=tmp_path, stdin=f"{number}\n")
        assert (chosen.returncode, chosen.stderr) == (1, f"error: {folder}/seed6.json: {IN_USE}\n")
    finally:
        held.release()
