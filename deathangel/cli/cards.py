"""``deathangel cards``: browse the card database and check card files.

Each command is a thin ``*_cli`` function that only parses options and prints; the work is
done by a plain keyword-only function (:func:`list_cards`, :func:`show_card`,
:func:`validate_cards`) that tests and scripts call directly, without a console in the way.
The card loader is imported inside those functions, so that other commands do not pay for
importing cattrs at start-up.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from deathangel.cards.facts import CardFacts, CardRow, card_rows, find_facts
from deathangel.cli.cardreport import cards_report_cli
from deathangel.cli.output import pipe_friendly
from deathangel.errors import CardDataError, DeathAngelError, PluginError, UnknownCardError

if TYPE_CHECKING:
    from deathangel.cards.model import CardDatabase

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


# -- plain functions ---------------------------------------------------------------------------


def _load(
    dirs: Sequence[Path] | None,
    with_: Sequence[str] = (),
    paths: Sequence[Path] = (),
) -> CardDatabase:
    """``dirs`` alone; else the base game with the plugins named in ``with_``, and the card
    files at ``paths`` (directories or files) checked with them.

    With ``paths`` and plugins named, ``paths`` stand in for the card files of the last
    plugin named (the one being written: its installed files may be an older copy), with
    its manifest's deck joins; its effects must all be implemented.
    """
    from deathangel.cards.load import load_database, read_file, read_source
    from deathangel.cards.manifest import CardSource, Join
    from deathangel.engine.effects.dispatch import CardAbilities
    from deathangel.plugins.manager import plugin_manager
    from deathangel.plugins.ruleset import (
        card_sources,
        plugin_catalogue,
        plugin_implementations,
        plugins_text,
    )

    for folder in [*(dirs or ()), *paths]:
        # An empty folder is a mistyped path far more often than an empty expansion.
        if folder.is_dir() and not any(folder.glob("*.toml")):
            raise CardDataError(f"{folder}: no card files found (no *.toml file in it)")
    pm = plugin_manager(list(with_))
    catalogue = plugin_catalogue(pm)
    if dirs:
        return load_database(list(dirs), catalogue=catalogue)
    sources = card_sources(pm)
    if paths:
        joins: dict[str, Join] = {}
        if with_:
            stand_in = sources.pop()
            joins = dict(stand_in.joins)
        for path in paths:
            if path.is_dir():
                sources.append(read_source(str(path), [path], joins))
            else:
                sources.append(CardSource(str(path), (read_file(path),), joins))
    try:
        db = load_database([], catalogue=catalogue, sources=sources)
    except CardDataError as exc:
        if not with_:
            raise
        # A card checked against the others (an effect's parameters, a duplicate name): the
        # plugins named are to blame, as when a game loads them.
        raise PluginError(f"{plugins_text(pm)}: {exc}") from None
    if with_:
        # Every effect a card names must be implemented, with its timing's arguments.
        implementations, owners = plugin_implementations(pm)
        labels = {effect: pm.label(name) for effect, name in owners.items()}
        CardAbilities.with_implementations(db, catalogue, implementations, labels)
    return db


def list_cards(
    *, kind: str | None = None, dirs: Sequence[Path] | None = None, with_: Sequence[str] = ()
) -> list[CardRow]:
    """Load the cards (the base game and the plugins named, or only ``dirs``) and list them."""
    return card_rows(_load(dirs, with_), kind=kind)


def show_card(
    *, name: str, dirs: Sequence[Path] | None = None, with_: Sequence[str] = ()
) -> list[CardFacts]:
    """Every card called ``name`` in the base game and the plugins named (or ``dirs``).

    :raises UnknownCardError: if none is, naming close matches.
    """
    return find_facts(_load(dirs, with_), name)


def validate_cards(
    *,
    dirs: Sequence[Path] | None = None,
    paths: Sequence[Path] = (),
    with_: Sequence[str] = (),
) -> dict[str, int]:
    """Load and fully check the cards; return the count of each kind (copies included).

    With ``paths`` (a plugin's card directories or files) those are checked on top of the
    base game and the plugins named in ``with_`` — their references may point into them,
    their effects may be declared by them; they stand in for the last named plugin's own
    cards — and the counts are those of ``paths`` alone.

    :raises CardDataError: naming file, card and field of the first problem.
    """
    db = _load(dirs, with_, paths)
    if not paths:
        return db.counts()
    counts = _own_counts(paths)
    if not counts:
        # Valid TOML with no card table in it: nothing was checked, which a modder should hear.
        named = ", ".join(str(p) for p in paths)
        raise CardDataError(
            f"{named}: no cards in {'it' if len(paths) == 1 else 'them'} "
            "(a card is a [[team]], [[event]], [[location]]... table)"
        )
    return counts


def _own_counts(paths: Sequence[Path]) -> dict[str, int]:
    """Cards of each kind in the files at ``paths`` (already checked)."""
    from deathangel.cards.files import SECTIONS
    from deathangel.cards.load import card_files, read_file

    files = [read_file(f) for p in paths for f in (card_files([p]) if p.is_dir() else [p])]
    counts: dict[str, int] = {}
    for section in SECTIONS:
        items = [card for cf in files for card in getattr(cf, section.attr)]
        if section.attr == "teams":
            counts["marines"] = sum(len(t.marines) for t in items)
            counts["actions"] = sum(len(t.actions) for t in items)
        elif section.attr == "events":
            counts["events"] = sum(e.copies for e in items)
        elif section.attr == "enemies":
            counts["enemies"] = sum(e.count for e in items)
        else:
            counts[section.attr] = len(items)
    counts["genestealers"] = sum(
        sum(cf.genestealers.icons.values()) for cf in files if cf.genestealers
    )
    return {kind: n for kind, n in counts.items() if n}


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
WithCards = Annotated[
    list[str] | None,
    typer.Option(
        "--with", help="Include the installed plugin NAME's cards and effects (repeatable)."
    ),
]


JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


@cards_app.command("list")
def list_cli(
    kind: Annotated[Kind | None, typer.Option("--kind", "-k", help="Only this kind.")] = None,
    dirs: DirsOption = None,
    as_json: JsonOption = False,
    with_: WithCards = None,
) -> None:
    """List cards with their key facts (--json: a list of {kind, name, facts})."""
    rows = list_cards(kind=kind.value if kind else None, dirs=dirs, with_=with_ or ())
    if as_json:
        typer.echo(json.dumps([row._asdict() for row in rows], ensure_ascii=False))
        return
    table = Table("kind", "name", "facts", title=f"{len(rows)} cards")
    for row in rows:
        table.add_row(*row)
    Console().print(table)


@cards_app.command("show")
def show_cli(
    name: Annotated[str, typer.Argument(help="Card name (case-insensitive).")],
    dirs: DirsOption = None,
    as_json: JsonOption = False,
    with_: WithCards = None,
) -> None:
    """Show every fact of a card (--json: a list, one object per card of that name)."""
    try:
        cards = show_card(name=name, dirs=dirs, with_=with_ or ())
    except UnknownCardError as exc:
        from deathangel.tui.saves import command

        raise UnknownCardError(f"{exc}; '{command('cards', 'list')}' shows them all") from None
    if as_json:
        data = [
            {
                "kind": card.kind,
                "name": card.name,
                "facts": [{"field": label, "value": value} for label, value in card.lines],
            }
            for card in cards
        ]
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    console = Console()
    for card in cards:
        title = f"{card.kind} {card.name!r}"
        # A narrow card's table would wrap its own title ("marine 'Brother / Leon'").
        table = Table(title=title, show_header=False, min_width=len(title) + 2)
        table.add_column("field", style="bold")
        table.add_column("value")
        for label, value in card.lines:
            table.add_row(label, value)
        console.print(table)


@cards_app.command("validate")
def validate_cli(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="A plugin's card directories or files, checked on top of the base game; with "
            "--with NAME they stand in for NAME's installed cards, checked against its "
            "effects. Their own cards are counted.",
            exists=True,
        ),
    ] = None,
    dirs: DirsOption = None,
    with_: WithCards = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help='Print the counts as one JSON object (a problem as {"error": ...}).'
        ),
    ] = False,
) -> None:
    """Load and check every card file; print how many cards of each kind there are.

    Any problem is reported as one line naming file, card and field, with exit code 1.
    """
    try:
        counts = validate_cards(dirs=dirs, paths=paths or (), with_=with_ or ())
    except DeathAngelError as exc:
        if not as_json:
            raise
        typer.echo(json.dumps({"error": str(exc)}, ensure_ascii=False))
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(counts))
        return
    typer.echo("cards OK")
    width = max(len(k) for k in counts)
    for kind, count in counts.items():
        typer.echo(f"  {kind:<{width}}  {count}")


# Its own module (the report reads a tournament's database, not the cards); piped into `head`
# it ends as any Unix tool does (cli/output.py).
cards_app.command("report")(pipe_friendly(cards_report_cli))
