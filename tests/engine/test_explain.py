"""Explanations of document measures (engine/core/explain.py, reference §4): worked by hand on the
paper's mini document and small articles, a property (the total is the score) on random
articles in every reading mode, and on the real INEX data every document measure of every
relevant article the real runs rank, against the column-wise scores of
:func:`readsim.core.listmeasures.rank_topics`. No expected number is copied from the code under test."""

from __future__ import annotations

import html
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readsim.core import intervals as iv
from readsim.core import listmeasures as lm
from readsim.core.run_columns import gather, joined
from readsim.core.doc_evaluation import DocumentEvaluation, evaluate_document, evaluate_documents
from readsim.core.explain import Explanation, explain
from readsim.core.formats import read_qrels, read_run
from readsim.core.measure import DocMeasure, parse_measure
from readsim.core.reading import Mode

from .strategies import cases

TOLERANCE = 1e-12

# [Arvola 2010], section 4.1, Table 1 (reference §11): 55 characters, relevant 1..27 (1-based)
MINI_RELEVANT = [(0, 27)]


def mini(retrieved, mode="natural") -> DocumentEvaluation:
    return evaluate_document(np.array(MINI_RELEVANT), None if retrieved is None else np.array(retrieved), 55, mode)


def spans(term) -> list[list[int]]:
    return term.spans.tolist()


def f_beta(p: float, r: float, b: float) -> float:
    return (1 + b * b) * p * r / (b * b * p + r)


# -- aveChP (§4.1) -------------------------------------------------------------------------------
def test_ave_chp_of_the_papers_mini_document_retrieved_24_to_45():
    # natural order <24..45, 1..23, 46..55>: relevant pieces 24..27 (read 1st..4th, nothing
    # before) and 1..23 (read 23rd..45th, 4 of the 22 read before relevant)
    e = explain("aveChP", mini([(23, 45)]))
    first, second, nrc = e.terms
    assert first.value == 4.0 and spans(first) == [[23, 27]]
    assert second.value == pytest.approx(sum((4 + j) / (22 + j) for j in range(1, 24)), abs=TOLERANCE)
    assert spans(second) == [[0, 23]]
    assert nrc.symbol == "NRC" and nrc.value == 27 and spans(nrc) == [[0, 27]]
    assert e.total == pytest.approx((4 + sum((4 + j) / (22 + j) for j in range(1, 24))) / 27, abs=TOLERANCE)
    assert round(e.total, 2) == 0.53  # the paper's value
    assert e.reference == "4.1" and e.measure == "aveChP" and "(1 / 27)" in e.substituted


def test_ave_chp_of_the_mini_document_retrieved_33_to_55():
    # <33..55, 1..32>: one relevant piece 1..27, read 24th..50th after 23 non-relevant
    e = explain(DocMeasure("aveChP"), mini([(32, 55)]))
    assert [t.value for t in e.terms][1] == 27
    assert e.total == pytest.approx(sum(j / (23 + j) for j in range(1, 28)) / 27, abs=TOLERANCE)
    assert round(e.total, 2) == 0.35


# -- ChP@k, ChR@k (§4.2) -----------------------------------------------------------------------
def test_chp_and_chr_count_the_first_k_read():
    ev = mini([(23, 45)])
    e = explain("ChP@10", ev)  # 24..27 relevant, 28..33 not
    assert [t.value for t in e.terms] == [10, 4]
    assert spans(e.terms[0]) == [[23, 33]] and spans(e.terms[1]) == [[23, 27]]
    assert e.total == 4 / 10
    e = explain("ChR@30", ev)  # 24..45 (4 relevant), then 1..8 (relevant)
    read, rel, nrc = e.terms
    assert (read.value, rel.value, nrc.value) == (30, 12, 27)
    assert spans(read) == [[0, 8], [23, 45]] and spans(rel) == [[0, 8], [23, 27]]
    assert e.total == 12 / 27
    assert explain("ChP@1000", ev).terms[0].value == 55  # min(k, n)


# -- T2I (§4.3) --------------------------------------------------------------------------------
def test_t2i_stops_after_the_t_th_non_relevant_character():
    ev = mini([(23, 45)])
    # t = 5: 24..27 relevant, 28..32 the five non-relevant: m = 9
    e = explain("T2IF(5)", ev)
    read, rel, non, nrc, p, r = e.terms
    assert (read.value, rel.value, non.value, nrc.value) == (9, 4, 5, 27)
    assert spans(read) == [[23, 32]] and spans(non) == [[27, 32]]
    assert (p.value, r.value) == (4 / 9, 4 / 27)
    assert e.total == pytest.approx(2 / 9, abs=TOLERANCE)  # 2 PR / (P + R) with P = 4/9, R = 4/27
    assert "stops once it has read t = 5 non-relevant characters, at reading position 9" in e.note
    # t = 20: 18 non-relevant in the chain, 1..23 relevant, then 46 and 47: m = 4 + 18 + 23 + 2
    e = explain("T2IP(20)", ev)
    assert e.terms[0].value == 47 and spans(e.terms[0]) == [[0, 47]]
    assert e.total == 27 / 47
    assert explain("T2IR(20)", ev).total == 1.0
    # t = 100 is never reached (28 non-relevant in all): the reader reads to the end
    e = explain("T2IF(100,0.5)", ev)
    assert e.terms[0].value == 55 and "reads to the end" in e.note
    assert e.total == pytest.approx(f_beta(27 / 55, 1.0, 0.5), abs=TOLERANCE)


# -- LE, ES (§4.4, §4.5) ---------------------------------------------------------------------
def test_le_counts_the_screens_before_the_first_relevant_character():
    ev = mini([(32, 55)])  # <33..55, 1..32>: 23 non-relevant first, f = 24
    e = explain("LE(10)", ev)
    f, before, s, screens, levels = e.terms
    assert f.value == 24 and spans(f) == [[0, 1]]
    assert before.value == 23 and spans(before) == [[32, 55]]
    assert screens.value == 3 and spans(screens) == [[0, 7], [32, 55]]  # 3 screens of 10
    assert (s.value, levels.value) == (10, 4)
    assert e.total == 3
    assert explain("LE(5)", ev).total == 4  # ceil(24 / 5) = 5, capped at L = 4
    assert explain("ES(24)", ev).total == 1
    assert explain("LE(5)", ev, levels=6).total == 5


def test_a_non_relevant_article_scores_nr_and_zero():
    ev = evaluate_document(iv.EMPTY, np.array([(0, 10)]), 40)
    for name in ("LE(300)", "ES(300)"):
        e = explain(name, ev, levels=3)
        assert e.total == 4 and e.term("L").value == 3 and "not relevant" in e.note
    for name in ("aveChP", "ChP@5", "T2IF(3)", "P_set", "F(0.25)"):
        e = explain(name, ev)
        assert e.total == 0.0 and e.term("NRC").value == 0


# -- set-based P, R, F (§4.6) --------------------------------------------------------------------
def test_set_based_scores_of_the_mini_document():
    ev = mini([(23, 45)])
    e = explain("F(1)", ev)
    t, rt, r, p_set, r_set = e.terms
    assert (t.value, rt.value, r.value) == (22, 4, 27)
    assert spans(t) == [[23, 45]] and spans(rt) == [[23, 27]] and spans(r) == [[0, 27]]
    assert e.total == pytest.approx(8 / 49, abs=TOLERANCE)  # the paper's 0.16
    assert explain("P_set", ev).total == 4 / 22 and explain("R_set", ev).total == 4 / 27
    assert explain("F(0.25)", ev).total == pytest.approx(f_beta(4 / 22, 4 / 27, 0.25), abs=TOLERANCE)
    whole = explain("F(1)", mini(None))  # retrieved whole: T = [0, 55)
    assert spans(whole.terms[0]) == [[0, 55]] and whole.total == pytest.approx(2 * 27 / 55 / (27 / 55 + 1))


# -- BEP (§4.7) -------------------------------------------------------------------------------
def test_bep_is_the_distance_between_the_entry_points():
    ev = mini([(23, 45)])
    e = explain("BEP(500)", ev, bep=10)  # the run's entry point: its first passage, 23
    best, run, gap, d = e.terms
    assert (best.value, run.value, gap.value, d.value) == (10, 23, 13, 500)
    assert spans(gap) == [[10, 23]] and spans(best) == [[10, 11]]
    assert e.total == (500 - 13) / 500
    assert explain("BEP(12)", ev, bep=10).total == 0.0  # 13 > 12
    assert explain("BEP(500)", ev, bep=10, entry=10).total == 1.0
    e = explain("BEP(500)", ev)
    assert e.total == 0.0 and "no best entry point" in e.note


def test_explain_refuses_what_is_not_a_document_measure():
    ev = mini([(23, 45)])
    for bad in ("AgP/F(0.25)", "MAP", "nonsense", "F(0)"):
        with pytest.raises(ValueError, match=r"AgP/F\(0\.25\)|MAP|nonsense|F\(0\)"):
            explain(bad, ev)
    with pytest.raises(ValueError, match="list measure"):
        explain(lm.ListMeasure("MAP"), ev)


def test_text_and_html_of_an_explanation():
    e = explain("T2IF(5)", mini([(23, 45)]), unit="bytes")
    assert isinstance(e, Explanation) and e.unit == "bytes"
    text = e.text()
    assert e.formula in text and e.substituted in text and "9 bytes" in text
    page = e._repr_html_()
    assert html.escape(e.substituted) in page and all(html.escape(t.label) in page for t in e.terms)
    assert explain("T2IF(5)", mini([(23, 45)]), unit="chars").unit == "characters"
    assert "9 characters" in explain("T2IF(5)", mini([(23, 45)])).text()


# -- the total is the score --------------------------------------------------------------------
COUNTS = ("NRC", "min(k, n)", "relevant read", "m", "non-relevant read", "f − 1", "|T|", "|R ∩ T|", "|R|")


def measures_of(c: dict) -> list[DocMeasure]:
    return [parse_measure(n) for n in (
        "aveChP", f"ChP@{c['k']}", f"ChR@{c['k']}", f"T2IP({c['tolerance']})", f"T2IR({c['tolerance']})",
        f"T2IF({c['tolerance']},{c['alpha']!r})", f"LE({c['screen']})", f"ES({c['screen']})", "P_set", "R_set",
        f"F({c['beta']!r})")]


@settings(max_examples=400, deadline=None)
@given(c=cases(), bep=st.none() | st.integers(0, 500))
def test_the_total_is_the_score_and_each_count_is_its_characters(c, bep):
    ev = evaluate_document(np.array(c["relevant"], dtype=np.int64).reshape(-1, 2),
                           None if c["retrieved"] is None else np.array(c["retrieved"], dtype=np.int64).reshape(-1, 2),
                           c["doc_length"], c["mode"], c["entry"])
    for m in measures_of(c):
        e = explain(m, ev, c["levels"])
        assert math.isclose(e.total, m.value(ev, c["levels"]), rel_tol=0, abs_tol=TOLERANCE), (m.name, e.text())
        for t in e.terms:
            assert t.spans.dtype == np.int64 and t.spans.shape[1:] == (2,)
            assert np.array_equal(t.spans, iv.normalize(t.spans))  # document order, disjoint
            if t.symbol in COUNTS:
                assert iv.total(t.spans) == t.value, (m.name, t.label)
    b = DocMeasure("BEP", 40)
    expected = lm.article_score(b, ev, _Judged(ev.is_relevant, bep), entry_point=None)
    assert explain(b, ev, bep=bep).total == expected


class _Judged:
    def __init__(self, relevant: bool, bep):
        self.relevant, self.bep = relevant, bep


# -- the real INEX data ------------------------------------------------------------------------
REAL_MEASURES = [parse_measure(n) for n in (
    "aveChP", "ChP@300", "ChR@300", "ChP@2000", "T2IP(300)", "T2IR(300)", "T2IF(300)", "T2IF(2000,0.5)",
    "LE(300)", "LE(2000)", "ES(300)", "P_set", "R_set", "F(0.25)", "F(1)", "BEP(500)")]


def real_articles(qrels, run, mode):
    """Every relevant ranked article of ``run``, column-wise: ``(topic, name, evaluation, bep,
    entry)`` built from one :func:`evaluate_documents` batch (the pieces of each article)."""
    jt = joined(qrels, run, list(run.topics))
    rc, qc, G, J = jt.run, jt.qrels, jt.groups, jt.judgement
    at = np.flatnonzero(J >= 0)
    at = at[qc.rel_size[J[at]] > 0]
    g, j = G[at], J[at]
    rel_ptr, rel_rows = gather(qc.pass_ptr, qc.passages, j)
    ret_ptr, ret_start = gather(rc.pass_ptr, rc.pass_start, g)
    ret_rows = np.column_stack([ret_start, gather(rc.pass_ptr, rc.pass_end, g)[1]])
    whole, entry, dl = rc.whole[g], np.maximum(rc.entry[g], 0), qc.doc_length[j]
    batch = evaluate_documents(dl, rel_ptr, rel_rows, ret_ptr, ret_rows, whole, mode, entry)
    topics = [jt.picked[k][0] for k in jt.topic_of[at]]
    names = rc.names(g)
    for a, pieces in enumerate(batch.pieces()):
        rel = iv.clip(rel_rows[rel_ptr[a]:rel_ptr[a + 1]], 0, int(dl[a]))
        ret = None if whole[a] else ret_rows[ret_ptr[a]:ret_ptr[a + 1]]
        ev = DocumentEvaluation(rel, ret, int(batch.n[a]), Mode(mode), pieces, int(entry[a]), int(dl[a]))
        yield topics[a], names[a], ev, int(qc.bep[j[a]]) if qc.has_bep[j[a]] else None, int(entry[a])


@pytest.mark.parametrize("name, mode, half", [
    ("bert-passages.run", "natural", None), ("bert-passages-map19.run", "natural", 0),
    ("bert-passages-map199.run", "natural", 1), ("indri-passages.run", "natural", None),
    ("indri-documents.run", "natural", None), ("bert-passages.run", "worst", 0), ("indri-passages.run", "entry", 1)])
def test_real_explanations_total_the_scores(inex, tmp_path, name, mode, half):
    """For every relevant article a real run ranks, every document measure's explanation totals
    its score as the list measures compute it (column-wise), to 1e-12: the five runs in the
    natural order (bert-passages' two remappings, map19 and map199, on half of their topics each:
    every other topic in the run's order, the other half for the other), and two runs in the
    worst-case and entry-point orders on half of their topics each."""
    qrels = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    path = inex / "runs" / name
    if half is not None:
        lines = path.read_bytes().splitlines(keepends=True)
        kept = set(list(dict.fromkeys(line.split(maxsplit=1)[0] for line in lines))[half::2])
        path = tmp_path / name
        path.write_bytes(b"".join(line for line in lines if line.split(maxsplit=1)[0] in kept))
    run = read_run(path)
    rankings = lm.rank_topics(qrels, run, REAL_MEASURES, mode)
    where = {t: {a: i for i, a in enumerate(r.articles)} for t, r in rankings.items()}
    count = 0
    for topic, article, ev, bep, entry in real_articles(qrels, run, mode):
        ranking = rankings[topic]
        i = where[topic][article]
        for m in REAL_MEASURES:
            e = explain(m, ev, bep=bep, entry=entry, unit="bytes")
            assert abs(e.total - ranking.scores[m][i]) <= TOLERANCE, (name, mode, topic, article, m.name, e.text())
        count += 1
    assert count > (3000 if half is None else 1400)  # every relevant ranked article: 3,285 or 3,298 per run


# -- readsim.ArticleEvaluation.explain ----------------------------------------------------------
def test_article_evaluation_explains_every_panel_measure_and_bep():
    import readsim

    s = readsim.sample()
    for run in s.runs:
        a = readsim.article(s.qrels, run, topic=s.topic, article="900001", collection=s.collection, screen=250)
        for name, score in a.scores.items():
            e = a.explain(name)
            assert e.measure == name and e.unit == "bytes"
            assert abs(e.total - score) <= TOLERANCE, (run.name, e.text())
        # the sample's qrels give 900001 the best entry point 414 (its sixth column)
        e = a.explain(DocMeasure("BEP", 2000))
        first = int(a.retrieved[0, 0]) if a.retrieved is not None else 0
        assert e.term("bep").value == 414 and e.term("entry").value == first
        assert e.total == max(0.0, (2000 - abs(414 - first)) / 2000)
    for bad in ("AgP/F(0.25)", "T2IF", 42):
        with pytest.raises(ValueError):
            a.explain(bad)


def test_article_evaluation_explains_a_real_article(inex):
    import readsim

    a = readsim.article(inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "bert-passages.run",
                        topic="2009074", article="23724", collection=inex / "articles")
    for name, score in a.scores.items():
        assert abs(a.explain(name).total - score) <= TOLERANCE
    e = a.explain("aveChP")  # one term per relevant piece read, then NRC = |R| of the qrels line
    assert e.term("NRC").value == iv.total(a.relevant) and len(e.terms) >= 2
