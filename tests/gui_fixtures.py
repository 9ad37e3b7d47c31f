"""Fixtures every test that opens a window uses (tests/app and tests/hostile import them):
fresh QSettings per test, garbage collected in the GUI thread only."""

from __future__ import annotations

import gc

import pytest
from PySide6.QtCore import QSettings, QStandardPaths


@pytest.fixture(autouse=True)
def gui_thread_gc():
    """No automatic garbage collection during a test: it could run in a worker thread and free
    an earlier test's Qt objects there (a deadlock; see readsim.app.background). Collect
    before and after, in this (the GUI) thread."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()
    gc.collect()


@pytest.fixture(autouse=True)
def fresh_settings(tmp_path, qapp):
    """Every test reads and writes QSettings in its own temporary folder."""
    QStandardPaths.setTestModeEnabled(True)
    folder = str(tmp_path / "settings")
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)
    yield folder
