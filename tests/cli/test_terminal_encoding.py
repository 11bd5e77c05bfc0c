"""A terminal whose encoding lacks the symbols the commands print (an ASCII or Latin-1
locale): the game and the card lists are shown with one-cell stand-ins, never a
``UnicodeEncodeError`` (``play`` failed that way before its first decision)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deathangel.cli.output import PLAIN


def run(encoding: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": encoding},
        timeout=120,
    )


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_play_on_a_terminal_without_unicode_symbols(encoding: str, tmp_path: Path) -> None:
    out = run(encoding, "play", "--seed", "3", "--save", "s.json", cwd=tmp_path)
    # It shows the board and the first question, then the input ends (exit 2), saved.
    assert out.returncode == 2, out.stderr.decode(encoding)
    text = out.stdout.decode(encoding)  # every byte is the terminal's own
    assert "Space Hulk: Death Angel - 1 player(s), seed 3" in text  # "—" as "-"
    assert "< Brother" in text  # a marine facing left: "←" as "<", one cell as before
    assert "1) play Block - Support, initiative 1" in text
    assert out.stderr.decode(encoding) == "error: input ended before the game did\n"
    assert (tmp_path / "s.json").exists()


def test_a_simulation_on_a_latin_1_terminal(tmp_path: Path) -> None:
    out = run("latin-1", "simulate", "-n", "2", "--seed", "5", cwd=tmp_path)
    assert out.returncode == 0, out.stderr.decode("latin-1")
    assert "(95% Wilson interval 0.00% - 65.76%)" in out.stdout.decode("latin-1")  # "–"


def test_every_stand_in_is_one_ascii_character() -> None:
    assert all(len(plain) == 1 and plain.isascii() for plain in PLAIN.values())
    assert all(not symbol.isascii() for symbol in PLAIN)
