"""A run and its qrels as columns, joined for all topics at once (SPEC sections 6-7).

:func:`joined` pairs every ranked article (group) of the topics of a run read from a FOL file
with its judgement in the qrels (or none), comparing article keys as arrays; the list measures
(:func:`engine.listmeasures.rank_topics`), the per-article scores and the Focused task's result
lines (:func:`focused_rows`) all start from it. Offsets are in the unit of the qrels and the
run (UTF-8 bytes for INEX 2009/2010). No Python object and no Python-level call is made per
ranked article or per passage, except for the collection's articles, read once each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import intervals as iv
from .document import ArticleColumns
from .errors import Diagnostic
from .formats import Qrels, Run
from .formats.qrels import QrelsColumns
from .formats.run import RunColumns
from .results import Join, article_facts

if TYPE_CHECKING:
    from .collection import Collection


def gather(ptr: np.ndarray, rows: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The segments ``ids`` of a CSR layout (``rows[ptr[i]:ptr[i + 1]]``) as a new CSR layout."""
    lengths = ptr[ids + 1] - ptr[ids]
    new = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(lengths, out=new[1:])
    index = np.repeat(ptr[ids] - new[:-1], lengths) + np.arange(new[-1])
    return new, rows[index]


PARSE_THREADS = 4
"""Threads parsing the collection's articles at once (lxml parses without holding the GIL)."""


def collection_limits(collection: Collection, names: list[str], doc_length: np.ndarray, lines: np.ndarray,
                      qrels: Qrels, join: Join | None, memo: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """For ranked articles ``names`` with their qrels doc_length (``doc_length``, -1 for an
    article the qrels do not judge) and judgement's qrels ``lines``: ``(limit, doc_length)``,
    the end to which their retrieved passages are clipped, ``max(text length, doc_length)`` in
    the qrels' unit (``2**62``, no clipping, for an article the collection lacks), and the
    doc_length filled in from the collection for the unjudged ones it has (still -1 for the
    others), as :func:`engine.results.inputs` does for one article. A doc_length computed from
    the article that differs from the qrels' is reported once per article on ``join``, in the
    order of ``names``. Each article is parsed once, in :data:`PARSE_THREADS` threads; ``memo``
    (name -> ``(length, doc_length, path)`` or None, :func:`engine.results.article_facts`) gives
    the articles already read (None: absent or unreadable) and keeps the others. Raises
    :class:`InputError` for an unreadable article not in ``memo``."""
    memo = {} if memo is None else memo
    unique = [name for name in dict.fromkeys(names) if name not in memo]
    if len(unique) > 1:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(PARSE_THREADS) as pool:
            found = list(pool.map(lambda name: article_facts(collection, name, None), unique))
    else:
        found = [article_facts(collection, name, None) for name in unique]
    memo.update(zip(unique, found))
    limit = np.full(len(names), 1 << 62, dtype=np.int64)
    filled = np.array(doc_length, dtype=np.int64)
    dl = filled.tolist()
    for i, name in enumerate(names):
        f = memo[name]
        if f is None:
            continue
        length, computed, path = f
        if dl[i] < 0:
            filled[i] = dl[i] = computed
        limit[i] = max(length, dl[i])
        if computed != dl[i] and join is not None and name not in join.checked:
            join.checked.add(name)
            join.diagnostics.append(Diagnostic(
                qrels.path, int(lines[i]),
                f"article {name}: doc_length {dl[i]} in the qrels, {computed} computed from {path}"))
    return limit, filled


def past_length(ptr: np.ndarray, rows: np.ndarray, doc_length: np.ndarray) -> np.ndarray:
    """Whether segment ``a`` (``rows[ptr[a]:ptr[a + 1]]``, ``(start, end)`` pairs) has a row
    ending past ``doc_length[a]``: the only segments whose clipping to ``max(length,
    doc_length)`` (:func:`collection_limits`, :func:`clip_rows`) depends on the article's length."""
    owner = np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))
    return np.bincount(owner[rows[:, 1] > doc_length[owner]], minlength=len(ptr) - 1) > 0


def clip_rows(ptr: np.ndarray, rows: np.ndarray, limit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Clip the normalized passages of segment ``a`` (``rows[ptr[a]:ptr[a + 1]]``) to ``[0,
    limit[a])``, dropping those left empty (as :func:`engine.intervals.clip` does per article)."""
    owner = np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))
    ends = np.minimum(rows[:, 1], limit[owner])
    keep = ends > rows[:, 0]
    new = np.zeros(len(ptr), dtype=np.int64)
    np.cumsum(np.bincount(owner[keep], minlength=len(ptr) - 1), out=new[1:])
    return new, np.column_stack([rows[keep, 0], ends[keep]])




@dataclass
class Joined:
    """Topics of a run joined with their qrels: ``picked[k] = (topic, run topic id, qrels topic
    id)``; ``groups``: the run's groups (ranked articles) of the picked topics, topic after
    topic in rank order; ``bounds``: topic ``k``'s are ``groups[bounds[k]:bounds[k + 1]]``;
    ``judgement``: the qrels row of each (-1 when the qrels do not judge it; ``qrels`` None
    when they judge none, :func:`joined_topic`)."""

    run: RunColumns
    qrels: QrelsColumns | None
    picked: list[tuple[str, int, int]]
    groups: np.ndarray
    bounds: np.ndarray
    judgement: np.ndarray

    @property
    def topic_of(self) -> np.ndarray:
        """The index into ``picked`` of each of ``groups``."""
        return np.repeat(np.arange(len(self.picked)), np.diff(self.bounds))


def joined(qrels: Qrels, run: Run, topics: list[str]) -> Joined | None:
    """The ``topics`` that can be evaluated column-wise, joined: those whose run topic and
    judgements are still what the files said (not edited) and whose results name no element
    XPath (resolved, and named when they cannot be, article by article). ``None`` when no topic
    can (or when the article names of the run and the qrels are not comparable keys)."""
    picked: list[tuple[str, int, int]] = []
    rc = qc = None
    for topic in topics:
        r, q = run.columns(topic), qrels.columns(topic)
        if r is None or q is None:
            continue
        if rc is None:
            rc, qc = r[0], q[0]
            if not (rc.article_names.packed and qc.names.packed):
                return None  # article keys are not comparable: article by article
        if r[0] is not rc or q[0] is not qc:
            continue
        g0, g1 = int(rc.topic_ptr[r[1]]), int(rc.topic_ptr[r[1] + 1])
        if rc.has_xpath[g0:g1].any():
            continue
        picked.append((topic, r[1], q[1]))
    if not picked:
        return None
    sizes = [int(rc.topic_ptr[rt + 1] - rc.topic_ptr[rt]) for _, rt, _ in picked]
    bounds = np.cumsum([0] + sizes)
    if [rt for _, rt, _ in picked] == list(range(len(rc.topics))):  # every topic, in order
        groups = np.arange(len(rc))
        keys = rc.key
    else:
        groups = np.concatenate([np.arange(rc.topic_ptr[rt], rc.topic_ptr[rt + 1]) for _, rt, _ in picked])
        keys = rc.key[groups]
    judgement = qc.find(np.repeat([qt for _, _, qt in picked], sizes), keys)
    return Joined(rc, qc, picked, groups, bounds, judgement)


def joined_topic(qrels: Qrels, run: Run, topic: str) -> Joined | None:
    """Every ranked article of one ``topic`` joined with its judgement, judged or not (a topic
    the qrels do not judge: every ``judgement`` -1, ``qrels`` None); ``None`` when the columns do
    not speak for the topic (see :func:`joined`; also: its judgements edited in memory)."""
    if qrels.columns(topic) is not None:
        return joined(qrels, run, [topic])
    r = run.columns(topic)
    if r is None or topic in qrels.topics:
        return None
    rc, rt = r
    g0, g1 = int(rc.topic_ptr[rt]), int(rc.topic_ptr[rt + 1])
    if rc.has_xpath[g0:g1].any():
        return None
    return Joined(rc, None, [(topic, rt, -1)], np.arange(g0, g1), np.array([0, g1 - g0]),  # type: ignore[arg-type]
                  np.full(g1 - g0, -1, dtype=np.int64))


def inputs_of(jt: Joined, at: np.ndarray, qrels: Qrels, collection: Collection | None = None,
              join: Join | None = None, memo: dict | None = None, as_document: bool = False,
              limit: np.ndarray | None = None) -> ArticleColumns:
    """The joined ranked articles ``jt.groups[at]`` as the evaluation's columns
    (:class:`~engine.document.ArticleColumns`), as :func:`engine.results.inputs` gives each
    (SPEC sections 2, 7): the judged ones with the qrels' doc_length and relevant passages,
    the others with none, their doc_length the collection's article's, else the end of their
    last retrieved passage (0 for a whole article); with ``collection``, retrieved passages
    clipped to ``max(text length, doc_length)`` (``limit``, when the caller read the lengths
    already, see :func:`collection_limits`), only the articles whose clipping or doc_length
    depends on it read (every one with ``join``, where each doc_length is checked). The entry
    point is the result's smallest offset (0 for a whole article and with ``as_document``,
    where every result is the whole article). Offsets in the unit of the qrels and the run."""
    rc, qc = jt.run, jt.qrels
    G, J = jt.groups[at], jt.judgement[at]
    judged = J >= 0
    Jj = J[judged]
    dl = np.full(len(G), -1, dtype=np.int64)
    counts = np.zeros(len(G), dtype=np.int64)
    rel_rows = iv.EMPTY
    if qc is not None and len(Jj):
        dl[judged] = qc.doc_length[Jj]
        counts[judged] = np.diff(qc.pass_ptr)[Jj]
        rel_rows = gather(qc.pass_ptr, qc.passages, Jj)[1]
    rel_ptr = np.zeros(len(G) + 1, dtype=np.int64)
    np.cumsum(counts, out=rel_ptr[1:])
    ret_ptr, ret_start = gather(rc.pass_ptr, rc.pass_start, G)
    ret_rows = np.column_stack([ret_start, gather(rc.pass_ptr, rc.pass_end, G)[1]])
    whole = np.ones(len(G), dtype=bool) if as_document else rc.whole[G]
    entry = np.zeros(len(G), dtype=np.int64) if as_document else np.maximum(rc.entry[G], 0)
    if collection is not None and limit is None:
        need = np.flatnonzero((dl < 0) | past_length(ret_ptr, ret_rows, dl) if join is None else np.ones(len(G), bool))
        lines = qc.line[np.maximum(J[need], 0)] if qc is not None else np.zeros(len(need), dtype=np.int64)
        limit = np.maximum(dl, 0)
        limit[need], dl[need] = collection_limits(collection, rc.names(G[need]), dl[need], lines, qrels, join, memo)
    if limit is not None:
        ret_ptr, ret_rows = clip_rows(ret_ptr, ret_rows, limit)
    unknown = dl < 0
    if unknown.any():  # neither the qrels nor the collection: the extent is what was retrieved
        has = unknown & ~whole & (np.diff(ret_ptr) > 0)
        dl[unknown] = 0
        dl[has] = ret_rows[ret_ptr[1:][has] - 1, 1]
    return ArticleColumns(dl, rel_ptr, rel_rows, ret_ptr, ret_rows, whole, entry)


def focused_rows(jt: Joined, collection: Collection | None,
                 as_document: bool) -> list[tuple[np.ndarray, np.ndarray, int, str | None]]:
    """The Focused task's ranks of every joined topic (``engine.listmeasures`` policy 9), as
    :func:`engine.listmeasures.result_lines` and :func:`engine.listmeasures.focused_lines`
    give them topic by topic: per topic ``(relevant size, retrieved size, unknown, first
    unknown)``, the two int64 arrays with one value per result line in file order (one per
    article at its first line for a whole-article result and with ``as_document``), in the
    unit of the offsets; ``unknown`` counts the whole-article lines (articles with
    ``as_document``) of articles whose length neither the qrels nor ``collection`` know (they
    retrieve nothing), the first of them in rank order named.

    Text retrieved by an earlier line of the same article counts once: each position goes to
    the first line (file order) that retrieves it. Every article is cut into elementary
    intervals at the boundaries of its lines and of its relevant passages; each line's range
    of intervals is expanded (one row per interval it covers), the earliest line of each
    interval found with one sort, and its share summed per line. Raises
    :class:`~engine.errors.InputError` for an unreadable article of ``collection``."""
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
        found = {name: article_facts(collection, name, None) for name in dict.fromkeys(names)}
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
    cuts = np.searchsorted(row_topic, np.arange(len(jt.picked) + 1))
    out = []
    for k in range(len(jt.picked)):
        a, b = int(cuts[k]), int(cuts[k + 1])
        u = np.flatnonzero(unknown_row[a:b])
        name = rc.names(groups[[int(row_g[a:b][u].min())]])[0] if len(u) else None  # the first in rank order
        out.append((rel[a:b], size[a:b], len(u), name))
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
