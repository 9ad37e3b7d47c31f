"""``readsim-eval``: evaluate INEX runs from the command line.

``readsim-eval QRELS RUN [RUN ...] -m MEASURE ... [-q] [-c]`` prints list measures like
trec_eval: per run a ``runid<TAB>all<TAB>RUN_ID`` row, then ``measure<TAB>topic<TAB>value``
rows, topic ``all`` for the mean over topics (so ``AgP/F(0.25)`` with ``all`` is MAgP, the
default measure and INEX's official one), per-topic rows first with ``-q``. With
``--format jsonl`` each row is ``{"run", "measure", "topic", "value"}`` (no runid row).
``--per-article`` prints document scores instead: ``measure<TAB>topic<TAB>article<TAB>value``
(jsonl ``{"run", "measure", "topic", "article", "value"}``); ``--check`` compares the qrels'
doc_length with the collection. The policies (short runs, missing topics, ...) are those of
:mod:`engine.listmeasures`. Warnings about the input go to standard error as
``file:line: warning: ...``. Exit status: 0 done, 1 bad input (a ``file:line: reason``
message), 2 bad usage or an unknown measure.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from collections.abc import Sequence
from dataclasses import replace
from typing import TextIO

from .batch import Join, check_lengths, documents
from .collection import Collection
from .errors import Diagnostic, InputError
from .formats import Run, read_any_run, read_qrels
from .listmeasures import Evaluation, article_score, evaluate
from .measure import DocMeasure, ListMeasure, UnknownMeasure, parse_list_measure, parse_measure
from .reading import Mode
from .text import UNITS

DEFAULT_MEASURES = ("F(0.25)",)  # --per-article
DEFAULT_LIST_MEASURES = ("AgP/F(0.25)",)  # MAgP, the official Relevant in Context measure
MAX_WARNINGS = 20


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="readsim-eval",
        description="Evaluate INEX focused-retrieval runs (FOL qrels and runs) like the official INEX tool "
        "(MAgP = AgP/F(0.25) with topic 'all'), with list measures over any document score of reading effort "
        "(aveChP, ChP@k, T2I, LE, ES) and INEX's set-based F.",
        epilog="List measures (LIST/DOC): gP@r/DOC, gP(plain)@r/DOC, gR@r, AgP/DOC, AgP'/DOC, MAP, "
        "ircl_prn.0.00/DOC .. ircl_prn.1.00/DOC, CE@i/LE(s), NCE@i/LE(s), ANCE@i/LE(s), iP[0.00] .. iP[1.00], MAiP, "
        "num_q, num_ret, num_rel, num_rel_ret. Document measures (DOC, and --per-article): aveChP, ChP@k, ChR@k, "
        "T2IP(t), T2IR(t), T2IF(t), T2IF(t,alpha), LE(s), ES(s), P_set, R_set, F(beta), BEP(d). "
        "gP@r past the end of a short run repeats the last rank's value as the official tool does; "
        "gP(plain)@r (or --plain-gp) is sum/r. Exit status: 0 ok, 1 bad input, 2 bad usage or unknown measure.",
    )
    p.add_argument("qrels", help="FOL qrels file")
    p.add_argument("runs", nargs="*", metavar="RUN", help="FOL run file(s)")
    p.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help=f"measure to print (repeatable; default {DEFAULT_LIST_MEASURES[0]}, "
                   f"{DEFAULT_MEASURES[0]} with --per-article)")
    p.add_argument("-q", dest="per_topic", action="store_true", help="print per-topic values before the mean ('all')")
    p.add_argument("-c", dest="complete", action="store_true",
                   help="average over every judged topic, a topic missing from the run scoring as an empty ranking "
                   "(default: the judged topics the run has, as the official tool)")
    p.add_argument("--plain-gp", action="store_true",
                   help="gP@r past the end of a short run is sum/r (default: the last rank's value, the official tool's quirk)")
    p.add_argument("--as-documents", action="store_true",
                   help="evaluate every ranked article as retrieved whole (the full-document baseline)")
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


def _fmt(measure: DocMeasure | ListMeasure, value: float) -> str:
    whole = measure.is_count if isinstance(measure, ListMeasure) else measure.kind in ("LE", "ES")
    return str(int(value)) if whole else f"{value:.6f}"


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
    for run in _load_runs(args, err):
        join = Join()
        for topic, entry, doc in documents(qrels, run, args.reading, collection, args.as_documents, join=join,
                                           progress=_progress(err, f"evaluating {run.run_id}")):
            judgement = qrels.judgement(topic, entry.article)
            for m in measures:
                value = article_score(m, doc, judgement, args.levels)
                if args.format == "jsonl":
                    row = {"run": run.run_id, "measure": m.name, "topic": topic, "article": entry.article, "value": value}
                    print(json.dumps(row), file=out)
                else:
                    print(f"{m.name}\t{topic}\t{entry.article}\t{_fmt(m, value)}", file=out)
        _warn(join.diagnostics, err)
    return 0


def _load_runs(args, err: TextIO) -> list[Run]:
    """Read every RUN (FOL or XML), printing its warnings. Runs that share a run id (the three
    real INEX runs all say ``TREC2INEX``) are told apart by their file names instead."""
    runs = []
    for path in args.runs:
        run = read_any_run(path, strict=args.strict)
        _warn(run.diagnostics, err)
        runs.append(run)
    ids = Counter(r.run_id for r in runs)
    for run in runs:
        if ids[run.run_id] > 1:
            label = Path(run.path).name
            print(f"readsim-eval: warning: run id {run.run_id!r} is shared by {ids[run.run_id]} runs; "
                  f"labelling {run.path} as {label!r}", file=err)
            run.run_id = label
    return runs


def run_lists(args, measures: list[ListMeasure], out: TextIO, err: TextIO) -> int:
    qrels = read_qrels(args.qrels)
    _warn(qrels.diagnostics, err)
    collection = Collection(args.collection, args.unit) if args.collection else None
    for run in _load_runs(args, err):
        join = Join()
        result = evaluate(qrels, run, measures, args.reading, collection, args.as_documents, args.complete,
                          args.levels, join, _progress(err, f"evaluating {run.run_id}"))
        _warn(result.diagnostics + join.diagnostics, err)
        write_evaluation(result, args.per_topic, args.format, out)
    return 0


def write_evaluation(result: Evaluation, per_topic: bool, fmt: str, out: TextIO) -> None:
    """Print one run's rows: trec_eval-like text (``runid`` row first) or JSON Lines."""
    rows = [(m, t, result.values[m.name][t]) for t in result.topics for m in result.measures] if per_topic else []
    rows += [(m, "all", result.means[m.name]) for m in result.measures]
    if fmt == "jsonl":
        for m, topic, value in rows:
            print(json.dumps({"run": result.run_id, "measure": m.name, "topic": topic, "value": value}), file=out)
        return
    print(f"runid\tall\t{result.run_id}", file=out)
    for m, topic, value in rows:
        print(f"{m.name}\t{topic}\t{_fmt(m, value)}", file=out)


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
        if args.per_article:
            measures = [_doc_measure(m) for m in (args.measures or DEFAULT_MEASURES)]
        else:
            measures = [_list_measure(m) for m in (args.measures or DEFAULT_LIST_MEASURES)]
            if args.plain_gp:
                measures = [replace(m, plain=True) if m.kind == "gP" else m for m in measures]
    except UnknownMeasure as exc:
        print(f"readsim-eval: {exc}", file=err)
        return 2
    try:
        if args.check:
            return run_check(args, out, err)
        if not args.runs:
            print("readsim-eval: give at least one RUN (or --check with --collection)", file=err)
            return 2
        if args.per_article:
            return run_per_article(args, measures, out, err)
        return run_lists(args, measures, out, err)
    except InputError as exc:
        print(f"readsim-eval: {exc}", file=err)
        return 1
    except BrokenPipeError:  # e.g. piped into head
        return 0


def _doc_measure(text: str) -> DocMeasure:
    try:
        return parse_measure(text)
    except UnknownMeasure as exc:
        try:
            parse_list_measure(text)
        except UnknownMeasure:
            raise exc from None
        raise UnknownMeasure(f"{text.strip()} is a list measure; --per-article prints document measures "
                             f"such as {text.partition('/')[2] or 'F(0.25)'}") from None


def _list_measure(text: str) -> ListMeasure:
    try:
        return parse_list_measure(text)
    except UnknownMeasure as exc:
        try:
            doc = parse_measure(text)
        except UnknownMeasure:
            raise exc from None
        raise UnknownMeasure(f"{doc.name} is a document measure: give a list measure such as AgP/{doc.name}, "
                             f"or use --per-article") from None


if __name__ == "__main__":
    sys.exit(main())
