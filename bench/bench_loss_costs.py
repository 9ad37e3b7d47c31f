"""Benchmark of the per-article costs (engine/core/costs.py, reference section 5.11).

What is measured, each the best of ``--repeat`` calls:

1. :func:`readsim.core.costs.article_costs` under AgP/F(0.25) (browse and rank costs from
   cumulative sums) and under ANCE@50/LE(300) (the ``(n, n)`` matrices) for one synthetic topic
   of n = 100, 1,500 (an INEX run's depth) and 4,000 ranked articles, 10% relevant;
2. ``readsim-eval loss`` on every topic of indri-passages.run against bert-passages-map199.run
   (``readsim.cli.main`` in this process, output to memory).

The load average is printed: run it on a quiet machine. Needs the real data for 2
(``READSIM_DATA``, default ``../shared/data/inex``).

Usage: ``python bench/bench_loss_costs.py [--repeat 3]``
"""

from __future__ import annotations

import argparse
import io
import os
import time
from pathlib import Path

import numpy as np

from readsim.cli import main
from readsim.core.costs import article_costs, split
from readsim.core.measure import DocMeasure, parse_list_measure

DATA = Path(os.environ.get("READSIM_DATA", Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "inex"))


def best(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        work()
        times.append(time.perf_counter() - t)
    return min(times)


def synthetic(n: int, doc: DocMeasure, rng) -> object:
    rel = rng.random(n) < 0.1
    effort = doc.lower_is_better
    s = np.where(rel, rng.integers(1, 5, n) if effort else rng.random(n), 5.0 if effort else 0.0)
    ideal = np.where(rel, 1.0, 5.0 if effort else 0.0)
    rsize = np.where(rel, rng.integers(1, 1000, n), 0)
    return split(doc, [str(k) for k in range(n)], rel, rsize, s, ideal, int(rel.sum()) + 3)


def run(repeat: int) -> None:
    print(f"load average: {os.getloadavg()}")
    rng = np.random.default_rng(0)
    for name in ("AgP/F(0.25)", "ANCE@50/LE(300)"):
        m = parse_list_measure(name)
        for n in (100, 1500, 4000):
            loss = synthetic(n, m.doc, rng)
            print(f"article_costs {name:<16} n = {n:>5}: {best(repeat, lambda: article_costs(loss, m)) * 1000:8.1f} ms")
    if (DATA / "runs" / "indri-passages.run").is_file():
        argv = ["loss", str(DATA / "qrels" / "inex2009-2010.qrels"), str(DATA / "runs" / "indri-passages.run"),
                "--vs", str(DATA / "runs" / "bert-passages-map199.run"), "--format", "tsv"]
        seconds = best(repeat, lambda: main(argv, io.StringIO(), io.StringIO()))
        print(f"readsim-eval loss, every topic, --vs: {seconds:.2f} s")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    run(p.parse_args().repeat)
