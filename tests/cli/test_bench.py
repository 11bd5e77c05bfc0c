"""The ``bench`` command and library: every figure is there, checked, and a slowdown against
a saved run is flagged.

Speed is only printed, never asserted: these tests use ``--work`` to keep the work tiny, and
the comparison is tested on figures edited by hand (a planted slowdown), not on timings.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from deathangel.analysis.bench import (
    BENCH_BOT_KEY,
    GROUPS,
    BenchReport,
    Budget,
    Figure,
    FigureSpec,
    Group,
    Sample,
    add_group,
    compare,
    measure_clones,
    measure_games,
    run_bench,
    saved_figures,
)
from deathangel.analysis.profiling import format_profile, profile
from deathangel.analysis.simulate import simulate
from deathangel.analysis.thinking import DecisionTimes, bench_decisions

SEATS = [1, 2, 3, 4, 5, 6]
"""Every player count of the rules (RULES §3)."""

FIGURES = [
    *(f"games_per_s_{p}p" for p in SEATS),
    "clones_per_s_round_start",
    "clones_per_s_mid_round",
    "determinizations_per_s",
    "search_iterations_per_s",
    "search_iterations_per_s_46p",
    "env_steps_per_s_1p",
    "env_steps_per_s_4p",
]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deathangel", "bench", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One tiny ``bench --json`` run of every figure, saved as a tool would save it."""
    result = run("--json", "--work", "1", "--repeats", "2")
    assert result.returncode == 0, result.stderr
    path = tmp_path_factory.mktemp("bench") / "run.json"
    path.write_text(result.stdout, encoding="utf-8")
    return path


def test_bench_json_prints_every_figure_with_its_spread(saved: Path) -> None:
    text = saved.read_text(encoding="utf-8")
    assert text.count("\n") == 1
    data = json.loads(text)
    assert sorted(data["figures"]) == sorted(FIGURES)
    for name, figure in data["figures"].items():
        assert len(figure["rates"]) == 2, name
        assert figure["low"] <= figure["median"] <= figure["high"], name
        assert figure["median"] > 0, name
        assert figure["problems"] == 0, name
    assert data["figures"]["games_per_s_3p"]["units"] == 2  # one game in each of 2 repeats
    assert data["repeats"] == 2 and data["work_per_repeat"] == 1
    assert data["skipped"] == {}  # the dev extra installs the learning environment's
    for key in ("python", "python_implementation", "machine", "platform", "cpu_count"):
        assert key in data["machine"]
    assert data["machine"]["python"] == ".".join(map(str, sys.version_info[:3]))


def test_bench_text_names_every_figure_and_goal() -> None:
    result = run("--work", "1", "--repeats", "1", "--only", "games_1p", "--only", "clones")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "1 player" in out and "2 players" not in out
    assert "at a round start" in out and "mid-round" in out
    assert "goal 3000: " in out and "goal 40000: " in out
    assert "over 1 repeats" in out
    assert result.stderr == ""


def test_compare_flags_a_planted_slowdown_and_only_it(saved: Path, tmp_path: Path) -> None:
    # A saved run edited by hand: one figure 20% faster than measured, so the same figures
    # measured again read as 20% slower; another 5% faster, inside the threshold.
    data = json.loads(saved.read_text(encoding="utf-8"))
    saved_medians = saved_figures(data)
    report = _report_from(data)
    planted = dict(saved_medians)
    planted["games_per_s_2p"] = saved_medians["games_per_s_2p"] / 0.8
    planted["determinizations_per_s"] = saved_medians["determinizations_per_s"] / 0.95
    changes = {c.name: c for c in compare(report, planted)}
    assert [n for n, c in changes.items() if c.slower] == ["games_per_s_2p"]
    assert changes["games_per_s_2p"].ratio == pytest.approx(0.8, abs=1e-3)
    assert not changes["determinizations_per_s"].slower
    assert len(changes) == len(FIGURES)
    # A stricter threshold catches the smaller one too.
    strict = [c.name for c in compare(report, planted, threshold=0.04) if c.slower]
    assert sorted(strict) == ["determinizations_per_s", "games_per_s_2p"]


def test_bench_compare_fails_against_a_run_far_faster(saved: Path, tmp_path: Path) -> None:
    data = json.loads(saved.read_text(encoding="utf-8"))
    data["figures"]["games_per_s_1p"]["median"] *= 1000  # planted: no machine is that noisy
    doctored = tmp_path / "faster.json"
    doctored.write_text(json.dumps(data), encoding="utf-8")
    result = run("--work", "1", "--repeats", "1", "--only", "games_1p", "--compare", str(doctored))
    assert result.returncode == 1
    assert "SLOWER" in result.stdout
    assert result.stderr.startswith(f"error: slower than {doctored}: games_per_s_1p -")
    assert "Traceback" not in result.stderr


def test_bench_compare_passes_against_a_run_far_slower(saved: Path, tmp_path: Path) -> None:
    data = json.loads(saved.read_text(encoding="utf-8"))
    data["figures"]["games_per_s_1p"]["median"] /= 1000
    doctored = tmp_path / "slower.json"
    doctored.write_text(json.dumps(data), encoding="utf-8")
    result = run("--work", "1", "--repeats", "1", "--only", "games_1p", "--compare", str(doctored))
    assert result.returncode == 0, result.stderr
    assert "games_per_s_1p" in result.stdout and "SLOWER" not in result.stdout


def _report_from(data: dict[str, object]) -> BenchReport:
    """A report whose figures are a saved run's medians (each a one-repeat sample)."""
    figures = []
    for name, entry in data["figures"].items():  # type: ignore[attr-defined]
        spec = FigureSpec(name, entry["unit"], entry["label"])
        figures.append(Figure(spec, entry["group"], (Sample(int(entry["median"] * 1000), 1000.0),)))
    return BenchReport(tuple(figures), 1, Budget(units=1))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--work", "0"), "error: --work must be at least 1, not 0"),
        (("--seconds", "0"), "error: --seconds must be positive, not 0.0"),
        (("--repeats", "0"), "error: --repeats must be at least 1, not 0"),
        (("--only", "warp"), "error: no figure group 'warp'; groups are "),
        (("--profile", "warp"), "error: no figure group 'warp'; groups are "),
        (
            ("--compare", "/nonexistent/run.json"),
            "error: /nonexistent/run.json: cannot read it: No such file or directory",
        ),
    ],
)
def test_bench_refuses_bad_options_in_one_line(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.returncode != 0
    assert result.stderr.startswith(message), result.stderr
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_a_file_that_is_not_text_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(b"\xff\xfe\x00\x81 not a bench run")
    result = run("--compare", str(path), "--only", "games_1p", "--work", "1", "-r", "1")
    assert result.returncode != 0
    assert result.stderr == f"error: {path}: not a saved bench run (not text)\n"


def test_a_file_that_is_not_a_saved_run_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.json"
    path.write_text('{"games_per_s_1p": 3}', encoding="utf-8")
    result = run("--compare", str(path))
    assert result.returncode != 0
    assert "not a saved bench run (no 'figures')" in result.stderr
    with pytest.raises(ValueError, match="has no median rate"):
        saved_figures({"figures": {"x": {"median": "fast"}}})


def test_bench_profile_lists_the_top_functions_with_shares() -> None:
    result = run("--json", "--profile", "games_1p", "--work", "2")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["group"] == "games_1p"
    own = data["by_own"]
    assert len(own) == 15
    assert [r["own_s"] for r in own] == sorted((r["own_s"] for r in own), reverse=True)
    assert 0 < sum(r["share"] for r in own) <= 1
    assert any("play_game" in r["function"] for r in data["by_cumulative"])


# -- the library ---------------------------------------------------------------------------------


def test_the_games_group_counts_what_it_plays() -> None:
    sample = measure_games(3)(Budget(units=4))["games_per_s_3p"]
    assert (sample.units, sample.problems) == (4, 0)
    assert sample.seconds > 0 and sample.rate > 0


def test_the_clones_group_times_both_cases_and_checks_every_clone() -> None:
    samples = measure_clones(Budget(units=6))
    start, mid = samples["clones_per_s_round_start"], samples["clones_per_s_mid_round"]
    assert start.units >= 6  # at least one round in each of the six games
    assert mid.units > 0
    assert start.problems == mid.problems == 0


def test_a_time_budget_does_at_least_one_unit() -> None:
    assert Budget(seconds=1e-9).more(0, 5.0)
    assert not Budget(seconds=1e-9).more(1, 5.0)
    assert Budget(units=3).more(2, 100.0) and not Budget(units=3).more(3, 0.0)
    with pytest.raises(ValueError):
        Budget(units=0)


def test_a_group_added_is_run_and_a_failed_check_is_reported() -> None:
    calls: list[Budget] = []

    def measure(budget: Budget) -> dict[str, Sample]:
        calls.append(budget)
        return {"widgets_per_s": Sample(10, 2.0, problems=1)}

    add_group(
        Group("widgets", "widgets", (FigureSpec("widgets_per_s", "widgets/s", "w"),), measure)
    )
    try:
        report = run_bench(groups=["widgets"], repeats=3, budget=Budget(units=1))
    finally:
        del GROUPS["widgets"]
    figure = report.figure("widgets_per_s")
    assert figure.rates == (5.0, 5.0, 5.0) and figure.median == 5.0
    assert figure.problems == report.problems == 3
    assert len(calls) == 4  # a warm-up, then three repeats


def test_profile_text_has_both_tables() -> None:
    lines = format_profile(profile("determinize", Budget(units=3), top=5))
    assert lines[1] == "top 5 functions by own time:"
    assert "top 5 functions by cumulative time:" in lines
    assert all(" at 0x" not in line for line in lines)


# -- a strategy's thinking time ------------------------------------------------------------------


def test_bench_decisions_times_every_decision_simulate_counts() -> None:
    times = bench_decisions("random", players=2, games=3, seed=7)
    summary = simulate(2, 3, 7, "random", bot_key=BENCH_BOT_KEY)
    assert len(times.times) == round(summary.mean_decisions * 3)
    assert times.wins == summary.wins
    assert list(times.times) == sorted(times.times)


def test_decision_time_quantiles_are_nearest_ranks() -> None:
    times = DecisionTimes("x", 1, 1, 0, tuple(float(t) for t in range(1, 11)), 0)
    assert (times.quantile(0.5), times.quantile(0.9), times.quantile(1.0)) == (5.0, 9.0, 10.0)
    data = times.to_dict()
    assert (data["median_ms"], data["p90_ms"], data["decisions"]) == (5000.0, 9000.0, 10)
    assert DecisionTimes("x", 1, 1, 0, (), 0).quantile(0.5) == 0.0


def test_bench_strategy_prints_decision_times() -> None:
    result = run("--strategy", "mcts:iterations=2", "--games", "1", "--seed", "3", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["strategy"] == "mcts:iterations=2"
    assert data["decisions"] > 0
    assert 0 < data["median_ms"] <= data["p90_ms"] <= data["max_ms"]
    text = run("--strategy", "random", "--games", "2", "-p", "3")
    assert text.returncode == 0, text.stderr
    assert "decisions of 'random': 2 game(s) of 3 player(s), seeds 0..1" in text.stdout
    assert "median" in text.stdout and "90th percentile" in text.stdout


def test_bench_strategy_refuses_an_unknown_strategy_in_one_line() -> None:
    result = run("--strategy", "oracle")
    assert result.returncode != 0
    assert "unknown strategy 'oracle'" in result.stderr
    assert "Traceback" not in result.stderr


def test_without_the_rl_extra_the_environment_group_is_skipped_in_one_line() -> None:
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "from deathangel.cli.app import main\n"
        "sys.argv = ['deathangel', 'bench', '--only', 'env_1p', '--only', 'games_1p',"
        " '--work', '1', '--repeats', '1', '--json']\n"
        "main()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert list(data["figures"]) == ["games_per_s_1p"]
    assert data["skipped"]["env_1p"].endswith("pip install 'deathangel[rl]'")
