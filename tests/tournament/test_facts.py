"""A game's facts (deathangel.tournament.facts) against the game's own log: the recorder
watches three engine methods, the log is written by the engine itself, so the two are
independent accounts of the same game. Then the results database: facts in their table,
recording off, and format-1 databases made before the table existed."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from plugin_kit import EVERY_VARIANT, shipped_module, shipped_ruleset
from support import TEST_BOT_KEY
from tourney_rows import stored

from deathangel.analysis.simulate import play_out
from deathangel.engine.game import Game, GameConfig
from deathangel.players import RandomPlayer
from deathangel.plugins.ruleset import load_ruleset
from deathangel.tournament.facts import GameFacts
from deathangel.tournament.results import Results, ResultsError
from deathangel.tournament.runner import run_tournament
from deathangel.tournament.tournament import build_config

ROUND = re.compile(r"— round (\d+) —")
REVEALED = re.compile(r"(.+?) \(([a-z]+), \d+\)(?:, |$)")
DEATH = re.compile(r"(.+) is slain \((.+)\)")
ACTIVATES = re.compile(r"(.+) activates the (.+)")


def from_log(game: Game) -> dict[str, Any]:
    """The facts as the game's log tells them."""
    marines = {name: colour for name, (colour, _) in game.table.marines.items()}
    cards: dict[str, Counter[str]] = {}
    events: Counter[str] = Counter()
    reached = [[game.state.setup_location.name, 0]]  # type: ignore[union-attr]
    deaths = []
    terrain: Counter[str] = Counter()
    rerolls = 0
    round_ = 0
    for line in game.log:
        rerolls += line.count("rerolled with a support token")
        if m := ROUND.fullmatch(line):
            round_ = int(m[1])
        elif line.startswith("revealed: "):
            for card, team in REVEALED.findall(line[len("revealed: ") :]):
                cards.setdefault(team, Counter())[card] += 1
        elif line.startswith("setup event: "):
            events[line[len("setup event: ") : -len(" (spawn boxes only)")]] += 1
        elif line.startswith("— Event: "):
            events[line[len("— Event: ") : -len(" —")]] += 1
        elif line.startswith("the marines travel to "):
            reached.append([line[len("the marines travel to ") :], round_])
        elif (m := DEATH.fullmatch(line)) and m[1] in marines:
            deaths.append([m[1], marines[m[1]], len(reached) - 1, m[2], round_])
        elif (m := ACTIVATES.fullmatch(line)) and m[1] in marines:
            terrain[m[2]] += 1
    return {
        "cards": {team: dict(c) for team, c in cards.items()},
        "events": dict(events),
        "reached": [tuple(r) for r in reached],
        "deaths": deaths,
        "terrain": dict(terrain),
        "rerolls": rerolls,
    }


def played(config: GameConfig, ruleset: Any = None) -> tuple[Game, GameFacts, list[str], set[str]]:
    """A game played by random bots with its log and facts; its location deck at the first
    decision (top first) and every terrain card seen in the formation at a decision."""
    from deathangel.tournament.facts import FactsRecorder

    game = Game(config, ruleset=ruleset, log=True, checkpoints=False, forward=False)
    deck = game.state.to_dict(game.table)["location_deck"]
    recorder = FactsRecorder(game)
    seen: set[str] = set()

    class Watching(RandomPlayer):
        def choose(self, observation: Any, decision: Any) -> Any:
            for pos in game.state.formation:
                seen.update(t.name for side in pos.terrain for t in side)
            return super().choose(observation, decision)

    play_out(game, [Watching(config.seed * 10 + s) for s in range(config.players)])
    return game, GameFacts.from_json(recorder.finish()), deck, seen


def check(game: Game, facts: GameFacts, deck: list[str], seen: set[str]) -> None:
    told = from_log(game)
    assert {t: dict(c) for t, c in facts.cards.items()} == told["cards"]
    assert dict(facts.events) == told["events"]
    assert list(facts.reached) == told["reached"]
    assert [[d.marine, d.team, d.place, d.cause, d.round] for d in facts.deaths] == told["deaths"]
    assert dict(facts.terrain) == told["terrain"]
    assert facts.rerolls == told["rerolls"]
    assert list(facts.deck) == deck
    assert seen <= set(facts.placed)
    st = game.state
    assert facts.marines == sum(len(game.table.db.team(t).marines) for t in st.team_seat)
    assert facts.marines - len(facts.deaths) + len(facts.rescues) == len(st.formation)
    assert facts.standing(st.round + 1) == len(st.formation)
    assert facts.standing_on_arrival(len(facts.reached)) == len(st.formation)
    # Every round the game played revealed one card per team still in it.
    rounds = sum(sum(c.values()) for c in facts.cards.values())
    assert rounds >= st.round


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_the_facts_of_base_games_are_what_their_logs_say(players: int) -> None:
    for seed in range(4):
        check(*played(GameConfig(players, seed=seed)))


def test_the_facts_of_expansion_games_are_what_their_logs_say() -> None:
    """Broodwake (new terrain, an on-entering ability, enemies) and every house rule
    (teams chosen at setup, a fixed final location...)."""
    rulesets = [
        shipped_ruleset("broodwake"),
        shipped_ruleset("variants"),
    ]
    for rules in rulesets:
        for seed in range(8):
            check(*played(GameConfig(1 + seed % 6, seed=seed), rules))


def test_a_game_that_ends_mid_round_counts_that_round() -> None:
    """A defeat in the Genestealer Attack phase: the round's revealed cards are counted
    although the round never ended."""
    games = 0
    for seed in range(40):
        game, facts, deck, seen = played(GameConfig(1, seed=seed))
        if game.state.outcome == "defeat" and game.state.phase == "genestealer_attack":
            check(game, facts, deck, seen)
            # The last team standing revealed a card every round, the last one included.
            assert max(sum(c.values()) for c in facts.cards.values()) == game.state.round
            games += 1
    assert games > 0


def test_malformed_facts_are_refused() -> None:
    with pytest.raises(ValueError, match="not the facts of a game"):
        GameFacts.from_json('{"cards": {}}')
    with pytest.raises(ValueError, match="not the facts of a game"):
        GameFacts.from_json("[1, 2]")


# -- in the results database --------------------------------------------------------------------


def config(**extra: Any) -> Any:
    data = {
        "games": 6,
        "seed": 3,
        "players": [1, 3],
        "entry": [{"strategy": "random"}],
        "bot_key": TEST_BOT_KEY,
        **extra,
    }
    return build_config(data)


def test_every_game_stored_has_its_facts(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    run_tournament(config(), db, workers=0, batch=4)
    rows = stored(db, facts=True)
    assert len(rows) == 12
    for row in rows:
        facts = GameFacts.from_json(row[-1])
        players, outcome, rounds = row[0], row[6], row[7]
        assert facts.marines == 6 if players < 3 else facts.marines >= 6
        assert len(facts.reached) == row[8]  # locations_reached
        assert (facts.standing(rounds + 1) == 0) == (outcome == "defeat")
        assert max((d.round for d in facts.deaths), default=0) <= rounds
    with Results.open(db) as results:
        assert results.meta_value("facts") == "1"
        assert results.config.facts


def test_facts_can_be_left_out_and_a_resume_keeps_the_databases_choice(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    run_tournament(config(facts=False), db, workers=0)
    assert all(row[-1] is None for row in stored(db, facts=True))
    # Half the games gone (as if the run had stopped there), then resumed by a config that
    # asks for facts: the database was made without, so the games played again are too.
    forget_half(db)
    run_tournament(config(), db, workers=0, resume=True)
    rows = stored(db, facts=True)
    assert len(rows) == 12
    assert all(row[-1] is None for row in rows)
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*) FROM facts").fetchone() == (0,)
    assert dict(conn.execute("SELECT key, value FROM meta").fetchall())["facts"] == "off"
    conn.close()


def forget_half(db: Path) -> None:
    """Delete games 3 and on, as if the run had stopped before them."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DELETE FROM games WHERE game >= 3")
    conn.close()


def test_a_bad_facts_value_is_one_line() -> None:
    from deathangel.tournament.tournament import TournamentConfigError

    with pytest.raises(TournamentConfigError, match="facts must be true or false, not 'yes'"):
        config(facts="yes")


def as_version_1(db: Path) -> None:
    """Turn a database into what format 1 made: no facts table, no facts in meta."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TABLE facts")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'version'")
    conn.execute("DELETE FROM meta WHERE key = 'facts'")
    conn.close()


def test_a_format_1_database_still_opens_reports_and_resumes(tmp_path: Path) -> None:
    from deathangel.tournament.report import read_report

    db = tmp_path / "old.db"
    run_tournament(config(), db, workers=0)
    as_version_1(db)
    forget_half(db)
    with Results.open(db) as results:
        assert not results.config.facts
        assert read_report(results).games == 6
    run_tournament(config(), db, workers=0, resume=True)
    assert len(stored(db)) == 12
    conn = sqlite3.connect(db)
    tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert "facts" not in tables  # still format 1: nothing was added to it


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("version", "3", "results format version 3 is not supported (this deathangel reads "
         "versions 1, 2)"),
        ("facts", "9", "its games' facts are of version 9; this deathangel reads version 1"),
    ],
)  # fmt: skip
def test_an_unknown_version_is_refused_naming_it(
    tmp_path: Path, key: str, value: str, message: str
) -> None:
    db = tmp_path / "r.db"
    run_tournament(config(games=1), db, workers=0)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
    conn.close()
    with pytest.raises(ResultsError) as info:
        Results.open(db)
    assert str(info.value) == f"{db}: {message}"


def test_the_shipped_plugins_load_for_the_recorder() -> None:
    """The rulesets above really are the expansions (the test would say little of them
    otherwise): broodwake adds its white team, the variants their switches."""
    assert "white" in [t.color for t in shipped_ruleset("broodwake").db.teams]
    rules = load_ruleset(extra=[shipped_module("variants")], variants=EVERY_VARIANT)
    assert rules.switches.choose_teams
