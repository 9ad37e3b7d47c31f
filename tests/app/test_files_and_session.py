"""Dropped files, recent files (in a temporary settings folder), the background helper."""

from __future__ import annotations

import pytest

from readsim.app.background import activity, run_in_background
from readsim.app.files import add_recent, app_settings, guess_kind, recent_files
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session


def test_guess_kind(tmp_path, inex):
    (tmp_path / "a.qrels").write_text("x")
    (tmp_path / "q.txt").write_text("2009001 Q0 1164 23 74827 100 0:23\n")
    (tmp_path / "r.txt").write_text("2009001 Q0 1164 1 0.5 myrun 0 23\n")
    assert guess_kind(tmp_path) == "collection"
    assert guess_kind(tmp_path / "a.qrels") == "qrels"
    assert guess_kind(tmp_path / "q.txt") == "qrels"
    assert guess_kind(tmp_path / "r.txt") == "run"
    assert guess_kind(inex / "topics" / "inex2009-topics.xml") == "topics"
    assert guess_kind(inex / "topics" / "inex2009-2010-titles.indri.xml") == "topics"
    assert guess_kind(inex / "runs" / "bert-passages.run") == "run"
    (tmp_path / "x.xml").write_text('<inex-submission run-id="x"><topic topic-id="1"><result><file>1</file>'
                                    '</result></topic></inex-submission>')
    assert guess_kind(tmp_path / "x.xml") == "run"


def test_settings_are_fresh_and_recent_files_round_trip(fresh_settings, tmp_path):
    assert recent_files() == []
    assert app_settings().fileName().startswith(fresh_settings)
    add_recent("qrels", tmp_path / "a.qrels")
    add_recent("run", tmp_path / "b.run")
    add_recent("qrels", tmp_path / "a.qrels")
    assert recent_files() == [("qrels", str(tmp_path / "a.qrels")), ("run", str(tmp_path / "b.run"))]


def test_background_result_and_error_come_back(qtbot):
    got = []
    with qtbot.waitSignal(activity().idle, timeout=5000):
        run_in_background(None, lambda: 6 * 7, got.append)
    assert got == [42]

    def boom():
        raise ValueError("file.qrels:3: bad")

    with qtbot.waitSignal(activity().failed, timeout=5000) as blocker:
        run_in_background(None, boom, got.append)
    assert blocker.args == ["file.qrels:3: bad"]


def test_dropped_files_open_and_errors_show(qtbot, inex):
    session = Session()
    w = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.open_paths([str(inex / "articles"), str(inex / "qrels" / "inex2009-2010.qrels"),
                  str(inex / "runs" / "bert-passages.run"), str(inex / "topics" / "inex2009-topics.xml")])
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=20_000)
    assert session.qrels is not None and session.collection is not None and session.topics
    assert session.topic == "2009001" and w.model.rowCount() == len(session.run.topics["2009001"])
    assert {k for k, _ in recent_files()} == {"collection", "qrels", "run", "topics"}
    assert "warning" in w.log.toPlainText()  # the run's interleaving diagnostics reach the log
    with qtbot.waitSignal(session.error, timeout=5000):
        session.load("qrels", inex / "articles" / "1164.xml")
    qtbot.waitUntil(lambda: activity().count == 0, timeout=5000)
    assert w.status.text().startswith("Error: ") and "1164.xml" in w.status.text()


def test_window_state_is_remembered(qtbot):
    w = MainWindow(Session(), show_dialogs=False)
    qtbot.addWidget(w)
    w.resize(760, 560)  # within the offscreen screen (800x600)
    w.save_state()
    w2 = MainWindow(Session(), show_dialogs=False)
    qtbot.addWidget(w2)
    assert (w2.width(), w2.height()) == (760, 560)
    assert not app_settings().value("window/splitter").isEmpty()


def test_missing_sample_gives_an_empty_window(qtbot, monkeypatch, tmp_path, capsys):
    import readsim.engine.samples as samples
    from readsim.app import main as main_mod

    real = samples.sample

    def fake():
        s = real()
        return type(s)(tmp_path / "none", tmp_path / "none.qrels", (), tmp_path / "t.xml")

    monkeypatch.setattr(samples, "sample", fake)
    code = main_mod.main(["--screenshot", str(tmp_path / "x.png")])
    assert code == 1 and "shipped sample is missing" in capsys.readouterr().err
