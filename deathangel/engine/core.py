"""The engine's shared primitives: what every phase and every card ability uses.

:class:`EngineBase` holds one game's state, card tables, random streams, die, abilities and
log, and the atomic pieces of the rules that several phases need: asking a decision, rolling
(with support rerolls), slaying a genestealer, killing a marine and closing the formation,
drawing from the decks, spawning, and checking for the end of the game after each atomic
effect (RULES §9, §11, §12). The phases (:mod:`deathangel.engine.phases`) build on it and
:class:`deathangel.engine.rounds.Engine` puts the round together.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any

import deathangel.engine.decisions as d
from deathangel.cards.model import CardDatabase, Event, SpawnBox
from deathangel.engine.abilities import Abilities
from deathangel.engine.decisions import KEEP_OPTION, REROLL_OPTION, Decision, Flow, Option, option
from deathangel.engine.formation import remove_row
from deathangel.engine.randomness import Die, Roll, Streams
from deathangel.engine.state import LEFT, RIGHT, SIDES, CardTable, GameState, MarineState, Position
from deathangel.readonly import ReadOnlyDict

_new_tuple = tuple.__new__


def check_start_tokens(db: CardDatabase, tokens: int, marines: int) -> None:
    """Refuse starting tokens the supply cannot give every marine (``ValueError``)."""
    if tokens < 0 or tokens * marines > db.support_tokens:
        raise ValueError(
            f"a handicap of {tokens} token(s) for {marines} marines "
            f"exceeds the supply of {db.support_tokens}"
        )


def deal_marines(st: GameState, db: CardDatabase, streams: Streams, tokens: int) -> None:
    """RULES §3 steps 4–6 for the state's seats: the chosen teams' marines shuffled and dealt
    top to bottom, the top half facing left; each with ``tokens`` support tokens from the
    supply (the handicap house rule).

    :raises ValueError: for more starting tokens than the supply holds.
    """
    st.team_seat = {team: seat for seat, teams in enumerate(st.seats, start=1) for team in teams}
    marines = [
        MarineState(m.name, team, m.range, LEFT)
        for teams in st.seats
        for team in teams
        for m in db.team(team).marines
    ]
    streams.shuffle("setup", marines)
    half = len(marines) // 2
    for i, marine in enumerate(marines):
        marine.facing = LEFT if i < half else RIGHT
    st.formation = [Position(m) for m in marines]
    check_start_tokens(db, tokens, len(marines))
    for marine in marines:
        marine.tokens = tokens
    st.supply = db.support_tokens - tokens * len(marines)


class EngineFlow(Exception):
    """An exception the engine's own machinery raises through card effects (the game ending,
    an odds enumeration asking for a die face, a forward model that cannot replay): never a
    card's fault, so a plugin's effect it passes through is not blamed for it."""


class GameOver(EngineFlow):
    """Raised by the atomic effect that ends the game; ``state.outcome`` says how."""


class EngineBase:
    """One game's state and randomness, with the rules' atomic pieces."""

    def __init__(
        self,
        state: GameState,
        table: CardTable,
        streams: Streams,
        die: Die,
        abilities: Abilities[Any],
        log: list[str] | None = None,
    ) -> None:
        self.state = state
        self.table = table
        self.streams = streams
        self.die = die
        # Typed loosely: card abilities are written against the full Engine, which is
        # assembled above this module (an exact type here would be an import circle).
        self.abilities = abilities
        self.log = log
        """What happened, one line per event, every roll with its reason; ``None`` = off."""
        self.revealed: list[tuple[int, int]] | None = None
        """Every card taken face up from a hidden pile, in order, as ``(seat, card)`` (seat 0:
        seen by all; a seat: seen by that seat alone); ``None`` = not recorded. A forward model
        replays a game's public history with these cards (:mod:`deathangel.engine.forward`)."""
        self.restart_point: Callable[[], None] | None = None
        """Called at every point inside a phase where the engine could restart from the state
        alone (between two action cards, between two swarms' attacks): a forward model's
        checkpoint, so it replays as little as possible."""
        self.genestealers_slain = 0
        """Genestealers (Brood Lords included) slain so far, by any means."""
        self.deaths: list[tuple[str, str]] = []
        """``(marine, why)`` for every marine slain, in order: why the game was lost, for
        simulations and tournaments (not part of the state: a clone starts it anew)."""
        self.faces: list[int] | None = None
        """Every die face rolled, in order; ``None`` = not recorded (see :attr:`revealed`)."""
        self.defence_margin = table.switches.defence_margin
        """A rule switch read once (RULES §7 with a variant): a plain attribute, because the
        Genestealer Attack phase reads it at every defence roll."""

    # -- helpers ------------------------------------------------------------------------------

    def ask(
        self, seat: int, kind: str, options: Sequence[Option], prompt: str = ""
    ) -> Generator[Decision, Option, Option]:
        """Yield a decision, or answer it at once when only one option exists (§14.3)."""
        if self.state.event_hidden:
            # The one question an Instinct card asks before it is shown is the current
            # player's choice; once made (even forced), the card is public (RULES §14.21).
            self.state.event_hidden = False
            if len(options) == 1:
                return options[0]
            self.state.event_hidden = True
            choice = yield Decision(seat, kind, tuple(options), prompt)
            self.state.event_hidden = False
            return choice
        if len(options) == 1:
            return options[0]
        # Made as the named tuple's own __new__ would make it, without that Python-level call
        # (measured: about 1% of a search's rollouts went to named tuples' __new__).
        choice = yield _new_tuple(Decision, (seat, kind, tuple(options), prompt))
        return choice

    def roll_die(self) -> int:
        """One face of the combat die: every roll of the rules comes through here."""
        face = self.die.roll()
        if self.faces is not None:
            self.faces.append(face)
        return face

    def reveal(self, pile: list[int]) -> int:
        """Take the top card of a hidden pile (a blip pile, the Event or location deck) face
        up. Every card that leaves a hidden pile face up passes here, so that a forward model
        replaying the public history with other hidden cards makes the same ones appear."""
        card = pile.pop()
        if self.revealed is not None:
            self.revealed.append((0, card))
        return card

    def reveal_all(self, pile: list[int]) -> list[int]:
        """Take a whole hidden pile face up, bottom card first, leaving it empty."""
        cards = pile[:]
        pile.clear()
        if self.revealed is not None:
            self.revealed.extend((0, card) for card in cards)
        return cards

    def peek(self, pile: list[int], seat: int) -> int:
        """Let one seat look at the top card of a hidden pile (Forward Scouting)."""
        card = pile[-1]
        if self.revealed is not None:
            self.revealed.append((seat, card))
        return card

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

    def update_current_player(self) -> None:
        """The current player revealed the lowest initiative among teams still in play (§2)."""
        st = self.state
        for _, team, _ in st.revealed:
            if team not in st.eliminated:
                st.current_seat = st.team_seat[team]
                return

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
        self.deaths.append((name, why))
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
        his controller may spend one to roll again (§6.4). The caller logs the roll with
        what it did (:meth:`note_roll`): only it knows what the roll is compared with."""
        marine = self.marine(name)
        faces = [self.roll_die()]
        if may_reroll and marine.tokens:
            seat = self.state.team_seat[marine.team]
            options = (REROLL_OPTION, KEEP_OPTION)
            while marine.tokens:
                choice = yield Decision(seat, d.REROLL, options, d.reroll_prompt(reason, faces[-1]))
                if choice.verb != "reroll":
                    break
                marine.tokens -= 1
                self.state.supply += 1
                faces.append(self.roll_die())
        return Roll(tuple(faces), reason, modifier)

    def roll_plain(self, reason: str, result: Callable[[Roll], str] | None = None) -> Roll:
        """A roll that is neither attack nor defence: support can never reroll it (§6.4).
        ``result`` says in words what the roll does (``"he survives"``), for the log."""
        roll = Roll((self.roll_die(),), reason)
        if self.log is not None:
            self.log.append(f"{roll}: {result(roll)}" if result is not None else str(roll))
        return roll

    def note_roll(self, roll: Roll, result: str, *, skulls: bool = True) -> None:
        """Log a roll, what it was compared with and what it did, in words."""
        if self.log is not None:
            self.log.append(f"{roll.reason}: {roll.text(skulls=skulls)}{result}")

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
        no normal one is left (§14.2, §14.3). A protected swarm loses nothing. ``by`` names the
        marine who slew it, if one did.

        Returns the card hit, or ``None`` when none could be. An enemy card that needs more
        hits than it has taken is only wounded: it stays in the swarm with one more wound
        (``card in pos.swarms[side]`` tells the two apart); every other hit slays.
        """
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
            distinct = self.table.distinct(candidates, self.state.wounds)
            if len(distinct) > 1:
                labels = self.table.gs_labels
                options = [option("slay", labels[c]) for c in distinct]
                choice = yield from self.ask(seat, d.SLAY, options, "choose the genestealer slain")
                card = self.table.gs_by_label[choice.text("genestealer")]
        toughness = self.table.gs_toughness
        if toughness is not None and toughness[card] > 1:
            st = self.state
            hits = st.wounds.get(card, 0) + 1
            if hits < toughness[card]:
                st.wounds = ReadOnlyDict({**st.wounds, card: hits})
                self.note(
                    f"{self.table.gs_labels[card]} is wounded ({hits} of {toughness[card]} hits)"
                )
                return card
        swarm.remove(card)
        if self.log is not None:  # words only when logging (off on the fast path)
            self.note(f"{self.table.gs_labels[card]} is slain")
        self.discard_genestealers([card])
        yield from self.abilities.genestealer_slain(self, card, by)
        self.check_end()
        return card

    def heal(self, cards: Sequence[int]) -> None:
        """Clear the wounds of cards leaving the formation (discarded, or shuffled into a
        blip pile): a mark lasts only while its card is in play."""
        wounds = self.state.wounds
        if wounds and any(c in wounds for c in cards):
            self.state.wounds = ReadOnlyDict({c: n for c, n in wounds.items() if c not in cards})

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
        if slain:
            self.genestealers_slain += len(cards)
        if st.wounds:
            self.heal(cards)
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
                share[choice.side()] += 1
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

    def draw_event(self) -> int:
        """Top Event card, reshuffling the discard pile into a new deck when empty (§12)."""
        st = self.state
        if not st.event_deck:
            st.event_deck = st.event_discard
            st.event_discard = []
            self.streams.shuffle("events", st.event_deck)
            self.note("the Event discard pile is shuffled into a new deck")
        st.event = self.reveal(st.event_deck)
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
            swarm.append(self.reveal(pile))
        if n and self.state.protected:
            self.spread_protection()
        if n and self.log is not None:
            self.note(f"{n} genestealer(s) spawn {SIDES[side]} of position {row + 1}")
        return n

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
