"""The names rule files may read: every value and function, with its type, the Python snippet
that reads it (over the situation ``c`` and the option's subject ``o`` of
:mod:`deathangel.players.rules.features`) and its help, which ``docs/strategies.md`` lists (a test
keeps the two in step).

Only these snippets, the operators of :mod:`deathangel.players.rules.expr` and ``repr``-quoted
literals ever make up the code a rule set compiles.
"""

from __future__ import annotations

from deathangel.players.rules.expr import BOOL, LIST, NUMBER, TEXT, Function, Variable

VOCABULARY: dict[str, Variable | Function] = {}
SECTIONS: list[tuple[str, list[str]]] = []
"""Headings and the names under each, in the order docs/strategies.md lists them."""


def _section(title: str) -> None:
    SECTIONS.append((title, []))


def _v(name: str, type_: str, code: str, help_: str) -> None:
    VOCABULARY[name] = Variable(type_, code, help_)
    SECTIONS[-1][1].append(name)


def _f(name: str, args: tuple[str, ...], type_: str, code: str, help_: str) -> None:
    VOCABULARY[name] = Function(args, type_, code, help_)
    SECTIONS[-1][1].append(name)


_section("The decision")
_v("kind", TEXT, "c.kind", "the decision kind (`attack`, `place_support`...)")
_v("prompt", TEXT, "c.prompt", "the question as the engine words it")
_v(
    "source",
    TEXT,
    "c.source",
    "the card asking: named in the prompt, else the Event being "
    "resolved, else the action card resolving (`Power Field`, `Out of Thin Air`...)",
)
_v("resolving", TEXT, "c.resolving", 'the action card resolving now ("" outside Resolve Actions)')
_v("resolving_kind", TEXT, "c.resolving_kind", "its kind: `support`, `move_activate`, `attack`")
_v("options", NUMBER, "len(c.decision.options)", "how many options the decision has")

_section("The game")
_v("round", NUMBER, "c.st.round", "the round number (1 is the first)")
_v(
    "phase",
    TEXT,
    "c.st.phase",
    "`choose_actions`, `resolve_actions`, `genestealer_attack`, `event` (or `setup`)",
)
_v("players", NUMBER, "len(c.st.seats)", "seats in the game")
_v("location", TEXT, "c.location", "the current location's name")
_v("final", BOOL, "c.final", "whether the current location is a final one")
_v("locations_left", NUMBER, "c.counts.location_deck", "cards left in the location deck")
_v("blips_left", NUMBER, "c.counts.blips_left", "cards in the left blip pile")
_v("blips_right", NUMBER, "c.counts.blips_right", "cards in the right blip pile")
_v("blips", NUMBER, "(c.counts.blips_left + c.counts.blips_right)", "cards in both blip piles")
_v(
    "blips_min",
    NUMBER,
    "min(c.counts.blips_left, c.counts.blips_right)",
    "cards in the smaller blip pile (the marines travel when it is empty)",
)
_v("genestealer_deck", NUMBER, "c.counts.genestealer_deck", "cards in the Genestealer deck")
_v("event_deck", NUMBER, "c.counts.event_deck", "cards in the Event deck")
_v("supply", NUMBER, "c.st.supply", "support tokens in the supply")
_v("door_tokens", NUMBER, "c.door_tokens", "support tokens on Door terrain")
_v("location_tokens", NUMBER, "c.st.location_tokens", "support tokens on the location card")
_v("marines", NUMBER, "c.n", "marines alive")
_v("slain", NUMBER, "len(c.st.slain)", "marines slain so far")
_v("supported", NUMBER, "(c.n - c.tokens.count(0) + 1)", "marines with at least one support token")
_v("genestealers", NUMBER, "c.st.genestealers_in_formation()", "genestealers in the formation")
_v("event", TEXT, "c.event", 'the Event card being resolved ("" if none or not yet shown)')
_v("scouted", TEXT, "c.scouted", 'the top Event card if this seat has looked at it ("" if not)')
_v("artefact", BOOL, "c.artefact", "whether this seat holds the Artefact")
_v(
    "chosen_support",
    NUMBER,
    "c.chosen_kinds['support']",
    "this seat's teams that chose a Support card this round so far",
)
_v(
    "chosen_move",
    NUMBER,
    "c.chosen_kinds['move_activate']",
    "this seat's teams that chose a Move + Activate card this round so far",
)
_v(
    "chosen_attack",
    NUMBER,
    "c.chosen_kinds['attack']",
    "this seat's teams that chose an Attack card this round so far",
)
_v(
    "total_death",
    NUMBER,
    "c.total_death",
    "the expected number of marines the swarms now in place slay this round",
)
_v(
    "next_spawns",
    NUMBER,
    "c.next_spawns",
    "genestealers expected to spawn in the whole formation at the next Event (knowing the "
    "top card if this seat has looked at it)",
)
_v("mean_spawns", NUMBER, "c.mean_spawns", "the same for an unseen card")
_v(
    "best_token_gain",
    NUMBER,
    "c.best_token_gain",
    "the most one more support token lowers any marine's `death`",
)
_v(
    "max_threat",
    NUMBER,
    "c.max_threat",
    "the most that stopping one swarm's attack lowers its marine's `death` (Power Field)",
)

_section("The option")
_v(
    "verb",
    TEXT,
    "o.verb",
    "the option's verb: `card`, `marine`, `swap`, `flip`, `activate`, "
    "`attack`, `charge`, `reroll`, `keep`, `slay`, `slay_at`, `take`, `target`, `place`, "
    "`terrain`, `pile`, `team`, `count`, `yes`, `no`, `top`, `bottom`, `done`",
)
_v("text", TEXT, "o.text", "what a `yes` or `no` option says (`roll`, `look`...)")
_v("number", NUMBER, "o.number", "the number of a `count` option")

_section("The marine an option is about (who acts, receives, swaps, flips or rolls)")
_v("marine", TEXT, "o.name", "his name")
_v("team", TEXT, "o.team", "his team (for a `card` option the card's team; for `team` that team)")
_v("mine", BOOL, "c.mine[o.m]", "whether this seat controls him")
_v("position", NUMBER, "(o.m + 1)", "his position (1 is the top; 0 if the option has no marine)")
_v("range", NUMBER, "c.ranges[o.m]", "his range")
_v("tokens", NUMBER, "c.tokens[o.m]", "support tokens on him")
_v("facing", TEXT, "c.facing[o.m]", "`left` or `right`")
_v("front", NUMBER, "c.front[o.m]", "genestealers in the swarm in front of him")
_v("behind", NUMBER, "c.behind[o.m]", "genestealers in the swarm behind him")
_v("front_lords", NUMBER, "c.front_lords[o.m]", "Brood Lords in front of him")
_v("behind_lords", NUMBER, "c.behind_lords[o.m]", "Brood Lords behind him")
_v("engaged", NUMBER, "c.engaged[o.m]", "genestealers engaged with him (front + behind)")
_v("in_range", NUMBER, "c.in_range[o.m]", "genestealers he could attack now (in front, in range)")
_v("targets", NUMBER, "c.targets[o.m]", "swarms he could attack now")
_v("max_target", NUMBER, "c.max_target[o.m]", "the biggest swarm he could attack now")
_v(
    "behind_in_range",
    NUMBER,
    "c.behind_in_range[o.m]",
    "genestealers he could attack if he turned round",
)
_v("front_terrain", LIST, "c.front_terrain[o.m]", "terrain cards in front of him")
_v("behind_terrain", LIST, "c.behind_terrain[o.m]", "terrain cards behind him")
_v("front_colors", LIST, "c.front_colors[o.m]", "spawn colours of the terrain in front of him")
_v("behind_colors", LIST, "c.behind_colors[o.m]", "spawn colours of the terrain behind him")
_v(
    "front_spawn",
    NUMBER,
    "c.front_spawn[o.m]",
    "genestealers expected to spawn in front of him in the next Event (from the Event cards "
    "that may come next and the terrain there)",
)
_v("behind_spawn", NUMBER, "c.behind_spawn[o.m]", "the same, behind him")
_v(
    "activatable",
    NUMBER,
    "c.activatable[o.m]",
    "terrain cards in front of him he could activate now",
)
_v(
    "death",
    NUMBER,
    "c.death[o.m]",
    "his chance of being slain by the swarms now beside him, in the coming Genestealer Attack "
    "(rerolls with his tokens in front, defence abilities in force, Power Fields)",
)
_v("token_gain", NUMBER, "c.token_gain[o.m]", "how much one more support token lowers `death`")
_v("flip_gain", NUMBER, "c.flip_gain[o.m]", "how much turning round lowers `death`")
_v(
    "swap_gain",
    NUMBER,
    "c.swap_gain(o)",
    "for a `swap`: how much it lowers the two marines' summed `death`",
)
_v("other", TEXT, "c.names[o.other]", "for a `swap`: the other marine")
_v("new_position", NUMBER, "(o.other + 1)", "for a `swap`: his position after it")

_section("The team an option is about (the card's team, or the marine's)")
_v("team_marines", NUMBER, "c.team_marines.get(o.team, 0)", "its marines alive")
_v("team_front", NUMBER, "c.team_front.get(o.team, 0)", "genestealers in front of its marines")
_v("team_behind", NUMBER, "c.team_behind.get(o.team, 0)", "genestealers behind its marines")
_v(
    "team_in_range",
    NUMBER,
    "c.team_in_range.get(o.team, 0)",
    "genestealers its marines could attack now (summed per marine)",
)
_v("team_targets", NUMBER, "c.team_targets.get(o.team, 0)", "its marines with a target now")
_v("team_tokens", NUMBER, "c.team_tokens.get(o.team, 0)", "support tokens on its marines")
_v("team_death", NUMBER, "c.team_death.get(o.team, 0)", "its marines' summed `death`")
_v(
    "team_flip_gain",
    NUMBER,
    "c.team_flip_gain.get(o.team, 0)",
    "summed `flip_gain` of its marines who would gain by turning",
)
_v(
    "team_activatable",
    NUMBER,
    "c.team_activatable.get(o.team, 0)",
    "terrain cards its marines could activate now",
)
_v(
    "team_turn_gain",
    NUMBER,
    "c.team_turn_gain.get(o.team, 0)",
    "genestealers its marines would have in front instead of behind by turning round "
    "(summed over those who would gain)",
)
_v(
    "team_turn_targets",
    NUMBER,
    "c.team_turn_targets.get(o.team, 0)",
    "genestealers in range its marines would gain as targets by turning round (summed over "
    "those who would gain)",
)
_v("team_doors", NUMBER, "c.team_doors.get(o.team, 0)", "its marines facing a Door")
_v("last_card", TEXT, "c.f_last(o.team)", "the card it resolved last round")

_section("The action card of a `card` option")
_v(
    "card_kills",
    NUMBER,
    "(c.card_values(o.card)[0] if o.card else 0)",
    "genestealers it is expected to remove this round with the swarms now in place: the "
    "team's attacks with the card's ability (Dead Aim, Full Auto, Flamer Attack, Psionic "
    "Attack, Heroic Charge; one marine under Evasion), Counter Attack, Overwatch and Run and "
    "Gun shots, Intimidation",
)
_v(
    "card_saves",
    NUMBER,
    "(c.card_values(o.card)[1] if o.card else 0)",
    "marines its defensive ability is expected to save in the coming Genestealer Attack "
    "(Block, Counter Attack, Defensive Stance, Power Field on the worst swarm, Strategize's "
    "best move)",
)
_v(
    "card_blips",
    NUMBER,
    "(c.card_values(o.card)[2] if o.card else 0)",
    "blip cards it discards (Stealth Tactics)",
)
_v("card", TEXT, "o.card", "its name")
_v(
    "card_kind",
    TEXT,
    "(c.table.actions[o.card][1].kind if o.card else '')",
    "`support`, `move_activate` or `attack`",
)
_v(
    "initiative",
    NUMBER,
    "(c.table.actions[o.card][1].initiative if o.card else 0)",
    "its initiative (lower resolves first)",
)

_section(
    "The swarm or place an option targets (`attack`, `target`, `place`, `slay_at`, "
    "`take`, `terrain`, `activate`)"
)
_v("target_position", NUMBER, "(o.t + 1)", "its position (0 if the option targets none)")
_v("target_side", TEXT, "('left', 'right', '')[o.ts] if o.t >= 0 else ''", "its side")
_v("target_size", NUMBER, "c.sizes[o.ts][o.t]", "genestealers in the swarm there")
_v("target_lords", NUMBER, "c.lords[o.ts][o.t]", "Brood Lords in the swarm there")
_v("target_marine", TEXT, "c.names[o.t]", "the marine at that position")
_v(
    "target_front",
    BOOL,
    "(o.t >= 0 and c.facing[o.t] == ('left', 'right', '')[o.ts])",
    "whether that side is in front of the marine there",
)
_v(
    "target_threat",
    NUMBER,
    "c.target_threat(o)",
    "the chance that swarm slays the marine there in the coming Genestealer Attack",
)
_v(
    "kill_gain",
    NUMBER,
    "c.kill_gain(o)",
    "how much slaying one genestealer of that swarm lowers the marine's `death`",
)
_v(
    "move_gain",
    NUMBER,
    "c.move_gain(o)",
    "for a place Strategize offers: how much moving the swarm there lowers the summed `death` "
    "of the marines at both positions",
)
_v(
    "target_flank",
    NUMBER,
    "c.swarm_flank(o)",
    "the chance the next Event's move box flanks the swarm there (behind its marine)",
)
_v(
    "target_terrain",
    LIST,
    "c.f_terrain(o.t + 1, ('left', 'right', '')[o.ts])",
    "terrain cards at that position and side",
)
_v("target_colors", LIST, "c.f_colors(o.t + 1, ('left', 'right', '')[o.ts])", "their spawn colours")
_v(
    "target_spawn",
    NUMBER,
    "c.spawn_at(c.f_terrain(o.t + 1, ('left', 'right', '')[o.ts]))",
    "genestealers expected to spawn there in the next Event",
)

_section("Other things an option names")
_v("terrain", TEXT, "o.terrain", "the terrain card (`activate`, `terrain`)")
_v(
    "terrain_color",
    TEXT,
    "(c.table.terrain[o.terrain].color if o.terrain else '')",
    "its spawn colour",
)
_v("pile", TEXT, "o.pile", "the blip pile (`left` or `right`) of a `pile` option")
_v(
    "pile_size",
    NUMBER,
    "(c.counts.blips_left if o.pile == 'left' else c.counts.blips_right "
    "if o.pile == 'right' else 0)",
    "cards in that pile",
)
_v(
    "other_pile_size",
    NUMBER,
    "(c.counts.blips_right if o.pile == 'left' else "
    "c.counts.blips_left if o.pile == 'right' else 0)",
    "cards in the other pile",
)
_v(
    "pile_spawn",
    NUMBER,
    "c.side_spawns[_SIDE_INDEX.get(o.pile, 2)]",
    "genestealers that pile is expected to send into the formation at the next Event",
)
_v(
    "genestealer",
    TEXT,
    "o.gs",
    "the genestealer of a `slay`, `slay_at` or `take` option (`claw-1`, `Brood Lord A`...)",
)
_v(
    "lord",
    BOOL,
    "(o.gs in c.table.gs_by_label and c.table.is_brood_lord(c.table.gs_by_label[o.gs]))",
    "whether it is a Brood Lord",
)
_v(
    "icons",
    LIST,
    "(c.table.gs_icons[c.table.gs_by_label[o.gs]] if o.gs in c.table.gs_by_label else frozenset())",
    "its movement icons (`claw`, `tongue`, `tail`, `head`)",
)

_v(
    "flank_chance",
    NUMBER,
    "c.move_chance(o.gs, 'flank')",
    "the chance the next Event's move box flanks it (a swarm in front of a marine goes "
    "behind him), from the Event cards it may be",
)
_v(
    "adjacent_chance",
    NUMBER,
    "c.move_chance(o.gs, 'adjacent')",
    "the chance the next Event's move box moves it to the next position",
)

_section("The roll of a `reroll` decision")
_v("roll", NUMBER, "c.roll_info[2]", "the face rolled (0–5)")
_v("rolling", TEXT, "c.roll_info[1]", "`attack` or `defence`")
_v(
    "roll_loses",
    BOOL,
    "c.roll_loses",
    "a defence that slays the marine (after the defence abilities in force), or an attack that "
    "slays nothing",
)
_v("roll_kills", NUMBER, "c.roll_kills", "genestealers this attack roll slays")
_v("attackers", NUMBER, "c.roll_info[4]", "genestealers in the attacking swarm (defence)")

_section("Functions")
_f(
    "swarm",
    (NUMBER, TEXT),
    NUMBER,
    "c.f_swarm({0}, {1})",
    "`swarm(position, side)`: genestealers at that position and side (`'left'`/`'right'`)",
)
_f(
    "terrain_at",
    (NUMBER, TEXT),
    LIST,
    "c.f_terrain({0}, {1})",
    "`terrain_at(position, side)`: the terrain cards there",
)
_f(
    "colors_at",
    (NUMBER, TEXT),
    LIST,
    "c.f_colors({0}, {1})",
    "`colors_at(position, side)`: their spawn colours",
)
_f("alive", (TEXT,), BOOL, "({0} in c.row_of)", "`alive(name)`: whether that marine is alive")
_f(
    "position_of",
    (TEXT,),
    NUMBER,
    "(c.f_row({0}) + 1)",
    "`position_of(name)`: his position (0 if slain)",
)
_f("tokens_of", (TEXT,), NUMBER, "c.tokens[c.f_row({0})]", "`tokens_of(name)`: his tokens")
_f("front_of", (TEXT,), NUMBER, "c.front[c.f_row({0})]", "`front_of(name)`: his `front`")
_f("behind_of", (TEXT,), NUMBER, "c.behind[c.f_row({0})]", "`behind_of(name)`: his `behind`")
_f(
    "in_range_of",
    (TEXT,),
    NUMBER,
    "c.in_range[c.f_row({0})]",
    "`in_range_of(name)`: his `in_range`",
)
_f("death_of", (TEXT,), NUMBER, "c.death[c.f_row({0})]", "`death_of(name)`: his `death`")
_f(
    "activated",
    (TEXT,),
    BOOL,
    "({0} in c.st.activated)",
    "`activated(terrain)`: whether a terrain card of that name was activated this round",
)
_f(
    "distance",
    (TEXT,),
    NUMBER,
    "c.f_distance_from(o.m + 1, {0})",
    "`distance(terrain)`: rows between the option's marine and the nearest terrain card of "
    "that name (99 if there is none or no marine)",
)
_f(
    "distance_from",
    (NUMBER, TEXT),
    NUMBER,
    "c.f_distance_from({0}, {1})",
    "`distance_from(position, terrain)`: the same from a position",
)
_f(
    "team_distance",
    (TEXT,),
    NUMBER,
    "c.f_team_distance(o.team, {0})",
    "`team_distance(terrain)`: the least `distance` over the option's team's marines",
)
_f(
    "near",
    (TEXT, NUMBER),
    NUMBER,
    "c.f_near({0}, {1})",
    "`near(name, rows)`: genestealers within that many rows of him, both sides",
)
_f(
    "chance",
    (NUMBER,),
    NUMBER,
    "c.f_chance(int({0}))",
    "`chance(size)`: the chance a swarm of that size slays a marine with one roll (under the "
    "game's rules: a variant's defence margin counts)",
)
_f("min", (NUMBER, NUMBER, "..."), NUMBER, "min({*})", "the smallest of its arguments")
_f("max", (NUMBER, NUMBER, "..."), NUMBER, "max({*})", "the largest of its arguments")
_f("abs", (NUMBER,), NUMBER, "abs({0})", "the absolute value")
