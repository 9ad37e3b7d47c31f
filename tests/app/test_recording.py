"""Recordings for slides (app/recording.py): the frames a recording should have, read back
from the GIF with Pillow; the size of a 50-frame pane GIF; atomic, refusing what is not a
regular file; ``readsim --record``. Real data: the largest article the run ranks that the
qrels judge (1807158, topic 2009046, 220 KB of XML)."""

from __future__ import annotations

import dataclasses
import io
import math
import os

import numpy as np
import pytest
from PIL import Image

from readsim.app import recording as rec
from readsim.app.background import activity
from readsim.app.main import main
from readsim.app.mainwindow import MainWindow
from readsim.app.playback import DEFAULT_SPEED
from readsim.app.session import Session
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import Settings
from readsim.core.samples import sample

from helpers.gui import real_args

BIG, BIG_TOPIC = "1807158", "2009046"


# -- the plan, worked by hand --------------------------------------------------------------
def test_plan_per_screen_is_one_frame_per_screen():
    # n = 1000 characters, screens of 300: K = ceil(1000/300) = 4 screens, tops 0, 300, 600, 900;
    # a screen takes 300 / 600 s = 500 ms to read at 600 characters per second
    p = rec.plan(1000, 300, "screen", 600, 60)
    assert p.tops == (0, 300, 600, 900)
    assert p.durations_ms == (500, 500, 500, 500)


def test_plan_per_step_adds_the_screens_it_skips():
    # n = 700, screen 300: K = 3, last top 600; ticks of 120: 0, 120, 240, 360, 480 (below 600);
    # screen starts 300 and 600 added: 0, 120, 240, 300, 360, 480, 600; each frame shown for
    # the characters to the next frame at 600 per second: 120 -> 200 ms, 60 -> 100 ms; the
    # last one a whole screen, 300 -> 500 ms
    p = rec.plan(700, 300, "step", 600, 120)
    assert p.tops == (0, 120, 240, 300, 360, 480, 600)
    assert p.durations_ms == (200, 200, 100, 100, 200, 200, 500)


def test_plan_edges():
    assert rec.plan(0, 300, "screen", 600, 60).tops == (0,)  # an empty order: one frame
    assert rec.plan(300, 300, "screen", 600, 60).tops == (0,)  # exactly one screen
    assert rec.plan(301, 300, "screen", 600, 60).tops == (0, 300)
    # durations clipped: 300 characters at 10 per second = 30 s (kept); at 200,000 per second
    # = 1.5 ms, shown for the 20 ms most viewers honour
    assert rec.plan(300, 300, "screen", 10, 60).durations_ms == (30_000,)
    assert rec.plan(300, 300, "screen", 200_000, 60).durations_ms == (20,)
    with pytest.raises(ValueError, match="per 'page'"):
        rec.plan(300, 300, "page", 600, 60)


# -- recordings of the real data -------------------------------------------------------------
# A recording puts the reader back where it was (its screen, its speed): the tests share a window
# per topic, each shown as a fresh window shows it (the reader's default settings, at the
# article's first screen, paused at the default speed).
def as_fresh(qtbot, window, article: str):
    """``window`` with ``article`` open as a fresh window opens it (see above)."""
    s = window.session
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
    s.set_settings(**{f.name: getattr(Settings(), f.name) for f in dataclasses.fields(Settings)})
    if s.current is None or s.current.name != article:
        s.open_article(article)
    qtbot.waitUntil(lambda: activity().count == 0 and s.current is not None and s.current.name == article,
                    timeout=20_000)
    window.playback.pause()
    window.playback.set_speed(DEFAULT_SPEED)
    s.set_step(0)
    window.article.view.verticalScrollBar().setValue(0)
    assert window.playback.top == 0
    return window


@pytest.fixture
def window(real_window_shared, qtbot):
    """The module's window on topic 2009074 (``real_window_shared``) at the article a fresh window
    opens first (the best-ranked relevant one)."""
    w = real_window_shared()
    return as_fresh(qtbot, w, w.session.current.name)


WINDOW_AT = (BIG_TOPIC, BIG)  # the module's window (tests/app/conftest.py's module_window_at)


@pytest.fixture(scope="module")
def big_module_window(module_window_at):
    """One window for the module on topic 2009046, article 1807158, as ``real_window`` opens it;
    QSettings in a folder of its own until the first test's ``fresh_settings``; closed and
    deleted after the module's last test (as tests/app/conftest.py's ``shared_real_window``)."""
    return module_window_at


@pytest.fixture
def big_window(big_module_window, qtbot):
    """The module's window on the largest judged article the run ranks (1807158, topic 2009046)."""
    return as_fresh(qtbot, big_module_window, BIG)


def _gif_frames(data: bytes) -> list[Image.Image]:
    im = Image.open(io.BytesIO(data))
    out = []
    for i in range(im.n_frames):
        im.seek(i)
        out.append(im.convert("RGB"))
    return out


def test_a_recording_per_screen_has_one_frame_per_screen_of_the_largest_article(big_window, qtbot, tmp_path):
    window = big_window
    s = window.session
    s.set_settings(screen=1000)
    qtbot.waitUntil(lambda: s.settings.screen == 1000)
    ev = s.current.evaluation
    k = math.ceil(ev.n / 1000)
    assert k == s.screens() and k > 20  # a long article (35 K characters of text): many screens
    p = rec.window_plan(window, "screen", 600)
    assert p.tops == tuple(1000 * i for i in range(k))
    window.playback.set_top(2000)  # the reader somewhere: put back after the recording
    shown, images = [], []
    for image in rec.frames(window, p, "pane"):
        shown.append((s.step, window.article.position.text()))  # what the pane showed when grabbed
        images.append(image)
    assert shown == [(i, f"screen {i + 1:,} of {k:,}") for i in range(k)]
    assert window.playback.top == 2000 and s.step == 2
    out = tmp_path / "big.gif"
    out.write_bytes(rec.gif_bytes(images, p.durations_ms))
    frames = _gif_frames(out.read_bytes())
    assert len(frames) == k  # at least one frame per screen read: here exactly one
    assert frames[0].size == (window.article.width(), window.article.height())
    # each frame is the pane as it was painted at its screen (quantised to the GIF's palette)
    palette = rec.pil_image(images[0]).quantize(colors=255, method=Image.Quantize.MEDIANCUT)

    def differ(i: int, j: int) -> float:  # mean absolute difference of GIF frame i and grab j
        expected = rec.pil_image(images[j]).quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
        return float(np.abs(np.asarray(frames[i], np.int16) - np.asarray(expected, np.int16)).mean())

    for i in (0, k // 2, k - 1):
        assert differ(i, i) == 0 < differ(i, (i + 1) % k), f"frame {i}"
    # durations read back: 1000 characters at 600 per second = 1,667 ms (GIF: 10 ms steps)
    im = Image.open(out)
    im.seek(1)
    assert abs(im.info["duration"] - 1667) <= 10


def test_a_50_frame_pane_gif_stays_under_5_mb(big_window, qtbot):
    window = big_window  # screens of 300: every frame scrolls the whole view
    p = rec.window_plan(window, "screen", 600)
    assert len(p) >= 50
    first = rec.Plan(p.tops[:50], p.durations_ms[:50])
    data = rec.gif_bytes(rec.frames(window, first, "pane"), first.durations_ms)
    assert Image.open(io.BytesIO(data)).n_frames == 50
    assert len(data) < 5_000_000


def test_record_per_step_has_every_screen_and_the_ticks(window, qtbot, tmp_path):
    # topic 2009074's best-ranked relevant article
    s = window.session
    pb = window.playback
    pb.set_speed(600)
    speeds = []
    pb.speed_changed.connect(speeds.append)
    out = rec.record(window, tmp_path / "steps.gif", per="step", speed=3000)
    assert speeds == [3000, 600] and pb.speed == 600  # recorded at 3000 (shown so), then put back
    p = rec.window_plan(window, "step", 3000)
    starts = {300 * i for i in range(s.screens())}
    assert starts <= set(p.tops)
    pb.set_speed(3000)
    stride = pb.stride()  # what one tick of Play moves at 3000 per second
    assert set(range(0, pb.last_top(), stride)) <= set(p.tops)
    assert Image.open(out).n_frames == len(p)


def test_record_window_mp4(window, tmp_path):
    if not rec.mp4_available():
        if os.environ.get("CI", "").lower() in ("true", "1"):  # .ci/run installs readsim[mp4]
            pytest.fail("imageio-ffmpeg (readsim[mp4]) is not installed: CI tests the MP4 recording")
        pytest.skip("imageio-ffmpeg (readsim[mp4]) is not installed")
    out = rec.record(window, tmp_path / "w.mp4", what="window")
    head = out.read_bytes()[:12]
    assert head[4:8] == b"ftyp"  # an ISO media file (MP4)
    import imageio.v2 as imageio

    reader = imageio.get_reader(str(out))
    frame = reader.get_data(0)
    reader.close()
    # the whole window (padded to even sizes for H.264)
    assert frame.shape[:2] == (window.height() + window.height() % 2, window.width() + window.width() % 2)


# -- atomic, refusals ------------------------------------------------------------------------
def test_refuses_a_folder_a_fifo_and_a_bad_suffix_and_leaves_a_file_as_it_was(window, tmp_path):
    folder = tmp_path / "folder.gif"
    folder.mkdir()
    with pytest.raises(IsADirectoryError):
        rec.record(window, folder)
    fifo = tmp_path / "pipe.gif"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        rec.record(window, fifo)  # refused before recording: nothing opens the FIFO (no hang)
    with pytest.raises(ValueError, match="use one of .gif, .mp4"):
        rec.record(window, tmp_path / "x.avi")
    old = tmp_path / "old.gif"
    old.write_bytes(b"previous")
    calls = []

    def cancel(done, total):
        calls.append(done)
        return done < 3

    with pytest.raises(rec.Cancelled):
        rec.record(window, old, progress=cancel)
    assert calls == [1, 2, 3] and old.read_bytes() == b"previous"
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # no temporary file left


def test_a_gif_too_big_to_hold_is_refused_before_recording(window, monkeypatch, tmp_path):
    pane = window.article.width() * window.article.height()
    monkeypatch.setattr(rec, "MAX_GIF_PIXELS", 3 * pane)  # room for 3 frames of the pane
    assert window.session.screens() > 3
    calls = []
    with pytest.raises(ValueError, match=f"frames; a GIF holds at most 3 frames of {window.article.width()} × "):
        rec.record(window, tmp_path / "big.gif", progress=lambda *a: calls.append(a) or True)
    assert not calls and not (tmp_path / "big.gif").exists()


def test_mp4_without_imageio_ffmpeg_says_how_to_get_it(window, monkeypatch, tmp_path):
    monkeypatch.setattr(rec, "mp4_available", lambda: False)
    with pytest.raises(ValueError, match=r"MP4 needs imageio and imageio-ffmpeg: pip install 'readsim\[mp4\]'"):
        rec.record(window, tmp_path / "x.mp4")
    assert not (tmp_path / "x.mp4").exists()


def test_no_article_is_a_clear_error(qtbot):

    window = MainWindow(Session(), show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    with pytest.raises(ValueError, match="no article text is open"):
        rec.window_plan(window, "screen")


# -- readsim --record ---------------------------------------------------------------------------
def test_cli_record_of_the_sample(tmp_path, capsys):
    s = sample()
    out = tmp_path / "sample.gif"
    assert main(["--sample", "--record", str(out)]) == 0, capsys.readouterr().err

    text_length = Collection(s.collection).article("900001").doc_length  # natural reading reads it all
    frames = Image.open(out).n_frames
    assert frames == math.ceil(text_length / 300)  # the default screen, 300 bytes


def test_cli_record_errors(inex, tmp_path, capsys):
    assert main(["--sample", "--record", str(tmp_path / "x.webm")]) == 1
    assert capsys.readouterr().err.strip() == f"readsim: error: --record {tmp_path / 'x.webm'}: give a file ending in .gif, .mp4"
    assert main(["--sample", "--record-per", "step"]) == 2
    assert "--record-per goes with --record FILE" in capsys.readouterr().err
    assert main(["--sample", "--record", str(tmp_path), "--record-speed", "600"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("readsim: error: ") and len(err.strip().splitlines()) == 1
    assert main([*real_args(inex), "--topic", "2009074", "--record", str(tmp_path / "r.gif"),
                 "--record-speed", "5"]) == 1
    assert "--record-speed 5: give 10 to 200,000" in capsys.readouterr().err
