"""The article, readable: a read-only text view of :attr:`Layout.blocks` with its marks.

- :func:`build_document` makes one ``QTextBlock`` per layout block, so a layout's display
  positions are this document's positions (checked by the tests). :class:`DocumentBuilder`
  makes the same document in slices, with progress and cancel, for long articles
  (:class:`~readsim.app.widgets.article_panel.ArticlePanel` uses it). Both are
  :mod:`.article_document`'s; the view's geometry is :mod:`.article_geometry`'s.
- The marks (relevant only, retrieved only, relevant and retrieved) are *painted*, for the
  visible lines only (:class:`MarkIndex` finds a range's marks with ``bisect`` in the sorted
  display spans; the view paints backgrounds under the text and underlines over it). The
  document is never changed after it is shown, so Qt's lazy layout stays sound (see
  :meth:`ArticleView.show_document`). (The editor's extra-selections API is never used:
  repeated calls abort PySide6 6.12 on Python 3.11.)
- :class:`ArticleView` paints the matching chain in its gutter (:mod:`.gutter`): a numbered badge at each
  retrieved passage's start and a "↓k+1" chip at each passage's end (never over the text);
  clicking either jumps along the chain. The current reading screen is a light frame over its
  text and a bar in the gutter.
- Reading progress (playback): the text already read is veiled (:meth:`ArticleView.set_read`);
  the reading order's jumps are arcs in the gutter from a piece's end to the next piece's start,
  orange once taken, the last one taken bold (:meth:`ArticleView.set_jumps`).
- Only what is visible is measured: geometry of positions outside the viewport is never asked
  for while painting, so a long article is laid out by Qt lazily, as it is scrolled to.
- Only what changed is repainted: a new reading screen or veil repaints the lines it covers
  and covered, a reading-mode change (new chain, same classes of marks) the gutter only.
"""

from __future__ import annotations

import bisect

import numpy as np
from PySide6.QtCore import QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import (QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QRegion, QTextCharFormat,
                           QTextCursor, QTextDocument)
from PySide6.QtWidgets import QTextEdit

from readsim.core.layout import Layout

from .. import appearance as look
from ..marks import Marks
from .article_document import BASE_PT, LINE_HEIGHT, DocumentBuilder, build_document  # noqa: F401 - named here too
from .article_geometry import TextGeometry
from .gutter import BADGE_W, ENTRY, GUTTER, Gutter

# the light theme's; the colours painted are the current theme's (:func:`readsim.app.appearance.marks`),
# chosen to stay apart under deuteranopia and protanopia (tests/app/test_appearance.py)
RELEVANT = QColor(look.LIGHT.relevant)  # yellow background: relevant, not retrieved
BOTH = QColor(look.LIGHT.both)          # sea-green background: relevant and retrieved
READ_VEIL = QColor(*look.LIGHT.veil)    # over text already read (dims text and marks)
#: documents up to this many characters are laid out whole when shown (a few tens of ms);
#: longer ones are laid out by Qt lazily (in steps, as the event loop runs) and on demand
EAGER_LAYOUT_CHARS = 150_000
#: ... and up to this many blocks (22,000 short blocks took 75 ms to lay out at once)
EAGER_LAYOUT_BLOCKS = 2_000

class MarkIndex:
    """The three classes of marks (0 relevant only, 1 retrieved only, 2 both) as sorted,
    disjoint display spans, searched with ``bisect``. (The view's ``highlighter`` attribute.)"""

    def __init__(self) -> None:
        self._classes: list[tuple[list[int], list[int]]] = []

    def set_marks(self, m: Marks | None) -> None:
        self._classes = []
        if m is not None:
            for spans in (m.relevant, m.retrieved, m.both):
                self._classes.append((spans[:, 0].tolist(), spans[:, 1].tolist()))

    def ranges(self, lo: int, hi: int) -> list[tuple[int, int, int]]:
        """``(class, start, end)`` of the marks inside display positions ``[lo, hi)``."""
        out = []
        for k, (starts, ends) in enumerate(self._classes):
            i = bisect.bisect_right(ends, lo)  # first span ending after lo
            while i < len(starts) and starts[i] < hi:
                out.append((k, max(starts[i], lo), min(ends[i], hi)))
                i += 1
        return out


class ArticleView(TextGeometry, QTextEdit):
    """Read-only article view with marks, matching chain and reading screen.

    ``passage_jumped(number)`` when the view scrolls to chain passage ``number`` (1-based).
    """

    passage_jumped = Signal(int)
    #: ``entry_clicked(position)``: Alt+click at display ``position`` (start reading there)
    entry_clicked = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.setViewportMargins(GUTTER, 0, 0, 0)
        self._gutter = Gutter(self)
        self.highlighter = MarkIndex()
        self._marks: Marks | None = None
        self._window: list[tuple[int, int]] = []  # display spans of the reading screen
        self._read: list[tuple[int, int]] = []  # display spans already read (veiled)
        self._jumps: list[tuple[int, int, int]] = []  # (reading position, from, to) display
        self._reader = 0  # characters read (unit): jumps before it are taken
        self._rects: dict[tuple[int, int], QRect] = {}  # (position, width) -> cursor rect, document coords
        self._visible: tuple[int, int] | None = None  # visible_range() cached for one paint
        self._visible_key: tuple | None = None  # (what the view showed, visible_range()) of the last hit test
        self._gutter_key: tuple | None = None  # what the view showed when the gutter was last asked to follow
        self.layout_: Layout | None = None
        self._entry: int | None = None  # display position of the entry point (entry mode), or None
        self.verticalScrollBar().valueChanged.connect(self._follow_scroll)
        self.show_message("No article open.")

    def line_spacing(self) -> float:
        """Pixels from one line of body text to the next (:data:`BASE_PT` points, :data:`LINE_HEIGHT`)."""
        base = QFont()
        base.setPointSizeF(look.pt(BASE_PT))
        return QFontMetricsF(base, self).lineSpacing() * LINE_HEIGHT / 100

    def visible_lines(self) -> float:
        """Lines of body text the view shows at once (its viewport's height / :meth:`line_spacing`)."""
        return self.viewport().height() / self.line_spacing()

    # -- content ------------------------------------------------------------------------
    def show_article(self, lay: Layout, m: Marks) -> None:
        """Show the laid-out article with its marks (builds the document at once, in this
        thread; see :class:`DocumentBuilder` for long articles)."""
        self.show_document(lay, m, build_document(lay))

    def show_document(self, lay: Layout, m: Marks, doc: QTextDocument) -> None:
        """Show ``doc`` (built from ``lay`` by :func:`build_document` or a
        :class:`DocumentBuilder`; the view adopts it) with marks ``m``.

        The document is never changed afterwards: marks, chain, screen and veil are painted
        over it. Root cause of the blank bands once seen: the marks used to be applied by a
        QSyntaxHighlighter, whose rehighlight of a block (all blocks when shown, the changed
        range after an edit) is a document change; when it came while Qt's layout of the
        document was still partial (lazy, after ``setDocument`` or a width change), Qt's
        ``QTextDocumentLayout::documentChanged`` re-laid out the changed range only and walked
        on past the laid-out part, where never-laid-out blocks have no height, up to the end,
        and then marked the layout complete: blocks without marks stayed unlaid (blank, zero
        height) until a resize laid everything out again.
        """
        self.layout_ = lay
        self._marks = m
        self._window = []
        self._read, self._jumps = [], []
        self._entry = None
        self.highlighter.set_marks(m)
        self._set_doc(doc)
        if doc.characterCount() <= EAGER_LAYOUT_CHARS and doc.blockCount() <= EAGER_LAYOUT_BLOCKS:
            self.ensure_layout()
        self.verticalScrollBar().setValue(0)
        self._gutter.update()

    def show_message(self, text: str) -> None:
        """Show a message instead of an article (e.g. not in the collection)."""
        self.layout_ = None
        self._marks = None
        self._window = []
        self._read, self._jumps = [], []
        self._entry = None
        self.highlighter.set_marks(None)
        doc = QTextDocument()
        doc.setDocumentMargin(24)
        cursor = QTextCursor(doc)
        cf = QTextCharFormat()
        cf.setForeground(QBrush(QColor(look.marks().muted)))
        cf.setFontPointSize(look.pt(12))
        cf.setFontItalic(True)
        cursor.insertText(text, cf)
        self._set_doc(doc)
        self._gutter.update()

    def _set_doc(self, doc: QTextDocument) -> None:
        """Show ``doc`` (adopted: a child of the view) and delete the previous one."""
        old = self.document()
        ours = old is not None and old is not doc and old.parent() is self  # else Qt's own, deleted by Qt
        self._rects.clear()
        doc.setParent(self)
        self.setDocument(doc)
        if ours:
            old.deleteLater()

    def set_marks(self, m: Marks) -> None:
        """New marks: a new chain (mode change) or new classes (a passage edit, a strategy's
        preview). Only repaints, and only what changed: the text's marks when the classes
        changed, the gutter when the chain did (a mode change keeps the classes)."""
        old, self._marks = self._marks, m
        classes = old is None or not all(np.array_equal(a, b) for a, b in (
            (old.relevant, m.relevant), (old.retrieved, m.retrieved), (old.both, m.both)))
        if classes:
            self.highlighter.set_marks(m)
            self.viewport().update()
        if classes or old.chain != m.chain:
            self._gutter.update()

    def marks(self) -> Marks | None:
        return self._marks

    def set_window(self, spans: list[tuple[int, int]], scroll: bool = True) -> None:
        """Frame the display spans of the current reading screen; scroll its first-read text into view."""
        window = [(int(a), int(b)) for a, b in spans if b > a]
        old, self._window = self._window, window
        if scroll and self._window:
            self.scroll_to_position(self._window[0][0])
        if window != old:  # the same screen again (a tolerance change): nothing to repaint
            self._update_lines(old + window)
            self._gutter.update(QRect(GUTTER - 7, 0, 7, self._gutter.height()))  # the screen's bar

    def window_spans(self) -> list[tuple[int, int]]:
        return list(self._window)

    def set_read(self, spans: list[tuple[int, int]], reader: int) -> None:
        """Veil the display spans already read; ``reader`` = characters read (unit), which
        decides the jumps taken."""
        read = _merged([(int(a), int(b)) for a, b in spans if b > a])
        if read == self._read and int(reader) == self._reader:
            return
        changed = set(read) ^ set(self._read)  # spans veiled before or now, not both
        self._read = read
        if changed:
            self._update_lines(sorted(changed))
        if int(reader) != self._reader:  # the jumps taken
            self._reader = int(reader)
            self._gutter.update()

    def read_spans(self) -> list[tuple[int, int]]:
        return list(self._read)

    def set_jumps(self, jumps: list[tuple[int, int, int]]) -> None:
        """The reading order's jumps as ``(r, from, to)``: after ``r`` characters read (unit)
        the reader leaves display position ``from`` (exclusive end) for ``to``."""
        new = [(int(r), int(a), int(b)) for r, a, b in jumps]
        if new != self._jumps:
            self._jumps = new
            self._gutter.update()

    def jumps(self) -> list[tuple[int, int, int]]:
        return list(self._jumps)

    def jump_arcs(self) -> list[tuple[int, int, bool]]:
        """Viewport ``(y_from, y_to, taken)`` of each jump (taken: ``r < reader``); an end
        outside the viewport is placed just above or below it (its geometry is not asked for)."""
        out = []
        for r, a, b in self._jumps:
            out.append((self._y_at(max(a - 1, 0)), self._y_at(b), r < self._reader))
        return out

    def ensure_layout(self) -> None:
        """Lay the whole document out now (Qt lays long documents out lazily; on demand,
        asking for a far position's geometry lays out everything before it)."""
        doc = self.document()
        doc.documentLayout().blockBoundingRect(doc.lastBlock())

    def unlaid_blocks(self, lo: int, hi: int) -> list[int]:
        """Numbers of the non-empty blocks meeting display positions ``[lo, hi]`` that have no
        laid-out line (drawn as nothing): empty when the view is sound."""
        out = []
        block = self.document().findBlock(max(lo, 0))
        while block.isValid() and block.position() <= hi:
            if block.length() > 1 and block.layout().lineCount() == 0:
                out.append(block.blockNumber())
            block = block.next()
        return out

    def set_entry(self, position: int | None) -> None:
        """Mark the entry point at display ``position`` (a flag in the gutter, a caret in the
        text); None: no mark."""
        position = None if position is None else int(position)
        if position == self._entry:
            return
        self._entry = position
        self.viewport().update()
        self._gutter.update()

    def entry(self) -> int | None:
        return self._entry

    def entry_rect(self) -> QRect | None:
        """The gutter rect of the entry point's flag, when its line is in view."""
        if self._entry is None or self.layout_ is None:
            return None
        lo, hi = self.visible_range()
        if not lo <= self._entry <= hi:
            return None
        r = self._rect_at(self._entry)
        return QRect(2, r.top() + max((r.height() - 14) // 2, 0), 26, 14)

    def mousePressEvent(self, event) -> None:
        """Alt+click: start reading at the clicked character (``entry_clicked``)."""
        if (event.button() == Qt.MouseButton.LeftButton and self.layout_ is not None
                and event.modifiers() & Qt.KeyboardModifier.AltModifier):
            position = self.cursorForPosition(event.position().toPoint()).position()
            self.entry_clicked.emit(position)
            event.accept()
            return
        super().mousePressEvent(event)

    # -- navigation ---------------------------------------------------------------------
    def scroll_to_position(self, pos: int, margin: int = 40) -> None:
        """Scroll so that display position ``pos`` is near the top of the view (about ``margin``
        pixels below it), with a whole line at the top: the view's top edge never cuts a line."""
        c = QTextCursor(self.document())
        c.setPosition(min(max(pos, 0), max(self.document().characterCount() - 1, 0)))
        rect = self.cursorRect(c)
        bar = self.verticalScrollBar()
        target = min(max(bar.value() + rect.top() - margin, 0), bar.maximum())
        bar.setValue(self.line_top_at(target))

    def jump_to_passage(self, number: int) -> None:
        """Scroll to the start of chain passage ``number`` (1-based)."""
        if self._marks is None:
            return
        for n, a, _ in self._marks.chain:
            if n == number:
                self.scroll_to_position(a)
                self.passage_jumped.emit(number)
                return

    def _update_lines(self, spans: list[tuple[int, int]]) -> None:
        """Repaint the viewport's lines that show display ``spans`` (whole lines, a few pixels
        more for the frame's stroke): what a new screen or veil changes, not the whole text."""
        if self.layout_ is None:
            self.viewport().update()
            return
        width = self.viewport().width()
        region = QRegion()
        for a, b in spans:
            clipped = self._clip(a, b)
            if clipped is not None:
                top, bottom = self._rect_at(clipped[0]).top(), self._rect_at(max(clipped[1] - 1, clipped[0])).bottom()
                region += QRect(0, top - 3, width, bottom - top + 7)
        if not region.isEmpty():
            self.viewport().update(region)

    def _screen_extents(self) -> list[tuple[int, int]]:
        out = []
        for a, b in self._window:
            clipped = self._clip(a, b)
            if clipped is not None:
                a, b = clipped
                out.append((self._rect_at(a).top(), self._rect_at(max(b - 1, a)).bottom()))
        return out

    def _badge_rects(self) -> list[tuple[int, QRect]]:
        """Gutter rects of the chain's numbered badges in view (at each passage's start)."""
        if self._marks is None:
            return []
        lo, hi = self.visible_range()
        out = []
        for n, a, _ in self._marks.chain:
            if lo <= a <= hi:
                r = self._rect_at(a)
                out.append((n, QRect(3, r.top() + max((r.height() - 16) // 2, 0), BADGE_W, 16)))
        return out

    def link_rects(self) -> list[tuple[int, QRect]]:
        """Gutter rects of the "↓k+1" chips in view: at the line where passage k ends, next to
        the text (in the gutter, never over it), below the badge if one is on that line."""
        if self._marks is None or len(self._marks.chain) < 2:
            return []
        lo, hi = self.visible_range()
        badges = [r for _, r in self._badge_rects()]
        fm = self._gutter.fontMetrics()
        chain = self._marks.chain
        out = []
        for (_, _, end), (nxt, _, _) in zip(chain, chain[1:]):
            pos = max(end - 1, 0)
            if not lo <= pos <= hi:
                continue
            r = self._rect_at(pos)
            w = max(BADGE_W, fm.horizontalAdvance(f"↓{nxt}") + 4)
            box = QRect(2, r.top() + max((r.height() - 14) // 2, 0), w, 14)
            for b in badges:
                if b.intersects(box):
                    box.moveTop(b.bottom() + 2)
            out.append((nxt, box))
        return out

    # -- painting -----------------------------------------------------------------------
    def paintEvent(self, event) -> None:
        self._visible = None
        self._visible = self.visible_range()
        try:
            self._paint_under()
            super().paintEvent(event)
            self._paint_over()
            # the gutter follows what the view shows; repainting it after every paint of the
            # view painted the window twice per change: only when the view's lines moved
            # (Qt's lazy layout of a long document shifts them without a scroll; the scroll
            # bar's range follows that layout. Never ask the document's size: it finishes the
            # whole layout, 1.7 s for 11 M characters)
            key = self._shown_key()
            if key != self._gutter_key:
                self._gutter_key = key
                self._gutter.update()
        finally:
            self._visible = None

    def _shown_key(self) -> tuple:
        """What the gutter follows: the visible range, the scroll bar's value and range, the
        viewport's size."""
        bar = self.verticalScrollBar()
        return (self.visible_range(), bar.value(), bar.maximum(), self.viewport().size().toTuple())

    def _follow_scroll(self, _value: int) -> None:
        """A scroll moves the lines: the gutter follows in the same repaint as the text. (Asked
        only from the text's paint, its update came during the window's repaint and made a second
        one; the paint still asks when Qt's lazy layout moved the lines without a scroll.)"""
        self._gutter_key = self._shown_key()
        self._gutter.update()

    def _paint_under(self) -> None:
        """Mark backgrounds (relevant: yellow, relevant and retrieved: sea green; the theme's) under the text."""
        lo, hi = self._visible
        p = QPainter(self.viewport())
        colours = look.marks()
        relevant, both = QColor(colours.relevant), QColor(colours.both)
        for k, a, b in self.highlighter.ranges(lo, hi + 1):
            if k == 1:
                continue
            color = relevant if k == 0 else both
            for rect, _ in self._line_pieces(a, b):
                p.fillRect(rect, color)
        p.end()

    def _paint_over(self) -> None:
        lo, hi = self._visible
        h = self.viewport().height()
        p = QPainter(self.viewport())
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        colours = look.marks()
        screen = QColor(colours.screen)
        p.setPen(QPen(QColor(colours.retrieved), 1.2))
        for k, a, b in self.highlighter.ranges(lo, hi + 1):  # retrieved: underlined
            if k == 0:
                continue
            for rect, base in self._line_pieces(a, b):
                y = base + 2.0
                p.drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y))
        veil = QPainterPath()
        for a, b in self._read:
            clipped = self._clip(a, b)
            if clipped is None:
                continue
            for r in self._span_rects(*clipped):
                if r.bottom() >= 0 and r.top() <= h:
                    veil.addRect(QRectF(r.intersected(self.viewport().rect().adjusted(0, -2, 0, 2))))
        if not veil.isEmpty():
            p.fillPath(veil.simplified(), QColor(*colours.veil))
        fill = QColor(screen)
        fill.setAlpha(28)
        shape = QPainterPath()
        for a, b in _merged(self._window):
            clipped = self._clip(a, b)
            if clipped is None:
                continue
            for r in self._span_rects(*clipped):
                if r.bottom() >= 0 and r.top() <= h:
                    shape.addRect(QRectF(r))
        if not shape.isEmpty():
            shape = shape.simplified()
            p.fillPath(shape, fill)
            p.strokePath(shape, QPen(screen, 1.2))
        if self._entry is not None and lo <= self._entry <= hi:  # the entry point's caret
            r = self._rect_at(self._entry)
            p.fillRect(QRectF(r.left() - 1, r.top(), 2.5, r.height()), look.color(ENTRY))
        p.end()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        cr = self.contentsRect()
        self._gutter.setGeometry(QRect(cr.left(), cr.top(), GUTTER, cr.height()))


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
