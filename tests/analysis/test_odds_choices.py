"""``odds`` answers what the game allows: each Full Auto attack picks its own swarm (RULES
§13), and a revealed card that has not resolved is named as skipped, with how to ask for it.

Expected fractions are worked out by hand (faces 0-5, each 1/6; 1-3 are skulls).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

from deathangel.analysis.odds import attack_odds, phase_odds
from deathangel.cards.load import load_base
from deathangel.engine.state import GameState
from deathangel.scenario import load_scenario, scenario_state

TWO_SWARMS = """\
title = "Full Auto with a genestealer on each side of Leon's row"
players = 1
phase = "resolve_actions"
revealed = ["Full Auto"]

[[formation]]
marine = "Brother Valencio"
facing = "right"
left = ["claw"]

[[formation]]
marine = "Brother Leon"
facing = "left"

[[formation]]
marine = "Sergeant Gideon"
facing = "left"
left = ["tail"]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    return path


def state_of(path: Path) -> GameState:
    db = load_base()
    return scenario_state(load_scenario(path, db=db), db)


def test_each_full_auto_attack_picks_its_own_swarm(tmp_path: Path) -> None:
    """Leon (range 3) faces two swarms of one. His first attack is at the one named; each
    further attack goes where it can still slay. So he slays min(2, skulls in 3 rolls):
    0 with (1/2)^3 = 1/8; 1 with 3/8 (one skull of three); 2 with 3/8 + 1/8 = 1/2. Kept on
    the named swarm alone, the old answer could never pass 1 (7/8)."""
    odds = attack_odds(state_of(write(tmp_path, TWO_SWARMS)), load_base(), "Brother Leon", "left:1")
    assert (odds.card, odds.attacks) == ("Full Auto", 3)
    assert odds.slain == {0: F(1, 8), 1: F(3, 8), 2: F(1, 2)}
    assert odds.expected_slain == F(11, 8)


def test_full_auto_still_stays_on_a_swarm_worth_attacking(tmp_path: Path) -> None:
    """One swarm of three in range only: binomial(3, 1/2), as before."""
    text = TWO_SWARMS.replace('left = ["claw"]', 'left = ["claw", "claw", "claw"]').replace(
        'left = ["tail"]\n', ""
    )
    odds = attack_odds(state_of(write(tmp_path, text)), load_base(), "Brother Leon", "left:1")
    assert odds.slain == {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}


def test_the_phase_odds_name_an_unresolved_card_and_how_to_ask_for_it(tmp_path: Path) -> None:
    path = write(tmp_path, TWO_SWARMS)
    odds = phase_odds(state_of(path), load_base())
    assert [(c.team, c.card, c.kind) for c in odds.skipped] == [("red", "Full Auto", "attack")]
    run = subprocess.run(
        [sys.executable, "-m", "deathangel", "odds", str(path)], capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert (
        "note: Full Auto (red) is revealed but has not resolved: these odds skip it; ask for "
        "its attacks with --attack MARINE --target SIDE:POSITION"
    ) in run.stdout
    run = subprocess.run(
        [sys.executable, "-m", "deathangel", "odds", str(path), "--json"], capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip
    skipped = json.loads(run.stdout)["skipped"]
    assert [(c["card"], c["kind"]) for c in skipped] == [("Full Auto", "attack")]
    # Once it has resolved (the Genestealer Attack phase), nothing is skipped.
    done = write(tmp_path, TWO_SWARMS.replace('"resolve_actions"', '"genestealer_attack"'))
    assert phase_odds(state_of(done), load_base()).skipped == ()
