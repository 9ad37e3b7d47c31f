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
    that were not read from a file (simulated or edited).
    """

    article: str
    rank: int
    passages: np.ndarray | None
    xpaths: list[str]
    line: int
    pointers: list[tuple[str, str]] = field(default_factory=list)
    lines: tuple[int, ...] = ()

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


END_LIKE_MIN = 10


def read_run(path: str | os.PathLike, strict: bool = False) -> Run:
    """Read a FOL run. Raises :class:`InputError` (``file:line: reason``) on bad lines."""
    path = str(path)
    spans: dict[tuple[str, str], list[tuple[int, int]]] = {}
    whole: set[tuple[str, str]] = set()
    xpaths: dict[tuple[str, str], list[str]] = {}
    order: dict[str, list[tuple[str, int]]] = {}
    line_numbers: dict[tuple[str, str], list[int]] = {}
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

    for number, f in numbered_lines(path):
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
            if key in spans or key in whole or key in xpaths:
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
            if offset > 0:
                if length >= offset:
                    end_like.append(number)
                else:
                    shorter += 1
        elif len(f) == 7:
            xpaths.setdefault(key, []).append(f[6])
        else:
            whole.add(key)

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
                                      lines=tuple(line_numbers[key])))
        run.topics[topic] = entries
    if overlapping > 1:
        diagnostics.append(Diagnostic(path, None, f"{overlapping} articles in all have overlapping passages (united)"))
    run.diagnostics = diagnostics
    return run


def write_run(run: Run, path: str | os.PathLike) -> None:
    """Write ``run`` as an 8-field FOL run (a whole article as one passage needs its length:
    such articles are written as 6-field lines, which this reader reads back as whole; an
    article with no passage as one ``0 0`` line, read back as ranked with nothing retrieved)."""
    with open(path, "w", encoding="utf-8") as fh:
        for topic, entries in run.topics.items():
            for e in entries:
                rsv = f"{1.0 / e.rank:.6f}"
                if e.passages is None:
                    fh.write(f"{topic} Q0 {e.article} {e.rank} {rsv} {run.run_id}\n")
                    continue
                if not len(e.passages):  # ranked, nothing retrieved: one empty passage keeps the rank
                    fh.write(f"{topic} Q0 {e.article} {e.rank} {rsv} {run.run_id} 0 0\n")
                for start, end in e.passages.tolist():
                    fh.write(f"{topic} Q0 {e.article} {e.rank} {rsv} {run.run_id} {start} {end - start}\n")
