"""Playing a stored tournament game again, to watch it: from the results database's config,
the game's cell, entry and index, exactly as a worker played it — and checked against its row.
"""

from __future__ import annotations

from pathlib import Path

from attrs import frozen

from deathangel.analysis.simulate import locations_reached
from deathangel.engine.game import Game
from deathangel.errors import DeathAngelError
from deathangel.tournament.batch import replay_game
from deathangel.tournament.results import Results
from deathangel.tournament.tournament import Cell, teams_text


@frozen
class StoredGame:
    """Which game of a tournament a row holds."""

    cell: Cell
    entry: str
    game: int
    controllers: dict[int, str]
    """Each seat's controller, ``bot:SPEC``."""


def replay_stored_game(db: str | Path, game_id: int) -> tuple[Game, StoredGame]:
    """Game ``game_id`` (its row id in ``games``) played again to its end, with its log.

    :raises DeathAngelError: for a missing database or game, or a game that does not come
        out as its row says (the engine or a strategy changed since it was played).
    """
    with Results.open(db) as results:
        row = results.game(game_id)
        config = results.config
    cell = Cell(int(row["players"]), str(row["cell_teams"]))
    entry = config.entry(str(row["entry"]))
    game = replay_game(config, cell, entry, int(row["game"]))
    st = game.state
    again = {
        "seed": game.config.seed,
        "teams": teams_text(st.seats),
        "outcome": game.outcome,
        "rounds": st.round,
        "locations_reached": locations_reached(game),
        "marines_left": len(st.formation),
        "genestealers_slain": game.engine.genestealers_slain,
        "decisions": len(game.history),
    }
    differ = [
        f"{key} {row[key]!r} stored, {value!r} now"
        for key, value in again.items()
        if row[key] != value
    ]
    if differ:
        raise DeathAngelError(
            f"game {game_id} of {db} does not come out as stored ({'; '.join(differ)}): the "
            "engine or a strategy changed since it was played"
        )
    stored = StoredGame(cell, entry.name, int(row["game"]), entry.controllers(cell.players))
    return game, stored
