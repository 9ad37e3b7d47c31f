"""The article, readable: a read-only text view of :attr:`Layout.blocks` with its marks.

- :func:`build_document` makes one ``QTextBlock`` per layout block, so a layout's display
  positions are this document's positions (checked by the tests). :class:`DocumentBuilder`
  makes the same document in slices of at most :data:`SLICE_MS` of the GUI thread each, with
  progress and cancel, for long articles (:class:`~readsim.app.widgets.article_panel.ArticlePanel`
  uses it).
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
import time

import numpy as np
from PySide6.QtCore import QObject, QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QRegion,
                           QTextBlockFormat, QTextCharFormat, QTextCursor, QTextDocument, QTextListFormat)
from PySide6.QtWidgets import QTextEdit

from readsim.engine.layout import Layout

from .. import appearance as look
from ..marks import Marks
from .gutter import BADGE_W, ENTRY, GUTTER, Gutter

# the light theme's; the colours painted are the current theme's (:func:`readsim.app.appearance.marks`),
# chosen to stay apart under deuteranopia and protanopia (tests/app/test_appearance.py)
RELEVANT = QColor(look.LIGHT.relevant)  # yellow background: relevant, not retrieved
BOTH = QColor(look.LIGHT.both)          # sea-green background: relevant and retrieved
READ_VEIL = QColor(*look.LIGHT.veil)    # over text already read (dims text and marks)
SLICE_MS = 30.0  # at most this long in the GUI thread per slice of a DocumentBuilder
#: documents up to this many characters are laid out whole when shown (a few tens of ms);
#: longer ones are laid out by Qt lazily (in steps, as the event loop runs) and on demand
EAGER_LAYOUT_CHARS = 150_000
#: ... and up to this many blocks (22,000 short blocks took 75 ms to lay out at once)
EAGER_LAYOUT_BLOCKS = 2_000

BASE_PT = 11.0
HEADING_PT = {1: 15.0, 2: 13.5, 3: 12.5}


class _Inserter:
    """Appends layout blocks to a new document, one at a time (shared by
    :func:`build_document` and :class:`DocumentBuilder`)."""

    def __init__(self, lay: Layout, parent=None) -> None:
        self.blocks = lay.blocks
        self.doc = QTextDocument(parent)
        self.doc.setUndoRedoEnabled(False)  # read-only: an undo stack would only cost memory
        self.doc.setDocumentMargin(14)
        base = QFont()
        base.setPointSizeF(look.pt(BASE_PT))  # every size in points follows the zoom
        self.doc.setDefaultFont(base)
        self.cursor = QTextCursor(self.doc)
        self.list_fmt = QTextListFormat()
        self.list_fmt.setStyle(QTextListFormat.Style.ListDisc)
        self.list_fmt.setIndent(1)
        self.current_list = None
        self.prev_kind: str | None = None
        self.i = 0
        self.chars = 0  # display characters inserted so far (block separators included)
        self.total = max(sum(len(b.text) + 1 for b in self.blocks), 1)

    def done(self) -> bool:
        return self.i >= len(self.blocks)

    def insert(self, deadline: float | None = None) -> None:
        """Insert blocks until all are in, or ``time.perf_counter()`` passes ``deadline``
        (at least one block per call)."""
        cursor = self.cursor
        while self.i < len(self.blocks):
            block = self.blocks[self.i]
            bf, cf = _formats(block.kind, block.level, self.prev_kind)
            if self.i == 0:
                cursor.setBlockFormat(bf)
                cursor.setBlockCharFormat(cf)
            else:
                cursor.insertBlock(bf, cf)
            if block.kind == "item":
                if self.current_list is None:
                    self.current_list = cursor.createList(self.list_fmt)
                else:
                    self.current_list.add(cursor.block())
            else:
                self.current_list = None
            cursor.insertText(block.text, cf)
            self.prev_kind = block.kind
            self.chars += len(block.text) + 1
            self.i += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break


def build_document(lay: Layout, parent=None) -> QTextDocument:
    """A QTextDocument with one block per :class:`Block` of ``lay``: title big and bold,
    headings bold and sized by level, meta small and grey, items as a bulleted list, rows
    small. Block ``i`` starts at position ``lay.blocks[i].start``. Built at once, in the calling
    thread (:class:`DocumentBuilder` builds the same document in slices)."""
    ins = _Inserter(lay, parent)
    ins.insert()
    return ins.doc


class DocumentBuilder(QObject):
    """Builds :func:`build_document`'s document in the GUI thread, in slices of at most
    ``slice_ms`` (default :data:`SLICE_MS`) each, driven by a zero-delay timer, so the event
    loop runs between slices (a 14 M-character article: about 1 s in all, no slice over ~35 ms).

    Signals: ``progress(int)`` percent of the display characters inserted (after each slice);
    ``finished(object)`` the finished ``QTextDocument`` (no parent: the receiver adopts it);
    ``cancelled()`` after :meth:`cancel` (the partial document is deleted).

    Why not in a worker thread: QTextDocument is reentrant and could be built there, but
    inserting is not the costly part (about 7 ms per MB here); Qt lays the document out again
    (in the GUI thread) as soon as a view shows it, whichever thread built it.
    """

    progress = Signal(int)
    finished = Signal(object)
    cancelled = Signal()

    def __init__(self, lay: Layout, parent: QObject | None = None, slice_ms: float = SLICE_MS) -> None:
        super().__init__(parent)
        self.layout_ = lay
        self.slice_ms = slice_ms
        self._ins: _Inserter | None = _Inserter(lay)
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)
        self.slices = 0
        self.longest_ms = 0.0  # the longest slice so far (for tests and benchmarks)

    def start(self) -> None:
        self._timer.start()

    def running(self) -> bool:
        return self._timer.isActive()

    def percent(self) -> int:
        return 100 if self._ins is None else int(100 * self._ins.chars / self._ins.total)

    def cancel(self) -> None:
        """Stop building; the partial document is dropped and ``cancelled`` emitted (once)."""
        if self._ins is None:
            return
        self._timer.stop()
        self._ins.doc.deleteLater()
        self._ins = None
        self.cancelled.emit()

    def _step(self) -> None:
        ins = self._ins
        if ins is None:
            return
        t0 = time.perf_counter()
        ins.insert(t0 + self.slice_ms / 1000.0)
        self.slices += 1
        self.longest_ms = max(self.longest_ms, (time.perf_counter() - t0) * 1000.0)
        if ins.done():
            self._timer.stop()
            self._ins = None
            self.progress.emit(100)
            # handed over on the next turn of the event loop, not after this slice's work
            QTimer.singleShot(0, self, lambda: self.finished.emit(ins.doc))
        else:
            self.progress.emit(int(100 * ins.chars / ins.total))


LINE_HEIGHT = 118
"""Percent: the text's line height, of its font's line spacing."""


def _formats(kind: str, level: int, prev: str | None) -> tuple[QTextBlockFormat, QTextCharFormat]:
    bf, cf = QTextBlockFormat(), QTextCharFormat()
    bf.setLineHeight(LINE_HEIGHT, QTextBlockFormat.LineHeightTypes.ProportionalHeight.value)
    if kind == "title":
        cf.setFontPointSize(look.pt(20))
        cf.setFontWeight(QFont.Weight.Bold)
        bf.setBottomMargin(6)
    elif kind == "heading":
        cf.setFontPointSize(look.pt(HEADING_PT.get(level, 12.0)))
        cf.setFontWeight(QFont.Weight.Bold)
        bf.setTopMargin(12)
        bf.setBottomMargin(4)
    elif kind == "meta":
        cf.setFontPointSize(look.pt(8.5))
        cf.setForeground(QBrush(QColor(look.marks().muted)))
        bf.setBottomMargin(2)
    elif kind == "row":
        cf.setFontPointSize(look.pt(9.5))
        bf.setLeftMargin(12)
        bf.setBottomMargin(2)
    elif kind == "item":
        bf.setBottomMargin(2)
    else:
        bf.setBottomMargin(8)
    if kind != "title" and prev == "meta" and kind != "meta":
        bf.setTopMargin(max(bf.topMargin(), 10))
    return bf, cf


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


class ArticleView(QTextEdit):
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

    # -- geometry helpers ---------------------------------------------------------------
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
