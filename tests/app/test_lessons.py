"""The shipped lessons: listed by ``readsim --list-lessons``, each opens its view with its text
beside the article (Help ▸ Lessons), each renders with ``--screenshot``, and they ship in the
package."""

from __future__ import annotations

import fnmatch
import os
import tomllib
from pathlib import Path

import pytest
from gui_fixtures import keep_shot  # tests/ is on sys.path
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


def test_list_lessons_prints_one_a_line_name_first(capsys):
    assert main(["--list-lessons"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == NAMES
    assert lines[0] == "reading-orders  Natural vs worst reading: what happens after the chain"


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
def test_a_lesson_opens_its_view_and_text(qtbot, first, second):
    """Opened one after the other in one window (Help ▸ Lessons): the second replaces the first."""
    w = _window(qtbot)
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


def test_start_again_reopens_the_lessons_view(qtbot):
    w = _window(qtbot)
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
    """The element mode floats the first time it is shown: the lesson moves it off its dock."""
    w = _window(qtbot)
    assert open_lesson(w, "element-overlap")
    qtbot.waitUntil(lambda: w.view_restore.done and activity().count == 0, timeout=60_000)
    dock = w.elements_dock
    assert dock.isFloating() and dock.isVisible()
    lesson_left = w.lesson_dock.mapToGlobal(w.lesson_dock.rect().topLeft()).x()
    assert dock.geometry().right() < lesson_left
