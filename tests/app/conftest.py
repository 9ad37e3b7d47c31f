"""GUI fixtures: fresh settings per test, the real INEX data loaded once, a window on it."""

from __future__ import annotations

import pytest

from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from readsim.engine.collection import Collection
from readsim.engine.formats import read_qrels, read_run, read_topics

from gui_fixtures import fresh_settings, gui_thread_gc  # noqa: F401 (autouse; tests/ is on sys.path)

TOPIC = "2009074"  # complete in the shipped subset: every relevant and retrieved article is there


@pytest.fixture(scope="session")
def real(inex):
    """The real data, read once per test session: qrels, run, topics, collection folder."""
    return {
        "qrels": read_qrels(inex / "qrels" / "inex2009-2010.qrels"),
        "run": read_run(inex / "runs" / "bert-passages.run"),
        "topics": read_topics(inex / "topics" / "inex2009-topics.xml"),
        "collection": inex / "articles",
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
        loaded = Loaded(collection=Collection(real["collection"]), qrels=real["qrels"], runs=[real["run"]],
                        topics=real["topics"])
        session.adopt(loaded, topic, article)
        wait_loaded(qtbot, session, article)
        return window

    yield open_
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
