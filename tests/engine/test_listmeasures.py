"""Hand-worked tests of the list measures (docs/reference.md section 5), their names, and one test per
policy of readsim.core.listmeasures (numbered as in its docstring)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from readsim.core import doc_evaluation as document_module
from readsim.core import listmeasures as lm
from readsim.core.doc_evaluation import evaluate_document
from readsim.core.formats import read_qrels, read_run
from readsim.core.measure import (
    DocMeasure,
    ListMeasure,
    UnknownMeasure,
    official_measures,
    parse_any,
    parse_list_measure,
    parse_measure,
)

# A topic with Nrel = 3 relevant articles a, b, c (relevant sizes 100, 300, 600: Trel_size
# 1000); the run ranks a (S = 0.5), x (non-relevant), b (S = 1.0), y (non-relevant); c is missed.
S = np.array([0.5, 0.0, 1.0, 0.0])
REL = np.array([True, False, True, False])
RSIZE = np.array([100, 0, 300, 0])


def test_generalised_precision_and_recall_by_hand():
    # gP = <0.5/1, 0.5/2, 1.5/3, 1.5/4>; gR = <1/3, 1/3, 2/3, 2/3>
    assert lm.generalised_precision(S).tolist() == pytest.approx([0.5, 0.25, 0.5, 0.375])
    assert lm.generalised_recall(REL, 3).tolist() == pytest.approx([1 / 3, 1 / 3, 2 / 3, 2 / 3])
    assert lm.gp_at(S, 3) == pytest.approx(0.5)
    assert lm.gr_at(REL, 3, 2) == pytest.approx(1 / 3)


def test_agp_agp_prime_and_map_by_hand():
    # AgP = (gP[1] + gP[3]) / 3 = (0.5 + 0.5) / 3
    assert lm.agp(S, REL, 3) == pytest.approx(1 / 3)
    # AgP' = 100/1000 * 0.5 + 300/1000 * 0.5 (c, never ranked, adds nothing)
    assert lm.agp_prime(S, REL, RSIZE, 1000) == pytest.approx(0.2)
    # MAP: precision at the relevant ranks 1 and 3 is 1 and 2/3; AP = (1 + 2/3) / 3
    assert lm.average_precision(REL, 3) == pytest.approx(5 / 9)


def test_policy_1_gp_past_the_end_is_the_last_value_or_plain_sum_over_r():
    assert lm.gp_at(S, 10) == pytest.approx(0.375)  # official tool: gP[4]
    assert lm.gp_at(S, 10, plain=True) == pytest.approx(0.15)  # 1.5 / 10
    assert lm.gr_at(REL, 3, 10) == pytest.approx(2 / 3)  # the same either way
    assert lm.gp_at(np.zeros(0), 5) == 0.0 and lm.gp_at(np.zeros(0), 5, plain=True) == 0.0
    m = parse_list_measure("gP(plain)@10/F(0.25)")
    assert m.plain and m.name == "gP(plain)@10/F(0.25)"


def test_policy_2_effort_past_the_end_of_the_run_is_nr():
    es = np.array([1, 2, 5, 1, 5], dtype=float)  # docs/reference.md section 11, NR = 5, Nrel = 3
    # CE@7 = 9 + (5 - 1) + (5 - 1); NCE@7 = 4.2 + 0 + 0 (IE = 5 from rank 4 on)
    assert lm.cumulated_effort(es, 7, 5)[-1] == pytest.approx(17)
    assert lm.normalized_cumulated_effort(es, 3, 7, 5)[-1] == pytest.approx(4.2)
    assert lm.average_nce(es, 3, 7, 5) == pytest.approx((0 + 1 + 5 + 4.2 + 4.2 + 4.2 + 4.2) / 7)
    # an empty run: every rank NR
    assert lm.cumulated_effort(np.zeros(0), 3, 5)[-1] == pytest.approx(12)


def test_spec_section_10_ce_and_nce_example():
    es = np.array([1, 2, 5, 1, 5], dtype=float)
    assert lm.ideal_effort(3, 5, 5).tolist() == [1, 1, 1, 5, 5]
    assert lm.cumulated_effort(es, 5, 5).tolist() == pytest.approx([0, 1, 5, 5, 9])
    assert lm.normalized_cumulated_effort(es, 3, 5, 5).tolist() == pytest.approx([0, 1, 5, 4.2, 4.2])
    assert lm.average_nce(es, 3, 5, 5) == pytest.approx(14.4 / 5)
    assert lm.average_nce(es, 3, 3, 5) == pytest.approx(2.0)


def test_policy_3_interpolated_curve_by_hand():
    # ranks 1, 2 sit at recall point floor(10/3) = 3 (gP 0.5, 0.25), ranks 3, 4 at
    # floor(20/3) = 6 (gP 0.5, 0.375): points 0..6 -> 0.5, points 7..10 -> 0
    curve = lm.interpolated_curve(lm.generalised_precision(S), lm.generalised_recall(REL, 3))
    assert curve.tolist() == pytest.approx([0.5] * 7 + [0.0] * 4)
    # a later, higher gP lifts the lower points (FillIP)
    curve = lm.interpolated_curve(np.array([0.2, 0.9]), np.array([0.0, 1.0]))
    assert curve.tolist() == pytest.approx([0.9] * 11)


def test_bep_score_by_hand():
    assert lm.bep_score(100, 100) == 1.0
    assert lm.bep_score(100, 350) == pytest.approx(0.5)
    assert lm.bep_score(400, 150) == pytest.approx(0.5)
    assert lm.bep_score(100, 600) == 0.0  # distance 500: (500 - 500) / 500
    assert lm.bep_score(100, 601) == 0.0  # beyond d_max
    assert lm.bep_score(None, 0) == 0.0
    assert lm.bep_score(0, 100, d_max=1000) == pytest.approx(0.9)


# -- names -------------------------------------------------------------------------------------

NAMES = ["gP@10/T2IP(300)", "gP(plain)@5/F(0.25)", "AgP/F(0.25)", "AgP'/aveChP", "AgP/T2IF(300)",
         "AgP/T2IP(300)", "AgP/T2IF(300,0.5)", "ANCE@600/LE(300)", "CE@5/ES(2000)", "NCE@10/LE(300)",
         "MAP", "gR@25", "ircl_prn.0.00/F(0.25)", "ircl_prn.1.00/aveChP", "iP[0.01]", "iP[0.10]",
         "MAiP", "AgP/BEP(500)", "num_q", "num_ret", "num_rel", "num_rel_ret"]


@pytest.mark.parametrize("name", NAMES)
def test_list_measure_names_print_and_parse_the_same(name):
    m = parse_list_measure(name)
    assert m.name == name and str(m) == name
    assert parse_list_measure(m.name) == m and parse_any(name) == m


def test_list_measure_parts():
    m = parse_list_measure("ANCE@600/LE(300)")
    assert (m.kind, m.cutoff, m.doc, m.lower_is_better) == ("ANCE", 600, DocMeasure("LE", 300, lower_is_better=True), True)
    assert parse_list_measure("ircl_prn.0.30/F(0.25)").cutoff == 3
    assert parse_list_measure("iP[0.05]").cutoff == 5 and parse_list_measure("iP[0.05]").focused
    assert not parse_list_measure("AgP/F(0.25)").lower_is_better
    assert parse_list_measure(" AgP / F( 0.25 ) ").name == "AgP/F(0.25)"


@pytest.mark.parametrize("bad", ["AgP", "gP@10", "gR@5/F(0.25)", "MAP/F(0.25)", "CE@5/F(0.25)", "ANCE@600",
                                 "ircl_prn.0.05/F(0.25)", "iP[1.01]", "iP[0.5]", "gP@0/F(0.25)", "AgP/nope",
                                 "F(0.25)", "AgP/F(0.25)/x", "nDCG@10"])
def test_bad_list_measure_names_are_rejected(bad):
    with pytest.raises(UnknownMeasure):
        parse_list_measure(bad)


def test_document_measure_names_are_unchanged():
    for name in ["aveChP", "ChP@300", "ChR@2000", "T2IP(300)", "T2IR(300)", "T2IF(300)", "T2IF(300,0.5)",
                 "LE(300)", "ES(300)", "P_set", "R_set", "F(0.25)", "F(1)", "BEP(500)"]:
        assert parse_measure(name).name == name and parse_any(name) == parse_measure(name)
    with pytest.raises(UnknownMeasure):
        parse_measure("AgP/F(0.25)")
    with pytest.raises(ValueError):
        DocMeasure("BEP", 500).value(evaluate_document([(0, 5)], None, 10))


def test_official_measures_are_what_inex_eval_prints():
    names = [m.name for m in official_measures()]
    assert names[:5] == ["num_q", "num_ret", "num_rel", "num_rel_ret", "AgP/F(0.25)"]
    assert "gP@50/F(0.25)" in names and "gR@25" in names and "ircl_prn.1.00/F(0.25)" in names
    assert len([n for n in names if n.startswith("ircl_prn")]) == 11


# -- whole runs from files ---------------------------------------------------------------------


def _files(tmp_path: Path, qrels: str, run: str):
    q, r = tmp_path / "t.qrels", tmp_path / "t.run"
    q.write_text(qrels)
    r.write_text(run)
    return read_qrels(q), read_run(r)


def _eval(tmp_path, qrels, run, names, **kw):
    q, r = _files(tmp_path, qrels, run)
    return lm.evaluate(q, r, [parse_list_measure(n) for n in names], **kw)


# docs/reference.md section 11's mini article (55 characters, relevant 1..27), judged relevant as A and B.
MINI_QRELS = "1 Q0 A 27 55 0 0:27\n1 Q0 B 27 55 0 0:27\n"
# A retrieves 24..45 (offset 23, 22 long), B retrieves 33..55 (offset 32, 23 long)
MINI_RUN = "1 Q0 A 1 1 r 23 22\n1 Q0 B 2 0.5 r 32 23\n"


def test_agp_over_the_papers_mini_article(tmp_path):
    # aveChP: A 0.5306, B 0.3484 (Arvola et al. 2010); F1: A = 2*4/(22+27) = 8/49, B = 0
    e = _eval(tmp_path, MINI_QRELS, MINI_RUN, ["AgP/aveChP", "AgP/F(1)", "gP@2/aveChP", "MAP"])
    assert e.topics == ["1"]
    assert e.means["gP@2/aveChP"] == pytest.approx((0.5306 + 0.3484) / 2, abs=1e-4)
    assert e.means["AgP/aveChP"] == pytest.approx((0.5306 + (0.5306 + 0.3484) / 2) / 2, abs=1e-4)
    assert e.means["AgP/F(1)"] == pytest.approx((8 / 49 + 8 / 49 / 2) / 2)
    assert e.means["MAP"] == 1.0


def test_whole_article_results_score_the_full_document_baseline(tmp_path):
    # whole article: aveChP = 1, F1 = 54/82 (docs/reference.md section 11)
    e = _eval(tmp_path, MINI_QRELS, MINI_RUN, ["gP@1/aveChP", "gP@1/F(1)"], as_document=True)
    assert e.means["gP@1/aveChP"] == pytest.approx(1.0)
    assert e.means["gP@1/F(1)"] == pytest.approx(54 / 82)


def test_effort_over_a_run_by_hand(tmp_path):
    # screen 10: A's first relevant character is read at reading position 1 (its chain
    # starts inside the relevant text, at 24) -> LE 1; B's chain (33..55) is not relevant,
    # then the reader returns to 1: first relevant at position 24 -> LE 3; C unjudged: NR 5.
    run = MINI_RUN + "1 Q0 C 3 0.3 r 0 10\n"
    e = _eval(tmp_path, MINI_QRELS, run, ["CE@3/LE(10)", "NCE@3/LE(10)", "ANCE@4/LE(10)"])
    assert e.means["CE@3/LE(10)"] == pytest.approx(0 + 2 + 4)
    # IE = <1, 1, 5, 5>: NCE = <0, 2, 2 + 0, 2 + 0>
    assert e.means["NCE@3/LE(10)"] == pytest.approx(2)
    assert e.means["ANCE@4/LE(10)"] == pytest.approx((0 + 2 + 2 + 2) / 4)


TWO_TOPICS = "1 Q0 A 10 100 0 0:10\n2 Q0 A 20 100 0 0:20\n2 Q0 B 0 50\n3 Q0 A 0 100\n"


def test_policy_4_mean_over_the_runs_topics_or_all_judged(tmp_path):
    run = "1 Q0 A 1 1 r 0 10\n"  # topic 1 perfect: F = 1; topic 2 missing
    names = ["AgP/F(0.25)", "CE@3/LE(300)", "num_q"]
    e = _eval(tmp_path, TWO_TOPICS, run, names)
    assert e.topics == ["1"] and e.means["AgP/F(0.25)"] == 1.0 and e.means["num_q"] == 1
    assert e.means["CE@3/LE(300)"] == pytest.approx(0 + 4 + 4)
    e = _eval(tmp_path, TWO_TOPICS, run, names, complete=True)
    assert e.topics == ["1", "2"] and e.means["num_q"] == 2
    assert e.values["AgP/F(0.25)"]["2"] == 0.0 and e.means["AgP/F(0.25)"] == 0.5
    assert e.values["CE@3/LE(300)"]["2"] == pytest.approx(12)  # an empty ranking: NR - 1 at each rank


def test_policy_5_a_topic_without_relevant_article_is_excluded_with_a_warning(tmp_path):
    run = "1 Q0 A 1 1 r 0 10\n3 Q0 A 1 1 r 0 10\n"
    e = _eval(tmp_path, TWO_TOPICS, run, ["AgP/F(0.25)"], complete=True)
    assert e.topics == ["1", "2"]
    assert any("no relevant article" in d.message and "3" in d.message for d in e.diagnostics)
    assert not np.isnan(e.means["AgP/F(0.25)"])


def test_policy_6_a_run_topic_missing_from_the_qrels_is_ignored_with_a_warning(tmp_path):
    run = "1 Q0 A 1 1 r 0 10\n9 Q0 A 1 1 r 0 10\n"
    e = _eval(tmp_path, TWO_TOPICS, run, ["AgP/F(0.25)"])
    assert e.topics == ["1"] and e.means["AgP/F(0.25)"] == 1.0
    assert any("not in the qrels" in d.message for d in e.diagnostics)


@pytest.mark.parametrize("name", ["aveChP", "ChP@10", "ChR@10", "T2IP(5)", "T2IR(5)", "T2IF(5)", "T2IF(5,0.5)",
                                  "LE(10)", "ES(10)", "P_set", "R_set", "F(0.25)"])
def test_policy_7_a_non_relevant_article_scores_its_null_value(name):
    m = parse_measure(name)
    for mode in ("natural", "worst", "best", "document"):
        doc = evaluate_document(np.zeros((0, 2), dtype=np.int64), [(3, 20), (40, 45)], 50, mode)
        assert m.value(doc, 4) == m.null_value(4)
    assert m.null_value(4) == (5.0 if m.kind in ("LE", "ES") else 0.0)


def test_policy_7_unjudged_articles_are_not_relevant(tmp_path):
    run = "2 Q0 Z 1 1 r 0 10\n2 Q0 A 2 1 r 0 20\n2 Q0 B 3 1 r 0 20\n"
    e = _eval(tmp_path, TWO_TOPICS, run, ["AgP/F(0.25)", "gR@1", "gR@2", "num_rel_ret", "num_ret"])
    assert e.means["AgP/F(0.25)"] == pytest.approx(0.5)  # A relevant at rank 2 with F = 1: gP[2] = 1/2
    assert (e.means["gR@1"], e.means["gR@2"]) == (0.0, 1.0)
    assert (e.means["num_rel_ret"], e.means["num_ret"]) == (1, 3)


def test_policy_8_counts_are_summed(tmp_path):
    run = "1 Q0 A 1 1 r 0 10\n2 Q0 A 1 1 r 0 10\n2 Q0 B 2 1 r 0 10\n"
    e = _eval(tmp_path, TWO_TOPICS, run, ["num_q", "num_ret", "num_rel", "num_rel_ret"])
    assert e.means == {"num_q": 2, "num_ret": 3, "num_rel": 2, "num_rel_ret": 2}


def test_policy_9_focused_ip_and_maip_by_hand(tmp_path):
    qrels = "1 Q0 a 100 200 0 0:100\n"
    # lines: a[0,50) p=1 r=.5; b[0,50) p=.5; a[150,200) p=1/3; a[0,50) again: nothing new;
    # a[50,100) p=100/200 r=1. Points 0..50 -> 1, 51..100 -> 0.5.
    run = "1 Q0 a 1 1 r 0 50\n1 Q0 b 2 1 r 0 50\n1 Q0 a 3 1 r 150 50\n1 Q0 a 4 1 r 0 50\n1 Q0 a 5 1 r 50 50\n"
    e = _eval(tmp_path, qrels, run, ["iP[0.00]", "iP[0.01]", "iP[0.50]", "iP[0.51]", "iP[1.00]", "MAiP"])
    assert [e.means[f"iP[{x}]"] for x in ("0.00", "0.01", "0.50", "0.51", "1.00")] == pytest.approx([1, 1, 1, 0.5, 0.5])
    assert e.means["MAiP"] == pytest.approx((51 * 1 + 50 * 0.5) / 101)


def test_policy_10_best_in_context_by_hand(tmp_path):
    qrels = "1 Q0 A 10 1000 100 100:10\n1 Q0 B 10 1000 300 300:10\n"
    run = "1 Q0 A 1 1 r 350 1\n1 Q0 X 2 1 r 0 1\n1 Q0 B 3 1 r 300 1\n"
    # BEP scores: A |100-350| = 250 -> 0.5; X 0; B 1. gP = <0.5, 0.25, 0.5>; AgP = (0.5 + 0.5) / 2
    e = _eval(tmp_path, qrels, run, ["AgP/BEP(500)", "gP@2/BEP(500)", "AgP/BEP(200)"])
    assert e.means["AgP/BEP(500)"] == pytest.approx(0.5)
    assert e.means["gP@2/BEP(500)"] == pytest.approx(0.25)
    assert e.means["AgP/BEP(200)"] == pytest.approx((0 + 1 / 3) / 2)  # A beyond d = 200


def test_each_article_is_evaluated_once_whatever_the_measures(tmp_path, monkeypatch):
    # a topic edited in memory is not computed from the columns: its articles' inputs are read
    # one by one, then evaluated in one batch
    calls, batches = [], []
    real, real_batch = lm.inputs, lm.columns_of

    def counting(*args, **kw):
        calls.append(args[3].article)
        return real(*args, **kw)

    def counting_batch(items, *args, **kw):
        batches.append(len(items))
        return real_batch(items, *args, **kw)

    monkeypatch.setattr(lm, "inputs", counting)
    monkeypatch.setattr(lm, "columns_of", counting_batch)
    names = ["AgP/F(0.25)", "AgP/aveChP", "gP@1/F(0.25)", "ANCE@10/LE(300)", "AgP/T2IF(300)"]
    q, r = _files(tmp_path, MINI_QRELS, MINI_RUN + "1 Q0 C 3 0.3 r 0 10\n")
    r.topics["1"] = list(r.topics["1"])
    lm.evaluate(q, r, [parse_list_measure(n) for n in names], mode="worst")
    assert calls == ["A", "B"]  # C is unjudged: not read at all (policy 7)
    assert batches == [2]  # A and B (both relevant) in one batch


def test_column_wise_each_judged_article_is_evaluated_once_in_one_batch(tmp_path, monkeypatch):
    batches = []
    real = document_module.evaluate_documents

    def counting(doc_length, *args, **kw):
        batches.append(doc_length.tolist())
        return real(doc_length, *args, **kw)

    monkeypatch.setattr(document_module, "evaluate_documents", counting)
    monkeypatch.setattr(lm, "inputs", None)  # never called on this path
    names = ["AgP/F(0.25)", "AgP/aveChP", "gP@1/F(0.25)", "ANCE@10/LE(300)", "AgP/T2IF(300)"]
    e = _eval(tmp_path, MINI_QRELS, MINI_RUN + "1 Q0 C 3 0.3 r 0 10\n", names)
    assert batches == [[55, 55]]  # A and B (doc_length 55), once; C unjudged: not read (policy 7)
    assert e.means["AgP/aveChP"] == pytest.approx((0.5306 + (0.5306 + 0.3484) / 2) / 2, abs=1e-4)


def test_list_measure_kinds_are_all_evaluable():
    r = lm.Ranking("1", ["a", "x", "b", "y"], REL, RSIZE, {}, 3, 1000)
    doc = DocMeasure("F", 0, 0.25)
    r.scores[doc] = S
    assert r.value(ListMeasure("AgP", 0, doc)) == pytest.approx(1 / 3)
    assert r.value(ListMeasure("AgP'", 0, doc)) == pytest.approx(0.2)
    assert r.value(ListMeasure("ircl_prn", 6, doc)) == pytest.approx(0.5)
    assert r.value(ListMeasure("ircl_prn", 7, doc)) == 0.0
    assert r.value(ListMeasure("gP", 10, doc, plain=True)) == pytest.approx(0.15)


@st.composite
def rankings(draw) -> list[lm.Ranking]:
    doc, effort = DocMeasure("F", 0, 0.25), DocMeasure("LE", 300, lower_is_better=True)
    out = []
    for t in range(draw(st.integers(1, 5))):
        n = draw(st.integers(0, 12))
        relevant = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
        scores = np.where(relevant, draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)) if n else [], 0.0)
        levels = np.where(relevant, draw(st.lists(st.integers(1, 4), min_size=n, max_size=n)) if n else [], 5.0)
        nrel = int(relevant.sum()) + draw(st.integers(0, 3)) or 1
        judged = relevant | np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
        out.append(lm.Ranking(str(t), [f"a{k}" for k in range(n)], relevant, np.where(relevant, 10, 0),
                              {doc: np.asarray(scores, float), effort: np.asarray(levels, float)}, nrel, 10 * nrel,
                              judged=judged))
    return out


TABLE_MEASURES = ["AgP/F(0.25)", "MAP", "gP@1/F(0.25)", "gP@5/F(0.25)", "gP(plain)@20/F(0.25)", "gR@3", "num_q",
                  "num_ret", "num_rel", "num_rel_ret", "CE@4/LE(300)", "NCE@15/LE(300)", "ANCE@7/LE(300)",
                  "Judged@1", "Judged@5", "Judged@20"]


@settings(max_examples=200, deadline=None)
@given(rankings())
def test_the_ranking_table_is_ranking_value_topic_by_topic(ranked):
    table = lm.RankingTable(ranked)
    for name in TABLE_MEASURES:
        m = parse_list_measure(name)
        got = table.values(m, 4)
        assert got is not None and len(got) == len(ranked)
        assert got.tolist() == pytest.approx([r.value(m, 4) for r in ranked], rel=0, abs=1e-12), name
    assert table.values(parse_list_measure("ircl_prn.0.50/F(0.25)")) is None  # left to Ranking.value
