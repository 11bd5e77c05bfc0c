"""Setting a game up: the card tables and abilities it reads (built once per card database and
kept in a small cache), the base game's database, the state before the first decision (seats,
teams and the deal, RULES §3), and stamping a config with the ruleset it is played with.

:class:`~deathangel.engine.game.Game` calls these once per game; nothing here runs during play.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from attrs import evolve

from deathangel.engine.config import GameConfig
from deathangel.engine.core import check_start_tokens, deal_marines
from deathangel.engine.state import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNTS, CardTable, GameState
from deathangel.engine.switches import Switches
from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from deathangel.cards.model import CardDatabase
    from deathangel.engine.abilities import Abilities
    from deathangel.engine.randomness import Streams
    from deathangel.engine.ruleset import Ruleset

PRINTED = Switches()
"""The printed rules: every switch at its default."""

CACHE_SIZE = 32
"""Card databases whose tables and abilities are kept: a process plays with a handful (the
base game, a few rulesets); a long test run or a tuning tool that builds many lets the least
recently used go rather than keep every one for good."""


class _ByDatabase:
    """What is built once per card database, kept for the :data:`CACHE_SIZE` databases used
    most recently. An entry holds its database, so the database's ``id`` (the key: a card
    database is compared by value, too slow to hash) cannot be reused while it is cached."""

    def __init__(self) -> None:
        self._entries: OrderedDict[int, tuple[CardDatabase, dict[Any, Any]]] = OrderedDict()

    def get(self, db: CardDatabase) -> dict[Any, Any]:
        """The cached things of ``db`` (a dict to fill), the entry made most recent."""
        key = id(db)
        entry = self._entries.get(key)
        if entry is None or entry[0] is not db:
            entry = self._entries[key] = (db, {})
            if len(self._entries) > CACHE_SIZE:
                self._entries.popitem(last=False)
        else:
            self._entries.move_to_end(key)
        return entry[1]

    def __len__(self) -> int:
        return len(self._entries)


_BUILT = _ByDatabase()


def card_table(db: CardDatabase, switches: Switches | None = None) -> CardTable:
    """The lookup tables of a database with rule switches (default: the printed rules),
    built once per database object and switches."""
    switches = switches if switches is not None else PRINTED
    built = _BUILT.get(db)
    table: CardTable | None = built.get(switches)
    if table is None:
        table = built[switches] = CardTable(db, switches)
    return table


def card_abilities(db: CardDatabase) -> Abilities[Any]:
    """Every card's ability for ``db``, built (and checked) once per database object."""
    built = _BUILT.get(db)
    abilities: Abilities[Any] | None = built.get("abilities")
    if abilities is None:
        from deathangel.engine.effects.dispatch import CardAbilities

        abilities = built["abilities"] = CardAbilities(db)
    return abilities


def default_database() -> CardDatabase:
    """The base game plus installed plugins' cards (loaded once)."""
    from deathangel.cards.load import load_base

    return load_base()


def new_state(config: GameConfig, table: CardTable, streams: Streams) -> GameState:
    """A state ready for setup: seats and teams chosen, marines dealt, supply set (§3.4–6).

    With the ``choose_teams`` switch and no teams in the config, the seats are left empty:
    they choose at setup (:meth:`~deathangel.engine.rounds.Engine.setup`). Each marine starts
    with the table's ``start_tokens`` (the handicap and any starting-support variant).

    Raises ``ValueError`` quoting a bad player count, an unknown or repeated team, a wrong
    number of teams for a seat, or more starting tokens than the supply holds.
    """
    db = table.db
    if config.players not in PLAYER_COUNTS:
        raise ValueError(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, not {config.players!r}")
    setup = db.setup_location_for(config.players)
    per_seat = setup.teams_per_player[config.players]
    colours = [t.color for t in db.teams]
    tokens = table.switches.start_tokens
    if config.teams is None:
        if len(colours) < per_seat * config.players:
            raise ValueError(
                f"{config.players} players need {per_seat * config.players} teams; "
                f"the cards have {len(colours)}"
            )
        if table.switches.choose_teams:
            seats: list[tuple[str, ...]] = [() for _ in range(config.players)]
            sizes = sorted((len(t.marines) for t in db.teams), reverse=True)
            check_start_tokens(db, tokens, sum(sizes[: per_seat * config.players]))
        else:
            picked = streams.sample("setup", colours, per_seat * config.players)
            seats = [
                tuple(picked[i * per_seat : (i + 1) * per_seat]) for i in range(config.players)
            ]
    else:
        seats = list(config.teams)
        if len(seats) != config.players:
            raise ValueError(
                f"a {config.players}-player game needs teams for {config.players} "
                f"seat{'' if config.players == 1 else 's'}, not {len(seats)}"
            )
        seen: set[str] = set()
        for i, seat in enumerate(seats, start=1):
            if len(seat) != per_seat:
                raise ValueError(
                    f"seat {i} has {len(seat)} team{'' if len(seat) == 1 else 's'}; in a "
                    f"{config.players}-player game each seat plays {per_seat}"
                )
            for colour in seat:
                if colour not in colours:
                    raise ValueError(f"unknown team {colour!r}; teams are {', '.join(colours)}")
                if colour in seen:
                    raise ValueError(f"team {colour!r} is chosen twice")
                seen.add(colour)
    st = GameState()
    st.setup_location = setup
    st.seats = seats
    st.supply = db.support_tokens
    st.current_seat = 1
    if all(seats):
        deal_marines(st, db, streams, tokens)
    return st


def played_with(config: GameConfig, ruleset: Ruleset) -> GameConfig:
    """``config`` recording the ruleset's plugins and variants (a config that names none is
    stamped with them).

    :raises DeathAngelError: when the config names other plugins or variants.
    """
    if not config.plugins and not config.variants:
        if not ruleset.plugins and not ruleset.variants:
            return config
        return evolve(config, plugins=ruleset.plugins, variants=ruleset.variants)
    if (config.plugins, config.variants) != (ruleset.plugins, ruleset.variants):
        have = GameConfig(1, plugins=ruleset.plugins, variants=ruleset.variants).expansions()
        raise DeathAngelError(
            f"this game is played with {config.expansions()}, but the ruleset has {have}"
        )
    return config
