"""Hostile ``readsim-eval sweep`` command lines (reference sections 9.3, 9.6 and 10): a --vary that
does not parse, a value out of its parameter's range, a parameter no measure has, bad measures
and bad files; none prints a traceback. A usage error is one line ``readsim-eval: --vary: reason``
(or the measure's message), exit 2; a bad file ``path: reason`` or ``file:line: reason``, exit 1;
a measure without the parameter is left out with a warning; values written oddly (spaces,
repeats) give the same numbers as written plainly. Warnings are errors here (numpy's included)."""

from __future__ import annotations

import pytest

from readsim.cli import main as eval_main

from .cases import ERROR, SAME, USAGE, WARNING, Case

pytestmark = pytest.mark.filterwarnings("error")

QRELS = "1 Q0 A 10 100 0 0:10\n1 Q0 B 40 100 0 0:40\n2 Q0 C 20 50 0 0:20\n"
RUN = "1 Q0 X 1 1 r 0 5\n1 Q0 B 2 1 r 0 20\n1 Q0 A 3 1 r 5 30\n2 Q0 C 1 1 r 10 20\n"


def S(id, argv, outcome, expect, **data):
    """A ``readsim-eval sweep QRELS RUN ...`` row; ``same``: the argv whose output must be equal."""
    argv = ["sweep", "{q}", "{r}", *argv]
    return Case(id, "readsim-eval " + " ".join(argv), outcome, expect, {"argv": argv, **data})


V = "readsim-eval: --vary: "

CASES = [
    S("vary-no-equals", ["--vary", "t"], USAGE, V + "expected NAME=V1,V2,..."),
    S("vary-empty-values", ["--vary", "t="], USAGE, V + "expected NAME=V1,V2,..."),
    S("vary-no-name", ["--vary", "=300"], USAGE, V + "expected NAME=V1,V2,..."),
    S("vary-unknown-name", ["--vary", "x=3"], USAGE, V + "unknown parameter 'x'; one of k, t, s, d, alpha, beta"),
    S("vary-rank-cutoff", ["-m", "gP@5/F(0.25)", "--vary", "r=3"], USAGE, V + "unknown parameter 'r'"),
    S("vary-size-fraction", ["--vary", "t=1.5"], USAGE, V + "t must be a whole number from 1 to 2^40"),
    S("vary-size-zero", ["--vary", "s=0,300"], USAGE, V + "s must be a whole number from 1 to 2^40, not 0"),
    S("vary-size-past-2^40", ["--vary", "k=1099511627777"], USAGE, V + "k must be a whole number"),
    S("vary-size-huge-digits", ["--vary", "t=" + "9" * 5000], USAGE, V + "t must be a whole number"),
    S("vary-beta-nan", ["--vary", "beta=nan"], USAGE, V + "beta must be a finite number above 0"),
    S("vary-beta-inf", ["--vary", "beta=0.25,inf"], USAGE, V + "beta must be a finite number"),
    S("vary-beta-negative", ["--vary", "beta=-1"], USAGE, V + "beta must be a finite number above 0"),
    S("vary-alpha-1e400", ["-m", "AgP/T2IF(300)", "--vary", "alpha=1e400"], USAGE, V + "alpha must be"),
    S("vary-range-two-parts", ["--vary", "t=1:9"], USAGE, V + "a range is START:STOP:N or START:STOP:N:log"),
    S("vary-range-bad-scale", ["--vary", "t=1:9:3:ln"], USAGE, V + "a range is START:STOP:N"),
    S("vary-range-n-zero", ["--vary", "t=1:9:0"], USAGE, V + "N must be a whole number from 1 to 10000"),
    S("vary-range-n-huge", ["--vary", "t=1:9:10001"], USAGE, V + "N must be a whole number from 1 to 10000"),
    S("vary-range-stop-nan", ["--vary", "beta=0.1:nan:5:log"], USAGE, V + "beta must be a finite number"),
    S("vary-no-measure-has-it", ["--vary", "t=300"], USAGE,
      V + "no measure given has parameter t (AgP/F(0.25)); give one with -m, e.g. -m AgP/T2IF(300)"),
    S("vary-missing", ["-m", "AgP/F(0.25)"], USAGE, "the following arguments are required: --vary"),
    S("measure-bad-beta", ["-m", "AgP/F(nan)", "--vary", "beta=1"], USAGE, "beta must be"),
    S("measure-list-per-article", ["--per-article", "-m", "AgP/F(1)", "--vary", "beta=1"], USAGE,
      "is a list measure; --per-article prints document measures"),
    S("measure-doc-without-per-article", ["-m", "F(1)", "--vary", "beta=1"], USAGE, "is a document measure"),
    S("measure-without-parameter", ["-m", "MAP", "-m", "AgP/T2IF(300)", "--vary", "t=300"], WARNING,
      "readsim-eval: warning: --vary t: MAP has no parameter t; left out"),
    S("vary-spaces", ["-m", "AgP/T2IF(300)", "--vary", "t= 50 , 300"], SAME, None,
      same=["sweep", "{q}", "{r}", "-m", "AgP/T2IF(300)", "--vary", "t=50,300"]),
    S("vary-repeats", ["-m", "AgP/T2IF(300)", "--vary", "t=50,300,50,300"], SAME, None,
      same=["sweep", "{q}", "{r}", "-m", "AgP/T2IF(300)", "--vary", "t=50,300"]),
    S("vary-range-one-value", ["--vary", "beta=0.5:4:1:log"], SAME, None,
      same=["sweep", "{q}", "{r}", "--vary", "beta=0.5"]),
    S("run-missing", ["--vary", "beta=1"], ERROR, "missing.run", run="missing.run"),
    S("run-bad-line", ["--vary", "beta=1"], ERROR, "bad.run:1:", run_text="1 Q0 A 1 1 r x 5\n"),
    S("qrels-is-a-folder", ["--vary", "beta=1"], ERROR, "readsim-eval: ", qrels_dir=True),
]


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_sweep_command_lines(case, tmp_path, capsys):
    q = tmp_path / "q.qrels"
    q.write_text(QRELS)
    r = tmp_path / "r.run"
    r.write_text(RUN)
    if "run_text" in case.data:
        r = tmp_path / "bad.run"
        r.write_text(case.data["run_text"])
    if "run" in case.data:
        r = tmp_path / case.data["run"]
    if case.data.get("qrels_dir"):
        q = tmp_path

    def run(argv):
        code = eval_main([a.replace("{q}", str(q)).replace("{r}", str(r)) for a in argv])
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return code, out, err

    code, out, err = run(case.data["argv"])
    if case.outcome == USAGE:
        assert code == 2 and out == "" and case.expect in err, err
        lines = err.strip().splitlines()
        assert case.expect in lines[-1] and (len(lines) == 1 or lines[0].startswith("usage:")), err
    elif case.outcome == ERROR:
        assert code == 1 and case.expect in err, err
    elif case.outcome == WARNING:
        assert code == 0 and case.expect in err and out, err
    else:
        assert code == 0 and out
        assert (code, out) == run(case.data["same"])[:2]
