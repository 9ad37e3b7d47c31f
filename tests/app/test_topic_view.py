"""The topic view (fetch phase): sortable ranked list, the topic's list scores for a chosen
document measure, their curves, and switching runs without losing the topic or the article.

Expected list scores come from :func:`readsim.core.listmeasures.evaluate` run here on the
files (independently of the window's rows); the small cases are worked by hand on the
papers' mini article (55 characters, relevant 1..27; Arvola et al. 2010: retrieved 33..55 ->
aveChP 0.3484, retrieved 24..45 -> 0.5306).
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from readsim.app.topic_scores import doc_measure, topic_scores
from readsim.app.widgets.ranked_list import (ARTICLE, AVECHP, COLUMN_KEYS, COLUMNS_KEY, ES, OPTIONAL_COLUMNS, P_SET,
                                             RANK, RankedListModel, RankedListView)
from readsim.app.widgets.topic_view import DEFAULT_DOC
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import Settings
from readsim.core.formats import Run
from readsim.core.listmeasures import evaluate, rank_topics
from readsim.core.measure import DocMeasure, parse_list_measure

from helpers.app_cases import mini_qrels, mini_rows

TOPIC = "2009074"  # complete in the shipped subset (tests/app/conftest.py)
PAGERANK = "23724"  # relevant; rank 10 in bert-passages.run, rank 1 in bert-passages-map19.run


def wait_loaded(qtbot, session: Session, article: str) -> None:
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and session.current.name == article, timeout=20_000)


def engine_value(real, run, name: str, mode: str = "natural") -> float:
    """``evaluate``'s per-topic value of list measure ``name`` for TOPIC (the run cut to that
    topic: topics are independent, and the whole run takes seconds)."""
    one = Run(run.path, run.run_id, {TOPIC: run.topics[TOPIC]})
    ev = evaluate(real["qrels"], one, [parse_list_measure(name)], mode=mode, collection=_collection(real))
    return ev.values[name][TOPIC]


_COLLECTIONS: dict = {}


def _collection(real) -> Collection:
    return _COLLECTIONS.setdefault(str(real["collection"]), Collection(real["collection"]))


def click_header(qtbot, view, column: int) -> None:
    h = view.horizontalHeader()
    x = h.sectionViewportPosition(column) + h.sectionSize(column) // 2
    qtbot.mouseClick(h.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, h.height() // 2))


def shown_articles(view) -> list[str]:
    p = view.proxy
    return [p.index(r, ARTICLE).data() for r in range(p.rowCount())]


@pytest.fixture
def real_window(real_window_shared):
    """The module's one window (``real_window_shared``) as a fresh window shows it: besides the
    reader's settings and the article, the ranked list in the run's order with its default columns
    and the topic view on its default document measure (F), which the tests here change."""

    def open_(article: str | None = None):
        w = real_window_shared(article)
        w.table.set_visible_columns(set(COLUMN_KEYS) - set(OPTIONAL_COLUMNS))
        w.table.sortByColumn(RANK, Qt.SortOrder.AscendingOrder)
        w.topic_view.set_doc_kind(DEFAULT_DOC)
        return w

    return open_


# -- the ranked list: sorting, columns ---------------------------------------------------------


def test_header_click_sorts_by_avechp_and_keeps_the_selection(real_window, real, qtbot):
    w = real_window(PAGERANK)
    table = w.table
    assert table.selected_article() == PAGERANK
    # aveChP of every rank, from the engine on the files (0 for a non-relevant article)
    ranking = rank_topics(real["qrels"], real["run"], [DocMeasure("aveChP")],
                          collection=_collection(real), topics=[TOPIC])[TOPIC]
    score = ranking.scores[DocMeasure("aveChP")]
    click_header(qtbot, table, AVECHP)  # first click: best first
    want = [ranking.articles[k] for k in sorted(range(len(score)), key=lambda k: (-score[k], k))]
    assert shown_articles(table) == want
    assert want[0] == "1851223" and want[1] == PAGERANK  # 0.4847 just above PageRank's 0.4841
    assert table.selected_article() == PAGERANK  # the selection followed its article
    click_header(qtbot, table, AVECHP)  # second click: worst first
    assert [score[ranking.articles.index(a)] for a in shown_articles(table)] == sorted(score)
    assert table.selected_article() == PAGERANK
    # rank sorts as a number: 1, 2, .., 9, 10, 11 (not 1, 10, 100, 11)
    click_header(qtbot, table, RANK)
    ranks = [int(table.proxy.index(r, RANK).data()) for r in range(table.proxy.rowCount())]
    assert ranks == list(range(1, len(ranking.articles) + 1))
    # a mode change replaces the rows: the selection stays on the open article
    w.controls.mode.setCurrentIndex(w.controls.mode.findData("worst"))
    assert table.selected_article() == PAGERANK


def test_optional_score_columns_are_remembered(real_window, qtbot, fresh_settings):
    w = real_window(PAGERANK)
    table = w.table
    assert table.isColumnHidden(ES) and table.isColumnHidden(P_SET) and not table.isColumnHidden(AVECHP)
    menu = table.column_menu()
    names = {a.text(): a for a in menu.actions() if a.isCheckable()}
    assert {"ChP@300", "T2IP(300)", "ES(300)", "P_set", "R_set"} <= set(names)
    names["ES(300)"].trigger()
    names["aveChP"].trigger()
    assert not table.isColumnHidden(ES) and table.isColumnHidden(AVECHP)
    # ES of PageRank (relevant, first relevant byte on the first screen) is 1
    row = w.model.row_of(PAGERANK)
    assert w.model.data(w.model.index(row, ES)) == "1"
    other = RankedListView(RankedListModel())  # a new window's list reads the same choice
    qtbot.addWidget(other)
    assert not other.isColumnHidden(ES) and other.isColumnHidden(AVECHP)
    from readsim.app.input_files import app_settings
    assert "ES" in app_settings().value(COLUMNS_KEY)


# -- list scores by hand -------------------------------------------------------------------------

def test_list_scores_worked_by_hand():
    s = Settings()
    ts = topic_scores(mini_rows(), mini_qrels(), "T", doc_measure("aveChP", s), s)
    v = ts.values
    # gP[1] = 0.3484, gP[3] = (0.3484 + 0 + 0.5306) / 3; AgP = (gP[1] + gP[3]) / Nrel
    assert v["AgP/aveChP"] == pytest.approx((0.3484 + (0.3484 + 0.5306) / 3) / 3, abs=1e-4)
    assert v["MAP"] == pytest.approx((1 + 2 / 3) / 3)
    assert v["gR@1"] == pytest.approx(1 / 3) and v["gR@5"] == pytest.approx(2 / 3)
    # gP past the end of the 3-article run: the last rank's value (the official tool's rule)
    assert v["gP@5/aveChP"] == pytest.approx((0.3484 + 0.5306) / 3, abs=1e-4)
    # effort, screen 300: ES = 1 (a: first relevant at position 24), 5 (x: NR), 1 (b: at 1);
    # ideal 1, 1, 1, then NR. NCE = 0, 4, 4, then 4 (ES = NR = ideal past the end)
    ts = topic_scores(mini_rows(), mini_qrels(), "T", doc_measure("ES", s), s)
    assert list(ts.nce) == [0, 4, 4]
    assert ts.values["CE@10/ES(300)"] == 4 + 7 * 4  # ranks 4..10 count NR - 1 = 4 each
    assert ts.values["NCE@10/ES(300)"] == 4
    assert ts.values["ANCE@3/ES(300)"] == pytest.approx(8 / 3)
    assert ts.values["ANCE@10/ES(300)"] == pytest.approx(36 / 10)


def test_panel_follows_the_mode_by_hand(qtbot):
    """In the document mode both relevant articles are read from their start: aveChP = 1."""
    session = Session()
    view_window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(view_window)
    tv = view_window.topic_view
    session.qrels, session.run, session.topic = mini_qrels(), Run("mini.run", "mini", {"T": []}), "T"
    session.rows = mini_rows()
    session.rows_changed.emit()
    tv.set_doc_kind("aveChP")
    assert tv.value_text("AgP/aveChP") == f"{(0.3484 + (0.3484 + 0.5306) / 3) / 3:.4f}"
    view_window.controls.mode.setCurrentIndex(view_window.controls.mode.findData("document"))
    assert tv.value_text("AgP/aveChP") == f"{(1 + 2 / 3) / 3:.4f}"
    assert tv.value_text("gP@1/aveChP") == "1.0000"


# -- list scores on the real data ----------------------------------------------------------------


def test_topic_panel_equals_the_engine(real_window, real, qtbot):
    w = real_window(PAGERANK)
    tv, run = w.topic_view, real["run"]
    assert w.topic_dock.isVisible()
    tv.doc_combo.setCurrentIndex(tv.doc_combo.findData("F"))
    assert tv.doc_combo.currentText() == "F(0.25)"
    for name in ("AgP/F(0.25)", "AgP'/F(0.25)", "MAP", "gP@10/F(0.25)", "gP@50/F(0.25)", "gR@25"):
        want = engine_value(real, run, name)
        assert tv.values()[name] == pytest.approx(want, abs=1e-12)
        assert tv.value_text(name) == f"{want:.4f}"
    # the effort scores: LE(300), ranks 10, 50, 100 (= the run's length)
    tv.doc_combo.setCurrentIndex(tv.doc_combo.findData("LE"))
    for name in ("ANCE@100/LE(300)", "NCE@50/LE(300)", "CE@10/LE(300)", "ANCE@10/LE(300)"):
        want = engine_value(real, run, name)
        assert tv.values()[name] == pytest.approx(want, abs=1e-12)
        assert tv.value_text(name) == f"{want:.2f}"
    assert "AgP/F(0.25)" not in tv.values()
    # a laptop screen: LE counts 2000-byte screens; the panel follows the Controls
    before = tv.values()["ANCE@100/LE(300)"]
    qtbot.mouseClick(w.controls.preset_buttons[2000], Qt.MouseButton.LeftButton)
    want = engine_value(real, run, "ANCE@100/LE(2000)")
    assert tv.values()["ANCE@100/LE(2000)"] == pytest.approx(want, abs=1e-12) and want < before
    # T2I tolerance and the document mode, with T2IF
    tv.doc_combo.setCurrentIndex(tv.doc_combo.findData("T2IF"))
    w.controls.tolerance.setValue(100)
    w.controls.mode.setCurrentIndex(w.controls.mode.findData("document"))
    assert "document reading" in tv.header.text()
    for name in ("AgP/T2IF(100)", "gP@25/T2IF(100)"):
        assert tv.values()[name] == pytest.approx(engine_value(real, run, name, "document"), abs=1e-12)
    # the curves: gP[r] for S, NCE[r] for LE(screen); the open article's rank is marked
    ts = tv.scores
    x, y = tv.curves.gp.getData()
    assert list(x) == list(range(1, 101)) and y[9] == pytest.approx(tv.values()["gP@10/T2IF(100)"])
    assert tv.curves.marked_rank() == 10 and "rank 10" in tv.article_line.text()
    assert ts.effort.name == "LE(2000)" and tv.curves.nce.getData()[1][-1] == pytest.approx(
        engine_value(real, run, "NCE@100/LE(2000)", "document"))


def test_clicking_a_curve_opens_the_article_at_that_rank(real_window, qtbot):
    w = real_window(PAGERANK)
    tv = w.topic_view
    plot = tv.curves.gp_plot
    vb = plot.getPlotItem().getViewBox()
    pos = plot.mapFromScene(vb.mapViewToScene(pg_point(13, 0.5)))
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    wait_loaded(qtbot, w.session, "12431")  # rank 13: Google search
    assert tv.curves.marked_rank() == 13 and w.table.selected_article() == "12431"


def pg_point(x, y):
    from PySide6.QtCore import QPointF
    return QPointF(x, y)


# -- switching runs --------------------------------------------------------------------------


def test_switching_runs_keeps_the_topic_and_the_article(qtbot, real):
    from readsim.core.formats import read_run

    run1 = real["run"]
    run2 = read_run(real["paths"] / "runs" / "bert-passages-map19.run")
    session = Session()
    w = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    session.adopt(Loaded(collection=Collection(real["collection"]), qrels=real["qrels"], runs=[run1, run2],
                         topics=real["topics"]), TOPIC, PAGERANK)
    wait_loaded(qtbot, session, PAGERANK)
    assert session.run is run1 and session.current.row.rank == 10
    # the user picks the second run in the run combo (keyboard: Down)
    w.run_combo.setFocus()
    qtbot.keyClick(w.run_combo, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: session.run is run2 and activity().count == 0 and session.current is not None
                    and session.current.row is not None and session.current.row.rank == 1, timeout=20_000)
    assert session.topic == TOPIC and w.topic_combo.currentData() == TOPIC
    assert session.current.name == PAGERANK and w.table.selected_article() == PAGERANK
    assert "bert-passages-map19.run" in w.topic_view.header.text()
    assert w.topic_view.values()["AgP/F(0.25)"] == pytest.approx(engine_value(real, run2, "AgP/F(0.25)"))
    assert w.topic_view.curves.marked_rank() == 1
    # a third run that does not rank PageRank (opened as File > Open run would): it stays open
    cut = Run(str(real["paths"] / "runs" / "without-pagerank.run"), "cut",
              {TOPIC: [e for e in run1.topics[TOPIC] if e.article != PAGERANK]})
    session.adopt(Loaded(runs=[cut]))
    qtbot.waitUntil(lambda: session.run is cut and activity().count == 0 and session.current is not None
                    and len(session.rows) == 99, timeout=20_000)
    assert session.current.name == PAGERANK and session.current.row is None
    assert w.table.selected_article() is None
    assert "not in this run" in w.topic_view.article_line.text() and w.topic_view.curves.marked_rank() is None
    assert "not ranked by the run" in w.article.header.text()
    # back to the first run with the combo: ranked again at 10, selected again
    w.run_combo.setFocus()
    qtbot.keyClick(w.run_combo, Qt.Key.Key_Home)
    qtbot.waitUntil(lambda: session.run is run1 and activity().count == 0 and session.current is not None
                    and session.current.row is not None, timeout=20_000)
    assert session.current.name == PAGERANK and session.current.row.rank == 10
    assert w.table.selected_article() == PAGERANK and session.topic == TOPIC
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)



# -- where the run loses -----------------------------------------------------------------------


def test_loss_panel_by_hand(qtbot):
    """The mini rows (a: 0.3484, x, b: 0.5306 aveChP; c relevant, not ranked; 27 relevant characters
    each, so the ideal order is a, b, c by article id): with the highlighted passages aveChP = 1."""
    from readsim.app.widgets.loss_panel import LossPanel

    s = Settings()
    loss = topic_scores(mini_rows(), mini_qrels(), "T", doc_measure("aveChP", s), s).loss
    panel = LossPanel()
    qtbot.addWidget(panel)
    panel.set_loss(loss, ["a", "x", "b"])
    actual = (0.3484 + (0.3484 + 0.5306) / 3) / 3
    assert float(panel.text("actual")) == pytest.approx(actual, abs=1e-4)
    assert panel.text("ideal_passages") == f"{(1 + 2 / 3) / 3:.4f}"
    # ideal ranking: a (rank 1), b (rank 2), the run's own scores
    assert float(panel.text("ideal_ranking")) == pytest.approx((0.3484 + (0.3484 + 0.5306) / 2) / 3, abs=1e-4)
    assert panel.text("ideal") == f"{2 / 3:.4f}" and panel.text("perfect") == "1.0000"
    assert panel.text("unretrieved") == f"{1 / 3:.4f}"
    assert "1 relevant article not ranked" in panel.split_line.text()


def test_where_the_run_loses_equals_the_engine(real_window, real, qtbot):
    from readsim.app.widgets.loss_table import L_IDEAL_RANK, L_LOSS, L_RANK, L_RANK_COST, L_TITLE
    from readsim.core.costs import article_costs, topic_loss
    from readsim.core.measure import ListMeasure

    w = real_window(PAGERANK)
    tv = w.topic_view
    panel = tv.loss_panel
    tv.set_doc_kind("F")
    one = Run(real["run"].path, real["run"].run_id, {TOPIC: real["run"].topics[TOPIC]})
    want = topic_loss(real["qrels"], one, TOPIC, DocMeasure("F", 0, 0.25), collection=_collection(real))
    assert want.actual == pytest.approx(engine_value(real, real["run"], "AgP/F(0.25)"), abs=1e-12)
    got = tv.scores.loss
    for key in panel.KEYS:
        assert getattr(got, key) == pytest.approx(getattr(want, key), abs=1e-12), key
        assert panel.text(key) == f"{getattr(want, key):.4f}", key
    assert want.browse + want.fetch + want.interaction == pytest.approx(want.ideal - want.actual)
    assert want.ideal_passages > want.actual and want.ideal > want.ideal_ranking
    assert f"= browse {want.browse:.4f} + fetch {want.fetch:.4f} + together {want.interaction:.4f}" \
        in panel.split_line.text()
    assert len(want.missed) == 3 and "3 relevant articles not ranked" in panel.split_line.text()
    # one row per ranked article; PageRank's browse loss is F(0.25) of its highlighted passages (1)
    # minus the run's 0.1705
    table, model = panel.table, panel.model
    assert model.rowCount() == 100
    k = want.articles.index(PAGERANK)
    assert want.ideal_scores[k] == pytest.approx(1.0)
    # the column is each article's cost to the topic's AgP (computed in the background), not the
    # difference of its own scores: the engine's costs, each checked against an edited run in
    # tests/engine/test_costs_per_article.py
    qtbot.waitUntil(lambda: panel.costs is not None, timeout=20_000)
    costs = article_costs(want, ListMeasure("AgP", 0, DocMeasure("F", 0, 0.25)))
    assert panel.costs.browse_cost == pytest.approx(costs.browse_cost, abs=1e-12)
    assert panel.costs.rank_cost == pytest.approx(costs.rank_cost, abs=1e-12)
    # sorting: rank first, then a click on the browse-cost header (biggest first), then again
    click_header(qtbot, table, L_RANK)
    assert [panel.article_at(r) for r in range(100)] == want.articles
    for column, cost in ((L_LOSS, costs.browse_cost), (L_RANK_COST, costs.rank_cost)):
        click_header(qtbot, table, column)
        shown = [panel.article_at(r) for r in range(100)]
        values = [cost[want.articles.index(a)] for a in shown]
        assert values == sorted(values, reverse=True) and values[0] == max(cost)
        assert model.index(0, column).data() == f"{max(cost):+.4f}"
        click_header(qtbot, table, column)
        values = [cost[want.articles.index(panel.article_at(r))] for r in range(100)]
        assert values == sorted(values)
    # the ideal rank shown is the one the rank cost moves the article to
    assert model.index(model.view_row(k), L_IDEAL_RANK).data() == str(costs.ideal_rank[k])
    # the open article's row is selected; clicking a row opens its article
    assert table.selectionModel().selectedRows()[0].data(Qt.ItemDataRole.UserRole + 1) == PAGERANK
    click_header(qtbot, table, L_LOSS)  # biggest browse cost first
    top = want.articles[int(np.argmax(costs.browse_cost))]
    rect = table.visualRect(model.index(0, L_TITLE))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    wait_loaded(qtbot, w.session, top)
    assert f"rank {want.articles.index(top) + 1}" in tv.article_line.text()


def test_loss_panel_for_effort_and_t2ip(real_window, real, qtbot):
    from readsim.app.widgets.loss_table import L_LOSS
    from readsim.core.costs import topic_loss

    w = real_window(PAGERANK)
    tv, panel = w.topic_view, w.topic_view.loss_panel
    one = Run(real["run"].path, real["run"].run_id, {TOPIC: real["run"].topics[TOPIC]})
    # T2IP(300) of the highlighted passages is not 1: the reader reads 300 non-relevant bytes after them
    tv.set_doc_kind("T2IP")
    want = topic_loss(real["qrels"], one, TOPIC, DocMeasure("T2IP", 300), collection=_collection(real))
    assert panel.text("ideal") == f"{want.ideal:.4f}" and want.ideal < 0.8
    assert np.all(want.ideal_scores[want.relevant] < 1)
    # LE: no AgP split; the column is the extra screens, run - ideal
    tv.set_doc_kind("LE")
    assert not panel.square.isVisible() and "no AgP split" in panel.split_line.text()
    with pytest.raises(KeyError):
        panel.text("actual")
    assert panel.model.headerData(L_LOSS, Qt.Orientation.Horizontal) == "Extra"
    want = topic_loss(real["qrels"], one, TOPIC, DocMeasure("LE", 300, lower_is_better=True),
                      collection=_collection(real))
    k = want.articles.index("12431")  # Google search: LE 4 with the run's passages, 1 with the ideal ones
    assert want.scores[k] == 4 and want.ideal_scores[k] == 1
    assert list(tv.scores.loss.browse_loss) == list(want.browse_loss)
    assert panel.model.index(panel.model.view_row(k), L_LOSS).data() == "+3"


def test_nce_axis_stays_still_across_modes_and_screens_of_a_topic(qtbot):
    """The NCE plot's y range covers the curves; within one topic and effort kind it only grows
    or, when the curves use less than half of it, shrinks (so switching modes or screen sizes
    keeps the axis still); another topic fits it anew."""
    from dataclasses import replace

    from readsim.app.widgets.list_plot import RankCurves

    curves = RankCurves()
    qtbot.addWidget(curves)
    s = Settings()
    ts = topic_scores(mini_rows(), mini_qrels(), "T", doc_measure("ES", s), s)  # NCE 0, 4, 4 (by hand above)

    def top(t) -> float:
        curves.show_scores(t)
        return curves.nce_plot.getPlotItem().getViewBox().viewRange()[1][1]

    first = top(ts)
    assert first >= 4 * 1.05
    screen = replace(ts, effort=doc_measure("ES", Settings(screen=2000)), nce=np.array([0.0, 3.0, 3.0]))
    assert top(screen) == first  # a smaller curve, more than half of the range: still
    higher = replace(ts, nce=np.array([0.0, 6.0, 6.0]))
    assert top(higher) >= 6 * 1.05 > first  # grows to cover the curve
    lower = replace(ts, nce=np.array([0.0, 1.0, 1.0]))
    assert 1.05 <= top(lower) < 2  # shrinks: the curves used less than half
    other = replace(ts, topic="U", nce=np.array([0.0, 0.5, 0.9]))
    assert 0.9 * 1.05 <= top(other) < 1.05  # another topic: fitted anew
