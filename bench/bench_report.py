"""Benchmark of ``readsim-eval report`` at 120 topics x 5 runs: the time to write the report, its
size, and the time a real browser (headless Chromium) takes to load and draw it, against a blank
page's (the browser's own start-up, the floor).

The runs: the five real INEX runs with ``-c`` (every judged topic paired: 120 topics), the real
qrels and the 1,079 real articles (the articles of 3 topics drawn), ``--test t``; without the real
data the benchmark says so and stops. Times are the best of ``--repeat`` calls; the load average
is printed next to each figure. The aim: a report under 1 MB that the browser draws within a
second of its own start-up.

Usage: ``python bench/bench_report.py [--repeat 3]``
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(os.environ.get("READSIM_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "data" / "inex"))
BIN = Path(sys.executable).parent


def best(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def load() -> str:
    return f"(load {os.getloadavg()[0]:.1f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not (DATA / "qrels" / "inex2009-2010.qrels").is_file():
        print(f"bench_report: the real data is not at {DATA} (set READSIM_DATA)")
        return 1
    runs = sorted(str(p) for p in (DATA / "runs").glob("*.run"))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.html"
        command = [str(BIN / "readsim-eval"), "report", str(DATA / "qrels" / "inex2009-2010.qrels"), *runs, "-c",
                   "--collection", str(DATA / "articles"), "--test", "t", "-o", str(out)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = best(args.repeat, lambda: subprocess.run(command, check=True, capture_output=True))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / args.repeat
        text = out.read_text(encoding="utf-8")
        print(f"readsim-eval report, 5 runs x {text.count('<tr data-topic=')} topics: {wall:.1f} s wall, "
              f"{cpu:.1f} s CPU per call {load()}")
        print(f"size: {out.stat().st_size:,} bytes ({text.count('<svg')} inline SVG figures, "
              f"{text.count('readsim-article')} article views)")
        browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
                       None)
        if browser is None:
            print("no chromium: the load time is not measured")
            return 0
        blank = Path(folder) / "blank.html"
        blank.write_text("<!DOCTYPE html><title>blank</title>")

        def shot(page: Path):
            subprocess.run([browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            "--window-size=1280,720", f"--screenshot={folder}/shot.png", page.as_uri()],
                           check=True, capture_output=True, timeout=300)

        floor = best(args.repeat, lambda: shot(blank))
        drawn = best(args.repeat, lambda: shot(out))
        print(f"Chromium, load and draw at 1280x720: {drawn:.2f} s; a blank page {floor:.2f} s; the report's own "
              f"{drawn - floor:.2f} s {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
