"""Benchmark of readsim's Python API against ``readsim-eval`` in the same process.

Floor: ``readsim-eval``'s own work without its start-up, i.e. ``readsim.cli.main`` called
in this process (``--jobs 1``: one process, as the API evaluates; output to memory), on the five
real INEX runs. What is measured, each as the best of ``--repeat`` calls (interleaved with the floor's) and as a ratio to its
floor (target: at most 1.0x plus noise, the API building a DataFrame of the same rows):

1. the list measures of the README (AgP/F(0.25), gP@10/F(0.25), MAiP, ANCE@600/LE(300)) of the
   five runs with ``-q``: ``readsim.evaluate(QRELS_PATH, runs, per="topic")`` against the CLI;
2. the same with a ``readsim.Qrels`` read once before (the notebook's way): the qrels are not
   read or prepared again, so each call costs less than the CLI's;
3. one more run against that ``Qrels`` object against the CLI on that run alone (a second run
   does not prepare the qrels again);
4. document measures per article (``per="article"`` against ``--per-article``).

The load average is printed: run it on a quiet machine. Needs the real data (``READSIM_DATA``,
default ``../shared/data/inex``).

Usage: ``python bench/bench_api.py [--repeat 3]``
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
import warnings
from pathlib import Path

import readsim
from readsim.cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))
LIST = ["AgP/F(0.25)", "gP@10/F(0.25)", "MAiP", "ANCE@600/LE(300)"]
DOC = ["F(0.25)", "T2IF(300)", "LE(300)"]


def best(repeat: int, *calls) -> list[float]:
    """The best time of each call over ``repeat`` rounds, the calls interleaved (a busy machine
    slows both alike)."""
    times = [[] for _ in calls]
    for _ in range(repeat):
        for k, call in enumerate(calls):
            t = time.perf_counter()
            call()
            times[k].append(time.perf_counter() - t)
    return [min(t) for t in times]


def cli(*argv) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert cli_main([*map(str, argv), "--jobs", "1"], out, err) == 0, err.getvalue()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    qrels_path = DATA / "qrels" / "inex2009-2010.qrels"
    if not qrels_path.is_file():
        sys.exit(f"real data not found at {DATA} (set READSIM_DATA)")
    runs = sorted((DATA / "runs").glob("*.run"))
    flags = [a for m in LIST for a in ("-m", m)]
    warnings.simplefilter("ignore", readsim.InputWarning)
    qrels = readsim.read_qrels(qrels_path)

    rows = [
        ("5 runs, list measures, -q", lambda: cli(qrels_path, *runs, "-q", *flags),
         lambda: readsim.evaluate(qrels_path, runs, LIST, per="topic")),
        ("5 runs, a Qrels read before", lambda: cli(qrels_path, *runs, "-q", *flags),
         lambda: readsim.evaluate(qrels, runs, LIST, per="topic")),
        ("1 more run against that Qrels", lambda: cli(qrels_path, runs[-1], "-q", *flags),
         lambda: readsim.evaluate(qrels, runs[-1], LIST, per="topic")),
        ("5 runs, per article", lambda: cli(qrels_path, *runs, "--per-article", *[a for m in DOC for a in ("-m", m)]),
         lambda: readsim.evaluate(qrels, runs, DOC, per="article")),
    ]
    print(f"load average {os.getloadavg()[0]:.2f}; best of {args.repeat}")
    print(f"{'':34} {'readsim-eval':>12} {'readsim API':>12} {'ratio':>7}")
    for label, floor, api in rows:
        floor(), api()  # warm: files in the page cache, modules imported
        f, a = best(args.repeat, floor, api)
        print(f"{label:34} {f:11.3f}s {a:11.3f}s {a / f:6.2f}x")


if __name__ == "__main__":
    main()
