"""What a tournament is: its entries, its grid of cells, its seeds — read from a TOML file or
built from command-line flags, and checked before any game is played.

A tournament plays every *entry* (a strategy with its parameters, the same at every seat or
one per seat) in every *cell* (a player count and a choice of teams: dealt at random, or fixed)
``games`` times. Game ``k`` (from 0) of every cell has the game seed ``seed + k`` for every
entry, and each entry's bot at seat ``s`` is seeded with ``bot_seed(key, seed + k, s, salt)``:
a keyed one-way hash under the tournament's secret bot key, stored with its results and never
given to a bot (:mod:`deathangel.players.seeds`; the salt is the entry's, see :class:`Entry`).
So game ``k`` deals the same teams, decks and dice to every
entry (common random numbers), and any one game can be played again alone from its cell, its
entry and ``k``. The dice an entry *uses* still differ once its decisions differ: a different
choice can call for a different number of rolls.

The file::

    games = 1000              # per cell and entry (with an SPRT: the most it may play)
    seed = 0                  # game k of every cell has seed seed + k
    players = [1, 2, 3]       # or one number
    teams = ["random"]        # "random", or fixed: "red+blue+green", "red+blue/green+yellow"
    plugins = []              # modules registered as plugins (strategies not installed)
    with = []                 # installed expansions to play with (deathangel plugins list)
    variants = []             # their rule variants, "NAME" or "NAME=VALUE"

    [[entry]]
    name = "random"           # how reports call it; by default the strategy text
    strategy = "random"       # a strategy spec at every seat...
    # seats = ["rules", "random"]  # ...or one per seat, repeated over the seats
    # salt = 1                # seed its bots apart from an entry that has no salt
    # bot_key = "…"           # optional: 32 hex digits; by default a fresh secret per database
    # facts = false           # leave out each game's facts (deathangel.tournament.facts)

    [sprt]                    # optional, two entries only; see deathangel.tournament.stats
    p0 = 0.5
    p1 = 0.6
    alpha = 0.05
    beta = 0.05

A fixed choice of teams names each seat's teams, seats split by ``/`` and a seat's teams
joined by ``+``; it makes a cell only for the player count it fits. ``random`` makes a cell for
every player count.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from itertools import cycle, islice
from pathlib import Path
from typing import Any

from attrs import frozen

from deathangel.engine.ruleset import Ruleset
from deathangel.engine.setup import card_table
from deathangel.engine.state import CardTable
from deathangel.errors import DeathAngelError
from deathangel.players.base import check_table
from deathangel.players.seeds import bot_seed, check_bot_key
from deathangel.plugins.strategies import (
    Strategy,
    StrategySpec,
    StrategySpecError,
    parse_spec,
    strategies,
)
from deathangel.tournament.stats import SprtDesign

RANDOM_TEAMS = "random"


class TournamentConfigError(DeathAngelError, ValueError):
    """A tournament file or flag asks for something that cannot be played."""


# -- cells ---------------------------------------------------------------------------------------


def parse_teams(text: str) -> tuple[tuple[str, ...], ...] | None:
    """``None`` for ``random``; otherwise each seat's team colours from ``red+blue/green``."""
    text = text.strip().lower()
    if text == RANDOM_TEAMS:
        return None
    seats = tuple(tuple(colour.strip() for colour in seat.split("+")) for seat in text.split("/"))
    if any(not colour for seat in seats for colour in seat):
        raise TournamentConfigError(
            f"teams {text!r}: write 'random' or each seat's colours, seats split by '/' and "
            "a seat's teams joined by '+' (e.g. 'red+blue/green+yellow')"
        )
    return seats


def teams_text(seats: Sequence[Sequence[str]]) -> str:
    """Seats' teams written as ``red+blue/green+yellow``."""
    return "/".join("+".join(seat) for seat in seats)


@frozen(order=True)
class Cell:
    """One point of the grid: a player count and how teams are chosen."""

    players: int
    teams: str = RANDOM_TEAMS
    """``random``, or the fixed teams as ``red+blue/green+yellow``."""

    @property
    def fixed_teams(self) -> tuple[tuple[str, ...], ...] | None:
        return parse_teams(self.teams)

    @property
    def label(self) -> str:
        """``2p``, or ``2p red+blue/green+yellow`` for fixed teams."""
        return f"{self.players}p" + ("" if self.teams == RANDOM_TEAMS else f" {self.teams}")

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "teams": self.teams}


# -- entries -------------------------------------------------------------------------------------


@frozen
class Entry:
    """A strategy line-up that plays every cell: one spec per seat, repeated over the seats
    (a single spec plays every seat)."""

    name: str
    seats: tuple[StrategySpec, ...]
    salt: int = 0
    """Seeds this entry's bots apart: the salt is hashed into every bot seed. Entries with
    the same salt give the same seat of the same game the same bot seed; two entries of the
    same strategy with different salts measure how much the bots' own dice matter (an A/A
    comparison whose true difference is zero)."""

    def specs_for(self, players: int) -> list[StrategySpec]:
        """The spec of each seat of a ``players``-seat game."""
        return list(islice(cycle(self.seats), players))

    def bot_seed(self, key: str, game_seed: int, seat: int) -> int:
        """The seed of this entry's bot at ``seat`` under the tournament's bot ``key``."""
        return bot_seed(key, game_seed, seat, self.salt)

    def controllers(self, players: int) -> dict[int, str]:
        """Each seat's controller as a save file writes it (``bot:SPEC``)."""
        return {s: f"bot:{spec.text}" for s, spec in enumerate(self.specs_for(players), start=1)}

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seats": [{"strategy": s.name, "parameters": dict(s.values)} for s in self.seats],
            "salt": self.salt,
        }


def canonical_spec(
    spec: StrategySpec, found: Mapping[str, Strategy], table: CardTable | None = None
) -> StrategySpec:
    """``spec`` checked, with each parameter converted to its kind and written as JSON can
    hold it (a path as its text): what a tournament stores and compares on ``--resume``.
    With ``table``, the games' cards, a player that cannot play them refuses now.

    :raises StrategySpecError: for an unknown strategy or parameter, a bad value, or (its
        ``check_table`` hook) cards the player cannot play.
    """
    player = spec.make(0, found=found)  # an unknown strategy or parameter, the factory's refusal
    if table is not None:
        try:
            check_table(player, table)
        except DeathAngelError as exc:
            raise StrategySpecError(f"strategy {spec.text!r}: {exc}") from None
    where = f"strategy {spec.text!r}"
    strategy = found[spec.name]
    values: dict[str, Any] = {}
    for key in sorted(spec.values):
        value = strategy.parameter(key, where).convert(spec.values[key], where, spec.base)
        if isinstance(value, Path):
            # A file named by a relative path is pinned down (workers and later runs may
            # start elsewhere); other text (a shipped rule set's name) stays as written.
            value = str(value.resolve() if value.is_file() else value)
        values[key] = value
    return StrategySpec(spec.name, values, _spec_text(spec.name, values))


def file_digests(entries: Sequence[Entry], found: Mapping[str, Strategy]) -> dict[str, str]:
    """The SHA-256 of every file a parameter of an entry names: part of what the
    tournament is, so a rule file or a value model edited between two runs is not resumed
    as the same. Besides path parameters, a text parameter that names a file counts (a
    search's ``value`` and ``policy`` take a shipped name or a file's)."""
    digests: dict[str, str] = {}
    for entry in entries:
        for spec in entry.seats:
            kinds = {p.name: p.kind for p in found[spec.name].parameters}
            for key, value in spec.values.items():
                named = kinds.get(key) in ("path", "str") and isinstance(value, str)
                path = Path(value) if named and value else None
                if path is not None and path.is_file():
                    digests[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return dict(sorted(digests.items()))


def strategy_defaults(entries: Sequence[Entry], found: Mapping[str, Strategy]) -> dict[str, str]:
    """Each strategy the entries use, with the defaults of its parameters (as JSON): part of
    what the tournament is, so a resume by a version whose defaults differ (``mcts``'s value
    became ``auto`` for solo games) is refused rather than mixing two bots under one name."""
    out: dict[str, str] = {}
    for entry in entries:
        for spec in entry.seats:
            params = found[spec.name].parameters
            if params:
                defaults = {p.name: _plain(p.default) for p in params}
                out[spec.name] = json.dumps(defaults, sort_keys=True)
    return dict(sorted(out.items()))


def _plain(value: Any) -> Any:
    """A default as JSON can hold it, the same in every process: a plugin's default of some
    other type is recorded by its type's name (its text could hold a memory address)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, Path):
        return str(value)
    return type(value).__name__


# -- the tournament ------------------------------------------------------------------------------


@frozen
class TournamentConfig:
    """Everything that decides which games a tournament plays and how they come out."""

    games: int
    """Games per cell and entry (with an SPRT, the most it may play: its hard cap)."""
    seed: int
    """Game ``k`` of every cell has seed ``seed + k``."""
    cells: tuple[Cell, ...]
    entries: tuple[Entry, ...]
    sprt: SprtDesign | None = None
    plugins: tuple[str, ...] = ()
    """Modules registered as extra plugins, in the parent and in every worker."""
    files: tuple[tuple[str, str], ...] = ()
    """(path, SHA-256) of each file the entries' parameters name (see :func:`file_digests`)."""
    expansions: tuple[tuple[str, str], ...] = ()
    """Installed expansions every game is played with (``with``), as (name, version): a
    worker with another version refuses to play rather than mix card sets."""
    variants: tuple[tuple[str, str], ...] = ()
    """Rule variants every game is played with, as (name, value)."""
    defaults: tuple[tuple[str, str], ...] = ()
    """Each strategy the entries use and its parameters' defaults (see
    :func:`strategy_defaults`); empty in a database made before they were recorded."""
    bot_key: str = ""
    """The secret that seeds the bots (:mod:`deathangel.players.seeds`), 32 hex digits; empty
    until the results database gives it one (a new database draws it at random). Kept in the
    database's ``meta`` table, not in :meth:`to_dict`: the stored config names what is played,
    and a config file need not name a key."""
    isolate: bool = False
    """Run each bot in a process of its own (``--isolate``): how the games are played, not
    which, so not part of :meth:`to_dict` either (the results are the same)."""
    facts: bool = True
    """Store each game's facts beside its row (:mod:`deathangel.tournament.facts`; ``facts =
    false`` or ``--no-facts`` to leave them out). What is stored, not which games are played,
    so not part of :meth:`to_dict`: the results database keeps the choice it was made with."""

    def ruleset(self) -> Ruleset:
        """The cards, abilities and rule switches the games are played with (the installed
        expansions checked against the versions recorded).

        :raises DeathAngelError: in one line, for an expansion missing or at another version.
        """
        from deathangel.engine.game import GameConfig
        from deathangel.plugins.ruleset import ruleset_for

        return ruleset_for(GameConfig(1, plugins=self.expansions, variants=self.variants))

    def game_seed(self, k: int) -> int:
        return self.seed + k

    @property
    def total_games(self) -> int:
        return self.games * len(self.cells) * len(self.entries)

    def entry(self, name: str) -> Entry:
        for e in self.entries:
            if e.name == name:
                return e
        raise TournamentConfigError(f"the tournament has no entry {name!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seed": self.seed,
            "cells": [c.to_dict() for c in self.cells],
            "entries": [e.to_dict() for e in self.entries],
            "sprt": None if self.sprt is None else self.sprt.to_dict(),
            "plugins": list(self.plugins),
            "files": dict(self.files),
            # Only when set: a base-game tournament's stored config reads as before.
            **({"with": [list(p) for p in self.expansions]} if self.expansions else {}),
            **({"variants": [list(v) for v in self.variants]} if self.variants else {}),
            **({"defaults": dict(self.defaults)} if self.defaults else {}),
        }

    def to_json(self) -> str:
        """The canonical text stored with the results: two configs that play the same games
        write the same text."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentConfig:
        """The config :meth:`to_dict` wrote (as stored in a results database)."""
        entries = [
            Entry(
                e["name"],
                tuple(
                    StrategySpec(
                        s["strategy"], s["parameters"], _spec_text(s["strategy"], s["parameters"])
                    )
                    for s in e["seats"]
                ),
                int(e["salt"]),
            )
            for e in data["entries"]
        ]
        sprt = data.get("sprt")
        return cls(
            games=int(data["games"]),
            seed=int(data["seed"]),
            cells=tuple(Cell(int(c["players"]), str(c["teams"])) for c in data["cells"]),
            entries=tuple(entries),
            sprt=None if sprt is None else SprtDesign(**sprt),
            plugins=tuple(str(p) for p in data.get("plugins", [])),
            files=tuple((str(k), str(v)) for k, v in data.get("files", {}).items()),
            expansions=tuple((str(n), str(v)) for n, v in data.get("with", [])),
            variants=tuple((str(n), str(v)) for n, v in data.get("variants", [])),
            defaults=tuple((str(k), str(v)) for k, v in data.get("defaults", {}).items()),
        )


def _spec_text(name: str, values: Mapping[str, Any]) -> str:
    if not values:
        return name
    return name + ":" + ",".join(f"{k}={v}" for k, v in sorted(values.items()))


def plugin_modules(names: Iterable[str]) -> list[Any]:
    """The modules a tournament registers as extra plugins.

    :raises TournamentConfigError: naming a module that cannot be imported.
    """
    modules = []
    for name in names:
        try:
            modules.append(importlib.import_module(name))
        except ImportError as exc:
            raise TournamentConfigError(
                f"plugin module {name!r} cannot be imported: {exc}"
            ) from None
    return modules


def found_strategies(plugins: Sequence[str], with_: Sequence[str] = ()) -> dict[str, Strategy]:
    """Every strategy of the base game, of the expansions named (``with_``) and of the
    tournament's plugin modules."""
    from deathangel.plugins.manager import plugin_manager

    return strategies(plugin_manager(with_, extra=plugin_modules(plugins)))


# -- reading and building ------------------------------------------------------------------------

_KEYS = {
    "games",
    "seed",
    "players",
    "teams",
    "plugins",
    "with",
    "variants",
    "entry",
    "sprt",
    "bot_key",
    "facts",
}
_ENTRY_KEYS = {"name", "strategy", "seats", "salt"}
_SPRT_KEYS = {"p0", "p1", "alpha", "beta"}


def read_config_file(path: Path) -> dict[str, Any]:
    """The raw tables of a tournament file, its unknown keys refused.

    :raises TournamentConfigError: for an unreadable file, bad TOML or an unknown key.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TournamentConfigError(
            f"{path}: cannot read tournament file: {exc.strerror}"
        ) from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise TournamentConfigError(f"{path}: not a TOML file: {exc}") from None
    _no_unknown(data, _KEYS, str(path), "a tournament file")
    for i, entry in enumerate(_list(data.get("entry", []), f"{path}: entry"), start=1):
        if not isinstance(entry, dict):
            raise TournamentConfigError(f"{path}: [[entry]] {i} must be a table")
        _no_unknown(entry, _ENTRY_KEYS, f"{path}: [[entry]] {i}", "an entry")
    if "sprt" in data:
        if not isinstance(data["sprt"], dict):
            raise TournamentConfigError(f"{path}: [sprt] must be a table")
        _no_unknown(data["sprt"], _SPRT_KEYS, f"{path}: [sprt]", "[sprt]")
    return data


def _no_unknown(table: Mapping[str, Any], known: set[str], where: str, what: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise TournamentConfigError(
            f"{where}: unknown key(s) {', '.join(unknown)}; {what} takes {', '.join(sorted(known))}"
        )


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise TournamentConfigError(f"{where} must be a list")
    return value


def _int(value: Any, where: str, low: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TournamentConfigError(f"{where} must be a whole number, not {value!r}")
    if low is not None and value < low:
        raise TournamentConfigError(f"{where} must be at least {low}, not {value}")
    return value


def build_config(
    data: Mapping[str, Any],
    *,
    base: Path | None = None,
    where: str = "tournament",
) -> TournamentConfig:
    """A checked config from the raw tables of a file (or from flags put in that shape).

    ``base`` is the folder strategy files (``FILE.toml`` specs) are read relative to.

    :raises TournamentConfigError: for anything that cannot be played, in one line naming
        the key and the bad value.
    """
    games = _int(data.get("games", 100), f"{where}: games", 1)
    seed = _int(data.get("seed", 0), f"{where}: seed", 0)
    raw_players = data.get("players", [1])
    players = [raw_players] if isinstance(raw_players, int) else _list(raw_players, "players")
    counts: list[int] = []
    for p in players:
        n = _int(p, f"{where}: players")
        if not 1 <= n <= 6:
            raise TournamentConfigError(f"{where}: players must be between 1 and 6, not {n}")
        if n in counts:
            raise TournamentConfigError(f"{where}: player count {n} is given twice")
        counts.append(n)
    if not counts:
        raise TournamentConfigError(f"{where}: players names no player count")
    raw_teams = data.get("teams", [RANDOM_TEAMS])
    teams = [raw_teams] if isinstance(raw_teams, str) else _list(raw_teams, "teams")
    plugins = [str(p) for p in _list(data.get("plugins", []), f"{where}: plugins")]
    with_ = [str(p) for p in _list(data.get("with", []), f"{where}: with")]
    variants = [str(v) for v in _list(data.get("variants", []), f"{where}: variants")]
    rules = _ruleset(with_, variants, where)
    found = found_strategies(plugins, with_)
    cells = _cells(counts, [str(t) for t in teams], where, rules)
    table = card_table(rules.db, rules.switches)
    entries = _entries(_list(data.get("entry", []), f"{where}: entry"), found, base, where, table)
    sprt = None
    if data.get("sprt") is not None:
        s = data["sprt"]
        if len(entries) != 2:
            raise TournamentConfigError(
                f"{where}: an SPRT compares exactly two entries, not {len(entries)}"
            )
        try:
            sprt = SprtDesign(
                float(s["p0"]),
                float(s["p1"]),
                float(s.get("alpha", 0.05)),
                float(s.get("beta", 0.05)),
            )
        except KeyError as exc:
            raise TournamentConfigError(f"{where}: [sprt] needs {exc.args[0]}") from None
    files = tuple(file_digests(entries, found).items())
    defaults = tuple(strategy_defaults(entries, found).items())
    key = ""
    if data.get("bot_key") is not None:
        try:
            key = check_bot_key(str(data["bot_key"]))
        except ValueError as exc:
            raise TournamentConfigError(f"{where}: bot_key: {exc}") from None
    facts = data.get("facts", True)
    if not isinstance(facts, bool):
        raise TournamentConfigError(f"{where}: facts must be true or false, not {facts!r}")
    return TournamentConfig(
        games,
        seed,
        tuple(cells),
        tuple(entries),
        sprt,
        tuple(plugins),
        files,
        rules.plugins,
        rules.variants,
        defaults=defaults,
        bot_key=key,
        facts=facts,
    )


def _ruleset(with_: Sequence[str], variants: Sequence[str], where: str) -> Ruleset:
    """The expansions and variants the games are played with, checked now (before a game)."""
    from deathangel.plugins.ruleset import load_ruleset

    try:
        return load_ruleset(with_, variants=variants)
    except DeathAngelError as exc:
        raise TournamentConfigError(f"{where}: {exc}") from None


def _cells(counts: Sequence[int], teams: Sequence[str], where: str, rules: Ruleset) -> list[Cell]:
    from deathangel.engine.game import Game, GameConfig

    cells: list[Cell] = []
    fixed: dict[str, tuple[tuple[str, ...], ...]] = {}
    for text in teams:
        seats = parse_teams(text)
        if seats is not None:
            if len(seats) not in counts:
                raise TournamentConfigError(
                    f"{where}: teams {text!r} seat {len(seats)} player(s), which the "
                    "tournament does not play"
                )
            try:  # the engine's own check of colours and teams per seat
                Game(
                    GameConfig(len(seats), teams=seats),
                    ruleset=rules,
                    checkpoints=False,
                    forward=False,
                )
            except ValueError as exc:
                raise TournamentConfigError(f"{where}: teams {text!r}: {exc}") from None
            fixed[teams_text(seats)] = seats
    random = any(parse_teams(t) is None for t in teams)
    for n in counts:
        row = [Cell(n)] if random else []
        row += [Cell(n, key) for key, seats in fixed.items() if len(seats) == n]
        if not row:
            raise TournamentConfigError(f"{where}: no choice of teams fits {n} player(s)")
        for cell in row:
            if cell in cells:
                raise TournamentConfigError(f"{where}: teams {cell.teams!r} are given twice")
            cells.append(cell)
    return cells


def _entries(
    raw: Sequence[Any],
    found: Mapping[str, Strategy],
    base: Path | None,
    where: str,
    table: CardTable | None = None,
) -> list[Entry]:
    if not raw:
        raise TournamentConfigError(f"{where}: no entry; give at least one [[entry]] or --entry")
    entries: list[Entry] = []
    for i, e in enumerate(raw, start=1):
        place = f"{where}: entry {i}"
        if ("strategy" in e) == ("seats" in e):
            raise TournamentConfigError(f"{place}: give either strategy or seats")
        texts = [e["strategy"]] if "strategy" in e else _list(e["seats"], f"{place}: seats")
        if not texts or not all(isinstance(t, str) for t in texts):
            raise TournamentConfigError(f"{place}: strategies are written as text specs")
        specs = [canonical_spec(_parse(t, base), found, table) for t in texts]
        name = e.get("name", " | ".join(texts))
        if not isinstance(name, str) or not name.strip():
            raise TournamentConfigError(f"{place}: name must be a non-empty text")
        if any(x.name == name for x in entries):
            raise TournamentConfigError(
                f"{place}: two entries are called {name!r}; give them different names"
            )
        entries.append(
            Entry(name.strip(), tuple(specs), _int(e.get("salt", 0), f"{place}: salt", 0))
        )
    return entries


def _parse(text: str, base: Path | None) -> StrategySpec:
    spec = text.strip()
    # A strategy file is relative to the tournament file; a spec that merely ends in a file
    # parameter (rules:rules=mine.toml) is not a strategy file.
    is_file = spec.endswith(".toml") and not re.match(r"[\w.-]+:", spec)
    if is_file and base is not None and not Path(spec).is_absolute():
        return parse_spec(str(base / spec))
    return parse_spec(spec)
