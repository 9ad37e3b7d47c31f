"""Hostile command lines (reference sections 9.3 and 10): both commands, ``readsim-eval`` and ``readsim``, never print
a traceback. A measure parameter or an option value that is not a finite number in its range is
a usage error (exit 2) naming the parameter; a missing file, a directory given as a file, a file
given as a folder, a full output device, a screenshot folder that cannot be created is
``path: reason`` with exit 1, from both commands; a reader
closing the pipe early (``| head``) ends the evaluator quietly with the same first lines.

Most rows run the commands in-process (``main(argv)``, output captured by capsys); rows with
``via: subprocess`` run the installed command to prove no traceback reaches the real stderr.
``{q}``, ``{r}``, ``{dir}``, ``{tmp}`` in an argv stand for the qrels, a run, a folder and the
test's temporary folder; ``{q}`` is also a regular file where a folder is wanted. Warnings are
errors here: a numpy RuntimeWarning (``nan``, a division by zero) fails the row.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from readsim.app.main import main as app_main
from readsim.cli import main as eval_main

from .cases import ERROR, SAME, USAGE, Case

pytestmark = pytest.mark.filterwarnings("error")

# Topic 1: A relevant [0,10) of 100, B relevant [0,40) of 100; topic 2: C relevant [0,20) of 50.
QRELS = "1 Q0 A 10 100 0 0:10\n1 Q0 B 40 100 0 0:40\n2 Q0 C 20 50 0 0:20\n"
RUN = "1 Q0 X 1 1 r 0 5\n1 Q0 B 2 1 r 0 20\n1 Q0 A 3 1 r 5 30\n2 Q0 C 1 1 r 10 20\n"


def E(id, argv, outcome, expect, **data):
    """A ``readsim-eval QRELS RUN ...`` row (``argv`` after the qrels and the run unless ``bare``)."""
    head = [] if data.pop("bare", False) else ["{q}", "{r}"]
    argv = head + list(argv)
    return Case(id, "readsim-eval " + " ".join(argv), outcome, expect, {"tool": "eval", "argv": argv, **data})


def W(id, argv, outcome, expect, **data):
    """A ``readsim ...`` (window) row."""
    return Case(id, "readsim " + " ".join(argv), outcome, expect, {"tool": "app", "argv": list(argv), **data})


P = "must be"  # every range message says what the parameter must be

CASES = [
    # -- measure parameters: document measures, inside a list measure or --per-article ------
    E("F-nan", ["-m", "AgP/F(nan)"], USAGE, "beta " + P),
    E("F-inf", ["-m", "AgP/F(inf)"], USAGE, "beta " + P),
    E("F-1e400", ["-m", "AgP/F(1e400)"], USAGE, "beta " + P),
    E("F-negative", ["-m", "AgP/F(-0.25)"], USAGE, "beta " + P),
    E("F-zero", ["-m", "AgP/F(0)"], USAGE, "beta " + P),
    E("F-huge", ["-m", "AgP/F(1e7)"], USAGE, "beta " + P),
    E("F-not-a-number", ["-m", "AgP/F(x)"], USAGE, "beta " + P),
    E("F-per-article-nan", ["--per-article", "-m", "F(nan)"], USAGE, "F(nan): beta " + P),
    E("T2IP-zero", ["-m", "AgP/T2IP(0)"], USAGE, "t " + P),
    E("T2IP-fraction", ["-m", "AgP/T2IP(1.5)"], USAGE, "t " + P),
    E("T2IR-nan", ["-m", "AgP/T2IR(nan)"], USAGE, "t " + P),
    E("T2IF-t-1e400", ["-m", "AgP/T2IF(1e400,1)"], USAGE, "t " + P),
    E("T2IF-alpha-nan", ["-m", "AgP/T2IF(300,nan)"], USAGE, "alpha " + P),
    E("T2IF-alpha-negative", ["-m", "AgP/T2IF(300,-1)"], USAGE, "alpha " + P),
    E("T2IF-alpha-inf", ["--per-article", "-m", "T2IF(300,inf)"], USAGE, "alpha " + P),
    E("T2IF-three-params", ["-m", "AgP/T2IF(300,1,2)"], USAGE, "T2IF takes 1 or 2 parameters"),
    E("LE-zero", ["-m", "ANCE@10/LE(0)"], USAGE, "s " + P),
    E("ES-negative", ["-m", "CE@10/ES(-300)"], USAGE, "s " + P),
    E("LE-past-2^40", ["--per-article", "-m", "LE(1099511627777)"], USAGE, "s " + P + " a whole number from 1 to 2^40"),
    E("ES-two-params", ["--per-article", "-m", "ES(300,2)"], USAGE, "ES takes 1 parameter (s)"),
    E("ChP-zero", ["--per-article", "-m", "ChP@0"], USAGE, "k " + P),
    E("ChR-fraction", ["--per-article", "-m", "ChR@1.5"], USAGE, "k " + P),
    E("ChP-huge-int", ["-m", "gP@5/ChP@" + "9" * 5000], USAGE, "k " + P),
    E("BEP-zero", ["-m", "AgP/BEP(0)"], USAGE, "d " + P),
    E("BEP-nan", ["--per-article", "-m", "BEP(nan)"], USAGE, "d " + P),
    # -- list measure parameters --------------------------------------------------------------
    E("gP-zero", ["-m", "gP@0/F(0.25)"], USAGE, "rank cutoff r " + P),
    E("gP-fraction", ["-m", "gP@1.5/F(0.25)"], USAGE, "rank cutoff r " + P),
    E("gP-plain-1e3", ["-m", "gP(plain)@1e3/F(0.25)"], USAGE, "rank cutoff r " + P),
    E("gR-negative", ["-m", "gR@-1"], USAGE, "rank cutoff r " + P),
    E("CE-huge", ["-m", "CE@99999999999/LE(300)"], USAGE, "rank cutoff i " + P),
    E("ANCE-nan", ["-m", "ANCE@nan/LE(300)"], USAGE, "rank cutoff i " + P),
    E("NCE-inf", ["-m", "NCE@inf/ES(300)"], USAGE, "rank cutoff i " + P),
    E("iP-off-grid", ["-m", "iP[0.005]"], USAGE, "recall point x " + P.replace("be", "be one of")),
    E("iP-nan", ["-m", "iP[nan]"], USAGE, "recall point x"),
    E("ircl-past-one", ["-m", "ircl_prn.1.10/F(0.25)"], USAGE, "recall point x"),
    E("ircl-negative", ["-m", "ircl_prn.-0.10/F(0.25)"], USAGE, "recall point x"),
    E("unknown-measure", ["-m", "nDCG@10"], USAGE, "unknown measure 'nDCG@10'"),
    # -- option values and usage --------------------------------------------------------------
    E("levels-zero", ["--levels", "0"], USAGE, "argument --levels: L " + P),
    E("levels-negative", ["--levels", "-1"], USAGE, "argument --levels: L " + P),
    E("levels-fraction", ["--levels", "1.5"], USAGE, "argument --levels: L " + P),
    E("jobs-zero", ["-j", "0"], USAGE, "argument -j/--jobs: N " + P),
    E("jobs-fraction", ["-j", "1.5"], USAGE, "argument -j/--jobs: N " + P),
    E("jobs-nan", ["--jobs", "nan"], USAGE, "argument -j/--jobs: N " + P),
    E("levels-nan", ["--levels", "nan"], USAGE, "argument --levels: L " + P),
    E("levels-huge", ["--levels", "99999999999999999999"], USAGE, "argument --levels: L " + P),
    E("format-unknown", ["--format", "xml"], USAGE, "argument --format: invalid choice"),
    E("no-arguments", [], USAGE, "the following arguments are required", bare=True),
    E("no-run", ["{q}"], USAGE, "give at least one RUN", bare=True),
    E("check-without-collection", ["{q}", "--check"], USAGE, "--check needs --collection", bare=True),
    E("per-article-list-measure", ["--per-article", "-m", "AgP/F(0.25)"], USAGE, "is a list measure"),
    # -- files ----------------------------------------------------------------------------------
    E("missing-run", ["{q}", "{tmp}/missing.run"], ERROR, "{tmp}/missing.run: run file not found", bare=True),
    E("missing-second-run", ["{q}", "{r}", "{tmp}/missing.run"], ERROR, "{tmp}/missing.run: run file not found", bare=True),
    E("missing-qrels", ["{tmp}/missing.qrels", "{r}"], ERROR, "{tmp}/missing.qrels: qrels file not found", bare=True),
    E("directory-as-run", ["{q}", "{dir}"], ERROR, "{dir}: is a folder, not a run file", bare=True),
    E("directory-as-qrels", ["{dir}", "{r}"], ERROR, "{dir}: is a folder, not a qrels file", bare=True),
    E("run-under-a-file", ["{q}", "{q}/x.run"], ERROR, "{q}/x.run: cannot read: Not a directory", bare=True),
    E("file-as-collection", ["--collection", "{q}"], ERROR, "{q}: not a folder"),
    E("missing-collection", ["--collection", "{tmp}/nope"], ERROR, "{tmp}/nope: collection folder not found"),
    E("check-directory-qrels", ["{dir}", "--check", "--collection", "{dir}"], ERROR, "{dir}: is a folder, not a qrels file", bare=True),
    E("stdout-full", [], ERROR, "<stdout>: No space left on device", via="subprocess", stdout="/dev/full"),
    E("help-to-full", ["--help"], ERROR, "<stdout>: No space left on device", via="subprocess", stdout="/dev/full",
      bare=True),
    E("broken-pipe", ["--per-article", "-m", "aveChP", "-m", "ChP@5", "-m", "F(0.25)"], SAME,
      "the first line read before closing the pipe", via="pipe"),
    # -- parameters at the edge of their range: the same numbers as an ordinary value ----------
    E("ChP-at-2^40", ["--per-article", "-m", "ChP@1099511627776"], SAME, ["--per-article", "-m", "ChP@1000"]),
    E("LE-at-2^40-levels-1000", ["--per-article", "-m", "LE(1099511627776)", "--levels", "1000"], SAME,
      ["--per-article", "-m", "LE(1000)", "--levels", "1000"]),
    E("gP-at-1e6", ["-q", "-m", "gP@1000000/F(0.25)"], SAME, ["-q", "-m", "gP@100/F(0.25)"]),
    E("F-beta-1e6", ["--per-article", "-m", "F(1000000)"], SAME, ["--per-article", "-m", "R_set"]),
    # -- the window's command line ----------------------------------------------------------------
    W("screen-zero", ["--screen", "0"], USAGE, "argument --screen: S " + P),
    W("screen-1e3", ["--screen", "1e3"], USAGE, "argument --screen: S " + P),
    W("screen-huge", ["--screen", "1000000000000"], USAGE, "argument --screen: S " + P),
    W("tolerance-negative", ["--tolerance=-5"], USAGE, "argument --tolerance: T " + P),
    W("tolerance-nan", ["--tolerance", "nan"], USAGE, "argument --tolerance: T " + P),
    W("beta-nan", ["--beta", "nan"], USAGE, "argument --beta: B " + P),
    W("beta-inf", ["--beta=inf"], USAGE, "argument --beta: B " + P),
    W("beta-zero", ["--beta", "0"], USAGE, "argument --beta: B " + P),
    W("beta-1e400", ["--beta", "1e400"], USAGE, "argument --beta: B " + P),
    W("step-negative", ["--step", "-1"], USAGE, "argument --step: K " + P),
    W("step-fraction", ["--step", "1.5"], USAGE, "argument --step: K " + P),
    W("reading-unknown", ["--reading", "sideways"], USAGE, "argument --reading: invalid choice"),
    W("app-directory-as-run", ["--run", "{dir}"], ERROR, "{dir}: is a folder, not a run file"),
    W("app-missing-qrels", ["--qrels", "{tmp}/missing.qrels", "--run", "{r}"], ERROR,
      "{tmp}/missing.qrels: qrels file not found"),
    W("app-file-as-collection", ["--collection", "{q}", "--run", "{r}"], ERROR, "{q}: not a folder nor an archive (a collection is a folder of article XML files"),
    W("screenshot-under-a-file", ["--screenshot", "{q}/x.png"], ERROR, "{q}: not a folder"),
    W("screenshot-deep-under-a-file", ["--screenshot", "{q}/a/b/x.png"], ERROR, "{q}: not a folder"),
    W("screenshot-in-proc", ["--screenshot", "/proc/readsim-hostile/x.png"], ERROR,
      "/proc/readsim-hostile: No such file or directory"),
    W("screenshot-is-a-directory", ["--screenshot", "{dir}"], ERROR, "{dir}: is a directory"),
    W("screenshot-jpg", ["--screenshot", "{tmp}/x.jpg"], USAGE, "{tmp}/x.jpg: the image must end in .png or .svg"),
    W("screenshot-under-a-file-subprocess", ["--screenshot", "{q}/x.png"], ERROR, "{q}: not a folder",
      via="subprocess"),
    # an empty value is bad usage, never the option left out (the sample shown, the window opened)
    W("view-empty", [""], USAGE, "readsim: error: VIEW.readsim '': give a view file, not an empty value"),
    W("lesson-empty", ["--lesson", ""], USAGE, "readsim: error: --lesson no lesson named ''; the lessons are: "),
    W("topic-empty", ["--sample", "--topic", "", "--screenshot", "{tmp}/x.png"], USAGE,
      "readsim: error: --topic '': give a topic, not an empty value"),
    W("article-blank", ["--sample", "--article", " ", "--screenshot", "{tmp}/x.png"], USAGE,
      "readsim: error: --article ' ': give an article, not an empty value"),
    W("run-empty", ["--run", "", "--screenshot", "{tmp}/x.png"], USAGE,
      "readsim: error: --run '': give a file, not an empty value"),
    W("collection-empty", ["--collection", "", "--run", "{r}", "--screenshot", "{tmp}/x.png"], USAGE,
      "readsim: error: --collection '': give a folder or an archive, not an empty value"),
    W("screenshot-empty", ["--sample", "--screenshot", ""], USAGE,
      "readsim: error: --screenshot '': give an image file, not an empty value"),
    W("figure-empty", ["--sample", "--figure", ""], USAGE, "readsim: error: --figure '': give a file, not an empty value"),
    # the printing options on a full device: one line, exit 1 (was: exit 0, the help lost)
    W("window-help-to-full", ["--help"], ERROR, "readsim: error: <stdout>: No space left on device", via="subprocess",
      stdout="/dev/full"),
    W("list-lessons-to-full", ["--list-lessons"], ERROR, "readsim: error: <stdout>: No space left on device",
      via="subprocess", stdout="/dev/full"),
]


@pytest.fixture
def paths(tmp_path):
    (tmp_path / "q.qrels").write_text(QRELS)
    (tmp_path / "r.run").write_text(RUN)
    (tmp_path / "folder").mkdir()
    return {"q": str(tmp_path / "q.qrels"), "r": str(tmp_path / "r.run"), "dir": str(tmp_path / "folder"),
            "tmp": str(tmp_path)}


def fill(items, paths):
    return [item.format(**paths) for item in items]


def run_inprocess(tool: str, argv: list[str], capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = (eval_main if tool == "eval" else app_main)(argv)
    out, err = capsys.readouterr()
    return code, out, err


def command(tool: str) -> str:
    return str(Path(sys.executable).with_name("readsim-eval" if tool == "eval" else "readsim"))


def run_subprocess(tool: str, argv: list[str], stdout: str | None) -> tuple[int, str, str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    if stdout:
        if not os.path.exists(stdout):
            pytest.skip(f"{stdout} is not on this system")
        with open(stdout, "w") as sink:
            done = subprocess.run([command(tool), *argv], stdout=sink, stderr=subprocess.PIPE, text=True, env=env,
                                  timeout=120)
        return done.returncode, "", done.stderr
    done = subprocess.run([command(tool), *argv], capture_output=True, text=True, env=env, timeout=120)
    return done.returncode, done.stdout, done.stderr


def values(out: str) -> list[str]:
    """The value column of each row (the measure name, which differs, left out)."""
    return [line.split("\t", 1)[1] for line in out.splitlines() if not line.startswith("runid\t")]


def broken_pipe(paths, argv, tmp_path) -> None:
    """Close the pipe after one line of a long output: exit 0, nothing on stderr, and the line
    read is the first line of the whole output."""
    big = tmp_path / "big.run"
    big.write_text("".join(f"1 Q0 D{i} {i} 1 r 0 10\n" for i in range(1, 6001)))
    argv = [paths["q"], str(big), *argv[2:]]
    code, full, _ = run_inprocess_plain(argv)
    assert code == 0 and len(full) > 1 << 18  # far more than a pipe holds: the writer must block
    with subprocess.Popen([command("eval"), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        first = proc.stdout.readline()
        proc.stdout.close()  # the reader goes away, as head does
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 0, err
    assert first == full.splitlines(keepends=True)[0]
    assert err == "", err


def run_inprocess_plain(argv):
    import io

    out, err = io.StringIO(), io.StringIO()
    code = eval_main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_hostile_command_line(case: Case, paths, tmp_path, capsys):
    data = case.data
    argv = fill(data["argv"], paths)
    via = data.get("via", "inprocess")
    if via == "pipe":
        broken_pipe(paths, argv, tmp_path)
        return
    if via == "subprocess":
        code, out, err = run_subprocess(data["tool"], argv, data.get("stdout"))
    else:
        code, out, err = run_inprocess(data["tool"], argv, capsys)
    assert "Traceback" not in err and "Traceback" not in out
    if case.outcome == SAME:
        assert code == 0, err
        code2, out2, err2 = run_inprocess(data["tool"], fill(["{q}", "{r}", *case.expect], paths), capsys)
        assert code2 == 0, err2
        assert values(out) == values(out2) and values(out)
        return
    expected = case.expect.format(**paths)
    assert code == (2 if case.outcome == USAGE else 1), err
    assert expected in err, err
    assert out == ""
    # one message, not a dump: at most the usage lines argparse prints, then one error line
    assert len(err.strip().splitlines()) <= 10 and len(err) < 2000, err


def test_every_row_has_a_checked_outcome():
    for case in CASES:
        assert case.outcome in (SAME, USAGE, ERROR) and case.expect, case.id


def test_window_shows_os_and_input_errors_as_a_message_not_a_traceback(qapp, monkeypatch, capsys):
    """In the interactive window, an OS or input error that reaches ``sys.excepthook`` is a plain
    message box ``path: reason``; the traceback dialog is for bugs only."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    from readsim.app.main import _dialog_hook
    from readsim.core.errors import InputError

    shown = []
    monkeypatch.setattr(QMessageBox, "exec", lambda self: shown.append(
        (self.icon(), self.text(), self.textFormat() == Qt.TextFormat.PlainText)))
    hook = _dialog_hook(None)
    for exc in (FileNotFoundError(2, "No such file or directory", "/x/run.txt"), InputError("/x/q.qrels", 3, "bad line")):
        hook(type(exc), exc, None)
    warning = QMessageBox.Icon.Warning
    assert shown == [(warning, "/x/run.txt: No such file or directory", True), (warning, "/x/q.qrels:3: bad line", True)]
    assert "Traceback" not in capsys.readouterr().err
    hook(RuntimeError, RuntimeError("a bug"), None)
    assert shown[-1] == (QMessageBox.Icon.Critical, "RuntimeError: a bug", True)
    hook(InputError, InputError("/x/<b>q</b>.qrels", 1, '<img src="/dev/zero">'), None)  # shown as written
    assert shown[-1] == (warning, '/x/<b>q</b>.qrels:1: <img src="/dev/zero">', True)


@pytest.mark.parametrize("tool,argv", [("app", ["--list-lessons"]), ("app", ["--help"]), ("eval", ["--help"]),
                                       ("eval", ["{q}", "{r}"])])
def test_printing_to_a_closed_stdout_or_a_closed_pipe(tool, argv, paths):
    """``>&-``: one line ``<stdout>: standard output is closed``, exit 1; a reader that went away
    before the first write (``| head -0``): quiet, exit 0 (as Unix tools)."""
    cmd = [command(tool), *fill(argv, paths)]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    closed = subprocess.run(["bash", "-c", 'exec "$@" >&-', "bash", *cmd], capture_output=True, text=True, env=env,
                            timeout=120)
    name = "readsim: error" if tool == "app" else "readsim-eval"
    assert (closed.returncode, closed.stderr) == (1, f"{name}: <stdout>: standard output is closed\n")
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as proc:
        proc.stdout.close()  # the reader goes away, as head does
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 0, err
    assert err == ""
