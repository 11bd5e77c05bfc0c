"""Strategies for tournament tests, registered as a plugin module (``plugins = ["tourney_bots"]``
in a tournament file, or ``--plugin tourney_bots``; ``tests/`` must be on ``PYTHONPATH``).

- ``first``: always the first legal option — a second entry unlike ``random``;
- ``flaky``: random, but raises in every game where its own seed is a multiple of
  ``fail_every`` (a test works out which games from the tournament's bot key);
- ``crash_once``: random, but the first game it plays while the file ``marker`` exists kills
  its worker process (after deleting the marker, unless ``keep``), as a crashed worker would.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deathangel.cards.manifest import Manifest
from deathangel.engine.decisions import Decision, Option
from deathangel.players import RandomPlayer
from deathangel.plugins.hookspecs import API_VERSION, hookimpl


class FirstOption:
    """Always the first legal option."""

    observes = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, observation: Any, decision: Decision) -> Option:
        return decision.options[0]


class Flaky(RandomPlayer):
    """Random, but raises in games where its seed is a multiple of fail_every.

    :param fail_every: fail when the bot's own seed is a multiple of this (0: never).
    """

    def __init__(self, seed: int = 0, fail_every: int = 0) -> None:
        super().__init__(seed)
        self.own_seed = seed
        self.fails = bool(fail_every) and seed % fail_every == 0

    def choose(self, observation: Any, decision: Decision) -> Option:
        if self.fails:
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


@hookimpl
def deathangel_manifest() -> Manifest:
    # Every plugin says which hook API it is written for.
    return Manifest(api=API_VERSION, title="Tournament test bots")


@hookimpl
def deathangel_strategies() -> dict[str, Callable[..., Any]]:
    return {"first": FirstOption, "flaky": Flaky, "crash_once": CrashOnce}
