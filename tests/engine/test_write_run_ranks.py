"""Saving a run whose ranks were moved (readsim.core.formats.run_writer.write_run, reordered topics).

A FOL run's line order is its ranking (docs/reference.md section 2.3), so a topic whose
articles were moved is written as one block, in the new order, where the topic began: article
k gets rank k and the rsv the file gave its k-th article; an article not edited keeps its other
fields (passages, Q0 column, run id). Every expected file below is written out by hand.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from readsim.core import intervals as iv
from readsim.core.formats import RunArticle, read_run, write_run
from readsim.core.formats.run_writer import reordered

LINES = [
    "# my run",
    "101 Q0 a1 1 9.5 r 0 10",
    "101 Q0 a2 2 9.0 r 5 5",
    "101 Q0 a1 1 8.0 r 20 5",  # a1 again (interleaved): merged into its first rank, lines 2 and 4
    "101 Q0 a3 3 8.5 r 30 5",
    "",
    "102 Q0 b 1 7.0 r",
    "102 Q0 c 2 6.0 r 0 4",
]


def src(tmp_path, lines=LINES):
    path = tmp_path / "in.run"
    path.write_text("\n".join(lines) + "\n")
    return path


def move(run, topic, article, target):
    """What the window's rank move does: the article to position ``target`` (0-based), every
    article's rank its position."""
    entries = run.topics[topic] = list(run.topics[topic])
    k = next(i for i, e in enumerate(entries) if e.article == article)
    entries.insert(target, entries.pop(k))
    entries[:] = [dataclasses.replace(e, rank=i) for i, e in enumerate(entries, 1)]


def test_a_moved_article_is_written_in_the_new_order_with_ranks_and_rsv_rewritten(tmp_path):
    run = read_run(src(tmp_path))
    move(run, "101", "a3", 0)
    out = tmp_path / "out.run"
    assert write_run(run, out) == []
    assert out.read_text().splitlines() == [
        "# my run",
        "101 Q0 a3 1 9.5 r 30 5",  # the first article's rsv (line 2's), rank 1
        "101 Q0 a1 2 9.0 r 0 10",  # a1's two lines, both at rank 2 with the second article's rsv
        "101 Q0 a1 2 9.0 r 20 5",
        "101 Q0 a2 3 8.5 r 5 5",  # the third article's rsv (line 5's)
        "",
        "102 Q0 b 1 7.0 r",  # topic 102 is not moved: its lines byte for byte
        "102 Q0 c 2 6.0 r 0 4",
    ]
    back = read_run(out)
    assert [e.article for e in back.topics["101"]] == ["a3", "a1", "a2"]
    assert [e.rank for e in back.topics["101"]] == [1, 2, 3]
    assert np.array_equal(back.article("101", "a1").passages, [[0, 10], [20, 25]])
    assert np.array_equal(back.article("101", "a3").passages, [[30, 35]])


def test_moved_edited_and_new_articles_together(tmp_path):
    run = read_run(src(tmp_path))
    entries = run.topics["101"] = list(run.topics["101"])
    a2 = next(e for e in entries if e.article == "a2")  # edited: new passages, no longer the file's lines
    entries[entries.index(a2)] = dataclasses.replace(a2, passages=iv.as_array([(1, 3)]), lines=(), line_spans=None)
    entries.append(RunArticle("a9", 4, iv.as_array([(4, 8)]), [], 0))  # new to the topic (line 0)
    move(run, "101", "a2", 0)
    move(run, "101", "a9", 1)
    out = tmp_path / "out.run"
    write_run(run, out)
    assert out.read_text().splitlines() == [
        "# my run",
        "101 Q0 a2 1 9.5 r 1 2",  # generated: offset 1, length 2
        "101 Q0 a9 2 9.0 r 4 4",
        "101 Q0 a1 3 8.5 r 0 10",
        "101 Q0 a1 3 8.5 r 20 5",
        "101 Q0 a3 4 8.5 r 30 5",  # past the file's three articles: the last one's rsv
        "",
        "102 Q0 b 1 7.0 r",
        "102 Q0 c 2 6.0 r 0 4",
    ]
    assert [e.article for e in read_run(out).topics["101"]] == ["a2", "a9", "a1", "a3"]


def test_a_topic_moved_back_is_copied_byte_for_byte(tmp_path):
    path = src(tmp_path)
    run = read_run(path)
    move(run, "102", "c", 0)
    move(run, "102", "c", 1)  # and back
    out = tmp_path / "out.run"
    write_run(run, out)
    assert out.read_bytes() == path.read_bytes()


def test_reordered():
    def e(line, lines=()):
        return RunArticle("x", 0, None, [], line, lines=lines)

    assert not reordered([e(2, (2, 4)), e(3, (3,)), e(5, (5,))])  # file order (a1's second line 4 is later)
    assert reordered([e(5, (5,)), e(2, (2, 4)), e(3, (3,))])
    assert not reordered([e(2), e(3), e(0)])  # an edited article at its line, a new one at the end
    assert reordered([e(2), e(0), e(3)])  # a new article moved above one of the file's


def test_a_run_that_numbers_its_lines_keeps_numbering_lines(tmp_path):
    # as indri-passages.run: the rank column counts the topic's lines (one per passage), the rsv
    # is the article's
    path = src(tmp_path, ["7 Q0 x 1 3.5 r 0 10", "7 Q0 x 2 3.5 r 20 5", "7 Q0 y 3 2.5 r 0 4", "7 Q0 z 4 1.5 r 5 5"])
    run = read_run(path)
    move(run, "7", "z", 0)
    out = tmp_path / "out.run"
    write_run(run, out)
    assert out.read_text().splitlines() == [
        "7 Q0 z 1 3.5 r 5 5",
        "7 Q0 x 2 2.5 r 0 10",  # x is now the second article: the second article's rsv, line ranks 2, 3
        "7 Q0 x 3 2.5 r 20 5",
        "7 Q0 y 4 1.5 r 0 4",
    ]
    move(run, "7", "z", 2)  # back: the file as it was
    write_run(run, out)
    assert out.read_bytes() == path.read_bytes()
