"""The article view's legend: what the colours and marks mean."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from ..plain import rich_label
from .article_view import BOTH, RELEVANT, RETRIEVED, SCREEN


def _swatch(style: str, text: str, tip: str) -> QLabel:
    label = rich_label(f'<span style="{style}">&nbsp;{text}&nbsp;</span>')
    label.setToolTip(tip)
    return label


class Legend(QWidget):
    """Swatches: relevant, retrieved, relevant and retrieved, reading screen, chain link."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 0, 4, 0)
        row.setSpacing(10)
        rgb = f"rgb({SCREEN.red()},{SCREEN.green()},{SCREEN.blue()})"
        for style, text, tip in (
            (f"background:{RELEVANT.name()}", "relevant", "relevant (qrels), not retrieved"),
            (f"text-decoration:underline; color:{RETRIEVED.name()}", "retrieved", "retrieved by the run (blue underline)"),
            (f"background:{BOTH.name()}; text-decoration:underline", "relevant ∩ retrieved", "relevant and retrieved"),
            (f"border:1px solid {rgb}; background:rgba(70,110,200,0.12)", "screen", "text read on the current screen"),
            (f"background:{RETRIEVED.name()}; color:white; font-weight:bold", "↓ 2", "matching chain: link to the next retrieved passage"),
        ):
            row.addWidget(_swatch(style, text, tip))
        row.addStretch(1)
