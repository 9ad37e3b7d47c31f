"""Benchmark of collections kept as archives (reference section 2.9) against a flat folder.

Generates ``--members`` small synthetic articles (about 330 bytes of XML each, names 1..N) as a
flat folder, a nested folder (``pages/NNN/``, 1,000 per folder), a ``.zip`` (deflate) and a
``.tar.gz``, then measures, each in a fresh process (bytecode cached in a temporary folder after
an untimed call, as an installed package has it):

- **index build**: ``Collection(PATH)`` with no saved index (seconds, and seconds per 100,000
  members), the peak memory of that process (``VmHWM``: ``ru_maxrss`` would carry the bench's own over ``exec``) and the saved index's size;
- **open one article**: a fresh process that opens the indexed collection and parses one
  article (``Collection(PATH).article(NAME)``), best of ``--repeat``, against the same on the flat
  folder; and ``readsim-eval QRELS RUN --per-article --collection PATH`` on a one-line qrels and
  run (which also lists the collection's names for the coverage check).

The figures at 2,666,190 members (the INEX 2009 Wikipedia collection) are **extrapolated**
linearly from the measured sizes (``--members`` and a tenth of it, to check linearity), as the
README says. Files go to a temporary folder (``--keep DIR`` to keep them), deleted at the end;
check ``df -h`` first: 200,000 members take about 1 GB of disk as files.

Usage: ``python bench/bench_collection.py [--members 200000] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

INEX_MEMBERS = 2_666_190
WORDS = "reading order simulator focused retrieval evaluation passage article topic".split()


def article(i: int) -> bytes:
    body = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(30))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<article><name id="{i}">Article {i}</name>'
            f"<body><p>{body}.</p><p>{i}</p></body></article>\n").encode()


def generate(where: Path, n: int) -> dict[str, Path]:
    out = {k: where / k for k in ("flat", "nested")}
    for k in out.values():
        k.mkdir(parents=True)
    with zipfile.ZipFile(where / "c.zip", "w", zipfile.ZIP_DEFLATED) as zf, \
            tarfile.open(where / "c.tar.gz", "w:gz", compresslevel=6) as tf:
        for i in range(1, n + 1):
            data = article(i)
            (out["flat"] / f"{i}.xml").write_bytes(data)
            sub = out["nested"] / "pages" / f"{i // 1000:04d}"
            if i % 1000 == 0 or i == 1:
                sub.mkdir(parents=True, exist_ok=True)
            (sub / f"{i}.xml").write_bytes(data)
            zf.writestr(f"pages/{i // 1000:04d}/{i}.xml", data)
            info = tarfile.TarInfo(f"pages/{i // 1000:04d}/{i}.xml")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    out["zip"], out["tar.gz"] = where / "c.zip", where / "c.tar.gz"
    return out


BUILD = """
import re, sys, time
from readsim.core.collection import Collection
t = time.perf_counter()
c = Collection(sys.argv[1])
c.listing()  # a folder is listed or indexed at the first need
seconds = time.perf_counter() - t
peak = int(re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read()).group(1)) * 1024  # this process only
print(seconds, peak, len(c.names()))
"""
OPEN = """
import sys
from readsim.core.collection import Collection
Collection(sys.argv[1]).article(sys.argv[2])
"""


def run(env: dict, *argv: str) -> float:
    t = time.perf_counter()
    subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def index_size(path: Path, cache: Path) -> int:
    beside = Path(str(path) + ".readsim-index.sqlite")
    if beside.exists():
        return beside.stat().st_size
    return sum(p.stat().st_size for p in (cache / "readsim" / "indexes").glob(f"{path.name}-*"))


def measure(n: int, repeat: int, where: Path) -> dict:
    kinds = generate(where, n)
    env = dict(os.environ, XDG_CACHE_HOME=str(where / "cache"), PYTHONPYCACHEPREFIX=str(where / "pyc"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    py = sys.executable
    exe = str(Path(py).with_name("readsim-eval"))
    (where / "q.qrels").write_text(f"2009001 Q0 {n // 2} 100 300 0 0:100\n")
    (where / "r.run").write_text(f"2009001 Q0 {n // 2} 1 1.0 r 0 100\n")
    rows = {}
    for kind, path in kinds.items():
        t0 = time.perf_counter()
        out = subprocess.run([py, "-c", BUILD, str(path)], check=True, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        seconds, rss, count = out.stdout.split()
        assert int(count) == n, (kind, count)
        run(env, py, "-c", OPEN, str(path), str(n // 2))  # untimed: bytecode cache
        opened = min(run(env, py, "-c", OPEN, str(path), str(n // 3)) for _ in range(repeat))
        cli = min(run(env, exe, str(where / "q.qrels"), str(where / "r.run"), "--per-article", "--collection", str(path))
                  for _ in range(repeat))
        rows[kind] = {"build": float(seconds), "build_wall": wall, "rss": int(rss), "index": index_size(path, where / "cache"),
                      "open": opened, "cli": cli}
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--members", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", type=Path)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    results = {}
    for n in (args.members // 10, args.members):
        where = Path(tempfile.mkdtemp(prefix=f"readsim-bench-{n}-", dir=args.keep))
        try:
            results[n] = measure(n, args.repeat, where)
        finally:
            if args.keep is None:
                shutil.rmtree(where, ignore_errors=True)
    n = args.members
    print(f"{'collection':10} {'members':>9} {'build s':>8} {'s/100k':>7} {'peak MB':>8} {'index MB':>9} "
          f"{'open s':>7} {'vs flat':>8} {'cli s':>6} {'vs flat':>8}")
    for size, rows in results.items():
        for kind, r in rows.items():
            base = results[size]["flat"]
            print(f"{kind:10} {size:9,} {r['build']:8.2f} {r['build'] / size * 1e5:7.2f} {r['rss'] / 1e6:8.0f} "
                  f"{r['index'] / 1e6:9.1f} {r['open']:7.3f} {r['open'] - base['open']:+8.3f} {r['cli']:6.3f} "
                  f"{r['cli'] - base['cli']:+8.3f}")
    small = args.members // 10
    print(f"\nextrapolated to {INEX_MEMBERS:,} members along the line through the two measured sizes "
          f"({small:,} and {n:,}; not measured):")
    for kind, r in results[n].items():
        r0 = results[small][kind]

        def at(key: str, r=r, r0=r0) -> float:
            return r[key] + (r[key] - r0[key]) / (n - small) * (INEX_MEMBERS - n)

        print(f"{kind:10} build {at('build') / 60:6.1f} min, index {at('index') / 1e6:7.0f} MB, "
              f"build peak memory {at('rss') / 1e6:6.0f} MB")
    print("opening one article is a look-up in the saved index (SQLite B-trees: logarithmic in the members), "
          "not extrapolated linearly")

if __name__ == "__main__":
    main()
