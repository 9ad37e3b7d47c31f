"""No label or legend covers a curve: the room above the curves (:mod:`readsim.app.widgets.plot_room`).

The arithmetic by hand; then the window's plots on the real data (PageRank, topic 2009074 of
bert-passages.run), where every marker label and legend must lie wholly above the curves' top,
in every plot that has labels: the precision plot, the topic curves, the Sensitivity dock."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF

from readsim.app.background import activity
from readsim.app.widgets.plot_room import GAP, MAX_SHARE, rows_for, strip_top

PAGERANK = "23724"


@pytest.mark.parametrize("bottom, data_top, view_px, strip_px, want", [
    # 40 of 200 pixels: f = 0.2, top = 1 / 0.8 = 1.25 (1.25 - 1 = 0.25 = 0.2 x 1.25)
    (0.0, 1.0, 200, 40, 1.25),
    # from 1 to 5 levels, 30 of 300 pixels: f = 0.1, top = (5 - 0.1) / 0.9 = 5.444...
    (1.0, 5.0, 300, 30, 4.9 / 0.9),
    # a strip larger than MAX_SHARE (0.45) of the view is held to it: top = 1 / 0.55
    (0.0, 1.0, 100, 80, 1 / (1 - MAX_SHARE)),
    # a view not laid out yet: the largest share
    (0.0, 1.0, 0, 40, 1 / (1 - MAX_SHARE)),
])
def test_strip_top_leaves_the_strip_above_the_curves(bottom, data_top, view_px, strip_px, want):
    top = strip_top(bottom, data_top, view_px, strip_px)
    assert top == pytest.approx(want, rel=1e-12)
    if view_px and strip_px / view_px <= MAX_SHARE:
        assert (top - data_top) / (top - bottom) * view_px == pytest.approx(strip_px)


def test_rows_put_a_label_in_the_first_row_where_it_overlaps_none():
    assert GAP == 6  # the numbers below use it
    # 0-50 and 56-90 keep 6 pixels apart: one row; 60-100 overlaps 56-90: row 1; 0-40 overlaps
    # 0-50 in row 0 and fits row 1 before 60-100 (40 + 6 <= 60)
    assert rows_for([(0, 50), (56, 90), (60, 100), (0, 40)]) == [0, 0, 1, 1]
    # 0-55 is 5 pixels from 60: not enough
    assert rows_for([(0, 55), (60, 100)]) == [0, 1]
    # the legend takes the right of row 0: a label under it goes to row 1
    assert rows_for([(10, 60), (150, 190)], taken=[(140, 200)]) == [0, 1]
    assert rows_for([]) == []


def _above_curves(plot, data_top: float) -> None:
    """Every visible marker label and the legend of ``plot`` lies above ``data_top``."""
    import pyqtgraph as pg

    item = plot.getPlotItem()
    vb = item.getViewBox()
    top_px = vb.mapViewToScene(QPointF(0, data_top)).y()  # scene y grows downwards
    boxes = [(f"label {line.label.format!r}", line.label.sceneBoundingRect())
             for line in item.items if isinstance(line, pg.InfiniteLine) and line.isVisible() and line.label is not None
             and line.label.format and line.label.isVisible()]
    legend = item.legend
    if legend is not None and legend.items:
        boxes.append(("legend", legend.sceneBoundingRect()))
    assert boxes, "nothing to check"
    view = vb.sceneBoundingRect()
    for name, box in boxes:
        assert box.bottom() <= top_px + 0.5, (name, box, top_px)
        assert view.top() - 0.5 <= box.top() and box.right() <= view.right() + 0.5 and box.left() >= view.left() - 0.5, \
            (name, box, view)


def test_the_precision_plots_labels_stand_above_its_curves(real_window, qtbot):
    window = real_window(PAGERANK)
    plot = window.plot.plot
    qtbot.waitUntil(lambda: plot.isVisible() and window.plot.t2i.isVisible())
    _above_curves(plot, 1.0)
    from readsim.core.reading import Mode

    for mode in (Mode.WORST, Mode.NATURAL):  # the markers move: the rows follow
        window.session.set_settings(mode=mode)
        qtbot.waitUntil(lambda: activity().count == 0)
        _above_curves(plot, 1.0)


def test_the_sensitivity_and_topic_plots_labels_stand_above_their_curves(real_window, qtbot):
    import numpy as np

    window = real_window(PAGERANK)
    window.act_sensitivity.trigger()
    panel = window.sensitivity
    panel.set_sweep("screen")
    qtbot.waitUntil(lambda: panel.isVisible() and panel.curves and panel.topic_curve is not None
                    and not panel.busy() and activity().count == 0, timeout=20_000)
    plots = panel.plots
    _above_curves(plots.article, 1.0)
    efforts = max(float(np.nanmax(ys)) for m, ys in panel.curves.items() if m.kind in ("LE", "ES"))
    _above_curves(plots.efforts, efforts)
    _above_curves(plots.topic, float(np.max(panel.topic_curve)))
    curves = window.topic_view.curves
    qtbot.waitUntil(lambda: curves.marked_rank() is not None)
    _above_curves(curves.gp_plot, 1.0)
