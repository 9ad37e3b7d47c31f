"""Kendall's tau-b and Pearson's r between two measures, with their two-sided p-values
(docs/reference.md, comparing runs: correlations of the runs' means), against values worked by
hand on six runs WITH TIES. A test that only checks tau, r in [-1, 1] and p in (0, 1] lets
tau-c, tau-a, a one-sided p or a halved p pass; each of these fails here (the wrong values are
worked out below too, and asserted to differ).

The runs' means (each run has the same value on both topics, so its mean is that value):

    run        1  2  3  4  5  6
    x (MA)     1  2  2  3  4  5     ties in x: one pair (runs 2, 3)
    y (MB)     1  3  2  2  5  5     ties in y: two pairs (runs 3, 4 and runs 5, 6)

The 15 pairs (i < j), sign of (x_j - x_i, y_j - y_i):

    (1,2) ++ C   (1,3) ++ C   (1,4) ++ C   (1,5) ++ C   (1,6) ++ C
    (2,3) 0- x-tie            (2,4) +- D   (2,5) ++ C   (2,6) ++ C
    (3,4) +0 y-tie            (3,5) ++ C   (3,6) ++ C
    (4,5) ++ C   (4,6) ++ C   (5,6) +0 y-tie

C = 11 concordant, D = 1 discordant, 1 pair tied in x only, 2 tied in y only (11+1+1+2 = 15).
n0 = 6*5/2 = 15, n1 = sum t(t-1)/2 over x's tie groups = 1, n2 = over y's = 1 + 1 = 2.

    tau-b = (C - D) / sqrt((n0 - n1)(n0 - n2)) = 10 / sqrt(14 * 13) = 10 / sqrt(182) = 0.741249...
    tau-c = 2 (C - D) / (n^2 (m - 1) / m), m = min(5 distinct x, 4 distinct y) = 4:
          = 20 / 27 = 0.740740...   (wrong: differs from tau-b in the 4th decimal)
    tau-a = (C - D) / n0 = 10 / 15 = 0.666...                    (wrong)

Its two-sided p (ties, so the normal approximation with the tie-corrected variance of
S = C - D; Kendall, Rank Correlation Methods, 1970, eq. 4.4):

    var(S) = [n(n-1)(2n+5) - sum t(t-1)(2t+5) - sum u(u-1)(2u+5)] / 18
             + [sum t(t-1)] [sum u(u-1)] / (2 n (n-1))
             + [sum t(t-1)(t-2)] [sum u(u-1)(u-2)] / (9 n (n-1)(n-2))
           = [6*5*17 - 2*1*9 - 2*(2*1*9)] / 18 + (2 * 4) / (2*6*5) + 0
           = 456/18 + 8/60 = 380/15 + 2/15 = 382/15
    z = 10 / sqrt(382/15) = 1.98158...,   p = 2 (1 - Phi(z)) = erfc(z / sqrt 2) = 0.0475...

(one-sided or halved: 0.0238, wrong).

Pearson's r from the sums: sum x = 17, sum y = 18, sum x^2 = 59, sum y^2 = 68, sum xy = 62;
Sxx = 59 - 17^2/6 = 65/6, Syy = 68 - 18^2/6 = 14, Sxy = 62 - 17*18/6 = 11:

    r = 11 / sqrt(65/6 * 14) = 11 / sqrt(455/3),   r^2 = 121*3/455 = 363/455,   r = 0.893198...

Its two-sided p: t = r sqrt((n-2)/(1-r^2)) on n-2 = 4 degrees of freedom. For 4 degrees the
t distribution's two-sided tail has a closed form, 1 - (w/2)(3 - w^2) with w = t/sqrt(t^2+4),
and here w = r exactly (t^2 = 4 r^2/(1-r^2)), so p = 1 - r(3 - r^2)/2 = 0.016501...;
scipy.stats.t.sf is a second, independent route to the same number.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from readsim.core.run_comparison import compare_runs

X = [1, 2, 2, 3, 4, 5]
Y = [1, 3, 2, 2, 5, 5]
RUNS = [f"run{i}" for i in range(1, 7)]

TAU_B = 10 / math.sqrt(182)
TAU_C = 20 / 27
TAU_A = 10 / 15
TAU_P = math.erfc(10 / math.sqrt(382 / 15) / math.sqrt(2))
R = math.sqrt(363 / 455)
R_P = 1 - R * (3 - R * R) / 2


def _scores(x, y) -> np.ndarray:
    """(2 measures, 6 runs, 2 topics): each run's value the same on both topics."""
    return np.array([[[v, v] for v in x], [[v, v] for v in y]], dtype=float)


def test_hand_worked_values_hold_together():
    # the worked numbers, checked against each other (not against readsim)
    assert TAU_B == pytest.approx(0.7412493, abs=1e-7)
    assert TAU_P == pytest.approx(0.04752, abs=1e-5)
    assert R == pytest.approx(11 / math.sqrt(65 / 6 * 14), rel=1e-12)
    t = R * math.sqrt(4 / (1 - R * R))
    assert R_P == pytest.approx(2 * stats.t.sf(t, 4), rel=1e-12)  # the second route
    assert R_P == pytest.approx(0.016501, abs=1e-6)
    # the wrong variants are far enough from the right ones for the checks below to tell them apart
    for right, wrongs in ((TAU_B, (TAU_C, TAU_A)), (TAU_P, (TAU_P / 2,)), (R_P, (R_P / 2,))):
        assert all(abs(right - w) > 1e-4 for w in wrongs)


def test_tau_b_and_pearson_r_with_two_sided_p_on_ties():
    c = compare_runs(_scores(X, Y), RUNS, ["MA", "MB"], lower_is_better=[False, False], test="t")
    assert c.tau[0, 1] == pytest.approx(TAU_B, rel=1e-9)  # tau-c would be 0.7407, tau-a 0.6667
    assert c.tau_p[0, 1] == pytest.approx(TAU_P, rel=1e-9)  # a one-sided or halved p: 0.0238
    assert c.r[0, 1] == pytest.approx(R, rel=1e-9)
    assert c.r_p[0, 1] == pytest.approx(R_P, rel=1e-9)  # one-sided: 0.0082
    assert (c.tau[1, 0], c.tau_p[1, 0], c.r[1, 0], c.r_p[1, 0]) == (c.tau[0, 1], c.tau_p[0, 1], c.r[0, 1], c.r_p[0, 1])


def test_negative_correlation_has_the_same_two_sided_p():
    # y reversed in order (6 - y): every concordant pair becomes discordant, ties stay ties:
    # tau-b = -10/sqrt(182), r = -sqrt(363/455), and the two-sided p-values are unchanged
    c = compare_runs(_scores(X, [6 - v for v in Y]), RUNS, ["MA", "MB"], lower_is_better=[False, False], test="t")
    assert c.tau[0, 1] == pytest.approx(-TAU_B, rel=1e-9) and c.tau_p[0, 1] == pytest.approx(TAU_P, rel=1e-9)
    assert c.r[0, 1] == pytest.approx(-R, rel=1e-9) and c.r_p[0, 1] == pytest.approx(R_P, rel=1e-9)


def test_a_lower_is_better_measure_is_correlated_on_its_oriented_means():
    # MB given as -y, lower is better: oriented (higher is better) it is y again, so the same values
    c = compare_runs(_scores(X, [-v for v in Y]), RUNS, ["MA", "MB"], lower_is_better=[False, True], test="t")
    assert c.tau[0, 1] == pytest.approx(TAU_B, rel=1e-9) and c.tau_p[0, 1] == pytest.approx(TAU_P, rel=1e-9)
    assert c.r[0, 1] == pytest.approx(R, rel=1e-9) and c.r_p[0, 1] == pytest.approx(R_P, rel=1e-9)


def test_against_the_document_baseline_the_same_formulas():
    # the measure MA's runs evaluated as documents score y: doc_tau etc. are tau-b(x, y) etc.
    docs = np.stack([_scores(X, Y)[1], np.full((6, 2), np.nan)])
    c = compare_runs(_scores(X, X), RUNS, ["MA", "MB"], lower_is_better=[False, False], documents=docs, test="t")
    assert c.doc_tau[0] == pytest.approx(TAU_B, rel=1e-9) and c.doc_tau_p[0] == pytest.approx(TAU_P, rel=1e-9)
    assert c.doc_r[0] == pytest.approx(R, rel=1e-9) and c.doc_r_p[0] == pytest.approx(R_P, rel=1e-9)
    assert np.isnan(c.doc_tau[1])
