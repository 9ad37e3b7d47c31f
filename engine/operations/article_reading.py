"""One ranked article's reading order and document scores: the API's core for articles.

:func:`readsim.article` (:class:`~readsim.operations.article.ArticleEvaluation`) and the window (its
ranked list, open article, score panel, passage edits, A/B dock, strategies, playback and
Explain dock) read a ranked article through these functions, so the window and
``readsim.article`` cannot diverge (the import-linter contract "window-on-api" forbids the window
the engine's scoring modules). ``readsim.evaluate(...,
per="article")`` and ``readsim-eval --per-article`` give the same numbers column-wise
(:func:`readsim.core.listmeasures.per_article`).

- :func:`ranked_article`, :func:`ranked_articles`: a ranked article of a run, or every one of a
  topic, natural reading, carrying the entry point of the ``entry`` reading (reference sections
  3, 4), read through the columns ``readsim-eval`` reads;
- an article from its own passages (one the run does not rank, a strategy's or an edited run's
  passages, another entry point) is :func:`readsim.core.doc_evaluation.evaluate_document`; an
  evaluation read in another mode is its ``in_mode`` (a list: ``in_mode_many``, one batch);
- :func:`panel_measures`, :func:`panel_scores`: the score panel's measures for the reader's
  settings and their values (``ArticleEvaluation.scores``); :func:`values_of`: one measure of
  many articles (the ranked list's and the strategies' columns);
- :func:`relevant_read`: relevant characters among the first ones read (the playback).

Pandas-free, no Qt; imports only the engine's document model (light: the window imports it at
start-up). Offsets and sizes are in the unit of the qrels and the run (UTF-8 bytes for INEX
2009/2010, or characters).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING


from readsim.core import docmeasures as dm
from readsim.core.doc_evaluation import DocumentEvaluation, Settings
from readsim.core.measure import DocMeasure, reader_measures
from readsim.core.ranked_inputs import article_inputs, topic_inputs
from readsim.core.reading import Mode
from readsim.core.result_lines import Join, entry_of

if TYPE_CHECKING:  # the XML model (lxml) is imported only where an article is read
    from readsim.core.collection import Collection
    from readsim.core.formats import Qrels, Run, RunArticle


def with_entry(ev: DocumentEvaluation, entry: RunArticle) -> DocumentEvaluation:
    """``ev`` carrying ``entry``'s entry point for the ``entry`` reading
    (:meth:`DocumentEvaluation.in_mode` reads it): a Best in Context line's offset, else the
    first resolved retrieved passage's start, else 0 (reference section 3), as ``readsim-eval``
    (:func:`readsim.core.result_lines.entry_of`)."""
    return dataclasses.replace(ev, entry=entry_of(entry, ev.retrieved))


def ranked_article(qrels: Qrels, run: Run, topic: str, entry: RunArticle, collection: Collection | None = None,
                   join: Join | None = None, facts: dict | None = None) -> DocumentEvaluation:
    """Ranked article ``entry`` of ``run`` for ``topic``, read in the natural mode, carrying its
    entry point; ``.in_mode(mode)`` reads it in another mode. Read as ``readsim-eval`` reads it,
    through the same columns (:func:`readsim.core.ranked_inputs.article_inputs`).

    doc_length from the qrels (else the collection's article, else the last retrieved offset);
    with ``collection``, retrieved passages are clipped to the article and element XPaths and
    XPointers resolved; a doc_length the collection contradicts is a
    :class:`~readsim.core.errors.Diagnostic` in ``join``. ``facts``: the collection's articles
    already read (:func:`ranked_articles`). Raises :class:`~readsim.core.errors.InputError`
    naming the run's line for an XPath it cannot resolve."""
    return article_inputs(qrels, run, topic, entry, collection, join, facts).evaluations(Mode.NATURAL)[0]


def ranked_articles(qrels: Qrels, run: Run, topic: str, collection: Collection | None = None,
                    join: Join | None = None, facts: dict | None = None) -> list[DocumentEvaluation]:
    """Every ranked article of ``topic`` of ``run`` in rank order, as :func:`ranked_article`
    reads each, in one batch (:func:`readsim.core.ranked_inputs.topic_inputs`: the run's and the
    qrels' columns when the files speak for the topic). ``facts``: the collection's articles
    already read (name -> ``(length, doc_length, path)``, None: absent or unreadable, then read
    as absent), filled with those read here. Raises as :func:`ranked_article`."""
    return topic_inputs(qrels, run, topic, collection, join, facts).evaluations(Mode.NATURAL)





def panel_measures(s: Settings) -> list[DocMeasure]:
    """The score panel's measures for settings ``s``, in display order: every document measure
    the reader's settings give (:func:`readsim.core.measure.reader_measures`: aveChP, ChP@screen,
    ChR@screen, T2IP/T2IR/T2IF at the tolerance, T2IF with ``s.alpha``, LE and ES at the screen,
    P_set, R_set, F(beta); reference section 4)."""
    return reader_measures(s)


def panel_scores(doc: DocumentEvaluation, s: Settings) -> dict[str, float]:
    """The score panel of one article: canonical measure name -> value for settings ``s``
    (LE and ES with ``s.levels``, in ranks; the rest in [0, 1])."""
    return {m.name: m.value(doc, s.levels) for m in panel_measures(s)}


def values_of(measure: DocMeasure, evaluations: Sequence[DocumentEvaluation | None], levels: int = 4
              ) -> list[float | None]:
    """Document ``measure`` of each of ``evaluations`` (None for a None evaluation), as
    :func:`panel_scores` computes each value (:meth:`readsim.core.measure.DocMeasure.value`;
    LE and ES in levels with NR = ``levels + 1``, the rest in [0, 1]; reference section 4)."""
    return [measure.value(ev, levels) if ev is not None else None for ev in evaluations]


def relevant_read(ev: DocumentEvaluation, read: int) -> int:
    """Relevant characters (the unit) among the first ``read`` of ``ev``'s reading order."""
    return dm.relevant_read(ev.pieces, read)
