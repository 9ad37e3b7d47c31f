"""INEX 2010's restricted tasks and the Efficiency task (docs/reference.md section 5.14;
readsim.core.formats.limits): the limits' warnings, the runs cut as the official evaluation
counted them, and the tasks' measures, worked by hand on small topics, through the command line
and the API's reader."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from readsim.cli import main
from readsim.core import listmeasures as lm
from readsim.core.errors import InputError
from readsim.core.formats import read_any_run, read_qrels
from readsim.core.formats.limits import TASKS, task_limit
from readsim.core.measure import parse_list_measure

# Topic 1. A (2,000 characters): relevant [0,100) and [1500,1800), NRC 400. B (1,000): relevant [0,200).
QRELS = "1 Q0 A 400 2000 0 0:100 1500:300\n1 Q0 B 200 1000 0 0:200\n"

# Restricted Relevant in Context: A's two lines retrieve 300 + 300 = 600 characters, 100 over
# the 500 of an article: line 2 is cut to [1500,1700). B retrieves [0,100), under the limit.
RRIC_RUN = "1 Q0 A 1 1 r 0 300\n1 Q0 A 1 1 r 1500 300\n1 Q0 B 2 1 r 0 100\n"


def run_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def values(text: str) -> dict[tuple[str, str], float]:
    rows = [line.split("\t") for line in text.splitlines() if not line.startswith("runid")]
    return {(m, t): float(v) for m, t, v in rows}


def files(tmp_path: Path, run: str, qrels: str = QRELS) -> tuple[Path, Path]:
    q, r = tmp_path / "t.qrels", tmp_path / "t.run"
    q.write_text(qrels)
    r.write_text(run)
    return q, r


def test_restricted_ric_by_hand(tmp_path):
    """T2I(300) in the natural order (the chain, then the gaps from offset 0), by hand:

    A cut, T = [0,300) + [1500,1700): reads 100 relevant, 200 not, 200 relevant (1500-1699), then
    the gaps from 0: [300,...) 100 not relevant: the 300th, stop. m = 600, relevant 300:
    T2IP = 0.5. (Uncut, T = [0,300) + [1500,1800): 100, 200 not, 300 relevant, then 100 not:
    m = 700, relevant 400: 4/7.)
    B, T = [0,100): 100 relevant, then the gaps [100,1000): 100 relevant, 300 not: m = 500,
    relevant 200: T2IP = 0.4.
    Ranks A, B, both relevant, Nrel = 2: gP[1] = 0.5, gP[2] = 0.9 / 2 = 0.45;
    AgP = (0.5 + 0.45) / 2 = 0.475; gP@5 past the end of the run: the last rank's, 0.45.
    F(0.25) of A cut: |T| = 500, |R n T| = 100 + 200 = 300: P = 0.6, R = 0.75,
    F = 1.0625 * 0.45 / (0.0625 * 0.6 + 0.75) = 0.478125 / 0.7875 = 0.607143."""
    q, r = files(tmp_path, RRIC_RUN)
    code, out, err = run_cli(q, r, "--task", "restricted-ric", "-q")
    assert code == 0
    got = values(out)
    assert got[("AgP/T2IP(300)", "1")] == pytest.approx(0.475, abs=1e-6)
    assert got[("gP@5/T2IP(300)", "1")] == pytest.approx(0.45, abs=1e-6)
    assert [m for m, t in got if t == "all"] == list(TASKS["restricted-ric"].measures)
    assert f"{r}:2: warning: Restricted Relevant in Context allows at most 500 characters per article; " \
           "topic 1, article A goes over it (its article retrieves 600 characters, this line some past the first " \
           "500 in document order; 1 article in 1 topic over it in all)" in err
    _, out, _ = run_cli(q, r, "--task", "restricted-ric", "-q", "-m", "AgP/F(0.25)", "-m", "AgP/T2IP(300)")
    # F(0.25) of B: P = 1, R = 100 / 200: 1.0625 * 0.5 / 0.5625 = 17/18
    f_a, f_b = 0.478125 / 0.7875, 17 / 18
    assert values(out)[("AgP/F(0.25)", "1")] == pytest.approx((f_a + (f_a + f_b) / 2) / 2, abs=1e-6)
    # without the task the run is evaluated whole: A's T2IP is 4/7
    _, out, err = run_cli(q, r, "-q", "-m", "AgP/T2IP(300)")
    assert values(out)[("AgP/T2IP(300)", "1")] == pytest.approx((4 / 7 + (4 / 7 + 0.4) / 2) / 2, abs=1e-6)
    assert "Restricted" not in err


def test_restricted_ric_cuts_in_document_order(tmp_path):
    """An article's lines are an unranked set, read in document order: with A's two lines the
    other way round (file order), the article is cut the same, after [0,300) and [1500,1700)
    (the warning names line 1, the line past the 500th character); so are lines that overlap
    (their union counts) and a line that ends exactly at the 500th character (what follows it
    is cut)."""
    q, r = files(tmp_path, "1 Q0 A 1 1 r 1500 300\n1 Q0 A 1 1 r 0 300\n1 Q0 B 2 1 r 0 100\n")
    code, out, err = run_cli(q, r, "--task", "restricted-ric", "-q")
    assert values(out)[("AgP/T2IP(300)", "1")] == pytest.approx(0.475, abs=1e-6)
    assert f"{r}:1: warning: Restricted Relevant in Context" in err
    # [0,300) and [100,300) overlap: their union is 300 characters; then [1500,1700) reaches 500
    q, r = files(tmp_path, "1 Q0 A 1 1 r 0 300\n1 Q0 A 1 1 r 1500 300\n1 Q0 A 1 1 r 100 200\n1 Q0 B 2 1 r 0 100\n")
    _, out, err = run_cli(q, r, "--task", "restricted-ric", "-q")
    assert values(out)[("AgP/T2IP(300)", "1")] == pytest.approx(0.475, abs=1e-6)
    assert f"{r}:2: warning: Restricted Relevant in Context" in err
    # [0,300) + [1500,1700) is exactly 500: [1800,1900) is past it, [1700,1800) never asked for
    q, r = files(tmp_path, "1 Q0 A 1 1 r 0 300\n1 Q0 A 1 1 r 1500 200\n1 Q0 A 1 1 r 1800 100\n1 Q0 B 2 1 r 0 100\n")
    _, out, err = run_cli(q, r, "--task", "restricted-ric", "-q", "-m", "AgP/F(0.25)")
    assert f"{r}:3: warning: Restricted Relevant in Context" in err and "retrieves 600 characters" in err
    f_a, f_b = 0.478125 / 0.7875, 17 / 18  # A's T as in test_restricted_ric_by_hand
    assert values(out)[("AgP/F(0.25)", "1")] == pytest.approx((f_a + (f_a + f_b) / 2) / 2, abs=1e-6)


def test_a_run_within_the_limits_gets_no_warning(tmp_path):
    q, r = files(tmp_path, "1 Q0 A 1 1 r 0 250\n1 Q0 A 1 1 r 1500 250\n1 Q0 B 2 1 r 0 500\n")
    code, _, err = run_cli(q, r, "--task", "restricted-ric")
    assert code == 0 and err == ""


# Restricted Focused: lines of 300, 400, 500 and 100 characters; the topic reaches 1,200 with
# line 3, which is cut to [1500,1800) (300 of its 500); line 4 (C, unjudged) is dropped.
RF_RUN = "1 Q0 A 1 1 r 0 300\n1 Q0 B 2 1 r 0 400\n1 Q0 A 3 1 r 1500 500\n1 Q0 C 4 1 r 500 100\n"


def test_restricted_focused_by_hand(tmp_path):
    """charP = relevant retrieved / retrieved over the first 1,000 characters:
    line 1 [0,300) of A: 100 relevant; line 2 [0,400) of B: 200; line 3 cut [1500,1800) of A:
    300. charP = 600 / 1,000 = 0.6 (uncut: 600 / 1,300). The Focused ranks: precision 1/3 at
    recall 1/6, 3/7 at 1/2, 0.6 at 1: iP[x] = 0.6 at every x, MAiP = 0.6."""
    q, r = files(tmp_path, RF_RUN)
    code, out, err = run_cli(q, r, "--task", "restricted-focused", "-q", "-m", "charP", "-m", "iP[0.50]",
                             "-m", "MAiP", "-m", "num_ret")
    assert code == 0
    got = values(out)
    assert got[("charP", "1")] == pytest.approx(0.6, abs=1e-6)
    assert got[("iP[0.50]", "1")] == pytest.approx(0.6, abs=1e-6)
    assert got[("MAiP", "1")] == pytest.approx(0.6, abs=1e-6)
    assert got[("num_ret", "1")] == 2  # A and B (A's line 3 merged into its first rank); C dropped
    assert f"{r}:3: warning: Restricted Focused allows at most 1,000 characters per topic; topic 1, article A goes " \
           "over it (its topic reaches 1,200 characters with this line; 1 topic over it in all)" in err
    _, out, _ = run_cli(q, r, "-q", "-m", "charP", "-m", "num_ret")
    assert values(out)[("charP", "1")] == pytest.approx(600 / 1300, abs=1e-6)
    assert values(out)[("num_ret", "1")] == 3


def test_restricted_focused_default_measure_and_an_empty_topic(tmp_path):
    """The task's default measure is charP; a topic that retrieves nothing scores 0."""
    q, r = files(tmp_path, "1 Q0 A 1 1 r 0 0\n")
    code, out, _ = run_cli(q, r, "--task", "restricted-focused")
    assert code == 0
    assert values(out) == {("charP", "all"): 0.0}


# Efficiency: line 1 retrieves B's relevant [0,100), lines 2-15 unjudged articles (10 characters
# each), line 16 A's relevant [0,100)
EFF_RUN = ("1 Q0 B 1 1 e 0 100\n" + "".join(f"1 Q0 D{k} {k} 1 e 0 10\n" for k in range(2, 16))
           + "1 Q0 A 16 1 e 0 100\n")


def test_efficiency_by_hand(tmp_path):
    """The topic's relevant size is 600. efficiency-15 drops line 16: line 1 has precision
    100/100 = 1 at recall 1/6 (point 16), the later lines lower it: iP[0.00..0.16] = 1, above 0;
    MAiP = 17/101. Uncut (efficiency-150, which it keeps to), line 16 adds precision
    200/340 at recall 2/6 (point 33): iP[0.17..0.33] = 10/17; MAiP = (17 + 17 * 10/17) / 101."""
    q, r = files(tmp_path, EFF_RUN)
    names = ("iP[0.00]", "iP[0.16]", "iP[0.17]", "iP[0.33]", "iP[0.34]", "MAiP", "num_ret")
    code, out, err = run_cli(q, r, "--task", "efficiency-15", "-q", *(a for n in names for a in ("-m", n)))
    assert code == 0
    got = values(out)
    assert got[("iP[0.00]", "1")] == 1.0 and got[("iP[0.16]", "1")] == 1.0 and got[("iP[0.17]", "1")] == 0.0
    assert got[("MAiP", "1")] == pytest.approx(17 / 101, abs=1e-6)
    assert got[("num_ret", "1")] == 15
    assert f"{r}:16: warning: Efficiency (15 results per topic) allows at most 15 result lines per topic; topic 1, " \
           "article A goes over it (this is its topic's result 16; 1 topic over it in all)" in err
    code, out, err = run_cli(q, r, "--task", "efficiency-150", "-q", *(a for n in names for a in ("-m", n)))
    got = values(out)
    assert err == ""
    assert got[("iP[0.16]", "1")] == 1.0
    assert got[("iP[0.17]", "1")] == pytest.approx(10 / 17, abs=1e-6) == got[("iP[0.33]", "1")]
    assert got[("iP[0.34]", "1")] == 0.0
    assert got[("MAiP", "1")] == pytest.approx((17 + 10) / 101, abs=1e-6)
    code, out, _ = run_cli(q, r, "--task", "efficiency-15", "-q")
    assert [m for m, t in values(out) if t == "all"] == ["iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]", "MAiP"]


def test_character_limits_need_offsets(tmp_path):
    """A whole-article (6-field) or XPath (7-field) line has no size before its article is read:
    under a character limit it is an error naming the line (exit 1); the Efficiency task counts
    lines and takes it."""
    q, r = files(tmp_path, "1 Q0 A 1 1 r 0 100\n1 Q0 B 2 1 r\n")
    code, _, err = run_cli(q, r, "--task", "restricted-focused")
    assert code == 1
    assert f"{r}:2: Restricted Focused limits characters: every result line needs an offset and a length" in err
    code, _, err = run_cli(q, r, "--task", "efficiency-15")
    assert code == 0


def test_only_fol_runs_and_known_tasks(tmp_path):
    q, _ = files(tmp_path, RRIC_RUN)
    jsonl = tmp_path / "t.jsonl"
    jsonl.write_text('{"topic": "1", "doc": "A", "start": 0, "end": 100}\n')
    with pytest.raises(InputError, match="--task restricted-ric checks FOL runs"):
        read_any_run(jsonl, task="restricted-ric")
    with pytest.raises(ValueError, match="unknown task 'restricted'"):
        task_limit("restricted")
    code, _, err = run_cli(q, jsonl, "--task", "nope")
    assert code == 2 and "--task" in err


def test_the_cut_run_is_the_run_cut_by_hand(tmp_path):
    """Reading with the task gives the same numbers as the file cut by hand (what the official
    tool would have been given), for every measure and topic."""
    q, r = files(tmp_path, RRIC_RUN)
    cut = tmp_path / "cut.run"
    cut.write_text("1 Q0 A 1 1 r 0 300\n1 Q0 A 1 1 r 1500 200\n1 Q0 B 2 1 r 0 100\n")
    names = [parse_list_measure(n) for n in ("AgP/T2IP(300)", "AgP/F(0.25)", "gP@1/aveChP", "MAiP", "charP")]
    qrels = read_qrels(q)
    a = lm.evaluate(qrels, read_any_run(r, task="restricted-ric"), names)
    b = lm.evaluate(qrels, read_any_run(cut), names)
    assert a.values == b.values and a.means == b.means


def test_the_api_reads_runs_with_a_task(tmp_path):
    """``readsim.evaluate(..., task=)`` and ``readsim.read_run(path, task=)``: the command line's
    numbers (the hand-worked 0.475 and 0.6 above), the warning as an InputWarning, a DataFrame
    cut alike, and a run already read refused."""
    import readsim

    q, r = files(tmp_path, RRIC_RUN)
    with pytest.warns(readsim.InputWarning, match=r":2: warning: Restricted Relevant in Context allows at most 500"):
        frame = readsim.evaluate(q, r, task="restricted-ric")
    assert list(frame["measure"]) == list(TASKS["restricted-ric"].measures)
    assert frame.set_index("measure")["value"]["AgP/T2IP(300)"] == pytest.approx(0.475)
    with pytest.warns(readsim.InputWarning, match="Restricted Relevant in Context"):
        run = readsim.read_run(r, task="restricted-ric")
    assert readsim.evaluate(q, run, "AgP/T2IP(300)")["value"][0] == pytest.approx(0.475)
    with pytest.raises(ValueError, match="cuts a run as it is read"):
        readsim.evaluate(q, run, task="restricted-ric")
    with pytest.raises(ValueError, match="unknown task"):
        readsim.evaluate(q, r, task="restricted")
    with pytest.raises(ValueError, match="task is for list measures"):
        readsim.evaluate(q, r, per="article", task="restricted-ric")
    q, r = files(tmp_path, RF_RUN)
    with pytest.warns(readsim.InputWarning, match="interleaved"):  # A's line 3 comes back to it
        table = readsim.read_run(r).to_frame()
    with pytest.warns(readsim.InputWarning) as said:  # and the interleaved article again
        frame = readsim.evaluate(q, table, task="restricted-focused")
    assert any("<run DataFrame>:3: warning: Restricted Focused allows at most 1,000" in str(w.message) for w in said)
    assert frame["value"][0] == pytest.approx(0.6)


def test_several_runs_in_worker_processes_and_compare(tmp_path):
    """``-j 2`` (each run read with the task in its worker) prints what ``-j 1`` prints; ``compare
    --task`` pairs the cut runs under the task's measure. The second run: B [100,400) has 100
    relevant of 300; A [1700,2500) reaches 1,100 and is cut to [1700,2400), 100 relevant of 700:
    charP = 200 / 1,000 = 0.2, against the first run's 0.6."""
    q, r = files(tmp_path, RF_RUN)
    other = tmp_path / "other.run"
    other.write_text("1 Q0 B 1 1 o 100 300\n1 Q0 A 2 1 o 1700 800\n")
    one = run_cli(q, r, other, "--task", "restricted-focused", "-q", "-j", "1")
    two = run_cli(q, r, other, "--task", "restricted-focused", "-q", "-j", "2")
    assert one == two
    rows = [line.split("\t") for line in one[1].splitlines()]
    assert [float(v) for m, t, v in rows if m == "charP" and t == "1"] == [0.6, 0.2]
    assert f"{other}:2: warning: Restricted Focused allows at most 1,000 characters per topic; topic 1, article A " \
           "goes over it (its topic reaches 1,100 characters with this line" in one[2]
    for path in (q, r, other):  # compare pairs two topics at least: topic 2 the same as topic 1
        text = path.read_text()
        path.write_text(text + text.replace("1 Q0", "2 Q0"))
    code, out, err = run_cli("compare", q, r, other, "--task", "restricted-focused", "--no-doc", "--format", "tsv")
    assert code == 0
    means = {row.split("\t")[2]: float(row.split("\t")[4]) for row in out.splitlines() if row.startswith("mean\t")}
    assert means == {"r": 0.6, "o": 0.2}
    code, out, _ = run_cli("compare", q, r, other, "--task", "restricted-focused", "--no-doc")
    assert "runs cut to INEX 2010's restricted-focused limit" in out and "== charP" in out


def test_efficiency_keeps_the_xpaths_of_the_lines_it_keeps(tmp_path):
    """Thorough runs name elements by XPath (7 fields): the cut keeps each kept line's own XPath.
    Lines 1-16 alternate between articles E and F (sections 1..16); efficiency-15 keeps sections
    1-15: E's odd ones, F's even ones."""
    r = tmp_path / "x.run"
    r.write_text("".join(f"1 Q0 {'EF'[(k - 1) % 2]} {k} 1 x /article[1]/bdy[1]/sec[{k}]\n" for k in range(1, 17)))
    run = read_any_run(r, task="efficiency-15")
    got = {e.article: e.xpaths for e in run.topics["1"]}
    assert got == {"E": [f"/article[1]/bdy[1]/sec[{k}]" for k in range(1, 16, 2)],
                   "F": [f"/article[1]/bdy[1]/sec[{k}]" for k in range(2, 15, 2)]}
    assert any(d.line == 16 and "result 16" in d.message for d in run.diagnostics)


def test_long_names(tmp_path):
    """Names longer than 8 bytes (held as ids, not packed): the same cut, count and numbers."""
    long_a, long_t = "msmarco_doc_00_123#4", "topic-number-one"
    rename = {"1 Q0 A ": f"{long_t} Q0 {long_a} "}
    qrels, run = QRELS, RRIC_RUN
    for a, b in rename.items():
        qrels, run = qrels.replace(a, b), run.replace(a, b)
    qrels, run = qrels.replace("1 Q0 B", f"{long_t} Q0 B"), run.replace("1 Q0 B", f"{long_t} Q0 B")
    q, r = files(tmp_path, run, qrels)
    code, out, err = run_cli(q, r, "--task", "restricted-ric", "-q")
    assert code == 0
    assert values(out)[("AgP/T2IP(300)", long_t)] == pytest.approx(0.475, abs=1e-6)
    assert f"topic {long_t}, article {long_a} goes over it (its article retrieves 600 characters, this line some " \
           "past the first 500 in document order; 1 article in 1 topic over it in all)" in err
