"""Event-card abilities (RULES §8 step 1), one function per effect name of the catalogue.

Each takes ``(engine, params)``, runs before the card's spawn boxes, and asks its decisions of
the current player. Instinct cards follow RULES §8: the choice must be a valid target if one
exists, and where the card implies a maximum the chooser must pick a target that achieves the
most it can (:func:`deathangel.engine.effects.common.best`). When every legal choice would leave the
game the same (no valid target, or nothing the card could change), nothing is asked (§14.3).

Each returns a flow that the engine drives at once (``yield from``): one that may ask is a
generator; one that never asks acts when called and returns
:func:`~deathangel.engine.decisions.no_questions`. Movements made by an ability (Surrounded,
Flanking Manoeuvre) are not move-box movements and do not set the "moved this Event" flags of
§8.3; neither card has a move box, so the base game never tells.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import TYPE_CHECKING, Any

import deathangel.engine.decisions as d
from deathangel.engine.abilities import is_door
from deathangel.engine.decisions import Decision, Option, no_questions
from deathangel.engine.effects.common import (
    best,
    engaged_count,
    marine_options,
    return_tokens,
    shuffle_into_pile,
    slay_engaged,
    smallest_pile,
    spawn_behind,
    swarm_options,
    target_of,
)
from deathangel.engine.effects.locations import add_door_token
from deathangel.engine.formation import swarm_destination
from deathangel.engine.lasting import ENTER_FORMATION, EVASION, GunJam, SecondWind
from deathangel.engine.state import LEFT, RIGHT, SIDES, MarineState, Position

if TYPE_CHECKING:
    from deathangel.engine.decisions import Flow
    from deathangel.engine.rounds import Engine

EventEffect = Callable[["Engine", Mapping[str, Any]], "Flow"]


def _card(engine: Engine) -> str:
    """The name of the Event being resolved, for prompts and the log."""
    event = engine.event_card()
    return event.name if event is not None else "Event"


def _no_effect(engine: Engine, why: str) -> None:
    """Say why the Event's ability does nothing: a quiet card would look like a bug."""
    engine.note(f"{_card(engine)}: no effect, {why}")


def _choose_marine(
    engine: Engine, options: list[Option], what: str
) -> Generator[Decision, Option, int]:
    """Ask the current player (RULES §8: Instinct choices are his) to pick a marine; returns
    his row."""
    st = engine.state
    choice = yield from engine.ask(
        st.current_seat, d.TARGET_MARINE, options, f"{_card(engine)}: {what}"
    )
    return st.marine_row(choice.text("marine"))


# -- swarms move -----------------------------------------------------------------------------


def surround(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Surrounded (Instinct): any marine is a valid target. Sides are kept because the card
    moves genestealers along the formation, never across it. With no genestealer in the
    formation every choice does nothing, so nothing is asked (§14.3)."""
    st = engine.state
    if st.genestealers_in_formation() == 0:
        _no_effect(engine, "no genestealer is in the formation")
        return
    row = yield from _choose_marine(
        engine, marine_options(engine), "every genestealer moves to which marine?"
    )
    target = st.formation[row]
    for r, pos in enumerate(st.formation):
        if r == row:
            continue
        for side in (LEFT, RIGHT):
            if pos.swarms[side]:
                # Genestealers at one row and side are one swarm (§14.17): they merge, and a
                # Power Field among them protects the whole merged swarm (FAQ).
                target.swarms[side].extend(pos.swarms[side])
                pos.swarms[side] = []
    engine.note(f"every genestealer moves to position {row + 1}")


def flank_all(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Flanking Manoeuvre: the move-box "flank" of §8.3 applied to every swarm at once,
    whatever its icons; a swarm already behind its marine stays (formation.swarm_destination).
    """
    st = engine.state
    moved = 0
    for row, pos in enumerate(st.formation):
        for side in (LEFT, RIGHT):
            swarm = pos.swarms[side]
            if not swarm:
                continue
            drow, dside = swarm_destination(st, row, side, "flank")
            if (drow, dside) != (row, side):
                # Only the swarm in front moves, onto the side behind, which itself never
                # moves: applying row by row cannot move a card twice.
                st.formation[drow].swarms[dside].extend(swarm)
                pos.swarms[side] = []
                moved += len(swarm)
    engine.note(f"{moved} genestealer(s) flank")
    return no_questions()


# -- genestealers appear -----------------------------------------------------------------------


def spawn_behind_marine(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Out of Thin Air (Instinct): COUNT is a maximum (§8), so the chooser must pick a marine
    whose rear pile can supply the most of it. They come from the pile of the side where they
    appear (§14.9). When both piles are empty nothing can spawn and nothing is asked."""
    st = engine.state
    count = int(params["count"])
    scored = [
        (Option("marine", (p.marine.name,)), min(count, len(st.blips[1 - p.marine.facing])))
        for p in st.formation
    ]
    options = best(scored)
    if not options or max(score for _, score in scored) == 0:
        _no_effect(engine, "both blip piles are empty")
        return
    row = yield from _choose_marine(engine, options, f"spawn {count} behind which marine?")
    spawn_behind(engine, row, count)


def reinforce_blips(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """The Swarm: new cards go on top of each pile, left first. A short Genestealer deck
    (with its discard) is shared as for any filling of the piles (§12): as equally as
    possible, the current player placing an odd last card."""
    st = engine.state
    count = int(params["count"])
    yield from engine.fill_blips(len(st.blips[LEFT]) + count, len(st.blips[RIGHT]) + count)


def spawn_before_unengaged(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """They're Everywhere!: marines are served top to bottom, each from the pile of the side he
    faces (§14.10), so a short pile serves the upper marines first.

    Which marines are unengaged is decided once, before any spawn. Deciding it marine by marine
    instead gives the same result: a spawn lands only at its own marine's row, so it can never
    engage another marine.
    """
    st = engine.state
    unengaged = [
        row
        for row, pos in enumerate(st.formation)
        if not pos.swarms[LEFT] and not pos.swarms[RIGHT]
    ]
    for row in unengaged:
        engine.spawn(row, st.formation[row].marine.facing, 1)
    return no_questions()


# -- support tokens ----------------------------------------------------------------------------


def engaged_lose_support(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Outnumbered: a swarm under a Power Field is still engaged (the Field stops attacks and
    slaying, not engagement). Lost tokens go back to the supply (§1: the total never changes)."""
    for pos in engine.state.formation:
        if (pos.swarms[LEFT] or pos.swarms[RIGHT]) and pos.marine.tokens:
            n = return_tokens(engine, pos.marine.name)
            engine.note(f"{pos.marine.name} loses {n} support token(s)")
    return no_questions()


def lose_all_support(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Stalking from the Shadows (Instinct): only a marine with a token is a valid target
    (§8); if none has one the card does nothing and asks nothing."""
    st = engine.state
    options = marine_options(engine, lambda row: st.formation[row].marine.tokens > 0)
    if not options:
        _no_effect(engine, "no marine has a support token")
        return
    row = yield from _choose_marine(engine, options, "which marine loses all his tokens?")
    name = st.formation[row].marine.name
    n = return_tokens(engine, name)
    engine.note(f"{name} loses {n} support token(s)")


def gather_support(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Resupply (Instinct): tokens change hands, never leave play (§12). With no token on any
    marine every choice does nothing, so nothing is asked (§14.3)."""
    st = engine.state
    if not any(p.marine.tokens for p in st.formation):
        _no_effect(engine, "no marine has a support token")
        return
    row = yield from _choose_marine(
        engine, marine_options(engine), "which marine takes every support token?"
    )
    receiver = st.formation[row].marine
    for pos in st.formation:
        if pos.marine is not receiver:
            receiver.tokens += pos.marine.tokens
            pos.marine.tokens = 0
    engine.note(f"{receiver.name} now holds {receiver.tokens} support token(s)")


def door_tokens(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Secret Route: tokens come from the supply, a hard limit (§1), so fewer may arrive; with
    no Door in the formation nothing happens. A Door is any terrain card with the Door's
    effect (:func:`~deathangel.engine.abilities.is_door`); the base game has one, and with
    more (an expansion's) the topmost takes the tokens."""
    table = engine.table
    door = next(
        (
            t.name
            for pos in engine.state.formation
            for side in pos.terrain
            for t in side
            if is_door(table, t.name)
        ),
        None,
    )
    if door is None:
        return no_questions()
    for _ in range(int(params["count"])):
        if not add_door_token(engine, door):
            break
    return no_questions()


# -- marines ------------------------------------------------------------------------------------


def flip_all(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Chaos of Battle: every marine, whatever his team; swarms and terrain stay (they belong
    to positions, §6.2)."""
    for pos in engine.state.formation:
        pos.marine.facing = 1 - pos.marine.facing
    engine.note("every marine turns about")
    return no_questions()


def roll_or_die(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Psychic Assault (Instinct): any marine is a valid target. The roll is neither attack nor
    defence, so support can never reroll it (§6.4)."""
    st = engine.state
    row = yield from _choose_marine(engine, marine_options(engine), "which marine is assailed?")
    name = st.formation[row].marine.name
    faces = params["faces"]
    roll = engine.roll_plain(
        f"{_card(engine)}: does {name} survive?",
        lambda r: "he is slain" if r.face in faces else "he survives",
    )
    if roll.face in params["faces"]:
        engine.kill_marine(name, _card(engine))


def rescue_marine(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Rescue Space Marine (Instinct): only a slain marine whose team is not eliminated may
    return (an eliminated team's cards have left play, §9). He comes back with no tokens,
    facing right, at a new bottom row: an insertion, nothing else moves (§9, §14.14)."""
    st = engine.state
    names = [n for n in dict.fromkeys(st.slain) if engine.table.marines[n][0] not in st.eliminated]
    if not names:
        _no_effect(engine, "no slain marine of a team still in play")
        return
    options = [Option("marine", (n,)) for n in names]
    choice = yield from engine.ask(
        st.current_seat, d.TARGET_MARINE, options, f"{_card(engine)}: which marine returns?"
    )
    name = choice.text("marine")
    team, card = engine.table.marines[name]
    st.slain.remove(name)
    st.formation.append(Position(MarineState(name, team, card.range, RIGHT, 0)))
    engine.note(f"{name} rejoins the formation at position {len(st.formation)}")


# -- slaying -------------------------------------------------------------------------------------


def trade_support_for_kill(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """For My Battle Brothers! (Instinct): the card restricts the choice to a marine with a
    token whenever one has one; among those the chooser must pick one who can also slay (§8:
    the most it can). Power-Field swarms cannot lose a card (FAQ), so they do not count."""
    st = engine.state
    holders = [row for row, p in enumerate(st.formation) if p.marine.tokens > 0]
    rows = holders or list(range(len(st.formation)))
    scored = [
        (
            Option("marine", (st.formation[row].marine.name,)),
            int(engaged_count(engine, row, slayable=True) > 0),
        )
        for row in rows
    ]
    if not holders and not any(score for _, score in scored):
        # No token to discard and nothing to slay: every choice does nothing.
        _no_effect(engine, "no marine has a token or a genestealer that may be slain")
        return
    row = yield from _choose_marine(
        engine, best(scored), "which marine trades a token for a genestealer?"
    )
    name = st.formation[row].marine.name
    return_tokens(engine, name, 1)
    yield from slay_engaged(engine, row, 1, st.current_seat)


def spend_support_to_slay(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Rewarded Faith (Instinct): "any number" is capped by his tokens and by the genestealers
    that may be slain beside him, and the chooser must pick a marine allowing the largest such
    number (§8); he may still spend fewer. Nothing is asked when no marine could slay any."""
    st = engine.state
    scored = [
        (
            Option("marine", (p.marine.name,)),
            min(p.marine.tokens, engaged_count(engine, row, slayable=True)),
        )
        for row, p in enumerate(st.formation)
    ]
    if not scored or max(score for _, score in scored) == 0:
        _no_effect(engine, "no marine has both a token and a genestealer that may be slain")
        return
    row = yield from _choose_marine(engine, best(scored), "which marine spends his faith?")
    marine = st.formation[row].marine
    most = min(marine.tokens, engaged_count(engine, row, slayable=True))
    options = [Option("count", (n,)) for n in range(most + 1)]
    choice = yield from engine.ask(
        st.current_seat, d.CHOOSE, options, f"{_card(engine)}: how many tokens does he spend?"
    )
    n = choice.number("count")
    if n == 0:
        return
    return_tokens(engine, marine.name, n)
    yield from slay_engaged(engine, row, n, st.current_seat)


def roll_to_slay_engaged(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Cleansing Flames (Instinct): COUNT is a maximum, so the chooser must pick a marine with
    the most genestealers that may be slain beside him, up to COUNT (§8). The roll is not an
    attack: no support reroll (§6.4). When no marine has any, the roll could change nothing,
    so nothing is asked and the die is not rolled."""
    st = engine.state
    count = int(params["count"])
    scored = [
        (Option("marine", (p.marine.name,)), min(count, engaged_count(engine, row, slayable=True)))
        for row, p in enumerate(st.formation)
    ]
    if not scored or max(score for _, score in scored) == 0:
        _no_effect(engine, "no marine has a genestealer that may be slain beside him")
        return
    row = yield from _choose_marine(engine, best(scored), "flames around which marine?")
    roll = engine.roll_plain(
        f"{_card(engine)} around {st.formation[row].marine.name}",
        lambda r: f"a skull: up to {count} slain" if r.skull else "no skull: none slain",
    )
    if roll.skull:
        yield from slay_engaged(engine, row, count, st.current_seat)


def quick_attack(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Quick Instincts (Instinct): a normal attack (§14.7), so only a marine with a target in
    range and in front, not under a Power Field, is a valid choice; the marine and his target
    are one choice. The card says he attacks, so there is no declining once a valid choice
    exists. Rerolls and the slain card stay his controller's (§6.4)."""
    st = engine.state
    options = [
        Option("attack", (p.marine.name, SIDES[p.marine.facing], target + 1))
        for row, p in enumerate(st.formation)
        for target in engine.attack_targets(row)
    ]
    if not options:
        _no_effect(engine, "no marine has a swarm in range")
        return
    choice = yield from engine.ask(
        st.current_seat, d.ATTACK, options, f"{_card(engine)}: who attacks, and where?"
    )
    yield from engine.attack(choice.text("marine"), choice.row())


# -- blip piles ----------------------------------------------------------------------------------


def discard_blip_top(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Full Scan (Instinct): only a non-empty pile is a valid target, and the one that loses
    the most of COUNT (§8). Emptying a pile may win at the final location (§11)."""
    st = engine.state
    count = int(params["count"])
    options = best(
        (Option("pile", (SIDES[s],)), min(count, len(st.blips[s])))
        for s in (LEFT, RIGHT)
        if st.blips[s]
    )
    if not options:
        _no_effect(engine, "both blip piles are empty")
        return
    choice = yield from engine.ask(
        st.current_seat, d.TARGET_PILE, options, f"{_card(engine)}: discard from which pile?"
    )
    side = choice.side()
    pile = st.blips[side]
    for _ in range(min(count, len(pile))):
        st.gs_discard.append(engine.reveal(pile))
    engine.note(f"the top of the {SIDES[side]} blip pile is discarded")
    engine.check_end()


def swarm_to_blips(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Temporary Sanctuary (Instinct): Brood Lords never go into a blip pile (§1) and stay
    where they are, so a swarm of Brood Lords only is no valid target. A Power Field stops
    slaying, not this. The smallest pile is decided once the swarm is chosen (§14.5) and the
    pile is shuffled (§14.16)."""
    st = engine.state
    lord = engine.table.is_brood_lord
    options = swarm_options(
        engine, lambda row, side: any(not lord(c) for c in st.formation[row].swarms[side])
    )
    if not options:
        _no_effect(engine, "no swarm has a genestealer that may fall back")
        return
    seat = st.current_seat
    choice = yield from engine.ask(
        seat, d.TARGET_SWARM, options, f"{_card(engine)}: which swarm falls back?"
    )
    row, side = target_of(choice)
    # The pile is picked while the cards are still in the swarm, so no card is ever in no
    # place (§12); taking them out first would not change which pile is smallest.
    pile = yield from smallest_pile(engine, seat, f"{_card(engine)}: which pile takes them?")
    swarm = st.formation[row].swarms[side]
    cards = [c for c in swarm if not lord(c)]
    swarm[:] = [c for c in swarm if lord(c)]
    st.protected.difference_update(cards)
    shuffle_into_pile(engine, cards, pile)


# -- next round ------------------------------------------------------------------------------------


def single_attacker_next_round(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Evasion binds the next round (§14.13): the dispatcher reads :data:`EVASION` from the
    round's effects once :meth:`Engine.end_round` has moved it there."""
    engine.state.next_effects.append(EVASION)
    engine.note("next round, an Attack card lets only 1 marine of its team attack")
    return no_questions()


def gun_jam(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Gun Jam (Instinct), binding the next round (§14.13): only an active team that revealed
    no Attack card this round is valid, so it can never be left without a legal card next
    round (its Attack card is barred, the card it resolved is barred, one remains)."""
    st = engine.state
    actions = engine.table.actions
    attacked = {team for _, team, card in st.revealed if actions[card][1].kind == "attack"}
    options = [
        Option("team", (team,))
        for teams in st.seats
        for team in teams
        if team not in st.eliminated and team not in attacked
    ]
    if not options:
        _no_effect(engine, "every team still in play revealed an Attack card")
        return
    choice = yield from engine.ask(
        st.current_seat, d.TARGET_TEAM, options, f"{_card(engine)}: jam which team's guns?"
    )
    st.next_effects.append(GunJam(choice.text("team")))
    engine.note(f"next round, the {choice.text('team')} team may not choose its Attack card")


def zero_defence_misses_next_round(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Second Wind (Instinct), binding the next round (§14.13): any marine is valid; the
    dispatcher reads :class:`SecondWind` in his defence rolls."""
    st = engine.state
    row = yield from _choose_marine(
        engine, marine_options(engine), "which marine gets a second wind?"
    )
    st.next_effects.append(SecondWind(st.formation[row].marine.name))
    engine.note(f"next round, a 0 on {st.formation[row].marine.name}'s defence misses")


def support_before_move_next_round(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Enter Formation binds the next round (§14.13): the dispatcher reads
    :data:`ENTER_FORMATION` before each Move + Activate card."""
    engine.state.next_effects.append(ENTER_FORMATION)
    engine.note("next round, a support token may go on a marine before each Move + Activate")
    return no_questions()


EVENT_EFFECTS: dict[str, EventEffect] = {
    "surround": surround,
    "flank_all": flank_all,
    "spawn_behind_marine": spawn_behind_marine,
    "reinforce_blips": reinforce_blips,
    "roll_or_die": roll_or_die,
    "spawn_before_unengaged": spawn_before_unengaged,
    "single_attacker_next_round": single_attacker_next_round,
    "engaged_lose_support": engaged_lose_support,
    "flip_all": flip_all,
    "lose_all_support": lose_all_support,
    "gather_support": gather_support,
    "gun_jam": gun_jam,
    "trade_support_for_kill": trade_support_for_kill,
    "spend_support_to_slay": spend_support_to_slay,
    "discard_blip_top": discard_blip_top,
    "roll_to_slay_engaged": roll_to_slay_engaged,
    "zero_defence_misses_next_round": zero_defence_misses_next_round,
    "quick_attack": quick_attack,
    "door_tokens": door_tokens,
    "support_before_move_next_round": support_before_move_next_round,
    "swarm_to_blips": swarm_to_blips,
    "rescue_marine": rescue_marine,
}
