"""Comparing runs (readsim.core.run_comparison): each statistic's plumbing on hand-worked cases (which pairs,
which direction, which topics are paired, a run missing a topic), the corrections, effect
sizes, correlations, reproducibility with a seed, and the shortcuts checked against scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from readsim.core.paired_statistics import CORRECTIONS, _rng_argument, adjust, measure_generator, settle
from readsim.core.run_comparison import Comparison, compare_evaluations, compare_runs, score_matrix
from readsim.core.formats import Judgement, Qrels, Run, RunArticle
from readsim.core.listmeasures import Evaluation, evaluate
from readsim.core.measure import parse_list_measure

AGP = "AgP/F(0.25)"
ANCE = "ANCE@600/LE(300)"


def t2_one_tailed(t: float) -> float:
    """P(T > t) for Student's t with 2 degrees of freedom, in closed form:
    F(t) = 1/2 + t / (2 sqrt(2 + t^2))."""
    return 0.5 - t / (2 * math.sqrt(2 + t * t))


def evaluation(run_id: str, values: dict[str, float], measure: str = AGP) -> Evaluation:
    topics = sorted(values)
    m = parse_list_measure(measure)
    return Evaluation(run_id, [m], topics, {measure: dict(values)}, {measure: sum(values.values()) / len(values)})


# -- pairing by topic (policy 1) -------------------------------------------------------------------


def test_only_the_topics_every_run_has_are_paired():
    a = evaluation("a", {"1": 0.5, "2": 0.25, "3": 1.0})
    b = evaluation("b", {"1": 0.0, "2": 0.75})
    scores, topics, left_out = score_matrix([a, b], [AGP])
    assert topics == ["1", "2"] and left_out == ["3"]
    assert scores.tolist() == [[[0.5, 0.25], [0.0, 0.75]]]
    c = compare_evaluations([a, b], [AGP], test="t")
    assert c.topics == ["1", "2"] and c.left_out == ["3"]
    assert c.means[0].tolist() == [0.375, 0.375]  # a's topic 3 is not in its paired mean


def qrels_one_relevant(topics) -> Qrels:
    """Each topic judges article 'a' relevant: [0, 10) of 100."""
    q = Qrels("q")
    for t in topics:
        q.topics[t] = {"a": Judgement(t, "a", 10, 100, None, np.array([[0, 10]], dtype=np.int64), 1)}
    return q


def run_of(run_id: str, topics: dict[str, list[str]]) -> Run:
    """Each listed article retrieves [0, 10) (exactly the relevant text of 'a')."""
    run = Run(run_id, run_id)
    for t, arts in topics.items():
        run.topics[t] = [RunArticle(a, i + 1, np.array([[0, 10]], dtype=np.int64), [], 0) for i, a in enumerate(arts)]
    return run


def test_a_run_missing_a_topic_with_and_without_c():
    q = qrels_one_relevant(["1", "2", "3"])
    m = [parse_list_measure(AGP)]
    full = run_of("full", {"1": ["a"], "2": ["x", "a"], "3": ["a"]})  # AgP 1, 1/2, 1
    part = run_of("part", {"1": ["x", "a"], "2": ["a"]})  # AgP 1/2, 1; topic 3 missing
    # without -c: topics 1 and 2 only; differences full - part = (1/2, -1/2): a tie on average
    c = compare_evaluations([evaluate(q, full, m), evaluate(q, part, m)], m, test="t")
    assert c.topics == ["1", "2"] and c.left_out == ["3"]
    assert c.means[0].tolist() == [0.75, 0.75]
    assert c.wins[0].tolist() == [[0, 1], [1, 0]]
    # with -c: topic 3 is an empty ranking for part (0): differences (1/2, -1/2, 1)
    c = compare_evaluations([evaluate(q, full, m, complete=True), evaluate(q, part, m, complete=True)], m, test="t")
    assert c.topics == ["1", "2", "3"] and c.left_out == []
    assert c.means[0].tolist() == pytest.approx([2.5 / 3, 1.5 / 3])
    assert c.diff[0, 0, 1] == pytest.approx(1 / 3) and c.wins[0, 0, 1] == 2 and c.wins[0, 1, 0] == 1


# -- direction and which pairs (policy 4) ----------------------------------------------------------


def test_runs_are_ranked_and_tested_from_the_better_one():
    # run 0 worst, run 2 best; the input order is not the ranking
    scores = np.array([[[0.1, 0.2, 0.3], [0.5, 0.5, 0.6], [0.9, 0.8, 0.9]]])
    c = compare_runs(scores, ["low", "mid", "high"], [AGP], test="t")
    assert c.order[0].tolist() == [2, 1, 0] and c.rank[0].tolist() == [3, 2, 1]
    assert [(p.better, p.worse) for p in c.pairs(0)] == [(2, 1), (2, 0), (1, 0)]
    assert [(p.better, p.worse) for p in c.neighbours(0)] == [(2, 1), (1, 0)]
    tested = ~np.isnan(c.p[0])
    assert tested.tolist() == [[False, False, False], [True, False, False], [True, True, False]]
    # high - low = (0.8, 0.6, 0.6): mean 2/3
    assert (c.diff[0] == -c.diff[0].T).all() and c.diff[0, 2, 0] == pytest.approx(2 / 3)


def test_lower_is_better_measures_are_negated():
    # ANCE: lower is better. run b has the lower effort on every topic: b is ranked first
    scores = np.array([[[3.0, 4.0, 5.0], [1.0, 2.0, 4.0]]])
    c = compare_runs(scores, ["a", "b"], [ANCE], test="t")
    assert c.lower_is_better.tolist() == [True]
    assert c.order[0].tolist() == [1, 0]
    assert c.means[0].tolist() == [4.0, pytest.approx(7 / 3)]  # printed in the measure's own direction
    (pair,) = c.pairs(0)
    assert (pair.better, pair.worse, pair.wins, pair.ties, pair.losses) == (1, 0, 3, 0, 0)
    assert pair.diff == pytest.approx(5 / 3)  # positive: b is better by 5/3 on average
    # differences (2, 2, 1): mean 5/3, sd 1/sqrt(3) -> t = (5/3) / (1/3) = 5
    assert pair.p == pytest.approx(t2_one_tailed(5.0), abs=1e-12)
    # and the interval is in the measure's direction: low <= mean <= high
    assert (c.ci[0, :, 0] <= c.means[0]).all() and (c.means[0] <= c.ci[0, :, 1]).all()


def test_ties_and_floating_point_noise():
    # 0.1 + 0.2 != 0.3 in binary: still a tie on that topic (policy 3)
    scores = np.array([[[0.1 + 0.2, 0.5], [0.3, 0.5]]])
    c = compare_runs(scores, ["a", "b"], [AGP], test="bootstrap", resamples=50)
    assert c.wins[0].tolist() == [[0, 0], [0, 0]]
    assert c.diff[0, 0, 1] == 0.0 and c.effect[0, 0, 1] == 0.0
    assert c.p[0, 0, 1] == 1.0 and not c.significant.any()
    assert c.order[0].tolist() == [0, 1]  # equal means keep the input order
    assert settle(np.array([-1e-17]))[0] == 0.0 and math.copysign(1, settle(np.array([-1e-17]))[0]) == 1


# -- the tests' numbers, hand-worked ---------------------------------------------------------------


def test_paired_t_test_and_cohens_d():
    # differences a - b = (1, 2, 3): mean 2, sd 1, t = 2 / (1 / sqrt 3) = 2 sqrt 3, 2 df
    a, b = [3.0, 4.0, 5.0], [2.0, 2.0, 2.0]
    c = compare_runs(np.array([[a, b]]), ["a", "b"], [AGP], test="t")
    (pair,) = c.pairs(0)
    assert pair.diff == 2.0 and pair.effect == pytest.approx(2.0)
    assert pair.p == pytest.approx(t2_one_tailed(2 * math.sqrt(3)), abs=1e-12)  # 0.0371
    assert pair.significant and c.significant_count(0) == (1, 1)
    # the t interval of a's mean: 4 +- q * 1 / sqrt 3 with q the 0.975 quantile of t with 2 df:
    # F(q) = 0.975 <=> q / (2 sqrt(2 + q^2)) = 0.475 <=> q^2 = 2 * 0.95^2 / (1 - 0.95^2) (q = 4.303)
    q = math.sqrt(2 * 0.95**2 / (1 - 0.95**2))
    assert c.ci[0, 0].tolist() == pytest.approx([4 - q / math.sqrt(3), 4 + q / math.sqrt(3)])
    assert c.ci[0, 1].tolist() == [2.0, 2.0]  # the same value on every topic


def test_bootstrap_p_is_the_share_of_resampled_differences_at_or_below_zero():
    # differences (1, 0): a resample's mean is <= 0 only when both draws are the 0 topic: 1/4
    c = compare_runs(np.array([[[1.0, 0.0], [0.0, 0.0]]]), ["a", "b"], [AGP], resamples=40_000)
    assert c.p[0, 0, 1] == pytest.approx(0.25, abs=0.01) and not c.significant[0, 0, 1]
    # differences (1, 1, 1): every resampled mean is 1: p = 0, significant
    c = compare_runs(np.array([[[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]]), ["a", "b"], [AGP], resamples=100)
    assert c.p[0, 0, 1] == 0.0 and c.significant[0, 0, 1]
    assert c.ci[0, 0].tolist() == [1.0, 1.0]


def test_bootstrap_interval_is_the_percentile_interval_of_the_resampled_means():
    # values (0, 1): the resampled mean is 0, 1/2 or 1 with chances 1/4, 1/2, 1/4; a 10% interval
    # (alpha 0.9) runs from the 45th to the 55th percentile of those: both 1/2
    c = compare_runs(np.array([[[0.0, 1.0], [0.0, 0.0]]]), ["a", "b"], [AGP], resamples=20_000, alpha=0.9)
    assert c.ci[0, 0].tolist() == [0.5, 0.5]


def test_randomization_test_exact_when_every_sign_pattern_fits():
    # 3 topics, differences (1, 2, 3): 2^3 = 8 sign patterns <= 1000 resamples, so exact. Only
    # all-positive reaches the observed mean 2: p = 1/8
    c = compare_runs(np.array([[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]]), ["a", "b"], [AGP], test="randomization")
    assert c.p[0, 0, 1] == 1 / 8
    # (0.5, 0, 0.5): flipping the 0 changes nothing: 2 of 8 patterns reach the observed mean
    c = compare_runs(np.array([[[0.5, 0.0, 0.5], [0.0, 0.0, 0.0]]]), ["a", "b"], [AGP], test="randomization")
    assert c.p[0, 0, 1] == 2 / 8
    # four topics (1, 2, 3, 4): 1/16
    c = compare_runs(np.array([[[1.0, 2, 3, 4], [0, 0, 0, 0]]]), ["a", "b"], [AGP], test="randomization")
    assert c.p[0, 0, 1] == 1 / 16


def grid_scores(n: int, t: int, seed: int = 5) -> np.ndarray:
    """Values on a grid of quarters (exact in binary, no rounding questions), one measure."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 5, size=(1, n, t)) / 4 + np.linspace(0, 0.5, n)[None, :, None].round(2)


def test_bootstrap_shortcut_equals_scipy_on_each_pairs_differences():
    x = grid_scores(5, 12)
    c = compare_runs(x, list("abcde"), [AGP], resamples=300, seed=7)
    order = c.order[0]
    a, b = np.triu_indices(5, 1)
    better, worse = order[a], order[b]
    d = settle(x[0])[better] - settle(x[0])[worse]
    res = stats.bootstrap((d,), np.mean, n_resamples=300, vectorized=True, axis=-1, method="percentile",
                          **_rng_argument(measure_generator(7, AGP)))
    want = np.mean(res.bootstrap_distribution <= 1e-10, axis=-1)
    assert c.p[0, better, worse] == pytest.approx(want, abs=1e-12)


def test_randomization_shortcut_equals_scipy_on_each_pair():
    x = grid_scores(4, 14)  # 2^14 patterns > 500 resamples: a random test
    c = compare_runs(x, list("abcd"), [AGP], test="randomization", resamples=500, seed=3)
    order = c.order[0]
    a, b = np.triu_indices(4, 1)
    better, worse = order[a], order[b]
    y = settle(x[0])
    res = stats.permutation_test((y[better], y[worse]), lambda u, v, axis: np.mean(u - v, axis=axis),
                                 permutation_type="samples", vectorized=True, n_resamples=500,
                                 alternative="greater", axis=-1, **_rng_argument(measure_generator(3, AGP)))
    assert c.p[0, better, worse] == pytest.approx(res.pvalue, abs=1e-12)


# -- corrections and the count of significant pairs --------------------------------------------------


def test_holm_and_bonferroni_by_hand():
    p = np.array([0.01, 0.04, 0.03])
    assert adjust(p, "none").tolist() == [0.01, 0.04, 0.03]
    assert adjust(p, "bonferroni").tolist() == pytest.approx([0.03, 0.12, 0.09])
    # Holm: sorted 0.01 x 3 = 0.03; 0.03 x 2 = 0.06; 0.04 x 1 = 0.04 -> held at 0.06
    assert adjust(p, "holm").tolist() == pytest.approx([0.03, 0.06, 0.06])
    assert adjust(np.array([0.5, 0.9]), "bonferroni").tolist() == [1.0, 1.0]
    assert np.isnan(adjust(np.array([np.nan, 0.01]), "holm")[0])
    with pytest.raises(ValueError, match="corrections are none, holm, bonferroni, bh"):
        adjust(p, "sidak")
    assert CORRECTIONS == ("none", "holm", "bonferroni", "bh")


def three_runs() -> np.ndarray:
    # good - mid = (1/2, 0, 1/2): t = 2 -> p = 0.0918; mid - bad = (1/2, 1, 1/2): t = 4 -> p = 0.0286;
    # good - bad = (1, 1, 1): p = 0
    return np.array([[[1.0, 1.0, 1.0], [0.5, 1.0, 0.5], [0.0, 0.0, 0.0]]])


def test_count_of_significant_pairs_with_each_correction():
    want = {(0, 1): t2_one_tailed(2.0), (1, 2): t2_one_tailed(4.0), (0, 2): 0.0}
    c = compare_runs(three_runs(), ["good", "mid", "bad"], [AGP], test="t")
    assert {(p.better, p.worse): p.p for p in c.pairs(0)} == pytest.approx(want, abs=1e-12)
    assert c.significant_count(0) == (2, 3)
    c = compare_runs(three_runs(), ["good", "mid", "bad"], [AGP], test="t", correction="bonferroni")
    assert c.p_adjusted[0, 1, 2] == pytest.approx(3 * t2_one_tailed(4.0)) and c.significant_count(0) == (1, 3)
    c = compare_runs(three_runs(), ["good", "mid", "bad"], [AGP], test="t", correction="holm")
    assert c.p_adjusted[0, 1, 2] == pytest.approx(2 * t2_one_tailed(4.0))  # 0.0572: not below 0.05
    assert c.p_adjusted[0, 0, 1] == pytest.approx(t2_one_tailed(2.0))
    assert c.significant_count(0) == (1, 3)
    c = compare_runs(three_runs(), ["good", "mid", "bad"], [AGP], test="t", alpha=0.1)
    assert c.significant_count(0) == (3, 3)


# -- correlations ------------------------------------------------------------------------------------


def test_kendall_tau_and_pearson_r_of_the_runs_means():
    # means under A: (1, 2, 3); under B: (1, 3, 2). Pairs: (1,2) concordant, (1,3) concordant,
    # (2,3) discordant: tau = (2 - 1) / 3. Deviations (-1, 0, 1), (-1, 1, 0): r = 1 / 2
    x = np.array([[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], [[1.0, 1.0], [3.0, 3.0], [2.0, 2.0]]])
    c = compare_runs(x, ["a", "b", "c"], ["A", "B"], test="t")
    assert c.tau[0, 1] == pytest.approx(1 / 3) and c.r[0, 1] == pytest.approx(0.5)
    assert c.tau[1, 0] == c.tau[0, 1] and c.tau[0, 0] == 1.0
    assert 0 < c.tau_p[0, 1] <= 1 and 0 < c.r_p[0, 1] <= 1


def test_an_effort_measure_agreeing_with_agp_correlates_positively():
    # AgP means (0.1, 0.2, 0.3); ANCE means (30, 20, 10): the same ranking, tau = r = +1
    x = np.array([[[0.1, 0.1], [0.2, 0.2], [0.3, 0.3]], [[30.0, 30], [20, 20], [10, 10]]])
    c = compare_runs(x, ["a", "b", "c"], [AGP, ANCE], test="t")
    assert c.tau[0, 1] == pytest.approx(1.0) and c.r[0, 1] == pytest.approx(1.0)


def test_a_measure_scoring_every_run_alike_has_no_correlation():
    x = np.array([[[0.1, 0.2], [0.3, 0.4]], [[0.5, 0.5], [0.5, 0.5]]])
    c = compare_runs(x, ["a", "b"], ["A", "B"], test="t")
    assert np.isnan(c.tau[0, 1]) and np.isnan(c.r[0, 1])


def test_the_document_baseline():
    # focused means (0.3, 0.2, 0.1); as documents (0.25, 0.22, 0.05): runs 0 and 2 gain, run 1 loses;
    # the baselines keep the ranking: tau 1
    x = np.array([[[0.3, 0.3], [0.2, 0.2], [0.1, 0.1]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]])
    doc = np.array([[[0.25, 0.25], [0.22, 0.22], [0.05, 0.05]], [[np.nan] * 2] * 3])
    c = compare_runs(x, ["a", "b", "c"], [AGP, "MAP"], documents=doc, test="t")
    assert c.doc_means[0].tolist() == pytest.approx([0.25, 0.22, 0.05])
    assert c.doc_gains.tolist() == [2, -1]
    assert c.doc_tau[0] == pytest.approx(1.0) and np.isnan(c.doc_tau[1]) and np.isnan(c.doc_means[1]).all()


# -- reproducibility ------------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_numbers():
    x = grid_scores(6, 20, seed=11)
    runs = list("abcdef")
    for test in ("bootstrap", "randomization"):
        one = compare_runs(x, runs, [AGP], test=test, resamples=200, seed=42)
        two = compare_runs(x, runs, [AGP], test=test, resamples=200, seed=42)
        other = compare_runs(x, runs, [AGP], test=test, resamples=200, seed=43)
        assert np.array_equal(one.p, two.p, equal_nan=True) and np.array_equal(one.ci, two.ci)
        assert not np.array_equal(one.p, other.p, equal_nan=True)


def test_a_measures_numbers_do_not_depend_on_the_other_measures():
    x = np.concatenate([grid_scores(4, 10, seed=1), grid_scores(4, 10, seed=2)])
    both = compare_runs(x, list("abcd"), [AGP, "AgP/aveChP"], resamples=200, seed=9)
    alone = compare_runs(x[1:], list("abcd"), ["AgP/aveChP"], resamples=200, seed=9)
    assert np.array_equal(both.p[1], alone.p[0], equal_nan=True) and np.array_equal(both.ci[1], alone.ci[0])


# -- bad input --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, message", [
    ({"alpha": 0.0}, "alpha must be above 0 and below 1"),
    ({"alpha": 1.0}, "alpha must be above 0 and below 1"),
    ({"resamples": 0}, "resamples must be from 1"),
    ({"seed": -1}, "seed must be a whole number"),
    ({"test": "wilcoxon"}, "tests are bootstrap, t, randomization, tukey"),
    ({"correction": "fdr"}, "corrections are none, holm, bonferroni, bh"),
])
def test_bad_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        compare_runs(three_runs(), ["a", "b", "c"], [AGP], **kwargs)


def test_too_few_runs_or_topics_and_wrong_shapes():
    with pytest.raises(ValueError, match="at least 2 runs"):
        compare_runs(np.zeros((1, 1, 3)), ["a"], [AGP])
    with pytest.raises(ValueError, match="at least 2 paired topics"):
        compare_runs(np.zeros((1, 2, 1)), ["a", "b"], [AGP])
    with pytest.raises(ValueError, match="shape"):
        compare_runs(np.zeros((2, 2, 3)), ["a", "b"], [AGP])
    with pytest.raises(ValueError, match="finite"):
        compare_runs(np.full((1, 2, 3), np.nan), ["a", "b"], [AGP])


def test_the_comparison_is_plain_arrays():
    c = compare_runs(three_runs(), ["good", "mid", "bad"], [AGP], test="t")
    assert isinstance(c, Comparison)
    for name, shape in (("means", (1, 3)), ("ci", (1, 3, 2)), ("order", (1, 3)), ("p", (1, 3, 3)),
                        ("significant", (1, 3, 3)), ("tau", (1, 1)), ("doc_tau", (1,))):
        assert getattr(c, name).shape == shape, name
    assert c.ci_method == "Student's t"
