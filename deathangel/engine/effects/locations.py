"""Location abilities (on entering, or through a Control Panel), final-location victory
conditions, and the terrain activations beyond the base rules (Artefact, Control Panel).

A location effect takes ``(engine, params, marine)``: ``marine`` is the one who activated the
Control Panel, or ``None`` on entering. A victory effect takes ``(engine, params)`` and says
whether the condition is met.

Who decides: an on-entering ability is the current player's (travel is not any one player's
action, RULES §10); a Control Panel ability is decided by the player who controls the
activating marine (RULES §6.2), except where a card asks something of each marine
(Teleportarium), which that marine's own controller answers. Every helper asks through
:meth:`Engine.ask`, so a question with one legal answer is never put.

Rulings where docs/rules.md is silent (each also told in the docstring that applies it):

* Hibernation Cluster fills the blip piles the way every fill does: the left pile takes its
  cards first, then the right one, and a short deck splits them as equally as possible
  (RULES §3 step 7, §12).
* Munitorium with fewer marines than tokens: each marine gets one, never two (§14.11).
* Wrath of Baal Chapel: the Artefact is placed unless a player holds it in his hand; if it is
  already beside the formation it moves. Terrain cards are reused at every travel (§10 step
  2), so a used Artefact is just a terrain card again. It never exists twice.
* Maintenance Tunnels: a NEW card already beside the formation moves into the OLD one's place.
* Genestealer Lair with several red terrain cards on one side: the current player picks the
  one that side's swarms gather at, and that side's Brood Lord spawns there (one per side).
* Apothecarion with an empty supply: the marine is still chosen and may still turn (§1).
* Genetorium slays are the machine's, not the activating marine's (no "slain by" trigger).
* Launch Control Room: placing a token is offered only while the supply has one; with no
  token on the card a rolled 0 still wins (face ≤ tokens, §14.1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import deathangel.engine.decisions as d
from deathangel.engine.abilities import TerrainEffect, _terrain_at
from deathangel.engine.decisions import DONE, Option, no_questions
from deathangel.engine.effects.common import (
    marine_options,
    place_token,
    return_tokens,
    spawn_behind,
    swarm_options,
    target_of,
)
from deathangel.engine.lasting import SpawnLimit
from deathangel.engine.state import LEFT, RIGHT, SIDES, TerrainState

if TYPE_CHECKING:
    from deathangel.engine.decisions import Flow
    from deathangel.engine.rounds import Engine

LocationEffect = Callable[["Engine", Mapping[str, Any], "str | None"], "Flow"]
VictoryEffect = Callable[["Engine", Mapping[str, Any]], bool]


def add_door_token(engine: Engine, terrain: str) -> bool:
    """One token from the supply onto the named Door; nothing if the supply is empty."""
    st = engine.state
    where = _terrain_at(engine, terrain)
    if where is None or st.supply <= 0:
        return False
    row, side, i = where
    st.formation[row].terrain[side][i].tokens += 1
    st.supply -= 1
    engine.note(f"a support token is placed on the {terrain}")
    return True


# -- shared pieces ------------------------------------------------------------------------------


def _seat(engine: Engine, marine: str | None) -> int:
    """Who decides: the activating marine's controller, else (on entering) the current
    player."""
    st = engine.state
    if marine is None or not engine.is_alive(marine):
        return st.current_seat
    return st.team_seat[engine.marine(marine).team]


def _terrain_spots(engine: Engine, keep: Callable[[str], bool]) -> list[tuple[int, int, str]]:
    """(row, side, name) of every terrain card in the formation whose name passes ``keep``,
    top to bottom, left before right."""
    return [
        (row, side, t.name)
        for row, pos in enumerate(engine.state.formation)
        for side in (LEFT, RIGHT)
        for t in pos.terrain[side]
        if keep(t.name)
    ]


def _take_terrain(engine: Engine, name: str) -> TerrainState | None:
    """Lift the named terrain card out of the formation (its tokens go home); ``None`` if it
    is not there."""
    where = _terrain_at(engine, name)
    if where is None:
        return None
    row, side, i = where
    card = engine.state.formation[row].terrain[side].pop(i)
    engine.state.supply += card.tokens
    card.tokens = 0
    return card


def _in_a_hand(engine: Engine, name: str) -> bool:
    """Whether the named terrain card is the Artefact and a player holds it (RULES §14.8)."""
    effect = engine.table.terrain[name].effect
    return (
        effect is not None and effect.name == "take_artefact" and engine.state.artefact is not None
    )


def _discard_top_blips(engine: Engine, side: int, count: int) -> int:
    """Discard up to ``count`` cards from the top of a blip pile; returns how many."""
    pile = engine.state.blips[side]
    n = min(count, len(pile))
    cards = [engine.reveal(pile) for _ in range(n)]
    engine.discard_genestealers(cards, slain=False)
    if n:
        engine.note(f"{n} card(s) from the top of the {SIDES[side]} blip pile are discarded")
    return n


# -- on entering (RULES §10 step 4) --------------------------------------------------------------


def spawn_at_terrain(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Main Corridor: every TERRAIN card in the formation spawns COUNT genestealers, drawn
    from the blip pile on its side (as a spawn box does, RULES §8.2). When one pile cannot
    serve every such card on its side, the current player picks which draws next (FAQ)."""
    st = engine.state
    name = str(params["terrain"])
    count = int(params["count"])
    for side in (LEFT, RIGHT):
        spots = [row for row, s, _ in _terrain_spots(engine, lambda n: n == name) if s == side]
        pile = st.blips[side]
        while spots and pile:
            index = 0
            if len(pile) < count * len(spots) and len(set(spots)) > 1:
                options = [Option("terrain", (name, row + 1, SIDES[side])) for row in spots]
                choice = yield from engine.ask(
                    st.current_seat,
                    d.SPAWN_ORDER,
                    options,
                    f"the {SIDES[side]} blip pile has {len(pile)} card(s): which {name} first?",
                )
                index = options.index(choice)
            engine.spawn(spots.pop(index), side, count)


def face_all(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Service Shaft: every marine turns to face SIDE."""
    facing = SIDES.index(str(params["side"]))
    for pos in engine.state.formation:
        pos.marine.facing = facing
    engine.note(f"every marine turns to face {SIDES[facing]}")
    return no_questions()


def spawn_behind_top_marine(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Lower Accessway: COUNT genestealers spawn behind the marine at position 1, from the blip
    pile of that side (RULES §14.9)."""
    if engine.state.formation:
        spawn_behind(engine, 0, int(params["count"]))
    return no_questions()


def blips_per_marine(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Hibernation Cluster (blips 0/0): for each marine now in the formation, COUNT cards of
    the Genestealer deck go to each blip pile. Ruling: they are dealt as any fill is, the left
    pile's share first, then the right's; a short deck (after reshuffling the discard) splits
    as equally as possible, the current player placing an odd card (RULES §3 step 7, §12)."""
    st = engine.state
    extra = len(st.formation) * int(params["count"])
    yield from engine.fill_blips(len(st.blips[LEFT]) + extra, len(st.blips[RIGHT]) + extra)
    engine.note(f"{extra} card(s) are added to each blip pile")


def support_to_marines(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Munitorium: the current player puts 1 token from the supply on each of COUNT different
    marines (§14.11). Ruling: with fewer marines than COUNT, each marine gets one; an empty
    supply stops the placements (§1). When every marine gets one, nobody is asked."""
    st = engine.state
    seat = st.current_seat
    served: set[str] = set()
    for _ in range(int(params["count"])):
        options = marine_options(engine, lambda row: st.formation[row].marine.name not in served)
        if not options or st.supply <= 0:
            return
        if min(int(params["count"]) - len(served), st.supply) >= len(options):
            choice = options[0]  # every one of them gets a token: the order changes nothing
        else:
            choice = yield from engine.ask(
                seat, d.PLACE_SUPPORT, options, "Munitorium: a support token on which marine?"
            )
        name = choice.text("marine")
        served.add(name)
        place_token(engine, name)


def place_terrain_anywhere(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Wrath of Baal Chapel: the current player puts the TERRAIN card (the Artefact) at any
    position and side. Ruling: a card held in a player's hand stays there; a card already
    beside the formation moves; otherwise it comes from the terrain cards not in play (they
    are reused at every travel, §10 step 2). One card, never two."""
    st = engine.state
    name = str(params["terrain"])
    if not st.formation or _in_a_hand(engine, name):
        return
    options = [
        Option("place", (row + 1, SIDES[side]))
        for row in range(len(st.formation))
        for side in (LEFT, RIGHT)
    ]
    choice = yield from engine.ask(
        st.current_seat, d.TARGET_TERRAIN, options, f"place the {name} where?"
    )
    row, side = target_of(choice)
    card = _take_terrain(engine, name) or TerrainState(name)
    st.formation[row].terrain[side].append(card)
    engine.note(f"the {name} is placed {SIDES[side]} of position {row + 1}")


def spawn_behind_unsupported(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Dark Catacombs: the current player picks a marine with no support token (any marine if
    every one has some) and COUNT genestealers spawn behind him, from the blip pile of that
    side (§14.9)."""
    st = engine.state
    options = marine_options(engine, lambda row: st.formation[row].marine.tokens == 0)
    if not options:
        options = marine_options(engine)
    if not options:
        return
    choice = yield from engine.ask(
        st.current_seat, d.TARGET_MARINE, options, "Dark Catacombs: spawn behind which marine?"
    )
    spawn_behind(engine, st.marine_row(choice.text("marine")), int(params["count"]))


def spawn_onto_swarm(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Black Holds: the current player picks a swarm, if there is one, and COUNT genestealers
    join it from the blip pile of its side (§14.9). A Power-Field swarm may be picked: what
    joins it is protected with it (FAQ)."""
    st = engine.state
    options = swarm_options(engine)
    if not options:
        return
    choice = yield from engine.ask(
        st.current_seat, d.TARGET_SWARM, options, "Black Holds: spawn onto which swarm?"
    )
    row, side = target_of(choice)
    engine.spawn(row, side, int(params["count"]))


def flip_facing_terrain(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Wreckage Labyrinth: every marine facing a terrain card at his own position turns round.
    Each looks at the terrain before anyone turns (turning moves no terrain, so order is moot)."""
    for pos in engine.state.formation:
        m = pos.marine
        if pos.terrain[m.facing]:
            m.facing = 1 - m.facing
            engine.note(f"{m.name} turns to face {SIDES[m.facing]}")
    return no_questions()


def lair(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Genestealer Lair (final): on each side, every swarm moves to the row of the red terrain
    there; then a Brood Lord spawns there — the first Brood Lord on the left, the next on the
    right. A side with no red terrain keeps its swarms where they are and gets no Brood Lord
    (§14.12). Ruling: with several red terrain cards on one side (at different rows), the
    current player picks where that side gathers, and its one Brood Lord spawns there."""
    st = engine.state
    table = engine.table
    lords = list(range(table.deck_size, len(table.gs_labels)))
    in_play = {c for p in st.formation for s in p.swarms for c in s}
    waiting = [c for c in lords if c not in in_play and c not in st.lords_slain]
    for side in (LEFT, RIGHT):
        rows: list[int] = []
        names: dict[int, str] = {}
        for row, s, name in _terrain_spots(engine, lambda n: table.terrain[n].color == "red"):
            if s == side and row not in names:
                rows.append(row)
                names[row] = name
        if not rows:
            engine.note(f"no red terrain on the {SIDES[side]}: its swarms stay")
            continue
        target = rows[0]
        if len(rows) > 1:
            options = [Option("terrain", (names[r], r + 1, SIDES[side])) for r in rows]
            choice = yield from engine.ask(
                st.current_seat,
                d.TARGET_TERRAIN,
                options,
                f"Genestealer Lair: where do the {SIDES[side]} swarms gather?",
            )
            target = choice.row()
        gathered = st.formation[target].swarms[side]
        for row, pos in enumerate(st.formation):
            if row != target and pos.swarms[side]:
                gathered.extend(pos.swarms[side])
                pos.swarms[side] = []
        engine.note(f"the {SIDES[side]} swarms gather at position {target + 1}")
        if waiting:
            lord = waiting.pop(0)
            gathered.append(lord)
            engine.note(f"{table.gs_labels[lord]} spawns {SIDES[side]} of position {target + 1}")


# -- Control Panel (RULES §6.2 step 3, through the Control Panel terrain) ---------------------


def replace_terrain(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Maintenance Tunnels: the OLD card is discarded and the NEW one takes its place (same
    position and side). Ruling: a NEW card already beside the formation moves there (one
    card, never two); tokens on either card go back to the supply."""
    st = engine.state
    old, new = str(params["old"]), str(params["new"])
    if _terrain_at(engine, old) is None or _in_a_hand(engine, new):
        return no_questions()
    card = _take_terrain(engine, new) or TerrainState(new)
    where = _terrain_at(engine, old)
    assert where is not None
    row, side, i = where
    st.supply += st.formation[row].terrain[side][i].tokens
    st.formation[row].terrain[side][i] = card
    engine.note(f"the {old} is discarded; the {new} takes its place")
    return no_questions()


def control_discard_blip(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Cryo Control: the activating player discards the top card of the non-empty blip pile
    of his choice; an emptied pile may make the marines travel or win (checked at once)."""
    st = engine.state
    options = [Option("pile", (SIDES[s],)) for s in (LEFT, RIGHT) if st.blips[s]]
    if not options:
        return
    choice = yield from engine.ask(
        _seat(engine, marine), d.TARGET_PILE, options, "Cryo Control: discard the top of?"
    )
    _discard_top_blips(engine, choice.side(), 1)
    engine.check_end()


def support_and_flip(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Apothecarion: 1 token from the supply on any marine (none if the supply is empty, §1),
    then that marine may turn round. Ruling: with an empty supply he may still turn."""
    seat = _seat(engine, marine)
    options = marine_options(engine)
    if not options:
        return
    choice = yield from engine.ask(
        seat, d.PLACE_SUPPORT, options, "Apothecarion: a support token on which marine?"
    )
    name = choice.text("marine")
    place_token(engine, name)
    turn = yield from engine.ask(
        seat,
        d.CHOOSE,
        [Option("yes", (f"{name} turns round",)), Option("no")],
        f"Apothecarion: flip {name}?",
    )
    if turn.verb == "yes":
        m = engine.marine(name)
        m.facing = 1 - m.facing
        engine.note(f"{name} turns to face {SIDES[m.facing]}")


def teleport(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Teleportarium: top to bottom, each marine returns 1 support token to the supply or
    rolls the die (not an attack or defence: no reroll, §6.4); a 0 slays him. A marine with no
    token must roll. Ruling: each marine's own controller chooses, as with any spending of his
    tokens (§6.4). Then every card of both blip piles goes to the Genestealer discard."""
    st = engine.state
    for name in [p.marine.name for p in st.formation]:
        if not engine.is_alive(name):
            continue
        m = engine.marine(name)
        pay = False
        if m.tokens > 0:
            choice = yield from engine.ask(
                st.team_seat[m.team],
                d.CHOOSE,
                [Option("yes", ("discard 1 support token",)), Option("no", ("roll the die",))],
                f"Teleportarium: {name} discards a token, or rolls (a 0 slays him)?",
            )
            pay = choice.verb == "yes"
        if pay:
            return_tokens(engine, name, 1)
            engine.note(f"{name} discards a support token to teleport")
            continue
        roll = engine.roll_plain(
            f"{name} teleports", lambda r: "a 0: he is lost" if r.face == 0 else "he arrives"
        )
        if roll.face == 0:
            engine.kill_marine(name, "lost in the teleport")
    for side in (LEFT, RIGHT):
        _discard_top_blips(engine, side, len(st.blips[side]))
    engine.check_end()


def limit_spawn(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Core Cogitator: the activating player picks a terrain card in the formation; in the
    next Event phase (this round's: the effect expires at round end) at most MAX genestealers
    spawn there (:meth:`CardAbilities.spawn_limit` reads the effect)."""
    st = engine.state
    spots = _terrain_spots(engine, lambda n: True)
    if not spots:
        engine.note("Core Cogitator: no terrain card in the formation to limit")
        return
    options = [Option("terrain", (name, row + 1, SIDES[side])) for row, side, name in spots]
    choice = yield from engine.ask(
        _seat(engine, marine), d.TARGET_TERRAIN, options, "Core Cogitator: limit which terrain?"
    )
    name = choice.text("terrain")
    st.effects.append(SpawnLimit(name, int(params["max"])))
    engine.note(f"at most {params['max']} genestealer(s) may spawn at the {name} this Event")


def purge_or_die(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Genetorium: roll (no reroll, §6.4). On a skull the activating player slays up to COUNT
    genestealers anywhere, one at a time, choosing swarm and card, and may stop early;
    Power-Field swarms cannot lose any (FAQ). Otherwise the activating marine is slain."""
    st = engine.state
    seat = _seat(engine, marine)
    roll = engine.roll_plain(
        f"{marine} works the Genetorium controls",
        lambda r: (
            f"a skull: up to {params['count']} genestealer(s) may be slain"
            if r.skull
            else "no skull: the Genetorium kills him"
        ),
    )
    if not roll.skull:
        if marine is not None and engine.is_alive(marine):
            engine.kill_marine(marine, "killed by the Genetorium")
        return
    for _ in range(int(params["count"])):
        options = swarm_options(
            engine, lambda r, s: not engine.is_protected(st.formation[r].swarms[s])
        )
        if not options:
            return
        options.append(DONE)
        choice = yield from engine.ask(
            seat, d.TARGET_SWARM, options, "Genetorium: slay a genestealer from which swarm?"
        )
        if choice.verb == "done":
            return
        row, side = target_of(choice)
        yield from engine.slay_one(st.formation[row], side, seat)


def launch_control(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Launch Control Room (final): the activating player either puts 1 token from the supply
    on this location card (offered only while the supply has one, §1), or rolls (no reroll,
    §6.4): a face at most the tokens on the card wins the game at once (§14.1: the face)."""
    st = engine.state
    options = [Option("no", ("roll the die",))]
    if st.supply > 0:
        options.insert(0, Option("yes", ("place 1 support token on the location card",)))
    choice = yield from engine.ask(
        _seat(engine, marine),
        d.CHOOSE,
        options,
        f"Launch Control Room ({st.location_tokens} token(s)): place a token, or roll?",
    )
    if choice.verb == "yes":
        st.supply -= 1
        st.location_tokens += 1
        engine.note(f"a support token is placed on the location ({st.location_tokens} now)")
        return
    roll = engine.roll_plain(
        f"launch with {st.location_tokens} token(s) on the location",
        lambda r: (
            f"{r.face} ≤ {st.location_tokens}: the launch succeeds"
            if r.face <= st.location_tokens
            else f"{r.face} > {st.location_tokens}: the launch fails"
        ),
    )
    if roll.face <= st.location_tokens:
        engine.declare_victory("the launch succeeds")


def pump_toxin(engine: Engine, params: Mapping[str, Any], marine: str | None) -> Flow:
    """Toxin Pumping Station (final): roll (no reroll, §6.4), then the activating player
    discards that many cards from the top of a blip pile of his choice (a non-empty one).
    Emptying both piles with a clear formation wins by clearing (§11), checked at once."""
    st = engine.state
    roll = engine.roll_plain(
        "the toxin pumps run", lambda r: f"up to {r.face} blip card(s) may be discarded"
    )
    options = [Option("pile", (SIDES[s],)) for s in (LEFT, RIGHT) if st.blips[s]]
    if roll.face == 0 or not options:
        engine.check_end()
        return
    choice = yield from engine.ask(
        _seat(engine, marine),
        d.TARGET_PILE,
        options,
        f"Toxin Pumping Station: discard {roll.face} card(s) from which blip pile?",
    )
    _discard_top_blips(engine, choice.side(), roll.face)
    engine.check_end()


# -- victory conditions (RULES §11) -------------------------------------------------------------


def brood_lords_slain(engine: Engine, params: Mapping[str, Any]) -> bool:
    """Genestealer Lair: the marines win once every Brood Lord of the card database has been
    slain (a database without Brood Lords never meets it)."""
    table = engine.table
    lords = range(table.deck_size, len(table.gs_labels))
    slain = set(engine.state.lords_slain)
    return len(lords) > 0 and all(lord in slain for lord in lords)


# -- terrain activations ------------------------------------------------------------------------


def take_artefact(engine: Engine, marine: str, terrain: str) -> Flow:
    """Artefact: the activating marine's player takes the card into his hand; it leaves the
    formation. Its one use — discarding it so a defence roll misses, after rerolls — is in
    :meth:`CardAbilities.defence` (§14.8)."""
    st = engine.state
    if _take_terrain(engine, terrain) is None:
        return no_questions()
    st.artefact = st.team_seat[engine.marine(marine).team]
    engine.note(f"seat {st.artefact} takes the {terrain}")
    return no_questions()


def use_control_panel(engine: Engine, marine: str, terrain: str) -> Flow:
    """Control Panel: resolve the current location's control-panel ability for the activating
    marine (the abilities object's table, so plugin locations are found too)."""
    st = engine.state
    if st.location is None:
        return
    location = engine.table.locations[st.location]
    if location.ability != "control_panel" or location.effect is None:
        return
    effects: Mapping[str, LocationEffect] = getattr(
        engine.abilities, "location_effects", LOCATION_EFFECTS
    )
    yield from effects[location.effect.name](engine, location.effect.params, marine)


LOCATION_EFFECTS: dict[str, LocationEffect] = {
    "spawn_at_terrain": spawn_at_terrain,
    "face_all": face_all,
    "spawn_behind_top_marine": spawn_behind_top_marine,
    "blips_per_marine": blips_per_marine,
    "support_to_marines": support_to_marines,
    "place_terrain_anywhere": place_terrain_anywhere,
    "spawn_behind_unsupported": spawn_behind_unsupported,
    "spawn_onto_swarm": spawn_onto_swarm,
    "flip_facing_terrain": flip_facing_terrain,
    "lair": lair,
    "replace_terrain": replace_terrain,
    "control_discard_blip": control_discard_blip,
    "support_and_flip": support_and_flip,
    "teleport": teleport,
    "limit_spawn": limit_spawn,
    "purge_or_die": purge_or_die,
    "launch_control": launch_control,
    "pump_toxin": pump_toxin,
}
VICTORY_EFFECTS: dict[str, VictoryEffect] = {"brood_lords_slain": brood_lords_slain}
TERRAIN_EFFECTS: dict[str, TerrainEffect] = {
    "take_artefact": take_artefact,
    "use_control_panel": use_control_panel,
}
