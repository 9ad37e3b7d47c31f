"""Writing a lesson in the window: the step editor dock (View ▸ Lesson steps editor) and File ▸
Save as lesson….

The dock is a plain-text editor for the lesson's text and steps in the syntax of
:mod:`readsim.app.lesson_text` (docs/reference.md section 9.2.1), checked as it is typed: the
first problem shows under it with its line number. Save as lesson writes the window's view
(:func:`readsim.app.view_state.capture`: files, topic, article, settings, docks) with the text as
its ``lesson`` (a version-2 view file, :mod:`readsim.app.view_file`), atomically and only over a
regular file (:mod:`readsim.core.atomic`), by default into the user's lessons folder (listed in
Help ▸ Lessons). A text with a problem is not saved. GUI thread only.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QStandardPaths, Qt, QTimer
from PySide6.QtGui import QAction, QFont
from PySide6.QtWidgets import QDockWidget, QFileDialog, QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from .. import appearance as look
from ..lesson_text import LessonError, LessonText, parse
from ..plain import amount, plain_label
from ..view_file import SUFFIX, write_view
from ..view_state import VIEW_FILTER, capture

WHERE = "lesson steps"  # how errors name the editor's text
TEMPLATE = """# My lesson
What the lesson shows.

## First step
What to look at.
set: reading=natural
ask: T2IF(300) within 0.05
"""


def user_folder() -> Path:
    """The user's lessons folder: ``lessons`` in ``QStandardPaths.AppDataLocation`` (it may not exist yet)."""
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)) / "lessons"


class LessonEditor(QWidget):
    """The editor (:attr:`edit`, plain text), the check's line (:attr:`status`) and Save as
    lesson; :attr:`dock` is its dock."""

    def __init__(self, window, parent=None) -> None:
        super().__init__(parent)
        self.window = window
        self.dock: QDockWidget | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 2, 6, 2)
        self.edit = QPlainTextEdit()
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        self.edit.setFont(mono)
        self.edit.setPlainText(TEMPLATE)
        self.edit.setToolTip("## TITLE starts a step; in a step, set: reading=worst screen=2000 tolerance=50 "
                             "dock=explain and ask: MEASURE within TOLERANCE or ask: MEASURE choice A | B | C")
        self.status = plain_label()
        self.status.setWordWrap(True)
        save = QPushButton("Save as lesson…")
        save.clicked.connect(lambda: save_lesson_as(window))
        bar = QHBoxLayout()
        bar.addWidget(self.status, 1)
        bar.addWidget(save)
        lay.addWidget(self.edit, 1)
        lay.addLayout(bar)
        self.edit.textChanged.connect(self.check)
        self.check()

    def source(self) -> str:
        return self.edit.toPlainText()

    def set_source(self, text: str) -> None:
        self.edit.setPlainText(text)

    def check(self) -> LessonText | None:
        """Parse the text; show ``N steps, Q questions`` or the first problem (``line N: reason``)."""
        try:
            lesson = parse(self.source(), WHERE)
        except LessonError as exc:
            where = f"line {exc.line}: " if exc.line else ""
            self.status.setText(where + exc.reason)
            look.follow(self.status, f"color: {look.css('bad')};")
            return None
        asked = sum(s.question is not None for s in lesson.steps)
        self.status.setText(f"{amount(len(lesson.steps), 'steps')}, {amount(asked, 'questions')}")
        look.follow(self.status, f"color: {look.css('muted')};")
        return lesson


def save_lesson(window, path: str | os.PathLike) -> Path:
    """Write the window's view with the editor's text as a lesson file at ``path``. Raises
    :class:`LessonError` (the text, naming the line), ``ValueError`` (no run open) or
    ``OSError`` naming the path; nothing is written then."""
    source = window.lesson_editor.source()
    parse(source, WHERE)
    view = capture(window)
    view.lesson = source
    return write_view(path, view)


def save_lesson_as(window, path: str | os.PathLike | None = None) -> bool:
    """Save the lesson to ``path`` (asked, in :func:`user_folder`, when None); errors are the window's message."""
    if path is None:
        if not window.show_dialogs:
            return False
        folder = user_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            folder = Path.home()
        path, _ = QFileDialog.getSaveFileName(window, "Save as lesson", str(folder / ("lesson" + SUFFIX)), VIEW_FILTER)
        if not path:
            return False
        if not Path(path).suffix:
            path += SUFFIX
    try:
        save_lesson(window, path)
    except LessonError as exc:
        window.show_error(f"Cannot save the lesson: {exc}. Nothing was written.")
        return False
    except ValueError as exc:
        window.show_error(f"Cannot save the lesson: {exc}")
        return False
    except OSError as exc:
        window.show_error(f"Cannot save the lesson to {exc.filename or path}: {exc.strerror or exc}. Nothing was written.")
        return False
    window.session.message.emit(f"Saved the lesson to {path}")
    return True


def _beside_the_lesson(window, dock: QDockWidget) -> None:
    """Shown while the lesson dock is open: tabbed with it (both keep the column's full height)."""
    lesson = window.lesson_dock
    if lesson.isVisible() and not dock.isFloating() and lesson not in window.tabifiedDockWidgets(dock):
        window.tabifyDockWidget(lesson, dock)
    QTimer.singleShot(0, dock.raise_)  # once tabbed: its tab in front


def build_lesson_editor(window) -> LessonEditor:
    """The step editor dock (right, hidden; objectName ``lesson_steps``) with View ▸ Lesson steps
    editor, and File ▸ Save as lesson… after Save view…. Returns the editor (the window's
    ``lesson_editor``; its dock is ``lesson_editor.dock``)."""
    editor = LessonEditor(window)
    dock = QDockWidget("Lesson steps", window)
    dock.setObjectName("lesson_steps")
    dock.setWidget(editor)
    editor.dock = dock
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    act = dock.toggleViewAction()
    act.setText("Lesson steps editor")
    act.setStatusTip("Write a lesson's text and steps (set: and ask: lines) to save with File > Save as lesson")
    act.toggled.connect(lambda on: _beside_the_lesson(window, dock) if on else None)
    window.view_menu.addAction(act)
    save = QAction("Save as &lesson…", window)
    save.setStatusTip("Save what is on screen with the lesson steps editor's text as a lesson (Help > Lessons)")
    save.triggered.connect(lambda: save_lesson_as(window))
    file = window.file_menu
    acts = file.actions()
    after = acts.index(window.act_save_view) if window.act_save_view in acts else len(acts)
    at = acts[after + 1] if after + 1 < len(acts) else None
    file.insertAction(at, save) if at is not None else file.addAction(save)
    return editor
