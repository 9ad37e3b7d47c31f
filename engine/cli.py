"""``readsim-eval``: evaluate INEX runs from the command line.

``readsim-eval QRELS RUN [RUN ...] -m MEASURE ... [-q] [-c]`` (and the element mode,
``readsim-eval QRELS [RUN ...] --collection DIR --elements [--simulated perfect|ancestors]
[--write-assessments FILE|-]``: :mod:`engine.cli_elements`) prints list measures like
trec_eval: per run a ``runid<TAB>all<TAB>RUN_ID`` row, then ``measure<TAB>topic<TAB>value``
rows, topic ``all`` for the mean over topics (so ``AgP/F(0.25)`` with ``all`` is MAgP, the
default measure and INEX's official one), per-topic rows first with ``-q``. With
``--format jsonl`` each row is ``{"run", "measure", "topic", "value"}`` (no runid row).
``--per-article`` prints document scores instead: ``measure<TAB>topic<TAB>article<TAB>value``
(jsonl ``{"run", "measure", "topic", "article", "value"}``); ``--check`` compares the qrels'
doc_length with the collection. The policies (short runs, missing topics, ...) are those of
:mod:`engine.listmeasures`. Warnings about the input go to standard error as
``file:line: warning: ...``.

Several runs are read and evaluated in worker processes (``--jobs``, default one per
processor, at most one per run; where processes cannot fork, one after the other): the qrels
are read once and shared with the forked workers, each worker reads one run at a time and sends
back only its scores and warnings, and the rows and warnings are printed in the order of the
command line, exactly as with one process.

Exit status: 0 done (also when the reader of standard output goes away, as in ``| head``:
the rest is dropped quietly); 1 bad input (``file:line: reason``) or an operating-system
error (``path: reason``: a missing or unreadable file, a directory given as a file,
``<stdout>: No space left on device``); 2 bad usage: an unknown measure, a measure parameter
or an option value out of range (the message names it; ranges in
:data:`engine.measure.PARAMETER_RANGES`); 130 interrupted (Ctrl+C). None of them prints a
traceback. Closed standard streams and Ctrl+C at any moment are :mod:`engine.streams`'s: with
standard output closed (``>&-``) the command stops at its first row with
``<stdout>: standard output is closed`` (exit 1); with standard error closed its messages are
dropped and the rows still reach standard output.
"""

from __future__ import annotations

from . import streams  # first: Ctrl+C during the imports below is one line, exit 130

streams.guard_start("readsim-eval")

import argparse  # noqa: E402 (this and every import below: after the start-up guard)
import json
import os
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import TextIO

from .batch import Join, check_lengths
from .cli_elements import cuts_type, wants_elements
from .collection import Collection
from .coverage import check_coverage, check_input_path
from .errors import Diagnostic, InputError
from .formats import Qrels, Run, read_any_run, read_qrels
from .listmeasures import Evaluation, evaluate, per_article
from .measure import (MAX_LEVELS, PARAMETER_RANGES, BadParameter, DocMeasure, ListMeasure, UnknownMeasure,
                      parse_count, parse_list_measure, parse_measure)
from .reading import Mode
from .text import UNITS

DEFAULT_MEASURES = ("F(0.25)",)  # --per-article
DEFAULT_LIST_MEASURES = ("AgP/F(0.25)",)  # MAgP, the official Relevant in Context measure
MAX_WARNINGS = 20
MAX_JOBS = 256


EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, streams.EXIT_INTERRUPTED
EXIT_STATUS_HELP = ("Exit status: 0 ok (also when the reader of the output goes away, as with | head); 1 bad "
                    "input (file:line: reason) or an OS error (path: reason: a missing or unreadable file, a directory "
                    "given as a file, a full device, a closed standard output, an output file that is not a regular file or is "
                    "an input); 2 bad usage: an unknown measure, or a measure parameter or option "
                    "value out of range (named in the message); 130 interrupted. No traceback in any case.")


def option(parse):
    """An argparse ``type=`` from a parser raising :class:`~engine.measure.BadParameter`:
    argparse then prints ``argument --levels: value must be ...`` and exits 2."""

    def convert(text: str):
        try:
            return parse(text)
        except BadParameter as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = getattr(parse, "__name__", "value")
    return convert


def describe_os_error(exc: OSError, path: object = None) -> str:
    """``"path: reason"`` for an OS error (``"missing.run: No such file or directory"``); ``path``
    stands in when the error names no file."""
    where = exc.filename if exc.filename is not None else path
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename2 is not None:
        where = f"{where} -> {exc.filename2}"
    return f"{os.fsdecode(where) if isinstance(where, bytes) else where}: {reason}" if where is not None else reason


def _levels(text: str) -> int:
    return parse_count(text, "L", 1, MAX_LEVELS)


def _jobs(text: str) -> int:
    return parse_count(text, "N", 1, MAX_JOBS)


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, finding the terminal's width without ``shutil`` (which
    argparse imports for it, with ``bz2`` and ``lzma``: 2 ms of every call, help or not)."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        if width is None:
            try:
                width = int(os.environ.get("COLUMNS", "0")) or os.get_terminal_size(sys.__stdout__.fileno()).columns
            except (AttributeError, ValueError, OSError):
                width = 80
            width -= 2
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` writing help to ``out`` and errors to ``err`` (``main``'s streams)."""

    streams: tuple[TextIO, TextIO] | None = None

    def _print_message(self, message: str, file=None) -> None:
        if message and self.streams is not None:
            out, err = self.streams
            file = err if file is sys.stderr else out
        super()._print_message(message, file)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="readsim-eval",
        formatter_class=_Formatter,
        description="Evaluate INEX focused-retrieval runs (FOL qrels and runs) like the official INEX tool "
        "(MAgP = AgP/F(0.25) with topic 'all'), with list measures over any document score of reading effort "
        "(aveChP, ChP@k, T2I, LE, ES) and INEX's set-based F.",
        epilog="List measures (LIST/DOC): gP@r/DOC, gP(plain)@r/DOC, gR@r, AgP/DOC, AgP'/DOC, MAP, "
        "ircl_prn.0.00/DOC .. ircl_prn.1.00/DOC, CE@i/LE(s), NCE@i/LE(s), ANCE@i/LE(s), iP[0.00] .. iP[1.00], MAiP, "
        "num_q, num_ret, num_rel, num_rel_ret. Document measures (DOC, and --per-article): aveChP, ChP@k, ChR@k, "
        "T2IP(t), T2IR(t), T2IF(t), T2IF(t,alpha), LE(s), ES(s), P_set, R_set, F(beta), BEP(d). "
        "Subcommands: 'readsim-eval compare QRELS RUN RUN ...' (significance, effect sizes, correlations of "
        "measures) and 'readsim-eval fidelity QRELS --collection DIR' (the simulated runs' orderings); each has "
        "--help. "
        "gP@r past the end of a short run repeats the last rank's value as the official tool does; "
        "gP(plain)@r (or --plain-gp) is sum/r. Parameters: " + PARAMETER_RANGES + ". " + EXIT_STATUS_HELP,
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
    p.add_argument("--reading", default="natural", choices=[m.value for m in Mode],
                   help="reading order after the matching chain (default natural); 'entry' starts at each "
                   "result's entry point (a Best in Context line's offset, else its first passage) and wraps around")
    p.add_argument("--unit", default="bytes", choices=UNITS, help="offset unit of qrels and runs (default bytes)")
    p.add_argument("--collection", metavar="DIR", help="the articles (<name>.xml): a folder (flat or nested), a .zip, "
                   ".tar, .tar.gz, .tar.bz2 or .tar.xz archive, or a folder of archives; clips passages, "
                   "resolves XPaths, checks doc_length")
    p.add_argument("--check", action="store_true", help="compare the qrels' doc_length with every judged article in --collection")
    p.add_argument("--strict", action="store_true", help="reject runs the official INEX tool rejects (interleaved articles, split topics)")
    p.add_argument("--format", default="tsv", choices=("tsv", "jsonl"), help="output format (default tsv)")
    p.add_argument("--levels", type=option(_levels), default=4, metavar="L",
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


def _fmt(measure: DocMeasure | ListMeasure, value: float) -> str:
    if value != value:  # a mean over no topic (every topic left out of an element measure)
        return "n/a"
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


def open_collection(path: str, unit: str, err: TextIO) -> Collection:
    """The collection at ``path`` (reference 2.10), its index built with progress on ``err`` when
    it is a terminal; why an index was rebuilt is printed on ``err`` in any case."""
    progress = None
    if err.isatty():
        last = [0.0]

        def progress(done: int, total: int, what: str) -> None:
            now = time.monotonic()
            if now - last[0] >= 0.2:
                last[0] = now
                count = f"{done * 100 // total}%" if total else f"{done:,} articles"
                print(f"\r{what}: {count}\033[K", end="", file=err, flush=True)

    collection = Collection(path, unit, progress=progress)
    collection.listing()  # a folder is listed or indexed now, with the progress (the coverage check needs it)
    if progress is not None and last[0]:
        print("\r\033[K", end="", file=err, flush=True)
    for note in collection.notes:
        print(f"readsim-eval: {note}", file=err)
    return collection


def run_check(args, out: TextIO, err: TextIO) -> int:
    if not args.collection:
        print("readsim-eval: --check needs --collection DIR", file=err)
        return EXIT_USAGE
    qrels = read_qrels(args.qrels)
    _warn(qrels.diagnostics, err)
    checks = check_lengths(qrels, open_collection(args.collection, args.unit, err), _progress(err, "checking"))
    for c in checks:
        if not c.agrees:
            print(f"{c.topic}\t{c.article}\tqrels {c.qrels_length}\tcomputed {c.computed_length}", file=out)
    agree = sum(c.agrees for c in checks)
    print(f"doc_length agrees for {agree} of {len(checks)} judged articles present", file=out)
    return 0


def _inputs(args, err: TextIO) -> tuple[Qrels, Collection | None, list[Run], list[Diagnostic]]:
    """Read the qrels, the collection and every run, printing their warnings and those of
    :func:`engine.coverage.check_coverage` (inputs that do not fit together), as the window does."""
    qrels = read_qrels(args.qrels)
    _warn(qrels.diagnostics, err)
    collection = open_collection(args.collection, args.unit, err) if args.collection else None
    runs = _load_runs(args, err)
    said = check_coverage(qrels, runs, collection)
    _warn(said, err)
    return qrels, collection, runs, said


def _new(diagnostics: list[Diagnostic], said: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` less those already printed (the coverage check says some of them first)."""
    seen = {str(d) for d in said}
    return [d for d in diagnostics if str(d) not in seen]


def run_per_article(args, measures: list[DocMeasure], out: TextIO, err: TextIO) -> int:
    qrels, collection, runs, _ = _inputs(args, err)
    rows: list[str] = []  # written a block at a time (one write per row was a fifth of the time)

    def flush() -> None:
        if rows:
            text = "".join(rows)
            rows.clear()
            out.write(text)

    jsonl = args.format == "jsonl"
    for run in runs:
        join = Join()
        try:
            for topic, article, values in per_article(qrels, run, measures, args.reading, collection, args.as_documents,
                                                      join, _progress(err, f"evaluating {run.run_id}"), args.levels):
                for m, value in zip(measures, values):
                    if jsonl:
                        row = {"run": run.run_id, "measure": m.name, "topic": topic, "article": article, "value": value}
                        rows.append(json.dumps(row) + "\n")
                    else:
                        rows.append(f"{m.name}\t{topic}\t{article}\t{_fmt(m, value)}\n")
                if len(rows) >= 4096:
                    flush()
        finally:  # the rows scored before an error are printed, as they were one by one
            flush()
        _warn(join.diagnostics, err)
    return 0


def _load_runs(args, err: TextIO) -> list[Run]:
    """Read every RUN (FOL or XML), printing its warnings, each labelled by
    :func:`engine.compare.run_labels` (its run id, or its file name when runs share the id, as
    the three real BERT runs share ``TREC2INEX``; one warning per shared id)."""
    runs = []
    for path in args.runs:
        run = read_any_run(path, strict=args.strict)
        _warn(run.diagnostics, err)
        runs.append(run)
    from .compare import run_labels

    labels, warnings = run_labels(runs)
    for message in warnings:
        print(f"readsim-eval: warning: {message}", file=err)
    for run, label in zip(runs, labels):
        run.run_id = label
    return runs


def run_lists(args, measures: list[ListMeasure], out: TextIO, err: TextIO) -> int:
    jobs = min(args.jobs or _processors(), len(args.runs))
    if jobs > 1 and _can_fork():
        return _run_lists_parallel(args, measures, jobs, out, err)
    qrels, collection, runs, said = _inputs(args, err)
    for run in runs:
        join = Join()
        result = evaluate(qrels, run, measures, args.reading, collection, args.as_documents, args.complete,
                          args.levels, join, _progress(err, f"evaluating {run.run_id}"))
        _warn(_new(result.diagnostics, said) + join.diagnostics, err)
        write_evaluation(result, args.per_topic, args.format, out)
    return 0


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
    """In a worker: read and evaluate one run."""
    st = _WORKER
    try:
        run = read_any_run(path, strict=st.strict)
        join = Join()
        result = evaluate(st.qrels, run, st.measures, st.reading, st.collection, st.as_documents, st.complete,
                          st.levels, join)
    except InputError as exc:  # sent back as data: the parent raises it in command-line order
        return _RunResult(str(path), error=(exc.path, exc.line, exc.reason))
    topics = {t: ([e.article for e in es] if st.collection is not None else len(es)) for t, es in run.topics.items()}
    return _RunResult(run.path, run.run_id, run.diagnostics, topics, result, join.diagnostics)


def _run_lists_parallel(args, measures: list[ListMeasure], jobs: int, out: TextIO, err: TextIO) -> int:
    """:func:`run_lists` with the runs read and evaluated in ``jobs`` worker processes; the
    same rows and warnings, in the same order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    qrels = read_qrels(args.qrels)
    _warn(qrels.diagnostics, err)
    collection = open_collection(args.collection, args.unit, err) if args.collection else None
    state = SimpleNamespace(qrels=qrels, collection=collection, measures=measures, strict=args.strict,
                            reading=args.reading, as_documents=args.as_documents, complete=args.complete,
                            levels=args.levels)
    context = multiprocessing.get_context("fork")
    progress = _progress(err, "evaluating runs")
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker, initargs=(state,))
    try:
        futures = [pool.submit(_evaluate_file, str(path)) for path in args.runs]
        results = []
        for done, future in enumerate(futures, 1):
            r = future.result()
            if r.error is not None:
                raise InputError(*r.error)
            results.append(r)
            if progress is not None:
                progress(done, len(futures))
    except BrokenProcessPool:
        print("readsim-eval: a worker process ended unexpectedly (out of memory?); try --jobs 1", file=err)
        return EXIT_INPUT
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    for r in results:
        _warn(r.diagnostics, err)
    from .compare import run_labels

    labels, warnings = run_labels(results)
    for message in warnings:
        print(f"readsim-eval: warning: {message}", file=err)
    for r, label in zip(results, labels):
        r.evaluation.run_id = label
    stand_ins = [Run(r.path, r.evaluation.run_id,
                     {t: ([SimpleNamespace(article=a) for a in v] if isinstance(v, list) else [None] * min(v, 1))
                      for t, v in r.topics.items()}) for r in results]
    said = check_coverage(qrels, stand_ins, collection)
    _warn(said, err)
    for r in results:
        _warn(_new(r.evaluation.diagnostics, said) + r.join, err)
        write_evaluation(r.evaluation, args.per_topic, args.format, out)
    return 0


def write_evaluation(result: Evaluation, per_topic: bool, fmt: str, out: TextIO) -> None:
    """Print one run's rows: trec_eval-like text (``runid`` row first) or JSON Lines."""
    rows = [(m, t, result.values[m.name][t]) for t in result.topics for m in result.measures
            if t in result.values[m.name]] if per_topic else []
    rows += [(m, "all", result.means[m.name]) for m in result.measures]
    if fmt == "jsonl":  # a mean over no topic (NaN) has no row: JSON has no NaN
        for m, topic, value in rows:
            if value == value:
                print(json.dumps({"run": result.run_id, "measure": m.name, "topic": topic, "value": value}), file=out)
        return
    print(f"runid\tall\t{result.run_id}", file=out)
    for m, topic, value in rows:
        print(f"{m.name}\t{topic}\t{_fmt(m, value)}", file=out)


class OutputError(Exception):
    """Writing to an output stream failed (a full device, an I/O error): ``"<stdout>: reason"``."""

    def __init__(self, name: str, exc: OSError):
        super().__init__(f"{name}: {exc.strerror or exc}")


class _Guarded:
    """A text stream whose write errors become :class:`OutputError` naming it (``<stdout>``);
    a closed pipe stays a ``BrokenPipeError`` (quiet exit)."""

    def __init__(self, stream: TextIO, name: str):
        self.stream = stream
        self.name = name

    def _call(self, method: str, *args):
        try:
            return getattr(self.stream, method)(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(self.name, exc) from None

    def write(self, text: str) -> int:
        return self._call("write", text)

    def flush(self) -> None:
        self._call("flush")

    def write_binary(self, data: bytes) -> None:
        """Write UTF-8 bytes as they are (``--write-assessments -``): to the stream's binary
        buffer, or decoded where it has none (a ``StringIO``)."""
        self.flush()
        buffer = getattr(self.stream, "buffer", None)
        if buffer is None:
            self.write(data.decode("utf-8"))
            return
        try:
            buffer.write(data)
            buffer.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(self.name, exc) from None

    def isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (OSError, ValueError):
            return False


def _say(err: TextIO, text: str) -> None:
    """Print an error on ``err``, saying nothing if standard error itself is what fails."""
    try:
        print(text, file=err, flush=True)
    except (OSError, OutputError, ValueError):
        pass


def silence(stream: TextIO | None) -> None:
    """After a write error on the real standard output, point it at /dev/null so the
    interpreter's final flush does not fail again (and print a traceback-like report)."""
    if stream is None or stream is not sys.__stdout__:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``readsim-eval``; returns the exit status: 0 ok (or the reader of the output went
    away), 1 bad input or an OS error, 2 bad usage, 130 interrupted. Never raises for those:
    every message is one line on ``err``, no traceback. ``out`` and ``err`` default to the
    standard streams (:func:`engine.streams.output` and :func:`~engine.streams.errors` when the
    caller closed them)."""
    streams.started()
    raw_out = streams.output(out)
    raw_err = streams.errors(err)
    out = _Guarded(raw_out, "<stdout>")
    err = _Guarded(raw_err, "<stderr>")
    try:
        code = _main(argv, out, err)
        out.flush()
        return code
    except BrokenPipeError:  # e.g. piped into head: stop quietly, as Unix tools do
        silence(raw_out)
        return EXIT_OK
    except KeyboardInterrupt:
        _say(err, "readsim-eval: interrupted")
        return EXIT_INTERRUPTED
    except OutputError as exc:
        silence(raw_out)
        _say(err, f"readsim-eval: {exc}")
        return EXIT_INPUT
    except InputError as exc:
        _say(err, f"readsim-eval: {exc}")
        return EXIT_INPUT
    except OSError as exc:
        _say(err, f"readsim-eval: {describe_os_error(exc)}")
        return EXIT_INPUT
    finally:
        streams.finished()


SUBCOMMANDS = ("compare", "fidelity")


def _main(argv: Sequence[str] | None, out: TextIO, err: TextIO) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        # imported on demand: scipy is not needed (nor paid for at start-up) by a plain evaluation
        from .cli_compare import run_subcommand
        return run_subcommand(argv[0], argv[1:], out, err)
    parser = build_parser()
    parser.streams = (out, err)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed the usage error (or the help)
        return int(exc.code or 0)
    if wants_elements(args):
        from .cli_elements import run_elements
        return run_elements(args, out, err)
    try:
        if args.per_article:
            measures = [_doc_measure(m) for m in (args.measures or DEFAULT_MEASURES)]
        else:
            measures = [_list_measure(m) for m in (args.measures or DEFAULT_LIST_MEASURES)]
            if args.plain_gp:
                measures = [replace(m, plain=True) if m.kind == "gP" else m for m in measures]
    except UnknownMeasure as exc:
        print(f"readsim-eval: {exc}", file=err)
        return EXIT_USAGE
    if args.check and not args.collection:
        print("readsim-eval: --check needs --collection DIR", file=err)
        return EXIT_USAGE
    if not (args.check or args.elements) and not args.runs:
        print("readsim-eval: give at least one RUN (or --check with --collection)", file=err)
        return EXIT_USAGE
    # fail before any work on a path that is missing, of the wrong kind or unreadable (opens
    # nothing; a pipe such as <(grep ...) is welcome)
    for kind, path in (("qrels", args.qrels), *(("run", r) for r in ([] if args.check else args.runs)),
                       ("collection", args.collection)):
        if path:
            check_input_path(path, kind, pipes=True)
    if args.check:
        return run_check(args, out, err)
    if args.per_article:
        return run_per_article(args, measures, out, err)
    return run_lists(args, measures, out, err)


def _doc_measure(text: str) -> DocMeasure:
    try:
        return parse_measure(text)
    except BadParameter:
        raise
    except UnknownMeasure as exc:
        try:
            parse_list_measure(text)
        except BadParameter:
            raise
        except UnknownMeasure:
            raise exc from None
        raise UnknownMeasure(f"{text.strip()} is a list measure; --per-article prints document measures "
                             f"such as {text.partition('/')[2] or 'F(0.25)'}") from None


def _list_measure(text: str) -> ListMeasure:
    try:
        return parse_list_measure(text)
    except BadParameter:
        raise
    except UnknownMeasure as exc:
        try:
            doc = parse_measure(text)
        except BadParameter:
            raise
        except UnknownMeasure:
            raise exc from None
        raise UnknownMeasure(f"{doc.name} is a document measure: give a list measure such as AgP/{doc.name}, "
                             f"or use --per-article") from None


if __name__ == "__main__":
    sys.exit(main())
