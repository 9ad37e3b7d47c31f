"""How the main window shares its room: the three columns' widths (:class:`Columns`) and the
bottom docks that would leave the article too few lines (:func:`fit_docks`)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from .widgets.placement import column_widths, keep_open

ARTICLE_LINES = 15
"""Lines of article text a dock opened by default never takes from the article pane: a bottom
dock that would leaves it starts closed (:func:`fit_docks`)."""


class Columns:
    """The columns of ``window``'s splitter (list, article, Reader) while they follow the window
    (:attr:`auto`): about 31% / 44% / 25% of it, the Reader column as wide as it needs, until the
    user moves them (then theirs, saved with the window). :attr:`sized`: the widths are set
    (remembered, or by :meth:`first_show`)."""

    def __init__(self, window) -> None:
        self.window = window
        self.auto = False
        self.sized = False

    def first_show(self) -> None:
        """First show without saved widths: about 31% / 44% / 25%, following the window."""
        splitter = self.window.splitter
        self.sized = True
        self.auto = True
        splitter.splitterMoved.connect(self.moved)
        splitter.widget(2).grown = lambda: self.fit(resized=False)
        self.fit()

    def moved(self, *_) -> None:
        self.auto = False  # the user's widths from now on (saved with the window)

    def follow(self, auto: bool) -> None:
        """The columns fit the window and what the Reader column shows (``auto``), or stay."""
        self.auto = auto
        if auto:
            self.fit()

    def fit(self, resized: bool = True) -> None:
        """Columns of about 31% / 44% / 25% of the window, the Reader column (the third) as wide as
        its controls prefer (no row wrapped) and its scores need (no sideways scrolling on a
        laptop's screen), as far as the other two columns can give, until the user moves them.
        Between resizes of the window the Reader column only widens, when what it shows needs
        more (``resized`` False): the columns do not shift to and fro as its scroll bar comes and
        goes with a control change."""
        if not self.auto:
            return
        splitter = self.window.splitter
        need = self.reader_width()
        if not resized and need <= splitter.sizes()[2]:
            return
        w = max(splitter.width() - 2 * splitter.handleWidth(), 900)
        least = tuple(max(wd.minimumSizeHint().width(), wd.minimumWidth()) for wd in map(splitter.widget, range(2)))
        sizes = column_widths(w, (0.31, 0.44), need, least)
        if sizes != splitter.sizes():
            splitter.setSizes(sizes)

    def reader_width(self) -> int:
        """The width the Reader column prefers (pixels): its controls with no row wrapped, its
        scores unsqueezed, and its vertical scroll bar when it scrolls up and down."""
        controls = self.window.controls
        margins = controls.parentWidget().layout().contentsMargins()
        prefer = controls.unwrapped_width() + margins.left() + margins.right()
        return self.window.splitter.widget(2).needed_width(prefer)  # type: ignore[attr-defined]


def article_need(window) -> int:
    """The central widget's least height (pixels) with :data:`ARTICLE_LINES` lines of article
    text in ``window``'s article pane (its other rows at their least heights)."""
    view = window.article.view
    article = (window.article.minimumSizeHint().height() - view.minimumSizeHint().height()
               + int(ARTICLE_LINES * view.line_spacing() + 0.999) + 2 * view.frameWidth())
    return max(article, window.centralWidget().minimumSizeHint().height())


def fit_docks(window) -> None:
    """Close ``window``'s bottom docks open by default (no remembered layout; a lesson's view) that
    would leave the article fewer than :data:`ARTICLE_LINES` lines, in the window's height
    (the screen's room, or the picture's): each tab group in the order added keeps the height
    it opens at (its least, or its ``opening_height``) while the rest fits (:func:`~readsim.app.widgets.placement.keep_open`); the log
    names each one closed (the View menu opens it; the user's choice is remembered)."""
    groups: list[list[QDockWidget]] = []
    for dock in window.findChildren(QDockWidget):
        if (dock.parentWidget() is window and not dock.isHidden() and not dock.isFloating()
                and window.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea
                and not any(dock in g for g in groups)):
            groups.append([dock] + [d for d in window.tabifiedDockWidgets(dock) if not d.isHidden()])
    if not groups:
        return
    room = window.height() - window.menuBar().sizeHint().height() - window.statusBar().sizeHint().height()
    sep = window.style().pixelMetric(window.style().PixelMetric.PM_DockWidgetSeparatorExtent, None, window)
    sizes = [max(max(d.minimumSizeHint().height(), getattr(d, "opening_height", 0)) for d in g) + sep for g in groups]
    for group, size, keep in zip(groups, sizes, keep_open(room, article_need(window), sizes)):
        if keep:  # at that height: the article keeps the rest
            window.resizeDocks(group, [size - sep] * len(group), Qt.Orientation.Vertical)
        for dock in group if not keep else ():
            dock.hide()
            window.log.appendPlainText(f"{dock.windowTitle()}: closed, a {window.height()}-pixel-high window has no room "
                                       f"for it below {ARTICLE_LINES} lines of the article (the View menu opens it)")
