"""RULES §3 (setup) through the public protocol: ``Game(GameConfig(...))``.

Every expected figure comes from the table of RULES §3 and the setup-location placements
written out by hand below; the tests never compare the engine with itself except for the
"same seed, same deal" rule.
"""

from __future__ import annotations

import pytest

from deathangel.engine.game import Game, GameConfig
from deathangel.engine.state import LEFT, RIGHT

# RULES §3 table: players -> (teams each, marines, setup location, major, minor, blips L, R,
# location deck top first).
SETUP_TABLE = {
    1: (3, 6, "Void Lock - 1 player", 2, 1, 6, 6, ["2", "3", "4"]),
    2: (2, 8, "Void Lock - 2 or 4 players", 3, 1, 7, 7, ["1C", "2", "3", "4"]),
    3: (2, 12, "Void Lock - 3 or 6 players", 5, 3, 9, 9, ["1A", "2", "3", "4"]),
    4: (1, 8, "Void Lock - 2 or 4 players", 3, 1, 7, 7, ["1C", "2", "3", "4"]),
    5: (1, 10, "Void Lock - 5 players", 4, 2, 8, 8, ["1B", "2", "3", "4"]),
    6: (1, 12, "Void Lock - 3 or 6 players", 5, 3, 9, 9, ["1A", "2", "3", "4"]),
}

# Where the setup location's four terrain cards land, worked out by hand from the setup
# locations ("from bottom" k = position n - k + 1): players -> {terrain: (position, side)}.
SETUP_TERRAIN = {
    1: {
        "Door": (1, LEFT),
        "Dark Corner": (3, LEFT),
        "Ventilation Duct": (4, RIGHT),
        "Corridor": (5, RIGHT),
    },
    2: {
        "Door": (1, LEFT),
        "Dark Corner": (3, LEFT),
        "Ventilation Duct": (5, RIGHT),
        "Corridor": (7, RIGHT),
    },
    4: {
        "Door": (1, LEFT),
        "Dark Corner": (3, LEFT),
        "Ventilation Duct": (5, RIGHT),
        "Corridor": (7, RIGHT),
    },
    5: {
        "Door": (2, LEFT),
        "Dark Corner": (4, LEFT),
        "Ventilation Duct": (6, RIGHT),
        "Corridor": (8, RIGHT),
    },
    3: {
        "Door": (2, LEFT),
        "Dark Corner": (5, LEFT),
        "Ventilation Duct": (7, RIGHT),
        "Corridor": (10, RIGHT),
    },
    6: {
        "Door": (2, LEFT),
        "Dark Corner": (5, LEFT),
        "Ventilation Duct": (7, RIGHT),
        "Corridor": (10, RIGHT),
    },
}
TERRAIN_COLOUR = {
    "Door": "yellow",
    "Dark Corner": "orange",
    "Ventilation Duct": "red",
    "Corridor": "green",
}

ALL_TEAMS = {"green", "yellow", "red", "blue", "grey", "purple"}
MARINES_OF = {
    "green": {"Sergeant Gideon", "Brother Noctis"},
    "yellow": {"Brother Claudio", "Brother Goriel"},
    "red": {"Brother Leon", "Brother Valencio"},
    "blue": {"Sergeant Lorenzo", "Brother Deino"},
    "grey": {"Lexicanium Calistarius", "Brother Scipio"},
    "purple": {"Brother Zael", "Brother Omnio"},
}
PLAYERS = [1, 2, 3, 4, 5, 6]
SEEDS = [0, 1, 7, 42]


def new_game(players: int, seed: int = 0, teams=None) -> Game:
    return Game(GameConfig(players=players, seed=seed, teams=teams))


@pytest.mark.parametrize("players", PLAYERS)
def test_marine_count_and_teams_per_seat(players: int) -> None:
    per_seat, n_marines, *_ = SETUP_TABLE[players]
    game = new_game(players, seed=5)
    st = game.state
    assert len(st.formation) == n_marines
    assert len(st.seats) == players
    assert all(len(seat) == per_seat for seat in st.seats)
    teams = [t for seat in st.seats for t in seat]
    assert len(set(teams)) == len(teams) == n_marines // 2
    assert set(teams) <= ALL_TEAMS
    # The formation holds exactly the marines of the chosen teams, each once.
    names = [p.marine.name for p in st.formation]
    assert sorted(names) == sorted(m for t in teams for m in MARINES_OF[t])
    for p in st.formation:
        assert p.marine.name in MARINES_OF[p.marine.team]
        assert p.marine.tokens == 0
    assert st.team_seat == {t: i for i, seat in enumerate(st.seats, start=1) for t in seat}


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_top_half_faces_left_bottom_half_right(players: int, seed: int) -> None:
    st = new_game(players, seed).state
    n = len(st.formation)
    assert [p.marine.facing for p in st.formation] == [LEFT] * (n // 2) + [RIGHT] * (n // 2)


@pytest.mark.parametrize("players", PLAYERS)
def test_setup_location_and_spawn_sizes(players: int) -> None:
    _, _, name, major, minor, blips_l, blips_r, _ = SETUP_TABLE[players]
    st = new_game(players, seed=2).state
    assert st.setup_location is not None
    assert st.setup_location.name == name
    assert st.setup_location.major_spawn == major
    assert st.setup_location.minor_spawn == minor
    assert (st.setup_location.blips_left, st.setup_location.blips_right) == (blips_l, blips_r)
    assert st.location is None  # still at the setup location


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_setup_terrain_placed_from_setup_location(players: int, seed: int) -> None:
    st = new_game(players, seed).state
    found = {}
    for row, pos in enumerate(st.formation, start=1):
        for side in (LEFT, RIGHT):
            for t in pos.terrain[side]:
                found[t.name] = (row, side)
                assert t.tokens == 0
    assert found == SETUP_TERRAIN[players]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_blip_piles_minus_setup_event_spawns(players: int, seed: int) -> None:
    """Piles filled to L/R, then the first Event's two spawn boxes only (§3 steps 7-8)."""
    _, _, _, major, minor, blips_l, blips_r, _ = SETUP_TABLE[players]
    game = new_game(players, seed)
    st, table = game.state, game.table
    # The setup event was drawn and discarded; nothing else has been drawn yet.
    assert len(st.event_discard) == 1
    assert st.event is None
    assert len(st.event_deck) == 29
    event = table.events[st.event_discard[0]]
    # Work the spawns out by hand: each box puts its size at the one setup terrain of its
    # colour, on that terrain's side. Ability and move box are ignored at setup.
    expected: dict[tuple[int, int], int] = {}
    for box in event.spawns:
        size = major if box.size == "major" else minor
        for terrain, (row, side) in SETUP_TERRAIN[players].items():
            if TERRAIN_COLOUR[terrain] == box.color:
                expected[(row, side)] = expected.get((row, side), 0) + size
    spawned = {
        (row, side): len(pos.swarms[side])
        for row, pos in enumerate(st.formation, start=1)
        for side in (LEFT, RIGHT)
        if pos.swarms[side]
    }
    assert spawned == expected
    left_spawn = sum(n for (_, side), n in expected.items() if side == LEFT)
    right_spawn = sum(n for (_, side), n in expected.items() if side == RIGHT)
    assert len(st.blips[LEFT]) == blips_l - left_spawn
    assert len(st.blips[RIGHT]) == blips_r - right_spawn
    # Total cards out of the deck: blips + formation = L + R.
    assert len(st.blips[LEFT]) + len(st.blips[RIGHT]) + st.genestealers_in_formation() == (
        blips_l + blips_r
    )
    assert len(st.gs_deck) == 36 - blips_l - blips_r
    assert st.gs_discard == []
    # Every genestealer card is in exactly one place; no Brood Lord was dealt.
    places = st.gs_deck + st.blips[LEFT] + st.blips[RIGHT]
    places += [c for p in st.formation for side in (LEFT, RIGHT) for c in p.swarms[side]]
    assert sorted(places) == list(range(36))


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_location_deck_one_card_per_listed_deck_top_first(players: int, seed: int) -> None:
    decks = SETUP_TABLE[players][7]
    game = new_game(players, seed)
    st = game.state
    assert len(st.location_deck) == len(decks)
    top_first = [game.table.locations[i] for i in reversed(st.location_deck)]
    assert [loc.deck for loc in top_first] == decks
    assert len({loc.name for loc in top_first}) == len(decks)
    assert top_first[-1].final
    assert not any(loc.final for loc in top_first[:-1])


def test_location_deck_one_player_is_decks_2_3_4() -> None:
    game = new_game(1, seed=11)
    # The deck list keeps its top card last (state convention): bottom 4, then 3, top 2.
    assert [game.table.locations[i].deck for i in game.state.location_deck] == ["4", "3", "2"]


@pytest.mark.parametrize("players", PLAYERS)
def test_support_supply_is_12_and_first_decision(players: int) -> None:
    game = new_game(players, seed=3)
    st = game.state
    assert st.supply == 12
    assert st.tokens_in_play() == 12
    # Setup is over: round 1's Choose Actions asks seat 1 first (current player seat 1).
    assert st.round == 1
    assert st.phase == "choose_actions"
    assert st.current_seat == 1
    assert game.decision is not None
    assert game.decision.kind == "choose_action"
    assert game.decision.seat == 1
    assert len(game.decision.options) == 3


@pytest.mark.parametrize("players", PLAYERS)
def test_same_seed_same_deal(players: int) -> None:
    a = new_game(players, seed=123)
    b = new_game(players, seed=123)
    assert a.state.to_dict(a.table) == b.state.to_dict(b.table)
    assert a.decision == b.decision


def test_different_seeds_give_different_deals() -> None:
    deals = set()
    for seed in range(6):
        g = new_game(3, seed)
        deals.add(tuple(p.marine.name for p in g.state.formation))
    assert len(deals) > 1


def test_chosen_teams_respected() -> None:
    teams = [("red", "grey"), ("purple", "blue")]
    st = new_game(2, seed=9, teams=teams).state
    assert st.seats == teams
    assert st.team_seat == {"red": 1, "grey": 1, "purple": 2, "blue": 2}
    names = {p.marine.name for p in st.formation}
    assert (
        names == MARINES_OF["red"] | MARINES_OF["grey"] | MARINES_OF["purple"] | MARINES_OF["blue"]
    )
    for p in st.formation:
        assert p.marine.team in {"red", "grey", "purple", "blue"}


def test_chosen_teams_six_players_in_seat_order() -> None:
    teams = [("purple",), ("grey",), ("blue",), ("red",), ("yellow",), ("green",)]
    game = new_game(6, seed=4, teams=teams)
    assert game.state.seats == teams
    assert game.state.team_seat["purple"] == 1
    assert game.state.team_seat["green"] == 6
    # Choose Actions starts with seat 1's only team.
    assert game.decision is not None
    assert game.decision.seat == 1
    assert {o.args[0] for o in game.decision.options} == {
        "Strategize",
        "Forward Scouting",
        "Flamer Attack",
    }


def test_one_player_chosen_three_teams() -> None:
    st = new_game(1, seed=0, teams=[("blue", "yellow", "grey")]).state
    assert st.seats == [("blue", "yellow", "grey")]
    assert {p.marine.team for p in st.formation} == {"blue", "yellow", "grey"}


@pytest.mark.parametrize("players", [0, 7, -1])
def test_bad_player_count_raises(players: int) -> None:
    with pytest.raises(ValueError, match="players must be 1-6"):
        new_game(players)


def test_unknown_team_raises() -> None:
    with pytest.raises(ValueError, match="unknown team 'orange'"):
        new_game(2, teams=[("green", "orange"), ("red", "blue")])


def test_repeated_team_raises() -> None:
    with pytest.raises(ValueError, match="team 'red' is chosen twice"):
        new_game(2, teams=[("green", "red"), ("red", "blue")])


def test_wrong_team_count_per_seat_raises() -> None:
    with pytest.raises(ValueError, match="seat 1 has 1 team"):
        new_game(2, teams=[("green",), ("red", "blue")])
    with pytest.raises(ValueError, match="seat 1 has 2 team"):
        new_game(4, teams=[("green", "yellow"), ("red",), ("blue",), ("grey",)])


def test_wrong_number_of_seats_raises() -> None:
    with pytest.raises(ValueError, match="a 3-player game needs teams for 3 seats"):
        new_game(3, teams=[("green", "yellow"), ("red", "blue")])


def test_handicap_tokens_come_from_the_supply() -> None:
    game = Game(GameConfig(players=1, seed=0, handicap=1))
    st = game.state
    assert [p.marine.tokens for p in st.formation] == [1] * 6
    assert st.supply == 6
    assert st.tokens_in_play() == 12
    full = Game(GameConfig(players=1, seed=0, handicap=2)).state
    assert full.supply == 0
    assert full.tokens_in_play() == 12


def test_handicap_beyond_the_supply_raises() -> None:
    with pytest.raises(ValueError, match="exceeds the supply of 12"):
        Game(GameConfig(players=1, seed=0, handicap=3))  # 3 x 6 = 18 > 12


def test_round_one_choose_actions_through_the_game() -> None:
    teams = [("green", "yellow"), ("red", "blue"), ("grey", "purple")]
    game = new_game(3, seed=8, teams=teams)
    picks = [
        (1, "Dead Aim"),  # 16
        (1, "Heroic Charge"),  # 18
        (2, "Full Auto"),  # 17
        (2, "Lead by Example"),  # 13
        (3, "Psionic Attack"),  # 15
        (3, "Strategize"),  # 5
    ]
    for seat, card in picks:
        decision = game.decision
        assert decision is not None
        assert (decision.kind, decision.seat) == ("choose_action", seat)
        game.apply(["card", card])
    st = game.state
    assert [(team, card) for _, team, card in st.revealed] == [
        ("purple", "Strategize"),
        ("blue", "Lead by Example"),
        ("grey", "Psionic Attack"),
        ("green", "Dead Aim"),
        ("red", "Full Auto"),
        ("yellow", "Heroic Charge"),
    ]
    assert st.current_seat == 3


@pytest.mark.parametrize(
    ("players", "teams", "message"),
    [
        (
            2,
            [("green",), ("red", "blue")],
            "seat 1 has 1 team; in a 2-player game each seat plays 2",
        ),
        (1, [("green", "red")], "seat 1 has 2 teams; in a 1-player game each seat plays 3"),
        (2, [("green", "red")], "a 2-player game needs teams for 2 seats, not 1"),
        (1, [("green",), ("red",)], "a 1-player game needs teams for 1 seat, not 2"),
    ],
)
def test_wrong_teams_are_told_in_plain_words(players: int, teams: list, message: str) -> None:
    with pytest.raises(ValueError) as info:
        new_game(players, teams=teams)
    assert str(info.value) == message
