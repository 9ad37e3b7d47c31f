"""Where the article view's text is: display positions to viewport geometry and back, the
visible range, a line's top, the rectangles of a span's lines (:class:`TextGeometry`, a part of
:class:`~readsim.app.widgets.article_view.ArticleView`). Only what is visible is measured:
geometry of positions outside the viewport is never asked for while painting, so a long
article is laid out by Qt lazily, as it is scrolled to."""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QTextCursor


class TextGeometry:
    """The geometry methods of :class:`~readsim.app.widgets.article_view.ArticleView` (a
    ``QTextEdit``; they read its document, viewport, scroll bars and caches)."""

    def _block_at(self, y: float):
        """The last laid-out block whose top is at or above document height ``y`` (pixels),
        found by bisecting: Qt lays a document out from its top, so the laid-out blocks are a
        prefix."""
        doc = self.document()
        lo, hi = 0, doc.blockCount() - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            tl = doc.findBlockByNumber(mid).layout()
            if tl.lineCount() and tl.position().y() <= y:
                lo = mid
            else:
                hi = mid - 1
        return doc.findBlockByNumber(lo)

    def line_top_at(self, y: int) -> int:
        """``y`` (document pixels) moved up to the top of the line it cuts, if any: the scroll
        value that shows that line whole at the view's top (``y`` itself when it falls between
        lines, in a block's margin or above the text)."""
        tl = self._block_at(y).layout()
        for i in range(tl.lineCount()):
            line = tl.lineAt(i)
            top = tl.position().y() + line.y()
            if top < y < top + line.height():
                return max(int(top), 0)  # down to the whole pixel: the line's top row shows
        return y

    def visible_range(self) -> tuple[int, int]:
        """Display positions at the top-left and bottom-right of the viewport."""
        if self._visible is not None:
            return self._visible
        vp = self.viewport().rect()
        bar = self.verticalScrollBar()
        # a hit test walks every block (3 ms for 20,000 blocks) and one paint of the view and
        # its gutter asks several times: kept while nothing that moves the text changes
        key = (self.document(), bar.value(), bar.maximum(), self.horizontalScrollBar().value(), vp.size().toTuple())
        if self._visible_key is not None and all(a is b if i == 0 else a == b
                                                 for i, (a, b) in enumerate(zip(key, self._visible_key[0]))):
            return self._visible_key[1]
        out = (self._position_at(bar.value() + vp.top(), end=False),
               self._position_at(bar.value() + vp.bottom(), end=True))
        self._visible_key = (key, out)
        return out

    def _position_at(self, y: float, end: bool) -> int:
        """The first (``end``: last) display position of the line at document height ``y``,
        found by bisecting the laid-out blocks (Qt lays a document out from its top, so they
        are a prefix). ``cursorForPosition`` walks every block: 40 ms for the first hit test
        of a 20,000-block document while its layout was partial."""
        block = self._block_at(y)
        tl = block.layout()
        if not tl.lineCount():
            return block.position()
        line = tl.lineAt(tl.lineCount() - 1)
        for i in range(tl.lineCount()):
            candidate = tl.lineAt(i)
            if tl.position().y() + candidate.y() + candidate.height() > y:
                line = candidate
                break
        return block.position() + line.textStart() + (line.textLength() if end else 0)

    def _rect_at(self, pos: int) -> QRect:
        """Viewport rect of the cursor at display position ``pos``; cached in document
        coordinates (the document never changes once shown; the layout only with the width).
        Lays out everything up to ``pos`` if Qt has not yet: ask only for visible positions."""
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

    def _y_at(self, pos: int) -> int:
        """Viewport y of the middle of position ``pos``'s line; -20 above the viewport and its
        height + 20 below it, without asking for the geometry of positions out of view."""
        lo, hi = self.visible_range()
        if pos < lo:
            return -20
        if pos > hi:
            return self.viewport().height() + 20
        return self._rect_at(pos).center().y()

    def _clip(self, a: int, b: int) -> tuple[int, int] | None:
        """Display span ``[a, b)`` cut to the visible positions (None if nothing is visible)."""
        lo, hi = self.visible_range()
        a, b = max(a, lo), min(b, hi + 1)
        return (a, b) if b > a else None

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

    def _line_pieces(self, a: int, b: int) -> list[tuple[QRectF, float]]:
        """``(rect, baseline)`` in viewport coordinates of each laid-out line's share of
        display span ``[a, b)`` (the caller clips it to the visible positions)."""
        doc = self.document()
        dx, dy = -self.horizontalScrollBar().value(), -self.verticalScrollBar().value()
        out = []
        block = doc.findBlock(a)
        while block.isValid() and block.position() < b:
            tl = block.layout()
            pos0 = block.position()
            lo, hi = max(a, pos0) - pos0, min(b, pos0 + block.length() - 1) - pos0
            if hi > lo and tl.lineCount():
                origin = tl.position()
                n = tl.lineForTextPosition(lo).lineNumber()
                while 0 <= n < tl.lineCount():
                    line = tl.lineAt(n)
                    s, e = line.textStart(), line.textStart() + line.textLength()
                    if s >= hi:
                        break
                    x1 = line.cursorToX(max(lo, s))[0]
                    x2 = line.cursorToX(min(hi, e))[0]
                    top = origin.y() + line.y() + dy
                    out.append((QRectF(origin.x() + x1 + dx, top, max(x2 - x1, 1.0), line.height()),
                                top + line.ascent()))
                    n += 1
            block = block.next()
        return out
