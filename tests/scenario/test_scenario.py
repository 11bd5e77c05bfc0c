"""Scenario files (docs/scenarios.md): loading, the state they build, and refusing bad ones.

Every example in docs/examples is loaded and played a little with the invariants checked; the
defaults (seats, slain marines, resolved cards, blip piles, the location deck) are checked on
small files; each kind of broken file is refused with a one-line error naming the key.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from deathangel.cards.load import load_base
from deathangel.engine.decisions import Decision
from deathangel.engine.game import card_table
from deathangel.engine.invariants import check_invariants
from deathangel.engine.lasting import ENTER_FORMATION, EVASION, GunJam, SecondWind
from deathangel.engine.state import LEFT, RIGHT, GameState
from deathangel.errors import DeathAngelError
from deathangel.players import RandomPlayer
from deathangel.scenario import (
    Scenario,
    ScenarioError,
    describe_state,
    load_scenario,
    scenario_game,
    scenario_state,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.toml"))

LEON = """
[[formation]]
marine = "Brother Leon"
facing = "left"
tokens = 1
left = ["claw", "claw"]
"""


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def build(tmp_path: Path, text: str) -> GameState:
    db = load_base()
    return scenario_state(load_scenario(write(tmp_path, text), db=db), db)


def labels(state: GameState, cards: list[int]) -> list[str]:
    t = card_table(load_base())
    return [t.gs_labels[c] for c in cards]


def check_cards(state: GameState) -> None:
    """Every Genestealer card in one place, every Event copy once, 12 tokens (§12)."""
    t = card_table(load_base())
    places = Counter(state.gs_deck + state.gs_discard + state.blips[LEFT] + state.blips[RIGHT])
    for pos in state.formation:
        places.update(pos.swarms[LEFT] + pos.swarms[RIGHT])
    assert all(places[c] == 1 for c in range(t.deck_size))
    assert all(places[c] <= 1 for c in range(t.deck_size, len(t.gs_labels)))
    resolving = [] if state.event is None else [state.event]
    events = state.event_deck + state.event_discard + resolving
    assert sorted(events) == list(range(len(t.events)))
    assert state.tokens_in_play() == 12


# -- the examples --------------------------------------------------------------------------------


def test_there_are_at_least_three_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_load_and_play_with_invariants_intact(path: Path) -> None:
    scenario = load_scenario(path)
    assert isinstance(scenario, Scenario)
    assert scenario.title
    game = scenario_game(path)
    check_cards(game.state)
    progress = check_invariants(game)
    bots = {seat: RandomPlayer(seat) for seat in range(1, 7)}
    for _ in range(200):
        decision = game.decision
        if decision is None:
            break
        game.apply(bots[decision.seat].choose(game.observation(decision.seat), decision))
        progress = check_invariants(game, progress)


def test_support_reroll_example_builds_what_it_says() -> None:
    db = load_base()
    state = scenario_state(load_scenario(ROOT / "docs/examples/support_reroll.toml"), db)
    assert [p.marine.name for p in state.formation] == ["Brother Leon"]
    leon = state.formation[0]
    assert (leon.marine.facing, leon.marine.tokens, leon.marine.range) == (LEFT, 1, 3)
    assert labels(state, leon.swarms[LEFT]) == ["claw-1", "claw-2"]
    assert [t.name for t in leon.terrain[LEFT]] == ["Door"]
    assert (state.round, state.phase, state.supply) == (2, "genestealer_attack", 11)
    # A solo player has three teams: red, then two unused ones in card order, eliminated.
    assert state.seats == [("red", "green", "yellow")]
    assert state.eliminated == {"green", "yellow"}
    assert "Brother Valencio" in state.slain and "Brother Leon" not in state.slain
    assert (len(state.blips[LEFT]), len(state.blips[RIGHT])) == (6, 6)  # Void Lock, 1 player
    check_cards(state)


def test_block_counter_attack_example_reveals_and_resolves() -> None:
    db = load_base()
    t = card_table(db)
    state = scenario_state(load_scenario(ROOT / "docs/examples/block_counter_attack.toml"), db)
    assert state.revealed == [(1, "green", "Block"), (3, "blue", "Counter Attack")]
    assert state.resolved == {"green", "blue"}
    # Last round's cards, overwritten by this round's for the teams that resolved.
    assert state.last_resolved == {"green": "Block", "blue": "Counter Attack"}
    assert state.slain[:3] == ["Brother Valencio", "Brother Leon", "Brother Deino"]
    assert state.eliminated == {"red"}
    assert state.location is not None and t.locations[state.location].name == "Dark Catacombs"
    assert [t.locations[i].name for i in reversed(state.location_deck)] == [
        "Genetorium",
        "Launch Control Room",
    ]
    assert len(state.blips[LEFT]) == 3
    assert labels(state, state.blips[RIGHT][::-1]) == ["head-1", "tail-3"]  # top first
    check_cards(state)


def test_brood_lord_example_piles_and_events() -> None:
    db = load_base()
    t = card_table(db)
    state = scenario_state(load_scenario(ROOT / "docs/examples/brood_lord.toml"), db)
    assert labels(state, state.formation[1].swarms[RIGHT]) == ["tongue-1", "Brood Lord A"]
    assert len(state.gs_discard) == 6
    assert t.events[state.event_deck[-1]].name == "Full Scan"
    discard = [t.events[e] for e in state.event_discard]
    assert [e.name for e in discard] == ["Out of Thin Air", "Gun Jam"]
    assert discard[0].move is not None and discard[0].move.icon == "claw"
    assert state.formation[1].terrain[LEFT][0].tokens == 1
    assert state.supply == 10
    check_cards(state)


def test_same_file_same_state_and_the_seed_deals_hidden_cards(tmp_path: Path) -> None:
    db = load_base()
    t = card_table(db)
    a = build(tmp_path, "seed = 5\n" + LEON)
    b = build(tmp_path, "seed = 5\n" + LEON)
    c = build(tmp_path, "seed = 6\n" + LEON)
    assert a.to_dict(t) == b.to_dict(t)
    assert a.gs_deck != c.gs_deck or a.event_deck != c.event_deck


# -- defaults and phases -------------------------------------------------------------------------


def test_defaults(tmp_path: Path) -> None:
    state = build(tmp_path, LEON)
    assert (state.round, state.phase, state.current_seat) == (1, "genestealer_attack", 1)
    assert state.location is None and state.setup_location is not None
    assert len(state.location_deck) == 3  # decks 2, 3, 4 of the solo recipe
    decks = [card_table(load_base()).locations[i].deck for i in reversed(state.location_deck)]
    assert decks == ["2", "3", "4"]
    assert state.revealed == [] and state.resolved == set()
    assert state.effects == [] and state.next_effects == [] and state.protected == set()


def test_choose_actions_starts_the_round_it_names(tmp_path: Path) -> None:
    path = write(tmp_path, 'phase = "choose_actions"\nround = 4\nlast_resolved = ["Full Auto"]\n')
    path.write_text(path.read_text() + LEON)
    game = scenario_game(path)
    assert game.state.round == 4
    assert game.state.phase == "choose_actions"
    decision = game.decision
    assert isinstance(decision, Decision) and decision.kind == "choose_action"
    offered = {str(o.args[0]) for o in decision.options}
    assert offered == {"Overwatch", "Onward, Brothers!"}  # Full Auto resolved last round
    check_invariants(game)


def test_resolve_actions_resumes_after_the_resolved_cards(tmp_path: Path) -> None:
    text = """
phase = "resolve_actions"
revealed = ["Block", "Full Auto"]
resolved = ["Block"]
[[formation]]
marine = "Sergeant Gideon"
facing = "left"
[[formation]]
marine = "Brother Leon"
facing = "left"
left = ["claw"]
"""
    game = scenario_game(write(tmp_path, text))
    assert game.state.resolved == {"green"}
    assert game.state.current_seat == 1
    decision = game.decision
    assert isinstance(decision, Decision) and decision.kind == "attack"  # Full Auto, not Block


def test_effects_in_force(tmp_path: Path) -> None:
    text = """
players = 1
artefact = 1
power_field = ["left:1"]
second_wind = ["Brother Leon"]
gun_jam = ["red"]
evasion = true
activated = ["Door"]
[next_round]
enter_formation = true
second_wind = ["Brother Leon"]
""" + LEON.replace('left = ["claw", "claw"]', 'left = ["claw", "claw"]\nleft_terrain = ["Door"]')
    state = build(tmp_path, text)
    assert state.protected == set(state.formation[0].swarms[LEFT])
    assert state.effects == [SecondWind("Brother Leon"), GunJam("red"), EVASION]
    assert state.next_effects == [SecondWind("Brother Leon"), ENTER_FORMATION]
    assert state.artefact == 1
    assert state.activated == {"Door"}


def test_blip_contents_and_discard_contents(tmp_path: Path) -> None:
    text = (
        """
genestealer_discard = ["head", "head"]
[blips]
left = ["claw", "tongue"]
right = 0
"""
        + LEON
    )
    state = build(tmp_path, text)
    assert labels(state, state.blips[LEFT][::-1]) == ["claw-3", "tongue-1"]
    assert state.blips[RIGHT] == []
    assert labels(state, state.gs_discard) == ["head-1", "head-2"]
    check_cards(state)


def test_multi_player_seats(tmp_path: Path) -> None:
    text = (
        """
players = 4
seats = [["red"], ["green"], ["blue"], ["grey"]]
revealed = ["Full Auto", "Dead Aim", "Counter Attack"]
"""
        + LEON
    )
    state = build(tmp_path, text)
    assert state.team_seat == {"red": 1, "green": 2, "blue": 3, "grey": 4}
    assert state.eliminated == {"green", "blue", "grey"}
    # Counter Attack's blue team is eliminated; Dead Aim's green too: red is current.
    assert state.current_seat == 1
    assert state.setup_location is not None
    assert state.setup_location.name == "Void Lock - 2 or 4 players"


def test_describe_state_is_readable(tmp_path: Path) -> None:
    state = build(tmp_path, 'power_field = ["left:1"]\n' + LEON)
    lines = describe_state(state, card_table(load_base()))
    assert lines[0].startswith(" 1. Brother Leon (red, faces left, 1 token(s))")
    assert "claw-1, claw-2 (Power Field)" in lines[0]


# -- broken files --------------------------------------------------------------------------------

BROKEN = [
    ("colour = 1\n" + LEON, "colour: unknown key"),
    (LEON + "speed = 3\n", "formation[1].speed: unknown key"),
    (LEON.replace("Brother Leon", "Brother Bob"), "formation[1].marine: unknown marine"),
    (LEON + LEON, "formation[2].marine: 'Brother Leon' is already in the formation"),
    ('seats = [["green", "blue", "grey"]]\n' + LEON, "of the red team, which no seat plays"),
    (
        LEON.replace('["claw", "claw"]', '["claw"] ' + "" + '\nright = ["claw"]')
        + '[[formation]]\nmarine = "Brother Zael"\nfacing = "left"\n'
        + "left = ["
        + ", ".join(['"claw"'] * 8)
        + "]\n",
        "formation[2].left[8]: more claw genestealers than the 9 that exist",
    ),
    (LEON.replace('"left"\n', '"up"\n', 1), "formation[1].facing: a side is 'left' or 'right'"),
    ('power_field = ["left:2"]\n' + LEON, "power_field[1]: position 2 is outside"),
    ('power_field = ["middle:1"]\n' + LEON, "power_field[1]: 'middle:1' is not SIDE:POSITION"),
    (LEON.replace("tokens = 1", "tokens = 13"), "formation[1].tokens: 13 support tokens placed"),
    ('phase = "lunch"\n' + LEON, "phase: 'lunch' is not one of"),
    ("players = 7\n" + LEON, "players: must be at most 6"),
    ("round = true\n" + LEON, "round: expected a whole number"),
    ("", "formation: needs at least one [[formation]] row"),
    ("title = \n", "not valid TOML"),
    ("supply = 12\n" + LEON, "supply: 12 does not add up"),
    ('revealed = ["Full Auto", "Overwatch"]\n' + LEON, "the red team already revealed"),
    ('revealed = ["Teleport"]\n' + LEON, "revealed[1]: unknown action card"),
    ('revealed = ["Block"]\nresolved = ["Dead Aim"]\n' + LEON, "not among the revealed cards"),
    ('phase = "choose_actions"\nrevealed = ["Full Auto"]\n' + LEON, "nothing is revealed yet"),
    ('last_resolved = ["Full Auto"]\nrevealed = ["Full Auto"]\n' + LEON, "resolved last round"),
    ('gun_jam = ["red"]\nrevealed = ["Full Auto"]\n' + LEON, "under Gun Jam"),
    (LEON + 'right = ["Brood Lord A", "Brood Lord A"]\n', "Brood Lord A is already in play"),
    ('[blips]\nleft = ["Brood Lord B"]\n' + LEON, "never sits in a blip pile"),
    ("[blips]\nleft = 40\n" + LEON, "blips.left: 40 cards asked"),
    (LEON + 'right = ["dragon"]\n', "formation[1].right[1]: unknown genestealer 'dragon'"),
    (LEON + 'right_terrain = ["Swimming Pool"]\n', "unknown terrain 'Swimming Pool'"),
    ('event_deck_top = ["Tea Time"]\n' + LEON, "event_deck_top[1]: unknown Event card"),
    (
        'event_discard = ["Gun Jam", "Gun Jam", "Gun Jam"]\n' + LEON,
        "event_discard[3]: every copy of 'Gun Jam' is already",
    ),
    ('location = "Atlantis"\n' + LEON, "location: unknown location"),
    ('location = "Main Corridor"\n' + LEON, "from deck 1A, which a 1-player game never visits"),
    ('location_deck = ["Dark Catacombs"]\n' + LEON, "location_deck: 1 location(s) given"),
    (
        'location_deck = ["Genetorium", "Dark Catacombs", "Genestealer Lair"]\n' + LEON,
        "location_deck[1]: 'Genetorium' is from deck 3",
    ),
    ("players = 2\n" + LEON, "seats: missing"),
    ('seats = [["red"]]\n' + LEON, "seats[1]: has 1 team(s)"),
    ('second_wind = ["Brother Zael"]\n' + LEON, "second_wind[1]: 'Brother Zael' is not"),
    ('slain = ["Brother Leon"]\n' + LEON, "slain[1]: 'Brother Leon' is in the formation"),
    ("artefact = 2\n" + LEON, "artefact: must be at most 1"),
    ("[next_round]\nsleep = true\n" + LEON, "next_round.sleep: unknown key"),
    (
        LEON
        + 'left_terrain = ["Door", "Corridor", "Dark Corner", "Spore Chimney", "Control Panel"]\n',
        "5 terrain cards",
    ),
]


@pytest.mark.parametrize(("text", "message"), BROKEN, ids=[m for _, m in BROKEN])
def test_broken_scenarios_are_refused_with_one_line(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text, "broken.toml")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    text_ = str(info.value)
    assert text_.startswith(f"{path}: ")
    assert message in text_
    assert "\n" not in text_
    assert isinstance(info.value, DeathAngelError) and isinstance(info.value, ValueError)


def test_missing_file_is_a_scenario_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read scenario file"):
        load_scenario(tmp_path / "nowhere.toml")


def test_a_file_that_is_not_text_is_one_line_at_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "photo.toml"
    path.write_bytes(b"\xff\xd8\xff\xe0 a picture, not a scenario")
    for command in (("scenario", "check"), ("odds",)):
        result = run_cli(*command, str(path))
        assert result.returncode == 1, result.stderr
        assert result.stderr == (
            f"error: {path}: not UTF-8 text (invalid start byte at byte 0); "
            "a scenario file is TOML\n"
        )


# -- the command ---------------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_scenario_check_command() -> None:
    result = run_cli("scenario", "check", "docs/examples/brood_lord.toml")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("docs/examples/brood_lord.toml: ok")
    assert "Brother Claudio" in result.stdout


def test_scenario_check_refuses_a_broken_file_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, LEON.replace("Brother Leon", "Brother Bob"))
    result = run_cli("scenario", "check", str(path))
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0
    assert result.stderr.startswith(f"error: {path}: formation[1].marine: unknown marine")
