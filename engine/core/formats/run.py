"""FOL runs (INEX 2009-2010 "TREC++"): ``topic Q0 file rank rsv run_id offset length``.

The line order is the rank: the rank and rsv columns are not trusted, and a new article
rank starts where the file changes. A 7-field line carries an element XPath in column 7
instead of ``offset length`` (resolved with the collection, see :mod:`readsim.core.result_lines`); a
6-field line retrieves the whole article. Offsets are in the run's unit (UTF-8 bytes for
the real INEX 2009/2010 runs).

Policies (docs/reference.md sections 2.3 and 7), each a :class:`Diagnostic` (or, with ``strict=True``, an
:class:`InputError`, as the official tool rejects such runs, but a split topic, which it accepts):

- an article that reappears later in its topic (interleaved with other articles) is merged
  into its first rank;
- a topic split into two blocks is merged into its first block;
- overlapping passages of one article are united;
- a negative offset or length, or too few fields, is always an :class:`InputError`.

**How a run is held.** A run read from a file is its result lines, kept as columns in file
order (:class:`RunLines`: topic, article, kind, offset, end, line number), plus the ranked
articles derived from them for all topics at once (:class:`RunColumns`: group ids from one
sort, passages united and overlaps found with ``np.maximum.accumulate``). ``Run.topics[t]``
is a :class:`TopicEntries`, a list whose :class:`RunArticle` objects are built on first use
(the window reads one topic at a time; the evaluator of :mod:`readsim.core.listmeasures` reads the
columns and builds none). The columns are read from the file's bytes by numpy
(:func:`readsim.core.formats.lines.scan_fields`); a file that path does not vouch for (a bad or
unusual line) is read line by line, which names the file and line of any error. Both give
the same columns, so every policy above lives in one place (:func:`_analyse`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, MutableSequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .. import intervals as iv
from ..errors import Diagnostic, InputError
from .lines import Names, all_equal, merge_keys, numbered_lines, packed_keys, parse_digits, scan_fields, to_int


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

END_LIKE_MIN = 10


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


# -- reading -------------------------------------------------------------------------------------


def read_run(path: str | os.PathLike, strict: bool = False, data: bytes | None = None) -> Run:
    """Read a FOL run (from ``data`` when the file was already read). Raises
    :class:`InputError` (``file:line: reason``) on bad lines."""
    path = str(path)
    if data is None:
        from .lines import read_bytes

        data = read_bytes(path)
    lines = _scan_lines(data)
    if lines is None:
        lines = _read_lines(path, data)
    short = _short_lines(path, lines, data)
    run = _analyse(path, lines, strict)
    run.diagnostics[:0] = short
    return run


def _short_lines(path: str, cols: RunLines, data: bytes) -> list[Diagnostic]:
    """Lines that look cut short (reference 2.3): a 7-field line whose column 7 is not an
    absolute XPath (an offset without its length) is an error; so is a 6-field line that is the
    file's last line, without a line end, when every other line has 8 fields (the file was cut).
    Other 6-field lines among 8-field ones are legal whole-article lines (readsim writes them for
    an article retrieved whole): one warning naming the first and the count, since a damaged
    line reads the same."""
    for row, xpath in cols.xpaths.items():
        if not xpath.startswith("/"):
            raise InputError(path, int(cols.line[row]), f"column 7 is not an XPath ({xpath!r}; an XPath starts with /): "
                             "a passage line needs 8 fields, offset and length (was the line cut short?)")
    six = np.flatnonzero(cols.kind == 6)
    passages = int(np.count_nonzero(cols.kind == 8))
    if not len(six) or not passages:
        return []
    first = int(cols.line[six[0]])
    if len(six) == 1 and passages == len(cols.kind) - 1 and not data.endswith(b"\n") \
            and first == data.count(b"\n") + 1:
        raise InputError(path, first, "the file ends inside a line: its last line has 6 fields and no line end, "
                         "every other line 8 (offset length); the file looks cut short")
    what = "1 whole-article line (6 fields)" if len(six) == 1 else f"{len(six):,} whole-article lines (6 fields)"
    return [Diagnostic(path, first, f"{what} among {passages:,} passage lines (8 fields), the first here: each "
                       f"retrieves its article whole; a passage line cut short reads the same")]


CHUNK = 1 << 19
"""Bytes of a run file read column-wise at a time (cut at a line end): the arrays of one chunk
stay in the processor's cache and their memory is used again by the next chunk; only the
columns of the lines are kept (512 KB: 8-10% faster than 2 MB on 540,000 and 1,800,000 lines)."""


def _scan_lines(data: bytes) -> RunLines | None:
    """The columns of a run file read column-wise (chunk by chunk), or ``None`` if a line needs
    the line-by-line reader (a wrong number of fields, a number that is not plain digits, a
    character outside ASCII, ...), which then names it or reads it."""
    if len(data) > CHUNK:
        lines = _scan_chunks(data)
        if lines is not None:
            return lines
    part = _scan_chunk(data)
    return None if part is None else part[0]


def _scan_chunks(data: bytes) -> RunLines | None:
    """:func:`_scan_lines` chunk by chunk, or ``None`` when the chunks do not join simply
    (several run ids): the file is then read in one piece. Names of any length join
    (:func:`~readsim.core.formats.lines.merge_keys`)."""
    parts: list[RunLines] = []
    pos = lines = rows = 0
    while pos < len(data):
        cut = data.find(b"\n", pos + CHUNK)
        cut = len(data) if cut < 0 else cut + 1
        part = _scan_chunk(data[pos:cut], pos == 0)
        if part is None:
            return None
        chunk, newlines = part
        one_id = not chunk.run_id_names.packed and len(chunk.run_id_names.vocabulary) == 1
        if not (one_id or not len(chunk.line)):
            return None
        chunk.line += lines
        chunk.xpaths = {k + rows: x for k, x in chunk.xpaths.items()}
        parts.append(chunk)
        lines += newlines
        rows += len(chunk.line)
        pos = cut
    names = {p.run_id_names.vocabulary[0] for p in parts if len(p.line)}
    if len(names) > 1:
        return None
    cat = np.concatenate
    topic, topic_names = merge_keys([(p.topic, p.topic_names) for p in parts])
    article, article_names = merge_keys([(p.article, p.article_names) for p in parts])
    return RunLines(cat([p.line for p in parts]), topic, article,
                    cat([p.kind for p in parts]), cat([p.start for p in parts]), cat([p.end for p in parts]),
                    np.zeros(rows, dtype=np.uint64), topic_names, article_names,
                    Names(False, sorted(names) or [""]), {k: x for p in parts for k, x in p.xpaths.items()})


def _scan_chunk(data: bytes, start: bool = True) -> tuple[RunLines, int] | None:
    """:func:`_scan_lines` for one piece of the file (``start``: the file's first): the columns
    and the number of line ends."""
    sc = scan_fields(data, start)
    if sc is None:
        return None
    count = sc.count
    if len(count) and (int(count.min()) < 6 or int(count.max()) > 8):
        return None
    words = sc.words
    topic, topic_names = sc.keys(0)
    article, article_names = sc.keys(2)
    run_starts, run_ends = sc.field(5)
    if all_equal(words, run_starts, run_ends):  # one run id (the common case): one name
        run_id, run_id_names = np.zeros(len(run_starts), dtype=np.uint64), Names(False, sc.text(run_starts[:1], run_ends[:1]))
    else:
        run_id = packed_keys(words, run_starts, run_ends)
        run_id_names = Names(True)
        if run_id is None:
            run_id, run_id_names = Names.encode(sc.text(run_starts, run_ends))
    n = len(count)
    kind = count.astype(np.int8)
    if sc.regular == 8:
        offset = parse_digits(words, *sc.field(6))
        length = parse_digits(words, *sc.field(7))
        if offset is None or length is None:
            return None
        return RunLines(sc.line, topic, article, kind, offset, offset + length, run_id, topic_names, article_names,
                        run_id_names, {}), sc.newlines
    start = np.full(n, WHOLE_LINE[0], dtype=np.int64)
    end = np.full(n, WHOLE_LINE[1], dtype=np.int64)
    rows8 = np.flatnonzero(count == 8)
    if len(rows8):
        offset = parse_digits(words, *sc.field(6, rows8))
        length = parse_digits(words, *sc.field(7, rows8))
        if offset is None or length is None:
            return None
        start[rows8] = offset
        end[rows8] = offset + length
    rows7 = np.flatnonzero(count == 7)
    xpaths = {}
    if len(rows7):
        start[rows7], end[rows7] = XPATH_LINE
        xpaths = dict(zip(rows7.tolist(), sc.text(*sc.field(6, rows7))))
    return RunLines(sc.line, topic, article, kind, start, end, run_id, topic_names, article_names, run_id_names,
                    xpaths), sc.newlines


def _read_lines(path: str, data: bytes) -> RunLines:
    """The columns of a run file read line by line; raises :class:`InputError` naming the
    first bad line."""
    numbers: list[int] = []
    topics: list[str] = []
    articles: list[str] = []
    run_ids: list[str] = []
    kinds: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    xpaths: dict[int, str] = {}
    for number, f in numbered_lines(path, data):
        if len(f) < 6:
            raise InputError(path, number, f"a run line needs 6 to 8 fields (topic Q0 file rank rsv run_id [offset length | xpath]), found {len(f)}")
        if len(f) > 8:
            raise InputError(path, number, f"a run line has at most 8 fields, found {len(f)}")
        if len(f) == 8:
            offset = to_int(f[6], path, number, "offset")
            length = to_int(f[7], path, number, "length")
            if offset < 0 or length < 0:
                raise InputError(path, number, f"negative offset or length ({offset} {length})")
            start, end = offset, offset + length
        elif len(f) == 7:
            xpaths[len(numbers)] = f[6]
            start, end = XPATH_LINE
        else:
            start, end = WHOLE_LINE
        numbers.append(number)
        topics.append(f[0])
        articles.append(f[2])
        run_ids.append(f[5])
        kinds.append(len(f))
        starts.append(start)
        ends.append(end)
    topic, topic_names = Names.encode(topics)
    article, article_names = Names.encode(articles)
    run_id, run_id_names = Names.encode(run_ids)
    return RunLines(np.asarray(numbers, dtype=np.int64), topic, article, np.asarray(kinds, dtype=np.int8),
                    np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64), run_id, topic_names,
                    article_names, run_id_names, xpaths)


def _repeats(keys: np.ndarray, cuts: np.ndarray) -> bool:
    """True if a key occurs twice within one of the segments ``keys[cuts[i]:cuts[i + 1]]``."""
    bounds = np.append(cuts, len(keys)).tolist()
    for a, b in zip(bounds[:-1], bounds[1:]):
        if b - a > 1:
            k = np.sort(keys[a:b])
            if np.any(k[1:] == k[:-1]):
                return True
    return False


def _first_appearance(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ids, unique keys, first index)``: ids numbered by first appearance in ``keys``."""
    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[inverse.reshape(-1)], unique[order], first[order]


def _analyse(path: str, cols: RunLines, strict: bool) -> Run:
    """Group the result lines into ranked articles and apply the policies of docs/reference.md
    sections 2.3 and 7."""
    diagnostics: list[Diagnostic] = []

    def problem(line: int, message: str, official: bool = True) -> None:
        """``official``: the official INEX tool rejects this too (not a split topic, reference 7)."""
        if strict:
            reason = message.split(";")[0]
            raise InputError(path, line, f"{reason}; rejected (--strict)" + (", as the official INEX tool does" if official else ""))
        diagnostics.append(Diagnostic(path, line, message))

    n = len(cols.line)
    line, kind, start, end = cols.line, cols.kind, cols.start, cols.end
    # column 8 that looks like an end offset: never smaller than column 7 on enough lines
    eight = kind == 8
    offset = start[eight]
    length = end[eight] - offset
    positive = offset > 0
    end_like = positive & (length >= offset)
    if int(np.count_nonzero(end_like)) >= END_LIKE_MIN and not np.any(positive & (length < offset)):
        first = int(line[eight][np.argmax(end_like)])
        diagnostics.append(Diagnostic(path, first, f"column 8 looks like an end offset rather than a length: it is "
                                      f"never smaller than column 7 on {int(np.count_nonzero(end_like))} lines "
                                      "with a positive offset"))
    # topics: blocks of consecutive lines; a topic whose block is not its first is split
    blocks = iv.starts_of_changes(cols.topic)
    block_tid, topic_keys, first_block = _first_appearance(cols.topic[blocks])
    topics = cols.topic_names(topic_keys)
    again = np.flatnonzero(first_block[block_tid] != np.arange(len(blocks)))
    if len(again):
        _, where = np.unique(block_tid[again], return_index=True)
        for b in np.sort(again[where]).tolist():
            problem(int(line[blocks[b]]), f"topic {topics[block_tid[b]]} appears in two blocks; merged into its first block",
                    official=False)
    tid = np.repeat(block_tid, np.diff(blocks, append=n)) if n else np.zeros(0, dtype=np.int64)
    # ranked articles: runs of lines with one (topic, article); an article that comes back
    # (a run whose (topic, article) was seen before) joins its first run's group
    runs = iv.starts_of_changes(cols.topic, cols.article)
    run_tid, run_key = tid[runs], cols.article[runs]
    simple = len(again) == 0 and not _repeats(run_key, np.searchsorted(runs, blocks))
    if simple:  # the common case: topics in one block each, no article twice in a topic: a group per run
        run_gid = group_first_run = np.arange(len(runs))
    else:
        order = iv.pair_order(run_tid, run_key)
        new = np.ones(len(runs), dtype=bool)
        new[1:] = (run_tid[order][1:] != run_tid[order][:-1]) | (run_key[order][1:] != run_key[order][:-1])
        group_first_run = order[new]  # the earliest run of each (topic, article): stable sort
        sorted_group = np.cumsum(new) - 1
        rank_order = np.argsort(run_tid[group_first_run] * max(len(runs), 1) + group_first_run, kind="stable")
        gid_of_sorted = np.empty(len(rank_order), dtype=np.int64)
        gid_of_sorted[rank_order] = np.arange(len(rank_order))
        run_gid = np.empty(len(runs), dtype=np.int64)
        run_gid[order] = gid_of_sorted[sorted_group]
        group_first_run = group_first_run[rank_order]
    group_tid = run_tid[group_first_run]
    G = len(group_first_run)
    # an article coming back after another one (interleaved): runs that are not its first
    back = np.zeros(0, dtype=np.int64) if simple else np.flatnonzero(group_first_run[run_gid] != np.arange(len(runs)))
    if len(back):
        back_topics = iv.distinct(run_tid[back])
        problem(int(line[runs[back[0]]]), f"{len(back)} result lines in {len(back_topics)} topics (first: topic "
                                          f"{topics[run_tid[back[0]]]}) return to an article ranked earlier "
                                          "(interleaved articles); merged into the article's first rank")
    # run id: the most common (the first seen among equals)
    run_ids = cols.run_id
    run_id = os.path.basename(path)
    if n:
        if np.all(run_ids == run_ids[0]):
            run_id = cols.run_id_names(run_ids[:1])[0]
        else:
            ids, _, first_seen = _first_appearance(run_ids)
            counts = np.bincount(ids)
            best = int(np.argmax(counts))  # ties: the first id seen
            run_id = cols.run_id_names(run_ids[first_seen[best]:first_seen[best] + 1])[0]
            diagnostics.append(Diagnostic(path, None, f"{len(counts)} run ids in one file; using {run_id!r}"))
    # each group's lines, in file order
    run_lengths = np.diff(runs, append=n)
    line_gid = np.repeat(run_gid, run_lengths) if n else np.zeros(0, dtype=np.int64)
    by_group = None
    if simple:
        line_ptr = np.append(runs, n)
    else:
        if np.any(line_gid[1:] < line_gid[:-1]):
            by_group = np.argsort(line_gid, kind="stable")
            line_gid = line_gid[by_group]
        line_ptr = np.zeros(G + 1, dtype=np.int64)
        np.cumsum(np.bincount(line_gid, minlength=G), out=line_ptr[1:])

    def grouped(column: np.ndarray) -> np.ndarray:
        return column if by_group is None else column[by_group]

    g_lines, g_kind, g_start, g_end = grouped(line), grouped(kind), grouped(start), grouped(end)
    if n and int(kind.min()) == 8:  # offsets and lengths only (the common case)
        whole = has_xpath = np.zeros(G, dtype=bool)
        has_span = np.ones(G, dtype=bool)
        keep = g_end > g_start
    else:
        whole = np.bincount(line_gid[g_kind == 6], minlength=G) > 0
        has_xpath = np.bincount(line_gid[g_kind == 7], minlength=G) > 0
        is_span = g_kind == 8
        has_span = np.bincount(line_gid[is_span], minlength=G) > 0
        keep = is_span & (g_end > g_start)
    xpath_lists: dict[int, list[str]] = {}
    if cols.xpaths:
        rows = np.flatnonzero(g_kind == 7)
        source = rows if by_group is None else by_group[rows]
        for r, s in zip(rows.tolist(), source.tolist()):
            xpath_lists.setdefault(int(line_gid[r]), []).append(cols.xpaths[s])
    # passages: every group's non-empty spans, united; overlapping ones found on the way
    every = bool(keep.all())
    p_gid, p_start, p_end = (line_gid, g_start, g_end) if every else (line_gid[keep], g_start[keep], g_end[keep])
    if every and n == G:  # one line per group, each a non-empty span: nothing to unite
        pass_start, pass_end, pass_gid, overlapping = p_start, p_end, p_gid, np.zeros(0, dtype=np.int64)
    else:
        if len(p_gid) and np.any((p_gid[1:] == p_gid[:-1]) & (p_start[1:] < p_start[:-1])):
            o = np.argsort((p_gid << iv.SHIFT) + p_start) if G < 1 << (63 - iv.SHIFT) else np.lexsort((p_start, p_gid))
            p_gid, p_start, p_end = p_gid[o], p_start[o], p_end[o]
        pass_start, pass_end, pass_gid, overlapping = iv.normalize_groups(p_gid, p_start, p_end, G)
    if every and len(pass_gid) == n:  # each line its own passage
        pass_ptr = line_ptr
    else:
        pass_ptr = np.zeros(G + 1, dtype=np.int64)
        np.cumsum(np.bincount(pass_gid, minlength=G), out=pass_ptr[1:])
    if len(overlapping):
        g = int(overlapping[0])
        name = cols.article_names(cols.article[runs[group_first_run[g:g + 1]]])[0]
        problem(int(line[runs[group_first_run[g]]]), f"overlapping passages of article {name} (topic {topics[group_tid[g]]}) united")
        if len(overlapping) > 1:
            diagnostics.append(Diagnostic(path, None, f"{len(overlapping)} articles in all have overlapping passages (united)"))
    topic_ptr = np.zeros(len(topics) + 1, dtype=np.int64)
    np.cumsum(np.bincount(group_tid, minlength=len(topics)), out=topic_ptr[1:])
    for a in (g_lines, g_start, g_end, line_gid, pass_start, pass_end):
        a.flags.writeable = False
    columns = RunColumns(topics, topic_ptr, cols.article[runs[group_first_run]], cols.article_names,
                         g_lines[line_ptr[:-1]] if G else np.zeros(0, dtype=np.int64), whole, has_xpath, has_span,
                         line_ptr, g_lines, g_start, g_end, line_gid, pass_ptr, pass_start, pass_end, xpath_lists)
    run = Run(path, run_id, {t: TopicEntries(columns, k) for k, t in enumerate(topics)}, diagnostics)
    return run
