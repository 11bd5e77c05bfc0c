"""Action-card abilities that act on their own (support, Move + Activate and end-of-Event
windows). Abilities that change a roll or an attack are answered by
:class:`deathangel.engine.effects.dispatch.CardAbilities` directly, since they modify the engine's
questions rather than add steps.

Each function here takes ``(engine, team, card, params)`` and may ask decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import deathangel.engine.decisions as d
from deathangel.cards.catalogue import ActionTiming
from deathangel.engine.decisions import DONE, Option
from deathangel.engine.effects.common import (
    card_of,
    return_tokens,
    smallest_pile,
    support_attacks,
    swarm_options,
    target_of,
)
from deathangel.engine.state import LEFT, RIGHT, SIDES

if TYPE_CHECKING:
    from deathangel.engine.decisions import Flow
    from deathangel.engine.rounds import Engine

ActionEffect = Callable[["Engine", str, str, Mapping[str, Any]], "Flow"]


def power_field(engine: Engine, team: str, card: str, params: Mapping[str, Any]) -> Flow:
    """Pick any swarm: it can neither attack nor be slain for the rest of the round."""
    st = engine.state
    options = swarm_options(engine)
    if not options:
        engine.note(f"{card}: no swarm to protect")
        return
    options.append(DONE)
    choice = yield from engine.ask(
        st.team_seat[team], d.TARGET_SWARM, options, f"{card}: protect which swarm?"
    )
    if choice.verb == "done":
        return
    row, side = target_of(choice)
    st.protected.update(st.formation[row].swarms[side])
    engine.note(f"a Power Field protects the {SIDES[side]} swarm at position {row + 1}")


def move_swarm(engine: Engine, team: str, card: str, params: Mapping[str, Any]) -> Flow:
    """Pick a swarm; move it one row up or down and/or to the other side (Strategize)."""
    st = engine.state
    seat = st.team_seat[team]
    options = swarm_options(engine)
    if not options:
        engine.note(f"{card}: no swarm to move")
        return
    options.append(DONE)
    choice = yield from engine.ask(seat, d.TARGET_SWARM, options, f"{card}: move which swarm?")
    if choice.verb == "done":
        return
    row, side = target_of(choice)
    places = [
        Option("place", (r + 1, SIDES[s]))
        for r in (row - 1, row, row + 1)
        for s in (LEFT, RIGHT)
        if 0 <= r < len(st.formation) and (r, s) != (row, side)
    ]
    where = yield from engine.ask(seat, d.TARGET_SWARM, places, f"{card}: move it where?")
    drow, dside = target_of(where)
    cards = st.formation[row].swarms[side]
    st.formation[row].swarms[side] = []
    # It joins a swarm already there once this card has resolved (FAQ): nothing else
    # happens before that, so joining the list now is the same.
    st.formation[drow].swarms[dside].extend(cards)
    engine.note(f"{len(cards)} genestealer(s) move to the {SIDES[dside]} of position {drow + 1}")


def spend_support_to_attack(
    engine: Engine, team: str, card: str, params: Mapping[str, Any]
) -> Flow:
    """Run and Gun: after the action, each marine may pay 1 token for 1 normal attack."""
    return support_attacks(engine, team, card)


def overwatch(engine: Engine, team: str, card: str, params: Mapping[str, Any]) -> Flow:
    """At the end of the Event phase, each marine may pay 1 token for 1 normal attack."""
    return support_attacks(engine, team, card)


def intimidate(engine: Engine, team: str, card: str, params: Mapping[str, Any]) -> Flow:
    """Roll; send up to that many genestealers engaged with the team's marines into the
    smallest blip pile (§14.5: the face is a maximum; the pile is decided on resolving)."""
    st = engine.state
    seat = st.team_seat[team]
    table = engine.table

    def candidates() -> list[Option]:
        # Brood Lords never go into a blip pile (§1).
        return [
            Option("take", (row + 1, SIDES[side], table.gs_labels[c]))
            for row, pos in enumerate(st.formation)
            if pos.marine.team == team
            for side in (LEFT, RIGHT)
            for c in table.distinct(
                (c for c in pos.swarms[side] if not table.is_brood_lord(c)), st.wounds
            )
        ]

    if not candidates():
        engine.note(f"{card}: no genestealer that may fall back is engaged with the {team} team")
        return
    choice = yield from engine.ask(
        seat, d.CHOOSE, [Option("yes", ("roll",)), Option("no")], f"{card}: roll the die?"
    )
    if choice.verb != "yes":
        return
    roll = engine.roll_plain(
        f"{card}: how many genestealers fall back",
        lambda r: f"up to {r.face} may fall back" if r.face else "a 0: none falls back",
    )
    if roll.face == 0:
        return
    # The pile is decided before any card moves (§14.5: on resolving), and each card goes
    # straight into it, so no card is ever in no place (§12); the pile is shuffled after.
    pile = yield from smallest_pile(engine, seat, f"{card}: which pile takes them?")
    taken = 0
    for _ in range(roll.face):
        options = candidates()
        if not options:
            break
        options.append(DONE)
        pick = yield from engine.ask(seat, d.TARGET_SWARM, options, f"{card}: send back which?")
        if pick.verb == "done":
            break
        row, side, c = card_of(engine, pick)
        st.formation[row].swarms[side].remove(c)
        st.protected.discard(c)
        engine.heal([c])
        st.blips[pile].append(c)
        taken += 1
    if taken:
        engine.streams.shuffle("blips", st.blips[pile])
        engine.note(f"{taken} genestealer(s) are shuffled into the {SIDES[pile]} blip pile")


def discard_blips(engine: Engine, team: str, card: str, params: Mapping[str, Any]) -> Flow:
    """Stealth Tactics: discard the top of one blip pile; then, for 1 token from a marine of
    the resolving player (§14.4), the top of the other."""
    st = engine.state
    seat = st.team_seat[team]
    options = [Option("pile", (SIDES[s],)) for s in (LEFT, RIGHT) if st.blips[s]]
    if not options:
        engine.note(f"{card}: both blip piles are empty")
        return
    options.append(DONE)
    choice = yield from engine.ask(seat, d.TARGET_PILE, options, f"{card}: discard the top of?")
    if choice.verb == "done":
        return
    first = choice.side()
    _discard_top(engine, first)
    other = 1 - first
    mine = set(st.seats[seat - 1])
    payers = [
        Option("marine", (p.marine.name,))
        for p in st.formation
        if p.marine.team in mine and p.marine.tokens > 0
    ]
    if not st.blips[other] or not payers:
        return
    payers.append(DONE)
    pay = yield from engine.ask(
        seat, d.TARGET_MARINE, payers, f"{card}: spend a token to discard the other pile's top?"
    )
    if pay.verb == "done":
        return
    return_tokens(engine, pay.text("marine"), 1)
    _discard_top(engine, other)


def _discard_top(engine: Engine, side: int) -> None:
    st = engine.state
    card = engine.reveal(st.blips[side])
    st.gs_discard.append(card)
    engine.note(f"the top card of the {SIDES[side]} blip pile is discarded")
    engine.check_end()


def scout_event_deck(engine: Engine, team: str, card: str, params: Mapping[str, Any]) -> Flow:
    """Forward Scouting: look at the top Event card; leave it or put it at the bottom."""
    st = engine.state
    seat = st.team_seat[team]
    if not st.event_deck:
        engine.note(f"{card}: the Event deck is empty: nothing to look at (§14.23)")
        return
    look = yield from engine.ask(
        seat, d.CHOOSE, [Option("yes", ("look",)), Option("no")], f"{card}: look at the top?"
    )
    if look.verb != "yes":
        return
    top = engine.peek(st.event_deck, seat)
    name = engine.table.events[top].name
    choice = yield from engine.ask(
        seat,
        d.CHOOSE,
        [Option("top"), Option("bottom")],
        f"{card}: the top Event card is {name}",
    )
    if choice.verb == "bottom" and len(st.event_deck) > 1:
        st.event_deck.pop()
        st.event_deck.insert(0, top)
        engine.note("the top Event card is put at the bottom")
        st.scouted = None
    else:
        st.scouted = (seat, top)


ACTION_EFFECTS: dict[ActionTiming, dict[str, ActionEffect]] = {
    "support_after": {
        "power_field": power_field,
        "move_swarm": move_swarm,
    },
    "move_activate_after": {
        "spend_support_to_attack": spend_support_to_attack,
        "intimidate": intimidate,
        "discard_blips": discard_blips,
        "scout_event_deck": scout_event_deck,
    },
    "end_of_event": {"overwatch": overwatch},
}
"""The action-card abilities that add steps, by the window where each works (its catalogue
timing)."""
