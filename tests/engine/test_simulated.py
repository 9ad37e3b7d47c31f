"""Simulated runs (docs/reference.md section 8; Kamps et al., INEX 2007 evaluation measures, section 4):
passage sets worked by hand on small articles, rankings on hand-made qrels, whole runs scored
by hand, and the expected orderings of the S-R space on the real data."""

from __future__ import annotations

from fractions import Fraction as Fr

import numpy as np
import pytest

from readsim.core import intervals as iv
from readsim.core.collection import Collection
from readsim.core.formats import Judgement, Qrels, read_qrels
from readsim.core.listmeasures import evaluate
from readsim.core.measure import parse_list_measure
from readsim.core.simulated import (NONRELEVANT_PLACEHOLDER, RANKINGS, STRATEGIES, element_table, parse_run_name,
                                      rank_articles, run_names, simulated_run, strategy_passages)
from readsim.core.text import Article

from helpers.engine_cases import COMPLETE, TABLE2_ALWAYS

# The text, offset by offset (no whitespace between tags, so every character is counted):
#   [0,4) "Cats" title, [4,5) "7" id            header [0,5)
#   [5,12) "Purring" st                         sec [5,50), bdy [5,60)
#   [12,38) "Cats purr loudly at night." p1, with b "loudly" [22,28)
#   [38,50) "Kittens too." p2, with an empty <br/> at 45 (so p2 is not a leaf)
#   [50,60) "Dogs bark." p3                     article [0,60)
XML = (b"<article><header><title>Cats</title><id>7</id></header><bdy><sec><st>Purring</st>"
       b"<p>Cats purr <b>loudly</b> at night.</p><p>Kittens<br/> too.</p></sec><p>Dogs bark.</p></bdy></article>")

A = (14, 30)  # "ts purr loudly a": inside p1, covers b whole
B = (38, 60)  # p2 and p3 whole
C = (0, 4)    # the title
D = (5, 9)    # "Purr": part of st, no whole element


@pytest.fixture
def art() -> Article:
    a = Article.from_bytes(XML, "cats")
    assert a.text == "Cats7Purring" + "Cats purr loudly at night." + "Kittens too." + "Dogs bark."
    return a


def spans(*pairs) -> np.ndarray:
    return iv.normalize(pairs)


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == np.int64 and a.shape == b.shape and bool(np.array_equal(a, b))


def test_the_hand_worked_element_spans(art):
    # the comment above is what the strategies below are worked from
    want = {"/article[1]": (0, 60), "/article[1]/header[1]": (0, 5), "/article[1]/header[1]/title[1]": (0, 4),
            "/article[1]/header[1]/id[1]": (4, 5), "/article[1]/bdy[1]": (5, 60), "/article[1]/bdy[1]/sec[1]": (5, 50),
            "/article[1]/bdy[1]/sec[1]/st[1]": (5, 12), "/article[1]/bdy[1]/sec[1]/p[1]": (12, 38),
            "/article[1]/bdy[1]/sec[1]/p[1]/b[1]": (22, 28), "/article[1]/bdy[1]/sec[1]/p[2]": (38, 50),
            "/article[1]/bdy[1]/sec[1]/p[2]/br[1]": (45, 45), "/article[1]/bdy[1]/p[1]": (50, 60)}
    assert {e.xpath: (e.start, e.end) for e in art.elements} == want
    _, leaf = element_table(art)
    leaves = {e.tag + e.xpath[-3:] for e, is_leaf in zip(art.elements, leaf) if is_leaf}
    assert leaves == {"title[1]", "id[1]", "st[1]", "b[1]", "br[1]", "p[1]"}  # the last p[1] is p3
    assert not leaf[[e.xpath for e in art.elements].index("/article[1]/bdy[1]/sec[1]/p[2]")]


@pytest.mark.parametrize("passage, sl, ss, sst", [
    (A, [(12, 38)], [(22, 28)], [(22, 28)]),            # p1; b is the only whole element, a leaf
    (B, [(5, 59)], [(38, 59)], [(50, 59)]),             # bdy; p2+p3 touch and merge; p2 has a child, p3 is a leaf
    (C, [(0, 4)], [(0, 4)], [(0, 4)]),                  # header elements count: the title itself
    (D, [(5, 12)], [], []),                             # covers no whole element: nothing
    ((50, 80), [(50, 59)], [(50, 59)], [(50, 59)]),     # clipped to the text first: [50, 60) = p3
    ((3, 6), [(0, 59)], [(4, 5)], [(4, 5)]),            # across header and body: only the root holds it
])
# (every element set ends at doc_length 59, rule 2: bdy, p3 and the root run to 60, past "bark")
def test_each_strategy_on_one_passage(art, passage, sl, ss, sst):
    p = spans(passage)
    assert same(strategy_passages("S", p, art), iv.clip(p, 0, 60))
    assert same(strategy_passages("SL", p, art), spans(*sl))
    assert same(strategy_passages("SLD", p, art), spans((0, 59)))  # [0, doc_length): "Dogs bark" ends at 59
    assert same(strategy_passages("SS", p, art), spans(*ss))
    assert same(strategy_passages("SST", p, art), spans(*sst))


def test_all_passages_together_are_the_union(art):
    p = spans(A, B, C, D)
    assert same(strategy_passages("S", p, art), spans((0, 4), (5, 9), (14, 30), (38, 60)))
    # title [0,4); st [5,12), p1 [12,38) and bdy [5,60) merge into [5,60)
    assert same(strategy_passages("SL", p, art), spans((0, 4), (5, 59)))
    assert same(strategy_passages("SS", p, art), spans((0, 4), (22, 28), (38, 59)))
    assert same(strategy_passages("SST", p, art), spans((0, 4), (22, 28), (50, 59)))


def test_two_passages_in_one_paragraph_give_it_once(art):
    assert same(strategy_passages("SL", spans((12, 15), (20, 25)), art), spans((12, 38)))


def test_empty_and_outside_passages(art):
    for p in (iv.EMPTY, spans((70, 80))):
        for name in ("S", "SL", "SS", "SST"):
            assert same(strategy_passages(name, p, art), iv.EMPTY)
        assert same(strategy_passages("SLD", p, art), spans((0, 59)))


def test_equal_spans_and_a_passage_equal_to_an_element():
    a = Article.from_bytes(b"<article><p><b><link>xy</link></b> z</p></article>", "n")
    # p [0,4) "xy z"; b and link both [0,2): SL of [0,1) is [0,2) whichever is taken
    assert same(strategy_passages("SL", spans((0, 1)), a), spans((0, 2)))
    # a passage equal to p: SL and SS return p itself; SST the leaf link
    assert same(strategy_passages("SL", spans((0, 4)), a), spans((0, 4)))
    assert same(strategy_passages("SS", spans((0, 4)), a), spans((0, 4)))
    assert same(strategy_passages("SST", spans((0, 4)), a), spans((0, 2)))


def test_offsets_in_bytes_and_in_characters():
    xml = "<article><title>Café</title><p>Noël et <b>été</b></p></article>".encode()
    for unit, title, b in (("chars", (0, 4), (12, 15)), ("bytes", (0, 5), (14, 19))):
        a = Article.from_bytes(xml, "u", unit)
        assert a.span("/article[1]/p[1]/b[1]") == b
        assert same(strategy_passages("SL", spans((1, 2)), a), spans(title))
        assert same(strategy_passages("SST", spans((0, a.length)), a), spans(title, b))


def test_unknown_names():
    with pytest.raises(ValueError, match="strategies are S, SL, SLD, SS, SST"):
        strategy_passages("SX", iv.EMPTY, Article.from_bytes(b"<article>x</article>"))
    with pytest.raises(ValueError, match="rankings are"):
        rank_articles(Qrels(""), "1", "RX")
    with pytest.raises(ValueError, match="not a simulated run"):
        parse_run_name("SLX")
    assert parse_run_name("SLDRSI") == ("SLD", "RSI")
    assert parse_run_name("SSTR") == ("SST", "R")
    assert parse_run_name("SRS") == ("S", "RS")
    names = run_names()
    assert len(names) == 20 and names[:4] == ["SR", "SRS", "SRI", "SRSI"] and names[-1] == "SSTRSI"
    assert all(parse_run_name(n) in {(s, r) for s in STRATEGIES for r in RANKINGS} for n in names)


# -- rankings --------------------------------------------------------------------------------


def qrels_of(rows, topic="1", path="q") -> Qrels:
    """rows: (article, rel_size, doc_length, passages) in file order."""
    q = Qrels(path)
    q.topics[topic] = {a: Judgement(topic, a, size, length, None, spans(*p) if p else iv.EMPTY.copy(), i + 1)
                       for i, (a, size, length, p) in enumerate(rows)}
    return q


def test_rankings_with_a_judged_nonrelevant_article():
    # rel sizes: a1 100, a2 300, a3 200, a4 0 (non-relevant), a5 200 (ties a3, later in the file)
    q = qrels_of([("a1", 100, 1000, [(0, 100)]), ("a2", 300, 1000, [(0, 300)]), ("a3", 200, 1000, [(0, 200)]),
                  ("a4", 0, 1000, None), ("a5", 200, 1000, [(0, 200)])])
    assert rank_articles(q, "1", "R") == ["a2", "a3", "a5", "a1"]
    assert rank_articles(q, "1", "RS") == ["a3", "a2", "a5", "a1"]
    assert rank_articles(q, "1", "RI") == ["a4", "a2", "a3", "a5", "a1"]
    assert rank_articles(q, "1", "RSI") == ["a4", "a3", "a2", "a5", "a1"]
    assert rank_articles(q, "1", "RI", nonrelevant="zz") == ["zz", "a2", "a3", "a5", "a1"]


def test_rankings_without_nonrelevant_and_with_one_article():
    q = qrels_of([("only", 5, 10, [(0, 5)])])
    assert rank_articles(q, "1", "RS") == ["only"]  # nothing to swap
    assert rank_articles(q, "1", "RSI") == [NONRELEVANT_PLACEHOLDER, "only"]
    assert rank_articles(q, "unjudged", "R") == []


# -- whole runs, scored by hand ----------------------------------------------------------------


@pytest.fixture
def one_article_collection(tmp_path) -> Collection:
    (tmp_path / "cats.xml").write_bytes(XML)
    return Collection(tmp_path)


def agp(name: str, q: Qrels, coll: Collection, measure: str = "AgP/F(1)") -> float:
    run = simulated_run(name, q, coll, "1")
    return evaluate(q, run, [parse_list_measure(measure)], collection=coll).means[measure]


def test_simulated_runs_scored_by_hand(one_article_collection):
    coll = one_article_collection
    q = qrels_of([("cats", 16, 59, [A])])  # relevant [14,30): 16 characters; doc_length 59 ("Dogs bark" ends at 59)
    run = simulated_run("SLDRI", q, coll, "1")
    assert run.run_id == "SLDRI" and [e.article for e in run.topics["1"]] == [NONRELEVANT_PLACEHOLDER, "cats"]
    assert run.topics["1"][0].passages is None and run.topics["1"][0].rank == 1  # inserted article: whole
    assert same(run.topics["1"][1].passages, spans((0, 59))) and run.topics["1"][1].rank == 2  # [0, doc_length)
    # S: F = 1 at rank 1 -> AgP = 1; with a non-relevant article first gP[2] = 1/2
    assert agp("SR", q, coll) == 1.0
    assert agp("SRI", q, coll) == 0.5
    # SLD retrieves [0, doc_length) = [0,59): P = 16/59, R = 1, F1 = 2PR/(P+R) = (32/59)/(75/59) = 32/75;
    # RI halves it
    assert agp("SLDR", q, coll) == pytest.approx(float(Fr(32, 75)), abs=1e-12)
    assert agp("SLDRSI", q, coll) == pytest.approx(float(Fr(16, 75)), abs=1e-12)
    # SL retrieves p1 [12,38): P = 16/26, R = 1, F1 = 32/42 = 16/21
    assert agp("SLR", q, coll) == pytest.approx(float(Fr(16, 21)), abs=1e-12)
    # SS = SST retrieve b [22,28): P = 1, R = 6/16, F1 = (12/16)/(22/16) = 6/11
    assert agp("SSR", q, coll) == pytest.approx(float(Fr(6, 11)), abs=1e-12)
    assert agp("SSTRI", q, coll) == pytest.approx(float(Fr(3, 11)), abs=1e-12)


def test_a_strategy_with_no_span_keeps_the_rank(one_article_collection):
    q = qrels_of([("cats", 4, 59, [D])])  # "Purr": no whole element
    run = simulated_run("SSR", q, one_article_collection, ["1"])
    (entry,) = run.topics["1"]
    assert entry.article == "cats" and same(entry.passages, iv.EMPTY)
    assert agp("SSR", q, one_article_collection) == 0.0  # nothing retrieved: F = 0


def test_missing_article_is_an_error_except_for_S(one_article_collection):
    q = qrels_of([("cats", 16, 59, [A]), ("absent", 10, 100, [(0, 10)])])
    assert [e.article for e in simulated_run("SR", q, one_article_collection, "1").topics["1"]] == ["cats", "absent"]
    with pytest.raises(Exception, match="article absent .* is not in the collection"):
        simulated_run("SLR", q, one_article_collection, "1")


# -- the real data: the expected orderings of the S-R space ------------------------------------

OFFICIAL = "AgP/F(0.25)"
OURS = ("AgP/aveChP", "AgP/T2IF(300)")


@pytest.fixture(scope="module")
def space(inex):
    q = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    coll = Collection(inex / "articles")
    measures = [parse_list_measure(m) for m in (OFFICIAL, *OURS)]
    return {n: evaluate(q, simulated_run(n, q, coll, COMPLETE), measures, collection=coll) for n in run_names()}


@pytest.mark.parametrize("measure", [OFFICIAL, *OURS])
def test_sr_is_best_and_sldrsi_worst(space, measure):
    means = {n: ev.means[measure] for n, ev in space.items()}
    assert all(means["SR"] >= v for v in means.values())
    assert min(means, key=means.get) == "SLDRSI"  # the paper: SLDRSI or SSTRSI is the worst


@pytest.mark.parametrize("measure", [OFFICIAL, *OURS])
def test_table2_orderings_hold_on_every_complete_topic(space, measure):
    for first, second in TABLE2_ALWAYS:
        for topic in COMPLETE:
            a, b = space[first].values[measure][topic], space[second].values[measure][topic]
            assert a >= b - 1e-12, f"{first} < {second} on topic {topic} under {measure}: {a} < {b}"


@pytest.mark.parametrize("measure", [OFFICIAL, *OURS])
def test_a_nonrelevant_article_first_always_costs(space, measure):
    for s in STRATEGIES:
        for topic in COMPLETE:
            assert space[s + "R"].values[measure][topic] > space[s + "RI"].values[measure][topic]
            assert space[s + "RS"].values[measure][topic] > space[s + "RSI"].values[measure][topic]


def test_perfect_passages_score_one_on_the_set_measure(space):
    for topic in COMPLETE:
        assert space["SR"].values[OFFICIAL][topic] == 1.0
        assert space["SR"].values["AgP/aveChP"][topic] == 1.0
