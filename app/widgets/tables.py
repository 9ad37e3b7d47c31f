"""One way to make the read-only tables of the docks and views (passages, strategies, where the
run loses, ranked elements): rows selected one at a time, not editable, alternating colours, no
row numbers, no word wrap."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel
from PySide6.QtWidgets import QAbstractItemView, QTableView


def row_table(model: QAbstractItemModel) -> QTableView:
    """A :class:`QTableView` over ``model``: whole rows selected, one at a time; not editable."""
    table = QTableView()
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    return table
