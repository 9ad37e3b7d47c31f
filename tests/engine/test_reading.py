"""Reading orders (docs/reference.md section 3): hand-worked orders and a property test against the
per-character reference of ``reference.py``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from readsim.core import intervals as iv
from readsim.core.doc_evaluation import evaluate_document
from readsim.core.reading import Mode, Piece, window

from .reference import ReferenceDoc
from .strategies import cases


def expand(pieces) -> tuple[list[int], list[bool]]:
    """The pieces as one position and one relevance flag per character (tests only)."""
    order: list[int] = []
    flags: list[bool] = []
    for p in pieces:
        order.extend(range(p.start, p.end))
        flags.extend([p.relevant] * (p.end - p.start))
    return order, flags


def reading_order(n, relevant, retrieved, mode="natural", entry=0):
    """The pieces of an article of ``n`` positions read in ``mode`` (evaluate_document's)."""
    return evaluate_document(relevant, retrieved, n, mode, entry).pieces


def spans(*pairs):
    return iv.normalize(pairs)


# -- hand-worked orders: n = 10, R = {2,3,7,8} = [2,4) u [7,9), T = {6,7} = [6,8) ----------
# document positions: 0 1 2 3 4 5 6 7 8 9
# relevant:           . . r r . . . r r .
# retrieved:          . . . . . . t t . .
R = spans((2, 4), (7, 9))
T = spans((6, 8))


@pytest.mark.parametrize(
    "mode, entry, expected",
    [
        # chain 6,7; then the rest in document order
        ("natural", 0, [6, 7, 0, 1, 2, 3, 4, 5, 8, 9]),
        # chain 6,7; non-relevant rest 0,1,4,5,9; relevant rest 2,3,8
        ("worst", 0, [6, 7, 0, 1, 4, 5, 9, 2, 3, 8]),
        # chain 6,7; relevant rest 2,3,8; non-relevant rest 0,1,4,5,9
        ("best", 0, [6, 7, 2, 3, 8, 0, 1, 4, 5, 9]),
        # T ignored: 0..9
        ("document", 0, list(range(10))),
        # entry 7: 7,8,9 then wrap around to 0..6
        ("entry", 7, [7, 8, 9, 0, 1, 2, 3, 4, 5, 6]),
        # entry 0 reads like the document; an entry past n is clamped to n (= read from 0)
        ("entry", 0, list(range(10))),
        ("entry", 25, list(range(10))),
        ("entry", -3, list(range(10))),
    ],
)
def test_hand_worked_orders(mode, entry, expected):
    pieces = reading_order(10, R, T, mode, entry)
    order, flags = expand(pieces)
    assert order == expected
    assert flags == [p in (2, 3, 7, 8) for p in expected]


def test_pieces_of_natural_order():
    # chain: 6 (non-relevant), 7 (relevant); rest: 0-1 n, 2-3 r, 4-5 n, 8 r, 9 n
    assert reading_order(10, R, T, Mode.NATURAL) == (
        Piece(6, 7, False), Piece(7, 8, True), Piece(0, 2, False), Piece(2, 4, True),
        Piece(4, 6, False), Piece(8, 9, True), Piece(9, 10, False),
    )


def test_the_chain_last_piece_ends_where_the_chain_ends():
    # document positions: 0 1 2 3 4 5 6 7 8 9; R = [2, 8), T = [0, 5)
    # natural: chain 0-1 n, 2-4 r; then the rest from 5 (the chain's start is 0): 5-7 r, 8-9 n.
    # 2-4 and 5-7 are both relevant and touch, yet the first is read in the chain, the second
    # after it: two pieces, never one (2, 8) piece half of which is not in the chain
    r, t = spans((2, 8)), spans((0, 5))
    assert reading_order(10, r, t, Mode.NATURAL) == (
        Piece(0, 2, False), Piece(2, 5, True), Piece(5, 8, True), Piece(8, 10, False))
    # best: the relevant rest 5-7 comes right after the chain too
    assert reading_order(10, r, t, Mode.BEST) == (
        Piece(0, 2, False), Piece(2, 5, True), Piece(5, 8, True), Piece(8, 10, False))
    # worst: the non-relevant rest 8-9 first, then 5-7
    assert reading_order(10, r, t, Mode.WORST) == (
        Piece(0, 2, False), Piece(2, 5, True), Piece(8, 10, False), Piece(5, 8, True))
    # T = [5, 10) with R = [2, 8): chain 5-7 r, 8-9 n, then from 0: 0-1 n, 2-4 r; the chain's
    # first piece and the rest's do not touch, nothing to split
    assert reading_order(10, r, spans((5, 10)), Mode.NATURAL) == (
        Piece(5, 8, True), Piece(8, 10, False), Piece(0, 2, False), Piece(2, 5, True))


def test_whole_article_result_reads_in_document_order():
    for mode in ("natural", "worst", "best", "document"):
        assert expand(reading_order(10, R, None, mode))[0] == list(range(10))


def test_empty_article_and_errors():
    assert reading_order(0, iv.EMPTY, iv.EMPTY, "natural") == ()
    assert reading_order(0, iv.EMPTY, None, "entry", 3) == ()
    with pytest.raises(ValueError):
        reading_order(-1, iv.EMPTY, None)
    with pytest.raises(ValueError):
        reading_order(5, iv.EMPTY, None, "sideways")


def test_window_spans_in_reading_order():
    # natural order 6,7,0,1,2,3,4,5,8,9: reading positions [1, 5) are 7,0,1,2
    pieces = reading_order(10, R, T, "natural")
    assert window(pieces, 1, 5) == [(7, 8), (0, 2), (2, 3)]
    assert window(pieces, 0, 0) == []
    assert window(pieces, 8, 100) == [(8, 9), (9, 10)]


def test_retrieved_past_doc_length_extends_the_extent():
    # doc_length 10, T = [8, 14): n = 14, positions 10..13 read as non-relevant in the chain
    doc = evaluate_document(R, spans((8, 14)), 10, "natural")
    assert doc.n == 14
    order, flags = expand(doc.pieces)
    assert order == [8, 9, 10, 11, 12, 13, 0, 1, 2, 3, 4, 5, 6, 7]
    assert flags == [True] + [False] * 7 + [True, True] + [False] * 3 + [True]


# -- properties ------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(cases())
def test_pieces_cover_the_reference_order(c):
    doc = evaluate_document(
        np.asarray(c["relevant"], dtype=np.int64).reshape(-1, 2),
        None if c["retrieved"] is None else np.asarray(c["retrieved"], dtype=np.int64).reshape(-1, 2),
        c["doc_length"], c["mode"], c["entry"],
    )
    ref = ReferenceDoc(c["doc_length"], c["relevant"], c["retrieved"], c["mode"], c["entry"])
    order, flags = expand(doc.pieces)
    assert doc.n == ref.n
    assert doc.nrc == ref.nrc
    assert order == ref.order
    assert flags == ref.rel
    # homogeneous, non-empty pieces, neighbours that continue each other merged, except where
    # the chain ends: its last piece is read in the chain, the next after it
    chained = c["mode"] not in ("document", "entry")
    for a, b in zip(doc.pieces, doc.pieces[1:]):
        if a.end == b.start and a.relevant == b.relevant:
            assert chained and a.start in ref.retrieved_set and b.start not in ref.retrieved_set
    assert all(p.end > p.start for p in doc.pieces)
    # chain length: |T| in the chain modes, 0 when T is ignored
    if c["mode"] in ("document", "entry"):
        assert doc.chain_length == 0
    else:
        assert doc.chain_length == len(ref.retrieved_set)
    # the window of any reading-position range
    first = c["k"] % (ref.n + 3)
    last = first + c["tolerance"] % 50
    got = [q for s, e in window(doc.pieces, first, last) for q in range(s, e)]
    assert got == ref.window(first, last)


def test_another_mode_of_an_evaluation_reads_the_articles_doc_length():
    """R = [0, 10), T = [5, 30), doc_length 20: the natural reading goes on to 30 (the chain
    reads retrieved text past doc_length); the same article in the document mode reads
    [0, 20) only: 10 relevant, then 10 not (not [0, 30)), and keeps its entry point."""
    natural = evaluate_document(np.array([[0, 10]]), np.array([[5, 30]]), 20, Mode.NATURAL, entry=7)
    assert natural.n == 30 and natural.doc_length == 20
    doc = natural.in_mode(Mode.DOCUMENT)
    assert doc.n == 20 and [(p.length, p.relevant) for p in doc.pieces] == [(10, True), (10, False)]
    assert natural.in_mode(Mode.ENTRY).entry == 7
    assert natural.in_mode(Mode.ENTRY).n == 20
    back = doc.in_mode(Mode.NATURAL)
    assert back.n == 30 and [(p.length, p.relevant) for p in back.pieces] == [(p.length, p.relevant) for p in natural.pieces]
