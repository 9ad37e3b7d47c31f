"""What the subcommands of ``readsim-eval`` share: exit statuses, argument types, the parser,
the output formats and the error guard (docs/reference.md section 9).

Exit status: 0 done (also when the reader of standard output goes away, as in ``| head``: the
rest is dropped quietly); 1 bad input (``file:line: reason``) or an operating-system error
(``path: reason``: a missing or unreadable file, a directory given as a file,
``<stdout>: No space left on device``); 2 bad usage: an unknown measure, a measure parameter or
an option value out of range (the message names it; ranges in
:data:`readsim.core.measure.PARAMETER_RANGES`); 130 interrupted (Ctrl+C). None of them prints a
traceback (:func:`guarded`). Closed standard streams and Ctrl+C at any moment are
:mod:`readsim.core.streams`'s.

This module imports none of the subcommands' modules, and none of them imports the package's
``__init__``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TextIO

import numpy as np

from readsim.core import streams
from readsim.core.streams import describe_os_error, silence
from readsim.core.errors import Diagnostic, InputError
from readsim.core.measure import (option, DEFAULT_DOC_MEASURE, DEFAULT_LIST_MEASURE, MAX_LEVELS, BadParameter, DocMeasure, ListMeasure, UnknownMeasure,
                       parse_count, parse_list_measure, parse_measure)
from readsim.core.formats.limits import TASKS
from readsim.core.paper_tables import TABLE_FORMATS, PaperTable, write_tables
from readsim.core.reading import Mode
from readsim.core.report_numbers import format_tsv, plural
from readsim.core.units import UNIT_HELP, UNITS

DEFAULT_MEASURES = (DEFAULT_DOC_MEASURE,)  # --per-article
DEFAULT_LIST_MEASURES = (DEFAULT_LIST_MEASURE,)  # MAgP, the official Relevant in Context measure
MAX_WARNINGS = 20

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, streams.EXIT_INTERRUPTED
EXIT_STATUS_HELP = ("Exit status: 0 ok (also when the reader of the output goes away, as with | head); 1 bad "
                    "input (file:line: reason) or an OS error (path: reason: a missing or unreadable file, a directory "
                    "given as a file, a full device, a closed standard output, an output file that is not a regular file or is "
                    "an input); 2 bad usage: an unknown measure, or a measure parameter or option "
                    "value out of range (named in the message); 130 interrupted. No traceback in any case.")


# -- argument types --------------------------------------------------------------------------------


def min_grade(text: str) -> int:
    """``--min-grade``: the least grade of a graded span that is relevant text, 1 .. 2^40."""
    from readsim.core.measure import MAX_SIZE

    return parse_count(text, "G", 1, MAX_SIZE)


MIN_GRADE_HELP = ("graded qrels (JSON Lines): spans of grade G or more are relevant text, as trec_eval's -l "
                  "(default 1); a document with only lower grades is judged non-relevant")


SEGMENTS_HELP = ("a segment table (JSON Lines {\"id\", \"doc\", \"start\", \"end\"}, in the qrels' unit): every "
                 "text run is then a segment run, 'topic Q0 segment rank score run' (reference 2.14)")


def add_segments_option(p: argparse.ArgumentParser) -> None:
    """``--segments FILE``: the segment table that turns segment runs into span runs (reference 2.14)."""
    p.add_argument("--segments", metavar="FILE", help=SEGMENTS_HELP)


def read_segment_table(args):
    """The segment table of ``--segments`` (a :class:`readsim.core.formats.SegmentTable`), or
    None without it. Raises :class:`InputError` naming the table's file and line."""
    from readsim.core.formats import read_segments

    path = getattr(args, "segments", None)
    return read_segments(path) if path else None


def levels(text: str) -> int:
    """``--levels``: LE's levels L, 1 .. :data:`readsim.core.measure.MAX_LEVELS`."""
    return parse_count(text, "L", 1, MAX_LEVELS)


def _measure(text: str, parse, other, wrong) -> DocMeasure | ListMeasure:
    """``parse(text)``; when ``text`` is unknown to it but ``other`` knows it, the message
    ``wrong(parsed by other)`` says which kind of measure to give instead."""
    try:
        return parse(text)
    except BadParameter:
        raise
    except UnknownMeasure as exc:
        try:
            found = other(text)
        except BadParameter:
            raise
        except UnknownMeasure:
            raise exc from None
        raise UnknownMeasure(wrong(found)) from None


def doc_measure(text: str) -> DocMeasure:
    """A document measure for ``--per-article``; a list measure is a usage error naming its document measure."""
    return _measure(text, parse_measure, parse_list_measure,
                    lambda _: f"{text.strip()} is a list measure; --per-article prints document measures "
                              f"such as {text.partition('/')[2] or 'F(0.25)'}")


def list_measure(text: str) -> ListMeasure:
    """A list measure; a document measure is a usage error suggesting ``AgP/`` it or ``--per-article``."""
    return _measure(text, parse_list_measure, parse_measure,
                    lambda doc: f"{doc.name} is a document measure: give a list measure such as AgP/{doc.name}, "
                                f"or use --per-article")


def list_measures(names: Sequence[str] | None, plain_gp: bool) -> list[ListMeasure]:
    """The ``-m`` list measures (default MAgP), gP's plain form with ``--plain-gp``. Raises
    :class:`~readsim.core.measure.UnknownMeasure` (exit 2)."""
    measures = [list_measure(m) for m in (names or DEFAULT_LIST_MEASURES)]
    return [replace(m, plain=True) if plain_gp and m.declaration.plain else m for m in measures]


def chosen_measures(args) -> list:
    """The ``-m`` measures of ``args``: document measures with ``--per-article`` (default
    ``F(0.25)``), else list measures (:func:`list_measures`, ``--plain-gp`` applied; with
    ``--task`` and no ``-m``, the task's measures, reference 5.14). Raises
    :class:`~readsim.core.measure.UnknownMeasure` (exit 2)."""
    if args.per_article:
        return [doc_measure(m) for m in (args.measures or DEFAULT_MEASURES)]
    task = getattr(args, "task", None)
    if task is not None and not args.measures:
        return list_measures(TASKS[task].measures, args.plain_gp)
    return list_measures(args.measures, args.plain_gp)


# -- the parser ------------------------------------------------------------------------------------


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


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` writing help to ``out`` and errors to ``err`` (``main``'s streams)."""

    streams: tuple[TextIO, TextIO] | None = None

    def __init__(self, prog: str, description: str, epilog: str, usage: str | None = None):
        super().__init__(prog=prog, formatter_class=_Formatter, description=description, epilog=epilog, usage=usage)

    def _print_message(self, message: str, file=None) -> None:
        if message and self.streams is not None:
            out, err = self.streams
            file = err if file is sys.stderr else out
        super()._print_message(message, file)

    def parse(self, argv: Sequence[str], out: TextIO, err: TextIO) -> argparse.Namespace | int:
        """The parsed arguments, or the exit status when argparse printed the help (0) or a usage error (2)."""
        self.streams = (out, err)
        try:
            return self.parse_args(argv)
        except SystemExit as exc:
            return int(exc.code or 0)


SUBCOMMAND_FORMATS = ("text", "tsv", "jsonl")


def add_reading_options(p: argparse.ArgumentParser) -> None:
    """``--reading``, ``--unit``, ``--min-grade``, ``--levels`` and ``--plain-gp``: how the
    runs are read and scored, as plain evaluation reads them (reference 9.1)."""
    p.add_argument("--reading", default="natural", choices=[m.value for m in Mode],
                   help="reading order after the matching chain (default natural)")
    p.add_argument("--unit", choices=UNITS, help=UNIT_HELP)
    p.add_argument("--min-grade", type=option(min_grade), default=1, metavar="G", help=MIN_GRADE_HELP)
    p.add_argument("--levels", type=option(levels), default=4, metavar="L",
                   help=f"LE levels L, a whole number from 1 to {MAX_LEVELS} (default 4; NR = L + 1)")
    p.add_argument("--plain-gp", action="store_true", help="gP@r past the end of a short run is sum/r")


def add_subcommand_options(p: argparse.ArgumentParser, tables: str = "") -> None:
    """QRELS, ``-m``, ``--format``, ``--reading``, ``--unit``, ``--levels`` and ``--plain-gp``:
    the options ``compare`` and ``fidelity`` share, in this order (their help). ``tables``: what
    ``--format latex|markdown`` prints (those formats offered only when given)."""
    p.add_argument("qrels", metavar="QRELS", help="FOL qrels file")
    p.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help=f"list measure (repeatable; default {DEFAULT_LIST_MEASURES[0]})")
    p.add_argument("--format", default="text", choices=SUBCOMMAND_FORMATS + (TABLE_FORMATS if tables else ()),
                   help="a readable report (text, the default), or rows: tsv (a #kind header row before each "
                   "kind of row) or jsonl (one object per row with a \"kind\" key)"
                   + (f"; latex or markdown: {tables}" if tables else ""))
    add_reading_options(p)


def run_subcommand(parser: Parser, run, argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    """Parse ``compare``'s or ``fidelity``'s ``argv`` and ``run(args, measures, out, err)`` with
    the ``-m`` list measures (``compare --task``: the task's by default), each once; or the exit status: 0 after the help, 2 after a usage
    error or an unknown measure."""
    args = parser.parse(argv, out, err)
    if isinstance(args, int):
        return args
    task = getattr(args, "task", None)
    try:
        measures = list_measures(args.measures or (TASKS[task].measures if task else None), args.plain_gp)
    except UnknownMeasure as exc:
        print(f"readsim-eval: {exc}", file=err)
        return EXIT_USAGE
    return run(args, list(dict.fromkeys(measures)), out, err)


# -- inputs -----------------------------------------------------------------------------------------


def check_paths(inputs) -> None:
    """Fail before any work on an input path (``(kind, path)`` pairs; None skipped) that is
    missing, of the wrong kind or unreadable: :func:`readsim.core.coverage.check_input_path` (opens
    nothing; a pipe such as ``<(grep ...)`` is welcome)."""
    from readsim.core.coverage import check_input_path

    for kind, path in inputs:
        if path:
            check_input_path(path, kind, pipes=True)


def open_collection(path: str, unit: str, err: TextIO):
    """The collection at ``path`` (reference 2.10: a folder, flat or nested, a zip or tar archive,
    or a folder of archives), its index built with progress on ``err`` when it is a terminal;
    why an index was rebuilt is printed on ``err`` in any case."""
    import time

    from readsim.core.collection import Collection

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


def collection_lengths(qrels, collection, err: TextIO):
    """``qrels`` with ``collection``'s doc_length where the qrels do not give it
    (:func:`readsim.core.qrels_lengths.with_collection_lengths`, reference 2.11), its new
    warnings printed on ``err``."""
    from readsim.core.qrels_lengths import with_collection_lengths

    out = with_collection_lengths(qrels, collection)
    warn(out.diagnostics[len(qrels.diagnostics):], err)
    return out


def read_inputs(args, err: TextIO):
    """``(qrels, collection, runs)`` from ``args.qrels``, ``args.collection`` (None without it)
    and ``args.runs`` (segment runs with ``args.segments``, reference 2.14), each input's warnings printed as it is read; each run's ``run_id`` is
    its label (:func:`readsim.core.run_comparison.run_labels`: its run id, or its file name when runs share
    the id, as the three real BERT runs share ``TREC2INEX``; one warning per shared id)."""
    from readsim.core.run_comparison import run_labels
    from readsim.core.formats import read_any_run, read_qrels

    qrels = read_qrels(args.qrels, min_grade=getattr(args, "min_grade", 1))
    warn(qrels.diagnostics, err)
    collection = open_collection(args.collection, args.unit, err) if args.collection else None
    qrels = collection_lengths(qrels, collection, err)
    segments = read_segment_table(args)
    runs = []
    for path in args.runs:
        run = read_any_run(path, strict=args.strict, task=getattr(args, "task", None), segments=segments)
        warn(run.diagnostics, err)
        runs.append(run)
    labels, warnings = run_labels(runs)
    for message in warnings:
        print(f"readsim-eval: warning: {message}", file=err)
    for run, label in zip(runs, labels):
        run.run_id = label
    return qrels, collection, runs


# -- output -----------------------------------------------------------------------------------------


def warn(diagnostics: Sequence[Diagnostic], err: TextIO, seen: set[str] | None = None) -> None:
    """Print ``file:line: warning: ...`` lines, the first :data:`MAX_WARNINGS`, then their count.
    ``seen``: the warnings printed before in this command (each printed once: a qrels line's
    warning found again by the next run is not repeated); those printed are added to it."""
    if seen is not None:
        diagnostics = [d for d in dict.fromkeys(map(str, diagnostics)) if d not in seen]
        seen.update(diagnostics)
    for d in diagnostics[:MAX_WARNINGS]:
        err.write(f"{d}\n")  # one write a line: a Ctrl+C cannot split a line from its end
    if len(diagnostics) > MAX_WARNINGS:
        err.write(f"readsim-eval: warning: {len(diagnostics) - MAX_WARNINGS} more warnings not shown\n")


def progress(err: TextIO, label: str):
    """A progress callback ``(done, total)`` that writes to a terminal, or None when ``err`` is not one."""
    if not err.isatty():
        return None

    def report(done: int, total: int) -> None:
        end = "\n" if done >= total else ""
        print(f"\r{label}: {done}/{total}", end=end, file=err, flush=True)

    return report


def fmt(measure: DocMeasure | ListMeasure, value: float) -> str:
    """A value as trec_eval prints it: six decimals, a whole number for counts and efforts
    (LE, ES), ``n/a`` for a mean over no topic."""
    if value != value:  # a mean over no topic (every topic left out of an element measure)
        return "n/a"
    whole = measure.is_count if isinstance(measure, ListMeasure) else \
        isinstance(measure, DocMeasure) and measure.declaration.whole  # an element measure never
    return str(int(value)) if whole else f"{value:.6f}"


def write_evaluation(result, per_topic: bool, format: str, out: TextIO) -> None:
    """Print one run's rows (an :class:`readsim.core.listmeasures.Evaluation` or an element
    evaluation): trec_eval-like text (``runid`` row first) or JSON Lines."""
    rows = [(m, t, result.values[m.name][t]) for t in result.topics for m in result.measures
            if t in result.values[m.name]] if per_topic else []
    rows += [(m, "all", result.means[m.name]) for m in result.measures]
    if format == "jsonl":  # a mean over no topic (NaN) has no row: JSON has no NaN
        for m, topic, value in rows:
            if value == value:
                print(json.dumps({"run": result.run_id, "measure": m.name, "topic": topic, "value": value}), file=out)
        return
    print(f"runid\tall\t{result.run_id}", file=out)
    for m, topic, value in rows:
        print(f"{m.name}\t{topic}\t{fmt(m, value)}", file=out)


def write_evaluation_tables(results, per_topic: bool, format: str, out: TextIO) -> None:
    """Print the runs' evaluations as tables for papers (``--format latex|markdown``; reference
    12.4): :func:`evaluation_tables` written by :func:`readsim.core.paper_tables.write_tables`."""
    out.write(write_tables(evaluation_tables(results, per_topic), format))


def evaluation_tables(results, per_topic: bool) -> list[PaperTable]:
    """Runs x measures (each run's mean over its judged topics, the values of the tsv rows at
    topic ``all``), or with ``per_topic`` one table per run, topics x measures with the mean row
    ``all`` under a rule; the numbers as :func:`fmt` prints them."""
    if not results:
        return []
    measures = results[0].measures
    names = [m.name for m in measures]
    if per_topic:
        tables = []
        for r in results:
            rows = [[t, *(fmt(m, r.values[m.name][t]) if t in r.values[m.name] else "" for m in r.measures)]
                    for t in r.topics]
            rows.append(["all", *(fmt(m, r.means[m.name]) for m in r.measures)])
            caption = (f"Run {r.run_id}: each topic's value and ('all') the mean over the run's "
                       f"{plural(len(r.topics), 'judged topic')} (readsim-eval -q)")
            tables.append(PaperTable(["Topic", *names], rows, caption, rules=(len(rows) - 1,)))
        return tables
    counts = sorted({len(r.topics) for r in results})
    topics = (plural(counts[0], "topic") if len(counts) == 1 else
              "topics per run: " + ", ".join(f"{r.run_id} {len(r.topics)}" for r in results))
    rows = [[r.run_id, *(fmt(m, r.means[m.name]) for m in measures)] for r in results]
    caption = f"Each run's mean over its judged topics ({topics}; readsim-eval)"
    return [PaperTable(["Run", *names], rows, caption)]


def _cell(value) -> str:
    """A tsv cell of :class:`Rows`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return format_tsv(value)
    return str(value)


def _json_value(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, np.generic):
        return _json_value(value.item())
    return value


class Rows:
    """The rows of ``compare`` and ``fidelity``: tsv with a ``#kind`` header row before the
    first row of each kind, or jsonl objects with a ``"kind"`` key."""

    def __init__(self, format: str, out: TextIO):
        self.format = format
        self.out = out
        self.headed: set[str] = set()
        self.lines: list[str] = []

    def add(self, kind: str, **fields) -> None:
        fields = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in fields.items()}
        if self.format == "jsonl":
            self.lines.append(json.dumps({"kind": kind, **{k: _json_value(v) for k, v in fields.items()}}) + "\n")
            return
        if kind not in self.headed:
            self.headed.add(kind)
            self.lines.append("\t".join([f"#{kind}", *fields]) + "\n")
        self.lines.append("\t".join([kind, *(_cell(v) for v in fields.values())]) + "\n")

    def flush(self) -> None:
        self.out.write("".join(self.lines))
        self.lines.clear()


# -- the error guard --------------------------------------------------------------------------------


class OutputError(Exception):
    """Writing to an output stream failed (a full device, an I/O error): ``"<stdout>: reason"``."""

    def __init__(self, name: str, exc: OSError):
        super().__init__(f"{name}: {exc.strerror or exc}")


class Guarded:
    """A text stream whose write errors become :class:`OutputError` naming it (``<stdout>``);
    a closed pipe stays a ``BrokenPipeError`` (quiet exit)."""

    def __init__(self, stream: TextIO, name: str):
        self.stream = stream
        self.name = name
        #: a line was begun and not ended (a write cut by Ctrl+C, a progress line): the last
        #: words (:func:`_say`) then start on a line of their own
        self.line_open = False

    def _call(self, method: str, *args):
        try:
            return getattr(self.stream, method)(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(self.name, exc) from None

    def write(self, text: str) -> int:
        if not text:
            return 0
        self.line_open = True  # until the whole text is out
        written = self._call("write", text)
        self.line_open = not text.endswith("\n")
        return written

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
    """Print an error on ``err`` as a line of its own (after a line left open, on the next one),
    saying nothing if standard error itself is what fails."""
    try:
        err.write(("\n" if getattr(err, "line_open", False) else "") + text + "\n")
        err.flush()
    except (OSError, OutputError, ValueError):
        pass


def guarded(work: Callable[[TextIO, TextIO], int], out: TextIO | None, err: TextIO | None) -> int:
    """Run ``work(out, err)`` on guarded streams (the standard ones by default,
    :func:`readsim.core.streams.output` and :func:`~readsim.core.streams.errors` when the caller closed
    them) and return its exit status; every error becomes one line on ``err`` and its status
    (module docstring), never a traceback."""
    streams.started()
    raw_out = streams.output(out)
    raw_err = streams.errors(err)
    out = Guarded(raw_out, "<stdout>")
    err = Guarded(raw_err, "<stderr>")
    try:
        code = work(out, err)
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
