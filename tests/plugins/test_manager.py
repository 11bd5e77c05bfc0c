"""Installed plugins are found but off unless named; a broken one is reported with its name,
distribution, file and cause, and everything else still works.

The plugins here are installed for real, as pip leaves a package: modules plus a
``.dist-info`` with ``deathangel`` entry points, in a folder put on the path
(:func:`plugin_kit.fake_site`). In-process tests put it on ``sys.path``; the command-line
tests run ``deathangel`` in a subprocess with it on ``PYTHONPATH``.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from plugin_kit import fake_site

from deathangel.errors import PluginError
from deathangel.plugins.manager import installed_plugins, plugin_manager
from deathangel.plugins.report import describe_plugins
from deathangel.plugins.ruleset import load_ruleset

DIST = "deathangel-testplugins"
VERSION = "0.3"
LABEL = f"({DIST} {VERSION})"

HEADER = """\
    from pathlib import Path
    from deathangel.cards.manifest import Manifest
    from deathangel.plugins import hookimpl

    HERE = Path(__file__).resolve().parent

    @hookimpl
    def deathangel_manifest():
        return Manifest(api=1, title="{title}")
"""


def _cards(folder: str) -> str:
    return f"""
    @hookimpl
    def deathangel_card_dirs():
        return [HERE / "{folder}"]
"""


FINE_EVENT = """\
[[event]]
name = "Quiet Hum"
instinct = false
spawns = [{ size = "minor", color = "red" }, { size = "minor", color = "green" }]
text = "Every marine flips to face the other way."
effect = { name = "flip_all" }
"""

MODULES = {
    "fine_plugin": HEADER.format(title="Fine")
    + _cards("fine_cards")
    + """
    from deathangel.plugins import Changes, VariantSpec

    @hookimpl
    def deathangel_variants():
        return [VariantSpec("easy", "Easier defence.", lambda _: Changes(
            switches={"defence_margin": -1}))]
""",
    "crashing_plugin": """\
    import pathlib, os
    pathlib.Path(os.environ.get("CRASH_MARKER", "/dev/null")).write_text("imported")
    raise RuntimeError("boom at import")
""",
    "badcards_plugin": HEADER.format(title="Bad cards") + _cards("bad_cards"),
    "oldapi_plugin": HEADER.format(title="Old").replace("api=1", "api=0"),
    "newapi_plugin": HEADER.format(title="New").replace("api=1", "api=99"),
    "noman_plugin": """\
    from deathangel.plugins import hookimpl

    @hookimpl
    def deathangel_card_dirs():
        return []
""",
    "badsig_plugin": HEADER.format(title="Bad signature")
    + """
    @hookimpl
    def deathangel_card_dirs(engine):
        return []
""",
    "dupe_plugin": HEADER.format(title="Duplicate") + _cards("dupe_cards"),
    "unknown_plugin": HEADER.format(title="Unknown effect") + _cards("unknown_cards"),
    "typo_plugin": HEADER.format(title="Misspelt parameter") + _cards("typo_cards"),
}
ENTRY_POINTS = {
    "fine": "fine_plugin",
    "crashes": "crashing_plugin",
    "badcards": "badcards_plugin",
    "oldapi": "oldapi_plugin",
    "newapi": "newapi_plugin",
    "noman": "noman_plugin",
    "badsig": "badsig_plugin",
    "dupe": "dupe_plugin",
    "unknown": "unknown_plugin",
    "typo": "typo_plugin",
}
FILES = {
    "fine_cards/events.toml": FINE_EVENT,
    "bad_cards/events.toml": FINE_EVENT.replace('color = "red"', 'color = "blue"'),
    "dupe_cards/team.toml": """\
        [[team]]
        color = "teal"
        [[team.marine]]
        name = "Sergeant Gideon"
        range = 1
        [[team.action]]
        name = "Teal Support"
        initiative = 40
        kind = "support"
        text = "x"
        [[team.action]]
        name = "Teal Move"
        initiative = 41
        kind = "move_activate"
        text = "x"
        [[team.action]]
        name = "Teal Attack"
        initiative = 42
        kind = "attack"
        text = "x"
    """,
    "unknown_cards/events.toml": FINE_EVENT.replace('"flip_all"', '"flip_al"'),
    # `upto` for `up_to`: a misspelt parameter is also a missing one; it must say which.
    "typo_cards/team.toml": """\
        [[team]]
        color = "olive"
        [[team.marine]]
        name = "Brother Olvar"
        range = 1
        [[team.marine]]
        name = "Brother Olwen"
        range = 2
        [[team.action]]
        name = "Olive Support"
        initiative = 40
        kind = "support"
        text = "x"
        [[team.action]]
        name = "Olive Move"
        initiative = 41
        kind = "move_activate"
        text = "x"
        [[team.action]]
        name = "Olive Aim"
        initiative = 42
        kind = "attack"
        text = "x"
        effect = { name = "attack_face_slays", faces = [4], upto = 3 }
    """,
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fake_site(tmp_path_factory.mktemp("site"), DIST, VERSION, MODULES, ENTRY_POINTS, FILES)


@pytest.fixture
def on_path(site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    yield site
    for module in [*MODULES]:
        sys.modules.pop(module, None)


# -- in process ----------------------------------------------------------------------------------


def test_installed_plugins_are_listed_without_being_imported(on_path: Path) -> None:
    found = installed_plugins()
    assert set(ENTRY_POINTS) <= set(found)
    assert found["fine"].distribution == DIST and found["fine"].version == VERSION
    assert found["crashes"].target == "crashing_plugin"
    assert not set(MODULES) & set(sys.modules)


def test_plugins_are_off_unless_named(on_path: Path) -> None:
    base = load_ruleset()
    assert base.plugins == ()
    assert not set(MODULES) & set(sys.modules)
    pm = plugin_manager(["fine"])
    assert [name for name, _ in pm.plugins()] == ["base", "fine"]
    assert set(sys.modules) & set(MODULES) == {"fine_plugin"}
    rules = load_ruleset(["fine"])
    assert rules.plugins == (("fine", VERSION),)
    assert "Quiet Hum" in {e.name for e in rules.db.events}


def test_an_unknown_name_lists_the_installed_plugins(on_path: Path) -> None:
    with pytest.raises(
        PluginError, match=r"no plugin named 'fien' is installed; installed: .*fine"
    ):
        plugin_manager(["fien"])


@pytest.mark.parametrize(
    ("name", "cause"),
    [
        ("crashes", r"cannot be imported: .*crashing_plugin\.py:3: RuntimeError: boom at import"),
        (
            "oldapi",
            r"written for hook API 0, older than this deathangel's API 1: the plugin needs "
            r"a release for API 1, or use a deathangel that speaks API 0$",
        ),
        (
            "newapi",
            r"written for hook API 99, newer than this deathangel's API 1: upgrade deathangel",
        ),
        ("noman", r"declares no manifest"),
        ("badsig", r"deathangel_card_dirs.*'engine'"),
        (
            "badcards",
            r"bad_cards/events\.toml: event 'Quiet Hum': field 'spawns\[0\]\.color': "
            r"unknown terrain colour 'blue'",
        ),
        (
            "dupe",
            r"dupe_cards/team\.toml: marine 'Sergeant Gideon' \(team 'teal'\): field 'name': "
            r"duplicate marine name 'Sergeant Gideon': already used by .*teams\.toml",
        ),
        (
            "unknown",
            r"unknown_cards/events\.toml: event 'Quiet Hum': field 'effect\.name': unknown "
            r"effect 'flip_al' \(did you mean 'flip_all'",
        ),
        (
            "typo",
            r"typo_cards/team\.toml: action 'Olive Aim' \(team 'olive'\): field 'effect\.upto': "
            r"effect 'attack_face_slays' has no parameter 'upto' \(did you mean 'up_to'\?\)",
        ),
    ],
)
def test_a_broken_plugin_is_named_with_its_file_and_cause(
    on_path: Path, name: str, cause: str
) -> None:
    with pytest.raises(PluginError) as caught:
        load_ruleset([name])
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"plugin '{name}' {LABEL}") or f"plugin '{name}' {LABEL}" in message
    assert __import__("re").search(cause, message), message


def test_a_broken_plugin_leaves_the_others_working(on_path: Path) -> None:
    reports = {r.info.name: r for r in describe_plugins()}
    assert reports["fine"].loads
    assert reports["fine"].cards == {"events": 1}
    assert reports["fine"].variants == ("easy",)
    for name in set(ENTRY_POINTS) - {"fine"}:
        assert not reports[name].loads, name
        assert f"'{name}'" in (reports[name].error or "")
    assert load_ruleset(["fine"], variants=["easy"]).switches.defence_margin == -1


# -- the command line ----------------------------------------------------------------------------


def deathangel(
    *args: str, site: Path | None, cwd: Path, **env: str
) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", **env}
    environ.pop("PYTHONPATH", None)
    if site is not None:
        environ["PYTHONPATH"] = str(site)
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env=environ,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_plugins_list_shows_each_plugin_and_whether_it_loads(site: Path, tmp_path: Path) -> None:
    result = deathangel("plugins", "list", site=site, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"fine {LABEL} — Fine: loads" in out
    assert "cards:      1 events" in out and "variants:   easy" in out
    assert f"crashes {LABEL}: DOES NOT LOAD" in out
    assert "RuntimeError: boom at import" in out
    listed = json.loads(deathangel("plugins", "list", "--json", site=site, cwd=tmp_path).stdout)
    assert {p["name"]: p["loads"] for p in listed}["fine"] is True


def test_cards_list_names_the_plugin_of_a_misspelt_parameter(site: Path, tmp_path: Path) -> None:
    result = deathangel("cards", "list", "--with", "typo", site=site, cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"error: plugin 'typo' {LABEL}: ")
    assert "has no parameter 'upto' (did you mean 'up_to'?)" in lines[0]


def test_play_starts_with_a_broken_plugin_installed(site: Path, tmp_path: Path) -> None:
    marker = tmp_path / "imported"
    result = deathangel(
        "play",
        "--seat",
        "1=bot:random",
        "--seed",
        "3",
        site=site,
        cwd=tmp_path,
        CRASH_MARKER=str(marker),
    )
    assert result.returncode == 0, result.stderr
    assert "Game over" in result.stdout
    assert not marker.exists(), "a plugin not named was imported"


def test_play_with_a_broken_plugin_is_one_line_naming_it(site: Path, tmp_path: Path) -> None:
    result = deathangel(
        "play", "--with", "crashes", "--seat", "1=bot:random", site=site, cwd=tmp_path
    )
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"error: plugin 'crashes' {LABEL}: cannot be imported: ")
    assert "crashing_plugin.py" in lines[0] and "RuntimeError: boom at import" in lines[0]


def test_a_save_names_its_plugins_and_resuming_checks_them(site: Path, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    played = deathangel(
        "play",
        "--with",
        "fine",
        "--variant",
        "easy",
        "--seed",
        "5",
        "--save",
        str(save),
        "--input",
        os.devnull,
        site=site,
        cwd=tmp_path,
    )
    assert played.returncode == 2, played.stderr  # the answers ran out: a game to resume
    config = json.loads(save.read_text(encoding="utf-8"))["config"]
    assert config["plugins"] == [["fine", VERSION]]
    assert config["variants"] == [["easy", ""]]
    # Resumed with the plugin at its version: the game goes on (bots finish it).
    resumed = deathangel(
        "play",
        "--resume",
        str(save),
        "--save",
        str(tmp_path / "b.json"),
        "--seat",
        "1=bot:random",
        site=site,
        cwd=tmp_path,
    )
    assert resumed.returncode == 0, resumed.stderr
    # Without the plugin, or with another version of it: one line, nothing played.
    gone = deathangel("play", "--resume", str(save), site=None, cwd=tmp_path)
    assert gone.returncode == 1
    assert gone.stderr.strip().splitlines() == [
        f"error: {save}: the game was played with plugin 'fine' {VERSION}, which is not installed"
    ]
    newer = fake_site(tmp_path / "newer", DIST, "0.4", MODULES, ENTRY_POINTS, FILES)
    other = deathangel("play", "--resume", str(save), site=newer, cwd=tmp_path)
    assert other.returncode == 1
    assert other.stderr.strip().splitlines() == [
        f"error: {save}: the game was played with plugin 'fine' {VERSION}; 0.4 is installed"
    ]
