"""The Sensitivity dock's "Reader as C/W/L" tab (reference 5.15, 5.16): on the real topic 2009074,
its numbers are readsim-eval's (the list measures U@L/T2IP(t), TBG@H/T2IP(t) and the projection
that --cwl writes for cwl-eval); its step plot draws the continuation of every piece read; a new
L, H or tolerance redraws it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from readsim.app.background import activity
from readsim.core import cwl
from readsim.core.formats import read_run
from readsim.core.listmeasures import evaluate
from readsim.core.measure import parse_list_measure
from readsim.operations.cwl_files import trails

PAGERANK = "23724"


def shown(window, qtbot):
    window.act_sensitivity.trigger()
    panel = window.sensitivity
    panel.tabs.setCurrentWidget(panel.cwl)
    qtbot.waitUntil(lambda: panel.cwl.isVisible() and bool(panel.cwl.curves) and activity().count == 0,
                    timeout=20_000)
    return panel.cwl


def test_numbers_are_readsim_evals(real_window, qtbot, tmp_path):
    window = real_window(PAGERANK)
    s = window.session
    cw = shown(window, qtbot)
    assert (cw.spin_l.value(), cw.spin_h.value()) == (10_000, 2_000)
    u, tbg = cw.curves
    names = ["U@10000/T2IP(300)", "TBG@2000/T2IP(300)"]
    # the engine on the run file's lines of the window's topic (a topic is evaluated on its own)
    lines = Path(s.run.path).read_bytes().splitlines(keepends=True)
    (tmp_path / "topic.run").write_bytes(b"".join(ln for ln in lines if ln.split(maxsplit=1)[:1] == [s.topic.encode()]))
    run = read_run(tmp_path / "topic.run")
    assert list(run.topics) == [s.topic]
    ev = evaluate(s.qrels, run, [parse_list_measure(n) for n in names], collection=s.collection)
    assert u.value == pytest.approx(ev.values[names[0]][s.topic], rel=1e-12)
    assert tbg.value == pytest.approx(ev.values[names[1]][s.topic], rel=1e-12)
    # the projection: the trail --cwl writes, at depth n + 1, cwl-eval's arithmetic
    trail = next(t for t in trails(s.qrels, run, 300, collection=s.collection) if t.topic == s.topic)
    view = cwl.view(cwl.CwlMetric("U", 10_000), trail.gain, trail.cost, len(trail.articles) + 1)
    assert (u.view.EU, u.view.ETU, u.view.EC, u.view.ETC) == pytest.approx((view.EU, view.ETU, view.EC, view.ETC))
    # drawn: one step per piece read, from 1 at the start; the last step ends where reading ends
    x, y = cw.slot.widget().lines[0].getData()
    assert y[0] == 1.0 and len(y) == len(u.probability) and x[-1] == trail.cost.sum()
    assert "U@10000/T2IP(300) = " in cw.numbers.text() and "ETC" in cw.numbers.text()
    # the sweep's controls belong to the Sweep tab
    panel = window.sensitivity
    assert not panel.combo.isVisible() and not panel.export_button.isVisible()
    panel.tabs.setCurrentIndex(0)
    assert panel.combo.isVisible() and panel.export_button.isVisible()


def test_a_new_parameter_redraws(real_window, qtbot):
    window = real_window(PAGERANK)
    cw = shown(window, qtbot)
    before = cw.curves[0].value
    cw.spin_l.setValue(500)  # the reader's first article alone is longer than 500 positions
    assert cw.curves[0].metric.param == 500 and cw.curves[0].value < before
    assert np.all(cw.curves[0].probability[1:] <= 1.0)
    window.session.set_settings(tolerance=50)
    qtbot.waitUntil(lambda: "T2IP(50)" in cw.numbers.text(), timeout=20_000)
