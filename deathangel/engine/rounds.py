"""The phase engine: the rules of docs/rules.md §3–§12 as one generator that asks for decisions.

:meth:`Engine.run` is written out in the order of the rulebook: setup, then rounds of
Choose Actions → Resolve Actions → Genestealer Attack → Event, each followed by the travel
check. Wherever a player must choose, the generator yields a :class:`Decision` and receives
the chosen :class:`Option`; :mod:`deathangel.engine.game` drives it and checks legality. Game end
raises :class:`GameOver` from the atomic effect that caused it, so nothing after it runs
(RULES §11). Card abilities attach through :mod:`deathangel.engine.abilities`.

The generator can start at setup or at the start of any round (the state says which), which
is what makes round-start clones and scenario files cheap.
"""

from __future__ import annotations

from collections.abc import Callable

import deathangel.engine.decisions as d
from deathangel.engine.core import EngineBase, GameOver, deal_marines
from deathangel.engine.decisions import Flow, Option
from deathangel.engine.formation import place_terrain
from deathangel.engine.phases.choose import ChooseActions
from deathangel.engine.phases.event import EventPhase
from deathangel.engine.phases.genestealer_attack import GenestealerAttack
from deathangel.engine.phases.resolve import ResolveActions
from deathangel.engine.phases.travel import Travel
from deathangel.engine.state import PHASES

PHASE_HEADERS = {
    "choose_actions": "— Choose Actions —",
    "resolve_actions": "— Resolve Actions —",
    "genestealer_attack": "— Genestealer Attack —",
}
"""The log's header of each phase; the Event phase's (``— Event: NAME —``) names its card."""


class Engine(ChooseActions, ResolveActions, GenestealerAttack, EventPhase, Travel, EngineBase):
    """Applies the rules to one :class:`GameState` with one set of random streams: the round
    written out in :meth:`run`, each phase in its own module, the shared pieces in
    :class:`~deathangel.engine.core.EngineBase`."""

    # -- the game, in rulebook order ---------------------------------------------------------

    def run(
        self,
        at_round_start: Callable[[], None] | None = None,
        at_phase_start: Callable[[], None] | None = None,
        at_restart_point: Callable[[], None] | None = None,
    ) -> Flow:
        """Play from the state's phase to the end of the game.

        The state's ``phase`` says where to begin: ``setup``, ``round_start`` (a new round),
        or one of :data:`PHASES` (that phase of the current round, from its start: a scenario
        file or a forward model starts there). ``at_round_start`` is called (with no
        arguments) each time a round is about to begin: the point where a state copy plus a
        new generator make a full clone.
        ``at_phase_start`` is called at setup and as each phase begins (its name already in
        ``state.phase``); ``at_restart_point`` (by default ``at_phase_start`` too) at every
        point inside a phase where the engine can restart from the state
        (:attr:`~deathangel.engine.core.EngineBase.restart_point`).
        """
        st = self.state
        self.restart_point = at_restart_point if at_restart_point is not None else at_phase_start
        try:
            if st.phase == "setup":
                if at_phase_start is not None:
                    at_phase_start()
                yield from self.setup()
                st.phase = "round_start"
            # ``round_start`` begins a new round; a phase name resumes that phase of this one.
            new_round = st.phase not in PHASES
            start = 0 if new_round else PHASES.index(st.phase)
            while True:
                if new_round:
                    if at_round_start is not None:
                        at_round_start()
                    st.round += 1
                    if self.log is not None:  # words only when logging
                        self.note(f"— round {st.round} —")
                for phase in PHASES[start:]:
                    st.phase = phase
                    if at_phase_start is not None:
                        at_phase_start()
                    if phase in PHASE_HEADERS:
                        self.note(PHASE_HEADERS[phase])  # the Event's names its card
                    if phase == "choose_actions":
                        # Choose Actions (RULES §5): every active team picks a card face down.
                        yield from self.choose_actions()
                    elif phase == "resolve_actions":
                        # Resolve Actions (§6): revealed cards in ascending initiative.
                        yield from self.resolve_actions()
                    elif phase == "genestealer_attack":
                        # Genestealer Attack (§7): top row first, left before right.
                        yield from self.genestealer_attack(resume=True)
                    else:
                        # Event (§8): ability, spawn boxes, move box, end-of-Event abilities.
                        yield from self.event_phase()
                    # The travel check closes every phase (§4).
                    yield from self.end_of_phase()
                # Round cleanup: effects "this round" expire.
                self.end_round()
                st.phase = "round_start"
                start = 0
                new_round = True
        except GameOver:
            return

    def setup(self) -> Flow:
        """RULES §3 steps 1–8 (teams and the deal were fixed by the game's config)."""
        st = self.state
        # 1. Shuffle the Genestealer and Event decks; Brood Lords stay aside.
        st.gs_deck = list(range(self.table.deck_size))
        self.streams.shuffle("genestealers", st.gs_deck)
        st.event_deck = list(range(len(self.table.events)))
        self.streams.shuffle("events", st.event_deck)
        # 2-3. The setup location was chosen with the config; build the location deck. A
        # variant may name the final location (the last card) instead of drawing it.
        assert st.setup_location is not None
        recipe = st.setup_location.location_deck
        final = self.table.switches.final_location
        chosen = []
        for k, deck in enumerate(recipe):
            if final is not None and k == len(recipe) - 1:
                chosen.append(self.table.location_by_name[final])
                continue
            # The table's ids of that deck, in the same (database) order as the scan of every
            # location this replaced: the same draws pick the same cards (with the shuffle's
            # bit-length table, making 8,000 games of 1-6 players measured 0.90x the CPU).
            chosen.append(self.streams.choice("locations", self.table.locations_in_deck[deck]))
        st.location_deck = chosen[::-1]  # top card last
        # 4-6. Teams, the formation and the supply were dealt by the config (game.new_state),
        # unless the seats choose their teams now (a variant).
        if not st.formation and not all(st.seats):
            yield from self.choose_teams()
        # 7. Terrain, then blip piles (left first).
        place_terrain(st, st.setup_location.terrain)
        yield from self.fill_blips(st.setup_location.blips_left, st.setup_location.blips_right)
        # 8. The first Event: only its spawn boxes, then discard it.
        st.phase = "setup_event"
        event_id = self.draw_event()
        event = self.table.events[event_id]
        self.note(f"setup event: {event.name} (spawn boxes only)")
        for box in event.spawns:
            yield from self.spawn_box(box)
        st.event_discard.append(event_id)
        st.events_resolved.append(event_id)
        st.event = None
        self.check_end()

    def choose_teams(self) -> Flow:
        """RULES §3 step 4 with teams chosen: each seat in turn picks a team from those left,
        until every seat has its share; then the marines are dealt (steps 5–6)."""
        st = self.state
        assert st.setup_location is not None
        players = len(st.seats)
        per_seat = st.setup_location.teams_per_player[players]
        left = [t.color for t in self.table.db.teams]
        for _ in range(per_seat):
            for seat in range(1, players + 1):
                options = [Option("team", (colour,)) for colour in left]
                choice = yield from self.ask(
                    seat, d.CHOOSE_TEAM, options, f"seat {seat}: choose a combat team"
                )
                colour = choice.text("team")
                left.remove(colour)
                st.seats[seat - 1] = (*st.seats[seat - 1], colour)
                self.note(f"seat {seat} takes the {colour} combat team")
        deal_marines(st, self.table.db, self.streams, self.table.switches.start_tokens)

    def end_round(self) -> None:
        st = self.state
        st.protected.clear()
        st.activated.clear()
        st.chosen = {}
        st.effects = st.next_effects
        st.next_effects = []
        self.abilities.end_round(self)
