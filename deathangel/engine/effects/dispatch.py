"""Card abilities wired into the engine's timing windows, from tables built once per game.

:class:`CardAbilities` answers each window of :class:`deathangel.engine.abilities.Abilities` by
looking at the cards in play — the action cards revealed this round, the Event card drawn, the
current location, the terrain in the formation — and calling the implementation registered
for the effect each card names. Building it checks that every effect named by a card in the
database has an implementation, so a card that would silently do nothing is refused at once.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Generator, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import deathangel.engine.decisions as d
from deathangel.cards.catalogue import EffectCatalogue, Timing
from deathangel.cards.model import CardDatabase, Effect
from deathangel.engine.abilities import COUNTER, MISS, SLAIN, Abilities, TerrainEffect
from deathangel.engine.decisions import DONE, Decision, Option
from deathangel.engine.effects import actions, events, locations
from deathangel.engine.effects.common import card_of, place_token
from deathangel.engine.lasting import (
    ENTER_FORMATION,
    EVASION,
    GunJam,
    LeadUsed,
    SecondWind,
    SpawnLimit,
)
from deathangel.engine.randomness import Roll
from deathangel.engine.state import LEFT, RIGHT, SIDES
from deathangel.errors import CardDataError, PluginError

if TYPE_CHECKING:
    from deathangel.cards.model import Event, Location
    from deathangel.engine.decisions import Flow
    from deathangel.engine.rounds import Engine

# Effects answered inside this class because they change the engine's own questions.
_DEFENCE = frozenset({"defence_face_misses", "defensive_reroll"})
_ATTACK = frozenset(
    {
        "attack_face_slays",
        "heroic_charge",
        "multiple_attacks",
        "skull_chains_attack",
        "attack_slays_face_value",
        "slay_grants_support",
    }
)
_INLINE = _DEFENCE | _ATTACK | {"swap_with_any", "door_bonus_token"}
_END_OF_EVENT = actions.ACTION_EFFECTS["end_of_event"]
_GROUP_OF_TIMING: dict[Timing, str] = {
    "event": "events",
    "on_entering": "locations",
    "control_panel": "locations",
    "terrain": "terrain",
    "victory": "victories",
}


class CardAbilities(Abilities["Engine"]):
    """Every card's ability, for the cards of one database.

    ``strict`` (the default) refuses a database with an effect that has no implementation;
    tests of one kind of card may turn it off while other kinds are still being built.
    """

    def __init__(
        self,
        db: CardDatabase,
        *,
        extra_actions: Mapping[str, actions.ActionEffect] | None = None,
        extra_events: Mapping[str, events.EventEffect] | None = None,
        extra_locations: Mapping[str, locations.LocationEffect] | None = None,
        extra_terrain: Mapping[str, TerrainEffect] | None = None,
        extra_victories: Mapping[str, locations.VictoryEffect] | None = None,
        strict: bool = True,
    ) -> None:
        super().__init__()
        self.terrain_effects.update(locations.TERRAIN_EFFECTS)
        self.terrain_effects.update(extra_terrain or {})
        self.action_effects: dict[str, actions.ActionEffect] = {
            **{
                name: impl
                for group in actions.ACTION_EFFECTS.values()
                for name, impl in group.items()
            },
            **(extra_actions or {}),
        }
        self.event_effects = {**events.EVENT_EFFECTS, **(extra_events or {})}
        self.location_effects = {**locations.LOCATION_EFFECTS, **(extra_locations or {})}
        self.victory_effects = {**locations.VICTORY_EFFECTS, **(extra_victories or {})}
        self.effect_of: dict[str, Effect | None] = {
            a.name: a.effect for t in db.teams for a in t.actions
        }
        if strict:
            self._check(db)

    @classmethod
    def with_implementations(
        cls,
        db: CardDatabase,
        catalogue: EffectCatalogue,
        implementations: Mapping[str, Callable[..., Any]],
    ) -> CardAbilities:
        """Abilities with plugins' implementations, each filed under its catalogue timing.

        :raises PluginError: for an implementation of a name the catalogue does not declare,
            or of a name the base game already implements.
        """
        groups: dict[str, dict[str, Any]] = {
            "actions": {},
            "events": {},
            "locations": {},
            "terrain": {},
            "victories": {},
        }
        builtin = CardAbilities(db, strict=False)
        taken = (
            set(builtin.action_effects)
            | set(builtin.event_effects)
            | set(builtin.location_effects)
            | set(builtin.terrain_effects)
            | set(builtin.victory_effects)
            | _INLINE
        )
        for name, impl in implementations.items():
            spec = catalogue.get(name)
            if spec is None:
                raise PluginError(f"implementation of {name!r}: no card effect of that name")
            if name in taken:
                raise PluginError(f"implementation of {name!r}: the effect already has one")
            groups[_GROUP_OF_TIMING.get(spec.timing, "actions")][name] = impl
        return cls(
            db,
            extra_actions=groups["actions"],
            extra_events=groups["events"],
            extra_locations=groups["locations"],
            extra_terrain=groups["terrain"],
            extra_victories=groups["victories"],
        )

    def _check(self, db: CardDatabase) -> None:
        """Refuse a database naming an effect with no implementation (never a silent no-op)."""
        actions_known = set(self.action_effects) | _INLINE
        named: list[tuple[str, str, Effect | None, Container[str]]] = [
            *(("action", a.name, a.effect, actions_known) for t in db.teams for a in t.actions),
            *(("event", e.name, e.effect, self.event_effects) for e in db.events),
            *(("location", c.name, c.effect, self.location_effects) for c in db.locations),
            *(("location", c.name, c.victory, self.victory_effects) for c in db.locations),
            *(("terrain", t.name, t.effect, self.terrain_effects) for t in db.terrain),
        ]
        for kind, name, effect, known in named:
            if effect is not None and effect.name not in known:
                raise CardDataError(
                    f"{kind} {name!r}: effect {effect.name!r} has no implementation"
                )

    # -- which cards are in play ----------------------------------------------------------------

    def _resolved_cards(self, engine: Engine) -> Iterator[tuple[str, str, Effect]]:
        """(team, card, effect) of this round's action cards that have resolved."""
        st = engine.state
        for _, team, card in st.revealed:
            effect = self.effect_of.get(card)
            if effect is not None and team in st.resolved:
                yield team, card, effect

    def _revealed_effect(self, engine: Engine, team: str) -> Effect | None:
        """The effect of the card the team revealed this round, resolved or not."""
        for _, t, card in engine.state.revealed:
            if t == team:
                return self.effect_of.get(card)
        return None

    def _effect(self, card: str | None, name: str) -> Mapping[str, Any] | None:
        """The params of ``card``'s effect if it is the named one."""
        if card is None:
            return None
        effect = self.effect_of.get(card)
        if effect is None or effect.name != name:
            return None
        return effect.params

    def _run(self, engine: Engine, team: str, card: str) -> Flow:
        effect = self.effect_of.get(card)
        if (
            effect is not None
            and effect.name in self.action_effects
            and (effect.name not in _END_OF_EVENT)
        ):
            yield from self.action_effects[effect.name](engine, team, card, effect.params)

    # -- Choose Actions -------------------------------------------------------------------------

    def barred_actions(self, engine: Engine, team: str) -> frozenset[str]:
        """Gun Jam: the jammed team may not choose its Attack card this round."""
        effects = engine.state.effects
        # Most rounds have no effect in force: then no value is built to look for.
        if effects and GunJam(team) in effects:
            return frozenset(
                a.name for a in engine.table.db.team(team).actions if a.kind == "attack"
            )
        return frozenset()

    # -- Resolve Actions ------------------------------------------------------------------------

    def after_support(self, engine: Engine, team: str, card: str) -> Flow:
        return self._run(engine, team, card)

    def before_move_activate(self, engine: Engine, team: str, card: str) -> Flow:
        """Enter Formation: before each Move + Activate card, one token on any marine."""
        st = engine.state
        if ENTER_FORMATION not in st.effects or st.supply <= 0:
            return
        options = [Option("marine", (p.marine.name,)) for p in st.formation]
        options.append(DONE)
        choice = yield from engine.ask(
            st.team_seat[team], d.PLACE_SUPPORT, options, "Enter Formation: place a token?"
        )
        if choice.verb == "marine":
            place_token(engine, choice.text("marine"))

    def swap_options(self, engine: Engine, team: str, card: str, swapped: set[str]) -> list[Option]:
        """Reorganize: swaps with any marine of the formation, not only a neighbour."""
        if self._effect(card, "swap_with_any") is None:
            return super().swap_options(engine, team, card, swapped)
        names = [p.marine.name for p in engine.state.formation]
        return [
            Option("swap", (p.marine.name, other))
            for p in engine.state.formation
            if p.marine.team == team and p.marine.name not in swapped
            for other in names
            if other != p.marine.name
        ]

    def can_activate(self, engine: Engine, terrain: str) -> bool:
        """The Control Panel works only where the location has a control-panel ability."""
        if not super().can_activate(engine, terrain):
            return False
        effect = engine.table.terrain[terrain].effect
        if effect is not None and effect.name == "use_control_panel":
            st = engine.state
            if st.location is None:
                return False
            return engine.table.locations[st.location].ability == "control_panel"
        return True

    def activate_terrain(
        self, engine: Engine, team: str, card: str, marine: str, terrain: str
    ) -> Flow:
        yield from super().activate_terrain(engine, team, card, marine, terrain)
        params = self._effect(card, "door_bonus_token")
        effect = engine.table.terrain[terrain].effect
        if params is None or effect is None or effect.name != "door_token":
            return
        for _ in range(int(params["tokens"])):
            if engine.state.supply <= 0:
                return
            choice = yield from engine.ask(
                engine.state.team_seat[team],
                d.CHOOSE,
                [Option("yes", ("an extra token on the Door",)), Option("no")],
                f"{card}: place an extra support token on the Door?",
            )
            if choice.verb != "yes":
                return
            locations.add_door_token(engine, terrain)

    def after_move_activate(self, engine: Engine, team: str, card: str) -> Flow:
        return self._run(engine, team, card)

    # -- attacks --------------------------------------------------------------------------------

    def attackers_limit(self, engine: Engine, team: str) -> int | None:
        """Evasion: this round an Attack card lets only one marine of its team attack."""
        return 1 if EVASION in engine.state.effects else None

    def attacks_allowed(self, engine: Engine, card: str | None, marine: str) -> int:
        params = self._effect(card, "multiple_attacks")
        if params is not None and params["marine"] == marine:
            return int(params["attacks"])
        return 1

    def special_attack_options(self, engine: Engine, card: str | None, marine: str) -> list[Option]:
        params = self._effect(card, "heroic_charge")
        if params is None or params["marine"] != marine:
            return []
        if not self._charge_targets(engine, marine, int(params["reach"])):
            return []
        return [Option("charge", (marine,))]

    def _charge_targets(self, engine: Engine, marine: str, reach: int) -> list[Option]:
        st = engine.state
        table = engine.table
        row = st.marine_row(marine)
        options: list[Option] = []
        for r in range(max(0, row - reach), min(len(st.formation), row + reach + 1)):
            for side in (LEFT, RIGHT):
                swarm = st.formation[r].swarms[side]
                if not swarm or engine.is_protected(swarm):
                    continue
                # Brood Lords only once no normal genestealer is left (§14.2).
                normal = [c for c in swarm if not table.is_brood_lord(c)] or swarm
                options.extend(
                    Option("slay_at", (r + 1, SIDES[side], table.gs_labels[c]))
                    for c in table.distinct(normal, st.wounds)
                )
        return options

    def special_attack(self, engine: Engine, card: str | None, option: Option) -> Flow:
        """Heroic Charge: slay up to N within reach on either side, then risk his life."""
        params = self._effect(card, "heroic_charge")
        assert params is not None and option.verb == "charge"
        marine = option.text("marine")
        st = engine.state
        seat = st.team_seat[engine.marine(marine).team]
        for _ in range(int(params["up_to"])):
            options = self._charge_targets(engine, marine, int(params["reach"]))
            if not options:
                break
            options.append(DONE)
            choice = yield from engine.ask(seat, d.SLAY, options, f"{card}: slay which?")
            if choice.verb == "done":
                break
            row, side, card_id = card_of(engine, choice)
            yield from engine.slay_one(st.formation[row], side, seat, by=marine, among=[card_id])
        roll = engine.roll_plain(f"{marine} survives his Heroic Charge?")
        if roll.face in params["death_faces"]:
            engine.kill_marine(marine, "fell in his Heroic Charge")

    def attack_kills(self, engine: Engine, card: str | None, marine: str, roll: Roll) -> int:
        flamer = self._effect(card, "attack_slays_face_value")
        if flamer is not None and flamer["marine"] == marine:
            return roll.face
        aim = self._effect(card, "attack_face_slays")
        if aim is not None and roll.face in aim["faces"]:
            return int(aim["up_to"])
        return 1 if roll.skull else 0

    def attack_chains(self, engine: Engine, card: str | None, marine: str, roll: Roll) -> bool:
        params = self._effect(card, "skull_chains_attack")
        return params is not None and params["marine"] == marine and roll.skull

    def genestealer_slain(self, engine: Engine, card: int, by: str | None) -> Flow:
        """Lead by Example: a slay by the team's marine may place a token, N times a round."""
        st = engine.state
        if by is None or st.supply <= 0 or not engine.is_alive(by):
            return
        team = engine.marine(by).team
        effect = self._revealed_effect(engine, team)
        if effect is None or effect.name != "slay_grants_support":
            return
        if st.effects.count(LeadUsed(team)) >= int(effect.params["times"]):
            return
        options = [Option("marine", (p.marine.name,)) for p in st.formation]
        options.append(DONE)
        choice = yield from engine.ask(
            st.team_seat[team], d.PLACE_SUPPORT, options, "Lead by Example: place a token?"
        )
        if choice.verb == "marine":
            st.effects.append(LeadUsed(team))
            place_token(engine, choice.text("marine"))

    # -- defence --------------------------------------------------------------------------------

    def defence(
        self, engine: Engine, marine: str, side: int, roll: Roll, verdict: str
    ) -> Generator[Decision, Option, str]:
        """Block, Counter Attack, Defensive Stance, Second Wind, then the Artefact (§14.8:
        after rerolls, and only when the marine would die)."""
        st = engine.state
        team = engine.marine(marine).team
        counter = miss = False
        for t, _, effect in self._resolved_cards(engine):
            params = effect.params
            if effect.name == "defence_face_misses":
                if params["marine"] == marine and roll.face in params["faces"]:
                    counter = counter or bool(params["counter"])
                    miss = True
            elif (
                effect.name == "defensive_reroll"
                and t == team
                and roll.rerolls > 0
                and roll.face not in params["faces"]
            ):
                miss = True
        if st.effects and SecondWind(marine) in st.effects and roll.face == 0:
            miss = True
        if counter:
            engine.note(f"{marine} counter-attacks")
            return COUNTER
        if miss:
            if verdict == SLAIN:
                engine.note(f"the attack on {marine} misses")
            return MISS
        holder = st.artefact
        if verdict == SLAIN and holder is not None and st.team_seat[team] == holder:
            choice = yield from engine.ask(
                holder,
                d.CHOOSE,
                [Option("yes", ("discard the Artefact: the attack misses",)), Option("no")],
                f"{marine} is about to be slain: use the Artefact?",
            )
            if choice.verb == "yes":
                st.artefact = None
                engine.note(f"the Artefact saves {marine}")
                return MISS
        return verdict

    # -- Event ----------------------------------------------------------------------------------

    def event_ability(self, engine: Engine, event: Event) -> Flow:
        return self.event_effects[event.effect.name](engine, event.effect.params)

    def spawn_limit(self, engine: Engine, terrain: str, count: int) -> int:
        """Core Cogitator: a chosen terrain spawns at most N in total this Event phase."""
        st = engine.state
        for i, effect in enumerate(st.effects):
            if isinstance(effect, SpawnLimit) and effect.terrain == terrain:
                allowed = min(count, effect.left)
                st.effects[i] = SpawnLimit(terrain, effect.left - allowed)
                return allowed
        return count

    def end_of_event(self, engine: Engine) -> Flow:
        """Overwatch: before the travel check, each marine of the team may pay to attack."""
        for team, card, effect in list(self._resolved_cards(engine)):
            if effect.name in _END_OF_EVENT and team not in engine.state.eliminated:
                yield from _END_OF_EVENT[effect.name](engine, team, card, effect.params)

    # -- travel and victory ---------------------------------------------------------------------

    def on_entering(self, engine: Engine, location: Location) -> Flow:
        # A spawn limit named a terrain card of the location just left: it ends with it.
        st = engine.state
        st.effects = [e for e in st.effects if not isinstance(e, SpawnLimit)]
        if location.ability != "on_entering" or location.effect is None:
            return
        yield from self.location_effects[location.effect.name](engine, location.effect.params, None)

    def extra_victory(self, engine: Engine, location: Location) -> bool:
        if location.victory is None:
            return False
        return self.victory_effects[location.victory.name](engine, location.victory.params)
