"""The article of the element mode (docs/reference.md section 13): :class:`ElementArticleView`,
an :class:`~readsim.app.widgets.article_view.ArticleView` whose gutter draws every retrieved
element of the article as a bracket, outer brackets left, one column per nesting level, so
nesting and overlap show; the text already shown by the elements ranked before the selected one
shaded. Only the brackets and shading of the visible lines are painted. See docs/architecture.md."""

from __future__ import annotations


import numpy as np
from PySide6.QtCore import QEvent, QRect, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QToolTip, QWidget

from readsim.core import intervals as iv

from .. import appearance as look
from .. import elements_model as em
from ..marks import Marks
from .article_view import GUTTER, ArticleView

# roles (and a tint) of readsim.app.appearance
SELECTED = "selected"      # the selected element: its bracket
REL_BRACKET = "good"       # a bracket of an element with f_gen > 0
NONREL_BRACKET = "bracket"  # a bracket of an element with f_gen = 0
SEEN = "seen"              # tint: text shown by earlier-ranked elements (fill alpha 48, hatch 80)
SEEN_ALPHA, HATCH_ALPHA = 48, 80
GUTTER_BG = "gutter_bg"
STEP_MAX = 8      # pixels between two nesting levels
STEP_MIN = 3
GUTTER_MAX = 150  # the bracket gutter never grows wider than this
EMPTY = np.zeros((0, 2), dtype=np.int64)  # no intervals
def legend() -> str:
    """The legend under the article in the current theme (rich text: our words only)."""
    seen = look.tint(SEEN)
    return (
    f'<span style="color:{look.css(REL_BRACKET)}"><b>[</b></span> a retrieved element (relevant: f gen &gt; 0), '
    f'<span style="color:{look.css(NONREL_BRACKET)}"><b>[</b></span> not relevant, '
    f'<span style="color:{look.css(SELECTED)}"><b>[</b></span> the selected one, faded: ranked after it; '
    "one column per nesting level, outermost left · "
    f'<span style="background:{look.marks().relevant}">&nbsp;highlighted&nbsp;</span> '
    f'<span style="background:rgba({seen.red()},{seen.green()},{seen.blue()},0.30)">&nbsp;seen before&nbsp;</span>: '
    "shown by the elements ranked before the selected one")


class _BracketGutter(QWidget):
    """The article view's left margin: one bracket per retrieved element of the article."""

    def __init__(self, view: ElementArticleView) -> None:
        super().__init__(view)
        self.view = view
        self.setMouseTracking(True)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(event.rect(), look.color(GUTTER_BG))
        p.setPen(QPen(look.color("rule"), 1))
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

    def mousePressEvent(self, event) -> None:
        k = self.view.bracket_at(event.position().toPoint())
        if k is not None:
            self.view.bracket_clicked.emit(k)

    def event(self, event) -> bool:
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
                color, width = look.color(SELECTED), 3.0
            else:
                color = look.color(REL_BRACKET if f > 0 else NONREL_BRACKET, int(150 + 105 * f) if f > 0 else 170)
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
        hatch, fill = QBrush(look.tint(SEEN, HATCH_ALPHA), Qt.BrushStyle.BDiagPattern), look.tint(SEEN, SEEN_ALPHA)
        for a, b in self._seen_display:
            clipped = self._clip(a, b)
            if clipped is None:
                continue
            for rect, _ in self._line_pieces(*clipped):
                p.fillRect(rect, fill)
                p.fillRect(rect, hatch)
        p.end()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        cr = self.contentsRect()
        self._gutter.setGeometry(QRect(cr.left(), cr.top(), self._gutter_w, cr.height()))


# -- scores -------------------------------------------------------------------------------------
