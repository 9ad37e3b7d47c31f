"""The lesson dock and Help ▸ Lessons: a lesson (:mod:`readsim.app.lessons`: a shipped one or
one of the user's lesson files) opens its view (:mod:`readsim.app.view_state`) and shows its
text, as plain text, in a dock beside the article, with its steps and questions under it
(:mod:`readsim.app.widgets.lesson_steps`) and a button that reopens the lesson's view (to start
its steps again). Its text goes into the step editor dock too
(:mod:`readsim.app.widgets.lesson_editor`), to be changed and saved as the user's own.

:func:`build_lessons` builds the menu (the shipped lessons, then the user's, listed again each
time it opens: those in :func:`readsim.app.widgets.lesson_editor.user_folder`) and the (hidden)
docks; :func:`open_lesson` opens one.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QDockWidget, QHBoxLayout, QMenu, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from .. import lessons as ls
from ..plain import menu_text, plain_label
from ..view_state import open_view_file
from ..view_state import restore as restore_view
from ..lesson_text import LessonError
from .lesson_editor import LessonEditor, build_lesson_editor, user_folder
from .lesson_steps import StepBox
from .placement import fit

DOCK_WIDTH = 380  # pixels: the text's lines stay readable beside the article
LEAST_WIDTH = 280  # pixels: never narrower (the other columns give way down to their least widths)


class LessonPanel(QWidget):
    """A lesson's title, its text (plain, read-only) and "Start again"."""

    def __init__(self, window, parent=None) -> None:
        super().__init__(parent)
        self.window = window
        self.lesson: ls.Lesson | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.title = plain_label()
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight:bold; font-size:14px;")
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        bar = QHBoxLayout()
        self.again = QPushButton("Start again")
        self.again.setToolTip("Reopen the lesson's view: its files, topic, article, settings and docks")
        self.again.clicked.connect(self.restart)
        bar.addWidget(self.again)
        bar.addStretch(1)
        self.steps = StepBox(window)
        lay.addWidget(self.title)
        lay.addWidget(self.text, 1)
        lay.addWidget(self.steps)
        lay.addLayout(bar)
        self.setMinimumWidth(LEAST_WIDTH)

    def show_lesson(self, lesson: ls.Lesson) -> bool:
        """Show ``lesson``'s text and steps; False (and the window's error) if it cannot be read."""
        try:
            source = lesson.text()
            parsed, body = lesson.parsed(), lesson.body()
        except LessonError as exc:
            self.window.show_error(f"Cannot open the lesson: {exc}")
            return False
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            where = lesson.text_path or lesson.view
            self.window.show_error(f"{where}: cannot read the lesson: {getattr(exc, 'strerror', None) or exc}")
            return False
        self.lesson = lesson
        self.title.setText(parsed.title or lesson.name)
        self.text.setPlainText(body)  # plain text, never HTML
        self.steps.set_lesson(parsed)
        self.layout().activate()  # the step box shown or hidden now, not at the next event loop (a picture's)
        self.window.lesson_editor.set_source(source)
        return True

    def restart(self) -> None:
        if self.lesson is not None and open_view_file(self.window, self.lesson.view) is not None:
            self.steps.go(-1)


def open_lesson(window, name: str, view=None) -> bool:
    """Open the lesson ``name`` (a shipped lesson's name or a lesson file's path): its view (``view``, the lesson's view already read, as
    the command line's options changed it: ``readsim --lesson NAME --screen 2000``; None: read
    from its file), and its text in the lesson dock. An unknown name or a file that cannot be
    read is the window's error message; False then."""
    try:
        lesson = ls.find(name)
    except LookupError as exc:
        window.show_error(str(exc))
        return False
    if not window.lesson.show_lesson(lesson):
        return False
    window.lesson_dock.setWindowTitle(f"Lesson: {window.lesson.title.text()}")
    restore = open_view_file(window, lesson.view) if view is None else restore_view(window, view)
    if restore is None:
        return False
    window.lesson_dock.show()
    QTimer.singleShot(0, lambda: window.resizeDocks([window.lesson_dock], [DOCK_WIDTH], Qt.Orientation.Horizontal))
    restore.finished.connect(lambda: keep_text_in_view(window))
    # the view's bottom docks that leave the article too few lines start closed
    restore.finished.connect(window.fit_docks)
    return True


def keep_text_in_view(window) -> None:
    """Floating docks the lesson's view opened (the element mode's, the first time) cover the
    main window: move them over its left part, off the lesson dock, so the steps stay readable."""
    g = window.geometry()
    room = g.width() - window.lesson_dock.width() - 12
    screen = (window.screen() or QGuiApplication.primaryScreen()).availableGeometry()
    for dock in window.findChildren(QDockWidget):
        if dock is not window.lesson_dock and dock.isFloating() and dock.isVisible():
            dock.setGeometry(fit(screen, QRect(g.x(), g.y() + int(g.height() * 0.06),
                                               max(room, dock.minimumSizeHint().width()), int(g.height() * 0.88))))


def fill_menu(window, menu: QMenu) -> None:
    """``menu``: an entry per shipped lesson, then (after a separator) one per lesson file in
    :func:`user_folder`, named by its file (their titles are read when opened)."""
    menu.clear()
    for lesson in ls.lessons():
        act = QAction(menu_text(lesson.title()), menu)
        act.setStatusTip(f"Open the lesson {lesson.name} on the shipped sample, with its steps beside the article")
        act.triggered.connect(lambda _=False, n=lesson.name: open_lesson(window, n))
        menu.addAction(act)
    mine = ls.user_lessons(user_folder())
    if mine:
        menu.addSection("Your lessons")
    for lesson in mine:
        act = QAction(menu_text(lesson.name), menu)
        act.setStatusTip(f"Open your lesson {lesson.view}")
        act.triggered.connect(lambda _=False, p=str(lesson.view): open_lesson(window, p))
        menu.addAction(act)


def build_lessons(window) -> tuple[LessonPanel, QDockWidget, QMenu, LessonEditor]:
    """Help ▸ Lessons (the shipped lessons and the user's, at the top of Help), the lesson dock
    (right, hidden; objectName ``lesson``) and the step editor dock with File ▸ Save as lesson
    (:func:`readsim.app.widgets.lesson_editor.build_lesson_editor`). Returns the panel, the dock,
    the menu and the editor (the window's ``lesson``, ``lesson_dock``, ``lessons_menu`` and
    ``lesson_editor``)."""
    panel = LessonPanel(window)
    dock = QDockWidget("Lesson", window)
    dock.setObjectName("lesson")
    dock.setWidget(panel)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    help_menu = window.help_menu
    menu = QMenu("&Lessons", window)
    fill_menu(window, menu)
    menu.aboutToShow.connect(lambda: fill_menu(window, menu))
    first = help_menu.actions()[0] if help_menu.actions() else None
    help_menu.insertMenu(first, menu) if first is not None else help_menu.addMenu(menu)
    if first is not None:
        help_menu.insertSeparator(first)
    return panel, dock, menu, build_lesson_editor(window)
