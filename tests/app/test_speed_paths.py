"""The window's fast paths, on the real data: re-opening an article lately shown takes
its parse, layout and view document from caches (and shows the same scores), a screen-size
change does not re-lay out the scores panel's labels, and a mode change does not rebuild the
matching chain's buttons. The timings themselves are measured by ``bench/bench_gui.py``."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QLabel, QToolButton

from readsim.operations.article_reading import panel_measures, panel_scores
from readsim.app.background import activity

from readsim.app.articles import ARTICLE_CACHE_SIZE
from readsim.app.session import Loaded
from readsim.app.widgets.ranked_list import format_score
from readsim.core.collection import Collection
from readsim.core.reading import Mode

TOPIC = "2009074"


@pytest.fixture
def real_window(real_window_shared, real, qtbot):
    """As tests/app/conftest.py's ``real_window``, on the module's one window (``real_window_shared``:
    the tests here only read it, or change the reader's settings, which it puts back): the first
    call shows the window as a fresh one opens ``article``; a second call in a test opens the same
    files again (a new Collection object), as ``real_window`` does at every call."""
    calls = []

    def open_(article: str | None = None):
        if not calls:
            calls.append(real_window_shared(article))
            return calls[0]
        w = calls[0]
        w.session.adopt(Loaded(collection=Collection(real["collection"]), qrels=real["qrels"], runs=[real["run"]],
                               topics=real["topics"]), TOPIC, article)
        qtbot.waitUntil(lambda: activity().count == 0 and w.session.current is not None
                        and (article is None or w.session.current.name == article), timeout=20_000)
        return w

    return open_


def engine_scores(session) -> dict[str, str]:
    """The panel's texts as the engine computes them for the open (ranked) article."""
    s = session.settings
    values = panel_scores(session.current.evaluation, s)
    return {m.name: format_score(m, values[m.name]) for m in panel_measures(s)}


def ranked_with_text(session, n: int) -> list[str]:
    """``n`` articles the run ranks for the topic that the collection has, with retrieved text."""
    names = [r.article for r in session.rows if r.in_collection and len(r.evaluation.retrieved_spans)]
    assert len(names) >= n
    return names[:n]


class Events(QObject):
    """Counts the events of the given types each watched object receives."""

    def __init__(self, kinds) -> None:
        super().__init__()
        self.kinds = set(kinds)
        self.seen: list[tuple[QObject, QEvent.Type]] = []

    def watch(self, *objs) -> Events:
        for o in objs:
            o.installEventFilter(self)
        return self

    def eventFilter(self, obj, ev) -> bool:
        if ev.type() in self.kinds:
            self.seen.append((obj, ev.type()))
        return False


def reopen(qtbot, w, name: str) -> None:
    w.session.open_article(name)
    qtbot.waitUntil(lambda: activity().count == 0 and w.session.current is not None
                    and w.session.current.name == name, timeout=20_000)


def test_reopen_takes_layout_and_document_from_the_caches_and_shows_the_same(real_window, qtbot):
    w = real_window()
    s = w.session
    a, b = ranked_with_text(s, 2)
    reopen(qtbot, w, a)
    first = s.current
    doc, text = w.article.view.document(), w.article.view.document().toPlainText()
    shown, chain = w.scores.shown(), [btn.text() for btn in w.article.chain.buttons]
    assert shown == engine_scores(s)
    reopen(qtbot, w, b)
    assert w.article.view.document() is not doc and s.current.name == b
    hits = s.article_cache.hits
    reopen(qtbot, w, a)
    assert s.article_cache.hits == hits + 1
    assert s.current.article is first.article and s.current.layout is first.layout  # no parse, no layout
    assert w.article.view.document() is doc and doc.toPlainText() == text  # no build: the same document
    assert w.article.view.layout_ is first.layout
    assert w.scores.shown() == shown == engine_scores(s)
    assert [btn.text() for btn in w.article.chain.buttons] == chain


def test_the_caches_keep_the_last_few_articles_only(real_window, qtbot):
    w = real_window()
    s = w.session
    names = ranked_with_text(s, ARTICLE_CACHE_SIZE + 2)
    for name in names:
        reopen(qtbot, w, name)
    assert len(s.article_cache.names()) == ARTICLE_CACHE_SIZE
    assert s.article_cache.names() == names[-ARTICLE_CACHE_SIZE:]
    kept = w.article._docs
    assert len(kept) <= ARTICLE_CACHE_SIZE and all(doc.parent() is w.article for _, doc in kept.values())
    hits = s.article_cache.hits
    reopen(qtbot, w, names[0])  # evicted: read and laid out again
    assert s.article_cache.hits == hits and s.current.layout is not None
    assert w.scores.shown() == engine_scores(s)


def test_another_collection_is_a_miss(real_window, qtbot):
    w = real_window()
    s = w.session
    name, lay, hits = s.current.name, s.current.layout, s.article_cache.hits
    assert real_window(name) is w  # the same files again: a new Collection object
    assert s.current.name == name and s.current.layout is not lay and s.article_cache.hits == hits
    assert w.scores.shown() == engine_scores(s)


def test_a_screen_change_does_not_relayout_the_score_labels(real_window, qtbot):
    w = real_window()
    s, c, panel = w.session, w.controls, w.scores
    labels = panel.findChildren(QLabel)
    for size in (2000, 300):  # once each: a wider name ("ChP@2000") may grow its label once
        c.screen.setValue(size)
        qtbot.waitUntil(lambda size=size: panel.shown() == engine_scores(s) and f"ChP@{size}" in panel.shown())
    QApplication.processEvents()  # the growing's re-layout, posted
    events = Events((QEvent.Type.LayoutRequest, QEvent.Type.Resize)).watch(panel, *labels)
    for size in (2000, 300, 2000, 300):
        c.screen.setValue(size)
        qtbot.waitUntil(lambda size=size: f"ChP@{size}" in panel.shown())
        assert panel.shown() == engine_scores(s)
        QApplication.processEvents()  # deliver what a change posted
    assert panel.findChildren(QLabel) == labels  # the same labels
    assert events.seen == []  # neither the panel's layout nor a label's size changed
    for obj in labels:
        obj.removeEventFilter(events)
    panel.removeEventFilter(events)


def test_a_repeated_refresh_changes_nothing(real_window):
    w = real_window()
    panel = w.scores
    shown = panel.shown()
    tips = [lab.toolTip() for lab in panel.findChildren(QLabel)]
    panel.refresh()
    panel.refresh()
    assert panel.shown() == shown and [lab.toolTip() for lab in panel.findChildren(QLabel)] == tips


def test_a_mode_change_reuses_the_chain_buttons(real_window, qtbot):
    w = real_window()
    s, c, bar = w.session, w.controls, w.article.chain
    assert bar.buttons
    buttons = list(bar.buttons)
    made = bar.inner.findChildren(QToolButton)
    for mode in (Mode.WORST, Mode.BEST, Mode.DOCUMENT, Mode.NATURAL, Mode.DOCUMENT, Mode.BEST):
        c.mode.setCurrentIndex(c.mode.findData(mode.value))
        assert s.settings.mode is mode and w.scores.shown() == engine_scores(s)
        if mode is Mode.DOCUMENT:
            assert bar.buttons == [] and bar.note.isVisibleTo(bar) and "document mode" in bar.note.text()
        else:
            assert bar.buttons == buttons and not bar.note.isVisibleTo(bar)
            assert [int(b.text()) for b in bar.buttons] == [n for n, _, _ in w.article.view.marks().chain]
            assert all(b.isVisibleTo(bar) for b in bar.buttons)
    assert bar.inner.findChildren(QToolButton) == made  # none made, none deleted
    assert bar.row.itemAt(0).widget() is bar.note  # the note comes first


def test_chain_buttons_still_jump(real_window, qtbot, monkeypatch):
    w = real_window()
    bar, view = w.article.chain, w.article.view
    chain = view.marks().chain
    seen = []
    # an instance attribute (put back after the test): the button's lambda looks it up
    monkeypatch.setattr(view, "jump_to_passage", lambda k: seen.append(k))
    for btn in bar.buttons:
        btn.click()
    assert seen == [n for n, _, _ in chain]
