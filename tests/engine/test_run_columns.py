"""The column-wise evaluation path: many articles' reading orders at once in every mode against
the per-character reference (tests/engine/reference.py), and the Focused task's result lines
and the per-article scores of whole runs, worked by hand."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readsim.core import intervals as iv
from readsim.core import listmeasures as lm
from readsim.core.run_columns import joined
from readsim.core.doc_evaluation import evaluate_document, evaluate_documents, in_mode_many
from readsim.core.focused import focused_rows
from readsim.core.formats import read_qrels, read_run
from readsim.core.measure import DocMeasure, parse_list_measure

from .reference import ReferenceDoc
from .strategies import MODES, cases

TOL = 1e-12


@settings(max_examples=100, deadline=None)
@given(many=st.lists(cases(max_length=200), max_size=6), mode=st.sampled_from(MODES))
def test_a_batch_of_articles_in_every_mode_is_the_per_character_reference(many, mode):
    rel = [iv.normalize(c["relevant"]) for c in many]
    ret = [iv.EMPTY if c["retrieved"] is None else iv.normalize(c["retrieved"]) for c in many]
    batch = evaluate_documents(np.array([c["doc_length"] for c in many], dtype=np.int64),
                               np.cumsum([0] + [len(r) for r in rel]), np.concatenate(rel + [iv.EMPTY]),
                               np.cumsum([0] + [len(t) for t in ret]), np.concatenate(ret + [iv.EMPTY]),
                               np.array([c["retrieved"] is None for c in many], dtype=bool), mode,
                               np.array([c["entry"] for c in many], dtype=np.int64))
    refs = [ReferenceDoc(c["doc_length"], c["relevant"], c["retrieved"], mode, c["entry"]) for c in many]
    assert batch.n.tolist() == [r.n for r in refs] and batch.nrc.tolist() == [r.nrc for r in refs]
    for r, ave in zip(refs, batch.ave_chp()):
        assert abs(ave - r.ave_chp()) <= TOL
    for c0 in many[:1]:  # the parameters of the first case, for every article
        k, t, s, L, a, b = c0["k"], c0["tolerance"], c0["screen"], c0["levels"], c0["alpha"], c0["beta"]
        got = [batch.chp_at(k), batch.chr_at(k), *batch.t2i(t, a), batch.le(s, L), batch.es(s, L), *batch.set_scores(b)]
        for i, r in enumerate(refs):
            want = [r.chp_at(k), r.chr_at(k), *r.t2i(t, a), r.le(s, L), r.es(s, L), *r.set_scores(b)]
            assert np.allclose([g[i] for g in got], want, rtol=0, atol=TOL), (i, mode)


def files(tmp_path, qrels: str, run: str):
    (tmp_path / "q.qrels").write_text(qrels)
    (tmp_path / "r.run").write_text(run)
    return read_qrels(tmp_path / "q.qrels"), read_run(tmp_path / "r.run")


def test_focused_result_lines_count_text_once_and_whole_articles_by_doc_length(tmp_path):
    # topic 1: article a judged relevant on [10, 30) of 100; c judged not relevant, 50 long;
    # b unjudged (its length is unknown: a whole-article line of it retrieves nothing)
    qrels, run = files(tmp_path, "1 Q0 a 20 100 10 10:20\n1 Q0 c 0 50\n",
                       "1 Q0 a 1 1 r 0 20\n"      # [0, 20): 20 new, 10 relevant (10..19)
                       "1 Q0 b 2 1 r\n"           # b whole: unknown length, nothing
                       "1 Q0 a 3 1 r 15 10\n"     # [15, 25): 5 new (20..24), all relevant
                       "1 Q0 c 4 1 r\n"           # c whole: [0, 50), 50 new, none relevant
                       "1 Q0 a 5 1 r 90 0\n")     # zero length: nothing
    jt = joined(qrels, run, ["1"])
    (rel, size, unknown, first, _), = focused_rows(jt, None, False)
    assert size.tolist() == [20, 0, 5, 50, 0] and rel.tolist() == [10, 0, 5, 0, 0]
    assert (unknown, first) == (1, "b")
    # iP at recall 0.00: precision 10/20 then 15/25 (recall 0.75) then 15/75
    e = lm.evaluate(qrels, run, [parse_list_measure("iP[0.00]"), parse_list_measure("iP[0.75]")])
    assert e.means["iP[0.00]"] == pytest.approx(15 / 25) and e.means["iP[0.75]"] == pytest.approx(15 / 25)
    assert any("1 whole-article results of unjudged articles (first: b)" in str(d) for d in e.diagnostics)
    # as documents: one rank per article at its first line: a [0, 100), b nothing, c [0, 50)
    (rel, size, unknown, _, _), = focused_rows(jt, None, True)
    assert size.tolist() == [100, 0, 50] and rel.tolist() == [20, 0, 0] and unknown == 1


def test_per_article_scores_of_a_topic_the_qrels_do_not_judge_are_the_null_values(tmp_path):
    qrels, run = files(tmp_path, "1 Q0 a 20 100 10 10:20\n", "1 Q0 a 1 1 r 10 20\n9 Q0 a 1 1 r 10 20\n9 Q0 b 2 1 r\n")
    measures = [DocMeasure("F", 0, 0.25), DocMeasure("LE", 300), DocMeasure("aveChP")]
    rows = list(lm.per_article(qrels, run, measures, "entry"))
    # topic 1: a read from its entry point 10: the relevant [10, 30) first: F = 1, LE = 1, aveChP = 1
    assert rows == [("1", "a", [1.0, 1.0, 1.0]), ("9", "a", [0.0, 5.0, 0.0]), ("9", "b", [0.0, 5.0, 0.0])]


@settings(max_examples=100, deadline=None)
@given(many=st.lists(cases(max_length=200), max_size=6), mode=st.sampled_from(MODES))
def test_many_articles_change_mode_in_one_batch_as_one_by_one(many, mode):
    evs = [evaluate_document(c["relevant"], c["retrieved"], c["doc_length"], c["mode"], c["entry"]) for c in many]
    got = in_mode_many(evs, mode)
    for ev, g in zip(evs, got):
        want = ev.in_mode(mode)
        assert (g.pieces, g.n, g.mode, g.entry, g.doc_length) == (want.pieces, want.n, want.mode, want.entry, want.doc_length)
        assert np.array_equal(g.relevant, want.relevant)
        ref = ReferenceDoc(ev.doc_length, ev.relevant.tolist(), None if ev.retrieved is None else ev.retrieved.tolist(),
                           mode, ev.entry)
        assert abs(g.ave_chp() - ref.ave_chp()) <= TOL


def test_a_mode_change_in_one_batch_by_hand():
    # docs/reference.md section 11's mini article: relevant 1..27 of 55, retrieved 24..45;
    # worst reads the chain, then the rest's non-relevant 46..55, then its relevant 1..23
    ev = evaluate_document([(0, 27)], [(23, 45)], 55)
    (worst,) = in_mode_many([ev], "worst")
    # (27..45 and 46..55 continue each other but the chain ends at 45: two pieces, reference 3)
    assert [(p.start, p.end, p.relevant) for p in worst.pieces] == [(23, 27, True), (27, 45, False), (45, 55, False),
                                                                    (0, 23, True)]


def test_collection_limits_read_only_the_articles_the_collection_lists(tmp_path, monkeypatch):
    """Each ranked article the collection has is read once (its text length, 13 and 20
    characters; b's doc_length, 17 without its trailing dots (reference 1.4), filled in where the
    qrels had none, its limit the larger, 20); the absent ones are found
    in one listing of the collection, never looked up one by one, and keep no limit (2**62)."""
    from readsim.core.collection import Collection
    from readsim.core.formats.qrels import Qrels
    from readsim.core.run_columns import collection_limits

    (tmp_path / "a.xml").write_text("<article><p>thirteen char</p></article>", encoding="utf-8")
    (tmp_path / "b.xml").write_text("<article><p>twenty characters...</p></article>", encoding="utf-8")
    coll = Collection(tmp_path)
    looked = []
    monkeypatch.setattr(Collection, "__contains__", lambda self, name: looked.append(name))
    read = []
    article = Collection.article
    monkeypatch.setattr(Collection, "article", lambda self, name: read.append(name) or article(self, name))
    names = ["x1", "a", "x2", "b", "a", "x3"]
    limit, doc_length = collection_limits(coll, names, np.array([-1, 30, -1, -1, 30, -1]), np.arange(6),
                                          Qrels(""), None)
    assert sorted(read) == ["a", "b"] and looked == []
    big = 1 << 62
    assert limit.tolist() == [big, 30, big, 20, 30, big]
    assert doc_length.tolist() == [-1, 30, -1, 17, 30, -1]


def test_a_collection_reads_each_article_once_for_every_run_and_pass(tmp_path, monkeypatch):
    """Collection.facts is a snapshot (reference 1.4's lengths, as the listing): a second call,
    another run's or the whole-document pass's, parses nothing again, and answers absent names
    from the listing; an unreadable article is an error each time it is asked, never kept."""
    from readsim.core.collection import Collection
    from readsim.core.errors import InputError
    from readsim.core.run_columns import collection_limits

    (tmp_path / "a.xml").write_text("<article><p>thirteen char</p></article>", encoding="utf-8")
    (tmp_path / "b.xml").write_text("<article><p>twenty characters...</p></article>", encoding="utf-8")
    (tmp_path / "bad.xml").write_text("<article><p>not closed</article>", encoding="utf-8")
    coll = Collection(tmp_path)
    read = []
    article = Collection.article
    monkeypatch.setattr(Collection, "article", lambda self, name: read.append(name) or article(self, name))
    first = coll.facts(["b", "x", "a", "b"])
    assert [f if f is None else f[:2] for f in first] == [(20, 17), None, (13, 13), (20, 17)]
    assert sorted(read) == ["a", "b"]
    limit, _ = collection_limits(coll, ["a", "y", "b"], np.array([30, -1, -1]), np.arange(3), None, None)
    assert limit.tolist() == [30, 1 << 62, 20] and sorted(read) == ["a", "b"]  # nothing parsed again
    for _ in range(2):
        with pytest.raises(InputError, match="bad.xml"):
            coll.facts(["bad"])
    assert read.count("bad") == 2
