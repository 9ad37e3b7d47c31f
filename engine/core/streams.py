"""The standard streams and Ctrl+C of the two commands (docs/reference.md section 9.3).

Standard library only: the entry modules (:mod:`readsim.cli`, :mod:`app.main`) call
:func:`guard_start` on their first lines, before numpy, lxml or Qt are imported.

- A standard stream the caller closed (``readsim-eval ... >&-``, ``2>&-``, ``<&-``): its file
  descriptor is opened on ``/dev/null`` at once, so that no file readsim opens later takes
  descriptor 0, 1 or 2 (a library's stray message would otherwise land in it, for example in
  the temporary file of an atomic save). Python has already set ``sys.stdout`` (``stderr``,
  ``stdin``) to ``None`` for it; :func:`output` and :func:`errors` give the commands the stream
  to use instead: a closed standard output fails at the first write (``<stdout>: standard
  output is closed``, exit 1), a closed standard error drops what is written to it (the numbers
  still reach standard output).
- Ctrl+C (SIGINT) from the first line of the entry module until ``main`` starts ends the program
  at once with one line ``PROGRAM: interrupted`` on standard error and exit status 130
  (:data:`EXIT_INTERRUPTED`), instead of a ``KeyboardInterrupt`` traceback from inside an
  import. ``readsim-eval``'s ``main`` calls :func:`started`, after which Ctrl+C raises
  ``KeyboardInterrupt`` again and ``main`` turns it into the same line and status; the window
  keeps the guard until Qt runs and routes Ctrl+C into its event loop (``app.main.Interrupt``).
  When ``main`` has returned in the command itself, :func:`finished` ignores Ctrl+C while Python
  and Qt shut down: the work is done and its status stands. A SIGINT that arrives before Python
  runs the entry module's first line gets Python's own behaviour.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
import threading
from typing import TextIO

EXIT_INTERRUPTED = 130
_program: str | None = None  # the first entry module's (``readsim`` imports ``readsim-eval``'s)


def reopen_closed_fds() -> list[int]:
    """Open ``/dev/null`` on each of the descriptors 0, 1, 2 that is closed; the ones reopened."""
    closed = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
    for fd in closed:
        try:
            null = os.open(os.devnull, os.O_RDWR)
        except OSError:
            continue
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    return closed


def say_interrupted() -> None:
    """Write ``PROGRAM: interrupted`` on standard error (descriptor 2; nothing if that fails)."""
    try:
        os.write(2, f"{_program or 'readsim'}: interrupted\n".encode())
    except OSError:
        pass


def _quit_at_start(signum, frame) -> None:
    say_interrupted()
    os._exit(EXIT_INTERRUPTED)


def is_program() -> bool:
    """True when the interpreter runs one of readsim's commands (its ``__main__`` is a console
    script named ``readsim...``, or ``python -m readsim....``), not a program that imports
    readsim as a library (a test runner keeps its own Ctrl+C)."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    name = os.path.basename(getattr(main, "__file__", None) or "")
    return name.startswith("readsim") or (spec is not None and (spec.name or "").startswith("readsim."))


def guard_start(program: str) -> None:
    """Reopen closed standard descriptors and, in the command itself (:func:`is_program`), make
    Ctrl+C end the program quietly until :func:`started` (see the module). Does nothing to
    SIGINT outside the main thread or when something other than Python's default handler is
    installed."""
    global _program
    _program = _program or program
    reopen_closed_fds()
    if is_program() and threading.current_thread() is threading.main_thread() \
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _quit_at_start)


def started() -> None:
    """``main`` has started: Ctrl+C raises ``KeyboardInterrupt`` again (``main`` catches it)."""
    if threading.current_thread() is threading.main_thread() \
            and signal.getsignal(signal.SIGINT) is _quit_at_start:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def finished() -> None:
    """``main`` has returned: in the command itself (:func:`is_program`), ignore Ctrl+C from now
    on, while the interpreter and Qt shut down (Python gives SIGINT back to the system's default
    there, which would kill the process without a word)."""
    if is_program() and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


class ClosedOutput:
    """Stands for a standard output the caller closed: every write fails with ``EBADF``
    (``standard output is closed``); flushing nothing is fine."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class Discard:
    """Stands for a standard error the caller closed: what is written is dropped."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def output(stream=None):
    """``stream``, else ``sys.stdout``, or :class:`ClosedOutput` when that is closed (``None``)."""
    stream = stream if stream is not None else sys.stdout
    return stream if stream is not None else ClosedOutput()


def errors(stream=None):
    """``stream``, else ``sys.stderr``, or :class:`Discard` when that is closed (``None``)."""
    stream = stream if stream is not None else sys.stderr
    return stream if stream is not None else Discard()


def describe_os_error(exc: OSError, path: object = None) -> str:
    """``"path: reason"`` for an OS error (``"missing.run: No such file or directory"``); ``path``
    stands in when the error names no file."""
    where = exc.filename if exc.filename is not None else path
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename2 is not None:
        where = f"{where} -> {exc.filename2}"
    return f"{os.fsdecode(where) if isinstance(where, bytes) else where}: {reason}" if where is not None else reason


def silence(stream: TextIO | None) -> None:
    """After a write error on the real standard output, point it at /dev/null so the
    interpreter's final flush does not fail again (and print a traceback-like report)."""
    if stream is None or stream is not sys.__stdout__:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
