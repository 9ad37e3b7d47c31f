"""View menu entries of windows built on first use: the Runs window (``readsim-eval compare`` and
``fidelity`` in the window) and the element mode (INEX 2002/2003). Their modules, and what they
import (scipy.stats, the element metrics), load when the entry is first chosen, so opening the
main window does not pay for them.

This module imports the windows (when an entry is chosen); they never import it: the entries'
names live in :mod:`.entries`. See docs/architecture.md."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence

from .entries import ELEMENTS_SHORTCUT, ELEMENTS_TEXT, RUNS_SHORTCUT, RUNS_TEXT

__all__ = ["ELEMENTS_SHORTCUT", "ELEMENTS_TEXT", "RUNS_SHORTCUT", "RUNS_TEXT", "build_elements_action",
           "build_runs_action", "new_elements_dock", "new_runs_window"]


def build_runs_action(window) -> QAction:
    """View ▸ "Compare all runs" (Ctrl+Alt+R), which calls ``window.open_runs_window()`` (the
    window's ``act_runs``)."""
    act = QAction(RUNS_TEXT, window)
    act.setShortcut(QKeySequence(RUNS_SHORTCUT))
    act.setStatusTip("Every loaded run under several measures: significance of each pair, correlation of the "
                     "measures, fidelity tables")
    act.triggered.connect(lambda: window.open_runs_window())
    window.addAction(act)
    window.view_menu.addAction(act)
    return act


def new_runs_window(window):
    """The Runs window of the main window ``window`` (:class:`~readsim.app.widgets.runs_window.RunsWindow`,
    its module imported now), a topic double-clicked in it shown by ``window``. The window keeps it
    as ``runs_window`` (:meth:`~readsim.app.mainwindow.MainWindow.open_runs_window`)."""
    from .runs_window import RunsWindow, show_topic

    w = RunsWindow(window.session, window, show_dialogs=window.show_dialogs)
    w.topic_chosen.connect(lambda topic: show_topic(window, topic))
    return w


def build_elements_action(window) -> QAction:
    """View ▸ "Element retrieval (INEX 2002/2003)" (Ctrl+Alt+L), a checkable entry that calls
    ``window.show_elements(on)``: the element mode's dock, built on first use (the window's
    ``act_elements``)."""
    act = QAction(ELEMENTS_TEXT, window)
    act.setCheckable(True)
    act.setShortcut(QKeySequence(ELEMENTS_SHORTCUT))
    act.setStatusTip("Element retrieval as INEX 2002-2005 evaluated it: ranked elements, nesting and overlap, "
                     "the INEX 2002 and 2003 metrics (perfect and ancestors runs)")
    act.toggled.connect(lambda on: window.show_elements(on))
    window.addAction(act)
    window.view_menu.addAction(act)
    return act


def new_elements_dock(window, act: QAction):
    """The element mode's panel and dock for ``window`` (its module imported now), hidden;
    ``act`` follows the dock's visibility (:func:`readsim.app.widgets.elements_view.build_elements_dock`).
    The window keeps them as ``elements`` and ``elements_dock``."""
    from .elements_view import build_elements_dock

    return build_elements_dock(window, act)
