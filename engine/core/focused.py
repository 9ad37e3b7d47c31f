"""The Focused task's ranks: each result line of a run, in file order (docs/reference.md section 5.9;
section 7, policy 9, as in ``readsim.core.listmeasures``).

Each result line of the run is a rank (the official tool's ``Topic.ComputeIP``): its
retrieved size and the relevant part of it, text an earlier line of the same article retrieved
counting once, give iP[x] and MAiP (:func:`readsim.core.listmeasures.focused_curve`). For a run read
from a FOL file the lines of every topic are counted at once from the joined columns
(:func:`focused_rows`); other topics (edited in memory, element XPaths) line by line
(:func:`result_lines`, :func:`focused_lines`). Offsets are in the unit of the qrels and the
run (UTF-8 bytes for INEX 2009/2010).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from . import intervals as iv
from readsim.core.run_columns import Joined, gather, joined
from .errors import Diagnostic
from .formats import Qrels, Run, article_length
from .formats.qrels import QrelsColumns
from .formats.run import WHOLE_LINE, XPATH_LINE
from readsim.core.result_lines import element_span, retrieved_passages

if TYPE_CHECKING:
    from .collection import Collection


def focused_ranks(qrels: Qrels, run: Run, ranked: dict, collection: Collection | None,
                  as_document: bool) -> list[Diagnostic]:
    """Set ``line_rel`` and ``line_size`` (int64, one value per result line) and ``line_judged``
    (bool: the line's article is in the qrels) on each of
    ``ranked`` (topic -> :class:`~readsim.core.listmeasures.Ranking`); return the warning for
    whole-article results of unjudged articles whose length is unknown (counted as retrieving
    nothing), if any. Raises :class:`~readsim.core.errors.InputError` for an XPath or XPointer that
    cannot be resolved, or an unreadable article of ``collection``."""
    unknown: list[str] = []
    jt = joined(qrels, run, list(ranked))
    columns = dict(zip([t for t, _, _ in jt.picked], focused_rows(jt, collection, as_document))) if jt else {}
    for topic, ranking in ranked.items():
        if topic in columns:
            ranking.line_rel, ranking.line_size, count, first, ranking.line_judged = columns[topic]
            unknown += [first] * count
        else:  # edited topics, element XPaths: line by line
            lines = result_lines(qrels, run, topic, collection, as_document, unknown)
            ranking.line_rel, ranking.line_size = focused_lines(qrels, topic, lines)
            judged = qrels.topics.get(topic, {})
            ranking.line_judged = np.array([name in judged for name, _, _ in lines], dtype=bool)
    if not unknown:
        return []
    return [Diagnostic(run.path, None, (
        f"{len(unknown)} whole-article results of unjudged articles (first: {unknown[0]}) have no known "
        f"length (" + ("in neither the qrels nor the collection" if collection is not None else
                       "not in the qrels; give --collection to read it") +
        "): counted as retrieving no text in iP/MAiP, which raises their precision"))]


def focused_rows(jt: Joined, collection: Collection | None,
                 as_document: bool) -> list[tuple[np.ndarray, np.ndarray, int, str | None, np.ndarray]]:
    """The Focused task's ranks of every joined topic (``readsim.core.listmeasures`` policy 9), as
    :func:`result_lines` and :func:`focused_lines`
    give them topic by topic: per topic ``(relevant size, retrieved size, unknown, first
    unknown, judged)``, the two int64 arrays (and the bool ``judged``: the line's article is in the qrels) with one value per result line in file order (one per
    article at its first line for a whole-article result and with ``as_document``), in the
    unit of the offsets; ``unknown`` counts the whole-article lines (articles with
    ``as_document``) of articles whose length neither the qrels nor ``collection`` know (they
    retrieve nothing), the first of them in rank order named.

    Text retrieved by an earlier line of the same article counts once: each position goes to
    the first line (file order) that retrieves it. Every article is cut into elementary
    intervals at the boundaries of its lines and of its relevant passages; each line's range
    of intervals is expanded (one row per interval it covers), the earliest line of each
    interval found with one sort, and its share summed per line. Raises
    :class:`~readsim.core.errors.InputError` for an unreadable article of ``collection``."""
    rc, qc, groups, J = jt.run, jt.qrels, jt.groups, jt.judgement
    topic_of = jt.topic_of
    # the length of a whole-article line: the qrels' doc_length, else the collection's
    length = np.where(J >= 0, qc.doc_length[np.maximum(J, 0)], -1)
    # rows: (topic, line number, group, start, end), one per result line (or per article)
    whole = np.ones(len(groups), dtype=bool) if as_document else rc.whole[groups]
    lines_of = np.diff(rc.line_ptr)[groups]
    per_line = np.flatnonzero(~whole)
    count = lines_of[per_line]
    at = np.repeat(rc.line_ptr[groups[per_line]] - np.cumsum(count) + count, count) + np.arange(int(count.sum()))
    row_g = np.concatenate([np.flatnonzero(whole), np.repeat(per_line, count)])  # index into groups
    row_line = np.concatenate([rc.first_line[groups[whole]], rc.lines[at]])
    row_start = np.concatenate([np.zeros(int(whole.sum()), np.int64), rc.starts[at]])
    row_end = np.concatenate([np.full(int(whole.sum()), -1, np.int64), rc.ends[at]])
    whole_row = np.flatnonzero(row_end == -1)  # a whole-article line (WHOLE_LINE), or a whole article
    known = length[row_g[whole_row]]
    if collection is not None and np.any(known < 0):  # unjudged: the collection's doc_length, if it has the article
        wanted = np.flatnonzero(known < 0)
        names = rc.names(groups[row_g[whole_row[wanted]]])
        unique = list(dict.fromkeys(names))
        found = dict(zip(unique, collection.facts(unique)))
        known[wanted] = [-1 if found[n] is None else found[n][1] for n in names]
    unknown_row = np.zeros(len(row_g), dtype=bool)
    unknown_row[whole_row] = known < 0
    row_start[whole_row] = 0
    row_end[whole_row] = np.maximum(known, 0)
    # file order within each topic
    order = np.argsort(topic_of[row_g] * (int(row_line.max(initial=0)) + 1) + row_line)  # line numbers are distinct
    row_g, row_start, row_end, unknown_row = row_g[order], row_start[order], row_end[order], unknown_row[order]
    rel, size = _first_cover(row_g, row_start, row_end, J, qc)
    row_topic = topic_of[row_g]
    row_judged = J[row_g] >= 0
    cuts = np.searchsorted(row_topic, np.arange(len(jt.picked) + 1))
    out = []
    for k in range(len(jt.picked)):
        a, b = int(cuts[k]), int(cuts[k + 1])
        u = np.flatnonzero(unknown_row[a:b])
        name = rc.names(groups[[int(row_g[a:b][u].min())]])[0] if len(u) else None  # the first in rank order
        out.append((rel[a:b], size[a:b], len(u), name, row_judged[a:b]))
    return out


def _first_cover(row_g: np.ndarray, start: np.ndarray, end: np.ndarray, J: np.ndarray,
                 qc: QrelsColumns) -> tuple[np.ndarray, np.ndarray]:
    """Per row (rows in file order, ``row_g`` their article), the size of ``[start, end)`` that
    no earlier row of the same article covers, and the relevant part of it (the article's
    judged passages when it is relevant)."""
    R = len(row_g)
    size = np.zeros(R, dtype=np.int64)
    rel = np.zeros(R, dtype=np.int64)
    live = np.flatnonzero(end > start)
    if not len(live):
        return rel, size
    # the relevant passages of the articles of live rows
    arts = np.flatnonzero(np.bincount(row_g[live], minlength=len(J)))
    jr = J[arts]
    relevant = jr >= 0
    relevant[relevant] = qc.rel_size[jr[relevant]] > 0
    ra = arts[relevant]
    rel_ptr, rel_rows = gather(qc.pass_ptr, qc.passages, jr[relevant])
    r_art = np.repeat(ra, np.diff(rel_ptr))
    # boundaries per article: line starts and ends, relevant starts (+1) and ends (-1)
    pos = np.concatenate([start[live], end[live], rel_rows[:, 0], rel_rows[:, 1]])
    art = np.concatenate([row_g[live], row_g[live], r_art, r_art])
    delta = np.concatenate([np.zeros(2 * len(live), np.int64), np.ones(len(r_art), np.int64),
                            -np.ones(len(r_art), np.int64)])
    o = np.argsort((art << iv.SHIFT) + pos) if len(J) < 1 << (63 - iv.SHIFT) else np.lexsort((pos, art))
    pos, art, inside = pos[o], art[o], np.cumsum(delta[o])
    last = np.ones(len(pos), dtype=bool)  # the last event at each (article, position)
    last[:-1] = (art[1:] != art[:-1]) | (pos[1:] != pos[:-1])
    pos, art, inside = pos[last], art[last], inside[last] > 0
    # interval i is [pos[i], pos[i + 1]) within an article; line k covers intervals i0 .. i1 - 1
    base = np.zeros(len(pos), dtype=np.int64)
    starts = iv.starts_of_changes(art)
    base[starts] = 1
    rank_art = np.cumsum(base) - 1  # dense article index of each boundary
    dense = np.searchsorted(art[starts], row_g[live])
    i0 = np.searchsorted(rank_art * (1 << iv.SHIFT) + pos, dense * (1 << iv.SHIFT) + start[live])
    i1 = np.searchsorted(rank_art * (1 << iv.SHIFT) + pos, dense * (1 << iv.SHIFT) + end[live])
    span = i1 - i0
    owner = np.repeat(live, span)  # the row (file order) of each covered interval
    interval = np.repeat(i0 - np.cumsum(span) + span, span) + np.arange(int(span.sum()))
    if len(interval) and np.bincount(interval).max() > 1:  # lines that overlap: the first line of each interval
        first = np.argsort(interval * R + owner)  # by interval, then file order
        keep = np.ones(len(first), dtype=bool)
        keep[1:] = interval[first][1:] != interval[first][:-1]
        who, i = owner[first][keep], interval[first][keep]
    else:
        who, i = owner, interval
    width = pos[i + 1] - pos[i]
    size += np.bincount(who, weights=width, minlength=R).astype(np.int64)
    rel += np.bincount(who[inside[i]], weights=width[inside[i]], minlength=R).astype(np.int64)
    return rel, size


def result_lines(
    qrels: Qrels,
    run: Run,
    topic: str,
    collection: Collection | None = None,
    as_document: bool = False,
    unknown: list[str] | None = None,
) -> list[tuple[str, int, int]]:
    """The Focused task's ranks of ``topic``: one ``(article, start, end)`` per result line of
    the run, in file order (policy 9), in the run's unit.

    FOL lines keep their own span (a zero length retrieves nothing); a whole-article line
    (6 fields), and every article with ``as_document``, is ``[0, doc_length)`` with doc_length
    from the qrels, else from the collection; an article known to neither is counted as
    retrieving nothing and its name appended to ``unknown`` (the caller warns once with the
    count). XPaths are resolved with the collection, one span per line. Results not read from a
    FOL file (XML runs, edited or simulated runs) give their passages in document order at the
    article's first line. Raises :class:`~readsim.core.errors.InputError` for an XPath or XPointer
    that cannot be resolved.
    """
    judged = qrels.topics.get(topic, {})

    def length(article: str) -> int:
        j = judged.get(article)
        at_hand = j is None and collection is not None and article in collection
        n = article_length(j, collection.article(article).doc_length if at_hand else None)
        if n is None and unknown is not None:
            unknown.append(article)
        return 0 if n is None else n

    rows: list[tuple[int, str, int, int]] = []
    for entry in run.topics.get(topic, []):
        name = entry.article
        if as_document or entry.whole:
            rows.append((entry.line, name, 0, length(name)))
        elif entry.line_spans is not None:
            xpaths = iter(entry.xpaths)
            for line, (start, end) in zip(entry.lines, entry.line_spans.tolist()):
                if (start, end) == WHOLE_LINE:
                    start, end = 0, length(name)
                elif (start, end) == XPATH_LINE:
                    start, end = element_span(run, entry, collection, next(xpaths), line)
                rows.append((line, name, start, end))
        else:
            spans = retrieved_passages(run, topic, entry, collection)
            rows += [(entry.line, name, int(a), int(b)) for a, b in spans.tolist()]
    rows.sort(key=lambda row: row[0])
    return [(name, start, end) for _, name, start, end in rows]


def focused_lines(qrels: Qrels, topic: str, lines: Sequence[tuple[str, int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Relevant and retrieved size of each result line (policy 9): text an earlier line of the
    same article already retrieved counts once. Returns two int64 arrays ``(k,)``."""
    judged = qrels.topics.get(topic, {})
    rel = np.zeros(len(lines), dtype=np.int64)
    size = np.zeros(len(lines), dtype=np.int64)
    seen: dict[str, list[tuple[int, int]]] = {}
    for k, (article, start, end) in enumerate(lines):
        spans = seen.setdefault(article, [])
        new = iv.as_array([(start, end)]) if end > start else iv.EMPTY
        if spans and any(a < end and start < b for a, b in spans):
            new = iv.subtract(new, iv.normalize(spans))
        spans.append((start, end))
        size[k] = iv.total(new)
        j = judged.get(article)
        if j is not None and j.relevant and len(new):
            rel[k] = iv.total(iv.intersect(new, j.passages))
    return rel, size
