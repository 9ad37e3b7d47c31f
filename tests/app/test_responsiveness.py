"""A reader-setting change recomputes only what it changes, with the same numbers as the engine.

- a screen or tolerance change re-derives no reading order (the session's rows stay the same
  objects) and a mode seen before comes back as the same rows, so every memo keyed by them hits;
- the topic view recomputes nothing for a setting its measure does not use, and its loss split
  (memoised :class:`~readsim.app.topic_scores.LossMemo`) equals the engine's for every mode and
  document measure;
- the ranked list announces (and so repaints) only the columns whose numbers changed, and its
  cells equal the engine's after any sequence of changes;
- the hidden outline dock does no work; it fills when shown;
- every change through the Reader controls shows the engine's scores once its events are
  processed, and no change freezes the GUI thread (``helpers.gui.Probe``: 1 s, 10x the 100 ms
  no-stall aim). How fast a change is shown is measured in bench/bench_gui.py, never asserted.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from helpers.gui import Probe
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from readsim.app.background import activity
from readsim.app.rows import MODES
from readsim.app.topic_scores import DOC_KINDS, LossMemo, doc_measure
from readsim.app.widgets.ranked_list import AVECHP, T2IF, T2IP, format_score, list_measures
from readsim.app.widgets.topic_view import DEFAULT_DOC
from readsim.app.articles import if_retrieved_whole
from readsim.core.costs import loss_split
from readsim.core.doc_evaluation import Settings
from readsim.core.reading import Mode

ARTICLE = "2212038"  # the largest real article (612 KB)
TOPIC_BIG = "2009036"  # judges it relevant


WINDOW_AT = (TOPIC_BIG, ARTICLE)  # the module's window (tests/app/conftest.py's module_window_at)


@pytest.fixture(scope="module")
def big_module_window(module_window_at):
    """One window for the module on topic 2009036, as tests/app/conftest.py's ``real_window``
    opens it (article 2212038); QSettings in a folder of its own until the first test's
    ``fresh_settings``; closed and deleted after the module's last test (as conftest's
    ``shared_real_window``)."""
    return module_window_at


@pytest.fixture
def real_window(request, qtbot):
    """As tests/app/conftest.py's ``real_window``, on a window per topic for the module: the tests
    here change only the reader's settings and the topic view's measure (put back as a fresh
    window has them before each test) and show the outline dock (hidden again after). Topic
    2009036 (``real_window(ARTICLE, TOPIC_BIG)``): :func:`big_module_window`; topic 2009074
    (``real_window()``): conftest's ``real_window_shared``."""
    shown = []

    def open_(article: str | None = None, topic: str = "2009074"):
        if topic != TOPIC_BIG:
            w = request.getfixturevalue("real_window_shared")(article)
        else:
            w = request.getfixturevalue("big_module_window")
            s = w.session
            qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
            s.set_settings(**{f.name: getattr(Settings(), f.name) for f in dataclasses.fields(Settings)})
            if s.current.name != article:
                s.open_article(article)
            qtbot.waitUntil(lambda: activity().count == 0 and s.current.name == article, timeout=20_000)
            s.set_step(0)
            w.article.view.verticalScrollBar().setValue(0)
        w.topic_view.set_doc_kind(DEFAULT_DOC)
        qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
        shown.append(w)
        return w

    yield open_
    for w in shown:
        qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
        w.editing.dock.hide()


def _avechp(session) -> str:
    """What the scores panel must show for aveChP (an unranked article: as if retrieved whole)."""
    cur = session.current
    ev = if_retrieved_whole(cur.evaluation) if cur.row is None else cur.evaluation
    return f"{ev.ave_chp():.4f}"


def _engine_cells(session) -> list[list[str]]:
    ms = list_measures(session.settings)
    return [[format_score(m, m.value(r.natural.in_mode(session.settings.mode), session.settings.levels)) for m in ms]
            for r in session.rows]


def _shown_cells(model) -> list[list[str]]:
    return [[model.data(model.index(i, c)) for c in range(AVECHP, AVECHP + 9)] for i in range(model.rowCount())]


def test_settings_recompute_only_what_changed(real_window, qtbot):
    w = real_window(ARTICLE, TOPIC_BIG)
    s, tv = w.session, w.topic_view
    tv.set_doc_kind("aveChP")
    rows, scores, computed = s.rows, tv.scores, tv.memo.computed
    s.set_settings(tolerance=100)
    s.set_settings(screen=2000)
    assert s.rows is rows  # no reading order re-derived
    assert tv.memo.computed == computed  # no ideal document read again
    assert tv.scores.values == scores.values and tv.scores.loss is scores.loss  # aveChP uses neither
    seen = {}
    for mode in (Mode.WORST, Mode.BEST, Mode.NATURAL, Mode.WORST, Mode.BEST):
        s.set_settings(mode=mode)
        if mode in seen:
            assert s.rows is seen[mode][0] and tv.scores is seen[mode][1]  # a mode seen before: memo
        seen[mode] = (s.rows, tv.scores)
        assert _shown_cells(w.model) == _engine_cells(s)
        assert w.scores.shown()["aveChP"] == _avechp(s)
    s.rows = list(s.rows)  # replaced by anyone else (an edit): the memo starts again
    s.set_settings(mode=Mode.NATURAL)
    assert s.rows is not seen[Mode.NATURAL][0]
    assert _shown_cells(w.model) == _engine_cells(s)


def test_loss_memo_equals_the_engine(real_window):
    w = real_window(ARTICLE, TOPIC_BIG)
    s = w.session
    judged = s.qrels.topics[TOPIC_BIG]
    memo = LossMemo()
    for mode in MODES:
        docs = [r.natural.in_mode(mode) for r in s.rows]
        articles = [r.article for r in s.rows]
        for kind in DOC_KINDS:
            m = doc_measure(kind, s.settings)
            for _ in range(2):  # computed, then from the memo
                got = memo.loss_split(m, judged, articles, docs, mode, s.settings.levels)
                want = loss_split(m, judged, articles, docs, mode, s.settings.levels)
                assert np.array_equal(got.ideal_scores, want.ideal_scores)
                assert np.array_equal(got.scores, want.scores) and got.missed == want.missed
                assert (got.actual, got.ideal, got.perfect) == (want.actual, want.ideal, want.perfect)


def test_ranked_list_announces_changed_columns_only(real_window, qtbot):
    w = real_window()
    s, model = w.session, w.model
    announced = []
    model.dataChanged.connect(lambda a, b, *_: announced.append((a.column(), b.column())))
    s.set_settings(tolerance=120)
    assert sorted(announced) == [(T2IF, T2IF), (T2IP, T2IP)]
    assert model.headerData(T2IF, Qt.Orientation.Horizontal) == "T2IF(120)"
    assert _shown_cells(model) == _engine_cells(s)


def test_hidden_outline_waits_until_shown(real_window, qtbot):
    w = real_window()
    outline = w.editing.outline
    assert not outline.isVisible() and outline.model.elements == []
    w.editing.dock.show()
    assert len(outline.model.elements) == len(w.session.current.article.elements) > 0


@pytest.mark.parametrize("what", ["mode", "screen", "tolerance"])
def test_control_changes_show_the_engines_scores(real_window, qtbot, what):
    w = real_window(ARTICLE, TOPIC_BIG)
    c = w.controls
    changes = {"mode": [lambda m=m: c.mode.setCurrentIndex(c.mode.findData(m.value))
                        for m in (Mode.WORST, Mode.BEST, Mode.NATURAL)],
               "screen": [lambda: c.screen.setValue(2000), lambda: c.screen.setValue(300)],
               "tolerance": [lambda: c.tolerance.setValue(100), lambda: c.tolerance.setValue(300)]}[what]
    probe = Probe()
    for i in range(6):
        changes[i % len(changes)]()
        QApplication.processEvents()  # the repaints of what changed (and the probe's tick)
        assert w.scores.shown()["aveChP"] == _avechp(w.session)
        assert _shown_cells(w.model) == _engine_cells(w.session)
    probe.assert_no_freeze()
