"""The topic's ranked list's table model (:class:`RankedListModel`), usable without a window: a
plain list of :class:`~readsim.app.rows.RankedRow` filled by :meth:`RankedListModel.set_rows`,
named column constants (score columns for the current settings, optional ones hidden by
default), :data:`ARTICLE_ROLE` and :data:`SORT_ROLE`. Its view is
:class:`~readsim.app.widgets.ranked_list.RankedListView`."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QMimeData, QModelIndex, Qt, Signal
from PySide6.QtGui import QFont

from readsim.operations.article_reading import values_of
from readsim.core.doc_evaluation import Settings
from readsim.core.measure import DocMeasure

from .. import appearance as look
from .. import settings_keys as keys
from ..plain import plain_tip
from ..rows import RankedRow

RANK, ARTICLE, TITLE, RELEVANT, AVECHP, T2IF, LE, F, CHP, T2IP, ES, P_SET, R_SET = range(13)
SCORE_COLUMNS = (AVECHP, T2IF, LE, F, CHP, T2IP, ES, P_SET, R_SET)
OPTIONAL_COLUMNS = (ARTICLE, CHP, T2IP, ES, P_SET, R_SET)  # hidden by default
COLUMN_KEYS = {RANK: "rank", ARTICLE: "article", TITLE: "title", RELEVANT: "relevant", AVECHP: "aveChP",
               T2IF: "T2IF", LE: "LE", F: "F", CHP: "ChP", T2IP: "T2IP", ES: "ES", P_SET: "P_set", R_SET: "R_set"}
COLUMNS_KEY = keys.RANKED_LIST_COLUMNS.name
RANKED_MIME = "application/x-readsim-ranked-article"
"""The MIME type of a dragged row: the article id, UTF-8."""
ARTICLE_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
_DISPLAY, _ALIGN, _FOREGROUND, _FONT, _TOOLTIP = (
    int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.TextAlignmentRole), int(Qt.ItemDataRole.ForegroundRole),
    int(Qt.ItemDataRole.FontRole), int(Qt.ItemDataRole.ToolTipRole))
_ROLES = frozenset({_DISPLAY, _ALIGN, _FOREGROUND, _FONT, _TOOLTIP, int(SORT_ROLE), int(ARTICLE_ROLE)})


_RIGHT_COLUMNS = frozenset({RANK, RELEVANT, *SCORE_COLUMNS})
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_GREEN = "good"  # roles of readsim.app.appearance
_GREY = "disabled"
_BOLD: list[QFont] = []  # made on first use (a QFont needs the QGuiApplication)


def _bold() -> QFont:
    if not _BOLD:
        f = QFont()
        f.setBold(True)
        _BOLD.append(f)
    return _BOLD[0]


def list_measures(s: Settings) -> list[DocMeasure]:
    """The ranked list's score columns for settings ``s``, in column order: aveChP, T2IF(t),
    LE(s), F(b), then the optional ChP@s, T2IP(t), ES(s), P_set, R_set."""
    return [
        DocMeasure("aveChP"),
        DocMeasure("T2IF", s.tolerance, s.alpha),
        DocMeasure("LE", s.screen, lower_is_better=True),
        DocMeasure("F", 0, s.beta),
        DocMeasure("ChP", s.screen),
        DocMeasure("T2IP", s.tolerance),
        DocMeasure("ES", s.screen, lower_is_better=True),
        DocMeasure("P_set"),
        DocMeasure("R_set"),
    ]


def format_score(measure: DocMeasure, value: float) -> str:
    """Text of a score: integers for LE/ES, 4 decimals otherwise."""
    return str(int(value)) if measure.kind in ("LE", "ES") else f"{value:.4f}"


class RankedListModel(QAbstractTableModel):
    """Rows: the run's ranked articles for one topic, in run order."""

    HEADERS = {RANK: "Rank", ARTICLE: "Article", TITLE: "Title", RELEVANT: "Rel."}
    #: ``headers_renamed(first, last)``: score headers renamed by a setting (``T2IF(300)`` ->
    #: ``T2IF(100)``), emitted instead of ``headerDataChanged`` when :attr:`renames_in_place`
    #: is set (by :class:`RankedListView`): Qt answers ``headerDataChanged`` by re-laying out
    #: the table and repainting every cell, 5-8 ms, where repainting the header is enough
    headers_renamed = Signal(int, int)
    renames_in_place = False

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list[RankedRow] = []
        self._settings = Settings()
        self._measures = list_measures(self._settings)
        self._scores: list[list[float]] = []  # [row][score column]
        self._cols: list[list[float]] = []  # [score column][row]
        self._texts: list[list[str]] = []  # [score column][row]: the shown text
        self._memo: dict[tuple, tuple] = {}  # (rows, measures, levels) -> (rows, columns, texts)
        self._given: object = None
        self._before: tuple | None = None  # (columns, texts) before the last rescore
        self._hidden: frozenset[str] = frozenset()  # measures a lesson's question hides until answered

    def hide_measures(self, names) -> None:
        """Show the score columns of the measures ``names`` (canonical names) as ``?`` and sort
        them as equal, until called again without them (a lesson's question asks about them)."""
        self._hidden = frozenset(names)
        if self._rows:
            self.dataChanged.emit(self.index(0, AVECHP), self.index(len(self._rows) - 1, self.columnCount() - 1))

    # -- filling ------------------------------------------------------------------------
    def set_rows(self, rows: list[RankedRow], settings: Settings | None = None) -> None:
        """Replace all rows (and the settings their scores use).

        The same articles in the same order (a mode change re-derives every row) update the
        cells in place instead of resetting the model: cheaper, and the selection stays; only
        the columns whose numbers changed are announced (and so repainted)."""
        same = bool(self._rows) and [r.article for r in rows] == [r.article for r in self._rows]
        if not same:
            self.beginResetModel()
        self._rows = list(rows)
        self._given = rows  # the caller's list: a memo key (the session keeps one list per mode)
        old_measures = self._measures
        if settings is not None:
            self._settings = settings
            self._measures = list_measures(settings)
        changed = self._rescore(everything=True)
        if not same:
            self.endResetModel()
            return
        self._announce(old_measures, changed)

    def set_settings(self, settings: Settings) -> None:
        """Rescore for ``settings`` (headers and score cells change); nothing if unchanged.
        Only the measures whose parameters changed are recomputed (a tolerance change: T2IF
        and T2IP), and only the columns whose shown numbers changed are repainted."""
        if settings == self._settings:
            return
        old_measures = self._measures
        levels_changed = settings.levels != self._settings.levels
        self._settings = settings
        self._measures = list_measures(settings)
        changed = self._rescore(everything=levels_changed, before=old_measures)
        self._announce(old_measures, changed)

    def _announce(self, old_measures: list[DocMeasure], changed: list[int]) -> None:
        """Header renames for the score columns whose header changed, dataChanged for each
        score column whose cells changed."""
        heads = [AVECHP + j for j, (a, b) in enumerate(zip(old_measures, self._measures)) if a.name != b.name]
        if heads:
            if self.renames_in_place:
                self.headers_renamed.emit(min(heads), max(heads))
            else:
                self.headerDataChanged.emit(Qt.Orientation.Horizontal, min(heads), max(heads))
        if not self._rows:
            return
        last = len(self._rows) - 1
        # one signal per column and run of changed rows: Qt repaints a one-column range's cells
        # only (a wider range the whole viewport), and the cells whose number did not change
        # (shown text and sort key) are neither repainted nor re-sorted
        before = self._before
        for j in sorted(changed):
            old = before if before is not None and j < len(before[0]) else None
            if old is None or len(old[0][j]) != len(self._cols[j]) or len(old[1][j]) != len(self._texts[j]):
                self.dataChanged.emit(self.index(0, AVECHP + j), self.index(last, AVECHP + j))
                continue
            oc, ot, nc, nt = old[0][j], old[1][j], self._cols[j], self._texts[j]
            first = None
            for i in range(last + 1):
                same = ot[i] == nt[i] and (oc[i] == nc[i] or (oc[i] != oc[i] and nc[i] != nc[i]))
                if not same and first is None:
                    first = i
                elif same and first is not None:
                    self.dataChanged.emit(self.index(first, AVECHP + j), self.index(i - 1, AVECHP + j))
                    first = None
            if first is not None:
                self.dataChanged.emit(self.index(first, AVECHP + j), self.index(last, AVECHP + j))

    def _rescore(self, everything: bool = True, before: list[DocMeasure] | None = None) -> list[int]:
        """Recompute the score columns (all, or those whose measure differs from ``before``);
        returns the score columns (0-based among the scores) whose shown text changed."""
        levels = self._settings.levels
        rows = self._rows
        old_cols, old_text = self._cols, self._texts
        self._before = (old_cols, old_text) if len(old_cols) == len(old_text) else None  # for _announce
        n = len(rows)
        given = self._given
        memo_key = (id(given), tuple(self._measures), levels)
        hit = self._memo.get(memo_key)
        if everything and hit is not None and hit[0] is given:  # rows seen before (a mode seen before)
            cols, texts = hit[1], hit[2]
            changed = [j for j in range(len(cols)) if len(old_text) != len(texts) or old_text[j] != texts[j]]
            self._cols, self._texts = cols, texts
            self._scores = [list(t) for t in zip(*cols)] if n else []
            return changed
        if everything or before is None or len(old_cols) != len(self._measures) or any(
                len(c) != n for c in old_cols):
            redo = range(len(self._measures))
        else:
            redo = [j for j, (a, b) in enumerate(zip(before, self._measures)) if a != b]
        cols = list(old_cols) if len(old_cols) == len(self._measures) else [[] for _ in self._measures]
        texts = list(old_text) if len(old_text) == len(self._measures) else [[] for _ in self._measures]
        changed = []
        for j in redo:
            m = self._measures[j]
            values = values_of(m, [r.evaluation for r in rows], levels)
            shown = [format_score(m, v) for v in values]
            if values != cols[j] or shown != texts[j]:
                changed.append(j)
            cols[j], texts[j] = values, shown
        self._cols, self._texts = cols, texts
        self._scores = [list(t) for t in zip(*cols)] if n else []
        if len(self._memo) >= 8:
            self._memo.clear()
        self._memo[memo_key] = (given, cols, texts)
        return changed

    def row(self, i: int) -> RankedRow:
        return self._rows[i]

    def row_of(self, article: str) -> int:
        """Row number of ``article`` (-1 if absent)."""
        for i, r in enumerate(self._rows):
            if r.article == article:
                return i
        return -1

    def measures(self) -> list[DocMeasure]:
        return list(self._measures)

    # -- Qt model API: dragging a row --------------------------------------------------------
    def flags(self, index):
        f = super().flags(index)
        return f | Qt.ItemFlag.ItemIsDragEnabled if index.isValid() else f

    def mimeTypes(self) -> list[str]:
        return [RANKED_MIME]

    def mimeData(self, indexes) -> QMimeData:
        data = QMimeData()
        if indexes:
            data.setData(RANKED_MIME, self._rows[indexes[0].row()].article.encode("utf-8"))
        return data

    def supportedDragActions(self):
        return Qt.DropAction.MoveAction

    # -- Qt model API -------------------------------------------------------------------
    def index(self, row: int, column: int, parent=QModelIndex()):
        # Qt's own index() calls rowCount and columnCount back into Python, and the view's sort
        # proxy asks for a source index about eight times per painted cell
        if parent.isValid() or not (0 <= row < len(self._rows) and 0 <= column < len(COLUMN_KEYS)):
            return QModelIndex()
        return self.createIndex(row, column)

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMN_KEYS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if section in SCORE_COLUMNS:
                return self._measures[section - AVECHP].name
            return self.HEADERS.get(section)
        if role == Qt.ItemDataRole.ToolTipRole and section in SCORE_COLUMNS:
            m = self._measures[section - AVECHP]
            low = " (lower is better)" if m.lower_is_better else ""
            return (f"{m.name} in the {self._settings.mode} reading mode{low}; "
                    "click to sort (best first), right-click to choose columns")
        if role == Qt.ItemDataRole.InitialSortOrderRole:  # first click: best scores / relevant first
            if section in SCORE_COLUMNS:
                low = self._measures[section - AVECHP].lower_is_better
                return (Qt.SortOrder.AscendingOrder if low else Qt.SortOrder.DescendingOrder).value
            return (Qt.SortOrder.DescendingOrder if section == RELEVANT else Qt.SortOrder.AscendingOrder).value
        return None

    def data(self, index, role=_DISPLAY):
        # called for every role of every painted cell (a repaint of the list: ~1,300 calls),
        # so the common answers come first and plain ints are compared
        if role not in _ROLES or not index.isValid():
            return None
        i, c = index.row(), index.column()
        r = self._rows[i]
        if role == _DISPLAY:
            if c >= AVECHP:
                return "?" if self._hidden and self._measures[c - AVECHP].name in self._hidden \
                    else self._texts[c - AVECHP][i]
            if c == RANK:
                return str(r.rank)
            if c == ARTICLE:
                return r.article
            if c == TITLE:
                return r.title
            return "–" if r.relevant is None else ("yes" if r.relevant else "no")
        if role == _ALIGN:
            return _RIGHT if c in _RIGHT_COLUMNS else None
        if role == _FOREGROUND:
            if c == RELEVANT and r.relevant:
                return look.brush(_GREEN)
            if not r.in_collection:
                return look.brush(_GREY)
            return None
        if role == _FONT:
            return _bold() if c == RELEVANT and r.relevant else None
        if role == SORT_ROLE:
            if c >= AVECHP:
                return 0.0 if self._hidden and self._measures[c - AVECHP].name in self._hidden \
                    else self._cols[c - AVECHP][i]
            if c == RANK:
                return r.rank
            if c in (ARTICLE, TITLE):
                return (r.article if c == ARTICLE else r.title).lower()
            return 1 if r.relevant else 0
        if role == ARTICLE_ROLE:
            return r.article
        if role == _TOOLTIP:
            if r.in_collection:
                return plain_tip(f"{r.article}: {r.title}")
            return plain_tip(f"{r.article}: not in the collection, so there is no text to show; its scores come "
                             f"from the qrels (passages, doc_length) and the run's passages alone")
        return None
