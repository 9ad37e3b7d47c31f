"""The Sensitivity dock's plots (pyqtgraph, imported when the dock is first shown): the open
article's scores (0 to 1) and efforts (LE, ES in levels 1 to L + 1) against the swept setting,
and the topic's list score against it; the current value as a vertical line on each, a left
click in a plot calls ``on_click(value)`` with the value under the pointer (the x axis is
logarithmic for the sweeps of :data:`readsim.app.widgets.sensitivity.SWEEPS`)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QWidget

from readsim.core.parameter_sweep import parameters_of

from ..plain import esc
from .plot_room import LabelRoom, legend_for
from .plots import plain_axes, marker, pg, restyle, set_label, themed, title_size

PALETTE = ("accent", "orange", "good", "bad", "violet", "teal", "olive", "soft")  # roles, by curve


def _plot(left: str) -> pg.PlotWidget:
    w = pg.PlotWidget()
    restyle(w)  # the theme's colours, the zoom's fonts
    w.setMinimumSize(240, 170)
    item = w.getPlotItem()
    item.setLabel("left", left)
    item.showGrid(x=True, y=True, alpha=0.15)
    item.setMouseEnabled(x=False, y=False)
    item.hideButtons()
    item.getAxis("left").setWidth(44)
    plain_axes(item)
    return w


def _title(plot: pg.PlotWidget, text: str) -> None:
    """Set a plot's title to ``text`` shown as written (pyqtgraph draws titles as HTML: an article
    or topic id from the input files is escaped); an unchanged title is left alone (a new one
    re-lays the plot out)."""
    item = plot.getPlotItem()
    if item.titleLabel.text != esc(text):
        item.setTitle(esc(text), size=title_size())


def log_ticks(low: float, high: float) -> list[tuple[float, str]]:
    """Ticks of a log axis from ``low`` to ``high``: the 1-2-5 values between them, at their
    log10 (pyqtgraph's own log ticks print every minor value, overlapping)."""
    out = []
    for decade in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        for lead in (1, 2, 5):
            v = lead * 10.0 ** decade
            if low * 0.999 <= v <= high * 1.001:
                out.append((math.log10(v), f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    return out


def legend_name(m, parameter: str) -> str:
    """A swept measure named by the swept setting's letter (``ChP@s``, ``T2IF(t)``, ``F(beta)``):
    its curve is the measure at every value, whatever the current one."""
    if m.kind in ("ChP", "ChR"):
        return f"{m.kind}@{parameter}"
    if parameter not in parameters_of(m) and not (parameter == "s" and "k" in parameters_of(m)):
        return m.name  # it does not depend on the swept setting
    if m.kind == "T2IF" and m.weight != 1.0:
        return f"T2IF({parameter},{m.weight:g})"
    return f"{m.kind}({parameter})"


class SweepPlots(QWidget):
    """Three plots side by side: :attr:`article`, :attr:`efforts` (hidden when no effort is
    swept) and :attr:`topic`; :attr:`lines` maps a shown measure's name to its curve."""

    def __init__(self, on_click: Callable[[float], None], parent=None) -> None:
        super().__init__(parent)
        self.on_click = on_click
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(6)
        self.article = _plot("score")
        self.efforts = _plot("effort (levels)")
        self.topic = _plot("list score")
        self.lines: dict[str, pg.PlotDataItem] = {}
        self.legend = legend_for(self.article.getPlotItem())
        self.effort_legend = legend_for(self.efforts.getPlotItem())
        self.topic_line = themed(self.topic.getPlotItem().plot([], []), pen=("accent", 2.5))
        self.marks = []
        self.rooms: dict[pg.PlotWidget, LabelRoom] = {}
        for w, legend in ((self.article, self.legend), (self.efforts, self.effort_legend), (self.topic, None)):
            mark = marker("bad")
            w.getPlotItem().addItem(mark)
            self.marks.append(mark)
            self.rooms[w] = LabelRoom(w.getPlotItem(), (mark,), legend)
            w.scene().sigMouseClicked.connect(lambda ev, p=w: self._clicked(p, ev))
            lay.addWidget(w, 1)
        self.efforts.hide()
        self.log = True
        self.parameter = "s"
        self._shown: tuple | None = None  # (sweep, axis) drawn

    def _x(self, value: float) -> float:
        return math.log10(value) if self.log else value

    def show_article(self, sweep, axis: str, values: list, curves: dict, article: str | None) -> None:
        """Draw ``curves`` (measure -> values at ``values``) of ``article`` (None: none open);
        ``axis``: the x axis' label. The same sweep and measures as shown: the curves' data are
        replaced in place (no axis, legend or layout work)."""
        x = np.asarray(values, dtype=float)
        names = [m.name for m in curves]
        if (sweep, axis) == self._shown and names == list(self.lines):
            for m, ys in curves.items():
                self.lines[m.name].setData(x, ys)
        else:
            self._shown = (sweep, axis)
            self._draw(sweep, axis, x, curves)
        _title(self.article, f"article {article}" if article else "no article open")
        if self.efforts.isVisible():
            _title(self.efforts, f"article {article}: efforts (lower is better)")

    def _draw(self, sweep, axis: str, x: np.ndarray, curves: dict) -> None:
        self.log = sweep.log
        self.parameter = sweep.parameters[0]
        for w in (self.article, self.efforts, self.topic):
            item = w.getPlotItem()
            item.setLogMode(x=sweep.log, y=False)
            item.setLabel("bottom", axis)
            item.getAxis("bottom").setTicks([log_ticks(sweep.low, sweep.high)] if sweep.log else None)
        for item, legend in ((self.article.getPlotItem(), self.legend),
                             (self.efforts.getPlotItem(), self.effort_legend)):
            for line in [d for d in item.listDataItems()]:
                item.removeItem(line)
            legend.clear()
        self.lines = {}
        effort = False
        for i, (m, ys) in enumerate(curves.items()):
            target = self.efforts if m.kind in ("LE", "ES") else self.article
            effort |= target is self.efforts
            pen = (PALETTE[i % len(PALETTE)], 2,
                   Qt.PenStyle.DashLine if m.kind in ("ChR", "T2IR", "ES") else Qt.PenStyle.SolidLine)
            self.lines[m.name] = themed(target.getPlotItem().plot(x, ys, name=legend_name(m, sweep.parameters[0])), pen=pen)
        self.efforts.setVisible(effort)
        levels = [float(np.nanmax(ys)) for m, ys in curves.items() if m.kind in ("LE", "ES") and len(ys)]
        self.rooms[self.efforts].set_data_range(0.0, max(levels, default=1.0) * 1.05)
        for w in (self.article, self.efforts, self.topic):
            w.getPlotItem().setXRange(self._x(float(x[0])), self._x(float(x[-1])), padding=0.02)
        for room in self.rooms.values():  # the legends' new entries
            room.arrange()

    def show_topic(self, values: list, curve: np.ndarray | None, measure, title: str, note: str = "") -> None:
        """Draw the topic's list score ``curve`` at ``values`` (None: empty, ``title`` says why);
        ``note`` follows the measure's name in the title."""
        item = self.topic.getPlotItem()
        if curve is None:
            self.topic_line.setData([], [])
            _title(self.topic, title)
            return
        self.topic_line.setData(np.asarray(values, dtype=float), curve)
        head = f"{measure.kind}@{measure.cutoff}" if measure.cutoff else measure.kind
        item.setLabel("left", f"{head}/{legend_name(measure.doc, self.parameter)}")
        self.rooms[self.topic].set_data_range(0.0, max(1e-3, float(np.max(curve))) * 1.05)  # from 0: flat stays flat
        _title(self.topic, f"{title}: {head} of {legend_name(measure.doc, self.parameter)}{note}")

    def mark(self, value: float) -> None:
        """Move the current value's line on every plot."""
        for mark in self.marks:
            mark.setValue(self._x(value))
            set_label(mark, f"{value:g}")
        for room in self.rooms.values():
            room.arrange()

    def _clicked(self, plot: pg.PlotWidget, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        vb = plot.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        x = vb.mapSceneToView(event.scenePos()).x()
        self.on_click(10 ** x if self.log else x)


class ReaderPlot(QWidget):
    """The C/W/L panel's plot (:mod:`readsim.app.widgets.cwl_panel`): per metric, the probability of
    reading on to each piece read against the positions read before it, as steps."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.plot = _plot("P(reading on)")
        item = self.plot.getPlotItem()
        item.setLabel("bottom", "positions read before the piece")
        self.legend = legend_for(item, columns=1)
        self.legend.setOffset((-10, 5))  # top right: the steps start at the top left
        self.lines = [themed(item.plot([], [], stepMode="center"), pen=(role, 2))
                      for role in PALETTE[:2]]
        lay.addWidget(self.plot)

    def show_reader(self, curves, title: str) -> None:
        """Draw ``curves`` (:class:`~readsim.operations.cwl_files.ReaderCurve`, U then TBG)."""
        self.legend.clear()
        for line, c in zip(self.lines, curves):
            x = np.append(c.position, float(c.end))
            line.setData(x, c.probability)
            self.legend.addItem(line, esc(f"{c.metric.kind}: " + ("max(0, 1 - p/L)" if c.metric.kind == "U"
                                                                  else "2^(-p/H)")))
        for line in self.lines[len(curves):]:
            line.setData([], [])
        _title(self.plot, title)
