"""Article ids of any length and any characters: the real run and qrels with their article ids
rewritten through a fixed mapping (10 characters, letters, ``#``, non-ASCII) give exactly the
output of INEX's own ids, on the column-wise path (the run's and the qrels' keys joined through
their names, :func:`readsim.core.formats.lines.translate_keys`), not article by article."""

from __future__ import annotations

import io

import numpy as np
import pytest

import readsim.core.formats.lines as lines_module
from readsim.core.formats import folrun
import readsim.core.listmeasures as lm
from readsim.cli import main
from readsim.core.run_columns import joined
from readsim.core.formats import read_qrels, read_run
from readsim.core.formats.lines import NO_KEY, Names, merge_keys, scan_fields, translate_keys
from readsim.core.measure import DocMeasure

MEASURES = ["AgP/F(0.25)", "AgP/aveChP", "AgP/T2IF(300)", "ANCE@600/LE(300)", "MAP", "gP@10/T2IP(300)", "MAiP",
            "num_rel_ret", "AgP/BEP(500)"]
DOC = ["F(0.25)", "aveChP", "T2IF(300)", "LE(300)", "BEP(500)"]


def ascii_ids(a: str) -> str:
    """INEX's article numbers as ids of other collections: 10 characters, letters and digits,
    ``#``, of 5 to 23 bytes; one in four kept (8 bytes at most, next to longer ones)."""
    n = int(a)
    return [f"wp{n:08d}", f"doc_{n}", f"msmarco_doc_00_{n}#4", a][n % 4]


def unicode_ids(a: str) -> str:
    """Non-ASCII ids (the file is then read line by line), long and short."""
    n = int(a)
    return [f"artículo-{n}", f"記事{n}", f"é{n}"][n % 3]


def rewrite(source, path, mapping) -> None:
    with open(source, encoding="utf-8") as f, open(path, "w", encoding="utf-8") as out:
        for line in f:
            fields = line.split(" ")
            fields[2] = mapping(fields[2])
            out.write(" ".join(fields))


def cli(*argv) -> str:
    out, err = io.StringIO(), io.StringIO()
    assert main(["-j", "1", *map(str, argv)], out, err) == 0, err.getvalue()
    return out.getvalue()


@pytest.fixture
def no_article_by_article(monkeypatch):
    """Scoring any topic article by article (off the column-wise path) fails the test."""
    def refuse(*args, **kw):
        raise AssertionError("a topic was scored article by article")
    monkeypatch.setattr(lm, "_score_entries", refuse)


@pytest.mark.parametrize("mapping", [ascii_ids, unicode_ids])
def test_rewritten_ids_give_the_output_of_inex_ids(inex, tmp_path, mapping, no_article_by_article):
    qrels, run = inex / "qrels/inex2009-2010.qrels", inex / "runs/bert-passages.run"
    q2, r2 = tmp_path / "q.qrels", tmp_path / "r.run"
    rewrite(qrels, q2, mapping)
    rewrite(run, r2, mapping)
    measures = [a for m in MEASURES for a in ("-m", m)]
    for extra in ([], ["--reading", "entry"], ["--as-documents"]):
        expected = cli("-q", *extra, *measures, qrels, run)
        assert len(expected.splitlines()) > 1000
        assert cli("-q", *extra, *measures, q2, r2) == expected
    doc = [a for m in DOC for a in ("-m", m)]
    lines = [row.split("\t") for row in cli("--per-article", *doc, qrels, run).splitlines()]
    expected = "".join("\t".join([m, t, mapping(a), v]) + "\n" for m, t, a, v in lines)
    assert cli("--per-article", *doc, q2, r2) == expected


def test_long_ids_take_the_column_wise_path(inex, tmp_path):
    q2, r2 = tmp_path / "q.qrels", tmp_path / "r.run"
    rewrite(inex / "qrels/inex2009-2010.qrels", q2, ascii_ids)
    rewrite(inex / "runs/bert-passages.run", r2, ascii_ids)
    qrels, run = read_qrels(q2), read_run(r2)
    rc, qc = run.columns("2009001")[0], qrels.columns("2009001")[0]
    assert not rc.article_names.packed and not qc.names.packed  # names longer than 8 bytes: coded
    assert isinstance(rc.article_names.vocabulary, np.ndarray)  # read column-wise, not line by line
    judged = [t for t in run.topics if t in qrels.topics]
    jt = joined(qrels, run, judged)
    assert jt is not None and [t for t, _, _ in jt.picked] == judged
    # every ranked article the qrels judge is found: as many as with INEX's ids
    inex_jt = joined(read_qrels(inex / "qrels/inex2009-2010.qrels"), read_run(inex / "runs/bert-passages.run"),
                     judged)
    assert np.array_equal(jt.judgement >= 0, inex_jt.judgement >= 0) and np.count_nonzero(jt.judgement >= 0) > 1000
    m = [DocMeasure("F", 0, 0.25)]
    assert set(lm._rank_columns(qrels, run, judged, m, "natural", None, False, 4)) == set(judged)


def test_a_big_run_of_long_ids_is_read_in_chunks(tmp_path, monkeypatch):
    # a chunk of short ids (packed) and one with long ones (coded) join into one vocabulary
    monkeypatch.setattr(folrun, "CHUNK", 64)
    names = ["a1", "b", "c", "d", "e", "doc_000000012", "msmarco_doc_00_123#4", "a1", "a1"]
    path = tmp_path / "r.run"
    path.write_text("".join(f"{1 + k // 4} Q0 {a} {k} 1 r {k} 5\n" for k, a in enumerate(names)))
    run = read_run(path)
    assert {t: [e.article for e in es] for t, es in run.topics.items()} == {"1": names[:4], "2": names[4:8],
                                                                            "3": names[8:]}
    assert isinstance(run.columns("1")[0].article_names.vocabulary, np.ndarray)


def test_keys_of_two_files_join_through_their_names():
    long, names = scan_fields(b"wp00000001 1\ndoc_2 1\nwp00000001 1\n").keys(0)
    assert not names.packed and names(long) == ["wp00000001", "doc_2", "wp00000001"] and long[0] == long[2]
    short = Names.encode(["x", "doc_2"])  # packed (8 bytes at most)
    coded = Names.encode(["wp00000001", "é", "doc_2"])  # a list vocabulary (read line by line)
    assert short[1].packed and not coded[1].packed
    # packed keys into coded ones, coded into packed, and codes into other codes
    assert translate_keys(short[0], short[1], coded[0], coded[1]).tolist() == [NO_KEY, coded[0][2]]
    assert translate_keys(coded[0], coded[1], short[0], short[1]).tolist() == [NO_KEY, NO_KEY, short[0][1]]
    assert translate_keys(long, names, coded[0], coded[1]).tolist() == coded[0][[0, 2, 0]].tolist()
    keys, merged = merge_keys([short, coded, (long, names)])
    assert merged(keys) == ["x", "doc_2", "wp00000001", "é", "doc_2", "wp00000001", "doc_2", "wp00000001"]
    assert len(set(keys.tolist())) == 4 and keys[1] == keys[4] == keys[6] and keys[2] == keys[5] == keys[7]


def test_names_of_one_hash_are_still_told_apart(monkeypatch):
    # every name hashed alike: the exact sort decides (the codes and the join are the same)
    data = b"wp00000001 1\ndoc_2 1\nwp00000001 1\nmsmarco_doc_00_123#4 1\n"
    expected = scan_fields(data).keys(0)
    other = Names.encode(["msmarco_doc_00_123#4", "doc_2", "zz"])
    joined_keys = translate_keys(*expected, *other)
    monkeypatch.setattr(lines_module, "_row_hash", lambda cols: np.zeros(cols.shape[1], dtype=np.uint64))
    keys, names = scan_fields(data).keys(0)
    assert names(keys) == expected[1](expected[0]) and keys[0] == keys[2] and len(set(keys.tolist())) == 3
    assert translate_keys(*expected, *other).tolist() == joined_keys.tolist() == [NO_KEY, 1, NO_KEY, 0]
