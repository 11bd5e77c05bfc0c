"""Every command's ``--help`` reads as prose on an 80-column terminal: each paragraph wrapped
once, at the terminal's width, not again at the line breaks of the docstring it came from."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from deathangel.cli.app import app, reflowed


def command_paths(group: typer.Typer, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = [(*prefix, c.name or "") for c in group.registered_commands]
    for sub in group.registered_groups:
        assert sub.typer_instance is not None and sub.name is not None
        paths += command_paths(sub.typer_instance, (*prefix, sub.name))
    return paths


PATHS = command_paths(app)
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
