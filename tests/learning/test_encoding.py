"""The encoding: fixed shapes within their bounds, the documented fields where they say, and
honest — two games that differ only in what a seat cannot see encode to identical arrays."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from plugin_kit import shipped_ruleset

from deathangel.cards.model import ICONS
from deathangel.engine.game import Game, GameConfig, card_table
from deathangel.engine.lasting import GunJam
from deathangel.engine.state import CardTable, GameState
from deathangel.learning.encoding import FIELDS, Encoder, encoder


def base_encoder() -> Encoder:
    return encoder(Game(GameConfig(1, seed=0)).table)


def random_positions(players: int, seeds: range, every: int = 5) -> list[tuple[Game, int]]:
    """Games of random play, cloned at every ``every``-th decision, with the deciding seat."""
    found = []
    for seed in seeds:
        game = Game(GameConfig(players, seed=seed))
        rng = random.Random(seed)
        step = 0
        decision = game.decision
        while decision is not None:
            if step % every == 0:
                found.append((game.clone(), decision.seat))
            game.push(decision.options[int(rng.random() * len(decision.options))])
            decision = game.decision
            step += 1
        found.append((game, 1))
    return found


def test_fields_are_laid_out_in_dict_space_order() -> None:
    enc = base_encoder()
    assert tuple(f.name for f in enc.fields) == FIELDS == tuple(sorted(FIELDS))
    assert sum(f.size for f in enc.fields) == enc.size == enc.high.shape[0]
    assert enc.fields[0].offset == 0
    for before, after in zip(enc.fields, enc.fields[1:], strict=False):
        assert after.offset == before.offset + before.size
    shapes = {f.name: f.shape for f in enc.fields}
    assert shapes["formation"][0] == 12 and shapes["marines"][0] == 12
    assert shapes["cards"][0] == 18 and shapes["teams"][0] == 6
    assert list(enc.dict_space().spaces) == list(FIELDS)


@pytest.mark.parametrize("players", [1, 4])
def test_every_encoding_fits_its_space_and_flattens_to_the_vector(players: int) -> None:
    enc = base_encoder()
    space = enc.dict_space()
    flat_space = enc.flat_space()
    for game, seat in random_positions(players, range(3)):
        vector = enc.encode(game.observation(seat))
        assert vector.dtype == np.float32 and vector.shape == (enc.size,)
        assert flat_space.contains(vector)
        fields = enc.as_dict(vector)
        assert space.contains(fields)
        assert np.array_equal(gymnasium.spaces.flatten(space, fields), vector)


def test_fields_hold_what_the_documentation_says() -> None:
    enc = base_encoder()
    game = Game(GameConfig(2, seed=11))
    rng = random.Random(3)
    for _ in range(25):
        decision = game.decision
        assert decision is not None
        game.push(decision.options[int(rng.random() * len(decision.options))])
    obs = game.observation(1)
    st = obs.state
    fields = enc.as_dict(enc.encode(obs))
    formation = enc.fields[FIELDS.index("formation")]
    col = {name: start for name, (start, _) in formation.columns.items()}
    for row, pos in enumerate(st.formation):
        r = fields["formation"][row]
        assert r[col["present"]] == 1
        marine = enc.marine_index[pos.marine.name]
        assert r[col["marine"] + marine] == 1
        assert r[col["marine"] : col["marine"] + len(enc.pool.marines)].sum() == 1
        assert r[col["facing_right"]] == pos.marine.facing
        assert r[col["tokens"]] == pos.marine.tokens
        assert r[col["range"]] == pos.marine.range
        for s, side in enumerate(("left", "right")):
            swarm = pos.swarms[s]
            assert r[col[f"{side}_cards"]] == len(swarm)
            icons = r[col[f"{side}_icon"] : col[f"{side}_icon"] + len(ICONS)]
            assert icons.sum() == sum(len(obs.table.gs_icons[c]) for c in swarm)
            assert r[col[f"{side}_terrain"] : col[f"{side}_colour"]].sum() == len(pos.terrain[s])
        assert fields["marines"][marine][3] == row + 1  # its position
    for row in range(len(st.formation), 12):
        assert not fields["formation"][row].any()
    table = enc.fields[FIELDS.index("table")].columns
    assert fields["table"][table["seat"][0]] == 1  # seat 1 of 2
    assert fields["table"][table["players"][0] + 1] == 1
    assert fields["table"][table["blips_left"][0]] == obs.counts.blips_left
    assert fields["table"][table["genestealer_deck"][0]] == obs.counts.genestealer_deck
    assert fields["table"][table["round"][0]] == st.round
    assert fields["genestealers"][:, 0].sum() == len(st.gs_discard)
    assert fields["events"][:, 1].sum() == len(st.events_resolved)


def test_the_pending_reroll_is_encoded() -> None:
    enc = base_encoder()
    cols = enc.fields[FIELDS.index("decision")].columns
    for game, seat in random_positions(1, range(6), every=1):
        decision = game.decision
        if decision is None or decision.kind != "reroll":
            continue
        vector = enc.as_dict(enc.encode(game.observation(seat)))["decision"]
        face = int(decision.prompt.rsplit(" ", 1)[1])
        assert vector[cols["face"][0] + face] == 1
        assert vector[cols["face"][0] : cols["face"][0] + 6].sum() == 1
        assert vector[cols["attack_roll"][0]] + vector[cols["defence_roll"][0]] == 1
        return
    pytest.fail("no reroll decision in six random games")


# -- honesty --------------------------------------------------------------------------------


def hide_otherwise(state: GameState, table: CardTable, rng: random.Random) -> int:
    """Change what no seat may see, keeping every public size: the Genestealer deck's order,
    cards swapped between it and the blip piles, the Event deck's order below a scouted top,
    and one seat's face-down action cards (other legal ones). The seat whose cards changed
    (0 if none): only it may see the difference."""
    deck = state.gs_deck
    rng.shuffle(deck)
    for pile in state.blips:
        if deck and pile:
            i, j = rng.randrange(len(deck)), rng.randrange(len(pile))
            deck[i], pile[j] = pile[j], deck[i]
    events = state.event_deck
    if state.scouted is not None and events:
        rest = events[:-1]
        rng.shuffle(rest)
        events[:-1] = rest
    else:
        rng.shuffle(events)
    if not state.choices_hidden() or not state.chosen:
        return 0
    owner = state.team_seat[rng.choice(sorted(state.chosen))]
    jammed = {e.team for e in state.next_effects + state.effects if isinstance(e, GunJam)}
    changed = False
    for team, card in list(state.chosen.items()):
        if state.team_seat[team] != owner:
            continue
        others = [
            a.name
            for a in table.db.team(team).actions
            if a.name != card
            and a.name != state.last_resolved.get(team)
            and not (team in jammed and a.kind == "attack")
        ]
        if others:
            state.chosen[team] = rng.choice(others)
            changed = True
    return owner if changed else 0


@pytest.mark.parametrize("players", [1, 3, 6])
def test_what_a_seat_cannot_see_does_not_change_its_encoding(players: int) -> None:
    enc = base_encoder()
    rng = random.Random(players)
    differed = hidden_choices = 0
    for game, _ in random_positions(players, range(2), every=3):
        twin = game.clone()
        owner = hide_otherwise(twin.state, twin.table, rng)
        if twin.state.to_dict(twin.table) != game.state.to_dict(game.table):
            differed += 1
        hidden_choices += owner != 0
        for seat in range(1, players + 1):
            if seat == owner:  # a seat knows its own face-down cards: its view changes
                assert not np.array_equal(
                    enc.encode(game.observation(seat)), enc.encode(twin.observation(seat))
                )
                continue
            mine = enc.encode(game.observation(seat))
            theirs = enc.encode(twin.observation(seat))
            assert np.array_equal(mine, theirs), (seat, game.state.round, game.state.phase)
    assert differed > 10  # the twins really differed in their hidden parts
    if players > 1:
        assert hidden_choices > 0  # and some in another seat's face-down card


def test_a_plugin_pool_encodes_its_own_cards() -> None:
    rules = shipped_ruleset("broodwake")
    table = card_table(rules.db, rules.switches)
    enc = encoder(table)
    assert "Brother Aurelian" in enc.marine_index and "Tunnel Burrower" in enc.kind_index
    assert enc.size > base_encoder().size
    game = Game(GameConfig(2, seed=5), ruleset=rules)
    vector = enc.encode(game.observation(1))
    assert enc.flat_space().contains(vector)
    with pytest.raises(ValueError, match="another card pool"):
        base_encoder().encode(game.observation(1))
