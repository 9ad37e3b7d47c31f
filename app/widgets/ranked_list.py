"""The topic's ranked list (fetch phase): its view, :class:`RankedListView`, over the table model
of :mod:`.ranked_model` (whose names it gives too).

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

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableView

from .. import appearance as look
from readsim.app.input_files import app_settings
from .. import settings_keys as keys
from .placement import shown_columns
from .table_copy import add_copy_actions
from .ranked_model import (ARTICLE, ARTICLE_ROLE, AVECHP, CHP, COLUMN_KEYS, COLUMNS_KEY, ES, F, LE,  # noqa: F401 - named here too
                           OPTIONAL_COLUMNS, P_SET, R_SET, RANK, RANKED_MIME, RELEVANT, SCORE_COLUMNS, SORT_ROLE, T2IF,
                           T2IP, TITLE, RankedListModel, format_score, list_measures)


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
        add_copy_actions(self)  # the list as shown, for a paper (reference 12.4)
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
        stored = keys.read(app_settings(), keys.RANKED_LIST_COLUMNS)
        if stored is None:
            return set(COLUMN_KEYS) - set(OPTIONAL_COLUMNS)
        names = [stored] if isinstance(stored, str) else list(stored)
        cols = {c for c, k in COLUMN_KEYS.items() if k in names}
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
            keys.write(app_settings(), keys.RANKED_LIST_COLUMNS, [COLUMN_KEYS[c] for c in sorted(columns)])

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
