"""A run and its qrels as columns, joined for all topics at once (docs/reference.md sections 5 and 7).

:func:`joined` pairs every ranked article (group) of the topics of a run read from a FOL file
with its judgement in the qrels (or none), comparing article keys as arrays; :func:`inputs_of`
turns joined articles into the evaluation's columns (:class:`~readsim.core.doc_evaluation.ArticleColumns`),
clipped with the collection (:func:`collection_limits`). The list measures
(:func:`readsim.core.listmeasures.rank_topics`), the per-article scores, the window's rows
(:mod:`readsim.core.ranked_inputs`) and the Focused task's result lines (:func:`readsim.core.focused.focused_rows`)
all start from it. Offsets are in the unit of the qrels and the run (UTF-8 bytes for INEX
2009/2010). No Python object and no Python-level call is made per ranked article or per
passage, except for the collection's articles, read once each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import intervals as iv
from readsim.core.doc_evaluation import ArticleColumns
from .errors import Diagnostic
from .formats import Qrels, Run
from .formats.lines import translate_keys
from .formats.qrels import QrelsColumns
from .formats.run import RunColumns
from readsim.core.result_lines import Join

if TYPE_CHECKING:
    from .collection import Collection


def gather(ptr: np.ndarray, rows: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The segments ``ids`` of a CSR layout (``rows[ptr[i]:ptr[i + 1]]``) as a new CSR layout."""
    lengths = ptr[ids + 1] - ptr[ids]
    new = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(lengths, out=new[1:])
    index = np.repeat(ptr[ids] - new[:-1], lengths) + np.arange(new[-1])
    return new, rows[index]


def collection_limits(collection: Collection, names: list[str], doc_length: np.ndarray, lines: np.ndarray,
                      qrels: Qrels, join: Join | None, memo: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """For ranked articles ``names`` with their qrels doc_length (``doc_length``, -1 for an
    article the qrels do not judge) and judgement's qrels ``lines``: ``(limit, doc_length)``,
    the end to which their retrieved passages are clipped, ``max(text length, doc_length)`` in
    the qrels' unit (``2**62``, no clipping, for an article the collection lacks), and the
    doc_length filled in from the collection for the unjudged ones it has (still -1 for the
    others), as :func:`readsim.core.result_lines.inputs` does for one article. A doc_length computed from
    the article that differs from the qrels' is reported once per article on ``join``, in the
    order of ``names``. The articles are read by :meth:`Collection.facts` (each parsed once
    for the collection's life, the absent ones answered by one listing); ``memo``
    (name -> ``(length, doc_length, path)`` or None, :func:`readsim.core.result_lines.article_facts`) gives
    the articles already read (None: absent or unreadable) and keeps the others. Raises
    :class:`InputError` for an unreadable article not in ``memo``."""
    memo = {} if memo is None else memo
    unique = [name for name in dict.fromkeys(names) if name not in memo]
    memo.update(zip(unique, collection.facts(unique)))
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
    limit[a])``, dropping those left empty (as :func:`readsim.core.intervals.clip` does per article)."""
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
    can. Article names of any length join: the run's keys are translated into the qrels' through
    a vocabulary of both files' names when either file codes them
    (:func:`~readsim.core.formats.lines.translate_keys`)."""
    picked: list[tuple[str, int, int]] = []
    rc = qc = None
    for topic in topics:
        r, q = run.columns(topic), qrels.columns(topic)
        if r is None or q is None:
            continue
        if rc is None:
            rc, qc = r[0], q[0]
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
    keys = translate_keys(keys, rc.article_names, qc.lookup[1], qc.names)
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
    (:class:`~readsim.core.doc_evaluation.ArticleColumns`), as :func:`readsim.core.result_lines.inputs` gives each
    (docs/reference.md section 1.5; section 7, policy 7): the judged ones with the qrels'
    doc_length and relevant passages, the others with none, their doc_length the collection's
    article's, else the end of their
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
