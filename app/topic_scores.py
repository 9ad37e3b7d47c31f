"""The current topic's list scores (fetch phase) from the ranked rows the session already has.

No Qt and no file access: every number is the Python API core's, which ``readsim.evaluate``
and ``readsim.loss`` are built on. :func:`topic_scores` joins the rows' evaluations (current
reading mode) with the qrels' relevance and relevant sizes (:func:`readsim.operations.evaluate.topic_ranking`)
and asks for the list measures (:func:`readsim.operations.evaluate.topic_values`: the arithmetic
``readsim.evaluate(..., per="topic")`` applies to each topic; docs/reference.md section 5,
and section 7's policies 1, 2 and 7, as in :mod:`readsim.core.listmeasures`: gP past a short
run's end, effort past the run's end, unjudged and non-relevant articles score the measure's
null value) and the curves
(:func:`readsim.operations.evaluate.topic_curves`). The same rows give "where the run loses"
(:func:`readsim.core.costs.loss_split`): AgP with the highlighted passages and/or the ideal ranking,
and each article's browse loss (what each article costs the topic is computed from the split by
the topic view, in the background, :func:`readsim.core.costs.article_costs`).

Speed (a reader-setting change must show within a frame): the loss split reads every relevant
article of the topic again with its highlighted passages (``S_ideal``), all in one batch
(:func:`readsim.core.costs.ideal_scores`). A :class:`LossMemo` keeps each ``S_ideal`` (per
judgement, measure, mode, levels and entry point) and each topic's split, so a screen or tolerance change that
leaves S alone costs nothing and a mode already seen costs the run's side only. The numbers
are those of :func:`readsim.core.costs.loss_split` without the memo (same functions; tested equal).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from readsim.operations.evaluate import topic_curves, topic_ranking, topic_values
from readsim.core.costs import ideal_scores, loss_split
from readsim.core.doc_evaluation import Settings
from readsim.core.formats import Judgement, Qrels
from readsim.core.listmeasures import Ranking
from readsim.core.costs import LossSplit
from readsim.core.measure import DocMeasure, ListMeasure, at_settings
from readsim.core.registry import effort_kinds

DOC_KINDS = ("aveChP", "T2IF", "T2IP", "F", "LE", "ES")  # the topic view's document measures
EFFORT_KINDS = effort_kinds()  # LE, ES: the effort scores CE, NCE and ANCE cumulate
PRECISION_CUTOFFS = (1, 5, 10, 25, 50)
EFFORT_CUTOFFS = (10, 50, 100)


def doc_measure(kind: str, s: Settings) -> DocMeasure:
    """The document measure ``kind`` (one of :data:`DOC_KINDS`) with the parameters of ``s``
    (:func:`readsim.core.measure.at_settings`: T2I tolerance and alpha, F's beta, LE/ES's screen)."""
    if kind not in DOC_KINDS:
        raise ValueError(f"no document measure {kind!r} in the topic view (one of {', '.join(DOC_KINDS)})")
    return at_settings(kind, s)


def effort_cutoffs(n: int) -> tuple[int, ...]:
    """Ranks r for CE/NCE/ANCE@r: 10, 50, 100 and the run's length ``n`` (sorted, distinct)."""
    return tuple(sorted(set(EFFORT_CUTOFFS) | ({n} if n > 0 else set())))


def list_measures(doc: DocMeasure, n: int) -> list[ListMeasure]:
    """The list measures shown for document measure ``doc`` over a ranking of ``n`` articles:
    AgP, AgP', MAP, gP@r and gR@r (r in :data:`PRECISION_CUTOFFS`) for a precision-like
    ``doc``; MAP, gR@r, CE@r, NCE@r and ANCE@r (r in :func:`effort_cutoffs`) for LE/ES."""
    if doc.kind in EFFORT_KINDS:
        rs = effort_cutoffs(n)
        out = [ListMeasure("MAP")]
        for r in rs:
            out += [ListMeasure("CE", r, doc), ListMeasure("NCE", r, doc), ListMeasure("ANCE", r, doc),
                    ListMeasure("gR", r)]
        return out
    out = [ListMeasure("AgP", 0, doc), ListMeasure("AgP'", 0, doc), ListMeasure("MAP")]
    for r in PRECISION_CUTOFFS:
        out += [ListMeasure("gP", r, doc), ListMeasure("gR", r)]
    return out


@dataclass
class TopicScores:
    """One topic's list scores for one document measure.

    ``values``: canonical list-measure name -> value (empty when the topic has no relevant
    article: every list measure divides by Nrel); ``gp``, ``gr``: gP[r] and gR[r] for
    r = 1..n (float ``(n,)``; gR is zeros without relevant articles); ``effort``: the effort
    measure of the NCE curve; ``nce``: NCE[r] for r = 1..n; ``scores``: the document score of
    each rank (``(n,)``, the null value for non-relevant articles); ``ranking``: the engine's
    joined ranking; ``loss``: where the run loses for ``doc`` (None without qrels).
    """

    topic: str
    doc: DocMeasure
    effort: DocMeasure
    ranking: Ranking
    measures: list[ListMeasure]
    values: dict[str, float]
    scores: np.ndarray
    gp: np.ndarray
    gr: np.ndarray
    nce: np.ndarray
    loss: LossSplit | None = None

    @property
    def n(self) -> int:
        return len(self.ranking.articles)

    @property
    def nrel(self) -> int:
        return self.ranking.nrel

    @property
    def ance(self) -> np.ndarray:
        """ANCE[r] = mean of NCE[1..r] for r = 1..n (float ``(n,)``)."""
        return np.cumsum(self.nce) / np.arange(1, len(self.nce) + 1) if len(self.nce) else np.zeros(0)

    @property
    def relevant_ranked(self) -> int:
        return int(np.count_nonzero(self.ranking.relevant))


class LossMemo:
    """Memo of :func:`readsim.core.costs.ideal_scores` values and of the last splits (see the
    module docstring). Keys hold their objects (judgement, rows list, qrels), compared by
    identity, so a new qrels file or new rows never meet an old entry; at most ``limit``
    ideal scores are kept (then the memo starts again)."""

    def __init__(self, limit: int = 100_000, splits: int = 16) -> None:
        self.limit = limit
        self._ideal: dict[tuple, tuple[Judgement, float]] = {}
        self._splits: dict[tuple, tuple[object, object, LossSplit]] = {}
        self._max_splits = splits
        self.computed = 0  # ideal scores computed (not found in the memo): for tests

    def ideal(self, measure: DocMeasure, judgements, mode, levels: int, entries) -> np.ndarray:
        """:func:`ideal_scores` of ``judgements`` at ``entries`` (memoised): the ones not in the
        memo are computed in one batch."""
        out = np.full(len(judgements), measure.null_value(levels))
        keys = [None if j is None or not j.relevant else (id(j), measure, str(mode), levels, int(e))
                for j, e in zip(judgements, np.asarray(entries).tolist())]
        todo = []
        for k, (j, key) in enumerate(zip(judgements, keys)):
            if key is None:
                continue
            hit = self._ideal.get(key)
            if hit is not None and hit[0] is j:
                out[k] = hit[1]
            else:
                todo.append(k)
        if todo:
            if len(self._ideal) + len(todo) > self.limit:
                self._ideal.clear()
            values = ideal_scores(measure, [judgements[k] for k in todo], mode, levels,
                                  np.asarray(entries, dtype=np.int64)[todo])
            for k, value in zip(todo, values.tolist()):
                self._ideal[keys[k]] = (judgements[k], value)
                out[k] = value
            self.computed += len(todo)
        return out

    def loss_split(self, measure: DocMeasure, judged, articles, docs, mode, levels: int,
                   rows: object = None, qrels: object = None) -> LossSplit:
        """:func:`readsim.core.costs.loss_split` (no entry points) with memoised ``S_ideal``;
        the same ``rows`` and ``qrels`` objects with the same measure, mode and levels return
        the previous split (the same object)."""
        key = (id(rows), id(qrels), measure, str(mode), levels)
        hit = self._splits.get(key) if rows is not None else None
        if hit is not None and hit[0] is rows and hit[1] is qrels:
            return hit[2]
        out = loss_split(measure, judged, articles, docs, mode, levels, ideal=self.ideal)
        if rows is not None:
            if len(self._splits) >= self._max_splits:
                self._splits.clear()
            self._splits[key] = (rows, qrels, out)
        return out


def topic_scores(rows, qrels: Qrels | None, topic: str, doc: DocMeasure, settings: Settings,
                 memo: LossMemo | None = None) -> TopicScores:
    """List scores of ``topic`` for document measure ``doc``.

    ``rows``: the session's ranked rows (rank order; each with ``.article`` and
    ``.evaluation``, a DocumentEvaluation in the current mode). Relevance and relevant size
    come from ``qrels`` (``Judgement.rel_size > 0``); without qrels nothing is relevant. The
    NCE curve uses ``doc`` if it is LE/ES, else LE(screen). NR = ``settings.levels + 1``.
    ``memo``: a :class:`LossMemo` for the loss split (same numbers, computed once).
    """
    effort = doc if doc.kind in EFFORT_KINDS else DocMeasure("LE", settings.screen, lower_is_better=True)
    levels = settings.levels
    judged = qrels.topics.get(topic, {}) if qrels is not None else {}
    docs = [r.evaluation for r in rows]
    ranking = topic_ranking(topic, judged, [r.article for r in rows], docs, [doc, effort], levels)
    measures = list_measures(doc, len(rows))
    gp, gr, nce = topic_curves(ranking, doc, effort, levels)
    loss = None
    if qrels is not None:
        if memo is None:
            loss = loss_split(doc, judged, ranking.articles, docs, settings.mode, levels)
        else:
            loss = memo.loss_split(doc, judged, ranking.articles, docs, settings.mode, levels, rows, qrels)
    return TopicScores(topic, doc, effort, ranking, measures, topic_values(ranking, measures, levels),
                       ranking.scores[doc], gp, gr, nce, loss)
