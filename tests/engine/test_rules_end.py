"""RULES §11 (game end) and §12 (limits: support tokens, every card in one place).

Defeat and victory are built by hand with a scripted die holding exactly the faces the rules
need: if the engine rolled once more after the game ended, the die would fail the test.
Whole games with random players check the §12 invariants at every decision.
"""

from __future__ import annotations

from collections import Counter

import pytest
from support import build_state, drive, make_engine, marines, swarm_labels, table

from deathangel.engine.core import GameOver
from deathangel.engine.decisions import Option
from deathangel.engine.game import Game, GameConfig
from deathangel.engine.state import LEFT, RIGHT, GameState
from deathangel.players import RandomPlayer

T = table()

FINAL = "Toxin Pumping Station"  # a final location whose only victory is clearing it


# -- defeat -------------------------------------------------------------------------------


def test_defeat_when_the_last_marine_falls_and_nothing_after_runs() -> None:
    st = build_state(
        [("Brother Leon", "L")],
        swarms={(1, "left"): ["claw-1"], (1, "right"): ["claw-2", "claw-3"]},
        blips=(["head-1"], ["head-2"]),
    )
    engine = make_engine(st, dice=[0])  # exactly one face: a second roll fails the test
    assert drive(engine.genestealer_attack()) == []
    # Left swarm first: 0 <= 1, Leon is slain; the right swarm never rolls.
    assert st.outcome == "defeat"
    assert engine.die.remaining == []  # type: ignore[attr-defined]
    assert marines(st) == []


def test_defeat_after_a_shift_carries_on_to_the_last_marine() -> None:
    st = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "L")],
        swarms={(1, "left"): ["claw-1"], (2, "left"): ["claw-2"], (2, "right"): ["claw-3"]},
        blips=(["head-1"], ["head-2"]),
    )
    engine = make_engine(st, dice=[0, 0])
    drive(engine.genestealer_attack())
    # Leon falls (0 <= 1); Valencio moves up. The not-yet-attacked claw-2 attacks him alone:
    # 0 <= 1, he falls, the game is lost and claw-3 never rolls.
    assert st.slain == ["Brother Leon", "Brother Valencio"]
    assert st.outcome == "defeat"
    assert engine.die.remaining == []  # type: ignore[attr-defined]


def test_defeat_stops_the_round_no_event_phase_follows() -> None:
    st = build_state(
        [("Brother Claudio", "L")],
        swarms={(1, "left"): ["claw-1"], (1, "right"): ["claw-2"]},
        blips=(["head-1"], ["head-2"]),
        location_deck=["Cryo Control"],
    )
    events = st.event_deck[:]
    engine = make_engine(st, dice=[0])
    # Choose Actions: Defensive Stance (support); its token goes on Claudio, the only marine.
    # Genestealer Attack: Claudio (1 token, faces the left swarm) may reroll: he keeps the 0.
    seen = drive(
        engine.run(),
        [Option("card", ("Defensive Stance",)), Option("keep")],
    )
    assert [d.kind for d in seen] == ["choose_action", "reroll"]
    assert st.outcome == "defeat"
    assert st.phase == "genestealer_attack"
    assert engine.die.remaining == []  # type: ignore[attr-defined]
    assert st.event_deck == events and st.event_discard == []
    assert st.location is None  # no travel check ran either
    assert st.supply == 12  # the fallen marine's token went home


def test_genestealers_engaged_with_the_fallen_last_marine_keep_it_a_defeat() -> None:
    # Final location, both piles empty: if the swarm that killed him did not count, the
    # formation would look clear. It does count (they were in the formation): defeat.
    st = build_state([("Brother Leon", "R")], swarms={(1, "left"): ["claw-1"]}, location=FINAL)
    engine = make_engine(st, dice=[1])
    drive(engine.genestealer_attack())
    assert st.outcome == "defeat"


def test_check_end_counts_engaged_with_fallen() -> None:
    st = build_state([("Brother Leon", "R")], location=FINAL)
    st.formation = []
    engine = make_engine(st)
    with pytest.raises(GameOver):
        engine.check_end(1)
    assert st.outcome == "defeat"


# -- victory ------------------------------------------------------------------------------


def test_victory_when_the_last_genestealer_at_the_final_location_is_slain() -> None:
    st = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(2, "left"): ["claw-1"]},
        location=FINAL,
    )
    engine = make_engine(st, dice=[2])  # a skull
    drive(engine.attack("Brother Leon", 1))
    assert st.outcome == "victory"


def test_no_victory_while_a_genestealer_remains() -> None:
    st = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(2, "left"): ["claw-1"], (2, "right"): ["claw-2"]},
        location=FINAL,
    )
    drive(make_engine(st, dice=[3]).attack("Brother Leon", 1))
    assert swarm_labels(st, 2, "left") == []
    assert st.outcome is None


def test_no_victory_at_a_non_final_location() -> None:
    st = build_state(
        [("Brother Leon", "L")],
        swarms={(1, "left"): ["claw-1"]},
        location="Genetorium",
        location_deck=[FINAL],
    )
    drive(make_engine(st, dice=[1]).attack("Brother Leon", 0))
    assert st.genestealers_in_formation() == 0
    assert st.outcome is None


@pytest.mark.parametrize("side", [LEFT, RIGHT])
def test_no_victory_while_a_blip_pile_has_cards(side: int) -> None:
    piles: list[list[str]] = [[], []]
    piles[side] = ["head-1"]
    st = build_state(
        [("Brother Leon", "L")],
        swarms={(1, "left"): ["claw-1"]},
        blips=(piles[0], piles[1]),
        location=FINAL,
    )
    drive(make_engine(st, dice=[1]).attack("Brother Leon", 0))
    assert st.genestealers_in_formation() == 0
    assert st.outcome is None


def activate_tank(state: GameState, dice: list[int]):  # type: ignore[no-untyped-def]
    """Claudio, alone and facing left, activates the Promethium Tank in front of him."""
    engine = make_engine(state, dice=dice)
    seen = drive(
        engine.move_activate_action("yellow", "Reorganize"),
        [Option("done"), Option("activate", ("Brother Claudio", "Promethium Tank"))],
    )
    assert [d.kind for d in seen] == ["facing", "activate"]
    return engine


def tank_state(**kw) -> GameState:  # type: ignore[no-untyped-def]
    return build_state(
        [("Brother Claudio", "L")],
        terrain={(1, "left"): ["Promethium Tank"]},
        swarms={(1, "left"): ["claw-1", "claw-2"], (1, "right"): ["tail-1"]},
        **kw,
    )


def test_promethium_blast_clearing_the_final_location_wins_before_the_death_roll() -> None:
    st = tank_state(location=FINAL)
    engine = activate_tank(st, dice=[0])
    # Both swarms burn: the final location is clear with empty piles, so the marines win
    # at once; the blast's roll (a 0 would slay Claudio) never happens.
    assert st.outcome == "victory"
    assert engine.die.remaining == [0]  # type: ignore[attr-defined]
    assert marines(st) == ["Brother Claudio"]


def test_promethium_blast_without_victory_then_death_roll_is_a_defeat() -> None:
    st = tank_state(location=FINAL, blips=(["head-1"], []))
    engine = activate_tank(st, dice=[0])
    assert st.genestealers_in_formation() == 0
    assert st.outcome == "defeat"
    assert engine.die.remaining == []  # type: ignore[attr-defined]


def test_promethium_blast_survived() -> None:
    st = tank_state(location=FINAL, blips=(["head-1"], []))
    engine = activate_tank(st, dice=[1])
    assert st.outcome is None
    assert marines(st) == ["Brother Claudio"]
    assert engine.die.remaining == []  # type: ignore[attr-defined]
    assert sorted(T.gs_labels[c] for c in st.gs_discard) == ["claw-1", "claw-2", "tail-1"]


def test_location_deck_never_refills() -> None:
    st = build_state(
        [("Brother Leon", "L"), ("Brother Valencio", "R")],
        swarms={(1, "left"): ["claw-1"]},
        blips=([], ["head-1"]),
        location="Genetorium",
        location_deck=[FINAL],
    )
    engine = make_engine(st)
    drive(engine.end_of_phase())
    assert st.location == T.location_by_name[FINAL]
    assert st.location_deck == []
    # At the final location an empty pile neither travels nor refills anything.
    st.blips[LEFT] = []
    discard = st.gs_discard[:]
    drive(engine.end_of_phase())
    assert st.location == T.location_by_name[FINAL]
    assert st.location_deck == []
    assert st.blips[LEFT] == []
    assert st.gs_discard == discard
    assert st.outcome is None


# -- §12 support tokens -------------------------------------------------------------------


def activate_door(state: GameState) -> None:
    engine = make_engine(state)
    seen = drive(
        engine.move_activate_action("yellow", "Reorganize"),
        [Option("done"), Option("done"), Option("activate", ("Brother Claudio", "Door"))],
    )
    assert [d.kind for d in seen] == ["move", "facing", "activate"]


def test_door_activation_takes_a_token_from_the_supply() -> None:
    st = build_state(
        [("Brother Claudio", "L"), ("Brother Goriel", "R", 2)], terrain={(1, "left"): ["Door"]}
    )
    assert st.supply == 10
    activate_door(st)
    assert st.formation[0].terrain[LEFT][0].tokens == 1
    assert st.supply == 9
    assert st.tokens_in_play() == 12


def test_door_activation_with_an_empty_supply_places_nothing() -> None:
    st = build_state(
        [("Brother Claudio", "L", 5), ("Brother Goriel", "R", 7)],
        terrain={(1, "left"): ["Door"]},
    )
    assert st.supply == 0
    activate_door(st)
    assert st.formation[0].terrain[LEFT][0].tokens == 0
    assert st.supply == 0
    assert [p.marine.tokens for p in st.formation] == [5, 7]
    assert st.tokens_in_play() == 12


def test_slain_marines_tokens_return_to_the_supply() -> None:
    st = build_state(
        [("Brother Leon", "L", 3), ("Brother Valencio", "R", 1)],
        swarms={(1, "left"): ["claw-1"]},
        blips=(["head-1"], ["head-2"]),
    )
    # Leon faces the swarm and has tokens: he may reroll, and keeps the 0.
    drive(make_engine(st, dice=[0]).genestealer_attack(), [Option("keep")])
    assert st.slain == ["Brother Leon"]
    assert st.supply == 11
    assert st.tokens_in_play() == 12


# -- whole games: every card in exactly one place (§12) -------------------------------------


def check_invariants(game: Game) -> None:
    st = game.state
    where: Counter[int] = Counter()
    where.update(st.gs_deck)
    where.update(st.gs_discard)
    where.update(st.blips[LEFT])
    where.update(st.blips[RIGHT])
    for pos in st.formation:
        where.update(pos.swarms[LEFT])
        where.update(pos.swarms[RIGHT])
    deck_size = game.table.deck_size
    assert deck_size == 36
    for card in range(deck_size):
        assert where[card] == 1, f"{game.table.gs_labels[card]} is in {where[card]} places"
    assert all(n == 1 for c, n in where.items() if c >= deck_size)  # Brood Lords: at most once
    events = st.event_deck + st.event_discard + ([st.event] if st.event is not None else [])
    assert sorted(events) == list(range(30))
    assert st.tokens_in_play() == 12
    assert 0 <= st.supply <= 12


@pytest.mark.parametrize(
    ("players", "seed"), [(1, 1), (1, 7), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (2, 11)]
)
def test_whole_random_game_keeps_every_card_in_one_place(players: int, seed: int) -> None:
    game = Game(GameConfig(players=players, seed=seed))
    bot = RandomPlayer(seed)
    locations = len(game.state.location_deck)
    steps = 0
    while game.decision is not None:
        check_invariants(game)
        assert len(game.state.location_deck) <= locations  # never refills
        locations = len(game.state.location_deck)
        decision = game.decision
        game.push(bot.choose(game.observation(decision.seat), decision))
        steps += 1
        assert steps < 5000
    check_invariants(game)
    assert game.outcome in ("victory", "defeat")
