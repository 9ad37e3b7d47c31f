"""The unit when none is given (reference 2.13): the collection's, bytes without one
(readsim.core.units.unit_of, Collection(unit=None)), followed by readsim-eval, the API and the
window's session."""

from __future__ import annotations

import json
import zipfile

import pytest

from helpers.cli import run_cli
from readsim.core.collection import Collection
from readsim.core.units import unit_of

ARTICLE = b'<?xml version="1.0" encoding="UTF-8"?><article><body>Caf\xc3\xa9</body></article>'


def _folder(tmp_path, files: dict[str, bytes]):
    folder = tmp_path / "docs"
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


@pytest.mark.parametrize("files, unit", [
    ({"a.txt": b"x", "b.md": b"y", "c.html": b"<p>z</p>"}, "chars"),  # no article XML
    ({"a.xml": ARTICLE}, "bytes"),  # INEX's
    ({"a.txt": b"x", "b.xml": ARTICLE}, "bytes"),  # one article XML is enough
    ({"sub/a.txt": b"x", "sub/deeper/b.txt": b"y"}, "chars"),  # nested, indexed
    ({"sub/a.txt": b"x", "sub/deeper/b.xml": ARTICLE}, "bytes"),
])
def test_a_folder_unit_is_chars_unless_it_holds_article_xml(tmp_path, files, unit):
    folder = _folder(tmp_path, files)
    assert Collection(folder).unit == unit
    assert Collection(folder, "bytes").unit == "bytes"  # an explicit unit wins
    assert Collection(folder, "chars").unit == "chars"


@pytest.mark.parametrize("member, unit", [("docs/a.txt", "chars"), ("docs/A.XML", "bytes")])
def test_an_archive_unit_from_its_members(tmp_path, member, unit):
    path = tmp_path / "c.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(member, ARTICLE if unit == "bytes" else b"x")
    assert Collection(path).unit == unit


def test_a_folder_of_archives_looks_inside_them(tmp_path):
    folder = tmp_path / "arch"
    folder.mkdir()
    with zipfile.ZipFile(folder / "part.zip", "w") as zf:
        zf.writestr("a.txt", b"x")
    assert Collection(folder).unit == "chars"
    with zipfile.ZipFile(folder / "more.zip", "w") as zf:
        zf.writestr("b.xml", ARTICLE)
    folder2 = tmp_path / "arch2"
    folder2.mkdir()
    (folder / "more.zip").rename(folder2 / "more.zip")
    assert Collection(folder2).unit == "bytes"


def test_a_json_lines_file_of_documents_is_chars(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text(json.dumps({"id": "a", "text": "é"}) + "\n")
    assert Collection(path).unit == "chars"


def test_unit_of_explicit_then_collection_then_bytes(tmp_path):
    chars = Collection(_folder(tmp_path, {"a.txt": b"x"}))
    assert unit_of("bytes", chars) == "bytes"
    assert unit_of(None, chars) == "chars"
    assert unit_of(None, None) == "bytes"
    assert unit_of("chars", None) == "chars"


def _inputs(tmp_path):
    """A document 'd' of 4 characters, 6 UTF-8 bytes ('é' 2 bytes each), relevant [0, 2) and
    a run retrieving it whole: P_set = |R| / n = 2/4 = 0.5 in characters, 2/6 = 0.333333 in
    bytes (where [0, 2) is the first 'é')."""
    folder = _folder(tmp_path, {"d.txt": "ééab".encode()})
    qrels = tmp_path / "q.jsonl"
    qrels.write_text(json.dumps({"topic": "1", "doc": "d", "start": 0, "end": 2}) + "\n")
    run = tmp_path / "r.jsonl"
    run.write_text(json.dumps({"topic": "1", "doc": "d", "whole": True, "run": "w"}) + "\n")
    return folder, qrels, run


def test_readsim_eval_defaults_to_the_collection_unit(tmp_path):
    folder, qrels, run = _inputs(tmp_path)
    rows = {}
    for unit in ((), ("--unit", "chars"), ("--unit", "bytes")):
        code, out, err = run_cli(qrels, run, "--collection", folder, "--per-article", "-m", "P_set", *unit)
        assert code == 0, err
        rows[unit] = out.split("\t")[-1].strip()
    assert rows[()] == rows[("--unit", "chars")] == "0.500000"
    assert rows[("--unit", "bytes")] == "0.333333"


def test_the_api_defaults_to_the_collection_unit(tmp_path):
    import readsim

    folder, qrels, run = _inputs(tmp_path)
    frame = readsim.evaluate(qrels, run, ["P_set"], per="article", collection=folder)
    assert frame["value"].tolist() == [0.5]
    frame = readsim.evaluate(qrels, run, ["P_set"], per="article", collection=folder, unit="bytes")
    assert frame["value"].round(6).tolist() == [0.333333]
    art = readsim.article(qrels, run, topic="1", article="d", collection=folder)
    assert art.scores["P_set"] == 0.5
