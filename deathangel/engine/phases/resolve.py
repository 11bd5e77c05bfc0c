"""Resolve Actions (RULES §6): revealed cards in ascending initiative — Support, Move +
Activate, Attack — and the attack itself, which card abilities reuse."""

from __future__ import annotations

import deathangel.engine.decisions as d
from deathangel.engine.core import EngineBase
from deathangel.engine.decisions import DONE, Flow, Option, option
from deathangel.engine.formation import swap_marines, targets_in_range
from deathangel.engine.state import SIDES


class ResolveActions(EngineBase):
    """The Resolve Actions phase."""

    # -- Resolve Actions (§6) -----------------------------------------------------------------

    def resolve_actions(self) -> Flow:
        st = self.state
        actions = self.table.actions
        for _, team, card_name in st.revealed:
            if team in st.eliminated or team in st.resolved:
                continue  # eliminated: its cards have left play (§9); resolved: a scenario
                # may start part-way through the phase
            if st.resolved and self.restart_point is not None:
                self.restart_point()  # the phase can start again here, from the state
            card = actions[card_name][1]
            if self.log is not None:  # words only when logging (off on the fast path)
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
        if st.supply <= 0:
            self.note(f"{card}: the supply is empty, so no support token is placed (§6.1)")
        else:
            options = [option("marine", p.marine.name) for p in st.formation]
            choice = yield from self.ask(seat, d.PLACE_SUPPORT, options, f"{card}: support token")
            name = choice.text("marine")
            self.marine(name).tokens += 1
            st.supply -= 1
            if self.log is not None:
                self.note(f"support token on {name}")
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
            name, other = choice.text("marine"), choice.text("other")
            swap_marines(st, st.marine_row(name), st.marine_row(other))
            swapped.add(name)
            if self.log is not None:
                self.note(f"{name} swaps with {other}")
        # 2. Facing: any marine of the team may turn.
        flipped: set[str] = set()
        while True:
            options = [
                option("flip", p.marine.name)
                for p in st.formation
                if p.marine.team == team and p.marine.name not in flipped
            ]
            if not options:
                break
            options.append(DONE)
            choice = yield from self.ask(seat, d.FACING, options, f"{card}: facing")
            if choice.verb == "done":
                break
            marine = self.marine(choice.text("marine"))
            marine.facing = 1 - marine.facing
            flipped.add(marine.name)
            if self.log is not None:
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
            name, terrain = choice.text("marine"), choice.text("terrain")
            activated_by.add(name)
            st.activated.add(terrain)
            if self.log is not None:
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
                    options.append(option("activate", marine.name, terrain.name))
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
                    options.append(option("attack", marine.name, side, target + 1))
                options.extend(ab.special_attack_options(self, card, marine.name))
            if not options:
                if not used:
                    self.note(f"{card}: no marine of the {team} team has a swarm in range")
                break
            options.append(DONE)
            choice = yield from self.ask(seat, d.ATTACK, options, f"{card}: attack")
            if choice.verb == "done":
                if not used:
                    self.note(f"{card}: the {team} team makes no attack")
                break
            name = choice.text("marine")
            used[name] = used.get(name, 0) + 1
            if choice.verb == "attack":
                yield from self.attack(name, choice.row(), card)
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
            name, d.attack_reason(name, side, target_row), True
        )
        kills = self.abilities.attack_kills(self, card, name, roll)
        target = st.formation[target_row]
        if self.log is not None:
            self.note_roll(roll, _attack_result(roll.skull, kills, len(target.swarms[side]), card))
        seat = st.team_seat[marine.team]
        for _ in range(kills):
            slain = yield from self.slay_one(target, side, seat, by=name)
            if slain is None:
                break
        if self.abilities.attack_chains(self, card, name, roll) and self.is_alive(name):
            # Psionic Attack: he may attack again at once, at any legal target.
            row = st.marine_row(name)
            options = [option("attack", name, SIDES[side], t + 1) for t in self.attack_targets(row)]
            if options:
                options.append(DONE)
                choice = yield from self.ask(seat, d.ATTACK, options, f"{card}: attack again")
                if choice.verb == "attack":
                    yield from self.attack(name, choice.row(), card)


def _attack_result(skull: bool, kills: int, swarm: int, card: str | None) -> str:
    """What an attack roll did, in words: ``": hit, 1 slain"``, ``": miss (no skull)"``."""
    if kills <= 0:
        return ": miss (no skull)" if not skull else f": miss ({card})"
    slain = min(kills, swarm)
    # A card that changes the count (Dead Aim, Flamer Attack) is named: the base rule is 1.
    why = "" if (skull and kills == 1) or card is None else f" ({card})"
    return f": hit{why}, {slain} slain" + (f" (up to {kills})" if slain < kills else "")
