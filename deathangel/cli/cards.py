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
from deathangel.errors import CardDataError, DeathAngelError, UnknownCardError

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


def _load(dirs: Sequence[Path] | None) -> CardDatabase:
    from deathangel.cards.load import load_database
    from deathangel.plugins.manager import plugin_manager
    from deathangel.plugins.ruleset import plugin_card_dirs, plugin_catalogue

    for folder in dirs or ():
        # An empty folder is a mistyped path far more often than an empty expansion.
        if folder.is_dir() and not any(folder.glob("*.toml")):
            raise CardDataError(f"{folder}: no card files found (no *.toml file in it)")
    pm = plugin_manager()
    return load_database(list(dirs or ()) or plugin_card_dirs(pm), catalogue=plugin_catalogue(pm))


def list_cards(*, kind: str | None = None, dirs: Sequence[Path] | None = None) -> list[CardRow]:
    """Load the cards (base game and plugins, or only ``dirs``) and list them."""
    return card_rows(_load(dirs), kind=kind)


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


JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


@cards_app.command("list")
def list_cli(
    kind: Annotated[Kind | None, typer.Option("--kind", "-k", help="Only this kind.")] = None,
    dirs: DirsOption = None,
    as_json: JsonOption = False,
) -> None:
    """List cards with their key facts (--json: a list of {kind, name, facts})."""
    rows = list_cards(kind=kind.value if kind else None, dirs=dirs)
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
) -> None:
    """Show every fact of a card (--json: a list, one object per card of that name)."""
    try:
        cards = show_card(name=name, dirs=dirs)
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
        counts = validate_cards(dirs=dirs)
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
