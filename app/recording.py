"""Recordings for slides: the reading playback of the open article as an animated GIF or MP4.

The recording drives the window's :class:`~readsim.app.playback.Playback` (the simulated
reader moving along the reading order, reference section 3) through the positions of a
:class:`Plan`, paints the article pane (``what="pane"``: header, chain bar, article view,
legend, screen stepper, playback bar) or the whole window (``what="window"``) after each move,
offscreen (``QWidget.grab``), and writes the frames:

- ``per="screen"``: one frame per screen of the reading order, screen ``k`` at reading position
  ``k * screen`` (``K`` screens, :func:`readsim.app.marks.screens`); each shown for the time the
  reader takes to read a screen, ``1000 * screen / speed`` ms;
- ``per="step"``: one frame per tick of the playback at ``speed`` (the positions
  :meth:`Playback.stride` apart, as Play moves them), plus the start of every screen the ticks
  skip, so every screen read has at least one frame; each shown for the time the reader takes
  to reach the next frame's position.

``speed`` is in characters (of the session's unit, bytes or characters) per second;
durations are clipped to :data:`DURATION_MS`; the frames' playback bar shows it. After
recording, the reader is put back where it was (paused), at its own speed.

Formats, by suffix: ``.gif`` (Pillow; frames on one 255-colour palette taken from the first
frame, loops forever; every frame is kept in memory until the file is encoded, so a GIF holds at
most :data:`MAX_GIF_PIXELS` pixels in all: about 1,300 frames of a 675 × 678 pane) and
``.mp4`` (H.264 through imageio-ffmpeg, the optional extra
``readsim[mp4]``: :func:`mp4_available`; constant :data:`MP4_FPS` frames per second, each frame
repeated for its duration; streamed, no frame limit). The file is encoded in memory (an MP4 in a
temporary folder first) and written atomically (:func:`readsim.core.atomic.write_bytes`),
only over a regular file.

Errors: ``ValueError`` (one line) for no article open or an article without text, an unknown
``what``/``per``, a suffix other than ``.gif``/``.mp4``, MP4 without imageio-ffmpeg, or more
frames than a GIF may hold; ``OSError`` naming the path when it cannot be written (a folder, a
FIFO, a device are refused before anything is recorded); :class:`Cancelled` when ``progress``
returns False.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QEventLoop
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from readsim.core.atomic import check_target, write_bytes

from .background import Cancelled  # raised here when the recording is cancelled (nothing written)

WHATS = ("pane", "window")
PERS = ("screen", "step")
SUFFIXES = (".gif", ".mp4")
MAX_GIF_PIXELS = 600_000_000  # a GIF's frames are all kept (1 byte a pixel) until Pillow encodes them
DURATION_MS = (20, 60_000)  # shortest frame most GIF viewers honour; longest: a minute
MP4_FPS = 25


@dataclass(frozen=True)
class Plan:
    """The frames of a recording: the screen's top (reading position, unit) of each frame and
    how long each is shown (ms)."""

    tops: tuple[int, ...]
    durations_ms: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.tops)


def _ms(chars: int, speed: int) -> int:
    return min(max(round(1000 * chars / speed), DURATION_MS[0]), DURATION_MS[1])


def plan(n: int, screen: int, per: str, speed: int, stride: int) -> Plan:
    """The :class:`Plan` of reading an order of ``n`` characters (unit) in screens of
    ``screen``: ``per="screen"`` the ``K = ceil(n / screen)`` screen starts ``0, screen, ...,
    (K-1)*screen``, each ``1000 * screen / speed`` ms; ``per="step"`` the positions ``0,
    stride, 2*stride, ...`` below the last screen's top ``(K-1)*screen``, with every screen
    start and that last top added, each shown ``1000 * (next - top) / speed`` ms (the last
    one ``1000 * screen / speed``). Durations clipped to :data:`DURATION_MS`. ``n = 0``: one
    frame at 0. Raises ``ValueError`` for an unknown ``per`` or a speed, screen or stride < 1."""
    if per not in PERS:
        raise ValueError(f"record per {per!r}: give one of {', '.join(PERS)}")
    if min(screen, speed, stride) < 1:
        raise ValueError("record: screen, speed and stride must be at least 1")
    k = max(1, math.ceil(n / screen))
    starts = [i * screen for i in range(k)]
    last = starts[-1]
    if per == "screen":
        return Plan(tuple(starts), tuple(_ms(screen, speed) for _ in starts))
    tops = sorted(set(range(0, last, stride)) | set(starts))
    durations = [_ms(b - a, speed) for a, b in zip(tops, tops[1:])] + [_ms(screen, speed)]
    return Plan(tuple(tops), tuple(durations))


def mp4_available() -> bool:
    """True when imageio and imageio-ffmpeg (``readsim[mp4]``) can be imported."""
    try:
        import imageio.v2  # noqa: F401
        import imageio_ffmpeg  # noqa: F401
    except ImportError:
        return False
    return True


def window_plan(window, per: str, speed: int | None = None) -> Plan:
    """The :class:`Plan` for ``window``'s open article at its reader's settings and ``speed``
    (default: the playback's speed). Raises ``ValueError`` when no article text is open."""
    cur = window.session.current
    if cur is None or cur.layout is None:
        raise ValueError("no article text is open: open an article to record its reading")
    pb = window.playback
    old = pb.speed
    pb.set_speed(speed if speed is not None else old)
    try:
        return plan(cur.evaluation.n, pb.screen, per, pb.speed, pb.stride())
    finally:
        pb.set_speed(old)


def frames(window, p: Plan, what: str = "pane") -> Iterator[QImage]:
    """Move ``window``'s reader to each top of ``p`` and yield the pane (or window) as painted
    then; the reader is put back (paused) when the iteration ends or is abandoned."""
    if what not in WHATS:
        raise ValueError(f"record {what!r}: give one of {', '.join(WHATS)}")
    pb = window.playback
    widget = window.article if what == "pane" else window
    pb.pause()
    was = pb.top
    try:
        for top in p.tops:
            pb.set_top(top)
            # the pane's labels and layout follow through posted events; no user input meanwhile
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
            yield widget.grab().toImage()
    finally:
        pb.set_top(was)


def pil_image(image: QImage):
    """``image`` as a Pillow RGB image (a copy)."""
    from PIL import Image

    image = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    return Image.frombuffer("RGB", (w, h), bytes(image.constBits()), "raw", "RGB", image.bytesPerLine(), 1).copy()


def gif_frames(images, progress: Callable[[int], bool] | None = None) -> list:
    """``images`` (``QImage``s, all one size) as Pillow palette images on the first frame's
    255-colour palette, every pixel mapped to its nearest colour without dithering: text stays
    crisp and an unchanged pixel gets the same index in every frame (median cut's own assignment
    of the first frame may differ), so the GIF stores only what changed from frame to frame.
    ``progress(i)`` after each frame; False cancels (:class:`Cancelled`)."""
    from PIL import Image

    out = []
    palette = None
    for i, image in enumerate(images):
        rgb = pil_image(image)
        if palette is None:
            palette = rgb.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
        out.append(rgb.quantize(palette=palette, dither=Image.Dither.NONE))
        if progress is not None and not progress(i + 1):
            raise Cancelled
    if not out:
        raise ValueError("no frames to record")
    return out


def gif_encode(frames: list, durations_ms) -> bytes:
    """An animated GIF (looping) of :func:`gif_frames`' ``frames``, frame ``i`` shown
    ``durations_ms[i]`` ms. Plain data only: may run in a worker thread."""
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=list(durations_ms)[:len(frames)],
                   loop=0, optimize=False)
    return buf.getvalue()


def gif_bytes(images, durations_ms, progress: Callable[[int], bool] | None = None) -> bytes:
    """:func:`gif_encode` of :func:`gif_frames`: the GIF of ``images``."""
    return gif_encode(gif_frames(images, progress), durations_ms)


def mp4_bytes(images, durations_ms, progress: Callable[[int], bool] | None = None) -> bytes:
    """An H.264 MP4 of ``images`` at :data:`MP4_FPS` frames per second, frame ``i`` repeated
    ``max(1, round(durations_ms[i] * MP4_FPS / 1000))`` times (sizes padded to even numbers,
    which yuv420p needs). Encoded through a temporary file, returned as bytes."""
    if not mp4_available():
        raise ValueError("MP4 needs imageio and imageio-ffmpeg: pip install 'readsim[mp4]' (or record a .gif)")
    import imageio.v2 as imageio
    import numpy as np

    durations = list(durations_ms)
    with tempfile.TemporaryDirectory(prefix="readsim-mp4-") as folder:
        tmp = os.path.join(folder, "recording.mp4")
        writer = None
        try:
            for i, image in enumerate(images):
                a = np.asarray(pil_image(image))
                h, w = a.shape[:2]
                a = np.pad(a, ((0, h % 2), (0, w % 2), (0, 0)), mode="edge")
                if writer is None:
                    writer = imageio.get_writer(tmp, format="FFMPEG", mode="I", fps=MP4_FPS, codec="libx264",
                                                pixelformat="yuv420p", macro_block_size=2, quality=8)
                for _ in range(max(1, round(durations[i] * MP4_FPS / 1000))):
                    writer.append_data(a)
                if progress is not None and not progress(i + 1):
                    raise Cancelled
        finally:
            if writer is not None:
                writer.close()
        if writer is None:
            raise ValueError("no frames to record")
        with open(tmp, "rb") as fh:
            return fh.read()


@dataclass(frozen=True)
class Capture:
    """A recording captured, not yet written: ``encode()`` returns the file's bytes from plain
    data (Pillow images, or the MP4 already encoded), so it may run in a worker thread."""

    path: Path
    frames: int
    encode: Callable[[], bytes]


def capture(window, path: str | Path, what: str = "pane", per: str = "screen", speed: int | None = None,
            progress: Callable[[int, int], bool] | None = None) -> Capture:
    """Play ``window``'s open article and grab its frames for ``path`` (``.gif`` or ``.mp4``),
    in the GUI thread: ``what`` ``"pane"`` or ``"window"``, ``per`` ``"screen"`` or ``"step"``,
    ``speed`` in characters (unit) per second (default the playback's). ``progress(done,
    total)`` after each frame; returning False cancels (:class:`Cancelled`). Nothing is written
    (:func:`record` writes). Raises ``ValueError`` and ``OSError`` (see the module)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"{path}: cannot record {suffix or 'a file without suffix'}; use one of {', '.join(SUFFIXES)}")
    if what not in WHATS:
        raise ValueError(f"record {what!r}: give one of {', '.join(WHATS)}")
    if suffix == ".mp4" and not mp4_available():
        raise ValueError("MP4 needs imageio and imageio-ffmpeg: pip install 'readsim[mp4]' (or record a .gif)")
    check_target(path)  # a folder, a FIFO, a device: refused before the work
    pb = window.playback
    old = pb.speed
    pb.set_speed(speed if speed is not None else old)  # the frames' playback bar shows the speed recorded
    try:
        p = window_plan(window, per)
        widget = window.article if what == "pane" else window
        most = max(1, MAX_GIF_PIXELS // max(widget.width() * widget.height(), 1))
        if suffix == ".gif" and len(p) > most:
            raise ValueError(f"{path}: {len(p):,} frames; a GIF holds at most {most:,} frames of "
                             f"{widget.width()} × {widget.height()} pixels: record per screen, with a larger "
                             "screen or a higher speed, or record an .mp4")
        tick = None if progress is None else (lambda i: progress(i, len(p)))
        with contextlib.closing(frames(window, p, what)) as images:  # the reader is put back even on cancel
            if suffix == ".gif":
                held = gif_frames(images, tick)
                return Capture(path, len(p), lambda: gif_encode(held, p.durations_ms))
            data = mp4_bytes(images, p.durations_ms, tick)
            return Capture(path, len(p), lambda: data)
    finally:
        pb.set_speed(old)


def record(window, path: str | Path, what: str = "pane", per: str = "screen", speed: int | None = None,
           progress: Callable[[int, int], bool] | None = None) -> Path:
    """:func:`capture` the playback of ``window``'s open article, encode it and write ``path``
    atomically (only over a regular file). Returns the path. Raises ``ValueError``, ``OSError``
    and :class:`Cancelled` (nothing written) as :func:`capture`."""
    c = capture(window, path, what, per, speed, progress)
    write_bytes(c.path, c.encode())
    return c.path
