"""The window in a room (app/appearance.py, app/presentation.py): colour-blind safe marks, text
contrast in both themes, zoom (fonts of the widgets, the article and the plots; remembered),
presentation mode (docks closed and restored), the dark theme (palette, plots), and
``--present --screenshot``.

Colour-vision deficiency is simulated with the matrices of Machado, Oliveira & Fernandes, "A
physiologically-based model for simulation of color vision deficiency", IEEE TVCG 15(6), 2009
(severity 1.0: full protanopia and deuteranopia), applied to linear sRGB. Differences are
CIEDE2000 in CIELAB (D65), implemented after Sharma, Wu & Dalal, "The CIEDE2000 color-difference
formula: implementation notes, supplementary test data, and mathematical observations", Color
Research & Application 30(1), 2005 (checked on two of their test pairs below).

Threshold: DELTA_E_MIN = 15. A CIEDE2000 difference of about 1 is just noticeable side by side
and 2-5 is clearly visible side by side; the marks are not side by side but must be *named* at
a glance (is this paragraph relevant only, or relevant and retrieved?), in small areas behind
text, often on a washed-out projector. We ask three times the upper end of "clearly visible",
for every pair that must be told apart, in both themes, for normal vision and both dichromacies.
The old palette failed it: yellow #ffe680 against green #a8e6a1 is 7.7 under protanopia.

Contrast: WCAG 2.x contrast ratio (relative luminance), at least 4.5:1 for body text (success
criterion 1.4.3) on the page and on every mark background, in both themes."""

from __future__ import annotations


import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QDockWidget

from readsim.app import appearance as look
from readsim.app.input_files import app_settings
from readsim.app.main import main
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session
from readsim.app.widgets import plots

DELTA_E_MIN = 15.0
CONTRAST_MIN = 4.5

MACHADO = {  # severity 1.0, linear RGB (Machado et al. 2009, Table / supplementary matrices)
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
}


def srgb(hex_: str) -> np.ndarray:
    h = hex_.lstrip("#")
    return np.array([int(h[i:i + 2], 16) for i in (0, 2, 4)]) / 255.0


def linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def gamma(c: np.ndarray) -> np.ndarray:
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(c: np.ndarray, kind: str | None) -> np.ndarray:
    return c if kind is None else gamma(MACHADO[kind] @ linear(c))


def lab(c: np.ndarray) -> np.ndarray:
    m = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = m @ linear(c) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> float:
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    cbar = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p, h2p = np.degrees(np.arctan2(b1, a1p)) % 360, np.degrees(np.arctan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p + 180) % 360 - 180
    dhh = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh) / 2)
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * np.cos(np.radians(hbar - 30)) + 0.24 * np.cos(np.radians(2 * hbar))
         + 0.32 * np.cos(np.radians(3 * hbar + 6)) - 0.20 * np.cos(np.radians(4 * hbar - 63)))
    rc = 2 * np.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7))
    rt = -np.sin(np.radians(60 * np.exp(-((hbar - 275) / 25) ** 2))) * rc
    sl = 1 + 0.015 * (lbar - 50) ** 2 / np.sqrt(20 + (lbar - 50) ** 2)
    sc, sh = 1 + 0.045 * cbarp, 1 + 0.015 * cbarp * t
    return float(np.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh)))


def contrast(fg: str, bg: str) -> float:
    def lum(c):
        r, g, b = linear(srgb(c))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_ciede2000_matches_sharmas_test_data():
    assert ciede2000(np.array([50, 2.6772, -79.7751]), np.array([50, 0, -82.7485])) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000(np.array([50, 2.5, 0]), np.array([73, 25, -18])) == pytest.approx(27.1492, abs=1e-4)


#: every pair a reader must tell apart: the backgrounds among themselves and from the page, the
#: underline and the screen frame against every background they are drawn on, and each other
PAIRS = [("page", "relevant"), ("page", "both"), ("relevant", "both"),
         *((line, bg) for line in ("retrieved", "screen") for bg in ("page", "relevant", "both")),
         ("retrieved", "screen")]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("vision", [None, "protanopia", "deuteranopia"])
def test_marks_stay_apart_under_colour_blindness(theme, vision):
    marks = look.LIGHT if theme == "light" else look.DARK
    close = []
    for a, b in PAIRS:
        d = ciede2000(lab(simulate(srgb(getattr(marks, a)), vision)), lab(simulate(srgb(getattr(marks, b)), vision)))
        if d < DELTA_E_MIN:
            close.append(f"{a} {getattr(marks, a)} vs {b} {getattr(marks, b)}: dE00 {d:.1f}")
    assert not close, f"{theme}, {vision or 'normal vision'}: " + "; ".join(close)


def test_the_old_yellow_and_green_were_too_close():
    d = ciede2000(lab(simulate(srgb("#ffe680"), "protanopia")), lab(simulate(srgb("#a8e6a1"), "protanopia")))
    assert d < DELTA_E_MIN  # why the palette changed (this test documents it)


@pytest.mark.parametrize("marks", [look.LIGHT, look.DARK], ids=["light", "dark"])
def test_body_text_keeps_contrast_on_every_background(marks):
    for bg in (marks.page, marks.relevant, marks.both):
        assert contrast(marks.text, bg) >= CONTRAST_MIN, (marks.text, bg)
    assert contrast(marks.muted, marks.page) >= CONTRAST_MIN  # meta lines, messages


def test_rich_text_colours_are_readable_in_dark():
    """Every text role of the labels' style sheets and rich text, as the dark theme shows it
    (:func:`readsim.app.appearance.adapt`), on the dark window and base (every background:
    tests/app/test_colours.py)."""
    pal = look._dark_palette()
    for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base):
        bg = pal.color(role).name()
        for name in look.TEXT_ROLES:
            light, dark = look.ROLES[name]
            assert look.DARK_TEXT.get(light, light) == dark
            assert contrast(dark, bg) >= CONTRAST_MIN, (name, dark, bg)


def test_article_view_paints_the_themes_marks():
    from readsim.app.widgets.article_view import BOTH, RELEVANT

    assert RELEVANT.name() == look.LIGHT.relevant and BOTH.name() == look.LIGHT.both


# -- the window ------------------------------------------------------------------------------
@pytest.fixture
def window(qtbot):
    w = MainWindow(Session(), show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    yield w
    look.appearance().reset()


def test_shortcuts_do_not_collide(window):
    seen: dict[str, str] = {}
    for act in window.findChildren(type(window.act_present)):
        for key in act.shortcuts():
            text = key.toString()
            assert text not in seen or seen[text] == act.text(), f"{text}: {seen.get(text)} and {act.text()}"
            seen[text] = act.text()
    for key in ("Ctrl++", "Ctrl+-", "Ctrl+0", "F5"):
        assert key in seen


def test_zoom_scales_every_font_and_is_remembered(window, qtbot):
    app = QApplication.instance()
    base = app.font().pointSizeF()
    spacing = window.article.view.line_spacing()
    plot = window.plot.plot  # built now
    window.act_zoom_in.trigger()
    window.act_zoom_in.trigger()
    assert look.appearance().zoom == pytest.approx(1.25)
    assert app.font().pointSizeF() == pytest.approx(base * 1.25)
    qtbot.waitUntil(lambda: window.table.font().pointSizeF() == pytest.approx(base * 1.25), timeout=5000)
    assert window.article.view.line_spacing() > spacing * 1.15
    tick = plot.getPlotItem().getAxis("bottom").style["tickFont"]
    assert tick.pointSizeF() == pytest.approx(base * 1.25)
    assert float(app_settings().value(look.ZOOM_KEY)) == pytest.approx(1.25)
    # a new session: the remembered zoom
    look.appearance().reset()
    assert app.font().pointSizeF() == pytest.approx(base)
    again = MainWindow(Session(), show_dialogs=False, restore=True)
    qtbot.addWidget(again)
    assert look.appearance().zoom == pytest.approx(1.25)
    assert app.font().pointSizeF() == pytest.approx(base * 1.25)
    again.act_zoom_reset.trigger()
    assert app.font().pointSizeF() == pytest.approx(base)
    assert float(app_settings().value(look.ZOOM_KEY)) == pytest.approx(1.0)


def test_presentation_closes_the_docks_and_restores_them(window, qtbot):
    window.show_log()
    open_before = {d.objectName() for d in window.findChildren(QDockWidget) if d.isVisible()}
    assert "log" in open_before
    window.act_present.trigger()
    assert window.presentation.on and window.act_present.isChecked()
    assert not any(d.isVisible() for d in window.findChildren(QDockWidget))
    assert not window.splitter.widget(0).isVisible()  # the ranked list's column
    assert look.appearance().zoom == pytest.approx(look.PRESENT_ZOOM)
    assert app_settings().value(look.ZOOM_KEY) is None  # the room's zoom is not remembered
    window.act_present.trigger()
    assert not window.presentation.on
    assert look.appearance().zoom == pytest.approx(1.0)
    qtbot.waitUntil(lambda: {d.objectName() for d in window.findChildren(QDockWidget) if d.isVisible()} == open_before,
                    timeout=5000)
    assert window.splitter.widget(0).isVisible()


def test_dark_theme_sets_the_palette_and_the_plots(window):
    plot = window.plot.plot  # built before the change: restyled
    window.theme_actions["dark"].trigger()
    app = QApplication.instance()
    assert app.style().name().lower() == "fusion"
    assert app.palette().color(QPalette.ColorRole.Window).lightnessF() < 0.3
    assert app.palette().color(QPalette.ColorRole.Base).name() == look.DARK.page
    assert plot.backgroundBrush().color().name() == QColor(plots.DARK_PLOT[0]).name()
    axis = plot.getPlotItem().getAxis("left")
    assert axis.textPen().color().lightnessF() > 0.7
    assert app_settings().value(look.THEME_KEY) == "dark"
    assert window.theme_actions["dark"].isChecked()
    window.theme_actions["light"].trigger()
    assert app.palette().color(QPalette.ColorRole.Window).lightnessF() > 0.8
    assert plot.backgroundBrush().color().name() == "#ffffff"
    assert axis.textPen().color().lightnessF() < 0.4


def test_present_screenshot_is_a_slide_of_the_size_asked(tmp_path, capsys):
    out = tmp_path / "slide.png"
    assert main(["--sample", "--present", "--screenshot", str(out), "--size", "1280x720"]) == 0, capsys.readouterr().err
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1280, 720)
    assert look.appearance().zoom == 1.0  # the picture's zoom ended with it
