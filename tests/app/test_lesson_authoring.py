"""Lessons with steps and questions (docs/reference.md section 9.2.1): a lesson made in the window on
the real INEX data, saved, reopened in a fresh window and answered as a student, its answers
``readsim.article``'s numbers; the six shipped lessons' questions; hostile lesson files. The tests
that open a lesson in a window share one for the module (``lesson_window``: each lesson replaces
what the previous one opened)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

import readsim
from readsim.app import lessons as ls
from readsim.app.background import activity
from readsim.app.lesson_text import LessonError, parse
from readsim.app.main import main
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session
from readsim.app.view_file import PLAIN_VERSION, VERSION, ViewError, read_view
from readsim.app.view_state import wait_restored
from readsim.app.widgets import lesson_dock
from readsim.app.widgets.lesson_dock import open_lesson
from readsim.app.widgets.lesson_editor import save_lesson_as
from readsim.app.widgets.score_panel import HIDDEN

TOPIC = "2009074"  # the real_window fixture's topic

SAMPLE = Path(readsim.__file__).resolve().parents[1] / "resources" / "sample"
# Article 2193171 of topic 2009074, by hand from the files: the qrels line
# "2009074 Q0 2193171 366 2032 100 327:366" (relevant [327, 693), doc_length 2032) and the run's
# one line "... 2193171 10 ... 0 1880" (retrieved [0, 1880)).
ARTICLE = "2193171"
P_SET = 366 / 1880  # |R ∩ T| / |T| (reference §4.6)
T2IF_300 = 0.0  # the chain's first 327 bytes are non-relevant: the reader stops at the 300th, nothing relevant read (§4.3)
LE_300 = 2  # the chain [0, 1880) read from 0: the first relevant byte, 327, is on screen 327 // 300 + 1 (§4.4)
LESSON = """# Worst reading on a real article
Topic 2009074, the BERT run.

## Worst reading, a large screen
set: reading=worst screen=2000 dock=explain
ask: T2IF(300) within 0.01

## Back to 300 characters
On which screen is the first relevant byte?
set: screen=300
ask: LE(300) choice 1 | 2 | 3 | 4 | 5

## Set precision
ask: P_set within 0.001
"""


def _window(qtbot) -> MainWindow:
    w = MainWindow(Session(), show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    return w


def _idle(qtbot, w) -> None:
    qtbot.waitUntil(lambda: (w.view_restore is None or w.view_restore.done) and activity().count == 0
                    and w.session.current is not None, timeout=60_000)


def _answer(qtbot, w, index: int, given: str | None = None, choice: float | None = None, again: bool = True):
    box = w.lesson.steps
    if again:
        box.go(index)
    qtbot.waitUntil(lambda: box.value is not None, timeout=60_000)
    q = box.step().question
    assert w.scores.value_text(q.measure) == HIDDEN  # hidden until answered
    model = w.model
    cols = [c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == q.measure]
    assert all(model.data(model.index(r, c)) == "?" for r in range(model.rowCount()) for c in cols)
    if not w.explain_dock.isHidden():
        w.explain.choose(q.measure)
        assert w.explain.explanation is None and "hidden until you answer" in w.explain.problem
    if choice is not None:
        box.choices.setCurrentIndex(q.choices.index(choice))
    else:
        box.number.setText(given if given is not None else f"{box.value:.4f}")
    close = box.answer()
    assert w.scores.value_text(q.measure) != HIDDEN  # shown once answered
    return close, box.verdict[1]


def test_a_lesson_made_in_the_window_reopens_and_is_answered_on_real_data(qtbot, real_window, real, inex,
                                                                           tmp_path, monkeypatch):
    monkeypatch.setattr(lesson_dock, "user_folder", lambda: tmp_path / "mine")
    w = real_window(ARTICLE)
    w.lesson_editor.dock.show()
    w.lesson_editor.set_source(LESSON)
    assert w.lesson_editor.status.text() == "3 steps, 3 questions"
    path = tmp_path / "mine" / "worst.readsim"
    path.parent.mkdir()
    assert save_lesson_as(w, path), w.errors_shown
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw["version"] == VERSION and raw["lesson"] == {"source": LESSON}
    assert "T2IF" not in json.dumps({k: v for k, v in raw.items() if k != "lesson"})  # no stored answer

    fresh = _window(qtbot)  # its own: the lesson reopened as a student opens it, in a window of their own
    fresh.lessons_menu.aboutToShow.emit()  # listed again as it opens
    titles = [a.text() for a in fresh.lessons_menu.actions() if not a.isSeparator()]
    assert titles[6:] == ["worst"] and len(titles) == 7  # Help ▸ Lessons: the six shipped, then the user's
    assert open_lesson(fresh, str(path)), fresh.errors_shown
    assert wait_restored(fresh, 60_000)
    _idle(qtbot, fresh)
    assert (fresh.session.topic, fresh.session.current.name) == (TOPIC, ARTICLE)
    assert fresh.lesson.title.text() == "Worst reading on a real article"

    def api(**settings):
        return readsim.article(inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "bert-passages.run",
                               topic=TOPIC, article=ARTICLE, collection=inex / "articles", **settings).scores

    close, value = _answer(qtbot, fresh, 0)
    assert fresh.session.settings.mode.value == "worst" and fresh.session.settings.screen == 2000
    assert close is True and value == api(reading="worst", screen=2000)["T2IF(300)"] == T2IF_300
    assert fresh.explain.chooser.currentText() == "T2IF(300)" and not fresh.explain_dock.isHidden()
    assert "close" in fresh.lesson.steps.result.text()

    close, value = _answer(qtbot, fresh, 1, choice=3.0)  # the wrong choice
    assert close is False and value == api(reading="worst", screen=300)["LE(300)"] == LE_300
    assert "not close (the nearest choice is 2)" in fresh.lesson.steps.result.text()

    fresh.lesson.steps.go(2)
    qtbot.waitUntil(lambda: fresh.lesson.steps.value is not None, timeout=60_000)
    reached = fresh.lesson.steps.value
    fresh.session.set_settings(mode="natural")  # the student's own change after the step was reached:
    close, value = _answer(qtbot, fresh, 2, given="0.1947", again=False)
    assert value is reached  # the answer is the value computed when the step was reached, not again
    assert close is True and value == api(reading="worst")["P_set"] == pytest.approx(P_SET, abs=1e-15)
    close_wrong = fresh.lesson.steps.step().question.close(0.196, value)
    assert close_wrong is False  # 0.196 - 0.194681 > 0.001
    assert fresh.errors_shown == []


@pytest.mark.parametrize("name", [lesson.name for lesson in ls.lessons()])
def test_every_shipped_lesson_asks_a_question_its_window_answers(lesson_window, qtbot, name):
    lesson = ls.find(name)
    steps = lesson.parsed().steps
    asked = [s for s in steps if s.question is not None]
    assert len(asked) == 1
    w = lesson_window
    assert open_lesson(w, name)
    _idle(qtbot, w)
    index = steps.index(asked[0])
    close, value = _answer(qtbot, w, index, choice=asked[0].question.choices[0] if asked[0].question.choices else None)
    view = read_view(lesson.view)
    s = w.session
    settings = {"reading": s.settings.mode.value, "screen": s.settings.screen, "tolerance": s.settings.tolerance}
    api = readsim.article(SAMPLE / "sample.qrels", view.runs[view.run], topic=view.topic, article=view.article,
                          collection=SAMPLE / "articles", **settings).scores[asked[0].question.measure]
    assert value == api
    assert (1 <= value <= 5) if asked[0].question.measure[:2] in ("LE", "ES") else (0 <= value <= 1)
    assert w.errors_shown == []


# numbers worked by hand on the sample (resources/sample/generate.py's articles), as each lesson's text says
HAND = {"screen-size": 1.0,  # LE(2000): the first relevant character is on the first 2,000-character screen
        "fetch-and-browse": 5.0}  # ES(300) of a non-relevant article: NR = levels + 1 = 5 (reference §4.5)


@pytest.mark.parametrize("name", sorted(HAND))
def test_shipped_choice_answers_by_hand(lesson_window, qtbot, name):
    w = lesson_window
    assert open_lesson(w, name)
    _idle(qtbot, w)
    close, value = _answer(qtbot, w, 0, choice=HAND[name])
    assert close is True and value == HAND[name]


# -- the syntax and hostile lessons ------------------------------------------------------------------
def test_the_step_syntax():
    t = parse("# Title\nintro\n\n## One\ntext\nset: reading=best screen=600 tolerance=50 dock=explain\n"
              "ask: T2IF(50) within 0.1\n## Two\nask: LE(600) choice 1 | 2 | 5\n")
    assert t.title == "Title" and t.intro == "intro" and [s.title for s in t.steps] == ["One", "Two"]
    assert t.steps[0].settings == {"mode": "best", "screen": 600, "tolerance": 50} and t.steps[0].dock == "explain"
    q = t.steps[0].question
    assert (q.measure, q.kind, q.tolerance) == ("T2IF(50)", "number", 0.1)
    assert q.close(0.55, 0.65) and not q.close(0.54, 0.65)
    c = t.steps[1].question
    assert c.choices == (1.0, 2.0, 5.0) and c.right_choice(3.4) == 2.0 and c.right_choice(3.6) == 5.0
    assert t.shown() == "intro\n\nStep 1: One\n\ntext\n\nStep 2: Two"


@pytest.mark.parametrize("text,message", [
    ("set: reading=worst", "lesson:1: set: belongs to a step: start one with ## TITLE first"),
    ("# T\n## A\nset: reading=sideways", "lesson:3: set: reading must be one of natural, worst, best, document, entry, "
                                         "not 'sideways'"),
    ("# T\n## A\nset: screen=99999999999999999999", "lesson:3: set: screen must be a whole number from 1 to "
                                                    "10,000,000 (characters of the unit), not '99999999999999999999'"),
    ("# T\n## A\nset: dock=../../etc", "lesson:3: set: dock must be a dock's name (letters, digits, _), not '../../etc'"),
    ("# T\n## A\nask: MAgP within 1", "lesson:3: ask: unknown measure 'MAgP'"),
    ("# T\n## A\nask: BEP(500) within 1", "lesson:3: ask: BEP(500) is not shown for one article"),
    ("# T\n## A\nask: aveChP within 1e999", "lesson:3: ask: the tolerance must be a finite number of at most 1e+12, "
                                            "not 1e999"),
    ("# T\n## A\nask: aveChP within -1", "lesson:3: ask: the tolerance must be 0 or more, not -1"),
    ("# T\n## A\nask: aveChP choice 1", "lesson:3: ask: a choice has 2 to 10 numbers separated by |, not 1"),
    ("# T\n## A\nask: aveChP choice 1 | 1", "lesson:3: ask: the choices must differ"),
    ("# T\n## A\nask: aveChP\nask: LE(300) within 1", "lesson:3: ask: write MEASURE within TOLERANCE"),
    ("# T\n## A\nask: aveChP within 1\nask: LE(300) within 1", "lesson:4: a step has at most one ask: line"),
    ("x" * 300_000, "lesson: longer than 262,144 characters: not a lesson"),
])
def test_a_bad_lesson_text_names_the_line(text, message):
    with pytest.raises(LessonError) as err:
        parse(text)
    assert str(err.value).startswith(message)


def _lesson_file(tmp_path, source) -> Path:
    view = json.loads((ls.folder() / "screen-size.readsim").read_text(encoding="utf-8"))
    view["files"] = {k: (os.path.relpath(ls.folder() / v, tmp_path) if isinstance(v, str) else
                         [os.path.relpath(ls.folder() / r, tmp_path) for r in v]) for k, v in view["files"].items()}
    view["version"], view["lesson"] = VERSION, {"source": source}
    path = tmp_path / "mine.readsim"
    path.write_text(json.dumps(view), encoding="utf-8")
    return path


def test_a_bad_lesson_file_is_one_message_naming_file_field_and_line(tmp_path, capsys):
    path = _lesson_file(tmp_path, "# T\n## A\nask: T2IF(300) within lots\n")
    with pytest.raises(ViewError) as err:
        read_view(path)
    assert str(err.value) == f"{path}: field lesson.source: line 3: ask: the tolerance must be a number, not 'lots'"
    assert main(["--lesson", str(path), "--screenshot", str(tmp_path / "x.png")]) == 1
    assert str(err.value) in capsys.readouterr().err and not (tmp_path / "x.png").exists()
    assert main(["--lesson", str(tmp_path / "nope.readsim"), "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "no lesson file" in capsys.readouterr().err


def test_markup_in_a_lesson_is_shown_as_plain_text(lesson_window, qtbot, tmp_path):
    source = "# <b>bold</b> & <img src=x>\n<script>alert(1)</script>\n\n## <i>step</i>\nask: LE(300) choice 1 | 5\n"
    path = _lesson_file(tmp_path, source)
    w = lesson_window
    assert open_lesson(w, str(path)), w.errors_shown
    _idle(qtbot, w)
    assert w.lesson.title.text() == "<b>bold</b> & <img src=x>"
    assert w.lesson.title.textFormat().name == "PlainText"
    assert w.lesson.text.toPlainText() == "<script>alert(1)</script>\n\nStep 1: <i>step</i>"
    assert w.lesson_editor.source() == source  # into the editor, to change and save as one's own


def test_a_version_1_view_still_opens_and_a_plain_view_is_written_as_version_1(tmp_path):
    view = read_view(ls.folder() / "screen-size.readsim")
    assert view.lesson is None and PLAIN_VERSION == 1
    from readsim.app.view_file import view_json

    assert view_json(view, tmp_path / "v.readsim")["version"] == 1
    view.lesson = "# T\n"
    assert view_json(view, tmp_path / "v.readsim")["version"] == 2


def test_the_editor_shows_the_first_problem_with_its_line(lesson_window, qtbot):
    w = lesson_window
    w.lesson_editor.set_source("# T\n\n## A\nset: reading=worst\nask: T2IF(300) within x\n")
    assert w.lesson_editor.status.text() == "line 5: ask: the tolerance must be a number, not 'x'"
    w.lesson_editor.set_source("# T\n\n## A\nset: reading=worst\n")
    assert w.lesson_editor.status.text() == "1 step, 0 questions"


def test_saving_a_lesson_with_a_problem_or_over_a_folder_writes_nothing(lesson_window, qtbot, tmp_path):
    w = lesson_window
    assert open_lesson(w, "screen-size")
    _idle(qtbot, w)
    w.lesson_editor.set_source("# T\n## A\nask: nope within 1\n")
    assert not save_lesson_as(w, tmp_path / "l.readsim") and not (tmp_path / "l.readsim").exists()
    assert w.errors_shown[-1].startswith("Cannot save the lesson: lesson steps:3: ask: unknown measure 'nope'")
    w.lesson_editor.set_source("# T\n")
    (tmp_path / "d.readsim").mkdir()
    assert not save_lesson_as(w, tmp_path / "d.readsim")
    assert "Nothing was written" in w.errors_shown[-1]
