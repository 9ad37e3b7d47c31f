"""The topic's ranked list (fetch phase): a table model over :class:`RankedRow` and its view.

:class:`RankedListModel` holds a plain list filled by :meth:`RankedListModel.set_rows` and is
usable without a window. Columns are named constants; score columns show the document scores
aveChP, T2IF(t), LE(s), F(b) for the current settings (their headers are the measures'
canonical names). Optional score columns (hidden by default; the header's context menu shows
and hides any column, remembered in QSettings under ``ranked_list/columns``): ChP@s, T2IP(t),
ES(s), P_set, R_set. :data:`ARTICLE_ROLE` gives a row's article id, :data:`SORT_ROLE` a
sortable value (numbers for rank, relevance and scores). A header click sorts (best first for
a score); the selection follows its article through sorting and through a model reset. On a
narrow list (a laptop's screen) the title keeps :data:`TITLE_CHARS` characters: secondary
columns drop out for as long as it is narrow, the last first; the rank, the relevance and the
chosen measure's column (the topic view's document measure S, :meth:`RankedListView.set_chosen`)
never do (:func:`~readsim.app.widgets.placement.shown_columns`).
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QMimeData, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QFont, QPainter
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableView

from readsim._scores import values_of
from readsim.engine.document import Settings
from readsim.engine.measure import DocMeasure

from .. import appearance as look
from ..files import app_settings
from ..plain import plain_tip
from ..rows import RankedRow
from .placement import shown_columns

RANK, ARTICLE, TITLE, RELEVANT, AVECHP, T2IF, LE, F, CHP, T2IP, ES, P_SET, R_SET = range(13)
SCORE_COLUMNS = (AVECHP, T2IF, LE, F, CHP, T2IP, ES, P_SET, R_SET)
OPTIONAL_COLUMNS = (ARTICLE, CHP, T2IP, ES, P_SET, R_SET)  # hidden by default
COLUMN_KEYS = {RANK: "rank", ARTICLE: "article", TITLE: "title", RELEVANT: "relevant", AVECHP: "aveChP",
               T2IF: "T2IF", LE: "LE", F: "F", CHP: "ChP", T2IP: "T2IP", ES: "ES", P_SET: "P_set", R_SET: "R_set"}
COLUMNS_KEY = "ranked_list/columns"
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
                return self._texts[c - AVECHP][i]
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
                return self._cols[c - AVECHP][i]
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


TITLE_MIN = 40
"""The ranked list's title column is never narrower (pixels): an ellipsis and a few letters."""
TITLE_CHARS = 12
"""Characters of the title a narrow list keeps before its secondary columns drop out."""
KIND_COLUMNS = {"aveChP": AVECHP, "T2IF": T2IF, "T2IP": T2IP, "F": F, "LE": LE, "ES": ES}
"""The column of each document measure the topic view can choose (``doc_kind``)."""
KEPT_COLUMNS = (RANK, RELEVANT)
"""Columns a narrow list never drops (with the chosen measure's)."""


class RankedListView(QTableView):
    """The ranked list: sortable by any column (run order by default); ``article_activated(id)``
    when the user picks a row; ``rank_move_requested(id, rank)`` when a row is dropped on
    another (:meth:`drop_rank`)."""

    article_activated = Signal(str)
    rank_move_requested = Signal(str, int)

    def __init__(self, model: RankedListModel, parent=None) -> None:
        super().__init__(parent)
        self.source = model
        self._min_width: dict[int, int] = {}
        self._wanted: set[int] = set(COLUMN_KEYS)  # the user's columns (set_visible_columns)
        self._chosen = F  # the chosen measure's column (set_chosen)
        self._dropped: frozenset[int] = frozenset()  # columns out for lack of room (_fill_title)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(model)
        self.proxy.setSortRole(SORT_ROLE)
        self.setModel(self.proxy)
        self.setSortingEnabled(True)
        self.sortByColumn(RANK, Qt.SortOrder.AscendingOrder)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)  # the drop is told, the model stays
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        h = self.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # the title fills the rest (_fill_title)
        h.setMinimumSectionSize(30)
        h.sectionResized.connect(lambda col, *_: col != TITLE and self._fill_title())
        for col, width in ((RANK, 44), (ARTICLE, 70), (RELEVANT, 32), (AVECHP, 54), (T2IF, 70), (LE, 56), (F, 52),
                           (CHP, 70), (T2IP, 70), (ES, 56), (P_SET, 52), (R_SET, 52)):
            self._min_width[col] = width
        self._fit_headers(initial=True)
        model.headerDataChanged.connect(lambda *_: self._fit_headers())
        model.renames_in_place = True
        model.headers_renamed.connect(self._headers_renamed)
        self.set_visible_columns(self._stored_columns())
        h.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        h.customContextMenuRequested.connect(self._column_menu)
        self.clicked.connect(self._emit)
        self.activated.connect(self._emit)
        self._suppress = False
        self._keep: str | None = None
        self._placeholder = ""
        model.modelAboutToBeReset.connect(self._remember_selection)
        model.modelReset.connect(self._restore_selection)
        h.sortIndicatorChanged.connect(lambda *_: self._scroll_to_selection())

    # -- columns ------------------------------------------------------------------------
    def title_least(self) -> int:
        """Pixels of :data:`TITLE_CHARS` average characters and the cell's padding."""
        return self.fontMetrics().averageCharWidth() * TITLE_CHARS + 8

    def _fill_title(self) -> None:
        """The title column takes the width the other shown columns leave, at least
        :data:`TITLE_MIN` (then the list scrolls sideways). Qt's stretching section does the
        same while the others fit, but keeps a stale width once they are wider than the view
        (a laptop's screen): the score columns went out of sight behind a wide title. Where the
        title would be narrower than :meth:`title_least`, the secondary columns of the user's
        drop out, the last first, while the list is that narrow (:func:`shown_columns`)."""
        cols = [c for c in COLUMN_KEYS if c != TITLE and (c in self._wanted or c == self._chosen)]
        keep = [c in KEPT_COLUMNS or c == self._chosen for c in cols]
        fit = shown_columns(self.viewport().width(), [self.columnWidth(c) or self._need(c) for c in cols], keep,
                            self.title_least())
        dropped = frozenset(c for c, on in zip(cols, fit) if not on)
        for c in COLUMN_KEYS:
            hide = c != TITLE and (c not in cols or c in dropped)
            if self.isColumnHidden(c) != hide:
                self.setColumnHidden(c, hide)
        self._dropped = dropped
        others = sum(self.columnWidth(c) for c in COLUMN_KEYS if c != TITLE and not self.isColumnHidden(c))
        want = max(TITLE_MIN, self.viewport().width() - others)
        if self.columnWidth(TITLE) != want:
            self.setColumnWidth(TITLE, want)

    def resizeEvent(self, event) -> None:  # Qt's name
        super().resizeEvent(event)
        self._fill_title()

    def _fit_headers(self, initial: bool = False) -> None:
        """Widen each fixed column to show its whole header ("LE(2000)", "T2IF(10000)") with
        room for the sort arrow; never narrower than its default width (``initial``: set it)."""
        for col in self._min_width:
            need = self._need(col)
            if initial or self.columnWidth(col) < need:
                self.setColumnWidth(col, need)
        self._fill_title()

    def _need(self, col: int) -> int:
        """A fixed column's width: its whole header with room for the sort arrow, at least its
        default width (the width a hidden column shows at)."""
        fm = self.horizontalHeader().fontMetrics()
        text = str(self.source.headerData(col, Qt.Orientation.Horizontal) or "")
        return max(self._min_width.get(col, TITLE_MIN), fm.horizontalAdvance(text) + fm.horizontalAdvance("M") + 12)

    def _headers_renamed(self, _first: int, _last: int) -> None:
        """Score headers renamed: widen what needs it, repaint the header only."""
        self._fit_headers()
        self.horizontalHeader().viewport().update()

    @staticmethod
    def _stored_columns() -> set[int]:
        stored = app_settings().value(COLUMNS_KEY)
        if stored is None:
            return set(COLUMN_KEYS) - set(OPTIONAL_COLUMNS)
        keys = [stored] if isinstance(stored, str) else list(stored)
        cols = {c for c, k in COLUMN_KEYS.items() if k in keys}
        return cols | {TITLE}

    def visible_columns(self) -> set[int]:
        """The user's columns (the header's menu; those a narrow list dropped included)."""
        return set(self._wanted)

    def dropped_columns(self) -> frozenset[int]:
        """The user's columns a narrow list does not show for now (:meth:`_fill_title`)."""
        return self._dropped

    def set_chosen(self, kind: str) -> None:
        """The chosen document measure (``F``, ``aveChP``, ``T2IF``, ``T2IP``, ``LE``, ``ES``):
        its column shows, and a narrow list never drops it."""
        col = KIND_COLUMNS.get(kind, F)
        if col != self._chosen:
            self._chosen = col
            self._fill_title()

    def chosen_column(self) -> int:
        return self._chosen

    def set_visible_columns(self, columns, save: bool = False) -> None:
        """Show exactly ``columns`` (the title always; the chosen measure's too, and a narrow
        list drops the secondary ones: :meth:`_fill_title`); ``save`` remembers them in QSettings."""
        columns = set(columns) | {TITLE}
        self._wanted = columns
        self._fill_title()
        if save:
            app_settings().setValue(COLUMNS_KEY, [COLUMN_KEYS[c] for c in sorted(columns)])

    def column_menu(self) -> QMenu:
        """A menu of checkable actions, one per column but the title: show or hide it."""
        menu = QMenu(self)
        for c in COLUMN_KEYS:
            if c == TITLE:
                continue
            name = self.source.headerData(c, Qt.Orientation.Horizontal)
            a = menu.addAction(name)
            a.setCheckable(True)
            a.setChecked(c in self._wanted)
            a.setData(c)
            a.toggled.connect(lambda on, col=c: self._toggle_column(col, on))
            if c == RELEVANT:
                menu.addSeparator()
        menu.addSeparator()
        menu.addAction("Default columns").triggered.connect(
            lambda: self.set_visible_columns(set(COLUMN_KEYS) - set(OPTIONAL_COLUMNS), save=True))
        return menu

    def _column_menu(self, pos) -> None:
        self.column_menu().popup(self.horizontalHeader().mapToGlobal(pos))

    def _toggle_column(self, column: int, on: bool) -> None:
        cols = self.visible_columns()
        cols = cols | {column} if on else cols - {column}
        self.set_visible_columns(cols, save=True)

    def set_placeholder(self, text: str) -> None:
        """What the empty list says (``Evaluating topic …``); shown only while it has no row."""
        if text != self._placeholder:
            self._placeholder = text
            self.viewport().update()

    def placeholder(self) -> str:
        return self._placeholder

    def paintEvent(self, event) -> None:  # Qt's name
        super().paintEvent(event)
        if self._placeholder and self.proxy.rowCount() == 0:
            p = QPainter(self.viewport())
            p.setPen(look.color("faint"))
            p.drawText(self.viewport().rect().adjusted(12, 12, -12, -12),
                       int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap),
                       self._placeholder)
            p.end()

    # -- selection across sorting and resets ----------------------------------------------
    def selected_article(self) -> str | None:
        rows = self.selectionModel().selectedRows()
        return rows[0].data(ARTICLE_ROLE) if rows else None

    def _remember_selection(self) -> None:
        self._keep = self.selected_article()

    def _restore_selection(self) -> None:
        if self._keep is not None:
            self.select_article(self._keep)
        self._keep = None

    def _scroll_to_selection(self) -> None:
        rows = self.selectionModel().selectedRows()
        if rows:
            self.scrollTo(rows[0])

    def _emit(self, index) -> None:
        if index.isValid() and not self._suppress:
            self.article_activated.emit(index.data(ARTICLE_ROLE))

    def select_article(self, article: str) -> None:
        """Select and show ``article``'s row without emitting ``article_activated``."""
        r = self.source.row_of(article)
        if r < 0:
            self.clearSelection()
            return
        idx = self.proxy.mapFromSource(self.source.index(r, TITLE))
        self._suppress = True
        try:
            self.selectRow(idx.row())
            self.scrollTo(idx)
        finally:
            self._suppress = False

    def step(self, delta: int) -> None:
        """Open the next (``delta`` = 1) or previous (-1) article in the view's order."""
        rows = self.proxy.rowCount()
        if not rows:
            return
        cur = self.currentIndex().row()
        sel = self.selectionModel().selectedRows()
        if sel:
            cur = sel[0].row()
        nxt = min(max(cur + delta, 0), rows - 1) if cur >= 0 else 0
        idx = self.proxy.index(nxt, TITLE)
        self.selectRow(nxt)
        self.scrollTo(idx)
        self.article_activated.emit(idx.data(ARTICLE_ROLE))

    # -- dragging a row to another rank ------------------------------------------------------
    def _dragged(self, event) -> str | None:
        data = event.mimeData()
        return bytes(data.data(RANKED_MIME)).decode("utf-8") if data.hasFormat(RANKED_MIME) else None

    def dragEnterEvent(self, event) -> None:
        if self._dragged(event) is not None:
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:
        super().dragMoveEvent(event)  # the drop indicator
        if self._dragged(event) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        article = self._dragged(event)
        if article is None:
            super().dropEvent(event)
            return
        rank = self.drop_rank(article, event.position().toPoint())
        event.accept()  # the model removes no row (it has no removeRows): the run's order changes
        if rank is not None:
            self.rank_move_requested.emit(article, rank)

    def drop_rank(self, article: str, pos) -> int | None:
        """The rank ``article`` takes when dropped at viewport point ``pos``: just before the
        row under it (its upper half) or just after (its lower half), in rank order; below the
        last row, the last rank. None when ``article`` is not in the list."""
        src = self.source.row_of(article)
        n = self.source.rowCount()
        if src < 0 or not n:
            return None
        old = self.source.row(src).rank
        idx = self.indexAt(pos)
        if not idx.isValid():
            return n if pos.y() > 0 else 1
        target = self.source.row(self.proxy.mapToSource(idx).row()).rank
        rect = self.visualRect(idx)
        after = pos.y() >= rect.center().y()
        if old == target:  # on its own row
            return old
        if old > target:
            return target + 1 if after else target
        return target if after else target - 1
