"""``readsim.sweep``: a run's measures at every value of one parameter (docs/reference.md
section 9.6), and its pandas-free core: :func:`sweep_rows` (``readsim-eval sweep``'s rows), and
for evaluations the caller already has (the window's Sensitivity dock) :func:`topic_curve` (one
topic's list measure at every value, from its ranked articles' evaluations; one article's is
:func:`readsim.core.parameter_sweep.article_sweep`).

Every value is evaluated in one pass through :func:`readsim.operations.evaluate.evaluations` (or
``article_scores`` per article): the qrels are prepared once and each article's reading order
built once, the measures at all the values scored column-wise over them. Each row equals plain
evaluation of its measure's canonical name (``tests/engine/test_parameter_sweep.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from readsim.core.listmeasures import per_article
from readsim.core.measure import DocMeasure, ListMeasure
from readsim.core.result_lines import Join
from readsim.core.parameter_sweep import Vary, parse_vary, swept, topic_sweep

from readsim.operations.evaluate import _check, _collection, _lengths, _measures, article_scores, evaluate_run, evaluations
from readsim.operations.checks import flag
from readsim.operations.inputs import as_qrels, as_run

if TYPE_CHECKING:
    from readsim.core.doc_evaluation import DocumentEvaluation
    from readsim.core.formats import Qrels


@dataclass(frozen=True)
class SweepRow:
    """One row of a sweep: the concrete ``measure`` (its canonical name is the measure at that
    value), the ``parameter`` and its ``parameter_value``, the ``topic`` (``all`` for the mean
    over topics), the ``article`` (per-article sweeps; else None) and the ``value``."""

    measure: DocMeasure | ListMeasure
    parameter: str
    parameter_value: int | float
    topic: str
    article: str | None
    value: float



def topic_curve(qrels: Qrels, topic: str, articles: Sequence[str], docs: Sequence[DocumentEvaluation | None],
                measure: ListMeasure, parameter: str, values: Sequence, levels: int = 4,
                step: Callable[[float], None] | None = None) -> np.ndarray:
    """One topic's list ``measure`` (over a document measure: ``AgP/T2IF(300)``,
    ``ANCE@100/LE(300)``) at every value of ``parameter``: float ``(len(values),)``, each equal to
    ``readsim.evaluate(..., per="topic")`` of the measure at that value for this topic's ranked
    list. ``articles`` are the topic's ranked article names in rank order, ``docs[k]`` the
    evaluation of ``articles[k]`` in the reading wanted (read only when the article is relevant:
    None allowed otherwise); ``qrels`` the engine's qrels (relevance, relevant sizes, Nrel and
    Trel_size, as :func:`readsim.operations.evaluate.topic_ranking` joins them). Non-relevant and unjudged
    articles take the null value (policy 7 of :mod:`readsim.core.listmeasures`); a measure
    without ``parameter`` has its one value at every value. ``step(fraction)`` is called after
    each relevant article is swept (it may raise to cancel). Reference sections 5 and 9.6."""
    judged = qrels.topics.get(topic, {})
    relevant = np.array([bool(judged.get(a) and judged[a].relevant) for a in articles], dtype=bool)
    rsize = np.array([judged[a].rel_size if ok else 0 for a, ok in zip(articles, relevant)], dtype=np.int64)
    nrel, trel = qrels.totals(topic)
    return topic_sweep(list(docs), relevant, rsize, nrel, trel, measure, parameter, values, levels, step)


CHUNK = 64
"""Measures evaluated in one pass at most: a pass holds a float per measure and ranked article
(64 x the real run's 36,868 results: 19 MB), so 10,000 values go through in passes of 64."""


def _chunks(pairs: list[tuple[object, list]]) -> Iterator[list[tuple[object, list]]]:
    """``pairs`` cut into consecutive groups of at most :data:`CHUNK` measures (a value's measures
    stay together)."""
    group: list = []
    size = 0
    for value, ms in pairs:
        if group and size + len(ms) > CHUNK:
            yield group
            group, size = [], 0
        group.append((value, ms))
        size += len(ms)
    if group:
        yield group


def sweep_rows(qrels, run, measures: Sequence[DocMeasure | ListMeasure], vary: Vary, *, per_topic: bool = False,
               per_article: bool = False, reading: str = "natural", collection=None, unit: str | None = None,
               all_topics: bool = False, as_documents: bool = False, levels: int = 4,
               progress: Callable[[str], Callable[[int, int], None] | None] | None = None) -> Iterator[SweepRow]:
    """The rows of a sweep of one run: per value of ``vary`` (in order), the rows plain
    evaluation gives for the measures at that value (:func:`readsim.core.parameter_sweep.swept`): with
    ``per_article``, every ranked article's document scores in run order; else the per-topic
    values (``per_topic``) then the means (topic ``all``) of the list measures. ``qrels`` and
    ``run`` as :func:`readsim.evaluate` takes them, read and prepared once. The values are
    evaluated :data:`CHUNK` measures a pass (one pass for up to 64 values of one measure), the
    rows of a pass yielded before the next starts. Warnings as :class:`readsim.InputWarning`,
    issued by the first pass; raises :class:`readsim.InputError` on bad input and
    :class:`readsim.core.parameter_sweep.VaryError` when no measure has the parameter."""
    pairs, _ = swept(measures, vary)
    judged = as_qrels(qrels)
    engine_run = as_run(run)
    found = _collection(collection, unit)
    judged = _lengths(judged, found)
    for first, group in enumerate(_chunks(pairs)):
        concrete = list(dict.fromkeys(m for _, ms in group for m in ms))
        if per_article:
            yield from _article_rows(judged, engine_run, concrete, group, vary.name, first == 0, reading, found,
                                     as_documents, levels, progress)
            continue
        if first == 0:  # the coverage check's and the run's warnings, once
            (_, result), = evaluations(judged, [engine_run], concrete, reading=reading, collection=found,
                                       all_topics=all_topics, as_documents=as_documents, levels=levels,
                                       progress=progress)
        else:
            result, _ = evaluate_run(judged, engine_run, concrete, reading=reading, collection=found,
                                     all_topics=all_topics, as_documents=as_documents, levels=levels)
        for value, ms in group:
            if per_topic:
                for t in result.topics:
                    for m in ms:
                        if t in result.values[m.name]:
                            yield SweepRow(m, vary.name, value, t, None, result.values[m.name][t])
            for m in ms:
                yield SweepRow(m, vary.name, value, "all", None, result.means[m.name])


def _article_rows(judged, run, concrete: list, group: list, name: str, first: bool, reading: str, found,
                  as_documents: bool, levels: int, progress) -> Iterator[SweepRow]:
    """One pass of a per-article sweep: every ranked article's scores for the measures of
    ``group``; the first pass through the API (its warnings), the others silently."""
    if first:
        scored = [(topic, article, values) for _, topic, article, values in article_scores(
            judged, [run], concrete, reading=reading, collection=found, as_documents=as_documents, levels=levels,
            progress=progress)]
    else:
        scored = list(per_article(judged, run, concrete, reading, found, as_documents, Join(), None, levels))
    index = {m: i for i, m in enumerate(concrete)}
    for value, ms in group:
        for topic, article, values in scored:
            for m in ms:
                yield SweepRow(m, name, value, topic, article, values[index[m]])


def sweep(qrels, run, measures=None, vary: str | Vary | None = None, *, per: str = "all", reading: str = "natural",
          collection=None, unit: str | None = None, all_topics: bool = False):
    """A run's measures at every value of one parameter; a long ``pandas.DataFrame``.

    - ``qrels``, ``run``, ``reading``, ``collection``, ``unit``, ``all_topics``: as
      :func:`readsim.evaluate` (one run).
    - ``measures``: names or parsed measures, as :func:`readsim.evaluate` (default
      ``AgP/F(0.25)``, ``F(0.25)`` with ``per="article"``); those with the varied parameter are
      evaluated at each value, the others left out.
    - ``vary`` (required): ``"NAME=V1,V2,..."`` or ``"NAME=START:STOP:N[:log]"`` (``readsim-eval sweep
      --vary``), NAME one of ``k``, ``t``, ``s``, ``d``, ``alpha``, ``beta`` (reference
      section 6); sizes in ``unit``.
    - ``per``: ``"all"`` (each measure's mean over the topics), ``"topic"`` (one row per
      topic) or ``"article"`` (every ranked article's document score).

    Columns ``measure`` (the canonical name at that value), ``parameter``,
    ``parameter_value`` (float), ``topic`` (str), [``article``], ``value`` (float); each row
    equals :func:`readsim.evaluate` of that measure name. Raises ``ValueError`` for a bad
    ``vary``, measure name or option, when no measure has the parameter, and
    :class:`readsim.InputError` on bad input."""
    import pandas as pd

    _check(per, reading, unit)
    all_topics = flag("all_topics", all_topics)
    parsed = _measures(measures, per)
    if not isinstance(vary, (str, Vary)):
        what = "vary is required" if vary is None else f"vary must be a string, not {type(vary).__name__}"
        raise ValueError(f"{what}: 'NAME=V1,V2,...' or 'NAME=START:STOP:N[:log]' (such as 't=50:2000:20:log')")
    plan = parse_vary(vary) if isinstance(vary, str) else vary
    cols: dict[str, list] = {"measure": [], "parameter": [], "parameter_value": [], "topic": [], "value": []}
    if per == "article":
        cols = {"measure": [], "parameter": [], "parameter_value": [], "topic": [], "article": [], "value": []}
    for row in sweep_rows(qrels, run, parsed, plan, per_topic=per == "topic", per_article=per == "article",
                          reading=reading, collection=collection, unit=unit, all_topics=all_topics):
        if per == "topic" and row.topic == "all":
            continue
        cols["measure"].append(row.measure.name)
        cols["parameter"].append(row.parameter)
        cols["parameter_value"].append(float(row.parameter_value))
        cols["topic"].append(row.topic)
        if per == "article":
            cols["article"].append(row.article)
        cols["value"].append(row.value)
    return pd.DataFrame({k: (pd.array(v, dtype="float64") if k in ("value", "parameter_value")
                             else pd.array(v, dtype="string")) for k, v in cols.items()}).astype(
        {"value": "float64", "parameter_value": "float64"})
