"""What seeing the hidden cards is worth to the search: the same games, the search dealt the truth.

    python docs/examples/clairvoyant.py RESULTS.db --sees nothing --sees decks --sees all
        [--strategy mcts] [--players 1] [--games N] [--seed S] [--bot-key HEX] [--workers 2]

A research tool, deliberately dishonest, and never a seat's strategy: it measures how far an
honest search is from one that knows what it should not. The issue that set the strength goals
quotes a bot that "sees the dice and decks" winning about 70% of solo games; this script splits
that ceiling into its parts with the project's own search, so a goal can be judged against
what information is worth rather than against a number from elsewhere.

Each game is played by the search strategy (``--strategy``, an ``mcts`` spec; by default the
fast default) at every seat, and the search's deals come from the live game instead of from
its seat's observation:

- ``nothing``: the search as shipped (its deals drawn from what the seat saw): the baseline,
  the same games a tournament with the same seeds and bot key plays;
- ``decks``: a copy of the live game at this decision, so every hidden card is where it
  really is (deck orders, blip piles, the locations to come, other seats' face-down cards),
  with the dice and any later shuffle drawn afresh from the search's own stream;
- ``events`` and ``genestealers``: as ``decks``, but only the Event deck's order is the
  live one (the genestealer deck and the blip piles dealt again at random from their own
  cards), or only the genestealer deck and the blip piles are (the Event deck shuffled again,
  a top card the seat scouted kept): the two halves of ``decks``;
- ``all``: a copy of the live game, its future dice included.

Game ``k`` is seed ``--seed + k`` and its bots are seeded from ``--bot-key`` as a tournament
seeds them, so the arms are paired game by game. Results go to ``RESULTS.db`` (SQLite) as
they come: a run stopped goes on where it was with the same command. Printed: each arm's wins
(95% Wilson interval) and every two arms' paired difference (Newcombe's interval, McNemar's
exact p), in the table of ``final_play.py``.

How: the search deals through ``determinize`` in ``deathangel.players.search.mcts``; in the
worker that plays a cheating arm that name is bound to a function that copies the live game
(``Game.clone``: the game keeps its restart points for it) for as long as that one game is
played, and the honest one is bound again when it ends.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import importlib.util
import random
import sqlite3
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import deathangel.players.search.mcts as search
from deathangel.analysis.simulate import play_out, spec_bots
from deathangel.engine.forward import determinize
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.observation import Observation
from deathangel.engine.randomness import Die, Streams, shuffle
from deathangel.engine.state import GameState
from deathangel.plugins.strategies import parse_spec, strategies

# The table of final_play.py beside this script, loaded by its path (the folder of examples is
# not a package, and a test loads this script by its path too).
_spec = importlib.util.spec_from_file_location(
    "final_play", Path(__file__).with_name("final_play.py")
)
assert _spec is not None and _spec.loader is not None
_final_play = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_final_play)
report = _final_play.report

SEES = ("nothing", "events", "genestealers", "decks", "all")
DEFAULT_KEY = "0c1a1c0c1a1c0c1a1c0c1a1c0c1a1c0c"


def dealer(sees: str, live: Game) -> Any:
    """The search's ``determinize`` for an arm: the honest one, or a copy of ``live``."""
    if sees == "nothing":
        return determinize

    def deal(observation: Observation, rng: random.Random, *, forward: bool = False) -> Game:
        game = live.clone()
        if sees != "all":
            # What is yet to be rolled or shuffled is not known.
            game.engine.die = Die(rng)
            game.engine.streams = Streams.shared(rng)
        if sees == "events":
            redeal_genestealers(game.state, rng)
        elif sees == "genestealers":
            redeal_events(game.state, rng, observation.seat)
        return game

    return deal


def redeal_genestealers(state: GameState, rng: random.Random) -> None:
    """The genestealer deck and the blip piles dealt again at random from their own cards,
    to their sizes: what the ``events`` arm does not see."""
    cards = [*state.gs_deck, *state.blips[0], *state.blips[1]]
    shuffle(cards, rng)
    deck, left = len(state.gs_deck), len(state.blips[0])
    state.gs_deck = cards[:deck]
    state.blips = [cards[deck : deck + left], cards[deck + left :]]


def redeal_events(state: GameState, rng: random.Random, seat: int | None) -> None:
    """The Event deck shuffled again, except a top card the seat looked at (Forward
    Scouting) and still knows: what the ``genestealers`` arm does not see."""
    events = state.event_deck  # the top card last
    known = state.scouted is not None and state.scouted[0] == seat and bool(events)
    rest = events[:-1] if known else events[:]
    shuffle(rest, rng)
    state.event_deck = [*rest, events[-1]] if known else rest


Outcome = tuple[int, str, bool, int, int, float]
"""Game index, arm, won, locations reached, decisions, CPU seconds."""


def play(index: int, sees: str, spec: str, players: int, seed: int, key: str) -> Outcome:
    """One game of ``spec`` at every seat, its search dealt as ``sees`` says."""
    game = Game(GameConfig(players, seed=seed + index), checkpoints=True, forward=True)
    bots = spec_bots([parse_spec(spec)] * players, seed + index, strategies(), key)
    # In this process, for this game only (the module's own name for it, not an export).
    search.determinize = dealer(sees, game)  # type: ignore[attr-defined]
    try:
        started = time.process_time()
        result = play_out(game, bots)
        cpu = time.process_time() - started
    finally:
        search.determinize = determinize  # type: ignore[attr-defined]
    won = result.outcome == "victory"
    return index, sees, won, result.locations_reached, result.decisions, cpu


def _played(
    tasks: list[tuple[int, str]], spec: str, players: int, seed: int, key: str, workers: int
) -> Iterator[Outcome]:
    """Each game as it finishes: here with one worker, else on a pool (each game binds the
    search's dealer for itself and gives the honest one back)."""
    if workers <= 1:
        for i, s in tasks:
            yield play(i, s, spec, players, seed, key)
        return
    with cf.ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play, i, s, spec, players, seed, key) for i, s in tasks]
        for future in cf.as_completed(futures):
            yield future.result()


def _results(path: Path, spec: str, players: int, seed: int, key: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS results (game INTEGER NOT NULL, sees TEXT NOT NULL, "
            "won INTEGER NOT NULL, locations INTEGER NOT NULL, decisions INTEGER NOT NULL, "
            "seconds REAL NOT NULL, PRIMARY KEY (game, sees))"
        )
        conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        wanted = {"strategy": spec, "players": str(players), "seed": str(seed), "bot_key": key}
        for name, value in wanted.items():
            conn.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (name, value))
    kept = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    for name, value in wanted.items():
        if kept[name] != value:
            conn.close()
            raise SystemExit(f"error: {path} was played with {name} {kept[name]}, not {value}")
    return conn


def run(
    results: Path,
    sees: Sequence[str],
    spec: str,
    players: int,
    games: int,
    seed: int,
    key: str,
    workers: int,
) -> dict[str, dict[int, bool]]:
    """Play every game of every arm not yet in ``results``; arm → game → won."""
    conn = _results(results, spec, players, seed, key)
    done = set(conn.execute("SELECT game, sees FROM results"))
    # Game by game, every arm of a game before the next game: a run stopped early leaves
    # pairs, not one arm's games.
    tasks = [(i, s) for i in range(games) for s in sees if (i, s) not in done]
    started = time.perf_counter()
    for n, out in enumerate(_played(tasks, spec, players, seed, key, workers), 1):
        with conn:
            conn.execute("INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?)", out)
        elapsed = time.perf_counter() - started
        print(f"\r{n}/{len(tasks)} games, {elapsed:.0f} s", end="", file=sys.stderr)
    if tasks:
        print(file=sys.stderr)
    table: dict[str, dict[int, bool]] = {}
    for game, arm, won in conn.execute(
        "SELECT game, sees, won FROM results WHERE game < ?", (games,)
    ):
        if arm in sees:
            table.setdefault(arm, {})[game] = bool(won)
    conn.close()
    return table


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--sees", action="append", choices=SEES, required=True)
    parser.add_argument("--strategy", default="mcts", help="an mcts spec (default: mcts)")
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bot-key", default=DEFAULT_KEY)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    if not parse_spec(args.strategy).name.startswith("mcts"):
        raise SystemExit(f"error: {args.strategy!r} is not a search (mcts, mcts-strong...)")
    sees = list(dict.fromkeys(args.sees))
    try:
        table = run(
            args.results,
            sees,
            args.strategy,
            args.players,
            args.games,
            args.seed,
            args.bot_key,
            args.workers,
        )
    except KeyboardInterrupt:
        print(
            f"\nInterrupted: {args.results} keeps what finished; the same command goes on.",
            file=sys.stderr,
        )
        raise SystemExit(130) from None
    lines = report(table, sees)
    print("\n".join(line.replace("| entry | arrivals |", "| sees | games |") for line in lines))


if __name__ == "__main__":
    main()
