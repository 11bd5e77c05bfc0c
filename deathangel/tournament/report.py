"""What a tournament found, read from its results database: win rates with Wilson intervals
per cell and entry, paired comparisons of every two entries, the SPRT's verdict, and the
tables behind the plots — as text, Markdown, JSON or CSV.

Every number is recomputed from the stored games, so a report of a database is the same
whoever made it, and a report taken while the tournament still runs shows the games so far.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from attrs import frozen

from deathangel.tournament.results import (
    GAME_COLUMNS,
    Results,
    ResultsError,
    SprtTracker,
    run_alive,
)
from deathangel.tournament.stats import (
    PairedDifference,
    PairTable,
    SprtDesign,
    SprtResult,
    mcnemar_exact,
    paired_difference,
    wilson_interval,
)
from deathangel.tournament.tournament import Cell, TournamentConfig


@frozen
class EntryLine:
    """One entry in one cell."""

    cell: Cell
    entry: str
    games: int
    wins: int
    failures: int
    mean_locations: float
    mean_rounds: float
    decision_time: tuple[float, float] | None = None
    """Seconds per decision, median and 90th percentile (nearest rank) over the games, each
    game's wall time over its decisions: what the strategy costs to play, engine included
    (``None`` if no game has a decision)."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games) if self.games else (0.0, 1.0)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        t = self.decision_time
        return {
            "players": self.cell.players,
            "teams": self.cell.teams,
            "entry": self.entry,
            "games": self.games,
            "wins": self.wins,
            "failures": self.failures,
            "win_rate": self.win_rate,
            "win_rate_low": lo,
            "win_rate_high": hi,
            "mean_locations": self.mean_locations,
            "mean_rounds": self.mean_rounds,
            "decision_seconds_median": None if t is None else t[0],
            "decision_seconds_p90": None if t is None else t[1],
        }


@frozen
class PairLine:
    """Entries ``a`` and ``b`` over the games of one cell both have."""

    cell: Cell
    a: str
    b: str
    table: PairTable
    difference: PairedDifference | None
    """``b``'s win rate minus ``a``'s, with its interval (``None`` with no pair)."""
    p_value: float
    """McNemar's exact two-sided p-value."""
    a_database: str = ""
    """Where ``a`` was played when not in this database (``report --against``): the other
    database's file name; empty for two entries of one tournament."""

    @property
    def a_label(self) -> str:
        return f"{self.a} ({self.a_database})" if self.a_database else self.a

    def to_dict(self) -> dict[str, Any]:
        d = self.difference
        return {
            "players": self.cell.players,
            "teams": self.cell.teams,
            "a": self.a,
            "a_database": self.a_database or None,
            "b": self.b,
            "pairs": self.table.pairs,
            "both_won": self.table.both,
            "only_a_won": self.table.only_a,
            "only_b_won": self.table.only_b,
            "neither_won": self.table.neither,
            "difference": None if d is None else d.difference,
            "difference_low": None if d is None else d.low,
            "difference_high": None if d is None else d.high,
            "mcnemar_p": self.p_value,
        }


@frozen
class ErrorLine:
    """Games of one entry in one cell that raised one error (its first line)."""

    cell: Cell
    entry: str
    error: str
    games: int
    seed: int
    """The lowest game seed that raised it: the game to play again to see it."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.cell.players,
            "teams": self.cell.teams,
            "entry": self.entry,
            "error": self.error,
            "games": self.games,
            "first_seed": self.seed,
        }


ERRORS_SHOWN = 5
"""Distinct errors a report prints (all are in ``--json`` and the failures table)."""


@frozen
class Report:
    """Everything ``deathangel report`` prints or draws."""

    config: TournamentConfig
    entries: tuple[EntryLine, ...]
    pairs: tuple[PairLine, ...]
    locations: dict[tuple[Cell, str], dict[int, int]]
    """Games by locations reached, per cell and entry."""
    causes: dict[str, dict[str, int]]
    """Defeats by cause, per entry (all cells)."""
    runs: tuple[dict[str, Any], ...]
    sprt: SprtResult | None
    against: str = ""
    """What ``--against`` paired with, in words (empty without it): which database, and
    whether the bots' own dice were shared (the same bot key) or only the deals."""
    errors: tuple[ErrorLine, ...] = ()
    """The failed games by entry, cell and error, the commonest first."""

    @property
    def games(self) -> int:
        return sum(e.games for e in self.entries)

    @property
    def failures(self) -> int:
        return sum(e.failures for e in self.entries)

    def to_dict(self) -> dict[str, Any]:
        return {
            "config": self.config.to_dict(),
            "games": self.games,
            "failures": self.failures,
            "entries": [e.to_dict() for e in self.entries],
            "pairs": [p.to_dict() for p in self.pairs],
            "locations": [
                {"players": c.players, "teams": c.teams, "entry": e, "games_by_locations": v}
                for (c, e), v in self.locations.items()
            ],
            "causes_of_defeat": self.causes,
            "runs": list(self.runs),
            "sprt": None if self.sprt is None else self.sprt.to_dict(),
            "against": self.against or None,
            "errors": [e.to_dict() for e in self.errors],
        }


def pair_line(cell: Cell, a: str, b: str, box: Sequence[int], a_database: str = "") -> PairLine:
    """The statistics of entries ``a`` and ``b`` from their pairs' counts, in the order
    both won, only ``a``, only ``b``, neither."""
    both, only_a, only_b, neither = box
    table = PairTable(both, only_a, only_b, neither)
    diff = paired_difference(table) if table.pairs else None
    p = mcnemar_exact(only_a, only_b)
    return PairLine(cell, a, b, table, diff, p, a_database=a_database)


def read_report(results: Results) -> Report:
    """The report of an open results database."""
    config = results.config
    names = [e.name for e in config.entries]
    stats: dict[tuple[Cell, str], tuple[int, int, float, float]] = {}
    for players, teams, entry, games, wins, locs, rounds in results.rows(
        "SELECT players, cell_teams, entry, COUNT(*), SUM(outcome = 'victory'), "
        "AVG(locations_reached), AVG(rounds) FROM games GROUP BY players, cell_teams, entry"
    ):
        stats[Cell(players, teams), entry] = (games, wins, locs, rounds)
    failed: Counter[tuple[Cell, str]] = Counter()
    for players, teams, entry, n in results.rows(
        "SELECT players, cell_teams, entry, COUNT(*) FROM failures "
        "GROUP BY players, cell_teams, entry"
    ):
        failed[Cell(players, teams), entry] = n
    times = decision_times(results)
    lines = []
    for cell in config.cells:
        for name in names:
            games, wins, locs, rounds = stats.get((cell, name), (0, 0, 0.0, 0.0))
            time = times.get((cell, name))
            lines.append(EntryLine(cell, name, games, wins, failed[cell, name], locs, rounds, time))
    pairs = []
    for a, b in combinations(names, 2):
        boxes: dict[Cell, list[int]] = {cell: [0, 0, 0, 0] for cell in config.cells}
        for players, teams, a_won, b_won, n in results.rows(
            "SELECT x.players, x.cell_teams, x.outcome = 'victory', y.outcome = 'victory', "
            "COUNT(*) FROM games x JOIN games y ON x.players = y.players "
            "AND x.cell_teams = y.cell_teams AND x.game = y.game "
            "WHERE x.entry = ? AND y.entry = ? GROUP BY 1, 2, 3, 4",
            (a, b),
        ):
            row = boxes.get(Cell(players, teams))
            if row is not None:
                row[(not a_won) * 2 + (not b_won)] += n
        pairs += [pair_line(cell, a, b, box) for cell, box in boxes.items()]
    locations: dict[tuple[Cell, str], dict[int, int]] = {
        (cell, name): {} for cell in config.cells for name in names
    }
    for players, teams, entry, reached, n in results.rows(
        "SELECT players, cell_teams, entry, locations_reached, COUNT(*) FROM games "
        "GROUP BY 1, 2, 3, 4 ORDER BY 4"
    ):
        locations.setdefault((Cell(players, teams), entry), {})[reached] = n
    causes: dict[str, dict[str, int]] = {name: {} for name in names}
    for entry, cause, n in results.rows(
        "SELECT entry, COALESCE(cause, 'unknown'), COUNT(*) FROM games "
        "WHERE outcome = 'defeat' GROUP BY 1, 2 ORDER BY 3 DESC, 2"
    ):
        causes.setdefault(entry, {})[cause] = n
    run_columns = ("started", "backend", "workers", "games", "failures", "seconds", "status")
    runs = live_statuses(
        [
            dict(zip(run_columns, r, strict=True))
            for r in results.rows(f"SELECT {', '.join(run_columns)} FROM runs ORDER BY id")
        ],
        run_alive(results.path),
    )
    sprt = SprtTracker(config, results.states()).advance() if config.sprt is not None else None
    return Report(
        config, tuple(lines), tuple(pairs), locations, causes, runs, sprt, errors=errors(results)
    )


def errors(results: Results) -> tuple[ErrorLine, ...]:
    """The failures table summed up: each entry's and cell's distinct errors (first line),
    how many games raised each and the lowest seed that did, the commonest first."""
    found: Counter[tuple[int, str, str, str]] = Counter()
    seeds: dict[tuple[int, str, str, str], int] = {}
    for players, teams, entry, error, seed in results.rows(
        "SELECT players, cell_teams, entry, error, seed FROM failures"
    ):
        key = (players, teams, entry, (str(error).strip().splitlines() or ["(no message)"])[0])
        found[key] += 1
        seeds[key] = min(seeds.get(key, seed), seed)
    ordered = sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))
    return tuple(
        ErrorLine(Cell(players, teams), entry, error, n, seeds[players, teams, entry, error])
        for (players, teams, entry, error), n in ordered
    )


def error_text(report: Report) -> list[str]:
    """The report's failed games in words: one line per distinct error (the commonest
    :data:`ERRORS_SHOWN`), saying where the tracebacks are."""
    if not report.errors:
        return []
    total = sum(e.games for e in report.errors)
    out = [f"Games that raised an error ({total}; tracebacks in the database's failures table):"]
    for e in report.errors[:ERRORS_SHOWN]:
        out.append(
            f"  {e.entry} ({e.cell.label}): {e.games} game(s), first seed {e.seed}: {e.error}"
        )
    more = len(report.errors) - ERRORS_SHOWN
    if more > 0:
        out.append(f"  ... and {more} other error(s) (--json lists them all)")
    return out


def decision_times(results: Results) -> dict[tuple[Cell, str], tuple[float, float]]:
    """Per cell and entry, the median and 90th percentile (nearest rank: the value at rank
    ceil(q n) of n, in order) of the games' seconds per decision. Ranked in SQLite, so a
    report of a million games does not read a million rows into Python."""
    out: dict[tuple[Cell, str], list[float]] = {}
    for players, teams, entry, t in results.rows(
        "SELECT players, cell_teams, entry, t FROM ("
        " SELECT players, cell_teams, entry, seconds * 1.0 / decisions AS t,"
        "  ROW_NUMBER() OVER (PARTITION BY players, cell_teams, entry"
        "   ORDER BY seconds * 1.0 / decisions) AS k,"
        "  COUNT(*) OVER (PARTITION BY players, cell_teams, entry) AS n"
        " FROM games WHERE decisions > 0)"
        # ceil(n / 2) and ceil(9 n / 10) in integers; the median's row first.
        " WHERE k = (n + 1) / 2 OR k = (9 * n + 9) / 10 ORDER BY 1, 2, 3, k"
    ):
        out.setdefault((Cell(players, teams), entry), []).append(t)
    # One row when both ranks are the same game (n = 1).
    return {key: (v[0], v[-1]) for key, v in out.items()}


def live_statuses(runs: list[dict[str, Any]], alive: bool | None) -> tuple[dict[str, Any], ...]:
    """The runs with what is known of those the database still calls ``running``.

    A run ends by writing its status; one killed (``kill -9``, a closed session) writes none
    and stays ``running``. Only the last run can be alive, and whether it is, the run lock
    says (``alive``, from :func:`~deathangel.tournament.results.run_alive`): ``running`` if a
    run holds it, else ``killed``; ``running, or killed`` when that cannot be told (a database
    only older deathangels ran)."""
    out = []
    for i, run in enumerate(runs):
        if run["status"] == "running":
            if i < len(runs) - 1 or alive is False:
                run = {**run, "status": "killed"}
            elif alive is None:
                run = {**run, "status": "running, or killed"}
        out.append(run)
    return tuple(out)


def pairs_against(results: Results, other: Results) -> tuple[tuple[PairLine, ...], str]:
    """Every entry of ``other`` (A) against every entry of ``results`` (B), over the games
    both databases played at the same player count, teams and game seed; and what was
    paired, in words.

    What it is for: a challenger played later, on the seeds of a finished run, is compared
    with that run's entries without playing them again (half the games of a new paired
    tournament). The pairs are the same deals only if the games are the same games: the same
    expansions and variants, and each paired seed dealing the same teams (checked game by
    game). With the same bot key the bots' own dice are shared too, exactly as between two
    entries of one tournament; with another key the pairs share the deals only (still a valid
    paired test, with less of the noise cancelled).

    :raises ResultsError: naming both files, when their games are not the same games.
    """
    mine, theirs = results.config, other.config
    name = other.path.name
    for what, here, there in (
        ("expansions", mine.expansions, theirs.expansions),
        ("variants", mine.variants, theirs.variants),
    ):
        if here != there:
            raise ResultsError(
                f"--against {other.path}: played with {what} {_listed(there)}, {results.path} "
                f"with {_listed(here)}: not the same games, they cannot be paired"
            )
    played: dict[tuple[int, str, int], tuple[str, dict[str, bool]]] = {}
    for players, teams, seed, dealt, entry, won in other.rows(
        "SELECT players, cell_teams, seed, teams, entry, outcome = 'victory' FROM games"
    ):
        played.setdefault((players, teams, seed), (dealt, {}))[1][entry] = bool(won)
    a_names = [e.name for e in theirs.entries]
    boxes: dict[tuple[Cell, str, str], list[int]] = {}
    for players, teams, seed, dealt, entry, won in results.rows(
        "SELECT players, cell_teams, seed, teams, entry, outcome = 'victory' FROM games ORDER BY id"
    ):
        found = played.get((players, teams, seed))
        if found is None:
            continue
        if found[0] != dealt:
            raise ResultsError(
                f"--against {other.path}: game seed {seed} at {players} player(s) dealt the "
                f"teams {found[0]} there and {dealt} in {results.path}: not the same games "
                "(another engine or rules?), they cannot be paired"
            )
        for a, a_won in found[1].items():
            row = boxes.setdefault((Cell(players, teams), a, entry), [0, 0, 0, 0])
            row[(not a_won) * 2 + (not won)] += 1
    lines = []
    for cell in mine.cells:
        for a in a_names:
            for b in (e.name for e in mine.entries):
                box = boxes.get((cell, a, b), [0, 0, 0, 0])
                lines.append(pair_line(cell, a, b, box, a_database=name))
    dice = (
        "the same bot key: the bots' own dice are shared too"
        if mine.bot_key and mine.bot_key == theirs.bot_key
        else "another bot key: the pairs share the deals, not the bots' own dice"
    )
    return tuple(lines), f"Entries marked ({name}) were played in {other.path} ({dice})."


def _listed(items: Sequence[tuple[str, str]]) -> str:
    return ", ".join(f"{n} {v}" for n, v in items) if items else "none"


# -- words ---------------------------------------------------------------------------------------


def describe_sprt(design: SprtDesign, result: SprtResult, a: str, b: str, cap: int) -> str:
    """The SPRT's verdict in one sentence, saying exactly what was tested."""
    tested = (
        f"SPRT on the pairs where exactly one of {a!r} and {b!r} won: share won by {b!r} "
        f"p0={design.p0:g} vs p1={design.p1:g} (alpha={design.alpha:g}, beta={design.beta:g})"
    )
    seen = (
        f"{result.pairs} pair(s) read, {result.discordant} discordant, {result.b_wins} won by "
        f"{b!r}, log-likelihood ratio {result.llr:+.3f} (bounds {design.lower:+.3f}, "
        f"{design.upper:+.3f})"
    )
    if result.decision == "H1":
        verdict = f"decided p1: {b!r} wins a share of {design.p1:g} of the discordant pairs"
    elif result.decision == "H0":
        verdict = f"decided p0: {b!r} wins a share of {design.p0:g} of the discordant pairs"
    elif result.pairs >= cap:
        verdict = f"undecided at the cap of {cap} pairs"
    else:
        verdict = "not decided yet"
    return f"{tested}: {verdict}; {seen}."


def percent(x: float) -> str:
    return f"{x:.1%}"


def signed_percent(x: float) -> str:
    return f"{x:+.1%}"


def p_text(p: float) -> str:
    if p == 0.0:
        return "<1e-300"
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.1e}"


ENTRY_HEADERS = (
    *("cell", "entry", "games", "wins", "win rate", "95% interval", "mean locations"),
    "time per decision (median, p90)",
)
PAIR_HEADERS = (
    *("cell", "A", "B", "pairs", "only A won", "only B won"),
    *("B − A", "95% interval", "McNemar p"),
)


def entry_cells(line: EntryLine) -> list[str]:
    lo, hi = line.interval
    games = str(line.games) + (f" (+{line.failures} failed)" if line.failures else "")
    if not line.games:
        return [line.cell.label, line.entry, games, "0", "–", "–", "–", "–"]
    t = line.decision_time
    return [
        line.cell.label,
        line.entry,
        games,
        str(line.wins),
        percent(line.win_rate),
        f"{percent(lo)} – {percent(hi)}",
        f"{line.mean_locations:.2f}",
        "–" if t is None else f"{duration(t[0])}, {duration(t[1])}",
    ]


def duration(seconds: float) -> str:
    """A time per decision as people read it: µs below a millisecond, then ms, then s."""
    if seconds < 0.001:
        return f"{1e6 * seconds:.0f} µs"
    if seconds < 1:
        return f"{1000 * seconds:.3g} ms"
    return f"{seconds:.2f} s"


def pair_cells(line: PairLine) -> list[str]:
    t, d = line.table, line.difference
    if d is None:
        return [line.cell.label, line.a_label, line.b, "0", "–", "–", "–", "–", "–"]
    return [
        line.cell.label,
        line.a_label,
        line.b,
        str(t.pairs),
        str(t.only_a),
        str(t.only_b),
        signed_percent(d.difference),
        f"{signed_percent(d.low)} – {signed_percent(d.high)}",
        p_text(line.p_value),
    ]


def headline(report: Report) -> str:
    c = report.config
    teams = {cell.teams for cell in c.cells}
    return (
        f"{len(c.entries)} entr{'y' if len(c.entries) == 1 else 'ies'} × {len(c.cells)} "
        f"cell(s) × {c.games} games (seeds {c.seed}..{c.seed + c.games - 1}; teams "
        f"{', '.join(sorted(teams))}); {report.games} games stored"
        + (f", {report.failures} failed" if report.failures else "")
        + f" of {c.total_games}."
    )


def markdown(report: Report) -> str:
    """The report as Markdown tables (for docs/)."""
    out = [headline(report), "", "Win rates (95% Wilson interval):", ""]
    out += _md_table(ENTRY_HEADERS, [entry_cells(e) for e in report.entries])
    if report.pairs:
        out += ["", "Paired comparisons on the same seeds (B − A; Newcombe interval):", ""]
        out += _md_table(PAIR_HEADERS, [pair_cells(p) for p in report.pairs])
    if report.against:
        out += ["", report.against]
    if report.sprt is not None and report.config.sprt is not None:
        a, b = (e.name for e in report.config.entries)
        cap = report.config.games * len(report.config.cells)
        out += ["", describe_sprt(report.config.sprt, report.sprt, a, b, cap)]
    if report.errors:
        out += ["", *error_text(report)]
    return "\n".join(out) + "\n"


def _md_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    right = {"games", "wins", "win rate", "mean locations", "pairs", "only A won", "only B won"}
    right |= {"B − A", "McNemar p"}
    lines = ["| " + " | ".join(headers) + " |"]
    lines.append("| " + " | ".join("---:" if h in right else "---" for h in headers) + " |")
    # A pipe inside a cell (an entry 'rules|random') would end the cell.
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


def write_csv(report: Report, results: Results, folder: Path) -> list[Path]:
    """``entries.csv``, ``pairs.csv`` and every stored game as ``games.csv`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, rows in (
        ("entries.csv", [e.to_dict() for e in report.entries]),
        ("pairs.csv", [p.to_dict() for p in report.pairs]),
    ):
        path = folder / name
        with path.open("w", newline="", encoding="utf-8") as f:
            if rows:
                writer = csv.DictWriter(f, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
        written.append(path)
    path = folder / "games.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer_games = csv.writer(f)
        writer_games.writerow(["id", *GAME_COLUMNS])
        writer_games.writerows(
            results.rows(f"SELECT id, {', '.join(GAME_COLUMNS)} FROM games ORDER BY id")
        )
    written.append(path)
    return written


def to_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=1, sort_keys=True)
