"""The Topics tab's difference plot (pyqtgraph): the per-topic differences of two runs under the
chosen measure, as ``readsim-eval figure topics`` draws them (docs/reference.md section 12.5) but
drawn by the window itself: a bar per paired topic, the topics sorted by difference (the run's
largest gain first), green where the run does better than the run it is set against, red where
worse, grey where they tie; the mean difference a dashed line and its paired t 95% interval a
band. Two choosers pick the runs: the run drawn (at first the runner-up) and the run it is set
against (when the run is chosen: its reference of the table, the best-ranked run, and for that run
the runner-up; any other run after); double-clicking a bar emits :attr:`TopicsPlot.topic_activated`.

The numbers are :func:`readsim.core.topic_differences.topic_differences`' (the table's
differences, sorted); :attr:`TopicsPlot.shown` holds them for tests and the title."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QVBoxLayout, QWidget

from readsim.core.report_numbers import plural
from readsim.core.topic_differences import TopicDifferences, topic_differences

from ... import runs_model as rm
from ...plain import esc, plain_label, rich_label
from ..plots import DASH, plain_axes, pg, restyle, themed, title_size

MAX_LABELS = 14
"""Topic ids written under the bars at most (every n-th topic beyond that)."""


class _Bars(pg.BarGraphItem):
    """Bars whose brush a theme change sets (:func:`readsim.app.widgets.plots.themed` calls ``setBrush``)."""

    def setBrush(self, brush) -> None:
        self.setOpts(brush=brush)


class TopicsPlot(QWidget):
    """Two run choosers (:attr:`chooser`, the run drawn; :attr:`against`, the run it is set
    against) over the bar plot of :attr:`shown` (a :class:`TopicDifferences` or None)."""

    topic_activated = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.shown: TopicDifferences | None = None
        self._c = None
        self._k = 0
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.chooser = QComboBox()
        self.chooser.setToolTip("The run whose per-topic differences are drawn")
        self.chooser.currentIndexChanged.connect(self._run_chosen)
        self.against = QComboBox()
        self.against.setToolTip("The run it is set against: each bar is the run's value minus this run's")
        self.against.currentIndexChanged.connect(self._chosen)
        for box in (self.chooser, self.against):
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.summary = rich_label()  # numbers and counts only, in bold
        self.summary.setWordWrap(True)  # the row never widens the window
        self.summary.setMinimumWidth(120)
        row.addWidget(plain_label("Plot:"))
        row.addWidget(self.chooser)
        row.addWidget(plain_label("−"))
        row.addWidget(self.against)
        row.addWidget(self.summary, 1)
        lay.addLayout(row)
        self.plot = pg.PlotWidget()
        restyle(self.plot)
        self.plot.setMinimumHeight(160)
        item = self.plot.getPlotItem()
        item.showGrid(x=False, y=True, alpha=0.15)
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        plain_axes(item)
        self.bars = {kind: themed(_Bars(x=[], height=[], width=0.8, pen=None), brush=role)
                     for kind, role in (("better", "good"), ("worse", "bad"), ("equal", "disabled"))}
        for bars in self.bars.values():
            item.addItem(bars)
        self.band = themed(pg.LinearRegionItem(orientation="horizontal", movable=False), brush=("accent", 45))
        self.band.setZValue(-10)
        for line in self.band.lines:
            line.setPen(pg.mkPen(None))
        self.mean = themed(pg.InfiniteLine(angle=0), pen=("accent", 1.5, DASH))
        self.zero = themed(pg.InfiniteLine(angle=0), pen=("soft", 1))
        for extra in (self.band, self.zero, self.mean):
            item.addItem(extra)
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        lay.addWidget(self.plot, 1)

    def clear(self) -> None:
        self._c = None
        for box in (self.chooser, self.against):
            box.blockSignals(True)
            box.clear()
            box.blockSignals(False)
        self._blank("")

    def _blank(self, text: str) -> None:
        self.shown = None
        self.summary.setText(text)
        for bars in self.bars.values():
            bars.setOpts(x=[], height=[])
        self.plot.getPlotItem().setTitle("")

    def show_result(self, c, k: int) -> None:
        """Draw comparison ``c``'s measure ``k``: the runner-up against the best-ranked run first."""
        self._c, self._k = c, k
        order = [int(i) for i in c.order[k]]
        for box, runs in ((self.chooser, order[1:] + order[:1]), (self.against, order)):
            box.blockSignals(True)
            box.clear()
            for i in runs:
                box.addItem(c.runs[i], i)
            box.blockSignals(False)
        self.chooser.setCurrentIndex(0)
        self._run_chosen()

    def bar_heights(self) -> list[float]:
        """The bars' heights in the topics' order (all colours together)."""
        if self.shown is None:
            return []
        heights = np.zeros(len(self.shown.topics))
        for bars in self.bars.values():
            x = np.asarray(bars.opts["x"], dtype=int)
            heights[x] = bars.opts["height"]
        return heights.tolist()

    def _run_chosen(self) -> None:
        """A run chosen: set against its reference of the table, then drawn."""
        if self._c is None or self.chooser.currentIndex() < 0:
            return
        ref = int(self._c.references(self._k)[int(self.chooser.currentData())])
        self.against.blockSignals(True)
        self.against.setCurrentIndex(self.against.findData(ref))
        self.against.blockSignals(False)
        self._chosen()

    def _chosen(self) -> None:
        if self._c is None or self.chooser.currentIndex() < 0 or self.against.currentIndex() < 0:
            return
        c, k = self._c, self._k
        run, other = int(self.chooser.currentData()), int(self.against.currentData())
        if run == other:
            self._blank("choose two different runs")
            return
        d = topic_differences(c, k, run, other)
        self.shown = d
        gain = d.gain
        x = np.arange(len(d.topics))
        for kind, mask in (("better", gain > 0), ("worse", gain < 0), ("equal", gain == 0)):
            self.bars[kind].setOpts(x=x[mask], height=d.diff[mask], width=0.8)
        self.mean.setValue(d.mean)
        self.band.setRegion((d.low, d.high))
        item = self.plot.getPlotItem()
        step = max(1, int(np.ceil(len(d.topics) / MAX_LABELS)))
        item.getAxis("bottom").setTicks([[(int(i), d.topics[i]) for i in range(0, len(d.topics), step)], []])
        item.setXRange(-0.7, len(d.topics) - 0.3, padding=0)
        low = min(float(d.diff.min(initial=0.0)), d.low)
        high = max(float(d.diff.max(initial=0.0)), d.high)
        item.setYRange(low, high, padding=0.06)
        item.setLabel("left", esc(f"{d.run} − {d.reference}"))
        item.setTitle(esc(f"{d.measure}: {d.run} − {d.reference} per topic, sorted (the run's largest gain first)"),
                      size=title_size())
        better, worse = int(np.count_nonzero(gain > 0)), int(np.count_nonzero(gain < 0))
        self.summary.setText(
            f"better on <b>{better}</b>, worse on <b>{worse}</b>, equal on {plural(len(d.topics) - better - worse, 'topic')}; "
            f"mean difference <b>{rm.fmt_signed(d.mean)}</b> (dashed), {d.level * 100:g}% paired t interval "
            f"[{rm.fmt_signed(d.low)}, {rm.fmt_signed(d.high)}] (band)")

    def _clicked(self, event) -> None:
        if self.shown is None or not event.double():
            return
        point = self.plot.getPlotItem().getViewBox().mapSceneToView(event.scenePos())
        i = int(round(point.x()))
        if 0 <= i < len(self.shown.topics):
            self.topic_activated.emit(self.shown.topics[i])
