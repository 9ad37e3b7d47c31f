"""The Sensitivity dock: how the open article's scores and the topic's list score move as one
reader setting is swept over its range (docs/reference.md section 9.6; README "Sensitivity").

Parameters (:data:`SWEEPS`): the screen size (50 to 20,000 on a log axis; LE(s), ES(s) and the
panel's ChP@k, ChR@k with k = the screen), the T2I tolerance t (10 to 20,000, log) and F's beta
(0.01 to 10, log), in the qrels' unit. The article's curves are every panel score with that
parameter (:func:`readsim.operations.article_reading.panel_measures`), each computed column-wise over the
values in the GUI thread (the API's core, :func:`readsim.core.parameter_sweep.article_sweep`, well under a
frame); efforts (LE, ES, in levels) have their own plot. Beside them, the topic's list score (AgP
of the topic view's document measure, ANCE@n for LE and ES) against the same parameter, from the
ranked rows the window has (:func:`readsim.operations.sweep.topic_curve`) in a worker
(:class:`readsim.app.background.LatestJob`) with a progress bar; a newer request (another
topic, mode, document measure or parameter) cancels it and its result is dropped. The current
value is a vertical line on every plot; a click in a plot sets the parameter there. pyqtgraph is
imported when the dock is first shown (:class:`~readsim.app.widgets.deferred.Deferred`).
Exports: each plot as PNG/SVG (:func:`readsim.app.export.export_plot`), the curves as CSV/JSON
with their provenance (:func:`readsim.app.provenance.write_table`).
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QMenu, QProgressBar, QPushButton, QTabWidget,
                               QVBoxLayout, QWidget)

from readsim.operations.article_reading import panel_measures
from readsim.core.parameter_sweep import article_sweep
from readsim.operations.sweep import topic_curve
from readsim.core.measure import DocMeasure, ListMeasure
from readsim.core.parameter_sweep import grid, parameters_of, with_parameter

from .. import appearance as look
from ..background import LatestJob, Progress
from readsim.app.input_files import app_settings
from ..plain import plain_label
from .. import settings_keys as keys
from ..topic_scores import EFFORT_KINDS, doc_measure
from .cwl_panel import CwlPanel
from .deferred import Deferred
from .tables import BottomDock, build_bottom_dock

SHORTCUT = "Ctrl+Alt+W"
SETTINGS_KEY = keys.SENSITIVITY_SWEEP.name
COLUMNS = ("curve", "measure", "parameter", "parameter_value", "value")


@dataclass(frozen=True)
class Sweep:
    """A reader setting swept: ``setting`` (a :class:`~readsim.core.doc_evaluation.Settings` field),
    its label, the measure parameters it drives (reference section 6), its range and whether the
    axis is logarithmic; sizes are whole numbers."""

    setting: str
    label: str
    axis: str
    parameters: tuple[str, ...]
    low: float
    high: float
    log: bool = True
    count: int = 200
    size: bool = True

    def values(self) -> list:
        """The swept values, distinct, in increasing order."""
        return list(dict.fromkeys(grid(self.low, self.high, self.count, self.log, self.size)))

    def clamp(self, value: float):
        value = min(max(value, self.low), self.high)
        return int(round(value)) if self.size else float(f"{value:.3g}")


SWEEPS = (
    Sweep("screen", "screen size s (LE, ES; ChP@k, ChR@k with k = s)", "screen size s", ("s", "k"), 50, 20_000),
    Sweep("tolerance", "T2I tolerance t", "T2I tolerance t", ("t",), 10, 20_000),
    Sweep("beta", "F's beta", "F's beta", ("beta",), 0.01, 10, size=False),
)
TOPIC_COUNT = 50  # values of the topic curve (each a list measure over the whole ranked list)


def article_curves(doc, settings, sweep: Sweep, values: list, levels: int = 4) -> dict[DocMeasure, np.ndarray]:
    """The panel's measures (for ``settings``) that have one of ``sweep``'s parameters, each at
    every value (:func:`readsim.core.parameter_sweep.article_sweep`), keyed by the measure at the current settings."""
    out = {}
    for m in panel_measures(settings):
        name = next((p for p in sweep.parameters if p in parameters_of(m)), None)
        if name is not None:
            out[m] = article_sweep(doc, m, name, values, levels)
    return out


def topic_measure(doc: DocMeasure, n: int) -> ListMeasure:
    """The topic curve's list measure: AgP/doc, or ANCE@n/doc for an effort score."""
    return ListMeasure("ANCE", max(n, 1), doc) if doc.kind in EFFORT_KINDS else ListMeasure("AgP", 0, doc)


class SensitivityPanel(QWidget):
    """The dock's panel over a session; ``doc_kind()`` gives the topic view's document measure.
    :attr:`curves` (article) and :attr:`topic_curve` hold the numbers drawn."""

    def __init__(self, session, doc_kind=lambda: "F", parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.doc_kind = doc_kind
        self.sweep = SWEEPS[0]
        self.values: list = self.sweep.values()
        self.curves: dict[DocMeasure, np.ndarray] = {}
        self.topic_values: list = []
        self.topic_curve: np.ndarray | None = None
        self.topic_list: ListMeasure | None = None
        self._jobs = LatestJob(self)  # the topic curve: the latest request only
        self._topic_key: tuple | None = None
        self._article_key: tuple | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 4, 6, 4)
        bar = QHBoxLayout()
        sweep_label = plain_label("Sweep")
        bar.addWidget(sweep_label)
        self.combo = QComboBox()
        for sw in SWEEPS:
            self.combo.addItem(sw.label, sw.setting)
        stored = self.combo.findData(keys.read(app_settings(), keys.SENSITIVITY_SWEEP))
        if stored > 0:
            self.combo.setCurrentIndex(stored)
            self.sweep = SWEEPS[stored]
            self.values = self.sweep.values()
        self.combo.currentIndexChanged.connect(self._sweep_changed)
        bar.addWidget(self.combo)
        self.status = plain_label("")
        self.status.setStyleSheet(f"color:{look.css('muted')};")
        bar.addWidget(self.status, 1)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(160)
        self.progress.setFormat("topic curve %p%")
        self.progress.hide()
        bar.addWidget(self.progress)
        self.export_button = QPushButton("Export…")
        self.export_menu = QMenu(self.export_button)
        self.export_button.setMenu(self.export_menu)
        bar.addWidget(self.export_button)
        lay.addLayout(bar)
        self.slot = Deferred(self._build_plots, eager=False)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.slot, "Sweep")
        self.cwl = CwlPanel(session)  # the topic's reader as C/W/L (reference 5.15)
        self.tabs.addTab(self.cwl, "Reader as C/W/L")
        sweep_bar = (sweep_label, self.combo, self.status, self.export_button)  # the sweep's, not the reader's
        self.tabs.currentChanged.connect(lambda i: [w.setVisible(i == 0) for w in sweep_bar])
        lay.addWidget(self.tabs, 1)
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._poll)
        session.article_changed.connect(self.refresh)
        session.evaluation_changed.connect(self.refresh)
        session.settings_changed.connect(self.refresh)
        session.rows_changed.connect(self.refresh)
        session.topic_changed.connect(self._topic_changed)

    def _build_plots(self):
        from .sensitivity_plot import SweepPlots  # pyqtgraph: imported when first shown

        return SweepPlots(self.set_value)

    @property
    def plots(self):
        """The plots (:class:`~readsim.app.widgets.sensitivity_plot.SweepPlots`), built now if not yet."""
        return self.slot.widget()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.refresh()

    # -- state --------------------------------------------------------------------------
    def set_sweep(self, setting: str) -> None:
        """Sweep the setting ``setting`` (``screen``, ``tolerance``, ``beta``)."""
        self.combo.setCurrentIndex(self.combo.findData(setting))

    def _sweep_changed(self, index: int) -> None:
        keys.write(app_settings(), keys.SENSITIVITY_SWEEP, SWEEPS[index].setting)  # the next window sweeps it too
        self.sweep = SWEEPS[index]
        self.values = self.sweep.values()
        self.refresh()

    def current(self):
        """The swept setting's current value."""
        return getattr(self.session.settings, self.sweep.setting)

    def set_value(self, value: float) -> None:
        """Set the swept setting to ``value`` (clamped to the range; sizes rounded)."""
        self.session.set_settings(**{self.sweep.setting: self.sweep.clamp(value)})

    def _others(self):
        """The settings the curves depend on: all but the swept one."""
        return dataclasses.replace(self.session.settings, **{self.sweep.setting: 0})

    def _topic_changed(self, _topic: str) -> None:
        self._cancel()
        self.topic_curve = None
        self._topic_key = None
        if self.slot.built():
            self.plots.show_topic([], None, None, "evaluating the topic…")

    def refresh(self, *_) -> None:
        """Redraw what changed: the article's curves, the topic curve (in the background), the
        marks of the current value. Only while shown."""
        if not self.isVisible():
            return
        s = self.session
        plots = self.plots
        cur = s.current
        ev = cur.evaluation if cur is not None else None
        key = (self.sweep, self._others())
        if self._article_key is None or key != self._article_key[0] or ev is not self._article_key[1]:
            self._article_key = (key, ev)
            self.curves = {} if cur is None else article_curves(cur.evaluation, s.settings, self.sweep, self.values,
                                                                s.settings.levels)
            axis = f"{self.sweep.axis} ({s.unit})" if self.sweep.size else self.sweep.axis
            plots.show_article(self.sweep, axis, self.values, self.curves, cur.name if cur is not None else None)
        self._refresh_topic()
        plots.mark(self.current())
        self._say()

    def _refresh_topic(self) -> None:
        s = self.session
        if not s.rows_ready() or s.topic is None or s.qrels is None:
            return
        doc = doc_measure(self.doc_kind(), s.settings)
        measure = topic_measure(doc, len(s.rows))
        name = next((p for p in self.sweep.parameters if p in parameters_of(measure)), self.sweep.parameters[0])
        key = (self.sweep, s.topic, self.doc_kind(), self._others())
        if self._topic_key is not None and key == self._topic_key[0] and self._topic_key[1] is s.rows \
                and self._topic_key[2] is s.qrels:
            return
        self._cancel()
        self._topic_key = (key, s.rows, s.qrels)
        rows = list(s.rows)
        qrels, topic = s.qrels, s.topic
        articles, docs = [r.article for r in rows], [r.evaluation for r in rows]
        values = dataclasses.replace(self.sweep, count=TOPIC_COUNT).values()
        levels = s.settings.levels
        self.topic_list, self.topic_values, self.topic_curve = measure, [], None  # nothing stale to export
        self.progress.setValue(0)
        self.progress.show()
        self._timer.start()
        if self.slot.built():
            self.plots.show_topic([], None, None, f"topic {s.topic}: computing {measure.name} …")

        def op(job: Progress):
            return values, topic_curve(qrels, topic, articles, docs, measure, name, values, levels, job.step)

        def done(result) -> None:  # the latest sweep's (an obsolete one's is dropped)
            self._finish()
            self.topic_values, self.topic_curve = result
            if self.slot.built():  # drawn even while hidden: a refresh on show finds it current
                flat = "" if name in parameters_of(measure) else " (does not depend on it)"
                self.plots.show_topic(self.topic_values, self.topic_curve, measure, f"topic {s.topic}", flat)
                self.plots.mark(self.current())
            self._say()

        def failed(exc: BaseException) -> None:
            self._finish()
            sys.excepthook(type(exc), exc, exc.__traceback__)  # a bug: no input is read here

        self._jobs.start(op, done, failed)

    @property
    def _job(self) -> Progress | None:
        """The running topic sweep's progress (None: none runs)."""
        return self._jobs.progress

    def _cancel(self) -> None:
        if self._jobs.busy():
            self._jobs.cancel()
            self._finish()

    def _finish(self) -> None:
        self._timer.stop()
        self.progress.hide()

    def _poll(self) -> None:
        if self._job is not None:
            self.progress.setValue(int(self._job.fraction * 1000))

    def busy(self) -> bool:
        """A topic curve is being computed."""
        return self._job is not None

    def _say(self) -> None:
        s = self.session
        unit = f" {s.unit}" if self.sweep.size else ""
        fixed = [m.name for m in panel_measures(s.settings)
                 if not any(p in parameters_of(m) for p in self.sweep.parameters)]
        self.status.setText(f"now {self.current()}{unit} · click a plot to set it · not moved by it: "
                            + ", ".join(fixed))

    # -- exports ------------------------------------------------------------------------
    def rows(self) -> list[dict]:
        """The curves as table rows (:data:`COLUMNS`): the article's, then the topic's."""
        out = []
        name = self.sweep.setting
        for m, ys in self.curves.items():
            p = next(q for q in self.sweep.parameters if q in parameters_of(m))
            for v, y in zip(self.values, ys.tolist()):
                out.append({"curve": "article", "measure": with_parameter(m, p, v).name, "parameter": name,
                            "parameter_value": v, "value": y})
        if self.topic_curve is not None and self.topic_list is not None:
            m = self.topic_list
            p = next((q for q in self.sweep.parameters if q in parameters_of(m)), None)
            for v, y in zip(self.topic_values, self.topic_curve.tolist()):
                out.append({"curve": "topic", "measure": with_parameter(m, p, v).name if p else m.name,
                            "parameter": name, "parameter_value": v, "value": y})
        return out


def build_sensitivity(window) -> BottomDock:
    """The "Sensitivity" dock of ``window`` (bottom, hidden at first, tabbed with the other bottom
    docks when shown) with a View menu entry (Ctrl+Alt+W) and its Export menu (PNG/SVG per plot,
    CSV/JSON of the curves), its document measure the topic view's (built before it): the window
    keeps them as ``sensitivity``, ``sensitivity_dock`` and ``act_sensitivity``."""
    from ..export import PICTURES, TABLES, export_plot, export_with_dialog, safe_name
    from ..provenance import provenance, write_table

    topic_view = window.topic_view
    panel = SensitivityPanel(window.session, topic_view.doc_kind)
    topic_view.doc_combo.currentIndexChanged.connect(lambda _: panel.refresh())
    part = build_bottom_dock(
        window, panel, "sensitivity", "Sensitivity (scores against a setting)", SHORTCUT,
        "The open article's scores and the topic's list score against the screen size, tolerance or beta",
        lambda d: d.objectName() != "topic")

    def stem(what: str) -> str:
        s = window.session
        return safe_name("-".join(str(p) for p in (what, panel.sweep.setting, s.topic,
                                                   s.current.name if s.current else None) if p))

    def export(title: str, filters: str, what: str, write) -> None:
        export_with_dialog(window, title, filters, stem(what) + (".png" if filters == PICTURES else ".csv"), write,
                           window.show_error, window.status.setText)

    def table(path):
        sweep = {"setting": panel.sweep.setting, "values": len(panel.values),
                 "topic_measure": panel.topic_list.name if panel.topic_list is not None else None}
        return write_table(path, COLUMNS, panel.rows(), provenance(window, sweep=sweep))

    menu = panel.export_menu
    menu.addAction("Article plot as PNG/SVG…").triggered.connect(lambda: export(
        "Export the article's sweep", PICTURES, "sweep-article", lambda p: export_plot(panel.plots.article, p)))
    efforts = menu.addAction("Efforts plot as PNG/SVG…")
    efforts.triggered.connect(lambda: export(
        "Export the efforts' sweep", PICTURES, "sweep-efforts", lambda p: export_plot(panel.plots.efforts, p)))
    menu.aboutToShow.connect(lambda: efforts.setEnabled(panel.slot.built() and not panel.plots.efforts.isHidden()))
    menu.addAction("Topic plot as PNG/SVG…").triggered.connect(lambda: export(
        "Export the topic's sweep", PICTURES, "sweep-topic", lambda p: export_plot(panel.plots.topic, p)))
    menu.addAction("Curves as CSV/JSON…").triggered.connect(lambda: export(
        "Export the sweep's curves", TABLES, "sweep", table))
    return part
