"""A plugin's effect that raises while a game is played is reported in one line naming the
plugin, the card and the effect; its traceback is kept in a log file for the plugin's author;
a game being played keeps its save as it was before the failing decision.

The "boom" plugin is installed for real (:func:`plugin_kit.fake_site`) and owns the Event deck:
its one Event card's effect raises, so every game fails in round 1's Event phase (the setup's
Event card resolves only its spawn boxes, RULES §3 step 8). The command-line tests run
``deathangel`` in a subprocess with the plugin on ``PYTHONPATH``; the in-process tests check
the typed error and what passes through a plugin's effect untouched.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from plugin_kit import fake_site, plugin_module
from support import build_state, drive, make_engine

from deathangel.cards.catalogue import EffectSpec
from deathangel.engine.decisions import Flow, Option
from deathangel.engine.effects.dispatch import CardAbilities
from deathangel.engine.effects.events import EVENT_EFFECTS
from deathangel.engine.game import card_table
from deathangel.errors import PluginEffectError
from deathangel.plugins.ruleset import load_ruleset
from deathangel.tui.play import load_game

DIST, VERSION = "deathangel-testplugins", "0.3"
LABEL = f"'boom' ({DIST} {VERSION})"

BOOM = """\
    from pathlib import Path
    from deathangel.cards.catalogue import EffectSpec
    from deathangel.cards.manifest import Join, Manifest
    from deathangel.plugins import hookimpl

    HERE = Path(__file__).resolve().parent

    @hookimpl
    def deathangel_manifest():
        return Manifest(api=1, title="Boom", decks={"events": Join("own")})

    @hookimpl
    def deathangel_card_dirs():
        return [HERE / "boom_cards"]

    @hookimpl
    def deathangel_effects():
        return [EffectSpec("vent_jams", "event", {}, "The vent jams (it raises).")]

    def vent_jams(engine, params):
        jam(engine.state.round)
        yield  # a flow, as event effects are

    def jam(round_):
        raise RuntimeError(f"the vent jams in round {round_}")

    @hookimpl
    def deathangel_effect_implementations():
        return {"vent_jams": vent_jams}
"""
VENT = """\
[[event]]
name = "Collapsing Vent"
instinct = false
spawns = [{ size = "minor", color = "red" }, { size = "minor", color = "green" }]
text = "The vent jams."
effect = { name = "vent_jams" }
"""

FAILED = (
    f"error: plugin {LABEL}: effect 'vent_jams' of event 'Collapsing Vent' failed "
    "(round 1, phase event, game seed 5): RuntimeError: the vent jams in round 1; "
    "traceback for the plugin's author in "
)
"""The one line on stderr, up to the log file's path."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fake_site(
        tmp_path_factory.mktemp("site"),
        DIST,
        VERSION,
        {"boom_plugin": BOOM},
        {"boom": "boom_plugin"},
        {"boom_cards/events.toml": VENT},
    )


def deathangel(*args: str, site: Path, data: Path) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    environ["PYTHONPATH"] = str(site)
    environ["DEATHANGEL_DATA_DIR"] = str(data)
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=data.parent,
        env=environ,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def one_line_and_log(result: subprocess.CompletedProcess[str], data: Path) -> str:
    """The failure's single stderr line checked; the log file's text."""
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(FAILED), lines[0]
    log = Path(lines[0][len(FAILED) :])
    assert log.parent == data / "logs"
    return log.read_text(encoding="utf-8")


def test_simulate_reports_a_failing_effect_in_one_line_and_keeps_the_traceback(
    site: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    result = deathangel("simulate", "--with", "boom", "-n", "2", "-s", "5", site=site, data=data)
    text = one_line_and_log(result, data)
    # The author gets the whole story: the message, then the traceback down into the plugin.
    assert text.splitlines()[1] == FAILED[len("error: ") :].split("; traceback")[0]
    assert re.search(r'boom_plugin\.py", line \d+, in jam', text)
    assert 'raise RuntimeError(f"the vent jams in round {round_}")' in text
    assert "RuntimeError: the vent jams in round 1" in text


def test_play_keeps_the_save_from_before_the_failing_decision(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    save = tmp_path / "game.json"
    args = ("--seat", "1=bot:random")
    result = deathangel(
        "play", "--with", "boom", *args, "--seed", "5", "--save", str(save), site=site, data=data
    )
    one_line_and_log(result, data)
    assert f"The game is kept as it was before that decision in {save}" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    # The file loads: the game before the failing decision, waiting for its answer.
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    try:
        game, seats, _ = load_game(save)
    finally:
        sys.modules.pop("boom_plugin", None)
    assert game.decision is not None
    assert (game.state.round, game.config.seed, seats) == (1, 5, {1: "bot:random"})
    # The save loads and plays on: the same decision fails the same way, in one line again
    # (and the file is still there to resume once the plugin is fixed).
    before = save.read_bytes()
    again = deathangel("play", "--resume", str(save), *args, site=site, data=data)
    one_line_and_log(again, data)
    assert save.read_bytes() == before
    assert len(list((data / "logs").glob("*.log"))) == 2


# -- in process ----------------------------------------------------------------------------------

SEEN: list[str] = []


def ask_then_fail(engine: Any, params: Mapping[str, Any]) -> Flow:
    """Asks a question, then raises: the failure happens while the flow runs, not when the
    effect is called."""
    choice = yield from engine.ask(1, "choose", [Option("yes"), Option("no")], "go on?")
    SEEN.append(choice.verb)
    raise KeyError("no such marine")


def slay_everyone(engine: Any, params: Mapping[str, Any]) -> Flow:
    """Ends the game from inside a plugin's effect: the engine's GameOver is no plugin error."""
    for name in [p.marine.name for p in engine.state.formation]:
        engine.kill_marine(name, "the ceiling falls")
    yield from ()


EVENTS = """\
[[event]]
name = "Odd Noise"
instinct = false
spawns = [{ size = "minor", color = "red" }, { size = "minor", color = "green" }]
text = "Asks, then fails."
effect = { name = "ask_then_fail" }

[[event]]
name = "Cave In"
instinct = false
spawns = [{ size = "minor", color = "red" }, { size = "minor", color = "green" }]
text = "Everyone is slain."
effect = { name = "slay_everyone" }
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("flaky")
    (folder / "events.toml").write_text(EVENTS, encoding="utf-8")
    plugin = plugin_module(
        "flaky",
        deathangel_card_dirs=lambda: [folder],
        deathangel_effects=lambda: [
            EffectSpec("ask_then_fail", "event", {}, "asks, then fails"),
            EffectSpec("slay_everyone", "event", {}, "slays every marine"),
        ],
        deathangel_effect_implementations=lambda: {
            "ask_then_fail": ask_then_fail,
            "slay_everyone": slay_everyone,
        },
    )
    return load_ruleset(extra=[plugin])


def event_engine(rules: Any, name: str) -> Any:
    tables = card_table(rules.db)
    state = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")], phase="event", tables=tables
    )
    state.event = next(i for i, e in enumerate(tables.events) if e.name == name)
    return make_engine(state, abilities=rules.abilities, tables=tables)


def test_an_effect_failing_part_way_through_its_flow_names_plugin_card_and_effect(
    rules: Any,
) -> None:
    SEEN.clear()
    engine = event_engine(rules, "Odd Noise")
    flow = rules.abilities.event_effects["ask_then_fail"](engine, {})
    with pytest.raises(PluginEffectError) as caught:
        drive(flow, [Option("yes")])
    error = caught.value
    assert SEEN == ["yes"]  # it failed after its question was answered
    assert (error.plugin, error.effect, error.card) == (
        "'flaky'",
        "ask_then_fail",
        "event 'Odd Noise'",
    )
    assert str(error) == (
        "plugin 'flaky': effect 'ask_then_fail' of event 'Odd Noise' failed "
        "(round 0, phase event): KeyError: 'no such marine'"
    )
    assert isinstance(error.__cause__, KeyError)


def test_the_game_ending_inside_a_plugins_effect_is_no_error(rules: Any) -> None:
    engine = event_engine(rules, "Cave In")
    drive(rules.abilities.event_effects["slay_everyone"](engine, {}))  # GameOver ends it
    assert engine.state.outcome == "defeat"


def test_the_base_games_effects_are_called_bare() -> None:
    # Only plugins' implementations are wrapped: the base game's hot path is unchanged.
    abilities = load_ruleset().abilities
    assert isinstance(abilities, CardAbilities)
    assert abilities.event_effects == EVENT_EFFECTS
