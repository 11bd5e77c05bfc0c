"""Card look-up for players: every fact of a card in our own words, and the cards worth
looking up at the moment."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from deathangel.cards.facts import CardFacts, find_facts

if TYPE_CHECKING:
    from deathangel.cards.model import CardDatabase
    from deathangel.engine.game import Game

from deathangel.engine.observation import public_view
from deathangel.tui.style import TEAM_STYLES, TERRAIN_STYLES, _icon_code

# -- card look-up ----------------------------------------------------------------------------

_KIND_TITLES: dict[str, str] = {
    "team": "combat team",
    "marine": "Space Marine",
    "action": "action card",
    "genestealer": "genestealer icon",
    "brood_lord": "Brood Lord",
    "terrain": "terrain",
    "setup_location": "setup location",
    "location": "location",
    "event": "event",
}


def card_panel(db: CardDatabase, name: str) -> RenderableType:
    """Every fact of the card(s) called ``name`` (case-insensitive), in our own words.

    :raises KeyError: naming close matches when no card has that name.
    """
    panels = [_facts_panel(db, facts) for facts in find_facts(db, name)]
    return panels[0] if len(panels) == 1 else Group(*panels)


def _value_style(label: str, value: str) -> str:
    if label in ("team", "colour") and value in TEAM_STYLES:
        return TEAM_STYLES[value]
    return ""


def _facts_panel(db: CardDatabase, facts: CardFacts) -> RenderableType:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    border = "white"
    if facts.kind == "terrain":
        colour = next((t.color for t in db.terrain if t.name == facts.name), "")
        border = TERRAIN_STYLES.get(colour, border)
    for label, value in facts.lines:
        style = _value_style(label, value)
        if facts.kind == "terrain" and label == "colour":
            style = TERRAIN_STYLES.get(value, "")
        if label == "effect":
            style = "dim"
        if facts.kind in ("marine", "action") and label == "team":
            border = TEAM_STYLES.get(value, border)
        if facts.kind == "team" and label == "colour":
            border = TEAM_STYLES.get(value, border)
        grid.add_row(label, Text(value, style=style))
    if facts.kind == "genestealer":
        grid.add_row("on the board", _icon_code(facts.name))
    title = Text(facts.name, style="bold")
    return Panel(
        grid,
        title=title,
        subtitle=_KIND_TITLES.get(facts.kind, facts.kind),
        border_style=border,
        expand=False,
    )


def cards_in_play(game: Game, seat: int | None = None) -> list[str]:
    """Names of the cards worth looking up now, each once: the location, the Event card being
    resolved (when ``seat`` — or, with no seat, everyone — may see it), the marines top to
    bottom, the terrain in the formation (and a held Artefact), Brood Lords in swarms, and the
    action cards of every active team."""
    st = game.state
    table = game.table
    view = (
        game.observation(seat).to_dict()
        if seat is not None
        else public_view(game.state, game.table)
    )
    names: list[str] = []
    if view["location"]:
        names.append(str(view["location"]))
    if view["event"]:
        names.append(str(view["event"]))
    names += [p.marine.name for p in st.formation]
    for pos in st.formation:
        for side in pos.terrain:
            names += [t.name for t in side]
    if st.artefact is not None:
        names += [t.name for t in table.db.terrain if t.effect and t.effect.name == "take_artefact"]
    for pos in st.formation:
        for swarm in pos.swarms:
            names += [table.gs_labels[c] for c in swarm if table.is_brood_lord(c)]
    for teams in st.seats:
        for team in teams:
            if team not in st.eliminated:
                names += [a.name for a in table.db.team(team).actions]
    return list(dict.fromkeys(names))
