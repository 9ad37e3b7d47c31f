"""The one "latest result only" path (:class:`readsim.app.background.LatestJob`) and the one
cancellation (:class:`~readsim.app.background.Cancelled`), without a window."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QObject

from readsim.app import figure, recording, runs_model
from readsim.app.background import Cancelled, LatestJob, Progress, activity
from readsim.app.widgets import sensitivity


def test_one_cancelled_everywhere():
    assert figure.Cancelled is recording.Cancelled is runs_model.Cancelled is Cancelled
    assert runs_model.Progress is Progress
    assert not hasattr(sensitivity, "Cancelled")
    p = Progress()
    p.step(0.5, "half")
    p.cancelled = True
    with pytest.raises(Cancelled):
        p.step(0.6)
    assert (p.fraction, p.text) == (0.5, "half")


def test_only_the_latest_result_counts(qtbot):
    parent = QObject()
    changes: list[bool] = []
    jobs = LatestJob(parent, lambda: changes.append(jobs.busy()))
    gate = threading.Event()
    got, failed = [], []

    def slow(progress: Progress):
        gate.wait(10)
        progress.step(1.0)  # cancelled meanwhile: raises Cancelled, which is dropped
        return "old"

    first = jobs.start(slow, got.append, failed.append)
    old = jobs.progress
    second = jobs.start(lambda _p: "new", got.append, failed.append)
    assert old.cancelled and jobs.progress is not old and not jobs.is_latest(first) and jobs.is_latest(second)
    gate.set()
    qtbot.waitUntil(lambda: activity().count == 0, timeout=10_000)
    assert got == ["new"] and failed == [] and not jobs.busy()
    assert changes == [True, True, False]  # started, started again, the latest ended


def test_a_cancelled_request_calls_nothing_and_errors_reach_failure(qtbot):
    parent = QObject()
    jobs = LatestJob(parent)
    got, failed = [], []
    jobs.start(lambda _p: 1, got.append, failed.append)
    jobs.cancel()
    assert not jobs.busy()
    qtbot.waitUntil(lambda: activity().count == 0, timeout=10_000)
    assert got == [] and failed == []

    def bad(_p):
        raise ValueError("boom")

    jobs.start(bad, got.append, failed.append)
    qtbot.waitUntil(lambda: activity().count == 0, timeout=10_000)
    assert got == [] and [str(e) for e in failed] == ["boom"]
