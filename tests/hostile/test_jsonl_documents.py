"""Hostile JSON Lines collections and text files (reference 2.13): each bad input is an
InputError naming the file and the line, or a warning doing so (a second document of one id)."""

from __future__ import annotations

import gzip

import pytest

from readsim.core.collection import Collection
from readsim.core.errors import InputError

GOOD = b'{"id": "a", "text": "ok"}\n'

ERRORS = {
    "not JSON": (GOOD + b"{oops\n", 2, "not JSON"),
    "an array": (GOOD + b'["a", "b"]\n', 2, "not an object"),
    "a number": (GOOD + b"\n42\n", 3, "not an object"),
    "no id": (GOOD + b'{"text": "t"}\n', 2, "no document id"),
    "a null id": (GOOD + b'{"id": null, "text": "t"}\n', 2, "not a string or an integer"),
    "no text": (GOOD + b'{"id": "b", "title": "t"}\n', 2, "no text"),
    "text not a string": (GOOD + b'{"id": "b", "text": ["t"]}\n', 2, "not a string"),
    "not UTF-8": (GOOD + b'{"id": "b", "text": "\xff"}\n', 2, "not JSON"),
}


@pytest.mark.parametrize("gz", [False, True], ids=["jsonl", "jsonl.gz"])
@pytest.mark.parametrize("case", list(ERRORS))
def test_bad_lines_name_file_and_line(tmp_path, case, gz):
    data, line, reason = ERRORS[case]
    path = tmp_path / ("d.jsonl.gz" if gz else "d.jsonl")
    path.write_bytes(gzip.compress(data) if gz else data)
    with pytest.raises(InputError) as err:
        Collection(path)
    assert (err.value.path, err.value.line) == (str(path), line) and reason in err.value.reason
    assert not (tmp_path / (path.name + ".readsim-index.sqlite")).exists()  # no index saved


def test_duplicate_id_first_wins_with_a_warning_at_every_opening(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_bytes(GOOD + b'{"id": "b", "text": "x"}\n{"id": "a", "text": "second"}\n')
    for _ in range(2):  # built, then reused: the warning is given again
        coll = Collection(path, "chars")
        assert coll.article("a").text == "ok"
        assert coll.notes == [f"{path}:3: warning: a second document of id 'a': the first, line 1, counts"]


def test_gzip_cut_short(tmp_path):
    path = tmp_path / "d.jsonl.gz"
    data = gzip.compress(b"".join(b'{"id": "d%d", "text": "%s"}\n' % (i, b"x" * (i % 50)) for i in range(5000)))
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError) as err:
        Collection(path)
    assert err.value.path == str(path) and err.value.line is not None and "cut short" in err.value.reason


def test_not_utf8_text_file(tmp_path):
    (tmp_path / "d.txt").write_bytes(b"line one\n\xe9t\xe9\n")
    with pytest.raises(InputError) as err:
        Collection(tmp_path).article("d")
    assert str(err.value).startswith(f"{tmp_path / 'd.txt'}:2: not UTF-8 text")


def test_text_file_that_is_a_folder_or_a_fifo(tmp_path):
    (tmp_path / "dir.txt").mkdir()
    with pytest.raises(InputError, match="dir.txt"):
        Collection(tmp_path).article("dir")
