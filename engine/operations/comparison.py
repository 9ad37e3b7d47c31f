"""``readsim.compare`` (runs and measures compared, :class:`Comparison`) and
``readsim.fidelity`` (the fidelity tables on the simulated runs).

The statistics are :mod:`readsim.core.run_comparison`'s (reference section 12.1: pairing by topic,
orientation of effort measures, one-tailed tests in the ranking's direction, corrections,
Cohen's d_z, Kendall's tau-b and Pearson's r) and :mod:`readsim.core.fidelity_tables`'s (section
12.2), the numbers of ``readsim-eval compare --no-doc`` and ``readsim-eval fidelity``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from readsim.core.run_comparison import Comparison as _EngineComparison
from readsim.core.errors import Diagnostic
from readsim.core.measure import ListMeasure

from readsim.operations.checks import choice, flag, real, topic_ids, whole
from readsim.operations.evaluate import _check, _measures, evaluations
from readsim.operations.inputs import as_qrels, warn

if TYPE_CHECKING:
    from readsim.core.fidelity_tables import Fidelity
    from readsim.core.listmeasures import Evaluation


class Comparison:
    """Runs compared under list measures (``readsim.compare``'s result).

    ``runs`` (labels, input order), ``measures`` (canonical names), ``topics`` (the topics
    every run has, or every judged topic with ``all_topics``: the pairing of every statistic),
    ``left_out`` (topics some run lacks), ``test``, ``alpha``, ``resamples``, ``seed``,
    ``correction``. ``engine`` is the internal result (``readsim.core.run_comparison.Comparison``,
    arrays; not part of the API)."""

    def __init__(self, engine: _EngineComparison):
        self.engine = engine
        for name in ("runs", "measures", "topics", "left_out", "test", "alpha", "resamples", "seed", "correction"):
            setattr(self, name, getattr(engine, name))

    def __repr__(self) -> str:
        return (f"<readsim.Comparison of {len(self.runs)} runs under {', '.join(self.measures)} on "
                f"{len(self.topics)} topics ({self.test})>")

    def to_frame(self):
        """Means and confidence intervals, runs x measures: index ``run`` (input order),
        columns ``(measure, stat)`` with stat ``mean`` (over the paired topics), ``low``,
        ``high`` (the two-sided ``1 - alpha`` interval: bootstrap percentile with the
        bootstrap, Student's t otherwise) and ``rank`` (1 = best, effort measures lowest
        first)."""
        import pandas as pd

        c = self.engine
        data = {}
        for k, m in enumerate(c.measures):
            data[(m, "mean")] = c.means[k]
            data[(m, "low")] = c.ci[k, :, 0]
            data[(m, "high")] = c.ci[k, :, 1]
            data[(m, "rank")] = c.rank[k].astype(np.int64)
        frame = pd.DataFrame(data, index=pd.Index(c.runs, name="run"))
        frame.columns = pd.MultiIndex.from_tuples(frame.columns, names=["measure", "stat"])
        return frame

    def pairs(self):
        """Every pair of runs per measure, the better-ranked run first: columns ``measure``,
        ``better``, ``worse``, ``diff`` (mean per-topic difference, the measure's unit, > 0
        when ``better`` is better), ``effect`` (Cohen's d_z), ``wins``, ``ties``, ``losses``
        (topics), ``p`` (one-tailed), ``p_adjusted`` (after ``correction``), ``significant``
        (``p_adjusted < alpha``)."""
        import pandas as pd

        c = self.engine
        rows = [(m, c.runs[p.better], c.runs[p.worse], p.diff, p.effect, p.wins, p.ties, p.losses, p.p, p.p_adjusted,
                 p.significant) for k, m in enumerate(c.measures) for p in c.pairs(k)]
        return pd.DataFrame(rows, columns=["measure", "better", "worse", "diff", "effect", "wins", "ties", "losses",
                                           "p", "p_adjusted", "significant"])

    def per_topic(self):
        """Every paired topic of every measure with each run's value and its difference to a
        reference run (reference section 12.1, per-topic differences): columns ``measure``,
        ``topic``, ``run``, ``value``, ``reference`` (the other run with two runs; with more, the
        best-ranked run, and for that run the runner-up), ``diff`` (``value`` minus the
        reference's value on the topic, the measure's unit and direction). Per measure the topics
        where a run beats the best-ranked run most come first (ties by topic id), the runs of a
        topic in rank order; the values are those of ``readsim-eval -q`` for each run."""
        import pandas as pd

        c = self.engine
        rows = []
        for k, m in enumerate(c.measures):
            topics, ref, diff = c.per_topic(k)
            rows += [(m, c.topics[t], c.runs[i], float(c.scores[k, i, t]), c.runs[ref[i]], float(diff[i, t]))
                     for t in topics for i in c.order[k]]
        return pd.DataFrame(rows, columns=["measure", "topic", "run", "value", "reference", "diff"])

    def correlations(self):
        """Every two measures: ``measure``, ``other``, Kendall's ``tau`` (tau-b) and Pearson's
        ``r`` of the runs' means (effort measures negated), with two-sided ``tau_p`` and
        ``r_p``; NaN when a measure scores every run the same or with two runs (two runs cannot
        show a correlation: their tau and r are +-1 whatever the measures say)."""
        import pandas as pd

        c = self.engine
        rows = [(m, c.measures[q], c.tau[k, q], c.tau_p[k, q], c.r[k, q], c.r_p[k, q])
                for k, m in enumerate(c.measures) for q in range(k + 1, len(c.measures))]
        return pd.DataFrame(rows, columns=["measure", "other", "tau", "tau_p", "r", "r_p"])

    def _rows(self, digits: int):
        """Per run (input order): ``(i, run, cells)``, a cell per measure ``(k, mean as text,
        letters of the runs it is significantly better than, best)`` (ranx's convention)."""
        c = self.engine
        for i, run in enumerate(c.runs):
            yield i, run, [(k, f"{c.means[k, i]:.{digits}f}",
                            "".join(_letter(j) for j in range(len(c.runs)) if c.significant[k, i, j]), c.rank[k, i] == 1)
                           for k in range(len(c.measures))]

    def _setting(self) -> str:
        test = {"bootstrap": f"paired bootstrap test, {self.resamples} resamples, seed {self.seed}",
                "t": "paired t-test",
                "randomization": f"paired randomization test, {self.resamples} resamples, seed {self.seed}"}[self.test]
        correction = "" if self.correction == "none" else f", {self.correction} correction"
        return (f"{len(self.runs)} runs on {len(self.topics)} paired topics; one-tailed {test}, "
                f"alpha {self.alpha:g}{correction}")

    def to_latex(self, digits: int = 4) -> str:
        """A ``tabular`` for a paper: one row per run (input order, labelled a, b, c, ...), one
        column per measure, the mean with, as a superscript, the letters of the runs it is
        significantly better than (ranx's convention); the best mean of each measure in bold.
        Run names are escaped for LaTeX."""
        measures = self.measures
        lines = ["\\begin{tabular}{ll" + "r" * len(measures) + "}", "\\toprule",
                 " & Run & " + " & ".join(_latex(m) for m in measures) + " \\\\", "\\midrule"]
        for i, run, cells in self._rows(digits):
            shown = [(f"\\textbf{{{v}}}" if best else v) + (f"$^{{{sup}}}$" if sup else "") for _, v, sup, best in cells]
            lines.append(f"{_letter(i)} & {_latex(run)} & " + " & ".join(shown) + " \\\\")
        lines += ["\\bottomrule", "\\end{tabular}", f"% {self._setting()}; superscripts: significantly better than"]
        return "\n".join(lines) + "\n"

    def _repr_html_(self) -> str:
        """The means, intervals and significance letters as an HTML table (run names as plain text)."""
        ci = self.engine.ci
        head = "".join(f"<th>{html.escape(m)}</th>" for m in self.measures)
        rows = []
        for i, run, cells in self._rows(4):
            shown = "".join(f"<td>{f'<b>{v}</b>' if best else v}{f'<sup>{sup}</sup>' if sup else ''} "
                            f"<small>[{ci[k, i, 0]:.4f}, {ci[k, i, 1]:.4f}]</small></td>" for k, v, sup, best in cells)
            rows.append(f"<tr><td>{_letter(i)}</td><td>{html.escape(run)}</td>{shown}</tr>")
        return (f"<table><caption>{html.escape(self._setting())}; mean [{(1 - self.alpha) * 100:g}% interval]; "
                f"superscripts: significantly better than</caption><thead><tr><th></th><th>run</th>{head}</tr>"
                f"</thead><tbody>{''.join(rows)}</tbody></table>")


def _letter(i: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26]


_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
          "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def _latex(text: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in text)


def compare(qrels, runs, measures, *, test: str = "bootstrap", alpha: float = 0.05, resamples: int = 1000,
            seed: int = 0, correction: str = "none", reading: str = "natural", all_topics: bool = False,
            collection=None, unit: str | None = None, condensed: bool = False) -> Comparison:
    """Compare two or more runs under list measures (``readsim-eval compare --no-doc``).

    ``qrels``, ``runs``, ``reading``, ``collection``, ``unit``, ``all_topics``, ``condensed``: as
    :func:`readsim.evaluate` (each run is evaluated once with every measure); ``measures``:
    list measure names. ``test``: ``bootstrap``, ``t`` or ``randomization``; ``alpha`` in
    (0, 1); ``resamples`` 1 .. 100,000; ``seed`` (same seed, same p-values); ``correction``:
    ``none``, ``bonferroni`` or ``holm`` over each measure's pairs. Statistics pair the runs on
    the topics every run has (a warning names those left out; ``all_topics`` pairs every
    judged topic). Raises :class:`readsim.InputError` on bad input, ``ValueError`` on an
    option out of range, fewer than 2 runs or fewer than 2 paired topics."""
    from readsim.core.paired_statistics import CORRECTIONS, TESTS
    from readsim.core.run_comparison import check_options

    _check("all", reading, unit)
    check_options(choice("test", test, TESTS), real("alpha", alpha), whole("resamples", resamples),
                  whole("seed", seed), choice("correction", correction, CORRECTIONS))
    all_topics = flag("all_topics", all_topics)
    condensed = flag("condensed", condensed)
    parsed = _measures(measures, "all")
    qrels = as_qrels(qrels)
    judged_path = qrels.path
    results = [e for _, e in evaluations(qrels, runs, parsed, reading=reading, collection=collection, unit=unit,
                                         all_topics=all_topics, condensed=condensed)]
    if len(results) < 2:
        raise ValueError(f"compare needs at least 2 runs, not {len(results)}")
    try:
        c = comparison_of(results, parsed, None, test=test, alpha=alpha, resamples=resamples, seed=seed,
                                correction=correction)
    except ValueError as exc:
        if "paired topics" not in str(exc):
            raise
        shared = len(set.intersection(*(set(e.topics) for e in results)))
        raise ValueError(f"{shared} judged topic{'s' if shared != 1 else ''} shared by every run; a comparison needs "
                         f"at least 2" + ("" if all_topics else " (all_topics=True pairs over every judged topic)")) from None
    if c.left_out:
        lo = c.left_out
        warn([Diagnostic(judged_path, None, f"{len(lo)} judged topic{'s are' if len(lo) > 1 else ' is'} not in every "
                         f"run (first: {', '.join(lo[:3])}); compared on the {len(c.topics)} topics every run has "
                         f"(all_topics=True scores a missing topic as an empty ranking)")])
    return Comparison(c)


def comparison_of(evaluations: Sequence[Evaluation], measures: Sequence[ListMeasure],
                  documents: Sequence[Evaluation] | None = None, **options) -> _EngineComparison:
    """:func:`compare`'s statistics without pandas, and the Runs window's: the engine's
    comparison (arrays measures x runs x topics; reference section 12.1) of runs already
    evaluated (:func:`readsim.operations.evaluate.evaluate_run`, one :class:`Evaluation` per run, named by
    its ``run_id``), ``documents`` the same runs evaluated as whole documents (the "against
    documents" correlations) or None. ``options``: ``test``, ``alpha``, ``resamples``, ``seed``,
    ``correction`` as :func:`compare`. Raises ``ValueError`` (an option out of range, fewer than 2
    runs or paired topics)."""
    from readsim.core.run_comparison import compare_evaluations

    return compare_evaluations(list(evaluations), list(measures), documents, **options)


def fidelity_of(qrels, collection, measures: Sequence[ListMeasure], *, topics="complete", reading: str = "natural",
                unit: str | None = None, levels: int = 4, progress: Callable[[int, int], None] | None = None) -> Fidelity:
    """:func:`fidelity`'s work without pandas, and ``readsim-eval fidelity``'s: the engine's
    :class:`~readsim.core.fidelity_tables.Fidelity` (arrays measures x runs and measures x
    orderings; reference section 12.2) of parsed list ``measures`` on the 20 simulated runs.
    ``qrels`` and ``collection`` as :func:`fidelity`; ``levels``: as ``--levels``;
    ``progress(done, 20)`` after each simulated run. Raises :class:`readsim.InputError` when no
    topic qualifies or an article cannot be read."""
    from readsim.core.fidelity_tables import fidelity_tables

    from readsim.operations.evaluate import _collection

    return fidelity_tables(as_qrels(qrels), _collection(collection, unit), measures, topics, mode=reading,
                           levels=levels, progress=progress)


class FidelityTables(NamedTuple):
    """``readsim.fidelity``'s result: ``table1`` (runs x measures: means) and ``table2`` (one
    row per measure and expected ordering)."""

    table1: object
    table2: object


def fidelity(qrels, collection, measures, *, topics="complete", reading: str = "natural",
             unit: str | None = None) -> FidelityTables:
    """Fidelity tables of list measures on the 20 simulated runs (reference section 8 and
    12.2; Kamps et al., *INEX 2007 evaluation measures*, 2008, Tables 1 and 2), the numbers of
    ``readsim-eval fidelity``.

    ``collection``: the articles' folder (or a :class:`readsim.Collection`; its unit must be
    the qrels'); ``topics``: ``"complete"`` (every judged topic whose relevant articles the
    collection holds) or topic ids. ``table1``: index ``run`` (the 20 simulated runs), one
    column per measure (mean over the topics). ``table2``: columns ``measure``, ``first``,
    ``second`` (the expected ordering first >= second), ``diff`` (mean of first minus second,
    oriented; the paper's "Diff (%)" is 100 times it), ``better``, ``equal``, ``worse``
    (topics), ``p`` (two-sided paired t-test; NaN when every difference is 0), ``verdict``
    (``respected``, ``on average`` or ``reversed``). Raises :class:`readsim.InputError` when no
    topic qualifies or an article cannot be read."""
    import pandas as pd

    _check("all", reading, unit)
    topics = topics if isinstance(topics, str) and topics == "complete" else topic_ids("topics", topics)
    f = fidelity_of(qrels, collection, _measures(measures, "all"), topics=topics, reading=reading, unit=unit)
    table1 = pd.DataFrame(f.means.T, index=pd.Index(f.runs, name="run"), columns=f.measures)
    rows = [(m, first, second, f.diff[k, o], int(f.better[k, o]), int(f.equal[k, o]), int(f.worse[k, o]), f.p[k, o],
             f.verdict[k][o]) for k, m in enumerate(f.measures) for o, (first, second) in enumerate(f.orderings)]
    table2 = pd.DataFrame(rows, columns=["measure", "first", "second", "diff", "better", "equal", "worse", "p",
                                         "verdict"])
    return FidelityTables(table1, table2)

