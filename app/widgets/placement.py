"""Where windows open: inside the screen, and giving back the size a dock took.

A floating dock placed from the main window's geometry alone can open wider than the screen
(the main window itself may be larger than a small screen), and a dock shown docked widens the
main window to the dock's minimum width. :func:`within_screen` bounds a rectangle by the
screen's available geometry (``QScreen.availableGeometry``: the screen less task bars and
panels); :func:`give_back` returns the main window to the size it had before.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication


def within_screen(window, fw: float, fh: float) -> QRect:
    """A rectangle ``fw`` x ``fh`` of ``window``'s size, centred on it, inside the available
    geometry of its screen (``QScreen.availableGeometry``: the screen less task bars)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    avail = screen.availableGeometry()
    g = window.geometry().intersected(avail)
    if g.isEmpty():
        g = avail
    w, h = min(int(g.width() * fw), avail.width()), min(int(g.height() * fh), avail.height())
    x = min(max(g.x() + (g.width() - w) // 2, avail.left()), avail.right() + 1 - w)
    y = min(max(g.y() + (g.height() - h) // 2, avail.top()), avail.bottom() + 1 - h)
    return QRect(x, y, w, h)


def give_back(window, size: QSize) -> None:
    """Give ``window`` back ``size`` (its size before a dock opened) if it grew since (call it
    once the dock is hidden: the window's layout is activated first, so that the minimum size
    it had with the dock no longer holds it)."""
    if window.layout() is not None:
        window.layout().activate()
    now = window.size()
    if now.width() > size.width() or now.height() > size.height():
        window.resize(size.boundedTo(now))
