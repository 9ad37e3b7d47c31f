"""Inputs that do not fit together (reference section 10): readsim.core.coverage's warnings, counts and first ids."""

from __future__ import annotations

import os

import pytest

from readsim.core.collection import Collection
from readsim.core.coverage import check_coverage, check_input_path
from readsim.core.errors import Diagnostic, InputError
from readsim.core.formats import read_qrels, read_run
from readsim.core.listmeasures import evaluate
from readsim.core.measure import parse_list_measure

QRELS = """\
2009001 Q0 a1 10 100 0 0:10
2009002 Q0 a2 10 100 0 5:10
2009003 Q0 a3 0 100
2009004 Q0 a4 0 100
"""


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def run_lines(topics_articles, run_id="r"):
    return "".join(f"{t} Q0 {a} {i} 1.0 {run_id} 0 10\n" for i, (t, a) in enumerate(topics_articles, 1))


def messages(diags):
    assert all(isinstance(d, Diagnostic) and d.line is None for d in diags)
    return [d.message for d in diags]


def test_matching_inputs_give_no_warning(tmp_path):
    qrels = read_qrels(write(tmp_path, "q", QRELS.replace(" 0 100\n", " 0 100 0 1:1\n").replace("Q0 a3 0", "Q0 a3 1")
                             .replace("Q0 a4 0", "Q0 a4 1")))
    run = read_run(write(tmp_path, "r", run_lines([("2009001", "a1"), ("2009002", "a2")])))
    coll = tmp_path / "c"
    coll.mkdir()
    for a in ("a1", "a2", "a3", "a4"):
        (coll / f"{a}.xml").write_text("<article/>")
    assert check_coverage(qrels, run, Collection(coll)) == []


def test_empty_qrels_says_so_once_and_nothing_about_topics(tmp_path):
    qrels = read_qrels(write(tmp_path, "empty.qrels", "# nothing judged\n\n"))
    run = read_run(write(tmp_path, "r", run_lines([("2009001", "a1")])))
    diags = check_coverage(qrels, run)
    assert [d.path for d in diags] == [str(tmp_path / "empty.qrels")]
    assert messages(diags) == ["no judgement (the qrels file is empty); every article counts as non-relevant "
                               "and every mean is 0"]


def test_topics_without_relevant_article_read_as_evaluate_says(tmp_path):
    qrels = read_qrels(write(tmp_path, "q", QRELS))
    run = read_run(write(tmp_path, "r", run_lines([("2009001", "a1")])))
    diags = check_coverage(qrels, run)
    assert messages(diags) == ["2 judged topics (first: 2009003, 2009004) have no relevant article; excluded from the mean"]
    ours = str(diags[0]).replace(" (first: 2009003, 2009004)", " (first: 2009003)")
    theirs = [str(d) for d in evaluate(qrels, run, [parse_list_measure("MAP")]).diagnostics]
    assert ours in theirs  # the same sentence as listmeasures.evaluate, with more ids


def test_run_topics_not_in_the_qrels_count_and_first_ids(tmp_path):
    qrels = read_qrels(write(tmp_path, "q", QRELS))
    pairs = [("2009001", "a1")] + [(f"20080{i:02d}", "a1") for i in range(1, 13)]
    run = read_run(write(tmp_path, "r.run", run_lines(pairs)))
    diags = [d for d in check_coverage(qrels, run) if d.path.endswith("r.run")]
    assert messages(diags) == ["12 topics of the run (first: 2008001, 2008002, 2008003) are not in the qrels; ignored"]
    one = read_run(write(tmp_path, "one.run", run_lines([("2009001", "a1"), ("2008001", "a1")])))
    assert "topic 2008001 of the run is not in the qrels; ignored" in messages(check_coverage(qrels, one))
    none = read_run(write(tmp_path, "none.run", run_lines(pairs[1:])))
    assert ("none of the 12 topics of the run (first: 2008001, 2008002, 2008003) is in the qrels; every mean is 0"
            in messages(check_coverage(qrels, none, first=3)))
    assert "(first: 2008001)" in str(check_coverage(qrels, none, first=1)[-1])


def test_empty_run_is_a_warning(tmp_path):
    run = read_run(write(tmp_path, "empty.run", ""))
    assert [str(d) for d in check_coverage(None, run)] == [
        f"{tmp_path / 'empty.run'}: warning: no result line (the run is empty); every mean is 0"]


def test_collection_checks_per_run_and_relevant_articles_once(tmp_path):
    qrels = read_qrels(write(tmp_path, "q", QRELS))
    coll = tmp_path / "c"
    (coll / "sub").mkdir(parents=True)
    (coll / "sub" / "a1.xml").write_text("<article/>")  # nested files count
    r1 = read_run(write(tmp_path, "r1", run_lines([("2009001", "a1"), ("2009001", "x1"), ("2009002", "x2"),
                                                   ("2009002", "x3"), ("2009002", "x4"), ("2009002", "x1")])))
    r2 = read_run(write(tmp_path, "r2", run_lines([("2009002", "y1")])))
    diags = check_coverage(qrels, [r1, r2], Collection(coll))
    assert messages(diags) == [
        "2 judged topics (first: 2009003, 2009004) have no relevant article; excluded from the mean",
        f"4 of the 5 articles of the run (first: x1, x2, x3) are not in the collection {coll}; "
        "scored from the qrels and the run alone (not shown, not clipped)",
        f"article y1, the only one of the run, is not in the collection {coll}; "
        "scored from the qrels and the run alone (not shown, not clipped)",
        f"1 of the 2 relevant articles of the run's topics (first: a2) is not in the collection {coll}; "
        "they have no text to show or clip",
    ]
    assert [d.path for d in diags[1:]] == [r1.path, r2.path, qrels.path]
    assert check_coverage(None, r1, Collection(coll), names={"a1", "x1", "x2", "x3", "x4"}) == []


def test_empty_collection_is_one_warning(tmp_path):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "notes.csv").write_text("no articles here")
    run = read_run(write(tmp_path, "r", run_lines([("2009001", "a1")])))
    diags = check_coverage(None, run, Collection(tmp_path / "c"))
    assert [str(d) for d in diags] == [f"{tmp_path / 'c'}: warning: no article (no .xml, .txt, .md or .html file) in the collection folder"]


def test_real_run_against_the_real_subset(inex):
    qrels = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    run = read_run(inex / "runs" / "bert-passages.run")
    coll = Collection(inex / "articles")
    diags = check_coverage(qrels, run, coll)
    text = [str(d) for d in diags]
    # every topic of the real run is judged; the shipped subset holds 858 of its 11,582 articles
    assert not any("not in the qrels" in t for t in text)
    assert any("10724 of the 11582 articles of the run (first: " in t for t in text)
    assert len(diags) == 2


@pytest.mark.parametrize("kind,make,reason", [
    ("run", lambda p: p, "run file not found"),
    ("qrels", lambda p: (p.mkdir(), p)[1], "is a folder, not a qrels file"),
    ("topics", lambda p: (os.mkfifo(p), p)[1], "is a FIFO (named pipe), not a regular topics file"),
    ("collection", lambda p: p, "collection folder not found"),
    ("collection", lambda p: (p.write_text("x"), p)[1], "not a folder"),
])
def test_check_input_path_never_opens(tmp_path, kind, make, reason):
    path = make(tmp_path / "x")
    with pytest.raises(InputError) as err:
        check_input_path(path, kind)
    assert str(err.value).startswith(f"{path}: {reason}")
    assert err.value.line is None


def test_check_input_path_accepts_files_and_folders(tmp_path):
    (tmp_path / "r").write_text("")
    assert check_input_path(tmp_path / "r", "run") == tmp_path / "r"
    assert check_input_path(tmp_path, "collection") == tmp_path
    with pytest.raises(ValueError):
        check_input_path(tmp_path, "movie")


def test_check_input_path_takes_a_pipe_only_when_asked(tmp_path):
    os.mkfifo(tmp_path / "p")
    assert check_input_path(tmp_path / "p", "run", pipes=True) == tmp_path / "p"
