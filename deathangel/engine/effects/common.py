"""Pieces several card abilities share: picking targets, spawning behind a marine, tokens,
shuffling genestealers back into a blip pile, and support-paid attacks.

Every helper asks through :meth:`Engine.ask`, so a choice with one legal option is never
asked, and every helper leaves the card invariants of RULES §12 intact.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from typing import TYPE_CHECKING

import deathangel.engine.decisions as d
from deathangel.engine.decisions import DONE, Decision, Option, option
from deathangel.engine.state import LEFT, RIGHT, SIDES

if TYPE_CHECKING:
    from deathangel.engine.decisions import Flow
    from deathangel.engine.rounds import Engine


def best(scored: Iterable[tuple[Option, int]]) -> list[Option]:
    """The options that achieve the most (RULES §8: a choice must do the most it can)."""
    pairs = list(scored)
    if not pairs:
        return []
    top = max(score for _, score in pairs)
    return [option for option, score in pairs if score == top]


def marine_options(engine: Engine, keep: Callable[[int], bool] | None = None) -> list[Option]:
    """``Option("marine", (name,))`` for each marine whose row passes ``keep``."""
    return [
        option("marine", p.marine.name)
        for row, p in enumerate(engine.state.formation)
        if keep is None or keep(row)
    ]


def swarm_options(engine: Engine, keep: Callable[[int, int], bool] | None = None) -> list[Option]:
    """``Option("target", (position, side))`` for each non-empty swarm passing ``keep``."""
    return [
        option("target", row + 1, SIDES[side])
        for row, p in enumerate(engine.state.formation)
        for side in (LEFT, RIGHT)
        if p.swarms[side] and (keep is None or keep(row, side))
    ]


def target_of(option: Option) -> tuple[int, int]:
    """(0-based row, side) of an option with a position and a side (``target``, ``place``)."""
    return option.row(), option.side()


def card_of(engine: Engine, option: Option) -> tuple[int, int, int]:
    """(0-based row, side, genestealer id) of a ``slay_at`` / ``take`` option
    ``(position, side, label)``."""
    return option.row(), option.side(), engine.table.gs_by_label[option.text("genestealer")]


def engaged_count(engine: Engine, row: int, *, slayable: bool = False) -> int:
    """Genestealers engaged with the marine at ``row`` (both sides); with ``slayable``, only
    those that may be slain (not under a Power Field)."""
    pos = engine.state.formation[row]
    total = 0
    for side in (LEFT, RIGHT):
        swarm = pos.swarms[side]
        if swarm and not (slayable and engine.is_protected(swarm)):
            total += len(swarm)
    return total


def place_token(engine: Engine, name: str) -> bool:
    """One token from the supply onto the marine; nothing if the supply is empty (§1)."""
    st = engine.state
    if st.supply <= 0:
        return False
    engine.marine(name).tokens += 1
    st.supply -= 1
    engine.note(f"a support token is placed on {name}")
    return True


def return_tokens(engine: Engine, name: str, count: int | None = None) -> int:
    """Take ``count`` (all when ``None``) of the marine's tokens back to the supply."""
    marine = engine.marine(name)
    n = marine.tokens if count is None else min(count, marine.tokens)
    marine.tokens -= n
    engine.state.supply += n
    return n


def spawn_behind(engine: Engine, row: int, count: int) -> int:
    """Spawn behind the marine at ``row``, from the blip pile on that side (§14.9)."""
    side = 1 - engine.state.formation[row].marine.facing
    return engine.spawn(row, side, count)


def slay_engaged(
    engine: Engine, row: int, count: int, seat: int
) -> Generator[Decision, Option, int]:
    """Slay up to ``count`` genestealers engaged with the marine at ``row``, the chooser
    picking the swarm and the card each time; returns how many were slain."""
    slain = 0
    pos = engine.state.formation[row]
    for _ in range(count):
        sides = [
            s for s in (LEFT, RIGHT) if pos.swarms[s] and not engine.is_protected(pos.swarms[s])
        ]
        if not sides:
            break
        side = sides[0]
        if len(sides) > 1:
            options = [Option("target", (row + 1, SIDES[s])) for s in sides]
            choice = yield from engine.ask(seat, d.TARGET_SWARM, options, "slay from which swarm?")
            side = target_of(choice)[1]
        card = yield from engine.slay_one(pos, side, seat)
        if card is None:
            break
        if card not in pos.swarms[side]:  # slain, not only wounded
            slain += 1
    return slain


def smallest_pile(engine: Engine, seat: int, prompt: str) -> Generator[Decision, Option, int]:
    """The smaller blip pile, decided now; on a tie the chooser picks (§14.5)."""
    blips = engine.state.blips
    if len(blips[LEFT]) != len(blips[RIGHT]):
        return LEFT if len(blips[LEFT]) < len(blips[RIGHT]) else RIGHT
    options = [Option("pile", ("left",)), Option("pile", ("right",))]
    choice = yield from engine.ask(seat, d.TARGET_PILE, options, prompt)
    return choice.side()


def shuffle_into_pile(engine: Engine, cards: Sequence[int], side: int) -> None:
    """Put genestealers into a blip pile and shuffle it (§14.16); Brood Lords never go there,
    so callers leave them out."""
    pile = engine.state.blips[side]
    engine.heal(cards)
    pile.extend(cards)
    engine.streams.shuffle("blips", pile)
    engine.note(f"{len(cards)} genestealer(s) are shuffled into the {SIDES[side]} blip pile")
    engine.check_end()


def support_attacks(engine: Engine, team: str, why: str) -> Flow:
    """Each marine of the team may spend 1 support token to make 1 normal attack (Run and
    Gun, Overwatch); rerolls are allowed after the token is spent (§14.6)."""
    st = engine.state
    seat = st.team_seat[team]
    done: set[str] = set()
    first = True
    while True:
        options: list[Option] = []
        for row, pos in enumerate(st.formation):
            marine = pos.marine
            if marine.team != team or marine.name in done or marine.tokens < 1:
                continue
            side = SIDES[marine.facing]
            options.extend(
                Option("attack", (marine.name, side, t + 1)) for t in engine.attack_targets(row)
            )
        if not options:
            if first:
                engine.note(
                    f"{why}: no marine of the {team} team has a support token and a swarm in range"
                )
            return
        first = False
        options.append(DONE)
        choice = yield from engine.ask(seat, d.ATTACK, options, f"{why}: spend 1 token to attack")
        if choice.verb == "done":
            return
        name = choice.text("marine")
        done.add(name)
        return_tokens(engine, name, 1)
        yield from engine.attack(name, choice.row())
