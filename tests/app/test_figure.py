"""Figures for papers (app/figure.py): what the SVG says (legend, caption, the range's text and
nothing far from it), no scroll bar, no selection, the PNG's width, the PDF, bad ranges;
``readsim --figure``. Real data: the largest article the run ranks that the qrels judge
(1807158, topic 2009046), whose relevant passage is bytes 7435 to 7586 (qrels line
``2009046 Q0 1807158 151 35472 100 7435:151``). The tests that only export from the window
share one window for the module (``real_window_shared``); the one that opens the element
mode's dock has its own."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
from lxml import etree
from PIL import Image
from PySide6.QtGui import QPalette, QTextCursor

from readsim.app.articles import length_of
from readsim.app.figure import build_figure, export_figure
from readsim.app.main import main
from readsim.app.widgets.article_view import GUTTER

from helpers.app_cases import BIG, BIG_TOPIC, END, START
from helpers.gui import real_args


def svg_text(path) -> str:
    """All the text of an SVG we wrote (our own file: parsed without network or entities)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    root = etree.parse(str(path), parser).getroot()
    return " ".join(t for t in root.itertext())


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]{7,}", text))


def test_svg_of_a_range_has_the_legend_the_range_and_nothing_far_from_it(real_window_shared, tmp_path):
    window = real_window_shared(BIG, BIG_TOPIC)
    lay = window.session.current.layout
    out = export_figure(window, tmp_path / "range.svg", (START, END))
    text = svg_text(out)
    legends = ("relevant", "retrieved", "relevant ∩ retrieved", "passage of the matching chain", "link to the next passage")
    for legend in legends:
        assert legend in text
    assert f"article {BIG} · topic {BIG_TOPIC}" in text and "bytes 7,435–7,586" in text
    doc = window.article.view.document().toPlainText()
    a, b = lay.to_display(START, "start"), lay.to_display(END, "end")
    inside = words(doc[a:b])
    assert inside and inside <= words(text)  # every long word of the range is drawn
    figure = build_figure(window, (START, END))
    try:
        lo, hi = figure.view.visible_range()  # the lines the figure shows
        assert lo <= a and b - 1 <= hi
        near = doc[max(lo - 2000, 0):hi + 2000]  # (Qt may also paint the lines just outside the view)
        far = words(doc[:max(lo - 2000, 0)] + doc[hi + 2000:]) - words(near) - words(" ".join(legends) + figure.caption)
        assert len(far) > 100 and not far & words(text)  # nothing of the rest of the article
        # no scroll bar: the source view has one (a long article), the figure's view none,
        # and its text column is the figure's whole width less the gutter
        assert window.article.view.verticalScrollBar().isVisible()
        assert not figure.view.verticalScrollBar().isVisible()
        assert figure.view.viewport().width() == figure.view.width() - GUTTER
        assert figure.view.height() < 400  # a few lines, not the article
    finally:
        figure.close()


def test_the_range_is_in_characters_with_the_chars_unit(inex, tmp_path, capsys):
    out = tmp_path / "chars.svg"
    assert main([*real_args(inex), "--unit", "chars", "--topic", BIG_TOPIC, "--article", BIG,
                 "--figure", str(out), "--range", "100:200"]) == 0, capsys.readouterr().err
    assert "characters 100–200" in svg_text(out)


def test_png_has_the_width_asked_no_selection_and_pdf_is_a_pdf(real_window_shared, tmp_path, request):
    window = real_window_shared(BIG, BIG_TOPIC)
    src = window.article.view
    src.selectAll()  # a selection in the window...
    request.addfinalizer(lambda: src.setTextCursor(QTextCursor(src.document())))  # undone after: a shared window
    highlight = src.palette().color(QPalette.ColorRole.Highlight)
    rgb = np.array([highlight.red(), highlight.green(), highlight.blue()])

    def selected(a: np.ndarray) -> int:  # pixels of the selection's colour
        return int((np.abs(a[..., :3].astype(int) - rgb).sum(axis=2) == 0).sum())

    shown = src.viewport().grab().toImage()
    ptr = shown.convertToFormat(shown.Format.Format_RGB888)
    grab = np.frombuffer(bytes(ptr.constBits()), np.uint8).reshape(ptr.height(), ptr.bytesPerLine())[:, :ptr.width() * 3]
    assert selected(grab.reshape(ptr.height(), ptr.width(), 3)) > 1000
    natural = GUTTER + src.viewport().width()  # the visible screen at its own size: no scaling
    out = export_figure(window, tmp_path / "screen.png", None, width=natural)
    img = np.asarray(Image.open(out).convert("RGB"))
    assert img.shape[1] == natural and selected(img) == 0  # ...is not in the figure
    wide = export_figure(window, tmp_path / "wide.png", (START, END), width=1234)
    figure = build_figure(window, (START, END))
    w, h = figure.size.width(), figure.size.height()
    figure.close()
    assert Image.open(wide).size == (1234, round(h * 1234 / w))
    pdf = export_figure(window, tmp_path / "range.pdf", (START, END)).read_bytes()
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")


@pytest.mark.parametrize("span, says", [
    ((5, 3), "range 5:3: give 0 <= START < END <= "),
    ((-1, 5), "range -1:5: give 0 <= START"),
    ((7, 7), "range 7:7"),
])
def test_bad_ranges_say_so(real_window_shared, tmp_path, span, says):
    window = real_window_shared(BIG, BIG_TOPIC)
    with pytest.raises(ValueError, match=re.escape(says)):
        export_figure(window, tmp_path / "x.svg", span)
    # the article's length is the qrels' doc_length, 35,472 (reference 1.5), not its text's
    with pytest.raises(ValueError, match=f"END <= 35,472 \\(article {BIG}'s length in bytes\\)"):
        export_figure(window, tmp_path / "x.svg", (0, 35_473))
    assert not list(tmp_path.glob("x.svg*"))


def test_one_length_per_article_in_the_figure_the_window_and_the_element_window(real_window, qtbot, tmp_path):
    """A window of its own: it opens the element mode's dock (floating the first time it is
    shown) and clicks in its table, which the module's shared window could not be sure to undo."""
    # PageRank (23724): qrels line "2009074 Q0 23724 4164 27562 ...", doc_length 27,562; its text
    # is 27,580 bytes (18 trailing bytes that are not words, reference 1.4). The run's passages of
    # it end before 27,562, so the reader's extent is 27,562 too
    from PySide6.QtCore import Qt

    from readsim.app.background import activity
    from readsim.app.widgets.elements_table import ARTICLE, XPATH
    from readsim.app.widgets.entries import ELEMENTS_TEXT

    window = real_window("23724", "2009074")
    assert window.session.current.article.length == 27_580
    with pytest.raises(ValueError, match=re.escape("END <= 27,562 (article 23724's length in bytes)")):
        export_figure(window, tmp_path / "x.svg", (0, 27_563))
    assert "relevant 4,164 of 27,562 bytes" in window.scores.facts.text()
    view = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "View")
    next(a for a in view.actions() if a.text() == ELEMENTS_TEXT).trigger()
    panel = window.elements
    qtbot.waitUntil(lambda: activity().count == 0 and panel.topic_view is not None and panel.view.layout_ is not None,
                    timeout=30_000)
    m = panel.model
    row = next(k for k in range(m.rowCount()) if m.data(m.index(k, ARTICLE)) == "23724")
    idx = m.index(row, XPATH)
    panel.table.scrollTo(idx)
    qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=panel.table.visualRect(idx).center())
    qtbot.waitUntil(lambda: activity().count == 0 and panel.view.layout_.article.name == "23724", timeout=30_000)
    assert "article 23724 (27,562 bytes)" in panel.header.text()


def test_the_samples_length_is_its_qrels_doc_length(tmp_path, capsys):
    # sample qrels: "2026001 Q0 900001 1635 3244 ...": 3,244, its text 3,249 bytes
    assert main(["--sample", "--figure", str(tmp_path / "f.png"), "--range", "5:3"]) == 1
    assert "range 5:3: give 0 <= START < END <= 3,244 (article 900001's length in bytes)" in capsys.readouterr().err
    assert main(["--sample", "--figure", str(tmp_path / "f.png"), "--range", "3000:3249"]) == 1
    assert "END <= 3,244 " in capsys.readouterr().err
    assert main(["--sample", "--figure", str(tmp_path / "f.png"), "--range", "3000:3244"]) == 0


def test_a_figure_too_big_is_refused(real_window_shared, tmp_path, monkeypatch):
    from readsim.app import figure

    window = real_window_shared(BIG, BIG_TOPIC)
    cur = window.session.current  # the reference's length (qrels' doc_length, reference 1.5), as the figure's range
    length = length_of(window.session.qrels, window.session.topic, cur.name, cur.article)
    monkeypatch.setattr(figure, "MAX_HEIGHT", 1000)  # the whole article is some 9,000 pixels high
    with pytest.raises(ValueError, match=f"range 0:{length}: the figure would be .* pixels high \\(at most 1,000\\)"):
        export_figure(window, tmp_path / "all.svg", (0, length))
    monkeypatch.undo()
    with pytest.raises(ValueError, match="the PNG would be 20,000 × .* pixels"):
        export_figure(window, tmp_path / "wide.png", (0, 20_000), width=20_000)
    assert not list(tmp_path.glob("*.svg")) and not list(tmp_path.glob("*.png"))


def test_refuses_what_is_not_a_regular_file(real_window_shared, tmp_path):
    window = real_window_shared(BIG, BIG_TOPIC)  # any article: the module's others' (no topic to switch to)
    folder = tmp_path / "f.svg"
    folder.mkdir()
    with pytest.raises(IsADirectoryError):
        export_figure(window, folder, None)
    fifo = tmp_path / "p.png"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        export_figure(window, fifo, None)
    with pytest.raises(ValueError, match="use one of .svg, .pdf, .png"):
        export_figure(window, tmp_path / "x.jpg", None)


def test_cli_figure_of_the_real_data(inex, tmp_path, capsys):
    out = tmp_path / "fig.png"
    assert main([*real_args(inex), "--topic", BIG_TOPIC, "--article", BIG, "--figure", str(out),
                 "--range", f"{START}:{END}", "--figure-width", "900"]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.strip() == f"readsim: wrote {out}"
    assert Image.open(out).size[0] == 900


@pytest.mark.parametrize("extra, code, says", [
    (["--range", "0:99999999"], 1, "range 0:99999999: give 0 <= START < END <= "),
    (["--range", "1-2"], 1, "--range 1-2: give START:END, two whole numbers"),
    (["--figure-width", "50"], 1, "--figure-width 50: give 100 to 20,000 pixels"),
])
def test_cli_figure_errors_are_one_line(inex, tmp_path, capsys, extra, code, says):
    out = tmp_path / "fig.svg"
    assert main([*real_args(inex), "--topic", BIG_TOPIC, "--article", BIG, "--figure", str(out), *extra]) == code
    err = capsys.readouterr().err
    assert err.startswith(f"readsim: error: {says}") and len(err.strip().splitlines()) == 1, err
    assert not out.exists()


def test_cli_figure_of_the_visible_screen_after_steps(tmp_path, capsys):
    out = tmp_path / "screen.svg"
    assert main(["--sample", "--step", "2", "--figure", str(out)]) == 0, capsys.readouterr().err
    # the sample's article 900001 in screens of 300 bytes: screen 3 (after 2 steps) is read
    # positions 600 to 900; the caption names the bytes the view shows, framed as on screen
    text = svg_text(out)
    assert "visible screen, bytes " in text and "screen" in text.split("link to the next passage")[1]
    assert main(["--sample", "--step", "2", "--record", str(tmp_path / "x.gif")]) == 2
    assert "--step K goes with --screenshot or --figure" in capsys.readouterr().err


def test_cli_figure_usage(tmp_path, capsys):
    assert main(["--sample", "--figure", str(tmp_path / "x.jpg")]) == 1
    assert "give a file ending in .svg, .pdf, .png" in capsys.readouterr().err
    assert main(["--sample", "--range", "0:10"]) == 2
    assert "--range goes with --figure FILE" in capsys.readouterr().err
    link = tmp_path / "null.svg"
    link.symlink_to("/dev/null")  # a link to a device: refused before loading, the device untouched
    assert main(["--sample", "--figure", str(link)]) == 1
    assert "not a regular file (a character device)" in capsys.readouterr().err
    assert main(["--sample", "--record", str(tmp_path / "rec.gif"), "--figure", str(link)]) == 1
    assert not (tmp_path / "rec.gif").exists()  # nothing written when one of the outputs is refused
    capsys.readouterr()
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert main(["--sample", "--figure", str(afile / "x.svg")]) == 1  # a folder that is a file
    err = capsys.readouterr().err
    assert err.startswith("readsim: error: ") and "afile" in err and len(err.strip().splitlines()) == 1
