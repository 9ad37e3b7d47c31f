"""Curves of a topic's ranked list against rank (pyqtgraph): gP[r] and gR[r] for the chosen
document measure, and NCE[r] for an effort score (LE(s) or ES(s); Arvola et al. 2010, section
5.2). Relevant ranks are dotted on the gP curve (the terms of AgP); a vertical line marks the
open article's rank. Ranks are 1-based on the x axis."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QWidget

from ..topic_scores import TopicScores

GP_PEN = pg.mkPen("#1f5fbf", width=2)
GR_PEN = pg.mkPen("#d9822b", width=1.5, style=Qt.PenStyle.DashLine)
NCE_PEN = pg.mkPen("#7a3db8", width=2)
ANCE_PEN = pg.mkPen("#7a3db8", width=1.5, style=Qt.PenStyle.DashLine)
MARK_PEN = pg.mkPen("#b3261e", width=1.5, style=Qt.PenStyle.DashLine)


def _plot(left: str) -> pg.PlotWidget:
    w = pg.PlotWidget()
    w.setMinimumSize(220, 150)
    item = w.getPlotItem()
    item.setLabel("bottom", "rank r")
    item.setLabel("left", left)
    item.showGrid(x=False, y=True, alpha=0.2)
    item.setMouseEnabled(x=True, y=False)
    item.getAxis("left").setWidth(44)
    return w


def _marker() -> pg.InfiniteLine:
    return pg.InfiniteLine(angle=90, pen=MARK_PEN, label="", labelOpts={"position": 0.9, "color": "#b3261e",
                                                                       "anchors": [(0, 0), (0, 0)]})


class RankCurves(QWidget):
    """Two plots side by side: gP[r] / gR[r] and NCE[r]; :meth:`show_scores` fills them,
    :meth:`mark_rank` moves the open article's marker (None hides it)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(6)
        self.gp_plot = _plot("gP[r], gR[r]")
        self.nce_plot = _plot("NCE[r]")
        gp_item, nce_item = self.gp_plot.getPlotItem(), self.nce_plot.getPlotItem()
        gp_item.setYRange(0, 1.05, padding=0)
        self.gp = gp_item.plot([], [], pen=GP_PEN)
        self.gr = gp_item.plot([], [], pen=GR_PEN)
        self.relevant = pg.ScatterPlotItem([], [], size=6, pen=pg.mkPen("#1a7f37"), brush=pg.mkBrush("#1a7f37"))
        gp_item.addItem(self.relevant)
        self.nce = nce_item.plot([], [], pen=NCE_PEN)
        self.ance = nce_item.plot([], [], pen=ANCE_PEN)
        self.gp_mark, self.nce_mark = _marker(), _marker()
        gp_item.addItem(self.gp_mark)
        nce_item.addItem(self.nce_mark)
        lay.addWidget(self.gp_plot, 1)
        lay.addWidget(self.nce_plot, 1)
        self._n = 0

    def show_scores(self, ts: TopicScores | None) -> None:
        """Draw ``ts``'s curves (clears the plots for None)."""
        if ts is None or ts.n == 0:
            for curve in (self.gp, self.gr, self.nce, self.ance):
                curve.setData([], [])
            self.relevant.setData([], [])
            self._n = 0
            return
        ranks = np.arange(1, ts.n + 1)
        self._n = ts.n
        effort = ts.doc.kind in ("LE", "ES")  # gP of an effort score is no precision: gR only
        self.gp.setData(ranks[:0] if effort else ranks, ts.gp[:0] if effort else ts.gp)
        self.gr.setData(ranks, ts.gr)
        rel = ts.ranking.relevant
        self.relevant.setData(ranks[rel], (ts.gr if effort else ts.gp)[rel])
        self.nce.setData(ranks, ts.nce)
        self.ance.setData(ranks, ts.ance)
        doc, eff = ts.doc.name, ts.effort.name
        # the titles double as legends (a legend box would hide the curves)
        head = "" if effort else f"<span style='color:#1f5fbf'>&#9473; gP[r] / {doc}</span> &nbsp; "
        tail = " &nbsp; <span style='color:#777'>(no gP for an effort score)</span>" if effort else ""
        self.gp_plot.getPlotItem().setTitle(
            f"{head}<span style='color:#d9822b'>&#9476; gR[r]</span> &nbsp; "
            f"<span style='color:#1a7f37'>&#9679; relevant rank</span>{tail}", size="9pt")
        self.gp_plot.getPlotItem().setLabel("left", "gR[r]" if effort else "gP[r], gR[r]")
        self.nce_plot.getPlotItem().setTitle(
            f"<span style='color:#7a3db8'>&#9473; NCE[r] &nbsp; &#9476; ANCE[r]</span> / {eff} "
            f"<span style='color:#777'>(lower is better)</span>", size="9pt")
        self.gp_plot.getPlotItem().setYRange(0, 1.05, padding=0)
        for plot in (self.gp_plot, self.nce_plot):
            plot.getPlotItem().setXRange(1, ts.n, padding=0.02)
        if len(ts.nce):
            lo = float(min(0.0, np.min(ts.nce), np.min(ts.ance)))
            hi = float(max(np.max(ts.nce), np.max(ts.ance)))
            self.nce_plot.getPlotItem().setYRange(lo, hi * 1.05 if hi > 0 else 1.0, padding=0.02)

    def mark_rank(self, rank: int | None, label: str = "") -> None:
        """Mark rank ``rank`` (1-based) on both plots with ``label``; None hides the marks."""
        for mark in (self.gp_mark, self.nce_mark):
            mark.setVisible(rank is not None and self._n > 0)
            if rank is not None:
                mark.setValue(rank)
                mark.label.setFormat(label)

    def marked_rank(self) -> int | None:
        """The marked rank, or None when no mark is shown (tests)."""
        return int(round(self.gp_mark.value())) if self.gp_mark.isVisible() else None
