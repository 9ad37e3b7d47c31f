"""The Sensitivity dock's C/W/L panel: the topic's reader as a C/W/L user model (docs/reference.md
sections 5.15 and 5.16).

The reader reads each ranked article of the topic in the reading order up to its T2I stop (the
reader's tolerance t), then the next. The plot (pyqtgraph, built when first shown) draws, as a step
per piece read, the probability of reading on to it against the positions read before it:
U-measure's ``max(0, 1 - p / L)`` and time-biased gain's ``2^(-p / H)``. Beside it, each measure
over characters (``U@L/T2IP(t)``, ``TBG@H/T2IP(t)``, as ``readsim-eval`` prints them) and the
document-level projection's expected utility and cost per article attended (EU, EC) and at the
stop (ETU, ETC), the numbers ``readsim-eval --cwl`` gives cwl-eval. Computed in the GUI thread
from the ranked rows the window has (a topic's hundred articles: well under a frame), through
:func:`readsim.operations.cwl_files.reader_view`. It is the dock's second tab ("Reader as C/W/L").
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QSpinBox, QVBoxLayout, QWidget

from readsim.operations.cwl_files import ReaderCurve, reader_view

from .. import appearance as look
from ..plain import plain_label
from .deferred import Deferred

MAX_PARAMETER = 1_000_000
DEFAULT_L, DEFAULT_H = 10_000, 2_000
"""The panel's first L and H: an INEX article's reading spans thousands of positions (cwl-eval's
1000 and 224, ``readsim-eval --cwl``'s defaults, end the reader within its first article)."""


class CwlPanel(QWidget):
    """The topic's reader as C/W/L over a session; :attr:`curves` holds the numbers shown
    (:class:`~readsim.operations.cwl_files.ReaderCurve` for U, then TBG; empty without a topic)."""

    def __init__(self, session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.curves: list[ReaderCurve] = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.addWidget(plain_label("Reader as C/W/L:  U's L"))
        self.spin_l = self._spin(DEFAULT_L, "U-measure's L, in positions read (reference 5.16)")
        bar.addWidget(self.spin_l)
        bar.addWidget(plain_label("TBG's H"))
        self.spin_h = self._spin(DEFAULT_H, "time-biased gain's half-life H, in positions read (reference 5.16)")
        bar.addWidget(self.spin_h)
        bar.addStretch(1)
        lay.addLayout(bar)
        self.slot = Deferred(self._build_plot, eager=False)
        lay.addWidget(self.slot, 1)
        self.numbers = plain_label("")
        self.numbers.setStyleSheet(f"color:{look.css('muted')};")
        lay.addWidget(self.numbers)
        for signal in (session.rows_changed, session.settings_changed, session.evaluation_changed,
                       session.topic_changed):
            signal.connect(self.refresh)

    def _spin(self, value: int, tip: str) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(1, MAX_PARAMETER)
        spin.setValue(value)
        spin.setToolTip(tip)
        spin.valueChanged.connect(self.refresh)
        return spin

    def _build_plot(self):
        from .sensitivity_plot import ReaderPlot  # pyqtgraph: imported when first shown

        return ReaderPlot()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.refresh()

    def refresh(self, *_) -> None:
        """Recompute and redraw from the topic's rows, only while shown."""
        if not self.isVisible():
            return
        s = self.session
        rows = s.rows if s.rows_ready() and s.topic is not None else []
        t = s.settings.tolerance
        self.curves = reader_view([r.evaluation.pieces for r in rows], t, self.spin_l.value(),
                                  self.spin_h.value()) if rows else []
        self.slot.widget().show_reader(self.curves, f"topic {s.topic}: reading on" if rows else "no topic")
        self.numbers.setText("\n".join(
            f"{c.metric.kind}@{c.metric.param}/T2IP({t}) = {c.value:,.1f}   per article attended: "
            f"EU {c.view.EU:,.1f}, EC {c.view.EC:,.1f}   at the stop: ETU {c.view.ETU:,.1f}, "
            f"ETC {c.view.ETC:,.1f} ({s.unit})" for c in self.curves) or "no topic: open a run and its qrels")
