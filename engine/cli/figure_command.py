"""``readsim-eval figure``: figures for a paper, written as SVG, PDF or PNG (docs/reference.md
section 12.5).

``readsim-eval figure topics QRELS RUN RUN [RUN ...] -o FILE`` draws the per-topic difference plot of
two runs under one list measure (default: the runner-up against the best-ranked run; ``--run`` and
``--against`` choose): a bar per paired topic, sorted by difference, coloured by sign, the mean
difference and its paired t interval marked. ``readsim-eval figure curve QRELS RUN [RUN ...] -o
FILE`` draws the runs' interpolated gP at the 11 recall points (``--curve ircl``) or gP[r] at ranks
1 .. ``--ranks`` (``--curve gP``). The format is the file's suffix; the file is written atomically;
a line on standard output gives the numbers drawn (the mean difference and its interval, or each
run's first point). The drawing is :mod:`readsim.operations.figures`' (matplotlib, the optional
extra ``plots``: without it, a message naming the extra and exit 1).

Exit status as ``readsim-eval`` (:mod:`.common`): 1 bad input or no matplotlib; 2 bad usage (an
unknown measure, a suffix other than .svg, .pdf, .png, fewer runs than the figure needs, a
``--run`` that is not one of the runs).
"""

from __future__ import annotations

import errno
import os
from typing import TextIO

from readsim.core.measure import BadParameter, UnknownMeasure, option, parse_count, parse_real
from readsim.core.report_numbers import plural
from readsim.core.coverage import run_paths
from .common import add_reading_options, EXIT_INPUT, EXIT_STATUS_HELP, EXIT_USAGE, Parser, check_paths, list_measures, read_inputs, warn


def _level(text: str) -> float:
    value = parse_real(text, "the interval's level", 0.0, 1.0, low_inclusive=False)
    if value >= 1.0:
        raise BadParameter(f"the interval's level must be above 0 and below 1, not {text.strip()[:60]!r}")
    return value


def _ranks(text: str) -> int:
    return parse_count(text, "the number of ranks", 1, 1000)


def build_parser() -> Parser:
    p = Parser(
        "readsim-eval figure",
        "Draw a figure of runs: 'topics', the per-topic difference plot of two runs (a bar per paired topic, sorted "
        "by difference, green where the run does better, red where worse; the mean difference and its paired t "
        "interval marked), or 'curve', the runs' interpolated generalized precision at 11 recall points or gP[r] at "
        "ranks 1 to N. The format is the output file's suffix: .svg, .pdf or .png.",
        "Needs matplotlib: pip install 'readsim[plots]'. " + EXIT_STATUS_HELP)
    p.add_argument("figure", choices=("topics", "curve"), help="the figure: topics or curve")
    p.add_argument("qrels", metavar="QRELS", help="qrels file")
    p.add_argument("runs", nargs="*", metavar="RUN", help="run files: 2 or more for topics, 1 or more for curve, "
                   "with those of --runs")
    p.add_argument("--runs", dest="folder", metavar="DIR", help="a folder of run files (every file not starting with '.')")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the figure file: .svg, .pdf or .png")
    p.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help="topics: the list measure (default AgP/F(0.25))")
    p.add_argument("--run", metavar="NAME", help="topics: the run drawn (its label; default the runner-up)")
    p.add_argument("--against", metavar="NAME",
                   help="topics: the run it is set against (default the best-ranked run, or the runner-up)")
    p.add_argument("--level", type=option(_level), default=0.95, metavar="L",
                   help="topics: the paired t interval's level, above 0 and below 1 (default 0.95)")
    p.add_argument("--curve", default="ircl", choices=("ircl", "gP"),
                   help="curve: ircl (interpolated gP at 11 recall points, default) or gP (gP[r] at ranks 1 .. N)")
    p.add_argument("--doc", default="F(0.25)", metavar="DOC", help="curve: the document measure S (default F(0.25))")
    p.add_argument("--ranks", type=option(_ranks), default=50, metavar="N",
                   help="curve gP: the last rank, 1 to 1000 (default 50)")
    p.add_argument("-c", dest="complete", action="store_true",
                   help="every judged topic, a topic missing from a run scoring as an empty ranking")
    add_reading_options(p)
    p.add_argument("--collection", metavar="DIR", help="the articles (as plain evaluation)")
    p.add_argument("--strict", action="store_true", help="reject runs the official INEX tool rejects")
    return p


def main(argv: list[str], out: TextIO, err: TextIO) -> int:
    """``readsim-eval figure`` with ``argv`` (after ``figure``); returns the exit status. Raises
    :class:`InputError` and ``OSError`` for the error guard to print as one line."""
    from readsim.operations.figures import PlotsMissing, curve_measures, figure_format, new_axes

    args = build_parser().parse(argv, out, err)
    if isinstance(args, int):
        return args
    try:
        figure_format(args.output)
        if args.figure == "curve":
            curve_measures(args.curve, args.doc, args.ranks)
            measures = []
        else:
            measures = list(dict.fromkeys(list_measures(args.measures, args.plain_gp)))
    except (ValueError, UnknownMeasure) as exc:
        print(f"readsim-eval figure: {exc}", file=err)
        return EXIT_USAGE
    need = 2 if args.figure == "topics" else 1
    args.runs = run_paths(args.runs, args.folder)
    if len(args.runs) < need or len(measures) > 1:
        print(f"readsim-eval figure: {args.figure} draws {'two runs under one measure' if need == 2 else 'runs'}: "
              f"give {need} runs or more" + (" and one -m" if need == 2 else ""), file=err)
        return EXIT_USAGE
    try:
        new_axes()
    except PlotsMissing as exc:
        print(f"readsim-eval figure: {exc}", file=err)
        return EXIT_INPUT
    check_paths([("qrels", args.qrels), *(("run", r) for r in args.runs), ("collection", args.collection)])
    from readsim.core.atomic import check_output

    check_output(args.output, [("qrels", args.qrels), *(("run", r) for r in args.runs)])
    if not os.path.isdir(os.path.dirname(os.path.abspath(args.output))):  # said now, not after the work
        raise FileNotFoundError(errno.ENOENT, "No such file or directory (its folder does not exist)", args.output)
    if args.figure == "topics":
        return _topics(args, measures, out, err)
    return _curve(args, out, err)


def _evaluated(args, measures, err):
    from readsim.operations.evaluate import evaluations
    from readsim.operations.inputs import diagnostics_to

    qrels, collection, runs = read_inputs(args, err)
    with diagnostics_to(lambda diagnostics: warn(diagnostics, err)):
        return [e for _, e in evaluations(qrels, runs, measures, reading=args.reading, collection=collection,
                                          all_topics=args.complete, levels=args.levels)]


def _topics(args, measures, out: TextIO, err: TextIO) -> int:
    from readsim.core.topic_differences import topic_differences
    from readsim.operations.comparison import comparison_of
    from readsim.operations.figures import draw_topic_differences

    results = _evaluated(args, measures, err)
    try:
        c = comparison_of(results, measures, None, test="t")
    except ValueError as exc:
        print(f"readsim-eval figure: {exc}", file=err)
        return EXIT_INPUT
    chosen = []
    for option_name, name in (("--run", args.run), ("--against", args.against)):
        if name is not None and name not in c.runs:
            print(f"readsim-eval figure: {option_name} {name!r} is not one of the runs ({', '.join(c.runs)})", file=err)
            return EXIT_USAGE
        chosen.append(None if name is None else c.runs.index(name))
    run, against = chosen
    if run is None and against is not None:
        run = int(c.order[0][0]) if int(c.order[0][0]) != against else int(c.order[0][1])
    try:
        d = topic_differences(c, 0, run, against, args.level)
    except ValueError as exc:
        print(f"readsim-eval figure: {exc}", file=err)
        return EXIT_USAGE
    if c.left_out:
        print(f"readsim-eval figure: warning: {len(c.left_out)} judged topics are not in every run; drawn on the "
              f"{len(c.topics)} topics every run has (-c: every judged topic)", file=err)
    draw_topic_differences(d, args.output)
    print(f"{args.output}: {d.measure}, {d.run} - {d.reference} on {len(d.topics)} topics: mean {d.mean:+.4f}, "
          f"{d.level * 100:g}% paired t interval [{d.low:+.4f}, {d.high:+.4f}]", file=out)
    return 0


def _curve(args, out: TextIO, err: TextIO) -> int:
    from readsim.operations.figures import Curves, curve_measures, draw_curves

    measures, x = curve_measures(args.curve, args.doc, args.ranks)
    results = _evaluated(args, measures, err)
    y = [[r.means[m.name] for m in measures] for r in results]
    import numpy as np

    curves = Curves([r.run_id for r in results], [m.name for m in measures], x, np.array(y, dtype=float),
                    args.curve, measures[0].doc.name, [len(r.topics) for r in results])
    draw_curves(curves, args.output)
    first = ", ".join(f"{run} {values[0]:.4f}" for run, values in zip(curves.runs, curves.y))
    print(f"{args.output}: {curves.measures[0]} .. {curves.measures[-1]} of {plural(len(curves.runs), 'run')}; "
          f"at {curves.measures[0]}: {first}", file=out)
    return 0
