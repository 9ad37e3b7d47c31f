"""Passage editing: change the open article's retrieved passages, undo and redo, save the run.

:class:`~readsim.app.passage_editor.PassageEditor` (its own module, no window) sits beside a :class:`~readsim.app.session.Session`. Each edit replaces
one ranked article (:class:`~readsim.core.formats.RunArticle`) of the current run and topic
with one whose passages are the new retrieved spans, as a :class:`~readsim.app.passage_editor.PassageEdit` command on a
``QUndoStack``; doing or undoing it re-evaluates that one article (the API's
:func:`readsim.operations.article_reading.ranked_article`, as the session scores a ranked list) and emits the session's ``rows_changed`` and
``evaluation_changed``, so the scores, the ranked list, the plot and the chain follow at once.

The first edit of a run works on a copy of it (the session's run objects may be shared); the
copy replaces it in ``session.runs``. An article the run does not rank is appended at the
end of its topic when it gets passages (and removed again by undo).

Pure helpers (no Qt): :func:`display_to_unit` maps a view selection to a unit span and
the outline's :func:`~readsim.app.widgets.outline.share` gives each element's covered part.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence, QTextCursor
from PySide6.QtWidgets import QDockWidget, QFileDialog, QMenu, QMessageBox

from readsim.core import intervals as iv
from readsim.core.errors import InputError

from .plain import amount
from readsim.app.input_files import add_recent
from .passage_editor import PassageEditor, display_to_unit
from .widgets.outline import Outline


# -- the window's side: menus, context menu, outline dock, title, close guard -----------------
STRATEGIES = ("S", "SL", "SLD", "SS", "SST")
SAVE, DISCARD, CANCEL = QMessageBox.StandardButton.Save, QMessageBox.StandardButton.Discard, QMessageBox.StandardButton.Cancel


class EditingUI(QObject):
    """Passage editing in a :class:`~readsim.app.mainwindow.MainWindow` (see :func:`build_editing`).

    ``ask_save_path(suggested) -> str`` and ``ask_unsaved() -> SAVE | DISCARD | CANCEL`` are
    the dialogs; tests replace them. Without dialogs (``window.show_dialogs`` False) closing
    discards unsaved edits and saving needs :meth:`save_as` with a path.
    """

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.session = s = window.session
        self.editor = PassageEditor(s, self)
        self.view = window.article.view
        self.ask_save_path = self._ask_save_path
        self.ask_unsaved = self._ask_unsaved
        self._base_title = window.windowTitle()

        self.outline = Outline(s)
        self.dock = QDockWidget("Outline (XML structure)", window)
        self.dock.setObjectName("outline")
        self.dock.setWidget(self.outline)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.hide()  # View ▸ Outline; the window's saved state may show it
        self._dock_sized = False
        self.dock.visibilityChanged.connect(self._size_dock)

        self._make_actions()
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.view.copyAvailable.connect(lambda _: self._enable())
        self.outline.element_selected.connect(self.show_element)
        self.outline.retrieve_requested.connect(self.retrieve_element)
        self.editor.stack.cleanChanged.connect(self._title)
        self.editor.edited.connect(self._edited)
        s.article_changed.connect(self._enable)
        window.installEventFilter(self)
        self._enable()

    def _size_dock(self, visible: bool) -> None:
        if visible and not self._dock_sized and not self.dock.isFloating():
            self._dock_sized = True
            QTimer.singleShot(0, lambda: self.window.resizeDocks([self.dock], [max(self.dock.width(), 470)],
                                                                 Qt.Orientation.Horizontal))

    # -- actions --------------------------------------------------------------------------
    def _make_actions(self) -> None:
        w, S = self.window, QKeySequence
        menus = {a.text().replace("&", ""): a for a in w.menuBar().actions() if a.menu() is not None}
        edit = menus["Edit"].menu() if "Edit" in menus else None
        if edit is None:
            edit = QMenu("&Edit", w)
            before = menus.get("Navigate") or menus.get("View")
            w.menuBar().insertMenu(before, edit) if before is not None else w.menuBar().addMenu(edit)
        self.edit_menu = edit

        def action(text, slot, keys=(), tip=""):
            a = QAction(text, w)
            a.setShortcuts([S(k) for k in keys])
            a.setStatusTip(tip)
            a.setToolTip(tip or text)
            a.triggered.connect(slot)
            w.addAction(a)
            return a

        self.act_undo = self.editor.stack.createUndoAction(w, "&Undo")
        self.act_undo.setShortcuts([S("Ctrl+Z")])
        self.act_redo = self.editor.stack.createRedoAction(w, "&Redo")
        self.act_redo.setShortcuts([S("Ctrl+Shift+Z"), S("Ctrl+Y")])
        for a in (self.act_undo, self.act_redo):
            w.addAction(a)
        self.act_add = action("&Add selection as retrieved passage", self.add_selection, ["Ctrl+Shift+P"],
                              "Retrieve the selected text (the selection's characters in the article)")
        self.act_remove = action("&Remove selection from retrieved passages", self.remove_selection, ["Ctrl+Shift+D"],
                                 "Stop retrieving the selected text")
        self.act_element = action("Retrieve selected &element", self.retrieve_current_element, ["Ctrl+Shift+X"],
                                  "Retrieve the element selected in the outline, whole")
        self.strategy_menu = QMenu("Apply &strategy", w)
        self.strategy_menu.setToolTipsVisible(True)
        self.strategy_menu.aboutToShow.connect(self._fill_strategies)
        self._fill_strategies()
        self.act_outline = self.dock.toggleViewAction()
        self.act_outline.setText("&Outline of the XML structure")
        self.act_outline.setShortcuts([S("Ctrl+Shift+L")])
        w.addAction(self.act_outline)
        for a in (self.act_undo, self.act_redo, None, self.act_add, self.act_remove, self.act_element, None):
            edit.addSeparator() if a is None else edit.addAction(a)
        edit.addMenu(self.strategy_menu)
        edit.addSeparator()
        edit.addAction(self.act_outline)
        if "View" in menus:
            menus["View"].menu().addAction(self.act_outline)

        self.act_save = action("&Save run", self.save, ["Ctrl+S"], "Save the edited run as a FOL run file")
        self.act_save_as = action("Save run &as…", lambda: self.save_as(), ["Ctrl+Shift+S"],
                                  "Save the edited run as a FOL run file under a new name")
        file = menus["File"].menu() if "File" in menus else None
        if file is not None:
            acts = file.actions()
            quit_ = next((i for i, a in enumerate(acts) if a.text().replace("&", "") == "Quit"), len(acts))
            at = acts[quit_ - 1] if quit_ > 0 and acts[quit_ - 1].isSeparator() else (acts[quit_] if quit_ < len(acts) else None)
            file.insertSeparator(at) if at is not None else file.addSeparator()
            file.insertActions(at, [self.act_save, self.act_save_as]) if at is not None else file.addActions([self.act_save, self.act_save_as])

    def _fill_strategies(self) -> None:
        self.strategy_menu.clear()
        spans_of = strategy_function()
        for name in STRATEGIES:
            a = self.strategy_menu.addAction(name)
            a.setEnabled(spans_of is not None and self.editor.can_edit())
            a.triggered.connect(lambda _=False, n=name: self.apply_strategy(n))
        if spans_of is None:
            self.strategy_menu.addAction("(simulated strategies are not available)").setEnabled(False)

    def _enable(self) -> None:
        ok = self.editor.can_edit()
        sel = ok and self.selection() is not None
        self.act_add.setEnabled(sel)
        self.act_remove.setEnabled(sel)
        self.act_element.setEnabled(ok and self.outline.tree.currentIndex().isValid())
        self.act_save.setEnabled(self.session.run is not None)
        self.act_save_as.setEnabled(self.session.run is not None)

    def context_menu(self) -> QMenu:
        """The article view's context menu: Copy and Select All, then the passage edits."""
        self._enable()
        menu = self.view.createStandardContextMenu()
        menu.addSeparator()
        for a in (self.act_add, self.act_remove, self.act_undo, self.act_redo):
            menu.addAction(a)
        menu.addMenu(self.strategy_menu)
        return menu

    def _context_menu(self, pos) -> None:
        menu = self.context_menu()
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.view.viewport().mapToGlobal(pos))

    # -- edits ----------------------------------------------------------------------------
    def selection(self) -> tuple[int, int] | None:
        """The view's selection as a unit span ``[a, b)`` (:func:`display_to_unit`), or None."""
        c = self.view.textCursor()
        lay = self.view.layout_
        if lay is None or not c.hasSelection():
            return None
        return display_to_unit(lay, c.selectionStart(), c.selectionEnd())

    def add_selection(self) -> bool:
        span = self.selection()
        if span is None or not self.editor.add(*span):
            return False
        self.session.message.emit(f"Retrieved [{span[0]:,}, {span[1]:,}) ({amount(span[1] - span[0], self.session.unit)})")
        return True

    def remove_selection(self) -> bool:
        span = self.selection()
        if span is None or not self.editor.remove(*span):
            return False
        self.session.message.emit(f"No longer retrieved: [{span[0]:,}, {span[1]:,})")
        return True

    def retrieve_element(self, element) -> bool:
        if not self.editor.retrieve_element(element):
            self.session.message.emit(f"{element.xpath} is already retrieved whole")
            return False
        self.session.message.emit(f"Retrieved {element.xpath} [{element.start:,}, {element.end:,})")
        return True

    def retrieve_current_element(self) -> bool:
        el = self.outline.model.element(self.outline.tree.currentIndex())
        return el is not None and self.retrieve_element(el)

    def apply_strategy(self, name: str) -> bool:
        """Replace the open article's retrieved passages by strategy ``name``'s (one edit)."""
        spans_of = strategy_function()
        if spans_of is None or not self.editor.can_edit():
            return False
        try:
            spans = spans_of(self.session, name)
        except (InputError, LookupError, ValueError) as err:
            self.window.show_error(f"strategy {name}: {err}")
            return False
        done = self.editor.apply(spans, f"strategy {name}")
        self.session.message.emit(f"Strategy {name}: {amount(len(iv.normalize(iv.as_array(spans))), 'passages')} retrieved"
                                  if done else f"Strategy {name} retrieves the same passages")
        return done

    def show_element(self, element) -> None:
        """Select an element's text in the view and scroll to it."""
        cur = self.session.current
        if cur is None or cur.layout is None or self.view.layout_ is not cur.layout:
            return
        d = cur.layout.spans_to_display(iv.as_array([(element.start, element.end)]))
        if len(d):
            c = QTextCursor(self.view.document())
            c.setPosition(int(d[0, 0]))
            c.setPosition(int(d[0, 1]), QTextCursor.MoveMode.KeepAnchor)
            self.view.setTextCursor(c)
            self.view.scroll_to_position(int(d[0, 0]))
        self._enable()

    def _edited(self, article: str) -> None:
        cur = self.session.current
        if cur is not None:
            self.window.table.select_article(cur.name)
        self._enable()

    # -- saving, title, closing -------------------------------------------------------------
    def save(self) -> bool:
        """Save to the path saved to before, else ask (:meth:`save_as`)."""
        return self.save_as(self.editor.path) if self.editor.path else self.save_as()

    def save_as(self, path: str | None = None) -> bool:
        """Save the run (with its edits) to ``path`` (asked when None). Errors are shown."""
        run = self.session.run
        if run is None:
            return False
        if path is None:
            p = Path(run.path)
            path = self.ask_save_path(str(p.with_name(f"{p.stem}-edited.run")))
            if not path:
                return False
        try:
            notes = self.editor.save(path)
        except OSError as err:  # atomic: the file at path is as it was
            self.window.show_error(f"Cannot save the run to {err.filename or path}: {err.strerror or err}.\n"
                                   f"Nothing was written (a file already there is unchanged); the edits are still here, unsaved.")
            return False
        except (InputError, ValueError) as err:
            self.window.show_error(f"Cannot save the run to {path}: {err}.\nThe edits are still here, unsaved.")
            return False
        add_recent("run", path)
        for note in notes:
            self.window.log.appendPlainText(f"saving {path}: {note}")
        self.session.message.emit(f"Saved run {run.run_id} to {path}"
                                  + (f" (note: {notes[0].message}; see View ▸ Log)" if notes else ""))
        return True

    def _ask_save_path(self, suggested: str) -> str:
        if not self.window.show_dialogs:
            return ""
        path, _ = QFileDialog.getSaveFileName(self.window, "Save run as", suggested, "Runs (*.run *.txt);;All files (*)")
        return path

    def _ask_unsaved(self):
        if not self.window.show_dialogs:
            return DISCARD
        return QMessageBox.question(self.window, "readsim", "The run has unsaved edits (passages or ranks). Save them before closing?",
                                    SAVE | DISCARD | CANCEL, SAVE)

    def _title(self, clean: bool) -> None:
        t = self.window.windowTitle()
        t = t[2:] if t.startswith("* ") else t
        self.window.setWindowTitle(t if clean else f"* {t}")

    def eventFilter(self, obj, event) -> bool:
        if obj is self.window and event.type() == QEvent.Type.Close and not self.editor.stack.isClean():
            answer = self.ask_unsaved()
            if answer == CANCEL or (answer == SAVE and not self.save()):
                event.ignore()
                return True
        return False


def strategy_function():
    """``strategy_spans(session, name) -> (k, 2) array`` of :mod:`readsim.app.widgets.strategies`,
    or None while that module is absent."""
    try:
        from .widgets.strategies import strategy_spans
    except ImportError:
        return None
    return strategy_spans


def build_editing(window) -> EditingUI:
    """Passage editing for ``window``: an Edit menu (undo, redo, add/remove the selection,
    retrieve the outline's element, apply a simulated strategy), the article view's context
    menu, File ▸ Save run (as…), the outline dock (View ▸ Outline), the "*" in the title and
    the question on closing with unsaved edits (the window's ``editing``; the rank moves of
    :mod:`readsim.app.rank_edits` are built after it, on the same history)."""
    return EditingUI(window)
