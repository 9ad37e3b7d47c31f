"""FOL qrels (docs/reference.md sections 2.2 and 7) from small files, and the real qrels."""

from __future__ import annotations

import pytest

from readsim.core.errors import Diagnostic, InputError
from readsim.core.formats import read_qrels


def write(tmp_path, text: str, name: str = "q.qrels"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_reads_passages_and_sizes(tmp_path):
    path = write(tmp_path, "# comment\n\n101 Q0 a1 30 500 100 10:20 100:10\n101 Q0 a2 0 800\n102 Q0 a1 5 500 7 0:5\n")
    q = read_qrels(path)
    j = q.judgement("101", "a1")
    assert j.passages.tolist() == [[10, 30], [100, 110]]
    assert (j.rel_size, j.doc_length, j.bep, j.line) == (30, 500, 100, 3)
    assert j.relevant
    # 5 fields with rel_size 0: judged non-relevant
    n = q.judgement("101", "a2")
    assert not n.relevant and n.rel_size == 0 and n.doc_length == 800 and n.bep is None
    assert len(n.passages) == 0 and q.relevant("101", "a2").shape == (0, 2)
    assert q.relevant_articles("101") == ["a1"] and q.nrel("101") == 1
    assert q.nrel("102") == 1 and q.nrel("999") == 0
    assert q.judgement("101", "zz") is None and len(q.relevant("101", "zz")) == 0
    assert q.diagnostics == []


@pytest.mark.parametrize(
    "line, what",
    [
        ("101 Q0 a1 30", "at least 5 fields"),
        ("101 Q0 a1 x 500", "rel_size"),
        ("101 Q0 a1 30 500 100 10-20", "offset:length"),
        ("101 Q0 a1 10 500 100 5:-10", "negative"),
        ("101 Q0 a1 10 -500 100 5:10", "negative"),
        ("101 Q0 a1 10 500 100 -5:10", "negative"),
        ("101 Q0 a1 10 500", "no passages"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path, line, what):
    path = write(tmp_path, f"101 Q0 a0 5 50 100 0:5\n{line}\n")
    with pytest.raises(InputError) as err:
        read_qrels(path)
    assert str(err.value).startswith(f"{path}:2:")
    assert err.value.line == 2
    assert what in str(err.value)


def test_duplicate_line_is_an_error(tmp_path):
    path = write(tmp_path, "101 Q0 a1 5 50 100 0:5\n102 Q0 a1 5 50 100 0:5\n101 Q0 a1 5 50 100 0:5\n")
    with pytest.raises(InputError) as err:
        read_qrels(path)
    assert str(err.value).startswith(f"{path}:3:")
    assert "duplicate" in str(err.value) and "line 1" in str(err.value)


def test_overlapping_passages_united_with_a_warning(tmp_path):
    # [0,10) u [5,15) u [15,20) = [0,20): size 20, not the 25 the line claims
    path = write(tmp_path, "101 Q0 a1 25 50 100 0:10 5:10 15:5\n")
    q = read_qrels(path)
    j = q.judgement("101", "a1")
    assert j.passages.tolist() == [[0, 20]]
    assert j.rel_size == 20
    messages = [d.message for d in q.diagnostics]
    assert all(isinstance(d, Diagnostic) and d.line == 1 for d in q.diagnostics)
    assert any("overlapping" in m for m in messages)
    assert any("25" in m and "20" in m for m in messages)
    assert str(q.diagnostics[0]).startswith(f"{path}:1: warning:")


def test_passage_past_doc_length_warns(tmp_path):
    q = read_qrels(write(tmp_path, "101 Q0 a1 10 50 100 45:10\n"))
    assert q.judgement("101", "a1").passages.tolist() == [[45, 55]]
    assert any("past doc_length" in d.message for d in q.diagnostics)


def test_missing_or_binary_file(tmp_path):
    with pytest.raises(InputError):
        read_qrels(tmp_path / "nothing.qrels")
    bad = tmp_path / "bin.qrels"
    bad.write_bytes(b"101 Q0 \xff\xfe 5 50\n")
    with pytest.raises(InputError) as err:
        read_qrels(bad)
    assert "UTF-8" in str(err.value)


def test_real_qrels(inex):
    q = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    # data README: 120 judged topics, 10,329 relevant lines, 21,108 passages
    assert len(q.topics) == 120
    assert sum(q.nrel(t) for t in q.topics) == 10329
    assert sum(len(j.passages) for t in q.topics.values() for j in t.values()) <= 21108
    j = q.judgement("2009001", "851")
    # "2009001 Q0 851 7300 10656 100 1205:3431 4643:720 5521:3149"
    assert j.passages.tolist() == [[1205, 4636], [4643, 5363], [5521, 8670]]
    assert j.rel_size == 3431 + 720 + 3149 == 7300
    assert j.doc_length == 10656 and j.bep == 100
