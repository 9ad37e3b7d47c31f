"""The statistics for many runs (readsim.core.paired_statistics, reference 12.1): the randomised
Tukey HSD on hand-worked cases and against an independent implementation on the five real runs,
the Benjamini-Hochberg, Holm and Bonferroni corrections by hand and against statsmodels, and the
confidence interval of every pair's mean difference (t by hand, bootstrap against scipy)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from readsim.core.paired_statistics import _rng_argument, adjust, measure_generator, settle
from readsim.core.run_comparison import compare_runs

AGP = "AgP/F(0.25)"


# -- Benjamini-Hochberg, Holm, Bonferroni --------------------------------------------------------


def test_benjamini_hochberg_by_hand():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4/1, 4/2, 4/3, 4/4: 0.02, 0.02, 0.04, 0.04; each the smallest of itself
    # and every later one: unchanged
    assert adjust(np.array([0.01, 0.04, 0.03, 0.005]), "bh").tolist() == pytest.approx([0.02, 0.04, 0.04, 0.02])
    # sorted 0.01, 0.02, 0.9 times 3, 3/2, 1: 0.03, 0.03, 0.9
    assert adjust(np.array([0.9, 0.02, 0.01]), "bh").tolist() == pytest.approx([0.9, 0.03, 0.03])
    # 0.04 x 2 = 0.08 is held down by the larger p 0.05 x 1 = 0.05 (step-up)
    assert adjust(np.array([0.04, 0.05]), "bh").tolist() == pytest.approx([0.05, 0.05])
    assert adjust(np.array([0.6, 0.7]), "bh").tolist() == pytest.approx([0.7, 0.7])
    got = adjust(np.array([np.nan, 0.01, 0.03]), "bh")  # NaN stays NaN and is not counted: m = 2
    assert np.isnan(got[0]) and got[1:].tolist() == pytest.approx([0.02, 0.03])


@pytest.mark.parametrize("ours, theirs", [("bh", "fdr_bh"), ("holm", "holm"), ("bonferroni", "bonferroni")])
def test_corrections_equal_statsmodels_multipletests(ours, theirs):
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(11)
    families = [rng.uniform(0, 0.2, size=m) for m in (1, 2, 10, 45, 190)]
    families += [np.array([0.01, 0.01, 0.03, 0.03, 0.5]), np.array([0.0, 1.0, 0.2]), rng.uniform(0, 1, 300)]
    for p in families:
        want = multipletests(p, method=theirs)[1]
        assert adjust(p, ours) == pytest.approx(want, abs=1e-15), (ours, p)


def test_bh_in_a_comparison_counts_the_pairs_it_makes_significant():
    # t-test p of the three_runs pairs: good > mid 0.0918, mid > bad 0.0286, good > bad 0 (t2_one_tailed
    # in test_run_comparison.py); BH: 0 x 3, 0.0286 x 3/2 = 0.0429, 0.0918 x 3/3: two significant
    x = np.array([[[1.0, 1.0, 1.0], [0.5, 1.0, 0.5], [0.0, 0.0, 0.0]]])
    c = compare_runs(x, ["good", "mid", "bad"], [AGP], test="t", correction="bh")
    mid_bad = 0.5 - 4 / (2 * math.sqrt(18))
    assert c.p_adjusted[0, 1, 2] == pytest.approx(1.5 * mid_bad) and c.significant_count(0) == (2, 3)


# -- intervals of the pairs' mean differences ------------------------------------------------------


def four_topics() -> np.ndarray:
    # a - b = (0.3, 0.2, 0.2, -0.1); b - c = (0.1, 0.1, 0.4, 0.4)
    return np.array([[[0.5, 0.3, 0.8, 0.4], [0.2, 0.1, 0.6, 0.5], [0.1, 0.0, 0.2, 0.1]]])


@pytest.mark.parametrize("test", ["t", "randomization", "tukey"])
def test_t_interval_of_a_pairs_difference_by_hand(test):
    # a - b: mean 0.15; deviations 0.15, 0.05, 0.05, -0.25, squares summing to 0.09; sd = sqrt(0.09 / 3)
    # = 0.173205; standard error 0.173205 / 2 = 0.0866025; t(0.975, 3 df) = 3.182446 (the t table):
    # half-width 0.275608
    c = compare_runs(four_topics(), list("abc"), [AGP], test=test)
    (ab,) = [p for p in c.pairs(0) if (p.better, p.worse) == (0, 1)]
    assert (ab.ci_low, ab.ci_high) == pytest.approx((0.15 - 0.275608, 0.15 + 0.275608), abs=1e-6)
    assert c.diff_ci[0, 1, 0].tolist() == pytest.approx([-0.15 - 0.275608, -0.15 + 0.275608], abs=1e-6)
    # b - c: mean 0.25, deviations +-0.15, sd = sqrt(0.09 / 3), the same half-width
    assert c.diff_ci[0, 1, 2].tolist() == pytest.approx([0.25 - 0.275608, 0.25 + 0.275608], abs=1e-6)
    assert c.diff_ci[0, 0, 0].tolist() == [0.0, 0.0]
    # alpha 0.1: t(0.95, 3 df) = 2.353363, half-width 0.203807
    c = compare_runs(four_topics(), list("abc"), [AGP], test=test, alpha=0.1)
    assert c.diff_ci[0, 0, 1].tolist() == pytest.approx([0.15 - 0.203807, 0.15 + 0.203807], abs=1e-6)


def test_an_effort_measures_pair_interval_is_oriented_as_its_difference():
    # ANCE lower is better: b's values are lower, so b is ranked first and b - a is +0.15 (oriented)
    x = -four_topics()[:, :2]
    c = compare_runs(x, ["a", "b"], ["ANCE@600/LE(300)"], test="t")
    (pair,) = c.pairs(0)
    assert (pair.better, pair.diff) == (0, pytest.approx(0.15))
    assert (pair.ci_low, pair.ci_high) == pytest.approx((0.15 - 0.275608, 0.15 + 0.275608), abs=1e-6)


def test_bootstrap_interval_of_a_pairs_difference_by_hand():
    # differences (1, 0): a resample's mean difference is 0, 1/2 or 1 with chances 1/4, 1/2, 1/4; a 10%
    # interval (alpha 0.9) runs from the 45th to the 55th percentile: both 1/2
    c = compare_runs(np.array([[[1.0, 0.0], [0.0, 0.0]]]), ["a", "b"], [AGP], resamples=20_000, alpha=0.9)
    assert c.pairs(0)[0].ci_low == 0.5 and c.pairs(0)[0].ci_high == 0.5
    # differences all 1: every resample's mean difference is 1
    c = compare_runs(np.array([[[1.0, 2.0, 1.5], [0.0, 1.0, 0.5]]]), ["a", "b"], [AGP], resamples=200)
    assert c.diff_ci[0, 0, 1].tolist() == [1.0, 1.0] and c.diff_ci[0, 1, 0].tolist() == [-1.0, -1.0]


def test_bootstrap_pair_intervals_equal_scipy_on_each_pairs_differences():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 5, size=(1, 5, 12)) / 4 + np.linspace(0, 0.5, 5)[None, :, None].round(2)
    c = compare_runs(x, list("abcde"), [AGP], resamples=300, seed=7, alpha=0.1)
    a, b = np.triu_indices(5, 1)
    better, worse = c.order[0][a], c.order[0][b]
    d = settle(x[0])[better] - settle(x[0])[worse]
    res = stats.bootstrap((d,), np.mean, n_resamples=300, vectorized=True, axis=-1, method="percentile",
                          confidence_level=0.9, **_rng_argument(measure_generator(7, AGP)))
    assert c.diff_ci[0, better, worse, 0] == pytest.approx(res.confidence_interval.low, abs=1e-12)
    assert c.diff_ci[0, better, worse, 1] == pytest.approx(res.confidence_interval.high, abs=1e-12)


# -- the randomised Tukey HSD ---------------------------------------------------------------------


def test_tukey_hsd_by_hand():
    # three runs, two topics, each topic (1, 0, 0). A trial shuffles each topic's values across the runs:
    # the 1s land on the same run with chance 1/3 (means (1, 0, 0): range 1), else on two runs (range 1/2).
    # a - b = 1: p = 1/3; b - c = 0: every range reaches it, p = 1
    x = np.array([[[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]])
    c = compare_runs(x, list("abc"), [AGP], test="tukey", resamples=30_000, seed=1)
    three_se = 3 * math.sqrt(1 / 3 * 2 / 3 / 30_000)
    assert c.p[0, 0, 1] == pytest.approx(1 / 3, abs=three_se) and c.p[0, 0, 2] == c.p[0, 0, 1]
    assert c.p[0, 1, 2] == 1.0 and not c.significant[0, 1, 2]


def test_tukey_hsd_counts_the_observed_assignment():
    # run a scores 1 on 12 topics, b and c 0: a trial's range reaches 1 only when all twelve 1s land on one
    # run (chance 3 / 3^12 = 5.6e-6): in 200 trials none does, and p = (0 + 1) / (200 + 1), never 0
    x = np.array([[[1.0] * 12, [0.0] * 12, [0.0] * 12]])
    c = compare_runs(x, list("abc"), [AGP], test="tukey", resamples=200)
    assert c.p[0, 0, 1] == c.p[0, 0, 2] == 1 / 201
    assert c.significant[0, 0, 1] and c.significant_count(0) == (2, 3)


def tukey_by_loops(values: np.ndarray, trials: int, generator: np.random.Generator) -> dict:
    """The randomised Tukey HSD written again with plain loops, one trial, one topic at a time: each
    topic's runs ordered by ``n`` uniform numbers (drawn trial by trial, topic by topic, as the vectorised
    version draws them), each run's sum kept, the range of the means compared with every pair's
    observed difference. Returns ``{(i, j): p}`` for i < j."""
    n, t = values.shape
    means = [sum(values[i]) / t for i in range(n)]
    pairs = list(itertools.combinations(range(n), 2))
    reached = dict.fromkeys(pairs, 0)
    for _ in range(trials):
        sums = [0.0] * n
        for topic in range(t):
            u = generator.random(n)
            shuffle = sorted(range(n), key=lambda r: u[r])
            for run in range(n):
                sums[run] += values[shuffle[run], topic]
        spread = (max(sums) - min(sums)) / t
        for i, j in pairs:
            if spread >= abs(means[i] - means[j]) - 1e-9:
                reached[(i, j)] += 1
    return {pair: (count + 1) / (trials + 1) for pair, count in reached.items()}


def hsd_p(c, i: int, j: int) -> float:
    return float(np.nanmax([c.p[0, i, j], c.p[0, j, i]]))


def test_tukey_hsd_equals_loops_on_a_grid():
    """Mid-range p-values (the grid's runs are close): the loops and the vectorised code, same seed."""
    rng = np.random.default_rng(2)
    x = rng.integers(0, 5, size=(1, 4, 9)) / 4
    c = compare_runs(x, list("abcd"), [AGP], test="tukey", resamples=400, seed=9)
    want = tukey_by_loops(settle(x[0]), 400, measure_generator(9, AGP))
    assert {pair: hsd_p(c, *pair) for pair in want} == want
    assert any(0.05 < p < 0.95 for p in want.values())


@pytest.fixture(scope="module")
def real_scores(inex):
    """Per-topic AgP/F(0.25) and MAiP of the five real runs on their 118 shared topics, ``(2, 5, 118)``."""
    import readsim

    runs = sorted((inex / "runs").glob("*.run"))
    with pytest.warns(readsim.InputWarning):
        c = readsim.compare(inex / "qrels" / "inex2009-2010.qrels", runs, [AGP, "MAiP"], test="t")
    assert c.engine.scores.shape == (2, 5, 118)
    return c.engine.scores


def test_tukey_hsd_on_the_five_real_runs_same_seed_same_p_as_loops(real_scores):
    """Same seed, same p-values, exactly: the loops draw the same uniform numbers in the same order
    (trial, topic, run; a numpy Generator's ``random((b, t, n))`` is ``b * t`` calls of ``random(n)``)
    and order each topic's runs by them as ``argsort`` does (the numbers never tie), so any difference
    would be a difference of the procedure, not of luck."""
    c = compare_runs(real_scores, [f"r{i}" for i in range(5)], [AGP, "MAiP"], test="tukey", resamples=150, seed=4)
    for k, name in enumerate((AGP, "MAiP")):
        want = tukey_by_loops(settle(real_scores[k]), 150, measure_generator(4, name))
        sub = compare_runs(real_scores[k:k + 1], c.runs, [name], test="tukey", resamples=150, seed=4)
        assert {pair: hsd_p(sub, *pair) for pair in want} == want
        assert np.array_equal(c.p[k], sub.p[0], equal_nan=True)  # a measure's numbers are its own


def test_tukey_hsd_on_the_five_real_runs_other_seeds_within_monte_carlo_error(real_scores):
    """Different seeds draw different trials: the loops (seed 1, 300 trials) and the vectorised code
    (seed 2, 3,000 trials) estimate the same p-values, so they agree within 3 standard errors of the
    difference of two shares, sqrt(p (1 - p) (1/300 + 1/3000)), plus the 1/301 the "+1" may add."""
    c = compare_runs(real_scores, [f"r{i}" for i in range(5)], [AGP, "MAiP"], test="tukey", resamples=3000, seed=2)
    mid = 0
    for k, name in enumerate((AGP, "MAiP")):
        loops = tukey_by_loops(settle(real_scores[k]), 300, np.random.default_rng(1))
        for (i, j), p in loops.items():
            q = hsd_p(c, i, j) if k == 0 else float(np.nanmax([c.p[1, i, j], c.p[1, j, i]]))
            pooled = (p * 300 + q * 3000) / 3300
            allowed = 3 * math.sqrt(pooled * (1 - pooled) * (1 / 300 + 1 / 3000)) + 1 / 301
            assert abs(p - q) <= allowed, (name, i, j, p, q)
            mid += 0.01 < q < 0.99
    assert mid >= 3  # some pairs are neither clearly different nor clearly alike
