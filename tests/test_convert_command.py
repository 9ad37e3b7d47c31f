"""``readsim-eval convert`` (docs/reference.md section 9.8): qrels and runs FOL <-> JSON Lines,
INEX collections to JSON Lines documents and .txt folders; the converted real data evaluates to
the INEX XML route's output."""

from __future__ import annotations

import io
import re

import numpy as np

from readsim.cli import main
from readsim.core.formats import read_any_run, read_qrels

QRELS = "2009001 Q0 851 30 100 7 10:20 40:10\n2009001 Q0 900 0 50\n2009002 Q0 851 5 100 3 0:5\n"
RUN = ("# a comment\n"
       "1 Q0 a 1 2.5 myrun 0 10\n"
       "1 Q0 b 2 1.5 myrun 5 5\n"
       "1 Q0 a 3 1.0 myrun 20 5\n"
       "1 Q0 c 4 0.5 myrun\n"
       "2 Q0 a 1 9 myrun 0 0\n")


def convert(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["convert", *map(str, argv)], out, err)
    return code, out.getvalue(), err.getvalue()


def same_run(a, b) -> None:
    assert list(a.topics) == list(b.topics)
    for topic in a.topics:
        ea, eb = list(a.topics[topic]), list(b.topics[topic])
        assert [e.article for e in ea] == [e.article for e in eb]
        for x, y in zip(ea, eb):
            assert x.whole == y.whole
            assert (x.passages is None) == (y.passages is None)
            if x.passages is not None:
                assert np.array_equal(x.passages, y.passages)
            assert np.array_equal(x.line_spans, y.line_spans)
    assert a.run_id == b.run_id


def same_qrels(a, b) -> None:
    assert list(a.topics) == list(b.topics)
    for topic in a.topics:
        assert list(a.topics[topic]) == list(b.topics[topic])
        for name, j in a.topics[topic].items():
            k = b.topics[topic][name]
            assert (j.rel_size, j.doc_length, j.bep) == (k.rel_size, k.doc_length, k.bep)
            assert np.array_equal(j.passages, k.passages)


def test_qrels_round_trip(tmp_path):
    src = tmp_path / "a.qrels"
    src.write_text(QRELS)
    assert convert("qrels", src, tmp_path / "a.jsonl")[0] == 0
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    assert lines[0] == '{"topic": "2009001", "doc": "851", "start": 10, "length": 20, "doc_length": 100, "bep": 7}'
    assert lines[2] == '{"topic": "2009001", "doc": "900", "grade": 0, "doc_length": 50}'
    assert convert("qrels", tmp_path / "a.jsonl", tmp_path / "b.qrels")[0] == 0
    assert (tmp_path / "b.qrels").read_text() == QRELS
    same_qrels(read_qrels(src), read_qrels(tmp_path / "a.jsonl"))


def test_run_round_trip(tmp_path):
    src = tmp_path / "a.run"
    src.write_text(RUN)
    code, _, err = convert("run", src, tmp_path / "a.jsonl")
    assert code == 0, err
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    assert lines[0] == '{"topic": "1", "doc": "a", "start": 0, "length": 10, "rank": 1, "score": 2.5, "run": "myrun"}'
    assert lines[3] == '{"topic": "1", "doc": "c", "whole": true, "rank": 4, "score": 0.5, "run": "myrun"}'
    assert convert("run", tmp_path / "a.jsonl", tmp_path / "b.run")[0] == 0
    assert (tmp_path / "b.run").read_text() == "".join(RUN.splitlines(True)[1:]).replace(" 9 ", " 9.0 ")
    same_run(read_any_run(src), read_any_run(tmp_path / "a.jsonl"))
    same_run(read_any_run(src), read_any_run(tmp_path / "b.run"))


def test_errors_name_file_and_line(tmp_path):
    src = tmp_path / "x.run"
    src.write_text("1 Q0 a 1 1 r 0 10\n1 Q0 b 2 1 r /article[1]/bdy[1]\n")
    code, _, err = convert("run", src, tmp_path / "x.jsonl", "--to", "jsonl")
    assert code == 1 and f"{src}:2: an element XPath" in err
    assert not (tmp_path / "x.jsonl").exists()
    code, _, err = convert("run", src, tmp_path / "x.txt", "--to", "txt")
    assert code == 2
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "target.jsonl")
    (tmp_path / "ok.run").write_text("1 Q0 a 1 1 r 0 10\n")
    code, _, err = convert("run", tmp_path / "ok.run", link)
    assert code == 1 and "symbolic link" in err and not (tmp_path / "target.jsonl").exists()
    code, _, err = convert("run", tmp_path / "ok.run", tmp_path / "ok.run", "--to", "fol")
    assert code == 1


def test_article_text_keeps_offsets_in_both_units(inex):
    from readsim.core.collection import Collection
    from readsim.core.conversions import document_text

    for unit in ("bytes", "chars"):
        coll = Collection(inex / "articles", unit)
        for name in ("1164", "2212038", "10019528"):
            article = coll.article(name)
            text = document_text(article, unit)
            assert (len(text.encode()) if unit == "bytes" else len(text)) == article.length
            start, end = article.elements[1].start, article.elements[1].end
            sub = article.substring(start, end)
            raw = text.encode()[start:end].decode() if unit == "bytes" else text[start:end]
            assert sub == raw


_PATHS = re.compile(r"\S*/(?=[^/\s]+\.(?:run|qrels)\b)")
_COLLECTION = re.compile(r"\S*(?:articles|coll\.jsonl|txt)(?:/\S*\.txt|:\d+)?")


def _stderr(text: str) -> list[str]:
    """Warnings up to file paths, without those a converted collection adds by nature: the
    qrels' doc_length against a document's whole text (the qrels are the authority, 1.5)."""
    keep = [line for line in text.splitlines()
            if "computed from" not in line and "more warnings not shown" not in line
            and "appears in two blocks" not in line]
    return [_COLLECTION.sub("COLLECTION", _PATHS.sub("", line)) for line in keep]


def test_real_data_converted_evaluates_the_same(inex, tmp_path):
    qrels = inex / "qrels" / "inex2009-2010.qrels"
    runs = sorted((inex / "runs").glob("*.run"))
    (tmp_path / "runs").mkdir()
    (tmp_path / "qrels").mkdir()
    jq = tmp_path / "qrels" / qrels.name  # same file names: the runs are labelled by them (shared run ids)
    assert convert("qrels", qrels, jq, "--to", "jsonl")[0] == 0
    jruns = []
    for run in runs:
        jruns.append(tmp_path / "runs" / run.name)
        assert convert("run", run, jruns[-1], "--to", "jsonl")[0] == 0
    code, _, err = convert("collection", inex / "articles", tmp_path / "coll.jsonl", "--unit", "bytes")
    assert code == 0 and "1,079 documents" in err
    assert convert("collection", inex / "articles", tmp_path / "txt", "--to", "txt")[0] == 0
    assert len(list((tmp_path / "txt").glob("*.txt"))) == 1079

    def evaluate(q, rs, coll, *options):
        out, err = io.StringIO(), io.StringIO()
        assert main([*options, str(q), *map(str, rs), "--collection", str(coll)], out, err) == 0, err.getvalue()
        return out.getvalue(), _stderr(err.getvalue())

    # MAiP and iP[0.01]: the passage runs are the same; a whole-article line of an article the
    # qrels do not judge takes its length from the collection (the INEX rule of 1.4 on XML, a
    # document's whole text otherwise): indri-documents' MAiP differs there (docs/reference.md 9.8)
    # with the collection: two passage runs and the whole-article run; bert-passages' two
    # remappings (map19, map199) are checked without it, below, with every other run
    passage_runs = [r for r in runs if r.stem in ("bert-passages", "indri-passages")]
    documents = [r for r in runs if r.stem == "indri-documents"]
    jpassage, jdocuments = ([tmp_path / "runs" / r.name for r in rs] for rs in (passage_runs, documents))
    per_article = [r for r in runs if r.stem in ("bert-passages", "indri-documents")]
    listed = ("-q", "-m", "AgP/F(0.25)", "-m", "AgP/T2IF(300)", "-m", "ANCE@100/LE(300)", "-m", "gP@10/F(0.25)")
    cases = [(passage_runs, jpassage, (*listed, "-m", "MAiP", "-m", "iP[0.01]"), ("coll.jsonl", "txt")),
             (documents, jdocuments, listed, ("coll.jsonl", "txt")),
             # per article: the clipping to each document's text, through one converted collection,
             # on a passage run and the whole-article run (every run's lines are checked above)
             (per_article, [tmp_path / "runs" / r.name for r in per_article],
              ("--per-article", "-m", "F(0.25)", "-m", "T2IF(300)", "-m", "LE(300)", "-m", "BEP(500)"),
              ("coll.jsonl",))]
    assert len(passage_runs) == 2 and len(documents) == 1
    for inex_runs, converted, options, collections in cases:
        want = evaluate(qrels, inex_runs, inex / "articles", *options)
        for coll in collections:  # byte offsets: not these documents' default
            assert evaluate(jq, converted, tmp_path / coll, *options, "--unit", "bytes") == want
    # and without the collection, every measure of every run, MAiP included
    out, err = io.StringIO(), io.StringIO()
    main(["-q", "-m", "MAiP", "-m", "AgP/F(0.25)", str(qrels), *map(str, runs)], out, err)
    out2, err2 = io.StringIO(), io.StringIO()
    main(["-q", "-m", "MAiP", "-m", "AgP/F(0.25)", str(jq), *map(str, jruns)], out2, err2)
    assert out2.getvalue() == out.getvalue()
