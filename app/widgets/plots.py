"""pyqtgraph as every plot of the window uses it: import ``pg`` from here, never pyqtgraph itself;
and what the plots share: cached axes, ranges set only when they change, marker labels.

pyqtgraph reads its configuration (background, foreground, antialiasing) when a plot is built, so
the configuration is set once, on the import that every plot module shares: a plot built first
(the Sensitivity dock restored from the last session, before the precision plot) draws like any
other, never on pyqtgraph's black default. A change of theme or zoom
(:mod:`readsim.app.appearance`) sets the configuration again and restyles every plot already
built (:func:`restyle_plots`): background, axes, tick and label fonts, titles."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QApplication, QGraphicsItem

from .. import appearance as look

LIGHT_PLOT, DARK_PLOT = look.PLOT[False], look.PLOT[True]  # background, foreground (axes, ticks, labels)
TITLE_PT = 9.0  # every plot title's size at zoom 1 (:func:`title_size`)
LABEL_ALPHA = 235  # a marker label's box: the plot's background, nearly opaque
DASH = Qt.PenStyle.DashLine

pg.setConfigOptions(antialias=True, background=look.plot_colours()[0], foreground=look.plot_colours()[1])


def _colour(role: str, alpha: int | None = None) -> QColor:
    """A role of :data:`readsim.app.appearance.ROLES` now, or the plot's ``"background"`` /
    ``"foreground"``."""
    if role in ("background", "foreground"):
        c = QColor(look.plot_colours()[0 if role == "background" else 1])
        if alpha is not None:
            c.setAlpha(alpha)
        return c
    return look.color(role, alpha)


def themed(item, pen: tuple | None = None, brush: str | tuple | None = None, label: str | None = None,
           text: str | None = None):
    """Colour ``item`` (a curve, a marker line, a scatter, a text item) by role now and after
    each change of theme (:func:`restyle`): ``pen`` ``(role, width[, style[, alpha]])``, ``brush``
    a role or ``(role, alpha)`` (a scatter's points, a region), ``label`` a role (a marker line's label text), ``text`` a role
    (a ``pg.TextItem``). Returns ``item``."""
    item._readsim_theme = (pen, brush, label, text)
    _paint(item)
    return item


def _paint(item) -> None:
    pen, brush, label, text = item._readsim_theme
    if pen is not None:
        role, width, *rest = pen
        style = rest[0] if rest else Qt.PenStyle.SolidLine
        alpha = rest[1] if len(rest) > 1 else None
        item.setPen(pg.mkPen(_colour(role, alpha), width=width, style=style))
    if brush is not None:
        role, alpha = (brush, None) if isinstance(brush, str) else brush
        item.setBrush(pg.mkBrush(_colour(role, alpha)))
    if label is not None:
        item.label.setColor(_colour(label))
    if text is not None:
        item.setColor(_colour(text))
    box = getattr(item, "label", None)
    if getattr(item, "_readsim_boxed", False) and box is not None:
        box.fill = pg.mkBrush(_colour("background", LABEL_ALPHA))
        box.update()


def marker(role: str, label: str = "", width: float = 1.5, style=DASH, position: float = 0.98) -> pg.InfiniteLine:
    """A vertical marker line in ``role``'s colour with its label in a box (:func:`boxed_label`)."""
    line = pg.InfiniteLine(angle=90, label=label)
    line._readsim_boxed = True
    return boxed_label(themed(line, pen=(role, width, style), label=role), position)


def plain_axes(item: pg.PlotItem) -> None:
    """Set up each axis of ``item`` as every plot of the window has them:

    - values as they are, never scaled with an SI prefix (a score axis zoomed below 1 would
      read "(x0.001)"); pyqtgraph's automatic prefix also set the axis label's HTML again on
      every change of range, re-laying it out each time;
    - kept as a pixmap (Qt's device-coordinate cache) until it changes: an axis that draws the
      grid spans the whole plot, so any change inside the plot repainted it (2-4 ms of
      antialiased grid lines and tick labels each time) where a cached axis is a blit.
      pyqtgraph invalidates the cache itself (``update()``) when the range or labels change."""
    for axis in item.axes.values():
        axis["item"].enableAutoSIPrefix(False)
        axis["item"].setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)


def set_range(item: pg.PlotItem, axis: int, lo: float, hi: float, padding: float) -> None:
    """Show ``[lo, hi]`` with ``padding`` on axis ``axis`` (0: x, 1: y) of ``item``, as
    ``setXRange``/``setYRange`` do, unless the view shows that range already: pyqtgraph's
    ``ViewBox.setRange`` updates the view (its state signals, its children's transforms) even for
    the range it has, and a mode change sets the same ranges again. The range is compared as
    ``setRange`` computes it (no limits are set on these plots)."""
    vb = item.getViewBox()
    pad = (hi - lo) * padding
    if not vb.autoRangeEnabled()[axis] and vb.targetRange()[axis] == [lo - pad, hi + pad]:
        return
    (item.setXRange if axis == 0 else item.setYRange)(lo, hi, padding=padding)


def boxed_label(line: pg.InfiniteLine, position: float = 0.98) -> pg.InfiniteLine:
    """Draw a vertical line's label in a box of the plot's background hanging from ``position`` (0 bottom, 1 top
    of the view; default: the top), above the curves: a curve passes behind the label, never
    through its text. Returns ``line``."""
    line._readsim_boxed = True
    line.label.fill = pg.mkBrush(_colour("background", LABEL_ALPHA))
    line.setZValue(20)
    line.label.setPosition(position)
    line.label.anchors = [(0.0, 0.0), (0.0, 0.0)]
    line.label.updatePosition()
    return line


def set_label(line: pg.InfiniteLine, text: str) -> None:
    """Show ``text`` literally on ``line`` (pyqtgraph formats a label with ``str.format``:
    braces in an article id are doubled; the label is plain text)."""
    fmt = text.replace("{", "{{").replace("}", "}}")
    if line.label.format != fmt:
        line.label.setFormat(fmt)


def keep_label_inside(line: pg.InfiniteLine, n: float) -> None:
    """Put a vertical line's label on the side with room: left of the line in the right third
    of the x range ``[0, n]`` (else "T2I(300) stop" or "23724 (rank 90)" is cut at the plot's right
    edge), right of it elsewhere."""
    left = n > 0 and line.value() > 0.66 * n
    anchor = (1.0 if left else 0.0, line.label.anchors[0][1])
    if line.label.anchors[0] != anchor:
        line.label.anchors = [anchor, anchor]
        line.label.updatePosition()


def title_size() -> str:
    """A plot title's size at the current zoom, for ``setTitle(..., size=)``."""
    return f"{look.pt(TITLE_PT):.3g}pt"


def plot_colours() -> tuple[str, str]:
    """The plots' background and foreground in the current theme."""
    return look.plot_colours()


def restyle(plot: pg.PlotWidget) -> None:
    """Draw ``plot`` in the current theme and zoom: its background, its axes' lines, tick labels
    (their font: the application's, whose size follows the zoom) and axis labels, its title."""
    bg, fg = plot_colours()
    plot.setBackground(bg)
    font = QFont(QApplication.font())
    item = plot.getPlotItem()
    for entry in item.axes.values():
        axis = entry["item"]
        axis.setPen(fg)
        axis.setTextPen(fg)
        axis.setStyle(tickFont=font)
        axis.labelStyle = {**axis.labelStyle, "color": fg, "font-size": f"{font.pointSizeF():.3g}pt"}
        axis.label.setFont(font)
        axis._updateLabel()
        if axis.orientation in ("left", "right"):
            axis._updateWidth()
        else:
            axis._updateHeight()
        axis.picture = None
        axis.update()
    title = item.titleLabel
    if title.isVisible() and title.text:
        title.setText(look.retint(title.text, look.is_dark()), color=fg, size=title_size())
    legend = item.legend
    if legend is not None:
        for _sample, text in legend.items:
            text.setText(text.text, color=fg)
    for child in plot.scene().items():  # the curves, markers and points coloured by role
        if getattr(child, "_readsim_theme", None) is not None:
            _paint(child)


def restyle_plots() -> None:
    """Set pyqtgraph's configuration for the current theme (plots built from now on) and
    restyle every plot already built (:func:`restyle`)."""
    bg, fg = plot_colours()
    pg.setConfigOptions(background=bg, foreground=fg)
    for w in QApplication.allWidgets():
        if isinstance(w, pg.PlotWidget):
            restyle(w)
