"""Closed forms of loss's per-article costs (reference section 5.11): a list measure's change
when one article's score is replaced or one article is moved, for every article at once in
O(n), declared as ``replaced`` and ``moved`` of AgP and gP@r in :mod:`readsim.core.list_kinds`. A
measure with costs but without them is evaluated over all n variants at once
(:func:`readsim.core.costs.list_values`). Pure numpy."""

from __future__ import annotations

import numpy as np


def _prefix(x: np.ndarray) -> np.ndarray:
    """``P[j] = x[0] + ... + x[j-1]`` (float ``(n + 1,)``): a sum over ``[a, b)`` is ``P[b] - P[a]``."""
    return np.concatenate(([0.0], np.cumsum(x)))


def agp_replaced(measure, rel: np.ndarray, s: np.ndarray, new: np.ndarray, nrel: int) -> np.ndarray:
    """AgP with S(d_k) alone replaced by ``new[k]``, minus as is, for every k: AgP is linear in S
    and S(d_k) enters gP[r] / r for every r >= k, so the change is ``(new[k] - S(d_k))
    sum_{r >= k} isrel(d_r) / r / Nrel`` (a reversed cumulative sum)."""
    weight = np.cumsum((rel / np.arange(1, len(s) + 1))[::-1])[::-1]
    return (new - s) * weight / nrel


def agp_moved(measure, rel: np.ndarray, s: np.ndarray, places: np.ndarray, nrel: int) -> np.ndarray:
    """AgP with article k alone moved to 0-based place ``places[k]``, minus as is, for every k,
    from prefix sums (C: the cumulative scores, C[j] = sum_{i <= j} S(d_i)). Moving k up to p < k
    shifts d_p .. d_{k-1} one rank down, each adding S(d_k) to its cumulative score: the ranks p ..
    k then sum ``isrel(d_k) (C[p-1] + S(d_k)) / (p+1) + sum_{i=p}^{k-1} isrel(d_i) (C[i] + S(d_k))
    / (i+2)``; moving it down to p > k shifts d_{k+1} .. d_p one rank up, each losing S(d_k):
    ``sum_{i=k+1}^{p} isrel(d_i) (C[i] - S(d_k)) / i + isrel(d_k) C[p] / (p+1)``; as is, the same
    ranks sum ``isrel(d_j) C[j] / (j+1)``."""
    n = len(s)
    c = np.cumsum(s)
    i = np.arange(n, dtype=float)
    relf = rel.astype(float)
    d, a, b = _prefix(relf * c / (i + 1)), _prefix(relf * c / (i + 2)), _prefix(relf / (i + 2))
    e, f = _prefix(relf * c / np.maximum(i, 1)), _prefix(relf / np.maximum(i, 1))
    k = np.arange(n)
    p = np.asarray(places, dtype=np.int64)
    before = np.where(p > 0, c[np.maximum(p - 1, 0)], 0.0)
    up = relf * (before + s) / (p + 1) + (a[k] - a[p]) + s * (b[k] - b[p]) - (d[k + 1] - d[p])
    down = (e[p + 1] - e[k + 1]) - s * (f[p + 1] - f[k + 1]) + relf * c[p] / (p + 1) - (d[p + 1] - d[k])
    return np.where(p < k, up, np.where(p > k, down, 0.0)) / nrel


def _gp_cut(measure, n: int) -> tuple[int, int]:
    """gP@r's ranks summed (``m = min(r, n)``) and its denominator (r; past the end of the run,
    n, or r for gP(plain): policy 1 of :mod:`readsim.core.listmeasures`)."""
    r = measure.cutoff
    return min(r, n), (r if r <= n or measure.plain else n)


def gp_replaced(measure, rel: np.ndarray, s: np.ndarray, new: np.ndarray, nrel: int) -> np.ndarray:
    """gP@r with S(d_k) alone replaced: changed by ``(new - S(d_k)) / denominator`` within the
    first m ranks, unchanged below."""
    m, denominator = _gp_cut(measure, len(s))
    return np.where(np.arange(len(s)) < m, (new - s) / max(denominator, 1), 0.0)


def gp_moved(measure, rel: np.ndarray, s: np.ndarray, places: np.ndarray, nrel: int) -> np.ndarray:
    """gP@r with article k alone moved to ``places[k]``: it changes only when k crosses the cut
    after rank m: leaving it, d_m comes in; entering it, d_{m-1} goes out."""
    n = len(s)
    m, denominator = _gp_cut(measure, n)
    k = np.arange(n)
    p = np.asarray(places, dtype=np.int64)
    comes = s[min(m, n - 1)] if n else 0.0
    goes = s[max(m - 1, 0)] if n else 0.0
    out = np.where((k < m) & (p >= m), comes - s, np.where((k >= m) & (p < m), s - goes, 0.0))
    return out / max(denominator, 1)
