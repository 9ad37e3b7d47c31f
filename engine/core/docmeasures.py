"""Document measures over a reading order's pieces (docs/reference.md section 4).

Every function takes the pieces of :func:`readsim.core.reading.reading_order` and the number of
relevant positions ``nrc`` = |R| (in the unit: bytes or characters), and runs in
O(len(pieces)): closed forms per piece, never a loop over characters. Positions ``i`` count
units read, 1-based; ``P(i)`` is the share of relevant units among the first ``i``.

Sources: Arvola, Kekäläinen, Junkkari, *Expected reading effort in focused retrieval
evaluation*, Information Retrieval 13(5), 2010: aveChP and ChP@k (section 4.1), T2I
precision/recall/F (section 4.1), LE, ES (section 4.2 and equation of section 5.2); the
set-based F of INEX 2008-2010 (Kamps et al. 2007; docs/reference.md section 4.6).

A non-relevant article (``nrc == 0``) scores 0 on every precision/recall/F measure; its LE and
ES are NR = levels + 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from . import intervals as iv
from .reading import Piece

_EULER = 0.5772156649015329
_SMALL = 64
_H_SMALL = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, _SMALL + 1))])


def harmonic_diff(a: int, b: int) -> float:
    """``H(b) - H(a)`` = sum of ``1/k`` for ``k`` in ``a+1 .. b`` (``0 <= a <= b``), in O(1).

    Exact table below 64, the asymptotic expansion of the harmonic numbers above, written as
    a difference with ``log1p`` so that long reads far into an article keep full precision.
    """
    if b <= a:
        return 0.0
    if b <= _SMALL:
        return float(_H_SMALL[b] - _H_SMALL[a])
    if a < _SMALL:
        return float(_H_SMALL[_SMALL] - _H_SMALL[a]) + harmonic_diff(_SMALL, b)

    def tail(n: float) -> float:  # H(n) - ln(n) - gamma, to O(n^-8)
        n2 = n * n
        return 1 / (2 * n) - 1 / (12 * n2) + 1 / (120 * n2 * n2) - 1 / (252 * n2 * n2 * n2)

    return math.log1p((b - a) / a) + tail(b) - tail(a)


def ave_chp(pieces: Sequence[Piece], nrc: int) -> float:
    """Average character precision: ``(1/NRC) * sum over relevant read positions i of P(i)``.

    Over a relevant piece of length L read after ``p`` positions of which ``r`` relevant,
    ``sum_{j=1..L} (r+j)/(p+j) = L - (p-r) * (H(p+L) - H(p))``. Arvola et al. 2010, section 4.1.
    Returns 0 when ``nrc == 0``.
    """
    if nrc <= 0:
        return 0.0
    total = 0.0
    pos = rel = 0
    for piece in pieces:
        length = piece.length
        if piece.relevant:
            total += length - (pos - rel) * harmonic_diff(pos, pos + length)
            rel += length
        pos += length
    return total / nrc


def relevant_read(pieces: Sequence[Piece], k: int) -> int:
    """Relevant positions among the first ``k`` read."""
    pos = rel = 0
    for piece in pieces:
        if pos >= k:
            break
        take = min(piece.length, k - pos)
        rel += take if piece.relevant else 0
        pos += take
    return rel


def extent(pieces: Sequence[Piece]) -> int:
    """Positions read in all, n."""
    return sum(p.length for p in pieces)


def chp_at(pieces: Sequence[Piece], nrc: int, k: int) -> float:
    """ChP@k: precision of the first ``min(k, n)`` positions read (0 if none or ``nrc == 0``)."""
    m = min(k, extent(pieces))
    if nrc <= 0 or m <= 0:
        return 0.0
    return relevant_read(pieces, m) / m


def chr_at(pieces: Sequence[Piece], nrc: int, k: int) -> float:
    """ChR@k: share of the ``nrc`` relevant positions among the first ``k`` read."""
    if nrc <= 0:
        return 0.0
    return relevant_read(pieces, max(k, 0)) / nrc


def t2i_stop(pieces: Sequence[Piece], tolerance: int) -> tuple[int, int]:
    """Where the T2I reader stops: ``(m, relevant_read)``.

    The reader stops right after reading the ``tolerance``-th non-relevant position, or at
    the end of the reading order. ``tolerance`` must be >= 1 (``ValueError`` otherwise).
    """
    if tolerance < 1:
        raise ValueError(f"T2I tolerance must be >= 1 character, not {tolerance}")
    pos = rel = nonrel = 0
    for piece in pieces:
        if piece.relevant:
            pos += piece.length
            rel += piece.length
            continue
        if nonrel + piece.length >= tolerance:
            return pos + tolerance - nonrel, rel
        nonrel += piece.length
        pos += piece.length
    return pos, rel


def f_score(precision: float, recall: float, beta: float = 1.0) -> float:
    """``(1+b^2) P R / (b^2 P + R)``, 0 when ``P + R == 0``."""
    b2 = beta * beta
    denom = b2 * precision + recall
    return (1 + b2) * precision * recall / denom if denom > 0 else 0.0


def t2i(pieces: Sequence[Piece], nrc: int, tolerance: int, alpha: float = 1.0) -> tuple[float, float, float]:
    """T2I precision, recall and F_alpha: ``(T2IP, T2IR, T2IF)`` (Arvola et al. 2010, 4.1).

    With ``m`` positions read up to the stop of :func:`t2i_stop`: T2IP = relevant read / m,
    T2IR = relevant read / NRC, T2IF = F_alpha of the two. All 0 when ``nrc == 0``.
    """
    if nrc <= 0:
        return 0.0, 0.0, 0.0
    m, rel = t2i_stop(pieces, tolerance)
    p = rel / m if m else 0.0
    r = rel / nrc
    return p, r, f_score(p, r, alpha)


def first_relevant(pieces: Sequence[Piece]) -> int | None:
    """1-based reading position of the first relevant position read, or None."""
    pos = 0
    for piece in pieces:
        if piece.relevant and piece.length:
            return pos + 1
        pos += piece.length
    return None


def localizing_effort(pieces: Sequence[Piece], screen: int, levels: int = 4) -> int:
    """LE(s): 1 if the first relevant position f <= s, 2 if f <= 2s, ..., capped at ``levels``.

    Arvola et al. 2010, section 5.2 (L = 4 there). With no relevant position read the
    article is non-relevant and LE = NR = ``levels + 1``. ``screen`` >= 1.
    """
    if screen < 1:
        raise ValueError(f"screen size must be >= 1 character, not {screen}")
    f = first_relevant(pieces)
    if f is None:
        return levels + 1
    return min(-(-f // screen), levels)


def effort_score(pieces: Sequence[Piece], nrc: int, screen: int, levels: int = 4) -> int:
    """ES: LE(s) for a relevant article (``nrc > 0``), NR = ``levels + 1`` otherwise."""
    return localizing_effort(pieces, screen, levels) if nrc > 0 else levels + 1


def set_scores(relevant_retrieved: int, retrieved: int, nrc: int, beta: float = 0.25) -> tuple[float, float, float]:
    """INEX's set-based ``(P, R, F_beta)`` of one article (official measure, beta 0.25).

    P = |R n T| / |T|, R = |R n T| / |R|; all 0 when the article is not relevant.
    """
    if nrc <= 0:
        return 0.0, 0.0, 0.0
    p = relevant_retrieved / retrieved if retrieved else 0.0
    r = relevant_retrieved / nrc
    return p, r, f_score(p, r, beta)


def precision_curve(pieces: Sequence[Piece], nrc: int, samples: int = 400) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision and recall against positions read, for plotting.

    Returns ``(x, precision, recall)`` float arrays: ``x`` holds every piece boundary plus
    about ``samples`` evenly spaced positions (precision is hyperbolic inside a piece), from 1
    to n. Exact at every returned point; O(pieces + samples).
    """
    n = extent(pieces)
    if n == 0:
        z = np.zeros(0)
        return z, z, z
    bounds = [0]
    rel_at = [0]
    for piece in pieces:
        bounds.append(bounds[-1] + piece.length)
        rel_at.append(rel_at[-1] + (piece.length if piece.relevant else 0))
    b = np.asarray(bounds, dtype=np.int64)
    r = np.asarray(rel_at, dtype=np.int64)
    x = iv.distinct(np.concatenate([b[1:], b[1:-1] + 1, np.linspace(1, n, samples).round().astype(np.int64)]))
    x = x[(x >= 1) & (x <= n)]
    k = np.searchsorted(b, x, side="left") - 1  # piece holding position x (1-based)
    k = np.clip(k, 0, len(pieces) - 1)
    flags = np.asarray([p.relevant for p in pieces], dtype=bool)
    relx = r[k] + np.where(flags[k], x - b[k], 0)
    prec = relx / x
    rec = relx / nrc if nrc > 0 else np.zeros_like(prec)
    return x.astype(float), prec, rec


def piece_arrays(pieces: Sequence[Piece]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per piece in reading order: ``(length, relevant, read, rel_read)``, the last two running
    totals including the piece."""
    length = np.fromiter((p.end - p.start for p in pieces), dtype=np.int64, count=len(pieces))
    relevant = np.fromiter((p.relevant for p in pieces), dtype=bool, count=len(pieces))
    return length, relevant, np.cumsum(length), np.cumsum(np.where(relevant, length, 0))


def relevant_reads(length, relevant, read, rel_read, k: np.ndarray) -> np.ndarray:
    """Relevant positions among the first ``k`` read, per ``k`` (int64; ``k`` at most the extent),
    over the arrays of :func:`piece_arrays`."""
    if not len(length):
        return np.zeros(len(k), dtype=np.int64)
    at = np.minimum(np.searchsorted(read, k, side="left"), len(read) - 1)
    before = read[at] - length[at]
    inside = rel_read[at] - np.where(relevant[at], length[at], 0) + np.where(relevant[at], k - before, 0)
    return np.where(k <= 0, 0, inside)


# -- many articles at once (readsim.core.doc_evaluation.DocumentBatch) -------------------------------------


def harmonic_diffs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:func:`harmonic_diff` element-wise over int64 arrays (the same formula, branch by branch)."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    out = np.zeros(np.broadcast(a, b).shape)
    small = (b > a) & (b <= _SMALL)
    out[small] = _H_SMALL[b[small]] - _H_SMALL[a[small]]
    big = (b > a) & (b > _SMALL)
    if np.any(big):
        lo, hi = a[big], b[big]
        head = np.where(lo < _SMALL, _H_SMALL[_SMALL] - _H_SMALL[np.minimum(lo, _SMALL)], 0.0)
        start = np.maximum(lo, _SMALL)

        def tail(n: np.ndarray) -> np.ndarray:
            n = n.astype(float)
            n2 = n * n
            return 1 / (2 * n) - 1 / (12 * n2) + 1 / (120 * n2 * n2) - 1 / (252 * n2 * n2 * n2)

        rest = np.log1p((hi - start) / start) + tail(hi) - tail(start)
        out[big] = np.where(lo < _SMALL, head + rest, rest)
    return out


def f_scores(precision: np.ndarray, recall: np.ndarray, beta: float = 1.0) -> np.ndarray:
    """:func:`f_score` element-wise."""
    b2 = beta * beta
    denom = b2 * precision + recall
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denom > 0, (1 + b2) * precision * recall / denom, 0.0)
