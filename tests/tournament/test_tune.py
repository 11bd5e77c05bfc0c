"""``deathangel tune``: a study of paired-seed trials that finds what a sabotaged weight cost,
resumes after ``kill -9`` without playing a finished trial again, and says what is wrong with
a bad search space in one line."""

from __future__ import annotations

import math
import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from support import TEST_BOT_KEY
from tourney_rows import count

from deathangel.analysis.simulate import simulate
from deathangel.errors import MissingExtraError
from deathangel.tournament.report import Report
from deathangel.tournament.runner import InProcess
from deathangel.tournament.stats import SprtDesign
from deathangel.tournament.tune import (
    Confirmation,
    TuneError,
    clearly_worse,
    confirm,
    judge,
    read_space,
    run_study,
    rungs,
    write_strategy_file,
)

SABOTAGED = 'extends = "default"\n[let]\nw_kill = -3\n'
"""The default rules with the weight of killing a genestealer turned against it: measured
on 150 solo games (seeds 5000-5149), 2 wins and 3.09 locations against the default's 14 wins
and 3.54."""

SPACE = """\
{top}strategy = "rules"
fixed = {{ rules = "sabotaged.rules.toml" }}
players = 1
objective = "locations"
seeds = [100000, 100999]
confirm = [900000, 900999]

[let]
w_kill = {{ float = [-3.0, 3.0] }}
{tail}"""


def space_file(folder: Path, top: str = "", tail: str = "") -> Path:
    """The search space of the planted weight, with ``top`` added before its first key and
    ``tail`` after its last table."""
    (folder / "sabotaged.rules.toml").write_text(SABOTAGED, encoding="utf-8")
    path = folder / "space.toml"
    path.write_text(SPACE.format(top=top, tail=tail), encoding="utf-8")
    return path


def test_the_tuner_recovers_a_sabotaged_weight(tmp_path: Path) -> None:
    space = read_space(space_file(tmp_path))
    summary = run_study(
        space,
        tmp_path / "s.db",
        trials=6,
        games=48,
        backend=InProcess(),
        sampler_seed=1,
        bot_key=TEST_BOT_KEY,  # the same games every run
    )
    assert summary.best is not None
    (w_kill,) = [v for k, v in summary.best.params if k == "w_kill"]
    assert w_kill > 0  # killing genestealers is good again
    sabotage = simulate(
        1, 48, 100000, "rules:rules=" + str(tmp_path / "sabotaged.rules.toml"),
        bot_key=summary.bot_key,
    )  # fmt: skip
    # The same games (paired seeds, the study's bot key): clearly more locations reached.
    assert summary.best.value >= sabotage.mean_locations + 0.2
    # The winner is a strategy file a seat can load, with the tuned rule file beside it.
    out = write_strategy_file(tmp_path / "tuned.toml", summary.best_spec or "", "tuned")
    again = simulate(1, 48, 100000, str(out), bot_key=summary.bot_key)
    assert again.mean_locations == pytest.approx(summary.best.value)


def test_racing_stops_a_clearly_worse_trial_and_not_a_close_one() -> None:
    best = {f"1:{k}": 4.0 for k in range(20)}
    worse = {f"1:{k}": 2.0 + (k % 2) for k in range(20)}  # a deficit of 1.5 ± 0.11
    close = {f"1:{k}": 5.0 if k % 2 else 2.8 for k in range(20)}  # -0.1 ± 0.25
    assert clearly_worse(worse, best)
    assert not clearly_worse(close, best)
    assert not clearly_worse({"1:0": 0.0}, best)  # one pair says nothing
    assert rungs(200) == [25, 50, 100, 200] and rungs(10) == [10] and rungs(40) == [16, 32, 40]


def trials_in(db: Path) -> list[tuple[int, str, float | None]]:
    if not db.exists():
        return []
    conn = sqlite3.connect(db, timeout=5)
    try:
        rows = conn.execute(
            "SELECT t.number, t.state, v.value FROM trials t "
            "LEFT JOIN trial_values v ON v.trial_id = t.trial_id ORDER BY t.number"
        ).fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        conn.close()
    return [(int(n), str(s), v) for n, s, v in rows]


FINISHED = ("COMPLETE", "PRUNED")


@pytest.mark.long
def test_a_study_resumes_after_kill_9_without_replaying_finished_trials(tmp_path: Path) -> None:
    space = space_file(tmp_path)
    db = tmp_path / "s.db"
    args = [
        *(sys.executable, "-m", "deathangel", "tune", str(space), "--study", str(db)),
        *("--trials", "5", "--games", "24", "--workers", "0", "--confirm-games", "0"),
    ]
    proc = subprocess.Popen(
        args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 240
        # Finished either way: the bots' key is fresh each run, so a trial may be pruned
        # (waiting for two complete ones let a study with one see its end first: flaky).
        while sum(s in FINISHED for _, s, _ in trials_in(db)) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the study never finished two trials"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    before = {n: v for n, s, v in trials_in(db) if s in FINISHED}
    assert 2 <= len(before) < 5
    resumed = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    after = trials_in(db)
    # Every trial finished before the kill is still there, with its value: none played again.
    assert {n: v for n, s, v in after if n in before} == before
    assert sum(s in FINISHED for _, s, _ in after) == 5
    assert "best: trial" in resumed.stdout
    # Not a terminal: plain progress lines on standard error, as each rung begins and as each
    # trial ends (with its value and interval).
    stamp = r"^\d\d:\d\d:\d\d trials \d/5: "
    rung = stamp + r"trial-\d+: 16 games a player count$"
    end = stamp + r"trial-\d+ (complete|pruned): [0-9.]+ \[[0-9.]+, [0-9.]+\] over \d+ games$"
    assert re.search(rung, resumed.stderr, re.M), resumed.stderr
    assert re.search(end, resumed.stderr, re.M), resumed.stderr


def ignore_ctrl_c() -> None:
    """As a shell starts a background job (``cmd &``): SIGINT ignored from the start."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stopped(args: list[str], cwd: Path, ready: Callable[[], bool], stop: signal.Signals,
            start: Callable[[], None] | None = None) -> tuple[int, str, str]:  # fmt: skip
    """Run ``args``, send ``stop`` once ``ready()`` holds, and return the status and output."""
    proc = subprocess.Popen(
        args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=start,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 240
        while not ready():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "never ready to be stopped"
            time.sleep(0.05)
        proc.send_signal(stop)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, out, err


@pytest.mark.parametrize(
    ("stop", "start"), [(signal.SIGTERM, None), (signal.SIGINT, ignore_ctrl_c)],
    ids=["sigterm", "background job"],
)  # fmt: skip
def test_a_stopped_study_says_how_far_it_got_and_how_to_go_on(
    tmp_path: Path, stop: signal.Signals, start: Callable[[], None] | None
) -> None:
    """A batch system's SIGTERM, or ``kill -INT`` on a background job: the study stops with
    one line that counts its finished trials, and the status of a stopped run. Before, SIGTERM
    killed it with no word (and a warning of leaked semaphores), and SIGINT did nothing."""
    space, db = space_file(tmp_path), tmp_path / "s.db"
    args = [
        *(sys.executable, "-m", "deathangel", "tune", str(space), "--study", str(db)),
        *("--trials", "40", "--games", "24", "--workers", "0", "--confirm-games", "0"),
    ]
    status, _, err = stopped(
        args, tmp_path, lambda: any(s in FINISHED for _, s, _ in trials_in(db)), stop, start
    )
    assert status == 130, err
    assert "Traceback" not in err and "leaked" not in err, err
    finished = sum(s in FINISHED for _, s, _ in trials_in(db))
    assert 1 <= finished < 40
    assert err.strip().splitlines()[-1] == (
        f"Interrupted in the study: {finished} of 40 trials finished in {db}; "
        "the same command goes on."
    )


@pytest.mark.long
def test_a_stopped_confirmation_gives_no_verdict_and_the_same_command_finishes_it(
    tmp_path: Path,
) -> None:
    """Ctrl-C during the held-out confirmation: before, the tournament stopped, and the
    command then judged the games played so far and said "not confirmed: keep the
    incumbent", status 0, as if the test were done. Now it says it was stopped, gives no
    verdict, and the same command plays the rest of the same games and judges them all."""
    space = space_file(tmp_path)
    db = tmp_path / "space.tuned.confirm.db"
    args = [sys.executable, "-m", "deathangel", "tune", str(space), "--workers", "0"]
    args += ["--trials", "1", "--games", "8", "--finalists", "0", "--confirm-games", "60"]

    status, out, err = stopped(args, tmp_path, lambda: count(db) > 0, signal.SIGINT)
    assert status == 130, err
    kept = count(db)
    assert 0 < kept < 120
    assert "confirmed" not in out and "incumbent" not in out, out
    assert err.strip().splitlines()[-1] == (
        f"Interrupted in the held-out confirmation (its games so far are kept in {db}); "
        "the same command goes on."
    )
    again = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert count(db) == 120  # 60 seeds, both entries; none played twice
    assert re.search(
        r"^  1p   tuned - incumbent .*(confirmed|keep the incumbent)", again.stdout, re.M
    )


@pytest.mark.parametrize(
    ("top", "tail", "message"),
    [
        (
            "",
            "[parameters]\nhorizon = { int = [3, 1] }\n",
            "int = [LOW, HIGH], two finite numbers with LOW < HIGH",
        ),
        (
            "",
            "[parameters]\nmargin = { float = [nan, 0.02] }\n",
            "margin: float = [LOW, HIGH], two",
        ),
        ("", "[parameters]\nmargin = { float = [0.0, inf] }\n", "margin: float = [LOW, HIGH], two"),
        ("sampler = 'grid'\n", "", "'sampler' is one of tpe, cmaes, not 'grid'"),
        ("nonsense = 1\n", "", "unknown key(s) nonsense"),
        ("", "[let.w_flip]\nfloat = 1\n", "[let] w_flip: float = [LOW, HIGH]"),
        # A weight the rule file does not have: a trial would tune a name no rule reads.
        (
            "",
            "w_kil = { float = [0.0, 1.0] }\n",
            "[let] w_kil: the rule file",
        ),
    ],
)
def test_a_bad_search_space_is_one_line(tmp_path: Path, top: str, tail: str, message: str) -> None:
    path = space_file(tmp_path, top, tail)
    with pytest.raises(TuneError, match="^" + str(path).replace("\\", "\\\\")) as info:
        read_space(path)
    assert message in str(info.value) and "\n" not in str(info.value)
    result = subprocess.run(
        [sys.executable, "-m", "deathangel", "tune", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr


def test_overlapping_seed_ranges_are_refused(tmp_path: Path) -> None:
    path = space_file(tmp_path)
    path.write_text(
        path.read_text(encoding="utf-8").replace("[900000, 900999]", "[100500, 101500]"),
        encoding="utf-8",
    )
    with pytest.raises(TuneError, match="overlap the tuning seeds"):
        read_space(path)


def test_a_misspelt_weight_is_refused_with_the_name_meant(tmp_path: Path) -> None:
    path = space_file(tmp_path, tail="w_flp = { float = [0.0, 3.0] }\n")
    with pytest.raises(TuneError, match="no weight of that name") as info:
        read_space(path)
    assert "did you mean 'w_flip'" in str(info.value)


@pytest.mark.parametrize(
    ("top", "tail"),
    [
        ("", "[parameters]\nnosuch = { int = [1, 3] }\n"),  # the rules strategy has no such
        ("incumbent = 'rules:nosuch=1'\n", ""),  # an incumbent that cannot be made
    ],
)
def test_a_point_the_strategy_refuses_is_said_before_a_study_file_exists(
    tmp_path: Path, top: str, tail: str
) -> None:
    """Said after the study file was made, the corrected space could not resume it; said of
    the incumbent, only after every trial had been played."""
    space = read_space(space_file(tmp_path, top, tail))
    with pytest.raises(TuneError, match=f"^{re.escape(str(space.path))}: .*has no parameter"):
        run_study(space, tmp_path / "s.db", trials=1, games=16, backend=InProcess())
    assert not (tmp_path / "s.db").exists()
    assert not (tmp_path / "s.trials").exists()


def test_another_search_space_cannot_resume_a_study(tmp_path: Path) -> None:
    space = read_space(space_file(tmp_path))
    run_study(space, tmp_path / "s.db", trials=1, games=16, backend=InProcess(), sampler_seed=1)
    other = read_space(space_file(tmp_path, top="sampler = 'cmaes'\n"))
    with pytest.raises(TuneError, match="holds a study of another search space"):
        run_study(other, tmp_path / "s.db", trials=2, games=16, backend=InProcess())


def tune(
    space: Path, study: Path, *, preexec: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "deathangel", "tune", str(space), "--study", str(study)]
    args += ["--trials", "1", "--games", "8", "-w", "0", "--confirm-games", "0", "-q"]
    return subprocess.run(
        args, capture_output=True, text=True, cwd=space.parent, timeout=300,
        preexec_fn=preexec,
    )  # fmt: skip


def test_a_study_file_that_is_not_one_is_refused_in_one_line(tmp_path: Path) -> None:
    study = tmp_path / "s.db"
    study.write_text("my notes, not a study\n", encoding="utf-8")
    out = tune(space_file(tmp_path), study)
    assert (out.returncode, out.stderr) == (
        1,
        f"error: {study}: is not a study (the SQLite file deathangel tune keeps); "
        "name another --study\n",
    )
    assert study.read_text(encoding="utf-8") == "my notes, not a study\n"


@pytest.mark.long
def test_a_full_disk_is_one_line_and_the_same_command_goes_on(tmp_path: Path) -> None:
    """The study's file cannot grow past 16 KiB (a limit on the process's files, as a full
    disk or a quota would stop it): one line, not SQLAlchemy's traceback."""

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 1024, 16 * 1024))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails, not the process

    space, study = space_file(tmp_path), tmp_path / "s.db"
    full = tune(space, study, preexec=small_files)
    assert (full.returncode, full.stderr.count("\n")) == (1, 1), full.stderr
    assert full.stderr.startswith(f"error: {study}: cannot use the study: ")
    assert full.stderr.endswith(
        "every trial stored before is kept: run the same command again once that is put right\n"
    )
    again = tune(space, study)
    assert again.returncode == 0, again.stderr
    assert [state for _, state, _ in trials_in(study)] == ["COMPLETE"]


def test_without_optuna_the_command_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "optuna", None)  # an import of it now fails
    space = read_space(space_file(tmp_path))
    with pytest.raises(MissingExtraError, match=r"pip install 'deathangel\[tune\]'"):
        run_study(space, tmp_path / "s.db", trials=1, games=16, backend=InProcess())


EXAMPLES = sorted((Path(__file__).parents[2] / "docs" / "examples" / "tune").glob("*.toml"))
TUNING = (200000, 299999)
"""The project's tuning seed range (docs/strategies.md): every trial's seeds lie in it."""
CONFIRMING = (900000, 909999)
"""Confirmation seeds: no trial, training run or figure uses them."""


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_documented_search_spaces_read_and_keep_the_seed_ranges(path: Path) -> None:
    space = read_space(path)
    assert TUNING[0] <= space.seeds[0] <= space.seeds[1] <= TUNING[1]
    assert CONFIRMING[0] <= space.confirm[0] <= space.confirm[1] <= CONFIRMING[1]


def test_the_worked_examples_are_found() -> None:
    assert [p.name for p in EXAMPLES] == [
        "mcts-fast.toml", "rules-weights.toml", "search-preferences.toml",
    ]  # fmt: skip


def test_a_trial_cut_off_before_any_game_is_listed_without_figures() -> None:
    from deathangel.cli.tune import trial_lines
    from deathangel.tournament.tune import StudySummary, TrialLine

    done = TrialLine(0, "complete", (("horizon", 2),), 32, 0.40625, 0.2552, 0.5774)
    cut = TrialLine(1, "failed", (("horizon", 3),), 0, math.nan, math.nan, math.nan)
    summary = StudySummary((done, cut), done, "mcts:horizon=2", "00" * 16, "wins")
    space = read_space(EXAMPLES[0])
    lines = trial_lines(summary, space)
    assert lines[1] == "  #0   complete    32 games  0.4062 [0.2552, 0.5774]  horizon=2"
    assert lines[2] == "  #1   failed       0 games  no games finished  horizon=3"


# -- the held-out confirmation -------------------------------------------------------------------

SABOTAGED_INCUMBENT = 'incumbent = "rules:rules=sabotaged.rules.toml"\n'
"""The sabotaged rules as the incumbent (a path beside the search space, as a user writes it):
on solo seeds it wins about 2 games in 150 where the default rules win 14."""
DEFAULT_INCUMBENT = 'incumbent = "rules"\n'


def confirmation(
    folder: Path,
    tuned_spec: str,
    games: int,
    sprt: SprtDesign | None = None,
    incumbent: str = SABOTAGED_INCUMBENT,
) -> tuple[Report, Confirmation]:
    space = read_space(space_file(folder, top=incumbent))
    tuned = write_strategy_file(folder / "tuned.toml", tuned_spec, "the candidate")
    report = confirm(
        space, tuned, folder / "c.db", games=games, sprt=sprt, backend=InProcess(),
        bot_key=TEST_BOT_KEY,
    )  # fmt: skip
    return report, judge(report)


def test_a_clearly_better_winner_is_confirmed_on_the_held_out_seeds(tmp_path: Path) -> None:
    report, verdict = confirmation(tmp_path, "rules", 120)
    (pair,) = report.pairs
    t = pair.table
    assert t.both + t.only_a + t.only_b + t.neither == 120
    assert report.config.seed == 900000  # the space's held-out range
    assert t.only_b > t.only_a  # the default rules win where the sabotaged ones lose
    assert pair.difference is not None and pair.difference.low > 0
    assert verdict.confirmed
    assert verdict.lines[0].endswith("confirmed: the tuned strategy is better")


def test_a_worse_or_equal_winner_is_not_confirmed(tmp_path: Path) -> None:
    worse_dir, same_dir = tmp_path / "worse", tmp_path / "same"
    worse_dir.mkdir()
    same_dir.mkdir()
    # The sabotaged rules as the "winner", the default rules the incumbent: worse.
    sabotaged = "rules:rules=" + str(worse_dir / "sabotaged.rules.toml")
    report, worse = confirmation(worse_dir, sabotaged, 80, incumbent=DEFAULT_INCUMBENT)
    (pair,) = report.pairs
    assert pair.difference is not None and pair.difference.difference < 0
    assert not worse.confirmed
    assert worse.lines[0].endswith("not confirmed: keep the incumbent")
    # The incumbent against itself: the same deals and bot seeds, so every pair is tied and
    # the difference is 0 with an interval around it: no confirmation either.
    same_spec = "rules:rules=" + str(same_dir / "sabotaged.rules.toml")
    report, same = confirmation(same_dir, same_spec, 30)
    (pair,) = report.pairs
    assert pair.table.only_a == pair.table.only_b == 0
    assert pair.difference is not None and pair.difference.difference == 0
    assert pair.difference.low < 0 < pair.difference.high
    assert not same.confirmed


def test_a_sequential_confirmation_stops_once_the_winner_is_clear(tmp_path: Path) -> None:
    report, verdict = confirmation(tmp_path, "rules", 300, SprtDesign(0.5, 0.8))
    assert report.sprt is not None and report.sprt.decision == "H1"
    # Decided long before its cap of 300 pairs (a batch in flight may finish after it).
    assert report.sprt.pairs < 200 and report.games < 2 * 200
    assert verdict.confirmed
    assert "decided p1" in verdict.lines[-2]
    assert verdict.lines[-1] == "  confirmed: the tuned strategy is better"


def test_a_sequential_confirmation_of_a_worse_or_equal_winner_keeps_the_incumbent(
    tmp_path: Path,
) -> None:
    sabotaged = "rules:rules=" + str(tmp_path / "sabotaged.rules.toml")
    report, verdict = confirmation(
        tmp_path, sabotaged, 300, SprtDesign(0.5, 0.8), incumbent=DEFAULT_INCUMBENT
    )
    assert report.sprt is not None and report.sprt.decision == "H0"
    assert report.sprt.pairs < 300  # decided before its cap
    assert not verdict.confirmed
    assert "decided p0" in verdict.lines[-2]
    assert verdict.lines[-1] == "  not confirmed: keep the incumbent"
    # The incumbent against itself: no discordant pair, undecided at the cap: not confirmed.
    same_dir = tmp_path / "same"
    same_dir.mkdir()
    same_spec = "rules:rules=" + str(same_dir / "sabotaged.rules.toml")
    report, same = confirmation(same_dir, same_spec, 20, SprtDesign(0.5, 0.8))
    assert report.sprt is not None and report.sprt.decision is None
    assert "undecided at the cap of 20 pairs" in same.lines[-2]
    assert not same.confirmed


def test_a_confirmation_sprt_must_test_for_a_better_winner(tmp_path: Path) -> None:
    space = space_file(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "deathangel", "tune", str(space), "--confirm-sprt", "0.7", "0.5"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "error: --confirm-sprt tests that the tuned strategy is better: P1 must be above P0 "
        "(got 0.7 0.5)"
    ]
    assert not (tmp_path / "space.study.db").exists()  # refused before any trial


@pytest.mark.long
def test_another_confirmation_is_refused_in_one_line_and_the_first_kept(tmp_path: Path) -> None:
    space = space_file(tmp_path)
    base = [sys.executable, "-m", "deathangel", "tune", str(space), "-q", "--workers", "0"]
    small = ["--trials", "1", "--games", "8", "--finalists", "0", "--confirm-games", "10"]
    first = subprocess.run([*base, *small], capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    db = tmp_path / "space.tuned.confirm.db"
    again = subprocess.run(
        [*base, *small, "--confirm-sprt", "0.5", "0.7"], capture_output=True, text=True, timeout=300
    )
    assert again.returncode == 1
    assert again.stderr.strip().splitlines() == [
        f"error: {db} holds another confirmation (sprt differ); give the same options to "
        "resume it, or --confirm-db NEW.db for this one"
    ]
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (20,)  # kept, whole
    finally:
        conn.close()
    other = tmp_path / "sequential.db"
    third = subprocess.run(
        [*base, *small, "--confirm-sprt", "0.5", "0.7", "--confirm-db", str(other)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert third.returncode == 0, third.stderr
    assert other.is_file()
