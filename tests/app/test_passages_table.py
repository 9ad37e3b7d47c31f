"""The "Passages" dock on real INEX data (topic 2009074, article 23724 "PageRank"), with a run
written here, acting as a user: View ▸ Passages, read the rows, change the reading mode and
the screen, select rows (the article view selects the text), sort, export the CSV.

PageRank's relevant passages (qrels, bytes): R1 159:1167 [159,1326), R2 4996:9 [4996,5005),
R3 5008:861 [5008,5869), R4 5913:1865 [5913,7778), R5 8138:262 [8138,8400); doc_length 27562.
The run's lines for it: 1 20000+600, 2 5200+900, 3 12000+400, 4 5800+500 (overlaps line 2),
5 3000+0 (zero length), then TrustRank (2193171) on line 6. Worked by hand:

- chain: P1 [5200,6300) (lines 2 and 4 united: 1100 bytes), P2 [12000,12400), P3 [20000,20600);
  P1 holds [5200,5869) and [5913,6300) of R3 and R4: 669 + 387 = 1056 relevant bytes,
  precision 1056/1100 = 0.96; P2 and P3 hold nothing. Read before: 0, 1100, 1500.
- R3 and R4 are found by P1 (R3 reached at reading position 0: P1 starts inside it; R4 at
  5913 - 5200 = 713); R1, R2, R5 are missed.
- natural: the rest from offset 0 after the 2100 chain bytes: R1 at 2100 + 159 = 2259, R2 at
  2100 + 4996 = 7096, R5 at 2100 + 8138 - 1100 (P1 already read) = 9138.
- worst: the rest's 25462 bytes hold 3108 relevant ones (R1 1167, R2 9, R3's [5008,5200) 192,
  R4's [6300,7778) 1478, R5 262); its 22354 non-relevant bytes come first, so R1 at
  2100 + 22354 = 24454, R2 at 24454 + 1167 = 25621, R5 at 25621 + 9 + 192 + 1478 = 27300.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import re

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QTextCursor
from pytestqt.qtbot import QtBot

from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from readsim.app.widgets.passages_table import (FOUND, LINES, OFFSET, PASSAGE, PRECISION, READ, SCREEN, SHORTCUT,
                                                SORT_ROLE, PassagesModel, table_rows)
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import Settings
from readsim.core.formats import read_run
from readsim.core.passages import ZERO_LENGTH


TOPIC, ARTICLE, OTHER = "2009074", "23724", "2193171"
RUN_LINES = [
    f"{TOPIC} Q0 {ARTICLE} 1 9 mine 20000 600",
    f"{TOPIC} Q0 {ARTICLE} 2 8 mine 5200 900",
    f"{TOPIC} Q0 {ARTICLE} 3 7 mine 12000 400",
    f"{TOPIC} Q0 {ARTICLE} 4 6 mine 5800 500",
    f"{TOPIC} Q0 {ARTICLE} 5 5 mine 3000 0",
    f"{TOPIC} Q0 {OTHER} 6 4 mine 300 500",
]


def wait_loaded(qtbot, session: Session, article: str) -> None:
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and session.current.name == article, timeout=20_000)


def _load(qtbot, w: MainWindow, real, folder) -> MainWindow:
    """``w`` on topic 2009074 with the run above (written to ``folder``), article 23724 open."""
    path = folder / "mine.run"
    path.write_text("\n".join(RUN_LINES) + "\n", encoding="utf-8")
    w.session.adopt(Loaded(collection=Collection(real["collection"]), qrels=real["qrels"], runs=[read_run(path)],
                           topics=real["topics"]), TOPIC, ARTICLE)
    wait_loaded(qtbot, w.session, ARTICLE)
    return w


@pytest.fixture(scope="module")
def loaded_window(request, shared_empty_window, real, tmp_path_factory):
    """The module's one window (``shared_empty_window``) with the run above."""
    return _load(QtBot(request), shared_empty_window, real, tmp_path_factory.mktemp("passages"))


@pytest.fixture
def window(qtbot, loaded_window):
    """The module's one window as a fresh one shows it: article 23724 open at its first screen,
    the default settings, the Passages dock closed, its table in its own order with no row
    selected, no text selected, no error shown. The tests using it change only these (the
    export test the dialog, put back here too); the one that edits the run has its own window."""
    w = loaded_window
    s, panel = w.session, w.passages
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
    assert w.editing.editor.stack.count() == 0  # no edit: the run is the one read
    if w.passages_dock.isVisible():
        w.act_passages.trigger()
        qtbot.waitUntil(lambda: not w.passages_dock.isVisible())
    panel.ask_path = panel._ask_path
    panel.table.sortByColumn(PASSAGE, Qt.SortOrder.AscendingOrder)
    panel.table.clearSelection()
    s.set_settings(**{f.name: getattr(Settings(), f.name) for f in dataclasses.fields(Settings)})
    if s.current.name != ARTICLE:
        s.open_article(ARTICLE)
        wait_loaded(qtbot, s, ARTICLE)
    s.set_step(0)
    w.article.view.setTextCursor(QTextCursor(w.article.view.document()))
    w.article.view.verticalScrollBar().setValue(0)
    del w.errors_shown[:]
    yield w
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


@pytest.fixture
def own_window(qtbot, real, tmp_path):
    """A window of its own, as ``window`` shows it: an edit makes the session's run an editable
    copy, which undoing the edit leaves in place (the shared window would go on with it)."""
    w = MainWindow(Session(), show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    yield _load(qtbot, w, real, tmp_path)
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


def open_dock(w, qtbot):
    assert not w.passages_dock.isVisible()
    w.act_passages.trigger()  # View ▸ Passages
    qtbot.waitUntil(lambda: w.passages.isVisible() and w.passages.model.rowCount() > 0)
    return w.passages


def column(model, col) -> list[str]:
    return [model.text(i, col) for i in range(model.rowCount())]


def test_view_menu_entry_and_a_free_shortcut(window):
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "View")
    assert window.act_passages in view_menu.actions() and window.act_passages.text() == "Passages"
    assert window.act_passages.shortcut() == QKeySequence(SHORTCUT)
    others = [a for a in window.findChildren(QAction) if a is not window.act_passages]
    assert all(QKeySequence(SHORTCUT) not in a.shortcuts() for a in others)


def test_rows_natural(window, qtbot):
    panel = open_dock(window, qtbot)
    m = panel.model
    assert column(m, PASSAGE) == ["retrieved 1", "retrieved 2", "retrieved 3", "relevant 1", "relevant 2",
                                  "relevant 3", "relevant 4", "relevant 5", "run line"]
    assert [(r.start, r.length, r.overlap) for r in m.rows] == [
        (5200, 1100, 1056), (12000, 400, 0), (20000, 600, 0),
        (159, 1167, 0), (4996, 9, 0), (5008, 861, 669), (5913, 1865, 387), (8138, 262, 0), (3000, 0, None)]
    assert column(m, PRECISION)[:3] == ["0.960", "0.000", "0.000"]
    assert [r.read_before for r in m.rows[:8]] == [0, 1100, 1500, 2259, 7096, 0, 713, 9138]
    assert column(m, READ)[:8] == ["0", "1,100", "1,500", "2,259", "7,096", "0", "713", "9,138"]
    assert [r.screen for r in m.rows[:8]] == [1, 4, 6, 8, 24, 1, 3, 31]  # screen 300: read_before // 300 + 1
    assert column(m, FOUND) == ["holds relevant 3, 4", "no relevant text", "no relevant text", "missed", "missed",
                                "found by passage 1", "found by passage 1", "missed", ZERO_LENGTH]
    assert column(m, LINES) == ["mine.run:2 + :4 (2 lines merged; :2 and :4 overlap)", "mine.run:3", "mine.run:1",
                                "", "", "", "", "", "mine.run:5"]
    assert m.data(m.index(0, LINES), Qt.ItemDataRole.ToolTipRole) == (
        "mine.run:2  [5,200, 6,100) 900 bytes  overlaps :4\nmine.run:4  [5,800, 6,300) 500 bytes  overlaps :2")
    # units in the headers: the qrels' unit (bytes)
    assert m.headerData(OFFSET, Qt.Orientation.Horizontal) == "Offset (bytes)"
    assert m.headerData(SCREEN, Qt.Orientation.Horizontal) == "Screen (300)"
    header = panel.header.text()
    assert "3 retrieved passages (2,100 bytes, 1,056 relevant) from 5 lines of mine.run" in header
    assert "5 relevant passages (4,164 bytes): 2 found" in header and "3 missed" in header


def test_rows_follow_mode_and_screen(window, qtbot):
    panel = open_dock(window, qtbot)
    s = window.session
    s.set_settings(mode="worst")
    qtbot.waitUntil(lambda: panel.model.rows[3].read_before == 24454)
    assert [r.read_before for r in panel.model.rows[:8]] == [0, 1100, 1500, 24454, 25621, 0, 713, 27300]
    assert "worst" in panel.header.text()
    s.set_settings(screen=2000)
    qtbot.waitUntil(lambda: panel.model.headerData(SCREEN, Qt.Orientation.Horizontal) == "Screen (2,000)")
    assert [r.screen for r in panel.model.rows[:8]] == [1, 1, 1, 13, 13, 1, 1, 14]
    # the first relevant passage reached is on screen LE(2000) of the scores panel
    assert min(r.screen for r in panel.model.rows if r.kind == "relevant") == s.current.evaluation.le(2000) == 1


def test_rows_follow_the_open_article(window, qtbot):
    panel = open_dock(window, qtbot)
    window.session.open_article(OTHER)
    wait_loaded(qtbot, window.session, OTHER)
    qtbot.waitUntil(lambda: panel.model.rowCount() == 2)
    # TrustRank: retrieved [300,800) holds all of R1 [327,693): 366 bytes, found by passage 1 at 27
    assert [(r.label, r.start, r.length, r.overlap, r.read_before) for r in panel.model.rows] == [
        ("retrieved 1", 300, 500, 366, 0), ("relevant 1", 327, 366, 366, 27)]
    assert column(panel.model, LINES)[0] == "mine.run:6"


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u2029", " ").replace("\u2028", " ")).strip()


@pytest.mark.parametrize("kind, number, span", [("relevant", 4, (5913, 7778)), ("retrieved", 1, (5200, 6300)),
                                                ("relevant", 1, (159, 1326))])
def test_selecting_a_row_selects_its_text(window, qtbot, kind, number, span):
    panel = open_dock(window, qtbot)
    view, cur = window.article.view, window.session.current
    panel.select(kind, number)
    qtbot.waitUntil(lambda: view.textCursor().hasSelection())
    c = view.textCursor()
    want = cur.layout.spans_to_display(np.array([span]))
    assert (c.selectionStart(), c.selectionEnd()) == (int(want[0, 0]), int(want[0, 1]))
    assert squash(c.selectedText()) == squash(cur.article.substring(*span))
    top, bottom = view.visible_range()
    assert top <= c.selectionStart() <= bottom  # scrolled to it


def test_sorting_and_csv_export(window, qtbot, tmp_path):
    panel = open_dock(window, qtbot)
    panel.table.sortByColumn(READ, Qt.SortOrder.DescendingOrder)  # as a header click does
    m = panel.model
    assert [m.data(m.index(i, READ), SORT_ROLE) for i in range(m.rowCount())] == [
        9138, 7096, 2259, 1500, 1100, 713, 0, 0, None]
    out = tmp_path / "passages.csv"
    assert panel.export_csv(out) == out
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert rows[0] == ["kind", "number", "offset", "length", "relevant_retrieved", "precision", "read_before",
                       "screen", "found", "run_lines", "topic", "article", "mode", "screen_size", "unit"]
    assert rows[1] == ["relevant", "5", "8138", "262", "0", "", "9138", "31", "missed", "", TOPIC, ARTICLE,
                       "natural", "300", "bytes"]
    body = {(r[0], r[1]): r for r in rows[1:]}
    assert body[("retrieved", "1")][2:10] == ["5200", "1100", "1056", "0.96", "0", "1", "holds relevant 3, 4",
                                             "mine.run:2 + :4 (2 lines merged; :2 and :4 overlap)"]
    assert body[("line", "5")][2:10] == ["3000", "0", "", "", "", "", ZERO_LENGTH, "mine.run:5"]
    assert len(rows) == 10
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]  # written atomically: no temporary left
    # the table's own order comes back with the "Passage" column
    panel.table.sortByColumn(PASSAGE, Qt.SortOrder.AscendingOrder)
    assert column(m, PASSAGE)[0] == "retrieved 1" and column(m, PASSAGE)[-1] == "run line"


def test_export_button_and_an_unwritable_path(window, qtbot, tmp_path):
    panel = open_dock(window, qtbot)
    target = tmp_path / "from-button.csv"
    panel.ask_path = lambda suggested: (suggested.startswith(f"passages-{TOPIC}-{ARTICLE}-natural") and str(target)) or ""
    panel.export_btn.click()
    assert target.read_text(encoding="utf-8").startswith("kind,number,offset")
    panel.ask_path = lambda suggested: str(tmp_path / "no-such-folder" / "x.csv")
    panel.export_btn.click()
    assert window.errors_shown and "Cannot export to" in window.errors_shown[-1]
    assert "no-such-folder" in window.errors_shown[-1]


def test_model_without_a_window():
    from readsim.core import intervals as iv
    from readsim.core.doc_evaluation import evaluate_document
    from readsim.core.passages import passage_table

    ev = evaluate_document(iv.as_array([(0, 10)]), iv.as_array([(5, 20)]), 30, "natural")
    m = PassagesModel()
    m.set_rows(table_rows(passage_table(ev), "r.run", 300, "chars"), "chars", 300)
    assert m.headerData(OFFSET, Qt.Orientation.Horizontal) == "Offset (characters)"
    assert column(m, PASSAGE) == ["retrieved 1", "relevant 1"]
    assert column(m, FOUND) == ["holds relevant 1", "found by passage 1"]
    assert [r.read_before for r in m.rows] == [0, 0]  # [0,10) is reached where the chain starts, at offset 5


def test_an_edit_of_the_passages_updates_the_rows(own_window, qtbot):
    window = own_window
    panel = open_dock(window, qtbot)
    assert window.editing.editor.add(100, 400)  # Edit ▸ Add selection, as the editor does it
    qtbot.waitUntil(lambda: panel.model.rows[0].start == 100)
    m = panel.model
    assert column(m, PASSAGE)[:4] == ["retrieved 1", "retrieved 2", "retrieved 3", "retrieved 4"]
    assert (m.rows[0].length, m.rows[0].overlap, m.rows[1].read_before) == (300, 400 - 159, 300)
    assert column(m, FOUND)[4] == "found by passage 1"  # R1 [159,1326) is no longer missed
    assert set(column(m, LINES)[:4]) == {"edited (no run line)"}  # the edited article has no file lines
    window.editing.editor.stack.undo()
    qtbot.waitUntil(lambda: panel.model.rows[0].start == 5200)
    assert column(panel.model, LINES)[0] == "mine.run:2 + :4 (2 lines merged; :2 and :4 overlap)"
