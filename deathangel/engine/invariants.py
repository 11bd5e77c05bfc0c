"""Invariants of a game in progress (RULES §12, DESIGN "Invariants everywhere").

One implementation for the property tests and for ``deathangel check``, which a plugin's
author runs to prove that the plugin's cards never break a game: both call
:func:`check_invariants` after every decision.

:func:`check_invariants` looks at a :class:`~deathangel.engine.game.Game` at a decision (or at
its end) and raises :class:`InvariantError` (an ``AssertionError``) naming the first broken
invariant, with the round, phase and decision count so the failing step can be found again.
It never changes the game.

Most invariants hold at any single moment. A few compare two moments (the location deck never
grows, the round never goes back, the dead stay dead unless rescued): :func:`check_invariants`
returns a small :class:`Progress` record, and passing it back on the next call checks those too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import NamedTuple, NoReturn

from deathangel.engine.decisions import Decision, Option
from deathangel.engine.game import Game
from deathangel.engine.state import GameState

PHASES = frozenset(
    {
        "setup",
        "setup_event",
        "round_start",
        "choose_actions",
        "resolve_actions",
        "genestealer_attack",
        "event",
    }
)
OUTCOMES = frozenset({"victory", "defeat"})


class InvariantError(AssertionError):
    """A game broke an invariant of the rules. An ``AssertionError``: a broken invariant is
    a bug (the engine's or a plugin's), never a player's mistake."""


Fail = Callable[[str], NoReturn]
"""Raises :class:`InvariantError` with the message, prefixed by where the game is."""


class Progress(NamedTuple):
    """What must only move one way between two checks of the same game."""

    decisions: int
    round: int
    location_deck: int
    slain: tuple[str, ...]


def check_invariants(game: Game, previous: Progress | None = None) -> Progress:
    """Raise :class:`InvariantError` if ``game`` breaks an invariant; return its
    :class:`Progress`.

    ``previous`` is what an earlier call on the same game returned; with it, the checks that
    compare two moments run too.
    """
    st = game.state
    where = (
        f"[seed {game.config.seed}, {game.config.players} player(s), "
        f"decision {len(game.history)}, round {st.round}, phase {st.phase}]"
    )

    def fail(message: str) -> NoReturn:
        raise InvariantError(f"{where} {message}")

    _check_seats(game, st, fail)
    _check_formation(game, st, fail)
    _check_genestealers(game, st, fail)
    _check_events(game, st, fail)
    _check_tokens(game, st, fail)
    _check_locations(game, st, fail)
    _check_round(game, st, fail)
    _check_decision(game, st, fail)

    progress = Progress(len(game.history), st.round, len(st.location_deck), tuple(st.slain))
    if previous is not None:
        if progress.decisions < previous.decisions:
            fail(f"history shrank from {previous.decisions} to {progress.decisions} options")
        if progress.round < previous.round:
            fail(f"round went back from {previous.round} to {progress.round}")
        if progress.location_deck > previous.location_deck:
            fail(
                f"location deck grew from {previous.location_deck} to "
                f"{progress.location_deck} card(s)"
            )
        # The dead stay dead, except a marine rescued back into the formation (RULES §14.14).
        living = {pos.marine.name for pos in st.formation}
        lost = [n for n in previous.slain if n not in progress.slain and n not in living]
        if lost:
            fail(f"slain marine(s) {lost} left the slain list without coming back to life")
    return progress


# -- the pieces ---------------------------------------------------------------------------------


def _check_seats(game: Game, st: GameState, report: Fail) -> None:
    """Seats and teams: the config's seat count, per-seat team count, ``team_seat`` matches."""
    db = game.table.db
    players = game.config.players
    if len(st.seats) != players:
        report(f"{len(st.seats)} seat(s) for a {players}-player game")
    per_seat = db.setup_location_for(players).teams_per_player[players]
    colours = {t.color for t in db.teams}
    # With teams chosen at setup (a variant), seats fill up one team at a time and the
    # marines are dealt only once every seat has its share.
    choosing = st.phase == "setup" and not st.formation and not st.team_seat
    expected: dict[str, int] = {}
    for seat, teams in enumerate(st.seats, start=1):
        if len(teams) != per_seat and not (choosing and len(teams) < per_seat):
            report(f"seat {seat} has teams {teams}, expected {per_seat} team(s)")
        for team in teams:
            if team not in colours:
                report(f"seat {seat} has unknown team {team!r}")
            if team in expected:
                report(f"team {team!r} is in seats {expected[team]} and {seat}")
            expected[team] = seat
    if st.team_seat != expected and not choosing:
        report(f"team_seat {st.team_seat} does not match seats {st.seats}")
    if game.config.teams is not None and tuple(map(tuple, st.seats)) != game.config.teams:
        report(f"seats {st.seats} differ from the configured teams {game.config.teams}")
    if not 1 <= st.current_seat <= players:
        report(f"current seat {st.current_seat} is not a seat of {players}")
    unknown = (set(st.eliminated) | set(st.last_resolved) | set(st.chosen)) - set(expected)
    if unknown:
        report(f"bookkeeping names teams not in play: {sorted(unknown)}")


def _check_formation(game: Game, st: GameState, report: Fail) -> None:
    """Contiguous rows, one marine each; every marine of the teams in play either alive
    exactly once or slain; eliminated teams have nobody left (§9)."""
    db = game.table.db
    if not isinstance(st.formation, list):
        report(f"formation is a {type(st.formation).__name__}, not a list")
    living: list[str] = []
    for row, pos in enumerate(st.formation, start=1):
        marine = pos.marine
        if marine is None:
            report(f"position {row} has no marine")
        if marine.facing not in (0, 1):
            report(f"{marine.name} at position {row} has facing {marine.facing!r}")
        if marine.team not in st.team_seat:
            report(f"{marine.name} at position {row} is of team {marine.team!r}, not in play")
        if len(pos.swarms) != 2 or len(pos.terrain) != 2:
            report(
                f"position {row} has {len(pos.swarms)} swarm side(s) and "
                f"{len(pos.terrain)} terrain side(s); expected 2 and 2"
            )
        living.append(marine.name)
    twice = [name for name, n in Counter(living).items() if n > 1]
    if twice:
        report(f"marines in the formation more than once: {twice}")
    if len(set(st.slain)) != len(st.slain):
        report(f"a marine is slain twice: {st.slain}")
    back = set(living) & set(st.slain)
    if back:
        report(f"slain marines still in the formation: {sorted(back)}")
    roster = {m.name: team for team in st.team_seat for m in db.team(team).marines}
    if set(living) | set(st.slain) != set(roster):
        missing = sorted(set(roster) - set(living) - set(st.slain))
        extra = sorted((set(living) | set(st.slain)) - set(roster))
        report(f"marines missing {missing}, not of any team in play {extra}")
    for pos in st.formation:
        if roster.get(pos.marine.name) != pos.marine.team:
            report(f"{pos.marine.name} plays for {pos.marine.team!r}, not his own team")
    alive_teams = {pos.marine.team for pos in st.formation}
    zombies = alive_teams & st.eliminated
    if zombies:
        report(f"eliminated team(s) {sorted(zombies)} still have marines in the formation")
    gone = set(st.team_seat) - alive_teams - st.eliminated
    if gone:
        report(f"team(s) {sorted(gone)} have no marine left but are not eliminated")


def _check_genestealers(game: Game, st: GameState, report: Fail) -> None:
    """Every deck card in exactly one place; Brood Lords only in swarms, at most once (§12)."""
    table = game.table
    if _genestealers_at_a_glance(game, st):
        return  # the usual case; the walk below names what is wrong otherwise
    places: dict[int, list[str]] = {}

    def put(cards: list[int], place: str) -> None:
        for card in cards:
            if not isinstance(card, int) or not 0 <= card < len(table.gs_labels):
                report(f"unknown genestealer id {card!r} in {place}")
            places.setdefault(card, []).append(place)

    put(st.gs_deck, "the Genestealer deck")
    put(st.gs_discard, "the Genestealer discard")
    for side, name in ((0, "left"), (1, "right")):
        put(st.blips[side], f"the {name} blip pile")
    for row, pos in enumerate(st.formation, start=1):
        for side, name in ((0, "left"), (1, "right")):
            put(pos.swarms[side], f"the {name} swarm at position {row}")
    if len(st.blips) != 2:
        report(f"{len(st.blips)} blip piles")
    for card in range(table.deck_size):
        where = places.get(card, [])
        if len(where) != 1:
            label = table.gs_labels[card]
            report(f"genestealer {label} ({card}) is in {len(where)} places: {where}")
    for card in range(table.deck_size, len(table.gs_labels)):
        where = places.get(card, [])
        label = table.gs_labels[card]
        if len(where) > 1:
            report(f"Brood Lord {label} is in {len(where)} places: {where}")
        if where and "swarm" not in where[0]:
            report(f"Brood Lord {label} is in {where[0]}; it may only be in a swarm")


def _genestealers_at_a_glance(game: Game, st: GameState) -> bool:
    """Whether :func:`_check_genestealers` would find nothing wrong, seen with a sort where
    it lists every card's places: the common case at a third of the instructions (a check
    follows every decision of the property tests and of ``deathangel check``)."""
    table = game.table
    if len(st.blips) != 2:
        return False
    deck = table.deck_size
    swarmed = [card for pos in st.formation for side in pos.swarms for card in side]
    if not all(isinstance(card, int) for card in swarmed):
        return False
    lords = [card for card in swarmed if card >= deck]
    piles = st.gs_deck + st.gs_discard + st.blips[0] + st.blips[1]
    return (
        _each_once(piles + [card for card in swarmed if card < deck], deck)
        and len(set(lords)) == len(lords)
        and all(card < len(table.gs_labels) for card in lords)
    )


def _check_events(game: Game, st: GameState, report: Fail) -> None:
    """Every Event copy in exactly one of deck, discard, or the card being resolved (§12)."""
    n = len(game.table.events)
    held = st.event_deck + st.event_discard + ([] if st.event is None else [st.event])
    if (st.event is None or st.phase in ("event", "setup_event")) and _each_once(held, n):
        return  # the usual case; the count below names what is wrong otherwise
    seen = Counter(st.event_deck) + Counter(st.event_discard)
    if st.event is not None:
        seen[st.event] += 1
        if st.phase not in ("event", "setup_event"):
            report(f"Event card {st.event} is being resolved outside an Event phase")
    for card in seen:
        if not isinstance(card, int) or not 0 <= card < n:
            report(f"unknown Event id {card!r}")
    for card in range(n):
        if seen[card] != 1:
            name = game.table.events[card].name
            report(
                f"Event copy {card} ({name}) is in {seen[card]} places (deck "
                f"{st.event_deck.count(card)}, discard {st.event_discard.count(card)}, "
                f"resolving {int(st.event == card)})"
            )


def _each_once(cards: list[int], n: int) -> bool:
    """Whether ``cards`` holds each of the ids 0 to n - 1 exactly once and nothing else."""
    return all(isinstance(card, int) for card in cards) and sorted(cards) == list(range(n))


def _check_tokens(game: Game, st: GameState, report: Fail) -> None:
    """Supply + marines + terrain + location card = the database's total, none negative."""
    total = game.table.db.support_tokens
    if st.supply < 0 or st.supply > total:
        report(f"supply is {st.supply}, outside 0..{total}")
    if st.location_tokens < 0:
        report(f"location card holds {st.location_tokens} tokens")
    on_marines = 0
    on_terrain = 0
    for row, pos in enumerate(st.formation, start=1):
        if pos.marine.tokens < 0:
            report(f"{pos.marine.name} at position {row} has {pos.marine.tokens} tokens")
        on_marines += pos.marine.tokens
        for side in pos.terrain:
            for terrain in side:
                if terrain.tokens < 0:
                    report(f"{terrain.name} at position {row} has {terrain.tokens} tokens")
                on_terrain += terrain.tokens
    counted = st.supply + on_marines + on_terrain + st.location_tokens
    if counted != total:
        report(
            f"support tokens: supply {st.supply} + marines {on_marines} + terrain "
            f"{on_terrain} + location {st.location_tokens} = {counted}, not {total}"
        )


def _check_locations(game: Game, st: GameState, report: Fail) -> None:
    """The location deck is what is left of the setup recipe: it only ever shrinks (§11),
    and terrain in play is known, at most four cards each once — plus the Artefact, which
    Wrath of Baal Chapel places beside a location's four (a conflict with RULES §1's "at
    most 4", raised in the issue note)."""
    table = game.table
    setup = st.setup_location
    if setup is None:
        report("no setup location")
        return
    if setup != table.db.setup_location_for(game.config.players):
        report(f"setup location {setup.name!r} is not the one for {game.config.players} players")
    recipe = setup.location_deck
    left = [table.locations[i].deck for i in reversed(st.location_deck)]  # top first
    travelled = len(recipe) - len(left)
    if travelled < 0 or left != list(recipe[travelled:]):
        report(f"location deck {left} (top first) is not what is left of recipe {recipe}")
    if st.location is None:
        if travelled != 0:
            report(f"still at the setup location but {travelled} location(s) were drawn")
    else:
        if travelled == 0 or table.locations[st.location].deck != recipe[travelled - 1]:
            report(
                f"current location {table.locations[st.location].name!r} is not the last "
                f"drawn from recipe {recipe} ({travelled} drawn)"
            )
        if st.location in st.location_deck:
            report("the current location is also in the location deck")
    names = [t.name for pos in st.formation for side in pos.terrain for t in side]
    unknown = [n for n in names if n not in table.terrain]
    if unknown:
        report(f"unknown terrain in the formation: {unknown}")
    if len([n for n in names if n != "Artefact"]) > 4:
        report(f"{len(names)} terrain cards in play, at most 4 and the Artefact: {names}")
    twice = [n for n, k in Counter(names).items() if k > 1]
    if twice:
        report(f"terrain cards in play twice: {twice}")


def _check_round(game: Game, st: GameState, report: Fail) -> None:
    """Phase names, outcome values, and this round's action-card bookkeeping (§5, §6)."""
    if st.phase not in PHASES:
        report(f"unknown phase {st.phase!r}")
    if st.outcome is not None and st.outcome not in OUTCOMES:
        report(f"unknown outcome {st.outcome!r}")
    if game.outcome != st.outcome:
        report(f"game.outcome {game.outcome!r} differs from state.outcome {st.outcome!r}")
    if st.outcome == "defeat" and st.formation:
        report(f"defeat with {len(st.formation)} marine(s) alive")
    if st.outcome is None and not st.formation and st.phase != "setup":
        report("every marine is slain but the game is not lost")
    actions = game.table.actions
    for team, card in list(st.chosen.items()) + list(st.last_resolved.items()):
        if card not in actions or actions[card][0] != team:
            report(f"team {team!r} holds action card {card!r}, not one of its own")
    initiatives = [i for i, _, _ in st.revealed]
    if initiatives != sorted(initiatives):
        report(f"revealed cards are not in initiative order: {st.revealed}")
    if not st.resolved <= {team for _, team, _ in st.revealed}:
        report(f"teams resolved {sorted(st.resolved)} without a revealed card")


def _check_decision(game: Game, st: GameState, report: Fail) -> None:
    """A pending decision exists iff the game is not over; it is a real choice (>= 2 distinct
    options, §14.3) for a real seat."""
    decision = game.decision
    if (game.outcome is None) != (decision is not None):
        report(f"outcome {game.outcome!r} but decision {decision}")
    if game.is_over() != (decision is None):
        report("is_over() disagrees with the pending decision")
    if decision is None:
        return
    if not isinstance(decision, Decision):
        report(f"decision is a {type(decision).__name__}")
    if not 1 <= decision.seat <= game.config.players:
        report(f"decision for seat {decision.seat} in a {game.config.players}-player game")
    options = decision.options
    if len(options) < 2:
        report(f"{decision.kind} decision with {len(options)} option(s): {options}")
    if not all(isinstance(o, Option) for o in options):
        report(f"{decision.kind} options are not all Options: {options}")
    if len(set(options)) != len(options):
        report(f"{decision.kind} options repeat: {options}")
    if decision.kind == "choose_action":
        own = set(st.seats[decision.seat - 1])
        for option in options:
            card = str(option.args[0]) if option.args else ""
            if option.verb != "card" or game.table.actions.get(card, ("",))[0] not in own:
                report(f"seat {decision.seat} is offered {option!r}, not one of its cards")
