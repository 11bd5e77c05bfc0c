"""Exact odds (analysis.odds, `deathangel odds`): hand-computed cases, the policy, the memos.

Each expected fraction is worked out by hand in the test's docstring or comment. The die has
faces 0-5; 1, 2 and 3 are skulls. A defender dies when face - (Brood Lords) <= swarm size.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from deathangel.analysis.odds import (
    ATTACK_POLICY,
    DEFAULT_LIMIT,
    PHASE_POLICY,
    AttackOdds,
    OddsError,
    PhaseOdds,
    attack_odds,
    format_attack,
    format_phase,
    phase_odds,
)
from deathangel.cards.load import load_base
from deathangel.engine.state import GameState
from deathangel.scenario import load_scenario, scenario_state

ROOT = Path(__file__).resolve().parents[2]


def state_of(tmp_path: Path, text: str) -> GameState:
    path = tmp_path / "s.toml"
    path.write_text(text, encoding="utf-8")
    db = load_base()
    return scenario_state(load_scenario(path, db=db), db)


def row(marine: str, facing: str = "left", tokens: int = 0, **swarms: list[str]) -> str:
    lines = ["[[formation]]", f'marine = "{marine}"', f'facing = "{facing}"', f"tokens = {tokens}"]
    for side, cards in swarms.items():
        lines.append(f"{side} = {json.dumps(cards)}")
    return "\n".join(lines) + "\n"


def phase(tmp_path: Path, text: str, **kw: bool) -> PhaseOdds:
    return phase_odds(state_of(tmp_path, text), load_base(), **kw)  # type: ignore[arg-type]


def survives(odds: PhaseOdds, marine: str) -> F:
    return next(m.survives for m in odds.marines if m.marine == marine)


def attack(tmp_path: Path, text: str, marine: str, target: str, **kw: bool) -> AttackOdds:
    return attack_odds(state_of(tmp_path, text), load_base(), marine, target, **kw)  # type: ignore[arg-type]


# -- the Genestealer Attack phase ------------------------------------------------------------


def test_plain_marine_no_token_swarm_of_two_survives_half(tmp_path: Path) -> None:
    """Survives on 3, 4, 5: 1/2."""
    odds = phase(tmp_path, row("Brother Leon", left=["claw", "claw"]))
    assert survives(odds, "Brother Leon") == F(1, 2)
    assert odds.survivors == {0: F(1, 2), 1: F(1, 2)}
    assert odds.slain == {0: F(1)}


def test_one_support_token_in_front_gives_three_quarters(tmp_path: Path) -> None:
    """1/2 at once, and a reroll after a failing face: 1/2 + 1/2 * 1/2 = 3/4."""
    odds = phase(tmp_path, row("Brother Leon", tokens=1, left=["claw", "claw"]))
    assert survives(odds, "Brother Leon") == F(3, 4)
    assert odds.expected_survivors == F(3, 4)
    assert odds.policy == PHASE_POLICY


def test_three_tokens_reroll_three_times(tmp_path: Path) -> None:
    """Dies only if four rolls all fail: 1 - (1/2)^4 = 15/16."""
    odds = phase(tmp_path, row("Brother Leon", tokens=3, left=["claw", "claw"]))
    assert survives(odds, "Brother Leon") == F(15, 16)


def test_swarm_behind_allows_no_reroll(tmp_path: Path) -> None:
    """The token is useless against a swarm behind him (RULES §6.4): 1/2."""
    odds = phase(tmp_path, row("Brother Leon", tokens=1, right=["claw", "claw"]))
    assert survives(odds, "Brother Leon") == F(1, 2)


def test_brood_lord_takes_one_off_the_roll(tmp_path: Path) -> None:
    """Swarm of 2 with a Brood Lord: dies when face - 1 <= 2, survives on 4 and 5: 1/3."""
    odds = phase(tmp_path, row("Brother Claudio", right=["tongue", "Brood Lord A"]))
    assert survives(odds, "Brother Claudio") == F(1, 3)


def test_two_brood_lords_add_up(tmp_path: Path) -> None:
    """Two Brood Lords alone: size 2, -2: dies when face <= 4, survives on 5: 1/6."""
    odds = phase(tmp_path, row("Brother Claudio", left=["Brood Lord A", "Brood Lord B"]))
    assert survives(odds, "Brother Claudio") == F(1, 6)


def test_block_gideon_against_three_survives_five_sixths(tmp_path: Path) -> None:
    """Skulls 1-3 miss, 4 and 5 exceed 3: only 0 kills him."""
    text = 'revealed = ["Block"]\n' + row("Sergeant Gideon", left=["claw", "claw", "tail"])
    assert survives(phase(tmp_path, text), "Sergeant Gideon") == F(5, 6)


def test_block_that_has_not_resolved_does_nothing(tmp_path: Path) -> None:
    """Still in Resolve Actions, Block has not resolved: only 4 and 5 save him: 1/3."""
    text = 'phase = "resolve_actions"\nrevealed = ["Block"]\n' + row(
        "Sergeant Gideon", left=["claw", "claw", "tail"]
    )
    assert survives(phase(tmp_path, text), "Sergeant Gideon") == F(1, 3)


def test_counter_attack_against_one(tmp_path: Path) -> None:
    """0 kills him (1/6); a skull (1/2) slays the one genestealer; 4, 5 miss (1/3).
    Survives 5/6; slain 1 with 1/2, 0 with 1/2."""
    text = 'revealed = ["Counter Attack"]\n' + row("Sergeant Lorenzo", left=["claw"])
    odds = phase(tmp_path, text)
    assert survives(odds, "Sergeant Lorenzo") == F(5, 6)
    assert odds.slain == {0: F(1, 2), 1: F(1, 2)}
    assert odds.expected_slain == F(1, 2)


def test_counter_attack_against_two_attacks_again(tmp_path: Path) -> None:
    """0: dies (1/6); 4, 5: miss (1/3); skull (1/2): one slain, the last attacks again and
    kills him only on 0. Survives 1/3 + 1/2 * 5/6 = 3/4; slain 0: 1/2, 1: 1/4, 2: 1/4."""
    text = 'revealed = ["Counter Attack"]\n' + row("Sergeant Lorenzo", right=["tail", "tail"])
    odds = phase(tmp_path, text)
    assert survives(odds, "Sergeant Lorenzo") == F(3, 4)
    assert odds.slain == {0: F(1, 2), 1: F(1, 4), 2: F(1, 4)}


def test_defensive_stance_needs_a_reroll(tmp_path: Path) -> None:
    """Claudio against 5 always dies on his first roll; with a token the policy rerolls and
    the attack misses unless the new face is 0: 5/6. Without a token: 0."""
    swarm = ["claw", "claw", "claw", "tail", "tail"]
    text = 'revealed = ["Defensive Stance"]\n'
    assert (
        survives(phase(tmp_path, text + row("Brother Claudio", left=swarm)), "Brother Claudio") == 0
    )
    with_token = phase(tmp_path, text + row("Brother Claudio", tokens=1, left=swarm))
    assert survives(with_token, "Brother Claudio") == F(5, 6)


def test_second_wind_makes_a_zero_miss(tmp_path: Path) -> None:
    """Against 1: a plain marine dies on 0 and 1 (2/3 survive); with Second Wind only on 1."""
    text = 'second_wind = ["Brother Leon"]\n' + row("Brother Leon", left=["claw"])
    assert survives(phase(tmp_path, text), "Brother Leon") == F(5, 6)


def test_power_field_swarm_does_not_attack(tmp_path: Path) -> None:
    text = 'power_field = ["left:1"]\n' + row("Brother Leon", left=["claw"] * 5)
    assert survives(phase(tmp_path, text), "Brother Leon") == 1


def test_artefact_saves_one_of_two_doomed_marines(tmp_path: Path) -> None:
    """Two marines against 5 each always die; one Artefact saves exactly one of them."""
    text = (
        "artefact = 1\n"
        + row("Brother Leon", left=["claw"] * 5)
        + row("Brother Valencio", left=["tail"] * 5)
    )
    odds = phase(tmp_path, text)
    assert odds.expected_survivors == 1
    assert odds.survivors == {1: F(1)}


def test_marines_apart_are_independent_and_a_shift_changes_nothing(tmp_path: Path) -> None:
    """Leon (top, 3/4) and Claudio (1/3): if Leon falls the formation shifts up, and
    Claudio's swarm still attacks him. All survive 3/4 * 1/3 = 1/4."""
    text = row("Brother Leon", tokens=1, left=["claw", "claw"]) + row(
        "Brother Claudio", facing="right", right=["tongue", "Brood Lord A"]
    )
    odds = phase(tmp_path, text)
    assert survives(odds, "Brother Leon") == F(3, 4)
    assert survives(odds, "Brother Claudio") == F(1, 3)
    assert odds.all_survive == F(1, 4)
    assert odds.survivors == {0: F(1, 6), 1: F(7, 12), 2: F(1, 4)}
    assert odds.expected_survivors == F(3, 4) + F(1, 3)


def test_a_fallen_marines_other_swarm_attacks_his_neighbour(tmp_path: Path) -> None:
    """Leon (position 2) always dies to the 5 in front of him. The segment above him (1
    marine) is smaller than the one below (2), so Valencio moves down onto his row and takes
    Leon's swarm behind, which has not attacked yet, while his own has: Valencio must survive
    two attacks by one genestealer (faces 2-5 each): (2/3)^2 = 4/9.
    If Valencio falls first (1/3), everyone moves up, Leon falls at the top, and Leon's
    swarm behind joins Noctis, who survives it with 2/3: Noctis lives 1 - 1/3 * 1/3 = 8/9."""
    text = (
        row("Brother Valencio", facing="right", right=["head"])
        + row("Brother Leon", left=["claw"] * 5, right=["tail"])
        + row("Brother Noctis")
        + row("Brother Goriel")
    )
    odds = phase(tmp_path, text)
    assert survives(odds, "Brother Leon") == 0
    assert survives(odds, "Brother Valencio") == F(4, 9)
    assert survives(odds, "Brother Noctis") == F(8, 9)
    assert survives(odds, "Brother Goriel") == 1


def test_memos_do_not_change_the_answer(tmp_path: Path) -> None:
    text = (
        'revealed = ["Counter Attack", "Defensive Stance"]\n'
        + row("Sergeant Lorenzo", tokens=1, left=["claw", "tongue"], right=["tail"])
        + row("Brother Claudio", facing="right", tokens=1, right=["head", "Brood Lord A"])
    )
    with_memo = phase(tmp_path, text)
    without = phase(tmp_path, text, memo=False)
    assert with_memo.marines == without.marines
    assert with_memo.survivors == without.survivors
    assert with_memo.slain == without.slain
    assert with_memo.positions < without.positions


def test_limit_stops_an_exploding_enumeration(tmp_path: Path) -> None:
    text = row("Brother Leon", tokens=3, left=["claw", "claw"])
    with pytest.raises(OddsError, match="more than 10 positions to enumerate"):
        phase_odds(state_of(tmp_path, text), load_base(), limit=10, where="here.toml")


def test_phase_table_text(tmp_path: Path) -> None:
    odds = phase(tmp_path, row("Brother Leon", tokens=1, left=["claw", "claw"]))
    lines = format_phase(odds)
    assert any(line.split() == ["1", "Brother", "Leon", "3/4", "0.7500"] for line in lines)
    assert f"policy: {PHASE_POLICY}" in lines


# -- one attack --------------------------------------------------------------------------------


def test_plain_attack_slays_one_with_half(tmp_path: Path) -> None:
    odds = attack(tmp_path, row("Brother Leon", left=["claw", "claw"]), "Brother Leon", "left:1")
    assert odds.slain == {0: F(1, 2), 1: F(1, 2)}
    assert (odds.card, odds.attacks, odds.policy) == (None, 1, ATTACK_POLICY)


def test_attack_with_one_token_slays_with_three_quarters(tmp_path: Path) -> None:
    text = row("Brother Leon", tokens=1, left=["claw", "claw"])
    odds = attack(tmp_path, text, "Brother Leon", "left:1")
    assert odds.slain == {0: F(1, 4), 1: F(3, 4)}
    assert odds.at_least_one == F(3, 4)


def test_dead_aim_four_slays_up_to_three(tmp_path: Path) -> None:
    """Skull 1/2 slays 1; a 4 (1/6) slays 3; 0 and 5 miss (1/3)."""
    text = 'revealed = ["Dead Aim"]\n' + row("Brother Noctis", left=["claw", "tongue", "tail"])
    odds = attack(tmp_path, text, "Brother Noctis", "left:1")
    assert odds.card == "Dead Aim"
    assert odds.slain == {0: F(1, 3), 1: F(1, 2), 3: F(1, 6)}
    assert odds.expected_slain == 1


def test_dead_aim_with_a_token_rerolls_for_the_four(tmp_path: Path) -> None:
    """Keep 1 (skull) or 3 (a 4); a reroll is worth 1/2*1 + 1/6*3 = 1: after a skull the tie
    goes to keeping the token. Reroll 0 and 5: slain 3 with 1/6 + 1/3*1/6 = 2/9, 1 with
    1/2 + 1/3*1/2 = 2/3, 0 with 1/3*1/3 = 1/9."""
    text = 'revealed = ["Dead Aim"]\n' + row(
        "Brother Noctis", tokens=1, left=["claw", "tongue", "tail"]
    )
    odds = attack(tmp_path, text, "Brother Noctis", "left:1")
    assert odds.slain == {0: F(1, 9), 1: F(2, 3), 3: F(2, 9)}


def test_flamer_slays_the_face_value(tmp_path: Path) -> None:
    """Against 3: faces 0, 1, 2 slay 0, 1, 2; faces 3, 4, 5 slay all three (1/2)."""
    text = 'revealed = ["Flamer Attack"]\n' + row("Brother Zael", left=["claw"] * 3)
    odds = attack(tmp_path, text, "Brother Zael", "left:1")
    assert odds.slain == {0: F(1, 6), 1: F(1, 6), 2: F(1, 6), 3: F(1, 2)}


def test_full_auto_makes_all_three_attacks(tmp_path: Path) -> None:
    """Three attacks at 1/2 each: binomial(3, 1/2); against 2 the third cannot slay more."""
    text = 'revealed = ["Full Auto"]\n' + row("Brother Leon", left=["claw"] * 3)
    odds = attack(tmp_path, text, "Brother Leon", "left:1")
    assert odds.attacks == 3
    assert odds.slain == {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}
    text = 'revealed = ["Full Auto"]\n' + row("Brother Leon", left=["claw"] * 2)
    odds = attack(tmp_path, text, "Brother Leon", "left:1")
    assert odds.slain == {0: F(1, 8), 1: F(3, 8), 2: F(1, 2)}


def test_psionic_attack_chains_to_another_swarm(tmp_path: Path) -> None:
    """Each skull (1/2) slays one and gives another attack, at any legal swarm: 2 at his own
    row, 1 at the next. Slain k < 3 with (1/2)^(k+1); all 3 with 1/8."""
    text = (
        'revealed = ["Psionic Attack"]\n'
        + row("Lexicanium Calistarius", left=["claw", "claw"])
        + row("Brother Scipio", left=["head"])
    )
    odds = attack(tmp_path, text, "Lexicanium Calistarius", "left:1")
    assert odds.slain == {0: F(1, 2), 1: F(1, 4), 2: F(1, 8), 3: F(1, 8)}


def test_memo_does_not_change_an_attack(tmp_path: Path) -> None:
    text = 'revealed = ["Full Auto"]\n' + row("Brother Leon", tokens=2, left=["claw"] * 3)
    with_memo = attack(tmp_path, text, "Brother Leon", "left:1")
    without = attack(tmp_path, text, "Brother Leon", "left:1", memo=False)
    assert with_memo.slain == without.slain
    assert with_memo.positions < without.positions


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("right:1", "faces left; he cannot attack the right swarm"),
        ("left:3", "cannot attack left:3 (his range is 0"),
        ("left:9", "position 9 is outside the formation"),
        ("left3", "'left3' is not SIDE:POSITION"),
        ("left:2", "cannot attack left:2"),  # an empty swarm
    ],
)
def test_illegal_attacks_are_refused(tmp_path: Path, target: str, message: str) -> None:
    text = (
        row("Brother Claudio", left=["claw"], right=["tail"])
        + row("Brother Goriel")
        + row("Brother Leon", left=["head"])
    )
    with pytest.raises(OddsError, match=message.replace("(", r"\(")):
        attack(tmp_path, text, "Brother Claudio", target)


def test_unknown_attacker_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OddsError, match="'Brother Bob' is not in the formation"):
        attack(tmp_path, row("Brother Leon", left=["claw"]), "Brother Bob", "left:1")


def test_attack_table_text(tmp_path: Path) -> None:
    text = 'revealed = ["Dead Aim"]\n' + row("Brother Noctis", left=["claw", "tongue", "tail"])
    lines = format_attack(attack(tmp_path, text, "Brother Noctis", "left:1"))
    assert lines[0].startswith("Brother Noctis attacks left:1 (Dead Aim; 0 support token(s))")
    assert any(line.split() == ["3", "1/6", "0.1667"] for line in lines)


# -- the command on the documented examples ---------------------------------------------------


def odds_json(*args: str) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-m", "deathangel", "odds", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def by_marine(data: dict[str, object]) -> dict[str, str]:
    marines = data["marines"]
    assert isinstance(marines, list)
    return {m["marine"]: m["survives"] for m in marines}


def test_cli_support_reroll_example() -> None:
    data = odds_json("docs/examples/support_reroll.toml")
    assert data["mode"] == "genestealer_attack"
    assert data["scenario"] == "docs/examples/support_reroll.toml"
    assert by_marine(data) == {"Brother Leon": "3/4"}
    assert data["survivors"] == {"0": "1/4", "1": "3/4"}
    assert data["survivors_decimal"] == {"0": 0.25, "1": 0.75}
    assert data["expected_survivors"] == "3/4"
    assert data["slain"] == {"0": "1"}
    assert data["policy"] == PHASE_POLICY


def test_cli_support_reroll_example_attack() -> None:
    data = odds_json(
        "docs/examples/support_reroll.toml", "--attack", "Brother Leon", "--target", "left:1"
    )
    assert data["mode"] == "attack"
    assert data["slain"] == {"0": "1/4", "1": "3/4"}
    assert data["card"] is None
    assert data["tokens"] == 1


def test_cli_block_counter_attack_example() -> None:
    data = odds_json("docs/examples/block_counter_attack.toml")
    assert by_marine(data) == {
        "Sergeant Gideon": "5/6",
        "Sergeant Lorenzo": "3/4",
        "Brother Noctis": "1",
    }
    assert data["slain"] == {"0": "1/2", "1": "1/4", "2": "1/4"}
    assert data["all_survive"] == "5/8"
    assert data["expected_survivors"] == "31/12"


def test_cli_brood_lord_example() -> None:
    data = odds_json("docs/examples/brood_lord.toml")
    assert by_marine(data) == {"Brother Goriel": "1/2", "Brother Claudio": "1/3"}
    assert data["all_survive"] == "1/6"
    assert data["all_survive_decimal"] == pytest.approx(1 / 6)


def test_cli_dead_aim_example() -> None:
    data = odds_json(
        "docs/examples/dead_aim.toml", "--attack", "Brother Noctis", "--target", "left:1"
    )
    assert data["card"] == "Dead Aim"
    assert data["slain"] == {"0": "1/3", "1": "1/2", "3": "1/6"}
    assert data["expected_slain"] == "1"
    assert data["at_least_one"] == "2/3"
    assert data["title"] == "Dead Aim into a swarm of three"


def test_cli_text_output_and_errors() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "deathangel", "odds", *args],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )

    result = run("docs/examples/brood_lord.toml")
    assert result.returncode == 0, result.stderr
    assert "Brother Claudio" in result.stdout and "1/3" in result.stdout
    result = run("docs/examples/brood_lord.toml", "--attack", "Brother Claudio")
    assert result.returncode == 1
    assert "--attack and --target go together" in result.stderr
    result = run(
        "docs/examples/brood_lord.toml", "--attack", "Brother Goriel", "--target", "left:1"
    )
    assert result.returncode == 1
    assert result.stderr.startswith("error: docs/examples/brood_lord.toml: --target: ")
    assert result.stderr.strip().count("\n") == 0
    result = run("docs/examples/support_reroll.toml", "--limit", "5")
    assert result.returncode == 1
    assert "more than 5 positions" in result.stderr


def test_cli_default_limit_matches_the_library() -> None:
    from deathangel.cli.odds import LIMIT_DEFAULT

    assert LIMIT_DEFAULT == DEFAULT_LIMIT
