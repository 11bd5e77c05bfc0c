"""``deathangel cards``: browse the card database and check card files.

Each command is a thin ``*_cli`` function that only parses options and prints; the work is
done by a plain keyword-only function (:func:`list_cards`, :func:`show_card`,
:func:`validate_cards`) that tests and scripts call directly, without a console in the way.
The card loader is imported inside those functions, so that other commands do not pay for
importing cattrs at start-up.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer
from rich.console import Console
from rich.table import Table

from deathangel.errors import UnknownCardError

if TYPE_CHECKING:
    from deathangel.cardmodel import (
        CardDatabase,
        CombatTeam,
        Effect,
        Event,
        Location,
        SetupLocation,
        Terrain,
        TerrainPlacement,
    )

cards_app = typer.Typer(
    name="cards",
    help="List, show and validate cards (the base game plus installed plugins).",
    no_args_is_help=True,
)


class Kind(StrEnum):
    """The kinds of card ``cards list --kind`` can filter on."""

    team = "team"
    marine = "marine"
    action = "action"
    genestealer = "genestealer"
    brood_lord = "brood_lord"
    terrain = "terrain"
    setup_location = "setup_location"
    location = "location"
    event = "event"


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


# -- plain functions ---------------------------------------------------------------------------


def _load(dirs: Sequence[Path] | None) -> CardDatabase:
    from deathangel.cardload import load_database

    return load_database(list(dirs) if dirs else None)


def effect_text(effect: Effect | None) -> str:
    """An effect as a modder writes it, minus the TOML braces: ``name(param=value, ...)``."""
    if effect is None:
        return "-"
    params = ", ".join(f"{k}={v!r}" for k, v in effect.params.items())
    return f"{effect.name}({params})"


def _placement(p: TerrainPlacement) -> str:
    return f"{p.side} row {p.position} from {p.count_from}: {p.terrain}"


def _placements(placements: Iterable[TerrainPlacement]) -> str:
    return "; ".join(_placement(p) for p in placements) or "-"


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


def list_cards(*, kind: str | None = None, dirs: Sequence[Path] | None = None) -> list[CardRow]:
    """Load the cards (base game and plugins, or only ``dirs``) and list them."""
    return card_rows(_load(dirs), kind=kind)


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
    raise UnknownCardError(f"no card named {name!r}{hint}; 'deathangel cards list' shows them all")


def show_card(*, name: str, dirs: Sequence[Path] | None = None) -> list[CardFacts]:
    """Every card called ``name`` in the base game and plugins (or ``dirs``).

    :raises UnknownCardError: if none is, naming close matches.
    """
    return find_facts(_load(dirs), name)


def validate_cards(*, dirs: Sequence[Path] | None = None) -> dict[str, int]:
    """Load and fully check the cards; return the count of each kind (copies included).

    :raises CardDataError: naming file, card and field of the first problem.
    """
    return _load(dirs).counts()


# -- command line ------------------------------------------------------------------------------

DirsOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--dir",
        "-d",
        help="Load only this card directory (repeatable) instead of the base game and plugins.",
        file_okay=False,
    ),
]


@cards_app.command("list")
def list_cli(
    kind: Annotated[Kind | None, typer.Option("--kind", "-k", help="Only this kind.")] = None,
    dirs: DirsOption = None,
) -> None:
    """List cards with their key facts."""
    rows = list_cards(kind=kind.value if kind else None, dirs=dirs)
    table = Table("kind", "name", "facts", title=f"{len(rows)} cards")
    for row in rows:
        table.add_row(*row)
    Console().print(table)


@cards_app.command("show")
def show_cli(
    name: Annotated[str, typer.Argument(help="Card name (case-insensitive).")],
    dirs: DirsOption = None,
) -> None:
    """Show every fact of a card."""
    console = Console()
    for card in show_card(name=name, dirs=dirs):
        table = Table(title=f"{card.kind} {card.name!r}", show_header=False)
        table.add_column("field", style="bold")
        table.add_column("value")
        for label, value in card.lines:
            table.add_row(label, value)
        console.print(table)


@cards_app.command("validate")
def validate_cli(
    dirs: DirsOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the counts as one JSON object.")
    ] = False,
) -> None:
    """Load and check every card file; print how many cards of each kind there are.

    Any problem is reported as one line naming file, card and field, with exit code 1.
    """
    counts = validate_cards(dirs=dirs)
    if as_json:
        typer.echo(json.dumps(counts))
        return
    typer.echo("cards OK")
    width = max(len(k) for k in counts)
    for kind, count in counts.items():
        typer.echo(f"  {kind:<{width}}  {count}")
