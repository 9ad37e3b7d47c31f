"""The Topics tab of the Runs window: the paired topics x the runs under the chosen measure, each
run's value on each topic and its difference to its reference run (the other run with two runs;
with more, the best-ranked run, and for that run the runner-up), differences coloured (green: the
run does better than its reference on the topic, red: worse; deeper: larger). The topics start
in the engine's order (:meth:`readsim.core.run_comparison.Comparison.per_topic`: where a run beats the
best-ranked run most first, ``readsim-eval compare --per-topic``); a click on a column's header
sorts by it. Below the table, the difference plot of two runs (:mod:`.topics_plot`, section 12.5). Double-clicking a topic emits :attr:`TopicsTab.topic_activated` (the main window
then shows that topic). docs/reference.md section 12.1.

:class:`TopicsModel` holds the table (no window needed); :class:`TopicsTab` shows it through a
``QSortFilterProxyModel``. See docs/architecture.md."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QSplitter, QTableView, QWidget

from ... import appearance as look
from ... import runs_model as rm
from ...plain import esc, plain_tip
from ..table_copy import add_copy_actions
from .cells import TABLE_STYLE, titled
from .topics_plot import TopicsPlot

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
"""A cell's sort key: the topic id (its position in the engine's order for ties), a value, a difference."""
TOPIC_ROLE = Qt.ItemDataRole.UserRole + 2
"""The topic id of a cell's row."""
BETTER, WORSE = "good", "bad"  # tints of readsim.app.appearance


class TopicsModel(QAbstractTableModel):
    """Topics x runs of measure ``k`` of a comparison. Column 0 the topic; then per run (rank
    order) its value, and after each run but the best-ranked its difference to the best-ranked
    run (with two runs: the second run minus the first). Rows in the engine's order.

    Plain state read by tests and exports: :attr:`topics` (ids by row), :attr:`columns` (each
    a tuple ``(kind, run index)``, kind ``topic``, ``value`` or ``diff``), :attr:`headers`,
    :attr:`values` ``(n, t)`` (rows' topics, measure's direction), :attr:`diff` ``(n, t)``,
    :attr:`reference` ``(n,)``, :attr:`lower_is_better`."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.clear_state()

    def clear_state(self) -> None:
        self.topics: list[str] = []
        self.runs: list[str] = []
        self.columns: list[tuple[str, int]] = []
        self.headers: list[str] = []
        self.values = np.zeros((0, 0))
        self.diff = np.zeros((0, 0))
        self.reference = np.zeros(0, dtype=np.int64)
        self.lower_is_better = False
        self._scale = np.ones(0)

    def clear(self) -> None:
        self.beginResetModel()
        self.clear_state()
        self.endResetModel()

    def set_rows(self, c, k: int) -> None:
        """Fill from comparison ``c`` (:class:`readsim.core.run_comparison.Comparison`), measure ``k``."""
        topics, ref, diff = c.per_topic(k)
        order = [int(i) for i in c.order[k]]
        best = order[0]
        self.beginResetModel()
        self.topics = [c.topics[t] for t in topics]
        self.runs = list(c.runs)
        self.values = np.asarray(c.scores[k][:, topics], dtype=float)
        self.diff = np.asarray(diff[:, topics], dtype=float)
        self.reference = np.asarray(ref)
        self.lower_is_better = bool(c.lower_is_better[k])
        self.columns = [("topic", -1)]
        self.headers = ["Topic"]
        for i in order:
            self.columns.append(("value", i))
            self.headers.append(c.runs[i])
            if i != best:
                self.columns.append(("diff", i))
                self.headers.append(f"{c.runs[i]} − {c.runs[best]}" if len(order) == 2 else f"− {c.runs[best]}")
        largest = np.max(np.abs(self.diff), axis=1, initial=0.0) if self.diff.size else np.zeros(len(c.runs))
        self._scale = np.where(largest > 0, largest, 1.0)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.topics)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.headers):
            return None
        kind, i = self.columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section]
        if role == Qt.ItemDataRole.ToolTipRole and kind != "topic":
            what = (f"{self.runs[i]}'s value on each topic" if kind == "value" else
                    f"{self.runs[i]}'s value minus {self.runs[self.reference[i]]}'s on each topic")
            return plain_tip(what + " (click to sort)")
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r, (kind, i) = index.row(), self.columns[index.column()]
        if role == TOPIC_ROLE:
            return self.topics[r]
        if kind == "topic":
            if role == Qt.ItemDataRole.DisplayRole:
                return self.topics[r]
            if role == SORT_ROLE:
                return r  # the engine's order (ties by topic id): back to the start
            return None
        value = float(self.values[i, r] if kind == "value" else self.diff[i, r])
        if role == Qt.ItemDataRole.DisplayRole:
            return rm.fmt(value) if kind == "value" else rm.fmt_signed(value)
        if role == SORT_ROLE:
            return value
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if kind == "diff" and role == Qt.ItemDataRole.BackgroundRole:
            return self._colour(i, value)
        if kind == "diff" and role == Qt.ItemDataRole.ToolTipRole:
            return plain_tip(self.tip(r, i))
        return None

    def gain(self, i: int, value: float) -> float:
        """A difference of run ``i`` oriented: > 0 when the run does better than its reference."""
        return -value if self.lower_is_better else value

    def _colour(self, i: int, value: float) -> QBrush | None:
        g = self.gain(i, value)
        if abs(round(g, 4)) == 0:
            return None
        return QBrush(look.tint(BETTER if g > 0 else WORSE, int(30 + 150 * min(1.0, abs(value) / self._scale[i]))))

    def tip(self, r: int, i: int) -> str:
        """The tooltip of run ``i``'s difference on row ``r``."""
        j = int(self.reference[i])
        d = float(self.diff[i, r])
        g = self.gain(i, d)
        verdict = "equal" if abs(round(g, 4)) == 0 else ("better" if g > 0 else "worse")
        return (f"topic {self.topics[r]}: {self.runs[i]} {rm.fmt(self.values[i, r])}, {self.runs[j]} "
                f"{rm.fmt(self.values[j, r])}\ndifference {rm.fmt_signed(d)}: {self.runs[i]} is {verdict} on this "
                f"topic\ndouble-click: show the topic in the main window")


class TopicsTab(QWidget):
    """The Topics tab: a title, the :class:`TopicsModel` table (sortable), a legend;
    :attr:`topic_activated` carries a double-clicked topic's id."""

    topic_activated = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = TopicsModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setStyleSheet(TABLE_STYLE)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.doubleClicked.connect(self._activated)
        add_copy_actions(self.table)
        self.plot = TopicsPlot()
        self.plot.topic_activated.connect(self.topic_activated)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.setChildrenCollapsible(False)
        self.split.addWidget(self.table)
        self.split.addWidget(self.plot)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        self.title, self.legend = titled(self, self.split)

    def show_nothing(self, text: str) -> None:
        self.title.setText(text)
        self.legend.setText("")
        self.model.clear()
        self.plot.clear()

    def show_result(self, c, k: int) -> None:
        """Show comparison ``c``'s paired topics under measure ``k``, in the engine's order."""
        self.model.set_rows(c, k)
        self.plot.show_result(c, k)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # column 0 sorts by the engine's order
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        h.setMinimumSectionSize(80)
        order = [int(i) for i in c.order[k]]
        two = len(order) == 2
        who = (f"where {esc(c.runs[order[1]])} gains most on {esc(c.runs[order[0]])} first" if two else
               f"where a run beats the best-ranked run, {esc(c.runs[order[0]])}, most first")
        self.title.setText(f"<b>{esc(c.measures[k])}</b> on the <b>{len(c.topics)}</b> paired topics "
                           f"({'lower' if c.lower_is_better[k] else 'higher'} is better): each run's value and "
                           f"{'the difference of the two runs' if two else 'its difference to the best-ranked run'}; "
                           f"{who}. Click a column's header to sort by it, the Topic header to return to this order.")
        left = (f"; left out, not in every run: {esc(', '.join(c.left_out[:8]))}"
                + (", …" if len(c.left_out) > 8 else "")) if c.left_out else ""
        self.legend.setText(
            f"<span style='background:{look.css('good_bg')}'>&nbsp;green&nbsp;</span> the run does better than "
            + ("the other run" if two else "the best-ranked run")
            + f" on the topic, <span style='background:{look.css('bad_bg')}'>&nbsp;red&nbsp;</span> worse (deeper: a larger "
              f"difference). Double-click a topic (or a bar) to show it in the main window{left}.")

    def topic_at(self, row: int) -> str:
        """The topic shown on view row ``row`` (after sorting)."""
        return self.proxy.index(row, 0).data(TOPIC_ROLE)

    def shown_column(self, column: int) -> list[str]:
        """The texts of a column as shown (after sorting), top to bottom."""
        return [self.proxy.index(r, column).data() for r in range(self.proxy.rowCount())]

    def _activated(self, index) -> None:
        topic = index.data(TOPIC_ROLE)
        if topic:
            self.topic_activated.emit(str(topic))
