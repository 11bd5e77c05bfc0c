"""The decision protocol of :class:`~deathangel.engine.game.Game` (DESIGN "Decision protocol",
"Honest information"): checked ``apply``, option codes, save files on disk and what a seat's
observation may show."""

from __future__ import annotations

import gc
import json
import random
import weakref
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deathangel.engine.decisions import DONE, KIND_HELP, Option
from deathangel.engine.game import SAVE_FORMAT, SAVE_VERSION, Game, GameConfig
from deathangel.engine.invariants import check_invariants
from deathangel.engine.observation import Observation
from deathangel.errors import IllegalChoiceError, SaveFileError
from deathangel.players import RandomPlayer

# -- helpers ------------------------------------------------------------------------------------


def new_game(players: int = 2, seed: int = 1) -> Game:
    return Game(GameConfig(players=players, seed=seed))


def advance(game: Game, bot: RandomPlayer, until: Callable[[Game], bool]) -> Game:
    """Let ``bot`` answer until ``until(game)`` holds; fails if the game ends first."""
    while not until(game):
        decision = game.decision
        assert decision is not None, "the game ended before the wanted decision"
        game.apply(bot.choose(game.observation(decision.seat), decision))
    return game


def play_out(game: Game, bot: RandomPlayer) -> list[Option]:
    taken = []
    while game.decision is not None:
        decision = game.decision
        option = bot.choose(game.observation(decision.seat), decision)
        game.apply(option)
        taken.append(option)
    return taken


def snapshot(game: Game) -> tuple[Any, ...]:
    """What a refused ``apply`` must leave exactly as it was."""
    return (
        list(game.history),
        game.state.to_dict(game.table),
        dict(game.state.chosen),
        game.decision,
        game.outcome,
        game.engine.streams["dice"].getstate(),
    )


def strings_in(value: Any) -> list[str]:
    """Every string in a JSON-like value, dict keys included."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def game_with_done() -> Game:
    """A game whose pending decision offers ``done`` (a Move or Facing step)."""
    return advance(
        new_game(2, 3), RandomPlayer(3), lambda g: g.decision is None or DONE in g.decision.options
    )


# -- apply --------------------------------------------------------------------------------------


ILLEGAL = [
    Option("card", ("No Such Card",)),
    Option("done"),
    Option("swap", ("Nobody", "Anybody")),
    Option("reroll"),
    Option("card"),
]


@pytest.mark.parametrize("option", ILLEGAL, ids=repr)
def test_illegal_option_is_refused_and_changes_nothing(option: Option) -> None:
    game = new_game()
    decision = game.decision
    assert decision is not None and option not in decision.options
    before = snapshot(game)
    with pytest.raises(IllegalChoiceError) as caught:
        game.apply(option)
    message = str(caught.value)
    assert repr(option) in message
    assert decision.kind in message
    assert f"seat {decision.seat}" in message
    assert snapshot(game) == before
    # The game goes on normally afterwards.
    game.apply(decision.options[0])
    assert game.history == [decision.options[0]]


def test_illegal_option_mid_round_names_that_decision() -> None:
    game = game_with_done()
    decision = game.decision
    assert decision is not None and decision.kind != "choose_action"
    assert Option("done") in decision.options
    before = snapshot(game)
    wrong = Option("card", ("Block",))
    with pytest.raises(IllegalChoiceError, match=decision.kind) as caught:
        game.apply(wrong.code())
    assert repr(wrong) in str(caught.value)
    assert snapshot(game) == before
    assert isinstance(caught.value, ValueError)


def test_apply_accepts_codes() -> None:
    game = game_with_done()
    assert game.decision is not None
    n = len(game.history)
    game.apply(["done"])
    assert game.history[n:] == [DONE]
    check_invariants(game)
    # Tuples, JSON round trips and Option values are all the same answer.
    for form in ("option", "list", "tuple", "json"):
        decision = game.decision
        assert decision is not None
        option = decision.options[-1]
        answer: Any = {
            "option": option,
            "list": option.code(),
            "tuple": tuple(option.code()),
            "json": json.loads(json.dumps(option.code())),
        }[form]
        game.apply(answer)
        assert game.history[-1] == option and isinstance(game.history[-1], Option)
        check_invariants(game)


def test_apply_after_the_end_raises() -> None:
    game = new_game(1, 5)
    play_out(game, RandomPlayer(5))
    assert game.is_over() and game.outcome in ("victory", "defeat")
    before = snapshot(game)
    for answer in (DONE, ["done"], Option("card", ("Block",))):
        with pytest.raises(IllegalChoiceError, match="over"):
            game.apply(answer)
    assert snapshot(game) == before


# -- options ------------------------------------------------------------------------------------

ARGS = st.lists(st.one_of(st.text(max_size=12), st.integers()), max_size=4).map(tuple)


@settings(max_examples=200, deadline=None)
@given(verb=st.text(max_size=12), args=ARGS)
def test_option_repr_and_code_rebuild_it(verb: str, args: tuple[str | int, ...]) -> None:
    option = Option(verb, args)
    assert eval(repr(option), {"Option": Option}) == option
    assert Option.from_code(option.code()) == option
    assert Option.from_code(json.loads(json.dumps(option.code()))) == option
    assert isinstance(str(option), str)


def test_str_of_any_well_formed_code_reads() -> None:
    """``from_code`` accepts these codes, so a menu or a replay listing may print them: ``str``
    must not crash on an option with fewer arguments than its verb usually takes."""
    codes: list[list[Any]] = [
        ["card"],
        ["attack", "Brother Leon"],
        ["terrain", "Door", 2],
        ["swap", "Brother Leon"],
        ["target", 1],
    ]
    crashes = []
    for code in codes:
        option = Option.from_code(code)
        try:
            assert str(option)
        except Exception as exc:
            crashes.append(f"str({option!r}) raises {type(exc).__name__}: {exc}")
    assert not crashes, "\n".join(crashes)


@pytest.mark.parametrize("players", range(1, 7))
def test_every_option_of_real_games_round_trips(players: int) -> None:
    seen: set[Option] = set()
    for seed in range(3):
        game = Game(GameConfig(players=players, seed=seed))
        bot = RandomPlayer(seed)
        while game.decision is not None:
            seen.update(game.decision.options)
            game.apply(bot.choose(None, game.decision))
    for option in seen:
        assert eval(repr(option), {"Option": Option}) == option
        assert Option.from_code(json.loads(json.dumps(option.code()))) == option
        assert str(option) and "\n" not in str(option)


MALFORMED: list[Any] = [
    [],
    (),
    "done",
    None,
    42,
    {"verb": "done"},
    [1],
    [None],
    [True],
    ["done", True],
    ["done", None],
    ["done", 1.5],
    ["swap", ["nested"]],
    ["attack", {"row": 1}],
    [["done"]],
]


@pytest.mark.parametrize("code", MALFORMED, ids=repr)
def test_malformed_codes_are_rejected(code: Any) -> None:
    with pytest.raises(ValueError, match="not an option code"):
        Option.from_code(code)
    game = new_game()
    before = snapshot(game)
    with pytest.raises(IllegalChoiceError):
        game.apply(code)
    assert snapshot(game) == before


# -- save files ---------------------------------------------------------------------------------


def saved_game(tmp_path: Path, decisions: int = 25) -> tuple[Game, Path, RandomPlayer]:
    """A 2-player game ``decisions`` decisions in, saved to disk."""
    game = new_game(2, 11)
    bot = RandomPlayer(11)
    advance(game, bot, lambda g: g.decision is None or len(g.history) >= decisions)
    path = tmp_path / "game.json"
    game.save(path)
    return game, path, bot


def test_save_and_load_from_disk_continues_identically(tmp_path: Path) -> None:
    game, path, bot = saved_game(tmp_path)
    assert game.decision is not None, "the save should be taken mid-game"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"], "no temporary left"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == SAVE_FORMAT and data["version"] == SAVE_VERSION
    assert len(data["decisions"]) == len(game.history)
    raw = path.read_bytes()

    loaded = Game.load(path)
    assert path.read_bytes() == raw, "loading changed the save file"
    assert loaded.history == game.history
    assert loaded.decision == game.decision
    assert loaded.state.to_dict(loaded.table) == game.state.to_dict(game.table)
    check_invariants(loaded)

    rest = play_out(game, bot)
    for option in rest:
        loaded.apply(option)
    assert loaded.outcome == game.outcome
    assert loaded.history == game.history
    assert loaded.state.to_dict(loaded.table) == game.state.to_dict(game.table)

    # Saving again (a finished game) replaces the file atomically and still loads.
    game.save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    again = Game.load(path)
    assert again.is_over() and again.outcome == game.outcome
    assert again.history == game.history


def _edit(change: Callable[[dict[str, Any]], None]) -> Callable[[str], str]:
    def corrupt(text: str) -> str:
        data = json.loads(text)
        change(data)
        return json.dumps(data, indent=1)

    return corrupt


def _other_legal_first_choice(data: dict[str, Any]) -> None:
    """Replace decision 1 by a different legal option: a legal replay to another state."""
    game = Game(GameConfig(players=data["config"]["players"], seed=data["config"]["seed"]))
    assert game.decision is not None
    others = [o.code() for o in game.decision.options if o.code() != data["decisions"][0]]
    data["decisions"][0] = others[0]


CORRUPTIONS: dict[str, Callable[[str], str]] = {
    "not JSON": lambda text: "this is not a save file\n",
    "empty file": lambda text: "",
    "truncated": lambda text: text[: len(text) // 2],
    "JSON list": lambda text: "[1, 2, 3]\n",
    "JSON but not a save": lambda text: json.dumps({"hello": "world"}),
    "format missing": _edit(lambda d: d.pop("format")),
    "other format": _edit(lambda d: d.update(format="chess-pgn")),
    "newer version": _edit(lambda d: d.update(version=SAVE_VERSION + 1)),
    "version missing": _edit(lambda d: d.pop("version")),
    "config missing": _edit(lambda d: d.pop("config")),
    "bad player count": _edit(lambda d: d["config"].update(players=9)),
    "seed not a number": _edit(lambda d: d["config"].update(seed="lucky")),
    "decisions not a list": _edit(lambda d: d.update(decisions="all of them")),
    "illegal decision": _edit(lambda d: d["decisions"].__setitem__(3, ["card", "No Such Card"])),
    "malformed decision": _edit(lambda d: d["decisions"].__setitem__(2, 42)),
    "other legal decision": _edit(_other_legal_first_choice),
    "decision dropped": _edit(lambda d: d["decisions"].pop()),
    "state edited": _edit(lambda d: d["state"].update(supply=d["state"]["supply"] - 1)),
    "round edited": _edit(lambda d: d["state"].update(round=d["state"]["round"] + 1)),
    "formation edited": _edit(lambda d: d["state"]["formation"].reverse()),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_corrupt_save_files_are_refused_untouched(tmp_path: Path, name: str) -> None:
    _, path, _ = saved_game(tmp_path)
    path.write_text(CORRUPTIONS[name](path.read_text(encoding="utf-8")), encoding="utf-8")
    raw = path.read_bytes()
    with pytest.raises(SaveFileError) as caught:
        Game.load(path)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == raw, "a refused save file must stay byte-identical"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_binary_and_missing_save_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "noise.json"
    path.write_bytes(b"\xff\xfe\x00garbage\x81")
    with pytest.raises(SaveFileError, match=r"noise\.json"):
        Game.load(path)
    assert path.read_bytes() == b"\xff\xfe\x00garbage\x81"
    with pytest.raises(SaveFileError, match=r"missing\.json"):
        Game.load(tmp_path / "missing.json")
    with pytest.raises(SaveFileError):
        Game.load(tmp_path)  # a directory
    assert not (tmp_path / "missing.json").exists()


def test_from_save_does_not_change_its_data() -> None:
    game = advance(new_game(3, 4), RandomPlayer(4), lambda g: len(g.history) >= 30)
    data = game.to_save()
    copy = json.loads(json.dumps(data))
    Game.from_save(data)
    assert json.loads(json.dumps(data)) == copy
    with pytest.raises(SaveFileError):
        Game.from_save(None)


# -- observations -------------------------------------------------------------------------------

HIDDEN_KEYS = {"genestealer_deck", "blips", "event_deck", "location_deck", "chosen", "gs_deck"}


def assert_hides_decks(game: Game, seat: int) -> None:
    """The observation shows counts of the hidden piles, never their cards or order."""
    st = game.state
    table = game.table
    obs = game.observation(seat).to_dict()
    assert not HIDDEN_KEYS & set(obs), f"observation has hidden keys {HIDDEN_KEYS & set(obs)}"
    assert obs["blip_counts"] == {"left": len(st.blips[0]), "right": len(st.blips[1])}
    assert obs["genestealer_deck_count"] == len(st.gs_deck)
    assert obs["event_deck_count"] == len(st.event_deck)
    assert obs["locations_left"] == len(st.location_deck)
    shown = Counter(strings_in(obs))
    for card in st.gs_deck + st.blips[0] + st.blips[1]:
        label = table.gs_labels[card]
        assert label not in shown, f"{label} is face down but shows in the observation"
    for loc in st.location_deck:
        name = table.locations[loc].name
        assert name not in shown, f"location {name} is still in the deck but shows"
    public = Counter(table.events[e].name for e in st.event_discard)
    # The history of Events resolved is public too: each was shown to the whole table.
    public.update(table.events[e].name for e in st.events_resolved)
    if st.event is not None:
        public[table.events[st.event].name] += 1
    if obs["scouted_top_event"] is not None:
        # Forward Scouting: this seat looked at the top card, so it may know it.
        assert st.scouted is not None and st.scouted[0] == seat
        assert obs["scouted_top_event"] == table.events[st.event_deck[-1]].name
        public[obs["scouted_top_event"]] += 1
    for event in st.event_deck:
        name = table.events[event].name
        assert shown[name] <= public[name], f"Event {name} in the deck shows"
    assert json.loads(json.dumps(obs)) == obs, "the observation is plain JSON"


def shuffle_hidden(game: Game, rng: random.Random) -> Game:
    """A clone that differs only in what no seat may know: deck orders (but a scouted top
    Event card) and which cards sit in the blip piles (same counts)."""
    clone = game.clone()
    st = clone.state
    pool = st.gs_deck + st.blips[0] + st.blips[1]
    rng.shuffle(pool)
    n0, n1 = len(st.blips[0]), len(st.blips[1])
    st.blips[0], st.blips[1], st.gs_deck = pool[:n0], pool[n0 : n0 + n1], pool[n0 + n1 :]
    if st.scouted is not None and st.event_deck and st.event_deck[-1] == st.scouted[1]:
        # A scouted top card is known to its seat: only the cards below it are hidden.
        rest = st.event_deck[:-1]
        rng.shuffle(rest)
        st.event_deck[:-1] = rest
    else:
        rng.shuffle(st.event_deck)
    rng.shuffle(st.location_deck)
    return clone


@pytest.mark.parametrize("players", range(1, 7))
def test_observations_hide_decks_and_blips_at_every_step(players: int) -> None:
    rng = random.Random(players)
    for seed in (players, 100 + players):
        game = Game(GameConfig(players=players, seed=seed))
        bot = RandomPlayer(seed)
        while True:
            for seat in range(1, players + 1):
                assert_hides_decks(game, seat)
            # Nothing hidden leaks: a table with the hidden cards reordered looks the same.
            other = shuffle_hidden(game, rng)
            for seat in range(1, players + 1):
                assert other.observation(seat).to_dict() == game.observation(seat).to_dict()
            if game.decision is None:
                break
            decision = game.decision
            game.apply(bot.choose(game.observation(decision.seat), decision))


def choose_until_seat(game: Game, seat: int, pick: int = 0) -> Game:
    """Answer Choose Actions questions (option ``pick`` each time) until ``seat`` must choose."""
    while True:
        decision = game.decision
        assert decision is not None and decision.kind == "choose_action"
        if decision.seat == seat:
            return game
        game.apply(decision.options[pick % len(decision.options)])


@pytest.mark.parametrize("rounds", [0, 2])
def test_another_seats_face_down_card_is_hidden(rounds: int) -> None:
    game = new_game(2, 21)
    bot = RandomPlayer(21)
    # Play some whole rounds first, then stop at the first Choose Actions question.
    advance(game, bot, lambda g: g.state.round > rounds and g.state.phase == "choose_actions")
    assert game.decision is not None and game.decision.seat == 1
    choose_until_seat(game, 2)
    st = game.state
    seat1 = {team: card for team, card in st.chosen.items() if st.team_seat[team] == 1}
    active = set(st.seats[0]) - st.eliminated
    assert seat1 and set(seat1) == active, "seat 1 has chosen for each of its active teams"

    theirs = game.observation(2)
    assert theirs.my_choices == {}
    shown = theirs.to_dict()
    assert shown["my_choices"] == {}
    assert not set(seat1.values()) & set(strings_in(shown["my_choices"]))
    if rounds == 0:
        # Nothing was revealed yet: seat 1's cards appear nowhere in seat 2's view.
        assert not set(seat1.values()) & set(strings_in(shown))

    mine = game.observation(1)
    assert mine.my_choices == seat1
    assert mine.to_dict()["my_choices"] == seat1
    json.dumps(shown)
    json.dumps(mine.to_dict())

    # Seat 2 chooses its first card: it sees that one, and still nothing of seat 1's.
    decision = game.decision
    assert decision is not None and decision.seat == 2
    game.apply(decision.options[0])
    if game.decision is not None and game.decision.seat == 2:
        own = game.observation(2).my_choices
        assert own == {t: c for t, c in game.state.chosen.items() if game.state.team_seat[t] == 2}
        assert len(own) == 1 and not set(own) & set(seat1)
        assert game.observation(1).my_choices == seat1


@pytest.mark.parametrize("players", [2, 3, 6])
def test_a_seats_view_does_not_depend_on_others_hidden_choices(players: int) -> None:
    """Two tables where the earlier seats chose differently look the same to the last seat."""
    views = []
    for pick in (0, 1):
        game = choose_until_seat(Game(GameConfig(players=players, seed=8)), players, pick)
        st = game.state
        assert st.chosen and all(st.team_seat[t] < players for t in st.chosen)
        views.append(game.observation(players).to_dict())
        for seat in range(1, players + 1):
            own = {t: c for t, c in st.chosen.items() if st.team_seat[t] == seat}
            assert game.observation(seat).my_choices == own
    assert views[0] == views[1]


def test_observation_is_only_for_its_seat() -> None:
    game = new_game(3, 2)
    for seat in (1, 2, 3):
        obs = game.observation(seat)
        assert isinstance(obs, Observation)
        assert obs.seat == seat
        assert obs.teams == game.state.seats[seat - 1]
        assert obs.to_dict()["teams"] == list(game.state.seats[seat - 1])
        decision = game.decision
        assert decision is not None and obs.decision is not None
        if seat == decision.seat:
            assert obs.decision == decision
        else:
            # Another seat's question: who, what kind and the options, in general words only.
            assert (obs.decision.seat, obs.decision.kind) == (decision.seat, decision.kind)
            assert obs.decision.options == decision.options
            assert obs.decision.prompt == KIND_HELP[decision.kind] != decision.prompt


@pytest.mark.parametrize("players", [1, 4])
def test_a_game_without_round_checkpoints_still_clones_faithfully(players: int) -> None:
    game = Game(GameConfig(players=players, seed=17), checkpoints=False)
    bot = RandomPlayer(17)
    # Into the second round, part-way: the clone must replay from the game's start.
    while game.state.round < 2 or game.state.phase != "resolve_actions":
        assert game.decision is not None, "the game ended before the point this test needs"
        game.apply(bot.choose(game.observation(game.decision.seat), game.decision))
    clone = game.clone()
    assert clone.history == game.history
    assert clone.state.to_dict(clone.table) == game.state.to_dict(game.table)
    assert clone.decision == game.decision
    while game.decision is not None:
        option = bot.choose(game.observation(game.decision.seat), game.decision)
        game.apply(option)
        clone.apply(option)
    assert clone.state.to_dict(clone.table) == game.state.to_dict(game.table)
    assert clone.outcome == game.outcome


@pytest.mark.parametrize("checkpoints", [True, False])
def test_a_game_or_clone_let_go_is_freed_at_once(checkpoints: bool) -> None:
    """A game, its engine and its generator hold no reference cycle (the engine calls the
    game back through a weak reference), so a clone used once and dropped — a search over
    clones makes thousands — is freed when its last reference goes, not when the cycle
    collector next runs, and takes its engine (and the state it copied) with it."""
    game = Game(GameConfig(players=2, seed=23), checkpoints=checkpoints)
    bot = RandomPlayer(23)
    while game.state.round < 2 or game.state.phase != "resolve_actions":
        assert game.decision is not None
        game.apply(bot.choose(game.observation(game.decision.seat), game.decision))
    gc.disable()
    try:
        clone = game.clone()
        clone_engine = weakref.ref(clone.engine)
        gone_clone = weakref.ref(clone)
        del clone
        assert gone_clone() is None and clone_engine() is None
        engine = weakref.ref(game.engine)
        gone_game = weakref.ref(game)
        del game
        assert gone_game() is None and engine() is None
    finally:
        gc.enable()


def _play(game: Game, bot: RandomPlayer, decisions: int) -> None:
    for _ in range(decisions):
        assert game.decision is not None, "the game ended before the point this test needs"
        game.push(bot.choose(None, game.decision))


def _through_a_phase(game: Game, bot: RandomPlayer) -> None:
    """Play until a new phase has begun (a restart point of the engine) and a decision is
    pending there."""
    phase = (game.state.round, game.state.phase)
    while (game.state.round, game.state.phase) == phase:
        _play(game, bot, 1)
    assert game.decision is not None


@pytest.mark.parametrize("players", [1, 3])
def test_a_clone_played_on_copies_no_state_until_it_is_cloned_and_stays_exact(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone goes on from its original's last restart point until it is itself cloned or
    observed, so one played on and let go (a search's rollout) copies no state at a point;
    cloned later, it replays from that point and the copy is the same game."""
    import deathangel.engine.game as game_module

    game = Game(GameConfig(players=players, seed=31))
    _play(game, RandomPlayer(31), 12)
    taken = Counter[str]()

    class Counted(game_module.RestartPoint):
        def __init__(self, of: Game) -> None:
            taken["points"] += 1
            super().__init__(of)

    monkeypatch.setattr(game_module, "RestartPoint", Counted)
    clone = game.clone()
    bot = RandomPlayer(32)
    _through_a_phase(clone, bot)  # pushes only: nothing asks it for a copy or a view
    _through_a_phase(clone, bot)
    assert taken["points"] == 0
    again = clone.clone()  # replays from the original's last point: the same game
    assert again.history == clone.history and again.decision == clone.decision
    assert again.state.to_dict(again.table) == clone.state.to_dict(clone.table)
    _through_a_phase(clone, bot)  # cloned once, it takes points of its own again
    assert taken["points"] > 0
    for option in clone.history[len(again.history) :]:
        again.push(option)
    assert again.decision == clone.decision
    assert again.state.to_dict(again.table) == clone.state.to_dict(clone.table)


def test_a_determinized_game_played_on_is_determinized_again_from_its_view() -> None:
    """A determinized game that records forward data takes no restart point until it is
    observed; its seat's view then still carries what a forward model needs, and a game
    dealt from that view stands at the same decision."""
    from deathangel.engine.forward import determinize

    game = Game(GameConfig(players=2, seed=41))
    _play(game, RandomPlayer(41), 12)
    assert game.decision is not None
    imagined = determinize(game.observation(game.decision.seat), random.Random(5), forward=True)
    bot = RandomPlayer(42)
    _through_a_phase(imagined, bot)
    _through_a_phase(imagined, bot)
    _play(imagined, bot, 2)
    assert imagined.decision is not None
    view = imagined.observation(imagined.decision.seat)
    again = determinize(view, random.Random(6))
    assert again.decision == imagined.decision
    table = imagined.table
    # What the table shows is the same; only what no seat sees was dealt again.
    assert [p.to_dict(table, i) for i, p in enumerate(again.state.formation)] == [
        p.to_dict(table, i) for i, p in enumerate(imagined.state.formation)
    ]
    assert (again.state.round, again.state.phase) == (imagined.state.round, imagined.state.phase)
