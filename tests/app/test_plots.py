"""The plots' shared set-up (:mod:`readsim.app.widgets.plots`): every axis shows its values as
they are. pyqtgraph's default scales an axis by an SI prefix: a precision axis zoomed to
[0, 0.004] read 0 to 4 with "(x0.001)" beside the label."""

from __future__ import annotations

import pytest

from readsim.app.widgets import list_plot, sensitivity_plot


@pytest.mark.parametrize("make", [list_plot._plot, sensitivity_plot._plot], ids=["list plot", "sensitivity"])
def test_a_score_axis_zoomed_below_one_shows_the_values_as_they_are(qtbot, make):
    plot = make("precision")
    qtbot.addWidget(plot)
    item = plot.getPlotItem()
    item.setYRange(0.0, 0.004, padding=0.0)
    item.setXRange(0.0, 0.5, padding=0.0)
    for name in ("left", "bottom"):
        axis = item.getAxis(name)
        assert axis.autoSIPrefixScale == 1.0, name  # the ticks are the values: 0.002 reads 0.002
        assert "(x" not in axis.labelString(), name
    left = item.getAxis("left")
    assert left.tickStrings([0.002], left.autoSIPrefixScale * left.scale, 0.001) == ["0.002"]
