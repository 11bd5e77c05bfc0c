"""A learned value: the chance the marines win from a position, fitted on many games.

:func:`~deathangel.players.search.value.position_value` is a logistic model of five hand-made
features. This module holds a richer one: some forty features of what the table shows (how
far through the locations, which final location, what every swarm would do if it attacked
now, marines and tokens, which marines stand, what is left in the decks), fed to a small
neural network (one or two ``tanh`` layers, a logistic output) fitted on the outcomes of many
played games by :mod:`deathangel.analysis.valuefit`. A search reads it where it cuts a
rollout short.

Only what any seat sees counts (:func:`features` reads no hidden pile's contents, only their
sizes): the same value for the real table and for any deal of it a search imagines.

A model is data, never code: a JSON file (``format``, ``version``, the feature names, the
inputs' centring and scaling, each layer's weights and biases), checked in full when loaded.
It is evaluated in plain Python: for one position at a time, as a search asks, that measured
faster than numpy (whose per-call overhead is larger than this network's arithmetic).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from operator import mul
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import frozen

from deathangel.engine.defence import kill_chance, swarm_strength
from deathangel.errors import DeathAngelError
from deathangel.players.search.value import _other_victory, danger, progress

if TYPE_CHECKING:
    from deathangel.engine.state import CardTable, GameState

FORMAT = "deathangel-value-model"
VERSION = 1

SHIPPED_DIR = Path(__file__).resolve().parent / "models"
"""Value models that ship with the game (``value=NAME`` finds ``NAME.json`` here)."""


class ValueModelError(DeathAngelError, ValueError):
    """A value model file that cannot be read, or is not one."""


def features(state: GameState, table: CardTable) -> dict[str, float]:
    """What the table shows about the marines' chances, as named numbers (public only)."""
    setup = state.setup_location
    formation = state.formation
    standing = len(formation)
    started = standing + len(state.slain)
    solo = 6.0 / max(1, started)
    margin = table.switches.defence_margin
    travels_total = len(setup.location_deck) if setup is not None else 1
    travels = travels_total - len(state.location_deck)
    if state.location is None:
        full = (setup.blips_left, setup.blips_right) if setup is not None else (1, 1)
    else:
        loc = table.locations[state.location]
        full = (loc.blips_left, loc.blips_right)
    engaged = behind = chances = worst = lords = tokens = 0.0
    swarms = 0
    for pos in formation:
        marine = pos.marine
        tokens += marine.tokens
        for side, swarm in enumerate(pos.swarms):
            if not swarm:
                continue
            size, lord = swarm_strength(table, swarm)
            chance = kill_chance(size, lord, margin)
            engaged += size
            lords += lord
            swarms += 1
            chances += chance
            worst = max(worst, chance)
            if side != marine.facing:
                behind += size
    out: dict[str, float] = {
        "progress": progress(state, table),
        "travels": travels / max(1, travels_total),
        "final": float(not state.location_deck),
        "blips_left": len(state.blips[0]) / max(1, full[0]),
        "blips_right": len(state.blips[1]) / max(1, full[1]),
        "standing": standing * solo / 6.0,
        "slain": len(state.slain) * solo / 6.0,
        "danger": danger(state, table) * solo,
        "kill_chances": chances * solo,
        "worst_chance": worst,
        "swarms": swarms * solo,
        "engaged": engaged * solo,
        "behind": behind * solo,
        "lords_engaged": lords,
        "lords_slain": float(len(state.lords_slain)),
        "tokens": tokens * solo,
        "supply": float(state.supply),
        "location_tokens": float(state.location_tokens),
        "other_victory": _other_victory(state, table),
        "genestealer_deck": len(state.gs_deck) / max(1, table.deck_size),
        "event_deck": len(state.event_deck) / max(1, len(table.events)),
        "round": state.round / 10.0,
        "teams_out": float(len(state.eliminated)),
    }
    if state.location is not None:
        out["at " + table.locations[state.location].name] = 1.0
    # Who stands, by name: the marines are not alike (their teams' action cards and their own
    # abilities differ), and a count of them cannot say which are left. A model that does not
    # name these features reads them as absent, so older models value every position as
    # before.
    for pos in formation:
        out["marine " + pos.marine.name] = 1.0
    return out


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueModelError(f"{where} must be a finite number, not {json.dumps(value)[:40]}")
    return float(value)


def _numbers(value: Any, n: int | None, where: str) -> tuple[float, ...]:
    if not isinstance(value, list) or (n is not None and len(value) != n):
        raise ValueModelError(f"{where} must be a list of {n if n is not None else ''} numbers")
    return tuple(_number(v, f"{where}[{i}]") for i, v in enumerate(value))


@frozen
class Layer:
    weights: tuple[tuple[float, ...], ...]
    """One row per output unit, one column per input."""
    bias: tuple[float, ...]


@frozen
class ValueModel:
    """A small network from :func:`features` to the chance of winning."""

    names: tuple[str, ...]
    """The features it reads, in order (a feature a position lacks counts as 0)."""
    centre: tuple[float, ...]
    scale: tuple[float, ...]
    layers: tuple[Layer, ...]
    """Hidden layers (``tanh``) then the output layer (one unit, logistic)."""
    about: str = ""
    """How it was fitted (games, seeds, scores), for people."""

    def __attrs_post_init__(self) -> None:
        width = len(self.names)
        if len(self.centre) != width or len(self.scale) != width:
            raise ValueModelError(
                f"{width} features but {len(self.centre)} centres, {len(self.scale)} scales"
            )
        for i, layer in enumerate(self.layers):
            if any(len(row) != width for row in layer.weights):
                raise ValueModelError(f"layer {i + 1}: a weights row is not {width} wide")
            width = len(layer.weights)

    def value(self, state: GameState, table: CardTable) -> float:
        """The chance the marines win from ``state``: 1 for a won game, 0 for a lost one."""
        if state.outcome == "victory":
            return 1.0
        if state.outcome == "defeat" or not state.formation:
            return 0.0
        return self.chance(features(state, table))

    def chance(self, named: Mapping[str, float]) -> float:
        get = named.get
        x = [
            (get(n, 0.0) - c) / s
            for n, c, s in zip(self.names, self.centre, self.scale, strict=True)
        ]
        last = len(self.layers) - 1
        for i, layer in enumerate(self.layers):
            # ``sum(map(mul, row, x))`` adds the same products in the same order as a
            # generator of ``w * v`` (so every value, and every search's choice, is the same
            # to the last bit), at about half its cost: this runs at the end of every rollout
            # of a search with a learned value. (``map`` stops at the shorter of the two:
            # every row's width is checked when the model is made.)
            out = [
                b + sum(map(mul, row, x)) for row, b in zip(layer.weights, layer.bias, strict=True)
            ]
            x = out if i == last else [math.tanh(v) for v in out]
        z = max(-40.0, min(40.0, x[0]))
        return 1.0 / (1.0 + math.exp(-z))

    # -- as data ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "about": self.about,
            "features": list(self.names),
            "centre": list(self.centre),
            "scale": list(self.scale),
            "layers": [
                {"weights": [list(r) for r in layer.weights], "bias": list(layer.bias)}
                for layer in self.layers
            ],
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def from_dict(cls, data: Any) -> ValueModel:
        """Check every field; :class:`ValueModelError` names the first that is wrong."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueModelError(f"not a deathangel value model (its 'format' is not {FORMAT!r})")
        if data.get("version") != VERSION:
            raise ValueModelError(
                f"value model version {data.get('version')!r} is not supported "
                f"(this reads {VERSION})"
            )
        names = data.get("features")
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            raise ValueModelError("'features' must list the feature names")
        n = len(names)
        centre = _numbers(data.get("centre"), n, "'centre'")
        scale = _numbers(data.get("scale"), n, "'scale'")
        if any(s <= 0 for s in scale):
            raise ValueModelError("every 'scale' must be above 0")
        raw_layers = data.get("layers")
        if not isinstance(raw_layers, list) or not raw_layers:
            raise ValueModelError("'layers' must list at least the output layer")
        layers = []
        width = n
        for i, raw in enumerate(raw_layers):
            where = f"layer {i + 1}"
            if (
                not isinstance(raw, dict)
                or not isinstance(raw.get("weights"), list)
                or not raw["weights"]
            ):
                raise ValueModelError(f"{where} must have 'weights' (one row per unit) and 'bias'")
            rows = tuple(
                _numbers(r, width, f"{where} weights row {j + 1}")
                for j, r in enumerate(raw["weights"])
            )
            bias = _numbers(raw.get("bias"), len(rows), f"{where} 'bias'")
            layers.append(Layer(rows, bias))
            width = len(rows)
        if width != 1:
            raise ValueModelError(f"the last layer must have one unit, not {width}")
        return cls(tuple(names), centre, scale, tuple(layers), str(data.get("about", "")))

    @classmethod
    def load(cls, path: str | Path) -> ValueModel:
        """A model file: a shipped one's name (``learned``) or a path. Never runs code.

        :raises ValueModelError: ``"<path>: ..."`` for a file that is missing, not JSON, or
            not a well-formed model.
        """
        path = resolve_model(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            if isinstance(exc, FileNotFoundError) and _bare_name(str(path)):
                # A name, not a path: most likely a shipped model's, misspelt.
                raise ValueModelError(
                    f"{path}: no such value model: neither a shipped one "
                    f"({', '.join(shipped_models()) or 'none'}) nor a file"
                ) from None
            raise ValueModelError(f"{path}: cannot read the value model: {exc.strerror}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueModelError(f"{path}: not a JSON file: {exc}") from None
        try:
            return cls.from_dict(data)
        except ValueModelError as exc:
            raise ValueModelError(f"{path}: {exc}") from None


def resolve_model(name: str | Path) -> Path:
    """A shipped model's file by name, or the path as given."""
    text = str(name)
    if _bare_name(text):
        shipped = SHIPPED_DIR / f"{text}.json"
        if shipped.is_file():
            return shipped
    return Path(name)


def _bare_name(text: str) -> bool:
    """Whether ``text`` names a model (no folder, no ``.json``) rather than a file."""
    return "/" not in text and "\\" not in text and not text.endswith(".json")


def shipped_models() -> Sequence[str]:
    return sorted(p.stem for p in SHIPPED_DIR.glob("*.json")) if SHIPPED_DIR.is_dir() else []
