"""Fidelity tables: does a measure order the simulated runs of the S-R space as expected?

Kamps, Pehcevski, Kazai, Lalmas, Robertson, *INEX 2007 evaluation measures*, LNCS 4862 (2008)
([Kamps 2007b]), section 4: the 20 simulated runs of docs/reference.md section 8
(:mod:`readsim.core.simulated`: passage sets S, SL, SLD, SS, SST x rankings R, RS, RI, RSI) are built from the qrels and the articles'
XML, scored by every measure, and shown as

- **Table 1**: every run's mean score per measure (:attr:`Fidelity.means`);
- **Table 2**: for each expected ordering "first >= second" (:data:`ORDERINGS`, the 36 rows of
  the paper's Table 2, from its Figure 3): the mean difference (the paper's "Diff (%)" is 100
  times it: percentage points), the topics where the first run is better (``>``), equal
  (``==``) and worse (``<``), and the paired t-test p (two-sided, as R's ``t.test`` the paper's
  2.2e-16 floor comes from; NaN where every difference is 0, the paper's "—").

A measure **respects** an ordering when the first run scores at least as well as the second on
every topic (the paper: "for each comparison among the run pairs ..., the first run performs
better or as good as the second run"); **on average** when it does in the mean but not on every
topic; the ordering is **reversed** when the second run's mean is better. Effort measures
(ANCE ...) are oriented (lower is better) before any comparison, and per-topic values are
rounded as :func:`readsim.core.paired_statistics.settle` says (a 1e-17 difference is a tie).

The paper's own AgP and AgP' rows (114 INEX 2006 topics) are :data:`PAPER_TABLE2`;
:data:`ALWAYS` are the 28 orderings whose AgP row has no "<" topic, which AgP/F(0.25) respects
on the complete topics of the real data too (``tests/engine/test_fidelity_tables.py``).

:func:`complete_topics` picks the topics whose relevant articles the collection all holds (the
simulated runs SL, SS, SST need their XML). Pure numpy and scipy; no Qt.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .collection import Collection
from readsim.core.paired_statistics import settle
from readsim.core.run_comparison import RunScores
from .errors import InputError
from .formats import Qrels
from .listmeasures import evaluate
from .measure import ListMeasure, UnknownMeasure, parse_list_measure
from .reading import Mode
from .simulated import run_names, simulated_run

RESPECTED, ON_AVERAGE, REVERSED = "respected", "on average", "reversed"
VERDICTS = (RESPECTED, ON_AVERAGE, REVERSED)


@dataclass(frozen=True)
class PaperRow:
    """One measure's cells of a row of the paper's Table 2: ``diff`` (percentage points as
    printed), topics ``better``, ``equal``, ``worse``, and the t-test ``p`` (None for "—";
    2.2e-16 is R's floor, "below 2.2e-16")."""

    diff: float
    better: int
    equal: int
    worse: int
    p: float | None


def _row(text: str) -> tuple[str, str, PaperRow, PaperRow]:
    first, second, *cells = text.split()
    values = [None if c == "-" else float(c) for c in cells]
    agp = PaperRow(values[0], int(values[1]), int(values[2]), int(values[3]), values[4])
    prime = PaperRow(values[5], int(values[6]), int(values[7]), int(values[8]), values[9])
    return first, second, agp, prime


# Kamps et al. 2008, Table 2 (114 INEX 2006 topics): first, second, then AgP's Diff (%), >, ==,
# <, p and AgP''s. Transcribed from [Kamps 2007b]; "-" is the paper's "—".
_TABLE2 = """
SR SLR +20 112 2 0 2.2e-16 +17 112 2 0 2.2e-16
SR SSR +13 112 2 0 2.2e-16 +8 112 2 0 2.2e-16
SR SRS 0 0 114 0 - 0 0 114 0 -
SR SRI +10 114 0 0 2.2e-16 +24 114 0 0 2.2e-16
SLR SLDR +26 113 1 0 2.2e-16 +16 113 1 0 2.2e-16
SLR SLRS +0.07 52 13 49 0.6023 +0.5 52 13 49 0.2962
SLR SLRI +9 114 0 0 2.2e-16 +20 114 0 0 2.2e-16
SSR SSTR +41 114 0 0 2.2e-16 +45 114 0 0 2.2e-16
SSR SSRS +0.07 43 29 42 0.4146 +0.5 43 29 42 0.0963
SSR SSRI +9 114 0 0 2.2e-16 +22 114 0 0 2.2e-16
SRS SLRS +20 112 2 0 2.2e-16 +17 112 2 0 2.2e-16
SRS SSRS +13 112 2 0 2.2e-16 +9 112 2 0 2.2e-16
SRS SRSI +10 114 0 0 2.2e-16 +22 114 0 0 2.2e-16
SRI SLRI +18 112 2 0 2.2e-16 +14 112 2 0 2.2e-16
SRI SSRI +12 112 2 0 2.2e-16 +7 112 2 0 2.2e-16
SRI SRSI 0 0 114 0 - -2 0 0 114 5.9e-13
SLDR SLDRS +0.7 67 8 39 0.0004 +3 67 8 39 5.9e-05
SLDR SLDRI +7 114 0 0 2.2e-16 +18 114 0 0 2.2e-16
SLRS SLDRS +27 113 1 0 2.2e-16 +18 113 1 0 2.2e-16
SLRS SLRSI +9 114 0 0 2.2e-16 +18 114 0 0 2.2e-16
SLRI SLDRI +24 113 1 0 2.2e-16 +14 113 1 0 2.2e-16
SLRI SLRSI +0.03 52 13 49 0.6023 -1 25 0 89 2.4e-06
SSTR SSTRS +0.1 60 0 54 0.4904 +1 60 0 54 0.2141
SSTR SSTRI +5 114 0 0 2.2e-16 +11 114 0 0 2.2e-16
SSRS SSTRS +41 114 0 0 2.2e-16 +45 114 0 0 2.2e-16
SSRS SSRSI +9 114 0 0 2.2e-16 +20 114 0 0 2.2e-16
SSRI SSTRI +36 114 0 0 2.2e-16 +34 114 0 0 2.2e-16
SSRI SSRSI +0.03 43 29 42 0.4146 -1 12 0 102 1.9e-09
SRSI SLRSI +18 112 2 0 2.2e-16 +14 112 2 0 2.2e-16
SRSI SSRSI +12 112 2 0 2.2e-16 +7 112 2 0 2.2e-16
SLDRS SLDRSI +6 114 0 0 2.2e-16 +15 114 0 0 2.2e-16
SLDRI SLDRSI +0.4 67 8 39 0.0004 +0.05 46 0 68 0.8790
SLRSI SLDRSI +24 113 1 0 2.2e-16 +15 113 1 0 2.2e-16
SSTRS SSTRSI +5 114 0 0 2.2e-16 +10 114 0 0 2.2e-16
SSTRI SSTRSI +0.05 60 0 54 0.4896 -1 48 0 66 0.0189
SSRSI SSTRSI +36 114 0 0 2.2e-16 +35 114 0 0 2.2e-16
"""

PAPER_TABLE2: dict[tuple[str, str], tuple[PaperRow, PaperRow]] = {
    (f, s): (a, p) for f, s, a, p in map(_row, _TABLE2.strip().splitlines())}
"""The paper's Table 2: ``(first, second)`` -> ``(AgP row, AgP' row)``, in the paper's order."""

ORDERINGS: list[tuple[str, str]] = list(PAPER_TABLE2)
"""The 36 expected orderings ``(first, second)``: first should score at least as well."""

ALWAYS: list[tuple[str, str]] = [o for o, (agp, _) in PAPER_TABLE2.items() if agp.worse == 0]
"""The 28 orderings the paper's AgP confirms on every one of its 114 topics (no "<" topic)."""

PAPER_TABLE1: dict[str, tuple[float, float, float]] = {
    run: (magp, magp_prime, map_) for run, magp, magp_prime, map_ in (
        ("SR", 1.0000, 1.0000, 1.0000), ("SRS", 1.0000, 1.0000, 1.0000), ("SRI", 0.8954, 0.7647, 0.8954),
        ("SRSI", 0.8954, 0.7838, 0.8954), ("SLR", 0.7976, 0.8314, 1.0000), ("SLRS", 0.7969, 0.8262, 1.0000),
        ("SLRI", 0.7113, 0.6289, 0.8954), ("SLRSI", 0.7110, 0.6428, 0.8954), ("SLDR", 0.5352, 0.6719, 1.0000),
        ("SLDRS", 0.5278, 0.6422, 1.0000), ("SLDRI", 0.4700, 0.4931, 0.8954), ("SLDRSI", 0.4664, 0.4926, 0.8954),
        ("SSR", 0.8687, 0.9194, 1.0000), ("SSRS", 0.8680, 0.9140, 1.0000), ("SSRI", 0.7742, 0.6966, 0.8954),
        ("SSRSI", 0.7739, 0.7117, 0.8954), ("SSTR", 0.4589, 0.4722, 1.0000), ("SSTRS", 0.4578, 0.4660, 1.0000),
        ("SSTRI", 0.4093, 0.3578, 0.8954), ("SSTRSI", 0.4088, 0.3642, 0.8954))}
"""The paper's Table 1 (114 INEX 2006 topics): run -> (MAgP, MAgP', MAP)."""


@dataclass
class Fidelity(RunScores):
    """Fidelity tables of ``m`` measures over the 20 simulated runs and ``t`` topics.

    - ``runs``: the 20 run names (:func:`readsim.core.simulated.run_names` order); ``topics``;
    - ``scores`` ``(m, 20, t)``: per-topic values (rounded), the measure's direction;
      ``means`` ``(m, 20)``: Table 1;
    - ``orderings``: the 36 ``(first, second)`` of :data:`ORDERINGS`; per measure and ordering
      ``(m, 36)``: ``diff`` (mean of first minus second, oriented so > 0 agrees with the
      expectation, in the measure's unit), ``better``, ``equal``, ``worse`` (topic counts),
      ``p`` (two-sided paired t-test, NaN if every difference is 0 or fewer than 2 topics),
      ``verdict`` (:data:`VERDICTS`; a list of lists of strings).
    """

    orderings: list[tuple[str, str]]
    diff: np.ndarray
    better: np.ndarray
    equal: np.ndarray
    worse: np.ndarray
    p: np.ndarray
    verdict: list[list[str]]

    def with_verdict(self, k: int, verdict: str) -> list[tuple[str, str]]:
        """The orderings measure ``k`` gives ``verdict``, in :data:`ORDERINGS` order."""
        return [o for o, v in zip(self.orderings, self.verdict[k]) if v == verdict]

    def tied(self, k: int) -> list[tuple[str, str]]:
        """The orderings measure ``k`` respects only by tying on every topic (it cannot see the
        difference the ordering is about, as ANCE/LE between SS and SST)."""
        return [o for o, b, w in zip(self.orderings, self.better[k], self.worse[k]) if b == 0 and w == 0]

    def best(self, k: int) -> list[str]:
        """The runs with the best mean under measure ``k`` (several when tied)."""
        y = settle(self.means[k] * (-1 if self.lower_is_better[k] else 1))
        return [r for r, v in zip(self.runs, y) if v == y.max()]

    def worst(self, k: int) -> list[str]:
        """The runs with the worst mean under measure ``k``."""
        y = settle(self.means[k] * (-1 if self.lower_is_better[k] else 1))
        return [r for r, v in zip(self.runs, y) if v == y.min()]


def complete_topics(qrels: Qrels, collection: Collection) -> list[str]:
    """The judged topics with at least one relevant article, all of which the collection holds
    (sorted as strings): those the simulated runs can be built for."""
    have = collection.listing()
    return [t for t in sorted(qrels.topics)
            if qrels.nrel(t) > 0 and all(a in have for a in qrels.relevant_articles(t))]


def check_topics(qrels: Qrels, collection: Collection, topics: Iterable[str]) -> list[str]:
    """``topics`` (deduplicated, in the given order) after checking each is judged, has a
    relevant article, and has all of them in the collection. Raises :class:`InputError` naming
    the first topic that fails and why."""
    have = collection.listing()
    out = list(dict.fromkeys(str(t).strip() for t in topics))
    if not out or "" in out:
        raise InputError(qrels.path, None, "no topic given (--topics complete, or ids separated by commas)")
    for t in out:
        if t not in qrels.topics:
            raise InputError(qrels.path, None, f"topic {t} is not judged in the qrels")
        relevant = qrels.relevant_articles(t)
        if not relevant:
            raise InputError(qrels.path, None, f"topic {t} has no relevant article: nothing to simulate")
        lacking = [a for a in relevant if a not in have]
        if lacking:
            raise InputError(str(collection.root), None,
                             f"topic {t}: {len(lacking)} of its {len(relevant)} relevant articles (first: "
                             f"{', '.join(lacking[:3])}) are not in the collection; the simulated runs need "
                             f"their XML (--topics complete picks the topics that have them all)")
    return out


def fidelity_from_scores(scores: np.ndarray, measures: Sequence[ListMeasure | str], topics: Sequence[str],
                         lower_is_better: Sequence[bool] | None = None) -> Fidelity:
    """Tables 1 and 2 from per-topic values ``scores`` ``(m, 20, t)`` of the runs
    :func:`readsim.core.simulated.run_names` (in that order). ``lower_is_better``: per measure
    (default from the parsed measure names). Raises ``ValueError`` for a wrong shape."""
    from scipy import stats

    runs = run_names()
    x = settle(scores)
    if x.ndim != 3 or x.shape[:2] != (len(measures), len(runs)) or x.shape[2] != len(topics):
        raise ValueError(f"scores has shape {x.shape}; want ({len(measures)}, {len(runs)}, {len(topics)})")
    names = [m.name if isinstance(m, ListMeasure) else str(m) for m in measures]
    if lower_is_better is None:
        lower = []
        for m in measures:
            try:
                lower.append((m if isinstance(m, ListMeasure) else parse_list_measure(str(m))).lower_is_better)
            except UnknownMeasure:
                lower.append(False)
        lower_is_better = lower
    lower = np.asarray(lower_is_better, dtype=bool)
    index = {r: i for i, r in enumerate(runs)}
    first = np.array([index[f] for f, _ in ORDERINGS])
    second = np.array([index[s] for _, s in ORDERINGS])
    y = x * np.where(lower, -1.0, 1.0)[:, None, None]
    d = y[:, first] - y[:, second]  # (m, 36, t)
    diff = settle(np.mean(d, axis=-1)) if x.shape[2] else np.zeros(d.shape[:2])
    better = np.count_nonzero(d > 0, axis=-1)
    worse = np.count_nonzero(d < 0, axis=-1)
    equal = d.shape[-1] - better - worse
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if x.shape[2] >= 2:
            p = np.asarray(stats.ttest_rel(y[:, first], y[:, second], axis=-1).pvalue, dtype=float)
        else:
            p = np.full(diff.shape, np.nan)
    p = np.where((better + worse) == 0, np.nan, p)
    verdict = [[RESPECTED if w == 0 else ON_AVERAGE if dd >= 0 else REVERSED
                for w, dd in zip(worse[k], diff[k])] for k in range(len(names))]
    return Fidelity(runs, names, lower, [str(t) for t in topics], x, np.mean(x, axis=-1) if x.shape[2] else
                    np.zeros(x.shape[:2]), list(ORDERINGS), diff, better, equal, worse, p, verdict)


def fidelity_tables(qrels: Qrels, collection: Collection, measures: Sequence[ListMeasure | str],
                    topics: str | Iterable[str] = "complete", *, mode: Mode | str = Mode.NATURAL, levels: int = 4,
                    progress: Callable[[int, int], None] | None = None) -> Fidelity:
    """Build the 20 simulated runs for ``topics`` and score them with ``measures``.

    ``topics``: ``"complete"`` (:func:`complete_topics`) or topic ids (checked by
    :func:`check_topics`); ``mode``, ``levels``: as :func:`readsim.core.listmeasures.evaluate`;
    ``progress(done, 20)`` after each run. Articles are read from ``collection`` (its unit must
    be the qrels' unit). Raises :class:`InputError` when no topic qualifies, a topic does not,
    or an article cannot be read; ``UnknownMeasure`` for a measure name that does not parse."""
    parsed = [m if isinstance(m, ListMeasure) else parse_list_measure(str(m)) for m in measures]
    if isinstance(topics, str) and topics == "complete":
        chosen = complete_topics(qrels, collection)
        if not chosen:
            raise InputError(str(collection.root), None,
                             "no judged topic has all its relevant articles in the collection; the simulated "
                             "runs need their XML")
    else:
        chosen = check_topics(qrels, collection, [topics] if isinstance(topics, str) else topics)
    names = run_names()
    scores = np.zeros((len(parsed), len(names), len(chosen)))
    for i, name in enumerate(names):
        run = simulated_run(name, qrels, collection, chosen)
        ev = evaluate(qrels, run, parsed, mode, collection, levels=levels)
        for k, m in enumerate(parsed):
            scores[k, i] = [ev.values[m.name][t] for t in chosen]
        if progress is not None:
            progress(i + 1, len(names))
    return fidelity_from_scores(scores, parsed, chosen)
