"""The hostile suite's fixtures: its window rows get the GUI tests' (fresh settings, GC in the GUI
thread; tests/conftest.py), a window on the shipped sample, stdin that never answers."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _window_tests(gui_thread_gc, fresh_settings):
    """Every test here: garbage collected in the GUI thread only, its own QSettings (tests/conftest.py)."""
    yield fresh_settings


@pytest.fixture
def sample_window(qtbot):
    """A window with dialogs on, showing the sample's qrels, good run and collection."""
    from readsim.app.background import activity
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Loaded, Session
    from readsim.core.collection import Collection
    from readsim.core.formats import read_qrels, read_run, read_topics
    from readsim.core.samples import sample

    s = sample()
    session = Session()
    w = MainWindow(session, show_dialogs=True, restore=False)
    qtbot.addWidget(w)
    w.show()
    run = read_run(next(r for r in s.runs if r.name == "good-passages.run"))
    session.adopt(Loaded(collection=Collection(s.collection), qrels=read_qrels(s.qrels), runs=[run],
                         topics=read_topics(s.topics)), s.topic)
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=10_000)
    assert session.coverage == [] and w.error_box is None
    yield w
    if w.error_box is not None:
        w.error_box.close()
    qtbot.waitUntil(lambda: activity().count == 0, timeout=10_000)


@pytest.fixture
def stdin_silent():
    """fd 0 replaced by a pipe nobody writes to: reading stdin would block (the guard fails)."""
    saved = os.dup(0)
    read, write_end = os.pipe()
    os.dup2(read, 0)
    os.close(read)
    try:
        yield
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(write_end)  # a reader still blocked on the pipe now sees its end
