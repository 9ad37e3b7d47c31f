"""Benchmark of ``readsim-eval compare``: 50 runs x 120 topics x 4 measures, 1,000 bootstrap
resamples (the aim: under 10 s), as a ratio to floors measured in the same run.

The runs: with the real data, 50 copies of ``indri-passages.run`` (120 topics, 100 articles
each, 37,350 lines) whose rankings are shuffled more and more (run k shuffles k/49 of each
topic's ranks: a range of qualities, so some pairs are significant and some not), against the
real qrels; without it, bench_eval's synthetic run of that shape and its qrels.

Floors (what the command cannot avoid):

- **read the runs**: ``read_any_run`` on the 50 files in this process;
- **start-up**: ``python -c "import numpy, scipy.stats"`` (the command needs scipy.stats).

What is measured:

1. in this process: reading and evaluating the 50 runs with the four measures, and again as
   whole documents (the baseline correlations), against the read floor;
2. the statistics alone (:func:`readsim.core.run_comparison.compare_evaluations` on those evaluations) with
   each test: bootstrap (the aim), t, randomization;
3. the whole command, ``readsim-eval compare QRELS --runs DIR -m ... -m ...`` in a process of its
   own (bytecode cached, as installed), against the 10 s aim and both floors.

Times are the best of ``--repeat`` calls. The load average is printed next to each figure.

Usage: ``python bench/bench_compare.py [--repeat 3] [--runs 50]``
"""

from __future__ import annotations

import argparse
import io
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_eval import DATA, MEASURES, _env, best_of, load, synthesize

from readsim.cli.compare_command import build_parser as build_compare_parser
from readsim.cli.compare_command import evaluate_runs
from readsim.core.formats import read_any_run

AIM = 10.0
BIN = Path(sys.executable).parent


def shuffled_copies(run: Path, folder: Path, count: int, seed: int = 3) -> list[Path]:
    """``count`` copies of ``run``; copy k shuffles a share k / (count - 1) of each topic's ranks
    (copy 0 is the run itself)."""
    rng = random.Random(seed)
    by_topic: dict[str, dict[str, list[str]]] = {}
    for line in run.read_text().splitlines():
        f = line.split()
        by_topic.setdefault(f[0], {}).setdefault(f[2], []).append(line)
    out = []
    for k in range(count):
        share = k / max(1, count - 1)
        lines = []
        for articles in by_topic.values():
            names = list(articles)
            picked = sorted(rng.sample(range(len(names)), round(share * len(names))))
            moved = [names[i] for i in picked]
            rng.shuffle(moved)
            for i, name in zip(picked, moved):
                names[i] = name
            lines += [x for a in names for x in articles[a]]
        path = folder / f"run{k:02d}.run"
        path.write_text("\n".join(lines) + "\n")
        out.append(path)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--runs", type=int, default=50)
    args = p.parse_args()
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {load()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "runs"
        folder.mkdir()
        real = DATA / "runs" / "indri-passages.run"
        if real.is_file():
            qrels = DATA / "qrels" / "inex2009-2010.qrels"
            source = real
            what = f"{args.runs} shuffled copies of {real.name} against the real qrels"
        else:
            qrels, source = synthesize(Path(tmp), 120, 100, 3)
            what = f"{args.runs} shuffled copies of a synthetic run (120 topics x 100 articles x 3 passages)"
        paths = shuffled_copies(source, folder, args.runs)
        lines = sum(1 for path in paths for _ in open(path, "rb"))
        print(f"{what}: {lines:,} lines in all; measures {', '.join(MEASURES)}")

        _, read_floor, _ = best_of(args.repeat, lambda: [read_any_run(path) for path in paths])
        start_floor = _best_process([str(BIN / "python"), "-c", "import numpy, scipy.stats"], args.repeat)
        print(f"floors: read the runs {read_floor:.2f} s; start-up with numpy and scipy.stats {start_floor:.2f} s "
              f"({load()})")

        measure_args = [a for m in MEASURES for a in ("-m", m)]
        ns = build_compare_parser().parse_args([str(qrels), *map(str, paths), *measure_args])
        ns.runs = [str(path) for path in paths]
        _, t_eval, (evaluations, baselines) = best_of(
            args.repeat, lambda: evaluate_runs(ns, _parsed(MEASURES), True, io.StringIO()))
        print(f"\n1. read + evaluate (and as documents) in this process: {t_eval:.2f} s = "
              f"{t_eval / read_floor:.1f}x the read floor ({load()})")

        from readsim.core.run_comparison import compare_evaluations

        print("2. the statistics alone (50 runs: 1,225 pairs x 4 measures; scipy already imported):")
        for test in ("bootstrap", "t", "randomization"):
            _, t_stats, c = best_of(args.repeat, lambda: compare_evaluations(
                evaluations, _parsed(MEASURES), baselines, test=test, resamples=1000, seed=0))
            counts = ", ".join(f"{c.significant_count(k)[0]}" for k in range(len(MEASURES)))
            print(f"   {test:<14} {t_stats:6.2f} s   (significant pairs per measure: {counts} of "
                  f"{c.significant_count(0)[1]}; {load()})")

        cmd = [str(BIN / "readsim-eval"), "compare", str(qrels), "--runs", str(folder), *measure_args]
        whole = _best_process(cmd, args.repeat)
        verdict = "within" if whole <= AIM else "OVER"
        print(f"\n3. readsim-eval compare, whole process: {whole:.2f} s ({verdict} the {AIM:.0f} s aim: "
              f"{whole / AIM:.2f}x of it); {whole / read_floor:.1f}x the read floor, {whole / start_floor:.1f}x the "
              f"start-up floor ({load()})")


def _parsed(names):
    from readsim.core.measure import parse_list_measure

    return [parse_list_measure(m) for m in names]


def _best_process(cmd: list[str], repeat: int) -> float:
    """Best wall time of ``cmd`` over ``repeat`` calls, after a warm-up call (bytecode cached)."""
    best = float("inf")
    for k in range(repeat + 1):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(), check=True)
        if k:
            best = min(best, time.perf_counter() - t)
    return best


if __name__ == "__main__":
    main()
