"""The report's pictures, drawn with matplotlib's Agg backend (files only, no display):

- ``win_rates.png``: each entry's win rate per cell with its 95% Wilson interval;
- ``locations.png``: per cell, the share of games that reached each location (the setup
  location is 1, so every game reaches it);
- ``causes.png``: per entry, how its defeats came about;

and the card report's (:mod:`deathangel.tournament.cardreport`):

- ``forest.png``: each card's difference in win rate when it appears, with its interval;
- ``survival.png``: marines standing by round and on arrival at each location;

and a balance run's (:mod:`deathangel.tournament.balance`): ``balance.png``, win rates and
locations reached without and with, per player count.

matplotlib is an optional extra (``deathangel[plots]``): people who only play never load it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from deathangel.errors import DeathAngelError
from deathangel.tournament.report import Report

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from deathangel.tournament.balance import Balance, BalanceLine
    from deathangel.tournament.cardreport import CardReport

DPI = 80
"""Small files: the docs commit them."""

TOP_CAUSES = 6
"""Causes drawn by name; the rest are summed as "other"."""


def pyplot() -> Any:
    """matplotlib's pyplot, drawing to files only; a one-line error naming the extra when
    it is not installed (call it first to refuse before any work)."""
    try:
        import matplotlib
    except ImportError:
        raise DeathAngelError("--plots needs matplotlib: pip install 'deathangel[plots]'") from None
    matplotlib.use("Agg")  # files only: never look for a display
    import matplotlib.pyplot as plt

    return plt


def write_plots(report: Report, folder: Path) -> list[Path]:
    """Draw every plot into ``folder`` (made if missing); the files written."""
    return _draw_all(
        report,
        folder,
        (("win_rates.png", win_rates), ("locations.png", locations), ("causes.png", causes)),
    )


def _draw_all(
    subject: Any, folder: Path, drawings: tuple[tuple[str, Callable[[Any, Any], Figure]], ...]
) -> list[Path]:
    """Each drawing of ``subject`` saved as its file in ``folder`` (made if missing), every
    figure closed after saving (pyplot keeps them otherwise); the files written."""
    plt = pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, draw in drawings:
        fig = draw(subject, plt)
        path = folder / name
        fig.savefig(path, dpi=DPI)
        plt.close(fig)
        written.append(path)
    return written


def win_rates(report: Report, plt: Any) -> Figure:
    cells = list(report.config.cells)
    names = [e.name for e in report.config.entries]
    fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    width = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        lines = [e for e in report.entries if e.entry == name]
        xs = [cells.index(e.cell) + (i - (len(names) - 1) / 2) * width for e in lines]
        rates = [e.win_rate for e in lines]
        lows = [e.win_rate - e.interval[0] if e.games else 0.0 for e in lines]
        highs = [e.interval[1] - e.win_rate if e.games else 0.0 for e in lines]
        ax.errorbar(xs, rates, yerr=[lows, highs], fmt="o", capsize=3, label=name)
    ax.set_xticks(range(len(cells)), [c.label for c in cells])
    ax.set_xlabel("cell (players, teams)")
    ax.set_ylabel("win rate")
    ax.yaxis.set_major_formatter(_percent_formatter())
    ax.set_ylim(bottom=0)
    ax.set_title("Win rate per entry, 95% Wilson interval")
    ax.grid(axis="y", alpha=0.3)
    ax.legend()
    return cast("Figure", fig)


def locations(report: Report, plt: Any) -> Figure:
    cells = list(report.config.cells)
    names = [e.name for e in report.config.entries]
    columns = min(3, len(cells))
    rows = math.ceil(len(cells) / columns)
    fig, axes = plt.subplots(
        rows,
        columns,
        figsize=(3.2 * columns, 2.6 * rows + 0.4),
        layout="constrained",
        squeeze=False,
        sharey=True,
    )
    most = max((max(v, default=1) for v in report.locations.values()), default=1)
    for ax, cell in zip(axes.flat, cells, strict=False):
        for name in names:
            counts = report.locations.get((cell, name), {})
            total = sum(counts.values())
            if not total:
                continue
            reached = range(1, most + 1)
            share = [sum(n for r, n in counts.items() if r >= at) / total for at in reached]
            ax.plot(list(reached), share, marker="o", markersize=3, label=name)
        ax.set_title(cell.label, fontsize=10)
        ax.set_xticks(range(1, most + 1))
        ax.set_ylim(0, 1.05)
        ax.yaxis.set_major_formatter(_percent_formatter())
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(cells) :]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("location")
    for ax in axes[:, 0]:
        ax.set_ylabel("games reaching it")
    axes.flat[0].legend(fontsize=8)
    fig.suptitle("Share of games that reached each location")
    return cast("Figure", fig)


def causes(report: Report, plt: Any) -> Figure:
    names = [e.name for e in report.config.entries]
    overall: Counter[str] = Counter()
    for by_cause in report.causes.values():
        overall.update(by_cause)
    shown = [c for c, _ in overall.most_common(TOP_CAUSES)]
    fig, ax = plt.subplots(figsize=(8, 2.0 + 0.6 * len(names)), layout="constrained")
    left = [0.0] * len(names)
    labels = [*shown, "other"] if len(overall) > len(shown) else shown
    for cause in labels:
        shares = []
        for name in names:
            counts = report.causes.get(name, {})
            total = sum(counts.values())
            n = (
                counts.get(cause, 0)
                if cause != "other"
                else sum(v for c, v in counts.items() if c not in shown)
            )
            shares.append(n / total if total else 0.0)
        ax.barh(names, shares, left=left, label=cause)
        left = [a + b for a, b in zip(left, shares, strict=True)]
    ax.xaxis.set_major_formatter(_percent_formatter())
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("share of the entry's defeats (all cells)")
    ax.set_title("Causes of defeat")
    fig.legend(fontsize=8, loc="outside lower center", ncol=3, frameon=False)
    return cast("Figure", fig)


def _percent_formatter() -> Any:
    from matplotlib.ticker import PercentFormatter

    # decimals=None: as many as the ticks need (2.5%, not a rounded "2%").
    return PercentFormatter(1.0, decimals=None)


# -- the card report's pictures ------------------------------------------------------------------


def write_card_plots(report: CardReport, folder: Path) -> list[Path]:
    """``forest.png`` (each card's difference in win rate, with its interval) and
    ``survival.png`` (marines standing by round and by location) in ``folder``."""
    return _draw_all(report, folder, (("forest.png", forest), ("survival.png", survival)))


def forest(report: CardReport, plt: Any) -> Figure:
    """Win rate when a card appears minus when it does not, with Newcombe's interval: one
    row per card that has both groups, grouped by kind, the largest difference on top."""
    from deathangel.tournament.cardreport import KINDS, WORDS

    rows = [line for line in report.lines if line.difference is not None]
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.19 * max(1, len(rows))), layout="constrained")
    labels: list[str] = []
    y = 0
    colours = {"higher": "tab:green", "lower": "tab:red", None: "tab:gray"}
    for kind in KINDS:
        group = [line for line in rows if line.kind == kind]
        for line in group:
            d = line.difference
            assert d is not None
            ax.errorbar(
                [d.difference],
                [y],
                xerr=[[d.difference - d.low], [d.high - d.difference]],
                fmt="o",
                markersize=3,
                capsize=2,
                color=colours[line.flag],
            )
            team = f" ({line.team})" if line.team else ""
            labels.append(f"{kind} {WORDS[kind][0]}: {line.name}{team}")
            y += 1
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(_percent_formatter())
    ax.set_xlabel("win rate when it appears minus when it does not (95% interval)")
    ax.set_title(
        f"Cards and win rate, {report.games} games of {report.entry!r} (associations, not causes)",
        fontsize=10,
    )
    ax.grid(axis="x", alpha=0.3)
    return cast("Figure", fig)


def survival(report: CardReport, plt: Any) -> Figure:
    """Share of the marines standing at the start of each round, and on arrival at each
    location, one line per player count."""
    fig, (by_round, by_place) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
    for players, shares in report.survival.items():
        by_round.plot(
            range(1, len(shares) + 1), shares, marker="o", markersize=3, label=f"{players}p"
        )
    for players, places in report.arrival.items():
        by_place.plot(
            range(len(places)),
            [s for s, _ in places],
            marker="o",
            markersize=3,
            label=f"{players}p",
        )
    by_round.set_xlabel("round")
    by_round.set_ylabel("marines standing (share)")
    by_round.set_title("At the start of each round", fontsize=10)
    by_place.set_xlabel("location (0: the setup location)")
    from matplotlib.ticker import MaxNLocator

    for ax in (by_round, by_place):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    by_place.set_title("On arrival, among the games that got there", fontsize=10)
    for ax in (by_round, by_place):
        ax.set_ylim(0, 1.05)
        ax.yaxis.set_major_formatter(_percent_formatter())
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"Marines standing, {report.games} games of {report.entry!r}")
    return cast("Figure", fig)


# -- a balance run's picture ---------------------------------------------------------------------


def write_balance_plot(balance: Balance, folder: Path) -> list[Path]:
    """``balance.png`` in ``folder``: win rates and locations reached with and without, per
    player count, with their intervals."""
    return _draw_all(balance, folder, (("balance.png", balance_figure),))


def balance_figure(balance: Balance, plt: Any) -> Figure:
    lines = [line for line in balance.lines if line.players]
    fig, (wins, places) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
    xs = range(len(lines))
    for offset, side, rate, bounds, reached in (
        (-0.12, balance.base, _base_rate, "base_interval", "base_locations"),
        (0.12, balance.other, _other_rate, "other_interval", "other_locations"),
    ):
        rates = [rate(line) for line in lines]
        intervals = [getattr(line, bounds) for line in lines]
        wins.errorbar(
            [x + offset for x in xs],
            rates,
            yerr=[
                [r - lo for r, (lo, _) in zip(rates, intervals, strict=True)],
                [hi - r for r, (_, hi) in zip(rates, intervals, strict=True)],
            ],
            fmt="o",
            capsize=3,
            label=side,
        )
        means = [getattr(line, reached) for line in lines]
        places.errorbar(
            [x + offset for x in xs],
            [m.mean for m in means],
            yerr=[[m.mean - m.low for m in means], [m.high - m.mean for m in means]],
            fmt="o",
            capsize=3,
            label=side,
        )
    for ax in (wins, places):
        ax.set_xticks(list(xs), [line.label for line in lines])
        ax.set_xlabel("players")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    wins.set_ylabel("win rate (95% Wilson interval)")
    wins.yaxis.set_major_formatter(_percent_formatter())
    wins.set_ylim(bottom=0)
    places.set_ylabel("mean locations reached (95% interval)")
    fig.suptitle(f"{balance.other} against {balance.base} ({balance.strategy!r}, paired seeds)")
    return cast("Figure", fig)


def _base_rate(line: BalanceLine) -> float:
    return line.base_wins / line.pairs


def _other_rate(line: BalanceLine) -> float:
    return line.other_wins / line.pairs
