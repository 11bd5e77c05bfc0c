"""The terminal board: what it shows, what it never shows, option explanations, card look-up."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from rich.console import Console, RenderableType
from support import build_state

import deathangel.engine.decisions as d
from deathangel.cards.facts import all_facts
from deathangel.engine.decisions import OPTION_ARGS, Decision, Option
from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.engine.lasting import GunJam, SecondWind
from deathangel.players import RandomPlayer
from deathangel.tui import explain
from deathangel.tui.board import (
    card_panel,
    cards_in_play,
    explain_option,
    explain_option_strict,
    public_view,
    render_board,
)


def plain(renderable: RenderableType) -> str:
    console = Console(record=True, width=100, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def play(game: Game, steps: int, seed: int = 0) -> Game:
    bot = RandomPlayer(seed)
    for _ in range(steps):
        if game.decision is None:
            break
        game.apply(bot.choose(None, game.decision))
    return game


def decisions_of(game: Game, seed: int) -> Iterator[Decision]:
    """Every decision of a random game, played to its end."""
    bot = RandomPlayer(seed)
    while game.decision is not None:
        yield game.decision
        game.push(bot.choose(None, game.decision))


def row_line(text: str, position: int, marine: str) -> str:
    """The board line of a formation row: starts with its position, names its marine."""
    lines = [ln for ln in text.splitlines() if marine in ln]
    assert len(lines) == 1, (marine, text)
    assert lines[0].split()[0] == str(position), lines[0]
    return lines[0]


SWARM_COUNT = re.compile(r"(?<![\w-])(\d+):")


# -- the board ---------------------------------------------------------------------------------


def test_every_marine_appears_with_his_facing_arrow() -> None:
    game = play(Game(GameConfig(players=1, seed=3)), 12)
    text = plain(render_board(game, 1))
    rows = game.observation(1).to_dict()["formation"]
    assert {r["facing"] for r in rows} == {"left", "right"}
    for row in rows:
        line = row_line(text, row["position"], row["marine"])
        name = re.escape(row["marine"])
        faces_left = re.search("← " + name, line) is not None
        faces_right = re.search(name + r"\s*→", line) is not None
        assert (faces_left, faces_right) == (row["facing"] == "left", row["facing"] == "right")
        assert f"r{row['range']}" in line


def swarm_game() -> Game:
    st = build_state(
        [
            ("Sergeant Gideon", "L", 2),
            ("Brother Noctis", "R"),
            ("Brother Leon", "L"),
            ("Brother Valencio", "R", 5),
        ],
        swarms={
            (1, "left"): ["claw-1", "claw-2", "tail-1"],
            (2, "right"): ["head-1", "Brood Lord A"],
            (4, "left"): ["tongue-1"],
            (4, "right"): ["tongue-2", "tongue-3", "head-2", "claw-3", "tail-2"],
        },
        terrain={(1, "left"): ["Door"], (3, "right"): ["Corridor"]},
        blips=(["claw-9", "head-9", "tail-9"], ["tongue-9"]),
        location_deck=["Main Corridor"],
    )
    game = Game(GameConfig(players=1), state=st)
    game.state.protected.add(game.table.gs_by_label["tongue-1"])  # a Power Field
    return game


def test_swarm_counts_and_icons_sit_at_their_positions() -> None:
    game = swarm_game()
    assert game.decision is not None and game.decision.kind == d.CHOOSE_ACTION
    text = plain(render_board(game, 1))
    expected = {
        "Sergeant Gideon": (1, "3", None),
        "Brother Noctis": (2, None, "2"),
        "Brother Leon": (3, None, None),
        "Brother Valencio": (4, "1", "5"),
    }
    for marine, (position, left, right) in expected.items():
        line = row_line(text, position, marine)
        before, after = line.split(marine)
        counts_before = SWARM_COUNT.findall(before)
        counts_after = SWARM_COUNT.findall(after)
        assert counts_before == ([left] if left else []), line
        assert counts_after == ([right] if right else []), line
    assert "3: Cl×2 Ta" in row_line(text, 1, "Sergeant Gideon")
    assert "★Lord A" in row_line(text, 2, "Brother Noctis")
    assert "⛨" in row_line(text, 4, "Brother Valencio").split("Brother Valencio")[0]
    assert "Door⚙" in row_line(text, 1, "Sergeant Gideon")
    assert "●●" in row_line(text, 1, "Sergeant Gideon")
    assert "●5" in row_line(text, 4, "Brother Valencio")


def test_blip_counts_and_counts_in_the_header() -> None:
    game = swarm_game()
    text = plain(render_board(game, None))
    assert re.search(r"^Blips +left 3 · right 1 ", text, re.M)
    view = public_view(game.state, game.table)
    assert f"Genestealer deck {view['genestealer_deck_count']}" in text
    assert f"Supply ●{view['supply']}" in text
    assert "Round 1 · Choose Actions · current player: seat 1" in text
    assert "1 location left" in text


def test_a_blip_card_label_never_appears() -> None:
    for players, seed in ((1, 1), (3, 2)):
        game = Game(GameConfig(players=players, seed=seed))
        bot = RandomPlayer(seed)
        for step in range(200):
            if game.decision is None:
                break
            if step % 20 == 0:
                hidden = [game.table.gs_labels[c] for pile in game.state.blips for c in pile]
                hidden += [game.table.gs_labels[c] for c in game.state.gs_deck]
                assert hidden
                for seat in (1, None):
                    text = plain(render_board(game, seat))
                    for label in hidden:
                        assert label not in text
                    assert not re.search(r"\b(claw|tongue|tail|head)-\d", text)
            game.apply(bot.choose(None, game.decision))


def test_another_seats_chosen_card_never_appears() -> None:
    checked = 0
    for seed in range(3):
        game = Game(GameConfig(players=2, seed=seed))
        bot = RandomPlayer(seed)
        while game.decision is not None and checked < 6 + 2 * seed:
            decision = game.decision
            st = game.state
            theirs = {team: card for team, card in st.chosen.items() if st.team_seat[team] == 1}
            if decision.kind == d.CHOOSE_ACTION and decision.seat == 2 and theirs:
                for seat in (2, None):
                    text = plain(render_board(game, seat))
                    for card in theirs.values():
                        assert card not in text, (seat, card)
                    # Another choice for seat 1 changes nothing seat 2 or a spectator sees.
                    saved = dict(st.chosen)
                    for team, card in theirs.items():
                        others = [a.name for a in game.db.team(team).actions if a.name != card]
                        st.chosen[team] = others[0]
                    assert plain(render_board(game, seat)) == text
                    st.chosen = saved
                mine = plain(render_board(game, 1))  # the owner sees his own face-down cards
                assert all(card in mine for card in theirs.values())
                checked += 1
            game.apply(bot.choose(None, decision))
    assert checked >= 6


def test_a_hidden_instinct_event_stays_hidden() -> None:
    found = 0
    for seed in range(30):
        game = Game(GameConfig(players=2, seed=seed))
        bot = RandomPlayer(seed)
        while game.decision is not None:
            st = game.state
            if st.event_hidden and st.event is not None:
                name = game.table.events[st.event].name
                other = 2 if st.current_seat == 1 else 1
                assert name in plain(render_board(game, st.current_seat))
                for seat in (other, None):
                    text = plain(render_board(game, seat))
                    assert name not in text
                    assert "only the current player sees" in text
                    assert name not in cards_in_play(game, seat)
                assert name in cards_in_play(game, st.current_seat)
                found += 1
                break
            game.apply(bot.choose(None, game.decision))
        if found >= 2:
            break
    assert found >= 2


def test_the_spectator_view_holds_only_public_keys() -> None:
    game = play(Game(GameConfig(players=2, seed=4)), 30)
    view = public_view(game.state, game.table)
    seat_view = game.observation(1).to_dict()
    assert set(view) == set(seat_view) - {"my_choices", "scouted_top_event"}
    assert view["seat"] is None and view["teams"] == []
    assert "spectator" in plain(render_board(game, None))


def test_round_actions_effects_and_losses_are_listed() -> None:
    game = play(Game(GameConfig(players=3, seed=5)), 60, seed=1)
    st = game.state
    assert st.phase == "resolve_actions" and st.slain and st.eliminated
    text = plain(render_board(game, 1))
    for _, _, card in st.revealed:
        assert card in text
    assert "✓ Strategize (purple 5)" in text
    assert "▶ Intimidation (blue 11)" in text
    for name in st.slain:
        assert name in text
    assert re.search(r"^Slain ", text, re.M)
    assert "eliminated: green team" in " ".join(text.split())
    st.next_effects.append(GunJam("red"))
    st.effects.append(SecondWind("Brother Leon"))
    text = plain(render_board(game, None))
    assert re.search(r"^Next round +Gun Jam: red may not choose its Attack card", text, re.M)
    assert "Second Wind: a 0 on Brother Leon's defence misses" in text


# -- explanations -----------------------------------------------------------------------------


def test_every_option_of_random_games_is_explained() -> None:
    seen: set[tuple[str, str]] = set()
    for players in range(1, 7):
        for seed in range(4):
            game = Game(GameConfig(players=players, seed=seed))
            for decision in decisions_of(game, seed):
                for option in decision.options:
                    text = explain_option_strict(game, decision, option)
                    assert text.strip() and "\n" not in text, (decision, option)
                    assert explain_option(game, decision, option) == " ".join(text.split())
                    seen.add((decision.kind, option.verb))
    assert len(seen) >= 20, sorted(seen)


def test_every_option_verb_has_an_explainer() -> None:
    assert len(OPTION_ARGS) >= 20
    assert set(OPTION_ARGS) == set(explain._EXPLAINERS)


def synthetic(game: Game) -> list[tuple[str, str, Option]]:
    """(kind, prompt, option) for each verb, in the position of :func:`swarm_game`."""
    return [
        (d.CHOOSE_ACTION, "choose the green team's action card", Option("card", ("Block",))),
        (d.PLACE_SUPPORT, "Block: support token", Option("marine", ("Brother Leon",))),
        (d.MOVE, "Run and Gun: move", Option("swap", ("Brother Leon", "Brother Noctis"))),
        (d.FACING, "Run and Gun: facing", Option("flip", ("Sergeant Gideon",))),
        (
            d.ACTIVATE,
            "Run and Gun: activate terrain",
            Option("activate", ("Sergeant Gideon", "Door")),
        ),
        (d.ATTACK, "Dead Aim: attack", Option("attack", ("Sergeant Gideon", "left", 1))),
        (d.ATTACK, "Heroic Charge: attack", Option("charge", ("Brother Claudio",))),
        (
            d.REROLL,
            "Sergeant Gideon attacks the left swarm at position 1: rolled 4",
            Option("reroll"),
        ),
        (d.REROLL, "3 genestealers on the left attack Sergeant Gideon: rolled 2", Option("keep")),
        (d.SLAY, "choose the genestealer slain", Option("slay", ("claw-1",))),
        (d.SLAY, "Heroic Charge: slay which?", Option("slay_at", (2, "right", "head-1"))),
        (d.SPAWN_ORDER, "red spawn", Option("terrain", ("Door", 1, "left"))),
        (d.BLIP_SPLIT, "which blip pile takes the odd card?", Option("pile", ("left",))),
        (d.DOOR_SLAY, "Door: slay a genestealer before leaving", Option("target", (4, "right"))),
        (
            d.TARGET_MARINE,
            "Dark Catacombs: spawn behind which marine?",
            Option("marine", ("Brother Leon",)),
        ),
        (d.TARGET_SWARM, "Power Field: protect which swarm?", Option("target", (1, "left"))),
        (d.TARGET_SWARM, "Strategize: move it where?", Option("place", (3, "right"))),
        (d.TARGET_SWARM, "Intimidation: send back which?", Option("take", (4, "right", "tail-2"))),
        (d.TARGET_PILE, "Full Scan: discard from which pile?", Option("pile", ("right",))),
        (d.TARGET_TEAM, "Gun Jam: jam which team's guns?", Option("team", ("red",))),
        (d.TARGET_TERRAIN, "place the Artefact where?", Option("place", (2, "left"))),
        (d.CHOOSE, "Rewarded Faith: how many tokens does he spend?", Option("count", (2,))),
        (d.CHOOSE, "Forward Scouting: the top Event card is Gun Jam", Option("top")),
        (d.CHOOSE, "Forward Scouting: the top Event card is Gun Jam", Option("bottom")),
        (d.CHOOSE, "Intimidation: roll the die?", Option("yes", ("roll",))),
        (d.CHOOSE, "Intimidation: roll the die?", Option("no")),
        (d.MOVE, "Run and Gun: move", Option("done")),
    ]


EXPECTED_WORDS = [
    "Support, initiative 1",
    "put a support token on Brother Leon",
    "Brother Leon moves from position 3 to 2",
    "Sergeant Gideon turns to face right",
    "place 1 support token on this card",
    "a 4 slays up to 3: 67% to slay, 96% rerolling with his 2 tokens",
    "instead of attacking, Brother Claudio slays up to 3",
    "4 — slays up to 3",
    "2 vs 3 attacker(s): Sergeant Gideon is slain unless a card saves him",
    "the claw genestealer (claw-1)",
    "head-1",
    "draws first from the left blip pile (3 left)",
    "the odd Genestealer card goes to the left blip pile",
    "spend a Door token to slay a genestealer of the right swarm at position 4 (5 genestealers",
    "genestealers spawn behind Brother Leon, on his right",
    "Power Field on the left swarm at position 1 (3 genestealers (Cl×2 Ta))",
    "the swarm moves to the right of position 3 (behind Brother Leon)",
    "tail genestealer (tail-2)",
    "discard the top card of the right blip pile (1 card) (it empties)",
    "the red team (Brother Leon, Brother Valencio) may not choose its Attack card (Full Auto)",
    "put the Artefact on the left of position 2",
    "spend 2 support tokens to slay 2 genestealers",
    "leave Gun Jam on top",
    "put Gun Jam at the bottom",
    "roll the die",
    "do not roll",
    "stop moving",
]


def test_every_verb_is_explained_in_plain_words() -> None:
    game = swarm_game()
    cases = synthetic(game)
    verbs = {option.verb for _, _, option in cases}
    assert verbs == set(explain._EXPLAINERS)
    game.state.phase = "resolve_actions"
    game.state.revealed = [(16, "green", "Dead Aim")]
    for (kind, prompt, option), words in zip(cases, EXPECTED_WORDS, strict=True):
        decision = Decision(1, kind, (option,), prompt)
        text = explain_option_strict(game, decision, option)
        assert words in text, (option, text)


def test_explain_option_never_raises() -> None:
    game = swarm_game()
    decision = Decision(1, d.ATTACK, (Option("done"),), "")
    for option in (
        Option("attack"),
        Option("attack", ("Nobody", "up", 99)),
        Option("teleport", (1,)),
        Option("marine", ("Nobody",)),
        Option("card", ("No Such Card",)),
    ):
        text = explain_option(game, decision, option)
        assert text and "\n" not in text
    assert explain_option(game, decision, Option("teleport", (1,))) == "teleport 1"
    with pytest.raises(KeyError):
        explain_option_strict(game, decision, Option("teleport", (1,)))


# -- card look-up and cards in play -------------------------------------------------------------


def test_every_card_of_the_database_has_a_panel() -> None:
    db = default_database()
    names = {facts.name for facts in all_facts(db)}
    assert len(names) > 60
    for name in names:
        text = plain(card_panel(db, name.upper()))
        assert name in text
    text = plain(card_panel(db, "block"))
    for fact in ("green", "initiative", "1", "support", "skull face"):
        assert fact in text
    text = plain(card_panel(db, "Out of Thin Air"))
    assert "flank head" in text and "flank claw" in text  # both cards of that name
    assert "9" in plain(card_panel(db, "claw-3"))


def test_an_unknown_card_name_raises_key_error_with_suggestions() -> None:
    db = default_database()
    with pytest.raises(KeyError, match="Sergeant Gideon"):
        card_panel(db, "Sergent Gidoen")
    with pytest.raises(KeyError, match="no card named 'zzzz'"):
        card_panel(db, "zzzz")


def test_cards_in_play_name_what_is_on_the_table() -> None:
    game = play(Game(GameConfig(players=3, seed=5)), 60, seed=1)
    st = game.state
    names = cards_in_play(game)
    assert len(names) == len(set(names))
    assert names[0] == game.observation(1).to_dict()["location"]
    assert {p.marine.name for p in st.formation} <= set(names)
    assert {t.name for p in st.formation for side in p.terrain for t in side} <= set(names)
    assert "Strategize" in names and "Intimidation" in names
    assert "Dead Aim" not in names  # the green team is eliminated
    assert not set(st.slain) & set(names)
    db = default_database()
    for name in names:
        card_panel(db, name)


def test_a_closed_terminal_is_not_swallowed_by_an_explanation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An explanation that fails falls back to the option's name, but a closed terminal
    (SIGHUP raises Hangup wherever the main thread is) must still end the session."""
    import deathangel.tui.explain as explain
    from deathangel.engine import new_game
    from deathangel.tui.play import Hangup

    game = new_game(1, seed=3)
    decision = game.decision
    assert decision is not None

    def hung_up(*args: object) -> str:
        raise Hangup(1)

    monkeypatch.setattr(explain, "explain_option_strict", hung_up)
    with pytest.raises(Hangup):
        explain.explain_option(game, decision, decision.options[0])
