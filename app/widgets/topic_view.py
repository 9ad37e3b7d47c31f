"""The topic view (fetch phase): the list scores of the current topic's ranked list for a
chosen document measure, and their curves against rank, bound to a :class:`Session`.

A combo picks the document measure S (aveChP, T2IF(t), T2IP(t), F(b), or the effort scores
LE(s), ES(s) with the reader's current parameters). For a precision-like S the view shows
AgP, AgP', MAP and gP@r / gR@r (r = 1, 5, 10, 25, 50); for an effort score MAP, CE@r, NCE@r,
ANCE@r and gR@r (r = 10, 50, 100 and the run's length). Numbers are those of
:func:`readsim.engine.listmeasures.evaluate` for the topic (:mod:`readsim.app.topic_scores`),
recomputed from the session's rows whenever the topic, the run, the mode or a reader setting
changes. The curves (:class:`~readsim.app.widgets.list_plot.RankCurves`) mark the open
article's rank; clicking a curve opens the article at that rank.

"Where the run loses" (:class:`LossPanel`, :mod:`readsim.engine.loss`): AgP for S over the
square {run, ideal} passages x {run, ideal} ranking, the split ideal - actual = browse + fetch
+ together, what the unranked relevant articles cost, and a sortable table of every ranked
article's browse loss (its score with the highlighted passages minus its score; for LE/ES,
where AgP does not apply, the extra screens: its score minus the ideal one). Clicking a row
opens the article.

:func:`install_topic_view` puts the view in a bottom dock of the main window ("Topic",
View ▸ Topic scores).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QDockWidget, QFrame, QGridLayout, QHBoxLayout,
                               QHeaderView, QLabel, QSizePolicy, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from readsim.engine.loss import LossSplit
from readsim.engine.measure import ListMeasure

from ..files import app_settings
from ..plain import esc, plain_label, plain_tip, rich_label
from ..session import Session
from ..topic_scores import DOC_KINDS, EFFORT_KINDS, LossMemo, TopicScores, doc_measure, topic_scores
from ..worth import topic_before
from .deferred import Deferred
from .tables import row_table

SETTINGS_KEY = "topic_view/doc"
DOC_HELP = {
    "aveChP": "average character precision of each article along the reading order",
    "T2IF": "T2I F-score: the reader stops after the tolerance of non-relevant characters",
    "T2IP": "T2I precision: relevant read / read, up to the tolerance stop",
    "F": "INEX set-based F(beta) (AgP/F(0.25) is INEX 2009-2010's official Relevant in Context measure)",
    "LE": "localizing effort: screens until the first relevant character (NR for a non-relevant article)",
    "ES": "effort score: LE for a relevant article, NR = levels + 1 otherwise",
}
LIST_HELP = {
    "AgP": "average generalised precision: sum of gP[r] at the relevant ranks / Nrel",
    "AgP'": "AgP with each relevant rank weighted by its relevant size",
    "MAP": "average precision over articles (AgP with S = 1 for a relevant article)",
    "gP": "generalised precision: mean document score of the first r articles",
    "gR": "generalised recall: relevant articles among the first r / Nrel",
    "CE": "cumulated effort: sum of (ES - 1) over the first r articles (lower is better)",
    "NCE": "normalized cumulated effort: sum of (ES / ideal ES - 1) over the first r (lower is better)",
    "ANCE": "average NCE over ranks 1..r (lower is better)",
}


def format_list(measure: ListMeasure, value: float) -> str:
    """Text of a list score: 2 decimals for the effort measures CE/NCE/ANCE, 4 otherwise."""
    return f"{value:.2f}" if measure.lower_is_better else f"{value:.4f}"


def _short(m: ListMeasure) -> str:
    """A list measure's name without its document measure (the combo says which)."""
    return m.name.partition("/")[0]


class _Card(QFrame):
    """A headline number: small grey name above a large value."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        self.setStyleSheet("#card { background:#f4f6fa; border:1px solid #dde3ec; border-radius:4px; }")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 3, 8, 4)
        lay.setSpacing(0)
        self.name = plain_label()
        self.name.setStyleSheet("color:#555; font-size:7pt; border:none; background:transparent;")
        self.value = plain_label("–")
        f = self.value.font()
        f.setPointSizeF(f.pointSizeF() * 1.35)
        f.setBold(True)
        self.value.setFont(f)
        self.value.setStyleSheet("border:none; background:transparent;")
        self.value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.name)
        lay.addWidget(self.value)


# -- where the run loses ------------------------------------------------------------------

L_RANK, L_TITLE, L_REL, L_IDEAL_RANK, L_SCORE, L_IDEAL, L_LOSS = range(7)
LOSS_SORT_ROLE = Qt.ItemDataRole.UserRole + 2
LOSS_ARTICLE_ROLE = Qt.ItemDataRole.UserRole + 1


def _score_text(loss: LossSplit, value: float) -> str:
    return f"{value:.0f}" if loss.effort else f"{value:.4f}"


LEFT_WIDTH, LOSS_WIDTH = 430, 480  # the topic view's fixed columns (pixels)


def _set_wrapped(label: QLabel, text: str, width: int) -> None:
    """Set a word-wrapped ``label``'s text at the fixed ``width`` of its column, keeping the label
    at a fixed size (that width, the text's height): a fixed-size label does not invalidate the
    window's layout when its text changes (Qt's ``updateGeometry`` stops there), so a mode change
    repaints the label only; a text needing more or fewer lines resizes it."""
    if label.text() == text and label.minimumWidth() == width:
        return
    label.setText(text)
    h = label.heightForWidth(width)
    if h < 0:
        h = label.sizeHint().height()
    if (label.minimumWidth(), label.minimumHeight(), label.maximumWidth(), label.maximumHeight()) != (width, h, width, h):
        label.setFixedSize(width, h)


class LossModel(QAbstractTableModel):
    """One row per ranked article: rank, title, relevance, rank in the ideal ranking, S with the
    run's passages, S with the highlighted passages, browse loss (:attr:`LossSplit.browse_loss`).
    Filled by :meth:`set_loss`; :data:`LOSS_SORT_ROLE` gives numbers to sort on."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.loss: LossSplit | None = None
        self._titles: list[str] = []
        self._columns: dict[int, np.ndarray] | None = None  # score, ideal score, loss (browse_loss computed once)
        self._worst = 1.0

    def set_loss(self, loss: LossSplit | None, titles: list[str] | None = None) -> None:
        """Show ``loss``. The same articles in the same order (a mode or setting change) update
        the cells in place: no reset, so the view keeps its sort, selection and scroll."""
        n = len(loss.articles) if loss is not None else 0
        titles = list(titles) if titles is not None and len(titles) == n else (
            list(loss.articles) if loss is not None else [])
        old, old_columns, old_worst = self.loss, self._columns, self._worst
        self._columns = None if loss is None else {L_SCORE: loss.scores, L_IDEAL: loss.ideal_scores,
                                                   L_LOSS: loss.browse_loss}
        self._worst = 1.0 if loss is None or not n else float(np.max(np.abs(self._columns[L_LOSS]))) or 1.0
        if old is not None and loss is not None and n and old.articles == loss.articles and titles == self._titles:
            self.loss = loss
            if old.measure.name != loss.measure.name or old.effort != loss.effort:
                self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 6)
            everything = old.effort != loss.effort or old_columns is None
            rel_changed = np.asarray(old.relevant, dtype=bool) != np.asarray(loss.relevant, dtype=bool)
            if rel_changed.any():
                self.dataChanged.emit(self.index(0, 0), self.index(n - 1, 6))
                return
            for c in (L_SCORE, L_IDEAL, L_LOSS):
                # only the cells whose number (shown text, sort key, shade) changed: Qt repaints
                # those cells only and the sort proxy re-sorts those rows only
                if everything or (c == L_LOSS and self._worst != old_worst):
                    changed = np.ones(n, dtype=bool)
                else:
                    a, b = np.asarray(old_columns[c], dtype=float), np.asarray(self._columns[c], dtype=float)
                    changed = ~((a == b) | (np.isnan(a) & np.isnan(b)))
                rows = np.flatnonzero(changed)
                if not len(rows):
                    continue
                breaks = np.flatnonzero(np.diff(rows) > 1)
                starts = np.concatenate(([rows[0]], rows[breaks + 1]))
                ends = np.concatenate((rows[breaks], [rows[-1]]))
                for first, last in zip(starts.tolist(), ends.tolist()):
                    self.dataChanged.emit(self.index(first, c), self.index(last, c))
            return
        self.beginResetModel()
        self.loss = loss
        self._titles = titles
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self.loss is None else len(self.loss.articles)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 7

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        loss = self.loss
        name = loss.measure.name if loss is not None else "S"
        effort = loss is not None and loss.effort
        if role == Qt.ItemDataRole.DisplayRole:
            return {L_RANK: "Rank", L_TITLE: "Article", L_REL: "Rel.", L_IDEAL_RANK: "Ideal rank",
                    L_SCORE: name, L_IDEAL: "S ideal", L_LOSS: "Extra" if effort else "Browse loss"}.get(section)
        if role == Qt.ItemDataRole.ToolTipRole:
            return {
                L_IDEAL_RANK: "Rank in the ideal ranking: every relevant article of the topic by decreasing "
                              "relevant size (ties by article id); empty for a non-relevant article",
                L_SCORE: f"{name} with the run's passages",
                L_IDEAL: f"{name} with the highlighted passages as the retrieved ones (computed, not assumed 1)",
                L_LOSS: (f"{name} (run's passages) - {name} (highlighted passages): the screens the run's passages "
                         "cost beyond the ideal ones (lower is better, so a positive number is a loss)" if effort else
                         f"{name} (highlighted passages) - {name} (run's passages): what the passage selector "
                         "gives away on this article"),
            }.get(section)
        if role == Qt.ItemDataRole.InitialSortOrderRole:  # first click: biggest loss, best score first
            low = section in (L_RANK, L_TITLE, L_IDEAL_RANK) or (effort and section in (L_SCORE, L_IDEAL))
            return (Qt.SortOrder.AscendingOrder if low else Qt.SortOrder.DescendingOrder).value
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        loss = self.loss
        if not index.isValid() or loss is None:
            return None
        k, c = index.row(), index.column()
        rel = bool(loss.relevant[k])
        if role == Qt.ItemDataRole.DisplayRole:
            if c == L_RANK:
                return str(k + 1)
            if c == L_TITLE:
                return self._titles[k]
            if c == L_REL:
                return "yes" if rel else "no"
            if c == L_IDEAL_RANK:
                return str(int(loss.ideal_rank[k])) if rel else ""
            if not rel:
                return "–"
            value = self._columns[c][k]
            return (f"{value:+.0f}" if loss.effort else f"{value:+.4f}") if c == L_LOSS else _score_text(loss, value)
        if role == LOSS_SORT_ROLE:
            if c == L_RANK:
                return k + 1
            if c == L_TITLE:
                return self._titles[k].lower()
            if c == L_REL:
                return int(rel)
            if c == L_IDEAL_RANK:
                return int(loss.ideal_rank[k]) if rel else 10**9
            return float(self._columns[c][k])
        if role == LOSS_ARTICLE_ROLE:
            return loss.articles[k]
        if role == Qt.ItemDataRole.TextAlignmentRole and c != L_TITLE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            if not rel:
                return QBrush(QColor("#999999"))
            if c == L_REL:
                return QBrush(QColor("#1a7f37"))
        if role == Qt.ItemDataRole.BackgroundRole and c == L_LOSS and rel:
            share = max(0.0, float(self._columns[L_LOSS][k])) / self._worst
            if share > 0:
                return QBrush(QColor(179, 38, 30, int(20 + 90 * share)))
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tip(f"{loss.articles[k]}: {self._titles[k]}")
        return None


def _signed(value: float) -> str:
    return f"{value:+.4f}"


class LossPanel(QWidget):
    """Where the run loses: the AgP square, the split and the per-article table.

    :meth:`text` reads a shown number back by key: ``actual``, ``ideal_passages``,
    ``ideal_ranking``, ``ideal``, ``perfect``, ``browse``, ``fetch``, ``interaction``,
    ``unretrieved``."""

    KEYS = ("actual", "ideal_passages", "ideal_ranking", "ideal", "perfect", "browse", "fetch", "interaction",
            "unretrieved")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.loss: LossSplit | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(3)
        self.title = rich_label()
        lay.addWidget(self.title)

        self.square = QFrame()
        self.square.setObjectName("square")
        self.square.setStyleSheet("#square { background:#f4f6fa; border:1px solid #dde3ec; border-radius:4px; }"
                                  " QLabel { border:none; background:transparent; }")
        grid = QGridLayout(self.square)
        grid.setContentsMargins(6, 2, 6, 2)
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(0)
        grey = "color:#555; font-size:8pt;"
        for col, text in ((1, "run ranking"), (2, "ideal ranking")):
            head = plain_label(text)
            head.setStyleSheet(grey)
            grid.addWidget(head, 0, col)
        for row, text in ((1, "run passages"), (2, "ideal passages")):
            head = plain_label(text)
            head.setStyleSheet(grey)
            grid.addWidget(head, row, 0)
        self._labels: dict[str, QLabel] = {}
        self._shown: dict[str, str] = {}
        for key, row, col in (("actual", 1, 1), ("ideal_ranking", 1, 2), ("ideal_passages", 2, 1), ("ideal", 2, 2)):
            cell = rich_label("–")
            cell.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(cell, row, col)
            self._labels[key] = cell
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(2, 1)
        lay.addWidget(self.square)
        self.split_line = rich_label()
        self.split_line.setWordWrap(True)
        lay.addWidget(self.split_line)

        self.model = LossModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(LOSS_SORT_ROLE)
        self.table = row_table(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(L_LOSS, Qt.SortOrder.DescendingOrder)  # the biggest losses first
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        h.setSectionResizeMode(L_TITLE, QHeaderView.ResizeMode.Stretch)
        h.setMinimumSectionSize(28)
        for col, width in ((L_RANK, 40), (L_REL, 32), (L_IDEAL_RANK, 72), (L_SCORE, 62), (L_IDEAL, 58), (L_LOSS, 98)):
            self.table.setColumnWidth(col, width)
        lay.addWidget(self.table, 1)
        # the table's height changes after a row is selected (the split line wraps, the dock
        # settles): keep the selected row whole in view, not cut at the bottom
        self.table.viewport().installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Resize and watched is self.table.viewport():
            self._keep_selected_in_view()
        return super().eventFilter(watched, event)

    def _keep_selected_in_view(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.table.scrollTo(rows[0], QAbstractItemView.ScrollHint.EnsureVisible)

    def text(self, key: str) -> str:
        """The shown number of ``key`` (see the class docstring); KeyError if not shown."""
        return self._shown[key]

    def article_at(self, view_row: int) -> str:
        """The article id of the table's ``view_row`` (in the current sort order)."""
        return self.proxy.index(view_row, L_RANK).data(LOSS_ARTICLE_ROLE)

    def select_article(self, article: str | None) -> None:
        """Select ``article``'s row (clear the selection if absent or None)."""
        loss = self.loss
        if article is None or loss is None or article not in loss.articles:
            self.table.clearSelection()
            return
        idx = self.proxy.mapFromSource(self.model.index(loss.articles.index(article), L_RANK))
        self.table.selectRow(idx.row())
        self.table.scrollTo(idx)

    def set_loss(self, loss: LossSplit | None, titles: list[str] | None = None, why: str = "needs qrels") -> None:
        """Show ``loss`` (None: nothing to show, ``why`` says so); ``titles``: the ranked
        articles' titles, rank order."""
        self.loss = loss
        self.model.set_loss(loss, titles)
        self._shown = {}
        if loss is None or loss.effort:  # otherwise each cell gets its number below: one setText,
            for label in self._labels.values():  # one re-layout, not two
                label.setText("–")
            self.square.setToolTip("")
        if loss is None:
            self.title.setText(f"<b>Where the run loses</b> <span style='color:#777'>({esc(why)})</span>")
            _set_wrapped(self.split_line, "", LOSS_WIDTH)
            return
        name = esc(loss.measure.name)
        if loss.effort:
            self.square.hide()
            self.title.setText(f"<b>Where the run loses</b> · {name} per article")
            _set_wrapped(self.split_line,
                f"<span style='color:#555'>AgP sums gains; {name} is an effort (lower is better): no AgP "
                f"split. <i>Extra</i> = {name} with the run's passages − with the highlighted ones: the "
                f"screens the passage selector costs on each article.</span>", LOSS_WIDTH)
            return
        self.square.show()
        self.title.setText(f"<b>Where the run loses</b> · AgP/{name}")
        self._shown = {key: f"{getattr(loss, key):.4f}" for key in self.KEYS}
        t = self._shown
        for key, colour, note in (("actual", "#555", "as is"),
                                  ("ideal_ranking", "#1f5fbf", f"({_signed(loss.fetch)} fetch)"),
                                  ("ideal_passages", "#1a7f37", f"({_signed(loss.browse)} browse)"),
                                  ("ideal", "#555", "both")):
            self._labels[key].setText(f"<b>{t[key]}</b> <span style='color:{colour}'>{note}</span>")
        missed = len(loss.missed)
        if abs(loss.fetch - loss.browse) < 5e-5:
            verdict = "alone, fixing either gains the same"
        elif loss.fetch > loss.browse:
            verdict = "alone, fixing the ranker gains more"
        else:
            verdict = "alone, fixing the passage selector gains more"
        unranked = (f"; all {loss.nrel} relevant, ideal: {t['perfect']} ({_signed(loss.unretrieved)}: {missed} "
                    f"relevant {'article' if missed == 1 else 'articles'} not ranked)") if missed else ""
        _set_wrapped(self.split_line,
            f"both − as is = {loss.ideal - loss.actual:.4f} = browse {t['browse']} + fetch {t['fetch']} "
            f"+ together {t['interaction']}{unranked}. <span style='color:#b3261e'>{verdict}.</span>", LOSS_WIDTH)
        self.square.setToolTip(
            "AgP (Kamps et al., INEX 2007 evaluation measures, LNCS 4862, 2008) of the run as is, with the "
            "highlighted passages as retrieved passages (browse fixed), with the run's relevant articles in the "
            "ideal order: decreasing relevant size, non-relevant ones dropped (fetch fixed), and with both.\n"
            "browse = ideal passages − as is; fetch = ideal ranking − as is; together = both − ideal passages − "
            "ideal ranking + as is." + (f"\nNot ranked: {', '.join(loss.missed)}" if missed else ""))


class TopicView(QWidget):
    """List scores and curves of the session's topic; :meth:`value_text` and :meth:`values`
    read the shown numbers back by canonical list-measure name (tests)."""

    def __init__(self, session: Session, parent=None, defer_plots: bool = False) -> None:
        super().__init__(parent)
        self.session = session
        self.scores: TopicScores | None = None
        self.memo = LossMemo()
        self._scores_memo: dict[tuple, tuple] = {}  # (rows, run, qrels, settings used) -> scores
        self._shown_key: tuple | None = None
        self._filled_key: tuple | None = None
        self._stale = False
        self._cells: dict[str, QLabel | QTableWidgetItem] = {}

        outer = QHBoxLayout(self)
        outer.setContentsMargins(6, 4, 6, 4)
        outer.setSpacing(10)
        left = QWidget()
        left.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        left.setFixedWidth(LEFT_WIDTH)
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.setSpacing(5)
        self.header = rich_label()
        self.header.setWordWrap(True)
        ll.addWidget(self.header)

        pick = QHBoxLayout()
        pick.setSpacing(6)
        pick.addWidget(plain_label("Document measure S"))
        self.doc_combo = QComboBox()
        for kind in DOC_KINDS:
            self.doc_combo.addItem(kind, kind)
            self.doc_combo.setItemData(self.doc_combo.count() - 1, DOC_HELP[kind], Qt.ItemDataRole.ToolTipRole)
        self.doc_combo.setToolTip("The document score S(d) each list measure aggregates over the ranked articles")
        pick.addWidget(self.doc_combo, 1)
        ll.addLayout(pick)

        body = QHBoxLayout()
        body.setSpacing(6)
        cards = QVBoxLayout()
        cards.setSpacing(4)
        self.cards = [_Card() for _ in range(3)]
        for c in self.cards:
            c.setFixedWidth(160)
            cards.addWidget(c)
        cards.addStretch(1)
        body.addLayout(cards)

        self.table = QTableWidget(0, 0)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)
        self.table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        body.addWidget(self.table, 1)
        ll.addLayout(body, 1)

        self.article_line = rich_label()
        self.article_line.setWordWrap(True)
        ll.addWidget(self.article_line)
        outer.addWidget(left)

        self.loss_panel = LossPanel()
        self.loss_panel.setFixedWidth(LOSS_WIDTH)
        self.loss_panel.table.clicked.connect(self._loss_clicked)
        outer.addWidget(self.loss_panel)

        self.curves_slot = Deferred(_rank_curves, eager=not defer_plots)
        outer.addWidget(self.curves_slot, 1)

        def clickable(curves) -> None:
            for plot in (curves.gp_plot, curves.nce_plot):
                plot.scene().sigMouseClicked.connect(lambda ev, p=plot: self._clicked(p, ev))

        self.curves_slot.when_built(clickable)

        stored = app_settings().value(SETTINGS_KEY)
        i = self.doc_combo.findData(stored) if stored else -1
        self.doc_combo.setCurrentIndex(max(i, 0))
        self.doc_combo.currentIndexChanged.connect(self._doc_changed)
        session.topic_changed.connect(self._topic_changed)
        session.rows_changed.connect(self._rows_arrived)
        session.baselines_changed.connect(self.refresh)
        session.settings_changed.connect(self._settings_changed)
        session.article_changed.connect(self.show_article)
        session.evaluation_changed.connect(self.show_article)
        self.refresh()

    @property
    def curves(self):
        """The curves against rank (:class:`~readsim.app.widgets.list_plot.RankCurves`), built
        now if deferred."""
        return self.curves_slot.widget()

    # -- what is shown ------------------------------------------------------------------
    def doc_kind(self) -> str:
        return self.doc_combo.currentData()

    def set_doc_kind(self, kind: str) -> None:
        """Choose the document measure by kind (``aveChP``, ``T2IF``, ``T2IP``, ``F``, ``LE``, ``ES``)."""
        self.doc_combo.setCurrentIndex(self.doc_combo.findData(kind))

    def values(self) -> dict[str, float]:
        """The current list scores: canonical name (``AgP/F(0.25)``) -> value."""
        return dict(self.scores.values) if self.scores is not None else {}

    def value_text(self, name: str) -> str:
        """The shown text of list measure ``name`` (canonical name); KeyError if not shown."""
        cell = self._cells[name]
        return cell.text()

    # -- reactions ----------------------------------------------------------------------
    def _doc_changed(self, _index: int) -> None:
        app_settings().setValue(SETTINGS_KEY, self.doc_kind())
        self.refresh()

    def _topic_changed(self, _topic: str) -> None:
        self._stale = True  # rows still belong to the previous topic until rows_changed
        _set_wrapped(self.header, f"<b>Topic {esc(_topic)}</b> <span style='color:#777'>evaluating…</span>", LEFT_WIDTH)
        if self.loss_panel.loss is None:
            self.loss_panel.set_loss(None, [], "evaluating…")

    def refresh(self, *_) -> None:
        """Recompute the list scores from the session's rows and redraw what changed.

        Once per state: a mode change announces new rows and new settings, one refresh serves
        both; a setting S does not use (the tolerance for aveChP, the screen size for F) changes
        nothing; the loss split is memoised (:class:`~readsim.app.topic_scores.LossMemo`), and
        the table, the curves and the loss panel are redrawn only when their numbers change."""
        s = self.session
        st = s.settings
        doc = doc_measure(self.doc_kind(), st)
        effort = doc if doc.kind in EFFORT_KINDS else doc_measure("LE", st)
        objects = (s.rows, s.run, s.qrels, s.baseline())  # by identity
        values = (s.topic, doc, effort, st.levels, st.mode)
        shown = self._shown_key
        if shown is not None and all(a is b for a, b in zip(objects, shown[0])) and values == shown[1]:
            self._update_combo_texts()
            return
        self._shown_key = (objects, values)
        self._update_combo_texts()
        if s.topic is None or s.run is None:
            self.scores = None
        else:
            memo_key = (tuple(id(o) for o in objects), values)
            hit = self._scores_memo.get(memo_key)
            if hit is not None and all(a is b for a, b in zip(hit[0], objects)):
                self.scores = hit[1]  # a mode seen before: the session gives back the same rows
            else:
                self.scores = topic_scores(s.rows, s.qrels, s.topic, doc, st, self.memo)
                if len(self._scores_memo) >= 16:
                    self._scores_memo.clear()
                self._scores_memo[memo_key] = (objects, self.scores)
        ts = self.scores
        self._show_header()
        fill_key = None if ts is None else (ts.doc, ts.n, ts.nrel, tuple(ts.values.items()))
        if fill_key is None or fill_key != self._filled_key:
            self._filled_key = fill_key
            self._fill()
        self.curves_slot.call("show_scores", ts)
        loss = ts.loss if ts is not None else None
        if loss is not self.loss_panel.loss or loss is None:
            why = "needs qrels" if ts is not None else "evaluating…" if s.topic is not None else "no topic open"
            self.loss_panel.set_loss(loss, [r.title for r in s.rows], why)
        self.show_article()

    def _rows_arrived(self) -> None:
        self._stale = False
        self.refresh()

    def _settings_changed(self, _settings) -> None:
        if self._stale:  # the topic's rows are still being evaluated: they will refresh
            self._update_combo_texts()
        else:
            self.refresh()

    def _update_combo_texts(self) -> None:
        st = self.session.settings
        for i in range(self.doc_combo.count()):
            text = doc_measure(self.doc_combo.itemData(i), st).name
            if self.doc_combo.itemText(i) != text:
                self.doc_combo.setItemText(i, text)

    def _show_header(self) -> None:
        s, ts = self.session, self.scores
        if ts is None:
            _set_wrapped(self.header, "<i>No topic open.</i>", LEFT_WIDTH)
            return
        title = s.topic_title(ts.topic)
        run = s.run
        run_text = f"{esc(run.run_id)} ({esc(Path(run.path).name)})" if run is not None else ""
        facts = (f"{ts.n} ranked · Nrel {ts.nrel} · {ts.relevant_ranked} relevant ranked · "
                 f"{esc(str(s.settings.mode))} reading")
        before = topic_before(s, ts)  # unsaved edits: the headline score before them
        _set_wrapped(self.header,
            f"<b>Topic {esc(ts.topic)}</b> {esc(title)}<br>run {run_text}<br>"
            f"<span style='color:#555'>{facts}</span>"
            + (f"<br><span style='color:#6b5200'>{esc(before)}</span>" if before else ""), LEFT_WIDTH)

    def _fill(self) -> None:
        ts = self.scores
        if self._fill_in_place(ts):
            return
        self._table_shape = None
        self._cells = {}
        self.table.clear()
        if ts is None or not ts.values:
            for c in self.cards:
                c.name.setText("")
                c.value.setText("–")
            self.table.setRowCount(0)
            self.table.setColumnCount(0)
            if ts is not None and not ts.nrel:
                self.cards[0].name.setText("no relevant article in the qrels")
            return
        by_name = {m.name: m for m in ts.measures}
        effort = ts.doc.kind in EFFORT_KINDS
        n = ts.n
        if effort:
            last = max(r for r in (m.cutoff for m in ts.measures if m.kind == "ANCE"))
            heads = ["MAP", f"ANCE@{last}/{ts.doc.name}", f"NCE@{last}/{ts.doc.name}"]
            kinds = ["CE", "NCE", "ANCE", "gR"]
        else:
            heads = [f"AgP/{ts.doc.name}", f"AgP'/{ts.doc.name}", "MAP"]
            kinds = ["gP", "gR"]
        for card, name in zip(self.cards, heads):
            m = by_name[name]
            card.name.setText(_short(m) + ("  (lower is better)" if m.lower_is_better else ""))
            card.value.setText(format_list(m, ts.values[name]))
            card.setToolTip(f"{name} = {ts.values[name]!r}\n{LIST_HELP.get(m.kind, '')}")
            self._cells[name] = card.value
        cutoffs = sorted({m.cutoff for m in ts.measures if m.kind in kinds})
        self.table.setColumnCount(1 + len(kinds))
        self.table.setRowCount(len(cutoffs))
        self.table.setHorizontalHeaderLabels(["r"] + [f"{k}@r" for k in kinds])
        for c, k in enumerate(kinds, 1):
            self.table.horizontalHeaderItem(c).setToolTip(LIST_HELP.get(k, ""))
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        for row, r in enumerate(cutoffs):
            item = QTableWidgetItem(f"{r}" + (" (n)" if r == n and effort else ""))
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            item.setForeground(QColor("#555"))
            self.table.setItem(row, 0, item)
            for c, k in enumerate(kinds, 1):
                m = ListMeasure(k, r, None if k == "gR" else ts.doc)
                v = ts.values[m.name]
                cell = QTableWidgetItem(format_list(m, v))
                cell.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                cell.setFont(mono)
                past = r > n
                cell.setToolTip(f"{m.name} = {v!r}" + (f"\n(past the run's end: {n} articles)" if past else ""))
                if past:
                    cell.setForeground(QColor("#888"))
                self.table.setItem(row, c, cell)
                self._cells[m.name] = cell
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self._table_shape = self._shape(ts)

    @staticmethod
    def _shape(ts: TopicScores) -> tuple:
        """What fixes the cards' and the table's layout (all but the numbers)."""
        return (ts.doc, ts.n, tuple(m.name for m in ts.measures))

    def _fill_in_place(self, ts: TopicScores | None) -> bool:
        """The same measures as shown (a mode or setting change): set the cards' values and the
        table cells whose text changed, in place; the table is not rebuilt, so Qt repaints the
        changed cells only. False when the table must be rebuilt."""
        if ts is None or not ts.values or getattr(self, "_table_shape", None) != self._shape(ts):
            return False
        by_name = {m.name: m for m in ts.measures}
        if any(name not in by_name or name not in ts.values for name in self._cells):
            return False
        n = ts.n
        for name, cell in self._cells.items():
            m = by_name[name]
            v = ts.values[name]
            text = format_list(m, v)
            if isinstance(cell, QLabel):
                if cell.text() != text:
                    cell.setText(text)
                card = cell.parentWidget()
                tip = f"{name} = {v!r}\n{LIST_HELP.get(m.kind, '')}"
                if card is not None and card.toolTip() != tip:
                    card.setToolTip(tip)
                continue
            if cell.text() != text:
                cell.setText(text)
            tip = f"{m.name} = {v!r}" + (f"\n(past the run's end: {n} articles)" if m.cutoff > n else "")
            if cell.toolTip() != tip:
                cell.setToolTip(tip)
        return True

    def show_article(self, *_) -> None:
        """Mark the open article's rank (or say the run does not rank it)."""
        s, ts, cur = self.session, self.scores, self.session.current
        self.loss_panel.select_article(cur.name if cur is not None else None)
        if cur is None or ts is None or self._stale:  # stale: the rows are of the topic before
            _set_wrapped(self.article_line, "", LEFT_WIDTH)
            self.curves_slot.call("mark_rank", None)
            return
        row = s.row_of(cur.name)
        k = ts.ranking.articles.index(cur.name) if row is not None and cur.name in ts.ranking.articles else -1
        if k < 0:
            _set_wrapped(self.article_line, f"Open article <b>{esc(cur.name)}</b>: "
                                      f"<span style='color:#b3261e'>not in this run</span>", LEFT_WIDTH)
            self.curves_slot.call("mark_rank", None)
            return
        score = ts.scores[k]  # k: 0-based position in the ranked list (= rank - 1 without gaps)
        rel = "relevant" if ts.ranking.relevant[k] else "not relevant"
        text = f"{score:.0f}" if ts.doc.kind in EFFORT_KINDS else f"{score:.4f}"
        _set_wrapped(self.article_line,
            f"Open article <b>{esc(cur.name)}</b>: rank {row.rank}, {rel}, "
            f"S = {ts.doc.name} = {text}", LEFT_WIDTH)
        self.curves_slot.call("mark_rank", k + 1, f"{cur.name} (rank {row.rank})")

    def _loss_clicked(self, index) -> None:
        """Open the article of the clicked row of the loss table."""
        article = index.data(LOSS_ARTICLE_ROLE)
        if article is not None and (self.session.current is None or self.session.current.name != article):
            self.session.open_article(article)

    def _clicked(self, plot, event) -> None:
        """Open the article at the clicked rank (left click inside a plot)."""
        ts = self.scores
        if ts is None or ts.n == 0 or event.button() != Qt.MouseButton.LeftButton:
            return
        vb = plot.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        r = int(round(vb.mapSceneToView(event.scenePos()).x()))
        if 1 <= r <= ts.n:
            self.session.open_article(ts.ranking.articles[r - 1])


def install_topic_view(window) -> TopicView:
    """Add the topic view to ``window`` (a :class:`~readsim.app.mainwindow.MainWindow`) as the
    bottom dock "Topic" with a View-menu toggle; sets ``window.topic_view`` and ``window.topic_dock``."""
    view = TopicView(window.session, defer_plots=getattr(window, "defer_plots", False))
    dock = QDockWidget("Topic: list scores of the ranked list", window)
    dock.setObjectName("topic")
    dock.setWidget(view)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    log = getattr(window, "log_dock", None)
    if log is not None:
        window.tabifyDockWidget(dock, log)
    window.restoreDockWidget(dock)
    dock.raise_()
    window.resizeDocks([dock], [270], Qt.Orientation.Vertical)
    action = dock.toggleViewAction()
    action.setText("Topic scores (list measures)")
    for a in window.menuBar().actions():
        if a.text().replace("&", "") == "View" and a.menu() is not None:
            a.menu().addAction(action)
            break
    else:
        window.menuBar().addMenu("&Topic").addAction(action)
    window.topic_view, window.topic_dock = view, dock
    return view


def _rank_curves():
    from .list_plot import RankCurves  # pyqtgraph: imported when first built

    return RankCurves()
