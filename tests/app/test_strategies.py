"""The "Simulated strategies" dock on real INEX data (topic 2009074), acting as a user: open an
article, show the dock from the View menu, read the table, change the controls, select rows.

Expected numbers are the engine's, computed here independently of the dock: the qrels'
passages and doc_length, :func:`readsim.core.simulated.strategy_passages` on the article read
from the collection, :func:`readsim.core.doc_evaluation.evaluate_document`; a few worked by hand
(S retrieves exactly the relevant text; SLD the whole article).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

from readsim.app import marks as mk
from readsim.app.widgets.ranked_list import format_score
from readsim.app.widgets.strategies import ROWS, SHORTCUT, columns, strategy_spans
from readsim.core import intervals as iv
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import Settings, evaluate_document
from readsim.core.reading import Mode
from readsim.core.simulated import STRATEGIES, strategy_passages

TOPIC = "2009074"
ARTICLE_ID = "23724"  # PageRank: relevant, 5 passages (159:1167 4996:9 5008:861 5913:1865 8138:262), rank 10
OTHER_ID = "2193171"  # TrustRank: relevant (1 passage, 366 bytes)


def expected(real, article: str, settings: Settings) -> dict[str, dict[str, float]]:
    """row -> measure name -> value, from the engine alone."""
    j = real["qrels"].judgement(TOPIC, article)
    art = Collection(real["collection"]).article(article)
    retrieved = {n: strategy_passages(n, j.passages, art) for n in STRATEGIES}
    entry = real["run"].article(TOPIC, article)
    retrieved["run"] = entry.passages if entry is not None else iv.EMPTY
    out = {}
    for name, spans in retrieved.items():
        ev = evaluate_document(j.passages, spans, j.doc_length, settings.mode, text_length=art.length)
        out[name] = {m.name: m.value(ev, settings.levels) for m in columns(settings)}
    return out


def shown(panel) -> dict[str, dict[str, float]]:
    model = panel.model
    return {r.name: {m.name: model.value(r.name, m.name) for m in model.measures} for r in model.rows}


@pytest.fixture
def window(real_window_shared, qtbot):
    """The module's one window on 23724 (``real_window_shared``), the dock hidden (which ends a
    preview), as a fresh window opens."""
    w = real_window_shared(ARTICLE_ID)
    if w.strategies_dock.isVisible():
        w.act_strategies.trigger()
        qtbot.waitUntil(lambda: not w.strategies_dock.isVisible())
    assert w.strategies.previewing is None
    return w


def open_dock(w, qtbot):
    assert not w.strategies_dock.isVisible()
    w.act_strategies.trigger()  # View ▸ Simulated strategies
    qtbot.waitUntil(lambda: w.strategies.isVisible() and len(w.strategies.model.rows) == len(ROWS))
    return w.strategies


def test_view_menu_entry_and_a_free_shortcut(window):
    w = window
    view_menu = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "View")
    assert w.act_strategies in view_menu.actions() and w.act_strategies.text() == "Simulated strategies"
    assert w.act_strategies.shortcut() == QKeySequence(SHORTCUT)
    others = [a for a in w.findChildren(QAction) if a is not w.act_strategies]
    assert all(QKeySequence(SHORTCUT) not in a.shortcuts() for a in others)


def test_table_equals_the_engine_and_follows_the_controls(window, real, qtbot):
    w = window
    panel = open_dock(w, qtbot)
    assert [r.name for r in panel.model.rows] == ["S", "SL", "SLD", "SS", "SST", "run"]
    assert [m.name for m in panel.model.measures] == ["aveChP", "T2IF(300)", "LE(300)", "F(0.25)"]
    assert shown(panel) == expected(real, ARTICLE_ID, Settings())
    # by hand: S retrieves exactly R, read first along the chain: aveChP = F = 1, LE = 1 screen
    assert panel.model.text("S", "aveChP") == "1.0000" and panel.model.text("S", "F(0.25)") == "1.0000"
    assert panel.model.text("S", "LE(300)") == "1"
    # by hand: SLD retrieves the counted text [0, doc_length): P = 4164 / doc_length, R = 1,
    # F_b = (1 + b²) P R / (b² P + R)
    length = w.session.current.article.doc_length
    p, b2 = 4164 / length, 0.25 ** 2
    assert panel.model.value("SLD", "F(0.25)") == pytest.approx((1 + b2) * p / (b2 * p + 1), abs=1e-12)
    assert panel.model.text("S", 1) == "5" and panel.model.text("S", 2) == "4,164"  # passages, bytes
    # the "run" row is the scores panel's numbers
    assert panel.model.text("run", "aveChP") == w.scores.value_text("aveChP")
    assert panel.model.text("run", "F(0.25)") == w.scores.value_text("F(0.25)")

    # the mode combo box, as a user steps it with the keyboard: natural -> worst
    combo = w.controls.mode
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert w.session.settings.mode is Mode.WORST
    assert shown(panel) == expected(real, ARTICLE_ID, Settings(mode=Mode.WORST))
    assert "reading <b>worst</b>" in panel.header.text()
    # the laptop screen preset: LE(2000)
    qtbot.mouseClick(w.controls.preset_buttons[2000], Qt.MouseButton.LeftButton)
    assert [m.name for m in panel.model.measures] == ["aveChP", "T2IF(300)", "LE(2000)", "F(0.25)"]
    assert shown(panel) == expected(real, ARTICLE_ID, Settings(mode=Mode.WORST, screen=2000))
    # tolerance and beta typed into their spin boxes
    w.controls.tolerance.clear()
    qtbot.keyClicks(w.controls.tolerance, "100")
    w.controls.beta.setValue(1.0)
    want = expected(real, ARTICLE_ID, Settings(mode=Mode.WORST, screen=2000, tolerance=100, beta=1.0))
    assert shown(panel) == want
    assert panel.model.text("SS", "T2IF(100)") == format_score(columns(w.session.settings)[1], want["SS"]["T2IF(100)"])
    # document mode: every strategy is read from the start, the same order for all
    combo.setCurrentIndex(combo.findData("document"))
    doc = shown(panel)
    assert doc == expected(real, ARTICLE_ID, w.session.settings)
    assert len({v["aveChP"] for v in doc.values()}) == 1


def test_another_article_and_a_hidden_dock(window, real, qtbot):
    w = window
    panel = open_dock(w, qtbot)
    w.session.open_article(OTHER_ID)
    qtbot.waitUntil(lambda: w.session.current.name == OTHER_ID and "2193171" in panel.header.text())
    assert shown(panel) == expected(real, OTHER_ID, Settings())
    # hidden, the dock does not follow; shown again, it catches up
    w.act_strategies.trigger()
    assert not panel.isVisible()
    w.controls.preset_buttons[2000].click()
    w.act_strategies.trigger()
    qtbot.waitUntil(panel.isVisible)
    assert shown(panel) == expected(real, OTHER_ID, Settings(screen=2000))


def test_selecting_a_row_previews_it_in_the_article(window, real, qtbot):
    w = window
    panel = open_dock(w, qtbot)
    view, cur = w.article.view, w.session.current
    run_marks = view.marks()
    # click the SS row
    rect = panel.table.visualRect(panel.model.index(panel.model.row_of("SS"), 0))
    qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert panel.previewing == "SS"
    j = real["qrels"].judgement(TOPIC, ARTICLE_ID)
    ss = strategy_passages("SS", j.passages, cur.article)
    ev = evaluate_document(j.passages, ss, j.doc_length, Mode.NATURAL, text_length=cur.article.length)
    want = mk.marks(cur.layout, ev)
    got = view.marks()
    assert got.chain == want.chain and len(got.chain) == len(ss)
    for a, b in (("relevant", "relevant"), ("retrieved", "retrieved"), ("both", "both")):
        assert (getattr(got, a) == getattr(want, b)).all()
    # the highlighter paints SS's retrieved text: its first span is class 2 (relevant and retrieved)
    a, b = cur.layout.spans_to_display(ss[:1])[0]
    assert {k for k, _, _ in view.highlighter.ranges(int(a), int(b))} == {2}
    # a mode change keeps the preview, with its chain read in the new mode
    w.controls.mode.setCurrentIndex(w.controls.mode.findData("worst"))
    assert panel.previewing == "SS" and view.marks().chain == want.chain
    # selecting "run" shows the run's passages again
    panel.select("run")
    assert panel.previewing is None
    assert view.marks().chain == run_marks.chain and (view.marks().retrieved == run_marks.retrieved).all()
    # hiding the dock ends a preview too
    panel.select("SLD")
    assert panel.previewing == "SLD" and len(view.marks().chain) == 1
    w.act_strategies.trigger()
    assert panel.previewing is None and view.marks().chain == run_marks.chain


def test_strategy_spans_for_the_passage_editor(window, real):
    w = window
    s = w.session
    j = real["qrels"].judgement(TOPIC, ARTICLE_ID)
    for name in STRATEGIES:
        assert (strategy_spans(s, name) == strategy_passages(name, j.passages, s.current.article)).all()
    assert (strategy_spans(s, "S") == j.passages).all()
    assert (strategy_spans(s, "run") == real["run"].article(TOPIC, ARTICLE_ID).passages).all()
    with pytest.raises(ValueError, match="unknown strategy"):
        strategy_spans(s, "XYZ")
