"""The per-topic differences of two runs (readsim.core.topic_differences, reference section 12.5):
the sorting, the orientation of effort measures and the paired t interval, worked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from readsim.core.run_comparison import compare_runs
from readsim.core.topic_differences import topic_differences

T_975_3 = 3.182446305284263  # Student's t, 0.975 quantile, 3 degrees of freedom (tables)
A = [0.5, 0.4, 0.3, 0.2]
B = [0.6, 0.2, 0.3, 0.5]


def _comparison(lower: bool):
    scores = np.array([[A, B]], dtype=float)
    return compare_runs(scores, ["A", "B"], ["M"], ["t1", "t2", "t3", "t4"], lower_is_better=[lower], test="t")


def test_the_runner_up_against_the_best_sorted_with_its_paired_t_interval():
    d = topic_differences(_comparison(False), 0)
    # B's mean 0.4 beats A's 0.35: A - B = (-0.1, +0.2, 0, -0.3); A gains most on t2, then t3, t1, t4
    assert (d.run, d.reference) == ("A", "B")
    assert d.topics == ["t2", "t3", "t1", "t4"]
    assert d.diff.tolist() == pytest.approx([0.2, 0.0, -0.1, -0.3], abs=1e-12)
    # mean -0.05; deviations (-0.05, +0.25, +0.05, -0.25): sum of squares 0.13, sd sqrt(0.13 / 3)
    half = T_975_3 * math.sqrt(0.13 / 3) / 2
    assert d.mean == pytest.approx(-0.05, abs=1e-12)
    assert (d.low, d.high) == pytest.approx((-0.05 - half, -0.05 + half), abs=1e-9)
    assert (round(d.low, 4), round(d.high, 4)) == (-0.3812, 0.2812)


def test_an_effort_measure_sorts_by_gain_and_keeps_its_direction():
    d = topic_differences(_comparison(True), 0)
    # lower is better: A (0.35) ranks first; B - A = (+0.1, -0.2, 0, +0.3), gains -diff: t2 first
    assert (d.run, d.reference) == ("B", "A")
    assert d.topics == ["t2", "t3", "t1", "t4"]
    assert d.diff.tolist() == pytest.approx([-0.2, 0.0, 0.1, 0.3], abs=1e-12)
    assert d.gain.tolist() == pytest.approx([0.2, 0.0, -0.1, -0.3], abs=1e-12)
    assert d.mean == pytest.approx(0.05, abs=1e-12)


def test_ties_by_topic_id_and_a_constant_difference_has_a_point_interval():
    scores = np.array([[[0.3, 0.3, 0.3], [0.1, 0.1, 0.1]]])
    c = compare_runs(scores, ["x", "y"], ["M"], ["9", "10", "2"], lower_is_better=[False], test="t")
    d = topic_differences(c, 0, level=0.9)
    assert d.topics == ["10", "2", "9"]  # all -0.2: by id as strings
    assert (d.mean, d.low, d.high) == pytest.approx((-0.2, -0.2, -0.2))


def test_chosen_runs_and_bad_choices():
    c = _comparison(False)
    d = topic_differences(c, 0, run=1, reference=0)
    assert (d.run, d.reference, d.mean) == ("B", "A", pytest.approx(0.05))
    with pytest.raises(ValueError, match="against itself"):
        topic_differences(c, 0, run=0, reference=0)
    with pytest.raises(ValueError, match="run indices are 0 to 1"):
        topic_differences(c, 0, run=2)
    with pytest.raises(ValueError, match="level"):
        topic_differences(c, 0, level=1.0)
