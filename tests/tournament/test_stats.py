"""The tournament's statistics against numbers worked out by hand (each test shows its
working), and the sequential test's stopping points counted step by step."""

from __future__ import annotations

import math

import pytest

from deathangel.errors import DeathAngelError
from deathangel.plugins.strategies import StrategySpec
from deathangel.tournament.results import FAILED, LOST, WON, SprtTracker
from deathangel.tournament.stats import (
    PairTable,
    SprtCounter,
    SprtDesign,
    independent_difference,
    mcnemar_exact,
    mean_interval,
    paired_difference,
    sprt_walk,
    stratified_difference,
    wilson_interval,
)
from deathangel.tournament.tournament import Cell, Entry, TournamentConfig

# -- Wilson --------------------------------------------------------------------------------------


def test_wilson_interval_of_8_in_50_by_hand() -> None:
    # z = 1.959964, z² = 3.841459; p = 0.16, n = 50.
    # denominator 1 + z²/n = 1.0768292
    # centre (p + z²/2n) / denominator = (0.16 + 0.0384146) / 1.0768292 = 0.1842582
    # half z / denominator · √(p(1−p)/n + z²/4n²) = 1.8201267 · √(0.002688 + 0.0003841)
    #      = 1.8201267 · 0.0554264 = 0.1008840
    # interval 0.0833742 – 0.2851422
    lo, hi = wilson_interval(8, 50)
    assert lo == pytest.approx(0.0833742, abs=1e-6)
    assert hi == pytest.approx(0.2851422, abs=1e-6)


def test_wilson_interval_with_no_success_is_zero_to_z2_over_n_plus_z2() -> None:
    # At 0 successes the upper bound is z² / (n + z²) = 3.841459 / 13.841459 = 0.2775328.
    assert wilson_interval(0, 10) == (0.0, pytest.approx(0.2775328, abs=1e-6))


# -- two independent groups, and means ----------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:873-890, table II, method 10: the
        # published limits of his worked examples, to four decimals.
        ((56, 70), (48, 80), 0.0524, 0.3339),
        ((9, 10), (3, 10), 0.1705, 0.8090),
        ((6, 7), (2, 7), 0.0582, 0.8062),
        ((5, 56), (0, 29), -0.0381, 0.1926),
    ],
)
def test_independent_difference_matches_newcombes_examples(
    a: tuple[int, int], b: tuple[int, int], low: float, high: float
) -> None:
    d = independent_difference(*a, *b)
    assert d.difference == pytest.approx(a[0] / a[1] - b[0] / b[1])
    assert (round(d.low, 4), round(d.high, 4)) == (low, high)


def test_independent_difference_needs_games_in_both_groups() -> None:
    with pytest.raises(ValueError, match="needs games in both groups"):
        independent_difference(1, 5, 0, 0)


def test_stratified_difference_by_hand() -> None:
    # Stratum 1: 10/50 against 2/25, w = 50·25/75 = 16.666667, d = 0.2 − 0.08 = 0.12,
    #   v = 0.2·0.8/50 + 0.08·0.92/25 = 0.0032 + 0.002944 = 0.006144.
    # Stratum 2: 30/100 against 20/100, w = 100·100/200 = 50, d = 0.1,
    #   v = 0.3·0.7/100 + 0.2·0.8/100 = 0.0037.
    # d = (16.666667·0.12 + 50·0.1) / 66.666667 = 7 / 66.666667 = 0.105;
    # √(16.666667²·0.006144 + 50²·0.0037) = √(1.706667 + 9.25) = √10.956667 = 3.3100856;
    # half = 1.959964 · 3.3100856 / 66.666667 = 0.0973147.
    d = stratified_difference([(10, 50, 2, 25), (30, 100, 20, 100)])
    assert d.difference == pytest.approx(0.105)
    assert (d.low, d.high) == (
        pytest.approx(0.0076853, abs=1e-7),
        pytest.approx(0.2023147, abs=1e-7),
    )


def test_a_difference_between_strata_is_not_a_difference_between_groups() -> None:
    """Within each stratum A and B win equally often, but A is mostly in the stratum that
    wins more: pooled, A looks 15 points better; stratified, not at all."""
    strata = [(5, 50, 5, 50), (40, 100, 4, 10)]
    assert independent_difference(45, 150, 9, 60).difference == pytest.approx(0.15)
    assert stratified_difference(strata).difference == pytest.approx(0.0)
    # A stratum with an empty group says nothing.
    assert stratified_difference([*strata, (3, 7, 0, 0)]) == stratified_difference(strata)
    with pytest.raises(ValueError, match="a stratum with games in both groups"):
        stratified_difference([(1, 2, 0, 0)])


def test_mean_interval_by_hand() -> None:
    # 1, 2, 3, 4: mean 2.5; s² = (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3; s/√n = √(5/12)
    # = 0.6454972; half = 1.959964 · 0.6454972 = 1.2651513.
    m = mean_interval([1, 2, 3, 4])
    assert (m.mean, m.low, m.high) == (2.5, pytest.approx(1.2348487), pytest.approx(3.7651513))
    one = mean_interval([7])
    assert (one.mean, one.low, one.high) == (7, 7, 7)
    with pytest.raises(ValueError, match="at least one value"):
        mean_interval([])


# -- McNemar -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("only_a", "only_b", "expected"),
    [
        # 10 discordant pairs, the smaller side 2: P(X ≤ 2) = (1 + 10 + 45) / 1024 = 56/1024,
        # two-sided 112/1024.
        (2, 8, 112 / 1024),
        (8, 2, 112 / 1024),
        # 10 pairs, smaller side 3: (1 + 10 + 45 + 120) / 1024 = 176/1024, doubled 352/1024.
        (3, 7, 352 / 1024),
        # 5 pairs all one way: P(X = 0) = 1/32, doubled 1/16.
        (0, 5, 1 / 16),
        # A balanced split: 2 · P(X ≤ 5) = 2 · 638/1024 > 1, so 1.
        (5, 5, 1.0),
        # No discordant pair: no evidence either way.
        (0, 0, 1.0),
    ],
)
def test_mcnemar_exact_p_by_hand(only_a: int, only_b: int, expected: float) -> None:
    assert mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-12)


def test_mcnemar_beyond_the_exact_integer_limit_matches_the_integer_sum() -> None:
    # 30,000 discordant pairs is past the exact-integer path; the tail is summed here in
    # integers (each coefficient from the one before, C(n, i+1) = C(n, i)·(n−i)/(i+1),
    # checked against math.comb at the end) and compared.
    n, k = 30_000, 14_700
    term = tail = 1
    for i in range(k):
        term = term * (n - i) // (i + 1)
        tail += term
    assert term == math.comb(n, k)
    expected = 2 * tail / 2**n
    assert mcnemar_exact(k, n - k) == pytest.approx(expected, rel=1e-9)


def test_mcnemar_refuses_negative_counts() -> None:
    with pytest.raises(ValueError, match="negative"):
        mcnemar_exact(-1, 3)


# -- Newcombe's paired interval ------------------------------------------------------------------


def test_paired_difference_by_hand_with_positive_correlation() -> None:
    # both 5, only A 3, only B 9, neither 33: n = 50, p_A = 8/50 = 0.16, p_B = 14/50 = 0.28,
    # d = 0.12.
    # Wilson: A 0.0833742 – 0.2851422, B 0.1747417 – 0.4166512.
    # Cross product 5·33 − 3·9 = 138 > n/2 = 25, so φ = (138 − 25) / √(8·42·14·36)
    #   = 113 / 411.5143 = 0.2745956.
    # Below: p_B − l_B = 0.1052583, u_A − p_A = 0.1251422;
    #   low = 0.12 − √(0.1052583² − 2·0.2745956·0.1052583·0.1251422 + 0.1251422²)
    #       = 0.12 − √(0.0110793 − 0.0072340 + 0.0156606) = 0.12 − 0.1396631 = −0.0196631
    # Above: u_B − p_B = 0.1366512, p_A − l_A = 0.0766258;
    #   high = 0.12 + √(0.1366512² − 2·0.2745956·0.1366512·0.0766258 + 0.0766258²)
    #        = 0.12 + √(0.0186736 − 0.0057507 + 0.0058715) = 0.12 + 0.1370930 = 0.2570930
    result = paired_difference(PairTable(both=5, only_a=3, only_b=9, neither=33))
    assert result.difference == pytest.approx(0.12)
    assert result.low == pytest.approx(-0.0196631, abs=1e-6)
    assert result.high == pytest.approx(0.2570930, abs=1e-6)


def test_paired_difference_by_hand_with_a_cross_product_between_half_n_and_n() -> None:
    # both 4, only A 3, only B 5, neither 8: n = 20, p_A = 7/20 = 0.35, p_B = 9/20 = 0.45,
    # d = 0.10. The cross product 4·8 − 3·5 = 17 lies in (n/2, n] = (10, 20]: Newcombe's
    # shrinking still applies (a cut at n instead of n/2 would give φ = 0 here).
    # Wilson (z² = 3.8414588, denominator 1 + z²/20 = 1.1920729):
    #   A: centre (0.35 + 0.0960365) / 1.1920729 = 0.3741688,
    #      half 1.6441645 · √(0.35·0.65/20 + 0.0024009) = 1.6441645 · 0.1173708 = 0.1929769,
    #      so 0.1811918 – 0.5671457;
    #   B: centre (0.45 + 0.0960365) / 1.1920729 = 0.4580563,
    #      half 1.6441645 · √(0.45·0.55/20 + 0.0024009) = 1.6441645 · 0.1215562 = 0.1998584,
    #      so 0.2581979 – 0.6579147.
    # φ = (17 − 10) / √(7·13·9·11) = 7 / √9009 = 7 / 94.9157521 = 0.0737496.
    # Below: p_B − l_B = 0.1918021, u_A − p_A = 0.2171457;
    #   low = 0.10 − √(0.0367881 − 2·0.0737496·0.1918021·0.2171457 + 0.0471523)
    #       = 0.10 − √(0.0367881 − 0.0061432 + 0.0471523) = 0.10 − 0.2789214 = −0.1789214
    # Above: u_B − p_B = 0.2079147, p_A − l_A = 0.1688082;
    #   high = 0.10 + √(0.0432285 − 2·0.0737496·0.2079147·0.1688082 + 0.0284962)
    #        = 0.10 + √(0.0432285 − 0.0051769 + 0.0284962) = 0.10 + 0.2579686 = 0.3579686
    result = paired_difference(PairTable(both=4, only_a=3, only_b=5, neither=8))
    assert result.difference == pytest.approx(0.10)
    assert result.low == pytest.approx(-0.1789214, abs=1e-6)
    assert result.high == pytest.approx(0.3579686, abs=1e-6)


def test_paired_difference_by_hand_with_negative_correlation() -> None:
    # both 0, only A 10, only B 4, neither 6: n = 20, p_A = 0.5, p_B = 0.2, d = −0.3.
    # Wilson: A 0.2992980 – 0.7007020, B 0.0806577 – 0.4160174.
    # Cross product 0·6 − 10·4 = −40 < 0: φ = −40 / √(10·10·4·16) = −40/80 = −0.5.
    # low  = −0.3 − √(0.1193423² + 0.1193423·0.2007020 + 0.2007020²) = −0.5801359
    # high = −0.3 + √(0.2160174² + 0.2160174·0.2007020 + 0.2007020²) = 0.0609708
    result = paired_difference(PairTable(both=0, only_a=10, only_b=4, neither=6))
    assert result.difference == pytest.approx(-0.3)
    assert result.low == pytest.approx(-0.5801359, abs=1e-6)
    assert result.high == pytest.approx(0.0609708, abs=1e-6)


def test_paired_difference_with_identical_outcomes_is_centred_on_zero() -> None:
    # Every pair concordant: the difference is exactly 0 and the interval symmetric.
    result = paired_difference(PairTable(both=3, only_a=0, only_b=0, neither=17))
    assert result.difference == 0.0
    assert result.low == pytest.approx(-result.high)
    assert result.low < 0 < result.high


def test_pair_table_counts_the_four_boxes() -> None:
    outcomes = [(True, True), (True, False), (False, True), (False, True), (False, False)]
    assert PairTable.count(outcomes) == PairTable(both=1, only_a=1, only_b=2, neither=1)


# -- SPRT ----------------------------------------------------------------------------------------

DESIGN = SprtDesign(p0=0.5, p1=0.7, alpha=0.05, beta=0.05)
# Bounds ±ln(0.95/0.05) = ±ln 19 = ±2.9444390. A discordant pair B won adds ln(0.7/0.5) =
# ln 1.4 = 0.33647224; one A won adds ln(0.3/0.5) = ln 0.6 = −0.51082562.


def test_sprt_bounds_and_steps_by_hand() -> None:
    assert DESIGN.upper == pytest.approx(2.944439, abs=1e-6)
    assert DESIGN.lower == pytest.approx(-2.944439, abs=1e-6)
    assert DESIGN.llr(1, 0) == pytest.approx(0.336472, abs=1e-6)
    assert DESIGN.llr(0, 1) == pytest.approx(-0.510826, abs=1e-6)


def test_sprt_decides_h1_at_the_ninth_discordant_win_for_b() -> None:
    # 8 · 0.33647224 = 2.6917779 < 2.9444390 ≤ 9 · 0.33647224 = 3.0282502: H1 at the 9th.
    # Concordant pairs between them add nothing but count as pairs read.
    pairs = [(False, True), (True, True), (False, False)] * 12
    result = sprt_walk(DESIGN, pairs)
    assert result.decision == "H1"
    assert result.discordant == 9
    assert result.b_wins == 9
    assert result.pairs == 25  # the 9th discordant pair is pair 1 + 8·3 = 25
    assert result.llr == pytest.approx(3.0282502, abs=1e-6)


def test_sprt_decides_h0_at_the_sixth_discordant_win_for_a() -> None:
    # 5 · −0.51082562 = −2.5541281 > −2.9444390 ≥ 6 · −0.51082562 = −3.0649537: H0 at the 6th.
    result = sprt_walk(DESIGN, [(True, False)] * 20)
    assert (result.decision, result.pairs, result.b_wins) == ("H0", 6, 0)
    assert result.llr == pytest.approx(-3.0649537, abs=1e-6)


def test_sprt_mixed_sequence_by_hand() -> None:
    # B, B, A, B, B, B, A, B, B, B, B, B ...: after b B-wins and a A-wins the ratio is
    # 0.336472·b − 0.510826·a. With a = 2 it reaches 2.944439 when 0.336472·b ≥ 3.966091,
    # b ≥ 11.79, so at b = 12: the 14th discordant pair.
    sequence = "BBABBBABBBBBBBBBBB"
    pairs = [(c == "A", c == "B") for c in sequence]
    result = sprt_walk(DESIGN, pairs)
    assert (result.decision, result.discordant, result.b_wins) == ("H1", 14, 12)


def test_sprt_without_enough_evidence_is_undecided() -> None:
    result = sprt_walk(DESIGN, [(True, False), (False, True)] * 10 + [(True, True)] * 5)
    assert result.decision is None
    assert result.pairs == 25
    # 10 B-wins and 10 A-wins: 10 · (0.33647224 − 0.51082562) = −1.7435338.
    assert result.llr == pytest.approx(-1.7435338, abs=1e-6)


def test_sprt_counter_stops_counting_once_decided() -> None:
    counter = SprtCounter(DESIGN)
    for _ in range(6):
        counter.add(True, False)
    assert counter.decision == "H0"
    counter.add(False, True)
    assert (counter.pairs, counter.discordant) == (6, 6)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"p0": 0.5, "p1": 0.5}, "must differ"),
        ({"p0": 0.0, "p1": 0.6}, "p0 must lie strictly between 0 and 1"),
        ({"p0": 0.5, "p1": 1.0}, "p1 must lie strictly between 0 and 1"),
        ({"p0": 0.5, "p1": 0.6, "alpha": 0.5}, "alpha must lie strictly between 0 and 0.5"),
        ({"p0": 0.5, "p1": 0.6, "beta": 0.0}, "beta must lie strictly between 0 and 0.5"),
    ],
)
def test_a_meaningless_sprt_design_is_refused(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(DeathAngelError, match=message):
        SprtDesign(**kwargs)


# -- the SPRT over stored games: fixed order, failures skipped, stops at a gap -------------------


def _config(cells: list[Cell], games: int) -> TournamentConfig:
    spec = StrategySpec("random", {}, "random")
    return TournamentConfig(
        games,
        0,
        tuple(cells),
        (Entry("a", (spec,)), Entry("b", (spec,), salt=1)),
        DESIGN,
    )


def test_the_stored_sprt_reads_game_index_then_cell_and_skips_failed_pairs() -> None:
    c1, c2 = Cell(1), Cell(2)
    config = _config([c1, c2], 12)
    states = {key: bytearray(12) for key in [(c1, "a"), (c1, "b"), (c2, "a"), (c2, "b")]}
    # Cell 1: B wins every game; cell 2: A wins game 0 and B fails game 1, then nothing.
    for k in range(12):
        states[c1, "a"][k], states[c1, "b"][k] = LOST, WON
    states[c2, "a"][0], states[c2, "b"][0] = WON, LOST
    states[c2, "a"][1], states[c2, "b"][1] = WON, FAILED
    tracker = SprtTracker(config, states)
    result = tracker.advance()
    # Read order: (0,c1) B, (0,c2) A, (1,c1) B, (1,c2) failed: skipped, (2,c1) B, then
    # (2,c2) is not stored: stop there. 3 B-wins, 1 A-win, 4 pairs read.
    assert result.decision is None
    assert (result.pairs, result.discordant, result.b_wins) == (4, 4, 3)
    # Cell 2 goes on: B wins from game 2 on; the test reads on from where it stopped.
    for k in range(2, 12):
        states[c2, "a"][k], states[c2, "b"][k] = LOST, WON
    result = tracker.advance()
    # With one A-win, H1 needs 0.336472·b − 0.510826 ≥ 2.944439: b ≥ 10.27, the 11th B-win.
    # B-wins in reading order: (0,c1) (1,c1) (2,c1) (2,c2) (3,c1) (3,c2) (4,c1) (4,c2)
    # (5,c1) (5,c2) (6,c1); with the A-win at (0,c2) that is pair number 12.
    assert (result.decision, result.b_wins, result.pairs) == ("H1", 11, 12)
