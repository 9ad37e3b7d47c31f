"""The exports of the Runs window (its Export button and File ▸ Export): the current tab as PNG
or SVG, each table as CSV or JSON with its provenance (:mod:`readsim.app.runs_model`'s tables
through :func:`readsim.app.provenance.write_table`: the files, every compared run's source, an
edited run as ``edited from FILE, N edits``, the options and the paired topics), through the one
export path of the app (:func:`readsim.app.export.export_with_dialog`: atomic writes, errors
naming the path). See docs/architecture.md."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from ... import runs_model as rm
from ...export import PICTURES, TABLES, export_plot, export_widget, export_with_dialog, run_source, safe_name

CSV_KINDS = {
    "runs": ("Runs and their means", rm.runs_table),
    "pairs": ("Significance of every pair", rm.pairs_table),
    "correlations": ("Correlations between measures", rm.correlations_table),
    "topics": ("Per-topic values and differences", rm.topics_table),
    "fidelity1": ("Fidelity Table 1 (means of the simulated runs)", rm.fidelity_table1),
    "fidelity2": ("Fidelity Table 2 (expected orderings)", rm.fidelity_table2),
}
TABS = ("Runs", "Significance", "Correlation", "Fidelity", "Topics")


def run_sources(window, runs) -> list[str]:
    """Each run's source as the exports name it (:func:`readsim.app.export.run_source` of the
    main window ``window``, the Runs window's parent): its file, or ``edited from FILE, N edits``
    when the passage editor changed it."""
    return [run_source(window, run) or str(run.path) for run in runs]


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
            a = QAction(f"{text} as CSV/JSON…", window)
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
        for kind in ("runs", "pairs", "correlations", "topics"):
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
        """Write the table ``kind`` (:data:`CSV_KINDS`) as ``.csv`` or ``.json`` with its
        provenance (:meth:`provenance`), atomically. Raises ``ValueError`` when there is nothing
        to write yet or for another suffix, ``OSError`` when the file cannot be written."""
        from ...provenance import write_table

        if kind not in CSV_KINDS:
            raise ValueError(f"unknown table {kind!r}")
        source = self.window.fidelity if kind.startswith("fidelity") else self.window.result
        if source is None:
            raise ValueError("the fidelity tables are not computed yet" if kind.startswith("fidelity")
                             else "nothing compared yet")
        table = CSV_KINDS[kind][1](source)
        return write_table(path, table.columns, table.rows, self.provenance(kind))

    def provenance(self, kind: str) -> dict:
        """What table ``kind``'s numbers come from: the readsim version, the table, the files
        (qrels, collection, and per compared run its label and source: ``edited from FILE, N
        edits`` for an edited run, as evaluated when compared), the options, the paired topics
        (and those left out) or, for the fidelity tables, the complete topics."""
        from readsim import __version__

        w = self.window
        s = w.session
        prov: dict = {"readsim": __version__, "table": CSV_KINDS[kind][0],
                      "files": {"qrels": getattr(s.qrels, "path", None),
                                "collection": str(s.collection.root) if s.collection is not None else None}}
        if kind.startswith("fidelity"):
            f = w.fidelity
            prov["settings"] = {"measures": list(f.measures)}
            prov["topics"] = {"complete": len(f.topics)}
            return prov
        r = w.result
        sources = r.sources or r.paths
        prov["files"]["runs"] = [f"{label}: {source}" for label, source in zip(r.labels, sources)]
        prov["edited_runs"] = list(rm.edited_runs(r)) or "none"
        o = r.options
        prov["settings"] = {"measures": list(o.measures), "test": o.test, "alpha": o.alpha, "resamples": o.resamples,
                            "seed": o.seed, "correction": o.correction, "mode": o.mode, "levels": o.levels,
                            "every_judged_topic": o.complete, "condensed": o.condensed,
                            "baseline_as_documents": o.baseline}
        c = r.comparison
        prov["topics"] = {"paired": len(c.topics), "left_out": list(c.left_out) or "none"}
        return prov

    def _stem(self, what: str) -> str:
        measure = self.window.measure.currentText()
        return safe_name(f"runs-{what}-{measure}" if measure else f"runs-{what}")

    def ask_export_picture(self) -> None:
        tab = self.window.tabs.tabText(self.window.tabs.currentIndex()).lower()
        export_with_dialog(self.window, f"Export the {tab} tab", PICTURES, self._stem(tab) + ".png",
                           self.export_picture, self.window.show_error, self.window._say)

    def ask_export_csv(self, kind: str) -> None:
        export_with_dialog(self.window, f"Export: {CSV_KINDS[kind][0]}", TABLES, self._stem(kind) + ".csv",
                           lambda p: self.export_csv(kind, p), self.window.show_error, self.window._say)
