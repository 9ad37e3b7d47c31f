"""The ranked-list table model, without a window, on the papers' mini article (docs/reference.md section 11)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from readsim.app.rows import RankedRow
from readsim.app.widgets.ranked_list import (ARTICLE, ARTICLE_ROLE, AVECHP, F, LE, RANK, RELEVANT, SORT_ROLE, T2IF,
                                             TITLE, RankedListModel)
from readsim.core.doc_evaluation import Settings, evaluate_document

# 55 characters; relevant 1..27 (1-based) = [0, 27)
REL = [(0, 27)]


def row(rank, name, retrieved, relevant=True):
    ev = evaluate_document(REL if relevant else [], retrieved, 55)
    return RankedRow(rank, name, f"title {name}", True, relevant, ev, ev)


def test_rows_headers_and_scores_from_the_paper():
    m = RankedListModel()
    m.set_rows([row(1, "a", [(32, 55)]), row(2, "b", [(23, 45)]), row(3, "c", [(0, 10)], relevant=False)],
               Settings(beta=1.0))
    assert m.rowCount() == 3 and m.columnCount() == 13  # 8 shown by default + 5 optional scores
    head = [m.headerData(c, Qt.Orientation.Horizontal) for c in range(8)]
    assert head == ["Rank", "Article", "Title", "Rel.", "aveChP", "T2IF(300)", "LE(300)", "F(1)"]
    d = lambda r, c: m.data(m.index(r, c))  # noqa: E731
    assert [d(0, RANK), d(0, ARTICLE), d(0, TITLE), d(0, RELEVANT)] == ["1", "a", "title a", "yes"]
    # Arvola et al. 2010: retrieved 33..55 -> aveChP 0.3484, F1 = 0; retrieved 24..45 -> 0.5306, F1 0.1633
    assert d(0, AVECHP) == "0.3484" and d(0, F) == "0.0000"
    assert d(1, AVECHP) == "0.5306" and d(1, F) == "0.1633"
    # first relevant character read: row a after the 23-character chain -> position 24 <= 300
    assert d(0, LE) == "1"
    # a non-relevant article scores 0 and its LE is NR = 5
    assert d(2, RELEVANT) == "no" and d(2, AVECHP) == "0.0000" and d(2, LE) == "5"
    assert m.data(m.index(1, TITLE), ARTICLE_ROLE) == "b"
    assert abs(m.data(m.index(1, AVECHP), SORT_ROLE) - 0.5306) < 1e-4
    # the model answers index() itself: outside its 3 x 13 cells, or under a parent, no index
    assert (m.index(2, 12).row(), m.index(2, 12).column()) == (2, 12)
    assert not any(m.index(r, c).isValid() for r, c in ((3, 0), (-1, 0), (0, 13), (0, -1)))
    assert not m.index(0, 0, m.index(0, 0)).isValid()


def test_settings_change_rescores_and_renames_columns():
    m = RankedListModel()
    m.set_rows([row(1, "a", [(32, 55)])])
    m.set_settings(Settings(screen=10, tolerance=5, beta=0.25))
    head = [m.headerData(c, Qt.Orientation.Horizontal) for c in (AVECHP, T2IF, LE, F)]
    assert head == ["aveChP", "T2IF(5)", "LE(10)", "F(0.25)"]
    # chain 33..55 (23 non-relevant), first relevant at reading position 24: LE(10) = 3
    assert m.data(m.index(0, LE)) == "3"
    # T2I(5): the reader stops after 5 non-relevant characters, having read nothing relevant
    assert m.data(m.index(0, T2IF)) == "0.0000"
    assert m.row_of("a") == 0 and m.row_of("zz") == -1
