"""The shared parts of the docks' tables (passages, strategies, where the run loses, ranked
elements): :func:`row_table`, one way to make their read-only table views; :class:`FollowingPanel`,
a dock's panel whose rows follow the session's open article and settings, rebuilt only while
shown; :func:`select_quietly`; and :func:`build_bottom_dock`, one way to build such a panel's
bottom dock with its View menu entry (a :class:`BottomDock` the main window keeps). The tables
copy themselves as LaTeX or Markdown (:mod:`.table_copy`). See
docs/architecture.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from PySide6.QtCore import QAbstractItemModel, QItemSelectionModel, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QTableView, QWidget

from .table_copy import add_copy_actions


def row_table(model: QAbstractItemModel) -> QTableView:
    """A :class:`QTableView` over ``model``: whole rows selected, one at a time; not editable;
    alternating colours, no row numbers, no word wrap; the context menu's Copy as LaTeX and Copy
    as Markdown of the whole table (:mod:`.table_copy`)."""
    table = QTableView()
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    add_copy_actions(table)
    return table


class WholeRows(QWidget):
    """Holds ``table`` (a ``QTableView`` of rows of one height) at the height of whole rows: when
    its rows do not all fit, the table is cut to the rows that fit whole (the pixels left over stay
    blank below it), so no row is cut at the bottom and, the table scrolling by rows, the last
    row shows whole once scrolled to."""

    def __init__(self, table: QTableView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = table
        table.setParent(self)
        model = table.model()
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved, model.layoutChanged):
            signal.connect(self._fit)
        table.horizontalScrollBar().rangeChanged.connect(self._fit)
        table.verticalHeader().sectionResized.connect(self._fit)

    def sizeHint(self):
        return self.table.sizeHint()

    def minimumSizeHint(self):
        return self.table.minimumSizeHint()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self, *_args) -> None:
        t, height = self.table, self.height()
        header = t.horizontalHeader()
        chrome = 2 * t.frameWidth() + (0 if header.isHidden() else header.sizeHint().height())
        bar = t.horizontalScrollBar()
        if bar.maximum() > 0:  # shown (the policy is "as needed")
            chrome += bar.sizeHint().height()
        row = t.verticalHeader().defaultSectionSize()
        rows = t.model().rowCount()
        room = height - chrome
        if row > 0 and rows * row > room >= row:
            height = chrome + room // row * row
        t.setGeometry(0, 0, self.width(), height)


def select_quietly(table: QTableView, row: int) -> None:
    """Select ``row`` of ``table`` without emitting the selection model's signals (a refresh
    keeping the user's selection, not a new choice)."""
    sm = table.selectionModel()
    sm.blockSignals(True)
    sm.select(table.model().index(row, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect
              | QItemSelectionModel.SelectionFlag.Rows)
    sm.blockSignals(False)


class FollowingPanel(QWidget):
    """A panel over a :class:`~readsim.app.session.Session` whose rows follow the open article,
    the reading mode and the screen size. Subclasses make :attr:`table` (a ``QTableView``), call
    :meth:`follow` at the end of their ``__init__`` and implement :meth:`rebuild`; :meth:`refresh`
    rebuilds at once when shown, else when next shown. :attr:`_rendered` holds the settings of the
    rows shown."""

    table: QTableView

    def __init__(self, session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self._dirty = True
        self._rendered = None

    def follow(self) -> None:
        s = self.session
        s.article_changed.connect(self._article_changed)
        s.evaluation_changed.connect(self._evaluation_changed)
        s.settings_changed.connect(lambda _: self.refresh())
        self.refresh()

    def _article_changed(self) -> None:
        self.table.clearSelection()
        self.refresh()

    def _evaluation_changed(self) -> None:
        if self._rendered is not None and self._rendered.mode is not self.session.settings.mode:
            return  # a mode change: settings_changed follows and refreshes once
        self.refresh()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._dirty:
            self.refresh()

    def refresh(self) -> None:
        """Rebuild the rows now when shown, else when next shown."""
        if not self.isVisible():
            self._dirty = True
            return
        self._dirty = False
        self.rebuild()

    def rebuild(self) -> None:
        raise NotImplementedError


class BottomDock(NamedTuple):
    """A bottom dock's parts, as :func:`build_bottom_dock` returns them and the main window keeps
    them (``window.strategies, window.strategies_dock, window.act_strategies = ...``)."""
    panel: QWidget
    dock: QDockWidget
    action: QAction


def build_bottom_dock(window, panel: QWidget, name: str, title: str, shortcut: str, tip: str,
                      first: Callable[[QDockWidget], object]) -> BottomDock:
    """``panel`` as the bottom dock ``name`` (its object name) of ``window`` titled ``title``,
    hidden at first, with a checkable entry in ``window.view_menu`` (``shortcut``, status tip
    ``tip``). When shown it is tabbed with another bottom dock (the least by ``first``) unless
    floating or tabbed already, and raised. Returns the panel, the dock and its entry."""
    dock = QDockWidget(title, window)
    dock.setObjectName(name)
    dock.setWidget(panel)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    dock.hide()
    act = dock.toggleViewAction()
    act.setText(title)
    act.setShortcut(QKeySequence(shortcut))
    act.setStatusTip(tip)
    act.toggled.connect(lambda on: _place(window, dock, first) if on else None)
    window.addAction(act)
    window.view_menu.addAction(act)
    return BottomDock(panel, dock, act)


def _place(window, dock: QDockWidget, first: Callable[[QDockWidget], object]) -> None:
    if not dock.isFloating() and not window.tabifiedDockWidgets(dock) \
            and window.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea:
        bottom = [d for d in window.findChildren(QDockWidget) if d is not dock and not d.isFloating()
                  and window.dockWidgetArea(d) == Qt.DockWidgetArea.BottomDockWidgetArea]
        if bottom:
            window.tabifyDockWidget(sorted(bottom, key=first)[0], dock)
    dock.show()
    dock.raise_()
