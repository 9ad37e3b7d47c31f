"""The Explain dock (View ▸ Explain) on real INEX data (topic 2009074, article 23724 "PageRank"),
acting as a user: open it, choose measures, change the settings, click terms (their characters
are highlighted in the article view), type measures that are not document measures.

PageRank's relevant passages (qrels, bytes): R1 [159,1326), R2 [4996,5005), R3 [5008,5869),
R4 [5913,7778), R5 [8138,8400): NRC = 1167 + 9 + 861 + 1865 + 262 = 4164. The run below
retrieves [5200,6300) (lines 2 and 4 united), [12000,12400) and [20000,20600). Worked by hand:

- the chain P1 [5200,6300) holds [5200,5869) of R3 and [5913,6300) of R4: 669 + 387 = 1056
  relevant bytes, and the 44 non-relevant bytes [5869,5913); P2 and P3 hold nothing relevant;
- |T| = 1100 + 400 + 600 = 2100: P_set = 1056 / 2100, R_set = 1056 / 4164;
- T2I(300): 44 non-relevant in P1, then 256 of P2 [12000,12256): the reader stops after
  1100 + 256 = 1356 bytes read, 1056 of them relevant: T2IP(300) = 1056 / 1356;
- ChP@300: the first 300 read are [5200,5500), inside R3: 300 / 300; LE(300) = 1 (f = 1).
"""

from __future__ import annotations

import numpy as np
import pytest

from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from readsim.app.widgets.explain import EXTRA, SHORTCUT, SPANS_ROLE, TermsModel
from readsim.app.widgets.ranked_list import format_score
from readsim.engine import intervals as iv
from readsim.engine.collection import Collection
from readsim.engine.document import evaluate_document
from readsim.engine.explain import explain
from readsim.engine.formats import read_run
from readsim.engine.measure import parse_measure
from readsim.engine.panel import panel_measures

TOPIC, ARTICLE = "2009074", "23724"
RUN_LINES = [f"{TOPIC} Q0 {ARTICLE} 1 9 mine 20000 600", f"{TOPIC} Q0 {ARTICLE} 2 8 mine 5200 900",
             f"{TOPIC} Q0 {ARTICLE} 3 7 mine 12000 400", f"{TOPIC} Q0 {ARTICLE} 4 6 mine 5800 500"]


def settle(qtbot, session: Session, article: str) -> None:
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and session.current.name == article, timeout=20_000)


@pytest.fixture
def window(qtbot, real, tmp_path):
    path = tmp_path / "mine.run"
    path.write_text("\n".join(RUN_LINES) + "\n", encoding="utf-8")
    session = Session()
    w = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    session.adopt(Loaded(collection=Collection(real["collection"]), qrels=real["qrels"], runs=[read_run(path)],
                         topics=real["topics"]), TOPIC, ARTICLE)
    settle(qtbot, session, ARTICLE)
    yield w
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


def open_dock(w, qtbot):
    assert not w.explain_dock.isVisible()
    assert w.act_explain.shortcut().toString() == SHORTCUT
    assert w.act_explain in next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "View").actions()
    w.act_explain.trigger()  # View ▸ Explain
    qtbot.waitUntil(lambda: w.explain.isVisible() and w.explain.explanation is not None)
    return w.explain


def test_the_chooser_offers_the_scores_panels_measures_and_totals_them(window, qtbot):
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


def test_hand_worked_numbers_of_the_run(window, qtbot):
    panel = open_dock(window, qtbot)
    panel.choose("P_set")
    e = panel.explanation
    assert (e.term("|T|").value, e.term("|R ∩ T|").value) == (2100, 1056)
    assert e.term("|T|").spans.tolist() == [[5200, 6300], [12000, 12400], [20000, 20600]]
    assert e.total == 1056 / 2100
    panel.choose("T2IP(300)")
    e = panel.explanation
    assert (e.term("m").value, e.term("relevant read").value, e.term("non-relevant read").value) == (1356, 1056, 300)
    assert e.term("non-relevant read").spans.tolist() == [[5869, 5913], [12000, 12256]]
    assert e.total == 1056 / 1356
    panel.choose("ChP@300")
    assert panel.explanation.total == 1.0 and panel.explanation.term("relevant read").spans.tolist() == [[5200, 5500]]
    panel.choose("LE(300)")
    assert panel.explanation.term("f").value == 1 and panel.explanation.total == 1
    panel.choose("R_set")
    assert panel.explanation.term("|R|").value == 4164 and panel.explanation.total == 1056 / 4164


def test_clicking_a_term_highlights_its_characters_in_the_article(window, qtbot):
    panel = open_dock(window, qtbot)
    panel.choose("T2IP(300)")
    lay = window.session.current.layout
    panel.select_term("non-relevant read")  # as a click on its row
    expected = [[5869, 5913], [12000, 12256]]
    assert panel.selected.tolist() == expected
    assert panel.model.data(panel.model.index(2, 0), SPANS_ROLE).tolist() == expected
    assert panel.overlay.spans == [tuple(s) for s in lay.spans_to_display(iv.as_array(expected)).tolist()]
    lo, hi = window.article.view.visible_range()
    assert lo <= panel.overlay.spans[0][0] <= hi  # scrolled to the first
    qtbot.waitUntil(lambda: len(panel.overlay.rects()) > 0)
    assert "300 bytes in 2 spans" in panel.status.text()
    # another term: the highlight follows
    panel.select_term("m")
    assert panel.selected.tolist() == [[5200, 6300], [12000, 12256]]
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
    panel.choose("BEP(500)")  # the qrels give bep 100 on every line; the run's entry point is 5200
    e = panel.explanation
    assert (e.term("bep").value, e.term("entry").value, e.total) == (100, 5200, 0.0)


def test_input_text_is_escaped(window, qtbot):
    panel = open_dock(window, qtbot)
    window.session.topic = "<img src=x>"  # as a topic id from a file could read
    panel.rebuild()
    assert "&lt;img src=x&gt;" in panel.header.text() and "<img" not in panel.header.text()


def test_an_article_the_run_does_not_rank_is_explained_as_if_retrieved_whole(window, qtbot, real):
    panel = open_dock(window, qtbot)
    other = next(a for a, j in real["qrels"].topics[TOPIC].items()
                 if j.relevant and a != ARTICLE and (real["paths"] / "articles" / f"{a}.xml").is_file())
    window.session.open_article(other)
    settle(qtbot, window.session, other)
    qtbot.waitUntil(lambda: panel.explanation is not None and "if retrieved whole" in panel.header.text())
    panel.choose("P_set")
    ev = window.session.current.evaluation  # T = [0, n): |T| = n, |R ∩ T| = NRC
    assert (panel.explanation.term("|T|").value, panel.explanation.term("|R ∩ T|").value) == (ev.n, ev.nrc)
    assert panel.explanation.total == ev.nrc / ev.n
    assert window.scores.hypothetical()
    for name in ("aveChP", "T2IF(300)", "F(0.25)"):
        panel.choose(name)
        assert format_score(parse_measure(name), panel.explanation.total) == window.scores.value_text(name)


def test_terms_model_without_a_window():
    model = TermsModel()
    model.set_explanation(explain("F(1)", evaluate_document(np.array([(0, 27)]), np.array([(23, 45)]), 55),
                                  unit="characters"))
    assert model.rowCount() == 5 and model.columnCount() == 3
    assert model.data(model.index(0, 0)) == "|T|: characters retrieved"
    assert model.data(model.index(0, 1)) == "22" and model.data(model.index(0, 2)) == "22 characters in 1 span"
