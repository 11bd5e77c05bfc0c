"""Event (RULES §8): the card's ability, its spawn boxes, its move box, end-of-Event abilities."""

from __future__ import annotations

from deathangel.engine.core import EngineBase
from deathangel.engine.decisions import Flow
from deathangel.engine.formation import move_swarms

EVENT_HEADER = "— Event: "
"""How the Event phase's log header starts; the card's name follows (a front end hides it
while an Instinct card is the current player's alone)."""


class EventPhase(EngineBase):
    """The Event phase."""

    # -- Event (§8) ---------------------------------------------------------------------------

    def event_phase(self) -> Flow:
        st = self.state
        st.moved.clear()
        event_id = self.draw_event()
        event = self.table.events[event_id]
        if self.log is not None:  # words only when logging (off on the fast path)
            self.note(f"{EVENT_HEADER}{event.name} —")
        # 1. Ability first. An Instinct card with several players is the current player's
        # alone until he has chosen (unless a variant has every card decided openly).
        st.event_hidden = event.instinct and len(st.seats) > 1 and self.table.switches.instinct
        if st.scouted is not None and st.scouted[1] == event_id:
            st.scouted = None
        yield from self.abilities.event_ability(self, event)
        st.event_hidden = False
        self.spread_protection()
        # 2. Spawn boxes, left to right, each completed before the next.
        for box in event.spawns:
            yield from self.spawn_box(box)
        # 3. Move box; 4. groups sharing a row and side are one swarm from here on.
        if event.move is not None:
            count = move_swarms(st, self.table, event.move.icon, event.move.kind)
            self.spread_protection()
            if count:
                self.note(f"{count} genestealer(s) with {event.move.icon} move ({event.move.kind})")
        st.event_discard.append(event_id)
        st.events_resolved.append(event_id)
        st.event = None
        # End-of-Event abilities (Overwatch) before the travel check.
        yield from self.abilities.end_of_event(self)
