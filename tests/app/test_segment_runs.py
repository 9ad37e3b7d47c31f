"""The window reads segment runs with ``readsim --segments FILE`` (docs/reference.md section 2.14):
the session's runs, the Runs window's added runs and the arguments, on the hand-worked run."""

from __future__ import annotations

from readsim.app import runs_model
from readsim.app.arguments import check_paths, parser
from readsim.app.background import activity
from readsim.app.loading import read_inputs
from readsim.app.session import Session

from helpers.segment_cases import QRELS, RUN, table, write


def _passages(run) -> dict:
    return {e.article: e.passages.tolist() for e in run.topics["1"]}


# A: [100,150) and [150,250) -> [100,250); B: [0,50) and [40,80) -> [0,80); C: [0,10)
WORKED = {"A": [[100, 250]], "B": [[0, 80]], "C": [[0, 10]]}


def test_loading_reads_segment_runs_and_names_a_bad_table(tmp_path):
    run = write(tmp_path, "r.run", RUN)
    out = read_inputs(qrels=write(tmp_path, "q.qrels", QRELS), runs=[run], segments=table(tmp_path))
    assert out.errors == [] and _passages(out.runs[0]) == WORKED
    assert any("r.run:3: warning" in d for d in out.diagnostics)
    bad = write(tmp_path, "bad.jsonl", '{"id": "A#1", "doc": "A"}\n')
    out = read_inputs(runs=[run], segments=bad)
    assert out.runs == [] and out.errors == [f"{bad}:1: missing field 'start'"]
    unknown = write(tmp_path, "u.run", "1 Q0 Z 1 1 segrun\n")
    out = read_inputs(runs=[unknown], segments=table(tmp_path))
    assert out.errors == [f"{unknown}:1: segment 'Z' is not in the segment table {table(tmp_path)}"]


def test_runs_window_adds_segment_runs(tmp_path):
    runs, errors = runs_model.read_runs([write(tmp_path, "r.run", RUN)], table(tmp_path))
    assert errors == [] and _passages(runs[0]) == WORKED


def test_the_option_and_its_path_check(tmp_path):
    args = parser().parse_args(["--qrels", "q", "--run", "r", "--segments", str(tmp_path / "none.jsonl")])
    assert args.segments == str(tmp_path / "none.jsonl")
    assert f"{tmp_path / 'none.jsonl'}: segments file not found" in check_paths(args)


def test_session_opens_a_segment_run(qtbot, tmp_path):
    session = Session(segments=table(tmp_path))
    session.open_files(qrels=write(tmp_path, "q.qrels", QRELS), runs=[write(tmp_path, "r.run", RUN)])
    qtbot.waitUntil(lambda: activity().count == 0 and session.run is not None, timeout=20_000)
    assert session.run.run_id == "segrun" and _passages(session.run) == WORKED
