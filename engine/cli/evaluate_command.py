"""``readsim-eval QRELS RUN [RUN ...]``: list measures like trec_eval, or document scores per
article (docs/reference.md section 9).

Per run a ``runid<TAB>all<TAB>RUN_ID`` row, then ``measure<TAB>topic<TAB>value`` rows, topic
``all`` for the mean over topics (so ``AgP/F(0.25)`` with ``all`` is MAgP, the default measure
and INEX's official one), per-topic rows first with ``-q``. With ``--format jsonl`` each row is
``{"run", "measure", "topic", "value"}`` (no runid row); ``--format latex`` or ``markdown``
prints tables for papers once every run is done (runs x measures, with ``-q`` topics x measures
per run; reference 12.4, :mod:`readsim.core.paper_tables`). ``--per-article`` prints document
scores instead: ``measure<TAB>topic<TAB>article<TAB>value`` (jsonl ``{"run", "measure",
"topic", "article", "value"}``); ``--check`` compares the qrels' doc_length with the
collection. The numbers are the Python API's (``readsim.operations.evaluate.evaluations`` and
``article_scores``, whose warnings are printed here as ``file:line: warning: ...``); the
policies (short runs, missing topics, ...) are those of :mod:`readsim.core.listmeasures`. Element
work (``--elements`` ...) goes to :mod:`.elements`.

Several runs are read and evaluated in worker processes (``--jobs``, default one per
processor, at most one per run; where processes cannot fork, one after the other): the qrels
are read once and shared with the forked workers, each worker reads one run at a time and sends
back only its scores and warnings, and the rows and warnings are printed in the order of the
command line, exactly as with one process.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TextIO

from readsim.core.coverage import check_coverage
from readsim.core.errors import Diagnostic, InputError
from readsim.core.formats import TASKS, Run, read_any_run, read_qrels
from readsim.core.listmeasures import Evaluation
from readsim.core.paper_tables import TABLE_FORMATS
from readsim.core.measure import (DEFAULT_LIST_MEASURE, MAX_LEVELS, PARAMETER_RANGES, DocMeasure, ListMeasure, UnknownMeasure,
                       parse_count)
from readsim.core.registry import doc_grammar, list_grammar
from readsim.core.reading import Mode
from readsim.core.result_lines import check_lengths
from readsim.core.units import UNIT_HELP, UNITS
from .common import (DEFAULT_LIST_MEASURES, DEFAULT_MEASURES, EXIT_INPUT, EXIT_STATUS_HELP, EXIT_USAGE, Parser,
                     add_segments_option, check_paths, chosen_measures, collection_lengths, fmt, levels, min_grade,
                     MIN_GRADE_HELP, open_collection, option, progress, read_inputs, read_segment_table, warn,
                     write_evaluation, write_evaluation_tables)
from readsim.cli.elements_command import cuts_type, wants_elements
from .cwl_option import add_cwl_options, run_cwl

MAX_JOBS = 256


def _jobs(text: str) -> int:
    return parse_count(text, "N", 1, MAX_JOBS)


def build_parser() -> Parser:
    p = Parser(
        "readsim-eval",
        "Evaluate INEX focused-retrieval runs (FOL qrels and runs) like the official INEX tool "
        f"(MAgP = {DEFAULT_LIST_MEASURE} with topic 'all'), with list measures over any document score of reading effort "
        "(aveChP, ChP@k, T2I, LE, ES) and INEX's set-based F.",
        f"List measures (LIST/DOC; reference section 5): {list_grammar()}. Document measures (DOC, and "
        f"--per-article; reference section 4): {doc_grammar()}. "
        "Subcommands: 'readsim-eval compare QRELS RUN RUN ...' (significance, effect sizes, correlations of "
        "measures), 'readsim-eval fidelity QRELS --collection DIR' (the simulated runs' orderings), "
        "'readsim-eval sweep QRELS RUN -m MEASURE --vary NAME=VALUES' (measures at many values of one parameter), "
        "'readsim-eval loss QRELS RUN [--vs RUN2]' (where a run loses, what each article costs), 'readsim-eval figure "
        "topics|curve QRELS RUN ... -o FILE' (a figure as SVG, PDF or PNG) and 'readsim-eval report QRELS RUN RUN ... "
        "-o FILE.html' (one self-contained HTML report); each has --help. "
        "gP@r past the end of a short run repeats the last rank's value as the official tool does; "
        "gP(plain)@r (or --plain-gp) is sum/r. Parameters: " + PARAMETER_RANGES + ". " + EXIT_STATUS_HELP,
        # the options are many: a usage error shows this line, -h lists them all
        usage="%(prog)s QRELS [RUN ...] [-m MEASURE ...] [-q] [-c] [--per-article] [--collection DIR] [OPTION ...]\n"
              "       %(prog)s {compare,fidelity,sweep,loss,convert,figure,report} ...   (-h: every option)",
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
    p.add_argument("--condensed", action="store_true",
                   help="remove the articles the qrels do not judge from each ranking before every list measure "
                   "(Sakai 2007's condensed lists; document scores unchanged)")
    p.add_argument("--per-article", action="store_true", help="print the document score of every (topic, article) of the run")
    add_cwl_options(p)
    p.add_argument("--task", choices=list(TASKS), default=None, metavar="TASK",
                   help="INEX 2010's restricted tasks and Efficiency task (reference 5.14): check each FOL run's limit "
                   "(restricted-ric: 500 characters per article; restricted-focused: 1,000 characters per topic; "
                   "efficiency-15, efficiency-150, efficiency-1500: as many result lines per topic), warn naming the first line over it, evaluate only what "
                   "comes first, and default to the task's measures (restricted-ric: gP@5,10,25,50 and AgP over "
                   "T2IP(300); restricted-focused: charP; efficiency: iP[0.00], iP[0.01], iP[0.05], iP[0.10], MAiP)")
    p.add_argument("--reading", default="natural", choices=[m.value for m in Mode],
                   help="reading order after the matching chain (default natural); 'entry' starts at each "
                   "result's entry point (a Best in Context line's offset, else its first passage) and wraps around")
    p.add_argument("--unit", choices=UNITS, help=UNIT_HELP)
    p.add_argument("--min-grade", type=option(min_grade), default=1, metavar="G", help=MIN_GRADE_HELP)
    p.add_argument("--collection", metavar="DIR", help="the articles (<name>.xml): a folder (flat or nested), irds:DATASET (ir_datasets), a .zip, "
                   ".tar, .tar.gz, .tar.bz2 or .tar.xz archive, or a folder of archives; clips passages, "
                   "resolves XPaths, checks doc_length")
    p.add_argument("--check", action="store_true", help="compare the qrels' doc_length with every judged article in --collection")
    p.add_argument("--strict", action="store_true", help="reject runs the official INEX tool rejects (interleaved articles, split topics)")
    add_segments_option(p)
    p.add_argument("--format", default="tsv", choices=("tsv", "jsonl", *TABLE_FORMATS),
                   help="output format (default tsv); latex and markdown print tables for papers: runs x measures "
                   "(with -q one table per run, topics x measures) with a caption")
    p.add_argument("--levels", type=option(levels), default=4, metavar="L",
                   help=f"LE levels L, a whole number from 1 to {MAX_LEVELS} (default 4; NR = L + 1)")
    p.add_argument("--elements", action="store_true",
                   help="element mode (needs --collection): without runs, print the element assessments (e, s on 0..3) "
                   "derived from the qrels' highlighting (or read from an assessments XML given as QRELS); with element "
                   "runs or --simulated, the INEX 2002/2003 element measures (AP_2002/gen, AP_2003s/strict, "
                   "AP_2003o/gen, iP_2003o[0.50]/gen ...; default the six AP measures)")
    p.add_argument("--simulated", action="append", choices=("perfect", "ancestors"), metavar="RUN",
                   help="element mode: evaluate the simulated 'perfect' or 'ancestors' run (repeatable) on the topics "
                   "whose relevant articles are all in --collection")
    p.add_argument("--write-assessments", metavar="FILE",
                   help="element mode: write the element assessments as XML, atomically, only over a regular file that "
                   "is none of the inputs (a folder, a device such as /dev/null or /dev/stdout, a FIFO, or the qrels "
                   "is an error); - writes them to standard output")
    p.add_argument("--e-cuts", type=cuts_type, metavar="A,B",
                   help="element mode: cut points of the derived exhaustiveness (default 1/3,2/3)")
    p.add_argument("--s-cuts", type=cuts_type, metavar="A,B",
                   help="element mode: cut points of the derived specificity (default 1/3,2/3)")
    p.add_argument("-j", "--jobs", type=option(_jobs), default=None, metavar="N",
                   help=f"evaluate several runs in N processes, a whole number from 1 to {MAX_JOBS} (default: one per "
                   "processor, at most one per run); the qrels are read once, each process holds one run at a time")
    return p


def main(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    """``readsim-eval QRELS ...`` (no subcommand) with ``argv``; returns the exit status.
    Raises :class:`InputError` and ``OSError`` for the error guard to print as one line."""
    args = build_parser().parse(argv, out, err)
    if isinstance(args, int):
        return args
    if args.format in TABLE_FORMATS and (wants_elements(args) or args.per_article):
        print(f"readsim-eval: --format {args.format} prints list measures' tables (and compare's); "
              f"{'--elements' if wants_elements(args) else '--per-article'} prints tsv or jsonl", file=err)
        return EXIT_USAGE
    if wants_elements(args):
        from readsim.cli.elements_command import run_elements
        return run_elements(args, out, err)
    try:
        measures = chosen_measures(args)
    except UnknownMeasure as exc:
        print(f"readsim-eval: {exc}", file=err)
        return EXIT_USAGE
    if args.cwl and (args.per_article or args.check):
        print(f"readsim-eval: --cwl writes files; it does not go with {'--check' if args.check else '--per-article'}", file=err)
        return EXIT_USAGE
    if args.check and not args.collection:
        print("readsim-eval: --check needs --collection DIR", file=err)
        return EXIT_USAGE
    if not (args.check or args.elements) and not args.runs:
        print("readsim-eval: give at least one RUN (or --check with --collection)", file=err)
        return EXIT_USAGE
    check_paths([("qrels", args.qrels), *(("run", r) for r in ([] if args.check else args.runs)),
                 ("collection", args.collection), ("segments", args.segments)])
    if args.check:
        return run_check(args, out, err)
    if args.cwl:
        return run_cwl(args, out, err)
    if args.per_article:
        return run_per_article(args, measures, out, err)
    return run_lists(args, measures, out, err)


def run_check(args, out: TextIO, err: TextIO) -> int:
    """``--check``: every judged article of the collection whose doc_length the qrels get wrong, then the count."""
    qrels = read_qrels(args.qrels, min_grade=args.min_grade)
    warn(qrels.diagnostics, err)
    collection = open_collection(args.collection, args.unit, err)
    checks = check_lengths(collection_lengths(qrels, collection, err), collection, progress(err, "checking"))
    for c in checks:
        if not c.agrees:
            print(f"{c.topic}\t{c.article}\tqrels {c.qrels_length}\tcomputed {c.computed_length}", file=out)
    agree = sum(c.agrees for c in checks)
    print(f"doc_length agrees for {agree} of {len(checks)} judged articles present", file=out)
    return 0


def _evaluating(err: TextIO):
    """``progress(label)`` of the API's evaluations: ``evaluating LABEL: done/total`` on a terminal."""
    return lambda label: progress(err, f"evaluating {label}")


def run_per_article(args, measures: list[DocMeasure], out: TextIO, err: TextIO) -> int:
    from readsim.operations.evaluate import article_scores
    from readsim.operations.inputs import diagnostics_to

    qrels, collection, runs = read_inputs(args, err)
    rows: list[str] = []  # written a block at a time (one write per row was a fifth of the time)

    def flush() -> None:
        if rows:
            text = "".join(rows)
            rows.clear()
            out.write(text)

    seen: set[str] = set()

    def said(diagnostics: list[Diagnostic]) -> None:  # a run's warnings follow its rows
        flush()
        warn(diagnostics, err, seen)

    jsonl = args.format == "jsonl"
    try:
        with diagnostics_to(said):
            for label, topic, article, values in article_scores(
                    qrels, runs, measures, reading=args.reading, collection=collection,
                    as_documents=args.as_documents, levels=args.levels, progress=_evaluating(err)):
                for m, value in zip(measures, values):
                    if jsonl:
                        row = {"run": label, "measure": m.name, "topic": topic, "article": article, "value": value}
                        rows.append(json.dumps(row) + "\n")
                    else:
                        rows.append(f"{m.name}\t{topic}\t{article}\t{fmt(m, value)}\n")
                if len(rows) >= 4096:
                    flush()
    finally:  # the rows scored before an error are printed, as they were one by one
        flush()
    return 0


def run_lists(args, measures: list[ListMeasure], out: TextIO, err: TextIO) -> int:
    """List measures of every run: the API's :func:`readsim.operations.evaluate.evaluations` and
    :func:`~.common.write_evaluation`, in ``--jobs`` forked workers when there are several runs."""
    from readsim.operations.evaluate import evaluations
    from readsim.operations.inputs import diagnostics_to

    jobs = min(args.jobs or _processors(), len(args.runs))
    if jobs > 1 and _can_fork():
        return _run_lists_parallel(args, measures, jobs, out, err)
    qrels, collection, runs = read_inputs(args, err)
    done: list[Evaluation] = []
    seen: set[str] = set()
    with diagnostics_to(lambda diagnostics: warn(diagnostics, err, seen)):
        for _, result in evaluations(qrels, runs, measures, reading=args.reading, collection=collection,
                                     all_topics=args.complete, as_documents=args.as_documents, levels=args.levels,
                                     progress=_evaluating(err), condensed=args.condensed):
            if args.format not in TABLE_FORMATS:  # rows as each run is done; a table once all are
                write_evaluation(result, args.per_topic, args.format, out)
            done.append(result)
    note_topics(done, err)
    if args.format in TABLE_FORMATS:
        write_evaluation_tables(done, args.per_topic, args.format, out)
    return 0


def note_topics(results: Sequence[Evaluation], err: TextIO) -> None:
    """When the runs' means are over different topics (each run's own judged topics, the
    official tool's rule), say so on ``err`` and how ``readsim-eval compare`` pairs them
    (docs/reference.md section 12.1): the same two runs then show other means there."""
    counts = {len(r.topics) for r in results}
    if len(counts) < 2:
        return
    shared = set.intersection(*(set(r.topics) for r in results))
    print(f"readsim-eval: note: each run's mean (topic 'all') is over its own judged topics "
          f"({', '.join(f'{r.run_id} {len(r.topics)}' for r in results)}); readsim-eval compare pairs the "
          f"{len(shared)} topics every run has, so its means differ (-c averages every run over every judged "
          f"topic)", file=err)


def _can_fork() -> bool:
    """Workers are forked (they share the qrels and the collection without copying them);
    where processes cannot fork, the runs are evaluated one after the other."""
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _processors() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@dataclass
class _RunResult:
    """What a worker sends back for one run: its warnings, topics (article names with a
    collection, else counts, for the coverage check) and scores; or the input error."""

    path: str
    run_id: str = ""
    diagnostics: list[Diagnostic] | None = None
    topics: dict[str, object] | None = None
    evaluation: Evaluation | None = None
    join: list[Diagnostic] | None = None
    error: tuple[str, int | None, str] | None = None


_WORKER: SimpleNamespace | None = None  # set in each worker: qrels, collection, measures, options


def _init_worker(state: SimpleNamespace) -> None:
    global _WORKER
    _WORKER = state
    # Ctrl+C reaches the whole process group: the parent alone answers it (one line, exit 130)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _evaluate_file(path: str) -> _RunResult:
    """In a worker: read and evaluate one run (the API's :func:`readsim.operations.evaluate.evaluate_run`)."""
    from readsim.operations.evaluate import evaluate_run

    st = _WORKER
    try:
        run = read_any_run(path, strict=st.strict, task=st.task, segments=st.segments)
        result, checks = evaluate_run(st.qrels, run, st.measures, reading=st.reading, collection=st.collection,
                                      all_topics=st.complete, as_documents=st.as_documents, levels=st.levels,
                                      condensed=st.condensed)
    except InputError as exc:  # sent back as data: the parent raises it in command-line order
        return _RunResult(str(path), error=(exc.path, exc.line, exc.reason))
    topics = {t: ([e.article for e in es] if st.collection is not None else len(es)) for t, es in run.topics.items()}
    return _RunResult(run.path, run.run_id, run.diagnostics, topics, result, checks)


def _run_lists_parallel(args, measures: list[ListMeasure], jobs: int, out: TextIO, err: TextIO) -> int:
    """:func:`run_lists` with the runs read and evaluated in ``jobs`` worker processes; the
    same rows and warnings, in the same order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from readsim.operations.evaluate import unsaid

    from readsim.core.run_comparison import run_labels

    qrels = read_qrels(args.qrels, min_grade=args.min_grade)
    warn(qrels.diagnostics, err)
    collection = open_collection(args.collection, args.unit, err) if args.collection else None
    qrels = collection_lengths(qrels, collection, err)
    state = SimpleNamespace(qrels=qrels, collection=collection, segments=read_segment_table(args),
                            measures=measures, strict=args.strict,
                            reading=args.reading, as_documents=args.as_documents, complete=args.complete,
                            levels=args.levels, condensed=args.condensed, task=args.task)
    context = multiprocessing.get_context("fork")
    report = progress(err, "evaluating runs")
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker, initargs=(state,))
    try:
        futures = [pool.submit(_evaluate_file, str(path)) for path in args.runs]
        results = []
        for done, future in enumerate(futures, 1):
            r = future.result()
            if r.error is not None:
                raise InputError(*r.error)
            results.append(r)
            if report is not None:
                report(done, len(futures))
    except BrokenProcessPool:
        print("readsim-eval: a worker process ended unexpectedly (out of memory?); try --jobs 1", file=err)
        return EXIT_INPUT
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    seen: set[str] = set()
    for r in results:
        warn(r.diagnostics, err, seen)
    labels, warnings = run_labels(results)
    for message in warnings:
        print(f"readsim-eval: warning: {message}", file=err)
    for r, label in zip(results, labels):
        r.evaluation.run_id = label
    stand_ins = [Run(r.path, r.evaluation.run_id,
                     {t: ([SimpleNamespace(article=a) for a in v] if isinstance(v, list) else [None] * min(v, 1))
                      for t, v in r.topics.items()}) for r in results]
    said = check_coverage(qrels, stand_ins, collection)
    warn(said, err, seen)
    for r in results:
        warn(unsaid(r.evaluation.diagnostics, said) + r.join, err, seen)
        if args.format not in TABLE_FORMATS:
            write_evaluation(r.evaluation, args.per_topic, args.format, out)
    note_topics([r.evaluation for r in results], err)
    if args.format in TABLE_FORMATS:
        write_evaluation_tables([r.evaluation for r in results], args.per_topic, args.format, out)
    return 0
