"""The topic view's "where the run loses" per-article column (app/widgets/loss_table.py,
loss_panel.py; reference section 5.11): each ranked article's browse cost and rank cost to the
topic's AgP, worked by hand on the papers' mini article, computed in the background, equal to
the engine on the real data; the export of the table with its provenance; the official
AgP/F(0.25) as the default measure, the user's choice remembered.

The mini rows (tests/helpers/app_cases.py): a (aveChP S_a = 0.3484), x (non-relevant), b
(S_b = 0.5306); c relevant, not ranked; Nrel = 3; every relevant article has 27 relevant
characters of 55, so with its highlighted passages aveChP = 1 and the ideal order is a, b by
article id, then x.
"""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from PySide6.QtCore import Qt

from readsim.app.widgets.loss_panel import LossPanel
from readsim.app.widgets.loss_table import L_IDEAL_RANK, L_LOSS, L_RANK_COST, LossModel
from readsim.core.costs import article_costs
from readsim.core.measure import DocMeasure, ListMeasure

from helpers.app_cases import PAGERANK, TOPIC, by_hand, mini_loss


def test_model_by_hand(qtbot):
    loss = mini_loss()
    sa, sb = loss.scores[0], loss.scores[2]
    assert (sa, sb) == pytest.approx((0.3484, 0.5306), abs=1e-4)
    model = LossModel()
    model.set_loss(loss, ["A", "X", "B"])
    assert [model.index(k, L_IDEAL_RANK).data() for k in range(3)] == ["1", "3", "2"]
    assert model.index(0, L_LOSS).data() == "…"  # until the costs arrive
    model.set_costs(article_costs(loss, ListMeasure("AgP", 0, DocMeasure("aveChP"))))
    browse, rank = by_hand(sa, sb)
    assert [model.index(k, L_LOSS).data() for k in range(3)] == [f"{browse[0]:+.4f}", "–", f"{browse[2]:+.4f}"]
    # a's rank cost is 0 (it stays first): shown unsigned, as every zero difference
    assert [model.index(k, L_RANK_COST).data() for k in range(3)] == ["0.0000"] + [f"{v:+.4f}" for v in rank[1:]]
    rows = model.export_rows()
    assert [r["browse_cost"] for r in rows] == pytest.approx(browse, abs=1e-12)
    assert [r["rank_cost"] for r in rows] == pytest.approx(rank, abs=1e-12)
    assert model.headerData(L_LOSS, Qt.Orientation.Horizontal) == "Browse\ncost"
    # costs of another split are not shown
    model.set_costs(article_costs(mini_loss("F"), ListMeasure("AgP", 0, DocMeasure("F", 0, 0.25))))
    assert [r["browse_cost"] for r in model.export_rows()] == pytest.approx(browse, abs=1e-12)


def test_panel_computes_the_costs_in_the_background_once(qtbot):
    panel = LossPanel()
    qtbot.addWidget(panel)
    loss = mini_loss()
    panel.set_loss(loss, ["A", "X", "B"])
    assert panel.costs is None  # not in the GUI thread
    qtbot.waitUntil(lambda: panel.costs is not None, timeout=20_000)
    browse, rank = by_hand(loss.scores[0], loss.scores[2])
    assert panel.costs.browse_cost == pytest.approx(browse, abs=1e-12)
    assert panel.costs.rank_cost == pytest.approx(rank, abs=1e-12)
    assert panel.costs_computed == 1
    panel.set_loss(None)
    panel.set_loss(loss, ["A", "X", "B"])  # the same split again: from the memo, at once
    assert panel.costs is not None and panel.costs_computed == 1


def test_effort_scores_show_extra_screens_and_no_rank_cost(qtbot):
    panel = LossPanel()
    qtbot.addWidget(panel)
    loss = mini_loss("LE")
    panel.set_loss(loss, ["A", "X", "B"])
    model = panel.model
    assert model.headerData(L_LOSS, Qt.Orientation.Horizontal) == "Extra"
    assert model.index(0, L_RANK_COST).data() == "–" and panel.costs is None
    assert "extra_screens" in model.export_columns()


def test_export_with_provenance(qtbot, tmp_path):
    panel = LossPanel()
    qtbot.addWidget(panel)
    loss = mini_loss()
    panel.context = lambda: {"readsim": "test", "files": {"qrels": "mini.qrels"}, "topic": "T"}
    panel.set_loss(loss, ["A", "X", "B"])
    qtbot.waitUntil(lambda: panel.costs is not None, timeout=20_000)
    browse, rank = by_hand(loss.scores[0], loss.scores[2])
    panel.export_table(tmp_path / "loss.json")
    data = json.loads((tmp_path / "loss.json").read_text())
    assert data["provenance"]["files"]["qrels"] == "mini.qrels" and data["provenance"]["topic"] == "T"
    split = data["provenance"]["where_the_run_loses"]
    assert split["measure"] == "AgP/aveChP" and split["actual"] == pytest.approx(loss.actual, abs=1e-15)
    assert [r["article"] for r in data["rows"]] == ["a", "x", "b"]
    assert [r["rank_cost"] for r in data["rows"]] == pytest.approx(rank, abs=1e-12)
    panel.export_table(tmp_path / "loss.csv")
    text = (tmp_path / "loss.csv").read_text()
    assert "# files.qrels: mini.qrels" in text and "# where_the_run_loses.measure: AgP/aveChP" in text
    rows = list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))
    assert [float(r["browse_cost"]) for r in rows] == pytest.approx(browse, abs=1e-12)
    with pytest.raises(ValueError):
        panel.export_table(tmp_path / "loss.txt")


def test_real_window_opens_on_agp_f_and_exports(real_window, real, qtbot, tmp_path, monkeypatch):
    """Fresh settings: the official AgP/F(0.25). The table's costs are the engine's; the
    export button writes them with the window's provenance (the qrels and run files)."""
    from readsim.app import export

    w = real_window(PAGERANK)
    tv, panel = w.topic_view, w.topic_view.loss_panel
    assert tv.doc_kind() == "F" and "AgP/F(0.25)" in panel.title.text()
    qtbot.waitUntil(lambda: panel.costs is not None, timeout=20_000)
    want = article_costs(tv.scores.loss, ListMeasure("AgP", 0, DocMeasure("F", 0, 0.25)))
    assert np.array_equal(panel.costs.rank_cost, want.rank_cost)
    path = tmp_path / "costs.csv"
    monkeypatch.setattr(export, "_ask", lambda *a: str(path))
    qtbot.mouseClick(panel.export_button, Qt.MouseButton.LeftButton)
    text = path.read_text()
    assert f"# files.qrels: {real['qrels'].path}" in text and f"# topic: {TOPIC}" in text
    assert "# where_the_run_loses.measure: AgP/F(0.25)" in text
    rows = list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))
    assert len(rows) == len(want.rank_cost)
    assert [float(r["rank_cost"]) for r in rows] == pytest.approx(list(want.rank_cost), abs=1e-12)
    # a setting F(0.25) does not use changes nothing: the costs are not computed again; a mode
    # seen before takes its costs from the memo
    computed = panel.costs_computed
    w.session.set_settings(tolerance=100)
    w.session.set_settings(screen=2000)
    assert panel.costs_computed == computed and panel.costs is not None
    w.session.set_settings(mode="document")
    qtbot.waitUntil(lambda: panel.costs is not None and panel.costs.loss is tv.scores.loss, timeout=20_000)
    assert panel.costs_computed == computed + 1
    w.session.set_settings(mode="natural")
    qtbot.waitUntil(lambda: tv.scores.loss is not None and tv.scores.loss.scores[0] == want.loss.scores[0],
                    timeout=20_000)
    assert panel.costs_computed == computed + 1 and panel.costs is not None
    # the list scores too
    monkeypatch.setattr(export, "_ask", lambda *a: str(tmp_path / "scores.json"))
    qtbot.mouseClick(tv.export_button, Qt.MouseButton.LeftButton)
    data = json.loads((tmp_path / "scores.json").read_text())
    assert data["provenance"]["document_measure"] == "F(0.25)" and data["provenance"]["topic"] == TOPIC
    shown = {r["measure"]: r["value"] for r in data["rows"]}
    assert shown == tv.values() and "AgP/F(0.25)" in shown
    # the user's choice is remembered: a new window opens on aveChP
    tv.set_doc_kind("aveChP")
    from readsim.app.widgets.topic_view import TopicView

    other = TopicView(w.session)
    qtbot.addWidget(other)
    assert other.doc_kind() == "aveChP"


def test_an_export_that_cannot_be_written_says_so(qtbot, tmp_path, monkeypatch):
    from readsim.app import export

    panel = LossPanel()
    qtbot.addWidget(panel)
    said: list[str] = []
    panel.tell_error = said.append
    panel.set_loss(mini_loss(), ["A", "X", "B"])
    monkeypatch.setattr(export, "_ask", lambda *a: str(tmp_path / "no" / "such" / "loss.csv"))
    qtbot.mouseClick(panel.export_button, Qt.MouseButton.LeftButton)
    assert len(said) == 1 and str(tmp_path / "no" / "such") in said[0] and "Nothing was written" in said[0]
    monkeypatch.setattr(export, "_ask", lambda *a: str(tmp_path / "loss.txt"))
    qtbot.mouseClick(panel.export_button, Qt.MouseButton.LeftButton)
    assert len(said) == 2 and ".csv or .json" in said[1]


def sorted_by(panel) -> tuple[int, Qt.SortOrder]:
    """The column and order the loss table shows as sorted (its header's indicator)."""
    header = panel.table.horizontalHeader()
    return header.sortIndicatorSection(), header.sortIndicatorOrder()


def test_the_table_sorts_by_the_cost_the_verdict_names_until_sorted_by_hand(qtbot):
    """The split line's verdict names the fix that gains more: the table's first sort follows it
    (rank cost when the ranker gains more, browse cost when the passages do), biggest first; a
    header clicked by the user keeps its sort through later splits."""
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    from readsim.app.widgets.loss_table import L_SCORE

    panel = LossPanel()
    qtbot.addWidget(panel)
    panel.resize(600, 400)
    panel.show()
    ranker, passages = mini_loss("T2IF"), mini_loss("aveChP")
    assert ranker.fetch > ranker.browse and passages.browse > passages.fetch
    panel.set_loss(ranker, ["A", "X", "B"])
    assert "fixing the ranker gains more" in panel.split_line.text()
    assert sorted_by(panel) == (L_RANK_COST, Qt.SortOrder.DescendingOrder)
    qtbot.waitUntil(lambda: panel.costs is not None, timeout=20_000)
    assert [panel.article_at(k) for k in range(3)][0] in ("x", "b")  # a's rank cost is 0: not first
    panel.set_loss(passages, ["A", "X", "B"])
    assert "passage selector gains more" in panel.split_line.text()
    assert sorted_by(panel) == (L_LOSS, Qt.SortOrder.DescendingOrder)
    panel.set_loss(mini_loss("LE"), ["A", "X", "B"])  # an effort: no verdict, the extra screens
    assert sorted_by(panel) == (L_LOSS, Qt.SortOrder.DescendingOrder)
    header = panel.table.horizontalHeader()
    x = header.sectionViewportPosition(L_SCORE) + header.sectionSize(L_SCORE) // 2
    QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
    assert sorted_by(panel)[0] == L_SCORE
    order = sorted_by(panel)
    panel.set_loss(ranker, ["A", "X", "B"])
    assert sorted_by(panel) == order
