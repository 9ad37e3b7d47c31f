"""The hostile suite's fixtures: its window rows get the GUI tests' (fresh settings, GC in the GUI
thread; tests/conftest.py), a window on the shipped sample, stdin that never answers."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _window_tests(gui_thread_gc, fresh_settings):
    """Every test here: garbage collected in the GUI thread only, its own QSettings (tests/conftest.py)."""
    yield fresh_settings


def show_sample(qtbot, window) -> None:
    """``window`` shows the shipped sample again: its qrels, good run, topics and collection,
    topic 2026001; no input warning (the status bar's summary empty), no error box."""
    from readsim.app.background import activity
    from readsim.app.session import Loaded
    from readsim.core.collection import Collection
    from readsim.core.formats import read_qrels, read_run, read_topics
    from readsim.core.samples import sample

    s = sample()
    session = window.session
    session.runs = []  # the runs an earlier row opened (a window keeps every run it opened)
    run = read_run(next(r for r in s.runs if r.name == "good-passages.run"))
    session.adopt(Loaded(collection=Collection(s.collection), qrels=read_qrels(s.qrels), runs=[run],
                         topics=read_topics(s.topics)), s.topic)
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=10_000)
    assert session.coverage == [] and window.error_box is None and "input warning" not in window.warnings_text()


def close_errors(qtbot, window) -> None:
    """The error box closed (if open) and every job done."""
    from readsim.app.background import activity

    if window.error_box is not None:
        window.error_box.close()
    qtbot.waitUntil(lambda: window.error_box is None and activity().count == 0, timeout=10_000)


@pytest.fixture
def sample_window(qtbot):
    """A window with dialogs on, showing the sample's qrels, good run and collection."""
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session

    w = MainWindow(Session(), show_dialogs=True, restore=False)
    qtbot.addWidget(w)
    w.show()
    show_sample(qtbot, w)
    yield w
    close_errors(qtbot, w)


def module_window(request, tmp_path_factory, show_dialogs: bool):
    """A shown window (its own empty session) for a module's rows, closed and deleted when the
    module ends. It reads and writes QSettings in its own folder until the first test's
    ``fresh_settings``."""
    from PySide6.QtCore import QCoreApplication, QEvent, QSettings, QStandardPaths
    from pytestqt.qtbot import QtBot

    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session

    QStandardPaths.setTestModeEnabled(True)
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path_factory.mktemp("shared-window-settings")))
    window = MainWindow(Session(), show_dialogs=show_dialogs, restore=False)
    window.show()
    yield window
    close_errors(QtBot(request), window)
    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # now, not at the next module's end


@pytest.fixture(scope="module")
def shared_sample_window(request, qapp, tmp_path_factory):
    """One window per test module with dialogs on, for rows that each start from the sample and
    whose checks read only what the row adds (:func:`sample_window_shared`): building a window
    cost most of such a row's time. Closed and deleted after the module's last test."""
    yield from module_window(request, tmp_path_factory, show_dialogs=True)


@pytest.fixture(scope="module")
def shared_quiet_window(request, qapp, tmp_path_factory):
    """As :func:`shared_sample_window` with dialogs off (errors go to the status bar and the log
    only), and no data: each module's own fixture puts it in the state its rows start from."""
    yield from module_window(request, tmp_path_factory, show_dialogs=False)


def back_to_sample(qtbot, window) -> None:
    """``window`` as :func:`sample_window` starts: its error box closed, the sample adopted again
    (:func:`show_sample`), the log and ``errors_shown`` emptied (as a fresh window's). Only the
    reader warnings' count in the status bar carries over."""
    close_errors(qtbot, window)
    show_sample(qtbot, window)
    window.log.clear()
    del window.errors_shown[:]


@pytest.fixture
def sample_reset(qtbot):
    """:func:`back_to_sample` for a module's own shared-window fixture: ``sample_reset(window)``."""
    return lambda window: back_to_sample(qtbot, window)


@pytest.fixture
def sample_window_shared(qtbot, shared_sample_window):
    """As :func:`sample_window`, on the module's one window (:func:`shared_sample_window`), put
    back to the sample before each row (:func:`back_to_sample`)."""
    back_to_sample(qtbot, shared_sample_window)
    yield shared_sample_window
    close_errors(qtbot, shared_sample_window)


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
