"""The phase engine: the rules of RULES.md §3–§12 as one generator that asks for decisions.

:meth:`Engine.run` is written out in the order of the rulebook: setup, then rounds of
Choose Actions → Resolve Actions → Genestealer Attack → Event, each followed by the travel
check. Wherever a player must choose, the generator yields a :class:`Decision` and receives
the chosen :class:`Option`; :mod:`deathangel.game` drives it and checks legality. Game end
raises :class:`GameOver` from the atomic effect that caused it, so nothing after it runs
(RULES §11). Card abilities attach through :mod:`deathangel.abilities`.

The generator can start at setup or at the start of any round (the state says which), which
is what makes round-start clones and scenario files cheap.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from deathangel import decisions as d
from deathangel.cardmodel import Event, SpawnBox
from deathangel.decisions import DONE, KEEP_OPTION, REROLL_OPTION, Decision, Option
from deathangel.formation import (
    move_swarms,
    place_terrain,
    remove_row,
    swap_marines,
    targets_in_range,
)
from deathangel.randomness import Die, Roll, Streams
from deathangel.state import LEFT, RIGHT, SIDES, CardTable, GameState, MarineState, Position

if TYPE_CHECKING:
    from deathangel.abilities import Abilities

Flow = Generator[Decision, Option, None]
"""A piece of the rules that may ask for decisions."""


PHASES = ("choose_actions", "resolve_actions", "genestealer_attack", "event")
"""The four phases of a round, in order (RULES §4)."""

SLAIN = "slain"
MISS = "miss"
COUNTER = "counter"
"""Verdicts of a defence roll: the marine dies, the attack misses, or it misses and the
marine strikes back (one attacker slain, the rest attack again)."""


class GameOver(Exception):
    """Raised by the atomic effect that ends the game; ``state.outcome`` says how."""


class Engine:
    """Applies the rules to one :class:`GameState` with one set of random streams."""

    def __init__(
        self,
        state: GameState,
        table: CardTable,
        streams: Streams,
        die: Die,
        abilities: Abilities,
        log: list[str] | None = None,
    ) -> None:
        self.state = state
        self.table = table
        self.streams = streams
        self.die = die
        self.abilities = abilities
        self.log = log
        """What happened, one line per event, every roll with its reason; ``None`` = off."""

    # -- the game, in rulebook order ---------------------------------------------------------

    def run(self, at_round_start: object = None) -> Flow:
        """Play from the state's phase to the end of the game.

        The state's ``phase`` says where to begin: ``setup``, ``round_start`` (a new round),
        or one of :data:`PHASES` (that phase of the current round, as a scenario file sets
        up). ``at_round_start`` is called (with no arguments) each time a round is about to
        begin: the point where a state copy plus a new generator make a full clone.
        """
        st = self.state
        try:
            if st.phase == "setup":
                yield from self.setup()
                st.phase = "round_start"
            start = PHASES.index(st.phase) if st.phase in PHASES else 0
            while True:
                if start == 0:
                    if at_round_start is not None:
                        at_round_start()  # type: ignore[operator]
                    st.round += 1
                    self.note(f"— round {st.round} —")
                for phase in PHASES[start:]:
                    st.phase = phase
                    if phase == "choose_actions":
                        # Choose Actions (RULES §5): every active team picks a card face down.
                        yield from self.choose_actions()
                    elif phase == "resolve_actions":
                        # Resolve Actions (§6): revealed cards in ascending initiative.
                        yield from self.resolve_actions()
                    elif phase == "genestealer_attack":
                        # Genestealer Attack (§7): top row first, left before right.
                        yield from self.genestealer_attack()
                    else:
                        # Event (§8): ability, spawn boxes, move box, end-of-Event abilities.
                        yield from self.event_phase()
                    # The travel check closes every phase (§4).
                    yield from self.end_of_phase()
                # Round cleanup: effects "this round" expire.
                self.end_round()
                st.phase = "round_start"
                start = 0
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
        # 2-3. The setup location was chosen with the config; build the location deck.
        assert st.setup_location is not None
        recipe = st.setup_location.location_deck
        chosen = []
        for deck in recipe:
            candidates = [i for i, loc in enumerate(self.table.locations) if loc.deck == deck]
            chosen.append(self.streams.choice("locations", candidates))
        st.location_deck = chosen[::-1]  # top card last
        # 4-6. Teams, the formation and the supply were dealt by the config (game.new_state).
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
        st.event = None
        self.check_end()

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
                st.chosen[team] = str(choice.args[0])
        actions = self.table.actions
        st.revealed = sorted(
            (actions[card][1].initiative, team, card) for team, card in st.chosen.items()
        )
        st.resolved = set()
        self.note("revealed: " + ", ".join(f"{c} ({t}, {i})" for i, t, c in st.revealed))
        self.update_current_player()

    def action_options(self, team: str) -> list[Option]:
        """Cards the team may choose: not the one it resolved last round (§5)."""
        st = self.state
        last = st.last_resolved.get(team)
        barred = self.abilities.barred_actions(self, team)
        return [
            Option("card", (a.name,))
            for a in self.table.db.team(team).actions
            if a.name != last and a.name not in barred
        ]

    def update_current_player(self) -> None:
        """The current player revealed the lowest initiative among teams still in play (§2)."""
        st = self.state
        for _, team, _ in st.revealed:
            if team not in st.eliminated:
                st.current_seat = st.team_seat[team]
                return

    # -- Resolve Actions (§6) -----------------------------------------------------------------

    def resolve_actions(self) -> Flow:
        st = self.state
        actions = self.table.actions
        for _, team, card_name in st.revealed:
            if team in st.eliminated or team in st.resolved:
                continue  # eliminated: its cards have left play (§9); resolved: a scenario
                # may start part-way through the phase
            card = actions[card_name][1]
            self.note(f"{card_name} ({team}) resolves")
            if card.kind == "support":
                yield from self.support_action(team, card_name)
            elif card.kind == "move_activate":
                yield from self.move_activate_action(team, card_name)
            else:
                yield from self.attack_action(team, card_name)
            st.resolved.add(team)
            st.last_resolved[team] = card_name

    def support_action(self, team: str, card: str) -> Flow:
        """§6.1: one token from the supply onto any marine, then the card's ability."""
        st = self.state
        seat = st.team_seat[team]
        if st.supply > 0:
            options = [Option("marine", (p.marine.name,)) for p in st.formation]
            choice = yield from self.ask(seat, d.PLACE_SUPPORT, options, f"{card}: support token")
            self.marine(str(choice.args[0])).tokens += 1
            st.supply -= 1
            self.note(f"support token on {choice.args[0]}")
        yield from self.abilities.after_support(self, team, card)
        self.spread_protection()  # Strategize may have moved a swarm onto another

    def move_activate_action(self, team: str, card: str) -> Flow:
        """§6.2: move (one own swap each), then facing, then activation — each optional."""
        st = self.state
        seat = st.team_seat[team]
        yield from self.abilities.before_move_activate(self, team, card)
        # 1. Move: each marine may make one swap of his own, in any order.
        swapped: set[str] = set()
        while True:
            options = self.abilities.swap_options(self, team, card, swapped)
            if not options:
                break
            options.append(DONE)
            choice = yield from self.ask(seat, d.MOVE, options, f"{card}: move")
            if choice.verb == "done":
                break
            name, other = str(choice.args[0]), str(choice.args[1])
            swap_marines(st, st.marine_row(name), st.marine_row(other))
            swapped.add(name)
            self.note(f"{name} swaps with {other}")
        # 2. Facing: any marine of the team may turn.
        flipped: set[str] = set()
        while True:
            options = [
                Option("flip", (p.marine.name,))
                for p in st.formation
                if p.marine.team == team and p.marine.name not in flipped
            ]
            if not options:
                break
            options.append(DONE)
            choice = yield from self.ask(seat, d.FACING, options, f"{card}: facing")
            if choice.verb == "done":
                break
            marine = self.marine(str(choice.args[0]))
            marine.facing = 1 - marine.facing
            flipped.add(marine.name)
            self.note(f"{marine.name} turns to face {SIDES[marine.facing]}")
        # 3. Activate: one terrain card in front of each marine, each card once a round.
        activated_by: set[str] = set()
        while True:
            options = self.activation_options(team, activated_by)
            if not options:
                break
            options.append(DONE)
            choice = yield from self.ask(seat, d.ACTIVATE, options, f"{card}: activate terrain")
            if choice.verb == "done":
                break
            name, terrain = str(choice.args[0]), str(choice.args[1])
            activated_by.add(name)
            st.activated.add(terrain)
            self.note(f"{name} activates the {terrain}")
            yield from self.abilities.activate_terrain(self, team, card, name, terrain)
            self.check_end()
        yield from self.abilities.after_move_activate(self, team, card)

    def activation_options(self, team: str, activated_by: set[str]) -> list[Option]:
        st = self.state
        options = []
        for pos in st.formation:
            marine = pos.marine
            if marine.team != team or marine.name in activated_by:
                continue
            for terrain in pos.terrain[marine.facing]:
                if terrain.name not in st.activated and self.abilities.can_activate(
                    self, terrain.name
                ):
                    options.append(Option("activate", (marine.name, terrain.name)))
        return options

    def attack_action(self, team: str, card: str) -> Flow:
        """§6.3: each marine of the team attacks once (unless the card allows more), in the
        order the player chooses; every attack is optional (§14.18)."""
        st = self.state
        seat = st.team_seat[team]
        ab = self.abilities
        used: dict[str, int] = {}
        limit = ab.attackers_limit(self, team)
        while True:
            options = []
            for row, pos in enumerate(st.formation):
                marine = pos.marine
                if marine.team != team:
                    continue
                if used.get(marine.name, 0) >= ab.attacks_allowed(self, card, marine.name):
                    continue
                if limit is not None and marine.name not in used and len(used) >= limit:
                    continue
                side = SIDES[marine.facing]
                for target in self.attack_targets(row):
                    options.append(Option("attack", (marine.name, side, target + 1)))
                options.extend(ab.special_attack_options(self, card, marine.name))
            if not options:
                break
            options.append(DONE)
            choice = yield from self.ask(seat, d.ATTACK, options, f"{card}: attack")
            if choice.verb == "done":
                break
            name = str(choice.args[0])
            used[name] = used.get(name, 0) + 1
            if choice.verb == "attack":
                yield from self.attack(name, int(choice.args[2]) - 1, card)
            else:
                yield from ab.special_attack(self, card, choice)
        yield from ab.after_attack(self, team, card)

    def attack_targets(self, row: int) -> list[int]:
        """Rows the marine at ``row`` may attack now: in range, in front, not protected."""
        st = self.state
        side = st.formation[row].marine.facing
        targets = targets_in_range(st, row)
        if st.protected:
            targets = [r for r in targets if not self.is_protected(st.formation[r].swarms[side])]
        return targets

    def attack(self, name: str, target_row: int, card: str | None = None) -> Flow:
        """One attack by ``name`` (a normal one when ``card`` is ``None``): roll with support
        rerolls (he faces the swarm), then slay what the roll and ``card`` say (§6.3)."""
        st = self.state
        marine = self.marine(name)
        side = marine.facing
        roll = yield from self.roll_with_rerolls(
            name, f"{name} attacks the {SIDES[side]} swarm at position {target_row + 1}", True
        )
        kills = self.abilities.attack_kills(self, card, name, roll)
        target = st.formation[target_row]
        seat = st.team_seat[marine.team]
        for _ in range(kills):
            slain = yield from self.slay_one(target, side, seat, by=name)
            if slain is None:
                break
        if self.abilities.attack_chains(self, card, name, roll) and self.is_alive(name):
            # Psionic Attack: he may attack again at once, at any legal target.
            row = st.marine_row(name)
            options = [
                Option("attack", (name, SIDES[side], t + 1)) for t in self.attack_targets(row)
            ]
            if options:
                options.append(DONE)
                choice = yield from self.ask(seat, d.ATTACK, options, f"{card}: attack again")
                if choice.verb == "attack":
                    yield from self.attack(name, int(choice.args[2]) - 1, card)

    # -- Genestealer Attack (§7) --------------------------------------------------------------

    def genestealer_attack(self, *, resume: bool = False) -> Flow:
        """Each swarm attacks once, top row first, left before right.

        A swarm is the not-yet-attacked cards at a row and side: after a shift, cards that have
        attacked stay apart from those that have not (``state.attacked``) until the phase ends.
        A protected swarm (Power Field) does not attack. ``resume`` carries on a phase part-way
        (``state.attacked`` already holds the cards that have attacked), as the odds search does.
        """
        st = self.state
        attacked = st.attacked
        if not resume:
            attacked.clear()
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
            attacked.update(group)
            yield from self.swarm_attacks(row, side, group)
        attacked.clear()

    def swarm_attacks(self, row: int, side: int, group: list[int]) -> Flow:
        """One swarm attacks the marine at its row: slain if value ≤ its size (§7).

        Defence abilities may turn the verdict into a miss, or a counter-attack: one attacker
        is slain and, while any is left, the swarm attacks again with a new roll.
        """
        st = self.state
        pos = st.formation[row]
        marine = pos.marine
        seat = st.team_seat[marine.team]
        while group:
            lords = sum(1 for c in group if self.table.is_brood_lord(c))
            roll = yield from self.roll_with_rerolls(
                marine.name,
                f"{len(group)} genestealer(s) on the {SIDES[side]} attack {marine.name}",
                marine.facing == side,
                modifier=-lords,
            )
            verdict = SLAIN if roll.value <= len(group) else MISS
            verdict = yield from self.abilities.defence(self, marine.name, side, roll, verdict)
            if verdict == SLAIN:
                self.kill_marine(marine.name, "slain by genestealers")
                return
            if verdict != COUNTER:
                return
            card = yield from self.slay_one(pos, side, seat, by=marine.name, among=group)
            if card is None:
                return
            group.remove(card)

    # -- Event (§8) ---------------------------------------------------------------------------

    def event_phase(self) -> Flow:
        st = self.state
        st.moved.clear()
        event_id = self.draw_event()
        event = self.table.events[event_id]
        self.note(f"event: {event.name}")
        # 1. Ability first. An Instinct card with several players is the current player's
        # alone until he has chosen.
        st.event_hidden = event.instinct and len(st.seats) > 1
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
        st.event = None
        # End-of-Event abilities (Overwatch) before the travel check.
        yield from self.abilities.end_of_event(self)

    def draw_event(self) -> int:
        """Top Event card, reshuffling the discard pile into a new deck when empty (§12)."""
        st = self.state
        if not st.event_deck:
            st.event_deck = st.event_discard
            st.event_discard = []
            self.streams.shuffle("events", st.event_deck)
            self.note("the Event discard pile is shuffled into a new deck")
        st.event = st.event_deck.pop()
        return st.event

    def spawn_box(self, box: SpawnBox) -> Flow:
        """Every terrain of the box's colour spawns from the blip pile on its side (§8.2)."""
        st = self.state
        assert st.setup_location is not None
        count = (
            st.setup_location.major_spawn if box.size == "major" else st.setup_location.minor_spawn
        )
        terrain = self.table.terrain
        for side in (LEFT, RIGHT):
            spots = [
                (row, t.name)
                for row, pos in enumerate(st.formation)
                for t in pos.terrain[side]
                if terrain[t.name].color == box.color
            ]
            if not spots:
                continue
            pile = st.blips[side]
            while spots and pile:
                if len(pile) < count * len(spots) and len({r for r, _ in spots}) > 1:
                    # Shortage: the current player picks which terrain draws next (FAQ).
                    options = [
                        Option("terrain", (name, row + 1, SIDES[side])) for row, name in spots
                    ]
                    choice = yield from self.ask(
                        st.current_seat,
                        d.SPAWN_ORDER,
                        options,
                        f"{box.color} spawn: the {SIDES[side]} blip pile has {len(pile)} card(s)",
                    )
                    index = options.index(choice)
                else:
                    index = 0
                row, name = spots.pop(index)
                n = self.abilities.spawn_limit(self, name, min(count, len(pile)))
                self.spawn(row, side, n)

    def spawn(self, row: int, side: int, count: int) -> int:
        """Move up to ``count`` cards from the blip pile on ``side`` into the swarm at
        (row, side), one by one; an empty pile spawns nothing. Returns how many came."""
        pile = self.state.blips[side]
        swarm = self.state.formation[row].swarms[side]
        n = min(count, len(pile))
        for _ in range(n):
            swarm.append(pile.pop())
        if n and self.state.protected:
            self.spread_protection()
        if n:
            self.note(f"{n} genestealer(s) spawn {SIDES[side]} of position {row + 1}")
        return n

    # -- marines dying (§9) -------------------------------------------------------------------

    def kill_marine(self, name: str, why: str) -> None:
        """Slay a marine: tokens to the supply, the formation closes up, teams may fall (§9).

        Ends the game when it was the last marine — unless clearing the final location was
        met by the same effect, which is a victory (§11).
        """
        st = self.state
        row = st.marine_row(name)
        marine, leftover = remove_row(st, row)
        self.spread_protection()
        st.supply += marine.tokens
        marine.tokens = 0
        st.slain.append(name)
        self.note(f"{name} is slain ({why})")
        remaining = 0
        if leftover is not None:
            # The last row is gone. Its cards must be somewhere (§12): the genestealers go to
            # the discard, tokens home. They were still in the formation when he fell, so they
            # still count against clearing the final location below.
            engaged = leftover.swarms[LEFT] + leftover.swarms[RIGHT]
            remaining = len(engaged)
            self.discard_genestealers(engaged, slain=False)
            st.supply += sum(t.tokens for side in leftover.terrain for t in side)
        if not any(p.marine.team == marine.team for p in st.formation):
            st.eliminated.add(marine.team)
            self.note(f"the {marine.team} combat team is eliminated")
        if not any(st.team_seat[p.marine.team] == st.current_seat for p in st.formation):
            self.update_current_player()
        self.check_end(remaining)

    # -- shared pieces: rolls, slaying, decks -------------------------------------------------

    def roll_with_rerolls(
        self, name: str, reason: str, may_reroll: bool, modifier: int = 0
    ) -> Generator[Decision, Option, Roll]:
        """Roll for a marine's attack or defence; while he has tokens and faces the swarm,
        his controller may spend one to roll again (§6.4)."""
        marine = self.marine(name)
        faces = [self.die.roll()]
        if may_reroll and marine.tokens:
            seat = self.state.team_seat[marine.team]
            options = (REROLL_OPTION, KEEP_OPTION)
            while marine.tokens:
                choice = yield Decision(seat, d.REROLL, options, f"{reason}: rolled {faces[-1]}")
                if choice.verb != "reroll":
                    break
                marine.tokens -= 1
                self.state.supply += 1
                faces.append(self.die.roll())
        roll = Roll(tuple(faces), reason, modifier)
        if self.log is not None:
            self.log.append(str(roll))
        return roll

    def roll_plain(self, reason: str) -> Roll:
        """A roll that is neither attack nor defence: support can never reroll it (§6.4)."""
        roll = Roll((self.die.roll(),), reason)
        if self.log is not None:
            self.log.append(str(roll))
        return roll

    def slay_one(
        self,
        pos: Position,
        side: int,
        seat: int,
        *,
        by: str | None = None,
        among: Sequence[int] | None = None,
    ) -> Generator[Decision, Option, int | None]:
        """Slay one genestealer of the swarm at ``pos``/``side`` (only from ``among`` if
        given), the player of ``seat`` choosing among cards that differ; Brood Lords only once
        no normal one is left (§14.2, §14.3). A protected swarm loses nothing. Returns the
        card slain, or ``None``. ``by`` names the marine who slew it, if one did."""
        swarm = pos.swarms[side]
        if not swarm or self.is_protected(swarm):
            return None
        candidates = list(among) if among is not None else swarm
        normal = [c for c in candidates if not self.table.is_brood_lord(c)]
        if normal:
            candidates = normal
        if not candidates:
            return None
        card = candidates[0]
        if len(candidates) > 1:
            distinct = self.table.distinct(candidates)
            if len(distinct) > 1:
                labels = self.table.gs_labels
                options = [Option("slay", (labels[c],)) for c in distinct]
                choice = yield from self.ask(seat, d.SLAY, options, "choose the genestealer slain")
                card = self.table.gs_by_label[str(choice.args[0])]
        swarm.remove(card)
        self.note(f"{self.table.gs_labels[card]} is slain")
        self.discard_genestealers([card])
        yield from self.abilities.genestealer_slain(self, card, by)
        self.check_end()
        return card

    def spread_protection(self) -> None:
        """A Power Field covers every card that has joined its swarm (FAQ): after anything
        that can merge swarms, mark every card sharing a swarm with a protected one."""
        protected = self.state.protected
        if not protected:
            return
        for pos in self.state.formation:
            for swarm in pos.swarms:
                if swarm and any(c in protected for c in swarm):
                    protected.update(swarm)

    def is_protected(self, swarm: Sequence[int]) -> bool:
        """Whether a swarm is under a Power Field: protection covers the whole swarm it has
        merged into (FAQ), so one protected card protects its swarm."""
        protected = self.state.protected
        return bool(protected) and any(c in protected for c in swarm)

    def is_alive(self, name: str) -> bool:
        """Whether that marine is in the formation."""
        return any(p.marine.name == name for p in self.state.formation)

    def discard_genestealers(self, cards: Sequence[int], *, slain: bool = True) -> None:
        """Slain or discarded genestealers go to the discard pile; Brood Lords leave play,
        counted as slain unless they merely left with a fallen last marine."""
        st = self.state
        for card in cards:
            st.protected.discard(card)
            if not self.table.is_brood_lord(card):
                st.gs_discard.append(card)
            elif slain:
                st.lords_slain.append(card)

    def draw_genestealer(self) -> int | None:
        """Top Genestealer card, reshuffling the discard when the deck is empty (§12)."""
        st = self.state
        if not st.gs_deck:
            if not st.gs_discard:
                return None
            st.gs_deck = st.gs_discard
            st.gs_discard = []
            self.streams.shuffle("genestealers", st.gs_deck)
            self.note("the Genestealer discard pile is shuffled into a new deck")
        return st.gs_deck.pop()

    def fill_blips(self, left: int, right: int) -> Flow:
        """Fill the blip piles to these sizes, left first; when deck and discard together
        run short, as equally as possible, the current player placing an odd card (§12)."""
        st = self.state
        available = len(st.gs_deck) + len(st.gs_discard)
        want = [max(0, left - len(st.blips[LEFT])), max(0, right - len(st.blips[RIGHT]))]
        if available < want[0] + want[1]:
            half = available // 2
            share = [min(want[0], half), min(want[1], half)]
            spare = available - share[0] - share[1]
            if spare == 1 and share[0] < want[0] and share[1] < want[1]:
                choice = yield from self.ask(
                    st.current_seat,
                    d.BLIP_SPLIT,
                    [Option("pile", ("left",)), Option("pile", ("right",))],
                    "the Genestealer deck is short: which blip pile takes the odd card?",
                )
                share[SIDES.index(str(choice.args[0]))] += 1
            else:
                for side in (LEFT, RIGHT):
                    extra = min(spare, want[side] - share[side])
                    share[side] += extra
                    spare -= extra
            want = share
            self.note(f"blip piles short: {want[0]} left, {want[1]} right")
        for side in (LEFT, RIGHT):
            for _ in range(want[side]):
                card = self.draw_genestealer()
                if card is None:
                    break
                st.blips[side].append(card)

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
        st.location = st.location_deck.pop()
        location = self.table.locations[st.location]
        st.supply += st.location_tokens
        st.location_tokens = 0
        self.note(f"the marines travel to {location.name}")
        place_terrain(st, location.terrain)
        # 3. Empty both blip piles into the discard, then refill them.
        for side in (LEFT, RIGHT):
            self.discard_genestealers(st.blips[side], slain=False)
            st.blips[side] = []
        yield from self.fill_blips(location.blips_left, location.blips_right)
        # 4. The location's on-entering ability.
        yield from self.abilities.on_entering(self, location)
        self.spread_protection()
        self.check_end()

    def door_slays(self) -> Flow:
        """The current player may slay one genestealer anywhere per token on a Door (§10.1)."""
        st = self.state
        tokens = sum(
            t.tokens for p in st.formation for side in p.terrain for t in side if t.name == "Door"
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
            row, side = int(choice.args[0]) - 1, SIDES.index(str(choice.args[1]))
            yield from self.slay_one(st.formation[row], side, st.current_seat)

    # -- game end (§11) and cleanup -----------------------------------------------------------

    def check_end(self, engaged_with_fallen: int = 0) -> None:
        """Raise :class:`GameOver` if the game has just been won or lost.

        Victory is checked first, so an effect that both meets victory and slays the last
        marine is a win (§11). ``engaged_with_fallen`` counts genestealers that were engaged
        with a last marine who just fell: they never left the formation.
        """
        st = self.state
        if st.outcome is not None:
            raise GameOver
        if st.location is not None and not st.location_deck:
            location = self.table.locations[st.location]
            if location.final and (
                (
                    not st.blips[LEFT]
                    and not st.blips[RIGHT]
                    and st.genestealers_in_formation() + engaged_with_fallen == 0
                )
                or self.abilities.extra_victory(self, location)
            ):
                st.outcome = "victory"
                self.note("VICTORY: the marines have won")
                raise GameOver
        if not st.formation:
            st.outcome = "defeat"
            self.note("DEFEAT: every marine is slain")
            raise GameOver

    def declare_victory(self, why: str) -> None:
        """End the game in victory now (a final location's own condition was met)."""
        self.state.outcome = "victory"
        self.note(f"VICTORY: {why}")
        raise GameOver

    def end_round(self) -> None:
        st = self.state
        st.protected.clear()
        st.activated.clear()
        st.chosen = {}
        st.effects = st.next_effects
        st.next_effects = []
        self.abilities.end_round(self)

    # -- helpers ------------------------------------------------------------------------------

    def ask(
        self, seat: int, kind: str, options: Sequence[Option], prompt: str = ""
    ) -> Generator[Decision, Option, Option]:
        """Yield a decision, or answer it at once when only one option exists (§14.3)."""
        if len(options) == 1:
            return options[0]
        choice = yield Decision(seat, kind, tuple(options), prompt)
        return choice

    def marine(self, name: str) -> MarineState:
        """The living marine of that name."""
        for pos in self.state.formation:
            if pos.marine.name == name:
                return pos.marine
        raise ValueError(f"marine {name!r} is not in the formation")

    def note(self, line: str) -> None:
        """Add a line to the log when logging is on (off on the fast path)."""
        if self.log is not None:
            self.log.append(line)

    def event_card(self) -> Event | None:
        """The Event card being resolved, if any."""
        return None if self.state.event is None else self.table.events[self.state.event]
