"""The window's articles come from the same columns as ``readsim-eval`` (readsim.core.ranked_inputs): every
ranked article of a topic, judged or not, read from the run's and the qrels' columns, equals the
same article read on its own result by result (tests/helpers/one_article.py), on the real runs with
the real articles, without qrels, with a topic the qrels do not judge and with an edited topic;
and a small case worked by hand."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.one_article import document

from readsim.core import intervals as iv
from readsim.core.collection import Collection
from readsim.core.formats import Qrels, read_qrels, read_run
from readsim.core.ranked_inputs import article_inputs, topic_inputs
from readsim.core.reading import Mode
from readsim.core.result_lines import Join

RUNS = ["bert-passages.run", "bert-passages-map19.run", "bert-passages-map199.run", "indri-documents.run",
        "indri-passages.run"]


def same(a, b, where):
    assert a.n == b.n and a.doc_length == b.doc_length and a.entry == b.entry and a.mode is b.mode, where
    assert np.array_equal(a.relevant, b.relevant), where
    assert (a.retrieved is None) == (b.retrieved is None), where
    if a.retrieved is not None:
        assert np.array_equal(a.retrieved, b.retrieved), where
    assert a.pieces == b.pieces, where


def topics_with_the_collection(run, coll, k=4):
    """The run's first ``k`` topics that rank an article the collection has."""
    return [t for t, es in run.topics.items() if any(e.article in coll for e in es)][:k]


@pytest.mark.parametrize("name", RUNS)
def test_a_topics_columns_are_each_article_on_its_own(inex, name):
    path = inex / "runs" / name
    if not path.exists():
        pytest.skip(f"{path} absent")
    qrels = read_qrels(inex / "qrels/inex2009-2010.qrels")
    run = read_run(path)
    coll = Collection(inex / "articles")
    seen_unjudged = 0
    for topic in topics_with_the_collection(run, coll):
        for collection in (None, coll):
            j1, j2 = Join(), Join()
            got = topic_inputs(qrels, run, topic, collection, j1).evaluations(Mode.NATURAL)
            want = [document(qrels, run, topic, e, Mode.NATURAL, collection, join=j2) for e in run.topics[topic]]
            assert len(got) == len(want) == len(run.topics[topic])
            for e, g, w in zip(run.topics[topic], got, want):
                same(g, w, (topic, e.article, collection is not None))
                seen_unjudged += qrels.judgement(topic, e.article) is None
            assert [str(d) for d in j1.diagnostics] == [str(d) for d in j2.diagnostics]
        # one article, as the window asks for it, and in another reading
        e = run.topics[topic][len(run.topics[topic]) // 2]
        one = article_inputs(qrels, run, topic, e, coll).evaluations(Mode.WORST)[0]
        same(one, document(qrels, run, topic, e, Mode.WORST, coll), (topic, e.article))
    assert seen_unjudged > 0


def test_without_qrels_an_unjudged_topic_and_an_edited_one(inex):
    qrels = read_qrels(inex / "qrels/inex2009-2010.qrels")
    run = read_run(inex / "runs/bert-passages.run")
    coll = Collection(inex / "articles")
    topic = topics_with_the_collection(run, coll, 1)[0]
    for q in (Qrels(""), Qrels(qrels.path, {t: js for t, js in qrels.topics.items() if t != topic})):
        got = topic_inputs(q, run, topic, coll).evaluations(Mode.ENTRY)
        for e, g in zip(run.topics[topic], got):
            same(g, document(q, run, topic, e, Mode.ENTRY, coll), (topic, e.article))
            assert g.nrc == 0
    run.topics[topic] = list(run.topics[topic])[::-1]  # edited: read result by result
    got = topic_inputs(qrels, run, topic, coll).evaluations(Mode.NATURAL)
    for e, g in zip(run.topics[topic], got):
        same(g, document(qrels, run, topic, e, Mode.NATURAL, coll), (topic, e.article))


def test_by_hand(tmp_path):
    """a: judged, relevant [10, 20) of doc_length 50, retrieved [15, 70) (past doc_length: read
    to 70); b: unjudged, retrieved [5, 8) and [30, 40): its extent is 40, nothing relevant; c:
    unjudged, whole article, unknown length: extent 0. Entry points: the smallest offset."""
    (tmp_path / "q").write_text("1 Q0 a 10 50 10 10:10\n")
    (tmp_path / "r").write_text("1 Q0 a 1 1 r 15 55\n1 Q0 b 2 1 r 30 10\n1 Q0 b 2 1 r 5 3\n1 Q0 c 3 1 r\n")
    qrels, run = read_qrels(tmp_path / "q"), read_run(tmp_path / "r")
    a, b, c = topic_inputs(qrels, run, "1").evaluations(Mode.NATURAL)
    assert (a.n, a.doc_length, a.entry, a.relevant.tolist(), a.retrieved.tolist()) == (70, 50, 15, [[10, 20]], [[15, 70]])
    # the chain [15, 70): 5 relevant, then 50 not; then [0, 15): 10 not, 5 relevant
    assert [(p.start, p.end, p.relevant) for p in a.pieces] == [(15, 20, True), (20, 70, False), (0, 10, False),
                                                                 (10, 15, True)]
    assert (b.n, b.doc_length, b.entry, b.nrc, b.retrieved.tolist()) == (40, 40, 5, 0, [[5, 8], [30, 40]])
    assert (c.n, c.retrieved, c.pieces) == (0, None, ())
    assert iv.total(a.relevant) == 10
