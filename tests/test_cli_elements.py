"""``readsim-eval --elements`` as a user runs it: assessments, simulated and file runs, bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

from readsim.cli import main

ARTICLE = (b"<article><title>Title</title><bdy><p>rel one</p><p>half <b>rel</b> no</p>"
           b"<p>nothing here</p></bdy></article>")
X = np.round(np.arange(101) / 100, 2)


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "articles").mkdir()
    (tmp_path / "articles" / "A1.xml").write_bytes(ARTICLE)
    (tmp_path / "q.qrels").write_text("T1 Q0 A1 10 35 5 5:7 17:3\n")
    return tmp_path


def test_print_the_derived_assessments(files):
    code, out, err = run(files / "q.qrels", "--collection", files / "articles", "--elements")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "#topic\tarticle\txpath\tsize\trsize\te\ts",  # the header row naming the columns
        "T1\tA1\t/article[1]\t35\t10\t3\t1",
        "T1\tA1\t/article[1]/bdy[1]\t30\t10\t3\t1",
        "T1\tA1\t/article[1]/bdy[1]/p[1]\t7\t7\t3\t3",
        "T1\tA1\t/article[1]/bdy[1]/p[2]\t11\t3\t1\t1",
        "T1\tA1\t/article[1]/bdy[1]/p[2]/b[1]\t3\t3\t1\t3",
    ]
    code, out, _ = run(files / "q.qrels", "--collection", files / "articles", "--elements", "--format", "jsonl",
                       "--s-cuts", "1/4,1/2")
    first, second = (json.loads(line) for line in out.splitlines()[:2])
    assert first == {"topic": "T1", "article": "A1", "xpath": "/article[1]", "size": 35, "rsize": 10, "e": 3, "s": 2}
    assert second["s"] == 2  # 10/30 is above 1/4, at most 1/2


def test_write_the_assessments_and_read_them_back(files):
    xml = files / "out.xml"
    code, out, err = run(files / "q.qrels", "--collection", files / "articles", "--elements", "--write-assessments", xml)
    assert code == 0 and out == "" and "wrote 5 assessed elements of 1 topics" in err
    assert xml.read_text().startswith("<?xml")
    code2, printed, _ = run(xml, "--collection", files / "articles", "--elements")
    _, derived, _ = run(files / "q.qrels", "--collection", files / "articles", "--elements")
    assert code2 == 0 and printed == derived


def test_simulated_runs_inex_2002(files):
    code, out, err = run(files / "q.qrels", "--collection", files / "articles", "--simulated", "perfect",
                         "--simulated", "ancestors", "-m", "AP_2002/gen", "-m", "iP_2002[0.50]/gen", "-q")
    assert code == 0, err
    # worked by hand in tests/engine/test_elements_runs.py: n = 3.25; at x = .5 (NR = 1.625) the
    # perfect run (1.5 relevant) has nothing; ancestors: rank 3, j = .5, s = .125
    p50 = 1.625 / (1.625 + 0.5 + 0.125 * 1.25 / 2.75)
    lines = out.splitlines()
    assert lines[0] == "runid\tall\tperfect" and lines[5] == "runid\tall\tancestors"
    assert lines[2] == "iP_2002[0.50]/gen\tT1\t0.000000"
    assert lines[7] == f"iP_2002[0.50]/gen\tT1\t{p50:.6f}"
    assert lines[9] == f"iP_2002[0.50]/gen\tall\t{p50:.6f}"
    perfect, ancestors = float(lines[3].split("\t")[2]), float(lines[8].split("\t")[2])
    assert lines[3].startswith("AP_2002/gen\tall\t") and ancestors > perfect


def test_a_file_run_is_sent_here_by_its_measure(files):
    (files / "e.run").write_text("T1 Q0 A1 1 2 me /article[1]/bdy[1]/p[1]\nT1 Q0 A1 2 1 me /article[1]/bdy[1]/p[1]/x[1]\n")
    code, _, err = run(files / "q.qrels", files / "e.run", "--collection", files / "articles", "-m", "AP_2003o/gen")
    assert code == 1 and err.strip().endswith("e.run:2: article A1 has no element /article[1]/bdy[1]/p[1]/x[1]")
    (files / "e.run").write_text("T1 Q0 A1 1 2 me /article[1]/bdy[1]/p[1]\nT1 Q0 A1 2 1 me /article[1]\n")
    code, out, err = run(files / "q.qrels", files / "e.run", "--collection", files / "articles", "-m", "AP_2003o/strict",
                         "--format", "jsonl")
    assert code == 0, err
    row = json.loads(out)
    # strict: exh 1 for the root, bdy and p1 (e 3), spec 1 for p1 and b (s 3).
    #   rel^U: p1 (leaf) 1; p2 max(0, 1*11/30) (bdy's share; b is 0 under strict); p3 12/30;
    #          bdy = 1 + 11/30 + 12/30 = 53/30; root = max(0, 5/35) + max(53/30, 30/35) = 1/7 + 53/30
    #   c1 = p1: recall 1 / R, precision 1;  c2 = root: 28 new of 35: recall (1 + 28/35) / R,
    #   precision 7/35 -> 7 / (7 + 28) = 1/5.   Salton: 1 up to 1/R, 1/5 up to 1.8/R
    rel_u = 1 / 7 + 53 / 30
    ap = (np.sum(X[1:] <= 1 / rel_u + 1e-12) + np.sum((X[1:] > 1 / rel_u) & (X[1:] <= 1.8 / rel_u + 1e-12)) / 5) / 100
    assert row == {"run": "me", "measure": "AP_2003o/strict", "topic": "all", "value": pytest.approx(ap)}


def test_default_measures_are_the_six_ap(files):
    code, out, _ = run(files / "q.qrels", "--collection", files / "articles", "--elements", "--simulated", "perfect")
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()] == [
        "runid", "AP_2002/strict", "AP_2002/gen", "AP_2003s/strict", "AP_2003s/gen", "AP_2003o/strict", "AP_2003o/gen"]


@pytest.mark.parametrize("extra, message", [
    (["-m", "AP_2004/gen"], "unknown element measure 'AP_2004/gen'"),
    (["-m", "AP_2002/gen", "-m", "AgP/F(0.25)"], "AgP/F(0.25) is not an element measure"),
    (["--elements", "-m", "MAP"], "MAP is not an element measure"),
    (["--elements", "--per-article"], "--per-article cannot be combined"),
])
def test_usage_errors(files, extra, message):
    code, out, err = run(files / "q.qrels", "--collection", files / "articles", "--simulated", "perfect", *extra)
    assert code == 2 and out == "" and message in err


def test_usage_errors_without_a_collection_or_with_bad_cuts(files):
    code, _, err = run(files / "q.qrels", "--elements")
    assert code == 2 and "needs --collection DIR" in err
    code, _, err = run(files / "q.qrels", "--collection", files / "articles", "--elements", "--e-cuts", "2/3,1/3")
    assert code == 2 and "argument --e-cuts" in err and "0 < a < b < 1" in err


def test_input_errors(files):
    code, _, err = run(files / "missing.qrels", "--collection", files / "articles", "--elements")
    assert code == 1 and "missing.qrels: qrels file not found" in err
    (files / "bad.xml").write_text('<assessments topic="1">\n<file name="A1">\n<element path="/article[1]" '
                                   'exhaustivity="7" size="35" rsize="1"/></file></assessments>')
    code, _, err = run(files / "bad.xml", "--collection", files / "articles", "--elements")
    assert code == 1 and "bad.xml:3: <element> exhaustivity must be 0, 1, 2 or 3, not '7'" in err
    (files / "far.qrels").write_text("T1 Q0 ELSEWHERE 7 35 5 5:7\n")
    code, out, err = run(files / "far.qrels", "--collection", files / "articles", "--simulated", "ancestors")
    assert code == 1 and out == ""
    assert err.endswith("articles: no topic has all its relevant articles in the collection: the simulated runs "
                        "need complete topics\n")
