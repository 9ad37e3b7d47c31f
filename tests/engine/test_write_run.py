"""Saving a run (readsim.core.formats.run_writer.write_run) and the atomic write under it (readsim.core.atomic).

What a saved line is: the lines of articles not edited are the run file's own bytes, in its
order; an edited article's lines become one 8-field line per passage at its first line, with
that line's rank, rsv and run id; a failed write leaves the previous file byte for byte.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import stat

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readsim.core import atomic
from readsim.core import intervals as iv
from readsim.core.formats import RunArticle, read_any_run, read_run, write_run

LINES = [
    "# a comment the user wrote",
    "101 Q0 a1 1 -0.5 r 0 10",
    "101 Q0 a2 2 -0.6 r 5 5",
    "101 Q0 a1 3 -0.7 r 20 5",  # a1 again (interleaved): merged into its first rank
    "",
    "102 Q0 b 1 9.25 r /article[1]/bdy[1]/p[3]",
    "102 Q0 c 2 9.0 r",
]


def src(tmp_path, lines=LINES, eol="\n", bom=b"", name="in.run"):
    path = tmp_path / name
    path.write_bytes(bom + (eol.join(lines) + eol).encode())
    return path


def edit(run, topic, article, spans):
    """What the editor does: new passages, no longer the file's lines."""
    entries = run.topics[topic]
    k = next(i for i, e in enumerate(entries) if e.article == article)
    entries[k] = dataclasses.replace(entries[k], passages=iv.as_array(spans), xpaths=[], lines=())


def test_unedited_run_is_copied_byte_for_byte(tmp_path):
    path = src(tmp_path)
    out = tmp_path / "out.run"
    assert write_run(read_run(path), out) == []
    assert out.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("eol, bom", [("\r\n", b""), ("\n", b"\xef\xbb\xbf"), ("\r\n", b"\xef\xbb\xbf")])
def test_crlf_and_bom_are_kept(tmp_path, eol, bom):
    path = src(tmp_path, eol=eol, bom=bom)
    run = read_run(path)
    out = tmp_path / "out.run"
    write_run(run, out)
    assert out.read_bytes() == path.read_bytes()
    edit(run, "101", "a2", [(0, 3), (7, 9)])
    write_run(run, out)
    data = out.read_bytes()
    assert data.startswith(bom + b"#") and data.count(b"\n") == data.count(eol.encode())
    assert b"101 Q0 a2 2 -0.6 r 0 3" + eol.encode() + b"101 Q0 a2 2 -0.6 r 7 2" + eol.encode() in data


def test_edited_article_lines_replace_its_first_line(tmp_path):
    path = src(tmp_path)
    run = read_run(path)
    edit(run, "101", "a1", [(40, 50), (2, 4)])
    out = tmp_path / "out.run"
    assert write_run(run, out) == []
    assert out.read_text().splitlines() == [
        "# a comment the user wrote",
        "101 Q0 a1 1 -0.5 r 2 2",  # document order, rank/rsv/run id of a1's first line
        "101 Q0 a1 1 -0.5 r 40 10",
        "101 Q0 a2 2 -0.6 r 5 5",  # untouched; a1's second line is gone
        "",
        "102 Q0 b 1 9.25 r /article[1]/bdy[1]/p[3]",
        "102 Q0 c 2 9.0 r",
    ]
    back = read_run(out)
    assert back.article("101", "a1").passages.tolist() == [[2, 4], [40, 50]]
    assert [e.article for e in back.topics["101"]] == ["a1", "a2"]


def test_no_passage_left_keeps_the_rank_and_new_article_goes_last(tmp_path):
    path = src(tmp_path)
    run = read_run(path)
    edit(run, "101", "a2", iv.EMPTY)
    run.topics["101"].append(RunArticle("a9", 3, iv.as_array([(1, 2)]), [], 0))
    out = tmp_path / "out.run"
    write_run(run, out)
    lines = out.read_text().splitlines()
    assert lines[2:5] == ["101 Q0 a2 2 -0.6 r 0 0", "101 Q0 a1 3 -0.7 r 20 5", "101 Q0 a9 3 -0.7 r 1 1"]
    back = read_run(out)
    assert [e.article for e in back.topics["101"]] == ["a1", "a2", "a9"]
    assert back.article("101", "a2").passages.tolist() == [] and back.article("101", "a2").rank == 2


def test_changed_source_falls_back_to_generated_lines_and_says_so(tmp_path):
    path = src(tmp_path)
    run = read_run(path)
    path.write_text(path.read_text().replace("101 Q0 a2 2 -0.6 r 5 5", "101 Q0 a2 2 -0.6 r 6 5"))
    out = tmp_path / "out.run"
    notes = write_run(run, out)
    assert len(notes) == 1 and "changed since it was read" in notes[0].message and notes[0].path == str(path)
    assert out.read_text().splitlines()[:2] == ["101 Q0 a1 1 1.000000 r 0 10", "101 Q0 a1 1 1.000000 r 20 5"]
    back = read_run(out)
    for topic, entries in run.topics.items():
        for e, b in zip(entries, back.topics[topic]):
            assert (e.article, e.xpaths, None if e.passages is None else e.passages.tolist()) == \
                   (b.article, b.xpaths, None if b.passages is None else b.passages.tolist())
    path.unlink()
    notes = write_run(run, out)
    assert "gone" in notes[0].message and read_run(out).article("101", "a2").passages.tolist() == [[5, 10]]


def test_xml_run_is_saved_as_fol(tmp_path):
    xml = tmp_path / "run.xml"
    xml.write_text('<inex-submission run-id="x"><topic topic-id="7">'
                   '<result><file>a</file><fol offset="3" length="4"/></result>'
                   '<result><file>b</file></result></topic></inex-submission>')
    out = tmp_path / "out.run"
    notes = write_run(read_any_run(xml), out)
    assert "XML" in notes[0].message
    assert out.read_text() == "7 Q0 a 1 1.000000 x 3 4\n7 Q0 b 2 0.500000 x\n"


def test_real_runs_are_copied_byte_for_byte(inex, tmp_path):
    for path in sorted((inex / "runs").glob("*.run")):
        out = tmp_path / path.name
        assert write_run(read_run(path), out) == []
        assert out.read_bytes() == path.read_bytes(), path.name


def test_real_run_one_edit_changes_only_that_article(inex, tmp_path):
    path = inex / "runs" / "bert-passages.run"
    run = read_run(path)
    e = run.article("2009074", "23724")  # PageRank, one line
    edit(run, "2009074", "23724", [(0, 159), (1326, 25686)])
    out = tmp_path / "out.run"
    write_run(run, out)
    old = path.read_bytes().split(b"\n")
    assert len(e.lines) > 1  # its passages come on several, interleaved lines
    head = old[e.line - 1].rsplit(b" ", 2)[0]  # topic Q0 article rank rsv run_id of its first line
    expect = [head + b" 0 159", head + b" 1326 24360"]
    want = [ln for n, ln in enumerate(old, 1) if n not in e.lines[1:]]
    want[e.line - 1:e.line] = expect
    assert out.read_bytes().split(b"\n") == want


# -- atomic writes -----------------------------------------------------------------------------
def test_atomic_write_keeps_permissions_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("old")
    os.chmod(path, 0o640)
    atomic.write_text(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["f.txt"]
    atomic.write_bytes(tmp_path / "g.bin", b"\x00\x01")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE((tmp_path / "g.bin").stat().st_mode) == 0o666 & ~mask


def test_atomic_write_follows_a_link(tmp_path):
    (tmp_path / "real.txt").write_text("old")
    (tmp_path / "link.txt").symlink_to("real.txt")
    atomic.write_text(tmp_path / "link.txt", "new")
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "real.txt").read_text() == "new"


@pytest.mark.parametrize("where", ["write", "fsync", "replace", "block"])
def test_a_failed_write_leaves_the_previous_file(tmp_path, monkeypatch, where):
    path = tmp_path / "f.run"
    path.write_bytes(b"previous\r\n")

    def fail(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    if where == "fsync":
        monkeypatch.setattr(atomic.os, "fsync", fail)
    elif where == "replace":
        monkeypatch.setattr(atomic.os, "replace", fail)
    with pytest.raises(OSError if where != "block" else KeyError) as info:
        with atomic.atomic_write(path, "wb") as fh:
            fh.write(b"half")
            if where == "write":
                fail()
            if where == "block":
                raise KeyError("the caller's own error")
    if where != "block":
        assert info.value.errno == errno.ENOSPC and info.value.filename == str(path)
        assert str(path) in str(info.value) and "No space left" in str(info.value)
    assert path.read_bytes() == b"previous\r\n" and os.listdir(tmp_path) == ["f.run"]


def test_atomic_write_refuses_a_folder_and_a_missing_folder(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(IsADirectoryError):
        atomic.write_text(tmp_path / "d", "x")
    with pytest.raises(FileNotFoundError) as info:
        atomic.write_text(tmp_path / "missing" / "f", "x")
    assert info.value.filename == str(tmp_path / "missing" / "f")
    assert sorted(os.listdir(tmp_path)) == ["d"] and os.listdir(tmp_path / "d") == []


def test_pointers_must_be_resolved(tmp_path):
    run = read_run(src(tmp_path))
    run.topics["101"][0] = dataclasses.replace(run.topics["101"][0], pointers=[("/a[1]", "/a[1]")], lines=())
    with pytest.raises(ValueError):
        write_run(run, tmp_path / "out.run")
    assert not (tmp_path / "out.run").exists()
    assert np.array_equal(read_run(tmp_path / "in.run").topics["101"][0].passages, [[0, 10], [20, 25]])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), min_size=1, max_size=6))
def test_a_lines_spans_are_compared_in_normal_form(spans):
    """The template check's plain-Python union of an article's spans is always what
    readsim.core.intervals.normalize gives."""
    from readsim.core.formats.run_writer import _normalized

    assert _normalized(spans) == iv.normalize(spans).tolist()


def test_normal_form_by_hand():
    from readsim.core.formats.run_writer import _normalized

    assert _normalized([(0, 5), (7, 9)]) == [[0, 5], [7, 9]]  # apart: as they are
    assert _normalized([(0, 5), (5, 9)]) == [[0, 9]]  # touching: merged
    assert _normalized([(7, 9), (0, 5)]) == [[0, 5], [7, 9]]  # out of order: sorted
    assert _normalized([(3, 3), (0, 2)]) == [[0, 2]]  # an empty span dropped
    assert _normalized([(0, 9), (2, 4), (8, 12)]) == [[0, 12]]  # inside, then overlapping
    assert _normalized([(4, 4)]) == []
