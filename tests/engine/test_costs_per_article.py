"""What each article costs (engine/core/costs.py, reference section 5.11): browse cost, rank cost and
the costs against a competitor, worked by hand, checked on the real data against the run EDITED
as the definition says and evaluated by the plain evaluation path, and against a slow path
(one :class:`Ranking` per variant, evaluated by :meth:`Ranking.value`) on random rankings: AgP
and gP@r from cumulative sums, CE/NCE/ANCE as ``(n, n)`` matrices.

The hand-worked case is tests/engine/test_costs.py's: articles of 4 characters, Nrel = 3 (a, b,
c relevant with rsize 2, 3, 1; x judged non-relevant); the run ranks a, x, b with aveChP
S = 5/12, 0, 23/36 and S_ideal = 1, 0, 1; as is AgP = 83/324.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readsim.core.formats import Qrels, Run, RunArticle, read_any_run, read_qrels
from readsim.core.listmeasures import Ranking, evaluate
from readsim.core.costs import (article_costs, browse_costs, ideal_positions, list_values, moved, rank_costs,
                                 run_costs, topic_costs, topic_loss, versus)
from readsim.core.measure import DocMeasure, ListMeasure, parse_list_measure

from helpers.engine_cases import JUDGED, RETRIEVED

AVECHP = DocMeasure("aveChP")
AGP = ListMeasure("AgP", 0, AVECHP)


def mini_run(order: str, retrieved: dict, run_id: str = "mini") -> Run:
    return Run(f"{run_id}.run", run_id, {"T": [RunArticle(n, k + 1, np.array(retrieved[n], dtype=np.int64), [], k + 1)
                                              for k, n in enumerate(order)]})


QRELS = Qrels("mini.qrels", {"T": JUDGED})
RUN = mini_run("axb", RETRIEVED)
# the competitor ranks b, c, a: b retrieves [1, 4) (reading 2, 3, 4, 1: aveChP (1 + 1 + 3/4) / 3 = 11/12),
# c retrieves [0, 4), a retrieves [3, 4) (reading 4, 1, 2, 3: aveChP (1/2 + 2/3) / 2 = 7/12)
OTHER = mini_run("bca", {"b": [[1, 4]], "c": [[0, 4]], "a": [[3, 4]]}, "other")


def test_costs_by_hand():
    c = article_costs(topic_loss(QRELS, RUN, "T", AVECHP), AGP)
    assert c.as_is == pytest.approx(83 / 324)
    # ideal ordering of the run's articles: b (rsize 3), a (2), then x: ideal ranks 2, 3, 1
    assert list(c.ideal_rank) == [2, 3, 1]
    # browse, a: S = 1, 0, 23/36: gP[1] = 1, gP[3] = 59/108, AgP = 167/324: cost 84/324
    # browse, b: S = 5/12, 0, 1: gP[3] = 17/36, AgP = (5/12 + 17/36) / 3 = 96/324: cost 13/324
    assert c.browse_cost == pytest.approx([84 / 324, 0, 13 / 324])
    # rank, a to rank 2 (x, a, b): gP[2] = 5/24, gP[3] = 19/54, AgP = 121/648: cost -45/648
    # rank, x to rank 3 (a, b, x): gP[1] = 5/12, gP[2] = 19/36, AgP = 17/54 = 204/648: cost 38/648
    # rank, b to rank 1 (b, a, x): the ideal ranking, AgP = 7/18 = 252/648: cost 86/648
    assert c.rank_cost == pytest.approx([-45 / 648, 38 / 648, 86 / 648])
    # the topic: as test_loss's split (AgP is indifferent to x after the relevant ones)
    assert (c.ideal_passages, c.ideal_ranking, c.ideal, c.perfect) == pytest.approx((5 / 9, 7 / 18, 2 / 3, 1))
    assert (c.browse, c.fetch, c.interaction, c.unretrieved) == pytest.approx(
        (97 / 324, 43 / 324, -7 / 324, 1 / 3))


def test_costs_against_a_competitor_by_hand():
    c = article_costs(topic_loss(QRELS, RUN, "T", AVECHP), AGP)
    v = versus(c, topic_loss(QRELS, OTHER, "T", AVECHP), "other")
    assert list(v.vs_rank) == [3, 0, 1]  # x is not in the competitor's run
    assert v.vs_score[0] == pytest.approx(7 / 12) and v.vs_score[2] == pytest.approx(11 / 12)
    assert np.isnan(v.vs_score[1]) and np.isnan(v.vs_rank_cost[1]) and np.isnan(v.vs_browse_cost[1])
    # a with S 7/12 (+1/6): gP[1] and gP[3] rise by 1/6 and 1/18: (1/6 + 1/18) / 3 = 2/27
    # b with S 11/12 (+10/36): gP[3] rises by 10/108: 10/324
    assert v.vs_browse_cost[[0, 2]] == pytest.approx([2 / 27, 10 / 324])
    # a to rank 3 (x, b, a): gP[2] = 23/72, gP[3] = 19/54, AgP = 145/648: cost -21/648; b to rank 1: 86/648
    assert v.vs_rank_cost[[0, 2]] == pytest.approx([-21 / 648, 86 / 648])


def test_a_rank_beyond_the_run_is_its_last_rank():
    c = article_costs(topic_loss(QRELS, RUN, "T", AVECHP), AGP)
    far = mini_run("cxyzb", {n: [[0, 4]] for n in "cxyzb"})  # b at rank 5 of the competitor: the run's rank 3
    v = versus(c, topic_loss(QRELS, far, "T", AVECHP))
    assert list(v.vs_rank) == [0, 2, 5]
    assert v.vs_rank_cost[2] == pytest.approx(0) and v.vs_rank_cost[1] == pytest.approx(0)


def test_moved_rankings():
    # places 2, 0, 1, 3 of a 4-article ranking: row k is the ranking with article k moved there
    assert moved(np.array([2, 0, 1, 3])).tolist() == [[1, 2, 0, 3], [1, 0, 2, 3], [0, 2, 1, 3], [0, 1, 2, 3]]
    assert ideal_positions(["n", "a", "b"], np.array([False, True, True]), np.array([0, 1, 5])).tolist() == [2, 1, 0]


def test_effort_costs_are_negated_differences():
    """CE@3/LE(300): LE of the ranks summed (minus 1 each); lower is better, so a cost is as
    is minus the variant. LE 3, NR 5, 1 (relevant, non-relevant, relevant); S_ideal 1."""
    le = DocMeasure("LE", 300, lower_is_better=True)
    ce = ListMeasure("CE", 3, le)
    rel, s = np.array([True, False, True]), np.array([3.0, 5.0, 1.0])
    # as is CE@3 = 2 + 4 + 0 = 6; article 1 with LE 1: 0 + 4 + 0 = 4, cost 2
    assert browse_costs(ce, rel, s, np.array([1.0, 5.0, 1.0]), 2).tolist() == pytest.approx([2, 0, 0])
    # moving the non-relevant article to rank 3 changes nothing in a sum over all 3 ranks
    assert rank_costs(ce, rel, s, np.array([0, 2, 1]), 2) == pytest.approx([0, 0, 0])


def test_list_values_refuse_a_measure_without_costs():
    with pytest.raises(ValueError, match="no per-article costs for MAP"):
        list_values(parse_list_measure("MAP"), np.ones((1, 2), bool), np.ones((1, 2)), 1)
    with pytest.raises(ValueError, match="does not aggregate"):
        article_costs(topic_loss(QRELS, RUN, "T", AVECHP), parse_list_measure("AgP/F(0.25)"))


# -- the slow path: one Ranking per variant ------------------------------------------------------

MEASURES = [AGP, ListMeasure("gP", 2, AVECHP), ListMeasure("gP", 9, AVECHP), ListMeasure("gP", 9, AVECHP, plain=True)]
LE = DocMeasure("LE", 300, lower_is_better=True)
EFFORTS = [ListMeasure("CE", 4, LE), ListMeasure("NCE", 6, LE), ListMeasure("ANCE", 5, LE)]


def slow(measure, rel, s, nrel) -> float:
    return Ranking("T", [str(k) for k in range(len(rel))], np.asarray(rel, bool), np.zeros(len(rel), np.int64),
                   {measure.doc: np.asarray(s, float)}, nrel, 1).value(measure)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_costs_equal_one_evaluation_per_variant(data):
    n = data.draw(st.integers(1, 14))
    rel = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    nrel = int(rel.sum()) + data.draw(st.integers(0, 3)) or 1
    effort = data.draw(st.booleans())
    measure = data.draw(st.sampled_from(EFFORTS if effort else MEASURES))
    level = st.integers(1, 5).map(float) if effort else st.floats(0, 1)
    null = 5.0 if effort else 0.0
    s = np.where(rel, data.draw(st.lists(level, min_size=n, max_size=n)), null)
    new = np.where(rel, data.draw(st.lists(level, min_size=n, max_size=n)), null)
    places = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n)))
    base = slow(measure, rel, s, nrel)
    sign = -1 if effort else 1
    browse = browse_costs(measure, rel, s, new, nrel)
    ranks = rank_costs(measure, rel, s, places, nrel)
    for k in range(n):
        edited = s.copy()
        edited[k] = new[k]
        assert browse[k] == pytest.approx(sign * (slow(measure, rel, edited, nrel) - base), abs=1e-12)
        order = [j for j in range(n) if j != k]
        order.insert(places[k], k)
        assert ranks[k] == pytest.approx(sign * (slow(measure, rel[order], s[order], nrel) - base), abs=1e-12)


# -- the real data: each cost against the run edited by hand ------------------------------------


@pytest.fixture(scope="module")
def real(inex):
    return (read_qrels(str(inex / "qrels" / "inex2009-2010.qrels")), read_any_run(str(inex / "runs" / "indri-passages.run")),
            read_any_run(str(inex / "runs" / "bert-passages-map199.run")))


OFFICIAL = parse_list_measure("AgP/F(0.25)")


def score(qrels, entries, topic) -> float:
    """AgP/F(0.25) of ``topic`` ranked as ``entries``, by the plain evaluation path."""
    run = Run("edited.run", "edited", {topic: [dataclasses.replace(e, rank=k + 1) for k, e in enumerate(entries)]})
    return evaluate(qrels, run, [OFFICIAL]).values[OFFICIAL.name][topic]


def picked(c, count: int = 4) -> list[int]:
    """The ranks worth checking: the biggest browse and rank costs, the most negative rank cost, a
    non-relevant article."""
    out = list(np.argsort(-c.browse_cost)[:count]) + list(np.argsort(-c.rank_cost)[:count])
    out += [int(np.argmin(c.rank_cost))] + [int(k) for k in np.flatnonzero(~c.loss.relevant)[:1]]
    return sorted(set(map(int, out)))


@pytest.mark.parametrize("topic", ["2009078", "2009003", "2009108", "2010107"])
def test_each_cost_is_the_edited_run_minus_the_run(real, topic):
    qrels, run, _ = real
    entries = list(run.topics[topic])
    c = article_costs(topic_loss(qrels, run, topic, OFFICIAL.doc), OFFICIAL)
    base = score(qrels, entries, topic)
    assert c.as_is == pytest.approx(base, abs=1e-12)
    judged = qrels.topics[topic]
    for k in picked(c):
        j = judged.get(entries[k].article)
        if j is not None and j.relevant:  # its passages replaced by its relevant text
            edited = list(entries)
            edited[k] = dataclasses.replace(entries[k], passages=j.passages.copy(), xpaths=[], pointers=[],
                                            line_spans=None)
            assert c.browse_cost[k] == pytest.approx(score(qrels, edited, topic) - base, abs=1e-12), k
        else:
            assert c.browse_cost[k] == 0
        moved_list = entries[:k] + entries[k + 1:]
        moved_list.insert(int(c.ideal_rank[k]) - 1, entries[k])  # its line moved to its ideal rank
        assert c.rank_cost[k] == pytest.approx(score(qrels, moved_list, topic) - base, abs=1e-12), k


def test_support_vector_machine_costs_little_to_browse(real):
    """The issue's case: on 2009078, Support vector machine (65309) has a browse LOSS of +0.377
    (its F(0.25) with the highlighted passages minus its F(0.25)), yet its browse COST, the
    topic's AgP with its passages replaced by the highlighted text minus as is, is 0.006."""
    qrels, run, _ = real
    c = article_costs(topic_loss(qrels, run, "2009078", OFFICIAL.doc), OFFICIAL)
    k = c.loss.articles.index("65309")
    assert c.loss.browse_loss[k] == pytest.approx(0.377, abs=5e-4)
    assert c.browse_cost[k] == pytest.approx(0.006, abs=5e-4)
    entries = list(run.topics["2009078"])
    edited = list(entries)
    edited[k] = dataclasses.replace(entries[k], passages=qrels.topics["2009078"]["65309"].passages.copy())
    assert c.browse_cost[k] == pytest.approx(score(qrels, edited, "2009078") - score(qrels, entries, "2009078"))


def test_costs_against_the_competitor_are_the_edited_run_minus_the_run(real):
    qrels, run, other = real
    topic = "2009078"
    entries, theirs = list(run.topics[topic]), {e.article: e for e in other.topics[topic]}
    c = article_costs(topic_loss(qrels, run, topic, OFFICIAL.doc), OFFICIAL)
    v = versus(c, topic_loss(qrels, other, topic, OFFICIAL.doc), "bert")
    base = score(qrels, entries, topic)
    shared = [k for k, e in enumerate(entries) if e.article in theirs]
    assert shared and all(v.vs_rank[k] > 0 for k in shared)
    best = sorted(shared, key=lambda k: -abs(v.vs_rank_cost[k]))[:3] + sorted(shared, key=lambda k: -abs(
        v.vs_browse_cost[k]))[:3]
    for k in sorted(set(best)):
        e = entries[k]
        place = min(int(v.vs_rank[k]), len(entries)) - 1
        moved_list = entries[:k] + entries[k + 1:]
        moved_list.insert(place, e)
        assert v.vs_rank_cost[k] == pytest.approx(score(qrels, moved_list, topic) - base, abs=1e-12)
        edited = list(entries)
        edited[k] = dataclasses.replace(e, passages=theirs[e.article].passages)  # the competitor's passages
        assert v.vs_browse_cost[k] == pytest.approx(score(qrels, edited, topic) - base, abs=1e-12)
    missing = [k for k, e in enumerate(entries) if e.article not in theirs]
    assert all(v.vs_rank[k] == 0 and np.isnan(v.vs_rank_cost[k]) for k in missing)


@pytest.mark.parametrize("mode", ["natural", "document"])
def test_the_run_column_wise_equals_topic_by_topic(real, mode):
    """``run_costs`` (S of every topic from one rank_topics call) gives what topic_costs (each
    article through readsim.core.result_lines.document) gives, on every topic of indri-passages.run."""
    qrels, run, other = real
    topics = [t for t in run.topics if qrels.nrel(t) > 0]
    for t, c, v in run_costs(qrels, run, OFFICIAL, topics, mode, other=other):
        want, want_vs = topic_costs(qrels, run, t, OFFICIAL, mode, other=other)
        assert c.loss.articles == want.loss.articles and c.loss.missed == want.loss.missed
        for key in ("as_is", "ideal_passages", "ideal_ranking", "ideal", "perfect"):
            assert getattr(c, key) == pytest.approx(getattr(want, key), abs=1e-12), (t, key)
        assert c.browse_cost == pytest.approx(want.browse_cost, abs=1e-12, nan_ok=True), t
        assert c.rank_cost == pytest.approx(want.rank_cost, abs=1e-12), t
        assert list(v.vs_rank) == list(want_vs.vs_rank)
        assert v.vs_rank_cost == pytest.approx(want_vs.vs_rank_cost, abs=1e-12, nan_ok=True), t
