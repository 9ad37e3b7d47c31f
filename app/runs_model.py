"""What the Runs window (:mod:`readsim.app.widgets.runs_window`) computes and exports, without
widgets: reading extra runs, evaluating every run once (and once more as whole documents),
comparing them, the fidelity tables, and the tables of what it shows (:class:`Table`, exported
with their provenance by :mod:`readsim.app.provenance`). Runs are evaluated, compared and the
fidelity tables built by the Python API's pandas-free core (:func:`readsim.operations.evaluate.evaluate_run`,
:func:`readsim.operations.comparison.comparison_of`, :func:`readsim.operations.comparison.fidelity_of`), as
``readsim.compare`` and ``readsim-eval`` do.

No statistic is computed here: every number is the engine's, as ``readsim-eval compare`` and
``readsim-eval fidelity`` (:mod:`readsim.cli`) print it. This module only pairs
the runs with labels, caches evaluations and lays the results out as rows.

Threading contract: :func:`compare_job`, :func:`fidelity_job` and :func:`read_runs` run in a
worker thread (:func:`readsim.app.background.run_in_background`). They read plain engine data
only and report through a :class:`Progress`, a plain object the GUI thread polls (a timer), never
a Qt signal; setting :attr:`Progress.cancelled` makes the worker stop at its next step with
:class:`Cancelled`. Everything else runs in the GUI thread. See docs/architecture.md.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from readsim.core.collection import Collection
from readsim.core.paired_statistics import MIN_CORRELATED
from readsim.core.report_numbers import format_number, format_signed, plural
from readsim.core.run_comparison import run_labels as engine_run_labels
from readsim.core.errors import InputError
from readsim.core.formats import Qrels, Run, read_any_run, read_segments
import readsim.operations.evaluate as api_core
from readsim.core.measure import ListMeasure, UnknownMeasure, parse_list_measure
from readsim.core.reading import READING_MODES as ENGINE_READING_MODES
from readsim.core.reading import Mode

from .background import Cancelled, Progress  # noqa: F401 - the workers' progress and cancellation, named here too

if TYPE_CHECKING:
    from readsim.core.listmeasures import Evaluation

DEFAULT_MEASURES = ("AgP/F(0.25)", "AgP/aveChP", "AgP/T2IF(300)", "ANCE@600/LE(300)")
"""The measures compared by default: INEX's official Relevant in Context measure, the two
reading-order alternatives of Arvola et al. 2010, and cumulated effort (lower is better)."""

TEST_NAMES = {"bootstrap": "paired bootstrap", "t": "paired t-test", "randomization": "paired randomization",
              "tukey": "randomised Tukey HSD"}
CORRECTION_NAMES = {"none": "none", "holm": "holm", "bonferroni": "bonferroni", "bh": "bh (Benjamini-Hochberg)"}
READING_MODES = tuple(m for m in ENGINE_READING_MODES if m is not Mode.ENTRY)  # the entry mode is per result
TWO_RUNS = ("two runs cannot show a correlation: Kendall's τ and Pearson's r of two runs are ±1 whatever the "
            "measures say (compare 3 runs or more)")


# -- options --------------------------------------------------------------------------------------


def parse_measures(text: str) -> list[ListMeasure]:
    """The list measures of ``text``, separated by spaces, semicolons or new lines, in order,
    duplicates dropped. Raises :class:`UnknownMeasure` naming the first that does not parse,
    or saying none was given."""
    names = [t for t in text.replace(";", " ").split() if t]
    if not names:
        raise UnknownMeasure("no measure given: list measures such as AgP/F(0.25), separated by spaces")
    return list(dict.fromkeys(parse_list_measure(n) for n in names))


@dataclass(frozen=True)
class Options:
    """How to compare: measures (names), the test and its parameters (those of
    :func:`readsim.core.run_comparison.compare_runs`), the reading order and LE levels of the
    evaluation, ``complete`` (pair over every judged topic, ``-c``), ``baseline`` (evaluate
    every run once more as whole documents: the "against documents" correlations) and
    ``condensed`` (each ranking's unjudged articles removed before the list measures,
    ``--condensed``)."""

    measures: tuple[str, ...] = DEFAULT_MEASURES
    test: str = "bootstrap"
    alpha: float = 0.05
    resamples: int = 1000
    seed: int = 0
    correction: str = "none"
    mode: str = "natural"
    levels: int = 4
    complete: bool = False
    baseline: bool = True
    condensed: bool = False

    def compare_options(self) -> dict:
        return {"test": self.test, "alpha": self.alpha, "resamples": self.resamples, "seed": self.seed,
                "correction": self.correction}

    def evaluation_key(self) -> tuple:
        """What an evaluation depends on besides the run, the qrels and the collection."""
        return (self.measures, self.mode, self.levels, self.complete, self.condensed)


def run_labels(runs: Sequence[Run]) -> list[str]:
    """A unique label per run, by the engine's one naming rule
    (:func:`readsim.core.run_comparison.run_labels`: the run id, or the file name when runs share
    the id), as ``readsim-eval compare`` prints them."""
    return engine_run_labels(runs)[0]


# -- reading extra runs (worker) ------------------------------------------------------------------


def read_runs(paths: Sequence[str], segments: str | None = None) -> tuple[list[Run], list[str]]:
    """Read run files (worker thread), segment runs with the segment table at ``segments``
    (docs/reference.md section 2.14). A folder stands for every file in it not starting with
    ``.``, by name (as ``readsim-eval compare --runs``). Returns the runs read and one
    ``path: reason`` per file (or folder) that could not be read; never raises for bad input."""
    from readsim.core.coverage import run_paths

    from .background import input_error_text
    from readsim.app.input_files import check_input

    runs: list[Run] = []
    errors: list[str] = []
    try:
        table = read_segments(segments) if segments is not None else None
    except (InputError, OSError) as err:
        return [], [input_error_text(err) or str(err)]
    for path in paths:
        try:
            files = run_paths([], path) if Path(path).is_dir() else [str(path)]
        except (InputError, OSError) as err:
            errors.append(input_error_text(err) or str(err))
            continue
        for f in files:
            try:
                check_input(f, "run")
                runs.append(read_any_run(f, segments=table))
            except (InputError, OSError, UnicodeDecodeError, ValueError) as err:
                text = input_error_text(err)
                errors.append(text if text is not None else f"{f}: {err}")
    return runs, errors


# -- comparing (worker) ---------------------------------------------------------------------------


@dataclass
class Cached:
    """One evaluation with what it was computed from (identity checked on reuse)."""

    run: Run
    qrels: Qrels
    collection: Collection | None
    key: tuple
    evaluation: Evaluation  # readsim.operations.evaluate.evaluate_run's
    documents: Evaluation | None


@dataclass
class Compared:
    """A finished comparison: the engine's :class:`~readsim.core.run_comparison.Comparison` (run
    names are :attr:`labels`), the runs compared (same order), the options, the evaluations
    (for the cache) and the readers' warnings."""

    comparison: object  # readsim.core.run_comparison.Comparison
    runs: list[Run]
    labels: list[str]
    options: Options
    cached: list[Cached]
    diagnostics: list[str] = field(default_factory=list)
    with_collection: bool = False
    label_warnings: list[str] = field(default_factory=list)  # run ids shared: labelled by file name
    sources: list[str] = field(default_factory=list)  # per run: its file, or "edited from FILE, N edits"
    before: dict[int, int] = field(default_factory=dict)  # run i's unsaved edits: run before[i] is it before them

    @property
    def paths(self) -> list[str]:
        return [str(r.path) for r in self.runs]


def _evaluate_one(qrels: Qrels, run: Run, measures: list[ListMeasure], options: Options,
                  collection: Collection | None, as_document: bool, progress: Progress, start: float,
                  width: float, what: str) -> tuple[Evaluation, list]:
    """One run evaluated by the Python API's core (:func:`readsim.operations.evaluate.evaluate_run`, as
    ``readsim-eval compare`` does): its evaluation and the doc_length checks' warnings."""

    def tick(done: int, total: int) -> None:
        progress.step(start + width * done / max(total, 1))

    progress.step(start, what)
    ev, checks = api_core.evaluate_run(qrels, run, measures, reading=options.mode, collection=collection,
                                       all_topics=options.complete, as_documents=as_document,
                                       levels=options.levels, progress=tick, condensed=options.condensed)
    return ev, checks


def compare_job(qrels: Qrels, runs: Sequence[Run], collection: Collection | None, options: Options,
                cache: Sequence[Cached], progress: Progress) -> Compared:
    """Evaluate each run (reusing an evaluation of ``cache`` made from the same run, qrels,
    collection and options), as whole documents too when ``options.baseline``, then compare
    them. Worker thread. Raises ``ValueError`` when too little is left to compare (fewer than 2
    runs or paired topics, an option out of range), :class:`UnknownMeasure`, :class:`InputError`,
    :class:`Cancelled`."""
    from readsim.operations.comparison import comparison_of

    measures = [parse_list_measure(m) for m in options.measures]
    if len(runs) < 2:
        raise ValueError(f"comparing needs at least 2 runs, not {len(runs)}")
    labels, shared = engine_run_labels(runs)
    key = options.evaluation_key()
    reuse = {id(c.run): c for c in cache if c.qrels is qrels and c.collection is collection and c.key == key}
    passes = 2 if options.baseline else 1
    width = 0.9 / (len(runs) * passes)
    cached: list[Cached] = []
    diagnostics: list[str] = []
    for i, (run, label) in enumerate(zip(runs, labels)):
        hit = reuse.get(id(run))
        if hit is not None and hit.run is run and (hit.documents is not None or not options.baseline):
            cached.append(hit)
            progress.step((i + 1) * passes * width)
            continue
        start = i * passes * width
        ev, checks = _evaluate_one(qrels, run, measures, options, collection, False, progress, start, width,
                                   f"evaluating {label} ({i + 1} of {len(runs)})")
        diagnostics += [str(d) for d in [*ev.diagnostics, *checks]]
        docs = None
        if options.baseline:
            docs, _ = _evaluate_one(qrels, run, measures, options, collection, True, progress, start + width, width,
                                 f"evaluating {label} as whole documents ({i + 1} of {len(runs)})")
        cached.append(Cached(run, qrels, collection, key, ev, docs))
    progress.step(0.9, f"testing {plural(len(runs) * (len(runs) - 1) // 2, 'pair')} of runs")
    evaluations = []
    documents = [] if options.baseline else None
    for c, label in zip(cached, labels):
        e = _relabelled(c.evaluation, label)
        evaluations.append(e)
        if documents is not None:
            documents.append(_relabelled(c.documents, label))
    comparison = comparison_of(evaluations, measures, documents, **options.compare_options())
    progress.step(1.0, "done")
    return Compared(comparison, list(runs), labels, options, cached, list(dict.fromkeys(diagnostics)),
                    collection is not None, shared)


def _relabelled(ev: Evaluation, label: str) -> Evaluation:
    """A shallow copy of ``ev`` named ``label`` (the cached evaluation keeps its run id)."""
    return dataclasses.replace(ev, run_id=label)


def fidelity_job(qrels: Qrels, collection: Collection, options: Options, progress: Progress):
    """The fidelity tables on the complete topics (the Python API's core,
    :func:`readsim.operations.comparison.fidelity_of`, as ``readsim-eval fidelity``; worker thread),
    with progress per simulated run. Raises :class:`InputError` (no complete topic, an article
    that cannot be read), :class:`UnknownMeasure`, :class:`Cancelled`."""
    from readsim.operations.comparison import fidelity_of

    progress.step(0.0, "building the 20 simulated runs")
    measures = [parse_list_measure(m) for m in options.measures]
    return fidelity_of(qrels, collection, measures, topics="complete", reading=options.mode, levels=options.levels,
                       progress=lambda done, total: progress.step(done / total, f"simulated run {done} of {total}"))


# -- text ------------------------------------------------------------------------------------------


def fmt(value: float, digits: int = 4) -> str:
    """A statistic as shown: :func:`readsim.core.report_numbers.format_number` with a typographic minus."""
    return format_number(value, digits).replace("-", "−")


def fmt_signed(value: float, digits: int = 4) -> str:
    return format_signed(value, digits).replace("-", "−")


def fmt_p(value: float) -> str:
    """A p-value as shown: ``<0.001``, ``0.031``, ``–`` for none (NaN)."""
    if value is None or math.isnan(value):
        return "–"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def test_words(test: str) -> str:
    """How a comparison's test reads in a sentence (reference 12.1): ``paired bootstrap test,
    one-tailed``; the randomised Tukey HSD is two-sided, over all runs at once."""
    if test == "tukey":
        return f"{TEST_NAMES[test]} over all runs, two-sided"
    return TEST_NAMES[test] + (" test" if test != "t" else "") + ", one-tailed"


def setting_text(c, with_collection: bool, options: Options) -> str:
    """One line on how the runs were compared (as ``readsim-eval compare`` says it)."""
    test, sides = test_words(c.test).rsplit(", ", 1)
    drawn = "trials" if c.test == "tukey" else "resamples"
    resampled = f", {c.resamples:,} {drawn}, seed {c.seed}" if c.test != "t" else ""
    correction = "no correction" if c.correction == "none" else f"{c.correction} correction over each measure's pairs"
    topics = "every judged topic (-c)" if options.complete else "the topics every run has"
    parts = [f"{len(c.runs)} runs, {len(c.topics)} topics paired ({topics})",
             f"{test} ({sides}{resampled})", f"α {c.alpha:g}, {correction}",
             f"{(1 - c.alpha) * 100:g}% {c.ci_method} intervals", f"{options.mode} reading"
             + ("" if with_collection else ", no collection (passages not clipped)")]
    if options.condensed:
        parts.append("condensed lists (unjudged articles removed)")
    return "; ".join(parts)


def edited_runs(result: Compared) -> dict[str, str]:
    """Label -> source (``edited from FILE, N edits``) of each compared run the passage editor
    had changed when it was compared (:attr:`Compared.sources`)."""
    return {label: source for label, source in zip(result.labels, result.sources)
            if source.startswith("edited from ")}


def neighbour_marks(c, k: int) -> dict[int, object]:
    """Run index -> the engine's :class:`~readsim.core.run_comparison.Pair` of that run and the run
    ranked just below it under measure ``k`` (the last run has none)."""
    return {p.better: p for p in c.neighbours(k)}


def verdict_text(f, k: int) -> str:
    """The fidelity verdict of measure ``k`` in one sentence (as ``readsim-eval fidelity``)."""
    from readsim.core.fidelity_tables import ALWAYS, ON_AVERAGE, RESPECTED, REVERSED

    respected = f.with_verdict(k, RESPECTED)
    always = sum(o in respected for o in ALWAYS)
    reversed_ = f.with_verdict(k, REVERSED)
    text = (f"{f.measures[k]} respects {len(respected)} of the {len(f.orderings)} expected orderings on every topic "
            f"({always} of the {len(ALWAYS)} the paper's AgP always confirms; {len(f.tied(k))} only by a tie on "
            f"every topic), {len(f.with_verdict(k, ON_AVERAGE))} on average only, {len(reversed_)} reversed")
    if reversed_:
        text += ": " + ", ".join(f"{a} > {b}" for a, b in reversed_)
    return text + f". Best {', '.join(f.best(k))}; worst {', '.join(f.worst(k))}."


def in_percent(f, k: int) -> bool:
    """Table 2's Diff in percentage points (the paper's "Diff (%)") for measures in [0, 1]."""
    return not bool(f.lower_is_better[k])


# -- tables (exported through app/provenance.py) --------------------------------------------------


@dataclass
class Table:
    """An exported table: ``columns`` and ``rows`` (dicts keyed by them; numbers as floats, NaN
    as None), written by :func:`readsim.app.provenance.write_table` with the provenance."""

    columns: list[str]
    rows: list[dict]


def _num(value) -> float | str | None:
    """A number at full precision; None for NaN (an empty CSV cell, JSON null), ``inf``/``-inf``."""
    if value is None:
        return None
    value = float(value)
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def _table(header: Sequence[str], rows: list[Sequence]) -> Table:
    return Table(list(header), [dict(zip(header, row)) for row in rows])


def runs_table(result: Compared, sources: Sequence[str] | None = None) -> Table:
    """One row per measure and run, in rank order: measure, rank, run, mean, the interval, the
    mean as whole documents, and the test against the next run (``significant_vs_next``),
    with the test's settings and the run's source (``sources``: one per compared run, ``edited
    from FILE, N edits`` for a run the passage editor changed; default the runs' files)."""
    c = result.comparison
    sources = list(sources or result.sources or result.paths)
    rows = []
    for k, m in enumerate(c.measures):
        marks = neighbour_marks(c, k)
        for i in c.order[k]:
            pair = marks.get(int(i))
            rows.append((m, int(c.rank[k, i]), c.runs[i], _num(c.means[k, i]), _num(c.ci[k, i, 0]),
                         _num(c.ci[k, i, 1]), _num(c.doc_means[k, i]),
                         "" if pair is None else c.runs[pair.worse], None if pair is None else _num(pair.p),
                         None if pair is None else _num(pair.p_adjusted),
                         "" if pair is None else str(bool(pair.significant)).lower(),
                         "lower" if c.lower_is_better[k] else "higher", c.test, c.alpha, c.resamples, c.seed,
                         c.correction, len(c.topics), sources[i]))
    return _table(("measure", "rank", "run", "mean", "ci_low", "ci_high", "doc_mean", "next_run", "p_vs_next",
                   "p_adjusted_vs_next", "significant_vs_next", "better", "test", "alpha", "resamples", "seed",
                   "correction", "topics", "run_file"), rows)


def pairs_table(result: Compared) -> Table:
    """Every tested pair of every measure (the significance matrices), in rank order, with the
    two-sided 1 - alpha interval of each mean difference (``ci_low``, ``ci_high``; reference 12.1)."""
    c = result.comparison
    rows = []
    for k, m in enumerate(c.measures):
        for p in c.pairs(k):
            rows.append((m, c.runs[p.better], c.runs[p.worse], int(c.rank[k, p.better]), int(c.rank[k, p.worse]),
                         _num(p.diff), _num(p.ci_low), _num(p.ci_high), _num(p.effect), p.wins, p.ties, p.losses,
                         _num(p.p), _num(p.p_adjusted), str(bool(p.significant)).lower(), c.test, c.alpha,
                         c.correction))
    return _table(("measure", "better", "worse", "rank_better", "rank_worse", "diff", "ci_low", "ci_high", "effect_dz",
                   "wins", "ties", "losses", "p", "p_adjusted", "significant", "test", "alpha", "correction"), rows)


def correlations_table(result: Compared) -> Table:
    """Kendall's tau and Pearson's r of every two measures over the runs, and of each measure
    against the runs evaluated as whole documents (``other_as_documents`` true); empty (and
    ``note`` saying why) with two runs, which cannot show a correlation."""
    c = result.comparison
    rows = []
    note = TWO_RUNS if len(c.runs) < MIN_CORRELATED else ""
    for k, m in enumerate(c.measures):
        for q in range(k + 1, len(c.measures)):
            rows.append((m, c.measures[q], "false", _num(c.tau[k, q]), _num(c.tau_p[k, q]), _num(c.r[k, q]),
                         _num(c.r_p[k, q]), len(c.runs), note))
        if not np.isnan(c.doc_means[k]).any():
            rows.append((m, m, "true", _num(c.doc_tau[k]), _num(c.doc_tau_p[k]), _num(c.doc_r[k]),
                         _num(c.doc_r_p[k]), len(c.runs), note))
    return _table(("measure", "other", "other_as_documents", "tau", "tau_p", "r", "r_p", "runs", "note"), rows)


def topics_table(result: Compared) -> Table:
    """Every paired topic of every measure, each run's value and its difference to its reference
    run (:meth:`readsim.core.run_comparison.Comparison.per_topic`, ``readsim-eval compare
    --per-topic``'s rows): the topics where a run beats the best-ranked run most first."""
    c = result.comparison
    rows = []
    for k, m in enumerate(c.measures):
        topics, ref, diff = c.per_topic(k)
        for position, t in enumerate(topics, 1):
            rows += [(m, c.topics[t], c.runs[i], _num(c.scores[k, i, t]), c.runs[ref[i]], _num(diff[i, t]), position)
                     for i in c.order[k]]
    return _table(("measure", "topic", "run", "value", "reference", "diff", "position"), rows)


def fidelity_table1(f) -> Table:
    """Table 1: every simulated run's mean per measure."""
    rows = [(run, *(_num(f.means[k, i]) for k in range(len(f.measures)))) for i, run in enumerate(f.runs)]
    return _table(("run", *f.measures), rows)


def fidelity_table2(f) -> Table:
    """Table 2 of every measure: per expected ordering the mean difference (measure units,
    oriented), topics where the first run is better, equal, worse, the two-sided t-test p and
    the verdict; ``always`` marks the paper's 28 always-confirmed orderings."""
    from readsim.core.fidelity_tables import ALWAYS

    rows = []
    for k, m in enumerate(f.measures):
        for o, (first, second) in enumerate(f.orderings):
            rows.append((m, first, second, _num(f.diff[k, o]), int(f.better[k, o]), int(f.equal[k, o]),
                         int(f.worse[k, o]), _num(f.p[k, o]), f.verdict[k][o],
                         str((first, second) in ALWAYS).lower(), len(f.topics)))
    return _table(("measure", "first", "second", "diff", "better", "equal", "worse", "p", "verdict", "always",
                   "topics"), rows)
