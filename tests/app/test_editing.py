"""Passage editing, acting as a user: drag-select text, add or remove it as a retrieved passage,
retrieve an element from the outline, undo and redo, save the run, close with unsaved edits.

Expected scores are the engine's :func:`evaluate_document` on passages worked out here by
hand from the qrels and run lines (topic 2009074):

- article 23724 (PageRank, rank 10): relevant [159, 1326), [4996, 5005), [5008, 5869),
  [5913, 7778) (4,164 bytes); retrieved [0, 25686). Offset 159 is the "M" of "Mathematica",
  1326 just after "PR(E)."; its first image caption spans [157, 865).
- article 195196: relevant [5148, 5389) ("Google" … "Winograd"), not ranked by the run.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from readsim.operations.article_reading import panel_measures, panel_scores
from readsim.app import editing
from readsim.app.background import activity
from readsim.app.editing import CANCEL, DISCARD, SAVE, display_to_unit
from readsim.app.widgets.outline import NAME, RELEVANT, RETRIEVED, OutlineModel, share
from readsim.core.intervals import covered
from readsim.app.widgets.ranked_list import AVECHP, F
from readsim.core import intervals as iv
from readsim.core.doc_evaluation import Settings, evaluate_document
from readsim.core.formats import read_run
from readsim.core.layout import layout
from readsim.core.text import Article


TOPIC = "2009074"
PAGERANK = "23724"
FIRST = (159, 1326)  # PageRank's first relevant passage
CAPTION = (157, 865)  # the image caption around its start
UNRANKED = "195196"
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


# -- pure helpers ------------------------------------------------------------------------------
TINY = "<article><header><title>Café</title></header><bdy><p>ab  c</p><p>dé f</p></bdy></article>".encode()
# text "Caféab  cdé f": bytes C0 a1 f2 é3-4 | a5 b6 sp7 sp8 c9 | d10 é11-12 sp13 f14 (length 15)
# display "Café" 0-4, separator 4, "ab c" 5-9 (one space for two), separator 9, "dé f" 10-14


@pytest.mark.parametrize("start, end, unit", [
    (0, 4, (0, 5)),      # "Café": é is two bytes
    (3, 4, (3, 5)),      # "é" alone
    (0, 5, (0, 5)),      # with the block separator: ends with the title
    (4, 6, (5, 6)),      # from the separator: starts at "a"
    (6, 9, (6, 10)),     # "b c": the shown space stands for both spaces
    (8, 11, (9, 11)),    # "c" to "d" across paragraphs
    (9, 10, None),       # only a separator: no article character
    (3, 3, None),        # empty
])
def test_display_to_unit_by_hand(start, end, unit):
    lay = layout(Article.from_bytes(TINY, "tiny", "bytes"))
    assert display_to_unit(lay, start, end) == unit


def test_element_shares_by_hand():
    spans = iv.as_array([(2, 5), (8, 10)])
    starts, ends = np.array([0, 3, 5, 4, 7]), np.array([10, 9, 8, 4, 12])
    assert covered(spans, starts, ends).tolist() == [5, 3, 0, 0, 2]
    assert share(spans, starts, ends).tolist() == [0.5, 0.5, 0.0, 0.0, 0.4]


def test_outline_model_nests_by_depth():
    m = OutlineModel()
    a = Article.from_bytes(TINY, "tiny", "bytes")
    m.set_article(a, relevant=iv.as_array([(6, 10)]), retrieved=iv.as_array([(0, 15)]))
    assert m.rowCount() == 1
    root = m.index(0, NAME)
    assert m.data(root) == "article[1]" and m.rowCount(root) == 2
    header, bdy = m.index(0, NAME, root), m.index(1, NAME, root)
    assert (m.data(header), m.data(bdy)) == ("header[1]", "bdy[1]")
    assert [m.data(m.index(r, NAME, bdy)) for r in range(m.rowCount(bdy))] == ["p[1]", "p[2]"]
    p1 = m.index(0, NAME, bdy)
    assert m.parent(p1) == bdy and m.parent(bdy) == root and not m.parent(root).isValid()
    # relevant [6, 10): p[1] = [5, 10) holds 4 of its 5 bytes, bdy = [5, 15) 4 of 10
    assert m.data(m.index(0, RELEVANT, bdy)) == "80.0%" and m.data(m.index(1, RELEVANT, root)) == "40.0%"
    assert m.data(m.index(1, RELEVANT, bdy)) == "0%" and m.data(m.index(0, RETRIEVED, bdy)) == "100%"
    assert m.element(p1).xpath == "/article[1]/bdy[1]/p[1]"


# -- acting as a user on the real data ---------------------------------------------------------
def point(view, pos: int) -> QPoint:
    """Viewport point of display position ``pos`` (just right of the cursor line)."""
    c = QTextCursor(view.document())
    c.setPosition(pos)
    r = view.cursorRect(c)
    return QPoint(r.left() + 1, r.center().y())


def drag_select(qtbot, view, a: int, b: int) -> None:
    """Select display positions between a and b with the mouse: a drag from a to b on the
    viewport, or (when both do not fit in the view) a click at a and a Shift+click at b."""
    c = view.textCursor()  # a press inside an old selection would start a text drag instead
    c.clearSelection()
    view.setTextCursor(c)
    view.scroll_to_position(min(a, b))
    vp = view.viewport()
    pa, pb = point(view, a), point(view, b)
    left = Qt.MouseButton.LeftButton
    if vp.rect().contains(pa) and vp.rect().contains(pb):
        qtbot.mousePress(vp, left, pos=pa)
        qtbot.mouseMove(vp, (pa + pb) / 2)
        qtbot.mouseMove(vp, pb)
        qtbot.mouseRelease(vp, left, pos=pb)
        return
    for pos, keys in ((a, Qt.KeyboardModifier.NoModifier), (b, Qt.KeyboardModifier.ShiftModifier)):
        view.scroll_to_position(pos)
        p = point(view, pos)
        assert vp.rect().contains(p)
        qtbot.mouseClick(vp, left, keys, pos=p)


def expected(real, article, retrieved, settings=Settings()):
    j = real["qrels"].judgement(TOPIC, article)
    ev = evaluate_document(j.passages, retrieved, j.doc_length, settings.mode)
    values = panel_scores(ev, settings)
    return ev, {m.name: str(int(values[m.name])) if m.kind in ("LE", "ES") else f"{values[m.name]:.4f}"
                for m in panel_measures(settings)}


def row_cells(w, article):
    m = w.model
    r = m.row_of(article)
    return [m.data(m.index(r, c)) for c in range(AVECHP, F + 1)]


@pytest.fixture
def edit_window(real_window_shared, shared_real_window, qtbot):
    """The module's one window (``real_window_shared``), shown as a fresh window shows it:
    ``edit_window(article)`` opens ``article`` with nothing selected and the text cursor at its
    start. After the test every edit it left is undone and the history emptied (a fresh window's
    clean, empty history: no "*" in the title, no baseline), the outline dock hidden again. The
    tests that save (the editor then keeps the file's name: Ctrl+S no longer asks) or close the
    window take a window of their own (``real_window``)."""

    def open_(article: str):
        w = real_window_shared(article)
        w.activateWindow()  # as a fresh window is once shown: its shortcuts (Ctrl+Z, Ctrl+Shift+D...) work
        qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=5_000)
        view = w.article.view
        c = view.textCursor()
        c.clearSelection()  # the view says so (copyAvailable): the edit actions follow
        c.setPosition(0)
        view.setTextCursor(c)
        assert w.editing.editor.stack.count() == 0 and not w.windowTitle().startswith("*")
        return w

    yield open_
    w = shared_real_window
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
    stack = w.editing.editor.stack
    while stack.canUndo():
        stack.undo()
    stack.clear()
    w.editing.dock.hide()
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


def test_drag_select_remove_add_undo_redo(edit_window, real, qtbot):
    w = edit_window(PAGERANK)
    view, s = w.article.view, w.session
    lay = s.current.layout
    ev0, shown0 = expected(real, PAGERANK, iv.as_array([(0, 25686)]))
    assert w.scores.shown() == shown0 and len(w.article.chain.buttons) == 1
    cells0 = row_cells(w, PAGERANK)
    assert not w.windowTitle().startswith("*")

    # drag over the first relevant passage: the selection is exactly [159, 1326) in bytes
    drag_select(qtbot, view, lay.to_display(FIRST[0]), lay.to_display(FIRST[1], "end"))
    assert w.editing.selection() == FIRST
    assert w.editing.act_remove.isEnabled()
    qtbot.keyClick(view, Qt.Key.Key_D, CTRL_SHIFT)  # Remove selection from retrieved passages
    cut = iv.as_array([(0, 159), (1326, 25686)])
    assert np.array_equal(s.current.evaluation.retrieved, cut)
    ev1, shown1 = expected(real, PAGERANK, cut)
    assert w.scores.shown() == shown1
    # by hand: |R ∩ T| = 4164 - 1167 = 2997 of |T| = 25686 - 1167 = 24519
    assert shown1["P_set"] == f"{2997 / 24519:.4f}" and shown1["R_set"] == f"{2997 / 4164:.4f}"
    # the ranked list's row, the chain and the plot follow
    assert row_cells(w, PAGERANK) == [shown1["aveChP"], shown1["T2IF(300)"], shown1["LE(300)"], shown1["F(0.25)"]]
    assert len(w.article.chain.buttons) == 2
    x, p, _ = ev1.curve()
    px, py = w.plot.precision.getData()
    assert np.allclose(px, x) and np.allclose(py, p)
    assert w.windowTitle().startswith("* ")
    # the view's marks: the removed text is relevant only (yellow), no longer "both"
    d = lay.spans_to_display(iv.as_array([FIRST]))
    assert any(a <= d[0, 0] and d[0, 1] <= b for a, b in view.marks().relevant.tolist())

    # undo (Ctrl+Z) restores every number; redo (Ctrl+Shift+Z, Ctrl+Y) brings the edit back
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.scores.shown() == shown0 and row_cells(w, PAGERANK) == cells0
    assert len(w.article.chain.buttons) == 1 and not w.windowTitle().startswith("*")
    qtbot.keyClick(view, Qt.Key.Key_Z, CTRL_SHIFT)
    assert w.scores.shown() == shown1
    w.editing.act_undo.trigger()
    qtbot.keyClick(view, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert w.scores.shown() == shown1

    # add the same text back (Ctrl+Shift+P): one passage again, same scores as at first; the
    # drag goes backwards, as the "↓ 2" link of the chain now sits at the passage's start
    drag_select(qtbot, view, lay.to_display(FIRST[1], "end"), lay.to_display(FIRST[0]))
    assert w.editing.selection() == FIRST
    qtbot.keyClick(view, Qt.Key.Key_P, CTRL_SHIFT)
    assert np.array_equal(s.current.evaluation.retrieved, iv.as_array([(0, 25686)]))
    assert w.scores.shown() == shown0 and len(w.article.chain.buttons) == 1
    assert w.editing.editor.stack.count() == 2


def test_edit_in_another_mode(edit_window, real, qtbot):
    w = edit_window(PAGERANK)
    w.controls.mode.setCurrentIndex(w.controls.mode.findData("worst"))
    assert w.session.settings.mode == "worst"
    assert w.editing.editor.remove(*FIRST)
    cut = iv.as_array([(0, 159), (1326, 25686)])
    assert w.scores.shown() == expected(real, PAGERANK, cut, Settings(mode="worst"))[1]
    w.controls.mode.setCurrentIndex(w.controls.mode.findData("natural"))  # the edit survives a mode change
    assert w.scores.shown() == expected(real, PAGERANK, cut)[1]


def test_context_menu_offers_the_edits(edit_window, qtbot):
    w = edit_window(PAGERANK)
    lay = w.session.current.layout
    menu = w.editing.context_menu()
    texts = [a.text() for a in menu.actions()]
    assert "&Add selection as retrieved passage" in texts and "&Remove selection from retrieved passages" in texts
    assert not w.editing.act_add.isEnabled()  # nothing selected yet
    drag_select(qtbot, w.article.view, lay.to_display(FIRST[0]), lay.to_display(FIRST[1], "end"))
    assert w.editing.act_add.isEnabled()
    menu.deleteLater()


def test_outline_retrieve_element(edit_window, real, qtbot):
    w = edit_window(PAGERANK)
    ui, s = w.editing, w.session
    ui.dock.show()
    tree, model = ui.outline.tree, ui.outline.model
    assert ui.editor.remove(*FIRST)
    number = next(i for i, e in enumerate(model.elements) if (e.start, e.end) == CAPTION and e.tag == "caption")
    # its share of relevant text, by hand: [159, 865) of [157, 865) = 706 / 708
    assert model.relevant_share(number) == pytest.approx(706 / 708)
    assert model.retrieved_share(number) == pytest.approx(2 / 708)  # only [157, 159) is still retrieved
    idx = ui.outline.reveal(number)  # as a user scrolls to it
    rect = tree.visualRect(idx)
    assert tree.viewport().rect().contains(rect.center())
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert model.element(tree.currentIndex()).xpath == model.elements[number].xpath
    # selecting it selects its text in the view
    lay = s.current.layout
    c = w.article.view.textCursor()
    assert (c.selectionStart(), c.selectionEnd()) == tuple(lay.spans_to_display(iv.as_array([CAPTION]))[0])
    qtbot.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    want = iv.as_array([(0, 865), (1326, 25686)])
    assert np.array_equal(s.current.evaluation.retrieved, want)
    assert w.scores.shown() == expected(real, PAGERANK, want)[1]
    assert model.retrieved_share(number) == 1.0
    assert model.data(model.index_of(number, RETRIEVED)) == "100%"
    # the button does nothing more: the element is retrieved whole already
    assert not ui.retrieve_current_element()
    ui.act_undo.trigger()
    assert np.array_equal(s.current.evaluation.retrieved, iv.as_array([(0, 159), (1326, 25686)]))


def test_unranked_article_joins_the_ranking(edit_window, real, qtbot):
    w = edit_window(PAGERANK)
    s = w.session
    rows = w.model.rowCount()
    s.open_article(UNRANKED)
    qtbot.waitUntil(lambda: activity().count == 0 and s.current is not None and s.current.name == UNRANKED, timeout=20_000)
    assert s.current.row is None
    lay = s.current.layout
    drag_select(qtbot, w.article.view, lay.to_display(5148), lay.to_display(5389, "end"))
    assert w.editing.selection() == (5148, 5389)
    w.editing.act_add.trigger()
    # T = R: by hand every read relevant character comes first: aveChP = 1, P_set = R_set = 1
    shown = w.scores.shown()
    assert shown == expected(real, UNRANKED, iv.as_array([(5148, 5389)]))[1]
    assert (shown["aveChP"], shown["P_set"], shown["R_set"]) == ("1.0000", "1.0000", "1.0000")
    assert w.model.rowCount() == rows + 1 and s.current.row.rank == rows + 1
    assert s.run.article(TOPIC, UNRANKED).rank == rows + 1
    w.editing.act_undo.trigger()
    assert w.model.rowCount() == rows and s.current.row is None and s.run.article(TOPIC, UNRANKED) is None
    # not ranked again: labelled so, with what it would score if retrieved whole
    assert w.scores.shown() == expected(real, UNRANKED, None)[1]
    assert "not retrieved by this run" in w.scores.facts.text()


def test_save_and_read_back(real_window, real, qtbot, tmp_path):
    w = real_window(PAGERANK)
    ui = w.editing
    assert ui.editor.remove(*FIRST)
    asked = []
    ui.ask_save_path = lambda suggested: asked.append(suggested) or str(tmp_path / "edited.run")
    qtbot.keyClick(w.article.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert asked and asked[0].endswith("bert-passages-edited.run")
    assert not w.windowTitle().startswith("*") and ui.editor.stack.isClean()
    back = read_run(tmp_path / "edited.run")
    original = real["run"]
    assert back.run_id == original.run_id and list(back.topics) == list(original.topics)
    for topic, entries in original.topics.items():
        assert [e.article for e in back.topics[topic]] == [e.article for e in entries]
        for e, b in zip(entries, back.topics[topic]):
            if (topic, e.article) == (TOPIC, PAGERANK):
                assert b.passages.tolist() == [[0, 159], [1326, 25686]]
            elif e.passages is None:
                assert b.passages is None
            else:
                assert np.array_equal(b.passages, e.passages)
    # the session's shared run is untouched: the editor edited a copy
    assert original.article(TOPIC, PAGERANK).passages.tolist() == [[0, 25686]]
    # nothing retrieved: the article keeps its rank with no passage; Ctrl+S saves to the same file
    assert ui.editor.set_retrieved(iv.EMPTY)
    qtbot.keyClick(w.article.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert len(asked) == 1
    e = read_run(tmp_path / "edited.run").article(TOPIC, PAGERANK)
    assert e.rank == 10 and e.passages is not None and len(e.passages) == 0


def test_close_with_unsaved_edits_asks(real_window, qtbot, tmp_path):
    w = real_window(PAGERANK)
    ui = w.editing
    answers = []

    def ask(answer):
        def f():
            answers.append(answer)
            return answer
        return f

    assert w.close() is True  # nothing edited: closes without asking
    assert answers == []
    w.show()
    assert ui.editor.remove(*FIRST)
    ui.ask_unsaved = ask(CANCEL)
    assert w.close() is False and w.isVisible() and answers == [CANCEL]
    ui.ask_unsaved = ask(SAVE)
    ui.ask_save_path = lambda suggested: ""  # the save dialog cancelled: stay open
    assert w.close() is False and w.isVisible()
    ui.ask_save_path = lambda suggested: str(tmp_path / "on-close.run")
    assert w.close() is True and (tmp_path / "on-close.run").is_file()
    w.show()
    assert ui.editor.remove(5913, 7778)
    ui.ask_unsaved = ask(DISCARD)
    assert w.close() is True and answers[-1] == DISCARD


def test_apply_strategy_is_one_edit(edit_window, real, qtbot, monkeypatch):
    w = edit_window(PAGERANK)
    j = real["qrels"].judgement(TOPIC, PAGERANK)
    calls = []

    def fake(session, name):  # stands in for app/widgets/strategies.py: "retrieve R exactly"
        calls.append(name)
        return j.passages

    monkeypatch.setattr(editing, "strategy_function", lambda: fake)
    ui = w.editing
    ui.strategy_menu.aboutToShow.emit()
    acts = {a.text(): a for a in ui.strategy_menu.actions()}
    assert set(editing.STRATEGIES) <= set(acts) and acts["SL"].isEnabled()
    acts["SL"].trigger()
    assert calls == ["SL"] and ui.editor.stack.count() == 1
    shown = w.scores.shown()
    assert shown == expected(real, PAGERANK, j.passages)[1]
    assert (shown["P_set"], shown["R_set"]) == ("1.0000", "1.0000")
    ui.act_undo.trigger()
    assert w.scores.shown() == expected(real, PAGERANK, iv.as_array([(0, 25686)]))[1]


def test_real_strategies_when_present(edit_window, real):
    strategies = pytest.importorskip("readsim.app.widgets.strategies")
    w = edit_window(PAGERANK)
    spans = strategies.strategy_spans(w.session, "S")
    assert w.editing.apply_strategy("S") or np.array_equal(iv.normalize(spans), w.editing.editor.retrieved())
    assert np.array_equal(w.session.current.evaluation.retrieved_spans, iv.normalize(iv.as_array(spans)))


def test_edit_in_the_entry_mode_keeps_the_entry_point(edit_window, real, qtbot):
    """Read from the entry point, then cut the article's first 159 bytes out of the run's
    passage (it started at 0): the result's entry point is now its first line's offset, 159, and
    the entry mode reads from there, as evaluate_document with that entry (it read from 0 before
    the edit, and the edited row had lost its entry point)."""
    w = edit_window(PAGERANK)
    w.controls.mode.setCurrentIndex(w.controls.mode.findData("entry"))
    assert w.session.current.evaluation.entry == 0
    assert w.editing.editor.remove(0, 159)
    cut = iv.as_array([(159, 25686)])
    j = real["qrels"].judgement(TOPIC, PAGERANK)
    ev = w.session.current.evaluation
    assert np.array_equal(ev.retrieved, cut) and ev.entry == 159
    want = evaluate_document(j.passages, cut, j.doc_length, "entry", 159)
    assert list(ev.pieces) == list(want.pieces) and ev.pieces[0].start == 159
    values = panel_scores(want, Settings(mode="entry"))
    assert w.scores.shown()["aveChP"] == f"{values['aveChP']:.4f}"
