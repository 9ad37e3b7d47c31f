"""View menu entries of windows built on first use: the Runs window (``readsim-eval compare`` and
``fidelity`` in the window) and the element mode (INEX 2002/2003). Their modules, and what they
import (scipy.stats, the element metrics), load when the entry is first chosen, so opening the
main window does not pay for them.

This module imports the windows (when an entry is chosen); they never import it: the entries'
names live in :mod:`.entries`. See docs/architecture.md."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence

from .entries import ELEMENTS_SHORTCUT, ELEMENTS_TEXT, RUNS_SHORTCUT, RUNS_TEXT

__all__ = ["ELEMENTS_SHORTCUT", "ELEMENTS_TEXT", "RUNS_SHORTCUT", "RUNS_TEXT", "install_elements", "install_runs"]


def _view_menu(window):
    menu = next((a.menu() for a in window.menuBar().actions()
                 if a.text().replace("&", "") == "View" and a.menu() is not None), None)
    return menu or window.menuBar().addMenu("&View")


def install_runs(window) -> QAction:
    """View ▸ "Compare all runs" (Ctrl+Alt+R) opens the Runs window
    (:func:`readsim.app.widgets.runs_window.open_runs_window`). Sets ``window.act_runs`` and
    ``window.runs_window`` (None until first opened)."""
    window.runs_window = None
    act = QAction(RUNS_TEXT, window)
    act.setShortcut(QKeySequence(RUNS_SHORTCUT))
    act.setStatusTip("Every loaded run under several measures: significance of each pair, correlation of the "
                     "measures, fidelity tables")

    def open_runs() -> None:
        from .runs_window import open_runs_window

        open_runs_window(window)

    act.triggered.connect(open_runs)
    window.addAction(act)
    _view_menu(window).addAction(act)
    window.act_runs = act
    return act


def install_elements(window) -> QAction:
    """View ▸ "Element retrieval (INEX 2002/2003)" (Ctrl+Alt+L), a checkable entry that shows and
    hides the element mode's dock, built on first use
    (:func:`readsim.app.widgets.elements_view.build_elements_dock`). Sets ``window.act_elements``;
    ``window.elements`` (the panel) and ``window.elements_dock`` are None until then."""
    window.elements = window.elements_dock = None
    act = QAction(ELEMENTS_TEXT, window)
    act.setCheckable(True)
    act.setShortcut(QKeySequence(ELEMENTS_SHORTCUT))
    act.setStatusTip("Element retrieval as INEX 2002-2005 evaluated it: ranked elements, nesting and overlap, "
                     "the INEX 2002 and 2003 metrics (perfect and ancestors runs)")

    def toggled(on: bool) -> None:
        if window.elements_dock is None:
            if not on:
                return
            from .elements_view import build_elements_dock

            build_elements_dock(window, act)
        dock = window.elements_dock
        if dock.isVisible() != on:
            if on:
                dock.place()  # inside the screen before it shows: it never widens the main window
            dock.setVisible(on)
            if on:
                dock.raise_()  # in front of a dock it is tabbed with

    act.toggled.connect(toggled)
    window.addAction(act)
    _view_menu(window).addAction(act)
    window.act_elements = act
    return act
