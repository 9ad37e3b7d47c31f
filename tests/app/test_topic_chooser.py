"""The topic chooser shows the open run's score on each topic (the topic view's list measure),
computed in the background, and sorts the topics by it; on the real data, checked against the
engine run alone and against the topic view's own number."""

from __future__ import annotations

import pytest

from readsim.app.background import activity
from readsim.app.widgets.topic_chooser import SCORE_ROLE, chooser_measure
from readsim.core.collection import Collection
from readsim.core.listmeasures import evaluate
from readsim.core.measure import parse_list_measure


def wait_scored(qtbot, w) -> None:
    qtbot.waitUntil(lambda: not w.topic_scores.busy() and activity().count == 0 and bool(w.topic_scores.scores),
                    timeout=60_000)


def engine_scores(real, name: str) -> dict[str, float]:
    m = parse_list_measure(name)
    return evaluate(real["qrels"], real["run"], [m], "natural", Collection(real["collection"])).values[m.name]


def test_scores_per_topic_and_sorting(real_window, real, qtbot):
    w = real_window()
    ts, combo, s = w.topic_scores, w.topic_combo, w.session
    w.topic_view.set_doc_kind("F")
    wait_scored(qtbot, w)
    assert ts.measure.name == "AgP/F(0.25)"
    want = engine_scores(real, "AgP/F(0.25)")
    assert set(ts.scores) == set(want) and len(want) == len(s.topic_ids())
    assert all(ts.scores[t] == pytest.approx(want[t], abs=1e-12) for t in want)
    # the topic view shows the same number for the open topic
    assert ts.scores[s.topic] == pytest.approx(w.topic_view.values()["AgP/F(0.25)"], abs=1e-12)
    i = combo.findData(s.topic)
    assert combo.itemText(i).startswith(f"{s.topic} · {want[s.topic]:.4f}  web ranking")
    assert combo.itemData(i, SCORE_ROLE) == pytest.approx(want[s.topic])
    assert "AgP/F(0.25)" in combo.toolTip()
    assert w.topic_scores.topics_shown() == s.topic_ids()  # the run's order until sorted

    # sorted: lowest first, the open topic still chosen
    ts.act_sort.setChecked(True)
    shown = ts.topics_shown()
    assert sorted(shown) == sorted(s.topic_ids())
    values = [want[t] for t in shown]
    assert values == sorted(values)
    assert combo.currentData() == s.topic
    ts.act_sort.setChecked(False)
    assert ts.topics_shown() == s.topic_ids()

    # another document measure: rescored in the background, the call returns at once
    w.topic_view.set_doc_kind("T2IF")
    assert ts.busy() and ts.scores == {}
    wait_scored(qtbot, w)
    name = chooser_measure("T2IF", s.settings).name
    want = engine_scores(real, name)
    assert ts.measure.name == name and all(ts.scores[t] == pytest.approx(want[t], abs=1e-12) for t in want)
    assert combo.itemText(combo.findData(s.topic)).count("·") == 1  # the old score was replaced, not appended to
    # back to F: kept, not computed again
    w.topic_view.set_doc_kind("F")
    assert not ts.busy() and ts.scores[s.topic] == pytest.approx(engine_scores(real, "AgP/F(0.25)")[s.topic])


def test_effort_measure_sorts_worst_first(real_window, qtbot):
    w = real_window()
    ts = w.topic_scores
    w.topic_view.set_doc_kind("LE")
    wait_scored(qtbot, w)
    assert ts.measure.name.startswith("ANCE@100/LE") and ts.measure.lower_is_better
    ts.act_sort.setChecked(True)
    values = [ts.scores[t] for t in ts.topics_shown() if t in ts.scores]
    assert values == sorted(values, reverse=True)  # lower is better: the highest effort first
