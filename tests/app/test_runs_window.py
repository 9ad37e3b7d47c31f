"""The Runs window (View ▸ Compare all runs) on the real INEX data, acting as a user: open it
from the View menu, wait for the background comparison, read its tabs, change the measure and
the test, compute the fidelity tables, add runs (a bad one too), export.

Expected numbers are the engine's, computed here independently of the window: every real run
evaluated with :func:`readsim.core.listmeasures.evaluate` (and as whole documents), compared
with :func:`readsim.core.run_comparison.compare_evaluations`; the fidelity tables with
:func:`readsim.core.fidelity_tables.fidelity_tables`, where AgP/F(0.25) respects the 28 orderings the
paper's AgP confirms on every topic.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QAction, QKeySequence, QMouseEvent
from PySide6.QtWidgets import QApplication, QFileDialog

from readsim.app import runs_model as rm
from readsim.app.background import activity
from readsim.app.input_files import app_settings
from readsim.app.help import shortcuts
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from readsim.app.widgets import runs_window as rw
from readsim.app.widgets.on_demand import RUNS_SHORTCUT
from readsim.app.widgets.runs import cells
from readsim.core.collection import Collection
from readsim.core.run_comparison import compare_evaluations
from readsim.core.fidelity_tables import ALWAYS, RESPECTED, fidelity_tables
from readsim.core.formats import read_run
from readsim.core.listmeasures import evaluate
from readsim.core.measure import parse_list_measure

TOPIC = "2009074"
ARTICLE = "23724"
RUNS = ("bert-passages.run", "bert-passages-map19.run", "bert-passages-map199.run", "indri-passages.run",
        "indri-documents.run")
# the one naming rule (readsim.core.run_comparison.run_labels): the run id, or the file name when runs share
# it (the three BERT runs all say TREC2INEX; Indri's say indri-passages and indri)
LABELS = ["bert-passages.run", "bert-passages-map19.run", "bert-passages-map199.run", "indri-passages", "indri"]
RESAMPLES = 200  # few resamples: the tests stay fast; the window must give the engine's numbers


@pytest.fixture(scope="module")
def runs(inex):
    return [read_run(inex / "runs" / r) for r in RUNS]


@pytest.fixture(scope="module")
def evaluations(real, runs):
    """The engine alone: each real run evaluated with the default measures, and as documents."""
    measures = [parse_list_measure(m) for m in rm.DEFAULT_MEASURES]
    coll = Collection(real["collection"])
    evs, docs = [], []
    for run, label in zip(runs, LABELS):
        ev = evaluate(real["qrels"], run, measures, "natural", coll, False, False, 4)
        ev.run_id = label
        evs.append(ev)
        doc = evaluate(real["qrels"], run, measures, "natural", coll, True, False, 4)
        doc.run_id = label
        docs.append(doc)
    return measures, evs, docs


def expected(evaluations, **options):
    measures, evs, docs = evaluations
    return compare_evaluations(evs, measures, docs, **{"resamples": RESAMPLES, **options})


def table_rows(path: Path) -> list[dict]:
    """An exported CSV's rows, past its provenance comment lines (``# key: value``)."""
    text = path.read_text()
    return list(csv.DictReader(io.StringIO("".join(line for line in text.splitlines(True) if not line.startswith("#")))))


def open_window(qtbot, real, runs, collection=True) -> MainWindow:
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()
    session.adopt(Loaded(collection=Collection(real["collection"]) if collection else None, qrels=real["qrels"],
                         runs=list(runs), topics=real["topics"]), TOPIC, ARTICLE)
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=30_000)
    return window


def open_runs(qtbot, window) -> rw.RunsWindow:
    """View ▸ Compare all runs, as a user: the window is shown when the action returns; with two
    runs or more the comparison is still going on behind (``busy``: it runs in the background,
    test_compare_the_five_real_runs), without reading a clock."""
    view = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "View")
    action = next(a for a in view.actions() if a.text() == "Compare all runs")
    action.trigger()
    w = window.runs_window
    assert w is not None and w.isVisible()
    return w


def wait_idle(qtbot, w: rw.RunsWindow, timeout=60_000) -> None:
    qtbot.waitUntil(lambda: not w.busy() and activity().count == 0, timeout=timeout)


def compare_with(qtbot, w: rw.RunsWindow, **options) -> None:
    w.set_options(**options)
    w.compare_button.click()
    assert w.busy()
    wait_idle(qtbot, w)


def hover(widget, pos) -> None:
    """The mouse moves (no button) to ``pos`` over ``widget``. Sent to the widget: on the offscreen
    platform ``QTest.mouseMove`` finds no window under a point when several windows are open."""
    p = QPointF(pos)
    QApplication.sendEvent(widget, QMouseEvent(QEvent.Type.MouseMove, p, widget.mapToGlobal(p), Qt.MouseButton.NoButton,
                                               Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier))


@pytest.fixture(scope="module")
def module_two_runs(request, qapp, real, runs, tmp_path_factory):
    """One main window for the module on the first two real runs without a collection, as
    :func:`open_window` opens it, for the tests that only open Runs windows from it
    (:func:`two_runs`); QSettings in a folder of its own until the first test's
    ``fresh_settings``; closed and deleted after the module's last test (as tests/app/conftest.py's
    ``shared_real_window``)."""
    from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths
    from pytestqt.qtbot import QtBot

    QStandardPaths.setTestModeEnabled(True)
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path_factory.mktemp("runs-window-settings")))
    bot = QtBot(request)
    window = open_window(bot, real, runs[:2], collection=False)
    yield window
    bot.waitUntil(lambda: activity().count == 0, timeout=20_000)
    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def two_runs(module_two_runs, qtbot):
    """:func:`module_two_runs` as a fresh window has it: no Runs window yet (the ones a test
    opened are closed and deleted after it: View ▸ Compare all runs builds a new one)."""
    from PySide6.QtCore import QCoreApplication

    window = module_two_runs
    assert window.runs_window is None and not window.findChildren(rw.RunsWindow)
    yield window
    for w in window.findChildren(rw.RunsWindow):
        wait_idle(qtbot, w)
        w.close()
        w.deleteLater()
    window.runs_window = None
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def closing():
    """Windows to close at the end (the Runs window is a child of the main window)."""
    made: list = []
    yield made
    for w in made:
        w.close()


def test_view_menu_entry_and_a_free_shortcut(qtbot, two_runs):
    window = two_runs
    assert window.act_runs.text() == "Compare all runs"
    assert window.act_runs.shortcut() == QKeySequence(RUNS_SHORTCUT)
    others = [a for a in window.findChildren(QAction) if a is not window.act_runs]
    assert all(QKeySequence(RUNS_SHORTCUT) not in a.shortcuts() for a in others)
    listed = {text: keys for _, text, keys in shortcuts(window)}
    assert listed["Compare all runs"] == [QKeySequence(RUNS_SHORTCUT).toString(QKeySequence.SequenceFormat.NativeText)]


def test_compare_the_five_real_runs(qtbot, real, runs, evaluations, closing, tmp_path):
    window = open_window(qtbot, real, runs)
    w = open_runs(qtbot, window)
    closing.append(w)
    assert w.busy()
    qtbot.waitUntil(lambda: w.progress.isVisible(), timeout=5_000)  # the comparison runs, with progress
    wait_idle(qtbot, w)
    assert w.result is not None and w.errors_shown == []
    # few resamples for the rest: the evaluations are kept, only the test runs again
    compare_with(qtbot, w, resamples=RESAMPLES)
    c = w.result.comparison
    e = expected(evaluations)
    assert c.runs == LABELS and c.measures == list(rm.DEFAULT_MEASURES) and c.resamples == RESAMPLES
    np.testing.assert_array_equal(c.means, e.means)
    np.testing.assert_array_equal(c.ci, e.ci)
    np.testing.assert_array_equal(c.order, e.order)
    np.testing.assert_array_equal(c.p, e.p)
    np.testing.assert_array_equal(c.significant, e.significant)
    np.testing.assert_array_equal(c.tau, e.tau)
    np.testing.assert_array_equal(c.doc_tau, e.doc_tau)
    assert c.topics == e.topics and c.left_out == e.left_out == ["2010061", "2010107"]
    assert "2 judged topics not in every run" in w.runs_title.text()
    # the window's session is untouched
    assert [r.path for r in window.session.runs] == [r.path for r in runs]

    # -- Runs tab: ordered by AgP/F(0.25), means as the engine's, marks between neighbours ----
    assert w.measure.currentText() == "AgP/F(0.25)"
    rows = w.texts(w.runs_table)
    n = len(LABELS)
    assert [r[1] for r in rows[:n]] == [LABELS[i] for i in e.order[0]]
    assert [r[0] for r in rows[:n]] == [str(i) for i in range(1, n + 1)]
    for row, i in zip(rows, e.order[0]):
        assert row[2] == f"{e.means[0, i]:.4f}"
        for q in range(1, 4):
            assert row[w.measure_columns[q]] == f"{e.means[q, i]:.4f} ({e.rank[q, i]})"
    neighbours = {p.better: p for p in e.neighbours(0)}
    assert len(neighbours) == n - 1
    for row, i in zip(rows, e.order[0]):
        pair = neighbours.get(int(i))
        mark = row[w.mark_column]
        assert mark == ("" if pair is None else rw.SIGNIFICANT_MARK if pair.significant else rw.NOT_SIGNIFICANT_MARK)
    assert any(p.significant for p in neighbours.values()) and not all(p.significant for p in neighbours.values())
    footer = rows[n]
    assert footer[1] == "significant pairs"
    for q in range(4):
        sig, total = e.significant_count(q)
        assert footer[w.measure_columns[q]] == f"{sig} of {total}" and total == 10
    tip = w.runs_table.item(0, 2).toolTip()
    i = e.order[0][0]
    assert f"[{e.ci[0, i, 0]:.4f}, {e.ci[0, i, 1]:.4f}]" in tip and "95% bootstrap percentile interval" in tip
    assert rw.SIGNIFICANT_MARK in w.runs_legend.text()

    # -- Significance tab: the pair matrix of the chosen measure, by score ------------------
    w.tabs.setCurrentIndex(rw.TABS.index("Significance"))
    assert (w.heat.rowCount(), w.heat.columnCount()) == (n, n)
    assert w.heat_order == [int(i) for i in e.order[0]]
    for a, i in enumerate(e.order[0]):
        assert w.heat.verticalHeaderItem(a).text().split()[1] == LABELS[i]
        assert LABELS[i] in w.heat.horizontalHeaderItem(a).text().replace("\n", "")
        for b, j in enumerate(e.order[0]):
            cell = w.heat.item(a, b).text()
            if a < b:
                assert w.heat_p[a, b] == e.p[0, i, j]
                low, high = (rm.fmt_signed(x, 3) for x in e.diff_ci[0, i, j])
                assert cell == rm.fmt_p(e.p[0, i, j]) + (" *" if e.significant[0, i, j] else "") + f"\n[{low}, {high}]"
                assert e.diff_ci[0, i, j, 0] <= e.diff[0, i, j] <= e.diff_ci[0, i, j, 1]
            else:
                assert np.isnan(w.heat_p[a, b]) and cell in ("—", "")
    sig, total = e.significant_count(0)
    assert f"{sig} of {total}" in w.heat_title.text()

    # -- the user picks another measure by clicking its column: every tab follows -----------
    w.tabs.setCurrentIndex(rw.TABS.index("Runs"))
    w.runs_table.horizontalHeader().sectionClicked.emit(w.measure_columns[3])  # ANCE@600/LE(300)
    assert w.measure.currentText() == "ANCE@600/LE(300)"
    rows = w.texts(w.runs_table)
    assert [r[1] for r in rows[:n]] == [LABELS[i] for i in e.order[3]]
    means = [e.means[3, i] for i in e.order[3]]
    assert means == sorted(means)  # lower is better: the least effort first
    assert w.heat_order == [int(i) for i in e.order[3]]

    # -- Correlation tab: each point a run, tau and r in the title, hover names the run -----
    w.tabs.setCurrentIndex(rw.TABS.index("Correlation"))
    w.x_measure.setCurrentIndex(0)
    w.y_measure.setCurrentIndex(1)
    qtbot.wait(50)
    xs, ys = w.scatter.getData()
    np.testing.assert_array_equal(xs, e.means[0])
    np.testing.assert_array_equal(ys, e.means[1])
    assert f"τ = {e.tau[0, 1]:.3f}" in w.scatter_title and f"r = {e.r[0, 1]:.3f}" in w.scatter_title
    assert f"τ {e.doc_tau[0]:.3f}" in w.corr_note.text()  # against the runs as whole documents
    assert [label.textItem.toPlainText() for label in w._labels] == LABELS
    assert w.corr_table.item(0, 1).text() == f"τ {e.tau[0, 1]:.3f}\nr {e.r[0, 1]:.3f}"
    # hover the best AgP/aveChP run's point with the mouse
    i = int(e.order[1][0])
    vb = w.plot.getPlotItem().getViewBox()
    spot = w.plot.mapFromScene(vb.mapViewToScene(QPointF(float(e.means[0, i]), float(e.means[1, i]))))
    hover(w.plot.viewport(), spot)
    qtbot.waitUntil(lambda: LABELS[i] in vb.toolTip(), timeout=5_000)
    assert vb.toolTip() == (f"{LABELS[i]}\nAgP/F(0.25): {e.means[0, i]:.4f}\nAgP/aveChP: {e.means[1, i]:.4f}")
    # an effort measure's axis is reversed, so up and right stay better
    w.y_measure.setCurrentIndex(3)
    assert vb.yInverted() and not vb.xInverted()
    assert "axis reversed" in w.plot.getPlotItem().getAxis("left").labelText

    # -- exports: CSV (the engine's numbers at full precision) and pictures -------------------
    out = w.export_csv("runs", tmp_path / "runs.csv")
    table = table_rows(out)
    assert len(table) == 4 * n
    first = [r for r in table if r["measure"] == "AgP/F(0.25)"]
    assert [r["run"] for r in first] == [LABELS[i] for i in e.order[0]]
    assert [float(r["mean"]) for r in first] == [e.means[0, i] for i in e.order[0]]
    assert [r["significant_vs_next"] for r in first] == [
        str(bool(neighbours[int(i)].significant)).lower() if int(i) in neighbours else "" for i in e.order[0]]
    pairs = table_rows(w.export_csv("pairs", tmp_path / "pairs.csv"))
    assert len(pairs) == 4 * 10
    assert sum(r["significant"] == "true" for r in pairs) == int(e.significant.sum())
    for r in pairs:  # each pair's interval holds its mean difference
        assert float(r["ci_low"]) <= float(r["diff"]) <= float(r["ci_high"])
    corr = table_rows(w.export_csv("correlations", tmp_path / "c.csv"))
    assert {(r["measure"], r["other"], r["other_as_documents"]) for r in corr} >= {
        ("AgP/F(0.25)", "AgP/aveChP", "false"), ("AgP/F(0.25)", "AgP/F(0.25)", "true")}
    for index, name in enumerate(rw.TABS[:3]):
        w.tabs.setCurrentIndex(index)
        for suffix in (".png", ".svg"):
            path = w.export_picture(tmp_path / f"{name}{suffix}")
            assert path.stat().st_size > 1000
    assert (tmp_path / "Runs.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "Significance.svg").read_bytes()[:2000]
    assert w.errors_shown == []

    # -- another test: the paired t-test, as the engine computes it ---------------------------
    compare_with(qtbot, w, test="t", correction="holm")
    e = expected(evaluations, test="t", correction="holm")
    np.testing.assert_array_equal(w.result.comparison.p_adjusted, e.p_adjusted)
    assert "paired t-test" in w.setting.text() and "holm" in w.setting.text()
    k = w.measure.currentIndex()
    assert w.heat_p[0, 1] == e.p_adjusted[k, e.order[k][0], e.order[k][1]]


def test_fidelity_tab_on_the_complete_topics(qtbot, real, runs, closing, tmp_path):
    window = open_window(qtbot, real, runs[:1])
    w = open_runs(qtbot, window)
    closing.append(w)
    wait_idle(qtbot, w)
    assert "at least 2 runs" in w.message.text()  # one run: nothing to compare, said
    w.tabs.setCurrentIndex(rw.TABS.index("Fidelity"))
    assert w.fidelity_button.isEnabled()
    tab = w.fidelity_tab
    for table, what in ((w.table2, "fidelity tests"), (w.table1, "score the 20 simulated runs")):
        # the empty panes say what to press
        assert table.placeholder.isVisible() and table.placeholder.geometry() == table.viewport().rect()
        assert f"Press “{w.fidelity_button.text()}”" in table.placeholder.text() and what in table.placeholder.text()
    w.fidelity_button.click()
    assert w.busy()
    assert all("Computing the fidelity tables" in t.placeholder.text() for t in (w.table2, w.table1))
    wait_idle(qtbot, w)
    assert not w.table2.placeholder.isVisible() and not w.table1.placeholder.isVisible()
    # every column shows its header and values whole (the paper's AgP row was elided) and, when
    # the tab is wide enough for both tables, Table 2 is given the width its columns need
    for table in (w.table2, w.table1):
        h = table.horizontalHeader()
        for c in range(table.columnCount()):
            assert h.sectionSize(c) >= max(table.sizeHintForColumn(c), h.sectionSizeHint(c)), (table, c)
    if sum(tab.split.sizes()) >= tab.table_width(w.table2) + tab.table_width(w.table1):
        assert w.table2.horizontalHeader().length() <= w.table2.viewport().width()
    f = w.fidelity
    assert f is not None and w.errors_shown == []
    e = fidelity_tables(real["qrels"], Collection(real["collection"]), list(rm.DEFAULT_MEASURES))
    assert f.topics == e.topics == ["2009067", "2009073", "2009074", "2009078"]
    np.testing.assert_array_equal(f.means, e.means)
    np.testing.assert_array_equal(f.diff, e.diff)
    assert f.verdict == e.verdict
    rows = w.texts(w.table2)
    assert len(rows) == 36 and w.table2.columnCount() == 8
    k = 0  # AgP/F(0.25), the measure chosen at the top
    for o, ((first, second), row) in enumerate(zip(e.orderings, rows)):
        assert row[0].lstrip("• ") == f"{first} ≥ {second}"
        assert row[0].startswith("•") == ((first, second) in ALWAYS)
        assert row[1] == rm.fmt_signed(e.diff[k, o] * 100, 2)
        assert row[2:5] == [str(e.better[k, o]), str(e.equal[k, o]), str(e.worse[k, o])]
        assert row[6] == e.verdict[k][o]
        if (first, second) in ALWAYS:  # the 28 orderings the paper's AgP always confirms
            assert row[6] == RESPECTED and row[4] == "0"
    assert "28 of the 28" in w.verdict.text()
    t1 = w.texts(w.table1)
    assert [r[0] for r in t1] == e.runs and t1[0][1] == "1.0000"  # SR: the relevant text exactly
    assert [r[1] for r in t1] == [f"{v:.4f}" for v in e.means[0]]
    # Table 2 as CSV, every measure's rows
    table = table_rows(w.export_csv("fidelity2", tmp_path / "t2.csv"))
    assert len(table) == 4 * 36
    agp = [r for r in table if r["measure"] == "AgP/F(0.25)"]
    assert [r["verdict"] for r in agp] == e.verdict[0]
    assert [float(r["diff"]) for r in agp] == [float(v) for v in e.diff[0]]
    assert sum(r["always"] == "true" for r in agp) == 28
    t1csv = table_rows(w.export_csv("fidelity1", tmp_path / "t1.csv"))
    assert len(t1csv) == 20 and float(t1csv[0]["AgP/F(0.25)"]) == e.means[0, 0]


def test_fidelity_needs_a_collection_with_complete_topics(qtbot, real, runs, closing, tmp_path):
    window = open_window(qtbot, real, runs[:2], collection=False)
    w = open_runs(qtbot, window)
    closing.append(w)
    wait_idle(qtbot, w)
    w.tabs.setCurrentIndex(rw.TABS.index("Fidelity"))
    assert not w.fidelity_button.isEnabled()
    assert "Open a collection folder" in w.fidelity_status.text()
    assert w.table2.placeholder.isVisible() and "Open a collection folder" in w.table2.placeholder.text()
    w.compute_fidelity()  # even when asked: told, not computed
    assert not w.busy() and w.fidelity is None
    # a collection that holds none of the relevant articles: no complete topic, said in the tab
    empty = tmp_path / "articles"
    empty.mkdir()
    (empty / "1.xml").write_text("<article><name id='1'>One</name><body>text</body></article>")
    # the new collection makes the window compare the runs again, looking up every judged article in
    # it: without the runs as whole documents (unticked, as a user can), which nothing here reads
    w.set_options(baseline=False)
    window.session.adopt(Loaded(collection=Collection(empty)))
    qtbot.waitUntil(lambda: w.fidelity_button.isEnabled(), timeout=10_000)
    wait_idle(qtbot, w)
    w.fidelity_button.click()
    wait_idle(qtbot, w)
    assert w.fidelity is None
    assert "no judged topic has all its relevant articles in the collection" in w.fidelity_status.text()
    assert any("no judged topic" in t for t in w.errors_shown)


def test_adding_runs_a_bad_one_is_told(qtbot, two_runs, runs, inex, closing, tmp_path):
    window = two_runs
    w = open_runs(qtbot, window)
    closing.append(w)
    wait_idle(qtbot, w)
    assert w.result.comparison.runs == LABELS[:2]
    binary = tmp_path / "binary.run"
    binary.write_bytes(b"2009074 Q0 1 1 1 x\0\0\0")
    qrels_like = tmp_path / "qrels-as-run.run"
    qrels_like.write_text("2009074 Q0 23724 1 74827 100 0:23\n")
    missing = tmp_path / "missing.run"
    w.add_run_files([str(binary), str(inex / "runs" / "indri-documents.run"), str(missing), str(qrels_like)])
    wait_idle(qtbot, w)
    # the good run is added and compared; each bad file is named with its reason
    assert [Path(r.path).name for r in w.extra_runs] == ["indri-documents.run"]
    assert w.run_list.count() == 3 and "(added here)" in w.run_list.item(2).text()
    assert w.result.comparison.runs == [*LABELS[:2], "indri"]
    assert len(w.errors_shown) == 3
    assert str(binary) in w.errors_shown[0] and "binary" in w.errors_shown[0]
    assert str(missing) in w.errors_shown[1]
    assert str(qrels_like) in w.errors_shown[2] and "qrels" in w.errors_shown[2]
    assert [r.path for r in window.session.runs] == [r.path for r in runs[:2]]  # the window's runs stay
    # a folder with no run file, and a measure that does not parse: told, no traceback
    (tmp_path / "empty").mkdir()
    w.add_run_files([str(tmp_path / "empty")])
    wait_idle(qtbot, w)
    assert "no run file" in w.errors_shown[-1] and str(tmp_path / "empty") in w.errors_shown[-1]
    w.set_options(measures=["AgP/F(0.25)", "AgP/nonsense"])
    w.compare_button.click()
    assert not w.busy() and w.errors_shown[-1].startswith("Measures: unknown measure 'nonsense'")
    # unticking runs: fewer than 2 is refused with a message
    w.set_options(measures=list(rm.DEFAULT_MEASURES))
    for i in (1, 2):
        w.run_list.item(i).setCheckState(Qt.CheckState.Unchecked)
    wait_idle(qtbot, w)
    w.compare_button.click()
    assert "at least 2 runs to compare (1 ticked)" in w.message.text()
    # removing the added run
    w.run_list.item(2).setSelected(True)
    w.remove_button.click()
    assert w.extra_runs == [] and w.run_list.count() == 2
    wait_idle(qtbot, w)


def test_export_errors_name_the_path_and_geometry_is_kept(qtbot, two_runs, closing, tmp_path, monkeypatch):
    window = two_runs
    w = open_runs(qtbot, window)
    closing.append(w)
    wait_idle(qtbot, w)
    # a user chooses a file in a folder that does not exist, through the Export menu
    target = tmp_path / "no-such-folder" / "runs.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "CSV table (*.csv)"))
    w.csv_actions["runs"].trigger()
    assert str(target) in w.errors_shown[-1] and "Nothing was written" in w.errors_shown[-1]
    assert not target.exists()
    # the same through the menu to a good path writes the file
    good = tmp_path / "runs.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(good), "CSV table (*.csv)"))
    w.csv_actions["runs"].trigger()
    assert good.read_text().startswith("# readsim: ") and "\nmeasure,rank,run,mean" in good.read_text()
    # nothing to export yet: the fidelity tables are not computed (the action is off, and told)
    assert not w.csv_actions["fidelity2"].isEnabled()
    with pytest.raises(ValueError, match="not computed"):
        w.export_csv("fidelity2", tmp_path / "t2.csv")
    # the window keeps its size and place
    w.resize(1234, 777)
    w.close()
    assert not app_settings().value("runs_window/geometry").isEmpty()
    again = rw.RunsWindow(window.session, window, show_dialogs=False)
    closing.append(again)
    # the size comes back as it was (within the frame's margins; the tests' screen is 1,920 x 1,080,
    # tests/offscreen-screen.json), not the default 1500 x 900
    assert abs(again.height() - 777) <= 10 and abs(again.width() - 1234) <= 10


def test_pure_helpers():
    assert cells.wrap_label("bert-passages-map199") == "bert-passages-\nmap199"
    assert cells.wrap_label("ANCE@600/LE(300)", 12) == "ANCE@600/\nLE(300)"
    assert cells.wrap_label("AgP/F(0.25)", 9) == "AgP/\nF(0.25)"  # never inside a number
    assert cells.wrap_label("run.v2.final", 6) == "run.\nv2.\nfinal"
    assert rm.fmt_p(0.0004) == "<0.001" and rm.fmt_p(float("nan")) == "–" and rm.fmt_p(0.0312) == "0.031"
    assert [m.name for m in rm.parse_measures("AgP/F(0.25)  AgP/aveChP;AgP/F(0.25)\nMAP")] == [
        "AgP/F(0.25)", "AgP/aveChP", "MAP"]
    with pytest.raises(ValueError, match="no measure"):
        rm.parse_measures("  ")

    class R:
        def __init__(self, path):
            self.path, self.run_id = path, "x"

    # one run id shared by the three: each labelled by its file name, the repeated one numbered
    assert rm.run_labels([R("/a/x.run"), R("/b/x.run"), R("/a/y.txt")]) == ["x.run", "x.run (2)", "y.txt"]
    light, dark = cells.p_colour(0.05, 0.05), cells.p_colour(0.0, 0.05)
    assert light.lightness() > dark.lightness()
