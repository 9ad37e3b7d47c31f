"""The session's helpers on their own, without a window: the article cache, the ranked rows' entry
points and modes, the collection's names, the held jobs. Numbers are worked by hand from
docs/reference.md section 3 (the ``entry`` reading mode reads ``[e, n)`` then wraps to ``[0, e)``)."""

from __future__ import annotations

import numpy as np

from readsim.app.articles import ArticleCache
from readsim.app.background import activity
from readsim.app.held_jobs import HeldJobs
from readsim.app.loading import CollectionNames
from readsim.app.rows import RankedRow, RowsByMode, moved_entry, run_entry_point
from readsim.core import intervals as iv
from readsim.core.doc_evaluation import evaluate_document
from readsim.core.formats import RunArticle, read_any_run
from readsim.core.reading import Mode, Piece

REL = np.array([[0, 10]])  # the article's first 10 units are relevant; the article is 100 long


def row(retrieved: np.ndarray, rank: int = 1, name: str = "a") -> RankedRow:
    natural = evaluate_document(REL, retrieved, 100, Mode.NATURAL)
    return RankedRow(rank, name, name, True, True, natural, natural)


def test_the_article_cache_keeps_the_last_ones_of_one_collection():
    cache, coll, other = ArticleCache(size=2), object(), object()
    for name in "abc":
        cache.keep(coll, name, f"article {name}", f"layout {name}")
    assert cache.names() == ["b", "c"]  # a, the oldest, went
    assert cache.get(coll, "a") is None and cache.hits == 0
    assert cache.get(coll, "b") == ("article b", "layout b") and cache.hits == 1
    assert cache.names() == ["c", "b"]  # b is the most recent now
    assert cache.get(other, "c") is None and cache.get(None, "c") is None  # another collection object: a miss
    assert cache.hits == 1


def test_the_run_entry_point():
    passage = RunArticle("a", 1, np.array([[120, 200], [300, 310]]), [], 1)
    assert run_entry_point(passage, None) == 120  # the first passage's start
    whole = RunArticle("a", 1, None, [], 1)
    assert run_entry_point(whole, None) == 0  # a whole-article result
    named = RunArticle("a", 1, None, ["/article[1]/bdy[1]/sec[2]"], 1)  # an XPath only
    assert run_entry_point(named, row(np.array([[50, 80]]))) == 50  # its resolved passage's start
    assert run_entry_point(named, None) == 0
    assert run_entry_point(None, row(np.array([[50, 80]]))) == 0  # not ranked by the run


def test_a_moved_entry_point_in_the_entry_mode():
    ranked, ev = moved_entry(None, evaluate_document(REL, iv.EMPTY, 100, Mode.ENTRY, 0), 90, Mode.ENTRY)
    assert ranked is None and ev.entry == 90
    assert ev.pieces == (Piece(90, 100, False), Piece(0, 10, True), Piece(10, 90, False))
    ranked, ev = moved_entry(row(np.array([[50, 80]])), ev, 40, Mode.ENTRY)
    assert ranked.natural.entry == 40 and ranked.natural.mode is Mode.NATURAL and ev is ranked.evaluation
    assert ev.pieces == (Piece(40, 100, False), Piece(0, 10, True), Piece(10, 40, False))


def test_a_moved_entry_point_in_another_mode_is_kept_for_later():
    natural = evaluate_document(REL, iv.EMPTY, 100, Mode.NATURAL, 0)
    ranked, ev = moved_entry(None, natural, 90, Mode.NATURAL)
    assert ranked is None and ev.entry == 90 and ev.pieces == natural.pieces
    assert ev.in_mode(Mode.ENTRY).pieces[0] == Piece(90, 100, False)


def test_rows_by_mode_gives_back_the_same_lists():
    memo = RowsByMode()
    rows = [row(np.array([[50, 80]])), row(np.array([[0, 5]]), 2, "b")]
    worst = memo.rows(rows, Mode.NATURAL, Mode.WORST)
    assert [r.evaluation.mode for r in worst] == [Mode.WORST, Mode.WORST]
    assert memo.rows(worst, Mode.WORST, Mode.NATURAL) is rows  # a mode seen: the same list object
    assert memo.rows(rows, Mode.NATURAL, Mode.WORST) is worst
    edited = [rows[0]]
    assert memo.rows(edited, Mode.NATURAL, Mode.WORST) is not worst  # other rows: the memo starts again
    assert memo.rows(edited, Mode.NATURAL, Mode.NATURAL) is edited


def test_rows_in_mode_read_each_row_as_it_would_be_read_alone():
    """A topic's rows arriving while a non-natural mode is chosen are read in it in one batch
    (``readsim.core.doc_evaluation.in_mode_many``), each as its own ``in_mode`` reads it. Worked by hand
    (reference section 3): R = [0, 10) of 100 units; retrieved [50, 80) read first in the
    natural mode; the worst reading reads the relevant text last."""
    from readsim.app.rows import rows_in_mode

    rows = [row(np.array([[50, 80]])), row(np.array([[0, 5]]), 2, "b"), row(iv.EMPTY, 3, "c")]
    for mode in (Mode.NATURAL, Mode.WORST, Mode.BEST, Mode.DOCUMENT, Mode.ENTRY):
        batch = rows_in_mode(rows, mode)
        for got, alone in zip(batch, rows):
            want = alone.in_mode(mode).evaluation
            assert (got.evaluation.mode, got.evaluation.pieces, got.evaluation.n, got.evaluation.entry) == (
                want.mode, want.pieces, want.n, want.entry), mode
        assert all(r.natural is o.natural for r, o in zip(batch, rows))
    assert rows_in_mode(rows, Mode.NATURAL)[0].evaluation.pieces[0] == Piece(50, 80, False)
    worst = rows_in_mode(rows, Mode.WORST)[0].evaluation.pieces
    assert worst[-1] == Piece(0, 10, True) and sum(p.end - p.start for p in worst) == 100


def test_the_collections_names_count_the_ranked_articles_it_holds(tmp_path):
    path = tmp_path / "r.run"
    path.write_text("1 Q0 a 1 1.0 r 0 10\n1 Q0 b 2 0.9 r 0 10\n1 Q0 c 3 0.8 r 0 10\n", encoding="utf-8")
    run, coll, names = read_any_run(path), object(), CollectionNames()
    assert names.in_collection(run, coll, "1") is None  # not listed yet
    names.keep(coll, frozenset({"a", "c", "z"}))
    assert names.in_collection(run, coll, "1") == (2, 3)
    assert names.in_collection(run, object(), "1") is None  # another collection object
    assert names.in_collection(None, coll, "1") is None


def test_held_jobs_start_once_released(qtbot):
    jobs, started = HeldJobs(), []
    jobs.after(lambda: started.append("now"))
    assert started == ["now"]  # nothing held: at once
    busy = activity().count
    jobs.hold()
    held = jobs.held
    jobs.after(lambda: started.append("later"))
    assert started == ["now"] and activity().count == busy + 1  # counted as in flight meanwhile
    jobs.release()
    assert started == ["now", "later"] and activity().count == busy and jobs.held is None
    jobs.hold()
    jobs.after(lambda: started.append("again"))
    jobs.release(held)  # the older hold's time limit: not these jobs
    assert started == ["now", "later"]
    jobs.release()
    assert started == ["now", "later", "again"]
