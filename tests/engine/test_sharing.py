"""Nothing a player receives is shared with the game (issue 17, finding 2).

The vandal is a strategy that, at every decision, walks everything it was handed — its
observation (the state copy, the card tables, the abilities, the forward-model record), the
decision and its options — and changes everything it can the ordinary ways: item assignment,
every mutating method of lists, dicts and sets, attribute assignment. What it may change must
be its own copy; what is shared must refuse (read-only mappings, tuples, frozen and sealed
objects). The proof: a game the vandal played ends exactly as the same choices end without it.

(A bot can still reach past these locks on purpose — ``object.__setattr__``, an instance's
``__dict__``, the process's memory: that is deliberate cheating, which only a process of its
own stops: ``--isolate``.)
"""

from __future__ import annotations

import random
import types
from typing import Any

import pytest
from plugin_kit import shipped_ruleset

from deathangel.engine.decisions import Decision, Option
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.viewdata import observation_data

SENTINEL = "vandalised"

_SKIP = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.CodeType,
)
_ATOMS = (str, bytes, int, float, bool, type(None))


def vandalise(root: object) -> int:
    """Try to change everything reachable from ``root``; returns how many changes took (on
    the vandal's own copies)."""
    seen: set[int] = set()
    stack = [root]
    took = 0
    while stack:
        obj = stack.pop()
        if isinstance(obj, (*_ATOMS, *_SKIP)) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
            # Emptied first, then filled with junk: a change that took is left in place.
            for change in (
                lambda d=obj: d.popitem(),
                lambda d=obj: d.clear(),
                lambda d=obj: d.__setitem__(SENTINEL, SENTINEL),
                lambda d=obj: d.update({SENTINEL: 1}),
                lambda d=obj: d.setdefault(SENTINEL + "2", 2),
            ):
                took += _attempt(change)
        elif isinstance(obj, list):
            stack.extend(obj)
            for change in (
                lambda xs=obj: xs.reverse(),
                lambda xs=obj: xs.clear(),
                lambda xs=obj: xs.append(SENTINEL),
                lambda xs=obj: xs.insert(0, SENTINEL),
            ):
                took += _attempt(change)
        elif isinstance(obj, set):
            stack.extend(obj)
            took += _attempt(lambda s=obj: s.clear())
            took += _attempt(lambda s=obj: s.add(SENTINEL))
        elif isinstance(obj, tuple | frozenset):
            stack.extend(obj)
        else:
            names = list(getattr(obj, "__dict__", {}))
            for cls in type(obj).__mro__:
                slots = cls.__dict__.get("__slots__", ())
                names += [slots] if isinstance(slots, str) else list(slots)
            for name in dict.fromkeys(names):
                if name.startswith("__") or not hasattr(obj, name):
                    continue
                stack.append(getattr(obj, name))
                took += _attempt(lambda o=obj, n=name: setattr(o, n, SENTINEL))
    return took


def _attempt(change: Any) -> int:
    try:
        change()
    except (TypeError, AttributeError, KeyError, ValueError, IndexError):
        return 0
    return 1


class Chooser:
    """Picks a random legal option from its own stream."""

    uses_forward_model = True  # so the game hands it the forward-model record too

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.changes = 0

    def choose(self, observation: Any, decision: Decision) -> Option:
        return decision.options[int(self.rng.random() * len(decision.options))]


class Vandal(Chooser):
    """The same choices as :class:`Chooser`, then it wrecks everything it was given."""

    def choose(self, observation: Any, decision: Decision) -> Option:
        option = super().choose(observation, decision)
        self.changes += vandalise((observation, decision, decision.options))
        return option


def played(config: GameConfig, player: Chooser, ruleset: Any = None) -> list[Any]:
    """The game ``player`` plays at every seat, as data at every decision: the decision asked,
    every seat's whole view and the full state."""
    game = Game(config, ruleset=ruleset)
    record = []
    while (decision := game.decision) is not None:
        views = [observation_data(game.observation(s)) for s in range(1, config.players + 1)]
        record.append([decision, views, game.state.to_dict(game.table)])
        game.apply(player.choose(game.observation(decision.seat), decision))
    record.append([game.outcome, game.state.to_dict(game.table)])
    return record


@pytest.mark.parametrize(("players", "seed"), [(1, 3), (2, 11), (4, 5), (6, 2)])
def test_a_vandal_changes_nothing_in_the_game_it_plays(players: int, seed: int) -> None:
    config = GameConfig(players, seed=seed)
    # First the honest game (the shared tables still untouched), then the vandal's: the same
    # choices must meet the same game at every decision, and end the same.
    honest = played(config, Chooser(seed))
    vandal = Vandal(seed)
    assert played(config, vandal) == honest
    assert vandal.changes > 0  # it did change things: its own copies
    # And a game started after the vandal is the same game again: nothing shared was hurt.
    assert played(config, Chooser(seed)) == honest


def test_a_vandal_changes_nothing_with_an_expansion() -> None:
    """Broodwake's enemy takes several hits: this game (found by playing) has wounded enemy
    cards at 38 of its decisions, so the vandal gets the wounds to work on."""
    ruleset = shipped_ruleset("broodwake")
    config = GameConfig(2, seed=7)
    honest = played(config, Chooser(7), ruleset)
    assert sum(bool(views[0]["state"]["wounds"]) for _, views, _ in honest[:-1]) > 10
    assert played(config, Vandal(7), ruleset) == honest
    assert played(config, Chooser(7), ruleset) == honest


def test_the_shared_parts_refuse_changes() -> None:
    game = Game(GameConfig(1, seed=1))
    obs = game.observation(1)
    with pytest.raises(AttributeError):
        obs.table.marines = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        obs.table.marines["Brother Leon"] = ("red", None)  # type: ignore[index]
    with pytest.raises(TypeError):
        obs.table.db.genestealers.icons["claw"] = 0  # type: ignore[index]
    assert obs.rules is not None
    with pytest.raises(TypeError):
        obs.rules.terrain_effects["door_token"] = print  # type: ignore[assignment]
    effect = next(a.effect for t in obs.table.db.teams for a in t.actions if a.effect)
    with pytest.raises(TypeError):
        effect.params["x"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        obs.state.wounds[0] = 5  # type: ignore[index]
    # What is the seat's own may change, and the game does not notice.
    obs.state.formation.clear()
    assert game.state.formation
    assert obs.forward is not None
    obs.forward.checkpoint.gs_discard.append(0)
    assert game.observation(1).forward.checkpoint.gs_discard == []  # type: ignore[union-attr]
