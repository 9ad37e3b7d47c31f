"""Regenerate the README's screenshots from the real INEX data (offscreen).

Usage: ``QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots.py [FOLDER]`` (``READSIM_DATA``,
default ``../shared/data/inex``; FOLDER, default ``docs/``, is created if missing, and every
picture is written atomically, only over a regular file). Writes ``docs/window-real.png`` (the window: ranked list,
article, scores, precision curve, topic view with where the run loses), ``docs/passages.png``
(the passages dock on a run with three passages in PageRank), ``docs/playback.png`` (the reader mid-way in
the worst-case order, its jumps drawn), ``docs/compare.png`` (A/B of two real runs), ``docs/explain.png``
(the Explain dock, :func:`explain_shot`), ``docs/sensitivity.png`` (the Sensitivity dock: scores against
the screen size), ``docs/lesson.png`` (a shipped lesson, on the sample), the Runs
window (``docs/runs.png``), its Topics tab (``docs/topics.png``) and ``docs/fixes.png`` (a rank move and a
passage edit with their worth, before and now); :func:`debugging_shots` the README's "Debugging a run
against a competitor" (``docs/debug-topics.png``, ``docs/debug-costs.png``, ``docs/debug-fix.png``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QSettings, QStandardPaths, Qt
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))
OUT = ROOT / "docs"  # the output folder (main's FOLDER argument)


def _app() -> QApplication:
    """The application, with settings in a fresh temporary folder (never the user's)."""
    app = QApplication.instance() or QApplication([])
    QStandardPaths.setTestModeEnabled(True)
    folder = tempfile.mkdtemp()
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)
    from readsim.app.background import collect_garbage_in_gui_thread

    collect_garbage_in_gui_thread()
    return app


def settle(cond=lambda: True, timeout: float = 120.0) -> None:
    """Process events until no background job is in flight and ``cond()``, then a few more turns."""
    from readsim.app.background import activity

    app = QApplication.instance()
    end = time.monotonic() + timeout
    while not (activity().count == 0 and cond()):
        app.processEvents()
        if time.monotonic() > end:
            raise SystemExit("timed out")
    for _ in range(10):
        app.processEvents()


def window(topic: str, article: str, runs: list[str], size: tuple[int, int] | None = None):
    """A main window on the real collection, qrels and topics with ``runs`` (a bare name: a real
    run; a full path as is), showing ``topic`` and ``article``; with ``size``, a picture's window
    of that size (as ``readsim --screenshot --size``: docks that would float open docked)."""
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Loaded, Session
    from readsim.core.collection import Collection
    from readsim.core.formats import read_qrels, read_run, read_topics

    session = Session()
    w = MainWindow(session, show_dialogs=False, restore=False, size=size)
    w.show()
    loaded = Loaded(collection=Collection(DATA / "articles"), qrels=read_qrels(DATA / "qrels" / "inex2009-2010.qrels"),
                    runs=[read_run(DATA / "runs" / r) for r in runs],
                    topics=read_topics(DATA / "topics" / "inex2009-topics.xml"))
    session.adopt(loaded, topic, article)
    settle(lambda: session.current is not None and session.current.name == article)
    return w


def save(widget, path: Path) -> None:
    """Render ``widget`` to the PNG ``path``, atomically (readsim.app.export)."""
    from readsim.app.export import export_widget

    export_widget(widget, path)


def main(argv: list[str] | None = None) -> int:
    global OUT
    parser = argparse.ArgumentParser(description="Regenerate the README's screenshots from the real INEX data.")
    parser.add_argument("folder", nargs="?", default=str(OUT), help="where to write the PNGs (default docs/)")
    OUT = Path(parser.parse_args(argv).folder)
    try:
        OUT.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SystemExit(f"screenshots.py: {exc.filename}: {exc.strerror}") from None
    folder = tempfile.mkdtemp()
    _app()
    w = window("2009074", "23724", ["bert-passages.run"])
    save(w, OUT / "window-real.png")

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
    save(w, OUT / "passages.png")

    w = window("2009004", "14343887", ["bert-passages.run"])
    w.session.set_settings(mode="worst")
    settle()
    w.playback.set_top(w.playback.last_top() * 2 // 3)
    settle()
    save(w, OUT / "playback.png")

    w = window("2009074", "23724", ["bert-passages.run", "bert-passages-map19.run"])
    w.act_compare.trigger()
    settle()
    w.compare_dock.resize(1500, 860)
    settle()
    save(w.compare_dock, OUT / "compare.png")
    elements_shot()
    runs_shot()
    explain_shot()
    sensitivity_shot()
    lesson_shot()
    topics_shot()
    fixes_shot()
    debugging_shots()
    print("wrote", ", ".join(str(OUT / n) for n in ("window-real.png", "passages.png", "playback.png", "compare.png")))
    return 0


def elements_shot() -> Path:
    """``docs/elements.png``: the window with the element mode (View ▸ Element retrieval, tabbed with
    the topic view at the bottom, as in a ``--screenshot``) on topic 2009074 (complete
    in the shipped data), the ancestors run, PageRank's root element selected: its bracket spans
    the article, the brackets of its retrieved descendants nest inside it, and the text the
    elements ranked before it showed is shaded. Runs alone too::

        QT_QPA_PLATFORM=offscreen .venv/bin/python -c "import runpy; runpy.run_path('docs/screenshots.py')['elements_shot']()"
    """
    _app()
    w = window("2009074", "23724", ["bert-passages.run"], size=(1600, 1000))
    w.act_elements.trigger()
    panel = w.elements
    settle(lambda: panel.topic_view is not None and panel.view.layout_ is not None)
    panel.set_run("ancestors")
    settle()
    run = panel.current_run()
    root = next(k for k, r in enumerate(run.entries) if r.article == "23724" and r.xpath == "/article[1]")
    panel.select_position(root)
    settle(lambda: panel.view.layout_ is not None and panel.view.layout_.article.name == "23724")
    section = next(r for r in run.entries if r.article == "23724" and r.xpath.endswith("/ss1[1]"))
    panel.view.scroll_to_position(panel.view.layout_.to_display(section.start) - 1, margin=120)
    settle()
    out = OUT / "elements.png"
    save(w, out)  # the window, the element mode tabbed in front of the topic view as a picture opens it
    print("wrote", out)
    return out


def sensitivity_shot(size: tuple[int, int] = (1600, 1000), out: str | Path | None = None) -> Path:
    """``docs/sensitivity.png``: the Sensitivity dock (View ▸ Sensitivity) on PageRank (topic
    2009074, bert-passages.run) sweeping the screen size: ChP@s and ChR@s, LE(s) and ES(s) against
    it, and the topic's ANCE@100/LE(s) (the topic view's document measure set to LE). ``size``:
    the window's size; ``out``: another file to write. Runs alone too::

        QT_QPA_PLATFORM=offscreen .venv/bin/python -c "import runpy; runpy.run_path('docs/screenshots.py')['sensitivity_shot']((1100, 760), '/tmp/s.png')"
    """
    from PySide6.QtCore import Qt

    _app()
    w = window("2009074", "23724", ["bert-passages.run"])
    w.resize(*size)
    w.topic_view.set_doc_kind("LE")
    w.act_sensitivity.trigger()
    w.resizeDocks([w.sensitivity_dock], [size[1] * 2 // 5], Qt.Orientation.Vertical)
    panel = w.sensitivity
    settle(lambda: panel.topic_curve is not None and not panel.busy())
    path = Path(out) if out is not None else OUT / "sensitivity.png"
    save(w.sensitivity_dock, path)
    print("wrote", path)
    return path


def runs_shot(tabs_to: str | Path | None = None) -> Path:
    """``docs/runs.png``: the Runs window (View ▸ Compare all runs) on the five real runs (the
    three BERT runs, indri-passages and indri-documents), its Runs tab: the runs ordered by
    AgP/F(0.25) with the neighbours' significance marked, the three other default measures, the
    significant pairs per measure. ``tabs_to``: a folder that also gets every tab as
    ``runs-<tab>.png`` (the fidelity tables computed first), to look at. Runs alone too::

        QT_QPA_PLATFORM=offscreen .venv/bin/python -c "import runpy; runpy.run_path('docs/screenshots.py')['runs_shot']('/tmp')"
    """
    _app()
    w = window("2009074", "23724", ["bert-passages.run", "bert-passages-map19.run", "bert-passages-map199.run",
                                    "indri-passages.run", "indri-documents.run"])
    w.act_runs.trigger()
    runs_window = w.runs_window
    settle(lambda: runs_window.result is not None and not runs_window.busy())
    if runs_window.errors_shown:
        raise SystemExit("; ".join(runs_window.errors_shown))
    runs_window.resize(1560, 700)
    settle()
    out = OUT / "runs.png"
    save(runs_window, out)
    print("wrote", out)
    if tabs_to is not None:
        runs_window.resize(1560, 900)
        runs_window.compute_fidelity()
        settle(lambda: runs_window.fidelity is not None and not runs_window.busy())
        for index in range(runs_window.tabs.count()):
            runs_window.tabs.setCurrentIndex(index)
            settle()
            name = runs_window.tabs.tabText(index).lower()
            save(runs_window, Path(tabs_to) / f"runs-{name}.png")
            print("wrote", Path(tabs_to) / f"runs-{name}.png")
    return out


def explain_shot() -> Path:
    """``docs/explain.png``: the Explain dock (View ▸ Explain) on PageRank (topic 2009074,
    bert-passages.run), T2IF(300) chosen and its term "non-relevant read" clicked: the
    non-relevant text the T2I reader reads before it stops is highlighted in violet. Runs alone too::

        QT_QPA_PLATFORM=offscreen .venv/bin/python -c "import runpy; runpy.run_path('docs/screenshots.py')['explain_shot']()"
    """
    _app()
    w = window("2009074", "23724", ["bert-passages.run"])
    w.resize(1500, 1000)
    w.act_explain.trigger()
    settle()
    w.resizeDocks([w.explain_dock], [330], Qt.Orientation.Vertical)
    # settle() turns the loop with processEvents, which leaves deleteLater's deletions pending: the
    # plots' "plot follows…" placeholders would show below the smaller plot
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    w.explain.choose("T2IF(300)")
    settle()
    w.explain.select_term("non-relevant read")
    settle()
    out = OUT / "explain.png"
    save(w, out)
    print("wrote", out)
    return out


def lesson_shot() -> Path:
    """``docs/lesson.png``: the lesson "reading-orders" (Help ▸ Lessons) on the shipped sample, its
    steps in the dock beside the article, as ``readsim --lesson reading-orders`` opens it."""
    from readsim.app.main import main as readsim

    out = OUT / "lesson.png"
    if readsim(["--lesson", "reading-orders", "--screenshot", str(out)]) != 0:
        raise SystemExit("screenshots.py: the lesson did not render")
    return out


def topics_shot() -> Path:
    """``docs/topics.png``: the Runs window's Topics tab on ``indri-passages.run`` against
    ``bert-passages-map199.run`` under AgP/F(0.25): the 118 paired topics, both runs' values and
    their difference, where Indri gains most first. Alone too::

        QT_QPA_PLATFORM=offscreen .venv/bin/python -c "import runpy; runpy.run_path('docs/screenshots.py')['topics_shot']()"
    """
    _app()
    w = window("2009074", "23724", ["indri-passages.run", "bert-passages-map199.run"])
    w.act_runs.trigger()
    runs_window = w.runs_window
    runs_window.set_options(measures=["AgP/F(0.25)", "AgP/aveChP"], baseline=False)
    runs_window.compare()
    settle(lambda: runs_window.result is not None and not runs_window.busy()
           and len(runs_window.result.comparison.measures) == 2)
    if runs_window.errors_shown:
        raise SystemExit("; ".join(runs_window.errors_shown))
    runs_window.tabs.setCurrentWidget(runs_window.topics_tab)
    runs_window.resize(1300, 720)
    settle()
    out = OUT / "topics.png"
    save(runs_window, out)
    print("wrote", out)
    return out


def fixes_shot() -> None:
    """``docs/fixes.png``: topic 2009078 of indri-passages after two edits, with their worth: the
    relevant "Boosting" (90500) dropped from rank 5 to rank 1, and "Supervised learning" (20926,
    the open article) cut to its first 2,000 bytes."""
    w = window("2009078", "20926", ["indri-passages.run"])
    settle(lambda: w.session.rows_ready() and len(w.session.rows) == 100)
    w.editing.editor.set_retrieved([[0, 2000]])
    w.rank_edits.drop("90500", 1)
    w.table.select_article("20926")
    settle(lambda: w.edit_worth.worth is not None)
    save(w, OUT / "fixes.png")


def debugging_shots() -> list[Path]:
    """The README's "Debugging a run against a competitor", indri-passages against
    bert-passages-map199 under AgP/F(0.25): ``docs/debug-topics.png`` (the Topics tab, where Indri
    loses most first), ``docs/debug-costs.png`` (topic 2009085, the worst-losing topic whose articles
    the collection holds, its costliest article 8843405 open, the topic view's browse and rank
    costs, sorted by rank cost) and ``docs/debug-fix.png`` (that article moved from rank 71 to its
    ideal rank 2, the worth of the move). Alone too::

        QT_QPA_PLATFORM=offscreen .venv/bin/python -c "import runpy; runpy.run_path('docs/screenshots.py')['debugging_shots']()"
    """
    _app()
    runs = ["indri-passages.run", "bert-passages-map199.run"]
    w = window("2009085", "8843405", runs)
    w.act_runs.trigger()
    runs_window = w.runs_window
    runs_window.set_options(measures=["AgP/F(0.25)"], baseline=False)
    runs_window.compare()
    settle(lambda: runs_window.result is not None and not runs_window.busy())
    if runs_window.errors_shown:
        raise SystemExit("; ".join(runs_window.errors_shown))
    runs_window.tabs.setCurrentWidget(runs_window.topics_tab)
    runs_window.topics_tab.table.sortByColumn(3, Qt.SortOrder.AscendingOrder)  # the difference, losses first
    runs_window.resize(1100, 560)
    settle()
    outs = [OUT / "debug-topics.png", OUT / "debug-costs.png", OUT / "debug-fix.png"]
    save(runs_window, outs[0])
    runs_window.close()
    settle(lambda: w.session.rows_ready() and w.topic_view.loss_panel.costs is not None)
    from readsim.app.widgets.loss_table import L_RANK_COST

    w.topic_view.loss_panel.table.sortByColumn(L_RANK_COST, Qt.SortOrder.DescendingOrder)
    w.topic_view.loss_panel.select_article("8843405")
    settle()
    save(w, outs[1])
    w.rank_edits.drop("8843405", 2)
    w.table.select_article("8843405")
    settle(lambda: w.edit_worth.worth is not None and w.topic_view.loss_panel.costs is not None)
    save(w, outs[2])
    print("wrote", ", ".join(map(str, outs)))
    return outs


if __name__ == "__main__":
    sys.exit(main())
