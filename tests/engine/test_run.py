"""FOL runs (docs/reference.md sections 2.3 and 7) from small files, and the real run."""

from __future__ import annotations

import pytest

from readsim.core.errors import InputError
from readsim.core.formats import read_run, write_run


def write(tmp_path, lines: list[str], name: str = "r.run"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_line_order_is_the_rank(tmp_path):
    # rank and rsv columns are not trusted: a2 comes first in the file, so it is rank 1
    path = write(tmp_path, [
        "101 Q0 a2 9 0.1 myrun 0 10",
        "101 Q0 a2 9 0.1 myrun 20 5",
        "101 Q0 a1 1 0.9 myrun 3 4",
        "102 Q0 a1 1 0.9 myrun 0 1",
    ])
    run = read_run(path)
    assert run.run_id == "myrun"
    assert [(e.article, e.rank, e.line) for e in run.topics["101"]] == [("a2", 1, 1), ("a1", 2, 3)]
    assert run.topics["101"][0].passages.tolist() == [[0, 10], [20, 25]]
    assert run.article("101", "a1").passages.tolist() == [[3, 7]]
    assert run.article("101", "zz") is None
    assert list(run.topics) == ["101", "102"]
    assert run.diagnostics == []


def test_interleaved_article_merged_into_its_first_rank(tmp_path):
    path = write(tmp_path, [
        "101 Q0 a1 1 1 r 0 10",
        "101 Q0 a2 2 1 r 0 10",
        "101 Q0 a1 3 1 r 50 10",  # a1 again, after a2
        "101 Q0 a3 4 1 r 0 10",
    ])
    run = read_run(path)
    assert [e.article for e in run.topics["101"]] == ["a1", "a2", "a3"]
    assert [e.rank for e in run.topics["101"]] == [1, 2, 3]
    assert run.article("101", "a1").passages.tolist() == [[0, 10], [50, 60]]
    assert len(run.diagnostics) == 1
    d = run.diagnostics[0]
    assert d.line == 3 and "interleaved" in d.message and "101" in d.message
    with pytest.raises(InputError) as err:
        read_run(path, strict=True)
    assert str(err.value).startswith(f"{path}:3:")


def test_topic_in_two_blocks_merged(tmp_path):
    path = write(tmp_path, [
        "101 Q0 a1 1 1 r 0 10",
        "102 Q0 b1 1 1 r 0 10",
        "101 Q0 a2 2 1 r 0 10",  # topic 101 again: a second block
    ])
    run = read_run(path)
    assert list(run.topics) == ["101", "102"]
    assert [e.article for e in run.topics["101"]] == ["a1", "a2"]
    messages = [d.message for d in run.diagnostics]
    assert any("101" in m and "two blocks" in m for m in messages)
    assert any(d.line == 3 for d in run.diagnostics)
    with pytest.raises(InputError) as err:
        read_run(path, strict=True)
    assert str(err.value).startswith(f"{path}:3:") and "two blocks" in str(err.value)


def test_overlapping_passages_united(tmp_path):
    path = write(tmp_path, ["101 Q0 a1 1 1 r 0 10", "101 Q0 a1 1 1 r 5 10", "101 Q0 a1 1 1 r 30 5"])
    run = read_run(path)
    assert run.article("101", "a1").passages.tolist() == [[0, 15], [30, 35]]
    assert len(run.diagnostics) == 1 and "overlapping" in run.diagnostics[0].message


@pytest.mark.parametrize(
    "line, what",
    [
        ("101 Q0 a1 1 1 r 5 -3", "negative"),
        ("101 Q0 a1 1 1 r -5 3", "negative"),
        ("101 Q0 a1 1 1", "6 to 8 fields"),
        ("101 Q0 a1 1 1 r 5 3 extra", "at most 8"),
        ("101 Q0 a1 1 1 r five 3", "offset"),
    ],
)
def test_bad_lines_name_the_line(tmp_path, line, what):
    path = write(tmp_path, ["101 Q0 a0 1 1 r 0 1", line])
    with pytest.raises(InputError) as err:
        read_run(path)
    assert err.value.line == 2
    assert str(err.value).startswith(f"{path}:2:") and what in str(err.value)


def test_six_fields_whole_article_and_seven_fields_xpath(tmp_path):
    path = write(tmp_path, [
        "101 Q0 a1 1 1 r",
        "101 Q0 a2 2 1 r /article[1]/bdy[1]/p[3]",
        "101 Q0 a2 2 1 r /article[1]/bdy[1]/sec[2]",
    ])
    run = read_run(path)
    whole, by_path = run.topics["101"]
    assert whole.passages is None and whole.whole and whole.xpaths == []
    assert by_path.passages is None and not by_path.whole
    assert by_path.xpaths == ["/article[1]/bdy[1]/p[3]", "/article[1]/bdy[1]/sec[2]"]


def test_write_and_read_back(tmp_path):
    src = write(tmp_path, ["101 Q0 a1 1 1 r 0 10", "101 Q0 a1 1 1 r 20 5", "101 Q0 a2 2 1 r", "102 Q0 b 1 1 r 7 3"])
    run = read_run(src)
    out = tmp_path / "out.run"
    write_run(run, out)
    back = read_run(out)
    assert back.run_id == "r"
    for topic in ("101", "102"):
        a = [(e.article, e.rank, None if e.passages is None else e.passages.tolist()) for e in run.topics[topic]]
        b = [(e.article, e.rank, None if e.passages is None else e.passages.tolist()) for e in back.topics[topic]]
        assert a == b


def test_several_run_ids_warn(tmp_path):
    run = read_run(write(tmp_path, ["101 Q0 a1 1 1 x 0 1", "101 Q0 a2 2 1 y 0 1", "101 Q0 a3 3 1 y 0 1"]))
    assert run.run_id == "y"
    assert any("run ids" in d.message for d in run.diagnostics)


def test_real_run(inex):
    run = read_run(inex / "runs" / "bert-passages.run")
    assert run.run_id == "TREC2INEX"
    assert len(run.topics) == 118  # data README
    text = "\n".join(str(d) for d in run.diagnostics)
    # topic 2009079 comes in two blocks (lines 15687-15935 and 32582-32830)
    assert any("2009079" in d.message and "two blocks" in d.message and d.line == 32582 for d in run.diagnostics)
    assert "interleaved" in text
    assert run.topics["2009074"][0].article == "6422823"
    # "2009074 Q0 6422823 1 -0.00078167475 TREC2INEX 3634 1498"
    # (other lines of the article may extend it: the span [3634, 5132) lies inside one passage)
    assert any(s <= 3634 and 3634 + 1498 <= e for s, e in run.topics["2009074"][0].passages.tolist())
    with pytest.raises(InputError):
        read_run(inex / "runs" / "bert-passages.run", strict=True)
