"""The main window's menu bar and its own entries: File (open, sample, new sandbox, recent files, Quit),
Navigate, Reader, View (the log), Help (About). Later builders add theirs to these menus
(``window.file_menu``, ``view_menu``, ...): see docs/architecture.md §6, "A dock"."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox

from readsim.app.input_files import ARCHIVE_FILTER, recent_files
from .plain import menu_text
from .widgets.sandbox_dialog import SandboxOpener, build_sandbox


class Menus(NamedTuple):
    """What :func:`build_menus` gives the main window (its attributes of the same names)."""
    file_menu: QMenu
    recent_menu: QMenu
    navigate_menu: QMenu
    reader_menu: QMenu
    view_menu: QMenu
    help_menu: QMenu
    act_open_collection: QAction
    act_open_archive: QAction
    act_open_qrels: QAction
    act_open_run: QAction
    act_open_topics: QAction
    act_sample: QAction
    act_next_article: QAction
    act_prev_article: QAction
    act_next_screen: QAction
    act_prev_screen: QAction
    act_first_screen: QAction
    act_cycle_mode: QAction
    sandbox: SandboxOpener  # File ▸ New sandbox… (its ``action``)


def build_menus(window) -> Menus:
    """The menus of ``window`` (its ``session``, ``table`` and ``log_dock`` built) with their own
    entries, in the menu bar's order."""
    S = QKeySequence
    s = window.session

    def action(text: str, slot, shortcut=None, tip: str = "") -> QAction:
        a = QAction(text, window)
        if shortcut is not None:
            a.setShortcuts(shortcut if isinstance(shortcut, list) else [shortcut])
        a.setStatusTip(tip)
        a.triggered.connect(slot)
        window.addAction(a)
        return a

    file = window.menuBar().addMenu("&File")
    opens = (action("Open &collection folder…", lambda: ask_open(window, "collection"), S("Ctrl+Shift+O")),
             action("Open collection &archive…", lambda: ask_open(window, "archive"), None,
                    "A .zip, .tar, .tar.gz, .tar.bz2 or .tar.xz of the articles"),
             action("Open &qrels…", lambda: ask_open(window, "qrels"), S("Ctrl+Shift+Q")),
             action("Open &run…", lambda: ask_open(window, "run"), S(S.StandardKey.Open)),
             action("Open &topics…", lambda: ask_open(window, "topics"), S("Ctrl+Shift+T")),
             action("Open &sample", s.open_sample, None, "The small sample shipped with readsim"))
    for a in opens:
        file.addAction(a)
    sandbox = build_sandbox(window, file)
    recent = file.addMenu("&Recent files")
    recent.aboutToShow.connect(lambda: _fill_recent(recent, s))
    file.addSeparator()
    file.addAction(action("&Quit", window.close, S(S.StandardKey.Quit)))

    nav = window.menuBar().addMenu("&Navigate")
    moves = (action("Next article", lambda: window.table.step(1), [S("Ctrl+Down"), S("J")]),
             action("Previous article", lambda: window.table.step(-1), [S("Ctrl+Up"), S("K")]),
             action("Next screen", lambda: s.step_by(1), [S("Alt+Right"), S("Ctrl+PgDown")]),
             action("Previous screen", lambda: s.step_by(-1), [S("Alt+Left"), S("Ctrl+PgUp")]),
             action("First screen", lambda: s.set_step(0), [S("Alt+Home")]))
    for a in moves:
        nav.addAction(a)

    reader = window.menuBar().addMenu("&Reader")
    cycle = action("Cycle reading mode", s.cycle_mode, S("Ctrl+M"))
    reader.addAction(cycle)
    reader.addAction(action("Mobile screen (300)", lambda: s.set_settings(screen=300), S("Ctrl+1")))
    reader.addAction(action("Laptop screen (2000)", lambda: s.set_settings(screen=2000), S("Ctrl+2")))

    view = window.menuBar().addMenu("&View")
    log = window.log_dock.toggleViewAction()
    log.triggered.connect(lambda on: window.show_log() if on else None)  # tabified: raised too
    view.addAction(log)
    help_ = window.menuBar().addMenu("&Help")
    help_.addAction(action("About readsim", lambda: _about(window)))
    return Menus(file, recent, nav, reader, view, help_, *opens, *moves, cycle, sandbox)


def _fill_recent(menu: QMenu, session) -> None:
    menu.clear()
    items = recent_files()
    if not items:
        menu.addAction("(none)").setEnabled(False)
    for kind, path in items:
        a = menu.addAction(menu_text(f"{kind}: {path}"))
        a.triggered.connect(lambda _=False, k=kind, p=path: session.load(k, p))


def ask_open(window, kind: str) -> None:
    """Ask for a file (or folder) of ``kind`` and open it in ``window``'s session (``archive``: a
    collection archive)."""
    start = str(Path(recent_files()[0][1]).parent) if recent_files() else ""
    if kind == "collection":
        path = QFileDialog.getExistingDirectory(window, "Open collection folder", start)
    elif kind == "archive":
        path, kind = QFileDialog.getOpenFileName(window, "Open collection archive", start, ARCHIVE_FILTER)[0], "collection"
    else:
        filters = {"qrels": "Qrels (*.qrels *.txt);;All files (*)", "run": "Runs (*.run *.txt);;All files (*)",
                   "topics": "Topics (*.xml);;All files (*)"}[kind]
        path, _ = QFileDialog.getOpenFileName(window, f"Open {kind}", start, filters)
    if path:
        window.session.load(kind, path)


def _about(window) -> None:
    QMessageBox.about(window, "About readsim",
                      "readsim: a reading-order simulator for focused-retrieval evaluation "
                      "(INEX Relevant in Context): aveChP, ChP, T2I, LE, ES.")
