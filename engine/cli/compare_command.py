"""``readsim-eval compare``: runs ranked and compared under list measures (docs/reference.md
section 12.1).

``readsim-eval compare QRELS RUN RUN [RUN ...] [--runs DIR] -m MEASURE ...`` reads every run
once, evaluates it with every measure in one pass (the Python API's
``readsim.operations.evaluate.evaluations``; and once more as whole documents, the baseline of [Arvola
2010]'s "doc" columns, Table 2, unless ``--no-doc``), then prints per measure the runs ranked by their
mean with a confidence interval, the significance matrix over all run pairs with the count of
significant pairs (as [Kamps 2007a]'s "112 of the 190 pairwise comparisons"; ``--test tukey``: the
randomised Tukey HSD over all runs of [Carterette 2012]), the neighbouring pairs' effect sizes and
the intervals of their mean differences, and
Kendall's tau and Pearson's r between every two measures and against the baseline (with two runs,
"two runs cannot show a correlation"); with ``--per-topic``, every paired topic with each run's
value and its difference to a reference run (:meth:`readsim.core.run_comparison.Comparison.per_topic`). When
topics are left out of the pairing, the report and the warning say which, and each run's own
topic count (``readsim-eval``'s means are over those). The
statistics and their policies (pairing by topic, orientation, ties, tests, correction, effect
size) are :mod:`readsim.core.run_comparison`'s, reached through the API's core as ``readsim.compare`` and the
Runs window reach them (``readsim.operations.comparison.comparison_of``).

A readable report (``--format text``, the default), or rows for programs: ``--format tsv``
(each kind of row preceded by a ``#kind`` header row naming its columns) or ``--format jsonl``
(one object per row, with a ``"kind"`` key), or a table for a paper: ``--format latex`` or
``markdown``, :meth:`readsim.Comparison.to_latex`'s and ``to_markdown``'s (reference 12.4). Progress goes to standard error when it is a
terminal; warnings as ``file: warning: ...``.

Exit status as ``readsim-eval`` (:mod:`.common`): 1 bad input (a file that does not parse, a
folder with no run, no topic shared by the runs); 2 bad usage (fewer than 2 runs, an unknown
measure, ``--alpha`` outside (0, 1), ``--resamples`` outside 1 .. 100,000, ...: the message
names the option). scipy is imported here only, never by a plain ``readsim-eval QRELS RUN``.
"""

from __future__ import annotations

import math
from typing import TextIO

import numpy as np

from readsim.core.paired_statistics import CORRECTIONS, MIN_CORRELATED, TESTS
from readsim.core.paper_tables import TABLE_FORMATS
from readsim.core.report_numbers import format_number, format_signed, plural
from readsim.core.coverage import run_paths
from readsim.core.formats.limits import TASKS
from readsim.core.listmeasures import Evaluation
from readsim.core.measure import PARAMETER_RANGES, BadParameter, ListMeasure, parse_count, parse_real
from .common import (EXIT_INPUT, EXIT_STATUS_HELP, EXIT_USAGE, Parser, Rows, add_segments_option, add_subcommand_options, check_paths,
                     option, progress, read_inputs, run_subcommand, warn)


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
    from readsim.core.run_comparison import MAX_RESAMPLES

    return parse_count(text, "the number of resamples", 1, MAX_RESAMPLES)


def _seed(text: str) -> int:
    return parse_count(text, "the seed", 0, 2**63 - 1)


def add_test_options(p: Parser) -> None:
    """``--test``, ``--alpha``, ``--resamples``, ``--seed`` and ``--correction``: compare's and
    report's significance options (reference 9.4, 12.1)."""
    from readsim.core.run_comparison import MAX_RESAMPLES

    p.add_argument("--test", default="bootstrap", choices=TESTS,
                   help="significance test (default bootstrap); tukey: the randomised Tukey HSD over all runs")
    p.add_argument("--alpha", type=option(_alpha), default=0.05, metavar="A",
                   help="significance level, above 0 and below 1 (default 0.05); intervals are at 1 - A")
    p.add_argument("--resamples", type=option(_resamples), default=1000, metavar="B",
                   help=f"resamples of the bootstrap and randomization tests and trials of the randomised Tukey HSD, "
                   f"1 to {MAX_RESAMPLES} (default 1000)")
    p.add_argument("--seed", type=option(_seed), default=0, metavar="N",
                   help="random seed, a whole number from 0 (default 0): the same seed, the same numbers")
    p.add_argument("--correction", default="none", choices=CORRECTIONS,
                   help="multiple-comparison correction over each measure's pairs (default none; bh: "
                   "Benjamini-Hochberg, the false discovery rate)")


def build_parser() -> Parser:

    p = Parser(
        "readsim-eval compare",
        "Compare runs: per measure the runs ranked by their mean over the topics with a confidence "
        "interval, a one-tailed significance test of every pair (the significance matrix and the count of "
        "significant pairs), effect sizes, and Kendall's tau and Pearson's r of the runs' scores between measures "
        "and against each run evaluated as whole documents. Topics are paired: those every run has (with -c: "
        "every judged topic, a missing one scoring as an empty ranking).",
        "Tests: bootstrap (scipy.stats.bootstrap, percentile, the papers' setting: one-tailed, alpha 0.05, "
        "1,000 resamples), t (scipy.stats.ttest_rel), randomization (scipy.stats.permutation_test, paired), tukey "
        "(Carterette 2012's randomised Tukey HSD over all runs: two-sided, already adjusted for every pair; "
        "--resamples trials). Every pair's mean difference has a two-sided 1 - alpha interval (bootstrap "
        "percentile with the bootstrap, Student's t otherwise). "
        "Effect size: the mean difference and Cohen's d_z of the per-topic differences. Effort measures (CE, NCE, "
        "ANCE) count lower as better. Parameters: " + PARAMETER_RANGES + ". " + EXIT_STATUS_HELP)
    add_subcommand_options(p, "a table for a paper, the runs' means (the best bold, the letters of the runs each is "
                           "significantly better than as superscripts) with a caption explaining them")
    p.add_argument("runs", nargs="*", metavar="RUN",
                   help="run files (FOL or XML); at least 2 runs in all, with those of --runs")
    p.add_argument("--runs", dest="folder", metavar="DIR",
                   help="a folder of run files: every file in it not starting with '.', by name")
    add_test_options(p)
    p.add_argument("-c", dest="complete", action="store_true",
                   help="pair over every judged topic, a topic missing from a run scoring as an empty ranking "
                   "(default: the topics every run has)")
    p.add_argument("--as-documents", action="store_true",
                   help="evaluate every ranked article as retrieved whole (then there is no separate baseline)")
    p.add_argument("--condensed", action="store_true",
                   help="remove the articles the qrels do not judge from each ranking before every list measure "
                   "(Sakai 2007's condensed lists)")
    p.add_argument("--task", choices=list(TASKS), default=None, metavar="TASK",
                   help="INEX 2010's restricted-ric, restricted-focused, efficiency-15, efficiency-150 or efficiency-1500 "
                   "(reference 5.14): each run cut to the task's "
                   "limit as it is read (a warning names the first line over it); the task's measures unless -m")
    p.add_argument("--no-doc", action="store_true",
                   help="do not evaluate the runs as whole documents (no baseline correlations)")
    p.add_argument("--collection", metavar="DIR", help="the articles: a folder (flat or nested), a .zip or .tar[.gz|.bz2|.xz] "
                   "archive, or a folder of archives; clips passages, resolves XPaths")
    p.add_argument("--strict", action="store_true", help="reject runs the official INEX tool rejects")
    add_segments_option(p)
    p.add_argument("--per-topic", action="store_true",
                   help="add per measure every paired topic with each run's value and its difference to the "
                   "other run (two runs) or to the best-ranked run (the best run: to the runner-up), the topics "
                   "where a run beats the best-ranked run most first")
    return p


def main(argv: list[str], out: TextIO, err: TextIO) -> int:
    """``readsim-eval compare`` with ``argv`` (after ``compare``); returns the exit status.
    Raises :class:`InputError` and ``OSError`` for the error guard to print as one line."""
    return run_subcommand(build_parser(), run_compare, argv, out, err)


# -- compare --------------------------------------------------------------------------------------


def evaluate_runs(args, measures: list[ListMeasure], documents: bool,
                  err: TextIO) -> tuple[list[Evaluation], list[Evaluation] | None]:
    """Read the qrels and every run once (warnings on ``err``, as ``readsim-eval`` prints them)
    and evaluate each run with all ``measures`` in one pass (the API's
    :func:`readsim.operations.evaluate.evaluations`), and again as whole documents when ``documents``
    (:func:`readsim.operations.evaluate.evaluate_run`).
    Progress on ``err`` when it is a terminal."""
    from readsim.operations.evaluate import evaluate_run, evaluations
    from readsim.operations.inputs import diagnostics_to

    qrels, collection, runs = read_inputs(args, err)
    report = progress(err, "evaluating runs")
    results: list[Evaluation] = []
    baselines: list[Evaluation] | None = [] if documents else None
    with diagnostics_to(lambda diagnostics: warn(diagnostics, err)):
        evaluated = evaluations(qrels, runs, measures, reading=args.reading, collection=collection,
                                all_topics=args.complete, as_documents=args.as_documents, levels=args.levels,
                                condensed=args.condensed)
        for done, (run, (_, result)) in enumerate(zip(runs, evaluated), 1):
            results.append(result)
            if baselines is not None:
                baseline, _ = evaluate_run(qrels, run, measures, reading=args.reading, collection=collection,
                                           all_topics=args.complete, as_documents=True, levels=args.levels,
                                           check=False, condensed=args.condensed)  # the run's doc_length warnings: said once, above
                baseline.run_id = result.run_id
                baselines.append(baseline)
            if report is not None:
                report(done, len(runs))
    return results, baselines


def run_compare(args, measures: list[ListMeasure], out: TextIO, err: TextIO) -> int:
    from readsim.operations.comparison import comparison_of

    if args.format in TABLE_FORMATS and args.per_topic:
        print(f"readsim-eval compare: --per-topic has no table in --format {args.format}; use text, tsv or jsonl",
              file=err)
        return EXIT_USAGE
    paths = run_paths(args.runs, args.folder)
    if len(paths) < 2:
        print(f"readsim-eval compare: give at least 2 runs (RUN RUN ... or --runs DIR), not {len(paths)}", file=err)
        return EXIT_USAGE
    check_paths([("qrels", args.qrels), *(("run", r) for r in paths), ("collection", args.collection),
                 ("segments", getattr(args, "segments", None))])
    args.runs = paths
    evaluations, baselines = evaluate_runs(args, measures, not (args.no_doc or args.as_documents
                                                                 or args.format in TABLE_FORMATS), err)
    try:
        comparison = comparison_of(evaluations, measures, baselines, test=args.test, alpha=args.alpha,
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
              f"has (-c scores a missing topic as an empty ranking); {own_topics(evaluations, comparison)}",
              file=err)
    pairs = len(comparison.runs) * (len(comparison.runs) - 1) // 2
    t = len(comparison.topics)
    exact = args.test == "randomization" and t < 63 and 2**t <= args.resamples
    smallest = 1 / 2**t if exact else 1 / (args.resamples + 1)
    if args.correction != "none" and args.test in ("randomization", "tukey") and args.alpha / pairs <= smallest:
        name = "randomization test" if args.test == "randomization" else "randomised Tukey HSD"
        print(f"readsim-eval compare: warning: with --correction {args.correction} over {pairs} pairs a p-value must "
              f"be below {args.alpha / pairs:.2g}; the {name}'s smallest p here is {smallest:.2g}: no "
              f"pair can be significant (raise --resamples)", file=err)
    setting = {"complete": bool(args.complete), "as_documents": bool(args.as_documents),
               "condensed": bool(args.condensed), "task": args.task,
               "per_topic": bool(args.per_topic), "own_topics": {e.run_id: len(e.topics) for e in evaluations}}
    if args.format in TABLE_FORMATS:
        from readsim.operations.comparison import Comparison, setting_notes

        table = Comparison(comparison, setting_notes(all_topics=args.complete, as_documents=args.as_documents,
                                                     condensed=args.condensed, reading=args.reading))
        out.write(table.to_latex() if args.format == "latex" else table.to_markdown())
    elif args.format == "text":
        write_compare_text(comparison, setting, out)
    else:
        write_compare_rows(comparison, setting, args.format, out)
    return 0


# -- formatting -------------------------------------------------------------------------------------


_num, _signed = format_number, format_signed
TWO_RUNS = ("two runs cannot show a correlation: Kendall's tau and Pearson's r of two runs are +-1 whatever the "
            "measures say (compare 3 runs or more)")


def _p(value: float) -> str:
    if value is None or math.isnan(value):
        return "-"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def own_topics(evaluations: list[Evaluation], c) -> str:
    """Why ``readsim-eval``'s means can differ from compare's: each run's own topic count when
    it has topics left out of the pairing (docs/reference.md section 12.1, pairing by topic)."""
    paired = len(c.topics)
    more = [f"{e.run_id} {len(e.topics)}" for e in evaluations if len(e.topics) != paired]
    return (f"readsim-eval's mean of a run is over its own judged topics ({', '.join(more)}), so it differs "
            f"from the mean over the {paired} paired topics here")


def _setting_line(c, setting: dict) -> str:
    test = {"bootstrap": f"paired bootstrap test (one-tailed, {c.resamples} resamples, seed {c.seed})",
            "t": "paired t-test (one-tailed)",
            "randomization": f"paired randomization test (one-tailed, {c.resamples} resamples, seed {c.seed})",
            "tukey": f"randomised Tukey HSD over all runs (two-sided, {c.resamples} trials, seed {c.seed})"}[c.test]
    topics = "every judged topic (-c)" if setting["complete"] else "the topics every run has"
    correction = "no correction" if c.correction == "none" else f"{c.correction} correction over each measure's pairs"
    return (f"{len(c.runs)} runs, {len(c.topics)} topics paired ({topics}); {test}; alpha {c.alpha:g}, {correction}; "
            f"{(1 - c.alpha) * 100:g}% {c.ci_method} intervals"
            + ("; runs as documents" if setting["as_documents"] else "")
            + ("; condensed lists (unjudged articles removed)" if setting.get("condensed") else "")
            + (f"; runs cut to INEX 2010's {setting['task']} limit" if setting.get("task") else ""))


def write_compare_text(c, setting: dict, out: TextIO) -> None:
    """The readable report of a :class:`readsim.core.run_comparison.Comparison`."""
    lines = [f"readsim-eval compare: {_setting_line(c, setting)}"]
    if c.left_out:
        more = [f"{run} {n}" for run, n in setting["own_topics"].items() if n != len(c.topics)]
        lines.append(f"topics: the {len(c.topics)} paired are those every run has; "
                     f"{plural(len(c.left_out), 'judged topic')} left out ({_first(c.left_out)}). readsim-eval "
                     f"averages each run over its own judged topics ({', '.join(more)}), so its means differ from these")
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
        lines += ["", f"neighbours in the ranking: mean difference with its {level} interval, Cohen's d_z, topics "
                  "better/equal/worse, " + ("p (adjusted)" if c.correction != "none" else "p")]
        for pair in c.neighbours(k):
            shown = pair.p_adjusted if c.correction != "none" else pair.p
            interval = f"[{_signed(pair.ci_low)}, {_signed(pair.ci_high)}]"
            lines.append(f"{c.rank[k, pair.better]:>4} > {c.rank[k, pair.worse]:<4} {_signed(pair.diff):>9} "
                         f"{interval:<20}  d {_signed(pair.effect, 2):>6}  "
                         f"{f'{pair.wins}/{pair.ties}/{pair.losses}':>13}  p {_p(shown):>6}{' *' if pair.significant else ''}")
        if setting.get("per_topic"):
            lines += ["", *_per_topic_text(c, k)]
    if len(c.measures) > 1 and len(c.runs) < MIN_CORRELATED:
        lines += ["", "== Correlation of the runs' scores between measures ==", TWO_RUNS]
    elif len(c.measures) > 1:
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
        few = len(c.runs) < MIN_CORRELATED
        lines.append(f"{'measure':<{w}}  " + ("" if few else f"{'tau':>6}  {'r':>6}  ")
                     + "runs better than their baseline")
        for k in with_doc:
            correlation = "" if few else f"{_num(c.doc_tau[k], 3):>6}  {_num(c.doc_r[k], 3):>6}  "
            lines.append(f"{c.measures[k]:<{w}}  {correlation}{c.doc_gains[k]} of {len(c.runs)}")
        if few:
            lines.append(TWO_RUNS)
    out.write("\n".join(lines) + "\n")


def _first(topics: list[str], first: int = 5) -> str:
    return ", ".join(topics[:first]) + (", ..." if len(topics) > first else "")


def _per_topic_text(c, k: int) -> list[str]:
    """Measure ``k``'s per-topic table (:meth:`readsim.core.run_comparison.Comparison.per_topic`): a row per
    paired topic, each run's value (runs in rank order) and, after each run but the best, its
    difference to the best-ranked run."""
    topics, ref, diff = c.per_topic(k)
    order = [int(i) for i in c.order[k]]
    best = order[0]
    x = c.scores[k]
    tw = max(5, *(len(t) for t in c.topics))
    heads = [f"{'topic':<{tw}}"]
    for i in order:
        heads.append(f"{c.runs[i]:>{max(9, len(c.runs[i]))}}")
        if i != best:
            name = f"{c.runs[i]} - {c.runs[best]}" if len(order) == 2 else f"- {c.runs[best]}"
            heads.append(f"{name:>{max(9, len(name))}}")
    gains = "a run beats the best-ranked run most" if len(order) > 2 else f"{c.runs[order[1]]} gains most"
    lines = [f"per topic ({len(c.topics)} paired topics, where {gains} first): each run's value"
             + (", and its difference to the best-ranked run" if len(order) > 2 else ", and their difference")]
    lines.append("  ".join(heads).rstrip())
    for t in topics:
        cells = [f"{c.topics[t]:<{tw}}"]
        h = 1
        for i in order:
            cells.append(f"{_num(x[i, t]):>{len(heads[h])}}")
            h += 1
            if i != best:
                cells.append(f"{_signed(diff[i, t]):>{len(heads[h])}}")
                h += 1
        lines.append("  ".join(cells).rstrip())
    return lines


def write_compare_rows(c, setting: dict, fmt: str, out: TextIO) -> None:
    """tsv or jsonl rows of a :class:`readsim.core.run_comparison.Comparison` (kinds: setting, mean, pair,
    summary, correlation; with ``--per-topic`` topic: ``measure``, ``topic``, ``run``, ``value``,
    ``reference`` (the run it is set against), ``diff`` (value minus the reference's),
    ``position`` (1: the topic listed first))."""
    rows = Rows(fmt, out)
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
                     ci_low=pair.ci_low, ci_high=pair.ci_high, effect=pair.effect, wins=pair.wins, ties=pair.ties, losses=pair.losses, p=pair.p,
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
    if setting.get("per_topic"):
        for k, m in enumerate(c.measures):
            topics, ref, diff = c.per_topic(k)
            for position, t in enumerate(topics, 1):
                for i in c.order[k]:
                    rows.add("topic", measure=m, topic=c.topics[t], run=c.runs[i], value=float(c.scores[k, i, t]),
                             reference=c.runs[ref[i]], diff=float(diff[i, t]), position=position)
            rows.flush()
