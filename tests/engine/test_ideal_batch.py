"""The ideal readings of a topic in one batch (readsim.core.costs.ideal_scores): worked by hand, and on
the real qrels equal to each article evaluated on its own (readsim.core.doc_evaluation.evaluate_document,
the one-article reading order) in every reading mode."""

from __future__ import annotations

import numpy as np
import pytest

from readsim.core.doc_evaluation import evaluate_document
from readsim.core.formats import Judgement, read_qrels
from readsim.core.costs import ideal_score, ideal_scores
from readsim.core.measure import DocMeasure
from readsim.core.reading import Mode

AVECHP = DocMeasure("aveChP")
LE = DocMeasure("LE", 300, lower_is_better=True)


def judgement(rel: tuple[int, int] | None, length: int, bep: int | None = None) -> Judgement:
    passages = np.array([rel], dtype=np.int64) if rel else np.zeros((0, 2), np.int64)
    return Judgement("T", "a", rel[1] - rel[0] if rel else 0, length, bep, passages, 1)


def test_by_hand():
    # an article of 10 characters, relevant [6, 8)
    j = judgement((6, 8), 10)
    # natural: the highlighted passage is the chain, read first: relevant at 1 and 2 -> aveChP 1
    # entry at 4: the reader reads 4, 5, 6, 7, ...: relevant 3rd and 4th -> (1/3 + 2/4) / 2 = 5/12
    # entry at 0: relevant 7th and 8th -> (1/7 + 2/8) / 2 = 11/56
    # a non-relevant judgement and an unjudged article: the null value (0; LE's NR = levels + 1 = 5)
    none = judgement(None, 10)
    got = ideal_scores(AVECHP, [j, none, None, j, j], Mode.ENTRY, 4, [4, 0, 0, 0, 20])
    # entry 20 is past the end: clamped to 10, the reader starts at 10 then reads [0, 10): as entry 0
    assert got == pytest.approx([5 / 12, 0, 0, 11 / 56, 11 / 56])
    assert ideal_scores(AVECHP, [j], Mode.NATURAL) == pytest.approx([1.0])
    assert ideal_scores(LE, [none, None], Mode.NATURAL, 4).tolist() == [5.0, 5.0]
    assert ideal_score(AVECHP, j, Mode.ENTRY, 4, 4) == pytest.approx(5 / 12)
    # BEP(d): the ideal reading enters at the best entry point (distance 0: 1), 0 without one
    bep = DocMeasure("BEP", 500)
    assert ideal_scores(bep, [judgement((6, 8), 10, bep=6), j, None]).tolist() == [1.0, 0.0, 0.0]
    assert len(ideal_scores(AVECHP, [])) == 0


MEASURES = [AVECHP, DocMeasure("T2IP", 300), DocMeasure("T2IF", 300), DocMeasure("F", 0, 0.25),
            LE, DocMeasure("ES", 300, lower_is_better=True), DocMeasure("ChP", 300), DocMeasure("ChR", 300)]


@pytest.mark.parametrize("mode", list(Mode))
def test_real_qrels_equal_one_article_at_a_time(inex, mode):
    qrels = read_qrels(inex / "qrels/inex2009-2010.qrels")
    topics = sorted(qrels.topics)[:6]
    judgements = [j for t in topics for j in qrels.topics[t].values()]
    assert sum(j.relevant for j in judgements) > 100
    rng = np.random.default_rng(3)
    entries = rng.integers(0, 5000, len(judgements))
    for m in MEASURES:
        got = ideal_scores(m, judgements, mode, 4, entries)
        want = [m.value(evaluate_document(j.passages, j.passages, j.doc_length, mode, int(e)), 4)
                if j.relevant else m.null_value(4) for j, e in zip(judgements, entries.tolist())]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=f"{m.name} {mode}")
