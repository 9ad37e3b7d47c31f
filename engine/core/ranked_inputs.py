"""A topic's ranked articles as the evaluation's columns: what the window and ``readsim.article`` read.

The articles of a run are evaluated one way (:class:`~readsim.core.doc_evaluation.ArticleColumns` ->
:func:`~readsim.core.doc_evaluation.evaluate_documents`), whether a whole run is scored
(:func:`readsim.core.listmeasures.rank_topics`) or the window shows one topic or one article:

- :func:`topic_inputs`: every ranked article of a topic, in rank order, judged or not: from the
  run's and the qrels' columns when the files speak for the topic
  (:func:`readsim.core.run_columns.inputs_of`), else result by result (:func:`readsim.core.result_lines.inputs`:
  an edited topic, an XML run, element XPaths and XPointers resolved);
- :func:`article_inputs`: one result, the same way (a result the run does not hold, such as an
  edited or a whole-article one, result by result).

Each article carries the entry point of the ``entry`` reading (reference section 3). Offsets
in the unit of the qrels and the run (UTF-8 bytes for INEX 2009/2010, or characters).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from readsim.core.run_columns import inputs_of, joined_topic
from readsim.core.doc_evaluation import ArticleColumns
from .formats import Qrels, Run, RunArticle
from readsim.core.result_lines import Join, columns_of, inputs

if TYPE_CHECKING:
    from .collection import Collection


def topic_inputs(qrels: Qrels, run: Run, topic: str, collection: Collection | None = None,
                 join: Join | None = None, facts: dict | None = None, as_document: bool = False) -> ArticleColumns:
    """Every ranked article of ``topic`` of ``run``, in rank order, as the evaluation's columns.

    doc_length from the qrels, else the collection's article, else the last retrieved offset;
    with ``collection``, retrieved passages clipped to the article and element XPaths and
    XPointers resolved; every judged article's doc_length checked against the collection's,
    a difference a :class:`~readsim.core.errors.Diagnostic` on ``join``. ``facts``: the collection's
    articles already read (name -> ``(length, doc_length, path)``, None: absent or not to be
    read), filled with those read here. Raises :class:`~readsim.core.errors.InputError` naming the
    run's line for an XPath it cannot resolve, or for an unreadable article not in ``facts``."""
    jt = joined_topic(qrels, run, topic)
    if jt is not None:
        return inputs_of(jt, np.arange(len(jt.groups)), qrels, collection, join, facts, as_document)
    return columns_of([inputs(qrels, run, topic, e, collection, as_document, join, facts)
                       for e in run.topics.get(topic, [])])


def article_inputs(qrels: Qrels, run: Run, topic: str, entry: RunArticle, collection: Collection | None = None,
                   join: Join | None = None, facts: dict | None = None) -> ArticleColumns:
    """Ranked article ``entry`` of ``topic`` as the evaluation's columns (one article), read as
    :func:`topic_inputs` reads it: from the columns when ``entry`` is the run's own result of a
    topic they speak for, else result by result. Raises as :func:`topic_inputs`."""
    entries = run.topics.get(topic, [])
    k = entry.rank - 1
    if 0 <= k < len(entries) and entries[k] is entry:  # the run's own result (rank = place in the topic)
        jt = joined_topic(qrels, run, topic)
        if jt is not None:
            return inputs_of(jt, np.array([k]), qrels, collection, join, facts)
    return columns_of([inputs(qrels, run, topic, entry, collection, False, join, facts)])
