"""The reader's controls: screen size (presets and any value), reading mode, T2I tolerance,
F-score beta, and the open article's entry point (the ``entry`` mode). Every change goes to
:meth:`Session.set_settings` (the entry point to :meth:`Session.set_entry`) at once (live).

:func:`build_entry_point` adds the ways to set the entry point from the text: Alt+click in
the article view, and Reader ▸ "Start reading here" (Ctrl+Alt+E, at the text cursor: a plain
click puts it there), which the shortcuts help lists."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QButtonGroup, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout,
                               QPushButton, QSizePolicy, QSpinBox, QWidget)

from readsim.core.doc_evaluation import Settings

from ..plain import plain_label
from ..rows import MODES
from ..session import Session

PRESETS = ((300, "Mobile 300"), (2000, "Laptop 2000"))
MODE_HELP = {
    "natural": "chain, then back to the start and the rest in document order",
    "worst": "chain, then the rest that is not relevant, then the relevant rest",
    "best": "chain, then the relevant rest first (a teaching contrast)",
    "document": "the whole article from its start; retrieved passages ignored",
    "entry": "from the entry point (a Best in Context run's offset, or Alt+click in the text) to the end, "
             "then from the start; retrieved passages ignored",
}
ENTRY_TIP = ("Entry point of the open article for the entry reading mode, in {unit}: the run's (a Best in "
             "Context line's offset, else its first passage's start), or set here, by Alt+click in the text or "
             "Reader ▸ Start reading here (Ctrl+Alt+E). Setting it switches to the entry mode.")


class CountSpinBox(QSpinBox):
    """A spin box of an amount in ``plural`` (the unit: ``bytes``, ``characters``) whose suffix
    agrees with its value: ``1 byte``, ``300 bytes``."""

    def __init__(self, plural: str, parent=None) -> None:
        super().__init__(parent)
        self._plural = plural
        # narrower than its longest value where the column is (a small screen): its least size, not its hint
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.valueChanged.connect(self._follow)
        self._follow(self.value())

    def setValue(self, value: int) -> None:  # also when its signals are blocked
        super().setValue(value)
        self._follow(self.value())

    def set_plural(self, plural: str) -> None:
        """Count in another unit (the session's, once a collection decides it)."""
        self._plural = plural
        self._follow(self.value())

    def _follow(self, value: int) -> None:
        suffix = f" {self._plural[:-1] if value == 1 else self._plural}"
        if self.suffix() != suffix:
            self.setSuffix(suffix)


class Controls(QGroupBox):
    """Screen size, mode, tolerance and beta, bound to a :class:`Session`."""

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__("Reader", parent)
        self.session = session
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        # a narrow column (a small screen) puts a row's field under its label instead of scrolling
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)

        self.screen = CountSpinBox(session.unit)
        self.screen.setRange(1, 10_000_000)
        self.screen.setSingleStep(100)
        row = QHBoxLayout()
        row.addWidget(self.screen, 1)
        self.presets = QButtonGroup(self)
        self.preset_buttons = {}
        for size, label in PRESETS:
            b = QPushButton(label)
            b.setCheckable(True)
            b.clicked.connect(lambda _=False, s=size: self.screen.setValue(s))
            self.presets.addButton(b)
            self.preset_buttons[size] = b
            row.addWidget(b)
        self.presets.setExclusive(False)
        form.addRow(plain_label("Screen"), _wrap(row))

        self.mode = QComboBox()
        for m in MODES:
            self.mode.addItem(m.value, m.value)
            self.mode.setItemData(self.mode.count() - 1, MODE_HELP[m.value], 3)  # ToolTipRole
        self.mode.setToolTip("Reading mode: what the reader does after the matching chain (Ctrl+M cycles)")
        form.addRow(plain_label("Reading"), self.mode)

        self.tolerance = CountSpinBox(session.unit)
        self.tolerance.setRange(1, 10_000_000)
        self.tolerance.setSingleStep(50)
        form.addRow(plain_label("T2I tolerance"), self.tolerance)

        self.beta = QDoubleSpinBox()
        self.beta.setRange(0.01, 10.0)
        self.beta.setDecimals(2)
        self.beta.setSingleStep(0.05)
        self.beta.setToolTip("Beta of the set-based F (0.25: INEX 2008-2010 official)")
        form.addRow(plain_label("F beta"), self.beta)

        self.entry = CountSpinBox(session.unit)
        self.entry.setRange(0, 2**31 - 1)
        self.entry.setSingleStep(100)
        self.entry.setGroupSeparatorShown(True)
        self.entry.setKeyboardTracking(False)  # one rescoring when typing ends, not per digit
        self.entry_reset = QPushButton("Run's")
        self.entry_reset.setToolTip("Back to the run's entry point for this article")
        row = QHBoxLayout()
        row.addWidget(self.entry, 1)
        row.addWidget(self.entry_reset)
        form.addRow(plain_label("Entry point"), _wrap(row))

        self.show_unit()
        session.files_changed.connect(self.show_unit)
        self.show_settings(session.settings)
        self.screen.valueChanged.connect(lambda v: session.set_settings(screen=int(v)))
        self.mode.currentIndexChanged.connect(lambda i: session.set_settings(mode=self.mode.itemData(i)))
        self.tolerance.valueChanged.connect(lambda v: session.set_settings(tolerance=int(v)))
        self.beta.valueChanged.connect(lambda v: session.set_settings(beta=round(float(v), 4)))
        session.settings_changed.connect(self.show_settings)
        self.entry.valueChanged.connect(self._entry_changed)
        self.entry_reset.clicked.connect(lambda: session.set_entry(None))
        for sig in (session.article_changed, session.evaluation_changed):
            sig.connect(self.show_entry)
        self.show_entry()

    def show_unit(self) -> None:
        """The amounts' unit in their suffixes and tooltips: the session's, which follows the
        collection opened when no ``--unit`` is given (docs/reference.md section 2.13)."""
        unit = self.session.unit
        for box in (self.screen, self.tolerance, self.entry):
            box.set_plural(unit)
        self.screen.setToolTip(f"Screen size in {unit}, the qrels' unit (UTF-8 bytes for INEX 2009/2010, characters "
                               f"for documents that are not article XML; readsim --unit switches it)")
        for size, b in self.preset_buttons.items():
            b.setToolTip(f"Screen of {size} {unit}")
        self.tolerance.setToolTip(f"T2I tolerance to irrelevance: the reader stops after this many non-relevant {unit}")
        self.entry.setToolTip(ENTRY_TIP.format(unit=unit))

    def unwrapped_width(self) -> int:
        """The width at which no row puts its field under its label: the widest label, the
        spacing, the widest field (their size hints), the margins (pixels). The form's own size
        hint follows how it is wrapped now."""
        form = self.layout()
        labels, fields = [], []
        for row in range(form.rowCount()):
            for role, out in ((QFormLayout.ItemRole.LabelRole, labels), (QFormLayout.ItemRole.FieldRole, fields)):
                item = form.itemAt(row, role)
                if item is not None and item.widget() is not None:
                    out.append(item.widget().sizeHint().width())
        m, g = form.contentsMargins(), self.contentsMargins()
        return (max(labels, default=0) + max(form.horizontalSpacing(), 0) + max(fields, default=0)
                + m.left() + m.right() + g.left() + g.right())

    def _entry_changed(self, value: int) -> None:
        shown = self.session.entry_of_current()
        if shown is not None and shown[0] != value:
            self.session.set_entry(int(value))

    def show_entry(self) -> None:
        """Reflect the open article's entry point (and whether the user set it)."""
        shown = self.session.entry_of_current()
        self.entry.setEnabled(shown is not None)
        self.entry_reset.setEnabled(shown is not None and shown[1] == "you")
        if shown is None:
            return
        cur = self.session.current
        self.entry.blockSignals(True)
        top = max(min(cur.evaluation.n, 2**31 - 1), 0)
        if self.entry.maximum() != top:  # a new range re-lays the window out (QSpinBox asks for it even when equal)
            self.entry.setMaximum(top)
        self.entry.setValue(min(max(shown[0], 0), top))  # a Qt spin box holds 32-bit values only
        self.entry.blockSignals(False)

    def show_settings(self, s: Settings) -> None:
        """Reflect ``s`` in the widgets (without feeding back)."""
        for w, value in ((self.screen, s.screen), (self.tolerance, s.tolerance), (self.beta, s.beta)):
            if w.value() != value:
                w.blockSignals(True)
                w.setValue(value)
                w.blockSignals(False)
        i = self.mode.findData(s.mode.value)
        if i >= 0 and i != self.mode.currentIndex():
            self.mode.blockSignals(True)
            self.mode.setCurrentIndex(i)
            self.mode.blockSignals(False)
        for size, b in self.preset_buttons.items():
            b.setChecked(size == s.screen)


def build_entry_point(window) -> tuple[QAction, QAction]:
    """Setting the entry point from the text of ``window`` (a MainWindow): Alt+click in the
    article view, and Reader ▸ "Start reading here (entry point; Alt+click in the text)"
    (Ctrl+Alt+E, at the text cursor) and "Entry point from the run"; returns those two actions
    (the window's ``act_entry_here``, ``act_entry_from_run``)."""
    session, view = window.session, window.article.view

    def at_display(position: int) -> None:
        lay = view.layout_
        if lay is not None:
            session.set_entry(lay.from_display(position))

    def here() -> None:
        if view.layout_ is None:
            session.message.emit("No article text: the entry point is set in the text (Alt+click)")
            return
        at_display(view.textCursor().position())

    view.entry_clicked.connect(at_display)
    here_action = QAction("Start reading here (entry point; Alt+click in the text)", window)
    here_action.setShortcut(QKeySequence("Ctrl+Alt+E"))
    here_action.setStatusTip("Start reading the open article at the text cursor (entry reading mode)")
    here_action.triggered.connect(here)
    reset_action = QAction("Entry point from the run", window)
    reset_action.setStatusTip("Read the open article from the run's entry point again")
    reset_action.triggered.connect(lambda: session.set_entry(None))
    for a in (here_action, reset_action):
        window.addAction(a)
    reader = window.reader_menu
    reader.addSeparator()
    reader.addAction(here_action)
    reader.addAction(reset_action)
    return here_action, reset_action


def _wrap(layout) -> QWidget:
    w = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    w.setLayout(layout)
    return w
