"""The shipped lessons: listed by ``readsim --list-lessons``, each opens its view with its text
beside the article (Help ▸ Lessons), each renders with ``--screenshot``, and they ship in the
package. The tests that open lessons in a window share one for the module (``lesson_window``),
but the one about a dock shown for the first time."""

from __future__ import annotations

import fnmatch
import os
import re
import tomllib
from pathlib import Path

import pytest
from helpers.gui import keep_shot
from PySide6.QtGui import QImage

from readsim.app import lessons as ls
from readsim.app.background import activity
from readsim.app.main import main
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session
from readsim.app.view_file import read_view
from readsim.app.view_state import open_docks
from readsim.app.widgets.lesson_dock import open_lesson

ROOT = Path(__file__).resolve().parents[2]
# the six subjects, by the name each lesson has
NAMES = ["reading-orders", "t2i-tolerance", "screen-size", "passages-vs-documents", "fetch-and-browse",
         "element-overlap"]


def test_list_lessons_prints_one_a_line_name_first_titles_aligned(capsys):
    assert main(["--list-lessons"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == NAMES
    width = max(map(len, NAMES))  # passages-vs-documents
    assert lines[0] == "reading-orders".ljust(width) + "  Natural vs worst reading: what happens after the chain"
    assert [line[width:width + 2] for line in lines] == ["  "] * len(NAMES)
    assert [line[width + 2:] for line in lines] == [ls.find(name).title() for name in NAMES]


@pytest.mark.parametrize("name", ["", " ", "nope"])
def test_an_unknown_or_empty_lesson_is_a_usage_error_naming_the_lessons(name, capsys):
    """Never the sample opened instead (an empty name was taken as no --lesson)."""
    assert main(["--lesson", name, "--screenshot", "x.png"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"readsim: error: --lesson no lesson named {name!r}; the lessons are: "
                          + ", ".join(NAMES)), err
    assert not Path("x.png").exists()


def test_a_lesson_with_a_topic_its_run_lacks_is_an_error(tmp_path, capsys):
    """reading-orders shows its second run: --topic 424242 was silently another topic's picture."""
    out = tmp_path / "o.png"
    assert main(["--lesson", "reading-orders", "--topic", "424242", "--screenshot", str(out)]) == 1
    err = capsys.readouterr().err
    assert "readsim: error: topic 424242 is not in run misses (" in err and "Traceback" not in err
    assert not out.exists()


def _menu_paths(window) -> list[str]:
    """Every menu item as ``Menu > Item`` (``> Sub > Item`` for submenus), without ``&`` and
    shortcuts: what the user reads."""
    def text(action) -> str:
        return action.text().replace("&", "").split("\t")[0]

    out: list[str] = []

    def walk(menu, path: str) -> None:
        for a in menu.actions():
            if not a.isSeparator():
                out.append(f"{path} > {text(a)}")
                if a.menu() is not None:
                    walk(a.menu(), out[-1])

    for top in window.menuBar().actions():
        walk(top.menu(), text(top))
    return out


def test_every_menu_item_and_dock_a_lesson_names_exists(lesson_window, qtbot):
    """A lesson's ``Menu > Item`` is an item of that menu as the window writes it, in full (not a
    shortened name: the text must be findable); ``the NAME dock`` is an item of the View
    menu, which shows that dock ("the Topic scores dock" was not: the item is "Topic scores (list
    measures)"); a dock may also be named by what it belongs to ("the element mode's dock", "its
    dock", "the same dock")."""
    w = lesson_window
    paths = _menu_paths(w)
    tops = {p.split(" > ")[0] for p in paths}
    view_items = {p.split(" > ", 1)[1] for p in paths if p.startswith("View > ")}
    assert "View > Topic scores (list measures)" in paths  # the walk sees the menus
    named = 0
    for lesson in ls.lessons():
        body = lesson.body()
        for top in tops:
            for m in re.finditer(re.escape(top) + " > ", body):
                rest = body[m.start():]
                fits = [p for p in paths if rest.startswith(p) and rest[len(p):len(p) + 1] in ("", ")", ",", ":", ";", ".")]
                assert fits, f"{lesson.name}: {rest[:60]!r} names no menu item; the {top} menu has: " \
                    + "; ".join(p for p in paths if p.startswith(top + " > "))
                named += 1
        for m in re.finditer(r"\b[Tt]he ((?:(?!\b[Tt]he\b)[^.;:\n])+?) dock\b", body):
            name = m.group(1)
            assert name.endswith("'s") or name == "same" or name in view_items, \
                f"{lesson.name}: no {name!r} in the View menu ({sorted(view_items)})"
    assert named >= 4


def test_an_unknown_lesson_is_a_usage_error(capsys):
    assert main(["--lesson", "nope", "--screenshot", "x.png"]) == 2
    err = capsys.readouterr().err
    assert "readsim: error: --lesson no lesson named 'nope'; the lessons are: reading-orders, t2i-tolerance" in err


def test_lesson_text_is_unwrapped_into_paragraphs_and_steps():
    text = "One\nparagraph.\n\nSteps:\n\n1. First\n   step.\n2. Second.\n- an item\n  wrapped"
    assert ls.unwrap(text) == "One paragraph.\n\nSteps:\n\n1. First step.\n2. Second.\n- an item wrapped"


@pytest.mark.parametrize("name", NAMES)
def test_every_lesson_renders(name, tmp_path, capsys):
    out = tmp_path / f"lesson-{name}.png"
    assert main(["--lesson", name, "--screenshot", str(out)]) == 0, capsys.readouterr().err
    img = QImage(str(out))
    assert not img.isNull() and img.width() >= 1000
    colours = {img.pixel(x, y) for x in range(0, img.width(), 37) for y in range(0, img.height(), 23)}
    assert len(colours) > 20  # a rendered window, not a blank image
    keep_shot(out)


def _window(qtbot) -> MainWindow:
    w = MainWindow(Session(), show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    return w


@pytest.mark.parametrize("first,second", [("reading-orders", "element-overlap"), ("fetch-and-browse", "screen-size")])
def test_a_lesson_opens_its_view_and_text(lesson_window, qtbot, first, second):
    """Opened one after the other in one window (Help ▸ Lessons): the second replaces the first."""
    w = lesson_window
    titles = [a.text() for a in w.lessons_menu.actions()]
    assert len(titles) == len(NAMES) and titles[0].startswith("Natural vs worst reading")
    for name in (first, second):
        assert open_lesson(w, name), w.errors_shown
        qtbot.waitUntil(lambda: w.view_restore.done and activity().count == 0, timeout=60_000)
        lesson = ls.find(name)
        view = read_view(lesson.view)
        s = w.session
        assert [os.path.realpath(r.path) for r in s.runs] == [os.path.realpath(r) for r in view.runs]
        assert os.path.realpath(s.run.path) == os.path.realpath(view.runs[view.run])
        assert (s.topic, s.current.name, s.step) == (view.topic, view.article, view.step)
        assert s.settings.screen == view.settings["screen"] and s.settings.mode.value == view.settings["mode"]
        assert sorted(open_docks(w)) == sorted(view.docks)
        assert not w.lesson_dock.isHidden()
        assert w.lesson.title.text() == lesson.title()
        assert w.lesson.text.toPlainText() == lesson.body()  # plain text: the file's characters
        assert "Steps to try:" in lesson.body()
    if second == "element-overlap":
        qtbot.waitUntil(lambda: w.elements.current_run() is not None, timeout=60_000)
        assert w.elements.current_run().name == "ancestors"
    assert w.errors_shown == []


def test_lessons_ship_in_the_package():
    """Every file under resources/lessons matches the package data's patterns, and the folder is
    a listed package (an installed copy holds them)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "readsim.resources.lessons" in config["packages"]
    patterns = [p.replace("**/", "") for p in config["package-data"]["readsim.resources"]]
    files = sorted((ROOT / "resources" / "lessons").iterdir())
    assert {f.suffix for f in files} == {".readsim", ".md"}
    assert [f.name for f in files if not any(fnmatch.fnmatch(f.name, p) for p in patterns)] == []
    assert sorted(lesson.name for lesson in ls.lessons()) == sorted(NAMES)


def test_start_again_reopens_the_lessons_view(lesson_window, qtbot):
    w = lesson_window
    assert open_lesson(w, "screen-size")
    qtbot.waitUntil(lambda: w.view_restore.done and activity().count == 0, timeout=60_000)
    s = w.session
    assert (s.settings.screen, s.current.name) == (300, "900001")
    s.set_settings(screen=2000)
    s.open_article("900004")
    qtbot.waitUntil(lambda: activity().count == 0 and s.current.name == "900004", timeout=60_000)
    w.lesson.again.click()
    qtbot.waitUntil(lambda: w.view_restore.done and activity().count == 0, timeout=60_000)
    assert (s.settings.screen, s.current.name, s.run.path.endswith("misses.run")) == (300, "900001", True)


def test_a_floating_dock_leaves_the_lesson_text_in_view(qtbot):
    """The element mode floats the first time it is shown: the lesson moves it off its dock (a
    window of its own: the dock is shown there for the first time)."""
    w = _window(qtbot)
    assert open_lesson(w, "element-overlap")
    qtbot.waitUntil(lambda: w.view_restore.done and activity().count == 0, timeout=60_000)
    dock = w.elements_dock
    assert dock.isFloating() and dock.isVisible()
    lesson_left = w.lesson_dock.mapToGlobal(w.lesson_dock.rect().topLeft()).x()
    assert dock.geometry().right() < lesson_left
