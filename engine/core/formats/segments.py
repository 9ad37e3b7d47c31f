"""Segment runs: runs of segment ids in TREC's six columns with a segment table (docs/reference.md section 2.14).

A segment run names pre-cut pieces of documents (passages, chunks) by id, as TREC's passage and
segment tracks do: ``topic Q0 segment rank score run``. The segment table, one JSON object a line
``{"id", "doc", "start", "end"}`` (``"length"`` for ``"end"``), says which span of which document
each id is, in the qrels' unit. Each run line becomes the span line ``topic doc start end`` and
the lines, in file order, are read as a FOL run's lines are
(:func:`readsim.core.formats.jsonl.span_run`, then :func:`readsim.core.formats.folrun._analyse`):
line order is the rank, consecutive segments of one document are one ranked article, a document
that comes back later is merged into its first rank, overlapping segments are united, each with
the same diagnostics naming the run's lines.

Bad input is an :class:`InputError` naming file and line: a table line that is not a segment
(the table's file and line), a second table line of one id (both lines), a run line without six
fields, or a segment id the table lacks (the run's file and line).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..errors import InputError
from .jsonl import json_lines, name, span, span_run
from .lines import numbered_lines, read_bytes
from .run import Run


@dataclass
class SegmentTable:
    """The segments of a table file: ``spans[id] = (doc, start, end)``, ``start`` and ``end``
    (exclusive) in the qrels' unit (bytes or characters); ``lines[id]`` the table line that
    gives it."""

    path: str
    spans: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.spans)


def read_segments(path: str | os.PathLike, data: bytes | None = None) -> SegmentTable:
    """Read a segment table (JSON Lines, reference 2.14): ``id`` and ``doc`` names (a string
    without white space or an integer), ``start`` and one of ``end`` or ``length`` (integers,
    0 <= start <= end < 2^40). Raises :class:`InputError` naming the table's file and line for a
    bad line, and a second line of one id (naming the first)."""
    path = str(path)
    if data is None:
        data = read_bytes(path)
    table = SegmentTable(path)
    for number, obj in json_lines(path, data):
        sid = name(obj, "id", path, number)
        doc = name(obj, "doc", path, number)
        start, end = span(obj, path, number)
        if sid in table.spans:
            raise InputError(path, number, f"a second segment of id {sid!r}: the first is at line {table.lines[sid]}")
        table.spans[sid] = (doc, start, end)
        table.lines[sid] = number
    return table


def read_segment_run(path: str | os.PathLike, segments: SegmentTable, strict: bool = False,
                     data: bytes | None = None) -> Run:
    """A segment run (``topic Q0 segment rank score run``, reference 2.14) as the
    :class:`~readsim.core.formats.run.Run` of the FOL run whose lines, in the same order, give
    each segment's document and span (``rank`` and ``score`` are not read: line order is the
    rank, as in FOL runs, 2.3). Raises :class:`InputError` naming the run's file and line for a
    line without six fields or a segment the table lacks (``strict``: as for FOL runs)."""
    path = str(path)
    numbers, topics, docs, starts, ends, run_ids = [], [], [], [], [], []
    spans = segments.spans
    for number, f in numbered_lines(path, data):
        if len(f) != 6:
            raise InputError(path, number, f"a segment run line has 6 fields (topic Q0 segment rank score run), "
                                           f"found {len(f)}")
        found = spans.get(f[2])
        if found is None:
            raise InputError(path, number, f"segment {f[2]!r} is not in the segment table {segments.path}")
        doc, start, end = found
        numbers.append(number)
        topics.append(f[0])
        docs.append(doc)
        starts.append(start)
        ends.append(end)
        run_ids.append(f[5])
    n = len(numbers)
    return span_run(path, numbers, topics, docs, starts, ends, [None] * n, [None] * n, run_ids, strict,
                    order_by_rank=False)
