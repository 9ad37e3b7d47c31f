"""Column-wise list measures with a collection but no doc_length check (no ``join``: the topic
chooser's scores, the loss panel) read only the articles whose length can clip a retrieved
passage: those with a passage ending past the qrels' doc_length. The numbers are those of the
path that reads every judged article (with ``join``)."""

from __future__ import annotations

import numpy as np
import pytest

from readsim.core import listmeasures as lm
from readsim.core.collection import Collection
from readsim.core.run_columns import past_length
from readsim.core.formats import read_qrels, read_run
from readsim.core.measure import DocMeasure, parse_list_measure
from readsim.core.result_lines import Join


def test_past_length_marks_segments_with_a_row_ending_past_their_doc_length():
    ptr = np.array([0, 2, 2, 3, 5])  # segment 1 is empty
    rows = np.array([[0, 10], [5, 40], [0, 41], [3, 3], [10, 20]])
    assert past_length(ptr, rows, np.array([40, 10, 40, 20])).tolist() == [False, False, True, False]


def _files(tmp_path):
    # a: text 60 characters, the qrels say 40; retrieved 20..70 ends past 40: clipped to max(60, 40)
    # c: text 40, the qrels say 50; retrieved 10..30 ends within 50: its length cannot matter
    (tmp_path / "a.xml").write_text(f"<article><body>{'x' * 60}</body></article>")
    (tmp_path / "c.xml").write_text(f"<article><body>{'y' * 40}</body></article>")
    (tmp_path / "q.qrels").write_text("1 Q0 a 30 40 0 0:30\n1 Q0 c 10 50 0 0:10\n")
    (tmp_path / "r.run").write_text("1 Q0 a 1 1 r 20 50\n1 Q0 c 2 1 r 10 20\n")
    return read_qrels(tmp_path / "q.qrels"), read_run(tmp_path / "r.run"), Collection(tmp_path)


def test_only_an_article_whose_length_clips_is_read(tmp_path, monkeypatch):
    qrels, run, coll = _files(tmp_path)
    read: list[str] = []
    article = Collection.article
    monkeypatch.setattr(Collection, "article", lambda self, name: (read.append(name), article(self, name))[1])
    measures = [DocMeasure("P_set"), DocMeasure("R_set")]
    ranking = lm.rank_topics(qrels, run, measures, collection=coll)["1"]
    assert read == ["a"]
    # a: T = [20, 60) (70 clipped to the text's 60), R = [0, 30): P = 10/40, R = 10/30
    # c: T = [10, 30), R = [0, 10): P = 0, R = 0
    assert ranking.scores[measures[0]].tolist() == [10 / 40, 0.0]
    assert ranking.scores[measures[1]].tolist() == [10 / 30, 0.0]
    read.clear()
    join = Join()
    checked = lm.rank_topics(qrels, run, measures, collection=coll, join=join)["1"]
    # the doc_length check reads every judged article: c now, a's length and doc_length kept by
    # the collection from the first pass (Collection.facts, read once for the collection's life)
    assert read == ["c"]
    assert [str(d).split("warning: ")[1] for d in join.diagnostics] == [
        f"article a: doc_length 40 in the qrels, 60 computed from {tmp_path / 'a.xml'}",
        f"article c: doc_length 50 in the qrels, 40 computed from {tmp_path / 'c.xml'}"]
    for m in measures:
        assert checked.scores[m].tolist() == ranking.scores[m].tolist()


@pytest.mark.parametrize("mode", ["natural", "worst", "entry"])
def test_real_run_with_the_collection_same_with_and_without_the_check(inex, mode):
    qrels = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    run = read_run(inex / "runs" / "bert-passages.run")
    coll = Collection(inex / "articles")
    measures = [parse_list_measure(n) for n in ("AgP/F(0.25)", "AgP/T2IF(300)", "ANCE@100/LE(300)", "MAP")]
    plain = lm.evaluate(qrels, run, measures, mode, coll)
    checked = lm.evaluate(qrels, run, measures, mode, coll, join=Join())
    assert plain.values == checked.values and plain.means == checked.means


def test_evaluate_again_without_the_check_same_numbers(inex):
    """``readsim.operations.evaluate.evaluate_again`` (the topic chooser's after an edit, which makes no
    doc_length check) gives the checked numbers on the real run; ``evaluate_run(check=False)``
    is tested in tests/api/test_core.py."""
    from readsim.operations.evaluate import evaluate_again, evaluate_run

    qrels = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    run = read_run(inex / "runs" / "bert-passages.run")
    coll = Collection(inex / "articles")
    measures = [parse_list_measure("AgP/F(0.25)")]
    kw = dict(reading="natural", collection=coll, all_topics=False, as_documents=False, levels=4)
    checked, _ = evaluate_run(qrels, run, measures, **kw)
    plain, _ = evaluate_run(qrels, run, measures, **kw, check=False)
    again = evaluate_again(qrels, plain, run, reading="natural", collection=coll, levels=4)
    assert again.values == checked.values and again.means == checked.means
