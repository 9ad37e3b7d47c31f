"""Opening the session's articles: :class:`ArticleLoader`.

An article opens in three steps: it is parsed and laid out in a worker
(:func:`readsim.app.articles.read_article`; a hit in the :class:`~readsim.app.articles.ArticleCache`
skips that work), the view is prepared in slices by the session's ``article_preparer`` (the
article panel's document builder), then it becomes the session's current article. Progress goes
to the session's ``article_loading`` and ``message``; a newer open, :meth:`ArticleLoader.cancel`
or :meth:`ArticleLoader.close` drop the load in progress (generation counter), and the open
article stays shown until the new one is ready.

Threading contract: the loader lives in the GUI thread and only its ``read_article`` job runs in
a worker, with plain data copied from the session (never the session itself); it changes the
session through ``set_current`` and the session's signals, in the GUI thread only.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from .articles import ArticleCache, ArticleState, read_article
from .background import run_in_background
from .held_jobs import HeldJobs


class ArticleLoader(QObject):
    """Opens articles for ``session`` (a :class:`readsim.app.session.Session`), then releases
    ``jobs`` (the topic's work held back while its first article opens)."""

    def __init__(self, session, jobs: HeldJobs) -> None:
        super().__init__(session)
        self.session = session
        self.jobs = jobs
        self.cache = ArticleCache()
        self.gen = 0  # bumped by each open, cancel and close: older results are dropped
        self._loading: tuple[str, Callable[[], None] | None] | None = None  # (name, cancel the preparer)

    def loading(self) -> str | None:
        """The article being loaded, or None."""
        return self._loading[0] if self._loading is not None else None

    def open(self, name: str) -> None:
        """Open article ``name`` of the session's topic (see the module docstring)."""
        s = self.session
        self._drop(release=False)  # the work held for the article waits for this one
        self.gen += 1
        gen = self.gen
        self._loading = (name, None)
        s.article_loading.emit(name, -1)
        s.message.emit(f"Reading article {name}… (Esc cancels)")
        coll, qrels, topic, mode, run = s.collection, s.qrels, s.topic, s.settings.mode, s.run
        ready = s.rows_ready()
        row = s.row_of(name) if ready else None
        entry = run.article(topic, name) if not ready and run is not None else None
        point = s.entries.get((topic, name))
        cached = self.cache.get(coll, name)

        def done(state: ArticleState) -> None:
            if gen == self.gen:
                self._end(name, release=False)
                s.set_current(state)
                QTimer.singleShot(0, self, self.jobs.release)  # after the view's first paint is queued

        def progress(percent: int) -> None:
            if gen == self.gen:
                s.article_loading.emit(name, int(percent))
                s.message.emit(f"Laying out article {name}: {int(percent)}% (Esc cancels)")

        def success(state: ArticleState) -> None:
            if state.layout is not None and coll is not None:
                self.cache.keep(coll, name, state.article, state.layout)
            if gen != self.gen:
                return
            if state.layout is not None and s.article_preparer is not None:
                cancel = s.article_preparer(state, lambda: done(state), progress)
                if gen == self.gen and self._loading is not None:
                    self._loading = (name, cancel)
            else:
                done(state)

        def failed(exc: BaseException) -> None:
            if gen == self.gen:
                self._end(name)
            s.worker_failed(exc)

        def op() -> ArticleState:
            return read_article(name, topic, mode, coll, qrels, run, row, entry, point, cached)

        run_in_background(self, op, success, failed)

    def cancel(self) -> bool:
        """Stop the load in progress (False if none); the status line says so. The worker's
        parse cannot be interrupted; its result is dropped."""
        if self._loading is None:
            return False
        name = self._loading[0]
        self.close()
        current = self.session.current
        shown = f"still showing article {current.name}" if current is not None else "no article open"
        self.session.message.emit(f"Loading article {name} cancelled; {shown}")
        return True

    def close(self) -> None:
        """Drop the load in progress, if any, and every result still to come."""
        self._drop()
        self.gen += 1

    def _drop(self, release: bool = True) -> None:
        if self._loading is not None:
            name, cancel = self._loading
            if cancel is not None:
                cancel()
            self._end(name, release)

    def _end(self, name: str, release: bool = True) -> None:
        self._loading = None
        self.session.article_loading.emit(name, -2)
        if release:
            self.jobs.release()
