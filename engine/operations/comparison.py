"""``readsim.compare`` (runs and measures compared, :class:`Comparison`) and
``readsim.fidelity`` (the fidelity tables on the simulated runs).

The statistics are :mod:`readsim.core.run_comparison`'s (reference section 12.1: pairing by topic,
orientation of effort measures, one-tailed tests in the ranking's direction or the randomised Tukey
HSD over all runs, corrections, intervals of the pairs' differences, Cohen's d_z, Kendall's tau-b
and Pearson's r) and :mod:`readsim.core.fidelity_tables`'s (section
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
from readsim.core.paper_tables import Entry, PaperTable, latex, markdown
from readsim.core.report_numbers import format_tsv

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
    arrays; not part of the API); ``notes``: what else the tables' captions say of the setting
    (:func:`setting_notes`)."""

    def __init__(self, engine: _EngineComparison, notes: Sequence[str] = ()):
        self.engine = engine
        self.notes = list(notes)
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
        when ``better`` is better), ``ci_low``, ``ci_high`` (the two-sided ``1 - alpha``
        interval of ``diff``: bootstrap percentile with the bootstrap, Student's t otherwise;
        reference 12.1), ``effect`` (Cohen's d_z), ``wins``, ``ties``, ``losses`` (topics), ``p``
        (one-tailed; with ``tukey`` the two-sided HSD p, already adjusted for every pair),
        ``p_adjusted`` (after ``correction``), ``significant`` (``p_adjusted < alpha``)."""
        import pandas as pd

        c = self.engine
        rows = [(m, c.runs[p.better], c.runs[p.worse], p.diff, p.ci_low, p.ci_high, p.effect, p.wins, p.ties, p.losses,
                 p.p, p.p_adjusted, p.significant) for k, m in enumerate(c.measures) for p in c.pairs(k)]
        return pd.DataFrame(rows, columns=["measure", "better", "worse", "diff", "ci_low", "ci_high", "effect", "wins",
                                           "ties", "losses", "p", "p_adjusted", "significant"])

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

    def differences(self, measure: str | None = None, run: str | None = None, reference: str | None = None,
                    level: float = 0.95):
        """Run ``run`` minus run ``reference`` on every paired topic under ``measure`` (reference
        section 12.5): a :class:`readsim.core.topic_differences.TopicDifferences` (``topics`` sorted,
        the run's largest gain first; ``diff`` in the measure's unit; ``mean``, ``low``, ``high``:
        the mean difference and its paired t interval at ``level``). Defaults: the first measure,
        the runner-up, and its reference in :meth:`per_topic` (the best-ranked run). Raises
        ``ValueError`` for an unknown measure or run, a run against itself or a level outside
        (0, 1)."""
        from readsim.core.topic_differences import topic_differences

        c = self.engine
        k = self._index("measure", c.measures, measure, 0)
        i = self._index("run", c.runs, run, None)
        j = self._index("run", c.runs, reference, None)
        if i is None and j is not None:
            i = int(c.order[k][0]) if int(c.order[k][0]) != j else int(c.order[k][1])
        return topic_differences(c, k, i, j, level)

    def plot_topics(self, path_or_ax=None, *, measure: str | None = None, run: str | None = None,
                    reference: str | None = None, level: float = 0.95):
        """The per-topic difference plot (reference section 12.5) of :meth:`differences`: a bar
        per topic (height: ``run``'s value minus ``reference``'s, the measure's unit), sorted by
        difference, green where the run does better, red where worse; the mean difference a line,
        its paired t interval (``scipy.stats``, at ``level``) a band. ``path_or_ax``: a file
        (``.svg``, ``.pdf``, ``.png``; written atomically), a matplotlib axes, or None. Returns
        the matplotlib figure (the bars are ``fig.axes[0].containers[0]``, in the topics' order).
        Raises ``ValueError`` as :meth:`differences` or for a bad suffix, ``ImportError`` naming
        the extra ``plots`` without matplotlib, ``OSError`` when the file cannot be written."""
        from readsim.operations.figures import draw_topic_differences

        return draw_topic_differences(self.differences(measure, run, reference, level), path_or_ax)

    @staticmethod
    def _index(what: str, names: list[str], name, default):
        if name is None:
            return default
        if name not in names:
            raise ValueError(f"no {what} {name!r} in the comparison; its {what}s are {', '.join(names)}")
        return names.index(name)

    def _rows(self, digits: int | None):
        """Per run (input order): ``(i, run, cells)``, a cell per measure ``(k, mean as text,
        letters of the runs it is significantly better than, best)`` (ranx's convention); the
        mean with ``digits`` decimals, or None: as the tsv rows print it (reference 9.4)."""
        c = self.engine
        for i, run in enumerate(c.runs):
            yield i, run, [(k, format_tsv(float(c.means[k, i])) if digits is None else f"{c.means[k, i]:.{digits}f}",
                            "".join(_letter(j) for j in range(len(c.runs)) if c.significant[k, i, j]), c.rank[k, i] == 1)
                           for k in range(len(c.measures))]

    def _setting(self) -> str:
        test = {"bootstrap": f"paired bootstrap test, {self.resamples} resamples, seed {self.seed}",
                "t": "paired t-test",
                "randomization": f"paired randomization test, {self.resamples} resamples, seed {self.seed}",
                "tukey": f"randomised Tukey HSD, {self.resamples} trials, seed {self.seed}"}[self.test]
        correction = "" if self.correction == "none" else f", {self.correction} correction"
        sides = "two-sided" if self.test == "tukey" else "one-tailed"
        return (f"{len(self.runs)} runs on {len(self.topics)} paired topics; {sides} {test}, "
                f"alpha {self.alpha:g}{correction}" + "".join(f"; {n}" for n in self.notes))

    def _paper_table(self, digits: int | None = None) -> PaperTable:
        """The table of :meth:`to_latex` and :meth:`to_markdown` (reference 12.4): one row per run
        (input order, labelled a, b, c, ...), one column per measure, each mean (``digits``
        decimals; None: the digits of ``readsim-eval compare --format tsv``) with the letters of
        the runs it is significantly better than as marks; the best mean of each measure bold;
        the caption says the setting and what the marks mean."""
        rows = [[_letter(i), run, *(Entry(v, bold=bool(best), marks=sup) for _, v, sup, best in cells)]
                for i, run, cells in self._rows(digits)]
        caption = (f"Mean of each measure; bold: the best mean of a measure; superscript letters: the runs whose "
                   f"mean this one is significantly better than ({self._setting()})")
        return PaperTable(["", "Run", *self.measures], rows, caption)

    def to_latex(self, digits: int | None = None) -> str:
        """The comparison as a LaTeX table for a paper (needs ``\\usepackage{booktabs}``): a
        ``table`` float with its caption (the setting; bold: the best mean of each measure;
        superscripts: the letters of the runs a mean is significantly better than, ranx's
        convention) around a ``tabular``, one row per run (input order, labelled a, b, c, ...),
        one column per measure. ``digits``: decimals of the means (None: as ``readsim-eval
        compare --format tsv``, six). Run names and measures are escaped for LaTeX (reference
        12.4; ``readsim-eval compare --format latex`` prints the same)."""
        return latex(self._paper_table(digits))

    def to_markdown(self, digits: int | None = None) -> str:
        """:meth:`to_latex`'s table as a GitHub Markdown pipe table (bold ``**...**``, marks
        ``<sup>...</sup>``) followed by a ``Table:`` caption line (reference 12.4; ``readsim-eval
        compare --format markdown`` prints the same)."""
        return markdown(self._paper_table(digits))

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


def setting_notes(*, all_topics: bool = False, as_documents: bool = False, condensed: bool = False,
                  reading: str = "natural") -> list[str]:
    """What a comparison's captions add to the test's setting when the evaluation was not the
    default one: every judged topic paired, runs as whole documents, condensed lists, a reading
    order other than natural (reference 12.4)."""
    return ((["every judged topic paired, a missing one as an empty ranking"] if all_topics else [])
            + (["runs evaluated as whole documents"] if as_documents else [])
            + (["condensed lists (unjudged articles removed)"] if condensed else [])
            + ([f"{reading} reading order"] if reading != "natural" else []))


def _letter(i: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26]


def compare(qrels, runs, measures, *, test: str = "bootstrap", alpha: float = 0.05, resamples: int = 1000,
            seed: int = 0, correction: str = "none", reading: str = "natural", all_topics: bool = False,
            collection=None, unit: str | None = None, condensed: bool = False) -> Comparison:
    """Compare two or more runs under list measures (``readsim-eval compare --no-doc``).

    ``qrels``, ``runs``, ``reading``, ``collection``, ``unit``, ``all_topics``, ``condensed``: as
    :func:`readsim.evaluate` (each run is evaluated once with every measure); ``measures``:
    list measure names. ``test``: ``bootstrap``, ``t``, ``randomization`` or ``tukey`` (the
    randomised Tukey HSD over all runs, Carterette 2012; ``resamples`` is its number of trials);
    ``alpha`` in (0, 1); ``resamples`` 1 .. 100,000; ``seed`` (same seed, same p-values);
    ``correction``: ``none``, ``bonferroni``, ``holm`` or ``bh`` (Benjamini-Hochberg) over each
    measure's pairs. Intervals (runs' means in :meth:`Comparison.to_frame`, pairs' differences in
    :meth:`Comparison.pairs`) are two-sided at ``1 - alpha``. Statistics pair the runs on
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
    return Comparison(c, setting_notes(all_topics=all_topics, condensed=condensed, reading=reading))


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

