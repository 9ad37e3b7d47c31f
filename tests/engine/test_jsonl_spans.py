"""JSON Lines spans (readsim.core.formats.jsonl), Chroma's questions CSV (csvqrels) and topic
titles in JSON Lines and TSV: hand-worked cases, the FOL twin property, bad input, and the real
chroma-chunking data (docs/reference.md sections 2.7, 2.11, 2.12)."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readsim.core.errors import InputError
from readsim.core.formats import read_any_run, read_qrels, read_topics

EVAL = [sys.executable, "-m", "readsim.cli"]


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    p = tmp_path / name
    p.write_bytes(text.encode() if isinstance(text, str) else text)
    return str(p)


def jl(*objs: dict) -> str:
    return "".join(json.dumps(o) + "\n" for o in objs)


def ranked(run) -> dict:
    """A run as plain data: per topic, its ranked articles (name, rank, passages, raw spans)."""
    return {t: [(e.article, e.rank, e.passages.tolist() if e.passages is not None else None,
                 e.line_spans.tolist() if e.line_spans is not None else None) for e in entries]
            for t, entries in run.topics.items()}


def judged(qrels) -> dict:
    return {t: [(a, j.rel_size, j.doc_length, j.bep, j.passages.tolist()) for a, j in by.items()]
            for t, by in qrels.topics.items()}


# -- runs: ranks ----------------------------------------------------------------------------------


def test_ranks_from_rank_field(tmp_path):
    path = write(tmp_path, "r.jsonl", jl({"topic": "1", "doc": "B", "start": 5, "end": 9, "rank": 2},
                                         {"topic": "1", "doc": "A", "start": 0, "end": 4, "rank": 1},
                                         {"topic": "1", "doc": "C", "start": 1, "length": 2, "rank": 3}))
    run = read_any_run(path)
    assert ranked(run) == {"1": [("A", 1, [[0, 4]], [[0, 4]]), ("B", 2, [[5, 9]], [[5, 9]]), ("C", 3, [[1, 3]], [[1, 3]])]}
    assert [e.line for e in run.topics["1"]] == [2, 1, 3]  # the file's line numbers kept
    assert run.run_id == "r.jsonl" and run.diagnostics == []


def test_ranks_from_score_descending_ties_in_line_order(tmp_path):
    path = write(tmp_path, "r.jsonl", jl({"topic": 7, "doc": "A", "start": 0, "end": 1, "score": 0.5, "run": "x"},
                                         {"topic": 7, "doc": "B", "start": 0, "end": 1, "score": 2, "run": "x"},
                                         {"topic": 7, "doc": "C", "start": 0, "end": 1, "score": 0.5, "run": "x"}))
    run = read_any_run(path)
    assert [e.article for e in run.topics["7"]] == ["B", "A", "C"]
    assert run.run_id == "x"


def test_ranks_from_line_order(tmp_path):
    path = write(tmp_path, "r.jsonl", jl({"topic": "1", "doc": "Z", "start": 0, "end": 1},
                                         {"topic": "1", "doc": "A", "start": 0, "end": 1}))
    assert [e.article for e in read_any_run(path).topics["1"]] == ["Z", "A"]


def test_rank_wins_over_score(tmp_path):
    path = write(tmp_path, "r.jsonl", jl({"topic": "1", "doc": "A", "start": 0, "end": 1, "rank": 2, "score": 9},
                                         {"topic": "1", "doc": "B", "start": 0, "end": 1, "rank": 1, "score": 1}))
    assert [e.article for e in read_any_run(path).topics["1"]] == ["B", "A"]


def test_interleaved_chunks_merged_into_first_rank_and_overlaps_united(tmp_path):
    path = write(tmp_path, "r.jsonl", jl({"topic": "1", "doc": "A", "start": 0, "end": 10, "rank": 1},
                                         {"topic": "1", "doc": "B", "start": 0, "end": 10, "rank": 2},
                                         {"topic": "1", "doc": "A", "start": 5, "end": 20, "rank": 3}))
    run = read_any_run(path)
    assert ranked(run) == {"1": [("A", 1, [[0, 20]], [[0, 10], [5, 20]]), ("B", 2, [[0, 10]], [[0, 10]])]}
    messages = [d.message for d in run.diagnostics]
    assert any("interleaved articles" in m for m in messages)
    assert any("overlapping passages of article A" in m for m in messages)
    with pytest.raises(InputError, match="rejected .--strict."):
        read_any_run(path, strict=True)


def test_length_and_end_are_the_same_span(tmp_path):
    a = read_any_run(write(tmp_path, "a.jsonl", jl({"topic": "1", "doc": "A", "start": 3, "end": 10})))
    b = read_any_run(write(tmp_path, "b.jsonl", jl({"topic": "1", "doc": "A", "start": 3, "length": 7})))
    assert ranked(a) == ranked(b)


def test_no_end_offset_warning_for_spans(tmp_path):
    """Column 8 as an end offset is a FOL question: JSON Lines name their ends."""
    lines = [{"topic": "1", "doc": f"D{k}", "start": 10 + k, "end": 40 + 3 * k} for k in range(12)]
    assert read_any_run(write(tmp_path, "r.jsonl", jl(*lines))).diagnostics == []


# -- qrels -------------------------------------------------------------------------------------------


def test_min_grade(tmp_path):
    path = write(tmp_path, "q.jsonl", jl({"topic": "1", "doc": "A", "start": 0, "end": 10, "grade": 1},
                                         {"topic": "1", "doc": "A", "start": 20, "end": 25, "grade": 2},
                                         {"topic": "1", "doc": "B", "start": 0, "end": 5, "grade": 1},
                                         {"topic": "1", "doc": "C", "grade": 0, "doc_length": 70}))
    one = read_qrels(path)
    assert judged(one) == {"1": [("A", 15, 25, None, [[0, 10], [20, 25]]), ("B", 5, 5, None, [[0, 5]]),
                                 ("C", 0, 70, None, [])]}
    two = read_qrels(path, min_grade=2)
    assert judged(two) == {"1": [("A", 5, 25, None, [[20, 25]]), ("B", 0, 5, None, []), ("C", 0, 70, None, [])]}
    assert two.nrel("1") == 1 and two.relevant_articles("1") == ["A"]


def test_doc_length_given_or_largest_end_over_the_file(tmp_path):
    path = write(tmp_path, "q.jsonl", jl({"topic": "1", "doc": "A", "start": 0, "end": 10},
                                         {"topic": "2", "doc": "A", "start": 30, "length": 10},
                                         {"topic": "2", "doc": "B", "start": 0, "end": 5, "doc_length": 900}))
    q = read_qrels(path)
    assert q.judgement("1", "A").doc_length == 40 and q.judgement("2", "B").doc_length == 900
    assert q.judgement("2", "A").line == 2


def test_qrels_overlap_united_with_warning(tmp_path):
    q = read_qrels(write(tmp_path, "q.jsonl", jl({"topic": "1", "doc": "A", "start": 0, "end": 10},
                                                 {"topic": "1", "doc": "A", "start": 5, "end": 12})))
    assert q.judgement("1", "A").passages.tolist() == [[0, 12]]
    assert [(d.line, d.message) for d in q.diagnostics] == [(1, "overlapping passages united")]


# -- bad input ----------------------------------------------------------------------------------------

GOOD = {"topic": "1", "doc": "A", "start": 0, "end": 5}
BAD_LINES = [
    ("not JSON", "{topic: 1}", "not a JSON object"),
    ("an array", "[1, 2]", "not a JSON object"),
    ("no topic", json.dumps({"doc": "A", "start": 0, "end": 1}), "missing field 'topic'"),
    ("no doc", json.dumps({"topic": "1", "start": 0, "end": 1}), "missing field 'doc'"),
    ("no start", json.dumps({"topic": "1", "doc": "A", "end": 1}), "missing field 'start'"),
    ("no end", json.dumps({"topic": "1", "doc": "A", "start": 0}), "missing field 'end'"),
    ("end and length", json.dumps({"topic": "1", "doc": "A", "start": 0, "end": 1, "length": 1}), "one of 'end' or 'length'"),
    ("float offset", json.dumps({"topic": "1", "doc": "A", "start": 0.5, "end": 1}), "start must be an integer"),
    ("string offset", json.dumps({"topic": "1", "doc": "A", "start": "0", "end": 1}), "start must be an integer"),
    ("boolean offset", json.dumps({"topic": "1", "doc": "A", "start": True, "end": 1}), "start must be an integer"),
    ("negative start", json.dumps({"topic": "1", "doc": "A", "start": -1, "end": 1}), "start -1 is negative"),
    ("negative length", json.dumps({"topic": "1", "doc": "A", "start": 1, "length": -1}), "length -1 is negative"),
    ("end before start", json.dumps({"topic": "1", "doc": "A", "start": 5, "end": 4}), "end 4 is before start 5"),
    ("offset past 2^40", json.dumps({"topic": "1", "doc": "A", "start": 0, "end": 2**40}), "out of range"),
    ("length past 2^40", json.dumps({"topic": "1", "doc": "A", "start": 2**39, "length": 2**39}), "out of range"),
    ("name with a space", json.dumps({"topic": "1", "doc": "A B", "start": 0, "end": 1}), "white space"),
    ("empty name", json.dumps({"topic": "", "doc": "A", "start": 0, "end": 1}), "non-empty string"),
]


@pytest.mark.parametrize("line, expected", [pytest.param(line, expected, id=name) for name, line, expected in BAD_LINES])
@pytest.mark.parametrize("kind", ["qrels", "run"])
def test_bad_line_names_file_and_line(tmp_path, kind, line, expected):
    path = write(tmp_path, "x.jsonl", jl(GOOD) + "\n" + line + "\n")
    reader = read_qrels if kind == "qrels" else read_any_run
    with pytest.raises(InputError, match=expected) as err:
        reader(path)
    assert err.value.line == 3 and str(err.value).startswith(f"{path}:3: ")


@pytest.mark.parametrize("line, expected", [
    ({"grade": -1}, "grade -1 is negative"),
    ({"grade": 1.5}, "grade must be an integer"),
    ({"doc_length": -4}, "doc_length -4 is negative"),
    ({"doc_length": 7}, "doc_length 7 of document A differs from 9 at line 1"),
])
def test_bad_qrels_fields(tmp_path, line, expected):
    path = write(tmp_path, "q.jsonl", jl({**GOOD, "doc_length": 9}, {**GOOD, **line}))
    with pytest.raises(InputError, match=expected) as err:
        read_qrels(path)
    assert err.value.line == 2


@pytest.mark.parametrize("line, expected", [
    ({"score": "high"}, "score must be a finite number"),
    ({"score": True}, "score must be a finite number"),
    ({"score": 10**400}, "score must be a finite number"),  # too large for a float: an error, not a crash
    ({"rank": 1.0}, "rank must be an integer"),
    ({"run": "a b"}, "run must be a non-empty string"),
])
def test_bad_run_fields(tmp_path, line, expected):
    with pytest.raises(InputError, match=expected):
        read_any_run(write(tmp_path, "r.jsonl", jl(GOOD, {**GOOD, **line})))


def test_nan_score_and_mixed_ranks(tmp_path):
    with pytest.raises(InputError, match="finite number"):
        read_any_run(write(tmp_path, "r.jsonl", '{"topic": "1", "doc": "A", "start": 0, "end": 1, "score": NaN}\n'))
    with pytest.raises(InputError, match="no 'rank' here but line 1 has one") as err:
        read_any_run(write(tmp_path, "s.jsonl", jl({**GOOD, "rank": 1}, GOOD)))
    assert err.value.line == 2


def test_not_utf8_names_the_line(tmp_path):
    path = write(tmp_path, "r.jsonl", jl(GOOD).encode() + b'{"topic": "\xff", "doc": "A", "start": 0, "end": 1}\n')
    with pytest.raises(InputError, match="not UTF-8") as err:
        read_any_run(path)
    assert err.value.line == 2


def test_bom_crlf_and_blank_lines_read_alike(tmp_path):
    clean = jl(GOOD, {**GOOD, "doc": "B"})
    a = read_any_run(write(tmp_path, "a.jsonl", clean))
    b = read_any_run(write(tmp_path, "b.jsonl", b"\xef\xbb\xbf\n" + clean.replace("\n", "\r\n\r\n").encode()))
    assert ranked(a) == ranked(b)


# -- the FOL twin ---------------------------------------------------------------------------------------

run_lines = st.lists(st.tuples(st.sampled_from(["1", "2", "3"]), st.sampled_from(["A", "B", "C", "D"]),
                               st.integers(0, 60), st.integers(0, 30)), min_size=1, max_size=14)


@settings(max_examples=60, deadline=None)
@given(run_lines, st.randoms(use_true_random=False))
def test_jsonl_run_reads_as_its_fol_twin(tmp_path_factory, lines, random):
    folder = tmp_path_factory.mktemp("twin")
    fol = write(folder, "r.run", "".join(f"{t} Q0 {d} {k + 1} 1.0 R {s} {n}\n" for k, (t, d, s, n) in enumerate(lines)))
    twin = write(folder, "r.jsonl", jl(*({"topic": t, "doc": d, "start": s, "length": n, "run": "R"} for t, d, s, n in lines)))
    a, b = read_any_run(fol), read_any_run(twin)
    assert ranked(a) == ranked(b) and a.run_id == b.run_id
    assert [(e.line, e.lines) for t in a.topics for e in a.topics[t]] == [(e.line, e.lines) for t in b.topics for e in b.topics[t]]
    assert [(d.line, d.message) for d in a.diagnostics] == [(d.line, d.message) for d in b.diagnostics]
    for t in a.topics:  # the columns the evaluation reads
        ca, cb = a.columns(t)[0], b.columns(t)[0]
        for field in ("pass_ptr", "pass_start", "pass_end", "line_ptr", "starts", "ends", "entry", "has_span", "whole"):
            assert np.array_equal(getattr(ca, field), getattr(cb, field)), field
    # the same lines shuffled, their ranks given: the same ranked lists (topics in first appearance)
    order = list(range(len(lines)))
    random.shuffle(order)
    shuffled = write(folder, "s.jsonl", jl(*({"topic": lines[k][0], "doc": lines[k][1], "start": lines[k][2],
                                              "length": lines[k][3], "rank": k + 1, "run": "R"} for k in order)))
    assert ranked(read_any_run(shuffled)) == ranked(a)


qrels_lines = st.dictionaries(st.tuples(st.sampled_from(["1", "2"]), st.sampled_from(["A", "B", "C"])),
                              st.tuples(st.integers(30, 200), st.lists(st.tuples(st.integers(0, 150), st.integers(0, 40)),
                                                                       max_size=4)), min_size=1)


@settings(max_examples=60, deadline=None)
@given(qrels_lines)
def test_jsonl_qrels_read_as_their_fol_twin(tmp_path_factory, judgements):
    folder = tmp_path_factory.mktemp("twin")
    fol, spans = [], []
    for (t, d), (doc_length, passages) in judgements.items():
        size = sum(e - s for s, e in _union([(s, s + n) for s, n in passages]))
        fol.append(f"{t} Q0 {d} {size} {doc_length}" + (" 0 " + " ".join(f"{s}:{n}" for s, n in passages) if size else ""))
        lines = [{"topic": t, "doc": d, "start": s, "length": n, "doc_length": doc_length} for s, n in passages]
        spans += lines if size else [{"topic": t, "doc": d, "grade": 0, "doc_length": doc_length}]
    doc_lengths = {}
    for (_, d), (doc_length, _) in judgements.items():
        doc_lengths.setdefault(d, doc_length)
    if any(judgements[k][0] != doc_lengths[k[1]] for k in judgements):
        return  # a document's doc_length differs between topics: an error in JSON Lines (tested above)
    a = read_qrels(write(folder, "q.qrels", "\n".join(fol) + "\n"))
    b = read_qrels(write(folder, "q.jsonl", jl(*spans)))
    got = judged(b)
    for t, rows in judged(a).items():  # FOL keeps a bep of 0; JSON Lines has none
        assert [(r[0], r[1], r[2], r[4]) for r in rows] == [(r[0], r[1], r[2], r[4]) for r in got[t]]
    assert sorted(d.message for d in a.diagnostics) == sorted(d.message for d in b.diagnostics)


def _union(spans):
    out = []
    for s, e in sorted(x for x in spans if x[1] > x[0]):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


# -- topics -----------------------------------------------------------------------------------------------


def test_topics_from_jsonl_and_tsv(tmp_path):
    a = read_topics(write(tmp_path, "t.jsonl", jl({"topic": "1", "title": "first  one"}, {"topic": 2, "title": "second"})))
    b = read_topics(write(tmp_path, "t.tsv", "# topic\ttitle\n1\tfirst one\n2\tsecond\n"))
    assert a == b and a["1"].title == "first one"
    with pytest.raises(InputError, match="topic<TAB>title") as err:
        read_topics(write(tmp_path, "bad.tsv", "1\tone\n2 two\n"))
    assert err.value.line == 2
    with pytest.raises(InputError, match="missing field 'title'"):
        read_topics(write(tmp_path, "bad.jsonl", jl({"topic": "1"})))


# -- Chroma's questions CSV ----------------------------------------------------------------------------------


def test_questions_csv_hand_worked(tmp_path):
    refs = json.dumps([{"content": "a, b", "start_index": 3, "end_index": 9}, {"content": "c", "start_index": 20, "end_index": 22}])
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([["question", "references", "corpus_id"], ["Why, then?", refs, "doc1"],
                                                   ["Second?", "[]", "doc1"]])
    text = out.getvalue()
    q = read_qrels(write(tmp_path, "questions_df.csv", text))
    assert judged(q) == {"1": [("doc1", 8, 22, None, [[3, 9], [20, 22]])]}
    bad = 'question,references,corpus_id\nQ,"[{""start_index"": 5, ""end_index"": 2}]",doc1\n'
    with pytest.raises(InputError, match="end_index 2 is before start_index 5") as err:
        read_qrels(write(tmp_path, "bad.csv", bad))
    assert err.value.line == 2


# -- the real chroma-chunking data ------------------------------------------------------------------------------


def test_chroma_csv_gives_the_qrels_of_qrels_jsonl(chroma):
    a, b = read_qrels(chroma / "qrels.jsonl"), read_qrels(chroma / "questions_df.csv")
    assert judged(a) == judged(b)
    assert len(a.topics) == 472 and sum(len(j.passages) for by in a.topics.values() for j in by.values()) == 790


def test_chroma_run(chroma):
    run = read_any_run(chroma / "runs" / "bm25-chunks250.jsonl")
    assert run.run_id == "bm25-chunks250" and len(run.topics) == 472
    assert all(1 <= len(entries) <= 10 for entries in run.topics.values())
    first = run.topics["1"][0]
    assert (first.article, first.passages.tolist()) == ("state_of_the_union", [[27250, 27500]])
    assert read_topics(chroma / "topics.jsonl")["1"].title.startswith("What significant regulatory changes")


def _eval(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ""}
    return subprocess.run([*EVAL, *args], capture_output=True, text=True, env=env, timeout=300)


def test_readsim_eval_on_chroma_without_a_collection(chroma):
    run = str(chroma / "runs" / "bm25-chunks250.jsonl")
    a = _eval(str(chroma / "qrels.jsonl"), run, "--unit", "chars", "-m", "AgP/F(0.25)")
    assert a.returncode == 0, a.stderr
    assert a.stdout.splitlines()[1].startswith("AgP/F(0.25)\tall\t0.")
    b = _eval(str(chroma / "questions_df.csv"), run, "--unit", "chars", "-m", "AgP/F(0.25)")
    assert (b.returncode, b.stdout, b.stderr) == (0, a.stdout, a.stderr)


def test_min_grade_option(tmp_path):
    qrels = write(tmp_path, "q.jsonl", jl({**GOOD, "grade": 1}, {**GOOD, "doc": "B", "grade": 2}))
    run = write(tmp_path, "r.jsonl", jl(GOOD, {**GOOD, "doc": "B"}))
    one = _eval(qrels, run, "-m", "num_rel", "--format", "jsonl")
    two = _eval(qrels, run, "-m", "num_rel", "--format", "jsonl", "--min-grade", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert '"value": 2' in one.stdout.replace(" 2.0", " 2") and '"value": 1' in two.stdout.replace(" 1.0", " 1")
    bad = _eval(qrels, run, "--min-grade", "0")
    assert bad.returncode == 2 and "G must be a whole number from 1" in bad.stderr
