"""The article view's left margin (:class:`Gutter`, a child of
:class:`~readsim.app.widgets.article_view.ArticleView`): the matching chain's numbered badges
and "next passage" chips, the reading order's jumps as arcs (orange once taken, the last one
taken bold), the reading screen's bar and the entry point's flag; the colours the view shares
with it. Its geometry comes from the view (positions of what is in view only); each jump's arc
is drawn once into an image kept by its geometry and style, and blitted after
(:meth:`Gutter._arc_image`).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPaintEngine, QPainter, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import QWidget

from .. import appearance as look

# the light theme's marks (the figure's)
RETRIEVED = QColor(look.LIGHT.retrieved)  # blue underline: retrieved (with or without relevance)
SCREEN = QColor(look.LIGHT.screen)  # the current reading screen: frame and gutter bar (grey: apart from the blue
                                    # underline under deuteranopia and protanopia, tests/app/test_appearance.py)
JUMP = "orange"          # role: a jump of the reading order already taken
JUMP_AHEAD = "ahead"     # role: a jump still ahead (alpha 150)
ENTRY = "entry"          # role: the entry point (entry reading mode): gutter flag and caret
GUTTER = 44
BADGE_W = 20
ARC_MARGIN = 6  # pixels an arc's dot, head and stroke reach beyond its ends
ARC_IMAGES = 32  # jump arcs' images kept (each GUTTER wide, as tall as the arc)


def _draw_arc(p: QPainter, y1: int, y2: int, taken: bool, last: bool) -> None:
    """One jump in the gutter: a curve from gutter height ``y1`` (a dot: the piece's end) to
    ``y2`` (an arrow head: the next piece's start), orange once ``taken``, bold if the ``last``
    taken, else grey."""
    x = GUTTER - 9
    bulge = min(12.0, 4.0 + abs(y2 - y1) / 12.0)
    path = QPainterPath()
    path.moveTo(x, y1)
    path.cubicTo(x - bulge, y1, x - bulge, y2, x, y2)
    color = look.color(JUMP) if taken else look.color(JUMP_AHEAD, 150)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(color, 2.2 if last else 1.3))
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


def _pixel_exact(p: QPainter, dpr: float) -> bool:
    """Whether an image of ``dpr`` drawn by ``p`` at a whole pixel lands pixel for pixel: a
    raster device (a window's backing store, not an SVG or PDF figure) at the widget's own
    scale, at a whole device pixel (not a figure scaled to its width: that would resample)."""
    t = p.deviceTransform()
    return (p.paintEngine().type() == QPaintEngine.Type.Raster and dpr == int(dpr)
            and t.type().value <= QTransform.TransformationType.TxScale.value and t.m11() == dpr == t.m22()
            and t.dx() == int(t.dx()) and t.dy() == int(t.dy()))


class Gutter(QWidget):
    """Left margin: chain badges and "next passage" chips, the reading order's jumps and the
    reading screen's bar. ``view``: the :class:`~readsim.app.widgets.article_view.ArticleView`
    it belongs to (its parent), which gives the geometry."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self.setMouseTracking(True)
        self._arcs: dict[tuple, QImage] = {}  # the jump arcs' images (_arc_image)

    def sizeHint(self) -> QSize:
        return QSize(GUTTER, 0)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        colours = look.marks()  # the theme's
        retrieved, page = QColor(colours.retrieved), QColor(colours.page)
        p.fillRect(event.rect(), look.color("gutter_bg"))
        self._paint_jumps(p)
        for top, bottom in self.view._screen_extents():
            p.fillRect(QRect(GUTTER - 6, top, 4, max(bottom - top, 2)), QColor(colours.screen))
        font = QFont(self.font())
        font.setPointSizeF(7.5)  # not zoomed: the badges fit the gutter's fixed width
        font.setBold(True)
        p.setFont(font)
        for number, rect in self.view._badge_rects():
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(look.color("badge"))
            p.drawRoundedRect(QRectF(rect), 4, 4)
            p.setPen(look.color("on_accent"))
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(number))
        for number, rect in self.view.link_rects():
            p.setPen(QPen(retrieved, 1.0))
            p.setBrush(page)
            p.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3)
            p.setPen(retrieved)
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"↓{number}")
        rect = self.view.entry_rect()
        if rect is not None:  # the entry point: a flag pointing at its line
            flag = QPainterPath()
            flag.moveTo(rect.left(), rect.top())
            flag.lineTo(rect.right() - 6, rect.top())
            flag.lineTo(rect.right(), rect.center().y())
            flag.lineTo(rect.right() - 6, rect.bottom())
            flag.lineTo(rect.left(), rect.bottom())
            flag.closeSubpath()
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(look.color(ENTRY))
            p.drawPath(flag)
            p.setPen(look.color("on_accent"))
            p.drawText(rect.adjusted(0, 0, -5, 0), Qt.AlignmentFlag.AlignCenter, "in")
        p.end()

    def _paint_jumps(self, p: QPainter) -> None:
        """An arc per jump, from the end of a piece (tail) to the next piece's start (arrow),
        each blitted from its image (:meth:`_arc_image`)."""
        h = self.height()
        arcs = self.view.jump_arcs()
        last = max((i for i, (_, _, taken) in enumerate(arcs) if taken), default=-1)
        dpr = self.devicePixelRatioF()
        blit = _pixel_exact(p, dpr)
        for i, (y1, y2, taken) in enumerate(arcs):
            if max(y1, y2) < -10 or min(y1, y2) > h + 10:
                continue
            if not blit:
                _draw_arc(p, y1, y2, taken, i == last)
                continue
            top, bottom = max(min(y1, y2) - ARC_MARGIN, 0), min(max(y1, y2) + ARC_MARGIN, h)
            p.drawImage(QPointF(0, top), self._arc_image(y1, y2, taken, i == last, top, bottom, dpr))

    def _arc_image(self, y1: int, y2: int, taken: bool, last: bool, top: int, bottom: int, dpr: float) -> QImage:
        """The arc as :func:`_draw_arc` paints it, rows ``[top, bottom)`` of the gutter, on a
        transparent image, kept by its geometry and style: an antialiased stroke over a few
        hundred pixels costs Qt's raster engine 0.3-0.5 ms, its image a blit, and a reading
        mode change or a repaint mostly draws arcs seen before (an end out of view is placed
        at a fixed height above or below it). The same pixels: drawn at the same device
        position, composited the same way."""
        key = (y1, y2, taken, last, top, bottom, dpr)
        image = self._arcs.get(key)
        if image is None:
            if len(self._arcs) >= ARC_IMAGES:
                self._arcs.clear()
            size = (int(GUTTER * dpr), max(int((bottom - top) * dpr), 1))
            image = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)
            image.setDevicePixelRatio(dpr)
            image.fill(Qt.GlobalColor.transparent)
            painter = QPainter(image)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.translate(0, -top)
            _draw_arc(painter, y1, y2, taken, last)
            painter.end()
            self._arcs[key] = image
        return image

    def mousePressEvent(self, event) -> None:
        pos = event.position().toPoint()
        for number, rect in self.view._badge_rects() + self.view.link_rects():
            if rect.contains(pos):
                self.view.jump_to_passage(number)
                return
