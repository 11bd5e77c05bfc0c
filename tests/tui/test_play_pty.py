"""``deathangel play`` in a pseudo-terminal, typed at the way a person would."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect

PROMPT = r"\? for help\]> "


def plain(text: str | None) -> str:
    """``text`` without terminal escape codes and surrounding space."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text or "").strip()


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "deathangel", "play", *args],
        dimensions=(50, 120),
        encoding="utf-8",
        timeout=20,
        cwd=str(cwd),
    )


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
        child.expect(r"Quit the game\? \[y/N\] ")
        child.sendline("n")
        child.expect("Not quitting")
        child.expect(PROMPT)
        child.sendline("quit")
        child.expect(r"Quit the game\? \[y/N\] ")
        child.sendline("y")
        child.expect(pexpect.EOF)
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
