"""Copy as LaTeX and Copy as Markdown of the window's tables (reference 12.4;
readsim.app.widgets.table_copy): the context menu's actions put the selection (or the whole table)
on the clipboard, escaped, bold cells bold; on the Runs window over two real runs the copied
numbers are the ones the table shows."""

from __future__ import annotations

import shutil

from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication

from helpers.latex import compile_tables
from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Loaded, Session
from readsim.app.widgets.runs.cells import LEFT, Cell, CellsModel, CellsTable, font_of
from readsim.app.widgets.table_copy import COPY_ACTIONS, shown_table
from readsim.app.widgets.tables import row_table
from readsim.core.collection import Collection
from readsim.core.formats import read_run


class Hand(CellsModel):
    def set_rows(self) -> None:
        self._set([[Cell("my_run", align=LEFT), Cell("0.5000", font=font_of(bold=True)), Cell("≫")],
                   [Cell("b%&#", align=LEFT), Cell("0.2500"), Cell("n.s.")]],
                  [Cell("run"), Cell("AgP/\nF(0.25)"), Cell("vs next")])


def trigger(view, fmt: str) -> str:
    action = next(a for a in view.actions() if a.text() == COPY_ACTIONS[fmt])
    assert view.contextMenuPolicy() == Qt.ContextMenuPolicy.ActionsContextMenu
    QGuiApplication.clipboard().clear()
    action.trigger()
    return QGuiApplication.clipboard().text()


def test_a_cells_table_copies_the_whole_table_or_the_selection(qtbot):
    model = Hand()
    model.set_rows()
    table = CellsTable(model)
    qtbot.addWidget(table)
    assert [a.text() for a in table.actions()] == ["Copy as LaTeX", "Copy as Markdown"]
    assert trigger(table, "latex") == "\n".join([
        r"\begin{tabular}{lrl}", r"\toprule", r"run & AgP/F(0.25) & vs next \\", r"\midrule",
        r"my\_run & \textbf{0.5000} & $\gg$ \\", r"b\%\&\# & 0.2500 & n.s. \\", r"\bottomrule", r"\end{tabular}", ""])
    # two cells of the second column selected: that column's rows only
    sm = table.selectionModel()
    sm.select(QItemSelection(model.index(0, 1), model.index(1, 1)), QItemSelectionModel.SelectionFlag.Select)
    assert trigger(table, "markdown") == "| AgP/F(0.25) |\n| ---: |\n| **0.5000** |\n| 0.2500 |\n"
    # one cell is not a selection worth a table: the whole table
    sm.select(model.index(0, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect)
    assert trigger(table, "markdown").splitlines()[0] == "| run | AgP/F(0.25) | vs next |"


def test_a_dock_table_copies_the_whole_table_though_a_row_is_selected(qtbot):
    model = QStandardItemModel(2, 2)
    model.setHorizontalHeaderLabels(["passage", "precision"])
    for r, (name, value) in enumerate([("retrieved 1", "0.96"), ("relevant_2 | x", "n/a")]):
        model.setItem(r, 0, QStandardItem(name))
        model.setItem(r, 1, QStandardItem(value))
    table = row_table(model)
    qtbot.addWidget(table)
    table.selectRow(1)
    assert trigger(table, "markdown") == ("| passage | precision |\n| --- | ---: |\n| retrieved 1 | 0.96 |\n"
                                          "| relevant\\_2 \\| x | n/a |\n")
    table.setColumnHidden(1, True)
    assert shown_table(table).header == ["passage"]


def test_the_runs_windows_table_on_two_real_runs(qtbot, real, inex, tmp_path):
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()
    runs = [real["run"], read_run(inex / "runs" / "indri-passages.run")]  # TREC2INEX, indri-passages
    session.adopt(Loaded(collection=Collection(real["collection"]), qrels=real["qrels"], runs=runs,
                         topics=real["topics"]), "2009074", "23724")
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=30_000)
    window.act_runs.trigger()  # View ▸ Compare all runs
    w = window.runs_window
    try:
        w.set_options(resamples=200)
        w.compare_button.click()
        qtbot.waitUntil(lambda: not w.busy() and activity().count == 0, timeout=120_000)
        c = w.result.comparison
        shown = w.texts(w.runs_table)
        heads = [w.runs_table.horizontalHeaderItem(j).text().replace("\n", "") for j in range(len(shown[0]))]
        w.runs_table.clearSelection()
        text = trigger(w.runs_table, "markdown")
        lines = text.splitlines()
        assert len(lines) == 2 + len(shown)
        cells = [line[2:-2].split(" | ") for line in lines[2:]]
        best = int(c.order[0][0])
        for row, copied in zip(shown, cells):
            for j, (was, now) in enumerate(zip(row, copied)):
                now = now.removeprefix("**").removesuffix("**").replace("\\_", "_")
                assert now == was, (heads[j], was, now)
        # the best run's AgP mean is bold (as the window draws it) and has the engine's digits
        assert f"**{c.means[0, best]:.4f}**" in lines[2]
        assert c.runs[best] in lines[2]
        latex = trigger(w.runs_table, "latex")
        assert f"\\textbf{{{c.means[0, best]:.4f}}}" in latex and latex.count("\\\\") == 1 + len(shown)
        assert "AgP/F(0.25)" in lines[0] and "\u25bc" not in text  # the header's sort mark is not copied
        engine = shutil.which("pdflatex") or shutil.which("lualatex")  # absent: tests/test_latex_compile.py says so
        if engine:
            compile_tables(engine, tmp_path, [latex])  # the window's marks (≫) escaped
    finally:
        w.close()
        QApplication.processEvents()


def test_the_ranked_list_copies_as_shown(real_window):
    # topic 2009074 of bert-passages.run: rank 10 is PageRank (23724), relevant, F(0.25) 0.1705 (the README)
    window = real_window("23724")
    table = window.table
    shown = [c for c in range(table.model().columnCount()) if not table.isColumnHidden(c)]
    text = trigger(table, "markdown")  # a row is selected (the open article): the whole list
    lines = text.splitlines()
    assert len(lines) == 2 + table.model().rowCount()
    assert lines[0] == "| " + " | ".join(table.model().headerData(c, Qt.Orientation.Horizontal) for c in shown) + " |"
    assert lines[0].startswith("| Rank | Title | Rel. | aveChP |")
    # relevant: bold, as drawn; aveChP, T2IF(300), LE(300), F(0.25) as the README's picture shows them
    assert lines[2 + 9] == "| 10 | PageRank | **yes** | 0.4841 | 0.4145 | 1 | 0.1705 |"
    assert lines[1] == "| ---: | --- | --- | ---: | ---: | ---: | ---: |"
