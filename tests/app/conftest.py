"""GUI fixtures: fresh settings per test, the real INEX data loaded once, a window on it (one per
test, or one per module where the tests only read it or undo what they change)."""

from __future__ import annotations

import dataclasses

import pytest
from pytestqt.qtbot import QtBot

from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import Settings
from readsim.core.formats import read_qrels, read_run, read_topics

TOPIC = "2009074"  # complete in the shipped subset: every relevant and retrieved article is there


@pytest.fixture(autouse=True)
def _window_tests(gui_thread_gc, fresh_settings):
    """Every test here: garbage collected in the GUI thread only, its own QSettings (tests/conftest.py)."""
    yield fresh_settings


@pytest.fixture(scope="session")
def real(inex):
    """The real data, read once per test session: qrels, run, topics, collection folder."""
    return {
        "qrels": read_qrels(inex / "qrels" / "inex2009-2010.qrels"),
        "run": read_run(inex / "runs" / "bert-passages.run"),
        "topics": read_topics(inex / "topics" / "inex2009-topics.xml"),
        "collection": inex / "articles",
        # one Collection for the session's windows on the real data (real_window,
        # shared_real_window): what a window reads of an article (its title, length, text) is
        # kept across tests, as within one window, instead of every window parsing its topic's
        # 88 articles again (half of a window's filling); room for a few topics' articles
        "articles": Collection(inex / "articles", cache_size=400),
        "paths": inex,
    }


def wait_loaded(qtbot, session: Session, article: str | None = None) -> None:
    """Wait until no background job runs and an article (``article`` if given) is open."""
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and (article is None or session.current.name == article), timeout=20_000)


@pytest.fixture
def real_window(qtbot, real):
    """A window on topic 2009074 of the real data (article chosen by each test via ``open``)."""
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()

    def open_(article: str | None = None, topic: str = TOPIC) -> MainWindow:
        loaded = Loaded(collection=real["articles"], qrels=real["qrels"], runs=[real["run"]],
                        topics=real["topics"])
        session.adopt(loaded, topic, article)
        wait_loaded(qtbot, session, article)
        return window

    yield open_
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


def _module_settings(tmp_path_factory) -> None:
    """QSettings in a folder of their own, for a module's window built before its first test's
    ``fresh_settings`` (tests/conftest.py)."""
    from PySide6.QtCore import QSettings, QStandardPaths

    QStandardPaths.setTestModeEnabled(True)
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path_factory.mktemp("shared-window-settings")))


def _close_module_window(request, window: MainWindow) -> None:
    """After a module's last test: its window closed and deleted once no job runs."""
    from PySide6.QtCore import QCoreApplication, QEvent

    QtBot(request).waitUntil(lambda: activity().count == 0, timeout=20_000)
    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # now, not at the next module's end


@pytest.fixture(scope="module")
def shared_real_window(request, qapp, real, tmp_path_factory):
    """One window per test module on topic 2009074 of the real data, for the tests that only read
    it or undo what they change (:func:`real_window_shared`): a window costs about 1.3 s of CPU to
    build and fill. It reads and writes QSettings in its own folder until the first test's
    ``fresh_settings``. Closed and deleted after the module's last test."""
    _module_settings(tmp_path_factory)
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    window.show()
    session.adopt(Loaded(collection=real["articles"], qrels=real["qrels"], runs=[real["run"]],
                         topics=real["topics"]), TOPIC)
    wait_loaded(QtBot(request), session)
    window.first_article = session.current.name  # what a fresh window opens without an article asked
    window.first_articles = {TOPIC: window.first_article}  # the same for each topic real_window_shared showed
    window.rows_topic = TOPIC  # the topic whose ranked list the session holds
    yield window
    _close_module_window(request, window)


@pytest.fixture
def real_window_shared(qtbot, shared_real_window):
    """As :func:`real_window`, on the module's one window (:func:`shared_real_window`), shown as a
    fresh window shows it: the reader's default settings, ``topic`` (default 2009074; another
    one's ranked list is evaluated when asked, as opening the window on it does), ``article``
    (else the one a fresh window opens first on that topic) open at its first screen and
    scrolled to its top. What else a test changes (docks, edits, sizes) it undoes itself, or it
    takes a window of its own."""

    def open_(article: str | None = None, topic: str = TOPIC) -> MainWindow:
        window = shared_real_window
        session = window.session
        qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
        session.set_settings(**{f.name: getattr(Settings(), f.name) for f in dataclasses.fields(Settings)})
        if topic != window.rows_topic:  # the topic's ranked list, and its first article, as a window opened on it
            session.set_topic(topic, force=True)
            qtbot.waitUntil(lambda: activity().count == 0 and session.rows_ready() and session.current is not None
                            and session.topic == topic, timeout=20_000)
            window.rows_topic = topic
            window.first_articles.setdefault(topic, session.current.name)
        session.topic = topic  # a test may have set it by hand (an id as a file could give it)
        article = article or window.first_articles[topic]
        if session.current is None or session.current.name != article:
            session.open_article(article)
        wait_loaded(qtbot, session, article)
        session.set_step(0)
        window.article.view.verticalScrollBar().setValue(0)
        return window

    yield open_
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


@pytest.fixture(scope="module")
def module_window_at(request, qapp, real, tmp_path_factory):
    """One window per test module on the real data at the module's ``WINDOW_AT = (topic,
    article)``, as :func:`real_window` opens it, for a module whose tests need another topic than
    :func:`shared_real_window`'s and put back what they change. QSettings, closing: as
    :func:`shared_real_window`."""
    topic, article = request.module.WINDOW_AT
    _module_settings(tmp_path_factory)
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    window.show()
    session.adopt(Loaded(collection=real["articles"], qrels=real["qrels"], runs=[real["run"]], topics=real["topics"]),
                  topic, article)
    wait_loaded(QtBot(request), session, article)
    yield window
    _close_module_window(request, window)


@pytest.fixture(scope="module")
def shared_empty_window(request, qapp, tmp_path_factory):
    """One window per test module with nothing open yet, as :func:`real_window` builds it (no
    dialogs, nothing restored, shown), for a module whose tests each open in it what they need
    (a lesson, a view, files) and whose own fixture puts back what they change: a window costs
    about 0.3 s of CPU to build, show and close before anything is opened in it. QSettings,
    closing: as :func:`shared_real_window`."""
    _module_settings(tmp_path_factory)
    window = MainWindow(Session(), show_dialogs=False, restore=False)
    window.show()
    yield window
    _close_module_window(request, window)


@pytest.fixture
def lesson_window(qtbot, shared_empty_window):
    """The module's one window (:func:`shared_empty_window`) for tests that open lessons in it or
    only read its menus or step editor: a lesson opens its view, which replaces the files,
    settings, entry points and docks the previous test left (as Help ▸ Lessons does, one lesson
    after another). Here: no view restore or job under way, no unsaved edit, no error shown."""
    w = shared_empty_window
    _view_settled(qtbot, w)
    assert w.editing.editor.stack.isClean()
    del w.errors_shown[:]
    yield w
    _view_settled(qtbot, w)


def _view_settled(qtbot, w: MainWindow) -> None:
    qtbot.waitUntil(lambda: (w.view_restore is None or w.view_restore.done) and activity().count == 0,
                    timeout=60_000)


@pytest.fixture
def spread_window(qtbot, inex, tmp_path):
    """A window on :func:`helpers.app_cases.spread_run` (topic 2009074: PageRank and the largest
    real articles); ``spread_window(article)`` opens one of them."""
    from helpers.app_cases import TOPIC as SPREAD_TOPIC
    from helpers.app_cases import spread_run

    session = Session()
    w = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    run = spread_run(tmp_path / "spread.run", inex)

    def open_(article: str) -> MainWindow:
        if session.run is None:
            session.open_files(inex / "articles", inex / "qrels" / "inex2009-2010.qrels", [run], None, SPREAD_TOPIC,
                               article)
        else:
            session.open_article(article)
        qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                        and session.current.name == article, timeout=30_000)
        return w

    yield open_
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
