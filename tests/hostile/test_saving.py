"""Hostile saves: nothing the user saves is ever lost or surprising (reference section 2.9).

Each row acts as the user in a window on the real data (topic 2009074, article PageRank, run
``bert-passages.run``): File ▸ Save run or File ▸ Export while the system fails in one way
(monkeypatched: a read-only folder does not stop root), or a save whose bytes are checked.

- ERROR rows: the file already at the path is byte for byte as before (or nothing is created),
  no temporary file is left, a message box names the path and the reason, the window still
  has its unsaved edits and, once the failure is gone, the same action succeeds;
- SAME rows: what a save writes, compared byte for byte with the run file;
- WARNING rows: lines cannot be copied from the run file (it changed, it is gone): every line
  is generated, the run reads back with the same results, and the log says why.
"""

from __future__ import annotations

import errno
import gc
import os
import shutil

import numpy as np
import pytest
from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtWidgets import QMessageBox

from readsim.app import export
from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from readsim.core import atomic
from readsim.core.collection import Collection
from readsim.core.formats import read_qrels, read_run, read_topics

from .cases import ERROR, SAME, WARNING, Case

TOPIC, PAGERANK, FIRST = "2009074", "23724", (159, 1326)  # PageRank's first relevant passage
PREVIOUS = b"2009074 Q0 23724 1 1 previous-save 0 10\r\n"  # what an earlier save left at the path


def S(id, input, outcome, expect, **data):
    return Case(id, input, outcome, expect, data)


CASES = [
    S("save-fsync-fails", "Save run onto an earlier save; fsync of the new file fails (EIO)", ERROR,
      "Input/output error", do="save", fail="fsync"),
    S("save-disk-full-half-way", "Save run onto an earlier save; the disk fills half-way (ENOSPC)", ERROR,
      "No space left on device", do="save", fail="write"),
    S("save-replace-fails", "Save run onto an earlier save; the final os.replace fails (EACCES)", ERROR,
      "Permission denied", do="save", fail="replace"),
    S("save-missing-folder", "Save run into a folder that does not exist", ERROR,
      "No such file or directory", do="save", target="missing/edited.run"),
    S("save-onto-a-folder", "Save run onto a path that is a folder", ERROR,
      "Is a directory", do="save", target="folder"),
    S("export-csv-half-way", "Export the scores as CSV over an earlier export; the disk fills half-way", ERROR,
      "No space left on device", do="export", action="act_export_scores", suffix=".csv", fail="write"),
    S("export-json-half-way", "Export the ranked list as JSON over an earlier export; the disk fills half-way",
      ERROR, "No space left on device", do="export", action="act_export_ranked", suffix=".json", fail="write"),
    S("export-png-half-way", "Export the article view as PNG over an earlier export; the disk fills half-way",
      ERROR, "No space left on device", do="export", action="act_export_article", suffix=".png", fail="write"),
    S("export-svg-half-way", "Export the precision plot as SVG over an earlier export; the disk fills half-way",
      ERROR, "No space left on device", do="export", action="Precision plot as PNG/SVG…", suffix=".svg",
      fail="write"),
    S("export-svg-fsync-fails", "Export the article view as SVG over an earlier export; fsync fails (EIO)",
      ERROR, "Input/output error", do="export", action="act_export_article", suffix=".svg", fail="fsync"),
    S("save-unedited-real-run", "Save run, nothing edited: the real bert-passages.run", SAME,
      "byte for byte", do="bytes", source="real"),
    S("save-crlf-bom-run", "Save run, nothing edited: the real run with CRLF line ends and a UTF-8 BOM", SAME,
      "byte for byte (CRLF and BOM kept)", do="bytes", source="crlf-bom"),
    S("save-one-edit", "Save run after removing one passage of PageRank (its lines are interleaved)", SAME,
      "only PageRank's lines change", do="one-edit"),
    S("save-source-changed", "Save run after the run file was changed on disk since it was read", WARNING,
      "changed since it was read", do="fallback", how="changed"),
    S("save-source-gone", "Save run after the run file was deleted since it was read", WARNING,
      "the run file is gone", do="fallback", how="gone"),
]


# -- one window for the module (each row starts from no edits, no message box) ------------------
@pytest.fixture(scope="module")
def settings_folder(tmp_path_factory, qapp):
    QStandardPaths.setTestModeEnabled(True)
    folder = str(tmp_path_factory.mktemp("settings"))
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)
    return folder


@pytest.fixture(scope="module")
def window(inex, settings_folder, qapp):
    gc.collect()
    gc.disable()  # as tests/app/conftest.py: never collect Qt objects in a worker thread
    run = read_run(inex / "runs" / "bert-passages.run")
    w = MainWindow(Session(), show_dialogs=False, restore=False)
    w.show()
    w.session.adopt(Loaded(collection=Collection(inex / "articles"), qrels=read_qrels(inex / "qrels" / "inex2009-2010.qrels"),
                           runs=[run], topics=read_topics(inex / "topics" / "inex2009-topics.xml")), TOPIC, PAGERANK)
    w.real_run = run  # loading ends in the first row's ``win`` (which has a qtbot to wait with)
    yield w
    w.show_dialogs = False
    w.editing.editor.stack.clear()
    w.close()
    w.deleteLater()
    gc.enable()
    gc.collect()


@pytest.fixture
def win(window, qtbot):
    """The module's window as a row starts: the run as read from bert-passages.run (``real_run``,
    not the editable copy an earlier row edited and saved), no edits, no message box. The run
    as read is the reference of every row's first edit, as in a window just opened: the edits'
    worth box (``EditWorth``) then evaluates it once for the module, not once per row (a save
    makes the saved run the next edit's reference: the whole real run evaluated again)."""
    session = window.session
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and session.current.name == PAGERANK, timeout=20_000)
    window.qtbot = qtbot
    ui = window.editing
    while ui.editor.stack.canUndo():
        ui.editor.stack.undo()
    ui.editor.stack.clear()
    if session.run is not window.real_run:  # an earlier row's copy: the run as read again (its history dropped)
        before = session.current
        session.adopt(Loaded(runs=[window.real_run]), TOPIC, PAGERANK)
        qtbot.waitUntil(lambda: activity().count == 0 and session.current is not before
                        and session.current.name == PAGERANK, timeout=20_000)
        assert session.runs == [window.real_run] and not ui.editor.edited_runs()
    ui.editor.path = None
    for box in window.findChildren(QMessageBox):
        box.close()
    window.show_dialogs = True
    yield window
    window.show_dialogs = False
    for box in window.findChildren(QMessageBox):
        box.close()
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


class HalfFull:
    """A file whose disk fills half-way through the first write."""

    def __init__(self, fh):
        self.fh = fh

    def write(self, data):
        self.fh.write(data[: len(data) // 2])
        self.fh.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name):
        return getattr(self.fh, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self.fh.__exit__(*exc)


def inject(monkeypatch, fail):
    def raises(code, text):
        def f(*a, **k):
            raise OSError(code, text)
        return f

    if fail == "fsync":
        monkeypatch.setattr(atomic.os, "fsync", raises(errno.EIO, "Input/output error"))
    elif fail == "replace":
        monkeypatch.setattr(atomic.os, "replace", raises(errno.EACCES, "Permission denied"))
    elif fail == "write":
        fdopen = os.fdopen
        monkeypatch.setattr(atomic, "_fdopen", lambda *a, **k: HalfFull(fdopen(*a, **k)))


def shown_box(w):
    w.qtbot.waitUntil(lambda: any(b.isVisible() for b in w.findChildren(QMessageBox)))
    return next(b for b in w.findChildren(QMessageBox) if b.isVisible()).text()


def edited(w) -> None:
    assert w.editing.editor.remove(*FIRST)
    assert w.windowTitle().startswith("*")


def still_edited(w) -> None:
    """The edits are in memory, unsaved: title, history, the run and the scores."""
    assert w.windowTitle().startswith("*") and not w.editing.editor.stack.isClean()
    assert w.session.run.article(TOPIC, PAGERANK).passages.tolist() == [[0, 159], [1326, 25686]]
    assert w.session.current.evaluation.retrieved_spans.tolist() == [[0, 159], [1326, 25686]]


def export_action(w, name):
    if name.startswith("act_"):
        return getattr(w, name)
    w.export_menu.aboutToShow.emit()
    return next(a for a in w.export_menu.actions() if a.text() == name)


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_saving(case, win, tmp_path, monkeypatch, inex):
    d = case.data
    w, ui = win, win.editing
    real = inex / "runs" / "bert-passages.run"
    if case.outcome == ERROR:
        (tmp_path / "folder").mkdir()
        if d["do"] == "save":
            target = tmp_path / d.get("target", "edited.run")
            edited(w)
        else:
            target = tmp_path / f"export{d['suffix']}"
            monkeypatch.setattr(export, "_ask", lambda *a: str(target))
        before = None
        if "fail" in d:
            target.write_bytes(PREVIOUS)
            before = sorted(os.listdir(tmp_path))
        inject(monkeypatch, d.get("fail"))
        if d["do"] == "save":
            assert ui.save_as(str(target)) is False
        else:
            export_action(w, d["action"]).trigger()
        text = shown_box(w)
        assert str(target) in text and case.expect in text, text
        if before is not None:  # the earlier file byte for byte, no temporary left
            assert target.read_bytes() == PREVIOUS and sorted(os.listdir(tmp_path)) == before
        elif d["target"] == "folder":
            assert target.is_dir() and os.listdir(target) == []
        else:
            assert not target.parent.exists()
        monkeypatch.undo()
        for box in w.findChildren(QMessageBox):
            box.close()
        if d["do"] == "save":
            still_edited(w)
            good = tmp_path / "again.run"
            assert ui.save_as(str(good)) and ui.editor.stack.isClean() and not w.windowTitle().startswith("*")
            assert read_run(good).article(TOPIC, PAGERANK).passages.tolist() == [[0, 159], [1326, 25686]]
        else:  # responsive: the same export works once the disk has room
            monkeypatch.setattr(export, "_ask", lambda *a: str(target))
            export_action(w, d["action"]).trigger()
            data = target.read_bytes()
            assert data != PREVIOUS and len(data) > 100
            assert not any(b.isVisible() for b in w.findChildren(QMessageBox))
    elif d["do"] == "bytes":
        src = real
        if d["source"] == "crlf-bom":
            src = tmp_path / "crlf-bom.run"
            src.write_bytes(b"\xef\xbb\xbf" + real.read_bytes().replace(b"\n", b"\r\n"))
        out = tmp_path / "saved.run"
        assert ui.editor.save(out, run=read_run(src)) == []
        assert out.read_bytes() == src.read_bytes()
    elif d["do"] == "one-edit":
        edited(w)
        out = tmp_path / "saved.run"
        assert ui.save_as(str(out))
        entry = w.real_run.article(TOPIC, PAGERANK)
        old = real.read_bytes().split(b"\n")
        head = old[entry.line - 1].rsplit(b" ", 2)[0]
        want = [ln for n, ln in enumerate(old, 1) if n not in entry.lines[1:]]
        want[entry.line - 1:entry.line] = [head + b" 0 159", head + b" 1326 24360"]
        assert out.read_bytes().split(b"\n") == want
    else:  # fallback: the run file changed or is gone since it was read
        src = tmp_path / "copy.run"
        shutil.copyfile(real, src)
        run = read_run(src)
        if d["how"] == "changed":
            src.write_bytes(src.read_bytes().replace(b"\n", b"\n# a line added later\n", 1))
        else:
            src.unlink()
        out = tmp_path / "saved.run"
        notes = ui.editor.save(out, run=run)
        assert len(notes) == 1 and case.expect in notes[0].message and notes[0].path == str(src)
        back = read_run(out)
        for topic, entries in run.topics.items():
            assert [e.article for e in back.topics[topic]] == [e.article for e in entries]
            for e, b in zip(entries, back.topics[topic]):
                assert (e.passages is None and b.passages is None) or np.array_equal(e.passages, b.passages)
