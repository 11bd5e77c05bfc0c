"""One-line explanations of options, so a person choosing from a menu knows what each does
(with the odds where dice decide). Never raises: an option it cannot explain reads as itself."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

import deathangel.engine.decisions as d
from deathangel.engine.randomness import DIE_FACES, FACE_COUNT, SKULL_FACES
from deathangel.engine.state import SIDES

if TYPE_CHECKING:
    from deathangel.cards.model import ActionCard
    from deathangel.engine.decisions import Decision, Option
    from deathangel.engine.game import Game
    from deathangel.engine.state import CardTable, GameState, Position

from deathangel.tui.style import (
    _BASE_ACTION,
    KIND_NAMES,
    WHOLE_TEXT,
    _pct,
    _plural,
    _short,
    _swarm_text,
)

# -- explaining options ----------------------------------------------------------------------


def explain_option(game: Game, decision: Decision, option: Option, *, full: bool = False) -> str:
    """One line saying, in plain words, what choosing ``option`` does; never raises (falls
    back to ``str(option)``). ``full``: card texts whole, not their first sentence cut short
    (what ``?`` shows)."""
    token = WHOLE_TEXT.set(full)
    try:
        text = explain_option_strict(game, decision, option)
    except Exception:  # an explanation must never break a menu
        text = ""
    finally:
        WHOLE_TEXT.reset(token)
    text = " ".join(text.split())
    if not text:
        return str(option) or option.verb
    return text


def explain_option_strict(game: Game, decision: Decision, option: Option) -> str:
    """:func:`explain_option` without the safety net: raises on an option it cannot explain
    (tests use it to find gaps)."""
    explain = _EXPLAINERS.get(option.verb)
    if explain is None:
        raise KeyError(f"no explanation for verb {option.verb!r}")
    return explain(_Ctx(game, decision, option))


class _Ctx:
    """What an explainer reads: the game, the decision, the option, and shortcuts."""

    def __init__(self, game: Game, decision: Decision, option: Option) -> None:
        self.game = game
        self.decision = decision
        self.option = option
        self.st: GameState = game.state
        self.table: CardTable = game.table
        self.kind = decision.kind
        self.prompt = decision.prompt
        self.low = decision.prompt.casefold()

    def text(self, name: str) -> str:
        """The option's argument of that name (:data:`~deathangel.engine.decisions.OPTION_ARGS`)."""
        return self.option.text(name)

    def row(self) -> int:
        """The option's ``position`` as a 0-based row."""
        return self.option.row()

    def meaning(self) -> str:
        """What a ``yes``/``no`` option says it does, or ``""`` when it says nothing."""
        return self.option.text("meaning") if self.option.args else ""

    def position(self, row: int) -> Position:
        return self.st.formation[row]

    def marine_row(self, name: str) -> int | None:
        for i, pos in enumerate(self.st.formation):
            if pos.marine.name == name:
                return i
        return None

    def prompt_card(self) -> str:
        """The card named before the prompt's colon (``"Power Field: protect..."``)."""
        return self.prompt.split(":", 1)[0].strip()

    def action_card(self) -> ActionCard | None:
        info = self.table.actions.get(self.prompt_card())
        return info[1] if info is not None else None


def _swarm_words(ctx: _Ctx, row: int, side: int) -> str:
    """``"3 genestealers (Cl To×2)"``, ``"no genestealer"``."""
    if not 0 <= row < len(ctx.st.formation):
        return "no genestealer"
    swarm = ctx.position(row).swarms[side]
    if not swarm:
        return "no genestealer"
    labels = [ctx.table.gs_labels[c] for c in swarm]
    icons = _swarm_text(ctx.table, labels, set()).plain.split(":", 1)[1].strip()
    words = f"{_plural(len(swarm), 'genestealer')} ({icons})"
    if swarm and any(c in ctx.st.protected for c in swarm):
        words += " under a Power Field"
    return words


def _front_words(ctx: _Ctx, row: int, side: int) -> str:
    """What is on ``side`` of ``row``: its swarm and terrain."""
    pos = ctx.position(row)
    bits = []
    if pos.swarms[side]:
        bits.append(_swarm_words(ctx, row, side))
    bits += [f"the {t.name}" for t in pos.terrain[side]]
    return " and ".join(bits) if bits else "nothing"


def _marine_words(ctx: _Ctx, name: str) -> str:
    """``"position 3, faces left, 2 tokens, engaged with 4"``; ``"slain"`` when gone."""
    row = ctx.marine_row(name)
    if row is None:
        return "slain"
    pos = ctx.position(row)
    engaged = len(pos.swarms[0]) + len(pos.swarms[1])
    return (
        f"position {row + 1}, {pos.marine.team}, faces {SIDES[pos.marine.facing]}, "
        f"{_plural(pos.marine.tokens, 'token')}, engaged with {engaged}"
    )


def _explain_card(ctx: _Ctx) -> str:
    name = ctx.text("card")
    _, card = ctx.table.actions[name]
    kind = KIND_NAMES.get(card.kind, card.kind)
    ability = _short(card.text, 75) if card.text else _BASE_ACTION.get(card.kind, "")
    return f"{kind}, initiative {card.initiative} — {ability}"


def _explain_marine(ctx: _Ctx) -> str:
    name = ctx.text("marine")
    facts = _marine_words(ctx, name)
    low = ctx.low
    if ctx.kind == d.PLACE_SUPPORT:
        if ctx.st.supply <= 0:
            return f"{name} ({facts}) gets no token: the supply is empty"
        row = ctx.marine_row(name)
        now = ctx.position(row).marine.tokens if row is not None else 0
        extra = " (then he may turn round)" if "apothecarion" in low else ""
        return f"put a support token on {name} ({facts}): {now} → {now + 1}{extra}"
    if "returns" in low:
        return f"{name} rejoins the formation at the bottom, facing right, with no token"
    if "spend a token" in low:
        return f"{name} pays 1 support token to discard the top of the other blip pile ({facts})"
    if "spawn behind" in low:
        row = ctx.marine_row(name)
        if row is not None:
            behind = 1 - ctx.position(row).marine.facing
            pile = len(ctx.st.blips[behind])
            return (
                f"genestealers spawn behind {name}, on his {SIDES[behind]}, from the "
                f"{SIDES[behind]} blip pile ({pile} left) ({facts})"
            )
    event = _current_event(ctx)
    if event is not None:
        return f"{event[0]} picks {name} ({facts}): {_ability_words(event[1])}"
    return f"{ctx.prompt_card()}: {name} ({facts})"


def _ability_words(text: str) -> str:
    """An Event's text without its "Choose a marine." opening, shortened."""
    rest = re.sub(r"^Choose [^.;]*[.;]\s*", "", " ".join(text.split()))
    return _short(rest or text, 70)


def _current_event(ctx: _Ctx) -> tuple[str, str] | None:
    """(name, text) of the Event card being resolved, when the decision is about it."""
    if ctx.st.event is None:
        return None
    event = ctx.table.events[ctx.st.event]
    if ctx.prompt_card() != event.name:
        return None
    return event.name, event.text


def _explain_swap(ctx: _Ctx) -> str:
    a, b = ctx.text("marine"), ctx.text("other")
    ra, rb = ctx.marine_row(a), ctx.marine_row(b)
    if ra is None or rb is None:
        return f"{a} swaps places with {b}"
    facing = ctx.position(ra).marine.facing
    return (
        f"{a} moves from position {ra + 1} to {rb + 1} and {b} to {ra + 1} (swarms and terrain "
        f"stay put); {a} would then face {_front_words(ctx, rb, facing)}"
    )


def _explain_flip(ctx: _Ctx) -> str:
    name = ctx.text("marine")
    row = ctx.marine_row(name)
    if row is None:
        return f"{name} turns round"
    facing = ctx.position(row).marine.facing
    new = 1 - facing
    return (
        f"{name} turns to face {SIDES[new]}: {_front_words(ctx, row, new)} in front, "
        f"{_front_words(ctx, row, facing)} behind"
    )


def _explain_activate(ctx: _Ctx) -> str:
    marine, terrain = ctx.text("marine"), ctx.text("terrain")
    card = ctx.table.terrain.get(terrain)
    what = _short(card.text, 90) if card is not None and card.text else "activate it"
    panel = card is not None and card.effect is not None and card.effect.name == "use_control_panel"
    if panel and ctx.st.location is not None:
        location = ctx.table.locations[ctx.st.location]
        if location.text:
            what = _short(location.text.split(":", 1)[-1], 90)
    return f"{marine} activates the {terrain}: {what}"


def _span(faces: Collection[int]) -> str:
    """``"1-3"``: the lowest and highest of some die faces."""
    return f"{min(faces)}-{max(faces)}"


def _attack_odds(ctx: _Ctx, marine: str, card: ActionCard | None, paid: bool) -> str:
    """Chance of slaying at least one with this roll, and with every reroll he can pay for."""
    row = ctx.marine_row(marine)
    tokens = ctx.position(row).marine.tokens if row is not None else 0
    if paid:
        tokens = max(0, tokens - 1)
    effect = card.effect if card is not None else None
    hits = set(SKULL_FACES)
    rule = f"a skull ({_span(SKULL_FACES)}) slays 1"
    if effect is not None:
        params = effect.params
        if effect.name == "attack_slays_face_value" and params.get("marine") == marine:
            hits = {f for f in DIE_FACES if f > 0}
            rule = f"slays as many as the face rolled ({_span(DIE_FACES)})"
        elif effect.name == "attack_face_slays":
            faces = {int(f) for f in params.get("faces", ())}
            hits |= faces
            shown = "/".join(str(f) for f in sorted(faces))
            rule += f", a {shown} slays up to {params.get('up_to')}"
        elif effect.name == "skull_chains_attack" and params.get("marine") == marine:
            rule += " and lets him attack again"
    p = len(hits) / FACE_COUNT
    odds = f"{_pct(p)} to slay"
    if tokens:
        odds += (
            f", {_pct(1 - (1 - p) ** (tokens + 1))} rerolling with his {_plural(tokens, 'token')}"
        )
    return f"{rule}: {odds}"


def _explain_attack(ctx: _Ctx) -> str:
    marine, side_name, target = ctx.text("marine"), ctx.text("side"), ctx.row()
    side = SIDES.index(side_name)
    paid = "spend 1 token" in ctx.low
    card = None if paid else ctx.action_card()
    row = ctx.marine_row(marine)
    rng = f" (range {ctx.position(row).marine.range})" if row is not None else ""
    swarm = ctx.position(target).swarms[side]
    lords = sum(1 for c in swarm if ctx.table.is_brood_lord(c))
    lord_note = "; Brood Lords fall only after the rest" if lords and lords < len(swarm) else ""
    cost = "pay 1 support token: " if paid else ""
    return (
        f"{cost}{marine}{rng} attacks the {side_name} swarm at position {target + 1} "
        f"({_swarm_words(ctx, target, side)}): {_attack_odds(ctx, marine, card, paid)}"
        f"{lord_note}"
    )


def _explain_charge(ctx: _Ctx) -> str:
    marine = ctx.text("marine")
    card = ctx.action_card()
    if card is not None and card.effect is not None:
        params = card.effect.params
        deaths = "/".join(str(f) for f in params.get("death_faces", ()))
        return (
            f"instead of attacking, {marine} slays up to {params.get('up_to')} genestealers "
            f"within {params.get('reach')} position(s), either side; then a roll of {deaths} "
            f"slays him"
        )
    return f"{marine} makes a Heroic Charge instead of attacking"


_ROLLED = re.compile(r"rolled (\d+)\s*$")
_ATTACKER = re.compile(r"^(.+?) attacks the (left|right) swarm")
_DEFENCE = re.compile(r"(\d+) genestealers? on the (left|right) attacks? (.+?): rolled")


def _roll_outcome(ctx: _Ctx, face: int) -> str:
    """What ``face`` means for the roll the reroll decision is about."""
    defence = _DEFENCE.search(ctx.prompt)
    if defence is not None:
        size, side, marine = int(defence.group(1)), defence.group(2), defence.group(3)
        row = ctx.marine_row(marine)
        lords = 0
        if row is not None:
            swarm = ctx.position(row).swarms[SIDES.index(side)]
            lords = sum(1 for c in swarm if ctx.table.is_brood_lord(c))
        value = face - lords
        if value <= size:
            return f"{face} vs {size} attacker(s): {marine} is slain unless a card saves him"
        return f"{face} vs {size} attacker(s): the attack misses"
    attacker = _ATTACKER.search(ctx.prompt)
    card = _resolving_card(ctx, attacker.group(1)) if attacker is not None else None
    effect = card.effect if card is not None else None
    if effect is not None and attacker is not None:
        params = effect.params
        if effect.name == "attack_slays_face_value" and params.get("marine") == attacker.group(1):
            return f"{face} — slays {face}"
        if effect.name == "attack_face_slays" and face in params.get("faces", ()):
            return f"{face} — slays up to {params.get('up_to')}"
    return f"{face} — a skull, slays 1" if face in SKULL_FACES else f"{face} — no skull, a miss"


def _resolving_card(ctx: _Ctx, marine: str) -> ActionCard | None:
    """The marine's team's action card resolving now (during Resolve Actions), if any."""
    st = ctx.st
    row = ctx.marine_row(marine)
    if st.phase != "resolve_actions" or row is None:
        return None
    team = ctx.position(row).marine.team
    for _, t, card in st.revealed:
        if t == team and t not in st.resolved:
            return ctx.table.actions[card][1]
    return None


def _roller(ctx: _Ctx) -> tuple[str, int] | None:
    """(marine, tokens) of the marine the reroll decision is about."""
    best: tuple[int, str, int] | None = None
    for pos in ctx.st.formation:
        at = ctx.prompt.find(pos.marine.name)
        if at >= 0 and (best is None or at > best[0]):
            best = (at, pos.marine.name, pos.marine.tokens)
    return None if best is None else (best[1], best[2])


def _explain_reroll(ctx: _Ctx) -> str:
    rolled = _ROLLED.search(ctx.prompt)
    roller = _roller(ctx)
    who = f"{roller[0]}'s {_plural(roller[1], 'token')}" if roller else "his tokens"
    now = ""
    if rolled is not None:
        now = f" (now: {_roll_outcome(ctx, int(rolled.group(1)))})"
    return f"spend 1 of {who} (back to the supply) and roll again; the new roll counts{now}"


def _explain_keep(ctx: _Ctx) -> str:
    rolled = _ROLLED.search(ctx.prompt)
    if rolled is None:
        return "keep this roll and spend no token"
    return f"keep the roll and spend no token: {_roll_outcome(ctx, int(rolled.group(1)))}"


def _label_words(ctx: _Ctx, label: str) -> str:
    index = ctx.table.gs_by_label.get(label)
    if index is None:
        return label
    icons = ", ".join(sorted(ctx.table.gs_icons[index]))
    if ctx.table.is_brood_lord(index):
        return f"{label} (a Brood Lord: {icons})"
    return f"the {icons} genestealer ({label})"


def _explain_slay(ctx: _Ctx) -> str:
    return f"slay {_label_words(ctx, ctx.text('genestealer'))}; the rest of the swarm stays"


def _explain_slay_at(ctx: _Ctx) -> str:
    row, side, card = ctx.row(), ctx.text("side"), ctx.text("genestealer")
    return (
        f"slay {_label_words(ctx, card)} from the {side} swarm at position {row + 1} "
        f"({_swarm_words(ctx, row, SIDES.index(side))})"
    )


def _explain_take(ctx: _Ctx) -> str:
    row, side, card = ctx.row(), ctx.text("side"), ctx.text("genestealer")
    return (
        f"send {_label_words(ctx, card)} from the {side} swarm at position {row + 1} "
        "back into the blip pile"
    )


def _explain_terrain(ctx: _Ctx) -> str:
    name, row, side = ctx.text("terrain"), ctx.row(), ctx.text("side")
    where = f"the {name} ({side} of position {row + 1})"
    if ctx.kind == d.SPAWN_ORDER:
        pile = len(ctx.st.blips[SIDES.index(side)])
        return (
            f"{where} draws first from the {side} blip pile ({pile} left); the others get the rest"
        )
    if "gather" in ctx.low:
        return f"the {side} swarms gather at {where}, and a Brood Lord spawns there"
    if "limit" in ctx.low:
        most = "a few"
        if ctx.st.location is not None:
            effect = ctx.table.locations[ctx.st.location].effect
            if effect is not None and "max" in effect.params:
                most = str(effect.params["max"])
        return f"at most {most} genestealer(s) may spawn at {where} this round's Event"
    return f"{where}: {ctx.prompt}"


def _explain_pile(ctx: _Ctx) -> str:
    side = ctx.text("side")
    count = len(ctx.st.blips[SIDES.index(side)])
    pile = f"the {side} blip pile ({_plural(count, 'card')})"
    low = ctx.low
    if ctx.kind == d.BLIP_SPLIT:
        return f"the odd Genestealer card goes to {pile}"
    if "takes them" in low:
        return f"the genestealers are shuffled into {pile}"
    many = re.search(r"discard (\d+) card", low)
    if many is not None:
        return f"discard the top {many.group(1)} card(s) of {pile}"
    if "discard" in low:
        event = _current_event(ctx)
        n = 1
        if event is not None:
            effect = next(e for e in ctx.table.db.events if e.name == event[0]).effect
            n = int(effect.params.get("count", 1))
        gone = " (it empties)" if count <= n else ""
        top = "the top card" if n == 1 else f"the top {n} cards"
        return f"discard {top} of {pile}{gone}"
    return f"{pile}: {ctx.prompt}"


def _explain_target(ctx: _Ctx) -> str:
    row, side_name = ctx.row(), ctx.text("side")
    side = SIDES.index(side_name)
    swarm = f"the {side_name} swarm at position {row + 1} ({_swarm_words(ctx, row, side)})"
    low = ctx.low
    if ctx.kind == d.DOOR_SLAY:
        return f"spend a Door token to slay a genestealer of {swarm}"
    if "protect" in low:
        return f"Power Field on {swarm}: it can neither attack nor be slain this round"
    if "move which" in low:
        return f"move {swarm} (you pick where next)"
    if "falls back" in low:
        return f"shuffle {swarm} into the smaller blip pile (Brood Lords stay)"
    if "spawn onto" in low:
        pile = len(ctx.st.blips[side])
        return f"genestealers from the {side_name} blip pile ({pile} left) join {swarm}"
    if "slay" in low:
        return f"slay a genestealer of {swarm}"
    return f"{swarm}: {ctx.prompt}"


def _explain_place(ctx: _Ctx) -> str:
    row, side_name = ctx.row(), ctx.text("side")
    side = SIDES.index(side_name)
    pos = ctx.position(row)
    beside = f"beside {pos.marine.name}"
    if ctx.kind == d.TARGET_SWARM:
        there = pos.swarms[side]
        joins = f", joining {_swarm_words(ctx, row, side)}" if there else ""
        front = "in front of" if pos.marine.facing == side else "behind"
        return (
            f"the swarm moves to the {side_name} of position {row + 1}{joins} ({front} "
            f"{pos.marine.name})"
        )
    match = re.search(r"place the (.+?) where", ctx.prompt)
    thing = match.group(1) if match else "card"
    return f"put the {thing} on the {side_name} of position {row + 1} ({beside})"


def _explain_team(ctx: _Ctx) -> str:
    team = ctx.text("team")
    if ctx.kind == "choose_team":
        # Teams chosen at setup (a variant): what the team brings, not who is in play.
        marines = ", ".join(f"{m.name} r{m.range}" for m in ctx.table.db.team(team).marines)
        cards = ", ".join(a.name for a in ctx.table.db.team(team).actions)
        return f"play the {team} team: {marines}; {cards}"
    attack = next((a.name for a in ctx.table.db.team(team).actions if a.kind == "attack"), "")
    marines = ", ".join(p.marine.name for p in ctx.st.formation if p.marine.team == team)
    return (
        f"the {team} team ({marines}) may not choose its Attack card ({attack}) next round"
        if "jam" in ctx.low
        else f"the {team} team ({marines}): {ctx.prompt}"
    )


def _explain_count(ctx: _Ctx) -> str:
    n = ctx.option.number("count")
    if n == 0:
        return "spend no token and slay nothing"
    return (
        f"spend {_plural(n, 'support token')} to slay {_plural(n, 'genestealer')} engaged with him"
    )


def _top_event(ctx: _Ctx) -> str:
    match = re.search(r"top Event card is (.+)$", ctx.prompt)
    return match.group(1) if match else "the card"


def _explain_top(ctx: _Ctx) -> str:
    return f"leave {_top_event(ctx)} on top: it is the next Event card drawn"


def _explain_bottom(ctx: _Ctx) -> str:
    return f"put {_top_event(ctx)} at the bottom of the Event deck"


_YES_WORDS: dict[str, str] = {
    "roll": "roll the die: up to that many genestealers engaged with the team go back into "
    "the smallest blip pile",
    "look": "look at the top Event card, then leave it on top or put it at the bottom",
}


def _launch_odds(tokens: int) -> str:
    """The chance that a roll is at most ``tokens``."""
    return _pct(sum(1 for face in DIE_FACES if face <= tokens) / FACE_COUNT)


def _explain_yes(ctx: _Ctx) -> str:
    arg = ctx.meaning()
    low = ctx.low
    if "launch control" in low:
        n = ctx.st.location_tokens
        return (
            f"place 1 support token on the location card ({n} → {n + 1}): a later roll of "
            f"{n + 1} or less wins ({_launch_odds(n + 1)})"
        )
    if "teleportarium" in low:
        return "discard 1 support token: he teleports safely"
    if "artefact" in arg.casefold():
        return "discard the Artefact: this attack misses and he lives"
    if "extra support token on the door" in low:
        return f"place 1 more support token on the Door ({ctx.st.supply} left in the supply)"
    if arg in _YES_WORDS:
        return _YES_WORDS[arg]
    return arg if arg else f"yes ({ctx.prompt})"


def _explain_no(ctx: _Ctx) -> str:
    low = ctx.low
    if "launch control" in low:
        n = ctx.st.location_tokens
        return f"roll the die now: a face of {n} or less wins the game ({_launch_odds(n)})"
    if "teleportarium" in low:
        return "roll the die: on a 0 he is slain"
    if "artefact" in low:
        return "keep the Artefact: he is slain"
    if "extra support token on the door" in low:
        return "place no extra token on the Door"
    if "look at the top" in low:
        return "do not look at the Event deck"
    if "roll the die?" in low:
        return "do not roll: nothing is sent back"
    flip = re.search(r"flip (.+?)\?", ctx.prompt)
    if flip is not None:
        return f"{flip.group(1)} keeps his facing"
    arg = ctx.meaning()
    if arg:
        return arg
    return f"decline ({ctx.prompt})" if ctx.prompt else "decline"


_DONE_WORDS: dict[str, str] = {
    d.MOVE: "stop moving; go on to turning",
    d.FACING: "stop turning; go on to activating terrain",
    d.ACTIVATE: "activate nothing more; the Move + Activate action ends",
    d.PLACE_SUPPORT: "place no support token",
    d.TARGET_SWARM: "pick no swarm: the ability stops here",
    d.TARGET_PILE: "discard nothing",
    d.TARGET_MARINE: "spend no token",
    d.DOOR_SLAY: "slay no more; the Door's tokens go back to the supply when the marines travel",
    d.SLAY: "slay no more",
}


def _explain_done(ctx: _Ctx) -> str:
    if ctx.kind == d.TARGET_SWARM:
        for key, words in (
            ("send back", "send no more back"),
            ("protect", "protect no swarm"),
            ("move which", "move no swarm"),
            ("slay", "slay no more"),
        ):
            if key in ctx.low:
                return words
    if ctx.kind == d.ATTACK:
        if "again" in ctx.low:
            return "make no further attack"
        if "spend 1 token" in ctx.low:
            return "pay for no more attacks"
        return "stop attacking: marines of the team who have not attacked give up their attack"
    return _DONE_WORDS.get(ctx.kind, "finish this step")


_EXPLAINERS: dict[str, Callable[[_Ctx], str]] = {
    "card": _explain_card,
    "marine": _explain_marine,
    "swap": _explain_swap,
    "flip": _explain_flip,
    "activate": _explain_activate,
    "attack": _explain_attack,
    "charge": _explain_charge,
    "reroll": _explain_reroll,
    "keep": _explain_keep,
    "slay": _explain_slay,
    "slay_at": _explain_slay_at,
    "take": _explain_take,
    "terrain": _explain_terrain,
    "pile": _explain_pile,
    "target": _explain_target,
    "place": _explain_place,
    "team": _explain_team,
    "count": _explain_count,
    "top": _explain_top,
    "bottom": _explain_bottom,
    "yes": _explain_yes,
    "no": _explain_no,
    "done": _explain_done,
}
"""One explainer per option verb of :mod:`deathangel.engine.decisions`."""
