"""Sorted, disjoint, half-open intervals as ``(k, 2)`` int64 numpy arrays.

Every function here takes and returns *normalized* arrays: rows ``[start, end)`` with
``start < end``, sorted by start, pairwise disjoint and not touching (``end_i < start_{i+1}``).
Offsets are in whatever unit the caller uses (UTF-8 bytes or characters); the functions
never look at text. Cost is O(k log k) for :func:`normalize`, O(k + m) for the set operations.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

EMPTY = np.zeros((0, 2), dtype=np.int64)


def as_array(spans: Iterable[tuple[int, int]] | np.ndarray) -> np.ndarray:
    """Return ``spans`` as a ``(k, 2)`` int64 array (not normalized)."""
    arr = np.asarray(list(spans) if not isinstance(spans, np.ndarray) else spans, dtype=np.int64)
    if arr.size == 0:
        return EMPTY.copy()
    return arr.reshape(-1, 2)


def normalize(spans: Iterable[tuple[int, int]] | np.ndarray) -> np.ndarray:
    """Union of ``spans``: drop empty rows, sort, merge overlapping or touching rows.

    Returns a normalized ``(k, 2)`` int64 array.
    """
    arr = as_array(spans)
    arr = arr[arr[:, 1] > arr[:, 0]]
    if len(arr) <= 1:
        return arr.copy()
    arr = arr[np.argsort(arr[:, 0], kind="stable")]
    ends = np.maximum.accumulate(arr[:, 1])
    # a new group starts where the start is past every end seen so far
    new = np.empty(len(arr), dtype=bool)
    new[0] = True
    new[1:] = arr[1:, 0] > ends[:-1]
    group = np.cumsum(new) - 1
    starts = arr[new, 0]
    out_ends = np.zeros(len(starts), dtype=np.int64)
    np.maximum.at(out_ends, group, arr[:, 1])
    return np.column_stack([starts, out_ends])


def overlaps(spans: Iterable[tuple[int, int]] | np.ndarray) -> bool:
    """True if two non-empty rows of ``spans`` share at least one position."""
    arr = as_array(spans)
    arr = arr[arr[:, 1] > arr[:, 0]]
    if len(arr) <= 1:
        return False
    arr = arr[np.argsort(arr[:, 0], kind="stable")]
    return bool(np.any(arr[1:, 0] < np.maximum.accumulate(arr[:-1, 1])))


def total(spans: np.ndarray) -> int:
    """Number of positions covered by the normalized ``spans``."""
    return int((spans[:, 1] - spans[:, 0]).sum()) if len(spans) else 0


def clip(spans: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Restrict normalized ``spans`` to ``[lo, hi)``."""
    if not len(spans):
        return spans.copy()
    out = np.column_stack([np.maximum(spans[:, 0], lo), np.minimum(spans[:, 1], hi)])
    return out[out[:, 1] > out[:, 0]]


def intersect(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Positions in both normalized ``a`` and ``b``, normalized."""
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo = max(a[i, 0], b[j, 0])
        hi = min(a[i, 1], b[j, 1])
        if lo < hi:
            out.append((lo, hi))
        if a[i, 1] < b[j, 1]:
            i += 1
        else:
            j += 1
    return as_array(out)


def subtract(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Positions in normalized ``a`` and not in normalized ``b``, normalized."""
    out: list[tuple[int, int]] = []
    j = 0
    for start, end in a.tolist():
        cur = start
        while j < len(b) and b[j, 1] <= cur:
            j += 1
        k = j
        while k < len(b) and b[k, 0] < end:
            if b[k, 0] > cur:
                out.append((cur, int(b[k, 0])))
            cur = max(cur, int(b[k, 1]))
            k += 1
        if cur < end:
            out.append((cur, end))
    return as_array(out)


def complement(spans: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Positions of ``[lo, hi)`` not in normalized ``spans``."""
    return subtract(as_array([(lo, hi)]) if hi > lo else EMPTY, spans)


def split(spans: np.ndarray, by: np.ndarray) -> list[tuple[int, int, bool]]:
    """Cut normalized ``spans`` into homogeneous pieces ``(start, end, inside_by)``.

    The pieces cover exactly ``spans``, in document order; ``inside_by`` tells whether the
    piece lies in normalized ``by``. Adjacent pieces of one span alternate in ``inside_by``.
    """
    pieces: list[tuple[int, int, bool]] = []
    j = 0
    for start, end in spans.tolist():
        cur = start
        while j < len(by) and by[j, 1] <= cur:
            j += 1
        k = j
        while cur < end:
            if k < len(by) and by[k, 0] <= cur:
                stop = min(end, int(by[k, 1]))
                pieces.append((cur, stop, True))
                cur = stop
                if by[k, 1] <= cur:
                    k += 1
            else:
                stop = min(end, int(by[k, 0])) if k < len(by) else end
                pieces.append((cur, stop, False))
                cur = stop
    return pieces


def covered(spans: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``|spans ∩ [starts[i], ends[i])|`` for each i: ``spans`` normalized ``(k, 2)``,
    ``starts``/``ends`` int arrays of one shape (e.g. every element of an article at once);
    O((k + n) log k), no loop over positions."""
    starts, ends = np.asarray(starts, np.int64), np.asarray(ends, np.int64)
    if not len(spans):
        return np.zeros(starts.shape, np.int64)
    lo, hi = spans[:, 0], spans[:, 1]
    before = np.concatenate([[0], np.cumsum(hi - lo)])  # total length of spans[:i]

    def upto(x: np.ndarray) -> np.ndarray:  # |spans ∩ [0, x)|
        i = np.searchsorted(lo, x, side="right")  # spans starting at or before x
        last = np.maximum(i - 1, 0)
        inside = np.where(i > 0, np.minimum(x - lo[last], hi[last] - lo[last]), 0)
        return before[last] + np.maximum(inside, 0)

    return upto(ends) - upto(starts)
