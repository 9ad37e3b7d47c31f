"""The window on real INEX data (topic 2009074): ranked list, live scores, reading screens; one
window for the module (``real_window_shared``: each test starts from the default settings).

Expected scores are the engine's, computed here independently of the window from the qrels'
passages and doc_length and the run's passages; a few are also worked by hand from the qrels
and run lines of article 23724 (PageRank).
"""

from __future__ import annotations

import numpy as np

from readsim.operations.article_reading import panel_measures, panel_scores
from readsim.app.widgets.article_view import build_document
from readsim.app.widgets.ranked_list import ARTICLE, RANK, RELEVANT, TITLE
from readsim.core.doc_evaluation import Settings, evaluate_document
from readsim.core.layout import layout
from readsim.core.reading import Mode, window as read_window

TOPIC = "2009074"

ARTICLE_ID = "23724"  # PageRank: relevant (4 passages, 4,164 bytes) and retrieved (rank 10)


def expected(real, settings: Settings) -> dict[str, str]:
    j = real["qrels"].judgement(TOPIC, ARTICLE_ID)
    e = real["run"].article(TOPIC, ARTICLE_ID)
    ev = evaluate_document(j.passages, e.passages, j.doc_length, settings.mode)
    out = {}
    for m in panel_measures(settings):
        v = panel_scores(ev, settings)[m.name]
        out[m.name] = str(int(v)) if m.kind in ("LE", "ES") else f"{v:.4f}"
    return out


def run_order(path, topic):
    """Article ids of ``topic`` in first-appearance order, read straight from the run file."""
    seen = []
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if f and f[0] == topic and f[2] not in seen:
            seen.append(f[2])
    return seen


def test_ranked_list_follows_the_run(real_window_shared, real):
    w = real_window_shared(ARTICLE_ID)
    m = w.model
    order = run_order(real["paths"] / "runs" / "bert-passages.run", TOPIC)
    assert [m.data(m.index(r, ARTICLE)) for r in range(m.rowCount())] == order
    assert [m.data(m.index(r, RANK)) for r in range(m.rowCount())] == [str(i) for i in range(1, len(order) + 1)]
    relevant = set(real["qrels"].relevant_articles(TOPIC))
    assert [m.data(m.index(r, RELEVANT)) == "yes" for r in range(m.rowCount())] == [a in relevant for a in order]
    r = order.index(ARTICLE_ID)
    assert m.data(m.index(r, TITLE)) == "PageRank"
    missing = next(a for a in order if not (real["collection"] / f"{a}.xml").exists())
    assert m.data(m.index(order.index(missing), TITLE)) == missing  # no article: its id
    # the view selects the open article; the topic combo shows the topic with its title
    assert w.table.selectionModel().selectedRows()[0].data() is not None
    assert w.topic_combo.currentData() == TOPIC and "web ranking" in w.topic_combo.currentText()


def test_scores_follow_the_controls(real_window_shared, real, qtbot):
    w = real_window_shared(ARTICLE_ID)
    shown = w.scores.shown
    assert shown() == expected(real, Settings())
    # by hand: T = [0, 25686) holds all of R (4,164 bytes): P_set = 4164/25686, R_set = 1
    assert shown()["P_set"] == f"{4164 / 25686:.4f}" and shown()["R_set"] == "1.0000"
    # screen 300 -> 2000 with the spin box, as a user types it
    w.controls.screen.clear()
    qtbot.keyClicks(w.controls.screen, "2000")
    assert w.session.settings.screen == 2000
    assert shown() == expected(real, Settings(screen=2000))
    # by hand: the chain reads [0, 2000) first; relevant there: [159, 1326) = 1,167 bytes
    assert shown()["ChP@2000"] == f"{1167 / 2000:.4f}" and shown()["ChR@2000"] == f"{1167 / 4164:.4f}"
    # modes with the combo box: natural -> worst -> document
    for mode in (Mode.WORST, Mode.DOCUMENT):
        w.controls.mode.setCurrentIndex(w.controls.mode.findData(mode.value))
        assert shown() == expected(real, Settings(mode=mode, screen=2000))
    # tolerance and beta are live too
    w.controls.tolerance.setValue(100)
    w.controls.beta.setValue(1.0)
    assert shown() == expected(real, Settings(mode=Mode.DOCUMENT, screen=2000, tolerance=100, beta=1.0))
    # the ranked list's row shows the same document scores
    r = w.model.row_of(ARTICLE_ID)
    assert w.model.data(w.model.index(r, 4)) == shown()["aveChP"]


def test_article_text_positions_and_marks(real_window_shared, real):
    w = real_window_shared(ARTICLE_ID)
    cur = w.session.current
    lay = cur.layout
    doc = build_document(lay)
    assert doc.blockCount() == len(lay.blocks)
    assert all(doc.findBlockByNumber(i).position() == b.start for i, b in enumerate(lay.blocks))
    assert doc.characterCount() == lay.display_length + 1
    # the highlighter marks the first relevant passage [159, 1326) as relevant and retrieved
    j = real["qrels"].judgement(TOPIC, ARTICLE_ID)
    a, b = lay.spans_to_display(j.passages[:1])[0]
    ranges = w.article.view.highlighter.ranges(int(a), int(b))
    assert ranges and all(k == 2 for k, _, _ in ranges)  # class 2 = relevant and retrieved
    assert sum(e - s for _, s, e in ranges) == b - a
    assert [n for n, _, _ in w.article.view.marks().chain] == [1]  # one merged retrieved passage


def test_reading_screens_step(real_window_shared, real, qtbot):
    w = real_window_shared(ARTICLE_ID)
    s = w.session
    w.controls.mode.setCurrentIndex(w.controls.mode.findData("worst"))
    w.controls.preset_buttons[2000].click()
    assert s.settings.screen == 2000
    assert w.article.position.text() == f"screen 1 of {-(-s.current.evaluation.n // 2000)}"
    w.article.next_btn.click()
    w.act_next_screen.trigger()
    assert s.step == 2 and w.article.position.text().startswith("screen 3 of")
    ev = evaluate_document(real["qrels"].judgement(TOPIC, ARTICLE_ID).passages,
                           real["run"].article(TOPIC, ARTICLE_ID).passages,
                           real["qrels"].judgement(TOPIC, ARTICLE_ID).doc_length, Mode.WORST)
    spans = np.asarray(read_window(ev.pieces, 4000, 6000), dtype=np.int64).reshape(-1, 2)
    lay = layout(s.collection.article(ARTICLE_ID))
    want = [tuple(x) for x in lay.spans_to_display(spans).tolist()]
    assert w.article.view.window_spans() == want
    lo, hi = w.article.view.visible_range()
    assert lo <= want[0][0] <= hi  # scrolled to what the reader reads first on that screen
    w.act_prev_screen.trigger()
    assert s.step == 1
    w.act_first_screen.trigger()
    assert s.step == 0 and not w.article.prev_btn.isEnabled()


def test_next_article_and_mode_cycle_shortcuts(real_window_shared, qtbot):
    w = real_window_shared(ARTICLE_ID)
    s = w.session
    r = w.model.row_of(ARTICLE_ID)
    w.act_next_article.trigger()
    nxt = w.model.row(r + 1).article
    qtbot.waitUntil(lambda: s.current is not None and s.current.name == nxt, timeout=10_000)
    w.act_cycle_mode.trigger()
    assert s.settings.mode is Mode.WORST and w.controls.mode.currentText() == "worst"


def test_article_missing_from_the_collection(real_window_shared, real, qtbot):
    order = run_order(real["paths"] / "runs" / "bert-passages.run", TOPIC)
    missing = next(a for a in order if not (real["collection"] / f"{a}.xml").exists())
    w = real_window_shared(missing)
    cur = w.session.current
    assert cur.article is None and "not in the collection" in w.article.view.toPlainText()
    assert w.scores.shown()["LE(300)"] == "5"  # non-relevant (not in the qrels): NR = 5
