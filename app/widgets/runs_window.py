"""The Runs window (View ▸ Compare all runs, Ctrl+Alt+R): every loaded run under several list
measures at once, with the significance of each pair of runs, the correlation of the measures
over the runs, and the fidelity tables of the loaded qrels and collection.

:class:`RunsWindow` is a non-modal window of its own (its geometry kept in the settings). Its
left column chooses what to compare: the session's runs (and runs added here with "Add runs…",
files or a folder, read in the background; they stay in this window), the measures (one per
line; default :data:`readsim.app.runs_model.DEFAULT_MEASURES`), the test (bootstrap, t,
randomization), α, resamples, seed, correction, the reading order, ``-c`` and the baseline of
the runs as whole documents. Every run is evaluated once (and once more as whole documents) in
the background, then :func:`readsim.engine.compare.compare_evaluations` compares them, with a
progress bar; the GUI never waits. Evaluations are kept, so a new test or α only re-tests.

Four tabs, all for the measure chosen at the top ("Measure"):

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

Exports (the Export button, or the window's File menu): the current tab as PNG or SVG, and each
table as CSV (:mod:`readsim.app.runs_model`), written atomically; an error names the path.

Errors (a run that cannot be read, options that leave nothing to compare, a file that cannot be
written) are shown in the window's message line and, interactively, in a non-modal message box;
:attr:`RunsWindow.errors_shown` lists them.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QByteArray, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QAction, QBrush, QColor, QFont
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout,
                               QGroupBox, QHBoxLayout, QHeaderView, QLabel, QListWidget, QListWidgetItem, QMainWindow,
                               QMenu, QMessageBox, QPlainTextEdit, QProgressBar, QPushButton, QSizePolicy, QSpinBox,
                               QSplitter, QTableWidget, QTableWidgetItem, QTabWidget, QToolButton, QVBoxLayout,
                               QWidget)

from readsim.engine.compare import CORRECTIONS, MAX_RESAMPLES, TESTS
from readsim.engine.formats import Run
from readsim.engine.measure import UnknownMeasure

from .. import runs_model as rm
from ..background import input_error_text, run_in_background
from ..export import PICTURES, export_plot, export_widget, safe_name
from ..files import app_settings
from ..plain import esc, message_box, plain_label, plain_tip, rich_label
from .list_plot import cache_axes

SIGNIFICANT_MARK = "≫"
NOT_SIGNIFICANT_MARK = "n.s."
POLL_MS = 100

SECTION = QColor("#eef1f6")
CHOSEN = QColor("#f3f7ff")
GREEN_TEXT = QColor("#1a7f37")
RED_TEXT = QColor("#b3261e")
AMBER_TEXT = QColor("#9a6700")
MUTED = QColor("#777777")
NOT_SIGNIFICANT = QColor("#f1f1f1")
BLANK = QColor("#fbfbfb")
LIGHT_GREEN = np.array([205, 236, 207])
DARK_GREEN = np.array([26, 127, 55])
POINT = "#1f5fbf"
LABELLED_POINTS = 20  # up to this many runs, each point carries its name

CSV_KINDS = {
    "runs": ("Runs and their means", rm.runs_csv),
    "pairs": ("Significance of every pair", rm.pairs_csv),
    "correlations": ("Correlations between measures", rm.correlations_csv),
    "fidelity1": ("Fidelity Table 1 (means of the simulated runs)", rm.fidelity_table1_csv),
    "fidelity2": ("Fidelity Table 2 (expected orderings)", rm.fidelity_table2_csv),
}
TABS = ("Runs", "Significance", "Correlation", "Fidelity")


def wrap_label(text: str, width: int = 14) -> str:
    """``text`` broken into lines of about ``width`` characters after ``-``, ``_``, ``/``, a
    space, or a ``.`` not inside a number (column headers of run and measure names):
    ``bert-passages-map199`` -> ``bert-passages-\\nmap199``, ``AgP/F(0.25)`` -> ``AgP/\\nF(0.25)``
    with ``width`` 9. A piece longer than ``width`` stays whole."""
    pieces, piece = [], ""
    for i, ch in enumerate(text):
        piece += ch
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if ch in "-_/ " or (ch == "." and not nxt.isdigit()):
            pieces.append(piece)
            piece = ""
    if piece:
        pieces.append(piece)
    lines, line = [], ""
    for piece in pieces:
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = ""
        line += piece
    lines.append(line)
    return "\n".join(s.rstrip() for s in lines if s.strip())


def p_colour(p: float, alpha: float) -> QColor:
    """A significant cell's colour: light green at p = α, dark green at p <= 0.001 (log scale)."""
    if p is None or math.isnan(p):
        return NOT_SIGNIFICANT
    floor = min(0.001, alpha / 10)
    s = 1.0 if p <= floor else math.log(alpha / p) / math.log(alpha / floor)
    s = min(max(s, 0.0), 1.0)
    rgb = LIGHT_GREEN + (DARK_GREEN - LIGHT_GREEN) * s
    return QColor(*(int(round(v)) for v in rgb))


def _item(text: str, tip: str = "", align=Qt.AlignmentFlag.AlignRight, font: QFont | None = None) -> QTableWidgetItem:
    it = QTableWidgetItem(text)
    it.setTextAlignment(align | Qt.AlignmentFlag.AlignVCenter)
    it.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    if tip:
        it.setToolTip(plain_tip(tip))
    if font is not None:
        it.setFont(font)
    return it


def _table() -> QTableWidget:
    t = QTableWidget()
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
    t.setWordWrap(False)
    t.setStyleSheet("QTableWidget { font-size: 11pt; } QHeaderView::section { font-weight: bold; padding: 4px; }")
    return t


def _note(text: str = "", colour: str = "#555", rich: bool = True) -> QLabel:
    """A word-wrapped note: rich text (our words, values through ``esc``) or, ``rich=False``, plain."""
    label = rich_label(text) if rich else plain_label(text)
    label.setWordWrap(True)
    label.setStyleSheet(f"color:{colour};")
    return label


class RunsWindow(QMainWindow):
    """Compare every run of ``session`` (plus runs added here) under several measures.

    State read by tests and exports: :attr:`result` (:class:`readsim.app.runs_model.Compared`,
    None before the first comparison), :attr:`fidelity` (``engine.fidelity.Fidelity`` or None),
    :attr:`extra_runs`, :attr:`errors_shown`, :meth:`busy`. ``show_dialogs=False`` keeps errors
    in the message line (tests, screenshots)."""

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
        self.error_box: QMessageBox | None = None
        self._unchecked: set[str] = set()  # run paths the user left out
        self._cache: list[rm.Cached] = []
        self._gen = 0
        self._job: rm.Progress | None = None
        self._fid_gen = 0
        self._fid_job: rm.Progress | None = None
        self._fid_key: tuple | None = None
        self._reading = 0  # run files being read
        self._stale = False
        self._pending = False  # a comparison is scheduled (the inputs changed while shown)
        self._last_key: tuple | None = None
        self.heat_order: list[int] = []
        self.heat_p = np.zeros((0, 0))
        self.points = np.zeros((0, 2))
        self._labels: list[pg.TextItem] = []

        central = QWidget()
        outer = QHBoxLayout(central)
        outer.setContentsMargins(6, 6, 6, 6)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self._options_panel())
        self.splitter.addWidget(self._results_panel())
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        outer.addWidget(self.splitter)
        self.setCentralWidget(central)
        self._make_menu()

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
        self.fill_runs()
        self._show_nothing()
        self._show_fidelity()
        self.resize(1500, 900)
        self._restore()

    # -- layout ---------------------------------------------------------------------------------
    def _options_panel(self) -> QWidget:
        panel = QWidget()
        panel.setMinimumWidth(290)
        panel.setMaximumWidth(420)
        lay = QVBoxLayout(panel)
        lay.setContentsMargins(0, 0, 4, 0)

        box = QGroupBox("Runs")
        bl = QVBoxLayout(box)
        self.run_list = QListWidget()
        self.run_list.setToolTip("The runs compared: every run loaded in the window, and those added here. "
                                 "Untick a run to leave it out.")
        self.run_list.itemChanged.connect(self._run_ticked)
        bl.addWidget(self.run_list, 1)
        row = QHBoxLayout()
        self.add_button = QToolButton()
        self.add_button.setText("Add runs…")
        self.add_button.setToolTip("Add run files, or every file of a folder, to this comparison "
                                   "(they are not opened in the main window)")
        self.add_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.add_button)
        menu.addAction("Run files…", self.ask_add_files)
        menu.addAction("A folder of runs…", self.ask_add_folder)
        self.add_button.setMenu(menu)
        self.remove_button = QToolButton()
        self.remove_button.setText("Remove")
        self.remove_button.setToolTip("Remove the selected run added here (the window's runs stay: untick them)")
        self.remove_button.clicked.connect(self.remove_selected)
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        bl.addLayout(row)
        lay.addWidget(box, 1)

        box = QGroupBox("Measures (one per line)")
        ml = QVBoxLayout(box)
        self.measures_edit = QPlainTextEdit("\n".join(rm.DEFAULT_MEASURES))
        self.measures_edit.setToolTip("List measures, one per line (or separated by spaces): AgP/F(0.25), "
                                      "AgP/aveChP, AgP/T2IF(300), ANCE@600/LE(300), MAP, gP@10/T2IP(300), ...")
        self.measures_edit.setFixedHeight(self.measures_edit.fontMetrics().lineSpacing() * 5 + 14)
        self.measures_edit.textChanged.connect(self._options_changed)
        ml.addWidget(self.measures_edit)
        lay.addWidget(box)

        box = QGroupBox("Test")
        form = QFormLayout(box)
        self.test = QComboBox()
        for t in TESTS:
            self.test.addItem(rm.TEST_NAMES[t], t)
        self.test.setToolTip("One-tailed test of every pair of runs, in the direction of their ranking "
                             "(bootstrap: Kamps et al. 2007's setting)")
        self.alpha = QDoubleSpinBox()
        self.alpha.setRange(0.001, 0.5)
        self.alpha.setDecimals(3)
        self.alpha.setSingleStep(0.01)
        self.alpha.setValue(0.05)
        self.alpha.setToolTip("Significance level; the intervals are at 1 − α")
        self.resamples = QSpinBox()
        self.resamples.setRange(1, MAX_RESAMPLES)
        self.resamples.setSingleStep(100)
        self.resamples.setValue(1000)
        self.resamples.setGroupSeparatorShown(True)
        self.resamples.setToolTip("Resamples of the bootstrap and randomization tests")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip("Random seed: the same seed, the same numbers")
        self.correction = QComboBox()
        for c in CORRECTIONS:
            self.correction.addItem(c, c)
        self.correction.setToolTip("Multiple-comparison correction over each measure's pairs")
        self.mode = QComboBox()
        for m in rm.READING_MODES:
            self.mode.addItem(m.value, m.value)
        self.mode.setToolTip("Reading order after the matching chain, for every run")
        self.complete = QCheckBox("every judged topic (-c)")
        self.complete.setToolTip("Pair over every judged topic, a topic a run lacks scoring as an empty ranking "
                                 "(else: the topics every run has)")
        self.baseline = QCheckBox("runs as whole documents too")
        self.baseline.setChecked(True)
        self.baseline.setToolTip("Evaluate every run once more with its articles retrieved whole: the "
                                 "“against documents” correlations (Arvola et al. 2010's doc baseline)")
        form.addRow(plain_label("Test"), self.test)
        form.addRow(plain_label("α"), self.alpha)
        form.addRow(plain_label("Resamples"), self.resamples)
        form.addRow(plain_label("Seed"), self.seed)
        form.addRow(plain_label("Correction"), self.correction)
        form.addRow(plain_label("Reading"), self.mode)
        form.addRow(self.complete)
        form.addRow(self.baseline)
        for w in (self.test, self.correction, self.mode):
            w.currentIndexChanged.connect(self._options_changed)
        for w in (self.alpha, self.resamples, self.seed):
            w.valueChanged.connect(self._options_changed)
        for w in (self.complete, self.baseline):
            w.toggled.connect(self._options_changed)
        lay.addWidget(box)

        row = QHBoxLayout()
        self.compare_button = QPushButton("Compare")
        self.compare_button.setDefault(True)
        self.compare_button.setToolTip("Evaluate the ticked runs and compare them (in the background)")
        self.compare_button.clicked.connect(self.compare)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        row.addWidget(self.compare_button, 1)
        row.addWidget(self.cancel_button)
        lay.addLayout(row)
        self.message = _note("", "#b3261e", rich=False)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.message)
        return panel

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
        self.setting = _note()
        self.setting.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        bar.addWidget(self.setting, 1)
        self.export_button = QToolButton()
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        bar.addWidget(self.export_button)
        lay.addLayout(bar)

        self.tabs = QTabWidget()
        self.tabs.addTab(self._runs_tab(), "Runs")
        self.tabs.addTab(self._significance_tab(), "Significance")
        self.tabs.addTab(self._correlation_tab(), "Correlation")
        self.tabs.addTab(self._fidelity_tab(), "Fidelity")
        lay.addWidget(self.tabs, 1)
        return panel

    def _runs_tab(self) -> QWidget:
        page = QWidget()
        lay = QVBoxLayout(page)
        self.runs_title = _note()
        self.runs_table = _table()
        self.runs_table.verticalHeader().hide()
        self.runs_table.horizontalHeader().setSectionsClickable(True)
        self.runs_table.horizontalHeader().sectionClicked.connect(self._header_clicked)
        self.runs_legend = _note()
        lay.addWidget(self.runs_title)
        lay.addWidget(self.runs_table, 1)
        lay.addWidget(self.runs_legend)
        return page

    def _significance_tab(self) -> QWidget:
        page = QWidget()
        lay = QVBoxLayout(page)
        self.heat_title = _note()
        self.heat = _table()
        self.heat.setStyleSheet("QTableWidget { font-size: 11pt; gridline-color: #ffffff; } "
                                "QHeaderView::section { font-weight: bold; padding: 4px; }")
        self.heat.horizontalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignCenter)
        self.heat.verticalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.heat_legend = _note()
        lay.addWidget(self.heat_title)
        lay.addWidget(self.heat, 1)
        lay.addWidget(self.heat_legend)
        return page

    def _correlation_tab(self) -> QWidget:
        page = QWidget()
        lay = QHBoxLayout(page)
        left = QVBoxLayout()
        bar = QHBoxLayout()
        self.x_measure, self.y_measure = QComboBox(), QComboBox()
        for label, combo in (("x", self.x_measure), ("y", self.y_measure)):
            bar.addWidget(rich_label(f"<b>{label}</b>"))
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.currentIndexChanged.connect(lambda _: self._show_scatter())
            bar.addWidget(combo)
            bar.addSpacing(10)
        self.swap_axes = QToolButton()
        self.swap_axes.setText("⇄")
        self.swap_axes.setToolTip("Swap x and y")
        self.swap_axes.clicked.connect(self._swap_axes)
        bar.addWidget(self.swap_axes)
        bar.addStretch(1)
        left.addLayout(bar)
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("runs_scatter")
        self.plot.setMinimumSize(300, 240)
        self.plot.setBackground("w")  # the window's plots' colours, whatever was imported first
        item = self.plot.getPlotItem()
        item.showGrid(x=True, y=True, alpha=0.2)
        for axis in ("bottom", "left"):
            item.getAxis(axis).enableAutoSIPrefix(False)
            item.getAxis(axis).setPen("#333")
            item.getAxis(axis).setTextPen("#333")
        cache_axes(item)
        self.scatter = pg.ScatterPlotItem(size=11, pen=pg.mkPen("#ffffff", width=1.2), brush=pg.mkBrush(POINT),
                                          hoverable=True, hoverSize=15, hoverBrush=pg.mkBrush("#d9822b"),
                                          tip=self._point_tip)
        item.addItem(self.scatter)
        item.getViewBox().sigResized.connect(self._place_labels)
        item.getViewBox().sigRangeChanged.connect(self._place_labels)
        left.addWidget(self.plot, 1)
        self.corr_note = _note()
        left.addWidget(self.corr_note)
        lay.addLayout(left, 3)
        right = QVBoxLayout()
        right.addWidget(_note("<b>Every two measures</b>: Kendall's τ / Pearson's r of the runs' means "
                              "(lower-is-better measures negated)"))
        self.corr_table = _table()
        self.corr_table.setMinimumWidth(240)
        right.addWidget(self.corr_table, 1)
        lay.addLayout(right, 2)
        return page

    def _fidelity_tab(self) -> QWidget:
        page = QWidget()
        lay = QVBoxLayout(page)
        bar = QHBoxLayout()
        self.fidelity_button = QPushButton("Compute the fidelity tables")
        self.fidelity_button.setToolTip("Build Kamps et al.'s 20 simulated runs (S, SL, SLD, SS, SST passages x "
                                        "R, RS, RI, RSI rankings) from the qrels and the articles, on the topics "
                                        "whose relevant articles the collection all holds, and score them with "
                                        "the measures")
        self.fidelity_button.clicked.connect(self.compute_fidelity)
        bar.addWidget(self.fidelity_button)
        self.fidelity_status = _note()
        bar.addWidget(self.fidelity_status, 1)
        lay.addLayout(bar)
        self.verdict = _note("", "#222")
        self.verdict.setStyleSheet("QLabel { background:#fff8e1; border:1px solid #f0d98c; padding:6px; }")
        lay.addWidget(self.verdict)
        split = QSplitter(Qt.Orientation.Horizontal)
        box = QWidget()
        bl = QVBoxLayout(box)
        bl.setContentsMargins(0, 0, 0, 0)
        self.table2_title = _note()
        self.table2 = _table()
        self.table2.verticalHeader().hide()
        bl.addWidget(self.table2_title)
        bl.addWidget(self.table2, 1)
        split.addWidget(box)
        box = QWidget()
        bl = QVBoxLayout(box)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(_note("<b>Table 1</b>: mean score of each simulated run (paper: MAgP on the 114 INEX 2006 "
                           "topics)"))
        self.table1 = _table()
        self.table1.verticalHeader().hide()
        bl.addWidget(self.table1, 1)
        split.addWidget(box)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        self.table2.horizontalHeader().setStretchLastSection(True)
        lay.addWidget(split, 1)
        return page

    def _make_menu(self) -> None:
        menu = QMenu("&Export", self)
        self.act_export_picture = QAction("Current tab as PNG/SVG…", self)
        self.act_export_picture.triggered.connect(self.ask_export_picture)
        menu.addAction(self.act_export_picture)
        menu.addSeparator()
        self.csv_actions: dict[str, QAction] = {}
        for kind, (text, _) in CSV_KINDS.items():
            a = QAction(f"{text} as CSV…", self)
            a.triggered.connect(lambda _=False, k=kind: self.ask_export_csv(k))
            menu.addAction(a)
            self.csv_actions[kind] = a
        self.export_menu = menu
        self.export_button.setMenu(menu)
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addMenu(menu)
        file_menu.addSeparator()
        file_menu.addAction("Close", self.close)
        self._enable_exports()

    def _enable_exports(self) -> None:
        have = self.result is not None
        for kind in ("runs", "pairs", "correlations"):
            self.csv_actions[kind].setEnabled(have)
        for kind in ("fidelity1", "fidelity2"):
            self.csv_actions[kind].setEnabled(self.fidelity is not None)

    # -- runs -----------------------------------------------------------------------------------
    def all_runs(self) -> list[Run]:
        """The session's runs, then those added here (a path once)."""
        out, seen = [], set()
        for run in [*self.session.runs, *self.extra_runs]:
            if run.path not in seen:
                seen.add(run.path)
                out.append(run)
        return out

    def chosen_runs(self) -> list[Run]:
        """The ticked runs, in the list's order."""
        return [r for r in self.all_runs() if r.path not in self._unchecked]

    def fill_runs(self) -> None:
        """Refill the run list (session runs, then runs added here), keeping the ticks."""
        runs = self.all_runs()
        labels = rm.run_labels(runs)
        session_paths = {r.path for r in self.session.runs}
        self.run_list.blockSignals(True)
        self.run_list.clear()
        for run, label in zip(runs, labels):
            it = QListWidgetItem(label if run.path in session_paths else f"{label}  (added here)")
            it.setData(Qt.ItemDataRole.UserRole, run.path)
            it.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable)
            it.setCheckState(Qt.CheckState.Unchecked if run.path in self._unchecked else Qt.CheckState.Checked)
            it.setToolTip(plain_tip(f"{run.path}\nrun id {run.run_id}, {len(run.topics)} topics"))
            if run.path not in session_paths:
                f = it.font()
                f.setItalic(True)
                it.setFont(f)
            self.run_list.addItem(it)
        self.run_list.blockSignals(False)

    def _run_ticked(self, item: QListWidgetItem) -> None:
        path = item.data(Qt.ItemDataRole.UserRole)
        if item.checkState() == Qt.CheckState.Checked:
            self._unchecked.discard(path)
        else:
            self._unchecked.add(path)
        self._inputs_changed()

    def _files_changed(self) -> None:
        self.fill_runs()
        self.fidelity = None
        self._fid_key = None
        self._show_fidelity()
        self._enable_exports()
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

    def ask_add_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Add runs to the comparison", self._start_folder(),
                                                "Runs (*.run *.txt *.xml);;All files (*)")
        if paths:
            self.add_run_files(paths)

    def ask_add_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Add every run of a folder", self._start_folder())
        if path:
            self.add_run_files([path])

    def _start_folder(self) -> str:
        runs = self.all_runs()
        return str(Path(runs[-1].path).parent) if runs else ""

    def add_run_files(self, paths: list[str]) -> None:
        """Read run files (a folder: every file in it) in the background and add those read to
        this comparison; each file that cannot be read is reported (``path: reason``)."""
        paths = [str(p) for p in paths]
        self._reading += 1
        self._say(f"Reading {len(paths)} run file{'s' if len(paths) != 1 else ''}…")

        def success(out) -> None:
            self._reading -= 1
            runs, errors = out
            known = {r.path for r in self.all_runs()}
            added = [r for r in runs if r.path not in known]
            self.extra_runs += added
            for r in runs:
                self._unchecked.discard(r.path)
            self.fill_runs()
            for text in errors:
                self.show_error(f"Cannot add the run {text}")
            if added:
                self._say(f"Added {len(added)} run{'s' if len(added) != 1 else ''}: "
                          + ", ".join(Path(r.path).name for r in added))
            elif not errors:
                self._say("No new run: those files are compared already")
            if runs:
                self._inputs_changed()

        def failed(exc: BaseException) -> None:
            self._reading -= 1
            self._failed(exc)

        run_in_background(self, lambda: rm.read_runs(paths), success, failed)

    def remove_selected(self) -> None:
        """Remove the selected runs added here (the session's runs are only unticked)."""
        paths = {it.data(Qt.ItemDataRole.UserRole) for it in self.run_list.selectedItems()}
        before = len(self.extra_runs)
        self.extra_runs = [r for r in self.extra_runs if r.path not in paths]
        if len(self.extra_runs) != before:
            self.fill_runs()
            self._inputs_changed()
        elif paths:
            self._say("Runs opened in the main window stay here: untick them to leave them out")

    # -- options --------------------------------------------------------------------------------
    def options(self) -> rm.Options:
        """The options as set. Raises :class:`UnknownMeasure` for a measure that does not parse."""
        measures = rm.parse_measures(self.measures_edit.toPlainText())
        return rm.Options(measures=tuple(m.name for m in measures), test=self.test.currentData(),
                          alpha=round(self.alpha.value(), 6), resamples=self.resamples.value(),
                          seed=self.seed.value(), correction=self.correction.currentData(),
                          mode=self.mode.currentData(), levels=int(self.session.settings.levels),
                          complete=self.complete.isChecked(), baseline=self.baseline.isChecked())

    def set_options(self, **values) -> None:
        """Set options by name (``measures`` a list of names, ``test``, ``alpha``, ``resamples``,
        ``seed``, ``correction``, ``mode``, ``complete``, ``baseline``) as a user would."""
        for name, value in values.items():
            if name == "measures":
                self.measures_edit.setPlainText("\n".join(value))
            elif name in ("test", "correction", "mode"):
                combo = getattr(self, name)
                combo.setCurrentIndex(combo.findData(str(value)))
            elif name in ("alpha", "resamples", "seed"):
                getattr(self, name).setValue(value)
            elif name in ("complete", "baseline"):
                getattr(self, name).setChecked(bool(value))
            else:
                raise KeyError(name)

    def _options_changed(self, *_) -> None:
        if self.result is not None and not self.busy():
            self._say("The options changed: press Compare to compare again")

    def _key(self) -> tuple | None:
        try:
            options = self.options()
        except UnknownMeasure:
            return None
        s = self.session
        return (options, tuple(id(r) for r in self.chosen_runs()), id(s.qrels), id(s.collection))

    # -- comparing ------------------------------------------------------------------------------
    def busy(self) -> bool:
        """True while runs are read, compared or the fidelity tables computed."""
        return self._job is not None or self._fid_job is not None or self._reading > 0 or self._pending

    def compare(self) -> None:
        """Compare the ticked runs with the options set, in the background (a comparison still
        running is dropped)."""
        self.message.setText("")
        s = self.session
        runs = self.chosen_runs()
        if s.qrels is None:
            self._refuse("Open a qrels file (File ▸ Open qrels… in the main window) to compare runs.")
            return
        if len(runs) < 2:
            self._refuse(f"Load at least 2 runs to compare ({len(runs)} ticked): File ▸ Open run… in the main "
                         f"window, or Add runs… here.")
            return
        try:
            options = self.options()
        except UnknownMeasure as exc:
            self.show_error(f"Measures: {exc}")
            return
        if self._job is not None:
            self._job.cancelled = True
        self._gen += 1
        gen = self._gen
        job = self._job = rm.Progress()
        key = self._key()
        qrels, collection, cache = s.qrels, s.collection, list(self._cache)
        self._busy_changed()

        def success(result: rm.Compared) -> None:
            if gen != self._gen:
                return
            self._job = None
            self._busy_changed()
            self._last_key = key
            self._cache = result.cached
            self.result = result
            self._show_result()

        def failed(exc: BaseException) -> None:
            if gen != self._gen:
                return
            self._job = None
            self._busy_changed()
            self._last_key = key
            self._failed(exc)

        run_in_background(self, lambda: rm.compare_job(qrels, runs, collection, options, cache, job), success,
                          failed)

    def cancel(self) -> None:
        """Stop the comparison and the fidelity tables being computed."""
        for attr in ("_job", "_fid_job"):
            job = getattr(self, attr)
            if job is not None:
                job.cancelled = True
                setattr(self, attr, None)
        self._gen += 1
        self._fid_gen += 1
        self._busy_changed()
        self._say("Cancelled")

    def _refuse(self, text: str) -> None:
        self.message.setText(text)
        self._say(text)

    def _busy_changed(self) -> None:
        busy = self._job is not None or self._fid_job is not None
        self.cancel_button.setEnabled(busy)
        self.progress.setVisible(busy)
        if busy:
            self.progress.setValue(0)
            self.timer.start()
        else:
            self.timer.stop()
            self._say("")

    def _poll(self) -> None:
        job = self._job or self._fid_job
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
        if not self.show_dialogs:
            return
        box = self.error_box
        if box is not None and box.isVisible():
            box.setText(box.text() + "\n\n" + text)
            return
        box = message_box(QMessageBox.Icon.Warning, "readsim: compare all runs", text, self)
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _=0, b=box: setattr(self, "error_box", None) if self.error_box is b else None)
        self.error_box = box
        box.show()

    def _say(self, text: str) -> None:
        self.status.setText(text)

    # -- showing the comparison -------------------------------------------------------------------
    def _k(self) -> int:
        k = self.measure.currentIndex()
        return max(k, 0)

    def _show_nothing(self) -> None:
        text = "<i>Press Compare (or load at least 2 runs and a qrels file).</i>"
        self.runs_title.setText(text)
        for t in (self.runs_table, self.heat, self.corr_table):
            t.clear()
            t.setRowCount(0)
            t.setColumnCount(0)
        self.heat_title.setText(text)
        self.scatter.setData([], [])
        self.corr_note.setText("")

    def _show_result(self) -> None:
        c = self.result.comparison
        keep = self.measure.currentText()
        kx, ky = self.x_measure.currentText(), self.y_measure.currentText()
        for combo in (self.measure, self.x_measure, self.y_measure):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(c.measures)
        self.measure.setCurrentIndex(max(c.measures.index(keep) if keep in c.measures else 0, 0))
        self.x_measure.setCurrentIndex(c.measures.index(kx) if kx in c.measures else 0)
        default_y = 1 if len(c.measures) > 1 else 0
        self.y_measure.setCurrentIndex(c.measures.index(ky) if ky in c.measures and ky != kx else default_y)
        for combo in (self.measure, self.x_measure, self.y_measure):
            combo.blockSignals(False)
        setting = rm.setting_text(c, self.result.with_collection, self.result.options)
        self.setting.setText(esc(setting))
        self.setting.setToolTip(plain_tip(setting))
        self._show_all()
        self._enable_exports()
        self._say(f"Compared {len(c.runs)} runs on {len(c.topics)} topics under {len(c.measures)} measures"
                  + "".join(f" · {w}" for w in self.result.label_warnings))

    def _show_all(self) -> None:
        if self.result is None:
            return
        self._show_runs_table()
        self._show_heat()
        self._show_correlations()
        self._show_scatter()
        self._show_fidelity()

    def _header_clicked(self, column: int) -> None:
        name = self.runs_table.horizontalHeaderItem(column)
        measure = name.data(Qt.ItemDataRole.UserRole) if name is not None else None
        if measure is not None:
            self.measure.setCurrentIndex(self.measure.findText(measure))

    def _show_runs_table(self) -> None:
        c = self.result.comparison
        k = self._k()
        n, m = len(c.runs), len(c.measures)
        below = [rm.neighbour_marks(c, q) for q in range(m)]  # once per measure: each builds every pair
        best = [set(c.best(q)) for q in range(m)]  # every run tied for the best mean is bold
        marks = below[k]
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        bold = QFont(mono)
        bold.setBold(True)
        # columns: rank, run, then the measures, the "vs next" mark right after the chosen one
        columns: list[tuple[str, int | None]] = [("rank", None), ("run", None)]
        for q in range(m):
            columns.append(("measure", q))
            if q == k:
                columns.append(("mark", q))
        t = self.runs_table
        t.clear()
        t.setColumnCount(len(columns))
        t.setRowCount(n + 1)
        self.mark_column = next(j for j, (kind, _) in enumerate(columns) if kind == "mark")
        self.measure_columns = {q: j for j, (kind, q) in enumerate(columns) if kind == "measure"}
        for j, (kind, q) in enumerate(columns):
            if kind == "rank":
                head = QTableWidgetItem("Rank")
            elif kind == "run":
                head = QTableWidgetItem("Run")
            elif kind == "mark":
                head = QTableWidgetItem("vs next")
                head.setToolTip(f"{SIGNIFICANT_MARK}: the run is significantly better than the run on the next row "
                                f"under {c.measures[k]}")
            else:
                lower = bool(c.lower_is_better[q])
                head = QTableWidgetItem(("▼ " if q == k else "") + c.measures[q] + ("\n(lower is better)" if lower
                                                                                     else ""))
                head.setData(Qt.ItemDataRole.UserRole, c.measures[q])
                head.setToolTip(f"{c.measures[q]}: mean over the {len(c.topics)} paired topics"
                                + (", lower is better" if lower else "") + ". Click to order the runs by it.")
            t.setHorizontalHeaderItem(j, head)
        level = f"{(1 - c.alpha) * 100:g}%"
        self.runs_order = [int(i) for i in c.order[k]]
        for row, i in enumerate(self.runs_order):
            for j, (kind, q) in enumerate(columns):
                if kind == "rank":
                    it = _item(str(int(c.rank[k, i])), align=Qt.AlignmentFlag.AlignCenter)
                elif kind == "run":
                    it = _item(c.runs[i], f"{self.result.paths[i]}\nrun id {self.result.runs[i].run_id}",
                               Qt.AlignmentFlag.AlignLeft)
                elif kind == "mark":
                    pair = marks.get(i)
                    if pair is None:
                        it = _item("", align=Qt.AlignmentFlag.AlignCenter)
                    else:
                        it = _item(SIGNIFICANT_MARK if pair.significant else NOT_SIGNIFICANT_MARK,
                                   self._pair_tip(c, k, pair, "ranked next"), Qt.AlignmentFlag.AlignCenter)
                        if pair.significant:
                            it.setForeground(QBrush(GREEN_TEXT))
                            f = it.font()
                            f.setBold(True)
                            f.setPointSizeF(max(f.pointSizeF(), 11) + 2)
                            it.setFont(f)
                        else:
                            it.setForeground(QBrush(MUTED))
                else:
                    mean = float(c.means[q, i])
                    rank = int(c.rank[q, i])
                    text = rm.fmt(mean) if q == k else f"{rm.fmt(mean)} ({rank})"
                    tip = (f"{c.runs[i]} under {c.measures[q]}: mean {mean:.6f} over {len(c.topics)} topics\n"
                           f"{level} {c.ci_method} interval [{c.ci[q, i, 0]:.4f}, {c.ci[q, i, 1]:.4f}]\n"
                           f"rank {rank} of {n}")
                    if not math.isnan(c.doc_means[q, i]):
                        tip += f"\nas whole documents: {c.doc_means[q, i]:.4f}"
                    nxt = below[q].get(i)
                    if nxt is not None:
                        tip += (f"\n{'significantly' if nxt.significant else 'not significantly'} better than "
                                f"{c.runs[nxt.worse]} (rank {rank + 1}), p {rm.fmt_p(self._shown_p(c, nxt))}")
                    it = _item(text, tip, font=bold if i in best[q] else mono)
                    if q == k:
                        it.setBackground(QBrush(CHOSEN))
                t.setItem(row, j, it)
        # the footer: significant pairs per measure
        for j, (kind, q) in enumerate(columns):
            if kind == "run":
                it = _item("significant pairs", "pairs of runs whose difference is significant "
                           f"({rm.TEST_NAMES[c.test]}, one-tailed, α {c.alpha:g}"
                           + (f", {c.correction} correction" if c.correction != "none" else "") + ")",
                           Qt.AlignmentFlag.AlignLeft)
                f = it.font()
                f.setItalic(True)
                it.setFont(f)
            elif kind == "measure":
                sig, total = c.significant_count(q)
                it = _item(f"{sig} of {total}", f"{sig} of the {total} pairs of runs differ significantly under "
                           f"{c.measures[q]}")
            else:
                it = _item("")
            it.setBackground(QBrush(SECTION))
            t.setItem(n, j, it)
        header = t.horizontalHeader()
        for j, (kind, _) in enumerate(columns):
            header.setSectionResizeMode(j, QHeaderView.ResizeMode.Stretch if kind == "measure"
                                        else QHeaderView.ResizeMode.ResizeToContents)
        t.resizeRowsToContents()
        sig, total = c.significant_count(k)
        left_out = ""
        if c.left_out:
            lo = c.left_out
            left_out = (f" · <span style='color:#9a6700'>{len(lo)} judged topic{'s' if len(lo) > 1 else ''} not in "
                        f"every run left out ({esc(', '.join(lo[:3]))}{', …' if len(lo) > 3 else ''}; tick "
                        f"“every judged topic” to keep {'them' if len(lo) > 1 else 'it'})</span>")
        self.runs_title.setText(f"<b>{len(c.runs)} runs</b> ordered by <b>{esc(c.measures[k])}</b> "
                                f"({'lower' if c.lower_is_better[k] else 'higher'} is better) · "
                                f"{sig} of {total} pairs significant over {len(c.topics)} topics{left_out}")
        self.runs_legend.setText(
            f"<b style='color:#1a7f37'>{SIGNIFICANT_MARK}</b> in “vs next”: the run is significantly better than "
            f"the run on the next row under {esc(c.measures[k])} ({esc(rm.TEST_NAMES[c.test])}, "
            f"one-tailed, α {c.alpha:g}{', ' + c.correction + ' correction' if c.correction != 'none' else ''}); "
            f"{NOT_SIGNIFICANT_MARK}: not significant. Means over the {len(c.topics)} paired topics; "
            f"<b>bold</b>: the best mean of a measure (every run tied for it); equal means are ordered by run "
            f"label; (n): the run's rank under that measure. Hover a mean for "
            f"its {level} interval; click a measure's column to order by it.")

    def _shown_p(self, c, pair) -> float:
        return pair.p_adjusted if c.correction != "none" else pair.p

    def _pair_tip(self, c, k: int, pair, relation: str = "") -> str:
        a, b = c.runs[pair.better], c.runs[pair.worse]
        p = f"p {rm.fmt_p(pair.p)}" + (f", adjusted ({c.correction}) {rm.fmt_p(pair.p_adjusted)}"
                                       if c.correction != "none" else "")
        verdict = "significant" if pair.significant else "not significant"
        return (f"{a} (rank {c.rank[k, pair.better]}) vs {b} (rank {c.rank[k, pair.worse]}"
                f"{', ' + relation if relation else ''}) under {c.measures[k]}\n"
                f"mean difference {rm.fmt_signed(pair.diff)}, Cohen's d_z {rm.fmt_signed(pair.effect, 2)}\n"
                f"topics where {a} is better / equal / worse: {pair.wins} / {pair.ties} / {pair.losses}\n"
                f"{p}: {verdict} at α {c.alpha:g}")

    def _show_heat(self) -> None:
        c = self.result.comparison
        k = self._k()
        n = len(c.runs)
        order = [int(i) for i in c.order[k]]
        self.heat_order = order
        shown = c.p_adjusted if c.correction != "none" else c.p
        self.heat_p = np.full((n, n), np.nan)
        pairs = {(p.better, p.worse): p for p in c.pairs(k)}
        t = self.heat
        t.clear()
        t.setRowCount(n)
        t.setColumnCount(n)
        for a, i in enumerate(order):
            rank = int(c.rank[k, i])
            t.setVerticalHeaderItem(a, QTableWidgetItem(f"{rank}  {c.runs[i]}   {rm.fmt(c.means[k, i])}"))
            head = QTableWidgetItem(f"{rank}\n{wrap_label(c.runs[i])}")
            head.setToolTip(plain_tip(f"{c.runs[i]}: rank {rank}, mean {rm.fmt(c.means[k, i])}"))
            t.setHorizontalHeaderItem(a, head)
        for a, i in enumerate(order):
            for b, j in enumerate(order):
                if a < b:
                    pair = pairs[(i, j)]
                    p = float(shown[k, i, j])
                    self.heat_p[a, b] = p
                    it = _item(rm.fmt_p(p) + (" *" if pair.significant else ""), self._pair_tip(c, k, pair),
                               Qt.AlignmentFlag.AlignCenter)
                    if pair.significant:
                        colour = p_colour(p, c.alpha)
                        it.setBackground(QBrush(colour))
                        it.setForeground(QBrush(QColor("#ffffff") if colour.lightness() < 140 else QColor("#0b3d1c")))
                        f = it.font()
                        f.setBold(True)
                        it.setFont(f)
                    else:
                        it.setBackground(QBrush(NOT_SIGNIFICANT))
                        it.setForeground(QBrush(QColor("#555555")))
                elif a == b:
                    it = _item("—", align=Qt.AlignmentFlag.AlignCenter)
                    it.setForeground(QBrush(MUTED))
                    it.setBackground(QBrush(BLANK))
                else:
                    it = _item("")
                    it.setBackground(QBrush(BLANK))
                t.setItem(a, b, it)
        h = t.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        h.setMinimumSectionSize(80)
        t.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        t.verticalHeader().setDefaultSectionSize(max(34, t.fontMetrics().height() * 2))
        sig, total = c.significant_count(k)
        pname = f"{c.correction}-adjusted p" if c.correction != "none" else "p"
        self.heat_title.setText(f"<b>{esc(c.measures[k])}</b>: <b>{sig} of {total}</b> pairs significant "
                                f"({esc(rm.TEST_NAMES[c.test])} test, one-tailed, α {c.alpha:g}); runs "
                                f"ordered by their mean, best first")
        self.heat_legend.setText(
            f"Row run ranked above column run; a cell is the one-tailed {pname} of “the row's run is better than the "
            f"column's”. <span style='background:#1a7f37; color:white'>&nbsp;green&nbsp;</span> significant at "
            f"α {c.alpha:g} (*; darker: smaller p), <span style='background:#f1f1f1'>&nbsp;grey&nbsp;</span> not "
            f"significant. Hover a cell for the mean difference, the effect size and the topics won.")

    def _show_correlations(self) -> None:
        c = self.result.comparison
        m = len(c.measures)
        has_doc = [not np.isnan(c.doc_means[k]).any() for k in range(m)]
        t = self.corr_table
        t.clear()
        t.setRowCount(m + (1 if any(has_doc) else 0))
        t.setColumnCount(m)
        for q, name in enumerate(c.measures):
            t.setHorizontalHeaderItem(q, QTableWidgetItem(wrap_label(name, 9)))
            t.setVerticalHeaderItem(q, QTableWidgetItem(name))
        for k in range(m):
            for q in range(m):
                if k == q:
                    it = _item("—", align=Qt.AlignmentFlag.AlignCenter)
                    it.setForeground(QBrush(MUTED))
                else:
                    it = _item(f"τ {rm.fmt(c.tau[k, q], 3)}\nr {rm.fmt(c.r[k, q], 3)}",
                               f"{c.measures[k]} vs {c.measures[q]} over {len(c.runs)} runs: Kendall's τ "
                               f"{rm.fmt(c.tau[k, q], 3)} (p {rm.fmt_p(c.tau_p[k, q])}), Pearson's r "
                               f"{rm.fmt(c.r[k, q], 3)} (p {rm.fmt_p(c.r_p[k, q])})", Qt.AlignmentFlag.AlignCenter)
                t.setItem(k, q, it)
        if any(has_doc):
            t.setVerticalHeaderItem(m, QTableWidgetItem("as documents"))
            for q in range(m):
                if has_doc[q]:
                    it = _item(f"τ {rm.fmt(c.doc_tau[q], 3)}\nr {rm.fmt(c.doc_r[q], 3)}",
                               f"{c.measures[q]} against the same runs evaluated as whole documents: τ "
                               f"{rm.fmt(c.doc_tau[q], 3)} (p {rm.fmt_p(c.doc_tau_p[q])}), r {rm.fmt(c.doc_r[q], 3)} "
                               f"(p {rm.fmt_p(c.doc_r_p[q])}); {c.doc_gains[q]} of {len(c.runs)} runs better "
                               f"than their baseline", Qt.AlignmentFlag.AlignCenter)
                else:
                    it = _item("n/a", f"{c.measures[q]} has no document score", Qt.AlignmentFlag.AlignCenter)
                it.setBackground(QBrush(SECTION))
                t.setItem(m, q, it)
        t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        t.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        t.resizeRowsToContents()

    def _swap_axes(self) -> None:
        x, y = self.x_measure.currentIndex(), self.y_measure.currentIndex()
        self.x_measure.blockSignals(True)
        self.x_measure.setCurrentIndex(y)
        self.x_measure.blockSignals(False)
        self.y_measure.setCurrentIndex(x)

    def _point_tip(self, x: float, y: float, data) -> str:
        """The hover text of a point: the run's name and its two scores."""
        if self.result is None or data is None:
            return ""
        c = self.result.comparison
        i = int(data)
        kx, ky = self.x_measure.currentIndex(), self.y_measure.currentIndex()
        return plain_tip(f"{c.runs[i]}\n{c.measures[kx]}: {rm.fmt(c.means[kx, i])}\n"
                         f"{c.measures[ky]}: {rm.fmt(c.means[ky, i])}")

    def _place_labels(self, *_) -> None:
        """Put each point's name beside it where it overlaps no other name, no other point and
        stays inside the plot (above right, above left, below right, below left, right, left;
        else the least overlap), greedily from the top of the plot."""
        if not self._labels or len(self._labels) != len(self.points):
            return
        vb = self.plot.getPlotItem().getViewBox()
        area = vb.sceneBoundingRect()
        where = [vb.mapViewToScene(QPointF(float(px), float(py))) for px, py in self.points]
        markers = [QRectF(p.x() - 7, p.y() - 7, 14, 14) for p in where]
        placed: list[QRectF] = []

        def overlap(r: QRectF, others) -> float:
            total = 0.0
            for o in others:
                cut = r.intersected(o)
                total += max(cut.width(), 0) * max(cut.height(), 0)
            return total

        for i in sorted(range(len(where)), key=lambda i: (where[i].y(), where[i].x())):
            label, p = self._labels[i], where[i]
            box = label.textItem.boundingRect()
            w, h = max(box.width(), 1.0), max(box.height(), 1.0)
            gap = 6.0
            candidates = [((-gap / w, 1.0), QRectF(p.x() + gap, p.y() - h, w, h)),
                          ((1 + gap / w, 1.0), QRectF(p.x() - gap - w, p.y() - h, w, h)),
                          ((-gap / w, 0.0), QRectF(p.x() + gap, p.y(), w, h)),
                          ((1 + gap / w, 0.0), QRectF(p.x() - gap - w, p.y(), w, h)),
                          ((-(gap + 4) / w, 0.5), QRectF(p.x() + gap + 4, p.y() - h / 2, w, h)),
                          ((1 + (gap + 4) / w, 0.5), QRectF(p.x() - gap - 4 - w, p.y() - h / 2, w, h))]
            others = [m for j, m in enumerate(markers) if j != i]

            def cost(c) -> float:
                r = c[1]
                inside = r.intersected(area)
                outside = w * h - max(inside.width(), 0) * max(inside.height(), 0)
                return overlap(r, placed) * 2 + overlap(r, others) + outside * 3

            anchor, rect = min(candidates, key=cost)
            label.setAnchor(anchor)
            placed.append(rect)

    def _show_scatter(self) -> None:
        item = self.plot.getPlotItem()
        for label in self._labels:
            item.removeItem(label)
        self._labels = []
        if self.result is None or self.x_measure.currentIndex() < 0 or self.y_measure.currentIndex() < 0:
            self.scatter.setData([], [])
            return
        c = self.result.comparison
        kx, ky = self.x_measure.currentIndex(), self.y_measure.currentIndex()
        x, y = c.means[kx].astype(float), c.means[ky].astype(float)
        self.points = np.column_stack([x, y])
        self.scatter.setData(x=x, y=y, data=list(range(len(c.runs))))
        lower_x, lower_y = bool(c.lower_is_better[kx]), bool(c.lower_is_better[ky])
        vb = item.getViewBox()
        vb.invertX(lower_x)
        vb.invertY(lower_y)
        item.setLabel("bottom", esc(c.measures[kx]) + (" (lower is better, axis reversed)" if lower_x else ""))
        item.setLabel("left", esc(c.measures[ky]) + (" (lower is better, axis reversed)" if lower_y else ""))
        pad = lambda v: max((np.ptp(v) if len(v) else 0) * 0.15, 1e-3 * max(1.0, float(np.max(np.abs(v)))))  # noqa: E731
        item.setXRange(float(x.min()) - pad(x) * 1.5, float(x.max()) + pad(x) * 1.5, padding=0)
        item.setYRange(float(y.min()) - pad(y), float(y.max()) + pad(y), padding=0)
        if len(c.runs) <= LABELLED_POINTS:
            for i, name in enumerate(c.runs):
                label = pg.TextItem(name, color="#333", anchor=(0, 1))
                label.setPos(x[i], y[i])
                item.addItem(label)
                self._labels.append(label)
            self._place_labels()
        same = kx == ky
        tau = "" if same else (f"Kendall's τ = {rm.fmt(c.tau[kx, ky], 3)} (p {rm.fmt_p(c.tau_p[kx, ky])}) · "
                               f"Pearson's r = {rm.fmt(c.r[kx, ky], 3)} (p {rm.fmt_p(c.r_p[kx, ky])}) · ")
        self.scatter_title = f"{tau}{len(c.runs)} runs"
        item.setTitle(esc(self.scatter_title), size="11pt", color="#222")
        notes = []
        for k in dict.fromkeys((kx, ky)):
            if not math.isnan(c.doc_tau[k]) or not np.isnan(c.doc_means[k]).any():
                notes.append(f"<b>{esc(c.measures[k])}</b> τ {rm.fmt(c.doc_tau[k], 3)}, r "
                             f"{rm.fmt(c.doc_r[k], 3)} ({c.doc_gains[k]} of {len(c.runs)} runs better than their "
                             f"baseline)")
        text = "Each point a run (hover: its name and both scores)."
        if lower_x or lower_y:
            text += " A lower-is-better axis is reversed, so up and right are better and τ, r have their usual sign."
        if notes:
            text += "<br>Against each run evaluated as whole documents: " + "; ".join(notes) + "."
        self.corr_note.setText(text)

    # -- fidelity -------------------------------------------------------------------------------
    def _fidelity_missing(self) -> str | None:
        s = self.session
        missing = [what for what, have in (("a qrels file", s.qrels), ("a collection folder", s.collection))
                   if have is None]
        if missing:
            return (f"Open {' and '.join(missing)} (File menu of the main window): the simulated runs are built from "
                    f"the qrels' highlighted passages and the articles' XML.")
        return None

    def compute_fidelity(self) -> None:
        """Build the 20 simulated runs of the loaded qrels and collection on the complete topics
        and score them with the measures (background)."""
        missing = self._fidelity_missing()
        if missing is not None:
            self.fidelity_status.setText(f"<span style='color:#b3261e'>{esc(missing)}</span>")
            return
        try:
            options = self.options()
        except UnknownMeasure as exc:
            self.show_error(f"Measures: {exc}")
            return
        s = self.session
        if self._fid_job is not None:
            self._fid_job.cancelled = True
        self._fid_gen += 1
        gen = self._fid_gen
        job = self._fid_job = rm.Progress()
        key = (id(s.qrels), id(s.collection), options.measures, options.mode, options.levels)
        qrels, collection = s.qrels, s.collection
        self.fidelity_status.setText("Building the simulated runs…")
        self._busy_changed()

        def success(f) -> None:
            if gen != self._fid_gen:
                return
            self._fid_job = None
            self._busy_changed()
            self.fidelity = f
            self._fid_key = key
            self._show_fidelity()
            self._enable_exports()
            self._say(f"Fidelity tables of {len(f.measures)} measures on {len(f.topics)} complete topics")

        def failed(exc: BaseException) -> None:
            if gen != self._fid_gen:
                return
            self._fid_job = None
            self._busy_changed()
            if not isinstance(exc, rm.Cancelled):
                text = input_error_text(exc) or (str(exc) if isinstance(exc, (ValueError, KeyError)) else None)
                if text is not None:
                    self.fidelity_status.setText(f"<span style='color:#b3261e'>{esc(text)}</span>")
            self._failed(exc)

        run_in_background(self, lambda: rm.fidelity_job(qrels, collection, options, job), success, failed)

    def _show_fidelity(self) -> None:
        f = self.fidelity
        if f is None:
            self.table1.setRowCount(0)
            self.table2.setRowCount(0)
            self.table1.setColumnCount(0)
            self.table2.setColumnCount(0)
            self.verdict.hide()
            self.table2_title.setText("")
            if self._fid_job is None:
                missing = self._fidelity_missing()
                self.fidelity_status.setText(
                    f"<span style='color:#b3261e'>{esc(missing)}</span>" if missing is not None else
                    "Kamps et al.'s fidelity test of the measures: do they order the 20 simulated runs as expected? "
                    "On the topics whose relevant articles the collection all holds.")
            self.fidelity_button.setEnabled(self._fidelity_missing() is None)
            return
        from readsim.engine.fidelity import ALWAYS, ON_AVERAGE, PAPER_TABLE1, PAPER_TABLE2, RESPECTED, REVERSED

        self.fidelity_button.setEnabled(True)
        topics = ", ".join(f.topics) if len(f.topics) <= 8 else f"{', '.join(f.topics[:8])}, …"
        self.fidelity_status.setText(f"The 20 simulated runs on the <b>{len(f.topics)}</b> complete "
                                     f"topic{'s' if len(f.topics) != 1 else ''} ({esc(topics)})")
        chosen = self.measure.currentText()
        k = f.measures.index(chosen) if chosen in f.measures else 0
        self.fidelity_k = k
        self.verdict.setText(esc(rm.verdict_text(f, k)))
        self.verdict.show()
        percent = rm.in_percent(f, k)
        unit = "Diff (%)" if percent else "Diff"
        self.table2_title.setText(
            f"<b>Table 2</b>: <b>{esc(f.measures[k])}</b> on each expected ordering “first ≥ second”: "
            f"mean of first − second{' in percentage points' if percent else ' (lower is better: negated)'}, topics "
            f"where the first is better (&gt;), equal (=), worse (&lt;), paired t-test p (two-sided); • the paper's "
            f"AgP confirms it on every topic" + ("" if chosen in f.measures or not chosen else
                                                   f" <span style='color:#b3261e'>({esc(chosen)} was not "
                                                   f"computed: compute the tables again)</span>"))
        cols = ("Expected ordering", unit, ">", "=", "<", "p", "Verdict", "Paper AgP\nDiff (%) > = <")
        t = self.table2
        t.clear()
        t.setColumnCount(len(cols))
        t.setHorizontalHeaderLabels(cols)
        t.horizontalHeaderItem(7).setToolTip("The paper's AgP row (Kamps et al. 2008, Table 2, 114 INEX 2006 topics): "
                                             "Diff (%), then topics >, =, <")
        t.setRowCount(len(f.orderings))
        colours = {RESPECTED: GREEN_TEXT, ON_AVERAGE: AMBER_TEXT, REVERSED: RED_TEXT}
        for o, (first, second) in enumerate(f.orderings):
            d = f.diff[k, o] * (100 if percent else 1)
            paper = PAPER_TABLE2[(first, second)][0]
            verdict = f.verdict[k][o]
            cells = [(f"{'• ' if (first, second) in ALWAYS else ''}{first} ≥ {second}", Qt.AlignmentFlag.AlignLeft),
                     (rm.fmt_signed(d, 2 if percent else 4), None), (str(int(f.better[k, o])), None),
                     (str(int(f.equal[k, o])), None), (str(int(f.worse[k, o])), None),
                     ("–" if math.isnan(f.p[k, o]) else (f"{f.p[k, o]:.1e}" if f.p[k, o] < 0.001 else
                                                          f"{f.p[k, o]:.4f}"), None),
                     (verdict, Qt.AlignmentFlag.AlignLeft),
                     (f"{'0' if paper.diff == 0 else f'{paper.diff:+g}'}  {paper.better} {paper.equal} {paper.worse}",
                      None)]
            for j, (text, align) in enumerate(cells):
                it = _item(text, align=align or Qt.AlignmentFlag.AlignRight)
                if j == 6:
                    it.setForeground(QBrush(colours[verdict]))
                    font = it.font()
                    font.setBold(verdict != RESPECTED)
                    it.setFont(font)
                if j == 7:
                    it.setForeground(QBrush(MUTED))
                t.setItem(o, j, it)
        t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        t.resizeRowsToContents()
        t1 = self.table1
        t1.clear()
        t1.setColumnCount(len(f.measures) + 2)
        t1.setHorizontalHeaderLabels(["Run", *(wrap_label(m, 12) for m in f.measures), "Paper\nMAgP"])
        t1.setRowCount(len(f.runs))
        best = [set(f.best(q)) for q in range(len(f.measures))]
        worst = [set(f.worst(q)) for q in range(len(f.measures))]
        for i, run in enumerate(f.runs):
            t1.setItem(i, 0, _item(run, align=Qt.AlignmentFlag.AlignLeft))
            for q in range(len(f.measures)):
                it = _item(rm.fmt(f.means[q, i]), f"{run} under {f.measures[q]}: {f.means[q, i]:.6f}")
                if run in best[q]:
                    it.setForeground(QBrush(GREEN_TEXT))
                elif run in worst[q]:
                    it.setForeground(QBrush(RED_TEXT))
                if q == k:
                    it.setBackground(QBrush(CHOSEN))
                t1.setItem(i, q + 1, it)
            it = _item(f"{PAPER_TABLE1[run][0]:.4f}")
            it.setForeground(QBrush(MUTED))
            t1.setItem(i, len(f.measures) + 1, it)
        t1.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        t1.resizeRowsToContents()

    # -- reading back (tests) ---------------------------------------------------------------------
    @staticmethod
    def texts(table: QTableWidget) -> list[list[str]]:
        """A table's cell texts, row by row (empty string for an empty cell)."""
        return [[table.item(r, c).text() if table.item(r, c) is not None else "" for c in range(table.columnCount())]
                for r in range(table.rowCount())]

    # -- export ---------------------------------------------------------------------------------
    def export_picture(self, path: str | Path) -> Path:
        """The current tab as ``.png`` or ``.svg``: the scatter plot through pyqtgraph's exporters,
        the other tabs as on screen. Raises ``OSError`` (nothing written), ``ValueError``."""
        page = self.tabs.currentWidget()
        if self.tabs.currentIndex() == TABS.index("Correlation"):
            if self.result is None:
                raise ValueError("nothing compared yet")
            return export_plot(self.plot, path)
        return export_widget(page, path, f"readsim: {self.tabs.tabText(self.tabs.currentIndex())}")

    def export_csv(self, kind: str, path: str | Path) -> Path:
        """Write the table ``kind`` (:data:`CSV_KINDS`) as CSV, atomically. Raises ``ValueError``
        when there is nothing to write yet, ``OSError`` when the file cannot be written."""
        from readsim.engine.atomic import write_text

        if kind not in CSV_KINDS:
            raise ValueError(f"unknown table {kind!r}")
        source = self.fidelity if kind.startswith("fidelity") else self.result
        if source is None:
            raise ValueError("the fidelity tables are not computed yet" if kind.startswith("fidelity")
                             else "nothing compared yet")
        path = Path(path)
        if path.suffix.lower() != ".csv":
            raise ValueError(f"{path}: a table is written as .csv")
        write_text(path, CSV_KINDS[kind][1](source), newline="")
        return path

    def _stem(self, what: str) -> str:
        measure = self.measure.currentText()
        return safe_name(f"runs-{what}-{measure}" if measure else f"runs-{what}")

    def ask_export_picture(self) -> None:
        tab = self.tabs.tabText(self.tabs.currentIndex()).lower()
        path, chosen = QFileDialog.getSaveFileName(self, f"Export the {tab} tab", self._stem(tab) + ".png", PICTURES)
        if path:
            if not Path(path).suffix and "*." in chosen:
                path += "." + chosen.split("*.")[1].split(")")[0]
            self._export(path, lambda p: self.export_picture(p))

    def ask_export_csv(self, kind: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, f"Export: {CSV_KINDS[kind][0]}", self._stem(kind) + ".csv",
                                              "CSV table (*.csv)")
        if path:
            if not Path(path).suffix:
                path += ".csv"
            self._export(path, lambda p: self.export_csv(kind, p))

    def _export(self, path: str, write) -> None:
        try:
            out = write(path)
        except OSError as err:  # written atomically: whatever was at path is as it was
            self.show_error(f"Cannot export to {err.filename or path}: {err.strerror or err}. Nothing was written; "
                            f"a file already there is unchanged.")
            return
        except ValueError as err:
            self.show_error(f"Cannot export to {path}: {err}")
            return
        self._say(f"Exported {out}")

    # -- geometry -------------------------------------------------------------------------------
    def _restore(self) -> None:
        geo = app_settings().value("runs_window/geometry")
        if isinstance(geo, QByteArray) and not geo.isEmpty():
            self.restoreGeometry(geo)

    def save_state(self) -> None:
        app_settings().setValue("runs_window/geometry", self.saveGeometry())

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if self._stale or (self.result is None and self._job is None):
            self._stale = False
            self._schedule()

    def hideEvent(self, event) -> None:  # noqa: N802
        self.save_state()
        super().hideEvent(event)

    def closeEvent(self, event) -> None:  # noqa: N802
        self.save_state()
        super().closeEvent(event)


def open_runs_window(window) -> RunsWindow:
    """Show the Runs window of ``window`` (made on first use), raised and active."""
    w = getattr(window, "runs_window", None)
    if w is None:
        w = RunsWindow(window.session, window, show_dialogs=getattr(window, "show_dialogs", True))
        window.runs_window = w
    w.show()
    w.raise_()
    w.activateWindow()
    return w
