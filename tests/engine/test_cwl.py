"""The reader as C/W/L and U, TBG over characters (reference 5.15, 5.16): hand-worked cases,
a per-character reference, and cwl-eval's own arithmetic."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readsim.core import cwl
from readsim.core.cwl import CwlMetric
from readsim.core.reading import Piece

# Two articles read: article 1 reads 3 non-relevant positions then 2 relevant ones, article 2
# two relevant ones. On the trail the relevant positions have p = 3, 4, 5, 6 read before them.
TRAIL = [(Piece(0, 3, False), Piece(3, 5, True)), (Piece(10, 12, True),)]


def test_u_over_characters_by_hand():
    # L = 10: (1 - 3/10) + (1 - 4/10) + (1 - 5/10) + (1 - 6/10) = 0.7 + 0.6 + 0.5 + 0.4 = 2.2
    assert cwl.u_chars(TRAIL, 10) == pytest.approx(2.2)
    # L = 5: 0.4 + 0.2 + 0 + 0 (p = 5 and 6 are past L)
    assert cwl.u_chars(TRAIL, 5) == pytest.approx(0.6)
    # L = 3: every relevant position is at or past L
    assert cwl.u_chars(TRAIL, 3) == 0.0


def test_tbg_over_characters_by_hand():
    # H = 1: 2^-3 + 2^-4 + 2^-5 + 2^-6 = 0.125 + 0.0625 + 0.03125 + 0.015625
    assert cwl.tbg_chars(TRAIL, 1) == pytest.approx(0.234375)
    # H = 2: 2^-1.5 + 2^-2 + 2^-2.5 + 2^-3 = 0.3535534 + 0.25 + 0.1767767 + 0.125
    assert cwl.tbg_chars(TRAIL, 2) == pytest.approx(0.9053301, abs=1e-7)
    # within article 1, its relevant positions have q = 3, 4 before them: 2^-3 + 2^-4 with H = 1
    assert cwl.tbg_gains(TRAIL, 1).tolist() == pytest.approx([0.1875, 1.5])


def test_bad_parameters_are_value_errors():
    with pytest.raises(ValueError, match="L must be >= 1"):
        cwl.u_chars(TRAIL, 0)
    with pytest.raises(ValueError, match="H must be >= 1"):
        cwl.tbg_chars(TRAIL, 0)
    with pytest.raises(ValueError, match="tolerance must be >= 1"):
        cwl.read_part((Piece(0, 4, False),), 0)


def test_read_part_stops_at_the_t2i_stop():
    # 2 non-relevant, 4 relevant, then the 3rd non-relevant position is the tolerance's: m = 7
    pieces = (Piece(0, 2, False), Piece(2, 6, True), Piece(6, 10, False))
    read = cwl.read_part(pieces, 3)
    assert read == (Piece(0, 2, False), Piece(2, 6, True), Piece(6, 7, False))
    gain, cost = cwl.gains_costs([read, ()])
    assert gain.tolist() == [4, 0] and cost.tolist() == [7, 0]
    assert cwl.read_part(pieces, 100) == pieces  # never stopped: the whole reading order


def test_u_projection_by_hand():
    # gains 2, 0, 1, costs 2, 3, 1, L = 4, depth 4: costs padded to 2, 3, 1, 1, starts 0, 2, 5, 6;
    # D = 1, 0.5, 0, (last item) 0 -> W = 2/3, 1/3, 0, 0; C = 0.5, 0, 0, 0; L = 0.5, 0.5, 0, 0
    v = cwl.view(CwlMetric("U", 4), np.array([2, 0, 1]), np.array([2, 3, 1]), 4)
    assert v.W.tolist() == pytest.approx([2 / 3, 1 / 3, 0, 0])
    assert v.C.tolist() == pytest.approx([0.5, 0, 0, 0])
    assert v.L.tolist() == pytest.approx([0.5, 0.5, 0, 0])
    assert v.EU == pytest.approx(4 / 3)  # 2/3 * 2
    assert v.ETU == pytest.approx(2.0)  # 0.5 * 2 + 0.5 * (2 + 0) = sum g D(P) = 2 * 1
    assert v.EC == pytest.approx(7 / 3)  # 2/3 * 2 + 1/3 * 3
    assert v.ETC == pytest.approx(3.5)  # 0.5 * 2 + 0.5 * 5
    assert v.ED == pytest.approx(1.5)


def test_tbg_projection_by_hand():
    # gains 1, 1, costs 1, 1, H = 1, depth 2: W proportional to 2^0, 2^-1 -> 2/3, 1/3; C = 0.5, 0
    v = cwl.view(CwlMetric("TBG", 1), np.array([1, 1]), np.array([1, 1]), 2)
    assert (v.EU, v.ETU, v.EC, v.ETC, v.ED) == pytest.approx((1.0, 1.5, 1.0, 1.5, 1.5))
    assert CwlMetric("TBG", 1).name == "TBG-H@1 " and CwlMetric("U", 9).cwl_eval_line == "UMeasureCWLMetric(9)"


def test_continuation_is_a_step_per_piece():
    x, y = cwl.continuation(TRAIL, CwlMetric("U", 10))
    assert x.tolist() == [0, 3, 5] and y.tolist() == pytest.approx([1.0, 0.7, 0.5])


# -- against a per-character reference and cwl-eval's own classes -----------------------------

articles = st.lists(st.lists(st.tuples(st.integers(1, 12), st.booleans()), max_size=4), min_size=1, max_size=6)


def _trail(spec):
    out = []
    for art in spec:
        pos, pieces = 0, []
        for length, rel in art:
            pieces.append(Piece(pos, pos + length, rel))
            pos += length
        out.append(tuple(pieces))
    return out


def _relevant_positions(trail):
    p = 0
    for pieces in trail:
        for piece in pieces:
            for _ in range(piece.length):
                if piece.relevant:
                    yield p
                p += 1


@settings(max_examples=150, deadline=None)
@given(articles, st.integers(1, 60), st.integers(1, 40))
def test_closed_forms_are_the_per_character_sums(spec, L, H):
    trail = _trail(spec)
    ps = list(_relevant_positions(trail))
    assert cwl.u_chars(trail, L) == pytest.approx(math.fsum(max(0.0, 1 - p / L) for p in ps), abs=1e-9)
    assert cwl.tbg_chars(trail, H) == pytest.approx(math.fsum(2.0 ** (-p / H) for p in ps), abs=1e-9)
    gain, cost = cwl.gains_costs(trail)
    depth = len(trail) + 1
    # ETU: U's is sum g_k D(P_k) (gain at each article's start); TBG's with the within-article
    # gains is TBG over characters exactly
    starts = np.concatenate([[0], np.cumsum(cost)[:-1]])
    u_doc = float(np.sum(gain * np.maximum(0.0, 1 - starts / L)))
    assert cwl.view(CwlMetric("U", L), gain, cost, depth).ETU == pytest.approx(u_doc, abs=1e-9)
    etu = cwl.view(CwlMetric("TBG", H), cwl.tbg_gains(trail, H), cost, depth).ETU
    assert etu == pytest.approx(cwl.tbg_chars(trail, H), rel=1e-9, abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(articles, st.integers(1, 60), st.integers(1, 40))
def test_the_view_is_cwl_evals(spec, L, H):
    ranking_module = pytest.importorskip("cwl.ruler.ranking")
    from cwl.ruler.measures.cwl_tbg import TBGCWLMetric
    from cwl.ruler.measures.cwl_umeasure import UMeasureCWLMetric

    gain, cost = cwl.gains_costs(_trail(spec))
    depth = len(gain) + 3
    ranking = ranking_module.Ranking("t", gain.astype(float), cost.astype(float), max_gain=1e9, max_n=depth)
    for theirs, ours in ((UMeasureCWLMetric(L), CwlMetric("U", L)), (TBGCWLMetric(H), CwlMetric("TBG", H))):
        theirs.measure(ranking)
        v = cwl.view(ours, gain, cost, depth)
        assert [v.EU, v.ETU, v.EC, v.ETC, v.ED] == pytest.approx(theirs.get_scores(), rel=1e-9, abs=1e-9)
        assert theirs.name() == ours.name


def test_a_ranking_of_scores_alone_is_refused_and_topic_ranking_fills_the_reads():
    from readsim.core.doc_evaluation import evaluate_document
    from readsim.core.formats import Judgement
    from readsim.core.listmeasures import Ranking
    from readsim.core.measure import parse_list_measure
    from readsim.operations.evaluate import topic_ranking

    u = parse_list_measure("U@10/T2IP(2)")
    bare = Ranking("t", ["a"], np.array([True]), np.array([4]), {u.doc: np.array([1.0])}, 1, 4)
    with pytest.raises(ValueError, match="need every ranked article's reading"):
        bare.value(u)
    # article a: relevant [2, 6) of 10, nothing retrieved: the natural order reads [0, 10) from 0.
    # T2I(2) stops right after [0, 2): no gain. T2I(3) reads [0, 2), [2, 6), then one more: the
    # relevant positions have p = 2 .. 5 before them: U@10 = 0.8 + 0.7 + 0.6 + 0.5 = 2.6
    doc = evaluate_document(np.array([[2, 6]]), np.zeros((0, 2), dtype=np.int64), 10)
    judged = {"a": Judgement("t", "a", 4, 10, None, np.array([[2, 6]]), 1)}
    ranking = topic_ranking("t", judged, ["a"], [doc], [u.doc, parse_list_measure("U@10/T2IP(3)").doc])
    assert ranking.value(u) == 0.0
    assert ranking.value(parse_list_measure("U@10/T2IP(3)")) == pytest.approx(2.6)
