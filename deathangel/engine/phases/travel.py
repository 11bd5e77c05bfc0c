"""Travel (RULES §10), checked at the end of every phase (§4)."""

from __future__ import annotations

import deathangel.engine.decisions as d
from deathangel.engine.abilities import is_door
from deathangel.engine.core import EngineBase
from deathangel.engine.decisions import DONE, Flow, Option
from deathangel.engine.formation import place_terrain
from deathangel.engine.state import LEFT, RIGHT, SIDES


class Travel(EngineBase):
    """The travel check and travel."""

    # -- Travel (§10) -------------------------------------------------------------------------

    def end_of_phase(self) -> Flow:
        """The travel check that closes every phase (§4)."""
        st = self.state
        if (not st.blips[LEFT] or not st.blips[RIGHT]) and st.location_deck:
            yield from self.travel()
        self.check_end()

    def travel(self) -> Flow:
        st = self.state
        # 1. Before leaving: pre-travel abilities (Door), then terrain tokens go back.
        yield from self.door_slays()
        for pos in st.formation:
            for cards in pos.terrain:
                for terrain in cards:
                    st.supply += terrain.tokens
                    terrain.tokens = 0
        # 2. The next location; its terrain replaces all terrain in the formation.
        st.location = self.reveal(st.location_deck)
        location = self.table.locations[st.location]
        st.supply += st.location_tokens
        st.location_tokens = 0
        self.note(f"the marines travel to {location.name}")
        place_terrain(st, location.terrain)
        # 3. Empty both blip piles into the discard, then refill them.
        for side in (LEFT, RIGHT):
            self.discard_genestealers(self.reveal_all(st.blips[side]), slain=False)
        yield from self.fill_blips(location.blips_left, location.blips_right)
        # 4. The location's on-entering ability.
        yield from self.abilities.on_entering(self, location)
        self.spread_protection()
        self.check_end()

    def door_slays(self) -> Flow:
        """The current player may slay one genestealer anywhere per token on a Door (§10.1):
        any terrain card whose effect is the Door's, whatever its name."""
        st = self.state
        table = self.table
        tokens = sum(
            t.tokens
            for p in st.formation
            for side in p.terrain
            for t in side
            if t.tokens and is_door(table, t.name)
        )
        for _ in range(tokens):
            options = [
                Option("target", (row + 1, SIDES[side]))
                for row, pos in enumerate(st.formation)
                for side in (LEFT, RIGHT)
                if pos.swarms[side] and not self.is_protected(pos.swarms[side])
            ]
            if not options:
                return
            options.append(DONE)
            choice = yield from self.ask(
                st.current_seat, d.DOOR_SLAY, options, "Door: slay a genestealer before leaving"
            )
            if choice.verb == "done":
                return
            row, side = choice.row(), choice.side()
            yield from self.slay_one(st.formation[row], side, st.current_seat)
