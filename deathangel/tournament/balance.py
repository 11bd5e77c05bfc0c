"""What an expansion or a house rule does to the game: the same games played without and with
it, on paired seeds, compared player count by player count.

:func:`run_balance` plays two tournaments of one strategy — the *base* (the base game, or the
expansions named as the base) and the *other* (the base plus the expansions and variants under
study) — with the same seeds, the same player counts and the same bot key, into two results
databases; :func:`compare` reads any two such databases into a :class:`Balance`: per player
count (and over them all), each side's win rate with its Wilson interval, the paired
difference with Newcombe's interval and McNemar's exact p, and the mean locations reached
with their intervals and the mean of the paired differences.

What "paired" means here. Game ``k`` of both tournaments has the seed ``seed + k``, and each
seat's bot the seed ``bot_seed(key, seed + k, seat)``: common random numbers, so whatever the
two games share they draw alike. But an expansion that adds cards changes what a seed deals —
another team can be dealt, the decks hold other cards in another order — so the two games of a
pair are *not* the same deal, as they are when two strategies are compared on one ruleset.
The pairs stay honest pairs (each is two games drawn from one seed, independent of every
other pair), so the paired statistics are valid; they gain less from pairing than a strategy
comparison does, and a variant that changes no card (a rule switch) keeps the deals and gains
the most.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from deathangel.errors import DeathAngelError
from deathangel.tournament.results import Results
from deathangel.tournament.runner import Progress, RunSummary, run_tournament
from deathangel.tournament.stats import (
    MeanInterval,
    PairedDifference,
    PairTable,
    mcnemar_exact,
    mean_interval,
    paired_difference,
    wilson_interval,
)
from deathangel.tournament.tournament import RANDOM_TEAMS, TournamentConfig, build_config

DEFAULT_STRATEGY = "rules"
"""The strongest fast bot (about 10 ms a game): random play wins almost nothing, so it shows
no effect, and a search bot is a hundred times slower."""

BASE_DB = "base.db"
OTHER_DB = "with.db"


class BalanceError(DeathAngelError, ValueError):
    """Two databases that cannot be compared, or a balance run that cannot be made."""


# -- running -------------------------------------------------------------------------------------


def balance_configs(
    *,
    with_: Sequence[str],
    variants: Sequence[str] = (),
    base_with: Sequence[str] = (),
    strategy: str = DEFAULT_STRATEGY,
    players: Sequence[int] = (1, 2, 3, 4, 5, 6),
    games: int = 500,
    seed: int = 0,
    bot_key: str,
    facts: bool = True,
) -> tuple[TournamentConfig, TournamentConfig]:
    """The two tournaments of a balance run: the base, and the base with ``with_`` and
    ``variants``; one entry (``strategy`` at every seat), teams dealt at random.

    :raises BalanceError: when nothing would differ between the two.
    :raises TournamentConfigError: for an unknown expansion, variant or strategy.
    """
    if not with_ and not variants:
        raise BalanceError("name what to study: --with NAME and/or --variant NAME[=VALUE]")
    common = {
        "games": games,
        "seed": seed,
        "players": list(players),
        "teams": [RANDOM_TEAMS],
        "entry": [{"name": strategy, "strategy": strategy}],
        "bot_key": bot_key,
        "facts": facts,
    }
    base = build_config({**common, "with": list(base_with)}, where="balance (base)")
    other = build_config(
        {**common, "with": list(dict.fromkeys([*base_with, *with_])), "variants": list(variants)},
        where="balance",
    )
    if (base.expansions, base.variants) == (other.expansions, other.variants):
        raise BalanceError("the base and the other games would be the same ruleset")
    return base, other


def stored_bot_key(folder: Path) -> str | None:
    """The bot key of a balance run already in ``folder`` (its base database's), if any."""
    path = folder / BASE_DB
    if not path.is_file():
        return None
    with Results.open(path) as results:
        return results.config.bot_key


def run_balance(
    base: TournamentConfig,
    other: TournamentConfig,
    folder: Path,
    *,
    resume: bool = False,
    workers: int | None = None,
    batch: int | None = None,
    progress: Callable[[str], Progress | None] | None = None,
) -> tuple[RunSummary, RunSummary]:
    """Play both tournaments into ``folder``/``base.db`` and ``folder``/``with.db`` (made if
    missing). ``progress(name)`` gives the progress callback for each run.

    :raises DeathAngelError: as :func:`run_tournament` does (a database holding another
        tournament, a worker that keeps dying...).
    :raises KeyboardInterrupt: when a run is stopped (Ctrl-C, SIGTERM); its games are kept.
    """
    if base.bot_key != other.bot_key or not base.bot_key:
        raise BalanceError("both tournaments of a balance run need the same bot key")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BalanceError(f"{folder}: cannot make the folder: {exc.strerror or exc}") from None
    summaries = []
    for config, name in ((base, BASE_DB), (other, OTHER_DB)):
        summary = run_tournament(
            config,
            folder / name,
            resume=resume,
            workers=workers,
            batch=batch,
            progress=None if progress is None else progress(name),
        )
        if summary.status == "interrupted":
            # Stopped (Ctrl-C, SIGTERM): neither the other side nor a comparison of half the
            # games. What is stored stays, and --resume goes on from it.
            raise KeyboardInterrupt
        summaries.append(summary)
    return summaries[0], summaries[1]


# -- comparing -----------------------------------------------------------------------------------


@frozen
class BalanceLine:
    """One player count (``players`` 0: all of them pooled), over the pairs both hold."""

    players: int
    table: PairTable
    """``a`` is the base, ``b`` the other."""
    base_locations: MeanInterval
    other_locations: MeanInterval
    location_difference: MeanInterval
    """The mean of the paired differences (other − base) in locations reached."""

    @property
    def pairs(self) -> int:
        return self.table.pairs

    @property
    def base_wins(self) -> int:
        return self.table.both + self.table.only_a

    @property
    def other_wins(self) -> int:
        return self.table.both + self.table.only_b

    @property
    def base_interval(self) -> tuple[float, float]:
        return wilson_interval(self.base_wins, self.pairs)

    @property
    def other_interval(self) -> tuple[float, float]:
        return wilson_interval(self.other_wins, self.pairs)

    @property
    def difference(self) -> PairedDifference:
        """Other's win rate minus the base's, with Newcombe's paired interval."""
        return paired_difference(self.table)

    @property
    def p_value(self) -> float:
        return mcnemar_exact(self.table.only_a, self.table.only_b)

    @property
    def flag(self) -> str | None:
        """``higher`` or ``lower`` when the difference's interval excludes 0."""
        d = self.difference
        return "higher" if d.low > 0 else "lower" if d.high < 0 else None

    @property
    def label(self) -> str:
        return "all" if self.players == 0 else f"{self.players}p"

    def to_dict(self) -> dict[str, Any]:
        d = self.difference
        t = self.table
        return {
            "players": self.label,
            "pairs": self.pairs,
            "both_won": t.both,
            "only_base_won": t.only_a,
            "only_other_won": t.only_b,
            "neither_won": t.neither,
            "base_win_rate": self.base_wins / self.pairs,
            "base_win_rate_interval": list(self.base_interval),
            "other_win_rate": self.other_wins / self.pairs,
            "other_win_rate_interval": list(self.other_interval),
            "difference": d.difference,
            "difference_interval": [d.low, d.high],
            "mcnemar_p": self.p_value,
            "flag": self.flag,
            "base_locations": _mean_dict(self.base_locations),
            "other_locations": _mean_dict(self.other_locations),
            "location_difference": _mean_dict(self.location_difference),
        }


def _mean_dict(m: MeanInterval) -> dict[str, float]:
    return {"mean": m.mean, "low": m.low, "high": m.high}


@frozen
class Balance:
    """Two tournaments compared pair by pair."""

    base: str
    other: str
    """What each side played with, in words."""
    strategy: str
    seed: int
    bot_key: str
    lines: tuple[BalanceLine, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "other": self.other,
            "strategy": self.strategy,
            "seed": self.seed,
            "bot_key": self.bot_key,
            "lines": [line.to_dict() for line in self.lines],
        }


def played_with(config: TournamentConfig) -> str:
    """A ruleset in words: ``the base game`` or ``broodwake 1.0.0, variant defence=easier``."""
    parts = [f"{name} {version}" for name, version in config.expansions]
    parts += [f"variant {n}={v}" if v else f"variant {n}" for n, v in config.variants]
    return ", ".join(parts) or "the base game"


def _entry(results: Results, name: str | None) -> str:
    names = [e.name for e in results.config.entries]
    if name is not None:
        if name not in names:
            raise BalanceError(f"{results.path} has no entry {name!r}")
        return name
    if len(names) != 1:
        raise BalanceError(
            f"{results.path} holds the entries {', '.join(repr(n) for n in names)}: "
            "choose one with --entry"
        )
    return names[0]


def compare(base: Results, other: Results, *, entry: str | None = None) -> Balance:
    """The paired comparison of one entry's games in ``base`` and ``other``.

    :raises BalanceError: for databases whose games are not paired (another seed, another
        bot key), or with no pair in common.
    """
    a, b = base.config, other.config
    if a.bot_key != b.bot_key:
        raise BalanceError(
            f"{base.path} and {other.path} seed their bots with different keys, so their "
            "games are not paired: play both with the same --bot-key"
        )
    if a.seed != b.seed:
        raise BalanceError(
            f"{base.path} starts at seed {a.seed} and {other.path} at seed {b.seed}, so their "
            "games are not paired: play both with the same --seed"
        )
    name_a, name_b = _entry(base, entry), _entry(other, entry)
    games: dict[tuple[int, str, int], tuple[bool, int]] = {}
    for players, teams, k, outcome, reached in base.rows(
        "SELECT players, cell_teams, game, outcome, locations_reached FROM games WHERE entry = ?",
        (name_a,),
    ):
        games[players, teams, k] = (outcome == "victory", reached)
    pairs: dict[int, list[tuple[bool, bool, int, int]]] = {}
    for players, teams, k, outcome, reached in other.rows(
        "SELECT players, cell_teams, game, outcome, locations_reached FROM games "
        "WHERE entry = ? ORDER BY players, game",
        (name_b,),
    ):
        mine = games.get((players, teams, k))
        if mine is not None:
            pairs.setdefault(players, []).append((mine[0], outcome == "victory", mine[1], reached))
    if not pairs:
        raise BalanceError(f"{base.path} and {other.path} hold no pair of games yet")
    lines = [_line(p, rows) for p, rows in sorted(pairs.items())]
    if len(lines) > 1:
        lines.append(_line(0, [row for rows in pairs.values() for row in rows]))
    return Balance(
        played_with(a),
        played_with(b),
        name_b if name_a == name_b else f"{name_a} / {name_b}",
        a.seed,
        a.bot_key,
        tuple(lines),
    )


def _line(players: int, rows: Sequence[tuple[bool, bool, int, int]]) -> BalanceLine:
    table = PairTable.count((x, y) for x, y, _, _ in rows)
    return BalanceLine(
        players,
        table,
        mean_interval([r for _, _, r, _ in rows]),
        mean_interval([r for _, _, _, r in rows]),
        mean_interval([r2 - r1 for _, _, r1, r2 in rows]),
    )


def compare_files(base: Path, other: Path, *, entry: str | None = None) -> Balance:
    """:func:`compare` of two database files (each checked by SQLite first)."""
    with Results.open(base) as a, Results.open(other) as b:
        a.check_health()
        b.check_health()
        return compare(a, b, entry=entry)


# -- words ---------------------------------------------------------------------------------------

HEADERS = (
    *("players", "pairs", "base win rate", "95% interval", "other win rate", "95% interval"),
    *("difference", "95% interval", "McNemar p", "base locations", "other locations"),
    *("difference", "95% interval", ""),
)


def cells(line: BalanceLine) -> list[str]:
    from deathangel.tournament.report import p_text

    d = line.difference
    lo, hi = line.base_interval
    olo, ohi = line.other_interval
    loc = line.location_difference
    return [
        line.label,
        str(line.pairs),
        f"{line.base_wins / line.pairs:.1%}",
        f"{lo:.1%} – {hi:.1%}",
        f"{line.other_wins / line.pairs:.1%}",
        f"{olo:.1%} – {ohi:.1%}",
        f"{d.difference:+.1%}",
        f"{d.low:+.1%} – {d.high:+.1%}",
        p_text(line.p_value),
        f"{line.base_locations.mean:.2f}",
        f"{line.other_locations.mean:.2f}",
        f"{loc.mean:+.2f}",
        f"{loc.low:+.2f} – {loc.high:+.2f}",
        line.flag or "",
    ]


def headline(balance: Balance) -> str:
    return (
        f"{balance.other} against {balance.base}, strategy {balance.strategy!r}, game k of "
        f"each with seed {balance.seed} + k and the same bot key: win rates with 95% Wilson "
        "intervals; the difference (other − base) with Newcombe's paired interval and "
        "McNemar's exact p; mean locations reached (the setup location counts as 1) and the "
        "mean paired difference with its 95% interval."
    )


def markdown(balance: Balance) -> str:
    """The comparison as a Markdown table (for docs/)."""
    text = {"players", "", "95% interval"}
    lines = [headline(balance), "", "| " + " | ".join(HEADERS) + " |"]
    lines.append("| " + " | ".join("---" if h in text else "---:" for h in HEADERS) + " |")
    lines += ["| " + " | ".join(cells(line)) + " |" for line in balance.lines]
    return "\n".join(lines) + "\n"


def to_json(balance: Balance) -> str:
    return json.dumps(balance.to_dict(), indent=1, sort_keys=True)
