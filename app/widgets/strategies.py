"""Simulated passage strategies on the open article (docs/reference.md section 8; Kamps et al. 2008): a dock with one row per
strategy of :mod:`readsim.core.simulated` (S, SL, SLD, SS, SST) and one for the run's own
passages, scored with aveChP, T2IF(t), LE(s), F(b) for the current settings and reading mode.

Each strategy's spans come from the qrels passages and the article's elements
(:func:`readsim.core.simulated.strategy_passages`), computed once per open article; each row is
:func:`readsim.core.doc_evaluation.evaluate_document` of the qrels passages and those spans, with the
qrels doc_length (the article's when unjudged) and the article's text length, in the current
mode; the "run" row is the session's own evaluation of the open article (the scores panel's).
A mode change re-reads the rows, any other control change only rescores them.

Selecting a strategy row previews its passages in the article view (its marks and chain
badges); selecting the "run" row, hiding the dock, an edit of the run's passages or opening
another article ends the preview. :func:`strategy_spans` gives a strategy's spans for the open
article to other features (the passage editor's "Apply").

:func:`build_strategies` builds the dock of a main window: View ▸ Simulated strategies
(Ctrl+Alt+S). The panel is a :class:`~readsim.app.widgets.tables.FollowingPanel`. See
docs/architecture.md.
"""

from __future__ import annotations


import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QSizePolicy, QVBoxLayout

from readsim.core.doc_evaluation import evaluate_document
from readsim.operations.article_reading import values_of
from readsim.core import intervals as iv
from readsim.core.doc_evaluation import DocumentEvaluation, Settings
from readsim.core.measure import DocMeasure
from readsim.core.simulated import STRATEGIES, STRATEGY_HELP, strategy_passages

from .. import appearance as look
from .. import marks as mk
from ..articles import length_of
from ..plain import amount, esc, plain_label, plain_tip, rich_label
from ..session import Session
from .ranked_list import format_score
from .tables import BottomDock, FollowingPanel, build_bottom_dock, row_table, select_quietly

RUN = "run"
ROWS = (*STRATEGIES, RUN)
NAME, PASSAGES, RETRIEVED = range(3)  # then one column per measure
VALUE_ROLE = Qt.ItemDataRole.UserRole + 1  # the raw float of a score cell
SHORTCUT = "Ctrl+Alt+S"


# -- the numbers (no widgets) -----------------------------------------------------------------


def columns(s: Settings) -> list[DocMeasure]:
    """The table's measures for settings ``s``: aveChP, T2IF(t), LE(s), F(b)."""
    return [DocMeasure("aveChP"), DocMeasure("T2IF", s.tolerance, s.alpha),
            DocMeasure("LE", s.screen, lower_is_better=True), DocMeasure("F", 0, s.beta)]


def relevant_of(session: Session) -> tuple[np.ndarray, int]:
    """The open article's qrels passages (``(k, 2)`` int64, unit) and doc_length: the qrels',
    else the article's. Raises ``LookupError`` when no article is open."""
    cur = session.current
    if cur is None:
        raise LookupError("no article is open")
    j = session.qrels.judgement(session.topic, cur.name) if session.qrels is not None and session.topic else None
    length = length_of(session.qrels, session.topic, cur.name, cur.article)
    return (j.passages if j is not None else iv.EMPTY.copy()), (cur.evaluation.n if length is None else length)


def strategy_spans(session: Session, name: str) -> np.ndarray:
    """The spans (normalized ``(k, 2)`` int64, the session's unit) that strategy ``name`` (one of
    S, SL, SLD, SS, SST, or ``"run"`` for the run's own passages) retrieves in the open article.

    Raises ``LookupError`` when no article is open or (for every strategy but S and run) when the
    collection lacks its XML, ``ValueError`` for an unknown name."""
    cur = session.current
    if cur is None:
        raise LookupError("no article is open")
    if name == RUN:
        return cur.evaluation.retrieved_spans.copy()
    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r}; strategies are {', '.join(ROWS)}")
    passages, _ = relevant_of(session)
    if cur.article is None:
        if name == "S":
            return iv.normalize(passages)
        raise LookupError(f"article {cur.name} is not in the collection: strategy {name} needs its XML")
    return strategy_passages(name, passages, cur.article)


class StrategyRow:
    """One row: a strategy's name, its spans (None when unavailable, with ``note`` saying why)
    and its evaluation in the current mode (None when unavailable)."""

    __slots__ = ("name", "spans", "evaluation", "note")

    def __init__(self, name: str, spans: np.ndarray | None, evaluation: DocumentEvaluation | None, note: str = ""):
        self.name, self.spans, self.evaluation, self.note = name, spans, evaluation, note


def strategy_rows(session: Session, spans: dict[str, np.ndarray | None] | None = None) -> list[StrategyRow]:
    """The table's rows for the open article in the current mode (``spans``: strategy spans
    already computed for this article, by name). Empty when no article is open."""
    cur = session.current
    if cur is None:
        return []
    relevant, doc_length = relevant_of(session)
    s = session.settings
    text_length = cur.article.length if cur.article is not None else None
    rows = []
    for name in STRATEGIES:
        sp = spans.get(name) if spans is not None else _try_spans(session, name)
        if sp is None:
            rows.append(StrategyRow(name, None, None, "needs the article's XML (not in the collection)"))
            continue
        ev = evaluate_document(relevant, sp, doc_length, s.mode, s.entry, text_length)
        rows.append(StrategyRow(name, sp, ev))
    rows.append(StrategyRow(RUN, cur.evaluation.retrieved_spans, cur.evaluation))
    return rows


def _try_spans(session: Session, name: str) -> np.ndarray | None:
    try:
        return strategy_spans(session, name)
    except LookupError:
        return None


# -- the table model --------------------------------------------------------------------------


class StrategyModel(QAbstractTableModel):
    """Rows S, SL, SLD, SS, SST, run; columns strategy, passages, retrieved size, then the
    measures (aveChP, T2IF(t), LE(s), F(b)); the best value of each measure column in bold."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[StrategyRow] = []
        self.measures: list[DocMeasure] = columns(Settings())
        self.unit = "bytes"
        self.values: list[list[float | None]] = []
        self.levels = 4

    def set_rows(self, rows: list[StrategyRow], settings: Settings, unit: str = "bytes") -> None:
        self.beginResetModel()
        self.rows, self.unit, self.levels = rows, unit, settings.levels
        self.measures = columns(settings)
        by_measure = [values_of(m, [r.evaluation for r in rows], settings.levels) for m in self.measures]
        self.values = [[col[i] for col in by_measure] for i in range(len(rows))]
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # Qt API
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else 3 + len(self.measures)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return ("Strategy", "Passages", f"Retrieved ({self.unit})", *(m.name for m in self.measures))[section]
        if role == Qt.ItemDataRole.ToolTipRole and section >= 3:
            m = self.measures[section - 3]
            return f"{m.name}{' (lower is better)' if m.lower_is_better else ''}; best value in bold"
        return None

    def best(self, column: int) -> float | None:
        """The best value of measure column ``column`` (>= 3) over the rows, or None."""
        m = self.measures[column - 3]
        vals = [v[column - 3] for v in self.values if v[column - 3] is not None]
        if not vals:
            return None
        return min(vals) if m.lower_is_better else max(vals)

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, col = self.rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == NAME:
                return row.name
            if row.spans is None:
                return "–"
            if col == PASSAGES:
                return str(len(row.spans))
            if col == RETRIEVED:
                return f"{iv.total(row.spans):,}"
            v = self.values[index.row()][col - 3]
            return "–" if v is None else format_score(self.measures[col - 3], v)
        if role == VALUE_ROLE and col >= 3:
            return self.values[index.row()][col - 3]
        if role == Qt.ItemDataRole.ToolTipRole:
            if row.note:
                return plain_tip(row.note)
            if col == NAME:
                return STRATEGY_HELP.get(row.name, "the run's own retrieved passages (as the scores panel)")
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole and col != NAME:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole:
            bold = col == NAME and row.name == RUN
            if col >= 3:
                v = self.values[index.row()][col - 3]
                bold = v is not None and v == self.best(col)
            if bold:
                f = QFont()
                f.setBold(True)
                return f
        if role == Qt.ItemDataRole.ForegroundRole and row.name == RUN and col == NAME:
            return look.brush("accent")
        return None

    def row_of(self, name: str) -> int:
        for i, r in enumerate(self.rows):
            if r.name == name:
                return i
        raise KeyError(name)

    def value(self, name: str, measure: str) -> float | None:
        """The raw value of ``measure`` (canonical name) in row ``name``."""
        col = [m.name for m in self.measures].index(measure)
        return self.values[self.row_of(name)][col]

    def text(self, name: str, column: int | str) -> str:
        """The shown text of a cell: ``column`` an index or a measure's canonical name."""
        if isinstance(column, str):
            column = 3 + [m.name for m in self.measures].index(column)
        return self.data(self.index(self.row_of(name), column))


# -- the panel ---------------------------------------------------------------------------------


class StrategiesPanel(FollowingPanel):
    """The table over a :class:`Session`; selecting a row previews it in ``view`` (an
    :class:`~readsim.app.widgets.article_view.ArticleView`, optional)."""

    def __init__(self, session: Session, view=None, parent=None) -> None:
        super().__init__(session, parent)
        self.view = view
        self._spans: dict[str, np.ndarray | None] = {}
        self._spans_for: tuple | None = None  # (topic, article, parsed article) of the spans
        self._retrieved: np.ndarray | None = None  # the run's spans when last shown
        self.previewing: str | None = None

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 2, 6, 2)
        lay.setSpacing(2)
        self.header = rich_label()
        self.header.setWordWrap(True)
        self.model = StrategyModel(self)
        self.table = row_table(self.model)
        self.table.setWordWrap(True)
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        for col in (NAME, PASSAGES, RETRIEVED):
            h.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setSizeAdjustPolicy(QAbstractItemView.SizeAdjustPolicy.AdjustToContents)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        self.table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        self.note = plain_label()
        self.note.setWordWrap(True)
        self.note.setStyleSheet(f"color:{look.css('muted')};")
        lay.addWidget(self.header)
        lay.addWidget(self.table)
        lay.addWidget(self.note)
        lay.addStretch(1)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._selection())
        self.follow()

    # -- reactions ------------------------------------------------------------------------
    def _article_changed(self) -> None:
        self.previewing = None  # the article view was rebuilt with the run's marks
        self._spans_for = None
        super()._article_changed()

    def _evaluation_changed(self) -> None:
        cur = self.session.current
        ret = cur.evaluation.retrieved_spans if cur is not None else None
        if self.previewing is not None and self._retrieved is not None and ret is not None \
                and not np.array_equal(ret, self._retrieved):
            self.end_preview()  # the run's passages were edited: show them
        super()._evaluation_changed()

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        self.end_preview()

    def rebuild(self) -> None:
        """Recompute the rows (strategy spans once per article) and, if previewing, re-show it."""
        s, cur = self.session, self.session.current
        key = (s.topic, cur.name, id(cur.article)) if cur is not None else None
        if cur is not None and self._spans_for != key:
            self._spans = {name: _try_spans(s, name) for name in STRATEGIES}
            self._spans_for = key
        selected = self.previewing
        rows = strategy_rows(s, self._spans) if cur is not None else []
        self.model.set_rows(rows, s.settings, s.unit)
        self._rendered = s.settings
        self._retrieved = cur.evaluation.retrieved_spans if cur is not None else None
        self._show_header()
        if selected is not None and cur is not None:
            select_quietly(self.table, self.model.row_of(selected))
            self._preview(selected)

    def _show_header(self) -> None:
        s, cur = self.session, self.session.current
        if cur is None:
            self.header.setText("<i>No article open.</i>")
            self.note.setText("")
            return
        relevant, doc_length = relevant_of(s)
        rel = (f"<b>relevant</b> {amount(iv.total(relevant), s.unit)} in {amount(len(relevant), 'passages')}"
               if len(relevant) else "<b>not relevant</b> (no highlighted passage: S, SL, SS and SST retrieve nothing)")
        self.header.setText(
            f"Article <b>{esc(cur.name)}</b> · topic {esc(s.topic or '')} · {rel} · "
            f"doc_length {doc_length:,} · reading <b>{s.settings.mode.value}</b>, screen {s.settings.screen}")
        what = (f"Previewing <b>{self.previewing}</b> in the article view (select <i>run</i> to go back)."
                if self.previewing else "Select a strategy to preview its passages in the article view.")
        self.note.setText("S highlighted passages · SL smallest element containing each · SLD whole article · "
                          "SS largest elements inside each · SST leaf elements inside each "
                          "(Kamps et al. 2008). " + what)

    # -- preview ---------------------------------------------------------------------------
    def _selection(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        name = self.model.rows[rows[0].row()].name if rows else None
        if name is None or name == RUN:
            self.end_preview()
        else:
            self._preview(name)
            m = self.view.marks() if self.view is not None and self.previewing == name else None
            if m is not None and m.chain:
                self.view.scroll_to_position(m.chain[0][1])  # its first passage in view
        self._show_header()

    def _preview(self, name: str) -> None:
        cur = self.session.current
        if self.view is None or cur is None or cur.layout is None or self.view.layout_ is not cur.layout:
            return
        row = self.model.rows[self.model.row_of(name)]
        if row.evaluation is None:
            self.end_preview()
            return
        self.view.set_marks(mk.marks(cur.layout, row.evaluation))  # re-highlights the changed blocks
        self.previewing = name

    def end_preview(self) -> None:
        """Show the run's own marks again in the article view (if a preview was on)."""
        if self.previewing is None:
            return
        self.previewing = None
        cur = self.session.current
        if self.view is not None and cur is not None and cur.layout is not None and self.view.layout_ is cur.layout:
            self.view.set_marks(mk.marks(cur.layout, cur.evaluation))
        if self.table.selectionModel().selectedRows():
            self.table.selectionModel().blockSignals(True)
            self.table.clearSelection()
            self.table.selectionModel().blockSignals(False)
        self._show_header()

    def select(self, name: str) -> None:
        """Select row ``name`` (as a click does): previews a strategy, ``run`` ends the preview."""
        self.table.selectRow(self.model.row_of(name))


def build_strategies(window) -> BottomDock:
    """The "Simulated strategies" dock of ``window`` (bottom, hidden at first; when shown, tabbed
    with the other bottom docks, the topic view first) with a toggle in its View menu
    (Ctrl+Alt+S): the window keeps them as ``strategies`` (the panel), ``strategies_dock`` and
    ``act_strategies``."""
    panel = StrategiesPanel(window.session, window.article.view)
    return build_bottom_dock(
        window, panel, "strategies", "Simulated strategies", SHORTCUT,
        "The open article's scores under the simulated passage strategies S, SL, SLD, SS, SST",
        lambda d: d.objectName() != "topic")
