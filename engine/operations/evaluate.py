"""``readsim.evaluate``: list measures per run (and topic), or document measures per article.

The numbers are ``readsim-eval``'s: the same readers, the same coverage warnings and the same
engine calls (:func:`readsim.core.listmeasures.evaluate` and ``per_article``) as
``readsim-eval QRELS RUN ... [-q] [-c] [--condensed] [--per-article] [--reading R] [--collection DIR]``;
:func:`evaluations` is that evaluation without pandas (what a writer of rows needs);
:func:`evaluate_again` a run's evaluation after edits, only its changed topics evaluated again.

One topic from document evaluations the caller already has (the window's ranked rows):
:func:`topic_ranking` joins them with the qrels, :func:`topic_values` gives its list measures
with the arithmetic :func:`readsim.core.listmeasures.evaluate` applies to every topic
(:func:`readsim.core.listmeasures.ranking_values`: the same function, so the window's topic
view and ``evaluate(per="topic")`` cannot diverge), :func:`topic_curves` its gP, gR and NCE
curves (reference section 5).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from readsim.core.coverage import check_coverage
from readsim.core.cwl import read_part
from readsim.core.errors import Diagnostic
from readsim.core.formats.limits import task_limit
from readsim.core.listmeasures import (Evaluation, Ranking, generalised_precision, generalised_recall,
                                         normalized_cumulated_effort, per_article, ranking_values, topic_means)
from readsim.core.listmeasures import evaluate as _evaluate_run
from readsim.core.measure import (DEFAULT_DOC_MEASURE, DEFAULT_LIST_MEASURE, READER_KINDS, DocMeasure, ListMeasure,
                                    UnknownMeasure, parse_any)
from readsim.core.result_lines import Join

from readsim.operations.checks import flag, options
from readsim.operations.inputs import as_qrels, input_path, labelled_runs, warn

if TYPE_CHECKING:  # the XML model (lxml) is imported only when a collection is given
    from readsim.core.collection import Collection
    from readsim.core.doc_evaluation import DocumentEvaluation
    from readsim.core.formats import Judgement, Qrels

PER = ("all", "topic", "article")
DEFAULT_LIST_MEASURES = (DEFAULT_LIST_MEASURE,)  # MAgP, INEX's official Relevant in Context measure (readsim-eval's default)
DEFAULT_DOC_MEASURES = (DEFAULT_DOC_MEASURE,)  # readsim-eval --per-article's default


def parse_measure(text: str) -> DocMeasure | ListMeasure:
    """A measure from its name (reference section 6): a document measure (``F(0.25)``,
    ``T2IF(300)``, ...) or a list measure (``AgP/F(0.25)``, ``MAiP``, ``gP@10/F(0.25)``, ...).
    ``.name`` is the canonical name results use. Raises ``ValueError`` (an unknown name, a
    parameter out of range, a ``text`` that is not a string) naming what is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"a measure name is a string such as 'AgP/F(0.25)', not {type(text).__name__}")
    return parse_any(text)


def _measures(measures, per: str) -> list:
    """Parsed measures: document measures for ``per="article"``, list measures otherwise."""
    if measures is None:
        measures = DEFAULT_DOC_MEASURES if per == "article" else DEFAULT_LIST_MEASURES
    elif isinstance(measures, (str, DocMeasure, ListMeasure)):
        measures = [measures]
    elif not isinstance(measures, (list, tuple)) and type(measures).__name__ not in ("ndarray", "Series", "Index"):
        raise ValueError(f"measures must be a measure name or a list of them, not {type(measures).__name__}")
    out = []
    for m in measures:
        if isinstance(m, (DocMeasure, ListMeasure)):
            parsed = m
        elif isinstance(m, str):
            parsed = parse_any(m)
        else:
            raise ValueError(f"measures must be measure names (strings) or parsed measures, not {m!r}")
        if per == "article" and isinstance(parsed, ListMeasure):
            raise UnknownMeasure(f"{parsed.name} is a list measure; per='article' gives document measures such as "
                                 f"{parsed.doc.name if parsed.doc is not None else 'F(0.25)'}")
        if per != "article" and isinstance(parsed, DocMeasure):
            raise UnknownMeasure(f"{parsed.name} is a document measure: give a list measure such as AgP/{parsed.name}, "
                                 f"or per='article'")
        out.append(parsed)
    return out


def _collection(collection, unit: str | None) -> Collection | None:
    """None, a :class:`readsim.Collection` as it is, or one opened on a folder or archive
    path (checked first as ``readsim-eval`` checks it: :func:`readsim.operations.inputs.input_path`).
    ``TypeError`` for anything else."""
    if collection is None:
        return None
    from readsim.core.collection import Collection

    if isinstance(collection, Collection):
        return collection
    if not isinstance(collection, (str, os.PathLike)):
        raise TypeError(f"collection: expected a folder or archive path or a readsim.Collection, not "
                        f"{type(collection).__name__}")
    return Collection(input_path(collection, "collection"), unit)


def _lengths(judged: Qrels, found: Collection | None) -> Qrels:
    """``judged`` with the collection's doc_length where the qrels do not give it
    (:func:`readsim.core.qrels_lengths.with_collection_lengths`, reference 2.11), its new
    warnings issued."""
    from readsim.core.qrels_lengths import with_collection_lengths

    out = with_collection_lengths(judged, found)
    warn(out.diagnostics[len(judged.diagnostics):])
    return out


def _check(per: str, reading: str, unit: str | None = None, pers: Sequence[str] = PER) -> None:
    """``ValueError`` naming the option for a ``per``, ``reading`` or ``unit`` not allowed."""
    options(per=per, pers=pers, reading=reading, unit=unit)


def no_judged_topic(judged, run, then: str) -> list[Diagnostic]:
    """The warning every entry point gives for a run none of whose topics the qrels judge with a
    relevant article (an empty run too): ``"no topic of the run is judged in the qrels; "`` and
    ``then``, what it means for the result (the evaluation's own words: "every mean is 0").
    Empty when some topic is judged."""
    if any(judged.nrel(t) > 0 for t in run.topics):
        return []
    return [Diagnostic(run.path, None, f"no topic of the run is judged in the qrels; {then}")]


def unsaid(diagnostics: list[Diagnostic], said: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` less those already said (the coverage check says some of them first)."""
    seen = {str(d) for d in said}
    return [d for d in diagnostics if str(d) not in seen]


def evaluations(qrels, runs, measures: Sequence[ListMeasure], *, reading: str = "natural", collection=None,
                unit: str | None = None, all_topics: bool = False, as_documents: bool = False, levels: int = 4,
                progress: Callable[[str], Callable[[int, int], None] | None] | None = None,
                condensed: bool = False, task: str | None = None) -> Iterator[tuple[str, Evaluation]]:
    """``(label, Evaluation)`` per run, in order, without pandas: :func:`evaluate`'s work and
    ``readsim-eval``'s (``condensed``: unjudged articles removed from each ranking, ``--condensed``;
    ``task``: runs given as paths or DataFrames cut to an INEX 2010 task's limit as they are read,
    reference 5.14). The qrels are read (or converted) once; warnings are issued as
    :class:`readsim.InputWarning`, the coverage check's first
    (``readsim.core.coverage.check_coverage``), then each run's as it is evaluated.
    ``progress(label)``, when given, is a run's progress callback ``(done, total)`` (or None)."""
    judged = as_qrels(qrels)
    engine_runs, labels = labelled_runs(runs, task=task)
    found = _collection(collection, unit)
    judged = _lengths(judged, found)
    said = check_coverage(judged, engine_runs, found)
    warn(said)
    for label, run in zip(labels, engine_runs):
        result, checks = evaluate_run(judged, run, measures, reading=reading, collection=found,
                                      all_topics=all_topics, as_documents=as_documents, levels=levels,
                                      progress=progress(label) if progress is not None else None,
                                      condensed=condensed)
        result.run_id = label
        warn(unsaid(result.diagnostics, said) + checks)
        yield label, result


def evaluate_run(judged, run, measures: Sequence[ListMeasure], *, reading: str, collection: Collection | None,
                 all_topics: bool, as_documents: bool, levels: int,
                 progress: Callable[[int, int], None] | None = None,
                 check: bool = True, condensed: bool = False) -> tuple[Evaluation, list[Diagnostic]]:
    """One engine run against the engine's qrels (:func:`evaluations`' step; ``readsim-eval``'s
    worker processes take it too): its :class:`~readsim.core.listmeasures.Evaluation` and the
    doc_length checks' warnings. Issues no warning itself. With a ``collection`` and ``check``,
    every judged ranked article is read to check the qrels' doc_length against it (reference
    section 1.4); ``check=False`` (a caller that drops the warnings: the window's scores) reads
    only the articles whose length can clip a retrieved passage, with the same numbers, and
    returns no warning. ``condensed``: each ranking's unjudged articles removed before the list
    measures (``readsim.core.listmeasures`` policy 11)."""
    join = Join() if check else None
    result = _evaluate_run(judged, run, measures, reading, collection, as_documents, all_topics, levels, join,
                           progress, flag("condensed", condensed))
    return result, join.diagnostics if join is not None else []


def evaluate_again(judged, before: Evaluation, part, *, reading: str, collection: Collection | None,
                   levels: int, condensed: bool = False) -> Evaluation:
    """``before`` (a run's :func:`evaluate_run`, without ``all_topics`` or ``as_documents``) with
    the topics of ``part`` evaluated again: ``part`` is the run cut to the topics changed since
    (an edited run's), every other topic keeps its value. The means are then taken over
    ``before.topics`` as :func:`evaluate_run` takes them (``fsum / n``, a count's sum:
    :func:`readsim.core.listmeasures.topic_means`); a topic of ``part`` the qrels do not
    judge is ignored. Without the doc_length check (``evaluate_run(check=False)``). Plain data
    only (a worker thread); issues no warning."""
    values = {name: dict(column) for name, column in before.values.items()}
    if part.topics:
        done, _ = evaluate_run(judged, part, before.measures, reading=reading, collection=collection,
                               all_topics=False, as_documents=False, levels=levels, check=False,
                               condensed=condensed)
        for name, column in values.items():
            column.update({t: v for t, v in done.values[name].items() if t in column})
    return Evaluation(before.run_id, before.measures, before.topics, values,
                      topic_means(before.measures, before.topics, values), before.diagnostics)


def topic_ranking(topic: str, judged: Mapping[str, Judgement], articles: Sequence[str],
                  docs: Sequence[DocumentEvaluation | None], doc_measures: Sequence[DocMeasure],
                  levels: int = 4) -> Ranking:
    """One topic's ranked articles joined with its qrels ``judged`` (article -> judgement):
    relevance (``rel_size > 0``), relevant size (the qrels' unit) and ``doc_measures``' scores of
    ``docs[k]``, article k's evaluation in rank order (read only for a relevant article: None
    allowed otherwise). Unjudged and non-relevant articles score each measure's null value
    (policy 7 of :mod:`readsim.core.listmeasures`); NR = ``levels + 1``. Shapes ``(n,)``."""
    n = len(articles)
    relevant = np.zeros(n, dtype=bool)
    is_judged = np.array([name in judged for name in articles], dtype=bool)
    rsize = np.zeros(n, dtype=np.int64)
    wanted = list(dict.fromkeys(doc_measures))
    table = {m: np.full(n, m.null_value(levels)) for m in wanted}
    for k, name in enumerate(articles):
        j = judged.get(name)
        if j is None or not j.relevant:
            continue
        relevant[k] = True
        rsize[k] = j.rel_size
        for m in wanted:
            table[m][k] = m.value(docs[k], levels)
    rel_sizes = [j.rel_size for j in judged.values() if j.relevant]
    out = Ranking(topic, list(articles), relevant, rsize, table, len(rel_sizes), int(sum(rel_sizes)),
                  judged=is_judged)
    if all(d is not None for d in docs):  # every article read: U@L and TBG@H's reader (reference 5.16)
        out.reads = {m.k: [read_part(d.pieces, m.k) for d in docs] for m in wanted if m.kind in READER_KINDS}
    return out


def topic_values(ranking: Ranking, measures: Sequence[ListMeasure], levels: int = 4) -> dict[str, float]:
    """List ``measures`` of one topic's ``ranking``: canonical name -> value, computed as
    :func:`evaluate` computes each topic (``readsim.core.listmeasures.ranking_values``); empty
    when the topic has no relevant article (every list measure divides by Nrel)."""
    if not ranking.nrel:
        return {}
    return {name: column[0] for name, column in ranking_values([ranking], measures, levels).items()}


def topic_curves(ranking: Ranking, doc: DocMeasure, effort: DocMeasure, levels: int = 4
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(gP, gR, NCE)`` of ``ranking`` at ranks 1..n, float ``(n,)`` each: gP[r] over ``doc``'s
    scores, gR[r] (zeros without a relevant article), NCE[r] over ``effort``'s (an LE or ES
    measure in the ranking; NR = ``levels + 1``). Reference section 5; Arvola et al. 2010,
    section 5.2, for NCE."""
    n = len(ranking.articles)
    gr = generalised_recall(ranking.relevant, ranking.nrel) if ranking.nrel else np.zeros(n)
    nce = normalized_cumulated_effort(ranking.scores[effort], ranking.nrel, n, levels + 1) if n else np.zeros(0)
    return generalised_precision(ranking.scores[doc]), gr, nce


def evaluate(qrels, runs, measures=None, *, per: str = "all", reading: str = "natural", collection=None,
             unit: str | None = None, all_topics: bool = False, condensed: bool = False, task: str | None = None):
    """Evaluate runs; a long ``pandas.DataFrame``, one row per value.

    - ``qrels``: a path, a :class:`readsim.Qrels` (read once: evaluating another run against
      it reads and prepares nothing again) or a DataFrame (:meth:`readsim.Qrels.to_frame`'s
      columns); ``runs``: a path, a :class:`readsim.Run`, a DataFrame
      (:meth:`readsim.Run.to_frame`'s columns, ``topic`` and ``article`` required), or a list of
      them. Runs sharing a run id are labelled by their file names (a warning).
    - ``measures``: names (reference section 6) or parsed measures; default ``AgP/F(0.25)``
      (MAgP), ``F(0.25)`` with ``per="article"``. List measures for ``per="all"`` and
      ``"topic"``, document measures for ``per="article"``.
    - ``per``: ``"all"``: each run's mean over its topics (topic ``"all"``; counts such as
      ``num_rel`` are summed), as ``readsim-eval`` prints; ``"topic"``: one row per topic
      (``-q`` without the mean rows); ``"article"``: every ranked article's document scores, in
      run order (``--per-article``), with an ``article`` column.
    - ``reading``: ``natural``, ``document``, ``best`` or ``entry`` (reference section 3);
      ``collection``: a folder of articles (or a :class:`readsim.Collection`) to resolve XPaths,
      clip passages and read lengths, offsets in ``unit`` (``bytes`` or ``chars``, the qrels'
      unit; None, the default: the collection's, ``chars`` for documents that are not article
      XML, else ``bytes``: reference 2.13); ``all_topics``: average over every judged topic, a topic missing from the run
      scoring an empty ranking (``-c``); ``condensed``: every ranking's unjudged articles removed
      before the list measures are computed (``--condensed``, Sakai 2007's condensed lists;
      reference section 5.13; document scores per article are unchanged); ``task``: INEX 2010's
      ``"restricted-ric"``, ``"restricted-focused"``, ``"efficiency-15"``, ``"efficiency-150"`` or
      ``"efficiency-1500"`` (reference section 5.14): each run given as a path or DataFrame is cut
      to the task's limit as it is read (a warning names the first line over it), and
      ``measures`` defaults to the task's (``readsim-eval --task``); a run already read is a
      ``ValueError`` (read it with ``readsim.read_run(path, task=...)``). Not with
      ``per="article"``.

    Columns ``run`` (label), ``measure`` (canonical name), ``topic`` (str), [``article``],
    ``value`` (float; sizes in the qrels' unit, efforts in ranks). Raises
    :class:`readsim.InputError` (``.path``, ``.line``) on bad input, ``ValueError`` on a bad
    measure name or option; warnings as :class:`readsim.InputWarning`.
    """
    import pandas as pd

    _check(per, reading, unit)
    all_topics = flag("all_topics", all_topics)
    condensed = flag("condensed", condensed)
    if task is not None:
        if per == "article":
            raise ValueError("task is for list measures: per='all' or per='topic'")
        if measures is None:
            measures = list(task_limit(task).measures)
    parsed = _measures(measures, per)
    cols: dict[str, list] = {"run": [], "measure": [], "topic": [], "value": []}
    if per == "article":
        cols = {"run": [], "measure": [], "topic": [], "article": [], "value": []}
        _per_article(qrels, runs, parsed, reading, _collection(collection, unit), cols)
    else:
        for label, result in evaluations(qrels, runs, parsed, reading=reading, collection=collection, unit=unit,
                                         all_topics=all_topics, condensed=condensed, task=task):
            names = [m.name for m in result.measures]
            if per == "topic":
                for t in result.topics:
                    for name in names:
                        if t in result.values[name]:
                            cols["run"].append(label)
                            cols["measure"].append(name)
                            cols["topic"].append(t)
                            cols["value"].append(result.values[name][t])
            else:
                for name in names:
                    cols["run"].append(label)
                    cols["measure"].append(name)
                    cols["topic"].append("all")
                    cols["value"].append(result.means[name])
    return pd.DataFrame({k: (pd.array(v, dtype="float64") if k == "value" else pd.array(v, dtype="string"))
                         for k, v in cols.items()}).astype({"value": "float64"})


def article_scores(qrels, runs, measures: Sequence[DocMeasure], *, reading: str = "natural", collection=None,
                   unit: str | None = None, as_documents: bool = False, levels: int = 4,
                   progress: Callable[[str], Callable[[int, int], None] | None] | None = None
                   ) -> Iterator[tuple[str, str, str, list[float]]]:
    """``(label, topic, article, values)`` for every ranked article of every run, in run order,
    ``values[i]`` being ``measures[i]``'s document score, without pandas: ``evaluate(...,
    per="article")``'s work and ``readsim-eval --per-article``'s. Warnings as
    :func:`evaluations`: the coverage check's first, then each run's after its last article."""
    judged = as_qrels(qrels)
    engine_runs, labels = labelled_runs(runs)
    found = _collection(collection, unit)
    judged = _lengths(judged, found)
    warn(check_coverage(judged, engine_runs, found)
         + [d for run in engine_runs for d in no_judged_topic(judged, run, "every article counts as non-relevant")])
    for label, run in zip(labels, engine_runs):
        join = Join()
        for topic, article, values in per_article(judged, run, measures, reading, found, as_documents, join,
                                                  progress(label) if progress is not None else None, levels):
            yield label, topic, article, values
        warn(join.diagnostics)


def _per_article(qrels, runs, measures: list[DocMeasure], reading: str, collection: Collection | None,
                 cols: dict[str, list]) -> None:
    """``readsim-eval --per-article``'s rows into ``cols``, measure by measure within an article."""
    names = [m.name for m in measures]
    k = len(names)
    for label, topic, article, values in article_scores(qrels, runs, measures, reading=reading,
                                                        collection=collection):
        cols["run"] += [label] * k
        cols["measure"] += names
        cols["topic"] += [topic] * k
        cols["article"] += [article] * k
        cols["value"] += values
