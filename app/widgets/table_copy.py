"""Copy as LaTeX and Copy as Markdown for the window's tables (docs/reference.md section 12.4):
the selected cells of a ``QTableView`` (or the whole table) as a table for a paper, written by
:mod:`readsim.core.paper_tables` (the writer of ``readsim-eval --format latex|markdown``), put
on the clipboard. :func:`add_copy_actions` gives a table its two context-menu actions;
:func:`shown_table` reads what the view shows (its texts, its bold cells, the header's texts)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFont, QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QTableView

from readsim.core.paper_tables import Entry, PaperTable, write_table

#: the marks a header shows before the measure its table is ordered by: not copied
SORT_MARKS = "\u25bc\u25b2 "
#: the actions' texts, by format
COPY_ACTIONS = {"latex": "Copy as LaTeX", "markdown": "Copy as Markdown"}


def add_copy_actions(view: QTableView) -> list[QAction]:
    """Give ``view`` the context-menu actions Copy as LaTeX and Copy as Markdown (:func:`copy_table`);
    returns them (LaTeX first)."""
    view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    actions = []
    for fmt, title in COPY_ACTIONS.items():
        act = QAction(title, view)
        act.setStatusTip(f"{title.replace('Copy as', 'copy')}: the selected cells (or the whole table), "
                         "with the header, escaped, for a paper")
        act.triggered.connect(lambda _checked=False, f=fmt: copy_table(view, f))
        view.addAction(act)
        actions.append(act)
    return actions


def copy_table(view: QTableView, fmt: str) -> str:
    """Put :func:`shown_table` of ``view`` on the clipboard in ``fmt`` (``latex`` or ``markdown``,
    a bare ``tabular`` or pipe table: no caption); returns the text."""
    text = write_table(shown_table(view), fmt)
    QGuiApplication.clipboard().setText(text)
    return text


def shown_table(view: QTableView) -> PaperTable:
    """What ``view`` shows of its selection as a :class:`PaperTable`: the rows and the visible
    columns the selected cells span, when they are more than one cell and, in a view that selects
    whole rows, more than one row; else every row and visible column. The header's texts (a
    header broken over lines joined again, without its sort mark), the vertical header's as a first column when shown,
    bold cells bold."""
    model = view.model()
    columns = [c for c in range(model.columnCount()) if not view.isColumnHidden(c)]
    rows = list(range(model.rowCount()))
    chosen = view.selectionModel().selectedIndexes() if view.selectionModel() else []
    whole_rows = view.selectionBehavior() == QAbstractItemView.SelectionBehavior.SelectRows
    if len(chosen) > 1 and not (whole_rows and len({i.row() for i in chosen}) < 2):
        rows = sorted({i.row() for i in chosen})
        columns = [c for c in columns if c in {i.column() for i in chosen}]
    heads = not view.verticalHeader().isHidden() and any(
        isinstance(model.headerData(r, Qt.Orientation.Vertical), str) for r in rows)
    header = ([""] if heads else []) + [_one_line(model.headerData(c, Qt.Orientation.Horizontal)).lstrip(SORT_MARKS)
                                        for c in columns]
    body = []
    for r in rows:
        cells = [Entry(_one_line(model.headerData(r, Qt.Orientation.Vertical)))] if heads else []
        for c in columns:
            index = model.index(r, c)
            font = model.data(index, Qt.ItemDataRole.FontRole)
            cells.append(Entry(_one_line(model.data(index)), bold=isinstance(font, QFont) and font.bold()))
        body.append(cells)
    return PaperTable(header, body)


def _one_line(value) -> str:
    """A cell's or header's text on one line: a line broken after ``-``, ``_``, ``/`` or ``.``
    (as :func:`readsim.app.widgets.runs.cells.wrap_label` breaks names) joined without a space,
    others with one."""
    if value is None:
        return ""
    lines = str(value).split("\n")
    text = lines[0]
    for line in lines[1:]:
        text += line if text.endswith(("-", "_", "/", ".")) else " " + line
    return text
