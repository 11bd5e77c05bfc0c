"""What each card did in a tournament's games, read from their facts
(:mod:`deathangel.tournament.facts`): for every team, action card, Event, location and
terrain card, how often it appeared or was chosen and the win rate when it did and when it did
not, with 95% intervals; deaths by location and cause; and how many marines were still
standing, round by round and location by location.

Each kind of card is split on what a designer can see it do:

========  ==========================================  ==========================================
kind      split on ("appears")                        counted ("uses")
========  ==========================================  ==========================================
team      in play (dealt, or fixed by the cell)       rounds it revealed an action card
action    played: revealed at least once              rounds it was revealed; its share of its
                                                      team's picks
event     drawn at least once (the setup Event too)   times drawn
location  dealt into the location deck at setup       games that reached it; its share of the
                                                      games it was dealt in
terrain   activated at least once                     activations; its share of the games it
                                                      was in play
========  ==========================================  ==========================================

The difference of the two win rates is taken within each player count and combined with
Mantel and Haenszel's weights (:func:`~deathangel.tournament.stats.stratified_difference`):
player counts differ in win rate and in how many teams they deal, and pooled they would make
every team look good that is dealt more often where the game is easier. With one player count
it is the plain difference with Newcombe's interval for independent groups
(:func:`~deathangel.tournament.stats.independent_difference`). A card whose interval lies
wholly above 0 is marked ``higher``, wholly below ``lower``. These are associations, not
causes: a card played in desperate spots looks bad, one drawn only in long games looks good,
and with many cards about one in twenty crosses its interval by chance. Teams and the location
deck are dealt at random from the seed, so their splits come closest to an experiment;
choices (actions, activations) are the bots' and carry their judgement with them.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from attrs import field, frozen

from deathangel.errors import DeathAngelError
from deathangel.tournament.facts import GameFacts
from deathangel.tournament.results import Results
from deathangel.tournament.stats import (
    PairedDifference,
    independent_difference,
    stratified_difference,
    wilson_interval,
)
from deathangel.tournament.tournament import TournamentConfig

KINDS = ("team", "action", "event", "location", "terrain")
"""The kinds of card reported, in the order the tables come."""

WORDS: dict[str, tuple[str, str, str]] = {
    "team": ("in play", "rounds", ""),
    "action": ("played", "chosen", "of team's picks"),
    "event": ("drawn", "draws", ""),
    "location": ("dealt", "reached", "of deals reached"),
    "terrain": ("activated", "activations", "of games in play"),
}
"""For each kind: what "appears" means, what "uses" counts, what the share is of."""

SURVIVAL_ROUNDS = 16
"""Rounds the survival table shows in text (a game seldom lasts longer; JSON and CSV have
every round)."""

CAUTION = (
    "These are associations, not causes: a card played in desperate spots looks bad, one "
    "drawn only in long games looks good, and with many cards about one in twenty crosses "
    "its interval by chance. Teams and the location deck are dealt at random; choices carry "
    "the bots' judgement."
)


class CardReportError(DeathAngelError, ValueError):
    """A database that cannot give a card report (no facts, an unknown entry...)."""


@frozen
class CardLine:
    """One card: the games it appeared in against the games it did not."""

    kind: str
    name: str
    team: str
    """The action card's team ("" for other kinds)."""
    games: int
    """Games read."""
    appears: int
    """Games in which it appeared or was chosen (see the module docstring for each kind)."""
    uses: int
    wins_with: int
    wins_without: int
    share: float | None = None
    """Actions: its share of its team's picks; locations: of the games it was dealt in, the
    share that reached it; terrain: of the games it was in play, the share it was activated."""
    strata: tuple[tuple[int, int, int, int], ...] = ()
    """Per player count read: (wins with, games with, wins without, games without)."""

    @property
    def without(self) -> int:
        return self.games - self.appears

    @property
    def rate_with(self) -> float | None:
        return self.wins_with / self.appears if self.appears else None

    @property
    def rate_without(self) -> float | None:
        return self.wins_without / self.without if self.without else None

    @property
    def interval_with(self) -> tuple[float, float] | None:
        return wilson_interval(self.wins_with, self.appears) if self.appears else None

    @property
    def interval_without(self) -> tuple[float, float] | None:
        return wilson_interval(self.wins_without, self.without) if self.without else None

    @property
    def difference(self) -> PairedDifference | None:
        """Win rate with minus without, within player counts, with its interval (``None``
        when no player count has games in both groups: a card in every game, or in none, has
        nothing to be compared with)."""
        if len(self.strata) <= 1:
            if not self.appears or not self.without:
                return None
            return independent_difference(
                self.wins_with, self.appears, self.wins_without, self.without
            )
        usable = [s for s in self.strata if s[1] and s[3]]
        return stratified_difference(usable) if usable else None

    @property
    def flag(self) -> str | None:
        """``higher`` or ``lower`` when the difference's interval excludes 0."""
        d = self.difference
        if d is None:
            return None
        return "higher" if d.low > 0 else "lower" if d.high < 0 else None

    def to_dict(self) -> dict[str, Any]:
        d = self.difference
        with_ = self.interval_with
        without = self.interval_without
        return {
            "kind": self.kind,
            "name": self.name,
            "team": self.team,
            "games": self.games,
            "appears": self.appears,
            "uses": self.uses,
            "share": self.share,
            "wins_with": self.wins_with,
            "wins_without": self.wins_without,
            "win_rate_with": self.rate_with,
            "win_rate_with_low": None if with_ is None else with_[0],
            "win_rate_with_high": None if with_ is None else with_[1],
            "win_rate_without": self.rate_without,
            "win_rate_without_low": None if without is None else without[0],
            "win_rate_without_high": None if without is None else without[1],
            "difference": None if d is None else d.difference,
            "difference_low": None if d is None else d.low,
            "difference_high": None if d is None else d.high,
            "flag": self.flag,
        }


@frozen
class PlaceLine:
    """One location: how the games that reached it went there."""

    name: str
    reached: int
    """Games that reached it."""
    won: int
    """Of those, games won."""
    rounds: int
    """Rounds spent there, summed over the games (a round is counted where it ended)."""
    deaths: int
    """Marines slain there, summed over the games."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "location": self.name,
            "reached": self.reached,
            "won": self.won,
            "rounds": self.rounds,
            "rounds_per_visit": self.rounds / self.reached if self.reached else None,
            "deaths": self.deaths,
            "deaths_per_visit": self.deaths / self.reached if self.reached else None,
        }


@frozen
class CardReport:
    """Everything ``deathangel cards report`` prints or draws."""

    config: TournamentConfig
    entry: str
    players: tuple[int, ...]
    """The player counts read."""
    games: int
    wins: int
    lines: tuple[CardLine, ...]
    places: tuple[PlaceLine, ...]
    deaths: dict[str, dict[str, int]]
    """Marines slain, by location, then by cause."""
    survival: dict[int, tuple[float, ...]]
    """Per player count: the mean share of marines standing at the start of round 1, 2, …
    (a game that ended keeps the share it ended with, 0 after a defeat)."""
    arrival: dict[int, tuple[tuple[float, int], ...]]
    """Per player count, for the setup location (0) and each location reached after it:
    the mean share of marines standing on arrival among the games that got there, and how
    many did."""
    unlisted: str | None = field(default=None)
    """Why cards never seen are not listed (their expansion is not installed), if so."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "config": self.config.to_dict(),
            "entry": self.entry,
            "players": list(self.players),
            "games": self.games,
            "wins": self.wins,
            "note": CAUTION,
            "cards": [line.to_dict() for line in self.lines],
            "locations": [p.to_dict() for p in self.places],
            "deaths": self.deaths,
            "survival_by_round": {str(p): list(v) for p, v in self.survival.items()},
            "survival_by_location": {
                str(p): [{"share": s, "games": n} for s, n in v] for p, v in self.arrival.items()
            },
        }


# -- reading -------------------------------------------------------------------------------------


def choose_entry(config: TournamentConfig, entry: str | None, path: Path) -> str:
    """The entry to read: the one named, or the only one."""
    names = [e.name for e in config.entries]
    if entry is None:
        if len(names) == 1:
            return names[0]
        raise CardReportError(
            f"{path} holds the entries {', '.join(repr(n) for n in names)}: choose one with "
            "--entry (each plays differently, so their cards are read apart)"
        )
    if entry not in names:
        raise CardReportError(
            f"{path} has no entry {entry!r}; its entries are {', '.join(repr(n) for n in names)}"
        )
    return entry


def read_card_report(
    results: Results, *, entry: str | None = None, players: Sequence[int] | None = None
) -> CardReport:
    """The card report of an open results database, for one entry and the player counts
    named (all by default).

    :raises CardReportError: for a database without facts, an unknown entry or player count,
        or no game to read.
    """
    config = results.config
    path = results.path
    if not config.facts:
        raise CardReportError(
            f"{path} holds no facts of its games (played with --no-facts, or before "
            "deathangel stored them): play the tournament again with facts"
        )
    name = choose_entry(config, entry, path)
    counts = sorted({c.players for c in config.cells})
    chosen = counts if not players else sorted(set(players))
    unknown = [p for p in chosen if p not in counts]
    if unknown:
        raise CardReportError(
            f"{path} has no {unknown[0]}-player games; it has {', '.join(f'{p}p' for p in counts)}"
        )
    marks = ", ".join("?" * len(chosen))
    rows = results.rows(
        "SELECT g.players, g.teams, g.outcome, g.rounds, f.data FROM games g "
        f"JOIN facts f ON f.game_id = g.id WHERE g.entry = ? AND g.players IN ({marks}) "
        # In the games' own order, not the order batches were stored in: the same games give
        # the same report (ties in the tables, and the last bits of a float sum).
        "ORDER BY g.players, g.cell_teams, g.game",
        (name, *chosen),
    )
    tally = _Tally()
    for players_, teams, outcome, rounds, data in rows:
        try:
            facts = GameFacts.from_json(data)
        except ValueError as exc:
            raise CardReportError(f"{path}: {exc}") from None
        tally.add(players_, teams, outcome == "victory", rounds, facts)
    if not tally.games:
        raise CardReportError(
            f"{path} holds no game of entry {name!r} at {', '.join(f'{p}p' for p in chosen)} yet"
        )
    catalogue, unlisted = _catalogue(config, chosen)
    return tally.report(config, name, tuple(chosen), catalogue, unlisted)


def _catalogue(
    config: TournamentConfig, players: Sequence[int]
) -> tuple[dict[str, list[tuple[str, str]]], str | None]:
    """Every card of the games' ruleset by kind, as (name, team), so cards never seen are
    listed too (locations: those of the decks these player counts deal from); empty, with
    the reason, when the ruleset cannot be loaded here."""
    try:
        rules = config.ruleset()
    except DeathAngelError as exc:
        return {}, f"cards never seen are not listed: {exc}"
    db = rules.db
    decks = {deck for p in players for deck in db.setup_location_for(p).location_deck}
    return {
        "team": [(t.color, "") for t in db.teams],
        "action": [(a.name, t.color) for t in db.teams for a in t.actions],
        "event": sorted({(e.name, "") for e in db.events}),
        "location": [(loc.name, "") for loc in db.locations if loc.deck in decks],
        "terrain": [(t.name, "") for t in db.terrain if t.activatable],
    }, None


class _Tally:
    """Counts gathered game by game."""

    def __init__(self) -> None:
        self.games = self.wins = 0
        self.appears: dict[tuple[str, str, str], list[int]] = {}
        """(kind, name, team) -> [games it appears in, uses, wins among them]."""
        self.by_count: dict[tuple[str, str, str], Counter[tuple[int, bool]]] = {}
        """(kind, name, team) -> games it appears in, by (player count, won)."""
        self.cells: Counter[tuple[int, bool]] = Counter()
        """Games by (player count, won)."""
        self._players = 0
        self.picks: Counter[str] = Counter()
        self.placed: Counter[str] = Counter()
        self.places: dict[str, list[int]] = {}
        """location -> [reached, won, rounds, deaths]."""
        self.deaths: dict[str, Counter[str]] = {}
        self.survival: dict[int, _Survival] = {}
        self.arrival: dict[int, list[list[float]]] = {}

    def _seen(self, kind: str, name: str, uses: int, won: bool, team: str = "") -> None:
        line = self.appears.setdefault((kind, name, team), [0, 0, 0])
        line[0] += 1
        line[1] += uses
        line[2] += won
        self.by_count.setdefault((kind, name, team), Counter())[self._players, won] += 1

    def add(self, players: int, teams: str, won: bool, rounds: int, facts: GameFacts) -> None:
        self.games += 1
        self.wins += won
        self.cells[players, won] += 1
        self._players = players
        in_play = [colour for seat in teams.split("/") for colour in seat.split("+")]
        for team in in_play:
            self._seen("team", team, sum(facts.cards.get(team, {}).values()), won)
        for team, cards in facts.cards.items():
            for card, n in cards.items():
                self._seen("action", card, n, won, team)
                self.picks[team] += n
        for event, n in facts.events.items():
            self._seen("event", event, n, won)
        reached = {name for name, _ in facts.reached}
        for location in set(facts.deck):
            self._seen("location", location, int(location in reached), won)
        for terrain, n in facts.terrain.items():
            self._seen("terrain", terrain, n, won)
        self.placed.update(facts.placed.keys())
        fell = Counter(d.place for d in facts.deaths)
        for k, (name, arrived) in enumerate(facts.reached):
            left = facts.reached[k + 1][1] if k + 1 < len(facts.reached) else rounds
            place = self.places.setdefault(name, [0, 0, 0, 0])
            place[0] += 1
            place[1] += won
            place[2] += left - arrived
            place[3] += fell[k]
        for death in facts.deaths:
            self.deaths.setdefault(death.location, Counter())[death.cause] += 1
        self._stand(players, rounds, facts)

    def _strata(self, seen: Counter[tuple[int, bool]]) -> tuple[tuple[int, int, int, int], ...]:
        """(wins with, games with, wins without, games without) per player count."""
        out = []
        for players in sorted({p for p, _ in self.cells}):
            wins = self.cells[players, True]
            games = wins + self.cells[players, False]
            with_wins = seen[players, True]
            with_games = with_wins + seen[players, False]
            out.append((with_wins, with_games, wins - with_wins, games - with_games))
        return tuple(out)

    def _stand(self, players: int, rounds: int, facts: GameFacts) -> None:
        if not facts.marines:
            return
        shares = [facts.standing(r) / facts.marines for r in range(1, rounds + 2)]
        self.survival.setdefault(players, _Survival()).add(shares)
        by_place = self.arrival.setdefault(players, [])
        for k in range(len(facts.reached)):
            if len(by_place) <= k:
                by_place.append([0.0, 0])
            by_place[k][0] += facts.standing_on_arrival(k) / facts.marines
            by_place[k][1] += 1

    def report(
        self,
        config: TournamentConfig,
        entry: str,
        players: tuple[int, ...],
        catalogue: dict[str, list[tuple[str, str]]],
        unlisted: str | None,
    ) -> CardReport:
        keys = list(self.appears)
        for kind in KINDS:
            for name, team in catalogue.get(kind, []):
                if (kind, name, team) not in self.appears:
                    keys.append((kind, name, team))
        lines = []
        for kind, name, team in keys:
            appears, uses, wins = self.appears.get((kind, name, team), [0, 0, 0])
            share = None
            if kind == "action" and self.picks[team]:
                share = uses / self.picks[team]
            elif kind == "location" and appears:
                share = uses / appears
            elif kind == "terrain" and self.placed[name]:
                share = appears / self.placed[name]
            lines.append(
                CardLine(
                    kind,
                    name,
                    team,
                    self.games,
                    appears,
                    uses,
                    wins,
                    self.wins - wins,
                    share,
                    self._strata(self.by_count.get((kind, name, team), Counter())),
                )
            )
        lines.sort(key=lambda c: (KINDS.index(c.kind), c.team, _order(c), c.name))
        places = [
            PlaceLine(name, *numbers)
            for name, numbers in sorted(self.places.items(), key=lambda kv: (-kv[1][0], kv[0]))
        ]
        return CardReport(
            config,
            entry,
            players,
            self.games,
            self.wins,
            tuple(lines),
            tuple(places),
            {where: dict(causes.most_common()) for where, causes in self.deaths.items()},
            {p: s.means() for p, s in sorted(self.survival.items())},
            {
                p: tuple((total / n, int(n)) for total, n in v)
                for p, v in sorted(self.arrival.items())
            },
            unlisted,
        )


class _Survival:
    """Mean shares of marines standing by round, every game counted in every round up to
    the longest game read (a game that ended keeps its last share), summed as the games
    come without keeping them."""

    def __init__(self) -> None:
        self.partial: list[float] = []
        """Round r-1: the shares at round r of the games that began it."""
        self.ended: dict[int, float] = {}
        """Round r-1: the final shares of the games that ended before round r began."""
        self.games = 0

    def add(self, shares: list[float]) -> None:
        """One game: its share at the start of rounds 1..R, then its final share."""
        *during, final = shares
        self.games += 1
        for r, share in enumerate(during):
            if r == len(self.partial):
                self.partial.append(0.0)
            self.partial[r] += share
        self.ended[len(during)] = self.ended.get(len(during), 0.0) + final

    def means(self) -> tuple[float, ...]:
        out = []
        carried = 0.0
        for r, total in enumerate(self.partial):
            carried += self.ended.get(r, 0.0)
            out.append((total + carried) / self.games)
        return tuple(out)


def _order(line: CardLine) -> float:
    """Cards with the largest difference first; those with none last."""
    d = line.difference
    return -d.difference if d is not None else 2.0


# -- words ---------------------------------------------------------------------------------------


def percent(x: float | None) -> str:
    return "–" if x is None else f"{x:.1%}"


def interval_text(bounds: tuple[float, float] | None, signed: bool = False) -> str:
    if bounds is None:
        return "–"
    form = "{:+.1%}" if signed else "{:.1%}"
    return f"{form.format(bounds[0])} – {form.format(bounds[1])}"


def headline(report: CardReport) -> str:
    counts = ", ".join(f"{p}p" for p in report.players)
    rate = report.wins / report.games
    how = (
        "the difference is taken within each player count and combined (Mantel-Haenszel "
        "weights, 95% Wald interval), so the counts' own win rates stay out of it; the win "
        "rates beside it are over all the games"
        if len(report.players) > 1
        else "the difference with Newcombe's 95% interval"
    )
    return (
        f"{report.games} games of entry {report.entry!r} at {counts}: {report.wins} won "
        f"({rate:.1%}). Win rates with 95% Wilson intervals; {how}."
    )


def card_headers(kind: str) -> tuple[str, ...]:
    appears, uses, share = WORDS[kind]
    first = ("card", "team") if kind == "action" else (kind,)
    return (
        *first,
        appears,
        uses,
        *((share,) if share else ()),
        f"win rate {appears}",
        "95% interval",
        f"not {appears}",
        "95% interval",
        "difference",
        "95% interval",
        "",
    )


def card_cells(line: CardLine) -> list[str]:
    d = line.difference
    first = [line.name, line.team] if line.kind == "action" else [line.name]
    share = [percent(line.share)] if WORDS[line.kind][2] else []
    return [
        *first,
        f"{line.appears} ({line.appears / line.games:.0%})",
        str(line.uses),
        *share,
        percent(line.rate_with),
        interval_text(line.interval_with),
        percent(line.rate_without),
        interval_text(line.interval_without),
        "–" if d is None else f"{d.difference:+.1%}",
        interval_text(None if d is None else (d.low, d.high), signed=True),
        line.flag or "",
    ]


PLACE_HEADERS = ("location", "reached", "won after", "rounds there", "deaths", "deaths per visit")


def place_cells(place: PlaceLine) -> list[str]:
    return [
        place.name,
        str(place.reached),
        percent(place.won / place.reached if place.reached else None),
        f"{place.rounds / place.reached:.2f}" if place.reached else "–",
        str(place.deaths),
        f"{place.deaths / place.reached:.2f}" if place.reached else "–",
    ]


DEATH_HEADERS = ("location", "cause", "deaths", "share of deaths")


def death_rows(report: CardReport, limit: int | None = None) -> list[list[str]]:
    total = sum(n for causes in report.deaths.values() for n in causes.values())
    rows = sorted(
        (
            (where, cause, n)
            for where, causes in report.deaths.items()
            for cause, n in causes.items()
        ),
        key=lambda r: (-r[2], r[0], r[1]),
    )
    if limit is not None:
        rows = rows[:limit]
    return [[w, c, str(n), percent(n / total if total else None)] for w, c, n in rows]


def survival_headers(report: CardReport) -> tuple[str, ...]:
    longest = max((len(v) for v in report.survival.values()), default=0)
    return ("players", *(f"r{r}" for r in range(1, longest + 1)))


def survival_rows(report: CardReport) -> list[list[str]]:
    longest = len(survival_headers(report)) - 1
    return [
        [f"{p}p", *(f"{s:.0%}" for s in shares), *("" for _ in range(longest - len(shares)))]
        for p, shares in report.survival.items()
    ]


def markdown(report: CardReport, kinds: Sequence[str] = KINDS) -> str:
    """The report as Markdown tables (for docs/)."""
    out = [headline(report), "", CAUTION, ""]
    for kind in kinds:
        lines = [line for line in report.lines if line.kind == kind]
        if not lines:
            continue
        out += [f"{_title(kind)}:", ""]
        out += _md_table(card_headers(kind), [card_cells(line) for line in lines])
        out.append("")
    if report.places and "location" in kinds:
        out += ["Locations reached:", ""]
        out += _md_table(PLACE_HEADERS, [place_cells(p) for p in report.places])
        out.append("")
    if report.deaths:
        out += ["Deaths by location and cause (the ten most common):", ""]
        out += _md_table(DEATH_HEADERS, death_rows(report, 10))
        out.append("")
    out += [
        "Marines standing at the start of each round (share of the game's marines; to round "
        f"{SURVIVAL_ROUNDS}, --csv has them all):",
        "",
    ]
    out += _md_table(
        survival_headers(report)[: SURVIVAL_ROUNDS + 1],
        [row[: SURVIVAL_ROUNDS + 1] for row in survival_rows(report)],
    )
    if report.unlisted:
        out += ["", report.unlisted]
    return "\n".join(out) + "\n"


def _title(kind: str) -> str:
    return {
        "team": "Teams",
        "action": "Action cards",
        "event": "Events",
        "location": "Locations (dealt into the location deck)",
        "terrain": "Terrain (activatable)",
    }[kind]


def _md_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    text = {"card", "team", "event", "location", "terrain", "cause", "players", ""}
    lines = ["| " + " | ".join(headers) + " |"]
    lines.append(
        "| " + " | ".join("---" if h in text or "interval" in h else "---:" for h in headers) + " |"
    )
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


def to_json(report: CardReport) -> str:
    return json.dumps(report.to_dict(), indent=1, sort_keys=True)


def write_csv(report: CardReport, folder: Path) -> list[Path]:
    """``cards.csv``, ``locations.csv``, ``deaths.csv`` and ``survival.csv`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    tables: list[tuple[str, list[dict[str, Any]]]] = [
        ("cards.csv", [line.to_dict() for line in report.lines]),
        ("locations.csv", [p.to_dict() for p in report.places]),
        (
            "deaths.csv",
            [
                {"location": where, "cause": cause, "deaths": n}
                for where, causes in report.deaths.items()
                for cause, n in causes.items()
            ],
        ),
        (
            "survival.csv",
            [
                {"players": p, "round": r, "share_standing": s}
                for p, shares in report.survival.items()
                for r, s in enumerate(shares, start=1)
            ],
        ),
    ]
    written = []
    for name, rows in tables:
        path = folder / name
        with path.open("w", newline="", encoding="utf-8") as f:
            if rows:
                writer = csv.DictWriter(f, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
        written.append(path)
    return written
