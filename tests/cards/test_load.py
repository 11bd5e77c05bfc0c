"""The card loader: the base-game TOML against the reference card list, round trips through
TOML, and one broken-file test per kind of mistake a modder makes.

Expected numbers come from ``tests/data/base-game.json`` (a copy of the shared reference,
kept in the repo so a fresh clone tests alone; (the transcription of the
printed cards), not from the TOML under test, so a typo in either shows up as a mismatch.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from support import reference, reference_counts

from deathangel.cards.catalogue import BASE_EFFECTS, EffectCatalogue, EffectSpec
from deathangel.cards.check import build_database
from deathangel.cards.convert import dump_file, dumps
from deathangel.cards.files import CardFile
from deathangel.cards.load import base_card_dir, load_base, load_database, read_file
from deathangel.cards.model import CardDatabase, Effect, TerrainPlacement
from deathangel.errors import CardDataError
from deathangel.plugins.ruleset import load_ruleset

BASE = base_card_dir()
BASE_FILES = sorted(BASE.glob("*.toml"))


@pytest.fixture(scope="module")
def ref() -> dict[str, Any]:
    return reference()


@pytest.fixture(scope="module")
def db() -> CardDatabase:
    return load_base()


def placements(raw: list[dict[str, Any]]) -> tuple[TerrainPlacement, ...]:
    return tuple(
        TerrainPlacement(
            side=p["side"], terrain=p["terrain"], position=p["position"], count_from=p["count_from"]
        )
        for p in raw
    )


# -- fidelity to the reference -----------------------------------------------------------------


def test_base_files_are_the_six_documented_ones() -> None:
    names = [p.name for p in BASE_FILES]
    assert names == [
        "events.toml",
        "genestealers.toml",
        "locations.toml",
        "setup_locations.toml",
        "teams.toml",
        "terrain.toml",
    ]
    for path in BASE_FILES:
        assert path.read_text(encoding="utf-8").startswith("#"), f"{path.name} needs a header"


def test_counts_match_reference(db: CardDatabase, ref: dict[str, Any]) -> None:
    assert db.counts() == reference_counts()
    # and the published totals (RULES §1), in case the reference itself lost a card
    assert db.counts() == {
        "marines": 12,
        "actions": 18,
        "genestealers": 36,
        "brood_lords": 2,
        "events": 30,
        "locations": 22,
        "terrain": 8,
    }
    assert len(db.events) == 24
    assert db.support_tokens == ref["support_tokens"] == 12


def test_teams_match_reference(db: CardDatabase, ref: dict[str, Any]) -> None:
    assert [t.color for t in db.teams] == [t["color"] for t in ref["combat_teams"]]
    for team, rt in zip(db.teams, ref["combat_teams"], strict=True):
        assert [(m.name, m.range) for m in team.marines] == [
            (m["name"], m["range"]) for m in rt["marines"]
        ], team.color
        assert [(a.name, a.initiative, a.kind, a.text) for a in team.actions] == [
            (a["name"], a["initiative"], a["type"], a["effect"]) for a in rt["actions"]
        ], team.color
        assert all(a.effect is not None for a in team.actions), team.color
    initiatives = sorted(a.initiative for t in db.teams for a in t.actions)
    assert initiatives == list(range(1, 19))


def test_genestealers_and_brood_lords_match_reference(
    db: CardDatabase, ref: dict[str, Any]
) -> None:
    assert dict(db.genestealers.icons) == ref["genestealer_deck"]["icons"]
    assert [(b.name, list(b.icons)) for b in db.brood_lords] == [
        (b["name"], b["icons"]) for b in ref["brood_lords"]
    ]


def test_terrain_matches_reference(db: CardDatabase, ref: dict[str, Any]) -> None:
    assert [(t.name, t.color, t.activatable, t.text) for t in db.terrain] == [
        (t["name"], t["spawn_color"], t["activatable"], t["effect"] or "") for t in ref["terrain"]
    ]
    for t in db.terrain:
        assert (t.effect is not None) == t.activatable, t.name


def test_setup_locations_match_reference(db: CardDatabase, ref: dict[str, Any]) -> None:
    assert len(db.setup_locations) == len(ref["setup_locations"])
    for s, rs in zip(db.setup_locations, ref["setup_locations"], strict=True):
        assert s.name == rs["name"]
        assert list(s.players) == rs["players"], s.name
        assert dict(s.teams_per_player) == {
            int(k): v for k, v in rs["combat_teams_per_player"].items()
        }, s.name
        for players in s.players:
            assert players * s.teams_per_player[players] * 2 == rs["marines"], s.name
        assert (s.major_spawn, s.minor_spawn) == (rs["major_spawn"], rs["minor_spawn"]), s.name
        assert (s.blips_left, s.blips_right) == (rs["blips_left"], rs["blips_right"]), s.name
        assert list(s.location_deck) == rs["location_deck_top_to_bottom"], s.name
        assert s.terrain == placements(rs["terrain"]), s.name
    for players in range(1, 7):
        assert db.setup_location_for(players).name in {s["name"] for s in ref["setup_locations"]}


def test_locations_match_reference(db: CardDatabase, ref: dict[str, Any]) -> None:
    by_name = {loc.name: loc for loc in db.locations}
    assert sorted(by_name) == sorted(loc["name"] for loc in ref["locations"])
    for rl in ref["locations"]:
        loc = by_name[rl["name"]]
        assert loc.deck == rl["deck"], loc.name
        assert (loc.blips_left, loc.blips_right) == (rl["blips_left"], rl["blips_right"]), loc.name
        assert loc.final == rl["final"], loc.name
        assert loc.ability == rl["ability"], loc.name
        assert (loc.effect is not None) == (rl["ability"] is not None), loc.name
        assert loc.text == rl["effect"], loc.name
        assert loc.terrain == placements(rl["terrain"]), loc.name
    decks = sorted(loc.deck for loc in db.locations)
    assert decks == sorted([d for d in ("1A", "1B", "1C", "2", "3", "4") for _ in range(3)])


def test_events_match_reference(db: CardDatabase, ref: dict[str, Any]) -> None:
    def facts(e: Any) -> tuple[Any, ...]:
        return (
            e.name,
            e.copies,
            e.instinct,
            [(s.size, s.color) for s in e.spawns],
            None if e.move is None else (e.move.kind, e.move.icon),
            e.text,
        )

    def ref_facts(e: dict[str, Any]) -> tuple[Any, ...]:
        return (
            e["name"],
            e["copies"],
            e["instinct"],
            [(s["size"], s["terrain_color"]) for s in e["spawns"]],
            None if e["move"] is None else (e["move"]["kind"], e["move"]["icon"]),
            e["effect"],
        )

    assert [facts(e) for e in db.events] == [ref_facts(e) for e in ref["events"]]


EXPECTED_EFFECTS = [
    (
        "Block",
        Effect(
            "defence_face_misses",
            {"marine": "Sergeant Gideon", "faces": [1, 2, 3], "counter": False},
        ),
    ),
    (
        "Counter Attack",
        Effect(
            "defence_face_misses",
            {"marine": "Sergeant Lorenzo", "faces": [1, 2, 3], "counter": True},
        ),
    ),
    ("Dead Aim", Effect("attack_face_slays", {"faces": [4], "up_to": 3})),
    (
        "Heroic Charge",
        Effect(
            "heroic_charge",
            {"marine": "Brother Claudio", "up_to": 3, "reach": 1, "death_faces": [0]},
        ),
    ),
    ("Full Auto", Effect("multiple_attacks", {"marine": "Brother Leon", "attacks": 3})),
    ("Lead by Example", Effect("slay_grants_support", {"times": 1})),
    ("Defensive Stance", Effect("defensive_reroll", {"faces": [0]})),
    ("Onward, Brothers!", Effect("door_bonus_token", {"tokens": 1})),
    ("Psionic Attack", Effect("skull_chains_attack", {"marine": "Lexicanium Calistarius"})),
    ("Flamer Attack", Effect("attack_slays_face_value", {"marine": "Brother Zael"})),
    ("Psychic Assault", Effect("roll_or_die", {"faces": [0, 1]})),
    ("Cleansing Flames", Effect("roll_to_slay_engaged", {"count": 2})),
    ("Full Scan", Effect("discard_blip_top", {"count": 1})),
    ("Secret Route", Effect("door_tokens", {"count": 2})),
    ("The Swarm", Effect("reinforce_blips", {"count": 2})),
    ("Out of Thin Air", Effect("spawn_behind_marine", {"count": 2})),
    ("Main Corridor", Effect("spawn_at_terrain", {"terrain": "Corridor", "count": 2})),
    ("Maintenance Tunnels", Effect("replace_terrain", {"old": "Control Panel", "new": "Corridor"})),
    ("Service Shaft", Effect("face_all", {"side": "right"})),
    ("Promethium Tank", Effect("promethium_blast", {"faces": [0]})),
    ("Core Cogitator", Effect("limit_spawn", {"max": 1})),
    ("Genetorium", Effect("purge_or_die", {"count": 4})),
    ("Genestealer Lair", Effect("lair")),
    ("Launch Control Room", Effect("launch_control")),
    ("Toxin Pumping Station", Effect("pump_toxin")),
    ("Wrath of Baal Chapel", Effect("place_terrain_anywhere", {"terrain": "Artefact"})),
    ("Munitorium", Effect("support_to_marines", {"count": 2})),
    ("Dark Catacombs", Effect("spawn_behind_unsupported", {"count": 1})),
    ("Black Holds", Effect("spawn_onto_swarm", {"count": 2})),
    ("Hibernation Cluster", Effect("blips_per_marine", {"count": 1})),
    ("Lower Accessway", Effect("spawn_behind_top_marine", {"count": 2})),
    ("Artefact", Effect("take_artefact")),
    ("Control Panel", Effect("use_control_panel")),
    ("Door", Effect("door_token")),
    ("Spore Chimney", Effect("seal_chimney")),
]


def effects_by_card(db: CardDatabase) -> dict[str, list[Effect | None]]:
    out: dict[str, list[Effect | None]] = {}
    cards: list[Any] = [a for t in db.teams for a in t.actions]
    cards += [*db.terrain, *db.locations, *db.events]
    for card in cards:
        out.setdefault(card.name, []).append(card.effect)
    return out


@pytest.mark.parametrize(("card", "effect"), EXPECTED_EFFECTS, ids=[c for c, _ in EXPECTED_EFFECTS])
def test_effects_as_specified(db: CardDatabase, card: str, effect: Effect) -> None:
    assert effects_by_card(db)[card] and all(e == effect for e in effects_by_card(db)[card])


def test_victory_conditions(db: CardDatabase) -> None:
    victories = {loc.name: loc.victory for loc in db.locations if loc.victory is not None}
    assert victories == {"Genestealer Lair": Effect("brood_lords_slain")}
    finals = sorted(loc.name for loc in db.locations if loc.final)
    assert finals == ["Genestealer Lair", "Launch Control Room", "Toxin Pumping Station"]


def test_every_effect_is_in_the_catalogue_with_exact_params(db: CardDatabase) -> None:
    catalogue = EffectCatalogue()
    effects = [e for group in effects_by_card(db).values() for e in group if e is not None]
    effects += [loc.victory for loc in db.locations if loc.victory is not None]
    assert len(effects) == 18 + 24 + 5 + 18 + 1
    for effect in effects:
        spec = catalogue.get(effect.name)
        assert spec is not None, effect.name
        assert set(effect.params) == set(spec.params), effect.name


# -- loading behaviour -------------------------------------------------------------------------


def test_load_base_is_loaded_once() -> None:
    assert load_base() is load_base()


def test_ruleset_includes_the_base_game() -> None:
    everything = load_ruleset().db
    base = load_base()
    assert all(team in everything.teams for team in base.teams)
    assert all(event in everything.events for event in base.events)
    assert all(loc in everything.locations for loc in base.locations)


def test_plugin_directory_merges_with_base(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    (plugin / "extra.toml").write_text(
        """
[genestealers.icons]
claw = 2

[[terrain]]
name = "Bulkhead"
color = "yellow"
activatable = true
text = "Activate: place 1 support token here."
effect = { name = "door_token" }

[[location]]
name = "Plasma Reactor"
deck = "2"
blips_left = 5
blips_right = 5
terrain = [{ side = "left", terrain = "Bulkhead", position = 1, count_from = "top" }]

[[event]]
name = "Ambush"
copies = 3
instinct = false
spawns = [{ size = "major", color = "red" }]
text = "Every marine turns around."
effect = { name = "flip_all" }
""",
        encoding="utf-8",
    )
    merged = load_database([BASE, plugin], catalogue=EffectCatalogue())
    base = load_base().counts()
    assert merged.counts() == {
        **base,
        "genestealers": base["genestealers"] + 2,
        "terrain": base["terrain"] + 1,
        "locations": base["locations"] + 1,
        "events": base["events"] + 3,
    }
    assert merged.genestealers.icons["claw"] == 11
    assert merged.terrain_card("Bulkhead").effect == Effect("door_token")
    # alone, the plugin's event would spawn on red, a colour none of its terrain has
    with pytest.raises(CardDataError, match=r"extra\.toml: event 'Ambush': field 'spawns\[0\]"):
        load_database([plugin], catalogue=EffectCatalogue())


def test_plugin_effects_extend_the_catalogue(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    (plugin / "events.toml").write_text(
        '[[event]]\nname = "Psychic Scream"\ninstinct = true\n'
        'spawns = [{ size = "minor", color = "red" }]\ntext = "Each marine loses 1 token."\n'
        'effect = { name = "scream", loss = 1, icon = "claw" }\n',
        encoding="utf-8",
    )
    with pytest.raises(CardDataError, match="unknown effect 'scream'"):
        load_database([BASE, plugin], catalogue=EffectCatalogue())
    spec = EffectSpec(
        name="scream", timing="event", params={"loss": "int", "icon": "icon"}, summary=""
    )
    catalogue = EffectCatalogue([*BASE_EFFECTS, spec])
    merged = load_database([BASE, plugin], catalogue=catalogue)
    assert merged.events[-1].effect == Effect("scream", {"loss": 1, "icon": "claw"})


def test_support_tokens_set_twice_names_both_files(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    (plugin / "game.toml").write_text("support_tokens = 20\n", encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        load_database([BASE, plugin], catalogue=EffectCatalogue())
    msg = str(info.value)
    assert "game.toml" in msg and "genestealers.toml" in msg and "support_tokens" in msg


def test_duplicate_across_directories_names_both_files(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    (plugin / "more.toml").write_text(
        '[[terrain]]\nname = "Corridor"\ncolor = "green"\nactivatable = false\n', encoding="utf-8"
    )
    with pytest.raises(CardDataError) as info:
        load_database([BASE, plugin], catalogue=EffectCatalogue())
    msg = str(info.value)
    assert msg.startswith(
        f"{plugin / 'more.toml'}: terrain 'Corridor': field 'name': "
        "duplicate terrain name 'Corridor': already used by terrain 'Corridor' in "
    ), msg
    assert msg.endswith("terrain.toml"), msg


def test_missing_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="does not exist"):
        load_database([tmp_path / "nowhere"], catalogue=EffectCatalogue())


# -- round trips -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", BASE_FILES, ids=[p.name for p in BASE_FILES])
def test_file_round_trip(path: Path, tmp_path: Path) -> None:
    original = read_file(path)
    copy = tmp_path / path.name
    dump_file(copy, original, header=f"round trip of {path.name}")
    again = read_file(copy)
    assert again == original
    assert copy.read_text(encoding="utf-8").startswith(f"# round trip of {path.name}\n")
    # writing is deterministic: the second generation is byte-identical to the first
    assert dumps(again) == dumps(original)


def test_database_round_trip(tmp_path: Path) -> None:
    db = load_base()
    dump_file(tmp_path / "all.toml", db)
    assert load_database([tmp_path], catalogue=EffectCatalogue()) == db


def test_build_database_from_files_equals_loading() -> None:
    files = [read_file(p) for p in BASE_FILES]
    assert all(isinstance(f, CardFile) for f in files)
    assert build_database(files, catalogue=EffectCatalogue()) == load_base()


# -- broken files ------------------------------------------------------------------------------


def corrupt(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A copy of the base cards with the first ``old`` in file ``name`` replaced by ``new``."""
    cards = tmp_path / "cards"
    shutil.copytree(BASE, cards)
    path = cards / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test setup: {old!r} not found in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return cards


def load_error(cards: Path) -> str:
    with pytest.raises(CardDataError) as info:
        load_database([cards], catalogue=EffectCatalogue())
    msg = str(info.value)
    assert "\n" not in msg, "errors must be one line"
    return msg


# (file, old text, new text, card label, field, fragment of the problem)
BROKEN = {
    "unknown field": (
        "events.toml",
        'name = "Full Scan"\n',
        'name = "Full Scan"\ncolour = "red"\n',
        "event 'Full Scan'",
        "colour",
        "unknown field",
    ),
    "misspelt field": (
        "terrain.toml",
        'name = "Door"\ncolor = "yellow"',
        'name = "Door"\ncolour = "yellow"',
        "terrain 'Door'",
        "colour",
        "did you mean 'color'?",
    ),
    "missing field": (
        "terrain.toml",
        'name = "Door"\ncolor = "yellow"\n',
        'name = "Door"\n',
        "terrain 'Door'",
        "color",
        "required field is missing",
    ),
    "wrong type": (
        "teams.toml",
        'name = "Brother Noctis"\nrange = 2',
        'name = "Brother Noctis"\nrange = "2"',
        "marine 'Brother Noctis' (team 'green')",
        "range",
        "expected an integer, got the string '2'",
    ),
    "float initiative": (
        "teams.toml",
        "initiative = 12",
        "initiative = 12.0",
        "action 'Run and Gun' (team 'green')",
        "initiative",
        "expected an integer",
    ),
    "string for array": (
        "setup_locations.toml",
        'location_deck = ["2", "3", "4"]',
        'location_deck = "234"',
        "setup location 'Void Lock - 1 player'",
        "location_deck",
        "expected an array",
    ),
    "bad literal": (
        "teams.toml",
        'kind = "support"',
        'kind = "suport"',
        "action 'Block' (team 'green')",
        "kind",
        "did you mean 'support'?",
    ),
    "bad colour": (
        "events.toml",
        'name = "Full Scan"\ncopies = 2\ninstinct = true\n'
        'spawns = [{ size = "major", color = "red" }',
        'name = "Full Scan"\ncopies = 2\ninstinct = true\n'
        'spawns = [{ size = "major", color = "blue" }',
        "event 'Full Scan'",
        "spawns[0].color",
        "unknown terrain colour 'blue' (expected one of green, yellow, orange, red)",
    ),
    "bad icon": (
        "events.toml",
        'icon = "head"',
        'icon = "heads"',
        "event 'Out of Thin Air'",
        "move.icon",
        "unknown icon 'heads'",
    ),
    "bad terrain reference": (
        "locations.toml",
        'terrain = "Ventilation Duct", position = 2, count_from = "top" }',
        'terrain = "Ventilation Dukt", position = 2, count_from = "top" }',
        "location 'Main Corridor'",
        "terrain[0].terrain",
        "no terrain card named 'Ventilation Dukt' (did you mean 'Ventilation Duct'?)",
    ),
    "bad terrain reference in a setup location": (
        "setup_locations.toml",
        '{ side = "right", terrain = "Corridor", position = 3, count_from = "bottom" }',
        '{ side = "right", terrain = "Airlock", position = 3, count_from = "bottom" }',
        "setup location 'Void Lock - 5 players'",
        "terrain[3].terrain",
        "no terrain card named 'Airlock'",
    ),
    "unknown deck": (
        "setup_locations.toml",
        '"1C"',
        '"1D"',
        "setup location 'Void Lock - 2 or 4 players'",
        "location_deck[0]",
        "no location belongs to deck '1D'",
    ),
    "unknown effect name": (
        "events.toml",
        'name = "discard_blip_top"',
        'name = "discard_blip_tops"',
        "event 'Full Scan'",
        "effect.name",
        "unknown effect 'discard_blip_tops' (did you mean 'discard_blip_top'",
    ),
    "wrong param kind": (
        "teams.toml",
        "faces = [4], up_to = 3",
        'faces = [4], up_to = "3"',
        "action 'Dead Aim' (team 'green')",
        "effect.up_to",
        "expected an integer, got the string '3'",
    ),
    "int for int list": (
        "teams.toml",
        "faces = [4], up_to = 3",
        "faces = 4, up_to = 3",
        "action 'Dead Aim' (team 'green')",
        "effect.faces",
        "expected an array of integers",
    ),
    "unknown marine param": (
        "teams.toml",
        'marine = "Brother Leon"',
        'marine = "Brother Lion"',
        "action 'Full Auto' (team 'red')",
        "effect.marine",
        "no marine named 'Brother Lion' (did you mean 'Brother Leon'",
    ),
    "unknown deck at the bottom": (
        "setup_locations.toml",
        'location_deck = ["2", "3", "4"]',
        'location_deck = ["2", "3", "5"]',
        "setup location 'Void Lock - 1 player'",
        "location_deck[2]",
        "no location belongs to deck '5'",
    ),
    "unknown marine param of a defence card": (
        "teams.toml",
        'marine = "Sergeant Lorenzo"',
        'marine = "Brother Lorenzo"',
        "action 'Counter Attack' (team 'blue')",
        "effect.marine",
        "no marine named 'Brother Lorenzo'",
    ),
    "unknown terrain param": (
        "locations.toml",
        'terrain = "Artefact" }',
        'terrain = "Relic" }',
        "location 'Wrath of Baal Chapel'",
        "effect.terrain",
        "no terrain named 'Relic'",
    ),
    "unknown terrain param of an on-entering ability": (
        "locations.toml",
        'effect = { name = "spawn_at_terrain", terrain = "Corridor", count = 2 }',
        'effect = { name = "spawn_at_terrain", terrain = "Catwalk", count = 2 }',
        "location 'Main Corridor'",
        "effect.terrain",
        "no terrain named 'Catwalk'",
    ),
    "bad side param": (
        "locations.toml",
        'side = "right" }',
        'side = "up" }',
        "location 'Service Shaft'",
        "effect.side",
        "expected one of left, right",
    ),
    "extra param": (
        "teams.toml",
        "faces = [4], up_to = 3",
        "faces = [4], up_to = 3, bonus = 1",
        "action 'Dead Aim' (team 'green')",
        "effect.bonus",
        "has no parameter 'bonus'",
    ),
    "missing param": (
        "teams.toml",
        "faces = [4], up_to = 3",
        "faces = [4]",
        "action 'Dead Aim' (team 'green')",
        "effect.up_to",
        "requires parameter 'up_to'",
    ),
    "effect at the wrong timing": (
        "events.toml",
        'effect = { name = "flip_all" }',
        'effect = { name = "teleport" }',
        "event 'Chaos of Battle'",
        "effect.name",
        "works at 'control_panel'",
    ),
    "effect not a table": (
        "events.toml",
        'effect = { name = "flip_all" }',
        'effect = "flip_all"',
        "event 'Chaos of Battle'",
        "effect",
        "expected an inline table",
    ),
    "duplicate initiative": (
        "teams.toml",
        "initiative = 12",
        "initiative = 1",
        "action 'Run and Gun' (team 'green')",
        "initiative",
        "duplicate initiative 1: already used by action 'Block' (team 'green')",
    ),
    "initiative below 1": (
        "teams.toml",
        "initiative = 12",
        "initiative = 0",
        "action 'Run and Gun' (team 'green')",
        "initiative",
        "at least 1",
    ),
    "range above 3": (
        "teams.toml",
        'name = "Brother Noctis"\nrange = 2',
        'name = "Brother Noctis"\nrange = 4',
        "marine 'Brother Noctis' (team 'green')",
        "range",
        "range must be 0 to 3, got 4",
    ),
    "duplicate marine": (
        "teams.toml",
        'name = "Brother Goriel"',
        'name = "Brother Noctis"',
        "marine 'Brother Noctis' (team 'yellow')",
        "name",
        "duplicate marine name 'Brother Noctis'",
    ),
    "duplicate action": (
        "teams.toml",
        'name = "Overwatch"',
        'name = "Block"',
        "action 'Block' (team 'red')",
        "name",
        "duplicate action card name 'Block'",
    ),
    "duplicate team": (
        "teams.toml",
        'color = "purple"',
        'color = "green"',
        "team 'green'",
        "color",
        "duplicate team colour 'green'",
    ),
    "duplicate terrain": (
        "terrain.toml",
        'name = "Dark Corner"',
        'name = "Corridor"',
        "terrain 'Corridor'",
        "name",
        "duplicate terrain name 'Corridor'",
    ),
    "duplicate location": (
        "locations.toml",
        'name = "Apothecarion"',
        'name = "Munitorium"',
        "location 'Munitorium'",
        "name",
        "duplicate location name 'Munitorium'",
    ),
    "activatable terrain without effect": (
        "terrain.toml",
        'effect = { name = "door_token" }\n',
        "",
        "terrain 'Door'",
        "effect",
        "needs an effect",
    ),
    "passive terrain with effect": (
        "terrain.toml",
        'name = "Corridor"\ncolor = "green"\nactivatable = false\n',
        'name = "Corridor"\ncolor = "green"\nactivatable = false\n'
        'effect = { name = "door_token" }\n',
        "terrain 'Corridor'",
        "effect",
        "not activatable cannot have an effect",
    ),
    "ability without effect": (
        "locations.toml",
        'effect = { name = "teleport" }\n',
        "",
        "location 'Teleportarium'",
        "effect",
        "needs an effect",
    ),
    "effect without ability": (
        "locations.toml",
        'ability = "control_panel"\neffect = { name = "teleport" }',
        'effect = { name = "teleport" }',
        "location 'Teleportarium'",
        "ability",
        "needs an ability",
    ),
    "teams_per_player key": (
        "setup_locations.toml",
        '"2" = 2',
        '"two" = 2',
        "setup location 'Void Lock - 2 or 4 players'",
        "teams_per_player.two",
        "not a whole number",
    ),
    "nameless card": (
        "events.toml",
        '[[event]]\nname = "Surrounded"\n',
        "[[event]]\n",
        "event[0]",
        "name",
        "required field is missing",
    ),
}


@pytest.mark.parametrize(
    ("file", "old", "new", "card", "field", "problem"), BROKEN.values(), ids=list(BROKEN)
)
def test_broken_file_names_file_card_and_field(
    tmp_path: Path, file: str, old: str, new: str, card: str, field: str, problem: str
) -> None:
    cards = corrupt(tmp_path, file, old, new)
    msg = load_error(cards)
    assert msg.startswith(str(cards / file) + ": "), msg
    assert f": {card}: " in msg, msg
    assert f": field '{field}': " in msg, msg
    assert problem in msg, msg


def test_team_with_two_actions(tmp_path: Path) -> None:
    block = '[[team.action]]\nname = "Run and Gun"\ninitiative = 12\nkind = "move_activate"\n'
    cards = corrupt(tmp_path, "teams.toml", block, block.replace("move_activate", "attack"))
    msg = load_error(cards)
    assert msg.startswith(f"{cards / 'teams.toml'}: team 'green': field 'action': "), msg
    assert "exactly 3 action cards, one of each kind" in msg
    # and with the card actually removed
    teams = cards / "teams.toml"
    text = teams.read_text(encoding="utf-8")
    start = text.index('[[team.action]]\nname = "Run and Gun"')
    end = text.index("[[team.action]]", start + 1)
    teams.write_text(text[:start] + text[end:], encoding="utf-8")
    msg = load_error(cards)
    assert "team 'green': field 'action'" in msg and "found 2: support, attack" in msg


def test_spawn_colour_that_no_terrain_has(tmp_path: Path) -> None:
    cards = corrupt(tmp_path, "terrain.toml", 'name = "Corridor"', 'name = "Corridor"')
    terrain = cards / "terrain.toml"
    terrain.write_text(
        terrain.read_text(encoding="utf-8").replace('color = "green"', 'color = "yellow"'),
        encoding="utf-8",
    )
    msg = load_error(cards)
    assert msg.startswith(
        f"{cards / 'events.toml'}: event 'Stalking from the Shadows': field 'spawns[1].color': "
        "no terrain card has colour 'green'"
    ), msg


def test_toml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    cards = corrupt(tmp_path, "terrain.toml", 'name = "Door"', 'name = "Door')
    lines = (cards / "terrain.toml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text == 'name = "Door')
    msg = load_error(cards)
    assert msg.startswith(f"{cards / 'terrain.toml'}: line {line}, column "), msg
    assert "invalid TOML" in msg


def test_unknown_top_level_key(tmp_path: Path) -> None:
    cards = corrupt(tmp_path, "events.toml", "[[event]]", "[[events]]")
    msg = load_error(cards)
    assert msg.startswith(f"{cards / 'events.toml'}: unknown top-level key 'events'"), msg
    assert "did you mean 'event'?" in msg


def test_error_path_is_relative_to_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cards = corrupt(tmp_path, "events.toml", 'icon = "head"', 'icon = "hed"')
    monkeypatch.chdir(tmp_path)
    msg = load_error(cards)
    assert msg.startswith("cards/events.toml: event 'Out of Thin Air': field 'move.icon': "), msg
