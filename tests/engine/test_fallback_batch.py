"""Topics the run's columns do not speak for (edited in memory, element XPaths) are scored from
each article's inputs in one batch (readsim.core.listmeasures._score_entries): on the real run and
qrels, the same numbers as each article evaluated on its own (tests/helpers/one_article.py, with
readsim.core.listmeasures.article_score), in every reading mode."""

from __future__ import annotations

import numpy as np
import pytest

from helpers.one_article import document
from readsim.core.formats import read_qrels, read_run
from readsim.core.listmeasures import article_score, per_article, rank_topics
from readsim.core.measure import DocMeasure
from readsim.core.reading import Mode

MEASURES = [DocMeasure("aveChP"), DocMeasure("T2IF", 300), DocMeasure("F", 0, 0.25),
            DocMeasure("LE", 300, lower_is_better=True), DocMeasure("ES", 300, lower_is_better=True),
            DocMeasure("BEP", 500), DocMeasure("ChR", 300)]


@pytest.mark.parametrize("mode", list(Mode))
def test_edited_topics_equal_one_article_at_a_time(inex, mode):
    qrels = read_qrels(inex / "qrels/inex2009-2010.qrels")
    run = read_run(inex / "runs/bert-passages.run")
    edited = list(run.topics)[:3]
    for t in edited:
        run.topics[t] = list(run.topics[t])  # edited in memory: the columns no longer speak for it
        assert run.columns(t) is None
    want = {}
    for t in edited:
        for e in run.topics[t]:
            doc = document(qrels, run, t, e, mode)
            j = qrels.judgement(t, e.article)
            want[t, e.article] = [article_score(m, doc, j, 4, e.entry_point) for m in MEASURES]
    got = {(t, a): v for t, a, v in per_article(qrels, run, MEASURES, mode) if t in edited}
    assert got.keys() == want.keys() and len(got) > 200  # three topics of 100 ranked articles
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=0, atol=1e-12, err_msg=str(key))
    rankings = rank_topics(qrels, run, MEASURES, mode, topics=edited)
    for t in edited:
        r = rankings[t]
        assert np.count_nonzero(r.relevant) > 0
        for i, m in enumerate(MEASURES):
            expect = [want[t, a][i] if rel else m.null_value(4) for a, rel in zip(r.articles, r.relevant)]
            np.testing.assert_allclose(r.scores[m], expect, rtol=0, atol=1e-12, err_msg=f"{t} {m.name}")
