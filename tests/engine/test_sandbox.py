"""The sandbox article (docs/reference.md section 9.2.2): the shipped worked examples of Arvola,
Kekäläinen & Junkkari 2010 (seed 003, section 4.1) saved as a collection, qrels and run that
readsim-eval scores with the paper's numbers, in FOL and in JSON Lines; the files as written;
hostile sandbox files as messages naming the field."""

from __future__ import annotations

import io
import os
from fractions import Fraction as Fr
from pathlib import Path

import pytest

from readsim.cli import main
from readsim.core.errors import InputError
from readsim.core.sandbox import FILES, Sandbox, parse_sandbox, read_sandbox, sandbox_json, save_sandbox

SHIPPED = Path(__file__).resolve().parents[2] / "resources" / "sandbox"
MINI = "relevant content is in bold\nand retrieved is underlined"

# The paper's numbers, worked by hand from its section 4.1 (Table 1's 55-character mini document:
# relevant 1..27, 1-based; line break at 28; docs/reference.md section 11).
# Example 1, retrieved 33..55: reading order <33..55, 1..32>; the j-th relevant character is read at
# position 23 + j: aveChP = (1/27) sum_j j/(23+j) (paper: 0.35); nothing relevant retrieved: F = 0.
EX1 = float(sum(Fr(j, 23 + j) for j in range(1, 28)) / 27)
# Whole document: <1..55>, relevant first: aveChP = 1; P = 27/55, R = 1, F1 = 2PR/(P+R) = 27/41 (0.66).
WHOLE_F = 27 / 41
# Example 2, retrieved 24..45: <24..45, 1..23, 46..55>: 4 relevant first (P = 1 each), 18 not, then the
# j-th of 23 relevant at 22 + j with 4 + j read: aveChP = (4 + sum_j (4+j)/(22+j))/27 (paper: 0.53);
# |R n T| = 4, |T| = 22, |R| = 27: F1 = 2*4/(22+27) = 8/49 (paper: 0.16).
EX2 = float((4 + sum(Fr(4 + j, 22 + j) for j in range(1, 24))) / 27)
PAPER = {"example-1": (EX1, 0.0, 0.35, 0.0), "whole-document": (1.0, WHOLE_F, 1.0, 0.66),
         "example-2": (EX2, 8 / 49, 0.53, 0.16)}


def evaluate(folder: Path, qrels: str, run: str) -> dict[str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["--per-article", "-m", "aveChP", "-m", "F(1)", "-m", "LE(300)", "--collection", str(folder),
                   str(folder / qrels), str(folder / run)], out=out, err=err)
    assert status == 0, err.getvalue()
    return {m: v for m, topic, doc, v in (line.split("\t") for line in out.getvalue().splitlines())
            if (topic, doc) == ("sandbox", "doc")}


@pytest.mark.parametrize("name", sorted(PAPER))
def test_shipped_examples_give_the_papers_numbers_in_readsim_eval(name, tmp_path):
    box = read_sandbox(SHIPPED / f"{name}.readsim-sandbox")
    assert box.text == MINI and len(MINI) == 55 and MINI[27] == "\n"
    assert box.relevant == ((0, 27),)
    ave, f1, paper_ave, paper_f = PAPER[name]
    assert round(ave, 2) == paper_ave and round(f1, 2) == paper_f
    save_sandbox(box, tmp_path / "box")
    for qrels, run in (("sandbox.qrels", "sandbox.run"), ("sandbox.qrels.jsonl", "sandbox.run.jsonl")):
        rows = evaluate(tmp_path / "box", qrels, run)
        assert rows == {"aveChP": f"{ave:.6f}", "F(1)": f"{f1:.6f}", "LE(300)": "1"}, (qrels, rows)
    assert read_sandbox(tmp_path / "box" / FILES["sandbox"]) == box


def test_the_files_written(tmp_path):
    # text "abcdefghij" (10 characters), relevant [2, 5) and [4, 7) (united: [2, 7), 5 characters),
    # retrieved [8, 10) then [0, 3), in that order
    box = Sandbox("abcdefghij", ((2, 5), (4, 7)), ((8, 10), (0, 3)))
    paths = save_sandbox(box, tmp_path / "out")
    read = {kind: p.read_text(encoding="utf-8") for kind, p in paths.items()}
    assert read["collection"] == "abcdefghij"
    assert read["qrels"] == "sandbox Q0 doc 5 10 2 2:5\n"
    assert read["run"] == "sandbox Q0 doc 1 1 sandbox 8 2\nsandbox Q0 doc 1 1 sandbox 0 3\n"
    assert read["qrels_jsonl"] == ('{"topic": "sandbox", "doc": "doc", "start": 2, "end": 7, "grade": 1, '
                                   '"doc_length": 10, "bep": 2}\n')
    assert read["run_jsonl"].splitlines()[1] == '{"topic": "sandbox", "doc": "doc", "start": 0, "end": 3, "rank": 1, "run": "sandbox"}'
    assert parse_sandbox("x", read["sandbox"].encode()) == box
    # nothing marked: judged non-relevant, the article kept at rank 1 retrieving nothing
    paths = save_sandbox(Sandbox("a\r\nb"), tmp_path / "empty")
    assert paths["collection"].read_bytes() == b"a\r\nb"  # CR LF kept: two characters (reference 2.13)
    assert paths["qrels"].read_text() == "sandbox Q0 doc 0 4\n"
    assert paths["run"].read_text() == "sandbox Q0 doc 1 1 sandbox 0 0\n"
    assert evaluate(tmp_path / "empty", "sandbox.qrels", "sandbox.run") == {
        "aveChP": "0.000000", "F(1)": "0.000000", "LE(300)": "5"}


def test_never_written_through_a_link(tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep")
    folder = tmp_path / "box"
    folder.mkdir()
    os.symlink(target, folder / "sandbox.run")
    with pytest.raises(OSError, match="symbolic link"):
        save_sandbox(Sandbox("abc", ((0, 1),), ((0, 2),)), folder)
    assert target.read_text() == "keep" and not (folder / "doc.txt").exists()
    os.symlink(folder, tmp_path / "linked")
    with pytest.raises(OSError, match="symbolic link"):
        save_sandbox(Sandbox("abc"), tmp_path / "linked")
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "a.xml").write_text("<article/>")
    with pytest.raises(FileExistsError, match=r"holds other files \(a.xml\): the folder is the sandbox's collection"):
        save_sandbox(Sandbox("abc"), mixed)
    assert sorted(p.name for p in mixed.iterdir()) == ["a.xml"]
    save_sandbox(Sandbox("abc"), tmp_path / "again")
    save_sandbox(Sandbox("abcd"), tmp_path / "again")  # over a sandbox saved before
    assert (tmp_path / "again" / "doc.txt").read_text() == "abcd"
    with pytest.raises(ValueError, match=r"field retrieved\[0\]: \[2, 9\] is not a span"):
        save_sandbox(Sandbox("abc", (), ((2, 9),)), tmp_path / "bad")


@pytest.mark.parametrize("raw, message", [
    (b"\xff{}", r"not UTF-8 text \(byte 0"),
    (b"{", "not JSON"),
    (b"[" * 100_000, "not a sandbox: JSON nested too deep"),
    (b"[1]", "not a sandbox: a JSON object is needed, not list"),
    (b'{"format": "readsim-view"}', 'field format: must be "readsim-sandbox"'),
    (b'{"format": "readsim-sandbox", "version": 2, "text": "a"}', "field version: is 2; this readsim reads sandbox version 1"),
    (b'{"format": "readsim-sandbox", "text": "a", "retreived": []}', "field retreived: unknown field"),
    (b'{"format": "readsim-sandbox", "text": 5}', "field text: must be a string, not int"),
    (b'{"format": "readsim-sandbox", "text": ""}', "field text: is empty"),
    (b'{"format": "readsim-sandbox", "text": "a\\ud800"}', "field text: character 1 is a lone surrogate"),
    (b'{"format": "readsim-sandbox", "text": "\\ufeffa"}', "field text: starts with a byte-order mark"),
    (b'{"format": "readsim-sandbox", "text": "abc", "relevant": [[0, 1e3]]}', r"field relevant\[0\]: start and end"),
    (b'{"format": "readsim-sandbox", "text": "abc", "relevant": [[0, true]]}', r"field relevant\[0\]: start and end"),
    (b'{"format": "readsim-sandbox", "text": "abc", "relevant": [[0]]}', r"field relevant\[0\]: must be a \[start, end\]"),
    (b'{"format": "readsim-sandbox", "text": "abc", "relevant": {"a": 1}}', "field relevant: must be a list"),
    (b'{"format": "readsim-sandbox", "text": "abc", "retrieved": [[2, 2]]}', r"field retrieved\[0\]: \[2, 2\] is not a span"),
    (b'{"format": "readsim-sandbox", "text": "abc", "retrieved": [[0, 4]]}', r"give 0 <= start < end <= 3"),
    (b'{"format": "readsim-sandbox", "text": "abc", "retrieved": [[0, ' + b"9" * 40 + b"]]}", "more than 30 digits"),
    (b'{"format": "readsim-sandbox", "text": "abc", "note": NaN}', "NaN is not a number JSON allows"),
])
def test_hostile_sandbox_files(raw, message):
    with pytest.raises(InputError, match=message) as caught:
        parse_sandbox("box.readsim-sandbox", raw)
    assert str(caught.value).startswith("box.readsim-sandbox: ")


def test_too_long_and_not_regular(tmp_path):
    with pytest.raises(InputError, match="a sandbox holds at most 200,000"):
        parse_sandbox("b", sandbox_json(Sandbox("a" * 200_001)).encode())
    with pytest.raises(InputError, match="a sandbox file is at most"):
        parse_sandbox("b", b" " * 2_000_001)
    with pytest.raises(InputError, match="not a regular file"):
        read_sandbox(tmp_path)
