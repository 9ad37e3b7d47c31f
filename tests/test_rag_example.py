"""The shipped RAG citation example (resources/rag): its offsets are what generate.py means, its
files are what generate.py writes, it is packaged, and readsim-eval scores it as worked out by hand."""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RAG = ROOT / "resources" / "rag"


def _generate():
    spec = importlib.util.spec_from_file_location("rag_generate", RAG / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_files_are_what_generate_writes():
    assert _generate().stale() == []


def test_every_highlight_is_the_text_generate_means():
    gen = _generate()
    docs = gen.read_docs()
    meant = [(topic, doc, grade, first, last) for topic, spans in gen.QRELS.items()
             for doc, grade, first, last in spans if grade > 0]
    shipped = gen.spans_text()
    assert len(shipped) == len(meant)
    for (topic, doc, grade, text), (t, d, g, first, last) in zip(shipped, meant):
        assert (topic, doc, grade) == (t, d, g)
        assert text.startswith(first) and text.endswith(last), (topic, doc, text)
        assert docs[doc].count(first) == 1
    # one highlight checked by hand, in characters: brewing.txt[70:202]
    assert docs["brewing"][70:202].startswith("The usual advice is 90–96 °C (195–205 °F)")
    # characters, not bytes: the multi-byte text before it shifts nothing, the answer holds some
    assert len(docs["brewing"].encode("utf-8")) > len(docs["brewing"])


def test_run_spans_and_doc_lengths():
    gen = _generate()
    docs = gen.read_docs()
    for line in (RAG / "qrels.jsonl").read_text(encoding="utf-8").splitlines():
        q = json.loads(line)
        assert q["doc_length"] == len(docs[q["doc"]])
    for run in ("precise", "paragraphs"):
        for line in (RAG / "runs" / f"{run}.jsonl").read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            assert 0 <= r["start"] < r["end"] <= len(docs[r["doc"]]) and r["run"] == run


def test_the_example_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert {"readsim.resources.rag", "readsim.resources.rag.docs", "readsim.resources.rag.runs"} <= set(config["packages"])
    patterns = config["package-data"]["readsim.resources"]
    for path in RAG.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".py" \
                and not path.name.endswith(".sqlite"):
            name = path.relative_to(ROOT / "resources").as_posix()
            assert any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(path.name, p.removeprefix("**/"))
                       for p in patterns), name


def test_readsim_eval_gives_the_hand_worked_numbers():
    """Topic 1, run `paragraphs`, document espresso (offsets in characters):

    relevant  [187, 353) grade 2 (166 chars) + [415, 575) grade 1 (160)   = 326
    retrieved [10, 185) (175, the first paragraph) + [415, 653) (238)     = 413
    overlap   [415, 575)                                                  = 160
    P_set = 160/413 = 0.387409, R_set = 160/326 = 0.490798,
    F(0.25) = 1.0625 * P * R / (0.0625 * P + R) = 0.392270.
    With --min-grade 2 only the grade-2 span is relevant and the run cites none of it: 0.
    """
    p, r = 160 / 413, 160 / 326
    f = 1.0625 * p * r / (0.0625 * p + r)
    base = [sys.executable, "-m", "readsim.cli", str(RAG / "qrels.jsonl"), str(RAG / "runs" / "paragraphs.jsonl"),
            "--collection", str(RAG / "docs"), "--unit", "chars", "--per-article",
            "-m", "P_set", "-m", "R_set", "-m", "F(0.25)"]
    done = subprocess.run(base, capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr
    rows = {(m, t, d): v for m, t, d, v in (line.split("\t") for line in done.stdout.splitlines())}
    assert rows[("P_set", "1", "espresso")] == f"{p:.6f}" == "0.387409"
    assert rows[("R_set", "1", "espresso")] == f"{r:.6f}" == "0.490798"
    assert rows[("F(0.25)", "1", "espresso")] == f"{f:.6f}" == "0.392270"
    done = subprocess.run([*base, "--min-grade", "2"], capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr
    rows = {(m, t, d): v for m, t, d, v in (line.split("\t") for line in done.stdout.splitlines())}
    assert rows[("R_set", "1", "espresso")] == "0.000000"


def test_the_window_knows_json_lines_files_by_their_keys():
    from readsim.app.input_files import sniff_kind
    assert sniff_kind(RAG / "topics.jsonl") == ("topics", 1)
    assert sniff_kind(RAG / "qrels.jsonl") == ("qrels", 1)
    assert sniff_kind(RAG / "runs" / "precise.jsonl") == ("run", 1)
