"""``readsim-eval loss``: where a run loses and what each article costs (docs/reference.md
section 5.11).

``readsim-eval loss QRELS RUN [--vs RUN2] [-m LIST/DOC] [--topic T ...] [--collection DIR]``
prints, per topic, the list measure (default ``AgP/F(0.25)``, MAgP's official one) as is, with
ideal passages, in the ideal ordering of the run's articles and with both, the split (browse,
fetch, together, unretrieved), and per ranked article its browse cost and rank cost (the API's
core ``readsim.core.costs.run_costs``, the numbers of ``readsim.loss``); with ``--vs``, per article the
competitor's rank and score and what taking its rank or its passages would be worth. A readable
report (``--format text``: the ``--top`` costliest articles of each topic) or every row (``tsv``
with ``#kind`` header rows, ``jsonl`` with a ``"kind"`` key: ``topic`` and ``article`` rows).

Exit status as ``readsim-eval`` (:mod:`.common`): 1 bad input (a file that does not parse, a
``--topic`` the qrels do not judge or judge with no relevant article); 2 bad usage (an unknown
measure, one without per-article costs, more than one ``-m``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import numpy as np

from readsim.core.report_numbers import format_signed
from readsim.core.measure import DEFAULT_LIST_MEASURE, PARAMETER_RANGES, ListMeasure, parse_count
from readsim.core.registry import LIST, cost_kinds
from .common import (EXIT_STATUS_HELP, EXIT_USAGE, Parser, Rows, add_segments_option, add_subcommand_options, check_paths,
                     open_collection, option, read_segment_table, run_subcommand, warn)


def _top(text: str) -> int:
    return parse_count(text, "--top", 0, 10**9)


def _with_costs(last: str = ", ") -> str:
    """The list measures with per-article costs, as the help writes them: ``AgP, gP@r, CE@r, ...``."""
    forms = [f.replace("/LE(s)", "").replace("/DOC", "").replace("@i", "@r") for k in cost_kinds() for f in LIST[k].forms]
    return ", ".join(forms[:-1]) + last + forms[-1] if len(forms) > 1 else "".join(forms)


def build_parser() -> Parser:
    p = Parser(
        "readsim-eval loss",
        "Where a run loses, topic by topic, and what each ranked article costs: the list measure as is, with "
        "every article's passages replaced by its relevant text (ideal passages), with the run's articles in the "
        "ideal order (relevant ones by decreasing relevant size, then the others), with both; per article its "
        "browse cost (the topic's score with this article's passages alone replaced by its relevant text, minus "
        "as is) and rank cost (with this article alone moved to its rank in the ideal order, minus as is). "
        "With --vs, per article the competitor's rank and score and what taking them is worth.",
        "Costs are gains: positive is what the run gives away (for CE, NCE, ANCE, lower is better, the "
        "differences are negated). Measures with costs: " + _with_costs() + " over a document measure. "
        "Parameters: " + PARAMETER_RANGES + ". " + EXIT_STATUS_HELP)
    add_subcommand_options(p)
    for action in p._actions:  # one measure here, not the other subcommands' many
        if action.dest == "measures":
            action.help = f"the list measure (one; default {DEFAULT_LIST_MEASURE}): {_with_costs(' or ')} over S"
    p.add_argument("run", metavar="RUN", help="the run (FOL or XML)")
    p.add_argument("--vs", metavar="RUN2", help="a competitor's run: per article its rank, its score and their worth")
    p.add_argument("--topic", action="append", dest="topics", metavar="T",
                   help="a topic (repeatable; default every topic of the run the qrels judge with a relevant article)")
    p.add_argument("--collection", metavar="DIR",
                   help="the articles: a folder or an archive, as for plain evaluation (needed for XPath results)")
    add_segments_option(p)
    p.add_argument("--top", type=option(_top), default=10, metavar="N",
                   help="text format: the N costliest articles of each topic (default 10; 0: every ranked article)")
    return p


def main(argv: list[str], out: TextIO, err: TextIO) -> int:
    """``readsim-eval loss`` with ``argv`` (after ``loss``); returns the exit status. Raises
    :class:`InputError` and ``OSError`` for the error guard to print as one line."""
    return run_subcommand(build_parser(), run_loss, argv, out, err)


def run_loss(args, measures: list[ListMeasure], out: TextIO, err: TextIO) -> int:
    from readsim.operations.evaluate import unsaid
    from readsim.core.costs import run_costs
    from readsim.core.qrels_lengths import with_collection_lengths
    from readsim.operations.loss import loss_topics, loss_warnings

    from readsim.core.formats import read_any_run, read_qrels
    from readsim.core.costs import COST_KINDS

    if len(measures) != 1 or measures[0].kind not in COST_KINDS or measures[0].doc is None:
        what = "one -m at a time" if len(measures) != 1 else f"no per-article costs for {measures[0].name}"
        print(f"readsim-eval: loss: {what}: give one of {', '.join(COST_KINDS)} over a document measure "
              f"({DEFAULT_LIST_MEASURE}, gP@10/F(0.25), ANCE@600/LE(300), ...)", file=err)
        return EXIT_USAGE
    measure = measures[0]
    check_paths([("qrels", args.qrels), ("run", args.run), ("run", args.vs), ("collection", args.collection),
                 ("segments", args.segments)])
    qrels = read_qrels(args.qrels, min_grade=getattr(args, "min_grade", 1))
    collection = open_collection(args.collection, args.unit, err) if args.collection else None
    qrels = with_collection_lengths(qrels, collection)  # its warnings are the qrels', said below
    segments = read_segment_table(args)
    run = read_any_run(args.run, segments=segments)
    other = read_any_run(args.vs, segments=segments) if args.vs else None
    said = loss_warnings(qrels, run, other, collection)  # readsim.loss's warnings
    topics, diagnostics = loss_topics(qrels, run, args.topics or None)
    warn(said + unsaid(diagnostics, said), err)
    results = run_costs(qrels, run, measure, topics, args.reading, collection, args.levels, other)
    vs_file = Path(args.vs).name if args.vs else ""
    if args.format == "text":
        write_text(run.run_id, measure, results, args.top, out, vs_file)
    else:
        write_rows(run.run_id, measure, results, args.format, out, vs_file)
    return 0


def _optional(value: float) -> float | None:
    return None if value != value else float(value)


def write_rows(run_id: str, measure: ListMeasure, results, fmt: str, out: TextIO, vs_file: str = "") -> None:
    """tsv or jsonl rows: one ``topic`` row per topic, one ``article`` row per ranked article
    (``vs_file``: the competitor's file name)."""
    rows = Rows(fmt, out)
    for topic, c, v in results:
        vs = {} if v is None else {"vs_run": v.run, "vs_file": vs_file, "vs_as_is": v.as_is}
        rows.add("topic", run=run_id, topic=topic, measure=measure.name, nrel=c.loss.nrel,
                 ranked=len(c.loss.articles), as_is=c.as_is, ideal_passages=c.ideal_passages,
                 ideal_ranking=c.ideal_ranking, ideal=c.ideal, perfect=c.perfect, browse=c.browse, fetch=c.fetch,
                 interaction=c.interaction, unretrieved=c.unretrieved, **vs)
    for topic, c, v in results:
        loss = c.loss
        for k, article in enumerate(loss.articles):
            rel = bool(loss.relevant[k])
            vs = {} if v is None else {
                "vs_rank": int(v.vs_rank[k]) or None, "vs_score": _optional(v.vs_score[k]),
                "vs_rank_cost": _optional(v.vs_rank_cost[k]), "vs_browse_cost": _optional(v.vs_browse_cost[k])}
            rows.add("article", topic=topic, article=article, rank=k + 1, relevant=rel,
                     ideal_rank=int(c.ideal_rank[k]), score=float(loss.scores[k]),
                     ideal_score=float(loss.ideal_scores[k]), browse_cost=float(c.browse_cost[k]),
                     rank_cost=float(c.rank_cost[k]), **vs)
    rows.flush()


def _cost(value: float) -> str:
    return "-" if value != value else format_signed(value)  # a zero difference unsigned: 0.0000


def write_text(run_id: str, measure: ListMeasure, results, top: int, out: TextIO, vs_file: str = "") -> None:
    """The readable report: per topic the split and the ``top`` costliest articles (0: all, rank
    order), by the largest of their costs (``vs_file``: the competitor's file name)."""
    doc = measure.doc
    lines = [f"readsim-eval loss: {run_id}, {measure.name}; costs are what the change gains (positive: what the "
             f"run gives away)"]
    for topic, c, v in results:
        loss = c.loss
        lines += ["", f"topic {topic}: {len(loss.articles)} ranked, {int(np.count_nonzero(loss.relevant))} of "
                      f"Nrel {loss.nrel} relevant ranked" + (f"; {vs_file} ({v.run}) {v.as_is:.4f}" if v is not None else ""),
                  f"  as is {c.as_is:.4f}   ideal passages {c.ideal_passages:.4f} (browse {format_signed(c.browse)})   "
                  f"ideal ranking {c.ideal_ranking:.4f} (fetch {format_signed(c.fetch)})   both {c.ideal:.4f} "
                  f"(together {format_signed(c.interaction)})   all relevant ideal {c.perfect:.4f} "
                  f"(unretrieved {format_signed(c.unretrieved)})"]
        if not loss.articles:
            continue
        costs = [c.browse_cost, c.rank_cost] + ([] if v is None else [v.vs_rank_cost, v.vs_browse_cost])
        worst = np.nanmax(np.vstack(costs), axis=0)
        order = np.arange(len(loss.articles)) if top == 0 else np.argsort(-worst, kind="stable")[:top]
        head = (f"  {'rank':>5} {'article':<10} {'rel':<3} {'ideal':>5} {doc.name:>10} {'ideal S':>8} "
                f"{'browse cost':>11} {'rank cost':>9}")
        if v is not None:
            head += f"  {'vs rank':>7} {'vs S':>8} {'vs rank cost':>12} {'vs passages cost':>16}"
        lines.append(head + ("" if top == 0 else f"   ({min(top, len(loss.articles))} costliest)"))
        for k in order.tolist():
            rel = bool(loss.relevant[k])
            digits = 0 if doc.declaration.whole else 4  # screens are whole numbers
            s = f"{loss.scores[k]:.{digits}f}" if rel else "-"
            si = f"{loss.ideal_scores[k]:.{digits}f}" if rel else "-"
            line = (f"  {k + 1:>5} {loss.articles[k]:<10} {'yes' if rel else 'no':<3} {int(c.ideal_rank[k]):>5} "
                    f"{s:>10} {si:>8} {_cost(c.browse_cost[k]):>11} {_cost(c.rank_cost[k]):>9}")
            if v is not None:
                ranked = int(v.vs_rank[k])
                vs = f"{v.vs_score[k]:.4f}" if ranked and rel else "-"
                line += (f"  {ranked or '-':>7} {vs:>8} {_cost(v.vs_rank_cost[k]):>12} "
                         f"{_cost(v.vs_browse_cost[k]):>16}")
            lines.append(line)
    out.write("\n".join(lines) + "\n")

