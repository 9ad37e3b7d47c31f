"""Every colour of the window comes from app/appearance.py (its ROLES, TINTS, the marks, the
figure's paper), and each is readable in both themes.

- Source: no colour literal (``#rgb``/``#rrggbb``, a named ``QColor("white")``, ``QColor(r, g, b)``,
  a pen or brush of a literal) anywhere in app/ outside appearance.py, except the lines of
  :data:`ALLOWED` (each justified).
- Contrast (WCAG 2.x ratio): text roles >= 4.5:1 on the window's, the tables' and every panel
  background in both themes; inactive text >= 3:1; plot lines and shapes >= 3:1 on the plot's
  background; text on the tinted cells at their deepest.
- Round trip: a text built in one theme is turned into the other (light and dark values each
  unique), and the widgets, item models and plots follow a change of theme."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette

from readsim.app import appearance as look

APP = Path(look.__file__).parent
LITERAL = re.compile(r"""(?<![&\w])#[0-9a-fA-F]{6}\b|(?<![&\w])#[0-9a-fA-F]{3}\b|QColor\(\s*["'][a-z]"""
                     r"""|QColor\(\s*\d|mk(Pen|Brush|Color)\(\s*(["']|\d)|GlobalColor\.(?!transparent)""")
#: (file, text on the line): literals that are no colour, or one justified here
ALLOWED = {
    ("export.py", "pyqtgraph issue #3495"),  # an issue number
}


def _literals() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(APP.rglob("*.py")):
        if path.name == "appearance.py":
            continue
        rel = str(path.relative_to(APP))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if LITERAL.search(line) and not any(f == rel and text in line for f, text in ALLOWED):
                found.append((rel, n, line.strip()))
    return found


def test_every_colour_literal_lives_in_appearance():
    assert _literals() == []


def test_the_pattern_finds_colour_literals():
    for line in ('x = QColor("#1f5fbf")', "QColor('white')", "QColor(95, 100, 120)", 'pg.mkPen("#333")',
                 "pg.mkBrush(255, 255, 255, 235)", "style = 'color:#a33'", "Qt.GlobalColor.red"):
        assert LITERAL.search(line), line
    for line in ("&#9473; gP[r]", "issue #3495", "look.color('muted')", "Qt.GlobalColor.transparent"):
        assert not LITERAL.search(line), line


def lum(c: str | QColor) -> float:
    q = QColor(c)
    v = [x / 255 for x in (q.red(), q.green(), q.blue())]
    v = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in v]
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]


def contrast(a, b) -> float:
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def over(c: QColor, bg: str) -> QColor:
    """``c`` (with its alpha) composited over ``bg``."""
    b, a = QColor(bg), c.alphaF()
    return QColor(*(round(a * x + (1 - a) * y) for x, y in ((c.red(), b.red()), (c.green(), b.green()),
                                                             (c.blue(), b.blue()))))


def backgrounds(dark: bool) -> list[str]:
    pal = look._dark_palette() if dark else look._light_palette()
    out = [pal.color(r).name() for r in (QPalette.ColorRole.Window, QPalette.ColorRole.Base,
                                         QPalette.ColorRole.AlternateBase)]
    return out + [look.ROLES[r][dark] for r in look.TEXT_BACKGROUNDS]


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_text_roles_keep_contrast_on_every_background(dark):
    for bg in backgrounds(dark):
        for role in look.TEXT_ROLES:
            assert contrast(look.ROLES[role][dark], bg) >= 4.5, (role, bg)
        for role in look.INACTIVE_ROLES:
            assert contrast(look.ROLES[role][dark], bg) >= 3.0, (role, bg)
    for bg_role in ("better_bg", "good_bg", "bad_bg", "relevant_bg"):  # cells with the body text on them
        assert contrast(look.ROLES["text"][dark], look.ROLES[bg_role][dark]) >= 4.5, bg_role
    assert contrast(look.ROLES["on_accent"][dark], look.ROLES["badge"][dark]) >= 4.5
    assert contrast(look.ROLES["on_accent"][dark], look.ROLES["heat"][dark]) >= 4.5 or dark  # light: white on green


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_plot_lines_keep_contrast_on_the_plot(dark):
    bg, fg = look.PLOT[dark]
    assert contrast(fg, bg) >= 4.5  # axes and tick labels
    for role in look.GRAPHIC_ROLES:
        assert contrast(look.ROLES[role][dark], bg) >= 3.0, role


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_text_stays_readable_on_the_deepest_tints(dark):
    text = look.ROLES["text"][dark]
    base = (look._dark_palette() if dark else look._light_palette()).color(QPalette.ColorRole.Base).name()
    for name, alpha in (("good", 180), ("bad", 180), ("accent", 110), ("relevant", 180), ("seen", 95)):
        c = QColor(*look.TINTS[name][dark], alpha)
        assert contrast(text, over(c, base)) >= 4.5, name


def test_each_theme_value_is_unique_so_a_text_turns_into_the_other_theme():
    changing = {r: v for r, v in look.ROLES.items() if v[0] != v[1]}
    lights, darks = [v[0] for v in changing.values()], [v[1] for v in changing.values()]
    assert len(set(lights)) == len(lights) and len(set(darks)) == len(darks)
    assert not set(lights) & set(darks)
    constant = {v[0] for v in look.ROLES.values() if v[0] == v[1]}
    assert not constant & (set(lights) | set(darks))
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for v in look.ROLES.values() for c in v)
    light = f"<span style='color:{look.ROLES['muted'][0]}'>x</span> background:{look.ROLES['header'][0]}"
    dark = look.retint(light, True)
    assert look.ROLES["muted"][1] in dark and look.ROLES["header"][1] in dark
    assert look.retint(dark, False) == light


# -- the widgets follow ----------------------------------------------------------------------
@pytest.fixture
def dark(qtbot):
    a = look.appearance()
    a.set_theme("dark")
    yield a
    a.reset()


def test_roles_resolve_per_theme(dark):
    assert look.css("muted") == look.ROLES["muted"][1] and look.color("good").name() == look.ROLES["good"][1]
    dark.set_theme("light")
    assert look.css("muted") == look.ROLES["muted"][0]


def test_labels_and_style_sheets_built_in_light_turn_dark(qtbot):
    from PySide6.QtWidgets import QLabel

    a = look.appearance()
    a.set_theme("light")
    label = QLabel(f"<span style='color:{look.css('bad')}'>worse</span>")
    label.setStyleSheet(f"background:{look.css('callout')};")
    qtbot.addWidget(label)
    try:
        a.set_theme("dark")
        assert look.ROLES["bad"][1] in label.text() and look.ROLES["callout"][1] in label.styleSheet()
        a.set_theme("light")
        assert look.ROLES["bad"][0] in label.text() and look.ROLES["callout"][0] in label.styleSheet()
    finally:
        a.reset()


def test_item_models_and_table_items_follow_the_theme(qtbot):
    from PySide6.QtWidgets import QTableWidget, QTableWidgetItem

    from readsim.app.widgets.runs.cells import CHOSEN, Cell, CellsModel

    a = look.appearance()
    a.set_theme("light")
    model = CellsModel()
    model._set([[Cell("x", fg="good", bg=CHOSEN)]], [Cell("h")])
    table = QTableWidget(1, 1)
    qtbot.addWidget(table)
    look.follow_items(table)
    item = QTableWidgetItem("y")
    item.setForeground(look.color("muted"))
    table.setItem(0, 0, item)
    try:
        a.set_theme("dark")
        index = model.index(0, 0)
        assert model.data(index, Qt.ItemDataRole.ForegroundRole).color().name() == look.ROLES["good"][1]
        assert model.data(index, Qt.ItemDataRole.BackgroundRole).color().name() == look.ROLES[CHOSEN][1]
        assert table.item(0, 0).foreground().color().name() == look.ROLES["muted"][1]
    finally:
        a.reset()


def test_plot_lines_and_label_boxes_follow_the_theme(qtbot):
    from readsim.app.widgets.plots import marker, pg, restyle, themed

    a = look.appearance()
    a.set_theme("light")
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    restyle(plot)
    curve = themed(plot.getPlotItem().plot([0, 1], [0, 1]), pen=("accent", 2))
    line = marker("reader", "reader")
    plot.getPlotItem().addItem(line)
    try:
        a.set_theme("dark")
        bg = look.PLOT[True][0]
        assert curve.opts["pen"].color().name() == look.ROLES["accent"][1]
        assert line.pen.color().name() == look.ROLES["reader"][1]
        assert line.label.color.name() == look.ROLES["reader"][1]
        assert line.label.fill.color().name() == bg  # the box: the plot's background, not white
        assert contrast(line.label.color, bg) >= 4.5
    finally:
        a.reset()
