"""The options panel of the Runs window: what to compare. The runs (the session's and those
added here; untick a run to leave it out), the measures (one per line), the test, α, resamples,
seed, correction, the reading order, ``-c``, condensed lists (``--condensed``) and the baseline of the
runs as whole documents
(docs/reference.md sections 9.4 and 12.1), the Compare and Cancel buttons and the message line.
The panel holds no state of the comparison: :class:`~readsim.app.widgets.runs_window.RunsWindow`
reads :meth:`OptionsPanel.options` and listens to :attr:`OptionsPanel.changed`. See
docs/architecture.md."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QListWidget,
                               QListWidgetItem, QMenu, QPlainTextEdit, QPushButton, QSpinBox, QToolButton,
                               QVBoxLayout, QWidget)

from readsim.core.paired_statistics import CORRECTIONS, TESTS
from readsim.core.run_comparison import MAX_RESAMPLES

from ... import runs_model as rm
from ...plain import plain_label, plain_tip
from .cells import note

#: the options :meth:`OptionsPanel.set_options` takes, by kind of widget
COMBOS = ("test", "correction", "mode")
SPINS = ("alpha", "resamples", "seed")
CHECKS = ("complete", "condensed", "baseline")


class OptionsPanel(QWidget):
    """The left column of the Runs window. Signals: :attr:`changed` (an option changed),
    :attr:`ticked` ``(path, on)`` (a run ticked or unticked); its buttons (:attr:`add_button`'s
    menu entries :attr:`act_add_files`, :attr:`act_add_folder`, :attr:`remove_button`,
    :attr:`compare_button`, :attr:`cancel_button`) are wired by the window."""

    changed = Signal()
    ticked = Signal(str, bool)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setMinimumWidth(290)
        self.setMaximumWidth(420)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 4, 0)
        lay.addWidget(self._runs_box(), 1)

        box = QGroupBox("Measures (one per line)")
        ml = QVBoxLayout(box)
        self.measures_edit = QPlainTextEdit("\n".join(rm.DEFAULT_MEASURES))
        self.measures_edit.setToolTip("List measures, one per line (or separated by spaces): AgP/F(0.25), "
                                      "AgP/aveChP, AgP/T2IF(300), ANCE@600/LE(300), MAP, gP@10/T2IP(300), ...")
        self.measures_edit.setFixedHeight(self.measures_edit.fontMetrics().lineSpacing() * 5 + 14)
        self.measures_edit.textChanged.connect(self.changed)
        ml.addWidget(self.measures_edit)
        lay.addWidget(box)
        lay.addWidget(self._test_box())

        row = QHBoxLayout()
        self.compare_button = QPushButton("Compare")
        self.compare_button.setDefault(True)
        self.compare_button.setToolTip("Evaluate the ticked runs and compare them (in the background)")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        row.addWidget(self.compare_button, 1)
        row.addWidget(self.cancel_button)
        lay.addLayout(row)
        self.message = note("", "bad", rich=False)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.message)

    def _runs_box(self) -> QGroupBox:
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
        self.act_add_files = menu.addAction("Run files…")
        self.act_add_folder = menu.addAction("A folder of runs…")
        self.add_button.setMenu(menu)
        self.remove_button = QToolButton()
        self.remove_button.setText("Remove")
        self.remove_button.setToolTip("Remove the selected run added here (the window's runs stay: untick them)")
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        bl.addLayout(row)
        return box

    def _test_box(self) -> QGroupBox:
        box = QGroupBox("Test")
        form = QFormLayout(box)
        self.test = QComboBox()
        for t in TESTS:
            self.test.addItem(rm.TEST_NAMES[t], t)
        self.test.setToolTip("One-tailed test of every pair of runs, in the direction of their ranking "
                             "(bootstrap: Kamps et al. 2007's setting); randomised Tukey HSD: every pair at once "
                             "over all runs, two-sided (Carterette 2012)")
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
        self.resamples.setToolTip("Resamples of the bootstrap and randomization tests, trials of the randomised "
                                  "Tukey HSD")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip("Random seed: the same seed, the same numbers")
        self.correction = QComboBox()
        for c in CORRECTIONS:
            self.correction.addItem(rm.CORRECTION_NAMES[c], c)
        self.correction.setToolTip("Multiple-comparison correction over each measure's pairs (bh: the false "
                                   "discovery rate)")
        self.mode = QComboBox()
        for m in rm.READING_MODES:
            self.mode.addItem(m.value, m.value)
        self.mode.setToolTip("Reading order after the matching chain, for every run")
        self.complete = QCheckBox("every judged topic (-c)")
        self.complete.setToolTip("Pair over every judged topic, a topic a run lacks scoring as an empty ranking "
                                 "(else: the topics every run has)")
        self.condensed = QCheckBox("condensed lists (--condensed)")
        self.condensed.setToolTip("Remove the articles the qrels do not judge from each ranking before every list "
                                  "measure (Sakai 2007's condensed lists); the articles' scores are unchanged")
        self.baseline = QCheckBox("runs as whole documents too")
        self.baseline.setChecked(True)
        self.baseline.setToolTip("Evaluate every run once more with its articles retrieved whole: the "
                                 "“against documents” correlations (Arvola et al. 2010's doc baseline)")
        for text, w in (("Test", self.test), ("α", self.alpha), ("Resamples", self.resamples), ("Seed", self.seed),
                        ("Correction", self.correction), ("Reading", self.mode)):
            form.addRow(plain_label(text), w)
        form.addRow(self.complete)
        form.addRow(self.condensed)
        form.addRow(self.baseline)
        for name in COMBOS:
            getattr(self, name).currentIndexChanged.connect(self.changed)
        for name in SPINS:
            getattr(self, name).valueChanged.connect(self.changed)
        for name in CHECKS:
            getattr(self, name).toggled.connect(self.changed)
        return box

    # -- the runs ---------------------------------------------------------------------------
    def fill_runs(self, runs: list, session_paths: set[str], unchecked: set[str]) -> None:
        """List ``runs`` (:class:`readsim.core.formats.Run`), those not in ``session_paths``
        marked "added here" in italics, those in ``unchecked`` unticked."""
        labels = rm.run_labels(runs)
        self.run_list.blockSignals(True)
        self.run_list.clear()
        for run, label in zip(runs, labels):
            it = QListWidgetItem(label if run.path in session_paths else f"{label}  (added here)")
            it.setData(Qt.ItemDataRole.UserRole, run.path)
            it.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable)
            it.setCheckState(Qt.CheckState.Unchecked if run.path in unchecked else Qt.CheckState.Checked)
            it.setToolTip(plain_tip(f"{run.path}\nrun id {run.run_id}, {len(run.topics)} topics"))
            if run.path not in session_paths:
                f = it.font()
                f.setItalic(True)
                it.setFont(f)
            self.run_list.addItem(it)
        self.run_list.blockSignals(False)

    def selected_paths(self) -> set[str]:
        """The paths of the selected runs."""
        return {it.data(Qt.ItemDataRole.UserRole) for it in self.run_list.selectedItems()}

    def _run_ticked(self, item: QListWidgetItem) -> None:
        self.ticked.emit(item.data(Qt.ItemDataRole.UserRole), item.checkState() == Qt.CheckState.Checked)

    # -- the options -------------------------------------------------------------------------
    def options(self, levels: int) -> rm.Options:
        """The options as set (``levels``: the session's relevance levels). Raises
        :class:`readsim.core.measure.UnknownMeasure` for a measure that does not parse."""
        measures = rm.parse_measures(self.measures_edit.toPlainText())
        return rm.Options(measures=tuple(m.name for m in measures), test=self.test.currentData(),
                          alpha=round(self.alpha.value(), 6), resamples=self.resamples.value(),
                          seed=self.seed.value(), correction=self.correction.currentData(),
                          mode=self.mode.currentData(), levels=int(levels),
                          complete=self.complete.isChecked(), baseline=self.baseline.isChecked(),
                          condensed=self.condensed.isChecked())

    def set_options(self, **values) -> None:
        """Set options by name (``measures`` a list of names, ``test``, ``alpha``, ``resamples``,
        ``seed``, ``correction``, ``mode``, ``complete``, ``condensed``, ``baseline``) as a user would. Raises
        ``KeyError`` for another name."""
        for name, value in values.items():
            if name == "measures":
                self.measures_edit.setPlainText("\n".join(value))
            elif name in COMBOS:
                combo = getattr(self, name)
                combo.setCurrentIndex(combo.findData(str(value)))
            elif name in SPINS:
                getattr(self, name).setValue(value)
            elif name in CHECKS:
                getattr(self, name).setChecked(bool(value))
            else:
                raise KeyError(name)
