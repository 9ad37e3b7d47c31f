"""Reading playback on real INEX data, acting as a user: buttons, keys, the speed box.

Article 23724 (PageRank, topic 2009074): doc_length n = 27,562 bytes; relevant passages
[159, 1326), [4996, 5005), [5008, 5869), [5913, 7778), [8138, 8400) (4,164 bytes); one
retrieved passage [0, 25686), so the natural reading order is the document order. Screens of
300: K = ceil(27562 / 300) = 92, the last screen's top is 91 * 300 = 27,300. A playback line
is 60 characters.
"""

from __future__ import annotations


import numpy as np
import pytest
from PySide6.QtCore import Qt

from readsim.app.playback import DEFAULT_SPEED, LINE, MIN_INTERVAL_MS, jumps
from readsim.app.widgets.article_view import _merged
from readsim.core import docmeasures as dm
from readsim.core import intervals as iv
from readsim.core.doc_evaluation import evaluate_document
from readsim.core.reading import Mode, Piece, window as read_window

ARTICLE = "23724"
N = 27562
NRC = 4164


@pytest.fixture
def window(real_window_shared, qtbot):
    """The module's one window on 23724 (``real_window_shared``), stopped at the article's start
    at the default speed, as a fresh window opens."""
    w = real_window_shared(ARTICLE)
    w.playback.pause()
    w.playback.set_speed(DEFAULT_SPEED)
    qtbot.mouseClick(w.playback_bar.start_btn, Qt.MouseButton.LeftButton)
    return w


def focus_view(qtbot, w):
    w.activateWindow()
    w.article.view.setFocus()
    qtbot.waitUntil(lambda: w.article.view.hasFocus())


def display(lay, spans):
    return [(int(a), int(b)) for a, b in lay.spans_to_display(iv.as_array(spans)).tolist()] if spans else []


def check_position(w, top: int) -> None:
    """View, plot and scores-so-far agree with the engine at screen top ``top`` (screen 300)."""
    s, pb = w.session, w.playback
    cur = s.current
    pieces, lay = cur.evaluation.pieces, cur.layout
    assert pb.top == top
    assert s.step == top // 300
    assert w.article.position.text() == f"screen {top // 300 + 1} of 92"
    # the framed screen: reading positions [top, top + 300) through the layout, in reading order
    assert w.article.view.window_spans() == display(lay, read_window(pieces, top, top + 300))
    # the veiled text: everything read before the screen
    assert w.article.view.read_spans() == _merged(display(lay, read_window(pieces, 0, top)))
    read = min(top + 300, N)
    assert w.plot.markers()["reader"] == read
    assert w.plot.markers()["screen"] == (top, read)
    rel = dm.relevant_read(pieces, read)
    shown = w.playback_bar.shown()
    assert shown["read"] == f"{read:,} of {N:,} bytes"
    assert shown["relevant"] == f"{rel:,} of {NRC:,}"
    assert shown["precision"] == f"{rel / read:.4f}" and shown["recall"] == f"{rel / NRC:.4f}"


def test_jumps_by_hand():
    # natural order of n=100, relevant [10, 20), chain [30, 40) [60, 70): the chain, then
    # back to the start: [0, 30) [40, 60) [70, 100)
    pieces = evaluate_document(np.array([[10, 20]]), np.array([[30, 40], [60, 70]]), 100, Mode.NATURAL).pieces
    assert jumps(pieces) == [(10, 40, 60), (20, 70, 0), (50, 30, 40), (70, 60, 70)]
    assert jumps((Piece(0, 5, False), Piece(5, 9, True))) == []


def test_play_then_pause_follows_the_reader(window, qtbot):
    w = window
    pb, bar = w.playback, w.playback_bar
    assert pb.top == 0 and not pb.is_playing()
    check_position(w, 0)
    qtbot.mouseClick(bar.play_btn, Qt.MouseButton.LeftButton)
    assert pb.is_playing()
    qtbot.waitUntil(lambda: pb.top >= 2 * LINE, timeout=5_000)
    qtbot.mouseClick(bar.play_btn, Qt.MouseButton.LeftButton)
    assert not pb.is_playing()
    top = pb.top
    assert top > 0 and top % LINE == 0  # whole lines
    check_position(w, top)


def test_steps_and_scores_by_hand(window, qtbot):
    w = window
    pb = w.playback
    focus_view(qtbot, w)
    for _ in range(5):  # five lines forward: top 300, screen 2
        qtbot.keyClick(w.article.view, Qt.Key.Key_Period)
    check_position(w, 300)
    # by hand: 600 read, relevant [159, 600) = 441: P = 441/600, R = 441/4164; the first
    # relevant byte is the 160th read; T2I(300) stops after 159 + 1167 + 141 = 1,467
    assert w.playback_bar.shown() == {"read": "600 of 27,562 bytes", "relevant": "441 of 4,164",
                                      "precision": f"{441 / 600:.4f}", "recall": f"{441 / 4164:.4f}",
                                      "t2i": "· at 1,467", "first": "✓ at 160"}
    qtbot.keyClick(w.article.view, Qt.Key.Key_Comma)  # one line back
    check_position(w, 240)
    assert w.session.step == 0
    w.act_line_forward.trigger()  # Alt+Shift+Right
    w.act_line_forward.trigger()
    check_position(w, 360)
    # the screen stepper and the reader agree: Next screen puts the top at screen 3's start
    qtbot.mouseClick(w.article.next_btn, Qt.MouseButton.LeftButton)
    check_position(w, 600)
    # past the T2I stop at 1,467: 5 screens read, T2I reached
    w.session.set_step(4)
    check_position(w, 1200)
    assert w.playback_bar.shown()["t2i"] == "✓ at 1,467"
    qtbot.mouseClick(w.playback_bar.start_btn, Qt.MouseButton.LeftButton)
    check_position(w, 0)
    assert pb.top == 0


def test_space_plays_and_pauses_in_the_article(window, qtbot):
    w = window
    focus_view(qtbot, w)
    qtbot.keyClick(w.article.view, Qt.Key.Key_Space)
    assert w.playback.is_playing()
    qtbot.waitUntil(lambda: w.playback.top > 0, timeout=5_000)
    qtbot.keyClick(w.article.view, Qt.Key.Key_Space)
    assert not w.playback.is_playing()
    check_position(w, w.playback.top)


@pytest.mark.parametrize("speed, interval, stride", [
    (600, 100, 60),      # 1000 * 60 / 600
    (1200, 50, 60),
    (6000, 16, 120),     # 10 ms is below the 16 ms floor: 6000 * 0.016 = 96 -> two lines
])
def test_speed_sets_the_timer(window, qtbot, speed, interval, stride):
    w = window
    box = w.playback_bar.speed
    box.selectAll()
    qtbot.keyClicks(box, str(speed))
    assert w.playback.speed == speed
    assert w.playback.timer.interval() == interval and interval >= MIN_INTERVAL_MS
    assert w.playback.stride() == stride


def test_faster_and_slower_keys(window, qtbot):
    w = window
    focus_view(qtbot, w)
    qtbot.keyClick(w.article.view, Qt.Key.Key_BracketRight)
    assert w.playback.speed == 900 and w.playback_bar.speed.value() == 900
    assert w.playback.timer.interval() == round(1000 * 60 / 900)
    qtbot.keyClick(w.article.view, Qt.Key.Key_BracketLeft)
    assert w.playback.speed == 600


def test_playback_stops_at_the_end(window, qtbot):
    w = window
    pb = w.playback
    w.session.set_step(89)  # near the end: top 26,700
    check_position(w, 26700)
    pb.set_speed(6000)
    with qtbot.waitSignal(pb.playing_changed, timeout=10_000, check_params_cb=lambda on: not on):
        w.act_play.trigger()  # Ctrl+Space
    assert not pb.is_playing()
    check_position(w, 27300)  # the last screen, 92 of 92: [27300, 27562)
    assert w.playback_bar.shown()["read"] == "27,562 of 27,562 bytes"
    assert w.playback_bar.shown()["recall"] == "1.0000"
    # play at the end starts over
    w.act_play.trigger()
    assert pb.top == 0 and pb.is_playing()
    pb.pause()


def test_jumps_are_drawn_and_taken(real_window, qtbot):
    # topic 2009004, article 14343887 (n = 7,049), retrieved [0, 6792), relevant after it
    # [6857, 6890) [6891, 6965) (and [6707, 6848) across the chain's end). Worst mode: the
    # chain, then the non-relevant rest [6848, 6857) [6890, 6891) [6965, 7049), then the
    # relevant rest [6792, 6848) [6857, 6890) [6891, 6965). Jumps after 6792, +9, +1, +84,
    # +56, +33 bytes read:
    w = real_window("14343887", topic="2009004")
    w.controls.mode.setCurrentIndex(w.controls.mode.findData(Mode.WORST.value))
    cur = w.session.current
    js = jumps(cur.evaluation.pieces)
    assert js == [(6792, 6792, 6848), (6801, 6857, 6890), (6802, 6891, 6965), (6886, 7049, 6792),
                  (6942, 6848, 6857), (6975, 6890, 6891)]
    lay = cur.layout
    expected = [(r, lay.to_display(a, "end"), lay.to_display(b)) for r, a, b in js]
    assert w.article.view.jumps() == expected
    assert not any(taken for *_, taken in w.article.view.jump_arcs())
    w.session.set_step(w.session.screens() - 1)  # the last screen: everything read
    assert all(taken for *_, taken in w.article.view.jump_arcs())
