"""One article's passages, one by one: why a run's passage won or lost points (docs/reference.md sections 3 and 4).

:func:`passage_table` lays out, for one (topic, article), every retrieved passage in chain order
with the run lines it came from, and every relevant passage of the qrels with the retrieved
passage that found it, each with how far the reader had read (in the reading order of
:mod:`readsim.core.reading`, docs/reference.md section 3) when it starts. Offsets, lengths and counts are in the
unit of the evaluation (UTF-8 bytes for the real INEX 2009/2010 qrels, or characters).

Definitions (this page decides what the papers leave open):

- A **retrieved passage** is one row of the evaluation's T after the run's policies
  (sections 2.3 and 7): the lines' spans united (overlapping or touching lines merged), clipped to the
  article. Passage ``k`` (1-based) is the k-th in the matching chain, that is in document order
  (Arvola et al. 2010, section 3: the chain links the retrieved passages in document order).
- A **run line** belongs to the passage its raw ``[offset, offset + length)`` shares a position
  with; two lines *overlap* when their raw spans share a position (touching lines are merged
  but do not overlap). A line that retrieves nothing is listed apart (:attr:`PassageTable.unused`):
  a zero length (legal in Best in Context runs, section 2.4), a span wholly outside the
  article's text, an XPath the article lacks.
- **read before** (both kinds of rows): the number of units the reader has read, in the
  evaluation's reading order, before the first of the passage's units that is read. For a
  retrieved passage in the natural, worst and best modes that is the reading position of its
  first unit (the chain reads it in one go). For a relevant passage it is the effort to reach
  it: when a retrieved passage starts inside it, the reader reaches it there, before its own
  first unit; the smallest such value over the relevant passages is ``f - 1`` of LE (section
  4.4, Arvola et al. 2010 section 4.2). :func:`screen_of` gives the screen it falls on.
- A relevant passage is **found by** the first retrieved passage (chain order) sharing a
  position with it, and **missed** when none does.

Cost: O((p + q) * pieces + lines log lines) for p retrieved and q relevant passages; never a
loop over characters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import intervals as iv
from readsim.core.doc_evaluation import DocumentEvaluation
from .formats.run import RunArticle
from .reading import Mode, Pieces

# why a run line retrieves nothing (RunLine.reason)
ZERO_LENGTH = "zero length: retrieves nothing"
OUTSIDE = "outside the article's text"
UNRESOLVED = "XPath not found in the article"


@dataclass(frozen=True)
class RunLine:
    """One result line of the run for this article.

    ``number``: 1-based line of the run file; ``start``/``end``: its raw span ``[offset,
    offset + length)`` in the unit (``[0, n)`` for a whole-article line, the element's span for
    an XPath line, ``-1, -1`` for an XPath the article lacks); ``kind``: ``"offset"``,
    ``"whole"`` or ``"xpath"`` (``xpath`` holds the path); ``overlaps``: the numbers of the other
    lines of the article sharing at least one position with it, ascending; ``reason``: why it
    retrieves nothing (one of :data:`ZERO_LENGTH`, :data:`OUTSIDE`, :data:`UNRESOLVED`), empty
    for a line that retrieves text."""

    number: int
    start: int
    end: int
    kind: str = "offset"
    overlaps: tuple[int, ...] = ()
    xpath: str = ""
    reason: str = ""

    @property
    def length(self) -> int:
        return max(self.end - self.start, 0)


@dataclass(frozen=True)
class RetrievedPassage:
    """Chain passage ``number`` (1-based): ``[start, end)`` in the unit; ``relevant`` the
    relevant units inside it (|R n [start, end)|); ``read_before`` the units read before its
    first unit is read; ``lines`` the run lines it was made from (file order; empty for results
    not read from a file: edited, simulated, XML runs); ``finds`` the numbers of the relevant
    passages it shares a position with."""

    number: int
    start: int
    end: int
    relevant: int
    read_before: int
    lines: tuple[RunLine, ...] = ()
    finds: tuple[int, ...] = ()

    @property
    def length(self) -> int:
        return self.end - self.start

    @property
    def precision(self) -> float:
        """Relevant share of the passage, ``relevant / length`` (0 for an empty passage)."""
        return self.relevant / self.length if self.length else 0.0

    @property
    def merged(self) -> bool:
        """True when more than one run line made this passage."""
        return len(self.lines) > 1


@dataclass(frozen=True)
class RelevantPassage:
    """Relevant passage ``number`` (1-based, document order) of the qrels: ``[start, end)`` in
    the unit; ``retrieved`` its units that are retrieved (|[start, end) n T|); ``read_before``
    the units read before the first of its units is read; ``found_by`` the number of the first
    retrieved passage (chain order) sharing a position with it, ``None`` when missed;
    ``overlapped_by`` every such passage."""

    number: int
    start: int
    end: int
    retrieved: int
    read_before: int
    found_by: int | None
    overlapped_by: tuple[int, ...] = ()

    @property
    def length(self) -> int:
        return self.end - self.start

    @property
    def missed(self) -> bool:
        return self.found_by is None


@dataclass(frozen=True)
class PassageTable:
    """The rows of one article: ``retrieved`` in chain order, ``relevant`` in document order,
    ``unused`` run lines that retrieve nothing (file order); ``n`` the extent read (units),
    ``mode`` the reading mode the ``read_before`` values are for."""

    retrieved: tuple[RetrievedPassage, ...]
    relevant: tuple[RelevantPassage, ...]
    unused: tuple[RunLine, ...]
    n: int
    mode: Mode


def screen_of(read_before: int, screen: int) -> int:
    """The 1-based screen of ``screen`` units on which a passage starts being read, after
    ``read_before`` units: ``read_before // screen + 1`` (so the first relevant passage's screen
    is LE when it is at most L, docs/reference.md section 4.4). Raises ``ValueError`` if ``screen < 1``."""
    if screen < 1:
        raise ValueError(f"screen size must be >= 1, not {screen}")
    return read_before // screen + 1


def first_read(pieces: Pieces, spans: np.ndarray) -> np.ndarray:
    """For each row ``[a, b)`` of ``spans`` (``(k, 2)``, unit): the number of units read before
    the first of its units is read along ``pieces`` (a reading order covering ``[0, n)``).
    Returns a ``(k,)`` int64 array; a span with no unit in the order (empty, or past ``n``)
    gets the total read, ``n``. O(k * pieces)."""
    spans = iv.as_array(spans)
    if not len(pieces):
        return np.zeros(len(spans), np.int64)
    starts = np.array([p.start for p in pieces], np.int64)
    ends = np.array([p.end for p in pieces], np.int64)
    before = np.concatenate([[0], np.cumsum(ends - starts)])  # units read before each piece
    out = np.full(len(spans), before[-1], np.int64)
    for i, (a, b) in enumerate(spans.tolist()):
        hit = (starts < b) & (ends > a)
        if hit.any():
            out[i] = int((before[:-1][hit] + np.maximum(a - starts[hit], 0)).min())
    return out


def run_lines(entry: RunArticle | None, n: int,
              xpath_spans: Sequence[tuple[int, int] | None] | None = None) -> list[RunLine]:
    """The article's result lines with their raw spans and overlaps (file order).

    ``entry.lines`` and ``entry.line_spans`` give the lines (FOL runs); a whole-article line
    spans ``[0, n)``; the i-th XPath line takes ``xpath_spans[i]`` (``None`` or missing: not
    resolved). An entry without ``line_spans`` (XML runs, edited or simulated results) or
    ``None`` gives ``[]``. The reasons of lines that retrieve nothing are set by :func:`passage_table`."""
    if entry is None or entry.line_spans is None or len(entry.line_spans) != len(entry.lines):
        return []
    out: list[RunLine] = []
    k = 0  # next XPath
    for number, (a, b) in zip(entry.lines, entry.line_spans.tolist()):
        if (a, b) == (0, -1):  # WHOLE_LINE
            out.append(RunLine(number, 0, n, "whole"))
        elif (a, b) == (-1, -2):  # XPATH_LINE
            path = entry.xpaths[k] if k < len(entry.xpaths) else ""
            span = xpath_spans[k] if xpath_spans is not None and k < len(xpath_spans) else None
            k += 1
            if span is None:
                out.append(RunLine(number, -1, -1, "xpath", xpath=path, reason=UNRESOLVED))
            else:
                out.append(RunLine(number, int(span[0]), int(span[1]), "xpath", xpath=path))
        else:
            out.append(RunLine(number, int(a), int(b)))
    # overlaps: sort by start; line j overlaps line i (start_i <= start_j) iff start_j < end_i
    order = sorted((i for i, ln in enumerate(out) if ln.length > 0), key=lambda i: out[i].start)
    pairs: dict[int, set[int]] = {}
    for x, i in enumerate(order):
        for j in order[x + 1:]:
            if out[j].start >= out[i].end:
                break
            pairs.setdefault(i, set()).add(out[j].number)
            pairs.setdefault(j, set()).add(out[i].number)
    return [RunLine(ln.number, ln.start, ln.end, ln.kind, tuple(sorted(pairs.get(i, ()))), ln.xpath, ln.reason)
            for i, ln in enumerate(out)]


def passage_table(evaluation: DocumentEvaluation, entry: RunArticle | None = None,
                  xpath_spans: Sequence[tuple[int, int] | None] | None = None) -> PassageTable:
    """The passages of one article (see the module's definitions).

    ``evaluation``: the article's :class:`DocumentEvaluation` (its relevant passages, its
    retrieved passages after merging and clipping, its reading order in some mode);
    ``entry``: the run's :class:`RunArticle` for the article (its ``lines`` and
    ``line_spans``), ``None`` when the run does not rank it; ``xpath_spans``: the spans of the
    entry's XPaths in order (``None`` for one the article lacks), for 7-field lines.
    Raises nothing on consistent input; lines whose spans match no retrieved passage are
    listed in :attr:`PassageTable.unused`.
    """
    rel = evaluation.relevant
    ret = evaluation.retrieved_spans
    pieces = evaluation.pieces
    ret_read = first_read(pieces, ret)
    rel_read = first_read(pieces, rel)
    lines = run_lines(entry, evaluation.n, xpath_spans)

    def touching(spans: np.ndarray, a: int, b: int) -> list[int]:
        """Indexes of the normalized ``spans`` sharing a position with ``[a, b)``."""
        if b <= a or not len(spans):
            return []
        lo = int(np.searchsorted(spans[:, 1], a, side="right"))
        hi = int(np.searchsorted(spans[:, 0], b, side="left"))
        return list(range(lo, hi))

    per_passage: list[list[RunLine]] = [[] for _ in range(len(ret))]
    unused: list[RunLine] = []
    for ln in lines:
        hits = touching(ret, ln.start, ln.end)
        for i in hits:
            per_passage[i].append(ln)
        if not hits:
            reason = ln.reason or (ZERO_LENGTH if ln.length == 0 else OUTSIDE)
            unused.append(RunLine(ln.number, ln.start, ln.end, ln.kind, ln.overlaps, ln.xpath, reason))

    retrieved = []
    for i, (a, b) in enumerate(ret.tolist()):
        inside = iv.total(iv.intersect(rel, iv.as_array([(a, b)])))
        finds = tuple(j + 1 for j in touching(rel, a, b))
        retrieved.append(RetrievedPassage(i + 1, a, b, inside, int(ret_read[i]), tuple(per_passage[i]), finds))
    relevant = []
    for j, (a, b) in enumerate(rel.tolist()):
        by = tuple(i + 1 for i in touching(ret, a, b))
        got = iv.total(iv.intersect(ret, iv.as_array([(a, b)])))
        relevant.append(RelevantPassage(j + 1, a, b, got, int(rel_read[j]), by[0] if by else None, by))
    return PassageTable(tuple(retrieved), tuple(relevant), tuple(unused), evaluation.n, evaluation.mode)
