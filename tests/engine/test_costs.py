"""Where the run loses (engine/core/costs.py): the AgP split worked by hand.

The case: articles of 4 characters; Nrel = 3.

- ``a``: relevant [0, 2) (rsize 2), retrieved [2, 4): reading order 3, 4, 1, 2, relevant read at
  positions 3 and 4: aveChP = (1/3 + 2/4) / 2 = 5/12;
- ``x``: judged non-relevant;
- ``b``: relevant [0, 3) (rsize 3), retrieved [3, 4): order 4, 1, 2, 3, relevant at 2, 3, 4:
  aveChP = (1/2 + 2/3 + 3/4) / 3 = 23/36;
- ``c``: relevant [0, 1) (rsize 1), not ranked.

Run ranking a, x, b. With the highlighted passages every relevant article reads its relevant
text first: aveChP = 1. The ideal ranking is b (3), a (2).
"""

from __future__ import annotations

import numpy as np
import pytest

from readsim.core.doc_evaluation import evaluate_document
from readsim.core.formats import Qrels, Run, RunArticle
from readsim.core.listmeasures import rank_topics
from readsim.core.costs import ideal_order, ideal_score, loss_split, split, topic_loss
from readsim.core.measure import DocMeasure

from helpers.engine_cases import JUDGED, RETRIEVED, judgement

AVECHP = DocMeasure("aveChP")


def docs(mode: str = "natural"):
    return [evaluate_document(JUDGED[n].passages, np.array(RETRIEVED[n]), 4, mode) for n in "axb"]


def test_split_by_hand():
    s = loss_split(AVECHP, JUDGED, list("axb"), docs())
    assert s.scores == pytest.approx([5 / 12, 0, 23 / 36])
    assert s.ideal_scores == pytest.approx([1, 0, 1])
    assert s.browse_loss == pytest.approx([7 / 12, 0, 13 / 36])
    # as is: gP[1] = 5/12, gP[3] = (5/12 + 23/36) / 3 = 19/54; AgP = (5/12 + 19/54) / 3 = 83/324
    assert s.actual == pytest.approx(83 / 324)
    # ideal passages, run ranking: gP[1] = 1, gP[3] = 2/3: AgP = (1 + 2/3) / 3 = 5/9
    assert s.ideal_passages == pytest.approx(5 / 9)
    # run passages, ideal ranking b, a: gP[1] = 23/36, gP[2] = (23/36 + 5/12) / 2 = 19/36: 7/18
    assert s.ideal_ranking == pytest.approx(7 / 18)
    # both: (1 + 1) / 3; perfect (b, a, c all 1): 1
    assert s.ideal == pytest.approx(2 / 3) and s.perfect == pytest.approx(1)
    assert s.browse == pytest.approx(97 / 324) and s.fetch == pytest.approx(43 / 324)
    assert s.interaction == pytest.approx(-7 / 324)
    assert s.browse + s.fetch + s.interaction == pytest.approx(s.ideal - s.actual)  # 133/324
    assert s.unretrieved == pytest.approx(1 / 3)
    assert s.missed == ["c"] and s.nrel == 3
    assert list(s.ideal_rank) == [2, 0, 1]  # a second, b first among b, a, c


def test_t2ip_of_the_ideal_passages_is_not_one():
    """T2IP(t) reads t non-relevant characters after the relevant text (or to the end)."""
    s = loss_split(DocMeasure("T2IP", 300), JUDGED, list("axb"), docs())
    assert s.ideal_scores == pytest.approx([2 / 4, 0, 3 / 4])  # the whole article read: rel / 4
    assert ideal_score(DocMeasure("T2IP", 1), JUDGED["a"]) == pytest.approx(2 / 3)  # stops after 1 non-rel
    # ideal ranking b, a with ideal passages: gP[1] = 3/4, gP[2] = (3/4 + 1/2) / 2 = 5/8
    assert s.ideal == pytest.approx((3 / 4 + 5 / 8) / 3)


def test_effort_scores_have_no_agp_and_count_extra_screens():
    """Document mode: the reader starts at byte 0 whatever was retrieved, so even the ideal
    passages leave LE(300) = 3 when the relevant text starts at byte 700; natural mode: 1."""
    far = {"f": judgement("f", (700, 800), 1000)}
    run_doc = evaluate_document(far["f"].passages, np.array([[900, 1000]]), 1000, "natural")
    s = loss_split(DocMeasure("LE", 300, lower_is_better=True), far, ["f"], [run_doc])
    assert s.actual is None and s.browse is None and s.interaction is None
    # run: chain reads 900..1000 (100 bytes), then 0.. -> first relevant at 100 + 701 = 801: LE 3
    assert s.scores == pytest.approx([3]) and s.ideal_scores == pytest.approx([1])
    assert s.browse_loss == pytest.approx([2])  # run - ideal: 2 screens given away
    doc_mode = evaluate_document(far["f"].passages, np.array([[900, 1000]]), 1000, "document")
    s = loss_split(DocMeasure("LE", 300, lower_is_better=True), far, ["f"], [doc_mode], "document")
    assert s.ideal_scores == pytest.approx([3]) and s.browse_loss == pytest.approx([0])


def test_ideal_order_decreasing_rsize_ties_by_article_id():
    names = ["10", "x", "9", "b", "a", "200"]
    rsize = np.array([5, 0, 5, 5, 5, 7])
    assert [names[k] for k in ideal_order(names, rsize)] == ["200", "9", "10", "a", "b"]


def test_document_mode_ideal_passages_change_nothing_but_the_set_scores():
    s = loss_split(AVECHP, JUDGED, list("axb"), docs("document"), "document")
    assert s.browse == pytest.approx(0) and s.browse_loss == pytest.approx([0, 0, 0])
    f = loss_split(DocMeasure("F", 0, 0.25), JUDGED, list("axb"), docs("document"), "document")
    assert f.ideal_scores == pytest.approx([1, 0, 1]) and f.scores == pytest.approx([0, 0, 0])


def test_empty_run_and_shape_errors():
    s = split(AVECHP, [], [], [], [], [], 2, ["p", "q"], [3, 4], [1.0, 1.0])
    assert s.actual == 0 and s.ideal == 0 and s.perfect == pytest.approx(1) and s.missed == ["q", "p"]
    with pytest.raises(ValueError):
        split(AVECHP, ["a"], [True], [1], [0.5, 0.1], [1.0], 1)


def test_topic_loss_agrees_with_rank_topics():
    qrels = Qrels("mini.qrels", {"T": JUDGED})
    entries = [RunArticle(n, k + 1, np.array(RETRIEVED[n], dtype=np.int64), [], k + 1) for k, n in enumerate("axb")]
    run = Run("mini.run", "mini", {"T": entries})
    s = topic_loss(qrels, run, "T", AVECHP)
    ranking = rank_topics(qrels, run, [AVECHP])["T"]
    assert s.scores == pytest.approx(ranking.scores[AVECHP])
    assert s.actual == pytest.approx(83 / 324)
