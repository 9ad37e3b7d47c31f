"""``readsim-eval sweep`` used as a person would (reference 9.6): hand-worked rows, JSON Lines,
-q and --per-article, measures without the parameter, bad files with their exit status, and on
the real run and the sample every row equal to plain evaluation of its name. Bad command lines
are the rows of tests/hostile/test_sweep.py."""

from __future__ import annotations

import json

import pytest

from readsim.core.samples import sample

from helpers.cli import run_cli  # main(argv) with its exit status and both streams

# one topic, article 'a' of 100 bytes, relevant [0, 10); the run retrieves [0, 20) of it (rank 1)
QRELS = "1 Q0 a 10 100 0 0:10\n"
RUN = "1 Q0 a 1 1 hand 0 20\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "q.qrels").write_text(QRELS)
    (tmp_path / "r.run").write_text(RUN)
    return tmp_path / "q.qrels", tmp_path / "r.run"


def test_hand_worked_rows(files):
    # one relevant article at rank 1: AgP = its score. Set-based P = 10/20, R = 1:
    # F_1 = 2 (1/2) / (3/2) = 2/3; F_0.5 = 1.25 (1/2) / (0.125 + 1) = 5/9
    code, out, err = run_cli("sweep", *files, "-m", "AgP/F(0.25)", "--vary", "beta=1,0.5")
    assert code == 0, err
    assert out.splitlines() == ["AgP/F(1)\tbeta\t1\tall\t0.666667", "AgP/F(0.5)\tbeta\t0.5\tall\t0.555556"]
    # T2I: natural reading R[0,10) N[10,20) then N[20,100); t=5 stops at 15 (P = 10/15, R = 1,
    # T2IF = 0.8); t=50 at 60 (P = 1/6, T2IF = 2 (1/6) / (7/6) = 2/7)
    code, out, err = run_cli("sweep", *files, "-m", "AgP/T2IF(300)", "-q", "--vary", "t=5:50:2")
    assert code == 0, err
    assert out.splitlines() == ["AgP/T2IF(5)\tt\t5\t1\t0.800000", "AgP/T2IF(5)\tt\t5\tall\t0.800000",
                                "AgP/T2IF(50)\tt\t50\t1\t0.285714", "AgP/T2IF(50)\tt\t50\tall\t0.285714"]


def test_jsonl_per_article_and_left_out_measures(files):
    code, out, err = run_cli("sweep", *files, "--per-article", "-m", "T2IP(300)", "-m", "aveChP",
                             "--vary", "t=5,50", "--format", "jsonl")
    assert code == 0
    rows = [json.loads(x) for x in out.splitlines()]
    assert rows == [
        {"measure": "T2IP(5)", "parameter": "t", "parameter_value": 5, "topic": "1", "article": "a",
         "value": pytest.approx(10 / 15)},
        {"measure": "T2IP(50)", "parameter": "t", "parameter_value": 50, "topic": "1", "article": "a",
         "value": pytest.approx(1 / 6)}]
    assert list(rows[0]) == ["measure", "parameter", "parameter_value", "topic", "article", "value"]
    assert "--vary t: aveChP has no parameter t; left out" in err
    code, out, _ = run_cli("sweep", *files, "--vary", "beta=2", "--format", "jsonl")  # default AgP/F(0.25)
    assert list(json.loads(out)) == ["measure", "parameter", "parameter_value", "topic", "value"]


def test_bad_files_exit_1_naming_them(files, tmp_path):
    qrels, run = files
    code, _, err = run_cli("sweep", qrels, tmp_path / "missing.run", "--vary", "beta=1")
    assert code == 1 and "missing.run" in err and "Traceback" not in err
    bad = tmp_path / "bad.run"
    bad.write_text("1 Q0 a 1 1 hand zero 20\n")
    code, _, err = run_cli("sweep", qrels, bad, "--vary", "beta=1")
    assert code == 1 and f"{bad}:1:" in err


def _plain_lines(qrels, run, name: str) -> list[str]:
    """Plain evaluation's rows of ``name`` (-q): ``name<TAB>topic<TAB>value``."""
    code, out, err = run_cli(qrels, run, "-m", name, "-q")
    assert code == 0, err
    return out.splitlines()[1:]  # after the runid row


def _equal_to_plain(qrels, run, measures: list[str], vary: str) -> int:
    code, out, err = run_cli("sweep", qrels, run, *(x for m in measures for x in ("-m", m)), "-q", "--vary", vary)
    assert code == 0, err
    got: dict[str, list[str]] = {}
    for line in out.splitlines():
        name, parameter, value, topic, score = line.split("\t")
        assert parameter == vary.partition("=")[0]
        got.setdefault(name, []).append(f"{name}\t{topic}\t{score}")
    for name, lines in got.items():
        assert lines == _plain_lines(qrels, run, name), name
    return len(got)


def test_rows_equal_plain_evaluation_real(inex):
    qrels, run = inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "bert-passages.run"
    assert _equal_to_plain(qrels, run, ["AgP/T2IF(300)", "ANCE@100/LE(300)"], "t=10:20000:3:log") == 3
    assert _equal_to_plain(qrels, run, ["ANCE@100/LE(300)", "gP@10/ES(300)"], "s=50,300,2000") == 6
    assert _equal_to_plain(qrels, run, ["AgP/F(0.25)"], "beta=0.1,0.25,1") == 3


def test_rows_equal_plain_evaluation_sample():
    s = sample()
    for run in s.runs:
        assert _equal_to_plain(s.qrels, run, ["AgP/ChP@300", "AgP/T2IR(300)"], "k=1:2000:4") == 4


def test_warnings_are_printed_once_whatever_the_passes(files, monkeypatch):
    import readsim.operations.sweep as core

    qrels, run = files
    run.write_text(RUN + "2 Q0 b 1 1 hand 0 20\n")  # topic 2: not in the qrels
    monkeypatch.setattr(core, "CHUNK", 1)  # one pass per value
    code, out, err = run_cli("sweep", qrels, run, "--vary", "beta=1,0.5,2")
    assert code == 0 and len(out.splitlines()) == 3
    assert err.count("topic 2 of the run is not in the qrels") == 1, err
