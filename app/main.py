"""``readsim``: the reading-order window.

    readsim [--sample]                        # the shipped sample
    readsim VIEW.readsim                      # a saved view (File ▸ Save view…)
    readsim --lesson NAME | --list-lessons    # a shipped lesson; the lessons, one a line
    readsim --collection DIR --qrels FILE --run FILE [--run FILE2] [--topics FILE]
            [--topic T] [--article A] [--unit bytes|chars]
            [--reading MODE --screen S --tolerance T --beta B] [--entry OFFSET]
            [--present]                         # presentation mode (View ▸ Presentation)
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
(:func:`readsim.app.files.freeze_settings`); the image is written atomically, only over a
regular file that is none of the inputs (:func:`readsim.engine.atomic.check_output`).
"""

from __future__ import annotations

from readsim.engine import streams  # first: Ctrl+C during the imports below is one line, exit 130

streams.guard_start("readsim")

import argparse  # this and every import below: after the start-up guard
import os
import signal
import sys
import traceback
from pathlib import Path

from readsim.engine.atomic import check_output
from readsim.engine.cli import EXIT_INTERRUPTED, describe_os_error, option, silence
from readsim.engine.coverage import check_input_path
from readsim.engine.errors import InputError
from readsim.engine.measure import parse_count, parse_real
from readsim.engine.reading import READING_MODES, Mode

from .display import choose_platform
from .render_args import (add_render_arguments, check_render_usage, check_render_values, headless, outputs, render_outputs,
                          render_size, write_output)
from .view_args import BETA_RANGE, MAX_SCREEN, OFFSET_RANGE, SCREEN_RANGE, STEP_RANGE

SCREENSHOT_TIMEOUT_MS = 120_000


def _screen(text: str) -> int:
    return parse_count(text, "S", *SCREEN_RANGE)


def _tolerance(text: str) -> int:
    return parse_count(text, "T", *SCREEN_RANGE)


def _beta(text: str) -> float:
    return parse_real(text, "B", *BETA_RANGE)


def _step(text: str) -> int:
    return parse_count(text, "K", *STEP_RANGE)


def _entry(text: str) -> int:
    return parse_count(text, "OFFSET", *OFFSET_RANGE)


READINGS = READING_MODES  # the window's (session.MODES)


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose help is written to standard output unguarded: a write error
    (a full device, a closed output, a closed pipe) reaches :func:`_main` as ``OSError`` instead
    of being dropped by argparse (:func:`_output_failed` tells it)."""

    def print_help(self, file=None) -> None:
        if file is not None:
            super().print_help(file)
            return
        out = streams.output()
        out.write(self.format_help())
        out.flush()


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="readsim",
                                usage="%(prog)s [VIEW.readsim | --sample | --lesson NAME | --collection DIR --qrels FILE "
                                "--run FILE ...] [options] (every option: readsim --help)",
                                description="Reading-order simulator for focused retrieval "
                                "(INEX Relevant in Context): read an article the way a run's matching chain leads.",
                                epilog="Exit status: 0 ok; 1 an input error while loading (with --screenshot) or an "
                                "OS error (path: reason: a missing, unreadable or wrong-kind path, the screenshot's folder "
                                "cannot be created, the image cannot be written, a screenshot path that is not a regular "
                                "file or is one of the inputs; no display, or a system library of Qt's platform missing), or a --figure or "
                                "--record that cannot be made (a bad range or width, a suffix it cannot write); 2 bad usage: "
                                "an option value out of range or options that do not go together (named in the message); "
                                "130 interrupted.")
    p.add_argument("view", nargs="?", metavar="VIEW.readsim", help="a saved view (File > Save view): its files, topic, "
                   "article, settings, step, edits and docks; options given with it win over its values")
    p.add_argument("--lesson", metavar="NAME", help="open a shipped lesson (its view and its steps beside the article)")
    p.add_argument("--list-lessons", action="store_true", help="print the shipped lessons, one a line (name, then "
                   "title, in columns), and exit")
    p.add_argument("--collection", metavar="DIR", help="the articles: a folder of XML files (flat or nested), or a .zip, "
                   ".tar, .tar.gz, .tar.bz2 or .tar.xz archive of them, or a folder of archives")
    p.add_argument("--qrels", metavar="FILE", help="FOL qrels")
    p.add_argument("--run", metavar="FILE", action="append", default=[], help="FOL run (repeat for several)")
    p.add_argument("--topics", metavar="FILE", help="INEX topic file (titles)")
    p.add_argument("--topic", metavar="T", help="topic to show (default: the run's first topic ranking a relevant article the collection has)")
    p.add_argument("--article", metavar="A", help="article to open (default: the best-ranked relevant one)")
    p.add_argument("--unit", choices=("bytes", "chars"), default=None, help="offset unit (default: bytes)")
    p.add_argument("--sample", action="store_true", help="open the shipped sample (default without files)")
    p.add_argument("--reading", choices=[m.value for m in READINGS], default=None,
                   help="reading mode (default natural); entry: each article from its entry point (a Best in "
                   "Context line's offset, else its first passage) to the end, then from the start")
    p.add_argument("--entry", type=option(_entry), default=None, metavar="OFFSET",
                   help="the opened article's entry point (in the unit), as if set by Alt+click in its text; "
                   "implies --reading entry")
    p.add_argument("--screen", type=option(_screen), default=None, metavar="S",
                   help=f"screen size in characters, 1 to {MAX_SCREEN:,} (default 300)")
    p.add_argument("--tolerance", type=option(_tolerance), default=None, metavar="T",
                   help=f"T2I tolerance in characters, 1 to {MAX_SCREEN:,} (default 300)")
    p.add_argument("--beta", type=option(_beta), default=None, metavar="B",
                   help="F-score beta, {:g} to {:g} (default 0.25)".format(*BETA_RANGE))
    p.add_argument("--present", action="store_true", help="open in presentation mode (View > Presentation): large "
                   "text, the article and the scores only, for a room or a projector; with --screenshot, a slide")
    p.add_argument("--screenshot", metavar="PNG", help="render the window offscreen to a .png or .svg file (its folder is created), written atomically, and exit")
    p.add_argument("--step", type=option(_step), default=None, metavar="K",
                   help="with --screenshot or --figure (only): screens read forward, 0 or more (default 0)")
    add_render_arguments(p)
    return p


def check_args(args: argparse.Namespace) -> list[str]:
    """Problems with the given paths (``path: reason``, exit 1, as ``readsim-eval``) and then
    with the options' combination (exit 2, see :func:`check_usage`), as messages."""
    return check_paths(args) + check_usage(args)


def check_paths(args: argparse.Namespace) -> list[str]:
    """Paths that cannot be read, as ``path: reason`` (empty if fine): exit 1, as
    ``readsim-eval`` (:func:`readsim.engine.coverage.check_input_path`, which opens nothing)."""
    out = []
    for kind, path in (("collection", args.collection), ("qrels", args.qrels), ("topics", args.topics),
                       *(("run", r) for r in args.run)):
        if path:
            try:
                check_input_path(path, kind)
            except InputError as exc:
                out.append(str(exc))
    return out


def check_usage(args: argparse.Namespace) -> list[str]:
    """Options that do not go together, or a screenshot that is not .png or .svg (empty if
    fine): bad usage, exit 2."""
    out = _empty_values(args)
    shot = Path(args.screenshot) if args.screenshot else None
    if shot is not None and not shot.is_dir() and shot.suffix.lower() not in (".png", ".svg"):
        out.append(f"--screenshot {args.screenshot}: the image must end in .png or .svg")
    out += check_render_usage(args)
    if args.step is not None and not (args.screenshot or args.figure):
        out.append("--step K goes with --screenshot or --figure (the screens read forward before the picture); "
                   "in the window, use the reader's controls")
    if args.entry is not None and args.reading not in (None, Mode.ENTRY.value):
        out.append(f"--entry sets the entry point of the entry reading mode: it does not go with --reading {args.reading}")
    opened = [name for name, given in (("a view", args.view is not None), ("--lesson", args.lesson is not None),
                                       ("--sample", args.sample),
                                       ("files", args.run or args.collection or args.qrels or args.topics)) if given]
    if (args.view is not None or args.lesson is not None) and len(opened) > 1:
        out.append(f"give one of a view, --lesson, --sample or files, not {' and '.join(opened)}")
    elif args.sample and (args.run or args.collection or args.qrels or args.topics):
        out.append("--sample opens the shipped sample: give it alone (its runs are in the Run box), or give files instead")
    elif (args.collection or args.qrels or args.topics) and not args.run:
        out.append("give at least one --run FILE with --collection/--qrels/--topics")
    return out


_NAMED = (("VIEW.readsim", "view", "a view file"), ("--collection", "collection", "a folder or an archive"),
          ("--qrels", "qrels", "a file"), ("--topics", "topics", "a file"), ("--topic", "topic", "a topic"),
          ("--article", "article", "an article"), ("--screenshot", "screenshot", "an image file"),
          ("--figure", "figure", "a file"), ("--record", "record", "a file"), ("--range", "range", "START:END"))


def _empty_values(args: argparse.Namespace) -> list[str]:
    """Options given an empty value (``--topic ''``, ``readsim ''``): bad usage, exit 2, rather
    than the option silently left out (the sample opened, the window shown instead of a
    screenshot). An empty ``--lesson`` is :func:`check_lesson`'s (it names the lessons)."""
    given = [(flag, getattr(args, name), what) for flag, name, what in _NAMED]
    given += [("--run", run, "a file") for run in args.run]
    return [f"{flag} {value!r}: give {what}, not an empty value" for flag, value, what in given
            if value is not None and not value.strip()]


def check_lesson(args: argparse.Namespace) -> list[str]:
    """An unknown or empty ``--lesson`` name (bad usage, exit 2); sets ``args.view`` to the
    lesson's view."""
    if args.lesson is None:
        return []
    from .lessons import find

    try:
        args.view = str(find(args.lesson).view)
    except LookupError as exc:
        return [f"--lesson {exc}"]
    return []


def check_view(args: argparse.Namespace) -> list[str]:
    """Read the view file (``args.view``) into ``args.view_data``; its problem as
    ``FILE: field NAME: reason`` (exit 1, :func:`readsim.app.view_file.read_view`)."""
    args.view_data = None
    if not args.view:
        return []
    from .view_file import ViewError, read_view

    try:
        args.view_data = read_view(args.view)
    except ViewError as exc:
        return [str(exc)]
    return []


def check_view_options(args: argparse.Namespace) -> list[str]:
    """The options given with a view win over its values (:func:`readsim.app.view_args.apply_to_view`);
    a ``--unit`` other than the view's is bad usage, exit 2."""
    from .view_args import apply_to_view

    return apply_to_view(args)


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
    :func:`readsim.engine.streams.guard_start`; a ``KeyboardInterrupt`` inside PySide's imports
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
    (:func:`screenshot_folder`, then :func:`readsim.engine.atomic.check_output` against every
    input); the problem as ``path: reason``, or None."""
    path = path or args.screenshot
    problem = screenshot_folder(path)
    if problem:
        return problem
    inputs = [("collection", args.collection), ("qrels", args.qrels), ("topics", args.topics),
              *(("run", r) for r in args.run)]
    view = getattr(args, "view_data", None)
    if view is not None:  # a view's (or lesson's) files, and the view file itself
        inputs += [("collection", view.collection), ("qrels", view.qrels), ("topics", view.topics),
                   *(("run", r) for r in view.runs), ("view", args.view)]
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
    from .files import freeze_settings, thaw_settings

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

    from .view_args import reader_settings, unit

    session = Session(unit=unit(args))
    session.set_settings(**reader_settings(args))  # with a view: the view's, and the options given over them
    window = MainWindow(session, show_dialogs=not headless(args), restore=not headless(args), defer_plots=True,
                        size=render_size(args) if headless(args) else None)
    session.setParent(window)
    start(session, window, args)
    if getattr(args, "present", False):
        window.presentation.set_on(True)  # after start: a view's or lesson's docks are closed too
    if headless(args):
        try:
            return screenshot(app, window, args, interrupt)
        finally:
            window.close()
            window.deleteLater()
            from .appearance import appearance

            appearance().reset()  # a picture's zoom (--present) is not the process's
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
    from readsim.engine.samples import sample

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
    for text in [*window.session.errors, *getattr(window, "errors_shown", [])]:
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
