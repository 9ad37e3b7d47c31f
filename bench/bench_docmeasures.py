"""Benchmark: document measures over pieces vs the per-character reference, on a real article.

Run from the project root::

    .venv/bin/python bench/bench_docmeasures.py

Data: ``READSIM_DATA`` (default ``../shared/data/inex`` relative to the project). The article
is the largest of the real collection, ``articles/2212038.xml``; its relevant passages are
its qrels line (topic 2009036). The run does not retrieve it, so 10 retrieved passages are
drawn with a fixed seed. The engine's reading order (pieces) and every document measure are
timed against ``tests/engine/reference.py`` (one Python list entry per character), in each
reading mode; the values are checked to agree. Also timed: ``Article.from_file`` and
``layout()``. Not a test: pytest collects ``tests/`` only.
"""

from __future__ import annotations

import math
import os
import platform
import random
import sys
import timeit
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "engine"))

from reference import ReferenceDoc  # noqa: E402

from readsim.core.doc_evaluation import evaluate_document  # noqa: E402
from readsim.core.formats import read_qrels  # noqa: E402
from readsim.core.layout import layout  # noqa: E402
from readsim.core.text import Article  # noqa: E402

DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))
ARTICLE = "2212038"
SEED = 20100505
MODES = ("natural", "worst", "best", "document", "entry")
K, TOL, SCREEN, ALPHA, BETA, LEVELS = 600, 300, 300, 1.0, 0.25, 4


def best_time(fn, loop_seconds: float = 0.02) -> float:
    """Seconds per call: best of 5 loops of about ``loop_seconds`` each."""
    timer = timeit.Timer(fn)
    once = max(timer.timeit(number=1), 1e-7)
    number = max(1, int(loop_seconds / once))
    return min(timer.repeat(repeat=5, number=number)) / number


def slow_time(fn, repeat: int = 3) -> float:
    """Seconds per call for slow functions: best of ``repeat`` single calls."""
    return min(timeit.Timer(fn).repeat(repeat=repeat, number=1))


def ratio(slow: float, fast: float) -> str:
    r = slow / fast
    return f"{r:9.1f}x" if r < 10 else f"{r:9.0f}x"


def fmt(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:8.2f} s "
    if seconds >= 1e-3:
        return f"{seconds * 1e3:8.2f} ms"
    return f"{seconds * 1e6:8.2f} us"


def main() -> int:
    path = DATA / "articles" / f"{ARTICLE}.xml"
    qrels_path = DATA / "qrels" / "inex2009-2010.qrels"
    if not path.is_file() or not qrels_path.is_file():
        print(f"real INEX data not found at {DATA} (set READSIM_DATA)")
        return 1
    print(f"readsim document-measure benchmark   python {platform.python_version()}   "
          f"numpy {np.__version__}   CPUs: {os.cpu_count()}   ({platform.machine()})")

    # -- the article ---------------------------------------------------------------------
    t_parse = slow_time(lambda: Article.from_file(path), repeat=5)
    art = Article.from_file(path)
    t_layout = slow_time(lambda: layout(art), repeat=5)
    lay = layout(art)
    print(f"\narticle {ARTICLE}: {path.stat().st_size:,} bytes of XML, text {len(art.text):,} characters, "
          f"{art.length:,} UTF-8 bytes, doc_length {art.doc_length:,}, {len(art.elements):,} elements, "
          f"{len(lay.blocks):,} display blocks")
    print(f"  Article.from_file  {fmt(t_parse)}")
    print(f"  layout()           {fmt(t_layout)}")

    # -- passages ------------------------------------------------------------------------
    qrels = read_qrels(qrels_path)
    judged = [(t, j) for t, arts in qrels.topics.items() for a, j in arts.items() if a == ARTICLE]
    topic, j = judged[0]
    doc_length = j.doc_length
    relevant = [tuple(p) for p in j.passages.tolist()]
    rng = random.Random(SEED)
    retrieved = []
    for _ in range(10):
        start = rng.randrange(0, doc_length)
        retrieved.append((start, min(doc_length + 200, start + rng.randrange(50, 3000))))
    rel_arr = np.asarray(relevant, dtype=np.int64)
    ret_arr = np.asarray(retrieved, dtype=np.int64)
    print(f"\npassages: qrels topic {topic}: doc_length {doc_length:,}, {len(relevant)} relevant passages "
          f"({j.rel_size:,} bytes); {len(retrieved)} retrieved passages drawn with seed {SEED} "
          f"(the run does not retrieve this article)")

    # -- reading orders --------------------------------------------------------------------
    print(f"\n{'reading order':<22}{'pieces':>8}{'engine':>13}{'reference':>13}{'ratio':>10}")
    docs, refs = {}, {}
    for mode in MODES:
        entry = doc_length // 3
        te = best_time(lambda: evaluate_document(rel_arr, ret_arr, doc_length, mode, entry))
        tr = slow_time(lambda: ReferenceDoc(doc_length, relevant, retrieved, mode, entry))
        docs[mode] = evaluate_document(rel_arr, ret_arr, doc_length, mode, entry)
        refs[mode] = ReferenceDoc(doc_length, relevant, retrieved, mode, entry)
        print(f"{mode:<22}{len(docs[mode].pieces):>8}{fmt(te):>13}{fmt(tr):>13}{ratio(tr, te)}")

    # -- measures --------------------------------------------------------------------------
    measures = [
        ("aveChP", lambda d: d.ave_chp(), lambda r: r.ave_chp()),
        (f"ChP@{K}", lambda d: d.chp_at(K), lambda r: r.chp_at(K)),
        (f"ChR@{K}", lambda d: d.chr_at(K), lambda r: r.chr_at(K)),
        (f"T2I({TOL}) P,R,F", lambda d: d.t2i(TOL, ALPHA), lambda r: r.t2i(TOL, ALPHA)),
        (f"LE({SCREEN})", lambda d: d.le(SCREEN, LEVELS), lambda r: r.le(SCREEN, LEVELS)),
        (f"ES({SCREEN})", lambda d: d.es(SCREEN, LEVELS), lambda r: r.es(SCREEN, LEVELS)),
        (f"P,R,F({BETA}) set", lambda d: d.set_scores(BETA), lambda r: r.set_scores(BETA)),
    ]
    total_e = total_r = 0.0
    worst_diff = 0.0
    print(f"\n{'measure (all 5 modes)':<22}{'engine':>13}{'reference':>13}{'ratio':>10}   value (natural)")
    for name, eng, ref in measures:
        te = sum(best_time(lambda m=m: eng(docs[m])) for m in MODES)
        tr = sum(slow_time(lambda m=m: ref(refs[m])) for m in MODES)
        total_e += te
        total_r += tr
        for m in MODES:
            a, b = np.atleast_1d(eng(docs[m])), np.atleast_1d(ref(refs[m]))
            for x, y in zip(a.tolist(), b.tolist()):
                if not math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12):
                    print(f"  MISMATCH {name} {m}: engine {x!r} reference {y!r}")
                worst_diff = max(worst_diff, abs(x - y))
        shown = ", ".join(f"{v:.4f}" for v in np.atleast_1d(eng(docs["natural"])).tolist())
        print(f"{name:<22}{fmt(te):>13}{fmt(tr):>13}{ratio(tr, te)}   {shown}")
    print(f"{'all measures':<22}{fmt(total_e):>13}{fmt(total_r):>13}{ratio(total_r, total_e)}")
    print(f"\nlargest |engine - reference| over all measures and modes: {worst_diff:.3g}")
    print("engine = closed forms over pieces (O(passages)); reference = one list entry per byte (O(n)).")
    print("times are per call (best of 5; the measure rows sum the 5 reading modes); the reference's")
    print("measure times exclude building its per-character order and sets (the reading-order rows).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
