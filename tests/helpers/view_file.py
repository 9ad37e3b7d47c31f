"""Windows on saved views (.readsim), shared by tests/app/test_view_file.py and test_view_measure.py:
a fresh window, waiting until it is idle, a view file reopened in a fresh window, a good view's
fields on the sample."""

from __future__ import annotations

import os

from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session
from readsim.app.view_state import open_view_file
from readsim.core.samples import sample

TOPIC = "2026001"


def _window(qtbot) -> MainWindow:
    w = MainWindow(Session(), show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    return w


def _idle(qtbot, window, article: str | None = None) -> None:
    s = window.session
    qtbot.waitUntil(lambda: activity().count == 0 and s.current is not None and s.rows_ready()
                    and (article is None or s.current.name == article), timeout=60_000)


def _reopen(qtbot, path) -> MainWindow:
    w = _window(qtbot)
    restore = open_view_file(w, path)
    assert restore is not None, w.errors_shown
    qtbot.waitUntil(lambda: restore.done, timeout=60_000)
    return w


def _good(tmp_path) -> dict:
    s = sample()
    folder = tmp_path
    rel = lambda p: os.path.relpath(p, folder)  # noqa: E731
    return {"format": "readsim-view", "version": 1,
            "files": {"collection": rel(s.collection), "qrels": rel(s.qrels), "runs": [rel(r) for r in s.runs],
                      "topics": rel(s.topics)},
            "topic": TOPIC, "article": "900001", "settings": {"mode": "natural", "screen": 300}, "step": 0}
