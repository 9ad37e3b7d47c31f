"""The main window's status line and log: the status text, the input warnings' summary (a link
to the log), the busy bar (with the collection index build's progress and its Cancel button),
the log dock of reader warnings and errors, and the error message box
(:meth:`StatusLine.show_error`). The window keeps its parts (``status``, ``log``, ``log_dock``,
``busy``, ...) and calls its methods from its slots."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction, QTextDocument
from PySide6.QtWidgets import QDockWidget, QMessageBox, QPlainTextEdit, QProgressBar, QPushButton, QSizePolicy

from ..plain import amount, esc, plain_label, plain_tip, rich_label
from ..session import Session
from .error_box import ErrorBox

SUMMARY_CHARS = 110  # the status bar's input-warning summary is clipped there (full text: tooltip, log)


class StatusLine(QObject):
    """The status bar and the log of ``window`` over ``session`` (``show_dialogs()``, asked at each
    error: the window's flag now, which tests and pictures turn off and on; False: errors in the
    status bar and the log only). ``cancel_busy(what, on)`` tells the window's one cancel
    action (Esc) that the collection's index build (``"index"``) runs or not."""

    def __init__(self, window, session: Session, show_dialogs: Callable[[], bool], cancel_busy: Callable[[str, bool], None]) -> None:
        super().__init__(window)
        self.session = session
        self._show_dialogs = show_dialogs
        self._cancel_busy = cancel_busy
        # log of reader warnings
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(5000)
        self.log_dock = QDockWidget("Log (reader warnings and errors)", window)
        self.log_dock.setObjectName("log")
        self.log_dock.setWidget(self.log)
        window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.log_dock)
        self.log_dock.hide()

        # status bar
        self.status = plain_label()
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # clip, never push
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.hide()
        self._index_timer = QTimer(self)  # polls the collection index build (Session.indexing)
        self._index_timer.setInterval(100)
        self._index_timer.timeout.connect(self._show_indexing)
        self.cancel_indexing = QPushButton("Cancel")  # shown while a collection is indexed
        self.cancel_indexing.setToolTip("Stop indexing the collection; it is not opened (Esc)")
        self.cancel_indexing.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.cancel_indexing.hide()
        self.cancel_indexing.clicked.connect(session.cancel_indexing)
        # Esc is the window's one cancel action (build_article_loading), told of the build
        self.act_cancel_indexing = QAction("Cancel indexing the collection", window)
        self.act_cancel_indexing.setEnabled(False)
        self.act_cancel_indexing.triggered.connect(session.cancel_indexing)
        self.warnings_label = rich_label()
        self.warnings_label.linkActivated.connect(lambda _link: self.show_log())
        window.statusBar().addWidget(self.status, 1)
        window.statusBar().addPermanentWidget(self.warnings_label)
        window.statusBar().addPermanentWidget(self.busy)
        window.statusBar().addPermanentWidget(self.cancel_indexing)
        self._warnings = 0
        self._coverage_summary = ""
        self._coverage_lines: list[str] = []
        self._errors = ErrorBox(window, "readsim: cannot read the input", window_modal=True)
        self.errors_shown: list[str] = []  # every error text shown, in order

    def busy_changed(self, jobs: int) -> None:
        """Jobs in flight changed (:func:`~readsim.app.background.activity`): the busy bar."""
        self.busy.setVisible(jobs > 0)
        if self.session.indexing is None:
            self._show_indexing()  # over: no Cancel button, the indeterminate bar again
        elif not self._index_timer.isActive():
            self._index_timer.start()

    def _show_indexing(self) -> None:
        """The collection index build's progress (reference 2.10), polled from the GUI thread:
        the busy bar's value and the status line; an indeterminate bar when it is over."""
        job = self.session.indexing
        self.cancel_indexing.setVisible(job is not None)
        self.act_cancel_indexing.setEnabled(job is not None)
        self._cancel_busy("index", job is not None)
        if job is None:
            self._index_timer.stop()
            self.busy.setRange(0, 0)
            return
        self.busy.setRange(0, 1000)
        self.busy.setValue(int(job.fraction * 1000))
        if job.text and not job.cancelled:
            self.status.setText(f"{job.text} (Esc cancels)")

    def show_error(self, text: str) -> None:
        """Show an error (``path: reason``): status bar, log, and (interactive) a message box
        that does not block the event loop (``open()``, never ``exec()``). Errors arriving while
        the box is open are added to it, so a load of several bad files opens one box.
        :attr:`error_box` is the box while it is open."""
        self.errors_shown.append(text)
        self.status.setText(f"Error: {text}")
        self.log.appendPlainText(f"error: {text}")
        if not self._show_dialogs():
            return
        self._errors.tell(text)

    @property
    def error_box(self) -> QMessageBox | None:
        """The open error message box (None: none open)."""
        return self._errors.box

    def add_diagnostics(self, lines: list) -> None:
        for line in lines:
            self.log.appendPlainText(str(line))
        self._warnings += len(lines)
        self._show_warning_counts()

    def show_coverage(self, diagnostics: list) -> None:
        """Show how the loaded inputs fit together (``Session.coverage_changed``): each warning
        not shown by the previous check goes to the log, and the status bar sums them up
        (``2 input warnings: bert.run: 12 topics of the run (first: ...) are not in the qrels;
        ... — see View ▸ Log``; the full texts in its tooltip). An empty list clears the summary."""
        old = set(self._coverage_lines)
        lines = [str(d) for d in diagnostics]
        for line in lines:
            if line not in old:
                self.log.appendPlainText(line)
        self._coverage_lines = lines
        parts = [f"{Path(d.path).name}: {d.message.split(';')[0]}" for d in diagnostics]
        n = len(parts)
        self._coverage_summary = f"{n} input warning{'s' if n != 1 else ''}: " + "; ".join(parts) if parts else ""
        self._show_warning_counts()

    def _show_warning_counts(self) -> None:
        """The status bar's warnings label: the input summary (clipped) and the reader
        warnings' count, with a link that opens the log; the full summary in the tooltip."""
        summary = self._coverage_summary
        parts = []
        if summary:
            shown = summary if len(summary) <= SUMMARY_CHARS else summary[:SUMMARY_CHARS - 1] + "…"
            parts.append(esc(shown))
        if self._warnings:
            parts.append(amount(self._warnings, "reader warnings"))
        if not parts:
            self.warnings_label.setText("")
            self.warnings_label.setToolTip("")
            return
        self.warnings_label.setText(" · ".join(parts) + " — see <a href='log'>View ▸ Log</a>")
        self.warnings_label.setToolTip(plain_tip("\n".join(self._coverage_lines)))

    def show_log(self) -> None:
        """Show the log dock in front (it shares its tabs with the topic view)."""
        self.log_dock.show()
        self.log_dock.raise_()

    def warnings_text(self) -> str:
        """The warnings label as plain text (what the status bar shows)."""
        doc = QTextDocument()
        doc.setHtml(self.warnings_label.text())
        return doc.toPlainText()
