"""The scenario file format: its typed model and reading a TOML file into it.

A scenario file is written by hand, so every mistake in it must come back as one line that
names the file and the key or entry at fault. This module checks the *shape* only — known
keys (anything else is refused, so a typo is never silently ignored), the type and range of
every value — and turns the file into a frozen :class:`Scenario`. Whether the names in it are
real cards, and whether the situation it describes is possible, needs a card database and is
checked while building the state (:mod:`deathangel.scenario.build`). Kept apart from that so
the format can be read, and its model reused, without the cards or the game.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from attrs import field, frozen

from deathangel.engine import lasting
from deathangel.engine.state import LEFT, MAX_PLAYERS, MIN_PLAYERS, PHASES, RIGHT, SIDES
from deathangel.errors import DeathAngelError

SCENARIO_PHASES = PHASES
"""Phases a scenario may start in: the engine's four phases (RULES §4)."""

EFFECT_KEYS = frozenset(
    kind.NAME
    for kind in (lasting.SecondWind, lasting.GunJam, lasting.Evasion, lasting.EnterFormation)
)
"""The lasting effects a scenario may put in force, this round or the next, keyed by their
effect names."""
TOP_KEYS = EFFECT_KEYS | frozenset(
    {
        "title",
        "description",
        "players",
        "seats",
        "seed",
        "round",
        "phase",
        "current_seat",
        "supply",
        "location",
        "location_tokens",
        "location_deck",
        "formation",
        "blips",
        "genestealer_discard",
        "event_deck_top",
        "event_discard",
        "revealed",
        "resolved",
        "last_resolved",
        "power_field",
        "next_round",
        "artefact",
        "activated",
        "slain",
        "brood_lords_slain",
        "plugins",
        "variants",
    }
)
ROW_KEYS = frozenset(
    {"marine", "facing", "tokens", "left", "right", "left_terrain", "right_terrain"}
)
NEXT_ROUND_KEYS = EFFECT_KEYS
TERRAIN_KEYS = frozenset({"name", "tokens"})


class ScenarioError(DeathAngelError, ValueError):
    """A scenario file that cannot be read or describes an impossible situation: the
    message names the file and the key or entry at fault."""


# -- the parsed file ---------------------------------------------------------------------------


@frozen
class TerrainSpec:
    """A terrain card beside a row, with the support tokens on it."""

    name: str
    tokens: int = 0


@frozen
class RowSpec:
    """One row of the formation as the file gives it."""

    marine: str
    facing: int
    """:data:`~deathangel.engine.state.LEFT` or :data:`~deathangel.engine.state.RIGHT`."""
    tokens: int = 0
    left: tuple[str, ...] = ()
    """Genestealers of the left swarm: icon names (``"claw"``) or Brood Lord names."""
    right: tuple[str, ...] = ()
    left_terrain: tuple[TerrainSpec, ...] = ()
    right_terrain: tuple[TerrainSpec, ...] = ()


@frozen
class EffectsSpec:
    """Effects that no revealed card carries (Event cards' effects, RULES §14.13)."""

    second_wind: tuple[str, ...] = ()
    """Marines whose defence roll of 0 misses."""
    gun_jam: tuple[str, ...] = ()
    """Teams that may not choose their Attack card."""
    evasion: bool = False
    enter_formation: bool = False


Pile = int | tuple[str, ...]
"""A pile given by size (its cards dealt at random) or by contents (top first)."""


@frozen
class Scenario:
    """A scenario file, parsed and checked for shape; card names are checked against a card
    database by :func:`scenario_state` (which :func:`load_scenario` runs once)."""

    path: str
    formation: tuple[RowSpec, ...]
    players: int = 1
    seats: tuple[tuple[str, ...], ...] | None = None
    seed: int = 0
    round: int = 1
    phase: str = "genestealer_attack"
    title: str = ""
    description: str = ""
    current_seat: int | None = None
    supply: int | None = None
    location: str | None = None
    location_tokens: int = 0
    location_deck: tuple[str, ...] | None = None
    blips: tuple[Pile | None, Pile | None] = (None, None)
    genestealer_discard: Pile = 0
    event_deck_top: tuple[str, ...] = ()
    event_discard: Pile = 0
    revealed: tuple[str, ...] = ()
    resolved: tuple[str, ...] | None = None
    last_resolved: tuple[str, ...] = ()
    power_field: tuple[str, ...] = ()
    """Protected swarms as ``"SIDE:POSITION"``."""
    effects: EffectsSpec = field(factory=EffectsSpec)
    next_round: EffectsSpec = field(factory=EffectsSpec)
    artefact: int | None = None
    activated: tuple[str, ...] = ()
    slain: tuple[str, ...] = ()
    brood_lords_slain: tuple[str, ...] = ()
    plugins: tuple[str, ...] = ()
    """Installed plugins the scenario's cards come from (as ``--with`` names them)."""
    variants: tuple[str, ...] = ()
    """Rule variants it is played with, as ``--variant`` writes them (``"defence=easier"``)."""

    def fail(self, key: str, message: str) -> ScenarioError:
        """The error to raise for a bad ``key`` of this file."""
        return ScenarioError(f"{self.path}: {key}: {message}")


# -- reading the file --------------------------------------------------------------------------


class _Reader:
    """Type checks with messages that name the file and the key."""

    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, key: str, message: str) -> ScenarioError:
        return ScenarioError(f"{self.path}: {key}: {message}")

    def keys(self, table: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
        extra = sorted(set(table) - allowed)
        if extra:
            key = f"{where}.{extra[0]}" if where else extra[0]
            raise self.fail(key, f"unknown key (allowed: {', '.join(sorted(allowed))})")

    def int_(self, value: Any, key: str, low: int | None = None, high: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"expected a whole number, not {value!r}")
        if low is not None and value < low:
            raise self.fail(key, f"must be at least {low}, not {value}")
        if high is not None and value > high:
            raise self.fail(key, f"must be at most {high}, not {value}")
        return value

    def str_(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            raise self.fail(key, f"expected a string, not {value!r}")
        return value

    def bool_(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, not {value!r}")
        return value

    def strs(self, value: Any, key: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(key, f"expected a list of strings, not {value!r}")
        return tuple(self.str_(v, f"{key}[{i + 1}]") for i, v in enumerate(value))

    def pile(self, value: Any, key: str) -> Pile:
        if isinstance(value, list):
            return self.strs(value, key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"expected a number of cards or a list of cards, not {value!r}")
        return self.int_(value, key, 0)

    def side(self, value: Any, key: str) -> int:
        text = self.str_(value, key)
        if text not in SIDES:
            raise self.fail(key, f"a side is 'left' or 'right', not {text!r}")
        return SIDES.index(text)

    def terrain(self, value: Any, key: str) -> tuple[TerrainSpec, ...]:
        if not isinstance(value, list):
            raise self.fail(key, f"expected a list of terrain names or tables, not {value!r}")
        cards = []
        for i, entry in enumerate(value):
            where = f"{key}[{i + 1}]"
            if isinstance(entry, str):
                cards.append(TerrainSpec(entry))
            elif isinstance(entry, dict):
                self.keys(entry, TERRAIN_KEYS, where)
                if "name" not in entry:
                    raise self.fail(where, "a terrain table needs a name")
                name = self.str_(entry["name"], f"{where}.name")
                tokens = self.int_(entry.get("tokens", 0), f"{where}.tokens", 0)
                cards.append(TerrainSpec(name, tokens))
            else:
                raise self.fail(where, f"expected a terrain name or table, not {entry!r}")
        return tuple(cards)

    def effects(self, data: Mapping[str, Any], where: str) -> EffectsSpec:
        prefix = f"{where}." if where else ""
        second_wind, gun_jam = lasting.SecondWind.NAME, lasting.GunJam.NAME
        evasion, enter = lasting.Evasion.NAME, lasting.EnterFormation.NAME
        return EffectsSpec(
            second_wind=self.strs(data.get(second_wind, []), prefix + second_wind),
            gun_jam=self.strs(data.get(gun_jam, []), prefix + gun_jam),
            evasion=self.bool_(data.get(evasion, False), prefix + evasion),
            enter_formation=self.bool_(data.get(enter, False), prefix + enter),
        )

    def row(self, value: Any, index: int) -> RowSpec:
        where = f"formation[{index}]"
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a table, not {value!r}")
        self.keys(value, ROW_KEYS, where)
        if "marine" not in value:
            raise self.fail(f"{where}.marine", "missing (every row needs its marine)")
        if "facing" not in value:
            raise self.fail(f"{where}.facing", "missing ('left' or 'right')")
        return RowSpec(
            marine=self.str_(value["marine"], f"{where}.marine"),
            facing=self.side(value["facing"], f"{where}.facing"),
            tokens=self.int_(value.get("tokens", 0), f"{where}.tokens", 0),
            left=self.strs(value.get("left", []), f"{where}.left"),
            right=self.strs(value.get("right", []), f"{where}.right"),
            left_terrain=self.terrain(value.get("left_terrain", []), f"{where}.left_terrain"),
            right_terrain=self.terrain(value.get("right_terrain", []), f"{where}.right_terrain"),
        )

    def scenario(self, data: Mapping[str, Any]) -> Scenario:
        self.keys(data, TOP_KEYS, "")
        raw_rows = data.get("formation")
        if not isinstance(raw_rows, list) or not raw_rows:
            raise self.fail("formation", "needs at least one [[formation]] row")
        rows = tuple(self.row(v, i) for i, v in enumerate(raw_rows, start=1))
        seats: tuple[tuple[str, ...], ...] | None = None
        if "seats" in data:
            raw = data["seats"]
            if not isinstance(raw, list) or not raw:
                raise self.fail("seats", f"expected a list of lists of team colours, not {raw!r}")
            seats = tuple(self.strs(s, f"seats[{i}]") for i, s in enumerate(raw, start=1))
        default_players = len(seats) if seats is not None else 1
        players = self.int_(
            data.get("players", default_players), "players", MIN_PLAYERS, MAX_PLAYERS
        )
        phase = self.str_(data.get("phase", "genestealer_attack"), "phase")
        if phase not in SCENARIO_PHASES:
            raise self.fail("phase", f"{phase!r} is not one of {', '.join(SCENARIO_PHASES)}")
        blips: list[Pile | None] = [None, None]
        if "blips" in data:
            raw = data["blips"]
            if not isinstance(raw, dict):
                raise self.fail("blips", f"expected a table with left/right, not {raw!r}")
            self.keys(raw, frozenset(SIDES), "blips")
            for side, name in enumerate(SIDES):
                if name in raw:
                    blips[side] = self.pile(raw[name], f"blips.{name}")
        next_round = data.get("next_round", {})
        if not isinstance(next_round, dict):
            raise self.fail("next_round", f"expected a table, not {next_round!r}")
        self.keys(next_round, NEXT_ROUND_KEYS, "next_round")
        location_deck = data.get("location_deck")
        current_seat = data.get("current_seat")
        supply = data.get("supply")
        artefact = data.get("artefact")
        resolved = data.get("resolved")
        return Scenario(
            path=self.path,
            formation=rows,
            players=players,
            seats=seats,
            seed=self.int_(data.get("seed", 0), "seed"),
            round=self.int_(data.get("round", 1), "round", 1),
            phase=phase,
            title=self.str_(data.get("title", ""), "title"),
            description=self.str_(data.get("description", ""), "description"),
            current_seat=None
            if current_seat is None
            else self.int_(current_seat, "current_seat", 1, players),
            supply=None if supply is None else self.int_(supply, "supply", 0),
            location=None if "location" not in data else self.str_(data["location"], "location"),
            location_tokens=self.int_(data.get("location_tokens", 0), "location_tokens", 0),
            location_deck=None
            if location_deck is None
            else self.strs(location_deck, "location_deck"),
            blips=(blips[LEFT], blips[RIGHT]),
            genestealer_discard=self.pile(
                data.get("genestealer_discard", 0), "genestealer_discard"
            ),
            event_deck_top=self.strs(data.get("event_deck_top", []), "event_deck_top"),
            event_discard=self.pile(data.get("event_discard", 0), "event_discard"),
            revealed=self.strs(data.get("revealed", []), "revealed"),
            resolved=None if resolved is None else self.strs(resolved, "resolved"),
            last_resolved=self.strs(data.get("last_resolved", []), "last_resolved"),
            power_field=self.strs(data.get("power_field", []), "power_field"),
            effects=self.effects(data, ""),
            next_round=self.effects(next_round, "next_round"),
            artefact=None if artefact is None else self.int_(artefact, "artefact", 1, players),
            activated=self.strs(data.get("activated", []), "activated"),
            slain=self.strs(data.get("slain", []), "slain"),
            brood_lords_slain=self.strs(data.get("brood_lords_slain", []), "brood_lords_slain"),
            plugins=self.strs(data.get("plugins", []), "plugins"),
            variants=self.strs(data.get("variants", []), "variants"),
        )


def parse_scenario(data: Mapping[str, Any], path: str = "<scenario>") -> Scenario:
    """A :class:`Scenario` from already-parsed TOML data (shape checks only)."""
    return _Reader(path).scenario(data)


def read_scenario_file(path: str | Path) -> Scenario:
    """Read a scenario file and check its shape (not yet against any cards).

    :raises ScenarioError: when the file cannot be read, is not TOML, or has a bad key.
    """
    name = str(path)
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise ScenarioError(f"{name}: cannot read scenario file: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{name}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:  # tomllib decodes the bytes itself, before parsing
        raise ScenarioError(
            f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start}); a scenario file is TOML"
        ) from None
    return parse_scenario(data, name)
