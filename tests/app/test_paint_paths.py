"""What a control change repaints, and that it is enough: the article view repaints only the
lines a new screen or veil touches, a reading-mode change only the gutter; the gutter blits each
jump's arc from an image kept by its geometry and style, and follows a scroll in the text's
repaint; the explain layer over the text is hidden without spans and stays over the viewport
when the text scrolls; the loss table takes a split and its
known costs in one update; rich labels of fixed size grow to fit a wider text. In every case the
window shows what a full repaint shows (the offscreen backing store against a fresh render).
The timings are ``bench/bench_gui.py``'s."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFontMetrics, QImage
from PySide6.QtWidgets import QApplication, QLabel

from readsim.app import marks as mk
from readsim.app.widgets import gutter as gutter_module
from readsim.app.widgets.explain_dock import SpanOverlay
from readsim.app.widgets.playback_bar import PlaybackBar
from readsim.app.plain import rich_label
from readsim.app.widgets.fixed_labels import fit_rich, set_wrapped
from readsim.app.widgets.loss_table import L_LOSS, L_RANK, L_RANK_COST, LOSS_ARTICLE_ROLE, LossModel
from readsim.app.widgets.tables import row_table
from readsim.core import intervals as iv
from readsim.core.costs import article_costs
from readsim.core.measure import DocMeasure, ListMeasure
from readsim.core.reading import Mode

from helpers.app_cases import PAGERANK, by_hand, mini_loss


@pytest.fixture
def window(spread_window):
    """A window on the spread run (tests/app/conftest.py): ``window(article)`` opens it."""
    return spread_window


def pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    h, w = image.height(), image.width()
    return np.frombuffer(image.constBits(), np.uint8, image.bytesPerLine() * h).reshape(h, -1)[:, :4 * w].astype(int)


def shown(w) -> np.ndarray:
    """What the window's backing store holds (what is on screen), offscreen."""
    return pixels(w.screen().grabWindow(w.winId()).toImage())


def settle(w) -> None:
    """Let a resize settle: the columns' new widths, the article's text laid out again at its
    new width (a long document is laid out in steps), painted once whole."""
    view = w.article.view
    layout = view.document().documentLayout()
    for _ in range(100):
        QApplication.processEvents()
        height = layout.documentSize().height()
        QApplication.processEvents()
        if layout.documentSize().height() == height:
            break
    w.grab()
    QApplication.processEvents()


def set_mode(w, mode: Mode) -> None:
    w.controls.mode.setCurrentIndex(w.controls.mode.findData(mode.value))


def test_each_change_leaves_on_screen_what_a_full_repaint_draws(window, qtbot):
    """Partial repaints (the lines a screen frame or veil left or reached, the gutter alone on a
    mode change) leave no stale pixel: after each change the backing store equals a fresh render
    of the whole window."""
    w = window(PAGERANK)
    w.resize(1300, 900)
    settle(w)
    changes = [lambda m=m: set_mode(w, m) for m in (Mode.WORST, Mode.BEST, Mode.DOCUMENT, Mode.NATURAL)]
    changes += [lambda: w.controls.screen.setValue(2000), lambda: w.controls.screen.setValue(300),
                w.act_next_screen.trigger, w.act_next_screen.trigger, w.act_line_forward.trigger,
                w.act_line_forward.trigger, lambda: set_mode(w, Mode.WORST), w.act_line_forward.trigger]
    for change in changes:
        change()
        for _ in range(3):  # the posted events: the changed widgets' repaints (no timer is involved)
            QApplication.processEvents()
        # compared only then: a full render in between would settle the plots' items itself
        assert np.array_equal(shown(w), pixels(w.grab().toImage()))


def test_a_mode_change_keeps_the_mark_classes_and_changes_the_chain(window):
    w = window(PAGERANK)
    view = w.article.view
    before = view.marks()
    set_mode(w, Mode.DOCUMENT)  # document mode: the chain is not followed
    after = view.marks()
    assert after.relevant is before.relevant and after.both is before.both  # the same spans, kept
    assert len(before.chain) == 3 and after.chain == ()
    # other relevant spans: other classes, not the kept ones
    cur = w.session.current
    other = dataclasses.replace(cur.evaluation, relevant=iv.as_array([(0, 100)]))
    m = mk.marks(cur.layout, other)
    want = cur.layout.spans_to_display(iv.subtract(iv.as_array([(0, 100)]), other.retrieved_spans))
    assert np.array_equal(m.relevant, want) and m.relevant is not before.relevant


def test_the_gutter_arcs_follow_the_jumps_and_draw_as_drawn_directly(window, qtbot, monkeypatch):
    """The arcs' images are kept by geometry and style: once the reader has taken a jump, or
    another mode has other jumps, the gutter shows the new arcs, as drawing them directly does
    (within two levels of 255 per channel: the image is composited once more)."""
    w = window(PAGERANK)
    view, gutter = w.article.view, w.article.view._gutter

    def direct() -> np.ndarray:
        monkeypatch.setattr(gutter_module, "_pixel_exact", lambda p, dpr: False)
        try:
            return pixels(gutter.grab().toImage())
        finally:
            monkeypatch.undo()

    drawn = []
    everything = w.session.current.evaluation.n  # the reader past every jump: all taken, the view not scrolled
    for change in (lambda: None, lambda: view.set_read(view.read_spans(), everything), lambda: set_mode(w, Mode.WORST)):
        change()
        arcs = [a for a in view.jump_arcs() if max(a[0], a[1]) >= -10 and min(a[0], a[1]) <= gutter.height() + 10]
        assert arcs, "no jump in view"
        image = pixels(gutter.grab().toImage())
        assert np.abs(image - direct()).max() <= 2
        assert any(key[:3] == arcs[0] for key in gutter._arcs)  # blitted from its image
        drawn.append(image)
    assert not np.array_equal(drawn[0], drawn[1])  # the jumps taken turn orange
    assert not np.array_equal(drawn[1], drawn[2])


def test_a_split_and_its_known_costs_are_one_update(qtbot):
    """A mode change hands the loss table the new split with its memoised costs: the costs show
    at once (no "…"), in one dataChanged, so the sort proxy re-sorts once."""
    loss = mini_loss()
    model = LossModel()
    model.set_loss(loss, ["A", "X", "B"], article_costs(loss, ListMeasure("AgP", 0, DocMeasure("aveChP"))))
    other = mini_loss("F")  # the same articles, other scores
    costs = article_costs(other, ListMeasure("AgP", 0, DocMeasure("F", 0, 0.25)))
    changed = []
    model.dataChanged.connect(lambda a, b, roles: changed.append((a.row(), a.column(), b.row(), b.column())))
    model.set_loss(other, ["A", "X", "B"], costs)
    assert len(changed) == 1
    assert model.costs is costs
    assert model.index(1, L_RANK_COST).data() == f"{costs.rank_cost[1]:+.4f}"
    assert model.index(0, L_LOSS).data() != "…"
    # costs of another split are not taken: their cells wait for set_costs
    model.set_loss(loss, ["A", "X", "B"], costs)
    assert model.costs is None and model.index(0, L_LOSS).data() == "…"



def test_a_long_update_of_the_loss_table_comes_in_ranges_of_its_number_columns(qtbot, monkeypatch):
    """The changed numbers are announced in ranges of at most ``CHANGED_CELLS`` cells of the
    number columns (Qt repaints the whole viewport for a range of about 200 cells or more), which
    together cover every changed row; a view of the model shows what a fresh render shows."""
    from PySide6.QtWidgets import QTableView

    from readsim.app.widgets import loss_table

    monkeypatch.setattr(loss_table, "CHANGED_CELLS", 2 * len(loss_table.NUMBER_COLUMNS))  # two rows a range
    loss = mini_loss()
    model = LossModel()
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.show()
    model.set_loss(loss, ["A", "X", "B"], article_costs(loss, ListMeasure("AgP", 0, DocMeasure("aveChP"))))
    QApplication.processEvents()
    other = mini_loss("F")
    changed = []
    model.dataChanged.connect(lambda a, b, roles: changed.append((a.row(), a.column(), b.row(), b.column())))
    model.set_loss(other, ["A", "X", "B"], article_costs(other, ListMeasure("AgP", 0, DocMeasure("F", 0, 0.25))))
    first, last = loss_table.NUMBER_COLUMNS[0], loss_table.NUMBER_COLUMNS[-1]
    assert changed and all(c0 == first and c1 == last and r1 - r0 < 2 for r0, c0, r1, c1 in changed)
    rows = sorted(r for r0, _, r1, _ in changed for r in range(r0, r1 + 1))
    assert rows == list(range(rows[0], rows[-1] + 1))  # one run of rows, none twice
    for _ in range(3):
        QApplication.processEvents()
    assert np.array_equal(shown(view), pixels(view.grab().toImage()))


def test_the_loss_table_sorts_itself_and_its_selection_follows(qtbot):
    """No sort proxy: the model orders its rows (ties keep their order), re-sorts when the
    costs come, and the selected row stays on its article."""
    loss = mini_loss()
    model = LossModel()
    table = row_table(model)
    qtbot.addWidget(table)
    table.setSortingEnabled(True)
    model.set_loss(loss, ["A", "X", "B"])
    table.sortByColumn(L_RANK, Qt.SortOrder.AscendingOrder)
    table.sortByColumn(L_LOSS, Qt.SortOrder.DescendingOrder)

    def shown() -> list[str]:
        return [model.index(r, L_RANK).data(LOSS_ARTICLE_ROLE) for r in range(model.rowCount())]

    assert shown() == ["a", "x", "b"]  # no costs yet: all tie at 0 and keep their order (as a sort proxy)
    table.selectRow(1)
    model.set_costs(article_costs(loss, ListMeasure("AgP", 0, DocMeasure("aveChP"))))
    browse, _ = by_hand(loss.scores[0], loss.scores[2])  # a 0.2896, x 0, b 0.0522
    assert browse[0] > browse[2] > browse[1] == 0
    assert shown() == ["a", "b", "x"]
    assert [i.data(LOSS_ARTICLE_ROLE) for i in table.selectionModel().selectedRows()] == ["x"]
    assert model.index(0, L_LOSS).data() == f"{browse[0]:+.4f}" and model.view_row(1) == 2
    table.sortByColumn(L_LOSS, Qt.SortOrder.AscendingOrder)
    assert shown() == ["x", "b", "a"]


@pytest.mark.parametrize("narrow, wide", [("0.0113 as is", "0.0486 (+0.0372 fetch)")])
def test_a_fixed_rich_label_grows_to_fit_a_wider_text(qtbot, narrow, wide):
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.RichText)
    qtbot.addWidget(label)
    for plain in (narrow, wide, narrow):
        number, note = plain.split(" ", 1)
        fit_rich(label, f"<b>{number}</b> <span style='color:#555'>{note}</span>", plain)
        assert label.minimumSize() == label.maximumSize()  # fixed: no re-layout of its parents
        assert label.width() >= label.sizeHint().width() and label.height() >= label.sizeHint().height()
    bold = label.font()
    bold.setBold(True)
    assert label.width() >= QFontMetrics(bold).horizontalAdvance(wide)  # grew for the wide text, kept


class _Paints(QObject):
    """Counts the paint events each widget receives while installed on the application."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: Counter = Counter()

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.counts[obj] += 1
        return False


def test_a_mode_change_paints_the_text_and_its_gutter_once(window, qtbot):
    """A mode change that scrolls the article view paints its (opaque) viewport once: the explain
    layer over it, without spans, is hidden (shown, its update repainted the viewport a second
    time under it), and the gutter follows the scroll in the same repaint (asked from the
    text's paint, it took a repaint of its own)."""
    w = window(PAGERANK)
    view = w.article.view
    overlay = w.findChild(SpanOverlay)
    assert overlay.isHidden() and overlay.spans == []
    app = QApplication.instance()
    scrolled = 0
    for mode in (Mode.WORST, Mode.BEST, Mode.DOCUMENT, Mode.NATURAL, Mode.WORST):
        paints = _Paints()
        app.installEventFilter(paints)
        try:
            top = view.verticalScrollBar().value()
            set_mode(w, mode)
            for _ in range(3):
                QApplication.processEvents()
        finally:
            app.removeEventFilter(paints)
        scrolled += view.verticalScrollBar().value() != top
        assert paints.counts[view.viewport()] <= 1 and paints.counts[view._gutter] <= 1
        assert np.array_equal(shown(w), pixels(w.grab().toImage()))
    assert scrolled, "no mode change scrolled the view"


def test_the_explain_layer_stays_over_the_viewport_when_the_text_scrolls(window, qtbot):
    """The viewport's scroll moves its children with its pixels: the layer is put back over the
    viewport, so its boxes stay on the characters they mark; it shows only with spans."""
    w = window(PAGERANK)
    view = w.article.view
    overlay = w.findChild(SpanOverlay)
    lo, hi = view.visible_range()
    overlay.set_spans([(lo + 10, lo + 200)])
    assert overlay.isVisible()
    bar = view.verticalScrollBar()
    for value in (bar.value() + 150, bar.value() + 5000, bar.value()):  # back where the spans are
        bar.setValue(value)
        for _ in range(3):
            QApplication.processEvents()
        assert overlay.geometry() == view.viewport().rect()
        assert np.array_equal(shown(w), pixels(w.grab().toImage()))
    assert overlay.rects() and all(view.viewport().rect().intersects(r) for r in overlay.rects())
    overlay.set_spans([])
    assert overlay.isHidden()


def test_a_mode_change_sets_no_plot_range_the_plot_shows_already(window, monkeypatch):
    """The plots' x (and fixed y) ranges are set only when they differ from the shown ones:
    pyqtgraph's ``setRange`` updates the view even for the same range. The ranges are those
    ``setXRange``/``setYRange`` set; the explain chooser keeps its items when their names stay."""
    import pyqtgraph as pg

    w = window(PAGERANK)
    modes = (Mode.WORST, Mode.BEST, Mode.DOCUMENT, Mode.NATURAL)
    for mode in modes:
        set_mode(w, mode)
    plots = [w.plot.plot.getPlotItem(), w.topic_view.curves.gp_plot.getPlotItem(),
             w.topic_view.curves.nce_plot.getPlotItem()]
    ranges = [p.getViewBox().targetRange() for p in plots]
    n = w.session.current.evaluation.n
    assert ranges[0][0] == [-0.01 * n, n + 0.01 * n]
    assert ranges[1][1][0] == 0.0 and ranges[1][1][1] > 1.0  # room above gP and gR (plot_room)
    calls, refills = [], []
    monkeypatch.setattr(pg.ViewBox, "setRange", lambda self, *a, **k: calls.append(a))
    monkeypatch.setattr(w.explain, "_fill_chooser", refills.append)
    for mode in modes:
        set_mode(w, mode)
        QApplication.processEvents()
    assert calls == [] and refills == []
    assert [p.getViewBox().targetRange() for p in plots] == ranges
    w.controls.screen.setValue(2000)  # LE(300) -> LE(2000): renamed
    assert refills


def test_a_mode_change_frames_the_screen_and_the_counters_once(window, monkeypatch):
    """A mode change asks the article pane (evaluation, settings, step, position) and the
    playback bar (evaluation, settings, position) several times for one state: each shows it
    once, and what they show is what showing it anew shows."""
    w = window(PAGERANK)
    panel, bar_widget = w.article, w.findChild(PlaybackBar)
    reads, ranges = [], []
    monkeypatch.setattr(panel.view, "set_read", lambda *a, f=panel.view.set_read: (reads.append(a), f(*a)))
    slider = bar_widget.slider
    monkeypatch.setattr(slider, "setRange", lambda *a, f=slider.setRange: (ranges.append(a), f(*a)))
    for mode in (Mode.WORST, Mode.BEST, Mode.DOCUMENT, Mode.NATURAL):
        reads.clear()
        ranges.clear()
        set_mode(w, mode)
        assert len(reads) == 1 and len(ranges) <= 1  # none: the same counters as the mode before
        shown_pane = (panel.position.text(), panel.reading_label.text(), panel.view.window_spans())
        texts = bar_widget.shown()
        panel._shown_state = None
        panel.update_window(scroll=False)
        bar_widget._state = None
        bar_widget.refresh()
        assert (panel.position.text(), panel.reading_label.text(), panel.view.window_spans()) == shown_pane
        assert bar_widget.shown() == texts



def test_a_wrapped_label_keeps_the_heights_of_its_texts(qtbot):
    """A word-wrapped label cycling through texts (a mode change's header) lays each text out
    once at a width; its fixed height is the one measuring anew gives."""
    label = rich_label()
    label.setWordWrap(True)
    qtbot.addWidget(label)
    asked = []
    measure = label.heightForWidth
    label.heightForWidth = lambda width: (asked.append(label.text()), measure(width))[1]
    texts = ["<b>Topic 1</b> natural reading", "<b>Topic 1</b> worst reading " + "long words " * 20,
             "<b>Topic 1</b> natural reading", "<b>Topic 1</b> worst reading " + "long words " * 20]
    for text in texts:
        set_wrapped(label, text, 240)
        assert label.text() == text and label.width() == 240 and label.height() == measure(240)
        assert label.minimumSize() == label.maximumSize()
    assert asked == texts[:2]
    set_wrapped(label, texts[0], 120)  # another width: measured
    assert asked[-1] == texts[0] and label.height() == measure(120)
