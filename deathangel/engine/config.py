"""What fixes a game before its first decision: :class:`GameConfig` (players, seed, teams,
handicap, and the expansions and variants it is played with), and the save format's name and
version that a save file records with it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import field, frozen

from deathangel.engine.ruleset import PluginVersions, VariantChoices

SAVE_FORMAT = "deathangel-save"
SAVE_VERSION = 1


def _teams_converter(value: Any) -> tuple[tuple[str, ...], ...] | None:
    if value is None:
        return None
    return tuple(tuple(seat) for seat in value)


def _pairs_converter(value: Any) -> tuple[tuple[str, str], ...]:
    """``[["hive", "1.0"]]`` (JSON) or a mapping ``{"hive": "1.0"}`` -> a tuple of pairs."""
    if isinstance(value, Mapping):
        value = value.items()
    return tuple((str(name), str(text)) for name, text in value)


@frozen
class GameConfig:
    """What fixes a game before the first decision."""

    players: int
    """Number of seats, 1–6 (RULES §3)."""
    seed: int = 0
    """Fixes every shuffle and roll."""
    teams: tuple[tuple[str, ...], ...] | None = field(default=None, converter=_teams_converter)
    """Team colours for each seat; ``None`` deals teams at random from the seed."""
    handicap: int = 0
    """Support tokens each marine starts with, taken from the supply (house rule, §3)."""
    plugins: PluginVersions = field(default=(), converter=_pairs_converter)
    """Expansions the game is played with, as ``(name, version)``: a save names what it
    needs, so resuming without them (or with other versions) is refused, never a silent
    change of cards."""
    variants: VariantChoices = field(default=(), converter=_pairs_converter)
    """Rule variants the game is played with, as ``(name, value)``."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "players": self.players,
            "seed": self.seed,
            "teams": None if self.teams is None else [list(t) for t in self.teams],
            "handicap": self.handicap,
        }
        # Written only when set: a base game's save keeps the form older engines read.
        if self.plugins:
            data["plugins"] = [list(p) for p in self.plugins]
        if self.variants:
            data["variants"] = [list(v) for v in self.variants]
        return data

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> GameConfig:
        """The config :meth:`to_dict` wrote; ``KeyError``/``TypeError``/``ValueError`` when
        malformed."""
        for key in ("plugins", "variants"):
            pairs = raw.get(key, [])
            if not isinstance(pairs, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                for p in pairs
            ):
                raise ValueError(f"{key} must be a list of [name, text] pairs")
        return cls(
            players=int(raw["players"]),
            seed=int(raw["seed"]),
            teams=raw.get("teams"),
            handicap=int(raw.get("handicap", 0)),
            plugins=raw.get("plugins", []),
            variants=raw.get("variants", []),
        )

    def expansions(self) -> str:
        """What the config is played with beyond the base game, for messages."""
        parts = [f"plugin {n!r} {v}" for n, v in self.plugins]
        parts += [f"variant {n}={v}" if v else f"variant {n}" for n, v in self.variants]
        return ", ".join(parts) or "the base game alone"
