"""Saving and reopening what the main window shows (File ▸ Save view…, Open view…, ``readsim
VIEW.readsim``), over the file format of :mod:`readsim.app.view_file`.

:func:`capture` reads the window: the files (the session's paths), the run shown, topic,
article, the reader's settings and unit, the reading step, the entry points set by the user,
the passage editor's edits (the net retrieved passages of each edited (run, topic, article)),
the open docks (any ``QDockWidget`` of the window, by ``objectName``: docks added later are
covered without change here), the element mode's simulated run and the topic view's document
measure.

:class:`ViewRestore` reopens a :class:`~readsim.app.view_file.View` in a window, in stages, each
once the background work the previous one started is over
(:func:`readsim.app.background.activity` idle): the files (replacing what is open; the reader's
settings and the topic view's document measure with them), then the run,
the topic and the article if the load picked others, then the edits, the docks, the element
mode's run, and last the reading step; ``finished`` is emitted then. A file that cannot be read
is told as any load's error (the window's message box); the rest of the view is still restored.

Threading contract: everything here runs in the GUI thread; the loads go through the session
(:meth:`readsim.app.session.Session.open_files`).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from PySide6.QtCore import QEventLoop, QObject, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog

from readsim.core import intervals as iv

from .background import activity
from .editing import CANCEL, SAVE
from .plain import amount
from .view_file import SUFFIX, Edit, View, ViewError, read_view, write_view

#: docks built on first use, by objectName: the window attribute of the checkable action that
#: builds and shows them (:mod:`readsim.app.widgets.on_demand`)
ON_DEMAND = {"elements": lambda window: window.act_elements}
#: docks a view does not record: the lesson dock shows a lesson's text, the step editor writes one,
#: neither is the view's state
NOT_RECORDED = {"lesson", "lesson_steps"}
VIEW_FILTER = f"readsim views (*{SUFFIX});;All files (*)"


def _same(a, b) -> bool:
    return os.path.realpath(os.fspath(a)) == os.path.realpath(os.fspath(b))


def docks(window) -> list[QDockWidget]:
    """The main window's docks (named, in the order added)."""
    return [d for d in window.findChildren(QDockWidget) if d.objectName() and d.parentWidget() is window]


def open_docks(window) -> list[str]:
    """The ``objectName`` of every open dock (shown, floating or tabbed), less :data:`NOT_RECORDED`."""
    return [d.objectName() for d in docks(window) if not d.isHidden() and d.objectName() not in NOT_RECORDED]


def capture(window) -> View:
    """What ``window`` shows, as a :class:`View` (paths absolute). Raises ``ValueError`` when no
    run is open (a view needs one)."""
    s = window.session
    if not s.runs:
        raise ValueError("nothing to save: open a run first")
    st = s.settings
    cur = s.current
    view = View(runs=[Path(r.path) for r in s.runs],
                collection=Path(s.collection.root) if s.collection is not None else None,
                qrels=Path(s.qrels.path) if s.qrels is not None and getattr(s.qrels, "path", None) else None,
                topics=Path(s.topics_path) if s.topics_path else None, unit=s.unit,
                run=next((i for i, r in enumerate(s.runs) if r is s.run), 0), topic=s.topic,
                article=cur.name if cur is not None else None,
                settings={"mode": st.mode.value, "screen": st.screen, "tolerance": st.tolerance,
                          "alpha": st.alpha, "beta": st.beta, "levels": st.levels},
                step=s.step, entries=dict(s.entries), docks=open_docks(window))
    view.edits = _edits(window)
    view.document_measure = window.topic_view.doc_kind()
    panel = window.elements  # None: the element mode was never opened
    if panel is not None and "elements" in view.docks:
        run = panel.current_run()
        view.element_run = run.name if run is not None and run.simulated else None
    return view


def _edits(window) -> list[Edit]:
    """The net retrieved passages of each (run, topic, article) the editor's history (up to its
    undo index) changed, in the order first edited."""
    runs = window.session.runs
    stack = window.editing.editor.stack
    net: dict[tuple[int, str, str], Edit] = {}
    for i in range(stack.index()):
        change = stack.command(i).change
        k = next((j for j, r in enumerate(runs) if r is change.run), None)
        if k is None:  # a run no longer open
            continue
        after = change.after
        spans = None if after is None else [(int(a), int(b)) for a, b in after.passages]
        net[k, change.topic, change.article] = Edit(k, change.topic, change.article, spans)
    return list(net.values())


def save_view(window, path: str | os.PathLike) -> Path:
    """Write the window's view to ``path`` (atomically). Raises ``ValueError`` (no run open) or
    ``OSError`` naming the path."""
    return write_view(path, capture(window))


class ViewRestore(QObject):
    """Reopens ``view`` in ``window`` (see the module). ``done`` is True once ``finished`` has
    been emitted."""

    finished = Signal()

    def __init__(self, window, view: View) -> None:
        super().__init__(window)
        self.window, self.view, self.done = window, view, False
        self._stages = [self._run, self._topic, self._article, self._edits, self._docks, self._element_run, self._step]
        activity().idle.connect(self._idle)
        self._open()
        self._idle()

    def _idle(self) -> None:
        QTimer.singleShot(0, self._next)

    def cancel(self) -> None:
        """Stop before the next stage (another view is being opened); ``finished`` is emitted."""
        self._stages.clear()
        self._next()

    def _next(self) -> None:
        while self._stages and not self.done:
            if activity().count:
                return  # the next idle goes on
            try:
                self._stages.pop(0)()
            except BaseException:  # a bug: the restore ends (finished, so no one waits for it), the error goes on
                self._stages.clear()
                self._next()
                raise
        if not self.done:
            self.done = True
            activity().idle.disconnect(self._idle)
            self.finished.emit()

    def _session_run(self, path):
        return next((r for r in self.window.session.runs if _same(r.path, path)), None)

    def _open(self) -> None:
        """Replace what is open by the view's files, settings and entry points."""
        v, s = self.view, self.window.session
        s.cancel_article_load()
        s.runs, s.run, s.qrels, s.collection, s.topics, s.topics_path = [], None, None, None, {}, None
        s.set_current(None)
        s.unit = s.unit_option = v.unit
        s.entries = dict(v.entries)
        s.set_settings(**v.settings)
        if v.document_measure is not None:
            self.window.topic_view.set_doc_kind(v.document_measure)
        first = v.run == 0
        s.open_files(v.collection, v.qrels, v.runs, v.topics, v.topic if first else None, v.article if first else None)

    def _run(self) -> None:
        s = self.window.session
        run = self._session_run(self.view.runs[self.view.run])
        if run is not None and run is not s.run:
            s.set_run(s.runs.index(run))

    def _topic(self) -> None:
        s, topic = self.window.session, self.view.topic
        if topic is None or s.run is None or topic == s.topic:
            return
        if topic in s.run.topics:
            s.set_topic(topic, force=True)
        elif self.view.run != 0:  # else the load told it
            self.window.show_error(f"topic {topic} is not in run {s.run.run_id} ({s.run.path})")

    def _article(self) -> None:
        s, name = self.window.session, self.view.article
        if name is not None and s.topic == self.view.topic and (s.current is None or s.current.name != name):
            s.open_article(name)

    def _edits(self) -> None:
        editing = self.window.editing
        for e in self.view.edits:
            run = self._session_run(self.view.runs[e.run])
            if run is None:  # not read: its error was told
                continue
            spans = None if e.passages is None else iv.normalize(np.asarray(e.passages, dtype=np.int64).reshape(-1, 2))
            editing.editor.put_passages(run, e.topic, e.article, spans, f"Edit from the view ({e.article})")

    def _docks(self) -> None:
        w = self.window
        wanted = set(self.view.docks)
        have = {d.objectName(): d for d in docks(w)}
        for name, dock in have.items():
            if name not in NOT_RECORDED and (name in wanted) != (not dock.isHidden()):
                dock.setVisible(name in wanted)
        for name in self.view.docks:
            if name in have:
                continue
            if name in ON_DEMAND:
                ON_DEMAND[name](w).setChecked(True)
            else:
                w.log.appendPlainText(f"view: no dock named {name!r} in this readsim (not shown)")

    def _element_run(self) -> None:
        panel = self.window.elements
        if self.view.element_run and panel is not None:
            panel.set_run(self.view.element_run)

    def _step(self) -> None:
        s = self.window.session
        s.set_step(self.view.step)
        if s.current is not None:
            s.message.emit(f"View restored: topic {s.topic}, article {s.current.name}, screen {s.step + 1:,} of "
                           f"{amount(s.screens(), 'screens')}")


def restore(window, view: View) -> ViewRestore:
    """Reopen ``view`` in ``window`` (:class:`ViewRestore`; one still under way is cancelled): the
    window's :meth:`~readsim.app.mainwindow.MainWindow.restore_view`, which keeps it as ``view_restore``."""
    return window.restore_view(view)


def wait_restored(window, timeout_ms: int) -> bool:
    """Process events until the window's view restore (if any) has finished; False on timeout."""
    r = window.view_restore
    if r is None or r.done:
        return True
    loop = QEventLoop()
    r.finished.connect(loop.quit)
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(loop.quit)
    timer.start(timeout_ms)
    loop.exec()
    return r.done


# -- the File menu --------------------------------------------------------------------------
def open_view_file(window, path: str | os.PathLike) -> ViewRestore | None:
    """Read the view file ``path`` and reopen it in ``window``; a view that cannot be read is
    the window's error message (``FILE: field NAME: reason``) and changes nothing. Unsaved
    passage edits are asked about first (save, discard or cancel: None)."""
    try:
        view = read_view(path)
    except ViewError as exc:
        window.show_error(str(exc))
        return None
    if not _edits_settled(window):
        return None
    return restore(window, view)


def _edits_settled(window) -> bool:
    """True when the run has no unsaved edits, or they were saved or discarded when asked."""
    editing = window.editing
    if editing.editor.stack.isClean():
        return True
    answer = editing.ask_unsaved()
    return answer != CANCEL and (answer != SAVE or editing.save())


def save_view_as(window, path: str | None = None) -> bool:
    """Save the view to ``path`` (asked when None); errors are the window's message."""
    if path is None:
        if not window.show_dialogs:
            return False
        path, _ = QFileDialog.getSaveFileName(window, "Save view", "view" + SUFFIX, VIEW_FILTER)
        if not path:
            return False
        if not Path(path).suffix:
            path += SUFFIX
    try:
        save_view(window, path)
    except ValueError as exc:
        window.show_error(f"Cannot save the view: {exc}")
        return False
    except OSError as exc:
        window.show_error(f"Cannot save the view to {exc.filename or path}: {exc.strerror or exc}. Nothing was written.")
        return False
    window.session.message.emit(f"Saved the view to {path}")
    return True


def build_views(window) -> tuple[QAction, QAction]:
    """File ▸ Save view… (Ctrl+Alt+Shift+S) and Open view… (Ctrl+Alt+O), before Quit; returns
    them (the window's ``act_save_view``, ``act_open_view``)."""

    def ask_open() -> None:
        if window.show_dialogs:
            path, _ = QFileDialog.getOpenFileName(window, "Open view", "", VIEW_FILTER)
            if path:
                open_view_file(window, path)

    save = QAction("Save &view…", window)
    save.setShortcut(QKeySequence("Ctrl+Alt+Shift+S"))
    save.setStatusTip("Save what is on screen (files, topic, article, settings, step, edits, docks) as a .readsim file")
    save.triggered.connect(lambda: save_view_as(window))
    open_ = QAction("Open v&iew…", window)
    open_.setShortcut(QKeySequence("Ctrl+Alt+O"))
    open_.setStatusTip("Reopen a saved .readsim view")
    open_.triggered.connect(ask_open)
    file = window.file_menu
    quit_ = next((a for a in file.actions() if a.text().replace("&", "") == "Quit"), None)
    at = quit_
    acts = file.actions()
    if quit_ is not None and acts.index(quit_) > 0 and acts[acts.index(quit_) - 1].isSeparator():
        at = acts[acts.index(quit_) - 1]
    file.insertSeparator(at)
    file.insertActions(at, [open_, save])
    for a in (save, open_):
        window.addAction(a)
    return save, open_
