"""File ▸ New sandbox… (docs/reference.md section 9.2.2): type or paste a short text, mark its
relevant text and the retrieved passages with the mouse (or type their offsets), and open it in
the window as an article of a collection of one, with every measure, the chain, playback and
Explain as for any article.

- :class:`SpansModel`: the marked spans, one row each (kind, start, end, the text), start and end
  editable; offsets in **characters** (code points), 0-based, end exclusive; usable without a
  window.
- :class:`SandboxDialog`: the text box (plain text only), "Mark relevant" / "Mark retrieved" /
  "Remove span" for the selection, the table, the shipped examples of the paper, Open…, Save…
  and "Open in window".
- :class:`SandboxOpener` and :func:`build_sandbox`: the File menu's entry and the dialog built on
  first use; "Open in window" saves the sandbox (:func:`readsim.core.sandbox.save_sandbox`) into
  a temporary folder of this process and opens its collection, qrels and run in the session.

A text box counts UTF-16 code units; the spans count characters: :func:`chars_of` and
:func:`units_of` convert. Line ends in the box are line feeds.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QKeySequence, QSyntaxHighlighter, QTextCharFormat
from PySide6.QtWidgets import (QCheckBox, QDialog, QFileDialog, QHBoxLayout, QHeaderView, QMenu, QPlainTextEdit,
                               QPushButton, QTableView, QVBoxLayout, QWidget)

from readsim.core.errors import InputError
from readsim.core.sandbox import ARTICLE, SUFFIX, TOPIC, Sandbox, read_sandbox, save_sandbox, shipped_examples

from .. import appearance as look
from ..background import LatestJob
from ..loading import Loaded, read_inputs
from ..plain import menu_text, plain_label

KIND, START, END, TEXT = range(4)
HEADERS = ("Kind", "Start", "End", "Text")
RELEVANT, RETRIEVED = "relevant", "retrieved"
SHORTCUT = "Ctrl+Alt+N"
FILTER = f"Sandboxes (*{SUFFIX});;All files (*)"
SHOWN_CHARS = 40  # the table's Text column: the span's first characters
LIVE_DELAY_MS = 400  # a pause in typing or marking before the window follows (Live)


def chars_of(text: str, units: int) -> int:
    """The character (code point) offset of ``units`` UTF-16 code units into ``text``."""
    return len(text.encode("utf-16-le")[:2 * units].decode("utf-16-le", errors="ignore"))


def units_of(text: str, chars: int) -> int:
    """The UTF-16 offset (a text box's position) of character ``chars`` of ``text``."""
    return len(text[:chars].encode("utf-16-le")) // 2


class SpanMarks(QSyntaxHighlighter):
    """The sandbox's marks laid over its text box's text (the window's colours: relevant,
    relevant and retrieved, retrieved underlined), without changing the text. A highlighter, not
    ``setExtraSelections`` on every edit: formats per block, redrawn only when the spans change.
    Spans are ``(start, end)`` in the text box's UTF-16 positions (:func:`units_of`)."""

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor.document())
        self.relevant: list[tuple[int, int]] = []
        self.retrieved: list[tuple[int, int]] = []

    def show(self, relevant: list[tuple[int, int]], retrieved: list[tuple[int, int]]) -> None:
        """Mark these spans (the text redrawn only when they differ from those shown)."""
        if (relevant, retrieved) != (self.relevant, self.retrieved):
            self.relevant, self.retrieved = relevant, retrieved
            self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        block = self.currentBlock()
        start, end = block.position(), block.position() + block.length() - 1
        cuts = sorted({start, end, *(min(max(x, start), end) for span in self.relevant + self.retrieved for x in span)})
        m = look.marks()
        for a, b in zip(cuts, cuts[1:]):  # pieces between span ends: each one kind of mark
            relevant = any(s <= a < e for s, e in self.relevant)
            retrieved = any(s <= a < e for s, e in self.retrieved)
            if relevant or retrieved:
                fmt = QTextCharFormat()
                if relevant:
                    fmt.setBackground(QColor(m.both if retrieved else m.relevant))
                if retrieved:
                    fmt.setFontUnderline(True)
                    fmt.setUnderlineColor(QColor(m.retrieved))
                self.setFormat(a - start, b - a, fmt)


class SpansModel(QAbstractTableModel):
    """The marked spans of a sandbox's ``text``: rows ``[kind, start, end]`` in characters, the
    relevant ones first, then the retrieved in their rank order; Start and End are editable
    (a whole number from 0; :meth:`Sandbox.problem` tells what does not fit the text)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.text = ""
        self.rows: list[list] = []

    def set_rows(self, text: str, relevant=(), retrieved=()) -> None:
        """Show ``relevant`` and ``retrieved`` ``(start, end)`` spans of ``text``."""
        self.beginResetModel()
        self.text = text
        self.rows = [[RELEVANT, s, e] for s, e in relevant] + [[RETRIEVED, s, e] for s, e in retrieved]
        self.endResetModel()

    def set_text(self, text: str) -> None:
        """The text changed (the spans stay as they are)."""
        self.text = text
        if self.rows:
            self.dataChanged.emit(self.index(0, TEXT), self.index(len(self.rows) - 1, TEXT))

    def add(self, kind: str, start: int, end: int) -> int:
        """Add a span of ``kind`` (after the last of its kind); returns its row."""
        at = max((i + 1 for i, r in enumerate(self.rows) if r[0] == kind), default=0 if kind == RELEVANT else len(self.rows))
        self.beginInsertRows(QModelIndex(), at, at)
        self.rows.insert(at, [kind, start, end])
        self.endInsertRows()
        return at

    def remove(self, row: int) -> None:
        """Remove the span in ``row`` (nothing when there is none)."""
        if 0 <= row < len(self.rows):
            self.beginRemoveRows(QModelIndex(), row, row)
            del self.rows[row]
            self.endRemoveRows()

    def shift(self, at: int, removed: int, added: int) -> None:
        """The text changed at character ``at``: ``removed`` characters replaced by ``added``.
        Offsets after the change move with their text (text typed where a span starts goes before
        it, where it ends after it); a start inside the removed stretch moves past the added text,
        an end to the stretch's start (a span inside it becomes empty, which the problem line names)."""
        def moved(x: int, start: bool) -> int:
            if x < at or (x == at and not start and removed == 0):
                return x
            if x >= at + removed:
                return x + added - removed
            return at + added if start else at

        for row in self.rows:
            row[1], row[2] = moved(row[1], True), moved(row[2], False)
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, TEXT))

    def spans(self, kind: str) -> tuple[tuple[int, int], ...]:
        """The ``(start, end)`` spans of ``kind``, in the table's order."""
        return tuple((s, e) for k, s, e in self.rows if k == kind)

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def flags(self, index):
        base = super().flags(index)
        return base | Qt.ItemFlag.ItemIsEditable if index.column() in (START, END) else base

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        kind, start, end = self.rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if index.column() == TEXT:
                shown = self.text[start:end].replace("\n", "⏎")
                return shown if len(shown) <= SHOWN_CHARS else shown[:SHOWN_CHARS - 1] + "…"
            return (kind, start, end)[index.column()]
        return None

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or index.column() not in (START, END):
            return False
        try:
            number = int(str(value).strip().replace(",", ""))
        except ValueError:
            return False
        if number < 0:
            return False
        self.rows[index.row()][index.column()] = number
        self.dataChanged.emit(self.index(index.row(), 0), self.index(index.row(), TEXT))
        return True


class SandboxDialog(QDialog):
    """The sandbox's editor (non-modal). ``open_in_window(box)`` is called by "Open in window";
    ``show_error(text)`` tells a file that cannot be read or written."""

    def __init__(self, open_in_window: Callable[[Sandbox], None], show_error: Callable[[str], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Sandbox article")
        self._open, self._error = open_in_window, show_error
        self.note = plain_label()
        self.note.setWordWrap(True)
        self.note.setVisible(False)  # a sandbox's note, where it comes from (set_sandbox)
        self.editor = QPlainTextEdit()
        self.editor.setPlaceholderText("Type or paste a short text, select some of it, then mark it relevant or retrieved.")
        self.marks = SpanMarks(self.editor)
        self.model = SpansModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(TEXT, QHeaderView.ResizeMode.Stretch)
        self.problem = plain_label()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(f"color: {look.css('bad')}")
        self.mark_relevant = QPushButton("Mark &relevant")
        self.mark_retrieved = QPushButton("Mark re&trieved")
        self.remove = QPushButton("Re&move span")
        self.examples = QPushButton("Paper &examples")
        menu = QMenu(self.examples)
        for path in shipped_examples():
            menu.addAction(menu_text(path.stem), lambda p=path: self.open_file(p))
        self.examples.setMenu(menu)
        self.open_button = QPushButton("&Open…")
        self.save_button = QPushButton("&Save…")
        self.window_button = QPushButton("Open in &window")
        self.window_button.setDefault(True)
        self.live = QCheckBox("&Live")
        self.live.setChecked(True)
        self.live.setToolTip("Once opened in the window, the window follows every change (after a pause)")
        self.opened = False  # opened in the window once: Live follows from then on
        self._live_timer = QTimer(self)
        self._live_timer.setSingleShot(True)
        self._live_timer.setInterval(LIVE_DELAY_MS)
        self._live_timer.timeout.connect(self._follow)
        marks = QHBoxLayout()
        for b in (self.mark_relevant, self.mark_retrieved, self.remove):
            marks.addWidget(b)
        marks.addStretch(1)
        files = QHBoxLayout()
        for b in (self.examples, self.open_button, self.save_button):
            files.addWidget(b)
        files.addStretch(1)
        files.addWidget(self.live)
        files.addWidget(self.window_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.editor, 3)
        layout.addLayout(marks)
        layout.addWidget(self.table, 2)
        layout.addWidget(self.problem)
        layout.addLayout(files)
        self.mark_relevant.clicked.connect(lambda: self.mark(RELEVANT))
        self.mark_retrieved.clicked.connect(lambda: self.mark(RETRIEVED))
        self.remove.clicked.connect(self._remove_selected)
        self.open_button.clicked.connect(self._ask_open)
        self.save_button.clicked.connect(self._ask_save)
        self.window_button.clicked.connect(self.open_in_window)
        self._text = ""  # the text before the latest change (contentsChange counts in it)
        self.editor.document().contentsChange.connect(self._contents_change)
        self.editor.textChanged.connect(self._text_changed)
        self.model.modelReset.connect(self.refresh)
        self.model.rowsInserted.connect(self.refresh)
        self.model.rowsRemoved.connect(self.refresh)
        self.model.dataChanged.connect(self.refresh)
        self.resize(760, 560)
        self.refresh()

    # -- the sandbox ---------------------------------------------------------------------
    def sandbox(self) -> Sandbox:
        """What the dialog holds: the text box's text and the table's spans."""
        return Sandbox(self.editor.toPlainText(), self.model.spans(RELEVANT), self.model.spans(RETRIEVED),
                       self.note.text())

    def set_sandbox(self, box: Sandbox) -> None:
        """Show ``box``: its text in the box, its spans in the table, its note above."""
        self.model.set_rows("")
        self.editor.setPlainText(box.text)
        self.note.setText(box.note)
        self.note.setVisible(bool(box.note))
        self.model.set_rows(box.text, box.relevant, box.retrieved)

    def selection(self) -> tuple[int, int] | None:
        """The text box's selection as ``(start, end)`` characters, or None when nothing is selected."""
        cursor, text = self.editor.textCursor(), self.editor.toPlainText()
        if not cursor.hasSelection():
            return None
        return chars_of(text, cursor.selectionStart()), chars_of(text, cursor.selectionEnd())

    def mark(self, kind: str) -> None:
        """Add the selection as a span of ``kind`` (relevant or retrieved)."""
        span = self.selection()
        if span is None:
            self.problem.setText("Select some text first, then mark it.")
            return
        self.table.selectRow(self.model.add(kind, *span))

    def open_in_window(self) -> None:
        """Open the sandbox in the window; with Live checked, the window then follows each change."""
        self._live_timer.stop()
        self.opened = True
        self._open(self.sandbox())

    def _follow(self) -> None:
        if self.opened and self.live.isChecked() and self.sandbox().problem() is None:
            self._open(self.sandbox())

    def _contents_change(self, position: int, removed: int, added: int) -> None:
        old, new = self._text, self.editor.toPlainText()
        self._text = new
        at = chars_of(old, position)
        self.model.shift(at, chars_of(old, position + removed) - at, chars_of(new, position + added) - at)

    def _text_changed(self) -> None:
        self.model.set_text(self.editor.toPlainText())
        self.refresh()

    def _remove_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.model.remove(rows[0].row())

    def refresh(self) -> None:
        """The marks in the text box and the problem line follow the spans."""
        box = self.sandbox()
        problem = box.problem() if box.text else "Type or paste a text."
        self.problem.setText(problem or "")
        self.window_button.setEnabled(problem is None)
        self.save_button.setEnabled(problem is None)
        self.marks.show([(units_of(box.text, a), units_of(box.text, b)) for a, b in box.relevant],
                        [(units_of(box.text, a), units_of(box.text, b)) for a, b in box.retrieved])
        if self.opened and self.live.isChecked() and problem is None:
            self._live_timer.start()

    # -- files ---------------------------------------------------------------------------
    def open_file(self, path) -> bool:
        """Show the sandbox file ``path``; False (and the error told) when it cannot be read."""
        try:
            self.set_sandbox(read_sandbox(path))
        except (InputError, OSError) as err:
            self._error(str(err) if isinstance(err, InputError) else f"{path}: {err.strerror or err}")
            return False
        return True

    def save(self, folder) -> dict[str, Path] | None:
        """Save the sandbox into ``folder`` (:func:`readsim.core.sandbox.save_sandbox`); None
        (and the error told) when it cannot be written."""
        try:
            return save_sandbox(self.sandbox(), folder)
        except (ValueError, OSError) as err:
            name = getattr(err, "filename", None) or folder
            self._error(f"{name}: {err.strerror or err}" if isinstance(err, OSError) else f"{folder}: {err}")
            return None

    def _ask_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open sandbox", "", FILTER)
        if path:
            self.open_file(path)

    def _ask_save(self) -> None:
        folder, _ = QFileDialog.getSaveFileName(self, "Save the sandbox as a new folder (doc.txt, qrels, run)", "sandbox")
        if folder:
            self.save(folder)


class SandboxOpener:
    """The window's sandbox: its dialog, built on first :meth:`show`, and the temporary folder
    (removed when the process ends) that "Open in window" saves into."""

    def __init__(self, session, show_error: Callable[[str], None], parent: QWidget) -> None:
        self.session, self.show_error, self.parent = session, show_error, parent
        self.dialog: SandboxDialog | None = None
        self._folder: tempfile.TemporaryDirectory | None = None
        self.action = QAction("New &sandbox…", parent)  # File ▸ New sandbox… (build_sandbox)
        self._job = LatestJob(parent)  # Live opens again and again: only the latest is shown

    def show(self, box: Sandbox | None = None) -> SandboxDialog:
        """Show the dialog (built now if it is not), with ``box`` when given."""
        if self.dialog is None:
            self.dialog = SandboxDialog(self.open_in_window, self.show_error, self.parent)
        if box is not None:
            self.dialog.set_sandbox(box)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def open_in_window(self, box: Sandbox) -> dict[str, Path] | None:
        """Save ``box`` into this process's sandbox folder and open it in the session (read in a
        worker, :func:`readsim.app.loading.read_inputs`, then :meth:`Session.adopt`; not put in the
        recent files): topic ``sandbox``, article ``doc``, in characters. Returns the files, or
        None (the error told)."""
        if self.session.unit_option == "bytes":
            self.show_error("sandbox: its offsets are characters; this window reads bytes (--unit bytes): "
                            "start readsim without --unit to open a sandbox")
            return None
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="readsim-sandbox-")
        folder = Path(self._folder.name) / "sandbox"
        try:
            paths = save_sandbox(box, folder)
        except (ValueError, OSError) as err:
            self.show_error(f"sandbox: {err}")
            return None
        session, unit = self.session, self.session.unit_option

        def op(progress) -> Loaded:  # as Session.open_files reads, but not into the recent files: the folder goes
            return read_inputs(folder, paths["qrels"], [str(paths["run"])], None, unit)

        def success(out: Loaded) -> None:
            if out.anything():
                session.adopt(out, TOPIC, ARTICLE)
            for text in out.errors:
                self.show_error(text)

        self._job.start(op, success, session.worker_failed)
        return paths


def build_sandbox(window, menu: QMenu) -> SandboxOpener:
    """File ▸ New sandbox… (:data:`SHORTCUT`, the opener's ``action``), added to ``menu`` (the
    File menu being built, after Open sample); returns the window's :class:`SandboxOpener` (its
    ``sandbox``)."""
    opener = SandboxOpener(window.session, window.show_error, window)
    act = opener.action
    act.setShortcut(QKeySequence(SHORTCUT))
    act.setStatusTip("Type or paste a short text, mark relevant and retrieved text, and read it as an article")
    act.triggered.connect(lambda: opener.show())
    menu.addAction(act)
    window.addAction(act)
    return opener
