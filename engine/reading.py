"""Reading orders of one article as pieces (SPEC section 4; Arvola et al. 2010, section 2).

A reading order is the sequence in which the simulated user reads the article's positions.
It is represented as a short tuple of homogeneous :class:`Piece` s ``(start, end, relevant)``
in reading sequence, never as a list of characters: its size is O(passages), and every
measure in :mod:`engine.docmeasures` is a scan over it. Offsets are in the caller's unit
(UTF-8 bytes or characters) and half-open.

With R the relevant positions and T the retrieved ones, the **matching chain** reads T in
document order; what is left of ``[0, n)`` follows the mode:

- ``natural``: back to the start, the rest in document order (the paper's natural case);
- ``worst``: the rest that is not relevant in document order, then the rest that is relevant;
- ``best``: the rest that is relevant first, then the rest (a teaching contrast only);
- ``document``: T is ignored; the whole article from its start (full-document baseline);
- ``entry``: T is ignored; the reader starts at an entry point ``e`` (Best in Context), reads
  ``[e, n)`` and then **wraps around** to read ``[0, e)`` from the start. ``e`` is clamped to
  ``[0, n]``.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

import numpy as np

from . import intervals as iv


class Mode(str, Enum):
    """How the reader goes on after the matching chain."""

    NATURAL = "natural"
    WORST = "worst"
    BEST = "best"
    DOCUMENT = "document"
    ENTRY = "entry"

    def __str__(self) -> str:
        return self.value


class Piece(NamedTuple):
    """A run of positions ``[start, end)`` read one after another, all relevant or all not."""

    start: int
    end: int
    relevant: bool

    @property
    def length(self) -> int:
        return self.end - self.start


Pieces = tuple[Piece, ...]


def reading_order(
    n: int,
    relevant: np.ndarray,
    retrieved: np.ndarray | None,
    mode: Mode | str = Mode.NATURAL,
    entry: int = 0,
) -> Pieces:
    """The reading order of an article of ``n`` positions, as pieces.

    Parameters
    ----------
    n: the article's extent in the unit; positions ``[0, n)`` are read. Callers pass
       ``max(doc_length, end of the last retrieved passage)`` so that retrieved text past
       doc_length is read as non-relevant (the official INEX tool's rule, SPEC section 7).
    relevant: normalized ``(k, 2)`` intervals R (clipped to ``[0, n)`` here).
    retrieved: normalized ``(m, 2)`` intervals T, or ``None`` for the whole article
       (a result with no passage).
    mode: a :class:`Mode` or its value.
    entry: the entry point for ``Mode.ENTRY``.

    Returns a tuple of :class:`Piece`; their lengths sum to ``n``. Raises ``ValueError`` on
    an unknown mode or a negative ``n``.
    """
    mode = Mode(mode)
    if n < 0:
        raise ValueError(f"article extent must be >= 0, not {n}")
    rel = iv.clip(relevant, 0, n)
    whole = iv.as_array([(0, n)]) if n else iv.EMPTY
    if mode is Mode.DOCUMENT or (retrieved is None and mode is not Mode.ENTRY):
        return _pieces(iv.split(whole, rel))
    if mode is Mode.ENTRY:
        e = min(max(int(entry), 0), n)
        first = iv.split(iv.as_array([(e, n)]) if e < n else iv.EMPTY, rel)
        second = iv.split(iv.as_array([(0, e)]) if e else iv.EMPTY, rel)
        return _pieces(first + second)
    ret = iv.clip(retrieved, 0, n)
    chain = iv.split(ret, rel)
    rest = iv.split(iv.complement(ret, 0, n), rel)
    if mode is Mode.NATURAL:
        tail = rest
    elif mode is Mode.WORST:
        tail = [p for p in rest if not p[2]] + [p for p in rest if p[2]]
    else:  # best
        tail = [p for p in rest if p[2]] + [p for p in rest if not p[2]]
    return _pieces(chain + tail)


def _pieces(raw: list[tuple[int, int, bool]]) -> Pieces:
    """Pieces from raw triples, merging neighbours that continue each other."""
    out: list[Piece] = []
    for start, end, rel in raw:
        if end <= start:
            continue
        if out and out[-1].end == start and out[-1].relevant == rel:
            out[-1] = Piece(out[-1].start, end, rel)
        else:
            out.append(Piece(int(start), int(end), bool(rel)))
    return tuple(out)


def window(pieces: Pieces, first: int, last: int) -> list[tuple[int, int]]:
    """Document spans ``[start, end)`` read between reading positions ``first`` and ``last``.

    Reading positions count characters (units) read so far, 0-based and half-open: the
    screen that shows reading positions ``[first, last)``. Returns spans in reading order.
    """
    out = []
    pos = 0
    for p in pieces:
        lo, hi = max(first, pos), min(last, pos + p.length)
        if lo < hi:
            out.append((p.start + lo - pos, p.start + hi - pos))
        pos += p.length
        if pos >= last:
            break
    return out
