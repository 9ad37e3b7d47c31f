"""The INEX 2002 and 2003 element metrics on hand-worked examples ([Gövert 2006], section 4).

Every expected number below is worked out by hand in the comments (from the paper's equations),
never copied from the code's output.
"""

from __future__ import annotations

import numpy as np
import pytest

from readsim.core.element_retrieval import (RECALL_POINTS, ArticleAssessment, RankedElement, TopicAssessments, curve,
                                     evaluate_topic, precall, rank_values, rel_u_values, salton, topic_totals,
                                     tree_from_spans, unseen_sizes)
from readsim.core.element_retrieval import quantise

X = RECALL_POINTS


def ap_of(p) -> float:
    """Mean of a precision function over the recall points 0.01 .. 1.00."""
    return float(np.mean([p(x) for x in X[1:]]))


# -- rel^U (equations 14-17) ------------------------------------------------------------------


def test_figure_4_rel_u_of_the_root_is_seven():
    # Figure 4's caption: a topic of four concepts; at most seven relevant concepts can be
    # retrieved from non-overlapping components, by the three double-bordered ones. The figure's
    # own tree is not in the text; this one is built to match the caption:
    #   C_root [0,200) 4 concepts
    #     D1 [0,100) 4 concepts:  S1 [0,50) 3 concepts (leaf), S2 [50,100) 2 concepts (leaf)
    #     D2 [100,200) 2 concepts: P1 [100,180) 1 concept (leaf), P2 [180,200) 0 (leaf)
    # rel^U(D1) = max(3, 4*50/100) + max(2, 4*50/100) = 3 + 2 = 5
    # rel^U(D2) = max(1, 2*80/100) + max(0, 2*20/100) = 1.6 + 0.4 = 2  (= retrieving D2 whole)
    # rel^U(C_root) = max(5, 4*100/200) + max(2, 4*100/200) = 5 + 2 = 7   (S1, S2 and D2)
    parent = [-1, 0, 1, 1, 0, 4, 4]
    size = [200, 100, 50, 50, 100, 80, 20]
    concepts = np.array([4, 4, 3, 2, 2, 1, 0])
    t = 4
    rel = rel_u_values(parent, size, concepts / t)  # exh = |t n c| / |t|: rel^U in units of |t|
    assert rel[0] * t == pytest.approx(7)
    assert rel[1] * t == pytest.approx(5)
    assert rel[4] * t == pytest.approx(2)


def test_rel_u_of_a_leaf_is_its_exhaustiveness():
    assert rel_u_values([-1], [10], [2 / 3])[0] == pytest.approx(2 / 3)


def test_rel_u_of_a_parent_with_two_children():
    # parent [0,100) exh 1; children [0,30) exh 1/3 and [30,100) exh 1/3 (leaves):
    # max(1/3, 1*30/100) + max(1/3, 1*70/100) = 1/3 + 0.7
    rel = rel_u_values([-1, 0, 0], [100, 30, 70], [1, 1 / 3, 1 / 3])
    assert rel[0] == pytest.approx(1 / 3 + 0.7)
    # a parent with nothing relevant of its own passes its children's sum on: 1/3 + 1/3
    assert rel_u_values([-1, 0, 0], [100, 30, 70], [0, 1 / 3, 1 / 3])[0] == pytest.approx(2 / 3)


def test_the_virtual_root_adds_nothing_of_its_own():
    # two articles, each one leaf: rel^U(C_root) = exh(a) + exh(b), whatever their sizes
    ta = TopicAssessments("t")
    for name, e in (("a", 3), ("b", 2)):
        tree = tree_from_spans(name, [(0, 10)])
        ta.articles[name] = ArticleAssessment(name, tree, np.array([5]), np.array([e], np.int8),
                                              np.array([1], np.int8), np.array([0]), np.zeros((0, 2), np.int64))
    assert topic_totals(ta, "gen").rel_u == pytest.approx(1 + 2 / 3)
    assert topic_totals(ta, "strict").rel_u == pytest.approx(1)


# -- a small article: nested retrieved elements ------------------------------------------------
#
#   root [0,100)  e=3 s=1      relevant text [0,30)
#     A  [0,40)   e=3 s=3        A1 [0,10)  e=1 s=3 (10/10 relevant, 10/30 of the relevant text)
#                                A2 [10,40) e=2 s=2 (20/30 relevant, 20/30 of it)
#     B  [40,100) e=0 s=0
#
# gen:    exh  root 1, A 1, A1 1/3, A2 2/3, B 0 -> sum 3;   spec root 1/3, A 1, A1 1, A2 2/3
#         rel^U(A) = max(1/3, 1*10/40) + max(2/3, 1*30/40) = 1/3 + 3/4 = 13/12
#         rel^U(root) = max(13/12, 1*40/100) + max(0, 1*60/100) = 13/12 + 3/5 = 101/60
# strict: exh root 1, A 1 -> sum 2;  spec A 1, A1 1
#         rel^U(A) = max(0, 1/4) + max(0, 3/4) = 1;  rel^U(root) = max(1, 0.4) + max(0, 0.6) = 1.6
# f_gen: root (3,1) .75, A (3,3) 1, A1 (1,3) .5, A2 (2,2) .5 -> n = 2.75; f_strict: A only -> n = 1
#
# The run: c1 = A, c2 = A1 (inside A: nothing new), c3 = root; unseen text 40, 0, 60.

SPANS = [(0, 100), (0, 40), (0, 10), (10, 40), (40, 100)]
E = [3, 3, 1, 2, 0]
S = [1, 3, 3, 2, 0]


def small_topic() -> TopicAssessments:
    tree = tree_from_spans("doc", SPANS)
    ta = TopicAssessments("t")
    ta.articles["doc"] = ArticleAssessment("doc", tree, np.array([30, 30, 10, 20, 0]), np.array(E, np.int8),
                                           np.array(S, np.int8), np.arange(4), np.array([[0, 30]]))
    return ta


def small_run(order=(1, 2, 0), ranks=(1, 2, 3)) -> list[RankedElement]:
    return [RankedElement("t", "doc", f"/x{i}", SPANS[i][0], SPANS[i][1], 0.0, r, i) for i, r in zip(order, ranks)]


def test_totals_of_the_small_article():
    ta = small_topic()
    gen, strict = topic_totals(ta, "gen"), topic_totals(ta, "strict")
    assert gen.n == pytest.approx(2.75) and strict.n == pytest.approx(1)
    assert gen.exh == pytest.approx(3) and strict.exh == pytest.approx(2)
    assert gen.rel_u == pytest.approx(101 / 60) and strict.rel_u == pytest.approx(1.6)


def test_rank_values_see_nested_text_once():
    v = rank_values(small_topic(), small_run())
    assert v.unseen.tolist() == [40, 0, 60]
    assert v.size.tolist() == [40, 10, 100]
    assert v.overlaps.tolist() == [False, True, True]
    assert v.f("gen").tolist() == [1.0, 0.5, 0.75]


def test_2003s_on_nested_elements():
    ta = small_topic()
    c = evaluate_topic(ta, small_run(), "2003s", "gen")
    # recall_s: (1, 1 + 1/3, 2 + 1/3) / 3;  precision_s: 40/40, (40 + 10)/50, (50 + 100/3)/150
    assert c.recall_at == pytest.approx([1 / 3, 4 / 9, 7 / 9])
    assert c.precision_at == pytest.approx([1, 1, 5 / 9])
    # Salton: 1 up to recall 4/9 (0.01 .. 0.44), 5/9 up to 7/9 (0.45 .. 0.77), then 0
    assert c.ap == pytest.approx((44 + 33 * 5 / 9) / 100)
    s = evaluate_topic(ta, small_run(), "2003s", "strict")
    # recall (1, 1, 2) / 2; precision 1, 1, 50/150
    assert s.recall_at == pytest.approx([0.5, 0.5, 1])
    assert s.precision_at == pytest.approx([1, 1, 1 / 3])
    assert s.ap == pytest.approx((50 + 50 / 3) / 100)


def test_2003o_on_nested_elements():
    ta = small_topic()
    c = evaluate_topic(ta, small_run(), "2003o", "gen")
    # recall_o: 1*40/40, + 1/3*0/10, + 1*60/100, over rel^U = 101/60
    assert c.recall_at == pytest.approx([60 / 101, 60 / 101, 96 / 101])
    # precision_o: 1*40/40, (40 + 0)/40, (40 + 1/3*60)/100
    assert c.precision_at == pytest.approx([1, 1, 0.6])
    # Salton: 1 for x <= 60/101 (0.01 .. 0.59), 0.6 for x <= 96/101 (0.60 .. 0.95), then 0
    assert c.ap == pytest.approx((59 + 36 * 0.6) / 100)
    s = evaluate_topic(ta, small_run(), "2003o", "strict")
    # recall_o: 1/1.6, +0, +1*60/100/1.6 -> 0.625, 0.625, 1;  precision_o: 1, 1, 40/100
    assert s.recall_at == pytest.approx([0.625, 0.625, 1])
    assert s.precision_at == pytest.approx([1, 1, 0.4])
    assert s.ap == pytest.approx((62 + 38 * 0.4) / 100)


def test_overlap_is_what_2003o_sees_and_2003s_does_not():
    # retrieving A twice more after A adds to recall_s (overlap ignored) but not to recall_o
    ta = small_topic()
    run = small_run(order=(1, 1), ranks=(1, 2))
    assert evaluate_topic(ta, run, "2003s", "gen").recall_at == pytest.approx([1 / 3, 2 / 3])
    assert evaluate_topic(ta, run, "2003o", "gen").recall_at == pytest.approx([60 / 101, 60 / 101])


def test_2002_on_the_small_article_each_element_its_own_rank():
    ta = small_topic()
    c = evaluate_topic(ta, small_run(), "2002", "gen")
    # f = 1, .5, .75 (r per rank), i = 0, .5, .25, n = 2.75; NR = 2.75 x
    #   NR <= 1:        rank 1, j = 0, i = 0              -> P = 1
    #   1 < NR <= 1.5:  rank 2, j = 0, s = NR - 1         -> P = NR / (NR + s * .5 / 1.5)
    #   1.5 < NR <= 2.25: rank 3, j = .5, s = NR - 1.5    -> P = NR / (NR + .5 + s * .25 / 1.75)
    #   beyond: never reached -> 0

    def p(x):
        nr = 2.75 * x
        if nr <= 1 + 1e-12:
            return 1.0
        if nr <= 1.5 + 1e-12:
            return nr / (nr + (nr - 1) * 0.5 / 1.5)
        if nr <= 2.25 + 1e-12:
            return nr / (nr + 0.5 + (nr - 1.5) * 0.25 / 1.75)
        return 0.0

    assert c.precision[1:] == pytest.approx([p(x) for x in X[1:]])
    assert c.ap == pytest.approx(ap_of(p))
    assert c.recall_at == pytest.approx([1 / 2.75, 1.5 / 2.75, 2.25 / 2.75])
    assert evaluate_topic(ta, small_run(), "2002", "strict").ap == pytest.approx(1.0)


# -- INEX 2002: equations 6-7 on a ranking with ties -------------------------------------------


def test_precall_with_ties_strict():
    # n = 4 relevant elements; ranks (a tie is one rank):
    #   rank 1: 2 elements, 1 relevant;  rank 2: 1 non-relevant;  rank 3: 4 elements, 2 relevant
    f = [1, 0, 0, 1, 0, 1, 0]
    rank = [1, 1, 2, 3, 3, 3, 3]
    p, recall, at = precall(np.array(f, float), np.array(rank), 4)
    # x = .25: NR = 1, rank 1, j = 0, s = 1, i = 1, r = 1: esl = 1*1/2 -> P = 1/1.5
    assert p[25] == pytest.approx(2 / 3)
    # x = .5: NR = 2, rank 3, j = 1 + 1 = 2, s = 1, i = 2, r = 2: esl = 2 + 2/3 -> P = 2/(2 + 8/3)
    assert p[50] == pytest.approx(3 / 7)
    # x = .75: NR = 3, s = 2: esl = 2 + 4/3 -> P = 3/(3 + 10/3)
    assert p[75] == pytest.approx(9 / 19)
    # x = .3: NR = 1.2 (eq. 7, a real number), s = .2: esl = 2 + .2*2/3 -> P = 1.2/(3.2 + .4/3) = .36
    assert p[30] == pytest.approx(0.36)
    # x = 1: NR = 4, never reached
    assert p[100] == 0
    # x -> 0+: first rank with relevant elements, no non-relevant rank before: (r+1)/(r+1+i) = 2/3
    assert p[0] == pytest.approx(2 / 3)
    assert recall.tolist() == pytest.approx([0.25, 0.25, 0.75])

    def whole(x):
        nr = 4 * x
        if nr <= 1 + 1e-12:
            return 2 / 3
        if nr <= 3 + 1e-12:
            return nr / (nr + 2 + (nr - 1) * 2 / 3)
        return 0.0

    assert p[1:] == pytest.approx([whole(x) for x in X[1:]])


def test_precall_ties_count_the_expected_search_length_not_the_line_order():
    # the same elements with the relevant one last in its tie: the same precision (a tie is a set)
    a, _, _ = precall(np.array([1.0, 0.0]), np.array([1, 1]), 1)
    b, _, _ = precall(np.array([0.0, 1.0]), np.array([1, 1]), 1)
    assert a == pytest.approx(b)
    # without the tie the order counts: relevant second -> P(1) = 1/2
    c, _, _ = precall(np.array([0.0, 1.0]), np.array([1, 2]), 1)
    assert c[100] == pytest.approx(0.5) and a[100] == pytest.approx(1 / (1 + 1 / 2))


def test_precall_generalised_uses_expected_counts():
    # gen: rank 1 holds f = 1 and f = .5: r = 1.5, i = .5; n = 3
    # x = .25: NR = .75, s = .75, esl = .75 * .5 / 2.5 = .15 -> P = .75/.9
    p, _, _ = precall(np.array([1.0, 0.5]), np.array([1, 1]), 3)
    assert p[25] == pytest.approx(0.75 / 0.9)


def test_precall_leading_non_relevant_rank_gives_zero_at_recall_zero():
    p, _, _ = precall(np.array([0.0, 1.0]), np.array([1, 2]), 1)
    assert p[0] == 0


# -- Salton's interpolation and unseen text ----------------------------------------------------


def test_salton_takes_the_best_precision_at_or_beyond_each_recall_point():
    out = salton(np.array([0.2, 0.2, 0.5, 0.5]), np.array([0.5, 1.0, 0.25, 0.4]))
    assert out[0] == 1.0 and out[20] == 1.0 and out[21] == 0.4 and out[50] == 0.4 and out[51] == 0 and out[100] == 0


def test_unseen_sizes_across_articles_and_nesting():
    # article 0: [0,10) then [5,20) (5 new) then [0,20) (nothing new); article 1: [0,10) is new
    assert unseen_sizes([0, 0, 0, 1], [0, 5, 0, 0], [10, 20, 20, 10]).tolist() == [10, 10, 0, 10]
    assert unseen_sizes([0, 0], [0, 0], [0, 0]).tolist() == [0, 0]
    assert unseen_sizes([], [], []).tolist() == []


def test_a_topic_with_nothing_relevant_has_no_ap():
    ta = TopicAssessments("t")
    c = curve("t", rank_values(ta, small_run()), topic_totals(ta, "gen"), "2003o", "gen")
    assert np.isnan(c.ap) and c.total == 0


def test_quantisation_tables():
    assert quantise.exh([0, 1, 2, 3], "gen").tolist() == pytest.approx([0, 1 / 3, 2 / 3, 1])
    assert quantise.spec([0, 1, 2, 3], "strict").tolist() == [0, 0, 0, 1]
    # equation 9, every pair it names
    given = {(3, 3): 1.0, (2, 3): .75, (3, 2): .75, (3, 1): .75, (1, 3): .5, (2, 2): .5, (2, 1): .5,
             (1, 2): .25, (1, 1): .25, (0, 0): 0.0}
    for (e, s), v in given.items():
        assert quantise.f(e, s, "gen") == v
        assert quantise.f(e, s, "strict") == (1.0 if (e, s) == (3, 3) else 0.0)
    # the six pairs equation 9 leaves out: one dimension 0 means no relevant content (section 3.2)
    for e, s in ((0, 1), (0, 2), (0, 3), (1, 0), (2, 0), (3, 0)):
        assert (e, s) not in quantise.F_GEN_GIVEN
        assert quantise.f(e, s, "gen") == 0.0 and quantise.f(e, s, "strict") == 0.0
    with pytest.raises(ValueError):
        quantise.f(4, 0, "gen")
    with pytest.raises(ValueError):
        quantise.exh(1, "generous")


def test_topic_curves_gives_the_six_side_by_side():
    from readsim.core.element_retrieval import topic_curves

    ta = small_topic()
    curves = topic_curves(ta, small_run())
    assert sorted(curves) == sorted((m, q) for m in ("2002", "2003s", "2003o") for q in ("strict", "gen"))
    assert curves[("2003o", "gen")].ap == pytest.approx((59 + 36 * 0.6) / 100)
    assert curves[("2003s", "strict")].ap == pytest.approx((50 + 50 / 3) / 100)


def test_seen_before_is_the_text_to_shade():
    from readsim.core.element_retrieval import seen_before

    run = small_run()
    assert seen_before(run, 0).tolist() == []
    assert seen_before(run, 2).tolist() == [[0, 40]]  # A and A1 (inside it)


def test_trees_from_spans():
    t = tree_from_spans("d", SPANS)
    assert t.parent.tolist() == [-1, 0, 1, 1, 0] and t.leaf.tolist() == [False, False, True, True, True]
    assert t.xpath(3) == "/e[1]/e[1]/e[2]" and t.find("/e/e/e[2]") == 3 and t.ancestors(3) == [1, 0]
    assert t.by_span(0, 40) == 1 and t.by_span(1, 2) is None
    with pytest.raises(ValueError, match="not inside the root"):
        tree_from_spans("d", [(0, 10), (5, 20)])
