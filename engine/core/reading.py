"""Reading orders of one article as pieces (docs/reference.md section 3; Arvola et al. 2010, section 2).

A reading order is the sequence in which the simulated user reads the article's positions.
It is represented as a short tuple of homogeneous :class:`Piece` s ``(start, end, relevant)``
in reading sequence, never as a list of characters: its size is O(passages), and every
measure in :mod:`readsim.core.docmeasures` is a scan over it. Reading orders are built for many
articles at once, one way (:func:`readsim.core.doc_evaluation.evaluate_documents`); one article is a batch
of one (:func:`readsim.core.doc_evaluation.evaluate_document`). Offsets are in the caller's unit
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


class Mode(str, Enum):
    """How the reader goes on after the matching chain."""

    NATURAL = "natural"
    WORST = "worst"
    BEST = "best"
    DOCUMENT = "document"
    ENTRY = "entry"

    def __str__(self) -> str:
        return self.value


READING_MODES = tuple(Mode)
"""Every reading mode, in the order the command lines and the window offer them (natural, worst,
best, document, entry): written once here, imported by the app."""


class Piece(NamedTuple):
    """A run of positions ``[start, end)`` read one after another, all relevant or all not."""

    start: int
    end: int
    relevant: bool

    @property
    def length(self) -> int:
        return self.end - self.start


Pieces = tuple[Piece, ...]


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
