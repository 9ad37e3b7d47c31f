"""Benchmark of whole-run evaluation: every figure as a ratio to its floor, measured in this run.

Floors (what no Python evaluator can beat):

- **plain read**: a plain Python read of the same run file, ``for line in f: line.split()``;
- **numpy start-up**: ``python -c "import numpy"``, for the command line on the real run.

What is measured (the targets in brackets):

1. the real run ``bert-passages.run`` in one process: reading the qrels and the run and
   evaluating ``AgP/F(0.25)`` alone, then the four measures of the README in one call, against
   the plain read of the run [no target: the real run is small, start-up dominates];
2. the real run through ``readsim-eval`` (a process of its own, the four measures) against the
   numpy start-up [at most 2x]. Both with bytecode cached in a temporary folder
   (``PYTHONPYCACHEPREFIX``), as an installed package has it (this project's environment sets
   ``PYTHONDONTWRITEBYTECODE``, which makes every call compile readsim's modules again);
3. synthetic runs at INEX's largest submission size, 120 topics x 1,500 articles x 3 passages
   (540,000 lines), and 120 x 15,000 x 1 (1,800,000 lines), with qrels of 80 relevant articles
   per topic: the whole evaluation in one process against the plain read [at most 1.5x], and
   the time per line (linear in lines); then as whole processes, ``readsim-eval`` against
   ``python`` importing numpy and reading the run plainly (first-touch memory included);
4. many runs: 50 runs x 120 topics (the real run's shape: 100 articles x 3 passages, each its
   own ranking) in one ``readsim-eval`` call against one run [at most 10x], and the peak memory
   of the command and of its largest worker process (one run at a time each).

Times are the best of ``--repeat`` calls (after a first, cold one, also shown for 1 and 3).
The load average is printed next to each figure: run it on a quiet machine.

Usage: ``python bench/bench_eval.py [--repeat 3] [--quick]`` (``--quick``: no 1,800,000-line run)
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from readsim.engine.formats import read_qrels, read_run
from readsim.engine.listmeasures import evaluate
from readsim.engine.measure import parse_list_measure

MEASURES = ["AgP/F(0.25)", "AgP/aveChP", "AgP/T2IF(300)", "ANCE@600/LE(300)"]
ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))
BIN = Path(sys.executable).parent


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def best_of(repeat: int, fn) -> tuple[float, float, object]:
    """``(first call, best of the next repeat calls, last result)`` in seconds."""
    t = time.perf_counter()
    result = fn()
    first = time.perf_counter() - t
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return first, best, result


def plain_read(path: Path) -> None:
    with open(path) as f:
        for line in f:
            line.split()


def job(qrels_path: Path, run_path: Path, names: list[str]):
    measures = [parse_list_measure(m) for m in names]
    return evaluate(read_qrels(qrels_path), read_run(run_path), measures)


def synthesize(folder: Path, topics: int, articles: int, passages: int, relevant: int = 80, seed: int = 7,
               name: str = "synthetic") -> tuple[Path, Path]:
    """Write ``NAME.qrels`` and ``NAME.run`` (FOL, 8 fields) into ``folder``."""
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
    qrels, run = folder / f"{name}.qrels", folder / f"{name}.run"
    qrels.write_text("\n".join(q_lines) + "\n")
    run.write_text("\n".join(r_lines) + "\n")
    return qrels, run


def reranked(run: Path, folder: Path, count: int, seed: int = 1) -> list[Path]:
    """``count`` runs with the articles of ``run`` in other orders, topic by topic."""
    rng = random.Random(seed)
    by_topic: dict[str, dict[str, list[str]]] = {}
    for line in run.read_text().splitlines():
        f = line.split()
        by_topic.setdefault(f[0], {}).setdefault(f[2], []).append(line)
    out = []
    for k in range(count):
        lines = []
        for articles in by_topic.values():
            names = list(articles)
            rng.shuffle(names)
            lines += [line for a in names for line in articles[a]]
        path = folder / f"run{k:02d}.run"
        path.write_text("\n".join(lines) + "\n")
        out.append(path)
    return out


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "readsim-bench-pycache")
    return env


def process_time(cmd: list[str], repeat: int) -> float:
    """Best wall time of running ``cmd`` (output discarded), after one warm-up run."""
    env = _env()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
        best = min(best, time.perf_counter() - t)
    return best


_MEMORY = """
import os, sys
import readsim.engine.cli as cli
import readsim.engine.cli.evaluate as evaluate

def peak():  # this process's own peak resident memory, kB (ru_maxrss would count its parent's)
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))

evaluate_file = evaluate._evaluate_file

def measured(path):  # in a worker: note its peak after each run
    result = evaluate_file(path)
    with open(sys.argv[1], "a") as f:
        f.write(f"{peak()}\\n")
    return result

evaluate._evaluate_file = measured
with open(os.devnull, "w") as out, open(os.devnull, "w") as err:
    cli.main(sys.argv[2:], out, err)
print(peak())
"""


def cli_memory(args: list[str]) -> tuple[float, float]:
    """Peak resident memory (MB) of ``readsim-eval args`` and of its largest worker process
    (0 without workers), from ``/proc/self/status``."""
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as notes:
        done = subprocess.run([sys.executable, "-c", _MEMORY, notes.name, *args], capture_output=True, text=True,
                              env=_env(), check=True)
        workers = [int(x) for x in notes.read().split()]
    return int(done.stdout.split()[-1]) / 1024, max(workers, default=0) / 1024


def in_process(label: str, qrels: Path, run: Path, repeat: int) -> None:
    lines = sum(1 for _ in open(run, "rb"))
    first_floor, floor, _ = best_of(repeat, lambda: plain_read(run))
    print(f"\n{label}: {lines:,} run lines; floor = plain read of the run ({floor * 1000:.0f} ms, {load()})")
    print(f"  {'read qrels + run, evaluate':<44} {'best':>9} {'x floor':>8} {'first':>9} {'per line':>9}")
    for names, title in (([MEASURES[0]], MEASURES[0]), (MEASURES, "the four measures in one call")):
        first, t, result = best_of(repeat, lambda: job(qrels, run, names))
        print(f"  {title:<44} {t * 1000:7.0f} ms {t / floor:7.2f}x {first * 1000:7.0f} ms "
              f"{t / lines * 1e9:6.0f} ns   ({load()}; MAgP {result.means[MEASURES[0]]:.6f})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="leave out the 1,800,000-line run")
    args = p.parse_args()
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {load()}")
    real_qrels = DATA / "qrels" / "inex2009-2010.qrels"
    real_run = DATA / "runs" / "bert-passages.run"
    cli = [str(BIN / "readsim-eval")] if (BIN / "readsim-eval").exists() else [sys.executable, "-m", "readsim.engine.cli"]
    flags = [a for m in MEASURES for a in ("-m", m)]
    if real_qrels.is_file():
        in_process("1. real run bert-passages.run, in one process", real_qrels, real_run, args.repeat)
        start = process_time([sys.executable, "-c", "import numpy"], 2 * args.repeat + 3)
        whole = process_time(cli + [str(real_qrels), str(real_run)] + flags, 2 * args.repeat + 3)
        print(f"\n2. real run, readsim-eval with the four measures: {whole * 1000:.0f} ms = {whole / start:.2f}x the "
              f"numpy start-up ({start * 1000:.0f} ms)   ({load()}) [target: at most 2x]")
    else:
        print(f"real data not found at {DATA} (set READSIM_DATA); 1 and 2 skipped")
    sizes = [(120, 1500, 3)] + ([] if args.quick else [(120, 15000, 1)])
    with tempfile.TemporaryDirectory() as d:
        for k, (topics, articles, passages) in enumerate(sizes):
            folder = Path(d) / f"s{k}"
            folder.mkdir()
            qrels, run = synthesize(folder, topics, articles, passages)
            in_process(f"3. synthetic, {topics} topics x {articles:,} articles x {passages} passages", qrels, run,
                       args.repeat)
            floor = process_time([sys.executable, "-c", f"import numpy\nfor line in open({str(run)!r}): line.split()"],
                                 args.repeat)
            whole = process_time(cli + [str(qrels), str(run)] + flags, args.repeat)
            print(f"  readsim-eval, the four measures, as a process: {whole * 1000:.0f} ms = {whole / floor:.2f}x a python "
                  f"process importing numpy and reading the run plainly ({floor * 1000:.0f} ms)   ({load()})")
            run.unlink()
        folder = Path(d) / "many"
        folder.mkdir()
        qrels, run = synthesize(folder, 120, 100, 3)
        runs = [str(r) for r in reranked(run, folder, 50)]
        one = process_time(cli + [str(qrels), runs[0]] + flags, args.repeat)
        many = process_time(cli + [str(qrels)] + runs + flags, args.repeat)
        single = process_time(cli + [str(qrels)] + runs + flags + ["--jobs", "1"], 1)
        mem_one, _ = cli_memory([str(qrels), runs[0]] + flags)
        mem_many, mem_worker = cli_memory([str(qrels)] + runs + flags)
        print(f"\n4. 50 runs x 120 topics (36,000 lines each), readsim-eval with the four measures:   ({load()})")
        print(f"  one run                {one * 1000:7.0f} ms   peak memory {mem_one:5.0f} MB")
        print(f"  50 runs in one call    {many * 1000:7.0f} ms = {many / one:5.2f}x one run [target: at most 10x]; "
              f"peak memory {mem_many:.0f} MB, largest worker {mem_worker:.0f} MB ({os.cpu_count()} processes)")
        print(f"  50 runs, --jobs 1      {single * 1000:7.0f} ms = {single / one:5.2f}x one run")


if __name__ == "__main__":
    main()
