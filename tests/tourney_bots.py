"""Strategies for tournament tests, registered as a plugin module (``plugins = ["tourney_bots"]``
in a tournament file, or ``--plugin tourney_bots``; ``tests/`` must be on ``PYTHONPATH``).

- ``first``: always the first legal option — a second entry unlike ``random`` (``pause``:
  a sleep as each game begins, to make a run last);
- ``flaky``: random, but raises in every game where its own seed is a multiple of
  ``fail_every`` (a test works out which games from the tournament's bot key);
- ``crash_once``: random, but the first game it plays while the file ``marker`` exists kills
  its worker process (after deleting the marker, unless ``keep``), as a crashed worker would;
- ``twin``: tries to rebuild the game from its own seed, as a cheat would (the seed probe);
- ``snoop``: searches its process's memory for the live game, as a cheat would;
- ``chatty``: random, printing to standard output at every decision.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from deathangel.cards.manifest import Manifest
from deathangel.engine.decisions import Decision, Option
from deathangel.engine.game import Game, GameConfig
from deathangel.players import RandomPlayer
from deathangel.players.seeds import bot_seed
from deathangel.plugins.hookspecs import API_VERSION, hookimpl


class FirstOption:
    """Always the first legal option.

    :param pause: seconds to sleep as each game begins (its choices unchanged): a run of fast
        games that a test must stop half-way lasts long enough, however loaded the machine,
        for the stop to land while games are still being played.
    """

    observes = False

    def __init__(self, seed: int = 0, pause: float = 0.0) -> None:
        self.seed = seed
        if pause > 0:
            time.sleep(pause)

    def choose(self, observation: Any, decision: Decision) -> Option:
        return decision.options[0]


class Flaky(RandomPlayer):
    """Random, but raises in games where its seed is a multiple of fail_every.

    :param fail_every: fail when the bot's own seed is a multiple of this (0: never).
    :param plain: the same message in every game (not naming the bot's seed).
    """

    def __init__(self, seed: int = 0, fail_every: int = 0, plain: bool = False) -> None:
        super().__init__(seed)
        self.own_seed = seed
        self.plain = plain
        self.fails = bool(fail_every) and seed % fail_every == 0

    def choose(self, observation: Any, decision: Decision) -> Option:
        if self.fails:
            if self.plain:
                raise RuntimeError("flaky bot gives up\nits second line")
            raise RuntimeError(f"flaky bot gives up (its seed {self.own_seed})")
        return super().choose(observation, decision)


class CrashOnce(RandomPlayer):
    """Random, but kills its process while the marker file exists.

    :param marker: the file whose presence means "crash now".
    :param keep: leave the marker in place (crash every time) instead of deleting it first.
    """

    def __init__(
        self, seed: int = 0, marker: Path = Path("crash.marker"), keep: bool = False
    ) -> None:
        super().__init__(seed)
        self.marker = marker
        self.keep = keep

    def choose(self, observation: Any, decision: Decision) -> Option:
        if not self.marker.exists():
            return super().choose(observation, decision)
        if not self.keep:
            self.marker.unlink()
        os._exit(3)


class Snoop:
    """Searches its own process's memory for the live game, as a cheat would, and writes
    what it found (``found`` or ``none``) to ``report``, once a game.

    :param report: the file to write the finding to.
    """

    observes = False

    def __init__(self, seed: int = 0, report: Path = Path("snoop.txt")) -> None:
        self.report = report
        self.looked = False

    def choose(self, observation: Any, decision: Decision) -> Option:
        if not self.looked:
            self.looked = True
            live = any(isinstance(o, Game) and o.state.gs_deck for o in gc.get_objects())
            with self.report.open("a", encoding="utf-8") as file:
                file.write("found\n" if live else "none\n")
        return decision.options[0]


class Chatty(RandomPlayer):
    """Random, printing a line to standard output at every decision (as a debugging bot
    would): nothing it prints may be taken for an answer."""

    def choose(self, observation: Any, decision: Decision) -> Option:
        print("thinking about", decision.kind, "['done']")
        return super().choose(observation, decision)


@hookimpl
def deathangel_manifest() -> Manifest:
    # Every plugin says which hook API it is written for.
    return Manifest(api=API_VERSION, title="Tournament test bots")


@hookimpl
def deathangel_strategies() -> dict[str, Callable[..., Any]]:
    return {
        "first": FirstOption,
        "flaky": Flaky,
        "crash_once": CrashOnce,
        "twin": Twin,
        "snoop": Snoop,
        "chatty": Chatty,
    }


class Twin:
    """Tries to rebuild the game it plays from its own seed, as a cheat would: the old
    formula (``game_seed * 8 + seat``) and the keyed hash re-derived with keys anyone could
    guess, over game seeds ``0..window-1``; with ``key`` also under that key (a test gives the
    tournament's own, to show the probe works whenever the key leaks). Each game's findings go
    to :attr:`found`: whether a twin was built, and at how many decisions it was in step.

    :param key: a bot key to try besides the guesses (none by default).
    :param window: how many game seeds to try.
    """

    found: ClassVar[list[tuple[bool, int, int]]] = []
    """(twin found, decisions in step, decisions asked), one per game (for tests in process)."""

    def __init__(self, seed: int = 0, key: str = "", window: int = 1000) -> None:
        self.candidates: list[tuple[int, int]] = []
        game, seat = divmod(seed, 8)
        if 1 <= seat <= 6:
            self.candidates.append((game, seat))
        keys = ["00" * 16, "ff" * 16, *([key] if key else [])]
        for k in keys:
            for g in range(window):
                for s in range(1, 7):
                    if bot_seed(k, g, s) == seed:
                        self.candidates.append((g, s))
        self.twin: Game | None = None
        self.tried = False
        self.asked = self.in_step = 0

    def choose(self, observation: Any, decision: Decision) -> Option:
        self.asked += 1
        if not self.tried:
            self.tried = True
            players = len(observation.state.seats)
            for game_seed, seat in self.candidates:
                if seat > players:
                    continue
                forward = observation.forward is not None
                twin = Game(GameConfig(players, seed=game_seed), forward=forward)
                if twin.observation(seat).fingerprint() == observation.fingerprint():
                    self.twin = twin
                    break
        option = decision.options[0]
        twin = self.twin
        if twin is not None and twin.decision == decision:
            self.in_step += 1
            twin.push(option)
        return option

    def end_game(self, outcome: str, observation: Any) -> None:
        Twin.found.append((self.twin is not None, self.in_step, self.asked))
