"""Room above the curves for a plot's marker labels and legend, so that no label covers a curve.

A plot whose curves lie in ``[bottom, data_top]`` (precision and recall in [0, 1], NCE up to its
largest value) shows a y range that reaches past ``data_top`` by a strip of pixels, and the
labels of its vertical markers ("T2I(300) stop", "reader", "2193171 (rank 9)", the swept value)
and its legend stand in that strip, in rows: a label goes in the first row where it overlaps no
other label (nor the legend, which takes the right end of the first row). The strip takes at
most :data:`MAX_SHARE` of the plot's height: in a short plot (a laptop screen, the presentation
zoom) the labels that find no row there are not drawn (their lines are), the first ones of
:attr:`LabelRoom.lines` kept. The strip is sized in
pixels, so it is the same height whatever the plot's height; when the plot is resized or its x
range moves (the labels' pixel positions change) the rows and the range are worked out again.

:func:`strip_top` and :func:`rows_for` are the arithmetic, tested by hand; :class:`LabelRoom`
applies them to a pyqtgraph plot item.

Threading contract: GUI thread only."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF

from .plots import pg, set_range

PAD = 3  # pixels between the view's top edge and the first row, and under the last row
GAP = 6  # least pixels between two labels in one row
MAX_SHARE = 0.45  # the strip never takes more than this share of the view's height


def strip_top(bottom: float, data_top: float, view_px: float, strip_px: float) -> float:
    """The y range's top that leaves ``strip_px`` pixels above ``data_top`` in a view
    ``view_px`` pixels high whose range starts at ``bottom``: with ``f = strip_px / view_px``
    (at most :data:`MAX_SHARE`), ``(top - data_top) / (top - bottom) = f``, so
    ``top = (data_top - f * bottom) / (1 - f)``. A view not laid out yet (0 pixels) gets the
    largest share."""
    f = min(strip_px / view_px, MAX_SHARE) if view_px > 0 else MAX_SHARE
    return (data_top - f * bottom) / (1.0 - f)


def rows_for(extents: Sequence[tuple[float, float]], taken: Sequence[tuple[float, float]] = ()) -> list[int]:
    """A row (0, 1, ...) for each label's pixel extent ``(left, right)``, in order: the first row
    where it keeps :data:`GAP` pixels from every label placed there before it; ``taken`` are
    extents already in row 0 (the legend)."""
    rows: list[list[tuple[float, float]]] = [list(taken)]
    out = []
    for left, right in extents:
        for i, row in enumerate(rows):  # noqa: B007 (i: the row found, used after the loop)
            if all(right + GAP <= a or left >= b + GAP for a, b in row):
                break
        else:
            i = len(rows)
            rows.append([])
        rows[i].append((left, right))
        out.append(i)
    return out


class LabelRoom:
    """The strip above ``item``'s curves: :meth:`set_data_range` replaces ``setYRange`` for the
    range the curves use; ``lines`` are the vertical markers whose labels go in the strip (each
    a ``pg.InfiniteLine`` whose label hangs from its anchor, as
    :func:`readsim.app.widgets.plots.boxed_label` makes them); ``legend`` (a
    ``pg.LegendItem`` of :func:`legend_for`, or None) goes at the right of the first row.
    Call :meth:`arrange` after a label's text or a line's value changes."""

    def __init__(self, item: pg.PlotItem, lines: Sequence[pg.InfiniteLine] = (), legend: pg.LegendItem | None = None,
                 bottom: float = 0.0, data_top: float = 1.0) -> None:
        self.item, self.lines, self.legend = item, list(lines), legend
        self.bottom, self.data_top = bottom, data_top
        self._placed: tuple | None = None
        vb = item.getViewBox()
        vb.sigResized.connect(self.arrange)
        vb.sigXRangeChanged.connect(self.arrange)
        if legend is not None:
            legend.anchor(itemPos=(1, 0), parentPos=(1, 0), offset=(-PAD, PAD))

    def set_data_range(self, bottom: float, data_top: float) -> None:
        """The curves lie in ``[bottom, data_top]`` (data units)."""
        if (bottom, data_top) != (self.bottom, self.data_top):
            self.bottom, self.data_top = bottom, data_top
            self.arrange()

    def arrange(self, *_) -> None:
        """Put each visible label in its row and set the y range that leaves the strip free."""
        vb = self.item.getViewBox()
        height = vb.height()
        shown = [line for line in self.lines if line.isVisible() and line.label.format]
        row_px = max([line.label.boundingRect().height() for line in shown] +
                     ([self.legend.boundingRect().height()] if self._legend_shown() else []) + [16.0])
        extents = [self._extent(line) for line in shown]
        taken = []
        if self._legend_shown():
            width = self.legend.boundingRect().width()
            taken = [(vb.width() - PAD - width, vb.width())]
        rows = rows_for(extents, taken)
        fit = max(1, int((MAX_SHARE * height - 2 * PAD) // row_px)) if height > 0 else len(rows) or 1
        for line, row in zip(shown, rows):  # a label with no row left in the strip is not drawn
            if line.label.isVisible() != (row < fit):
                line.label.setVisible(row < fit)
        rows = [min(row, fit - 1) for row in rows]
        count = max(rows, default=-1) + 1 if shown else 0
        count = max(count, 1 if taken else 0)
        strip = count * row_px + 2 * PAD if count else PAD
        placed = (height, tuple(rows), strip, self.bottom, self.data_top)
        top = strip_top(self.bottom, self.data_top, height, strip)
        set_range(self.item, 1, self.bottom, top, 0)
        if placed == self._placed or height <= 0:
            return
        self._placed = placed
        self._ticks(top, height)
        for line, row in zip(shown, rows):
            position = 1.0 - (PAD + row * row_px) / height
            if abs(line.label.orthoPos - position) > 1e-9:
                line.label.setPosition(position)

    def _ticks(self, top: float, height: float) -> None:
        """The left axis' ticks within ``[bottom, data_top]`` only (none in the strip: a
        precision of 1.2 is no value), as pyqtgraph would choose them for the curves' part of
        the axis."""
        axis = self.item.getAxis("left")
        axis.setTicks(None)
        size = height * (self.data_top - self.bottom) / (top - self.bottom)
        levels = []
        for spacing, values in axis.tickValues(self.bottom, self.data_top, size):
            kept = [v for v in values if self.bottom - 1e-9 <= v <= self.data_top + 1e-9]
            levels.append(list(zip(kept, axis.tickStrings(kept, 1.0, spacing))))
        axis.setTicks(levels)

    def _legend_shown(self) -> bool:
        return self.legend is not None and self.legend.isVisible() and bool(self.legend.items)

    def _extent(self, line: pg.InfiniteLine) -> tuple[float, float]:
        """The pixels (view box coordinates) a line's label spans across: right of the line, or
        left of it when its label is anchored on its right edge."""
        vb = self.item.getViewBox()
        x = vb.mapFromView(QPointF(line.value(), 0)).x()
        width = line.label.boundingRect().width()
        return (x - width, x) if line.label.anchors[0][0] >= 1.0 else (x, x + width)


def legend_for(item: pg.PlotItem, columns: int = 4) -> pg.LegendItem:
    """A one-row legend for ``item`` (up to ``columns`` entries side by side), for a
    :class:`LabelRoom` to place in its strip."""
    legend = item.addLegend(labelTextSize="8pt", colCount=columns, verSpacing=-6, horSpacing=12)
    legend.layout.setContentsMargins(2, 0, 2, 0)
    return legend
