"""The per-article table of "where the run loses" (reference section 5.11): one row per ranked
article with its rank, title, relevance, rank in the ideal ordering of the run's articles, S with
the run's passages and with the highlighted ones, and what it costs the topic's AgP: its **browse
cost** (the topic's AgP with this article's passages alone replaced by its highlighted text,
minus as is) and its **rank cost** (with this article alone moved to its ideal rank, minus as
is), from :func:`readsim.core.costs.article_costs`. For LE/ES, where AgP does not apply, the
browse column is the extra screens the run's passages cost on the article (S minus S_ideal) and
there is no rank cost.

:class:`LossModel` is filled by :meth:`~LossModel.set_loss` (the split, at once) and
:meth:`~LossModel.set_costs` (the costs, computed in the background by the panel); usable
without a window. It sorts itself (:meth:`~LossModel.sort`, whole columns with numpy, kept
across updates) and hands a view all the roles of a cell in one call (``multiData``): no sort
proxy between the view and the model, whose every cell and comparison was several calls from Qt
into Python. No file access, no engine work beyond :func:`readsim.core.costs.ideal_positions`.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush

from readsim.core.costs import ideal_positions
from readsim.core.report_numbers import format_signed
from readsim.core.costs import ArticleCosts, LossSplit

from .. import appearance as look
from ..plain import plain_tip

L_RANK, L_TITLE, L_REL, L_IDEAL_RANK, L_SCORE, L_IDEAL, L_LOSS, L_RANK_COST = range(8)
COLUMNS = 8
NUMBER_COLUMNS = (L_SCORE, L_IDEAL, L_LOSS, L_RANK_COST)  # adjacent: one dataChanged spans them
CHANGED_CELLS = 100
"""Cells a ``dataChanged`` of the number columns spans at most (see ``LossModel._emit_changed``)."""
LOSS_ARTICLE_ROLE = Qt.ItemDataRole.UserRole + 1
DISPLAY, ALIGNMENT, FOREGROUND, BACKGROUND, TOOLTIP = (
    Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ToolTipRole)
_ROLES = frozenset((DISPLAY, ALIGNMENT, FOREGROUND, BACKGROUND, TOOLTIP, LOSS_ARTICLE_ROLE))
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
GREY, GREEN = "disabled", "good"  # roles: no relevant text; "yes"
EXPORT_COLUMNS = ("rank", "article", "title", "relevant", "ideal_rank", "score", "ideal_score", "browse_cost",
                  "rank_cost")


def score_text(loss: LossSplit, value: float) -> str:
    """A document score as shown: whole screens for LE/ES, 4 decimals otherwise."""
    return f"{value:.0f}" if loss.effort else f"{value:.4f}"


def _changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Boolean mask of the rows where ``a`` and ``b`` differ (NaN equal to NaN)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return ~((a == b) | (np.isnan(a) & np.isnan(b)))


class LossModel(QAbstractTableModel):
    """One row per ranked article (see the module docstring), in the order of :meth:`sort` (a
    cost not yet computed sorts as 0); :data:`LOSS_ARTICLE_ROLE` gives a row's article id,
    :meth:`view_row` the row showing a ranked article."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.loss: LossSplit | None = None
        self.costs: ArticleCosts | None = None
        self._titles: list[str] = []
        self._columns: dict[int, np.ndarray] | None = None
        self._ideal_rank = np.zeros(0, dtype=np.int64)
        self._worst = 1.0
        self._sort: tuple[int, Qt.SortOrder] | None = None  # (column, order) the rows are sorted by
        self._order = np.zeros(0, dtype=np.int64)  # row -> index of its article in the split
        self._row_of = np.zeros(0, dtype=np.int64)  # the inverse permutation

    def set_loss(self, loss: LossSplit | None, titles: list[str] | None = None,
                 costs: ArticleCosts | None = None) -> None:
        """Show ``loss`` with its ``costs`` when known (else the cost cells are empty until
        :meth:`set_costs`). The same articles in the same order (a mode or setting change)
        update the cells in place, in one ``dataChanged`` or, when the rows move, one re-sort: no
        reset, so the view keeps its sort, selection and scroll."""
        n = len(loss.articles) if loss is not None else 0
        titles = list(titles) if titles is not None and len(titles) == n else (
            list(loss.articles) if loss is not None else [])
        old, old_columns, old_worst = self.loss, self._columns, self._worst
        self.costs = None
        if loss is None:
            self._columns = None
        else:
            self._ideal_rank = ideal_positions(loss.articles, loss.relevant, loss.rsize) + 1
            nan = np.full(n, np.nan)
            self._columns = {L_SCORE: loss.scores, L_IDEAL: loss.ideal_scores,
                             L_LOSS: loss.browse_loss if loss.effort else nan, L_RANK_COST: nan}
        if old is not None and loss is not None and n and old.articles == loss.articles and titles == self._titles:
            self.loss = loss
            self._take_costs(costs)
            if old.measure.name != loss.measure.name or old.effort != loss.effort:
                self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, COLUMNS - 1)
            rel_changed = np.asarray(old.relevant, dtype=bool) != np.asarray(loss.relevant, dtype=bool)
            if self._resort():
                return  # the view repaints every row
            if rel_changed.any() or old.effort != loss.effort or old_columns is None:
                self.dataChanged.emit(self.index(0, 0), self.index(n - 1, COLUMNS - 1))
                return
            self._emit_changed(old_columns, every_cost=self._worst != old_worst)
            return
        self.beginResetModel()
        self.loss = loss
        self._titles = titles
        self._take_costs(costs)
        self._order = np.arange(len(titles))  # a new list: ties in rank order
        self._order = self._sorted_order()
        self._row_of = np.argsort(self._order)
        self.endResetModel()

    def set_costs(self, costs: ArticleCosts | None) -> None:
        """Show ``costs`` (those of the split shown; others are ignored)."""
        if costs is None or self.loss is None or costs.loss is not self.loss or self.loss.effort:
            return
        old = dict(self._columns)
        self._take_costs(costs)
        if not self._resort():
            self._emit_changed(old, every_cost=True)

    def _take_costs(self, costs: ArticleCosts | None) -> None:
        """Put ``costs`` in the cost columns when they are the shown split's; set the shade's scale."""
        if costs is not None and self.loss is not None and costs.loss is self.loss and not self.loss.effort:
            self.costs = costs
            self._columns[L_LOSS], self._columns[L_RANK_COST] = costs.browse_cost, costs.rank_cost
        self._worst = self._worst_of()

    def _worst_of(self) -> float:
        if self._columns is None or self.loss is None or not len(self.loss.articles):
            return 1.0
        cells = np.concatenate([self._columns[L_LOSS], self._columns[L_RANK_COST]])
        return float(np.nanmax(np.abs(cells), initial=0.0)) or 1.0

    def _emit_changed(self, old: dict, every_cost: bool = False) -> None:
        """``dataChanged`` over the number columns (score to rank cost) and the rows whose
        numbers changed (``every_cost``: every row, the costs' shade changed), in ranges of at
        most :data:`CHANGED_CELLS` cells: Qt's item view repaints the cells of a small range
        only, but its whole viewport for a range of more than about 200 cells (measured with
        Qt 6.11: 124 cells, part; 204, whole), so the rank, title and relevance columns were
        repainted on every mode change."""
        if every_cost:
            first, last = 0, len(self.loss.articles) - 1
        else:
            changed = np.any([_changed(old[c], self._columns[c]) for c in NUMBER_COLUMNS], axis=0)
            rows = np.sort(self._row_of[np.flatnonzero(changed)])
            if not len(rows):
                return
            first, last = int(rows[0]), int(rows[-1])
        step = max(1, CHANGED_CELLS // len(NUMBER_COLUMNS))
        for top in range(first, last + 1, step):
            self.dataChanged.emit(self.index(top, NUMBER_COLUMNS[0]),
                                  self.index(min(top + step - 1, last), NUMBER_COLUMNS[-1]))

    # -- sorting ----------------------------------------------------------------------------
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the rows by ``column`` (a view's header click calls this), and keep them so
        across updates: numbers (a cost not yet computed as 0), the title (case-insensitive),
        relevance, ranks; tied rows keep their order (as a sort proxy keeps it: a new topic's rows
        come in rank order)."""
        self._sort = (column, Qt.SortOrder(order))
        self._resort()

    def view_row(self, k: int) -> int:
        """The row showing the split's ``k``-th ranked article."""
        return int(self._row_of[k])

    def _sorted_order(self) -> np.ndarray:
        """Rows -> indices of the split's articles, as :meth:`sort` orders them."""
        n = len(self.loss.articles) if self.loss is not None else 0
        if self._sort is None or not n:
            return np.arange(n)
        c, order = self._sort
        if c == L_RANK:
            keys = np.arange(n, dtype=float)
        elif c == L_TITLE:  # as ranks of the distinct titles: numbers to negate
            keys = np.unique(np.array([t.lower() for t in self._titles]), return_inverse=True)[1].astype(float)
        elif c == L_REL:
            keys = np.asarray(self.loss.relevant, dtype=float)
        elif c == L_IDEAL_RANK:
            keys = self._ideal_rank.astype(float)
        else:
            keys = np.nan_to_num(np.asarray(self._columns[c], dtype=float), nan=0.0)
        keys = -keys if order == Qt.SortOrder.DescendingOrder else keys
        now = self._order if len(self._order) == n else np.arange(n)  # ties keep the rows' order now
        return now[np.argsort(keys[now], kind="stable")]

    def _resort(self) -> bool:
        """Put the rows in :meth:`sort`'s order; the views' selections follow their rows
        (persistent indexes). False when no row moved."""
        order = self._sorted_order()
        if np.array_equal(order, self._order):
            return False
        self.layoutAboutToBeChanged.emit()
        row_of = np.argsort(order)
        old = self.persistentIndexList()  # the same articles: each old row has its new one
        new = [self.index(int(row_of[self._order[i.row()]]), i.column()) for i in old]
        self._order, self._row_of = order, row_of
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()
        return True

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() or self.loss is None else len(self.loss.articles)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else COLUMNS

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        loss = self.loss
        name = loss.measure.name if loss is not None else "S"
        effort = loss is not None and loss.effort
        if role == Qt.ItemDataRole.DisplayRole:
            return {L_RANK: "Rank", L_TITLE: "Article", L_REL: "Rel.", L_IDEAL_RANK: "Ideal\nrank",
                    L_SCORE: name, L_IDEAL: "S\nideal", L_LOSS: "Extra" if effort else "Browse\ncost",
                    L_RANK_COST: "Rank\ncost"}.get(section)
        if role == Qt.ItemDataRole.ToolTipRole:
            return {
                L_IDEAL_RANK: "Rank in the ideal ordering of the run's articles: its relevant articles by decreasing "
                              "relevant size (ties by article id), then its non-relevant ones in run order",
                L_SCORE: f"{name} with the run's passages",
                L_IDEAL: f"{name} with the highlighted passages as the retrieved ones (computed, not assumed 1)",
                L_LOSS: (f"{name} (run's passages) - {name} (highlighted passages): the screens the run's passages "
                         "cost beyond the ideal ones (lower is better, so a positive number is a loss)" if effort else
                         f"The topic's AgP/{name} with this article's passages alone replaced by its highlighted "
                         "text, minus as is: what the passage selector gives away on this article"),
                L_RANK_COST: ("AgP does not apply to an effort score" if effort else
                              f"The topic's AgP/{name} with this article alone moved to its ideal rank (the others "
                              "keeping their order), minus as is: what the ranker gives away on this article"),
            }.get(section)
        if role == Qt.ItemDataRole.InitialSortOrderRole:  # first click: biggest cost, best score first
            low = section in (L_RANK, L_TITLE, L_IDEAL_RANK) or (effort and section in (L_SCORE, L_IDEAL))
            return (Qt.SortOrder.AscendingOrder if low else Qt.SortOrder.DescendingOrder).value
        return None

    def data(self, index, role=DISPLAY):
        """A cell's role (:meth:`_role`)."""
        loss = self.loss
        if role not in _ROLES or loss is None or not index.isValid():
            return None
        return self._role(loss, int(self._order[index.row()]), index.column(), role)

    def multiData(self, index, span) -> None:
        """Every role a view asks of a cell, in one call from Qt: its delegate asks seven of each
        painted cell, and each call from Qt into Python costs microseconds (the table's paint
        was mostly these calls). Qt reuses the span from cell to cell: a role without data is
        cleared."""
        loss = self.loss
        cell = (int(self._order[index.row()]), index.column()) if loss is not None and index.isValid() else None
        for item in span:
            role = item.role()
            value = self._role(loss, *cell, role) if cell is not None and role in _ROLES else None
            if value is None:
                item.clearData()
            else:
                item.setData(value)

    def _role(self, loss: LossSplit, k: int, c: int, role: int):
        """Role ``role`` of column ``c`` of the split's ``k``-th article (a served role)."""
        if role == DISPLAY:
            return self._display(loss, k, c)
        if role == LOSS_ARTICLE_ROLE:
            return loss.articles[k]
        if role == ALIGNMENT:
            return None if c == L_TITLE else RIGHT
        if role == FOREGROUND:
            if c != L_RANK_COST and not loss.relevant[k]:
                return look.brush(GREY)
            return look.brush(GREEN) if c == L_REL else None
        if role == BACKGROUND:
            if c != L_LOSS and c != L_RANK_COST:
                return None
            value = float(self._columns[c][k])
            share = max(0.0, value) / self._worst if value == value else 0.0
            if share > 0:
                return QBrush(look.tint("bad" if c == L_LOSS else "accent", int(20 + 90 * share)))
            return None
        return plain_tip(f"{loss.articles[k]}: {self._titles[k]}")  # the tooltip

    def _display(self, loss: LossSplit, k: int, c: int) -> str:
        rel = bool(loss.relevant[k])
        if c == L_RANK:
            return str(k + 1)
        if c == L_TITLE:
            return self._titles[k]
        if c == L_REL:
            return "yes" if rel else "no"
        if c == L_IDEAL_RANK:
            return str(int(self._ideal_rank[k]))
        value = self._columns[c][k]
        if value != value:  # not computed (yet), or no cost for this measure
            return "…" if self.costs is None and not loss.effort and loss.nrel >= 1 else "–"
        if c == L_RANK_COST:
            return format_signed(value)
        if not rel:  # no relevant text: no score, nothing to fix in its passages
            return "–"
        return (f"{value:+.0f}" if loss.effort else format_signed(value)) if c == L_LOSS else score_text(loss, value)

    def export_columns(self) -> tuple[str, ...]:
        """:data:`EXPORT_COLUMNS`; for LE/ES ``extra_screens`` stands for ``browse_cost``."""
        if self.loss is not None and self.loss.effort:
            return tuple("extra_screens" if c == "browse_cost" else c for c in EXPORT_COLUMNS)
        return EXPORT_COLUMNS

    def export_rows(self) -> list[dict]:
        """The table as dicts keyed by :meth:`export_columns`, rank order, numbers at full
        precision (None where a cell shows none)."""
        loss = self.loss
        if loss is None:
            return []

        def number(c: int, k: int):
            value = float(self._columns[c][k])
            return None if value != value else value

        return [{"rank": k + 1, "article": a, "title": self._titles[k], "relevant": bool(loss.relevant[k]),
                 "ideal_rank": int(self._ideal_rank[k]),
                 "score": float(loss.scores[k]), "ideal_score": float(loss.ideal_scores[k]),
                 self.export_columns()[7]: number(L_LOSS, k), "rank_cost": number(L_RANK_COST, k)}
                for k, a in enumerate(loss.articles)]
