"""A run and its parts: the ranked articles (:class:`RunArticle`) of each topic (:class:`Run`);
for a FOL run read from a file (:mod:`readsim.core.formats.folrun`), its result lines and ranked
articles as columns (:class:`RunLines`, :class:`RunColumns`), built into objects on first use
(:class:`TopicEntries`).

**How a run is held.** A run read from a file is its result lines, kept as columns in file
order (:class:`RunLines`: topic, article, kind, offset, end, line number), plus the ranked
articles derived from them for all topics at once (:class:`RunColumns`: group ids from one
sort, passages united and overlaps found with ``np.maximum.accumulate``). ``Run.topics[t]``
is a :class:`TopicEntries`, a list whose :class:`RunArticle` objects are built on first use
(the window reads one topic at a time; the evaluator of :mod:`readsim.core.listmeasures` reads the
columns and builds none).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, MutableSequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .. import intervals as iv
from ..errors import Diagnostic
from .lines import Names


@dataclass
class RunArticle:
    """One ranked article of a topic: its passages, XPaths, and where it was read from.

    ``passages`` is a normalized ``(k, 2)`` int64 array in the run's unit, or ``None`` when
    it names no offsets; ``xpaths`` holds element paths (7-field lines, XML ``<path>``) and
    ``pointers`` XPointer ``(start, end)`` pairs (XML ``<passage>``), both converted to
    offsets with the collection (:func:`readsim.core.result_lines.retrieved_passages`); with none of the
    three the article is retrieved whole. ``line`` is the article's first line in the file;
    ``lines`` every result line of the article (1-based line numbers, file order: more than one
    when the article has several passages or reappears later, interleaved), empty for results
    that were not read from a file (simulated or edited). ``line_spans`` (FOL runs only) is the
    ``(len(lines), 2)`` int64 array of each line's raw ``[offset, offset + length)``, zero
    lengths and overlaps kept (the Focused task's ranks and Best in Context's entry point): a
    6-field line is :data:`WHOLE_LINE` (the whole article), a 7-field line :data:`XPATH_LINE`
    (its XPath is the next one of ``xpaths``). The arrays of an article read from a file are
    read-only views of the run's columns. ``xpath_lines``, ``pointer_lines``: XML runs' line of
    each XPath and XPointer pair (any run: :func:`readsim.core.result_lines.resolution_lines`)."""

    article: str
    rank: int
    passages: np.ndarray | None
    xpaths: list[str]
    line: int
    pointers: list[tuple[str, str]] = field(default_factory=list)
    lines: tuple[int, ...] = ()
    line_spans: np.ndarray | None = None
    xpath_lines: tuple[int, ...] = ()
    pointer_lines: tuple[int, ...] = ()

    @property
    def entry_point(self) -> int | None:
        """Best in Context's entry point, in the run's unit: the smallest offset of the article's
        offset lines (a BiC run has one line per article whose offset is the entry point and
        whose length is any integer, usually 0); else the start of the first retrieved passage;
        0 for a whole-article result; ``None`` when only XPaths or XPointers name the passages
        (the caller resolves them, :func:`readsim.core.result_lines.retrieved_passages`)."""
        if self.line_spans is not None:
            offsets = self.line_spans[self.line_spans[:, 1] >= 0, 0]
            if len(offsets):
                return int(offsets.min())
        if self.passages is not None and len(self.passages):
            return int(self.passages[0, 0])
        return 0 if self.whole else None

    @property
    def whole(self) -> bool:
        """True when the result names no passage: the whole article is retrieved."""
        return self.passages is None and not self.xpaths and not self.pointers


@dataclass
class Run:
    """A run: ``topics[topic]`` -> ranked list of :class:`RunArticle`, in file order.

    For a run read from a FOL file each list is a :class:`TopicEntries` (built on first use,
    from :attr:`columns`); any other run (XML, simulated, edited) holds plain lists. Assigning a
    plain list to a topic replaces what the columns say about it."""

    path: str
    run_id: str
    topics: dict[str, list[RunArticle]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def article(self, topic: str, article: str) -> RunArticle | None:
        for entry in self.topics.get(topic, []):
            if entry.article == article:
                return entry
        return None

    def article_names(self, topic: str) -> list[str]:
        """The ranked articles of ``topic`` in rank order (names only: for a topic still as the
        file said, decoded from the columns without building its :class:`RunArticle` objects)."""
        cols = self.columns(topic)
        if cols is None:
            return [e.article for e in self.topics.get(topic, [])]
        rc, tid = cols
        return rc.names(np.arange(rc.topic_ptr[tid], rc.topic_ptr[tid + 1]))

    def columns(self, topic: str) -> tuple[RunColumns, int] | None:
        """``(columns, topic id)`` when ``topics[topic]`` is still what the file said (a
        :class:`TopicEntries` not changed through its list methods), else ``None``: then only
        the :class:`RunArticle` objects say what the topic holds."""
        entries = self.topics.get(topic)
        if isinstance(entries, TopicEntries) and not entries.changed:
            return entries.columns, entries.tid
        return None


WHOLE_LINE = (0, -1)
"""``line_spans`` row of a 6-field line: the whole article, ``[0, doc_length)``."""
XPATH_LINE = (-1, -2)
"""``line_spans`` row of a 7-field line: an element XPath, resolved with the collection."""


# -- the columns ---------------------------------------------------------------------------------


@dataclass
class RunLines:
    """A run's result lines as columns, in file order: line number, topic and article keys,
    ``kind`` (8: offset and length, 7: XPath, 6: whole article), ``start``/``end`` (the line's
    ``[offset, offset + length)``; :data:`WHOLE_LINE` / :data:`XPATH_LINE` for the others),
    run-id keys, and the XPaths of 7-field lines by row."""

    line: np.ndarray
    topic: np.ndarray
    article: np.ndarray
    kind: np.ndarray
    start: np.ndarray
    end: np.ndarray
    run_id: np.ndarray
    topic_names: Names
    article_names: Names
    run_id_names: Names
    xpaths: dict[int, str]


@dataclass
class RunColumns:
    """The ranked articles (groups) of a run, derived from its :class:`RunLines` for all
    topics at once. Groups are numbered in topic order (first appearance), then rank.

    Per topic id: ``topics`` (names) and ``topic_ptr`` (its groups are ``topic_ptr[t] ..
    topic_ptr[t + 1] - 1``). Per group: ``key`` (article key), ``first_line``, ``whole``,
    ``has_xpath``, ``has_span`` (some 8-field line); its lines in file order ``line_ptr`` ->
    ``lines`` (line numbers), ``starts``/``ends`` (raw spans, :data:`WHOLE_LINE` and
    :data:`XPATH_LINE` rows included) and ``line_gid`` (the group of each); its united passages
    ``pass_ptr`` -> ``pass_start``/``pass_end``. :attr:`spans`, :attr:`passages` (the same as
    ``(k, 2)`` arrays) and :attr:`entry` are derived on first use.
    """

    topics: list[str]
    topic_ptr: np.ndarray
    key: np.ndarray
    article_names: Names
    first_line: np.ndarray
    whole: np.ndarray
    has_xpath: np.ndarray
    has_span: np.ndarray
    line_ptr: np.ndarray
    lines: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    line_gid: np.ndarray
    pass_ptr: np.ndarray
    pass_start: np.ndarray
    pass_end: np.ndarray
    xpaths: dict[int, list[str]]

    def __len__(self) -> int:
        return len(self.key)

    @cached_property
    def passages(self) -> np.ndarray:
        """Every group's united passages, ``(k, 2)``, grouped (read-only)."""
        out = np.column_stack([self.pass_start, self.pass_end]) if len(self.pass_start) else np.zeros((0, 2), dtype=np.int64)
        out.flags.writeable = False
        return out

    @cached_property
    def spans(self) -> np.ndarray:
        """Every line's raw span, ``(lines, 2)``, grouped (read-only)."""
        out = np.column_stack([self.starts, self.ends]) if len(self.starts) else np.zeros((0, 2), dtype=np.int64)
        out.flags.writeable = False
        return out

    @cached_property
    def entry(self) -> np.ndarray:
        """Per group, the smallest offset of its 8-field lines (-1 without): Best in Context's
        entry point, as :attr:`RunArticle.entry_point` says."""
        out = np.full(len(self), np.iinfo(np.int64).max, dtype=np.int64)
        offsets = self.ends >= 0  # 8-field lines (WHOLE_LINE and XPATH_LINE rows end below 0)
        if np.any(offsets):
            iv.group_min(out, self.line_gid[offsets], self.starts[offsets])
        return np.where(self.has_span, out, -1)

    def size(self, tid: int) -> int:
        return int(self.topic_ptr[tid + 1] - self.topic_ptr[tid])

    def names(self, groups: np.ndarray) -> list[str]:
        return self.article_names(self.key[groups])

    def entry_of(self, g: int, rank: int, name: str | None = None) -> RunArticle:
        """The :class:`RunArticle` of group ``g``."""
        a, b = int(self.line_ptr[g]), int(self.line_ptr[g + 1])
        p, q = int(self.pass_ptr[g]), int(self.pass_ptr[g + 1])
        passages = None if self.whole[g] or not self.has_span[g] else self.passages[p:q]
        return RunArticle(name if name is not None else self.names(np.array([g]))[0], rank, passages,
                          list(self.xpaths.get(g, ())), int(self.first_line[g]),
                          lines=tuple(self.lines[a:b].tolist()), line_spans=self.spans[a:b])

    def entries(self, tid: int) -> list[RunArticle]:
        """The ranked list of topic ``tid``, built."""
        g0, g1 = int(self.topic_ptr[tid]), int(self.topic_ptr[tid + 1])
        names = self.names(np.arange(g0, g1))
        return [self.entry_of(g, g - g0 + 1, names[g - g0]) for g in range(g0, g1)]


_BUILDING = threading.Lock()


class TopicEntries(MutableSequence):
    """A topic's ranked list of :class:`RunArticle`, built from the run's :class:`RunColumns`
    on first use (its length is known without building it). Behaves as a list; ``changed``
    tells whether it was changed through its list methods (then the columns no longer speak
    for the topic: see :meth:`Run.columns`)."""

    __slots__ = ("columns", "tid", "_items", "changed")

    def __init__(self, columns: RunColumns, tid: int):
        self.columns = columns
        self.tid = tid
        self._items: list[RunArticle] | None = None
        self.changed = False

    @property
    def built(self) -> bool:
        return self._items is not None

    def _list(self) -> list[RunArticle]:
        if self._items is None:
            with _BUILDING:  # one list per topic, even when two threads ask at once
                if self._items is None:
                    self._items = self.columns.entries(self.tid)
        return self._items

    def __len__(self) -> int:
        return len(self._items) if self._items is not None else self.columns.size(self.tid)

    def __getitem__(self, index):
        return self._list()[index]

    def __iter__(self) -> Iterator[RunArticle]:
        return iter(self._list())

    def __setitem__(self, index, value) -> None:
        self._list()[index] = value
        self.changed = True

    def __delitem__(self, index) -> None:
        del self._list()[index]
        self.changed = True

    def insert(self, index: int, value: RunArticle) -> None:
        self._list().insert(index, value)
        self.changed = True

    def __eq__(self, other) -> bool:
        if isinstance(other, (list, tuple, TopicEntries)):
            return self._list() == list(other)
        return NotImplemented

    def __add__(self, other) -> list[RunArticle]:
        return self._list() + list(other)

    def __radd__(self, other) -> list[RunArticle]:
        return list(other) + self._list()

    def __repr__(self) -> str:
        return repr(self._list()) if self._items is not None else f"<{len(self)} ranked articles, not built>"
