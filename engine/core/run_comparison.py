"""Comparing runs and measures (docs/reference.md section 12): a mean with a confidence interval per run,
a significance test for every pair of runs, effect sizes, and the correlation of the runs'
scores between measures. Every statistic is scipy's (:mod:`scipy.stats`), computed in
:mod:`readsim.core.paired_statistics`; this module pairs the topics, orients the measures,
corrects for many pairs and lays the results out as arrays (:func:`compare_runs`).

Input: the per-topic values of ``n`` runs under ``m`` list measures over ``t`` topics, a float
array ``scores`` of shape ``(m, n, t)`` (:func:`score_matrix` builds it from
:class:`~readsim.core.listmeasures.Evaluation` objects). Output: a :class:`Comparison` of arrays.

Sources:

- **Significance matrix** over all run pairs, runs ordered by their score, with the count of
  significant pairs: Kamps, Lalmas, Pehcevski, *Evaluating Relevant in Context: Document
  Retrieval with a Twist*, SIGIR 2007 ([Kamps 2007a]), Tables 1-2 ("no less than 112 of the 190
  pairwise comparisons are significant"), with the **bootstrap**, "one-tailed at significance
  level 0.05 over 1,000 resamples" (the defaults here).
- **Paired t-test**: Kamps, Pehcevski, Kazai, Lalmas, Robertson, *INEX 2007 evaluation
  measures* ([Kamps 2007b]), Table 2; Arvola, Kekäläinen, Junkkari, *Expected reading effort in
  focused retrieval evaluation*, Information Retrieval 13(5), 2010 ([Arvola 2010]), section 5.2.
- **Paired randomization test** (Fisher's sign-flipping test; Smucker, Allan, Carterette,
  CIKM 2007, recommend it for IR): [Smucker 2007], docs/reference.md section 12.1.
- **Randomised Tukey HSD** over all runs at once: Carterette, *Multiple testing in statistical
  analysis of systems-based information retrieval experiments*, ACM TOIS 30(1), 2012
  ([Carterette 2012]). **Benjamini-Hochberg**: Benjamini, Hochberg, JRSS B 57(1), 1995
  ([Benjamini 1995]).
- **Kendall's tau** between measures over the runs' scores: [Kamps 2007a] (MAP vs MAgP, 0.674 over
  20 runs), [Arvola 2010] Table 2 (with each measure against its full-document baseline, the "doc"
  columns); **Pearson's r**: Gövert, Fuhr, Lalmas, Kazai, Information Retrieval 9, 2006
  ([Gövert 2006]), Tables 2-5.

Policies, all in one place (each has a test in ``tests/engine/test_run_comparison.py``; 8 and 9 also in
``tests/engine/test_run_comparison_per_topic.py``):

1. **Pairing by topic.** Every statistic pairs the runs topic by topic over one set of topics,
   the same for every run and measure: the topics *every* run has (:func:`score_matrix`; the
   topics some run lacks are left out and listed in :attr:`Comparison.left_out`, the command
   line warns). With ``-c`` the evaluations already hold every judged topic, a topic a run
   lacks scoring as an empty ranking (0; NR at every rank for effort measures), so nothing is
   left out. The means here are over the paired topics, so without ``-c`` they can differ from
   ``readsim-eval``'s per-run means (each over the run's own topics).
2. **Orientation.** Effort measures (CE, NCE, ANCE: ``ListMeasure.lower_is_better``) are
   negated inside every test and correlation, so "better", the ranking of runs, a positive
   difference and a positive tau always mean the same thing ([Arvola 2010] reports the correlations
   of MANCE with MAgP "as their opposite values" for the same reason). Means and confidence
   intervals are printed in the measure's own direction.
3. **Ties and floating-point noise.** Per-topic values are rounded to
   :data:`~readsim.core.paired_statistics.DECIMALS` (12) decimal places first, so two runs that
   score the same in exact arithmetic tie (a 1e-17 difference is never a win, nor significant);
   resampled mean differences within :data:`~readsim.core.paired_statistics.TOLERANCE` (relative
   to the largest value) count as zero. Runs with equal means are ordered by their label
   (:func:`rank_order`: mean best first, then label), the one rule of the command line's report
   and the Runs window; every run tied for the best mean is best (:meth:`Comparison.best`), none
   leads. Labels come from :func:`run_labels`.
4. **Direction of the tests.** For a measure, runs are ranked by their mean (best first); each
   pair is tested one-tailed in the direction of the ranking, H1 "the higher-ranked run is
   better" (a difference of exactly 0 is never significant). ``p[k, i, j]`` is set for run i
   ranked above run j under measure k, NaN otherwise.

   - ``bootstrap``: :func:`scipy.stats.bootstrap` (percentile method) resamples the topics
     with replacement ``resamples`` times; one call on the runs, so every pair uses the same
     resamples, and the bootstrap mean difference of a pair is the difference of the two runs'
     bootstrap means: exactly what ``scipy.stats.bootstrap`` on the pair's per-topic
     differences gives with the same seed (the mean is linear; a test checks it). p = the
     share of resampled mean differences <= 0: significant at ``alpha`` iff the one-sided
     ``1 - alpha`` percentile interval of the difference lies above 0.
   - ``t``: :func:`scipy.stats.ttest_rel`, ``alternative="greater"``. All differences 0: p = 1
     (scipy says NaN).
   - ``randomization``: :func:`scipy.stats.permutation_test` with
     ``permutation_type="samples"`` (swap the two runs' values on random topics), statistic the
     mean difference, ``alternative="greater"``; exact when ``2**t <= resamples``. One call on
     the runs (each against zeros) gives every pair's null distribution by linearity, as for
     the bootstrap, and the p-value is scipy's ``(count(null >= observed) + 1) / (resamples +
     1)`` (a test checks it against scipy on each pair).
   - ``tukey``: the randomised Tukey HSD ([Carterette 2012]): on each of ``resamples`` trials
     every topic's values are shuffled across all the runs (independently per topic) and the
     range of the runs' means is kept; a pair's p is ``(trials whose range >= |observed mean
     difference| + 1) / (trials + 1)``, the randomization test's count
     (:func:`~readsim.core.paired_statistics.tukey_hsd_test`). Two-sided, and already adjusted
     for all the measure's pairs (the family-wise error rate); a ``correction`` on top only
     makes it more conservative.
5. **Confidence intervals**, two-sided, level ``1 - alpha``, of a run's mean (``ci``) and of a
   pair's mean difference (``diff_ci``, oriented as ``diff``): with ``bootstrap`` the percentile
   interval of the same resamples as the test; with ``t``, ``randomization`` and ``tukey``
   Student's t interval (:meth:`scipy.stats.ttest_1samp` ``.confidence_interval``, on the
   pair's per-topic differences for a pair). Values that are all the same, v, have the interval
   [v, v].
6. **Multiple comparisons**: the family is a measure's ``n (n - 1) / 2`` pairs. ``none``;
   ``bonferroni``: ``min(1, p * pairs)``; ``holm`` (Holm 1979, step-down): the k-th smallest p
   times ``pairs - k + 1``, made non-decreasing, at most 1; ``bh`` ([Benjamini 1995], step-up,
   the false discovery rate): the k-th smallest p times ``pairs / k``, each the smallest of
   itself and every larger one's, at most 1 (statsmodels' ``multipletests`` ``fdr_bh``, which
   a test checks every correction against). Significant iff the adjusted p is below ``alpha``.
7. **Effect size** of a pair: the mean of the per-topic differences (oriented, in the
   measure's unit) and Cohen's d for paired samples, ``d_z = mean(d) / sd(d)`` with
   ``ddof=1`` (0 when every difference is 0; +-inf when they are all equal and not 0); with
   the topics where each run is better (``wins``) and those tied.
8. **Correlations** between two measures: :func:`scipy.stats.kendalltau` (tau-b) and
   :func:`scipy.stats.pearsonr` of the runs' oriented means, with their two-sided p-values;
   NaN when a measure scores every run the same, and with fewer than
   :data:`~readsim.core.paired_statistics.MIN_CORRELATED` (3) runs: two runs always lie on a
   line, so their tau and r are +-1 whatever the measures say (reports say "two runs cannot show
   a correlation"). Against the full-document baseline
   (the run evaluated ``--as-documents``): the same for each measure with its own baseline scores.
9. **Per-topic differences** (:meth:`Comparison.per_topic`): on each paired topic, each run's
   value minus that of its reference run, the best-ranked run (policy 3's ranking) for every
   other run and the runner-up for the best-ranked run (with two runs: each against the
   other); topics sorted by the largest oriented difference of any run to the best-ranked run
   (where it loses most first), ties by topic id.

Raises ``ValueError`` for arrays of the wrong shape, fewer than 2 runs or 2 topics, an
unknown test or correction, ``alpha`` outside (0, 1), ``resamples`` outside 1 .. 100,000, a negative
seed. Pure numpy and scipy; no Qt.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .listmeasures import Evaluation
from .measure import ListMeasure, UnknownMeasure, parse_list_measure
from .paired_statistics import (CORRECTIONS, TESTS, adjust, bootstrap_test, correlate, effect_sizes, measure_generator,
                                pair_t_intervals, randomization_test, settle, t_interval, t_test, tukey_hsd_test)

MAX_RESAMPLES = 100_000


@dataclass(frozen=True)
class Pair:
    """One tested pair of a measure: run ``better`` (index) ranked above run ``worse``."""

    better: int
    worse: int
    diff: float  # mean of the oriented per-topic differences (measure units; > 0: ``better`` is better)
    effect: float  # Cohen's d_z
    wins: int  # topics where ``better`` scores better
    ties: int
    losses: int  # topics where ``worse`` scores better
    p: float
    p_adjusted: float
    significant: bool
    ci_low: float  # two-sided 1 - alpha interval of ``diff`` (policy 5)
    ci_high: float


@dataclass
class RunScores:
    """Runs scored under measures on topics, what :class:`Comparison` and
    :class:`readsim.core.fidelity_tables.Fidelity` share: ``runs`` (``n`` labels), ``measures`` (``m``
    canonical names), ``lower_is_better`` ``(m,)`` bool (effort measures), ``topics`` (``t``
    ids), ``scores`` ``(m, n, t)`` per-topic values in the measure's direction, ``means``
    ``(m, n)``."""

    runs: list[str]
    measures: list[str]
    lower_is_better: np.ndarray
    topics: list[str]
    scores: np.ndarray
    means: np.ndarray


@dataclass
class Comparison(RunScores):
    """The comparison of ``n`` runs under ``m`` measures over ``t`` paired topics.

    Arrays (runs by their index in :attr:`runs`, measures in :attr:`measures`):

    - ``scores`` ``(m, n, t)``: per-topic values (rounded, policy 3), measure's direction;
    - ``means`` ``(m, n)``; ``ci`` ``(m, n, 2)``: low and high of the confidence interval;
    - ``order`` ``(m, n)``: run indices best first; ``rank`` ``(m, n)``: 1-based rank of each run;
    - ``diff``, ``effect`` ``(m, n, n)``: mean oriented difference run i minus run j and
      Cohen's d_z (antisymmetric; defined for every pair); ``wins`` ``(m, n, n)`` int: topics
      where run i is better than run j; ``diff_ci`` ``(m, n, n, 2)``: low and high of the
      two-sided ``1 - alpha`` interval of ``diff`` (policy 5; ``diff_ci[k, j, i]`` is
      ``-diff_ci[k, i, j]`` reversed; 0 on the diagonal);
    - ``p``, ``p_adjusted`` ``(m, n, n)``: one-tailed p of "run i better than run j" (with
      ``tukey``: the two-sided HSD p of the pair) for i ranked above j, NaN otherwise; ``significant`` ``(m, n, n)`` bool;
    - ``tau``, ``tau_p``, ``r``, ``r_p`` ``(m, m)``: correlations of the runs' oriented means
      (diagonal 1);
    - ``doc_means`` ``(m, n)``: the runs' means evaluated as documents, ``doc_tau``,
      ``doc_tau_p``, ``doc_r``, ``doc_r_p`` ``(m,)``: each measure against its baseline;
      ``doc_gains`` ``(m,)``: runs better than their own baseline ([Arvola 2010]: "19 out of 25
      runs gain some improvement"); NaN (gains -1) where no baseline was given.
    """

    ci: np.ndarray
    order: np.ndarray
    rank: np.ndarray
    diff: np.ndarray
    effect: np.ndarray
    wins: np.ndarray
    diff_ci: np.ndarray
    p: np.ndarray
    p_adjusted: np.ndarray
    significant: np.ndarray
    tau: np.ndarray
    tau_p: np.ndarray
    r: np.ndarray
    r_p: np.ndarray
    doc_means: np.ndarray
    doc_tau: np.ndarray
    doc_tau_p: np.ndarray
    doc_r: np.ndarray
    doc_r_p: np.ndarray
    doc_gains: np.ndarray
    test: str = "bootstrap"
    alpha: float = 0.05
    resamples: int = 1000
    seed: int = 0
    correction: str = "none"
    left_out: list[str] = field(default_factory=list)

    @property
    def ci_method(self) -> str:
        """How :attr:`ci` was computed (policy 5)."""
        return "bootstrap percentile" if self.test == "bootstrap" else "Student's t"

    def pairs(self, k: int) -> list[Pair]:
        """Every tested pair of measure ``k``, in rank order: (1, 2), (1, 3), ..., (n-1, n)."""
        order = self.order[k]
        n = len(order)
        t = len(self.topics)
        out = []
        for a in range(n):
            for b in range(a + 1, n):
                i, j = int(order[a]), int(order[b])
                wins, losses = int(self.wins[k, i, j]), int(self.wins[k, j, i])
                out.append(Pair(i, j, float(self.diff[k, i, j]), float(self.effect[k, i, j]), wins,
                                t - wins - losses, losses, float(self.p[k, i, j]), float(self.p_adjusted[k, i, j]),
                                bool(self.significant[k, i, j]), float(self.diff_ci[k, i, j, 0]),
                                float(self.diff_ci[k, i, j, 1])))
        return out

    def neighbours(self, k: int) -> list[Pair]:
        """The pairs of runs next to each other in measure ``k``'s ranking (1-2, 2-3, ...)."""
        return [p for p in self.pairs(k) if self.rank[k, p.worse] == self.rank[k, p.better] + 1]

    def best(self, k: int) -> list[int]:
        """The runs (indices, in rank order) tied for the best mean under measure ``k`` (policy 3:
        means rounded, so a tie in exact arithmetic is a tie here)."""
        y = settle(self.means[k] * (-1.0 if self.lower_is_better[k] else 1.0))
        return [int(i) for i in self.order[k] if y[i] == y.max()]

    def significant_count(self, k: int) -> tuple[int, int]:
        """``(significant pairs, pairs)`` of measure ``k``, e.g. [Kamps 2007a]'s (112, 190)."""
        n = len(self.runs)
        return int(np.count_nonzero(self.significant[k])), n * (n - 1) // 2

    def references(self, k: int) -> np.ndarray:
        """Per run, the run its per-topic values are set against under measure ``k`` (policy 9):
        the best-ranked run for every other run, the runner-up for the best-ranked run (so with
        two runs each run against the other). ``(n,)`` int run indices."""
        order = self.order[k]
        ref = np.full(len(order), int(order[0]), dtype=np.int64)
        ref[int(order[0])] = int(order[1])
        return ref

    def per_topic(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The per-topic table of measure ``k`` (policy 9): ``(topics, reference, diff)``.

        ``reference`` ``(n,)``: :meth:`references`; ``diff`` ``(n, t)``: each run's value on a
        topic minus its reference run's (the measure's unit and direction: for an effort measure a
        negative difference is a gain); ``topics`` ``(t,)``: topic indices, the topics where a
        run beats the best-ranked run by the most first (the largest oriented difference of any
        other run to it; with two runs, where the second run gains most), ties by topic id."""
        x = self.scores[k]
        ref = self.references(k)
        diff = settle(x - x[ref])
        best = int(self.order[k][0])
        others = np.arange(len(self.runs)) != best
        gap = np.max(diff[others] * (-1.0 if self.lower_is_better[k] else 1.0), axis=0)
        by_id = np.argsort(np.argsort(np.array(self.topics, dtype=object), kind="stable"), kind="stable")
        return np.lexsort((by_id, -gap)), ref, diff


# -- ordering and naming runs ----------------------------------------------------------------------


def rank_order(oriented_means: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """Run indices best first: by oriented mean (higher is better; rounded as policy 3 says),
    equal means by label (string order), then by index. The one ordering rule of the command
    line's report and the Runs window. ``oriented_means``: ``(n,)``; returns int ``(n,)``."""
    y = settle(np.asarray(oriented_means, dtype=float))
    names = sorted(set(map(str, labels)))
    by_label = np.array([names.index(str(x)) for x in labels], dtype=np.int64)
    return np.lexsort((np.arange(len(y)), by_label, -y))


def run_labels(runs: Sequence) -> tuple[list[str], list[str]]:
    """One label per run (objects with ``run_id`` and ``path``), the one naming rule of the
    command line, the Runs window, compare, fidelity and the exports (docs/reference.md section
    12): the run id when no other run has it; else the file name (``bert-passages.run``: the
    three real BERT runs all say ``TREC2INEX``); a file name still shared (two folders) gets
    `` (2)``, `` (3)``, ... in the given order. Returns the labels and one warning (a message
    without a path) per shared run id, not one per run."""
    ids = Counter(str(r.run_id) for r in runs)
    wanted = [str(r.run_id) if ids[str(r.run_id)] == 1 else (os.path.basename(str(r.path)) or str(r.run_id))
              for r in runs]
    seen: Counter[str] = Counter()
    labels = []
    for name in wanted:
        seen[name] += 1
        labels.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    warnings = []
    for run_id, count in ids.items():
        if count > 1:
            paths = [str(r.path) for r in runs if str(r.run_id) == run_id]
            warnings.append(f"run id {run_id!r} is shared by {count} runs; each is labelled by its file name "
                            f"({', '.join(os.path.basename(p) for p in paths)})")
    return labels, warnings


# -- building the matrix -------------------------------------------------------------------------


def score_matrix(evaluations: Sequence[Evaluation],
                 measures: Sequence[ListMeasure | str]) -> tuple[np.ndarray, list[str], list[str]]:
    """The per-topic values of ``evaluations`` (one per run) as an ``(m, n, t)`` array over the
    topics every evaluation has (policy 1), in sorted order.

    Returns ``(scores, topics, left_out)``: ``left_out`` the topics some evaluation has and
    another lacks. Raises ``KeyError`` when an evaluation lacks a measure."""
    every = [set(e.topics) for e in evaluations]
    shared = set.intersection(*every) if every else set()
    union = set.union(*every) if every else set()
    topics = sorted(shared)
    return _matrix_on(evaluations, measures, topics), topics, sorted(union - shared)


def _orientation(measures: Sequence[ListMeasure | str], lower_is_better: Sequence[bool] | None) -> np.ndarray:
    if lower_is_better is not None:
        out = np.asarray(lower_is_better, dtype=bool)
        if out.shape != (len(measures),):
            raise ValueError(f"lower_is_better has {out.size} values for {len(measures)} measures")
        return out
    flags = []
    for m in measures:
        if not isinstance(m, ListMeasure):
            try:
                m = parse_list_measure(str(m))
            except UnknownMeasure:
                flags.append(False)
                continue
        flags.append(m.lower_is_better)
    return np.asarray(flags, dtype=bool)


def check_options(test: str, alpha: float, resamples: int, seed: int, correction: str) -> None:
    """Raise ``ValueError`` naming the option that is out of range."""
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; tests are {', '.join(TESTS)}")
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown correction {correction!r}; corrections are {', '.join(CORRECTIONS)}")
    if not (0.0 < float(alpha) < 1.0):
        raise ValueError(f"alpha must be above 0 and below 1, not {alpha}")
    if not 1 <= int(resamples) <= MAX_RESAMPLES:
        raise ValueError(f"resamples must be from 1 to {MAX_RESAMPLES}, not {resamples}")
    if int(seed) < 0:
        raise ValueError(f"seed must be a whole number from 0, not {seed}")


def compare_runs(scores: np.ndarray, runs: Sequence[str], measures: Sequence[ListMeasure | str],
                 topics: Sequence[str] | None = None, *, lower_is_better: Sequence[bool] | None = None,
                 documents: np.ndarray | None = None, test: str = "bootstrap", alpha: float = 0.05,
                 resamples: int = 1000, seed: int = 0, correction: str = "none",
                 left_out: Sequence[str] = ()) -> Comparison:
    """Compare ``runs`` under ``measures`` from their paired per-topic values.

    ``scores``: float ``(m, n, t)`` (measure, run, topic), each measure in its own direction;
    ``topics``: the t topic ids (default ``"1"`` .. ``"t"``); ``lower_is_better``: per measure
    (default: from each :class:`ListMeasure`, or its parsed name; False for a name that does not
    parse); ``documents``: optional ``(m, n, t)`` values of the same runs evaluated as
    documents (a row of NaN where a measure has no baseline). ``test``, ``alpha``,
    ``resamples``, ``seed`` (random generator per measure: :func:`measure_generator`) and
    ``correction`` as in the module docstring. Cost, measured (``bench/bench_compare.py``): 50
    runs x 120 topics x 4 measures take about 0.1 s with 1,000 bootstrap resamples, 0.3 s with
    the randomization test, 0.03 s with the t-test, once scipy.stats is imported (0.7 s); the
    randomised Tukey HSD (1,000 trials) about 3 times the bootstrap's time (measured side by side
    on a loaded machine: 2.6 s against 0.9 s).

    Raises ``ValueError`` (see the module docstring)."""
    check_options(test, alpha, resamples, seed, correction)
    x = settle(scores)
    if x.ndim != 3:
        raise ValueError(f"scores must have shape (measures, runs, topics), not {x.shape}")
    m, n, t = x.shape
    if m != len(measures) or n != len(runs):
        raise ValueError(f"scores has shape {x.shape} for {len(measures)} measures and {len(runs)} runs")
    if n < 2:
        raise ValueError(f"comparing needs at least 2 runs, not {n}")
    if t < 2:
        raise ValueError(f"comparing needs at least 2 paired topics, not {t}")
    if not np.isfinite(x).all():
        raise ValueError("scores must be finite numbers")
    topics = [str(i) for i in range(1, t + 1)] if topics is None else [str(s) for s in topics]
    if len(topics) != t:
        raise ValueError(f"{len(topics)} topic ids for {t} topics")
    names = [mm.name if isinstance(mm, ListMeasure) else str(mm) for mm in measures]
    lower = _orientation(measures, lower_is_better)
    sign = np.where(lower, -1.0, 1.0)
    y = x * sign[:, None, None]  # oriented: higher is better
    means = np.mean(x, axis=-1)
    oriented_means = settle(np.mean(y, axis=-1))
    order = np.stack([rank_order(oriented_means[k], runs) for k in range(m)])
    rank = np.empty_like(order)
    for k in range(m):
        rank[k, order[k]] = np.arange(1, n + 1)
    ci = np.zeros((m, n, 2))
    diff = np.zeros((m, n, n))
    effect = np.zeros((m, n, n))
    wins = np.zeros((m, n, n), dtype=np.int64)
    diff_ci = np.zeros((m, n, n, 2))
    p = np.full((m, n, n), np.nan)
    p_adj = np.full((m, n, n), np.nan)
    a, b = np.triu_indices(n, 1)
    for k in range(m):
        better, worse = order[k][a], order[k][b]
        gen = measure_generator(seed, names[k])
        if test == "bootstrap":
            pk, ck, dk = bootstrap_test(y[k], better, worse, int(resamples), float(alpha), gen)
        elif test == "t":
            pk = t_test(y[k], better, worse)
        elif test == "randomization":
            pk = randomization_test(y[k], better, worse, int(resamples), gen)
        else:
            pk = tukey_hsd_test(y[k], better, worse, int(resamples), gen)
        if test != "bootstrap":  # Student's t intervals (policy 5)
            ck, dk = t_interval(y[k], float(alpha)), pair_t_intervals(y[k], better, worse, float(alpha))
        ci[k] = ck if not lower[k] else -ck[:, ::-1]
        diff_ci[k, better, worse], diff_ci[k, worse, better] = dk, -dk[:, ::-1]
        diff[k], effect[k], wins[k] = effect_sizes(y[k])
        p[k, better, worse] = pk
        p_adj[k, better, worse] = adjust(pk, correction)
    significant = np.nan_to_num(p_adj, nan=1.0) < alpha
    tau, tau_p, r, r_p = (np.full((m, m), np.nan) for _ in range(4))
    for k in range(m):
        tau[k, k] = r[k, k] = 1.0
        tau_p[k, k] = r_p[k, k] = 0.0
        for q in range(k + 1, m):
            tau[k, q], tau_p[k, q], r[k, q], r_p[k, q] = correlate(oriented_means[k], oriented_means[q])
            tau[q, k], tau_p[q, k], r[q, k], r_p[q, k] = tau[k, q], tau_p[k, q], r[k, q], r_p[k, q]
    doc_means = np.full((m, n), np.nan)
    doc = [np.full(m, np.nan) for _ in range(4)]
    doc_gains = np.full(m, -1, dtype=np.int64)
    if documents is not None:
        dx = np.asarray(documents, dtype=float)
        if dx.shape != x.shape:
            raise ValueError(f"documents has shape {dx.shape}, scores {x.shape}")
        for k in range(m):
            if np.isnan(dx[k]).any():
                continue
            dk = settle(dx[k])
            doc_means[k] = np.mean(dk, axis=-1)
            baseline = settle(np.mean(dk * sign[k], axis=-1))
            doc[0][k], doc[1][k], doc[2][k], doc[3][k] = correlate(oriented_means[k], baseline)
            doc_gains[k] = int(np.count_nonzero(oriented_means[k] > baseline))
    return Comparison(list(map(str, runs)), names, lower, topics, x, means, ci, order, rank, diff, effect, wins, diff_ci, p,
                      p_adj, significant, tau, tau_p, r, r_p, doc_means, *doc, doc_gains, test, float(alpha),
                      int(resamples), int(seed), correction, list(left_out))


def compare_evaluations(evaluations: Sequence[Evaluation], measures: Sequence[ListMeasure | str],
                        documents: Sequence[Evaluation] | None = None, **options) -> Comparison:
    """:func:`compare_runs` on :class:`~readsim.core.listmeasures.Evaluation` objects (one per run,
    run names from their ``run_id``), paired as :func:`score_matrix` says (policy 1).
    ``documents``: the same runs evaluated ``as_document`` (their baseline); measures without a
    document score (``MAP``, ``gR@r``, counts) get no baseline. ``options``: those of
    :func:`compare_runs`."""
    scores, topics, left_out = score_matrix(evaluations, measures)
    doc = None
    if documents is not None:
        doc = np.full(scores.shape, np.nan)
        parsed = [m if isinstance(m, ListMeasure) else _parsed(m) for m in measures]
        with_doc = [k for k, m in enumerate(parsed) if m is not None and m.doc is not None]
        if with_doc:
            sub = [measures[k] for k in with_doc]
            matrix = _matrix_on(documents, sub, topics)
            doc[with_doc] = matrix
    return compare_runs(scores, [e.run_id for e in evaluations], measures, topics, documents=doc,
                        left_out=left_out, **options)


def _parsed(name: str) -> ListMeasure | None:
    try:
        return parse_list_measure(str(name))
    except UnknownMeasure:
        return None


def _matrix_on(evaluations: Sequence[Evaluation], measures: Sequence[ListMeasure | str],
               topics: list[str]) -> np.ndarray:
    names = [m.name if isinstance(m, ListMeasure) else str(m) for m in measures]
    out = np.zeros((len(names), len(evaluations), len(topics)))
    for i, e in enumerate(evaluations):
        for k, name in enumerate(names):
            out[k, i] = [e.values[name][t] for t in topics]
    return out
