"""The one path from the GUI to a worker thread and back: :func:`run_in_background`; the one
path for requests where only the latest result counts: :class:`LatestJob`; and the one
cancellation: :class:`Progress` (polled by the GUI thread, cancelled by it) and :class:`Cancelled`.

Modelled on Anki's ``QueryOp``: long work (reading a qrels file, a run, a collection,
evaluating a topic's ranked list, laying out an article) runs as ``op()`` in a
``QThreadPool`` thread; its result comes back to ``success(result)`` in the GUI thread, or its
exception to ``failure(exc)``. Nothing is swallowed: without a ``failure`` handler, an error
about the input (:class:`~readsim.core.errors.InputError`, ``OSError``) is emitted on
:attr:`Activity.failed` as ``path: reason`` (:func:`input_error_text`; the main window shows a
message box), and any other exception, a bug, goes to ``sys.excepthook`` with its traceback
(the window's traceback dialog).

Threading contract
------------------
- ``op`` runs in a worker thread. It must NOT touch widgets or any QObject of the GUI thread,
  nor emit their signals; it may read plain engine data (``Qrels``, ``Run``, ``Article``) and
  use a :class:`~readsim.core.collection.Collection` (thread-safe).
- ``success`` and ``failure`` run in the GUI thread, through a queued signal.
- If ``parent`` is deleted before the work ends, neither callback is called.
- Only the latest result counts for a :class:`LatestJob`: each :meth:`LatestJob.start` is a new
  generation, the previous job's :class:`Progress` is cancelled (its worker raises
  :class:`Cancelled` at its next :meth:`Progress.step`) and its callbacks are never called.
  Work stopped by its caller (a figure, a recording, a sweep) raises the same :class:`Cancelled`.
- :func:`activity` counts the jobs in flight (busy indicator; ``idle`` when the count drops to 0).
  The count drops *after* ``success`` returns, so work chained from ``success`` keeps it busy.
- Garbage is collected in the GUI thread only (:func:`collect_garbage_in_gui_thread`). Python's
  automatic collector runs in whichever thread happens to allocate; in a worker it would free
  Qt objects of the GUI thread there and deadlock against the GUI thread (seen under gdb: the
  worker holds a Qt lock waiting for the GIL, the GUI thread holds the GIL waiting for it).
  pyqtgraph's ``GarbageCollector`` does the same.
- A worker running Python code holds the GIL; each time the GUI thread needs it (every Python
  slot, every Python ``paintEvent``) it waits up to the interpreter's switch interval (5 ms by
  default) for the worker to let go. A window repaint runs dozens of Python paint methods, so
  while an article was parsed one repaint took 60-100 ms. :func:`run_in_background` lowers the
  switch interval to :data:`SWITCH_INTERVAL_S` (once, for the process).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from readsim.core.errors import InputError

GC_INTERVAL_MS = 1000
#: how long a thread keeps the GIL while another one waits for it (the GUI thread's wait per
#: Python call while a worker computes); Python's default is 5 ms
SWITCH_INTERVAL_S = 0.0005
_gc_timer: QTimer | None = None


def collect_garbage_in_gui_thread(interval_ms: int = GC_INTERVAL_MS) -> None:
    """Disable Python's automatic garbage collector and collect from a GUI-thread timer instead.

    Call once, in the GUI thread, after the ``QApplication`` exists (idempotent). Reference
    counting still frees most objects at once; only cycles wait for the timer. At the event
    loop's first turn (the window built by then) every object start-up made (modules, classes,
    widgets: they live as long as the window) is frozen out of the collector's sight
    (:func:`gc.freeze`), so that a full collection walks only what came later: over the whole
    start-up heap it took 100 to 300 ms, a freeze of the window whenever it fell due.
    """
    global _gc_timer
    if _gc_timer is not None:
        return
    gc.disable()
    _gc_timer = QTimer()
    _gc_timer.timeout.connect(_collect)
    _gc_timer.start(interval_ms)
    QTimer.singleShot(0, gc.freeze)


def _collect() -> None:
    """Collect the generations whose counts passed their thresholds (as the automatic collector)."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    if counts[0] > thresholds[0]:
        generation = 2 if counts[2] > thresholds[2] else 1 if counts[1] > thresholds[1] else 0
        gc.collect(generation)


def input_error_text(exc: BaseException) -> str | None:
    """``path: reason`` for an error about the input, None for anything else (a bug).

    :class:`InputError` as it prints (``file:line: reason``); an ``OSError`` as its file name
    and ``strerror`` (``/x/run.txt: No such file or directory``), never Python's
    ``[Errno 2] ...`` repr."""
    if isinstance(exc, InputError):
        return str(exc)
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc) or type(exc).__name__
        if exc.filename is not None:
            where = f"{exc.filename} -> {exc.filename2}" if exc.filename2 is not None else str(exc.filename)
            return f"{where}: {reason}"
        return reason
    return None


class Cancelled(Exception):
    """Work stopped because it was cancelled (Cancel, Esc) or a newer request made it stale: the
    app's one cancellation (:meth:`Progress.step`, figures, recordings, sweeps). Never an error
    to show; a :class:`LatestJob` drops it."""


class Progress:
    """Progress of one worker job, written by the worker, read by the GUI thread's timer.

    Plain attributes (a float and a str: each assignment is atomic under the GIL):
    :attr:`fraction` from 0 to 1, :attr:`text` what is being done; :attr:`cancelled` set by the
    GUI thread. :meth:`step` raises :class:`Cancelled` once cancelled."""

    def __init__(self) -> None:
        self.fraction = 0.0
        self.text = ""
        self.cancelled = False

    def step(self, fraction: float, text: str | None = None) -> None:
        if self.cancelled:
            raise Cancelled()
        self.fraction = min(max(float(fraction), 0.0), 1.0)
        if text is not None:
            self.text = text


class Activity(QObject):
    """Jobs in flight: ``changed(count)``, ``idle()`` when it drops to 0, ``failed(text)``
    for errors no caller handled."""

    changed = Signal(int)
    idle = Signal()
    failed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def _add(self, delta: int) -> None:
        self.count += delta
        self.changed.emit(self.count)
        if self.count == 0:
            self.idle.emit()


_activity: Activity | None = None
_live: set[_Relay] = set()


def activity() -> Activity:
    """The process-wide job counter (created in the GUI thread on first use)."""
    global _activity
    if _activity is None:
        _activity = Activity()
    return _activity


def report_failure(exc: BaseException) -> None:
    """What a job's error becomes when its caller has no ``failure`` handler: an input error is
    ``path: reason`` on :attr:`Activity.failed`, :class:`Cancelled` nothing, anything else (a
    bug) goes to ``sys.excepthook`` with its traceback."""
    if isinstance(exc, Cancelled):
        return
    if (text := input_error_text(exc)) is not None:
        activity().failed.emit(text)
    else:  # a bug: the traceback dialog (or the test's exception capture)
        sys.excepthook(type(exc), exc, exc.__traceback__)


class _Relay(QObject):
    """Lives in the GUI thread; the worker emits its signals, Qt queues them here."""

    done = Signal(object)
    failed = Signal(object)

    def __init__(self, parent_ref: QObject | None, op: Callable[[], Any], success: Callable[[Any], None],
                 failure: Callable[[BaseException], None] | None) -> None:
        super().__init__()
        self._parent_ref = parent_ref
        self._op = op  # called by the job (worker thread); here so that it is dropped in this thread
        self._success = success
        self._failure = failure
        self.done.connect(self._on_done)
        self.failed.connect(self._on_failed)

    def _alive(self) -> bool:
        return self._parent_ref is None or shiboken6.isValid(self._parent_ref)

    @Slot(object)
    def _on_done(self, result: object) -> None:
        try:
            if self._alive():
                self._success(result)
        finally:
            self._finish()

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        try:
            if self._alive():
                (self._failure or report_failure)(exc)  # type: ignore[arg-type]
        finally:
            self._finish()

    def _finish(self) -> None:
        # drop op and the callbacks here, in the GUI thread: PySide at times keeps a finished
        # job's Python object (and so this relay) alive for good, and their closures would keep
        # what they name (a window, its plots, a collection) alive with it
        self._op = self._success = self._failure = self._parent_ref = None
        _live.discard(self)
        activity()._add(-1)
        self.deleteLater()


class _Job(QRunnable):
    def __init__(self, relay: _Relay) -> None:
        super().__init__()
        self._relay = relay

    def run(self) -> None:  # worker thread: touch nothing but op and the relay's signals
        try:
            result = self._relay._op()
        except BaseException as exc:  # noqa: BLE001 - handed to the GUI thread, never lost
            self._relay.failed.emit(exc)
            return
        self._relay.done.emit(result)


def hold() -> Callable[[], None]:
    """Count one job in flight (:func:`activity`) until the returned function is called (once;
    later calls do nothing): work that will start a job later, so nothing looks idle meanwhile."""
    activity()._add(1)
    held = [True]

    def release() -> None:
        if held[0]:
            held[0] = False
            activity()._add(-1)

    return release


def run_in_background(
    parent: QObject | None,
    op: Callable[[], Any],
    success: Callable[[Any], None],
    failure: Callable[[BaseException], None] | None = None,
) -> None:
    """Run ``op()`` in a worker thread, then ``success(result)`` or ``failure(exc)`` in the GUI thread.

    Do not touch widgets inside ``op`` (see the module docstring). Must be called from the GUI
    thread. Returns at once; :func:`activity` reports the job as busy until its callback returns.
    """
    if sys.getswitchinterval() > SWITCH_INTERVAL_S:
        sys.setswitchinterval(SWITCH_INTERVAL_S)
    relay = _Relay(parent, op, success, failure)
    _live.add(relay)
    activity()._add(1)
    QThreadPool.globalInstance().start(_Job(relay))


class LatestJob:
    """Requests of one kind where only the latest result counts (a topic's rows, a sweep, a
    comparison). Each :meth:`start` is a new :attr:`generation`: the job running is cancelled
    (its :class:`Progress`) and its callbacks are dropped, so ``success`` and ``failure`` are
    called for the latest request only. :meth:`cancel` drops the running one without a new one
    (the request it answered is gone). :attr:`progress` is the running job's (None when none
    runs); ``changed()`` is called each time one starts or ends. Use from the GUI thread."""

    def __init__(self, parent: QObject | None, changed: Callable[[], None] | None = None) -> None:
        self._parent = parent
        self._changed = changed or (lambda: None)
        self.generation = 0
        self.progress: Progress | None = None

    def busy(self) -> bool:
        return self.progress is not None

    def is_latest(self, generation: int) -> bool:
        """True while ``generation`` (:meth:`start`'s) is the latest request."""
        return generation == self.generation

    def start(self, op: Callable[[Progress], Any], success: Callable[[Any], None],
              failure: Callable[[BaseException], None] | None = None) -> int:
        """Run ``op(progress)`` in a worker (:func:`run_in_background`; the job running is
        cancelled first), then, if no newer request came meanwhile, ``success(result)`` or
        ``failure(exc)`` (None: :func:`report_failure`) once :attr:`progress` is None again.
        Returns the request's generation."""
        self.cancel()
        gen = self.generation
        job = self.progress = Progress()
        self._changed()

        def done(callback: Callable[[Any], None]) -> Callable[[Any], None]:
            def call(value) -> None:
                if gen != self.generation:
                    return  # a newer request (or cancel) dropped this one
                self.progress = None
                self._changed()
                callback(value)
            return call

        run_in_background(self._parent, lambda: op(job), done(success), done(failure or report_failure))
        return gen

    def cancel(self) -> None:
        """Stop the running job (its worker stops at its next :meth:`Progress.step`) and drop its
        callbacks: a new generation. Does not call ``changed()``."""
        if self.progress is not None:
            self.progress.cancelled = True
            self.progress = None
        self.generation += 1
