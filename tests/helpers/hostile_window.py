"""The ways a file reaches the window (File menu, recent files, drag and drop, the command line's
``start``, the session's load), shared by tests/hostile/test_window_files.py and test_window_inputs.py."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QFileDialog

from readsim.app import main as main_mod
from readsim.app.input_files import add_recent
from readsim.app.mainwindow import MainWindow
from readsim.core.samples import sample

#: the sample's good run, two results (what ``start`` opens with a qrels under test)
GOOD_RUN = "2026001 Q0 900001 1 1.0 hostile 1351 1520\n2026001 Q0 900003 2 0.9 hostile 834 443\n"


def open_via(window: MainWindow, case, path: Path, monkeypatch, tmp_path: Path) -> None:
    via, kind = case.data["via"], case.data.get("kind")
    if via == "load":
        window.session.load(kind, path)
    elif via == "menu":
        if kind == "collection":
            monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(path))
        else:
            monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
        {"run": window.act_open_run, "qrels": window.act_open_qrels, "topics": window.act_open_topics,
         "collection": window.act_open_collection}[kind].trigger()
    elif via == "recent":
        add_recent(kind, path)
        if path.is_dir():
            for child in path.iterdir():
                child.unlink()
            path.rmdir()
        else:
            path.unlink()
        window.recent_menu.aboutToShow.emit()
        action = next(a for a in window.recent_menu.actions() if a.text() == f"{kind}: {os.path.abspath(path)}")
        action.trigger()
    elif via == "drop":
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(path))])
        event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                           Qt.KeyboardModifier.NoModifier)
        window.dropEvent(event)
    elif via == "start":
        s = sample()
        args = ["--collection", str(s.collection), "--qrels", str(s.qrels), "--run", str(path)]
        if kind == "qrels":
            good = tmp_path / "good.run"
            good.write_text(GOOD_RUN)
            args = ["--collection", str(s.collection), "--qrels", str(path), "--run", str(good)]
        main_mod.start(window.session, window, main_mod.parser().parse_args(args))
    else:  # pragma: no cover - a typo in the table
        raise AssertionError(via)
