"""Building the game state a parsed scenario describes.

A :class:`~deathangel.scenario.file.Scenario` says only what the author chose to show; a
:class:`~deathangel.engine.state.GameState` needs every card somewhere. The builder places what the
file names — marines, terrain, genestealers, events, locations, support tokens, revealed
action cards, effects — checking each against the card database (every message names the
file and the key), then deals what is left unsaid (deck orders, blip piles given by size) at
random from the scenario's seed, so every card is in exactly one place (RULES §12) and the
same file always builds the same state.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

from deathangel.engine.lasting import (
    ENTER_FORMATION,
    EVASION,
    GunJam,
    LastingEffect,
    SecondWind,
)
from deathangel.engine.state import (
    LEFT,
    RIGHT,
    SIDES,
    CardTable,
    GameState,
    MarineState,
    Position,
    TerrainState,
)
from deathangel.scenario.file import EffectsSpec, Scenario, ScenarioError

if TYPE_CHECKING:
    from deathangel.cards.model import CardDatabase, Event

_VARIANT = re.compile(r"^(?P<name>.*\S)\s*\((?P<icon>[^()]+)\)$")
"""An event name with its move icon in brackets, e.g. ``Out of Thin Air (claw)``."""


def parse_swarm_ref(text: str, rows: int) -> tuple[int, int]:
    """``"SIDE:POSITION"`` (``"left:3"``) as (side, 0-based row); ``ValueError`` explaining
    what is wrong."""
    side_text, sep, pos_text = text.partition(":")
    if not sep or side_text not in SIDES:
        raise ValueError(f"{text!r} is not SIDE:POSITION, e.g. 'left:3'")
    try:
        position = int(pos_text)
    except ValueError:
        raise ValueError(f"{text!r} is not SIDE:POSITION, e.g. 'left:3'") from None
    if not 1 <= position <= rows:
        raise ValueError(f"position {position} is outside the formation (1-{rows})")
    return SIDES.index(side_text), position - 1


class _Builder:
    """Turns a :class:`Scenario` into a :class:`GameState`, checking it against the cards."""

    def __init__(self, sc: Scenario, db: CardDatabase) -> None:
        from deathangel.engine.game import card_table

        self.sc = sc
        self.db = db
        self.table: CardTable = card_table(db)
        self.rng = random.Random(f"deathangel:{sc.seed}:scenario")
        self.st = GameState()
        self.used: set[int] = set()
        self.next_number = dict.fromkeys(db.genestealers.icons, 0)
        self.copies = {**db.genestealers.icons, **{e.name: e.count for e in db.enemies}}
        """Cards named by kind: a genestealer icon, or an enemy type's name."""
        self.next_number.update(dict.fromkeys((e.name for e in db.enemies), 0))

    def fail(self, key: str, message: str) -> ScenarioError:
        return self.sc.fail(key, message)

    def build(self) -> GameState:
        sc, st = self.sc, self.st
        try:
            st.setup_location = self.db.setup_location_for(sc.players)
        except KeyError:
            raise self.fail("players", f"no setup location for {sc.players} players") from None
        self.marines()
        self.seats()
        self.terrain()
        self.genestealers()
        self.events()
        self.locations()
        self.tokens()
        self.actions()
        self.effects()
        st.round = sc.round
        st.phase = sc.phase
        if sc.phase == "choose_actions":
            # A new round: the engine counts it as it begins (round += 1).
            st.round = sc.round - 1
            st.phase = "round_start"
        return st

    # formation ----------------------------------------------------------------------------

    def marines(self) -> None:
        seen: set[str] = set()
        for i, row in enumerate(self.sc.formation, start=1):
            key = f"formation[{i}].marine"
            if row.marine not in self.table.marines:
                raise self.fail(key, f"unknown marine {row.marine!r}")
            if row.marine in seen:
                raise self.fail(key, f"{row.marine!r} is already in the formation")
            seen.add(row.marine)
            team, marine = self.table.marines[row.marine]
            self.st.formation.append(
                Position(MarineState(row.marine, team, marine.range, row.facing, row.tokens))
            )
        for i, name in enumerate(self.sc.slain, start=1):
            key = f"slain[{i}]"
            if name not in self.table.marines:
                raise self.fail(key, f"unknown marine {name!r}")
            if name in seen:
                raise self.fail(key, f"{name!r} is in the formation or listed twice")
            seen.add(name)
        self.st.slain = list(self.sc.slain)

    def seats(self) -> None:
        """Who plays which teams, checked; teams seated but not shown are eliminated, and
        their marines slain."""
        st = self.st
        assert st.setup_location is not None
        per_seat = st.setup_location.teams_per_player[self.sc.players]
        seats = self.seat_teams(per_seat)
        self.check_seats(seats, per_seat)
        st.seats = seats
        st.team_seat = {team: s for s, teams in enumerate(seats, start=1) for team in teams}
        alive = {p.marine.team for p in st.formation}
        st.eliminated = {team for team in st.team_seat if team not in alive}
        self.slay_unplaced(seats)

    def seat_teams(self, per_seat: int) -> list[tuple[str, ...]]:
        """The file's ``seats``; else, when the teams shown leave no doubt, those teams."""
        sc = self.sc
        if sc.seats is not None:
            return list(sc.seats)
        shown = [p.marine.team for p in self.st.formation]
        shown += [self.table.marines[n][0] for n in sc.slain]
        present = list(dict.fromkeys(shown))
        if sc.players == 1:
            if len(present) > per_seat:
                raise self.fail(
                    "formation",
                    f"marines of {len(present)} teams, but the one player of a solo game plays "
                    f"{per_seat}",
                )
            # Teams the file does not show were in the game too, and are gone (eliminated).
            spare = [t.color for t in self.db.teams if t.color not in present]
            return [tuple(present + spare[: per_seat - len(present)])]
        if per_seat == 1 and len(present) == sc.players:
            return [(team,) for team in present]
        raise self.fail(
            "seats",
            f"missing: with {sc.players} players and {len(present)} team(s) shown, say "
            "which seat plays which teams",
        )

    def check_seats(self, seats: list[tuple[str, ...]], per_seat: int) -> None:
        """One seat per player, each with its number of real teams, no team twice, and every
        marine's team seated."""
        sc = self.sc
        if len(seats) != sc.players:
            raise self.fail("seats", f"{len(seats)} seat(s) given for {sc.players} player(s)")
        colours = [t.color for t in self.db.teams]
        seated: set[str] = set()
        for i, seat in enumerate(seats, start=1):
            if len(seat) != per_seat:
                raise self.fail(
                    f"seats[{i}]",
                    f"has {len(seat)} team(s); with {sc.players} player(s) each seat plays "
                    f"{per_seat} (list eliminated teams too)",
                )
            for j, colour in enumerate(seat, start=1):
                if colour not in colours:
                    raise self.fail(
                        f"seats[{i}][{j}]",
                        f"unknown team {colour!r}; teams are {', '.join(colours)}",
                    )
                if colour in seated:
                    raise self.fail(f"seats[{i}][{j}]", f"team {colour!r} is seated twice")
                seated.add(colour)
        marines = [(f"formation[{i}].marine", row.marine) for i, row in enumerate(sc.formation, 1)]
        marines += [(f"slain[{i}]", name) for i, name in enumerate(sc.slain, start=1)]
        for key, name in marines:
            team = self.table.marines[name][0]
            if team not in seated:
                raise self.fail(key, f"{name!r} is of the {team} team, which no seat plays")

    def slay_unplaced(self, seats: list[tuple[str, ...]]) -> None:
        """Every marine of a team in play is in the formation or slain (RULES §9): those the
        file does not place are slain, after the ones it lists (in order of death)."""
        st = self.st
        living = {p.marine.name for p in st.formation}
        for seat in seats:
            for team in seat:
                for marine in self.db.team(team).marines:
                    if marine.name not in living and marine.name not in st.slain:
                        st.slain.append(marine.name)

    def terrain(self) -> None:
        sc, st = self.sc, self.st
        seen: dict[str, str] = {}
        for i, row in enumerate(sc.formation, start=1):
            for side, cards in ((LEFT, row.left_terrain), (RIGHT, row.right_terrain)):
                for j, spec in enumerate(cards, start=1):
                    key = f"formation[{i}].{SIDES[side]}_terrain[{j}]"
                    if spec.name not in self.table.terrain:
                        known = ", ".join(sorted(self.table.terrain))
                        raise self.fail(key, f"unknown terrain {spec.name!r} (known: {known})")
                    if spec.name in seen:
                        raise self.fail(
                            key, f"the {spec.name} is already in the formation at {seen[spec.name]}"
                        )
                    seen[spec.name] = f"formation[{i}]"
                    st.formation[i - 1].terrain[side].append(TerrainState(spec.name, spec.tokens))
        others = [name for name in seen if name != "Artefact"]
        if len(others) > 4:
            raise self.fail(
                "formation",
                f"{len(others)} terrain cards ({', '.join(others)}); a location has at most 4 "
                "(besides the Artefact)",
            )
        for i, name in enumerate(sc.activated, start=1):
            if name not in seen:
                raise self.fail(f"activated[{i}]", f"no {name!r} terrain is in the formation")
        st.activated = set(sc.activated)
        if sc.artefact is not None and "Artefact" in seen:
            raise self.fail(
                "artefact", "the Artefact is in a player's hand and in the formation at once"
            )
        st.artefact = sc.artefact

    # cards ---------------------------------------------------------------------------------

    def card(self, text: str, key: str, *, lords: bool) -> int:
        """The genestealer id for an icon name or an enemy type's name (next free label) or a
        Brood Lord name."""
        icons = self.copies
        lord_names = [lord.name for lord in self.db.brood_lords]
        if text in icons:
            self.next_number[text] += 1
            if self.next_number[text] > icons[text]:
                what = (
                    f"{text} genestealers"
                    if text in self.db.genestealers.icons
                    else f"{text} cards"
                )
                raise self.fail(key, f"more {what} than the {icons[text]} that exist")
            card = self.table.gs_by_label[f"{text}-{self.next_number[text]}"]
        elif text in lord_names:
            if not lords:
                raise self.fail(key, f"{text} never sits in a blip pile or the discard pile")
            card = self.table.gs_by_label[text]
            if card in self.used:
                raise self.fail(key, f"{text} is already in play")
        else:
            known = ", ".join([*icons, *lord_names])
            raise self.fail(key, f"unknown genestealer {text!r} (use one of: {known})")
        self.used.add(card)
        return card

    def genestealers(self) -> None:
        sc, st = self.sc, self.st
        for i, row in enumerate(sc.formation, start=1):
            for side, names in ((LEFT, row.left), (RIGHT, row.right)):
                for j, text in enumerate(names, start=1):
                    card = self.card(text, f"formation[{i}].{SIDES[side]}[{j}]", lords=True)
                    st.formation[i - 1].swarms[side].append(card)
        for i, name in enumerate(sc.brood_lords_slain, start=1):
            card = self.card(name, f"brood_lords_slain[{i}]", lords=True)
            if not self.table.is_brood_lord(card):
                raise self.fail(f"brood_lords_slain[{i}]", f"{name!r} is not a Brood Lord")
            st.lords_slain.append(card)
        piles: list[list[int] | int] = []
        for side, pile in enumerate(sc.blips):
            if isinstance(pile, tuple):
                cards = [
                    self.card(t, f"blips.{SIDES[side]}[{j}]", lords=False)
                    for j, t in enumerate(pile, start=1)
                ]
                piles.append(cards[::-1])  # top card last
            else:
                piles.append(-1 if pile is None else pile)
        discard = sc.genestealer_discard
        if isinstance(discard, tuple):
            st.gs_discard = [
                self.card(t, f"genestealer_discard[{j}]", lords=False)
                for j, t in enumerate(discard, start=1)
            ]
        rest = [c for c in range(self.table.deck_size) if c not in self.used]
        self.rng.shuffle(rest)
        defaults = self.location_blips()
        for side in (LEFT, RIGHT):
            given = piles[side]
            if isinstance(given, list):
                st.blips[side] = given
                continue
            size = given
            if size < 0:  # not given: the location's number, as far as the cards go
                size = min(defaults[side], len(rest))
            if size > len(rest):
                raise self.fail(
                    f"blips.{SIDES[side]}",
                    f"{size} cards asked but only {len(rest)} genestealer cards are left",
                )
            st.blips[side] = [rest.pop() for _ in range(size)]
        if isinstance(discard, int):
            if discard > len(rest):
                raise self.fail(
                    "genestealer_discard",
                    f"{discard} cards asked but only {len(rest)} genestealer cards are left",
                )
            st.gs_discard = [rest.pop() for _ in range(discard)]
        st.gs_deck = rest

    def location_blips(self) -> tuple[int, int]:
        """Blip pile sizes of the scenario's location (the default when not given)."""
        sc = self.sc
        assert self.st.setup_location is not None
        if sc.location is not None and sc.location in self.table.location_by_name:
            loc = self.table.locations[self.table.location_by_name[sc.location]]
            return loc.blips_left, loc.blips_right
        return self.st.setup_location.blips_left, self.st.setup_location.blips_right

    def event_copy(self, text: str, key: str, free: list[int]) -> int:
        """The first free copy of the named Event card (``Name (icon)``: by move icon)."""
        events = self.table.events
        name, icon = text, None
        if not any(e.name == text for e in events):
            match = _VARIANT.match(text)
            if match is not None:
                name, icon = match["name"], match["icon"].strip()

        def fits(event: Event) -> bool:
            if event.name != name:
                return False
            return icon is None or (event.move is not None and event.move.icon == icon)

        matching = [i for i in free if fits(events[i])]
        if not matching:
            if not any(fits(e) for e in events):
                raise self.fail(key, f"unknown Event card {text!r}")
            raise self.fail(key, f"every copy of {text!r} is already placed")
        free.remove(matching[0])
        return matching[0]

    def events(self) -> None:
        sc, st = self.sc, self.st
        free = list(range(len(self.table.events)))
        top = [
            self.event_copy(t, f"event_deck_top[{i}]", free)
            for i, t in enumerate(sc.event_deck_top, start=1)
        ]
        discard: list[int] = []
        if isinstance(sc.event_discard, tuple):
            discard = [
                self.event_copy(t, f"event_discard[{i}]", free)
                for i, t in enumerate(sc.event_discard, start=1)
            ]
        self.rng.shuffle(free)
        if isinstance(sc.event_discard, int):
            if sc.event_discard > len(free):
                raise self.fail(
                    "event_discard",
                    f"{sc.event_discard} cards asked but only {len(free)} Event cards are left",
                )
            discard = [free.pop() for _ in range(sc.event_discard)]
        st.event_discard = discard
        st.event_deck = free + top[::-1]  # top card last

    def locations(self) -> None:
        sc, st = self.sc, self.st
        setup = st.setup_location
        assert setup is not None
        by_name = self.table.location_by_name
        setup_names = {s.name for s in self.db.setup_locations}
        recipe = list(setup.location_deck)
        if sc.location is None or sc.location == setup.name:
            st.location = None
            later = recipe
        elif sc.location in setup_names:
            raise self.fail(
                "location",
                f"{sc.location!r} is not the setup location for {sc.players} player(s) "
                f"({setup.name!r})",
            )
        elif sc.location in by_name:
            st.location = by_name[sc.location]
            deck = self.table.locations[st.location].deck
            if deck not in recipe:
                raise self.fail(
                    "location",
                    f"{sc.location!r} is from deck {deck}, which a {sc.players}-player game "
                    f"never visits (location decks {', '.join(recipe)})",
                )
            later = recipe[recipe.index(deck) + 1 :]
        else:
            raise self.fail("location", f"unknown location {sc.location!r}")
        st.location_tokens = sc.location_tokens
        if sc.location_deck is None:
            chosen = []
            for deck in later:
                candidates = [i for i, loc in enumerate(self.table.locations) if loc.deck == deck]
                chosen.append(self.rng.choice(candidates))
            st.location_deck = chosen[::-1]
            return
        if len(sc.location_deck) != len(later):
            raise self.fail(
                "location_deck",
                f"{len(sc.location_deck)} location(s) given, but one from each of the decks "
                f"still to come is needed: {', '.join(later) or 'none'}",
            )
        deck_ids = []
        for i, (name, deck) in enumerate(zip(sc.location_deck, later, strict=True), start=1):
            key = f"location_deck[{i}]"
            if name not in by_name:
                raise self.fail(key, f"unknown location {name!r}")
            if self.table.locations[by_name[name]].deck != deck:
                raise self.fail(
                    key,
                    f"{name!r} is from deck {self.table.locations[by_name[name]].deck}, but "
                    f"card {i} of the location deck comes from deck {deck}",
                )
            deck_ids.append(by_name[name])
        st.location_deck = deck_ids[::-1]

    # tokens, actions, effects ----------------------------------------------------------------

    def tokens(self) -> None:
        sc, st = self.sc, self.st
        total = self.db.support_tokens
        placed = 0
        counts = [("location_tokens", st.location_tokens)]
        for i, (pos, row) in enumerate(zip(st.formation, sc.formation, strict=True), start=1):
            counts.append((f"formation[{i}].tokens", pos.marine.tokens))
            for side, cards in ((LEFT, row.left_terrain), (RIGHT, row.right_terrain)):
                for j, spec in enumerate(cards, start=1):
                    counts.append((f"formation[{i}].{SIDES[side]}_terrain[{j}]", spec.tokens))
        for key, n in counts:
            placed += n
            if placed > total:
                raise self.fail(key, f"{placed} support tokens placed, but only {total} exist")
        if sc.supply is not None and sc.supply != total - placed:
            raise self.fail(
                "supply",
                f"{sc.supply} does not add up: {placed} token(s) placed leave {total - placed} "
                f"of {total} in the supply",
            )
        st.supply = total - placed

    def action(self, name: str, key: str) -> tuple[str, int]:
        """(team, initiative) of an action card, which must be a seated team's."""
        if name not in self.table.actions:
            raise self.fail(key, f"unknown action card {name!r}")
        team, card = self.table.actions[name]
        if team not in self.st.team_seat:
            raise self.fail(key, f"{name!r} belongs to the {team} team, which no seat plays")
        return team, card.initiative

    def actions(self) -> None:
        sc, st = self.sc, self.st
        last: dict[str, str] = {}
        for i, name in enumerate(sc.last_resolved, start=1):
            team, _ = self.action(name, f"last_resolved[{i}]")
            if team in last:
                raise self.fail(
                    f"last_resolved[{i}]", f"the {team} team already has {last[team]!r}"
                )
            last[team] = name
        revealed: dict[str, tuple[int, str, str]] = {}
        for i, name in enumerate(sc.revealed, start=1):
            key = f"revealed[{i}]"
            team, initiative = self.action(name, key)
            if team in revealed:
                raise self.fail(key, f"the {team} team already revealed {revealed[team][2]!r}")
            if last.get(team) == name:
                raise self.fail(key, f"{name!r} resolved last round, so it cannot be chosen (§5)")
            kind = self.table.actions[name][1].kind
            if kind == "attack" and (team in sc.effects.gun_jam):
                raise self.fail(key, f"the {team} team is under Gun Jam: no Attack card")
            revealed[team] = (initiative, team, name)
        if sc.phase == "choose_actions" and revealed:
            raise self.fail("revealed", "nothing is revealed yet in phase choose_actions")
        order = sorted(revealed.values())
        if sc.resolved is None:
            done = (
                {team for _, team, _ in order if team not in st.eliminated}
                if sc.phase in ("genestealer_attack", "event")
                else set()
            )
        else:
            if sc.phase == "choose_actions" and sc.resolved:
                raise self.fail("resolved", "nothing has resolved yet in phase choose_actions")
            done = set()
            names = {card: team for _, team, card in order}
            for i, name in enumerate(sc.resolved, start=1):
                if name not in names:
                    raise self.fail(f"resolved[{i}]", f"{name!r} is not among the revealed cards")
                done.add(names[name])
            if sc.phase == "resolve_actions":
                # Cards resolve in ascending initiative: the resolved ones come first.
                pending = False
                for _, team, card in order:
                    if team in st.eliminated:
                        continue
                    if team not in done:
                        pending = True
                    elif pending:
                        raise self.fail(
                            "resolved", f"{card!r} cannot have resolved before a lower initiative"
                        )
        st.revealed = order
        st.resolved = done
        st.last_resolved = last
        for _, team, card in order:
            if team in done:
                st.last_resolved[team] = card
        if sc.current_seat is not None:
            st.current_seat = sc.current_seat
        else:
            st.current_seat = next(
                (st.team_seat[t] for _, t, _ in order if t not in st.eliminated), 1
            )

    def effect_list(self, spec: EffectsSpec, where: str) -> list[LastingEffect]:
        prefix = f"{where}." if where else ""
        effects: list[LastingEffect] = []
        alive = {p.marine.name for p in self.st.formation}
        for i, name in enumerate(spec.second_wind, start=1):
            if name not in alive:
                raise self.fail(
                    f"{prefix}second_wind[{i}]", f"{name!r} is not a marine of the formation"
                )
            effects.append(SecondWind(name))
        for i, team in enumerate(spec.gun_jam, start=1):
            if team not in self.st.team_seat:
                raise self.fail(f"{prefix}gun_jam[{i}]", f"{team!r} is not a seated team")
            effects.append(GunJam(team))
        if spec.evasion:
            effects.append(EVASION)
        if spec.enter_formation:
            effects.append(ENTER_FORMATION)
        return effects

    def effects(self) -> None:
        sc, st = self.sc, self.st
        for i, text in enumerate(sc.power_field, start=1):
            key = f"power_field[{i}]"
            try:
                side, row = parse_swarm_ref(text, len(st.formation))
            except ValueError as exc:
                raise self.fail(key, str(exc)) from None
            swarm = st.formation[row].swarms[side]
            if not swarm:
                raise self.fail(key, f"there is no swarm at {text}")
            st.protected.update(swarm)
        st.effects = self.effect_list(sc.effects, "")
        st.next_effects = self.effect_list(sc.next_round, "next_round")


def scenario_state(scenario: Scenario, db: CardDatabase) -> GameState:
    """The game state a scenario describes, its hidden parts dealt from its seed.

    :raises ScenarioError: when the scenario names cards ``db`` does not have, or describes
        an impossible situation.
    """
    return _Builder(scenario, db).build()
