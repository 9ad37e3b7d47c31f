"""``readsim-eval --segments`` (docs/reference.md section 2.14): every subcommand that reads runs
prints for a segment run exactly what it prints for the FOL run of the same spans, on a
hand-made run and on the real INEX BERT passage run rewritten as segments."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from readsim.cli import main

from helpers.segment_cases import QRELS, RUN, TWIN, table, write


def run_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def small(tmp_path):
    return (write(tmp_path, "q.qrels", QRELS), write(tmp_path, "r.run", RUN), write(tmp_path, "t.run", TWIN),
            table(tmp_path))


@pytest.mark.parametrize("command", [
    ["-q", "-m", "AgP/F(0.25)", "-m", "gP@2/F(0.25)", "-m", "MAiP"],
    ["--per-article", "-m", "F(0.25)", "-m", "T2IF(300)"],
    ["sweep", "-m", "AgP/F(0.25)", "--vary", "beta=1,0.5"],
    ["loss", "-m", "AgP/F(0.25)", "--format", "tsv"],
])
def test_segment_run_prints_what_its_fol_twin_prints(small, command):
    qrels, run, twin, segments = small
    sub, options = (command[:1], command[1:]) if command[0] in ("sweep", "loss") else ([], command)
    code, out, err = run_cli(*sub, qrels, run, "--segments", segments, *options)
    code_twin, out_twin, _ = run_cli(*sub, qrels, twin, *options)
    assert code == code_twin == 0, err
    assert out == out_twin.replace("t.run", "r.run") and out
    assert "r.run:3: warning: 2 result lines in 1 topics" in err  # the run's own lines are named


def test_per_article_values_by_hand(small):
    qrels, run, _, segments = small
    code, out, _ = run_cli(qrels, run, "--segments", segments, "--per-article", "-m", "P_set")
    # A: 100 of [100,250) relevant, 2/3; B: 50 of [0,80), 5/8; C unjudged: 0 (tests/engine/test_segments.py)
    assert code == 0 and out.splitlines() == ["P_set\t1\tA\t0.666667", "P_set\t1\tB\t0.625000", "P_set\t1\tC\t0.000000"]


def test_compare_reads_segment_runs(small, tmp_path):
    _, _, _, segments = small
    qrels = write(tmp_path, "q2.qrels", QRELS + "2 Q0 A 100 1000 100 100:100\n")
    mine = write(tmp_path, "r.run", RUN + "2 Q0 A#1 1 1.0 segrun\n")
    twin = write(tmp_path, "t.run", TWIN + "2 Q0 A 1 1.0 segrun 100 50\n")
    other = RUN.replace("segrun", "other").replace("1 Q0 7 5 5.0 other\n", "") + "2 Q0 B#1 1 1.0 other\n"
    other_twin = TWIN.replace("segrun", "other").replace("1 Q0 C 5 5.0 other 0 10\n", "") + "2 Q0 B 1 1.0 other 0 50\n"
    code, out, err = run_cli("compare", qrels, mine, write(tmp_path, "o.run", other), "--segments", segments,
                             "--format", "tsv")
    code_twin, out_twin, _ = run_cli("compare", qrels, twin, write(tmp_path, "ot.run", other_twin), "--format", "tsv")
    assert code == code_twin == 0, err
    assert out == out_twin and "segrun" in out and "other" in out


def test_unknown_segment_and_bad_table_are_messages(small, tmp_path):
    qrels, run, _, segments = small
    bad_run = write(tmp_path, "bad.run", RUN.replace("B#2", "B#3"))
    code, out, err = run_cli(qrels, bad_run, "--segments", segments)
    assert code == 1 and out == ""
    assert err.strip() == f"readsim-eval: {bad_run}:5: segment 'B#3' is not in the segment table {segments}"
    bad_table = write(tmp_path, "bad.jsonl", '{"id": "A#1", "doc": "A", "start": 100}\n')
    code, _, err = run_cli(qrels, run, "--segments", bad_table)
    assert code == 1 and err.strip() == f"readsim-eval: {bad_table}:1: missing field 'end' (or 'length')"
    code, _, err = run_cli(qrels, run, "--segments", tmp_path / "none.jsonl")
    assert code == 1 and "segments file not found" in err


def _as_segments(fol_run: Path, folder: Path) -> tuple[Path, Path]:
    """The FOL run rewritten as a segment run (each distinct passage of an article one segment,
    ``article#k``) and its segment table."""
    ids: dict[tuple[str, int, int], str] = {}
    lines, rows = [], []
    for line in fol_run.read_text(encoding="utf-8").splitlines():
        topic, q0, article, rank, rsv, run_id, offset, length = line.split()
        key = (article, int(offset), int(length))
        if key not in ids:
            ids[key] = f"{article}#{len(ids)}"
            rows.append({"id": ids[key], "doc": article, "start": key[1], "end": key[1] + key[2]})
        lines.append(f"{topic} {q0} {ids[key]} {rank} {rsv} {run_id}\n")
    run, segments = folder / fol_run.name, folder / "segments.jsonl"
    run.write_text("".join(lines), encoding="utf-8")
    segments.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return run, segments


def test_real_bert_run_as_segments_gives_the_same_output(inex, tmp_path):
    fol = inex / "runs" / "bert-passages.run"
    run, segments = _as_segments(fol, tmp_path)
    qrels = inex / "qrels" / "inex2009-2010.qrels"
    options = ["-q", "-m", "AgP/F(0.25)", "-m", "gP@10/F(0.25)", "-m", "MAiP", "-m", "ANCE@600/LE(300)",
               "-m", "num_rel_ret"]
    code, out, err = run_cli(qrels, run, "--segments", segments, *options)
    code_fol, out_fol, err_fol = run_cli(qrels, fol, *options)
    assert code == code_fol == 0
    assert out == out_fol  # byte-identical: the same run id (column 6), topics and values
    assert err == err_fol.replace(str(fol), str(run))  # the same warnings at the same lines
    assert len(out.splitlines()) == 596  # runid, then 5 measures x (118 topics + all)


def test_segment_runs_in_worker_processes(small, tmp_path):
    qrels, run, _, segments = small
    other = write(tmp_path, "o.run", RUN.replace("segrun", "other"))
    one = run_cli(qrels, run, other, "--segments", segments, "-q", "-j", "1")
    two = run_cli(qrels, run, other, "--segments", segments, "-q", "-j", "2")
    assert one[0] == two[0] == 0 and one[1] == two[1] and "runid\tall\tsegrun" in one[1] and "other" in one[1]
    bad = write(tmp_path, "bad.run", RUN.replace("B#2", "B#3"))
    code, _, err = run_cli(qrels, run, bad, "--segments", segments, "-j", "2")
    assert code == 1 and f"{bad}:5: segment 'B#3' is not in the segment table" in err
