"""The Explain dock (View ▸ Explain): a document measure's formula with the open article's numbers.

For the open article and the reader's settings, ``readsim.article``'s explanation
(:meth:`readsim.operations.article.ArticleEvaluation.explain` of :func:`readsim.app.articles.shown_article`,
the score panel's object) gives the chosen measure's formula (reference §4, its section named),
the formula with this article's numbers written in and its result (the score the scores panel
shows: for an article the run does not rank, the score if retrieved whole, as that panel says),
and the formula's terms. The measure chooser lists the scores panel's measures for the current settings (and ``BEP(500)``);
any document measure may be typed (``ChP@600``, ``T2IF(300,0.5)``). Clicking a term's row
highlights the characters it counts in the article view (a translucent violet overlay over
the view's text, :class:`SpanOverlay`) and scrolls to the first; :attr:`ExplainPanel.selected`
holds them as unit spans.

Text: the formulas and numbers are ours; the only text from input files, the article's name and
the topic, goes through :func:`readsim.app.plain.esc` (app/plain.py rules). Everything runs in
the GUI thread: an explanation is O(pieces), rebuilt only while the dock is shown
(:class:`~readsim.app.widgets.tables.FollowingPanel`).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QObject, QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath, QPen, QTextCursor
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QHeaderView, QVBoxLayout, QWidget

from readsim.operations.article_reading import panel_measures
from readsim.core import intervals as iv
from readsim.core.explain import Explanation, Term, number
from readsim.core.measure import parse_measure

from .. import appearance as look
from ..articles import shown_article
from ..plain import amount, esc, plain_label, rich_label
from ..session import Session
from .tables import BottomDock, FollowingPanel, WholeRows, build_bottom_dock, row_table

SHORTCUT = "Ctrl+Alt+X"
EXTRA = ("BEP(500)",)  # offered after the scores panel's measures
TERM, VALUE, COUNTED = range(3)
SPANS_ROLE = Qt.ItemDataRole.UserRole + 1  # a row's spans ((k, 2) int64, the unit)
HIGHLIGHT = "violet"  # the term's characters' role (none of the marks' colours)


class TermsModel(QAbstractTableModel):
    """The terms of one :class:`Explanation`: term, value, and how many units it counts (in
    how many spans). Filled by :meth:`set_explanation`; :data:`SPANS_ROLE` gives a row's spans."""

    HEADERS = ("Term", "Value", "Counts")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.terms: list[Term] = []
        self.unit = "bytes"

    def set_explanation(self, e: Explanation | None) -> None:
        self.beginResetModel()
        self.terms = list(e.terms) if e is not None else []
        self.unit = e.unit if e is not None else self.unit
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.terms)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        t = self.terms[index.row()]
        if role == SPANS_ROLE:
            return t.spans
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() != TERM:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return "Click to highlight the characters this term counts" if len(t.spans) else "A parameter: it counts no characters"
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if index.column() == TERM:
            return t.label
        if index.column() == VALUE:
            return number(t.value)
        if not len(t.spans):
            return "–"
        return f"{amount(iv.total(t.spans), self.unit)} in {amount(len(t.spans), 'spans')}"


class SpanOverlay(QWidget):
    """A transparent layer over an :class:`~readsim.app.widgets.article_view.ArticleView`'s
    viewport that paints display spans (:meth:`set_spans`) as violet boxes over the text, the
    visible ones only; it follows the view's scrolling and size and lets every mouse event
    through. Hidden while it has no span: a shown transparent layer asks for the whole viewport
    to be repainted with it on every scroll, and Qt's repaint of the window then painted the
    (opaque) viewport twice, once alone and once under the layer."""

    def __init__(self, view) -> None:
        super().__init__(view.viewport())
        self.view = view
        self.spans: list[tuple[int, int]] = []
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setGeometry(view.viewport().rect())
        view.viewport().installEventFilter(self)
        view.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.hide()

    def set_spans(self, spans: list[tuple[int, int]]) -> None:
        self.spans = [(int(a), int(b)) for a, b in spans if b > a]
        if self.spans:
            self.setGeometry(self.view.viewport().rect())
            self.show()
            self.update()
        elif not self.isHidden():
            self.hide()

    def _scrolled(self, _value: int) -> None:
        """Stay over the viewport: a text view scrolls its viewport with ``QWidget.scroll``,
        which moves the viewport's children with its pixels (this layer too, else its boxes
        drift off by the scrolled distance); repaint the spans at their new places."""
        if self.pos() != QPoint(0, 0):
            self.move(0, 0)
        if not self.isHidden():
            self.update()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.setGeometry(self.view.viewport().rect())
        return False

    def rects(self) -> list[QRect]:
        """Viewport rects of the visible parts of the spans."""
        if not self.spans or self.view.layout_ is None:
            return []
        lo, hi = self.view.visible_range()
        out = []
        for a, b in self.spans:
            a, b = max(a, lo), min(b, hi + 1)
            if b > a:
                out += self._rects(a, b)
        return out

    def _rects(self, a: int, b: int) -> list[QRect]:
        doc = self.view.document()
        last = max(doc.characterCount() - 1, 0)
        c = QTextCursor(doc)
        c.setPosition(min(a, last))
        r1 = self.view.cursorRect(c)
        c.setPosition(min(b, last))
        r2 = self.view.cursorRect(c)
        if r1.top() == r2.top():
            return [QRect(r1.left(), r1.top(), max(r2.left() - r1.left(), 2), r1.height())]
        left, right = int(doc.documentMargin()), self.width() - 8
        out = [QRect(r1.left(), r1.top(), right - r1.left(), r1.height())]
        if r2.top() > r1.bottom() + 1:
            out.append(QRect(left, r1.bottom() + 1, right - left, r2.top() - r1.bottom() - 1))
        return out + [QRect(left, r2.top(), max(r2.left() - left, 2), r2.height())]

    def paintEvent(self, event) -> None:
        rects = self.rects()
        if not rects:
            return
        shape = QPainterPath()
        for r in rects:
            shape.addRect(QRectF(r))
        shape = shape.simplified()  # one outline around the lines of a span
        fill = look.color(HIGHLIGHT, 55)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillPath(shape, fill)
        p.strokePath(shape, QPen(look.color(HIGHLIGHT), 1.2))
        p.end()


class ExplainPanel(FollowingPanel):
    """The chooser, the formula with this article's numbers and the terms, over a
    :class:`Session`; ``view``: the window's article view (optional), where a term's characters
    are highlighted. :attr:`explanation` is the one shown (None without an article or with a
    measure that does not parse; :attr:`problem` then says why)."""

    def __init__(self, session: Session, view=None, parent=None) -> None:
        super().__init__(session, parent)
        self.view = view
        self.overlay = SpanOverlay(view) if view is not None else None
        self.explanation: Explanation | None = None
        self.problem = ""
        self.hidden: frozenset[str] = frozenset()  # measures a lesson's question hides until answered
        self.selected = iv.EMPTY  # the highlighted term's spans, in the unit

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 2, 6, 2)
        lay.setSpacing(3)
        top = QHBoxLayout()
        self.chooser = QComboBox()
        self.chooser.setEditable(True)
        self.chooser.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.chooser.setMinimumContentsLength(16)
        self.chooser.setToolTip("A document measure (reference §4): the scores panel's, or type any, e.g. ChP@600")
        self.header = rich_label()
        self.header.setWordWrap(True)
        top.addWidget(plain_label("Measure:"))
        top.addWidget(self.chooser)
        top.addWidget(self.header, 1)
        self.formula = rich_label()
        self.formula.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.formula.setWordWrap(True)
        self.model = TermsModel(self)
        self.table = row_table(self.model)
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        h.setSectionResizeMode(TERM, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        self.status = plain_label()
        self.status.setStyleSheet(f"color:{look.css('muted')};")
        lay.addLayout(top)
        lay.addWidget(self.formula)
        lay.addWidget(WholeRows(self.table), 1)  # no row cut at the bottom
        lay.addWidget(self.status)
        self._fill_chooser(0)
        self.chooser.activated.connect(lambda _: self.refresh())
        self.chooser.lineEdit().editingFinished.connect(self.refresh)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._selection())
        session.settings_changed.connect(self._settings_changed)
        self.follow()

    # -- the chooser ---------------------------------------------------------------------------
    def names(self) -> list[str]:
        """The chooser's measures: the scores panel's for the current settings, then :data:`EXTRA`."""
        return [m.name for m in panel_measures(self.session.settings)] + list(EXTRA)

    def _fill_chooser(self, index: int) -> None:
        self.chooser.blockSignals(True)
        self.chooser.clear()
        self.chooser.addItems(self.names())
        self.chooser.setCurrentIndex(index)
        self.chooser.blockSignals(False)

    def _settings_changed(self, _settings) -> None:
        """New settings rename the panel's measures (``LE(300)`` -> ``LE(2000)``): the same row
        stays chosen; a measure typed by the user stays as typed."""
        text = self.chooser.currentText()
        names = self.names()
        if [self.chooser.itemText(i) for i in range(self.chooser.count())] == names:
            return  # the same names (a mode change): refilled, the combo re-laid itself out for nothing
        index = self.chooser.findText(text, Qt.MatchFlag.MatchExactly)
        self._fill_chooser(max(index, 0))
        if index < 0:
            self.chooser.setEditText(text)

    def choose(self, name: str) -> None:
        """Explain measure ``name`` (as if chosen or typed in the chooser)."""
        index = self.chooser.findText(name, Qt.MatchFlag.MatchExactly)
        if index >= 0:
            self.chooser.setCurrentIndex(index)
        else:
            self.chooser.setEditText(name)
        self.refresh()

    # -- the explanation -------------------------------------------------------------------------
    def rebuild(self) -> None:
        s, cur = self.session, self.session.current
        self._rendered = s.settings
        self.problem = ""
        self.explanation = None
        name = self.chooser.currentText().strip()
        whole = cur is not None and cur.row is None
        if cur is not None and self._hidden(name):
            self.problem = f"{name}: hidden until you answer the lesson's question"
        elif cur is not None:
            try:
                self.explanation = shown_article(cur, s.settings, s.topic, s.qrels, s.run, s.unit).explain(name)
            except ValueError as exc:
                self.problem = str(exc)
        self.model.set_explanation(self.explanation)
        self._select(iv.EMPTY)
        self._show(cur, whole)

    def _hidden(self, name: str) -> bool:
        if not self.hidden:
            return False
        try:
            return parse_measure(name).name in self.hidden
        except ValueError:
            return False

    def hide_measures(self, names) -> None:
        """Explain none of the measures ``names`` (canonical names): a lesson's question asks
        about them (:mod:`readsim.app.widgets.lesson_steps`); called again without them, explain."""
        self.hidden = frozenset(names)
        self.refresh()

    def _show(self, cur, whole: bool) -> None:
        e = self.explanation
        if cur is None:
            self.header.setText("<i>No article open.</i>")
        else:
            what = "if retrieved whole (the run does not rank it)" if whole else f"{esc(self.session.settings.mode.value)} reading"
            self.header.setText(f"article <b>{esc(cur.name)}</b> · topic {esc(self.session.topic or '')} · {what}")
        if e is None:
            self.formula.setText(f"<span style='color:{look.css('bad')}'>{esc(self.problem)}</span>" if self.problem else "")
            self.status.setText("")
            return
        note = f"<br><i>{esc(e.note)}</i>" if e.note else ""
        self.formula.setText(
            f"<span style='color:{look.css('muted')}'>reference §{esc(e.reference)}</span><br>"
            f"<span style='font-family:monospace'>{esc(e.formula)}<br><b>{esc(e.substituted)}</b></span>{note}")
        self.status.setText(f"Click a term to highlight the {e.unit} it counts in the article.")

    # -- a term's characters -------------------------------------------------------------------
    def hideEvent(self, event) -> None:
        """A hidden dock highlights nothing."""
        super().hideEvent(event)
        self.table.clearSelection()
        self._select(iv.EMPTY)

    def _selection(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        self._select(self.model.terms[rows[0].row()].spans if rows else iv.EMPTY, scroll=True)

    def select_term(self, symbol: str) -> None:
        """Click the row of the term whose symbol is ``symbol`` (``KeyError`` if none)."""
        rows = [i for i, t in enumerate(self.model.terms) if t.symbol == symbol]
        if not rows:
            raise KeyError(symbol)
        self.table.selectRow(rows[0])

    def _select(self, spans: np.ndarray, scroll: bool = False) -> None:
        self.selected = spans
        cur, v = self.session.current, self.view
        if self.overlay is None or cur is None or cur.layout is None or v.layout_ is not cur.layout:
            if self.overlay is not None:
                self.overlay.set_spans([])
            return
        shown = cur.layout.spans_to_display(spans) if len(spans) else np.zeros((0, 2), np.int64)
        self.overlay.set_spans(shown.tolist())
        if len(spans):
            unit = self.explanation.unit if self.explanation is not None else "bytes"
            self.status.setText(f"Highlighted: {amount(iv.total(spans), unit)} in "
                                f"{amount(len(spans), 'spans')} (violet in the article)")
        if scroll and len(shown):
            v.scroll_to_position(int(shown[0, 0]))


def build_explain(window) -> BottomDock:
    """The "Explain" dock of ``window`` (bottom, hidden at first, tabbed with the other bottom
    docks) with View ▸ Explain (Ctrl+Alt+X): the window keeps them as ``explain``,
    ``explain_dock`` and ``act_explain``."""
    panel = ExplainPanel(window.session, window.article.view)
    return build_bottom_dock(window, panel, "explain", "Explain", SHORTCUT,
                             "A measure's formula with the open article's numbers; click a term to see what it counts",
                             lambda d: (not d.isVisible(), d.objectName() not in ("topic", "passages")))
