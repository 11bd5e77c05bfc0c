"""What one seat may know: the honest view a bot or a person gets, never the state itself.

Hidden: the order of the Genestealer, Event and location decks; the cards in the blip piles
(their count is public); other seats' face-down action cards before the reveal. Everything
else on the table is face up. Values are computed when asked, so a bot that reads nothing
(the random bot) pays nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deathangel.engine.decisions import Decision
    from deathangel.engine.state import CardTable, GameState


class Observation:
    """A read-only view of a game for one seat."""

    __slots__ = ("_decision", "_state", "_table", "seat")

    def __init__(
        self, state: GameState, table: CardTable, seat: int, decision: Decision | None
    ) -> None:
        self._state = state
        self._table = table
        self._decision = decision
        self.seat = seat
        """The 1-based seat this view is for."""

    @property
    def decision(self) -> Decision | None:
        """The pending decision (its options are public to whoever must answer)."""
        return self._decision

    @property
    def teams(self) -> tuple[str, ...]:
        """This seat's combat teams."""
        return self._state.seats[self.seat - 1]

    @property
    def my_choices(self) -> dict[str, str]:
        """This seat's own face-down action cards this round (before the reveal)."""
        st = self._state
        mine = set(self.teams)
        return {team: card for team, card in st.chosen.items() if team in mine}

    @property
    def event(self) -> str | None:
        """The Event card being resolved; an Instinct card in a game with several players is
        shown only to the current player until he has chosen (RULES §8)."""
        st = self._state
        if st.event is None or (st.event_hidden and self.seat != st.current_seat):
            return None
        return self._table.events[st.event].name

    def to_dict(self) -> dict[str, Any]:
        """Everything this seat may know, JSON-ready."""
        st = self._state
        table = self._table
        labels = table.gs_labels
        location = (
            table.locations[st.location].name
            if st.location is not None
            else (st.setup_location.name if st.setup_location else None)
        )
        return {
            "seat": self.seat,
            "teams": list(self.teams),
            "seats": [list(teams) for teams in st.seats],
            "round": st.round,
            "phase": st.phase,
            "current_seat": st.current_seat,
            "location": location,
            "location_tokens": st.location_tokens,
            "locations_left": len(st.location_deck),
            "supply": st.supply,
            "formation": [p.to_dict(table, i) for i, p in enumerate(st.formation)],
            "blip_counts": {"left": len(st.blips[0]), "right": len(st.blips[1])},
            "genestealer_deck_count": len(st.gs_deck),
            "genestealer_discard": [labels[c] for c in st.gs_discard],
            "event_deck_count": len(st.event_deck),
            "event_discard": [table.events[e].name for e in st.event_discard],
            "event": self.event,
            "scouted_top_event": (
                table.events[st.scouted[1]].name
                if st.scouted is not None
                and st.scouted[0] == self.seat
                and st.event_deck
                and st.event_deck[-1] == st.scouted[1]
                else None
            ),
            "artefact_holder": st.artefact,
            "effects": [e.code() for e in st.effects],
            "next_effects": [e.code() for e in st.next_effects],
            "protected": sorted(labels[c] for c in st.protected),
            "revealed": [[team, card] for _, team, card in st.revealed],
            "my_choices": self.my_choices,
            "last_resolved": dict(sorted(st.last_resolved.items())),
            "eliminated": sorted(st.eliminated),
            "slain": list(st.slain),
            "outcome": st.outcome,
        }


PUBLIC_KEYS: tuple[str, ...] = (
    "seat",
    "teams",
    "seats",
    "round",
    "phase",
    "current_seat",
    "location",
    "location_tokens",
    "locations_left",
    "supply",
    "formation",
    "blip_counts",
    "genestealer_deck_count",
    "genestealer_discard",
    "event_deck_count",
    "event_discard",
    "event",
    "artefact_holder",
    "effects",
    "next_effects",
    "protected",
    "revealed",
    "last_resolved",
    "eliminated",
    "slain",
    "outcome",
)
"""Keys of the spectator view: an observation's, minus what only one seat may know. A key an
observation gains later is left out until it is listed here (never leaked by default)."""


def public_view(state: GameState, table: CardTable) -> dict[str, Any]:
    """What anyone at the table may know: an observation's keys minus ``my_choices`` and
    ``scouted_top_event``; ``seat`` is ``None``, ``teams`` empty, and an Instinct Event still
    hidden from the other seats is ``None``."""
    view = Observation(state, table, 1, None).to_dict()
    public = {key: view[key] for key in PUBLIC_KEYS if key in view}
    st = state
    public["seat"] = None
    public["teams"] = []
    public["event"] = None if st.event is None or st.event_hidden else table.events[st.event].name
    return public
