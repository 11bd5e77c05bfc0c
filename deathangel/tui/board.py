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
from rich.console import Group, RenderableType
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
    TOKEN,
    _plural,
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


def render_board(game: Game, seat: int | None) -> RenderableType:
    """The table as ``seat`` sees it (``None``: a spectator, public information only).

    Built only from ``game.observation(seat).to_dict()`` (or :func:`public_view`) plus the
    card database's public card facts: never from deck orders, blip contents or another
    seat's face-down card.
    """
    view = (
        game.observation(seat).to_dict()
        if seat is not None
        else public_view(game.state, game.table)
    )
    table = game.table
    title = Text.assemble(
        ("Round ", "bold"),
        (str(view["round"]), "bold"),
        " · ",
        (PHASE_NAMES.get(view["phase"], str(view["phase"])), "bold"),
        " · current player: seat ",
        str(view["current_seat"]),
        (" (you)" if seat is not None and view["current_seat"] == seat else ""),
    )
    title.append(
        f" · you: seat {seat} ({', '.join(view['teams'])})" if seat is not None else " · spectator"
    )
    parts: list[RenderableType] = [
        Rule(title, style="dim", characters="─"),
        _header(view, table, game.state.event),
        _formation(view, table),
    ]
    parts.extend(_footer(view, table, seat))
    return Group(*parts)


def _header(view: Mapping[str, Any], table: CardTable, event_id: int | None) -> RenderableType:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    name = view["location"] or "-"
    loc_index = table.location_by_name.get(name)
    location = table.locations[loc_index] if loc_index is not None else None
    line = Text(name, style="bold")
    if location is None:
        line.append(" (setup location)")
    else:
        line.append(f" (deck {location.deck})")
        if location.final:
            line.append(" FINAL", style="bold red")
    left = view["locations_left"]
    line.append(" · " + (_plural(left, "location") + " left" if left else "no location left"))
    if view["location_tokens"]:
        line.append(f" · {_tokens_text(view['location_tokens'])} on the location card")
    grid.add_row("Location", line)
    if location is not None and location.text:
        grid.add_row("", Text(location.text, style="dim"))
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
        "   Supply ",
        (f"{TOKEN}{view['supply']}", "bold"),
    )
    grid.add_row("Blip piles", counts)
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


def _formation(view: Mapping[str, Any], table: CardTable) -> RenderableType:
    grid = Table(
        box=None,
        padding=(0, 1),
        pad_edge=False,
        show_edge=False,
        header_style="dim",
        collapse_padding=True,
    )
    blips = view["blip_counts"]
    grid.add_column("#", justify="right", no_wrap=True)
    grid.add_column(f"swarm ({blips['left']} blips)", justify="right", overflow="fold")
    grid.add_column("terrain", justify="right")
    grid.add_column("  marine", no_wrap=True)
    grid.add_column("terrain")
    grid.add_column(f"swarm ({blips['right']} blips)", overflow="fold")
    protected = set(view["protected"])
    rows = view["formation"]
    width = max((len(str(row["marine"])) for row in rows), default=0)
    tokens = max((len(_tokens_text(int(row["tokens"]))) for row in rows), default=0)
    for row in rows:
        grid.add_row(
            str(row["position"]),
            _swarm_text(table, row["swarms"]["left"], protected),
            Text(" ") + _terrain_text(table, row["terrain"]["left"]),
            _marine_text(row, width, tokens),
            _terrain_text(table, row["terrain"]["right"]),
            _swarm_text(table, row["swarms"]["right"], protected, gap="right"),
        )
    if not view["formation"]:
        grid.add_row("", "", "", Text("no marine is left", style="bold red"), "", "")
    return grid


def _terrain_text(table: CardTable, cards: Sequence[Sequence[Any]]) -> Text:
    text = Text()
    for i, (name, tokens) in enumerate(cards):
        if i:
            text.append(", ")
        text.append(str(name), style=_terrain_style(table, str(name)))
        card = table.terrain.get(str(name))
        if card is not None and card.activatable:
            text.append(ACTIVATABLE, style="bold")
        if tokens:
            text.append(" " + _tokens_text(int(tokens)), style="bold")
    return text


def _marine_text(row: Mapping[str, Any], width: int, tokens: int) -> Text:
    """``"← Brother Leon     r3 ●●"`` or ``"  Brother Leon   → r3"``: the arrows of every row
    line up, the name in the team's colour; ``width`` and ``tokens`` are the widest name and
    token mark of the formation."""
    style = f"bold {_team_style(row['team'])}"
    facing = row["facing"]
    text = Text()
    text.append(ARROW["left"] if facing == "left" else " ", style=style)
    text.append(" " + str(row["marine"]).ljust(width) + " ", style=style)
    text.append(ARROW["right"] if facing == "right" else " ", style=style)
    text.append(f" r{row['range']}", style="dim")
    if tokens:
        text.append(" " + _tokens_text(int(row["tokens"])).ljust(tokens), style="bold")
    return text


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
        grid.add_row("In force", _flow(effects))
    upcoming = [_effect_word(e) for e in view["next_effects"]]
    if upcoming:
        grid.add_row("Next round", _flow(upcoming))
    if view["slain"]:
        grid.add_row("Slain", _flow(view["slain"]))
    if view["eliminated"]:
        grid.add_row("Eliminated", _flow(view["eliminated"]))
    holder = view["artefact_holder"]
    if holder is not None:
        you = " (you)" if seat is not None and holder == seat else ""
        grid.add_row("Artefact", f"held by seat {holder}{you}")
    lines: list[RenderableType] = [grid]
    outcome = view["outcome"]
    if outcome:
        style = "bold green" if outcome == "victory" else "bold red"
        lines.append(Text(f"{str(outcome).upper()}!", style=style, justify="center"))
    legend = (
        f"{TOKEN} token · {ACTIVATABLE} activatable · {SHIELD} protected · {LORD} Brood Lord · "
        "r range · " + " ".join(f"{code} {icon}" for icon, code in ICON_CODES.items())
    )
    lines.append(Text(legend, style="dim"))
    return lines


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
