"""Benchmark of ``readsim-eval --per-article --collection`` on the real INEX data, as a ratio to
its floor measured in this run (the aim: at most 1.5x).

- **command**: ``readsim-eval QRELS bert-passages.run --per-article --collection articles -m F(0.25)``,
  a process of its own, output to /dev/null, bytecode cached in a temporary folder
  (``PYTHONPYCACHEPREFIX``: this project's environment sets ``PYTHONDONTWRITEBYTECODE``);
- **floor**: a ``python`` process that parses articles with lxml (their DTD loaded, no network)
  and joins ``root.itertext()``: (a) the run's articles the collection holds (the job the aim
  measures against: 858 on the real run); (b) every article of the folder; (c) for the record,
  the judged ones among (a), the only ones readsim reads (an unjudged article is non-relevant
  whatever its text: policy 7; readsim parses them in threads).

Times are the best of ``--repeat`` calls, after a first one; the load average is printed with
each figure: run it on a quiet machine.

Usage: ``python bench/bench_per_article.py [--repeat 3] [--data ../shared/data/inex]``
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

FLOOR = r"""
import sys
from lxml import etree
n = 0
for p in open(sys.argv[1]).read().split("\n"):
    if p:
        root = etree.parse(p, etree.XMLParser(load_dtd=True, no_network=True)).getroot()
        n += len("".join(root.itertext()))
print(n)
"""


def best(cmd: list[str], env: dict, repeat: int) -> float:
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)  # warm
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t)
    return min(times)


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "inex"))
    args = ap.parse_args()
    data = Path(args.data)
    qrels, run, articles = data / "qrels" / "inex2009-2010.qrels", data / "runs" / "bert-passages.run", data / "articles"
    for p in (qrels, run, articles):
        if not p.exists():
            print(f"bench_per_article: {p} not found (give --data)", file=sys.stderr)
            return 1
    from readsim.core.collection import Collection
    from readsim.core.formats import read_any_run, read_qrels

    ranked = {e.article for es in read_any_run(str(run)).topics.values() for e in es}
    collection = Collection(articles)
    used = sorted(str(collection.path(n)) for n in ranked & collection.listing())
    every = sorted(str(p) for p in articles.glob("*.xml"))
    q = read_qrels(str(qrels))
    judged = sorted({str(collection.path(e.article)) for t, es in read_any_run(str(run)).topics.items() for e in es
                     if e.article in collection.listing() and q.judgement(t, e.article) is not None})

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=tmp)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        lists = {}
        for label, paths in (("used", used), ("folder", every), ("judged", judged)):
            lists[label] = Path(tmp) / f"{label}.txt"
            lists[label].write_text("\n".join(paths))
        script = Path(tmp) / "floor.py"
        script.write_text(FLOOR)
        exe = str(Path(sys.executable).parent / "readsim-eval")
        cmd = [exe, str(qrels), str(run), "--per-article", "--collection", str(articles), "-m", "F(0.25)"]
        t_cmd = best(cmd, env, args.repeat)
        print(f"readsim-eval --per-article --collection: {t_cmd:.3f} s ({load()})")
        for label, what in (("used", f"the run's {len(used)} articles in the collection"),
                            ("folder", f"all {len(every)} of the folder"),
                            ("judged", f"the {len(judged)} judged ones readsim reads")):
            t = best([sys.executable, str(script), str(lists[label])], env, args.repeat)
            print(f"floor, lxml parse + join of {what}: {t:.3f} s; ratio {t_cmd / t:.2f}x ({load()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
