"""Regenerate the README's screenshots from the real INEX data (offscreen).

Usage: ``QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots.py`` (``READSIM_DATA``,
default ``../shared/data/inex``). Writes ``docs/window-real.png`` (the window: ranked list,
article, scores, precision curve, topic view with where the run loses), ``docs/passages.png``
(the passages dock on a run with three passages in PageRank), ``docs/playback.png`` (the reader mid-way in
the worst-case order, its jumps drawn) and ``docs/compare.png`` (A/B of two real runs).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, QStandardPaths  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))
OUT = ROOT / "docs"


def main() -> int:
    app = QApplication.instance() or QApplication([])
    QStandardPaths.setTestModeEnabled(True)
    folder = tempfile.mkdtemp()
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)

    from readsim.app.background import activity, collect_garbage_in_gui_thread
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Loaded, Session
    from readsim.engine.collection import Collection
    from readsim.engine.formats import read_qrels, read_run, read_topics

    collect_garbage_in_gui_thread()

    def settle(cond=lambda: True, timeout=60.0) -> None:
        end = time.monotonic() + timeout
        while not (activity().count == 0 and cond()):
            app.processEvents()
            if time.monotonic() > end:
                raise SystemExit("timed out")
        for _ in range(10):
            app.processEvents()

    def window(topic: str, article: str, runs: list[str]) -> MainWindow:
        session = Session()
        w = MainWindow(session, show_dialogs=False, restore=False)
        w.show()
        loaded = Loaded(collection=Collection(DATA / "articles"), qrels=read_qrels(DATA / "qrels" / "inex2009-2010.qrels"),
                        runs=[read_run(DATA / "runs" / r) for r in runs],  # a bare name: a real run; a full path as is
                        topics=read_topics(DATA / "topics" / "inex2009-topics.xml"))
        session.adopt(loaded, topic, article)
        settle(lambda: session.current is not None and session.current.name == article)
        return w

    w = window("2009074", "23724", ["bert-passages.run"])
    w.grab().save(str(OUT / "window-real.png"))

    # the passages dock, on a run with three passages in PageRank (written here, not shipped)
    passages_run = Path(folder) / "three-passages.run"
    passages_run.write_text("2009074 Q0 23724 1 3 mine 20000 600\n2009074 Q0 2193171 2 2 mine 0 4000\n"
                            "2009074 Q0 23724 1 3 mine 5200 900\n2009074 Q0 23724 1 3 mine 12000 400\n"
                            "2009074 Q0 23724 1 3 mine 5800 500\n")
    w = window("2009074", "23724", [str(passages_run)])
    w.act_passages.trigger()
    settle()
    w.session.set_step(3)
    settle()
    w.grab().save(str(OUT / "passages.png"))

    w = window("2009004", "14343887", ["bert-passages.run"])
    w.session.set_settings(mode="worst")
    settle()
    w.playback.set_top(w.playback.last_top() * 2 // 3)
    settle()
    w.grab().save(str(OUT / "playback.png"))

    w = window("2009074", "23724", ["bert-passages.run", "bert-passages-map19.run"])
    w.act_compare.trigger()
    settle()
    w.compare_dock.resize(1500, 860)
    settle()
    w.compare_dock.grab().save(str(OUT / "compare.png"))
    print("wrote", ", ".join(str(OUT / n) for n in ("window-real.png", "passages.png", "playback.png", "compare.png")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
