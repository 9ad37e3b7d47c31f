"""One article's evaluation: the reading order and every document score (SPEC sections 4-5).

:func:`evaluate_document` builds a :class:`DocumentEvaluation` once per (relevant, retrieved,
mode); its methods compute each score from the pieces in O(pieces). The GUI keeps one per
open article and recomputes when a control changes; the batch evaluator makes one per
(topic, article) of a run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from . import docmeasures as dm
from . import intervals as iv
from .reading import Mode, Pieces, reading_order


@dataclass(frozen=True)
class Settings:
    """The reader's parameters. Sizes are in the unit of the offsets (bytes or characters).

    ``screen``: characters per screen for LE/ES and ChP@screen (300 mobile, 2000 laptop);
    ``tolerance``: T2I tolerance to irrelevance (INEX default 300); ``alpha``: T2IF's weight
    (1 in the paper); ``beta``: the set-based F's weight (0.25, INEX 2008-2010 official);
    ``levels``: LE's levels L (4), so NR = L + 1; ``entry``: entry point for ``Mode.ENTRY``.
    """

    mode: Mode = Mode.NATURAL
    screen: int = 300
    tolerance: int = 300
    alpha: float = 1.0
    beta: float = 0.25
    levels: int = 4
    entry: int = 0


@dataclass(frozen=True)
class DocumentEvaluation:
    """An article's relevant and retrieved passages, its extent and its reading order.

    ``relevant`` and ``retrieved`` are normalized ``(k, 2)`` int64 arrays in the unit;
    ``retrieved`` is ``None`` for a whole-article result. ``n`` is the extent read (the
    article's doc_length, or further if a retrieved passage goes past it).
    """

    relevant: np.ndarray
    retrieved: np.ndarray | None
    n: int
    mode: Mode
    pieces: Pieces
    entry: int = 0

    # -- sizes (computed once: the dataclass is frozen) -----------------------------------
    @cached_property
    def nrc(self) -> int:
        """|R|: relevant positions (NRC in Arvola et al. 2010)."""
        return iv.total(self.relevant)

    @property
    def is_relevant(self) -> bool:
        return self.nrc > 0

    @property
    def retrieved_spans(self) -> np.ndarray:
        """T as intervals: the whole extent for a whole-article result."""
        if self.retrieved is None:
            return iv.as_array([(0, self.n)]) if self.n else iv.EMPTY
        return self.retrieved

    @cached_property
    def retrieved_size(self) -> int:
        """|T|."""
        return iv.total(self.retrieved_spans)

    @cached_property
    def relevant_retrieved(self) -> int:
        """|R n T|."""
        return iv.total(iv.intersect(self.relevant, self.retrieved_spans))

    @property
    def chain_length(self) -> int:
        """Positions read along the matching chain (|T|, 0 in the document and entry modes)."""
        return 0 if self.mode in (Mode.DOCUMENT, Mode.ENTRY) else self.retrieved_size

    # -- scores -------------------------------------------------------------------------
    def ave_chp(self) -> float:
        return dm.ave_chp(self.pieces, self.nrc)

    def chp_at(self, k: int) -> float:
        return dm.chp_at(self.pieces, self.nrc, k)

    def chr_at(self, k: int) -> float:
        return dm.chr_at(self.pieces, self.nrc, k)

    def t2i(self, tolerance: int, alpha: float = 1.0) -> tuple[float, float, float]:
        return dm.t2i(self.pieces, self.nrc, tolerance, alpha)

    def t2i_stop(self, tolerance: int) -> int:
        """Reading position (1-based count of positions read) where the T2I reader stops."""
        return dm.t2i_stop(self.pieces, tolerance)[0]

    def first_relevant(self) -> int | None:
        return dm.first_relevant(self.pieces)

    def le(self, screen: int, levels: int = 4) -> int:
        return dm.localizing_effort(self.pieces, screen, levels)

    def es(self, screen: int, levels: int = 4) -> int:
        return dm.effort_score(self.pieces, self.nrc, screen, levels)

    def set_scores(self, beta: float = 0.25) -> tuple[float, float, float]:
        return dm.set_scores(self.relevant_retrieved, self.retrieved_size, self.nrc, beta)

    def curve(self, samples: int = 400) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return dm.precision_curve(self.pieces, self.nrc, samples)

    def scores(self, s: Settings) -> dict[str, float]:
        """The window's score panel: canonical measure name -> value, for settings ``s``."""
        from .measure import panel_measures

        return {m.name: m.value(self, s.levels) for m in panel_measures(s)}


def evaluate_document(
    relevant: np.ndarray,
    retrieved: np.ndarray | None,
    doc_length: int,
    mode: Mode | str = Mode.NATURAL,
    entry: int = 0,
    text_length: int | None = None,
) -> DocumentEvaluation:
    """Evaluate one article.

    ``relevant``/``retrieved``: passages as ``(k, 2)`` arrays (normalized here), ``retrieved``
    ``None`` for the whole article; ``doc_length``: from the qrels (the authority, SPEC
    section 2) or the article; ``text_length``: the article's full text length when the
    article is at hand, to clip retrieved passages to the article. Passages past doc_length
    (but within the article) are read as non-relevant text, as the official tool does; the
    ``document`` and ``entry`` modes ignore T, so there the reader reads ``[0, doc_length)``.
    The set-based scores use T in every mode.
    """
    rel = iv.clip(iv.normalize(relevant), 0, doc_length)
    ret = None if retrieved is None else iv.normalize(retrieved)
    if ret is not None and text_length is not None:
        ret = iv.clip(ret, 0, max(text_length, doc_length))
    mode = Mode(mode)
    n = doc_length
    if ret is not None and len(ret) and mode not in (Mode.DOCUMENT, Mode.ENTRY):
        n = max(n, int(ret[-1, 1]))  # the chain reads retrieved text past doc_length
    return DocumentEvaluation(rel, ret, n, mode, reading_order(n, rel, ret, mode, entry), entry)
