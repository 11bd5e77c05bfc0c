"""Every command's ``--help`` reads as prose on an 80-column terminal: each paragraph wrapped
once, at the terminal's width, not again at the line breaks of the docstring it came from."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from deathangel.cli.app import app, reflowed


def command_paths(command: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command's words, found as click finds them (the root's are built on demand)."""
    if not hasattr(command, "list_commands"):
        return [prefix]
    context = type(command).context_class(command)
    paths: list[tuple[str, ...]] = []
    for name in command.list_commands(context):
        paths += command_paths(command.get_command(context, name), (*prefix, name))
    return paths


PATHS = command_paths(typer.main.get_command(app))
RAGGED = 60
"""A line shorter than this that is not its paragraph's last was cut by a source line break
(at 80 columns rich fills each line to at least this; the longest word is far shorter)."""


def description(text: str) -> list[list[str]]:
    """The paragraphs between the usage line and the first box of a help page."""
    body = text.split("Usage:", 1)[1].split("\n", 1)[1].split("╭", 1)[0]
    paragraphs: list[list[str]] = [[]]
    for line in body.splitlines():
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return [p for p in paragraphs if p]


def test_every_command_is_found() -> None:
    assert {"bench", "play", "tournament"} <= {p[-1] for p in PATHS}
    assert ("value", "play") in PATHS and ("cards", "report") in PATHS


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_help_paragraphs_are_wrapped_once_at_80_columns(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    paragraphs = description(result.output)
    assert paragraphs, result.output
    for lines in paragraphs:
        assert all(len(line) <= 80 for line in lines), lines
        cut = [line for line in lines[:-1] if len(line) < RAGGED]
        assert not cut, f"{' '.join(path)}: a paragraph broken at its source lines: {lines}"


def test_reflowed_joins_lines_and_keeps_what_click_keeps() -> None:
    text = "First line\n    goes on.\n\nSecond\nparagraph.\n\n\bkept\n  as is\n\fhidden\nlines"
    assert reflowed(text) == (
        "First line goes on.\n\nSecond paragraph.\n\n\bkept\n  as is\n\fhidden\nlines"
    )


@pytest.mark.parametrize("name", ["simulate", "scenario"])
def test_a_command_imports_only_its_own_module(name: str) -> None:
    """A command's start-up pays for its own module, not all the others' (cli/app.py)."""
    code = (
        "import sys\n"
        "from deathangel.cli.app import COMMANDS, main\n"
        f"sys.argv = ['deathangel', {name!r}, '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "modules = {module for module, _ in COMMANDS.values()}\n"
        "print(' '.join(sorted(m for m in sys.modules if m in modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.splitlines()[-1] == f"deathangel.cli.{name}"


def test_a_plain_command_starts_without_the_modules_it_never_uses() -> None:
    """``simulate`` prints plain lines and plays in one process: rich, the process pool's
    modules and the plugin listing's ``importlib.metadata`` are imported by the commands
    that draw, start workers or list plugins, not at every start (docs/performance.md, "A
    command's start: rich when it draws"). Only what the command itself imported counts:
    whatever the interpreter's start brought in (a ``.pth`` file's imports) is left out."""
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "from deathangel.cli.app import main\n"
        "sys.argv = ['deathangel', 'simulate', '-n', '1', '-p', '1']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = ('rich', 'concurrent', 'multiprocessing', 'importlib.metadata')\n"
        "found = sorted(m for m in set(sys.modules) - before if m.startswith(heavy))\n"
        "print('imported:', *found)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert "1 game(s)" in done.stdout
    assert done.stdout.splitlines()[-1] == "imported:"
