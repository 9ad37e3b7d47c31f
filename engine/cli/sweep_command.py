"""``readsim-eval sweep QRELS RUN -m MEASURE ... --vary NAME=...``: every measure with parameter
NAME at each of its values (docs/reference.md section 9.6).

Rows ``measure<TAB>parameter<TAB>parameter_value<TAB>topic<TAB>value`` (``--per-article``: an
``article`` column before the value), per value in the order given: for each, exactly the rows
plain evaluation prints for the measures at that value (per-topic rows first with ``-q``, then
the means, topic ``all``), the measure under its canonical name at that value. ``--format
jsonl``: ``{"measure", "parameter", "parameter_value", "topic", ("article"), "value"}``. The
numbers are the Python API's (``readsim.operations.sweep.sweep_rows``: all values in one evaluation).
A bad ``--vary`` is a usage error, ``--vary: reason``, exit 2.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from readsim.core.measure import MAX_LEVELS, PARAMETER_RANGES, UnknownMeasure
from readsim.core.registry import DOC, WEIGHT, parameter_kinds
from readsim.core.reading import Mode
from readsim.core.parameter_sweep import FORMS, VaryError, format_value, parse_vary, swept
from readsim.core.units import UNIT_HELP, UNITS
from .common import (DEFAULT_LIST_MEASURES, DEFAULT_MEASURES, EXIT_STATUS_HELP, EXIT_USAGE, Parser, add_segments_option, check_paths,
                     chosen_measures, fmt, levels, min_grade, MIN_GRADE_HELP, option, progress, read_inputs, warn)


def _parameters() -> str:
    """Each sweepable parameter with the document measures that have it: ``k (ChP@k, ChR@k), ...``."""
    kinds = parameter_kinds()

    def having(name: str) -> str:
        return ", ".join(d.forms[-1] for d in DOC.values() if name in (p.name for p in d.params))
    return ", ".join(f"{name} ({having(name)})" for name in sorted(kinds, key=lambda name: kinds[name] == WEIGHT))


def build_parser() -> Parser:
    p = Parser(
        "readsim-eval sweep",
        "Evaluate a run's measures at many values of one parameter: every measure with parameter NAME (-m, "
        "repeatable) at each value of --vary; each row equals plain evaluation of the measure's name at that value.",
        f"NAME is a measure parameter as the reference names it: {_parameters()}; measures without it are left "
        "out (a warning). Values: NAME=V1,V2,... or NAME=START:STOP:N (N evenly spaced values) or NAME=START:STOP:N:log "
        "(evenly on a log scale); sizes are rounded to whole numbers, weights to 6 significant digits. Parameters: "
        + PARAMETER_RANGES + ". " + EXIT_STATUS_HELP,
    )
    p.add_argument("qrels", metavar="QRELS", help="FOL qrels file")
    p.add_argument("run", metavar="RUN", help="FOL or XML run file")
    p.add_argument("--vary", required=True, metavar="NAME=VALUES", help=f"the parameter and its values: {FORMS}")
    p.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help=f"measure (repeatable; default {DEFAULT_LIST_MEASURES[0]}, {DEFAULT_MEASURES[0]} with "
                   "--per-article)")
    p.add_argument("-q", dest="per_topic", action="store_true", help="print per-topic values before the mean ('all')")
    p.add_argument("-c", dest="complete", action="store_true",
                   help="average over every judged topic, a topic missing from the run scoring as an empty ranking")
    p.add_argument("--per-article", action="store_true",
                   help="document scores of every (topic, article) of the run instead of list measures")
    p.add_argument("--plain-gp", action="store_true", help="gP@r past the end of a short run is sum/r")
    p.add_argument("--as-documents", action="store_true", help="evaluate every ranked article as retrieved whole")
    p.add_argument("--reading", default="natural", choices=[m.value for m in Mode],
                   help="reading order after the matching chain (default natural)")
    p.add_argument("--unit", choices=UNITS, help=UNIT_HELP)
    p.add_argument("--min-grade", type=option(min_grade), default=1, metavar="G", help=MIN_GRADE_HELP)
    p.add_argument("--collection", metavar="DIR", help="the articles: a folder or an archive (as plain evaluation)")
    p.add_argument("--strict", action="store_true", help="reject runs the official INEX tool rejects")
    add_segments_option(p)
    p.add_argument("--format", default="tsv", choices=("tsv", "jsonl"), help="output format (default tsv)")
    p.add_argument("--levels", type=option(levels), default=4, metavar="L",
                   help=f"LE levels L, a whole number from 1 to {MAX_LEVELS} (default 4; NR = L + 1)")
    return p


def main(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    """``readsim-eval sweep ...`` with ``argv``; returns the exit status. Raises
    :class:`~readsim.core.errors.InputError` and ``OSError`` for the error guard to print as one line."""
    from readsim.operations.inputs import diagnostics_to
    from readsim.operations.sweep import sweep_rows

    args = build_parser().parse(argv, out, err)
    if isinstance(args, int):
        return args
    try:
        measures = chosen_measures(args)
    except UnknownMeasure as exc:
        print(f"readsim-eval: {exc}", file=err)
        return EXIT_USAGE
    measures = list(dict.fromkeys(measures))
    try:
        vary = parse_vary(args.vary)
        _, left_out = swept(measures, vary)
    except VaryError as exc:
        print(f"readsim-eval: --vary: {exc}", file=err)
        return EXIT_USAGE
    for m in left_out:
        print(f"readsim-eval: warning: --vary {vary.name}: {m.name} has no parameter {vary.name}; left out", file=err)
    check_paths([("qrels", args.qrels), ("run", args.run), ("collection", args.collection), ("segments", args.segments)])
    args.runs = [args.run]
    qrels, collection, runs = read_inputs(args, err)
    jsonl = args.format == "jsonl"
    lines: list[str] = []
    try:
        with diagnostics_to(lambda diagnostics: warn(diagnostics, err)):
            for row in sweep_rows(qrels, runs[0], measures, vary, per_topic=args.per_topic,
                                  per_article=args.per_article, reading=args.reading, collection=collection,
                                  all_topics=args.complete, as_documents=args.as_documents, levels=args.levels,
                                  progress=lambda label: progress(err, f"evaluating {label}")):
                lines.append(_line(row, jsonl))
                if len(lines) >= 4096:  # a block at a time: one write per row costs
                    out.write("".join(lines))
                    lines.clear()
    finally:  # the rows made before an error are printed, as plain evaluation prints them
        out.write("".join(lines))
    return 0


def _line(row, jsonl: bool) -> str:
    """One output row: tab-separated cells (the value as plain evaluation prints it) or a JSON object."""
    if jsonl:
        record = {"measure": row.measure.name, "parameter": row.parameter, "parameter_value": row.parameter_value,
                  "topic": row.topic}
        if row.article is not None:
            record["article"] = row.article
        record["value"] = row.value
        return json.dumps(record) + "\n"
    cells = [row.measure.name, row.parameter, format_value(row.parameter, row.parameter_value), row.topic]
    if row.article is not None:
        cells.append(row.article)
    return "\t".join([*cells, fmt(row.measure, row.value)]) + "\n"
