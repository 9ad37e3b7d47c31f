"""The element mode (reference section 13) on the real INEX data, acting as a user: open it from the
View menu, switch between the simulated perfect and ancestors runs, click ranked elements and
brackets, open element runs from files, read the outline's element assessments.

Expected values come from the engine, computed here independently of the window
(:func:`element_assessments`, :func:`simulated_ranking`, :func:`rank_values`,
:func:`topic_curves`, :func:`seen_before`) on topic 2009074, whose 15 relevant articles are all
in the shipped collection (a complete topic). One value is worked by hand: the image caption
``[157, 865)`` of PageRank (23724) holds 706 of the article's 4,164 highlighted bytes, so
rsize 706, e = 1 (706 / 4164 <= 1/3), s = 3 (706 / 708 > 2/3).
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

from readsim.app.background import activity
from readsim.app.elements_model import COMBOS
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from readsim.app.widgets.elements_table import ARTICLE, E, F_GEN, F_STRICT, OVERLAP, RANK, SIZE, UNSEEN, XPATH, S
from readsim.app.widgets.entries import ELEMENTS_TEXT as ACTION_TEXT
from readsim.app.widgets.outline import LENGTH, RSIZE
from readsim.app.widgets.outline import E as OUTLINE_E
from readsim.app.widgets.outline import S as OUTLINE_S
from readsim.core import intervals as iv
from readsim.core.collection import Collection
from readsim.core.element_retrieval import (element_assessments, rank_values, read_element_run, seen_before,
                                     simulated_ranking, topic_curves)
from readsim.core.element_retrieval.tree import element_tree

TOPIC = "2009074"
PAGERANK = "23724"
CAPTION = (157, 865)


@pytest.fixture(scope="module")
def engine(real):
    """The engine's view of topic 2009074: collection, assessments, both simulated runs."""
    coll = Collection(real["collection"])
    ta = element_assessments(real["qrels"], coll, TOPIC)
    assert ta.complete
    return coll, ta, {name: simulated_ranking(name, ta) for name in ("perfect", "ancestors")}


def idle(qtbot, cond=lambda: True, timeout=30_000) -> None:
    qtbot.waitUntil(lambda: activity().count == 0 and cond(), timeout=timeout)


def open_elements(window, qtbot):
    """View ▸ Element retrieval, as a user; wait until a topic and an article are shown."""
    view = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "View")
    next(a for a in view.actions() if a.text() == ACTION_TEXT).trigger()
    panel = window.elements
    idle(qtbot, lambda: window.elements_dock.isVisible() and panel.topic_view is not None
         and panel.view.layout_ is not None)
    return panel


def shown_article(panel) -> str | None:
    lay = panel.view.layout_
    return lay.article.name if lay is not None else None


def switch_to_ancestors(panel, qtbot) -> None:
    """Down arrow in the run chooser: perfect -> ancestors."""
    assert panel.run_combo.currentData() == "perfect"
    panel.run_combo.setFocus()
    qtbot.keyClick(panel.run_combo, Qt.Key.Key_Down)
    assert panel.run_combo.currentData() == "ancestors"
    idle(qtbot)


def click_row(panel, qtbot, row: int) -> None:
    idx = panel.model.index(row, XPATH)
    panel.table.scrollTo(idx)
    qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=panel.table.visualRect(idx).center())


def assert_table(panel, ta, entries) -> None:
    m = panel.model
    v = rank_values(ta, entries)
    fs, fg = v.f("strict"), v.f("gen")
    assert m.rowCount() == len(entries)
    for k, r in enumerate(entries):
        shown = [m.data(m.index(k, c)) for c in (RANK, ARTICLE, XPATH, E, S, F_STRICT, F_GEN, SIZE, UNSEEN)]
        assert shown == [str(r.rank), r.article, r.xpath, str(v.e[k]), str(v.s[k]), f"{fs[k]:.2f}", f"{fg[k]:.2f}",
                         f"{v.size[k]:,}", f"{v.unseen[k]:,}"], k
        assert (m.data(m.index(k, OVERLAP)) == "—") == (v.unseen[k] == v.size[k])


def assert_grid(panel, ta, entries) -> dict:
    curves = topic_curves(ta, entries)
    values, shown = panel.grid.values(), panel.grid.shown()
    for key in COMBOS:
        assert values[key] == pytest.approx(curves[key].ap, abs=1e-12), key
        assert shown[key] == f"{curves[key].ap:.4f}", key
    return {key: curves[key].ap for key in COMBOS}


def test_ranked_elements_and_scores_equal_the_engine(real_window, engine, qtbot):
    w = real_window(PAGERANK)
    panel = open_elements(w, qtbot)
    coll, ta, runs = engine
    assert panel.topic_combo.currentData() == TOPIC and "complete" in panel.topic_combo.currentText()
    assert_table(panel, ta, runs["perfect"])
    perfect = assert_grid(panel, ta, runs["perfect"])
    switch_to_ancestors(panel, qtbot)
    assert_table(panel, ta, runs["ancestors"])
    ancestors = assert_grid(panel, ta, runs["ancestors"])
    # the overlap effect, as the engine computes it on this topic: adding the ancestors raises
    # INEX 2002 gen (0.5000 -> 0.6093) and leaves strict alone (the ancestors score 0 there)
    assert ancestors[("2002", "gen")] > perfect[("2002", "gen")]
    assert ancestors[("2002", "strict")] == pytest.approx(perfect[("2002", "strict")])
    delta = ancestors[("2002", "gen")] - perfect[("2002", "gen")]
    assert f"Δ +{delta:.4f}" in panel.grid.cells[("2002", "gen")].text()
    # the plot shows the chosen cell's curve, the perfect run dashed for reference
    qtbot.mouseClick(panel.grid.cells[("2003o", "strict")], Qt.MouseButton.LeftButton)
    curves = panel.plot.curves()
    assert np.allclose(curves["run"][1], topic_curves(ta, runs["ancestors"])[("2003o", "strict")].precision)
    assert np.allclose(curves["reference"][1], topic_curves(ta, runs["perfect"])[("2003o", "strict")].precision)
    # back to perfect with the up arrow: everything at once
    qtbot.keyClick(panel.run_combo, Qt.Key.Key_Up)
    assert panel.run_combo.currentData() == "perfect"
    assert panel.grid.values() == pytest.approx(perfect)
    assert panel.model.rowCount() == len(runs["perfect"])


def test_brackets_nest_and_earlier_text_is_shaded(real_window, engine, qtbot):
    w = real_window(PAGERANK)
    panel = open_elements(w, qtbot)
    coll, ta, runs = engine
    tree = element_tree(coll.article(PAGERANK))

    def expected(entries):
        mine = [k for k, r in enumerate(entries) if r.article == PAGERANK]
        held = {entries[k].index for k in mine}
        return [(k, entries[k].start, entries[k].end, sum(a in held for a in tree.ancestors(entries[k].index)))
                for k in mine]

    def brackets():
        return [(b.position, b.start, b.end, b.level) for b in panel.view.brackets()]

    # perfect: click PageRank's first element in the table
    first = next(k for k, r in enumerate(runs["perfect"]) if r.article == PAGERANK)
    click_row(panel, qtbot, first)
    idle(qtbot, lambda: shown_article(panel) == PAGERANK)
    assert panel.view.selected() == first and panel.table.currentIndex().row() == first
    assert brackets() == expected(runs["perfect"])
    perfect_depth = max(b[3] for b in brackets())
    assert np.array_equal(panel.view.shaded(), seen_before(runs["perfect"], first))
    # ancestors: the same article stays, its brackets nest deeper (every ancestor is retrieved)
    switch_to_ancestors(panel, qtbot)
    entries = runs["ancestors"]
    assert shown_article(panel) == PAGERANK and panel.view.selected() == first  # perfect is the ancestors' prefix
    assert brackets() == expected(entries)
    assert max(b[3] for b in brackets()) > perfect_depth
    # an ancestor ranked last (a section of PageRank): the text shown before it is shaded (the article's
    # root, ranked before it in document order, showed all of it)
    k = max(k for k, r in enumerate(entries) if r.article == PAGERANK and r.xpath.endswith("/sec[3]"))
    click_row(panel, qtbot, k)
    idle(qtbot)
    assert panel.view.selected() == k
    shaded = panel.view.shaded()
    assert np.array_equal(shaded, seen_before(entries, k)) and len(shaded)
    r = entries[k]
    assert iv.total(iv.intersect(shaded, iv.as_array([(r.start, r.end)]))) == int(rank_values(ta, entries).seen[k])
    # what is drawn: the selected bracket, and the nearest retrieved element inside it one column right
    drawn = {g["position"]: g for g in panel.view.drawn()}
    assert drawn[k]["selected"]
    inner = next(j for j in range(len(entries)) if entries[j].article == PAGERANK
                 and tree.parent[entries[j].index] == entries[k].index and j in drawn)
    assert drawn[inner]["level"] == drawn[k]["level"] + 1 and drawn[inner]["x"] > drawn[k]["x"]
    assert drawn[k]["y1"] <= drawn[inner]["y1"] and drawn[inner]["y2"] <= drawn[k]["y2"]
    # clicking that bracket in the gutter selects its row and shades what came before it
    g = drawn[inner]
    qtbot.mouseClick(panel.view.gutter(), Qt.MouseButton.LeftButton, pos=QPoint(g["x"], (g["y1"] + g["y2"]) // 2))
    idle(qtbot)
    assert panel.view.selected() == inner and panel.table.currentIndex().row() == inner
    assert np.array_equal(panel.view.shaded(), seen_before(entries, inner))


def test_outline_shows_size_rsize_e_s(real_window, engine, qtbot):
    w = real_window(PAGERANK)
    coll, ta, runs = engine
    ui = w.editing
    ui.act_outline.trigger()
    outline = ui.outline
    idle(qtbot, lambda: len(outline.model.elements) > 0)
    model, a = outline.model, ta.articles[PAGERANK]
    assert not any(outline.tree.isColumnHidden(c) for c in (RSIZE, OUTLINE_E, OUTLINE_S))
    caption = next(i for i, e in enumerate(model.elements) if (e.start, e.end) == CAPTION and e.tag == "caption")
    assert model.assessment(caption) == (708, 706, 1, 3)  # by hand, see the module docstring
    for i in [caption, 0, *a.listed[:20].tolist()]:
        texts = [model.data(model.index_of(i, c)) for c in (LENGTH, RSIZE, OUTLINE_E, OUTLINE_S)]
        assert texts == [f"{a.tree.sizes[i]:,}", f"{a.rsize[i]:,}", str(a.e[i]), str(a.s[i])], i


def test_element_runs_from_files(real_window, engine, qtbot, tmp_path):
    w = real_window(PAGERANK)
    panel = open_elements(w, qtbot)
    coll, ta, runs = engine
    bad = tmp_path / "bad.run"
    bad.write_text(f"{TOPIC} Q0 {PAGERANK} 1 2.0 mine /article[1]\n"
                   f"{TOPIC} Q0 {PAGERANK} 2 1.0 mine /article[1]/nosuch[1]\n")
    panel.ask_run_path = lambda: str(bad)
    qtbot.mouseClick(panel.open_btn, Qt.MouseButton.LeftButton)
    idle(qtbot, lambda: bool(w.errors_shown))
    assert w.errors_shown[-1].startswith(f"{bad}:2: ") and "nosuch" in w.errors_shown[-1]
    assert f"{bad}:2" in panel.status.text() and "Traceback" not in panel.status.text()
    assert panel.run_combo.count() == 2  # nothing added
    tree = element_tree(coll.article(PAGERANK))
    body = tree.xpath(tree.tags.index("bdy"))  # under YAGO wrappers in the Wikipedia collection
    good = tmp_path / "mine.run"
    good.write_text(f"{TOPIC} Q0 {PAGERANK} 1 3.0 mine {body}\n"
                    f"{TOPIC} Q0 {PAGERANK} 2 2.0 mine /article[1]\n"
                    f"{TOPIC} Q0 15271 3 1.0 mine /article[1]\n")
    panel.ask_run_path = lambda: str(good)
    qtbot.mouseClick(panel.open_btn, Qt.MouseButton.LeftButton)
    idle(qtbot, lambda: panel.run_combo.currentData() == str(good))
    entries = read_element_run(good, coll).topics[TOPIC]
    assert_table(panel, ta, entries)
    assert_grid(panel, ta, entries)
    assert panel.model.data(panel.model.index(1, OVERLAP)) != "—"  # the root after its body: mostly seen
    idle(qtbot, lambda: shown_article(panel) == PAGERANK)
    assert [(b.position, b.level) for b in panel.view.brackets()] == [(0, 1), (1, 0)]


def test_plain_messages_for_missing_inputs(qtbot, real):
    session = Session()
    w = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    w.act_elements.trigger()
    panel = w.elements
    assert panel.stack.currentWidget() is panel.message and "No collection is open" in panel.message_text
    session.adopt(Loaded(qrels=real["qrels"]))
    idle(qtbot)
    assert "No collection is open" in panel.message_text
    session.adopt(Loaded(collection=Collection(real["collection"])))
    idle(qtbot, lambda: panel.topic_view is not None)
    assert panel.topic_view.topic == "2009067"  # no run, no topic in the window: the first complete topic
    # a topic none of whose relevant articles is in the collection
    i = panel.topic_combo.findData("2009001")
    panel.topic_combo.setCurrentIndex(i)
    panel.topic_combo.activated.emit(i)
    idle(qtbot, lambda: panel.topic_view is None)
    assert panel.stack.currentWidget() is panel.message
    assert "None of the 22 relevant articles of topic 2009001 is in the collection" in panel.message_text
    assert session.errors == []

