"""The article, readable: a read-only text view of :attr:`Layout.blocks` with its marks.

- :func:`build_document` makes one ``QTextBlock`` per layout block, so a layout's display
  positions are this document's positions (checked by the tests).
- :class:`MarkHighlighter` (a ``QSyntaxHighlighter``) formats relevant-only, retrieved-only and
  relevant-and-retrieved text; each block finds its ranges with ``bisect`` in the sorted
  display spans. (The editor's extra-selections API is never used: repeated calls abort PySide6 6.12 on Python 3.11.)
- :class:`ArticleView` paints the matching chain (numbered badges in a gutter at each retrieved
  passage's start, a "↓ k+1" link at each passage's end; clicking either jumps along the chain)
  and the current reading screen (a light frame over its text and a bar in the gutter).
- Reading progress (playback): the text already read is veiled (:meth:`ArticleView.set_read`);
  the reading order's jumps are arcs in the gutter from a piece's end to the next piece's start,
  orange once taken, the last one taken bold (:meth:`ArticleView.set_jumps`).
"""

from __future__ import annotations

import bisect

from PySide6.QtCore import QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QSyntaxHighlighter, QTextBlockFormat,
                           QTextCharFormat, QTextCursor, QTextDocument, QTextListFormat)
from PySide6.QtWidgets import QTextEdit, QWidget

from readsim.engine import intervals as iv
from readsim.engine.layout import Layout

from ..marks import Marks

RELEVANT = QColor("#ffe680")     # yellow background: relevant, not retrieved
BOTH = QColor("#a8e6a1")         # green background: relevant and retrieved
RETRIEVED = QColor("#1f5fbf")    # blue underline: retrieved (with or without relevance)
SCREEN = QColor(70, 110, 200)    # the current reading screen: frame and gutter bar
READ_VEIL = QColor(246, 247, 250, 150)  # over text already read (dims text and marks)
JUMP = QColor("#d9822b")         # a jump of the reading order already taken
JUMP_AHEAD = QColor(150, 160, 180, 150)  # a jump still ahead
GUTTER = 44
BADGE_W = 20

BASE_PT = 11.0
HEADING_PT = {1: 15.0, 2: 13.5, 3: 12.5}


def build_document(lay: Layout, parent=None) -> QTextDocument:
    """A QTextDocument with one block per :class:`Block` of ``lay``: title big and bold,
    headings bold and sized by level, meta small and grey, items as a bulleted list, rows
    small. Block ``i`` starts at position ``lay.blocks[i].start``."""
    doc = QTextDocument(parent)
    doc.setDocumentMargin(14)
    base = QFont()
    base.setPointSizeF(BASE_PT)
    doc.setDefaultFont(base)
    cursor = QTextCursor(doc)
    cursor.beginEditBlock()
    list_fmt = QTextListFormat()
    list_fmt.setStyle(QTextListFormat.Style.ListDisc)
    list_fmt.setIndent(1)
    current_list = None
    prev_kind = None
    for i, block in enumerate(lay.blocks):
        bf, cf = _formats(block.kind, block.level, prev_kind)
        if i == 0:
            cursor.setBlockFormat(bf)
            cursor.setBlockCharFormat(cf)
        else:
            cursor.insertBlock(bf, cf)
        if block.kind == "item":
            if current_list is None:
                current_list = cursor.createList(list_fmt)
            else:
                current_list.add(cursor.block())
        else:
            current_list = None
        cursor.insertText(block.text, cf)
        prev_kind = block.kind
    cursor.endEditBlock()
    return doc


def _formats(kind: str, level: int, prev: str | None) -> tuple[QTextBlockFormat, QTextCharFormat]:
    bf, cf = QTextBlockFormat(), QTextCharFormat()
    bf.setLineHeight(118, QTextBlockFormat.LineHeightTypes.ProportionalHeight.value)
    if kind == "title":
        cf.setFontPointSize(20)
        cf.setFontWeight(QFont.Weight.Bold)
        bf.setBottomMargin(6)
    elif kind == "heading":
        cf.setFontPointSize(HEADING_PT.get(level, 12.0))
        cf.setFontWeight(QFont.Weight.Bold)
        bf.setTopMargin(12)
        bf.setBottomMargin(4)
    elif kind == "meta":
        cf.setFontPointSize(8.5)
        cf.setForeground(QBrush(QColor("#777777")))
        bf.setBottomMargin(2)
    elif kind == "row":
        cf.setFontPointSize(9.5)
        bf.setLeftMargin(12)
        bf.setBottomMargin(2)
    elif kind == "item":
        bf.setBottomMargin(2)
    else:
        bf.setBottomMargin(8)
    if kind != "title" and prev == "meta" and kind != "meta":
        bf.setTopMargin(max(bf.topMargin(), 10))
    return bf, cf


def mark_formats() -> tuple[QTextCharFormat, QTextCharFormat, QTextCharFormat]:
    """Formats of (relevant only, retrieved only, relevant and retrieved)."""
    rel = QTextCharFormat()
    rel.setBackground(RELEVANT)
    ret = QTextCharFormat()
    ret.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
    ret.setUnderlineColor(RETRIEVED)
    both = QTextCharFormat(ret)
    both.setBackground(BOTH)
    return rel, ret, both


class MarkHighlighter(QSyntaxHighlighter):
    """Formats each block's share of three classes of sorted, disjoint display spans."""

    def __init__(self, parent) -> None:
        super().__init__(parent)
        self._classes: list[tuple[QTextCharFormat, list[int], list[int]]] = []

    def set_marks(self, m: Marks | None) -> None:
        rel, ret, both = mark_formats()
        self._classes = []
        if m is not None:
            for fmt, spans in ((rel, m.relevant), (ret, m.retrieved), (both, m.both)):
                self._classes.append((fmt, spans[:, 0].tolist(), spans[:, 1].tolist()))

    def ranges(self, lo: int, hi: int) -> list[tuple[int, int, int]]:
        """``(class, start, end)`` of the marks inside display positions ``[lo, hi)``."""
        out = []
        for k, (_, starts, ends) in enumerate(self._classes):
            i = bisect.bisect_right(ends, lo)  # first span ending after lo
            while i < len(starts) and starts[i] < hi:
                out.append((k, max(starts[i], lo), min(ends[i], hi)))
                i += 1
        return out

    def highlightBlock(self, text: str) -> None:  # noqa: N802 (Qt API)
        lo = self.currentBlock().position()
        for k, a, b in self.ranges(lo, lo + len(text)):
            self.setFormat(a - lo, b - a, self._classes[k][0])


class _Gutter(QWidget):
    """Left margin: chain badges, the reading order's jumps and the reading screen's bar."""

    def __init__(self, view: ArticleView) -> None:
        super().__init__(view)
        self.view = view
        self.setMouseTracking(True)

    def sizeHint(self) -> QSize:
        return QSize(GUTTER, 0)

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(event.rect(), QColor("#f3f4f6"))
        self._paint_jumps(p)
        for top, bottom in self.view._screen_extents():
            p.fillRect(QRect(GUTTER - 6, top, 4, max(bottom - top, 2)), SCREEN)
        font = QFont(self.font())
        font.setPointSizeF(7.5)
        font.setBold(True)
        p.setFont(font)
        for number, rect in self.view._badge_rects():
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(RETRIEVED)
            p.drawRoundedRect(QRectF(rect), 4, 4)
            p.setPen(QColor("white"))
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(number))
        p.end()

    def _paint_jumps(self, p: QPainter) -> None:
        """An arc per jump, from the end of a piece (tail) to the next piece's start (arrow)."""
        h = self.height()
        x = GUTTER - 9
        arcs = self.view.jump_arcs()
        last = max((i for i, (_, _, taken) in enumerate(arcs) if taken), default=-1)
        for i, (y1, y2, taken) in enumerate(arcs):
            if max(y1, y2) < -10 or min(y1, y2) > h + 10:
                continue
            bulge = min(12.0, 4.0 + abs(y2 - y1) / 12.0)
            path = QPainterPath()
            path.moveTo(x, y1)
            path.cubicTo(x - bulge, y1, x - bulge, y2, x, y2)
            color = JUMP if taken else JUMP_AHEAD
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(color, 2.2 if i == last else 1.3))
            p.drawPath(path)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(color)
            head = QPainterPath()
            head.moveTo(x + 3, y2)
            head.lineTo(x - 2, y2 - 3.5)
            head.lineTo(x - 2, y2 + 3.5)
            head.closeSubpath()
            p.drawPath(head)
            p.drawEllipse(QRectF(x - 2, y1 - 2, 4, 4))

    def mousePressEvent(self, event) -> None:  # noqa: N802
        for number, rect in self.view._badge_rects():
            if rect.contains(event.position().toPoint()):
                self.view.jump_to_passage(number)
                return


class ArticleView(QTextEdit):
    """Read-only article view with marks, matching chain and reading screen.

    ``passage_jumped(number)`` when the view scrolls to chain passage ``number`` (1-based).
    """

    passage_jumped = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.setViewportMargins(GUTTER, 0, 0, 0)
        self._gutter = _Gutter(self)
        self.highlighter = MarkHighlighter(self)
        self._marks: Marks | None = None
        self._window: list[tuple[int, int]] = []  # display spans of the reading screen
        self._links: list[tuple[int, QRect]] = []  # "↓ k" link rects (viewport coords)
        self._read: list[tuple[int, int]] = []  # display spans already read (veiled)
        self._jumps: list[tuple[int, int, int]] = []  # (reading position, from, to) display
        self._reader = 0  # characters read (unit): jumps before it are taken
        self._rects: dict[tuple[int, int], QRect] = {}  # (position, width) -> cursor rect, document coords
        self.layout_: Layout | None = None
        self.verticalScrollBar().valueChanged.connect(self._gutter.update)
        self.show_message("No article open.")

    # -- content ------------------------------------------------------------------------
    def show_article(self, lay: Layout, m: Marks) -> None:
        """Show the laid-out article with its marks (rebuilds the document)."""
        self.layout_ = lay
        self._marks = m
        self._window = []
        self._read, self._jumps = [], []
        self.highlighter.set_marks(m)
        doc = build_document(lay, self)
        self._rects.clear()
        self.setDocument(doc)
        self.highlighter.setDocument(doc)
        self.highlighter.rehighlight()
        self.ensure_layout()
        self.verticalScrollBar().setValue(0)
        self._gutter.update()

    def show_message(self, text: str) -> None:
        """Show a message instead of an article (e.g. not in the collection)."""
        self.layout_ = None
        self._marks = None
        self._window = []
        self._read, self._jumps = [], []
        self.highlighter.setDocument(None)
        doc = QTextDocument(self)
        doc.setDocumentMargin(24)
        cursor = QTextCursor(doc)
        cf = QTextCharFormat()
        cf.setForeground(QBrush(QColor("#555555")))
        cf.setFontPointSize(12)
        cf.setFontItalic(True)
        cursor.insertText(text, cf)
        self._rects.clear()
        self.setDocument(doc)
        self._gutter.update()

    def set_marks(self, m: Marks) -> None:
        """New marks: a new chain (mode change) and, after a passage edit, new classes (only
        the blocks between the first and last changed display position are re-highlighted)."""
        old, self._marks = self._marks, m
        changed = _changed_range(old, m) if self.layout_ is not None else None
        if changed is not None:
            self.highlighter.set_marks(m)
            doc = self.document()
            block, last = doc.findBlock(changed[0]), doc.findBlock(changed[1])
            while block.isValid():
                self.highlighter.rehighlightBlock(block)
                if block == last:
                    break
                block = block.next()
        self.viewport().update()
        self._gutter.update()

    def marks(self) -> Marks | None:
        return self._marks

    def set_window(self, spans: list[tuple[int, int]], scroll: bool = True) -> None:
        """Frame the display spans of the current reading screen; scroll its first-read text into view."""
        self._window = [(int(a), int(b)) for a, b in spans if b > a]
        if scroll and self._window:
            self.scroll_to_position(self._window[0][0])
        self.viewport().update()
        self._gutter.update()

    def window_spans(self) -> list[tuple[int, int]]:
        return list(self._window)

    def set_read(self, spans: list[tuple[int, int]], reader: int) -> None:
        """Veil the display spans already read; ``reader`` = characters read (unit), which
        decides the jumps taken."""
        self._read = _merged([(int(a), int(b)) for a, b in spans if b > a])
        self._reader = int(reader)
        self.viewport().update()
        self._gutter.update()

    def read_spans(self) -> list[tuple[int, int]]:
        return list(self._read)

    def set_jumps(self, jumps: list[tuple[int, int, int]]) -> None:
        """The reading order's jumps as ``(r, from, to)``: after ``r`` characters read (unit)
        the reader leaves display position ``from`` (exclusive end) for ``to``."""
        self._jumps = [(int(r), int(a), int(b)) for r, a, b in jumps]
        self._gutter.update()

    def jumps(self) -> list[tuple[int, int, int]]:
        return list(self._jumps)

    def jump_arcs(self) -> list[tuple[int, int, bool]]:
        """Viewport ``(y_from, y_to, taken)`` of each jump (taken: ``r < reader``)."""
        out = []
        for r, a, b in self._jumps:
            ra, rb = self._rect_at(max(a - 1, 0)), self._rect_at(b)
            out.append((ra.center().y(), rb.center().y(), r < self._reader))
        return out

    def ensure_layout(self) -> None:
        """Lay the whole document out now (Qt lays long documents out lazily, which would
        leave positions past the laid-out part unreachable by scrolling)."""
        doc = self.document()
        doc.documentLayout().blockBoundingRect(doc.lastBlock())

    # -- navigation ---------------------------------------------------------------------
    def scroll_to_position(self, pos: int, margin: int = 40) -> None:
        """Scroll so that display position ``pos`` is near the top of the view."""
        c = QTextCursor(self.document())
        c.setPosition(min(max(pos, 0), max(self.document().characterCount() - 1, 0)))
        rect = self.cursorRect(c)
        bar = self.verticalScrollBar()
        bar.setValue(bar.value() + rect.top() - margin)

    def jump_to_passage(self, number: int) -> None:
        """Scroll to the start of chain passage ``number`` (1-based)."""
        if self._marks is None:
            return
        for n, a, _ in self._marks.chain:
            if n == number:
                self.scroll_to_position(a)
                self.passage_jumped.emit(number)
                return

    def visible_range(self) -> tuple[int, int]:
        """Display positions at the top-left and bottom-right of the viewport."""
        vp = self.viewport().rect()
        return (self.cursorForPosition(vp.topLeft()).position(),
                self.cursorForPosition(vp.bottomRight()).position())

    # -- geometry helpers ---------------------------------------------------------------
    def _rect_at(self, pos: int) -> QRect:
        """Viewport rect of the cursor at display position ``pos``; cached in document
        coordinates (the layout only changes with the document or the width)."""
        h, v = self.horizontalScrollBar().value(), self.verticalScrollBar().value()
        key = (pos, self.viewport().width())
        r = self._rects.get(key)
        if r is None:
            c = QTextCursor(self.document())
            c.setPosition(min(max(pos, 0), max(self.document().characterCount() - 1, 0)))
            r = self.cursorRect(c).translated(h, v)
            if len(self._rects) > 20_000:
                self._rects.clear()
            self._rects[key] = r
        return r.translated(-h, -v)

    def _span_rects(self, a: int, b: int) -> list[QRect]:
        """Viewport rects covering display span ``[a, b)`` (like a selection's shape)."""
        r1, r2 = self._rect_at(a), self._rect_at(max(b - 1, a))
        right = self.viewport().width() - 8
        end_x = r2.left() + max(self.fontMetrics().averageCharWidth(), 4)
        if r1.top() == r2.top():
            return [QRect(r1.left(), r1.top(), max(end_x - r1.left(), 2), r1.height())]
        left = int(self.document().documentMargin())
        out = [QRect(r1.left(), r1.top(), right - r1.left(), r1.height())]
        if r2.top() > r1.bottom() + 1:
            out.append(QRect(left, r1.bottom() + 1, right - left, r2.top() - r1.bottom() - 1))
        out.append(QRect(left, r2.top(), end_x - left, r2.height()))
        return out

    def _screen_extents(self) -> list[tuple[int, int]]:
        out = []
        h = self.viewport().height()
        for a, b in self._window:
            top, bottom = self._rect_at(a).top(), self._rect_at(max(b - 1, a)).bottom()
            if bottom >= 0 and top <= h:
                out.append((top, bottom))
        return out

    def _badge_rects(self) -> list[tuple[int, QRect]]:
        if self._marks is None:
            return []
        out = []
        h = self.viewport().height()
        for n, a, _ in self._marks.chain:
            r = self._rect_at(a)
            if -20 <= r.top() <= h:
                out.append((n, QRect(3, r.top() + max((r.height() - 16) // 2, 0), BADGE_W, 16)))
        return out

    # -- painting -----------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802
        super().paintEvent(event)
        p = QPainter(self.viewport())
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        h = self.viewport().height()
        veil = QPainterPath()
        for a, b in self._read:
            for r in self._span_rects(a, b):
                if r.bottom() >= 0 and r.top() <= h:
                    veil.addRect(QRectF(r.intersected(self.viewport().rect().adjusted(0, -2, 0, 2))))
        if not veil.isEmpty():
            p.fillPath(veil.simplified(), READ_VEIL)
        fill = QColor(SCREEN)
        fill.setAlpha(28)
        shape = QPainterPath()
        for a, b in _merged(self._window):
            for r in self._span_rects(a, b):
                if r.bottom() >= 0 and r.top() <= h:
                    shape.addRect(QRectF(r))
        if not shape.isEmpty():
            shape = shape.simplified()
            p.fillPath(shape, fill)
            p.strokePath(shape, QPen(SCREEN, 1.2))
        self._links = []
        if self._marks is not None and len(self._marks.chain) > 1:
            font = QFont(self.font())
            font.setPointSizeF(7.5)
            font.setBold(True)
            p.setFont(font)
            fm = p.fontMetrics()
            chain = self._marks.chain
            for (n, _, end), (nxt, _, _) in zip(chain, chain[1:]):
                r = self._rect_at(end)
                if r.bottom() < 0 or r.top() > h:
                    continue
                label = f"↓ {nxt}"
                w = fm.horizontalAdvance(label) + 8
                box = QRect(r.left() + 2, r.top() + max((r.height() - 14) // 2, 0), w, 14)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(RETRIEVED)
                p.drawRoundedRect(QRectF(box), 3, 3)
                p.setPen(QColor("white"))
                p.drawText(box, Qt.AlignmentFlag.AlignCenter, label)
                self._links.append((nxt, box))
        p.end()
        self._gutter.update()

    def mousePressEvent(self, event) -> None:  # noqa: N802
        pos: QPoint = event.position().toPoint()
        for n, box in self._links:
            if box.contains(pos):
                self.jump_to_passage(n)
                return
        super().mousePressEvent(event)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        cr = self.contentsRect()
        self._gutter.setGeometry(QRect(cr.left(), cr.top(), GUTTER, cr.height()))


def _changed_range(old: Marks | None, new: Marks) -> tuple[int, int] | None:
    """``(first, last)`` display positions where the mark classes of ``old`` and ``new``
    differ (text in one but not the other), or None if they are the same."""
    if old is None:
        return None
    lo, hi = None, None
    for a, b in ((old.relevant, new.relevant), (old.retrieved, new.retrieved), (old.both, new.both)):
        for d in (iv.subtract(a, b), iv.subtract(b, a)):
            if len(d):
                lo = int(d[0, 0]) if lo is None else min(lo, int(d[0, 0]))
                hi = int(d[-1, 1]) if hi is None else max(hi, int(d[-1, 1]))
    return None if lo is None else (lo, hi)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted union of display spans, joining spans that continue each other across a block
    separator (one position), so a screen draws as one shape."""
    out: list[list[int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]
