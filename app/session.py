"""The window's model: what is loaded and what is looked at (a QObject, no widgets).

:class:`Session` holds the qrels, the runs, the collection, the topics, the current topic,
its ranked list (:class:`RankedRow`), the open article (:class:`ArticleState`), the reader's
:class:`~readsim.engine.document.Settings` and the reading position (a screen index). It emits
one signal per change; widgets subscribe. All file reading and all per-topic evaluation go
through :func:`~readsim.app.background.run_in_background`; results of work that a newer
request made stale are dropped (generation counters).

Bad input never ends in a traceback: each file of a load is checked (:func:`check_input_path`:
missing, a folder, a FIFO; :func:`_refuse_other_kind`: binary data, a qrels file opened as a
run and the reverse) and read on its own; a file that fails is reported as ``path: reason`` on
``error`` (the window's message box) while the others are taken over. After every load the
inputs are checked against each other (:func:`readsim.engine.coverage.check_coverage`: an
empty qrels file, run topics the qrels lack, articles the collection lacks, ...), in the
background; the warnings come on ``coverage_changed``.

Scores: a ranked article's evaluation is :func:`readsim.engine.batch.document` (doc_length from
the qrels, else from the article; retrieved passages clipped to the article when it is at
hand), computed once per topic in the natural mode and re-derived for another mode from its
pieces' inputs (:func:`with_mode`), so a control change never re-reads or re-lays out anything.
The ``entry`` mode reads each article from its entry point, which the natural evaluation
carries (``DocumentEvaluation.entry``): the run's (``RunArticle.entry_point``: a Best in Context
line's offset, else the first passage's start), or one the user set for the (topic, article)
(:meth:`Session.set_entry`, Alt+click in the text; :attr:`Session.entries`).
"""

from __future__ import annotations

import dataclasses
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from readsim.engine import intervals as iv
from readsim.engine.batch import Join, document
from readsim.engine.collection import Collection
from readsim.engine.coverage import check_coverage, check_input_path
from readsim.engine.document import DocumentEvaluation, Settings, evaluate_document, in_mode_many
from readsim.engine.errors import InputError
from readsim.engine.formats import Qrels, Run, RunArticle, Topic, read_any_run, read_qrels, read_topics
from readsim.engine.layout import Layout, layout
from readsim.engine.reading import Mode
from readsim.engine.text import Article

from .plain import amount
from . import marks as mk
from .background import hold, input_error_text, run_in_background
from .files import add_recent, sniff_kind
from .runs_model import Cancelled, Progress

MODES = (Mode.NATURAL, Mode.WORST, Mode.BEST, Mode.DOCUMENT, Mode.ENTRY)
#: parsed and laid-out articles kept by :meth:`Session.open_article` (the last opened ones):
#: re-opening one skips its layout in the worker (70 ms for the largest real article), and the
#: article panel finds the view's document it built from the same Layout object
ARTICLE_CACHE_SIZE = 4
#: ms: the longest the topic's other work (its rows, the coverage check) waits for the article
#: opened first (see :meth:`Session.set_topic`)
HOLD_LIMIT_MS = 3000


def with_mode(ev: DocumentEvaluation, mode: Mode | str) -> DocumentEvaluation:
    """``ev`` read in another mode: same relevant and retrieved passages and extent."""
    return ev.in_mode(mode)


@dataclass(frozen=True)
class RankedRow:
    """One ranked article of the topic: rank (1-based, run order), article id, title (the
    article's, or its id when the collection lacks it), whether the collection has it,
    relevance from the qrels (None without qrels), and its evaluation in the current mode."""

    rank: int
    article: str
    title: str
    in_collection: bool
    relevant: bool | None
    evaluation: DocumentEvaluation
    natural: DocumentEvaluation = field(repr=False, compare=False, default=None)  # type: ignore[assignment]

    def in_mode(self, mode: Mode) -> RankedRow:
        return dataclasses.replace(self, evaluation=with_mode(self.natural or self.evaluation, mode))


@dataclass(frozen=True)
class ArticleState:
    """The open article: its id, the parsed article and its layout (None when the collection
    lacks it; ``message`` then says why), its ranked row (None if the run does not rank it) and
    its evaluation in the current mode."""

    name: str
    article: Article | None
    layout: Layout | None
    row: RankedRow | None
    evaluation: DocumentEvaluation
    message: str = ""


@dataclass
class Loaded:
    """What one background load returned (plain data, built in the worker)."""

    collection: Collection | None = None
    qrels: Qrels | None = None
    runs: list[Run] = field(default_factory=list)
    topics: dict[str, Topic] | None = None
    diagnostics: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # ``path: reason`` of each file that failed

    def anything(self) -> bool:
        """True if at least one file was read."""
        return self.collection is not None or self.qrels is not None or bool(self.runs) or self.topics is not None


def index_collection(path: str | os.PathLike, unit: str, progress: Progress | None, out: Loaded) -> Collection | None:
    """Open the collection at ``path`` (worker thread), its index built with ``progress``
    (reference 2.10); why an index was rebuilt goes to ``out.diagnostics``. None when cancelled
    (said in ``out.diagnostics``)."""
    def report(done: int, total: int, what: str) -> None:
        progress.step(done / total if total else 0.0, f"{what}: {done * 100 // total}%" if total else f"{what}: {done:,}")

    try:
        collection = Collection(path, unit, progress=report if progress is not None else None)
        collection.listing()  # a folder is listed or indexed here, with the progress
    except Cancelled:
        out.diagnostics.append(f"{path}: indexing cancelled; the collection was not opened")
        return None
    out.diagnostics += collection.notes
    return collection


_LOOKS_LIKE = {
    "qrels": "a qrels file (topic Q0 file rel_size doc_length bep offset:length ...)",
    "run": "a run (topic Q0 file rank rsv run_id offset length)",
    "topics": "a topics file",
}


def _refuse_other_kind(path: str | os.PathLike, kind: str) -> None:
    """Raise :class:`InputError` if the file plainly holds something else than ``kind``:
    binary data (a NUL byte in its first 4 KiB), or (by its first line) a qrels file opened as
    a run, a run opened as qrels, ... (:func:`readsim.app.files.sniff_kind`). Unsure: no error,
    the reader decides."""
    seen, line = sniff_kind(path)
    if seen == "binary":
        raise InputError(path, line, f"binary data (a NUL byte), not a {kind} file")
    if seen is not None and seen != kind:
        raise InputError(path, line, f"this looks like {_LOOKS_LIKE[seen]}, not a {kind} file")


class Session(QObject):
    """The loaded data and the reader's state. Signals (all in the GUI thread):

    - ``files_changed()``: qrels, runs, collection or topics replaced;
    - ``topic_changed(str)``; ``rows_changed()``: :attr:`rows` replaced (topic, run or mode);
    - ``article_changed()``: :attr:`current` replaced (may be None);
    - ``evaluation_changed()``: the open article's evaluation replaced (mode change);
    - ``settings_changed(object)``: :attr:`settings` (a ``Settings``) changed;
    - ``step_changed(int)``: the reading position (screen index) changed;
    - ``message(str)``: a status line; ``error(str)``: an error (``path: reason``, one per
      file that could not be read, or ``InputError`` text);
    - ``diagnostics(list)``: reader warnings (strings);
    - ``coverage_changed(list)``: :attr:`coverage` replaced: the :class:`Diagnostic` warnings
      of :func:`check_coverage` on everything loaded (empty when the inputs fit together).
    """

    files_changed = Signal()
    topic_changed = Signal(str)
    rows_changed = Signal()
    article_changed = Signal()
    evaluation_changed = Signal()
    settings_changed = Signal(object)
    step_changed = Signal(int)
    message = Signal(str)
    error = Signal(str)
    diagnostics = Signal(list)
    coverage_changed = Signal(list)

    def __init__(self, unit: str = "bytes", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.unit = unit
        self.collection: Collection | None = None
        self.qrels: Qrels | None = None
        self.runs: list[Run] = []
        self.run: Run | None = None
        self.topics: dict[str, Topic] = {}
        self.topic: str | None = None
        self.rows: list[RankedRow] = []
        self.current: ArticleState | None = None
        self.settings = Settings()
        self.step = 0
        self.errors: list[str] = []  # every error shown, for the --screenshot exit code
        self._last_error: tuple[int, str] | None = None  # (rows generation, text) of the last one
        self.coverage: list = []  # Diagnostics: how the loaded inputs fit together
        self._coverage_gen = 0
        self._names: tuple[Collection, frozenset[str]] | None = None  # the collection's article names
        self._pending_article: str | None = None
        #: True while the topic's rows are being evaluated (:attr:`rows` is empty then)
        self._rows_pending = False
        #: (topic, article, article generation) of the article opened while the topic's rows
        #: were still being evaluated (see :meth:`set_topic`)
        self._early: tuple[str, str, int] | None = None
        #: (jobs, release): work held back while the first article of a topic opens
        self._held: tuple[list, object] | None = None
        self._rows_gen = 0
        self._mode_rows: dict[Mode, list[RankedRow]] = {}  # rows per mode seen (see _rows_in_mode)
        self._article_gen = 0
        #: entry points set by the user (Alt+click in the text), by (topic, article), in the unit;
        #: they replace the run's entry point for that article in whatever run is shown
        self.entries: dict[tuple[str, str], int] = {}
        #: article name -> (collection, Article, Layout) of the last opened articles, most recent
        #: last (GUI thread only; an entry of another collection object is a miss)
        self._article_cache: OrderedDict[str, tuple[Collection, Article, Layout]] = OrderedDict()
        self.article_cache_hits = 0  # re-opens served from the cache (tests, the bench)

    # -- loading ------------------------------------------------------------------------
    def open_files(self, collection=None, qrels=None, runs=(), topics=None,
                   topic: str | None = None, article: str | None = None) -> None:
        """Read the given files in the background (each may be None), then show ``topic``
        (default: the current one, else the run's first topic that ranks a relevant article the
        collection has, see :meth:`_choose_topic`) and ``article`` (default: the best-ranked
        relevant article the collection has).

        Each file is read on its own: one that cannot be read (missing, a folder, a FIFO, not
        UTF-8, another kind of file, a bad line) is reported on ``error`` as ``path: reason``
        (``file:line: reason``) and the files that could be read are taken over."""
        unit = self.unit
        runs = [str(r) for r in runs]

        def op() -> Loaded:
            out = Loaded()

            def attempt(kind, path, read):
                try:
                    check_input_path(path, kind)
                    if kind != "collection":
                        _refuse_other_kind(path, kind)
                    return read(path)
                except (InputError, OSError) as err:
                    out.errors.append(input_error_text(err) or str(err))
                    return None

            if collection is not None:
                out.collection = attempt("collection", collection, lambda p: index_collection(p, unit, indexing, out))
            if qrels is not None:
                out.qrels = attempt("qrels", qrels, read_qrels)
                if out.qrels is not None:
                    out.diagnostics += [str(d) for d in out.qrels.diagnostics]
            for path in runs:
                run = attempt("run", path, read_any_run)
                if run is not None:
                    out.runs.append(run)
                    out.diagnostics += [str(d) for d in run.diagnostics]
            if topics is not None:
                out.topics = attempt("topics", topics, read_topics)
            return out

        def success(out: Loaded) -> None:
            if out.anything():
                paths = {"collection": collection if out.collection is not None else None,
                         "qrels": qrels if out.qrels is not None else None,
                         "topics": topics if out.topics is not None else None,
                         "runs": [r.path for r in out.runs]}
                self.adopt(out, topic, article, paths)
            for text in out.errors:
                self._fail(text)

        indexing = self.indexing = Progress() if collection is not None else None

        def done(out: Loaded) -> None:
            if self.indexing is indexing:
                self.indexing = None
            success(out)
            if indexing is not None and indexing.cancelled:
                self.message.emit(f"Indexing {collection} cancelled: the collection was not opened")

        self.message.emit("Loading…")
        run_in_background(self, op, done, self._failed)

    def adopt(self, out: Loaded, topic: str | None = None, article: str | None = None,
              paths: dict | None = None) -> None:
        """Take over loaded data (GUI thread), then show ``topic`` and ``article``
        (see :meth:`open_files`). ``paths`` (kind -> path) go to the recent files. Then the
        inputs are checked against each other in the background (``coverage_changed``). A run
        with no result line empties the ranked list and closes the article."""
        paths = paths or {}
        if out.collection is not None:
            self.collection = out.collection
        if out.qrels is not None:
            self.qrels = out.qrels
        if out.topics is not None:
            self.topics = out.topics
        for run in out.runs:
            self.runs = [r for r in self.runs if r.path != run.path] + [run]
        for kind in ("collection", "qrels", "topics"):
            if paths.get(kind) is not None:
                add_recent(kind, paths[kind])
        for path in paths.get("runs", ()):
            add_recent("run", path)
        if out.runs:
            self.run = out.runs[0]
        if out.diagnostics:
            self.diagnostics.emit(out.diagnostics)
        self.files_changed.emit()
        self.message.emit(self.describe())
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
            if self._loading is not None:
                self._drop_article_load()  # an article still loading for the previous run
            self._article_gen += 1
            self._set_current(None)
        self._after_article(self.check_coverage)

    def _choose_topic(self, fallback: str) -> None:
        """Show the run's first topic that ranks an article the collection has (a relevant one
        if any topic does; else ``fallback``, the run's first topic), found in the background:
        opened without ``--topic``, the window then shows text, not an empty pane."""
        self._rows_gen += 1  # a topic chosen meanwhile (or a newer load) wins
        gen, run, coll, qrels = self._rows_gen, self.run, self.collection, self.qrels
        known = self._names[1] if self._names is not None and self._names[0] is coll else None

        def op() -> str:
            has = known.__contains__ if known is not None else coll.__contains__
            some = None
            for t, entries in run.topics.items():
                for e in entries:
                    if has(e.article):
                        if qrels is None or qrels.judgement(t, e.article) is not None:
                            return t
                        some = some or t
            return some or fallback

        def success(topic: str) -> None:
            if gen == self._rows_gen and self.run is run:
                self.set_topic(topic, force=True)

        run_in_background(self, op, success, self._failed)

    def in_collection(self, topic: str) -> tuple[int, int] | None:
        """``(have, ranked)``: how many of the articles the run ranks for ``topic`` the
        collection holds; None without a run or collection, or while the collection's article
        names are still being listed (they come with ``coverage_changed``)."""
        if self.run is None or self.collection is None or self._names is None or self._names[0] is not self.collection:
            return None
        names = self._names[1]
        ranked = self.run.article_names(topic)  # from the run's columns: no RunArticle built
        return sum(a in names for a in ranked), len(ranked)

    def check_coverage(self) -> None:
        """Check the loaded qrels, runs and collection against each other in the background
        (:func:`check_coverage`), then set :attr:`coverage` and emit ``coverage_changed``. The
        collection's article names are listed once per collection."""
        self._coverage_gen += 1
        gen = self._coverage_gen
        qrels, runs, coll = self.qrels, list(self.runs), self.collection
        known = self._names[1] if self._names is not None and self._names[0] is coll else None

        def op():
            names = known if known is not None or coll is None else frozenset(coll.names())
            return names, check_coverage(qrels, runs, coll, names=names)

        def success(result) -> None:
            names, diagnostics = result
            if coll is not None:
                self._names = (coll, names)
            if gen == self._coverage_gen:
                self.coverage = diagnostics
                self.coverage_changed.emit(diagnostics)

        run_in_background(self, op, success, self._failed)

    def open_sample(self) -> None:
        """Open the shipped sample (all its runs; the first shown). Reports a missing sample."""
        from readsim.engine.samples import sample

        s = sample()
        if not (s.collection.is_dir() and s.qrels.is_file() and s.runs):
            self._fail(f"the shipped sample is missing or incomplete ({s.collection.parent})")
            return
        self.open_files(s.collection, s.qrels, s.runs, s.topics if s.topics.is_file() else None, s.topic)

    def load(self, kind: str, path: str | os.PathLike) -> None:
        """Open one file of ``kind`` (``collection``, ``qrels``, ``run``, ``topics``)."""
        if kind == "run":
            self.open_files(runs=[path])
        else:
            self.open_files(**{kind: path})

    def describe(self) -> str:
        parts = []
        if self.run is not None:
            parts.append(f"run {self.run.run_id} ({Path(self.run.path).name}, {len(self.run.topics)} topics)")
        if self.qrels is not None:
            parts.append(f"qrels {Path(self.qrels.path).name} ({len(self.qrels.topics)} topics)")
        if self.collection is not None:
            parts.append(f"collection {self.collection.root}")
        return "Loaded " + "; ".join(parts) if parts else "Nothing loaded"

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
        """Show ``topic``: its ranked list is evaluated in the background; meanwhile the article
        to show (the pending one, else the best-ranked relevant one the collection has, as
        :meth:`_default_article` picks it once the rows are there) is opened at once, scored on
        its own, so its text does not wait for the whole list (1,500 articles at INEX's largest)."""
        if self.run is None or (topic == self.topic and not force):
            return
        self.topic = topic
        self.rows, self._rows_pending = [], True  # the previous topic's rows are not this one's
        self.topic_changed.emit(topic)
        self._rows_gen += 1
        gen = self._rows_gen
        qrels, run, coll = self.qrels or Qrels(""), self.run, self.collection
        entries = list(run.topics.get(topic, []))
        judged = self.qrels is not None

        def op():
            join = Join()
            rows, notes = [], []
            for entry in entries:
                rows.append(_ranked_row(qrels, run, topic, entry, coll, join, judged, notes))
            return rows, notes + [str(d) for d in join.diagnostics]

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
            self.rows = [self._user_entry(topic, r).in_mode(mode) for r in rows]
            self._rows_pending = False
            early, self._early = self._early, None
            self.rows_changed.emit()
            if notes:
                self.diagnostics.emit(notes)
            wanted = self._pending_article
            self._pending_article = None
            if wanted is None:
                wanted = self._default_article()
            if wanted is None:
                self._set_current(None)
            elif early == (topic, wanted, self._article_gen):  # opened early, nothing opened since
                cur = self.current
                if cur is not None and cur.name == wanted and self.loading_article() is None:
                    self.current = dataclasses.replace(cur, row=self.row_of(wanted))  # the same numbers
            else:
                self.open_article(wanted)

        def failed(exc: BaseException) -> None:
            if gen == self._rows_gen:
                self._rows_pending = False  # no rows for this topic: an empty list, told
                self.rows_changed.emit()
            self._failed(exc)

        self.message.emit(f"Evaluating topic {topic} ({len(entries)} ranked articles)…")
        self._early = None
        if self._pending_article is not None or entries:
            self._hold_jobs()  # the article first: its text and scores do not share the processor
            if self._pending_article is not None:
                self._open_early(topic, self._pending_article)
            else:
                self._open_default_early(topic, gen)
        self._after_article(lambda: run_in_background(self, op, success, failed))

    # -- work that waits for the article opened first -----------------------------------
    def _hold_jobs(self) -> None:
        """Hold the jobs :meth:`_after_article` is given until the article being opened is shown
        (or fails, is cancelled or replaced), at most :data:`HOLD_LIMIT_MS`; counted as in flight
        meanwhile, so the window is not idle before them."""
        if self._held is None:
            held = self._held = ([], hold())
            QTimer.singleShot(HOLD_LIMIT_MS, self, lambda: self._release_jobs(held))

    def _after_article(self, start) -> None:
        """``start()`` (which starts a job) now, or once the held jobs are released."""
        if self._held is None:
            start()
        else:
            self._held[0].append(start)

    def _release_jobs(self, held=None) -> None:
        """Start the held jobs (``held``: only if those are still the ones held)."""
        held = held or self._held
        if held is None or held is not self._held:
            return
        self._held = None
        jobs, release = held
        try:
            for start in jobs:
                start()
        finally:
            release()

    def _open_early(self, topic: str, name: str) -> None:
        self.open_article(name)
        self._early = (topic, name, self._article_gen)

    def _open_default_early(self, topic: str, gen: int) -> None:
        """Open what :meth:`_default_article` will pick, found from the qrels, the run and the
        collection's file names alone (in the background: a name the collection lacks lists
        its folder). The rows may still pick another (a relevant passage that lies past the
        article's end): then that one opens when they come."""
        qrels, run, coll, held = self.qrels, self.run, self.collection, self._held

        def op() -> str | None:
            names = run.article_names(topic)
            have = [coll is not None and a in coll for a in names]
            judged = qrels.topics.get(topic, {}) if qrels is not None else {}
            for i, a in enumerate(names):
                j = judged.get(a)
                if have[i] and j is not None and j.relevant:
                    return a
            return next((a for a, h in zip(names, have) if h), names[0] if names else None)

        def success(name: str | None) -> None:
            if gen == self._rows_gen and not self.rows_ready() and name is not None and self._pending_article is None:
                self._open_early(topic, name)
            else:
                self._release_jobs(held)

        def failed(exc: BaseException) -> None:
            self._release_jobs(held)
            self._failed(exc)

        run_in_background(self, op, success, failed)

    def _default_article(self) -> str | None:
        """The best-ranked relevant article the collection has, else the best-ranked article it
        has, else the run's first."""
        for pick in (lambda r: r.relevant and r.in_collection, lambda r: r.in_collection, lambda r: True):
            for row in self.rows:
                if pick(row):
                    return row.article
        return None

    def rows_ready(self) -> bool:
        """Whether :attr:`rows` are the current topic's (False while they are evaluated: then
        :attr:`rows` is empty and the open article, if any, carries its own row)."""
        return not self._rows_pending

    def row_of(self, article: str) -> RankedRow | None:
        for row in self.rows:
            if row.article == article:
                return row
        return None

    # -- the open article ----------------------------------------------------------------
    #: ``article_loading(name, percent)`` while article ``name`` loads: -1 while it is read
    #: and laid out in the worker, 0..100 while the view is built; -2 once the load ends
    #: (shown, failed or cancelled)
    article_loading = Signal(str, int)
    #: ``preparer(state, done, progress) -> cancel``: builds the view of a read article before it
    #: becomes :attr:`current` (the article panel's :class:`DocumentBuilder`), calling
    #: ``progress(percent)`` and then ``done()``; ``cancel()`` stops it. None: shown at once.
    article_preparer = None
    _loading: tuple[str, object] | None = None  # (name, cancel of the preparer or None)
    #: the collection index being built (worker thread writes, GUI thread reads; Esc cancels)
    indexing: Progress | None = None

    def open_article(self, name: str) -> None:
        """Open article ``name`` of the current topic: parse and layout in the background, then
        the view is prepared in slices (:attr:`article_preparer`), then :attr:`current` is
        replaced. Progress on ``article_loading`` and ``message``; :meth:`cancel_article_load`
        stops it and keeps the open article. The last :data:`ARTICLE_CACHE_SIZE` articles opened
        from the same Collection object are kept parsed and laid out: re-opening one skips the
        worker's parse and layout (and hands the article panel the same Layout, whose built
        document it keeps too)."""
        if self.topic is None:
            return
        self._drop_article_load(release=False)  # the work held for the article waits for this one
        self._article_gen += 1
        gen = self._article_gen
        self._loading = (name, None)
        self.article_loading.emit(name, -1)
        self.message.emit(f"Reading article {name}… (Esc cancels)")
        coll, qrels, topic, mode, run = self.collection, self.qrels, self.topic, self.settings.mode, self.run
        ready = self.rows_ready()
        row = self.row_of(name) if ready else None
        entry = run.article(topic, name) if not ready and run is not None else None
        point = self.entries.get((topic, name))
        user_entry = point or 0
        cached = self._cached_article(coll, name)

        def op() -> ArticleState:
            nonlocal row
            if entry is not None:  # the topic's rows are still being evaluated: this one's own
                own = _ranked_row(qrels or Qrels(""), run, topic, entry, coll, Join(), qrels is not None, [])
                row = _with_user_entry(own, point).in_mode(mode)
            article = lay = None
            message = ""
            if cached is not None:
                article, lay = cached
            elif coll is not None and name in coll:
                article = coll.article(name)
                lay = layout(article)
            else:
                where = (f"No collection is open: article {name} has no text to show" if coll is None
                         else f"Article {name} is not in the collection (folder {coll.root}): no text to show")
                whence = "the qrels and the run" if row is not None else "the qrels (the run does not rank it)"
                message = f"{where}. Its scores come from {whence}."
            if row is not None:
                ev = row.evaluation
            else:  # not ranked by the run for this topic: nothing retrieved
                j = qrels.judgement(topic, name) if qrels is not None else None
                length = j.doc_length if j is not None else (article.doc_length if article is not None else 0)
                rel = j.passages if j is not None else iv.EMPTY
                ev = evaluate_document(rel, iv.EMPTY, length, mode, user_entry)
            return ArticleState(name, article, lay, row, ev, message)

        def done(state: ArticleState) -> None:
            if gen == self._article_gen:
                self._end_article_load(name, release=False)
                self._set_current(state)
                QTimer.singleShot(0, self, self._release_jobs)  # after the view's first paint is queued

        def progress(percent: int) -> None:
            if gen == self._article_gen:
                self.article_loading.emit(name, int(percent))
                self.message.emit(f"Laying out article {name}: {int(percent)}% (Esc cancels)")

        def success(state: ArticleState) -> None:
            if state.layout is not None and coll is not None:
                self._keep_article(coll, name, state.article, state.layout)
            if gen != self._article_gen:
                return
            if state.layout is not None and self.article_preparer is not None:
                cancel = self.article_preparer(state, lambda: done(state), progress)
                if gen == self._article_gen and self._loading is not None:
                    self._loading = (name, cancel)
            else:
                done(state)

        def failed(exc: BaseException) -> None:
            if gen == self._article_gen:
                self._end_article_load(name)
            self._failed(exc)

        run_in_background(self, op, success, failed)

    def _cached_article(self, coll: Collection | None, name: str) -> tuple[Article, Layout] | None:
        """``(article, layout)`` of ``name`` in ``coll`` if opened lately (a hit), else None."""
        hit = self._article_cache.get(name)
        if hit is None or coll is None or hit[0] is not coll:
            return None
        self._article_cache.move_to_end(name)
        self.article_cache_hits += 1
        return hit[1], hit[2]

    def _keep_article(self, coll: Collection, name: str, article: Article, lay: Layout) -> None:
        self._article_cache[name] = (coll, article, lay)
        self._article_cache.move_to_end(name)
        while len(self._article_cache) > ARTICLE_CACHE_SIZE:
            self._article_cache.popitem(last=False)

    def cancel_article_load(self) -> bool:
        """Stop the article load in progress (False if none): the open article stays, and the
        status line says so. The worker's parse cannot be interrupted; its result is dropped."""
        if self._loading is None:
            return False
        name = self._loading[0]
        self._drop_article_load()
        self._article_gen += 1
        shown = f"still showing article {self.current.name}" if self.current is not None else "no article open"
        self.message.emit(f"Loading article {name} cancelled; {shown}")
        return True

    def cancel_indexing(self) -> bool:
        """Stop the collection index build in progress (False if none, reference 2.10): the
        worker stops at its next progress report, nothing is saved, the collection is not opened."""
        if self.indexing is None:
            return False
        self.indexing.cancelled = True
        self.message.emit("Indexing the collection: cancelling…")
        return True

    def loading_article(self) -> str | None:
        """The article being loaded, or None."""
        return self._loading[0] if self._loading is not None else None

    def _drop_article_load(self, release: bool = True) -> None:
        if self._loading is not None:
            name, cancel = self._loading
            if cancel is not None:
                cancel()
            self._end_article_load(name, release)

    def _end_article_load(self, name: str, release: bool = True) -> None:
        self._loading = None
        self.article_loading.emit(name, -2)
        if release:
            self._release_jobs()

    def _set_current(self, state: ArticleState | None) -> None:
        self.current = state
        self.step = 0
        self.article_changed.emit()
        self.step_changed.emit(0)

    # -- settings and reading position ---------------------------------------------------
    def set_settings(self, **changes) -> None:
        """Change reader settings (``mode``, ``screen``, ``tolerance``, ``beta``, ...).

        A mode change re-derives every evaluation's pieces; other changes only rescore."""
        if "mode" in changes:
            changes["mode"] = Mode(changes["mode"])
        new = dataclasses.replace(self.settings, **changes)
        if new == self.settings:
            return
        old, self.settings = self.settings, new
        if new.mode is not old.mode:
            if self.rows_ready():
                self.rows = self._rows_in_mode(old.mode, new.mode)
                self.rows_changed.emit()
            if self.current is not None:
                ev = with_mode(self.current.row.natural if self.current.row else self.current.evaluation, new.mode)
                row = self.current.row and (self.row_of(self.current.name) if self.rows_ready()
                                            else self.current.row.in_mode(new.mode))
                self.current = dataclasses.replace(self.current, evaluation=ev, row=row)
                self.evaluation_changed.emit()
        self.settings_changed.emit(new)
        self._clamp_step()

    # -- the entry point (the ``entry`` reading mode) ---------------------------------------
    def _user_entry(self, topic: str, row: RankedRow) -> RankedRow:
        """``row`` with the entry point the user set for it, if any (its natural evaluation
        carries the entry point every mode is derived with)."""
        return _with_user_entry(row, self.entries.get((topic, row.article)))

    def run_entry(self, name: str) -> int:
        """The run's entry point of article ``name`` in the current topic (the Best in Context
        line's offset, else the first retrieved passage's start, 0 for a whole article); 0 when
        the run does not rank it."""
        entry = self.run.article(self.topic, name) if self.run is not None and self.topic is not None else None
        if entry is None:
            return 0
        point = entry.entry_point
        if point is None:  # XPaths or XPointers only: the first resolved passage
            row = self.row_of(name)
            ret = (row.natural or row.evaluation).retrieved if row is not None else None
            point = int(ret[0, 0]) if ret is not None and len(ret) else 0
        return int(point)

    def entry_of_current(self) -> tuple[int, str] | None:
        """The open article's entry point and where it comes from: ``"you"`` (set in the
        window), ``"run"`` (the run's), ``"start"`` (the run does not rank the article)."""
        cur = self.current
        if cur is None:
            return None
        if (self.topic, cur.name) in self.entries:
            source = "you"
        else:
            source = "run" if cur.row is not None else "start"
        return cur.evaluation.entry, source

    def set_entry(self, offset: int | None) -> None:
        """Start reading the open article at unit ``offset`` (its entry point, kept for this
        topic and article until reset), and switch to the ``entry`` reading mode; ``None``: back
        to the run's entry point (the mode stays)."""
        cur = self.current
        if cur is None or self.topic is None:
            return
        key = (self.topic, cur.name)
        if offset is None:
            self.entries.pop(key, None)
            point = self.run_entry(cur.name)
        else:
            point = min(max(int(offset), 0), cur.evaluation.n)
            self.entries[key] = point
        mode = self.settings.mode
        row = self.row_of(cur.name) if self.rows_ready() else cur.row  # its own while the rows come
        if row is not None:
            base = row.natural or row.evaluation
            row = dataclasses.replace(row, natural=dataclasses.replace(base, entry=point)).in_mode(mode)
            self.rows = [row if r.article == cur.name else r for r in self.rows]
            ev = row.evaluation
        else:
            ev = cur.evaluation
            ev = (evaluate_document(ev.relevant, ev.retrieved, ev.n, mode, point) if mode is Mode.ENTRY
                  else dataclasses.replace(ev, entry=point))
        self.current = dataclasses.replace(cur, row=row, evaluation=ev)
        if mode is Mode.ENTRY:
            if row is not None and self.rows_ready():
                self.rows_changed.emit()
            self.evaluation_changed.emit()
            self._clamp_step()
        elif offset is not None:
            self.set_settings(mode=Mode.ENTRY)
        else:
            self.evaluation_changed.emit()
        where = "set by you" if offset is not None else ("the run's" if row is not None else "the article's start")
        self.message.emit(f"Article {cur.name}: reading starts at {amount(point, self.unit)} ({where})")

    def _rows_in_mode(self, old: Mode, new: Mode) -> list[RankedRow]:
        """:attr:`rows` read in mode ``new``. The lists of the modes already seen are kept (the
        same list object comes back, so the views' memos keyed by it hit) as long as
        :attr:`rows` is one of them; rows replaced by anything else (a topic, an edit) start
        the memo again."""
        memo = self._mode_rows
        if not any(rows is self.rows for rows in memo.values()):
            memo.clear()
            memo[old] = self.rows
        rows = memo.get(new)
        if rows is None:
            evs = in_mode_many([r.natural or r.evaluation for r in self.rows], new)  # one batch
            rows = memo[new] = [dataclasses.replace(r, evaluation=ev) for r, ev in zip(self.rows, evs)]
        return rows

    def cycle_mode(self) -> None:
        i = MODES.index(self.settings.mode) if self.settings.mode in MODES else -1
        self.set_settings(mode=MODES[(i + 1) % len(MODES)])

    def screens(self) -> int:
        """K: screens needed to read the open article's whole reading order (0 if none open)."""
        return mk.screens(self.current.evaluation, self.settings.screen) if self.current else 0

    def screen_spans(self) -> list[tuple[int, int]]:
        """Unit spans read on the current screen, in reading order (``reading.window``)."""
        if self.current is None:
            return []
        return mk.screen_spans(self.current.evaluation, self.settings.screen, self.step)

    def set_step(self, k: int) -> None:
        k = min(max(k, 0), max(self.screens() - 1, 0))
        if k != self.step:
            self.step = k
            self.step_changed.emit(k)

    def step_by(self, delta: int) -> None:
        self.set_step(self.step + delta)

    def _clamp_step(self) -> None:
        k = min(self.step, max(self.screens() - 1, 0))
        self.step = k
        self.step_changed.emit(k)

    # -- errors --------------------------------------------------------------------------
    def _failed(self, exc: BaseException) -> None:
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


def _ranked_row(qrels: Qrels, run: Run, topic: str, entry: RunArticle, coll: Collection | None,
                join: Join, judged: bool, notes: list[str]) -> RankedRow:
    """Evaluate one ranked article (worker thread) as ``readsim-eval`` does: an unresolvable XPath
    is an :class:`InputError` naming its line (reference 1.3). A bad article file falls back to
    the qrels and the run alone, with a note, unless the run's lines need its elements."""
    in_coll, title = coll is not None and entry.article in coll, entry.article
    resolve = bool(entry.xpaths or entry.pointers)
    use = coll if in_coll or resolve else None  # resolving: the collection names what is missing
    if in_coll:
        try:
            title = coll.article(entry.article).title  # type: ignore[union-attr]
        except InputError as err:
            if resolve:
                raise
            notes.append(str(err))
            in_coll, use = False, None
    ev = document(qrels, run, topic, entry, Mode.NATURAL, use, join=join)
    relevant = (qrels.judgement(topic, entry.article) is not None and ev.is_relevant) if judged else None
    ev = with_entry(ev, entry)
    return RankedRow(entry.rank, entry.article, title, in_coll, relevant, ev, ev)


def _with_user_entry(row: RankedRow, point: int | None) -> RankedRow:
    """``row`` whose natural evaluation starts the entry mode at ``point`` (None: unchanged)."""
    base = row.natural or row.evaluation
    if point is None or point == base.entry:
        return row
    return dataclasses.replace(row, natural=dataclasses.replace(base, entry=point))


def with_entry(ev: DocumentEvaluation, entry: RunArticle) -> DocumentEvaluation:
    """``ev`` carrying ``entry``'s entry point for the entry mode (:func:`with_mode` reads it):
    a Best in Context line's offset, else the first resolved passage, as readsim-eval."""
    point = entry.entry_point
    if point is None:
        point = int(ev.retrieved[0, 0]) if ev.retrieved is not None and len(ev.retrieved) else 0
    return dataclasses.replace(ev, entry=int(point))
