"""The Correlation tab of the Runs window: a scatter of two measures over the runs (each point a
run; hover: its name and both scores), Kendall's tau and Pearson's r in the title, the matrix of
every two measures and each measure against the runs as whole documents (docs/reference.md
section 12.1; Arvola et al. 2010's document baseline). :class:`CorrelationModel` builds the
matrix's cells without a window; :class:`CorrelationTab` shows the plot and the matrix. See
docs/architecture.md."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QHeaderView, QToolButton, QVBoxLayout, QWidget

from readsim.core.paired_statistics import MIN_CORRELATED

from ... import appearance as look
from ... import runs_model as rm
from ...plain import esc, plain_tip, rich_label
from ..plots import plain_axes, pg, restyle, themed
from .cells import CENTER, MUTED, SECTION, Cell, CellsModel, CellsTable, note, wrap_label

POINT = "accent"  # the points' role (readsim.app.appearance)
TWO_RUNS = rm.TWO_RUNS[:1].upper() + rm.TWO_RUNS[1:]  # a sentence of the note
LABELLED_POINTS = 20  # up to this many runs, each point carries its name


class CorrelationModel(CellsModel):
    """Measures x measures: each cell Kendall's τ and Pearson's r of the runs' means, ``—`` on
    the diagonal; a last row "as documents" (each measure against the runs evaluated as whole
    documents) when any measure has a document score."""

    def set_rows(self, c) -> None:
        """Fill from comparison ``c`` (:class:`readsim.core.run_comparison.Comparison`)."""
        m = len(c.measures)
        has_doc = [not np.isnan(c.doc_means[k]).any() for k in range(m)]
        columns = [Cell(wrap_label(name, 9)) for name in c.measures]
        row_heads = [Cell(name) for name in c.measures]
        rows = []
        if len(c.runs) < MIN_CORRELATED:  # two runs: tau and r would be +-1 whatever the measures say
            rows = [[Cell("—" if k == q else "n/a", "" if k == q else rm.TWO_RUNS, CENTER, MUTED) for q in range(m)]
                    for k in range(m)]
            self._set(rows, columns, row_heads)
            return
        for k in range(m):
            rows.append([Cell("—", align=CENTER, fg=MUTED) if k == q else
                         Cell(f"τ {rm.fmt(c.tau[k, q], 3)}\nr {rm.fmt(c.r[k, q], 3)}",
                              f"{c.measures[k]} vs {c.measures[q]} over {len(c.runs)} runs: Kendall's τ "
                              f"{rm.fmt(c.tau[k, q], 3)} (p {rm.fmt_p(c.tau_p[k, q])}), Pearson's r "
                              f"{rm.fmt(c.r[k, q], 3)} (p {rm.fmt_p(c.r_p[k, q])})", CENTER)
                         for q in range(m)])
        if any(has_doc):
            row_heads.append(Cell("as documents"))
            rows.append([Cell(f"τ {rm.fmt(c.doc_tau[q], 3)}\nr {rm.fmt(c.doc_r[q], 3)}",
                              f"{c.measures[q]} against the same runs evaluated as whole documents: τ "
                              f"{rm.fmt(c.doc_tau[q], 3)} (p {rm.fmt_p(c.doc_tau_p[q])}), r {rm.fmt(c.doc_r[q], 3)} "
                              f"(p {rm.fmt_p(c.doc_r_p[q])}); {c.doc_gains[q]} of {len(c.runs)} runs better "
                              f"than their baseline", CENTER, bg=SECTION) if has_doc[q] else
                         Cell("n/a", f"{c.measures[q]} has no document score", CENTER, bg=SECTION)
                         for q in range(m)])
        self._set(rows, columns, row_heads)


class CorrelationTab(QWidget):
    """The Correlation tab: the x and y measure choosers, the scatter (:attr:`plot`, its points
    :attr:`points`, their names :attr:`labels`), a note, and the :class:`CorrelationModel` matrix."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.compared: rm.Compared | None = None
        self.points = np.zeros((0, 2))
        self.labels: list[pg.TextItem] = []
        self.scatter_title = ""
        lay = QHBoxLayout(self)
        left = QVBoxLayout()
        bar = QHBoxLayout()
        self.x_measure, self.y_measure = QComboBox(), QComboBox()
        for label, combo in (("x", self.x_measure), ("y", self.y_measure)):
            bar.addWidget(rich_label(f"<b>{label}</b>"))
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.currentIndexChanged.connect(lambda _: self.show_scatter())
            bar.addWidget(combo)
            bar.addSpacing(10)
        self.swap_axes = QToolButton()
        self.swap_axes.setText("⇄")
        self.swap_axes.setToolTip("Swap x and y")
        self.swap_axes.clicked.connect(self._swap_axes)
        bar.addWidget(self.swap_axes)
        bar.addStretch(1)
        left.addLayout(bar)
        self.plot = pg.PlotWidget()
        restyle(self.plot)  # the theme's colours, the zoom's fonts
        self.plot.setObjectName("runs_scatter")
        self.plot.setMinimumSize(300, 240)
        item = self.plot.getPlotItem()
        item.showGrid(x=True, y=True, alpha=0.2)
        plain_axes(item)
        self.scatter = pg.ScatterPlotItem(size=11, hoverable=True, hoverSize=15,
                                          hoverBrush=pg.mkBrush(look.color("orange")), tip=self._point_tip)
        themed(self.scatter, pen=("background", 1.2), brush=POINT)
        item.addItem(self.scatter)
        item.getViewBox().sigResized.connect(self._place_labels)
        item.getViewBox().sigRangeChanged.connect(self._place_labels)
        left.addWidget(self.plot, 1)
        self.note = note()
        left.addWidget(self.note)
        lay.addLayout(left, 3)
        right = QVBoxLayout()
        right.addWidget(note("<b>Every two measures</b>: Kendall's τ / Pearson's r of the runs' means "
                             "(lower-is-better measures negated)"))
        self.model = CorrelationModel(self)
        self.table = CellsTable(self.model)
        self.table.setMinimumWidth(240)
        right.addWidget(self.table, 1)
        lay.addLayout(right, 2)

    def show_nothing(self) -> None:
        self.compared = None
        self.model.clear()
        self.scatter.setData([], [])
        self.note.setText("")

    def set_measures(self, measures: list[str]) -> None:
        """New measures in the x and y choosers, keeping the chosen ones where they remain
        (default: the first two), without redrawing."""
        kx, ky = self.x_measure.currentText(), self.y_measure.currentText()
        for combo in (self.x_measure, self.y_measure):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(measures)
        self.x_measure.setCurrentIndex(measures.index(kx) if kx in measures else 0)
        default_y = 1 if len(measures) > 1 else 0
        self.y_measure.setCurrentIndex(measures.index(ky) if ky in measures and ky != kx else default_y)
        for combo in (self.x_measure, self.y_measure):
            combo.blockSignals(False)

    def show_result(self, compared: rm.Compared) -> None:
        """The matrix and the scatter of ``compared``."""
        self.compared = compared
        self.model.set_rows(compared.comparison)
        for h in (self.table.horizontalHeader(), self.table.verticalHeader()):
            h.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.resizeRowsToContents()
        self.show_scatter()

    def _swap_axes(self) -> None:
        x, y = self.x_measure.currentIndex(), self.y_measure.currentIndex()
        self.x_measure.blockSignals(True)
        self.x_measure.setCurrentIndex(y)
        self.x_measure.blockSignals(False)
        self.y_measure.setCurrentIndex(x)

    def _point_tip(self, x: float, y: float, data) -> str:
        """The hover text of a point: the run's name and its two scores."""
        if self.compared is None or data is None:
            return ""
        c = self.compared.comparison
        i = int(data)
        kx, ky = self.x_measure.currentIndex(), self.y_measure.currentIndex()
        return plain_tip(f"{c.runs[i]}\n{c.measures[kx]}: {rm.fmt(c.means[kx, i])}\n"
                         f"{c.measures[ky]}: {rm.fmt(c.means[ky, i])}")
    def _place_labels(self, *_) -> None:
        """Put each point's name beside it where it overlaps no other name, no other point and
        stays inside the plot (above right, above left, below right, below left, right, left;
        else the least overlap), greedily from the top of the plot."""
        if not self.labels or len(self.labels) != len(self.points):
            return
        vb = self.plot.getPlotItem().getViewBox()
        area = vb.sceneBoundingRect()
        where = [vb.mapViewToScene(QPointF(float(px), float(py))) for px, py in self.points]
        markers = [QRectF(p.x() - 7, p.y() - 7, 14, 14) for p in where]
        placed: list[QRectF] = []

        def overlap(r: QRectF, others) -> float:
            total = 0.0
            for o in others:
                cut = r.intersected(o)
                total += max(cut.width(), 0) * max(cut.height(), 0)
            return total

        for i in sorted(range(len(where)), key=lambda i: (where[i].y(), where[i].x())):
            label, p = self.labels[i], where[i]
            box = label.textItem.boundingRect()
            w, h = max(box.width(), 1.0), max(box.height(), 1.0)
            gap = 6.0
            candidates = [((-gap / w, 1.0), QRectF(p.x() + gap, p.y() - h, w, h)),
                          ((1 + gap / w, 1.0), QRectF(p.x() - gap - w, p.y() - h, w, h)),
                          ((-gap / w, 0.0), QRectF(p.x() + gap, p.y(), w, h)),
                          ((1 + gap / w, 0.0), QRectF(p.x() - gap - w, p.y(), w, h)),
                          ((-(gap + 4) / w, 0.5), QRectF(p.x() + gap + 4, p.y() - h / 2, w, h)),
                          ((1 + (gap + 4) / w, 0.5), QRectF(p.x() - gap - 4 - w, p.y() - h / 2, w, h))]
            others = [m for j, m in enumerate(markers) if j != i]

            def cost(c) -> float:
                r = c[1]
                inside = r.intersected(area)
                outside = w * h - max(inside.width(), 0) * max(inside.height(), 0)
                return overlap(r, placed) * 2 + overlap(r, others) + outside * 3

            anchor, rect = min(candidates, key=cost)
            label.setAnchor(anchor)
            placed.append(rect)

    def show_scatter(self) -> None:
        item = self.plot.getPlotItem()
        for label in self.labels:
            item.removeItem(label)
        self.labels = []
        if self.compared is None or self.x_measure.currentIndex() < 0 or self.y_measure.currentIndex() < 0:
            self.scatter.setData([], [])
            return
        c = self.compared.comparison
        kx, ky = self.x_measure.currentIndex(), self.y_measure.currentIndex()
        x, y = c.means[kx].astype(float), c.means[ky].astype(float)
        self.points = np.column_stack([x, y])
        self.scatter.setData(x=x, y=y, data=list(range(len(c.runs))))
        lower_x, lower_y = bool(c.lower_is_better[kx]), bool(c.lower_is_better[ky])
        vb = item.getViewBox()
        vb.invertX(lower_x)
        vb.invertY(lower_y)
        item.setLabel("bottom", esc(c.measures[kx]) + (" (lower is better, axis reversed)" if lower_x else ""))
        item.setLabel("left", esc(c.measures[ky]) + (" (lower is better, axis reversed)" if lower_y else ""))
        pad = lambda v: max((np.ptp(v) if len(v) else 0) * 0.15, 1e-3 * max(1.0, float(np.max(np.abs(v)))))  # noqa: E731
        item.setXRange(float(x.min()) - pad(x) * 1.5, float(x.max()) + pad(x) * 1.5, padding=0)
        item.setYRange(float(y.min()) - pad(y), float(y.max()) + pad(y), padding=0)
        if len(c.runs) <= LABELLED_POINTS:
            for i, name in enumerate(c.runs):
                label = themed(pg.TextItem(name, anchor=(0, 1)), text="foreground")
                label.setPos(x[i], y[i])
                item.addItem(label)
                self.labels.append(label)
            self._place_labels()
        same = kx == ky
        few = len(c.runs) < MIN_CORRELATED
        if same:
            tau = ""
        elif few:
            tau = f"{TWO_RUNS.split(':')[0]} · "
        else:
            tau = (f"Kendall's τ = {rm.fmt(c.tau[kx, ky], 3)} (p {rm.fmt_p(c.tau_p[kx, ky])}) · "
                   f"Pearson's r = {rm.fmt(c.r[kx, ky], 3)} (p {rm.fmt_p(c.r_p[kx, ky])}) · ")
        self.scatter_title = f"{tau}{len(c.runs)} runs"
        item.setTitle(esc(self.scatter_title), size="11pt", color=look.plot_colours()[1])
        notes = []
        for k in dict.fromkeys((kx, ky)):
            if few and not np.isnan(c.doc_means[k]).any():
                notes.append(f"<b>{esc(c.measures[k])}</b> {c.doc_gains[k]} of {len(c.runs)} runs better than their "
                             f"baseline")
            elif not math.isnan(c.doc_tau[k]) or not np.isnan(c.doc_means[k]).any():
                notes.append(f"<b>{esc(c.measures[k])}</b> τ {rm.fmt(c.doc_tau[k], 3)}, r "
                             f"{rm.fmt(c.doc_r[k], 3)} ({c.doc_gains[k]} of {len(c.runs)} runs better than their "
                             f"baseline)")
        text = "Each point a run (hover: its name and both scores)." + (f" {esc(TWO_RUNS)}." if few else "")
        if lower_x or lower_y:
            text += " A lower-is-better axis is reversed, so up and right are better and τ, r have their usual sign."
        if notes:
            text += "<br>Against each run evaluated as whole documents: " + "; ".join(notes) + "."
        self.note.setText(text)

