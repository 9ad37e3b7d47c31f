"""One article's evaluation: the reading order and every document score (docs/reference.md sections 3-4).

:func:`evaluate_document` builds a :class:`DocumentEvaluation` once per (relevant, retrieved,
mode); its methods compute each score from the pieces in O(pieces). The GUI keeps one per
open article and recomputes when a control changes.

:func:`evaluate_documents` does the same for many articles at once (a whole run's judged
articles, in the ``natural`` and ``document`` modes): the pieces of every article in one set of
arrays, each score a segmented numpy expression over them (:class:`DocumentBatch`), equal to
:func:`evaluate_document`'s article by article (``tests/engine/test_batched_measures.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from . import docmeasures as dm
from . import intervals as iv
from .reading import Mode, Piece, Pieces


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
    article's doc_length, or further if a retrieved passage goes past it); ``doc_length`` the
    article's (None: ``n``), which the ``document`` and ``entry`` modes read.
    """

    relevant: np.ndarray
    retrieved: np.ndarray | None
    n: int
    mode: Mode
    pieces: Pieces
    entry: int = 0
    doc_length: int | None = None

    def in_mode(self, mode: Mode | str) -> DocumentEvaluation:
        """The same article (passages, doc_length, entry point) read in ``mode``."""
        if Mode(mode) is self.mode:
            return self
        return evaluate_document(self.relevant, self.retrieved, self.n if self.doc_length is None else self.doc_length,
                                 mode, self.entry)

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


def evaluate_document(
    relevant: np.ndarray,
    retrieved: np.ndarray | None,
    doc_length: int,
    mode: Mode | str = Mode.NATURAL,
    entry: int = 0,
    text_length: int | None = None,
) -> DocumentEvaluation:
    """Evaluate one article: :func:`evaluate_documents` of a batch of one.

    ``relevant``/``retrieved``: passages as ``(k, 2)`` arrays (normalized here), ``retrieved``
    ``None`` for the whole article; ``doc_length``: from the qrels (the authority, docs/reference.md
    section 1.5) or the article; ``text_length``: the article's full text length when the
    article is at hand, to clip retrieved passages to the article. Passages past doc_length
    (but within the article) are read as non-relevant text, as the official tool does; the
    ``document`` and ``entry`` modes ignore T, so there the reader reads ``[0, doc_length)``.
    The set-based scores use T in every mode. Raises ``ValueError`` for a negative
    ``doc_length`` or an unknown mode.
    """
    if doc_length < 0:
        raise ValueError(f"article extent must be >= 0, not {doc_length}")
    ret = None if retrieved is None else iv.normalize(retrieved)
    if ret is not None and text_length is not None:
        ret = iv.clip(ret, 0, max(text_length, doc_length))
    return ArticleColumns.of([iv.normalize(relevant)], [ret], [doc_length], [entry]).evaluations(mode)[0]


def in_mode_many(evaluations: list[DocumentEvaluation], mode: Mode | str) -> list[DocumentEvaluation]:
    """:meth:`DocumentEvaluation.in_mode` of each of ``evaluations``, the reading orders of all
    built at once by :func:`evaluate_documents` (the window's ranked list when the reading mode
    changes: one batch, not one reading order per article)."""
    mode = Mode(mode)
    todo = [ev for ev in evaluations if ev.mode is not mode]
    if not todo:
        return list(evaluations)
    built = iter(ArticleColumns.of([ev.relevant for ev in todo], [ev.retrieved for ev in todo],
                                   [ev.n if ev.doc_length is None else ev.doc_length for ev in todo],
                                   [ev.entry for ev in todo]).evaluations(mode))
    return [ev if ev.mode is mode else next(built) for ev in evaluations]


def row_pointers(rows: list[np.ndarray]) -> np.ndarray:
    """``ptr`` (int64 ``(len(rows) + 1,)``) such that ``rows[i]`` is ``ptr[i]:ptr[i + 1]`` of their concatenation."""
    ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in rows], out=ptr[1:])
    return ptr


@dataclass(frozen=True)
class ArticleColumns:
    """What A articles are evaluated from, as columns: the one input of the evaluation
    (:func:`evaluate_documents`), whichever way the articles were read (a run's columns joined
    with the qrels' in :mod:`readsim.core.run_columns`, or results resolved one by one in
    :mod:`readsim.core.result_lines`).

    ``doc_length`` (A,) int64; article ``a``'s relevant passages are ``relevant[rel_ptr[a]:
    rel_ptr[a + 1]]`` and its retrieved ones ``retrieved[ret_ptr[a]:ret_ptr[a + 1]]`` (each
    normalized, ``(k, 2)`` int64, in the unit of the offsets: UTF-8 bytes for INEX 2009/2010,
    or characters); ``whole[a]``: a whole-article result (no retrieved rows); ``entry[a]``: the
    entry point of the ``entry`` reading."""

    doc_length: np.ndarray
    rel_ptr: np.ndarray
    relevant: np.ndarray
    ret_ptr: np.ndarray
    retrieved: np.ndarray
    whole: np.ndarray
    entry: np.ndarray

    @classmethod
    def of(cls, relevant: list[np.ndarray], retrieved: list[np.ndarray | None], doc_length: list[int],
           entry: list[int]) -> ArticleColumns:
        """The columns of articles given one by one (normalized passages; ``None``: the whole article)."""
        ret = [iv.EMPTY if r is None else r for r in retrieved]
        return cls(np.array(doc_length, dtype=np.int64).reshape(-1), row_pointers(relevant),
                   np.concatenate(relevant + [iv.EMPTY]), row_pointers(ret), np.concatenate(ret + [iv.EMPTY]),
                   np.array([r is None for r in retrieved], dtype=bool).reshape(-1),
                   np.array(entry, dtype=np.int64).reshape(-1))

    def __len__(self) -> int:
        return len(self.doc_length)

    def evaluate(self, mode: Mode | str = Mode.NATURAL) -> DocumentBatch:
        """Every article read in ``mode``, at once (:func:`evaluate_documents`)."""
        return evaluate_documents(self.doc_length, self.rel_ptr, self.relevant, self.ret_ptr, self.retrieved,
                                  self.whole, mode, self.entry)

    def evaluations(self, mode: Mode | str = Mode.NATURAL) -> list[DocumentEvaluation]:
        """Each article as a :class:`DocumentEvaluation` read in ``mode`` (the window's rows and
        open article), the reading orders built in one batch. Its relevant passages are clipped
        to its doc_length, its entry point clamped to ``[0, doc_length]`` when read."""
        mode = Mode(mode)
        batch = self.evaluate(mode)
        dl = self.doc_length
        owner = np.repeat(np.arange(len(self)), np.diff(self.rel_ptr))
        ends = np.minimum(self.relevant[:, 1], dl[owner])
        keep = ends > self.relevant[:, 0]
        rel = np.column_stack([self.relevant[keep, 0], ends[keep]])
        rel_ptr = np.zeros(len(self) + 1, dtype=np.int64)
        np.cumsum(np.bincount(owner[keep], minlength=len(self)), out=rel_ptr[1:])
        rp, tp = rel_ptr.tolist(), self.ret_ptr.tolist()
        return [DocumentEvaluation(rel[rp[a]:rp[a + 1]], None if w else self.retrieved[tp[a]:tp[a + 1]], n, mode,
                                   pieces, e, d)
                for a, (w, n, pieces, e, d) in enumerate(zip(self.whole.tolist(), batch.n.tolist(), batch.pieces(),
                                                              self.entry.tolist(), dl.tolist()))]


# -- many articles at once -----------------------------------------------------------------------

def _segment_sums(values: np.ndarray, ptr: np.ndarray) -> np.ndarray:
    """Exact int64 sums of ``values[ptr[i]:ptr[i + 1]]``."""
    total = np.zeros(len(values) + 1, dtype=np.int64)
    np.cumsum(values, out=total[1:])
    return np.diff(total[ptr])


def _owner(ptr: np.ndarray) -> np.ndarray:
    """The segment of each row of a CSR layout with row pointer ``ptr``."""
    return np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))


@dataclass(frozen=True)
class DocumentBatch:
    """The reading orders of A articles at once, as the concatenation of their pieces.

    Per article: ``nrc`` (|R|), ``n`` (extent read), ``retrieved_size`` (|T|),
    ``relevant_retrieved`` (|R n T|), ``ptr`` (its pieces are ``ptr[a] .. ptr[a + 1] - 1``).
    Per piece, in reading order: ``article``, ``length``, ``relevant``, ``before`` (positions read
    before it in its article), ``rel_before`` (relevant ones among them) and ``start`` (its first
    position in the article). Every method
    returns one float per article, as the :class:`DocumentEvaluation` method of the same name.
    """

    nrc: np.ndarray
    n: np.ndarray
    retrieved_size: np.ndarray
    relevant_retrieved: np.ndarray
    ptr: np.ndarray
    article: np.ndarray
    length: np.ndarray
    relevant: np.ndarray
    before: np.ndarray
    rel_before: np.ndarray
    start: np.ndarray

    def __len__(self) -> int:
        return len(self.nrc)

    def pieces(self) -> list[Pieces]:
        """Each article's reading order as :class:`~readsim.core.reading.Piece` s (the window's rows)."""
        flat = [Piece(*p) for p in zip(self.start.tolist(), (self.start + self.length).tolist(), self.relevant.tolist())]
        bounds = self.ptr.tolist()
        return [tuple(flat[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]

    def _first_reaching(self, counted: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per article, the first piece whose running total ``counted`` (non-decreasing within
        the article, inclusive of the piece) reaches ``k`` (>= 1): ``(index, found)``."""
        key = (self.article << iv.SHIFT) + counted
        arts = np.arange(len(self))
        at = np.searchsorted(key, (arts << iv.SHIFT) + k, side="left")
        found = at < self.ptr[1:]
        return np.minimum(at, max(len(key) - 1, 0)), found

    def relevant_read(self, k: int) -> np.ndarray:
        """Relevant positions among the first ``k`` read (int64)."""
        reads = self.before + self.length
        if k <= 0:
            return np.zeros(len(self), dtype=np.int64)
        kk = np.minimum(k, self.n)
        at, found = self._first_reaching(reads, np.maximum(kk, 1))
        if not len(self.length):
            return np.zeros(len(self), dtype=np.int64)
        inside = self.rel_before[at] + np.where(self.relevant[at], kk - self.before[at], 0)
        total = _segment_sums(np.where(self.relevant, self.length, 0), self.ptr)
        return np.where(kk <= 0, 0, np.where(found, inside, total))

    def ave_chp(self) -> np.ndarray:
        rel = self.relevant
        pos, before_rel, length = self.before[rel], self.rel_before[rel], self.length[rel]
        terms = length - (pos - before_rel) * dm.harmonic_diffs(pos, pos + length)
        total = np.bincount(self.article[rel], weights=terms, minlength=len(self))
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.nrc > 0, total / self.nrc, 0.0)

    def chp_at(self, k: int) -> np.ndarray:
        m = np.minimum(k, self.n)
        rr = self.relevant_read(k)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where((self.nrc > 0) & (m > 0), rr / m, 0.0)

    def chr_at(self, k: int) -> np.ndarray:
        rr = self.relevant_read(max(k, 0))
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.nrc > 0, rr / self.nrc, 0.0)

    def t2i(self, tolerance: int, alpha: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if tolerance < 1:
            raise ValueError(f"T2I tolerance must be >= 1 character, not {tolerance}")
        nonrel_before = self.before - self.rel_before
        nonrel = nonrel_before + np.where(self.relevant, 0, self.length)
        at, found = self._first_reaching(nonrel, np.full(len(self), tolerance))
        if len(self.length):
            m = np.where(found, self.before[at] + tolerance - nonrel_before[at], self.n)
            rel = np.where(found, self.rel_before[at], _segment_sums(np.where(self.relevant, self.length, 0), self.ptr))
        else:
            m = rel = np.zeros(len(self), dtype=np.int64)
        ok = self.nrc > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(ok & (m > 0), rel / m, 0.0)
            r = np.where(ok, rel / self.nrc, 0.0)
        f = np.where(ok, dm.f_scores(p, r, alpha), 0.0)
        return p, r, f

    def first_relevant(self) -> np.ndarray:
        """1-based reading position of the first relevant position read; 0 for none."""
        out = np.zeros(len(self), dtype=np.int64)
        rel = np.flatnonzero(self.relevant)
        arts, first = np.unique(self.article[rel], return_index=True)
        out[arts] = self.before[rel[first]] + 1
        return out

    def le(self, screen: int, levels: int = 4) -> np.ndarray:
        if screen < 1:
            raise ValueError(f"screen size must be >= 1 character, not {screen}")
        f = self.first_relevant()
        return np.where(f > 0, np.minimum(-(-f // screen), levels), levels + 1).astype(float)

    def es(self, screen: int, levels: int = 4) -> np.ndarray:
        return np.where(self.nrc > 0, self.le(screen, levels), float(levels + 1))

    def set_scores(self, beta: float = 0.25) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        ok = self.nrc > 0
        rr, t = self.relevant_retrieved, self.retrieved_size
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(ok & (t > 0), rr / t, 0.0)
            r = np.where(ok, rr / self.nrc, 0.0)
        return p, r, np.where(ok, dm.f_scores(p, r, beta), 0.0)


def evaluate_documents(
    doc_length: np.ndarray,
    rel_ptr: np.ndarray,
    relevant: np.ndarray,
    ret_ptr: np.ndarray,
    retrieved: np.ndarray,
    whole: np.ndarray,
    mode: Mode | str = Mode.NATURAL,
    entry: np.ndarray | None = None,
) -> DocumentBatch:
    """Evaluate A articles at once: :func:`evaluate_document` (without ``text_length``) for
    each, in any reading mode (docs/reference.md section 3).

    ``doc_length`` (A,); the relevant passages of article ``a`` are ``relevant[rel_ptr[a]:
    rel_ptr[a + 1]]`` and its retrieved ones ``retrieved[ret_ptr[a]:ret_ptr[a + 1]]`` (each
    normalized, ``(k, 2)`` int64, in the unit); ``whole[a]``: a whole-article result (its
    retrieved rows are ignored); ``entry[a]``: the entry point of the ``entry`` mode (0 when
    not given; clamped to ``[0, doc_length]``). Every article is cut into elementary intervals
    at all the boundaries of R, T (and the entry point); one stable sort by (article, place in
    the reading order) puts them in reading order: the matching chain T first in the
    ``natural``, ``worst`` and ``best`` modes, then the rest (``worst``: its non-relevant part
    first, ``best``: its relevant part first), or ``[e, n)`` then ``[0, e)`` in the ``entry``
    mode (Arvola et al. 2010, section 2). Raises ``ValueError`` on an unknown mode.
    """
    mode = Mode(mode)
    A = len(doc_length)
    dl = np.asarray(doc_length, dtype=np.int64)
    whole = np.asarray(whole, dtype=bool)
    # R, clipped to [0, doc_length)
    ra = _owner(rel_ptr)
    rs, re_ = relevant[:, 0], np.minimum(relevant[:, 1], dl[ra])
    keep = re_ > rs
    ra, rs, re_ = ra[keep], rs[keep], re_[keep]
    nrc = np.bincount(ra, weights=re_ - rs, minlength=A).astype(np.int64) if len(ra) else np.zeros(A, np.int64)
    # T: the retrieved rows of passage results; [0, doc_length) for whole-article results
    ta = _owner(ret_ptr)
    rows = ~whole[ta]
    ta, ts, te = ta[rows], retrieved[rows, 0], retrieved[rows, 1]
    wa = np.flatnonzero(whole & (dl > 0))
    if len(wa):
        ta, ts, te = np.concatenate([ta, wa]), np.concatenate([ts, np.zeros(len(wa), np.int64)]), np.concatenate([te, dl[wa]])
        o = np.argsort(ta, kind="stable")
        ta, ts, te = ta[o], ts[o], te[o]
    size = np.bincount(ta, weights=te - ts, minlength=A).astype(np.int64) if len(ta) else np.zeros(A, np.int64)
    n = dl.copy()
    chained = mode not in (Mode.DOCUMENT, Mode.ENTRY)
    if chained and len(ta):
        last = np.zeros(A, dtype=np.int64)
        np.maximum.at(last, ta, te)
        n = np.maximum(n, last)
    # elementary intervals: cut [0, n) at every boundary of R and T (and the entry point)
    arts = np.arange(A)
    e_at = np.zeros(A, np.int64)
    if mode is Mode.ENTRY and entry is not None:
        e_at = np.minimum(np.maximum(np.asarray(entry, dtype=np.int64), 0), n)
    cuts = A if mode is Mode.ENTRY else 0  # the entry point is one more boundary
    pos = np.concatenate([np.zeros(A, np.int64), n, e_at[:cuts], rs, re_, ts, te])
    art = np.concatenate([arts, arts, arts[:cuts], ra, ra, ta, ta])
    fixed = 2 * A + cuts
    d_rel = np.concatenate([np.zeros(fixed, np.int8), np.ones(len(ra), np.int8), -np.ones(len(ra), np.int8),
                            np.zeros(2 * len(ta), np.int8)])
    d_ret = np.concatenate([np.zeros(fixed + 2 * len(ra), np.int8), np.ones(len(ta), np.int8), -np.ones(len(ta), np.int8)])
    o = np.argsort((art << iv.SHIFT) + pos, kind="stable")
    pos, art = pos[o], art[o]
    in_rel = np.cumsum(d_rel[o], dtype=np.int64) > 0
    in_ret = np.cumsum(d_ret[o], dtype=np.int64) > 0
    start, end = pos[:-1], pos[1:]
    ok = (art[1:] == art[:-1]) & (end > start) & (start < n[art[:-1]])
    idx = np.flatnonzero(ok)
    a, s, e, r, t = art[idx], start[idx], end[idx], in_rel[idx], in_ret[idx]
    relret = np.bincount(a[r & t], weights=(e - s)[r & t], minlength=A).astype(np.int64) if len(a) else np.zeros(A, np.int64)
    # reading order: each interval's place (0, 1, 2), document order within a place
    if mode is Mode.ENTRY:
        place = (s < e_at[a]).astype(np.int64)  # [e, n), then [0, e)
    elif mode is Mode.DOCUMENT:
        place = np.zeros(len(a), np.int64)
    else:  # the chain (T) first, then the rest
        place = np.where(t, 0, 1 if mode is Mode.NATURAL else np.where(r == (mode is Mode.WORST), 2, 1))
    o = np.argsort(a * 3 + place, kind="stable")
    a, s, e, r, place = a[o], s[o], e[o], r[o], place[o]
    # neighbours that continue each other in one place are one piece: the chain's last piece
    # ends where the chain ends, even when the rest goes on after it (reference 3)
    head = np.ones(len(a), dtype=bool)
    head[1:] = (a[1:] != a[:-1]) | (s[1:] != e[:-1]) | (r[1:] != r[:-1]) | (place[1:] != place[:-1])
    heads = np.flatnonzero(head)
    length = np.add.reduceat(e - s, heads) if len(heads) else np.zeros(0, np.int64)
    a, r, s = a[heads], r[heads], s[heads]
    ptr = np.zeros(A + 1, dtype=np.int64)
    np.cumsum(np.bincount(a, minlength=A), out=ptr[1:])
    read = np.cumsum(length)
    rel_read = np.cumsum(np.where(r, length, 0))
    base = np.concatenate([[0], read])[ptr[:-1]]
    rel_base = np.concatenate([[0], rel_read])[ptr[:-1]]
    before = read - length - base[a]
    rel_before = rel_read - np.where(r, length, 0) - rel_base[a]
    return DocumentBatch(nrc, n, size, relret, ptr, a, length, r, before, rel_before, s)
