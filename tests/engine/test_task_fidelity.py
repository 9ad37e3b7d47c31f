"""Task fidelity (reference section 7), worked by hand from the official tool's definitions
(policies 9 and 10 there):
Best in Context runs (entry point = the line's offset, length 0 legal) and whole-article runs
(6 fields = the passage [0, doc_length) for every measure, the Focused task's included)."""

from __future__ import annotations

import shutil

import pytest

from readsim.core import listmeasures as lm
from readsim.core.collection import Collection
from readsim.core.formats import read_qrels, read_run
from readsim.core.measure import parse_list_measure
from readsim.core.samples import sample

# -- Best in Context ---------------------------------------------------------------------------
# Five relevant articles, each 1,000 bytes with its best entry point (column 6) as given.
BIC_QRELS = (
    "1 Q0 A 10 1000 1000 990:10\n"
    "1 Q0 B 10 1000 200 200:10\n"
    "1 Q0 C 10 1000 300 300:10\n"
    "1 Q0 D 10 1000 50 50:10\n"
    "1 Q0 E 10 1000 900 900:10\n"
)
# One line per article, column 7 the entry point, column 8 a length of 0 (legal in BiC).
BIC_RUN = (
    "1 Q0 A 1 5 bic 800 0\n"    # 200 before the BEP: (500 - 200) / 500 = 0.6
    "1 Q0 B 2 4 bic 200 0\n"    # at the BEP: 1
    "1 Q0 C 3 3 bic 700 0\n"    # 400 after: 0.2
    "1 Q0 X 4 2 bic 0 0\n"      # unjudged: 0
    "1 Q0 D 5 1 bic 551 0\n"    # 501 after: beyond d_max = 500, 0
    "1 Q0 E 6 0 bic 1300 0\n"   # past the article's end, 400 after its BEP: 0.2
)
BIC_SCORES = [0.6, 1.0, 0.2, 0.0, 0.0, 0.2]


def _files(tmp_path, qrels: str, run: str):
    (tmp_path / "q.qrels").write_text(qrels)
    (tmp_path / "r.run").write_text(run)
    return read_qrels(tmp_path / "q.qrels"), read_run(tmp_path / "r.run")


def _means(qrels, run, names, **kw):
    return lm.evaluate(qrels, run, [parse_list_measure(n) for n in names], **kw).means


def test_best_in_context_entry_points_before_at_after_and_beyond_d_max(tmp_path):
    qrels, run = _files(tmp_path, BIC_QRELS, BIC_RUN)
    assert [e.entry_point for e in run.topics["1"]] == [800, 200, 700, 0, 551, 1300]
    ranked = lm.rank_topics(qrels, run, [parse_list_measure("AgP/BEP(500)").doc])["1"]
    assert ranked.scores[parse_list_measure("AgP/BEP(500)").doc].tolist() == pytest.approx(BIC_SCORES)
    # gP = <0.6, 0.8, 0.6, 0.45, 0.36, 0.3333>; AgP = (0.6 + 0.8 + 0.6 + 0.36 + 2/6) / 5 relevant
    means = _means(qrels, run, ["AgP/BEP(500)", "gP@2/BEP(500)", "gP@5/BEP(500)"])
    assert means["AgP/BEP(500)"] == pytest.approx((0.6 + 0.8 + 0.6 + 0.36 + 2.0 / 6) / 5)
    assert means["gP@2/BEP(500)"] == pytest.approx(0.8)
    assert means["gP@5/BEP(500)"] == pytest.approx(0.36)


def test_best_in_context_distance_of_exactly_d_max_scores_zero(tmp_path):
    qrels, run = _files(tmp_path, "1 Q0 A 10 1000 100 100:10\n", "1 Q0 A 1 1 bic 600 0\n")
    assert _means(qrels, run, ["AgP/BEP(500)", "AgP/BEP(1000)"]) == pytest.approx(
        {"AgP/BEP(500)": 0.0, "AgP/BEP(1000)": 0.5})


def test_best_in_context_zero_length_retrieves_no_text_but_keeps_its_rank(tmp_path):
    qrels, run = _files(tmp_path, BIC_QRELS, BIC_RUN)
    a = run.topics["1"][0]
    assert a.passages is not None and len(a.passages) == 0 and not a.whole
    # set-based F: nothing retrieved, so 0 for every article; the ranks are all still there
    means = _means(qrels, run, ["AgP/F(0.25)", "num_ret", "num_rel_ret"])
    assert means == {"AgP/F(0.25)": 0.0, "num_ret": 6.0, "num_rel_ret": 5.0}


def test_best_in_context_with_any_length_in_column_8(tmp_path):
    run = BIC_RUN.replace("800 0", "800 35").replace("700 0", "700 1")
    qrels, r = _files(tmp_path, BIC_QRELS, run)
    ranked = lm.rank_topics(qrels, r, [parse_list_measure("AgP/BEP(500)").doc])["1"]
    assert ranked.scores[parse_list_measure("AgP/BEP(500)").doc].tolist() == pytest.approx(BIC_SCORES)


def test_best_in_context_as_documents_enters_at_zero(tmp_path):
    qrels, run = _files(tmp_path, BIC_QRELS, BIC_RUN)
    # entries all 0: A 1000 away -> 0; B 200 -> 0.6; C 300 -> 0.4; D 50 -> 0.9; E 900 -> 0
    means = _means(qrels, run, ["gP@6/BEP(500)"], as_document=True)
    assert means["gP@6/BEP(500)"] == pytest.approx((0.6 + 0.4 + 0.9) / 6)


# -- whole-article runs --------------------------------------------------------------------------
# a: 400 bytes, relevant [0, 100); b: 200 bytes, relevant [100, 150). Nrel = 2, Trel_size = 150.
WHOLE_QRELS = "1 Q0 a 100 400 0 0:100\n1 Q0 b 50 200 100 100:50\n"
WHOLE_RUN = "1 Q0 a 1 3 doc\n1 Q0 b 2 2 doc\n"
FOL_RUN = "1 Q0 a 1 3 doc 0 400\n1 Q0 b 2 2 doc 0 200\n"
F025 = 1.0625 * 0.25 / (0.0625 * 0.25 + 1)  # P = 1/4, R = 1 for both articles
NAMES = ["AgP/F(0.25)", "AgP/aveChP", "AgP/T2IF(300)", "ANCE@10/LE(300)", "MAP", "iP[0.00]", "iP[0.01]",
         "iP[1.00]", "MAiP", "AgP/BEP(500)"]


def test_whole_article_lines_score_the_focused_task_by_hand(tmp_path):
    qrels, run = _files(tmp_path, WHOLE_QRELS, WHOLE_RUN)
    # a: 100 relevant of 400 read (P 1/4, R 2/3); b: 150 of 600 (P 1/4, R 1): every point 1/4
    means = _means(qrels, run, ["iP[0.00]", "iP[0.66]", "iP[1.00]", "MAiP", "AgP/F(0.25)"])
    assert means == pytest.approx({"iP[0.00]": 0.25, "iP[0.66]": 0.25, "iP[1.00]": 0.25, "MAiP": 0.25,
                                   "AgP/F(0.25)": F025})


def test_whole_article_lines_equal_fol_passages_over_doc_length(tmp_path):
    qrels, whole = _files(tmp_path, WHOLE_QRELS, WHOLE_RUN)
    (tmp_path / "fol.run").write_text(FOL_RUN)
    fol = read_run(tmp_path / "fol.run")
    assert _means(qrels, whole, NAMES) == _means(qrels, fol, NAMES)
    # --as-documents turns a passage run into the same whole-article run
    (tmp_path / "part.run").write_text("1 Q0 a 1 3 doc 50 10\n1 Q0 b 2 2 doc 0 5\n1 Q0 b 2 2 doc 120 5\n")
    part = read_run(tmp_path / "part.run")
    assert _means(qrels, part, NAMES, as_document=True) == _means(qrels, fol, NAMES)


def test_unjudged_whole_article_length_from_the_collection_or_a_warning(tmp_path):
    # x is unjudged; the sample collection has it as 900004 (its computed doc_length is used)
    coll_dir = tmp_path / "coll"
    shutil.copytree(sample().collection, coll_dir)
    collection = Collection(coll_dir)
    length = collection.article("900004").doc_length
    qrels = WHOLE_QRELS
    run = "1 Q0 a 1 3 doc\n1 Q0 900004 2 2 doc\n1 Q0 b 3 1 doc\n"
    q, r = _files(tmp_path, qrels, run)
    # with the collection: a P 1/4 R 2/3; x adds `length` non-relevant; b then R = 1
    ev = lm.evaluate(q, r, [parse_list_measure("MAiP")], collection=collection)
    p_b = 150 / (600 + length)
    assert ev.means["MAiP"] == pytest.approx((67 * 0.25 + 34 * max(p_b, 0)) / 101)
    assert not any("no known length" in d.message for d in ev.diagnostics)
    # without it: x's length is unknown, counted as no text, said once with the count
    ev = lm.evaluate(q, r, [parse_list_measure("MAiP")])
    assert ev.means["MAiP"] == pytest.approx(0.25)
    [warning] = [d for d in ev.diagnostics if "no known length" in d.message]
    assert warning.message.startswith("1 whole-article results") and "900004" in warning.message


def test_real_whole_article_run_equals_its_fol_form(inex, tmp_path):
    """The real Indri document run (6 fields) against the same run written as FOL passages
    [0, doc_length): every measure equal, the Focused task's non-zero."""
    qrels = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    collection = Collection(inex / "articles")
    src = inex / "runs" / "indri-documents.run"
    lines = []
    for line in src.read_text().splitlines():
        f = line.split()
        j = qrels.judgement(f[0], f[2])
        n = j.doc_length if j else (collection.article(f[2]).doc_length if f[2] in collection else 0)
        lines.append(" ".join(f + ["0", str(n)]))
    (tmp_path / "fol.run").write_text("\n".join(lines) + "\n")
    whole, fol = read_run(src), read_run(tmp_path / "fol.run")
    names = ["AgP/F(0.25)", "AgP/T2IF(300)", "MAiP", "iP[0.01]", "iP[0.10]"]
    a = _means(qrels, whole, names, collection=collection)
    b = _means(qrels, fol, names, collection=collection)
    assert a == pytest.approx(b, abs=1e-12)
    assert a["MAiP"] > 0.1 and a["iP[0.01]"] > 0.3


# -- entry-point reading (reference section 3) from a Best in Context run -------------------------
def test_entry_point_reading_starts_at_the_bic_offset_and_wraps(tmp_path):
    # 1,000 bytes, relevant [600, 700); the BiC line enters at 500: the reader reads [500, 1000)
    # then [0, 500). The first relevant byte is the 101st read: LE(300) = 1, LE(50) = 3.
    # aveChP = (1/100) sum_{j=1..100} j / (100 + j). T2IP(150): 100 non-relevant [500, 600), the
    # 100 relevant, then 50 more non-relevant: the 150th is byte 749, 250 read, P = 100 / 250;
    # T2IP(50) stops inside [500, 600), before any relevant byte: 0.
    qrels, run = _files(tmp_path, "1 Q0 A 100 1000 600 600:100\n", "1 Q0 A 1 1 bic 500 0\n")
    names = ["AgP/LE(300)", "AgP/LE(50)", "AgP/aveChP", "AgP/T2IP(150)", "AgP/T2IP(50)"]
    means = _means(qrels, run, names, mode="entry")
    assert means["AgP/aveChP"] == pytest.approx(sum(j / (100 + j) for j in range(1, 101)) / 100)
    assert means["AgP/T2IP(150)"] == pytest.approx(0.4) and means["AgP/T2IP(50)"] == 0.0
    effort = lm.rank_topics(qrels, run, [parse_list_measure(n).doc for n in names[:2]], mode="entry")["1"]
    assert [effort.scores[parse_list_measure(n).doc].tolist() for n in names[:2]] == [[1.0], [3.0]]
    # the same run read naturally has no chain (nothing retrieved) and starts at 0: first relevant at 601
    natural = lm.rank_topics(qrels, run, [parse_list_measure("AgP/LE(300)").doc])["1"]
    assert natural.scores[parse_list_measure("AgP/LE(300)").doc].tolist() == [3.0]


# -- the same cases through readsim-eval, as a user runs them -------------------------------------
def _cli(*argv) -> dict[str, str]:
    import io

    from readsim.cli import main

    out, err = io.StringIO(), io.StringIO()
    assert main([str(a) for a in argv], out, err) == 0, err.getvalue()
    rows = [line.split("\t") for line in out.getvalue().splitlines()]
    return {"@".join(r[:-1]): r[-1] for r in rows if r[0] != "runid"}


def test_best_in_context_and_whole_article_runs_in_the_cli(tmp_path):
    (tmp_path / "bic.qrels").write_text(BIC_QRELS)
    (tmp_path / "bic.run").write_text(BIC_RUN)
    rows = _cli(tmp_path / "bic.qrels", tmp_path / "bic.run", "-m", "AgP/BEP(500)", "-m", "gP@2/BEP(500)")
    assert float(rows["AgP/BEP(500)@all"]) == pytest.approx((0.6 + 0.8 + 0.6 + 0.36 + 2.0 / 6) / 5, abs=5e-7)
    assert float(rows["gP@2/BEP(500)@all"]) == pytest.approx(0.8, abs=5e-7)
    per = _cli(tmp_path / "bic.qrels", tmp_path / "bic.run", "--per-article", "-m", "BEP(500)")
    assert [float(v) for k, v in per.items()] == pytest.approx(BIC_SCORES)

    (tmp_path / "w.qrels").write_text(WHOLE_QRELS)
    (tmp_path / "w.run").write_text(WHOLE_RUN)
    rows = _cli(tmp_path / "w.qrels", tmp_path / "w.run", "-m", "MAiP", "-m", "iP[0.01]", "-m", "AgP/F(0.25)")
    assert {k: float(v) for k, v in rows.items()} == pytest.approx(
        {"MAiP@all": 0.25, "iP[0.01]@all": 0.25, "AgP/F(0.25)@all": F025}, abs=5e-7)
