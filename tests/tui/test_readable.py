"""Readable everywhere: colours as words without colour, an 80×24 board, menus never cut
mid-word, plain lines in a pipe, and a card's name as an answer."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from pty_kit import PROMPT, quit_game
from rich.console import Console

from deathangel.engine.decisions import CHOOSE_ACTION, Option
from deathangel.engine.game import Game, GameConfig
from deathangel.players import RandomPlayer
from deathangel.tui.board import explain_option, render_board
from deathangel.tui.play import PlaySession, ScriptedAnswers

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COLOUR_CODE = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|9[0-7])[;m]")
"""An escape sequence that sets a foreground colour."""


def first_screen(env: dict[str, str], cwd: Path) -> str:
    """What ``deathangel play --seed 3`` shows at a terminal before its first prompt."""
    child = pexpect.spawn(
        sys.executable, ["-m", "deathangel", "play", "--seed", "3"], dimensions=(50, 100),
        encoding="utf-8", timeout=20, cwd=str(cwd), env={**os.environ, **env},
    )  # fmt: skip
    try:
        child.expect(PROMPT)
        screen = child.before or ""
        quit_game(child)
    finally:
        child.close()
    return screen


def test_no_color_writes_team_and_terrain_colours_as_words(tmp_path: Path) -> None:
    game = Game(GameConfig(1, seed=3))
    view = game.observation(1).to_dict()
    screen = first_screen({"NO_COLOR": "1", "TERM": "xterm-256color"}, tmp_path)
    assert not COLOUR_CODE.search(screen)
    text = ANSI.sub("", screen)
    lines = text.splitlines()
    for row in view["formation"]:
        (line,) = [
            ln
            for ln in lines
            if row["marine"] in ln and ln.lstrip().startswith(str(row["position"]))
        ]
        assert re.search(
            rf"{re.escape(row['marine'])}.* r{row['range']}\b.*\b{row['team']}\b", line
        ), line
    colours = next(ln for ln in lines if ln.startswith("Colours: "))
    colours += " " + lines[lines.index(colours) + 1]  # it may take two lines
    terrain = {
        name: game.table.terrain[name].color
        for row in view["formation"]
        for side in ("left", "right")
        for name, _ in row["terrain"][side]
    }
    assert terrain
    for name, colour in terrain.items():
        assert re.search(rf"\b{colour} (?:[\w ]+, )*{re.escape(name)}\b", colours), (name, colours)
    # With colour, the same board shows colours and no words for them.
    coloured = first_screen({"TERM": "xterm-256color"}, tmp_path)
    assert COLOUR_CODE.search(coloured)
    assert "Colours: " not in ANSI.sub("", coloured)


def boards(players: int, seeds: range) -> list[tuple[Game, int]]:
    """Games stopped at a spread of decisions: early, crowded and late positions."""
    found = []
    for seed in seeds:
        game = Game(GameConfig(players, seed=seed))
        bot = RandomPlayer(seed)
        for step in range(400):
            decision = game.decision
            if decision is None:
                break
            if step % 15 == 0:
                found.append((game.clone(), decision.seat))
            game.apply(bot.choose(None, decision))
    return found


@pytest.mark.parametrize("players", [1, 2, 3])
@pytest.mark.parametrize("colour", [True, False], ids=["colour", "no-colour"])
def test_the_board_fits_80x24_with_its_header_on_top(players: int, colour: bool) -> None:
    checked = 0
    for game, seat in boards(players, range(8)):
        console = Console(
            file=io.StringIO(), width=80, color_system="truecolor" if colour else None,
            no_color=not colour,
        )  # fmt: skip
        console.print(render_board(game, seat, legend=False))
        text = ANSI.sub("", console.file.getvalue())  # type: ignore[attr-defined]
        lines = text.rstrip("\n").split("\n")
        assert len(lines) <= 24, text
        assert all(len(line.rstrip()) <= 80 for line in lines), text
        assert lines[0].startswith("─") and f"Round {game.state.round} · " in lines[0], text
        # One line per formation row: each position number starts exactly one line.
        rows = game.observation(seat).to_dict()["formation"]
        for row in rows:
            starts = [ln for ln in lines if re.match(rf" ?{row['position']} ", ln)]
            assert len(starts) == 1, text
        checked += 1
    assert checked >= 20


def session_output(answers: list[str], width: int, seed: int = 3) -> tuple[str, Game]:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    game = Game(GameConfig(1, seed=seed), log=True)
    session = PlaySession(
        game, {1: "human"}, console=console, answers=ScriptedAnswers(answers, console)
    )
    session.run()
    return console.file.getvalue(), game  # type: ignore[attr-defined]


def test_menu_options_are_cut_only_after_a_whole_word_and_whole_on_help() -> None:
    out, _ = session_output(["?"], width=60)
    fresh = Game(GameConfig(1, seed=3))
    decision = fresh.decision
    assert decision is not None and decision.kind == CHOOSE_ACTION
    before_help = out[: out.index("Commands (at any prompt):")]
    for i, option in enumerate(decision.options, start=1):
        whole = f"{option} — {explain_option(fresh, decision, option, full=True)}"
        (line,) = [ln.strip() for ln in before_help.splitlines() if ln.strip().startswith(f"{i}) ")]
        shown = line[len(f"{i}) ") :]
        assert len(line) <= 60
        if shown.endswith("…"):
            kept = shown[:-1]
            assert whole.startswith(kept) and whole[len(kept)] in " ,;:.", (kept, whole)
        else:
            assert shown == whole
        # On ?, every word of the option, in order.
        after_help = " ".join(out[out.index("Commands (at any prompt):") :].split())
        assert whole in after_help


def test_a_card_or_marine_name_alone_answers() -> None:
    first = Game(GameConfig(1, seed=3)).decision
    assert first is not None
    card = first.options[0].args[0]
    assert isinstance(card, str)
    out, game = session_output([card.lower()], width=100)
    assert game.history[0] == Option("card", (card,))
    out, game = session_output(["no such card"], width=100)
    assert "'no such card' is not an option or a command" in out
    assert game.history == []


def test_output_to_a_pipe_is_plain_lines_of_the_width_given(tmp_path: Path) -> None:
    for columns in (80, 132):
        run = subprocess.run(
            [sys.executable, "-m", "deathangel", "play", "--seed", "3"], cwd=tmp_path,
            input="1\n", capture_output=True, text=True, timeout=60, check=False,
            env={**os.environ, "COLUMNS": str(columns)},
        )  # fmt: skip
        lines = run.stdout.splitlines()
        assert not [ln for ln in lines if ln.endswith(" ")]  # no padding
        assert "\x1b[" not in run.stdout
        rule = next(ln for ln in lines if ln.startswith("─") and "Round 1" in ln)
        assert len(rule) == columns  # the whole width
