"""A forward model for searching bots: a complete game rebuilt from one seat's observation.

:func:`determinize` deals what the seat cannot see at random and returns a new
:class:`~deathangel.engine.game.Game` standing at the same decision — the game as it might
be, never a copy of the real one (information-set search, as in ISMCTS). It starts from the
seat's public view at the last point where the engine can restart from a state (the start of
the current phase), deals the hidden cards there, and replays what the seat saw happen
since: the decisions (another seat's face-down card drawn at random from its legal ones), the
die faces, and the cards that came face up. Whenever the replay would turn up a card other
than the one the seat saw, the two cards swap places among the hidden ones: both were unseen,
so the deal stays a fair random one among those consistent with what the seat knows. After
the replay the game's dice and shuffles come from ``rng``.

What is dealt at random: the order of the Genestealer deck and the blip piles' contents (the
cards not visible anywhere, by the piles' public sizes), the order of the Event deck (the
events neither discarded nor in play; a seat that scouted the top card gets it there), the
locations still to come (one card of each remaining deck of the setup location's list), and
other seats' face-down action cards before the reveal.

Known simplification: a card the table saw go into a blip pile (Intimidation, Temporary
Sanctuary) may be dealt elsewhere, and a scouted card sent to the bottom of the Event deck
is dealt anywhere: the deal treats every unseen card alike.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import floor
from typing import TYPE_CHECKING, Any, NamedTuple

from deathangel.engine.core import EngineFlow
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.randomness import Die, Streams, shuffle
from deathangel.engine.rounds import Engine
from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from deathangel.engine.abilities import Abilities
    from deathangel.engine.observation import Observation, PileCounts
    from deathangel.engine.state import CardTable, GameState


class ForwardModelError(DeathAngelError, RuntimeError, EngineFlow):
    """An observation that cannot be turned into a game (no forward data, or inconsistent)."""


def determinize(observation: Observation, rng: random.Random, *, forward: bool = False) -> Game:
    """A complete game consistent with everything ``observation``'s seat knows, standing at
    the same decision, with the hidden parts dealt from ``rng`` and its future dice and
    shuffles drawn from ``rng`` too (the same ``rng`` state gives the same game).
    ``forward`` makes the new game record forward-model data in turn (to determinize again
    from its observations, or to compare them with the original's).

    :raises ForwardModelError: if the observation has no forward data (its game was started
        with ``forward=False``) or does not describe a reachable game.
    """
    fw = observation.forward
    rules = observation.rules
    if fw is None or rules is None:
        raise ForwardModelError(
            "this observation carries no forward-model data: start the game with forward=True"
        )
    table = observation.table
    state = fw.checkpoint.copy()
    prepared: _Prepared | None = fw.prepared
    if prepared is None:
        seats = tuple(fw.checkpoint.seats)
        prepared = _Prepared(
            out_of_view(fw.checkpoint, table, fw.counts),
            GameConfig(players=len(seats), seed=0, teams=seats),
            locations_to_come(fw.checkpoint, table, fw.counts.location_deck),
        )
        object.__setattr__(fw, "prepared", prepared)  # a cache of public facts (ForwardData)
    deal_hidden(state, table, fw.counts, rng, fw.scouted_top, prepared.unseen, prepared.locations)
    if fw.scouted_top is not None and observation.seat is not None:
        state.scouted = (observation.seat, fw.scouted_top)
    streams = Streams.shared(rng)
    engine = _ReplayingEngine(state, table, streams, _ReplayDie(fw.faces, rng), rules)
    engine.forced = list(reversed(fw.revealed))
    game = Game.around(prepared.config, engine, forward=forward)
    pick = rng.random
    for option in fw.decisions:
        decision = game.decision
        if decision is None:
            raise ForwardModelError("the replayed game ended before the observed decision")
        if option is None:
            option = decision.options[floor(pick() * len(decision.options))]
        elif option not in decision.options:
            raise ForwardModelError(
                f"replaying the observed history: {option!r} is not legal for {decision.kind}"
            )
        game.push(option)
    if engine.forced:
        raise ForwardModelError("the replay did not reveal every card the seat saw")
    engine.forced = None
    seen = observation.decision
    now = game.decision
    if seen is not None and (
        now is None or (now.seat, now.kind, now.options) != (seen.seat, seen.kind, seen.options)
    ):
        raise ForwardModelError("the replay did not reach the observed decision")
    if forward:
        game.defer_points()  # played on and let go (a rollout), it never copies its state
    return game


class _Prepared(NamedTuple):
    """What every determinization of one observation shares."""

    unseen: tuple[tuple[int, ...], tuple[int, ...]]
    """The genestealer and Event cards out of view (:func:`out_of_view`)."""
    config: GameConfig
    """The imagined game's config: the same seats and teams, seed 0 (its streams are the
    searching bot's)."""
    locations: LocationsToCome
    """What each location card still to come may be (:func:`locations_to_come`)."""


LocationsToCome = tuple[tuple[tuple[int, ...], ...], int | None]
"""The location cards still to come, as :func:`locations_to_come` gives them: the cards each
one drawn at random may be (the top-most deck last) and the final location when a variant
named it (``None``: it is drawn too)."""


def locations_to_come(state: GameState, table: CardTable, left: int) -> LocationsToCome:
    """What each of the ``left`` location cards still to come may be: one unseen card of each
    deck still to come (RULES §3 step 3), the current location excluded; the final one known
    to all when a variant named it. Public facts of a seat's view, so a search works them out
    once per observation, not once per deal."""
    if not left:
        return (), None
    setup = state.setup_location
    if setup is None or left > len(setup.location_deck):
        raise ForwardModelError(f"a location deck of {left} cards cannot be rebuilt")
    decks = setup.location_deck[len(setup.location_deck) - left :]
    final = table.switches.final_location
    if final is not None:
        # A variant named the final location before the game: everyone knows it.
        decks = decks[:-1]
    here = state.location
    drawn = tuple(tuple(i for i in table.locations_in_deck[deck] if i != here) for deck in decks)
    return drawn, None if final is None else table.location_by_name[final]


def out_of_view(
    state: GameState, table: CardTable, counts: PileCounts
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The genestealer and Event cards nowhere in view in a public state copy: what its hidden
    piles hold between them, checked against the piles' public sizes."""
    # Genestealers: every deck card not face up is in the deck or a blip pile.
    seen = set(state.gs_discard)
    for pos in state.formation:
        seen.update(pos.swarms[0])
        seen.update(pos.swarms[1])
    genestealers = tuple(c for c in range(table.deck_size) if c not in seen)
    wanted = counts.genestealer_deck + counts.blips_left + counts.blips_right
    if len(genestealers) != wanted:
        raise ForwardModelError(
            f"{len(genestealers)} genestealer cards are out of view but the hidden piles hold "
            f"{wanted}"
        )
    # Events: every copy neither discarded nor being resolved is in the deck.
    shown = set(state.event_discard)
    if state.event is not None:
        shown.add(state.event)
    events = tuple(e for e in range(len(table.events)) if e not in shown)
    if len(events) != counts.event_deck:
        raise ForwardModelError(
            f"{len(events)} Event cards are out of view but the Event deck holds "
            f"{counts.event_deck}"
        )
    return genestealers, events


def deal_hidden(
    state: GameState,
    table: CardTable,
    counts: PileCounts,
    rng: random.Random,
    scouted_top: int | None = None,
    unseen: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
    locations: LocationsToCome | None = None,
) -> None:
    """Fill the empty hidden piles of a public state copy at random with the cards that are
    nowhere in view (``unseen``, from :func:`out_of_view` if not given), to the piles' public
    sizes (the locations to come as ``locations`` says, from :func:`locations_to_come` if not
    given)."""
    genestealers, events_ = unseen if unseen is not None else out_of_view(state, table, counts)
    cards = list(genestealers)
    shuffle(cards, rng)
    n_deck, n_left = counts.genestealer_deck, counts.blips_left
    state.gs_deck = cards[:n_deck]
    state.blips = [cards[n_deck : n_deck + n_left], cards[n_deck + n_left :]]
    events = list(events_)
    shuffle(events, rng)
    if scouted_top is not None and scouted_top in events:
        i = events.index(scouted_top)
        events[i], events[-1] = events[-1], events[i]
    state.event_deck = events
    # Locations: one unseen card from each deck still to come (RULES §3 step 3).
    if locations is None:
        locations = locations_to_come(state, table, counts.location_deck)
    drawn, final = locations
    pick = rng.random
    chosen = [cards[floor(pick() * len(cards))] for cards in drawn]
    if final is not None:
        chosen.append(final)
    state.location_deck = chosen[::-1]  # top card last


class _ReplayDie(Die):
    """The faces the seat saw rolled, then fresh ones from ``rng``."""

    __slots__ = ("_faces", "_next")

    def __init__(self, faces: Sequence[int], rng: random.Random) -> None:
        super().__init__(rng)
        self._faces = faces
        self._next = 0

    def roll(self) -> int:
        if self._next < len(self._faces):
            face = self._faces[self._next]
            self._next += 1
            return face
        return super().roll()

    def copy_with(self, streams: Streams) -> Die:
        return Die(streams["dice"])


class _ReplayingEngine(Engine):
    """The engine, making each card it reveals during the replay the one the seat saw."""

    def __init__(
        self,
        state: GameState,
        table: CardTable,
        streams: Streams,
        die: Die,
        abilities: Abilities[Any],
    ) -> None:
        super().__init__(state, table, streams, die, abilities)
        self.forced: list[int | None] | None = None
        """Cards still to reveal, the next one last; ``None`` once the replay is over."""

    def reveal(self, pile: list[int]) -> int:
        if self.forced:
            self._make_top(pile, len(pile) - 1, self.forced.pop())
        return super().reveal(pile)

    def reveal_all(self, pile: list[int]) -> list[int]:
        if self.forced:
            for i in range(len(pile)):
                self._make_top(pile, i, self.forced.pop())
        return super().reveal_all(pile)

    def peek(self, pile: list[int], seat: int) -> int:
        if self.forced:
            self._make_top(pile, len(pile) - 1, self.forced.pop())
        return super().peek(pile, seat)

    def _make_top(self, pile: list[int], index: int, wanted: int | None) -> None:
        """Put ``wanted`` at ``pile[index]`` by swapping it with the card there."""
        if wanted is None or pile[index] == wanted:
            return
        st = self.state
        if pile is st.location_deck:
            pile[index] = wanted  # unused locations are out of the game: any may be the one
            return
        zones = (st.event_deck,) if pile is st.event_deck else (st.gs_deck, *st.blips)
        for zone in zones:
            for j, card in enumerate(zone):
                if card == wanted:
                    zone[j], pile[index] = pile[index], wanted
                    return
        raise ForwardModelError(f"card {wanted} was seen coming face up but is not hidden")
