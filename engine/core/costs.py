"""Where a run loses: a topic's AgP split into a fetch part (ranking) and a browse part (passages).

Source of AgP: Kamps, Pehcevski, Kazai, Lalmas, Robertson, *INEX 2007 evaluation measures*,
LNCS 4862, 2008 (docs/reference.md section 5.4): ``AgP = sum_r isrel(d_r) gP[r] / Nrel`` with
``gP[r] = sum_{j<=r} S(d_j) / r`` for a document measure S (computed here by
:func:`readsim.core.listmeasures.agp`). The split is ours.

For one topic and one document measure S (every score in the current reading mode):

- **ideal passages** of an article: its retrieved passages replaced by the qrels'
  highlighted passages (docs/reference.md section 8's strategy S), read in the same mode
  (:func:`ideal_scores`: a topic's articles in one batch). Its score ``S_ideal(d)`` is
  computed by the engine, not assumed: aveChP and F are 1 there, but T2IP(t) reads ``t``
  non-relevant characters after the relevant text (``NRC / (NRC + t)`` in a long article), and
  in the ``document`` mode the passages are ignored, so LE/ES stay above 1 when the first
  relevant byte is far. A
  non-relevant article has no highlighted text: its ``S_ideal`` is S's null value (0; NR for
  LE/ES), as its ``S``.
- **ideal ranking** of a run: its relevant ranked articles by decreasing relevant size
  (qrels ``rel_size``; section 8's R), ties by article id (numerically when both are
  numbers), the non-relevant ones dropped; nothing follows them. (The simulated R ranking of
  :mod:`readsim.core.simulated` breaks ties by qrels file order instead.)

Four AgP values over the square {run, ideal} passages x {run, ideal} ranking, plus one beyond it:

=====================  ======================================================================
``actual``             AgP of the run as is: ``S(d)`` in the run's ranking
``ideal_passages``     ``S_ideal(d)`` in the run's ranking (non-relevant ranks stay at 0)
``ideal_ranking``      ``S(d)`` in the ideal ranking: the ranking loss is gone, the browse
                       loss stays
``ideal``              ``S_ideal(d)`` in the ideal ranking: both fixed
``perfect``            every relevant article of the topic (ranked or not) with ideal
                       passages, in the R order: section 8's run SR
=====================  ======================================================================

The decomposition (symmetric; each term may be negative: the R order need not be the
order that maximises AgP for a given S, so a run can beat it):

- ``browse = ideal_passages - actual`` (fix the passage selector, keep the ranker);
- ``fetch = ideal_ranking - actual`` (fix the ranker's order, keep the passages);
- ``interaction = ideal - ideal_passages - ideal_ranking + actual``;
- so ``browse + fetch + interaction = ideal - actual`` exactly (up to rounding);
- ``unretrieved = perfect - ideal``: what no re-ranking or passage choice can win back,
  the relevant articles the run does not rank at all.

Per ranked article: ``browse_loss = S_ideal(d) - S(d)`` (0 for a non-relevant article). For
an **effort** score (LE, ES: lower is better) AgP does not apply (it sums gains): the five
AgP values are ``None`` and ``browse_loss = S(d) - S_ideal(d)``, the extra screens the run's
passages cost, so that in both cases a positive loss is what the run gives away.

A browse loss is not what the article costs the topic. **What each article costs** (reference
section 5.11; :func:`article_costs`, :func:`versus`, :func:`run_costs`) under a list measure L:
its browse cost (L with this article's passages alone replaced by its highlighted text, minus
as is), its rank cost (L with this article alone moved to its rank in the ideal ordering of the
run's articles, :func:`ideal_positions`, minus as is) and, against a competitor, what taking
its rank or its passages for the article is worth; all the articles of a topic at once
(cumulative sums for AgP and gP, ``(n, n)`` matrices for CE/NCE/ANCE).

Everything is numpy over the topic's vectors; shapes: ``(n,)`` for the n ranked articles.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .collection import Collection
from readsim.core.doc_evaluation import DocumentEvaluation, evaluate_documents, row_pointers
from .formats import Judgement, Qrels, Run
from .listmeasures import RankingTable, agp, article_score
from .measure import DocMeasure, ListMeasure
from .registry import cost_kinds
from readsim.core.ranked_inputs import topic_inputs
from .reading import Mode

_DIGITS = re.compile(r"[0-9]+")


def article_key(article: str) -> tuple[int, int, str]:
    """Tie order of article ids: numbers by value (``9`` before ``10``), then other ids as text."""
    return (0, int(article), "") if _DIGITS.fullmatch(article) else (1, 0, article)


def ideal_order(articles: Sequence[str], rsize: np.ndarray) -> np.ndarray:
    """Indices of the articles with ``rsize > 0`` in the ideal order: decreasing ``rsize``, ties by
    :func:`article_key`. Returns an int64 array of shape ``(k,)``, k = relevant articles."""
    rsize = np.asarray(rsize, dtype=np.int64)
    keep = [k for k in range(len(articles)) if rsize[k] > 0]
    keep.sort(key=lambda k: (-int(rsize[k]), article_key(articles[k])))
    return np.asarray(keep, dtype=np.int64)


def ideal_score(measure: DocMeasure, judgement: Judgement | None, mode: Mode | str = Mode.NATURAL,
                levels: int = 4, entry: int = 0) -> float:
    """``S_ideal``: ``measure`` of the article read with its highlighted passages; the null value
    (0, NR = ``levels + 1`` for LE/ES) without a relevant judgement. BEP(d) enters at the qrels'
    best entry point (0 without one). One article of :func:`ideal_scores`."""
    return float(ideal_scores(measure, [judgement], mode, levels, [entry])[0])


def ideal_scores(measure: DocMeasure, judgements: Sequence[Judgement | None], mode: Mode | str = Mode.NATURAL,
                 levels: int = 4, entries: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
    """:func:`ideal_score` of each of ``judgements`` (``entries[k]``: the entry point of
    :attr:`Mode.ENTRY` for judgement ``k``, default 0), float ``(n,)``: the ideal readings of all
    the relevant ones evaluated in one batch (:func:`readsim.core.doc_evaluation.evaluate_documents`, the
    list path's column-wise evaluation; reference section 4). BEP(d) enters the ideal reading at
    the qrels' best entry point: 1 with one, 0 without (:func:`readsim.core.listmeasures.bep_score`)."""
    out = np.full(len(judgements), measure.null_value(levels))
    at = [k for k, j in enumerate(judgements) if j is not None and j.relevant]
    if not at:
        return out
    chosen: list[Judgement] = [judgements[k] for k in at]  # type: ignore[misc]
    if measure.declaration.needs_qrels:  # BEP(d): the ideal reading enters at the best entry point
        out[at] = [measure.declaration.article(measure, j.bep, j.bep) for j in chosen]
        return out
    rel = [j.passages for j in chosen]
    ptr = row_pointers(rel)
    rows = np.concatenate(rel)
    entry = np.zeros(len(at), dtype=np.int64) if entries is None else np.asarray(entries, dtype=np.int64)[at]
    batch = evaluate_documents(np.array([j.doc_length for j in chosen], dtype=np.int64), ptr, rows, ptr, rows,
                               np.zeros(len(at), dtype=bool), mode, entry)
    out[at] = measure.compute(batch, levels)
    return out


@dataclass(frozen=True)
class LossSplit:
    """One topic's loss split for document measure ``measure`` (see the module docstring).

    ``articles``: ranked article ids in rank order; ``relevant`` bool ``(n,)``; ``rsize`` int64
    ``(n,)`` (qrels unit, 0 if not relevant); ``scores`` float ``(n,)``: S with the run's
    passages; ``ideal_scores`` float ``(n,)``: S with the highlighted passages; ``ideal_rank``
    int64 ``(n,)``: each relevant ranked article's 1-based rank among all ``nrel`` relevant
    articles of the topic in the R order (0 for a non-relevant one); ``missed``: the relevant
    articles the run does not rank, in R order. The AgP values are ``None`` for an effort S.
    """

    measure: DocMeasure
    articles: list[str]
    relevant: np.ndarray
    rsize: np.ndarray
    scores: np.ndarray
    ideal_scores: np.ndarray
    ideal_rank: np.ndarray
    nrel: int
    missed: list[str]
    actual: float | None
    ideal_passages: float | None
    ideal_ranking: float | None
    ideal: float | None
    perfect: float | None
    perfect_scores: np.ndarray | None = None
    """``S_ideal`` of every relevant article of the topic (ranked or not) in the R order: the
    run ``perfect`` scores (float ``(nrel,)``)."""

    @property
    def effort(self) -> bool:
        """True for LE/ES (lower is better): no AgP, ``browse_loss`` is run - ideal."""
        return self.measure.lower_is_better

    @property
    def browse_loss(self) -> np.ndarray:
        """Per ranked article, float ``(n,)``: ``S_ideal - S`` (``S - S_ideal`` for an effort)."""
        return self.scores - self.ideal_scores if self.effort else self.ideal_scores - self.scores

    def _diff(self, a: float | None, b: float | None) -> float | None:
        return None if a is None or b is None else a - b

    @property
    def browse(self) -> float | None:
        """``ideal_passages - actual``."""
        return self._diff(self.ideal_passages, self.actual)

    @property
    def fetch(self) -> float | None:
        """``ideal_ranking - actual``."""
        return self._diff(self.ideal_ranking, self.actual)

    @property
    def interaction(self) -> float | None:
        """``ideal - ideal_passages - ideal_ranking + actual``: browse + fetch + interaction =
        ideal - actual."""
        if self.actual is None:
            return None
        return self.ideal - self.ideal_passages - self.ideal_ranking + self.actual  # type: ignore[operator]

    @property
    def unretrieved(self) -> float | None:
        """``perfect - ideal``: the relevant articles the run does not rank."""
        return self._diff(self.perfect, self.ideal)


def split(measure: DocMeasure, articles: Sequence[str], relevant: np.ndarray, rsize: np.ndarray,
          scores: np.ndarray, ideal_scores: np.ndarray, nrel: int, missed: Sequence[str] = (),
          missed_rsize: np.ndarray | Sequence[int] = (), missed_ideal: np.ndarray | Sequence[float] = ()) -> LossSplit:
    """The arithmetic of the split from the topic's vectors (shapes ``(n,)``, rank order).

    ``nrel``: Nrel, the topic's relevant articles (ranked or not; >= 1 for the AgP values,
    which are 0 otherwise). ``missed``, ``missed_rsize``, ``missed_ideal``: the relevant articles
    the run does not rank, their relevant sizes and ``S_ideal`` (for ``perfect``). Raises
    ``ValueError`` when the shapes disagree.
    """
    articles = list(articles)
    n = len(articles)
    relevant = np.asarray(relevant, dtype=bool)
    rsize = np.where(relevant, np.asarray(rsize, dtype=np.int64), 0)
    scores = np.asarray(scores, dtype=float)
    ideal_scores = np.asarray(ideal_scores, dtype=float)
    missed = list(missed)
    missed_rsize = np.asarray(missed_rsize, dtype=np.int64)
    missed_ideal = np.asarray(missed_ideal, dtype=float)
    if not (relevant.shape == rsize.shape == scores.shape == ideal_scores.shape == (n,)):
        raise ValueError(f"{n} articles but vectors of shapes {relevant.shape}, {rsize.shape}, "
                         f"{scores.shape}, {ideal_scores.shape}")
    if not (missed_rsize.shape == missed_ideal.shape == (len(missed),)):
        raise ValueError(f"{len(missed)} missed articles but {missed_rsize.shape}, {missed_ideal.shape}")
    mine = ideal_order(articles, rsize)  # the run's relevant articles, R order
    everyone = articles + missed
    all_rsize = np.concatenate([rsize, missed_rsize])
    all_ideal = np.concatenate([ideal_scores, missed_ideal])
    order = ideal_order(everyone, all_rsize)
    ideal_rank = np.zeros(n, dtype=np.int64)
    for place, k in enumerate(order.tolist(), 1):
        if k < n:
            ideal_rank[k] = place
    missed_sorted = [everyone[k] for k in order.tolist() if k >= n]
    values: list[float | None]
    if measure.lower_is_better or nrel < 1:
        values = [None] * 5 if measure.lower_is_better else [0.0] * 5
    else:
        ones = np.ones(len(mine), dtype=bool)
        values = [agp(scores, relevant, nrel), agp(ideal_scores, relevant, nrel),
                  agp(scores[mine], ones, nrel), agp(ideal_scores[mine], ones, nrel),
                  agp(all_ideal[order], np.ones(len(order), dtype=bool), nrel)]
    return LossSplit(measure, articles, relevant, rsize, scores, ideal_scores, ideal_rank, nrel, missed_sorted,
                     *values, perfect_scores=all_ideal[order])


def loss_split(measure: DocMeasure, judged: Mapping[str, Judgement], articles: Sequence[str],
               docs: Sequence[DocumentEvaluation | None], mode: Mode | str = Mode.NATURAL, levels: int = 4,
               entry_points: Sequence[int | None] | None = None,
               ideal: Callable[..., np.ndarray] | None = None) -> LossSplit:
    """The split of one topic from its ranked articles' evaluations.

    ``judged``: the topic's qrels (article -> :class:`Judgement`); ``articles`` in rank order;
    ``docs[k]``: article k read with the run's passages in ``mode`` (used only when the article
    is relevant; ``None`` allowed otherwise); ``entry_points``: Best in Context entries for
    BEP(d) (see :func:`readsim.core.listmeasures.article_score`). ``levels``: LE's L (NR = L + 1).
    Relevance is the qrels' (``rel_size > 0``); unjudged articles are non-relevant (policy 7 of
    :mod:`readsim.core.listmeasures`). The ideal documents are read in ``mode`` at the run
    document's entry point (0 for the relevant articles the run does not rank); ``ideal``
    computes their scores, all in one call with :func:`ideal_scores`'s arguments (default
    :func:`ideal_scores`; the window passes a memoised one). Raises ``ValueError`` if a
    relevant article has no evaluation.
    """
    ideal_of = ideal or ideal_scores
    n = len(articles)
    null = measure.null_value(levels)
    relevant = np.zeros(n, dtype=bool)
    rsize = np.zeros(n, dtype=np.int64)
    scores = np.full(n, null)
    ranked_judgements: list[Judgement] = []
    entries: list[int] = []
    for k, name in enumerate(articles):
        j = judged.get(name)
        if j is None or not j.relevant:
            continue
        doc = docs[k]
        if doc is None:
            raise ValueError(f"relevant article {name} (rank {k + 1}) has no evaluation")
        relevant[k], rsize[k] = True, j.rel_size
        entry = entry_points[k] if entry_points is not None else None
        scores[k] = article_score(measure, doc, j, levels, entry)
        ranked_judgements.append(j)
        entries.append(doc.entry)
    ranked = set(articles)
    missed = [name for name, j in judged.items() if j.relevant and name not in ranked]
    nrel = sum(1 for j in judged.values() if j.relevant)
    values = ideal_of(measure, ranked_judgements + [judged[m] for m in missed], mode, levels,
                      np.array(entries + [0] * len(missed), dtype=np.int64))
    ideal = np.full(n, null)
    ideal[relevant] = values[:len(entries)]
    return split(measure, articles, relevant, rsize, scores, ideal, nrel, missed,
                 [judged[m].rel_size for m in missed], values[len(entries):])


def topic_loss(qrels: Qrels, run: Run, topic: str, measure: DocMeasure, mode: Mode | str = Mode.NATURAL,
               collection: Collection | None = None, levels: int = 4) -> LossSplit:
    """The split of ``topic`` of ``run`` read straight from the files' objects: every ranked
    article evaluated in one batch (:func:`readsim.core.ranked_inputs.topic_inputs`, the columns
    :func:`readsim.core.listmeasures.rank_topics` reads). Raises
    :class:`~readsim.core.errors.InputError` on an unresolvable passage."""
    entries = run.topics.get(topic, [])
    judged = qrels.topics.get(topic, {})
    evaluations = topic_inputs(qrels, run, topic, collection).evaluations(mode)
    docs = [ev if (j := judged.get(e.article)) is not None and j.relevant else None
            for e, ev in zip(entries, evaluations)]
    return loss_split(measure, judged, [e.article for e in entries], docs, mode, levels,
                      [e.entry_point for e in entries])


# -- what each article costs (reference section 5.11) ------------------------------------------

COST_KINDS = cost_kinds()
"""List measures whose per-article costs are computed, those declared with ``costs``
(:mod:`readsim.core.list_kinds`: they aggregate a document measure S and are evaluated for many
rankings at once by :meth:`readsim.core.listmeasures.RankingTable.of_rows`): AgP, gP, CE, NCE, ANCE."""


def list_values(measure: ListMeasure, relevant: np.ndarray, scores: np.ndarray, nrel: int,
                levels: int = 4) -> np.ndarray:
    """``measure`` of each row of ``(m, w)`` matrices, as rankings of one topic with Nrel ``nrel``:
    ``relevant`` bool (isrel of each rank), ``scores`` float (S of each rank, the null value for a
    non-relevant one); float ``(m,)``. The arithmetic of
    :class:`~readsim.core.listmeasures.RankingTable` (equal to :meth:`Ranking.value` of each row, to
    1e-12), in blocks of at most its ``CELLS`` cells. Raises ``ValueError`` for a kind not in
    :data:`COST_KINDS`."""
    if measure.kind not in COST_KINDS:
        raise ValueError(f"no per-article costs for {measure.name}: give one of {', '.join(COST_KINDS)} "
                         f"over a document measure (AgP/F(0.25), gP@10/F(0.25), ANCE@600/LE(300), ...)")
    m, w = scores.shape
    out = np.empty(m)
    step = max(1, RankingTable.CELLS // max(w, measure.cutoff, 1))
    for a in range(0, m, step):
        table = RankingTable.of_rows(relevant[a:a + step], {measure.doc: scores[a:a + step]}, nrel)
        out[a:a + step] = table.values(measure, levels)
    return out


def ideal_positions(articles: Sequence[str], relevant: np.ndarray, rsize: np.ndarray) -> np.ndarray:
    """Each ranked article's 0-based place in the **ideal ordering of the run's articles**: its
    relevant articles in the order of the ideal ranking (:func:`ideal_order`: decreasing relevant
    size, ties by :func:`article_key`), then its non-relevant ones in their run order. int64
    ``(n,)``. For AgP and CE/NCE/ANCE this ordering scores as the ideal ranking does (a
    non-relevant article after the last relevant one adds nothing to AgP and NR past the end)."""
    relevant = np.asarray(relevant, dtype=bool)
    order = np.concatenate([ideal_order(articles, np.where(relevant, rsize, 0)), np.flatnonzero(~relevant)])
    places = np.empty(len(order), dtype=np.int64)
    places[order] = np.arange(len(order))
    return places


def moved(places: np.ndarray) -> np.ndarray:
    """The rankings with one article moved: int64 ``(n, n)``, row k the run's ranking (indices into
    rank order) with article k alone moved to 0-based place ``places[k]`` and the others keeping
    their order (those between shift by one)."""
    n = len(places)
    j = np.arange(n)[None, :]
    k = np.arange(n)[:, None]
    p = np.asarray(places, dtype=np.int64)[:, None]
    out = np.where((p < k) & (j > p) & (j <= k), j - 1, np.broadcast_to(j, (n, n)))
    out = np.where((p > k) & (j >= k) & (j < p), j + 1, out)
    return np.where(j == p, k, out)


def _gain(measure: ListMeasure, variant, base):
    """What a variant gains over ``base`` (positive is better; negated for an effort measure)."""
    return base - variant if measure.lower_is_better else variant - base


def browse_costs(measure: ListMeasure, relevant: np.ndarray, scores: np.ndarray, replaced: np.ndarray,
                 nrel: int, levels: int = 4) -> np.ndarray:
    """Per ranked article k, float ``(n,)``: ``measure`` of the ranking with S(d_k) alone replaced
    by ``replaced[k]``, minus as is (:func:`_gain`); NaN where ``replaced[k]`` is NaN (no
    replacement). AgP and gP@r from cumulative sums (O(n)); CE/NCE/ANCE: all n variants in one
    ``(n, n)`` evaluation (:func:`list_values`)."""
    relevant = np.asarray(relevant, dtype=bool)
    scores = np.asarray(scores, dtype=float)
    replaced = np.asarray(replaced, dtype=float)
    n = len(scores)
    none = np.isnan(replaced)
    new = np.where(none, scores, replaced)
    decl = measure.declaration
    if decl.replaced is not None:  # a closed form (engine/core/cost_forms.py)
        out = decl.replaced(measure, relevant, scores, new, nrel)
    else:
        base = list_values(measure, relevant[None, :], scores[None, :], nrel, levels)[0]
        variants = np.repeat(scores[None, :], n, axis=0)
        variants[np.arange(n), np.arange(n)] = new
        out = _gain(measure, list_values(measure, np.broadcast_to(relevant, (n, n)), variants, nrel, levels), base)
    out[none] = np.nan
    return out


def rank_costs(measure: ListMeasure, relevant: np.ndarray, scores: np.ndarray, places: np.ndarray,
               nrel: int, levels: int = 4) -> np.ndarray:
    """Per ranked article k, float ``(n,)``: ``measure`` of the ranking with article k alone moved
    to 0-based place ``places[k]`` (:func:`moved`), minus as is (:func:`_gain`); NaN where
    ``places[k]`` < 0 (no move). AgP and gP@r from cumulative sums (O(n)); CE/NCE/ANCE: all n
    variants in one ``(n, n)`` evaluation."""
    relevant = np.asarray(relevant, dtype=bool)
    scores = np.asarray(scores, dtype=float)
    places = np.asarray(places, dtype=np.int64)
    none = places < 0
    stay = np.where(none, np.arange(len(places)), places)
    decl = measure.declaration
    if decl.moved is not None:  # a closed form (engine/core/cost_forms.py)
        out = decl.moved(measure, relevant, scores, stay, nrel)
    else:
        at = moved(stay)
        base = list_values(measure, relevant[None, :], scores[None, :], nrel, levels)[0]
        out = _gain(measure, list_values(measure, relevant[at], scores[at], nrel, levels), base)
    out[none] = np.nan
    return out


@dataclass(frozen=True)
class ArticleCosts:
    """What each ranked article of one topic costs under list measure ``measure`` (reference
    section 5.11), over the topic's :class:`LossSplit` ``loss`` (its document measure S).

    The topic: ``as_is``, ``ideal_passages``, ``ideal_ranking``, ``ideal`` (both), ``perfect``:
    ``measure`` of the run as is, with every article's S replaced by ``S_ideal``, in the ideal
    ordering of the run's articles (:func:`ideal_positions`), both, and every relevant article
    of the topic with ``S_ideal`` in the R order. Per ranked article (float ``(n,)``, rank
    order): ``ideal_rank`` (1-based, int64) in the ideal ordering of the run's articles;
    ``browse_cost``: ``measure`` with S(d_k) alone replaced by S_ideal(d_k), minus as is;
    ``rank_cost``: with article k alone moved to its ideal rank, minus as is. Every difference is
    what the change gains (negated for CE/NCE/ANCE, lower is better), so positive is what the run
    gives away."""

    measure: ListMeasure
    loss: LossSplit
    as_is: float
    ideal_passages: float
    ideal_ranking: float
    ideal: float
    perfect: float
    ideal_rank: np.ndarray
    browse_cost: np.ndarray
    rank_cost: np.ndarray

    @property
    def browse(self) -> float:
        """Fixing every article's passages: ``ideal_passages`` over as is (gain)."""
        return _gain(self.measure, self.ideal_passages, self.as_is)

    @property
    def fetch(self) -> float:
        """Fixing the order: ``ideal_ranking`` over as is (gain)."""
        return _gain(self.measure, self.ideal_ranking, self.as_is)

    @property
    def interaction(self) -> float:
        """``both - browse - fetch`` gains: browse + fetch + interaction = the gain of both."""
        return _gain(self.measure, self.ideal, self.as_is) - self.browse - self.fetch

    @property
    def unretrieved(self) -> float:
        """``perfect`` over ``ideal`` (gain): the relevant articles the run does not rank."""
        return _gain(self.measure, self.perfect, self.ideal)


def article_costs(loss: LossSplit, measure: ListMeasure, levels: int = 4) -> ArticleCosts:
    """The :class:`ArticleCosts` of ``loss``'s topic under ``measure`` (a kind of
    :data:`COST_KINDS` whose document measure is ``loss.measure``). Raises ``ValueError``
    otherwise, or when the topic has no relevant article (Nrel = 0)."""
    if measure.doc != loss.measure:
        raise ValueError(f"{measure.name} does not aggregate {loss.measure.name}, the split's document measure")
    if loss.nrel < 1:
        raise ValueError("a topic with no relevant article has no costs (every list measure divides by Nrel)")
    rel, s, ideal_s = loss.relevant, loss.scores, loss.ideal_scores
    places = ideal_positions(loss.articles, rel, loss.rsize)
    order = np.argsort(places)
    rows_rel = np.stack([rel, rel, rel[order], rel[order]])
    rows_s = np.stack([s, ideal_s, s[order], ideal_s[order]])
    four = list_values(measure, rows_rel, rows_s, loss.nrel, levels)
    perfect_s = loss.perfect_scores if loss.perfect_scores is not None else np.zeros(0)
    perfect = list_values(measure, np.ones((1, len(perfect_s)), dtype=bool), perfect_s[None, :], loss.nrel, levels)
    return ArticleCosts(measure, loss, *map(float, four), float(perfect[0]), places + 1,
                        browse_costs(measure, rel, s, ideal_s, loss.nrel, levels),
                        rank_costs(measure, rel, s, places, loss.nrel, levels))


@dataclass(frozen=True)
class Versus:
    """The same topic of a competitor's run, article by article (reference section 5.11).

    ``as_is``: the competitor's ``measure`` on the topic (its own ranking and passages).
    Per article of the run (float ``(n,)``, rank order): ``vs_rank`` (1-based, 0 when the
    competitor does not rank it; int64); ``vs_score``: S of the article with the competitor's
    passages (NaN when not ranked); ``vs_rank_cost``: ``measure`` of the run with this article
    alone moved to the competitor's rank (the run's last rank when that is beyond it), minus as
    is; ``vs_browse_cost``: with this article's S alone replaced by ``vs_score``, minus as is
    (both NaN when the competitor does not rank it; gains, as :class:`ArticleCosts`)."""

    run: str
    as_is: float
    vs_rank: np.ndarray
    vs_score: np.ndarray
    vs_rank_cost: np.ndarray
    vs_browse_cost: np.ndarray


def versus(costs: ArticleCosts, other: LossSplit, run: str = "", levels: int = 4) -> Versus:
    """:class:`Versus` of ``costs``' topic against ``other``, the competitor's split of the same
    topic with the same document measure (``run``: its name)."""
    loss = costs.loss
    n = len(loss.articles)
    theirs = {a: k for k, a in enumerate(other.articles)}
    at = np.array([theirs.get(a, -1) for a in loss.articles], dtype=np.int64)
    ranked = at >= 0
    score = np.where(ranked, np.asarray(other.scores, dtype=float)[np.maximum(at, 0)] if len(other.articles)
                     else np.nan, np.nan)
    places = np.where(ranked, np.minimum(at, n - 1), -1)
    m = costs.measure
    own = list_values(m, np.asarray(other.relevant, dtype=bool)[None, :], np.asarray(other.scores, dtype=float)[None, :],
                      loss.nrel, levels)[0]
    return Versus(run, float(own), np.where(ranked, at + 1, 0),
                  score, rank_costs(m, loss.relevant, loss.scores, places, loss.nrel, levels),
                  browse_costs(m, loss.relevant, loss.scores, score, loss.nrel, levels))


def topic_costs(qrels: Qrels, run: Run, topic: str, measure: ListMeasure, mode: Mode | str = Mode.NATURAL,
                collection: Collection | None = None, levels: int = 4,
                other: Run | None = None) -> tuple[ArticleCosts, Versus | None]:
    """``topic``'s :class:`ArticleCosts` under ``measure`` for ``run`` read from the files'
    objects (:func:`topic_loss` of ``measure.doc``), and against ``other``'s same topic
    (:func:`versus`) when given. Raises :class:`~readsim.core.errors.InputError` as
    :func:`topic_loss`, ``ValueError`` as :func:`article_costs`."""
    if measure.doc is None:
        raise ValueError(f"no per-article costs for {measure.name}: give one of {', '.join(COST_KINDS)} "
                         f"over a document measure")
    costs = article_costs(topic_loss(qrels, run, topic, measure.doc, mode, collection, levels), measure, levels)
    if other is None:
        return costs, None
    theirs = topic_loss(qrels, other, topic, measure.doc, mode, collection, levels)
    return costs, versus(costs, theirs, other.run_id, levels)


def run_losses(qrels: Qrels, run: Run, measure: DocMeasure, topics: Sequence[str], mode: Mode | str = Mode.NATURAL,
               collection: Collection | None = None, levels: int = 4) -> dict[str, LossSplit]:
    """:func:`topic_loss` of each of ``topics``, the run's side column-wise: S of every ranked
    article of every topic from one :func:`readsim.core.listmeasures.rank_topics` call, the ideal
    readings of each topic in one :func:`ideal_scores` batch. In the ``entry`` mode, where the
    ideal reading starts at each run document's entry point, topic by topic
    (:func:`topic_loss`). Raises :class:`~readsim.core.errors.InputError` as :func:`topic_loss`."""
    from .listmeasures import rank_topics

    if Mode(mode) is Mode.ENTRY:
        return {t: topic_loss(qrels, run, t, measure, mode, collection, levels) for t in topics}
    ranked = rank_topics(qrels, run, [measure], mode, collection, levels=levels, topics=topics)
    out: dict[str, LossSplit] = {}
    for t in topics:
        judged = qrels.topics.get(t, {})
        r = ranked.get(t)
        articles = list(r.articles) if r is not None else []
        relevant = np.asarray(r.relevant, dtype=bool) if r is not None else np.zeros(0, dtype=bool)
        scores = r.scores[measure] if r is not None else np.zeros(0)
        names = set(articles)
        missed = [name for name, j in judged.items() if j.relevant and name not in names]
        mine = [judged[articles[k]] for k in np.flatnonzero(relevant).tolist()]
        values = ideal_scores(measure, mine + [judged[m] for m in missed], mode, levels)
        ideal = np.full(len(articles), measure.null_value(levels))
        ideal[relevant] = values[:len(mine)]
        rsize = r.rsize if r is not None else np.zeros(0, dtype=np.int64)
        out[t] = split(measure, articles, relevant, rsize, scores, ideal, sum(1 for j in judged.values() if j.relevant),
                       missed, [judged[m].rel_size for m in missed], values[len(mine):])
    return out


def run_costs(qrels: Qrels, run: Run, measure: ListMeasure, topics: Sequence[str], mode: Mode | str = Mode.NATURAL,
              collection: Collection | None = None, levels: int = 4,
              other: Run | None = None) -> list[tuple[str, ArticleCosts, Versus | None]]:
    """``(topic, costs, versus)`` for each of ``topics``: :func:`topic_costs` over
    :func:`run_losses` (``readsim-eval loss`` and ``readsim.loss``). Raises ``ValueError`` for a
    measure without costs, :class:`~readsim.core.errors.InputError` on bad input."""
    if measure.doc is None or measure.kind not in COST_KINDS:
        raise ValueError(f"no per-article costs for {measure.name}: give one of {', '.join(COST_KINDS)} "
                         f"over a document measure")
    topics = list(topics)
    mine = run_losses(qrels, run, measure.doc, topics, mode, collection, levels)
    theirs = run_losses(qrels, other, measure.doc, topics, mode, collection, levels) if other is not None else {}
    out = []
    for t in topics:
        costs = article_costs(mine[t], measure, levels)
        out.append((t, costs, versus(costs, theirs[t], other.run_id, levels) if other is not None else None))
    return out
