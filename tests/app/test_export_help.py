"""Export (PNG, SVG, CSV, JSON) and help (F1, shortcuts) on the real data, acting as a user: on
one window for the module (``real_window_shared``), but the test that resizes it, on its own."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from readsim.operations.article_reading import panel_measures
from readsim.app import export
from readsim.app.help import MEASURE_NAMES, MODES

ARTICLE = "23724"  # PageRank, topic 2009074: 4,164 relevant bytes inside 25,686 retrieved


def shown_text(measure, value: float) -> str:
    return str(int(value)) if measure.kind in ("LE", "ES") else f"{value:.4f}"


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_export_article_and_plot_pictures(real_window_shared, tmp_path, suffix):
    w = real_window_shared(ARTICLE)
    art = export.export_article(w, tmp_path / f"article{suffix}")
    plot = export.export_precision_plot(w, tmp_path / f"plot{suffix}")
    for path in (art, plot):
        data = path.read_bytes()
        assert len(data) > 1000
        if suffix == ".png":
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
        else:
            root = ET.fromstring(data)
            assert root.tag.endswith("svg")
    if suffix == ".svg":  # the article's words are in the drawing, as text
        assert "PageRank" in art.read_text(encoding="utf-8")
    assert [name for name, _ in export.plots(w)][0] == "Precision plot"


def test_plot_menu_lists_both_curve_plots_of_a_narrow_topic_dock(real_window, qtbot):
    """On a narrow topic dock the curve plots show one at a time (tabs): the one behind is still
    offered for export."""
    w = real_window(ARTICLE)
    w.resize(1200, 760)
    w.topic_dock.show()
    curves = w.topic_view.curves
    qtbot.waitUntil(lambda: not curves.side_by_side() and not curves.nce_plot.isVisible())
    names = [name for name, _ in export.plots(w)]
    assert names[0] == "Precision plot"
    assert any(n.startswith("gP[r]") for n in names) and any(n.startswith("NCE[r]") for n in names), names


def test_export_scores_equal_the_shown_scores(real_window_shared, tmp_path):
    w = real_window_shared(ARTICLE)
    s = w.session
    s.set_settings(mode="worst", tolerance=500, beta=1.0)
    shown = w.scores.shown()
    measures = panel_measures(s.settings)

    path = export.export_scores(w, tmp_path / "scores.csv")
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [r["measure"] for r in rows] == [m.name for m in measures]
    for m, r in zip(measures, rows):
        assert shown_text(m, float(r["value"])) == shown[m.name]
        assert (r["topic"], r["article"], r["run"], r["mode"]) == ("2009074", ARTICLE, "TREC2INEX", "worst")
        assert (r["screen"], r["tolerance"], r["beta"]) == ("300", "500", "1.0")
    assert float(rows[[m.name for m in measures].index("P_set")]["value"]) == pytest.approx(4164 / 25686)

    data = json.loads(export.export_scores(w, tmp_path / "scores.json").read_text(encoding="utf-8"))
    assert data["topic"] == "2009074" and data["article"] == ARTICLE and data["mode"] == "worst"
    assert data["tolerance"] == 500 and data["beta"] == 1.0 and data["screen"] == 300
    assert {k: shown_text(m, data["scores"][k]) for m in measures for k in [m.name]} == shown

    with pytest.raises(ValueError):
        export.export_scores(w, tmp_path / "scores.txt")


def test_export_ranked_list(real_window_shared, real, tmp_path):
    w = real_window_shared(ARTICLE)
    shown = w.scores.shown()
    measures = panel_measures(w.session.settings)
    order = [e.article for e in real["run"].topics["2009074"]]

    rows = list(csv.DictReader(export.export_ranked_list(w, tmp_path / "ranked.csv").open(encoding="utf-8")))
    assert [r["article"] for r in rows] == order
    assert [int(r["rank"]) for r in rows] == list(range(1, len(order) + 1))
    mine = rows[order.index(ARTICLE)]
    assert mine["title"] == "PageRank" and mine["relevant"] == "1" and mine["rank"] == "10"
    assert {m.name: shown_text(m, float(mine[m.name])) for m in measures} == shown

    data = json.loads(export.export_ranked_list(w, tmp_path / "ranked.json").read_text(encoding="utf-8"))
    assert [a["article"] for a in data["articles"]] == order and data["topic"] == "2009074"
    assert {m.name: shown_text(m, data["articles"][9][m.name]) for m in measures} == shown


def test_export_menu(real_window_shared):
    w = real_window_shared(ARTICLE)
    file_menu = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "File")
    sub = next(a.menu() for a in file_menu.actions() if a.menu() is not None and a.menu().title() == "&Export")
    sub.aboutToShow.emit()
    texts = [a.text() for a in sub.actions()]
    assert "Article view as PNG/SVG…" in texts and "Precision plot as PNG/SVG…" in texts
    assert "Article scores as CSV/JSON…" in texts and "Ranked list with scores as CSV/JSON…" in texts
    assert w.act_export_scores.shortcut() == QKeySequence("Ctrl+E")


def test_f1_opens_the_measures_explained(real_window_shared, qtbot):
    w = real_window_shared(ARTICLE)
    w.activateWindow()
    qtbot.waitUntil(lambda: w.isActiveWindow())
    qtbot.keyClick(w, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: getattr(w, "measures_help", None) is not None and w.measures_help.isVisible())
    text = w.measures_help.browser.toPlainText()
    for name in MEASURE_NAMES + MODES + ("matching chain", "Arvola", "Kamps"):
        assert name.lower() in text.lower(), name
    # formulas as in docs/reference.md sections 4 and 5
    for formula in ("aveChP = (1/NRC)", "T2IF", "(1+α²)·P·R / (α²·P + R)", "AgP = Σ", "ANCE[i] = Σ", "ES(d) = LE(d)"):
        assert formula in text, formula


def test_shortcuts_list_is_the_actions(real_window_shared, qtbot):
    w = real_window_shared(ARTICLE)
    w.act_help_shortcuts.trigger()
    qtbot.waitUntil(lambda: w.shortcuts_help.isVisible())
    text = w.shortcuts_help.browser.toPlainText()
    seen = {}
    for a in w.findChildren(type(w.act_help_shortcuts)):
        for k in a.shortcuts():
            name = k.toString(QKeySequence.SequenceFormat.NativeText)
            assert name in text, (a.text(), name)
            # no two actions share a key
            assert seen.setdefault(name, a.text()) == a.text(), (name, seen[name], a.text())
    for expected in ("F1", "Ctrl+E", "Ctrl+Shift+B", "Ctrl+M", "Ctrl+O"):
        assert expected in seen
