"""Benchmark of whole-run evaluation against the official tool's times and the plain-read floor.

Every figure is a whole ``readsim-eval`` process (``-j 1`` unless said), the best of
``--repeat`` calls after a warm-up, printed with the load average at the time:

- the **floor**, measured in the same run: a whole ``python`` process that imports numpy and
  reads the run plainly (``for line in f: line.split()``);
- the **official tool** (``inex_eval`` 3.1, Java), not available here: its times measured on
  the issue's quiet machine with the same qrels and run shapes (:data:`OFFICIAL`), for the
  ratios the targets are written in (one measure at most 0.5x, four at most 0.7x; at most 2x
  the floor at 120 x 15,000).

Runs: the real run ``bert-passages.run`` and synthetic runs of the shapes INEX received,
written against the real qrels (:func:`synthesize`: every judged article of a topic ranked,
the rest of the ranking other articles, 1..P passages inside each article's doc_length, ranks
and rsv as INEX runs write them): 120 topics x 1,500 articles x 1-3 passages (about 359,000
lines) and 120 x 15,000 x 1 (1,800,000 lines); the first again with 10-character article ids in
the run and the qrels (:func:`id_lengths`: also as a ratio to the 8-digit ids, target at most
1.3x). Then 50 runs of the real run's shape (the real run with its articles reordered per topic)
in one call against one run, with peak memory.

Usage: ``python bench/bench_eval.py [--repeat 3] [--quick]`` (``--quick``: no 1,800,000-line run)
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MEASURES = ["AgP/F(0.25)", "AgP/aveChP", "AgP/T2IF(300)", "ANCE@600/LE(300)"]
ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))
BIN = Path(sys.executable).parent


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def synthesize(qrels: Path, path: Path, articles: int, passages: int, seed: int = 7) -> Path:
    """Write a FOL run to ``path`` for every topic of ``qrels``: its judged articles and other
    ones (numbers outside the qrels, and articles judged for other topics), ``articles`` in all,
    in random order; each with 1..``passages`` passages inside its doc_length (the qrels', or
    2,000..60,000), one line per passage; rank = line number in the topic, rsv decreasing."""
    rng = random.Random(seed)
    judged: dict[str, list[str]] = {}
    lengths: dict[str, int] = {}
    for line in open(qrels):
        f = line.split()
        judged.setdefault(f[0], []).append(f[2])
        lengths[f[2]] = int(f[4])
    names = sorted(lengths)
    with open(path, "w") as out:
        for topic, ranked in judged.items():
            chosen, seen = list(ranked), set(ranked)
            while len(chosen) < articles:
                a = str(rng.randrange(10_000, 40_000_000)) if rng.random() < 0.9 else rng.choice(names)
                if a not in seen:
                    seen.add(a)
                    chosen.append(a)
            rng.shuffle(chosen)
            rank = 0
            lines = []
            for k, a in enumerate(chosen[:articles]):
                n = max(lengths.get(a) or rng.randint(2_000, 60_000), 2 * passages)
                p = rng.randint(1, passages)
                cuts = sorted(rng.sample(range(n), 2 * p))
                rsv = 25.0 - 20.0 * k / articles
                for j in range(0, 2 * p, 2):
                    rank += 1
                    lines.append(f"{topic} Q0 {a} {rank} {rsv:.4f} synthetic {cuts[j]} {cuts[j + 1] - cuts[j]}\n")
            out.write("".join(lines))
    return path


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
import readsim.cli as cli
import readsim.cli.evaluate_command as evaluate

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


OFFICIAL = {"real": 0.49, "1500": 0.91, "15000": 2.89}
"""The official tool's seconds (inex_eval 3.1, AgP, whole process) on the issue's machine."""


def compare(label: str, cli: list[str], qrels: Path, run: Path, official: float | None, repeat: int) -> None:
    lines = sum(1 for _ in open(run, "rb"))
    floor = process_time([sys.executable, "-c", f"import numpy\nfor line in open({str(run)!r}): line.split()"], repeat)
    print(f"\n{label}: {lines:,} lines; floor (python + numpy + plain read) {floor * 1000:.0f} ms   ({load()})")
    for names, title, target in (([MEASURES[0]], MEASURES[0], 0.5), (MEASURES, "the four measures", 0.7)):
        flags = [a for m in names for a in ("-m", m)]
        t = process_time(cli + ["-j", "1", str(qrels), str(run)] + flags, repeat)
        vs = f"{t / official:5.2f}x the official tool [target {target}x]" if official else ""
        print(f"  {title:<20} {t * 1000:6.0f} ms = {t / floor:5.2f}x the floor, {vs} "
              f"{t / lines * 1e9:6.0f} ns/line   ({load()})")


def long_ids(source: Path, path: Path) -> Path:
    """``source`` (a run or qrels) with every article id (column 3) rewritten to 10 characters,
    ``wp`` and the number in 8 digits (``wp00012345``): ids of other collections, over 8 bytes."""
    with open(source) as f, open(path, "w") as out:
        for line in f:
            fields = line.split(" ")
            fields[2] = f"wp{int(fields[2]):08d}"
            out.write(" ".join(fields))
    return path


def interleaved(cmds: list[list[str]], repeat: int) -> tuple[list[float], list[float]]:
    """Best wall time and best CPU time (user + system) of each of ``cmds`` (output discarded),
    after a warm-up, the commands taking turns so that a change of load on the machine weighs on
    each alike (CPU time: what a loaded machine changes least)."""
    env = _env()
    wall, cpu = [float("inf")] * len(cmds), [float("inf")] * len(cmds)
    for k in range(repeat + 1):
        for i, cmd in enumerate(cmds):
            t, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if k:
                wall[i] = min(wall[i], time.perf_counter() - t)
                cpu[i] = min(cpu[i], after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall, cpu


def id_lengths(cli: list[str], qrels: Path, run: Path, folder: Path, repeat: int) -> None:
    """The run and qrels with 10-character article ids against the same with INEX's 8-digit ids,
    each process timed in turn with the other and with its floor (:func:`interleaved`)."""
    q10, r10 = long_ids(qrels, folder / "q10.qrels"), long_ids(run, folder / "r10.run")
    plain = [[sys.executable, "-c", f"import numpy\nfor line in open({str(r)!r}): line.split()"]
             for r in (run, r10)]  # the floor of each
    print(f"\n   the same run and qrels with 10-character article ids (wp00012345) against 8-digit ids   ({load()})")
    for names, title in (([MEASURES[0]], MEASURES[0]), (MEASURES, "the four measures")):
        flags = [a for m in names for a in ("-m", m)]
        wall, cpu = interleaved(plain + [cli + ["-j", "1", str(q), str(r)] + flags
                                         for q, r in ((qrels, run), (q10, r10))], repeat)
        f8, f10, t8, t10 = wall
        print(f"  {title:<20} 8-digit {t8 * 1000:5.0f} ms = {t8 / f8:5.2f}x its floor; 10-character "
              f"{t10 * 1000:5.0f} ms = {t10 / f10:5.2f}x its floor = {(t10 / f10) / (t8 / f8):4.2f}x the 8-digit "
              f"ids [target at most 1.3x]; time {t10 / t8:4.2f}x, CPU time {cpu[3] / cpu[2]:4.2f}x   ({load()})")
    q10.unlink()
    r10.unlink()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="leave out the 1,800,000-line run")
    args = p.parse_args()
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {load()}")
    qrels = DATA / "qrels" / "inex2009-2010.qrels"
    real = DATA / "runs" / "bert-passages.run"
    if not qrels.is_file():
        sys.exit(f"real data not found at {DATA} (set READSIM_DATA)")
    cli = [str(BIN / "readsim-eval")] if (BIN / "readsim-eval").exists() else [sys.executable, "-m", "readsim.cli"]
    flags = [a for m in MEASURES for a in ("-m", m)]
    compare("1. the real run bert-passages.run", cli, qrels, real, OFFICIAL["real"], args.repeat)
    sizes = [(1500, 3, "1500")] + ([] if args.quick else [(15000, 1, "15000")])
    with tempfile.TemporaryDirectory() as d:
        for articles, passages, key in sizes:
            run = synthesize(qrels, Path(d) / f"s{key}.run", articles, passages)
            compare(f"2. synthetic, 120 topics x {articles:,} articles x 1-{passages} passages", cli, qrels, run,
                    OFFICIAL[key], args.repeat)
            if key == "1500":
                id_lengths(cli, qrels, run, Path(d), args.repeat)
            run.unlink()
        runs = [str(r) for r in reranked(real, Path(d), 50)]
        one = process_time(cli + [str(qrels), runs[0]] + flags, args.repeat)
        many = process_time(cli + [str(qrels)] + runs + flags, args.repeat)
        single = process_time(cli + [str(qrels)] + runs + flags + ["--jobs", "1"], 1)
        mem_one, _ = cli_memory([str(qrels), runs[0]] + flags)
        mem_many, mem_worker = cli_memory([str(qrels)] + runs + flags)
        mem_single, _ = cli_memory([str(qrels)] + runs + flags + ["--jobs", "1"])
        print(f"\n3. 50 runs of the real run's shape, readsim-eval with the four measures   ({load()})")
        print(f"  one run                {one * 1000:7.0f} ms   peak memory {mem_one:5.0f} MB")
        print(f"  50 runs in one call    {many * 1000:7.0f} ms = {many / one:5.2f}x one run [target: at most 5x]; "
              f"peak memory {mem_many:.0f} MB, largest worker {mem_worker:.0f} MB ({os.cpu_count()} processes)")
        print(f"  50 runs, --jobs 1      {single * 1000:7.0f} ms = {single / one:5.2f}x one run; "
              f"peak memory {mem_single:.0f} MB   ({load()})")


if __name__ == "__main__":
    main()
