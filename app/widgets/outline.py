"""The open article's XML structure as a tree: each element's span, length and its share of
relevant and of retrieved text, for picking an element to retrieve whole.

:class:`OutlineModel` is a tree model over :attr:`Article.elements` (document order, nested by
``depth``), usable without a window. Columns: element (the last XPath step, the full XPath as
tooltip), relevant share ``|R ∩ span| / |span|``, retrieved share ``|T ∩ span| / |span|``, and
length and span ``[start, end)`` in the unit. :class:`Outline` binds it
to a :class:`~readsim.app.session.Session` and emits ``element_selected(Element)`` and
``retrieve_requested(Element)`` (double-click, Enter or the "Retrieve element" button).

With qrels and a collection open, three more columns show the element assessments of the
element mode (docs/reference.md section 13.2; :func:`readsim.core.element_retrieval.derive_article`, derived from the
topic's highlighting: a teaching device, not INEX's assessments): ``rsize`` (its highlighted
text, in the unit), exhaustiveness ``e`` and specificity ``s`` (0..3); the element's size is the
Length column. An article the topic does not judge relevant has (0, 0) everywhere.

The outline costs nothing while its dock is hidden: it is filled when shown (``showEvent``).
An article's element index is built on first use (:attr:`Article.elements`, about 45 ms for
the largest real article, 80 ms for a 12 MB one); for a long article
(> :data:`SYNC_CHARS` characters) it is built in a worker
(:class:`~readsim.app.background.LatestJob`), so opening an article never stalls the GUI
thread on it.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QHeaderView, QPushButton, QTreeView, QVBoxLayout, QWidget

from readsim.core import intervals as iv
from readsim.core.text import Article, Element

from .. import appearance as look
from ..background import LatestJob
from ..plain import plain_label, plain_tip
from ..session import Session

#: an article with more characters than this gets its element index built in a worker
SYNC_CHARS = 200_000

NAME, RELEVANT, RETRIEVED, LENGTH, SPAN, RSIZE, E, S = range(8)
HEADERS = ("Element", "Relevant", "Retrieved", "Length", "Span", "rsize", "e", "s")
ASSESSMENT_COLUMNS = (RSIZE, E, S)
ELEMENT_ROLE = Qt.ItemDataRole.UserRole + 1
ROOT = -1


def share(spans: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``|spans ∩ [s, e)| / |[s, e)|`` per element (0 for an empty element)."""
    starts, ends = np.asarray(starts, np.int64), np.asarray(ends, np.int64)
    size = ends - starts
    return np.where(size > 0, iv.covered(spans, starts, ends) / np.maximum(size, 1), 0.0)


class OutlineModel(QAbstractItemModel):
    """Elements of one article as a tree; an index's ``internalId`` is its element's number
    in :attr:`Article.elements` (the invisible root is -1)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.elements: list[Element] = []
        self._parent: list[int] = []
        self._row: list[int] = []
        self._children: dict[int, list[int]] = {ROOT: []}
        self._rel = np.zeros(0)
        self._ret = np.zeros(0)
        self._assessed: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # rsize, e, s per element

    # -- filling ------------------------------------------------------------------------
    def set_article(self, article: Article | None, relevant=iv.EMPTY, retrieved=iv.EMPTY) -> None:
        """Show ``article``'s elements (None: nothing) with the shares of the given passages."""
        self.beginResetModel()
        self.elements = list(article.elements) if article is not None else []
        self._parent, self._row, self._children = [], [], {ROOT: []}
        stack: list[int] = []
        for i, el in enumerate(self.elements):
            while stack and self.elements[stack[-1]].depth >= el.depth:
                stack.pop()
            p = stack[-1] if stack else ROOT
            kids = self._children.setdefault(p, [])
            self._parent.append(p)
            self._row.append(len(kids))
            kids.append(i)
            stack.append(i)
        self._shares(relevant, retrieved)
        self._assessed = None
        self.endResetModel()

    def set_assessments(self, rsize=None, e=None, s=None) -> None:
        """The element assessments of the article's elements (arrays over every element, in
        :attr:`Article.elements` order), or None: the rsize, e, s columns stay empty."""
        self._assessed = None if rsize is None else (np.asarray(rsize), np.asarray(e), np.asarray(s))
        rows = len(self._children[ROOT])
        if rows:
            self.dataChanged.emit(self.index(0, RSIZE), self.index(rows - 1, S))

    def assessment(self, number: int) -> tuple[int, int, int, int] | None:
        """``(size, rsize, e, s)`` of element ``number`` (None without assessments)."""
        if self._assessed is None:
            return None
        r, e, s = self._assessed
        return self.elements[number].length, int(r[number]), int(e[number]), int(s[number])

    def set_passages(self, relevant, retrieved) -> None:
        """New relevant and retrieved passages: the share columns change (``dataChanged`` is
        emitted for the top rows only; a view repaints what it shows, see :class:`Outline`).
        Nothing to do when the passages did not change (a mode or screen change)."""
        key = (np.asarray(relevant).tobytes(), np.asarray(retrieved).tobytes())
        if key == getattr(self, "_passages_key", None):
            return
        self._shares(relevant, retrieved)
        rows = len(self._children[ROOT])
        if rows:
            self.dataChanged.emit(self.index(0, RELEVANT), self.index(rows - 1, RETRIEVED))

    def _shares(self, relevant, retrieved) -> None:
        self._passages_key = (np.asarray(relevant).tobytes(), np.asarray(retrieved).tobytes())
        starts = np.fromiter((e.start for e in self.elements), np.int64, len(self.elements))
        ends = np.fromiter((e.end for e in self.elements), np.int64, len(self.elements))
        self._rel = share(iv.normalize(relevant), starts, ends)
        self._ret = share(iv.normalize(retrieved), starts, ends)

    def element(self, index: QModelIndex) -> Element | None:
        return self.elements[index.internalId()] if index.isValid() else None

    def index_of(self, number: int, column: int = 0) -> QModelIndex:
        """The index of element ``number`` (its position in :attr:`Article.elements`)."""
        return self.createIndex(self._row[number], column, number)

    def relevant_share(self, number: int) -> float:
        return float(self._rel[number])

    def retrieved_share(self, number: int) -> float:
        return float(self._ret[number])

    # -- Qt model API -------------------------------------------------------------------
    def index(self, row, column, parent=QModelIndex()):
        kids = self._children.get(parent.internalId() if parent.isValid() else ROOT, [])
        if 0 <= row < len(kids) and 0 <= column < len(HEADERS):
            return self.createIndex(row, column, kids[row])
        return QModelIndex()

    def parent(self, index=QModelIndex()):
        if not index.isValid():
            return QModelIndex()
        p = self._parent[index.internalId()]
        return QModelIndex() if p == ROOT else self.createIndex(self._row[p], 0, p)

    def rowCount(self, parent=QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._children.get(parent.internalId() if parent.isValid() else ROOT, ()))

    def columnCount(self, parent=QModelIndex()) -> int:
        return len(HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole:
                return HEADERS[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return ("XPath step (the whole XPath in each row's tooltip)", "|R ∩ span| / |span|",
                        "|T ∩ span| / |span|", "end − start: the element's size", "[start, end) in the unit",
                        "rsize: the element's highlighted text (element assessments, derived from the qrels)",
                        "exhaustiveness 0..3: rsize / the article's highlighted text, graded at 1/3 and 2/3",
                        "specificity 0..3: rsize / size, graded at 1/3 and 2/3")[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        i, c = index.internalId(), index.column()
        el = self.elements[i]
        if role == Qt.ItemDataRole.DisplayRole:
            if c == NAME:
                return el.xpath.rsplit("/", 1)[-1]
            if c == SPAN:
                return f"{el.start:,}–{el.end:,}"
            if c == LENGTH:
                return f"{el.length:,}"
            if c in ASSESSMENT_COLUMNS:
                if self._assessed is None:
                    return ""
                value = int(self._assessed[c - RSIZE][i])
                return f"{value:,}" if c == RSIZE else str(value)
            value = self._rel[i] if c == RELEVANT else self._ret[i]
            return "–" if el.length == 0 else f"{value:.0%}" if value in (0.0, 1.0) else f"{value:.1%}"
        if role == ELEMENT_ROLE:
            return el
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = f"{el.xpath}\n[{el.start}, {el.end}): {el.length:,} · relevant {self._rel[i]:.1%} · retrieved {self._ret[i]:.1%}"
            if self._assessed is not None:
                r, e, s = (int(a[i]) for a in self._assessed)
                tip += f"\nsize {el.length:,}, rsize {r:,}, e {e}, s {s} (derived from the highlighting)"
            return plain_tip(tip)
        if role == Qt.ItemDataRole.TextAlignmentRole and c != NAME:
            if c in (E, S):
                return int(Qt.AlignmentFlag.AlignCenter)
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and c in ASSESSMENT_COLUMNS and self._assessed is not None \
                and self._assessed[0][i] == 0:
            return look.brush("disabled")
        if role == Qt.ItemDataRole.BackgroundRole and c in (RELEVANT, RETRIEVED):
            value = self._rel[i] if c == RELEVANT else self._ret[i]
            if value > 0:
                return QBrush(look.tint("relevant", int(40 + 140 * value)) if c == RELEVANT
                              else look.tint("accent", int(20 + 70 * value)))
        return None


class Outline(QWidget):
    """The outline of the open article: a tree and a "Retrieve element" button."""

    element_selected = Signal(object)
    retrieve_requested = Signal(object)

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.summary = plain_label()
        self.summary.setStyleSheet(f"color:{look.css('muted')};")
        self.model = OutlineModel(self)
        self.tree = QTreeView()
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setExpandsOnDoubleClick(False)
        self.tree.setIndentation(10)  # Wikipedia XML nests deep (YAGO tags: 40 levels)
        h = self.tree.header()
        h.setStretchLastSection(False)
        for col, width in ((NAME, 150), (RELEVANT, 62), (RETRIEVED, 66), (LENGTH, 58), (SPAN, 96), (RSIZE, 56),
                           (E, 26), (S, 26)):
            h.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            self.tree.setColumnWidth(col, width)
        self.retrieve_btn = QPushButton("Retrieve element")
        self.retrieve_btn.setToolTip("Add the selected element's whole span to the retrieved passages (double-click)")
        self.retrieve_btn.setEnabled(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.summary, 1)
        buttons.addWidget(self.retrieve_btn)
        lay.addWidget(self.tree, 1)
        lay.addLayout(buttons)

        self.tree.selectionModel().currentRowChanged.connect(self._current)
        self.tree.doubleClicked.connect(self._request)
        self.tree.activated.connect(self._request)
        self.retrieve_btn.clicked.connect(lambda: self._request(self.tree.currentIndex()))
        self._pending = True  # the open article changed while the outline was hidden
        self._article: Article | None = None  # the article whose elements the model holds
        self._assessed_key: tuple | None = None  # (article, topic, qrels) of the model's assessments
        for col in ASSESSMENT_COLUMNS:
            self.tree.setColumnHidden(col, True)
        self._indexing = LatestJob(self)  # the elements of the article shown last only
        session.article_changed.connect(self.show_current)
        session.evaluation_changed.connect(self.update_passages)
        self.show_current()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._pending:
            self.show_current()

    def show_current(self) -> None:
        """Show the open article's elements (when visible; else when next shown)."""
        if not self.isVisible():
            self._pending = True
            return
        self._pending = False
        cur = self.session.current
        article = cur.article if cur is not None else None
        self.retrieve_btn.setEnabled(False)
        if article is not None and article is self._article:
            self.update_passages()
            return
        self._indexing.cancel()  # a slower indexing of the article before is stale now
        self._article = None
        if article is None:
            self.model.set_article(None)
            self.summary.setText("No article text open." if cur is not None else "No article open.")
            return
        if "elements" in vars(article) or len(article.text) <= SYNC_CHARS:
            self._fill(article)
            return
        self.model.set_article(None)
        self.summary.setText("Indexing the article's elements…")
        from readsim.core.element_retrieval.tree import element_tree  # the element metrics: when an outline is first shown

        # nothing newer was shown meanwhile: show what is open now
        self._indexing.start(lambda _progress: (article.elements, element_tree(article)), lambda _e: self.show_current())

    def _fill(self, article: Article) -> None:
        ev = self.session.current.evaluation
        self._article = article
        self.model.set_article(article, ev.relevant, ev.retrieved_spans)
        self._assessed_key = None
        self.update_assessments()
        self.summary.setText(f"{len(article.elements):,} elements · {self.session.unit}")
        self.tree.expandToDepth(1)

    def update_assessments(self) -> None:
        """The rsize, e, s columns of the shown article for the session's topic (shown when
        qrels and a collection are open; :func:`derive_article` on the topic's highlighting)."""
        s, article = self.session, self._article
        key = (article, s.topic, s.qrels)
        if key == self._assessed_key:
            return
        self._assessed_key = key
        on = article is not None and s.qrels is not None and s.collection is not None and s.topic is not None
        for col in ASSESSMENT_COLUMNS:
            self.tree.setColumnHidden(col, not on)
        if not on:
            self.model.set_assessments(None)
            return
        from readsim.core.element_retrieval import derive_article

        j = s.qrels.judgement(s.topic, article.name)
        a = derive_article(article, j.passages if j is not None and j.relevant else iv.EMPTY)
        self.model.set_assessments(a.rsize, a.e, a.s)

    def update_passages(self) -> None:
        if not self.isVisible():
            self._pending = True
            return
        cur = self.session.current
        if cur is not None and cur.article is not None and cur.article is self._article:
            self.model.set_passages(cur.evaluation.relevant, cur.evaluation.retrieved_spans)
            self.update_assessments()
            self.tree.viewport().update()

    def reveal(self, number: int) -> QModelIndex:
        """Expand to element ``number`` and scroll it into view, also sideways (deep elements
        are indented past the view's width); returns its index."""
        idx = self.model.index_of(number)
        self.tree.scrollTo(idx)
        rect = self.tree.visualRect(idx)
        bar = self.tree.horizontalScrollBar()
        if rect.left() < 0 or rect.left() + 60 > self.tree.viewport().width():
            bar.setValue(bar.value() + rect.left() - 24)
        return idx

    def select_element(self, number: int) -> None:
        """Select (and show) element ``number`` of the open article."""
        self.tree.setCurrentIndex(self.reveal(number))

    def _current(self, index: QModelIndex, _prev=None) -> None:
        el = self.model.element(index)
        self.retrieve_btn.setEnabled(el is not None)
        if el is not None:
            self.element_selected.emit(el)

    def _request(self, index: QModelIndex) -> None:
        el = self.model.element(index)
        if el is not None:
            self.retrieve_requested.emit(el)
