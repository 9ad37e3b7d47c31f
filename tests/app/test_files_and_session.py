"""Dropped files, recent files (in a temporary settings folder), the background helper."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt

from readsim.app.background import activity, input_error_text, run_in_background
from readsim.app.input_files import add_recent, app_settings, guess_kind, recent_files
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session
from readsim.core.errors import InputError


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


def test_recent_files_added_at_once_as_one_by_one(fresh_settings, tmp_path):
    """add_recent_files (one settings write, the window's loads) orders them as add_recent in turn."""
    from readsim.app.input_files import add_recent_files

    names = [("qrels", "a.qrels"), ("run", "b.run"), ("collection", "c"), ("qrels", "a.qrels")]
    for i in range(12):
        add_recent("run", tmp_path / f"old{i}.run")
    for kind, name in names:
        add_recent(kind, tmp_path / name)
    one_by_one = recent_files()
    for i in range(12):
        add_recent("run", tmp_path / f"old{i}.run")
    add_recent_files([(kind, tmp_path / name) for kind, name in names])
    assert recent_files() == one_by_one and len(one_by_one) == 10
    assert one_by_one[:3] == [("qrels", str(tmp_path / "a.qrels")), ("collection", str(tmp_path / "c")),
                              ("run", str(tmp_path / "b.run"))]


def test_background_result_and_error_come_back(qtbot):
    got = []
    with qtbot.waitSignal(activity().idle, timeout=5000):
        run_in_background(None, lambda: 6 * 7, got.append)
    assert got == [42]

    def boom():
        raise InputError("file.qrels", 3, "bad")

    with qtbot.waitSignal(activity().failed, timeout=5000) as blocker:
        run_in_background(None, boom, got.append)
    assert blocker.args == ["file.qrels:3: bad"]


def test_background_os_error_is_path_and_reason_and_a_bug_keeps_its_traceback(qtbot, tmp_path):
    missing = tmp_path / "gone.run"
    with qtbot.waitSignal(activity().failed, timeout=5000) as blocker:
        run_in_background(None, lambda: open(missing), print)
    assert blocker.args == [f"{missing}: No such file or directory"]
    assert input_error_text(IsADirectoryError(21, "Is a directory", str(tmp_path))) == f"{tmp_path}: Is a directory"
    assert input_error_text(ZeroDivisionError("x")) is None

    def bug():
        raise ZeroDivisionError("a real bug")

    failed = []
    activity().failed.connect(failed.append)
    try:
        with qtbot.captureExceptions() as caught:
            with qtbot.waitSignal(activity().idle, timeout=5000):
                run_in_background(None, bug, print)
    finally:
        activity().failed.disconnect(failed.append)
    assert [type(e[1]) for e in caught] == [ZeroDivisionError] and failed == []  # the excepthook saw it


def test_dropped_files_open_and_errors_show(qtbot, inex):
    session = Session()
    w = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.open_paths([str(inex / "articles"), str(inex / "qrels" / "inex2009-2010.qrels"),
                  str(inex / "runs" / "bert-passages.run"), str(inex / "topics" / "inex2009-topics.xml")])
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=20_000)
    assert session.qrels is not None and session.collection is not None and session.topics
    # the first topic of the run with a relevant ranked article the collection holds, opened on
    # its best-ranked such article (never an empty pane)
    held = {p.stem for p in (inex / "articles").glob("*.xml")}
    first = next(t for t, entries in session.run.topics.items()
                 if any(e.article in held and session.qrels.judgement(t, e.article) is not None
                        and session.qrels.judgement(t, e.article).relevant for e in entries))
    assert session.topic == first and w.model.rowCount() == len(session.run.topics[first])
    assert session.current.name in held
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
    import readsim.core.samples as samples
    from readsim.app import main as main_mod

    real = samples.sample

    def fake():
        s = real()
        return type(s)(tmp_path / "none", tmp_path / "none.qrels", (), tmp_path / "t.xml")

    monkeypatch.setattr(samples, "sample", fake)
    code = main_mod.main(["--screenshot", str(tmp_path / "x.png")])
    assert code == 1 and "shipped sample is missing" in capsys.readouterr().err


def test_sniff_kind_reads_content_only_and_never_opens_a_fifo(tmp_path, inex):
    from readsim.app.input_files import sniff_kind

    (tmp_path / "q.run").write_text("\ufeff# judged\n2009001 Q0 1164 23 74827 100 0:23\n")
    (tmp_path / "nonrel").write_text("2009001 Q0 1164 0 74827\n")
    (tmp_path / "bep-only").write_text("2009001 Q0 1164 0 74827 0\n")  # could be either: unsure
    (tmp_path / "r.qrels").write_text("2009001 Q0 1164 1 0.5 myrun 0 23\n")
    (tmp_path / "b").write_bytes(b"2009001 Q0 1164 1 0.5 myrun 0 23\n\x00\x01")
    os.mkfifo(tmp_path / "fifo")
    assert sniff_kind(tmp_path / "q.run") == ("qrels", 2)
    assert sniff_kind(tmp_path / "nonrel") == ("qrels", 1)
    assert sniff_kind(tmp_path / "bep-only") == (None, None)
    assert sniff_kind(tmp_path / "r.qrels") == ("run", 1)
    assert sniff_kind(tmp_path / "b") == ("binary", 2)
    assert sniff_kind(tmp_path / "fifo") == (None, None) and guess_kind(tmp_path / "fifo") == "run"
    assert sniff_kind(inex / "topics" / "inex2009-topics.xml")[0] == "topics"
    assert sniff_kind(tmp_path / "missing") == (None, None)


def test_a_drop_loads_the_good_files_and_one_box_names_each_bad_one(qtbot, tmp_path):
    from readsim.core.samples import sample

    s = sample()
    session = Session()
    w = MainWindow(session, show_dialogs=True, restore=False)
    qtbot.addWidget(w)
    w.show()
    (tmp_path / "blob.bin").write_bytes(bytes(range(256)))
    missing = tmp_path / "missing.qrels"
    w.open_paths([str(s.collection), str(s.runs[0]), str(tmp_path / "blob.bin"), str(missing)])
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=10_000)
    assert session.run is not None and session.run.path == str(s.runs[0]) and session.qrels is None
    box = w.error_box
    assert box is not None and box.isVisible() and box.windowModality() != Qt.WindowModality.ApplicationModal
    assert f"{tmp_path / 'blob.bin'}:1: binary data (a NUL byte), not a run file" in box.text()
    assert f"{missing}: qrels file not found" in box.text()
    assert w.errors_shown == [t for t in box.text().split("\n\n")]
    assert {k for k, _ in recent_files()} == {"collection", "run"}  # only what loaded
    box.close()
    qtbot.waitUntil(lambda: w.error_box is None, timeout=2000)
    with qtbot.waitSignal(session.coverage_changed, timeout=10_000):  # the window is still usable
        session.load("qrels", s.qrels)
    qtbot.waitUntil(lambda: activity().count == 0, timeout=10_000)
    assert session.qrels is not None and w.error_box is None


def test_real_inputs_coverage_in_the_log_and_the_status_bar(qtbot, real_window):
    w = real_window()
    qtbot.waitUntil(lambda: activity().count == 0 and bool(w.session.coverage), timeout=20_000)
    run = w.session.run.path
    assert [d.path for d in w.session.coverage] == [run, w.session.qrels.path]
    summary = w.warnings_text()
    assert summary.startswith("2 input warnings: bert-passages.run: 10724 of the 11582 articles of the run (first: ")
    assert summary.endswith("— see View ▸ Log") and len(summary) < 200
    assert str(w.session.coverage[0]) in w.log.toPlainText() and str(w.session.coverage[0]) in w.warnings_label.toolTip()
    w.warnings_label.linkActivated.emit("log")
    assert w.log_dock.isVisible()
    w.session.check_coverage()  # the same warnings again: not logged twice
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
    assert w.log.toPlainText().count(str(w.session.coverage[0])) == 1
