"""A figure's layout goes in slices, with progress and cancel (app/figure.py; File ▸ Export
figure… shows it in a progress dialog, Esc or Cancel stops it): the slices change nothing in the
file, the layout covers only the lines the figure needs (up to its range's end, or the visible
screen), and a cancel writes nothing. Real data: article 1807158 of topic 2009046 (35,472 bytes),
its relevant passage bytes 7435 to 7586 (as tests/app/test_figure.py)."""

from __future__ import annotations

import pytest

from readsim.app.articles import length_of
from readsim.app.figure import Cancelled, export_figure

from helpers.app_cases import BIG, BIG_TOPIC, END, START
from helpers.gui import accept


def test_slices_change_nothing_and_cover_only_the_range(real_window, tmp_path):
    window = real_window(BIG, BIG_TOPIC)
    cur = window.session.current  # the reference's length (qrels' doc_length, reference 1.5), as the figure's range
    length = length_of(window.session.qrels, window.session.topic, cur.name, cur.article)
    seen: list[tuple[int, int]] = []

    def tick(done: int, total: int) -> bool:
        seen.append((done, total))
        return True

    plain = export_figure(window, tmp_path / "plain.png", (START, END), width=800).read_bytes()
    sliced = export_figure(window, tmp_path / "sliced.png", (START, END), width=800, tick=tick).read_bytes()
    assert sliced == plain
    assert seen and seen[-1][0] == seen[-1][1]  # ends at its total
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)  # never goes back
    early = seen[-1][1]
    seen.clear()
    export_figure(window, tmp_path / "end.png", (length - 100, length), width=800, tick=tick)
    blocks = window.article.view.document().blockCount()
    assert early < seen[-1][1] <= blocks  # the article's end needs more lines laid out than byte 7,586
    seen.clear()
    export_figure(window, tmp_path / "screen.png", None, width=800, tick=tick)  # the visible screen
    assert seen and seen[-1][0] == seen[-1][1]


def test_a_cancelled_figure_writes_nothing(real_window, tmp_path):
    window = real_window(BIG, BIG_TOPIC)
    out = tmp_path / "never.svg"
    with pytest.raises(Cancelled):
        export_figure(window, out, (START, END), tick=lambda done, total: False)
    assert not out.exists()
    assert export_figure(window, out, (START, END)).is_file()  # the next one is not affected


def test_export_figure_dialog_cancel_writes_nothing(real_window, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QProgressDialog

    from readsim.app import export
    from readsim.app.widgets import render_dialogs as rd


    window = real_window(BIG, BIG_TOPIC)

    def setup(d: rd.FigureDialog) -> None:
        d.what.button(1).setChecked(True)
        d.start.setValue(START)
        d.end.setValue(END)
        d.format.setCurrentText("SVG")

    accept(monkeypatch, rd.FigureDialog, setup)
    out = tmp_path / "fig.svg"
    monkeypatch.setattr(export, "_ask", lambda *a: str(out))
    window.act_export_figure.trigger()
    assert out.is_file() and window.status.text() == f"Exported {out}"
    out.write_bytes(b"before")
    monkeypatch.setattr(QProgressDialog, "wasCanceled", lambda self: True)  # Cancel (or Esc) in the progress dialog
    window.act_export_figure.trigger()
    assert out.read_bytes() == b"before"
    assert window.status.text() == f"Figure cancelled; nothing was written to {out}"


def test_the_figure_lays_the_text_out_as_the_window_does(real_window, qtbot):
    """The figure's document has the window's document margin (14 px, not a clone's default 4)
    and breaks the range's lines where the window's article pane does."""
    from PySide6.QtGui import QTextCursor

    from readsim.app.figure import build_figure

    window = real_window(BIG, BIG_TOPIC)
    src = window.article.view
    lay = window.session.current.layout
    window.splitter.setSizes([360, 900, 340])  # a pane wider than the figure's least column (640 px)
    qtbot.waitUntil(lambda: src.viewport().width() > 640)
    figure = build_figure(window, (START, END))
    try:
        doc, view = figure.view.document(), figure.view
        assert doc.documentMargin() == src.document().documentMargin()
        assert view.viewport().width() == src.viewport().width()
        a, b = lay.to_display(START, "start"), lay.to_display(END, "end")
        for position in (a, (a + b) // 2, b - 1):
            ours, theirs = QTextCursor(doc), QTextCursor(src.document())
            ours.setPosition(position)
            theirs.setPosition(position)
            assert view.cursorRect(ours).x() == src.cursorRect(theirs).x()  # same place in its line
            block = doc.findBlock(position)
            assert block.layout().lineCount() == src.document().findBlock(position).layout().lineCount()
    finally:
        figure.close()
