"""Benchmark of the window's start-up on real data against a bare PySide6 window.

The window started on real data (``readsim --collection --qrels --run --topics
--topic 2009074 --article 23724``, a process of its own, offscreen) against its floor, a bare
PySide6 process that shows a window holding an image of the same size and writes its
screenshot. Each process is timed from its start until its image is written (it prints a line
then; what it does after, tearing down, is not start-up), best of ``--repeat``, all in the same
run, with the machine's load average:

- **first frame**: the interactive window (fresh settings), grabbed on the first turn of the
  event loop after article 23724 is shown (text, assessments, passages, chain and scores; the
  ranked list, the topic's list scores and the plots as far as they are ready then: the plots
  are built once the loading is done, see ``readsim.app.widgets.deferred``). Its image is saved
  beside the others (``--keep DIR``) to look at.
- **complete**: ``--screenshot out.png``, which waits for every load and builds every plot.

Bytecode is cached in a temporary folder (``PYTHONPYCACHEPREFIX``), as an installed package has
it (pip compiles it at install; this project's environment sets ``PYTHONDONTWRITEBYTECODE``, which
made every call compile readsim's modules again: 80-100 ms), after a first, untimed call. Real
data from ``READSIM_DATA`` (default ``../shared/data/inex``).

Usage: ``python bench/bench_startup.py [--repeat 5] [--keep DIR]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))
TOPIC, ARTICLE = "2009074", "23724"

BARE = """
import sys
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication([])
label = QLabel()
label.setPixmap(QPixmap(sys.argv[1]))
label.resize(label.pixmap().size())
label.show()
app.processEvents()
label.grab().save(sys.argv[2])
print("written", flush=True)
"""

# the interactive window, grabbed on the first turn of the event loop once the article shows
FIRST_FRAME = """
import os, sys
from readsim.app import main as m

ARTICLE, OUT = sys.argv[1], sys.argv[2]
start = m.start


def watched(session, window, args):
    from PySide6.QtCore import QTimer

    def shown():
        cur = session.current
        if cur is not None and cur.name == ARTICLE:
            session.article_changed.disconnect(shown)

            def grab():
                from PySide6.QtCore import QCoreApplication, QEvent

                # the layouts a paint would settle first (grab() renders the geometry as it is)
                QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
                window.grab().save(OUT)
                print("written", flush=True)
                os._exit(0)  # the measure ends here: the window would go on

            QTimer.singleShot(0, grab)

    session.article_changed.connect(shown)
    start(session, window, args)


m.start = watched
sys.exit(m.main(sys.argv[3:]))
"""


def until_written(repeat: int, argv: list[str], env: dict) -> float:
    """Best time from starting ``argv`` until it prints its "written" line."""
    def once() -> float:
        t = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in proc.stdout:
            if line.startswith(("written", "readsim: wrote")):
                elapsed = time.perf_counter() - t
                break
        else:
            raise RuntimeError(f"{argv[:3]}... wrote no image (exit {proc.wait()})")
        proc.stdout.close()
        proc.wait()
        return elapsed

    once()  # warm: bytecode, file cache
    return min(once() for _ in range(repeat))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", metavar="DIR", help="copy the images there (first-frame.png, complete.png)")
    args = parser.parse_args()
    if not (DATA / "qrels" / "inex2009-2010.qrels").is_file():
        print(f"real data not found at {DATA}")
        return 0
    out = Path(tempfile.mkdtemp())
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(out / "config"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "readsim-bench-pycache")
    files = ["--collection", str(DATA / "articles"), "--qrels", str(DATA / "qrels" / "inex2009-2010.qrels"),
             "--run", str(DATA / "runs" / "bert-passages.run"), "--topics", str(DATA / "topics" / "inex2009-topics.xml"),
             "--topic", TOPIC, "--article", ARTICLE]
    first_png, complete_png = out / "first-frame.png", out / "complete.png"
    load = os.getloadavg()[0]
    first = until_written(args.repeat, [sys.executable, "-c", FIRST_FRAME, ARTICLE, str(first_png), *files], env)
    complete = until_written(args.repeat, [sys.executable, "-m", "readsim.app.main", *files,
                                           "--screenshot", str(complete_png)], env)
    bare = until_written(args.repeat, [sys.executable, "-c", BARE, str(complete_png), str(out / "bare.png")], env)
    print(f"load average {load:.2f} -> {os.getloadavg()[0]:.2f}; best of {args.repeat}, start until the image is written")
    print(f"  bare PySide6 window showing a {complete_png.stat().st_size:,}-byte screenshot: {bare * 1000:7.0f} ms")
    print(f"  readsim, first frame with article {ARTICLE} shown:          {first * 1000:7.0f} ms = {first / bare:.2f}x")
    print(f"  readsim --screenshot, everything loaded and plotted:      {complete * 1000:7.0f} ms = {complete / bare:.2f}x")
    if args.keep:
        keep = Path(args.keep)
        keep.mkdir(parents=True, exist_ok=True)
        for png in (first_png, complete_png):
            shutil.copy(png, keep / png.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
