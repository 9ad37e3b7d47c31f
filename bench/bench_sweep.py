"""Benchmark of the sweeps (reference 9.6) on the real INEX data, each as a ratio to a floor
measured in this run.

- **article sweep** (the Sensitivity dock's curves; aim: within 50 ms): the largest relevant
  article the real run ranks (the longest reading order, in pieces, natural reading; read with
  the collection) swept
  over 200 screen sizes (ChP@k, ChR@k, LE(s), ES(s)) and 200 tolerances (T2IP, T2IR, T2IF):
  :func:`readsim.core.parameter_sweep.article_sweep`. Floor: one plain evaluation of the score panel's
  11 measures of that article (:func:`readsim.operations.article_reading.panel_scores`). For the record: the
  same curves value by value (``DocMeasure.value`` 200 times per measure).
- **run sweep** (``readsim-eval sweep``; aim: 50 values within 2 s): ``AgP/T2IF(t)`` at 50
  tolerances over the whole real run (``bert-passages.run``, qrels and run read beforehand):
  :func:`readsim.operations.sweep.sweep_rows`. Floor: one plain evaluation of ``AgP/T2IF(300)``
  (:func:`readsim.operations.evaluate.evaluations`).
- **topic curve** (the dock's topic curve): ``AgP/T2IF(t)`` of topic 2009074 at 50 tolerances
  from its ranked articles' evaluations (:func:`readsim.core.parameter_sweep.topic_sweep`). Floor: one
  :meth:`Ranking.value` over the same evaluations.

- with ``--window``, **the dock** (offscreen): the real window on PageRank (topic 2009074), the
  Sensitivity dock shown, its sweep switched between the screen size and the tolerance (the
  article's curves computed and drawn with new axes and legends, the dock repainted:
  ``QWidget.repaint``), and the curves of another of the topic's relevant articles computed and
  drawn in place (what opening an article costs the dock); GUI thread time, the topic curve being
  computed in a worker meanwhile; median and max. No floor: the aim is the 50 ms itself.

Times are the best of ``--repeat`` calls after a first one; the load average is printed with each
figure: run it on a quiet machine.

Usage: ``python bench/bench_sweep.py [--repeat 5] [--window] [--data ../shared/data/inex]``
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from pathlib import Path

import numpy as np

from readsim.operations.article_reading import panel_scores
from readsim.operations.evaluate import evaluations
from readsim.operations.sweep import sweep_rows
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import Settings
from readsim.core.formats import read_qrels, read_run
from readsim.core.listmeasures import Ranking
from readsim.core.measure import parse_list_measure, parse_measure
from readsim.operations.article_reading import ranked_article
from readsim.core.parameter_sweep import article_sweep, parse_vary, topic_sweep, with_parameter

ROOT = Path(__file__).resolve().parent.parent


def best(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def say(what: str, seconds: float, floor: float, floor_what: str) -> None:
    print(f"{what}: {seconds * 1000:.2f} ms = {seconds / floor:.1f}x {floor_what} ({floor * 1000:.2f} ms); {load()}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "inex"))
    ap.add_argument("--window", action="store_true", help="also time the Sensitivity dock (offscreen)")
    args = ap.parse_args()
    data = Path(args.data)
    warnings.simplefilter("ignore")
    qrels = read_qrels(data / "qrels" / "inex2009-2010.qrels")
    run = read_run(data / "runs" / "bert-passages.run")
    collection = Collection(data / "articles")

    # -- the article sweep ------------------------------------------------------------------
    # the relevant ranked article with the longest reading order (most pieces), then read with the collection
    candidates = [(t, e) for t, es in run.topics.items() if t in qrels.topics for e in es
                  if e.article in qrels.topics[t] and qrels.topics[t][e.article].relevant and e.article in collection]
    topic, entry = max(candidates, key=lambda c: len(ranked_article(qrels, run, c[0], c[1]).pieces))
    doc = ranked_article(qrels, run, topic, entry, collection)
    sizes = list(parse_vary("s=50:20000:200:log").values)
    tolerances = list(parse_vary("t=10:20000:200:log").values)
    swept = [(parse_measure(n), p, v) for n, p, v in [
        ("ChP@300", "k", sizes), ("ChR@300", "k", sizes), ("LE(300)", "s", sizes), ("ES(300)", "s", sizes),
        ("T2IP(300)", "t", tolerances), ("T2IR(300)", "t", tolerances), ("T2IF(300)", "t", tolerances)]]
    print(f"article {entry.article} (topic {topic}): doc_length {doc.doc_length:,}, {len(doc.pieces)} pieces, "
          f"{len(swept)} curves of 200 values")
    floor = best(lambda: panel_scores(doc, Settings()), args.repeat)
    sweep = best(lambda: [article_sweep(doc, m, p, v) for m, p, v in swept], args.repeat)
    naive = best(lambda: [[with_parameter(m, p, x).value(doc) for x in v] for m, p, v in swept], 1)
    say("article sweep (column-wise)", sweep, floor, "the panel's 11 scores")
    say("  value by value (for the record)", naive, floor, "the panel's 11 scores")

    # -- the run sweep ----------------------------------------------------------------------
    agp = parse_list_measure("AgP/T2IF(300)")
    plan = parse_vary("t=10:20000:50:log")
    floor = best(lambda: list(evaluations(qrels, [run], [agp])), args.repeat)
    rows = best(lambda: list(sweep_rows(qrels, run, [agp], plan)), args.repeat)
    say(f"run sweep, {len(plan.values)} values over {len(run.topics)} topics", rows, floor,
        "one plain evaluation")

    # -- the topic curve --------------------------------------------------------------------
    topic = "2009074"
    entries = run.topics[topic]
    judged = qrels.topics[topic]
    docs = [ranked_article(qrels, run, topic, e, collection) for e in entries]
    relevant = np.array([e.article in judged and judged[e.article].relevant for e in entries])
    rsize = np.array([judged[e.article].rel_size if r else 0 for e, r in zip(entries, relevant)])
    nrel, trel = qrels.totals(topic)

    def one() -> float:
        scores = np.array([agp.doc.value(d) if r else 0.0 for d, r in zip(docs, relevant)])
        return Ranking(topic, [""] * len(docs), relevant, rsize, {agp.doc: scores}, nrel, trel).value(agp)

    floor = best(one, args.repeat)
    curve = best(lambda: topic_sweep(docs, relevant, rsize, nrel, trel, agp, "t", plan.values), args.repeat)
    say(f"topic curve, {len(plan.values)} values over {len(docs)} ranked articles", curve, floor,
        "one plain AgP of the topic")
    if args.window:
        dock(data, args.repeat)
    return 0


def dock(data: Path, repeat: int) -> None:
    """The Sensitivity dock's sweep switched ``repeat`` times on PageRank: the GUI thread's time."""
    import statistics

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from readsim.app.background import activity
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Loaded, Session
    from readsim.core.formats import read_topics

    app = QApplication.instance() or QApplication([])
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    window.show()
    session.adopt(Loaded(collection=Collection(data / "articles"), qrels=read_qrels(data / "qrels" / "inex2009-2010.qrels"),
                         runs=[read_run(data / "runs" / "bert-passages.run")],
                         topics=read_topics(data / "topics" / "inex2009-topics.xml")), "2009074", "23724")

    def settle() -> None:
        while activity().count or session.current is None:
            app.processEvents()

    settle()
    window.act_sensitivity.trigger()
    panel = window.sensitivity
    settle()
    times = []
    for k in range(repeat * 2 + 2):
        t = time.perf_counter()
        panel.set_sweep(("tolerance", "screen")[k % 2])
        app.processEvents()
        panel.repaint()
        times.append(time.perf_counter() - t)
        settle()
    times = times[2:]  # the first two draw each sweep's plots for the first time
    print(f"dock: sweep switched (axes, legends and layout anew): median {statistics.median(times) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms over {len(times)} switches (aim 50 ms); {load()}")
    from readsim.app.widgets.sensitivity import article_curves

    times = []
    rows = [r for r in session.rows if r.relevant]
    for k in range(repeat * 2):
        ev = rows[k % len(rows)].evaluation
        t = time.perf_counter()
        curves = article_curves(ev, session.settings, panel.sweep, panel.values, session.settings.levels)
        panel.plots.show_article(panel.sweep, "screen size s (bytes)", panel.values, curves, rows[k % len(rows)].article)
        app.processEvents()
        panel.repaint()
        times.append(time.perf_counter() - t)
    print(f"dock: another article's curves (4 x 200 values) computed and drawn: median "
          f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms over {len(times)} (aim 50 ms); "
          f"{load()}")


if __name__ == "__main__":
    raise SystemExit(main())
