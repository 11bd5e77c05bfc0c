"""Card abilities wired into the engine's timing windows, from tables built once per game.

:class:`CardAbilities` answers each window of :class:`deathangel.engine.abilities.Abilities` by
looking at the cards in play — the action cards revealed this round, the Event card drawn, the
current location, the terrain in the formation — and calling the implementation registered
for the effect each card names. Building it checks that every effect named by a card in the
database has an implementation, so a card that would silently do nothing is refused at once.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Container, Generator, Iterator, Mapping
from typing import TYPE_CHECKING, Any, cast

import deathangel.engine.decisions as d
from deathangel.cards.catalogue import ACTION_TIMINGS, ActionTiming, EffectCatalogue, Timing
from deathangel.cards.model import CardDatabase, Effect
from deathangel.engine.abilities import COUNTER, MISS, SLAIN, Abilities, TerrainEffect, is_door
from deathangel.engine.core import EngineFlow
from deathangel.engine.decisions import DONE, Decision, Option, no_questions
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
from deathangel.errors import CardDataError, PluginEffectError, PluginError

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
_GROUP_OF_TIMING: dict[Timing, str] = {
    "event": "events",
    "on_entering": "locations",
    "control_panel": "locations",
    "terrain": "terrain",
    "victory": "victories",
    "enemy_slain": "enemies",
}

CALLS: dict[Timing, tuple[str, ...]] = {
    "support_after": ("engine", "team", "card", "params"),
    "move_activate_before": ("engine", "team", "card", "params"),
    "move_step": ("engine", "team", "card", "params", "swapped"),
    "activation": ("engine", "team", "card", "params", "marine", "terrain"),
    "move_activate_after": ("engine", "team", "card", "params"),
    "attack": ("engine", "team", "card", "params", "marine", "roll"),
    "defence": ("engine", "team", "card", "params", "marine", "side", "roll", "verdict"),
    "end_of_event": ("engine", "team", "card", "params"),
    "attack_after": ("engine", "team", "card", "params"),
    "event": ("engine", "params"),
    "terrain": ("engine", "marine", "terrain"),
    "on_entering": ("engine", "params", "marine"),
    "control_panel": ("engine", "params", "marine"),
    "victory": ("engine", "params"),
    "enemy_slain": ("engine", "card", "by", "params"),
}
"""How the engine calls an effect's implementation, by the timing its catalogue entry
declares: the positional arguments, in order (see the ``deathangel_effect_implementations``
hook for what each returns). A plugin's implementation must accept exactly these."""

ActionStep = tuple[ActionTiming, Callable[..., Any], Mapping[str, Any]]
"""An action card's own step: its window, its implementation and the card's parameters."""


def check_call(name: str, timing: Timing, impl: Callable[..., Any]) -> str | None:
    """What is wrong with ``impl`` as the implementation of an effect of ``timing``, or
    ``None``: the engine will call it with :data:`CALLS` ``[timing]``."""
    if timing not in CALLS:
        return f"effect {name!r} declares timing {timing!r}, which no window has"
    args = CALLS[timing]
    try:
        signature = inspect.signature(impl)
    except (TypeError, ValueError):  # a builtin without a signature: trust it
        return None
    try:
        signature.bind(*args)
    except TypeError:
        return (
            f"effect {name!r} works at {timing!r}, so it is called as "
            f"({', '.join(args)}); its implementation takes {signature}"
        )
    return None


def _card_in_call(timing: Timing, args: tuple[Any, ...]) -> str:
    """Which card's effect a call of this timing is (for a message): the action card, terrain
    or enemy card it names, or the Event card or location in play."""
    engine = args[0]
    st, table = engine.state, engine.table
    if timing in ACTION_TIMINGS:
        return f"action card {args[2]!r}"
    if timing == "terrain":
        return f"terrain {args[2]!r}"
    if timing == "enemy_slain":
        return f"enemy {table.gs_labels[args[1]]!r}"
    if timing == "event" and st.event is not None:
        return f"event {table.events[st.event].name!r}"
    if st.location is not None:
        return f"location {table.locations[st.location].name!r}"
    return "a card"


def guarded(impl: Callable[..., Any], effect: str, timing: Timing, plugin: str) -> Any:
    """``impl``, a plugin's implementation of ``effect``, as the engine calls it: an exception
    it raises — when called, or later while the flow it returns runs — becomes a
    :class:`~deathangel.errors.PluginEffectError` naming ``plugin``, the card and the effect,
    with the exception as its cause. The engine's own signals pass through untouched
    (:class:`~deathangel.engine.core.EngineFlow`). Only plugins' implementations are wrapped,
    at load time: the base game's effects pay nothing, a plugin's one call and one generator
    frame (``try`` itself costs nothing until something is raised)."""

    def blame(exc: Exception, args: tuple[Any, ...]) -> PluginEffectError:
        try:
            card = _card_in_call(timing, args)
            st = args[0].state
            where = f"round {st.round}, phase {st.phase.replace('_', ' ')}"
        except Exception:  # a message must never hide the error it reports
            card, where = "a card", "during play"
        text = str(exc).splitlines()[0] if str(exc) else ""
        error = type(exc).__name__ + (f": {text}" if text else "")
        return PluginEffectError(plugin, effect, card, where, error)

    def flow(gen: Generator[Any, Any, Any], args: tuple[Any, ...]) -> Generator[Any, Any, Any]:
        try:
            return (yield from gen)
        except (EngineFlow, PluginEffectError):
            raise
        except Exception as exc:
            raise blame(exc, args) from exc

    @functools.wraps(impl)
    def call(*args: Any) -> Any:
        try:
            result = impl(*args)
        except (EngineFlow, PluginEffectError):
            raise
        except Exception as exc:
            raise blame(exc, args) from exc
        if isinstance(result, Generator):
            return flow(result, args)
        return result

    return call


class CardAbilities(Abilities["Engine"]):
    """Every card's ability, for the cards of one database.

    ``strict`` (the default) refuses a database with an effect that has no implementation;
    tests of one kind of card may turn it off while other kinds are still being built.

    Action cards whose ability is a step of its own (rather than a change to the engine's
    questions) are filed by the window their catalogue entry declares
    (:data:`actions.ACTION_EFFECTS` for the base game, ``action_steps`` for plugins), and each
    window runs only the effects declared for it.
    """

    def __init__(
        self,
        db: CardDatabase,
        *,
        action_steps: Mapping[ActionTiming, Mapping[str, Callable[..., Any]]] | None = None,
        extra_events: Mapping[str, events.EventEffect] | None = None,
        extra_locations: Mapping[str, locations.LocationEffect] | None = None,
        extra_terrain: Mapping[str, TerrainEffect] | None = None,
        extra_victories: Mapping[str, locations.VictoryEffect] | None = None,
        enemy_rules: Mapping[str, Callable[..., Any]] | None = None,
        strict: bool = True,
    ) -> None:
        super().__init__()
        self.terrain_effects.update(locations.TERRAIN_EFFECTS)
        self.terrain_effects.update(extra_terrain or {})
        steps: dict[ActionTiming, dict[str, Callable[..., Any]]] = {
            timing: dict(group) for timing, group in actions.ACTION_EFFECTS.items()
        }
        for timing, group in (action_steps or {}).items():
            steps.setdefault(timing, {}).update(group)
        self.action_effects: dict[str, Callable[..., Any]] = {
            name: impl for group in steps.values() for name, impl in group.items()
        }
        """Every action-card effect that is a step of its own, whatever its window."""
        timing_of = {name: timing for timing, group in steps.items() for name in group}
        self.event_effects = {**events.EVENT_EFFECTS, **(extra_events or {})}
        self.location_effects = {**locations.LOCATION_EFFECTS, **(extra_locations or {})}
        self.victory_effects = {**locations.VICTORY_EFFECTS, **(extra_victories or {})}
        self.enemy_rules: dict[str, Callable[..., Any]] = dict(enemy_rules or {})
        """Enemy types' rules by effect name (empty in the base game: no enemy types)."""
        self.effect_of: dict[str, Effect | None] = {
            a.name: a.effect for t in db.teams for a in t.actions
        }
        self.card_steps: dict[str, ActionStep] = {}
        """Action card name -> its step, for cards whose effect is a step of its own."""
        for name, effect in self.effect_of.items():
            if effect is not None and effect.name in timing_of:
                timing = timing_of[effect.name]
                self.card_steps[name] = (timing, steps[timing][effect.name], effect.params)
        # Windows the base game answers by effect name take a plugin's step only when a card
        # has one: these stay empty (and cost one test) in the base game.
        self._step_cards: dict[ActionTiming, frozenset[str]] = {
            timing: frozenset(c for c, step in self.card_steps.items() if step[0] == timing)
            for timing in ("move_step", "activation", "attack", "defence", "end_of_event")
        }
        if strict:
            self._check(db)
        self.freeze()

    @classmethod
    def with_implementations(
        cls,
        db: CardDatabase,
        catalogue: EffectCatalogue,
        implementations: Mapping[str, Callable[..., Any]],
        owners: Mapping[str, str] | None = None,
    ) -> CardAbilities:
        """Abilities with plugins' implementations, each filed under its catalogue timing
        (the window where the engine calls it) and checked to take that window's arguments.

        ``owners`` names the plugin of each implementation, as messages name it
        (``'hive' (deathangel-hive 1.0)``); an owned implementation is :func:`guarded`, so an
        exception it raises during a game names the plugin, the card and the effect.

        :raises PluginError: naming the plugin, for an implementation of a name the catalogue
            does not declare, of a name the base game already implements, of a timing no
            window has, or that does not take its window's arguments.
        """
        owners = owners or {}
        steps: dict[ActionTiming, dict[str, Callable[..., Any]]] = {}
        groups: dict[str, dict[str, Any]] = {
            "events": {},
            "locations": {},
            "terrain": {},
            "victories": {},
            "enemies": {},
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
            who = f"plugin {owners[name]}: " if name in owners else ""
            spec = catalogue.get(name)
            if spec is None:
                raise PluginError(f"{who}implementation of {name!r}: no card effect of that name")
            if name in taken:
                raise PluginError(f"{who}implementation of {name!r}: the effect already has one")
            problem = check_call(name, spec.timing, impl)
            if problem is not None:
                raise PluginError(f"{who}{problem}")
            if name in owners:
                impl = guarded(impl, name, spec.timing, owners[name])
            if spec.timing in ACTION_TIMINGS:
                steps.setdefault(cast(ActionTiming, spec.timing), {})[name] = impl
            else:
                groups[_GROUP_OF_TIMING[spec.timing]][name] = impl
        return cls(
            db,
            action_steps=steps,
            extra_events=groups["events"],
            extra_locations=groups["locations"],
            extra_terrain=groups["terrain"],
            extra_victories=groups["victories"],
            enemy_rules=groups["enemies"],
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
            *(("enemy", e.name, e.rule, self.enemy_rules) for e in db.enemies),
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
        step = self.card_steps.get(card)  # inline, not _step: one call fewer per card
        if step is not None and step[0] == "support_after":
            flow: Flow = step[1](engine, team, card, step[2])
            return flow
        return no_questions()

    def before_move_activate(self, engine: Engine, team: str, card: str) -> Flow:
        """Enter Formation: before each Move + Activate card, one token on any marine; then
        the card's own step before moving, if it has one."""
        step = self.card_steps.get(card)
        if step is None or step[0] != "move_activate_before":
            return self._enter_formation(engine, team, card)
        return self._enter_formation_then(engine, team, card, step)

    def _enter_formation_then(self, engine: Engine, team: str, card: str, step: ActionStep) -> Flow:
        yield from self._enter_formation(engine, team, card)
        yield from step[1](engine, team, card, step[2])

    def _enter_formation(self, engine: Engine, team: str, card: str) -> Flow:
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
        """Reorganize: swaps with any marine of the formation, not only a neighbour; a
        plugin's move-step effect gives its own list (``None``: the rules' own)."""
        if card in self._step_cards["move_step"]:
            _, impl, params = self.card_steps[card]
            own: list[Option] | None = impl(engine, team, card, params, swapped)
            if own is not None:
                return own
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
        if card in self._step_cards["activation"]:
            _, impl, step_params = self.card_steps[card]
            yield from impl(engine, team, card, step_params, marine, terrain)
        params = self._effect(card, "door_bonus_token")
        if params is None or not is_door(engine.table, terrain):
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
        step = self.card_steps.get(card)  # inline, not _step: one call fewer per card
        if step is not None and step[0] == "move_activate_after":
            flow: Flow = step[1](engine, team, card, step[2])
            return flow
        return no_questions()

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
        faces = params["death_faces"]
        roll = engine.roll_plain(
            f"{marine} survives his Heroic Charge?",
            lambda r: "he is slain" if r.face in faces else "he survives",
        )
        if roll.face in params["death_faces"]:
            engine.kill_marine(marine, "fell in his Heroic Charge")

    def attack_kills(self, engine: Engine, card: str | None, marine: str, roll: Roll) -> int:
        if card in self._step_cards["attack"]:
            _, impl, params = self.card_steps[card]
            kills: int | None = impl(
                engine, engine.table.actions[card][0], card, params, marine, roll
            )
            if kills is not None:
                return kills
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

    def after_attack(self, engine: Engine, team: str, card: str) -> Flow:
        step = self.card_steps.get(card)  # inline, not _step: one call fewer per card
        if step is not None and step[0] == "attack_after":
            flow: Flow = step[1](engine, team, card, step[2])
            return flow
        return no_questions()

    def genestealer_slain(self, engine: Engine, card: int, by: str | None) -> Flow:
        """An enemy type's own rule, then Lead by Example: a slay by the team's marine may
        place a token, N times a round."""
        if self.enemy_rules:
            enemy = engine.table.enemy_of[card]
            if enemy is not None and enemy.rule is not None:
                rule = self.enemy_rules.get(enemy.rule.name)
                if rule is not None:
                    yield from rule(engine, card, by, enemy.rule.params)
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
        why = ""
        for t, card, effect in self._resolved_cards(engine):
            params = effect.params
            if effect.name == "defence_face_misses":
                if params["marine"] == marine and roll.face in params["faces"]:
                    counter = counter or bool(params["counter"])
                    miss = True
                    why = f"{card} (a {roll.face})"
            elif (
                effect.name == "defensive_reroll"
                and t == team
                and roll.rerolls > 0
                and roll.face not in params["faces"]
            ):
                miss = True
                why = f"{card} (a reroll that shows {roll.face})"
        if st.effects and SecondWind(marine) in st.effects and roll.face == 0:
            miss = True
            why = "Second Wind (a 0)"
        if counter:
            engine.note(f"but {why}: the attack on {marine} misses and he strikes back")
            verdict = COUNTER
        elif miss:
            if verdict == SLAIN:
                engine.note(f"but {why}: the attack on {marine} misses")
            verdict = MISS
        if self._step_cards["defence"]:
            # Plugins' defence effects of resolved cards, after the base game's.
            for t, card, _ in list(self._resolved_cards(engine)):
                if card in self._step_cards["defence"]:
                    _, impl, params = self.card_steps[card]
                    verdict = yield from impl(engine, t, card, params, marine, side, roll, verdict)
        if verdict != SLAIN:
            return verdict
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
        """Overwatch and every end-of-Event step of this round's resolved cards, before the
        travel check (their teams still in play)."""
        cards = self._step_cards["end_of_event"]
        if not cards:
            return
        for team, card, _ in list(self._resolved_cards(engine)):
            if card in cards and team not in engine.state.eliminated:
                _, impl, params = self.card_steps[card]
                yield from impl(engine, team, card, params)

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
