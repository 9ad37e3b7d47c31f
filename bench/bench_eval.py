"""Benchmark of whole-run evaluation (``readsim-eval``'s list measures) against reading the files.

Two inputs: the real INEX 2009/2010 qrels with ``runs/bert-passages.run`` (``READSIM_DATA``,
default ``../shared/data/inex``; skipped when absent), and a synthetic run at the largest INEX
scale (120 topics x 1,500 articles x 3 passages = 540,000 lines, with qrels of 80 relevant
articles per topic), written to a temporary folder. For each, prints the time to read the
qrels and the run, then the time of each measure evaluated alone (the run's articles read
once per call) and of all of them in one call, with its ratio to the reading time. The aim:
the evaluation costs no more than reading the inputs twice (ratio <= 2).

Usage: ``python bench/bench_eval.py [--topics 120] [--articles 1500] [--passages 3] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

from readsim.engine.formats import read_qrels, read_run
from readsim.engine.listmeasures import evaluate
from readsim.engine.measure import parse_list_measure

MEASURES = ["AgP/F(0.25)", "AgP/aveChP", "AgP/T2IF(300)", "ANCE@600/LE(300)"]
ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))


def best_of(repeat: int, fn):
    """Best wall time of ``repeat`` calls, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def synthesize(folder: Path, topics: int, articles: int, passages: int, relevant: int = 80, seed: int = 7) -> tuple[Path, Path]:
    """Write ``synthetic.qrels`` and ``synthetic.run`` (FOL, 8 fields) into ``folder``."""
    rng = random.Random(seed)
    q_lines, r_lines = [], []
    for t in range(topics):
        topic = str(2009001 + t)
        pool = rng.sample(range(1, 10_000_000), articles + relevant // 4)
        rel = pool[:relevant]
        lengths = {}
        for a in rel:
            n = rng.randint(2_000, 60_000)
            lengths[a] = n
            cuts = sorted(rng.sample(range(n), 2 * rng.randint(1, 3)))
            spans = [(cuts[k], cuts[k + 1]) for k in range(0, len(cuts), 2)]
            text = " ".join(f"{s}:{e - s}" for s, e in spans)
            q_lines.append(f"{topic} Q0 {a} {sum(e - s for s, e in spans)} {n} {spans[0][0]} {text}")
        ranked = rel[: relevant * 3 // 4] + pool[relevant:]  # most relevant articles retrieved
        rng.shuffle(ranked)
        for rank, a in enumerate(ranked[:articles], 1):
            n = lengths.get(a) or rng.randint(2_000, 60_000)
            cuts = sorted(rng.sample(range(n), 2 * passages))
            for k in range(0, len(cuts), 2):
                r_lines.append(f"{topic} Q0 {a} {rank} {1 / rank:.6f} synthetic {cuts[k]} {cuts[k + 1] - cuts[k]}")
    qrels, run = folder / "synthetic.qrels", folder / "synthetic.run"
    qrels.write_text("\n".join(q_lines) + "\n")
    run.write_text("\n".join(r_lines) + "\n")
    return qrels, run


def bench(label: str, qrels_path: Path, run_path: Path, repeat: int) -> None:
    lines = sum(1 for _ in open(run_path, "rb"))
    t_qrels, qrels = best_of(repeat, lambda: read_qrels(qrels_path))
    t_run, run = best_of(repeat, lambda: read_run(run_path))
    read = t_qrels + t_run
    n = sum(len(v) for v in run.topics.values())
    print(f"\n{label}: {len(run.topics)} topics, {n:,} ranked articles, {lines:,} run lines")
    print(f"  {'reading the qrels and the run':<34} {read:8.3f} s   (qrels {t_qrels:.3f} s, run {t_run:.3f} s)")
    print(f"  {'measure':<34} {'time':>8}     ratio to reading   value (all)")
    for name in MEASURES + ["all four in one call"]:
        measures = [parse_list_measure(m) for m in (MEASURES if name.startswith("all") else [name])]
        t, result = best_of(repeat, lambda: evaluate(qrels, run, measures))
        value = "" if name.startswith("all") else f"{result.means[name]:.6f}"
        print(f"  {name:<34} {t:8.3f} s   {t / read:6.2f}             {value}")
    print(f"  whole job (read + all four)        {read + t:8.3f} s   {(read + t) / read:6.2f} x reading")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--topics", type=int, default=120)
    p.add_argument("--articles", type=int, default=1500)
    p.add_argument("--passages", type=int, default=3)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    real_qrels = DATA / "qrels" / "inex2009-2010.qrels"
    if real_qrels.is_file():
        bench("real: bert-passages.run", real_qrels, DATA / "runs" / "bert-passages.run", args.repeat)
    else:
        print(f"real data not found at {DATA} (set READSIM_DATA); skipped")
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        qrels, run = synthesize(Path(d), args.topics, args.articles, args.passages)
        print(f"\n(synthetic files written in {time.perf_counter() - t:.1f} s)")
        bench(f"synthetic: {args.topics} topics x {args.articles} articles x {args.passages} passages",
              qrels, run, args.repeat)


if __name__ == "__main__":
    main()
