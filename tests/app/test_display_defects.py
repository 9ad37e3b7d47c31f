"""Display defects a new user met, on the real data (topic 2009074, article 23724 "PageRank"):
counts agree with their units ("1 byte"), big numbers carry thousands separators, the selected
row of "where the run loses" stays whole in view, the plots' marker labels sit in boxes above the
curves, and the plots' titles (their legends) are never cut at the plot's edge."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from readsim.app.plain import amount, esc, menu_text, plain_tip
from readsim.app.widgets import list_plot, plots

PAGERANK = "23724"


def test_amounts_by_hand():
    assert amount(1, "bytes") == "1 byte"
    assert amount(2, "bytes") == "2 bytes"
    assert amount(0, "bytes") == "0 bytes"
    assert amount(1, "characters") == "1 character"
    assert amount(27562, "characters") == "27,562 characters"
    assert amount(1, "passages") == "1 passage"
    assert amount(11, "reading pieces") == "11 reading pieces"


def test_text_helpers_by_hand():
    assert esc('<b>"x" & y</b>') == "&lt;b&gt;&quot;x&quot; &amp; y&lt;/b&gt;"
    assert plain_tip("no markup & fine") == "no markup & fine"  # Qt shows it plain as it is
    assert plain_tip("<b>x</b>\ny") == "<p>&lt;b&gt;x&lt;/b&gt;<br>\ny</p>"
    assert menu_text("a&b.run") == "a&&b.run"


def test_one_byte_and_screens_with_separators(real_window, qtbot):
    w = real_window(PAGERANK)
    s = w.session
    c = w.controls
    c.screen.setValue(1)
    c.tolerance.setValue(1)
    assert c.screen.suffix() == " byte" and c.tolerance.suffix() == " byte"
    c.screen.setValue(2)
    assert c.screen.suffix() == " bytes" and c.tolerance.suffix() == " byte"
    s.set_settings(screen=1)  # from the session (the controls' signals blocked): still agrees
    assert c.screen.value() == 1 and c.screen.suffix() == " byte"
    # a one-byte screen: as many screens as bytes in the reading order (n >= 1,000: a separator)
    n = s.current.evaluation.n
    assert n >= 1000
    s.set_step(2)
    qtbot.waitUntil(lambda: w.article.position.text() == f"screen 3 of {n:,}")
    assert "," in w.article.position.text()
    # the scores panel's facts: one passage, several reading pieces, units in the plural
    facts = w.scores.facts.text()
    assert f"of {n:,} bytes" in facts and "in 1 passage ·" in facts and "passage(s)" not in facts
    assert "piece(s)" not in facts and "reading pieces" in facts


def test_selected_loss_row_is_whole_in_view(real_window, qtbot):
    """The window opens on the article (its row selected while the topic view is laid out,
    then the split line wraps and the table shrinks): the row stays whole, at the default size
    and after the window shrinks."""
    w = real_window(PAGERANK)
    assert w.topic_dock.isVisible()
    panel = w.topic_view.loss_panel
    table = panel.table

    def whole() -> bool:
        rows = table.selectionModel().selectedRows()
        rect = table.visualRect(rows[0])
        return rect.isValid() and table.viewport().rect().contains(rect)

    qtbot.waitUntil(lambda: len(table.selectionModel().selectedRows()) == 1)
    assert panel.article_at(table.selectionModel().selectedRows()[0].row()) == PAGERANK
    assert whole(), (table.visualRect(table.selectionModel().selectedRows()[0]), table.viewport().rect())
    w.resize(1200, 760)
    qtbot.waitUntil(whole)
    w.resize(1200, 640)
    qtbot.waitUntil(whole)


@pytest.mark.parametrize("size", [(1600, 1000), (1200, 760)])
def test_plot_labels_in_boxes_and_titles_fit(real_window, qtbot, size):
    w = real_window(PAGERANK)
    w.resize(*size)
    w.topic_dock.show()
    tv = w.topic_view
    tv.doc_combo.setCurrentIndex(tv.doc_combo.findData("LE"))  # the NCE plot's title is the longest
    curves = tv.curves
    qtbot.waitUntil(lambda: curves.marked_rank() == 10)
    # the marker labels: in a box (a fill), at the top of the view, drawn above the curves
    plot = w.plot
    for line in (plot.t2i, plot.cursor, plot.first, curves.gp_mark, curves.nce_mark):
        assert line.label.fill.style() != Qt.BrushStyle.NoBrush
        assert line.zValue() > max(c.zValue() for c in (plot.precision, plot.recall, curves.gp, curves.nce))
    for line in (plot.t2i, curves.gp_mark, curves.nce_mark):
        assert line.label.orthoPos >= 0.95 and line.label.anchors[0][1] == 0.0  # hangs from the top
    assert plot.t2i.label.textItem.toPlainText() == "T2I(300) stop"
    assert curves.nce_mark.label.textItem.toPlainText() == f"{PAGERANK} (rank 10)"
    # every title line fits the width it is drawn in, and the whole legend is there (a plot the
    # narrow dock shows one at a time: on its tab)
    for tab, pw in enumerate((curves.gp_plot, curves.nce_plot)):
        if not curves.side_by_side():
            curves.tabs.setCurrentIndex(tab)
        qtbot.waitUntil(pw.isVisible)
        item = pw.getPlotItem()
        width = item.getViewBox().width()
        html = item.titleLabel.text
        for line in html.split("<br>"):
            assert list_plot._html_size(line).width() <= width, (line, width)
        assert item.titleLabel.item.boundingRect().height() <= item.titleLabel.maximumHeight()
    assert "(lower is better)" in curves.nce_plot.getPlotItem().titleLabel.item.toPlainText()
    assert "ANCE[r] / LE(300)" in curves.nce_plot.getPlotItem().titleLabel.item.toPlainText()
    assert curves.tabs.tabText(0) == "gR[r]"  # an effort score has no gP: the tab says what the plot shows


def test_curve_plots_side_by_side_where_both_fit_else_one_at_a_time(qtbot):
    """Two plots of PLOT_MIN_WIDTH (220) with PLOT_SPACING (6) between them need 446 pixels:
    from there side by side; narrower, a tab bar and one plot, so that the widget's least width
    is one plot's (the topic dock then fits a 1,280-pixel screen)."""
    curves = list_plot.RankCurves()
    qtbot.addWidget(curves)
    curves.show()
    qtbot.waitExposed(curves)
    assert curves.minimumWidth() == 220 and 2 * list_plot.PLOT_MIN_WIDTH + list_plot.PLOT_SPACING == 446

    def shown():
        return curves.side_by_side(), curves.tabs.isVisible(), curves.gp_plot.isVisible(), curves.nce_plot.isVisible()

    curves.resize(446, 300)
    qtbot.waitUntil(lambda: shown() == (True, False, True, True))
    assert curves.gp_plot.width() + curves.nce_plot.width() + 6 == 446
    curves.resize(445, 300)
    qtbot.waitUntil(lambda: shown() == (False, True, True, False))  # the first tab: gP[r], gR[r]
    assert [curves.tabs.tabText(i) for i in range(curves.tabs.count())] == ["gP[r], gR[r]", "NCE[r]"]
    curves.tabs.setCurrentIndex(1)
    assert shown() == (False, True, False, True)
    qtbot.waitUntil(lambda: curves.nce_plot.width() == 445)  # the whole width for the one plot
    curves.resize(800, 300)
    qtbot.waitUntil(lambda: shown() == (True, False, True, True))


def test_article_id_with_braces_marks_its_rank(qtbot):
    """pyqtgraph formats a marker label with ``str.format``: an article id with braces shows as is."""
    curves = list_plot.RankCurves()
    qtbot.addWidget(curves)
    line = curves.gp_mark
    plots.set_label(line, "{x} (rank 1)")
    line.setValue(1)
    assert line.label.textItem.toPlainText() == "{x} (rank 1)"
