"""Property tests: many random games for every player count, invariants after every step.

Each property plays complete games with :class:`~deathangel.players.RandomPlayer` and checks
one promise of the engine (DESIGN "Invariants everywhere", "Determinism", "Decision protocol"):
the invariants of :mod:`tests.invariants` hold after every decision, every game ends, the same
config and bot give the same game, a save taken at any decision resumes the same game, and a
clone taken at any decision is faithful to its original and independent of it.

The random player never looks at what it is given, so it is asked as the game's runners ask
it (``deathangel.analysis.simulate.play_out``): with no observation. The properties that play
games to check the invariants build every deciding seat's observation anyway (``look``), so
observations are still made at every kind of decision of many random games.

Examples per property come from a hypothesis profile registered here (not in ``conftest.py``,
so other test modules keep their own settings). ``DEATHANGEL_PROPERTIES=long`` runs many more.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plugin_kit import SHIPPED, shipped_ruleset

from deathangel.engine.decisions import Decision, Option
from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.engine.invariants import Progress, check_invariants
from deathangel.engine.randomness import STREAMS
from deathangel.engine.state import GameState
from deathangel.players import RandomPlayer
from deathangel.players.base import observes

# -- settings -----------------------------------------------------------------------------------

settings.register_profile(
    "deathangel-properties",
    # Games of random bots are short (about 30-110 decisions): 40 examples per player count
    # keep this module near 25 s on a 2-core machine.
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "deathangel-properties-long",
    settings.get_profile("deathangel-properties"),
    max_examples=400,
)
PROFILE = settings.get_profile(
    "deathangel-properties-long"
    if os.environ.get("DEATHANGEL_PROPERTIES") == "long"
    else "deathangel-properties"
)

PLAYERS = pytest.mark.parametrize("players", range(1, 7))
SEEDS = st.integers(0, 2**32 - 1)
MAX_DECISIONS = 20_000
"""A game that asks more than this has stopped progressing (random games end within ~150)."""


# -- helpers ------------------------------------------------------------------------------------


def new_game(players: int, seed: int, **kwargs: Any) -> Game:
    return Game(GameConfig(players=players, seed=seed), **kwargs)


def unpointed(players: int, seed: int) -> Game:
    """A game that takes no restart points, as simulate and the tournament play one: for a
    course that is only read (a fifth of the clone properties' time went to points nobody
    used)."""
    return new_game(players, seed, checkpoints=False)


def bot_choice(game: Game, bot: RandomPlayer, *, look: bool = False) -> Option:
    """The bot's answer, asked as the game's runners ask it: with only what the deciding
    seat may know, or with nothing for a bot that never looks (the random player). With
    ``look``, the seat's observation is built and checked whatever the bot."""
    decision = game.decision
    assert decision is not None
    observation = None
    if look or observes(bot):
        observation = game.observation(decision.seat)
        assert observation.decision == decision
        assert observation.forward is not None, "a game's observations carry forward data"
        hidden = observation.state
        assert not (hidden.gs_deck or hidden.event_deck or hidden.location_deck)
        assert hidden.blips == [[], []]
    option = bot.choose(observation, decision)
    assert option in decision.options
    return option


def play_out(
    game: Game, bot: RandomPlayer, *, check: bool = True, look: bool = False
) -> list[Option]:
    """Let ``bot`` answer every decision to the end, checking the invariants after each
    step (and, with ``look``, building every deciding seat's observation); returns the
    options taken."""
    taken: list[Option] = []
    progress: Progress | None = check_invariants(game) if check else None
    while game.decision is not None:
        assert len(game.history) < MAX_DECISIONS, (
            f"seed {game.config.seed}, {game.config.players} player(s): still undecided "
            f"after {MAX_DECISIONS} decisions (round {game.state.round})"
        )
        option = bot_choice(game, bot, look=look)
        game.push(option)
        taken.append(option)
        if check:
            progress = check_invariants(game, progress)
    return taken


def replay(game: Game, options: list[Option], *, check: bool = False) -> None:
    """Apply recorded options through the checked path (each must still be legal)."""
    progress = check_invariants(game) if check else None
    for option in options:
        game.apply(option)
        if check:
            progress = check_invariants(game, progress)


def hidden_fields(state: GameState) -> dict[str, Any]:
    """State that ``to_dict`` leaves out but the rest of the game depends on."""
    return {
        "chosen": dict(state.chosen),
        "resolved": sorted(state.resolved),
        "event": state.event,
        "attacked": sorted(state.attacked),
        "moved": sorted(state.moved),
        "protected": sorted(state.protected),
        "activated": sorted(state.activated),
        "team_seat": dict(state.team_seat),
    }


def fingerprint(game: Game) -> dict[str, Any]:
    """Everything that decides the rest of a game: state (hidden parts too), the pending
    decision, the history and the position of every random stream."""
    return {
        "state": game.state.to_dict(game.table),
        "hidden": hidden_fields(game.state),
        "decision": game.decision,
        "history": list(game.history),
        "outcome": game.outcome,
        "streams": {name: game.engine.streams[name].getstate() for name in STREAMS},
    }


def final(game: Game) -> tuple[dict[str, Any], str | None, list[Option]]:
    return game.state.to_dict(game.table), game.outcome, list(game.history)


def round_start_and_mid_round(game: Game, options: list[Option]) -> tuple[list[int], list[int]]:
    """Split the decision indexes of a game (replayed from ``options``) into those at the
    start of a round (the first Choose Actions question) and all the others."""
    starts, middles = [], []
    for i, option in enumerate(options):
        decision = game.decision
        assert decision is not None
        at_start = decision.kind == "choose_action" and not game.state.chosen
        (starts if at_start else middles).append(i)
        game.push(option)
    return starts, middles


# -- every game keeps the invariants and ends ---------------------------------------------------


@PLAYERS
@settings(PROFILE)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_random_games_keep_invariants_and_end(players: int, seed: int, bot_seed: int) -> None:
    game = new_game(players, seed)
    # Every deciding seat's observation is built on the way: building it changes nothing
    # the invariants see, and it always holds the forward model's record of the game.
    taken = play_out(game, RandomPlayer(bot_seed), look=True)
    assert game.is_over() and game.decision is None
    assert game.outcome in ("victory", "defeat")
    assert game.history == taken
    assert 0 < len(taken) < MAX_DECISIONS
    # The end is final: observations still work, and nothing more can be applied.
    for seat in range(1, players + 1):
        obs = game.observation(seat)
        assert obs.decision is None
        json.dumps(obs.to_dict())


@PLAYERS
@settings(PROFILE)
@given(seed=SEEDS, bot_seed=SEEDS, handicap=st.integers(0, 2))
def test_handicap_games_keep_invariants(
    players: int, seed: int, bot_seed: int, handicap: int
) -> None:
    marines = {1: 6, 2: 8, 3: 12, 4: 8, 5: 10, 6: 12}[players]
    handicap = min(handicap, 12 // marines)
    game = Game(GameConfig(players=players, seed=seed, handicap=handicap))
    assert [p.marine.tokens for p in game.state.formation] == [handicap] * marines
    assert game.state.supply == 12 - handicap * marines
    play_out(game, RandomPlayer(bot_seed))
    assert game.outcome in ("victory", "defeat")


@PLAYERS
@settings(PROFILE)
@given(seed=SEEDS, bot_seed=SEEDS, data=st.data())
def test_chosen_teams_keep_invariants(
    players: int, seed: int, bot_seed: int, data: st.DataObject
) -> None:
    per_seat = {1: 3, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1}[players]
    colours = data.draw(
        st.permutations(["green", "yellow", "red", "blue", "grey", "purple"]), label="teams"
    )
    teams = tuple(tuple(colours[i * per_seat : (i + 1) * per_seat]) for i in range(players))
    game = Game(GameConfig(players=players, seed=seed, teams=teams))
    assert tuple(map(tuple, game.state.seats)) == teams
    play_out(game, RandomPlayer(bot_seed))


# -- determinism --------------------------------------------------------------------------------


@PLAYERS
@settings(PROFILE)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_same_config_and_bot_give_the_same_game(players: int, seed: int, bot_seed: int) -> None:
    first = new_game(players, seed)
    play_out(first, RandomPlayer(bot_seed), check=False)
    second = new_game(players, seed)
    play_out(second, RandomPlayer(bot_seed), check=False)
    assert second.history == first.history
    assert final(second) == final(first)
    assert fingerprint(second) == fingerprint(first)
    # Logging is a projection: switching it on changes nothing, and two logs agree.
    logged = new_game(players, seed, log=True)
    play_out(logged, RandomPlayer(bot_seed), check=False)
    assert final(logged) == final(first)
    again = new_game(players, seed, log=True)
    replay(again, list(first.history))
    assert again.log == logged.log
    assert again.log, "a logged game has a log"
    # The checked path (codes, as a save stores them) plays the same game as the fast one.
    coded = new_game(players, seed)
    for option in first.history:
        coded.apply(json.loads(json.dumps(option.code())))
    assert final(coded) == final(first)


# -- save and load ------------------------------------------------------------------------------


@PLAYERS
@settings(PROFILE)
@given(seed=SEEDS, bot_seed=SEEDS, data=st.data())
def test_save_at_any_decision_resumes_the_same_game(
    players: int, seed: int, bot_seed: int, data: st.DataObject
) -> None:
    original = new_game(players, seed)
    options = play_out(original, RandomPlayer(bot_seed), check=False)
    at = data.draw(st.integers(0, len(options)), label="save at decision")
    game = new_game(players, seed)
    replay(game, options[:at])
    before = fingerprint(game)
    saved = json.loads(json.dumps(game.to_save()))
    assert fingerprint(game) == before, "saving changed the game"
    loaded = Game.from_save(saved)
    assert fingerprint(loaded) == before
    check_invariants(loaded)
    # Continuing with the options the original took gives the same rest of the game.
    replay(loaded, options[at:], check=True)
    assert final(loaded) == final(original)


@st.composite
def game_configs(draw: st.DrawFn) -> GameConfig:
    """Any game the options allow: 1-6 players, any seed, teams dealt or chosen, any
    handicap the supply can pay (RULES §3; the counts come from the cards, not from here)."""
    db = default_database()
    players = draw(st.integers(1, 6), label="players")
    per_seat = db.setup_location_for(players).teams_per_player[players]
    teams: tuple[tuple[str, ...], ...] | None = None
    if draw(st.booleans(), label="choose teams"):
        colours = draw(st.permutations([t.color for t in db.teams]), label="team colours")
        teams = tuple(tuple(colours[i * per_seat : (i + 1) * per_seat]) for i in range(players))
        marines = sum(len(db.team(c).marines) for seat in teams for c in seat)
    else:
        # Dealt teams are only known once dealt: bound by the largest teams.
        marines = players * per_seat * max(len(t.marines) for t in db.teams)
    handicap = draw(st.integers(0, db.support_tokens // marines), label="handicap")
    seed = draw(SEEDS, label="seed")
    return GameConfig(players=players, seed=seed, teams=teams, handicap=handicap)


Step = tuple[Option, Decision | None, dict[str, Any]]


def play_on(game: Game, bot: RandomPlayer) -> list[Step]:
    """Play ``game`` to its end with ``bot``: each option with the decision and state after."""
    steps: list[Step] = []
    while game.decision is not None:
        assert len(game.history) < MAX_DECISIONS
        option = bot_choice(game, bot)
        game.push(option)
        steps.append((option, game.decision, game.state.to_dict(game.table)))
    return steps


@pytest.mark.long
@settings(PROFILE, max_examples=PROFILE.max_examples * 3)
@given(config=game_configs(), bot_seed=SEEDS, data=st.data())
def test_save_with_every_option_resumes_the_same_game(
    config: GameConfig, bot_seed: int, data: st.DataObject
) -> None:
    """Every option of :class:`GameConfig` survives a save: handicap and chosen teams too.

    Three ways back: the file (``save``/``load``), the full dict, and a dict without the
    recorded ``state``/``pending`` (``from_save`` accepts it, so only this test compares what
    the replay reaches)."""
    bot = RandomPlayer(bot_seed)
    game = Game(config)
    if config.teams is not None:
        assert tuple(map(tuple, game.state.seats)) == config.teams
    assert {p.marine.tokens for p in game.state.formation} == {config.handicap}
    steps = data.draw(st.integers(0, 150), label="decisions before saving")
    while game.decision is not None and len(game.history) < steps:
        game.push(bot_choice(game, bot))
    before = fingerprint(game)
    saved = json.loads(json.dumps(game.to_save()))
    bare = {k: v for k, v in saved.items() if k not in ("state", "pending")}
    loaded: list[Game] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        game.save(path)
        for load in (
            lambda: Game.from_save(bare),
            lambda: Game.from_save(saved),
            lambda: Game.load(path),
        ):
            copy = load()
            assert copy.config == game.config
            assert copy.state.to_dict(copy.table) == before["state"]
            assert copy.decision == game.decision
            assert fingerprint(copy) == before
            loaded.append(copy)
    assert fingerprint(game) == before, "saving changed the game"
    # Then every copy, given the original's answers, plays the original's rest of the game.
    rest = play_on(game, RandomPlayer(data.draw(SEEDS, label="bot after saving")))
    end = fingerprint(game)
    for copy in loaded:
        for option, decision, state in rest:
            copy.apply(option)
            assert copy.decision == decision
            assert copy.state.to_dict(copy.table) == state
        assert fingerprint(copy) == end


# -- clones -------------------------------------------------------------------------------------


def clone_and_check(game: Game, bot: RandomPlayer) -> tuple[Game, list[Option]]:
    """Clone ``game``, play the clone out with ``bot`` and check the original never moved;
    returns the finished clone and the options it took after the clone point."""
    before = fingerprint(game)
    clone = game.clone()
    assert clone is not game
    assert fingerprint(clone) == before, "a fresh clone differs from its original"
    check_invariants(clone)
    resaved = Game.from_save(json.loads(json.dumps(clone.to_save())))
    assert fingerprint(resaved) == before, "a clone's save does not rebuild it"
    # The clone's own course is compared with the original's whole (final, fingerprint);
    # the invariants of a game's course are the properties above.
    taken = play_out(clone, bot, check=False)
    assert fingerprint(game) == before, "playing a clone changed its original"
    return clone, taken


@PLAYERS
@settings(PROFILE)
@given(seed=SEEDS, bot_seed=SEEDS, clone_bot=SEEDS, data=st.data())
def test_clone_at_any_decision_is_independent_and_faithful(
    players: int, seed: int, bot_seed: int, clone_bot: int, data: st.DataObject
) -> None:
    # The course to clone from, gathered as the runners play a game nobody clones.
    options = play_out(unpointed(players, seed), RandomPlayer(bot_seed), check=False)
    at = data.draw(st.integers(0, len(options)), label="clone at decision")
    game = new_game(players, seed)
    replay(game, options[:at])
    clone, taken = clone_and_check(game, RandomPlayer(clone_bot))
    # The original, given the clone's answers, reaches exactly the clone's end.
    replay(game, taken)
    assert final(game) == final(clone)
    assert fingerprint(game) == fingerprint(clone)


@PLAYERS
@settings(PROFILE)
@given(seed=SEEDS, bot_seed=SEEDS, clone_bot=SEEDS, data=st.data())
def test_clone_at_round_start_and_mid_round(
    players: int, seed: int, bot_seed: int, clone_bot: int, data: st.DataObject
) -> None:
    options = play_out(unpointed(players, seed), RandomPlayer(bot_seed), check=False)
    starts, middles = round_start_and_mid_round(unpointed(players, seed), options)
    assert starts and starts[0] == 0, "the first decision of a game opens round 1"
    for label, indexes in (("round start", starts), ("mid-round", middles)):
        if not indexes:
            continue
        at = data.draw(st.sampled_from(indexes), label=label)
        game = new_game(players, seed)
        replay(game, options[:at])
        clone, taken = clone_and_check(game, RandomPlayer(clone_bot))
        replay(game, taken)
        assert final(game) == final(clone)


@PLAYERS
@settings(PROFILE, max_examples=max(5, PROFILE.max_examples // 3))
@given(seed=SEEDS, bot_seed=SEEDS)
def test_clone_matches_at_every_decision(players: int, seed: int, bot_seed: int) -> None:
    game = new_game(players, seed)
    bot = RandomPlayer(bot_seed)
    clones: list[tuple[Game, dict[str, Any]]] = []
    while True:
        clone = game.clone()
        now = fingerprint(game)
        assert fingerprint(clone) == now
        clones.append((clone, now))
        if game.decision is None:
            break
        game.push(bot_choice(game, bot))
    # Moving the original on changed none of the clones taken on the way.
    for clone, then in clones:
        assert fingerprint(clone) == then
    # Clones of clones, mid-round included, are faithful too.
    middle, then = clones[len(clones) // 2]
    twice = middle.clone().clone()
    assert fingerprint(twice) == then
    replay(twice, list(game.history[len(then["history"]) :]))
    assert final(twice) == final(game)


# -- the checker itself finds broken states -----------------------------------------------------


def _sample_game() -> Game:
    """A 2-player game a few decisions in, with genestealers in the formation."""
    game = new_game(2, 7)
    bot = RandomPlayer(7)
    while game.decision is not None and (
        game.state.genestealers_in_formation() == 0 or game.state.phase == "choose_actions"
    ):
        game.push(bot_choice(game, bot))
    assert game.decision is not None and game.state.genestealers_in_formation()
    return game


def _first_swarm(state: GameState) -> list[int]:
    return next(s for p in state.formation for s in p.swarms if s)


Breakage = Callable[[Game], None]
BREAKAGES: dict[str, tuple[Breakage, str]] = {
    "card twice": (lambda g: g.state.gs_discard.append(g.state.gs_deck[0]), "in 2 places"),
    "card lost": (lambda g: g.state.gs_deck.pop(), "in 0 places"),
    "Brood Lord in deck": (
        lambda g: g.state.gs_deck.append(g.table.deck_size),
        "may only be in a swarm",
    ),
    "Brood Lord twice": (
        lambda g: _first_swarm(g.state).extend([g.table.deck_size] * 2),
        "Brood Lord",
    ),
    "unknown genestealer": (
        lambda g: g.state.gs_discard.append(len(g.table.gs_labels)),
        "unknown genestealer id",
    ),
    "genestealer not an id": (lambda g: _first_swarm(g.state).append("x"), "unknown genestealer"),
    "unknown Brood Lord": (
        lambda g: _first_swarm(g.state).append(len(g.table.gs_labels)),
        "unknown genestealer id",
    ),
    "event lost": (lambda g: g.state.event_deck.pop(), "Event copy"),
    "unknown event": (lambda g: g.state.event_discard.append(len(g.table.events)), "unknown Event"),
    "event outside its phase": (
        lambda g: setattr(g.state, "event", g.state.event_deck.pop()),
        "outside an Event phase",
    ),
    "event twice": (lambda g: g.state.event_discard.append(g.state.event_deck[0]), "Event"),
    "token made": (
        lambda g: setattr(g.state, "location_tokens", g.state.location_tokens + 1),
        "support tokens",
    ),
    "token lost": (
        lambda g: setattr(g.state.formation[0].marine, "tokens", -1),
        "has -1 tokens",
    ),
    "slain but alive": (
        lambda g: g.state.slain.append(g.state.formation[0].marine.name),
        "slain marines still in the formation",
    ),
    "marine vanished": (lambda g: g.state.formation.pop(), "marines missing"),
    "eliminated but alive": (
        lambda g: g.state.eliminated.add(g.state.formation[0].marine.team),
        "still have marines",
    ),
    "bad facing": (lambda g: setattr(g.state.formation[0].marine, "facing", 2), "facing 2"),
    "third side": (lambda g: g.state.formation[0].swarms.append([]), "swarm side"),
    "seat mix-up": (
        lambda g: g.state.team_seat.update({next(iter(g.state.team_seat)): 9}),
        "team_seat",
    ),
    "bad current seat": (lambda g: setattr(g.state, "current_seat", 3), "current seat"),
    "location deck refilled": (
        lambda g: g.state.location_deck.append(g.state.location_deck[0]),
        "location deck",
    ),
    "one-option decision": (
        lambda g: setattr(g, "_decision", Decision(1, "move", (Option("done"),))),
        "1 option",
    ),
    "repeated options": (
        lambda g: setattr(g, "_decision", Decision(1, "move", (Option("done"), Option("done")))),
        "repeat",
    ),
    "no seat": (
        lambda g: setattr(g, "_decision", Decision(0, "move", (Option("done"), Option("x")))),
        "seat 0",
    ),
    "over but asking": (
        lambda g: setattr(g.state, "outcome", "victory"),
        "outcome .victory. but decision",
    ),
    "not over, not asking": (lambda g: setattr(g, "_decision", None), "decision None"),
}


@pytest.mark.parametrize("name", sorted(BREAKAGES))
def test_check_invariants_catches(name: str) -> None:
    game = _sample_game()
    check_invariants(game)
    broken = game.clone()
    breakage, message = BREAKAGES[name]
    breakage(broken)
    with pytest.raises(AssertionError, match=message):
        check_invariants(broken)
    check_invariants(game)  # the original was never touched


def test_check_invariants_compares_two_moments() -> None:
    game = _sample_game()
    progress = check_invariants(game)
    grown = progress._replace(location_deck=progress.location_deck - 1)
    with pytest.raises(AssertionError, match="location deck grew"):
        check_invariants(game, grown)
    later = progress._replace(round=progress.round + 1)
    with pytest.raises(AssertionError, match="round went back"):
        check_invariants(game, later)
    vanished = progress._replace(slain=("Nobody",))
    with pytest.raises(AssertionError, match="without coming back"):
        check_invariants(game, vanished)
    # A rescued marine (Rescue Space Marine) leaves the slain list for the formation: fine.
    rescued = progress._replace(slain=(game.state.formation[-1].marine.name,))
    assert check_invariants(game, rescued) == progress
    assert check_invariants(game, progress) == progress


# -- the same promises with each shipped plugin enabled ------------------------------------------

SHIPPED_PROFILE = settings(PROFILE, max_examples=max(4, PROFILE.max_examples // 3))
"""Fewer examples per plugin: the engine's own paths are covered above at full strength; these
check what the plugins add (enemy cards, new windows, rule switches) under the same promises."""
PLUGINS = pytest.mark.parametrize("plugin", sorted(SHIPPED))


@PLUGINS
@SHIPPED_PROFILE
@given(players=st.integers(1, 6), seed=SEEDS, bot_seed=SEEDS)
def test_games_with_a_shipped_plugin_keep_invariants_and_end(
    plugin: str, players: int, seed: int, bot_seed: int
) -> None:
    rules = shipped_ruleset(plugin)
    game = new_game(players, seed, ruleset=rules)
    assert game.config.plugins == rules.plugins
    play_out(game, RandomPlayer(bot_seed), look=True)  # a plugin's cards in every view too
    assert game.outcome in ("victory", "defeat")


@PLUGINS
@SHIPPED_PROFILE
@given(players=st.integers(1, 6), seed=SEEDS, bot_seed=SEEDS, data=st.data())
def test_games_with_a_shipped_plugin_save_and_clone_faithfully(
    plugin: str, players: int, seed: int, bot_seed: int, data: st.DataObject
) -> None:
    rules = shipped_ruleset(plugin)
    options = play_out(new_game(players, seed, ruleset=rules), RandomPlayer(bot_seed), check=False)
    at = data.draw(st.integers(0, len(options)), label="save and clone at decision")
    game = new_game(players, seed, ruleset=rules)
    replay(game, options[:at])
    before = fingerprint(game)
    saved = json.loads(json.dumps(game.to_save()))
    assert saved["config"]["plugins"] == [list(p) for p in rules.plugins]
    loaded = Game.from_save(saved, ruleset=rules)
    assert fingerprint(loaded) == before
    clone = game.clone()
    assert fingerprint(clone) == before
    replay(loaded, options[at:], check=True)
    replay(clone, options[at:])
    assert final(loaded) == final(clone)
