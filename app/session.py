"""The window's model: what is loaded and what is looked at (a QObject, no widgets).

:class:`Session` holds the qrels, the runs, the collection, the topics, the current topic,
its ranked list (:class:`~readsim.app.rows.RankedRow`), the open article
(:class:`~readsim.app.articles.ArticleState`), the reader's
:class:`~readsim.core.doc_evaluation.Settings`, the entry points the user set, the reading
position (a screen index) and the progress of a collection's index build (``indexing``, polled
by the window). It emits one signal per field it changes; widgets subscribe.

What it does not hold lives beside it, each with its threading contract in its docstring:
reading the input files and checking them against each other (:mod:`readsim.app.loading`),
scoring the topic's ranked list (:mod:`readsim.app.rows`), reading an article and the cache of
the last ones laid out (:mod:`readsim.app.articles`), and the topic's work held back while its
first article opens (:mod:`readsim.app.held_jobs`).

Threading contract: every method runs in the GUI thread and every signal is emitted there. All
file reading and all per-topic evaluation go through
:func:`~readsim.app.background.run_in_background` (the workers get plain data, never the
session); results of work that a newer request made stale are dropped (generation counters).
The reader's settings, entry points and screen are :mod:`readsim.app.reader_position`'s part of it.

Bad input never ends in a traceback: each file of a load is checked and read on its own; a file
that fails is reported as ``path: reason`` on ``error`` (the window's message box) while the
others are taken over. After every load the inputs are checked against each other in the
background; the warnings come on ``coverage_changed``.
"""

from __future__ import annotations

import dataclasses
import os

from PySide6.QtCore import QObject, Signal

from readsim.core.collection import Collection
from readsim.core.doc_evaluation import Settings
from readsim.core.formats import Qrels, Run, Topic
from readsim.core.units import unit_of

from . import rows as rw
from .article_loader import ArticleLoader
from .articles import ArticleState
from .background import Progress, input_error_text, run_in_background
from .held_jobs import HeldJobs
from .loading import CollectionNames, Loaded, check_inputs, describe, read_inputs, sample_files, remember
from .reader_position import ReaderPosition
from .rows import MODES, RankedRow

__all__ = ["MODES", "ArticleState", "Loaded", "RankedRow", "Session"]


class Session(ReaderPosition, QObject):
    """The loaded data and the reader's state. Signals (all in the GUI thread):

    - ``files_changed()``: qrels, runs, collection or topics replaced;
    - ``topic_changed(str)``; ``rows_changed()``: :attr:`rows` replaced (topic, run or mode);
    - ``article_changed()``: :attr:`current` replaced (may be None);
    - ``article_loading(name, percent)`` while article ``name`` loads: -1 while it is read and
      laid out in the worker, 0..100 while the view is built; -2 once the load ends (shown,
      failed or cancelled);
    - ``evaluation_changed()``: the open article's evaluation replaced (mode change);
    - ``settings_changed(object)``: :attr:`settings` (a ``Settings``) changed;
    - ``step_changed(int)``: the reading position (screen index) changed;
    - ``message(str)``: a status line; ``error(str)``: an error (``path: reason``, one per
      file that could not be read, or ``InputError`` text);
    - ``diagnostics(list)``: reader warnings (strings);
    - ``coverage_changed(list)``: :attr:`coverage` replaced: the ``Diagnostic`` warnings of
      :func:`readsim.core.coverage.check_coverage` on everything loaded (empty when the inputs
      fit together);
    - ``baselines_changed()``: :attr:`baselines` replaced (an edit made, undone or saved).
    """

    files_changed = Signal()
    topic_changed = Signal(str)
    rows_changed = Signal()
    article_changed = Signal()
    article_loading = Signal(str, int)
    evaluation_changed = Signal()
    settings_changed = Signal(object)
    step_changed = Signal(int)
    message = Signal(str)
    error = Signal(str)
    diagnostics = Signal(list)
    coverage_changed = Signal(list)
    baselines_changed = Signal()

    #: ``preparer(state, done, progress) -> cancel``: builds the view of a read article before it
    #: becomes :attr:`current` (the article panel's :class:`DocumentBuilder`), calling
    #: ``progress(percent)`` and then ``done()``; ``cancel()`` stops it. None: shown at once.
    article_preparer = None

    def __init__(self, unit: str | None = None, parent: QObject | None = None, segments: str | None = None) -> None:
        super().__init__(parent)
        #: the unit asked for (``--unit``, a view's), None: the collection's (reference 2.13)
        self.unit_option = unit
        #: the unit of the offsets shown: :attr:`unit_option`, else the open collection's, else bytes
        self.unit = unit_of(unit, None)
        #: the segment table (a path, docs/reference.md section 2.14) with which text runs are read
        #: as segment runs (``readsim --segments FILE``), or None
        self.segments = segments
        self.collection: Collection | None = None
        self.qrels: Qrels | None = None
        self.runs: list[Run] = []
        self.run: Run | None = None
        self.topics: dict[str, Topic] = {}
        self.topics_path: str | None = None  # the topics file read last (a saved view names it)
        self.topic: str | None = None
        self.rows: list[RankedRow] = []
        self.current: ArticleState | None = None
        self.settings = Settings()
        self.step = 0
        #: entry points set by the user (Alt+click in the text), by (topic, article), in the unit;
        #: they replace the run's entry point for that article in whatever run is shown
        self.entries: dict[tuple[str, str], int] = {}
        self.coverage: list = []  # Diagnostics: how the loaded inputs fit together
        #: (edited run, the same run before its unsaved edits) for each run with unsaved edits
        #: (kept by the passage editor, :mod:`readsim.app.editing`): what "before" values are of
        self.baselines: list[tuple[Run, Run]] = []
        self.errors: list[str] = []  # every error shown, for the --screenshot exit code
        #: the collection index being built (worker thread writes, GUI thread reads; Esc cancels)
        self.indexing: Progress | None = None
        self._last_error: tuple[int, str] | None = None  # (rows generation, text) of the last one
        self._names = CollectionNames()
        self._jobs = HeldJobs(self)
        self._articles = ArticleLoader(self, self._jobs)
        #: the last opened articles, parsed and laid out (re-opening one skips the worker's work)
        self.article_cache = self._articles.cache
        self._by_mode = rw.RowsByMode()
        self._coverage_gen = self._rows_gen = 0
        self._pending_article: str | None = None
        #: True while the topic's rows are being evaluated (:attr:`rows` is empty then)
        self._rows_pending = False
        #: (topic, article, article generation) of the article opened while the topic's rows
        #: were still being evaluated (see :meth:`set_topic`)
        self._early: tuple[str, str, int] | None = None

    # -- loading ------------------------------------------------------------------------
    def open_files(self, collection=None, qrels=None, runs=(), topics=None,
                   topic: str | None = None, article: str | None = None) -> None:
        """Read the given files in the background (each may be None,
        :func:`readsim.app.loading.read_inputs`), then show ``topic`` (default: the current one,
        else the run's first topic that ranks a relevant article the collection has) and
        ``article`` (default: the best-ranked relevant article the collection has). A file that
        cannot be read is reported on ``error`` as ``path: reason``; the others are taken over."""
        unit, runs, segments = self.unit_option, [str(r) for r in runs], self.segments
        known = (self.qrels, self.collection)  # the qrels take a collection's lengths in the worker
        indexing = self.indexing = Progress() if collection is not None else None

        def success(out: Loaded) -> None:
            if self.indexing is indexing:
                self.indexing = None
            if out.anything():
                self.adopt(out, topic, article, out.paths(collection, qrels, topics))
            for text in out.errors:
                self._fail(text)
            if indexing is not None and indexing.cancelled:
                self.message.emit(f"Indexing {collection} cancelled: the collection was not opened")

        def op() -> Loaded:
            return read_inputs(collection, qrels, runs, topics, unit, indexing, segments, known)

        self.message.emit("Loading…")
        run_in_background(self, op, success, self.worker_failed)

    def cancel_indexing(self) -> bool:
        """Stop the collection index build in progress (False if none, docs/reference.md section
        2.10): the worker stops at its next progress report, nothing is saved, the collection is
        not opened."""
        if self.indexing is None:
            return False
        self.indexing.cancelled = True
        self.message.emit("Indexing the collection: cancelling…")
        return True

    def adopt(self, out: Loaded, topic: str | None = None, article: str | None = None,
              paths: dict | None = None) -> None:
        """Take over loaded data (GUI thread), then show ``topic`` and ``article``
        (see :meth:`open_files`). ``paths`` (kind -> path) go to the recent files. Then the
        inputs are checked against each other in the background (``coverage_changed``). A run
        with no result line empties the ranked list and closes the article."""
        if out.collection is not None:
            self.collection = out.collection
            self.unit = unit_of(self.unit_option, out.collection)
        if out.qrels is not None:
            self.qrels = out.qrels
        if out.topics is not None:
            self.topics = out.topics
            self.topics_path = (paths or {}).get("topics")
        for run in out.runs:
            self.runs = [r for r in self.runs if r.path != run.path] + [run]
        remember(paths or {})
        if out.runs:
            self.run = out.runs[0]
        if out.diagnostics:
            self.diagnostics.emit(out.diagnostics)
        self.files_changed.emit()
        self.message.emit(describe(self.run, self.qrels, self.collection))
        self._pending_article = article
        if article is None and out.runs and out.collection is None and self.current is not None \
                and topic in (None, self.topic):
            self._pending_article = self.current.name  # a new run keeps the open article in view
        wanted = topic or self.topic
        if topic is not None and self.run is not None and topic not in self.run.topics:
            self._fail(f"topic {topic} is not in run {self.run.run_id} ({self.run.path})")
            wanted = None
        chosen = False
        if self.run is not None and (wanted is None or wanted not in self.run.topics):
            wanted = next(iter(self.run.topics), None)
            chosen = article is None
        if wanted is not None and chosen and self.collection is not None:
            self._choose_topic(wanted)
        elif wanted is not None:
            self.set_topic(wanted, force=True)
        elif out.runs and self.run is not None and not self.run.topics:  # an empty run: nothing to show
            self._pending_article = None
            self.topic = None
            self._rows_gen += 1
            self.rows = []
            self._rows_pending = False
            self.rows_changed.emit()
            self._articles.close()  # an article still loading for the previous run
            self.set_current(None)
        self._jobs.after(self.check_coverage)

    def _choose_topic(self, fallback: str) -> None:
        """Show the run's first topic that ranks an article the collection has (a relevant one
        if any topic does; else ``fallback``, the run's first topic), found in the background
        (:func:`readsim.app.rows.choose_topic`): opened without ``--topic``, the window then
        shows text, not an empty pane."""
        self._rows_gen += 1  # a topic chosen meanwhile (or a newer load) wins
        gen, run, coll, qrels = self._rows_gen, self.run, self.collection, self.qrels
        names = self._names.of(coll) or coll

        def success(topic: str) -> None:
            if gen == self._rows_gen and self.run is run:
                self.set_topic(topic, force=True)

        run_in_background(self, lambda: rw.choose_topic(run, names, qrels, fallback), success, self.worker_failed)

    def in_collection(self, topic: str) -> tuple[int, int] | None:
        """``(have, ranked)``: how many of the articles the run ranks for ``topic`` the
        collection holds; None without a run or collection, or while the collection's article
        names are still being listed (they come with ``coverage_changed``)."""
        return self._names.in_collection(self.run, self.collection, topic)

    def check_coverage(self) -> None:
        """Check the loaded qrels, runs and collection against each other in the background
        (:func:`readsim.app.loading.check_inputs`), then set :attr:`coverage` and emit
        ``coverage_changed``. The collection's article names are listed once per collection."""
        self._coverage_gen += 1
        gen = self._coverage_gen
        qrels, runs, coll = self.qrels, list(self.runs), self.collection
        known = self._names.of(coll)

        def success(result) -> None:
            names, diagnostics = result
            self._names.keep(coll, names)
            if gen == self._coverage_gen:
                self.coverage = diagnostics
                self.coverage_changed.emit(diagnostics)

        run_in_background(self, lambda: check_inputs(qrels, runs, coll, known), success, self.worker_failed)

    def open_sample(self) -> None:
        """Open the shipped sample (all its runs; the first shown). Reports a missing sample."""
        files, problem = sample_files()
        self.open_files(**files) if files is not None else self._fail(problem)

    def load(self, kind: str, path: str | os.PathLike) -> None:
        """Open one file of ``kind`` (``collection``, ``qrels``, ``run``, ``topics``)."""
        if kind == "run":
            self.open_files(runs=[path])
        else:
            self.open_files(**{kind: path})

    # -- run, topic, ranked list ---------------------------------------------------------
    def set_run(self, index: int) -> None:
        """Show run ``self.runs[index]`` (same topic if it has it)."""
        if 0 <= index < len(self.runs) and self.runs[index] is not self.run:
            self.run = self.runs[index]
            self.files_changed.emit()
            topic = self.topic if self.topic in self.run.topics else next(iter(self.run.topics), None)
            if topic is not None:
                if topic == self.topic and self.current is not None:
                    self._pending_article = self.current.name  # keep the open article (ranked or not)
                self.set_topic(topic, force=True)

    def topic_ids(self) -> list[str]:
        return list(self.run.topics) if self.run is not None else []

    def topic_title(self, topic: str) -> str:
        t = self.topics.get(topic)
        return t.title if t is not None else ""

    def set_topic(self, topic: str, force: bool = False) -> None:
        """Show ``topic``: its ranked list is evaluated in the background
        (:func:`readsim.app.rows.evaluate_rows`); meanwhile the article to show (the pending
        one, else the best-ranked relevant one the collection has, as
        :func:`~readsim.app.rows.default_article` picks it once the rows are there) is opened at
        once, scored on its own, so its text does not wait for the whole list (1,500 articles
        at INEX's largest)."""
        if self.run is None or (topic == self.topic and not force):
            return
        self.topic = topic
        self.rows, self._rows_pending = [], True  # the previous topic's rows are not this one's
        self.topic_changed.emit(topic)
        self._rows_gen += 1
        gen = self._rows_gen
        qrels, run, coll = self.qrels, self.run, self.collection
        entries = list(run.topics.get(topic, []))

        def success(result) -> None:
            if gen != self._rows_gen:
                return
            now = self.run.topics.get(topic, []) if self.run is not None else entries
            if len(now) != len(entries) or any(a is not b for a, b in zip(now, entries)):
                # the run was edited meanwhile (the passage editor, on the article shown first;
                # its first edit replaces the run by an editable copy sharing the other entries)
                if self.current is not None:
                    self._pending_article = self.current.name
                self.set_topic(topic, force=True)
                return
            rows, notes = result
            mode = self.settings.mode
            self.rows = rw.rows_in_mode([rw.with_user_entry(r, self.entries.get((topic, r.article))) for r in rows],
                                        mode)  # one batch
            self._rows_pending = False
            early, self._early = self._early, None
            self.rows_changed.emit()
            if notes:
                self.diagnostics.emit(notes)
            wanted, self._pending_article = self._pending_article, None
            if wanted is None:
                wanted = rw.default_article(self.rows)
            if wanted is None:
                self.set_current(None)
            elif early == (topic, wanted, self._articles.gen):  # opened early, nothing opened since
                cur = self.current
                if cur is not None and cur.name == wanted and self.loading_article() is None:
                    self.current = dataclasses.replace(cur, row=self.row_of(wanted))  # the same numbers
            else:
                self.open_article(wanted)

        def failed(exc: BaseException) -> None:
            if gen == self._rows_gen:
                self._rows_pending = False  # no rows for this topic: an empty list, told
                self.rows_changed.emit()
            self.worker_failed(exc)

        self.message.emit(f"Evaluating topic {topic} ({len(entries)} ranked articles)…")
        self._early = None
        if self._pending_article is not None or entries:
            self._jobs.hold()  # the article first: its text and scores do not share the processor
            if self._pending_article is not None:
                self._open_early(topic, self._pending_article)
            else:
                self._open_first_early(topic, gen)
        def start() -> None:
            run_in_background(self, lambda: rw.evaluate_rows(qrels, run, topic, entries, coll), success, failed)

        self._jobs.after(start)

    def _open_early(self, topic: str, name: str) -> None:
        self.open_article(name)
        self._early = (topic, name, self._articles.gen)

    def _open_first_early(self, topic: str, gen: int) -> None:
        """Open what the rows will pick (:func:`readsim.app.rows.first_article`, found in the
        background); if the rows pick another, that one opens when they come."""
        qrels, run, coll, held = self.qrels, self.run, self.collection, self._jobs.held

        def success(name: str | None) -> None:
            if gen == self._rows_gen and not self.rows_ready() and name is not None and self._pending_article is None:
                self._open_early(topic, name)
            else:
                self._jobs.release(held)

        def failed(exc: BaseException) -> None:
            self._jobs.release(held)
            self.worker_failed(exc)

        run_in_background(self, lambda: rw.first_article(qrels, run, topic, coll), success, failed)

    def rows_ready(self) -> bool:
        """Whether :attr:`rows` are the current topic's (False while they are evaluated: then
        :attr:`rows` is empty and the open article, if any, carries its own row)."""
        return not self._rows_pending

    def baseline(self, run: Run | None = None) -> Run | None:
        """``run`` (default: the shown run) as it was before its unsaved edits, or None when it
        has none (:attr:`baselines`)."""
        run = run or self.run
        return next((before for edited, before in self.baselines if edited is run), None)

    def row_of(self, article: str) -> RankedRow | None:
        for row in self.rows:
            if row.article == article:
                return row
        return None

    # -- the open article ----------------------------------------------------------------
    def open_article(self, name: str) -> None:
        """Open article ``name`` of the current topic (:class:`readsim.app.article_loader.ArticleLoader`):
        parse and layout in the background, then the view is prepared in slices
        (:attr:`article_preparer`), then :attr:`current` is replaced. Progress on
        ``article_loading`` and ``message``; :meth:`cancel_article_load` stops it and keeps the
        open article. An article in :attr:`article_cache` (the same Collection object) skips
        the worker's parse and layout, and hands the article panel the same Layout, whose built
        document it keeps too."""
        if self.topic is not None:
            self._articles.open(name)

    def cancel_article_load(self) -> bool:
        """Stop the article load in progress (False if none): the open article stays, and the
        status line says so."""
        return self._articles.cancel()

    def loading_article(self) -> str | None:
        """The article being loaded, or None."""
        return self._articles.loading()

    def set_current(self, state: ArticleState | None) -> None:
        """Show ``state`` (None: no article) from its first screen."""
        self.current = state
        self.step = 0
        self.article_changed.emit()
        self.step_changed.emit(0)

    # -- errors --------------------------------------------------------------------------
    def worker_failed(self, exc: BaseException) -> None:
        """A worker's exception: input errors (``InputError``, ``OSError`` as ``path: reason``,
        ``KeyError``, ``ValueError``) go to ``error``; anything else is a bug and is re-raised
        (the excepthook's traceback dialog, or pytest-qt)."""
        text = input_error_text(exc)
        if text is None and isinstance(exc, (KeyError, ValueError)):
            text = str(exc)
        if text is None:
            raise exc
        self._fail(text)

    def _fail(self, text: str) -> None:
        if (self._rows_gen, text) == self._last_error:  # the rows and the first article: told once
            return
        self._last_error = (self._rows_gen, text)
        self.errors.append(text)
        self.error.emit(text)
        self.message.emit(f"Error: {text}")
