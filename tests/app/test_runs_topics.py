"""The Runs window's Topics tab and what comparing two runs must say in the window: the per-topic
table (hand-worked, then on the real data against the engine), sorting, colours, a double-clicked
topic shown in the main window, the exports with their provenance (an edited run named as edited,
with its edit count), "1 pair" and two runs that cannot show a correlation."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from PySide6.QtCore import Qt

from readsim.app import runs_model as rm
from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from readsim.app.widgets.runs.topics_tab import SORT_ROLE, TopicsTab
from readsim.core import intervals as iv
from readsim.core.collection import Collection
from readsim.core.run_comparison import compare_runs
from readsim.core.formats import read_run
from readsim.core.listmeasures import evaluate
from readsim.core.measure import parse_list_measure

GREEN, RED = (26, 127, 55), (179, 38, 30)


def colour(model, row: int, column: int):
    brush = model.data(model.index(row, column), Qt.ItemDataRole.BackgroundRole)
    return None if brush is None else brush.color().getRgb()[:3]


# -- hand-worked -------------------------------------------------------------------------------------------------


def test_two_runs_by_hand(qtbot):
    # A scores (0.5, 0.2, 0.9, 0.4) on topics t1..t4, B (0.3, 0.6, 0.9, 0.1): A's mean 0.5 > B's 0.475
    c = compare_runs(np.array([[[0.5, 0.2, 0.9, 0.4], [0.3, 0.6, 0.9, 0.1]]]), ["A", "B"], ["AgP/F(0.25)"],
                     ["t1", "t2", "t3", "t4"], test="t")
    tab = TopicsTab()
    qtbot.addWidget(tab)
    tab.show_result(c, 0)
    m = tab.model
    assert m.headers == ["Topic", "A", "B", "B − A"]
    # B - A = (-0.2, +0.4, 0, -0.3): where B gains most first
    assert tab.shown_column(0) == ["t2", "t3", "t1", "t4"]
    assert tab.shown_column(3) == ["+0.4000", "0.0000", "−0.2000", "−0.3000"]
    assert tab.shown_column(1) == ["0.2000", "0.9000", "0.5000", "0.4000"]
    # coloured by who does better on the topic; a tie is not coloured
    assert colour(m, 0, 3)[:3] == GREEN and colour(m, 2, 3) == RED and colour(m, 1, 3) is None
    assert colour(m, 0, 1) is None  # values are not coloured
    assert "B is better on this topic" in m.data(m.index(0, 3), Qt.ItemDataRole.ToolTipRole)
    # sortable: by A's value, ascending, then back to the engine's order by the Topic header
    tab.table.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    assert tab.shown_column(0) == ["t2", "t4", "t1", "t3"]
    tab.table.sortByColumn(3, Qt.SortOrder.AscendingOrder)
    assert tab.shown_column(3) == ["−0.3000", "−0.2000", "0.0000", "+0.4000"]
    tab.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    assert tab.shown_column(0) == ["t2", "t3", "t1", "t4"]
    assert m.data(m.index(0, 3), SORT_ROLE) == pytest.approx(0.4)


def test_three_runs_and_an_effort_measure_by_hand(qtbot):
    # ANCE, lower is better: C (10, 28) is best (mean 19), A (20, 20) second (20), B (40, 10) third (25)
    c = compare_runs(np.array([[[20.0, 20.0], [40.0, 10.0], [10.0, 28.0]]]), ["A", "B", "C"], ["ANCE@10/LE(300)"],
                     ["1", "2"], test="t")
    tab = TopicsTab()
    qtbot.addWidget(tab)
    tab.show_result(c, 0)
    m = tab.model
    assert m.headers == ["Topic", "C", "A", "− C", "B", "− C"]
    # A - C = (+10, -8), B - C = (+30, -18): on topic 2 both beat C (lower), B by 18: first
    assert tab.shown_column(0) == ["2", "1"]
    assert tab.shown_column(3) == ["−8.0000", "+10.0000"] and tab.shown_column(5) == ["−18.0000", "+30.0000"]
    assert colour(m, 0, 3) == GREEN and colour(m, 1, 5) == RED  # lower is better: a negative difference gains


# -- the real data: indri-passages against bert-passages-map199 ----------------------------------------------------


@pytest.fixture
def two(qtbot, real, inex):
    """A main window on indri-passages and bert-passages-map199, their Runs window compared
    under AgP/F(0.25) (no baseline, few resamples)."""
    runs = [read_run(inex / "runs" / "indri-passages.run"), read_run(inex / "runs" / "bert-passages-map199.run")]
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()
    session.adopt(Loaded(collection=Collection(real["collection"]), qrels=real["qrels"], runs=runs,
                         topics=real["topics"]), "2009074", None)
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=30_000)
    yield window, runs
    if window.runs_window is not None:
        window.runs_window.close()
    qtbot.waitUntil(lambda: activity().count == 0, timeout=30_000)


def compare_in_window(qtbot, window):
    window.act_runs.trigger()
    w = window.runs_window
    w.set_options(measures=["AgP/F(0.25)"], baseline=False, resamples=200)
    w.compare()
    qtbot.waitUntil(lambda: not w.busy() and w.result is not None and activity().count == 0, timeout=60_000)
    return w


def test_real_topics_tab_double_click_and_exports(qtbot, two, real, tmp_path):
    window, runs = two
    w = compare_in_window(qtbot, window)
    assert w.errors_shown == []
    assert w.status.text() == "Compared 2 runs on 118 topics under 1 measure"  # not "1 measures"
    tab = w.topics_tab
    m = tab.model
    # the engine alone: each run's AgP per topic, paired on the 118 topics both have
    measure = parse_list_measure("AgP/F(0.25)")
    coll = Collection(real["collection"])
    alone = [evaluate(real["qrels"], r, [measure], "natural", coll).values[measure.name] for r in runs]
    assert len(alone[0]) == 120 and len(alone[1]) == 118
    assert m.rowCount() == 118 and set(m.topics) == set(alone[0]) & set(alone[1])
    labels = w.result.labels  # indri-passages, TREC2INEX
    for r, topic in enumerate(m.topics):
        for i in range(2):
            assert m.values[i, r] == pytest.approx(alone[i][topic], abs=1e-12)
    second = int(w.result.comparison.order[0][1])
    gains = [alone[second][t] - alone[1 - second][t] for t in m.topics]
    assert m.diff[second] == pytest.approx(gains, abs=1e-11)
    assert gains == sorted(gains, reverse=True)
    assert m.headers[3] == f"{labels[second]} − {labels[1 - second]}"
    assert "2010061" in tab.legend.text() and "2010107" in tab.legend.text()  # left out: not in every run

    # double-click a topic: the main window shows it
    w.tabs.setCurrentWidget(tab)
    tab.table.sortByColumn(3, Qt.SortOrder.AscendingOrder)  # where the second run loses most first
    topic = tab.topic_at(0)
    assert topic == m.topics[-1]
    index = tab.proxy.index(0, 2)
    tab.table.scrollTo(index)
    rect = tab.table.visualRect(index)
    assert tab.table.viewport().rect().contains(rect.center())
    qtbot.mouseClick(tab.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # as a user: press first
    with qtbot.waitSignal(window.session.topic_changed, timeout=10_000) as changed:
        qtbot.mouseDClick(tab.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert changed.args == [topic] and window.session.topic == topic
    assert window.topic_combo.currentData() == topic

    # the Topics table as CSV and JSON, with provenance
    path = w.export_csv("topics", tmp_path / "topics.csv")
    text = path.read_text()
    assert text.startswith("# readsim: ") and "# table: Per-topic values and differences" in text
    assert "# topics.left_out: 2010061; 2010107" in text and "# topics.paired: 118" in text
    rows = list(csv.DictReader(io.StringIO("".join(x for x in text.splitlines(True) if not x.startswith("#")))))
    assert len(rows) == 2 * 118 and list(rows[0]) == ["measure", "topic", "run", "value", "reference", "diff",
                                                       "position"]
    assert {(r["topic"], r["run"]): float(r["value"]) for r in rows} == {
        (t, labels[i]): pytest.approx(alone[i][t], abs=1e-12) for t in m.topics for i in range(2)}
    data = json.loads(w.export_csv("topics", tmp_path / "topics.json").read_text())
    assert data["provenance"]["edited_runs"] == "none" and len(data["rows"]) == 2 * 118
    assert data["provenance"]["files"]["runs"] == [f"{labels[0]}: {runs[0].path}", f"{labels[1]}: {runs[1].path}"]

    # two runs cannot show a correlation: said in the Correlation tab, not +-1.000
    w.set_options(measures=["AgP/F(0.25)", "MAP"])
    w.compare()
    qtbot.waitUntil(lambda: not w.busy() and len(w.result.comparison.measures) == 2, timeout=60_000)
    assert "Two runs cannot show a correlation" in w.scatter_title and "τ =" not in w.scatter_title
    assert w.status.text() == "Compared 2 runs on 118 topics under 2 measures"
    assert w.corr_table.item(0, 1).text() == "n/a" and "1.000" not in w.corr_table.item(0, 1).text()
    corr = json.loads(w.export_csv("correlations", tmp_path / "c.json").read_text())["rows"]
    assert corr[0]["tau"] is None and corr[0]["note"].startswith("two runs cannot show a correlation")


def test_an_edited_run_is_named_as_edited_in_every_export(qtbot, two, tmp_path):
    window, runs = two
    s = window.session
    original = s.run
    # one edit: the open article retrieves its first 100 bytes only
    assert window.editing.editor.apply(iv.as_array([(0, 100)]), "a test edit")
    assert s.run is not original and s.run.path == original.path  # the editor works on a copy
    w = compare_in_window(qtbot, window)
    label = w.result.labels[0]
    expected = f"edited from {original.path}, 1 edit"
    assert f"{label}: {expected}" in w.setting.toolTip()  # the window says so too
    for kind in ("runs", "pairs", "topics"):
        data = json.loads(w.export_csv(kind, tmp_path / f"{kind}.json").read_text())
        assert data["provenance"]["edited_runs"] == [label]
        assert data["provenance"]["files"]["runs"][0] == f"{label}: {expected}"
    text = w.export_csv("runs", tmp_path / "runs.csv").read_text()
    assert f"# edited_runs: {label}\n" in text
    rows = list(csv.DictReader(io.StringIO("".join(x for x in text.splitlines(True) if not x.startswith("#")))))
    assert {r["run_file"] for r in rows if r["run"] == label} == {expected}
    # the other run as its file; the edited run once more as it was before its edits (a run of its own)
    assert {r["run"]: r["run_file"] for r in rows if r["run"] != label} == {
        w.result.labels[1]: str(runs[1].path), f"{label} (before edits)": f"{original.path}, before its unsaved edits"}


def test_one_pair_is_one_pair(real, inex):
    runs = [read_run(inex / "runs" / "indri-passages.run"), read_run(inex / "runs" / "bert-passages-map199.run")]
    texts = []

    class Seen(rm.Progress):
        def step(self, fraction, text=None):
            if text is not None:
                texts.append(text)
            super().step(fraction, text)

    rm.compare_job(real["qrels"], runs, None, rm.Options(measures=("AgP/F(0.25)",), baseline=False, resamples=10),
                   [], Seen())
    assert "testing 1 pair of runs" in texts and not any("1 pairs" in t for t in texts)
    assert [rm.plural(n, "measure") for n in (0, 1, 2)] == ["0 measures", "1 measure", "2 measures"]
