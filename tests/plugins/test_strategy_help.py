"""A strategy's parameters are listed with their whole help, as its docstring writes it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from deathangel.plugins.strategies import describe


def wrapped(seed: int, depth: int = 1, width: float = 0.5, name: str = "x") -> object:
    """A bot whose help lines wrap.

    :param depth: how far it looks; a long help that the docstring
        wraps onto a second line
        and a third
    :param width: one line only
    :param name: the last one, wrapped
        once

    Not part of any help: a paragraph after the parameters.
    """
    return object()


def test_a_help_wrapped_onto_more_lines_is_read_whole() -> None:
    helps = {p.name: p.help for p in describe("wrapped", wrapped, "base").parameters}
    assert helps == {
        "depth": "how far it looks; a long help that the docstring wraps onto a second line "
        "and a third",
        "width": "one line only",
        "name": "the last one, wrapped once",
    }


def test_strategies_list_shows_the_mcts_helps_that_wrap_in_full() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "deathangel", "strategies", "list", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = {row["name"]: row for row in json.loads(run.stdout)}
    helps = {p["name"]: p["help"] for p in rows["mcts"]["parameters"]}
    assert helps["final_horizon"] == (
        "horizon of a search at the final location; 0: to the end; -1: as horizon"
    )
    assert helps["joint"].endswith("on the same deals); 1: one team at a time")


def test_strategies_list_reads_in_an_80_column_terminal() -> None:
    """Each strategy a block: its name and summary, then one line per parameter with its
    kind and default beside its help, within 80 columns and without trailing blanks."""
    env = {**os.environ, "COLUMNS": "80"}
    common = {"capture_output": True, "text": True, "check": True, "env": env}
    text = subprocess.run([sys.executable, "-m", "deathangel", "strategies", "list"], **common)
    rows = json.loads(
        subprocess.run(
            [sys.executable, "-m", "deathangel", "strategies", "list", "--json"], **common
        ).stdout
    )
    lines = text.stdout.splitlines()
    assert all(len(line) <= 80 and line == line.rstrip() for line in lines), text.stdout
    assert re.search(
        r"^  iterations +int, default 150 +rollouts per searched decision", text.stdout, re.M
    )
    for row in rows:
        assert any(line.startswith(f"{row['name']} — ") for line in lines), row["name"]
        for p in row["parameters"]:
            assert any(re.match(rf"  {p['name']} +{p['kind']}, ", line) for line in lines), p


def test_a_plugins_help_is_printed_as_written_not_read_as_markup() -> None:
    from rich.console import Console, Group

    from deathangel.cli.strategies import _blocks

    row = {
        "name": "hoard[er]",
        "plugin": "mine",
        "summary": "keeps [bold]everything[/bold]",
        "parameters": [{"name": "w", "kind": "float", "default": 1.0, "help": "needs [plots]"}],
        "needs": "--with mine",
    }
    console = Console(width=100)
    with console.capture() as printed:
        console.print(Group(*_blocks([row])))
    text = printed.get()
    assert "hoard[er] — keeps [bold]everything[/bold]" in text
    assert "needs [plots]" in text
