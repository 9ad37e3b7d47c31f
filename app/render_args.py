"""``readsim``'s headless renderings besides ``--screenshot``: ``--figure`` and ``--record``.

    readsim ... --screenshot FILE|--figure FILE|--record FILE [--size WxH]   # the window's size
    readsim ... --figure FILE.svg|.pdf|.png [--range START:END] [--figure-width PX] [--step K]
    readsim ... --record FILE.gif|.mp4 [--record-what pane|window] [--record-per screen|step]
                [--record-speed CPS]

Both run once everything is loaded, like ``--screenshot`` (offscreen, the user's settings read
but not written), on the article ``--article`` names (or the default one). ``--figure``:
:func:`readsim.app.figure.export_figure`, the unit range ``START:END`` (bytes, or characters
with ``--unit chars``) or, without ``--range``, the visible screen (after ``--step K``
screens); ``--figure-width``: the PNG's width in pixels. ``--size WxH`` (:func:`parse_size`,
default :data:`DEFAULT_SIZE`): the window's size in pixels for all three (a slide at a
projector's size), a bad value bad usage (exit 2) naming it. ``--record``:
:func:`readsim.app.recording.record`. Exit status (:func:`render_outputs`): 0 written; 1 with
one line ``readsim: error: ...`` for a bad range, a width out of range, a suffix neither
writes, MP4 without imageio-ffmpeg, or a file that cannot be written; options of one given
without it are bad usage (exit 2, :func:`check_render_usage`).

Nothing here imports Qt at import time (``readsim.app.main`` imports it after its start-up guard).
"""

from __future__ import annotations

import argparse
from pathlib import Path

FIGURE_SUFFIXES = (".svg", ".pdf", ".png")
RECORD_SUFFIXES = (".gif", ".mp4")
SPEED_RANGE = (10, 200_000)  # the playback's (readsim.app.playback.SPEED_RANGE)
DEFAULT_SIZE = (1600, 1000)  # the window's size in a picture (readsim.app.mainwindow.DEFAULT_SIZE)
SIZE_RANGE = ((640, 480), (7680, 4320))  # --size: the least and the largest WxH


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> ``(1280, 720)`` (``X`` or ``×`` too), within :data:`SIZE_RANGE`. Raises
    ``argparse.ArgumentTypeError`` (argparse then names ``--size``, exit 2)."""
    (low_w, low_h), (high_w, high_h) = SIZE_RANGE
    parts = text.strip().lower().replace("×", "x").split("x")
    try:
        if len(parts) != 2:
            raise ValueError
        w, h = int(parts[0]), int(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text}: give WIDTHxHEIGHT in pixels, e.g. 1280x720") from None
    if not (low_w <= w <= high_w and low_h <= h <= high_h):
        raise argparse.ArgumentTypeError(f"{text}: give {low_w}x{low_h} to {high_w:,}x{high_h:,} pixels")
    return w, h


def render_size(args: argparse.Namespace) -> tuple[int, int]:
    """The window's size for ``--screenshot``, ``--figure`` and ``--record``: ``--size`` or
    :data:`DEFAULT_SIZE`."""
    return getattr(args, "size", None) or DEFAULT_SIZE


def parse_range(text: str) -> tuple[int, int]:
    """``"START:END"`` -> ``(START, END)``, whole numbers (bounds are checked against the
    article by :func:`readsim.app.figure.build_figure`). Raises ``ValueError``:
    ``--range 10-20: give START:END, two whole numbers (offsets in the unit)``."""
    parts = text.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        return int(parts[0]), int(parts[1])
    except ValueError:
        raise ValueError(f"--range {text}: give START:END, two whole numbers (offsets in the unit)") from None


def add_render_arguments(p: argparse.ArgumentParser) -> None:
    """``--size``, ``--figure``, ``--range``, ``--figure-width``, ``--record``, ``--record-what``,
    ``--record-per``, ``--record-speed``."""
    p.add_argument("--size", type=parse_size, default=None, metavar="WxH",
                   help="with --screenshot, --figure or --record: the window's size in pixels, "
                   f"{SIZE_RANGE[0][0]}x{SIZE_RANGE[0][1]} to {SIZE_RANGE[1][0]}x{SIZE_RANGE[1][1]} "
                   f"(default {DEFAULT_SIZE[0]}x{DEFAULT_SIZE[1]})")
    p.add_argument("--figure", metavar="FILE", help="write the open article as a figure (.svg, .pdf or .png): "
                   "marks, chain and a legend, no selection, no scroll bar; written atomically; then exit")
    p.add_argument("--range", metavar="START:END", help="with --figure: the article's offsets START to END (in the "
                   "unit: bytes, or characters with --unit chars); default: the visible screen")
    p.add_argument("--figure-width", type=int, default=None, metavar="PX",
                   help="with --figure: the PNG's width in pixels (default 1600)")
    p.add_argument("--record", metavar="FILE", help="write the playback of the open article as an animated .gif "
                   "(or .mp4 with readsim[mp4]), written atomically; then exit")
    p.add_argument("--record-what", choices=("pane", "window"), default=None,
                   help="with --record: the article pane (default) or the whole window")
    p.add_argument("--record-per", choices=("screen", "step"), default=None,
                   help="with --record: one frame per screen (default) or per playback step at the speed")
    p.add_argument("--record-speed", type=int, default=None, metavar="CPS",
                   help="with --record: reading speed in characters (of the unit) per second (default 600)")


def headless(args: argparse.Namespace) -> bool:
    """True when the window renders files and exits (``--screenshot``, ``--figure``, ``--record``)."""
    return bool(args.screenshot or getattr(args, "figure", None) or getattr(args, "record", None))


def outputs(args: argparse.Namespace) -> list[str]:
    """The files the run writes (checked before loading)."""
    return [p for p in (args.screenshot, args.figure, args.record) if p]


def check_render_usage(args: argparse.Namespace) -> list[str]:
    """Options given without the output they go with (bad usage, exit 2)."""
    out = []
    if getattr(args, "size", None) is not None and not headless(args):
        out.append("--size WxH goes with --screenshot, --figure or --record (the picture's window size); "
                   "the window opens at the screen's size")
    for name, value, owner in (("--range", args.range, "figure"), ("--figure-width", args.figure_width, "figure"),
                               ("--record-what", args.record_what, "record"), ("--record-per", args.record_per, "record"),
                               ("--record-speed", args.record_speed, "record")):
        if value is not None and not getattr(args, owner):
            out.append(f"{name} goes with --{owner} FILE")
    return out


def check_render_values(args: argparse.Namespace) -> list[str]:
    """Problems found before loading (exit 1): a suffix neither output writes, a range that is
    not ``START:END``, a width or speed out of range."""
    out = []
    for flag, path, allowed in (("--figure", args.figure, FIGURE_SUFFIXES), ("--record", args.record, RECORD_SUFFIXES)):
        if path and Path(path).suffix.lower() not in allowed and not Path(path).is_dir():
            out.append(f"{flag} {path}: give a file ending in {', '.join(allowed)}")
    if args.range is not None:
        try:
            parse_range(args.range)
        except ValueError as exc:
            out.append(str(exc))
    if args.figure_width is not None:
        from .figure import WIDTH_RANGE  # imports Qt: only when a width is given

        low, high = WIDTH_RANGE
        if not low <= args.figure_width <= high:
            out.append(f"--figure-width {args.figure_width}: give {low} to {high:,} pixels")
    if args.record_speed is not None and not SPEED_RANGE[0] <= args.record_speed <= SPEED_RANGE[1]:
        out.append(f"--record-speed {args.record_speed}: give {SPEED_RANGE[0]} to {SPEED_RANGE[1]:,} characters per second")
    return out


def render_outputs(window, args: argparse.Namespace, error) -> int:
    """Write ``--figure`` and ``--record`` for ``window`` (loaded); 0, or 1 after ``error(text)``
    for the first that fails (:func:`write_output`)."""
    jobs = []
    if args.figure:
        from .figure import DEFAULT_WIDTH, export_figure

        span = parse_range(args.range) if args.range else None
        jobs.append((args.figure, lambda: export_figure(window, args.figure, span, args.figure_width or DEFAULT_WIDTH)))
    if args.record:
        from .recording import record

        jobs.append((args.record, lambda: record(window, args.record, args.record_what or "pane",
                                                 args.record_per or "screen", args.record_speed)))
    for path, job in jobs:
        code = write_output(path, job, error)
        if code:
            return code
    return 0


def write_output(path, job, error, value_code: int = 1) -> int:
    """Run ``job()`` (which writes ``path``) and note it (:func:`note_written`): 0; else the exit
    status after ``error(text)``: ``value_code`` for a ``ValueError`` (its one line), 1 for an
    ``OSError`` (``path: reason``)."""
    from readsim.core.streams import describe_os_error

    try:
        job()
    except ValueError as exc:
        error(str(exc))
        return value_code
    except OSError as exc:
        error(describe_os_error(exc, path))
        return 1
    return 1 if note_written(path, error) else 0


def note_written(path, error) -> int:
    """Print ``readsim: wrote PATH`` on standard output: 0; with standard output closed by the
    caller the note is dropped (0); when it cannot be written (full), 1 after
    ``error("<stdout>: reason")``. The file itself is written either way."""
    import sys

    from readsim.core import streams
    from readsim.core.streams import describe_os_error, silence

    try:
        print(f"readsim: wrote {path}", file=streams.output(), flush=True)
    except BrokenPipeError:
        silence(sys.stdout)
    except OSError as exc:
        silence(sys.stdout)
        if sys.stdout is not None:  # closed by the caller: the file is written, the note is dropped
            error(describe_os_error(exc, "<stdout>"))
            return 1
    return 0
