"""Benchmark of figures and recordings (app/figure.py, app/recording.py) on real data, offscreen.

Opens article 1807158 (the largest article ``bert-passages.run`` ranks that the qrels judge:
220 KB of XML, 35,000 bytes of text) for topic 2009046 with the real qrels, run and collection
(``READSIM_DATA``, default ``../shared/data/inex``) and measures (wall time,
``time.perf_counter``, median of ``--repeat``):

- a figure of the relevant passage (bytes 7435 to 7586) as SVG, PDF and PNG (1,600 pixels);
- a figure of the visible screen as PNG;
- a recording per screen of 300 bytes: the time to grab one frame of the article pane (the
  reader moved, the pane painted), to map it to the GIF's palette, and to encode 50 frames
  (the part the window does in a worker), with the GIF's size.

Prints the machine's load average before and after (the machine is shared).
Usage: ``QT_QPA_PLATFORM=offscreen python bench/bench_render.py [--repeat 5]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    repeat = ap.parse_args().repeat
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from readsim.app import recording as rec
    from readsim.app.figure import build_figure, render_figure
    from readsim.app.main import parser, start, wait_idle
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session

    print(f"load average before: {os.getloadavg()}")
    args = parser().parse_args(["--collection", str(DATA / "articles"), "--qrels", str(DATA / "qrels" / "inex2009-2010.qrels"),
                                "--run", str(DATA / "runs" / "bert-passages.run"), "--topic", "2009046",
                                "--article", "1807158"])
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    start(session, window, args)
    window.show()
    wait_idle()
    app.processEvents()

    def figure(span, suffix):
        f = build_figure(window, span)
        try:
            return render_figure(f, suffix)
        finally:
            f.close()

    for suffix in (".svg", ".pdf", ".png"):
        ms = median_ms(lambda: figure((7435, 7586), suffix), repeat)
        print(f"figure of bytes 7435-7586 as {suffix[1:].upper()}: {ms:8.1f} ms")
    print(f"figure of the visible screen as PNG: {median_ms(lambda: figure(None, '.png'), repeat):8.1f} ms")

    p = rec.window_plan(window, "screen", 600)
    first = rec.Plan(p.tops[:50], p.durations_ms[:50])
    t0 = time.perf_counter()
    images = list(rec.frames(window, first, "pane"))
    grab = (time.perf_counter() - t0) * 1000.0 / len(images)
    t0 = time.perf_counter()
    held = rec.gif_frames(images)
    palette = (time.perf_counter() - t0) * 1000.0 / len(images)
    t0 = time.perf_counter()
    data = rec.gif_encode(held, first.durations_ms)
    encode = (time.perf_counter() - t0) * 1000.0
    print(f"recording: {grab:6.1f} ms a frame grabbed, {palette:6.1f} ms a frame to the palette, "
          f"{encode:7.1f} ms to encode 50 frames ({len(data) / 1e6:.2f} MB)")
    print(f"load average after: {os.getloadavg()}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
