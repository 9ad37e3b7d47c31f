"""``readsim``: the reading-order window.

    readsim                                   # the shipped sample
    readsim --collection DIR --qrels FILE --run FILE [--run FILE2] [--topics FILE]
            [--topic T] [--article A] [--unit bytes|chars]
            [--reading MODE --screen S --tolerance T --beta B]
            [--screenshot out.png [--step K]]   # render offscreen, write a PNG, exit

:func:`main` returns the exit code: 0, 1 for an input error found while loading (with
``--screenshot``), 2 for bad arguments or paths. Errors are one clear line on stderr
(``readsim: error: file:line: reason``), never a traceback. In the interactive window an
unexpected exception opens a dialog (``sys.excepthook``) instead of killing the program.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path

from readsim.engine.reading import Mode

SCREENSHOT_TIMEOUT_MS = 120_000


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="readsim", description="Reading-order simulator for focused retrieval "
                                "(INEX Relevant in Context): read an article the way a run's matching chain leads.")
    p.add_argument("--collection", metavar="DIR", help="folder of article XML files")
    p.add_argument("--qrels", metavar="FILE", help="FOL qrels")
    p.add_argument("--run", metavar="FILE", action="append", default=[], help="FOL run (repeat for several)")
    p.add_argument("--topics", metavar="FILE", help="INEX topic file (titles)")
    p.add_argument("--topic", metavar="T", help="topic to show (default: the run's first)")
    p.add_argument("--article", metavar="A", help="article to open (default: the best-ranked relevant one)")
    p.add_argument("--unit", choices=("bytes", "chars"), default="bytes", help="offset unit (default: bytes)")
    p.add_argument("--sample", action="store_true", help="open the shipped sample (default without files)")
    p.add_argument("--reading", choices=[m.value for m in (Mode.NATURAL, Mode.WORST, Mode.BEST, Mode.DOCUMENT)],
                   default="natural", help="reading mode (default natural)")
    p.add_argument("--screen", type=int, default=300, metavar="S", help="screen size in characters (default 300)")
    p.add_argument("--tolerance", type=int, default=300, metavar="T", help="T2I tolerance (default 300)")
    p.add_argument("--beta", type=float, default=0.25, metavar="B", help="F-score beta (default 0.25)")
    p.add_argument("--screenshot", metavar="PNG", help="render the window offscreen to PNG and exit")
    p.add_argument("--step", type=int, default=0, metavar="K", help="with --screenshot: screens read forward (default 0)")
    return p


def check_args(args: argparse.Namespace) -> list[str]:
    """Problems with the given paths and numbers, as messages (empty if fine)."""
    out = []
    if args.collection and not Path(args.collection).is_dir():
        out.append(f"{args.collection}: collection folder not found")
    for label, path in (("qrels", args.qrels), ("topics", args.topics), *(("run", r) for r in args.run)):
        if path and not Path(path).is_file():
            out.append(f"{path}: {label} file not found")
    for name in ("screen", "tolerance"):
        if getattr(args, name) < 1:
            out.append(f"--{name} must be at least 1 character")
    if args.beta <= 0:
        out.append("--beta must be positive")
    if args.step < 0:
        out.append("--step must be >= 0")
    if args.sample and (args.run or args.collection or args.qrels or args.topics):
        out.append("--sample opens the shipped sample: give it alone (its runs are in the Run box), or give files instead")
    elif (args.collection or args.qrels or args.topics) and not args.run:
        out.append("give at least one --run FILE with --collection/--qrels/--topics")
    return out


def _error(text: str) -> None:
    print(f"readsim: error: {text}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run the window (or render ``--screenshot``); returns the exit code."""
    try:
        args = parser().parse_args(argv)
    except SystemExit as exit_:  # argparse printed its usage message
        return int(exit_.code or 0)
    problems = check_args(args)
    if problems:
        for text in problems:
            _error(text)
        return 2
    if args.screenshot and "QT_QPA_PLATFORM" not in os.environ:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "readsim"])
    app.setOrganizationName("readsim")
    app.setApplicationName("readsim")

    from .background import collect_garbage_in_gui_thread

    collect_garbage_in_gui_thread()

    from .mainwindow import MainWindow
    from .session import Session

    session = Session(unit=args.unit)
    session.set_settings(mode=args.reading, screen=args.screen, tolerance=args.tolerance, beta=args.beta)
    window = MainWindow(session, show_dialogs=not args.screenshot, restore=not args.screenshot)
    session.setParent(window)
    start(session, window, args)
    if args.screenshot:
        try:
            return screenshot(app, window, args)
        finally:
            window.close()
            window.deleteLater()
    previous = sys.excepthook
    sys.excepthook = _dialog_hook(window)
    try:
        window.show()
        return app.exec()
    finally:
        sys.excepthook = previous


def start(session, window, args: argparse.Namespace) -> None:
    """Begin loading what the arguments name, or the sample (a status message if it is missing)."""
    if args.run and not args.sample:
        session.open_files(args.collection, args.qrels, args.run, args.topics, args.topic, args.article)
        return
    from readsim.engine.samples import sample

    s = sample()
    if s.collection.is_dir() and s.qrels.is_file() and s.runs:
        session.open_files(s.collection, s.qrels, s.runs, s.topics if s.topics.is_file() else None,
                           args.topic or s.topic, args.article)
    else:
        text = (f"The shipped sample is missing ({s.collection.parent}). "
                "Open a collection folder, qrels and a run from the File menu, or drop them here.")
        window.status.setText(text)
        if args.screenshot:
            session.errors.append(text)


def wait_idle(timeout_ms: int = SCREENSHOT_TIMEOUT_MS) -> bool:
    """Process events until no background job is in flight; False on timeout."""
    from PySide6.QtCore import QEventLoop, QTimer

    from .background import activity

    act = activity()
    if act.count == 0:
        return True
    loop = QEventLoop()
    act.idle.connect(loop.quit)
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(loop.quit)
    timer.start(timeout_ms)
    loop.exec()
    act.idle.disconnect(loop.quit)
    return act.count == 0


def screenshot(app, window, args: argparse.Namespace) -> int:
    """Wait for the loads, step ``args.step`` screens, render the window to ``args.screenshot``."""
    caught: list[str] = []
    previous = sys.excepthook
    sys.excepthook = lambda t, v, tb: caught.append("".join(traceback.format_exception(t, v, tb)))
    try:
        window.show()
        if not wait_idle():
            _error("timed out while loading")
            return 1
        session = window.session
        if session.current is not None and args.step:
            session.set_step(args.step)
        app.processEvents()
    finally:
        sys.excepthook = previous
    if caught:
        _error("unexpected error while rendering:\n" + caught[0])
        return 1
    if session.errors:
        for text in session.errors:
            _error(text)
        return 1
    out = Path(args.screenshot)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(out)):
        _error(f"{out}: could not write the PNG")
        return 1
    print(f"readsim: wrote {out}")
    return 0


def _dialog_hook(window):
    """``sys.excepthook`` for the interactive window: a dialog with the traceback, not a crash."""

    def hook(etype, value, tb):
        text = "".join(traceback.format_exception(etype, value, tb))
        sys.__stderr__.write(text)
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Icon.Critical, "readsim: unexpected error",
                          f"{etype.__name__}: {value}", QMessageBox.StandardButton.Ok, window)
        box.setDetailedText(text)
        box.exec()

    return hook


if __name__ == "__main__":
    sys.exit(main())
