"""Live scores of the open article: ``DocumentEvaluation.scores(settings)`` under the measures'
canonical names (aveChP, ChP@s, ChR@s, T2IP(t), T2IR(t), T2IF(t), LE(s), ES(s), P_set, R_set,
F(b)), plus the article's sizes. Recomputed from the cached evaluation on every change."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel

from readsim.engine.measure import panel_measures

from ..session import Session
from .ranked_list import format_score

HELP = {
    "aveChP": "average character precision along the reading order (Arvola et al. 2010)",
    "ChP": "precision of the first screen read", "ChR": "recall of the first screen read",
    "T2IP": "T2I precision: relevant read / read, up to the tolerance stop",
    "T2IR": "T2I recall: relevant read / relevant, up to the tolerance stop",
    "T2IF": "F of T2IP and T2IR", "LE": "localizing effort: screens until the first relevant character (lower is better)",
    "ES": "effort score: LE, or NR = 5 for a non-relevant article (lower is better)",
    "P_set": "INEX set-based precision |R∩T|/|T|", "R_set": "INEX set-based recall |R∩T|/|R|",
    "F": "INEX set-based F(beta) (official: beta 0.25)",
}
ROWS = 6  # measures per column


class ScoresPanel(QGroupBox):
    """A grid of measure name -> value labels; :meth:`value_text` reads one back (tests)."""

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__("Scores of the open article", parent)
        self.session = session
        self.grid = QGridLayout(self)
        self.grid.setHorizontalSpacing(14)
        self.grid.setVerticalSpacing(3)
        self._names: list[QLabel] = []
        self._values: list[QLabel] = []
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        for i, _ in enumerate(panel_measures(session.settings)):
            name, value = QLabel(), QLabel("–")
            value.setFont(mono)
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            col = (i // ROWS) * 2
            self.grid.addWidget(name, i % ROWS, col)
            self.grid.addWidget(value, i % ROWS, col + 1)
            self._names.append(name)
            self._values.append(value)
        self.facts = QLabel()
        self.facts.setWordWrap(True)
        self.facts.setStyleSheet("color: #555;")
        self.grid.addWidget(self.facts, ROWS, 0, 1, 4)
        self.grid.setColumnStretch(1, 1)
        self.grid.setColumnStretch(3, 1)
        for sig in (session.settings_changed, session.evaluation_changed, session.article_changed):
            sig.connect(self.refresh)
        self.refresh()

    def refresh(self, *_) -> None:
        s = self.session.settings
        cur = self.session.current
        measures = panel_measures(s)
        values = cur.evaluation.scores(s) if cur is not None else {}
        for m, name, value in zip(measures, self._names, self._values):
            name.setText(m.name)
            name.setToolTip(HELP.get(m.kind, ""))
            value.setText(format_score(m, values[m.name]) if m.name in values else "–")
            value.setToolTip(f"{m.name} = {values[m.name]!r}" if m.name in values else "")
        if cur is None:
            self.facts.setText("")
            return
        ev = cur.evaluation
        unit = self.session.unit
        self.facts.setText(
            f"relevant {ev.nrc:,} of {ev.n:,} {unit} · retrieved {ev.retrieved_size:,} in "
            f"{len(ev.retrieved_spans)} passage(s) · {len(ev.pieces)} reading piece(s)")

    def value_text(self, name: str) -> str:
        """The shown text of measure ``name`` (canonical name), or KeyError."""
        for n, v in zip(self._names, self._values):
            if n.text() == name:
                return v.text()
        raise KeyError(name)

    def shown(self) -> dict[str, str]:
        return {n.text(): v.text() for n, v in zip(self._names, self._values)}
