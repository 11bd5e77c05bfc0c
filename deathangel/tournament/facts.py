"""A game's facts: what happened in it that a designer asks about, gathered while it is played
and stored beside its row in the results database.

The facts of one game (:class:`GameFacts`, stored as one JSON object):

- ``cards``: each team's action cards revealed, with how many rounds each was (RULES §5);
- ``events``: every Event card drawn, with how many times (the setup Event included);
- ``deck``: the location deck dealt at setup, top first (RULES §3 step 3);
- ``reached``: each location the marines stood at, in order, with the round they arrived in
  (the setup location first, at round 0; a travel at the end of round 3's Event phase
  arrives in round 3);
- ``placed``: terrain cards by name, with at how many of the locations reached they were in
  play on arrival (once the location's own ability had placed what it places);
- ``terrain``: terrain cards by name, with how many times they were activated (RULES §6.2);
- ``deaths``: every marine slain, as ``[marine, team, k, cause, round]`` where ``k`` indexes
  ``reached`` (where he fell) and ``cause`` is the engine's words;
- ``rescues``: every slain marine brought back (Rescue Space Marine, RULES §14.14), as
  ``[round, k]``: so a marine may fall twice, and the marines standing are the marines less
  the deaths plus the rescues;
- ``rerolls``: support tokens spent on rerolls (RULES §6.4);
- ``tokens_lost``: support tokens marines still held when they fell (back to the supply, §9);
- ``marines``: marines in the game (those alive plus those slain at the end).

How they are gathered, and why this way: the engine keeps no log on the fast path (building
its words costs), and its state forgets each round's cards when the next one starts. So
:class:`FactsRecorder` watches the one game it is given at the few points where a fact is
made, and nowhere else: it wraps, on that game's engine object only, ``kill_marine`` (a
death, with where and when), ``travel`` (an arrival) and ``end_round`` (the round's revealed
cards and activated terrain, read before they are cleared). Those run a few dozen times a
game, against thousands of calls on the hot path, which they leave untouched. The rest is read
once at the end: the Events resolved (the state keeps them), the rerolls (the game's list of
decisions). Nothing here is visible to a player: the wrappers live on the engine, which no
observation reaches.

The JSON has a version of its own, :data:`FACTS_VERSION`, kept in the database's ``meta``
table: a change of meaning is a new version, and readers refuse one they do not know.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from attrs import frozen

from deathangel.engine.decisions import REROLL_OPTION

if TYPE_CHECKING:
    from deathangel.engine.decisions import Flow
    from deathangel.engine.game import Game
    from deathangel.engine.state import GameState

FACTS_VERSION = 1
"""The version of the facts' JSON; :class:`GameFacts` reads this one."""

_REROLL = REROLL_OPTION.verb

_ENCODER = json.JSONEncoder(separators=(",", ":"), sort_keys=True, check_circular=False)
"""Made once: ``json.dumps`` with options builds an encoder per call (a tenth of a game's
facts' cost, measured)."""

_REVEALED = ("resolve_actions", "genestealer_attack", "event")
"""The phases in which this round's action cards are face up (revealed at the end of Choose
Actions, RULES §5): a game that ends in one of them has a round not yet counted."""


class FactsRecorder:
    """Gathers the facts of one game while it is played: make it at the game's first decision
    (before any marine can fall or travel), play the game out, then call :meth:`finish`."""

    def __init__(self, game: Game) -> None:
        engine = game.engine
        st = engine.state
        table = engine.table
        self._game = game
        self.cards: dict[str, dict[str, int]] = {}
        self.terrain: dict[str, int] = {}
        self.placed: dict[str, int] = {}
        self.deaths: list[list[Any]] = []
        self.rescues: list[list[int]] = []
        self.tokens_lost = 0
        self.deck = [table.locations[i].name for i in reversed(st.location_deck)]
        setup = st.setup_location
        self.reached: list[list[Any]] = [[setup.name if setup is not None else "", 0]]
        if st.formation:
            self._place(st)
        elif setup is not None:  # teams still to be chosen (a variant): what setup places
            self.placed = {name: 1 for name in {p.terrain for p in setup.terrain}}
        self._location = st.location
        self._counted = 0
        """The last round whose cards and terrain are counted."""
        # Bound methods of this engine, wrapped on this engine object only: the class and
        # every other game are untouched.
        kill = engine.kill_marine
        travel = engine.travel
        end_round = engine.end_round

        def kill_marine(name: str, why: str) -> None:
            self._fell(name, why)
            kill(name, why)

        def travelling() -> Flow:
            try:
                yield from travel()
            finally:  # also when the game ends on arrival (GameOver from inside travel)
                self._arrived()

        def ending_round() -> None:
            self._count_round()
            end_round()

        setattr(engine, "kill_marine", kill_marine)  # noqa: B010 - an instance's method
        setattr(engine, "travel", travelling)  # noqa: B010
        setattr(engine, "end_round", ending_round)  # noqa: B010

    # -- the points watched ------------------------------------------------------------------

    def _fell(self, name: str, why: str) -> None:
        st = self._game.engine.state
        marine = st.formation[st.marine_row(name)].marine
        self.tokens_lost += marine.tokens
        self.deaths.append([name, marine.team, len(self.reached) - 1, why, st.round])

    def _arrived(self) -> None:
        engine = self._game.engine
        st = engine.state
        if st.location is None or st.location == self._location:
            return  # the game ended before the marines left (a Door's last slay)
        self._rescued()  # a rescue in the phase that ended in this travel came before it
        self._location = st.location
        self.reached.append([engine.table.locations[st.location].name, st.round])
        self._place(st)

    def _count_round(self) -> None:
        st = self._game.engine.state
        self._rescued()
        cards = self.cards
        for _, team, card in st.revealed:
            mine = cards.setdefault(team, {})
            mine[card] = mine.get(card, 0) + 1
        for name in st.activated:
            self.terrain[name] = self.terrain.get(name, 0) + 1
        self._counted = st.round

    def _rescued(self) -> None:
        """Note the rescues since the last look: the slain list is every death less every
        rescue, and only an Event's ability rescues (so never between a death and the end
        of its round without passing here)."""
        st = self._game.engine.state
        for _ in range(len(self.deaths) - len(st.slain) - len(self.rescues)):
            self.rescues.append([st.round, len(self.reached) - 1])

    def _place(self, st: GameState) -> None:
        """Count the terrain in play on arrival (its on-entering ability done: the
        Artefact a location's ability places counts too)."""
        names = {t.name for pos in st.formation for side in pos.terrain for t in side}
        for name in names:
            self.placed[name] = self.placed.get(name, 0) + 1

    # -- the end ----------------------------------------------------------------------------

    def finish(self) -> str:
        """The facts of the finished game, as the JSON text the database stores."""
        game = self._game
        st = game.engine.state
        if st.round > self._counted and st.phase in _REVEALED:
            self._count_round()  # the game ended part-way through a round
        self._rescued()
        events = game.table.events
        drawn: dict[str, int] = {}
        ids = st.events_resolved if st.event is None else [*st.events_resolved, st.event]
        for event in ids:
            name = events[event].name
            drawn[name] = drawn.get(name, 0) + 1
        facts = {
            "cards": self.cards,
            "events": drawn,
            "deck": self.deck,
            "reached": self.reached,
            "placed": self.placed,
            "terrain": self.terrain,
            "deaths": self.deaths,
            "rescues": self.rescues,
            # By verb, not by equality with REROLL_OPTION: an isolated bot's answer is a copy,
            # and an attrs __eq__ per decision cost 0.14 ms a game (a random game's 7%).
            "rerolls": sum(1 for option in game.history if option.verb == _REROLL),
            "tokens_lost": self.tokens_lost,
            "marines": len(st.formation) + len(st.slain),
        }
        # The engine's own methods back: the wrappers hold this recorder, which holds the
        # game, a cycle that would keep every finished game alive until the cycle collector
        # came by (measured: 7 MB after 1,800 random games).
        for name in ("kill_marine", "travel", "end_round"):
            delattr(game.engine, name)
        return _ENCODER.encode(facts)


# -- reading -------------------------------------------------------------------------------------


@frozen
class Death:
    """A marine slain in a game."""

    marine: str
    team: str
    location: str
    """Where he fell."""
    place: int
    """Which location of the game it was: 0 the setup location, 1 the first reached..."""
    cause: str
    round: int


@frozen
class GameFacts:
    """One game's facts, read back (see the module docstring for each field)."""

    cards: Mapping[str, Mapping[str, int]]
    events: Mapping[str, int]
    deck: tuple[str, ...]
    reached: tuple[tuple[str, int], ...]
    placed: Mapping[str, int]
    terrain: Mapping[str, int]
    deaths: tuple[Death, ...]
    rescues: tuple[tuple[int, int], ...]
    """``(round, place)`` of each marine brought back from the slain."""
    rerolls: int
    tokens_lost: int
    marines: int

    @classmethod
    def from_json(cls, text: str) -> GameFacts:
        """The facts :meth:`FactsRecorder.finish` wrote.

        :raises ValueError: for text that is not facts of :data:`FACTS_VERSION`.
        """
        try:
            data = json.loads(text)
            reached = tuple((str(name), int(at)) for name, at in data["reached"])
            deaths = tuple(
                Death(str(m), str(team), reached[int(k)][0], int(k), str(cause), int(at))
                for m, team, k, cause, at in data["deaths"]
            )
            return cls(
                cards={str(t): _counts(c) for t, c in data["cards"].items()},
                events=_counts(data["events"]),
                deck=tuple(str(name) for name in data["deck"]),
                reached=reached,
                placed=_counts(data["placed"]),
                terrain=_counts(data["terrain"]),
                deaths=deaths,
                rescues=tuple((int(at), int(k)) for at, k in data["rescues"]),
                rerolls=int(data["rerolls"]),
                tokens_lost=int(data["tokens_lost"]),
                marines=int(data["marines"]),
            )
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise ValueError(f"not the facts of a game (version {FACTS_VERSION}): {exc}") from None

    def standing(self, round_: int) -> int:
        """Marines standing at the start of round ``round_`` (a finished game keeps the count
        it ended with)."""
        fell = sum(1 for d in self.deaths if d.round < round_)
        return self.marines - fell + sum(1 for at, _ in self.rescues if at < round_)

    def standing_on_arrival(self, place: int) -> int:
        """Marines standing as the marines arrived at their ``place``-th location (0: the
        setup location)."""
        fell = sum(1 for d in self.deaths if d.place < place)
        return self.marines - fell + sum(1 for _, k in self.rescues if k < place)


def _counts(raw: Any) -> dict[str, int]:
    return {str(k): int(v) for k, v in raw.items()}
