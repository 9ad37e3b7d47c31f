"""Benchmark of a JSON Lines collection of a million documents (reference section 2.13) against a
plain-text folder.

Generates ``--documents`` small documents (about 100 bytes of JSON each, ids ``d1``..``dN``) as
one ``.jsonl`` file, and a folder of ``--folder-files`` ``.txt`` files of the same texts (a flat
folder opens a file by its name: its size does not change the time), then measures, each in a
fresh process (bytecode cached in a temporary folder after an untimed call, as an installed
package has it):

- **index build**, once: ``Collection(FILE)`` with no saved index (seconds, the peak memory of
  that process from ``VmHWM``, the saved index's size);
- **open one document**: a fresh process that opens the indexed file and reads one document
  (``Collection(FILE).article(ID).text``), ``--repeat`` times, each time followed by the floor:
  the same on the plain-text folder (``Collection(DIR).article(NAME).text``); the wall and CPU
  times' best, median and the median of the pairs' differences.
  Aim (reference 2.13, "Beyond INEX"): at most 0.2 s above the floor.

Files go to a temporary folder (``--keep DIR`` to keep them), deleted at the end: a million
documents take about 100 MB, and their index about 60 MB more.

Usage: ``python bench/bench_jsonl_collection.py [--documents 1000000] [--repeat 15]``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = "reading order simulator focused retrieval evaluation passage article topic span".split()


def text(i: int) -> str:
    return " ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(10)) + f" {i}."


def generate(where: Path, n: int, files: int) -> tuple[Path, Path]:
    docs, folder = where / "docs.jsonl", where / "folder"
    folder.mkdir()
    with open(docs, "w", encoding="utf-8") as fh:
        for i in range(1, n + 1):
            fh.write(json.dumps({"id": f"d{i}", "text": text(i)}) + "\n")
    for i in range(1, files + 1):
        (folder / f"d{i}.txt").write_text(text(i), encoding="utf-8")
    return docs, folder


BUILD = """
import re, sys, time
from readsim.core.collection import Collection
t = time.perf_counter()
c = Collection(sys.argv[1])
seconds = time.perf_counter() - t
peak = int(re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read()).group(1)) * 1024
print(seconds, peak, len(c.names()))
"""
OPEN = """
import sys
from readsim.core.collection import Collection
assert Collection(sys.argv[1]).article(sys.argv[2]).text
"""


def run(env: dict, *argv: str) -> tuple[float, float]:
    """``(wall seconds, CPU seconds)`` of one child process (CPU: user + system, which a busy
    machine inflates less than the wall time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def index_size(path: Path, cache: Path) -> int:
    beside = Path(str(path) + ".readsim-index.sqlite")
    if beside.exists():
        return beside.stat().st_size
    return sum(p.stat().st_size for p in (cache / "readsim" / "indexes").glob(f"{path.name}-*"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--documents", type=int, default=1_000_000)
    ap.add_argument("--folder-files", type=int, default=1_000)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--keep", type=Path)
    args = ap.parse_args()
    n = args.documents
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    where = Path(tempfile.mkdtemp(prefix="readsim-bench-jsonl-", dir=args.keep))
    try:
        docs, folder = generate(where, n, args.folder_files)
        env = dict(os.environ, XDG_CACHE_HOME=str(where / "cache"), PYTHONPYCACHEPREFIX=str(where / "pyc"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        py = sys.executable
        out = subprocess.run([py, "-c", BUILD, str(docs)], check=True, env=env, capture_output=True, text=True)
        seconds, peak, count = out.stdout.split()
        assert int(count) == n, count
        print(f"{n:,} documents, {docs.stat().st_size / 1e6:.0f} MB: index built in {float(seconds):.1f} s, "
              f"peak memory {int(peak) / 1e6:.0f} MB, index {index_size(docs, where / 'cache') / 1e6:.0f} MB")
        one, name = f"d{n // 2}", f"d{args.folder_files // 2}"
        run(env, py, "-c", OPEN, str(docs), one)  # untimed: bytecode cache
        run(env, py, "-c", OPEN, str(folder), name)
        jsonl, txt = [], []
        for _ in range(args.repeat):  # interleaved, so both see the same load
            jsonl.append(run(env, py, "-c", OPEN, str(docs), one))
            txt.append(run(env, py, "-c", OPEN, str(folder), name))
        for k, what in ((0, "wall"), (1, "CPU")):
            j, f = [x[k] for x in jsonl], [x[k] for x in txt]
            diff = statistics.median([a - b for a, b in zip(j, f)])
            print(f"open one document, fresh process, {what} time, {args.repeat} pairs: JSON Lines best {min(j):.3f} s, "
                  f"median {statistics.median(j):.3f} s; plain-text folder best {min(f):.3f} s, median "
                  f"{statistics.median(f):.3f} s; median of the pairs' differences {diff:+.3f} s (aim +0.2 s)")
        print(f"load average now {os.getloadavg()[0]:.1f}")
    finally:
        if args.keep is None:
            shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    main()
