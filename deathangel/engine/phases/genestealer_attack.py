"""Genestealer Attack (RULES §7): each swarm attacks once, top row first, left before right."""

from __future__ import annotations

from deathangel.engine.abilities import COUNTER, MISS, SLAIN
from deathangel.engine.core import EngineBase
from deathangel.engine.decisions import Flow, defence_reason
from deathangel.engine.defence import slays, swarm_strength
from deathangel.engine.state import LEFT, RIGHT, SIDES


class GenestealerAttack(EngineBase):
    """The Genestealer Attack phase."""

    # -- Genestealer Attack (§7) --------------------------------------------------------------

    def genestealer_attack(self, *, resume: bool = False) -> Flow:
        """Each swarm attacks once, top row first, left before right.

        A swarm is the not-yet-attacked cards at a row and side: after a shift, cards that have
        attacked stay apart from those that have not (``state.attacked``) until the phase ends.
        A protected swarm (Power Field) does not attack. ``resume`` carries on a phase part-way
        (``state.attacked`` already holds the cards that have attacked), as the odds search and
        a restart from the state do; at a phase's start ``attacked`` is empty either way.
        """
        st = self.state
        attacked = st.attacked
        if not resume:
            attacked.clear()
        if self.log is not None:
            self._note_quiet_swarms()
        while True:
            found = None
            for row, pos in enumerate(st.formation):
                for side in (LEFT, RIGHT):
                    swarm = pos.swarms[side]
                    if swarm and not self.is_protected(swarm):
                        group = [c for c in swarm if c not in attacked]
                        if group:
                            found = (row, side, group)
                            break
                if found:
                    break
            if found is None:
                break
            row, side, group = found
            if attacked and self.restart_point is not None:
                self.restart_point()  # the phase can start again here, from the state
            attacked.update(group)
            yield from self.swarm_attacks(row, side, group)
        attacked.clear()

    def _note_quiet_swarms(self) -> None:
        """Why no swarm attacks, or why one does not: the log explains a quiet phase."""
        st = self.state
        swarms = [s for p in st.formation for s in p.swarms if s]
        if not swarms:
            self.note("no genestealer is engaged: nothing attacks")
        for row, pos in enumerate(st.formation):
            for side in (LEFT, RIGHT):
                if pos.swarms[side] and self.is_protected(pos.swarms[side]):
                    self.note(
                        f"the {SIDES[side]} swarm at position {row + 1} is under a Power Field: "
                        "it does not attack"
                    )

    def swarm_attacks(self, row: int, side: int, group: list[int]) -> Flow:
        """One swarm attacks the marine at its row: slain if value ≤ its size (§7).

        Defence abilities may turn the verdict into a miss, or a counter-attack: one attacker
        is slain and, while any is left, the swarm attacks again with a new roll.
        """
        st = self.state
        table = self.table
        pos = st.formation[row]
        marine = pos.marine
        seat = st.team_seat[marine.team]
        while group:
            # Enemy cards may weigh more (or less) than one genestealer.
            size, lords = swarm_strength(table, group)
            roll = yield from self.roll_with_rerolls(
                marine.name,
                defence_reason(marine.name, side, len(group)),
                marine.facing == side,
                modifier=-lords,
            )
            # RULES §7: slain when the value is at most the size (a variant may shift it).
            margin = self.defence_margin
            verdict = SLAIN if slays(roll.face, size, lords, margin) else MISS
            if self.log is not None:
                # No skull shown: a defence compares the value with the swarm's size.
                against = f"swarm of {size}" if not margin else f"swarm of {size}{margin:+d}"
                self.note_roll(
                    roll,
                    f" vs {against}: " + ("slain" if verdict == SLAIN else "missed"),
                    skulls=False,
                )
            verdict = yield from self.abilities.defence(self, marine.name, side, roll, verdict)
            if verdict == SLAIN:
                where = "in front" if marine.facing == side else "from behind"
                self.kill_marine(marine.name, f"slain by genestealers {where}")
                return
            if verdict != COUNTER:
                return
            card = yield from self.slay_one(pos, side, seat, by=marine.name, among=group)
            if card is None:
                return
            if card not in pos.swarms[side]:  # slain, not only wounded
                group.remove(card)
