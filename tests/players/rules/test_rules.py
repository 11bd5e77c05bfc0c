"""The ``rules`` strategy: rule files (good and broken, with the exact one-line messages),
choices in hand-built positions whose answer is known, whole games at every player count,
determinism, and the command line."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from support import TEST_BOT_KEY, build_state, table

from deathangel.analysis.simulate import play_game, simulate
from deathangel.engine.decisions import Decision, Option, defence_reason, reroll_prompt
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.observation import observe, pile_counts
from deathangel.errors import RuleFileError
from deathangel.players.base import replays_on_resume
from deathangel.players.rules.file import SHIPPED_DIR
from deathangel.players.rules.player import RuleSet, RulesPlayer

DEFAULT = SHIPPED_DIR / "default.toml"


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def support_decision(names: list[str]) -> Decision:
    return Decision(1, "place_support", tuple(Option("marine", (n,)) for n in names), "support")


# -- a rule file that loads ----------------------------------------------------------------------

GOOD = """\
# comments are fine
format = 1
fallback = "first"

[let]
crowded = "front >= 2"
bonus = 5

[[place_support]]
why = "the marine facing a crowd"
if = "crowded"
score = "bonus"

[[place_support]]
if = "tokens == 0"
score = 1

[[attack]]
score = "target_size"
"""


def test_scores_add_up_over_the_rules_an_option_matches(tmp_path: Path) -> None:
    rules = RuleSet.load(write(tmp_path, GOOD))
    # Leon: 3 in front, 1 token -> 5 (crowded). Valencio: nothing, 0 tokens -> 1.
    # Claudio: 2 in front, 0 tokens -> 5 + 1.
    st = build_state(
        [("Brother Leon", "L", 1), ("Brother Valencio", "R"), ("Brother Claudio", "R")],
        swarms={(1, "left"): ["claw-1", "claw-2", "claw-3"], (3, "right"): ["head-1", "head-2"]},
        phase="resolve_actions",
    )
    view = observe(st, table(), 1)
    decision = support_decision(["Brother Leon", "Brother Valencio", "Brother Claudio"])
    assert rules.scores(view, decision) == [5, 1, 6]
    assert rules.choose(view, decision) == Option("marine", ("Brother Claudio",))
    assert rules.explain(view, decision)[0] == (Option("marine", ("Brother Claudio",)), 6)


def test_ties_go_to_the_first_option_under_first(tmp_path: Path) -> None:
    rules = RuleSet.load(write(tmp_path, GOOD))
    st = build_state([("Brother Leon", "L"), ("Brother Valencio", "R")], phase="resolve_actions")
    decision = support_decision(["Brother Valencio", "Brother Leon"])
    rng = random.Random(1)
    choices = {rules.choose(observe(st, table(), 1), decision, rng) for _ in range(20)}
    assert choices == {Option("marine", ("Brother Valencio",))}


def test_ties_go_to_the_rng_under_random(tmp_path: Path) -> None:
    rules = RuleSet.load(write(tmp_path, GOOD.replace('fallback = "first"', "")))
    st = build_state([("Brother Leon", "L"), ("Brother Valencio", "R")], phase="resolve_actions")
    decision = support_decision(["Brother Valencio", "Brother Leon"])
    rng = random.Random(1)
    choices = {rules.choose(observe(st, table(), 1), decision, rng) for _ in range(40)}
    assert len(choices) == 2


def test_a_kind_without_rules_leaves_every_option_tied(tmp_path: Path) -> None:
    rules = RuleSet.load(write(tmp_path, GOOD))
    st = build_state([("Brother Leon", "L")], phase="resolve_actions")
    decision = Decision(1, "reroll", (Option("reroll"), Option("keep")), "x: rolled 2")
    assert rules.scores(observe(st, table(), 1), decision) == [0.0, 0.0]


def test_extends_replaces_lets_in_place_and_kinds_whole(tmp_path: Path) -> None:
    write(tmp_path, GOOD, "base.toml")
    child = write(tmp_path, 'extends = "base.toml"\n[let]\nbonus = 50\n', "child.toml")
    rules = RuleSet.load(child)
    st = build_state(
        [("Brother Leon", "L", 1), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["claw-1", "claw-2"]},
        phase="resolve_actions",
    )
    decision = support_decision(["Brother Leon", "Brother Valencio"])
    # The base's rule reads the child's value of `bonus`.
    assert rules.scores(observe(st, table(), 1), decision) == [50, 1]
    assert rules.fallback == "first"
    own = write(tmp_path, 'extends = "base.toml"\n[[place_support]]\nscore = 2\n', "own.toml")
    assert RuleSet.load(own).scores(observe(st, table(), 1), decision) == [2, 2]


def test_append_adds_a_kinds_rules_after_the_extended_files(tmp_path: Path) -> None:
    write(tmp_path, GOOD, "base.toml")
    st = build_state(
        [("Brother Leon", "L", 1), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["claw-1", "claw-2"]},
        phase="resolve_actions",
    )
    decision = support_decision(["Brother Leon", "Brother Valencio"])
    view = observe(st, table(), 1)
    base = RuleSet.load(tmp_path / "base.toml").scores(view, decision)
    # The base's rules, then this file's: +2 for Valencio only.
    more = write(
        tmp_path,
        'extends = "base.toml"\nappend = ["place_support"]\n'
        "[[place_support]]\nif = \"marine == 'Brother Valencio'\"\nscore = 2\n",
        "more.toml",
    )
    assert RuleSet.load(more).scores(view, decision) == [base[0], base[1] + 2]
    # Without append the same rule replaces the base's place_support rules.
    alone = write(tmp_path, (tmp_path / "more.toml").read_text().replace("append", "#"), "a.toml")
    assert RuleSet.load(alone).scores(view, decision) == [0, 2]
    # A file extending the appending one keeps both, unless it lists the kind itself.
    grand = write(tmp_path, 'extends = "more.toml"\n', "grand.toml")
    assert RuleSet.load(grand).scores(view, decision) == [base[0], base[1] + 2]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'extends = "default"\nappend = "attack"\n',
            "{path}:2: append: expected a list of decision kinds such as ['choose_action'], "
            "not 'attack'",
        ),
        (
            'extends = "default"\nappend = ["atack"]\n',
            "{path}:2: append: unknown decision kind 'atack'; did you mean 'attack'?",
        ),
        (
            'append = ["attack"]\n',
            "{path}:1: append: 'append' adds to the rules of the file this one extends: "
            "give 'extends' too",
        ),
    ],
)
def test_a_wrong_append_is_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RuleFileError) as caught:
        RuleSet.load(path)
    assert str(caught.value) == message.format(path=path)


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = write(tmp_path, "[[place_support]]\nscore = 1\n")
    first = RuleSet.load(path)
    assert RuleSet.load(path) is first
    path.write_text("[[place_support]]\nscore = 2\n# now longer\n", encoding="utf-8")
    assert RuleSet.load(path) is not first


def test_the_shipped_rule_set_is_found_by_name() -> None:
    assert RuleSet.load("default").path == DEFAULT
    assert RulesPlayer(seed=3).ruleset is RuleSet.load(DEFAULT)


# -- broken rule files ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "",
            "{path}: no rules in it: write a rule as a [[KIND]] table (e.g. [[attack]]), or "
            'extends = "default"',
        ),
        (
            'fallback = "first"\n[let]\nx = "1"\n',
            "{path}: no rules in it: write a rule as a [[KIND]] table (e.g. [[attack]]), or "
            'extends = "default"',
        ),
        ("[[attack]]\nscore = = 1\n", "{path}:2:9: not valid TOML: Invalid value"),
        (
            "[[attack]]\nscore = 1\nif = 'front >",
            '{path}:3: not valid TOML: Expected "\'" before the end of the file',
        ),
        (
            "format = 1\n\n[[atack]]\nscore = 1\n",
            "{path}:3: unknown key 'atack'; did you mean 'attack' or 'fallback'?",
        ),
        (
            "[[place_support]]\nscore = 1\n\n[[ponies]]\nscore = 2\n",
            "{path}:4: unknown key 'ponies'; a rule file holds format, extends, append, fallback, "
            "let and rules for the decision kinds choose_action, place_support, move, facing, "
            "activate, attack, reroll, slay, spawn_order, blip_split, door_slay, "
            "target_marine, target_swarm, target_pile, target_team, target_terrain, choose, "
            "choose_team",
        ),
        (
            "[place_support]\nscore = 1\n",
            "{path}:1: place_support: expected a list of rules: write [[place_support]] above "
            "each rule",
        ),
        (
            "[[attack]]\nscore = 1\n\n[[attack]]\niff = 'front > 1'\nscore = 2\n",
            "{path}:5: [[attack]] rule 2: unknown key 'iff'; did you mean 'if'?; a rule holds "
            "'if' (a condition), 'score' (a number or expression) and 'why'",
        ),
        (
            "[[attack]]\nif = 'fornt > 1'\nscore = 1\n",
            "{path}:2:7: [[attack]] rule 1, 'if': unknown name 'fornt'; did you mean 'front' or "
            "'front_of'?",
        ),
        (
            "[[attack]]\nif = 'front + 1'\nscore = 1\n",
            "{path}:2:7: [[attack]] rule 1, 'if': this must be a condition, but it is a number",
        ),
        (
            "[[attack]]\nscore = 'target_size > 1 and facing'\n",
            "{path}:2:30: [[attack]] rule 1, 'score': expected a condition (true or false), "
            "but this is a text",
        ),
        (
            "[[attack]]\nscore = true\n",
            "{path}:2: [[attack]] rule 1, 'score': expected a number or an expression (a "
            "string), not True",
        ),
        (
            "[[attack]]\nif = 'front > 1'\n",
            "{path}:1: [[attack]] rule 1: a rule needs a 'score' (the number it adds to the "
            "options it matches)",
        ),
        (
            "[[attack]]\nif = 3\nscore = 1\n",
            "{path}:2: [[attack]] rule 1, 'if': expected a condition written as a string, not 3",
        ),
        (
            'fallback = "best"\n',
            "{path}:1: fallback: expected one of 'random', 'first', not 'best'",
        ),
        ("format = 2\n", "{path}:1: format: this is format 1; found 2"),
        (
            "[let]\nfront = 'behind'\n",
            "{path}:2: [let] front: 'front' is already a built-in name; choose another",
        ),
        (
            "[let]\ndanger = 'front +* 2'\n",
            "{path}:2:18: [let] danger: expected a value, found '*'",
        ),
        ("let = 3\n", '{path}:1: let: expected a table: write [let] and name = "expression"'),
    ],
)
def test_a_broken_file_gets_one_line_naming_file_line_and_what_was_expected(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RuleFileError) as caught:
        RuleSet.load(path)
    assert str(caught.value) == message.format(path=path)
    assert "\n" not in str(caught.value)


def test_an_error_in_an_extended_file_names_that_file(tmp_path: Path) -> None:
    base = write(tmp_path, "[[attack]]\nscore = 'sise'\n", "base.toml")
    child = write(tmp_path, 'extends = "base.toml"\n', "child.toml")
    with pytest.raises(RuleFileError) as caught:
        RuleSet.load(child)
    assert str(caught.value) == f"{base}:2:10: [[attack]] rule 1, 'score': unknown name 'sise'"


def test_extends_must_name_an_existing_file_and_not_go_round_in_circles(tmp_path: Path) -> None:
    missing = write(tmp_path, 'extends = "nowhere.toml"\n')
    with pytest.raises(RuleFileError) as caught:
        RuleSet.load(missing)
    assert str(caught.value) == (
        f"{missing}:1: extends: no rule file 'nowhere.toml' (looked for "
        f"{tmp_path / 'nowhere.toml'}); shipped rule sets: default"
    )
    write(tmp_path, 'extends = "b.toml"\n', "a.toml")
    b = write(tmp_path, 'extends = "a.toml"\n', "b.toml")
    with pytest.raises(RuleFileError) as caught:
        RuleSet.load(b)
    assert str(caught.value) == (
        f"{tmp_path / 'a.toml'}:1: extends: 'b.toml' leads back here: rule files may not "
        "extend each other in a circle"
    )


def test_a_missing_file_is_one_line_too(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError) as caught:
        RuleSet.load(tmp_path / "nope.toml")
    assert (
        str(caught.value)
        == f"{tmp_path / 'nope.toml'}: no such rule file (shipped rule sets: default)"
    )


# -- the default rule set in known positions -------------------------------------------------------


def default_choice(
    state_rows: list[tuple[str, str] | tuple[str, str, int]], decision: Decision, **kw: object
) -> Option:
    st = build_state(state_rows, phase=str(kw.pop("phase", "resolve_actions")), **kw)  # type: ignore[arg-type]
    return RuleSet.load("default").choose(observe(st, table(), 1), decision)


ROWS = [("Brother Leon", "L"), ("Brother Valencio", "R"), ("Brother Claudio", "L")]
NAMES = [r[0] for r in ROWS]


def test_support_goes_to_the_marine_facing_the_only_swarm() -> None:
    # A swarm of 3 in front of Valencio (he faces right), none elsewhere: a token gives him a
    # reroll against a 4-in-6 death; anywhere else it does nothing this round.
    choice = default_choice(
        ROWS, support_decision(NAMES), swarms={(2, "right"): ["claw-1", "claw-2", "claw-3"]}
    )
    assert choice == Option("marine", ("Brother Valencio",))


def test_support_skips_a_marine_whose_swarm_is_behind_him() -> None:
    # Rerolls need facing (RULES §6.4): with the swarm behind Leon the token is worth more on
    # Claudio, who faces his smaller swarm.
    choice = default_choice(
        ROWS,
        support_decision(NAMES),
        swarms={(1, "right"): ["claw-1", "claw-2", "claw-3"], (3, "left"): ["head-1"]},
    )
    assert choice == Option("marine", ("Brother Claudio",))


def test_a_defence_roll_that_would_slay_is_rerolled_and_a_safe_one_kept() -> None:
    rows: list[tuple[str, str] | tuple[str, str, int]] = [("Brother Leon", "L", 2)]
    swarms = {(1, "left"): ["claw-1", "claw-2"]}
    options = (Option("reroll"), Option("keep"))
    # The question as the engine words it (RULES §7: slain on a 2, not on a 3).
    asked = defence_reason("Brother Leon", 0, 2)
    lose = Decision(1, "reroll", options, reroll_prompt(asked, 2))
    safe = Decision(1, "reroll", options, reroll_prompt(asked, 3))
    assert default_choice(rows, lose, swarms=swarms) == Option("reroll")
    assert default_choice(rows, safe, swarms=swarms) == Option("keep")


def test_the_attack_goes_where_a_kill_saves_a_marine() -> None:
    # Leon (range 3, facing left) can shoot the swarm of 1 in front of Claudio at row 3 or a
    # swarm of 6 at row 1: six already slay for sure, one fewer changes nothing, while the
    # single genestealer's death saves Claudio from a 2-in-6 death.
    swarms = {(1, "left"): [f"claw-{i}" for i in range(1, 7)], (3, "left"): ["head-1"]}
    options = (
        Option("attack", ("Brother Leon", "left", 1)),
        Option("attack", ("Brother Leon", "left", 3)),
        Option("done"),
    )
    choice = default_choice(
        ROWS, Decision(1, "attack", options, "Full Auto: attack"), swarms=swarms
    )
    assert choice == Option("attack", ("Brother Leon", "left", 3))


def test_a_marine_turns_to_face_a_swarm_behind_him() -> None:
    swarms = {(1, "right"): ["claw-1", "claw-2"]}
    options = (Option("flip", ("Brother Leon",)), Option("done"))
    choice = default_choice(
        ROWS, Decision(1, "facing", options, "Reorganize: facing"), swarms=swarms
    )
    assert choice == Option("flip", ("Brother Leon",))
    # With nothing behind him and nothing to come, he stays as he is.
    quiet = default_choice(
        ROWS, Decision(1, "facing", options, "Reorganize: facing"), swarms={(1, "left"): ["claw-1"]}
    )
    assert quiet == Option("done")


def test_power_field_protects_the_most_dangerous_swarm() -> None:
    swarms = {(1, "left"): ["claw-1"], (2, "left"): ["head-1", "head-2", "head-3"]}
    options = (Option("target", (1, "left")), Option("target", (2, "left")), Option("done"))
    decision = Decision(1, "target_swarm", options, "Power Field: protect which swarm?")
    # The three at row 2 are behind Valencio (no reroll): a 4-in-6 death, against 2-in-6.
    assert default_choice(ROWS, decision, swarms=swarms) == Option("target", (2, "left"))


# -- whole games -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_the_default_rule_set_plays_whole_games_legally(players: int) -> None:
    for seed in (11, 12):
        bots = [RulesPlayer(seed=seed * 10 + s) for s in range(players)]
        # play_game raises IllegalChoiceError for any option the bot makes up.
        result = play_game(GameConfig(players, seed=seed), bots)
        assert result.outcome in ("victory", "defeat")
        assert result.decisions > 0


def test_a_fixed_seed_gives_the_same_games() -> None:
    first = simulate(1, 6, 40, "rules", bot_key=TEST_BOT_KEY)
    again = simulate(1, 6, 40, "rules", bot_key=TEST_BOT_KEY)
    assert first == again


def test_choices_depend_only_on_the_seed_and_what_is_seen() -> None:
    assert not replays_on_resume(RulesPlayer())
    game = Game(GameConfig(1, seed=5))
    one, two = RulesPlayer(seed=9), RulesPlayer(seed=9)
    for _ in range(40):
        decision = game.decision
        assert decision is not None
        # Asked twice in a row, or by a fresh bot with the same seed: the same answer.
        a = one.choose(game.observation(1), decision)
        assert one.choose(game.observation(1), decision) == a
        assert two.choose(game.observation(1), decision) == a
        game.apply(a)


def test_a_search_can_use_the_rule_set_on_its_own_state() -> None:
    """The rollout API: a view over a game's own state (hidden piles full) gives the same
    choice as the honest observation, since rules read only the piles' sizes."""

    class View:
        def __init__(self, game: Game, seat: int) -> None:
            self.seat = seat
            self.state = game.state
            self.table = game.table
            self.counts = pile_counts(game.state)

    rules = RuleSet.load("default")
    game = Game(GameConfig(2, seed=8))
    while game.decision is not None:
        decision = game.decision
        seat = decision.seat
        honest = rules.scores(game.observation(seat), decision)
        cheap = rules.scores(View(game, seat), decision)
        assert cheap == honest
        game.apply(rules.choose(View(game, seat), decision, random.Random(0)))


# -- the command line ------------------------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


def test_simulate_takes_a_rule_file(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "default"\n[let]\nw_kill = 0.5\n')
    result = run("simulate", "-p", "1", "-n", "3", "-s", "1", "--strategy", f"rules:rules={path}")
    assert result.returncode == 0, result.stderr
    assert f"strategy 'rules:rules={path}'" in result.stdout


def test_simulate_refuses_a_broken_rule_file_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "[[attack]]\nif = 'fornt > 1'\nscore = 1\n")
    result = run("simulate", "-p", "1", "-n", "3", "--strategy", f"rules:rules={path}")
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"{path}:2:7: [[attack]] rule 1, 'if': unknown name 'fornt'" in lines[0]


# -- the documentation -----------------------------------------------------------------------------


def test_every_value_a_rule_may_read_is_documented_with_its_type() -> None:
    from deathangel.players.rules.vocab import VOCABULARY

    doc = (Path(__file__).resolve().parents[3] / "docs" / "strategies.md").read_text("utf-8")
    missing = [
        name for name, entry in VOCABULARY.items() if f"| `{name}` | {entry.type} |" not in doc
    ]
    assert missing == []


def test_the_example_rule_file_in_the_docs_loads() -> None:
    example = Path(__file__).resolve().parents[3] / "docs" / "examples" / "rules" / "cautious.toml"
    rules = RuleSet.load(example)
    assert rules.path == example
    assert "place_support" in rules.scorers


def test_the_docs_append_example_adds_one_rule_to_the_defaults(tmp_path: Path) -> None:
    doc = (Path(__file__).resolve().parents[3] / "docs" / "strategies.md").read_text("utf-8")
    start = doc.index('```toml\nextends = "default"\nappend = ["choose_action"]')
    snippet = doc[start + len("```toml\n") : doc.index("```", start + 3)]
    rules = RuleSet.load(write(tmp_path, snippet))
    shipped = RuleSet.load("default")
    assert rules.rule_counts["choose_action"] == shipped.rule_counts["choose_action"] + 1
    assert rules.rule_counts["attack"] == shipped.rule_counts["attack"]


def test_the_search_preferences_example_adds_exactly_its_two_weights(tmp_path: Path) -> None:
    """docs/examples/rules/search-preferences.toml adds two weights to the default Choose
    Actions rules (``append``): at its written zeros it scores every card as the default does; with
    weights set, Forward Scouting gains k_scout and a Support card k_support in round 1 only."""
    examples = Path(__file__).resolve().parents[3] / "docs" / "examples" / "rules"
    shipped = RuleSet.load("default")
    as_written = RuleSet.load(examples / "search-preferences.toml")
    weighted_file = tmp_path / "weighted.toml"
    weighted_file.write_text(
        f'extends = "{(examples / "search-preferences.toml").as_posix()}"\n'
        "[let]\nk_support = 0.25\nk_scout = 0.5\n",
        encoding="utf-8",
    )
    weighted = RuleSet.load(weighted_file)
    kinds = {name: card.kind for name, (_, card) in table().actions.items()}
    seen = {"scout": 0, "support": 0, "later": 0}
    for seed in range(40):
        game = Game(GameConfig(1, seed=seed))
        player = RulesPlayer(seed)
        while (decision := game.decision) is not None:
            view = game.observation(decision.seat)
            if decision.kind == "choose_action":
                base = shipped.scores(view, decision)
                assert as_written.scores(view, decision) == base
                for option, old, new in zip(
                    decision.options, base, weighted.scores(view, decision), strict=True
                ):
                    card = option.text("card")
                    extra = 0.5 * (card == "Forward Scouting")
                    extra += 0.25 * (kinds[card] == "support" and game.state.round == 1)
                    assert new == pytest.approx(old + extra)
                    seen["scout"] += card == "Forward Scouting"
                    seen["support"] += kinds[card] == "support" and game.state.round == 1
                    seen["later"] += kinds[card] == "support" and game.state.round > 1
            game.push(player.choose(view, decision))
    assert min(seen.values()) > 0


def test_the_figures_script_matches_simulate() -> None:
    """docs/examples/strategy_figures.py makes the docs' rows: its win rate and locations must
    be those of `deathangel simulate` for the same games."""
    script = Path(__file__).resolve().parents[3] / "docs" / "examples" / "strategy_figures.py"
    out = subprocess.run(
        [
            *(sys.executable, str(script), "-p", "2", "-n", "4", "-s", "3", "--by-team"),
            *("--bot-key", TEST_BOT_KEY),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    summary = simulate(2, 4, 3, "rules", bot_key=TEST_BOT_KEY)
    assert f"{summary.wins} wins" in out
    assert f"mean locations reached {summary.mean_locations:.2f}" in out
    # Four games of two seats with two teams each (RULES §3): sixteen team entries in all.
    rows = [line for line in out.splitlines() if line.count(" | ") == 3 and "games" not in line]
    assert sum(int(line.split(" | ")[1]) for line in rows) == 16


def test_an_instinct_card_not_yet_shown_stays_hidden_from_a_raw_view() -> None:
    """A search's own state holds the Event being resolved even while it is the current
    player's alone (RULES §8); the rules must not read it for another seat."""
    from deathangel.players.rules.features import Situation

    st = build_state(
        [("Brother Leon", "L"), ("Brother Claudio", "R")],
        seats=[["red"], ["yellow"]],
        players=2,
        phase="event",
    )
    t = table()
    st.event = next(i for i, e in enumerate(t.events) if e.name == "Psychic Assault")
    st.event_hidden = True
    st.current_seat = 1

    class View:
        def __init__(self, seat: int) -> None:
            self.seat = seat
            self.state = st
            self.table = t
            self.counts = pile_counts(st)

    decision = Decision(1, "target_marine", (Option("marine", ("Brother Leon",)),), "x")
    assert Situation(View(1), decision).event == "Psychic Assault"
    assert Situation(View(2), decision).event == ""
