"""Options read by argument name: the table of names per verb, the accessors, and that every
option the engine offers fits the table."""

from __future__ import annotations

import pytest
from support import TEST_BOT_KEY

from deathangel.engine.decisions import OPTION_ARGS, Option, read_reroll_prompt
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.state import LEFT, RIGHT, SIDES
from deathangel.players import RandomPlayer
from deathangel.players.seeds import bot_seed


def test_arguments_are_read_by_name() -> None:
    attack = Option("attack", ("Brother Leon", "right", 3))
    assert attack.text("marine") == "Brother Leon"
    assert attack.text("side") == "right" and attack.side() == RIGHT
    assert attack.number("position") == 3 and attack.row() == 2
    terrain = Option("terrain", ("Door", 2, "left"))
    assert (terrain.text("terrain"), terrain.row(), terrain.side()) == ("Door", 1, LEFT)
    assert Option("count", (4,)).number("count") == 4
    assert Option("yes", ("roll",)).text("meaning") == "roll"


def test_the_json_form_is_unchanged_by_names() -> None:
    """Saves store ``[verb, *args]`` in the order of the table."""
    assert Option("attack", ("Brother Leon", "right", 3)).code() == [
        "attack",
        "Brother Leon",
        "right",
        3,
    ]
    assert Option.from_code(["slay_at", 2, "left", "claw-1"]).text("genestealer") == "claw-1"


@pytest.mark.parametrize(
    ("option", "name"),
    [
        (Option("marine", ("Brother Leon",)), "side"),  # no such argument for the verb
        (Option("yes"), "meaning"),  # an optional argument left out
        (Option("teleport", (1,)), "position"),  # a verb the table does not know
    ],
)
def test_a_missing_argument_is_a_key_error_naming_it(option: Option, name: str) -> None:
    with pytest.raises(KeyError, match=name):
        option.text(name)


def test_options_read_as_before_in_menus() -> None:
    assert str(Option("attack", ("Brother Leon", "right", 3))) == (
        "Brother Leon attacks the right swarm at position 3"
    )
    assert str(Option("slay_at", (2, "left", "claw-1"))) == "slay claw-1 (left of position 2)"
    assert str(Option("terrain", ("Door", 2, "left"))) == "the Door at position 2 (left) draws next"
    assert str(Option("yes", ("roll",))) == "yes: roll"
    assert str(Option("yes")) == "yes"
    assert str(Option("done")) == "done"
    assert str(Option("teleport", (1,))) == "teleport 1"


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_every_offered_option_fits_the_table_of_argument_names(players: int) -> None:
    verbs: set[str] = set()
    for seed in range(25):
        game = Game(GameConfig(players=players, seed=seed), checkpoints=False)
        bots = [RandomPlayer(seed=bot_seed(TEST_BOT_KEY, seed, s)) for s in range(1, players + 1)]
        while (decision := game.decision) is not None:
            rows = len(game.state.formation)
            for option in decision.options:
                names = OPTION_ARGS[option.verb]
                optional = option.verb in ("yes", "no") and not option.args
                assert optional or len(option.args) == len(names), option
                for name, arg in zip(names, option.args, strict=False):
                    if name == "position":
                        assert isinstance(arg, int) and 1 <= arg <= rows, option
                    elif name == "side":
                        assert arg in SIDES, option
                    elif name == "count":
                        assert isinstance(arg, int) and arg >= 0, option
                    else:
                        assert isinstance(arg, str) and arg, option
                verbs.add(option.verb)
            game.push(bots[decision.seat - 1].choose(game.observation(decision.seat), decision))
    assert len(verbs) >= 10, "the games should meet most kinds of option"


def test_the_engine_s_reroll_questions_read_back_as_the_roll_they_ask_about() -> None:
    """Bots read a reroll question through ``read_reroll_prompt``: every defence roll the
    engine asks about (RULES §7) must read back as the swarm that attacks, every attack
    roll (§6.3) as the marine who makes it, facing its swarm."""
    seen = {"attack": 0, "defence": 0}
    for players in (1, 2, 4):
        for seed in range(15):
            game = Game(GameConfig(players, seed=seed))
            bot = RandomPlayer(seed)
            while game.decision is not None:
                decision = game.decision
                if decision.kind == "reroll":
                    question = read_reroll_prompt(decision.prompt)
                    if game.state.phase == "genestealer_attack":
                        assert question is not None and question.what == "defence", decision
                    if question is not None:
                        seen[question.what] += 1
                        pos = next(
                            p for p in game.state.formation if p.marine.name == question.marine
                        )
                        if question.what == "defence":
                            # The cards that have not attacked yet this phase (RULES §7).
                            assert 1 <= question.count <= len(pos.swarms[question.side])
                        else:
                            assert pos.marine.facing == question.side
                game.push(bot.choose(None, decision))
    assert seen["attack"] > 20 and seen["defence"] > 20, seen
