"""Document scores of many articles at once (:func:`readsim.core.doc_evaluation.evaluate_documents`) and the
column-wise evaluation of whole runs: equal to the per-character reference
(tests/engine/reference.py) and to each article evaluated on its own (tests/helpers/one_article.py) to
1e-12, on random inputs and on the real INEX data; equal to values worked by hand on a small run, and on a real
run to a restatement of the official INEX tool (tests/engine/list_reference.py). No expected
number is taken from readsim's own output."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readsim.core import intervals as iv
from readsim.core import listmeasures as lm
from readsim.core.doc_evaluation import evaluate_documents
from readsim.core.formats import Qrels, Run, read_qrels, read_run
from readsim.core.measure import DocMeasure, parse_list_measure

from .reference import ReferenceDoc
from .strategies import passages

TOLERANCE = 1e-12


@st.composite
def articles(draw) -> list[tuple[int, list, list | None]]:
    out = []
    for _ in range(draw(st.integers(0, 8))):
        doc_length = draw(st.integers(0, 400))
        out.append((doc_length, draw(passages(doc_length + 10)), draw(st.none() | passages(doc_length + 40))))
    return out


@st.composite
def doc_measures(draw) -> list[DocMeasure]:
    k = draw(st.integers(1, 460))
    alpha, beta = draw(st.floats(0.05, 4.0)), draw(st.floats(0.05, 4.0))
    return [DocMeasure("aveChP"), DocMeasure("ChP", k), DocMeasure("ChR", k), DocMeasure("T2IP", k),
            DocMeasure("T2IR", k), DocMeasure("T2IF", k, alpha), DocMeasure("LE", draw(st.integers(1, 150))),
            DocMeasure("ES", draw(st.integers(1, 150))), DocMeasure("P_set"), DocMeasure("R_set"), DocMeasure("F", 0, beta)]


def batch_of(arts, mode, entries=None):
    rel = [iv.normalize(r) for _, r, _ in arts]
    ret = [iv.EMPTY if t is None else iv.normalize(t) for _, _, t in arts]
    return evaluate_documents(np.array([d for d, _, _ in arts], dtype=np.int64),
                              np.cumsum([0] + [len(r) for r in rel]), np.concatenate(rel + [iv.EMPTY]),
                              np.cumsum([0] + [len(t) for t in ret]), np.concatenate(ret + [iv.EMPTY]),
                              np.array([t is None for _, _, t in arts], dtype=bool), mode,
                              None if entries is None else np.array(entries, dtype=np.int64))


MODES = ["natural", "worst", "best", "document", "entry"]


@settings(max_examples=200, deadline=None)
@given(arts=articles(), measures=doc_measures(), mode=st.sampled_from(MODES), levels=st.integers(1, 6),
       data=st.data())
def test_batched_scores_are_the_per_character_reference_article_by_article(arts, measures, mode, levels, data):
    entries = [data.draw(st.integers(-5, d + 20)) for d, _, _ in arts]  # entry points, some outside the article
    batch = batch_of(arts, mode, entries)
    refs = [ReferenceDoc(d, [list(p) for p in r], None if t is None else [list(p) for p in t], mode, e)
            for (d, r, t), e in zip(arts, entries)]
    for m in measures:
        got = lm.batch_scores(m, batch, levels)
        expected = [ref.value(m.kind, m.k, m.weight, levels) for ref in refs]
        assert got.shape == (len(arts),)
        assert np.allclose(got, expected, rtol=0, atol=TOLERANCE), (m.name, got, expected)


def test_batched_scores_of_the_papers_mini_article():
    # docs/reference.md section 11: relevant 1..27 of 55; retrieved 24..45 -> aveChP 0.5306; 33..55 -> 0.3484
    arts = [(55, [(0, 27)], [(23, 45)]), (55, [(0, 27)], [(32, 55)]), (55, [(0, 27)], None)]
    batch = batch_of(arts, "natural")
    assert batch.ave_chp() == pytest.approx([0.5306, 0.3484, 1.0], abs=1e-4)
    assert batch.set_scores(1.0)[2] == pytest.approx([8 / 49, 0.0, 54 / 82])
    # worst: the chain 24..45 (24..27 relevant, 28..45 not), then the rest's non-relevant 46..55,
    # then its relevant 1..23, read 33rd..55th
    read_worst = 4 + sum((4 + j) / (32 + j) for j in range(1, 24))
    assert batch_of(arts[:1], "worst").ave_chp() == pytest.approx([read_worst / 27])
    # best: the chain 24..45, then the 23 relevant positions left (1..23), then 46..55
    read_best = 4 + sum((4 + j) / (22 + j) for j in range(1, 24))
    assert batch_of(arts[:1], "best").ave_chp() == pytest.approx([read_best / 27])
    # entry at 10 (0-based): 11..27 relevant, 28..55 not, then 1..10 relevant
    read_entry = 17 + sum((17 + j) / (45 + j) for j in range(1, 11))
    assert batch_of(arts[2:], "entry", [10]).ave_chp() == pytest.approx([read_entry / 27])


# -- whole runs: column-wise against article by article --------------------------------------------

LIST_MEASURES = ["AgP/F(0.25)", "AgP/aveChP", "AgP/T2IF(300)", "AgP/T2IP(30)", "ANCE@20/LE(30)", "MAP",
                 "gP@3/F(0.25)", "AgP'/aveChP", "gP@2/ChP@60", "AgP/ChR@60", "AgP/T2IR(30)", "CE@5/ES(50)",
                 "NCE@5/LE(30)", "AgP/P_set", "AgP/R_set", "AgP/F(1)", "AgP/BEP(50)", "ircl_prn.0.50/F(0.25)",
                 "num_ret", "num_rel_ret", "gR@2", "gP(plain)@9/T2IF(30,0.5)", "MAiP", "iP[0.10]", "iP[0.00]"]


def article_by_article(run: Run, qrels: Qrels) -> tuple[Run, Qrels]:
    """The same run and qrels held as plain lists and dicts: evaluated article by article."""
    return (Run(run.path, run.run_id, {t: list(es) for t, es in run.topics.items()}, run.diagnostics),
            Qrels(qrels.path, {t: dict(js) for t, js in qrels.topics.items()}, qrels.diagnostics))


def assert_same_evaluation(run, qrels, **kw):
    measures = [parse_list_measure(n) for n in LIST_MEASURES]
    fast = lm.evaluate(qrels, run, measures, **kw)
    slow = lm.evaluate(*reversed(article_by_article(run, qrels)), measures, **kw)
    assert fast.topics == slow.topics
    assert [str(d) for d in fast.diagnostics] == [str(d) for d in slow.diagnostics]
    for name in fast.values:
        for t in fast.topics:
            assert fast.values[name][t] == pytest.approx(slow.values[name][t], rel=0, abs=TOLERANCE), (name, t)
        assert fast.means[name] == pytest.approx(slow.means[name], rel=0, abs=TOLERANCE), name


ARTICLE_IDS = [["a", "b", "c", "d", "e", "x", "y"],  # 8 bytes at most: packed keys
               ["a", "doc_12", "wp00000851", "msmarco_doc_00_123#4", "b" * 9, "x", "unjudged_0000001"],  # codes
               ["é", "記事851", "a", "wp00000851", "e", "x", "y"]]  # not ASCII: read line by line
"""Article ids of varying length: judged ones, then two the qrels may not judge."""


@st.composite
def run_and_qrels(draw) -> tuple[str, str]:
    ids = draw(st.sampled_from(ARTICLE_IDS))
    names = ids[:5]
    q, r = [], []
    for topic in ("1", "2", "3"):
        for a in draw(st.lists(st.sampled_from(names), unique=True, max_size=4)):
            doc_length = draw(st.integers(0, 200))
            spans = draw(st.lists(st.tuples(st.integers(0, 210), st.integers(1, 40)), max_size=3))
            fields = [topic, "Q0", a, str(sum(n for _, n in spans)), str(doc_length)]
            if spans:
                fields += [str(draw(st.integers(0, 200)))] + [f"{o}:{n}" for o, n in spans]
            q.append(" ".join(fields))
        for a in draw(st.lists(st.sampled_from(ids), max_size=8)):
            kind = draw(st.sampled_from([8, 8, 8, 6]))
            head = f"{topic} Q0 {a} 1 1 r"
            r.append(head if kind == 6 else f"{head} {draw(st.integers(0, 240))} {draw(st.integers(0, 60))}")
    draw(st.randoms()).shuffle(r) if draw(st.booleans()) else None  # interleaved, split topics
    return "\n".join(q) + "\n", "\n".join(r) + "\n"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=run_and_qrels(), kw=st.sampled_from([{}, {"mode": "document"}, {"mode": "worst"}, {"mode": "best"},
                                                  {"mode": "entry"}, {"mode": "entry", "as_document": True},
                                                  {"as_document": True}, {"complete": True}, {"levels": 2}]))
def test_whole_runs_column_wise_are_article_by_article(tmp_path, files, kw):
    (tmp_path / "q.qrels").write_text(files[0], encoding="utf-8")
    (tmp_path / "r.run").write_text(files[1], encoding="utf-8")
    assert_same_evaluation(read_run(tmp_path / "r.run"), read_qrels(tmp_path / "q.qrels"), **kw)


def test_column_wise_is_used_only_where_it_applies(tmp_path):
    (tmp_path / "q.qrels").write_text("1 Q0 a 10 100 0 0:10\n2 Q0 a 10 100 0 0:10\n")
    (tmp_path / "r.run").write_text("1 Q0 a 1 1 r 0 10\n2 Q0 a 1 1 r 0 10\n")
    run, qrels = read_run(tmp_path / "r.run"), read_qrels(tmp_path / "q.qrels")
    m = [DocMeasure("F", 0, 0.25)]
    assert set(lm._rank_columns(qrels, run, ["1", "2"], m, "natural", None, False, 4)) == {"1", "2"}
    assert set(lm._rank_columns(qrels, run, ["1", "2"], m, "worst", None, False, 4)) == {"1", "2"}
    run.topics["2"] = list(run.topics["2"])  # a topic changed in memory: article by article
    assert set(lm._rank_columns(qrels, run, ["1", "2"], m, "natural", None, False, 4)) == {"1"}
    assert lm.rank_topics(qrels, run, m)["2"].scores[m[0]].tolist() == [1.0]


# -- the real data ---------------------------------------------------------------------------------

def test_hand_worked_run_through_the_column_wise_path(tmp_path):
    """Two topics worked by hand (F with beta = 0.25: F = (1 + 1/16) P R / (P/16 + R)).

    Topic 1: a (100 characters, relevant 0..10) retrieved 0..10: P = R = 1, F = 1; b (40,
    relevant 0..20) retrieved whole: P = 1/2, R = 1, F = (17/16)(1/2) / (1/32 + 1) = 17/33.
    gP@1 = 1, gP@2 = (1 + 17/33)/2 = 25/33; AgP = (gP@1 + gP@2) / 2 relevant = 29/33; AP = 1.
    Topic 2: d (judged, not relevant) at rank 1, c (50, relevant 0..5) retrieved 0..10 at rank 2:
    P = 1/2, R = 1, F = 17/33. gP@1 = 0, gP@2 = 17/66; AgP = gP@2 / 1 relevant = 17/66;
    AP = (1/2) / 1 = 1/2. Means over the two topics: AgP (29/33 + 17/66)/2 = 25/44, gP@2
    (25/33 + 17/66)/2 = 67/132, MAP 3/4, gP@1 1/2."""
    (tmp_path / "q.qrels").write_text("1 Q0 a 10 100 0 0:10\n1 Q0 b 20 40 0 0:20\n"
                                      "2 Q0 c 5 50 0 0:5\n2 Q0 d 0 50\n")
    (tmp_path / "r.run").write_text("1 Q0 a 1 1.0 r 0 10\n1 Q0 b 2 0.9 r 0 40\n"
                                    "2 Q0 d 1 1.0 r 0 50\n2 Q0 c 2 0.9 r 0 10\n")
    run, qrels = read_run(tmp_path / "r.run"), read_qrels(tmp_path / "q.qrels")
    names = ["AgP/F(0.25)", "gP@1/F(0.25)", "gP@2/F(0.25)", "MAP"]
    measures = [parse_list_measure(n) for n in names]
    # the column-wise path (not article by article) is the one taken
    columns = lm._rank_columns(qrels, run, ["1", "2"], [DocMeasure("F", 0, 0.25)], "natural", None, False, 4)
    assert set(columns) == {"1", "2"}
    got = lm.evaluate(qrels, run, measures)
    assert got.values["AgP/F(0.25)"] == pytest.approx({"1": 29 / 33, "2": 17 / 66}, rel=0, abs=TOLERANCE)
    expected = {"AgP/F(0.25)": 25 / 44, "gP@1/F(0.25)": 1 / 2, "gP@2/F(0.25)": 67 / 132, "MAP": 3 / 4}
    for name, value in expected.items():
        assert got.means[name] == pytest.approx(value, rel=0, abs=TOLERANCE), name


def test_real_run_means_are_the_official_tools(inex):
    """A real run's means, column-wise, equal a second route: list_reference.official, a
    line-by-line restatement of the official INEX tool (inex_eval -r), and average precision
    from list_reference, on the real qrels. indri-passages.run is the real run the official tool
    reads as readsim does: each article's lines adjacent, no overlapping passages (in
    bert-passages.run some do overlap; readsim unites them, docs/reference.md, where the tool
    counted them twice)."""
    from . import list_reference as ref

    qrels_path, run_path = inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "indri-passages.run"
    run_lines = [line for line in run_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    qrels_lines = [line for line in qrels_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    official = ref.official(qrels_lines, run_lines, "r")
    names = {"AgP": "AgP/F(0.25)", "gP[5]": "gP@5/F(0.25)", "gP[10]": "gP@10/F(0.25)", "gP[25]": "gP@25/F(0.25)",
             "gR[10]": "gR@10", "ircl_prn.0.50": "ircl_prn.0.50/F(0.25)"}
    qrels, run = read_qrels(qrels_path), read_run(run_path)
    fast = lm.evaluate(qrels, run, [parse_list_measure(n) for n in [*names.values(), "MAP"]])
    assert fast.topics == [t for t in official if t != "all"] and len(fast.topics) == official["all"]["num_q"] > 100
    for theirs, ours in names.items():
        assert fast.means[ours] == pytest.approx(official["all"][theirs], rel=0, abs=TOLERANCE), ours
    # MAP: each topic's articles in rank order, relevant when their qrels line has relevant characters
    relevant = {(f[0], f[2]) for f in map(str.split, qrels_lines) if int(f[3]) > 0}
    aps = []
    for topic in fast.topics:
        ranked = list(dict.fromkeys(line.split()[2] for line in run_lines if line.split()[0] == topic))
        nrel = sum(1 for t, _ in relevant if t == topic)
        aps.append(ref.average_precision([(topic, a) in relevant for a in ranked], nrel))
    assert fast.means["MAP"] == pytest.approx(sum(aps) / len(aps), rel=0, abs=TOLERANCE)


@pytest.mark.parametrize("name", ["bert-passages.run", "indri-passages.run", "indri-documents.run"])
def test_real_runs_column_wise_are_article_by_article(inex, name):
    qrels = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    run = read_run(inex / "runs" / name)
    assert_same_evaluation(run, qrels)
    assert_same_evaluation(run, qrels, as_document=True, complete=True)


# -- many runs in worker processes -----------------------------------------------------------------


def test_many_runs_in_worker_processes_print_what_one_process_prints(inex, tmp_path):
    import io

    from readsim import cli

    runs = [str(inex / "runs" / n) for n in ("bert-passages.run", "indri-passages.run", "bert-passages-map19.run")]
    bad = tmp_path / "bad.run"
    bad.write_text("2009001 Q0 a 1 1 r 0 -5\n")
    options = ["-q", "-m", "AgP/F(0.25)", "-m", "MAiP", "-m", "ANCE@600/LE(300)", "-m", "AgP/BEP(500)"]
    printed = []
    for extra, more in ((["--jobs", "1"], []), (["--jobs", "2"], []), (["--jobs", "2", "--strict"], []),
                        (["--jobs", "2"], [str(bad), runs[0]])):
        out, err = io.StringIO(), io.StringIO()
        code = cli.main([str(inex / "qrels" / "inex2009-2010.qrels"), *runs, *more, *options, *extra], out, err)
        printed.append((code, out.getvalue(), err.getvalue()))
    assert printed[0] == printed[1] and printed[0][0] == 0 and printed[0][1].count("runid") == 3
    assert printed[2][0] == 1 and "rejected (--strict)" in printed[2][2]
    assert printed[3][0] == 1 and printed[3][2].endswith(f"{bad}:1: negative offset or length (0 -5)\n")


# -- with the collection, and per article ---------------------------------------------------------

PER_ARTICLE = ["F(0.25)", "aveChP", "LE(300)", "ES(2000)", "T2IF(300)", "BEP(500)", "P_set", "R_set", "ChP@300"]


def row_by_row(qrels, run, measures, collection=None, **kw):
    """The reference: each article on its own (tests/helpers/one_article.py) and ``article_score``."""
    from helpers.one_article import document

    from readsim.core.result_lines import Join

    join = Join()
    rows = []
    facts: dict = {}  # each article of the collection read once
    for topic, entry in ((t, e) for t, entries in run.topics.items() for e in entries):
        doc = document(qrels, run, topic, entry, kw.get("mode", "natural"), collection, kw.get("as_document", False),
                       join, facts)
        j = qrels.judgement(topic, entry.article)
        point = None if kw.get("as_document") else entry.entry_point
        rows.append((topic, entry.article, [lm.article_score(m, doc, j, 4, point) for m in measures]))
    return rows, [str(d) for d in join.diagnostics]


def assert_same_rows(fast, slow):
    """The same (topic, article) rows in the same order, each score within ``TOLERANCE`` (as
    arrays: pytest.approx per row took a fifth of a real run's test)."""
    assert [(t, a) for t, a, _ in fast] == [(t, a) for t, a, _ in slow]
    f, s = np.array([v for *_, v in fast], dtype=float), np.array([v for *_, v in slow], dtype=float)
    assert f.shape == s.shape
    off = np.argwhere(~(np.abs(f - s) <= TOLERANCE))  # a NaN on either side is off too
    assert len(off) == 0, [(fast[i][:2], fast[i][2], slow[i][2]) for i, _ in off[:5]]


def test_clipped_to_the_article_and_doc_length_checked_column_wise(tmp_path):
    """A passage past the article's text is clipped to it (text 40 characters, doc_length 40);
    the qrels' doc_length 50 for ``b`` differs from the article's 40: reported once, with the
    qrels' line, whether scored column-wise or article by article. ``u`` is not judged: it is
    non-relevant whatever its text (not read column-wise)."""
    from readsim.core.result_lines import Join
    from readsim.core.collection import Collection

    body = "x" * 40
    for name in ("a", "b", "u"):
        (tmp_path / f"{name}.xml").write_text(f"<article><body>{body}</body></article>")
    (tmp_path / "q.qrels").write_text("1 Q0 a 10 40 0 0:10\n1 Q0 b 10 50 0 30:10\n2 Q0 b 10 50 0 30:10\n")
    # a: 20..70 clipped to 20..40 (relevant 0..10 not retrieved); b: 35..90 -> 35..50 (doc_length 50)
    (tmp_path / "r.run").write_text("1 Q0 a 1 1 r 20 50\n1 Q0 b 2 1 r 35 55\n1 Q0 u 3 1 r 0 99\n2 Q0 b 1 1 r 35 55\n")
    run, qrels, coll = read_run(tmp_path / "r.run"), read_qrels(tmp_path / "q.qrels"), Collection(tmp_path)
    measures = [DocMeasure("P_set"), DocMeasure("R_set")]
    join = Join()
    fast = list(lm.per_article(qrels, run, measures, collection=coll, join=join))
    assert set(lm._rank_columns(qrels, run, ["1", "2"], measures, "natural", coll, False, 4)) == {"1", "2"}
    # b: T = [35, 50) (clipped to max(text 40, doc_length 50)), R = [30, 40): P = 5/15, R = 5/10
    assert fast == [("1", "a", [0.0, 0.0]), ("1", "b", [5 / 15, 0.5]), ("1", "u", [0.0, 0.0]), ("2", "b", [5 / 15, 0.5])]
    slow, said = row_by_row(qrels, article_by_article(run, qrels)[0], measures, coll)
    assert_same_rows(fast, slow)
    assert [str(d) for d in join.diagnostics] == said == [
        f"{tmp_path / 'q.qrels'}:2: warning: article b: doc_length 50 in the qrels, 40 computed from {tmp_path / 'b.xml'}"]


# each reading setting on one real run (a passage run and a whole-article run share them out), on
# half of its topics (every other one, in the run's order): each whole run is checked once, its
# two settings taking the two halves
@pytest.fixture(scope="module")
def articles(inex):
    """The real collection, one for the module's rows (each article parsed once, as one
    program's evaluations of several runs share it)."""
    from readsim.core.collection import Collection

    return Collection(inex / "articles")


@pytest.mark.parametrize("name, kw, half", [("bert-passages.run", {}, 0), ("bert-passages.run", {"mode": "worst"}, 1),
                                            ("indri-documents.run", {"as_document": True}, 0),
                                            ("indri-documents.run", {"mode": "entry"}, 1)])
def test_real_runs_per_article_with_the_collection_are_row_by_row(inex, tmp_path, articles, name, kw, half):
    from readsim.core.measure import parse_measure

    lines = (inex / "runs" / name).read_bytes().splitlines(keepends=True)
    topics = list(dict.fromkeys(line.split(maxsplit=1)[0] for line in lines))
    kept = set(topics[half::2])
    (tmp_path / name).write_bytes(b"".join(line for line in lines if line.split(maxsplit=1)[0] in kept))
    qrels = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    run = read_run(tmp_path / name)
    assert len(run.topics) == len(kept) > 40
    coll = articles
    measures = [parse_measure(m) for m in PER_ARTICLE]
    from readsim.core.result_lines import Join

    join = Join()
    fast = list(lm.per_article(qrels, run, measures, collection=coll, join=join, **kw))
    slow, said = row_by_row(qrels, article_by_article(run, qrels)[0], measures, coll, **kw)
    assert_same_rows(fast, slow)
    assert [str(d) for d in join.diagnostics] == said
