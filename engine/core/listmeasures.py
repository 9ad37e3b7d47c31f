"""List measures of whole runs (docs/reference.md section 5) and the official INEX tool's numbers.

A topic's ranking is a vector of document scores ``S(d_1) .. S(d_n)`` in rank order (any
:class:`~readsim.core.measure.DocMeasure`), with ``isrel(d)`` and ``rsize(d)`` from the qrels. Every
list measure is numpy arithmetic over those vectors (:class:`Ranking`); each run's articles
are evaluated ONCE (:func:`rank_topics`) whatever the number of list measures asked for.

Formulas (r, i: 1-based ranks; Nrel: relevant articles of the topic; Trel_size: their summed
relevant size; NR = levels + 1, 5 by default):

- ``gP[r] = sum_{j<=r} S(d_j) / r``; ``gR[r] = sum_{j<=r} isrel(d_j) / Nrel``;
- ``AgP = sum_r isrel(d_r) gP[r] / Nrel``; ``AgP' = sum_r rsize(d_r)/Trel_size isrel(d_r) gP[r]``;
  ``MAP`` is AgP with S = isrel (Kamps, Pehcevski, Kazai, Lalmas, Robertson, *INEX 2007
  evaluation measures*, LNCS 4862, 2008; the official tool ``inex_eval`` 1.0 by M. Koolen,
  ``Topic.ComputeGeneralisedScores``: ``AgP = sumGP / totalRelDocs``);
- ``CE[i] = sum_{j<=i} (ES(d_j)/minES - 1)`` with minES = 1; ideal effort ``IE`` = Nrel ones
  then NR; ``NCE[i] = sum_{j<=i} (ES(d_j)/IE[j] - 1)``; ``ANCE[i] = sum_{j<=i} NCE[j] / i``
  (Arvola, Kekäläinen, Junkkari, *Expected reading effort in focused retrieval evaluation*,
  Information Retrieval 13(5), 2010, section 5.2). Lower is better.

Policies, all in one place (each has a test in ``tests/engine/test_listmeasures.py``):

1. **gP past the end of a short run** (``gP@r`` with r > n): the value at the last rank, as
   the official tool prints (``inex_eval.EvalInContext``: "if number of retrieved ranks is
   lower than cutoff, use the precision/recall at the lowest rank"). ``gP(plain)@r`` (CLI
   ``--plain-gp``) is the definition's ``sum / r``. gR is the same either way. An empty
   ranking scores 0.
2. **Effort past the end of the run**: ranks n+1 .. i count as non-relevant, ES = NR.
3. **Interpolated curve** ``ircl_prn.x`` (11 points, x = 0.00 .. 1.00): at every rank r the
   recall point ``floor(10 * gR[r])`` keeps the highest ``gP[r]``; then each point takes the
   highest value at or above it (``Topic.ComputeGeneralisedScores`` and ``Topic.FillIP``).
   A point is 0 when no rank reaches it.
4. **Topics averaged** (``all``): by default the judged topics the run has (the official
   tool's ``topicsInRun``); with ``complete`` (``-c``) every judged topic, a topic missing from
   the run being scored as an empty ranking: 0 on every precision and recall measure, NR at
   every rank for CE/NCE/ANCE.
5. **A judged topic with no relevant article** is excluded from the mean with a warning (the
   official tool divides by zero and prints NaN).
6. **A run topic absent from the qrels** is ignored with a warning (the official tool ignores
   it silently).
7. **Unjudged articles are non-relevant**: S = 0 (LE = ES = NR), isrel = 0, and they are not
   read at all (no collection access): every document measure of a non-relevant article is
   its :meth:`~readsim.core.measure.DocMeasure.null_value`.
8. **Counts** ``num_q``, ``num_ret``, ``num_rel``, ``num_rel_ret`` are summed over the topics,
   not averaged (as the official tool and trec_eval print them). ``num_ret`` counts ranked
   articles after merging interleaved results (the official tool counts ranks).
9. **Focused task** (``iP[x]``, ``MAiP``): each result line of the run file is a rank, in
   file order (``Topic.ComputeIP``): precision = relevant text retrieved so far / text
   retrieved so far, recall = relevant text retrieved so far / the topic's summed qrels
   ``rel_size``; the recall point ``floor(100 * recall)`` keeps the highest precision, then the
   101 points are interpolated as in 3 (``FillIP``); AiP is their mean (``ComputeAIP``). Text a
   line retrieves again (overlapping an earlier line of the same article) counts once (the
   official tool rejects such runs). The lines are counted in :mod:`readsim.core.focused`.
10. **Best in Context** ``BEP(d)`` (``Topic.ComputeBEPScore``, d = 500 officially): for a
    relevant article with a best entry point, ``(d - |bep - entry|) / d`` if the distance is at
    most d, else 0; the entry is column 7 of the article's result line in a BiC run (its length,
    usually 0, does not matter), the smallest such offset when the article has several lines,
    0 for a whole-article result (and with ``--as-documents``); 0 for every other article.
11. **Condensed lists** (``--condensed``; Sakai, *Alternatives to bpref*, SIGIR 2007): every
    ranking loses its unjudged articles (in the Focused task, their result lines) before any
    list measure is computed, the judged articles moving up in rank order
    (:meth:`Ranking.condensed`); document scores, Nrel and Trel_size are unchanged.
    ``Judged@k`` counts the first k ranks whose article the qrels judge (relevant or not)
    over k: ranks past the end of a short run count as not judged.

Raises :class:`~readsim.core.errors.InputError` (from the readers and :mod:`readsim.core.result_lines`) on bad
input; diagnostics (warnings) are collected in :attr:`Evaluation.diagnostics`.

**One evaluation path.** Articles are scored from columns
(:class:`~readsim.core.doc_evaluation.ArticleColumns`) by :func:`readsim.core.doc_evaluation.evaluate_documents`, all
at once. For a run and qrels read from files (their topics not edited, no element XPath), in
every reading mode, with or without the collection, :func:`rank_topics` joins the run's ranked
articles with the qrels for all topics at once (keys compared as arrays,
:func:`readsim.core.run_columns.inputs_of`), building no :class:`RunArticle` or :class:`Judgement`
object. Any other topic (edited in memory, an XML run, element XPaths) has each article's
inputs read one by one (:func:`readsim.core.result_lines.inputs`: XPaths resolved, an error naming its
line) into the same columns. The window's articles come from the same two functions
(``readsim.operations.article_reading.ranked_articles``); the per-character reference of the tests checks them
(``tests/engine/test_batched_measures.py``, ``tests/engine/test_run_columns.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from readsim.core.run_columns import collection_limits, inputs_of, joined
from readsim.core.doc_evaluation import DocumentBatch
from .cwl import fill_reads
from .errors import Diagnostic
from .focused import focused_ranks
from .formats import Judgement, Qrels, Run, RunArticle
from .formats.run import RunColumns
from .listarith import (  # noqa: F401 (the arithmetic, re-exported: listmeasures.gp_at ...)
    generalised_precision,
    generalised_recall,
    gp_at,
    gr_at,
    agp,
    agp_prime,
    average_precision,
    interpolate,
    interpolated_curve,
    ideal_effort,
    effort_vector,
    cumulated_effort,
    normalized_cumulated_effort,
    average_nce,
    focused_curve,
    bep_score)
from .measure import DocMeasure, ListMeasure
from .reading import Mode
from readsim.core.result_lines import Inputs, Join, columns_of, inputs

if TYPE_CHECKING:
    from .collection import Collection

# -- one topic's ranking -------------------------------------------------------------------


@dataclass
class Ranking:
    """One topic of a run, joined with its qrels: what every list measure needs.

    ``articles``: names in rank order; ``relevant``: bool ``(n,)`` (rel_size > 0 in the
    qrels); ``rsize``: int64 ``(n,)`` relevant size (qrels unit, 0 if not relevant);
    ``scores[doc measure]``: float ``(n,)``; ``nrel``: Nrel; ``trel_size``: the topic's summed
    relevant size; ``line_rel``/``line_size``: per result line, for the Focused task (filled
    by :func:`readsim.core.focused.focused_ranks` only when a focused measure is asked for);
    ``judged``: bool ``(n,)``, the article is in the qrels (relevant or not; ``Judged@k``,
    :meth:`condensed`): left out, only the relevant ones are known to be judged;
    ``line_judged``: per result line, its article is judged (filled with ``line_rel``); ``reads``:
    per T2I tolerance, each article's pieces read (filled for U@L and TBG@H, reference 5.16).
    """

    topic: str
    articles: list[str]
    relevant: np.ndarray
    rsize: np.ndarray
    scores: dict[DocMeasure, np.ndarray]
    nrel: int
    trel_size: int
    line_rel: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    line_size: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    judged: np.ndarray | None = None
    line_judged: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    reads: dict = field(default_factory=dict)  # tolerance t -> each article's pieces read (readsim.core.cwl)

    def __post_init__(self) -> None:
        if self.judged is None:  # built without the judgements: the relevant articles are judged
            self.judged = np.asarray(self.relevant, dtype=bool).copy()

    def condensed(self) -> Ranking:
        """The condensed list (Sakai 2007, *Alternatives to bpref*, SIGIR; reference section 5.12):
        this ranking with its unjudged articles (and, for the Focused task, their result lines)
        removed, the judged ones moving up in order. Document scores, Nrel and Trel_size are
        unchanged (an unjudged article is never relevant). Itself when every article is judged."""
        keep = np.flatnonzero(self.judged)
        lines = np.flatnonzero(self.line_judged) if len(self.line_judged) == len(self.line_rel) else None
        if len(keep) == len(self.judged) and (lines is None or len(lines) == len(self.line_rel)):
            return self
        names = self.articles
        articles = [names[k] for k in keep.tolist()] if len(keep) else []
        out = Ranking(self.topic, articles, self.relevant[keep], self.rsize[keep],
                      {m: s[keep] for m, s in self.scores.items()}, self.nrel, self.trel_size,
                      judged=self.judged[keep])
        out.reads = {t: [read[k] for k in keep.tolist()] for t, read in self.reads.items()}
        if lines is not None:
            out.line_rel, out.line_size = self.line_rel[lines], self.line_size[lines]
            out.line_judged = self.line_judged[lines]
        return out

    @classmethod
    def empty(cls, topic: str, qrels: Qrels, doc_measures: Iterable[DocMeasure]) -> Ranking:
        """A topic the run does not answer (policy 4)."""
        nrel, trel = qrels.totals(topic)
        z = np.zeros(0)
        return cls(topic, [], np.zeros(0, dtype=bool), np.zeros(0, dtype=np.int64),
                   {m: z for m in doc_measures}, nrel, trel, judged=np.zeros(0, dtype=bool))

    def value(self, measure: ListMeasure, levels: int = 4) -> float:
        """The measure's value for this topic (``nrel`` >= 1), by its declaration's ``topic``
        computation (:mod:`readsim.core.list_kinds`). NR = ``levels + 1``."""
        return measure.declaration.topic(self, measure, levels)


class RankingTable:
    """Many topics' rankings at once, as padded ``(topics, ranks)`` matrices: the common list
    measures of every topic in a few numpy operations (:meth:`values`), the same arithmetic as
    :meth:`Ranking.value` topic by topic (equal to 1e-12; the order of additions may differ)."""

    CELLS = 1 << 23
    """Matrices larger than this (topics x ranks) are left to :meth:`Ranking.value`, topic by topic."""

    def __init__(self, rankings: Sequence[Ranking]):
        self.rankings = list(rankings)
        self.n = np.array([len(r.relevant) for r in self.rankings], dtype=np.int64)
        self.width = int(self.n.max(initial=0))
        self.mask = np.arange(self.width) < self.n[:, None]
        self.nrel = np.array([r.nrel for r in self.rankings], dtype=np.int64)
        self.relevant = self._pad([r.relevant for r in self.rankings], False, bool)
        self.judged: np.ndarray | None = self._pad([r.judged for r in self.rankings], False, bool)
        self._scores: dict[DocMeasure, np.ndarray] = {}

    @classmethod
    def of_rows(cls, relevant: np.ndarray, scores: dict[DocMeasure, np.ndarray], nrel: int) -> RankingTable:
        """Rows of one topic's rankings, all of length ``w``: ``relevant`` bool ``(m, w)``,
        ``scores[doc]`` float ``(m, w)`` (views welcome: nothing is written), Nrel ``nrel``; the
        variants of :func:`readsim.core.costs.article_costs` evaluated at once (reference section 5.11)."""
        table = cls([])
        m, w = relevant.shape
        table.n, table.width = np.full(m, w, dtype=np.int64), w
        table.mask = np.ones((m, w), dtype=bool)
        table.nrel = np.full(m, nrel, dtype=np.int64)
        table.relevant, table._scores = relevant, dict(scores)
        table.judged = None  # loss's variants: no measure with costs reads it
        return table

    def _pad(self, rows: list[np.ndarray], fill, dtype) -> np.ndarray:
        if len(rows) and self.width and np.all(self.n == self.width):  # every topic as long: no padding
            return np.stack([np.asarray(r, dtype=dtype) for r in rows])
        out = np.full((len(rows), self.width), fill, dtype=dtype)
        if len(rows) and self.width:
            out[self.mask] = np.concatenate([np.asarray(r, dtype=dtype) for r in rows])
        return out

    def _s(self, doc: DocMeasure) -> np.ndarray:
        if doc not in self._scores:
            self._scores[doc] = self._pad([r.scores[doc] for r in self.rankings], 0.0, float)
        return self._scores[doc]

    scores = _s  # a document measure's (topics, ranks) matrix: what list_kinds' table computations read

    def values(self, measure: ListMeasure, levels: int = 4) -> np.ndarray | None:
        """One value per ranking by the declaration's ``table`` computation, or ``None`` for a
        kind without one (left to :meth:`Ranking.value`) or a table over :data:`CELLS` cells."""
        decl = measure.declaration
        depth = measure.cutoff if decl.doc == "effort" else 0
        if decl.table is None or len(self.n) * max(self.width, depth) > self.CELLS:
            return None
        return decl.table(self, measure, levels)


def ranking_values(rankings: Sequence[Ranking], measures: Sequence[ListMeasure], levels: int = 4
                   ) -> dict[str, list[float]]:
    """Each list measure of each ranking (``nrel`` >= 1): name -> one float per ranking, in order
    (:meth:`RankingTable.values`, else :meth:`Ranking.value`): :func:`evaluate`'s arithmetic."""
    table = RankingTable(rankings)
    out: dict[str, list[float]] = {}
    for m in measures:
        column = table.values(m, levels)
        if column is None:  # ranking by ranking: its own arithmetic
            column = [r.value(m, levels) for r in table.rankings]
        out[m.name] = list(map(float, column))
    return out


class ArticleNames(Sequence):
    """The article names of a topic's ranking read column-wise, decoded on first use."""

    def __init__(self, columns: RunColumns, first: int, stop: int):
        self._columns, self._first, self._stop = columns, first, stop
        self._names: list[str] | None = None

    def _list(self) -> list[str]:
        if self._names is None:
            self._names = self._columns.names(np.arange(self._first, self._stop))
        return self._names

    def __len__(self) -> int:
        return self._stop - self._first

    def __getitem__(self, index):
        return self._list()[index]

    def __iter__(self):
        return iter(self._list())

    def __eq__(self, other) -> bool:
        if isinstance(other, (list, tuple, ArticleNames)):
            return self._list() == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return repr(self._list())


def article_score(measure: DocMeasure, doc, judgement: Judgement | None, levels: int = 4,
                  entry_point: int | None = None) -> float:
    """One article's document score: ``measure.value(doc)``, or the BEP score (policy 10)
    from the judgement's best entry point and ``entry_point`` (the result's
    :attr:`~readsim.core.formats.RunArticle.entry_point`: a Best in Context line's offset, whatever
    its length); without it, the first retrieved offset of ``doc`` (0 for a whole article)."""
    decl = measure.declaration
    if not decl.needs_qrels:
        return measure.value(doc, levels)
    if judgement is None or not judgement.relevant:
        return 0.0
    if entry_point is None:
        ret = doc.retrieved
        entry_point = int(ret[0, 0]) if ret is not None and len(ret) else 0
    return decl.article(measure, judgement.bep, entry_point)


def rank_topics(
    qrels: Qrels,
    run: Run,
    doc_measures: Sequence[DocMeasure],
    mode: Mode | str = Mode.NATURAL,
    collection: Collection | None = None,
    as_document: bool = False,
    join: Join | None = None,
    progress: Callable[[int, int], None] | None = None,
    levels: int = 4,
    topics: Iterable[str] | None = None,
) -> dict[str, Ranking]:
    """Evaluate each article of ``run`` once and gather the per-topic vectors.

    Only the ``topics`` given (default: the run's topics the qrels judge) are evaluated.
    Judged articles are evaluated column-wise (:func:`_rank_columns`; a topic the columns do not
    speak for, edited or with element XPaths, goes through :func:`_score_entries`: the
    collection's clipping and doc_length check, then one batch); unjudged ones take every measure's
    :meth:`~readsim.core.measure.DocMeasure.null_value` without being read (policy 7), unless
    their passages are element paths, which are resolved to catch bad XPaths. Raises
    :class:`~readsim.core.errors.InputError`. ``progress(done, total)`` after each topic.
    """
    wanted = [t for t in (topics if topics is not None else run.topics) if t in run.topics and t in qrels.topics]
    doc_measures = list(dict.fromkeys(doc_measures))
    columnar = _rank_columns(qrels, run, wanted, doc_measures, mode, collection, as_document, levels, join)
    out: dict[str, Ranking] = {}
    for done, topic in enumerate(wanted, 1):
        if topic in columnar:
            out[topic] = columnar[topic]
            if progress is not None:
                progress(done, len(wanted))
            continue
        entries = run.topics[topic]
        judged = qrels.topics.get(topic, {})
        table, picked = _score_entries(qrels, run, topic, doc_measures, mode, collection, as_document, join, levels,
                                       every=False)
        relevant = np.zeros(len(entries), dtype=bool)
        relevant[picked] = True
        rsize = np.zeros(len(entries), dtype=np.int64)
        rsize[picked] = [judged[entries[k].article].rel_size for k in picked]
        nrel, trel = qrels.totals(topic)
        out[topic] = Ranking(topic, [e.article for e in entries], relevant, rsize,
                             {m: table[i] for i, m in enumerate(doc_measures)}, nrel, trel,
                             judged=np.array([e.article in judged for e in entries], dtype=bool))
        if progress is not None:
            progress(done, len(wanted))
    return out


def _score_entries(qrels: Qrels, run: Run, topic: str, doc_measures: list[DocMeasure], mode: Mode | str,
                   collection: Collection | None, as_document: bool, join: Join | None, levels: int,
                   every: bool) -> tuple[np.ndarray, list[int]]:
    """Scores of the ranked articles of a topic the columns do not speak for (edited, XML, element
    XPaths): each article's :class:`~readsim.core.result_lines.Inputs` first (XPaths resolved article by
    article, so an error names its line; :func:`readsim.core.result_lines.inputs`), then one batch
    (:func:`readsim.core.result_lines.columns_of`). ``(table, rows)``: ``table[i, k]`` is
    ``doc_measures[i]`` of article ``k`` (float ``(measures, n)``; the null value where not
    scored), ``rows`` the articles scored: with ``every``, all of them (as
    the window's :func:`readsim.core.ranked_inputs.topic_inputs` and :func:`article_score` give each); else only the judged
    relevant ones, the unjudged ones with plain passages not even read (policy 7)."""
    entries = run.topics[topic]
    judged = qrels.topics.get(topic, {})
    table = np.empty((len(doc_measures), len(entries)))
    table[:] = np.asarray([m.null_value(levels) for m in doc_measures], dtype=float)[:, None]
    rows: list[int] = []
    items: list[Inputs] = []
    judgements: list[Judgement | None] = []
    for k, entry in enumerate(entries):
        judgement = judged.get(entry.article)
        if not every and judgement is None and _plain(entry):
            continue
        item = inputs(qrels, run, topic, entry, collection, as_document, join)
        if not every and (judgement is None or not judgement.relevant):
            continue
        rows.append(k)
        items.append(item)
        judgements.append(judgement)
    if items:
        batch = columns_of(items).evaluate(mode)
        for i, m in enumerate(doc_measures):
            if m.declaration.needs_qrels:  # from the judgement and the entry point alone
                table[i, rows] = [article_score(m, item, j, levels, item.entry_point) for item, j in zip(items, judgements)]
            else:
                table[i, rows] = batch_scores(m, batch, levels)
    return table, rows


def per_article(
    qrels: Qrels,
    run: Run,
    doc_measures: Sequence[DocMeasure],
    mode: Mode | str = Mode.NATURAL,
    collection: Collection | None = None,
    as_document: bool = False,
    join: Join | None = None,
    progress: Callable[[int, int], None] | None = None,
    levels: int = 4,
) -> Iterator[tuple[str, str, list[float]]]:
    """Yield ``(topic, article, values)`` for every ranked article of ``run`` in run order,
    ``values[i]`` being ``doc_measures[i]``'s score (``readsim-eval --per-article``).

    The same numbers as the window's rows (:func:`readsim.core.ranked_inputs.topic_inputs`) with
    :func:`article_score` row by row;
    topics the column-wise path takes (see :func:`rank_topics`) are scored all at once, and
    there, as in the list evaluation, an article the qrels do not judge is non-relevant and
    takes the null values without being read (policy 7). Raises :class:`InputError`.
    ``progress(done, total)`` after each topic."""
    doc_measures = list(doc_measures)
    unique = list(dict.fromkeys(doc_measures))
    judged = [t for t in run.topics if t in qrels.topics]
    columnar = _rank_columns(qrels, run, judged, unique, mode, collection, as_document, levels, join)
    total = len(run.topics)
    null = [m.null_value(levels) for m in doc_measures]
    for done, (topic, entries) in enumerate(run.topics.items(), 1):
        ranking = columnar.get(topic)
        if ranking is not None:
            columns = [ranking.scores[m].tolist() for m in doc_measures]
            for k, name in enumerate(ranking.articles):
                yield topic, name, [c[k] for c in columns]
        elif topic not in qrels.topics and _plain_topic(run, topic):  # nothing judged: null values (policy 7)
            for name in run.article_names(topic):
                yield topic, name, list(null)
        else:
            table, _ = _score_entries(qrels, run, topic, unique, mode, collection, as_document, join, levels, every=True)
            columns = [table[unique.index(m)].tolist() for m in doc_measures]
            for k, entry in enumerate(entries):
                yield topic, entry.article, [c[k] for c in columns]
        if progress is not None:
            progress(done, total)


def _plain_topic(run: Run, topic: str) -> bool:
    """True when ``topic`` is still what the run file said and names no element XPath."""
    cols = run.columns(topic)
    if cols is None:
        return False
    rc, t = cols
    return not rc.has_xpath[rc.topic_ptr[t]:rc.topic_ptr[t + 1]].any()




def batch_scores(measure: DocMeasure, batch: DocumentBatch, levels: int = 4) -> np.ndarray:
    """``measure.value`` of every article of ``batch`` (not ``BEP``, which needs the qrels):
    :meth:`DocMeasure.compute` on the batch."""
    return measure.compute(batch, levels)


def _rank_columns(qrels: Qrels, run: Run, topics: list[str], doc_measures: list[DocMeasure], mode: Mode | str,
                  collection: Collection | None, as_document: bool, levels: int,
                  join: Join | None = None) -> dict[str, Ranking]:
    """The rankings :func:`rank_topics` can compute column-wise (see the module docstring),
    all topics at once; the other topics are left out. With ``collection`` and ``join``, the judged
    articles are read (their length clips the passages; their doc_length is checked on ``join``);
    with ``collection`` alone, only the relevant articles with a retrieved passage ending past the
    qrels' doc_length are read (:func:`~readsim.core.run_columns.past_length`: the others' passages end
    within ``max(length, doc_length)`` whatever the length, so clipping leaves them as they are;
    the numbers are the same, and an unreadable article that cannot change one is not read)."""
    jt = joined(qrels, run, topics)
    if jt is None:
        return {}
    rc, qc, picked, G, J, bounds = jt.run, jt.qrels, jt.picked, jt.groups, jt.judgement, jt.bounds
    is_judged = J >= 0
    relevant = is_judged.copy()
    relevant[relevant] = qc.rel_size[J[relevant]] > 0
    rsize = np.where(relevant, qc.rel_size[np.maximum(J, 0)], 0)
    at = np.flatnonzero(relevant)
    table = np.empty((len(doc_measures), len(G)))
    table[:] = np.asarray([m.null_value(levels) for m in doc_measures], dtype=float)[:, None]
    limit = None
    if collection is not None and join is not None:  # every judged article read: its doc_length checked
        judged = np.flatnonzero(J >= 0)
        limit = collection_limits(collection, rc.names(G[judged]), qc.doc_length[J[judged]], qc.line[J[judged]],
                                  qrels, join)[0][np.searchsorted(judged, at)]
    if len(at) and doc_measures:
        cols = inputs_of(jt, at, qrels, collection, None, None, as_document, limit)
        batch = cols.evaluate(mode)
        for i, m in enumerate(doc_measures):
            if m.declaration.needs_qrels:  # BEP(d): from the qrels' best entry points
                table[i, at] = m.declaration.batch(m, qc.bep[J[at]], qc.has_bep[J[at]], cols.entry)
            else:
                table[i, at] = batch_scores(m, batch, levels)
    out = {}
    nrel, trel = (x.tolist() for x in qc.totals)
    cuts, ptr = bounds.tolist(), rc.topic_ptr.tolist()
    for k, (topic, rt, qt) in enumerate(picked):
        a, b = cuts[k], cuts[k + 1]
        out[topic] = Ranking(topic, ArticleNames(rc, ptr[rt], ptr[rt + 1]), relevant[a:b], rsize[a:b],
                             {m: table[i, a:b] for i, m in enumerate(doc_measures)}, nrel[qt], trel[qt],
                             judged=is_judged[a:b])
    return out


def _plain(entry: RunArticle) -> bool:
    """True when the result's passages need nothing resolved (no XPath, no XPointer)."""
    return not entry.xpaths and not entry.pointers


# -- a whole run ----------------------------------------------------------------------------


@dataclass
class Evaluation:
    """A run's list measures: ``values[name][topic]`` per topic and ``means[name]`` over
    ``topics`` (the topics averaged, sorted as strings, as the official tool prints them)."""

    run_id: str
    measures: list[ListMeasure]
    topics: list[str]
    values: dict[str, dict[str, float]]
    means: dict[str, float]
    diagnostics: list[Diagnostic] = field(default_factory=list)


def topics_evaluated(qrels: Qrels, run: Run, complete: bool = False, none: str = "every mean is 0"
                     ) -> tuple[list[str], list[Diagnostic]]:
    """The topics ``run`` is evaluated on, in the qrels' sorted order, and the warnings saying
    which are left out: the judged topics with a relevant article (policy 5) that the run has
    (every one with ``complete``, policy 4); run topics the qrels do not judge are ignored
    (policy 6). When none is left, a warning "no topic of the run is judged in the qrels"
    followed by ``none``, what becomes of the output. The one check of :func:`evaluate` (hence
    ``readsim-eval``, ``sweep`` and ``compare``) and of ``readsim-eval loss``."""
    diagnostics: list[Diagnostic] = []
    judged = sorted(qrels.topics)
    no_rel = [t for t in judged if qrels.nrel(t) == 0]
    if no_rel:
        what = f"judged topic {no_rel[0]} has" if len(no_rel) == 1 else f"{len(no_rel)} judged topics (first: {no_rel[0]}) have"
        diagnostics.append(Diagnostic(qrels.path, None, f"{what} no relevant article; excluded from the mean"))
    unjudged = [t for t in run.topics if t not in qrels.topics]
    if unjudged:
        what = f"topic {unjudged[0]} of the run is" if len(unjudged) == 1 else \
            f"{len(unjudged)} topics of the run (first: {unjudged[0]}) are"
        diagnostics.append(Diagnostic(run.path, None, f"{what} not in the qrels; ignored"))
    usable = [t for t in judged if t not in no_rel]
    topics = usable if complete else [t for t in usable if t in run.topics]
    if not topics:
        diagnostics.append(Diagnostic(run.path, None, f"no topic of the run is judged in the qrels; {none}"))
    return topics, diagnostics


def evaluate(
    qrels: Qrels,
    run: Run,
    measures: Sequence[ListMeasure],
    mode: Mode | str = Mode.NATURAL,
    collection: Collection | None = None,
    as_document: bool = False,
    complete: bool = False,
    levels: int = 4,
    join: Join | None = None,
    progress: Callable[[int, int], None] | None = None,
    condensed: bool = False,
) -> Evaluation:
    """Evaluate ``run`` against ``qrels`` with every list measure of ``measures``.

    ``mode``: the reading order after the matching chain; ``as_document``: whole-article
    results (the full-document baseline); ``complete``: average over every judged topic
    (``-c``, policy 4); ``levels``: LE's L (NR = L + 1); ``condensed``: every ranking's
    unjudged articles removed before any measure is computed (policy 11,
    :meth:`Ranking.condensed`). Per-topic values and means follow the
    module's policies; warnings go to :attr:`Evaluation.diagnostics` (and the doc_length
    checks to ``join``). Raises :class:`~readsim.core.errors.InputError` on bad input.
    """
    measures = list(dict.fromkeys(measures))
    topics, diagnostics = topics_evaluated(qrels, run, complete)
    doc_measures = [m.doc for m in measures if m.doc is not None]
    ranked = rank_topics(qrels, run, doc_measures, mode, collection, as_document, join, progress, levels,
                         [t for t in topics if t in run.topics])
    if any(m.focused for m in measures):
        diagnostics += focused_ranks(qrels, run, ranked, collection, as_document)
    fill_reads(qrels, run, ranked, measures, mode, collection, as_document)
    if condensed:
        ranked = {topic: r.condensed() for topic, r in ranked.items()}
    rankings = [ranked.get(topic) or Ranking.empty(topic, qrels, doc_measures) for topic in topics]
    columns = ranking_values(rankings, measures, levels)
    values = {m.name: dict(zip(topics, columns[m.name])) for m in measures}
    return Evaluation(run.run_id, measures, topics, values, topic_means(measures, topics, values), diagnostics)


def topic_means(measures: Sequence[ListMeasure], topics: Sequence[str], values: dict[str, dict[str, float]]
                ) -> dict[str, float]:
    """Each measure's mean of ``values[name][topic]`` over ``topics`` (policies 4, 8)."""
    out = {}
    for m in measures:
        column = [values[m.name][t] for t in topics]
        out[m.name] = float(sum(column)) if m.is_count else (math.fsum(column) / len(column) if column else 0.0)
    return out
