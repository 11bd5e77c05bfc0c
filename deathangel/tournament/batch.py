"""A worker's share of a tournament: play a batch of games and hand back plain rows.

:func:`play_task` runs in a worker process (local or on a Dask cluster) and touches no file:
the parent alone writes the results database. A game that raises becomes a :class:`Failure`
with its seed and traceback, and the batch goes on. :func:`replay_game` plays one game of a
tournament again, exactly as a worker played it, for the replay viewer.
"""

from __future__ import annotations

import time
import traceback
from typing import TYPE_CHECKING, Any

from attrs import frozen

from deathangel.analysis.simulate import GameResult, play_out
from deathangel.engine.game import Game, GameConfig
from deathangel.errors import DeathAngelError
from deathangel.players.base import uses_forward_model
from deathangel.plugins.isolation import IsolationContext, shared_isolated_bots
from deathangel.tournament.facts import FactsRecorder
from deathangel.tournament.tournament import Cell, Entry, TournamentConfig, teams_text

if TYPE_CHECKING:
    from deathangel.engine.ruleset import Ruleset
    from deathangel.plugins.strategies import Strategy


@frozen
class Task:
    """Games ``games`` (indices k) of one cell, for the entries numbered ``entries``."""

    cell: Cell
    entries: tuple[int, ...]
    games: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.entries) * len(self.games)


@frozen
class GameRow:
    """One finished game, as the results database stores it."""

    cell: Cell
    entry: str
    game: int
    seed: int
    teams: str
    """The teams each seat played, ``red+blue/green+yellow`` (dealt from the seed, or fixed)."""
    outcome: str
    rounds: int
    locations_reached: int
    marines_left: int
    genestealers_slain: int
    cause: str | None
    decisions: int
    seconds: float
    facts: str | None = None
    """The game's facts as JSON (:mod:`deathangel.tournament.facts`), when the tournament
    records them."""


@frozen
class Failure:
    """A game that raised instead of ending."""

    cell: Cell
    entry: str
    game: int
    seed: int
    error: str
    """The exception's one-line summary."""
    traceback: str


@frozen
class TaskResult:
    task: Task
    rows: tuple[GameRow, ...]
    failures: tuple[Failure, ...]


_Key = tuple[tuple[str, ...], tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]
_CONTEXT: dict[_Key, tuple[Ruleset, dict[str, Strategy]]] = {}


def _context(config: TournamentConfig) -> tuple[Ruleset, dict[str, Strategy]]:
    """The ruleset (cards, abilities, rule switches) and strategies, built once per worker
    process (loading them takes longer than a batch of games)."""
    key = (config.plugins, config.expansions, config.variants)
    found = _CONTEXT.get(key)
    if found is None:
        from deathangel.tournament.tournament import found_strategies

        names = [name for name, _ in config.expansions]
        found = _CONTEXT[key] = (config.ruleset(), found_strategies(config.plugins, names))
    return found


def start_game(
    config: TournamentConfig,
    cell: Cell,
    entry: Entry,
    k: int,
    rules: Ruleset,
    found: dict[str, Strategy],
    *,
    log: bool = False,
) -> tuple[Game, list[Any]]:
    """Game ``k`` of ``cell`` for ``entry``, at its first decision, with its bots."""
    game_seed = config.game_seed(k)
    specs = entry.specs_for(cell.players)
    if not config.bot_key:
        raise DeathAngelError("a tournament's games need its bot key (from its results database)")
    seeds = [entry.bot_seed(config.bot_key, game_seed, seat) for seat in range(1, len(specs) + 1)]
    if config.isolate:
        make = shared_isolated_bots(
            IsolationContext(
                tuple(name for name, _ in config.expansions), config.variants, config.plugins
            )
        )
        players = [
            make(spec, seat, seed)
            for seat, (spec, seed) in enumerate(zip(specs, seeds, strict=True), start=1)
        ]
    else:
        players = [spec.make(seed, found=found) for spec, seed in zip(specs, seeds, strict=True)]
    forward = any(uses_forward_model(p) for p in players)
    try:
        # Tournament games are never cloned: no round checkpoints.
        game = Game(
            GameConfig(cell.players, game_seed, cell.fixed_teams),
            ruleset=rules,
            checkpoints=False,
            forward=forward,
            log=log,
        )
    except ValueError as exc:
        raise DeathAngelError(str(exc)) from None
    return game, players


def play_one(
    config: TournamentConfig,
    cell: Cell,
    entry: Entry,
    k: int,
    rules: Ruleset,
    found: dict[str, Strategy],
    *,
    log: bool = False,
    facts: bool = False,
) -> tuple[Game, GameResult, str | None]:
    """Play game ``k`` of ``cell`` for ``entry`` to its end; with ``facts``, its facts too
    (:mod:`deathangel.tournament.facts`), else ``None``."""
    started = time.perf_counter()
    game, players = start_game(config, cell, entry, k, rules, found, log=log)
    recorder = FactsRecorder(game) if facts else None
    names = [spec.text for spec in entry.specs_for(cell.players)]
    result = play_out(game, players, names=names, started=started)
    return game, result, None if recorder is None else recorder.finish()


def play_task(config: TournamentConfig, task: Task) -> TaskResult:
    """Play every game of ``task``; an exception in a game is kept as a :class:`Failure`."""
    rules, found = _context(config)
    rows: list[GameRow] = []
    failures: list[Failure] = []
    cell = task.cell
    for k in task.games:
        for index in task.entries:
            entry = config.entries[index]
            try:
                game, r, facts = play_one(config, cell, entry, k, rules, found, facts=config.facts)
            except Exception as exc:  # the game's fault, not the run's: record it, go on
                failures.append(
                    Failure(
                        cell,
                        entry.name,
                        k,
                        config.game_seed(k),
                        f"{type(exc).__name__}: {exc}",
                        traceback.format_exc(),
                    )
                )
                continue
            rows.append(
                GameRow(
                    cell,
                    entry.name,
                    k,
                    r.seed,
                    teams_text(game.state.seats),
                    r.outcome,
                    r.rounds,
                    r.locations_reached,
                    r.marines_left,
                    r.genestealers_slain,
                    r.cause,
                    r.decisions,
                    r.seconds,
                    facts,
                )
            )
    return TaskResult(task, tuple(rows), tuple(failures))


def replay_game(config: TournamentConfig, cell: Cell, entry: Entry, k: int) -> Game:
    """Game ``k`` of ``cell`` for ``entry`` played again to its end, with its log: the same
    game a worker played (same seed, same bots, same seeds for them)."""
    rules, found = _context(config)
    game, _, _ = play_one(config, cell, entry, k, rules, found, log=True)
    return game
