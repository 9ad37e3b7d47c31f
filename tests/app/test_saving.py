"""Saving and exporting in the window, acting as a user (nothing lost: reference section
2.9): a save that fails half-way leaves the previous file byte for byte, says so in a message
box and keeps the edits; saving over the run's own file keeps copying its lines; exports made
after editing say so; the Export menu and the proposed file names are plain and safe.
"""

from __future__ import annotations

import csv
import errno
import json
import os
import re
import shutil

import pytest
from PySide6.QtWidgets import QMessageBox

from readsim.app import export
from readsim.app.background import activity
from readsim.app.session import Loaded
from readsim.core import atomic
from readsim.core.collection import Collection
from readsim.core.formats import read_run

from hostile.test_saving import HalfFull  # tests/ is on sys.path (its conftest)

TOPIC = "2009074"
PAGERANK, FIRST = "23724", (159, 1326)  # PageRank's first relevant passage
EDITED = [[0, 159], [1326, 25686]]


def half_full(monkeypatch):
    """The disk fills half-way through the next write of :func:`atomic_write`."""
    fdopen = os.fdopen
    monkeypatch.setattr(atomic, "_fdopen", lambda *a, **k: HalfFull(fdopen(*a, **k)))


def wait_loaded(qtbot, session, article):
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and session.current.name == article, timeout=20_000)


def visible_box(w):
    return next((b for b in w.findChildren(QMessageBox) if b.isVisible()), None)


# The tests that save take a window of their own (the editor then keeps the file's name, and
# compares with the run as saved); those that only export share the module's (real_window_shared).
def test_a_save_failing_half_way_keeps_the_previous_file_and_the_edits(real_window, qtbot, tmp_path, monkeypatch):
    w = real_window(PAGERANK)
    ui = w.editing
    target = tmp_path / "edited.run"
    assert ui.editor.remove(*FIRST) and ui.save_as(str(target))
    previous = target.read_bytes()
    assert ui.editor.remove(5913, 7778)  # a second edit, unsaved
    w.show_dialogs = True
    half_full(monkeypatch)
    try:
        assert ui.save_as(str(target)) is False
        qtbot.waitUntil(lambda: visible_box(w) is not None)
        box = visible_box(w)
        assert str(target) in box.text() and "No space left on device" in box.text() and "unchanged" in box.text() and "unsaved" in box.text()
        box.resize(box.sizeHint())
        box.grab().save(str(tmp_path / "save-failed.png"))  # looked at by hand: path, reason, what is kept
        assert target.read_bytes() == previous and set(os.listdir(tmp_path)) - {"settings"} == {"edited.run", "save-failed.png"}
        # the edits stay in memory, unsaved
        assert w.windowTitle().startswith("*") and not ui.editor.stack.isClean()
        assert w.session.run.article(TOPIC, PAGERANK).passages.tolist() == [[0, 159], [1326, 5913], [7778, 25686]]
        assert "Error" in w.status.text()
        box.close()
    finally:
        w.show_dialogs = False  # a question on closing would block: pytest-qt closes the window first
    monkeypatch.undo()  # the disk has room again: Ctrl+S saves to the same file
    assert ui.save()
    assert not w.windowTitle().startswith("*") and ui.editor.stack.isClean()
    assert read_run(target).article(TOPIC, PAGERANK).passages.tolist() == [[0, 159], [1326, 5913], [7778, 25686]]


def test_saving_over_the_run_file_keeps_copying_its_lines(qtbot, real, tmp_path):
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session

    path = tmp_path / "copy.run"
    shutil.copyfile(real["paths"] / "runs" / "bert-passages.run", path)
    original = path.read_bytes()
    w = MainWindow(Session(), show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.session.adopt(Loaded(collection=Collection(real["collection"]), qrels=real["qrels"], runs=[read_run(path)],
                           topics=real["topics"]), TOPIC, PAGERANK)
    wait_loaded(qtbot, w.session, PAGERANK)
    ui = w.editing
    assert ui.editor.remove(*FIRST) and ui.save_as(str(path))
    first = path.read_bytes()
    lines = first.split(b"\n")
    assert len(lines) < len(original.split(b"\n"))  # PageRank's interleaved lines became two
    # a second save in place: the lines just written are copied, only the new edit changes
    assert ui.editor.remove(5913, 7778) and ui.save()
    second = path.read_bytes().split(b"\n")
    def others(ls):
        return [ln for ln in ls if not ln.startswith(b"2009074 Q0 23724 ")]

    assert len(second) == len(lines) + 1 and others(second) == others(lines)
    assert "note" not in w.status.text()
    # undo both edits and save: the run reads back as the original
    ui.act_undo.trigger()
    ui.act_undo.trigger()
    assert ui.save()
    back, orig = read_run(path), real["run"]
    assert [e.article for e in back.topics[TOPIC]] == [e.article for e in orig.topics[TOPIC]]
    assert back.article(TOPIC, PAGERANK).passages.tolist() == [[0, 25686]]


def test_a_run_file_changed_on_disk_is_saved_from_memory_with_a_note(qtbot, real, tmp_path):
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session

    path = tmp_path / "copy.run"
    shutil.copyfile(real["paths"] / "runs" / "bert-passages.run", path)
    w = MainWindow(Session(), show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.session.adopt(Loaded(collection=Collection(real["collection"]), qrels=real["qrels"], runs=[read_run(path)],
                           topics=real["topics"]), TOPIC, PAGERANK)
    wait_loaded(qtbot, w.session, PAGERANK)
    assert w.editing.editor.remove(*FIRST)
    path.write_bytes(b"# changed by someone else\n" + path.read_bytes())
    out = tmp_path / "saved.run"
    assert w.editing.save_as(str(out))
    assert "changed since it was read" in w.status.text()
    assert "changed since it was read" in w.log.toPlainText() and str(path) in w.log.toPlainText()
    assert read_run(out).article(TOPIC, PAGERANK).passages.tolist() == EDITED


def test_exports_after_editing_name_the_edits(real_window, real, tmp_path):
    w = real_window(PAGERANK)
    source = real["run"].path
    data = json.loads(export.export_scores(w, tmp_path / "before.json").read_text())
    assert data["run_file"] == source
    assert w.editing.editor.remove(*FIRST) and w.editing.editor.remove(5913, 7778)
    w.editing.act_undo.trigger()
    w.editing.act_undo.trigger()
    w.editing.act_redo.trigger()  # one edit applied, one undone
    want = f"edited from {source}, 1 edit"
    assert json.loads(export.export_scores(w, tmp_path / "s.json").read_text())["run_file"] == want
    rows = list(csv.DictReader((export.export_scores(w, tmp_path / "s.csv")).open(encoding="utf-8")))
    assert {r["run_file"] for r in rows} == {want}
    assert json.loads(export.export_ranked_list(w, tmp_path / "r.json").read_text())["run_file"] == want
    rows = list(csv.DictReader((export.export_ranked_list(w, tmp_path / "r.csv")).open(encoding="utf-8")))
    assert {r["run_file"] for r in rows} == {want}
    assert w.editing.save_as(str(tmp_path / "e.run"))
    saved = json.loads(export.export_scores(w, tmp_path / "t.json").read_text())["run_file"]
    assert saved == f"{want}, saved as {tmp_path / 'e.run'}"


def test_export_menu_is_plain_and_proposes_safe_names(real_window_shared, monkeypatch, tmp_path):
    w = real_window_shared(PAGERANK)
    dock = getattr(w, "topic_dock", None) or next((d for d in w.findChildren(type(w.editing.dock))
                                                  if "topic" in d.objectName().lower()), None)
    if dock is not None:
        dock.show()
    w.export_menu.aboutToShow.emit()
    texts = [a.text() for a in w.export_menu.actions() if a.text()]
    assert len(texts) >= 5
    for t in texts:
        assert not re.search(r"<|>|&[a-z#0-9]+;|style=", t), t
    asked = []
    monkeypatch.setattr(export, "_ask", lambda window, title, filters, stem: asked.append((title, stem)) or None)
    for a in w.export_menu.actions():
        if a.text() and a.isEnabled():
            a.trigger()
    assert len(asked) >= 4
    for title, stem in asked:
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*\.(png|csv)", stem), stem
        assert "<" not in title and "&" not in title
    assert export.plain("<span style='color:#1f5fbf'>&#9473; gP[r] / F(0.25)</span> &nbsp; x") == "gP[r] / F(0.25) x"
    assert export.safe_name("AgP/F(0.25) <i>x</i>") == "AgP-F-0.25-x"
    assert export.safe_name("../../etc/passwd") == "etc-passwd" and export.safe_name("...") == "export"


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_pictures_are_rendered_before_anything_is_written(real_window_shared, tmp_path, monkeypatch, suffix):
    w = real_window_shared(PAGERANK)
    target = tmp_path / f"a{suffix}"
    target.write_bytes(b"previous")
    monkeypatch.setattr(atomic.os, "replace", lambda *a: (_ for _ in ()).throw(OSError(errno.EXDEV, "Invalid cross-device link")))
    with pytest.raises(OSError) as info:
        export.export_plot(w.plot.plot, target)
    assert info.value.filename == str(target) and target.read_bytes() == b"previous"
    assert os.listdir(tmp_path) == [target.name]
