"""The INEX 2002 and INEX 2003 element metrics ([Gövert 2006], section 4).

Notation: a topic's ranked elements c_1 .. c_K (an :class:`~.runs.ElementRun`'s list), each with
its assessed ``(e, s)`` (0..3; (0, 0) when not assessed) and its text span; sizes |c^T| in the
unit of the offsets (UTF-8 bytes by default, characters with ``--unit chars``).

**INEX 2002** (section 4.1, precall after Raghavan et al. 1989). Each element's relevance is the
quantised ``f(e, s)`` (eqs 8-9, :mod:`.quantise`). In rank l (a tie: several elements) the
relevant count is ``r_l = sum f`` and the non-relevant count ``i_l = sum (1 - f)`` (the
expectation reading the paper names: "it uses expectations for calculating precision").
n = sum of f over every assessed element of the topic. For a recall point x the user wants
NR = x n relevant elements; l is the first rank where the running sum reaches NR, j the
non-relevant count of the ranks before it, s = NR minus the relevant count before it, and

    P(rel|retr)(x) = x n / (x n + j + s i_l / (r_l + 1))            (equations 6-7)

Recall after rank l is the running sum of f over n. A recall point the run never reaches has
precision 0. At x = 0, P is the limit x -> 0+: ``(r + 1) / (r + 1 + i)`` of the first rank with
relevant elements when no non-relevant rank comes before it, else 0.

**INEX 2003** (section 4.2): exh and spec quantised alone (eqs 2-5). After k elements

    recall_s    = sum_{i<=k} exh(c_i) / sum_{all C} exh(C)                         (eq. 12)
    precision_s = sum_{i<=k} spec(c_i) |c_i| / sum_{i<=k} |c_i|                    (eq. 13)
    recall_o    = sum_{i<=k} exh(c_i) |c_i - U_{j<i} c_j| / |c_i|  /  rel^U(C_root) / |t|   (eq. 18)
    precision_o = sum_{i<=k} spec(c_i) |c_i - U_{j<i} c_j| / sum_{i<=k} |c_i - U_{j<i} c_j|  (eq. 19)

with rel^U (eqs 14-17) in units of |t| (so exh takes the place of |t n c|/|t|):
rel^U(c) = exh(c) for a leaf, else sum over the children c' of max(rel^U(c'), exh(c) |c'|/|c|).
C_root is the virtual root joining the articles: it is not retrievable (no run returns the
whole collection), so it adds nothing of its own and rel^U(C_root) = sum over the articles of
rel^U(article root). The unseen text |c_i - U_{j<i} c_j| is computed from spans (no loop over
characters): the positions are cut at every span boundary and each piece is credited to the
first element (in order) that covers it. A 0/0 precision (only empty elements so far) is 0.
The 2003 metric takes the elements one by one in run order: within a tie the line order
decides which element sees a text first.

**Recall points and AP.** Precision at the 101 recall points x = 0.00, 0.01, ..., 1.00
(:data:`RECALL_POINTS`): INEX 2002, eq. 7 at x itself (precall interpolates by construction);
INEX 2003, Salton's interpolation ([Gövert 2006] cites Salton and McGill 1983, p. 167f): the highest
precision at any point of the run whose recall is at least x (0 when none). **AP** (average
precision) is the mean over the 100 points 0.01 .. 1.00 (x = 0 is left out: a limit, not a
measurement); the mean over topics is printed at ``all``. A topic whose denominator is 0 (n, the
sum of exh, or rel^U: nothing relevant under that quantisation) is left out of that measure's
mean, with a warning.
"""

from __future__ import annotations

import math

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import Diagnostic
from . import quantise
from .assessments import ArticleAssessment, ElementAssessments, TopicAssessments
from .measures import METRICS, ElementMeasure
from .runs import ElementRun, RankedElement

RECALL_POINTS = np.round(np.arange(101) / 100, 2)
"""The recall points 0.00, 0.01, ..., 1.00."""
EPS = 1e-9


# -- rel^U ------------------------------------------------------------------------------------


def rel_u_values(parent: np.ndarray, size: np.ndarray, exh: np.ndarray, depth: np.ndarray | None = None) -> np.ndarray:
    """rel^U / |t| of every element of a tree (eqs 14-17): ``parent`` (-1 for a root), sizes
    and quantised exh per element, in preorder (a parent before its children); ``depth`` when
    known (else computed). One pass per tree level, deepest first."""
    parent = np.asarray(parent, dtype=np.int64)
    size = np.asarray(size, dtype=float)
    exh = np.asarray(exh, dtype=float)
    n = len(parent)
    value = np.zeros(n)
    if n == 0:
        return value
    if depth is None:
        depth = np.zeros(n, dtype=np.int64)
        for i in range(n):  # preorder: the parent's depth is known
            if parent[i] >= 0:
                depth[i] = depth[parent[i]] + 1
    depth = np.asarray(depth, dtype=np.int64)
    has_child = np.zeros(n, dtype=bool)
    has_child[parent[parent >= 0]] = True
    acc = np.zeros(n)
    for d in range(int(depth.max()), -1, -1):
        idx = np.flatnonzero(depth == d)
        value[idx] = np.where(has_child[idx], acc[idx], exh[idx])
        p = parent[idx]
        m = p >= 0
        if not m.any():
            continue
        child, p = idx[m], p[m]
        share = np.divide(size[child], size[p], out=np.zeros(len(child)), where=size[p] > 0)
        np.add.at(acc, p, np.maximum(value[child], exh[p] * share))
    return value


def article_rel_u(a: ArticleAssessment, quantisation: str) -> float:
    """rel^U / |t| of one article's root."""
    t = a.tree
    return float(rel_u_values(t.parent, t.sizes, quantise.exh(a.e, quantisation), t.depth)[0]) if len(t) else 0.0


@dataclass(frozen=True)
class Totals:
    """A topic's denominators under one quantisation: ``n`` (sum of f, INEX 2002), ``exh``
    (sum of exh, eq. 12) and ``rel_u`` (rel^U(C_root) / |t|, eq. 18)."""

    n: float
    exh: float
    rel_u: float

    def of(self, metric: str) -> float:
        return {"2002": self.n, "2003s": self.exh, "2003o": self.rel_u}[metric]


def topic_totals(ta: TopicAssessments, quantisation: str) -> Totals:
    n = ex = ru = 0.0
    for a in ta.articles.values():
        n += float(quantise.f(a.e, a.s, quantisation).sum())
        ex += float(quantise.exh(a.e, quantisation).sum())
        ru += article_rel_u(a, quantisation)
    return Totals(n, ex, ru)


# -- per-rank values --------------------------------------------------------------------------


def unseen_sizes(keys: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``|c_i - U_{j<i} c_j|`` for elements in order: ``keys`` tells the article (text of
    different articles never overlaps), ``starts``/``ends`` the spans. The positions are cut at
    every boundary; each piece goes to the first element covering it (pieces are assigned from
    the last element to the first, one slice per element, no loop over positions)."""
    keys = np.asarray(keys, dtype=np.int64)
    starts = np.asarray(starts, dtype=np.int64)
    ends = np.asarray(ends, dtype=np.int64)
    k = len(starts)
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    span = int(max(ends.max(), 0)) + 1
    gs, ge = keys * span + starts, keys * span + ends
    bounds = np.unique(np.concatenate([gs, ge]))
    seg = np.diff(bounds)
    a = np.searchsorted(bounds, gs)
    b = np.searchsorted(bounds, ge)
    owner = np.full(len(seg), k, dtype=np.int64)
    for i in range(k - 1, -1, -1):
        if b[i] > a[i]:
            owner[a[i]:b[i]] = i
    return np.bincount(owner, weights=seg, minlength=k + 1)[:k].astype(np.int64)


@dataclass(frozen=True)
class RankValues:
    """What each ranked element of one topic is worth (arrays of the run's length, in order):
    ``e``, ``s`` (0..3), ``rank`` (ties share it), ``size`` and ``unseen`` (its text no earlier
    element covered, both in the unit). :meth:`f`, :meth:`exh`, :meth:`spec` quantise."""

    e: np.ndarray
    s: np.ndarray
    rank: np.ndarray
    size: np.ndarray
    unseen: np.ndarray

    @property
    def seen(self) -> np.ndarray:
        """Text of each element that earlier elements already showed."""
        return self.size - self.unseen

    @property
    def overlaps(self) -> np.ndarray:
        """True where an earlier element already showed some of the element's text (or it
        repeats an element)."""
        return self.unseen < self.size

    def f(self, quantisation: str) -> np.ndarray:
        return quantise.f(self.e, self.s, quantisation)

    def exh(self, quantisation: str) -> np.ndarray:
        return quantise.exh(self.e, quantisation)

    def spec(self, quantisation: str) -> np.ndarray:
        return quantise.spec(self.s, quantisation)


def rank_values(ta: TopicAssessments | None, entries: Sequence[RankedElement]) -> RankValues:
    """The :class:`RankValues` of a topic's ranked elements under its assessments (None: nothing
    assessed, every element (0, 0))."""
    k = len(entries)
    e = np.zeros(k, dtype=np.int8)
    s = np.zeros(k, dtype=np.int8)
    keys: dict[str, int] = {}
    key = np.zeros(k, dtype=np.int64)
    starts = np.zeros(k, dtype=np.int64)
    ends = np.zeros(k, dtype=np.int64)
    rank = np.zeros(k, dtype=np.int64)
    for i, r in enumerate(entries):
        if ta is not None:
            e[i], s[i] = ta.values(r.article, r.index)
        key[i] = keys.setdefault(r.article, len(keys))
        starts[i], ends[i], rank[i] = r.start, r.end, r.rank
    return RankValues(e, s, rank, ends - starts, unseen_sizes(key, starts, ends))


def seen_before(entries: Sequence[RankedElement], k: int) -> np.ndarray:
    """The text of ``entries[k]``'s article that the elements ranked before it showed: a
    normalized ``(m, 2)`` span array in the unit (what the window shades)."""
    from .. import intervals as iv

    article = entries[k].article
    return iv.normalize([(r.start, r.end) for r in entries[:k] if r.article == article])


# -- curves -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Curve:
    """One topic under one metric and quantisation: ``ap``, ``precision`` at
    :data:`RECALL_POINTS` (101 values), the run's own points ``recall_at``/``precision_at``
    (after each rank for INEX 2002, NaN for a rank without relevant elements; after each element
    for INEX 2003) and ``total`` (the denominator: n, sum of exh or rel^U / |t|). ``ap`` is NaN
    when ``total`` is 0."""

    topic: str
    metric: str
    quantisation: str
    ap: float
    precision: np.ndarray
    recall_at: np.ndarray
    precision_at: np.ndarray
    total: float

    def at(self, x: float) -> float:
        """Precision at recall point ``x`` (one of 0.00 .. 1.00)."""
        return float(self.precision[int(round(x * 100))])


def _ap(precision: np.ndarray) -> float:
    return float(precision[1:].mean())


def precall(f: np.ndarray, rank: np.ndarray, n: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """INEX 2002: precision at :data:`RECALL_POINTS` (eqs 6-7) for elements in order with
    relevance ``f`` (0..1) and ranks ``rank`` (nondecreasing; a tie shares one), n the topic's
    total. Returns ``(precision at the points, recall after each rank, precision there)``."""
    f = np.asarray(f, dtype=float)
    out = np.zeros(len(RECALL_POINTS))
    if n <= 0 or len(f) == 0:
        return out, np.zeros(0), np.zeros(0)
    first = np.flatnonzero(np.r_[True, np.asarray(rank)[1:] != np.asarray(rank)[:-1]])
    r = np.add.reduceat(f, first)
    i = np.diff(np.r_[first, len(f)]) - r
    R = np.cumsum(r)
    R_before = R - r
    I_before = np.cumsum(i) - i
    tol = EPS * max(n, 1.0)
    NR = RECALL_POINTS * n
    at = np.searchsorted(R, NR - tol, side="left")
    ok = (at < len(R)) & (RECALL_POINTS > 0)
    lo = at[ok]
    s = np.clip(NR[ok] - R_before[lo], 0.0, r[lo])
    out[ok] = NR[ok] / (NR[ok] + I_before[lo] + s * i[lo] / (r[lo] + 1))
    rel = np.flatnonzero(r > 0)
    if len(rel):  # x -> 0+
        l0 = rel[0]
        out[0] = (r[l0] + 1) / (r[l0] + 1 + i[l0]) if I_before[l0] <= tol else 0.0
    # the run's own points: at the end of each rank with relevant elements
    den = R + I_before + r * i / (r + 1)
    at = np.divide(R, den, out=np.full(len(R), np.nan), where=(r > 0) & (den > 0))
    return out, R / n, at


def salton(recall: np.ndarray, precision: np.ndarray) -> np.ndarray:
    """Salton's interpolation at :data:`RECALL_POINTS`: the highest precision at a point whose
    recall is at least x (recall nondecreasing), 0 where the run never reaches x."""
    out = np.zeros(len(RECALL_POINTS))
    if len(recall) == 0:
        return out
    best = np.maximum.accumulate(precision[::-1])[::-1]
    k = np.searchsorted(recall, RECALL_POINTS - EPS, side="left")
    ok = k < len(recall)
    out[ok] = best[k[ok]]
    return out


def curve(topic: str, values: RankValues, totals: Totals, metric: str, quantisation: str) -> Curve:
    """The :class:`Curve` of one topic's ranked elements (``values``) under ``metric``
    (``"2002"``, ``"2003s"``, ``"2003o"``) and ``quantisation``."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, not {metric!r}")
    total = totals.of(metric)
    if metric == "2002":
        precision, rec, prec = precall(values.f(quantisation), values.rank, total)
    else:
        ex = values.exh(quantisation)
        sp = values.spec(quantisation)
        size = values.size.astype(float)
        if metric == "2003s":
            gain = ex
            weight = size
        else:
            unseen = values.unseen.astype(float)
            gain = ex * np.divide(unseen, size, out=np.zeros(len(size)), where=size > 0)
            weight = unseen
        rec = np.cumsum(gain) / total if total > 0 else np.zeros(len(gain))
        shown = np.cumsum(weight)
        prec = np.divide(np.cumsum(sp * weight), shown, out=np.zeros(len(shown)), where=shown > 0)
        precision = salton(rec, prec) if total > 0 else np.zeros(len(RECALL_POINTS))
    ap = _ap(precision) if total > 0 else float("nan")
    return Curve(topic, metric, quantisation, ap, precision, rec, prec, total)


def evaluate_topic(ta: TopicAssessments | None, entries: Sequence[RankedElement], metric: str,
                   quantisation: str) -> Curve:
    """One topic, one metric, one quantisation (the window's call)."""
    topic = entries[0].topic if entries else (ta.topic if ta is not None else "")
    totals = topic_totals(ta, quantisation) if ta is not None else Totals(0.0, 0.0, 0.0)
    return curve(topic, rank_values(ta, entries), totals, metric, quantisation)


def topic_curves(ta: TopicAssessments | None, entries: Sequence[RankedElement],
                 combos: Iterable[tuple[str, str]] | None = None) -> dict[tuple[str, str], Curve]:
    """One topic under several ``(metric, quantisation)`` pairs (default all six: the window's
    scores panel, 2002/2003s/2003o side by side for strict and gen), sharing the rank values
    and the totals."""
    combos = list(combos) if combos is not None else [(m, q) for m in METRICS for q in quantise.QUANTISATIONS]
    topic = entries[0].topic if entries else (ta.topic if ta is not None else "")
    values = rank_values(ta, entries)
    totals = {q: topic_totals(ta, q) if ta is not None else Totals(0.0, 0.0, 0.0) for _, q in combos}
    return {(m, q): curve(topic, values, totals[q], m, q) for m, q in combos}


# -- a whole run ------------------------------------------------------------------------------


@dataclass
class ElementEvaluation:
    """A run evaluated: ``curves[(metric, quantisation)][topic]`` -> :class:`Curve`; ``topics``
    the topics evaluated (in assessment order); ``values[measure name][topic]`` and
    ``means[measure name]`` for the ``measures`` asked (NaN when every topic was left out of
    that measure: no mean, printed ``n/a``; docs/reference.md section 13.7); ``diagnostics``."""

    run_id: str
    measures: list[ElementMeasure]
    topics: list[str]
    curves: dict[tuple[str, str], dict[str, Curve]] = field(default_factory=dict)
    values: dict[str, dict[str, float]] = field(default_factory=dict)
    means: dict[str, float] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def evaluate_elements(assessments: ElementAssessments, run: ElementRun,
                      measures: Iterable[ElementMeasure | str] = (), complete: bool = False) -> ElementEvaluation:
    """Evaluate ``run`` against ``assessments`` for ``measures`` (names or
    :class:`ElementMeasure`; default the six ``AP_*`` measures).

    Topics: those of the run that are assessed (``complete``: every assessed topic, one the run
    lacks scoring 0). A run topic that is not assessed is left out with a warning; a topic whose
    denominator is 0 is left out of that measure (warning)."""
    from .measures import DEFAULT_MEASURES, parse_element_measure

    ms = [m if isinstance(m, ElementMeasure) else parse_element_measure(m) for m in (list(measures) or DEFAULT_MEASURES)]
    if complete:
        topics = [t for t, ta in assessments.topics.items() if ta.articles]
    else:
        topics = [t for t in assessments.topics if t in run.topics]
    out = ElementEvaluation(run.run_id, ms, topics)
    unassessed = [t for t in run.topics if t not in assessments.topics]
    if unassessed:
        out.diagnostics.append(Diagnostic(run.path or run.run_id, None, (
            f"{len(unassessed)} topics of run {run.run_id} are not assessed (first: {unassessed[0]}); left out")))
    combos = list(dict.fromkeys((m.metric, m.quantisation) for m in ms))
    totals_memo: dict[tuple[str, str], Totals] = {}
    for t in topics:
        ta = assessments.topics[t]
        values = rank_values(ta, run.topics.get(t, []))
        for metric, q in combos:
            if (t, q) not in totals_memo:
                totals_memo[(t, q)] = topic_totals(ta, q)
            out.curves.setdefault((metric, q), {})[t] = curve(t, values, totals_memo[(t, q)], metric, q)
    for m in ms:
        per = out.values[m.name] = {}
        empty = []
        for t in topics:
            c = out.curves[(m.metric, m.quantisation)][t]
            if c.total <= 0:
                empty.append(t)
                continue
            per[t] = c.ap if m.kind == "AP" else c.at(m.x)
        out.means[m.name] = float(np.mean(list(per.values()))) if per else math.nan
        if empty and not per:  # no topic left: no mean (printed n/a), said once here
            out.diagnostics.append(Diagnostic(run.path or run.run_id, None, (
                (f"{m.name}: topic {empty[0]} has nothing relevant" if len(empty) == 1 else
                 f"{m.name}: none of the {len(empty)} topics (first: {empty[0]}) has anything relevant")
                + f" under {m.quantisation} quantisation; no mean (n/a)")))
        elif empty:
            out.diagnostics.append(Diagnostic(run.path or run.run_id, None, (
                f"{m.name}: {len(empty)} topics have nothing relevant under {m.quantisation} quantisation "
                f"(first: {empty[0]}); left out of the mean")))
    return out
