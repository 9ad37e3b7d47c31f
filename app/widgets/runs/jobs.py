"""Background work of the Runs window where only the newest request counts (a comparison, the
fidelity tables): :class:`LatestJob` runs it through :func:`readsim.app.background.run_in_background`
with a :class:`readsim.app.runs_model.Progress` the window's timer polls; a new request cancels
the one running, and the callbacks of a dropped request are never called.

Threading contract (the one of :mod:`readsim.app.background`): ``op(progress)`` runs in a worker
thread and touches no widget; it only writes the plain :class:`~readsim.app.runs_model.Progress`.
``success`` and ``failed`` run in the GUI thread. See docs/architecture.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject

from ... import runs_model as rm
from ...background import run_in_background


class LatestJob:
    """One kind of job, the newest only. :attr:`progress` is the running job's progress (None
    when none runs); ``changed()`` is called each time a job starts or ends."""

    def __init__(self, parent: QObject, changed: Callable[[], None]) -> None:
        self._parent = parent
        self._changed = changed
        self._gen = 0
        self.progress: rm.Progress | None = None

    def busy(self) -> bool:
        return self.progress is not None

    def start(self, op: Callable[[rm.Progress], Any], success: Callable[[Any], None],
              failed: Callable[[BaseException], None]) -> None:
        """Run ``op(progress)`` in the background (the job running is cancelled first), then
        ``success(result)`` or ``failed(exc)``, after :attr:`progress` is None again."""
        self.cancel()
        gen = self._gen
        job = self.progress = rm.Progress()
        self._changed()

        def done(callback: Callable[[Any], None]) -> Callable[[Any], None]:
            def call(value) -> None:
                if gen != self._gen:
                    return  # a newer request (or Cancel) dropped this one
                self.progress = None
                self._changed()
                callback(value)
            return call

        run_in_background(self._parent, lambda: op(job), done(success), done(failed))

    def cancel(self) -> None:
        """Stop the running job (its worker stops at its next step) and drop its callbacks; does
        not call ``changed()``."""
        if self.progress is not None:
            self.progress.cancelled = True
            self.progress = None
        self._gen += 1
