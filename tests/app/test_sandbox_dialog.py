"""File ▸ New sandbox… (docs/reference.md section 9.2.2): the spans' table without a window, marks
made with the selection, and seed 003's worked examples opened in the window, whose score panel
shows the paper's numbers (Arvola, Kekäläinen & Junkkari 2010, section 4.1, Examples 1 and 2)."""

from __future__ import annotations

import math
from fractions import Fraction as Fr

import pytest
from PySide6.QtGui import QColor, QTextCursor

from readsim.app import appearance as look

from readsim.core.sandbox import Sandbox, read_sandbox, shipped_examples

MINI = "relevant content is in bold\nand retrieved is underlined"  # Table 1's mini document, 55 characters


def test_offsets_between_the_text_box_and_characters():
    # "a😀b": the emoji is one character, two UTF-16 code units: box position 3 is character 2
    from readsim.app.widgets.sandbox_dialog import chars_of, units_of

    assert [chars_of("a😀b", u) for u in (0, 1, 3, 4)] == [0, 1, 2, 3]
    assert [units_of("a😀b", c) for c in (0, 1, 2, 3)] == [0, 1, 3, 4]


def test_the_spans_model(qtbot):
    from readsim.app.widgets.sandbox_dialog import END, RELEVANT, RETRIEVED, START, TEXT, SpansModel

    m = SpansModel()
    m.set_rows("abcdefghij", [(2, 5)], [(8, 10)])
    assert m.add(RELEVANT, 0, 1) == 1 and m.add(RETRIEVED, 3, 4) == 3  # each after the last of its kind
    assert m.spans(RELEVANT) == ((2, 5), (0, 1)) and m.spans(RETRIEVED) == ((8, 10), (3, 4))
    assert m.data(m.index(0, TEXT)) == "cde"
    assert m.setData(m.index(0, END), "7") and m.spans(RELEVANT)[0] == (2, 7)
    assert not m.setData(m.index(0, START), "x") and not m.setData(m.index(0, START), "-1")
    m.remove(0)
    assert m.spans(RELEVANT) == ((0, 1),)


def test_marking_the_selection(qtbot):
    from readsim.app.widgets.sandbox_dialog import SandboxDialog

    errors = []
    d = SandboxDialog(lambda box: None, errors.append)
    qtbot.addWidget(d)
    assert not d.window_button.isEnabled()
    d.editor.setPlainText(MINI)
    assert d.window_button.isEnabled()  # a text, no spans: it can be opened (nothing relevant)

    def select(start: int, end: int) -> None:
        c = d.editor.textCursor()
        c.setPosition(start)
        c.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        d.editor.setTextCursor(c)

    select(0, 27)
    d.mark_relevant.click()
    select(23, 45)
    d.mark_retrieved.click()
    assert d.sandbox() == Sandbox(MINI, ((0, 27),), ((23, 45),))
    # the marks laid over the text: relevant [0, 23), relevant and retrieved [23, 27), then (after the
    # line break at 27, a block of its own) retrieved [28, 45), underlined with no background
    m, laid = look.marks(), []
    block = d.editor.document().begin()
    while block.isValid():
        laid += [(block.position() + r.start, block.position() + r.start + r.length, r.format.background().color().name(),
                  r.format.fontUnderline()) for r in block.layout().formats()]
        block = block.next()
    relevant, both = QColor(m.relevant).name(), QColor(m.both).name()
    assert [(a, b, underline) for a, b, _, underline in laid] == [(0, 23, False), (23, 27, True), (28, 45, True)]
    assert [colour for _, _, colour, _ in laid][:2] == [relevant, both] and laid[2][2] not in (relevant, both)
    assert d.editor.toPlainText() == MINI  # the marks change no text
    d.model.setData(d.model.index(1, 2), "99")  # the retrieved span's end past the 55 characters
    assert "give 0 <= start < end <= 55" in d.problem.text() and not d.window_button.isEnabled()
    assert d.open_file(shipped_examples()[0].parent / "missing.readsim-sandbox") is False
    assert errors and "missing.readsim-sandbox" in errors[0]


# The paper's numbers worked by hand (section 4.1; docs/reference.md section 11). Natural reading order:
# Example 1, retrieved 33..55: <33..55, 1..32>, the j-th relevant character read at 23 + j, aveChP =
# (1/27) sum_j j/(23+j) = 0.3484 (paper: 0.35), F1 = 0 (nothing relevant retrieved). Whole document:
# aveChP = 1, F1 = 2 (27/55)(1) / (27/55 + 1) = 27/41 = 0.6585 (paper: 0.66). Example 2, retrieved
# 24..45: <24..45, 1..23, 46..55>, aveChP = (4 + sum_j (4+j)/(22+j))/27 = 0.5306 (paper: 0.53),
# F1 = 2*4/(22+27) = 8/49 = 0.1633 (paper: 0.16). The first character read is relevant only when
# the reading starts at character 1 or 24; LE(300) is 1 for all three (f <= 300).
HAND = {"example-1": (float(sum(Fr(j, 23 + j) for j in range(1, 28)) / 27), 0.0),
        "whole-document": (1.0, 27 / 41),
        "example-2": (float((4 + sum(Fr(4 + j, 22 + j) for j in range(1, 24))) / 27), 8 / 49)}
PAPER = {"example-1": (0.35, 0.0), "whole-document": (1.0, 0.66), "example-2": (0.53, 0.16)}


@pytest.mark.parametrize("name", sorted(HAND))
def test_seed_003_examples_in_the_window(name, qtbot, tmp_path, gui_thread_gc, fresh_settings):
    from readsim.app.background import activity
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session

    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()
    session.set_settings(beta=1.0)  # the paper's F-score has alpha = 1
    assert window.sandbox.action in window.file_menu.actions()
    path = next(p for p in shipped_examples() if p.stem == name)
    dialog = window.sandbox.show(read_sandbox(path))
    assert dialog.editor.toPlainText() == MINI and "Arvola" in dialog.note.text()
    dialog.window_button.click()
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and session.current.name == "doc", timeout=20_000)
    qtbot.waitUntil(lambda: "aveChP" in window.scores.exact(), timeout=20_000)
    panel = window.scores.exact()
    ave, f1 = HAND[name]
    assert (round(ave, 2), round(f1, 2)) == PAPER[name]
    assert math.isclose(panel["aveChP"], ave, abs_tol=1e-12)
    assert math.isclose(panel["F(1)"], f1, abs_tol=1e-12)
    assert panel["LE(300)"] == 1.0
    assert session.unit == "chars" and session.topic == "sandbox"
    # Save, then readsim-eval on the saved files prints the panel's numbers (to its 6 decimals)
    import io

    from readsim.cli import main

    folder = tmp_path / "saved"
    assert dialog.save(folder) is not None
    out = io.StringIO()
    assert main(["--per-article", "-m", "aveChP", "-m", "F(1)", "--collection", str(folder),
                 str(folder / "sandbox.qrels"), str(folder / "sandbox.run")], out=out, err=io.StringIO()) == 0
    assert out.getvalue() == f"aveChP\tsandbox\tdoc\t{panel['aveChP']:.6f}\nF(1)\tsandbox\tdoc\t{panel['F(1)']:.6f}\n"
    from readsim.app.input_files import recent_files

    assert recent_files() == []  # the temporary folder is not a recent file


def test_readsim_opens_a_sandbox_file(tmp_path, capsys, fresh_settings):
    from readsim.app.main import main

    example = next(p for p in shipped_examples() if p.stem == "example-1")
    shot = tmp_path / "shot.png"
    assert main([str(example), "--size", "1280x720", "--screenshot", str(shot)]) == 0, capsys.readouterr().err
    assert shot.stat().st_size > 0
    bad = tmp_path / "bad.readsim-sandbox"
    bad.write_text('{"format": "readsim-sandbox", "text": "abc", "relevant": [[0, 9]]}')
    assert main([str(bad), "--screenshot", str(shot)]) == 1
    assert f"{bad}: field relevant[0]: [0, 9] is not a span of the text" in capsys.readouterr().err
    assert main([str(example), "--unit", "bytes", "--screenshot", str(shot)]) == 2
    assert "has its offsets in characters" in capsys.readouterr().err


def test_marks_made_with_the_mouse_are_characters_in_the_window(qtbot, gui_thread_gc, fresh_settings):
    # "😀ab cd": 6 characters (the emoji one character, two UTF-16 units in the box, 4 UTF-8 bytes).
    # Relevant "ab" = [1, 3), retrieved "b c" = [2, 5): |R n T| = 1 ("b"), |T| = 3, |R| = 2, so
    # P_set = 1/3, R_set = 1/2. Natural reading: the chain [2, 5) ("b", " ", "c"), then [0, 2)
    # ("😀", "a"), then "d": relevant at positions 1 and 5, aveChP = (1/1 + 2/5) / 2 = 0.7.
    from readsim.app.background import activity
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session

    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()
    d = window.sandbox.show()
    d.editor.setPlainText("😀ab cd")
    for kind, (start, end) in (("relevant", (2, 4)), ("retrieved", (3, 6))):  # UTF-16 positions in the box
        c = d.editor.textCursor()
        c.setPosition(start)
        c.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        d.editor.setTextCursor(c)
        (d.mark_relevant if kind == "relevant" else d.mark_retrieved).click()
    assert d.sandbox() == Sandbox("😀ab cd", ((1, 3),), ((2, 5),))
    d.window_button.click()
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=20_000)
    qtbot.waitUntil(lambda: "aveChP" in window.scores.exact(), timeout=20_000)
    panel = window.scores.exact()
    assert math.isclose(panel["P_set"], 1 / 3, abs_tol=1e-12) and math.isclose(panel["R_set"], 1 / 2, abs_tol=1e-12)
    assert math.isclose(panel["aveChP"], 0.7, abs_tol=1e-12)


def test_live_the_window_follows_the_table(qtbot, gui_thread_gc, fresh_settings):
    # example 2 opened, then its retrieved passage typed as [0, 55): the whole document, whose
    # aveChP is 1 and F1 27/41 (Arvola et al. 2010, section 4.1; worked above)
    from readsim.app.background import activity
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session
    from readsim.app.widgets.sandbox_dialog import END, START

    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()
    session.set_settings(beta=1.0)
    d = window.sandbox.show(read_sandbox(next(p for p in shipped_examples() if p.stem == "example-2")))
    d.window_button.click()
    qtbot.waitUntil(lambda: activity().count == 0 and math.isclose(window.scores.exact().get("F(1)", -1), 8 / 49),
                    timeout=20_000)
    d.model.setData(d.model.index(1, START), "0")
    d.model.setData(d.model.index(1, END), "55")
    qtbot.waitUntil(lambda: activity().count == 0 and math.isclose(window.scores.exact().get("F(1)", -1), 27 / 41),
                    timeout=20_000)
    assert window.scores.exact()["aveChP"] == 1.0
    d.live.setChecked(False)
    d.model.setData(d.model.index(1, END), "45")  # [0, 45): not followed without Live
    qtbot.wait(800)
    assert math.isclose(window.scores.exact()["F(1)"], 27 / 41)


def test_marks_move_with_their_text(qtbot):
    from readsim.app.widgets.sandbox_dialog import SandboxDialog, units_of

    d = SandboxDialog(lambda box: None, lambda text: None)
    qtbot.addWidget(d)
    d.set_sandbox(Sandbox("abc def", ((4, 7),), ((0, 3),)))
    c = d.editor.textCursor()
    c.setPosition(0)
    c.insertText("😀 ")  # 2 characters (3 UTF-16 units) where the retrieved span starts: before it
    assert d.sandbox().relevant == ((6, 9),) and d.sandbox().retrieved == ((2, 5),)
    assert d.sandbox().text[6:9] == "def"
    c.setPosition(5)  # after "😀 ab" (UTF-16: 😀 is 2 units): delete "c d"
    c.setPosition(8, QTextCursor.MoveMode.KeepAnchor)
    c.removeSelectedText()
    # "😀 abef": "abc" [2, 5) lost "c", its end at the cut (4); "def" [6, 9) lost "d": from the cut, 4, to 9 - 3 = 6
    assert d.sandbox().text == "😀 abef"
    assert d.sandbox().retrieved == ((2, 4),) and d.sandbox().relevant == ((4, 6),)
    c.setPosition(units_of(d.sandbox().text, 4))
    c.insertText("!")  # where "ab" ends and "ef" starts: after the one, before the other
    assert d.sandbox().retrieved == ((2, 4),) and d.sandbox().relevant == ((5, 7),)
