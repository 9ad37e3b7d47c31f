"""Moving ranks in the window and the worth of the edits, acting as a user on real data
(indri-passages.run, topic 2009078: 100 ranked articles, 5 relevant in the qrels).

Expected numbers: the article order by hand (which article is at which rank, read from the run
file's lines); list values from a fresh ``readsim.core.listmeasures.evaluate`` of the run files read
again here (the original file, and the file the window saved); AgP of a reordered topic also
from its definition (Kamps et al., INEX 2007 evaluation measures, LNCS 4862, 2008: AgP = sum of
gP[r] over the relevant ranks / Nrel, gP[r] = mean document score of the first r articles),
computed here with numpy from the rows' F(0.25) scores.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication

from readsim.operations.article_reading import panel_scores
from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from readsim.app.widgets.edit_worth import EditWorth
from readsim.app.widgets.ranked_list import F, RANKED_MIME
from readsim.app.widgets.topic_view import DEFAULT_DOC
from readsim.app.baseline_scores import DEFAULT_LIST_MEASURE
from helpers.one_article import document
from readsim.core.collection import Collection
from readsim.core.formats import read_qrels, read_run, write_run
from readsim.core.listmeasures import evaluate
from readsim.core.measure import parse_list_measure
from readsim.core.reading import Mode

TOPIC = "2009078"
FIRST5 = ["233488", "20926", "2829632", "1222568", "90500"]  # the run file's first five articles of the topic
AGP_F = parse_list_measure("AgP/F(0.25)")


@pytest.fixture(scope="module")
def data(inex):
    return {"qrels": read_qrels(inex / "qrels" / "inex2009-2010.qrels"), "path": inex / "runs" / "indri-passages.run",
            "collection": inex / "articles"}


def open_topic(qtbot, session, data, path) -> None:
    """The collection, the qrels and the run at ``path``, on topic 2009078 and article 20926, as
    a window opened on them; waits for its 100 rows."""
    session.adopt(Loaded(collection=Collection(data["collection"]), qrels=data["qrels"], runs=[read_run(path)]),
                  TOPIC, "20926")
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None and session.rows_ready()
                    and len(session.rows) == 100, timeout=20_000)


@pytest.fixture
def fresh_win(qtbot, data):
    """A window of its own, for a test that saves (the editor then compares with the run as
    saved and Ctrl+S writes to that file) or opens the Runs window (which stays, a child of the
    window, and compares again at every later edit)."""
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()
    open_topic(qtbot, session, data, data["path"])
    yield window
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


@pytest.fixture(scope="module")
def module_win(request, qapp, data, tmp_path_factory):
    """One window for the module's tests that undo what they change (:func:`win`), as
    :func:`fresh_win` opens it: a window costs about a second of CPU to build and fill. QSettings
    in a folder of its own until the first test's ``fresh_settings``; closed and deleted after the
    module's last test (as tests/app/conftest.py's ``shared_real_window``)."""
    from PySide6.QtCore import QCoreApplication, QEvent, QSettings, QStandardPaths
    from pytestqt.qtbot import QtBot

    QStandardPaths.setTestModeEnabled(True)
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path_factory.mktemp("rank-edits-settings")))
    window = MainWindow(Session(), show_dialogs=False, restore=False)
    window.show()
    open_topic(QtBot(request), window.session, data, data["path"])
    window.file_order = order(window, 100)  # the run file's order of the topic's articles
    yield window
    QtBot(request).waitUntil(lambda: activity().count == 0, timeout=20_000)
    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def undo_all(qtbot, window) -> None:
    """Every edit undone, the history emptied: the run in the file's order, nothing unsaved."""
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
    stack = window.editing.editor.stack
    while stack.canUndo():
        stack.undo()
    stack.clear()
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


@pytest.fixture
def win(qtbot, module_win):
    """The module's one window (:func:`module_win`) as a fresh window shows it: the run in the
    file's order with an empty history (what a test edited is undone after it), article 20926
    open and selected, the list at its top, the edits' box and the topic view on their default
    measures, the window active (its shortcuts work)."""
    w = module_win
    undo_all(qtbot, w)
    w.edit_worth.measure.setCurrentText(DEFAULT_LIST_MEASURE)
    w.topic_view.set_doc_kind(DEFAULT_DOC)
    s = w.session
    if s.current.name != "20926":
        s.open_article("20926")
        qtbot.waitUntil(lambda: activity().count == 0 and s.current.name == "20926", timeout=20_000)
    w.table.select_article("20926")
    w.table.scrollToTop()
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=5_000)
    assert order(w, 100) == w.file_order
    assert w.edit_worth.isHidden() and s.baselines == [] and not w.windowTitle().startswith("*")
    yield w
    undo_all(qtbot, w)


def order(window, n=5):
    return [r.article for r in window.session.rows[:n]]


def fresh(data, path, mode=Mode.NATURAL):
    """A fresh evaluation of a run file: read again, AgP/F(0.25) with the collection."""
    return evaluate(data["qrels"], read_run(path), [AGP_F], mode, Collection(data["collection"]))


def test_move_by_keys_and_undo(qtbot, win):
    s = win.session
    assert order(win) == FIRST5
    win.table.select_article("1222568")  # rank 4
    qtbot.keyClick(win.table, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: order(win)[2] == "1222568")
    assert order(win) == ["233488", "20926", "1222568", "2829632", "90500"]
    assert [r.rank for r in s.rows[:5]] == [1, 2, 3, 4, 5]
    assert [e.article for e in s.run.topics[TOPIC][:5]] == order(win)
    assert [e.rank for e in s.run.topics[TOPIC][:5]] == [1, 2, 3, 4, 5]
    assert win.table.selected_article() == "1222568"  # the moved row stays selected
    qtbot.keyClick(win.table, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    qtbot.keyClick(win.table, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert order(win) == ["233488", "20926", "2829632", "90500", "1222568"]
    assert win.windowTitle().startswith("* ")
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert order(win) == ["233488", "20926", "2829632", "1222568", "90500"]
    win.editing.act_undo.trigger()
    win.editing.act_undo.trigger()
    assert order(win) == FIRST5
    assert win.editing.editor.stack.isClean() and not win.windowTitle().startswith("* ")
    win.editing.act_redo.trigger()
    assert order(win) == ["233488", "20926", "1222568", "2829632", "90500"]
    win.table.select_article("1222568")
    assert win.rank_edits.move(-5)  # clipped at rank 1
    assert order(win)[:3] == ["1222568", "233488", "20926"]
    assert not win.rank_edits.move(-1)  # already first: nothing changes
    assert win.editing.editor.stack.count() == 2


def drop(view, article, row, lower=False):
    """Drop ``article``'s dragged row on the upper (or lower) half of the view's ``row``."""
    mime = QMimeData()
    mime.setData(RANKED_MIME, article.encode())
    rect = view.visualRect(view.proxy.index(row, 0))
    y = rect.top() + (3 * rect.height() // 4 if lower else rect.height() // 4)
    event = QDropEvent(QPointF(QPoint(rect.center().x(), y)), Qt.DropAction.MoveAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    view.dropEvent(event)
    return event, mime  # the event refers to the MIME data: both kept


def test_move_by_a_simulated_drop(qtbot, win):
    view = win.table
    dragged = view.source.mimeData([view.source.index(4, 0)])  # what a drag of rank 5 carries
    assert bytes(dragged.data(RANKED_MIME)) == b"90500"
    event, _mime = drop(view, "90500", 1)  # on the upper half of rank 2: 90500 takes rank 2
    assert event.isAccepted()
    assert win.model.rowCount() == 100  # no row removed or added: the run's order changed
    assert order(win) == ["233488", "90500", "20926", "2829632", "1222568"]
    drop(view, "233488", 3, lower=True)  # rank 1 dropped on the lower half of rank 4: after it
    assert order(win) == ["90500", "20926", "2829632", "233488", "1222568"]
    drop(view, "233488", 3)  # on itself: nothing
    assert win.editing.editor.stack.count() == 2


def test_saved_run_has_the_new_ranks_and_scores_the_same(qtbot, fresh_win, data, tmp_path):
    win = fresh_win
    s = win.session
    win.table.select_article("90500")  # rank 5, relevant
    for _ in range(4):
        win.rank_edits.move(-1)
    assert order(win) == ["90500", *FIRST5[:4]]
    out = tmp_path / "moved.run"
    assert win.editing.save_as(str(out))
    lines = out.read_text().splitlines()
    original = data["path"].read_text().splitlines()
    assert len(lines) == len(original)
    topic_lines = [ln.split() for ln in lines if ln.split()[0] == TOPIC]
    file_lines = [ln.split() for ln in original if ln.split()[0] == TOPIC]
    assert list(dict.fromkeys(f[2] for f in topic_lines))[:5] == ["90500", *FIRST5[:4]]
    # this file numbers the topic's lines (one per passage): so does the saved one
    assert [f[3] for f in file_lines] == [str(i) for i in range(1, len(file_lines) + 1)]
    assert [f[3] for f in topic_lines] == [str(i) for i in range(1, len(topic_lines) + 1)]
    # the rsv stays the file's k-th article's: 90500 now first, with 233488's 34.0178
    def first_rsv(rows):  # each article's first line's rsv, in file order
        out = {}
        for f in rows:
            out.setdefault(f[2], f[4])
        return out

    assert list(first_rsv(topic_lines).values()) == list(first_rsv(file_lines).values())
    assert first_rsv(topic_lines)["90500"] == "34.0178" == first_rsv(file_lines)["233488"]
    others = [ln for ln in lines if ln.split()[0] != TOPIC]
    assert others == [ln for ln in original if ln.split()[0] != TOPIC]  # other topics byte for byte
    back = fresh(data, out)
    now = evaluate(data["qrels"], s.run, [AGP_F], Mode.NATURAL, Collection(data["collection"]))
    assert back.values[AGP_F.name] == now.values[AGP_F.name]
    assert back.values[AGP_F.name][TOPIC] != fresh(data, data["path"]).values[AGP_F.name][TOPIC]  # the move counts


def test_before_and_after_equal_fresh_evaluations(qtbot, win, data, tmp_path):
    s = win.session
    box = win.edit_worth
    assert box.isHidden() and box.measure.currentText() == DEFAULT_LIST_MEASURE
    before = fresh(data, data["path"])
    win.table.select_article("90500")
    win.rank_edits.move(-4)  # the relevant 90500 from rank 5 to rank 1
    qtbot.waitUntil(lambda: box.worth is not None, timeout=20_000)
    w = box.worth
    assert w.topic_before == before.values[AGP_F.name][TOPIC]
    assert w.mean_before == before.means[AGP_F.name] and w.n == len(before.topics) == 120
    # now: the edited run saved and read again, evaluated afresh
    out = tmp_path / "now.run"
    write_run(s.run, out)
    after = fresh(data, out)
    assert w.topic_now == after.values[AGP_F.name][TOPIC]
    assert w.mean_now == after.means[AGP_F.name]
    # AgP by its definition over the reordered rows' F(0.25) (0 for non-relevant articles)
    judged = data["qrels"].topics[TOPIC]
    rel = np.array([r.article in judged and judged[r.article].relevant for r in s.rows])
    f = np.array([win.model.data(win.model.index(i, F), Qt.ItemDataRole.UserRole + 2) for i in range(100)])
    scores = np.where(rel, f, 0.0)
    gp = np.cumsum(scores) / np.arange(1, 101)
    assert w.topic_now == pytest.approx(gp[rel].sum() / 5, abs=1e-12)
    assert w.topic_now > w.topic_before  # a relevant article moved to the top gains
    assert box.lines() == [f"Topic {TOPIC}: {w.topic_now:.4f} (before {w.topic_before:.4f}, {w.topic_now - w.topic_before:+.4f})",
                           f"Mean over 120 topics: {w.mean_now:.4f} (before {w.mean_before:.4f}, "
                           f"{w.mean_now - w.mean_before:+.4f})"]
    # the article's scores: a move changes none ("was" = now, +0)
    assert win.scores.before_text("F(0.25)") == f"was {win.scores.value_text('F(0.25)')}, +0.0000"
    # a passage edit of the open article: "was" is the original run's evaluation
    s.open_article("90500")
    qtbot.waitUntil(lambda: s.current.name == "90500" and activity().count == 0, timeout=20_000)
    assert win.editing.editor.set_retrieved([[0, 500]])
    orig = read_run(data["path"])
    ev = document(data["qrels"], orig, TOPIC, orig.article(TOPIC, "90500"), Mode.NATURAL, Collection(data["collection"]))
    was = panel_scores(ev, s.settings)
    now = panel_scores(s.current.evaluation, s.settings)
    assert win.scores.value_text("F(0.25)") == f"{now['F(0.25)']:.4f}"
    assert win.scores.before_text("F(0.25)") == f"was {was['F(0.25)']:.4f}, {now['F(0.25)'] - was['F(0.25)']:+.4f}"
    assert win.scores.before_text("LE(300)") == f"was {was['LE(300)']:.0f}, {now['LE(300)'] - was['LE(300)']:+.0f}"
    qtbot.waitUntil(lambda: box.worth is not None and box.worth.topic_now != w.topic_now, timeout=20_000)
    both = tmp_path / "both.run"  # the move and the passage edit: saved, read again, evaluated afresh
    write_run(s.run, both)
    after = fresh(data, both)
    assert box.worth.topic_now == after.values[AGP_F.name][TOPIC]
    assert box.worth.mean_now == after.means[AGP_F.name]
    assert box.worth.topic_before == w.topic_before and box.worth.mean_before == w.mean_before
    # all undone: no baseline, no "was", the box hidden
    while win.editing.editor.stack.canUndo():
        win.editing.act_undo.trigger()
    assert s.baselines == [] and box.isHidden()
    assert win.scores.before_text("F(0.25)") == ""


def test_saving_drops_the_baseline(qtbot, fresh_win, tmp_path):
    win = fresh_win
    s = win.session
    win.table.select_article("90500")
    win.rank_edits.move(-1)
    assert s.baseline() is not None and win.edit_worth.isVisible()
    assert win.editing.save_as(str(tmp_path / "saved.run"))
    assert s.baseline() is None and win.edit_worth.isHidden()
    assert win.scores.before_text("F(0.25)") == ""
    win.rank_edits.move(-1)  # the next edit compares with the run as saved
    base = s.baseline()
    assert [e.article for e in base.topics[TOPIC][:5]] == ["233488", "20926", "2829632", "90500", "1222568"]


def test_the_list_measure_is_remembered(qtbot, win):
    box = win.edit_worth
    assert box.measure.currentText() == "AgP/F(0.25)"
    box.measure.setCurrentText("AgP/aveChP")
    again = EditWorth(win.session)
    qtbot.addWidget(again)
    assert again.measure.currentText() == "AgP/aveChP"
    box.measure.setCurrentText("no such measure")
    assert "not a list measure" in box.text.text()
    assert EditWorth(win.session).measure.currentText() == "AgP/aveChP"  # a bad name is not remembered


def test_runs_window_compares_the_run_before_its_edits(qtbot, fresh_win, data, tmp_path):
    win = fresh_win
    s = win.session
    win.table.select_article("90500")
    win.rank_edits.move(-4)
    win.act_runs.trigger()
    rw = win.runs_window
    # the comparison starts at the event loop's next turn, with the options then set: the runs as
    # whole documents (the correlations' baseline, which nothing here reads) unticked first, as a
    # user can, halves its evaluations (each reads every judged article of the run)
    assert rw.result is None and not rw.compare_job.busy()
    rw.set_options(baseline=False)
    qtbot.waitUntil(lambda: rw.result is not None and not rw.busy(), timeout=60_000)
    r = rw.result
    assert r.labels == ["indri-passages", "indri-passages (before edits)"] and r.before == {0: 1}
    out = tmp_path / "now.run"
    write_run(s.run, out)
    q = r.comparison.measures.index(AGP_F.name)
    c = r.comparison
    after_ev, before_ev = fresh(data, out), fresh(data, data["path"])
    # per topic the fresh evaluations' values, to rounding (the Runs window scores through
    # readsim.core.run_comparison's own arrays); the means are compare's (numpy over the paired topics)
    assert c.scores[q, 1].tolist() == pytest.approx([before_ev.values[AGP_F.name][t] for t in c.topics], rel=1e-12)
    assert c.scores[q, 0].tolist() == pytest.approx([after_ev.values[AGP_F.name][t] for t in c.topics], rel=1e-12)
    now, before = after_ev.means[AGP_F.name], before_ev.means[AGP_F.name]
    assert float(c.means[q, 0]) == pytest.approx(now, rel=1e-12)
    assert float(c.means[q, 1]) == pytest.approx(before, rel=1e-12)
    now, before = float(c.means[q, 0]), float(c.means[q, 1])
    m = rw.runs_tab.model
    cells = [m.index(0, c).data() for c in range(m.columnCount())]
    assert any(text.startswith(f"{now:.4f} (+{now - before:.4f})") for text in cells if text)
    win.editing.act_undo.trigger()  # all undone: one run left, nothing to compare, no stale row
    qtbot.waitUntil(lambda: not rw.busy() and s.baselines == [] and rw.result is None, timeout=60_000)
    assert "at least 2 runs" in rw.message.text()


def test_the_article_header_follows_a_move(qtbot, win):
    assert "rank 2 " in win.article.header.text()  # 20926, the open article
    win.rank_edits.drop("20926", 4)
    assert "rank 4 " in win.article.header.text()
    win.editing.act_undo.trigger()
    assert "rank 2 " in win.article.header.text()


def test_save_over_its_own_file_then_undo_and_save_again(qtbot, tmp_path, data):
    own = tmp_path / "indri.run"
    own.write_bytes(data["path"].read_bytes())
    session = Session()
    w = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    session.adopt(Loaded(collection=Collection(data["collection"]), qrels=data["qrels"], runs=[read_run(own)]),
                  TOPIC, "20926")
    qtbot.waitUntil(lambda: activity().count == 0 and session.rows_ready() and len(session.rows) == 100, timeout=20_000)
    w.rank_edits.drop("90500", 1)
    assert w.editing.save_as(str(own))
    assert [e.article for e in read_run(own).topics[TOPIC][:3]] == ["90500", "233488", "20926"]
    w.editing.act_undo.trigger()  # back to the file's first order, then saved over the moved file
    assert w.editing.save_as(str(own))
    assert own.read_bytes() == data["path"].read_bytes()  # the original, byte for byte (one space between fields)
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


def test_topic_view_says_the_score_before(qtbot, win, data):
    view = win.topic_view
    view.set_doc_kind("F")
    assert "before the unsaved edits" not in view.header.text()
    win.rank_edits.drop("90500", 1)
    qtbot.waitUntil(lambda: "before the unsaved edits" in view.header.text())
    before = fresh(data, data["path"]).values[AGP_F.name][TOPIC]
    now = view.values()[AGP_F.name]
    assert f"AgP/F(0.25) {before:.4f} (now {now - before:+.4f})" in view.header.text()
    win.editing.act_undo.trigger()
    assert "before the unsaved edits" not in view.header.text()
