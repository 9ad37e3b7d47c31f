"""Seed 004's simulated runs on the real INEX 2009 data: the qualitative results of Figures 3, 5, 6.

The assessments are derived from the FOL highlighting of the complete topics (every relevant
article in the collection), so the numbers differ from the paper's (INEX 2003 assessors, IEEE
collection); the directions must hold:

- Figure 3 (INEX 2002, gen): adding the ancestors of the perfect elements *raises* AP;
  with strict quantisation the added ancestors score 0 and change nothing;
- Figure 5 (INEX 2003s): the gap stays (size alone does not stop the reward for overlap);
- Figure 6 (INEX 2003o): the gap shrinks, below those of Figures 3 and 5, yet stays positive.
"""

from __future__ import annotations

import numpy as np
import pytest

from readsim.core.collection import Collection
from readsim.core.element_retrieval import (ancestors_run, assessments_xml, complete_topics, derive_assessments,
                                     evaluate_elements, perfect_run, read_assessments, read_element_run,
                                     write_element_run)
from readsim.core.formats import read_qrels

COMPLETE = ["2009067", "2009073", "2009074", "2009078"]


@pytest.fixture(scope="module")
def real(inex):
    qrels = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    coll = Collection(inex / "articles")
    return qrels, coll, derive_assessments(qrels, coll, complete_topics(qrels, coll))


@pytest.fixture(scope="module")
def means(real):
    _, _, a = real
    return {name: evaluate_elements(a, run).means for name, run in (("perfect", perfect_run(a)),
                                                                      ("ancestors", ancestors_run(a)))}


def test_the_complete_topics(real):
    qrels, coll, a = real
    assert complete_topics(qrels, coll) == COMPLETE
    assert a.complete_topics() == COMPLETE


def test_derived_assessments_are_consistent(real):
    _, _, a = real
    for ta in a.topics.values():
        for art in ta.articles.values():
            assert art.e[0] == 3  # the root holds all the highlighted text
            assert np.array_equal(art.e == 0, art.rsize == 0) and np.array_equal(art.s == 0, art.rsize == 0)
            assert np.all(art.rsize <= art.tree.sizes)
            assert np.array_equal(art.listed, np.flatnonzero(art.rsize > 0))


def gap(means, m):
    return means["ancestors"][m] - means["perfect"][m]


def test_figure_3_inex_2002_rewards_overlap_under_gen_only(means):
    assert gap(means, "AP_2002/gen") > 0.03
    assert gap(means, "AP_2002/strict") == pytest.approx(0, abs=1e-12)  # the added ancestors score 0


def test_figure_5_inex_2003s_keeps_the_gap(means):
    assert gap(means, "AP_2003s/gen") > 0.05
    assert gap(means, "AP_2003s/strict") > 0.05


def test_figure_6_inex_2003o_shrinks_the_gap(means):
    for q in ("gen", "strict"):
        assert 0 < gap(means, f"AP_2003o/{q}") < gap(means, f"AP_2003s/{q}")
    assert gap(means, "AP_2003o/gen") < gap(means, "AP_2002/gen")


def test_real_assessments_and_runs_read_back(real, tmp_path):
    _, coll, a = real
    b = read_assessments("real.xml", coll, data=assessments_xml(a, coll))
    assert [tuple(r.__dict__.values()) for r in b.rows()] == [tuple(r.__dict__.values()) for r in a.rows()]
    run = ancestors_run(a)
    write_element_run(run, tmp_path / "anc.run")
    back = read_element_run(tmp_path / "anc.run", coll)
    assert evaluate_elements(b, back).means == pytest.approx(evaluate_elements(a, run).means)


def test_tree_xpaths_and_spans_are_the_articles(real):
    _, coll, a = real
    for name in list(a.topics["2009078"].articles)[:3]:
        art = coll.article(name)
        tree = a.topics["2009078"].articles[name].tree
        assert [tree.xpath(i) for i in range(len(tree))] == [e.xpath for e in art.elements]
        assert [(int(s), int(e)) for s, e in zip(tree.starts, tree.ends)] == [(e.start, e.end) for e in art.elements]
        assert all(tree.find(e.xpath) == i for i, e in enumerate(art.elements))
        assert [i for i in range(len(tree)) if tree.leaf[i]] == [
            i for i, e in enumerate(art.elements) if i + 1 == len(art.elements) or art.elements[i + 1].depth <= e.depth]
