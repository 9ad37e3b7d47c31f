"""The article view draws every article whole: on every reading screen and after every
chain jump, each text block in the viewport is laid out and the pane has no blank band between
text lines; the "next passage" chips sit in the gutter, never over the text.

Before the fix, marks were applied by a QSyntaxHighlighter while Qt's layout of the document was
still partial: the rehighlight's per-block document changes made Qt mark never-laid-out blocks
as laid out (see ``ArticleView.show_document``), e.g. 7 KB of PageRank blank on screen 4.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from readsim.app.widgets.article_view import GUTTER

from helpers.app_cases import LARGEST, PAGERANK

INK = 30  # a row with ink: its grey levels span more than this (a blank row is one flat colour: white,
# the read veil, the screen's tint; marks' backgrounds only lie under text lines)


@pytest.fixture
def window(spread_window):
    """A window on the spread run (tests/app/conftest.py): ``window(article)`` opens it."""
    return spread_window


def blank_bands(view) -> tuple[int, int]:
    """(tallest run of ink-free rows between the first and last ink rows of the viewport, line height)."""
    img = view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_Grayscale8)
    w, h = img.width(), img.height()
    rows = np.frombuffer(img.constBits(), np.uint8, img.bytesPerLine() * h).reshape(h, img.bytesPerLine())[:, :w]
    ink = np.flatnonzero((rows.max(axis=1).astype(int) - rows.min(axis=1)) > INK)
    assert len(ink), "nothing drawn in the article pane"
    gaps = np.diff(ink) - 1
    return (int(gaps.max()) if len(gaps) else 0), view.fontMetrics().lineSpacing()


def assert_drawn(view, where: str) -> None:
    lo, hi = view.visible_range()
    assert view.unlaid_blocks(lo, hi) == [], f"{where}: blocks in view not laid out"
    gap, line = blank_bands(view)
    assert gap <= 3 * line, f"{where}: a blank band of {gap} px between text lines (line {line} px)"


def walk(w, qtbot) -> int:
    """Every screen, then every chain jump; returns the number of views checked."""
    s, view = w.session, w.article.view
    checked = 0
    for k in range(s.screens()):
        s.set_step(k)
        assert_drawn(view, f"{s.current.name} screen {k + 1}")
        checked += 1
    for n, _, _ in view.marks().chain:
        with qtbot.waitSignal(view.passage_jumped):
            view.jump_to_passage(n)
        assert_drawn(view, f"{s.current.name} chain passage {n}")
        checked += 1
    return checked


def test_pagerank_screen_4_is_drawn(window, qtbot, tmp_path):
    w = window(PAGERANK)
    s, view = w.session, w.article.view
    assert [n for n, _, _ in view.marks().chain] == [1, 2, 3]
    s.set_step(3)  # screen 4: the text between passages 2 and 3 used to stay blank
    assert_drawn(view, "PageRank screen 4")
    view.viewport().grab().save(str(tmp_path / "pagerank-screen4.png"))
    assert walk(w, qtbot) == s.screens() + 3


@pytest.mark.parametrize("article", LARGEST)
def test_largest_articles_every_screen_and_jump(window, qtbot, article):
    w = window(article)
    w.session.set_settings(screen=2000)
    assert len(w.article.view.marks().chain) >= 3
    assert walk(w, qtbot) == w.session.screens() + len(w.article.view.marks().chain)
    w.session.set_settings(mode="worst")  # the reading order jumps around: far blocks first
    assert walk(w, qtbot) > 0


def test_next_passage_chips_sit_in_the_gutter(window, qtbot, tmp_path):
    w = window(PAGERANK)
    view = w.article.view
    seen = {}
    for n, _a, _ in view.marks().chain:
        view.jump_to_passage(n)
        for nxt, rect in view.link_rects():
            seen[nxt] = rect
            assert 0 <= rect.left() and rect.right() < GUTTER, rect  # the gutter, left of the text
        for (_, badge), (_, chip) in ((b, c) for b in view._badge_rects() for c in view.link_rects()):
            assert not badge.intersects(chip)
    assert set(seen) == {2, 3}
    # a chip is a link: clicking it jumps to the next passage
    view.jump_to_passage(1)
    nxt, rect = view.link_rects()[0]
    with qtbot.waitSignal(view.passage_jumped) as sig:
        qtbot.mouseClick(view._gutter, Qt.MouseButton.LeftButton, pos=rect.center())
    assert sig.args == [nxt]
    w.grab().save(str(tmp_path / "window-pagerank.png"))


def top_cut(view) -> int:
    """Pixels of the article pane's top line hidden above the viewport's top edge (0: the line at
    the top is whole, or the top edge falls between lines)."""
    y = view.verticalScrollBar().value()
    block = view.document().firstBlock()
    while block.isValid():
        tl = block.layout()
        for i in range(tl.lineCount()):
            line = tl.lineAt(i)
            top = tl.position().y() + line.y()
            if top + line.height() > y:  # the first line reaching into the viewport
                return max(int(round(y - top)), 0)
        block = block.next()
    return 0


def test_the_top_line_is_whole_on_opening_every_screen_and_jump(window, qtbot):
    """The pane's top edge never cuts a line: when an article opens, at every reading screen
    and after every jump along the matching chain (the jumps, screens and badges scroll)."""
    w = window(PAGERANK)
    s, view = w.session, w.article.view
    for screen in (300, 2000):
        s.set_settings(screen=screen)
        window(LARGEST[2])  # another article, then this one again: it opens at its first screen
        window(PAGERANK)
        assert top_cut(view) == 0, f"screen {screen}: opened with the top line cut"
        for k in range(s.screens()):
            s.set_step(k)
            assert top_cut(view) == 0, f"screen {screen}: reading screen {k + 1} shows a cut top line"
        for n, _, _ in view.marks().chain:
            view.jump_to_passage(n)
            assert view.verticalScrollBar().value() > 0 or n == 1
            assert top_cut(view) == 0, f"screen {screen}: chain passage {n} shows a cut top line"
