"""Choose Actions (RULES §5): every active team picks one action card, face down."""

from __future__ import annotations

import deathangel.engine.decisions as d
from deathangel.engine.core import EngineBase
from deathangel.engine.decisions import Flow, Option, option


class ChooseActions(EngineBase):
    """The Choose Actions phase."""

    # -- Choose Actions (§5) ------------------------------------------------------------------

    def choose_actions(self) -> Flow:
        st = self.state
        st.chosen = {}
        for seat, teams in enumerate(st.seats, start=1):
            for team in teams:
                if team in st.eliminated:
                    continue
                options = self.action_options(team)
                choice = yield from self.ask(
                    seat, d.CHOOSE_ACTION, options, f"choose the {team} team's action card"
                )
                st.chosen[team] = choice.text("card")
        actions = self.table.actions
        st.revealed = sorted(
            (actions[card][1].initiative, team, card) for team, card in st.chosen.items()
        )
        st.resolved = set()
        if self.log is not None:  # words are built only when logging (off on the fast path)
            self.note("revealed: " + ", ".join(f"{c} ({t}, {i})" for i, t, c in st.revealed))
        self.update_current_player()

    def action_options(self, team: str) -> list[Option]:
        """Cards the team may choose: not the one it resolved last round (§5)."""
        st = self.state
        last = st.last_resolved.get(team)
        barred = self.abilities.barred_actions(self, team)
        return [
            option("card", a.name)
            for a in self.table.db.team(team).actions
            if a.name != last and a.name not in barred
        ]
