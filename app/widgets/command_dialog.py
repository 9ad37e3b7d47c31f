"""View ▸ Equivalent command… (Ctrl+Alt+C): the ``readsim-eval`` line and the Python lines that
print what the window shows, for the open article (the score panel's numbers) and the topic
(the topic view's), in read-only boxes with Copy buttons (docs/window.md, "The equivalent
command").

:func:`shown_state` reads the window's state into the plain
:class:`~readsim.operations.equivalent.ShownState` (files, topic, article, reading mode, unit,
screen, tolerance, alpha, beta, levels, an entry point set in the window, the measures shown,
unsaved edits); the text is :func:`readsim.operations.equivalent.article_command`'s and
:func:`~readsim.operations.equivalent.topic_command`'s. What has no file-based equivalent is
said under the boxes, with what the lines reproduce instead. The dialog follows the window
while it is open. :func:`show_command` builds it on first use (a child of the window) and
raises it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFont, QGuiApplication, QKeySequence, QTextOption
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton,
                               QTabWidget, QVBoxLayout, QWidget)

from readsim.core.doc_evaluation import Settings
from readsim.operations.article_reading import panel_measures
from readsim.operations.equivalent import Equivalent, ShownState, article_command, topic_command

from .. import appearance as look
from ..plain import plain_label
from ..topic_scores import doc_measure, list_measures

SHORTCUT = "Ctrl+Alt+C"
PARTS = ("article", "topic")  # the tabs: the open article's command, the topic view's
KINDS = ("shell", "python")
TAB_TITLES = {"article": "Open article (score panel)", "topic": "Topic (topic view)"}
BOX_TITLES = {"shell": "Shell: readsim-eval (POSIX quoting)", "python": "Python: import readsim"}
INTRO = ("These lines print the numbers the window shows, from the same files and settings: run them in a "
         "shell or in Python to check the window, or to take them into a paper or a notebook.")


def shown_state(window) -> ShownState:
    """The window's state as plain data: the session's files, topic, open article and reader
    settings, the entry point set in the window, the score panel's measures
    (:func:`readsim.operations.article_reading.panel_measures`), the topic view's measures for its
    document measure (:func:`readsim.app.topic_scores.list_measures`), and the unsaved edits
    (a run saved under another name is that file)."""
    s = window.session
    st: Settings = s.settings
    run, cur = s.run, s.current
    run_path = run.path if run is not None else None
    editor = window.editing.editor
    unsaved = None
    if run is not None and s.baseline(run) is not None:
        unsaved = f"run {run.run_id} has unsaved edits"
    elif run is not None and editor.path and editor.edit_count(run):
        run_path = editor.path  # the edited run, saved under this name
    topic_measures = ()
    if s.topic is not None and run is not None:
        n = len(run.topics.get(s.topic, ()))
        topic_measures = tuple(m.name for m in list_measures(doc_measure(window.topic_view.doc_kind(), st), n))
    article = cur.name if cur is not None else None
    return ShownState(
        qrels=s.qrels.path if s.qrels is not None else None, run=run_path,
        collection=str(s.collection.root) if s.collection is not None else None, unit=s.unit, topic=s.topic,
        article=article, reading=st.mode.value, screen=st.screen, tolerance=st.tolerance, alpha=st.alpha,
        beta=st.beta, levels=st.levels, entry=s.entries.get((s.topic, article)) if article is not None else None,
        topic_entries=any(t == s.topic for t, _ in s.entries),
        article_measures=tuple(m.name for m in panel_measures(st)), topic_measures=topic_measures,
        ranked=cur is None or cur.row is not None, unsaved=unsaved)


class CommandDialog(QDialog):
    """Two tabs (:data:`PARTS`), each a shell box and a Python box (read-only, monospace) with a
    Copy button, and the notes. :attr:`equivalents` holds the shown text by part; :meth:`text`
    reads a box back."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle("Equivalent command")
        self.setModal(False)
        self.equivalents: dict[str, Equivalent] = {}
        self.boxes: dict[tuple[str, str], QPlainTextEdit] = {}
        self.copy_buttons: dict[tuple[str, str], QPushButton] = {}
        self.notes: dict[str, QLabel] = {}
        self.titles: dict[str, QLabel] = {}
        lay = QVBoxLayout(self)
        intro = plain_label(INTRO)
        intro.setWordWrap(True)
        lay.addWidget(intro)
        self.tabs = QTabWidget()
        for part in PARTS:
            self.tabs.addTab(self._tab(part), TAB_TITLES[part])
        lay.addWidget(self.tabs, 1)
        self.copied = plain_label()
        look.follow(self.copied, f"color: {look.css('muted')};")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        bottom = QHBoxLayout()
        bottom.addWidget(self.copied, 1)
        bottom.addWidget(buttons)
        lay.addLayout(bottom)
        s = window.session
        for sig in (s.files_changed, s.topic_changed, s.rows_changed, s.article_changed, s.evaluation_changed,
                    s.settings_changed, s.baselines_changed):
            sig.connect(self._follow)
        window.topic_view.doc_combo.currentIndexChanged.connect(self._follow)
        self.resize(960, 560)

    def _tab(self, part: str) -> QWidget:
        tab = QWidget()
        lay = QVBoxLayout(tab)
        title = self.titles[part] = plain_label()
        lay.addWidget(title)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        for kind in KINDS:
            head = QHBoxLayout()
            head.addWidget(plain_label(BOX_TITLES[kind]), 1)
            copy = self.copy_buttons[(part, kind)] = QPushButton("Copy")
            copy.setToolTip(f"Copy the {kind} lines to the clipboard")
            copy.clicked.connect(lambda _=False, p=part, k=kind: self.copy(p, k))
            head.addWidget(copy)
            lay.addLayout(head)
            box = self.boxes[(part, kind)] = QPlainTextEdit()
            box.setReadOnly(True)
            box.setFont(mono)
            box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
            box.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)  # a long path: no scroll bar
            box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            lay.addWidget(box, 1 if kind == "python" else 0)
            if kind == "shell":
                box.setFixedHeight(box.fontMetrics().lineSpacing() * 6 + 12)
        notes = self.notes[part] = plain_label()
        notes.setWordWrap(True)
        look.follow(notes, f"color: {look.css('warning')};")
        lay.addWidget(notes)
        return tab

    def refresh(self) -> None:
        """Build the text from the window's state now."""
        state = shown_state(self.window_)
        self.equivalents = {"article": article_command(state), "topic": topic_command(state)}
        self.titles["article"].setText(f"Topic {state.topic}, article {state.article}, {state.reading} reading"
                                       if state.article is not None else "No article is open")
        s = self.window_.session.settings
        self.titles["topic"].setText(f"Topic {state.topic}, S = {doc_measure(self.window_.topic_view.doc_kind(), s).name},"
                                     f" {state.reading} reading" if state.topic is not None else "No topic is open")
        for part, eq in self.equivalents.items():
            for kind in KINDS:
                text = getattr(eq, kind)
                box = self.boxes[(part, kind)]
                if box.toPlainText() != text:
                    box.setPlainText(text)
                self.copy_buttons[(part, kind)].setEnabled(bool(text))
            self.notes[part].setText("\n".join(f"Note: {n}" for n in eq.notes))
            self.notes[part].setVisible(bool(eq.notes))
        self.copied.setText("")

    def _follow(self, *_) -> None:
        if self.isVisible():
            self.refresh()

    def text(self, part: str, kind: str) -> str:
        """The text of box ``kind`` (``shell``, ``python``) of tab ``part`` (``article``, ``topic``)."""
        return self.boxes[(part, kind)].toPlainText()

    def copy(self, part: str, kind: str) -> None:
        """Put box ``kind`` of tab ``part`` on the clipboard."""
        QGuiApplication.clipboard().setText(self.text(part, kind))
        self.copied.setText(f"Copied the {kind} lines of the {part} command")


def show_command(window) -> CommandDialog:
    """Show (or raise) ``window``'s Equivalent command dialog, built on first use, its text
    made from the window's state now."""
    dlg = window.findChild(CommandDialog)
    if dlg is None:
        dlg = CommandDialog(window)
    dlg.refresh()
    dlg.show()
    dlg.raise_()
    dlg.activateWindow()
    return dlg


def build_command(window) -> QAction:
    """View ▸ Equivalent command… (:data:`SHORTCUT`), which calls :func:`show_command`; returns
    it (the window's ``act_command``)."""
    act = QAction("Equivalent &command…", window)
    act.setShortcut(QKeySequence(SHORTCUT))
    act.setStatusTip("The readsim-eval line and the Python lines that print the numbers shown (copyable)")
    act.triggered.connect(lambda: show_command(window))
    window.addAction(act)
    window.view_menu.addAction(act)
    return act
