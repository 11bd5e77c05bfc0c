"""``deathangel play`` in a pseudo-terminal, typed at the way a person would."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path

import pexpect
from pty_kit import PROMPT, as_a_shell_starts_it, plain, quit_game, spawn


def decision_shown(screen: str | None) -> list[str]:
    """The decision on the screen before a prompt: its header line and its menu."""
    lines = plain(screen).splitlines()
    header = max(i for i, line in enumerate(lines) if re.match(r"Round \d+ · seat \d", line))
    return [line.rstrip() for line in lines[header:]]


def test_a_person_plays_asks_for_help_and_quits(tmp_path: Path) -> None:
    child = spawn("--seed", "3", cwd=tmp_path)
    try:
        child.expect("seed 3")
        child.expect("play Block")  # a numbered menu of the legal options
        child.expect(PROMPT)
        child.sendline("?")
        child.expect("Commands \\(at any prompt\\):")
        child.expect("Choose this team's action card")  # and the help of this decision
        child.expect(PROMPT)
        child.sendline("board")
        child.expect("Round 1")
        child.expect(PROMPT)
        child.sendline("99")
        child.expect("There is no option 99")
        child.expect(PROMPT)
        child.sendline("2")  # the green team's card
        child.expect("Round 1")  # the board, redrawn for the next choice
        child.expect("choose the [a-z]+ team's action card")
        child.expect(PROMPT)
        child.sendline("1")
        child.expect(PROMPT)
        child.sendline("cards Block")
        child.expect("initiative")
        child.expect(PROMPT)
        child.sendline("quit")
        child.expect(r"Quit the game\? It stays saved\. \[y/N\] ")
        child.sendline("n")
        child.expect("Not quitting")
        child.expect(PROMPT)
        quit_game(child)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")
    assert list(tmp_path.iterdir()) == []  # no --save: nothing written


def test_hot_seat_at_a_terminal_clears_the_screen_for_the_next_player(tmp_path: Path) -> None:
    child = spawn("-p", "2", "--seed", "4", "--save", "hot.json", cwd=tmp_path)
    try:
        child.expect(r"Pass to seat 1 \(teams [a-z, ]+\) — press Enter")
        child.sendline("")
        child.expect(PROMPT)
        child.sendline("1")
        child.expect(PROMPT)
        child.sendline("1")
        child.expect("\x1b\\[2J")  # cleared before the next player comes to the screen
        child.expect("\x1b\\[3J")  # and the scrollback: seat 1's cards are not a scroll away
        child.expect(r"Pass to seat 2 \(teams [a-z, ]+\) — press Enter")
        assert plain(child.before) == ""  # nothing of seat 1's screen is left above
        child.sendline("")
        child.expect(PROMPT)
        child.sendeof()  # Ctrl-D: the game is saved, never lost
        child.expect("Game saved to hot.json")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 2
    assert (tmp_path / "hot.json").exists()


def test_ctrl_c_leaves_a_save_and_the_printed_command_resumes_the_same_decision(
    tmp_path: Path,
) -> None:
    child = spawn("--seed", "3", cwd=tmp_path)
    try:
        for answer in ("2", "1"):
            child.expect(PROMPT)
            child.sendline(answer)
        child.expect(PROMPT)
        waiting = decision_shown(child.before)
        child.sendintr()  # Ctrl-C at the prompt
        child.expect(r"Game saved to (\S+); continue it with: ([^\r\n]+)\r\n")
        path, command = child.match.group(1), child.match.group(2)
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130
    assert len(json.loads(Path(path).read_text(encoding="utf-8"))["decisions"]) == 2
    again = pexpect.spawn(
        "/bin/sh", ["-c", command], dimensions=(50, 120), encoding="utf-8", timeout=30,
        cwd=str(tmp_path), preexec_fn=as_a_shell_starts_it,
    )  # fmt: skip
    try:
        again.expect(PROMPT)
        assert decision_shown(again.before) == waiting
        again.sendeof()  # Ctrl-D: saved again, and said so
        again.expect("Game saved to " + re.escape(path))
        again.expect(pexpect.EOF)
    finally:
        again.close()
    assert again.exitstatus == 2


def test_a_closed_terminal_leaves_a_resumable_save(tmp_path: Path) -> None:
    child = spawn("--seed", "3", "--save", "h.json", cwd=tmp_path)
    try:
        child.expect(PROMPT)
        child.sendline("2")
        child.expect(PROMPT)
        child.kill(signal.SIGHUP)  # what the terminal sends when its window is closed
        child.expect("Game saved to h.json")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 129  # it ended itself, cleanly, after saving
    saved = json.loads((tmp_path / "h.json").read_text(encoding="utf-8"))
    assert len(saved["decisions"]) == 1 and saved["pending"] is not None
