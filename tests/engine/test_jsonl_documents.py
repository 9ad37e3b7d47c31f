"""A JSON Lines file of documents as a collection (readsim.core.jsonl_documents, reference 2.13):
ids and text fields, offsets in characters and bytes, the saved offset index (built once,
reused, rebuilt when the file changes, never written through a link), ``.jsonl.gz``."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from readsim.core import article_index as ai
from readsim.core.collection import Collection
from readsim.core.layout import layout

DOCS = [{"id": "a", "title": "Doc A", "text": "é 日本\n\nx😀y"},
        {"doc_id": 7, "contents": "  spaced  "},
        {"docid": "c", "body": "third"},
        {"_id": "d", "text": ""}]


def _write(path: Path, docs=DOCS, gz: bool = False) -> Path:
    data = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs).encode()
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


@pytest.mark.parametrize("gz", [False, True])
def test_documents_by_id_in_both_units(tmp_path, gz):
    path = _write(tmp_path / ("d.jsonl.gz" if gz else "d.jsonl"), gz=gz)
    chars, byts = Collection(path, "chars"), Collection(path, "bytes")
    assert chars.names() == ["7", "a", "c", "d"] and "a" in chars and "zz" not in chars
    a = chars.article("a")
    # é 日本 \n \n x 😀 y: 9 characters; é 2 + 日本 6 + 😀 4 bytes: 9 + 1 + 4 + 3 = 17 bytes
    assert (a.text, a.length, a.doc_length, a.title) == ("é 日本\n\nx😀y", 9, 9, "Doc A")
    assert byts.article("a").length == 17 and byts.article("a").substring(12, 16) == "😀"
    assert chars.article("7").text == "  spaced  " and chars.article("c").text == "third"
    assert chars.article("d").length == 0
    assert [b.text for b in layout(a).blocks] == ["é 日本", "x😀y"]  # the title is not in the offsets
    assert chars.path("a") == path and chars.path("zz") is None
    with pytest.raises(KeyError):
        chars.article("zz")


def test_index_is_saved_reused_and_rebuilt_when_the_file_changes(tmp_path):
    path = _write(tmp_path / "d.jsonl")
    Collection(path)
    index = tmp_path / "d.jsonl.readsim-index.sqlite"
    assert index.is_file()
    stamp = index.stat().st_mtime_ns
    assert Collection(path).notes == [] and index.stat().st_mtime_ns == stamp  # reused
    _write(path, [*DOCS, {"id": "e", "text": "new"}])
    os.utime(path, ns=(stamp + 10**9, stamp + 10**9))
    coll = Collection(path)
    assert "e" in coll and any("changed" in n for n in coll.notes)


def test_opening_one_document_reads_its_line_only(tmp_path, monkeypatch):
    path = _write(tmp_path / "d.jsonl", [{"id": f"d{i}", "text": f"text {i}"} for i in range(2000)])
    coll = Collection(path)
    reads: list[int] = []  # bytes read from the file
    real = open

    class Counting:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def seek(self, offset):
            return self.fh.seek(offset)

        def read(self, size=-1):
            data = self.fh.read(size)
            reads.append(len(data))
            return data

    def counting(file, mode="r", *args, **kwargs):
        fh = real(file, mode, *args, **kwargs)
        return Counting(fh) if os.fspath(file) == os.fspath(path) else fh

    monkeypatch.setattr("builtins.open", counting)
    assert coll.article("d1500").text == "text 1500"
    assert reads == [len('{"id": "d1500", "text": "text 1500"}\n')]


def test_index_never_written_through_a_link(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = _write(tmp_path / "d.jsonl")
    victim = tmp_path / "victim"
    victim.write_text("mine")
    (tmp_path / "d.jsonl.readsim-index.sqlite").symlink_to(victim)
    coll = Collection(path, "chars")
    assert victim.read_text() == "mine" and coll.article("a").length == 9
    assert any("symbolic link" in n for n in coll.notes)
    assert ai.index_path(path).parent == ai.cache_folder()


@pytest.mark.parametrize("planted", ["size = 1099511627776", "offset = -1", "size = 'x'"])
def test_a_planted_index_row_is_rebuilt_not_trusted(tmp_path, planted):
    import sqlite3

    path = _write(tmp_path / "d.jsonl")
    Collection(path)
    index = tmp_path / "d.jsonl.readsim-index.sqlite"
    with sqlite3.connect(index) as conn:
        conn.execute(f"UPDATE readsim_articles SET {planted} WHERE name = 'a'")
    conn.close()
    coll = Collection(path, "chars")
    assert not any("rebuilding" in n for n in coll.notes)  # opening reads no row: each is checked when used
    assert coll.article("a").text == "é 日本\n\nx😀y"  # the planted row is refused, the index rebuilt
    assert any("rebuilding" in n and "('a', '', '')" in n for n in coll.notes), coll.notes
    assert "a" in Collection(path, "chars") and not any("rebuilding" in n for n in Collection(path).notes)
