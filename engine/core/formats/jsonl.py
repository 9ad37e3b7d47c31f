"""Spans as users write them: qrels, runs and topics in JSON Lines (docs/reference.md section 2.11).

One JSON object a line; blank lines are skipped; a file is JSON Lines when its first non-blank
line starts with ``{`` (:func:`is_jsonl`), as a run is XML when it starts with ``<``.

- qrels: ``{"topic", "doc", "start", "end"}`` (or ``"length"`` for ``"end"``), optional
  ``"grade"`` (default 1) and ``"doc_length"``; one span a line. Spans of grade >= ``min_grade``
  are the relevant text; a document listed only with spans below it (or with ``"grade": 0``
  and no offsets) is judged non-relevant.
- runs: ``{"topic", "doc", "start", "end"}`` (or ``"length"``), optional ``"rank"``,
  ``"score"``, ``"run"``; one span a line. The lines are put in rank order (``rank``
  ascending, else ``score`` descending, else line order) and read as a FOL run's lines are
  (:func:`readsim.core.formats.folrun._analyse`): the same :class:`~readsim.core.formats.run.Run`,
  columns and policies (an article that comes back is merged into its first rank, overlapping
  passages united, each with the same diagnostics).
- topics: ``{"topic", "title"}`` (read by :mod:`.topics` with :func:`json_lines`).

Both readers build the columns the FOL readers build and hand them to the same analysis, so
every path downstream (the column-wise evaluation included) reads them unchanged. Bad input is
an :class:`InputError` naming file and line.
"""

from __future__ import annotations

import codecs
import json
import math
import os
import re

import numpy as np

from .. import intervals as iv
from ..errors import InputError
from .folrun import _analyse
from .lines import MAX_OFFSET, Names, read_bytes, read_text
from .qrels import _Lines, _qrels
from .run import WHOLE_LINE, RunLines

_BLANK = b" \t\r\n"


def is_jsonl(data: bytes) -> bool:
    """True when the first non-blank line (after a UTF-8 byte-order mark) starts with ``{``."""
    head = data[:4096]
    if head.startswith(codecs.BOM_UTF8):
        head = head[len(codecs.BOM_UTF8):]
    return head.lstrip(_BLANK).startswith(b"{")


def json_lines(path, data: bytes | None = None):
    """Yield ``(line number, object)`` for each non-blank line; a line that is not a JSON object
    is an :class:`InputError` naming file and line."""
    text = read_text(path, data)
    for number, line in enumerate(text.split("\n"), 1):
        line = line.strip(" \t\r")
        if not line:
            continue
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError) as err:
            reason = err.msg if isinstance(err, json.JSONDecodeError) else "nested too deeply"
            raise InputError(path, number, f"not a JSON object ({reason})") from None
        if not isinstance(obj, dict):
            raise InputError(path, number, f"not a JSON object (a JSON {type(obj).__name__})")
        yield number, obj


#: white space (what ``str.isspace`` calls so: the same table) or a C0/DEL/C1 control character
_NOT_IN_NAME = re.compile(r"[\s\x00-\x1f\x7f-\x9f]")
_SPACE = re.compile(r"\s")


def name(obj: dict, key: str, path, number: int) -> str:
    """A topic or document name: a non-empty string without white space or control
    characters, or an integer (written in decimal)."""
    if key not in obj:
        raise InputError(path, number, f"missing field {key!r}")
    value = obj[key]
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str) or not value:
        raise InputError(path, number, f"{key} must be a non-empty string or an integer, not {json.dumps(value)[:40]}")
    if _NOT_IN_NAME.search(value):
        raise InputError(path, number, f"{key} {value[:40]!r} holds white space or a control character")
    return value


def integer(obj: dict, key: str, path, number: int, low: int = 0) -> int:
    """A whole number of at least ``low`` and below 2^40 (JSON ``12``; not ``12.0``, ``"12"`` or ``true``)."""
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(path, number, f"{key} must be an integer, not {json.dumps(value)[:40]}")
    if value < low:
        raise InputError(path, number, f"{key} {value} is negative" if low == 0 else f"{key} {value} is below {low}")
    if abs(value) >= MAX_OFFSET:
        raise InputError(path, number, f"{key} {value} is out of range (must be below 2^40)")
    return value


def span(obj: dict, path, number: int) -> tuple[int, int]:
    """The line's ``[start, end)``: ``start`` and one of ``end`` or ``length``."""
    if "start" not in obj:
        raise InputError(path, number, "missing field 'start'")
    start = integer(obj, "start", path, number)
    if ("end" in obj) == ("length" in obj):
        raise InputError(path, number, "give one of 'end' or 'length'" if "end" in obj else "missing field 'end' (or 'length')")
    if "length" in obj:
        end = start + integer(obj, "length", path, number)
    else:
        end = integer(obj, "end", path, number)
        if end < start:
            raise InputError(path, number, f"end {end} is before start {start}")
    if end >= MAX_OFFSET:
        raise InputError(path, number, f"end {end} is out of range (must be below 2^40)")
    return start, end


# -- qrels ---------------------------------------------------------------------------------------


def read_jsonl_qrels(path: str | os.PathLike, data: bytes | None = None, min_grade: int = 1):
    """JSON Lines qrels (reference 2.11) as :class:`~readsim.core.formats.qrels.Qrels`."""
    if data is None:
        data = read_bytes(path)
    spans = []
    beps: dict[tuple[str, str], tuple[int, int]] = {}
    for number, obj in json_lines(path, data):
        topic, doc = name(obj, "topic", path, number), name(obj, "doc", path, number)
        grade = integer(obj, "grade", path, number) if "grade" in obj else 1
        if grade == 0 and not any(k in obj for k in ("start", "end", "length")):
            start = end = -1  # the document judged non-relevant, no span
        else:
            start, end = span(obj, path, number)
        doc_length = integer(obj, "doc_length", path, number) if "doc_length" in obj else None
        if "bep" in obj:
            bep = integer(obj, "bep", path, number)
            before = beps.setdefault((topic, doc), (bep, number))
            if before[0] != bep:
                raise InputError(path, number, f"bep {bep} of topic {topic}, document {doc} differs from "
                                               f"{before[0]} at line {before[1]}")
        spans.append((number, topic, doc, start, end, grade, doc_length))
    return span_qrels(str(path), spans, min_grade, {key: bep for key, (bep, _) in beps.items()})


def span_qrels(path: str, spans: list[tuple], min_grade: int = 1, beps: dict[tuple[str, str], int] | None = None):
    """Qrels from spans ``(line, topic, doc, start, end, grade, doc_length or None)`` (``start``
    -1: no span), one judgement per (topic, doc) at its first line: its relevant passages the
    spans of grade >= ``min_grade``; doc_length as given (every line giving it must agree), else
    the largest end of the document's spans in the file (reference 2.11); ``beps``: the best
    entry point of a (topic, doc) that has one."""
    rows: dict[tuple[str, str], int] = {}
    given: dict[str, tuple[int, int]] = {}
    largest: dict[str, int] = {}
    first_line, topics, docs = [], [], []
    span_row, span_start, span_end = [], [], []
    for number, topic, doc, start, end, grade, doc_length in spans:
        row = rows.setdefault((topic, doc), len(rows))
        if row == len(first_line):
            first_line.append(number)
            topics.append(topic)
            docs.append(doc)
        if doc_length is not None:
            before = given.setdefault(doc, (doc_length, number))
            if before[0] != doc_length:
                raise InputError(path, number, f"doc_length {doc_length} of document {doc} differs from "
                                               f"{before[0]} at line {before[1]}")
        if start >= 0:
            largest[doc] = max(largest.get(doc, 0), end)
            if grade >= min_grade:
                span_row.append(row)
                span_start.append(start)
                span_end.append(end)
    i64 = np.int64
    n = len(first_line)
    row_a, start_a, end_a = (np.asarray(x, dtype=i64) for x in (span_row, span_start, span_end))
    order = np.lexsort((start_a, row_a))
    row_a, start_a, end_a = row_a[order], start_a[order], end_a[order]
    keep = end_a > start_a
    s, e, g, _ = iv.normalize_groups(row_a[keep], start_a[keep], end_a[keep], n)
    rel_size = np.bincount(g, weights=e - s, minlength=n).astype(i64) if n else np.zeros(0, i64)
    doc_length = np.asarray([given[d][0] if d in given else largest.get(d, 0) for d in docs], dtype=i64)
    topic, topic_names = Names.encode(topics)
    article, article_names = Names.encode(docs)
    beps = beps or {}
    bep = np.asarray([beps.get((t, d), -1) for t, d in zip(topics, docs)], dtype=i64)
    lines = _Lines(np.asarray(first_line, dtype=i64), topic, topic_names, article, article_names, rel_size, doc_length,
                   bep, bep >= 0, row_a, start_a, end_a)
    qrels = _qrels(path, lines)
    qrels.implied = frozenset(d for d in docs if d not in given)
    return qrels


# -- runs ----------------------------------------------------------------------------------------


def read_jsonl_run(path: str | os.PathLike, strict: bool = False, data: bytes | None = None):
    """A JSON Lines run (reference 2.11) as the :class:`~readsim.core.formats.run.Run` a FOL run
    with the same lines in rank order gives."""
    path = str(path)
    if data is None:
        data = read_bytes(path)
    numbers, topics, docs, starts, ends, ranks, scores, run_ids = [], [], [], [], [], [], [], []
    whole: list[int] = []
    for number, obj in json_lines(path, data):
        numbers.append(number)
        topics.append(name(obj, "topic", path, number))
        docs.append(name(obj, "doc", path, number))
        if obj.get("whole") is True and not any(k in obj for k in ("start", "end", "length")):
            whole.append(len(starts))  # the whole document, as a FOL run's 6-field line
            start, end = WHOLE_LINE
        else:
            start, end = span(obj, path, number)
        starts.append(start)
        ends.append(end)
        ranks.append(integer(obj, "rank", path, number, low=-(MAX_OFFSET - 1)) if "rank" in obj else None)
        if "score" in obj:
            score = obj["score"]
            if not _finite(score):
                raise InputError(path, number, f"score must be a finite number, not {json.dumps(score)[:40]}")
            scores.append(float(score))
        else:
            scores.append(None)
        run = obj.get("run", os.path.basename(path))
        if not isinstance(run, str) or not run or _SPACE.search(run):
            raise InputError(path, number, f"run must be a non-empty string without white space, not {json.dumps(run)[:40]}")
        run_ids.append(run)
    return span_run(path, numbers, topics, docs, starts, ends, ranks, scores, run_ids, strict, whole=whole)


def _finite(value) -> bool:
    """A JSON number (not ``true``/``false``) that is a finite float (an integer too large for
    one is not: an error, not a crash)."""
    if type(value) not in (int, float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _key(values: list, what: str, path: str, numbers: list[int]) -> list | None:
    """``values`` when every line has one, None when none has; an error naming the first line
    without one otherwise."""
    missing = [k for k, v in enumerate(values) if v is None]
    if len(missing) == len(values):
        return None
    if missing:
        first = next(k for k, v in enumerate(values) if v is not None)
        raise InputError(path, numbers[missing[0]], f"no {what!r} here but line {numbers[first]} has one: "
                                                    f"give it on every line or on none")
    return values


def span_run(path: str, numbers, topics, docs, starts, ends, ranks, scores, run_ids, strict: bool = False,
             order_by_rank: bool = True, whole=()):
    """The run of span lines: put in rank order (``ranks`` ascending, else ``scores``
    descending, else line order; topics in first appearance), then analysed as a FOL run's lines
    (``whole``: the indexes of the lines that retrieve the whole document, a 6-field line)."""
    i64 = np.int64
    n = len(numbers)
    rank = _key(ranks, "rank", path, numbers) if order_by_rank else None
    score = _key(scores, "score", path, numbers) if order_by_rank and rank is None else None
    topic, topic_names = Names.encode(list(topics))
    order = np.arange(n)
    if rank is not None or score is not None:
        key = np.asarray(rank, dtype=np.float64) if rank is not None else -np.asarray(score, dtype=np.float64)
        _, first, inverse = np.unique(topic, return_index=True, return_inverse=True)
        topic_order = np.argsort(np.argsort(first, kind="stable"), kind="stable")[inverse.reshape(-1)]
        order = np.lexsort((np.arange(n), key, topic_order))
    article, article_names = Names.encode([docs[k] for k in order.tolist()])
    run_id, run_id_names = Names.encode([run_ids[k] for k in order.tolist()])
    kind = np.full(n, 8, dtype=np.int8)
    kind[np.asarray(whole, dtype=np.int64)] = 6
    lines = RunLines(np.asarray(numbers, dtype=i64)[order], topic[order], article, kind[order],
                     np.asarray(starts, dtype=i64)[order], np.asarray(ends, dtype=i64)[order], run_id,
                     topic_names, article_names, run_id_names, {})
    return _analyse(path, lines, strict, lengths=False)
