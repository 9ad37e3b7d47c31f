"""The report to share (``readsim-eval report``, docs/reference.md section 9.9): one self-contained
HTML file of runs compared, readable in any browser without network or scripts.

:func:`build_report` computes what the report shows, each number from the code that prints it
elsewhere: the runs' means and intervals and the significance of every pair
(:func:`readsim.operations.comparison.comparison_of`, ``readsim-eval compare``), the per-topic table
(``compare --per-topic``) and difference plots (:mod:`readsim.operations.figures`), the runs'
interpolated gP curves (``readsim-eval figure curve``), where each run loses
(:func:`readsim.core.costs.run_costs`, ``readsim-eval loss``: the means over the topics of the
topic rows) and, with a collection, the articles of the topics where the two best runs differ most,
drawn as :meth:`readsim.operations.article.ArticleEvaluation._repr_html_` draws them.
:mod:`readsim.operations.report_html` lays it out. Figures are inline SVG (matplotlib, the extra
``plots``); every text from the inputs is escaped.
"""

from __future__ import annotations

import datetime
import hashlib
import os
from collections.abc import Callable, Sequence

import numpy as np

from readsim.core.measure import ListMeasure, parse_list_measure
from readsim.core.report_numbers import plural
from readsim.operations.report_data import LOSS_FIELDS, ReportData

def checksum(path: str | os.PathLike) -> tuple[int | None, str | None]:
    """``(size in bytes, SHA-256 hex)`` of a file; ``(None, None)`` for a folder. Raises ``OSError``."""
    if os.path.isdir(path):
        return None, None
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
            size += len(block)
    return size, digest.hexdigest()


def inline_svg(fig, prefix: str) -> str:
    """``fig`` as an ``<svg>`` element to put in a page: matplotlib's SVG without its XML prologue
    and its metadata (a block of RDF naming web addresses), every id (and its references) prefixed by ``prefix`` so that several figures share a page."""
    import re

    from readsim.operations.figures import figure_bytes

    text = figure_bytes(fig, "svg").decode("utf-8")
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text[text.index("<svg"):], flags=re.DOTALL)
    text = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}-{m.group(1)}"', text)
    return re.sub(r'(url\(#|href="#)([^")]+)', lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", text)


def build_report(qrels, runs: Sequence, measures: Sequence[ListMeasure], *, collection=None,
                 reading: str = "natural", all_topics: bool = False, levels: int = 4, condensed: bool = False,
                 test: str = "bootstrap", alpha: float = 0.05, resamples: int = 1000, seed: int = 0,
                 correction: str = "none", articles: int = 3, options: Sequence[tuple[str, str]] = (),
                 paths: Sequence[tuple[str, str]] = (), progress: Callable[[str], None] | None = None) -> ReportData:
    """Everything the report shows of engine ``runs`` (labelled: each ``run_id`` its label)
    against engine ``qrels`` under parsed list ``measures`` (the first one drives the per-topic
    table, the plots, the loss split and the articles). ``collection``: an engine collection or
    None (then no article is drawn); ``articles``: how many topics get their articles drawn;
    ``options``: the settings to list in the provenance; ``paths``: ``(role, path)`` of the input
    files, each checksummed. ``progress(what)`` is called before each step. Raises
    :class:`readsim.InputError` on bad input, ``ValueError`` when fewer than 2 topics are paired,
    :class:`readsim.operations.figures.PlotsMissing` without matplotlib, ``OSError``."""
    import readsim
    from readsim.core.topic_differences import topic_differences
    from readsim.operations.comparison import comparison_of
    from readsim.operations.evaluate import evaluations as evaluate_all
    from readsim.operations.figures import curve_measures, draw_curves, draw_topic_differences, Curves, new_axes

    say = progress or (lambda what: None)
    new_axes()  # no matplotlib: said before any work
    files = []
    for role, path in paths:
        size, digest = checksum(path)
        files.append((role, os.fspath(path), size, digest))
    curve_list, x = curve_measures("ircl", measures[0].doc.name if measures[0].doc is not None else "F(0.25)")
    wanted = list(dict.fromkeys([*measures, *curve_list]))
    say("evaluating runs")
    evaluated = [e for _, e in evaluate_all(qrels, runs, wanted, reading=reading, collection=collection,
                                            all_topics=all_topics, levels=levels, condensed=condensed)]
    say("comparing runs")
    c = comparison_of(evaluated, list(measures), None, test=test, alpha=alpha, resamples=resamples, seed=seed,
                      correction=correction)
    now = datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()
    data = ReportData([("readsim", readsim.__version__), ("written", now), *options], files, c, evaluated)
    say("drawing figures")
    for n, i in enumerate(int(i) for i in c.order[0][1:]):
        d = topic_differences(c, 0, i, int(c.references(0)[i]))
        data.plots.append((f"{d.run} − {d.reference} under {d.measure}: mean {d.mean:+.4f}, "
                           f"{d.level * 100:g}% paired t interval [{d.low:+.4f}, {d.high:+.4f}]",
                           inline_svg(draw_topic_differences(d), f"d{n}")))
    curves = Curves([e.run_id for e in evaluated], [m.name for m in curve_list], x,
                    np.array([[e.means[m.name] for m in curve_list] for e in evaluated], dtype=float), "ircl",
                    curve_list[0].doc.name, [len(e.topics) for e in evaluated])
    data.curve = inline_svg(draw_curves(curves), "curve")
    _losses(data, qrels, runs, measures[0], c.topics, reading, collection, levels, say)
    if collection is None:
        data.notes.append("no collection given (--collection): the articles are not drawn")
    elif articles > 0:
        say("drawing articles")
        _articles(data, qrels, runs, c, topic_differences(c, 0), articles, reading, collection)
    return data


def _losses(data: ReportData, qrels, runs, measure: ListMeasure, topics, reading, collection, levels, say) -> None:
    from readsim.core.costs import COST_KINDS, run_costs

    m = measure if measure.kind in COST_KINDS and measure.doc is not None else parse_list_measure("AgP/F(0.25)")
    data.loss_measure = m.name
    say("splitting the losses")
    for run in runs:
        mine = [t for t in topics if t in run.topics]
        rows = {f: [] for f in LOSS_FIELDS}
        for _, costs, _ in run_costs(qrels, run, m, mine, reading, collection, levels):
            for f in LOSS_FIELDS:
                rows[f].append(float(getattr(costs, f)))
        data.losses[run.run_id] = {f: float(np.mean(v)) if v else float("nan") for f, v in rows.items()}
        data.loss_topics[run.run_id] = len(mine)


CANDIDATES = 6
"""Relevant articles per topic whose scores are compared to choose the one drawn (the largest first)."""


def _articles(data: ReportData, qrels, runs, c, d, count: int, reading, collection) -> None:
    """The ``count`` topics where the runner-up and the best run differ most (largest absolute
    difference, ties by the plot's order) among those with a relevant article the collection holds
    and a run ranks, each with the relevant article (of the
    :data:`CANDIDATES` largest the collection holds and a run ranks) whose document score (the
    measure's S) differs most between the two runs (an unranked article scores 0), drawn for
    each of the two runs that ranks it."""
    from readsim.operations.article import article

    by_label = {r.run_id: r for r in runs}
    pair = [by_label[d.run], by_label[d.reference]]
    doc = (c.measures[0].split("/", 1)[1] if "/" in c.measures[0] else "F(0.25)")
    skipped = 0
    for t in np.argsort(-np.abs(d.diff), kind="stable"):
        if len(data.articles) >= count:
            break
        topic = d.topics[int(t)]
        ranks = [{e.article: k for k, e in enumerate(r.topics.get(topic, ()), 1)} for r in pair]
        relevant = sorted((j for j in qrels.topics.get(topic, {}).values()
                           if j.relevant and j.article in collection and (j.article in ranks[0] or j.article in ranks[1])),
                          key=lambda j: (-j.rel_size, j.article))[:CANDIDATES]
        if not relevant:
            skipped += 1
            continue
        best = None
        for j in relevant:
            views = [article(qrels, r, topic=topic, article=j.article, collection=collection, reading=reading)
                     if j.article in rk else None for r, rk in zip(pair, ranks)]
            scores = [v.scores.get(doc, float("nan")) if v is not None else 0.0 for v in views]
            gap = abs(scores[0] - scores[1]) if not any(map(np.isnan, scores)) else 0.0
            if best is None or gap > best[0]:
                best = (gap, j.article, views, scores)
        _, chosen, views, scores = best
        shown = []
        for r, rk, v, s in zip(pair, ranks, views, scores):
            name = f"{r.run_id}: rank {rk[chosen]}, {doc} {s:.4f}" if v is not None else f"{r.run_id} does not rank it"
            shown.append((name, v._repr_html_() if v is not None else ""))
        data.articles.append((topic, f"{d.run} − {d.reference} = {float(d.diff[int(t)]):+.4f} under {d.measure}; "
                              f"article {chosen}: of the topic's largest relevant articles, the one whose {doc} "
                              f"differs most between the two runs", shown))
    if skipped:
        data.notes.append(f"articles: {plural(skipped, 'topic')} that differ more passed over: neither {d.run} nor "
                          f"{d.reference} ranks a relevant article of theirs that the collection holds")


def report(qrels, runs, path: str | os.PathLike | None = None, measures=None, *, collection=None,
           reading: str = "natural", unit: str | None = None, all_topics: bool = False, levels: int = 4,
           condensed: bool = False, test: str = "bootstrap", alpha: float = 0.05, resamples: int = 1000,
           seed: int = 0, correction: str = "none", articles: int = 3) -> str:
    """The report of ``runs`` compared (``readsim-eval report``, reference 9.9): one self-contained
    HTML page (a ``str``), written atomically to ``path`` when given.

    ``qrels``, ``runs``, ``collection``, ``unit``, ``reading``, ``all_topics``, ``condensed``: as
    :func:`readsim.compare`; ``measures``: list measure names (default ``AgP/F(0.25)``; the first
    drives the per-topic part); ``test``, ``alpha``, ``resamples``, ``seed``, ``correction``: as
    :func:`readsim.compare`; ``levels``: LE's levels; ``articles``: how many topics get their
    articles drawn (0 to 50; needs ``collection``). Inputs given as files are listed with their
    size in bytes and SHA-256. Raises :class:`readsim.InputError` on bad input, ``ValueError`` on
    an option out of range, fewer than 2 runs or fewer than 2 paired topics,
    :class:`readsim.operations.figures.PlotsMissing` (an ``ImportError``) without matplotlib
    (the extra ``plots``), ``OSError`` when ``path`` cannot be written."""
    import dataclasses

    from readsim.core.atomic import write_text
    from readsim.core.paired_statistics import CORRECTIONS, TESTS
    from readsim.core.run_comparison import check_options
    from readsim.core.units import unit_of
    from readsim.operations.checks import choice, flag, real, whole
    from readsim.operations.evaluate import _check, _collection, _lengths, _measures
    from readsim.operations.inputs import as_qrels, labelled_runs
    from readsim.operations.report_html import report_page

    _check("all", reading, unit)
    check_options(choice("test", test, TESTS), real("alpha", alpha), whole("resamples", resamples),
                  whole("seed", seed), choice("correction", correction, CORRECTIONS))
    whole("articles", articles, 0, 50)
    parsed = _measures(measures if measures is not None else ["AgP/F(0.25)"], "all")
    judged = as_qrels(qrels)
    engine_runs, labels = labelled_runs(runs)
    if len(engine_runs) < 2:
        raise ValueError(f"a report compares at least 2 runs, not {len(engine_runs)}")
    labelled = [dataclasses.replace(r, run_id=label) for r, label in zip(engine_runs, labels)]
    found = _collection(collection, unit)
    judged = _lengths(judged, found)
    files = [(role, p) for role, p in [("qrels", qrels), *(("run", r) for r in runs), ("collection", collection)]
             if isinstance(p, (str, os.PathLike))]
    options = [("measures", ", ".join(m.name for m in parsed)), ("reading", reading), ("unit", unit_of(unit, found)),
               ("topics", "every judged topic (all_topics)" if flag("all_topics", all_topics) else
                "the topics every run has"),
               ("test", f"{test}, alpha {alpha:g}, {resamples} resamples, seed {seed}, correction {correction}")]
    data = build_report(judged, labelled, parsed, collection=found, reading=reading, all_topics=all_topics,
                        levels=levels, condensed=flag("condensed", condensed), test=test, alpha=alpha,
                        resamples=resamples, seed=seed, correction=correction, articles=articles,
                        options=options, paths=files)
    page = report_page(data)
    if path is not None:
        write_text(path, page)
    return page
