"""Every card's facts as short labelled lines, in our own words: what ``deathangel cards``
lists and shows, and what the terminal's card panels display.

Kept with the cards (not the command line) because the play screen needs the same facts as
``cards show``; nothing here prints.
"""

from __future__ import annotations

import difflib
import re
from typing import NamedTuple

from deathangel.cards.model import (
    CardDatabase,
    CombatTeam,
    Effect,
    Event,
    Location,
    SetupLocation,
    Terrain,
    TerrainPlacement,
)
from deathangel.errors import UnknownCardError


class CardRow(NamedTuple):
    """One line of ``cards list``: enough to find a card, not all about it."""

    kind: str
    name: str
    facts: str


class CardFacts(NamedTuple):
    """Everything about one card, as (label, value) lines for ``cards show``."""

    kind: str
    name: str
    lines: list[tuple[str, str]]


def effect_text(effect: Effect | None) -> str:
    """An effect as a modder writes it, minus the TOML braces: ``name(param=value, ...)``."""
    if effect is None:
        return "-"
    params = ", ".join(f"{k}={_value(v)}" for k, v in effect.params.items())
    return f"{effect.name}({params})"


def _value(value: object) -> str:
    """A parameter as TOML writes it: a list (kept as a tuple, read-only) in brackets."""
    if isinstance(value, tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return repr(value)


def _placement(p: TerrainPlacement) -> str:
    return f"{p.side} row {p.position} from {p.count_from}: {p.terrain}"


def _spawns(event: Event) -> str:
    return ", ".join(f"{s.size} {s.color}" for s in event.spawns) or "-"


def _move(event: Event) -> str:
    return f"{event.move.kind} {event.move.icon}" if event.move else "-"


def _blips(left: int, right: int) -> str:
    return f"{left} left / {right} right"


def card_rows(db: CardDatabase, *, kind: str | None = None) -> list[CardRow]:
    """Rows of ``cards list`` for a loaded database, all kinds or one."""
    rows: list[CardRow] = []
    for team in db.teams:
        marines = ", ".join(m.name for m in team.marines)
        rows.append(CardRow("team", team.color, f"marines: {marines}"))
    for team in db.teams:
        for m in team.marines:
            rows.append(CardRow("marine", m.name, f"team {team.color}, range {m.range}"))
    actions = [(a, team) for team in db.teams for a in team.actions]
    for a, team in sorted(actions, key=lambda at: at[0].initiative):
        facts = f"initiative {a.initiative}, {a.kind}, team {team.color}"
        rows.append(CardRow("action", a.name, facts))
    for icon, count in db.genestealers.icons.items():
        rows.append(CardRow("genestealer", icon, f"{count} cards"))
    for lord in db.brood_lords:
        rows.append(CardRow("brood_lord", lord.name, "icons " + ", ".join(lord.icons)))
    for t in db.terrain:
        facts = t.color + (", activatable" if t.activatable else "")
        rows.append(CardRow("terrain", t.name, facts))
    for s in db.setup_locations:
        facts = (
            f"players {', '.join(map(str, s.players))}, spawns {s.major_spawn}/{s.minor_spawn}, "
            f"blips {s.blips_left}/{s.blips_right}, decks {' '.join(s.location_deck)}"
        )
        rows.append(CardRow("setup_location", s.name, facts))
    for loc in db.locations:
        facts = f"deck {loc.deck}, blips {loc.blips_left}/{loc.blips_right}"
        if loc.ability:
            facts += f", {loc.ability}"
        if loc.final:
            facts += ", final"
        rows.append(CardRow("location", loc.name, facts))
    for e in db.events:
        facts = f"x{e.copies}, spawns {_spawns(e)}, move {_move(e)}"
        if e.instinct:
            facts += ", instinct"
        rows.append(CardRow("event", e.name, facts))
    if kind is not None:
        rows = [r for r in rows if r.kind == kind]
    return rows


def _team_lines(team: CombatTeam) -> list[tuple[str, str]]:
    lines = [("colour", team.color)]
    lines += [("marine", f"{m.name} (range {m.range})") for m in team.marines]
    lines += [("action", f"{a.initiative:>2} {a.kind}: {a.name}") for a in team.actions]
    return lines


def _terrain_lines(t: Terrain) -> list[tuple[str, str]]:
    lines = [("colour", t.color), ("activatable", "yes" if t.activatable else "no")]
    if t.activatable:
        lines += [("text", t.text), ("effect", effect_text(t.effect))]
    return lines


def _setup_lines(s: SetupLocation) -> list[tuple[str, str]]:
    teams = ", ".join(f"{p} players: {n} each" for p, n in s.teams_per_player.items())
    return [
        ("players", ", ".join(map(str, s.players))),
        ("teams per player", teams),
        ("major / minor spawn", f"{s.major_spawn} / {s.minor_spawn}"),
        ("blips", _blips(s.blips_left, s.blips_right)),
        ("location deck", " -> ".join(s.location_deck)),
        *(("terrain", _placement(p)) for p in s.terrain),
    ]


def _location_lines(loc: Location) -> list[tuple[str, str]]:
    lines = [
        ("deck", loc.deck),
        ("blips", _blips(loc.blips_left, loc.blips_right)),
        ("final", "yes" if loc.final else "no"),
        ("ability", loc.ability or "-"),
        ("text", loc.text or "-"),
        ("effect", effect_text(loc.effect)),
    ]
    if loc.victory is not None:
        lines.append(("victory", effect_text(loc.victory)))
    lines += [("terrain", _placement(p)) for p in loc.terrain]
    return lines


def _event_lines(e: Event) -> list[tuple[str, str]]:
    return [
        ("copies", str(e.copies)),
        ("instinct", "yes" if e.instinct else "no"),
        ("spawns", _spawns(e)),
        ("move", _move(e)),
        ("text", e.text),
        ("effect", effect_text(e.effect)),
    ]


def all_facts(db: CardDatabase) -> list[CardFacts]:
    """The facts of every card, in database order: what ``cards show`` searches."""
    out: list[CardFacts] = []
    for team in db.teams:
        out.append(CardFacts("team", team.color, _team_lines(team)))
        for m in team.marines:
            lines = [("team", team.color), ("range", str(m.range))]
            out.append(CardFacts("marine", m.name, lines))
        for a in team.actions:
            lines = [
                ("team", team.color),
                ("initiative", str(a.initiative)),
                ("kind", a.kind),
                ("text", a.text),
                ("effect", effect_text(a.effect)),
            ]
            out.append(CardFacts("action", a.name, lines))
    for icon, count in db.genestealers.icons.items():
        out.append(CardFacts("genestealer", icon, [("cards in deck", str(count))]))
    for lord in db.brood_lords:
        out.append(CardFacts("brood_lord", lord.name, [("icons", ", ".join(lord.icons))]))
    out += [CardFacts("terrain", t.name, _terrain_lines(t)) for t in db.terrain]
    out += [CardFacts("setup_location", s.name, _setup_lines(s)) for s in db.setup_locations]
    out += [CardFacts("location", loc.name, _location_lines(loc)) for loc in db.locations]
    out += [CardFacts("event", e.name, _event_lines(e)) for e in db.events]
    return out


def find_facts(db: CardDatabase, name: str) -> list[CardFacts]:
    """Every card of ``db`` called ``name``: case-insensitive, spaces folded (two events may
    share a name); a genestealer label such as ``claw-3`` finds its icon.

    :raises UnknownCardError: if none is, naming close matches.
    """
    facts = all_facts(db)
    wanted = " ".join(name.split()).casefold()
    found = [f for f in facts if f.name.casefold() == wanted]
    if not found:
        label = re.fullmatch(r"(\w+)-\d+", wanted)
        if label is not None:
            found = [f for f in facts if f.kind == "genestealer" and f.name == label.group(1)]
    if found:
        return found
    by_fold = {f.name.casefold(): f.name for f in facts}
    close = difflib.get_close_matches(wanted, list(by_fold), n=3, cutoff=0.5)
    hint = " (did you mean " + " or ".join(repr(by_fold[c]) for c in close) + "?)" if close else ""
    # Where to list the cards is for the caller to say: a command line, or a game's prompt.
    raise UnknownCardError(f"no card named {name!r}{hint}")
