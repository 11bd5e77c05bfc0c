"""Manifests: an expansion says how its cards join the decks (add, replace named cards, or
bring its own deck), in TOML or Python; a variant's removals take named cards out. Every
mistake is one line naming the manifest or the card."""

from __future__ import annotations

from pathlib import Path

import pytest

from deathangel.cards.catalogue import EffectCatalogue
from deathangel.cards.load import base_card_dir, load_database, read_source
from deathangel.cards.manifest import Join, Manifest, check_manifest, read_manifest
from deathangel.errors import CardDataError

EVENT = """
[[event]]
name = "{name}"
instinct = false
spawns = [{{ size = "minor", color = "red" }}, {{ size = "minor", color = "green" }}]
text = "Every marine flips."
effect = {{ name = "flip_all" }}
"""

LOCATION = """
[[location]]
name = "Flooded Sump"
deck = "2"
blips_left = 6
blips_right = 6
terrain = [
    { side = "left", terrain = "Door", position = 1, count_from = "top" },
    { side = "right", terrain = "Corridor", position = 1, count_from = "bottom" },
]
"""


def plugin_cards(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "cards"
    folder.mkdir(exist_ok=True)
    (folder / "cards.toml").write_text(text, encoding="utf-8")
    return folder


def load(tmp_path: Path, text: str, joins: dict[str, Join], remove: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    source = read_source("extra", [plugin_cards(tmp_path, text)], joins)
    return load_database(
        [base_card_dir()], catalogue=EffectCatalogue(), sources=[source], remove=remove
    )


def test_add_is_the_default(tmp_path: Path) -> None:
    db = load(tmp_path, EVENT.format(name="Quiet Hum"), {})
    assert db.counts()["events"] == 31
    assert db.events[-1].name == "Quiet Hum"


def test_replace_takes_the_named_cards_out(tmp_path: Path) -> None:
    db = load(tmp_path, LOCATION, {"locations": Join("replace", ("Black Holds",))})
    deck_2 = [loc.name for loc in db.locations if loc.deck == "2"]
    assert deck_2 == ["Dark Catacombs", "Teleportarium", "Flooded Sump"]


def test_own_brings_a_whole_deck(tmp_path: Path) -> None:
    text = EVENT.format(name="Quiet Hum") + EVENT.format(name="Loud Hum")
    db = load(tmp_path, text, {"events": Join("own")})
    assert [e.name for e in db.events] == ["Quiet Hum", "Loud Hum"]
    assert len(db.teams) == 6  # other decks untouched


def test_own_genestealers_replaces_the_icon_counts(tmp_path: Path) -> None:
    db = load(tmp_path, "[genestealers.icons]\nclaw = 20\n", {"genestealers": Join("own")})
    assert dict(db.genestealers.icons) == {"claw": 20}


def test_replacing_a_card_that_is_not_there_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(
        CardDataError,
        match=r"plugin 'extra': manifest: decks.locations: replaces 'Black Hold', but no card "
        r"of that name came before .*did you mean 'Black Holds'",
    ):
        load(tmp_path, LOCATION, {"locations": Join("replace", ("Black Hold",))})


def test_a_removed_card_is_gone_and_references_to_it_are_reported(tmp_path: Path) -> None:
    db = load(tmp_path, EVENT.format(name="Quiet Hum"), {}, remove=("Quiet Hum", "purple"))
    assert "Quiet Hum" not in {e.name for e in db.events}
    assert "purple" not in {t.color for t in db.teams}
    with pytest.raises(CardDataError, match=r"no terrain card named 'Door'"):
        load(tmp_path, LOCATION, {}, remove=("Door",))
    with pytest.raises(CardDataError, match=r"cannot remove 'Dor': no card has that name"):
        load(tmp_path, LOCATION, {}, remove=("Dor",))


def test_a_toml_manifest_reads_short_and_long_joins(tmp_path: Path) -> None:
    path = tmp_path / "manifest.toml"
    path.write_text(
        'api = 1\ntitle = "T"\n[decks]\nevents = "own"\n'
        'locations = { mode = "replace", replace = ["Black Holds"] }\n',
        encoding="utf-8",
    )
    assert read_manifest(path) == Manifest(
        api=1,
        title="T",
        decks={"events": Join("own"), "locations": Join("replace", ("Black Holds",))},
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('title = "T"\n', "'api' must be the hook API version"),
        ('api = 1\nname = "T"\n', "unknown key 'name'"),
        ('api = 1\n[decks]\nevent = "add"\n', "unknown deck 'event' (did you mean 'events'"),
        ('api = 1\n[decks]\nevents = "swap"\n', "mode must be one of add, replace, own"),
        ('api = 1\n[decks]\nevents = "replace"\n', "mode 'replace' needs the names"),
        (
            'api = 1\n[decks]\nevents = { mode = "own", replace = ["X"] }\n',
            "'replace' names cards only with mode 'replace'",
        ),
    ],
)
def test_a_bad_manifest_is_one_line_naming_the_file(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "manifest.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardDataError) as caught:
        read_manifest(path)
    assert "manifest.toml" in str(caught.value) and problem in str(caught.value)


def test_a_manifest_built_in_python_is_checked_too() -> None:
    with pytest.raises(CardDataError, match="unknown deck 'cards'"):
        check_manifest(Manifest(api=1, decks={"cards": Join()}), "here")
    with pytest.raises(CardDataError, match=r"must be a deathangel\.cards\.manifest\.Manifest"):
        check_manifest({"api": 1}, "here")
