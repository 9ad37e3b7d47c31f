"""Hostile streams and interrupts: closed standard streams and Ctrl+C at any moment.

Every row runs the installed command in a subprocess (a new session, so that SIGINT goes to the
whole process group as a terminal's Ctrl+C does). Policies (docs/reference.md section 9.3,
:mod:`readsim.core.streams`):

- standard output closed (``>&-``): ``readsim-eval`` stops at its first row with one line
  ``readsim-eval: <stdout>: standard output is closed`` (exit 1); ``readsim --screenshot``
  writes its image and drops the ``wrote`` note (exit 0);
- standard error closed (``2>&-``): messages are dropped, the numbers still reach standard
  output, the same as with standard error open (the real run has warnings: they were where the
  numbers used to be lost);
- standard input closed (``<&-``): nothing changes;
- SIGINT at start-up (once the process has begun loading numpy, which the entry modules import
  only after their guard), during the evaluation, while a big article loads, while the real
  data renders (several delays: the crash was intermittent): exit 130 and exactly one line
  ``PROGRAM: interrupted`` on standard error, no traceback, no core dump. A rendering row whose
  signal comes after the image was written ends 0 with the image; at least one of them must be
  interrupted.

Timeouts are hang guards only (each at least 10 times what the run takes on a busy machine).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from helpers.gui import write_article

from .cases import ERROR, SAME, Case

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and POSIX signals")

BIN = Path(sys.executable).parent
GUARD = 300  # seconds: a hang guard, never a speed limit
QRELS = "1 Q0 A 10 100 0 0:10\n1 Q0 B 40 100 0 0:40\n2 Q0 C 20 50 0 0:20\n"
RUN = "1 Q0 X 1 1 r 0 5\n1 Q0 B 2 1 r 0 20\n1 Q0 A 3 1 r 5 30\n2 Q0 C 1 1 r 10 20\n"
INTERRUPTED = 130


def S(id, input, outcome, expect, **data):
    return Case(id, input, outcome, expect, data)


CASES = [
    S("eval-stdout-closed", "readsim-eval QRELS RUN >&-", ERROR, "readsim-eval: <stdout>: standard output is closed",
      tool="eval", close=1),
    S("eval-stderr-closed", "readsim-eval QRELS(real) RUN(real) 2>&- (the run has warnings)", SAME,
      "the rows of the same command with stderr open", tool="eval-real", close=2),
    S("eval-stdin-closed", "readsim-eval QRELS(real) RUN(real) <&-", SAME,
      "the rows of the same command with stdin open", tool="eval-real", close=0),
    S("eval-write-assessments-stdout-closed", "readsim-eval ... --elements --write-assessments FILE >&-", SAME,
      "the file written, exit 0", tool="eval-elements", close=1),
    S("shot-stdout-closed", "readsim --screenshot x.png >&-", SAME, "the image written, exit 0, nothing on stderr",
      tool="shot", close=1),
    S("shot-stderr-closed", "readsim --screenshot x.png 2>&-", SAME, "the image written, exit 0", tool="shot", close=2),
    S("shot-stdin-closed", "readsim --screenshot x.png <&-", SAME, "the image written, exit 0", tool="shot", close=0),
    S("shot-error-stderr-closed", "readsim --qrels missing ... --screenshot x.png 2>&-", ERROR,
      "exit 1, nothing written anywhere", tool="shot-missing", close=2),
    S("eval-sigint-start", "Ctrl+C while readsim-eval imports numpy", ERROR, "readsim-eval: interrupted",
      tool="eval-real", when="start"),
    S("eval-sigint-working", "Ctrl+C while readsim-eval evaluates five real runs (-j 1)", ERROR,
      "readsim-eval: interrupted", tool="eval-real", when="working"),
    S("eval-sigint-workers", "Ctrl+C while readsim-eval's worker processes evaluate (-j 2)", ERROR,
      "readsim-eval: interrupted", tool="eval-real", when="workers"),
    S("shot-sigint-start", "Ctrl+C while readsim imports numpy", ERROR, "readsim: interrupted", tool="shot",
      when="start"),
    S("shot-sigint-loading", "Ctrl+C while readsim --screenshot loads a 12 MB article", ERROR,
      "readsim: interrupted", tool="shot-big", when="loading"),
    S("shot-sigint-rendering", "Ctrl+C while readsim --screenshot loads and renders the real data (5 delays)", ERROR,
      "readsim: interrupted", tool="shot", when="rendering"),
]


@pytest.fixture
def files(tmp_path: Path, inex) -> dict:
    (tmp_path / "q.qrels").write_text(QRELS)
    (tmp_path / "r.run").write_text(RUN)
    (tmp_path / "articles").mkdir()
    (tmp_path / "articles" / "A1.xml").write_bytes(b"<article><bdy><p>rel one</p><p>no</p></bdy></article>")
    (tmp_path / "e.qrels").write_text("T1 Q0 A1 10 37 5 8:7\n")
    return {"tmp": tmp_path, "inex": inex}


def command(tool: str, files: dict, when: str | None = None) -> list[str]:
    tmp, inex = files["tmp"], files["inex"]
    qrels = str(inex / "qrels" / "inex2009-2010.qrels")
    real = ["--collection", str(inex / "articles"), "--qrels", qrels, "--run", str(inex / "runs" / "bert-passages.run"),
            "--topics", str(inex / "topics" / "inex2009-topics.xml"), "--topic", "2009074"]
    if tool == "eval":
        return [str(BIN / "readsim-eval"), str(tmp / "q.qrels"), str(tmp / "r.run")]
    if tool == "eval-real":
        runs = sorted(str(p) for p in (inex / "runs").glob("*.run"))
        if when == "workers":  # 40 runs: seconds of work, so the signal lands while workers evaluate
            runs = runs * 8
        jobs = ["-j", "2"] if when == "workers" else ["-j", "1"]
        return [str(BIN / "readsim-eval"), qrels, *(runs if when else runs[:1]), *(jobs if when else []),
                *(["-q", "-m", "AgP/F(0.25)", "-m", "MAiP", "-m", "ANCE@600/LE(300)"] if when else [])]
    if tool == "eval-elements":
        return [str(BIN / "readsim-eval"), str(tmp / "e.qrels"), "--collection", str(tmp / "articles"), "--elements",
                "--write-assessments", str(tmp / "out.xml")]
    if tool == "shot":
        return [str(BIN / "readsim"), *real, "--screenshot", str(tmp / "shot.png")]
    if tool == "shot-missing":
        return [str(BIN / "readsim"), *real[:2], "--qrels", str(tmp / "missing.qrels"), *real[4:],
                "--screenshot", str(tmp / "shot.png")]
    big = tmp / "big"
    big.mkdir()
    write_article(big / "BIG.xml", "BIG", 12)
    (tmp / "big.qrels").write_text("T Q0 BIG 100 100 0 0:100\n")
    (tmp / "big.run").write_text("T Q0 BIG 1 1 r 0 50\n")
    return [str(BIN / "readsim"), "--collection", str(big), "--qrels", str(tmp / "big.qrels"), "--run",
            str(tmp / "big.run"), "--screenshot", str(tmp / "shot.png")]


ENV = dict(os.environ, QT_QPA_PLATFORM="offscreen")


def run_closed(cmd: list[str], fd: int, tmp: Path) -> subprocess.CompletedProcess:
    """Run ``cmd`` with descriptor ``fd`` closed (as ``>&-``, ``2>&-``, ``<&-``)."""
    redirect = {0: "<&-", 1: ">&-", 2: "2>&-"}[fd]
    env = dict(ENV, XDG_CONFIG_HOME=str(tmp / "config"))
    return subprocess.run(["bash", "-c", f'exec "$@" {redirect}', "bash", *cmd], capture_output=True, timeout=GUARD,
                          env=env)


_OPEN_STREAMS: dict[tuple[str, ...], subprocess.CompletedProcess] = {}


def with_streams_open(cmd: list[str]) -> subprocess.CompletedProcess:
    """``cmd`` run with every standard stream open, once per module: the rows that close one
    stream compare with it, and it reads the real data only (no row's files), so each such row
    would run the same command again."""
    key = tuple(cmd)
    if key not in _OPEN_STREAMS:
        _OPEN_STREAMS[key] = subprocess.run(cmd, capture_output=True, timeout=GUARD, env=ENV)
    return _OPEN_STREAMS[key]


def mapped(pid: int, name: str) -> bool:
    try:
        return name in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def _as_from_a_terminal() -> None:
    """In the child, before the command starts: Ctrl+C's default action, as a terminal gives it
    (a suite started in the background, ``pytest &``, passes SIGINT on ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(cmd: list[str], tmp: Path, ready, delay: float = 0.0) -> tuple[int, str]:
    """Start ``cmd``, wait until ``ready(proc)`` (or the end), sleep ``delay``, send SIGINT to its
    process group; the exit status and standard error."""
    env = dict(ENV, XDG_CONFIG_HOME=str(tmp / "config"))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True,
                            preexec_fn=_as_from_a_terminal)
    try:
        end = time.monotonic() + GUARD
        while proc.poll() is None and not ready(proc) and time.monotonic() < end:
            time.sleep(0.002)
        time.sleep(delay)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, err.decode("utf-8", "replace")


def assert_interrupted(code: int, err: str, program: str) -> None:
    assert code == INTERRUPTED and err == f"{program}: interrupted\n", (code, err)


def has_children(proc) -> bool:
    """True once the process has forked its workers."""
    try:
        return bool(Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().strip())
    except OSError:
        return False


def stderr_has_text(proc) -> bool:
    """True once the process has written to its standard error (a warning: the runs are being read)."""
    import select

    return bool(select.select([proc.stderr], [], [], 0)[0])


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_streams_and_interrupts(case: Case, files):
    d, tmp = case.data, files["tmp"]
    cmd = command(d["tool"], files, d.get("when"))
    program = Path(cmd[0]).name
    if "close" in d:
        done = run_closed(cmd, d["close"], tmp)
        err = done.stderr.decode()
        assert "Traceback" not in err and done.returncode >= 0
        if d["tool"] == "eval":
            assert done.returncode == 1 and err == case.expect + "\n"
        elif d["tool"] == "eval-real":
            clean = with_streams_open(cmd)
            assert clean.returncode == 0 and clean.stdout.count(b"\n") == 2 and clean.stderr  # warnings were printed
            assert done.returncode == 0 and done.stdout == clean.stdout
            if d["close"] == 2:
                assert err == ""
        elif d["tool"] == "eval-elements":
            assert done.returncode == 0 and (tmp / "out.xml").read_bytes().startswith(b"<?xml")
        elif d["tool"] == "shot-missing":
            assert done.returncode == 1 and done.stdout == b"" and err == ""
            assert not (tmp / "shot.png").exists()
        else:
            assert done.returncode == 0, err
            assert not QImage(str(tmp / "shot.png")).isNull()
            assert err == ""
            assert done.stdout == (b"" if d["close"] == 1 else f"readsim: wrote {tmp / 'shot.png'}\n".encode())
        return
    when = d["when"]
    if when == "start":
        code, err = interrupt(cmd, tmp, lambda p: mapped(p.pid, "numpy"))
        assert_interrupted(code, err, program)
    elif when == "working":
        code, err = interrupt(cmd, tmp, stderr_has_text)  # the runs' warnings first, then the one line
        assert code == INTERRUPTED and err.endswith(f"\n{program}: interrupted\n"), (code, err)
        assert "Traceback" not in err and err.count("interrupted") == 1
    elif when == "workers":
        code, err = interrupt(cmd, tmp, has_children, delay=0.05)  # warnings come after the workers' results
        assert_interrupted(code, err, program)
    elif when == "loading":
        code, err = interrupt(cmd, tmp, lambda p: mapped(p.pid, "libQt6Widgets"), delay=0.5)
        assert_interrupted(code, err, program)
        assert not (tmp / "shot.png").exists()
    else:
        interrupted = 0
        for delay in (0.0, 0.25, 0.5, 1.0, 1.5):
            (tmp / "shot.png").unlink(missing_ok=True)
            code, err = interrupt(cmd, tmp, lambda p: mapped(p.pid, "libQt6Widgets"), delay)
            if code == 0:  # the signal came after the image was written
                assert err == "" and not QImage(str(tmp / "shot.png")).isNull(), (delay, err)
            else:
                assert_interrupted(code, err, program)
                interrupted += 1
        assert interrupted >= 1


def test_every_row_has_a_checked_outcome():
    assert len({c.id for c in CASES}) == len(CASES)
    assert {c.outcome for c in CASES} == {ERROR, SAME}
