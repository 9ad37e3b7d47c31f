"""The scores of the element mode (docs/reference.md sections 13.5-13.7): :class:`ApGrid`, AP
of INEX 2002, 2003 s and 2003 o for strict and gen, each with its difference to the perfect run,
and :class:`PrecisionRecall`, the chosen metric's curve with the other simulated run dashed
(Gövert et al. 2006, eqs 6-19). See docs/architecture.md."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from readsim.core.element_retrieval import RECALL_POINTS, quantise

from .. import appearance as look
from .. import elements_model as em
from ..plain import esc, plain_label, rich_label
from .plot_room import LabelRoom, legend_for
from .plots import plain_axes, pg, restyle, themed


def fmt_ap(value: float) -> str:
    """An AP as shown: four decimals, ``—`` when undefined."""
    return "—" if value is None or math.isnan(value) else f"{value:.4f}"


class ApGrid(QWidget):
    """AP of the topic under INEX 2002, 2003 s and 2003 o (rows) for strict and gen (columns),
    each cell a button choosing the plotted metric; the difference to the perfect run under it."""

    chosen = Signal(object)  # (metric, quantisation)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(4)
        for c, q in enumerate(quantise.QUANTISATIONS, 1):
            head = rich_label(f"<b>{q}</b>")
            head.setAlignment(Qt.AlignmentFlag.AlignCenter)
            head.setToolTip({"strict": "only (3, 3) counts (eqs 2, 3, 8)", "gen": "e/3, s/3 and eq. 9's f_gen"}[q])
            grid.addWidget(head, 0, c)
        self.cells: dict[tuple[str, str], QPushButton] = {}
        for r, m in enumerate(("2002", "2003s", "2003o"), 1):
            label = plain_label(em.METRIC_NAMES[m])
            label.setToolTip({"2002": "precall with expected search length (eqs 6-9)",
                              "2003s": "recall_s / precision_s: exh and spec weighted by size (eqs 12-13)",
                              "2003o": "recall_o / precision_o: only text not seen before counts (eqs 14-19)"}[m])
            grid.addWidget(label, r, 0)
            for c, q in enumerate(quantise.QUANTISATIONS, 1):
                b = QPushButton()
                b.setCheckable(True)
                b.setMinimumHeight(44)
                b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
                b.setStyleSheet("QPushButton { text-align:center; padding:2px 6px; font-size:11pt; }"
                                f"QPushButton:checked {{ background:{look.css('pressed_bg')}; "
                                f"border:1px solid {look.css('accent')}; }}")
                b.clicked.connect(lambda _=False, key=(m, q): self.choose(key))
                grid.addWidget(b, r, c)
                self.cells[(m, q)] = b
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(2, 1)
        self._values: dict[tuple[str, str], float] = {}
        self._current = ("2002", "gen")
        self.cells[self._current].setChecked(True)

    def choose(self, key: tuple[str, str]) -> None:
        self._current = key
        for k, b in self.cells.items():
            b.setChecked(k == key)
        self.chosen.emit(key)

    def current(self) -> tuple[str, str]:
        return self._current

    def set_values(self, view: em.RunView | None, reference: em.RunView | None) -> None:
        """Show ``view``'s AP; under each, the difference to ``reference`` (the perfect run)."""
        self._values = view.ap() if view is not None else {}
        ref = reference.ap() if reference is not None and reference is not view else None
        for key, b in self.cells.items():
            value = self._values.get(key, float("nan"))
            text = fmt_ap(value)
            if ref is not None and not math.isnan(value) and not math.isnan(ref[key]):
                d = value - ref[key]
                text += f"\nΔ {'+' if d > 1e-12 else '−' if d < -1e-12 else '±'}{abs(d):.4f}"
            b.setText(text)
            c = view.curves[key] if view is not None else None
            b.setToolTip("" if c is None else
                         (f"AP_{key[0]}/{key[1]} = {fmt_ap(value)} (mean precision at recall 0.01 .. 1.00); "
                          f"denominator {c.total:.4g} (" + {"2002": "n = Σ f", "2003s": "Σ exh",
                                                          "2003o": "rel^U / |t|"}[key[0]] + ")"
                          + ("" if c.total > 0 else ": nothing relevant under this quantisation")))

    def values(self) -> dict[tuple[str, str], float]:
        return dict(self._values)

    def shown(self) -> dict[tuple[str, str], str]:
        """Each cell's first line (the AP as shown)."""
        return {k: b.text().split("\n")[0] for k, b in self.cells.items()}


class PrecisionRecall(QWidget):
    """Precision at the recall points 0.00 .. 1.00 of one metric: the shown run solid, the other
    simulated run dashed, the selected element's point on the run's own curve as a dot."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.plot = pg.PlotWidget()
        restyle(self.plot)  # the theme's colours, the zoom's fonts
        self.plot.setMinimumSize(240, 200)
        item = self.plot.getPlotItem()
        item.setLabel("bottom", "recall")
        item.setLabel("left", "precision")
        item.setXRange(0, 1, padding=0.02)
        item.showGrid(x=True, y=True, alpha=0.2)
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        plain_axes(item)
        self.legend = legend_for(item)
        self.main = themed(item.plot([], [], name="run"), pen=("accent", 2))
        self.ref = themed(item.plot([], [], name="reference"), pen=("disabled", 1.5, Qt.PenStyle.DashLine))
        self.dot = themed(pg.ScatterPlotItem([], [], size=9), brush="selected", pen=("background", 1))
        item.addItem(self.dot)
        self.room = LabelRoom(item, (), self.legend)
        lay.addWidget(self.plot, 1)
        self._data: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def show_curves(self, title: str, main, main_name: str, ref, ref_name: str, dot) -> None:
        item = self.plot.getPlotItem()
        item.setTitle(esc(title), size="9pt")
        self._data = {}
        if main is None:
            self.main.setData([], [])
        else:
            self.main.setData(RECALL_POINTS, main.precision)
            self._data["run"] = (RECALL_POINTS, main.precision)
        if ref is None:
            self.ref.setData([], [])
        else:
            self.ref.setData(RECALL_POINTS, ref.precision)
            self._data["reference"] = (RECALL_POINTS, ref.precision)
        self.legend.clear()
        self.legend.addItem(self.main, esc(main_name))
        if ref is not None:
            self.legend.addItem(self.ref, esc(ref_name))
        self.room.arrange()
        self.set_dot(dot)

    def set_dot(self, dot) -> None:
        if dot is None:
            self.dot.setData([], [])
        else:
            self.dot.setData([dot[0]], [dot[1]])

    def curves(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        return dict(self._data)


# -- the panel ----------------------------------------------------------------------------------


class ElementScores(QWidget):
    """The scores pane of the element mode: a title, the :class:`ApGrid`, the denominators of
    the chosen quantisation and the :class:`PrecisionRecall` plot of the chosen metric."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.title = rich_label()
        self.title.setWordWrap(True)
        self.grid = ApGrid()
        self.totals = plain_label()
        self.totals.setWordWrap(True)
        self.totals.setStyleSheet(f"color:{look.css('muted')}; font-size:9pt;")
        self.plot = PrecisionRecall()
        lay.addWidget(self.title)
        lay.addWidget(self.grid)
        lay.addWidget(self.totals)
        lay.addWidget(self.plot, 1)
        self._plot_key: tuple | None = None  # (run view, topic view, metric) the plot shows

    def show_run(self, view: em.RunView, tv: em.TopicView) -> None:
        """The AP of ``view`` on ``tv``'s topic, each beside its difference to the perfect run."""
        perfect = tv.run("perfect")
        self.grid.set_values(view, perfect)
        delta = "" if view is perfect else f" <span style='color:{look.css('muted')}'>(Δ: minus the perfect run's AP)</span>"
        self.title.setText(f"<b>AP, topic {esc(tv.topic)}</b> — {esc(view.name)}{delta}")
        self._totals(view)
        self._plot_key = None

    def _totals(self, view: em.RunView) -> None:
        m, q = self.grid.current()
        c = {k: view.curves[k] for k in em.COMBOS}
        self.totals.setText(f"Denominators ({q}): n = Σf {c[('2002', q)].total:.4g} · "
                            f"Σexh {c[('2003s', q)].total:.4g}"
                            f" · rel^U/|t| {c[('2003o', q)].total:.4g}. Click a cell to plot its curve.")

    def plot_run(self, view: em.RunView | None, tv: em.TopicView | None, position: int | None) -> None:
        """The chosen metric's curves (redrawn only when the run, topic or metric changed) and
        the point of the element at run position ``position`` on the run's own curve."""
        key = self.grid.current()
        if view is None or tv is None:
            self._plot_key = None
            self.plot.show_curves("", None, "", None, "", None)
            return
        dot = None
        c = view.curves[key]
        if position is not None and position < len(view.entries):
            i = int(view.values.rank[position]) - 1 if key[0] == "2002" else position
            if 0 <= i < len(c.recall_at) and not math.isnan(c.precision_at[i]):
                dot = (float(c.recall_at[i]), float(c.precision_at[i]))
        if self._plot_key == (id(view), id(tv), key):  # the same curves: only the dot moves
            self.plot.set_dot(dot)
            return
        self._plot_key = (id(view), id(tv), key)
        self._totals(view)
        other = tv.run("ancestors" if view.simulated and view.name == "perfect" else "perfect")
        how = "precall, eqs 6-7" if key[0] == "2002" else "Salton-interpolated"
        self.plot.show_curves(f"AP_{key[0]}/{key[1]}: precision at recall ({how})", c,
                              f"{view.name} (AP {fmt_ap(c.ap)})",
                              other.curves[key] if other is not None else None,
                              f"{other.name} (AP {fmt_ap(other.curves[key].ap)})" if other is not None else "", dot)
