"""Reading the input files the user opens, and checking them against each other.

:func:`read_inputs` reads a collection, a qrels file, runs and a topics file, each on its own:
one that cannot be read (missing, a folder, a FIFO, binary data, another kind of file, not
UTF-8, a bad line; :func:`readsim.app.input_files.check_input`) is reported as ``path: reason``
(``file:line: reason``) in :attr:`Loaded.errors` while the others are taken over. A collection
is listed, or its index built, with a :class:`~readsim.app.background.Progress` the GUI thread
polls and may cancel (:func:`index_collection`, docs/reference.md section 2.10).
:func:`describe` says what is loaded; :func:`check_inputs` checks the inputs against each other
(:func:`readsim.core.coverage.check_coverage`: an empty qrels file, run topics the qrels lack,
articles the collection lacks, ...); :class:`CollectionNames` keeps the collection's article
names it listed, so they are listed once per collection.

Threading contract: :func:`read_inputs`, :func:`index_collection` and :func:`check_inputs` run in
a worker thread (through
:func:`readsim.app.background.run_in_background`) and return plain data; :func:`remember`,
:func:`describe` and :class:`CollectionNames` are used in the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from readsim.core.collection import Collection
from readsim.core.coverage import check_coverage, check_input_path
from readsim.core.errors import Diagnostic, InputError
from readsim.core.formats import Qrels, Run, Topic, read_any_run, read_qrels, read_segments, read_topics
from readsim.core.qrels_lengths import with_collection_lengths

from .background import input_error_text
from readsim.app.input_files import add_recent_files, check_input
from .background import Cancelled, Progress


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

    def paths(self, collection=None, qrels=None, topics=None) -> dict:
        """Kind -> path of the files that were read (of those asked for), for :func:`remember`."""
        return {"collection": collection if self.collection is not None else None,
                "qrels": qrels if self.qrels is not None else None,
                "topics": topics if self.topics is not None else None,
                "runs": [r.path for r in self.runs]}


def sample_files() -> tuple[dict | None, str]:
    """``(files, problem)``: the shipped sample as the arguments of :meth:`readsim.app.session.Session.open_files` (all its
    runs, the first shown; its topics when present), or None and why it cannot be opened."""
    from readsim.core.samples import sample

    s = sample()
    if not (s.collection.is_dir() and s.qrels.is_file() and s.runs):
        return None, f"the shipped sample is missing or incomplete ({s.collection.parent})"
    return dict(collection=s.collection, qrels=s.qrels, runs=s.runs,
                topics=s.topics if s.topics.is_file() else None, topic=s.topic), ""


def read_inputs(collection=None, qrels=None, runs=(), topics=None, unit: str | None = None,
                indexing: Progress | None = None, segments=None, known: tuple = (None, None)) -> Loaded:
    """Read the given files (each may be None; worker thread) in ``unit`` (``bytes`` or
    ``chars``), the collection's index built with ``indexing`` (:func:`index_collection`); with
    ``segments`` (a segment table's path, docs/reference.md section 2.14) the text runs are
    segment runs, and none is read when the table cannot be. ``known``: the ``(qrels,
    collection)`` already open; the qrels (read or known) take the collection's (read or known)
    lengths where they give none (:func:`lengths_of`), here in the worker. Never raises for bad
    input: see the module docstring."""
    out = Loaded()

    def attempt(kind: str, path, read: Callable):
        try:
            check_input(path, kind)
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
    lengths_from = out.collection if out.collection is not None else known[1]
    lengthless = out.qrels if out.qrels is not None else known[0] if out.collection is not None else None
    if lengthless is not None and lengths_from is not None:  # either may be opened after the other
        out.qrels = lengths_of(lengthless, lengths_from, out.errors.append)
    table = None
    if segments is not None and runs:
        try:
            check_input_path(segments, "segments")
            table = read_segments(segments)
        except (InputError, OSError) as err:
            out.errors.append(input_error_text(err) or str(err))
            runs = ()  # read without their table, they would be whole-article lines
    for path in runs:
        run = attempt("run", path, lambda p: read_any_run(p, segments=table))
        if run is not None:
            out.runs.append(run)
            out.diagnostics += [str(d) for d in run.diagnostics]
    if topics is not None:
        out.topics = attempt("topics", topics, read_topics)
    return out


def lengths_of(qrels: Qrels, collection: Collection, fail: Callable[[str], None]) -> Qrels:
    """``qrels`` with ``collection``'s doc_length where they give none (docs/reference.md
    section 2.11, :func:`readsim.core.qrels_lengths.with_collection_lengths`); a document that
    cannot be read is ``fail("path: reason")`` and the qrels' own lengths are kept."""
    if not qrels.implied:
        return qrels
    try:
        return with_collection_lengths(qrels, collection)
    except (InputError, OSError) as err:
        fail(input_error_text(err) or str(err))
        return qrels


def index_collection(path, unit: str | None, progress: Progress | None, out: Loaded) -> Collection | None:
    """Open the collection at ``path`` (worker thread), its index built with ``progress``
    (docs/reference.md section 2.10); why an index was rebuilt goes to ``out.diagnostics``.
    None when cancelled (said in ``out.diagnostics``)."""
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


def remember(paths: dict) -> None:
    """Put the files read (kind -> path, ``runs`` -> paths; see :meth:`Loaded.paths`) first in
    the recent files (GUI thread)."""
    pairs = [(kind, paths[kind]) for kind in ("collection", "qrels", "topics") if paths.get(kind) is not None]
    add_recent_files(pairs + [("run", path) for path in paths.get("runs", ())])


def describe(run: Run | None, qrels: Qrels | None, coll: Collection | None) -> str:
    """The status line after a load: the run shown, the qrels and the collection."""
    parts = []
    if run is not None:
        parts.append(f"run {run.run_id} ({Path(run.path).name}, {len(run.topics)} topics)")
    if qrels is not None:
        parts.append(f"qrels {Path(qrels.path).name} ({len(qrels.topics)} topics)")
    if coll is not None:
        parts.append(f"collection {coll.root}")
    return "Loaded " + "; ".join(parts) if parts else "Nothing loaded"


def check_inputs(qrels: Qrels | None, runs: list[Run], coll: Collection | None,
                 names: frozenset[str] | None) -> tuple[frozenset[str] | None, list[Diagnostic]]:
    """``(names, diagnostics)`` (worker thread): the collection's article names (``names`` if
    already listed, else listed here; None without a collection) and the warnings of
    :func:`check_coverage` on the inputs."""
    if names is None and coll is not None:
        names = frozenset(coll.names())
    return names, check_coverage(qrels, runs, coll, names=names)


class CollectionNames:
    """The article names of the last collection listed (GUI thread): ``of(coll)`` is them while
    ``coll`` is that same Collection object, else None."""

    def __init__(self) -> None:
        self._kept: tuple[Collection, frozenset[str]] | None = None

    def of(self, coll: Collection | None) -> frozenset[str] | None:
        return self._kept[1] if self._kept is not None and coll is not None and self._kept[0] is coll else None

    def keep(self, coll: Collection | None, names: frozenset[str] | None) -> None:
        if coll is not None and names is not None:
            self._kept = (coll, names)

    def in_collection(self, run: Run | None, coll: Collection | None, topic: str) -> tuple[int, int] | None:
        """``(have, ranked)``: how many of the articles ``run`` ranks for ``topic`` collection
        ``coll`` holds; None without a run, or while its names are not listed."""
        names = self.of(coll)
        if run is None or names is None:
            return None
        ranked = run.article_names(topic)  # from the run's columns: no RunArticle built
        return sum(a in names for a in ranked), len(ranked)
