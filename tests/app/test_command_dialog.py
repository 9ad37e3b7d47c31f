"""View ▸ Equivalent command (app/widgets/command_dialog.py) on the real INEX data: the dialog's
``readsim-eval`` line and its Python lines, run in a subprocess, print the numbers the score
panel and the topic view show."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence

from helpers.gui import keep_shot
from readsim.app.background import activity
from readsim.app.widgets.command_dialog import SHORTCUT, CommandDialog
from readsim.app.widgets.topic_view import DEFAULT_DOC

CLI_DECIMALS = 1e-6  # readsim-eval prints six decimals (reference 9.1): each value within half a unit of the 6th


def _shell(line: str) -> list[list[str]]:
    """The rows (tab-separated fields) the shell line prints, with this environment's readsim-eval first on PATH."""
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    done = subprocess.run(line, shell=True, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return [row.split("\t") for row in done.stdout.splitlines()]


def _python(code: str) -> dict[str, float]:
    """``measure -> value`` from the rows the Python lines print, exec'd in a new interpreter."""
    done = subprocess.run([sys.executable, "-c", "import sys; exec(sys.stdin.read())"], input=code,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return {m: float(v) for m, v in (row.split("\t") for row in done.stdout.splitlines())}


@pytest.fixture
def shared_window(real_window_shared, shared_real_window, qtbot):
    """The module's one window (``real_window_shared``) for the tests that change only what can be
    put back after them: the reader's settings and the topic view's measure (put back as a fresh
    window has them), the window's size, an entry point, passage edits (undone, the history
    emptied); the Equivalent command dialog, built on first use, is deleted after each test, so
    each test builds its own as in a fresh window. The test that saves the run (the editor then
    keeps the file's name and compares with the run as saved) takes a window of its own."""
    w = shared_real_window
    size = w.size()

    def open_(article: str | None = None):
        window = real_window_shared(article)
        window.topic_view.set_doc_kind(DEFAULT_DOC)
        assert window.findChild(CommandDialog) is None and not window.session.entries
        return window

    yield open_
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
    dlg = w.findChild(CommandDialog)
    if dlg is not None:
        dlg.close()
        dlg.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    if w.session.entries:
        w.session.set_entry(None)
    stack = w.editing.editor.stack
    while stack.canUndo():
        stack.undo()
    stack.clear()
    w.resize(size)
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


def _dialog(window, qtbot) -> CommandDialog:
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
    window.act_command.trigger()
    dlg = window.findChild(CommandDialog)
    assert dlg is not None and dlg.isVisible()
    return dlg


def test_view_menu_entry_and_a_free_shortcut(shared_window):
    w = shared_window()
    assert w.act_command in w.view_menu.actions() and w.act_command.text() == "Equivalent &command…"
    assert w.act_command.shortcut() == QKeySequence(SHORTCUT)
    others = [a for a in w.findChildren(QAction) if a is not w.act_command]
    assert all(QKeySequence(SHORTCUT) not in a.shortcuts() for a in others)


def test_the_article_command_prints_the_score_panels_numbers(shared_window, qtbot, tmp_path):
    w = shared_window("2193171")
    s = w.session
    s.set_settings(mode="document", screen=2000, tolerance=500)  # as the Reader controls set them
    qtbot.waitUntil(lambda: w.scores.value_text("LE(2000)") != "–", timeout=20_000)
    panel = w.scores.exact()
    # by hand, from the qrels line "2009074 Q0 2193171 366 2032 100 327:366" (relevant [100, 466) of
    # 2,032 bytes) and the run line "... 2193171 10 ... 0 1880" (retrieved [0, 1880)), read from byte 0:
    # ChP@2000 = 366/2000, P_set = 366/1880, R_set = 1, LE = 1 (byte 100 is on screen 1), and the T2I
    # reader stops at 500 non-relevant bytes (100 before, 400 after): T2IP(500) = 366/866
    hand = {"ChP@2000": 366 / 2000, "ChR@2000": 1.0, "P_set": 366 / 1880, "R_set": 1.0, "LE(2000)": 1.0,
            "T2IP(500)": 366 / 866, "T2IR(500)": 1.0}
    assert {m: panel[m] for m in hand} == pytest.approx(hand, abs=1e-12)
    dlg = _dialog(w, qtbot)
    line = dlg.text("article", "shell")
    assert line.startswith("readsim-eval ") and "--per-article" in line and "--reading document" in line
    assert dlg.notes["article"].isHidden()
    rows = _shell(line)
    assert {(r[1], r[2]) for r in rows} == {(s.topic, s.current.name)}  # the topic's article only
    cli = {r[0]: float(r[3]) for r in rows}
    assert set(cli) == set(panel)
    for name, value in panel.items():
        assert cli[name] == pytest.approx(value, abs=CLI_DECIMALS), name
    assert w.scores.value_text("LE(2000)") == str(int(cli["LE(2000)"]))  # a whole number of screens, shown as such
    # the Python lines: readsim.article's scores, to the bit
    assert _python(dlg.text("article", "python")) == panel
    # what a person looks at: the dialog at a projector's size
    w.resize(1280, 720)
    dlg.resize(960, 560)
    qtbot.waitUntil(lambda: dlg.isVisible(), timeout=5000)
    shot = tmp_path / "equivalent-command-article.png"
    assert dlg.grab().save(str(shot))
    keep_shot(shot)
    dlg.copy("article", "shell")
    assert QGuiApplication.clipboard().text() == line


@pytest.mark.parametrize("kind, settings, doc, headline", [
    ("T2IF", {"mode": "best", "tolerance": 1000}, "T2IF(1000)", "AgP/T2IF(1000)"),
    ("ES", {"mode": "entry", "screen": 2000}, "ES(2000)", "ANCE@100/ES(2000)"),  # the effort measures, at n too
])
def test_the_topic_command_prints_the_topic_views_numbers(shared_window, qtbot, tmp_path, kind, settings, doc, headline):
    w = shared_window()
    s = w.session
    w.topic_view.set_doc_kind(kind)
    s.set_settings(**settings)
    qtbot.waitUntil(lambda: activity().count == 0 and w.topic_view.scores is not None
                    and w.topic_view.scores.doc.name == doc, timeout=20_000)
    shown = w.topic_view.values()
    assert headline in shown and "gR@10" in shown
    dlg = _dialog(w, qtbot)
    dlg.tabs.setCurrentIndex(1)
    line = dlg.text("topic", "shell")
    assert " -q " in line and f"--reading {settings['mode']}" in line
    rows = _shell(line)
    assert {r[1] for r in rows} == {s.topic}
    cli = {r[0]: float(r[2]) for r in rows}
    assert set(cli) == set(shown)
    for name, value in shown.items():
        assert cli[name] == pytest.approx(value, abs=CLI_DECIMALS), name
    assert _python(dlg.text("topic", "python")) == pytest.approx(shown, abs=1e-12)
    shot = tmp_path / f"equivalent-command-topic-{kind}.png"
    assert dlg.grab().save(str(shot))
    keep_shot(shot)


def test_an_entry_point_set_in_the_window_is_told(shared_window, qtbot, tmp_path):
    w = shared_window()
    s = w.session
    s.set_entry(100)  # Alt+click at byte 100: the entry reading, from there
    dlg = _dialog(w, qtbot)
    note = dlg.notes["article"].text()
    assert not dlg.notes["article"].isHidden() and "entry point at 100 (bytes)" in note
    assert "entry=100" in dlg.text("article", "python") and "--reading entry" in dlg.text("article", "shell")
    qtbot.waitUntil(lambda: w.scores.value_text("aveChP") != "–", timeout=20_000)
    assert _python(dlg.text("article", "python")) == w.scores.exact()  # readsim.article(entry=100): the window's
    shot = tmp_path / "equivalent-command-note.png"
    assert dlg.grab().save(str(shot))
    keep_shot(shot)
    s.set_entry(None)  # back to the run's: the dialog follows, no note
    assert dlg.notes["article"].isHidden() and "entry=" not in dlg.text("article", "python")


def test_unsaved_edits_are_told_and_the_lines_give_the_values_before_them(shared_window, qtbot):
    w = shared_window()
    s = w.session
    ev = s.current.evaluation
    assert w.editing.editor.add(0, int(ev.n))  # retrieve the whole article: an unsaved edit
    qtbot.waitUntil(lambda: w.scores.before_text("F(0.25)") != "", timeout=20_000)
    dlg = _dialog(w, qtbot)
    assert not dlg.notes["article"].isHidden()
    assert dlg.notes["article"].text().startswith(f"Note: run {s.run.run_id} has unsaved edits: ")
    cli = {r[0]: float(r[3]) for r in _shell(dlg.text("article", "shell"))}
    assert w.scores.value_text("P_set") != f"{cli['P_set']:.4f}"  # the edited number is not the file's
    for name in ("aveChP", "P_set", "F(0.25)"):  # the file's numbers: the "was" line under each value
        assert w.scores.before_text(name).startswith(f"was {cli[name]:.4f}, "), name


def test_a_run_saved_under_another_name_is_the_file_the_lines_read(real_window, qtbot, tmp_path):
    w = real_window()
    s = w.session
    assert w.editing.editor.add(0, int(s.current.evaluation.n))
    saved = tmp_path / "edited it's.run"
    assert w.editing.save_as(str(saved))
    qtbot.waitUntil(lambda: w.scores.before_text("F(0.25)") == "", timeout=20_000)  # nothing unsaved
    panel = w.scores.exact()
    dlg = _dialog(w, qtbot)
    assert dlg.notes["article"].isHidden()
    assert f"\nrun = {str(saved)!r}\n" in dlg.text("article", "python")
    cli = {r[0]: float(r[3]) for r in _shell(dlg.text("article", "shell"))}
    assert cli == pytest.approx(panel, abs=CLI_DECIMALS)
