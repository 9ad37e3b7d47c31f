"""Writing a FOL run (:func:`write_run`): the lines of the run's own file where they still say
what the run holds, generated lines where the window changed it (passages edited, articles
added, ranks moved). Reading is :mod:`.run`.
"""

from __future__ import annotations

import os


from .. import intervals as iv
from ..errors import Diagnostic
from .run import Run, RunArticle


def write_run(run: Run, path: str | os.PathLike) -> list[Diagnostic]:
    """Write ``run`` to ``path`` as a FOL run, atomically (:func:`readsim.core.atomic.atomic_write`),
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
    - a topic whose articles are no longer in file order (ranks moved in the window: see
      :func:`reordered`) is written as one block at the position of its first line, its
      articles in ``run``'s order: article k (1-based) gets rank k (line i of the block rank i
      when the file numbered the topic's lines rather than its articles) and the rsv of the
      file's k-th article of the topic (its first line's; past the file's articles, the last one's),
      so ranks and rsv stay consistent with the line order, which is the rank (docs/reference.md
      section 2.3). An article not edited keeps its lines' other fields (passages, XPaths, Q0
      column, run id); an edited or new one is generated as above;
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
        expect = None if whole or not spans else _normalized(spans)
        same = (expect is None) == (e.passages is None) and (expect is None or expect == e.passages.tolist())
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
    moved = {topic for topic, entries in run.topics.items() if reordered(entries)}
    block_at: dict[int, list[str]] = {}  # a reordered topic's first line -> the topic
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
                if topic not in moved:
                    keep.update(e.lines)
                    last[topic] = max(last.get(topic, 0), *e.lines)
                continue
            if topic in moved:
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

    for topic in moved:
        block_at.setdefault(min(n for e in run.topics[topic] for n in (*e.lines, e.line) if n), []).append(topic)

    def numbered_by_line(topic: str) -> bool:
        """Whether the file's rank column counts the topic's lines (1, 2, 3, ... line by line, as
        some runs number passages) rather than its articles."""
        ranks = [f[3] for f in (ln.split(None, 4) for ln in lines) if len(f) >= 4 and f[0] == topic.encode()]
        return len(ranks) > 1 and all(r == str(i).encode() for i, r in enumerate(ranks, 1))

    def write_block(topic: str) -> None:
        entries = run.topics[topic]
        slots = [f for f in (fields(lines, n) for n in sorted(e.lines[0] if e.lines else e.line for e in entries
                                                               if e.lines or e.line)) if f and len(f) >= 6]
        rows: list[list[str]] = []  # the block's lines as fields, rank k = the article's position
        for k, e in enumerate(entries, 1):
            q0, rsv, run_id = (slots[min(k, len(slots)) - 1][i] for i in (1, 4, 5))
            if e.lines:
                rows += [[*f[:3], str(k), rsv, *f[5:]] for f in (fields(lines, n) for n in e.lines)]
            else:
                rows += [c.decode("utf-8").split() for c in result_lines(topic, e, k, rsv, q0, run_id, b"")]
        by_line = numbered_by_line(topic)
        for i, f in enumerate(rows, 1):
            if by_line:
                f[3] = str(i)
            put(" ".join(f).encode("utf-8") + eol)

    for n, raw in enumerate(lines, 1):
        for topic in block_at.get(n, []):
            write_block(topic)
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


def _normalized(spans: list[tuple[int, int]]) -> list[list[int]]:
    """:func:`readsim.core.intervals.normalize` of one article's few spans, as a list: empty
    spans dropped, sorted, overlapping or touching ones merged. In plain Python: a save checks
    every article of the run, and numpy's call overhead on two or three rows was most of its time."""
    out: list[list[int]] = []
    for a, b in sorted(s for s in spans if s[1] > s[0]):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def reordered(entries: list[RunArticle]) -> bool:
    """Whether a topic's articles are no longer in the order of their first lines in the run
    file (an article new to the file, ``line`` 0, counts as after every line): ranks were moved."""
    firsts = [e.lines[0] if e.lines else (e.line or float("inf")) for e in entries]
    return any(b < a for a, b in zip(firsts, firsts[1:]))
