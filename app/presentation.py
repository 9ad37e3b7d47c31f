"""View ▸ Zoom in / Zoom out / Actual size, View ▸ Presentation and View ▸ Theme: the window in a
room (docs/reference.md §9.2).

Zoom and theme are :mod:`readsim.app.appearance`'s (remembered). Presentation mode is a zoom
(:data:`~readsim.app.appearance.PRESENT_ZOOM`) plus an arrangement: every dock closed and the
ranked list's column hidden, so the article and the scores take the window; leaving it puts
back the docks, the columns and the zoom as they were. It is not remembered: a window opens
as it was left outside presentation (``readsim --present`` opens in it)."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QByteArray, QObject
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDockWidget

from . import appearance as look
from readsim.app.input_files import app_settings

PRESENT_SHORTCUT = "F5"  # as slide programs start a show
THEME_TEXT = {"system": "&System", "light": "&Light", "dark": "&Dark"}


class Presentation(QObject):
    """A window's presentation mode (:attr:`on`; :meth:`set_on` enters or leaves it)."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.act_present: QAction | None = None  # View ▸ Presentation (build_appearance)
        self.theme_actions: dict[str, QAction] = {}  # View ▸ Theme's, by theme name
        self.on = False
        self._saved: tuple | None = None  # (window state, splitter state, zoom, auto columns) before

    def set_on(self, on: bool) -> None:
        if on == self.on:
            return
        w, a = self.window, look.appearance()
        if on:
            self._saved = (w.saveState(), w.splitter.saveState(), a.zoom, w.columns.auto)
            self.on = True
            self._arrange()
            restore = w.view_restore
            if restore is not None and not restore.done:  # a view or lesson still opening: its docks too
                restore.finished.connect(self._arrange)
            a.set_zoom(look.PRESENT_ZOOM)
            w.columns.follow(True)  # the columns fit the bigger controls and scores
        else:
            state, split, zoom, auto = self._saved
            self.on = False
            a.set_zoom(zoom)
            w.splitter.widget(0).show()
            w.restoreState(state)
            w.splitter.restoreState(split)
            w.columns.follow(auto)
        self.act_present.setChecked(self.on)

    def _arrange(self) -> None:
        """Close every dock and hide the ranked list's column (presenting only)."""
        if not self.on:
            return
        w = self.window
        for dock in w.findChildren(QDockWidget):
            if dock.parentWidget() is w or dock.isFloating():
                dock.hide()
        w.splitter.widget(0).hide()

    def theme_changed(self) -> None:
        """The View ▸ Theme menu shows the theme now."""
        self.theme_actions[look.appearance().theme].setChecked(True)

    def saved_state(self) -> tuple[QByteArray, QByteArray] | None:
        """The window's and the splitter's states before presentation (None: not presenting):
        what the window saves on closing."""
        return (self._saved[0], self._saved[1]) if self.on and self._saved else None


class AppearanceParts(NamedTuple):
    """What :func:`build_appearance` gives the main window (its attributes of the same names)."""
    presentation: Presentation
    act_zoom_in: QAction
    act_zoom_out: QAction
    act_zoom_reset: QAction
    act_present: QAction
    theme_actions: dict[str, QAction]


def build_appearance(window) -> AppearanceParts:
    """The View menu's zoom, presentation and theme actions, with the window's
    :class:`Presentation` (the theme actions by theme name)."""
    view = window.view_menu
    presentation = Presentation(window)
    a = look.appearance()

    def zoom(direction: int) -> None:
        # the room's zoom (presenting) is not the user's: not remembered
        settings = None if presentation.on else app_settings()
        if direction == 0:
            a.set_zoom(1.0, settings)
        else:
            a.step_zoom(direction, settings)

    view.addSeparator()
    zoom_in = _action(window, "Zoom &in", lambda: zoom(1), ["Ctrl++", "Ctrl+="],
                      "Bigger text everywhere: menus, article, scores, plots (remembered)")
    zoom_out = _action(window, "Zoom &out", lambda: zoom(-1), ["Ctrl+-"], "Smaller text everywhere (remembered)")
    zoom_reset = _action(window, "&Actual size", lambda: zoom(0), ["Ctrl+0"], "The system's text size (remembered)")
    present = presentation.act_present = _action(
        window, "&Presentation", presentation.set_on, [PRESENT_SHORTCUT],
        "For a room or a projector: large text, the article and the scores only; again to leave, as the window was")
    present.setCheckable(True)
    for act in (zoom_in, zoom_out, zoom_reset, present):
        view.addAction(act)
    themes = view.addMenu("&Theme")
    group = QActionGroup(window)
    for name in look.THEMES:
        act = QAction(THEME_TEXT[name], window)
        act.setCheckable(True)
        act.setChecked(a.theme == name)
        act.setStatusTip({"system": "Follow the system's light or dark colour scheme",
                          "light": "Light, whatever the system's scheme",
                          "dark": "Dark, whatever the system's scheme"}[name])
        act.triggered.connect(lambda _=False, n=name: a.set_theme(n, app_settings()))
        group.addAction(act)
        themes.addAction(act)
        presentation.theme_actions[name] = act
    a.changed.connect(presentation.theme_changed)
    return AppearanceParts(presentation, zoom_in, zoom_out, zoom_reset, present, presentation.theme_actions)


def _action(window, text: str, slot, keys: list[str], tip: str) -> QAction:
    act = QAction(text, window)
    act.setShortcuts([QKeySequence(k) for k in keys])
    act.setStatusTip(tip)
    act.triggered.connect(slot)
    window.addAction(act)
    return act
