"""Chroma's chunking-evaluation questions as qrels (docs/reference.md section 2.12).

``questions_df.csv`` as Chroma ships it: a header ``question,references,corpus_id``, then one
question a row; ``references`` is a JSON list of ``{"content", "start_index", "end_index"}``
(character offsets, end exclusive), ``corpus_id`` the document. The topic is the row's number
from 1 (the first question is topic ``1``), every reference a span of grade 1, the documents'
doc_length the largest end offset (as JSON Lines qrels without ``doc_length``: section 2.11).
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import os

from ..errors import InputError
from .lines import read_bytes, read_text

COLUMNS = ("references", "corpus_id")


def is_questions_csv(data: bytes) -> bool:
    """True when the first line is a CSV header naming the ``references`` and ``corpus_id`` columns."""
    head = data[:4096]
    if head.startswith(codecs.BOM_UTF8):
        head = head[len(codecs.BOM_UTF8):]
    first = head.split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    names = [c.strip() for c in first.split(",")]
    return all(c in names for c in COLUMNS)


def read_questions_csv(path: str | os.PathLike, data: bytes | None = None, min_grade: int = 1):
    """The questions file as :class:`~readsim.core.formats.qrels.Qrels`; a row whose references
    are not a JSON list of objects with whole ``start_index`` < ``end_index`` is an
    :class:`InputError` naming the file's line."""
    from .jsonl import integer, span_qrels

    if data is None:
        data = read_bytes(path)
    text = read_text(path, data)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        raise InputError(path, 1, "no CSV header") from None
    header = [h.strip() for h in header]
    ref_at, doc_at = header.index("references"), header.index("corpus_id")
    spans = []
    row = 0
    while True:
        number = reader.line_num + 1  # the line where the next row starts
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            raise InputError(path, number, f"not CSV ({err})") from None
        if not fields or not any(f.strip() for f in fields):
            continue
        row += 1
        if len(fields) != len(header):
            raise InputError(path, number, f"{len(fields)} columns, the header has {len(header)}")
        doc = fields[doc_at].strip()
        if not doc or any(c.isspace() for c in doc):
            raise InputError(path, number, f"corpus_id must be a name without white space, not {doc[:40]!r}")
        try:
            refs = json.loads(fields[ref_at])
        except ValueError as err:
            raise InputError(path, number, f"references is not JSON ({err})") from None
        if not isinstance(refs, list):
            raise InputError(path, number, "references must be a JSON list")
        for ref in refs:
            if not isinstance(ref, dict) or "start_index" not in ref or "end_index" not in ref:
                raise InputError(path, number, "each reference needs start_index and end_index")
            start = integer(ref, "start_index", path, number)
            end = integer(ref, "end_index", path, number)
            if end < start:
                raise InputError(path, number, f"end_index {end} is before start_index {start}")
            spans.append((number, str(row), doc, start, end, 1, None))
    return span_qrels(str(path), spans, min_grade)
