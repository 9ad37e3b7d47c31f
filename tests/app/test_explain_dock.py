"""The Explain dock (View ▸ Explain) on real INEX data (topic 2009074, article 23724 "PageRank",
the real run bert-passages.run), acting as a user: open it, choose measures, change the
settings, click terms (their characters are highlighted in the article view), type measures
that are not document measures.

From the files, worked by hand. The qrels: R = [159,1326) [4996,5005) [5008,5869) [5913,7778)
[8138,8400), NRC = 1167 + 9 + 861 + 1865 + 262 = 4164, doc_length 27562. The run's 15 lines for
23724 (offsets 0+1754, 1754+1683, 3437+1933, ... 25492+194) tile T = [0,25686): one passage.

- natural order: the chain [0,25686) from the start, then [25686,27562);
- |T| = 25686, |R ∩ T| = 4164: P_set = 4164 / 25686, R_set = 1;
- T2I(300): 159 non-relevant bytes [0,159), then R1's 1167, then 141 more non-relevant: the
  reader stops after 159 + 1167 + 141 = 1467 bytes read, 1167 relevant: T2IP(300) = 1167 / 1467;
- ChP@300: the first 300 read hold 300 - 159 = 141 relevant bytes: 141 / 300; LE(300): f = 160, 1;
- aveChP: one term per relevant passage, each read in document order (five pieces).
"""

from __future__ import annotations

import numpy as np
import pytest

from readsim.operations.article_reading import panel_measures
from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session
from readsim.app.widgets.explain_dock import EXTRA, SHORTCUT, SPANS_ROLE, TermsModel
from readsim.app.widgets.ranked_list import format_score
from readsim.core import intervals as iv
from readsim.core.doc_evaluation import evaluate_document
from readsim.core.explain import explain
from readsim.core.measure import parse_measure

TOPIC, ARTICLE = "2009074", "23724"


@pytest.fixture
def window(real_window_shared, qtbot):
    """The module's one window on 23724, its Explain dock closed: the tests using it change only
    the reader's settings, the topic, the open article and the dock, which this undoes."""
    w = real_window_shared(ARTICLE)
    if w.explain_dock.isVisible():
        w.act_explain.trigger()
        qtbot.waitUntil(lambda: not w.explain_dock.isVisible())
    return w


@pytest.fixture
def fresh_window(real_window):
    """A window of its own: what a first opening of the dock shows, and the dock's height changed."""
    return real_window(ARTICLE)


def open_dock(w, qtbot):
    assert not w.explain_dock.isVisible()
    assert w.act_explain.shortcut().toString() == SHORTCUT
    view_menu = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "View")
    assert w.act_explain in view_menu.actions()
    w.act_explain.trigger()  # View ▸ Explain
    qtbot.waitUntil(lambda: w.explain.isVisible() and w.explain.explanation is not None)
    return w.explain


def test_the_chooser_offers_the_scores_panels_measures_and_totals_them(fresh_window, qtbot):
    window = fresh_window
    panel = open_dock(window, qtbot)
    names = [panel.chooser.itemText(i) for i in range(panel.chooser.count())]
    assert names == [m.name for m in panel_measures(window.session.settings)] + list(EXTRA)
    assert panel.chooser.currentText() == "aveChP"  # the panel's first
    for name in names[:-1]:
        panel.choose(name)
        e = panel.explanation
        assert e.measure == name
        assert format_score(parse_measure(name), e.total) == window.scores.value_text(name)
        assert e.substituted in panel.formula.text() and f"§{e.reference}" in panel.formula.text()
        assert panel.model.rowCount() == len(e.terms)


RELEVANT = [[159, 1326], [4996, 5005], [5008, 5869], [5913, 7778], [8138, 8400]]


def test_hand_worked_numbers_of_the_real_run(window, qtbot):
    panel = open_dock(window, qtbot)
    panel.choose("P_set")
    e = panel.explanation
    assert (e.term("|T|").value, e.term("|R ∩ T|").value) == (25686, 4164)
    assert e.term("|T|").spans.tolist() == [[0, 25686]] and e.term("|R ∩ T|").spans.tolist() == RELEVANT
    assert e.total == 4164 / 25686
    panel.choose("T2IP(300)")
    e = panel.explanation
    assert (e.term("m").value, e.term("relevant read").value, e.term("non-relevant read").value) == (1467, 1167, 300)
    assert e.term("non-relevant read").spans.tolist() == [[0, 159], [1326, 1467]]
    assert e.total == 1167 / 1467
    panel.choose("ChP@300")
    assert panel.explanation.total == 141 / 300 and panel.explanation.term("relevant read").spans.tolist() == [[159, 300]]
    panel.choose("LE(300)")
    assert panel.explanation.term("f").value == 160 and panel.explanation.total == 1
    assert panel.explanation.term("f").spans.tolist() == [[159, 160]]
    panel.choose("R_set")
    assert panel.explanation.term("|R|").value == 4164 and panel.explanation.total == 1.0
    panel.choose("aveChP")
    pieces = [t for t in panel.explanation.terms if t.symbol.startswith("Σ")]
    assert [t.spans.tolist()[0] for t in pieces] == RELEVANT
    assert pieces[0].value == pytest.approx(sum(j / (159 + j) for j in range(1, 1168)), abs=1e-9)


def test_clicking_a_term_highlights_its_characters_in_the_article(window, qtbot):
    panel = open_dock(window, qtbot)
    panel.choose("T2IP(300)")
    lay = window.session.current.layout
    window.article.view.verticalScrollBar().setValue(window.article.view.verticalScrollBar().maximum())
    panel.select_term("non-relevant read")  # as a click on its row
    expected = [[0, 159], [1326, 1467]]
    assert panel.selected.tolist() == expected
    assert panel.model.data(panel.model.index(2, 0), SPANS_ROLE).tolist() == expected
    assert panel.overlay.spans == [tuple(s) for s in lay.spans_to_display(iv.as_array(expected)).tolist()]
    lo, hi = window.article.view.visible_range()
    assert lo <= panel.overlay.spans[0][0] <= hi  # scrolled to the first
    qtbot.waitUntil(lambda: len(panel.overlay.rects()) > 0)
    assert "300 bytes in 2 spans" in panel.status.text()
    # another term: the highlight follows
    panel.select_term("m")
    assert panel.selected.tolist() == [[0, 1467]]
    # a settings change rebuilds the terms: nothing stays highlighted
    window.session.set_settings(tolerance=100)
    qtbot.waitUntil(lambda: panel.explanation.measure == "T2IP(100)")
    assert panel.overlay.spans == [] and len(panel.selected) == 0
    # hiding the dock leaves no highlight behind
    panel.select_term("m")
    assert panel.overlay.spans
    window.act_explain.trigger()
    qtbot.waitUntil(lambda: not panel.isVisible())
    assert panel.overlay.spans == []


def test_settings_rename_the_chosen_measure_and_keep_a_typed_one(window, qtbot):
    panel = open_dock(window, qtbot)
    panel.choose("LE(300)")
    window.session.set_settings(screen=2000)
    qtbot.waitUntil(lambda: panel.explanation.measure == "LE(2000)")
    assert panel.chooser.currentText() == "LE(2000)"
    assert panel.explanation.term("s").value == 2000
    panel.choose("ChP@600")  # typed: any document measure
    assert panel.explanation.measure == "ChP@600"
    window.session.set_settings(screen=300)
    qtbot.waitUntil(lambda: panel._rendered.screen == 300)
    assert panel.chooser.currentText() == "ChP@600" and panel.explanation.measure == "ChP@600"


def test_a_list_measure_or_nonsense_is_said_plainly(window, qtbot):
    panel = open_dock(window, qtbot)
    panel.choose("AgP/F(0.25)")
    assert panel.explanation is None and "list measure" in panel.problem
    assert panel.model.rowCount() == 0
    panel.choose("<b>bold</b>")
    assert panel.explanation is None and "&lt;b&gt;bold&lt;/b&gt;" in panel.formula.text()
    panel.choose("BEP(500)")  # the qrels give bep 100 on every line; the run's entry point is 0
    e = panel.explanation
    assert (e.term("bep").value, e.term("entry").value, e.term("|bep − entry|").value) == (100, 0, 100)
    assert e.total == (500 - 100) / 500


def test_input_text_is_escaped(window, qtbot):
    panel = open_dock(window, qtbot)
    window.session.topic = "<img src=x>"  # as a topic id from a file could read
    panel.rebuild()
    assert "&lt;img src=x&gt;" in panel.header.text() and "<img" not in panel.header.text()


def test_an_article_the_run_does_not_rank_is_explained_as_if_retrieved_whole(window, qtbot):
    panel = open_dock(window, qtbot)
    other = "15271"  # relevant for 2009074, in the collection, not ranked by bert-passages.run
    assert window.session.run.article(TOPIC, other) is None
    window.session.open_article(other)
    qtbot.waitUntil(lambda: activity().count == 0 and window.session.current.name == other, timeout=20_000)
    qtbot.waitUntil(lambda: panel.explanation is not None and "if retrieved whole" in panel.header.text())
    panel.choose("P_set")
    ev = window.session.current.evaluation  # T = [0, n): |T| = n, |R ∩ T| = NRC
    assert (panel.explanation.term("|T|").value, panel.explanation.term("|R ∩ T|").value) == (ev.n, ev.nrc)
    assert panel.explanation.total == ev.nrc / ev.n
    assert window.scores.hypothetical()
    for name in ("aveChP", "T2IF(300)", "F(0.25)"):
        panel.choose(name)
        assert format_score(parse_measure(name), panel.explanation.total) == window.scores.value_text(name)


def test_the_shipped_sample(qtbot):
    """The sample's first article, 900001, with good-passages.run (its one line: 1351 + 1520): the
    qrels line gives R = [414,560) [1374,2487) [2493,2869), NRC = 146 + 1113 + 376 = 1635. The chain
    [1351,2871) holds 23 + 6 + 2 = 31 non-relevant bytes and 1113 + 376 = 1489 relevant ones; the
    reader then reads [0,414) from the start and stops at its 269th byte: m = 1520 + 269 = 1789."""
    session = Session()
    w = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    session.open_sample()
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=20_000)
    assert session.current.name == "900001" and session.run.path.endswith("good-passages.run")
    panel = open_dock(w, qtbot)
    panel.choose("T2IF(300)")
    e = panel.explanation
    assert (e.term("m").value, e.term("relevant read").value, e.term("NRC").value) == (1789, 1489, 1635)
    assert e.term("non-relevant read").spans.tolist() == [[0, 269], [1351, 1374], [2487, 2493], [2869, 2871]]
    assert e.total == pytest.approx(2 * (1489 / 1789) * (1489 / 1635) / (1489 / 1789 + 1489 / 1635), abs=1e-12)
    assert w.scores.value_text("T2IF(300)") == f"{e.total:.4f}"
    panel.select_term("NRC")
    assert panel.selected.tolist() == [[414, 560], [1374, 2487], [2493, 2869]]
    assert len(panel.overlay.spans) == 3
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


def test_terms_model_without_a_window():
    model = TermsModel()
    model.set_explanation(explain("F(1)", evaluate_document(np.array([(0, 27)]), np.array([(23, 45)]), 55),
                                  unit="characters"))
    assert model.rowCount() == 5 and model.columnCount() == 3
    assert model.data(model.index(0, 0)) == "|T|: characters retrieved"
    assert model.data(model.index(0, 1)) == "22" and model.data(model.index(0, 2)) == "22 characters in 1 span"


def cut_rows(table) -> list[int]:
    """The rows the table's viewport shows only in part (cut at its top or bottom edge)."""
    vp = table.viewport().rect()
    out = []
    for r in range(table.model().rowCount()):
        rect = table.visualRect(table.model().index(r, 0))
        if rect.intersects(vp) and not (rect.top() >= vp.top() and rect.bottom() <= vp.bottom()):
            out.append(r)
    return out


def test_the_terms_table_shows_whole_rows_and_its_last_row_whole(fresh_window, qtbot):
    """Whatever the dock's height, no term row is cut at the table's edges: the table is as high
    as the whole rows that fit; scrolled down, its last row shows whole."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    window = fresh_window
    panel = open_dock(window, qtbot)
    table = panel.table
    rows = table.verticalHeader().defaultSectionSize()
    checked = 0
    for name in ("T2IF(300)", "aveChP", "F(0.25)"):
        panel.choose(name)
        for height in range(150, 330, 7):
            window.resizeDocks([window.explain_dock], [height], Qt.Orientation.Vertical)
            QApplication.processEvents()
            n = table.model().rowCount()
            table.scrollToTop()
            assert cut_rows(table) == [], f"{name}, dock {height} px: rows cut {cut_rows(table)}"
            table.scrollToBottom()
            last = table.visualRect(table.model().index(n - 1, 0))
            assert table.viewport().rect().contains(last), f"{name}, dock {height} px: last row {last}"
            assert cut_rows(table) == []
            checked += table.viewport().height() < n * rows  # the rows did not all fit
    assert checked > 0  # some heights made the table scroll
