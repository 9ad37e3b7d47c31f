"""The article's document: :func:`build_document` makes one ``QTextBlock`` per layout block, so a
layout's display positions are this document's positions (checked by the tests);
:class:`DocumentBuilder` makes the same document in slices of at most :data:`SLICE_MS` of the GUI
thread each, with progress and cancel, for long articles. The fonts and spacing of its blocks
(title, headings, metadata, rows, items, paragraphs) follow the zoom. Shown by
:class:`~readsim.app.widgets.article_view.ArticleView`."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QTextBlockFormat, QTextCharFormat, QTextCursor, QTextDocument, QTextListFormat

from readsim.core.layout import Layout

from .. import appearance as look

SLICE_MS = 30.0  # at most this long in the GUI thread per slice of a DocumentBuilder
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
