"""Broodwake's new mechanics: one Python function per effect its cards name.

Each is called by the engine at the timing its catalogue entry declares (see
``deathangel_effect_implementations`` in :mod:`deathangel.plugins.hookspecs`), and works
only through the engine's own operations (rolling, slaying, placing tokens), so Power
Fields, Brood Lords, the support-token supply and the end of the game keep working.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deathangel.engine.decisions import Flow, no_questions
from deathangel.engine.effects.common import (
    engaged_count,
    place_token,
    return_tokens,
    slay_engaged,
)
from deathangel.engine.rounds import Engine

BURROWER = "Tunnel Burrower"


def breaching_charge(
    engine: Engine, team: str, card: str, params: Mapping[str, Any], marine: str, terrain: str
) -> Flow:
    """Breaching Charge (activation): after a team marine activates a terrain card, roll (not
    an attack: no support reroll); on a skull slay 1 genestealer engaged with him. No roll
    when nothing engaged with him could be slain, or he fell in the activation."""
    if not engine.is_alive(marine):
        return
    row = engine.state.marine_row(marine)
    if engaged_count(engine, row, slayable=True) == 0:
        return
    roll = engine.roll_plain(f"{card}: {marine} blows the breach")
    if roll.skull:
        yield from slay_engaged(engine, row, 1, engine.state.team_seat[team])


def last_rites(engine: Engine, team: str, card: str, params: Mapping[str, Any]) -> Flow:
    """Last Rites (after the attack): every team marine engaged with no swarm takes 1 support
    token from the supply, top to bottom while it lasts."""
    for pos in list(engine.state.formation):
        if pos.marine.team == team and not pos.swarms[0] and not pos.swarms[1]:
            place_token(engine, pos.marine.name)
    return no_questions()


def seismic_shock(engine: Engine, params: Mapping[str, Any]) -> Flow:
    """Seismic Shock (event): each marine engaged with a swarm holding a Tunnel Burrower
    puts 1 of his support tokens back in the supply."""
    enemy_of = engine.table.enemy_of
    for pos in engine.state.formation:
        if any(
            enemy_of[c] is not None and enemy_of[c].name == BURROWER  # type: ignore[union-attr]
            for swarm in pos.swarms
            for c in swarm
        ) and return_tokens(engine, pos.marine.name, 1):
            engine.note(f"the shock costs {pos.marine.name} a support token")
    return no_questions()


def shore_up(engine: Engine, marine: str, terrain: str) -> Flow:
    """Rubble Choke (terrain): the activating marine takes 1 token from the supply; then a
    roll of 0 discards the card (it never holds tokens)."""
    place_token(engine, marine)
    roll = engine.roll_plain(f"{marine} shores up the {terrain}")
    if roll.face == 0:
        for pos in engine.state.formation:
            for side in pos.terrain:
                for i, card in enumerate(side):
                    if card.name == terrain:
                        del side[i]
                        engine.note(f"the {terrain} gives way and is discarded")
                        return no_questions()
    return no_questions()


def acid_blood(engine: Engine, card: int, by: str | None, params: Mapping[str, Any]) -> Flow:
    """Tunnel Burrower (enemy rule, when slain): the marine who slew it rolls; on a 0 he
    loses all his support tokens. A Burrower slain by no marine (a Door, an event) splashes
    nobody."""
    if by is None or not engine.is_alive(by):
        return no_questions()
    roll = engine.roll_plain(f"acid blood splashes {by}")
    if roll.face == 0 and return_tokens(engine, by):
        engine.note(f"the acid eats {by}'s support tokens")
    return no_questions()
