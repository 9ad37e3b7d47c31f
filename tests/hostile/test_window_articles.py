"""Hostile articles opened through the window: each row's article is ranked by
the run and opened as a double click in the ranked list opens it
(``RankedListView.article_activated``), from a window showing a small good article.

For every row a 10 ms timer probes the GUI thread from the click until every background job
has ended: no turn may freeze the GUI thread (``helpers.gui.Probe``: 1 s of its CPU, 10x the
100 ms no-stall aim that bench/bench_loading.py measures; the window answers while the article
is read, laid out and built, and while an error is shown). Then:

- ``SAME``: the article is shown (``Session.current``), its view holds every layout block;
- ``ERROR``: the window shows ``path: reason`` (``path:line: reason`` where there is a line) in
  its status bar and log (``MainWindow.errors_shown``), and the previous article stays shown.

The huge article is a sparse file one byte over the engine's budget (nothing is written, and
nothing may be read). A large article within the budget (12 MB, built in slices with progress,
no freeze) and its cancelling (Esc, the Cancel button) are tests/app/test_article_loading.py's.

The rows share one window (:func:`window_for`; building one cost most of a row's time), each
adopting the data again and waiting for the good article, as a fresh window starts; each opens
an article no other row opens.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.gui import Probe, write_article
from PySide6.QtWidgets import QApplication

from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded
from readsim.core.collection import Collection
from readsim.core.formats import read_qrels, read_run
from readsim.core.safe_xml import MAX_ARTICLE_BYTES

from helpers.hostile_articles import TRUNCATED, clean, deep_wide

from .cases import ERROR, SAME, Case

TOPIC = "2026001"
GOOD = "901"


def _bytes(data: bytes):
    return lambda folder, name: (folder / f"{name}.xml").write_bytes(data)


def _huge(folder: Path, name: str) -> None:
    with open(folder / f"{name}.xml", "wb") as f:
        f.truncate(MAX_ARTICLE_BYTES + 1)


def _fifo_doctype(folder: Path, name: str) -> None:
    os.mkfifo(folder / "pipe.dtd")
    (folder / f"{name}.xml").write_bytes(clean(doctype='<!DOCTYPE article SYSTEM "pipe.dtd">'))


def _folder(folder: Path, name: str) -> None:
    (folder / f"{name}.xml").mkdir()


def _fifo(folder: Path, name: str) -> None:
    os.mkfifo(folder / f"{name}.xml")


CASES = [
    Case("huge_over_budget", "a 32 MB + 1 byte article (sparse): over the engine's budget", ERROR,
         "over the budget of 33,554,432 bytes", {"name": "950", "build": _huge, "line": None}),
    Case("deep_2000", "2,000 nested sections, 10 leaves each", SAME, "word",
         {"name": "952", "build": _bytes(deep_wide(2000, 10))}),
    Case("doctype_dev_stdin", "DOCTYPE names /dev/stdin (a silent pipe): not read, no block", SAME, "Fresnel",
         {"name": "953", "build": _bytes(clean(doctype='<!DOCTYPE article SYSTEM "/dev/stdin">')), "stdin": True}),
    Case("doctype_fifo", "DOCTYPE names a FIFO beside the article: not opened, no block", SAME, "Fresnel",
         {"name": "954", "build": _fifo_doctype}),
    Case("malformed", "XML cut after an opening <p> on line 13", ERROR, "not well-formed XML",
         {"name": "955", "build": _bytes(TRUNCATED), "line": 13}),
    Case("empty", "an empty file", ERROR, "empty file", {"name": "956", "build": _bytes(b""), "line": 1}),
    Case("binary", "binary junk (NUL bytes)", ERROR, "binary file",
         {"name": "957", "build": _bytes(bytes(range(256)) * 4), "line": 1}),
    Case("folder", "the article is a folder named 958.xml", ERROR, "is a folder",
         {"name": "958", "build": _folder, "line": None}),
    Case("fifo", "the article is a FIFO: refused, never opened (no block)", ERROR, "not a regular file",
         {"name": "959", "build": _fifo, "line": None}),
]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """The collection (every row's article and the good one), qrels and a run ranking them all,
    read once for the module (the collection keeps what it parsed, as the window's does)."""
    top = tmp_path_factory.mktemp("window_articles")
    folder = top / "articles"
    folder.mkdir()
    write_article(folder / f"{GOOD}.xml", GOOD, 0.01)
    names = []
    for case in CASES:
        name = case.data["name"]
        if case.data["build"] is not None:
            case.data["build"](folder, name)
        if name not in names:
            names.append(name)
    (top / "q.qrels").write_text(f"{TOPIC} Q0 {GOOD} 100 5000 0 0:100\n", encoding="utf-8")
    lines = [f"{TOPIC} Q0 {GOOD} 1 9 r 0 500\n"]
    lines += [f"{TOPIC} Q0 {name} {rank} {8 - rank / 100} r 0 50\n" for rank, name in enumerate(names, 2)]
    (top / "r.run").write_text("".join(lines), encoding="utf-8")
    return {"collection": Collection(folder), "qrels": read_qrels(top / "q.qrels"),
            "run": read_run(top / "r.run"), "folder": folder, "shared_opened": set()}


def window_for(case: Case, data, qtbot, request) -> MainWindow:
    """The module's window (dialogs off, its jobs done), whose rows must each open an article of
    their own (see the module docstring)."""
    assert case.data["name"] not in data["shared_opened"]
    data["shared_opened"].add(case.data["name"])
    window = request.getfixturevalue("shared_quiet_window")
    qtbot.waitUntil(lambda: activity().count == 0 and window.session.loading_article() is None, timeout=60_000)
    return window


def settle(window) -> None:
    """Deliver what the window's opening left pending (layouts, its first full paint): that
    turn belongs to the opening, not to the load under test."""
    for _ in range(3):
        QApplication.sendPostedEvents()
        QApplication.processEvents()
    window.repaint()


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_window_article(case: Case, data, qtbot, request):
    if case.data.get("stdin"):
        request.getfixturevalue("stdin_silent")
    window = window_for(case, data, qtbot, request)
    session = window.session
    before = session.current  # the shared window's: the previous row's article
    session.adopt(Loaded(collection=data["collection"], qrels=data["qrels"], runs=[data["run"]]), TOPIC, GOOD)
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None and session.current is not before
                    and session.current.name == GOOD, timeout=60_000)
    name = case.data["name"]
    path = data["folder"] / f"{name}.xml"
    assert window.model.row_of(name) >= 0  # ranked: opened from the ranked list
    percents = []

    def loading(_name: str, percent: int) -> None:
        percents.append(percent)

    session.article_loading.connect(loading)
    try:
        check_article(case, window, qtbot, path, percents)
    finally:  # the shared window's session outlives the row
        session.article_loading.disconnect(loading)


def check_article(case: Case, window, qtbot, path: Path, percents: list) -> None:
    """Open the row's article from the ranked list as a double click does; check the outcome."""
    session, name = window.session, case.data["name"]
    errors_before = len(window.errors_shown)
    settle(window)
    probe = Probe()
    window.table.article_activated.emit(name)  # as a double click on its row
    qtbot.waitUntil(lambda: activity().count == 0 and session.loading_article() is None, timeout=60_000)
    qtbot.wait(50)  # a few turns after the load: the first paint of what was shown
    probe.assert_no_freeze()
    assert percents[0] == -1 and percents[-1] == -2
    if case.outcome == ERROR:
        assert session.current.name == GOOD  # the previous article stays
        shown = window.errors_shown[errors_before:]
        assert len(shown) == 1, shown
        where = f"{path}:{case.data['line']}" if case.data["line"] else str(path)
        assert shown[0].startswith(f"{where}: ") and case.expect in shown[0]
        assert window.status.text() == f"Error: {shown[0]}"
        return
    assert case.outcome == SAME
    cur = session.current
    assert cur.name == name and case.expect in cur.article.text
    view = window.article.view
    assert view.layout_ is cur.layout and view.document().blockCount() == len(cur.layout.blocks)
