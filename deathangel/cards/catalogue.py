"""The catalogue of effect names a card file may use, with their parameters.

A card names its behaviour (``effect = { name = "attack_face_slays", faces = [4], up_to = 3 }``).
The loader checks every name against this catalogue and every parameter against the entry's
declared kinds, so a modder's typo fails at load with the file, card and field, never mid-game.
Generic entries take parameters so that new cards can reuse them without code; an entry for a
truly unique mechanic takes none. Plugins add entries through the ``deathangel_effects`` hook.

Each entry also says *when* it works (its timing window), which is how the engine knows where to
call it. The behaviour itself lives in the engine's effect implementations.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal, get_args

from attrs import field, frozen

from deathangel.cards.model import ACTION_KINDS, ActionKind, LocationAbility

ParamKind = Literal["int", "str", "bool", "int_list", "marine", "terrain", "colour", "icon", "side"]

ActionTiming = Literal[
    "support_after",  # after the support token is placed
    "move_activate_before",  # before the move step (Enter Formation)
    "move_step",  # changes what the move step allows (Reorganize)
    "activation",  # changes what an activation does (Onward, Brothers!)
    "move_activate_after",  # after the base action
    "attack",  # changes the team's attacks
    "defence",  # changes defence rolls for the rest of the round
    "end_of_event",  # after the move box, before the travel check (Overwatch)
    "attack_after",  # after the base attack action
]
"""The windows an action card's ability may use."""
Timing = Literal[
    ActionTiming,
    "event",  # an event card's ability
    "terrain",  # a terrain card's activation
    LocationAbility,  # a location's ability on arrival, or through its Control Panel
    "victory",  # a final location's extra victory condition
    "enemy_slain",  # an enemy type's rule, when a card of that type is slain
]
"""Every window of the round where an effect may work; each catalogue entry names one."""

ACTION_TIMINGS: Final[frozenset[Timing]] = frozenset(get_args(ActionTiming))
"""Timings an action card's effect may use; every other kind of card allows exactly one."""

TIMINGS: Final[frozenset[Timing]] = frozenset(get_args(Timing))
"""Every timing; an entry naming anything else is refused when it is made, so a typo in a
plugin's declaration can never file an effect in the wrong window."""

ENEMY_TIMINGS: Final[frozenset[Timing]] = frozenset({"enemy_slain"})
"""Timings an enemy type's rule may use."""

TIMING_KINDS: Final[Mapping[ActionTiming, frozenset[ActionKind]]] = {
    "support_after": frozenset({"support"}),
    "move_activate_before": frozenset({"move_activate"}),
    "move_step": frozenset({"move_activate"}),
    "activation": frozenset({"move_activate"}),
    "move_activate_after": frozenset({"move_activate"}),
    "attack": frozenset({"attack"}),
    "attack_after": frozenset({"attack"}),
    "defence": frozenset(ACTION_KINDS),
    "end_of_event": frozenset(ACTION_KINDS),
}
"""Which kinds of action card can carry an effect of each action timing: a window belongs to
one base action (an Attack card's effect cannot work after a support token is placed); the
defence and end-of-Event windows come later in the round, whatever the card did."""

PARAM_KINDS: Final[frozenset[str]] = frozenset(get_args(ParamKind))
"""Every parameter kind the loader can check."""


def _check_timing(instance: Any, attribute: Any, value: object) -> None:
    if value not in TIMINGS:
        raise ValueError(
            f"effect {instance.name!r}: unknown timing {value!r}; timings: "
            + ", ".join(sorted(TIMINGS))
        )


def _check_params(instance: Any, attribute: Any, value: Mapping[str, object]) -> None:
    for key, kind in value.items():
        if kind not in PARAM_KINDS:
            raise ValueError(
                f"effect {instance.name!r}: parameter {key!r} has unknown kind {kind!r}; "
                "kinds: " + ", ".join(sorted(PARAM_KINDS))
            )


@frozen
class EffectSpec:
    """One catalogue entry: a behaviour's name, its parameters and its timing window."""

    name: str
    """Name used by card files."""
    timing: Timing = field(validator=_check_timing)
    """The window in which the engine applies it (checked: one of :data:`TIMINGS`)."""
    params: Mapping[str, ParamKind] = field(validator=_check_params)
    """Required parameters and their kinds; no others are allowed."""
    summary: str
    """One line for modders: what the behaviour does with its parameters."""


def _spec(name: str, timing: Timing, summary: str, **params: ParamKind) -> EffectSpec:
    return EffectSpec(name=name, timing=timing, params=params, summary=summary)


BASE_EFFECTS: tuple[EffectSpec, ...] = (
    # -- action cards --------------------------------------------------------------------
    _spec(
        "defence_face_misses",
        "defence",
        "This round, when MARINE's defence roll shows one of FACES the attack misses; with "
        "COUNTER, one attacker is also slain and the swarm attacks again.",
        marine="marine",
        faces="int_list",
        counter="bool",
    ),
    _spec(
        "defensive_reroll",
        "defence",
        "This round, a team marine's support reroll in defence makes the attack miss unless "
        "the new face is one of FACES.",
        faces="int_list",
    ),
    _spec(
        "spend_support_to_attack",
        "move_activate_after",
        "Each team marine may spend 1 support token to make 1 normal attack.",
    ),
    _spec(
        "overwatch",
        "end_of_event",
        "At the end of this round's Event phase each team marine may spend 1 support token "
        "to make 1 normal attack.",
    ),
    _spec(
        "attack_face_slays",
        "attack",
        "When a team marine's attack roll shows one of FACES, slay up to UP_TO genestealers "
        "of the target swarm.",
        faces="int_list",
        up_to="int",
    ),
    _spec(
        "swap_with_any",
        "move_step",
        "In the move step team marines may swap with any marine, not only a neighbour.",
    ),
    _spec(
        "heroic_charge",
        "attack",
        "Instead of MARINE's attack, slay up to UP_TO genestealers within REACH rows on either "
        "side, then roll: on one of DEATH_FACES he is slain.",
        marine="marine",
        up_to="int",
        reach="int",
        death_faces="int_list",
    ),
    _spec(
        "door_bonus_token",
        "activation",
        "When a team marine activates a Door, add TOKENS more support tokens to it.",
        tokens="int",
    ),
    _spec(
        "multiple_attacks",
        "attack",
        "MARINE attacks up to ATTACKS times, each at any legal target.",
        marine="marine",
        attacks="int",
    ),
    _spec(
        "intimidate",
        "move_activate_after",
        "Roll; shuffle up to that many genestealers engaged with team marines into the "
        "smallest blip pile.",
    ),
    _spec(
        "slay_grants_support",
        "attack",
        "When a team marine slays, place 1 support token on any marine, at most TIMES per round.",
        times="int",
    ),
    _spec(
        "power_field",
        "support_after",
        "Pick a swarm: it can neither attack nor be slain this round; protection spreads on merge.",
    ),
    _spec(
        "discard_blips",
        "move_activate_after",
        "Discard the top card of one blip pile, then optionally spend 1 support token to "
        "discard the top of the other.",
    ),
    _spec(
        "skull_chains_attack",
        "attack",
        "Each time MARINE rolls a skull while attacking he may attack once more.",
        marine="marine",
    ),
    _spec(
        "move_swarm",
        "support_after",
        "Pick a swarm and move it one row up or down and/or to the other side.",
    ),
    _spec(
        "scout_event_deck",
        "move_activate_after",
        "Look at the top Event card; leave it or put it at the bottom.",
    ),
    _spec(
        "attack_slays_face_value",
        "attack",
        "MARINE's attacks slay as many genestealers as the face rolled; skulls mean nothing.",
        marine="marine",
    ),
    # -- events ----------------------------------------------------------------------------
    _spec("surround", "event", "Choose a marine; every genestealer moves to his row, same side."),
    _spec("flank_all", "event", "Every swarm moves behind the marine it is engaged with."),
    _spec(
        "spawn_behind_marine",
        "event",
        "Choose a marine; spawn COUNT genestealers behind him from that side's blip pile.",
        count="int",
    ),
    _spec(
        "reinforce_blips",
        "event",
        "Add COUNT cards from the Genestealer deck to each blip pile.",
        count="int",
    ),
    _spec(
        "roll_or_die",
        "event",
        "Choose a marine and roll: on one of FACES he is slain.",
        faces="int_list",
    ),
    _spec(
        "spawn_before_unengaged",
        "event",
        "Spawn 1 genestealer in front of each marine not engaged with a swarm.",
    ),
    _spec(
        "single_attacker_next_round",
        "event",
        "Next round each Attack card lets only 1 marine of its team attack.",
    ),
    _spec(
        "engaged_lose_support",
        "event",
        "Every marine engaged with a swarm loses all his support tokens.",
    ),
    _spec("flip_all", "event", "Flip every marine's facing."),
    _spec(
        "lose_all_support",
        "event",
        "Choose a marine with support tokens; he loses all of them.",
    ),
    _spec(
        "gather_support",
        "event",
        "Choose a marine; every other marine's support tokens move onto him.",
    ),
    _spec(
        "gun_jam",
        "event",
        "Choose a team that revealed no Attack card; next round it may not choose its Attack card.",
    ),
    _spec(
        "trade_support_for_kill",
        "event",
        "Choose a marine with support if any; discard 1 of his tokens and 1 genestealer "
        "engaged with him.",
    ),
    _spec(
        "spend_support_to_slay",
        "event",
        "Choose a marine; discard any of his support tokens to slay as many engaged genestealers.",
    ),
    _spec(
        "discard_blip_top",
        "event",
        "Choose a blip pile and discard its top COUNT cards.",
        count="int",
    ),
    _spec(
        "roll_to_slay_engaged",
        "event",
        "Choose a marine and roll: on a skull slay COUNT genestealers engaged with him.",
        count="int",
    ),
    _spec(
        "zero_defence_misses_next_round",
        "event",
        "Choose a marine; next round his defence rolls of 0 make the attack miss.",
    ),
    _spec("quick_attack", "event", "Choose a marine; he makes 1 normal attack at once."),
    _spec(
        "door_tokens",
        "event",
        "If a Door is in the formation, place COUNT support tokens on it.",
        count="int",
    ),
    _spec(
        "support_before_move_next_round",
        "event",
        "Next round, before each Move + Activate card, its player may place 1 support token.",
    ),
    _spec(
        "swarm_to_blips",
        "event",
        "Choose a swarm; shuffle its cards into the smallest blip pile.",
    ),
    _spec(
        "rescue_marine",
        "event",
        "Return a slain marine of a surviving team to a new bottom row, facing right.",
    ),
    # -- terrain ---------------------------------------------------------------------------
    _spec("take_artefact", "terrain", "Take this card; discard it later to make a defence miss."),
    _spec("use_control_panel", "terrain", "Resolve the current location's control-panel ability."),
    _spec(
        "door_token",
        "terrain",
        "Place 1 support token on this card; before travelling, the current player may slay 1 "
        "genestealer anywhere per token on it. The effect makes the card a Door, whatever its "
        "name.",
    ),
    _spec(
        "promethium_blast",
        "terrain",
        "Discard this card, slay every genestealer at its row, then roll: on one of FACES the "
        "activating marine is slain.",
        faces="int_list",
    ),
    _spec(
        "seal_chimney",
        "terrain",
        "Roll: on a skull discard this card.",
    ),
    # -- locations -------------------------------------------------------------------------
    _spec(
        "spawn_at_terrain",
        "on_entering",
        "Spawn COUNT genestealers at each TERRAIN card in the formation.",
        terrain="terrain",
        count="int",
    ),
    _spec(
        "replace_terrain",
        "control_panel",
        "Discard the OLD terrain card and put the NEW one in its place.",
        old="terrain",
        new="terrain",
    ),
    _spec("face_all", "on_entering", "Every marine turns to face SIDE.", side="side"),
    _spec(
        "spawn_behind_top_marine",
        "on_entering",
        "Spawn COUNT genestealers behind the top marine.",
        count="int",
    ),
    _spec(
        "blips_per_marine",
        "on_entering",
        "For each marine add COUNT cards from the Genestealer deck to each blip pile.",
        count="int",
    ),
    _spec(
        "support_to_marines",
        "on_entering",
        "The current player places 1 support token on each of COUNT different marines.",
        count="int",
    ),
    _spec(
        "control_discard_blip",
        "control_panel",
        "Discard the top card of a blip pile of your choice.",
    ),
    _spec(
        "place_terrain_anywhere",
        "on_entering",
        "The current player places the TERRAIN card at any row and side.",
        terrain="terrain",
    ),
    _spec(
        "support_and_flip",
        "control_panel",
        "Place 1 support token on any marine; he may then flip.",
    ),
    _spec(
        "spawn_behind_unsupported",
        "on_entering",
        "Choose a marine with no support tokens (else any); spawn COUNT genestealers behind him.",
        count="int",
    ),
    _spec(
        "teleport",
        "control_panel",
        "Each marine discards 1 support token or rolls (dies on a 0); then empty both blip piles.",
    ),
    _spec(
        "spawn_onto_swarm",
        "on_entering",
        "The current player picks a swarm and spawns COUNT genestealers onto it.",
        count="int",
    ),
    _spec(
        "flip_facing_terrain",
        "on_entering",
        "Flip every marine who faces a terrain card at his own row.",
    ),
    _spec(
        "limit_spawn",
        "control_panel",
        "Choose a terrain card; at most MAX genestealers spawn on it in the next Event phase.",
        max="int",
    ),
    _spec(
        "purge_or_die",
        "control_panel",
        "Roll: on a skull slay up to COUNT genestealers anywhere, else the activating marine dies.",
        count="int",
    ),
    _spec(
        "lair",
        "on_entering",
        "Every swarm moves to the red terrain on its side; a Brood Lord spawns on each red "
        "terrain.",
    ),
    _spec(
        "launch_control",
        "control_panel",
        "Put 1 support token on this location, or roll: at most its tokens wins the game.",
    ),
    _spec(
        "pump_toxin",
        "control_panel",
        "Roll and discard that many cards from a blip pile of your choice.",
    ),
    _spec("brood_lords_slain", "victory", "The marines win when every Brood Lord is slain."),
)


class EffectCatalogue:
    """Every effect name known in a game, built once from the base game and plugins."""

    def __init__(self, specs: Iterable[EffectSpec] = BASE_EFFECTS) -> None:
        self._specs: dict[str, EffectSpec] = {}
        for spec in specs:
            self.add(spec)

    def add(self, spec: EffectSpec) -> None:
        """Register one entry; a second entry under the same name is an error."""
        if spec.name in self._specs:
            raise ValueError(f"effect {spec.name!r} is registered twice")
        self._specs[spec.name] = spec

    def get(self, name: str) -> EffectSpec | None:
        """The entry of that name, or ``None``."""
        return self._specs.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Any:
        return iter(self._specs.values())

    def names(self) -> list[str]:
        """All names, sorted: for error hints and docs."""
        return sorted(self._specs)
