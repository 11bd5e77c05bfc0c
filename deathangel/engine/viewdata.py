"""An observation as plain data and back: what a bot in another process is sent.

A bot run apart from the game (``--isolate``) must be sent its seat's view as *data*: nothing
that is an object of the game's process. :func:`observation_data` turns an
:class:`~deathangel.engine.observation.Observation` (its state copy, pile sizes, pending
decision and forward-model record) into JSON-ready lists, dicts, numbers and strings, card by
card id; :func:`observation_from_data` rebuilds an equal observation against the receiving
process's own card tables and abilities (the same cards, loaded there). Ids, not names: an
Event card may have several copies with one name, and the bot must see exactly the ids the
game's process sees, or its choices (and so the results) would differ from play in process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deathangel.engine.decisions import Decision, Option
from deathangel.engine.lasting import from_code
from deathangel.engine.observation import ForwardData, Observation, PileCounts
from deathangel.engine.state import GameState, MarineState, Position, TerrainState
from deathangel.readonly import ReadOnlyDict

if TYPE_CHECKING:
    from deathangel.engine.abilities import Abilities
    from deathangel.engine.state import CardTable


def state_data(st: GameState) -> dict[str, Any]:
    """Every field of a state, exactly, as JSON-ready data (sets as sorted lists)."""
    return {
        "formation": [
            [
                p.marine.name,
                p.marine.team,
                p.marine.range,
                p.marine.facing,
                p.marine.tokens,
                p.swarms[0][:],
                p.swarms[1][:],
                [[t.name, t.tokens] for t in p.terrain[0]],
                [[t.name, t.tokens] for t in p.terrain[1]],
            ]
            for p in st.formation
        ],
        "gs_deck": st.gs_deck[:],
        "gs_discard": st.gs_discard[:],
        "blips": [st.blips[0][:], st.blips[1][:]],
        "event_deck": st.event_deck[:],
        "event_discard": st.event_discard[:],
        "event": st.event,
        "location_deck": st.location_deck[:],
        "location": st.location,
        "setup_location": None if st.setup_location is None else st.setup_location.name,
        "location_tokens": st.location_tokens,
        "supply": st.supply,
        "round": st.round,
        "phase": st.phase,
        "seats": [list(teams) for teams in st.seats],
        "team_seat": dict(st.team_seat),
        "current_seat": st.current_seat,
        "chosen": dict(st.chosen),
        "revealed": [list(r) for r in st.revealed],
        "resolved": sorted(st.resolved),
        "last_resolved": dict(st.last_resolved),
        "eliminated": sorted(st.eliminated),
        "slain": st.slain[:],
        "attacked": sorted(st.attacked),
        "moved": sorted(st.moved),
        "protected": sorted(st.protected),
        "activated": sorted(st.activated),
        "effects": [e.code() for e in st.effects],
        "next_effects": [e.code() for e in st.next_effects],
        "artefact": st.artefact,
        "lords_slain": st.lords_slain[:],
        "scouted": None if st.scouted is None else list(st.scouted),
        "event_hidden": st.event_hidden,
        "events_resolved": st.events_resolved[:],
        "outcome": st.outcome,
        "wounds": sorted([card, hits] for card, hits in st.wounds.items()),
    }


def state_from_data(data: dict[str, Any], table: CardTable) -> GameState:
    """The state :func:`state_data` wrote, against ``table`` (the same cards).

    :raises KeyError, TypeError, ValueError: for data that is not such a state.
    """
    st = GameState()
    st.formation = [
        Position(
            MarineState(name, team, range_, facing, tokens),
            [list(left), list(right)],
            [[TerrainState(n, t) for n, t in tl], [TerrainState(n, t) for n, t in tr]],
        )
        for name, team, range_, facing, tokens, left, right, tl, tr in data["formation"]
    ]
    st.gs_deck = list(data["gs_deck"])
    st.gs_discard = list(data["gs_discard"])
    st.blips = [list(data["blips"][0]), list(data["blips"][1])]
    st.event_deck = list(data["event_deck"])
    st.event_discard = list(data["event_discard"])
    st.event = data["event"]
    st.location_deck = list(data["location_deck"])
    st.location = data["location"]
    setup = data["setup_location"]
    st.setup_location = (
        None if setup is None else next(s for s in table.db.setup_locations if s.name == setup)
    )
    st.location_tokens = data["location_tokens"]
    st.supply = data["supply"]
    st.round = data["round"]
    st.phase = data["phase"]
    st.seats = [tuple(teams) for teams in data["seats"]]
    st.team_seat = dict(data["team_seat"])
    st.current_seat = data["current_seat"]
    st.chosen = dict(data["chosen"])
    st.revealed = [(int(i), str(team), str(card)) for i, team, card in data["revealed"]]
    st.resolved = set(data["resolved"])
    st.last_resolved = dict(data["last_resolved"])
    st.eliminated = set(data["eliminated"])
    st.slain = list(data["slain"])
    st.attacked = set(data["attacked"])
    st.moved = set(data["moved"])
    st.protected = set(data["protected"])
    st.activated = set(data["activated"])
    st.effects = [from_code(c) for c in data["effects"]]
    st.next_effects = [from_code(c) for c in data["next_effects"]]
    st.artefact = data["artefact"]
    st.lords_slain = list(data["lords_slain"])
    scouted = data["scouted"]
    st.scouted = None if scouted is None else (int(scouted[0]), int(scouted[1]))
    st.event_hidden = bool(data["event_hidden"])
    st.events_resolved = list(data["events_resolved"])
    st.outcome = data["outcome"]
    st.wounds = ReadOnlyDict({int(card): int(hits) for card, hits in data["wounds"]})
    return st


def decision_data(decision: Decision) -> dict[str, Any]:
    return {
        "seat": decision.seat,
        "kind": decision.kind,
        "options": [o.code() for o in decision.options],
        "prompt": decision.prompt,
    }


def decision_from_data(data: dict[str, Any]) -> Decision:
    return Decision(
        int(data["seat"]),
        str(data["kind"]),
        tuple(Option.from_code(code) for code in data["options"]),
        str(data["prompt"]),
    )


def observation_data(observation: Observation) -> dict[str, Any]:
    """Everything ``observation`` holds, as data (its card tables and abilities excepted:
    the receiving process has its own)."""
    fw = observation.forward
    return {
        "seat": observation.seat,
        "decision": None if observation.decision is None else decision_data(observation.decision),
        "state": state_data(observation.state),
        "counts": list(observation.counts),
        "rules": observation.rules is not None,
        "forward": None
        if fw is None
        else {
            "checkpoint": state_data(fw.checkpoint),
            "counts": list(fw.counts),
            "decisions": [None if o is None else o.code() for o in fw.decisions],
            "faces": list(fw.faces),
            "revealed": list(fw.revealed),
            "scouted_top": fw.scouted_top,
        },
    }


def observation_from_data(
    data: dict[str, Any], table: CardTable, rules: Abilities[Any] | None
) -> Observation:
    """The observation :func:`observation_data` wrote, against this process's ``table`` and
    ``rules`` (the same cards and abilities the game is played with).

    :raises KeyError, TypeError, ValueError: for data that is not such an observation.
    """
    fw = data["forward"]
    forward = (
        None
        if fw is None
        else ForwardData(
            checkpoint=state_from_data(fw["checkpoint"], table),
            counts=PileCounts(*fw["counts"]),
            decisions=tuple(None if c is None else Option.from_code(c) for c in fw["decisions"]),
            faces=tuple(int(f) for f in fw["faces"]),
            revealed=tuple(None if c is None else int(c) for c in fw["revealed"]),
            scouted_top=fw["scouted_top"],
        )
    )
    decision = data["decision"]
    return Observation(
        seat=data["seat"],
        decision=None if decision is None else decision_from_data(decision),
        state=state_from_data(data["state"], table),
        counts=PileCounts(*data["counts"]),
        table=table,
        rules=rules if data["rules"] else None,
        forward=forward,
    )
