"""doc_length from the collection where the qrels do not give it (reference 2.11, 2.12;
readsim.core.qrels_lengths): hand-made documents and Chroma's real ones."""

from __future__ import annotations

import json

from helpers.cli import run_cli
from readsim.core.collection import Collection
from readsim.core.formats import read_qrels
from readsim.core.qrels_lengths import with_collection_lengths


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _case(tmp_path):
    """Two documents of 10 characters ('abcdefghij'): 'a' judged [2, 4) without doc_length
    (the qrels imply 4, its largest end), 'b' judged [0, 1) with doc_length 12 (given, wrong:
    the collection says 10)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a", "b"):
        (folder / f"{name}.txt").write_text("abcdefghij")
    qrels = _write(tmp_path / "q.jsonl", [{"topic": "1", "doc": "a", "start": 2, "end": 4},
                                          {"topic": "1", "doc": "b", "start": 0, "end": 1, "doc_length": 12}])
    return folder, qrels


def test_implied_lengths_replaced_by_the_collection(tmp_path):
    folder, path = _case(tmp_path)
    qrels = read_qrels(path)
    assert qrels.implied == frozenset({"a"})
    assert qrels.judgement("1", "a").doc_length == 4  # the largest end: a lower bound
    out = with_collection_lengths(qrels, Collection(folder))
    assert out.judgement("1", "a").doc_length == 10  # the text's whole length
    assert out.judgement("1", "b").doc_length == 12  # given: the qrels stay the authority
    assert out.implied == frozenset()
    assert qrels.judgement("1", "a").doc_length == 4  # the qrels read are not changed
    assert with_collection_lengths(qrels, None) is qrels


def test_a_document_the_collection_lacks_keeps_its_implied_length(tmp_path):
    folder, path = _case(tmp_path)
    (folder / "a.txt").unlink()
    out = with_collection_lengths(read_qrels(path), Collection(folder))
    assert out.judgement("1", "a").doc_length == 4
    assert out.implied == frozenset({"a"})


def test_a_span_past_the_collection_length_is_a_warning(tmp_path):
    folder, _ = _case(tmp_path)
    path = _write(tmp_path / "past.jsonl", [{"topic": "1", "doc": "a", "start": 8, "end": 12}])
    out = with_collection_lengths(read_qrels(path), Collection(folder))
    assert [str(d) for d in out.diagnostics] == [
        f"{path}:1: warning: article a: a passage ends at 12, past its length 10 in the collection"]


def test_readsim_eval_uses_the_collection_length_and_warns_once(tmp_path):
    """A run retrieving 'a' and 'b' whole. 'a': R = [2, 4), T = [0, 10): P_set = 2/10 = 0.2
    (with the implied length 4 it was 2/4 = 0.5). 'b': R = [0, 1), T = [0, 12) (doc_length
    12 from the qrels): P_set = 1/12 = 0.083333, and the disagreement with the collection's 10
    is warned, once although two runs are evaluated."""
    folder, qrels = _case(tmp_path)
    rows = [{"topic": "1", "doc": d, "whole": True} for d in ("a", "b")]
    runs = [_write(tmp_path / f"{n}.jsonl", [dict(r, run=n) for r in rows]) for n in ("r1", "r2")]
    code, out, err = run_cli(qrels, *runs, "--collection", folder, "--per-article", "-m", "P_set", "-j", "1")
    assert code == 0, err
    assert out.splitlines() == ["P_set\t1\ta\t0.200000", "P_set\t1\tb\t0.083333"] * 2
    assert err.count("article b: doc_length 12 in the qrels, 10 computed from") == 1
    code, out, err = run_cli(qrels, *runs, "--collection", folder, "-m", "num_rel", "-j", "1")
    assert code == 0, err
    assert err.count("article b: doc_length 12 in the qrels, 10 computed from") == 1


def test_chroma_lengths_are_the_documents(chroma):
    """Chroma's qrels give no doc_length: state_of_the_union's implied length is its last
    judged span's end (45,995), the collection's its text's 48,051 characters (the data's README)."""
    qrels = read_qrels(chroma / "qrels.jsonl")
    assert qrels.judgement("1", "state_of_the_union").doc_length == 45995
    collection = Collection(chroma / "corpora")
    assert collection.unit == "chars"
    out = with_collection_lengths(qrels, collection)
    lengths = {j.article: j.doc_length for by in out.topics.values() for j in by.values()}
    assert lengths == {"chatlogs": 40000, "finance": 737905, "pubmed": 500000, "state_of_the_union": 48051,
                       "wikitexts": 118372}
    assert out.diagnostics == qrels.diagnostics  # every span within its document
    csv = with_collection_lengths(read_qrels(chroma / "questions_df.csv"), collection)
    assert csv.judgement("1", "state_of_the_union").doc_length == 48051


def test_an_unreadable_document_is_an_error_naming_it(tmp_path):
    """The length of a document that is not UTF-8 cannot be read: readsim-eval's one-line
    error names the file and its line (reference 2.13), no traceback."""
    folder, qrels = _case(tmp_path)
    (folder / "a.txt").write_bytes(b"abc\xff")
    run = _write(tmp_path / "r.jsonl", [{"topic": "1", "doc": "b", "whole": True, "run": "r"}])
    code, out, err = run_cli(qrels, run, "--collection", folder, "-m", "num_rel")
    assert code != 0 and out == ""
    assert f"{folder / 'a.txt'}:1: not UTF-8 text" in err and "Traceback" not in err
