"""``readsim-eval report``: one self-contained HTML report of runs compared (docs/reference.md
section 9.9).

``readsim-eval report QRELS RUN [RUN ...] -o report.html`` evaluates every run once, compares them
(as ``readsim-eval compare``) and writes one HTML file: the provenance (readsim's version, the
time, the command's options, every input file with its size and SHA-256), the runs' means and
intervals, the significance of every pair, the per-topic difference plots and table, the runs'
curves, where each run loses (``readsim-eval loss``'s split) and, with ``--collection``, the
articles of the topics where the two best runs differ most, marked as the API draws them. No
script and no network: the page reads the same in any browser, offline. The numbers are
:mod:`readsim.operations.report`'s, the page :mod:`readsim.operations.report_html`'s; the file is
written atomically.

Exit status as ``readsim-eval`` (:mod:`.common`): 1 bad input, fewer than 2 paired topics or no
matplotlib (the extra ``plots``); 2 bad usage (fewer than 2 runs, an unknown measure, an option
out of range, an output that is not ``.html``/``.htm``).
"""

from __future__ import annotations

import errno
import os
from typing import TextIO

from readsim.core.coverage import run_paths
from readsim.core.measure import option, parse_count
from readsim.core.units import unit_of
from .common import (add_reading_options, EXIT_INPUT, EXIT_STATUS_HELP, EXIT_USAGE, Parser, check_paths, progress, read_inputs, run_subcommand, warn)
from .compare_command import add_test_options


def _articles(text: str) -> int:
    return parse_count(text, "the number of topics whose articles are drawn", 0, 50)


def build_parser() -> Parser:
    p = Parser(
        "readsim-eval report",
        "Write one self-contained HTML report of runs compared: the provenance (version, options, files and their "
        "SHA-256), the runs' measures with intervals, the significance of every pair, the per-topic difference plots "
        "and table, the runs' interpolated gP curves, where each run loses (the loss split) and, with --collection, "
        "the articles of the topics where the two best runs differ most. No script, no network.",
        "Needs matplotlib: pip install 'readsim[plots]'. " + EXIT_STATUS_HELP)
    p.add_argument("qrels", metavar="QRELS", help="qrels file")
    p.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help="list measure (repeatable; default AgP/F(0.25)); the first drives the per-topic part")
    add_reading_options(p)
    p.add_argument("runs", nargs="*", metavar="RUN", help="run files; at least 2 in all, with those of --runs")
    p.add_argument("--runs", dest="folder", metavar="DIR", help="a folder of run files (every file not starting with '.')")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the report: an .html file")
    add_test_options(p)
    p.add_argument("-c", dest="complete", action="store_true",
                   help="pair over every judged topic, a topic missing from a run scoring as an empty ranking")
    p.add_argument("--condensed", action="store_true", help="remove unjudged articles from each ranking first")
    p.add_argument("--collection", metavar="DIR", help="the articles: needed to draw them")
    p.add_argument("--articles", type=option(_articles), default=3, metavar="N",
                   help="topics whose articles are drawn, 0 to 50 (default 3; needs --collection)")
    p.add_argument("--strict", action="store_true", help="reject runs the official INEX tool rejects")
    return p


def main(argv: list[str], out: TextIO, err: TextIO) -> int:
    """``readsim-eval report`` with ``argv`` (after ``report``); returns the exit status. Raises
    :class:`InputError` and ``OSError`` for the error guard to print as one line."""
    return run_subcommand(build_parser(), lambda args, measures, o, e: run_report(args, measures, argv, o, e),
                          argv, out, err)


def run_report(args, measures, argv: list[str], out: TextIO, err: TextIO) -> int:
    from readsim.core.atomic import check_output, write_text
    from readsim.operations.figures import PlotsMissing, new_axes
    from readsim.operations.inputs import diagnostics_to
    from readsim.operations.report import build_report
    from readsim.operations.report_html import report_page

    paths = run_paths(args.runs, args.folder)
    if len(paths) < 2:
        print(f"readsim-eval report: give at least 2 runs (RUN RUN ... or --runs DIR), not {len(paths)}", file=err)
        return EXIT_USAGE
    if not str(args.output).lower().endswith((".html", ".htm")):
        print(f"readsim-eval report: {args.output}: the report is an HTML file: name it .html", file=err)
        return EXIT_USAGE
    try:
        new_axes()
    except PlotsMissing as exc:
        print(f"readsim-eval report: {exc}", file=err)
        return EXIT_INPUT
    check_paths([("qrels", args.qrels), *(("run", r) for r in paths), ("collection", args.collection)])
    check_output(args.output, [("qrels", args.qrels), *(("run", r) for r in paths)])
    if not os.path.isdir(os.path.dirname(os.path.abspath(args.output))):  # said now, not after the work
        raise FileNotFoundError(errno.ENOENT, "No such file or directory (its folder does not exist)", args.output)
    args.runs = paths
    qrels, collection, runs = read_inputs(args, err)
    report = progress(err, "report")
    options = [("command", "readsim-eval report " + " ".join(argv)),
               ("measures", ", ".join(m.name for m in measures)), ("reading", args.reading), ("unit", unit_of(args.unit, collection)),
               ("topics", "every judged topic (-c)" if args.complete else "the topics every run has"),
               ("test", f"{args.test}, alpha {args.alpha:g}, {args.resamples} resamples, seed {args.seed}, "
                        f"correction {args.correction}")]
    files = [("qrels", args.qrels), *(("run", r) for r in paths)] + ([("collection", args.collection)]
                                                                      if args.collection else [])
    try:
        with diagnostics_to(lambda diagnostics: warn(diagnostics, err)):
            data = build_report(qrels, runs, measures, collection=collection, reading=args.reading,
                                all_topics=args.complete, levels=args.levels, condensed=args.condensed,
                                test=args.test, alpha=args.alpha, resamples=args.resamples, seed=args.seed,
                                correction=args.correction, articles=args.articles, options=options, paths=files,
                                progress=(lambda what: report(0, 1)) if report is not None else None)
    except ValueError as exc:
        print(f"readsim-eval report: {exc}", file=err)
        return EXIT_INPUT
    page = report_page(data)
    write_text(args.output, page)
    c = data.comparison
    print(f"readsim-eval report: wrote {args.output} ({len(page.encode()):,} bytes): {len(c.runs)} runs on "
          f"{len(c.topics)} topics, {len(c.measures)} measure{'s' if len(c.measures) != 1 else ''}, "
          f"{len(data.articles)} topics with articles", file=err)
    return 0
