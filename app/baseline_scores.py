"""What the unsaved edits are worth: every score before the first edit, beside its value now.

The passage editor (:mod:`readsim.app.editing`) keeps each edited run's *baseline*: the run as
opened or as last saved (``Session.baselines``, ``Session.baseline()``); it is dropped when the
edits are saved or all undone. The numbers here are the baseline's, computed with the same
engine functions as the values shown now, so that "before" is exactly what the unedited run
scores:

- an article's document scores: :func:`before_evaluation` (the API's core,
  :func:`readsim.operations.article_reading.ranked_article`, on the baseline's entry for the article, as the ranked
  list scores it, in the current reading mode);
- a topic's list score and the run's mean over topics: :func:`worth_job` (the Python API's
  core, :func:`readsim.operations.evaluate.evaluate_run`, of the baseline and of the edited run: the numbers
  of ``readsim.evaluate``; the measure chosen by the user: by default INEX 2009-2010's official
  ``AgP/F(0.25)``, docs/reference.md section 5).

No widgets. Threading contract: :func:`worth_job` runs in a worker thread (plain engine data
only); everything else in the GUI thread.
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass

import numpy as np

from readsim.operations.evaluate import evaluate_again, evaluate_run
from readsim.operations.article_reading import ranked_article
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import DocumentEvaluation
from readsim.core.formats import Qrels, Run
from readsim.core.listmeasures import Evaluation
from readsim.core.measure import DEFAULT_LIST_MEASURE as ENGINE_DEFAULT_LIST_MEASURE
from readsim.core.measure import ListMeasure
from readsim.core.reading import Mode

from .rows import held_entry
from . import settings_keys as keys
from .topic_scores import topic_scores

DEFAULT_LIST_MEASURE = ENGINE_DEFAULT_LIST_MEASURE
"""The list measure of the before/after line by default: INEX 2009-2010's official Relevant in
Context measure (its mean over topics is MAgP), the engine's default."""
LIST_MEASURE_KEY = keys.WORTH_LIST_MEASURE.name
"""QSettings key of the list measure chosen for the before/after line."""
NOT_RANKED = "not ranked"


@dataclass(frozen=True)
class Before:
    """An article in the baseline: its evaluation, or None when the baseline did not rank it."""

    evaluation: DocumentEvaluation | None


_memo: dict[tuple, tuple] = {}  # (baseline, topic, article, qrels, collection) -> (entry, natural evaluation)


def before_evaluation(session, name: str) -> Before | None:
    """Article ``name`` of the session's topic as the baseline of the shown run ranked it (in
    the current reading mode, from the entry point the user set, if any), or None when the
    shown run has no unsaved edits."""
    base = session.baseline()
    topic = session.topic
    if base is None or topic is None:
        return None
    entry = base.article(topic, name)
    if entry is None:
        return Before(None)
    key = (id(base), topic, name, id(session.qrels), id(session.collection))
    hit = _memo.get(key)
    if hit is not None and hit[0] is entry:
        natural = hit[1]
    else:
        coll = session.collection if session.collection is not None and name in session.collection else None
        natural = ranked_article(session.qrels or Qrels(""), base, topic, entry, coll)
        if len(_memo) > 256:
            _memo.clear()
        _memo[key] = (entry, natural)
    point = session.entries.get((topic, name))
    if point is not None:
        natural = dataclasses.replace(natural, entry=held_entry(point, natural.n))
    return Before(natural.in_mode(session.settings.mode))


def same_retrieval(a, b) -> bool:
    """Whether two :class:`RunArticle` of one article retrieve the same (their rank aside)."""
    if a is b:
        return True
    pa, pb = a.passages, b.passages
    return ((pa is None) == (pb is None) and (pa is None or np.array_equal(pa, pb))
            and list(a.xpaths) == list(b.xpaths) and list(a.pointers) == list(b.pointers))


def rows_before(session) -> list | None:
    """The shown topic's ranked rows as the shown run's baseline ranked them, in its order:
    a row whose article retrieves the same keeps its evaluation, an edited one gets
    :func:`before_evaluation`'s. None without unsaved edits (or while the rows are evaluated)."""
    base, topic = session.baseline(), session.topic
    if base is None or topic is None or session.run is None or not session.rows_ready():
        return None
    now = {e.article: e for e in session.run.topics.get(topic, [])}
    rows = {r.article: r for r in session.rows}
    out = []
    for k, e in enumerate(base.topics.get(topic, []), 1):
        row, cur = rows.get(e.article), now.get(e.article)
        if row is None or cur is None or not same_retrieval(cur, e):
            before = before_evaluation(session, e.article)
            if row is None or before is None or before.evaluation is None:
                continue
            row = dataclasses.replace(row, evaluation=before.evaluation)
        out.append(dataclasses.replace(row, rank=k))
    return out


def topic_before(session, scores) -> str:
    """A line saying what the shown topic's headline list score (``scores``: the topic view's
    :class:`~readsim.app.topic_scores.TopicScores`; its first measure) was before the unsaved
    edits: ``before the unsaved edits: AgP/F(0.25) 0.2054 (now +0.0877)``; "" without edits."""
    rows = rows_before(session)
    if rows is None or scores is None or not scores.values:
        return ""
    before = topic_scores(rows, session.qrels, scores.topic, scores.doc, session.settings)
    name = scores.measures[0].name
    if name not in before.values:
        return ""
    was, now = before.values[name], scores.values[name]
    return f"before the unsaved edits: {name} {was:.4f} (now {signed(now - was)})"


def signed(value: float, lower_is_better: bool = False) -> str:
    """A difference as ``+0.0123`` (4 decimals; whole numbers for an effort in screens)."""
    return f"{value:+.0f}" if lower_is_better else f"{value:+.4f}"


@dataclass(frozen=True)
class Worth:
    """A list measure before and after the edits: the topic's value and the mean over the
    run's judged topics (``n`` topics), each before and now (None: the topic is not judged)."""

    measure: str
    topic: str
    topic_before: float | None
    topic_now: float | None
    mean_before: float
    mean_now: float
    n: int


def list_evaluation(qrels: Qrels, run: Run, measure: ListMeasure, mode: Mode, collection: Collection | None,
                    levels: int) -> Evaluation:
    """``run``'s evaluation under one measure (worker thread): the Python API's core,
    :func:`readsim.operations.evaluate.evaluate_run`, as ``readsim.evaluate`` evaluates a run."""
    return evaluate_run(qrels, run, [measure], reading=mode, collection=collection, all_topics=False,
                        as_documents=False, levels=levels, check=False)[0]


def changed_topics(run: Run, base: Run) -> list[str]:
    """The topics whose ranked list in ``run`` is not the one of ``base`` (edits replace a
    topic's :class:`RunArticle` objects, so the others are the same objects)."""
    out = []
    for t in dict.fromkeys([*run.topics, *base.topics]):
        a, b = run.topics.get(t, []), base.topics.get(t, [])
        if len(a) != len(b) or any(map(operator.is_not, a, b)):
            out.append(t)
    return out


def changed_part(run: Run, base: Run) -> Run:
    """``run`` holding only its :func:`changed_topics`, each list copied (GUI thread: a worker
    gets this, never the lists the editor changes in place)."""
    return dataclasses.replace(run, topics={t: list(run.topics[t]) for t in changed_topics(run, base)
                                            if t in run.topics})


def worth_job(qrels: Qrels, before: Evaluation, part: Run, measure: ListMeasure, mode: Mode,
              collection: Collection | None, levels: int, topic: str | None) -> Worth:
    """:class:`Worth` of the edited run against its baseline's evaluation ``before`` (worker
    thread). ``part`` is the edited run's :func:`changed_part`: only those topics are evaluated
    again (:func:`readsim.operations.evaluate.evaluate_again`, which takes the mean as a fresh
    evaluation does: ``math.fsum`` over the same topics, or the sum for a count)."""
    name = measure.name
    now = evaluate_again(qrels, before, part, reading=mode, collection=collection, levels=levels)
    return Worth(name, topic or "", before.values[name].get(topic), now.values[name].get(topic),
                 before.means[name], now.means[name], len(before.topics))
