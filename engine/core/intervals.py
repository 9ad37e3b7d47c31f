"""Sorted, disjoint, half-open intervals as ``(k, 2)`` int64 numpy arrays.

Every function here takes and returns *normalized* arrays: rows ``[start, end)`` with
``start < end``, sorted by start, pairwise disjoint and not touching (``end_i < start_{i+1}``).
Offsets are in whatever unit the caller uses (UTF-8 bytes or characters); the functions
never look at text. Cost is O(k log k) for :func:`normalize`, O(k + m) for the set operations.
The functions at the end work on the spans of many articles at once (each row tagged with its
article's group id, rows sorted by group), with no loop over articles.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

EMPTY = np.zeros((0, 2), dtype=np.int64)
SHIFT = 41
"""Offsets are below 2^40 and ends below 2^41: ``group << SHIFT | end`` orders by group, then end."""


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
    """Positions in normalized ``a`` and not in normalized ``b``, normalized: the pieces of
    :func:`split` that lie outside ``b`` (two of them never touch)."""
    return as_array([(start, end) for start, end, inside in split(a, b) if not inside])


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


# -- many articles at once: spans tagged with a group (article) id, sorted by group -----------


def starts_of_changes(*columns: np.ndarray) -> np.ndarray:
    """Indices where any column differs from the previous row (0 included; empty for no rows)."""
    n = len(columns[0])
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    change = np.zeros(n, dtype=bool)
    change[0] = True
    for c in columns:
        change[1:] |= c[1:] != c[:-1]
    return np.flatnonzero(change)


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (``np.unique`` without its options, which in numpy 2.4
    imports ``numpy.ma`` on first use: 8 ms of every command's start)."""
    v = np.sort(values)
    return v[np.concatenate([[True], v[1:] != v[:-1]])] if len(v) else v


def dense_ids(keys: np.ndarray) -> tuple[np.ndarray, int]:
    """``(ids, count)``: equal keys get equal ids ``0 .. count - 1`` (in key order); one sort."""
    n = len(keys)
    if n == 0:
        return np.zeros(0, dtype=np.int64), 0
    o = np.argsort(keys)
    k = keys[o]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(k[1:], k[:-1], out=new[1:])
    ids = np.empty(n, dtype=np.int64)
    ids[o] = np.cumsum(new) - 1
    return ids, int(ids.max()) + 1 if n else 0


def pair_order(small: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The order of rows sorted by ``(small, keys, row)`` (``small``: ids from 0, ``keys``: any
    sortable values), as ``np.lexsort((keys, small))`` gives it, with one plain sort of a
    combined key (``lexsort``'s stable passes are many times slower)."""
    n = len(keys)
    ids, count = dense_ids(keys)
    width = int(small.max()) + 1 if n else 1
    if n and width * count * n < (1 << 62):
        return np.argsort((small.astype(np.int64) * count + ids) * n + np.arange(n))
    return np.lexsort((keys, small))


def group_min(out: np.ndarray, gid: np.ndarray, values: np.ndarray) -> None:
    """``out[g] = min(out[g], values of group g)`` for ``gid`` sorted (runs of equal ids)."""
    starts = starts_of_changes(gid)
    out[gid[starts]] = np.minimum(out[gid[starts]], np.minimum.reduceat(values, starts))


def normalize_groups(gid: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                     groups: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Unite each group's spans (non-empty, sorted by group then start) as :func:`normalize`
    does one article's: ``(starts, ends, group of each united span, groups whose spans
    overlap)``; touching spans are united without counting as an overlap (:func:`overlaps`).
    ``groups`` bounds the group ids."""
    if not len(gid):
        z = np.zeros(0, dtype=np.int64)
        return z, z.copy(), z.copy(), z.copy()
    limit = 1 << (63 - SHIFT - 1)
    if int(gid[-1]) >= limit:  # more than 2 million groups: by slices of groups
        cuts = np.searchsorted(gid, np.arange(0, groups + limit, limit))
        parts = [normalize_groups(gid[a:b] - k * limit, starts[a:b], ends[a:b], limit)
                 for k, (a, b) in enumerate(zip(cuts[:-1], cuts[1:]))]
        return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
                np.concatenate([p[2] + k * limit for k, p in enumerate(parts)]),
                np.concatenate([p[3] + k * limit for k, p in enumerate(parts)]))
    base = gid << SHIFT
    reach = np.maximum.accumulate(base + ends)
    reach -= base  # the furthest end so far in the group
    same = gid[1:] == gid[:-1]
    before = reach[:-1]
    new = np.ones(len(gid), dtype=bool)
    new[1:] = ~same | (starts[1:] > before)
    overlap = same & (starts[1:] < before)
    overlapping = distinct(gid[1:][overlap]) if overlap.any() else np.zeros(0, dtype=np.int64)
    if new.all():  # nothing to unite
        return starts, ends, gid, overlapping
    heads = np.flatnonzero(new)
    return starts[heads], np.maximum.reduceat(ends, heads), gid[heads], overlapping
