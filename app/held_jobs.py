"""Work that waits for the article opened first: :class:`HeldJobs`.

When a topic is shown, its article opens first and the topic's other jobs (evaluating its
ranked list, checking the inputs against each other) wait until that article is shown, so its
text and scores do not share the processor with them; they wait at most
:data:`HOLD_LIMIT_MS`.

Threading contract: GUI thread only. A held job is a function that starts background work
(:func:`readsim.app.background.run_in_background`); while jobs are held they count as one job
in flight (:func:`readsim.app.background.hold`), so the window is not idle before them.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from .background import hold

#: ms: the longest the held jobs wait for the article opened first
HOLD_LIMIT_MS = 3000


class HeldJobs(QObject):
    """Jobs held back while an article opens (see the module docstring)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: (jobs, release of the activity count) while jobs are held, else None
        self.held: tuple[list[Callable[[], None]], Callable[[], None]] | None = None

    def hold(self) -> None:
        """Hold the jobs :meth:`after` is given until :meth:`release` (at most
        :data:`HOLD_LIMIT_MS`)."""
        if self.held is None:
            held = self.held = ([], hold())
            QTimer.singleShot(HOLD_LIMIT_MS, self, lambda: self.release(held))

    def after(self, start: Callable[[], None]) -> None:
        """``start()`` (which starts a job) now, or once the held jobs are released."""
        if self.held is None:
            start()
        else:
            self.held[0].append(start)

    def release(self, held=None) -> None:
        """Start the held jobs (``held``: only if those are still the ones held)."""
        held = held or self.held
        if held is None or held is not self.held:
            return
        self.held = None
        jobs, release = held
        try:
            for start in jobs:
                start()
        finally:
            release()
