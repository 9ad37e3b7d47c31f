"""The list measures' arithmetic: one topic's vectors of document scores -> numbers (reference
section 5; the formulas and policies are in :mod:`readsim.core.listmeasures`' docstring, the
declarations that use them in :mod:`readsim.core.list_kinds`). Pure numpy, no input or output."""

from __future__ import annotations

import numpy as np

from .registry import FOCUSED_POINTS, INCONTEXT_POINTS

# -- the arithmetic: one topic's vectors -> numbers -----------------------------------------


def generalised_precision(scores: np.ndarray) -> np.ndarray:
    """``gP[r] = sum_{j<=r} S(d_j) / r`` for r = 1..n: float array of shape ``(n,)``."""
    s = np.asarray(scores, dtype=float)
    return np.cumsum(s) / np.arange(1, len(s) + 1) if len(s) else np.zeros(0)


def generalised_recall(relevant: np.ndarray, nrel: int) -> np.ndarray:
    """``gR[r] = (relevant articles among the first r) / nrel``, shape ``(n,)``; the division is
    done as the official tool does (``(double) relAtRank / totalRelDocs``). ``nrel`` >= 1."""
    return np.cumsum(np.asarray(relevant, dtype=np.int64)) / nrel


def gp_at(scores: np.ndarray, r: int, plain: bool = False) -> float:
    """gP at rank ``r`` (>= 1). Past the end of the ranking: the last rank's value (policy 1),
    or with ``plain`` the sum of all scores / r; 0 for an empty ranking."""
    n = len(scores)
    if n == 0:
        return 0.0
    if r <= n:
        return float(np.sum(scores[:r], dtype=float) / r)
    return float(np.sum(scores, dtype=float) / (r if plain else n))


def gr_at(relevant: np.ndarray, nrel: int, r: int) -> float:
    """gR at rank ``r`` (the last rank's value past the end; 0 for an empty ranking)."""
    if len(relevant) == 0:
        return 0.0
    return float(np.count_nonzero(relevant[:r]) / nrel)


def agp(scores: np.ndarray, relevant: np.ndarray, nrel: int) -> float:
    """AgP = ``sum_r isrel(d_r) gP[r] / nrel`` (``nrel`` >= 1)."""
    if len(scores) == 0:
        return 0.0
    return float(np.sum(generalised_precision(scores)[np.asarray(relevant, dtype=bool)]) / nrel)


def agp_prime(scores: np.ndarray, relevant: np.ndarray, rsize: np.ndarray, trel_size: int) -> float:
    """AgP' = ``sum_r rsize(d_r) / Trel_size * isrel(d_r) * gP[r]`` (``trel_size`` >= 1)."""
    if len(scores) == 0:
        return 0.0
    weight = np.where(np.asarray(relevant, dtype=bool), np.asarray(rsize, dtype=float), 0.0)
    return float(np.dot(generalised_precision(scores), weight) / trel_size)


def average_precision(relevant: np.ndarray, nrel: int) -> float:
    """MAP's per-topic value: AgP with S = isrel."""
    rel = np.asarray(relevant, dtype=bool)
    return agp(rel.astype(float), rel, nrel)


def interpolate(points: np.ndarray) -> np.ndarray:
    """Each point takes the highest value at or above it (``Topic.FillIP``)."""
    return np.maximum.accumulate(np.asarray(points, dtype=float)[::-1])[::-1]


def interpolated_curve(precision: np.ndarray, recall: np.ndarray, points: int = INCONTEXT_POINTS) -> np.ndarray:
    """Interpolated precision at ``points`` recall points 0, 1/(points-1), .., 1 (policy 3).

    ``precision`` and ``recall`` are per rank (shape ``(n,)``); the rank's recall point is
    ``floor((points - 1) * recall)`` (values above 1 are clipped to the last point). Returns
    a float array of shape ``(points,)``.
    """
    curve = np.zeros(points)
    if len(precision):
        index = np.clip(np.floor((points - 1) * np.asarray(recall, dtype=float)).astype(np.int64), 0, points - 1)
        np.maximum.at(curve, index, np.asarray(precision, dtype=float))
    return interpolate(curve)


def ideal_effort(nrel: int, depth: int, nr: float) -> np.ndarray:
    """IE[1..depth]: ``nrel`` ones (minES), then NR."""
    ie = np.full(depth, float(nr))
    ie[: min(nrel, depth)] = 1.0
    return ie


def effort_vector(es: np.ndarray, depth: int, nr: float) -> np.ndarray:
    """ES at ranks 1..depth: the run's, then NR past its end (policy 2)."""
    out = np.full(depth, float(nr))
    k = min(depth, len(es))
    out[:k] = np.asarray(es, dtype=float)[:k]
    return out


def cumulated_effort(es: np.ndarray, depth: int, nr: float, min_es: float = 1.0) -> np.ndarray:
    """CE[1..depth] = ``cumsum(ES / minES - 1)``, ES past the run's end = NR."""
    return np.cumsum(effort_vector(es, depth, nr) / min_es - 1.0)


def normalized_cumulated_effort(es: np.ndarray, nrel: int, depth: int, nr: float) -> np.ndarray:
    """NCE[1..depth] = ``cumsum(ES / IE - 1)``."""
    return np.cumsum(effort_vector(es, depth, nr) / ideal_effort(nrel, depth, nr) - 1.0)


def average_nce(es: np.ndarray, nrel: int, depth: int, nr: float) -> float:
    """ANCE[depth] = ``sum_{j<=depth} NCE[j] / depth``."""
    return float(np.mean(normalized_cumulated_effort(es, nrel, depth, nr)))


def focused_curve(rel_sizes: np.ndarray, sizes: np.ndarray, total_rsize: int, points: int = FOCUSED_POINTS) -> np.ndarray:
    """The Focused task's interpolated precision at ``points`` recall points (policy 9).

    ``rel_sizes[k]``, ``sizes[k]``: relevant and retrieved size of the k-th result line (the
    unit of the offsets); ``total_rsize`` the topic's relevant size (>= 1). Lines retrieving
    nothing new (size 0) before any text is read are skipped (precision undefined).
    """
    ret = np.cumsum(np.asarray(sizes, dtype=np.int64))
    relret = np.cumsum(np.asarray(rel_sizes, dtype=np.int64))
    ok = ret > 0
    precision = relret[ok] / ret[ok]
    recall = relret[ok] / total_rsize
    return interpolated_curve(precision, recall, points)


def character_precision(rel_sizes: np.ndarray, sizes: np.ndarray) -> float:
    """Set-based character precision of a topic's result lines: relevant text retrieved /
    text retrieved (0 when nothing is retrieved), each line's sizes as :func:`focused_curve`
    takes them (text an earlier line retrieved counting once). With a Restricted Focused run
    cut to its first 1,000 characters, the task's measure (reference 5.14)."""
    retrieved = int(np.sum(sizes, dtype=np.int64))
    return int(np.sum(rel_sizes, dtype=np.int64)) / retrieved if retrieved else 0.0


def bep_score(bep: int | None, entry: int, d_max: int = 500) -> float:
    """Best in Context: ``(d_max - |bep - entry|) / d_max`` if the distance is at most
    ``d_max``, else 0; 0 without a best entry point (``Topic.ComputeBEPScore``)."""
    if bep is None:
        return 0.0
    distance = abs(bep - entry)
    return 0.0 if distance > d_max else (d_max - distance) / d_max
