"""FOL runs (INEX 2009-2010 "TREC++"): ``topic Q0 file rank rsv run_id offset length``.

The line order is the rank: the rank and rsv columns are not trusted, and a new article
rank starts where the file changes. A 7-field line carries an element XPath in column 7
instead of ``offset length`` (resolved with the collection, see :mod:`engine.batch`); a
6-field line retrieves the whole article. Offsets are in the run's unit (UTF-8 bytes for
the real INEX 2009/2010 runs).

Policies (SPEC section 7), each a :class:`Diagnostic` (or, with ``strict=True``, an
:class:`InputError` as the official tool rejects such runs):

- an article that reappears later in its topic (interleaved with other articles) is merged
  into its first rank;
- a topic split into two blocks is merged into its first block;
- overlapping passages of one article are united;
- a negative offset or length, or too few fields, is always an :class:`InputError`.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from .. import intervals as iv
from ..errors import Diagnostic, InputError
from .lines import numbered_lines, to_int


@dataclass
class RunArticle:
    """One ranked article of a topic: its passages, XPaths, and where it was read from.

    ``passages`` is a normalized ``(k, 2)`` int64 array in the run's unit, or ``None`` when
    it names no offsets; ``xpaths`` holds element paths (7-field lines, XML ``<path>``) and
    ``pointers`` XPointer ``(start, end)`` pairs (XML ``<passage>``), both converted to
    offsets with the collection (:func:`engine.batch.retrieved_passages`); with none of the
    three the article is retrieved whole. ``line`` is the article's first line in the file;
    ``lines`` every result line of the article (1-based line numbers, file order: more than one
    when the article has several passages or reappears later, interleaved), empty for results
    that were not read from a file (simulated or edited). ``line_spans`` (FOL runs only) is the
    ``(len(lines), 2)`` int64 array of each line's raw ``[offset, offset + length)``, zero
    lengths and overlaps kept (the Focused task's ranks and Best in Context's entry point): a
    6-field line is :data:`WHOLE_LINE` (the whole article), a 7-field line :data:`XPATH_LINE`
    (its XPath is the next one of ``xpaths``).
    """

    article: str
    rank: int
    passages: np.ndarray | None
    xpaths: list[str]
    line: int
    pointers: list[tuple[str, str]] = field(default_factory=list)
    lines: tuple[int, ...] = ()
    line_spans: np.ndarray | None = None

    @property
    def entry_point(self) -> int | None:
        """Best in Context's entry point, in the run's unit: the smallest offset of the article's
        offset lines (a BiC run has one line per article whose offset is the entry point and
        whose length is any integer, usually 0); else the start of the first retrieved passage;
        0 for a whole-article result; ``None`` when only XPaths or XPointers name the passages
        (the caller resolves them, :func:`engine.batch.retrieved_passages`)."""
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
    """A FOL run: ``topics[topic]`` -> ranked list of :class:`RunArticle`, in file order."""

    path: str
    run_id: str
    topics: dict[str, list[RunArticle]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def article(self, topic: str, article: str) -> RunArticle | None:
        for entry in self.topics.get(topic, []):
            if entry.article == article:
                return entry
        return None


WHOLE_LINE = (0, -1)
"""``line_spans`` row of a 6-field line: the whole article, ``[0, doc_length)``."""
XPATH_LINE = (-1, -2)
"""``line_spans`` row of a 7-field line: an element XPath, resolved with the collection."""

END_LIKE_MIN = 10


def read_run(path: str | os.PathLike, strict: bool = False, data: bytes | None = None) -> Run:
    """Read a FOL run (from ``data`` when the file was already read). Raises
    :class:`InputError` (``file:line: reason``) on bad lines."""
    path = str(path)
    spans: dict[tuple[str, str], list[tuple[int, int]]] = {}
    whole: set[tuple[str, str]] = set()
    xpaths: dict[tuple[str, str], list[str]] = {}
    order: dict[str, list[tuple[str, int]]] = {}
    line_numbers: dict[tuple[str, str], list[int]] = {}
    line_spans: dict[tuple[str, str], list[tuple[int, int]]] = {}
    run_ids: Counter[str] = Counter()
    diagnostics: list[Diagnostic] = []
    current: tuple[str, str] | None = None
    closed_topics: set[str] = set()
    reappear: dict[str, list[int]] = {}
    split_topics: dict[str, int] = {}
    end_like: list[int] = []  # lines whose length is at least their offset
    shorter = 0  # lines whose length is smaller than their (positive) offset

    def problem(line: int, message: str) -> None:
        if strict:
            reason = message.split(";")[0]
            raise InputError(path, line, f"{reason}; rejected (--strict), as the official INEX tool does")
        diagnostics.append(Diagnostic(path, line, message))

    for number, f in numbered_lines(path, data):
        if len(f) < 6:
            raise InputError(path, number, f"a run line needs 6 to 8 fields (topic Q0 file rank rsv run_id [offset length | xpath]), found {len(f)}")
        if len(f) > 8:
            raise InputError(path, number, f"a run line has at most 8 fields, found {len(f)}")
        topic, article = f[0], f[2]
        run_ids[f[5]] += 1
        key = (topic, article)
        if current is None or current[0] != topic:
            if topic in closed_topics and topic not in split_topics:
                split_topics[topic] = number
            if current is not None:
                closed_topics.add(current[0])
        if key != current:
            ranked = order.setdefault(topic, [])
            if key in line_numbers:
                reappear.setdefault(topic, []).append(number)
            else:
                ranked.append((article, number))
            current = key
        line_numbers.setdefault(key, []).append(number)
        if len(f) == 8:
            offset = to_int(f[6], path, number, "offset")
            length = to_int(f[7], path, number, "length")
            if offset < 0 or length < 0:
                raise InputError(path, number, f"negative offset or length ({offset} {length})")
            spans.setdefault(key, []).append((offset, offset + length))
            line_spans.setdefault(key, []).append((offset, offset + length))
            if offset > 0:
                if length >= offset:
                    end_like.append(number)
                else:
                    shorter += 1
        elif len(f) == 7:
            xpaths.setdefault(key, []).append(f[6])
            line_spans.setdefault(key, []).append(XPATH_LINE)
        else:
            whole.add(key)
            line_spans.setdefault(key, []).append(WHOLE_LINE)

    if len(end_like) >= END_LIKE_MIN and shorter == 0:
        diagnostics.append(Diagnostic(path, end_like[0], f"column 8 looks like an end offset rather than a length: it is "
                                      f"never smaller than column 7 on {len(end_like)} lines with a positive offset"))
    for topic, line in split_topics.items():
        problem(line, f"topic {topic} appears in two blocks; merged into its first block")
    if reappear:
        first_topic, lines = next(iter(reappear.items()))
        count = sum(len(v) for v in reappear.values())
        problem(lines[0], f"{count} result lines in {len(reappear)} topics (first: topic {first_topic}) return to an "
                          f"article ranked earlier (interleaved articles); merged into the article's first rank")
    run = Run(path, run_ids.most_common(1)[0][0] if run_ids else os.path.basename(path))
    if len(run_ids) > 1:
        diagnostics.append(Diagnostic(path, None, f"{len(run_ids)} run ids in one file; using {run.run_id!r}"))
    overlapping = 0
    for topic, ranked in order.items():
        entries = []
        for rank, (article, line) in enumerate(ranked, 1):
            key = (topic, article)
            raw = spans.get(key)
            if raw and iv.overlaps(raw):
                overlapping += 1
                if overlapping == 1:
                    problem(line, f"overlapping passages of article {article} (topic {topic}) united")
            passages = None if key in whole or raw is None else iv.normalize(raw)
            entries.append(RunArticle(article, rank, passages, xpaths.get(key, []), line,
                                      lines=tuple(line_numbers[key]),
                                      line_spans=np.array(line_spans[key], dtype=np.int64).reshape(-1, 2)))
        run.topics[topic] = entries
    if overlapping > 1:
        diagnostics.append(Diagnostic(path, None, f"{overlapping} articles in all have overlapping passages (united)"))
    run.diagnostics = diagnostics
    return run


def write_run(run: Run, path: str | os.PathLike) -> list[Diagnostic]:
    """Write ``run`` to ``path`` as a FOL run, atomically (:func:`engine.atomic.atomic_write`),
    and return notes for the user (:class:`Diagnostic`, about ``run.path``: why lines were
    generated rather than copied). Raises ``OSError`` naming ``path`` when it cannot be written
    (the previous file at ``path`` is then left as it was) and ``ValueError`` for a result
    that FOL cannot express (XPointer ``pointers``: resolve them first, as the editor does).

    **What a saved line is.** When ``run.path`` is a FOL run file that still says what ``run``
    holds, the file is the template, read again at save time and written in its own order:

    - every line of an article not edited (``RunArticle.lines`` not empty) is copied byte for
      byte, its line end (LF or CRLF) included; so are comment (``#``) and blank lines; a
      byte-order mark at the start of the file is kept;
    - an edited article (``lines`` empty, ``line`` its first line in the file) is written at the
      position of that first line, one 8-field line per passage in document order carrying
      the rank, rsv, Q0 column and run id of that first line; its other lines are dropped.
      An article left with no passage gets one ``offset 0 length 0`` line (read back as
      ranked with nothing retrieved: it keeps its rank), a whole-article result one 6-field
      line, element XPaths one 7-field line each;
    - an article new to its topic (``line`` 0) goes after the topic's last line, rank = its
      position in the topic, rsv and Q0 column copied from the topic's last line;
    - lines of articles the run no longer holds are dropped;
    - generated lines end like the file's first line (LF or CRLF) and separate fields by one space.

    The template is used only if every copied line still names its topic and article and
    gives the same passages, XPaths or whole-article result as ``run`` (so a source file
    changed or replaced since it was read is noticed). Otherwise (the file is gone, changed,
    not UTF-8, or is an XML run of 2006-2008), every line is generated, in ``run``'s order:
    ``topic Q0 article rank rsv run_id offset length`` with rank = position in the topic,
    rsv = 1/rank (6 decimals), run id ``run.run_id``, LF line ends, no byte-order mark, and a
    note says why.
    """
    import codecs

    from .. import atomic

    src = run.path
    notes: list[Diagnostic] = []
    for entries in run.topics.values():
        for e in entries:
            if e.pointers:
                raise ValueError(f"article {e.article}: XPointer passages cannot be written to a FOL run; resolve them first")

    def result_lines(topic, e, rank, rsv, q0, run_id, eol) -> list[bytes]:
        head = f"{topic} {q0} {e.article} {rank} {rsv} {run_id}"
        if e.passages is None and not e.xpaths:
            out = [head]
        else:
            spans = [] if e.passages is None else iv.normalize(e.passages).tolist()  # document order
            out = [f"{head} {a} {b - a}" for a, b in spans] + [f"{head} {x}" for x in e.xpaths]
            if not out:  # ranked, nothing retrieved: one empty passage keeps the rank
                out = [f"{head} 0 0"]
        return [line.encode("utf-8") + eol for line in out]

    def generated(reason: str | None) -> bytes:
        if reason:
            notes.append(Diagnostic(src, None, f"{reason}; every line of the saved run was generated "
                                               "(rank = position, rsv = 1/rank)"))
        chunks: list[bytes] = []
        for topic, entries in run.topics.items():
            for k, e in enumerate(entries, 1):
                chunks += result_lines(topic, e, k, f"{1.0 / k:.6f}", "Q0", run.run_id, b"\n")
        return b"".join(chunks)

    def template() -> tuple[list[bytes] | None, bytes, str | None]:
        """(the source's lines with their ends, BOM, None) or (None, b"", why not)."""
        try:
            with open(src, "rb") as fh:
                data = fh.read()
        except OSError as err:
            return None, b"", f"the run file could not be read again ({err.strerror or err})"
        bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
        body = data[len(bom):]
        if body.lstrip(b" \t\r\n").startswith(b"<"):
            return None, bom, "an XML run is saved as a FOL run"
        parts = body.split(b"\n")
        lines = [p + b"\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        return lines, bom, None

    def fields(lines: list[bytes], n: int) -> list[str] | None:
        if not 1 <= n <= len(lines):
            return None
        try:
            return lines[n - 1].decode("utf-8").split()
        except UnicodeDecodeError:
            return None

    def says_the_same(lines: list[bytes], topic: str, e: RunArticle) -> int | None:
        """The first of ``e.lines`` that does not say what ``e`` holds, else None."""
        spans, xpaths, whole = [], [], False
        for n in e.lines:
            f = fields(lines, n)
            if not f or not 6 <= len(f) <= 8 or f[0] != topic or f[2] != e.article:
                return n
            if len(f) == 8:
                try:
                    spans.append((int(f[6]), int(f[6]) + int(f[7])))
                except ValueError:
                    return n
            elif len(f) == 7:
                xpaths.append(f[6])
            else:
                whole = True
        expect = None if whole or not spans else iv.normalize(spans)
        same = (expect is None) == (e.passages is None) and (expect is None or np.array_equal(expect, e.passages))
        return None if same and xpaths == list(e.xpaths) else e.lines[0]

    if not src:
        lines, bom, why = None, b"", None  # made in memory (simulated): nothing to copy
    elif not os.path.isfile(src):
        lines, bom, why = None, b"", "the run file is gone"
    else:
        lines, bom, why = template()
    if lines is None:
        atomic.write_bytes(path, generated(why))
        return notes
    keep: set[int] = set()
    at: dict[int, list[tuple[str, RunArticle, list[str]]]] = {}
    new: dict[str, list[tuple[int, RunArticle]]] = {}
    last: dict[str, int] = {}
    for topic, entries in run.topics.items():
        for k, e in enumerate(entries, 1):
            if e.lines:
                bad = says_the_same(lines, topic, e)
                if bad is not None:
                    atomic.write_bytes(path, generated(f"the run file changed since it was read (line {bad} no longer "
                                                       f"gives article {e.article} of topic {topic} as read)"))
                    return notes
                keep.update(e.lines)
                last[topic] = max(last.get(topic, 0), *e.lines)
                continue
            f = fields(lines, e.line) if e.line else None
            if f and 6 <= len(f) <= 8 and f[0] == topic and f[2] == e.article:
                at.setdefault(e.line, []).append((topic, e, f))
                last[topic] = max(last.get(topic, 0), e.line)
            else:
                new.setdefault(topic, []).append((k, e))
    first_end = next((ln for ln in lines if ln.endswith(b"\n")), b"\n")
    eol = b"\r\n" if first_end.endswith(b"\r\n") else b"\n"
    tail_of: dict[int, list[str]] = {}
    for topic in new:
        tail_of.setdefault(last.get(topic, len(lines)), []).append(topic)
    out: list[bytes] = [bom]

    def put(chunk: bytes) -> None:
        if len(out) > 1 and not out[-1].endswith(b"\n"):
            out.append(eol)
        out.append(chunk)

    def append_new(topic: str) -> None:
        ref = fields(lines, last[topic]) if topic in last else None
        q0, rsv = (ref[1], ref[4]) if ref and len(ref) >= 6 else ("Q0", "0")
        for k, e in new[topic]:
            for chunk in result_lines(topic, e, k, rsv, q0, run.run_id, eol):
                put(chunk)

    for n, raw in enumerate(lines, 1):
        if n in keep:
            put(raw)
        elif n in at:
            for topic, e, f in at[n]:
                for chunk in result_lines(topic, e, f[3], f[4], f[1], f[5], eol):
                    put(chunk)
        elif not raw.split() or raw.split()[0].startswith(b"#"):
            put(raw)
        for topic in tail_of.get(n, []):
            append_new(topic)
    if not lines:  # an empty file
        for topic in tail_of.get(0, []):
            append_new(topic)
    atomic.write_bytes(path, b"".join(out))
    return notes
