"""Hostile output paths: every writer saves only over a regular file, and never over its input.

The policy (docs/reference.md section 2.9, :mod:`readsim.core.atomic`): a path that does not
exist is created; a regular file is replaced atomically; a symbolic link is followed and the
rule applied to what it points to; a folder, a device, a FIFO is refused (``path: Is a
directory``, ``path: not a regular file (a character device)``) and left exactly as it was; a
read-only folder or a path under a file is ``path: reason``; a command's own input is refused.
``readsim-eval --write-assessments -`` writes the XML to standard output; ``/dev/stdout`` is a
device or a pipe, refused like any other.

One row per (writer, output path kind). Writers: ``atomic`` (:func:`atomic.write_bytes`, what
every window export and File ▸ Save run call), ``eval`` (``readsim-eval QRELS --collection DIR
--elements --write-assessments PATH`` on a hand-made article), ``shot`` (``readsim
--screenshot PATH`` on the real data). A device is a node the test makes itself (``mknod``, the
same major/minor as ``/dev/null``) so that a wrong answer can never replace the system's; rows
that need what root cannot have in-process (a read-only folder stops root only without
``CAP_DAC_OVERRIDE``) or a real pipe as standard output run the installed command in a
subprocess. ERROR rows: exit 1, the message names the path and the reason, the path is as it
was (a device still that device, a FIFO never opened or written, a folder empty, an input
byte for byte). SAME rows: the file is written and reads back.
"""

from __future__ import annotations

import ctypes
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from readsim.app.main import main as app_main
from readsim.core import atomic
from readsim.core.streams import describe_os_error
from readsim.cli import main as eval_main

from .cases import ERROR, SAME, Case

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="device nodes and FIFOs as on Linux")

OLD = b"what was there before\n"
ARTICLE = b"<article><title>Title</title><bdy><p>rel one</p><p>half <b>rel</b> no</p><p>nothing</p></bdy></article>"
QRELS = "T1 Q0 A1 10 35 5 5:7 17:3\n"
NOT_REGULAR = "not a regular file"


def R(writer, kind, outcome, expect, **data):
    return Case(f"{writer}-{kind}", f"{writer} writing to {kind.replace('-', ' ')}", outcome, expect,
                {"writer": writer, "kind": kind, **data})


CASES = [
    *(row for writer in ("atomic", "eval", "shot") for row in (
        R(writer, "new-file", SAME, "written"),
        R(writer, "regular-file", SAME, "replaced"),
        R(writer, "link-to-regular", SAME, "the file it points to replaced, the link kept"),
        R(writer, "link-to-device", ERROR, NOT_REGULAR + " (a character device)"),
        R(writer, "device", ERROR, NOT_REGULAR + " (a character device)"),
        R(writer, "fifo", ERROR, NOT_REGULAR + " (a FIFO (named pipe))"),
        R(writer, "folder", ERROR, "Is a directory" if writer != "shot" else "is a directory"),
        R(writer, "read-only-folder", ERROR, "Permission denied", subprocess=True),
        R(writer, "under-a-file", ERROR, "Not a directory" if writer != "shot" else "not a folder"),
        R(writer, "own-input", ERROR, "this command reads"),
    )),
    R("eval", "link-to-own-qrels", ERROR, "is the qrels file this command reads"),
    R("eval", "xml-in-the-collection", ERROR, "would be read as an article"),
    R("eval", "dash", SAME, "the XML on standard output"),
    R("eval", "dev-stdout", ERROR, NOT_REGULAR + " (a FIFO (named pipe))", subprocess=True),
]

SUFFIX = {"atomic": ".bin", "eval": ".xml", "shot": ".png"}


def device(path: Path) -> Path:
    """A character device like /dev/null at ``path`` (the system's own when mknod is refused and
    the test is not root: then nothing could replace it anyway)."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        return path
    except PermissionError:
        if os.geteuid() == 0:
            pytest.skip("mknod refused")
        return Path(os.devnull)


def describe(path: Path) -> tuple:
    """What is at ``path`` (not following a link), to compare before and after."""
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return ("missing",)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path), describe(Path(os.path.realpath(path))))
    if stat.S_ISREG(st.st_mode):
        return ("file", path.read_bytes())
    if stat.S_ISDIR(st.st_mode):
        return ("folder", sorted(os.listdir(path)))
    return ("special", stat.S_IFMT(st.st_mode), st.st_rdev, st.st_size)


@pytest.fixture
def inputs(tmp_path: Path, inex) -> dict:
    (tmp_path / "articles").mkdir()
    (tmp_path / "articles" / "A1.xml").write_bytes(ARTICLE)
    (tmp_path / "q.qrels").write_text(QRELS)
    run_png = tmp_path / "run.png"  # the real run under a picture's name: an input --screenshot could hit
    run_png.write_bytes((inex / "runs" / "bert-passages.run").read_bytes())
    return {"qrels": tmp_path / "q.qrels", "articles": tmp_path / "articles", "run_png": run_png, "inex": inex}


def target_for(case: Case, tmp_path: Path, inputs: dict) -> Path:
    """Make the output path of ``case``'s kind; returns it."""
    kind, suffix = case.data["kind"], SUFFIX[case.data["writer"]]
    out = tmp_path / f"out{suffix}"
    if kind == "regular-file":
        out.write_bytes(OLD)
    elif kind == "link-to-regular":
        (tmp_path / f"real{suffix}").write_bytes(OLD)
        out.symlink_to(tmp_path / f"real{suffix}")
    elif kind == "link-to-device":
        out.symlink_to(device(tmp_path / "null"))
    elif kind == "device":
        out = device(out)
    elif kind == "fifo":
        os.mkfifo(out)
    elif kind == "folder":
        out.mkdir()
    elif kind == "read-only-folder":
        (tmp_path / "ro").mkdir()
        out = tmp_path / "ro" / f"out{suffix}"
        (tmp_path / "ro").chmod(0o555)
    elif kind == "under-a-file":
        (tmp_path / "file").write_bytes(OLD)
        out = tmp_path / "file" / f"out{suffix}"
    elif kind == "own-input":
        out = inputs["run_png"] if case.data["writer"] == "shot" else inputs["qrels"]
    elif kind == "link-to-own-qrels":
        out.symlink_to(inputs["qrels"])
    elif kind == "xml-in-the-collection":
        out = inputs["articles"] / "assessments.xml"
    return out


def argv(writer: str, out: str, inputs: dict) -> list[str]:
    if writer == "eval":
        return [str(inputs["qrels"]), "--collection", str(inputs["articles"]), "--elements",
                "--write-assessments", out]
    inex = inputs["inex"]
    return ["--collection", str(inex / "articles"), "--qrels", str(inex / "qrels" / "inex2009-2010.qrels"),
            "--run", str(inputs["run_png"]), "--topics", str(inex / "topics" / "inex2009-topics.xml"),
            "--topic", "2009074", "--article", "23724", "--screenshot", out]


ATOMIC_SCRIPT = ("import sys\nfrom readsim.core.atomic import write_bytes\nfrom readsim.core.streams import "
                 "describe_os_error\ntry:\n    write_bytes(sys.argv[1], b'new')\nexcept OSError as e:\n"
                 "    print(describe_os_error(e), file=sys.stderr)\n    sys.exit(1)\n")


def _no_dac_override() -> None:
    """In the child: drop CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the bounding set, so
    that root, after exec, is stopped by a read-only folder as any user is."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def run_subprocess(writer: str, out: str, inputs: dict) -> tuple[int, str, bytes]:
    bindir = Path(sys.executable).parent
    cmd = {"atomic": [sys.executable, "-c", ATOMIC_SCRIPT, out],
           "eval": [str(bindir / "readsim-eval"), *argv("eval", out, inputs)],
           "shot": [str(bindir / "readsim"), *argv("shot", out, inputs)]}[writer]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(cmd, capture_output=True, timeout=300, env=env,
                          preexec_fn=_no_dac_override if os.geteuid() == 0 else None)
    return done.returncode, done.stderr.decode(), done.stdout


def run_in_process(writer: str, out: str, inputs: dict, capsys) -> tuple[int, str, bytes]:
    if writer == "atomic":  # as a command reading the qrels saves: check_output, then the atomic write
        try:
            atomic.check_output(out, [("qrels", inputs["qrels"]), ("collection", inputs["articles"])])
            atomic.write_bytes(out, b"new")
        except OSError as exc:
            return 1, describe_os_error(exc), b""
        return 0, "", b""
    code = (eval_main if writer == "eval" else app_main)(argv(writer, out, inputs))
    captured = capsys.readouterr()
    return code, captured.err, captured.out.encode()


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_output_path(case: Case, tmp_path, inputs, capsys):
    writer, kind = case.data["writer"], case.data["kind"]
    out = target_for(case, tmp_path, inputs)
    reader = os.open(out, os.O_RDONLY | os.O_NONBLOCK) if kind == "fifo" else None  # a wrong write never blocks
    before = describe(out)
    inputs_before = {k: describe(v) for k, v in inputs.items() if k != "inex"}
    try:
        if kind == "dev-stdout":  # standard output is a pipe here
            code, err, stdout = run_subprocess(writer, "/dev/stdout", inputs)
        elif case.data.get("subprocess"):
            code, err, stdout = run_subprocess(writer, str(out), inputs)
        elif kind == "dash":
            code, err, stdout = run_in_process(writer, "-", inputs, capsys)
        else:
            code, err, stdout = run_in_process(writer, str(out), inputs, capsys)
        if reader is not None:
            assert os.read(reader, 1) == b""  # nothing was written into the FIFO (no writer: end of file)
    finally:
        if reader is not None:
            os.close(reader)
        if kind == "read-only-folder":
            (tmp_path / "ro").chmod(0o755)
    assert "Traceback" not in err
    if case.outcome == ERROR:
        where = {"dev-stdout": "/dev/stdout", "under-a-file": tmp_path / "file" if writer == "shot" else out}.get(kind, out)
        assert code == 1 and f"{where}: " in err and case.expect in err, err
        assert len(err.strip().splitlines()) == 1, err
        assert describe(out) == before, "the path must be left as it was"
        assert {k: describe(v) for k, v in inputs.items() if k != "inex"} == inputs_before
        if kind in ("device", "link-to-device"):
            assert stat.S_ISCHR(os.stat(out).st_mode)
        assert not [n for n in os.listdir(out.parent if out.parent.is_dir() else tmp_path) if n.endswith(".tmp")]
        return
    assert code == 0, err
    if kind == "dash":  # the same XML as written to a file
        again = tmp_path / "again.xml"
        assert eval_main(argv("eval", str(again), inputs)) == 0
        assert stdout == again.read_bytes() and stdout.startswith(b"<?xml")
        assert "to standard output" in err
        return
    written = Path(os.path.realpath(out))
    assert written.is_file() and stat.S_ISREG(os.lstat(written).st_mode)
    if kind == "link-to-regular":
        assert out.is_symlink() and written == tmp_path / f"real{SUFFIX[writer]}"
    data = written.read_bytes()
    if writer == "atomic":
        assert data == b"new"
    elif writer == "eval":
        assert data.startswith(b"<?xml") and b"A1" in data
    else:
        img = QImage(str(written))
        assert not img.isNull() and img.width() >= 1000


def test_every_row_has_a_checked_outcome():
    assert len({c.id for c in CASES}) == len(CASES)
    assert {c.outcome for c in CASES} == {ERROR, SAME}


def test_screenshot_writes_no_settings(inex, tmp_path):
    """``readsim --screenshot`` reads the user's settings (recent files, geometry, state) and
    writes nothing but its image: the settings file is byte for byte as before, no file added."""
    config = tmp_path / "config"
    (config / "readsim").mkdir(parents=True)
    conf = config / "readsim" / "readsim.conf"
    conf.write_bytes(b"[General]\nrecent=run|/nowhere/a.run, qrels|/nowhere/q.qrels\n\n"
                     b"[window]\ngeometry=@ByteArray(\\x1\\xd9\\xd0\\xcb\\0\\x3)\nstate=@ByteArray(\\0\\0\\0\\xff)\n")
    before = conf.read_bytes()
    listing = sorted(str(p.relative_to(config)) for p in config.rglob("*"))
    png = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(config), HOME=str(tmp_path))
    cmd = [str(Path(sys.executable).parent / "readsim"), "--collection", str(inex / "articles"), "--qrels",
           str(inex / "qrels" / "inex2009-2010.qrels"), "--run", str(inex / "runs" / "bert-passages.run"),
           "--topic", "2009074", "--article", "23724", "--screenshot", str(png)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert not QImage(str(png)).isNull()
    assert conf.read_bytes() == before
    assert sorted(str(p.relative_to(config)) for p in config.rglob("*")) == listing


def test_window_export_refuses_a_link_to_a_device(qtbot, tmp_path, monkeypatch):
    """File ▸ Export ▸ scores onto a link to a device: a message box names the path and the
    reason, the device is untouched, and the same export to a regular file works."""
    from PySide6.QtWidgets import QMessageBox

    from readsim.app import export
    from readsim.app.background import activity
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session
    from readsim.core.samples import sample

    s = sample()
    session = Session()
    window = MainWindow(session, show_dialogs=True, restore=False)
    qtbot.addWidget(window)
    window.show()
    session.open_files(s.collection, s.qrels, s.runs, s.topics, s.topic, None)
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=20_000)
    link = tmp_path / "scores.csv"
    link.symlink_to(device(tmp_path / "null"))
    before = describe(link)
    monkeypatch.setattr(export, "_ask", lambda *a: str(link))
    window.act_export_scores.trigger()
    qtbot.waitUntil(lambda: any(b.isVisible() for b in window.findChildren(QMessageBox)))
    text = next(b for b in window.findChildren(QMessageBox) if b.isVisible()).text()
    for box in window.findChildren(QMessageBox):
        box.close()
    assert str(link) in text and "not a regular file (a character device)" in text, text
    assert describe(link) == before and stat.S_ISCHR(os.stat(link).st_mode)
    good = tmp_path / "good.csv"
    monkeypatch.setattr(export, "_ask", lambda *a: str(good))
    window.act_export_scores.trigger()
    assert good.read_text().count("\n") > 1
    window.close()
