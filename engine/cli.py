"""``readsim-eval``: evaluate INEX runs from the command line.

Output is trec_eval-like text: ``measure<TAB>topic<TAB>article<TAB>value`` per article with
``--per-article`` (or JSON Lines with ``--format jsonl``). Warnings about the input go to
standard error as ``file:line: warning: ...``. Exit status: 0 done, 1 bad input (a
``file:line: reason`` message), 2 bad usage or an unknown measure.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from .batch import Join, check_lengths, documents
from .collection import Collection
from .errors import Diagnostic, InputError
from .formats import read_qrels, read_run
from .measure import DocMeasure, UnknownMeasure, parse_measure
from .reading import Mode
from .text import UNITS

DEFAULT_MEASURES = ("F(0.25)",)
MAX_WARNINGS = 20


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="readsim-eval",
        description="Evaluate INEX focused-retrieval runs (FOL qrels and runs): document measures of "
        "reading effort (aveChP, ChP@k, T2I, LE, ES) and INEX's set-based F.",
        epilog="Measures: aveChP, ChP@k, ChR@k, T2IP(t), T2IR(t), T2IF(t), T2IF(t,alpha), LE(s), ES(s), "
        "P_set, R_set, F(beta). Exit status: 0 ok, 1 bad input, 2 bad usage or unknown measure.",
    )
    p.add_argument("qrels", help="FOL qrels file")
    p.add_argument("runs", nargs="*", metavar="RUN", help="FOL run file(s)")
    p.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help=f"measure to print (repeatable; default {DEFAULT_MEASURES[0]})")
    p.add_argument("--per-article", action="store_true", help="print the document score of every (topic, article) of the run")
    p.add_argument("--reading", default="natural", choices=[m.value for m in Mode if m is not Mode.ENTRY],
                   help="reading order after the matching chain (default natural)")
    p.add_argument("--unit", default="bytes", choices=UNITS, help="offset unit of qrels and runs (default bytes)")
    p.add_argument("--collection", metavar="DIR", help="folder of the articles (<name>.xml): clips passages, "
                   "resolves XPaths, checks doc_length")
    p.add_argument("--check", action="store_true", help="compare the qrels' doc_length with every judged article in --collection")
    p.add_argument("--strict", action="store_true", help="reject runs the official INEX tool rejects (interleaved articles, split topics)")
    p.add_argument("--format", default="tsv", choices=("tsv", "jsonl"), help="output format (default tsv)")
    p.add_argument("--levels", type=int, default=4, help="LE levels L (default 4; NR = L + 1)")
    return p


def _fmt(measure: DocMeasure, value: float) -> str:
    return str(int(value)) if measure.kind in ("LE", "ES") else f"{value:.6f}"


def _warn(diagnostics: Sequence[Diagnostic], err: TextIO) -> None:
    for d in diagnostics[:MAX_WARNINGS]:
        print(d, file=err)
    if len(diagnostics) > MAX_WARNINGS:
        print(f"readsim-eval: warning: {len(diagnostics) - MAX_WARNINGS} more warnings not shown", file=err)


def _progress(err: TextIO, label: str):
    """A progress callback that writes to a terminal, or None when ``err`` is not one."""
    if not err.isatty():
        return None

    def report(done: int, total: int) -> None:
        end = "\n" if done >= total else ""
        print(f"\r{label}: {done}/{total}", end=end, file=err, flush=True)

    return report


def run_check(args, out: TextIO, err: TextIO) -> int:
    if not args.collection:
        print("readsim-eval: --check needs --collection DIR", file=err)
        return 2
    qrels = read_qrels(args.qrels)
    _warn(qrels.diagnostics, err)
    checks = check_lengths(qrels, Collection(args.collection, args.unit), _progress(err, "checking"))
    for c in checks:
        if not c.agrees:
            print(f"{c.topic}\t{c.article}\tqrels {c.qrels_length}\tcomputed {c.computed_length}", file=out)
    agree = sum(c.agrees for c in checks)
    print(f"doc_length agrees for {agree} of {len(checks)} judged articles present", file=out)
    return 0


def run_per_article(args, measures: list[DocMeasure], out: TextIO, err: TextIO) -> int:
    qrels = read_qrels(args.qrels)
    _warn(qrels.diagnostics, err)
    collection = Collection(args.collection, args.unit) if args.collection else None
    for path in args.runs:
        run = read_run(path, strict=args.strict)
        _warn(run.diagnostics, err)
        join = Join()
        for topic, entry, doc in documents(qrels, run, args.reading, collection, join=join,
                                           progress=_progress(err, f"evaluating {run.run_id}")):
            for m in measures:
                value = m.value(doc, args.levels)
                if args.format == "jsonl":
                    row = {"run": run.run_id, "measure": m.name, "topic": topic, "article": entry.article, "value": value}
                    print(json.dumps(row), file=out)
                else:
                    print(f"{m.name}\t{topic}\t{entry.article}\t{_fmt(m, value)}", file=out)
        _warn(join.diagnostics, err)
    return 0


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``readsim-eval``; returns the exit status (0, 1 bad input, 2 bad usage)."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed the usage error
        return int(exc.code or 0)
    try:
        measures = [parse_measure(m) for m in (args.measures or DEFAULT_MEASURES)]
    except UnknownMeasure as exc:
        print(f"readsim-eval: {exc}", file=err)
        return 2
    try:
        if args.check:
            return run_check(args, out, err)
        if not args.runs:
            print("readsim-eval: give at least one RUN (or --check with --collection)", file=err)
            return 2
        if not args.per_article:
            print("readsim-eval: only --per-article evaluation is available in this version", file=err)
            return 2
        return run_per_article(args, measures, out, err)
    except InputError as exc:
        print(f"readsim-eval: {exc}", file=err)
        return 1
    except BrokenPipeError:  # e.g. piped into head
        return 0


if __name__ == "__main__":
    sys.exit(main())
