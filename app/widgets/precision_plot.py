"""Precision and recall against characters read along the reading order (pyqtgraph).

Curves from :meth:`DocumentEvaluation.curve` (recomputed only when the evaluation changes);
vertical markers at the T2I stop (``t2i_stop(tolerance)``) and at the first relevant character
(``first_relevant()``, what LE counts); the current reading screen as a shaded band and the
reader's cursor (a solid line at the characters read so far, the band's right end; it follows
the playback of :mod:`readsim.app.playback` when one is attached); optional gridlines every
screen.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import QCheckBox, QVBoxLayout, QWidget

from ..session import Session
from .plot_room import LabelRoom, legend_for
from .plots import plain_axes, keep_label_inside, marker, pg, restyle, set_range, themed

MAX_GRID = 200


class PrecisionPlot(QWidget):
    """The plot plus a "screen grid" toggle, bound to a :class:`Session`."""

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.plot = pg.PlotWidget()
        restyle(self.plot)  # the theme's colours, the zoom's fonts
        self.plot.setMinimumHeight(180)
        item = self.plot.getPlotItem()
        item.setLabel("bottom", f"{session.unit} read (reading order)")
        item.setLabel("left", "precision / recall")
        item.showGrid(x=False, y=True, alpha=0.2)
        item.setMouseEnabled(x=True, y=False)
        plain_axes(item)
        self.legend = legend_for(item)
        self.precision = themed(item.plot([], [], name="precision"), pen=("accent", 2))
        self.recall = themed(item.plot([], [], name="recall"), pen=("orange", 2))
        self.band = pg.LinearRegionItem((0, 1), movable=False, pen=pg.mkPen(None))
        themed(self.band, brush=("accent", 40))
        item.addItem(self.band)
        # the labels in boxes of the plot's background, in the room above the curves (rows where they stand close)
        self.t2i = marker("bad", "T2I stop")
        self.first = marker("good", "first relevant (LE)")
        self.cursor = marker("reader", "reader", width=2, style=pg.QtCore.Qt.PenStyle.SolidLine)
        item.addItem(self.t2i)
        item.addItem(self.first)
        item.addItem(self.cursor)
        self.room = LabelRoom(item, (self.t2i, self.first, self.cursor), self.legend)
        self.playback = None  # a readsim.app.playback.Playback, when installed
        self._grid: list[pg.InfiniteLine] = []
        self._grid_key: tuple | None = None  # (length, screen) the grid is drawn for (None: no grid)
        self.grid_box = QCheckBox("screen gridlines")
        self.grid_box.toggled.connect(lambda _: self.refresh_markers())
        lay.addWidget(self.plot, 1)
        lay.addWidget(self.grid_box)
        self._ev = None
        session.article_changed.connect(self.refresh_curve)
        session.evaluation_changed.connect(self.refresh_curve)
        session.settings_changed.connect(self.refresh_markers)
        session.step_changed.connect(self.refresh_markers)
        self.refresh_curve()

    def refresh_curve(self, *_) -> None:
        cur = self.session.current
        self._ev = cur.evaluation if cur is not None else None
        if self._ev is None or self._ev.n == 0:
            self.precision.setData([], [])
            self.recall.setData([], [])
        else:
            x, p, r = self._ev.curve()
            self.precision.setData(x, p)
            self.recall.setData(x, r)
            set_range(self.plot.getPlotItem(), 0, 0, self._ev.n, 0.01)
        self.refresh_markers()

    def refresh_markers(self, *_) -> None:
        """Move the markers (and the screen grid) to the current evaluation and settings; what
        did not move is left alone (each change of a pyqtgraph item repaints the plot)."""
        ev, s = self._ev, self.session.settings
        item = self.plot.getPlotItem()
        visible = ev is not None and ev.n > 0
        grid = (ev.n, s.screen) if visible and self.grid_box.isChecked() else None
        if grid != self._grid_key:
            self._grid_key = grid
            for line in self._grid:
                item.removeItem(line)
            self._grid = []
            if grid is not None and ev.n // s.screen <= MAX_GRID:
                for x in np.arange(s.screen, ev.n, s.screen):
                    line = themed(pg.InfiniteLine(float(x), angle=90),
                                  pen=("disabled", 1, pg.QtCore.Qt.PenStyle.DotLine, 120))
                    item.addItem(line)
                    self._grid.append(line)
        for w in (self.t2i, self.first, self.band, self.cursor):
            if w.isVisible() != visible:
                w.setVisible(visible)
        if not visible:
            return
        self.t2i.setValue(ev.t2i_stop(s.tolerance))
        label = f"T2I({s.tolerance}) stop"
        if self.t2i.label.format != label:
            self.t2i.label.setFormat(label)
        f = ev.first_relevant()
        if self.first.isVisible() != (f is not None):
            self.first.setVisible(f is not None)
        if f is not None:
            self.first.setValue(f)
        for line in (self.t2i, self.first):
            keep_label_inside(line, ev.n)
        self.refresh_position()
        self.room.arrange()

    def refresh_position(self, *_) -> None:
        """Move the screen band and the reader's cursor to the current reading position."""
        ev, s = self._ev, self.session.settings
        if ev is None or ev.n == 0:
            return
        top = self.playback.top if self.playback is not None else self.session.step * s.screen
        read = min(top + s.screen, ev.n)
        self.band.setRegion((min(top, ev.n), read))
        if self.cursor.value() != read:
            self.cursor.setValue(read)
            keep_label_inside(self.cursor, ev.n)
            self.room.arrange()

    def markers(self) -> dict[str, float | None]:
        """Marker positions (characters read): ``t2i``, ``first_relevant``, ``screen`` band,
        ``reader`` (the cursor: characters read so far)."""
        return {"t2i": self.t2i.value() if self.t2i.isVisible() else None,
                "first_relevant": self.first.value() if self.first.isVisible() else None,
                "screen": tuple(self.band.getRegion()),
                "reader": self.cursor.value() if self.cursor.isVisible() else None}
