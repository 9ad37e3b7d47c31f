"""The Topics tab's difference plot (app/widgets/runs/topics_plot.py, reference section 12.5): the
bars, their colours, the mean and the interval by hand; on the real runs the bars are
``readsim-eval compare --per-topic``'s differences, and the tab is drawn at 1280 x 720."""

from __future__ import annotations

import math

import numpy as np
import pytest

from readsim.app.widgets.runs.topics_tab import TopicsTab
from readsim.core.run_comparison import compare_runs

from helpers.cli import records, run_cli

T_975_3 = 3.182446305284263  # Student's t, 0.975 quantile, 3 degrees of freedom (tables)


def test_bars_colours_mean_and_band_by_hand(qtbot):
    # A (0.5, 0.4, 0.3, 0.2), B (0.6, 0.2, 0.3, 0.5): B is best (0.4 > 0.35); A - B = (-0.1, +0.2, 0, -0.3)
    c = compare_runs(np.array([[[0.5, 0.4, 0.3, 0.2], [0.6, 0.2, 0.3, 0.5]]]), ["A", "B"], ["AgP/F(0.25)"],
                     ["t1", "t2", "t3", "t4"], test="t")
    tab = TopicsTab()
    qtbot.addWidget(tab)
    tab.show_result(c, 0)
    p = tab.plot
    assert [p.chooser.itemText(i) for i in range(p.chooser.count())] == ["A", "B"]  # the runner-up first
    assert p.against.currentText() == "B"  # its reference: the best-ranked run
    assert p.shown.topics == ["t2", "t3", "t1", "t4"]
    assert p.bar_heights() == pytest.approx([0.2, 0.0, -0.1, -0.3])
    # green where A does better (t2), grey where equal (t3), red where worse (t1, t4): bars by x position
    assert list(p.bars["better"].opts["x"]) == [0] and list(p.bars["equal"].opts["x"]) == [1]
    assert list(p.bars["worse"].opts["x"]) == [2, 3]
    half = T_975_3 * math.sqrt(0.13 / 3) / 2  # sd of the differences sqrt(0.13 / 3), 4 topics
    assert p.mean.value() == pytest.approx(-0.05)
    assert p.band.getRegion() == pytest.approx((-0.05 - half, -0.05 + half))
    assert "better on <b>1</b>, worse on <b>2</b>, equal on 1 topic" in p.summary.text()
    p.chooser.setCurrentIndex(1)  # B against A (its reference, the runner-up): the signs turn, the order too
    assert p.against.currentText() == "A"
    assert p.shown.topics == ["t4", "t1", "t3", "t2"]
    assert p.bar_heights() == pytest.approx([0.3, 0.1, 0.0, -0.2])
    p.against.setCurrentIndex(p.against.findText("B"))  # B against itself: nothing to draw
    assert p.shown is None and p.bar_heights() == [] and p.summary.text() == "choose two different runs"
    tab.show_nothing("nothing compared")
    assert p.shown is None and p.bar_heights() == [] and p.chooser.count() == 0


def test_real_bars_are_compare_per_topic_differences(qtbot, inex, tmp_path):
    from readsim.core.formats import read_qrels, read_run
    from readsim.operations.comparison import comparison_of
    from readsim.operations.evaluate import evaluations
    from readsim.core.measure import parse_list_measure

    qrels = inex / "qrels" / "inex2009-2010.qrels"
    paths = [inex / "runs" / "indri-passages.run", inex / "runs" / "indri-documents.run"]
    m = parse_list_measure("AgP/F(0.25)")
    results = [e for _, e in evaluations(read_qrels(qrels), [read_run(p) for p in paths], [m])]
    c = comparison_of(results, [m], None, test="t")
    tab = TopicsTab()
    qtbot.addWidget(tab)
    tab.resize(1280, 720)
    tab.show()
    tab.show_result(c, 0)
    code, out, err = run_cli("compare", qrels, *paths, "--per-topic", "--no-doc", "--test", "t", "--format", "jsonl")
    assert code == 0, err
    rows = [r for r in records(out, "topic") if r["run"] == "indri"]
    assert tab.plot.shown.topics == [r["topic"] for r in rows]
    assert tab.plot.bar_heights() == [r["diff"] for r in rows]
    assert len(tab.plot.bars["worse"].opts["x"]) == 101 and len(tab.plot.bars["equal"].opts["x"]) == 1
    qtbot.wait(50)
    shot = tmp_path / "topics-plot.png"
    assert tab.grab().save(str(shot))
    image = tab.grab().toImage()
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 3) for y in range(0, image.height(), 3)}
    assert "#187a35" in colours and "#b3261e" in colours  # the theme's good and bad, drawn


def test_any_two_of_three_runs(qtbot):
    # means: C 0.6 (best), A 0.5, B 0.2; A against C by default, then B against A chosen by hand
    c = compare_runs(np.array([[[0.6, 0.4], [0.1, 0.3], [0.9, 0.3]]]), ["A", "B", "C"], ["AgP/F(0.25)"], ["1", "2"],
                     test="t")
    tab = TopicsTab()
    qtbot.addWidget(tab)
    tab.show_result(c, 0)
    p = tab.plot
    assert [p.chooser.itemText(i) for i in range(3)] == ["A", "B", "C"] and p.against.currentText() == "C"
    assert (p.shown.topics, p.bar_heights()) == (["2", "1"], pytest.approx([0.1, -0.3]))  # A - C = (-0.3, +0.1)
    p.chooser.setCurrentIndex(1)
    assert p.against.currentText() == "C"  # B's reference: the best-ranked run
    p.against.setCurrentIndex(p.against.findText("A"))
    assert (p.shown.run, p.shown.reference) == ("B", "A")
    assert (p.shown.topics, p.bar_heights()) == (["2", "1"], pytest.approx([-0.1, -0.5]))  # B - A = (-0.5, -0.1)


def test_the_bars_follow_the_theme(qtbot):
    from readsim.app import appearance as look

    c = compare_runs(np.array([[[0.5, 0.4], [0.6, 0.2]]]), ["A", "B"], ["AgP/F(0.25)"], ["1", "2"], test="t")
    tab = TopicsTab()
    qtbot.addWidget(tab)
    tab.show_result(c, 0)
    a = look.appearance()
    try:
        a.set_theme("light")
        assert tab.plot.bars["better"].opts["brush"].color().name() == look.ROLES["good"][0]
        a.set_theme("dark")  # the bars drawn before the change take the dark theme's colours
        assert tab.plot.bars["better"].opts["brush"].color().name() == look.ROLES["good"][1]
        assert tab.plot.bars["worse"].opts["brush"].color().name() == look.ROLES["bad"][1]
    finally:
        a.reset()
