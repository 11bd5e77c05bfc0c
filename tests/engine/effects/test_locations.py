"""Location abilities, final-location victories, and the Artefact and Control Panel terrain.

Every one of the 18 locations is exercised with a hand-built state, a scripted die and
scripted answers; on-entering abilities run through a real travel (RULES §10 step 4) where the
location's own terrain placements and blip numbers matter, or through the on-entering window
directly. Control-panel abilities run through the Control Panel's activation. Expected values
are worked out by hand from RULES.md and the card files.

Reading aid: ``build_state`` puts the Genestealer deck in id order with the lowest id on top
(claw-1..claw-9, tongue-1..9, tail-1..9, head-1..9, minus the cards placed), and a fill deals
the left pile first; ``blips`` are given top card first.
"""

from __future__ import annotations

import pytest
from support import build_state, drive, make_engine, marines, swarm_labels, table

from deathangel.cards.load import load_base
from deathangel.cards.model import SpawnBox
from deathangel.engine.decisions import Option
from deathangel.engine.effects.dispatch import CardAbilities
from deathangel.engine.lasting import SpawnLimit
from deathangel.engine.rounds import Engine
from deathangel.engine.state import LEFT, RIGHT, GameState

T = table()
AB = CardAbilities(load_base(), strict=False)

THREE = [("Sergeant Gideon", "L"), ("Brother Claudio", "R"), ("Brother Leon", "L")]
"""Green, yellow, red: positions 1 and 3 face left, position 2 faces right."""


def ids(*labels: str) -> list[int]:
    return [T.gs_by_label[label] for label in labels]


def pile(state: GameState, side: int) -> list[str]:
    """A blip pile's labels, top card first."""
    return [T.gs_labels[c] for c in reversed(state.blips[side])]


def labels(cards: list[int]) -> list[str]:
    return sorted(T.gs_labels[c] for c in cards)


def engine_for(state: GameState, dice: list[int] | None = None) -> Engine:
    return make_engine(state, dice=dice or [], abilities=AB)


def enter(engine: Engine, name: str):  # type: ignore[no-untyped-def]
    """The on-entering window for the named location."""
    return engine.abilities.on_entering(engine, T.locations[T.location_by_name[name]])


def panel(engine: Engine, marine: str, terrain: str = "Control Panel"):  # type: ignore[no-untyped-def]
    """``marine`` activates the Control Panel (the terrain effect itself)."""
    return AB.terrain_effects["use_control_panel"](engine, marine, terrain)


def terrain_map(state: GameState) -> dict[tuple[int, str], list[str]]:
    """Every terrain card in the formation as {(position, side): names in order}."""
    out = {}
    for row, pos in enumerate(state.formation, start=1):
        for side, name in ((LEFT, "left"), (RIGHT, "right")):
            if pos.terrain[side]:
                out[(row, name)] = [t.name for t in pos.terrain[side]]
    return out


def facings(state: GameState) -> list[str]:
    return ["L" if p.marine.facing == LEFT else "R" for p in state.formation]


def tokens(state: GameState) -> dict[str, int]:
    return {p.marine.name: p.marine.tokens for p in state.formation}


EIGHT = [
    ("Sergeant Gideon", "L"),
    ("Brother Noctis", "L"),
    ("Brother Claudio", "L"),
    ("Brother Goriel", "L"),
    ("Brother Leon", "R"),
    ("Brother Valencio", "R"),
    ("Sergeant Lorenzo", "R"),
    ("Brother Deino", "R"),
]


# -- on entering ------------------------------------------------------------------------------


def test_main_corridor_spawns_two_at_the_corridor_from_its_sides_pile() -> None:
    st = build_state(EIGHT, blips=(["head-1"], []), location_deck=["Main Corridor"])
    drive(engine_for(st).travel())
    # 8 rows: Corridor right, 7 from the bottom = position 2; Dark Corner right 3 from the
    # bottom = position 6; Ventilation Duct left 2, Door left 5.
    assert terrain_map(st) == {
        (2, "left"): ["Ventilation Duct"],
        (5, "left"): ["Door"],
        (2, "right"): ["Corridor"],
        (6, "right"): ["Dark Corner"],
    }
    # Fill 7 / 8: left claw-1..7 (claw-7 on top), right claw-8, claw-9, tongue-1..6 (tongue-6
    # on top). The Corridor takes the two top cards of the right pile.
    assert swarm_labels(st, 2, "right") == ["tongue-5", "tongue-6"]
    assert st.genestealers_in_formation() == 2
    assert pile(st, LEFT) == [f"claw-{i}" for i in range(7, 0, -1)]
    assert pile(st, RIGHT) == ["tongue-4", "tongue-3", "tongue-2", "tongue-1", "claw-9", "claw-8"]


def test_main_corridor_short_pile_lets_the_current_player_pick_the_order() -> None:
    st = build_state(
        THREE,
        terrain={(1, "right"): ["Corridor"], (3, "right"): ["Corridor"]},
        blips=([], ["tail-1", "tail-2", "tail-3"]),
        location="Main Corridor",
    )
    seen = drive(
        enter(engine_for(st), "Main Corridor"), [Option("terrain", ("Corridor", 3, "right"))]
    )
    assert [d.kind for d in seen] == ["spawn_order"]
    assert set(seen[0].options) == {
        Option("terrain", ("Corridor", 1, "right")),
        Option("terrain", ("Corridor", 3, "right")),
    }
    # 3 cards for 2 x 2: position 3 draws first and gets two, position 1 the last one.
    assert swarm_labels(st, 3, "right") == ["tail-1", "tail-2"]
    assert swarm_labels(st, 1, "right") == ["tail-3"]
    assert st.blips[RIGHT] == []


def test_service_shaft_turns_every_marine_to_face_right() -> None:
    st = build_state(THREE, blips=(["claw-1"], ["claw-2"]), location="Service Shaft")
    assert drive(enter(engine_for(st), "Service Shaft")) == []
    assert facings(st) == ["R", "R", "R"]
    assert st.genestealers_in_formation() == 0
    assert pile(st, LEFT) == ["claw-1"] and pile(st, RIGHT) == ["claw-2"]


@pytest.mark.parametrize(
    ("top_faces", "side", "spawned"),
    [
        # Fill 7 / 7: left claw-1..7 (claw-7 on top), right claw-8, claw-9, tongue-1..5.
        ("L", "right", ["tongue-4", "tongue-5"]),
        ("R", "left", ["claw-6", "claw-7"]),
    ],
)
def test_lower_accessway_spawns_two_behind_the_top_marine(
    top_faces: str, side: str, spawned: list[str]
) -> None:
    rows = [("Sergeant Gideon", top_faces), ("Brother Claudio", "R"), ("Brother Leon", "L")]
    st = build_state(rows, blips=([], ["head-1"]), location_deck=["Lower Accessway"])
    drive(engine_for(st).travel())
    assert swarm_labels(st, 1, side) == spawned
    assert st.genestealers_in_formation() == 2
    assert len(st.blips[LEFT]) + len(st.blips[RIGHT]) == 12


def test_wreckage_labyrinth_flips_only_marines_facing_terrain_at_their_row() -> None:
    rows = [
        ("Sergeant Gideon", "L"),
        ("Brother Claudio", "R"),
        ("Brother Leon", "L"),
        ("Brother Valencio", "R"),
    ]
    st = build_state(rows, blips=(["head-1"], []), location_deck=["Wreckage Labyrinth"])
    drive(engine_for(st).travel())
    # 4 rows: Ventilation Duct left 1, Corridor left 5 -> 4, Promethium Tank right 5 from the
    # bottom -> 1, Door right 3 from the bottom -> 2.
    assert terrain_map(st) == {
        (1, "left"): ["Ventilation Duct"],
        (4, "left"): ["Corridor"],
        (1, "right"): ["Promethium Tank"],
        (2, "right"): ["Door"],
    }
    # 1 faces the Duct: turns. 2 faces the Door: turns. 3 faces nothing: stays.
    # 4 faces right, the Corridor is behind him: stays.
    assert facings(st) == ["R", "L", "L", "R"]


def test_munitorium_two_different_marines_chosen_by_the_current_player() -> None:
    rows = [("Sergeant Gideon", "L", 1), ("Brother Claudio", "R"), ("Brother Leon", "L")]
    st = build_state(rows, players=2, seats=[["green"], ["yellow", "red"]], location="Munitorium")
    st.current_seat = 2
    seen = drive(
        enter(engine_for(st), "Munitorium"),
        [Option("marine", ("Sergeant Gideon",)), Option("marine", ("Brother Leon",))],
    )
    assert [(d.seat, d.kind) for d in seen] == [(2, "place_support"), (2, "place_support")]
    assert len(seen[0].options) == 3
    # The second token must go to a different marine.
    assert set(seen[1].options) == {
        Option("marine", ("Brother Claudio",)),
        Option("marine", ("Brother Leon",)),
    }
    assert tokens(st) == {"Sergeant Gideon": 2, "Brother Claudio": 0, "Brother Leon": 1}
    assert st.supply == 9
    assert st.tokens_in_play() == 12


def test_munitorium_with_two_marines_asks_nothing_and_with_one_gives_one() -> None:
    st = build_state(THREE[:2], location="Munitorium")
    assert drive(enter(engine_for(st), "Munitorium")) == []
    assert tokens(st) == {"Sergeant Gideon": 1, "Brother Claudio": 1}
    assert st.supply == 10
    st = build_state(THREE[:1], location="Munitorium")
    assert drive(enter(engine_for(st), "Munitorium")) == []
    assert tokens(st) == {"Sergeant Gideon": 1}
    assert st.supply == 11


def test_munitorium_stops_when_the_supply_runs_out() -> None:
    rows = [("Sergeant Gideon", "L", 6), ("Brother Claudio", "R", 5), ("Brother Leon", "L")]
    st = build_state(rows, location="Munitorium")
    assert st.supply == 1
    seen = drive(enter(engine_for(st), "Munitorium"), [Option("marine", ("Brother Claudio",))])
    assert len(seen) == 1
    assert tokens(st) == {"Sergeant Gideon": 6, "Brother Claudio": 6, "Brother Leon": 0}
    assert st.supply == 0
    assert st.tokens_in_play() == 12


def test_dark_catacombs_only_unsupported_marines_may_be_chosen() -> None:
    rows = [("Sergeant Gideon", "L", 1), ("Brother Claudio", "R"), ("Brother Leon", "L")]
    st = build_state(rows, blips=(["claw-1"], ["tongue-1", "tongue-2"]), location="Dark Catacombs")
    seen = drive(enter(engine_for(st), "Dark Catacombs"), [Option("marine", ("Brother Leon",))])
    assert [d.kind for d in seen] == ["target_marine"]
    assert set(seen[0].options) == {
        Option("marine", ("Brother Claudio",)),
        Option("marine", ("Brother Leon",)),
    }
    # Leon (position 3) faces left: one genestealer behind him, from the right pile.
    assert swarm_labels(st, 3, "right") == ["tongue-1"]
    assert st.genestealers_in_formation() == 1
    assert pile(st, RIGHT) == ["tongue-2"] and pile(st, LEFT) == ["claw-1"]


def test_dark_catacombs_any_marine_when_everyone_has_support() -> None:
    rows = [("Sergeant Gideon", "L", 1), ("Brother Claudio", "R", 2)]
    st = build_state(rows, blips=(["claw-1", "claw-2"], ["tongue-1"]), location="Dark Catacombs")
    seen = drive(enter(engine_for(st), "Dark Catacombs"), [Option("marine", ("Brother Claudio",))])
    assert len(seen[0].options) == 2
    # Claudio faces right: the genestealer comes from the left pile to his left.
    assert swarm_labels(st, 2, "left") == ["claw-1"]
    assert pile(st, LEFT) == ["claw-2"]


def test_black_holds_spawns_two_onto_the_chosen_swarm_from_its_sides_pile() -> None:
    st = build_state(
        THREE,
        swarms={(1, "left"): ["claw-1"], (2, "right"): ["claw-2"]},
        blips=(["head-1"], ["tongue-1", "tongue-2", "tongue-3"]),
        location="Black Holds",
    )
    seen = drive(enter(engine_for(st), "Black Holds"), [Option("target", (2, "right"))])
    assert [d.kind for d in seen] == ["target_swarm"]
    assert set(seen[0].options) == {Option("target", (1, "left")), Option("target", (2, "right"))}
    assert swarm_labels(st, 2, "right") == ["claw-2", "tongue-1", "tongue-2"]
    assert swarm_labels(st, 1, "left") == ["claw-1"]
    assert pile(st, RIGHT) == ["tongue-3"] and pile(st, LEFT) == ["head-1"]


def test_black_holds_with_no_swarm_does_nothing() -> None:
    st = build_state(THREE, blips=(["head-1"], ["tongue-1"]), location="Black Holds")
    assert drive(enter(engine_for(st), "Black Holds")) == []
    assert st.genestealers_in_formation() == 0
    assert pile(st, LEFT) == ["head-1"] and pile(st, RIGHT) == ["tongue-1"]


def test_hibernation_cluster_adds_one_card_per_marine_to_each_pile() -> None:
    rows = [*THREE, ("Brother Valencio", "R")]
    st = build_state(rows, blips=(["head-1"], []), location_deck=["Hibernation Cluster"])
    drive(engine_for(st).travel())
    # Its blip numbers are 0 / 0; then 4 marines: 4 cards to the left pile, then 4 to the right.
    assert pile(st, LEFT) == ["claw-4", "claw-3", "claw-2", "claw-1"]
    assert pile(st, RIGHT) == ["claw-8", "claw-7", "claw-6", "claw-5"]
    assert len(st.gs_deck) == 36 - 1 - 8
    assert labels(st.gs_discard) == ["head-1"]


def test_hibernation_cluster_short_deck_splits_equally_current_player_places_odd() -> None:
    st = build_state(THREE, location="Hibernation Cluster")
    st.gs_deck = ids("claw-1", "claw-2", "claw-3", "claw-4", "claw-5")[::-1]
    seen = drive(enter(engine_for(st), "Hibernation Cluster"), [Option("pile", ("right",))])
    assert [d.kind for d in seen] == ["blip_split"]
    # 6 wanted, 5 available: 2 each, the odd one to the right.
    assert pile(st, LEFT) == ["claw-2", "claw-1"]
    assert pile(st, RIGHT) == ["claw-5", "claw-4", "claw-3"]
    assert st.gs_deck == []


def test_wrath_of_baal_chapel_places_the_artefact_where_the_current_player_says() -> None:
    st = build_state(THREE, players=2, seats=[["green"], ["yellow", "red"]])
    st.current_seat = 2
    st.location = T.location_by_name["Wrath of Baal Chapel"]
    seen = drive(enter(engine_for(st), "Wrath of Baal Chapel"), [Option("place", (2, "right"))])
    assert [(d.seat, d.kind) for d in seen] == [(2, "target_terrain")]
    assert len(seen[0].options) == 6  # 3 positions x 2 sides
    assert terrain_map(st) == {(2, "right"): ["Artefact"]}


def test_wrath_of_baal_chapel_moves_an_artefact_already_in_play_and_never_doubles_it() -> None:
    st = build_state(THREE, terrain={(1, "left"): ["Artefact"]}, location="Wrath of Baal Chapel")
    drive(enter(engine_for(st), "Wrath of Baal Chapel"), [Option("place", (3, "left"))])
    assert terrain_map(st) == {(3, "left"): ["Artefact"]}


def test_wrath_of_baal_chapel_leaves_a_held_artefact_in_the_hand() -> None:
    st = build_state(THREE, location="Wrath of Baal Chapel")
    st.artefact = 1
    assert drive(enter(engine_for(st), "Wrath of Baal Chapel")) == []
    assert terrain_map(st) == {}
    assert st.artefact == 1


# -- Genestealer Lair --------------------------------------------------------------------------

FIVE = [
    ("Sergeant Gideon", "L"),
    ("Brother Claudio", "R"),
    ("Brother Leon", "L"),
    ("Brother Valencio", "R"),
    ("Sergeant Lorenzo", "L"),
]


def test_genestealer_lair_gathers_swarms_at_red_terrain_and_spawns_the_brood_lords() -> None:
    st = build_state(
        FIVE,
        swarms={
            (1, "left"): ["claw-1"],
            (4, "left"): ["claw-2", "claw-3"],
            (2, "right"): ["tongue-1"],
            (5, "right"): ["tongue-2"],
        },
        blips=(["head-1"], []),
        location_deck=["Genestealer Lair"],
    )
    drive(engine_for(st).travel())
    # 5 rows: Dark Corner left 1, Ventilation Duct (red) left 2, Corridor right 2 from the
    # bottom -> 4, Spore Chimney (red) right 1 from the bottom -> 5.
    assert terrain_map(st) == {
        (1, "left"): ["Dark Corner"],
        (2, "left"): ["Ventilation Duct"],
        (4, "right"): ["Corridor"],
        (5, "right"): ["Spore Chimney"],
    }
    assert swarm_labels(st, 2, "left") == ["Brood Lord A", "claw-1", "claw-2", "claw-3"]
    assert swarm_labels(st, 5, "right") == ["Brood Lord B", "tongue-1", "tongue-2"]
    assert st.genestealers_in_formation() == 7
    assert len(st.blips[LEFT]) == 6 and len(st.blips[RIGHT]) == 5
    assert st.outcome is None


def test_genestealer_lair_side_without_red_terrain_keeps_its_swarms_and_gets_no_lord() -> None:
    st = build_state(
        THREE,
        swarms={(1, "left"): ["claw-1"], (3, "left"): ["claw-2"], (2, "right"): ["tongue-1"]},
        terrain={(1, "left"): ["Dark Corner"], (3, "right"): ["Spore Chimney"]},
        blips=(["head-1"], ["head-2"]),
        location="Genestealer Lair",
    )
    assert drive(enter(engine_for(st), "Genestealer Lair")) == []
    assert swarm_labels(st, 1, "left") == ["claw-1"]
    assert swarm_labels(st, 3, "left") == ["claw-2"]
    assert swarm_labels(st, 2, "right") == []
    # The only Brood Lord to spawn is the first one, on the right.
    assert swarm_labels(st, 3, "right") == ["Brood Lord A", "tongue-1"]


def test_genestealer_lair_several_red_terrain_on_a_side_current_player_picks() -> None:
    st = build_state(
        THREE,
        swarms={(1, "left"): ["claw-1"], (2, "left"): ["claw-2"]},
        terrain={(1, "left"): ["Ventilation Duct"], (3, "left"): ["Spore Chimney"]},
        blips=(["head-1"], ["head-2"]),
        location="Genestealer Lair",
    )
    seen = drive(
        enter(engine_for(st), "Genestealer Lair"),
        [Option("terrain", ("Spore Chimney", 3, "left"))],
    )
    assert [d.kind for d in seen] == ["target_terrain"]
    assert set(seen[0].options) == {
        Option("terrain", ("Ventilation Duct", 1, "left")),
        Option("terrain", ("Spore Chimney", 3, "left")),
    }
    assert swarm_labels(st, 3, "left") == ["Brood Lord A", "claw-1", "claw-2"]
    assert st.genestealers_in_formation() == 3  # one Brood Lord: no red terrain on the right


def test_genestealer_lair_won_when_both_brood_lords_are_slain() -> None:
    st = build_state(
        [("Brother Leon", "L"), ("Brother Claudio", "R"), ("Brother Valencio", "R")],
        swarms={
            (1, "left"): ["Brood Lord A"],
            (2, "left"): ["Brood Lord B"],
            (3, "right"): ["claw-1"],
        },
        blips=(["head-1"], ["head-2"]),
        location="Genestealer Lair",
    )
    engine = engine_for(st, dice=[1, 2])  # two skulls
    drive(engine.attack("Brother Leon", 0))
    assert st.lords_slain == ids("Brood Lord A")
    assert st.outcome is None  # one Brood Lord is not enough
    drive(engine.attack("Brother Leon", 1))
    # Leon (range 3) slays the second: won, though a genestealer and both piles remain.
    assert st.lords_slain == ids("Brood Lord A", "Brood Lord B")
    assert st.outcome == "victory"
    assert swarm_labels(st, 3, "right") == ["claw-1"]


# -- Control Panel ------------------------------------------------------------------------------


def test_apothecarion_through_a_move_activate_action() -> None:
    st = build_state(THREE, terrain={(1, "left"): ["Control Panel"]}, location="Apothecarion")
    engine = engine_for(st)
    seen = drive(
        engine.move_activate_action("green", "Run and Gun"),
        [
            Option("done"),  # no move
            Option("done"),  # no facing change
            Option("activate", ("Sergeant Gideon", "Control Panel")),
            Option("marine", ("Brother Claudio",)),
            Option("yes", ("Brother Claudio turns round",)),
        ],
    )
    assert [d.kind for d in seen] == ["move", "facing", "activate", "place_support", "choose"]
    assert tokens(st) == {"Sergeant Gideon": 0, "Brother Claudio": 1, "Brother Leon": 0}
    assert facings(st) == ["L", "L", "L"]
    assert st.supply == 11
    assert st.activated == {"Control Panel"}


def test_apothecarion_may_keep_the_facing_and_still_turns_with_an_empty_supply() -> None:
    st = build_state(THREE, location="Apothecarion")
    drive(
        panel(engine_for(st), "Sergeant Gideon"),
        [Option("marine", ("Brother Leon",)), Option("no")],
    )
    assert tokens(st)["Brother Leon"] == 1 and facings(st) == ["L", "R", "L"]
    rows = [("Sergeant Gideon", "L", 12), ("Brother Claudio", "R")]
    st = build_state(rows, location="Apothecarion")
    drive(
        panel(engine_for(st), "Sergeant Gideon"),
        [Option("marine", ("Brother Claudio",)), Option("yes", ("Brother Claudio turns round",))],
    )
    assert tokens(st) == {"Sergeant Gideon": 12, "Brother Claudio": 0}
    assert facings(st) == ["L", "L"]


def test_control_panel_is_not_offered_where_the_location_has_no_control_panel_ability() -> None:
    st = build_state(THREE, terrain={(1, "left"): ["Control Panel"]}, location="Main Corridor")
    seen = drive(
        engine_for(st).move_activate_action("green", "Run and Gun"),
        [Option("done"), Option("done")],
    )
    assert [d.kind for d in seen] == ["move", "facing"]
    # And the terrain effect itself does nothing there.
    assert drive(panel(engine_for(st), "Sergeant Gideon")) == []
    assert st.supply == 12


def test_maintenance_tunnels_replaces_the_control_panel_by_a_corridor() -> None:
    st = build_state(
        THREE,
        terrain={(3, "left"): ["Control Panel", "Dark Corner"], (1, "right"): ["Door"]},
        location="Maintenance Tunnels",
    )
    assert drive(panel(engine_for(st), "Brother Leon")) == []
    # The Corridor takes the Control Panel's place (first on that side), nothing else moves.
    assert terrain_map(st) == {(3, "left"): ["Corridor", "Dark Corner"], (1, "right"): ["Door"]}


def test_maintenance_tunnels_moves_a_corridor_already_in_play_never_two() -> None:
    st = build_state(
        THREE,
        terrain={(1, "right"): ["Door", "Corridor"], (3, "left"): ["Control Panel"]},
        location="Maintenance Tunnels",
    )
    assert drive(panel(engine_for(st), "Brother Leon")) == []
    assert terrain_map(st) == {(1, "right"): ["Door"], (3, "left"): ["Corridor"]}


def test_cryo_control_discards_the_top_of_the_chosen_pile_asked_of_the_activator() -> None:
    st = build_state(
        THREE,
        players=2,
        seats=[["green"], ["yellow", "red"]],
        blips=(["claw-1", "claw-2"], ["claw-3", "claw-4"]),
        location="Cryo Control",
    )
    st.current_seat = 1
    seen = drive(panel(engine_for(st), "Brother Leon"), [Option("pile", ("right",))])
    assert [(d.seat, d.kind) for d in seen] == [(2, "target_pile")]
    assert pile(st, LEFT) == ["claw-1", "claw-2"]
    assert pile(st, RIGHT) == ["claw-4"]
    assert labels(st.gs_discard) == ["claw-3"]


def test_cryo_control_with_one_empty_pile_asks_nothing() -> None:
    st = build_state(THREE, blips=([], ["claw-3", "claw-4"]), location="Cryo Control")
    assert drive(panel(engine_for(st), "Brother Leon")) == []
    assert pile(st, RIGHT) == ["claw-4"]
    assert labels(st.gs_discard) == ["claw-3"]


def test_core_cogitator_limits_the_chosen_terrain_for_this_rounds_event_phase() -> None:
    st = build_state(
        THREE,
        terrain={
            (1, "left"): ["Ventilation Duct"],
            (3, "right"): ["Spore Chimney", "Control Panel"],
        },
        blips=(["claw-1", "claw-2", "claw-3", "claw-4"], ["tongue-1", "tongue-2", "tongue-3"]),
        location="Core Cogitator",
    )
    engine = engine_for(st)
    seen = drive(
        panel(engine, "Brother Claudio"), [Option("terrain", ("Ventilation Duct", 1, "left"))]
    )
    assert [d.kind for d in seen] == ["target_terrain"]
    assert set(seen[0].options) == {
        Option("terrain", ("Ventilation Duct", 1, "left")),
        Option("terrain", ("Spore Chimney", 3, "right")),
        Option("terrain", ("Control Panel", 3, "right")),
    }
    assert st.effects == [SpawnLimit("Ventilation Duct", 1)]
    # A red major box (2 for one player): the Duct takes 1, the Chimney 2.
    drive(engine.spawn_box(SpawnBox("major", "red")))
    assert swarm_labels(st, 1, "left") == ["claw-1"]
    assert swarm_labels(st, 3, "right") == ["tongue-1", "tongue-2"]
    # At most 1 in the whole phase: a second red box gives the Duct nothing more.
    drive(engine.spawn_box(SpawnBox("minor", "red")))
    assert swarm_labels(st, 1, "left") == ["claw-1"]
    assert swarm_labels(st, 3, "right") == ["tongue-1", "tongue-2", "tongue-3"]
    engine.end_round()
    assert st.effects == []


def test_core_cogitator_caps_a_minor_box_in_a_three_player_event_phase() -> None:
    """Three players: spawns are 5 (major) / 3 (minor) (RULES §3). Core Cogitator placed its
    four terrain cards on six rows: Corridor left 1, Ventilation Duct left 4, Dark Corner
    right 3rd from the bottom (4), Control Panel right at the bottom (6). Zael, facing the
    Control Panel, activates it and his player (seat 3) limits the Ventilation Duct to 1.

    Evasion's boxes, a whole Event phase: minor yellow (the Control Panel takes 3 from the
    right pile), then minor red (the Duct would take 3 from the left pile; the limit lets 1
    come). Its flank move (head) finds no head."""
    rows = [
        ("Sergeant Gideon", "L"),
        ("Brother Claudio", "R"),
        ("Brother Leon", "L"),
        ("Sergeant Lorenzo", "R"),
        ("Lexicanium Calistarius", "L"),
        ("Brother Zael", "R"),
    ]
    st = build_state(
        rows,
        terrain={
            (1, "left"): ["Corridor"],
            (4, "left"): ["Ventilation Duct"],
            (4, "right"): ["Dark Corner"],
            (6, "right"): ["Control Panel"],
        },
        blips=(
            ["claw-1", "claw-2", "claw-3", "claw-4"],
            ["tongue-1", "tongue-2", "tongue-3", "tongue-4"],
        ),
        players=3,
        seats=[["green", "yellow"], ["red", "blue"], ["grey", "purple"]],
        location="Core Cogitator",
    )
    engine = engine_for(st)
    duct = Option("terrain", ("Ventilation Duct", 4, "left"))
    seen = drive(panel(engine, "Brother Zael"), [duct])
    assert [(d.seat, d.kind) for d in seen] == [(3, "target_terrain")]
    assert set(seen[0].options) == {
        Option("terrain", ("Corridor", 1, "left")),
        duct,
        Option("terrain", ("Dark Corner", 4, "right")),
        Option("terrain", ("Control Panel", 6, "right")),
    }
    evasion = next(i for i, e in enumerate(T.events) if e.name == "Evasion")
    st.event_deck.remove(evasion)
    st.event_deck.append(evasion)
    assert drive(engine.event_phase()) == []
    assert swarm_labels(st, 6, "right") == ["tongue-1", "tongue-2", "tongue-3"]
    assert swarm_labels(st, 4, "left") == ["claw-1"]
    assert pile(st, LEFT) == ["claw-2", "claw-3", "claw-4"]
    assert pile(st, RIGHT) == ["tongue-4"]
    assert [len(s) for p in st.formation for s in p.swarms] == [0, 0] * 3 + [1, 0, 0, 0, 0, 3]
    assert st.effects == [SpawnLimit("Ventilation Duct", 0)]


def test_teleportarium_each_marine_pays_or_rolls_then_both_piles_are_discarded() -> None:
    rows = [("Sergeant Gideon", "L", 1), ("Brother Claudio", "R"), ("Brother Leon", "L", 2)]
    st = build_state(
        rows,
        players=2,
        seats=[["green", "yellow"], ["red"]],
        blips=(["claw-1", "claw-2"], ["claw-3"]),
        location="Teleportarium",
    )
    engine = engine_for(st, dice=[1, 0])
    seen = drive(
        panel(engine, "Sergeant Gideon"),
        [Option("no", ("roll the die",)), Option("yes", ("discard 1 support token",))],
    )
    # Gideon (a token) chooses to roll: 1, safe (only a 0 slays).
    # Claudio has none: he must roll: 0, slain.
    # Leon's own controller (seat 2) pays one of his two tokens.
    assert [(d.seat, d.kind) for d in seen] == [(1, "choose"), (2, "choose")]
    assert marines(st) == ["Sergeant Gideon", "Brother Leon"]
    assert st.slain == ["Brother Claudio"]
    assert tokens(st) == {"Sergeant Gideon": 1, "Brother Leon": 1}
    assert st.supply == 10 and st.tokens_in_play() == 12
    assert st.blips == [[], []]
    assert labels(st.gs_discard) == ["claw-1", "claw-2", "claw-3"]


def test_genetorium_skull_slays_up_to_four_chosen_anywhere_but_not_protected() -> None:
    st = build_state(
        THREE,
        swarms={
            (1, "left"): ["claw-1", "tongue-1"],
            (2, "right"): ["claw-2"],
            (3, "left"): ["claw-3"],
        },
        location="Genetorium",
    )
    st.protected = set(ids("claw-3"))
    engine = engine_for(st, dice=[2])
    seen = drive(
        panel(engine, "Brother Claudio"),
        [
            Option("target", (1, "left")),
            Option("slay", ("tongue-1",)),
            Option("target", (2, "right")),
            Option("done"),
        ],
    )
    assert [d.kind for d in seen] == ["target_swarm", "slay", "target_swarm", "target_swarm"]
    assert set(seen[0].options) == {
        Option("target", (1, "left")),
        Option("target", (2, "right")),
        Option("done"),
    }
    assert swarm_labels(st, 1, "left") == ["claw-1"]
    assert swarm_labels(st, 2, "right") == []
    assert swarm_labels(st, 3, "left") == ["claw-3"]
    assert labels(st.gs_discard) == ["claw-2", "tongue-1"]
    assert marines(st) == ["Sergeant Gideon", "Brother Claudio", "Brother Leon"]


def test_genetorium_stops_after_four() -> None:
    claws = [f"claw-{i}" for i in range(1, 7)]
    st = build_state(THREE, swarms={(1, "left"): claws}, location="Genetorium")
    answers = [Option("target", (1, "left"))] * 4
    seen = drive(panel(engine_for(st, dice=[1]), "Sergeant Gideon"), answers)
    assert len(seen) == 4
    assert len(swarm_labels(st, 1, "left")) == 2


@pytest.mark.parametrize("face", [0, 4, 5])
def test_genetorium_without_a_skull_slays_the_activating_marine(face: int) -> None:
    rows = [("Sergeant Gideon", "L"), ("Brother Claudio", "R", 2), ("Brother Leon", "L")]
    st = build_state(rows, swarms={(1, "left"): ["claw-1"]}, location="Genetorium")
    assert drive(panel(engine_for(st, dice=[face]), "Brother Claudio")) == []
    assert st.slain == ["Brother Claudio"]
    assert st.supply == 12
    assert st.genestealers_in_formation() == 1


# -- Launch Control Room and Toxin Pumping Station (final) -----------------------------------

LAUNCH = "Launch Control Room"
PLACE = Option("yes", ("place 1 support token on the location card",))
ROLL = Option("no", ("roll the die",))


def launch_state() -> GameState:
    return build_state(
        THREE,
        swarms={(2, "right"): ["claw-1"]},
        terrain={(3, "left"): ["Control Panel"]},
        blips=(["head-1"], ["head-2"]),
        location=LAUNCH,
    )


def test_launch_control_room_tokens_then_a_low_enough_roll_wins() -> None:
    st = launch_state()
    engine = engine_for(st, dice=[2, 2])
    drive(panel(engine, "Brother Leon"), [PLACE])
    assert st.location_tokens == 1 and st.supply == 11 and st.tokens_in_play() == 12
    drive(panel(engine, "Brother Leon"), [ROLL])  # 2 > 1 token: nothing
    assert st.outcome is None
    drive(panel(engine, "Brother Leon"), [PLACE])
    assert st.location_tokens == 2
    drive(panel(engine, "Brother Leon"), [ROLL])  # 2 <= 2: the marines win
    assert st.outcome == "victory"


def test_launch_control_room_win_ends_the_action_at_once() -> None:
    st = launch_state()
    st.location_tokens = 3
    st.supply = 9
    engine = engine_for(st, dice=[3])
    seen = drive(
        engine.move_activate_action("red", "Onward, Brothers!"),
        [
            Option("done"),
            Option("done"),
            Option("activate", ("Brother Leon", "Control Panel")),
            ROLL,
        ],
    )
    assert [d.kind for d in seen] == ["move", "facing", "activate", "choose"]
    assert st.outcome == "victory"


def test_launch_control_room_higher_roll_does_not_win() -> None:
    st = launch_state()
    st.location_tokens = 3
    st.supply = 9
    drive(panel(engine_for(st, dice=[4]), "Brother Leon"), [ROLL])
    assert st.outcome is None
    assert st.location_tokens == 3


def test_launch_control_room_empty_supply_must_roll_and_zero_beats_zero_tokens() -> None:
    rows = [("Sergeant Gideon", "L", 12), ("Brother Claudio", "R"), ("Brother Leon", "L")]
    st = build_state(
        rows, swarms={(2, "right"): ["claw-1"]}, blips=(["head-1"], []), location=LAUNCH
    )
    assert drive(panel(engine_for(st, dice=[0]), "Brother Leon")) == []
    assert st.outcome == "victory"


def toxin_state(**kw) -> GameState:  # type: ignore[no-untyped-def]
    return build_state(THREE, location="Toxin Pumping Station", **kw)


def test_toxin_pumping_station_discards_the_roll_from_the_chosen_pile() -> None:
    st = toxin_state(blips=([f"claw-{i}" for i in range(1, 6)], ["claw-6"]))
    seen = drive(panel(engine_for(st, dice=[3]), "Brother Claudio"), [Option("pile", ("left",))])
    assert [d.kind for d in seen] == ["target_pile"]
    assert pile(st, LEFT) == ["claw-4", "claw-5"]
    assert pile(st, RIGHT) == ["claw-6"]
    assert labels(st.gs_discard) == ["claw-1", "claw-2", "claw-3"]
    assert st.outcome is None


def test_toxin_pumping_station_wins_only_by_clearing() -> None:
    st = toxin_state(blips=(["claw-1", "claw-2"], []))
    assert drive(panel(engine_for(st, dice=[4]), "Brother Claudio")) == []
    assert st.blips == [[], []]
    assert st.outcome == "victory"


def test_toxin_pumping_station_empty_piles_but_a_genestealer_left_is_no_win() -> None:
    st = toxin_state(blips=(["claw-1", "claw-2"], []), swarms={(1, "left"): ["tongue-1"]})
    drive(panel(engine_for(st, dice=[5]), "Brother Claudio"))
    assert st.blips == [[], []]
    assert st.outcome is None


def test_toxin_pumping_station_a_zero_discards_nothing() -> None:
    st = toxin_state(blips=(["claw-1"], ["claw-2"]))
    assert drive(panel(engine_for(st, dice=[0]), "Brother Claudio")) == []
    assert pile(st, LEFT) == ["claw-1"] and pile(st, RIGHT) == ["claw-2"]


# -- the Artefact, end to end -------------------------------------------------------------------


def artefact_taken(claudio_tokens: int = 0) -> tuple[GameState, list[Option]]:
    """Gideon takes the Artefact in front of him with Run and Gun; a 2-card swarm waits right
    of Claudio, who faces it."""
    rows = [("Sergeant Gideon", "L"), ("Brother Claudio", "R", claudio_tokens)]
    st = build_state(
        rows,
        swarms={(2, "right"): ["claw-1", "claw-2"]},
        terrain={(1, "left"): ["Artefact"]},
        blips=(["head-1"], ["head-2"]),
        location="Wrath of Baal Chapel",
    )
    answers = [Option("done"), Option("done"), Option("activate", ("Sergeant Gideon", "Artefact"))]
    return st, answers


def test_artefact_is_taken_into_the_hand_and_saves_a_marine_once() -> None:
    st, answers = artefact_taken()
    engine = engine_for(st, dice=[1])
    drive(engine.move_activate_action("green", "Run and Gun"), answers)
    assert st.artefact == 1
    assert terrain_map(st) == {}
    # The swarm of 2 rolls 1 against Claudio: 1 <= 2 would slay him; seat 1 discards the
    # Artefact and the attack misses.
    seen = drive(
        engine.genestealer_attack(), [Option("yes", ("discard the Artefact: the attack misses",))]
    )
    assert [(d.seat, d.kind) for d in seen] == [(1, "choose")]
    assert marines(st) == ["Sergeant Gideon", "Brother Claudio"]
    assert st.artefact is None
    assert engine.die.remaining == []  # type: ignore[attr-defined]


def test_artefact_is_offered_after_rerolls_and_may_be_kept() -> None:
    st, answers = artefact_taken(claudio_tokens=1)
    engine = engine_for(st, dice=[0, 2])
    drive(engine.move_activate_action("green", "Run and Gun"), answers)
    seen = drive(engine.genestealer_attack(), [Option("reroll"), Option("no")])
    # The reroll (2, still <= 2) comes first; then the Artefact; kept: Claudio dies.
    assert [d.kind for d in seen] == ["reroll", "choose"]
    assert st.slain == ["Brother Claudio"]
    assert st.artefact == 1
    assert st.tokens_in_play() == 12


def test_artefact_is_not_offered_when_the_attack_misses_anyway() -> None:
    st, answers = artefact_taken()
    engine = engine_for(st, dice=[5])
    drive(engine.move_activate_action("green", "Run and Gun"), answers)
    assert drive(engine.genestealer_attack()) == []
    assert st.artefact == 1
    assert marines(st) == ["Sergeant Gideon", "Brother Claudio"]
