"""``balance`` and the card report on a planted card: the ``overpowered`` plugin
(tests/designer_plugins.py) adds the gold team, whose Annihilation slays up to nine whatever
the die shows. Played by the rules bot on paired seeds, with and without the plugin, the
balance must show the win rate raised beyond its interval, and the card report must name
Annihilation (and its team) as raising it.

The counts the comparison reads are checked against the stored games joined by hand, and the
comparison refuses databases whose games are not paired."""

from __future__ import annotations

import csv
import importlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from designer_plugins import designer_site
from designer_plugins import run_with_site as deathangel
from support import TEST_BOT_KEY
from tourney_rows import count

from deathangel.tournament.balance import (
    OTHER_DB,
    BalanceError,
    balance_configs,
    compare_files,
    run_balance,
)
from deathangel.tournament.cardreport import CardReportError, read_card_report
from deathangel.tournament.results import Results
from deathangel.tournament.runner import run_tournament
from deathangel.tournament.tournament import build_config

GAMES = 100
"""Two-player games on each side (four of the seven teams play, so gold plays in about half
the games): Annihilation's effect, about +17 points of win rate with the plugin and +29 in the
games gold plays (150 games measured), stands clear of its interval at this size."""

OTHER_KEY = "a1" * 16


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    site = designer_site(tmp_path_factory.mktemp("site"))
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    yield site
    sys.path.remove(str(site))
    for module in ("overpowered_plugin", "faulty_plugin"):
        sys.modules.pop(module, None)


@pytest.fixture(scope="module")
def run(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("balance")
    base, other = balance_configs(
        with_=["overpowered"], players=[2], games=GAMES, seed=0, bot_key=TEST_BOT_KEY
    )
    run_balance(base, other, folder, workers=0)
    return folder


def test_balance_finds_the_planted_card_raises_the_win_rate(run: Path) -> None:
    balance = compare_files(run / "base.db", run / OTHER_DB)
    (line,) = balance.lines
    assert (line.players, line.pairs) == (2, GAMES)
    d = line.difference
    assert d.low > 0, d
    assert line.flag == "higher"
    assert line.p_value < 0.01
    assert balance.other.startswith("overpowered 0.1") and balance.base == "the base game"
    assert balance.strategy == "rules" and balance.bot_key == TEST_BOT_KEY


def test_the_card_report_names_the_planted_card(run: Path) -> None:
    with Results.open(run / OTHER_DB) as results:
        report = read_card_report(results)
    by_name = {(line.kind, line.name): line for line in report.lines}
    annihilation = by_name["action", "Annihilation"]
    assert annihilation.team == "gold"
    assert annihilation.flag == "higher"
    d = annihilation.difference
    assert d is not None and d.low > 0
    assert by_name["team", "gold"].flag == "higher"
    # Its rate among the gold team's picks: the bot plays it more than a third of the time.
    assert annihilation.share is not None and annihilation.share > 1 / 3
    # No base-game team is marked as raising the win rate beyond its interval.
    base_teams = [line for (kind, _), line in by_name.items() if kind == "team" and _ != "gold"]
    assert base_teams and all(line.flag != "higher" for line in base_teams)


def test_the_comparison_counts_the_pairs_the_databases_hold(run: Path) -> None:
    """The four boxes and the locations, from the two files joined by hand."""
    conn = sqlite3.connect(run / "base.db")
    conn.execute(f"ATTACH DATABASE '{run / OTHER_DB}' AS other")
    rows = conn.execute(
        "SELECT a.outcome, b.outcome, a.locations_reached, b.locations_reached "
        "FROM games a JOIN other.games b ON a.players = b.players AND a.game = b.game"
    ).fetchall()
    conn.close()
    boxes = Counter((x == "victory", y == "victory") for x, y, _, _ in rows)
    balance = compare_files(run / "base.db", run / OTHER_DB)
    (line,) = balance.lines
    t = line.table
    assert (t.both, t.only_a, t.only_b, t.neither) == (
        boxes[True, True],
        boxes[True, False],
        boxes[False, True],
        boxes[False, False],
    )
    assert line.base_locations.mean == pytest.approx(sum(r[2] for r in rows) / len(rows))
    assert line.location_difference.mean == pytest.approx(
        sum(r[3] - r[2] for r in rows) / len(rows)
    )


def test_games_not_paired_are_refused(run: Path, tmp_path: Path) -> None:
    def played(name: str, **data: object) -> Path:
        config = build_config(
            {"games": 2, "seed": 0, "players": [2], "entry": [{"strategy": "random"}], **data}
        )
        run_tournament(config, tmp_path / name, workers=0)
        return tmp_path / name

    keyed = played("key.db", bot_key=OTHER_KEY)
    with pytest.raises(BalanceError, match="different keys, so their games are not paired"):
        compare_files(run / "base.db", keyed)
    seeded = played("seed.db", bot_key=TEST_BOT_KEY, seed=5)
    with pytest.raises(BalanceError, match=r"starts at seed 0 and .* at seed 5"):
        compare_files(run / "base.db", seeded)
    random = played("random.db", bot_key=TEST_BOT_KEY)
    with pytest.raises(BalanceError, match="has no entry 'rules'"):
        compare_files(run / "base.db", random, entry="rules")


def test_a_balance_run_needs_something_to_study(installed: Path) -> None:
    with pytest.raises(BalanceError, match="name what to study"):
        balance_configs(with_=[], bot_key=TEST_BOT_KEY)
    with pytest.raises(BalanceError, match="would be the same ruleset"):
        balance_configs(with_=["overpowered"], base_with=["overpowered"], bot_key=TEST_BOT_KEY)


def test_the_card_report_refuses_what_it_cannot_read(run: Path, tmp_path: Path) -> None:
    config = build_config(
        {"games": 2, "players": [1, 2], "entry": [{"strategy": "random"}, {"strategy": "rules"}],
         "facts": False}
    )  # fmt: skip
    run_tournament(config, tmp_path / "bare.db", workers=0)
    with (
        Results.open(tmp_path / "bare.db") as results,
        pytest.raises(CardReportError, match="holds no facts of its games"),
    ):
        read_card_report(results)
    with Results.open(run / OTHER_DB) as results:
        with pytest.raises(CardReportError, match="has no 3-player games; it has 2p"):
            read_card_report(results, players=[3])
        with pytest.raises(CardReportError, match="has no entry 'random'"):
            read_card_report(results, entry="random")


# -- the commands --------------------------------------------------------------------------------


def test_balance_of_two_databases_prints_what_the_library_finds(
    run: Path, installed: Path, tmp_path: Path
) -> None:
    args = ["balance", str(run / "base.db"), str(run / OTHER_DB)]
    as_json = deathangel(*args, "--json", site=installed, cwd=tmp_path)
    assert as_json.returncode == 0, as_json.stderr
    expected = compare_files(run / "base.db", run / OTHER_DB).to_dict()
    assert json.loads(as_json.stdout) == json.loads(json.dumps(expected))
    table = deathangel(*args, site=installed, cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    row = next(line for line in table.stdout.splitlines() if line.startswith("│ 2p"))
    assert "higher" in row and f"│   {GAMES} │" in row
    assert f"bot key: {TEST_BOT_KEY}" in table.stdout
    plots = deathangel(*args, "--markdown", "--plots", "png", site=installed, cwd=tmp_path)
    assert plots.returncode == 0, plots.stderr
    assert plots.stdout.splitlines()[2].startswith("| players | pairs | base win rate |")
    assert (tmp_path / "png" / "balance.png").stat().st_size > 10_000
    assert plots.stderr == f"wrote {Path('png') / 'balance.png'}\n"


def test_the_cards_report_command_names_the_planted_card(
    run: Path, installed: Path, tmp_path: Path
) -> None:
    db = str(run / OTHER_DB)
    as_json = deathangel("cards", "report", db, "--json", site=installed, cwd=tmp_path)
    assert as_json.returncode == 0, as_json.stderr
    data = json.loads(as_json.stdout)
    assert data["note"].startswith("These are associations, not causes")
    card = next(c for c in data["cards"] if c["name"] == "Annihilation")
    assert (card["kind"], card["team"], card["flag"]) == ("action", "gold", "higher")
    assert card["difference_low"] > 0
    table = deathangel("cards", "report", db, "--kind", "action", site=installed, cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    row = next(line for line in table.stdout.splitlines() if "Annihilation" in line)
    assert "gold" in row and row.rstrip(" │").endswith("higher")
    assert "These are associations, not causes" in table.stdout
    assert "Events" not in table.stdout  # --kind action: the other tables are left out
    files = deathangel(
        "cards", "report", db, "--markdown", "--csv", "out", "--plots", "out",
        site=installed, cwd=tmp_path,
    )  # fmt: skip
    assert files.returncode == 0, files.stderr
    assert "| Annihilation | gold |" in files.stdout
    for name in ("cards.csv", "locations.csv", "deaths.csv", "survival.csv"):
        assert (tmp_path / "out" / name).stat().st_size > 0
    for name in ("forest.png", "survival.png"):
        assert (tmp_path / "out" / name).stat().st_size > 10_000
    with (tmp_path / "out" / "cards.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {r["name"] for r in rows if r["flag"] == "higher"} >= {"Annihilation", "gold"}


def test_a_balance_run_from_the_command_line_resumes(installed: Path, tmp_path: Path) -> None:
    args = ["balance", "--with", "overpowered", "-p", "1", "-n", "3", "-w", "0", "--quiet"]
    first = deathangel(*args, "--bot-key", TEST_BOT_KEY, site=installed, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "balance" / "base.db").is_file()
    assert (tmp_path / "balance" / "with.db").is_file()
    again = deathangel(*args, site=installed, cwd=tmp_path)
    assert again.returncode == 1
    assert again.stderr == (
        f"error: {Path('balance') / 'base.db'} already holds a tournament; add --resume to go "
        "on with it, or choose another --db\n"
    )
    # --resume finds the stored bot key by itself: nothing new to play, the same table.
    resumed = deathangel(*args, "--resume", site=installed, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == first.stdout


def test_a_stopped_balance_run_compares_nothing_and_says_how_to_go_on(
    installed: Path, tmp_path: Path
) -> None:
    """Stopped while the base games are played: before, the run went on to play the other
    side whole and then printed a comparison of the pairs both held, status 0, as if it were
    done. Now it plays nothing more, prints no table, and says how to go on."""
    folder = tmp_path / "balance"
    base = folder / "base.db"
    args = ["balance", "--with", "overpowered", "-p", "1", "-n", "3000", "-w", "0"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "deathangel", *args, "--bot-key", TEST_BOT_KEY, "-q"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(installed)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while count(base) == 0:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no base game was stored"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert 0 < count(base) < 3000
    assert not (folder / OTHER_DB).exists()
    assert out == ""
    assert err.strip().splitlines()[-1] == (
        f"interrupted; the games so far are kept in {Path('balance')}: the same command with "
        "--resume goes on"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["balance"], "error: name what to study: --with NAME and/or --variant NAME[=VALUE]\n"),
        (["balance", "x.db"], "error: give two results databases (BASE.db OTHER.db), or none\n"),
        (["balance", "a.db", "b.db", "--with", "overpowered"], "error: two databases are "),
        (["balance", "--with", "nosuch"], "error: balance: no plugin named 'nosuch' is installed"),
    ],
)
def test_bad_input_is_one_line(
    installed: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    result = deathangel(*args, site=installed, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(message), result.stderr
    assert result.stderr.count("\n") == 1


def test_a_card_is_compared_within_player_counts() -> None:
    """Pooled, a card played mostly where the game is easier looks good; within each player
    count it wins exactly as often as without, and the report says so."""
    from deathangel.tournament.cardreport import CardLine

    # 2p: 5 of 50 games won with it, 5 of 50 without; 3p: 40 of 100 with, 4 of 10 without.
    line = CardLine(
        "action", "Lucky Charm", "gold", 210, 150, 150, 45, 9, None,
        ((5, 50, 5, 50), (40, 100, 4, 10)),
    )  # fmt: skip
    assert line.rate_with == pytest.approx(0.3) and line.rate_without == pytest.approx(0.15)
    d = line.difference
    assert d is not None and d.difference == pytest.approx(0.0)
    assert line.flag is None
    # One player count: the plain difference, with Newcombe's interval.
    alone = CardLine("action", "Lucky Charm", "gold", 100, 50, 50, 20, 5, None, ((20, 50, 5, 50),))
    assert alone.difference is not None and alone.difference.difference == pytest.approx(0.3)
    assert alone.flag == "higher"
