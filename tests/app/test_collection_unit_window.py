"""The window's unit and lengths from the collection (reference 2.11, 2.13), on hand-made files:
characters unless ``--unit`` says otherwise, and a document whose length cannot be read is an
error message, not a traceback."""

from __future__ import annotations

import json

from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session


def _files(tmp_path, text: bytes):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_bytes(text)
    qrels = tmp_path / "q.jsonl"
    qrels.write_text(json.dumps({"topic": "1", "doc": "a", "start": 0, "end": 2}) + "\n")
    run = tmp_path / "r.jsonl"
    run.write_text(json.dumps({"topic": "1", "doc": "a", "whole": True, "run": "r"}) + "\n")
    return folder, qrels, run


def _window(qtbot, unit=None) -> MainWindow:
    window = MainWindow(Session(unit), show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()
    return window


def test_characters_unless_the_unit_is_given(qtbot, tmp_path):
    """'ééab': 4 characters, 6 bytes; relevant [0, 2), the whole document retrieved:
    P_set = 2/4 = 0.5 in characters, 2/6 in bytes (the first 'é')."""
    folder, qrels, run = _files(tmp_path, "ééab".encode())
    for unit, length, p_set in ((None, 4, 0.5), ("bytes", 6, 2 / 6)):
        window = _window(qtbot, unit)
        s = window.session
        s.open_files(folder, qrels, [run], None, "1", "a")
        qtbot.waitUntil(lambda s=s: activity().count == 0 and s.current is not None, timeout=20_000)
        assert s.unit == ("chars" if unit is None else "bytes")
        assert s.qrels.judgement("1", "a").doc_length == length
        assert abs(window.scores.exact()["P_set"] - p_set) < 1e-12


def test_a_document_whose_length_cannot_be_read_is_a_message(qtbot, tmp_path):
    folder, qrels, run = _files(tmp_path, b"ab\xff")
    window = _window(qtbot)
    s = window.session
    s.open_files(folder, qrels, [run], None, "1")
    qtbot.waitUntil(lambda: activity().count == 0 and bool(s.errors), timeout=20_000)
    assert any(f"{folder / 'a.txt'}:1: not UTF-8 text" in e for e in s.errors)
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


def test_the_qrels_take_the_lengths_whichever_opens_first(qtbot, tmp_path):
    """'ééab' (4 characters): the qrels give no doc_length, so until a collection is open the
    length is the spans' end (2); the collection opened after the qrels, or the qrels after the
    collection, gives 4 (read in the worker, reference 2.11)."""
    folder, qrels, run = _files(tmp_path, "ééab".encode())
    for first, then in (({"qrels": qrels, "runs": [run]}, {"collection": folder}),
                        ({"collection": folder}, {"qrels": qrels, "runs": [run]})):
        s = _window(qtbot).session
        s.open_files(**first)
        qtbot.waitUntil(lambda s=s: activity().count == 0, timeout=20_000)
        if s.qrels is not None:
            assert s.qrels.judgement("1", "a").doc_length == 2
        s.open_files(**then)
        qtbot.waitUntil(lambda s=s: activity().count == 0 and s.qrels is not None and s.collection is not None,
                        timeout=20_000)
        assert s.qrels.judgement("1", "a").doc_length == 4
        assert s.errors == []
