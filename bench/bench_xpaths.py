"""Benchmark of XPath resolution through the element index (docs/reference.md section 1.3).

An article whose body holds ``--siblings`` paragraphs (900,000 by default, one element each: within
the 1,000,000-element budget) and a run of ``--lines`` 7-field XPath lines naming its last
paragraphs. Prints, each the best of ``--repeat``:

- **parse**: building the :class:`Article` (lxml, the text);
- **index**: the element index, built once (one pass);
- **resolve**: :func:`readsim.core.result_lines.retrieved_passages` on the run's article (every XPath looked
  up in the index; the first call also builds the index's child table: ``--repeat 1`` counts it,
  more repeats show the look-ups alone); and, for the record, the old per-path walk over every sibling (on
  ``--walk-lines`` lines only: it costs lines x siblings).

The times are not asserted anywhere (tests never assert a speed); run it on a quiet machine.

Usage: ``python bench/bench_xpaths.py [--siblings 900000] [--lines 1000] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
import time

from readsim.core.formats import read_any_run
from readsim.core.result_lines import retrieved_passages
from readsim.core.text import Article


def article_bytes(siblings: int) -> bytes:
    body = "".join(f"<p>p{i}</p>" for i in range(siblings))
    return f"<article><bdy>{body}</bdy></article>".encode()


def walk(index, xpath: str):
    """The per-path resolution the index replaced: over every child of each step."""
    i = 0
    for step in xpath.split("/")[2:]:
        name, k = re.fullmatch(r"([^\[\]/]+)\[(\d+)\]", step).groups()
        i = next(j for j in index.children(i) if index.position[j] == int(k) and index.names[j] == name)
    return i


def best(repeat: int, job) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--siblings", type=int, default=900_000)
    ap.add_argument("--lines", type=int, default=1000)
    ap.add_argument("--walk-lines", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    data = article_bytes(args.siblings)
    parse = best(args.repeat, lambda: Article.from_bytes(data, "wide"))
    art = Article.from_bytes(data, "wide")
    index_time = best(1, lambda: art._index)
    xpaths = [f"/article[1]/bdy[1]/p[{args.siblings - k}]" for k in range(args.lines)]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "wide.run")
        with open(path, "w") as fh:
            fh.write("".join(f"1 Q0 wide 1 1 r {x}\n" for x in xpaths))
        run = read_any_run(path)

    class One:
        root = "memory"

        def article(self, name):
            return art

    entry = run.topics["1"][0]
    resolve = best(args.repeat, lambda: retrieved_passages(run, "1", entry, One()))
    walked = best(1, lambda: [walk(art._index, x) for x in xpaths[:args.walk_lines]])
    print(f"{args.siblings:,} siblings, {args.lines:,} XPath lines (load average {os.getloadavg()[0]:.2f})")
    print(f"parse    {parse * 1000:9.1f} ms")
    print(f"index    {index_time * 1000:9.1f} ms (once per article)")
    print(f"resolve  {resolve * 1000:9.1f} ms for {args.lines:,} lines through the index")
    print(f"walk     {walked * 1000:9.1f} ms for {args.walk_lines} lines over every sibling "
          f"(~{walked / max(args.walk_lines, 1) * args.lines:.1f} s for {args.lines:,})")


if __name__ == "__main__":
    main()
