"""Hostile files handed to the window: every way in (File menu, recent files, drag and
drop, the command line's ``start``) ends in a message box naming the path and the reason, or a
warning in the log and the status bar, never a traceback; the window keeps what it had and
does not freeze.

Each row starts from a window showing the shipped sample (its qrels, one run, its collection,
no dialogs suppressed), opens the row's input through the row's path (``via``), and checks:

- ``ERROR``: the window's message box (:attr:`MainWindow.error_box`, opened non-modally) names the
  path and holds ``expect``; the loaded run, qrels and collection are unchanged;
- ``WARNING``: ``expect`` is in the log and in the status bar's warning summary; no message box.

Then a zero-delay timer must fire before a 1 s watchdog goes off (``helpers.gui.assert_answers``:
a freeze guard, 10x the 100 ms aim; the event loop is not blocked): at once when the row loads
nothing else, and again once every background job has ended (none hangs on a FIFO). An unexpected
exception anywhere fails the row (``qt_default_raising``: the excepthook is pytest-qt's).

An empty run is a WARNING by decision: it is a well-formed file with nothing in it; the
window takes it (the ranked list empties, the run stays in the Run box) and says so, as the
CLI would print zero means with the warning.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.gui import assert_answers

from readsim.app.background import activity
from readsim.core.samples import sample

from helpers.hostile_window import GOOD_RUN, open_via

from .cases import ERROR, WARNING, Case

GOOD_QRELS = "2026001 Q0 900001 1635 3244 414 414:146 1374:1113 2493:376\n"


# -- inputs: each maker takes the test's tmp_path and returns the path to open ----------------
def _missing(tmp: Path) -> Path:
    return tmp / "does-not-exist.txt"


def _folder(tmp: Path) -> Path:
    (tmp / "a-folder").mkdir()
    return tmp / "a-folder"


def _fifo(tmp: Path) -> Path:
    os.mkfifo(tmp / "pipe.run")  # opening it would block until a writer comes: never opened
    return tmp / "pipe.run"


def _file(name: str, data: bytes):
    def make(tmp: Path) -> Path:
        (tmp / name).write_bytes(data)
        return tmp / name
    return make


def _empty_collection(tmp: Path) -> Path:
    (tmp / "coll").mkdir()
    (tmp / "coll" / "README.csv").write_text("the articles were not copied")
    return tmp / "coll"


def _deep_nul(tmp: Path) -> Path:
    good = GOOD_RUN.encode() * 60  # past the first 4 KiB the window sniffs: the reader's own check
    (tmp / "late-nul.run").write_bytes(good + b"2026001 Q0 900002 3 0.8 hostile 0\x00 10\n")
    return tmp / "late-nul.run"


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
OTHER_TOPICS = "".join(f"20090{i:02d} Q0 900001 1 1.0 hostile 0 10\n" for i in range(1, 6))

CASES = [
    Case("missing-run", "File > Open run on a path that does not exist", ERROR, "run file not found",
         {"via": "menu", "kind": "run", "make": _missing}),
    Case("missing-qrels", "a qrels path that does not exist", ERROR, "qrels file not found",
         {"via": "load", "kind": "qrels", "make": _missing}),
    Case("missing-topics", "a topics path that does not exist", ERROR, "topics file not found",
         {"via": "load", "kind": "topics", "make": _missing}),
    Case("folder-as-run", "a folder opened as a run", ERROR, "is a folder, not a run file",
         {"via": "load", "kind": "run", "make": _folder}),
    Case("folder-as-qrels", "a folder opened as qrels", ERROR, "is a folder, not a qrels file",
         {"via": "load", "kind": "qrels", "make": _folder}),
    Case("folder-as-topics", "a folder opened as topics (File menu)", ERROR, "is a folder, not a topics file",
         {"via": "menu", "kind": "topics", "make": _folder}),
    Case("recent-deleted", "File > Recent files: a run deleted since it was opened", ERROR, "run file not found",
         {"via": "recent", "kind": "run", "make": _file("gone.run", GOOD_RUN.encode())}),
    Case("recent-collection-deleted", "File > Recent files: a collection folder deleted since", ERROR,
         "collection folder not found", {"via": "recent", "kind": "collection", "make": _empty_collection}),
    Case("fifo-as-run", "a FIFO (named pipe, no writer) opened as a run", ERROR, "is a FIFO (named pipe)",
         {"via": "load", "kind": "run", "make": _fifo}),
    Case("fifo-dropped", "a FIFO dropped on the window (guessing its kind must not open it)", ERROR,
         "is a FIFO (named pipe)", {"via": "drop", "make": _fifo}),
    Case("empty-qrels", "an empty qrels file (a comment only)", WARNING, "no judgement (the qrels file is empty)",
         {"via": "load", "kind": "qrels", "make": _file("empty.qrels", b"# nothing yet\n")}),
    Case("qrels-no-relevant", "qrels whose only topic has no relevant article", WARNING,
         "judged topic 2026001 has no relevant article",
         {"via": "load", "kind": "qrels", "make": _file("nonrel.qrels", b"2026001 Q0 900001 0 3244\n")}),
    Case("empty-run", "an empty run file (decided: a warning, the ranked list empties)", WARNING,
         "no result line (the run is empty)", {"via": "load", "kind": "run", "make": _file("empty.run", b"")}),
    Case("run-topics-not-in-qrels", "a run with 5 topics the qrels never judged (and the judged one)", WARNING,
         "5 topics of the run (first: 2009001, 2009002, 2009003) are not in the qrels",
         {"via": "load", "kind": "run", "make": _file("other.run", (GOOD_RUN + OTHER_TOPICS).encode())}),
    Case("run-none-judged", "a run of another year: none of its topics judged (started from the command line)",
         WARNING, "none of the 5 topics of the run (first: 2009001, 2009002, 2009003) is in the qrels",
         {"via": "start", "kind": "run", "make": _file("2009.run", OTHER_TOPICS.encode())}),
    Case("run-articles-not-in-collection", "a run retrieving articles the collection lacks", WARNING,
         "2 of the 4 articles of the run (first: 777, 778) are not in the collection",
         {"via": "drop", "make": _file("lacking.run", (GOOD_RUN + "2026001 Q0 777 3 0.8 hostile 0 10\n"
                                                        "2026001 Q0 778 4 0.7 hostile 0 10\n").encode())}),
    Case("empty-collection", "a collection folder without any article XML", WARNING,
         "no article (no .xml, .txt, .md or .html file) in the collection folder",
         {"via": "menu", "kind": "collection", "make": _empty_collection}),
    Case("missing-collection", "a collection folder that does not exist", ERROR, "collection folder not found",
         {"via": "load", "kind": "collection", "make": _missing}),
    Case("file-as-collection", "a file opened as the collection folder", ERROR, "not a folder",
         {"via": "load", "kind": "collection", "make": _file("notes.txt", b"hello\n")}),
    Case("binary-as-run", "random binary data opened as a run", ERROR, "binary data (a NUL byte), not a run file",
         {"via": "load", "kind": "run", "make": _file("blob.run", bytes(range(256)) * 8)}),
    Case("qrels-as-run", "the qrels file opened as a run (7 fields would read as an XPath)", ERROR,
         "this looks like a qrels file", {"via": "load", "kind": "run", "make": _file("q.txt", GOOD_QRELS.encode())}),
    Case("run-as-qrels", "a run opened as qrels", ERROR, "this looks like a run",
         {"via": "load", "kind": "qrels", "make": _file("r.txt", GOOD_RUN.encode())}),
    Case("topics-as-run", "the topics XML opened as a run", ERROR, "this looks like a topics file, not a run file",
         {"via": "load", "kind": "run", "make": _file("t.xml", sample().topics.read_bytes())}),
    Case("run-as-topics", "a run opened as topics", ERROR, "this looks like a run",
         {"via": "load", "kind": "topics", "make": _file("r2.txt", GOOD_RUN.encode())}),
    Case("latin1-run", "a run in Latin-1 (a run id with é)", ERROR, "not UTF-8 text",
         {"via": "load", "kind": "run",
          "make": _file("latin1.run", "2026001 Q0 900001 1 1.0 caf\u00e9 0 10\n".encode("latin-1"))}),
    Case("nul-past-the-head", "a NUL byte inside a line, past the first 4 KiB", ERROR, "control character U+0000",
         {"via": "load", "kind": "run", "make": _deep_nul}),
    Case("dropped-png", "a PNG image dropped on the window", ERROR, "binary data (a NUL byte)",
         {"via": "drop", "make": _file("picture.png", PNG)}),
    Case("start-folder-as-run", "readsim --run FOLDER (start, past the argument check)", ERROR,
         "is a folder, not a run file", {"via": "start", "kind": "run", "make": _folder}),
    Case("start-missing-qrels", "readsim --qrels MISSING --run GOOD: the run loads, the qrels is reported", ERROR,
         "qrels file not found", {"via": "start", "kind": "qrels", "make": _missing}),
]


# -- the window, the ways in (helpers/hostile_window.py), the checks ----------------------------
@pytest.fixture
def window(sample_window_shared):
    """The module's window with dialogs on, showing the sample's qrels, good run and collection
    again for each row (conftest.py)."""
    return sample_window_shared


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_window_tells_about_the_file(qtbot, window, case, tmp_path, monkeypatch):
    session = window.session
    before = (session.run, session.qrels, session.collection)
    path = case.data["make"](tmp_path)
    open_via(window, case, path, monkeypatch, tmp_path)
    if case.outcome == ERROR:
        qtbot.waitUntil(lambda: window.error_box is not None and window.error_box.isVisible(), timeout=10_000)
        if case.data["via"] != "start":  # nothing else loads: the box alone must not hold the loop
            assert_answers(qtbot)
        text = window.error_box.text()
        assert f"{path}" in text and case.expect in text, text
        assert "Traceback" not in text
        assert f"error: {path}" in window.log.toPlainText()
        qtbot.waitUntil(lambda: activity().count == 0, timeout=10_000)  # no worker blocked (FIFO)
        assert_answers(qtbot)
        if case.data["via"] != "start":
            assert (session.run, session.qrels, session.collection) == before  # the window keeps what it had
        else:
            assert session.run is not None  # start loaded the good files it was given
        window.error_box.close()
        qtbot.waitUntil(lambda: window.error_box is None, timeout=2000)
    else:
        qtbot.waitUntil(lambda: case.expect in window.warnings_text(), timeout=10_000)
        qtbot.waitUntil(lambda: activity().count == 0, timeout=10_000)
        assert_answers(qtbot)
        assert case.expect in window.log.toPlainText()
        assert any(case.expect in d.message and Path(d.path).name == path.name for d in session.coverage)
        assert window.error_box is None and window.errors_shown == []
        if case.id == "empty-run":
            assert session.rows == [] and session.current is None and window.model.rowCount() == 0
