"""How the window looks: zoom, theme and the marks' colours, as one state the widgets follow
(docs/reference.md §9.2, the window in a room).

- **Zoom** is a factor on the application font's point size, applied once with
  ``QApplication.setFont``: every widget that does not set its own size follows. What sets its
  own size in points (the article's text, the gutter's numbers, rich-text sizes, the plots' axes)
  asks :func:`pt` and follows :attr:`Appearance.changed`. Ctrl++ / Ctrl+- / Ctrl+0 step
  through :data:`ZOOMS`; the factor is remembered (``view/zoom``).
- **Theme**: ``system`` follows the platform's colour scheme (``QStyleHints.colorScheme()``,
  Qt 6.5+); ``light`` and ``dark`` are chosen explicitly and draw with Qt's Fusion style and
  this module's palettes (the offscreen platform has no system theme). Remembered
  (``view/theme``).
- **Marks** (:class:`Marks`): the article's page, text and marks in each theme, chosen so that
  relevant, both, the page, the retrieved underline and the screen frame stay apart under
  deuteranopia and protanopia, and body text keeps a WCAG contrast of at least 4.5:1 on every
  background (tests/app/test_appearance.py checks both).
- :func:`adapt` rewrites a style sheet or rich text for the current appearance: its light-theme
  colours to their dark counterparts, its ``font-size: Npt`` times the zoom. :func:`follow`
  keeps a widget's style sheet adapted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory, QWidget

from . import settings_keys as keys

ZOOMS = (0.8, 0.9, 1.0, 1.1, 1.25, 1.4, 1.6, 1.8, 2.0, 2.4)
"""The zoom factors Ctrl++ and Ctrl+- step through (1.0: the system's font size)."""
PRESENT_ZOOM = 1.4
"""Presentation mode's zoom: 11-point body text reads at about 15 points on a projector."""
THEMES = ("system", "light", "dark")
ZOOM_KEY, THEME_KEY = keys.ZOOM.name, keys.THEME.name


@dataclass(frozen=True)
class Marks:
    """The article pane's colours in one theme (hex ``#rrggbb``)."""

    page: str       # the article's background
    text: str       # body text
    relevant: str   # background: relevant, not retrieved
    both: str       # background: relevant and retrieved
    retrieved: str  # underline: retrieved (with or without relevance)
    screen: str     # the current reading screen's frame (and its faint fill)
    muted: str      # meta lines and messages
    veil: tuple[int, int, int, int]  # RGBA over text already read


LIGHT = Marks(page="#ffffff", text="#1a1a1a", relevant="#ffe680", both="#74c7a6", retrieved="#1f5fbf",
              screen="#555555", muted="#666666", veil=(246, 247, 250, 150))
DARK = Marks(page="#232629", text="#e8e8e8", relevant="#705a10", both="#20604a", retrieved="#7fb0ff",
             screen="#c8c8c8", muted="#a8a8a8", veil=(35, 38, 41, 150))

#: light-theme text colours used in style sheets and rich text, and what they become in dark
DARK_TEXT = {
    "#333": "#dddddd", "#444": "#cccccc", "#555": "#b8b8b8", "#555555": "#b8b8b8", "#666": "#b0b0b0",
    "#666666": "#b0b0b0", "#777": "#a8a8a8", "#777777": "#a8a8a8", "#888": "#a0a0a0", "#888888": "#a0a0a0",
    "#a33": "#ff8a80", "#b3261e": "#ff8a80", "#1a7f37": "#6fdc8c", "#8a4b00": "#ffb74d", "#6b5200": "#e6c35c",
    "#1f5fbf": "#7fb0ff",
}
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")
_POINTS = re.compile(r"(font-size\s*:\s*)([0-9.]+)pt")


def _light_palette() -> QPalette:
    p = QPalette(QColor("#efefef"), QColor("#efefef"))
    p.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    p.setColor(QPalette.ColorRole.AlternateBase, QColor("#f5f5f5"))
    p.setColor(QPalette.ColorRole.Text, QColor("#1a1a1a"))
    p.setColor(QPalette.ColorRole.WindowText, QColor("#1a1a1a"))
    p.setColor(QPalette.ColorRole.ButtonText, QColor("#1a1a1a"))
    p.setColor(QPalette.ColorRole.Highlight, QColor("#3874d8"))
    p.setColor(QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
    p.setColor(QPalette.ColorRole.Link, QColor("#1f5fbf"))
    p.setColor(QPalette.ColorRole.ToolTipBase, QColor("#ffffdc"))
    p.setColor(QPalette.ColorRole.ToolTipText, QColor("#1a1a1a"))
    return p


def _dark_palette() -> QPalette:
    R, G = QPalette.ColorRole, QPalette.ColorGroup
    p = QPalette()
    for role, colour in ((R.Window, "#2d3035"), (R.WindowText, "#e8e8e8"), (R.Base, DARK.page),
                         (R.AlternateBase, "#2b2e32"), (R.ToolTipBase, "#3a3d42"), (R.ToolTipText, "#e8e8e8"),
                         (R.PlaceholderText, "#9a9a9a"), (R.Text, DARK.text), (R.Button, "#383b40"),
                         (R.ButtonText, "#e8e8e8"), (R.BrightText, "#ff8a80"), (R.Light, "#4a4d52"),
                         (R.Midlight, "#404348"), (R.Mid, "#303338"), (R.Dark, "#1c1e21"), (R.Shadow, "#101112"),
                         (R.Highlight, "#3d6fb8"), (R.HighlightedText, "#ffffff"), (R.Link, "#7fb0ff"),
                         (R.LinkVisited, "#b79cff")):
        p.setColor(role, QColor(colour))
    for role in (R.WindowText, R.Text, R.ButtonText):
        p.setColor(G.Disabled, role, QColor("#7c7f84"))
    return p


class Appearance(QObject):
    """The application's zoom and theme (one per application: :func:`appearance`).
    ``changed()`` after either changes (and after :meth:`apply`)."""

    changed = Signal()

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.app = app
        self.zoom = 1.0
        self.theme = "system"
        self.base_pt = app.font().pointSizeF() if app.font().pointSizeF() > 0 else 9.0
        self._style = app.style().name() if app.style() is not None else "fusion"
        self._palette = QPalette(app.palette())
        self._styled = False  # Fusion and our palette set (an explicit theme, or a system dark the platform does not paint)
        hints = QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(self._system_changed)

    # -- state ----------------------------------------------------------------------------
    def system_dark(self) -> bool:
        hints = QGuiApplication.styleHints()
        return hasattr(hints, "colorScheme") and hints.colorScheme() == Qt.ColorScheme.Dark

    @property
    def dark(self) -> bool:
        """Whether the window draws dark: the theme chosen, or the system's."""
        return self.theme == "dark" or (self.theme == "system" and self.system_dark())

    def marks(self) -> Marks:
        return DARK if self.dark else LIGHT

    def pt(self, points: float) -> float:
        """``points`` at the current zoom."""
        return points * self.zoom

    # -- changes --------------------------------------------------------------------------
    def load(self, settings) -> None:
        """Take the remembered zoom and theme (``settings``: a QSettings) and apply them."""
        try:
            zoom = float(keys.read(settings, keys.ZOOM))
        except (TypeError, ValueError):
            zoom = 1.0
        theme = str(keys.read(settings, keys.THEME))
        self.zoom = min(max(zoom, ZOOMS[0]), ZOOMS[-1])
        self.theme = theme if theme in THEMES else "system"
        self.apply()

    def reset(self) -> None:
        """The defaults (zoom 1, the system's theme), not remembered: a picture, a test."""
        if self.zoom != 1.0 or self.theme != "system" or self._styled:
            self.zoom, self.theme = 1.0, "system"
            self.apply()

    def set_zoom(self, zoom: float, settings=None) -> None:
        """Zoom to ``zoom`` (clamped to :data:`ZOOMS`' range); remembered in ``settings`` if given."""
        zoom = round(min(max(zoom, ZOOMS[0]), ZOOMS[-1]), 3)
        if settings is not None:
            keys.write(settings, keys.ZOOM, zoom)
        if zoom != self.zoom:
            self.zoom = zoom
            self.apply()

    def step_zoom(self, direction: int, settings=None) -> None:
        """The next zoom of :data:`ZOOMS` up (``direction`` 1) or down (-1)."""
        if direction > 0:
            bigger = [z for z in ZOOMS if z > self.zoom + 1e-6]
            target = bigger[0] if bigger else ZOOMS[-1]
        else:
            smaller = [z for z in ZOOMS if z < self.zoom - 1e-6]
            target = smaller[-1] if smaller else ZOOMS[0]
        self.set_zoom(target, settings)

    def set_theme(self, theme: str, settings=None) -> None:
        if theme not in THEMES:
            raise ValueError(f"theme {theme!r}: one of {', '.join(THEMES)}")
        if settings is not None:
            keys.write(settings, keys.THEME, theme)
        if theme != self.theme:
            self.theme = theme
            self.apply()

    def _system_changed(self, *_) -> None:
        if self.theme == "system":
            self.apply()

    def apply(self) -> None:
        """Set the application's font, style and palette, pyqtgraph's colours and every existing
        plot's (:func:`readsim.app.widgets.plots.restyle_plots`), then tell ``changed``."""
        app = self.app
        font = QFont(app.font())
        font.setPointSizeF(self.base_pt * self.zoom)
        if font != app.font():
            QApplication.setFont(font)
        before = app.palette().color(QPalette.ColorRole.Window)
        explicit = self.theme != "system"
        platform_light = self._palette.color(QPalette.ColorRole.Window).lightnessF() >= 0.5
        if explicit or (self.dark and platform_light):  # ours: Fusion, and a palette of the theme
            if app.style().name().lower() != "fusion":
                app.setStyle(QStyleFactory.create("Fusion"))
            app.setPalette(_dark_palette() if self.dark else _light_palette())
            self._styled = True
        elif self._styled:  # back to the platform's own
            app.setStyle(QStyleFactory.create(self._style) or QStyleFactory.create("Fusion"))
            app.setPalette(self._palette)
            self._styled = False
        if app.palette().color(QPalette.ColorRole.Window) != before:
            for w in QApplication.allWidgets():  # a style sheet keeps the palette it was polished with
                if w.styleSheet():
                    w.setStyleSheet(w.styleSheet())
        from .widgets.fixed_labels import refit_all
        from .widgets.plots import restyle_plots

        restyle_plots()
        self.changed.emit()
        refit_all()  # after the style sheets that follow the change (their sizes in points)


_appearance: Appearance | None = None


def appearance() -> Appearance:
    """The application's :class:`Appearance` (made with the first call; a QApplication must exist)."""
    global _appearance
    app = QApplication.instance()
    if _appearance is None or _appearance.app is not app:
        _appearance = Appearance(app)
    return _appearance


def current() -> Appearance | None:
    """The appearance if one was made (else None: the defaults, zoom 1 and light)."""
    return _appearance if _appearance is not None and _appearance.app is QApplication.instance() else None


def pt(points: float) -> float:
    """``points`` at the current zoom (1 before any appearance is made)."""
    a = current()
    return points * a.zoom if a is not None else points


def marks() -> Marks:
    """The article pane's colours now."""
    a = current()
    return a.marks() if a is not None else LIGHT


def is_dark() -> bool:
    a = current()
    return a is not None and a.dark


def adapt(text: str) -> str:
    """A style sheet or rich text for the current appearance: in dark, each colour of
    :data:`DARK_TEXT` its dark counterpart; every ``font-size: Npt`` times the zoom."""
    a = current()
    if a is None:
        return text
    if a.dark:
        text = _COLOUR.sub(lambda m: DARK_TEXT.get(m.group(0).lower(), m.group(0)), text)
    if a.zoom != 1.0:
        text = _POINTS.sub(lambda m: f"{m.group(1)}{float(m.group(2)) * a.zoom:.3g}pt", text)
    return text


def colour(light: str) -> str:
    """One text colour of the light theme, as the current theme shows it."""
    return DARK_TEXT.get(light.lower(), light) if is_dark() else light


class _Follower(QObject):
    """Keeps its parent widget's style sheet adapted (:func:`follow`); deleted with the widget,
    which disconnects it."""

    def __init__(self, widget: QWidget, style: str) -> None:
        super().__init__(widget)
        self.style = style
        appearance().changed.connect(self.restyle)
        self.restyle()

    def restyle(self) -> None:
        self.parent().setStyleSheet(adapt(self.style))


def follow(widget: QWidget, style: str) -> None:
    """Set ``widget``'s style sheet to ``style`` adapted (:func:`adapt`), now and after each
    change of zoom or theme."""
    old = widget.findChild(_Follower, options=Qt.FindChildOption.FindDirectChildrenOnly)
    if old is not None:
        old.style = style
        old.restyle()
        return
    _Follower(widget, style)
