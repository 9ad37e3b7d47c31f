"""Where windows open: inside the screen, and giving back the size a dock took.

A window opened at a fixed default size (the main window's 1,600 x 1,000) or at a geometry
remembered from a larger monitor hangs off a smaller screen (1,366 x 768, 1,280 x 720); a floating
dock placed from the main window's geometry alone can open wider than the screen; a dock shown
docked widens the main window to the dock's minimum width. The screen's room is its available
geometry (``QScreen.availableGeometry``: the screen less task bars and panels). :func:`fit` and
:func:`opening` are the pure rules (rectangles in, rectangle out); :func:`place` opens a window
by them, :func:`within_screen` places a floating dock, :func:`give_back` returns the main window
to the size it had before a dock widened it, and :class:`Scrolled` lets a panel scroll rather than
hold the window larger than a small screen. What opens by default on a small screen follows one
rule: a part (a dock, a column of a list) opens only where what it sits beside keeps the room it
needs (:func:`keep_open`, :func:`shown_columns`); one that does not fit starts closed or tabbed,
and the user can open it.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QEvent, QMargins, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

MARGIN = 32
"""Pixels kept free on each side of a window opened at its default size on a screen smaller than
that size: room for the window's frame and title bar, which Qt does not count in its geometry."""


FRAME = 8
"""Pixels allowed on each side of a remembered geometry for the window's frame where the platform
does not tell it before the window is first shown (Qt's ``restoreGeometry`` keeps the title bar
on the screen itself)."""


def fit(avail: QRect, wanted: QRect) -> QRect:
    """``wanted`` with its size bounded by ``avail``'s, moved as little as possible to lie inside
    ``avail`` (a rectangle already inside is returned unchanged)."""
    w, h = min(wanted.width(), avail.width()), min(wanted.height(), avail.height())
    x = min(max(wanted.x(), avail.left()), avail.right() + 1 - w)
    y = min(max(wanted.y(), avail.top()), avail.bottom() + 1 - h)
    return QRect(x, y, w, h)


def _inner(avail: QRect, margin: int) -> QRect:
    room = avail.adjusted(margin, margin, -margin, -margin)
    return room if room.width() > 0 and room.height() > 0 else avail


def opening(avail: QRect, size: QSize, margin: int = MARGIN) -> QRect:
    """Where a window of the default ``size`` opens on a screen whose room is ``avail``: that
    size, bounded by ``avail`` less ``margin`` pixels on each side (by ``avail`` itself when the
    margin would leave nothing), centred on ``avail``."""
    room = _inner(avail, margin)
    w, h = min(size.width(), room.width()), min(size.height(), room.height())
    return QRect(avail.x() + (avail.width() - w) // 2, avail.y() + (avail.height() - h) // 2, w, h)


def _room(window) -> QRect:
    return (window.screen() or QGuiApplication.primaryScreen()).availableGeometry()


def place(window, size: QSize, saved=None) -> None:
    """Open ``window`` (a top-level widget, its widgets built) inside the available geometry of
    its screen: at its remembered geometry ``saved`` (from ``saveGeometry``; None or empty:
    none), bounded and moved onto the screen, frame included, where it no longer fits (saved on
    a larger monitor, or on one no longer attached: :func:`fit`); without one, at the default
    ``size`` (:func:`opening`), never below the window's minimum size (a window whose minimum is
    larger than the screen overhangs it). A maximized or full-screen window is left so."""
    room = _room(window)
    if isinstance(saved, QByteArray) and not saved.isEmpty() and window.restoreGeometry(saved):
        if window.windowState() & (Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen):
            return
        geometry, frame = window.geometry(), window.frameGeometry()
        margins = QMargins(geometry.left() - frame.left(), geometry.top() - frame.top(),
                           frame.right() - geometry.right(), frame.bottom() - geometry.bottom())
        room = room.marginsRemoved(margins if not margins.isNull() else QMargins(FRAME, FRAME, FRAME, FRAME))
        geometry = fit(room, geometry)
    else:  # at least the window's minimum size (Qt would grow it so when shown, off the screen's edge)
        geometry = opening(room, size)
        least = window.minimumSizeHint().expandedTo(window.minimumSize())
        geometry = fit(room, QRect(geometry.topLeft(), geometry.size().expandedTo(least)))
    if geometry != window.geometry():
        window.setGeometry(geometry)


def keep_inside(window) -> None:
    """Move ``window`` (shown, top-level) back inside its screen's available geometry where it
    hangs off it (a dock that opened widened it past the screen's edge), frame included; a
    window larger than the room keeps its size, its top left corner on the screen."""
    geometry, frame = window.geometry(), window.frameGeometry()
    margins = QMargins(geometry.left() - frame.left(), geometry.top() - frame.top(),
                       frame.right() - geometry.right(), frame.bottom() - geometry.bottom())
    room = _room(window).marginsRemoved(margins)
    x = max(min(geometry.x(), room.right() + 1 - geometry.width()), room.left())
    y = max(min(geometry.y(), room.bottom() + 1 - geometry.height()), room.top())
    if (x, y) != (geometry.x(), geometry.y()):
        window.move(frame.x() + x - geometry.x(), frame.y() + y - geometry.y())  # move() places the frame


def within_screen(window, fw: float, fh: float) -> QRect:
    """A rectangle ``fw`` x ``fh`` of ``window``'s size, centred on it, inside the available
    geometry of its screen (``QScreen.availableGeometry``: the screen less task bars)."""
    avail = _room(window)
    g = window.geometry().intersected(avail)
    if g.isEmpty():
        g = avail
    w, h = int(g.width() * fw), int(g.height() * fh)
    return fit(avail, QRect(g.x() + (g.width() - w) // 2, g.y() + (g.height() - h) // 2, w, h))


class Scrolled(QScrollArea):
    """``panel`` in a frameless scroll area (``widget()`` is ``panel``) that scrolls it where the
    screen is too small for it, instead of holding the window larger than the screen. The panel
    gets the whole area, never less than its least size (scrolled then); the area's own least
    size is the panel's, bounded by ``width_share`` and ``height_share`` of its screen's
    available size, and follows the panel's as that changes. Where the screen has room nothing
    scrolls: the panel is laid out as without the scroll area (its preferred height for its
    width is not asked for, as ``widgetResizable`` would for word-wrapped text)."""

    def __init__(self, panel: QWidget, width_share: float, height_share: float) -> None:
        super().__init__()
        self.shares = (width_share, height_share)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidget(panel)
        panel.installEventFilter(self)

    grown = None
    """Called (no argument) when the panel's least size changed (its values came, a row showed)."""

    def _least(self) -> QSize:
        panel = self.widget()
        return panel.minimumSizeHint().expandedTo(panel.minimumSize())

    def needed_width(self, preferred: int = 0) -> int:
        """The width at which the panel does not scroll sideways and is at least ``preferred``
        wide (what a part of it prefers, nothing wrapped: the panel's own size hint overstates it
        where it holds word-wrapped text), plus the vertical scroll bar when the panel scrolls up
        and down at the area's height."""
        least = self._least()
        bar = self.verticalScrollBar().sizeHint().width() if least.height() > self.maximumViewportSize().height() else 0
        return max(least.width(), preferred) + bar

    def _fit(self) -> None:
        """Size the panel to the area, at least to its least size; a scroll bar shown one way
        takes its room from the other."""
        least, room = self._least(), self.maximumViewportSize()
        w, h = max(room.width(), least.width()), max(room.height(), least.height())
        if w > room.width():
            h = max(least.height(), room.height() - self.horizontalScrollBar().sizeHint().height())
        if h > room.height():
            w = max(least.width(), room.width() - self.verticalScrollBar().sizeHint().width())
        self.widget().resize(w, h)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def eventFilter(self, watched, event) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # the panel's least size may have changed: ours follows
            self._fit()
            if self.grown is not None:
                self.grown()
        return super().eventFilter(watched, event)

    def minimumSizeHint(self) -> QSize:
        # the screen's room, or the window's where it is larger: a window drawn offscreen at its
        # default size (``--screenshot``: Qt's offscreen screen is 800 x 800) is not squeezed
        avail = _room(self).size().expandedTo(self.window().size())
        least = QSize(self.needed_width(), self._least().height())  # with the vertical scroll bar when it scrolls
        return least.boundedTo(QSize(int(avail.width() * self.shares[0]), int(avail.height() * self.shares[1])))


def give_back(window, size: QSize) -> None:
    """Give ``window`` back ``size`` (its size before a dock opened) if it grew since (call it
    once the dock is hidden: the window's layout is activated first, so that the minimum size
    it had with the dock no longer holds it)."""
    if window.layout() is not None:
        window.layout().activate()
    now = window.size()
    if now.width() > size.width() or now.height() > size.height():
        window.resize(size.boundedTo(now))


def column_widths(total: int, shares: tuple[float, float], need: int, least: tuple[int, int]) -> list[int]:
    """Widths of three side-by-side columns filling ``total`` pixels: the first two take
    ``shares`` of it and the third the rest, unless the third needs more (``need``: its width
    without scrolling sideways); then the second gives the difference, down to its ``least``
    width, then the first, down to its own (the third gets what they can give)."""
    a, b = int(total * shares[0]), int(total * shares[1])
    c = total - a - b
    if need > c:
        from_b = min(need - c, max(b - least[1], 0))
        from_a = min(need - c - from_b, max(a - least[0], 0))
        a, b, c = a - from_a, b - from_b, c + from_a + from_b
    return [a, b, c]


def keep_open(room: int, need: int, parts: list[int]) -> list[bool]:
    """Which of ``parts`` (the least sizes of docks, or of groups of tabbed docks, along one
    direction, most wanted first) stay open in ``room`` pixels beside a central widget that
    needs ``need``: each in turn while the sum fits (a later, smaller one can still fit after a
    larger one did not)."""
    out, used = [], need
    for size in parts:
        fits = used + size <= room
        out.append(fits)
        if fits:
            used += size
    return out


def shown_columns(room: int, widths: list[int], kept: list[bool], least: int) -> list[bool]:
    """Which of a list's columns of ``widths`` (in display order) show in ``room`` pixels beside a
    stretching column (the title) of at least ``least``: all when they fit; else the columns
    not ``kept`` drop out, the last first, until the rest fit (a kept column always shows)."""
    shown = [True] * len(widths)
    used = sum(widths) + least
    for i in reversed(range(len(widths))):
        if used <= room:
            break
        if not kept[i]:
            shown[i] = False
            used -= widths[i]
    return shown
