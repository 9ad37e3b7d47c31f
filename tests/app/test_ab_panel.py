"""The A/B view on real INEX data (topic 2009074), acting as a user: open it from the View menu,
switch the reading mode in the window's controls, open another article.

Expected numbers: the engine's ``batch.document`` computed here for each run, independently of
the window; a few are worked by hand from the qrels line of article 23724 (PageRank: 4,164
relevant bytes, all inside the 25,686 bytes both runs retrieve).
"""

from __future__ import annotations

import dataclasses

import pytest

from readsim.operations.article_reading import panel_measures, panel_scores
from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from helpers.one_article import document
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import Settings
from readsim.core.formats import Run, read_run
from readsim.core.reading import Mode

TOPIC = "2009074"
ARTICLE = "23724"  # PageRank: rank 10 in bert-passages, rank 1 in bert-passages-map19


@pytest.fixture(scope="module")
def map19(inex):
    return read_run(inex / "runs" / "bert-passages-map19.run")


def open_window(qtbot, real, runs, article=ARTICLE) -> MainWindow:
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()
    session.adopt(Loaded(collection=Collection(real["collection"]), qrels=real["qrels"], runs=list(runs),
                         topics=real["topics"]), TOPIC, article)
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and session.current.name == article, timeout=20_000)
    return window


def open_compare(qtbot, window) -> None:
    view = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "View")
    action = next(a for a in view.actions() if a.text() == "Compare runs (A/B)")
    action.trigger()
    qtbot.waitUntil(lambda: window.compare_dock.isVisible() and activity().count == 0, timeout=20_000)


def engine_scores(real, run, article, settings):
    entry = run.article(TOPIC, article)
    coll = Collection(real["collection"])
    return panel_scores(document(real["qrels"], run, TOPIC, entry, settings.mode, coll), settings)


def assert_table(window, real, run_a, run_b, article=ARTICLE):
    settings = window.session.settings
    a = engine_scores(real, run_a, article, settings)
    b = engine_scores(real, run_b, article, settings)
    rows = window.compare.rows()
    shown = window.compare.shown()
    for m in panel_measures(settings):
        row = rows[m.name]
        assert row.a == pytest.approx(a[m.name], abs=1e-12)
        assert row.b == pytest.approx(b[m.name], abs=1e-12)
        assert row.diff == pytest.approx(b[m.name] - a[m.name], abs=1e-12)
        text = (lambda v: str(int(v))) if m.kind in ("LE", "ES") else (lambda v: f"{v:.4f}")
        assert shown[m.name][:2] == (text(a[m.name]), text(b[m.name]))
    return a, b


def test_compare_two_real_runs(qtbot, real, map19):
    w = open_window(qtbot, real, [real["run"], map19])
    open_compare(qtbot, w)
    c = w.compare
    assert c.run("A") is w.session.runs[0] and c.run("B") is w.session.runs[1]
    a, b = assert_table(w, real, real["run"], map19)
    # worked by hand from the qrels and run lines: all 4,164 relevant bytes lie inside the
    # 25,686 retrieved bytes, in both runs
    assert a["R_set"] == b["R_set"] == 1.0
    assert a["P_set"] == pytest.approx(4164 / 25686)
    assert c.shown()["P_set"][2] == "0.0000"
    # the fetch phase: the article's rank in each run, lower is better
    rank = c.rows()["rank in the run"]
    assert (rank.a, rank.b) == (10, 1) and rank.diff == -9 and rank.better() == "B"
    assert "rank <b>10</b>" in c.view_a.header.text() and "rank <b>1</b>" in c.view_b.header.text()
    # both views show the article with the same marks (same passages)
    assert c.view_a.view.layout_ is w.session.current.layout is c.view_b.view.layout_
    assert c.view_a.view.marks().chain == c.view_b.view.marks().chain
    # AgP rows arrive from the background, with B - A
    qtbot.waitUntil(lambda: c.rows()["AgP/F(0.25)"].a is not None, timeout=20_000)
    agp = c.rows()["AgP/F(0.25)"]
    assert agp.diff == pytest.approx(agp.b - agp.a)

    # the user switches the reading mode in the window's controls: the table follows
    combo = w.controls.mode
    combo.setCurrentIndex(combo.findData("worst"))
    qtbot.waitUntil(lambda: c.mode.currentData() == "worst")
    assert w.session.settings.mode is Mode.WORST
    assert_table(w, real, real["run"], map19)
    # ... and a screen-size change (LE, ChP@s follow)
    w.controls.screen.setValue(2000)
    assert "ChP@2000" in c.rows() and "LE(2000)" in c.rows()
    assert_table(w, real, real["run"], map19)
    # the compare view's own mode combo drives the window
    c.mode.setCurrentIndex(c.mode.findData("document"))
    assert w.session.settings.mode is Mode.DOCUMENT and w.controls.mode.currentData() == "document"
    assert_table(w, real, real["run"], map19)

    # swapping A and B negates the difference column
    before = {k: r.diff for k, r in c.rows().items() if r.diff is not None}
    c.swap.click()
    assert c.run("A") is map19
    after = c.rows()
    for k, d in before.items():
        if k.startswith("AgP"):
            continue  # recomputed in the background
        assert after[k].diff == pytest.approx(-d, abs=1e-12)


def test_compare_follows_the_article(qtbot, real, map19):
    w = open_window(qtbot, real, [real["run"], map19])
    open_compare(qtbot, w)
    other = "12431"  # relevant, rank 13 and 11
    w.session.open_article(other)
    qtbot.waitUntil(lambda: w.session.current.name == other and activity().count == 0, timeout=20_000)
    assert other in w.compare.title.text()
    assert_table(w, real, real["run"], map19, other)
    assert w.compare.view_a.view.layout_ is w.session.current.layout


def whole_article_run(run: Run, keep: str, drop: str) -> Run:
    """Run B: the topic's ranking of ``run`` with ``keep`` retrieved whole and ``drop`` left out."""
    entries = []
    for e in run.topics[TOPIC]:
        if e.article == drop:
            continue
        entries.append(dataclasses.replace(e, passages=None) if e.article == keep else e)
    return Run(path="whole.run", run_id="whole", topics={TOPIC: entries})


def test_compare_passages_against_whole_article_and_a_missing_article(qtbot, real):
    run_b = whole_article_run(real["run"], ARTICLE, "12431")
    w = open_window(qtbot, real, [real["run"], run_b])
    open_compare(qtbot, w)
    c = w.compare
    a, b = assert_table(w, real, real["run"], run_b)
    # by hand from the qrels line: the whole article retrieves doc_length bytes, all of R
    j = real["qrels"].judgement(TOPIC, ARTICLE)
    p = j.rel_size / j.doc_length
    assert b["P_set"] == pytest.approx(p) and b["R_set"] == 1.0
    beta = Settings().beta
    assert b["F(0.25)"] == pytest.approx((1 + beta ** 2) * p / (beta ** 2 * p + 1))
    row = c.rows()["P_set"]
    assert row.diff == pytest.approx(p - 4164 / 25686) and row.better() == "A"
    assert c.shown()["P_set"][2].startswith("−")
    assert "better on" in c.summary.text()
    # B retrieves the whole article: one chain passage, the whole text
    assert len(c.view_b.view.marks().chain) == 1

    # an article run B does not rank: its column says so
    w.session.open_article("12431")
    qtbot.waitUntil(lambda: w.session.current.name == "12431" and activity().count == 0, timeout=20_000)
    rows = c.rows()
    assert rows["aveChP"].b is None and rows["aveChP"].a is not None and rows["aveChP"].diff is None
    assert c.shown()["aveChP"][1] == "not ranked" and c.shown()["aveChP"][2] == "—"
    assert "not ranked" in c.view_b.header.text()
    assert "does not rank" in c.summary.text()


def test_compare_dock_is_remembered(qtbot, real, map19):
    w = open_window(qtbot, real, [real["run"], map19])
    assert w.compare_dock.objectName() == "compare_runs"
    open_compare(qtbot, w)
    w.save_state()
    w2 = MainWindow(Session(), show_dialogs=False, restore=True)
    qtbot.addWidget(w2)
    w2.show()
    qtbot.waitUntil(lambda: w2.compare_dock.isVisible())
