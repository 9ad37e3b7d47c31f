"""Policies 8 and 9 of engine/core/run_comparison.py, worked by hand: per-topic differences against a
reference run, their order, and no correlation over two runs."""

from __future__ import annotations

import numpy as np
import pytest

from readsim.core.run_comparison import compare_runs


def test_two_runs_each_against_the_other():
    # A (0.5, 0.2, 0.9, 0.4), B (0.3, 0.6, 0.9, 0.1): A first (mean 0.5 > 0.475)
    c = compare_runs(np.array([[[0.5, 0.2, 0.9, 0.4], [0.3, 0.6, 0.9, 0.1]]]), ["A", "B"], ["AgP/F(0.25)"],
                     ["t1", "t2", "t3", "t4"], test="t")
    topics, ref, diff = c.per_topic(0)
    assert list(ref) == [1, 0]
    assert diff[1] == pytest.approx([-0.2, 0.4, 0.0, -0.3]) and diff[0] == pytest.approx([0.2, -0.4, 0.0, 0.3])
    assert [c.topics[t] for t in topics] == ["t2", "t3", "t1", "t4"]  # where B gains most first
    assert diff[0, 2] == 0.0  # rounded (policy 3): 0.9 - 0.9 is exactly 0, no -0.0
    # two runs cannot show a correlation: NaN, not +-1
    c2 = compare_runs(np.array([[[0.5, 0.2], [0.3, 0.6]], [[0.1, 0.1], [0.2, 0.3]]]), ["A", "B"],
                      ["AgP/F(0.25)", "MAP"], test="t")
    assert np.isnan(c2.tau[0, 1]) and np.isnan(c2.r[0, 1]) and c2.tau[0, 0] == 1.0


def test_more_runs_against_the_best_and_ties_by_topic_id():
    # means: A 0.6, B 0.5, C 0.3 over topics "b", "a", "c"
    x = np.array([[[0.6, 0.6, 0.6], [0.8, 0.4, 0.3], [0.6, 0.0, 0.3]]])
    c = compare_runs(x, ["A", "B", "C"], ["AgP/F(0.25)"], ["b", "a", "c"], test="t")
    topics, ref, diff = c.per_topic(0)
    assert list(ref) == [1, 0, 0]  # A (best) against B (runner-up), B and C against A
    # B - A = (0.2, -0.2, -0.3), C - A = (0, -0.6, -0.3): largest per topic 0.2, -0.2, -0.3
    assert [c.topics[t] for t in topics] == ["b", "a", "c"]
    x2 = np.array([[[0.6, 0.6, 0.6], [0.5, 0.5, 0.5], [0.1, 0.1, 0.1]]])
    c2 = compare_runs(x2, ["A", "B", "C"], ["AgP/F(0.25)"], ["b", "a", "c"], test="t")
    assert [c2.topics[t] for t in c2.per_topic(0)[0]] == ["a", "b", "c"]  # all -0.1: by topic id
