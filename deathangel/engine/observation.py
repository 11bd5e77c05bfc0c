"""What one seat may know: the honest view a bot or a person gets, never the state itself.

An :class:`Observation` is a snapshot built for one seat when a decision is asked. It holds
no reference to the live game, its state, its random streams or any of its deck lists: its
:attr:`~Observation.state` is a copy with every hidden pile emptied (the Genestealer, Event
and location decks, both blip piles: their sizes are in :attr:`~Observation.counts`) and with
other seats' face-down action cards, another seat's look at the Event deck, and an Instinct
Event not yet shown to this seat removed. Everything else on the table is face up, and so is
the public history (every Event resolved, both discard piles, the cards each team resolved
last round, the marines slain).

A game started with forward-model support also gives each observation a
:class:`ForwardData`: the seat's view at the last point the engine can restart from (the
start of the phase) and what the seat saw happen since — the decisions (another seat's
face-down card as ``None``), the die faces and the cards taken face up. From that,
:func:`deathangel.engine.forward.determinize` deals the hidden cards at random into a new
game that stands at the same decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from attrs import field, frozen

from deathangel.engine.decisions import KIND_HELP, Decision

if TYPE_CHECKING:
    from deathangel.engine.abilities import Abilities
    from deathangel.engine.decisions import Option
    from deathangel.engine.state import CardTable, GameState


class PileCounts(NamedTuple):
    """Sizes of the hidden piles: public, unlike their contents and order."""

    genestealer_deck: int
    blips_left: int
    blips_right: int
    event_deck: int
    location_deck: int


def pile_counts(state: GameState) -> PileCounts:
    return PileCounts(
        len(state.gs_deck),
        len(state.blips[0]),
        len(state.blips[1]),
        len(state.event_deck),
        len(state.location_deck),
    )


def public_copy(state: GameState, seat: int | None) -> GameState:
    """A copy of ``state`` with what ``seat`` may not see taken out (``None``: a spectator,
    who sees only what the whole table sees).

    Hidden piles are emptied, not filled with placeholders: a placeholder id would index a
    real card by accident (``-1`` is the last Brood Lord), an empty list never does.
    """
    pub = state.copy()
    pub.gs_deck = []
    pub.blips = [[], []]
    pub.event_deck = []
    pub.location_deck = []
    if state.moved or state.attacked:
        # Flags of cards that have since left the table (a moved card slain, shuffled back and
        # dealt to a blip pile) would name a hidden card: keep those of cards in view.
        in_view = {c for pos in state.formation for swarm in pos.swarms for c in swarm}
        pub.moved = state.moved & in_view
        pub.attacked = state.attacked & in_view
    if state.choices_hidden():
        # Before the reveal only a seat's own face-down cards are known to it (RULES §5).
        pub.chosen = {t: c for t, c in state.chosen.items() if state.team_seat[t] == seat}
    if state.event_hidden and seat != state.current_seat:
        pub.event = None  # an Instinct card before the current player's choice (RULES §8)
    if state.scouted is not None and (
        state.scouted[0] != seat or not state.event_deck or state.event_deck[-1] != state.scouted[1]
    ):
        pub.scouted = None  # another seat's look, or a card no longer on top
    return pub


@frozen(eq=False)
class ForwardData:
    """What a seat needs to rebuild the game it is in: its view at the last restart point and
    what it has seen since. Read by :func:`deathangel.engine.forward.determinize`."""

    checkpoint: GameState
    """The seat's public copy of the state at the start of the current phase (or of setup)."""
    counts: PileCounts
    """The hidden piles' sizes at that point."""
    decisions: tuple[Option | None, ...]
    """Every decision answered since, in order; ``None`` for another seat's face-down card."""
    faces: tuple[int, ...]
    """Every die face rolled since, in order."""
    revealed: tuple[int | None, ...]
    """Every card taken face up from a hidden pile since, in order; ``None`` where only
    another seat looked."""
    scouted_top: int | None = None
    """The Event card this seat saw on top of the Event deck at that point, if it had looked
    (Forward Scouting) and the card was still there."""
    prepared: Any = field(default=None, init=False, eq=False, repr=False)
    """What :func:`~deathangel.engine.forward.determinize` works out once per observation (a
    search determinizes the same one hundreds of times): the cards out of view at that point
    and the game's config, derived from the public fields above only."""

    def fingerprint(self, table: CardTable) -> dict[str, Any]:
        return {
            "checkpoint": self.checkpoint.to_dict(table),
            "counts": list(self.counts),
            "decisions": [None if o is None else o.code() for o in self.decisions],
            "faces": list(self.faces),
            "revealed": list(self.revealed),
            "scouted_top": self.scouted_top,
        }


@frozen(eq=False)
class Observation:
    """Everything one seat may know at one decision, as a snapshot value."""

    seat: int | None
    """The 1-based seat this view is for (``None``: a spectator's view)."""
    decision: Decision | None
    """The pending decision, whoever answers it: who decides and the options are seen by the
    whole table (a face-down card's options are its team's cards, known to all); another
    seat's question comes with its kind's general wording, not its own prompt."""
    state: GameState
    """A public copy of the game state for this seat (see :func:`public_copy`). A copy: a
    bot may read or change it freely without touching the game."""
    counts: PileCounts
    """The sizes of the hidden piles."""
    table: CardTable
    """The card tables (names, icons, card facts) the state's ids index."""
    rules: Abilities[Any] | None = None
    """The card abilities the game is played with (for a forward model)."""
    forward: ForwardData | None = None
    """What :func:`~deathangel.engine.forward.determinize` needs; ``None`` when the game was
    started without forward-model support."""

    # -- questions bots ask often -------------------------------------------------------------

    @property
    def teams(self) -> tuple[str, ...]:
        """This seat's combat teams."""
        return self.state.seats[self.seat - 1] if self.seat is not None else ()

    @property
    def my_choices(self) -> dict[str, str]:
        """This seat's own face-down action cards this round (before the reveal)."""
        mine = set(self.teams)
        return {team: card for team, card in self.state.chosen.items() if team in mine}

    @property
    def event(self) -> str | None:
        """The Event card being resolved, if this seat may see it (RULES §8, §14.21)."""
        st = self.state
        return None if st.event is None else self.table.events[st.event].name

    @property
    def scouted_top_event(self) -> str | None:
        """The top Event card, if this seat has looked at it and it is still there."""
        st = self.state
        return None if st.scouted is None else self.table.events[st.scouted[1]].name

    # -- as data ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything this seat may know, JSON-ready."""
        st = self.state
        table = self.table
        labels = table.gs_labels
        counts = self.counts
        data: dict[str, Any] = {
            "seat": self.seat,
            "teams": list(self.teams),
            "seats": [list(teams) for teams in st.seats],
            "round": st.round,
            "phase": st.phase,
            "current_seat": st.current_seat,
            "location": st.location_name(table),
            "location_tokens": st.location_tokens,
            "locations_left": counts.location_deck,
            "supply": st.supply,
            "formation": [p.to_dict(table, i) for i, p in enumerate(st.formation)],
            "blip_counts": {"left": counts.blips_left, "right": counts.blips_right},
            "genestealer_deck_count": counts.genestealer_deck,
            "genestealer_discard": [labels[c] for c in st.gs_discard],
            "event_deck_count": counts.event_deck,
            "event_discard": [table.events[e].name for e in st.event_discard],
            "events_resolved": [table.events[e].name for e in st.events_resolved],
            "event": self.event,
            "scouted_top_event": self.scouted_top_event,
            "artefact_holder": st.artefact,
            "effects": [e.code() for e in st.effects],
            "next_effects": [e.code() for e in st.next_effects],
            "protected": sorted(labels[c] for c in st.protected),
            "revealed": [[team, card] for _, team, card in st.revealed],
            "my_choices": self.my_choices,
            "last_resolved": dict(sorted(st.last_resolved.items())),
            "eliminated": sorted(st.eliminated),
            "slain": list(st.slain),
            "lords_slain": [labels[c] for c in st.lords_slain],
            "resolved": sorted(st.resolved),
            "activated": sorted(st.activated),
            "attacked": sorted(labels[c] for c in st.attacked),
            "moved": sorted(labels[c] for c in st.moved),
            "outcome": st.outcome,
        }
        if st.wounds:
            # Hits taken by enemy cards in the formation: public, like the cards themselves.
            data["wounds"] = {labels[c]: n for c, n in sorted(st.wounds.items())}
        return data

    def fingerprint(self) -> dict[str, Any]:
        """Everything this observation holds, as data: two observations are the same view
        when their fingerprints are equal (a determinized game is checked this way)."""
        d = self.decision
        return {
            "view": self.to_dict(),
            "state": self.state.to_dict(self.table),
            "counts": list(self.counts),
            "decision": None
            if d is None
            else {"seat": d.seat, "kind": d.kind, "options": [o.code() for o in d.options]},
            "forward": None if self.forward is None else self.forward.fingerprint(self.table),
        }


def observe(
    state: GameState,
    table: CardTable,
    seat: int | None,
    decision: Decision | None = None,
    *,
    rules: Abilities[Any] | None = None,
    forward: ForwardData | None = None,
) -> Observation:
    """Build the snapshot ``seat`` may see now."""
    if decision is not None and decision.seat != seat and decision.prompt:
        # Another seat's question is seen by its kind and options; its words may hold what only
        # that seat knows (the Event card it scouted, an Instinct card not yet shown).
        decision = Decision(
            decision.seat, decision.kind, decision.options, KIND_HELP.get(decision.kind, "")
        )
    return Observation(
        seat=seat,
        decision=decision,
        state=public_copy(state, seat),
        counts=pile_counts(state),
        table=table,
        rules=rules,
        forward=forward,
    )


SEAT_ONLY_KEYS = frozenset({"my_choices", "scouted_top_event"})
"""Keys of an observation that only its own seat may know: a spectator's view leaves them
out."""


def public_view(state: GameState, table: CardTable) -> dict[str, Any]:
    """What anyone at the table may know: a spectator's observation, as data."""
    view = observe(state, table, None).to_dict()
    return {key: value for key, value in view.items() if key not in SEAT_ONLY_KEYS}
