"""On real data: nothing clipped or overlapping (ranked list headers,
the plot's marker labels, the playback counters when the article pane narrows) and one unit
everywhere (the qrels' unit on every size: screen, tolerance, speed, positions, plot axis).
The tests that only read the window or change its settings share one (``real_window_shared``
resets the settings); the playback counters' test resizes it and opens a dock: its own each."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt

from readsim.app.widgets.ranked_list import LE, T2IF

ARTICLE = "23724"


def test_ranked_list_headers_show_their_whole_text(real_window_shared, qtbot):
    w = real_window_shared(ARTICLE)
    for screen, tolerance in ((300, 300), (2000, 10000), (100000, 1000000)):
        w.session.set_settings(screen=screen, tolerance=tolerance)
        table = w.table
        fm = table.horizontalHeader().fontMetrics()
        for col in (LE, T2IF):
            if table.isColumnHidden(col):  # dropped on a narrow list (the chosen measure's column stays)
                continue
            text = table.source.headerData(col, Qt.Orientation.Horizontal)
            assert text in (f"LE({screen})", f"T2IF({tolerance})")
            # the text and the sort arrow's room fit in the section
            qtbot.waitUntil(lambda c=col, t=text: table.columnWidth(c) >= fm.horizontalAdvance(t) + fm.horizontalAdvance("M"))


def _label_rects(bar) -> list[QRect]:
    rects = []
    for name, value in bar._pairs:
        for label in (name, value):
            r = label.geometry()
            # the text's own extent inside the label (a label may be wider than its text)
            width = label.fontMetrics().horizontalAdvance(label.text().split(">")[1].split("<")[0]
                                                          if label.text().startswith("<") else label.text())
            x = r.right() - width if label.alignment() & Qt.AlignmentFlag.AlignRight else r.left()
            rects.append(QRect(x, r.top(), width, r.height()))
    return rects


@pytest.mark.parametrize("width", [1600, 1100, 800])
def test_playback_counters_never_overlap(real_window, qtbot, width):
    w = real_window(ARTICLE)
    w.resize(width, 1000)
    w.editing.act_outline.trigger()  # a dock opens and the article pane narrows
    qtbot.waitUntil(lambda: w.editing.dock.isVisible())
    bar = w.playback_bar

    def apart() -> bool:
        rects = _label_rects(bar)
        return all(a.right() <= bar.width() + 1 and not any(a.intersects(b) for b in rects[i + 1:])
                   for i, a in enumerate(rects))

    qtbot.waitUntil(apart, timeout=3000)  # once the layout has settled, and for good
    w.session.set_step(5)
    qtbot.waitUntil(apart, timeout=3000)


def test_the_qrels_unit_is_on_every_size(real_window_shared, qtbot):
    w = real_window_shared(ARTICLE)
    assert w.session.unit == "bytes"
    assert w.controls.screen.suffix() == " bytes" and w.controls.tolerance.suffix() == " bytes"
    assert w.playback_bar.speed.suffix() == " bytes/s"
    assert "bytes" in w.plot.plot.getPlotItem().getAxis("bottom").labelText
    assert w.playback_bar.shown()["read"].endswith("27,562 bytes")


def test_marker_labels_stay_inside_the_plot(real_window_shared, qtbot):
    w = real_window_shared(ARTICLE)
    w.session.set_settings(tolerance=10000)  # the T2I stop at 14,164 of 27,562: right half
    plot = w.plot
    view = plot.plot.getPlotItem().getViewBox()
    for line in (plot.t2i, plot.first):
        label = line.label
        box = label.mapRectToItem(view, label.boundingRect())
        assert box.left() >= view.boundingRect().left() - 1 and box.right() <= view.boundingRect().right() + 1, \
            (label.toPlainText(), box, view.boundingRect())
