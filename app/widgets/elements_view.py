"""The element mode (issue 11 item 8): element retrieval as INEX 2002-2005 evaluated it
(seed 004, Gövert et al. 2006), apart from the focused-task views.

:class:`ElementsPanel`, in a dock of its own (View ▸ "Element retrieval (INEX 2002/2003)",
Ctrl+Alt+L), works on the session's qrels and collection and follows the window's topic (its
own topic chooser lists every qrels topic with relevant articles, the complete ones said so):

- a **run chooser**: the simulated ``perfect`` and ``ancestors`` runs (built from the topic's
  element assessments derived from the qrels' highlighting) and element runs read from files
  ("Open element run…": 7-field XPath lines or XML ``<path>`` runs; an error is a message naming
  file and line);
- the **ranked elements** (:class:`ElementTableModel`): rank, article, XPath, e, s, the
  quantised f (strict and gen, eqs 8-9), size, the text no earlier element showed (unseen) and
  the overlap with earlier elements;
- the **article** of the selected element (:class:`ElementArticleView`, an
  :class:`~readsim.app.widgets.article_view.ArticleView` whose gutter draws every retrieved
  element of the article as a bracket, outer brackets left, one column per nesting level, so
  nesting and overlap show; the selected element's bracket orange and its text framed; the text
  already shown by the elements ranked before it shaded grey; highlighted text yellow). Only the
  brackets and shading of the visible lines are painted;
- the **scores** (:class:`ApGrid`): AP of INEX 2002, 2003 s and 2003 o for strict and gen side
  by side, each with its difference to the perfect run (the overlap effect at a glance), and a
  precision-recall plot (:class:`PrecisionRecall`) of the chosen metric with the other simulated
  run dashed for reference.

Everything is computed in the background (:func:`~readsim.app.background.run_in_background`):
a topic's assessments and all its runs at once (:func:`readsim.app.elements_model.prepare_topic`),
so switching runs redraws at once; an article's text and layout when first shown (a few are
kept). Inputs that cannot give a view (no collection, no qrels, a topic without relevant
articles in the collection) show a plain message instead.

:func:`build_elements_dock` adds the dock to a main window (on first use of the View menu's entry, :mod:`.on_demand`).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QAbstractTableModel, QEvent, QItemSelectionModel, QModelIndex, QRect, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (QComboBox, QDockWidget, QFileDialog, QGridLayout, QHBoxLayout, QHeaderView, QProgressBar, QPushButton, QSizePolicy, QSplitter, QStackedWidget, QToolTip,
                               QVBoxLayout, QWidget)

from readsim.engine import intervals as iv
from readsim.engine.elements import RECALL_POINTS, read_element_run
from readsim.engine.elements import quantise
from readsim.engine.elements.tree import element_tree
from readsim.engine.layout import layout

from .. import elements_model as em
from ..background import input_error_text, run_in_background
from ..files import app_settings
from ..marks import Marks
from ..plain import amount, esc, plain_label, plain_tip, rich_label
from ..session import Session
from .article_view import GUTTER, RELEVANT, ArticleView
from .list_plot import cache_axes

from .on_demand import ELEMENTS_TEXT as ACTION_TEXT
from .tables import row_table
ARTICLES_KEPT = 6  # parsed and laid-out articles kept by the panel

SELECTED = QColor("#e8590c")      # the selected element: its bracket
REL_BRACKET = QColor("#1a7f37")   # a bracket of an element with f_gen > 0
NONREL_BRACKET = QColor("#7d8590")  # a bracket of an element with f_gen = 0
SEEN_FILL = QColor(95, 100, 120, 48)   # text shown by earlier-ranked elements
SEEN_HATCH = QColor(95, 100, 120, 80)
GUTTER_BG = QColor("#f3f4f6")
STEP_MAX = 8      # pixels between two nesting levels
STEP_MIN = 3
GUTTER_MAX = 150  # the bracket gutter never grows wider than this
EMPTY = np.zeros((0, 2), dtype=np.int64)


def _fmt_ap(value: float) -> str:
    return "—" if value is None or math.isnan(value) else f"{value:.4f}"


def _fmt_f(value: float) -> str:
    return f"{value:.2f}"


# -- the ranked elements ------------------------------------------------------------------------

POS, RANK, ARTICLE, XPATH, E, S, F_STRICT, F_GEN, SIZE, UNSEEN, OVERLAP = range(11)
HEADERS = ("#", "Rank", "Article", "XPath", "e", "s", "f strict", "f gen", "Size", "Unseen", "Overlap")
HEADER_TIPS = (
    "position in the run (line order)", "rank (consecutive lines with the same rsv share one: a tie)",
    "article (file name)", "the element's XPath", "exhaustiveness 0..3 (derived: rsize / the article's relevant text)",
    "specificity 0..3 (derived: rsize / size)", "f_strict(e, s), eq. 8: 1 for (3, 3), else 0",
    "f_gen(e, s), eq. 9", "the element's size |c| in the unit",
    "|c − ∪ earlier c|: its text no earlier element showed (INEX 2003 o counts only this)",
    "how much of the element earlier elements already showed")
POSITION_ROLE = Qt.ItemDataRole.UserRole + 1
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)


class ElementTableModel(QAbstractTableModel):
    """The ranked elements of one :class:`~readsim.app.elements_model.RunView` (plain lists
    filled by :meth:`set_view`; usable without a window)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.view: em.RunView | None = None
        self.unit = "bytes"
        self._texts: list[tuple[str, ...]] = []
        self._fgen = np.zeros(0)
        self._seen = np.zeros(0, dtype=np.int64)
        self._size = np.zeros(0, dtype=np.int64)

    def set_view(self, view: em.RunView | None, unit: str = "bytes") -> None:
        self.beginResetModel()
        self.view, self.unit = view, unit
        self._texts = []
        if view is not None:
            v = view.values
            fs, fg = v.f("strict"), v.f("gen")
            self._fgen, self._seen, self._size = fg, v.seen, v.size
            for k, r in enumerate(view.entries):
                size, unseen = int(v.size[k]), int(v.unseen[k])
                seen = size - unseen
                overlap = "—" if seen <= 0 else ("all seen" if unseen == 0 else f"{seen / size:.0%} seen")
                self._texts.append((str(k + 1), str(int(v.rank[k])), r.article, r.xpath, str(int(v.e[k])),
                                    str(int(v.s[k])), _fmt_f(fs[k]), _fmt_f(fg[k]), f"{size:,}", f"{unseen:,}",
                                    overlap))
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._texts)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole:
                return HEADERS[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return HEADER_TIPS[section]
        return None

    def text(self, row: int, column: int) -> str:
        return self._texts[row][column]

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        k, c = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._texts[k][c]
        if role == POSITION_ROLE:
            return k
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _CENTER if c in (E, S) else (_RIGHT if c not in (ARTICLE, XPATH, OVERLAP) else None)
        if role == Qt.ItemDataRole.ForegroundRole:
            if c in (F_STRICT, F_GEN, E, S) and self._fgen[k] == 0:
                return QBrush(QColor("#888888"))
            if c == OVERLAP and self._seen[k] > 0:
                return QBrush(QColor("#6b4f00"))
        if role == Qt.ItemDataRole.BackgroundRole:
            if c == F_GEN and self._fgen[k] > 0:
                color = QColor(REL_BRACKET)
                color.setAlpha(int(30 + 90 * self._fgen[k]))
                return QBrush(color)
            if c == OVERLAP and self._seen[k] > 0:
                color = QColor(SEEN_FILL)
                color.setAlpha(int(25 + 70 * self._seen[k] / max(int(self._size[k]), 1)))
                return QBrush(color)
        if role == Qt.ItemDataRole.ToolTipRole and self.view is not None:
            r = self.view.entries[k]
            v = self.view.values
            line = f" · line {r.line}" if r.line else ""
            return plain_tip(f"{r.article} {r.xpath}\nrank {r.rank} · rsv {r.rsv:g}{line}\n"
                             f"e {int(v.e[k])}, s {int(v.s[k])} · f strict {_fmt_f(v.f('strict')[k])}, "
                             f"f gen {_fmt_f(v.f('gen')[k])}\nsize {amount(int(v.size[k]), self.unit)}, unseen "
                             f"{int(v.unseen[k]):,}, already shown {int(v.seen[k]):,}")
        return None


# -- the article with its brackets --------------------------------------------------------------


class _BracketGutter(QWidget):
    """The article view's left margin: one bracket per retrieved element of the article."""

    def __init__(self, view: ElementArticleView) -> None:
        super().__init__(view)
        self.view = view
        self.setMouseTracking(True)

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(event.rect(), GUTTER_BG)
        p.setPen(QPen(QColor("#d5d8de"), 1))
        p.drawLine(self.width() - 1, 0, self.width() - 1, self.height())
        selected = None
        for g in self.view.drawn():
            if g["selected"]:
                selected = g
                continue
            self._bracket(p, g)
        if selected is not None:  # on top
            self._bracket(p, selected)
        p.end()

    def _bracket(self, p: QPainter, g: dict) -> None:
        color = QColor(g["color"])
        path = QPainterPath()
        x, y1, y2, tick = g["x"], g["y1"], g["y2"], g["tick"]
        path.moveTo(x + (tick if g["top"] else 0), y1)
        path.lineTo(x, y1)
        path.lineTo(x, y2)
        path.lineTo(x + (tick if g["bottom"] else 0), y2)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(color, g["width"], Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap, Qt.PenJoinStyle.MiterJoin))
        p.drawPath(path)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        k = self.view.bracket_at(event.position().toPoint())
        if k is not None:
            self.view.bracket_clicked.emit(k)

    def event(self, event) -> bool:  # noqa: D401
        if event.type() == QEvent.Type.ToolTip:
            k = self.view.bracket_at(event.pos())
            if k is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), self.view.describe(k), self)
            return True
        return super().event(event)


class ElementArticleView(ArticleView):
    """An :class:`ArticleView` (text, relevant marks, lazy painting of the visible lines) whose
    gutter draws brackets instead of the matching chain.

    :meth:`set_brackets` gives the article's retrieved elements
    (:class:`~readsim.app.elements_model.Bracket`, unit offsets) and what each is worth;
    :meth:`select` the selected one (framed, its bracket orange) and the unit spans to shade
    (the text earlier-ranked elements showed). ``bracket_clicked(position)`` when a bracket is
    clicked. :meth:`brackets`, :meth:`shaded` and :meth:`drawn` say what is shown."""

    bracket_clicked = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._chain_gutter = self._gutter  # the passage view's gutter: not used here
        self._chain_gutter.hide()
        self._gutter = _BracketGutter(self)
        self.verticalScrollBar().valueChanged.connect(self._gutter.update)
        self._brackets: list[em.Bracket] = []
        self._spans: list[tuple[int, int]] = []  # display span of each bracket
        self._fgen: dict[int, float] = {}  # position -> f_gen
        self._info: dict[int, str] = {}  # position -> tooltip
        self._selected: int | None = None
        self._seen = EMPTY
        self._seen_display: list[tuple[int, int]] = []
        self._step = STEP_MAX
        self._gutter_w = GUTTER
        self._levels = 0
        self._relevant = EMPTY
        self.set_gutter_width(GUTTER)

    # -- content ------------------------------------------------------------------------
    def set_gutter_width(self, width: int) -> None:
        self._gutter_w = int(width)
        self.setViewportMargins(self._gutter_w, 0, 0, 0)
        cr = self.contentsRect()
        self._gutter.setGeometry(QRect(cr.left(), cr.top(), self._gutter_w, cr.height()))

    def gutter_width(self) -> int:
        return self._gutter_w

    def gutter(self) -> QWidget:
        """The bracket gutter (left of the text)."""
        return self._gutter

    def show_elements(self, lay, relevant: np.ndarray, items: list[em.Bracket], fgen: dict[int, float],
                      info: dict[int, str]) -> None:
        """Show the laid-out article with its relevant text (unit spans) and its retrieved
        elements ``items``; ``fgen`` and ``info`` per run position (colour and tooltip). The
        gutter is as wide as the nesting needs (up to :data:`GUTTER_MAX`)."""
        self._relevant = iv.normalize(relevant)
        self._levels = 1 + max((b.level for b in items), default=0)
        self._step = max(STEP_MIN, min(STEP_MAX, (GUTTER_MAX - 14) // self._levels))
        self.set_gutter_width(max(GUTTER - 14, min(GUTTER_MAX, 10 + self._levels * self._step + 4)))
        self.show_article(lay, Marks(lay.spans_to_display(self._relevant), EMPTY, EMPTY, ()))
        self._set_items(lay, items, fgen, info)

    def set_brackets(self, items: list[em.Bracket], fgen: dict[int, float], info: dict[int, str]) -> None:
        """New brackets on the article shown (another run of the same article)."""
        if self.layout_ is None:
            return
        if 1 + max((b.level for b in items), default=0) != self._levels:  # the gutter's width follows the nesting
            bar = self.verticalScrollBar().value()
            self.show_elements(self.layout_, self._relevant, items, fgen, info)
            self.verticalScrollBar().setValue(bar)
            return
        self._set_items(self.layout_, items, fgen, info)

    def _set_items(self, lay, items, fgen, info) -> None:
        self._brackets = list(items)
        if items:
            starts = lay.to_display(np.array([b.start for b in items], dtype=np.int64), "start")
            ends = lay.to_display(np.array([b.end for b in items], dtype=np.int64), "end")
            self._spans = [(int(a), int(b)) for a, b in zip(starts, ends)]
        else:
            self._spans = []
        self._fgen, self._info = dict(fgen), dict(info)
        self._selected = None
        self._seen, self._seen_display = EMPTY, []
        self.set_window([], scroll=False)
        self.viewport().update()
        self._gutter.update()

    def show_message(self, text: str) -> None:
        self._brackets, self._spans, self._selected = [], [], None
        self._seen, self._seen_display = EMPTY, []
        super().show_message(text)

    def select(self, position: int | None, seen: np.ndarray = EMPTY, scroll: bool = True) -> None:
        """Select the bracket of run position ``position`` (frame its text, scroll to it) and
        shade the unit spans ``seen``."""
        self._selected = position
        self._seen = iv.normalize(seen)
        lay = self.layout_
        self._seen_display = [] if lay is None else [tuple(x) for x in lay.spans_to_display(self._seen).tolist()]
        span = next((s for b, s in zip(self._brackets, self._spans) if b.position == position), None)
        self.set_window([span] if span is not None and span[1] > span[0] else [], scroll=False)
        if scroll and span is not None:
            lo, hi = self.visible_range()
            if not (lo <= span[0] <= hi):
                self.scroll_to_position(span[0])
        self.viewport().update()
        self._gutter.update()

    # -- what is shown ------------------------------------------------------------------
    def brackets(self) -> list[em.Bracket]:
        """The retrieved elements of the shown article, run order, with their nesting levels."""
        return list(self._brackets)

    def selected(self) -> int | None:
        return self._selected

    def shaded(self) -> np.ndarray:
        """The unit spans shaded (text shown by the elements ranked before the selected one)."""
        return self._seen.copy()

    def level_x(self, level: int) -> int:
        return 7 + level * self._step

    def drawn(self) -> list[dict]:
        """The brackets drawn for the visible lines: ``position``, ``level``, ``x`` (its
        vertical line), ``y1``/``y2`` (viewport), ``top``/``bottom`` (that end is in view: a
        tick is drawn), ``selected``, ``color``, ``width``, ``tick``."""
        if self.layout_ is None or not self._brackets:
            return []
        lo, hi = self.visible_range()
        h = self.viewport().height()
        sel = self._selected
        tick = max(3, min(self._step - 1, 6))
        out = []
        for b, (a, e) in zip(self._brackets, self._spans):
            if e <= a or e - 1 < lo or a > hi:
                continue
            top, bottom = a >= lo, e - 1 <= hi
            y1 = self._rect_at(a).top() + 1 if top else -4
            y2 = self._rect_at(e - 1).bottom() - 1 if bottom else h + 4
            f = self._fgen.get(b.position, 0.0)
            if b.position == sel:
                color, width = QColor(SELECTED), 3.0
            else:
                color = QColor(REL_BRACKET if f > 0 else NONREL_BRACKET)
                color.setAlpha(int(150 + 105 * f) if f > 0 else 170)
                width = 1.6
                if sel is not None and b.position > sel:  # ranked after the selected one
                    color.setAlpha(int(color.alpha() * 0.35))
            out.append({"position": b.position, "level": b.level, "x": self.level_x(b.level), "y1": y1,
                        "y2": max(y2, y1 + 2),
                        "top": top, "bottom": bottom, "selected": b.position == sel, "color": color,
                        "width": width, "tick": tick})
        return out

    def bracket_at(self, point) -> int | None:
        """The run position of the bracket under ``point`` (gutter coordinates), or None."""
        best = None
        for g in self.drawn():
            dx = abs(point.x() - g["x"])
            if dx <= max(2, self._step // 2 + 1) and g["y1"] - 2 <= point.y() <= g["y2"] + 2:
                if best is None or dx < best[0] or (dx == best[0] and g["level"] > best[1]):
                    best = (dx, g["level"], g["position"])
        return best[2] if best is not None else None

    def describe(self, position: int) -> str:
        return self._info.get(position, "")

    # -- painting -----------------------------------------------------------------------
    def _paint_under(self) -> None:
        super()._paint_under()
        if not self._seen_display:
            return
        p = QPainter(self.viewport())
        hatch = QBrush(SEEN_HATCH, Qt.BrushStyle.BDiagPattern)
        for a, b in self._seen_display:
            clipped = self._clip(a, b)
            if clipped is None:
                continue
            for rect, _ in self._line_pieces(*clipped):
                p.fillRect(rect, SEEN_FILL)
                p.fillRect(rect, hatch)
        p.end()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        cr = self.contentsRect()
        self._gutter.setGeometry(QRect(cr.left(), cr.top(), self._gutter_w, cr.height()))


# -- scores -------------------------------------------------------------------------------------


class ApGrid(QWidget):
    """AP of the topic under INEX 2002, 2003 s and 2003 o (rows) for strict and gen (columns),
    each cell a button choosing the plotted metric; the difference to the perfect run under it."""

    chosen = Signal(object)  # (metric, quantisation)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(4)
        for c, q in enumerate(quantise.QUANTISATIONS, 1):
            head = rich_label(f"<b>{q}</b>")
            head.setAlignment(Qt.AlignmentFlag.AlignCenter)
            head.setToolTip({"strict": "only (3, 3) counts (eqs 2, 3, 8)", "gen": "e/3, s/3 and eq. 9's f_gen"}[q])
            grid.addWidget(head, 0, c)
        self.cells: dict[tuple[str, str], QPushButton] = {}
        for r, m in enumerate(("2002", "2003s", "2003o"), 1):
            label = plain_label(em.METRIC_NAMES[m])
            label.setToolTip({"2002": "precall with expected search length (eqs 6-9)",
                              "2003s": "recall_s / precision_s: exh and spec weighted by size (eqs 12-13)",
                              "2003o": "recall_o / precision_o: only text not seen before counts (eqs 14-19)"}[m])
            grid.addWidget(label, r, 0)
            for c, q in enumerate(quantise.QUANTISATIONS, 1):
                b = QPushButton()
                b.setCheckable(True)
                b.setMinimumHeight(44)
                b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
                b.setStyleSheet("QPushButton { text-align:center; padding:2px 6px; font-size:11pt; }"
                                "QPushButton:checked { background:#dce8fb; border:1px solid #1f5fbf; }")
                b.clicked.connect(lambda _=False, key=(m, q): self.choose(key))
                grid.addWidget(b, r, c)
                self.cells[(m, q)] = b
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(2, 1)
        self._values: dict[tuple[str, str], float] = {}
        self._current = ("2002", "gen")
        self.cells[self._current].setChecked(True)

    def choose(self, key: tuple[str, str]) -> None:
        self._current = key
        for k, b in self.cells.items():
            b.setChecked(k == key)
        self.chosen.emit(key)

    def current(self) -> tuple[str, str]:
        return self._current

    def set_values(self, view: em.RunView | None, reference: em.RunView | None) -> None:
        """Show ``view``'s AP; under each, the difference to ``reference`` (the perfect run)."""
        self._values = view.ap() if view is not None else {}
        ref = reference.ap() if reference is not None and reference is not view else None
        for key, b in self.cells.items():
            value = self._values.get(key, float("nan"))
            text = _fmt_ap(value)
            if ref is not None and not math.isnan(value) and not math.isnan(ref[key]):
                d = value - ref[key]
                text += f"\nΔ {'+' if d > 1e-12 else '−' if d < -1e-12 else '±'}{abs(d):.4f}"
            b.setText(text)
            c = view.curves[key] if view is not None else None
            b.setToolTip("" if c is None else
                         (f"AP_{key[0]}/{key[1]} = {_fmt_ap(value)} (mean precision at recall 0.01 .. 1.00); "
                          f"denominator {c.total:.4g} (" + {"2002": "n = Σ f", "2003s": "Σ exh",
                                                          "2003o": "rel^U / |t|"}[key[0]] + ")"
                          + ("" if c.total > 0 else ": nothing relevant under this quantisation")))

    def values(self) -> dict[tuple[str, str], float]:
        return dict(self._values)

    def shown(self) -> dict[tuple[str, str], str]:
        """Each cell's first line (the AP as shown)."""
        return {k: b.text().split("\n")[0] for k, b in self.cells.items()}


class PrecisionRecall(QWidget):
    """Precision at the recall points 0.00 .. 1.00 of one metric: the shown run solid, the other
    simulated run dashed, the selected element's point on the run's own curve as a dot."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.plot = pg.PlotWidget()
        self.plot.setMinimumSize(240, 200)
        item = self.plot.getPlotItem()
        item.setLabel("bottom", "recall")
        item.setLabel("left", "precision")
        item.setXRange(0, 1, padding=0.02)
        item.setYRange(0, 1.05, padding=0)
        item.showGrid(x=True, y=True, alpha=0.2)
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        cache_axes(item)
        self.legend = item.addLegend(offset=(-10, 10), labelTextSize="8pt")
        self.main = item.plot([], [], pen=pg.mkPen("#1f5fbf", width=2), name="run")
        self.ref = item.plot([], [], pen=pg.mkPen("#888888", width=1.5, style=Qt.PenStyle.DashLine), name="reference")
        self.dot = pg.ScatterPlotItem([], [], size=9, brush=pg.mkBrush(SELECTED), pen=pg.mkPen("white"))
        item.addItem(self.dot)
        lay.addWidget(self.plot, 1)
        self._data: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def show_curves(self, title: str, main, main_name: str, ref, ref_name: str, dot) -> None:
        item = self.plot.getPlotItem()
        item.setTitle(esc(title), size="9pt")
        self._data = {}
        if main is None:
            self.main.setData([], [])
        else:
            self.main.setData(RECALL_POINTS, main.precision)
            self._data["run"] = (RECALL_POINTS, main.precision)
        if ref is None:
            self.ref.setData([], [])
        else:
            self.ref.setData(RECALL_POINTS, ref.precision)
            self._data["reference"] = (RECALL_POINTS, ref.precision)
        self.legend.clear()
        self.legend.addItem(self.main, esc(main_name))
        if ref is not None:
            self.legend.addItem(self.ref, esc(ref_name))
        self.set_dot(dot)

    def set_dot(self, dot) -> None:
        if dot is None:
            self.dot.setData([], [])
        else:
            self.dot.setData([dot[0]], [dot[1]])

    def curves(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        return dict(self._data)


# -- the panel ----------------------------------------------------------------------------------


class ElementsPanel(QWidget):
    """The element mode (module docstring) over a :class:`Session`. ``ask_run_path()`` asks for
    an element run's path (tests replace it); ``report_error(text)`` shows an error (the
    window's message box when installed)."""

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.active = False
        self.ask_run_path = self._ask_run_path
        self.report_error = lambda text: None
        self.file_runs: list = []  # ElementRun read from files, in the order opened
        self.topic_view: em.TopicView | None = None
        self.choices: list[em.TopicChoice] = []
        self._files_key: tuple | None = None
        self._topic_gen = 0
        self._article_gen = 0
        self._jobs = 0
        #: name -> (collection, article, layout, the element tree's parent array) of the last articles shown
        self._articles: OrderedDict[str, tuple[object, object, object, object]] = OrderedDict()
        self._shown_article: str | None = None
        self._shown_key: tuple | None = None  # (article, run) the view's brackets are for
        self._position: int | None = None
        self._pending_position: int | None = None
        self.message_text = ""

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.setSpacing(4)
        bar = QHBoxLayout()
        self.topic_combo = QComboBox()
        self.topic_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.topic_combo.setMinimumContentsLength(34)
        self.topic_combo.setToolTip("The qrels topics with relevant articles; complete: all of them are in the "
                                    "collection")
        self.run_combo = QComboBox()
        self.run_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.run_combo.setMinimumContentsLength(32)
        self.run_combo.setToolTip("perfect: the elements with s = 3, by e; ancestors: the same, then all their "
                                  "ancestors (seed 004, section 4.1); or an element run opened from a file")
        self.open_btn = QPushButton("Open element run…")
        self.open_btn.setToolTip("An element run: 7-field XPath lines (topic Q0 file rank rsv run_id xpath) "
                                 "or an XML run with <path> results")
        self.article_combo = QComboBox()
        self.article_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.article_combo.setMinimumContentsLength(26)
        self.article_combo.setToolTip("The run's articles, in the order of their first element")
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(90)
        self.busy.hide()
        for text, w in (("Topic", self.topic_combo), ("Run", self.run_combo)):
            bar.addWidget(plain_label(text))
            bar.addWidget(w)
        bar.addWidget(self.open_btn)
        bar.addSpacing(12)
        bar.addWidget(plain_label("Article"))
        bar.addWidget(self.article_combo)
        bar.addStretch(1)
        bar.addWidget(self.busy)
        lay.addLayout(bar)
        self.status = plain_label()
        self.status.setWordWrap(True)
        self.status.setStyleSheet("color:#444;")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        lay.addWidget(self.status)

        self.stack = QStackedWidget()
        self.message = plain_label()
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.message.setStyleSheet("QLabel { color:#555; font-size:12pt; font-style:italic; padding:24px; }")
        self.stack.addWidget(self.message)

        # ranked elements | article | scores
        self.model = ElementTableModel(self)
        self.table = row_table(self.model)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setTextElideMode(Qt.TextElideMode.ElideLeft)
        h = self.table.horizontalHeader()
        h.setStretchLastSection(False)
        for c, w in ((POS, 38), (RANK, 40), (ARTICLE, 80), (XPATH, 150), (E, 24), (S, 24), (F_STRICT, 50),
                     (F_GEN, 44), (SIZE, 56), (UNSEEN, 56), (OVERLAP, 70)):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
            self.table.setColumnWidth(c, w)
        h.setSectionResizeMode(XPATH, QHeaderView.ResizeMode.Stretch)

        centre = QWidget()
        cl = QVBoxLayout(centre)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(3)
        self.header = rich_label()
        self.header.setWordWrap(True)
        self.view = ElementArticleView()
        self.legend = rich_label(
            f'<span style="color:{REL_BRACKET.name()}"><b>[</b></span> a retrieved element (relevant: f gen &gt; 0), '
            f'<span style="color:{NONREL_BRACKET.name()}"><b>[</b></span> not relevant, '
            f'<span style="color:{SELECTED.name()}"><b>[</b></span> the selected one, faded: ranked after it; '
            "one column per nesting level, outermost left · "
            f'<span style="background:{RELEVANT.name()}">&nbsp;highlighted&nbsp;</span> '
            '<span style="background:rgba(95,100,120,0.30)">&nbsp;seen before&nbsp;</span>: shown by the elements '
            "ranked before the selected one")
        self.legend.setWordWrap(True)
        self.legend.setStyleSheet("color:#444; font-size:9pt;")
        cl.addWidget(self.header)
        cl.addWidget(self.view, 1)
        cl.addWidget(self.legend)

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        self.scores_title = rich_label()
        self.scores_title.setWordWrap(True)
        self.grid = ApGrid()
        self.totals = plain_label()
        self.totals.setWordWrap(True)
        self.totals.setStyleSheet("color:#555; font-size:9pt;")
        self.plot = PrecisionRecall()
        rl.addWidget(self.scores_title)
        rl.addWidget(self.grid)
        rl.addWidget(self.totals)
        rl.addWidget(self.plot, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for w in (self.table, centre, right):
            self.splitter.addWidget(w)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setStretchFactor(2, 2)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.splitterMoved.connect(lambda *_: setattr(self, "_user_sized", True))
        self._user_sized = False
        self.stack.addWidget(self.splitter)
        lay.addWidget(self.stack, 1)

        self.topic_combo.activated.connect(lambda i: self.load_topic(self.topic_combo.itemData(i)))
        self.run_combo.currentIndexChanged.connect(lambda _: self.show_run())
        self.article_combo.activated.connect(lambda i: self.show_article_of_run(self.article_combo.itemData(i)))
        self.open_btn.clicked.connect(self._open_clicked)
        self.table.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._row_chosen(cur.row()))
        self.view.bracket_clicked.connect(self.select_position)
        self.grid.chosen.connect(lambda _: self._plot())
        self._plot_key: tuple | None = None  # (run view, topic view, metric) the plot shows
        session.files_changed.connect(self.refresh_files)
        session.topic_changed.connect(self._session_topic)
        self.show_message("Open the element view from View ▸ Element retrieval (INEX 2002/2003).")

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if not self._user_sized:  # the table 42%, the article 36%, the scores the rest
            w = max(self.splitter.width(), 900)
            self.splitter.setSizes([int(w * 0.42), int(w * 0.36), w - int(w * 0.42) - int(w * 0.36)])

    # -- state ----------------------------------------------------------------------------
    def set_active(self, active: bool) -> None:
        """Work only while shown: the first show (and a show after the files changed) loads."""
        self.active = active
        if active:
            self.refresh_files()
            topic = self.session.topic
            if topic is not None and self.topic_view is not None and topic != self.topic_view.topic:
                self._session_topic(topic)

    def show_message(self, text: str) -> None:
        """A plain message instead of the views (bad or missing inputs)."""
        self.message_text = text
        self.message.setText(text)
        self.stack.setCurrentWidget(self.message)

    def _busy(self, delta: int) -> None:
        self._jobs += delta
        self.busy.setVisible(self._jobs > 0)

    def _background(self, op, success, failure) -> None:
        self._busy(1)

        def ok(result) -> None:
            self._busy(-1)
            success(result)

        def bad(exc) -> None:
            self._busy(-1)
            failure(exc)

        run_in_background(self, op, ok, bad)

    def _error_text(self, exc: BaseException) -> str:
        text = input_error_text(exc)
        if text is None and isinstance(exc, (KeyError, ValueError)):
            text = str(exc)
        if text is None:
            raise exc  # a bug: the traceback dialog (or the test's exception capture)
        return text

    # -- files and topics ---------------------------------------------------------------
    def refresh_files(self) -> None:
        """The session's qrels or collection changed: list their topics again (background)."""
        if not self.active:
            return
        s = self.session
        key = (id(s.qrels), id(s.collection))
        if key == self._files_key and self.choices:
            return
        if self._files_key is not None and key[1] != self._files_key[1]:
            self.file_runs = []  # read against another collection: their elements may not exist there
        self._files_key = key
        self.topic_view = None
        self.choices = []
        self.topic_combo.clear()
        if s.collection is None or s.qrels is None:
            try:
                em.prepare_topic(s.qrels, s.collection, s.topic)
            except em.Unavailable as why:
                self.show_message(str(why))
            self.status.setText("")
            return
        qrels, coll = s.qrels, s.collection
        self._topic_gen += 1
        gen = self._topic_gen
        self.status.setText("Listing the topics and their relevant articles…")

        def success(choices) -> None:
            if gen != self._topic_gen:
                return
            self.choices = choices
            self.topic_combo.clear()
            for c in choices:
                self.topic_combo.addItem(c.label(), c.topic)
                if c.have == 0:  # nothing to show: greyed (choosing it says why)
                    self.topic_combo.setItemData(self.topic_combo.count() - 1, QColor("#888888"),
                                                 Qt.ItemDataRole.ForegroundRole)
            if not choices:
                self.show_message(f"The qrels ({Path(qrels.path).name}) have no topic with relevant articles.")
                return
            wanted = s.topic if any(c.topic == s.topic for c in choices) else \
                next((c.topic for c in choices if c.complete), choices[0].topic)
            self.load_topic(wanted)

        def failure(exc) -> None:
            if gen == self._topic_gen:
                self.show_message(self._error_text(exc))

        self._background(lambda: em.topic_choices(qrels, coll), success, failure)

    def _session_topic(self, topic: str) -> None:
        if self.active and self.choices and (self.topic_view is None or self.topic_view.topic != topic):
            if any(c.topic == topic for c in self.choices):
                self.load_topic(topic)

    def load_topic(self, topic: str | None) -> None:
        """Derive ``topic``'s assessments and evaluate every run on it (background)."""
        s = self.session
        i = self.topic_combo.findData(topic)
        if i >= 0:
            self.topic_combo.setCurrentIndex(i)
        self._topic_gen += 1
        gen = self._topic_gen
        qrels, coll, runs = s.qrels, s.collection, list(self.file_runs)
        self.status.setText(f"Deriving the element assessments of topic {topic} and evaluating the runs…")

        def success(tv: em.TopicView) -> None:
            if gen != self._topic_gen:
                return
            self._adopt_topic(tv)

        def failure(exc) -> None:
            if gen != self._topic_gen:
                return
            if isinstance(exc, em.Unavailable):
                self.topic_view = None
                self.status.setText("")
                self.show_message(str(exc))
                return
            text = self._error_text(exc)
            self.topic_view = None
            self.status.setText(f"Error: {text}")
            self.show_message(text)

        self._background(lambda: em.prepare_topic(qrels, coll, topic, runs), success, failure)

    def _adopt_topic(self, tv: em.TopicView, wanted: str | None = None) -> None:
        keep = wanted or self.run_combo.currentData()
        self.topic_view = tv
        self._shown_key = None
        self.run_combo.blockSignals(True)
        self.run_combo.clear()
        for r in tv.runs:
            label = f"{r.name} (simulated)" if r.simulated else r.name
            self.run_combo.addItem(f"{label} — {len(r.entries):,} elements", r.path or r.name)
            self.run_combo.setItemData(self.run_combo.count() - 1, plain_tip(r.path or r.name), Qt.ItemDataRole.ToolTipRole)
        i = self.run_combo.findData(keep) if keep is not None else -1
        self.run_combo.setCurrentIndex(max(i, 0))
        self.run_combo.blockSignals(False)
        self.stack.setCurrentWidget(self.splitter)
        self.show_run()

    # -- runs -----------------------------------------------------------------------------
    def current_run(self) -> em.RunView | None:
        tv = self.topic_view
        if tv is None:
            return None
        i = self.run_combo.currentIndex()
        return tv.runs[i] if 0 <= i < len(tv.runs) else None

    def set_run(self, name_or_path: str) -> None:
        """Show the run ``perfect``, ``ancestors`` or a file run's path (as the chooser does)."""
        i = self.run_combo.findData(name_or_path)
        if i >= 0:
            self.run_combo.setCurrentIndex(i)

    def show_run(self) -> None:
        """Show the chosen run: table, scores, plot, and the same article (and element) if the
        run has it, else its first element."""
        view, tv = self.current_run(), self.topic_view
        if view is None or tv is None:
            return
        unit = self.session.collection.unit if self.session.collection is not None else self.session.unit
        prev = self._selected_entry()
        self.model.set_view(view, unit)
        self.article_combo.clear()
        for name in view.articles():
            n = len(view.positions(name))
            self.article_combo.addItem(f"{name} — {n} element{'s' if n != 1 else ''}", name)
        a = tv.assessments
        n_el = sum(len(x.listed) for x in a.articles.values())
        parts = [f"Topic {tv.topic}: {len(a.articles)} relevant articles, {n_el:,} elements with highlighted text "
                 "(e, s derived from the highlighting: a teaching device, not INEX's assessments)"]
        if tv.note:
            parts.append(tv.note)
        if view.note:
            parts.append(view.note)
        self.status.setText(" · ".join(parts))
        self.status.setStyleSheet("color:#a33;" if tv.note or view.note else "color:#444;")
        perfect = tv.run("perfect")
        self.grid.set_values(view, perfect)
        self.scores_title.setText(f"<b>AP, topic {esc(tv.topic)}</b> — {esc(view.name)}"
                                  + ("" if view is perfect
                                     else " <span style='color:#555'>(Δ: minus the perfect run's AP)</span>"))
        self._totals(view)
        self._shown_key = None
        self._plot_key = None
        position = 0
        if prev is not None:
            same = [k for k, r in enumerate(view.entries) if (r.article, r.index) == prev[:2]]
            if same:
                position = same[0]
            else:
                ks = view.positions(prev[0])
                position = ks[0] if ks else 0
        if view.entries:
            self.select_position(position)
        else:
            self._position = None
            self.view.show_message(view.note or "The run has no elements for this topic.")
            self.header.setText("")
            self._plot()

    def _totals(self, view: em.RunView) -> None:
        m, q = self.grid.current()
        c = {k: view.curves[k] for k in em.COMBOS}
        self.totals.setText(f"Denominators ({q}): n = Σf {c[('2002', q)].total:.4g} · "
                            f"Σexh {c[('2003s', q)].total:.4g}"
                            f" · rel^U/|t| {c[('2003o', q)].total:.4g}. Click a cell to plot its curve.")

    def _selected_entry(self):
        view = self.model.view
        if view is None or self._position is None or self._position >= len(view.entries):
            return None
        r = view.entries[self._position]
        return r.article, r.index, self._position

    def _plot(self) -> None:
        """The chosen metric's curves (redrawn only when the run, topic or metric changed) and
        the selected element's point on the run's own curve."""
        view, tv = self.current_run(), self.topic_view
        key = self.grid.current()
        if view is None or tv is None:
            self._plot_key = None
            self.plot.show_curves("", None, "", None, "", None)
            return
        dot = None
        k = self._position
        c = view.curves[key]
        if k is not None and k < len(view.entries):
            i = int(view.values.rank[k]) - 1 if key[0] == "2002" else k
            if 0 <= i < len(c.recall_at) and not math.isnan(c.precision_at[i]):
                dot = (float(c.recall_at[i]), float(c.precision_at[i]))
        if self._plot_key == (id(view), id(tv), key):  # the same curves: only the dot moves
            self.plot.set_dot(dot)
            return
        self._plot_key = (id(view), id(tv), key)
        self._totals(view)
        other = tv.run("ancestors" if view.simulated and view.name == "perfect" else "perfect")
        how = "precall, eqs 6-7" if key[0] == "2002" else "Salton-interpolated"
        self.plot.show_curves(f"AP_{key[0]}/{key[1]}: precision at recall ({how})", c,
                              f"{view.name} (AP {_fmt_ap(c.ap)})",
                              other.curves[key] if other is not None else None,
                              f"{other.name} (AP {_fmt_ap(other.curves[key].ap)})" if other is not None else "", dot)

    # -- element runs from files --------------------------------------------------------
    def _ask_run_path(self) -> str:
        path, _ = QFileDialog.getOpenFileName(self, "Open an element run", "",
                                              "Element runs (*.run *.txt *.xml);;All files (*)")
        return path

    def _open_clicked(self) -> None:
        path = self.ask_run_path()
        if path:
            self.open_run(path)

    def open_run(self, path: str) -> None:
        """Read the element run at ``path`` against the collection (background), add it to the
        chooser and show it. An error names file and line (status line and ``report_error``)."""
        coll = self.session.collection
        if coll is None:
            self._run_error(f"{path}: open a collection first: an element run names elements the articles define")
            return
        self.status.setText(f"Reading element run {path}…")

        def success(run) -> None:
            self.file_runs = [r for r in self.file_runs if r.path != run.path] + [run]
            if run.diagnostics:
                self.session.diagnostics.emit([str(d) for d in run.diagnostics])
            tv = self.topic_view
            if tv is None:
                self.status.setText(f"Read element run {run.run_id} ({Path(run.path).name}); choose a topic")
                return
            tv.runs = [r for r in tv.runs if r.path != run.path] + [em.file_run_view(tv.assessments, run)]
            self._adopt_topic(tv, run.path)

        def failure(exc) -> None:
            self._run_error(self._error_text(exc))

        self._background(lambda: read_element_run(path, coll), success, failure)

    def _run_error(self, text: str) -> None:
        self.status.setText(f"Cannot read the element run: {text}")
        self.status.setStyleSheet("color:#a33;")
        self.report_error(text)

    # -- selection and the article --------------------------------------------------------
    def _row_chosen(self, row: int) -> None:
        if row >= 0 and row != self._position:
            self.select_position(row)

    def select_position(self, position: int) -> None:
        """Select run position ``position`` (0-based): its row, its article (loaded in the
        background the first time), its bracket, the text seen before it."""
        view = self.current_run()
        if view is None or not 0 <= position < len(view.entries):
            return
        self._position = position
        idx = self.model.index(position, POS)
        sm = self.table.selectionModel()
        if sm.currentIndex().row() != position:
            flags = QItemSelectionModel.SelectionFlag
            sm.setCurrentIndex(idx, flags.ClearAndSelect | flags.Rows)
        self.table.scrollTo(idx)
        r = view.entries[position]
        i = self.article_combo.findData(r.article)
        if i >= 0:
            self.article_combo.setCurrentIndex(i)
        self._plot()
        self._show_article(r.article, view, position)

    def show_article_of_run(self, article: str) -> None:
        """Select the first element of ``article`` in the shown run."""
        view = self.current_run()
        if view is not None and view.positions(article):
            self.select_position(view.positions(article)[0])

    def _show_article(self, name: str, view: em.RunView, position: int) -> None:
        coll = self.session.collection
        hit = self._articles.get(name)
        if hit is not None and hit[0] is coll:
            self._articles.move_to_end(name)
            self._display(name, hit[1], hit[2], hit[3], view, position)
            return
        self._article_gen += 1
        gen = self._article_gen
        self.header.setText(f"<i>Reading article {esc(name)}…</i>")

        def op():
            article = coll.article(name)
            return article, layout(article), element_tree(article).parent

        def success(result) -> None:
            article, lay, parent = result
            self._articles[name] = (coll, article, lay, parent)
            while len(self._articles) > ARTICLES_KEPT:
                self._articles.popitem(last=False)
            if gen == self._article_gen and self._position == position and self.current_run() is view:
                self._display(name, article, lay, parent, view, position)

        def failure(exc) -> None:
            if gen == self._article_gen:
                text = self._error_text(exc)
                self._shown_article = None
                self.view.show_message(f"Article {name}: {text}")

        self._background(op, success, failure)

    def _display(self, name, article, lay, parent, view: em.RunView, position: int) -> None:
        tv = self.topic_view
        if tv is None:
            return
        self._article_gen += 1  # a slower load of another article is stale now
        key = (name, id(view))
        if key != self._shown_key:
            items = em.brackets(view, tv.assessments, name, parent)
            fg = view.values.f("gen")
            fgen = {b.position: float(fg[b.position]) for b in items}
            info = {b.position: self._describe(view, b) for b in items}
            a = tv.assessments.get(name)
            relevant = a.passages if a is not None else EMPTY
            if self._shown_article == name and self.view.layout_ is lay:
                self.view.set_brackets(items, fgen, info)
            else:
                self.view.show_elements(lay, relevant, items, fgen, info)
            self._shown_article = name
            self._shown_key = key
        self.view.select(position, em.seen(view, position))
        self._header(name, article, view, position)

    def _describe(self, view: em.RunView, b: em.Bracket) -> str:
        v, k = view.values, b.position
        unit = self.model.unit
        return (f"#{k + 1} · rank {b.rank} · level {b.level}\n{b.xpath}\ne {int(v.e[k])}, s {int(v.s[k])} · "
                f"f strict {_fmt_f(v.f('strict')[k])}, f gen {_fmt_f(v.f('gen')[k])}\n"
                f"size {amount(int(v.size[k]), unit)}, unseen {int(v.unseen[k]):,}")

    def _header(self, name: str, article, view: em.RunView, position: int) -> None:
        v = view.values
        r = view.entries[position]
        items = self.view.brackets()
        depth = 1 + max((b.level for b in items), default=0)
        a = self.topic_view.assessments.get(name) if self.topic_view is not None else None
        rel = (f'<span style="color:#1a7f37"><b>relevant</b></span> ({amount(a.relevant_size, self.model.unit)} highlighted)'
               if a is not None else "not relevant")
        seen = int(v.seen[position])
        self.header.setText(
            f'<span style="font-size:13pt"><b>{esc(article.title)}</b></span>&nbsp; '
            f'<span style="color:#555">article {esc(name)} · {rel} · {len(items)} retrieved elements, '
            f'{depth} nesting level{"s" if depth != 1 else ""}</span><br>'
            f'<span style="color:{SELECTED.name()}"><b>#{position + 1}</b></span> rank {r.rank} '
            f'<code>{esc(r.xpath)}</code> · e {int(v.e[position])}, s {int(v.s[position])} · '
            f'f gen {_fmt_f(v.f("gen")[position])} · {amount(int(v.size[position]), self.model.unit)}, '
            + (f"{seen:,} already shown by earlier elements" if seen else "none of it shown before"))


def build_elements_dock(window, act) -> QDockWidget:
    """Add the element mode's dock to ``window`` (a MainWindow), shown and hidden by ``act`` (the
    View menu's checkable entry, :func:`readsim.app.widgets.on_demand.install_elements`), which
    follows the dock's visibility. It floats large the first time it is shown (no saved layout).
    Sets ``window.elements`` (the panel) and ``window.elements_dock``."""
    panel = ElementsPanel(window.session)
    if hasattr(window, "show_error"):
        panel.report_error = window.show_error
    dock = QDockWidget(ACTION_TEXT, window)
    dock.setObjectName("elements")
    dock.setWidget(panel)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    dock.hide()

    def visible(on: bool) -> None:
        st = app_settings()
        if on and not dock.isFloating() and not st.value("elements/placed", False, type=bool):
            dock.setFloating(True)  # first time ever: a large window of its own (dockable)
            g = window.geometry()
            dock.resize(int(g.width() * 0.94), int(g.height() * 0.88))
            dock.move(g.x() + int(g.width() * 0.03), g.y() + int(g.height() * 0.06))
        if on:
            st.setValue("elements/placed", True)
        if act.isChecked() != on:
            act.setChecked(on)
        panel.set_active(on)

    dock.visibilityChanged.connect(visible)
    window.elements, window.elements_dock = panel, dock
    return dock
