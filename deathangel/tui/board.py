"""Rendering a game for people: the board, one-line explanations of options, card look-up.

Contract (the play loop relies on these signatures):

- ``render_board(game, seat) -> RenderableType``: the table as ``seat`` may see it
  (``seat=None``: a spectator, public information only).
- ``explain_option(game, decision, option) -> str``: one line saying what choosing it does.
- ``card_panel(db, name) -> RenderableType``: every fact of a card in our own words; raises
  ``KeyError`` naming close matches when no card has that name.
- ``cards_in_play(game) -> list[str]``: names of the cards a player may want to look up now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from deathangel.engine import lasting
from deathangel.engine.state import SIDES

if TYPE_CHECKING:
    from deathangel.engine.game import Game
    from deathangel.engine.state import CardTable

from deathangel.engine.observation import public_view
from deathangel.tui.cardview import card_panel, cards_in_play
from deathangel.tui.explain import explain_option, explain_option_strict
from deathangel.tui.style import (
    _EFFECT_NAMES,
    ACTIVATABLE,
    ARROW,
    ICON_CODES,
    LORD,
    NEXT,
    PHASE_NAMES,
    RESOLVED,
    SHIELD,
    TERRAIN_STYLES,
    TOKEN,
    _fit,
    _plural,
    _short_name,
    _swarm_text,
    _team_style,
    _terrain_style,
    _tokens_text,
)

__all__ = [
    "card_panel",
    "cards_in_play",
    "explain_option",
    "explain_option_strict",
    "public_view",
    "render_board",
]

# -- the public view -------------------------------------------------------------------------


# -- the board -------------------------------------------------------------------------------


def render_board(game: Game, seat: int | None, *, legend: bool = True) -> RenderableType:
    """The table as ``seat`` sees it (``None``: a spectator, public information only).

    Built only from ``game.observation(seat).to_dict()`` (or :func:`public_view`) plus the
    card database's public card facts: never from deck orders, blip contents or another
    seat's face-down card.

    The board is laid out when printed, for the console it is printed on: it fits the width
    (each formation row on one line: swarm icons and terrain names shorten before anything
    wraps, so 1–3 players fit 80×24), and on a console without colour (``NO_COLOR``, a
    monochrome terminal, a file) team and terrain colours are written as words.
    """
    view = (
        game.observation(seat).to_dict()
        if seat is not None
        else public_view(game.state, game.table)
    )
    return Board(view, game.table, seat, game.state.event, legend=legend)


class Board:
    """One seat's view of the table, rendered for the console that prints it."""

    def __init__(
        self,
        view: Mapping[str, Any],
        table: CardTable,
        seat: int | None,
        event_id: int | None,
        *,
        legend: bool = True,
    ) -> None:
        """``legend``: end with the line explaining the board's marks (a session shows it
        on the first board and with ``board``, not on every one: lines are scarce)."""
        self.legend = legend
        self.view = view
        self.table = table
        self.seat = seat
        self.event_id = event_id

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        words = colour_words(console)
        width = options.max_width
        view, table, seat = self.view, self.table, self.seat
        title = Text.assemble(
            ("Round ", "bold"),
            (str(view["round"]), "bold"),
            " · ",
            (PHASE_NAMES.get(view["phase"], str(view["phase"])), "bold"),
            " · current player: seat ",
            str(view["current_seat"]),
            (" (you)" if seat is not None and view["current_seat"] == seat else ""),
        )
        if seat is None:
            title.append(" · spectator")
        elif title.cell_len + len(f" · you: seat {seat} ({', '.join(view['teams'])})") + 4 <= width:
            title.append(f" · you: seat {seat} ({', '.join(view['teams'])})")
        else:
            title.append(f" · you: seat {seat}")  # the menu's title names the teams
        # A rule cuts a long title; a title that does not fit wraps whole instead.
        yield Rule(title, style="dim", characters="─") if title.cell_len + 4 <= width else title
        yield _header(view, table, self.event_id, width)
        yield _formation(view, table, console, options, words)
        if words:
            yield _terrain_colours(view, table, width)
        yield from _footer(view, table, seat)
        if self.legend:
            yield _items(LEGEND, width)


def colour_words(console: Console) -> bool:
    """Whether colours must be written as words: no colour on this console (``NO_COLOR``,
    a monochrome terminal, output to a file or a pipe)."""
    return console.no_color or console.color_system is None


_LABEL = 9
"""Width of the header's and footer's label column, with its gap."""


def _header(
    view: Mapping[str, Any], table: CardTable, event_id: int | None, width: int
) -> RenderableType:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    name = view["location"] or "-"
    loc_index = table.location_by_name.get(name)
    location = table.locations[loc_index] if loc_index is not None else None
    line = Text(name, style="bold")
    if location is None:
        line.append(" (setup)")
    else:
        line.append(f" (deck {location.deck})")
        if location.final:
            line.append(" FINAL", style="bold red")
    left = view["locations_left"]
    line.append(" · " + (_plural(left, "location") + " left" if left else "no location left"))
    if view["location_tokens"]:
        line.append(f" · {_tokens_text(view['location_tokens'])} on the location card")
    line.append(" · Supply ")
    line.append(f"{TOKEN}{view['supply']}", style="bold")
    grid.add_row("Location", line)
    if location is not None and location.text:
        # One line: the whole text is one "cards NAME" away.
        grid.add_row("", Text(_fit(location.text, width - _LABEL), style="dim"))
    blips = view["blip_counts"]
    counts = Text.assemble(
        "left ",
        (str(blips["left"]), "bold"),
        " · right ",
        (str(blips["right"]), "bold"),
        "   Genestealer deck ",
        (str(view["genestealer_deck_count"]), "bold"),
        f" (discard {len(view['genestealer_discard'])})",
        "   Event deck ",
        (str(view["event_deck_count"]), "bold"),
    )
    grid.add_row("Blips", counts)
    event_name = view.get("event")
    if event_name:
        grid.add_row("Event", _event_text(table, event_name, event_id))
    elif event_id is not None:
        grid.add_row("Event", Text("an Instinct card only the current player sees for now"))
    scouted = view.get("scouted_top_event")
    if scouted:
        grid.add_row("Scouted", Text(f"the top Event card is {scouted} (only you know)"))
    return grid


def _event_text(table: CardTable, name: str, event_id: int | None) -> Text:
    """The Event being resolved: the card itself when ``event_id`` is that card (the viewer
    sees it), else the first card of that name (two cards may share one)."""
    if event_id is not None and table.events[event_id].name == name:
        event = table.events[event_id]
    else:
        found = [e for e in table.db.events if e.name == name]
        if not found:
            return Text(name, style="bold")
        event = found[0]
    text = Text(name, style="bold")
    if event.instinct:
        text.append(" (Instinct)", style="italic")
    text.append(": " + " ".join(event.text.split()))
    boxes = [f"{s.size} {s.color}" for s in event.spawns]
    if boxes:
        text.append(" · spawn " + ", ".join(boxes), style="dim")
    if event.move is not None:
        text.append(f" · move {event.move.icon} ({event.move.kind})", style="dim")
    return text


_LEVELS: tuple[dict[str, int], ...] = (
    {"swarm": 0, "terrain": 0, "names": 0},
    {"swarm": 1, "terrain": 0, "names": 0},
    {"swarm": 1, "terrain": 1, "names": 0},
    {"swarm": 1, "terrain": 1, "names": 1},
    {"swarm": 1, "terrain": 2, "names": 1},
    {"swarm": 2, "terrain": 2, "names": 1},
)
"""How much the formation's cells shorten, tried in order until every row fits on one line:
swarm icons (``To2`` for ``To×2``), terrain names (``Ventilation D.``), marines' first
names (``L. Calistarius``), terrain names again (``Ventilation``), and last the swarm's
icons (its count stays). Every full name is one ``cards NAME`` away."""


def _formation(
    view: Mapping[str, Any],
    table: CardTable,
    console: Console,
    options: ConsoleOptions,
    words: bool,
) -> RenderableType:
    protected = set(view["protected"])
    rows = view["formation"]
    tokens = max((len(_tokens_text(int(row["tokens"]))) for row in rows), default=0)
    grid = Table()
    for level in _LEVELS:
        names = {
            str(row["marine"]): _initial(str(row["marine"])) if level["names"] else None
            for row in rows
        }
        name_width = max((len(n or m) for m, n in names.items()), default=0)
        grid = Table(
            box=None,
            padding=(0, 1),
            pad_edge=False,
            show_edge=False,
            header_style="dim",
            collapse_padding=True,
        )
        grid.add_column("#", justify="right", no_wrap=True)
        grid.add_column("swarm · terrain", justify="right")
        grid.add_column("  marine", no_wrap=True)
        grid.add_column("terrain · swarm")
        for row in rows:
            grid.add_row(
                Text(str(row["position"])),
                _side_text(table, row, "left", protected, **_sides(level)),
                _marine_text(row, name_width, tokens, words, names[str(row["marine"])]),
                _side_text(table, row, "right", protected, **_sides(level)),
            )
        if not rows:
            grid.add_row("", "", Text("no marine is left", style="bold red"), "")
        # Measured unbounded: a measure within the width is cut to it.
        natural = console.measure(grid, options=options.update(max_width=10_000)).maximum
        if natural <= options.max_width:
            break
    return grid


def _sides(level: Mapping[str, int]) -> dict[str, int]:
    return {"swarm": level["swarm"], "terrain": level["terrain"]}


def _initial(name: str) -> str:
    """``"Lexicanium Calistarius"`` -> ``"L. Calistarius"``: the last resort of a narrow
    board (names of one word stay whole)."""
    first, _, rest = name.partition(" ")
    return f"{first[0]}. {rest}" if rest else name


def _side_text(
    table: CardTable,
    row: Mapping[str, Any],
    side: str,
    protected: set[str],
    *,
    swarm: int,
    terrain: int,
) -> Text:
    """One side of a row, outward from the marine: terrain next to him, then the swarm;
    ``swarm`` and ``terrain`` say how short (see :data:`_LEVELS`)."""
    labels = row["swarms"][side]
    if swarm >= 2:
        cells = _swarm_text(table, labels, protected, compact=True)
        cells = Text(cells.plain.split(":")[0], style="bold") if labels else Text("")
        if labels and any(label in protected for label in labels):
            cells.append(f" {SHIELD}", style="bold cyan")
    else:
        cells = _swarm_text(table, labels, protected, compact=swarm >= 1)
    places = _terrain_text(table, row["terrain"][side], short=terrain)
    if side == "left":
        return cells + (Text(" ") if cells and places else Text("")) + places
    return places + (Text(" ") if cells and places else Text("")) + cells
    if side == "left":
        return swarm + (Text(" ") if swarm and terrain else Text("")) + terrain
    return terrain + (Text(" ") if swarm and terrain else Text("")) + swarm


def _terrain_text(table: CardTable, cards: Sequence[Sequence[Any]], *, short: int = 0) -> Text:
    text = Text()
    for i, (name, tokens) in enumerate(cards):
        if i:
            text.append(", ")
        card = table.terrain.get(str(name))
        shown = (str(name), _short_name(str(name)), str(name).split()[0])[min(short, 2)]
        text.append(shown, style=_terrain_style(table, str(name)))
        if card is not None and card.activatable:
            text.append(ACTIVATABLE, style="bold")
        if tokens:
            text.append(" " + _tokens_text(int(tokens)), style="bold")
    return text


def _terrain_colours(view: Mapping[str, Any], table: CardTable, width: int) -> Text:
    """Without colour, the spawn colour of each terrain card on the board, in words."""
    by_colour: dict[str, list[str]] = {}
    for row in view["formation"]:
        for side in SIDES:
            for name, _ in row["terrain"][side]:
                card = table.terrain.get(str(name))
                colour = card.color if card is not None else "?"
                names = by_colour.setdefault(colour, [])
                if str(name) not in names:
                    names.append(str(name))
    if not by_colour:
        return Text("")
    order = [c for c in TERRAIN_STYLES if c in by_colour] + sorted(
        c for c in by_colour if c not in TERRAIN_STYLES
    )
    items = [f"{c} {', '.join(by_colour[c])}" for c in order]
    return _items([f"Colours: {items[0]}", *items[1:]], width)


def _marine_text(
    row: Mapping[str, Any], width: int, tokens: int, words: bool, shown: str | None = None
) -> Text:
    """``"← Brother Leon     r3 ●●"`` or ``"  Brother Leon   → r3"``: the arrows of every row
    line up, the name in the team's colour (or, without colour, the team's name after the
    range); ``width`` and ``tokens`` are the widest name and token mark of the formation."""
    style = f"bold {_team_style(row['team'])}"
    facing = row["facing"]
    text = Text()
    text.append(ARROW["left"] if facing == "left" else " ", style=style)
    text.append(" " + (shown or str(row["marine"])).ljust(width) + " ", style=style)
    text.append(ARROW["right"] if facing == "right" else " ", style=style)
    text.append(f" r{row['range']}", style="dim")
    if tokens:
        text.append(" " + _tokens_text(int(row["tokens"])).ljust(tokens), style="bold")
    if words:
        text.append(f" {row['team']}", style="dim")
    return text


def _joined(items: Sequence[str]) -> Text:
    """Items one after another, `` · `` between them, wrapping like words."""
    return Text(" · ".join(items))


def _flow(items: Sequence[Text | str]) -> RenderableType:
    """Items side by side, wrapping between items, never inside one."""
    return Columns([Text(i) if isinstance(i, str) else i for i in items], padding=(0, 3))


def _footer(view: Mapping[str, Any], table: CardTable, seat: int | None) -> list[RenderableType]:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    phase = view["phase"]
    this_round = phase not in ("choose_actions", "round_start")
    revealed = view["revealed"]
    if revealed:
        last = view["last_resolved"]
        eliminated = set(view["eliminated"])
        marked_next = False
        items: list[Text | str] = []
        for team, card in revealed:
            done = this_round and last.get(team) == card
            if this_round and team in eliminated and not done:
                mark = "✗ "
            elif done:
                mark = RESOLVED + " "
            elif this_round and phase == "resolve_actions" and not marked_next:
                mark = NEXT + " "
                marked_next = True
            else:
                mark = ""
            item = Text(mark)
            item.append(card, style=f"bold {_team_style(team)}")
            info = table.actions.get(card)
            initiative = f" {info[1].initiative}" if info is not None else ""
            item.append(f" ({team}{initiative})", style="dim")
            items.append(item)
        grid.add_row("Actions" if this_round else "Last round", _flow(items))
    mine = view.get("my_choices") or {}
    if mine and phase == "choose_actions":
        grid.add_row("Your cards", _flow([f"{card} ({team})" for team, card in mine.items()]))
    effects = _effect_words(view, table, this_round=this_round)
    if effects:
        grid.add_row("In force", _joined(effects))
    upcoming = [_effect_word(e) for e in view["next_effects"]]
    if upcoming:
        grid.add_row("Next round", _joined(upcoming))
    if view["slain"]:
        lost = ", ".join(view["slain"])
        if view["eliminated"]:
            gone = ", ".join(view["eliminated"])
            lost += f" · eliminated: {gone} team" + ("s" if len(view["eliminated"]) > 1 else "")
        grid.add_row("Slain", Text(lost))
    holder = view["artefact_holder"]
    if holder is not None:
        you = " (you)" if seat is not None and holder == seat else ""
        grid.add_row("Artefact", f"held by seat {holder}{you}")
    lines: list[RenderableType] = [grid]
    outcome = view["outcome"]
    if outcome:
        style = "bold green" if outcome == "victory" else "bold red"
        lines.append(Text(f"{str(outcome).upper()}!", style=style, justify="center"))
    return lines


LEGEND = (
    f"{TOKEN} token",
    f"{ACTIVATABLE} activatable",
    f"{SHIELD} protected",
    f"{LORD} Brood Lord",
    "rN range N",
    " ".join(f"{code} {icon}" for icon, code in ICON_CODES.items()),
)
"""What the board's marks mean."""


def _items(items: Sequence[str], width: int, sep: str = " · ") -> Text:
    """Items on as few lines as ``width`` allows, breaking only between items."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + len(sep) + len(item) <= width:
            lines[-1] += sep + item
        else:
            lines.append(item)
    return Text("\n".join(lines), style="dim")


def _effect_word(code: Sequence[Any]) -> str:
    """A lasting effect of an observation (its JSON form) in words."""
    if not code:
        return "?"
    name = str(code[0])
    label = _EFFECT_NAMES.get(name, name.replace("_", " ").capitalize())
    try:
        effect = lasting.from_code(code)
    except ValueError:  # a view from elsewhere: show what it says
        args = [str(a) for a in code[1:]]
        return label + (f" ({', '.join(args)})" if args else "")
    match effect:
        case lasting.GunJam(team=team):
            return f"{label}: {team} may not choose its Attack card"
        case lasting.SecondWind(marine=marine):
            return f"{label}: a 0 on {marine}'s defence misses"
        case lasting.Evasion():
            return f"{label}: an Attack card lets only 1 marine of its team attack"
        case lasting.EnterFormation():
            return f"{label}: a token before each Move + Activate card"
        case lasting.LeadUsed(team=team):
            return f"{label} ({team})"
        case lasting.SpawnLimit(terrain=terrain, left=left):
            return f"{label}: at most {left} more spawn at the {terrain}"


def _effect_words(view: Mapping[str, Any], table: CardTable, *, this_round: bool) -> list[str]:
    words = [_effect_word(e) for e in view["effects"]]
    protected = set(view["protected"])
    for row in view["formation"]:
        for side in SIDES:
            swarm = row["swarms"][side]
            if swarm and any(label in protected for label in swarm):
                words.append(f"Power Field: the {side} swarm at position {row['position']}")
    if this_round:
        lasting = {"defence_face_misses", "defensive_reroll", "overwatch"}
        last = view["last_resolved"]
        for team, card in view["revealed"]:
            info = table.actions.get(card)
            effect = info[1].effect if info is not None else None
            if effect is not None and effect.name in lasting and last.get(team) == card:
                words.append(f"{card} ({team})")
    return words
