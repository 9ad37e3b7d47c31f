"""``readsim``: the reading-order window.

    readsim [--sample]                        # the shipped sample
    readsim VIEW.readsim                      # a saved view (File ▸ Save view…)
    readsim --lesson NAME | --list-lessons    # a shipped lesson; the lessons, one a line
    readsim --collection DIR --qrels FILE --run FILE [--run FILE2] [--topics FILE]
            [--topic T] [--article A] [--unit bytes|chars]
            [--reading MODE --screen S --tolerance T --beta B] [--entry OFFSET]
            [--present]                         # presentation mode (View ▸ Presentation)
            [--theme light|dark|system]         # this run's theme (pictures too)
            [--screenshot out.png [--step K]]   # render offscreen, write a PNG, exit
            [--figure FILE [--range START:END]] [--record FILE.gif]   # app/render_args.py

:func:`main` returns the exit code: 0; 1 for an input error found while loading (with
``--screenshot``) or an OS error (``path: reason``: the screenshot's folder cannot be created,
the image cannot be written, standard output is full or closed: ``--help``, ``--list-lessons``;
a closed pipe ends them quietly, 0), or any error told or raised while ``--screenshot``,
``--figure`` or ``--record`` loads and renders (no picture then); 2 for bad arguments: an empty
value (``readsim ''``, ``--topic ''``, an empty or unknown ``--lesson``), a value out of
range (``--screen`` and ``--tolerance`` whole numbers of characters from 1 to 10,000,000,
``--beta`` from 0.01 to 10, the window's own ranges; ``--step`` and ``--entry`` from 0 to 2^40),
options that do not go together (``--entry`` with a ``--reading`` other than ``entry``,
``--step`` without ``--screenshot``) or a path that is missing, unreadable or of the wrong kind;
130 when interrupted (Ctrl+C at any moment: one line ``readsim: interrupted``). Errors are one
clear line on stderr (``readsim: error: file:line: reason``), never a traceback. In the
interactive window an OS or input error reaching ``sys.excepthook`` opens a plain message box
(``path: reason``), any other unexpected exception a dialog with the traceback, instead of
killing the program. On Linux the window needs a display and the system libraries of Qt's
platform plugin: :func:`readsim.app.display.choose_platform` names every one missing (exit 1)
before Qt would abort, or picks the other platform that has them.

``--screenshot`` reads the user's settings and writes nothing but its image
(:func:`readsim.app.input_files.freeze_settings`); the image is written atomically, only over a
regular file that is none of the inputs (:func:`readsim.core.atomic.check_output`).
"""

from __future__ import annotations

from readsim.core import streams  # first: Ctrl+C during the imports below is one line, exit 130

streams.guard_start("readsim")

import argparse  # this and every import below: after the start-up guard
import os
import signal
import sys
import traceback
from pathlib import Path

from readsim.core.atomic import check_output
from readsim.core.streams import EXIT_INTERRUPTED, describe_os_error, silence
from readsim.core.errors import InputError

from .arguments import check_lesson, check_paths, check_usage, check_view, check_view_options, parser
from .display import choose_platform
from .render_args import check_render_values, headless, outputs, render_outputs, render_size, write_output

SCREENSHOT_TIMEOUT_MS = 120_000


def _list_lessons() -> int:
    """``--list-lessons``: ``NAME  TITLE`` one a line, the titles in one column."""
    from .lessons import lessons

    try:
        found = [(lesson.name, lesson.title()) for lesson in lessons()]
    except OSError as exc:  # a lesson's text cannot be read
        _error(describe_os_error(exc))
        return 1
    width = max((len(name) for name, _ in found), default=0)
    try:
        for name, title in found:
            print(f"{name:<{width}}  {title}", file=streams.output(), flush=True)
    except OSError as exc:
        return _output_failed(exc)
    return 0


def _output_failed(exc: OSError) -> int:
    """A write to standard output failed: 0 for a closed pipe (``| head -1``: quietly, as Unix
    tools do), else 1 after one line ``readsim: error: <stdout>: reason`` (a full device, a
    closed output). Standard output is pointed at /dev/null so that the interpreter's last flush
    does not fail again (``Exception ignored ...``, exit 120)."""
    silence(sys.stdout)
    if isinstance(exc, BrokenPipeError):
        return 0
    _error(describe_os_error(exc, "<stdout>"))
    return 1


def _error(text: str) -> None:
    try:
        print(f"readsim: error: {text}", file=streams.errors(), flush=True)
    except (OSError, ValueError):  # standard error itself is full or closed: nothing to tell
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the window (or render ``--screenshot``); returns the exit code (see the module).

    Until Qt's application exists, Ctrl+C ends the program at once (one line, 130:
    :func:`readsim.core.streams.guard_start`; a ``KeyboardInterrupt`` inside PySide's imports
    can abort the interpreter); from then on :class:`Interrupt` routes it."""
    code = EXIT_INTERRUPTED
    try:
        code = _main(argv)
    except KeyboardInterrupt:
        try:
            print("readsim: interrupted", file=streams.errors(), flush=True)
        except (OSError, ValueError):
            pass
        if _busy():  # background jobs still run Python code: leave now, not tear Qt down under them
            os._exit(EXIT_INTERRUPTED)
    finally:
        streams.finished()
    return code


def _busy() -> bool:
    """True when a background job of the window is still running."""
    background = sys.modules.get("readsim.app.background")
    return background is not None and background.activity().count > 0


class Interrupt:
    """Ctrl+C while Qt runs: the signal is routed into the event loop, never raised inside a
    paint event or a slot. The handler only notes it and asks every running event loop to end
    (``QCoreApplication.exit``); a wakeup descriptor (:func:`signal.set_wakeup_fd`, watched by a
    ``QSocketNotifier``) gets Python to run the handler while Qt waits in C++. :meth:`check`,
    called between the steps of ``main``, raises ``KeyboardInterrupt`` there."""

    def __init__(self) -> None:
        import socket

        from PySide6.QtCore import QSocketNotifier

        self.hit = False
        self._read, self._write = socket.socketpair()
        for end in (self._read, self._write):
            end.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._write.fileno(), warn_on_full_buffer=False)
        self._notifier = QSocketNotifier(self._read.fileno(), QSocketNotifier.Type.Read)
        self._notifier.activated.connect(self._drain)
        self._previous = signal.signal(signal.SIGINT, self._handler)

    def _handler(self, signum, frame) -> None:
        from PySide6.QtCore import QCoreApplication

        self.hit = True
        QCoreApplication.exit(EXIT_INTERRUPTED)

    def _drain(self) -> None:
        try:
            self._read.recv(256)
        except OSError:
            pass

    def check(self) -> None:
        """Raise ``KeyboardInterrupt`` if Ctrl+C came."""
        if self.hit:
            raise KeyboardInterrupt

    def close(self) -> None:
        """Give SIGINT back to ``KeyboardInterrupt``."""
        signal.signal(signal.SIGINT, self._previous)
        signal.set_wakeup_fd(self._previous_fd)
        self._notifier.setEnabled(False)
        self._read.close()
        self._write.close()


def screenshot_output(args: argparse.Namespace, path: str | None = None) -> str | None:
    """Create the folder of ``--screenshot``'s image (or of ``path``: ``--figure``, ``--record``)
    and check the file may be written there
    (:func:`screenshot_folder`, then :func:`readsim.core.atomic.check_output` against every
    input); the problem as ``path: reason``, or None."""
    path = path or args.screenshot
    problem = screenshot_folder(path)
    if problem:
        return problem
    inputs = [("collection", args.collection), ("qrels", args.qrels), ("topics", args.topics),
              ("segments", args.segments), *(("run", r) for r in args.run)]
    view = getattr(args, "view_data", None)
    if view is not None:  # a view's (or lesson's) files, and the view file itself
        inputs += [("collection", view.collection), ("qrels", view.qrels), ("topics", view.topics),
                   *(("run", r) for r in view.runs), ("view", args.view)]
    if getattr(args, "sandbox_data", None) is not None:
        inputs.append(("sandbox", args.view))
    try:
        check_output(path, inputs)
    except OSError as exc:
        return describe_os_error(exc, path)
    return None


def screenshot_folder(path: str) -> str | None:
    """Create the folder of ``--screenshot``'s image; the problem as ``path: reason``, or None."""
    out = Path(path)
    try:
        if out.is_dir():
            raise IsADirectoryError(21, "is a directory, not an image file", str(out))
        existing = out.parent  # the nearest folder that exists must be one: name the file in the way
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if existing.exists() and not existing.is_dir():
            raise NotADirectoryError(20, "not a folder", str(existing))
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return describe_os_error(exc, out.parent)
    return None


def _main(argv: list[str] | None) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as exit_:  # argparse printed its usage message
        return int(exit_.code or 0)
    except OSError as exc:  # --help could not be written
        return _output_failed(exc)
    if args.list_lessons:
        return _list_lessons()
    for check, code in ((check_usage, 2), (check_lesson, 2), (check_paths, 1), (check_view, 1),
                        (check_view_options, 2), (check_render_values, 1)):
        problems = check(args)
        if problems:
            for text in problems:
                _error(text)
            return code
    for path in outputs(args):
        problem = screenshot_output(args, path)
        if problem:
            _error(problem)
            return 1
    if headless(args) and "QT_QPA_PLATFORM" not in os.environ:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if not headless(args):
        choice = choose_platform()
        if choice.problem:
            _error(choice.problem)
            return 1
        if choice.note:
            print(f"readsim: note: {choice.note}", file=sys.stderr)
        if choice.platform:
            os.environ["QT_QPA_PLATFORM"] = choice.platform

    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "readsim"])
    app.setOrganizationName("readsim")
    app.setApplicationName("readsim")
    interrupt = Interrupt()
    try:
        return _run(app, args, interrupt)
    finally:
        interrupt.close()


def _run(app, args: argparse.Namespace, interrupt: Interrupt) -> int:
    """Open the window (or render the screenshot) once Qt's application exists."""
    from readsim.app.input_files import freeze_settings, thaw_settings

    if headless(args):
        from PySide6.QtCore import qInstallMessageHandler

        freeze_settings()
        previous = qInstallMessageHandler(_offscreen_messages)
        try:
            return _window(app, args, interrupt)
        finally:
            qInstallMessageHandler(previous)
            thaw_settings()
    return _window(app, args, interrupt)


def _offscreen_messages(kind, context, message: str) -> None:
    """Qt's messages during ``--screenshot``, less the offscreen platform's notices about window
    features it lacks (``This plugin does not support propagateSizeHints()``): written to
    standard error as Qt would."""
    if message.startswith("This plugin does not support"):
        return
    try:
        os.write(2, (message + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


def _window(app, args: argparse.Namespace, interrupt: Interrupt) -> int:
    from .background import collect_garbage_in_gui_thread

    collect_garbage_in_gui_thread()

    from .mainwindow import MainWindow
    from .session import Session

    from .view_args import reader_settings

    session = Session(unit=args.unit, segments=args.segments)  # unit None: the collection's (reference 2.13)
    session.set_settings(**reader_settings(args))  # with a view: the view's, and the options given over them
    window = MainWindow(session, show_dialogs=not headless(args), restore=not headless(args), defer_plots=True,
                        size=render_size(args) if headless(args) else None)
    session.setParent(window)
    start(session, window, args)
    if getattr(args, "present", False):
        window.presentation.set_on(True)  # after start: a view's or lesson's docks are closed too
    if getattr(args, "theme", None):
        from .appearance import appearance

        appearance().set_theme(args.theme)  # this run only: View ▸ Theme's remembered choice is left
    if headless(args):
        try:
            return screenshot(app, window, args, interrupt)
        finally:
            window.close()
            window.deleteLater()
            from .appearance import appearance

            appearance().reset()  # a picture's zoom (--present) and theme (--theme) are not the process's
    previous = sys.excepthook
    sys.excepthook = _dialog_hook(window)
    try:
        interrupt.check()
        window.show()
        code = app.exec()
        interrupt.check()
        return code
    finally:
        sys.excepthook = previous


def start(session, window, args: argparse.Namespace) -> None:
    """Begin loading what the arguments name, or the sample (a status message if it is missing);
    with ``--entry``, the first article opened starts reading there."""
    if getattr(args, "entry", None) is not None:
        def first_article() -> None:
            if session.current is not None:
                session.article_changed.disconnect(first_article)
                session.set_entry(args.entry)

        session.article_changed.connect(first_article)
    if getattr(args, "sandbox_data", None) is not None:  # readsim NAME.readsim-sandbox (reference 9.2.2)
        if headless(args):
            window.sandbox.open_in_window(args.sandbox_data)
        else:  # the dialog beside the window, which follows its changes (Live)
            window.sandbox.show(args.sandbox_data).open_in_window()
        return
    if getattr(args, "view_data", None) is not None:
        from .view_state import restore
        from .widgets.lesson_dock import open_lesson

        if args.lesson:
            open_lesson(window, args.lesson, args.view_data)  # its view, and its text in the lesson dock
        else:
            restore(window, args.view_data)
        return
    if args.run and not args.sample:
        session.open_files(args.collection, args.qrels, args.run, args.topics, args.topic, args.article)
        return
    from readsim.core.samples import sample

    s = sample()
    if s.collection.is_dir() and s.qrels.is_file() and s.runs:
        session.open_files(s.collection, s.qrels, s.runs, s.topics if s.topics.is_file() else None,
                           args.topic or s.topic, args.article)
    else:
        text = (f"The shipped sample is missing ({s.collection.parent}). "
                "Open a collection folder, qrels and a run from the File menu, or drop them here.")
        window.status.setText(text)
        if headless(args):
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


def screenshot(app, window, args: argparse.Namespace, interrupt: Interrupt) -> int:
    """Wait for the loads, step ``args.step`` screens, write ``--figure`` and ``--record``
    (:func:`readsim.app.render_args.render_outputs`), render the window to ``args.screenshot``.
    Any error told while loading (:func:`shown_errors`) or raised, in a slot or here, ends it:
    its message, exit 1, no picture. Raises ``KeyboardInterrupt`` between steps after Ctrl+C
    (:class:`Interrupt`)."""
    caught: list[str] = []
    previous = sys.excepthook
    sys.excepthook = lambda t, v, tb: caught.append("".join(traceback.format_exception(t, v, tb)))
    try:
        if not _loaded(app, window, args, interrupt):
            _error("timed out while loading")
            return 1
        if caught:
            _error("unexpected error while rendering:\n" + caught[0])
            return 1
        told = shown_errors(window)
        if told:  # a picture of something else than asked (another topic, no article) is no answer
            for text in told:
                _error(text)
            return 1
        code = _write_pictures(window, args, interrupt)
        if caught:
            _error("unexpected error while rendering:\n" + caught[0])
            return 1
        return code
    except Exception:  # noqa: BLE001 - a bug while rendering: its message, exit 1, never a traceback past main
        _error("unexpected error while rendering:\n" + traceback.format_exc())
        return 1
    finally:
        sys.excepthook = previous


def _loaded(app, window, args: argparse.Namespace, interrupt: Interrupt) -> bool:
    """Wait for the loads and the view's restore, step ``args.step`` screens, build and lay out
    the plots; False on timeout."""
    interrupt.check()
    # shown, but not repainted as each result arrives: painted once everything is in (below)
    window.setUpdatesEnabled(False)
    window.show()
    from .view_state import wait_restored

    idle = wait_idle() and wait_restored(window, SCREENSHOT_TIMEOUT_MS)
    interrupt.check()
    if not idle:
        return False
    session = window.session
    if session.current is not None and args.step:
        session.set_step(args.step)
    from .widgets.deferred import build_all

    build_all(window)  # the plots, if the loading ended before they were built
    window.setUpdatesEnabled(True)
    for _ in range(2):  # a paint sizes the plots' axes to their labels, the next turn lays them out
        app.processEvents()
    interrupt.check()
    return True


def _write_pictures(window, args: argparse.Namespace, interrupt: Interrupt) -> int:
    """Write ``--figure``, ``--record`` and ``--screenshot`` of the loaded ``window``: 0, or the
    exit status after one line (:func:`readsim.app.render_args.write_output`)."""
    code = render_outputs(window, args, _error)  # --figure, --record
    interrupt.check()
    if code or not args.screenshot:
        return code
    out = Path(args.screenshot)
    problem = screenshot_output(args)  # again: it may have changed while loading
    if problem:
        _error(problem)
        return 1
    from .export import export_widget

    # rendered in memory, then written atomically: a failure leaves any previous image intact;
    # a suffix other than .png or .svg (ValueError) is bad usage, 2
    code = write_output(out, lambda: export_widget(window, out), _error, value_code=2)
    if code:
        return code
    interrupt.check()
    return 0


def shown_errors(window) -> list[str]:
    """Every error the load told (the session's, then the window's own: a view's topic the run
    lacks, a failed background job), each once, in order."""
    out: list[str] = []
    for text in [*window.session.errors, *window.errors_shown]:
        if text not in out:
            out.append(text)
    return out


def _dialog_hook(window):
    """``sys.excepthook`` for the interactive window: a dialog with the traceback, not a crash."""

    def hook(etype, value, tb):
        from PySide6.QtWidgets import QMessageBox

        from .plain import message_box  # file text in the message: plain, never HTML

        if isinstance(value, (OSError, InputError)):  # about a file, not a bug: no traceback
            text = describe_os_error(value) if isinstance(value, OSError) else str(value)
            message_box(QMessageBox.Icon.Warning, "readsim", text, window).exec()
            return
        text = "".join(traceback.format_exception(etype, value, tb))
        if sys.__stderr__ is not None:
            sys.__stderr__.write(text)

        box = message_box(QMessageBox.Icon.Critical, "readsim: unexpected error", f"{etype.__name__}: {value}", window)
        box.setDetailedText(text)
        box.exec()

    return hook


if __name__ == "__main__":
    sys.exit(main())
