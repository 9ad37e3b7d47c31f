"""The Runs window (View ▸ Compare all runs, Ctrl+Alt+R): every loaded run under several list
measures at once, with the significance of each pair of runs, the correlation of the measures
over the runs, and the fidelity tables of the loaded qrels and collection.

:class:`RunsWindow` is a non-modal window of its own (its geometry kept in the settings). Its
left column chooses what to compare: the session's runs (and runs added here with "Add runs…",
files or a folder, read in the background; they stay in this window), the measures (one per
line; default :data:`readsim.app.runs_model.DEFAULT_MEASURES`), the test (bootstrap, t,
randomization), α, resamples, seed, correction, the reading order, ``-c`` and the baseline of
the runs as whole documents. Every run is evaluated once (and once more as whole documents) in
the background, then :func:`readsim.operations.comparison.comparison_of` compares them, with a
progress bar; the GUI never waits. Evaluations are kept, so a new test or α only re-tests.

Five tabs, all for the measure chosen at the top ("Measure"):

- **Runs**: runs x measures (the mean; its interval, rank and baseline in the tooltip), rows
  ordered by the chosen measure, the "vs next" column marking with ≫ each run significantly
  better than the run on the next row, and "significant pairs: k of N" per measure.
- **Significance**: the pair matrix of the chosen measure as a coloured table (runs by score on
  both axes; each cell the one-tailed p of "row better than column", green when significant).
- **Correlation**: a scatter of two measures over the runs (each point a run; hover: its name
  and both scores), Kendall's tau and Pearson's r in the title, the matrix of every two
  measures and each measure against the runs as whole documents.
- **Fidelity**: Kamps et al.'s Tables 2 and 1 on the 20 simulated runs of the loaded qrels and
  collection (the complete topics), computed in the background on demand.
- **Topics**: the paired topics x the runs, each run's value and its difference to the other
  run (two runs) or to the best-ranked run, coloured, sortable; double-clicking a topic shows it
  in the main window (:attr:`RunsWindow.topic_chosen`).

Exports (the Export button, or the window's File menu): the current tab as PNG or SVG, and each
table as CSV or JSON with its provenance (:mod:`readsim.app.runs_model`), written atomically through
:func:`readsim.app.export.export_with_dialog`; an error names the path.

The window only assembles its parts (:mod:`readsim.app.widgets.runs`: the options panel and
one widget per tab, each with its own table model) and wires them; the work runs in the
background through :func:`readsim.app.background.run_in_background`, reporting through
:class:`readsim.app.runs_model.Progress`. See docs/architecture.md.

Errors (a run that cannot be read, options that leave nothing to compare, a file that cannot be
written) are shown in the window's message line and, interactively, in a non-modal message box;
:attr:`RunsWindow.errors_shown` lists them.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QMainWindow, QProgressBar, QSizePolicy, QSplitter,
                               QTabWidget, QToolButton, QVBoxLayout, QWidget)

from readsim.core.formats import Run
from readsim.core.measure import UnknownMeasure

from .. import runs_model as rm
from ..background import LatestJob, input_error_text
from readsim.app.input_files import app_settings
from .. import settings_keys as keys
from ..plain import esc, plain_label, plain_tip, rich_label
from .runs.cells import NOT_SIGNIFICANT_MARK, SIGNIFICANT_MARK, note, texts
from .runs.correlation import CorrelationTab
from .error_box import ErrorBox
from .placement import place
from readsim.app.widgets.runs.fidelity_tab import FidelityTab, missing_inputs
from .runs.exports import CSV_KINDS, TABS, RunsExports, run_sources
from .runs.options import OptionsPanel
from .runs.before_edits import BeforeEdits, key as before_key
from .runs.run_list import RunList
from .runs.runs_tab import RunsTab
from .runs.significance import SignificanceTab
from .runs.topics_tab import TopicsTab

__all__ = ["CSV_KINDS", "NOT_SIGNIFICANT_MARK", "SIGNIFICANT_MARK", "TABS", "RunsWindow", "show_topic"]

POLL_MS = 100



class RunsWindow(RunList, QMainWindow):
    """Compare every run of ``session`` (plus runs added here) under several measures.

    State read by tests and exports: :attr:`result` (:class:`readsim.app.runs_model.Compared`,
    None before the first comparison), :attr:`fidelity` (``readsim.core.fidelity_tables.Fidelity`` or None),
    :attr:`extra_runs`, :attr:`errors_shown`, :meth:`busy`. ``show_dialogs=False`` keeps errors
    in the message line (tests, screenshots). Its parts: :attr:`options_panel`,
    :attr:`runs_tab`, :attr:`significance_tab`, :attr:`correlation_tab`, :attr:`fidelity_tab`;
    their widgets are reachable here under their former names (``runs_table``, ``heat``, ...)."""

    texts = staticmethod(texts)
    topic_chosen = Signal(str)
    """A topic double-clicked in the Topics tab (the main window shows it)."""

    def __init__(self, session, parent: QWidget | None = None, show_dialogs: bool = True) -> None:
        super().__init__(parent)
        self.session = session
        self.show_dialogs = show_dialogs
        self.setWindowTitle("readsim — compare all runs")
        self.setAttribute(Qt.WidgetAttribute.WA_QuitOnClose, False)
        self.extra_runs: list[Run] = []
        self.result: rm.Compared | None = None
        self.fidelity = None
        self.errors_shown: list[str] = []
        self.errors = ErrorBox(self, "readsim: compare all runs")
        self._unchecked: set[str] = set()  # run paths the user left out
        self._cache: list[rm.Cached] = []
        self.compare_job = LatestJob(self, self._busy_changed)
        self.fidelity_job = LatestJob(self, self._busy_changed)
        self._fid_key: tuple | None = None
        self._reading = 0  # run files being read
        self._stale = False
        self._pending = False  # a comparison is scheduled (the inputs changed while shown)
        self._last_key: tuple | None = None

        central = QWidget()
        outer = QHBoxLayout(central)
        outer.setContentsMargins(6, 6, 6, 6)
        self.options_panel = self._options_panel()
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.options_panel)
        self.splitter.addWidget(self._results_panel())
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        outer.addWidget(self.splitter)
        self.setCentralWidget(central)
        self.exports = RunsExports(self)
        self.export_menu, self.csv_actions = self.exports.menu, self.exports.csv_actions
        self.act_export_picture = self.exports.act_picture

        self.status = plain_label("")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.statusBar().addWidget(self.status, 1)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.statusBar().addPermanentWidget(self.progress)
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self._poll)

        session.files_changed.connect(self._files_changed)
        self.before_edits = BeforeEdits()  # runs with unsaved edits: also as they were before them
        session.baselines_changed.connect(self._inputs_changed)
        session.rows_changed.connect(lambda: self._inputs_changed() if session.baselines else None)  # an edit
        self.fill_runs()
        self._show_nothing()
        self._show_fidelity()
        place(self, QSize(1500, 900), keys.read(app_settings(), keys.RUNS_WINDOW_GEOMETRY))  # within the screen

    # -- layout: the parts, wired ---------------------------------------------------------------
    def _options_panel(self) -> OptionsPanel:
        p = OptionsPanel()
        for name in ("run_list", "add_button", "remove_button", "measures_edit", "test", "alpha", "resamples", "seed",
                     "correction", "mode", "complete", "baseline", "compare_button", "cancel_button", "message"):
            setattr(self, name, getattr(p, name))
        p.ticked.connect(self._run_ticked)
        p.changed.connect(self._options_changed)
        p.act_add_files.triggered.connect(self.ask_add_files)
        p.act_add_folder.triggered.connect(self.ask_add_folder)
        p.remove_button.clicked.connect(self.remove_selected)
        p.compare_button.clicked.connect(self.compare)
        p.cancel_button.clicked.connect(self.cancel)
        return p

    def _results_panel(self) -> QWidget:
        panel = QWidget()
        lay = QVBoxLayout(panel)
        lay.setContentsMargins(4, 0, 0, 0)
        bar = QHBoxLayout()
        bar.addWidget(rich_label("<b>Measure</b>"))
        self.measure = QComboBox()
        self.measure.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.measure.setToolTip("The measure that orders the runs, and whose pairs the Significance and Fidelity "
                                "tabs show (or click a measure's column in the Runs tab)")
        self.measure.currentIndexChanged.connect(lambda _: self._show_all())
        bar.addWidget(self.measure)
        bar.addSpacing(12)
        self.setting = note()
        self.setting.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        bar.addWidget(self.setting, 1)
        self.export_button = QToolButton()
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        bar.addWidget(self.export_button)
        lay.addLayout(bar)

        self.runs_tab = RunsTab()
        self.runs_tab.measure_clicked.connect(lambda name: self.measure.setCurrentIndex(self.measure.findText(name)))
        self.runs_title, self.runs_table, self.runs_legend = self.runs_tab.title, self.runs_tab.table, \
            self.runs_tab.legend
        self.significance_tab = t = SignificanceTab()
        self.heat_title, self.heat, self.heat_legend = t.title, t.table, t.legend
        self.correlation_tab = t = CorrelationTab()
        self.x_measure, self.y_measure, self.plot, self.scatter = t.x_measure, t.y_measure, t.plot, t.scatter
        self.corr_note, self.corr_table = t.note, t.table
        self.fidelity_tab = t = FidelityTab()
        t.button.clicked.connect(self.compute_fidelity)
        self.fidelity_button, self.fidelity_status, self.verdict = t.button, t.status, t.verdict
        self.table1, self.table2, self.table2_title = t.table1, t.table2, t.table2_title
        self.topics_tab = TopicsTab()
        self.topics_tab.topic_activated.connect(self.topic_chosen)
        self.tabs = QTabWidget()
        for page, name in zip((self.runs_tab, self.significance_tab, self.correlation_tab, self.fidelity_tab,
                               self.topics_tab), TABS):
            self.tabs.addTab(page, name)
        lay.addWidget(self.tabs, 1)
        return panel

    export_picture = property(lambda self: self.exports.export_picture)
    export_csv = property(lambda self: self.exports.export_csv)
    error_box = property(lambda self: self.errors.box)
    # what the tabs computed last, under the names the window had
    measure_columns = property(lambda self: self.runs_tab.model.measure_columns)
    mark_column = property(lambda self: self.runs_tab.model.mark_column)
    runs_order = property(lambda self: self.runs_tab.model.order)
    heat_order = property(lambda self: self.significance_tab.model.order)
    heat_p = property(lambda self: self.significance_tab.model.p)
    points = property(lambda self: self.correlation_tab.points)
    _labels = property(lambda self: self.correlation_tab.labels)
    scatter_title = property(lambda self: self.correlation_tab.scatter_title)
    fidelity_k = property(lambda self: self.fidelity_tab.k)

    def _files_changed(self) -> None:
        self.fill_runs()
        self.fidelity = None
        self._fid_key = None
        self._show_fidelity()
        self.exports.enable()
        self._inputs_changed()

    def _inputs_changed(self) -> None:
        """The runs or the loaded files changed: compare again (when shown)."""
        if self.isVisible():
            self._schedule()
        else:
            self._stale = True

    def _schedule(self) -> None:
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self, self._compare_if_needed)

    def _compare_if_needed(self) -> None:
        self._pending = False
        if self._key() != self._last_key:
            self.compare()

    # -- options --------------------------------------------------------------------------------
    def options(self) -> rm.Options:
        """The options as set. Raises :class:`UnknownMeasure` for a measure that does not parse."""
        return self.options_panel.options(self.session.settings.levels)

    def _options_or_tell(self) -> rm.Options | None:
        """The options, or None after telling the measure that does not parse."""
        try:
            return self.options()
        except UnknownMeasure as exc:
            self.show_error(f"Measures: {exc}")
            return None

    def set_options(self, **values) -> None:
        """Set options by name as a user would (:meth:`OptionsPanel.set_options`)."""
        self.options_panel.set_options(**values)

    def _options_changed(self, *_) -> None:
        if self.result is not None and not self.busy():
            self._say("The options changed: press Compare to compare again")

    def _key(self) -> tuple | None:
        try:
            options = self.options()
        except UnknownMeasure:
            return None
        s = self.session
        return (options, tuple(id(r) for r in self.chosen_runs()), id(s.qrels), id(s.collection), before_key(s))

    # -- comparing ------------------------------------------------------------------------------
    def busy(self) -> bool:
        """True while runs are read, compared or the fidelity tables computed."""
        return self.compare_job.busy() or self.fidelity_job.busy() or self._reading > 0 or self._pending

    def compare(self) -> None:
        """Compare the ticked runs with the options set, in the background (a comparison still
        running is dropped)."""
        self.message.setText("")
        s = self.session
        chosen = self.chosen_runs()
        runs, before = self.before_edits.runs(s, chosen)
        if s.qrels is None:
            self._refuse("Open a qrels file (File ▸ Open qrels… in the main window) to compare runs.")
            return
        if len(runs) < 2:
            self._refuse(f"Load at least 2 runs to compare ({len(runs)} ticked): File ▸ Open run… in the main "
                         f"window, or Add runs… here.")
            return
        options = self._options_or_tell()
        if options is None:
            return
        key = self._key()
        qrels, collection, cache = s.qrels, s.collection, list(self._cache)
        # an edited run as evaluated now: "edited from FILE, N edits"; then the runs before their edits
        sources = run_sources(self.parent(), chosen) + [f"{r.path}, before its unsaved edits"
                                                        for r in runs[len(chosen):]]

        def success(result: rm.Compared) -> None:
            result.before = before
            self._last_key = key
            self._cache = result.cached
            result.sources = sources
            self.result = result
            self._show_result()

        def failed(exc: BaseException) -> None:
            self._last_key = key
            self._failed(exc)

        self.compare_job.start(lambda job: rm.compare_job(qrels, runs, collection, options, cache, job), success,
                               failed)

    def cancel(self) -> None:
        """Stop the comparison and the fidelity tables being computed."""
        self.compare_job.cancel()
        self.fidelity_job.cancel()
        self._busy_changed()
        self._say("Cancelled")

    def _refuse(self, text: str) -> None:
        if self.result is not None and self.result.before:  # a run before edits now saved or undone
            self.result = None
            self._show_nothing()
        self.message.setText(text)
        self._say(text)

    def _busy_changed(self) -> None:
        busy = self.compare_job.busy() or self.fidelity_job.busy()
        self.fidelity_tab.set_computing(self.fidelity_job.busy())  # what its empty tables say
        self.cancel_button.setEnabled(busy)
        self.progress.setVisible(busy)
        if busy:
            self.progress.setValue(0)
            self.timer.start()
        else:
            self.timer.stop()
            self._say("")

    def _poll(self) -> None:
        job = self.compare_job.progress or self.fidelity_job.progress
        if job is None:
            return
        self.progress.setValue(int(job.fraction * 1000))
        if job.text:
            self._say(job.text[:1].upper() + job.text[1:] + "…")

    def _failed(self, exc: BaseException) -> None:
        """A worker's error: input errors are told (message line, box), ``Cancelled`` is
        dropped, anything else is a bug and re-raised (the traceback dialog, or pytest-qt)."""
        if isinstance(exc, rm.Cancelled):
            return
        text = input_error_text(exc)
        if text is None and isinstance(exc, (ValueError, KeyError)):
            text = str(exc)
        if text is None:
            raise exc
        if "paired topics" in text:
            text += " (tick “every judged topic (-c)” to pair over every judged topic)"
        self.show_error(text)

    def show_error(self, text: str) -> None:
        """Tell an error: the message line, the status bar, and (interactively) a non-modal box;
        errors arriving while the box is open are added to it."""
        self.errors_shown.append(text)
        self.message.setText(text)
        self._say(f"Error: {text}")
        if self.show_dialogs:
            self.errors.tell(text)

    def _say(self, text: str) -> None:
        self.status.setText(text)

    # -- showing the comparison -------------------------------------------------------------------
    def _k(self) -> int:
        k = self.measure.currentIndex()
        return max(k, 0)

    def _show_nothing(self) -> None:
        text = "<i>Press Compare (or load at least 2 runs and a qrels file).</i>"
        self.runs_tab.show_nothing(text)
        self.significance_tab.show_nothing(text)
        self.topics_tab.show_nothing(text)
        self.correlation_tab.show_nothing()

    def _show_result(self) -> None:
        c = self.result.comparison
        keep = self.measure.currentText()
        self.measure.blockSignals(True)
        self.measure.clear()
        self.measure.addItems(c.measures)
        self.measure.setCurrentIndex(max(c.measures.index(keep) if keep in c.measures else 0, 0))
        self.measure.blockSignals(False)
        self.correlation_tab.set_measures(c.measures)
        setting = rm.setting_text(c, self.result.with_collection, self.result.options) + "".join(
            f"; {label}: {source}" for label, source in rm.edited_runs(self.result).items())
        self.setting.setText(esc(setting))
        self.setting.setToolTip(plain_tip(setting))
        self._show_all()
        self.exports.enable()
        self._say(f"Compared {len(c.runs)} runs on {len(c.topics)} topics under {rm.plural(len(c.measures), 'measure')}"
                  + "".join(f" · {w}" for w in self.result.label_warnings))

    def _show_all(self) -> None:
        if self.result is None:
            return
        k = self._k()
        self.runs_tab.show_result(self.result, k)
        self.significance_tab.show_result(self.result.comparison, k)
        self.topics_tab.show_result(self.result.comparison, k)
        self.correlation_tab.show_result(self.result)
        self._show_fidelity()

    # -- fidelity -------------------------------------------------------------------------------
    def compute_fidelity(self) -> None:
        """Build the 20 simulated runs of the loaded qrels and collection on the complete topics
        and score them with the measures (background)."""
        missing = missing_inputs(self.session)
        if missing is not None:
            self.fidelity_tab.tell(missing, error=True)
            return
        options = self._options_or_tell()
        if options is None:
            return
        s = self.session
        key = (id(s.qrels), id(s.collection), options.measures, options.mode, options.levels)
        qrels, collection = s.qrels, s.collection
        self.fidelity_tab.tell("Building the simulated runs…")

        def success(f) -> None:
            self.fidelity = f
            self._fid_key = key
            self._show_fidelity()
            self.exports.enable()
            self._say(f"Fidelity tables of {rm.plural(len(f.measures), 'measure')} on "
                      f"{rm.plural(len(f.topics), 'complete topic')}")

        def failed(exc: BaseException) -> None:
            if not isinstance(exc, rm.Cancelled):
                text = input_error_text(exc) or (str(exc) if isinstance(exc, (ValueError, KeyError)) else None)
                if text is not None:
                    self.fidelity_tab.tell(text, error=True)
            self._failed(exc)

        self.fidelity_job.start(lambda job: rm.fidelity_job(qrels, collection, options, job), success, failed)

    def _show_fidelity(self) -> None:
        if self.fidelity is None:
            self.fidelity_tab.show_nothing(missing_inputs(self.session), computing=self.fidelity_job.busy())
        else:
            self.fidelity_tab.show_tables(self.fidelity, self.measure.currentText())

    # -- geometry -------------------------------------------------------------------------------
    def save_state(self) -> None:
        keys.write(app_settings(), keys.RUNS_WINDOW_GEOMETRY, self.saveGeometry())

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale or (self.result is None and not self.compare_job.busy()):
            self._stale = False
            self._schedule()

    def hideEvent(self, event) -> None:
        self.save_state()
        super().hideEvent(event)

    def closeEvent(self, event) -> None:
        self.save_state()
        super().closeEvent(event)


def show_topic(window, topic: str) -> None:
    """The main window ``window`` shows ``topic`` (a topic double-clicked in the Topics tab),
    raised and active; a topic its open run does not rank is told in its status line."""
    s = window.session
    if topic not in s.topic_ids():
        window.status.setText(f"Topic {topic} is not in the open run {s.run.run_id if s.run else ''}".rstrip())
        return
    s.set_topic(topic)
    window.raise_()
    window.activateWindow()
