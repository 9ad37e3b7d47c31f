"""Interval arrays (readsim.core.intervals) against Python sets, and harmonic_diff against exact sums."""

from __future__ import annotations

import math
from fractions import Fraction as Fr

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readsim.core import intervals as iv
from readsim.core.docmeasures import harmonic_diff

from .reference import positions

raw_spans = st.lists(st.tuples(st.integers(0, 120), st.integers(0, 40)).map(lambda t: (t[0], t[0] + t[1])), max_size=8)


def is_normalized(a: np.ndarray) -> bool:
    if a.dtype != np.int64 or a.ndim != 2 or a.shape[1] != 2:
        return False
    if not len(a):
        return True
    return bool(np.all(a[:, 0] < a[:, 1]) and np.all(a[1:, 0] > a[:-1, 1]))


def as_set(a: np.ndarray) -> set[int]:
    return positions(a.tolist())


def test_hand_worked():
    a = iv.normalize([(5, 8), (0, 2), (2, 3), (7, 10), (12, 12)])
    assert a.tolist() == [[0, 3], [5, 10]]  # touching rows merge, the empty row goes
    b = iv.normalize([(1, 6)])
    assert iv.intersect(a, b).tolist() == [[1, 3], [5, 6]]
    assert iv.subtract(a, b).tolist() == [[0, 1], [6, 10]]
    assert iv.complement(a, 0, 12).tolist() == [[3, 5], [10, 12]]
    assert iv.clip(a, 2, 7).tolist() == [[2, 3], [5, 7]]
    assert iv.total(a) == 8
    assert iv.split(iv.normalize([(0, 10)]), b) == [(0, 1, False), (1, 6, True), (6, 10, False)]
    assert iv.overlaps([(0, 3), (2, 4)]) and not iv.overlaps([(0, 3), (3, 4)])
    assert iv.as_array([]).shape == (0, 2) and iv.total(iv.EMPTY) == 0


@settings(max_examples=300, deadline=None)
@given(raw_spans, raw_spans, st.integers(-5, 130), st.integers(-5, 170))
def test_interval_ops_against_sets(xs, ys, lo, hi):
    a, b = iv.normalize(xs), iv.normalize(ys)
    sa, sb = positions(xs), positions(ys)
    assert is_normalized(a) and is_normalized(b)
    assert as_set(a) == sa and iv.total(a) == len(sa)
    for op, want in (
        (iv.intersect(a, b), sa & sb),
        (iv.subtract(a, b), sa - sb),
        (iv.complement(a, lo, hi), set(range(lo, hi)) - sa),
        (iv.clip(a, lo, hi), {p for p in sa if lo <= p < hi}),
    ):
        assert is_normalized(op)
        assert as_set(op) == want
    # overlaps: two non-empty rows sharing a position
    rows = [positions([r]) for r in xs if r[1] > r[0]]
    assert iv.overlaps(xs) == any(rows[i] & rows[j] for i in range(len(rows)) for j in range(i + 1, len(rows)))
    # split: pieces cover a in document order, each wholly inside b or wholly outside
    pieces = iv.split(a, b)
    flat = [p for s, e, _ in pieces for p in range(s, e)]
    assert flat == sorted(sa)
    for s, e, inside in pieces:
        assert s < e
        assert all((p in sb) == inside for p in range(s, e))


@settings(max_examples=200, deadline=None)
@given(raw_spans, st.lists(st.tuples(st.integers(0, 130), st.integers(0, 40)), max_size=12))
def test_covered_against_sets(xs, windows):
    spans = iv.normalize(xs)
    covered_positions = positions(spans.tolist())
    starts = np.array([s for s, _ in windows], dtype=np.int64)
    ends = np.array([s + n for s, n in windows], dtype=np.int64)
    expected = [len(covered_positions & set(range(s, e))) for s, e in zip(starts, ends)]
    assert iv.covered(spans, starts, ends).tolist() == expected


@given(st.integers(0, 300), st.integers(0, 300))
def test_harmonic_diff_exact_small(a, b):
    a, b = min(a, b), max(a, b)
    exact = sum((Fr(1, k) for k in range(a + 1, b + 1)), Fr(0))
    assert math.isclose(harmonic_diff(a, b), float(exact), rel_tol=1e-12, abs_tol=1e-15)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 20000))
def test_harmonic_diff_large_against_direct_sums(a, span):
    b = a + span
    direct = math.fsum(1.0 / k for k in range(a + 1, b + 1))
    assert math.isclose(harmonic_diff(a, b), direct, rel_tol=1e-11)


@pytest.mark.parametrize("a, b", [(63, 64), (64, 65), (10**6, 10**6 + 1), (10**12, 10**12 + 1), (0, 10**6)])
def test_harmonic_diff_edges(a, b):
    if b - a == 1:
        assert math.isclose(harmonic_diff(a, b), 1 / b, rel_tol=1e-12)
    else:
        # H(10^6) = ln(10^6) + gamma + 1/(2*10^6) - 1/(12*10^12) + ... = 14.392726722865723...
        assert math.isclose(harmonic_diff(a, b), 14.392726722865723, rel_tol=1e-13)
