"""What the article view marks, as display spans (pure: numpy and the engine, no Qt).

Relevance and retrieval stay sorted interval arrays in the unit (bytes or characters); here
they are split into three disjoint classes and mapped to display positions (Qt's UTF-16
positions of the document built from :attr:`Layout.blocks`) with
:meth:`Layout.spans_to_display`. Every array is ``(k, 2)`` int64, sorted, half-open.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from readsim.core import intervals as iv
from readsim.core.doc_evaluation import DocumentEvaluation
from readsim.core.layout import Layout
from readsim.core.reading import Mode, window


@dataclass(frozen=True)
class Marks:
    """Display spans: relevant only, retrieved only, both; the matching chain's passages as
    ``(number, start, end)`` in document order (numbers 1-based, empty passages skipped)."""

    relevant: np.ndarray
    retrieved: np.ndarray
    both: np.ndarray
    chain: tuple[tuple[int, int, int], ...]


def chain_passages(ev: DocumentEvaluation) -> np.ndarray:
    """The matching chain's passages in the unit, in document order (none in document mode)."""
    if ev.mode in (Mode.DOCUMENT, Mode.ENTRY):
        return iv.EMPTY
    return ev.retrieved_spans


def marks(lay: Layout, ev: DocumentEvaluation) -> Marks:
    """The marks of an article laid out as ``lay`` under evaluation ``ev``."""
    passages = chain_passages(ev)
    chain = []
    if len(passages):  # numbered before empty display spans are dropped, so numbers stay the run's
        starts, ends = lay.to_display(passages[:, 0], "start"), lay.to_display(passages[:, 1], "end")
        chain = [(n, int(a), int(b)) for n, (a, b) in enumerate(zip(starts, ends), 1) if b > a]
    return Marks(*_classes(lay, ev.relevant, ev.retrieved_spans), chain=tuple(chain))


_last_classes: tuple | None = None  # ((lay, relevant bytes, retrieved bytes), classes) of the last call


def _classes(lay: Layout, rel: np.ndarray, ret: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Display spans of relevant only, retrieved only, both. The last article's are kept: a
    reading-mode change re-derives the evaluation (new arrays, the same spans) and its classes
    do not change; the same arrays are handed back, so the view sees nothing new to paint."""
    global _last_classes
    key, hit = (lay, rel.tobytes(), ret.tobytes()), _last_classes
    if hit is not None and hit[0][0] is lay and hit[0][1:] == key[1:]:
        return hit[1]
    classes = (lay.spans_to_display(iv.subtract(rel, ret)), lay.spans_to_display(iv.subtract(ret, rel)),
               lay.spans_to_display(iv.intersect(rel, ret)))
    _last_classes = (key, classes)
    return classes


def screens(ev: DocumentEvaluation, screen: int) -> int:
    """K, the number of screens of ``screen`` characters needed to read the whole order (>= 1)."""
    return max(1, -(-ev.n // max(screen, 1)))


def screen_spans(ev: DocumentEvaluation, screen: int, step: int) -> list[tuple[int, int]]:
    """Unit spans read on screen ``step`` (0-based): reading positions
    ``[step*screen, (step+1)*screen)``, in reading order (:func:`reading.window`)."""
    return window(ev.pieces, step * screen, (step + 1) * screen)
