"""``readsim-eval compare`` and ``readsim-eval fidelity``: comparing runs, and testing a
measure's fidelity on the simulated runs.

``readsim-eval compare QRELS RUN RUN [RUN ...] [--runs DIR] -m MEASURE ...`` reads every run
once, evaluates it with every measure in one pass (and once more as whole documents, the
baseline of seed 003's "doc" columns, unless ``--no-doc``), then prints per measure the runs
ranked by their mean with a confidence interval, the significance matrix over all run pairs
with the count of significant pairs (seed 000's "112 of 190"), the neighbouring pairs' effect
sizes, and Kendall's tau and Pearson's r between every two measures and against the baseline.
The statistics and their policies (pairing by topic, orientation, ties, tests, correction,
effect size) are :mod:`engine.compare`'s.

``readsim-eval fidelity QRELS --collection DIR [-m MEASURE ...] [--topics complete|T,T]``
builds the 20 simulated runs (:mod:`engine.simulated`) on the topics whose relevant articles
the collection holds and prints seed 001's Table 1 and Table 2 with a verdict per measure
(:mod:`engine.fidelity`).

Both print a readable report (``--format text``, the default), or rows for programs:
``--format tsv`` (each kind of row preceded by a ``#kind`` header row naming its columns) or
``--format jsonl`` (one object per row, with a ``"kind"`` key). Progress goes to standard
error when it is a terminal; warnings as ``file: warning: ...``.

Exit status as ``readsim-eval``: 0 done; 1 bad input (a file that does not parse, a folder with
no run, no topic shared by the runs, a topic the collection cannot simulate); 2 bad usage (fewer
than 2 runs, an unknown measure, ``--alpha`` outside (0, 1), ``--resamples`` outside 1 ..
100,000, ...: the message names the option); 130 interrupted. scipy is imported here only,
never by a plain ``readsim-eval QRELS RUN``.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import TextIO

import numpy as np

from .cli import (DEFAULT_LIST_MEASURES, open_collection, EXIT_INPUT, EXIT_STATUS_HELP, EXIT_USAGE, PARAMETER_RANGES, _Formatter,
                  _inputs, _levels, _list_measure, _new, _Parser, _progress, _warn, option)
from .batch import Join
from .compare import format_number, format_signed
from .coverage import check_input_path
from .errors import InputError
from .formats import read_qrels
from .listmeasures import Evaluation, evaluate
from .measure import MAX_LEVELS, BadParameter, ListMeasure, UnknownMeasure, parse_count, parse_real
from .reading import Mode
from .text import UNITS

FORMATS = ("text", "tsv", "jsonl")


# -- options -------------------------------------------------------------------------------------


def _alpha(text: str) -> float:
    try:
        value = parse_real(text, "alpha", 0.0, 1.0, low_inclusive=False)
    except BadParameter:
        value = 1.0
    if value >= 1.0:
        raise BadParameter(f"alpha must be a number above 0 and below 1, not {str(text).strip()[:60]!r}")
    return value


def _resamples(text: str) -> int:
    from .compare import MAX_RESAMPLES

    return parse_count(text, "the number of resamples", 1, MAX_RESAMPLES)


def _seed(text: str) -> int:
    return parse_count(text, "the seed", 0, 2**63 - 1)


def _topics(text: str) -> str | list[str]:
    text = str(text).strip()
    if text == "complete":
        return text
    ids = [t.strip() for t in text.split(",")]
    if not text or any(not t or any(c.isspace() for c in t) for t in ids):
        raise BadParameter(f"topics must be 'complete' or topic ids separated by commas (2009067,2009073), "
                           f"not {text[:60]!r}")
    return ids


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", metavar="QRELS", help="FOL qrels file")
    p.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help=f"list measure (repeatable; default {DEFAULT_LIST_MEASURES[0]})")
    p.add_argument("--format", default="text", choices=FORMATS,
                   help="a readable report (text, the default), or rows: tsv (a #kind header row before each "
                   "kind of row) or jsonl (one object per row with a \"kind\" key)")
    p.add_argument("--reading", default="natural", choices=[m.value for m in Mode],
                   help="reading order after the matching chain (default natural)")
    p.add_argument("--unit", default="bytes", choices=UNITS, help="offset unit of qrels and runs (default bytes)")
    p.add_argument("--levels", type=option(_levels), default=4, metavar="L",
                   help=f"LE levels L, a whole number from 1 to {MAX_LEVELS} (default 4; NR = L + 1)")
    p.add_argument("--plain-gp", action="store_true", help="gP@r past the end of a short run is sum/r")


def build_compare_parser() -> _Parser:
    from .compare import MAX_RESAMPLES

    p = _Parser(
        prog="readsim-eval compare", formatter_class=_Formatter,
        description="Compare runs: per measure the runs ranked by their mean over the topics with a confidence "
        "interval, a one-tailed significance test of every pair (the significance matrix and the count of "
        "significant pairs), effect sizes, and Kendall's tau and Pearson's r of the runs' scores between measures "
        "and against each run evaluated as whole documents. Topics are paired: those every run has (with -c: "
        "every judged topic, a missing one scoring as an empty ranking).",
        epilog="Tests: bootstrap (scipy.stats.bootstrap, percentile, the papers' setting: one-tailed, alpha 0.05, "
        "1,000 resamples), t (scipy.stats.ttest_rel), randomization (scipy.stats.permutation_test, paired). "
        "Effect size: the mean difference and Cohen's d_z of the per-topic differences. Effort measures (CE, NCE, "
        "ANCE) count lower as better. Parameters: " + PARAMETER_RANGES + ". " + EXIT_STATUS_HELP)
    _common(p)
    p.add_argument("runs", nargs="*", metavar="RUN",
                   help="run files (FOL or XML); at least 2 runs in all, with those of --runs")
    p.add_argument("--runs", dest="folder", metavar="DIR",
                   help="a folder of run files: every file in it not starting with '.', by name")
    p.add_argument("--test", default="bootstrap", choices=("bootstrap", "t", "randomization"),
                   help="significance test (default bootstrap)")
    p.add_argument("--alpha", type=option(_alpha), default=0.05, metavar="A",
                   help="significance level, above 0 and below 1 (default 0.05); intervals are at 1 - A")
    p.add_argument("--resamples", type=option(_resamples), default=1000, metavar="B",
                   help=f"resamples of the bootstrap and randomization tests, 1 to {MAX_RESAMPLES} (default 1000)")
    p.add_argument("--seed", type=option(_seed), default=0, metavar="N",
                   help="random seed, a whole number from 0 (default 0): the same seed, the same numbers")
    p.add_argument("--correction", default="none", choices=("none", "holm", "bonferroni"),
                   help="multiple-comparison correction over each measure's pairs (default none)")
    p.add_argument("-c", dest="complete", action="store_true",
                   help="pair over every judged topic, a topic missing from a run scoring as an empty ranking "
                   "(default: the topics every run has)")
    p.add_argument("--as-documents", action="store_true",
                   help="evaluate every ranked article as retrieved whole (then there is no separate baseline)")
    p.add_argument("--no-doc", action="store_true",
                   help="do not evaluate the runs as whole documents (no baseline correlations)")
    p.add_argument("--collection", metavar="DIR", help="folder of the articles: clips passages, resolves XPaths")
    p.add_argument("--strict", action="store_true", help="reject runs the official INEX tool rejects")
    return p


def build_fidelity_parser() -> _Parser:
    p = _Parser(
        prog="readsim-eval fidelity", formatter_class=_Formatter,
        description="Test measures on the 20 simulated runs of Kamps et al.'s fidelity tests (S, SL, SLD, SS, SST "
        "passages x R, RS, RI, RSI rankings), built from the qrels and the articles: Table 1 (every run's mean per "
        "measure), Table 2 (per expected ordering: mean difference, topics where the first run is better, equal, worse, "
        "paired t-test p) and a verdict per measure: the orderings it respects on every topic.",
        epilog="Diff is in percentage points (100 x the difference of the means) for measures in [0, 1], in the "
        "measure's unit for effort measures (lower is better). Parameters: " + PARAMETER_RANGES + ". "
        + EXIT_STATUS_HELP)
    _common(p)
    p.add_argument("--collection", metavar="DIR", required=True,
                   help="folder of the articles (the simulated runs need the relevant articles' XML)")
    p.add_argument("--topics", type=option(_topics), default="complete", metavar="complete|T,T,...",
                   help="the topics: 'complete' (default: every judged topic whose relevant articles the "
                   "collection all holds) or ids separated by commas")
    return p


def _measures(args, err: TextIO) -> list[ListMeasure] | None:
    try:
        measures = [_list_measure(m) for m in (args.measures or DEFAULT_LIST_MEASURES)]
    except UnknownMeasure as exc:
        print(f"readsim-eval: {exc}", file=err)
        return None
    if args.plain_gp:
        measures = [replace(m, plain=True) if m.kind == "gP" else m for m in measures]
    return list(dict.fromkeys(measures))


def run_subcommand(name: str, argv: list[str], out: TextIO, err: TextIO) -> int:
    """Run ``readsim-eval compare`` or ``readsim-eval fidelity`` with ``argv`` (after the
    subcommand's name); returns the exit status. Raises :class:`InputError` and ``OSError``
    for :func:`engine.cli.main` to print as one line (exit 1)."""
    parser = build_compare_parser() if name == "compare" else build_fidelity_parser()
    parser.streams = (out, err)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse printed the usage error or the help
        return int(exc.code or 0)
    measures = _measures(args, err)
    if measures is None:
        return EXIT_USAGE
    if name == "compare":
        return run_compare(args, measures, out, err)
    return run_fidelity(args, measures, out, err)


# -- compare --------------------------------------------------------------------------------------


def run_paths(files: list[str], folder: str | None) -> list[str]:
    """The run files: ``files``, then every file of ``folder`` not starting with ``.``, by name.
    Raises :class:`InputError` for a folder that is missing, not a folder, or holds no file."""
    paths = [str(f) for f in files]
    if folder is not None:
        d = Path(folder)
        if not d.is_dir():
            raise InputError(folder, None, "not a folder (--runs takes a folder of run files)" if d.exists()
                             else "run folder not found")
        found = sorted(str(p) for p in d.iterdir() if not p.name.startswith(".") and p.is_file())
        if not found:
            raise InputError(folder, None, "no run file in the folder")
        paths += found
    return paths


def evaluate_runs(args, measures: list[ListMeasure], documents: bool,
                  err: TextIO) -> tuple[list[Evaluation], list[Evaluation] | None]:
    """Read the qrels and every run once (warnings on ``err``, as ``readsim-eval`` prints them)
    and evaluate each run with all ``measures`` in one pass, and again as whole documents when
    ``documents``. Progress on ``err`` when it is a terminal."""
    qrels, collection, runs, said = _inputs(args, err)
    progress = _progress(err, "evaluating runs")
    evaluations: list[Evaluation] = []
    baselines: list[Evaluation] | None = [] if documents else None
    for done, run in enumerate(runs, 1):
        join = Join()
        result = evaluate(qrels, run, measures, args.reading, collection, args.as_documents, args.complete,
                          args.levels, join)
        _warn(_new(result.diagnostics, said) + join.diagnostics, err)
        evaluations.append(result)
        if baselines is not None:
            baselines.append(evaluate(qrels, run, measures, args.reading, collection, True, args.complete,
                                      args.levels))
        if progress is not None:
            progress(done, len(runs))
    if baselines is not None:
        for e, b in zip(evaluations, baselines):
            b.run_id = e.run_id
    return evaluations, baselines


def run_compare(args, measures: list[ListMeasure], out: TextIO, err: TextIO) -> int:
    from .compare import compare_evaluations

    paths = run_paths(args.runs, args.folder)
    if len(paths) < 2:
        print(f"readsim-eval compare: give at least 2 runs (RUN RUN ... or --runs DIR), not {len(paths)}", file=err)
        return EXIT_USAGE
    for kind, path in (("qrels", args.qrels), *(("run", r) for r in paths), ("collection", args.collection)):
        if path:
            check_input_path(path, kind, pipes=True)
    args.runs = paths
    evaluations, baselines = evaluate_runs(args, measures, not (args.no_doc or args.as_documents), err)
    try:
        comparison = compare_evaluations(evaluations, measures, baselines, test=args.test, alpha=args.alpha,
                                         resamples=args.resamples, seed=args.seed, correction=args.correction)
    except ValueError as exc:  # the inputs leave too little to compare
        if "paired topics" in str(exc):
            shared = len(set.intersection(*(set(e.topics) for e in evaluations)))
            exc = (f"{shared} judged topic{'s' if shared != 1 else ''} shared by every run; a comparison needs at "
                   f"least 2" + ("" if args.complete else " (-c pairs over every judged topic)"))
        print(f"readsim-eval compare: {exc}", file=err)
        return EXIT_INPUT
    if comparison.left_out:
        lo = comparison.left_out
        print(f"readsim-eval compare: warning: {len(lo)} judged topic{'s are' if len(lo) > 1 else ' is'} not in "
              f"every run (first: {', '.join(lo[:3])}); compared on the {len(comparison.topics)} topics every run "
              f"has (-c scores a missing topic as an empty ranking)", file=err)
    pairs = len(comparison.runs) * (len(comparison.runs) - 1) // 2
    t = len(comparison.topics)
    smallest = 1 / 2**t if t < 63 and 2**t <= args.resamples else 1 / (args.resamples + 1)
    if args.correction != "none" and args.test == "randomization" and args.alpha / pairs <= smallest:
        print(f"readsim-eval compare: warning: with --correction {args.correction} over {pairs} pairs a p-value must "
              f"be below {args.alpha / pairs:.2g}; the randomization test's smallest p here is {smallest:.2g}: no "
              f"pair can be significant (raise --resamples)", file=err)
    setting = {"complete": bool(args.complete), "as_documents": bool(args.as_documents)}
    if args.format == "text":
        write_compare_text(comparison, setting, out)
    else:
        write_compare_rows(comparison, setting, args.format, out)
    return 0


# -- formatting -------------------------------------------------------------------------------------


_num, _signed = format_number, format_signed


def _p(value: float) -> str:
    if value is None or math.isnan(value):
        return "-"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def _row_value(value) -> str:
    """A tsv cell."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if not math.isfinite(value):
            return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
        return f"{value:.6g}" if abs(value) < 1e-4 and value != 0 else f"{value:.6f}"
    return str(value)


def _json_value(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, np.generic):
        return _json_value(value.item())
    return value


class _Rows:
    """tsv rows with a ``#kind`` header row before the first row of each kind, or jsonl."""

    def __init__(self, fmt: str, out: TextIO):
        self.fmt = fmt
        self.out = out
        self.headed: set[str] = set()
        self.lines: list[str] = []

    def add(self, kind: str, **fields) -> None:
        fields = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in fields.items()}
        if self.fmt == "jsonl":
            self.lines.append(json.dumps({"kind": kind, **{k: _json_value(v) for k, v in fields.items()}}) + "\n")
            return
        if kind not in self.headed:
            self.headed.add(kind)
            self.lines.append("\t".join([f"#{kind}", *fields]) + "\n")
        self.lines.append("\t".join([kind, *(_row_value(v) for v in fields.values())]) + "\n")

    def flush(self) -> None:
        self.out.write("".join(self.lines))
        self.lines.clear()


def _setting_line(c, setting: dict) -> str:
    test = {"bootstrap": f"paired bootstrap test (one-tailed, {c.resamples} resamples, seed {c.seed})",
            "t": "paired t-test (one-tailed)",
            "randomization": f"paired randomization test (one-tailed, {c.resamples} resamples, seed {c.seed})"}[c.test]
    topics = "every judged topic (-c)" if setting["complete"] else "the topics every run has"
    correction = "no correction" if c.correction == "none" else f"{c.correction} correction over each measure's pairs"
    return (f"{len(c.runs)} runs, {len(c.topics)} topics paired ({topics}); {test}; alpha {c.alpha:g}, {correction}; "
            f"{(1 - c.alpha) * 100:g}% {c.ci_method} intervals"
            + ("; runs as documents" if setting["as_documents"] else ""))


def write_compare_text(c, setting: dict, out: TextIO) -> None:
    """The readable report of a :class:`engine.compare.Comparison`."""
    lines = [f"readsim-eval compare: {_setting_line(c, setting)}"]
    width = max(len(r) for r in c.runs)
    level = f"{(1 - c.alpha) * 100:g}%"
    for k, m in enumerate(c.measures):
        has_doc = not np.isnan(c.doc_means[k]).any()
        lines += ["", f"== {m} ({'lower' if c.lower_is_better[k] else 'higher'} is better) =="]
        head = f"{'rank':>4}  {'run':<{width}}  {'mean':>9}  {level + ' interval':<22}"
        if k > 0:
            head += f"  {'rank by ' + c.measures[0]}"
        if has_doc:
            head += "  as documents"
        lines.append(head.rstrip())
        for i in c.order[k]:
            row = (f"{c.rank[k, i]:>4}  {c.runs[i]:<{width}}  {_num(c.means[k, i]):>9}  "
                   f"{'[' + _num(c.ci[k, i, 0]) + ', ' + _num(c.ci[k, i, 1]) + ']':<22}")
            if k > 0:
                row += f"  {c.rank[0, i]:>{len('rank by ' + c.measures[0])}}"
            if has_doc:
                row += f"  {_num(c.doc_means[k, i]):>12}"
            lines.append(row.rstrip())
        sig, total = c.significant_count(k)
        pname = "adjusted p" if c.correction != "none" else "p"
        lines += ["", f"significant pairs: {sig} of {total} ({pname} < {c.alpha:g}; * significant, . not; "
                  f"row run ranked above column run)"]
        n = len(c.runs)
        cell = max(3, len(str(n)) + 1)
        lines.append(" " * 5 + "".join(f"{b:>{cell}}" for b in range(2, n + 1)))
        for a in range(1, n):
            i = c.order[k][a - 1]
            marks = "".join(f"{'*' if c.significant[k, i, c.order[k][b - 1]] else '.':>{cell}}"
                            for b in range(a + 1, n + 1))
            lines.append(f"{a:>4} " + " " * cell * (a - 1) + marks)
        lines += ["", "neighbours in the ranking: mean difference, Cohen's d_z, topics better/equal/worse, "
                  + ("p (adjusted)" if c.correction != "none" else "p")]
        for pair in c.neighbours(k):
            shown = pair.p_adjusted if c.correction != "none" else pair.p
            lines.append(f"{c.rank[k, pair.better]:>4} > {c.rank[k, pair.worse]:<4} {_signed(pair.diff):>9}  "
                         f"d {_signed(pair.effect, 2):>6}  {f'{pair.wins}/{pair.ties}/{pair.losses}':>13}  "
                         f"p {_p(shown):>6}{' *' if pair.significant else ''}")
    if len(c.measures) > 1:
        lines += ["", "== Correlation of the runs' scores between measures: Kendall's tau / Pearson's r "
                  "(effort measures negated) =="]
        w = max(len(m) for m in c.measures)
        lines.append(" " * w + "".join(f"  {m:>{max(len(m), 13)}}" for m in c.measures[1:]))
        for k, m in enumerate(c.measures[:-1]):
            cells = []
            for q, other in enumerate(c.measures[1:], 1):
                text = "" if q <= k else f"{_num(c.tau[k, q], 3)} / {_num(c.r[k, q], 3)}"
                cells.append(f"  {text:>{max(len(other), 13)}}")
            lines.append(f"{m:<{w}}" + "".join(cells))
    with_doc = [k for k in range(len(c.measures)) if not np.isnan(c.doc_means[k]).any()]
    if with_doc:
        lines += ["", "== Against each run evaluated as whole documents (--as-documents; Arvola et al. 2010's \"doc\" "
                  "baselines) =="]
        w = max(len(c.measures[k]) for k in with_doc)
        lines.append(f"{'measure':<{w}}  {'tau':>6}  {'r':>6}  runs better than their baseline")
        for k in with_doc:
            lines.append(f"{c.measures[k]:<{w}}  {_num(c.doc_tau[k], 3):>6}  {_num(c.doc_r[k], 3):>6}  "
                         f"{c.doc_gains[k]} of {len(c.runs)}")
    out.write("\n".join(lines) + "\n")


def write_compare_rows(c, setting: dict, fmt: str, out: TextIO) -> None:
    """tsv or jsonl rows of a :class:`engine.compare.Comparison` (kinds: setting, mean, pair,
    summary, correlation)."""
    rows = _Rows(fmt, out)
    rows.add("setting", test=c.test, alpha=c.alpha, resamples=c.resamples, seed=c.seed, correction=c.correction,
             topics=len(c.topics), left_out=len(c.left_out), runs=len(c.runs), complete=setting["complete"],
             as_documents=setting["as_documents"], interval=c.ci_method)
    for k, m in enumerate(c.measures):
        for i in c.order[k]:
            rows.add("mean", measure=m, run=c.runs[i], rank=int(c.rank[k, i]), mean=float(c.means[k, i]),
                     ci_low=float(c.ci[k, i, 0]), ci_high=float(c.ci[k, i, 1]), doc_mean=float(c.doc_means[k, i]))
    for k, m in enumerate(c.measures):
        for pair in c.pairs(k):
            rows.add("pair", measure=m, better=c.runs[pair.better], worse=c.runs[pair.worse],
                     rank_better=int(c.rank[k, pair.better]), rank_worse=int(c.rank[k, pair.worse]), diff=pair.diff,
                     effect=pair.effect, wins=pair.wins, ties=pair.ties, losses=pair.losses, p=pair.p,
                     p_adjusted=pair.p_adjusted, significant=pair.significant)
        rows.flush()
    for k, m in enumerate(c.measures):
        sig, total = c.significant_count(k)
        rows.add("summary", measure=m, significant=sig, pairs=total, doc_gains=int(c.doc_gains[k]))
    for k, m in enumerate(c.measures):
        for q in range(k + 1, len(c.measures)):
            rows.add("correlation", measure=m, other=c.measures[q], other_as_documents=False, tau=float(c.tau[k, q]),
                     tau_p=float(c.tau_p[k, q]), r=float(c.r[k, q]), r_p=float(c.r_p[k, q]))
        if not np.isnan(c.doc_means[k]).any():
            rows.add("correlation", measure=m, other=m, other_as_documents=True, tau=float(c.doc_tau[k]),
                     tau_p=float(c.doc_tau_p[k]), r=float(c.doc_r[k]), r_p=float(c.doc_r_p[k]))
    rows.flush()


# -- fidelity -------------------------------------------------------------------------------------------


def run_fidelity(args, measures: list[ListMeasure], out: TextIO, err: TextIO) -> int:
    from .fidelity import fidelity_tables

    check_input_path(args.qrels, "qrels", pipes=True)
    check_input_path(args.collection, "collection")
    qrels = read_qrels(args.qrels)
    _warn(qrels.diagnostics, err)
    collection = open_collection(args.collection, args.unit, err)
    result = fidelity_tables(qrels, collection, measures, args.topics, mode=args.reading, levels=args.levels,
                             progress=_progress(err, "simulated runs"))
    if args.format == "text":
        write_fidelity_text(result, out)
    else:
        write_fidelity_rows(result, args.format, out)
    return 0


def _percent(f, k: int) -> bool:
    """Diff in percentage points (the paper's "Diff (%)") for measures in [0, 1]."""
    return not f.lower_is_better[k]


def write_fidelity_text(f, out: TextIO) -> None:
    """The readable report of a :class:`engine.fidelity.Fidelity`: Table 1, Table 2 per
    measure, the verdicts."""
    from .fidelity import ALWAYS, ON_AVERAGE, PAPER_TABLE1, PAPER_TABLE2, RESPECTED, REVERSED

    topics = ", ".join(f.topics) if len(f.topics) <= 8 else f"{', '.join(f.topics[:8])}, ..."
    lines = [f"readsim-eval fidelity: the 20 simulated runs of Kamps et al.'s fidelity tests on "
             f"{len(f.topics)} topic{'s' if len(f.topics) != 1 else ''} ({topics})", "",
             "Table 1: mean score per run (paper MAgP: Kamps et al.'s Table 1 on the 114 INEX 2006 topics, for "
             "orientation)"]
    widths = [max(len(m), 8) for m in f.measures]
    lines.append(f"{'run':<7}" + "".join(f"  {m:>{w}}" for m, w in zip(f.measures, widths)) + "  paper MAgP")
    for i, run in enumerate(f.runs):
        lines.append(f"{run:<7}" + "".join(f"  {_num(f.means[k, i]):>{w}}" for k, w in enumerate(widths))
                     + f"  {PAPER_TABLE1[run][0]:>10.4f}")
    for k, m in enumerate(f.measures):
        percent = _percent(f, k)
        unit = "Diff (%)" if percent else "Diff"
        lines += ["", f"Table 2: {m} ({unit}: mean of first minus second{', in percentage points' if percent else ''}"
                  f"{', lower is better so negated' if f.lower_is_better[k] else ''}; > == <: topics where the "
                  f"first run is better, equal, worse; p: paired t-test, two-sided)",
                  f"{'ordering':<16}  {unit:>9}  {'>':>3}  {'==':>3}  {'<':>3}  {'p':>7}  {'verdict':<10}  paper AgP"]
        for o, (first, second) in enumerate(f.orderings):
            d = f.diff[k, o] * (100 if percent else 1)
            paper = PAPER_TABLE2[(first, second)][0]
            paper_diff = "0" if paper.diff == 0 else f"{paper.diff:+g}"
            lines.append(f"{first + ' > ' + second:<16}  {_signed(d, 2 if percent else 4):>9}  {f.better[k, o]:>3}  "
                         f"{f.equal[k, o]:>3}  {f.worse[k, o]:>3}  {_pvalue(f.p[k, o]):>7}  {f.verdict[k][o]:<10}  "
                         f"{paper_diff} {paper.better} {paper.equal} {paper.worse}")
    lines += ["", f"Verdict (of {len(f.orderings)} expected orderings; the paper's AgP confirms {len(ALWAYS)} on "
              f"every one of its 114 topics; paper AgP: Diff (%) > == < of Kamps et al.'s Table 2)"]
    w = max(len(m) for m in f.measures)
    for k, m in enumerate(f.measures):
        respected = f.with_verdict(k, RESPECTED)
        always = sum(o in respected for o in ALWAYS)
        reversed_ = f.with_verdict(k, REVERSED)
        average = f.with_verdict(k, ON_AVERAGE)
        tied = len(f.tied(k))
        text = (f"{m:<{w}}  respects {len(respected)} on every topic ({always} of the paper's {len(ALWAYS)}; "
                f"{tied} only by a tie on every topic), "
                f"{len(average)} on average only, {len(reversed_)} reversed")
        if reversed_:
            text += ": " + ", ".join(f"{a} > {b}" for a, b in reversed_)
        text += f"; best {', '.join(f.best(k))}, worst {', '.join(f.worst(k))}"
        lines.append(text)
    out.write("\n".join(lines) + "\n")


def _pvalue(p: float) -> str:
    if math.isnan(p):
        return "-"
    return f"{p:.1e}" if p < 0.001 else f"{p:.4f}"


def write_fidelity_rows(f, fmt: str, out: TextIO) -> None:
    """tsv or jsonl rows of a :class:`engine.fidelity.Fidelity` (kinds: setting, score,
    ordering, verdict)."""
    from .fidelity import ALWAYS, ON_AVERAGE, RESPECTED, REVERSED

    rows = _Rows(fmt, out)
    rows.add("setting", topics=",".join(f.topics), runs=len(f.runs), orderings=len(f.orderings))
    for k, m in enumerate(f.measures):
        for i, run in enumerate(f.runs):
            rows.add("score", measure=m, run=run, mean=float(f.means[k, i]))
    for k, m in enumerate(f.measures):
        for o, (first, second) in enumerate(f.orderings):
            rows.add("ordering", measure=m, first=first, second=second, diff=float(f.diff[k, o]),
                     better=int(f.better[k, o]), equal=int(f.equal[k, o]), worse=int(f.worse[k, o]),
                     p=float(f.p[k, o]), verdict=f.verdict[k][o], always=(first, second) in ALWAYS)
    for k, m in enumerate(f.measures):
        respected = f.with_verdict(k, RESPECTED)
        rows.add("verdict", measure=m, respected=len(respected), on_average=len(f.with_verdict(k, ON_AVERAGE)),
                 reversed=len(f.with_verdict(k, REVERSED)), orderings=len(f.orderings),
                 always_respected=sum(o in respected for o in ALWAYS), always=len(ALWAYS), tied=len(f.tied(k)),
                 best=",".join(f.best(k)), worst=",".join(f.worst(k)))
    rows.flush()

