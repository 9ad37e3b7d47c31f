"""``readsim-eval fidelity``: a measure's fidelity on the simulated runs (docs/reference.md
sections 8 and 12.2).

``readsim-eval fidelity QRELS --collection DIR [-m MEASURE ...] [--topics complete|T,T]``
builds the 20 simulated runs (:mod:`readsim.core.simulated`) on the topics whose relevant articles
the collection holds and prints [Kamps 2007b]'s Table 1 and Table 2 (section 4) with a verdict per measure (:mod:`readsim.core.fidelity_tables`): a readable report
(``--format text``, the default) or rows (``tsv`` with ``#kind`` header rows, ``jsonl`` with
a ``"kind"`` key).

Exit status as ``readsim-eval`` (:mod:`.common`): 1 bad input (a file that does not parse, a
topic the collection cannot simulate); 2 bad usage (an unknown measure, bad ``--topics``).
"""

from __future__ import annotations

import math
from typing import TextIO

from readsim.core.report_numbers import format_number as _num
from readsim.core.report_numbers import format_signed as _signed
from readsim.core.coverage import check_input_path
from readsim.core.formats import read_qrels
from readsim.core.measure import PARAMETER_RANGES, BadParameter, ListMeasure, option
from .common import (EXIT_STATUS_HELP, Parser, Rows, add_subcommand_options, collection_lengths, open_collection, progress,
                     run_subcommand, warn)


def _topics(text: str) -> str | list[str]:
    text = str(text).strip()
    if text == "complete":
        return text
    ids = [t.strip() for t in text.split(",")]
    if not text or any(not t or any(c.isspace() for c in t) for t in ids):
        raise BadParameter(f"topics must be 'complete' or topic ids separated by commas (2009067,2009073), "
                           f"not {text[:60]!r}")
    return ids


def build_parser() -> Parser:
    p = Parser(
        "readsim-eval fidelity",
        "Test measures on the 20 simulated runs of Kamps et al.'s fidelity tests (S, SL, SLD, SS, SST "
        "passages x R, RS, RI, RSI rankings), built from the qrels and the articles: Table 1 (every run's mean per "
        "measure), Table 2 (per expected ordering: mean difference, topics where the first run is better, equal, worse, "
        "paired t-test p) and a verdict per measure: the orderings it respects on every topic.",
        "Diff is in percentage points (100 x the difference of the means) for measures in [0, 1], in the "
        "measure's unit for effort measures (lower is better). Parameters: " + PARAMETER_RANGES + ". "
        + EXIT_STATUS_HELP)
    add_subcommand_options(p)
    p.add_argument("--collection", metavar="DIR", required=True,
                   help="the articles: a folder or an archive, as for plain evaluation (the simulated runs "
                   "need the relevant articles' XML)")
    p.add_argument("--topics", type=option(_topics), default="complete", metavar="complete|T,T,...",
                   help="the topics: 'complete' (default: every judged topic whose relevant articles the "
                   "collection all holds) or ids separated by commas")
    return p


def main(argv: list[str], out: TextIO, err: TextIO) -> int:
    """``readsim-eval fidelity`` with ``argv`` (after ``fidelity``); returns the exit status.
    Raises :class:`InputError` and ``OSError`` for the error guard to print as one line."""
    return run_subcommand(build_parser(), run_fidelity, argv, out, err)


def run_fidelity(args, measures: list[ListMeasure], out: TextIO, err: TextIO) -> int:
    from readsim.operations.comparison import fidelity_of
    from readsim.operations.inputs import diagnostics_to

    check_input_path(args.qrels, "qrels", pipes=True)
    check_input_path(args.collection, "collection")
    qrels = read_qrels(args.qrels, min_grade=getattr(args, "min_grade", 1))
    warn(qrels.diagnostics, err)
    collection = open_collection(args.collection, args.unit, err)
    qrels = collection_lengths(qrels, collection, err)
    with diagnostics_to(lambda diagnostics: warn(diagnostics, err)):
        result = fidelity_of(qrels, collection, measures, topics=args.topics, reading=args.reading,
                             levels=args.levels, progress=progress(err, "simulated runs"))
    if args.format == "text":
        write_fidelity_text(result, out)
    else:
        write_fidelity_rows(result, args.format, out)
    return 0


def _percent(f, k: int) -> bool:
    """Diff in percentage points (the paper's "Diff (%)") for measures in [0, 1]."""
    return not f.lower_is_better[k]


def write_fidelity_text(f, out: TextIO) -> None:
    """The readable report of a :class:`readsim.core.fidelity_tables.Fidelity`: Table 1, Table 2 per
    measure, the verdicts."""
    from readsim.core.fidelity_tables import ALWAYS, ON_AVERAGE, PAPER_TABLE1, PAPER_TABLE2, RESPECTED, REVERSED

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
    """tsv or jsonl rows of a :class:`readsim.core.fidelity_tables.Fidelity` (kinds: setting, score,
    ordering, verdict)."""
    from readsim.core.fidelity_tables import ALWAYS, ON_AVERAGE, RESPECTED, REVERSED

    rows = Rows(fmt, out)
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
