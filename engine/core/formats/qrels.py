"""FOL qrels (INEX 2008-2010): ``topic Q0 file rel_size doc_length [bep [offset:length]+]``.

A line with ``rel_size 0`` and 5 fields judges the article non-relevant; relevant means
``rel_size > 0``. Offsets are 0-based, half-open, in the qrels' unit (UTF-8 bytes in the
real 2009/2010 data). Policies (docs/reference.md sections 2.2 and 7): too few fields, a bad number, a negative
length or a duplicate (topic, file) line is an :class:`InputError` naming file and line (the
official tool silently double-counts duplicates); overlapping passages are united and a
``rel_size`` that disagrees with the passages is kept as the passages say, each with a
:class:`Diagnostic`.

**How qrels are held.** The judgements are read column-wise from the file's bytes
(:func:`readsim.core.formats.lines.scan_fields`; a file that path does not vouch for is read line by
line, which names any bad line) into :class:`QrelsColumns`; ``Qrels.topics[t]`` is a
:class:`JudgedTopic`, a mapping whose :class:`Judgement` objects are built on first use. The
evaluator of :mod:`readsim.core.listmeasures` reads the columns directly.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .. import intervals as iv
from ..errors import Diagnostic, InputError
from .lines import Names, numbered_lines, parse_digits, read_bytes, scan_fields, to_int


@dataclass(frozen=True)
class Judgement:
    """One qrels line: the assessor's passages of one article for one topic.

    ``passages`` is a normalized ``(k, 2)`` int64 array of ``[start, end)`` in the qrels'
    unit; ``rel_size`` is the size the passages cover (|R|); ``doc_length`` the article's
    length as the qrels give it; ``bep`` the best entry point (None when absent).
    """

    topic: str
    article: str
    rel_size: int
    doc_length: int
    bep: int | None
    passages: np.ndarray
    line: int

    @property
    def relevant(self) -> bool:
        return self.rel_size > 0


def article_length(judgement: Judgement | None, computed: int | None) -> int | None:
    """An article's length for a topic, reference 1.5: the qrels' doc_length when the topic
    judges the article (``judgement``; the authority), else ``computed``, the doc_length of the
    collection's article (reference 1.4; None when the collection does not have it). Never the
    length of the article's whole text: its trailing non-word characters do not count. Every
    place that states or bounds an article's length takes it from here."""
    return judgement.doc_length if judgement is not None else computed


@dataclass
class QrelsColumns:
    """Every judgement of a qrels file as columns, in file order: ``tid`` (index into
    ``topics``), article ``key`` (``names`` decodes it), ``rel_size`` (as the passages say
    when there are passages), ``doc_length``, ``bep`` (-1 when absent, ``has_bep``), ``line``,
    and the united passages ``pass_ptr`` -> ``passages``. ``by_topic[t]``: the judgements of
    topic ``t`` in file order."""

    topics: list[str]
    tid: np.ndarray
    key: np.ndarray
    names: Names
    rel_size: np.ndarray
    doc_length: np.ndarray
    bep: np.ndarray
    has_bep: np.ndarray
    line: np.ndarray
    pass_ptr: np.ndarray
    passages: np.ndarray
    by_topic: list[np.ndarray]

    @cached_property
    def totals(self) -> tuple[np.ndarray, np.ndarray]:
        """Per topic id: ``(Nrel, Trel_size)``, the relevant articles and their summed relevant
        size (int64 arrays), computed once."""
        relevant = self.rel_size > 0
        nrel = np.bincount(self.tid[relevant], minlength=len(self.topics)).astype(np.int64)
        trel = np.zeros(len(self.topics), dtype=np.int64)
        np.add.at(trel, self.tid[relevant], self.rel_size[relevant])
        return nrel, trel

    @cached_property
    def lookup(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """What finds a (topic id, article key) among the judgements, prepared once for every
        run evaluated against these qrels: ``(table, keys, pairs, rows)``. ``table``: a
        bit per slot of a multiplicative hash of the judged pairs (64 slots per judgement), which
        lets through the few ranked articles that may be judged; ``keys`` the distinct article
        keys sorted; ``pairs`` the judgements' ``tid * len(keys) + key index`` sorted and
        ``rows`` the judgement of each pair."""
        keys = iv.distinct(self.key)
        pairs = self.tid.astype(np.int64) * max(len(keys), 1) + np.searchsorted(keys, self.key)
        rows = np.argsort(pairs)
        table = np.zeros(1 << _bits(len(self.key)), dtype=bool)
        table[_hash(self.tid, self.key, len(table))] = True
        return table, keys, pairs[rows], rows

    def find(self, tids: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """The judgement (row) of each (topic id ``tids``, article key ``keys``), or -1: a hash
        probe per pair, then two binary searches for those the table lets through."""
        table, known, pairs, rows = self.lookup
        out = np.full(len(keys), -1, dtype=np.int64)
        if not len(known) or not len(keys):
            return out
        maybe = np.flatnonzero(table[_hash(tids, keys, len(table))])
        keys, tids = keys[maybe], np.asarray(tids, dtype=np.int64)[maybe]
        at = np.minimum(np.searchsorted(known, keys), len(known) - 1)
        want = tids * len(known) + at
        k = np.minimum(np.searchsorted(pairs, want), len(pairs) - 1)
        found = (known[at] == keys) & (pairs[k] == want)
        out[maybe[found]] = rows[k[found]]
        return out

    def judgements(self, t: int) -> dict[str, Judgement]:
        rows = self.by_topic[t]
        topic = self.topics[t]
        out = {}
        for j, name in zip(rows.tolist(), self.names(self.key[rows])):
            out[name] = Judgement(topic, name, int(self.rel_size[j]), int(self.doc_length[j]),
                                  int(self.bep[j]) if self.has_bep[j] else None,
                                  self.passages[self.pass_ptr[j]:self.pass_ptr[j + 1]], int(self.line[j]))
        return out


_MIX = np.uint64(0x9E3779B97F4A7C15)
_TOPIC_MIX = np.uint64(0xD6E8FEB86659FD93)


def _bits(judgements: int) -> int:
    return int(min(max(16, np.ceil(np.log2(max(judgements, 1) * 64))), 26))


def _hash(tids: np.ndarray, keys: np.ndarray, size: int) -> np.ndarray:
    """A multiplicative hash of (topic id, article key) pairs into ``size`` (a power of 2)
    slots (uint64 arithmetic wraps)."""
    shift = np.uint64(64 - (size.bit_length() - 1))
    mixed = np.asarray(keys).astype(np.uint64) ^ (np.asarray(tids).astype(np.uint64) * _TOPIC_MIX)
    return (mixed * _MIX) >> shift


_BUILDING = threading.Lock()


class JudgedTopic(MutableMapping):
    """A topic's judgements, ``article -> Judgement`` in file order, built from the
    :class:`QrelsColumns` on first use (its size is known without building them). Behaves as
    a dict; ``changed`` tells whether it was changed (then the columns no longer speak for it)."""

    __slots__ = ("columns", "tid", "_items", "changed")

    def __init__(self, columns: QrelsColumns, tid: int):
        self.columns = columns
        self.tid = tid
        self._items: dict[str, Judgement] | None = None
        self.changed = False

    def _dict(self) -> dict[str, Judgement]:
        if self._items is None:
            with _BUILDING:  # one dict per topic, even when two threads ask at once
                if self._items is None:
                    self._items = self.columns.judgements(self.tid)
        return self._items

    def __len__(self) -> int:
        return len(self._items) if self._items is not None else len(self.columns.by_topic[self.tid])

    def __getitem__(self, article: str) -> Judgement:
        return self._dict()[article]

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict())

    def __contains__(self, article) -> bool:
        return article in self._dict()

    def get(self, article, default=None):
        return self._dict().get(article, default)

    def __setitem__(self, article: str, value: Judgement) -> None:
        self._dict()[article] = value
        self.changed = True

    def __delitem__(self, article: str) -> None:
        del self._dict()[article]
        self.changed = True

    def __eq__(self, other) -> bool:
        if isinstance(other, (dict, JudgedTopic)):
            return self._dict() == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return repr(self._dict()) if self._items is not None else f"<{len(self)} judgements, not built>"


@dataclass
class Qrels:
    """FOL qrels: ``topics[topic][article]`` -> :class:`Judgement`, in file order.

    ``implied``: the articles whose doc_length no line gives (JSON Lines and Chroma CSV qrels,
    reference 2.11), their doc_length the largest end offset of their spans until a collection
    gives it (:func:`readsim.core.qrels_lengths.with_collection_lengths`)."""

    path: str
    topics: dict[str, dict[str, Judgement]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    implied: frozenset[str] = frozenset()

    def judgement(self, topic: str, article: str) -> Judgement | None:
        return self.topics.get(topic, {}).get(article)

    def relevant(self, topic: str, article: str) -> np.ndarray:
        """The relevant passages of ``article`` for ``topic`` (empty if not relevant or unjudged)."""
        j = self.judgement(topic, article)
        return j.passages if j is not None else iv.EMPTY

    def relevant_articles(self, topic: str) -> list[str]:
        """The relevant articles of ``topic`` in file order (read from the columns while the
        topic is as the file said: no :class:`Judgement` built)."""
        at = self.columns(topic)
        if at is None:
            return [a for a, j in self.topics.get(topic, {}).items() if j.relevant]
        cols, t = at
        rows = cols.by_topic[t]  # one line per article (a duplicate is an error)
        return list(cols.names(cols.key[rows[cols.rel_size[rows] > 0]]))

    def columns(self, topic: str) -> tuple[QrelsColumns, int] | None:
        """``(columns, topic id)`` while ``topics[topic]`` is what the file said (a
        :class:`JudgedTopic` not changed), else ``None``."""
        judged = self.topics.get(topic)
        if isinstance(judged, JudgedTopic) and not judged.changed:
            return judged.columns, judged.tid
        return None

    def totals(self, topic: str) -> tuple[int, int]:
        """``(Nrel, Trel_size)``: the topic's relevant articles and their summed relevant size."""
        at = self.columns(topic)
        if at is not None:
            cols, t = at
            nrel, trel = cols.totals
            return int(nrel[t]), int(trel[t])
        rel = [j.rel_size for j in self.topics.get(topic, {}).values() if j.relevant]
        return len(rel), int(sum(rel))

    def nrel(self, topic: str) -> int:
        """Number of relevant articles of ``topic`` (Nrel, Trel)."""
        return self.totals(topic)[0]


def read_qrels(path: str | os.PathLike, data: bytes | None = None) -> Qrels:
    """Read a FOL qrels file (from ``data`` when the file was already read, or made: ``path``
    then only names it in messages). Raises :class:`InputError` (``file:line: reason``) on bad
    lines. (:func:`readsim.core.formats.read_qrels` reads any qrels, recognised by content.)"""
    if data is None:
        data = read_bytes(path)
    cols = _scan(data)
    if cols is None:
        cols = _read_lines(path, data)
    return _qrels(str(path), cols)


@dataclass
class _Lines:
    """Qrels lines as columns (before the checks of :func:`_qrels`)."""

    line: np.ndarray
    topic: np.ndarray
    topic_names: Names
    article: np.ndarray
    article_names: Names
    rel_size: np.ndarray
    doc_length: np.ndarray
    bep: np.ndarray
    has_bep: np.ndarray
    span_row: np.ndarray  # the line (row) of each passage, rows in order
    span_start: np.ndarray
    span_end: np.ndarray


def _scan(data: bytes) -> _Lines | None:
    """Qrels columns read column-wise, or ``None`` when a line needs the line-by-line reader
    (which names what is wrong, or reads what the fast path does not vouch for)."""
    sc = scan_fields(data)
    if sc is None:
        return None
    count = sc.count
    n = len(count)
    if n and int(count.min()) < 5:
        return None
    words = sc.words
    topic, topic_names = sc.keys(0)
    article, article_names = sc.keys(2)
    rel_size = parse_digits(words, *sc.field(3))
    doc_length = parse_digits(words, *sc.field(4))
    has_bep = count > 5
    bep = np.full(n, -1, dtype=np.int64)
    rows = np.flatnonzero(has_bep)
    values = parse_digits(words, *sc.field(5, rows))
    if rel_size is None or doc_length is None or values is None:
        return None
    bep[rows] = values
    span_row, starts, ends = sc.fields_from(6)
    colon = np.flatnonzero(np.frombuffer(sc.data, np.uint8) == 58)
    at = np.searchsorted(colon, starts)
    if len(starts) and (np.any(at >= len(colon)) or np.any(np.searchsorted(colon, ends) - at != 1)):
        return None  # not exactly one colon in a passage
    mid = colon[np.minimum(at, max(len(colon) - 1, 0))] if len(starts) else starts
    if np.any(mid <= starts) or np.any(mid + 1 >= ends):
        return None
    offset = parse_digits(words, starts, mid)
    length = parse_digits(words, mid + 1, ends)
    if offset is None or length is None:
        return None
    if np.any((rel_size > 0) & (count < 7)):
        return None  # rel_size without passages: named line by line
    return _Lines(sc.line, topic, topic_names, article, article_names, rel_size, doc_length, bep, has_bep,
                  span_row, offset, offset + length)


def _read_lines(path, data: bytes) -> _Lines:
    """Qrels columns read line by line; raises :class:`InputError` at the first bad line."""
    numbers, topics, articles, rel_sizes, doc_lengths, beps = [], [], [], [], [], []
    span_row, span_start, span_end = [], [], []
    seen: dict[tuple[str, str], int] = {}
    for number, f in numbered_lines(path, data):
        if len(f) < 5:
            raise InputError(path, number, f"a qrels line needs at least 5 fields (topic Q0 file rel_size doc_length), found {len(f)}")
        rel_size = to_int(f[3], path, number, "rel_size")
        doc_length = to_int(f[4], path, number, "doc_length")
        if rel_size < 0 or doc_length < 0:
            raise InputError(path, number, "rel_size and doc_length must not be negative")
        bep = to_int(f[5], path, number, "best entry point") if len(f) > 5 else None
        row = len(numbers)
        for token in f[6:]:
            offset, sep, length = token.partition(":")
            if not sep:
                raise InputError(path, number, f"a passage is offset:length, not {token!r}")
            o = to_int(offset, path, number, "passage offset")
            k = to_int(length, path, number, "passage length")
            if o < 0 or k < 0:
                raise InputError(path, number, f"passage {token} has a negative offset or length")
            span_row.append(row)
            span_start.append(o)
            span_end.append(o + k)
        if rel_size > 0 and len(f) < 7:
            raise InputError(path, number, f"rel_size is {rel_size} but the line has no passages")
        first = seen.setdefault((f[0], f[2]), number)
        if first != number:
            raise InputError(path, number, f"duplicate judgement of article {f[2]} for topic {f[0]} (first at line {first})")
        numbers.append(number)
        topics.append(f[0])
        articles.append(f[2])
        rel_sizes.append(rel_size)
        doc_lengths.append(doc_length)
        beps.append(bep)
    topic, topic_names = Names.encode(topics)
    article, article_names = Names.encode(articles)
    i64 = np.int64
    return _Lines(np.asarray(numbers, dtype=i64), topic, topic_names, article, article_names,
                  np.asarray(rel_sizes, dtype=i64), np.asarray(doc_lengths, dtype=i64),
                  np.asarray([-1 if b is None else b for b in beps], dtype=i64),
                  np.asarray([b is not None for b in beps], dtype=bool),
                  np.asarray(span_row, dtype=i64), np.asarray(span_start, dtype=i64), np.asarray(span_end, dtype=i64))


def _qrels(path: str, c: _Lines) -> Qrels:
    """Check the columns (duplicates, passages) and hold them."""
    n = len(c.line)
    # topics in first appearance, each judgement's topic id
    if n:
        unique, first, inverse = np.unique(c.topic, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        tid = rank[inverse.reshape(-1)]
        topics = c.topic_names(unique[order])
    else:
        tid, topics = np.zeros(0, dtype=np.int64), []
    # duplicates: the same (topic, article) twice is an error naming both lines
    by_key = iv.pair_order(tid, c.article)
    dup = np.flatnonzero((tid[by_key][1:] == tid[by_key][:-1]) & (c.article[by_key][1:] == c.article[by_key][:-1]))
    if len(dup):
        second = by_key[dup + 1]
        k = int(np.argmin(second))  # the first line that repeats an earlier one
        j = int(second[k])
        same = np.flatnonzero((tid == tid[j]) & (c.article == c.article[j]))  # the first is the earliest
        raise InputError(path, int(c.line[j]), f"duplicate judgement of article {c.article_names(c.article[j:j + 1])[0]} "
                                               f"for topic {topics[tid[j]]} (first at line {int(c.line[same[0]])})")
    # passages: united per line (rows are in order; sort within a line by start)
    row, s, e = c.span_row, c.span_start, c.span_end
    if len(row) and np.any((row[1:] == row[:-1]) & (s[1:] < s[:-1])):
        o = np.argsort((row << iv.SHIFT) + s) if n < 1 << (63 - iv.SHIFT) else np.lexsort((s, row))
        row, s, e = row[o], s[o], e[o]
    keep = e > s
    p_start, p_end, pass_row, overlapping = iv.normalize_groups(row[keep], s[keep], e[keep], n)
    passages = np.column_stack([p_start, p_end]) if len(p_start) else np.zeros((0, 2), dtype=np.int64)
    pass_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(pass_row, minlength=n), out=pass_ptr[1:])
    covered = np.zeros(len(passages) + 1, dtype=np.int64)
    np.cumsum(passages[:, 1] - passages[:, 0], out=covered[1:])
    size = np.diff(covered[pass_ptr])
    has_spans = np.bincount(c.span_row, minlength=n) > 0
    rel_size = np.where(has_spans, size, c.rel_size)
    last_end = np.where(pass_ptr[1:] > pass_ptr[:-1], passages[np.maximum(pass_ptr[1:] - 1, 0), 1] if len(passages) else 0, -1)
    diagnostics: list[Diagnostic] = []
    overlap = np.zeros(n, dtype=bool)
    overlap[overlapping] = True
    differs = has_spans & (size != c.rel_size)
    past = (last_end >= 0) & (last_end > c.doc_length)
    for j in np.flatnonzero(overlap | differs | past).tolist():
        line = int(c.line[j])
        if overlap[j]:
            diagnostics.append(Diagnostic(path, line, "overlapping passages united"))
        if differs[j]:
            diagnostics.append(Diagnostic(path, line, f"rel_size {int(c.rel_size[j])} differs from the passages' size "
                                                      f"{int(size[j])}; using {int(size[j])}"))
        if past[j]:
            diagnostics.append(Diagnostic(path, line, f"a passage ends at {int(last_end[j])}, past doc_length {int(c.doc_length[j])}"))
    passages.flags.writeable = False
    by_topic_order = np.argsort(tid, kind="stable")
    cuts = np.searchsorted(tid[by_topic_order], np.arange(len(topics) + 1))
    by_topic = [by_topic_order[a:b] for a, b in zip(cuts[:-1], cuts[1:])]
    columns = QrelsColumns(topics, tid, c.article, c.article_names, rel_size, c.doc_length, c.bep, c.has_bep, c.line,
                           pass_ptr, passages, by_topic)
    return Qrels(path, {t: JudgedTopic(columns, k) for k, t in enumerate(topics)}, diagnostics)
