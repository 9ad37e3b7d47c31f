"""The exports of the Runs window (its Export button and File ▸ Export): the current tab as PNG
or SVG, each table as CSV (:mod:`readsim.app.runs_model`), through the one export path of the
app (:func:`readsim.app.export.export_with_dialog`: atomic writes, errors naming the path). See
docs/architecture.md."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from ... import runs_model as rm
from ...export import PICTURES, export_plot, export_widget, export_with_dialog, safe_name

CSV_KINDS = {
    "runs": ("Runs and their means", rm.runs_csv),
    "pairs": ("Significance of every pair", rm.pairs_csv),
    "correlations": ("Correlations between measures", rm.correlations_csv),
    "fidelity1": ("Fidelity Table 1 (means of the simulated runs)", rm.fidelity_table1_csv),
    "fidelity2": ("Fidelity Table 2 (expected orderings)", rm.fidelity_table2_csv),
}
TABS = ("Runs", "Significance", "Correlation", "Fidelity")


class RunsExports:
    """The Export menu of ``window`` (a :class:`~readsim.app.widgets.runs_window.RunsWindow`:
    its ``tabs``, ``plot``, ``measure``, ``result``, ``fidelity``, ``show_error``, ``_say``), on
    its Export button and in its File menu. :attr:`csv_actions` maps each :data:`CSV_KINDS` to
    its entry; :meth:`enable` turns on those with something to write."""

    def __init__(self, window) -> None:
        self.window = window
        menu = self.menu = QMenu("&Export", window)
        self.act_picture = QAction("Current tab as PNG/SVG…", window)
        self.act_picture.triggered.connect(self.ask_export_picture)
        menu.addAction(self.act_picture)
        menu.addSeparator()
        self.csv_actions: dict[str, QAction] = {}
        for kind, (text, _) in CSV_KINDS.items():
            a = QAction(f"{text} as CSV…", window)
            a.triggered.connect(lambda _=False, k=kind: self.ask_export_csv(k))
            menu.addAction(a)
            self.csv_actions[kind] = a
        window.export_button.setMenu(menu)
        file_menu = window.menuBar().addMenu("&File")
        file_menu.addMenu(menu)
        file_menu.addSeparator()
        file_menu.addAction("Close", window.close)
        self.enable()

    def enable(self) -> None:
        have = self.window.result is not None
        for kind in ("runs", "pairs", "correlations"):
            self.csv_actions[kind].setEnabled(have)
        for kind in ("fidelity1", "fidelity2"):
            self.csv_actions[kind].setEnabled(self.window.fidelity is not None)

    def export_picture(self, path: str | Path) -> Path:
        """The current tab as ``.png`` or ``.svg``: the scatter plot through pyqtgraph's exporters,
        the other tabs as on screen. Raises ``OSError`` (nothing written), ``ValueError``."""
        page = self.window.tabs.currentWidget()
        if self.window.tabs.currentIndex() == TABS.index("Correlation"):
            if self.window.result is None:
                raise ValueError("nothing compared yet")
            return export_plot(self.window.plot, path)
        return export_widget(page, path, f"readsim: {self.window.tabs.tabText(self.window.tabs.currentIndex())}")

    def export_csv(self, kind: str, path: str | Path) -> Path:
        """Write the table ``kind`` (:data:`CSV_KINDS`) as CSV, atomically. Raises ``ValueError``
        when there is nothing to write yet, ``OSError`` when the file cannot be written."""
        from readsim.engine.atomic import write_text

        if kind not in CSV_KINDS:
            raise ValueError(f"unknown table {kind!r}")
        source = self.window.fidelity if kind.startswith("fidelity") else self.window.result
        if source is None:
            raise ValueError("the fidelity tables are not computed yet" if kind.startswith("fidelity")
                             else "nothing compared yet")
        path = Path(path)
        if path.suffix.lower() != ".csv":
            raise ValueError(f"{path}: a table is written as .csv")
        write_text(path, CSV_KINDS[kind][1](source), newline="")
        return path

    def _stem(self, what: str) -> str:
        measure = self.window.measure.currentText()
        return safe_name(f"runs-{what}-{measure}" if measure else f"runs-{what}")

    def ask_export_picture(self) -> None:
        tab = self.window.tabs.tabText(self.window.tabs.currentIndex()).lower()
        export_with_dialog(self.window, f"Export the {tab} tab", PICTURES, self._stem(tab) + ".png",
                           self.export_picture, self.window.show_error, self.window._say)

    def ask_export_csv(self, kind: str) -> None:
        export_with_dialog(self.window, f"Export: {CSV_KINDS[kind][0]}", "CSV table (*.csv)", self._stem(kind) + ".csv",
                           lambda p: self.export_csv(kind, p), self.window.show_error, self.window._say)
