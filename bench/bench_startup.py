"""Benchmark of the window's first screenshot of real data against a bare PySide6 window.

Issue 9, item 4: ``readsim --collection --qrels --run --topics --topic 2009074 --article 23724
--screenshot out.png`` (a process of its own, offscreen) against its floor: a bare PySide6
process that shows a window holding an image of the same size and writes its screenshot. Both
are whole processes (interpreter start-up and imports included), best of ``--repeat``, measured
in the same run; the ratio is printed with the machine's load average. Both with bytecode cached
in a temporary folder (``PYTHONPYCACHEPREFIX``), as an installed package has it (pip compiles it
at install; this project's environment sets ``PYTHONDONTWRITEBYTECODE``, which made every call
compile readsim's modules again: 80-100 ms), after a first, untimed call. Real data from
``READSIM_DATA`` (default ``../shared/data/inex``).

Usage: ``python bench/bench_startup.py [--repeat 3]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))

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
"""


def best_of(repeat: int, argv: list[str]) -> float:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "readsim-bench-pycache")
    subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not (DATA / "qrels" / "inex2009-2010.qrels").is_file():
        print(f"real data not found at {DATA}")
        return 0
    out = Path(tempfile.mkdtemp())
    shot = out / "readsim.png"
    readsim = [sys.executable, "-m", "readsim.app.main", "--collection", str(DATA / "articles"),
               "--qrels", str(DATA / "qrels" / "inex2009-2010.qrels"), "--run", str(DATA / "runs" / "bert-passages.run"),
               "--topics", str(DATA / "topics" / "inex2009-topics.xml"), "--topic", "2009074", "--article", "23724",
               "--screenshot", str(shot)]
    load = os.getloadavg()[0]
    window = best_of(args.repeat, readsim)  # also leaves the screenshot the floor loads
    bare = best_of(args.repeat, [sys.executable, "-c", BARE, str(shot), str(out / "bare.png")])
    print(f"load average {load:.2f} -> {os.getloadavg()[0]:.2f}; best of {args.repeat}")
    print(f"  bare PySide6 window showing a {shot.stat().st_size:,}-byte screenshot: {bare * 1000:7.0f} ms")
    print(f"  readsim, first screenshot of real data:                   {window * 1000:7.0f} ms = {window / bare:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
