"""Segment runs with a segment table (readsim.core.formats.segments, docs/reference.md section 2.14):
a hand-worked run, its FOL twin, and the messages for bad tables and runs."""

from __future__ import annotations

import warnings

import pytest

import readsim
from readsim.core.errors import InputError
from readsim.core.formats import read_any_run, read_segments

from helpers.segment_cases import QRELS, RUN, TABLE, TWIN, table, write

def ranked(run) -> dict:
    return {t: [(e.article, e.rank, e.passages.tolist(), e.line_spans.tolist(), e.lines) for e in es]
            for t, es in run.topics.items()}


def test_table_read(tmp_path):
    segments = read_segments(table(tmp_path))
    # "length": 100 from 150 ends at 250; the integer id 7 is the name "7"
    assert segments.spans == {"A#1": ("A", 100, 150), "A#2": ("A", 150, 250), "B#1": ("B", 0, 50),
                              "B#2": ("B", 40, 80), "7": ("C", 0, 10)}
    assert segments.lines["7"] == 5 and len(segments) == 5


def test_hand_worked_run(tmp_path):
    run = read_any_run(write(tmp_path, "r.run", RUN), segments=read_segments(table(tmp_path)))
    # A: A#1 [100,150) and A#2 [150,250) (line 3 comes back after B: merged into rank 1) -> [100,250);
    # B: B#1 [0,50) and B#2 [40,80) overlap -> united [0,80); C: its one segment [0,10)
    assert ranked(run) == {"1": [("A", 1, [[100, 250]], [[100, 150], [150, 250]], (1, 3)),
                                 ("B", 2, [[0, 80]], [[0, 50], [40, 80]], (2, 5)),
                                 ("C", 3, [[0, 10]], [[0, 10]], (6,))]}
    assert run.run_id == "segrun"
    messages = [(d.line, d.message) for d in run.diagnostics]
    assert any(line == 3 and "2 result lines in 1 topics" in m and "return to an article ranked earlier" in m
               for line, m in messages)
    assert any(line == 2 and "overlapping passages of article B" in m for line, m in messages)


def test_same_run_as_its_fol_twin(tmp_path):
    segments = read_segments(table(tmp_path))
    run = read_any_run(write(tmp_path, "r.run", RUN), segments=segments)
    twin = read_any_run(write(tmp_path, "t.run", TWIN))
    assert ranked(run) == ranked(twin)
    assert [(d.line, d.message) for d in run.diagnostics] == [(d.line, d.message) for d in twin.diagnostics]


def test_scores_worked_by_hand(tmp_path):
    qrels = readsim.read_qrels(write(tmp_path, "q.qrels", QRELS))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", readsim.InputWarning)
        run = readsim.read_run(write(tmp_path, "r.run", RUN), segments=table(tmp_path))
    frame = readsim.evaluate(qrels, run, ["P_set", "R_set", "F(0.25)"], per="article")
    got = {(r.article, r.measure): r.value for r in frame.itertuples()}
    # A: retrieved [100,250) = 150, relevant [100,200) = 100: P = 2/3, R = 1,
    #    F(0.25) = 1.0625 * (2/3) / (0.0625 * 2/3 + 1) = (17/24) / (25/24) = 17/25
    # B: retrieved [0,80) = 80, relevant [0,50) = 50: P = 5/8, R = 1, F = 1.0625 * 5/8 / (0.0625 * 5/8 + 1) = 85/133
    # C: not judged, non-relevant: 0
    assert got[("A", "P_set")] == pytest.approx(2 / 3) and got[("A", "R_set")] == pytest.approx(1)
    assert got[("A", "F(0.25)")] == pytest.approx(17 / 25)
    assert got[("B", "P_set")] == pytest.approx(5 / 8) and got[("B", "F(0.25)")] == pytest.approx(85 / 133)
    assert got[("C", "F(0.25)")] == 0
    # the rsv column of the frame is the run's column 5
    assert run.to_frame()["rsv"].tolist() == [9.0, 8.0, 7.0, 6.0, 5.0]


def test_strict_rejects_the_interleaved_segment(tmp_path):
    with pytest.raises(InputError) as err:
        read_any_run(write(tmp_path, "r.run", RUN), strict=True, segments=read_segments(table(tmp_path)))
    assert err.value.line == 3 and "--strict" in err.value.reason


@pytest.mark.parametrize("run, line, reason", [
    ("1 Q0 A#1 1 9.0 segrun\n1 Q0 Z#9 2 8.0 segrun\n", 2, "segment 'Z#9' is not in the segment table"),
    ("1 Q0 A 1 9.0 segrun 100 50\n", 1, "a segment run line has 6 fields (topic Q0 segment rank score run), found 8"),
    ("1 Q0 A#1 1 segrun\n", 1, "found 5"),
    ("1 Q0 A#1 1 9.0 seg\x01run\n", 1, "control character U+0001"),
])
def test_bad_run_lines_name_the_run(tmp_path, run, line, reason):
    path = write(tmp_path, "r.run", run)
    with pytest.raises(InputError) as err:
        read_any_run(path, segments=read_segments(table(tmp_path)))
    assert (err.value.path, err.value.line) == (path, line) and reason in err.value.reason


@pytest.mark.parametrize("row, reason", [
    ({"id": "X", "doc": "A", "start": 5}, "missing field 'end' (or 'length')"),
    ({"id": "X", "doc": "A", "start": 9, "end": 5}, "end 5 is before start 9"),
    ({"id": "X", "start": 0, "end": 5}, "missing field 'doc'"),
    ({"doc": "A", "start": 0, "end": 5}, "missing field 'id'"),
    ({"id": "X Y", "doc": "A", "start": 0, "end": 5}, "holds white space"),
    ({"id": "X", "doc": "A", "start": -1, "end": 5}, "start -1 is negative"),
    ({"id": "X", "doc": "A", "start": 0.5, "end": 5}, "start must be an integer"),
    ({"id": "A#1", "doc": "A", "start": 0, "end": 5}, "a second segment of id 'A#1': the first is at line 1"),
])
def test_bad_table_lines_name_the_table(tmp_path, row, reason):
    path = table(tmp_path, TABLE[:2] + [row])
    with pytest.raises(InputError) as err:
        read_segments(path)
    assert (err.value.path, err.value.line) == (path, 3) and reason in err.value.reason


def test_table_that_is_not_json(tmp_path):
    path = write(tmp_path, "segments.jsonl", '{"id": "a", "doc": "A", "start": 0, "end": 1}\n[1, 2]\n')
    with pytest.raises(InputError) as err:
        read_segments(path)
    assert err.value.line == 2 and "not a JSON object" in err.value.reason


def test_api_names_a_missing_table(tmp_path):
    with pytest.raises(InputError, match="segments file not found"):
        readsim.read_run(write(tmp_path, "r.run", RUN), segments=tmp_path / "nowhere.jsonl")
