"""A number that rounds to zero is shown as 0.0000, never -0.0000: the topic view's "where the run
loses" split, whose interaction term is a sum of four AgP values that cancel in exact arithmetic
(0.6 - 0.5 - 0.4 + 0.3 is -5.6e-17 in floating point)."""

from __future__ import annotations

import numpy as np

from readsim.app.widgets.loss_panel import LossPanel
from readsim.core.costs import LossSplit
from readsim.core.measure import DocMeasure


def test_together_rounding_to_zero_prints_zero(qtbot):
    loss = LossSplit(DocMeasure("aveChP"), ["a"], np.array([True]), np.array([10]), np.array([0.3]),
                     np.array([0.5]), np.array([1]), 1, [], actual=0.3, ideal_passages=0.5, ideal_ranking=0.4,
                     ideal=0.6, perfect=0.6)
    assert loss.interaction < 0  # the float noise the panel must not show as a sign
    panel = LossPanel()
    qtbot.addWidget(panel)
    panel.set_loss(loss, ["A"])
    assert panel.text("interaction") == "0.0000" and panel.text("unretrieved") == "0.0000"
    assert "-0.0000" not in panel.split_line.text() and "together 0.0000" in panel.split_line.text()
    # by hand: browse = 0.5 - 0.3 = +0.2000, fetch = 0.4 - 0.3 = +0.1000
    assert panel.text("browse") == "0.2000" and panel.text("fetch") == "0.1000"
