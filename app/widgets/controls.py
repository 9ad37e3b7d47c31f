"""The reader's controls: screen size (presets and any value), reading mode, T2I tolerance,
F-score beta. Every change goes to :meth:`Session.set_settings` at once (live)."""

from __future__ import annotations

from PySide6.QtWidgets import (QButtonGroup, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout,
                               QPushButton, QSpinBox, QWidget)

from readsim.engine.document import Settings

from ..session import MODES, Session

PRESETS = ((300, "Mobile 300"), (2000, "Laptop 2000"))
MODE_HELP = {
    "natural": "chain, then back to the start and the rest in document order",
    "worst": "chain, then the rest that is not relevant, then the relevant rest",
    "best": "chain, then the relevant rest first (a teaching contrast)",
    "document": "the whole article from its start; retrieved passages ignored",
}


class Controls(QGroupBox):
    """Screen size, mode, tolerance and beta, bound to a :class:`Session`."""

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__("Reader", parent)
        self.session = session
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)

        self.screen = QSpinBox()
        self.screen.setRange(1, 10_000_000)
        self.screen.setSingleStep(100)
        unit = session.unit
        self.screen.setSuffix(f" {unit}")
        self.screen.setToolTip(f"Screen size in {unit}, the qrels' unit (UTF-8 bytes for INEX 2009/2010; "
                               f"readsim --unit switches it)")
        row = QHBoxLayout()
        row.addWidget(self.screen, 1)
        self.presets = QButtonGroup(self)
        self.preset_buttons = {}
        for size, label in PRESETS:
            b = QPushButton(label)
            b.setCheckable(True)
            b.setToolTip(f"Screen of {size} {unit}")
            b.clicked.connect(lambda _=False, s=size: self.screen.setValue(s))
            self.presets.addButton(b)
            self.preset_buttons[size] = b
            row.addWidget(b)
        self.presets.setExclusive(False)
        form.addRow("Screen", _wrap(row))

        self.mode = QComboBox()
        for m in MODES:
            self.mode.addItem(m.value, m.value)
            self.mode.setItemData(self.mode.count() - 1, MODE_HELP[m.value], 3)  # ToolTipRole
        self.mode.setToolTip("Reading mode: what the reader does after the matching chain (Ctrl+M cycles)")
        form.addRow("Reading", self.mode)

        self.tolerance = QSpinBox()
        self.tolerance.setRange(1, 10_000_000)
        self.tolerance.setSingleStep(50)
        self.tolerance.setSuffix(f" {unit}")
        self.tolerance.setToolTip(f"T2I tolerance to irrelevance: the reader stops after this many non-relevant {unit}")
        form.addRow("T2I tolerance", self.tolerance)

        self.beta = QDoubleSpinBox()
        self.beta.setRange(0.01, 10.0)
        self.beta.setDecimals(2)
        self.beta.setSingleStep(0.05)
        self.beta.setToolTip("Beta of the set-based F (0.25: INEX 2008-2010 official)")
        form.addRow("F beta", self.beta)

        self.show_settings(session.settings)
        self.screen.valueChanged.connect(lambda v: session.set_settings(screen=int(v)))
        self.mode.currentIndexChanged.connect(lambda i: session.set_settings(mode=self.mode.itemData(i)))
        self.tolerance.valueChanged.connect(lambda v: session.set_settings(tolerance=int(v)))
        self.beta.valueChanged.connect(lambda v: session.set_settings(beta=round(float(v), 4)))
        session.settings_changed.connect(self.show_settings)

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


def _wrap(layout) -> QWidget:
    w = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    w.setLayout(layout)
    return w
