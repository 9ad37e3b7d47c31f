"""Document measures (docs/reference.md section 4): the paper's numbers (section 11), hand-worked
cases in every reading mode, and property tests against the per-character reference."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction as Fr

import numpy as np
import pytest
from hypothesis import given, settings

from readsim.operations.article_reading import panel_scores
from readsim.core import docmeasures as dm
from readsim.core import intervals as iv
from readsim.core.doc_evaluation import Settings, evaluate_document
from readsim.core.measure import parse_measure
from readsim.core.reading import Piece

from .reference import ReferenceDoc
from .strategies import cases


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def spans(*pairs):
    return iv.normalize(pairs)


# == docs/reference.md section 11: the 55-character mini article (Arvola et al. 2010, section 4.1) ==========
# "relevant content is in bold" (1..27), a line break (28), "and retrieved is underlined" (29..55).
# Relevant 1..27 (1-based) = [0, 27) 0-based.
MINI_R = spans((0, 27))


def test_paper_retrieved_33_to_55():
    # retrieved 33..55 = [32, 55): order <33..55, 1..32>
    doc = evaluate_document(MINI_R, spans((32, 55)), 55, "natural")
    assert doc.pieces == (Piece(32, 55, False), Piece(0, 27, True), Piece(27, 32, False))
    # 23 non-relevant first, then the j-th relevant character is read at i = 23 + j:
    # aveChP = (1/27) sum_{j=1..27} j / (23 + j) = 0.3484...
    hand = sum(Fr(j, 23 + j) for j in range(1, 28)) / 27
    assert close(doc.ave_chp(), float(hand))
    assert doc.ave_chp() == pytest.approx(0.3484, abs=5e-5)
    assert round(doc.ave_chp(), 2) == 0.35
    # R n T is empty: P = R = F1 = 0
    assert doc.set_scores(1.0) == (0.0, 0.0, 0.0)
    assert doc.first_relevant() == 24


def test_paper_whole_article_retrieved():
    # whole article: document order, the 27 relevant characters first: P(i) = 1 at each
    for retrieved in (None, spans((0, 55))):
        doc = evaluate_document(MINI_R, retrieved, 55, "natural")
        assert doc.pieces == (Piece(0, 27, True), Piece(27, 55, False))
        assert doc.ave_chp() == 1.0
        # P = 27/55, R = 1, F1 = 2PR/(P+R) = (54/55)/(82/55) = 27/41 = 0.6585...
        p, r, f = doc.set_scores(1.0)
        assert close(p, 27 / 55) and r == 1.0
        assert close(f, 27 / 41)
        assert round(f, 2) == 0.66


def test_paper_retrieved_24_to_45():
    # retrieved 24..45 = [23, 45): order <24..45, 1..23, 46..55>
    doc = evaluate_document(MINI_R, spans((23, 45)), 55, "natural")
    assert doc.pieces == (Piece(23, 27, True), Piece(27, 45, False), Piece(0, 23, True), Piece(45, 55, False))
    # chain: 4 relevant (P = 1 each), 18 non-relevant; then the j-th of 23 relevant at
    # i = 22 + j with 4 + j relevant read: aveChP = (4 + sum_{j=1..23} (4+j)/(22+j)) / 27
    hand = (4 + sum(Fr(4 + j, 22 + j) for j in range(1, 24))) / 27
    assert close(doc.ave_chp(), float(hand))
    assert doc.ave_chp() == pytest.approx(0.5306, abs=5e-5)
    # |R n T| = 4, |T| = 22: P = 4/22, R = 4/27, F1 = 2*4/(22+27) = 8/49 = 0.1633
    p, r, f = doc.set_scores(1.0)
    assert close(p, 4 / 22) and close(r, 4 / 27)
    assert close(f, 8 / 49)
    assert f == pytest.approx(0.1633, abs=5e-5)


# == hand-worked: n = 10, R = [2,4) u [7,9) (NRC 4), T = [6,8) ==============================
# positions 0 1 2 3 4 5 6 7 8 9; relevant 2 3 7 8; retrieved 6 7.
# reading orders (test_reading.py) and their relevance flags (r = relevant, n = not):
#   natural  6 7 0 1 2 3 4 5 8 9   n r n n r r n n r n   relevant at i = 2, 5, 6, 9
#   worst    6 7 0 1 4 5 9 2 3 8   n r n n n n n r r r   relevant at i = 2, 8, 9, 10
#   best     6 7 2 3 8 0 1 4 5 9   n r r r r n n n n n   relevant at i = 2, 3, 4, 5
#   document 0 1 2 3 4 5 6 7 8 9   n n r r n n n r r n   relevant at i = 3, 4, 8, 9
#   entry 7  7 8 9 0 1 2 3 4 5 6   r r n n n r r n n n   relevant at i = 1, 2, 6, 7
R10 = spans((2, 4), (7, 9))
T10 = spans((6, 8))

HAND = {
    # aveChP = (1/4) sum P(i) over the relevant i
    #   natural: 1/2 + 2/5 + 3/6 + 4/9 = 83/45          -> 83/180
    #   worst:   1/2 + 2/8 + 3/9 + 4/10 = 89/60         -> 89/240
    #   best:    1/2 + 2/3 + 3/4 + 4/5 = 163/60         -> 163/240
    #   document 1/3 + 2/4 + 3/8 + 4/9 = 119/72         -> 119/288
    #   entry:   1/1 + 2/2 + 3/6 + 4/7 = 43/14          -> 43/56
    # ChP@5 / ChR@5: relevant among the first 5 read: natural 2, worst 1, best 4, document 2, entry 2
    # T2I(3): stop after the 3rd non-relevant character read:
    #   natural n r n n -> m 4, rel 1; worst the same; best n r r r r n n -> m 7, rel 4;
    #   document n n r r n -> m 5, rel 2; entry r r n n n -> m 5, rel 2
    # first relevant f, LE(1) = f capped at 4, LE(2) = ceil(f/2)
    "natural": dict(ave=Fr(83, 180), chp5=Fr(2, 5), chr5=Fr(2, 4), m=4, rel=1, f=2),
    "worst": dict(ave=Fr(89, 240), chp5=Fr(1, 5), chr5=Fr(1, 4), m=4, rel=1, f=2),
    "best": dict(ave=Fr(163, 240), chp5=Fr(4, 5), chr5=Fr(4, 4), m=7, rel=4, f=2),
    "document": dict(ave=Fr(119, 288), chp5=Fr(2, 5), chr5=Fr(2, 4), m=5, rel=2, f=3),
    "entry": dict(ave=Fr(43, 56), chp5=Fr(2, 5), chr5=Fr(2, 4), m=5, rel=2, f=1),
}


@pytest.mark.parametrize("mode", list(HAND))
def test_hand_worked_every_mode(mode):
    h = HAND[mode]
    doc = evaluate_document(R10, T10, 10, mode, entry=7)
    assert doc.n == 10 and doc.nrc == 4
    assert close(doc.ave_chp(), float(h["ave"]))
    assert close(doc.chp_at(5), float(h["chp5"]))
    assert close(doc.chr_at(5), float(h["chr5"]))
    # k past the end: ChP@20 = 4 relevant / min(20, 10) = 0.4; ChR@20 = 1
    assert close(doc.chp_at(20), 0.4) and doc.chr_at(20) == 1.0
    # T2I(3): P = rel/m, R = rel/4, F1 = 2PR/(P+R)
    p, r = Fr(h["rel"], h["m"]), Fr(h["rel"], 4)
    assert doc.t2i_stop(3) == h["m"]
    got = doc.t2i(3)
    assert close(got[0], float(p)) and close(got[1], float(r))
    assert close(got[2], float(2 * p * r / (p + r)))
    # alpha 0.5: F = 1.25 P R / (0.25 P + R)
    assert close(doc.t2i(3, 0.5)[2], float(Fr(5, 4) * p * r / (Fr(1, 4) * p + r)))
    # T2I(100): never reaches 100 non-relevant, reads all 10: P = 4/10, R = 1
    assert doc.t2i_stop(100) == 10
    assert close(doc.t2i(100)[0], 0.4) and doc.t2i(100)[1] == 1.0
    # LE / ES: screen 1 -> min(f, 4); screen 2 -> ceil(f / 2)
    assert doc.first_relevant() == h["f"]
    assert doc.le(1) == doc.es(1) == min(h["f"], 4)
    assert doc.le(2) == doc.es(2) == -(-h["f"] // 2)
    # set-based, independent of the reading mode: |R n T| = 1 (position 7), |T| = 2:
    # P = 1/2, R = 1/4; F(0.25) = (17/16)(1/8) / ((1/16)(1/2) + 1/4) = 17/36; F1 = (1/4)/(3/4) = 1/3
    p_set, r_set, f_set = doc.set_scores()
    assert (p_set, r_set) == (0.5, 0.25)
    assert close(f_set, 17 / 36)
    assert close(doc.set_scores(1.0)[2], 1 / 3)


def test_hand_worked_natural_t2i_small_tolerances():
    doc = evaluate_document(R10, T10, 10, "natural")
    # tolerance 1: stops right after the first character (non-relevant): m 1, rel 0 -> all 0
    assert doc.t2i_stop(1) == 1
    assert doc.t2i(1) == (0.0, 0.0, 0.0)
    # tolerance 2: n r n -> m 3, rel 1: P = 1/3, R = 1/4, F1 = (2/12)/(7/12) = 2/7
    assert doc.t2i_stop(2) == 3
    p, r, f = doc.t2i(2)
    assert close(p, 1 / 3) and close(r, 1 / 4) and close(f, 2 / 7)


# LE with a long non-relevant lead: n = 20, R = [15, 20), T = [0, 2) (non-relevant)
# natural/worst/document: 15 non-relevant characters first -> f = 16; best: chain 0,1 then
# the relevant rest -> f = 3; entry 10: 10..14 non-relevant -> f = 6; entry 17 -> f = 1.
@pytest.mark.parametrize(
    "mode, entry, screen, levels, expected",
    [
        ("natural", 0, 3, 4, 4),    # 16 > 3*3 = 9 -> capped at L = 4
        ("natural", 0, 4, 4, 4),    # 16 <= 4*4 -> 4
        ("natural", 0, 5, 4, 4),    # 16 > 15 -> capped at 4
        ("natural", 0, 6, 4, 3),    # 12 < 16 <= 18 -> 3
        ("worst", 0, 8, 4, 2),      # 8 < 16 <= 16 -> 2
        ("document", 0, 16, 4, 1),  # 16 <= 16 -> 1
        ("document", 0, 6, 2, 2),   # L = 2: capped at 2
        ("best", 0, 2, 4, 2),       # f = 3: 2 < 3 <= 4 -> 2
        ("entry", 10, 5, 4, 2),     # f = 6: 5 < 6 <= 10 -> 2
        ("entry", 17, 1, 4, 1),     # f = 1
    ],
)
def test_localizing_effort_levels(mode, entry, screen, levels, expected):
    doc = evaluate_document(spans((15, 20)), spans((0, 2)), 20, mode, entry)
    assert doc.le(screen, levels) == expected
    assert doc.es(screen, levels) == expected


def test_non_relevant_article_scores_zero_and_es_nr():
    for mode in ("natural", "worst", "best", "document", "entry"):
        doc = evaluate_document(iv.EMPTY, spans((2, 5)), 10, mode, 4)
        assert doc.nrc == 0 and not doc.is_relevant
        assert doc.ave_chp() == 0.0
        assert doc.chp_at(5) == 0.0 and doc.chr_at(5) == 0.0
        assert doc.t2i(3) == (0.0, 0.0, 0.0)
        assert doc.set_scores() == (0.0, 0.0, 0.0)
        assert doc.first_relevant() is None
        # NR = L + 1
        assert doc.le(300) == 5 and doc.es(300) == 5
        assert doc.es(300, levels=3) == 4


def test_relevant_passages_past_doc_length_are_clipped():
    # R = [8, 15) with doc_length 10 -> R = [8, 10), NRC 2
    doc = evaluate_document(spans((8, 15)), None, 10, "natural")
    assert doc.nrc == 2 and doc.n == 10
    # document order: relevant at i = 9, 10: aveChP = (1/9 + 2/10)/2 = (14/45)/2 = 7/45
    assert close(doc.ave_chp(), 7 / 45)


def test_retrieved_past_doc_length_read_as_non_relevant():
    # doc_length 10, R = [2,4) u [7,9), T = [8, 14): n grows to 14
    # natural order 8 9 10 11 12 13 | 0 1 2 3 4 5 6 7
    #   flags       r n n  n  n  n  | n n r r n n n r   relevant at i = 1, 9, 10, 14
    doc = evaluate_document(R10, spans((8, 14)), 10, "natural")
    assert doc.n == 14
    # aveChP = (1/1 + 2/9 + 3/10 + 4/14) / 4 = (630 + 140 + 189 + 180)/630 / 4 = 1139/2520
    assert close(doc.ave_chp(), 1139 / 2520)
    # ChP@20 = 4 / min(20, 14) = 2/7
    assert close(doc.chp_at(20), 2 / 7)
    # T2I(5): r n n n n n -> m 6, rel 1: P = 1/6, R = 1/4
    assert doc.t2i_stop(5) == 6
    assert close(doc.t2i(5)[0], 1 / 6) and close(doc.t2i(5)[1], 1 / 4)
    # set: |T| = 6, |R n T| = 1 (position 8): P = 1/6, R = 1/4
    p, r, _ = doc.set_scores()
    assert close(p, 1 / 6) and close(r, 1 / 4)
    # with the article's text length known (12), T is clipped to [8, 12): n = 12
    doc12 = evaluate_document(R10, spans((8, 14)), 10, "natural", text_length=12)
    assert doc12.n == 12
    assert close(doc12.set_scores()[0], 1 / 4)


def test_whole_article_result():
    # retrieved None: T = [0, n); document order 0..9, relevant at i = 3, 4, 8, 9
    doc = evaluate_document(R10, None, 10, "natural")
    assert doc.retrieved is None and doc.n == 10
    assert doc.chain_length == 10 and doc.retrieved_size == 10
    assert close(doc.ave_chp(), 119 / 288)
    # P = 4/10, R = 1; F(0.25) = (17/16)(2/5) / ((1/16)(2/5) + 1) = 34/82 = 17/41
    p, r, f = doc.set_scores()
    assert close(p, 0.4) and r == 1.0 and close(f, 17 / 41)
    assert doc.le(2) == 2  # f = 3


def test_panel_scores_by_name():
    # natural, n = 10 case above with screen 5, tolerance 3, alpha 1, beta 0.25
    doc = evaluate_document(R10, T10, 10, "natural")
    s = Settings(screen=5, tolerance=3)
    got = panel_scores(doc, s)
    expected = {
        "aveChP": 83 / 180, "ChP@5": 2 / 5, "ChR@5": 2 / 4,
        "T2IP(3)": 1 / 4, "T2IR(3)": 1 / 4, "T2IF(3)": 1 / 4,
        "LE(5)": 1.0, "ES(5)": 1.0, "P_set": 0.5, "R_set": 0.25, "F(0.25)": 17 / 36,
    }
    assert list(got) == list(expected)
    for name, value in expected.items():
        assert close(got[name], value), name
    got = panel_scores(doc, replace(s, alpha=0.5, beta=1.0))
    assert "T2IF(3,0.5)" in got and "F(1)" in got
    # alpha 0.5 with P = R = 1/4: F = P = 1/4
    assert close(got["T2IF(3,0.5)"], 1 / 4) and close(got["F(1)"], 1 / 3)


def test_panel_scores_use_the_levels_setting():
    # n = 20, R = [15, 20), natural: f = 16; screen 3, L = 2 -> LE = 2 (not 4)
    doc = evaluate_document(spans((15, 20)), spans((0, 2)), 20, "natural")
    got = panel_scores(doc, Settings(screen=3, levels=2))
    assert got["LE(3)"] == 2.0 and got["ES(3)"] == 2.0
    non = evaluate_document(iv.EMPTY, None, 20, "natural")
    assert panel_scores(non, Settings(levels=2))["ES(300)"] == 3.0  # NR = L + 1


def test_bad_parameters():
    pieces = evaluate_document(R10, T10, 10).pieces
    with pytest.raises(ValueError):
        dm.t2i_stop(pieces, 0)
    with pytest.raises(ValueError):
        dm.localizing_effort(pieces, 0)
    assert dm.f_score(0.0, 0.0, 0.25) == 0.0


def test_precision_curve_hand_worked():
    # natural order flags n r n n r r n n r n: after x = 2 read, P = 1/2; x = 6: 3/6; x = 10: 4/10
    x, p, r = evaluate_document(R10, T10, 10).curve(samples=10)
    assert list(x) == list(range(1, 11))
    assert close(p[1], 0.5) and close(p[5], 0.5) and close(p[9], 0.4)
    assert close(r[5], 0.75) and r[9] == 1.0


def test_harmonic_diff_hand_values():
    assert dm.harmonic_diff(0, 1) == 1.0
    assert close(dm.harmonic_diff(0, 4), 25 / 12)  # 1 + 1/2 + 1/3 + 1/4
    assert dm.harmonic_diff(5, 5) == 0.0 and dm.harmonic_diff(7, 3) == 0.0


# == properties: every measure, every mode, against the per-character reference ==========
def arrays(c):
    rel = np.asarray(c["relevant"], dtype=np.int64).reshape(-1, 2)
    ret = None if c["retrieved"] is None else np.asarray(c["retrieved"], dtype=np.int64).reshape(-1, 2)
    return rel, ret


@settings(max_examples=300, deadline=None)
@given(cases())
def test_every_measure_matches_the_reference(c):
    rel, ret = arrays(c)
    doc = evaluate_document(rel, ret, c["doc_length"], c["mode"], c["entry"])
    ref = ReferenceDoc(c["doc_length"], c["relevant"], c["retrieved"], c["mode"], c["entry"])
    k, t, s, L = c["k"], c["tolerance"], c["screen"], c["levels"]
    assert doc.n == ref.n and doc.nrc == ref.nrc
    assert close(doc.ave_chp(), ref.ave_chp())
    assert close(doc.chp_at(k), ref.chp_at(k))
    assert close(doc.chr_at(k), ref.chr_at(k))
    assert doc.t2i_stop(t) == ref.t2i_stop(t)[0]
    assert dm.t2i_stop(doc.pieces, t) == ref.t2i_stop(t)
    for got, want in zip(doc.t2i(t, c["alpha"]), ref.t2i(t, c["alpha"])):
        assert close(got, want)
    assert doc.first_relevant() == ref.first_relevant()
    assert doc.le(s, L) == ref.le(s, L)
    assert doc.es(s, L) == ref.es(s, L)
    for got, want in zip(doc.set_scores(c["beta"]), ref.set_scores(c["beta"])):
        assert close(got, want)
    # the panel, by canonical name, parsed back to its parameters
    st = Settings(mode=c["mode"], screen=s, tolerance=t, alpha=c["alpha"], beta=c["beta"], levels=L, entry=c["entry"])
    for name, value in panel_scores(doc, st).items():
        m = parse_measure(name)
        want = ref.value(m.kind, m.k, m.weight, L)
        assert close(value, want), name


@settings(max_examples=150, deadline=None)
@given(cases())
def test_precision_curve_matches_the_reference(c):
    rel, ret = arrays(c)
    doc = evaluate_document(rel, ret, c["doc_length"], c["mode"], c["entry"])
    ref = ReferenceDoc(c["doc_length"], c["relevant"], c["retrieved"], c["mode"], c["entry"])
    x, p, r = doc.curve(samples=c["screen"])
    assert len(x) == len(p) == len(r)
    if ref.n == 0:
        assert len(x) == 0
        return
    assert x[0] == 1 and x[-1] == ref.n and np.all(np.diff(x) > 0)
    for xi, pi, ri in zip(x.astype(int), p, r):
        want_p, want_r = ref.precision_recall_at(int(xi))
        assert close(pi, want_p) and close(ri, want_r)


@settings(max_examples=200, deadline=None)
@given(cases(max_length=3000))
def test_measures_on_longer_articles(c):
    # fewer, longer articles: the harmonic-number closed form far past its exact table
    rel, ret = arrays(c)
    doc = evaluate_document(rel, ret, c["doc_length"], c["mode"], c["entry"])
    ref = ReferenceDoc(c["doc_length"], c["relevant"], c["retrieved"], c["mode"], c["entry"])
    assert close(doc.ave_chp(), ref.ave_chp())
    assert close(doc.chp_at(c["k"]), ref.chp_at(c["k"]))
    assert doc.t2i_stop(c["tolerance"]) == ref.t2i_stop(c["tolerance"])[0]
    assert doc.es(c["screen"], c["levels"]) == ref.es(c["screen"], c["levels"])
