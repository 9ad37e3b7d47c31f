"""Conversions between readsim's input formats (docs/reference.md section 9.8, ``readsim-eval convert``).

- qrels: FOL (2.2) <-> JSON Lines spans (2.11): :func:`qrels_to_jsonl`, :func:`qrels_to_fol`;
- runs: FOL (2.3) <-> JSON Lines spans (2.11): :func:`run_to_jsonl`, :func:`run_to_fol`, one
  output line per input line, in the order the reader ranks them, so that the converted file
  reads to the same ranked articles, passages, Focused-task lines and run id;
- collections: INEX article XML (2.8, 2.10) -> a JSON Lines file of documents or a folder of
  ``ID.txt`` files (2.13): :func:`collection_documents`, each article's counted text (section 1.1)
  as the document's text, checked to give the article's offsets.

Every function reads its input with the engine's own reader first (so bad input is the
reader's :class:`InputError` naming file and line) and yields the output's lines; the caller
writes them (atomically: :mod:`readsim.core.atomic`).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator

import numpy as np

from .errors import InputError
from .formats import read_fol_qrels, read_jsonl_run, read_qrels, read_run
from .formats.jsonl import is_jsonl, json_lines
from .formats.lines import read_bytes, read_text
from .formats.qrels import Qrels


def _dump(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"


def _judgements(qrels: Qrels):
    """Every (topic, judgement) in the order of the file's lines."""
    items = [(j.line, topic, j) for topic, judged in qrels.topics.items() for j in judged.values()]
    items.sort(key=lambda item: item[0])
    return [(topic, j) for _, topic, j in items]


# -- qrels -----------------------------------------------------------------------------------------


def qrels_to_jsonl(path: str, data: bytes | None = None) -> tuple[Qrels, Iterator[str]]:
    """FOL qrels -> JSON Lines: one line per relevant passage (``start``, ``length``,
    ``doc_length``, ``bep`` when the line has one), one ``"grade": 0`` line per judged
    non-relevant article. A document whose doc_length differs between two topics is an error
    naming the line (JSON Lines qrels give one doc_length per document)."""
    qrels = read_fol_qrels(path, data)
    items = _judgements(qrels)
    lengths: dict[str, tuple[int, int]] = {}
    for _, j in items:
        before = lengths.setdefault(j.article, (j.doc_length, j.line))
        if before[0] != j.doc_length:
            raise InputError(path, j.line, f"doc_length {j.doc_length} of article {j.article} differs from "
                                           f"{before[0]} at line {before[1]}: JSON Lines qrels give one doc_length "
                                           "per document")

    def lines() -> Iterator[str]:
        for topic, j in items:
            extra = {"doc_length": j.doc_length}
            if j.bep is not None:
                extra["bep"] = j.bep
            passages = j.passages if j.relevant else np.zeros((0, 2), dtype=np.int64)
            if len(passages) == 0:
                yield _dump({"topic": topic, "doc": j.article, "grade": 0, **extra})
            for start, end in passages.tolist():
                yield _dump({"topic": topic, "doc": j.article, "start": start, "length": end - start, **extra})
    return qrels, lines()


def qrels_to_fol(path: str, data: bytes | None = None, min_grade: int = 1) -> tuple[Qrels, Iterator[str]]:
    """Qrels of any format (JSON Lines, Chroma's CSV, FOL) -> FOL: ``topic Q0 doc rel_size
    doc_length [bep offset:length ...]``, one line per judgement in the order of its first line;
    rel_size is the size of the relevant passages' union; a relevant line without a best entry
    point gets its first passage's start (the FOL line needs the column before its passages)."""
    qrels = read_qrels(path, data, min_grade)

    def lines() -> Iterator[str]:
        for topic, j in _judgements(qrels):
            passages = j.passages if j.relevant else np.zeros((0, 2), dtype=np.int64)
            size = int((passages[:, 1] - passages[:, 0]).sum()) if len(passages) else 0
            fields = [topic, "Q0", j.article, str(size), str(j.doc_length)]
            bep = j.bep if j.bep is not None or not len(passages) else int(passages[0, 0])
            if bep is not None:
                fields.append(str(bep))
            fields += [f"{s}:{e - s}" for s, e in passages.tolist()]
            yield " ".join(fields) + "\n"
    return qrels, lines()


# -- runs ------------------------------------------------------------------------------------------


def _score(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def run_to_jsonl(path: str, strict: bool = False, data: bytes | None = None):
    """A FOL run -> JSON Lines: one span a line in the file's order (``start``, ``length``; a
    6-field line ``"whole": true``), with ``rank`` (the file's rank column when it never
    decreases along a topic's lines; else each line's position in its topic, and a note says
    so), ``score`` (the rsv column, when every line's is a finite number) and ``run``. A 7-field
    line (an element XPath) is an error naming it. Returns ``(run, lines, notes)``."""
    if data is None:
        data = read_bytes(path)
    if is_jsonl(data):
        raise InputError(path, None, "is already a JSON Lines run; convert it to FOL with --to fol")
    run = read_run(path, strict, data)
    rows = []
    for number, line in enumerate(read_text(path, data).split("\n"), 1):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if len(f) == 7:
            raise InputError(path, number, f"an element XPath ({f[6][:60]}): JSON Lines spans hold offsets only; "
                                           "give the element's offsets")
        rows.append((number, f))
    notes: list[str] = []
    ranks: list[int] | None = []
    last: dict[str, int] = {}
    for number, f in rows:
        try:
            rank = int(f[3])
        except ValueError:
            ranks = None
            notes.append(f"{path}:{number}: rank {f[3][:20]!r} is not a whole number: each line's rank is its "
                         "position in its topic")
            break
        if rank < last.get(f[0], rank):
            ranks = None
            notes.append(f"{path}:{number}: the rank column decreases along topic {f[0]}: each line's rank is "
                         "its position in its topic (the line order is the rank)")
            break
        last[f[0]] = rank
        ranks.append(rank)
    if ranks is None:
        count: dict[str, int] = {}
        ranks = []
        for _, f in rows:
            count[f[0]] = count.get(f[0], 0) + 1
            ranks.append(count[f[0]])
    scores = [_score(f[4]) for _, f in rows]
    keep_scores = all(s is not None for s in scores)

    def lines() -> Iterator[str]:
        for (_, f), rank, score in zip(rows, ranks, scores):
            obj: dict = {"topic": f[0], "doc": f[2]}
            if len(f) == 8:
                obj["start"] = int(f[6])
                obj["length"] = int(f[7])
            else:
                obj["whole"] = True
            obj["rank"] = rank
            if keep_scores:
                obj["score"] = score
            obj["run"] = f[5]
            yield _dump(obj)
    return run, lines(), notes


def run_to_fol(path: str, strict: bool = False, data: bytes | None = None):
    """A JSON Lines run -> FOL: its lines in the order the reader ranks them (``rank``
    ascending, else ``score`` descending, else line order; a topic's lines together, topics in
    the order of their first line), ``topic Q0 doc rank rsv run_id offset length`` (a whole
    document: 6 fields); rank the line's ``rank`` (else its position in its topic), rsv its
    ``score`` (else 1/position, 6 decimals), the run id its ``run`` (else the run's id).
    Returns ``(run, lines)``."""
    if data is None:
        data = read_bytes(path)
    if not is_jsonl(data):
        raise InputError(path, None, "is not a JSON Lines run (its first line does not start with '{'); "
                                     "convert it to JSON Lines with --to jsonl")
    run = read_jsonl_run(path, strict, data)
    objs = [obj for _, obj in json_lines(path, data)]
    topics = [str(obj["topic"]) for obj in objs]
    first: dict[str, int] = {}
    for k, topic in enumerate(topics):
        first.setdefault(topic, k)
    has_rank = bool(objs) and all("rank" in obj for obj in objs)
    has_score = bool(objs) and all("score" in obj for obj in objs)
    key = ((lambda k: objs[k]["rank"]) if has_rank else (lambda k: -objs[k]["score"]) if has_score else (lambda k: 0))
    order = sorted(range(len(objs)), key=lambda k: (first[topics[k]], key(k), k))

    def lines() -> Iterator[str]:
        position: dict[str, int] = {}
        for k in order:
            obj, topic = objs[k], topics[k]
            position[topic] = position.get(topic, 0) + 1
            rank = obj["rank"] if has_rank else position[topic]
            rsv = repr(float(obj["score"])) if has_score else f"{1 / position[topic]:.6f}"
            run_id = obj.get("run", run.run_id)
            fields = [topic, "Q0", str(obj["doc"]), str(rank), rsv, run_id]
            if "start" in obj:
                start = obj["start"]
                end = obj["end"] if "end" in obj else start + obj["length"]
                fields += [str(start), str(end - start)]
            yield " ".join(fields) + "\n"
    return run, lines()


# -- collections -----------------------------------------------------------------------------------


def document_text(article, unit: str) -> str:
    """The article's counted text (section 1.1), checked to give its offsets: its length in
    ``unit`` (UTF-8 bytes or code points) is the article's length. An :class:`InputError`
    naming the article otherwise (a lone surrogate, which no UTF-8 file can hold)."""
    text = article.text
    try:
        size = len(text.encode("utf-8")) if unit == "bytes" else len(text)
    except UnicodeEncodeError as err:
        raise InputError(article.path or article.name, None, f"text not encodable as UTF-8 ({err.reason})") from None
    if size != article.length:
        raise InputError(article.path or article.name, None, f"text of {size} {unit}, but the article counts "
                                                             f"{article.length}: not convertible with the same offsets")
    return text


def collection_documents(collection, unit: str, progress: Callable[[int, int], None] | None = None
                         ) -> Iterator[tuple[str, str, str]]:
    """``(id, title, text)`` of every article of ``collection`` (a :class:`~readsim.core.collection.Collection`
    opened in ``unit``), in name order; ``progress(done, total)`` after each."""
    names = sorted(collection.names())
    for done, name in enumerate(names, 1):
        article = collection.article(name)
        yield name, article.title, document_text(article, unit)
        if progress is not None:
            progress(done, len(names))


def document_line(doc_id: str, title: str, text: str) -> str:
    """One line of a JSON Lines collection (reference 2.13)."""
    return _dump({"id": doc_id, "title": title, "text": text})


def txt_name(doc_id: str) -> str:
    """``ID.txt``; an id that cannot be a file name (a ``/``, a NUL, ``.`` or ``..``) is an error."""
    if not doc_id or "/" in doc_id or "\0" in doc_id or doc_id in (".", "..") or os.sep in doc_id:
        raise InputError(doc_id, None, "this document id cannot be a file name")
    return doc_id + ".txt"


def txt_bytes(doc_id: str, text: str) -> bytes:
    """The ``.txt`` file of a document: its text as UTF-8; a text starting with U+FEFF is an
    error (a ``.txt`` file's leading byte-order mark is not text, 2.13)."""
    if text.startswith("\ufeff"):
        raise InputError(doc_id, None, "the text starts with U+FEFF, which a .txt file reads as a byte-order mark; "
                                       "convert to JSON Lines instead")
    return text.encode("utf-8")
