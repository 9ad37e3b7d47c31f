"""recall_o/precision_o ([Gövert 2006], eqs 14-19) against a slow per-character reference.

The reference below follows the paper's words literally: each component's text is a Python set
of character positions, the text not seen before is a set difference, rel^U is the recursion of
equation 14 over explicit child lists. The engine computes the same from spans and tree levels
(:mod:`readsim.core.element_retrieval.metrics`); hypothesis draws random trees, assessments and
rankings (nested, repeated, several articles, empty elements).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readsim.core.element_retrieval import (ArticleAssessment, RankedElement, TopicAssessments, evaluate_topic,
                                     tree_from_spans)

EXH = {"strict": [0, 0, 0, 1], "gen": [0, 1 / 3, 2 / 3, 1]}


@st.composite
def spans(draw, lo: int, hi: int, depth: int = 0) -> list[tuple[int, int]]:
    """A preorder list of nested spans under [lo, hi): the node itself, then its children."""
    out = [(lo, hi)]
    if depth >= 3 or hi - lo < 1:
        return out
    cuts = sorted(draw(st.lists(st.integers(lo, hi), max_size=4)))
    points = [lo, *cuts, hi]
    for a, b in zip(points[:-1], points[1:]):
        if draw(st.booleans()):
            out += draw(spans(a, b, depth + 1))
    return out


@st.composite
def topics(draw):
    ta = TopicAssessments("t")
    for k in range(draw(st.integers(1, 2))):
        name = f"a{k}"
        tree = tree_from_spans(name, draw(spans(0, draw(st.integers(0, 60)))))
        n = len(tree)
        e = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), np.int8)
        s = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), np.int8)
        ta.articles[name] = ArticleAssessment(name, tree, np.zeros(n, np.int64), e, s, np.arange(n),
                                              np.zeros((0, 2), np.int64))
    pool = [(name, i) for name, a in ta.articles.items() for i in range(len(a.tree))]
    picks = draw(st.lists(st.sampled_from(pool), max_size=12))
    run = []
    for rank, (name, i) in enumerate(picks, 1):
        t = ta.articles[name].tree
        run.append(RankedElement("t", name, t.xpath(i), int(t.starts[i]), int(t.ends[i]), 0.0, rank, i))
    return ta, run


# -- the slow reference --------------------------------------------------------------------------


def ref_rel_u(tree, exh, i) -> float:
    children = [j for j in range(len(tree)) if tree.parent[j] == i]
    if not children:
        return exh[i]
    size = tree.ends[i] - tree.starts[i]
    total = 0.0
    for c in children:
        share = (tree.ends[c] - tree.starts[c]) / size if size else 0.0
        total += max(ref_rel_u(tree, exh, c), exh[i] * share)
    return total


def ref_curve(ta, run, q):
    exh = {name: [EXH[q][v] for v in a.e] for name, a in ta.articles.items()}
    spec = {name: [EXH[q][v] for v in a.s] for name, a in ta.articles.items()}
    total = sum(ref_rel_u(a.tree, exh[name], 0) for name, a in ta.articles.items())
    seen: set[tuple[str, int]] = set()
    num = shown = weighted = 0.0
    recall, precision = [], []
    for r in run:
        text = {(r.article, p) for p in range(r.start, r.end)}  # the component's characters
        new = text - seen
        seen |= text
        num += exh[r.article][r.index] * (len(new) / len(text) if text else 0.0)
        weighted += spec[r.article][r.index] * len(new)
        shown += len(new)
        recall.append(num / total if total else 0.0)
        precision.append(weighted / shown if shown else 0.0)
    points = []
    for x in range(101):
        best = [p for rc, p in zip(recall, precision) if rc >= x / 100 - 1e-9]
        points.append(max(best) if best and total else 0.0)
    ap = sum(points[1:]) / 100 if total else float("nan")
    return total, recall, precision, points, ap


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(topics(), st.sampled_from(["strict", "gen"]))
def test_2003o_equals_the_per_character_reference(case, q):
    ta, run = case
    total, recall, precision, points, ap = ref_curve(ta, run, q)
    c = evaluate_topic(ta, run, "2003o", q)
    assert c.total == pytest.approx(total, abs=1e-12)
    assert c.recall_at.tolist() == pytest.approx(recall, abs=1e-9)
    assert c.precision_at.tolist() == pytest.approx(precision, abs=1e-9)
    assert c.precision.tolist() == pytest.approx(points, abs=1e-9)
    if np.isnan(ap):
        assert np.isnan(c.ap)
    else:
        assert c.ap == pytest.approx(ap, abs=1e-9)
