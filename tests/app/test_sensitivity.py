"""The Sensitivity dock (View ▸ Sensitivity, Ctrl+Alt+W): the open article's curves against the
swept setting, equal at every value to the measure's plain value; the current value marked; a
click sets the setting; the topic curve arrives from a worker, equal to the engine's evaluation
of the topic at its values; a newer sweep makes an older one obsolete; exports write files. On
the real data (topic 2009074, article PageRank 23724) and on the shipped sample."""

from __future__ import annotations

import csv
import math
import warnings

import pytest
from PySide6.QtCore import QPointF, Qt

from readsim.operations.article_reading import panel_measures
from readsim.app import export
from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session
from readsim.app.widgets.sensitivity import SWEEPS
from readsim.app.widgets.topic_view import DEFAULT_DOC
from readsim.core.collection import Collection
from readsim.core.formats import Run
from readsim.core.listmeasures import evaluate
from readsim.core.parameter_sweep import parameters_of, with_parameter

TOPIC = "2009074"
PAGERANK = "23724"


@pytest.fixture
def shared_window(real_window_shared, shared_real_window, qtbot):
    """The module's one window (``real_window_shared``) as a fresh window shows it: besides the
    reader's settings and the article, the topic view on its default document measure and the
    Sensitivity dock hidden, sweeping what a fresh window's dock sweeps first (the screen size; put
    back after each test). The dock computes a topic curve again only when what it depends on
    changed: the test that checks that the first showing computes one takes a window of its own."""
    yield lambda article: real_window_shared(article)
    w = shared_real_window
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
    w.sensitivity_dock.hide()
    w.sensitivity.set_sweep(SWEEPS[0].setting)
    w.topic_view.set_doc_kind(DEFAULT_DOC)
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


def shown(window, qtbot, setting: str = "screen"):
    """Show the dock sweeping ``setting``; wait for its curves and its topic curve."""
    window.act_sensitivity.trigger()
    panel = window.sensitivity
    panel.set_sweep(setting)
    qtbot.waitUntil(lambda: panel.isVisible() and panel.curves and panel.topic_curve is not None
                    and not panel.busy() and activity().count == 0, timeout=20_000)
    return panel


def assert_curves_are_plain_values(panel, session) -> None:
    ev, st = session.current.evaluation, session.settings
    assert panel.curves
    for m, ys in panel.curves.items():
        p = next(q for q in panel.sweep.parameters if q in parameters_of(m))
        for v, y in list(zip(panel.values, ys.tolist()))[::17]:
            assert y == pytest.approx(with_parameter(m, p, v).value(ev, st.levels), abs=1e-12), (m.name, v)
        assert list(panel.plots.lines[m.name].getData()[1]) == ys.tolist()  # what is drawn


def test_curves_present_current_value_marked_click_sets_it(shared_window, qtbot):
    window = shared_window(PAGERANK)
    s = window.session
    panel = shown(window, qtbot, "screen")
    # the screen size drives ChP@k, ChR@k (k = the screen), LE(s) and ES(s); nothing else
    assert sorted(m.name for m in panel.curves) == ["ChP@300", "ChR@300", "ES(300)", "LE(300)"]
    assert panel.plots.efforts.isVisible()
    assert_curves_are_plain_values(panel, s)
    assert panel.values[0] == 50 and panel.values[-1] == 20_000
    assert [m.value() for m in panel.plots.marks] == [pytest.approx(math.log10(300))] * 3
    # a click at 2,000 on the article plot sets the screen there (to the pixel's precision)
    plot = panel.plots.article
    vb = plot.getPlotItem().getViewBox()
    scene = vb.mapViewToScene(QPointF(math.log10(2000), 0.5))
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=plot.mapFromScene(scene))
    qtbot.waitUntil(lambda: s.settings.screen != 300, timeout=5_000)
    assert s.settings.screen == pytest.approx(2000, rel=0.02)
    assert panel.plots.marks[0].value() == pytest.approx(math.log10(s.settings.screen))
    legend = [label.text for _, label in panel.plots.legend.items]
    assert legend == ["ChP@s", "ChR@s"]  # named by the parameter, not by the value the curves were drawn at


def test_topic_curve_equals_the_engine_evaluation_of_the_topic(shared_window, real, qtbot):
    window = shared_window(PAGERANK)
    window.topic_view.set_doc_kind("T2IF")
    panel = shown(window, qtbot, "tolerance")
    assert sorted(m.name for m in panel.curves) == ["T2IF(300)", "T2IP(300)", "T2IR(300)"]
    assert not panel.plots.efforts.isVisible()
    assert panel.topic_list.name == "AgP/T2IF(300)" and len(panel.topic_values) == 50
    one = Run(real["run"].path, real["run"].run_id, {TOPIC: real["run"].topics[TOPIC]})
    collection = Collection(real["collection"])
    for k in (0, 20, 35, 49):
        m = with_parameter(panel.topic_list, "t", panel.topic_values[k])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = evaluate(real["qrels"], one, [m], collection=collection).values[m.name][TOPIC]
        assert panel.topic_curve[k] == pytest.approx(want, abs=1e-12), m.name
    assert list(panel.plots.topic_line.getData()[1]) == panel.topic_curve.tolist()
    # at the current tolerance the curve passes through the topic view's AgP/T2IF(300)
    window.session.set_settings(tolerance=panel.topic_values[30])
    qtbot.waitUntil(lambda: f"AgP/T2IF({panel.topic_values[30]})" in window.topic_view.values(), timeout=5_000)
    assert window.topic_view.values()[f"AgP/T2IF({panel.topic_values[30]})"] == pytest.approx(
        panel.topic_curve[30], abs=1e-12)


def test_a_newer_sweep_makes_the_older_obsolete(shared_window, qtbot):
    window = shared_window(PAGERANK)
    window.topic_view.set_doc_kind("F")
    window.act_sensitivity.trigger()
    panel = window.sensitivity
    panel.set_sweep("tolerance")  # F(beta) has no t: a flat topic curve, soon replaced
    first = panel._job
    panel.set_sweep("beta")
    assert first is not None and first.cancelled and panel._job is not first  # the worker stops at its next step
    qtbot.waitUntil(lambda: panel.topic_curve is not None and not panel.busy() and activity().count == 0,
                    timeout=20_000)
    assert panel.topic_list.name == "AgP/F(0.25)" and panel.topic_values[0] == 0.01
    assert [m.name for m in panel.curves] == ["F(0.25)"]
    # the sweep of beta moves the score: beta 0.01 (about precision) and 10 (about recall) differ
    assert panel.topic_curve[0] != panel.topic_curve[-1]
    assert not panel.progress.isVisible()


def test_exports_write_files(shared_window, qtbot, tmp_path, monkeypatch):
    window = shared_window(PAGERANK)
    panel = shown(window, qtbot, "screen")
    targets = iter([tmp_path / "a.png", tmp_path / "t.svg", tmp_path / "c.csv"])
    monkeypatch.setattr(export, "_ask", lambda *a: str(next(targets)))
    actions = {a.text(): a for a in panel.export_menu.actions()}
    actions["Article plot as PNG/SVG…"].trigger()
    actions["Topic plot as PNG/SVG…"].trigger()
    actions["Curves as CSV/JSON…"].trigger()
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "t.svg").read_bytes()
    text = (tmp_path / "c.csv").read_text()
    assert "# sweep.setting: screen" in text and "# topic: 2009074" in text
    rows = list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))
    assert len(rows) == 4 * len(panel.values) + 50
    first = rows[0]
    assert first["curve"] == "article" and first["measure"] == "ChP@50" and first["parameter_value"] == "50"
    assert float(first["value"]) == panel.curves[panel_measures(window.session.settings)[1]][0]
    assert rows[-1]["curve"] == "topic" and rows[-1]["parameter_value"] == "20000"
    assert window.errors_shown == []


def test_sample_beta_sweep(qtbot):
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()
    session.open_sample()
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None and session.rows_ready(),
                    timeout=20_000)
    window.topic_view.set_doc_kind("F")
    panel = shown(window, qtbot, "beta")
    assert [m.name for m in panel.curves] == ["F(0.25)"]
    assert_curves_are_plain_values(panel, session)
    assert panel.topic_list.name == "AgP/F(0.25)"
    assert "not moved by it: aveChP" in panel.status.text()


def test_ids_from_the_input_are_shown_as_written(qtbot):
    """An article or topic id is plain text in the plots' titles (pyqtgraph draws them as HTML)."""
    from readsim.app.widgets.sensitivity import SWEEPS
    from readsim.app.widgets.sensitivity_plot import SweepPlots

    plots = SweepPlots(lambda value: None)
    qtbot.addWidget(plots)
    plots.show_article(SWEEPS[0], "screen size s (bytes)", SWEEPS[0].values(), {}, "<b>x</b>")
    plots.show_topic([], None, None, "topic <i>t</i>: evaluating…")
    assert plots.article.getPlotItem().titleLabel.text == "article &lt;b&gt;x&lt;/b&gt;"
    assert plots.topic.getPlotItem().titleLabel.text == "topic &lt;i&gt;t&lt;/i&gt;: evaluating…"


def test_the_swept_setting_is_remembered(qtbot):
    from readsim.app.widgets.sensitivity import SensitivityPanel

    first = SensitivityPanel(Session())
    qtbot.addWidget(first)
    assert first.sweep.setting == "screen"  # fresh settings: the first sweep
    first.set_sweep("beta")
    second = SensitivityPanel(Session())
    qtbot.addWidget(second)
    assert second.sweep.setting == "beta" and second.combo.currentData() == "beta"
    assert second.values[0] == 0.01 and second.values[-1] == 10


# a window of its own: the first showing of its dock computes the topic curve (a shared window's
# dock may hold that curve already)
def test_a_topic_curve_that_arrives_while_hidden_is_drawn(real_window, qtbot):
    window = real_window(PAGERANK)
    window.act_sensitivity.trigger()
    panel = window.sensitivity
    assert panel.busy()  # the topic curve is being computed
    window.act_sensitivity.trigger()  # hidden before it arrives
    qtbot.waitUntil(lambda: not panel.busy() and activity().count == 0, timeout=20_000)
    assert not panel.isVisible() and panel.topic_curve is not None
    window.act_sensitivity.trigger()
    qtbot.waitUntil(panel.isVisible, timeout=5_000)
    assert not panel.busy()  # nothing changed: not computed again
    assert list(panel.plots.topic_line.getData()[1]) == panel.topic_curve.tolist()


@pytest.mark.filterwarnings("ignore::readsim.InputWarning")  # the real run's overlapping passages
def test_the_article_curve_is_readsim_articles_and_readsim_sweeps(shared_window, real, qtbot):
    """The dock's article curve (``readsim.core.parameter_sweep.article_sweep``) at a few
    tolerances equals ``readsim.article(..., tolerance=t).scores`` and ``readsim.sweep(...,
    per="article")`` for PageRank of the real run, to 1e-12."""
    import readsim

    window = shared_window(PAGERANK)
    panel = shown(window, qtbot, "tolerance")
    inex = real["paths"]
    qrels, run = inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "bert-passages.run"
    picked = [panel.values[k] for k in (0, 57, 140, len(panel.values) - 1)]
    one = Run(real["run"].path, real["run"].run_id, {TOPIC: real["run"].topics[TOPIC]})
    frame = readsim.sweep(qrels, one, ["T2IP(300)", "T2IR(300)", "T2IF(300)"],
                          vary="t=" + ",".join(str(v) for v in picked), per="article", collection=real["collection"])
    frame = frame[frame["article"] == PAGERANK]
    swept = {(m, v): x for m, v, x in zip(frame["measure"], frame["parameter_value"], frame["value"])}
    assert sorted(m.name for m in panel.curves) == ["T2IF(300)", "T2IP(300)", "T2IR(300)"]
    for v in picked:
        a = readsim.article(qrels, run, topic=TOPIC, article=PAGERANK, collection=real["collection"], tolerance=v)
        for m, ys in panel.curves.items():
            y = ys[panel.values.index(v)]
            name = with_parameter(m, "t", v).name
            assert y == pytest.approx(a.scores[name], rel=0, abs=1e-12), name
            assert y == pytest.approx(swept[(name, float(v))], rel=0, abs=1e-12), name
    assert len({round(float(x), 9) for x in panel.curves[panel_measures(window.session.settings)[5]]}) > 1
