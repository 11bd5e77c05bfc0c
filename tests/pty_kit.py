"""Playing ``deathangel play`` in a pseudo-terminal, as a person would: shared by the tests
that type at it."""

from __future__ import annotations

import re
import signal
import sys
from pathlib import Path

import pexpect

PROMPT = r"\? for help\]> "


def plain(text: str | None) -> str:
    """``text`` without terminal escape codes and surrounding space."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text or "").strip()


def as_a_shell_starts_it() -> None:
    """In the child, before it runs: Ctrl-C and a hang-up do what they do for a program an
    interactive shell starts. A test run launched in the background (``make test &``, a CI
    runner) ignores SIGINT, every process it starts inherits that, and Python then installs
    no KeyboardInterrupt: Ctrl-C at the prompt would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "deathangel", "play", *args],
        dimensions=(50, 120),
        encoding="utf-8",
        timeout=30,
        cwd=str(cwd),
        preexec_fn=as_a_shell_starts_it,
    )


def quit_game(child: pexpect.spawn) -> None:
    """Type ``quit`` at the prompt, say yes, and wait for the program to end."""
    child.sendline("quit")
    child.expect(r"Quit the game\? It stays saved\. \[y/N\] ")
    child.sendline("y")
    child.expect(pexpect.EOF)
