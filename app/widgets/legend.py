"""The article view's legend: what the colours and marks mean, in the current theme's colours
(:func:`readsim.app.appearance.marks`; redrawn when the theme changes)."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from .. import appearance as look
from ..plain import rich_label

ITEMS = (("relevant", "relevant (qrels), not retrieved"),
         ("retrieved", "retrieved by the run (blue underline)"),
         ("relevant ∩ retrieved", "relevant and retrieved (sea-green background, underlined)"),
         ("screen", "text read on the current screen (grey frame)"),
         ("↓ 2", "matching chain: link to the next retrieved passage"))


def _styles() -> list[str]:
    m = look.marks()
    return [f"background:{m.relevant}; color:{m.text}",
            f"text-decoration:underline; color:{m.retrieved}",
            f"background:{m.both}; color:{m.text}; text-decoration:underline",
            f"border:1px solid {m.screen}; color:{m.text}",
            f"background:{m.retrieved}; color:{m.page}; font-weight:bold"]


class Legend(QWidget):
    """Swatches: relevant, retrieved, relevant and retrieved, reading screen, chain link."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 0, 4, 0)
        row.setSpacing(10)
        self.swatches: list[QLabel] = []
        for _text, tip in ITEMS:
            label = rich_label()
            label.setToolTip(tip)
            row.addWidget(label)
            self.swatches.append(label)
        row.addStretch(1)
        self.restyle()
        look.appearance().changed.connect(self.restyle)

    def restyle(self) -> None:
        for label, style, (text, _tip) in zip(self.swatches, _styles(), ITEMS):
            label.setText(f'<span style="{style}">&nbsp;{text}&nbsp;</span>')
