"""Element runs: every line one ranked element (overlap kept), ties, and the simulated runs."""

from __future__ import annotations

import math

from pathlib import Path

import numpy as np
import pytest

from readsim.core.collection import Collection
from readsim.core.element_retrieval import (ancestors_run, derive_assessments, element_run_lines, evaluate_elements,
                                     perfect_run, read_element_run, write_element_run)
from readsim.core.element_retrieval.runs import assign_ranks
from readsim.core.errors import InputError
from readsim.core.formats import read_qrels

from helpers.engine_cases import ARTICLE, QRELS

X = np.round(np.arange(101) / 100, 2)


@pytest.fixture
def coll(tmp_path: Path) -> Collection:
    (tmp_path / "articles").mkdir()
    (tmp_path / "articles" / "A1.xml").write_bytes(ARTICLE)
    (tmp_path / "articles" / "B1.xml").write_bytes(b"<article><p>other text</p></article>")
    return Collection(tmp_path / "articles")


def read(tmp_path, text: str, coll, **kw):
    path = tmp_path / "run.txt"
    path.write_text(text)
    return read_element_run(path, coll, **kw)


def test_lines_are_ranked_elements_with_ties(tmp_path, coll):
    run = read(tmp_path, "T1 Q0 A1 1 0.9 r /article[1]/bdy[1]/p[1]\n"
                         "T1 Q0 A1 2 0.9 r /article/bdy/p[2]/b\n"       # same rsv: one rank
                         "T1 Q0 A1 3 0.5 r /article[1]/bdy[1]\n"        # nested: kept
                         "T1 Q0 B1 4 0.5 r\n"                          # 6 fields: the root
                         "T1 Q0 A1 5 0.4 r 17 3\n", coll)              # the span of b... again: dropped
    got = [(r.article, r.xpath, r.start, r.end, r.rank, r.line) for r in run.topics["T1"]]
    assert got == [("A1", "/article[1]/bdy[1]/p[1]", 5, 12, 1, 1),
                   ("A1", "/article[1]/bdy[1]/p[2]/b[1]", 17, 20, 1, 2),
                   ("A1", "/article[1]/bdy[1]", 5, 35, 2, 3),
                   ("B1", "/article[1]", 0, 10, 2, 4)]
    assert run.run_id == "r"
    assert "ranked again; its first rank is kept" in str(run.diagnostics[0]) and run.diagnostics[0].line == 5
    flat = read(tmp_path, "T1 Q0 A1 1 0.9 r /article[1]\nT1 Q0 A1 2 0.9 r /article[1]/bdy[1]\n", coll, ties=False)
    assert [r.rank for r in flat.topics["T1"]] == [1, 2]


def test_assign_ranks():
    assert assign_ranks([3, 3, 2, 2, 2, 1, 3]) == [1, 1, 2, 2, 2, 3, 4]  # only consecutive equal rsv tie
    assert assign_ranks([3, 3], ties=False) == [1, 2]
    assert assign_ranks([]) == []


@pytest.mark.parametrize("line, reason", [
    ("T1 Q0 A1 1 0.9 r /article[1]/sec[1]", "run.txt:1: article A1 has no element /article[1]/sec[1]"),
    ("T1 Q0 A1 1 high r /article[1]", "run.txt:1: rsv must be a number, not 'high'"),
    ("T1 Q0 A1 1 nan r /article[1]", "run.txt:1: rsv must be a finite number"),
    ("T1 Q0 A1 1 0.9 r 6 3", "run.txt:1: article A1: [6, 9) is not the span of an element"),
    ("T1 Q0 A1 1 0.9 r -1 3", "run.txt:1: negative offset or length"),
    ("T1 Q0 A1 1 0.9", "run.txt:1: a run line needs 6 to 8 fields"),
])
def test_bad_lines_name_file_and_line(tmp_path, coll, line, reason):
    with pytest.raises(InputError) as err:
        read(tmp_path, line + "\n", coll)
    assert reason in str(err.value)


def test_a_split_topic_is_merged_or_rejected(tmp_path, coll):
    text = "T1 Q0 A1 1 3 r /article[1]\nT2 Q0 A1 1 3 r /article[1]\nT1 Q0 B1 2 2 r /article[1]\n"
    run = read(tmp_path, text, coll)
    assert [r.article for r in run.topics["T1"]] == ["A1", "B1"]
    assert "topic T1 appears in two blocks" in str(run.diagnostics[0])
    with pytest.raises(InputError, match=r"run.txt:3: topic T1 appears in two blocks; rejected \(--strict\)"):
        read(tmp_path, text, coll, strict=True)


def test_xml_runs_with_paths(tmp_path, coll):
    xml = """<inex-submission run-id="x">
  <topic topic-id="T1">
    <result><file>A1</file><path>/article[1]/bdy[1]/p[1]</path><path>/article[1]/bdy[1]/p[2]</path><rsv>2</rsv></result>
    <result><file>A1</file><fol offset="17" length="3"/><rsv>1</rsv></result>
    <result><file>B1</file></result>
  </topic>
</inex-submission>"""
    run = read(tmp_path, xml, coll)
    assert run.run_id == "x"
    assert [(r.xpath, r.rank, r.line) for r in run.topics["T1"]] == [
        ("/article[1]/bdy[1]/p[1]", 1, 3), ("/article[1]/bdy[1]/p[2]", 1, 3), ("/article[1]/bdy[1]/p[2]/b[1]", 2, 4),
        ("/article[1]", 3, 5)]
    bad = xml.replace("<file>B1</file>", '<file>B1</file><passage start="/article[1]/p[1]" end="/article[1]/p[1]"/>')
    with pytest.raises(InputError, match="run.txt:5: a <passage>"):
        read(tmp_path, bad, coll)


def tiny_assessments(tmp_path):
    (tmp_path / "q.qrels").write_text(QRELS)
    coll = Collection(tmp_path / "articles")
    return derive_assessments(read_qrels(tmp_path / "q.qrels"), coll), coll


def test_perfect_and_ancestors_runs(tmp_path, coll):
    a, _ = tiny_assessments(tmp_path)
    # elements with s = 3: p1 (e 3) and b (e 1): two ranks, rsv = e
    perfect = perfect_run(a)
    assert [(r.xpath, r.rank, r.rsv) for r in perfect.topics["T1"]] == [
        ("/article[1]/bdy[1]/p[1]", 1, 3.0), ("/article[1]/bdy[1]/p[2]/b[1]", 2, 1.0)]
    # ancestors: the perfect run, then every ancestor once, in one rank, document order
    anc = ancestors_run(a)
    assert [(r.xpath, r.rank, r.rsv) for r in anc.topics["T1"]][2:] == [
        ("/article[1]", 3, 0.0), ("/article[1]/bdy[1]", 3, 0.0), ("/article[1]/bdy[1]/p[2]", 3, 0.0)]
    assert anc.run_id == "ancestors" and perfect.run_id == "perfect"


def test_inex_2002_gen_rewards_the_ancestors(tmp_path, coll):
    a, _ = tiny_assessments(tmp_path)
    # f_gen: article (3,1) .75, bdy (3,1) .75, p1 (3,3) 1, p2 (1,1) .25, b (1,3) .5 -> n = 3.25
    # perfect: rank 1 {p1} r 1 i 0; rank 2 {b} r .5 i .5
    # ancestors: + rank 3 {article, bdy, p2} r 1.75 i 1.25

    def perfect(x, more=False):
        nr = 3.25 * x
        if nr <= 1 + 1e-12:
            return 1.0
        if nr <= 1.5 + 1e-12:
            return nr / (nr + (nr - 1) * 0.5 / 1.5)
        if more:
            return nr / (nr + 0.5 + (nr - 1.5) * 1.25 / 2.75)
        return 0.0

    ap_p = np.mean([perfect(x) for x in X[1:]])
    ap_a = np.mean([perfect(x, True) for x in X[1:]])
    got_p = evaluate_elements(a, perfect_run(a), ["AP_2002/gen"]).means["AP_2002/gen"]
    got_a = evaluate_elements(a, ancestors_run(a), ["AP_2002/gen"]).means["AP_2002/gen"]
    assert got_p == pytest.approx(ap_p) and got_a == pytest.approx(ap_a)
    assert got_a > got_p


def test_element_run_lines_read_back(tmp_path, coll):
    a, c = tiny_assessments(tmp_path)
    run = ancestors_run(a)
    assert element_run_lines(run)[0] == "T1 Q0 A1 1 3.0 ancestors /article[1]/bdy[1]/p[1]"
    write_element_run(run, tmp_path / "anc.run")
    back = read_element_run(tmp_path / "anc.run", c)
    assert [(r.xpath, r.rank, r.start, r.end) for r in back.topics["T1"]] == \
           [(r.xpath, r.rank, r.start, r.end) for r in run.topics["T1"]]


def test_articles_the_collection_lacks_are_found_in_one_listing(tmp_path, coll, monkeypatch):
    """A run naming many articles the collection lacks: each is an unknown element (not an
    error), found absent in the collection's one listing, never looked up file by file."""
    looked = []
    where = Collection._where
    monkeypatch.setattr(Collection, "_where", lambda self, name: looked.append(name) or where(self, name))
    run = read(tmp_path, "".join(f"T1 Q0 X{i} {i + 1} 1 r /article[1]\n" for i in range(5))
               + "T1 Q0 A1 6 0.5 r /article[1]/bdy[1]\n", coll)
    assert [r.article for r in run.topics["T1"]] == [f"X{i}" for i in range(5)] + ["A1"]
    assert not any(name.startswith("X") for name in looked)


def test_evaluation_topics_and_warnings(tmp_path, coll):
    a, c = tiny_assessments(tmp_path)
    run = read(tmp_path, "T9 Q0 A1 1 1 r /article[1]\n", coll)
    ev = evaluate_elements(a, run, ["AP_2003o/gen"])
    assert ev.topics == [] and math.isnan(ev.means["AP_2003o/gen"])  # a mean over no topic: none (n/a)
    assert "1 topics of run r are not assessed (first: T9)" in str(ev.diagnostics[0])
    ev = evaluate_elements(a, run, ["AP_2003o/gen", "iP_2003o[0.00]/gen"], complete=True)
    assert ev.values["AP_2003o/gen"] == {"T1": 0.0} and ev.values["iP_2003o[0.00]/gen"] == {"T1": 0.0}


def test_simulated_ranking_of_one_topic(tmp_path, coll):
    from readsim.core.element_retrieval import simulated_ranking

    a, _ = tiny_assessments(tmp_path)
    ta = a.topics["T1"]
    assert simulated_ranking("perfect", ta) == perfect_run(a).topics["T1"]
    assert simulated_ranking("ancestors", ta) == ancestors_run(a).topics["T1"]
    with pytest.raises(ValueError, match="unknown simulated element run 'best'"):
        simulated_ranking("best", ta)
