"""Curves of a topic's ranked list against rank (pyqtgraph): gP[r] and gR[r] for the chosen
document measure, and NCE[r] for an effort score (LE(s) or ES(s); Arvola et al. 2010, section
5.2). Relevant ranks are dotted on the gP curve (the terms of AgP); a vertical line marks the
open article's rank. Ranks are 1-based on the x axis. Where the two plots do not fit side by
side (the topic dock on a laptop screen), a tab bar above them shows one at a time."""

from __future__ import annotations

import functools

import numpy as np
from PySide6.QtCore import QSizeF, Qt
from PySide6.QtGui import QFont, QTextDocument
from PySide6.QtWidgets import QHBoxLayout, QTabBar, QVBoxLayout, QWidget

from .. import appearance as look
from ..plain import esc

from ..topic_scores import TopicScores
from .plot_room import LabelRoom
from .plots import plain_axes, keep_label_inside, marker, pg, restyle, set_label, set_range, themed, title_size

GP_PEN = ("accent", 2)  # roles of readsim.app.appearance, width, style
GR_PEN = ("orange", 1.5, Qt.PenStyle.DashLine)
NCE_PEN = ("violet", 2)
ANCE_PEN = ("violet", 1.5, Qt.PenStyle.DashLine)
TITLE_MARGIN = 16  # pixels a title line leaves free (the plot's margins)
TITLE_ITEM_MARGIN = 4  # QGraphicsTextItem's document margin (pixels)
PLOT_MIN_WIDTH, PLOT_MIN_HEIGHT = 220, 150  # one curve plot's least size (pixels)
PLOT_SPACING = 6  # between the two plots side by side (pixels)


def _plot(left: str) -> pg.PlotWidget:
    w = pg.PlotWidget()
    restyle(w)  # the theme's colours, the zoom's fonts
    w.setMinimumSize(PLOT_MIN_WIDTH, PLOT_MIN_HEIGHT)
    item = w.getPlotItem()
    item.setLabel("bottom", "rank r")
    item.setLabel("left", left)
    item.showGrid(x=False, y=True, alpha=0.2)
    item.setMouseEnabled(x=True, y=False)
    item.getAxis("left").setWidth(44)
    plain_axes(item)
    return w


def _marker() -> pg.InfiniteLine:
    return marker("bad")


def _set_title(item: pg.PlotItem, parts: list[str], width: float | None = None) -> None:
    """Set a plot's title, which doubles as its legend: the HTML ``parts`` (our words, values
    through ``esc``) on as few lines as fit the plot's ``width`` (pixels; default: its view
    box's width now), a part never split, so that no part is cut at the plot's edge. Unchanged titles
    are left alone (a new title re-lays the plot out)."""
    item._readsim_parts = parts
    width = item.getViewBox().width() if width is None else width  # the title spans the view box
    lines: list[list[str]] = []
    for part in parts:
        if lines and _html_size(" &nbsp; ".join(lines[-1] + [part])).width() + TITLE_MARGIN <= width:
            lines[-1].append(part)
        else:
            lines.append([part])
    html = "<br>".join(" &nbsp; ".join(line) for line in lines)
    if getattr(item, "_readsim_title", None) != html:
        item._readsim_title = html
        item.setTitle(html, size=title_size())
        # pyqtgraph fixes the title's row at 30 pixels (one line); the text item adds its
        # document's margins (4 pixels a side) to the text's height
        height = max(30, int(_html_size(html).height()) + 2 * TITLE_ITEM_MARGIN + 2)
        item.titleLabel.setMaximumHeight(height)
        item.layout.setRowFixedHeight(0, height)


def _refit_title(item: pg.PlotItem, width: float) -> None:
    parts = getattr(item, "_readsim_parts", None)
    if parts:
        _set_title(item, parts, width)


def _html_size(html: str) -> QSizeF:
    """The size (pixels) of a title as it draws (HTML at :func:`~.plots.title_size`, lines at ``<br>``).
    Kept by text and font: a mode change re-fits the same titles (a text layout each)."""
    return QSizeF(*_measured(html, QFont().toString(), title_size()))


@functools.lru_cache(maxsize=256)
def _measured(html: str, _font: str, size: str) -> tuple[float, float]:
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setHtml(f"<span style='font-size:{size}'>{html}</span>")
    return doc.idealWidth(), doc.size().height()


class RankCurves(QWidget):
    """Two plots side by side: gP[r] / gR[r] and NCE[r]; :meth:`show_scores` fills them,
    :meth:`mark_rank` moves the open article's marker (None hides it). Narrower than the two
    plots' least widths, it shows one plot at a time under a tab bar (:attr:`tabs`), so that its
    own least width is one plot's and the topic dock fits a laptop screen without scrolling
    sideways."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        self.tabs = QTabBar()
        self.tabs.setDocumentMode(True)
        self.tabs.setExpanding(False)
        self.tabs.addTab("gP[r], gR[r]")
        self.tabs.addTab("NCE[r]")
        self.tabs.setToolTip("The plots do not fit side by side here: one at a time")
        self.tabs.hide()
        self.tabs.currentChanged.connect(lambda _: self._arrange())
        outer.addWidget(self.tabs)
        lay = QHBoxLayout()
        lay.setSpacing(PLOT_SPACING)
        outer.addLayout(lay, 1)
        # one plot's width, not the two plots' the layout would impose (see _arrange); its height
        # under the tab bar when that shows
        self.setMinimumSize(PLOT_MIN_WIDTH, PLOT_MIN_HEIGHT + self.tabs.sizeHint().height() + outer.spacing())
        self.gp_plot = _plot("gP[r], gR[r]")
        self.nce_plot = _plot("NCE[r]")
        gp_item, nce_item = self.gp_plot.getPlotItem(), self.nce_plot.getPlotItem()
        self.gp = themed(gp_item.plot([], []), pen=GP_PEN)
        self.gr = themed(gp_item.plot([], []), pen=GR_PEN)
        self.relevant = themed(pg.ScatterPlotItem([], [], size=6), pen=("good", 1), brush="good")
        gp_item.addItem(self.relevant)
        self.nce = themed(nce_item.plot([], []), pen=NCE_PEN)
        self.ance = themed(nce_item.plot([], []), pen=ANCE_PEN)
        self.gp_mark, self.nce_mark = _marker(), _marker()
        gp_item.addItem(self.gp_mark)
        nce_item.addItem(self.nce_mark)
        self.gp_room = LabelRoom(gp_item, (self.gp_mark,))
        self.nce_room = LabelRoom(nce_item, (self.nce_mark,))
        lay.addWidget(self.gp_plot, 1)
        lay.addWidget(self.nce_plot, 1)
        self._n = 0
        self._key: object = None  # something shown (None: the plots are empty)
        self._gp_key: tuple | None = None  # what the gP/gR plot shows
        self._nce_key: tuple | None = None  # what the NCE plot shows
        self._nce_range: tuple | None = None  # (topic, n, effort kind, y top) of the NCE plot

    def show_scores(self, ts: TopicScores | None) -> None:
        """Draw ``ts``'s curves (clears the plots for None). Each plot is redrawn only when its
        curves change (a screen-size change moves NCE, not gP): pyqtgraph repaints a plot,
        axes included, on every ``setData``, title or range."""
        if ts is None or ts.n == 0:
            if self._key is not None:
                for curve in (self.gp, self.gr, self.nce, self.ance):
                    curve.setData([], [])
                self.relevant.setData([], [])
            self._n = 0
            self._key = self._gp_key = self._nce_key = self._nce_range = None
            return
        self._key = True
        ranks = np.arange(1, ts.n + 1)
        self._n = ts.n
        effort = ts.doc.kind in ("LE", "ES")  # gP of an effort score is no precision: gR only
        rel = ts.ranking.relevant
        gp_key = (ts.n, ts.doc, ts.gp.tobytes(), ts.gr.tobytes(), rel.tobytes())
        if gp_key != self._gp_key:
            self._gp_key = gp_key
            self.gp.setData(ranks[:0] if effort else ranks, ts.gp[:0] if effort else ts.gp)
            self.gr.setData(ranks, ts.gr)
            self.relevant.setData(ranks[rel], (ts.gr if effort else ts.gp)[rel])
            doc = esc(ts.doc.name)
            # the titles double as legends (a legend box would hide the curves)
            parts = [] if effort else [f"<span style='color:{look.css('accent')}'>&#9473; gP[r] / {doc}</span>"]
            parts += [f"<span style='color:{look.css('orange')}'>&#9476; gR[r]</span>",
                      f"<span style='color:{look.css('good')}'>&#9679; relevant rank</span>"]
            if effort:
                parts.append(f"<span style='color:{look.css('faint')}'>(no gP for an effort score)</span>")
            item = self.gp_plot.getPlotItem()
            _set_title(item, parts)
            left = "gR[r]" if effort else "gP[r], gR[r]"
            if item.getAxis("left").labelText != left:
                item.setLabel("left", left)
                self.tabs.setTabText(0, left)  # no gP for an effort score
            set_range(item, 0, 1, ts.n, 0.02)
        nce_key = (ts.n, ts.effort, ts.nce.tobytes())
        if nce_key != self._nce_key:
            self._nce_key = nce_key
            ance = ts.ance
            self.nce.setData(ranks, ts.nce)
            self.ance.setData(ranks, ance)
            item = self.nce_plot.getPlotItem()
            violet = look.css("violet")
            _set_title(item, [f"<span style='color:{violet}'>&#9473; NCE[r]</span>",
                              f"<span style='color:{violet}'>&#9476; ANCE[r]</span> / {esc(ts.effort.name)}",
                              f"<span style='color:{look.css('faint')}'>(lower is better)</span>"])
            if len(ts.nce):
                self._fit_nce(item, ts, float(max(np.max(ts.nce), np.max(ance))))

    def _fit_nce(self, item: pg.PlotItem, ts: TopicScores, hi: float) -> None:
        """Fit the NCE plot's y range to ``hi`` (NCE >= 0). Within one topic and effort measure the
        range only grows, or shrinks when the curves use less than half of it: switching reading
        modes or screens keeps the axes still (comparable curves, and no axis repaint)."""
        top = hi * 1.05 if hi > 0 else 1.0
        key = (ts.topic, ts.n, ts.effort.kind)  # LE at any screen size: one axis
        old = self._nce_range
        if old is not None and old[:3] == key and old[3] >= top and top > old[3] / 2:
            return
        self._nce_range = (*key, top)
        set_range(item, 0, 1, ts.n, 0.02)
        self.nce_room.set_data_range(0.0, top)

    def mark_rank(self, rank: int | None, label: str = "") -> None:
        """Mark rank ``rank`` (1-based) on both plots with ``label``; None hides the marks."""
        state = (rank, label, self._n > 0)
        if state == getattr(self, "_marked", None):
            return
        self._marked = state
        for mark in (self.gp_mark, self.nce_mark):
            mark.setVisible(rank is not None and self._n > 0)
            if rank is not None:
                mark.setValue(rank)
                set_label(mark, label)
                keep_label_inside(mark, self._n)
        for room in (self.gp_room, self.nce_room):
            room.arrange()

    def side_by_side(self) -> bool:
        """Whether both plots show (else one, chosen on :attr:`tabs`)."""
        return not self.tabs.isVisibleTo(self)

    def _arrange(self) -> None:
        """Both plots side by side where they fit at their least widths, else the tab bar and
        the plot chosen on it; then the titles re-fitted to the plots' widths."""
        both = self.width() >= 2 * PLOT_MIN_WIDTH + PLOT_SPACING
        shown = (both or self.tabs.currentIndex() == 0, both or self.tabs.currentIndex() == 1)
        if (self.tabs.isVisibleTo(self), self.gp_plot.isVisibleTo(self), self.nce_plot.isVisibleTo(self)) != (not both, *shown):
            self.tabs.setVisible(not both)
            self.gp_plot.setVisible(shown[0])
            self.nce_plot.setVisible(shown[1])
            self.layout().activate()  # the plots' new widths now, for their titles
        for plot in (self.gp_plot, self.nce_plot):  # the title spans the plot less its left axis
            if plot.isVisibleTo(self):
                item = plot.getPlotItem()
                _refit_title(item, plot.width() - item.getAxis("left").width())

    def resizeEvent(self, event) -> None:
        """Arrange the plots for the new width (:meth:`_arrange`), re-fitting their titles
        (legends): one line or one part a line."""
        super().resizeEvent(event)
        self._arrange()

    def marked_rank(self) -> int | None:
        """The marked rank, or None when no mark is shown (tests)."""
        return int(round(self.gp_mark.value())) if self.gp_mark.isVisible() else None
