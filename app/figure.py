"""Figures for papers: the open article drawn as the window draws it, without the window.

:func:`export_figure` writes a figure of the article open in a main window: either a range of
the article, ``[start, end)`` in the session's unit (bytes, or characters with ``--unit
chars``: the unit of the qrels' and runs' offsets, docs/reference.md section 1), or the
article pane's visible screen. The figure holds

- the article's lines covering the range, laid out at the article pane's width (or
  :data:`COLUMN` logical pixels when the pane is narrower), with the marks (relevant: yellow,
  retrieved: blue underline, both: green and underlined), the matching chain's badges and
  "↓k+1" chips, the reading order's jumps (arcs in the gutter) and the entry point's flag,
  exactly as :class:`~readsim.app.widgets.article_view.ArticleView` paints them (it is one,
  drawn offscreen); text of those lines outside the range is veiled;
- for the visible screen also the current reading screen's frame and the veil over what is
  read, as on screen;
- a legend of the marks and one line of context (article, topic, run, reading mode, range);
- no selection (a fresh view has none), no scroll bar, no window frame.

Formats, by the file's suffix: ``.svg`` (``QSvgGenerator``, vector, text as text), ``.pdf``
(``QPdfWriter``, one page the figure's size, vector) and ``.png`` (``width`` pixels wide, the
figure scaled to it, default :data:`DEFAULT_WIDTH`). Every file is rendered in memory, then
written atomically (:func:`readsim.core.atomic.write_bytes`), only over a regular file.

The figure's lines are laid out in slices of at most :data:`SLICE_MS` (Qt lays a long article
out line by line: about a second for 4 MB), and only as far as the figure needs (the range's end,
or the visible screen's); ``tick(done, total)`` is called after each slice (blocks laid out of
those needed) and returning False cancels (:class:`Cancelled`, nothing written): File ▸ Export
figure… shows it in a progress dialog whose Cancel (Esc) stops it. The layout stays in the GUI
thread: the view that lays the document out is a widget (:class:`ArticleView`), and Qt lays a
document out again in the GUI thread as soon as a view shows it, whichever thread built it
(:class:`~readsim.app.widgets.article_view.DocumentBuilder`).

Errors: ``ValueError`` with a one-line reason when no article text is open, the range is
not ``START:END`` with ``0 <= START < END <= article length`` (the length is named), the
figure would be taller than :data:`MAX_HEIGHT` logical pixels, the width is out of
:data:`WIDTH_RANGE`, or the suffix is not one of ``.svg``, ``.pdf``, ``.png``; ``OSError``
naming the path when the file cannot be written (a folder, a FIFO, a device are refused).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QPoint, QRect, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (QColor, QFont, QFontMetrics, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen,
                           QTextCursor)
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QAbstractScrollArea, QFrame, QWidget

from readsim.core.atomic import write_bytes

from . import appearance as look
from .articles import length_of
from .background import Cancelled  # raised here when the figure is cancelled (nothing written)
from .widgets.article_view import BOTH, GUTTER, RELEVANT, ArticleView
from .widgets.gutter import RETRIEVED, SCREEN

PAPER, INK = QColor(look.FIGURE["paper"]), QColor(look.FIGURE["ink"])  # a figure is printed: always light

COLUMN = 640            # narrowest text column of a figure (logical pixels, the gutter excluded)
DEFAULT_WIDTH = 1600    # a PNG figure's default width in pixels
WIDTH_RANGE = (100, 20_000)
MAX_HEIGHT = 30_000     # tallest figure (logical pixels): a longer range is refused
MAX_PNG_PIXELS = 200_000_000  # largest PNG (width x height): 800 MB of pixels while it is drawn
PAD = 2                 # logical pixels below the range's last line (none above: the line
                        # above would show its underline)
SUFFIXES = (".svg", ".pdf", ".png")
SLICE_MS = 30.0         # at most this long laying the figure's lines out between two ticks


@dataclass
class Figure:
    """A figure ready to paint: the offscreen view, the legend's context line, the figure's
    logical size (pixels) and whether the reading screen is drawn."""

    view: ArticleView
    caption: str
    size: QSize
    screen: bool

    def paint(self, p: QPainter) -> None:
        """Paint the figure at logical coordinates ``(0, 0)``–``size`` (the caller scales)."""
        p.fillRect(QRect(QPoint(0, 0), self.size), PAPER)
        QWidget.render(self.view, p, QPoint(0, 0))
        p.save()
        p.translate(0, self.view.height())
        paint_legend(p, self.size.width(), self.caption, self.screen)
        p.restore()

    def close(self) -> None:
        self.view.close()
        self.view.deleteLater()


def _legend_font() -> QFont:
    font = QFont()
    font.setPointSizeF(9.0)
    return font


def _swatch(text: str, fill: QColor | None, underline: bool, frame: bool = False):
    """A legend item: ``text`` on ``fill`` (underlined like a retrieved mark, framed like the screen)."""
    def paint(p: QPainter, r: QRect) -> None:
        if fill is not None:
            p.fillRect(r, fill)
        if frame:
            p.setPen(QPen(SCREEN, 1.2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(r)
        p.setPen(INK)
        p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)
        if underline:
            p.setPen(QPen(RETRIEVED, 1.2))
            p.drawLine(r.left() + 4, r.bottom() - 1, r.right() - 4, r.bottom() - 1)

    return lambda fm: fm.horizontalAdvance(text) + 8, paint


def _badge(badge: str, text: str, solid: bool):
    """A legend item: a chain badge (``solid``) or chip as the gutter draws it, then ``text``."""
    def badge_width(fm: QFontMetrics) -> int:
        return max(20, fm.horizontalAdvance(badge) + 6)

    def paint(p: QPainter, r: QRect) -> None:
        bw = badge_width(p.fontMetrics())
        box = QRect(r.left(), r.top() + 1, bw, r.height() - 2)
        p.setPen(Qt.PenStyle.NoPen if solid else QPen(RETRIEVED, 1))
        p.setBrush(RETRIEVED if solid else PAPER)
        p.drawRoundedRect(QRectF(box), 4, 4)
        p.setPen(PAPER if solid else RETRIEVED)
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, badge)
        p.setPen(INK)
        p.drawText(r.adjusted(bw + 4, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter, text)

    return lambda fm: badge_width(fm) + 4 + fm.horizontalAdvance(text) + 2, paint


def _legend_layout(width: int, screen: bool) -> tuple[list[tuple[QRect, object]], int]:
    """The legend's items placed in rows that fit ``width``, and the legend's height (the
    context line included)."""
    fm = QFontMetrics(_legend_font())
    screen_fill = QColor(SCREEN)
    screen_fill.setAlpha(28)
    items = [_swatch("relevant", RELEVANT, False), _swatch("retrieved", None, True),
             _swatch("relevant ∩ retrieved", BOTH, True), _badge("1", "passage of the matching chain", True),
             _badge("↓2", "link to the next passage", False)]
    if screen:
        items.append(_swatch("screen", screen_fill, False, frame=True))
    h = fm.height() + 2
    x, y = 8, 6
    out = []
    for measure, paint in items:
        w = measure(fm)
        if x > 8 and x + w > width - 8:  # wrap to the next row
            x, y = 8, y + h + 4
        out.append((QRect(x, y, w, h), paint))
        x += w + 14
    return out, y + h + 2 + fm.height() + 4


def legend_height(width: int, screen: bool) -> int:
    """Height (logical pixels) of the legend of a figure ``width`` wide."""
    return _legend_layout(width, screen)[1]


def paint_legend(p: QPainter, width: int, caption: str, screen: bool) -> None:
    """The legend (swatches and their words, in rows that fit ``width``) and the context line,
    on white: it also covers what the view painted past its bottom (the next line's text, an
    arc leaving the view), which an SVG keeps (``QSvgGenerator`` writes no clip paths)."""
    items, height = _legend_layout(width, screen)
    p.fillRect(QRect(0, 0, width, height), PAPER)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    font = _legend_font()
    p.setFont(font)
    fm = QFontMetrics(font)
    p.setPen(QPen(QColor(look.FIGURE["rule"]), 1))
    p.drawLine(0, 0, width, 0)
    for rect, paint in items:
        paint(p, rect)
    p.setPen(QColor(look.FIGURE["caption"]))
    p.drawText(QRect(8, height - fm.height() - 4, width - 16, fm.height()), Qt.AlignmentFlag.AlignLeft,
               fm.elidedText(caption, Qt.TextElideMode.ElideRight, width - 16))


def range_limit(session) -> tuple[int, str]:
    """The largest END of a figure's range of ``session``'s open article and what it is: the
    article's length (reference 1.5: the qrels' doc_length, as the window says it,
    :func:`readsim.app.articles.length_of`), or the reader's extent when the run retrieves text
    past it (read as non-relevant text, reference 1.5). (0, "") when no article is open."""
    cur = session.current
    if cur is None:
        return 0, ""
    unit = "characters" if session.unit == "chars" else session.unit
    length = length_of(session.qrels, session.topic, cur.name, cur.article)
    length = cur.evaluation.n if length is None else length
    if cur.evaluation.n > length:
        return cur.evaluation.n, f"article {cur.name}'s length {length:,} and the retrieved text past it, in {unit}"
    return length, f"article {cur.name}'s length in {unit}"


def build_figure(window, span: tuple[int, int] | None = None,
                 tick: Callable[[int, int], bool] | None = None) -> Figure:
    """The :class:`Figure` of ``window``'s open article: unit range ``span`` = ``(start,
    end)``, or the article pane's visible screen when None; ``tick(done, total)`` after each
    slice of the layout, False cancels. Raises ``ValueError`` (see the module) or
    :class:`Cancelled`. The caller calls :meth:`Figure.close`."""
    s = window.session
    cur = s.current
    src: ArticleView = window.article.view
    if cur is None or cur.layout is None or src.marks() is None:
        raise ValueError("no article text is open: open an article first")
    lay = cur.layout
    unit = "characters" if s.unit == "chars" else s.unit
    if span is not None:
        start, end = span
        length, what = range_limit(s)
        if not 0 <= start < end <= length:
            raise ValueError(f"range {start}:{end}: give 0 <= START < END <= {length:,} ({what})")
    view = ArticleView()
    view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    view.setFrameShape(QFrame.Shape.NoFrame)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustIgnored)
    view.setFont(src.font())
    view.show_article(lay, src.marks())  # built as the pane's was (a clone loses its document margin)
    view.set_jumps(src.jumps())
    view.set_entry(src.entry())
    if span is None:  # the visible screen, as on screen
        width = GUTTER + src.viewport().width()
        height = src.viewport().height()
        view.resize(width, height)
        view.show()
        _lay_out(view, src.visible_range()[1], tick)
        view.set_window(src.window_spans(), scroll=False)
        view.set_read(src.read_spans(), window.playback.read)
        view.verticalScrollBar().setValue(src.verticalScrollBar().value())
        lo, hi = src.visible_range()
        what = f"visible screen, {unit} {lay.from_display(lo):,}–{lay.from_display(hi):,}"
    else:
        width = GUTTER + max(src.viewport().width(), COLUMN)
        view.resize(width, 400)
        view.show()
        a, b = lay.to_display(start, "start"), lay.to_display(end, "end")
        b = max(b, a + 1)
        _lay_out(view, b - 1, tick)
        view.set_read([], 0)
        view.verticalScrollBar().setValue(0)
        top, bottom = _line_rect(view, a).top(), _line_rect(view, b - 1).bottom()
        height = bottom - top + 1 + PAD
        if height > MAX_HEIGHT:
            view.close()
            view.deleteLater()
            raise ValueError(f"range {start}:{end}: the figure would be {height:,} pixels high (at most "
                             f"{MAX_HEIGHT:,}); give a shorter range")
        view.resize(width, height)
        view.verticalScrollBar().setValue(top)
        lo, hi = view.visible_range()
        view.set_read([(lo, a), (b, hi + 1)], 0)  # the lines' text outside the range: veiled
        what = f"{unit} {start:,}–{end:,}"
    view.viewport().update()
    run = s.run.run_id if s.run is not None else "no run"
    caption = (f"article {cur.name} · topic {s.topic or '–'} · run {run} · "
               f"{s.settings.mode.value} reading · {what}")
    return Figure(view, caption, QSize(view.width(), view.height() + legend_height(view.width(), span is None)),
                  span is None)


def _lay_out(view: ArticleView, position: int, tick: Callable[[int, int], bool] | None) -> None:
    """Lay ``view``'s document out from its start to the line after display ``position`` (what
    the figure shows and one line more, for its height), in slices of at most :data:`SLICE_MS`,
    ``tick(done, total)`` (blocks) after each; False closes the view and raises :class:`Cancelled`."""
    doc = view.document()
    layout = doc.documentLayout()
    total = min(doc.findBlock(max(position, 0)).blockNumber() + 2, doc.blockCount())
    done = 0
    while done < total:
        deadline = time.perf_counter() + SLICE_MS / 1000.0
        while done < total and time.perf_counter() < deadline:
            done = min(total, done + 8)
            layout.blockBoundingRect(doc.findBlockByNumber(done - 1))  # lays out every block up to it
        if tick is not None and not tick(done, total):
            view.close()
            view.deleteLater()
            raise Cancelled


def _line_rect(view: ArticleView, position: int) -> QRect:
    """The cursor rect (the line's height) of display ``position`` in ``view``'s viewport."""
    cursor = QTextCursor(view.document())
    cursor.setPosition(min(max(position, 0), max(view.document().characterCount() - 1, 0)))
    return view.cursorRect(cursor)


def render_figure(figure: Figure, suffix: str, width: int = DEFAULT_WIDTH) -> bytes:
    """``figure`` as the bytes of a ``.svg``, ``.pdf`` or ``.png`` file (``width`` pixels wide
    for PNG; SVG and PDF are vector, in the figure's logical size)."""
    size = figure.size
    dpi = figure.view.logicalDpiX()  # the text was laid out at the screen's resolution
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    p = QPainter()
    if suffix == ".png":
        scale = width / size.width()
        height = max(1, round(size.height() * scale))
        if width * height > MAX_PNG_PIXELS:
            raise ValueError(f"the PNG would be {width:,} × {height:,} pixels (at most {MAX_PNG_PIXELS:,} in all): "
                             "give a smaller width or a shorter range")
        image = QImage(width, height, QImage.Format.Format_RGB32)
        if image.isNull():
            raise OSError(f"cannot make a PNG of {width:,} × {height:,} pixels (out of memory)")
        image.setDotsPerMeterX(round(dpi / 0.0254))  # fonts sized as on screen, then scaled
        image.setDotsPerMeterY(round(dpi / 0.0254))
        image.fill(PAPER)
        p.begin(image)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        p.scale(scale, scale)
        figure.paint(p)
        p.end()
        ok = image.save(buf, "PNG")
        buf.close()
        if not ok:
            raise OSError("cannot render the PNG")
        return bytes(data.data())
    if suffix == ".svg":
        device = QSvgGenerator()
        device.setOutputDevice(buf)
        device.setSize(size)
        device.setViewBox(QRect(QPoint(0, 0), size))
        device.setResolution(dpi)
        device.setTitle(figure.caption)
        device.setDescription("figure exported by readsim")
    else:
        device = QPdfWriter(buf)
        device.setResolution(dpi)
        device.setTitle(figure.caption)
        device.setCreator("readsim")
        device.setPageLayout(QPageLayout(QPageSize(QSizeF(size.width() / dpi, size.height() / dpi), QPageSize.Unit.Inch),
                                         QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    if not p.begin(device):
        raise OSError(f"cannot render the {suffix[1:].upper()}")
    try:
        figure.paint(p)
    finally:
        p.end()
        buf.close()
    return bytes(data.data())


def export_figure(window, path: str | Path, span: tuple[int, int] | None = None,
                  width: int = DEFAULT_WIDTH, tick: Callable[[int, int], bool] | None = None) -> Path:
    """Write the figure of ``window``'s open article to ``path`` (``.svg``, ``.pdf``,
    ``.png``): unit range ``span`` = ``(start, end)`` or, when None, the visible screen;
    ``width``: the PNG's width in pixels; ``tick(done, total)`` after each slice of the layout,
    False cancels. Returns the path. Raises ``ValueError`` (bad range, width or suffix, no
    article; one line), ``OSError`` naming ``path`` (see the module) or :class:`Cancelled`."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"{path}: cannot write {suffix or 'a file without suffix'} as a figure; "
                         f"use one of {', '.join(SUFFIXES)}")
    if not WIDTH_RANGE[0] <= int(width) <= WIDTH_RANGE[1]:
        raise ValueError(f"figure width {width}: give {WIDTH_RANGE[0]} to {WIDTH_RANGE[1]:,} pixels")
    figure = build_figure(window, span, tick)
    try:
        data = render_figure(figure, suffix, int(width))
    finally:
        figure.close()
    if not data:
        raise OSError(f"{path}: the figure is empty; nothing written")
    write_bytes(path, data)
    return path
