"""File ▸ Export figure… and Reader ▸ Record playback… (app/widgets/render_dialogs.py): where
they are, when they are enabled, and what their dialogs write (real data, topic 2009074; one
window for the module, ``real_window_shared``)."""

from __future__ import annotations

import pytest
from PIL import Image
from PySide6.QtWidgets import QProgressDialog

from readsim.app import export
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session
from readsim.app.widgets import render_dialogs as rd

from helpers.gui import accept


def menu(window, name: str):
    return next(a.menu() for a in window.menuBar().actions() if a.menu() is not None and a.text().replace("&", "") == name)


def test_the_entries_are_in_file_and_reader_and_need_an_article(qtbot):
    window = MainWindow(Session(), show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    file_acts = menu(window, "File").actions()
    i = file_acts.index(window.export_menu.menuAction())
    assert file_acts[i + 1] is window.act_export_figure  # right after File ▸ Export
    assert window.act_record in menu(window, "Reader").actions()
    assert not window.act_export_figure.isEnabled() and not window.act_record.isEnabled()


def test_export_figure_dialog_writes_the_range_asked(real_window_shared, monkeypatch, tmp_path):
    window = real_window_shared()
    assert window.act_export_figure.isEnabled()

    def setup(d: rd.FigureDialog) -> None:
        d.what.button(1).setChecked(True)
        d.start.setValue(100)
        d.end.setValue(400)
        d.format.setCurrentText("PNG")
        d.width.setValue(800)
        assert d.start.isEnabled() and d.width.isEnabled()

    accept(monkeypatch, rd.FigureDialog, setup)
    out = tmp_path / "fig.png"
    asked = []
    monkeypatch.setattr(export, "_ask", lambda parent, title, filters, stem: asked.append((filters, stem)) or str(out))
    window.act_export_figure.trigger()
    assert Image.open(out).size[0] == 800
    assert asked[0][0] == "PNG image (*.png)" and asked[0][1].startswith("figure-2009074-") and asked[0][1].endswith(".png")
    assert window.status.text() == f"Exported {out}"


def test_record_dialog_writes_a_gif_and_cancel_writes_nothing(real_window_shared, qtbot, monkeypatch, tmp_path):
    window = real_window_shared()
    s = window.session

    def setup(d: rd.RecordDialog) -> None:
        assert d.speed.value() == window.playback.speed
        d.per.button(0).setChecked(True)  # one frame per screen

    accept(monkeypatch, rd.RecordDialog, setup)
    out = tmp_path / "rec.gif"
    monkeypatch.setattr(export, "_ask", lambda *a: str(out))
    window.act_record.trigger()  # frames grabbed now, the GIF encoded and written in a worker
    qtbot.waitUntil(lambda: window.status.text() == f"Exported {out}", timeout=60_000)
    assert Image.open(out).n_frames == s.screens()
    out.write_bytes(b"before")
    monkeypatch.setattr(QProgressDialog, "wasCanceled", lambda self: True)
    window.act_record.trigger()
    assert out.read_bytes() == b"before"
    assert window.status.text() == f"Recording cancelled; nothing was written to {out}"


def test_a_recording_the_file_refuses_is_a_message(real_window_shared, monkeypatch, tmp_path):
    window = real_window_shared()
    shown = []
    monkeypatch.setattr(window, "show_error", shown.append)
    accept(monkeypatch, rd.RecordDialog, lambda d: None)
    folder = tmp_path / "folder.gif"
    folder.mkdir()
    monkeypatch.setattr(export, "_ask", lambda *a: str(folder))
    window.act_record.trigger()
    assert len(shown) == 1 and shown[0].startswith(f"Cannot export to {folder}: Is a directory")


def test_a_bad_range_in_the_dialog_is_a_message(real_window_shared, monkeypatch, tmp_path):
    window = real_window_shared()
    shown = []
    monkeypatch.setattr(window, "show_error", shown.append)

    def setup(d: rd.FigureDialog) -> None:
        d.what.button(1).setChecked(True)
        d.start.setValue(500)
        d.end.setValue(100)

    accept(monkeypatch, rd.FigureDialog, setup)
    monkeypatch.setattr(export, "_ask", lambda *a: str(tmp_path / "x.svg"))
    window.act_export_figure.trigger()
    assert len(shown) == 1 and "range 500:100: give 0 <= START < END" in shown[0]
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize("available", [True, False])
def test_mp4_is_offered_only_when_it_can_be_written(real_window_shared, monkeypatch, available):
    from readsim.app import recording

    window = real_window_shared()
    monkeypatch.setattr(recording, "mp4_available", lambda: available)
    d = rd.RecordDialog(window)
    assert d.format.model().item(1).isEnabled() is available
    d.deleteLater()
