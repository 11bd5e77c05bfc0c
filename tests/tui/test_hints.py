"""Hints: the search's view of a person's decision, from that seat's observation alone; a
``hint`` at any prompt, ``--hints`` at every one, and Ctrl-C stops a hint, not the game."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pexpect
from pty_kit import PROMPT, as_a_shell_starts_it, quit_game
from rich.console import Console

from deathangel.engine.game import Game, GameConfig
from deathangel.players import RandomPlayer
from deathangel.players.search.advice import advise
from deathangel.tui.play import PlaySession, ScriptedAnswers


def reshuffled(game: Game, seed: int) -> Game:
    """The same game with its hidden cards dealt otherwise (the piles' sizes kept)."""
    other = game.clone()
    st = other.state
    rng = random.Random(seed)
    cards = st.gs_deck + st.blips[0] + st.blips[1]
    rng.shuffle(cards)
    n, left = len(st.gs_deck), len(st.blips[0])
    st.gs_deck, st.blips = cards[:n], [cards[n : n + left], cards[n + left :]]
    rng.shuffle(st.event_deck)
    return other


def test_a_hint_reads_nothing_beyond_the_seats_observation() -> None:
    """Two games that differ only in what the seat cannot see get the same hint; the hint is
    a function of the observation (and its own seed) alone."""
    for seed in (1, 4):
        game = Game(GameConfig(2, seed=seed))
        bot = RandomPlayer(seed)
        for _ in range(25):
            assert game.decision is not None
            game.apply(bot.choose(None, game.decision))
        decision = game.decision
        assert decision is not None and len(decision.options) > 1
        other = reshuffled(game, seed)
        assert other.state.gs_deck != game.state.gs_deck
        hint = advise(game.observation(decision.seat), decision, seed=7, iterations=24, seconds=0)
        again = advise(other.observation(decision.seat), decision, seed=7, iterations=24, seconds=0)
        assert hint == again
        assert {a.option for a in hint.options} <= set(decision.options)
        assert hint.pick in decision.options
        assert all(0.0 <= a.chance <= 1.0 for a in hint.options)


def test_the_hint_command_shows_every_option_and_changes_nothing() -> None:
    console = Console(file=io.StringIO(), width=120)
    game = Game(GameConfig(1, seed=3), log=True)
    session = PlaySession(
        game, {1: "human"}, console=console, answers=ScriptedAnswers(["hint", "1"], console)
    )
    session.run()
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Hint: the marines' chance to win after each option" in out
    assert "The search would choose" in out
    assert len(game.history) == 1  # the hint answered nothing itself


def test_ctrl_c_stops_a_hint_not_the_game(tmp_path: Path) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "deathangel", "play", "--seed", "3", "--hints"],
        dimensions=(50, 120),
        encoding="utf-8",
        timeout=60,
        cwd=str(tmp_path),
        preexec_fn=as_a_shell_starts_it,
    )
    try:
        child.expect("Thinking \\(Ctrl-C stops the hint\\)")
        child.sendintr()
        child.expect("Hint stopped")
        child.expect(PROMPT)
        child.sendline("1")  # the game goes on
        child.expect("Thinking")
        child.expect("The search would choose")
        child.expect(PROMPT)
        quit_game(child)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
