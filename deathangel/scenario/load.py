"""Scenario files: a mid-game situation written by hand, turned into a playable state.

A scenario is a TOML file (format in ``docs/scenarios.md``) that describes the formation
top to bottom — marines, facing, support tokens, swarms, terrain — plus the phase to start
in, the action cards revealed this round and the effects in force. Everything it leaves
unsaid that is hidden in a real game (deck orders, blip contents given only as sizes) is dealt
at random from its ``seed``, keeping every card in exactly one place (RULES §12).

:func:`load_scenario` reads and checks a file (a :class:`Scenario`), :func:`scenario_state`
builds the :class:`~deathangel.engine.state.GameState`, and :func:`scenario_game` starts a
:class:`~deathangel.engine.game.Game` at the scenario's phase. Any broken file is refused with a
:class:`ScenarioError` whose one-line message names the file and the key or entry.

This module is the public API and the one to import from. The work is done in two parts:
:mod:`deathangel.scenario.file` (the file's typed model, and reading it with its shape
checked) and :mod:`deathangel.scenario.build` (checking it against the cards and building
the state); their public names are re-exported here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from deathangel.engine.state import LEFT, RIGHT, SIDES, CardTable, GameState
from deathangel.scenario.build import scenario_state
from deathangel.scenario.file import (
    Scenario,
    read_scenario_file,
)

if TYPE_CHECKING:
    from deathangel.cards.model import CardDatabase
    from deathangel.engine.abilities import Abilities
    from deathangel.engine.game import Game
    from deathangel.engine.ruleset import Ruleset


def load_scenario(path: str | Path, *, db: CardDatabase | None = None) -> Scenario:
    """Read a scenario file and check it completely (shape, then against the cards of ``db``,
    by default the base game plus installed plugins).

    :raises ScenarioError: naming the file and the key or entry at fault.
    """
    scenario = read_scenario_file(path)
    scenario_state(scenario, db if db is not None else _default_db())
    return scenario


def _default_db() -> CardDatabase:
    from deathangel.engine.game import default_database

    return default_database()


def scenario_game(
    path: str | Path,
    *,
    db: CardDatabase | None = None,
    abilities: Abilities[Any] | None = None,
    ruleset: Ruleset | None = None,
    log: bool = False,
) -> Game:
    """A game that starts at the scenario's phase, with every card ability in play: the
    cards, abilities and rule switches of ``ruleset`` when given (a scenario that names
    plugins needs theirs), else of ``db``/``abilities`` (default: the base game).

    A save of such a game cannot be replayed by :meth:`Game.from_save`, which starts games
    from setup.
    """
    from deathangel.engine.game import Game, GameConfig

    if ruleset is not None:
        db = ruleset.db if db is None else db
    db = db if db is not None else _default_db()
    scenario = load_scenario(path, db=db)
    state = scenario_state(scenario, db)
    config = GameConfig(players=scenario.players, seed=scenario.seed, teams=state.seats)
    return Game(config, ruleset=ruleset, db=db, state=state, abilities=abilities, log=log)


def describe_state(state: GameState, table: CardTable) -> list[str]:
    """A short picture of a state for people: one line per row, then piles and cards."""
    lines = []
    gs = table.gs_labels
    for i, pos in enumerate(state.formation, start=1):
        m = pos.marine
        parts = [f"{i:>2}. {m.name} ({m.team}, faces {SIDES[m.facing]}, {m.tokens} token(s))"]
        for side in (LEFT, RIGHT):
            swarm = pos.swarms[side]
            terrain = [t.name + (f" [{t.tokens}]" if t.tokens else "") for t in pos.terrain[side]]
            if swarm:
                shield = " (Power Field)" if any(c in state.protected for c in swarm) else ""
                parts.append(f"{SIDES[side]}: " + ", ".join(gs[c] for c in swarm) + shield)
            if terrain:
                parts.append(f"{SIDES[side]} terrain: " + ", ".join(terrain))
        lines.append("; ".join(parts))
    loc = (
        table.locations[state.location].name
        if state.location is not None
        else (state.setup_location.name if state.setup_location else "?")
    )
    lines.append(
        f"round {state.round}, phase {state.phase}, location {loc}, supply {state.supply}, "
        f"blips {len(state.blips[LEFT])} left / {len(state.blips[RIGHT])} right"
    )
    if state.revealed:
        lines.append(
            "revealed: "
            + ", ".join(
                f"{card} ({team}{', resolved' if team in state.resolved else ''})"
                for _, team, card in state.revealed
            )
        )
    return lines
