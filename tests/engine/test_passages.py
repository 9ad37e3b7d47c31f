"""The passages table's rows (engine/core/passages.py), worked by hand on a small run file, and the
"read before" numbers against a per-character expansion of the reading order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from readsim.core import intervals as iv
from readsim.core.doc_evaluation import evaluate_document
from readsim.core.formats import read_run
from readsim.core.passages import (OUTSIDE, UNRESOLVED, ZERO_LENGTH, first_read, passage_table, run_lines,
                                     screen_of)
from readsim.core.reading import Mode

from .strategies import cases

# An article of 100 units (doc_length 100, text 100), relevant R1 [10,20), R2 [50,62), R3 [80,90).
#
#   line 1  a   30 10  [30,40) \_ passage 1 [30,45): touching lines merged, no overlap
#   line 2  a   40  5  [40,45) /
#   line 3  a   55 10  [55,65) \_ passage 2 [55,70): overlapping lines united
#   line 4  a   60 10  [60,70) /
#   line 5  a   15  0  zero length: retrieves nothing
#   line 6  b    0 10  another article
#   line 7  a   85  3  [85,88)    passage 3 (interleaved: a comes back after b)
#   line 8  a  150  5  outside the article's text (clipped away)
#
# Chain (natural, worst): P1 reads 0..15, P2 15..30, P3 30..33.
# Relevant inside: P1 0 (precision 0), P2 [55,62) = 7 (7/15), P3 3 (3/3 = 1).
# R1 missed; R2 found by P2 (7 retrieved); R3 found by P3 (3 retrieved).
# Natural, after the chain, the rest in document order:
#   [0,30) 33..63, [45,55) 63..73, [70,85) 73..88, [88,100) 88..100
#   R1 [10,20): first unit read at 33 + 10 = 43; R2: [55,62) on the chain at 15 (its first
#   unit 50 comes later, at 63 + 5 = 68); R3: [85,88) at 30.
# Worst, after the chain, the rest's non-relevant pieces then its relevant ones:
#   [0,10) 33..43, [20,30) 43..53, [45,50) 53..58, [70,80) 58..68, [90,100) 68..78,
#   then [10,20) 78..88, [50,55) 88..93, [80,85) 93..98, [88,90) 98..100
#   R1 at 78; R2 and R3 still reached on the chain (15, 30).
RELEVANT = iv.as_array([(10, 20), (50, 62), (80, 90)])
LINES = ["T Q0 a 1 1 r 30 10", "T Q0 a 2 1 r 40 5", "T Q0 a 3 1 r 55 10", "T Q0 a 4 1 r 60 10",
         "T Q0 a 5 1 r 15 0", "T Q0 b 6 1 r 0 10", "T Q0 a 7 1 r 85 3", "T Q0 a 8 1 r 150 5"]


@pytest.fixture
def entry(tmp_path):
    path = tmp_path / "small.run"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return read_run(path).article("T", "a")


def table(entry, mode):
    ev = evaluate_document(RELEVANT, entry.passages, 100, mode, text_length=100)
    return passage_table(ev, entry)


def test_retrieved_passages_with_their_lines(entry):
    t = table(entry, Mode.NATURAL)
    assert [(p.number, p.start, p.end, p.length) for p in t.retrieved] == [(1, 30, 45, 15), (2, 55, 70, 15), (3, 85, 88, 3)]
    assert [p.relevant for p in t.retrieved] == [0, 7, 3]
    assert [p.precision for p in t.retrieved] == [0.0, pytest.approx(7 / 15), 1.0]
    assert [[(ln.number, ln.start, ln.end) for ln in p.lines] for p in t.retrieved] == [
        [(1, 30, 40), (2, 40, 45)], [(3, 55, 65), (4, 60, 70)], [(7, 85, 88)]]
    assert [p.merged for p in t.retrieved] == [True, True, False]
    # touching lines are merged but do not overlap; lines 3 and 4 share [60,65)
    assert [[ln.overlaps for ln in p.lines] for p in t.retrieved] == [[(), ()], [(4,), (3,)], [()]]
    assert [p.finds for p in t.retrieved] == [(), (2,), (3,)]


def test_lines_that_retrieve_nothing(entry):
    t = table(entry, Mode.NATURAL)
    assert [(ln.number, ln.start, ln.length, ln.reason) for ln in t.unused] == [
        (5, 15, 0, ZERO_LENGTH), (8, 150, 5, OUTSIDE)]


def test_relevant_passages_found_or_missed(entry):
    t = table(entry, Mode.NATURAL)
    assert [(r.number, r.start, r.end) for r in t.relevant] == [(1, 10, 20), (2, 50, 62), (3, 80, 90)]
    assert [r.found_by for r in t.relevant] == [None, 2, 3]
    assert [r.missed for r in t.relevant] == [True, False, False]
    assert [r.retrieved for r in t.relevant] == [0, 7, 3]


@pytest.mark.parametrize("mode, retrieved, relevant", [
    (Mode.NATURAL, [0, 15, 30], [43, 15, 30]),
    (Mode.WORST, [0, 15, 30], [78, 15, 30]),
    (Mode.BEST, [0, 15, 30], [33, 15, 30]),  # best: [10,20) is the first relevant piece left
    (Mode.DOCUMENT, [30, 55, 85], [10, 50, 80]),  # the chain is ignored: read_before = offset
])
def test_read_before_per_mode(entry, mode, retrieved, relevant):
    t = table(entry, mode)
    assert t.mode is mode and t.n == 100
    assert [p.read_before for p in t.retrieved] == retrieved
    assert [r.read_before for r in t.relevant] == relevant


def test_screens_and_le(entry):
    t = table(entry, Mode.WORST)
    assert [screen_of(r.read_before, 10) for r in t.relevant] == [8, 2, 4]
    # the first relevant passage reached gives LE: first relevant position f = 16, screen 10 -> 2
    ev = evaluate_document(RELEVANT, entry.passages, 100, Mode.WORST, text_length=100)
    assert ev.le(10) == min(screen_of(r.read_before, 10) for r in t.relevant) == 2
    assert screen_of(0, 300) == 1 and screen_of(299, 300) == 1 and screen_of(300, 300) == 2
    with pytest.raises(ValueError):
        screen_of(5, 0)


def test_whole_article_and_xpath_lines(tmp_path):
    path = tmp_path / "w.run"
    path.write_text("T Q0 a 1 1 r\nT Q0 c 2 1 r /article[1]/bdy[1]\nT Q0 c 3 1 r /article[1]/bdy[1]/sec[9]\n"
                    "T Q0 c 4 1 r 5 5\n", encoding="utf-8")
    run = read_run(path)
    a = run.article("T", "a")
    t = passage_table(evaluate_document(RELEVANT, a.passages, 100, Mode.NATURAL), a)
    assert [(p.start, p.end, [(ln.number, ln.kind) for ln in p.lines]) for p in t.retrieved] == [(0, 100, [(1, "whole")])]
    assert [r.found_by for r in t.relevant] == [1, 1, 1]
    c = run.article("T", "c")
    spans = [(20, 60), None]  # the body resolved, sec[9] not in the article
    lines = run_lines(c, 100, spans)
    assert [(ln.number, ln.kind, ln.start, ln.end, ln.xpath, ln.reason) for ln in lines] == [
        (2, "xpath", 20, 60, "/article[1]/bdy[1]", ""), (3, "xpath", -1, -1, "/article[1]/bdy[1]/sec[9]", UNRESOLVED),
        (4, "offset", 5, 10, "", "")]
    ev = evaluate_document(RELEVANT, iv.normalize([(20, 60), (5, 10)]), 100, Mode.NATURAL)
    t = passage_table(ev, c, spans)
    assert [(p.start, p.end, [ln.number for ln in p.lines]) for p in t.retrieved] == [(5, 10, [4]), (20, 60, [2])]
    assert [(ln.number, ln.reason) for ln in t.unused] == [(3, UNRESOLVED)]


def test_no_run_entry_and_nothing_retrieved():
    ev = evaluate_document(RELEVANT, iv.EMPTY, 100, Mode.NATURAL)
    t = passage_table(ev, None)
    assert t.retrieved == () and t.unused == ()
    assert [(r.found_by, r.read_before) for r in t.relevant] == [(None, 10), (None, 50), (None, 80)]
    assert run_lines(None, 100) == []


def expanded(pieces) -> list[int]:
    return [pos for p in pieces for pos in range(p.start, p.end)]


@settings(max_examples=200, deadline=None)
@given(cases(max_length=200))
def test_first_read_equals_the_per_character_order(c):
    ev = evaluate_document(iv.as_array(c["relevant"]), None if c["retrieved"] is None else iv.as_array(c["retrieved"]),
                           c["doc_length"], c["mode"], c["entry"])
    order = expanded(ev.pieces)
    index = {pos: i for i, pos in enumerate(order)}
    spans = list(ev.relevant.tolist()) + list(ev.retrieved_spans.tolist())
    got = first_read(ev.pieces, iv.as_array(spans)) if spans else []
    for (a, b), value in zip(spans, got):
        want = min((index[x] for x in range(a, b) if x in index), default=len(order))
        assert value == want
    t = passage_table(ev)
    for p in t.retrieved:
        assert p.relevant == sum(1 for x in range(p.start, p.end) if any(a <= x < b for a, b in ev.relevant.tolist()))
