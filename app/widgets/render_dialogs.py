"""File ▸ Export figure… and Reader ▸ Record playback…: the small dialogs before the save dialog.

:func:`build_render` builds both entries of to a main window. Export figure asks for the range
(the visible screen, or START to END in the session's unit), the format (SVG, PDF, PNG) and the
PNG's width, then a file name, and writes :func:`readsim.app.figure.export_figure`. Record
playback asks for the format (GIF; MP4 only when imageio-ffmpeg is installed), the article pane
or the whole window, one frame per screen or per playback step, and the speed, then a file
name; it grabs the frames (:func:`readsim.app.recording.capture`, GUI thread) behind a progress
dialog that can cancel (nothing is written then), then encodes and writes the file in a worker
thread (:func:`readsim.app.background.run_in_background`). Errors go to the window's message box (``path: reason``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QButtonGroup, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout,
                               QProgressDialog, QRadioButton, QSpinBox, QWidget)

from .. import export
from ..figure import DEFAULT_WIDTH, WIDTH_RANGE, range_limit
from ..playback import SPEED_RANGE

FIGURE_FILTERS = {"SVG": "SVG drawing (*.svg)", "PDF": "PDF document (*.pdf)", "PNG": "PNG image (*.png)"}
RECORD_FILTERS = {"GIF": "Animated GIF (*.gif)", "MP4": "MP4 video (*.mp4)"}


def _choice(form: QFormLayout, label: str, texts: tuple[str, ...]) -> QButtonGroup:
    """A row of radio buttons (the first checked); ``group.checkedId()`` is the index."""
    row = QWidget()
    box = QHBoxLayout(row)
    box.setContentsMargins(0, 0, 0, 0)
    group = QButtonGroup(row)
    for i, text in enumerate(texts):
        b = QRadioButton(text)
        b.setChecked(i == 0)
        group.addButton(b, i)
        box.addWidget(b)
    box.addStretch(1)
    form.addRow(label, row)
    return group


def _buttons(dialog: QDialog, form: QFormLayout) -> None:
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form.addRow(buttons)


class FigureDialog(QDialog):
    """Range (visible screen or START–END in the unit), format and PNG width."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.setWindowTitle("Export figure")
        form = QFormLayout(self)
        s = window.session
        length = range_limit(s)[0]  # what --range accepts: the article's length (reference 1.5)
        unit = "characters" if s.unit == "chars" else s.unit
        self.what = _choice(form, "Show", ("Visible screen", f"Range of {unit}"))
        self.start, self.end = QSpinBox(), QSpinBox()
        for box, value in ((self.start, 0), (self.end, min(length, 2000))):
            box.setRange(0, max(length, 0))
            box.setGroupSeparatorShown(True)
            box.setValue(value)
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(self.start)
        line.addWidget(self.end)
        form.addRow(f"From, to ({unit})", row)
        self.format = QComboBox()
        self.format.addItems(list(FIGURE_FILTERS))
        form.addRow("Format", self.format)
        self.width = QSpinBox()
        self.width.setRange(*WIDTH_RANGE)
        self.width.setValue(DEFAULT_WIDTH)
        self.width.setSuffix(" px")
        form.addRow("PNG width", self.width)
        _buttons(self, form)
        self.what.idToggled.connect(lambda *_: self._enable())
        self.format.currentTextChanged.connect(lambda *_: self._enable())
        self._enable()

    def _enable(self) -> None:
        self.start.setEnabled(self.what.checkedId() == 1)
        self.end.setEnabled(self.what.checkedId() == 1)
        self.width.setEnabled(self.format.currentText() == "PNG")

    def span(self) -> tuple[int, int] | None:
        return (self.start.value(), self.end.value()) if self.what.checkedId() == 1 else None


class RecordDialog(QDialog):
    """Format (GIF, MP4 when available), pane or window, per screen or per step, speed."""

    def __init__(self, window) -> None:
        from ..recording import mp4_available

        super().__init__(window)
        self.setWindowTitle("Record playback")
        form = QFormLayout(self)
        self.format = QComboBox()
        self.format.addItems(list(RECORD_FILTERS))
        if not mp4_available():
            item = self.format.model().item(1)
            item.setEnabled(False)
            item.setToolTip("MP4 needs imageio-ffmpeg: pip install 'readsim[mp4]'")
        form.addRow("Format", self.format)
        self.what = _choice(form, "Record", ("Article pane", "Whole window"))
        self.per = _choice(form, "One frame per", ("Screen", "Playback step"))
        self.speed = QSpinBox()
        self.speed.setRange(*SPEED_RANGE)
        self.speed.setSingleStep(100)
        self.speed.setValue(window.playback.speed)
        self.speed.setSuffix(f" {window.session.unit}/s")
        form.addRow("Speed", self.speed)
        _buttons(self, form)

    def options(self) -> dict:
        return {"what": ("pane", "window")[self.what.checkedId()], "per": ("screen", "step")[self.per.checkedId()],
                "speed": self.speed.value()}


def ask_figure(window) -> None:
    """Export figure: the dialog, the save dialog, then the figure, its layout behind a progress
    dialog whose Cancel (Esc) stops it (GUI thread, in slices: :mod:`readsim.app.figure`);
    errors to the window."""
    from ..figure import Cancelled, export_figure

    dialog = FigureDialog(window)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return
    fmt, span, width = dialog.format.currentText(), dialog.span(), dialog.width.value()
    path = export._ask(window, "Export figure", FIGURE_FILTERS[fmt], export._stem(window, "figure") + "." + fmt.lower())
    if path is None:
        return
    progress, tick = _progress(window, "Laying the figure out…")
    try:
        export.write_export(path, lambda p: export_figure(window, p, span, width, tick=tick), window.show_error,
                            window.status.setText)
    except Cancelled:
        window.status.setText(f"Figure cancelled; nothing was written to {path}")
    finally:
        progress.close()


def _progress(window, text: str):
    """A window-modal progress dialog (shown after 300 ms; Cancel or Esc cancels) and its
    ``tick(done, total) -> bool`` (False once cancelled); the caller closes the dialog."""
    progress = QProgressDialog(text, "Cancel", 0, 100, window)
    progress.setWindowModality(Qt.WindowModality.WindowModal)
    progress.setMinimumDuration(300)

    def tick(done: int, total: int) -> bool:
        progress.setMaximum(total)
        progress.setValue(done)  # a modal progress dialog processes events here (its Cancel)
        return not progress.wasCanceled()

    return progress, tick


def _raise(exc: BaseException):
    raise exc


def ask_record(window) -> None:
    """Record playback: the dialog, the save dialog, the frames grabbed behind a progress dialog
    (GUI thread), then the file encoded and written in a worker thread."""
    from readsim.core.atomic import write_bytes

    from ..background import run_in_background
    from ..recording import Cancelled, capture

    dialog = RecordDialog(window)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return
    fmt, options = dialog.format.currentText(), dialog.options()
    path = export._ask(window, "Record playback", RECORD_FILTERS[fmt], export._stem(window, "playback") + "." + fmt.lower())
    if path is None:
        return
    progress, tick = _progress(window, "Recording the playback…")

    def fail(exc: BaseException) -> None:  # the one message every export gives (anything else: a bug, raised)
        export.write_export(path, lambda _: _raise(exc), window.show_error, window.status.setText)

    try:
        captured = export.write_export(path, lambda p: capture(window, p, progress=tick, **options),
                                       window.show_error, lambda _: None)
    except Cancelled:
        window.status.setText(f"Recording cancelled; nothing was written to {path}")
        return
    finally:
        progress.close()
    if captured is None:  # the error is shown
        return
    window.status.setText(f"Writing {path} ({captured.frames:,} frames)…")

    def write():
        write_bytes(captured.path, captured.encode())
        return captured.path

    run_in_background(window, write, lambda out: window.status.setText(f"Exported {out}"), fail)


def build_render(window) -> tuple[QAction, QAction]:
    """File ▸ Export figure… (after File ▸ Export, ``window.export_menu``) and Reader ▸ Record
    playback…, enabled while an article is open; returns them (the window's
    ``act_export_figure``, ``act_record``)."""
    figure = QAction("Export &figure…", window)
    figure.triggered.connect(lambda: ask_figure(window))
    file_menu = window.file_menu
    acts = file_menu.actions()
    after = window.export_menu.menuAction()
    if after in acts and acts.index(after) + 1 < len(acts):
        file_menu.insertAction(acts[acts.index(after) + 1], figure)
    else:
        file_menu.addAction(figure)
    record = QAction("Re&cord playback…", window)
    record.triggered.connect(lambda: ask_record(window))
    window.reader_menu.addAction(record)

    def enable(*_) -> None:
        on = window.session.current is not None
        figure.setEnabled(on)
        record.setEnabled(on)

    window.session.article_changed.connect(enable)
    enable()
    return figure, record
