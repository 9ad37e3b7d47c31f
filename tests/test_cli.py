"""``readsim-eval`` end to end: list measures (trec_eval-like rows, -q, -c, jsonl, several
runs), the per-article and --check modes, exit codes, and the real INEX data against a
restatement of the official tool (tests/engine/list_reference.py)."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from readsim.cli import main

_spec = importlib.util.spec_from_file_location("list_reference", Path(__file__).parent / "engine" / "list_reference.py")
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)

# Topic 1: A relevant [0,10) of 100 (rel 10), B relevant [0,40) of 100 (rel 40).
# Topic 2: C relevant [0,20) of 50. Topic 3 judges D non-relevant only.
QRELS = "1 Q0 A 10 100 0 0:10\n1 Q0 B 40 100 0 0:40\n2 Q0 C 20 50 0 0:20\n3 Q0 D 0 80\n"
# run1, topic 1: A retrieves [0,10) exactly (F = 1), X unjudged; topic 2 not answered.
RUN1 = "1 Q0 A 1 1 one 0 10\n1 Q0 X 2 1 one 0 5\n"
# run2, topic 1: X, then B retrieving [0,20) (P = 1, R = 1/2); topic 2: C's relevant [0,20) (F = 1).
RUN2 = "1 Q0 X 1 1 two 0 5\n1 Q0 B 2 1 two 0 20\n2 Q0 C 1 1 two 0 20\n"
# F_0.25 with P = 1, R = 1/2: (1 + 1/16) * 1/2 / (1/16 + 1/2) = (17/32) / (9/16) = 17/18
F_B = 17 / 18


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in {"q.qrels": QRELS, "one.run": RUN1, "two.run": RUN2}.items():
        (tmp_path / name).write_text(text)
        paths[name.split(".")[0]] = tmp_path / name
    return paths


def rows(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.splitlines()]


def test_default_is_magp_over_the_runs_topics(files):
    code, out, err = run_cli(files["q"], files["one"])
    assert code == 0
    # topic 1 only (topic 2 is not in the run): AgP = gP[1] / Nrel = 1 / 2
    assert rows(out) == [["runid", "all", "one"], ["AgP/F(0.25)", "all", "0.500000"]]
    assert "no relevant article" in err  # topic 3 (judged, nothing relevant): excluded, with a warning


def test_per_topic_rows_and_complete(files):
    code, out, _ = run_cli(files["q"], files["one"], "-q", "-c", "-m", "AgP/F(0.25)", "-m", "num_ret")
    assert code == 0
    assert rows(out) == [
        ["runid", "all", "one"],
        ["AgP/F(0.25)", "1", "0.500000"], ["num_ret", "1", "2"],
        ["AgP/F(0.25)", "2", "0.000000"], ["num_ret", "2", "0"],  # -c: topic 2 missing -> 0
        ["AgP/F(0.25)", "all", "0.250000"], ["num_ret", "all", "2"],
    ]


def test_several_runs_jsonl(files):
    code, out, _ = run_cli(files["q"], files["one"], files["two"], "--format", "jsonl", "-q",
                           "-m", "gP@2/F(0.25)", "-m", "ANCE@2/LE(300)")
    assert code == 0
    got = [json.loads(line) for line in out.splitlines()]
    assert all(set(r) == {"run", "measure", "topic", "value"} for r in got)
    table = {(r["run"], r["measure"], r["topic"]): r["value"] for r in got}
    assert table["one", "gP@2/F(0.25)", "1"] == pytest.approx(0.5)
    assert table["two", "gP@2/F(0.25)", "1"] == pytest.approx(F_B / 2)
    assert table["two", "gP@2/F(0.25)", "2"] == pytest.approx(1.0)  # past the end of the run: gP[1]
    # run two, topic 1: ES = <5, 1>, IE = <1, 1>: NCE = <4, 4>, ANCE@2 = (4 + 4) / 2
    assert table["two", "ANCE@2/LE(300)", "1"] == pytest.approx(4)
    # topic 2: ES = <1, NR>, IE = <1, NR>: NCE = <0, 0>
    assert table["two", "ANCE@2/LE(300)", "2"] == pytest.approx(0)
    assert table["two", "ANCE@2/LE(300)", "all"] == pytest.approx(2)


def test_gp_past_the_end_official_quirk_and_plain(files):
    # run two, topic 2 has one article with F = 1: gP@5 is gP[1] = 1 officially, 1/5 plain
    _, out, _ = run_cli(files["q"], files["two"], "-q", "-m", "gP@5/F(0.25)")
    assert ["gP@5/F(0.25)", "2", "1.000000"] in rows(out)
    _, out, _ = run_cli(files["q"], files["two"], "-q", "-m", "gP@5/F(0.25)", "--plain-gp")
    assert ["gP(plain)@5/F(0.25)", "2", "0.200000"] in rows(out)


def test_per_article_mode_is_unchanged(files):
    code, out, _ = run_cli(files["q"], files["two"], "--per-article", "-m", "F(0.25)", "-m", "LE(300)")
    assert code == 0
    assert rows(out) == [
        ["F(0.25)", "1", "X", "0.000000"], ["LE(300)", "1", "X", "5"],
        ["F(0.25)", "1", "B", f"{F_B:.6f}"], ["LE(300)", "1", "B", "1"],
        ["F(0.25)", "2", "C", "1.000000"], ["LE(300)", "2", "C", "1"],
    ]
    _, out, _ = run_cli(files["q"], files["one"], "--per-article", "--format", "jsonl")
    first = json.loads(out.splitlines()[0])
    assert first == {"run": "one", "measure": "F(0.25)", "topic": "1", "article": "A", "value": 1.0}


@pytest.mark.parametrize("argv", [
    ["-m", "nDCG@10"],
    ["-m", "F(0.25)"],  # a document measure where a list measure is expected
    ["-m", "CE@5/F(0.25)"],
    ["--per-article", "-m", "AgP/F(0.25)"],
])
def test_unknown_measure_exits_2(files, argv):
    code, out, err = run_cli(files["q"], files["one"], *argv)
    assert code == 2 and out == "" and err.startswith("readsim-eval:")


def test_usage_errors_exit_2(files):
    assert run_cli(files["q"])[0] == 2  # no run
    assert run_cli(files["q"], "--check")[0] == 2  # --check without --collection
    assert run_cli(files["q"], files["one"], "--format", "xml")[0] == 2


def test_bad_input_exits_1_naming_file_and_line(files, tmp_path):
    bad = tmp_path / "bad.run"
    bad.write_text("1 Q0 A 1 1 r 0 10\n1 Q0 B 2 1 r 0\n")
    code, out, err = run_cli(files["q"], bad)
    assert code == 1 and f"{bad}:2:" in err
    code, _, err = run_cli(tmp_path / "missing.qrels", files["one"])
    assert code == 1 and "missing.qrels" in err


def test_strict_rejects_an_interleaved_run(files, tmp_path):
    run = tmp_path / "inter.run"
    run.write_text("1 Q0 A 1 1 r 0 5\n1 Q0 B 2 1 r 0 5\n1 Q0 A 3 1 r 5 5\n")
    code, out, err = run_cli(files["q"], run)
    assert code == 0 and "interleaved" in err
    code, out, err = run_cli(files["q"], run, "--strict")
    assert code == 1 and f"{run}:3:" in err and out == ""


def test_strict_rejects_a_split_topic_without_blaming_the_official_tool(files, tmp_path):
    # topic 1 comes back at line 3 after topic 2: the official tool accepts this (reference 7, policy 11)
    run = tmp_path / "split.run"
    run.write_text("1 Q0 A 1 1 r 0 5\n2 Q0 C 1 1 r 0 5\n1 Q0 B 2 1 r 0 5\n")
    code, out, err = run_cli(files["q"], run)
    assert code == 0 and f"{run}:3: warning: topic 1 appears in two blocks" in err
    code, out, err = run_cli(files["q"], run, "--strict")
    assert code == 1 and out == ""
    assert f"{run}:3: topic 1 appears in two blocks; rejected (--strict)" in err and "official" not in err


def test_num_rel_sums_the_topics_evaluated(files):
    # run one answers topic 1 only: its relevant articles A and B, 2; with -c every judged topic
    # with a relevant article, 1 and 2: A, B and C, 3 (topic 3 judges none; the qrels hold 3 in all)
    code, out, _ = run_cli(files["q"], files["one"], "-m", "num_rel", "-m", "num_q")
    assert code == 0 and rows(out)[1:] == [["num_rel", "all", "2"], ["num_q", "all", "1"]]
    code, out, _ = run_cli(files["q"], files["one"], "-c", "-m", "num_rel", "-m", "num_q")
    assert code == 0 and rows(out)[1:] == [["num_rel", "all", "3"], ["num_q", "all", "2"]]


def test_progress_only_on_a_terminal(files):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    out, err = io.StringIO(), Tty()
    assert main([str(files["q"]), str(files["one"])], out, err) == 0
    assert "evaluating one: 1/1" in err.getvalue()
    assert "evaluating" not in run_cli(files["q"], files["one"])[2]


def test_installed_command(files):
    exe = Path(sys.executable).with_name("readsim-eval")
    done = subprocess.run([str(exe), str(files["q"]), str(files["one"]), "-m", "MAP"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "MAP\tall\t0.500000"
    done = subprocess.run([str(exe), str(files["q"]), str(files["one"]), "-m", "bogus"], capture_output=True, text=True)
    assert done.returncode == 2


# -- the real INEX 2009/2010 data ---------------------------------------------------------------


def _deinterleave(lines: list[str]) -> list[str]:
    """What a well-formed version of the run would be: each topic in one block, each article's
    passages together at its first rank, overlapping passages united (the official tool's input)."""
    order: dict[str, dict[str, list[tuple[int, int]]]] = defaultdict(dict)
    for line in lines:
        f = line.split()
        start = int(f[6])
        order[f[0]].setdefault(f[2], []).append((start, start + int(f[7])))
    out = []
    for topic, articles in order.items():
        for rank, (article, spans) in enumerate(articles.items(), 1):
            merged: list[list[int]] = []
            for s, e in sorted(spans):
                if merged and s <= merged[-1][1]:
                    merged[-1][1] = max(merged[-1][1], e)
                else:
                    merged.append([s, e])
            out += [f"{topic} Q0 {article} {rank} 0 clean {s} {e - s}" for s, e in merged]
    return out


@pytest.fixture(scope="module")
def real(inex):
    qrels = inex / "qrels" / "inex2009-2010.qrels"
    run = inex / "runs" / "bert-passages.run"
    return qrels, run, qrels.read_text().splitlines(), run.read_text().splitlines()


def test_real_num_rel_counts_the_runs_topics(real):
    # reference 7, policy 8: the qrels hold 10,329 relevant lines; bert-passages.run lacks topics
    # 2010061 (13 relevant articles) and 2010107 (6): 10,329 - 19 = 10,310 (-c: every topic)
    qrels, run, qrels_lines, run_lines = real
    assert sum(1 for line in qrels_lines if int(line.split()[3]) > 0) == 10_329
    code, out, _ = run_cli(qrels, run, "-m", "num_rel")
    assert code == 0 and rows(out)[1] == ["num_rel", "all", "10310"]
    code, out, _ = run_cli(qrels, run, "-c", "-m", "num_rel")
    assert code == 0 and rows(out)[1] == ["num_rel", "all", "10329"]


@pytest.mark.parametrize("fields, end, code, says", [
    # the file cut inside line 1,864 (topic 2009006), after the run id: refused, naming the line
    (6, "", 1, ":1864: the file ends inside a line: its last line has 6 fields and no line end, every other line 8"),
    # the same line with its line end: a legal whole-article line, but never silently
    (6, "\n", 0, ":1864: warning: 1 whole-article line (6 fields) among 1,863 passage lines (8 fields)"),
    # cut after the offset: column 7 is no XPath
    (7, "\n", 1, ":1864: column 7 is not an XPath ('0'; an XPath starts with /)"),
])
def test_a_real_run_cut_short(real, tmp_path, fields, end, code, says):
    qrels, run, qrels_lines, run_lines = real
    assert run_lines[1863] == "2009006 Q0 7251090 201 -6.4034505 TREC2INEX 0 1748"
    cut = tmp_path / "cut.run"
    cut.write_text("\n".join(run_lines[:1863] + [" ".join(run_lines[1863].split()[:fields])]) + end)
    got, out, err = run_cli(qrels, cut, "-m", "num_ret")
    assert got == code and f"{cut}{says}" in err and "Traceback" not in err, err
    if code == 0:  # topics 2009001 .. 2009006: 6 topics, 100 articles each (the cut one still ranked)
        assert rows(out)[1] == ["num_ret", "all", "600"]


def test_real_run_reproduces_the_official_tool(real):
    qrels, run, qrels_lines, run_lines = real
    official = ref.official(qrels_lines, _deinterleave(run_lines), "r")["all"]
    names = {"AgP": "AgP/F(0.25)", "num_q": "num_q"}
    names.update({f"gP[{c}]": f"gP@{c}/F(0.25)" for c in ref.IN_CONTEXT_CUTOFFS})
    names.update({f"gR[{c}]": f"gR@{c}" for c in ref.IN_CONTEXT_CUTOFFS})
    names.update({f"ircl_prn.{k / 10:.2f}": f"ircl_prn.{k / 10:.2f}/F(0.25)" for k in range(11)})
    argv = [qrels, run, "--format", "jsonl"] + [a for n in names.values() for a in ("-m", n)]
    code, out, err = run_cli(*argv)
    assert code == 0
    got = {r["measure"]: r["value"] for r in map(json.loads, out.splitlines())}
    for theirs, ours in names.items():
        assert got[ours] == pytest.approx(official[theirs], abs=1e-12), ours
    # the topics averaged: those of the run that the qrels judge
    judged = {line.split()[0] for line in qrels_lines}
    assert got["num_q"] == len({line.split()[0] for line in run_lines} & judged) == 118
    assert 0 < got["AgP/F(0.25)"] < 1
    # docs/reference.md section 7, policy 11: warnings on the raw run
    assert "interleaved" in err
    assert "topic 2009079 appears in two blocks" in err


def test_real_run_focused_task_per_topic(real):
    qrels, run, qrels_lines, run_lines = real
    # topic 2009079's two identical blocks overlap themselves (the official tool rejects
    # overlapping passages; readsim counts the text once): compare the other topics
    official = ref.official(qrels_lines, [line for line in run_lines if not line.startswith("2009079 ")], "f")
    code, out, _ = run_cli(qrels, run, "-q", "--format", "jsonl", "-m", "MAiP", "-m", "iP[0.01]")
    assert code == 0
    got = {(r["measure"], r["topic"]): r["value"] for r in map(json.loads, out.splitlines())}
    topics = [t for t in official if t != "all"]
    assert len(topics) == 117
    for t in topics:
        assert got["MAiP", t] == pytest.approx(official[t]["AiP"], abs=1e-12), t
        assert got["iP[0.01]", t] == pytest.approx(official[t]["iP[0.01]"], abs=1e-12), t


def test_real_run_reading_effort_measures(real):
    qrels, run, _, _ = real
    code, out, _ = run_cli(qrels, run, "-m", "AgP/aveChP", "-m", "AgP/T2IF(300)", "-m", "ANCE@600/LE(300)",
                           "-m", "CE@1/LE(300)", "-m", "gP@1/F(0.25)")
    assert code == 0
    got = {r[0]: float(r[2]) for r in rows(out)[1:]}
    assert 0 < got["AgP/aveChP"] < 1 and 0 < got["AgP/T2IF(300)"] < 1
    # every topic ranks 100 articles: ranks 101..600 are NR = 5 against IE = 5 (Nrel <= 100 on
    # average), so ANCE@600 lies between 0 and its worst case, NR - 1 = 4 per rank cumulated
    assert 0 < got["ANCE@600/LE(300)"] < 4 * 600
    # CE@1 = ES(d_1) - 1 lies in [0, 4]; it is 0 where the first article is relevant
    assert 0 <= got["CE@1/LE(300)"] <= 4


def test_real_check_mode(inex):
    code, out, _ = run_cli(inex / "qrels" / "inex2009-2010.qrels", "--check", "--collection", inex / "articles")
    assert code == 0
    assert out.splitlines()[-1] == "doc_length agrees for 419 of 419 judged articles present"


def test_real_per_article_with_the_collection(inex):
    code, out, err = run_cli(inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "bert-passages.run",
                             "--per-article", "--collection", inex / "articles", "-m", "F(0.25)")
    assert code == 0
    lines = rows(out)
    assert len(lines) == len({tuple(r[:3]) for r in lines})  # one row per (topic, article)
    assert all(0.0 <= float(r[3]) <= 1.0 for r in lines)


# -- reference section 9.3: no traceback, OS errors as path: reason, bad parameters as usage errors -------------


class Failing(io.StringIO):
    """A stream whose writes fail like a full device (or a closed pipe)."""

    def __init__(self, exc: OSError):
        super().__init__()
        self.exc = exc

    def write(self, text):
        raise self.exc

    def flush(self):
        raise self.exc


def test_full_output_device_is_a_one_line_error(files):
    err = io.StringIO()
    code = main([str(files["q"]), str(files["one"])], Failing(OSError(28, "No space left on device")), err)
    assert code == 1 and err.getvalue().splitlines()[-1] == "readsim-eval: <stdout>: No space left on device"
    assert "Traceback" not in err.getvalue()


def test_closed_pipe_ends_quietly(files):
    err = io.StringIO()
    assert main([str(files["q"]), str(files["one"])], Failing(BrokenPipeError(32, "Broken pipe")), err) == 0
    assert "readsim-eval" not in err.getvalue() and "Traceback" not in err.getvalue()  # only the input's warning


def test_failing_stderr_is_not_a_traceback(files, tmp_path):
    # the warnings cannot be written: the run stops with exit 1 and nothing raised
    code = main([str(files["q"]), str(files["one"])], io.StringIO(), Failing(OSError(5, "Input/output error")))
    assert code == 1
    # an error message that cannot be written either: still exit 1
    assert main([str(files["q"]), str(tmp_path / "none.run")], io.StringIO(), Failing(OSError(28, "full"))) == 1


def test_interrupt_exits_130_without_traceback(files, monkeypatch):
    import readsim.cli.evaluate_command as cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "run_lists", interrupted)
    code, out, err = run_cli(files["q"], files["one"])
    assert code == 130 and err == "readsim-eval: interrupted\n" and out == ""


def test_argparse_messages_go_to_the_given_streams(files):
    code, out, err = run_cli(files["q"], files["one"], "--levels", "0")
    assert code == 2 and out == ""
    assert "readsim-eval: error: argument --levels: L must be a whole number from 1 to 1000, not 0" in err
    code, out, err = run_cli("--help")
    assert code == 0 and err == ""
    # the help states the exit statuses and the parameter ranges
    text = " ".join(out.split())
    assert "Exit status: 0 ok" in text and "1 bad input" in text and "2 bad usage" in text and "130 interrupted" in text
    assert "from 1 to 2^40" in text and "from 1 to 1000 (default 4" in text


def test_files_are_checked_before_any_output(files, tmp_path):
    # the first run is fine, the second missing: nothing printed for the first
    code, out, err = run_cli(files["q"], files["one"], tmp_path / "missing.run")
    assert code == 1 and out == ""
    assert err == f"readsim-eval: {tmp_path / 'missing.run'}: run file not found\n"
    code, out, err = run_cli(files["q"], tmp_path)
    assert (code, out, err) == (1, "", f"readsim-eval: {tmp_path}: is a folder, not a run file\n")
    code, _, err = run_cli(files["q"], files["one"], "--collection", files["q"])
    assert code == 1 and err == (f"readsim-eval: {files['q']}: not a folder nor an archive (a collection is a folder of "
                           "article XML files, or a .zip, .tar, .tar.gz, .tgz, .tar.bz2 or .tar.xz archive of them, "
                           "or a .jsonl or .jsonl.gz file of documents)\n")


@pytest.mark.parametrize("measure, parameter", [
    ("AgP/F(nan)", "beta"), ("AgP/F(1e400)", "beta"), ("AgP/T2IF(300,0)", "alpha"), ("ANCE@0/LE(300)", "rank cutoff i"),
    ("gP@1.5/F(0.25)", "rank cutoff r"), ("iP[2.00]", "recall point x"), ("F(-1)", "beta"),
])
def test_bad_measure_parameters_are_usage_errors(files, measure, parameter):
    code, out, err = run_cli(files["q"], files["one"], "-m", measure)
    assert code == 2 and out == "" and err.startswith(f"readsim-eval: {measure}: ") and f"{parameter} must be" in err
    assert len(err.splitlines()) == 1


def test_dev_full_without_traceback(files):
    exe = Path(sys.executable).with_name("readsim-eval")
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        done = subprocess.run([str(exe), str(files["q"]), str(files["one"])], stdout=full, stderr=subprocess.PIPE,
                              text=True)
    assert done.returncode == 1 and done.stderr.splitlines()[-1] == "readsim-eval: <stdout>: No space left on device"
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
