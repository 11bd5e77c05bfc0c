"""Builders for rule tests: a hand-made position, a scripted die, a scripted player.

A rule test builds exactly the situation a rule talks about, runs one piece of the engine
(a phase, an attack, a travel) with known die faces and answers, and checks the exact result.
Card names and labels (``"claw-1"``, ``"Brood Lord A"``) keep the tests readable.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from deathangel.cards.load import load_base
from deathangel.engine.abilities import Abilities
from deathangel.engine.core import GameOver
from deathangel.engine.decisions import Decision, Option
from deathangel.engine.game import card_table
from deathangel.engine.randomness import ScriptedDie, Streams
from deathangel.engine.rounds import Engine
from deathangel.engine.state import (
    LEFT,
    RIGHT,
    CardTable,
    GameState,
    MarineState,
    Position,
    TerrainState,
)

SIDE = {"left": LEFT, "right": RIGHT, "L": LEFT, "R": RIGHT}

TEST_BOT_KEY = "5e" * 16
"""A fixed bot key (:mod:`deathangel.players.seeds`) for tests that play the same bots twice."""


def table() -> CardTable:
    """Lookup tables of the base game."""
    return card_table(load_base())


def build_state(
    rows: Sequence[tuple[str, str] | tuple[str, str, int]],
    *,
    swarms: Mapping[tuple[int, str], Iterable[str]] | None = None,
    terrain: Mapping[tuple[int, str], Iterable[str]] | None = None,
    blips: tuple[Iterable[str], Iterable[str]] = ((), ()),
    players: int = 1,
    seats: Sequence[Sequence[str]] | None = None,
    location: str | None = None,
    location_deck: Sequence[str] = (),
    phase: str = "round_start",
    tables: CardTable | None = None,
) -> GameState:
    """A state from a readable description.

    ``rows``: ``(marine name, "L"/"R"[, tokens])`` top first. ``swarms``/``terrain``: keyed
    by (1-based position, "left"/"right"). ``blips``: labels, top card first. ``seats``:
    teams per seat; by default every team with a marine in ``rows`` goes to seat 1.
    ``location_deck``: location names, top first. Cards not placed stay in the Genestealer
    deck (in id order, so tests never depend on a shuffle) and the Event deck. ``tables``:
    another card set's (an expansion's); the base game's by default.
    """
    t = tables if tables is not None else table()
    db = t.db
    st = GameState()
    st.setup_location = db.setup_location_for(players)
    placed: set[int] = set()
    for row in rows:
        name, facing = row[0], row[1]
        tokens = row[2] if len(row) > 2 else 0  # type: ignore[misc]
        team, marine = t.marines[name]
        st.formation.append(Position(MarineState(name, team, marine.range, SIDE[facing], tokens)))
    for (pos, side), labels in (swarms or {}).items():
        for label in labels:
            card = t.gs_by_label[label]
            st.formation[pos - 1].swarms[SIDE[side]].append(card)
            placed.add(card)
    for (pos, side), names in (terrain or {}).items():
        for name in names:
            st.formation[pos - 1].terrain[SIDE[side]].append(TerrainState(name))
    for side, labels in zip((LEFT, RIGHT), blips, strict=True):
        cards = [t.gs_by_label[label] for label in labels]
        placed.update(cards)
        st.blips[side] = cards[::-1]  # top card last
    st.gs_deck = [c for c in range(t.deck_size) if c not in placed][::-1]
    st.event_deck = list(range(len(t.events)))
    if seats is None:
        teams = list(dict.fromkeys(p.marine.team for p in st.formation))
        seats = [teams]
    st.seats = [tuple(s) for s in seats]
    st.team_seat = {team: i for i, s in enumerate(st.seats, start=1) for team in s}
    if location is not None:
        st.location = t.location_by_name[location]
    st.location_deck = [t.location_by_name[n] for n in location_deck][::-1]
    st.supply = db.support_tokens - sum(p.marine.tokens for p in st.formation)
    st.phase = phase
    return st


def make_engine(
    state: GameState,
    dice: Sequence[int] = (),
    *,
    abilities: Abilities | None = None,
    seed: int = 0,
    tables: CardTable | None = None,
) -> Engine:
    """An engine on ``state`` whose die shows ``dice`` in order (and fails if rolled more);
    ``tables`` as for :func:`build_state`."""
    return Engine(
        state,
        tables if tables is not None else table(),
        Streams(seed),
        ScriptedDie(dice),
        abilities or Abilities(),
        log=[],
    )


def drive(
    flow: Generator[Decision, Option, Any], answers: Iterable[Option | Sequence[Any]] = ()
) -> list[Decision]:
    """Run a piece of the engine, answering its decisions in order.

    Every answer must be legal for the decision it meets; running out of answers while the
    flow still asks, or ending with answers unused, fails the test. ``GameOver`` ends the
    flow quietly (check ``state.outcome``). Returns the decisions met, in order.
    """
    seen: list[Decision] = []
    pending = [a if isinstance(a, Option) else Option.from_code(a) for a in answers]
    try:
        decision = next(flow)
        while True:
            seen.append(decision)
            if not pending:
                raise AssertionError(f"unanswered decision: {decision} {decision.options}")
            answer = pending.pop(0)
            if answer not in decision.options:
                raise AssertionError(f"{answer!r} not legal for {decision}: {decision.options}")
            decision = flow.send(answer)
    except (StopIteration, GameOver):
        pass
    if pending:
        raise AssertionError(f"answers left unused: {pending}")
    return seen


def swarm_labels(state: GameState, position: int, side: str) -> list[str]:
    """Labels of the swarm at a 1-based position and side, sorted."""
    t = table()
    return sorted(t.gs_labels[c] for c in state.formation[position - 1].swarms[SIDE[side]])


def marines(state: GameState) -> list[str]:
    """Marine names top to bottom."""
    return [p.marine.name for p in state.formation]


REFERENCE = Path(__file__).parent / "data" / "base-game.json"
"""The card-fact reference, copied into the repo (see tests/data/README.md)."""


def reference() -> dict[str, Any]:
    """The reference card facts; fails clearly if the copy is missing."""
    if not REFERENCE.is_file():
        raise AssertionError(f"reference card list missing: {REFERENCE}")
    data: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return data


def reference_counts() -> dict[str, int]:
    """Cards of each kind (copies included) by the reference, as ``cards validate`` counts."""
    ref = reference()
    teams = ref["combat_teams"]
    return {
        "marines": sum(len(t["marines"]) for t in teams),
        "actions": sum(len(t["actions"]) for t in teams),
        "genestealers": sum(ref["genestealer_deck"]["icons"].values()),
        "brood_lords": len(ref["brood_lords"]),
        "events": sum(e["copies"] for e in ref["events"]),
        "locations": len(ref["setup_locations"]) + len(ref["locations"]),
        "terrain": len(ref["terrain"]),
    }
