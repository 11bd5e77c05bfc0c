"""A plugin's action-card effect runs at the window its catalogue entry declares, and only
there; a declared timing is checked when it is made, and an implementation must take its
window's arguments.

The bug these guard against: plugin action effects were filed in one group and run after
whatever Support or Move + Activate card carried them, whatever their timing, so an
``end_of_event`` or ``attack_after`` effect never ran and a timing typo went unnoticed.

The probe plugin gives four teams one effect per action window; each implementation writes
down when it ran (the phase, the card being resolved, what it saw), and the tests drive
exact situations with scripted dice and answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from plugin_kit import plugin_module
from support import build_state, drive, make_engine

from deathangel.cards.catalogue import EffectSpec
from deathangel.engine.abilities import MISS, SLAIN
from deathangel.engine.decisions import DONE, Decision, Flow, Option, no_questions
from deathangel.engine.game import card_table
from deathangel.engine.randomness import Roll
from deathangel.engine.ruleset import Ruleset
from deathangel.engine.state import CardTable
from deathangel.errors import PluginError
from deathangel.plugins.ruleset import load_ruleset

PROBES = {
    "alpha": ("probe_support_after", "probe_move_before", "probe_attack_after"),
    "beta": ("probe_end_of_event", "probe_move_step", "probe_attack"),
    "gamma": ("probe_defence", "probe_activation", None),
    "delta": (None, "probe_move_after", None),
}
"""Each probe team's Support, Move + Activate and Attack card effects."""
PARAMS = {"probe_attack": "face = 5, kills = 2", "probe_defence": "face = 4"}


def _teams_toml() -> str:
    lines: list[str] = []
    initiative = 100
    for colour, effects in PROBES.items():
        name = colour.capitalize()
        lines += ["[[team]]", f'color = "{colour}"']
        for who in ("One", "Two"):
            lines += ["[[team.marine]]", f'name = "{name} {who}"', "range = 1"]
        for kind, label, effect in zip(
            ("support", "move_activate", "attack"),
            ("Support", "Move", "Attack"),
            effects,
            strict=True,
        ):
            initiative += 1
            lines += [
                "[[team.action]]",
                f'name = "{name} {label}"',
                f"initiative = {initiative}",
                f'kind = "{kind}"',
                'text = "probe"',
            ]
            if effect is not None:
                extra = f", {PARAMS[effect]}" if effect in PARAMS else ""
                lines.append(f'effect = {{ name = "{effect}"{extra} }}')
    return "\n".join(lines) + "\n"


TEAMS = _teams_toml()


LOG: list[tuple[Any, ...]] = []
"""What the probes saw, in order: ``(timing, card, phase, ...)``."""


def _flow(timing: str) -> Any:
    def run(engine: Any, team: str, card: str, params: Mapping[str, Any]) -> Flow:
        LOG.append((timing, card, engine.state.phase, engine.state.supply))
        return no_questions()

    return run


def probe_move_step(
    engine: Any, team: str, card: str, params: Mapping[str, Any], swapped: set[str]
) -> list[Option] | None:
    """Like Reorganize: each team marine may swap with any marine."""
    LOG.append(("move_step", card, engine.state.phase))
    names = [p.marine.name for p in engine.state.formation]
    return [
        Option("swap", (p.marine.name, other))
        for p in engine.state.formation
        if p.marine.team == team and p.marine.name not in swapped
        for other in names
        if other != p.marine.name
    ]


def probe_attack(
    engine: Any, team: str, card: str, params: Mapping[str, Any], marine: str, roll: Roll
) -> int | None:
    LOG.append(("attack", card, marine, roll.face))
    return int(params["kills"]) if roll.face == params["face"] else None


def probe_defence(
    engine: Any,
    team: str,
    card: str,
    params: Mapping[str, Any],
    marine: str,
    side: int,
    roll: Roll,
    verdict: str,
) -> Any:
    LOG.append(("defence", card, marine, roll.face, verdict))
    if roll.face == params["face"]:
        return no_questions(MISS)
    return no_questions(verdict)


def probe_activation(
    engine: Any, team: str, card: str, params: Mapping[str, Any], marine: str, terrain: str
) -> Flow:
    LOG.append(("activation", card, marine, terrain, terrain in engine.state.activated))
    return no_questions()


EFFECTS = [
    EffectSpec("probe_support_after", "support_after", {}, "probe"),
    EffectSpec("probe_move_before", "move_activate_before", {}, "probe"),
    EffectSpec("probe_move_after", "move_activate_after", {}, "probe"),
    EffectSpec("probe_attack_after", "attack_after", {}, "probe"),
    EffectSpec("probe_end_of_event", "end_of_event", {}, "probe"),
    EffectSpec("probe_move_step", "move_step", {}, "probe"),
    EffectSpec("probe_attack", "attack", {"face": "int", "kills": "int"}, "probe"),
    EffectSpec("probe_defence", "defence", {"face": "int"}, "probe"),
    EffectSpec("probe_activation", "activation", {}, "probe"),
]
IMPLEMENTATIONS: dict[str, Any] = {
    "probe_support_after": _flow("support_after"),
    "probe_move_before": _flow("move_activate_before"),
    "probe_move_after": _flow("move_activate_after"),
    "probe_attack_after": _flow("attack_after"),
    "probe_end_of_event": _flow("end_of_event"),
    "probe_move_step": probe_move_step,
    "probe_attack": probe_attack,
    "probe_defence": probe_defence,
    "probe_activation": probe_activation,
}


def probe_plugin(cards: Path, **overrides: Any) -> Any:
    hooks: dict[str, Any] = {
        "deathangel_card_dirs": lambda: [cards],
        "deathangel_effects": lambda: EFFECTS,
        "deathangel_effect_implementations": lambda: IMPLEMENTATIONS,
    }
    hooks.update(overrides)
    return plugin_module("probe_plugin", **hooks)


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("probe")
    (folder / "teams.toml").write_text(TEAMS, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def rules(cards: Path) -> Ruleset:
    return load_ruleset(extra=[probe_plugin(cards)])


@pytest.fixture(scope="module")
def tables(rules: Ruleset) -> CardTable:
    return card_table(rules.db)


@pytest.fixture(autouse=True)
def clean_log() -> None:
    LOG.clear()


def revealed(tables: CardTable, *cards: str) -> list[tuple[int, str, str]]:
    return sorted((tables.actions[c][1].initiative, tables.actions[c][0], c) for c in cards)


def test_each_window_runs_only_its_own_cards_effect(rules: Ruleset, tables: CardTable) -> None:
    """A round of Resolve Actions with every probe team: each step runs once, in its window,
    for its own card — none after some other card's base action."""
    state = build_state(
        [("Alpha One", "L"), ("Beta One", "L"), ("Delta One", "R"), ("Alpha Two", "R")],
        seats=[["alpha", "beta", "delta"]],
        phase="resolve_actions",
        tables=tables,
    )
    state.revealed = revealed(tables, "Alpha Support", "Beta Support", "Delta Move")
    engine = make_engine(state, abilities=rules.abilities, tables=tables)
    drive(
        engine.resolve_actions(),
        [
            ("marine", "Alpha One"),  # Alpha Support's token
            ("marine", "Beta One"),  # Beta Support's token
            DONE,  # Delta Move: no swap
            DONE,  # no flip
        ],
    )
    # Beta Support's effect is an end-of-Event one: it did not run after its token.
    assert LOG == [
        ("support_after", "Alpha Support", "resolve_actions", 12 - 1),
        ("move_activate_after", "Delta Move", "resolve_actions", 12 - 2),
    ]


def test_an_attack_after_effect_runs_after_the_attacks(rules: Ruleset, tables: CardTable) -> None:
    state = build_state(
        [("Alpha One", "L"), ("Alpha Two", "R")],
        swarms={(1, "left"): ["claw-1"]},
        phase="resolve_actions",
        tables=tables,
    )
    engine = make_engine(state, dice=[2], abilities=rules.abilities, tables=tables)
    drive(engine.attack_action("alpha", "Alpha Attack"), [("attack", "Alpha One", "left", 1)])
    assert state.formation[0].swarms[0] == []  # the skull slew it first
    assert LOG == [("attack_after", "Alpha Attack", "resolve_actions", 12)]


def test_a_move_activate_before_effect_runs_before_the_move_step(
    rules: Ruleset, tables: CardTable
) -> None:
    state = build_state(
        [("Alpha One", "L"), ("Alpha Two", "R")], phase="resolve_actions", tables=tables
    )
    engine = make_engine(state, abilities=rules.abilities, tables=tables)
    flow = engine.move_activate_action("alpha", "Alpha Move")
    first = next(flow)
    assert first.kind == "move"
    assert LOG == [("move_activate_before", "Alpha Move", "resolve_actions", 12)]


def test_an_end_of_event_effect_runs_after_the_move_box(rules: Ruleset, tables: CardTable) -> None:
    state = build_state(
        [("Beta One", "L"), ("Beta Two", "R")], phase="event", tables=tables, seats=[["beta"]]
    )
    state.revealed = revealed(tables, "Beta Support")
    state.resolved = {"beta"}
    # The Event deck's top card: one whose ability and boxes need no answer here.
    event = next(i for i, e in enumerate(tables.events) if e.effect.name == "flip_all")
    state.event_deck.remove(event)
    state.event_deck.append(event)
    engine = make_engine(state, abilities=rules.abilities, tables=tables)
    drive(engine.event_phase())
    assert LOG == [("end_of_event", "Beta Support", "event", 12)]
    assert state.event is None and state.event_discard == [event]


def test_an_end_of_event_effect_of_an_unresolved_card_does_not_run(
    rules: Ruleset, tables: CardTable
) -> None:
    state = build_state(
        [("Beta One", "L"), ("Beta Two", "R")], phase="event", tables=tables, seats=[["beta"]]
    )
    state.revealed = revealed(tables, "Beta Support")
    event = next(i for i, e in enumerate(tables.events) if e.effect.name == "flip_all")
    state.event_deck.remove(event)
    state.event_deck.append(event)
    drive(make_engine(state, abilities=rules.abilities, tables=tables).event_phase())
    assert LOG == []


def test_an_attack_effect_decides_what_the_roll_slays(rules: Ruleset, tables: CardTable) -> None:
    state = build_state(
        [("Beta One", "L"), ("Beta Two", "R")],
        swarms={(1, "left"): ["claw-1", "claw-2", "claw-3"]},
        phase="resolve_actions",
        tables=tables,
    )
    # A 5 is no skull: the probe's card makes it slay 2; Beta Two has nothing to attack.
    engine = make_engine(state, dice=[5], abilities=rules.abilities, tables=tables)
    drive(engine.attack_action("beta", "Beta Attack"), [("attack", "Beta One", "left", 1)])
    assert len(state.formation[0].swarms[0]) == 1
    assert LOG == [("attack", "Beta Attack", "Beta One", 5)]


def test_a_defence_effect_changes_the_verdict_for_the_round(
    rules: Ruleset, tables: CardTable
) -> None:
    state = build_state(
        [("Gamma One", "L"), ("Gamma Two", "R")],
        swarms={(1, "left"): ["claw-1", "claw-2", "claw-3", "claw-4"]},
        phase="genestealer_attack",
        tables=tables,
        seats=[["gamma"]],
    )
    state.revealed = revealed(tables, "Gamma Support")
    state.resolved = {"gamma"}
    # A 4 against a swarm of 4 slays (RULES §7); the probe's card turns it into a miss.
    engine = make_engine(state, dice=[4], abilities=rules.abilities, tables=tables)
    drive(engine.genestealer_attack())
    assert [p.marine.name for p in state.formation] == ["Gamma One", "Gamma Two"]
    assert LOG == [("defence", "Gamma Support", "Gamma One", 4, SLAIN)]


def test_a_move_step_effect_gives_the_swaps(rules: Ruleset, tables: CardTable) -> None:
    state = build_state(
        [("Beta One", "L"), ("Alpha One", "L"), ("Alpha Two", "R"), ("Beta Two", "R")],
        seats=[["alpha", "beta"]],
        phase="resolve_actions",
        tables=tables,
    )
    engine = make_engine(state, abilities=rules.abilities, tables=tables)
    flow = engine.move_activate_action("beta", "Beta Move")
    decision: Decision = next(flow)
    # Beta One (row 1) may swap with Beta Two at row 4, not only his neighbour.
    assert Option("swap", ("Beta One", "Beta Two")) in decision.options
    assert LOG[0] == ("move_step", "Beta Move", "resolve_actions")


def test_an_activation_effect_runs_after_the_terrain_is_activated(
    rules: Ruleset, tables: CardTable
) -> None:
    state = build_state(
        [("Gamma One", "L"), ("Gamma Two", "R")],
        terrain={(1, "left"): ["Door"]},
        phase="resolve_actions",
        tables=tables,
        seats=[["gamma"]],
    )
    engine = make_engine(state, abilities=rules.abilities, tables=tables)
    drive(
        engine.move_activate_action("gamma", "Gamma Move"),
        [DONE, DONE, ("activate", "Gamma One", "Door")],
    )
    assert state.formation[0].terrain[0][0].tokens == 1  # the Door's own activation first
    assert LOG == [("activation", "Gamma Move", "Gamma One", "Door", True)]


# -- declared timings are checked ---------------------------------------------------------------


def test_a_timing_typo_is_refused_when_declared(cards: Path) -> None:
    def effects() -> list[EffectSpec]:
        return [EffectSpec("probe_typo", "end_of_evnt", {}, "a typo")]  # type: ignore[arg-type]

    broken = plugin_module("typo_timing", deathangel_effects=effects)
    with pytest.raises(PluginError, match=r"typo_timing.*unknown timing 'end_of_evnt'"):
        load_ruleset(extra=[broken])


def test_an_effect_on_a_card_of_the_wrong_kind_is_refused(tmp_path: Path) -> None:
    (tmp_path / "team.toml").write_text(
        TEAMS.replace('name = "probe_support_after"', 'name = "probe_attack_after"'),
        encoding="utf-8",
    )
    with pytest.raises(
        PluginError,
        match=r"Alpha Support.*'probe_attack_after' works at 'attack_after', which a Support "
        r"card cannot use",
    ):
        load_ruleset(extra=[probe_plugin(tmp_path)])


def test_an_implementation_must_take_its_windows_arguments(cards: Path) -> None:
    wrong = {**IMPLEMENTATIONS, "probe_attack_after": lambda engine, params: no_questions()}
    plugin = probe_plugin(cards, deathangel_effect_implementations=lambda: wrong)
    with pytest.raises(
        PluginError,
        match=r"probe_plugin.*'probe_attack_after' works at 'attack_after', so it is called as "
        r"\(engine, team, card, params\)",
    ):
        load_ruleset(extra=[plugin])
